"""Reading KWG files laid out by other builders: tail sharing, DAWG-only, no
minimisation at all; and refusing files that are not KWGs."""

from __future__ import annotations

import re

import numpy as np
import pytest
import reference
from hypothesis import given, settings
from hypothesis import strategies as st

from rackety import Alphabet, Lexicon, RacketyError
from rackety.lexicon.kwg import read_kwg, write_kwg

EN = Alphabet.load("english")
A, B, C, X, Y = (EN.word(c)[0] for c in "ABCXY")


def node(tile: int, arc: int = 0, accepts: bool = False, end: bool = False) -> int:
    return tile << 24 | int(accepts) << 23 | int(end) << 22 | arc


def save(tmp_path, nodes, name="g.kwg"):
    path = tmp_path / name
    path.write_bytes(np.asarray(nodes, dtype="<u4").tobytes())
    return path


def test_hand_placed_dawg_only_with_tail_sharing(tmp_path):
    # AY, BX, BY: A's children [Y] are the tail of B's children [X, Y].
    nodes = [node(0, 1, end=True),
             node(A, 4), node(B, 3, end=True),
             node(X, accepts=True), node(Y, accepts=True, end=True)]
    lex = Lexicon.load(save(tmp_path, nodes))
    assert not lex.has_gaddag
    assert lex.words() == ["AY", "BX", "BY"]
    assert "AY" in lex and "AX" not in lex and len(lex) == 3
    assert lex.anagrams("YB") == ["BY"]
    assert lex.hooks("B").back == ("X", "Y") and lex.hooks("Y").front == ("A", "B")
    assert lex.pattern("?Y") == ["AY", "BY"]


def trie_kwg(words: list[tuple[int, ...]], reverse_runs: bool) -> list[int]:
    """A KWG with no minimisation at all: the plain tries of the DAWG and GADDAG
    strings, runs placed depth first (optionally last child first)."""
    def trie(strs):
        root: dict = {}
        for s in strs:
            cur = root
            for i, t in enumerate(s):
                cur = cur.setdefault(t, [False, {}])
                if i == len(s) - 1:
                    cur[0] = True
                cur = cur[1]
        return root

    out = [0, 0]

    def place(children: dict) -> int:
        if not children:
            return 0
        at = len(out)
        items = sorted(children.items())
        out.extend([0] * len(items))
        order = range(len(items))
        for k in (reversed(order) if reverse_runs else order):
            t, (acc, sub) = items[k]
            out[at + k] = node(t, place(sub), acc, k == len(items) - 1)
        return at

    out[0] = node(0, place(trie(words)), end=True)
    out[1] = node(0, place(trie(reference.gaddag_strings(words))), end=True)
    return out


@settings(max_examples=40, deadline=None)
@given(st.lists(st.text("ABCDE", min_size=2, max_size=6), min_size=1, max_size=20),
       st.booleans())
def test_any_layout_reads_the_same(tmp_path_factory, words, reverse_runs):
    tiles = sorted({tuple(EN.word(w)) for w in words})
    path = save(tmp_path_factory.mktemp("kwg"), trie_kwg(tiles, reverse_runs))
    theirs = Lexicon.load(path)
    ours = Lexicon.from_words(words)
    assert theirs.has_gaddag
    assert theirs.words() == ours.words() == sorted({w.upper() for w in words})
    for w in ours.words():
        assert theirs.hooks(w) == ours.hooks(w)
    for rack in ("ABC?", "DEA", "AB??"):
        assert theirs.anagrams(rack, subsets=True) == ours.anagrams(rack, subsets=True)
    # and a rebuild of their file is our minimal graph
    assert Lexicon.from_tiles(*theirs.word_tiles()).node_count == ours.node_count


def test_write_read_round_trip_is_byte_exact(tmp_path):
    lex = Lexicon.from_words(["QI", "QIS", "ZA", "ZAS", "ZAX"])
    lex.save(tmp_path / "a.kwg")
    again = Lexicon.load(tmp_path / "a.kwg")
    assert np.array_equal(again.nodes, lex.nodes)
    again.save(tmp_path / "b.kwg")
    assert (tmp_path / "a.kwg").read_bytes() == (tmp_path / "b.kwg").read_bytes()
    # a KWG is recognised by content too, whatever its name
    (tmp_path / "a.kwg").rename(tmp_path / "lexicon.bin")
    assert Lexicon.load(tmp_path / "lexicon.bin").words() == lex.words()


@pytest.mark.parametrize(("nodes", "message"), [
    ([node(0, 1, end=True), node(A, 7, accepts=True, end=True)], "node 1: arc beyond"),
    ([node(0, 1, end=True), node(B, accepts=True), node(A, accepts=True, end=True)],
     "node 1: siblings not in strictly increasing"),
    ([node(0, 1, end=True), node(A, accepts=True)], "last node does not end its run"),
    ([node(A, 1, end=True), node(A, accepts=True, end=True)], "node 0 is not a root pointer"),
    ([node(0, 1, end=True), node(60, accepts=True, end=True)], "tile code 27 or more"),
])
def test_bad_files_are_refused_naming_the_node(tmp_path, nodes, message):
    with pytest.raises(RacketyError, match=message):
        read_kwg(save(tmp_path, nodes), EN.size)


def test_not_a_kwg_at_all(tmp_path):
    for data, message in [(b"", "empty KWG file"), (b"\0\0\0\0\0", "not a whole number")]:
        path = tmp_path / "x.kwg"
        path.write_bytes(data)
        with pytest.raises(RacketyError, match=message):
            Lexicon.load(path)
    with pytest.raises(RacketyError, match="no such file"):
        read_kwg(tmp_path / "missing.kwg")


def test_a_cycle_is_refused_on_load_not_followed(tmp_path):
    nodes = [node(0, 1, end=True), node(A, 1, accepts=True, end=True)]
    with pytest.raises(RacketyError, match="node 1: the DAWG loops back on itself"):
        Lexicon.load(save(tmp_path, nodes))


def test_write_is_atomic(tmp_path, monkeypatch):
    path = tmp_path / "keep.kwg"
    path.write_bytes(b"old")
    import os

    def boom(*args):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "fsync", boom)
    with pytest.raises(RacketyError, match="cannot write"):
        write_kwg(path, np.array([node(0, end=True)], np.uint32))
    assert path.read_bytes() == b"old"
    assert [p.name for p in tmp_path.iterdir()] == ["keep.kwg"]


# ---------------------------------------------------------------- hostile graphs
# Each was built to break a kernel: loop it, run it past a buffer, or make a word
# the scorer and the generator disagree on. All are refused on load, naming why.
def chain(tiles, gaddag=False):
    """A KWG whose DAWG is one word spelled by ``tiles`` (one node a tile)."""
    out = [node(0, 1, end=True)]
    for i, t in enumerate(tiles):
        last = i == len(tiles) - 1
        out.append(node(t, 0 if last else len(out) + 1, accepts=last, end=True))
    return out


HOSTILE = [
    # the 12-byte file of the issue: A -> B -> A ... (words list and pattern A* ran forever)
    ([node(0, 1, end=True), node(A, 2, end=True), node(B, 1, accepts=True, end=True)],
     "node 1: the DAWG loops back on itself"),
    ([node(0, 1, end=True), node(A, 1, accepts=True, end=True)], "loops back on itself"),
    (chain([A] * 22), "a path of 22 tiles, more than the largest board (21)"),
    ([node(0, 1, end=True), node(A, accepts=True, end=True)], "node 1: a word of one tile"),
    ([node(0, 1, end=True), node(A, 2, end=True), node(0, 3, end=True),
      node(B, accepts=True, end=True)], "node 2: a separator (tile 0) in the DAWG"),
    ([node(0, 1, end=True), node(A, 2, end=True), node(B, accepts=True),
      node(C, end=True)], "node 3: a dead end of the DAWG"),
    # GADDAGs: a separator first, two on one path, one that ends a string
    ([node(0, 2, end=True), node(0, 4, end=True), node(A, 3, end=True),
      node(B, accepts=True, end=True), node(0, 2, end=True)],
     "node 4: the GADDAG starts with a separator"),
    ([node(0, 2, end=True), node(0, 4, end=True), node(A, 3, end=True),
      node(B, accepts=True, end=True), node(B, 5, end=True), node(0, 6, end=True),
      node(0, 2, end=True)], "a path of the GADDAG has two separators"),
    ([node(0, 2, end=True), node(0, 4, end=True), node(A, 3, end=True),
      node(B, accepts=True, end=True), node(B, 5, end=True), node(0, accepts=True, end=True)],
     "node 5: a GADDAG string ends with the separator"),
]


@pytest.mark.parametrize(("nodes", "message"), HOSTILE)
def test_hostile_graphs_are_refused_before_any_walk(tmp_path, nodes, message):
    path = save(tmp_path, nodes)
    with pytest.raises(RacketyError, match=re.escape(message)):
        Lexicon.load(path)
    with pytest.raises(RacketyError, match=re.escape(message)):  # the constructor checks too
        Lexicon(np.asarray(nodes, np.uint32), EN, "hostile")


def test_an_exponential_graph_is_refused_by_its_word_count(tmp_path):
    # 21 levels of 26 letters, each letter pointing at the next level: 26^21 words
    # in 547 nodes, which `words list` would list for ever
    out = [node(0, 1, end=True)]
    for level in range(21):
        start = len(out)
        nxt = start + 26 if level < 20 else 0
        out += [node(t, nxt, accepts=level == 20, end=t == 26) for t in range(1, 27)]
    with pytest.raises(RacketyError, match="more than 8,388,608 words"):
        Lexicon.load(save(tmp_path, out))


def test_a_text_list_is_never_read_as_a_kwg(tmp_path):
    kwg_bytes = np.asarray([node(0, 1, end=True), node(A, 2, end=True),
                            node(B, accepts=True, end=True)], "<u4").tobytes()
    named_txt = tmp_path / "words.txt"
    named_txt.write_bytes(kwg_bytes)  # a KWG's first bytes, but called a word list
    with pytest.raises(RacketyError, match=r"words\.txt: not UTF-8 text"):
        Lexicon.load(named_txt)
    utf16 = tmp_path / "words"
    utf16.write_bytes("QI\nZA\n".encode("utf-16"))
    with pytest.raises(RacketyError, match="UTF-16 or UTF-32, it seems"):
        Lexicon.load(utf16)
    unnamed = tmp_path / "graph"
    unnamed.write_bytes(kwg_bytes)  # no name to go by: the bytes say KWG
    assert Lexicon.load(unnamed).words() == ["AB"]
