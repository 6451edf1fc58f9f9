"""The endgame solver (`rackety.search.endgame`) against the oracle's endgames (values
from an independent engine, tests/data), against a plain minimax on tiny
positions (tests/endgame_reference.py), under time limits; `rackety endgame`;
the ``+endgame`` players."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from endgame_reference import (
    TINY7,
    face,
    line_value,
    minimax,
    tiny_alphabet,
    tiny_endgames,
    tiny_lexicon,
    with_empty_bag,
)
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from rackety import Board, Move, RacketyError
from rackety.frontends.cli import main
from rackety.game.gcg import read_gcg
from rackety.game.rules import Rules
from rackety.players import EndgamePlayer, GreedyPlayer, make_player
from rackety.search import endgame as eg
from rackety.search.endgame import solve

DATA = Path(__file__).parent / "data"
# The four hardest public endgames (168-277 s for the reference engine, 15-45 s
# here) are left to bench/search.py; every other one is solved here.
REFERENCE_LIMIT = 40.0


def _cases(name: str) -> list[dict]:
    with open(DATA / name, encoding="utf-8") as f:
        return [json.loads(line) for line in f if line.strip()]


SMALL = _cases("endgame_twl06_small.jsonl")
PUBLIC = _cases("endgame_twl06_public.jsonl")
BY_ID = {c["id"]: c for c in SMALL + PUBLIC}


def first_move_value(board: Board, lexicon, move: Move) -> int:
    """What ``move`` is worth against best play afterwards (solved again)."""
    mine, theirs = board.racks
    if move.kind == "place" and move.n_placed == len(mine):
        return move.score + 2 * face(board, theirs)
    if move.kind == "pass" and board.zero_turns > 0:
        return face(board, theirs) - face(board, mine)
    after = solve(board.play(move), lexicon)
    assert after.exact
    return move.score - after.value


# ------------------------------------------------------------------ the oracle
@pytest.mark.parametrize("case", SMALL + [c for c in PUBLIC
                                          if c["search_cpu_s"] < REFERENCE_LIMIT],
                         ids=lambda c: c["id"])
def test_oracle_endgames(case, twl06):
    board = Board.from_cgp(case["cgp"])
    result = solve(board, twl06)
    assert result.exact
    assert result.value == case["value"]
    first = result.pv[0]
    if case.get("optimal_first_moves_complete"):
        assert f"{board.notation(first)} {first.score}" in case["optimal_first_moves"]
    # the first move reaches the value against best defence, and the whole line
    # is legal, ends the game and adds up to it
    assert first_move_value(board, twl06, first) == case["value"]
    assert line_value(board, twl06, result.pv) == case["value"]


def test_oracle_files_are_the_shared_ones():
    shared = Path(__file__).resolve().parents[2] / "shared" / "oracle"
    for name in ("endgame_twl06_small.jsonl", "endgame_twl06_public.jsonl"):
        if (shared / name).exists():
            assert (shared / name).read_bytes() == (DATA / name).read_bytes()
    assert len(SMALL) == 20 and len(PUBLIC) == 29


# ------------------------------------------------------- against plain minimax
@pytest.fixture(scope="module")
def tiny():
    return tiny_lexicon()


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_matches_plain_minimax(tiny, data):
    board = data.draw(tiny_endgames(tiny))
    position = with_empty_bag(board)
    result = solve(position, tiny)
    assert result.exact
    assert result.value == minimax(position, tiny)
    assert line_value(position, tiny, result.pv) == result.value
    event(f"principal variation of {min(len(result.pv), 4)}{'+' * (len(result.pv) >= 4)} moves")
    event("a pass in it" if any(m.kind == "pass" for m in result.pv) else "no pass in it")
    # a table of 1,024 entries (every slot fought over) changes nothing
    assert solve(position, tiny, tt_bits=10).value == result.value


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data(), limit=st.sampled_from([1, 2, 3]),
       playout=st.sampled_from(["twice", "subtract"]))
def test_the_solver_plays_by_the_positions_rules(tiny, data, limit, playout):
    """Another scoreless limit or play-out rule (a CGP's ``mcnz``, `Board.rules`)
    reaches the solver as it reaches the plain minimax, which values the end of
    the game by `Rules.ending` and `Rules.end_points`."""
    board = data.draw(tiny_endgames(tiny))
    board.rules = Rules(max_scoreless=limit, playout=playout)
    position = with_empty_bag(board)
    assert position.rules.max_scoreless == limit
    position.rules = Rules(max_scoreless=limit, playout=playout)
    result = solve(position, tiny)
    assert result.exact
    assert result.value == minimax(position, tiny)
    assert line_value(position, tiny, result.pv) == result.value
    if limit == 1:  # a pass ends the game at once
        assert all(m.kind != "pass" for m in result.pv[:-1])


def test_two_passes_end_the_game(tiny):
    # nothing fits (no word has an N next to S, A or T here): a pass, then the
    # opponent's pass ends the game and each side loses its own rack
    big = tiny_alphabet()
    board = Board(alphabet=big, layout=TINY7)
    board.racks = [tuple(big.tokenize("SAT")), ()]
    board = board.play(board.parse_move("4C SAT"))
    board.racks = [tuple(big.tokenize("N")), tuple(big.tokenize("S"))]
    position = with_empty_bag(board)
    assert not position.moves(tiny, exchanges=False).placements()
    result = solve(position, tiny)
    assert (result.value, [m.kind for m in result.pv], result.exact) == (3 - 2, ["pass", "pass"],
                                                                        True)
    position.zero_turns = 1  # the opponent just passed: passing ends the game now
    result = solve(position, tiny)
    assert (result.value, [m.kind for m in result.pv]) == (3 - 2, ["pass"])
    assert minimax(position, tiny) == 1


# ----------------------------------------------------------------- time limits
def test_time_limit_gives_a_legal_move_of_a_shallower_search(twl06):
    case = BY_ID["L1232"]  # 7 tiles each: 277 s for the reference engine
    board = Board.from_cgp(case["cgp"])
    result = solve(board, twl06, seconds=0.01)
    assert not result.exact and 1 <= result.depth < 28
    assert result.pv and result.pv[0] in board.moves(twl06, exchanges=False).placements()
    assert result.seconds < 10
    shallow = solve(board, twl06, max_depth=2)
    assert (shallow.depth, shallow.exact, len(shallow.pv)) == (2, False, 2)
    assert shallow.pv[0] in board.moves(twl06, exchanges=False).placements()


def test_time_limit_long_enough_is_exact(twl06):
    case = BY_ID["L1207"]
    result = solve(Board.from_cgp(case["cgp"]), twl06, seconds=30)
    assert result.exact and result.value == case["value"]


def test_arena_grows_and_results_repeat(twl06, monkeypatch):
    case = BY_ID["L1497"]  # a blank: hundreds of moves a node
    board = Board.from_cgp(case["cgp"])
    first = solve(board, twl06)
    monkeypatch.setattr(eg, "_ARENA_ROWS", 16)
    again = solve(board, twl06)
    assert again.value == first.value == case["value"]
    assert [board.notation(m) for m in again.pv] == [board.notation(m) for m in first.pv]


def test_refuses_what_it_cannot_solve(twl06):
    cgp = BY_ID["L1497"]["cgp"]  # racks IORV?/EU
    with pytest.raises(RacketyError, match="1 tiles are still in the bag"):
        solve(Board.from_cgp(cgp.replace("IORV?/EU", "IORV?/E")), twl06)
    with pytest.raises(RacketyError, match="opponent's rack is unknown"):
        solve(Board.from_cgp(cgp.replace("IORV?/EU", "IORV?/")), twl06)
    with pytest.raises(RacketyError, match="3 players"):
        solve(Board.from_cgp(cgp.replace("IORV?/EU 425/358", "IORV?/E/U 0/0/0")), twl06)
    tiny_board = Board(alphabet=tiny_alphabet(), layout=TINY7)
    tiny_board.racks = [(1,), (2,)]
    with pytest.raises(RacketyError, match="alphabet"):
        solve(with_empty_bag(tiny_board), twl06)
    with pytest.raises(RacketyError, match="tt_bits"):
        solve(Board.from_cgp(cgp), twl06, tt_bits=40)


# ------------------------------------------------------------------- the command
def run(capsys, *args):
    code = main(list(args))
    out, err = capsys.readouterr()
    return code, out, err


def test_command_json(capsys, twl06):
    case = BY_ID["S7308"]  # the best is to pass
    code, out, err = run(capsys, "endgame", "--lexicon", "TWL06", "--cgp", case["cgp"], "--json")
    assert code == 0, err
    assert out.count("\n") == 1
    result = json.loads(out)
    assert isinstance(result.pop("nodes"), int) and isinstance(result.pop("seconds"), float)
    pv = result.pop("pv")  # the moves' shape (`shapes.PvMoveShape`), each with its squares
    assert [(m["move"], m["side"]) for m in pv] == [("pass", "to move"),
                                                    ("2N (A)I", "opponent")]
    assert result.pop("best") == pv[0]
    board = Board.from_cgp(case["cgp"])
    assert result == {"value": -24, "depth": 2, "exact": True,
                      "final_spread": board.scores[0] - board.scores[1] - 24,
                      "opponent_rack": "I", "opponent_rack_from": "cgp"}
    case = BY_ID["L1497"]
    code, out, err = run(capsys, "endgame", "--cgp", case["cgp"], "--json", "--tt-bits", "16")
    result = json.loads(out)
    assert (code, result["value"], result["exact"], result["pv"][0]["move"]) == \
        (0, 24, True, "E13 V(A)R")
    board = Board.from_cgp(case["cgp"])
    assert line_value(board, twl06, _scored(board, result["pv"])) == 24


def _scored(board: Board, line: list[dict]) -> list[Move]:
    """The moves of a line (``rackety endgame --json``'s), each with its score
    where it is played."""
    out = []
    for shown in line:
        move = board.parse_move(shown["move"])
        move = Move(move.kind, move.row, move.col, move.down, move.tiles, move.through,
                    score=board.score(move), alphabet=board.alphabet)
        out.append(move)
        board = board.play(move)
    return out


def test_command_text(capsys, twl06):
    case = BY_ID["L1207"]
    code, out, err = run(capsys, "endgame", "--cgp", case["cgp"], "--seconds", "60")
    assert code == 0, err
    lines = out.splitlines()
    assert lines[0] == "value +17 for the player to move (exact)"
    assert lines[1].split() == ["1.", "G7", "R(O)W", "24", "to", "move"]
    assert "nodes/s" in lines[-1]


@pytest.mark.parametrize("args, message", [
    (["--cgp", BY_ID["L1497"]["cgp"].replace("IORV?/EU", "IORV?/E")], "still in the bag"),
    (["--cgp", BY_ID["L1497"]["cgp"].replace("IORV?/EU", "/EU")], "move's rack is unknown"),
    (["--cgp", "15/15 A/B 0/0 0"], "rows"),
    (["--cgp", BY_ID["L1497"]["cgp"], "--seconds", "0"], "seconds"),
])
def test_command_errors(capsys, twl06, args, message):
    code, out, err = run(capsys, "endgame", *args)
    assert code == 2 and out == ""
    assert err.count("\n") == 1 and err.startswith("rackety") and message in err


@pytest.mark.parametrize("case_id", ["S7308", "L1497", "L1207"])
def test_command_takes_an_unknown_opponent_rack_from_the_unseen_tiles(capsys, twl06, case_id):
    """The bag empty, the opponent's rack left out of the CGP: it is the unseen
    tiles, and the command solves the position as with the rack given."""
    case = BY_ID[case_id]
    known = case["cgp"]
    board = Board.from_cgp(known)
    rack = board.alphabet.format(board.racks[0], brackets=True)
    unknown = known.replace(f" {rack}/{case['opp_rack']} ", f" {rack}/ ")
    assert unknown != known and not Board.from_cgp(unknown).racks[1]
    answers = []
    for cgp in (known, unknown):
        code, out, err = run(capsys, "endgame", "--cgp", cgp, "--json", "--tt-bits", "16")
        assert code == 0, err
        answers.append(json.loads(out))
    given, filled = answers
    assert given.pop("opponent_rack_from") == "cgp" and filled.pop("opponent_rack_from") == \
        "unseen"
    assert sorted(filled["opponent_rack"]) == sorted(case["opp_rack"])
    assert filled["value"] == given["value"] == case["value"]
    assert {k: v for k, v in filled.items() if k not in ("nodes", "seconds")} == \
        {k: v for k, v in given.items() if k not in ("nodes", "seconds")}
    code, out, err = run(capsys, "endgame", "--cgp", unknown, "--tt-bits", "16")
    assert code == 0, err
    lines = out.splitlines()
    assert lines[0].startswith(f"value {case['value']:+d} for the player to move")
    assert lines[1] == (f"the opponent's rack: {given['opponent_rack']}, the unseen tiles "
                        "(the bag is empty)")


NOAH_VS_MISHU = Path(__file__).resolve().parents[2] / "shared" / "corpus" / "gcg" / \
    "macondo_gcgio_noah_vs_mishu.gcg"


@pytest.mark.parametrize("turn", [30, 31])
def test_a_record_s_position_solved_from_gcg_show(capsys, twl06, turn):
    """`rackety endgame --cgp "$(rackety gcg show FILE --turn N --cgp)"`: the record's
    position leaves the opponent's rack unknown, the bag empty; solved as with
    the rack the opponent held (the record's next event says it)."""
    if not NOAH_VS_MISHU.is_file():
        pytest.skip(f"no GCG corpus at {NOAH_VS_MISHU.parent}")
    code, out, err = run(capsys, "gcg", "show", str(NOAH_VS_MISHU), "--turn", str(turn),
                         "--cgp")
    assert code == 0, err
    cgp = out.strip()
    board = Board.from_cgp(cgp)
    assert board.rack and not board.racks[1] and board.bag_count == 0
    held = read_gcg(NOAH_VS_MISHU).events[turn].rack  # the opponent's, at its next turn
    rack = board.alphabet.format(board.racks[0], brackets=True)
    answers = []
    for text in (cgp, cgp.replace(f" {rack}/ ", f" {rack}/{held} ")):
        code, out, err = run(capsys, "endgame", "--cgp", text, "--json", "--tt-bits", "18")
        assert code == 0, err
        answers.append(json.loads(out))
    filled, given = answers
    assert (filled["opponent_rack_from"], given["opponent_rack_from"]) == ("unseen", "cgp")
    assert sorted(filled["opponent_rack"]) == sorted(held)
    assert filled["exact"] and filled["value"] == given["value"]
    both = board.copy(racks=[board.racks[0], tuple(board.alphabet.tokenize(held))])
    assert line_value(both, twl06, _scored(board, filled["pv"])) == filled["value"]


def test_a_record_s_position_with_tiles_in_the_bag_is_refused(capsys):
    """Turn 27 of the record: 3 tiles in the bag, the opponent's rack unknown:
    refused in one line (rackety preendgame's position)."""
    if not NOAH_VS_MISHU.is_file():
        pytest.skip(f"no GCG corpus at {NOAH_VS_MISHU.parent}")
    code, out, _ = run(capsys, "gcg", "show", str(NOAH_VS_MISHU), "--turn", "27", "--cgp")
    code, out, err = run(capsys, "endgame", "--cgp", out.strip())
    assert code == 2 and out == "" and err.count("\n") == 1
    assert "the opponent's rack is unknown and 3 tiles are in the bag" in err


# --------------------------------------------------------------------- players
def test_endgame_player_solves_with_the_bag_empty(twl06):
    player = make_player("greedy+endgame", twl06)
    assert isinstance(player, EndgamePlayer) and player.name == "greedy+endgame"
    for case_id in ("L86", "S2653", "L1206"):
        case = BY_ID[case_id]
        board = Board.from_cgp(case["cgp"])
        view = board.copy()
        view.racks = [board.racks[0], ()]  # as in a game: the opponent's rack hidden
        decision = player.decide(view, twl06)
        move = decision.move
        assert decision.endgame is not None and decision.endgame.exact
        assert first_move_value(board, twl06, move) == case["value"]
    # the greedy move loses here; the solver's does not
    case = BY_ID["S2653"]
    board = Board.from_cgp(case["cgp"])
    greedy = GreedyPlayer().choose(board, twl06)
    assert first_move_value(board, twl06, greedy) < case["value"]


def test_endgame_player_defers_before_the_endgame(twl06):
    board = Board.from_cgp(BY_ID["L1497"]["cgp"].replace("IORV?/EU", "IORV?/E"))  # 1 in bag
    inner = make_player("h3", twl06)
    player = EndgamePlayer(inner, seconds=None)
    decision = player.decide(board, twl06)
    assert decision == inner.decide(board, twl06) and decision.endgame is None
    with pytest.raises(RacketyError, match="computer player"):
        make_player("human+endgame", twl06)
    with pytest.raises(RacketyError, match="unknown player"):
        make_player("maven+endgame", twl06)


def test_endgame_player_plays_whole_games(twl06):
    from rackety.experiments.autoplay import play_game

    class Recording(EndgamePlayer):
        def __init__(self, inner):
            super().__init__(inner)
            self.decisions = []

        def decide(self, board, lexicon):
            self.decisions.append(super().decide(board, lexicon))
            return self.decisions[-1]

    players = [Recording(make_player("greedy", twl06)), make_player("greedy", twl06)]
    for seed in (3, 4):
        game, _ = play_game(twl06, players, seed=seed)  # checked by the referee
        assert game.over
    solved = [d for d in players[0].decisions if d.endgame is not None]
    assert solved and all(d.move == d.endgame.pv[0] for d in solved if d.endgame.pv)
