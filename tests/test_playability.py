"""Word study's playability order (`rackety.experiments.playability`,
`rackety quiz anagrams --order playability`; issue 39 point 2): the words
compiled self-play plays, against the same games played through the
referee by the Python static players; kept in the cache; the alphagrams
ranked by them."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import pytest

from rackety import Lexicon
from rackety.alphabet import BLANK_FLAG
from rackety.errors import RacketyError
from rackety.experiments import playability
from rackety.experiments.autoplay import game_seed, play_game
from rackety.frontends.cli import main
from rackety.players import make_player
from rackety.study.quiz import anagram_questions, playability_ranked

GAMES = 12


@pytest.fixture(scope="module")
def twl06() -> Lexicon:
    return Lexicon.load("TWL06")


@pytest.fixture
def cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setattr("rackety.lexicon.cache.cache_dir", lambda: tmp_path)
    return tmp_path


def test_the_words_self_play_plays(twl06: Lexicon, cache: Path,
                                   monkeypatch: pytest.MonkeyPatch) -> None:
    counts = playability.plays(twl06, games=GAMES, seed=4)
    words = twl06.words()
    got = {w: int(c) for w, c in zip(words, counts.tolist(), strict=True) if c}
    expected: Counter[str] = Counter()
    players = [make_player("static", twl06), make_player("static", twl06)]
    for g in range(GAMES):
        game, _ = play_game(twl06, players, seed=game_seed(4, 2 * g))
        for event in game.events:
            if event.kind == "play" and event.move is not None:
                expected[twl06.alphabet.format([t & ~BLANK_FLAG for t in event.move.tiles])] += 1
    assert got == dict(expected) and sum(got.values()) > 10 * GAMES
    # kept: asked again, nothing is played
    monkeypatch.setattr(playability, "Compiled", None)
    assert (playability.plays(twl06, games=GAMES, seed=4) == counts).all()
    with pytest.raises(RacketyError):
        playability.plays(twl06, games=0)


def test_alphagrams_by_playability(twl06: Lexicon, cache: Path) -> None:
    counts = dict(zip(twl06.words(), playability.plays(twl06, games=GAMES, seed=0).tolist(),
                      strict=True))
    ranked = playability_ranked(twl06, 3, games=GAMES)
    plist = twl06.probability_order(3)
    assert sorted(q.prompt for q in ranked) == sorted(e.alphagram for e in plist)
    keys = [(-sum(counts[w] for w in q.answers), plist.rank_of(q.prompt)) for q in ranked]
    assert keys == sorted(keys) and keys[0][0] < 0  # played ones first
    assert [q.rank for q in ranked] == list(range(1, len(ranked) + 1))
    assert anagram_questions(twl06, length=3, ranks=(2, 4), order="playability",
                             games=GAMES) == ranked[1:4]
    with pytest.raises(RacketyError, match="by length"):
        anagram_questions(twl06, pattern="Q*", order="playability", games=GAMES)


def test_the_command(capsys: pytest.CaptureFixture[str], cache: Path, twl06: Lexicon) -> None:
    assert main(["quiz", "anagrams", "--lexicon", "TWL06", "--length", "3", "--ranks", "1-3",
                 "--order", "playability", "--games", str(GAMES), "--json"]) == 0
    shown = json.loads(capsys.readouterr().out)
    assert [q["prompt"] for q in shown] == [q.prompt for q in
                                           playability_ranked(twl06, 3, games=GAMES)[:3]]
    assert main(["quiz", "anagrams", "--lexicon", "TWL06", "--pattern", "Q*", "--order",
                 "playability"]) == 2
    assert "by length" in capsys.readouterr().err
