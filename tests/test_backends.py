"""The backends: the same results in task order on local processes and on Ray,
whatever the number of workers, and a worker that dies costs only its task."""

from __future__ import annotations

from pathlib import Path

import pytest

from rackety.backends import run_tasks, square_or_die
from rackety.errors import RacketyError

TASKS = [(n, None) for n in range(40)]
EXPECTED = [n * n for n in range(40)]


@pytest.mark.parametrize("jobs", [1, 2])
def test_local_results_come_in_task_order(jobs: int) -> None:
    seen: list[tuple[int, int]] = []
    assert run_tasks(square_or_die, TASKS, jobs=jobs,
                     progress=lambda done, total: seen.append((done, total))) == EXPECTED
    assert seen[-1] == (40, 40) and [d for d, _ in seen] == sorted(d for d, _ in seen)


def test_a_dying_local_worker_is_replaced(tmp_path: Path) -> None:
    tasks = [(n, str(tmp_path / "died") if n == 7 else None) for n in range(20)]
    assert run_tasks(square_or_die, tasks, jobs=2) == [n * n for n in range(20)]
    assert (tmp_path / "died").exists()  # it did die once


def test_bad_arguments() -> None:
    with pytest.raises(RacketyError, match="backend"):
        run_tasks(square_or_die, TASKS, backend="spark")
    with pytest.raises(RacketyError, match="address"):
        run_tasks(square_or_die, TASKS, address="10.0.0.1:6379")
    with pytest.raises(RacketyError, match="jobs"):
        run_tasks(square_or_die, TASKS, jobs=0)
    assert run_tasks(square_or_die, []) == []


@pytest.fixture(scope="module")
def ray_local() -> object:
    ray = pytest.importorskip("ray")
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
    yield ray
    ray.shutdown()


def test_ray_gives_the_same_results(ray_local: object, tmp_path: Path) -> None:
    assert run_tasks(square_or_die, TASKS, backend="ray") == EXPECTED
    tasks = [(n, str(tmp_path / "died") if n == 3 else None) for n in range(10)]
    assert run_tasks(square_or_die, tasks, backend="ray") == [n * n for n in range(10)]
    assert (tmp_path / "died").exists()


def _table(result: object) -> list[dict[str, object]]:
    """A tournament's totals without its timings."""
    rows = []
    for player in result.players:  # type: ignore[attr-defined]
        row = player.as_json()
        row.pop("seconds_per_move", None)
        rows.append(row)
    return rows


def _seats(result: object) -> list[list[tuple[object, ...]]]:
    """Every game's seats, without their timings."""
    return [[(s.score, s.won, s.moves, s.plays, s.exchanges, s.bingos) for s in r.seats]
            for r in result.results]  # type: ignore[attr-defined]


@pytest.fixture(scope="module")
def reference(twl06: object) -> object:
    from rackety.experiments.autoplay import tournament

    return tournament("TWL06", ["h3", "greedy"], 24, seed=5, jobs=1)


def test_autoplay_is_the_same_on_any_number_of_processes(reference: object) -> None:
    from rackety.experiments.autoplay import tournament

    again = tournament("TWL06", ["h3", "greedy"], 24, seed=5, jobs=2)
    assert _table(again) == _table(reference)
    assert _seats(again) == _seats(reference)


def test_a_killed_autoplay_worker_costs_only_its_games(reference: object, tmp_path: Path,
                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    from rackety.backends import FAULT_MARKER
    from rackety.experiments.autoplay import tournament

    monkeypatch.setenv(FAULT_MARKER, str(tmp_path / "died"))
    again = tournament("TWL06", ["h3", "greedy"], 24, seed=5, jobs=2)
    assert (tmp_path / "died").exists()  # a worker did die
    assert again.games == 24 and [r.index for r in again.results] == list(range(24))
    assert _table(again) == _table(reference) and _seats(again) == _seats(reference)


def test_autoplay_and_simulation_on_ray(ray_local: object, reference: object,
                                        twl06: object) -> None:
    from rackety import Board
    from rackety.experiments.autoplay import tournament
    from rackety.search.simulation import simulate

    on_ray = tournament("TWL06", ["h3", "greedy"], 24, seed=5, backend="ray")
    assert _table(on_ray) == _table(reference) and _seats(on_ray) == _seats(reference)
    board = Board.from_cgp("15/15/15/15/15/15/15/15/15/15/15/15/15/15/15 AEINRST/ 0/0 0")
    here = simulate(board, twl06, candidates=3, iterations=48, seed=2, jobs=1)
    there = simulate(board, twl06, candidates=3, iterations=48, seed=2, jobs=3,
                     backend="ray", source="TWL06")
    assert [(str(c.move), c.iterations, c.mean, c.m2, c.win_mean) for c in here.candidates] \
        == [(str(c.move), c.iterations, c.mean, c.m2, c.win_mean) for c in there.candidates]


def test_training_and_analysis_on_ray(ray_local: object, twl06: object) -> None:
    from rackety.backends import run_tasks as run
    from rackety.experiments.training import train
    from rackety.frontends.analysis import analyze_task

    here = train("TWL06", 40, 1, seed=3, min_count=5, jobs=1)
    there = train("TWL06", 40, 1, seed=3, min_count=5, backend="ray", jobs=2)
    assert there.klv.to_bytes() == here.klv.to_bytes()

    data = Path(__file__).parent / "data" / "gcg"
    tasks = [((data / name).read_bytes(), name, "TWL06", "english", "h3", None, None)
             for name in ("double_challenge.gcg", "phony_stood.gcg", "five_point.gcg")]
    local = [repr(a) for a in run(analyze_task, tasks, jobs=1)]
    remote = [repr(a) for a in run(analyze_task, tasks, backend="ray")]
    assert remote == local


def _counted(tasks, drawn: list[int]):
    """``tasks`` handed out one at a time, each counted when drawn."""
    for task in tasks:
        drawn.append(1)
        yield task


@pytest.mark.parametrize("jobs", [1, 2])
def test_tasks_are_drawn_as_workers_free_up(jobs: int) -> None:
    """A billion tasks (a lazy iterable) and a caller that stops after five
    results: no more than the window of tasks was ever drawn."""
    from rackety.backends import WINDOW_PER_WORKER, imap_tasks

    drawn: list[int] = []
    endless = ((n, None) for n in range(10**9))
    results = imap_tasks(square_or_die, _counted(endless, drawn), jobs=jobs)
    got = [next(results) for _ in range(5)]
    results.close()  # what was queued is cancelled
    assert sorted(n for _, n in got) == sorted(i * i for i, _ in got)
    assert 5 <= len(drawn) <= 5 + WINDOW_PER_WORKER * jobs


def test_the_window_bounds_what_waits_for_an_earlier_task() -> None:
    """Results put back in task order never wait in more than ``window``:
    no task is drawn more than ``window`` past the earliest unfinished one."""
    from rackety.backends import imap_tasks

    drawn: list[int] = []
    seen = []
    for index, _ in imap_tasks(square_or_die, _counted(TASKS, drawn), jobs=2, window=3):
        assert len(drawn) <= min(seen_lowest_missing(seen), len(TASKS)) + 3
        seen.append(index)
    assert sorted(seen) == list(range(len(TASKS)))


def seen_lowest_missing(seen: list[int]) -> int:
    """The earliest task index not given back yet."""
    done = set(seen)
    return next(i for i in range(len(done) + 1) if i not in done)


def test_run_tasks_takes_a_generator_and_its_total() -> None:
    seen: list[tuple[int, int]] = []
    assert run_tasks(square_or_die, iter(TASKS), jobs=2, total=len(TASKS),
                     progress=lambda done, total: seen.append((done, total))) == EXPECTED
    assert seen[-1] == (40, 40)
    assert run_tasks(square_or_die, iter([])) == []
