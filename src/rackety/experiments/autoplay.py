"""Autoplay tournaments: computer players against each other over many games,
Gordon's table of results with honest statistics, on every core.

Games come in pairs that share the bag (the same seed) with the seats swapped,
so the luck of the draw cancels out as far as it can. Game ``2k`` and ``2k+1``
of a tournament with seed S use the bag of seed ``S * 1_000_003 + k``; the
result does not depend on how many processes play them.

The two games of a pair are not independent (the same tiles come to the
same seats' turns), the pairs are: so with two players and at least
`PAIRED_MIN` pairs, the 95 % interval of a player's win share is the normal
interval of the mean of its pair shares (each 0, 1/4, ..., 1), from their
sample variance. Between two players of similar strength the pair's two
games mostly split (the bag decides both the same way), so this interval is
about 0.6 times as wide as Wilson's over games, which treats every game as
independent and would overstate the noise. With fewer pairs, or more than two
players, the interval is Wilson's over games.

The table is folded game by game as the batches finish (in game order, so the
totals are the same on any backend): what it needs is running sums and the
count of pairs by their result, so a tournament of any length holds a few
dozen batches at a time; the games themselves are kept only when asked
(``keep_results``).

Every game is checked as it ends: the tiles are conserved, every play is legal
and scored the same by a plain scorer, and the totals are the sums of the
events (`Game.problems`, or `rackety.experiments.selfplay.check_game` for games played
compiled). A game that fails stops the tournament with the reason.
"""

from __future__ import annotations

import math
import os
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from rackety.backends import fault_point, imap_tasks
from rackety.errors import RacketyError
from rackety.experiments.selfplay import EV_EXCHANGE, EV_PASS, EV_PLAY, Compiled
from rackety.files import writable_folder, write_atomic
from rackety.game.gcg import gcg_of
from rackety.game.referee import Game
from rackety.game.rules import Rules
from rackety.lexicon import Lexicon
from rackety.players import Player, make_player


@dataclass
class SeatResult:
    """One player's side of one game."""

    score: int
    won: float  # 1 a win, 0.5 a tie, 0 a loss
    moves: int = 0  # turns taken (plays, exchanges, passes)
    plays: int = 0
    sacrifices: int = 0  # plays scoring less than the top-scoring play of the turn
    exchanges: int = 0
    passes: int = 0
    bingos: int = 0
    seconds: float = 0.0


@dataclass
class GameResult:
    """A finished game: its seed, who sat where, each seat's result."""

    index: int
    seed: int
    order: list[int]  # order[seat] = index of the player in the tournament
    seats: list[SeatResult]
    gcg: str | None = None


@dataclass
class PlayerSummary:
    """Gordon's table, one row."""

    name: str
    games: int = 0
    wins: float = 0.0
    total_score: int = 0
    moves: int = 0
    plays: int = 0
    sacrifices: int = 0
    exchanges: int = 0
    passes: int = 0
    bingos: int = 0
    seconds: float = 0.0
    spread: int = 0  # the sum over games of the score less the best other score
    #: pairs of games by their wins: pair_counts[k] pairs won k/2 times (k = 0 to 4)
    pair_counts: list[int] = field(default_factory=lambda: [0] * 5, repr=False)

    @property
    def pairs(self) -> int:
        """Pairs of games (seats swapped, same bag) behind the paired interval."""
        return sum(self.pair_counts)

    @property
    def win_pct(self) -> float:
        return 100.0 * self.wins / self.games if self.games else 0.0

    @property
    def interval(self) -> str:
        """Where `win_ci95` comes from: ``pairs`` with `PAIRED_MIN` pairs or
        more (two players), else ``wilson`` (over games)."""
        return "pairs" if self.pairs >= PAIRED_MIN else "wilson"

    @property
    def win_ci95(self) -> tuple[float, float]:
        """The 95 % interval of the win share (a tie is half a win), in %."""
        if self.interval == "pairs":
            return paired_interval_of_counts(self.pair_counts)
        return wilson(self.wins, self.games)

    @property
    def avg_score(self) -> float:
        return self.total_score / self.games if self.games else 0.0

    def as_json(self) -> dict[str, Any]:
        lo, hi = self.win_ci95
        return {"name": self.name, "games": self.games, "wins": self.wins,
                "win_pct": round(self.win_pct, 2), "win_ci95": [round(lo, 2), round(hi, 2)],
                "interval": self.interval,
                "avg_score": round(self.avg_score, 2), "moves": self.moves,
                "sacrifices": self.sacrifices, "exchanges": self.exchanges,
                "passes": self.passes, "bingos": self.bingos,
                "seconds_per_move": round(self.seconds / self.moves, 6) if self.moves else 0.0}


PAIRED_MIN = 100  # pairs before the interval is taken from them


def paired_interval(pair_wins: Sequence[float], z: float = 1.959964) -> tuple[float, float]:
    """The normal 95 % interval of a win share, in %, from the wins of each
    pair of games (0 to 2 a pair), the pairs being the independent units."""
    n = len(pair_wins)
    if n < 2:
        return (0.0, 100.0)
    shares = [w / 2 for w in pair_wins]
    mean = sum(shares) / n
    var = sum((x - mean) ** 2 for x in shares) / (n - 1)
    half = z * math.sqrt(var / n)
    return (100.0 * max(0.0, mean - half), 100.0 * min(1.0, mean + half))


def paired_interval_of_counts(counts: Sequence[int], z: float = 1.959964
                              ) -> tuple[float, float]:
    """`paired_interval` of ``counts[k]`` pairs won k/2 times each (k = 0 to
    4): the same interval, from five numbers instead of one per pair."""
    n = sum(counts)
    if n < 2:
        return (0.0, 100.0)
    mean = sum(c * k / 4 for k, c in enumerate(counts)) / n  # shares k/4: sums are exact
    var = sum(c * (k / 4 - mean) ** 2 for k, c in enumerate(counts)) / (n - 1)
    half = z * math.sqrt(var / n)
    return (100.0 * max(0.0, mean - half), 100.0 * min(1.0, mean + half))


def wilson(wins: float, n: int, z: float = 1.959964) -> tuple[float, float]:
    """Wilson's score interval for a share ``wins / n``, in %."""
    if n == 0:
        return (0.0, 100.0)
    p = wins / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return (100.0 * max(0.0, centre - half), 100.0 * min(1.0, centre + half))


# ------------------------------------------------------------------ one game
def play_game(lexicon: Lexicon, players: Sequence[Player], *, seed: int,
              rules: Rules | None = None, layout: str | None = None,
              alphabet: str | None = None, names: Sequence[str] | None = None,
              check: bool = True) -> tuple[Game, list[SeatResult]]:
    """One game between ``players`` (seat order) from the bag of ``seed``. A
    play is a sacrifice when its player's `rackety.players.Decision` says so."""
    names = list(names or [f"p{i + 1}" for i in range(len(players))])
    game = Game(lexicon, names, rules=rules, layout=layout, alphabet=alphabet, seed=seed)
    stats = [SeatResult(0, 0.0) for _ in players]
    rack_size = game.alphabet.rack_size
    while not game.over:
        seat = game.turn
        view = game.view()
        t0 = time.perf_counter()
        decision = players[seat].decide(view, lexicon)
        move = decision.move
        stats[seat].seconds += time.perf_counter() - t0
        game.play(move, check=False)  # generated moves; the whole game is checked below
        s = stats[seat]
        s.moves += 1
        if move.kind == "place":
            s.plays += 1
            if decision.sacrifice:
                s.sacrifices += 1
            if move.n_placed == rack_size:
                s.bingos += 1
        elif move.kind == "exchange":
            s.exchanges += 1
        else:
            s.passes += 1
    if check:
        problems = game.problems()
        if problems:
            raise RacketyError(f"game with seed {seed}: {problems[0]}")
    best = max(game.scores)
    winners = [i for i, v in enumerate(game.scores) if v == best]
    for i, s in enumerate(stats):
        s.score = game.scores[i]
        s.won = (1.0 / len(winners)) if i in winners else 0.0
    return game, stats


# --------------------------------------------------------------- tournaments
@dataclass
class TournamentResult:
    games: int
    players: list[PlayerSummary]
    seconds: float
    results: list[GameResult] = field(default_factory=list, repr=False)

    @property
    def games_per_second(self) -> float:
        return self.games / self.seconds if self.seconds else 0.0

    def as_json(self) -> dict[str, Any]:
        return {"games": self.games, "players": [p.as_json() for p in self.players],
                "games_per_second": round(self.games_per_second, 2)}


@dataclass(frozen=True)
class _Job:
    lexicon: str
    alphabet: str | None
    layout: str | None
    specs: tuple[str, ...]
    seed: int
    rules: Rules
    keep_gcg: bool
    check: bool
    compiled: bool = True


_worker: dict[str | tuple[str, tuple[int, ...]], Any] = {}


def _setup(job: _Job) -> tuple[Lexicon, list[Any]]:
    key = (job.lexicon, job.alphabet, job.layout, job.specs, job.rules)
    if _worker.get("key") != key:
        lexicon = Lexicon.load(job.lexicon, job.alphabet)
        _release()
        _worker.clear()  # compiled seatings belong to the players they were made for
        _worker.update(key=key, lexicon=lexicon,
                       players=[make_player(spec, lexicon) for spec in job.specs])
    return _worker["lexicon"], _worker["players"]


def _release() -> None:
    """Close this process's players that hold a process (a UCGI engine's) and
    forget them: a tournament ends them, or the next one's set-up does."""
    players = _worker.get("players") or []
    if any(hasattr(p, "close") for p in players):
        for player in players:
            if hasattr(player, "close"):
                player.close()
        _worker.clear()


def game_seed(seed: int, index: int) -> int:
    """The bag seed of game ``index``: both games of a pair share it."""
    return seed * 1_000_003 + index // 2


def _compiled(job: _Job, lexicon: Lexicon, players: list[Any], order: list[int]
              ) -> Compiled | None:
    """The compiled self-play for this seating, or None if a player cannot
    play compiled."""
    key = ("compiled", tuple(order))
    if key not in _worker:
        try:
            _worker[key] = Compiled(lexicon, [players[p] for p in order], rules=job.rules,
                                    layout=job.layout, alphabet=job.alphabet)
        except TypeError:
            _worker[key] = None
    compiled: Compiled | None = _worker[key]
    return compiled


def _play_compiled(compiled: Any, job: _Job, lexicon: Lexicon, index: int,
                   order: list[int]) -> GameResult:
    """One game in `rackety.experiments.selfplay`, checked there, its statistics from its events."""

    seed = game_seed(job.seed, index)
    t0 = time.perf_counter()
    fast = compiled.play(seed)
    seconds = time.perf_counter() - t0
    if job.check:
        problem = compiled.check(fast)
        if problem:
            raise RacketyError(f"game with seed {seed}: {problem}")
    stats = [SeatResult(0, 0.0) for _ in order]
    rack_size = compiled.alphabet.rack_size
    for seat, kind, score, best, placed in zip(
            fast.seat.tolist(), fast.kind.tolist(), fast.score.tolist(), fast.best.tolist(),
            fast.meta[:, 4].tolist(), strict=True):
        s = stats[seat]
        s.score += score
        if kind == EV_PLAY:
            s.moves += 1
            s.plays += 1
            s.sacrifices += score < best
            s.bingos += placed == rack_size
        elif kind == EV_EXCHANGE:
            s.moves += 1
            s.exchanges += 1
        elif kind == EV_PASS:
            s.moves += 1
            s.passes += 1
    moves = sum(s.moves for s in stats) or 1
    for s in stats:
        s.seconds = seconds * s.moves / moves
    best_score = max(s.score for s in stats)
    winners = [i for i, s in enumerate(stats) if s.score == best_score]
    for i, s in enumerate(stats):
        s.won = (1.0 / len(winners)) if i in winners else 0.0
    gcg = None
    if job.keep_gcg:
        names = [_names(job.specs)[p] for p in order]
        gcg = gcg_of(fast.game(lexicon, names, seed=seed, rules=job.rules, layout=job.layout,
                               alphabet=job.alphabet))
    return GameResult(index, seed, order, stats, gcg)


def _play_indices(job: _Job, indices: Sequence[int]) -> list[GameResult]:
    lexicon, players = _setup(job)
    n = len(players)
    out = []
    for index in indices:
        # seats rotate from game to game: in a pair of two players they swap
        order = [(index + i) % n for i in range(n)]
        compiled = _compiled(job, lexicon, players, order) if job.compiled else None
        if compiled is not None:
            out.append(_play_compiled(compiled, job, lexicon, index, order))
            continue
        seed = game_seed(job.seed, index)
        game, stats = play_game(lexicon, [players[p] for p in order], seed=seed,
                                rules=job.rules, layout=job.layout, alphabet=job.alphabet,
                                names=[_names(job.specs)[p] for p in order], check=job.check)
        gcg = gcg_of(game) if job.keep_gcg else None
        out.append(GameResult(index, seed, order, stats, gcg))
    return out


def _names(specs: Sequence[str]) -> list[str]:
    """Player names from their specs (a leave file by its stem), numbered when
    one appears twice."""
    bases = [Path(spec[7:]).stem if spec.startswith("leaves:") else
             "ucgi" if spec.strip().lower().startswith("ucgi:") else spec for spec in specs]
    return [base if bases.count(base) == 1 else f"{base}-{bases[:i + 1].count(base)}"
            for i, base in enumerate(bases)]


def tournament(lexicon: str, specs: Sequence[str], games: int, *, seed: int = 1,
               jobs: int | None = None, rules: Rules | None = None,
               layout: str | None = None, alphabet: str | None = None,
               gcg_dir: str | Path | None = None, check: bool = True,
               compiled: bool = True, backend: str = "local", address: str | None = None,
               progress: Callable[[int], None] | None = None,
               keep_results: bool = True) -> TournamentResult:
    """Play ``games`` games (rounded up to whole pairs) between the players
    ``specs`` (``greedy``, ``h1``, ``h2``, ``h3``, ``leaves:FILE.klv2``) on
    ``jobs`` processes (default: every core). ``progress`` is called with the
    number of games just finished. With ``compiled`` (the default), games
    between static players (greedy, H1-H3, a KLV table) run whole in
    `rackety.experiments.selfplay`, the same games `play_game` plays, several times faster.
    ``backend`` (``local`` processes or ``ray``, at ``address``; see
    `rackety.backends`) runs the batches of games; the results are the same for
    the same seed on any backend and any number of workers. The batches are
    made as workers free up and the table folded as they finish; without
    ``keep_results`` the games are not kept (``results`` is empty), so the
    memory stays bounded whatever ``games``."""
    if not 2 <= len(specs) <= 4:
        raise RacketyError(f"a game has 2 to 4 players, not {len(specs)}")
    if games < 1:
        raise RacketyError("games: at least 1")
    if "human" in specs:
        raise RacketyError("autoplay has no human players")
    if gcg_dir is not None:  # before any game is played, not after the first batch
        gcg_dir = writable_folder(gcg_dir, "gcg folder")
    games += games % 2 if len(specs) == 2 else 0
    if backend == "local":
        jobs = jobs or os.cpu_count() or 1
    job = _Job(lexicon, alphabet, layout, tuple(specs), seed, rules or Rules(),
               gcg_dir is not None, check, compiled)
    names = _names(specs)
    summaries = [PlayerSummary(name) for name in names]
    results: list[GameResult] = []
    t0 = time.perf_counter()
    workers = jobs or 8  # Ray: batches enough to keep a cluster's cores busy
    chunk = 2 * max(1, min(25, games // (8 * workers) // 2 or 1))  # whole pairs
    waiting: dict[int, list[GameResult]] = {}  # finished before an earlier batch
    folded = 0  # batches folded into the table, in order
    halves: dict[int, float] = {}  # the first game of a pair: each player's wins
    played = 0
    try:
        for index, batch in imap_tasks(_play_task, _batches(job, games, chunk),
                                       backend=backend, address=address, jobs=jobs):
            if gcg_dir is not None:
                for result in batch:
                    if result.gcg is not None:
                        _save_gcg(Path(gcg_dir), result, names)
            waiting[index] = batch
            while folded in waiting:  # totals in game order: the same on any backend
                for result in waiting.pop(folded):
                    _fold(summaries, result, halves if len(specs) == 2 else None)
                    played += 1
                    if keep_results:
                        results.append(result)
                folded += 1
            if progress is not None:
                progress(len(batch))
    finally:
        _release()  # engines started here (games played in this process) end with it
    seconds = time.perf_counter() - t0
    return TournamentResult(played, summaries, seconds, results)


def _batches(job: _Job, games: int, chunk: int) -> Iterator[tuple[_Job, range]]:
    """The tasks of a tournament, made as they are wanted: batches of ``chunk``
    games (whole pairs)."""
    for start in range(0, games, chunk):
        yield job, range(start, min(games, start + chunk))


def _fold(summaries: list[PlayerSummary], result: GameResult,
          halves: dict[int, float] | None) -> None:
    """Add one game to the table; with two players (``halves``: the wins of
    the first game of the pair), a pair's second game adds the pair."""
    for seat, p in enumerate(result.order):
        _add(summaries[p], result.seats[seat], result.seats)
    if halves is None:
        return
    won = {p: result.seats[seat].won for seat, p in enumerate(result.order)}
    if result.index % 2 == 0:
        halves.clear()
        halves.update(won)
        return
    for p, summary in enumerate(summaries):  # games 2k and 2k+1 share a bag
        summary.pair_counts[round(2 * (halves[p] + won[p]))] += 1


def _play_task(task: tuple[_Job, Sequence[int]]) -> list[GameResult]:
    fault_point()  # tests kill a worker here
    return _play_indices(*task)


def _add(summary: PlayerSummary, seat: SeatResult, seats: list[SeatResult]) -> None:
    summary.games += 1
    summary.wins += seat.won
    summary.total_score += seat.score
    for name in ("moves", "plays", "sacrifices", "exchanges", "passes", "bingos"):
        setattr(summary, name, getattr(summary, name) + getattr(seat, name))
    summary.seconds += seat.seconds
    summary.spread += seat.score - max(s.score for s in seats if s is not seat)


def _save_gcg(folder: Path, result: GameResult, names: list[str]) -> None:
    who = "-".join(names[p] for p in result.order)
    assert result.gcg is not None
    write_atomic(folder / f"game{result.index + 1:05d}-{who}.gcg", result.gcg.encode("utf-8"))


__all__ = ["PAIRED_MIN", "GameResult", "PlayerSummary", "SeatResult", "TournamentResult",
           "game_seed", "paired_interval", "paired_interval_of_counts", "play_game",
           "tournament", "wilson"]
