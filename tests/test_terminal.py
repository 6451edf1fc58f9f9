"""Playing in the terminal, driven by a script of lines."""

from __future__ import annotations

import itertools
import re
from collections import Counter
from pathlib import Path

import pytest
from rich.text import Text
from static_reference import static_equity

from rackety import Lexicon
from rackety.alphabet import BLANK_FLAG
from rackety.frontends.terminal import PROMPT, TerminalGame
from rackety.game.gcg import game_of, read_gcg, record_of, replay
from rackety.game.heuristics import leave_label, leave_model
from rackety.game.move import format_leave
from rackety.game.referee import Game
from rackety.players import make_player

HINT_ROW = re.compile(r"^  (\S+ \S+) +(\d+)  (\S+) +(-?\d+\.\d) +(\d+\.\d)$")


def _run(twl06: Lexicon, lines: list[str], opponent: str = "greedy", seed: int = 94,
         **kw) -> tuple[TerminalGame, str, list]:
    script = iter(lines)
    out: list = []

    def read(prompt: str) -> str:
        out.append(prompt)
        try:
            return next(script)
        except StopIteration:
            raise EOFError from None

    session = TerminalGame(twl06, [make_player(opponent, twl06)], seed=seed, read_line=read,
                           write=out.append, **kw)
    session.run()
    return session, "\n".join(str(x) for x in out), out


def _screens(out: list) -> list[str]:
    """Each screen as the person sees it: what was drawn, then the prompt."""
    return [f"{x}\n{PROMPT}" for x, nxt in itertools.pairwise(out)
            if isinstance(x, Text) and nxt == PROMPT]


def test_a_session(tmp_path, twl06: Lexicon) -> None:
    saved = tmp_path / "game.gcg"
    session, text, _ = _run(twl06, ["hint", "8H ZZZ", "8H TOLA", "undo", "8H TOLA",
                                    f"save {saved}", "quit"])
    assert "not done: tiles ZZZ are not on the rack" in text
    assert "you play 8H TOLA for 8" in text
    assert "greedy plays" in text  # the computer answered
    record = read_gcg(saved)
    assert [e.kind for e in record.events][:2] == ["play", "play"]
    assert session.game.problems() == []


def test_each_screen_fits_80x24_with_the_last_messages_under_the_board(twl06: Lexicon) -> None:
    _, _, out = _run(twl06, ["hint", "8H ZZZ", "8H TOLA", "help", "quit"])
    screens = _screens(out)
    assert len(screens) == 5
    for screen in screens:
        lines = screen.split("\n")
        assert len(lines) <= 24, screen
        assert max(len(line) for line in lines) <= 80, screen
        assert lines[0].split()[:15] == [chr(65 + c) for c in range(15)]  # the board first
        assert [line[:2] for line in lines[1:16]] == [f"{r:>2}" for r in range(1, 16)]
        assert "(unknown)" not in screen and "to move:" not in screen
        assert "you" in lines[1] and "greedy (computer)" in lines[2]  # names, not "player 2"
    # what the command said is under the board of the next screen, before the prompt
    tail = screens[2].split("\n")[16:]
    assert any("not done: tiles ZZZ are not on the rack" in line for line in tail)
    tail = screens[3].split("\n")[16:]
    assert tail[0] == "you play 8H TOLA for 8" and tail[1].startswith("greedy plays ")
    assert any(re.search(r"  you +8H TOLA +8 *$", line) for line in screens[3].split("\n"))
    assert screens[4].split("\n")[16].startswith("play: 8D WORD")


def test_the_rack_is_shown_once(twl06: Lexicon) -> None:
    session, _, out = _run(twl06, ["8H TOLA", "quit"])
    screen = _screens(out)[-1]
    rack = sorted(session.game.alphabet.format([c]) for c in session.game.racks[0])
    assert screen.count("your rack") == 1
    tiles = [line for line in screen.split("\n") if re.search(r"(?: [A-Z?] ){7}$", line)]
    assert len(tiles) == 1
    assert tiles[0].split()[-7:] == rack
    assert "".join(rack) not in screen  # not again, as one word


def test_hint_is_a_table_of_distinct_words_by_equity(twl06: Lexicon) -> None:
    session, _, out = _run(twl06, ["hint", "quit"])
    game = session.game
    screen = _screens(out)[-1].split("\n")
    model = leave_model("static", twl06)
    label = leave_label(model, twl06)
    title = next(i for i, line in enumerate(screen) if line.startswith("best moves"))
    assert label in screen[title] and "equity" in screen[title]
    assert screen[title + 1].split() == ["move", "score", "leave", "value", "win", "%"]
    rows = [HINT_ROW.match(line) for line in screen[title + 2:-1]]
    assert len(rows) == 5 and all(rows), screen
    view = game.view(0)
    words, equities = [], []
    for row in rows:
        move = view.parse_move(row[1])
        assert int(row[2]) == view.score(move)  # the score the rules give
        leave = "" if row[3] == "-" else row[3]
        assert sorted(leave + move.notation(game.alphabet, through="bare").split()[1]) == \
            sorted(format_leave(game.alphabet, game.racks[0]))
        kept = tuple(game.alphabet.rack(leave)) if leave else ()
        expected = static_equity(view, move, kept, lambda k: model.value(k) if k else 0.0)
        assert abs(float(row[4]) - expected) < 0.051
        words.append(move.notation(game.alphabet, through="bare").split()[1])
        equities.append(float(row[4]))
    assert len(set(words)) == len(words)  # not the same word in five places
    assert equities == sorted(equities, reverse=True)
    best = max(m.equity for m in view.moves(twl06, leave=model))
    assert abs(equities[0] - best) < 0.051


def _unseen_by_the_person(game: Game) -> Counter:
    """What the person has not seen: the bag and the computers' racks."""
    return Counter(game.bag) + sum((Counter(game.racks[s]) for s in range(1, len(game.racks))),
                                   Counter())


def test_the_unseen_tiles_in_the_panel_and_by_command(twl06: Lexicon) -> None:
    """The side panel lists the tiles the person has not seen while they fit in
    it (the bag and the computer's rack, by letter, never the person's rack), and
    ``unseen`` says them with where they are."""
    session, _, out = _run(twl06, ["unseen", "quit"])
    game = session.game
    screen = _screens(out)[-1]
    assert "unseen (type unseen to list)" in screen  # 93 tiles: more than the panel holds
    lines = screen.split("\n")
    first = next(i for i, line in enumerate(lines) if line.startswith("93 unseen"))
    said = lines[first] + "".join(  # the message as wrapped under the board
        " " + line.strip() for line in itertools.takewhile(
            lambda line: line.startswith("  ") and line.strip(), lines[first + 1:]))
    assert said.startswith("93 unseen (7 on the opponent's rack, 86 in the bag): ")
    groups = said.split(": ", 1)[1].split()
    alphabet = game.alphabet
    assert Counter({alphabet.tiles[c].label if c else "?": k
                    for c, k in _unseen_by_the_person(game).items()}) == \
        Counter({g[0]: len(g) for g in groups})
    # late in the game they fit: the panel lists them, letter by letter
    while len(game.bag) > 2 and not game.over:
        game.play(game.view().moves(twl06, mode="top", top=1)[0], check=False)
    while game.turn != session.human:
        game.play(game.view().moves(twl06, mode="top", top=1)[0], check=False)
    lines = session.screen().plain.split("\n")
    title = next(i for i, line in enumerate(lines) if line.rstrip().endswith("unseen"))
    column = lines[title].rstrip().rindex("unseen")
    listed = []
    for line in lines[title + 1:]:
        if not line[column:].startswith("  ") or not line[column:].strip():
            break
        listed += line[column:].split()
    expected = _unseen_by_the_person(game)
    assert Counter({g[0] if g[0] != "?" else "?": len(g) for g in listed}) == Counter(
        {alphabet.tiles[c].label if c else "?": k for c, k in expected.items()})
    assert sum(len(g) for g in listed) == len(game.bag) + len(game.racks[1])


def _play(session: TerminalGame, line: str) -> None:
    """One command of the person, then the computer's turns."""
    session.command(line)
    while session.game.turn != session.human and not session.game.over:
        session.computer_turn()


def test_a_save_keeps_the_computers_rack_hidden(tmp_path, twl06: Lexicon) -> None:
    saved = tmp_path / "g.gcg"
    first, _, _ = _run(twl06, ["8H TOLA", "quit"], opponent="static")
    _play(first, f"exchange {first.game.alphabet.format(first.game.racks[0][:2])}")
    _play(first, "pass")
    _play(first, f"save {saved}")
    assert f"saved {saved}" in first.messages
    text = saved.read_text()
    assert "#rack1 " in text and "#rack2" not in text
    record = read_gcg(saved)
    mine = [e for e in record.events if e.nickname == "you"]
    theirs = [e for e in record.events if e.nickname != "you"]
    assert mine and all(e.rack for e in mine)
    assert theirs and not any(e.rack for e in theirs)
    assert record.racks == {0: format_leave(first.game.alphabet, first.game.racks[0])}
    assert replay(record).discrepancies == []
    # the whole record still has every rack
    full = record_of(first.game)
    assert set(full.racks) == {0, 1} and all(e.rack for e in full.events)
    # and it loads: your rack as it was, the computer's from the tiles you have not seen
    game = game_of(record, twl06)
    assert sorted(game.racks[0]) == sorted(first.game.racks[0])
    assert game.scores == first.game.scores and game.turn == 0
    assert sorted(game.racks[1] + game.bag) == sorted(first.game.racks[1] + first.game.bag)


def test_hidden_exchanges_are_written_as_a_count(tmp_path, twl06: Lexicon) -> None:
    session, _, _ = _run(twl06, ["8H TOLA", "quit"], opponent="static")
    game = session.game
    game.play("pass")
    game.play(f"exch {game.alphabet.format(game.racks[1][:3])}")  # the computer's turn
    events = record_of(game, seen_by=0).events
    assert events[-1].move == "-3" and events[-1].rack == ""
    assert record_of(game).events[-1].move.startswith("-") and record_of(game).events[-1].rack
    assert replay(record_of(game, seen_by=0)).discrepancies == []


def test_phonies_are_challenged_by_the_computer(twl06: Lexicon) -> None:
    session, text, _ = _run(twl06, ["8H TAIO", "quit"])
    assert "greedy challenges" in text and "TAIO is not in TWL06" in text
    assert session.game.scores[0] == 0


def test_load_a_saved_game(tmp_path, twl06: Lexicon) -> None:
    saved = tmp_path / "g.gcg"
    first, _, _ = _run(twl06, ["8H TOLA", f"save {saved}", "quit"])
    second, text, _ = _run(twl06, [f"load {saved}", "quit"])
    assert f"loaded {saved}" in text
    assert (second.game.position.grid == first.game.position.grid).all()
    assert sorted(second.game.racks[0]) == sorted(first.game.racks[0])


# ------------------------------------------------------- other languages
DATA = Path(__file__).parent / "data"


@pytest.fixture(scope="module")
def spanish() -> Lexicon:
    return Lexicon.from_words((DATA / "words_spanish_small.txt").read_text().split(), "spanish",
                              name="ES")


@pytest.fixture(scope="module")
def catalan() -> Lexicon:
    return Lexicon.from_words((DATA / "words_catalan_small.txt").read_text().split(), "catalan",
                              name="CA")


def _seed(lexicon: Lexicon, *labels: str) -> int:
    """The first seed whose first rack holds these tiles (``?`` a blank)."""
    alphabet = lexicon.alphabet
    wanted = [0 if label == "?" else alphabet.word(f"[{label}]")[0] for label in labels]
    for seed in range(5000):
        rack = list(Game(lexicon, ["you", "greedy"], seed=seed).racks[0])
        if all(rack.count(c) >= wanted.count(c) for c in wanted):
            return seed
    raise AssertionError(f"no rack with {labels}")


def _session(lexicon: Lexicon, lines: list[str], seed: int,
             opponent: str = "greedy") -> tuple[TerminalGame, list]:
    session, _text, out = _run(lexicon, lines, opponent, seed)
    return session, out


def _cell(screen: str, row: int, col: int) -> str:
    """What the board shows on a square (0-based): three columns after the row's number."""
    line = screen.split("\n")[row + 1]
    return line[3 + 3 * col:6 + 3 * col]


def _fits(screens: list[str]) -> None:
    for screen in screens:
        lines = screen.split("\n")
        assert len(lines) <= 24 and max(len(line) for line in lines) <= 80, screen
        assert lines[0].split()[:15] == [chr(65 + c) for c in range(15)]
        assert [line[:2] for line in lines[1:16]] == [f"{r:>2}" for r in range(1, 16)]


def test_catalan_tiles_of_several_letters_typed_as_spelled(catalan: Lexicon) -> None:
    seed = _seed(catalan, "NY", "A")
    session, out = _session(catalan, ["help", "8H ANY", "quit"], seed, opponent="static")
    screens = _screens(out)
    _fits(screens)
    # the help says how the tiles of several letters are typed
    assert "tiles L·L NY QU: L·L or [L·L], NY or [NY], QU or [QU]; a blank as one: [l·l]" \
        in screens[0]
    # the rack shows NY as one tile, bare
    rack = next(line for line in screens[0].split("\n") if line.endswith(" ") and " NY " in line)
    assert "[NY]" not in rack
    # typed bare, written with brackets; on the board one square of three columns
    text = "\n".join(str(x) for x in out)
    event = session.game.events[0]
    assert event.move is not None and event.move.notation(catalan.alphabet) == "8H A[NY]"
    assert f"you play 8H A[NY] for {event.score}" in text
    after = screens[-1]
    assert _cell(after, 7, 7) == " A " and _cell(after, 7, 8) == " NY"
    assert any(re.search(r"you +8H A\[NY\] +\d+ *$", line) for line in after.split("\n"))
    assert "static plays" in text or "static exchanges" in text or "static passes" in text
    assert session.game.problems() == []


def test_spanish_blank_as_a_tile_of_two_letters_aliases_and_exchange(spanish: Lexicon) -> None:
    seed = _seed(spanish, "?", "E", "LL")
    lines = ["8H CHE", "8H [ch]E", "hint", "exchange 2", "quit"]
    session, out = _session(spanish, lines, seed, opponent="static")
    screens = _screens(out)
    _fits(screens)
    text = "\n".join(str(x) for x in out)
    assert "tiles CH LL RR: [CH] or 1, [LL] or 2, [RR] or 3; a blank as one: [ch]" in screens[0]
    # CH typed bare is C + H: the error says how to type the tile
    assert "(the tile CH is typed [CH] or 1; CH is C + H)" in " ".join(text.split())
    # a blank standing for CH: lower case on the board, one square
    play = session.game.events[0]
    assert play.move is not None and play.move.notation(spanish.alphabet) == "8H [ch]E"
    assert f"you play 8H [ch]E for {play.score}" in text
    assert _cell(screens[2], 7, 7) == " ch" and _cell(screens[2], 7, 8) == " E "
    # a hint in Spanish: its moves play back as written
    title = next(i for i, line in enumerate(screens[3].split("\n"))
                 if line.startswith("best moves"))
    rows = screens[3].split("\n")[title + 2:title + 7]
    view = session.game.view(0)
    for row in rows:
        move = view.parse_move(" ".join(row.split()[:2]))
        assert move.kind in ("place", "exchange", "pass")
    # the exchange typed with LL's digit
    mine = [e for e in session.game.events if e.seat == 0]
    assert mine[-1].kind == "exchange"
    assert spanish.alphabet.format(mine[-1].tiles, brackets=True) == "[LL]"
    assert session.game.problems() == []


def test_a_board_with_l_l_fits_80_columns(catalan: Lexicon) -> None:
    """L·L, the widest label, is one square of three columns: the board keeps
    its width and the panel beside it."""
    alphabet = catalan.alphabet
    l_l = alphabet.word("[L·L]")[0]
    for seed in range(5000):
        game = Game(catalan, ["you", "greedy"], seed=seed)
        if l_l in game.racks[0]:
            move = next((m for m in game.view(0).moves(catalan, exchanges=False)
                         if l_l in m.placed), None)
            if move is not None:
                break
    else:
        raise AssertionError("no opening rack plays L·L")
    session, _ = _session(catalan, ["quit"], seed)
    session.command(move.notation(alphabet, through="bare").replace("[", "").replace("]", ""))
    assert session.game.events[0].move == move
    screen = str(session.screen())
    _fits([screen])
    assert "your rack" in screen and "last moves" in screen  # the panel is beside the board
    for (r, c), code in zip(move.placed_squares(), move.placed, strict=True):
        label = alphabet.tiles[code & ~BLANK_FLAG].label
        assert _cell(screen, r, c).strip() == (label.lower() if code & BLANK_FLAG else label)
    assert "L·L" in screen and "[L·L]" in screen  # on the board bare; in the last moves


def test_a_game_clock_shows_and_costs_points_past_it(twl06: Lexicon) -> None:
    """Issue 38: ``rackety play --clock``: each player's clock in the panel,
    the computer's player told its time left, 10 points a minute past it."""
    session, _, out = _run(twl06, ["8H TOLA", "quit"], opponent="best:clock=3", clock=3.0)
    screens = _screens(out)
    assert all("clock 0:0" in s for s in screens), screens[-1]
    assert 0 < session.used[1] < 3.0  # the computer kept inside its clock
    scores = list(session.game.scores)
    session.used = [3.0 + 61.0, 1.0]  # the person: a minute and a second over
    session.overtime()
    assert session.game.scores == [scores[0] - 20, scores[1]]
    assert session.game.events[-1].kind == "time_penalty"
    assert "went over the clock: -20" in str(session.screen())
