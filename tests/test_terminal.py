"""Playing in the terminal, driven by a script of lines."""

from __future__ import annotations

from rackety import Lexicon
from rackety.frontends.terminal import TerminalGame
from rackety.game.gcg import read_gcg
from rackety.players import make_player


def _run(twl06: Lexicon, lines: list[str], **kw) -> tuple[TerminalGame, str]:
    script = iter(lines)
    out: list[str] = []

    def read(prompt: str) -> str:
        try:
            return next(script)
        except StopIteration:
            raise EOFError from None

    session = TerminalGame(twl06, [make_player("greedy", twl06)], seed=94, read_line=read,
                           write=lambda x: out.append(str(x)), **kw)
    session.run()
    return session, "\n".join(out)


def test_a_session(tmp_path, twl06: Lexicon) -> None:
    saved = tmp_path / "game.gcg"
    session, text = _run(twl06, ["hint", "8H ZZZ", "8H TOLA", "undo", "8H TOLA",
                                 f"save {saved}", "quit"])
    assert "not done: tiles ZZZ are not on the rack" in text
    assert "you play 8H TOLA for 8" in text
    assert "greedy plays" in text  # the computer answered
    record = read_gcg(saved)
    assert [e.kind for e in record.events][:2] == ["play", "play"]
    assert session.game.problems() == []


def test_phonies_are_challenged_by_the_computer(twl06: Lexicon) -> None:
    session, text = _run(twl06, ["8H TAIO", "quit"])
    assert "greedy challenges" in text and "TAIO is not in TWL06" in text
    assert session.game.scores[0] == 0


def test_load_a_saved_game(tmp_path, twl06: Lexicon) -> None:
    saved = tmp_path / "g.gcg"
    first, _ = _run(twl06, ["8H TOLA", f"save {saved}", "quit"])
    second, text = _run(twl06, [f"load {saved}", "quit"])
    assert f"loaded {saved}" in text
    assert (second.game.position.grid == first.game.position.grid).all()
