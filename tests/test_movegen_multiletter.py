"""The move generators against the brute-force reference (tests/movegen_reference.py)
in alphabets with multi-letter tiles: Spanish (CH, LL, RR, which plain text
spells with C + H, L + L, R + R) and Catalan (L·L, NY, QU). Random lexicons mix
words of the multi-letter tiles with words of the letters that spell them (a
word with CH and the same word with C, H are two words, one of them often not
in the lexicon), racks hold blanks that may stand for a multi-letter tile, and
scores use the alphabet's points. Both generators must list exactly the
reference's moves, each once, with the reference's score: on bare arrays
(random board sizes and premiums), and through `Board.moves` on the standard
board from a CGP written with the bracket notation."""

from __future__ import annotations

import random
from collections import Counter

import movegen_reference as ref
import numpy as np
from hypothesis import given, note, settings
from hypothesis import strategies as st
from test_movegen_properties import as_dict, generate_from_arrays

from rackety import Alphabet, Board, Lexicon

BINGO = 50
RACK_SIZE = 7
seeds = st.integers(0, 2**32 - 1)
ALPHABETS = {name: Alphabet.load(name) for name in ("spanish", "catalan")}
# the multi-letter tiles and the letters that spell them in plain text
# (Catalan has no Y and no Q: NY and QU have near misses, N and U)
SPELLINGS = {"spanish": {"CH": "CH", "LL": "LL", "RR": "RR"},
             "catalan": {"L·L": "LL", "NY": "N", "QU": "U"}}


def codes(alphabet: Alphabet, labels: str | list[str]) -> list[int]:
    return [alphabet.word(f"[{lab}]")[0] for lab in labels]


def random_words(rng: random.Random, alphabet: Alphabet) -> set[tuple[int, ...]]:
    """A random lexicon over a few tiles of ``alphabet``: its multi-letter tiles,
    the letters that spell them, two or three vowels and a few others. Every
    two-tile word over a core of them; random words of 2 to 6 tiles; for each
    word with a multi-letter tile, often the same word spelled with single
    letters (CH -> C, H), sometimes only that; hooks on words."""
    multi = [t.label for t in alphabet.letters if len(t.label) > 1]
    parts = {lab: [c for c in SPELLINGS[alphabet.name][lab]] for lab in multi}
    singles = sorted({ch for lab in multi for ch in SPELLINGS[alphabet.name][lab]})
    vowels = [t.label for t in alphabet.letters if t.vowel and len(t.label) == 1]
    others = [t.label for t in alphabet.letters
              if len(t.label) == 1 and t.count and t.label not in singles and not t.vowel]
    labels = sorted({*multi, *singles, *rng.sample(vowels, rng.randint(2, 3)),
                     *rng.sample(others, rng.randint(1, 3))})
    pool = codes(alphabet, labels)
    multi_codes = codes(alphabet, multi)
    core = rng.sample(pool, rng.randint(2, 4))
    if rng.random() < 0.5:
        core[0] = rng.choice(multi_codes)  # two-tile words of a multi-letter tile
    words = {(a, b) for a in core for b in core}
    target = rng.randint(20, 120)
    while len(words) < target:
        roll = rng.random()
        if words and roll < 0.25:
            base = rng.choice(sorted(words))
            if len(base) < 6:
                hook = rng.choice(pool)
                words.add((hook, *base) if rng.random() < 0.5 else (*base, hook))
            continue
        length = rng.randint(2, 6)
        word = [rng.choice(core if rng.random() < 0.4 else pool) for _ in range(length)]
        if rng.random() < 0.5:
            word[rng.randrange(length)] = rng.choice(multi_codes)
        spelled: list[int] = []
        for c in word:  # the same word with the multi-letter tiles spelled out
            label = alphabet.tiles[c].label
            spelled += codes(alphabet, parts[label]) if label in parts else [c]
        which = rng.random()
        if which < 0.6:
            words.add(tuple(word))
        if which > 0.4 and len(spelled) <= 15:
            words.add(tuple(spelled))
    return words


def tiles_of(lexicon: Lexicon) -> set[tuple[int, ...]]:
    flat, lengths = lexicon.word_tiles()
    cuts = np.cumsum(lengths)[:-1]
    return {tuple(int(c) for c in w) for w in np.split(np.asarray(flat), cuts)}


def lexicons(alphabet: Alphabet, words: set[tuple[int, ...]]) -> tuple[Lexicon, Lexicon]:
    """The lexicon from tile codes, and again from its words written as text
    in the bracket notation (the two must be the same lexicon); a DAWG-only one
    too."""
    ordered = sorted(words)
    flat = np.array([c for w in ordered for c in w], np.int64)
    lengths = np.array([len(w) for w in ordered], np.int64)
    full = Lexicon.from_tiles(flat, lengths, alphabet)
    text = [alphabet.format(w, brackets=True) for w in ordered]
    assert tiles_of(Lexicon.from_words(text, alphabet)) == tiles_of(full) == words
    return full, Lexicon.from_tiles(flat, lengths, alphabet, gaddag=False)


def show(alphabet: Alphabet, grid: np.ndarray) -> str:
    return "\n".join(" ".join(alphabet.format([t], brackets=True) if t else "."
                              for t in row.tolist()) for row in grid)


def compare(alphabet: Alphabet, grid: np.ndarray, rack: list[int],
            words: set[tuple[int, ...]], letter_mult: np.ndarray, word_mult: np.ndarray,
            start: tuple[int, int]) -> dict:
    note(f"words: {sorted(alphabet.format(w, brackets=True) for w in words)}")
    note(f"board:\n{show(alphabet, grid)}")
    note(f"rack: {alphabet.format(rack, brackets=True)}")
    points = [t.points for t in alphabet.tiles]
    expected = ref.reference_moves(grid, rack, words, points, letter_mult, word_mult, start,
                                   BINGO, RACK_SIZE)
    full, dawg_only = lexicons(alphabet, words)
    for generator, lexicon in (("gaddag", full), ("dawg", full), ("dawg", dawg_only)):
        got = as_dict(generate_from_arrays(
            grid.copy(), [int(t) for t in rack], lexicon, letter_mult=letter_mult,
            word_mult=word_mult, start=start, bingo_bonus=BINGO, generator=generator))
        missing = {alphabet.format(m[3], brackets=True): m for m in expected if m not in got}
        extra = {alphabet.format(m[3], brackets=True): m for m in got if m not in expected}
        wrong = {m: (got[m], s) for m, s in expected.items() if m in got and got[m] != s}
        assert (generator, missing, extra, wrong) == (generator, {}, {}, {})
    return expected


def distribution_position(rng: random.Random, alphabet: Alphabet, words: set,
                          moves: int, rack_blanks: int | None) -> tuple[np.ndarray, list[int]]:
    """A position on the standard board reached by random moves of the reference,
    from a bag of the alphabet's own distribution restricted to the lexicon's
    tiles and the blanks (so the CGP's tile counts hold)."""
    letter_mult, word_mult, start = ref.premiums(15)
    used = sorted({t for w in words for t in w})
    bag = [t for t in used for _ in range(alphabet.tiles[t].count)]
    bag += [0] * alphabet.tiles[0].count
    rng.shuffle(bag)
    grid = np.zeros((15, 15), np.uint8)
    rack: list[int] = []
    points = [t.points for t in alphabet.tiles]
    for _ in range(moves):
        while len(rack) < RACK_SIZE and bag:
            rack.append(bag.pop())
        found = ref.reference_moves(grid, rack, words, points, letter_mult, word_mult, start,
                                    BINGO, RACK_SIZE)
        if not found:
            break
        row, col, down, tiles, through = rng.choice(sorted(found))
        for k, (t, th) in enumerate(zip(tiles, through, strict=True)):
            if not th:
                grid[(row + k, col) if down else (row, col + k)] = t
                rack.remove(0 if t & ref.BLANK_FLAG else t)
    while len(rack) < RACK_SIZE and bag:
        rack.append(bag.pop())
    if rack_blanks:  # blanks from the bag or the board's unused ones onto the rack
        have = rack.count(0)
        spare = alphabet.tiles[0].count - int((grid & ref.BLANK_FLAG).astype(bool).sum())
        want = min(rack_blanks, spare)
        if want > have:
            rack = [t for t in rack if t][:RACK_SIZE - want] + [0] * want
    return grid, rack


def cgp_of(alphabet: Alphabet, grid: np.ndarray, rack: list[int]) -> str:
    rows = []
    for line in grid.tolist():
        text, run = "", 0
        for t in line:
            if not t:
                run += 1
                continue
            if run:
                text += str(run)
                run = 0
            text += alphabet.format([t], brackets=True)
        rows.append(text + (str(run) if run else ""))
    rack_text = alphabet.format(sorted(t for t in rack if t), brackets=True) + "?" * rack.count(0)
    return f"{'/'.join(rows)} {rack_text}/ 0/0 0"


@settings(max_examples=50, deadline=None)
@given(seed=seeds, name=st.sampled_from(sorted(ALPHABETS)))
def test_generators_match_reference_with_multiletter_tiles(seed, name):
    rng = random.Random(seed)
    alphabet = ALPHABETS[name]
    words = random_words(rng, alphabet)
    points = [t.points for t in alphabet.tiles]
    grid, rack = ref.random_position(rng, words, rack_blanks=rng.choice([None, None, 1, 1, 2]),
                                     points=points)
    letter_mult, word_mult, start = ref.premiums(grid.shape[0], rng)
    compare(alphabet, grid, rack, words, letter_mult, word_mult, start)


@settings(max_examples=30, deadline=None)
@given(seed=seeds, name=st.sampled_from(sorted(ALPHABETS)))
def test_generators_match_reference_on_the_empty_board(seed, name):
    # the opening with blanks: a blank may stand for a multi-letter tile
    rng = random.Random(seed)
    alphabet = ALPHABETS[name]
    words = random_words(rng, alphabet)
    size = rng.randint(7, 15)
    grid = np.zeros((size, size), dtype=np.uint8)
    used = sorted({t for w in words for t in w})
    blanks = rng.randint(0, 2)
    rack = [rng.choice(used) for _ in range(RACK_SIZE - blanks)] + [0] * blanks
    letter_mult, word_mult, start = ref.premiums(size, rng)
    compare(alphabet, grid, rack, words, letter_mult, word_mult, start)


@settings(max_examples=30, deadline=None)
@given(seed=seeds, name=st.sampled_from(sorted(ALPHABETS)))
def test_board_moves_match_reference_from_cgp(seed, name):
    """The public path: a CGP in bracket notation, `Board.moves` with both
    generators, `Board.score` of each move, the notation read back."""
    rng = random.Random(seed)
    alphabet = ALPHABETS[name]
    words = random_words(rng, alphabet)
    grid, rack = distribution_position(rng, alphabet, words, rng.randint(0, 10),
                                       rng.choice([None, 1, 2]))
    cgp = cgp_of(alphabet, grid, rack)
    note(f"cgp: {cgp}")
    board = Board.from_cgp(cgp, alphabet=alphabet)
    assert board.grid.tolist() == grid.tolist()
    assert Counter(board.rack) == Counter(rack)
    assert Board.from_cgp(board.cgp(), alphabet=alphabet).grid.tolist() == grid.tolist()
    letter_mult, word_mult, start = ref.premiums(15)
    points = [t.points for t in alphabet.tiles]
    expected = ref.reference_moves(grid, rack, words, points, letter_mult, word_mult, start,
                                   BINGO, RACK_SIZE)
    lexicon, _ = lexicons(alphabet, words)
    for generator in ("gaddag", "dawg"):
        moves = board.moves(lexicon, generator=generator)
        got = {}
        for m in moves.placements():
            key = (m.row, m.col, m.down, tuple(m.tiles), tuple(m.through))
            assert key not in got
            got[key] = m.score
        missing = sorted(alphabet.format(m[3], brackets=True) for m in expected if m not in got)
        extra = sorted(alphabet.format(m[3], brackets=True) for m in got if m not in expected)
        wrong = {m: (got[m], s) for m, s in expected.items() if m in got and got[m] != s}
        assert (generator, missing, extra, wrong) == (generator, [], [], {})
    for m in moves.placements()[:200]:
        assert board.score(m) == m.score
        assert board.parse_move(board.notation(m)) == m


def test_the_random_positions_exercise_the_multiletter_tiles():
    """The properties above are not vacuous: over a few seeds the reference's
    moves place natural multi-letter tiles, blanks standing for them, and play
    through them; Spanish lexicons hold a word with CH beside the same word with
    C, H."""
    for name, alphabet in ALPHABETS.items():
        multi = {t.code for t in alphabet.letters if len(t.label) > 1}
        seen: Counter = Counter()
        points = [t.points for t in alphabet.tiles]
        for seed in range(10):
            rng = random.Random(seed)
            words = random_words(rng, alphabet)
            if name == "spanish":
                ch, c, h = (alphabet.word(f"[{x}]")[0] for x in ("CH", "C", "H"))
                spelled = {tuple(x for t in w for x in ((c, h) if t == ch else (t,)))
                           for w in words if ch in w}
                seen["pairs"] += len(spelled & words)
            grid, rack = ref.random_position(rng, words, rack_blanks=1, points=points)
            letter_mult, word_mult, start = ref.premiums(grid.shape[0], rng)
            for _, _, _, tiles, through in ref.reference_moves(
                    grid, rack, words, points, letter_mult, word_mult, start, BINGO, RACK_SIZE):
                new = [t for t, th in zip(tiles, through) if not th]
                seen["natural"] += any(t in multi for t in new)
                seen["blank"] += any(t & ref.BLANK_FLAG and t & 0x7F in multi for t in new)
                seen["through"] += any(t & 0x7F in multi for t, th in zip(tiles, through)
                                       if th)
        assert min(seen["natural"], seen["blank"], seen["through"]) >= 10, (name, seen)
        assert name != "spanish" or seen["pairs"] >= 5, seen
