"""Where two leave tables choose differently, which choice is better: the
rollout pilot of docs/TRAINING.md, reproducible.

    python bench/leave_disagreements.py collect A.klv2 B.klv2 --games 20000 --seed 11 \\
        --rollouts 32 -o d11.jsonl
    python bench/leave_disagreements.py fit A.klv2 d11.jsonl d12.jsonl [--pairs] \\
        [--write OUT.klv2 --scale 1.0]

``collect`` plays games of A's static player against B's (A first in the even
games, B in the odd), computes at every turn with tiles in the bag the static
choice of both tables, and where they differ plays each of the two moves out
to the end of the game ``--rollouts`` times from the same draws, A's static
player on both sides (`rackety.search.simulation.simulate` with ``drop=False``).
With ``--close GAP`` instead of B, A plays itself and the pairs are A's
best choice and the best of its 12 best moves that keeps other tiles, where
the two are within GAP points: every close call, not only those another
table decides otherwise. One JSON line per pair: the two moves, their
scores and kept tiles, and the mean and standard error of A's choice less
the other, in points (``d``) and in wins (``w``). Run one process per seed
to use every core.

``fit`` summarises those lines: the mean verdict, the verdict by A's own
equity lead (a calibrated table leads by what the rollouts find), with
``--versus B`` the verdict where the two tables value a kept leave most
differently, the
spread of the true differences once the rollouts' noise is removed (and
what a player always taking the better of the two would gain, if they are
normal), and a ridge fit, cross-validated over ten folds, of the verdict
less A's own equity difference on the difference between the two leaves'
terms (a term per tile, the leave's size, duplicated letters, the
vowel-consonant imbalance and, with ``--pairs``, every pair of tiles): how
much of the disagreement the kept tiles explain, out of fold. ``--write``
saves A's table plus the fitted correction (at ``--lambda``, or the penalty
best out of fold) times ``--scale``, to be played against B with ``rackety
autoplay``.
"""

from __future__ import annotations

import argparse
import itertools
import json
import math
import sys
import time
from pathlib import Path
from typing import Any

import numpy as np

LAMBDAS = (10.0, 100.0, 300.0, 1000.0, 10000.0)


def kept(move: Any, rack: tuple[int, ...]) -> tuple[int, ...]:
    """The tiles ``move`` keeps (the generator sets them; a pass keeps the rack)."""
    return move.leave_codes if move.leave_codes is not None else tuple(rack)


def second_choice(board: Any, lexicon: Any, table: Any, first: Any, gap: float) -> Any:
    """The best placement or exchange after ``first`` among ``table``'s 12
    best that keeps other tiles, if it is within ``gap`` points; else None."""
    from rackety.game.movegen import generate

    for move in generate(board, lexicon, mode="top", top=12, leave=table):
        if move.kind == "pass" or move == first:
            continue
        if sorted(kept(move, board.rack)) == sorted(kept(first, board.rack)):
            continue
        return move if first.equity - move.equity <= gap else None
    return None


def collect(a: str, b: str | None, close: float | None, lexicon_name: str, games: int,
            seed: int, rollouts: int, out: Path) -> int:
    """Append the disagreements of ``games`` games to ``out`` (with ``close``
    instead of ``b``: A's two best choices within ``close`` points that keep
    different tiles, in A's self-play); returns how many."""
    from rackety import Game, Lexicon
    from rackety.game.heuristics import leave_model
    from rackety.players.static import static_choice
    from rackety.search.simulation import simulate

    lexicon = Lexicon.load(lexicon_name)
    alphabet = lexicon.alphabet
    table_a = leave_model(f"leaves:{a}", lexicon)
    table_b = leave_model(f"leaves:{b}", lexicon) if b is not None else table_a
    found = 0
    t0 = time.monotonic()
    with out.open("a") as f:
        for index in range(games):
            game = Game(lexicon, seed=seed * 1_000_003 + index)
            tables = (table_a, table_b) if index % 2 == 0 else (table_b, table_a)
            while not game.over:
                seat = game.turn
                board = game.view(seat)
                move_a = static_choice(board, lexicon, table_a)
                if close is None:
                    move_b = static_choice(board, lexicon, table_b)
                elif len(game.bag) > 0:
                    move_b = second_choice(board, lexicon, table_a, move_a, close)
                else:
                    move_b = None
                if len(game.bag) > 0 and move_b is not None and move_a != move_b:
                    result = simulate(board, lexicon, leave=f"leaves:{a}",
                                      moves=[move_a, move_b], plies=200, iterations=rollouts,
                                      drop=False, seed=seed * 7919 + found)
                    ca = next(c for c in result.candidates if c.move == move_a)
                    cb = next(c for c in result.candidates if c.move == move_b)
                    d = np.asarray(ca.values) - np.asarray(cb.values)
                    w = np.asarray(ca.wins) - np.asarray(cb.wins)
                    root = math.sqrt(len(d))
                    f.write(json.dumps({
                        "bag": len(game.bag), "rack": list(board.rack),
                        "a": move_a.notation(alphabet), "b": move_b.notation(alphabet),
                        "sa": move_a.score, "sb": move_b.score,
                        "la": sorted(kept(move_a, board.rack)),
                        "lb": sorted(kept(move_b, board.rack)),
                        "ea": move_a.equity, "eb": move_b.equity,
                        "d": float(d.mean()), "dse": float(d.std(ddof=1) / root),
                        "w": float(w.mean()), "wse": float(w.std(ddof=1) / root)}) + "\n")
                    f.flush()
                    found += 1
                game.play(move_a if tables[seat] is table_a or move_b is None else move_b,
                          check=False)
            if index % 10 == 9 or index == games - 1:
                print(f"\rcollect: rolling out disagreements, game {index + 1:,} of {games:,}, "
                      f"{found:,} so far, {time.monotonic() - t0:.0f} s", end="",
                      file=sys.stderr, flush=True)
    print(file=sys.stderr)
    return found


def features(leaves: list[list[int]], size: int, rack_size: int, vowels: np.ndarray,
             pairs: bool) -> np.ndarray:
    """The leaves' terms, a row each: tile counts, size (one-hot), duplicated
    letters, (vowels - consonants)^2, and with ``pairs`` every pair of codes."""
    n = len(leaves)
    counts = np.zeros((n, size))
    for i, leave in enumerate(leaves):
        for code in leave:
            counts[i, code] += 1
    length = counts.sum(1).astype(np.int64)
    sizes = np.zeros((n, rack_size))
    sizes[np.arange(n), length] = 1
    v = counts[:, vowels].sum(1)
    consonants = length - v - counts[:, 0]
    duplicates = (counts[:, 1:] * (counts[:, 1:] - 1) / 2).sum(1)
    parts = [counts, sizes, np.stack([duplicates, (v - consonants) ** 2], 1)]
    if pairs:
        iu = np.triu_indices(size)
        p = np.einsum("ni,nj->nij", counts, counts)
        diag = np.arange(size)
        p[:, diag, diag] = counts * (counts - 1) / 2
        parts.append(p[:, iu[0], iu[1]])
    return np.concatenate(parts, 1)


def ridge(x: np.ndarray, y: np.ndarray, lam: float, keep: np.ndarray) -> np.ndarray:
    """Ridge coefficients over the columns ``keep`` (the others stay 0)."""
    xk = x[:, keep]
    coef = np.zeros(x.shape[1])
    coef[keep] = np.linalg.solve(xk.T @ xk + lam * np.eye(xk.shape[1]), xk.T @ y)
    return coef


def read_records(path: Path, alphabet: Any) -> list[dict[str, Any]]:
    """The disagreements of a ``collect`` file; a bad line stops with its place.
    A kept leave is at most a rack less one tile, of the alphabet's codes."""
    fields = ("sa", "sb", "d", "dse", "w")
    out = []
    try:
        lines = path.read_text().splitlines()
    except (OSError, UnicodeDecodeError) as exc:
        raise SystemExit(f"{path}: cannot read ({exc.__class__.__name__})") from None
    for number, line in enumerate(lines, 1):
        if not line.strip():
            continue
        try:
            record = json.loads(line)
            ok = (isinstance(record, dict)
                  and all(type(record.get(k)) in (int, float) and math.isfinite(record[k])
                          for k in fields)
                  and all(isinstance(record.get(k), list)
                          and len(record[k]) < alphabet.rack_size
                          and all(type(c) is int and 0 <= c < alphabet.size
                                  for c in record[k])
                          for k in ("la", "lb")))
        except (ValueError, RecursionError):
            ok = False
        if not ok:
            raise SystemExit(f"{path}:{number}: not a disagreement written by collect")
        out.append(record)
    return out


def fit(a: str, files: list[Path], alphabet_name: str, pairs: bool, lam: float | None,
        write: Path | None, scale: float, versus: str | None = None) -> None:
    """Print the summary of the disagreements in ``files`` (module docstring)."""
    from rackety import Alphabet
    from rackety.lexicon.klv import Klv

    alphabet = Alphabet.load(alphabet_name)
    table = Klv.load(a, alphabet)
    recs = [record for path in files for record in read_records(path, alphabet)]
    if len(recs) < 20:
        raise SystemExit(f"fit: {len(recs)} disagreements; 20 or more are needed")
    n = len(recs)
    root = math.sqrt(n)

    def value(leave: list[int]) -> float:
        return table.value(leave) if leave else 0.0

    d = np.array([r["d"] for r in recs])
    dse = np.array([r["dse"] for r in recs])
    w = np.array([r["w"] for r in recs])
    print(f"{n:,} disagreements: A's choice better by {d.mean():.3f} +- {d.std() / root:.3f} "
          f"points, {100 * w.mean():.3f} +- {100 * w.std() / root:.3f} % of a win")
    true_var = d.var() - float((dse ** 2).mean())
    sd = math.sqrt(max(true_var, 0.0))
    print(f"rollout noise {np.median(dse):.1f} points a position (median standard error); true "
          f"spread {sd:.1f}: the better of the two gains {sd / math.sqrt(2 * math.pi):.2f} points "
          "a disagreement, if normal")
    gap = np.array([r["sa"] + value(r["la"]) - r["sb"] - value(r["lb"]) for r in recs])
    if versus is not None:
        other = Klv.load(versus, alphabet)

        def apart(leave: list[int]) -> float:
            return abs(table.value(leave) - other.value(leave)) if leave else 0.0

        far = np.array([max(apart(r["la"]), apart(r["lb"])) for r in recs])
        for limit in (0.5, 1.0, 2.0, 4.0):
            inside = far > limit
            m = int(inside.sum())
            if m >= 2:
                print(f"a kept leave's values more than {limit:g} points apart in A and "
                      f"{Path(versus).name}: "
                      f"{m:,} positions, rollout lead {d[inside].mean():+.2f} +- "
                      f"{d[inside].std(ddof=1) / math.sqrt(m):.2f}")
    edges = (-math.inf, 0.0, 1.0, 2.0, 3.0, 5.0, math.inf)
    for lo, hi in itertools.pairwise(edges):
        inside = (gap >= lo) & (gap < hi)
        if inside.sum() >= 2:
            m = int(inside.sum())
            print(f"A's equity lead in [{lo:g}, {hi:g}): {m:,} positions, rollout lead "
                  f"{d[inside].mean():+.2f} +- {d[inside].std(ddof=1) / math.sqrt(m):.2f}")
    vowels = np.array([t.code for t in alphabet.tiles if t.vowel], np.int64)
    size, rack_size = alphabet.size, alphabet.rack_size
    x = (features([r["la"] for r in recs], size, rack_size, vowels, pairs)
         - features([r["lb"] for r in recs], size, rack_size, vowels, pairs))
    keep = np.ones(x.shape[1], bool)
    keep[size] = False  # the empty leave's size term: its value is 0 by definition
    y = d - gap
    folds = np.array_split(np.random.default_rng(0).permutation(n), 10)
    best = (-math.inf, LAMBDAS[0])
    for penalty in LAMBDAS:
        pred = np.zeros(n)
        for fold in folds:
            train = np.setdiff1d(np.arange(n), fold)
            pred[fold] = x[fold] @ ridge(x[train], y[train], penalty, keep)
        flip = gap + pred < 0
        gain = np.where(flip, -d, 0.0)
        print(f"lambda {penalty:g}: flips {flip.mean():.3f} of the choices, out of fold "
              f"{gain.mean():+.3f} +- {gain.std() / root:.3f} points a disagreement, "
              f"{100 * np.where(flip, -w, 0.0).mean():+.3f} % of a win")
        if gain.mean() > best[0]:
            best = (float(gain.mean()), penalty)
    if lam is not None:
        best = (best[0], lam)
    coef = ridge(x, y, best[1], keep)
    labels = ["?"] + [t.label for t in alphabet.letters]
    names = labels + [f"n{i}" for i in range(rack_size)] + ["dup", "vc"]
    terms = " ".join(f"{name}:{c:+.2f}" for name, c in zip(names, coef, strict=False))
    print(f"lambda {best[1]:g}: {terms}")
    if write is not None:
        leaves = [list(leave) for leave in table.leaves()]
        delta = features(leaves, size, rack_size, vowels, pairs) @ coef
        values = table.values.astype(np.float64) + scale * delta
        Klv(table.nodes, values.astype(np.float32), alphabet).save(write)
        print(f"{write}: mean |change| {np.abs(scale * delta).mean():.3f} points")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = parser.add_subparsers(dest="what", required=True)
    c = sub.add_parser("collect", help="play games and roll out the disagreements")
    c.add_argument("a")
    c.add_argument("b", nargs="?", default=None)
    c.add_argument("--close", type=float, default=None,
                   help="instead of B: A's two best choices within this many points")
    c.add_argument("--lexicon", default="TWL06")
    c.add_argument("--games", type=int, default=1000)
    c.add_argument("--seed", type=int, default=11)
    c.add_argument("--rollouts", type=int, default=32, help="2 or more a move")
    c.add_argument("-o", "--output", type=Path, required=True)
    f = sub.add_parser("fit", help="summarise and fit the disagreements")
    f.add_argument("a")
    f.add_argument("files", type=Path, nargs="+")
    f.add_argument("--alphabet", default="english")
    f.add_argument("--pairs", action="store_true")
    f.add_argument("--versus", default=None, metavar="B.klv2",
                   help="also the verdict where a kept leave's values in A and B differ most")
    f.add_argument("--lambda", dest="lam", type=float, default=None,
                   help="the ridge penalty of the fit written (default: the best out of fold)")
    f.add_argument("--write", type=Path, default=None)
    f.add_argument("--scale", type=float, default=1.0)
    args = parser.parse_args()
    if args.what == "collect":
        if (args.b is None) == (args.close is None):
            parser.error("collect: give B or --close, not both")
        if args.rollouts < 2 or args.games < 0:
            parser.error("collect: --rollouts 2 or more, --games 0 or more")
        found = collect(args.a, args.b, args.close, args.lexicon, args.games, args.seed,
                        args.rollouts, args.output)
        print(f"{found:,} disagreements appended to {args.output}")
    else:
        fit(args.a, args.files, args.alphabet, args.pairs, args.lam, args.write, args.scale,
            args.versus)


if __name__ == "__main__":
    from rackety.errors import RacketyError

    try:
        main()
    except RacketyError as exc:  # a table, lexicon or alphabet refused: its one line
        raise SystemExit(str(exc)) from None
