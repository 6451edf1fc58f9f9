"""Files a user names: read with one-line errors, written atomically with the
user's umask, never half-written."""

from __future__ import annotations

import os
import stat

import numpy as np
import pytest

from rackety import Board, Lexicon, RacketyError
from rackety.files import read_bytes, writable_file, writable_folder, write_atomic
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


# ------------------------------------------------- what is at the path stays
class FifoReader:
    """A process-free reader of a FIFO: opened at once (non-blocking, so the
    test never waits on it), drained in a thread until the writer closes."""

    def __init__(self, path) -> None:
        import threading

        self.fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK)
        self.data = b""
        self.thread = threading.Thread(target=self._drain, daemon=True)
        self.thread.start()

    def _drain(self) -> None:
        import select
        import time

        deadline = time.monotonic() + 20  # a safety net, not a timing assertion
        seen = False
        while time.monotonic() < deadline:
            ready, _, _ = select.select([self.fd], [], [], 0.05)
            if not ready:
                continue
            try:
                chunk = os.read(self.fd, 1 << 16)
            except BlockingIOError:
                continue
            if chunk:
                self.data += chunk
                seen = True
            elif seen:  # the writer closed it
                break
            else:
                time.sleep(0.01)  # no writer yet
        os.close(self.fd)

    def result(self) -> bytes:
        self.thread.join()
        return self.data


def kind_of(path) -> str:
    """What is at ``path`` itself (a link is a link): for the before/after check."""
    try:
        info = os.lstat(path)
    except FileNotFoundError:
        return "nothing"
    for name in ("LNK", "FIFO", "CHR", "DIR", "REG", "BLK", "SOCK"):
        if getattr(stat, f"S_IS{name}")(info.st_mode):
            return name.lower() + (f":{info.st_rdev}" if name == "CHR" else "")
    return "other"


#: the kinds of target, each made in a fresh folder: (name, what a write must do)
TARGETS = ("regular", "absent", "symlink", "dangling", "symlink-to-fifo", "loop", "fifo",
           "fifo-no-reader", "folder", "missing-folder", "file-as-folder", "empty",
           "long-name", "odd-bytes", "trailing-slash")


def make_target(tmp_path, kind: str):
    """(the path to write, the path that must receive the data or None if the
    write must be refused, a FifoReader or None)."""
    folder = tmp_path / kind
    folder.mkdir()
    path = folder / "out"
    if kind == "regular":
        path.write_bytes(b"old")
        path.chmod(0o640)
        return str(path), path, None
    if kind == "absent":
        return str(path), path, None
    if kind == "symlink":
        (folder / "real").write_bytes(b"old")
        path.symlink_to("real")
        return str(path), folder / "real", None
    if kind == "dangling":
        (folder / "sub").mkdir()
        path.symlink_to("sub/made")
        return str(path), folder / "sub" / "made", None
    if kind in ("fifo", "symlink-to-fifo"):
        os.mkfifo(folder / "pipe")
        if kind == "fifo":
            path = folder / "pipe"
        else:
            path.symlink_to("pipe")
        return str(path), None, FifoReader(folder / "pipe")
    if kind == "fifo-no-reader":
        os.mkfifo(path)
        return str(path), None, None
    if kind == "loop":
        path.symlink_to("other")
        (folder / "other").symlink_to("out")
        return str(path), None, None
    if kind == "folder":
        path.mkdir()
        return str(path), None, None
    if kind == "missing-folder":
        return str(folder / "no" / "out"), None, None
    if kind == "file-as-folder":
        path.write_bytes(b"old")
        return str(path / "x"), None, None
    if kind == "empty":
        return "", None, None
    if kind == "long-name":
        return str(folder / ("x" * 300)), None, None
    if kind == "odd-bytes":  # a name that is not UTF-8, and one with a control character
        name = os.fsdecode(b"caf\xe9\x01 \xe2\x80\xae.out")
        return str(folder / name), folder / name, None
    if kind == "trailing-slash":
        return str(path) + "/", None, None
    raise ValueError(kind)


def check_write(tmp_path, kind: str, write) -> str:
    """Write ``kind``'s target through ``write(path)``, which returns the bytes
    it meant to write: they are where they belong (or the write is refused in
    one line), and everything in the folder is the same kind of thing after
    (a link still a link, a FIFO still a FIFO). The outcome: "written" or the
    error line."""
    path, receiver, reader = make_target(tmp_path, kind)
    folder = tmp_path / kind
    before = {p.name: kind_of(p) for p in folder.iterdir()}
    old_mode = mode(receiver) if receiver is not None and receiver.exists() else None
    try:
        data = write(path)
        outcome = "written"
    except RacketyError as exc:
        outcome = str(exc)
        assert "\n" not in outcome and len(outcome) <= 300
    after = {p.name: kind_of(p) for p in folder.iterdir()}
    if reader is not None:
        assert outcome == "written" and reader.result() == data, outcome
    elif receiver is not None:
        assert outcome == "written", outcome
        assert receiver.read_bytes() == data
        if receiver.parent == folder:  # a file there (or made): its kind may change
            after.pop(receiver.name)
            before.pop(receiver.name, None)
        if old_mode is not None:  # a file that was there keeps its mode
            assert mode(receiver) == old_mode
    else:
        assert outcome != "written", f"{kind}: written"
    for name, what in before.items():  # links stay links, FIFOs FIFOs, folders folders
        assert after.get(name) == what, (kind, name, what, after.get(name))
    assert not [n for n in after if n.endswith(".tmp")]  # no temporary file left
    return outcome


RECORD = "#player1 a A\n#player2 b B\n>a: QI 8G QI +22 22\n"


def _written_by(writer, tmp_path) -> bytes:
    """The bytes ``writer`` writes, from a plain new file."""
    reference = tmp_path / "reference"
    writer(reference)
    return reference.read_bytes()


LIBRARY_WRITERS = {
    "write_atomic": lambda p: write_atomic(p, b"new data \xe2\x9c\x93\n"),
    "save_gcg": lambda p: save_gcg(read_gcg(RECORD), p),
    "kwg": lambda p: Lexicon.from_words(["QI", "ZA"]).save(p),
    "klv2": lambda p: Klv.from_values("english", {"Q": -7.0}).save(p),
}


@pytest.mark.parametrize("kind", TARGETS)
@pytest.mark.parametrize("writer", sorted(LIBRARY_WRITERS))
def test_a_write_never_replaces_what_is_at_the_path(tmp_path, kind, writer):
    write = LIBRARY_WRITERS[writer]
    expected = _written_by(write, tmp_path)

    def run(path):
        write(path)
        return expected

    outcome = check_write(tmp_path, kind, run)
    refusals = {"loop": "too many levels of symbolic links", "folder": "is a folder",
                "missing-folder": "no such folder", "file-as-folder": "where a folder should",
                "empty": "an empty file name", "long-name": "File name too long",
                "fifo-no-reader": "a FIFO that no process is reading",
                "trailing-slash": "a folder name"}
    if kind in refusals:
        assert refusals[kind] in outcome


def test_the_devices_are_written_in_place(tmp_path):
    """/dev/null takes the bytes and stays the device; /dev/full says so in one
    line. Only after a FIFO (the stand-in of a device) was written in place:
    as root, a regression would otherwise replace /dev/null itself."""
    check_write(tmp_path, "fifo", lambda p: (write_atomic(p, b"x"), b"x")[1])
    for device, error in (("/dev/null", None), ("/dev/full", "No space left on device")):
        before = kind_of(device)
        assert before.startswith("chr:")
        try:
            write_atomic(device, b"data")
            writable_file(device, "-o")
            outcome = None
        except RacketyError as exc:
            outcome = str(exc)
        assert kind_of(device) == before
        assert (outcome is None) if error is None else (error in outcome and
                                                        outcome.count("\n") == 0)


def test_writable_file_agrees_with_the_write(tmp_path):
    """The check before the work refuses what the write would refuse (a FIFO
    needs its reader only when written)."""
    for kind in TARGETS:
        path, _receiver, reader = make_target(tmp_path, kind)
        try:
            writable_file(path, "--csv")
            checked = "ok"
        except RacketyError as exc:
            checked = str(exc)
            assert checked.startswith("--csv") and "\n" not in checked
        try:
            write_atomic(path, b"x")
            wrote = "ok"
        except RacketyError:
            wrote = "refused"
        if reader is not None:
            reader.result()
        assert (checked == "ok") == (wrote == "ok" or kind == "fifo-no-reader"), kind
        if kind == "missing-folder":
            assert checked.endswith("cannot write (no such folder)")
        if kind == "file-as-folder":
            assert checked.endswith("cannot write (a file stands where a folder should be)")


def test_a_regular_file_keeps_its_mode_and_new_files_follow_the_umask(tmp_path, umask):
    umask(0o027)
    path = tmp_path / "x.csv"
    write_atomic(path, b"1")
    assert mode(path) == 0o640
    path.chmod(0o604)
    write_atomic(path, b"2")
    assert mode(path) == 0o604 and path.read_bytes() == b"2"


def test_a_read_only_file_is_refused_as_the_shell_refuses_it(tmp_path, monkeypatch):
    path = tmp_path / "keep.csv"
    path.write_bytes(b"old")
    monkeypatch.setattr(os, "access", lambda *args, **kwargs: False)  # root may write anything
    with pytest.raises(RacketyError, match=r"keep\.csv: cannot write \(Permission denied\)"):
        write_atomic(path, b"new")
    assert path.read_bytes() == b"old"


def test_standard_output_by_name(tmp_path):
    """``-o /dev/stdout`` writes where standard output goes: a pipe, or a file
    the shell opened (in order with what was printed before). The link tried is
    one made here as /dev/stdout is made: a regression must never replace the
    real one (tests may run as root)."""
    import subprocess
    import sys

    (tmp_path / "stdout").symlink_to("/proc/self/fd/1")  # what /dev/stdout is
    code = ("import sys\nfrom rackety.files import write_atomic\nprint('before')\n"
            "write_atomic(sys.argv[1], b'DATA\\n')\nprint('after')\n")
    for name in (str(tmp_path / "stdout"), "/proc/self/fd/1", "/dev/fd/1"):
        piped = subprocess.run([sys.executable, "-c", code, name], capture_output=True,
                               check=True)
        assert piped.stdout == b"before\nDATA\nafter\n"
        with open(tmp_path / "out.txt", "wb") as out:
            subprocess.run([sys.executable, "-c", code, name], stdout=out, check=True)
        assert (tmp_path / "out.txt").read_bytes() == b"before\nDATA\nafter\n"
        assert kind_of(tmp_path / "stdout") == "lnk"


# ------------------------------------------------------- every writer of the CLI
WORDS = "AA AB AD AE AT BA TA QI ZA HALTED LATHED OWS GOX OX GO OW ET TE"
GAME = ("#player1 ann Ann\n#player2 bob Bob\n>ann: ADEHLRT 8D HALTED +28 28\n"
        ">bob: EFGOQVX -FQV +0 0\n>ann: EIOPRSW D8 .OWS +10 38\n")
OPENING = "/".join(["15"] * 15) + " AADNPUY/ 0/0 0"
#: option -> (command line with {out}, the kinds it is tried on)
CLI_WRITERS = {
    "show --svg": (["show", "--cgp", OPENING, "--svg", "{out}"], TARGETS),
    "analyze --csv": (["analyze", "--lexicon", "{words}", "{game}", "--jobs", "1", "--csv",
                       "{out}"], TARGETS),
    "analyze --html": (["analyze", "--lexicon", "{words}", "{game}", "--jobs", "1", "--html",
                        "{out}"], TARGETS),
    "lexicon build -o": (["lexicon", "build", "{words}", "-o", "{out}"],
                         ("regular", "symlink", "fifo", "folder", "empty", "loop")),
}


def run_cli(capsys, argv: list[str]) -> str:
    """Run the command; its output, or the `RacketyError` of its one error line."""
    from rackety.frontends.cli import main

    code = main(argv)
    out, err = capsys.readouterr()
    if code == 2:
        assert err.count("\n") == 1 and err.startswith("rackety") and "error:" in err, err
        raise RacketyError(err.strip())
    assert code == 0 and not err.strip(), (code, err)
    return out


@pytest.mark.parametrize("writer", sorted(CLI_WRITERS))
def test_every_output_option_keeps_what_is_at_the_path(tmp_path, capsys, writer):
    argv, kinds = CLI_WRITERS[writer]
    (tmp_path / "words.txt").write_text("\n".join(WORDS.split()))
    (tmp_path / "game.gcg").write_text(GAME)
    names = {"words": str(tmp_path / "words.txt"), "game": str(tmp_path / "game.gcg")}

    def command(out: str) -> list[str]:
        return [a.format(out=out, **names) for a in argv]

    run_cli(capsys, command(str(tmp_path / "reference")))
    expected = (tmp_path / "reference").read_bytes()
    for kind in kinds:
        outcome = check_write(tmp_path, kind, lambda p: (run_cli(capsys, command(p)),
                                                         expected)[1])
        if kind == "empty":
            assert "an empty file name" in outcome


def test_autoplay_records_keep_what_is_in_their_folder(tmp_path, capsys):
    """--gcg-dir: a link named like a record is written through, a FIFO named
    like one with a reader gets it, one without a reader stops the run in one
    line; none is replaced. An empty folder name is refused."""
    (tmp_path / "words.txt").write_text("\n".join(WORDS.split()))
    argv = ["autoplay", "--lexicon", str(tmp_path / "words.txt"), "--players",
            "greedy,greedy", "--games", "2", "--jobs", "1", "--seed", "4", "--gcg-dir"]
    first, second = "game00001-greedy-1-greedy-2.gcg", "game00002-greedy-2-greedy-1.gcg"
    run_cli(capsys, [*argv, str(tmp_path / "plain")])
    plain = {name: (tmp_path / "plain" / name).read_bytes() for name in (first, second)}
    folder = tmp_path / "games"
    folder.mkdir()
    (folder / "elsewhere").mkdir()
    (folder / first).symlink_to("elsewhere/one.gcg")
    os.mkfifo(folder / second)
    reader = FifoReader(folder / second)
    run_cli(capsys, [*argv, str(folder)])
    assert reader.result() == plain[second]
    assert (folder / "elsewhere" / "one.gcg").read_bytes() == plain[first]
    assert kind_of(folder / first) == "lnk" and kind_of(folder / second) == "fifo"
    with pytest.raises(RacketyError, match="a FIFO that no process is reading"):
        run_cli(capsys, [*argv, str(folder)])
    assert kind_of(folder / second) == "fifo"
    with pytest.raises(RacketyError, match="an empty file name"):
        run_cli(capsys, [*argv, ""])
    os.mkfifo(tmp_path / "notafolder")
    with pytest.raises(RacketyError, match="not a folder"):
        run_cli(capsys, [*argv, str(tmp_path / "notafolder")])
    assert kind_of(tmp_path / "notafolder") == "fifo"


def test_the_store_refuses_what_is_not_a_regular_file(tmp_path, capsys):
    """serve --db: a folder, a FIFO (no hang), a device, a link loop or an
    empty name is one line before anything is served."""
    os.mkfifo(tmp_path / "fifo")
    (tmp_path / "loop").symlink_to("loop")
    device = "/dev/null"  # only root could replace it: root gets a null device of its own
    if os.geteuid() == 0:
        device = str(tmp_path / "null")
        os.mknod(device, stat.S_IFCHR | 0o666, os.makedev(1, 3))
    for db, message in ((str(tmp_path), "is a folder"), (str(tmp_path / "fifo"), "not a regular"),
                        (device, "not a regular"), (str(tmp_path / "loop"), "symbolic"),
                        ("", "an empty file name")):
        before = kind_of(db) if db else None
        with pytest.raises(RacketyError, match=message):
            run_cli(capsys, ["serve", "--port", "0", "--db", db])
        assert before is None or kind_of(db) == before


def test_a_terminal_save_keeps_what_is_at_the_path(tmp_path, twl06):
    from rackety.frontends.terminal import TerminalGame
    from rackety.players import make_player

    session = TerminalGame(twl06, [make_player("greedy", twl06)], seed=2,
                           read_line=lambda prompt: "quit", write=lambda screen: None)
    session.save(str(tmp_path / "reference.gcg"))
    expected = (tmp_path / "reference.gcg").read_bytes()
    for kind in ("symlink", "dangling", "fifo", "fifo-no-reader", "folder", "loop"):
        check_write(tmp_path, kind, lambda p: (session.save(p), expected)[1])
