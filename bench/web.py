"""Web app benchmark: what the HTTP layer costs over the engine, in process
(FastAPI's test client, no network), on one core.

- ``POST /api/analyze`` (top 10 by H3 equity) on the mid-game positions of
  `bench/data`, against the same `generate` call made directly: the ratio is
  the price of validation, JSON and the route;
- a game turn against greedy (``POST /api/games/{id}/play``: the person's
  placement checked, stored, greedy's reply, the new state) and the store's
  share of it;
- ``POST /api/gcg/analyze`` on a game record, per turn.

    python bench/web.py [--positions 100] [--turns 40]
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).parent


def _ms(samples: list[float]) -> str:
    return f"{statistics.median(samples) * 1000:7.2f} ms median, " \
           f"{sorted(samples)[int(len(samples) * 0.9)] * 1000:7.2f} ms p90"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--positions", type=int, default=100)
    parser.add_argument("--turns", type=int, default=40)
    args = parser.parse_args()

    import warnings

    warnings.filterwarnings("ignore", "Using `httpx` with `starlette.testclient`")
    from fastapi.testclient import TestClient

    from rackety import Board, Lexicon
    from rackety.frontends.web.app import create_app
    from rackety.game.movegen import generate
    from rackety.players import leave_model

    lexicon = Lexicon.load("TWL06")
    h3 = leave_model("h3", lexicon)
    cgps = [line.strip() for line in (HERE / "data" / "midgame400_twl06.cgp").read_text()
            .splitlines() if line.strip()][: args.positions]
    folder = Path(tempfile.mkdtemp(prefix="rackety-bench-web-"))
    with TestClient(create_app(folder / "bench.sqlite", warm=False)) as client:
        for cgp in cgps[:3]:  # warm up: kernels, lexicon
            client.post("/api/analyze", json={"cgp": cgp})
            generate(Board.from_cgp(cgp), lexicon, leave=h3)

        direct, http = [], []
        for cgp in cgps:
            t0 = time.perf_counter()
            board = Board.from_cgp(cgp)
            moves = generate(board, lexicon, leave=h3)
            [board.notation(m) for m in moves[:10]]
            direct.append(time.perf_counter() - t0)
            t0 = time.perf_counter()
            response = client.post("/api/analyze", json={"cgp": cgp, "top": 10})
            http.append(time.perf_counter() - t0)
            assert response.status_code == 200
        print(f"analyze, {len(cgps)} mid-game positions (all moves, top 10 by H3 equity)")
        print(f"  direct generate + notation : {_ms(direct)}")
        print(f"  POST /api/analyze          : {_ms(http)}")
        ratio = statistics.median(http) / statistics.median(direct)
        print(f"  ratio (median)             : {ratio:.2f}x")

        turns, hints = [], []
        played = 0
        while played < args.turns:
            state = client.post("/api/games", json={"opponents": [{"level": "greedy"}],
                                                    "seed": played}).json()
            while state["status"] == "playing" and played < args.turns:
                t0 = time.perf_counter()
                hint = client.get(f"/api/games/{state['id']}/hint",
                                  params={"top": 1}).json()["moves"]
                hints.append(time.perf_counter() - t0)
                if not hint or hint[0]["kind"] != "place":
                    break
                tiles = [{k: t[k] for k in ("row", "col", "letter", "blank")}
                         for t in hint[0]["tiles"]]
                t0 = time.perf_counter()
                state = client.post(f"/api/games/{state['id']}/play",
                                    json={"tiles": tiles}).json()
                turns.append(time.perf_counter() - t0)
                played += 1
        print(f"game turns against greedy, {len(turns)} turns")
        print(f"  GET  hint (top 1)          : {_ms(hints)}")
        print(f"  POST play (+ greedy reply) : {_ms(turns)}")

        record = (HERE.parent / "tests" / "data" / "gcg" / "double_challenge.gcg").read_text()
        t0 = time.perf_counter()
        body = client.post("/api/gcg/analyze", json={"gcg": record}).json()
        spent = time.perf_counter() - t0
        print(f"gcg analysis: {len(body['turns'])} turns in {spent * 1000:.0f} ms "
              f"({spent / len(body['turns']) * 1000:.1f} ms a turn)")


if __name__ == "__main__":
    main()
