"""Playing in the terminal, driven by a script of lines."""

from __future__ import annotations

import itertools
import re

from rich.text import Text
from static_reference import static_equity

from rackety import Lexicon
from rackety.frontends.terminal import PROMPT, TerminalGame
from rackety.game.gcg import game_of, read_gcg, record_of, replay
from rackety.game.heuristics import leave_label, leave_model
from rackety.game.move import format_leave
from rackety.players import make_player

HINT_ROW = re.compile(r"^  (\S+ \S+) +(\d+)  (\S+) +(-?\d+\.\d)$")


def _run(twl06: Lexicon, lines: list[str], opponent: str = "greedy",
         **kw) -> tuple[TerminalGame, str, list]:
    script = iter(lines)
    out: list = []

    def read(prompt: str) -> str:
        out.append(prompt)
        try:
            return next(script)
        except StopIteration:
            raise EOFError from None

    session = TerminalGame(twl06, [make_player(opponent, twl06)], seed=94, read_line=read,
                           write=out.append, **kw)
    session.run()
    return session, "\n".join(str(x) for x in out), out


def _screens(out: list) -> list[str]:
    """Each screen as the person sees it: what was drawn, then the prompt."""
    return [f"{x}\n{PROMPT}" for x, nxt in itertools.pairwise(out)
            if isinstance(x, Text) and nxt == PROMPT]


def test_a_session(tmp_path, twl06: Lexicon) -> None:
    saved = tmp_path / "game.gcg"
    session, text, _ = _run(twl06, ["hint", "8H ZZZ", "8H TOLA", "undo", "8H TOLA",
                                    f"save {saved}", "quit"])
    assert "not done: tiles ZZZ are not on the rack" in text
    assert "you play 8H TOLA for 8" in text
    assert "greedy plays" in text  # the computer answered
    record = read_gcg(saved)
    assert [e.kind for e in record.events][:2] == ["play", "play"]
    assert session.game.problems() == []


def test_each_screen_fits_80x24_with_the_last_messages_under_the_board(twl06: Lexicon) -> None:
    _, _, out = _run(twl06, ["hint", "8H ZZZ", "8H TOLA", "help", "quit"])
    screens = _screens(out)
    assert len(screens) == 5
    for screen in screens:
        lines = screen.split("\n")
        assert len(lines) <= 24, screen
        assert max(len(line) for line in lines) <= 80, screen
        assert lines[0].split()[:15] == [chr(65 + c) for c in range(15)]  # the board first
        assert [line[:2] for line in lines[1:16]] == [f"{r:>2}" for r in range(1, 16)]
        assert "(unknown)" not in screen and "to move:" not in screen
        assert "you" in lines[1] and "greedy (computer)" in lines[2]  # names, not "player 2"
    # what the command said is under the board of the next screen, before the prompt
    tail = screens[2].split("\n")[16:]
    assert any("not done: tiles ZZZ are not on the rack" in line for line in tail)
    tail = screens[3].split("\n")[16:]
    assert tail[0] == "you play 8H TOLA for 8" and tail[1].startswith("greedy plays ")
    assert any(re.search(r"  you +8H TOLA +8 *$", line) for line in screens[3].split("\n"))
    assert screens[4].split("\n")[16].startswith("play: 8D WORD")


def test_the_rack_is_shown_once(twl06: Lexicon) -> None:
    session, _, out = _run(twl06, ["8H TOLA", "quit"])
    screen = _screens(out)[-1]
    rack = sorted(session.game.alphabet.format([c]) for c in session.game.racks[0])
    assert screen.count("your rack") == 1
    tiles = [line for line in screen.split("\n") if re.search(r"(?: [A-Z?] ){7}$", line)]
    assert len(tiles) == 1
    assert tiles[0].split()[-7:] == rack
    assert "".join(rack) not in screen  # not again, as one word


def test_hint_is_a_table_of_distinct_words_by_equity(twl06: Lexicon) -> None:
    session, _, out = _run(twl06, ["hint", "quit"])
    game = session.game
    screen = _screens(out)[-1].split("\n")
    model = leave_model("static", twl06)
    label = leave_label(model, twl06)
    title = next(i for i, line in enumerate(screen) if line.startswith("best moves"))
    assert label in screen[title] and "equity" in screen[title]
    assert screen[title + 1].split() == ["move", "score", "leave", "equity"]
    rows = [HINT_ROW.match(line) for line in screen[title + 2:-1]]
    assert len(rows) == 5 and all(rows), screen
    view = game.view(0)
    words, equities = [], []
    for row in rows:
        move = view.parse_move(row[1])
        assert int(row[2]) == view.score(move)  # the score the rules give
        leave = "" if row[3] == "-" else row[3]
        assert sorted(leave + move.notation(game.alphabet, through="bare").split()[1]) == \
            sorted(format_leave(game.alphabet, game.racks[0]))
        kept = tuple(game.alphabet.rack(leave)) if leave else ()
        expected = static_equity(view, move, kept, lambda k: model.value(k) if k else 0.0)
        assert abs(float(row[4]) - expected) < 0.051
        words.append(move.notation(game.alphabet, through="bare").split()[1])
        equities.append(float(row[4]))
    assert len(set(words)) == len(words)  # not the same word in five places
    assert equities == sorted(equities, reverse=True)
    best = max(m.equity for m in view.moves(twl06, leave=model))
    assert abs(equities[0] - best) < 0.051


def _play(session: TerminalGame, line: str) -> None:
    """One command of the person, then the computer's turns."""
    session.command(line)
    while session.game.turn != session.human and not session.game.over:
        session.computer_turn()


def test_a_save_keeps_the_computers_rack_hidden(tmp_path, twl06: Lexicon) -> None:
    saved = tmp_path / "g.gcg"
    first, _, _ = _run(twl06, ["8H TOLA", "quit"], opponent="static")
    _play(first, f"exchange {first.game.alphabet.format(first.game.racks[0][:2])}")
    _play(first, "pass")
    _play(first, f"save {saved}")
    assert f"saved {saved}" in first.messages
    text = saved.read_text()
    assert "#rack1 " in text and "#rack2" not in text
    record = read_gcg(saved)
    mine = [e for e in record.events if e.nickname == "you"]
    theirs = [e for e in record.events if e.nickname != "you"]
    assert mine and all(e.rack for e in mine)
    assert theirs and not any(e.rack for e in theirs)
    assert record.racks == {0: format_leave(first.game.alphabet, first.game.racks[0])}
    assert replay(record).discrepancies == []
    # the whole record still has every rack
    full = record_of(first.game)
    assert set(full.racks) == {0, 1} and all(e.rack for e in full.events)
    # and it loads: your rack as it was, the computer's from the tiles you have not seen
    game = game_of(record, twl06)
    assert sorted(game.racks[0]) == sorted(first.game.racks[0])
    assert game.scores == first.game.scores and game.turn == 0
    assert sorted(game.racks[1] + game.bag) == sorted(first.game.racks[1] + first.game.bag)


def test_hidden_exchanges_are_written_as_a_count(tmp_path, twl06: Lexicon) -> None:
    session, _, _ = _run(twl06, ["8H TOLA", "quit"], opponent="static")
    game = session.game
    game.play("pass")
    game.play(f"exch {game.alphabet.format(game.racks[1][:3])}")  # the computer's turn
    events = record_of(game, seen_by=0).events
    assert events[-1].move == "-3" and events[-1].rack == ""
    assert record_of(game).events[-1].move.startswith("-") and record_of(game).events[-1].rack
    assert replay(record_of(game, seen_by=0)).discrepancies == []


def test_phonies_are_challenged_by_the_computer(twl06: Lexicon) -> None:
    session, text, _ = _run(twl06, ["8H TAIO", "quit"])
    assert "greedy challenges" in text and "TAIO is not in TWL06" in text
    assert session.game.scores[0] == 0


def test_load_a_saved_game(tmp_path, twl06: Lexicon) -> None:
    saved = tmp_path / "g.gcg"
    first, _, _ = _run(twl06, ["8H TOLA", f"save {saved}", "quit"])
    second, text, _ = _run(twl06, [f"load {saved}", "quit"])
    assert f"loaded {saved}" in text
    assert (second.game.position.grid == first.game.position.grid).all()
    assert sorted(second.game.racks[0]) == sorted(first.game.racks[0])
