"""Files a user names: read with one-line errors, written atomically with the
user's umask, never half-written."""

from __future__ import annotations

import os
import stat

import numpy as np
import pytest

from rackety import Board, Lexicon, RacketyError
from rackety.files import read_bytes, writable_folder, write_atomic
from rackety.game.gcg import read_gcg, save_gcg
from rackety.lexicon.klv import Klv


@pytest.fixture
def umask():
    """Set the process umask for a test, and put the old one back."""
    saved = os.umask(0o022)
    os.umask(saved)

    def setter(mask: int) -> None:
        os.umask(mask)

    yield setter
    os.umask(saved)


def mode(path) -> int:
    return stat.S_IMODE(os.stat(path).st_mode)


@pytest.mark.parametrize("mask", [0o022, 0o077, 0o002])
def test_every_writer_follows_the_umask(tmp_path, umask, mask):
    umask(mask)
    lexicon = Lexicon.from_words(["QI", "ZA"])
    record = read_gcg("#player1 a A\n#player2 b B\n>a: QI 8G QI +22 22\n")
    writers = {
        "g.kwg": lambda p: lexicon.save(p),
        "l.klv2": lambda p: Klv.from_values("english", {"Q": -7.0}).save(p),
        "r.gcg": lambda p: save_gcg(record, p),
        "b.svg": lambda p: write_atomic(p, Board().svg().encode()),
        "t.csv": lambda p: write_atomic(p, b"a,b\n"),
    }
    for name, write in writers.items():
        write(tmp_path / name)
        assert mode(tmp_path / name) == 0o666 & ~mask, name
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted(writers)  # no temp file left


def test_a_write_that_fails_leaves_the_old_file_and_no_temp(tmp_path, monkeypatch):
    path = tmp_path / "keep.gcg"
    path.write_bytes(b"old")

    def full(*args):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "fsync", full)
    with pytest.raises(RacketyError, match=r"keep\.gcg: cannot write \(No space left"):
        write_atomic(path, b"new")
    assert path.read_bytes() == b"old"
    assert [p.name for p in tmp_path.iterdir()] == ["keep.gcg"]


@pytest.mark.parametrize(("where", "message"), [
    ("missing/folder/x.svg", "cannot write (no such folder)"),
    ("x" * 300 + ".svg", "cannot write (File name too long)"),
])
def test_unwritable_paths_are_one_line(tmp_path, where, message):
    with pytest.raises(RacketyError) as exc:
        write_atomic(tmp_path / where, b"data")
    assert message in str(exc.value) and len(str(exc.value)) <= 300


def test_a_read_only_folder_is_refused(tmp_path, monkeypatch):
    def denied(*args, **kwargs):  # what a folder without write permission answers
        raise PermissionError(13, "Permission denied")

    monkeypatch.setattr(os, "open", denied)
    with pytest.raises(RacketyError, match=r"x\.csv: cannot write \(Permission denied\)"):
        write_atomic(tmp_path / "x.csv", b"")


def test_a_gcg_folder_is_made_or_refused_before_any_work(tmp_path):
    assert writable_folder(tmp_path / "a" / "b", "gcg folder").is_dir()
    blocker = tmp_path / "file"
    blocker.write_text("")
    with pytest.raises(RacketyError, match="gcg folder .*: cannot make the folder"):
        writable_folder(blocker / "sub", "gcg folder")


def test_reading_refuses_what_is_not_a_regular_file_of_its_size(tmp_path):
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)  # opening it would wait for a writer for ever
    with pytest.raises(RacketyError, match="not a regular file"):
        read_bytes(fifo, "word list", 100)
    with pytest.raises(RacketyError, match="is a directory"):
        read_bytes(tmp_path, "word list", 100)
    big = tmp_path / "big"
    big.write_bytes(b"x" * 101)
    with pytest.raises(RacketyError, match="101 bytes, more than a word list can be"):
        read_bytes(big, "word list", 100)
    with pytest.raises(RacketyError, match="no such file"):
        read_bytes(tmp_path / ("y" * 5000), "word list", 100)
    assert read_bytes(big, "word list", 101) == b"x" * 101


def test_lexicon_names_too_long_for_the_system(tmp_path):
    with pytest.raises(RacketyError, match="unknown lexicon 'xxx"):
        Lexicon.load("x" * 5000)
    # a KWG read back is the bytes written
    lexicon = Lexicon.from_words(["QI", "ZA"])
    lexicon.save(tmp_path / "a.kwg")
    assert np.array_equal(Lexicon.load(tmp_path / "a.kwg").nodes, lexicon.nodes)
