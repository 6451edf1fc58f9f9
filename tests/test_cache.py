"""The on-disk cache: the second use of a lexicon reads the compiled graph, after
checking it is the graph that was built."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import numpy as np

from rackety import Lexicon


def test_second_load_reads_the_cached_graph(tmp_path, monkeypatch):
    monkeypatch.setenv("RACKETY_CACHE_DIR", str(tmp_path / "c"))
    path = tmp_path / "w.txt"
    path.write_text("QI\nZA\nZAS\n")
    first = Lexicon.load(path)
    entries = sorted(p.suffix for p in (tmp_path / "c").iterdir())
    assert entries == [".json", ".kwg"]

    def no_build(*args, **kwargs):
        raise AssertionError("a cached list was compiled again")

    monkeypatch.setattr(Lexicon, "_build", no_build)
    second = Lexicon.load(path)
    assert second.report is not None and second.report.words == 3
    assert not second.nodes.flags.writeable
    assert np.array_equal(first.nodes, second.nodes) and len(second) == 3
    meta = json.loads(next((tmp_path / "c").glob("*.json")).read_text())
    assert meta["words"] == 3 and meta["nodes"] == second.node_count


def test_the_key_is_the_content_and_the_alphabet(tmp_path, monkeypatch):
    monkeypatch.setenv("RACKETY_CACHE_DIR", str(tmp_path / "c"))
    path = tmp_path / "w.txt"
    path.write_text("QI\nZA\n")
    Lexicon.load(path)
    path.write_text("QI\nZA\nZO\n")  # same name, new content: rebuilt
    assert len(Lexicon.load(path)) == 3
    Lexicon.load(path, "french")
    assert len(list((tmp_path / "c").glob("*.kwg"))) == 3


def test_a_damaged_entry_is_rebuilt(tmp_path, monkeypatch):
    monkeypatch.setenv("RACKETY_CACHE_DIR", str(tmp_path / "c"))
    path = tmp_path / "w.txt"
    path.write_text("QI\nZA\n")
    Lexicon.load(path)
    kwg = next((tmp_path / "c").glob("*.kwg"))
    kwg.write_bytes(kwg.read_bytes()[:-4])  # truncated by a crash
    assert Lexicon.load(path).words() == ["QI", "ZA"]
    assert len(kwg.read_bytes()) % 4 == 0 and Lexicon.load(path).words() == ["QI", "ZA"]


def test_a_damaged_graph_of_the_same_size_is_rebuilt_not_walked(tmp_path, monkeypatch):
    # what once crashed the word tools: arcs pointing past the end, size unchanged
    monkeypatch.setenv("RACKETY_CACHE_DIR", str(tmp_path / "c"))
    path = tmp_path / "w.txt"
    path.write_text("QI\nZA\nZAS\nQIS\n")
    Lexicon.load(path)
    kwg = next((tmp_path / "c").glob("*.kwg"))
    good = kwg.read_bytes()
    damaged = np.frombuffer(good, "<u4").copy()
    damaged[2:] |= np.uint32(0x3FFFFF)  # every arc far beyond the last node
    kwg.write_bytes(damaged.tobytes())
    again = Lexicon.load(path)
    assert again.words() == ["QI", "QIS", "ZA", "ZAS"] and again.anagrams("SIQ") == ["QIS"]
    assert kwg.read_bytes() == good  # the entry was rebuilt
    meta = next((tmp_path / "c").glob("*.json"))
    meta.write_text(meta.read_text().replace('"words": 4', '"words": "4' + "9" * 5000 + '"'))
    assert len(Lexicon.load(path)) == 4  # a damaged JSON too: rebuilt, not believed


def test_an_unwritable_cache_still_loads(tmp_path, monkeypatch):
    blocker = tmp_path / "file"
    blocker.write_text("")
    monkeypatch.setenv("RACKETY_CACHE_DIR", str(blocker / "sub"))
    path = tmp_path / "w.txt"
    path.write_text("QI\nZA\n")
    assert Lexicon.load(path).words() == ["QI", "ZA"]


def test_cold_then_warm_in_fresh_processes(tmp_path):
    """What a user sees: the first process compiles, the next only reads the file."""
    env = {**os.environ, "RACKETY_CACHE_DIR": str(tmp_path / "c")}
    code = ("import sys, time; t = time.perf_counter(); import rackety; "
            "lex = rackety.Lexicon.load('TWL06'); print(len(lex), 'QI' in lex, "
            "'numba' in sys.modules, time.perf_counter() - t)")
    outputs = [subprocess.run([sys.executable, "-c", code], env=env, capture_output=True,
                              text=True, check=True).stdout.split() for _ in range(2)]
    assert outputs[0][:2] == outputs[1][:2] == ["178691", "True"]
    assert outputs[1][2] == "False"  # a warm load never imports numba
