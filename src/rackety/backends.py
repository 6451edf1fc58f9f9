"""Where batches of work run: the local cores (processes) or a Ray cluster.

`run_tasks(func, tasks)` calls ``func(task)`` for every task and returns the
results in task order, whatever ran where and finished when, so a seeded
experiment gives the same totals on any backend and any number of workers.
`imap_tasks` gives them as they finish, for callers that fold them into
totals as they come.

The tasks may be a lazy iterable (a generator): they are drawn from it only as
workers free up, at most ``window`` tasks ahead of the earliest one not yet
given back (default `WINDOW_PER_WORKER` per worker), so a run of a billion
games holds a few dozen tasks at a time, never a list of them, and a caller
that puts results back in task order holds at most ``window`` of them.

- ``local``: a process pool on this machine (``jobs`` processes, default every
  core; ``jobs=1``, or a single task, runs in this process). A worker that
  dies (killed, out of memory) breaks the pool: the tasks that had not
  finished are run again in a new pool, up to ``retries`` times; finished
  ones are kept, never run twice.
- ``ray``: Ray tasks, scheduled by Ray on the cluster at ``address`` (``auto``
  for the one this machine belongs to; none: a local Ray instance). Ray itself
  retries a task whose worker died (``max_retries``).

``func`` and the tasks travel to other processes: ``func`` must be a module's
top-level function and the tasks picklable. A task should be worth tens of
milliseconds at least (a batch of games, not one move).
"""

from __future__ import annotations

import itertools
import os
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from concurrent.futures.process import BrokenProcessPool
from typing import Any, TypeVar

import click

from rackety.errors import RacketyError

BACKENDS = ("local", "ray")
WINDOW_PER_WORKER = 4  # tasks in flight (or finished, waiting for an earlier one) per worker
T = TypeVar("T")
R = TypeVar("R")


def run_tasks(func: Callable[[T], R], tasks: Iterable[T], *, backend: str = "local",
              address: str | None = None, jobs: int | None = None, retries: int = 3,
              progress: Callable[[int, int], None] | None = None,
              total: int | None = None) -> list[R]:
    """``[func(t) for t in tasks]``, run on ``backend``. ``progress(done,
    total)`` is called as tasks finish; ``total`` is ``len(tasks)`` unless
    given (for a lazy iterable, its length, else the tasks drawn so far)."""
    if total is None and hasattr(tasks, "__len__"):
        total = len(tasks)  # type: ignore[arg-type]
    results: list[Any] = []
    for done, (index, result) in enumerate(imap_tasks(
            func, tasks, backend=backend, address=address, jobs=jobs, retries=retries), 1):
        if index >= len(results):
            results.extend([None] * (index + 1 - len(results)))
        results[index] = result
        if progress is not None:
            progress(done, total if total is not None else len(results))
    return results


def imap_tasks(func: Callable[[T], R], tasks: Iterable[T], *, backend: str = "local",
               address: str | None = None, jobs: int | None = None, retries: int = 3,
               window: int | None = None) -> Iterator[tuple[int, R]]:
    """``(index, func(task))`` pairs as the tasks finish (in any order), the
    tasks drawn lazily, at most ``window`` ahead of the earliest one not given
    back yet (module docstring). Closing the iterator early cancels the tasks
    not started."""
    if backend not in BACKENDS:
        raise RacketyError(f"backend {backend!r}: expected one of {', '.join(BACKENDS)}")
    if jobs is not None and jobs < 1:
        raise RacketyError("jobs: at least 1")
    if window is not None and window < 1:
        raise RacketyError("window: at least 1")
    if backend == "ray":
        return _ray(func, iter(tasks), address, jobs, retries, window)
    if address is not None:
        raise RacketyError("--address goes with --backend ray")
    jobs = jobs or os.cpu_count() or 1
    return _local(func, iter(tasks), jobs, retries, window or WINDOW_PER_WORKER * jobs)


def _local(func: Callable[[T], R], tasks: Iterator[T], jobs: int, retries: int,
           window: int) -> Iterator[tuple[int, R]]:
    numbered: Iterator[tuple[int, T]] = enumerate(tasks)
    first = list(itertools.islice(numbered, jobs))
    if jobs == 1 or len(first) < 2:  # no pool for one task
        for index, task in itertools.chain(first, numbered):
            yield index, func(task)
        return
    workers = len(first)  # fewer tasks than jobs: no idle processes
    numbered = itertools.chain(first, numbered)
    pending: dict[int, T] = {}  # drawn and not finished (run again if a worker dies)
    drawn = 0  # tasks drawn from the iterable so far
    failures = 0
    exhausted = False
    while pending or not exhausted:
        broken = False
        pool = ProcessPoolExecutor(max_workers=min(workers, len(pending)) if exhausted
                                   else workers)
        futures: dict[Future[R], int] = {pool.submit(func, pending[i]): i
                                         for i in sorted(pending)}
        try:
            while True:
                # the window: never more than ``window`` past the earliest unfinished task
                while not exhausted and drawn < min(pending, default=drawn) + window:
                    item = next(numbered, None)
                    if item is None:
                        exhausted = True
                        break
                    index, task = item
                    pending[index] = task
                    drawn = index + 1
                    futures[pool.submit(func, task)] = index
                if not futures:
                    break
                done, _ = wait(futures, return_when=FIRST_COMPLETED)
                for future in done:
                    index = futures.pop(future)
                    try:
                        result = future.result()
                    except BrokenProcessPool:
                        broken = True
                        continue
                    del pending[index]
                    yield index, result
                if broken:
                    break
        finally:
            # an early close (the caller stopped, or failed) or a broken pool: the
            # queued tasks are cancelled, the running ones end
            pool.shutdown(wait=True, cancel_futures=True)
        if broken:
            failures += 1
            if failures > retries:
                raise RacketyError(f"a worker process died {failures} times; "
                                   f"{len(pending)} task(s) not done")


def _ray(func: Callable[[T], R], tasks: Iterator[T], address: str | None, jobs: int | None,
         retries: int, window: int | None) -> Iterator[tuple[int, R]]:
    try:
        import ray
    except ImportError:
        raise RacketyError("--backend ray needs Ray: pip install 'rackety[ray]'") from None
    if not ray.is_initialized():
        try:
            if address:
                ray.init(address=address, log_to_driver=False)
            else:
                ray.init(num_cpus=jobs, log_to_driver=False, include_dashboard=False)
        except ConnectionError as exc:
            raise RacketyError(f"--address {address}: no Ray cluster there ({exc})") from None
    if window is None:
        cpus = jobs or int(ray.cluster_resources().get("CPU", 1)) or 1
        window = WINDOW_PER_WORKER * cpus
    remote = ray.remote(max_retries=retries, retry_exceptions=False)(func)
    numbered = enumerate(tasks)
    refs: dict[Any, int] = {}  # in flight
    drawn = 0
    exhausted = False
    try:
        while True:
            while not exhausted and drawn < min(refs.values(), default=drawn) + window:
                item = next(numbered, None)
                if item is None:
                    exhausted = True
                    break
                index, task = item
                refs[remote.remote(task)] = index
                drawn = index + 1
            if not refs:
                return
            done, _ = ray.wait(list(refs), num_returns=1)
            for ref in done:
                index = refs.pop(ref)
                yield index, ray.get(ref)
    finally:
        for ref in refs:  # closed early: what was not done is not wanted
            ray.cancel(ref)


def backend_options(func: Callable[..., Any]) -> Callable[..., Any]:
    """``--backend local|ray`` and ``--address``, for commands that spread work."""
    func = click.option("--address", default=None, metavar="ADDR",
                        help="With --backend ray: the cluster's address (host:port, or "
                             "'auto'); none starts a local Ray instance.")(func)
    func = click.option("--backend", type=click.Choice(BACKENDS), default="local",
                        show_default=True,
                        help="Where the work runs: local processes or a Ray cluster.")(func)
    return func


FAULT_MARKER = "RACKETY_FAULT_MARKER"


def fault_point() -> None:
    """Fault injection for the tests: when the environment variable
    ``RACKETY_FAULT_MARKER`` names a file that does not exist yet, create it and
    kill this process at once (the first task to get here dies, once)."""
    marker = os.environ.get(FAULT_MARKER)
    if marker:
        try:
            fd = os.open(marker, os.O_CREAT | os.O_EXCL | os.O_WRONLY)
        except FileExistsError:
            return
        os.write(fd, str(os.getpid()).encode())
        os.close(fd)
        os._exit(1)


def square_or_die(task: tuple[int, str | None]) -> int:
    """A task to test the backends with: ``n * n`` for ``(n, marker)``; when
    ``marker`` names a file that does not exist yet, the worker creates it and
    dies at once (as a killed worker would), so the task must be run again."""
    n, marker = task
    if marker is not None and not os.path.exists(marker):
        with open(marker, "w") as f:
            f.write(str(os.getpid()))
        os._exit(1)
    return n * n
