"""WordSmog played end to end, as one value of `Rules.variant`: the referee
takes a play whose words are anagrams of words, the players and hints list
WordSmog's moves, self-play and autoplay play whole games that the checker
passes, and the variant travels in CGP (``var WordSmog;``) and GCG
(``#note Variant: wordsmog``)."""

from __future__ import annotations

import json

import pytest

from rackety import Board, Lexicon, Move
from rackety.errors import RacketyError
from rackety.experiments.autoplay import play_game, tournament
from rackety.frontends.cli import main
from rackety.game.gcg import game_of, read_gcg, record_of, record_rules, replay, write_gcg
from rackety.game.referee import Game, IllegalMoveError, formed_words
from rackety.game.rules import Rules
from rackety.players import make_player

WORDSMOG = Rules(variant="wordsmog", challenge="void")
EMPTY = "/".join(["15"] * 15)


def test_the_referee_takes_anagrams_of_words_and_refuses_the_rest(twl06: Lexicon) -> None:
    game = Game(twl06, ["Ann", "Ben"], seed=3, rules=WORDSMOG)
    game.set_rack(0, "ADNPUY?")
    with pytest.raises(IllegalMoveError, match="DNPUY is not an anagram of a word in TWL06"):
        game.play("8H DNPUY")
    board = game.position
    move = board.parse_move("8H DNAPY")  # PANDY jumbled
    assert game.play(move).score == board.score(move) > 0
    classic = Game(twl06, ["Ann", "Ben"], seed=3, rules=Rules(challenge="void"))
    classic.set_rack(0, "ADNPUY?")
    with pytest.raises(IllegalMoveError, match="DNAPY is not in TWL06"):
        classic.play("8H DNAPY")
    assert game.problems() == []


def test_a_cgp_with_var_wordsmog_lists_wordsmogs_moves(twl06: Lexicon) -> None:
    board = Board(f"{EMPTY} ADNPUY?/ 0/0 0 var WordSmog;")
    assert board.rules.variant == "wordsmog"
    jumbled = board.moves(twl06)
    classic = board.moves(twl06, variant="classic")
    assert jumbled.count > classic.count
    assert {m.notation(board.alphabet) for m in classic.placements()} < \
        {m.notation(board.alphabet) for m in jumbled.placements()}
    assert Board(board.cgp()).rules.variant == "wordsmog"


def test_whole_games_by_the_static_players_keep_the_rules(twl06: Lexicon) -> None:
    players = [make_player("h3", twl06), make_player("greedy", twl06)]
    jumbled = 0
    for seed in (1, 2):
        game, _ = play_game(twl06, players, seed=seed, rules=WORDSMOG)  # checked inside
        assert game.over and game.problems() == []
        for board, move in _positions(game):
            for word in formed_words(board.grid, move.placed_squares(), move.placed):
                assert twl06.has_anagram(word)
                jumbled += game.alphabet.format(word) not in twl06
    assert jumbled > 0  # the games used the variant, not only classic words


def _positions(game: Game) -> list[tuple[Board, Move]]:
    """Each play with the position before it, replayed from the record."""
    replayed = replay(record_of(game))
    return [(board, step.move) for step, board in zip(replayed.steps, replayed.positions)
            if step.kind == "play" and step.move is not None]


def test_autoplay_plays_wordsmog_games(capsys: pytest.CaptureFixture[str], twl06: Lexicon,
                                       tmp_path) -> None:
    result = tournament("TWL06", ["h2", "greedy"], 2, seed=5, jobs=1,
                        rules=Rules(variant="wordsmog"))
    assert result.games == 2
    code = main(["autoplay", "--players", "h1,greedy", "--games", "2", "--jobs", "1",
                 "--variant", "wordsmog", "--gcg-dir", str(tmp_path), "--json"])
    out, _ = capsys.readouterr()
    assert code == 0 and json.loads(out)["games"] == 2
    records = sorted(tmp_path.glob("*.gcg"))
    assert records and all("#note Variant: wordsmog" in p.read_text() for p in records)
    assert main(["autoplay", "--variant", "jumble", "--games", "2"]) == 2


def test_a_wordsmog_record_reads_back_as_wordsmog(twl06: Lexicon) -> None:
    game, _ = play_game(twl06, [make_player("greedy", twl06)] * 2, seed=4, rules=WORDSMOG)
    text = write_gcg(record_of(game))
    assert "#note Variant: wordsmog" in text
    record = read_gcg(text, source="w.gcg")
    assert record_rules(record).variant == "wordsmog"
    again = game_of(record, twl06)
    assert again.rules.variant == "wordsmog" and again.scores == game.scores
    assert again.problems() == []
    bad = read_gcg(text.replace("Variant: wordsmog", "Variant: jumbled"), source="w.gcg")
    with pytest.raises(RacketyError) as err:
        game_of(bad, twl06)
    assert "\n" not in str(err.value) and str(err.value).startswith("w.gcg:")
