"""The command line, in the exact forms scripts call."""

from __future__ import annotations

import importlib.metadata
import json

import pytest

from rackety import Lexicon
from rackety.frontends.cli import main

EMPTY = "/".join(["15"] * 15)


def run(capsys, *args):
    code = main(list(args))
    out, err = capsys.readouterr()
    return code, out, err


def test_words_check(capsys):
    code, out, _ = run(capsys, "words", "check", "--lexicon", "TWL06", "QI", "ZA")
    assert (code, out) == (0, "QI valid\nZA valid\n")
    code, out, _ = run(capsys, "words", "check", "QI", "QX", "zyzzyvas")
    assert (code, out) == (1, "QI valid\nQX invalid\nzyzzyvas valid\n")


def test_json_outputs_are_one_value(capsys, twl06):
    code, out, _ = run(capsys, "words", "anagram", "--lexicon", "TWL06", "RETAINS", "--json")
    assert code == 0 and json.loads(out) == twl06.anagrams("RETAINS")
    _, out, _ = run(capsys, "words", "anagram", "AEI?", "--subsets", "--json")
    assert json.loads(out) == twl06.anagrams("AEI?", subsets=True)
    _, out, _ = run(capsys, "words", "pattern", "C?T*", "--rack", "AE?", "--json")
    assert json.loads(out) == twl06.pattern("C?T*", rack="AE?")
    _, out, _ = run(capsys, "words", "hooks", "--lexicon", "TWL06", "care", "--json")
    assert json.loads(out) == {"word": "CARE", "valid": True, "front": ["S"],
                               "back": ["D", "R", "S", "T", "X"]}
    _, out, _ = run(capsys, "words", "multi", "--lexicon", "TWL06", "dirtyroom", "--json",
                    "--max-words", "2")
    assert "DIRTY ROOM" in json.loads(out)
    _, out, _ = run(capsys, "words", "suggest", "--lexicon", "TWL06", "QUIXOTC", "--json")
    assert json.loads(out)[:2] == ["QUIXOTE", "QUIXOTIC"]
    _, out, _ = run(capsys, "lexicon", "info", "TWL06", "--json")
    info = json.loads(out)
    assert (info["words"], info["nodes"], info["bytes"]) == (178691, twl06.node_count,
                                                             4 * twl06.node_count)


def test_lexicon_build_from_each_kind_of_source(capsys, tmp_path):
    out_kwg = tmp_path / "twl.kwg"
    code, out, _ = run(capsys, "lexicon", "build", "TWL06", "-o", str(out_kwg))
    assert code == 0 and "178,691 words" in out
    lex = Lexicon.load(out_kwg)
    assert lex.has_gaddag and len(lex) == 178691
    listing = tmp_path / "ca.txt"
    listing.write_text("col·legi\nany\n", encoding="utf-8")
    code, out, _ = run(capsys, "lexicon", "build", str(listing), "-o", str(tmp_path / "ca.kwg"),
                       "--alphabet", "catalan")
    assert code == 0 and Lexicon.load(tmp_path / "ca.kwg", "catalan").words() == [
        "ANY", "COL·LEGI"]
    code, out, _ = run(capsys, "lexicon", "build", str(out_kwg), "-o",
                       str(tmp_path / "dawg.kwg"), "--dawg-only")
    dawg = Lexicon.load(tmp_path / "dawg.kwg")
    assert code == 0 and not dawg.has_gaddag and dawg.words() == lex.words()


@pytest.mark.parametrize(("args", "message"), [
    (["words", "check", "--lexicon", "NOPE", "QI"], "unknown lexicon 'NOPE'"),
    (["words", "anagram", "AB1"], "rack 'AB1' has letter '1'"),
    (["lexicon", "info", "/no/such/list.txt"], "unknown lexicon '/no/such/list.txt'"),
    (["words", "suggest", "QI", "--distance", "9"], "--distance"),
    (["words", "frobnicate"], "No such command 'frobnicate'"),
    (["lexicon", "build", "TWL06"], "Missing option '-o'"),
    # the classes of issue 12: numbers, names and paths beyond what the system takes
    (["moves", "--cgp", f"{EMPTY} AADNPUY/ 0/{'9' * 5000} 0"], "score 99999"),
    (["moves", "--cgp", f"{EMPTY} AADNPUY/ 0/0 0 bb 99999999999999999999;"], "bb operand"),
    (["moves", "--cgp", f"{EMPTY} AADNPUY/ 0/0 {'9' * 5000}"], "zero-turns field 9999"),
    (["moves", "--cgp", f"{EMPTY} AADNPUY/ 0/0 0 lex {'x' * 5000};"], "names lexicon 'xxx"),
    (["moves", "--lexicon", "x" * 5000, "--cgp", f"{EMPTY} A/ 0/0 0"], "unknown lexicon"),
    (["moves", "--cgp", f"{EMPTY} AADNPUY/ 0/0 0 ld {'x' * 5000}.json;"], "unknown alphabet"),
    (["show", "--cgp", f"{EMPTY} A/ 0/0 0", "--svg", "/no/such/folder/b.svg"],
     "--svg /no/such/folder/b.svg: cannot write (no such folder)"),
    (["autoplay", "--games", "2", "--gcg-dir", "/proc/no/such"], "--gcg-dir /proc/no/such"),
    (["autoplay", "--games", "2", "--players", "sim:²,h3"], "player 'sim:²': rollouts"),
    (["autoplay", "--games", "٣"], "'٣' is not a whole number"),
    (["autoplay", "--seed", "9" * 5000], "out of range (0 to 9223372036854775807)"),
    (["sim", "--cgp", f"{EMPTY} /AADNPUY 0/0 0"], "the player to move has no rack"),
    (["sim", "--cgp", f"{EMPTY} AADNPUY/ 0/0 0", "--seconds", "nan"], "not a number of"),
    (["words", "list", "--lexicon", "/dev/zero"], "not a regular file"),
])
def test_user_mistakes_are_one_line(capsys, args, message):
    code, out, err = run(capsys, *args)
    assert code == 2 and out == ""
    assert message in err and err.count("\n") == 1 and "Traceback" not in err
    assert len(err) <= 320


def test_bad_word_list_names_file_and_line(capsys, tmp_path):
    bad = tmp_path / "bad.txt"
    bad.write_text("AA\nAB\nA\nZZZ\n")
    code, _, err = run(capsys, "lexicon", "info", str(bad))
    assert code == 2 and f"{bad}:3: word 'A' is shorter than 2 tiles" in err
    code, out, err = run(capsys, "lexicon", "info", str(bad), "--skip-invalid", "--json")
    assert code == 0 and json.loads(out)["words"] == 3
    assert "skipped 1 invalid words" in err


def test_missing_optional_package_says_how_to_install(capsys, monkeypatch):
    real = importlib.metadata.distribution

    def fake(name):
        if name == "pyscrabbler":
            raise importlib.metadata.PackageNotFoundError(name)
        return real(name)

    monkeypatch.setattr(importlib.metadata, "distribution", fake)
    code, _, err = run(capsys, "lexicon", "info", "CSW19")
    assert code == 2
    assert "'pyscrabbler', which is not installed: pip install 'rackety[csw]'" in err


def test_help_and_version(capsys):
    code, out, _ = run(capsys, "--help")
    assert code == 0 and "lexicon" in out and "words" in out
    code, out, _ = run(capsys, "--version")
    assert code == 0 and "version" in out


def test_help_lists_every_command_and_player_kind(capsys):
    from rackety.frontends.cli import cli
    from rackety.players.registry import PLAYER_SPECS

    code, out, _ = run(capsys, "--help")
    assert code == 0 and "(lexicons and word tools)" not in out
    for name in cli.commands:  # every command is listed with its summary
        assert name in out
    kinds = [spec.split(":")[0].replace("PLAYER", "") for spec in PLAYER_SPECS]
    for command in ("autoplay", "play"):
        code, out, _ = run(capsys, command, "--help")
        text = " ".join(out.split())
        assert code == 0
        for kind in kinds:
            assert kind in text, (command, kind)
    # and what the error lists is what the help lists
    code, _, err = run(capsys, "autoplay", "--players", "nobody,greedy", "--games", "1")
    assert code == 2
    listed = err.split("players: ")[1].strip().split(", ")
    assert listed == list(PLAYER_SPECS)
