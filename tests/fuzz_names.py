"""The fuzz reader ``names`` (issue 33, points 1 and 7): every name the web app
takes, hostile.

Names reach the web store four ways: the person who starts a game (``human``
of ``POST /api/games``), the players of a GCG record (``#player`` lines of
``POST /api/gcg/import``, to view or, with ``play_as``, to go on with), an
opponent's ``level`` (a computer seat is named after its level: "h3", "sim
2s", "greedy #2"), and the rows of a store written by an older rackety. The
payloads are those, with names made hostile: the levels' own names in every
spelling (case, full-width and mathematical letters, zero-width and other
invisible characters, odd spaces, a second seat's "#2"), NFD and NFC forms,
control characters, very long names, SQL and format strings, HTML.

Beyond `fuzzing.check_http` (no 5xx, a 4xx is one JSON line), `run` checks the
invariant of point 1 after every request: a new game against every computer
level still starts, that level in a computer seat under its own name, and the
players' listing and rankings answer. A game the request started reads back
(its state, GCG record and report). A person's name that reads as a level's
is refused ("refused" expected).

Each input gets a new store, so that its request is the first thing the store
sees (the attack of point 1: a name taken before any game against the level);
the payload's ``before`` names levels played against first (the other order:
a record's "h1" must not take the level's row either). After the request the
store is checked (every seat of a record is a person's; every seat of a game
is of the kind the game says) and, with ``restart`` in the payload (and for
old stores), the invariant is checked again on a new app over the same file:
what one request stored must not break a later server.
"""

from __future__ import annotations

import functools
import json
import re
import sqlite3
import unicodedata
from typing import Any

import fuzzing
from fuzzing import Context, ContractError, RandomChooser, check_http, clip
from web_server import version_2_store

from rackety.frontends.web.service import MAX_SIM_SECONDS

SANDBOXED = False
MAX_SECONDS = MAX_SIM_SECONDS  # a timed level's budget a move: 0.1 to this
MIN_SECONDS = 0.1
LEAVES = "mine"  # the leave table the fuzz's server offers, as the level leaves:mine

#: every computer level the server offers: (level, seconds, the seat's name)
LEVELS: tuple[tuple[str, float | None, str], ...] = (
    ("static", None, "static"), ("greedy", None, "greedy"), ("h1", None, "h1"),
    ("h2", None, "h2"), ("h3", None, "h3"), ("sim", None, "sim 2s"), ("best", None, "best 2s"),
    (f"leaves:{LEAVES}", None, f"leaves:{LEAVES}"))

#: names computer seats have, or that read like one
LEVEL_NAMES = ("static", "greedy", "h1", "h2", "h3", "sim", "best", "sim 2s", "best 2s",
               "sim 0.1s", "best 30s", "sim 30s", "best 0.5s", "greedy #2", "h3 #3",
               f"leaves:{LEAVES}", "leaves:other", "best 2s #2")
#: names that are people's, however odd
PEOPLE = ("you", "Ann", "h4", "simon", "bestie", "greedy2", "static electricity", "José",
          "Zoë", "İstanbul", "ǅemal", "ﬁfi", "👩\u200d💻", "李小龍", "محمد", "x" * 40,
          "Robert'); DROP TABLE players;--", "' OR '1'='1", "%s%s%n", "{0}{name}",
          "<script>alert(1)</script>", "\" onmouseover=\"alert(1)", "&amp;", "null", "None",
          "computer", "human", "#player1", ">ann:", "ann: ADEHLRT 8D HALTED +28 28",
          "a\x85b", "tab\tbed", "  spaced   out  ")
#: names that must be refused for a person: nothing visible, control characters
#: (line breaks, escapes, text direction)
UNNAMED = ("", " ", "\u200b", "\u200b\u2060\ufeff", "\u00ad", "a\x00b", "x\x1b[31mred",
           "\u202eevil", "a\u2066b", "\x7f", "a\x9bb")
#: odd characters that do not change how a name reads
INVISIBLE = ("\u200b", "\u200c", "\u200d", "\u2060", "\ufeff", "\u00ad", "\u180e")
SPACES = (" ", "  ", "\t", "\u00a0", "\u2003", "\u3000", "\u202f")
NUMBER_NAMES = ("sim {}s", "best {}s", "sim {} s", "BEST {}S")
# seconds on both sides of the bounds (the numbers a level's name may carry)
SECONDS = ("0.1", "0.099", "30", "30.01", "2", "1e1", "0", "-1", "nan", "inf", "9" * 400,
           "٣", "1_0", "0x10")

GCG_MOVE = ">{nick}: ADEHLRT 8D HALTED +28 28\n"


# ------------------------------------------------------------------- names
def name_key(name: str) -> str:
    """How a name reads (the reference of the check, written here on its own):
    compatibility forms folded (NFKC), case folded, format characters (Cf: the
    zero-width ones) left out, runs of spaces one space."""
    text = unicodedata.normalize("NFKC", unicodedata.normalize("NFKC", name).casefold())
    text = "".join(c for c in text if unicodedata.category(c) != "Cf")
    return " ".join(text.split())


_TIMED = re.compile(r"(sim|best) ?([0-9.]+) ?s(?: ?#[0-9]+)?")


def level_of(name: str) -> tuple[str, float | None, str] | None:
    """The computer seat a name reads as, when it is one the server offers with
    a budget in its bounds: (level, seconds, seat name)."""
    key = name_key(name)
    key = re.sub(r" ?#[0-9]+$", "", key)
    for level, seconds, label in LEVELS:
        if key in (label, level):
            return level, seconds, label
    match = _TIMED.fullmatch(key)
    if match:
        try:
            seconds = float(match.group(2))
        except ValueError:
            return None
        if MIN_SECONDS <= seconds <= MAX_SECONDS:
            return match.group(1), seconds, f"{match.group(1)} {seconds:g}s"
    return None


def reads_as_level(name: str) -> bool:
    """Whether a person may not take the name: it reads as a computer seat's."""
    key = re.sub(r" ?#[0-9]+$", "", name_key(name))
    return bool(key in {n for n in LEVEL_NAMES if "#" not in n} or key.startswith("leaves:")
                or re.fullmatch(r"(sim|best) ?[0-9.][0-9.e+-]* ?s", key))


def _wide(c: str) -> str:
    return chr(ord(c) + 0xFEE0) if "!" <= c <= "~" else "\u3000" if c == " " else c


def _bold(c: str) -> str:
    if "a" <= c <= "z":
        return chr(0x1D41A + ord(c) - ord("a"))
    if "A" <= c <= "Z":
        return chr(0x1D400 + ord(c) - ord("A"))
    if "0" <= c <= "9":
        return chr(0x1D7CE + ord(c) - ord("0"))
    return c


def level_variant(name: str, ch: RandomChooser) -> str:
    """``name`` spelt another way that reads the same (`name_key`): each
    character upper case, full-width, mathematical bold, a long s, followed by
    an invisible one, each space another space; padded with spaces or
    invisibles."""
    out = []
    for c in name:
        if c == " ":
            out.append(ch.choice(SPACES))
            continue
        form = ch.below(7)
        if form == 1:
            c = c.upper()
        elif form == 2:
            c = _wide(c)
        elif form == 3:
            c = _bold(c)
        elif form == 4 and c == "s":
            c = "ſ"  # LATIN SMALL LETTER LONG S: its case fold is s
        elif form == 5:
            c += ch.choice(INVISIBLE)
        out.append(c)
    pad = ("", " ", "\u200b", "\u3000")
    return ch.choice(pad) + "".join(out) + ch.choice(pad)


# ---------------------------------------------------------------- payloads
def person_case(name: str, level: str = "greedy") -> dict[str, Any]:
    return {"form": "person", "name": name, "level": level}


def record_case(names: list[str], nicks: list[str] | None = None, play_as: str | None = None,
            opponents: list[str] | None = None) -> dict[str, Any]:
    nicks = nicks or [f"p{i + 1}" for i in range(len(names))]
    return {"form": "record", "players": [[n, f] for n, f in zip(nicks, names, strict=True)],
            "play_as": play_as, "opponents": opponents}


def opponent_case(level: str, seconds: float | None = None) -> dict[str, Any]:
    return {"form": "opponent", "level": level, "seconds": seconds}


def old_store_case(rows: list[list[Any]]) -> dict[str, Any]:
    """A store of schema version 2 holding ``rows`` (name, kind, rating) and a
    record between the first two."""
    return {"form": "old_store", "rows": rows}


def _person_expect(name: str) -> str | None:
    return "refused" if reads_as_level(name) or unnamed(name) else None


def unnamed(name: str) -> bool:
    """Whether a person's name is refused as no name: nothing visible once its
    spaces are collapsed, or a control character (text direction too) left."""
    collapsed = " ".join(name.split())
    return (not name_key(name).replace(" ", "")
            or any(unicodedata.category(c) == "Cc" for c in collapsed)
            or bool(re.search("[\u202a-\u202e\u2066-\u2069]", name)))


@functools.cache
def hostile() -> tuple[tuple[str, dict[str, Any], str | None], ...]:
    """Named hostile inputs (kept few: each starts a web app on a new store):
    levels' names and their variants as a person's, as a record's players and
    nicknames, with ``play_as``, as an opponent's level; the bounds of a timed
    level's seconds in a name; people's odd names; old stores."""
    refused = "refused"
    persons = {
        "level-h1": "h1", "level-best": "best 2s", "level-sim": "sim 2s",
        "level-static": "static", "level-second-seat": "greedy #2", "level-h3-third": "h3 #3",
        "level-leaves": f"leaves:{LEAVES}", "level-leaves-other": "leaves:other",
        "level-best-30": "best 30s", "level-sim-0.1": "sim 0.1s",
        "full-width": "Ｈ１", "math-bold": "𝐡𝟏", "zero-width": "h\u200b1",
        "case": "Best 2S", "ideographic-space": "best\u30002s", "long-s": "beſt 2ſ",
        "soft-hyphen": "stat\u00adic", "spaces": "  GREEDY\t #7 ", "sim-spaced": "sim 2 s",
        # a level's name out of the budget's bounds still reads as a level's
        "seconds-below": "best 0.099s", "seconds-above": "best 30.01s",
        # people's names
        "negative-seconds": "best -1s", "arabic-digit": "sim ٣s", "h4": "h4",
        "simon": "simon", "long-40": "y" * 40, "sql": "Robert'); DROP TABLE players;--",
        "html": "<script>alert(1)</script>", "nfd": unicodedata.normalize("NFD", "José Zoë"),
        "zwj-emoji": "👩\u200d💻", "nel": "a\x85b",
        # no names
        "long-41": "y" * 41, "long-huge": "z" * 100_000, "invisible": "\u200b\u2060\ufeff",
        "nul": "a\x00b", "escape": "x\x1b[31mred", "bidi": "\u202eevil",
        "surrogate": "ann\ud800", "empty": "",
    }
    cases: list[tuple[str, dict[str, Any], str | None]] = [
        (f"person-{key}", person_case(name, "h1" if i % 2 else "greedy"),
         _person_expect(name)) for i, (key, name) in enumerate(persons.items())]
    every = [level for level, _, _ in LEVELS]
    cases += [
        ("record-levels", {**record_case(["h1", "h2", "h3", "best 2s"]), "restart": True}, None),
        ("record-levels-2", record_case(["static", "greedy", "sim 2s", f"leaves:{LEAVES}"]),
         None),
        ("record-variants", record_case(["Ｈ１", "h1\u200b", "GREEDY", "best 0.5s"]), None),
        ("record-level-nicknames", record_case(["h1", "greedy"], nicks=["h1", "greedy"]), None),
        ("record-levels-after-games", {**record_case(["h1", "best 2s", "sim 2s"]),
                                       "before": every}, None),
        ("record-play-as-among-levels", record_case(
            ["Ann", "h1", "best 2s"], play_as="p1", opponents=["h2", "greedy"]), None),
        ("record-play-as-a-level", record_case(["h1", "Ann"], play_as="p1",
                                               opponents=["greedy"]), refused),
        ("record-play-as-a-variant", record_case(["Ann", "ＢＥＳＴ ２ｓ"], play_as="p2",
                                                 opponents=["best"]), refused),
        ("record-newline-name", record_case(["Ann\n#player3 h1 h1", "Bob"]), None),
        ("record-long-name", record_case(["n" * 50_000, "Ann"]), None),
        ("record-html-and-sql", record_case(["<img src=x onerror=alert(1)>",
                                             "'; DROP TABLE players;--"]), None),
        ("record-nfd-play-as", record_case([unicodedata.normalize("NFD", "Zoë"), "h1"],
                                           play_as="p1", opponents=["h1"]), None),
        ("opponent-full-width", opponent_case("Ｈ１"), None),
        ("opponent-zero-width", opponent_case("h1\u200b"), None),
        ("opponent-a-person", opponent_case("Ann"), None),
        ("opponent-leaves-path", opponent_case("leaves:../../etc/passwd"), None),
        ("opponent-best-seconds-low", opponent_case("best", 0.1), None),
        ("opponent-best-seconds-below", opponent_case("best", 0.0999), None),
        ("opponent-sim-seconds-high", opponent_case("sim", 30.0), None),
        ("opponent-sim-seconds-above", opponent_case("sim", 30.001), None),
        ("old-store-levels-as-people", old_store_case(
            [["h1", "human", 1516.0], ["best 2s", "human", 1484.0], ["h2", "computer", 1500.0],
             ["greedy", "human", 1500.0], ["static", "human", 1500.0],
             ["sim 2s", "human", 1500.0], ["h3", "human", 1500.0],
             [f"leaves:{LEAVES}", "human", 1500.0]]), None),
        ("old-store-computer-in-record", old_store_case(
            [["Ann", "human", 1500.0], ["h1", "computer", 1540.0], ["h2", "human", 1460.0]]),
         None),
        ("old-store-odd-names", old_store_case(
            [["Ｈ１", "human", 1500.0], ["h1\u200b", "human", 1500.0],
             ["'; DROP TABLE players;--", "human", 1500.0], ["best 2s", "computer", 1500.0]]),
         None),
    ]
    return tuple(cases)


def generate(ch: RandomChooser) -> tuple[dict[str, Any], str | None]:
    """One input: a hostile one, one with its names mutated, or a new one: a
    variant of a level's name, a name with a level's seconds, a person's odd
    name or no name, in one of the places a name goes."""
    cases = hostile()
    pick = ch.below(10)
    if pick < 2:
        _name, payload, expect = ch.choice(cases)
        return json.loads(json.dumps(payload)), expect
    if pick < 5:
        _name, payload, _expect = ch.choice(cases)
        return _mutated(json.loads(json.dumps(payload)), ch), None
    name = level_variant(ch.choice(LEVEL_NAMES), ch)
    extra = {"before": [level for level, _, _ in LEVELS if ch.chance(30)],
             "restart": ch.chance(20)}
    form = ch.below(8)
    if form == 0:
        return person_case(name, ch.choice(LEVELS)[0]), "refused"
    if form == 1:
        return {**record_case([name, ch.choice(PEOPLE)]), **extra}, None
    if form == 2:
        return {**record_case([ch.choice(PEOPLE), name], play_as="p1",
                              opponents=[ch.choice(LEVELS)[0]]), **extra}, None
    if form == 3:
        return opponent_case(name, ch.choice((None, 0.1, 2.0, 30.0))), None
    if form == 4:
        others = [[level_variant(ch.choice(LEVEL_NAMES), ch),
                   ch.choice(("human", "computer")), 1400.0 + ch.below(200)]
                  for _ in range(1 + ch.below(3))]
        return old_store_case([[name, "human", 1500.0], *others]), None
    if form == 5:
        timed = ch.choice(NUMBER_NAMES).format(ch.choice(SECONDS))
        return person_case(timed), _person_expect(timed)
    if form == 6:
        other = ch.choice(UNNAMED + PEOPLE)
        return person_case(other, ch.choice(LEVELS)[0]), _person_expect(other)
    pool = (name, *PEOPLE, *UNNAMED, *LEVEL_NAMES)
    names = [ch.choice(pool) for _ in range(2 + ch.below(3))]
    return {**record_case(names), **extra}, None


def _mutated(payload: dict[str, Any], ch: RandomChooser) -> dict[str, Any]:
    """One name of ``payload`` mutated (`fuzzing.mutate`) or respelt (`level_variant`)."""
    def change(text: str) -> str:
        return level_variant(text, ch) if ch.chance(40) else fuzzing.mutate(
            text, ch, LEVEL_NAMES + PEOPLE)

    form = payload["form"]
    if form == "person":
        payload["name"] = change(payload["name"])
    elif form == "opponent":
        payload["level"] = change(payload["level"])
    elif form == "record":
        seat = ch.below(len(payload["players"]))
        payload["players"][seat][ch.below(2)] = change(payload["players"][seat][1])
        if payload.get("play_as") and ch.chance(30):
            payload["play_as"] = change(payload["play_as"])
    elif form == "old_store":
        row = ch.choice(payload["rows"])
        row[0] = change(row[0])
    return payload


# --------------------------------------------------------------------- run
def _leave_table(ctx: Context) -> str:
    from rackety.lexicon.klv import Klv

    path = ctx.tmp / f"{LEAVES}.klv2"
    if not path.exists():
        Klv.from_values("english", {"S": 8.0, "?": 25.0, "Q": -7.0}).save(path)
    return str(path)


def _app_client(db: Any, ctx: Context) -> Any:
    from fastapi.testclient import TestClient

    from rackety.frontends.web.app import create_app

    app = create_app(db, leaves={LEAVES: _leave_table(ctx)}, warm=False)
    return TestClient(app, raise_server_exceptions=True)


def _close(client: Any) -> None:
    client.app.state.service.store.close()


def _gcg(players: list[list[str]]) -> str:
    lines = ["#character-encoding UTF-8"]
    lines += [f"#player{i} {nick} {name}" for i, (nick, name) in enumerate(players, 1)]
    lines.append("#lexicon TWL06")
    return "\n".join(lines) + "\n" + GCG_MOVE.format(nick=players[0][0] if players else "x")


def _names(payload: dict[str, Any]) -> list[str]:
    form = payload.get("form")
    if form == "person":
        return [payload["name"]]
    if form == "opponent":
        return [payload["level"]]
    if form == "record":
        return [x for pair in payload["players"] for x in pair] + \
            ([payload["play_as"]] if payload.get("play_as") else [])
    return [row[0] for row in payload.get("rows", ())]


def every_level_plays(client: Any, what: str, names: list[str] = (), *,
                      computers_named_by_level: bool = True,
                      only: list[str] | None = None) -> None:
    """The invariant of point 1: a new game against every level the server
    offers (and every level ``names`` read as) starts, with that level in a
    computer seat under its own name; the listings answer, each player once
    (by kind and name), and (``computers_named_by_level``) every computer player
    is called after a level. ``only``: the levels of these ids alone."""
    targets = list(LEVELS) if only is None else [x for x in LEVELS if x[0] in only]
    for name in names:
        level = level_of(name) if isinstance(name, str) else None
        if level is not None and level not in targets:
            targets.append(level)
    for level, seconds, label in targets:
        body = {"human": "fuzzer", "seed": 1, "lexicon": "TWL06",
                "opponents": [{"level": level, "seconds": seconds}]}
        response = client.post("/api/games", json=body)
        if response.status_code != 201:
            raise ContractError("readback", f"after {what}: a game against {label} fails: "
                                            f"HTTP {response.status_code} {clip(response.text)}")
        seat = response.json()["players"][1]
        if (seat["name"], seat["kind"], seat["level"]) != (label, "computer", level):
            raise ContractError("readback", f"after {what}: the seat of {label} is "
                                            f"{clip(json.dumps(seat))}")
    for url in ("/api/players", "/api/rankings"):
        response = client.get(url)
        if response.status_code != 200:
            raise ContractError("readback", f"after {what}: GET {url}: HTTP "
                                            f"{response.status_code} {clip(response.text)}")
    players = client.get("/api/players").json()["players"]
    seen = {(p["kind"], p["name"]) for p in players}
    if len(seen) != len(players):
        raise ContractError("readback", f"after {what}: a (kind, name) listed twice")
    for p in players if computers_named_by_level else ():
        if p["kind"] == "computer" and level_of(p["name"]) is None:
            raise ContractError("readback", f"after {what}: a computer player called "
                                            f"{clip(p['name'])!r}, not a level's name")


def _reads_back(client: Any, response: Any, what: str, names: list[str]) -> None:
    """A game a request started: its state and GCG record answer 200, and when a
    name holds HTML its report too, without the name unescaped (the report
    analyses the game: seconds, so only then)."""
    game_id = response.json()["id"]
    html = any(isinstance(n, str) and re.search("[<>&\"']", n) for n in names)
    for path in ("", "/gcg", *(("/report",) if html else ())):
        got = client.get(f"/api/games/{game_id}{path}")
        if got.status_code != 200:
            raise ContractError("readback", f"{what}: GET game {game_id}{path}: HTTP "
                                            f"{got.status_code} {clip(got.text)}")
        if path == "/report":
            for name in names:
                if isinstance(name, str) and "<" in name and name in got.text:
                    raise ContractError("readback", f"{what}: the report holds "
                                                    f"{clip(name)!r} unescaped")


class _Recorder:
    """A test client that keeps the last response (`fuzzing.check_http` checks it
    and says only "accepted" or "refused")."""

    def __init__(self, client: Any) -> None:
        self.client = client
        self.response: Any = None

    def request(self, method: str, url: str, **kwargs: Any) -> Any:
        self.response = self.client.request(method, url, **kwargs)
        return self.response


def _request(client: Any, payload: dict[str, Any]) -> tuple[str, str, Any]:
    """(what, outcome, response) of the request ``payload`` makes."""
    form = payload.get("form")
    if form == "person":
        body = {"human": payload["name"], "seed": 1, "lexicon": "TWL06",
                "opponents": [{"level": payload.get("level", "greedy")}]}
        url = "/api/games"
    elif form == "opponent":
        body = {"seed": 1, "lexicon": "TWL06",
                "opponents": [{"level": payload["level"], "seconds": payload.get("seconds")}]}
        url = "/api/games"
    elif form == "record":
        body = {"gcg": _gcg(payload["players"])}
        if payload.get("play_as") is not None:
            body["play_as"] = payload["play_as"]
            body["opponents"] = [{"level": level} for level in payload.get("opponents") or []]
        url = "/api/gcg/import"
    else:
        raise ValueError(f"names: no form {form!r}")
    what = f"POST {url} {clip(json.dumps(body, ensure_ascii=True), 160)}"
    recorder = _Recorder(client)
    outcome = check_http(recorder, "POST", url, json=body)
    return what, outcome, recorder.response


def _write_old_store(path: Any, payload: dict[str, Any]) -> list[list[Any]]:
    """A store of schema version 2 (the one before people and levels were apart)
    at ``path`` holding the payload's rows (the first of each name, UTF-8 ones)
    and a record between the first two of them; returns the rows."""
    rows, seen = [], set()
    for row in payload.get("rows", ()):
        name, kind, rating = ([*row, None, None, None] if isinstance(row, list) else
                              [None, None, None])[:3]
        if not isinstance(name, str) or not name.strip() or name in seen \
                or kind not in ("human", "computer"):
            continue
        try:
            name.encode("utf-8")
        except UnicodeEncodeError:
            continue
        seen.add(name)
        rows.append([name, kind, float(rating) if isinstance(rating, int | float) and
                     abs(rating) < 1e9 else 1500.0])
    db = version_2_store(path, [(k + 1, name, kind, name if kind == "computer" else None,
                                 rating, 0, 0, 0) for k, (name, kind, rating) in enumerate(rows)])
    try:
        if len(rows) >= 2:
            db.execute("INSERT INTO games (created, updated, status, config, gcg, turn) VALUES"
                       " ('2024-01-01T00:00:00Z', '2024-01-01T00:00:00Z', 'record',"
                       " '{\"record\": true}', '', 0)")
            db.execute("INSERT INTO game_players (game_id, seat, player_id, score, rank)"
                       " VALUES (1, 0, 1, 28, 1), (1, 1, 2, 0, 2)")
        db.commit()
    finally:
        db.close()
    return rows


def store_consistent(path: Any, what: str) -> None:
    """Every seat of a record is a person's (a version-2 store let a record's
    "h1" take the level's row), and every seat of a game is of the kind its
    game's set-up says (a person's seat a person, a computer's a level)."""
    db = sqlite3.connect(path)
    try:
        rows = db.execute("SELECT g.id, g.status, g.config, gp.seat, p.kind, p.name"
                          " FROM game_players gp JOIN games g ON g.id = gp.game_id"
                          " JOIN players p ON p.id = gp.player_id").fetchall()
    finally:
        db.close()
    for game_id, status, config, seat, kind, name in rows:
        seats = json.loads(config).get("seats") if status != "record" else None
        want = "human" if status == "record" else (
            seats[seat]["kind"] if isinstance(seats, list) and seat < len(seats) else kind)
        if kind != want:
            raise ContractError("readback", f"after {what}: seat {seat} of game {game_id} "
                                            f"({status}) is the {kind} player "
                                            f"{clip(name)!r}, not a {want} one")


def run(payload: dict[str, Any], ctx: Context) -> str:
    """One input through a web app on a new store: "accepted" or "refused" (a
    one-line 4xx); then every computer level still plays (`every_level_plays`),
    the store is consistent (`store_consistent`), and a new app on the same
    file plays every level too."""
    names = _names(payload)
    db = ctx.case_dir() / "names.sqlite"
    old = payload.get("form") == "old_store"
    rows: list[list[Any]] = []
    if old:
        rows = _write_old_store(db, payload)
        what = f"opening a version-2 store with {clip(repr(rows), 160)}"
    try:
        client = _app_client(db, ctx)
    except Exception as exc:
        raise ContractError("readback" if old else "harness",
                            f"a web app on {'a version-2 store' if old else 'a new store'}: "
                            f"{type(exc).__name__}: {clip(str(exc))}",
                            fuzzing.where_raised(exc), type(exc).__name__) from exc
    try:
        for level in payload.get("before") or ():
            every_level_plays(client, "nothing", [], only=[level])
        if old:
            outcome = "accepted"
            kept = {(p["kind"], p["name"]): p["rating"]
                    for p in client.get("/api/players").json()["players"]}
            for name, kind, rating in rows:
                if kind == "human" and kept.get(("human", name)) != rating:
                    raise ContractError("readback", f"{what}: the person {clip(name)!r} "
                                                    f"rated {rating} is not kept: "
                                                    f"{kept.get(('human', name))}")
        else:
            what, outcome, response = _request(client, payload)
            if outcome == "accepted":
                _reads_back(client, response, what, names)
        every_level_plays(client, what, names, computers_named_by_level=not old)
        store_consistent(db, what)
    finally:
        _close(client)
    if old or payload.get("restart"):
        client = _app_client(db, ctx)  # the server started again on the same file
        try:
            every_level_plays(client, f"{what} and a restart", names,
                              computers_named_by_level=not old)
        finally:
            _close(client)
    return outcome
