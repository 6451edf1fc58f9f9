"""The DAWG and GADDAG: exactly the input, nothing else, and minimal."""

from __future__ import annotations

import numpy as np
import pytest
import reference
from hypothesis import given, settings
from hypothesis import strategies as st

from rackety import Alphabet, Lexicon
from rackety.lexicon import kwg
from rackety.lexicon.query import enumerate_strings
from rackety.lexicon.sources import builtin, builtin_path

EN = Alphabet.load("english")

small_words = st.lists(st.text("ABCDE", min_size=2, max_size=6), min_size=1, max_size=25)


def strings(nodes, pseudo):
    flat, lens = enumerate_strings(nodes, int(nodes[pseudo]) & 0x3FFFFF, 64)
    out, at = [], 0
    for n in lens:
        out.append(tuple(int(x) for x in flat[at:at + n]))
        at += n
    return out


def walk_accepts(nodes, pseudo, tiles):
    index = kwg.follow(nodes, pseudo, list(tiles))
    return index >= 0 and kwg.accepts(int(nodes[index]))


def check_structure(nodes):
    """What every KWG reader relies on: runs in increasing tile order ending at
    is_end, arcs inside the file, pseudo-nodes at 0 (and 1)."""
    kwg.validate(nodes, "built")
    tiles = nodes >> 24
    ends = (nodes & kwg.IS_END) != 0
    assert ends[0] and tiles[0] == 0


@settings(max_examples=150, deadline=None)
@given(small_words)
def test_dawg_and_gaddag_hold_exactly_the_words(words):
    lex = Lexicon.from_words(words)
    nodes = lex.nodes
    check_structure(nodes)
    expected = sorted({tuple(EN.word(w)) for w in words})
    assert strings(nodes, kwg.DAWG_ROOT) == expected
    assert set(strings(nodes, kwg.GADDAG_ROOT)) == reference.gaddag_strings(expected)
    assert len(strings(nodes, kwg.GADDAG_ROOT)) == len(reference.gaddag_strings(expected))
    assert len(lex) == len(expected)
    # look-ups by walking: every word accepted, near misses refused
    for w in expected:
        assert walk_accepts(nodes, kwg.DAWG_ROOT, w)
        assert not walk_accepts(nodes, kwg.DAWG_ROOT, w[:-1]) or w[:-1] in expected
        assert walk_accepts(nodes, kwg.GADDAG_ROOT, w[::-1])


@settings(max_examples=150, deadline=None)
@given(small_words)
def test_the_graph_is_minimal(words):
    expected = sorted({tuple(EN.word(w)) for w in words})
    assert Lexicon.from_words(words).node_count == reference.minimal_kwg_nodes(expected)
    dawg = Lexicon.from_words(words, gaddag=False)
    assert not dawg.has_gaddag
    assert dawg.node_count == reference.minimal_kwg_nodes(expected, gaddag=False)
    assert strings(dawg.nodes, kwg.DAWG_ROOT) == expected


@settings(max_examples=40, deadline=None)
@given(st.lists(st.text("ABCDEFGHIJKLMNOPQRSTUVWXYZ", min_size=2, max_size=15), min_size=1,
                max_size=40))
def test_lists_with_little_to_share(words):
    """Long random words over the whole alphabet: few states merge, the register's
    table is at its fullest."""
    lex = Lexicon.from_words(words)
    expected = sorted({tuple(EN.word(w)) for w in words})
    assert strings(lex.nodes, kwg.DAWG_ROOT) == expected
    assert set(strings(lex.nodes, kwg.GADDAG_ROOT)) == reference.gaddag_strings(expected)
    assert lex.node_count == reference.minimal_kwg_nodes(expected)


@settings(max_examples=60, deadline=None)
@given(small_words, st.lists(st.text("ABCDEF", min_size=1, max_size=7), max_size=30))
def test_nothing_else_is_accepted(words, probes):
    lex = Lexicon.from_words(words)
    wordset = {w.upper() for w in words}
    for p in probes:
        assert (p in lex) == (p in wordset)


@pytest.mark.parametrize("name", ["TWL06", "SOWPODS", "CSW19"])
def test_built_in_lists_round_trip_in_order(name):
    lex = Lexicon.load(name)
    text = builtin_path(builtin(name)).read_text(encoding="utf-8")
    source = [w.strip().upper() for w in text.split()]
    assert source == sorted(source)
    assert lex.words() == source
    assert len(lex) == len(source) == builtin(name).words
    nodes = lex.nodes
    check_structure(nodes)
    gaddag_count = kwg.validate(nodes, name)[int(nodes[kwg.GADDAG_ROOT]) & 0x3FFFFF]
    assert gaddag_count == sum(len(w) for w in source)
    rng = np.random.default_rng(6)
    for i in rng.choice(len(source), 300, replace=False):
        w = EN.word(source[i])
        for k in range(1, len(w)):  # every GADDAG path of the word exists
            assert walk_accepts(nodes, kwg.GADDAG_ROOT, w[:k][::-1] + [0] + w[k:])
        assert walk_accepts(nodes, kwg.GADDAG_ROOT, w[::-1])
        assert not walk_accepts(nodes, kwg.GADDAG_ROOT, w[::-1] + [0])


def test_twl06_is_no_bigger_than_magpies_build():
    lex = Lexicon.load("TWL06")
    assert lex.node_count <= 830_481  # MAGPIE's build of TWL06 (no tail sharing)
    # the DAWG part alone, built on its own, is the minimal DAWG
    dawg = Lexicon.from_tiles(*lex.word_tiles(), gaddag=False)
    assert dawg.node_count < lex.node_count


def test_catalan_multi_letter_tiles_are_single_edges(tmp_path):
    path = tmp_path / "ca.txt"
    path.write_text("COL·LEGI\nANY\nNYAP\n", encoding="utf-8")
    lex = Lexicon.load(path, "catalan")
    ca = lex.alphabet
    assert lex.words() == ["ANY", "COL·LEGI", "NYAP"]
    hooks = lex.hooks("ANY")
    assert hooks.valid and hooks.front == () and hooks.back == ()
    assert "NY" not in lex and "NYAP" in lex
    assert walk_accepts(lex.nodes, kwg.GADDAG_ROOT, ca.word("NYAP")[::-1])
