"""Where batches of work run: the local cores (processes) or a Ray cluster.

`run_tasks(func, tasks)` calls ``func(task)`` for every task and returns the
results in task order, whatever ran where and finished when, so a seeded
experiment gives the same totals on any backend and any number of workers.

- ``local``: a process pool on this machine (``jobs`` processes, default every
  core; ``jobs=1`` runs in this process). A worker that dies (killed, out of
  memory) breaks the pool: the tasks that had not finished are run again in a
  new pool, up to ``retries`` times; finished ones are kept, never run twice.
- ``ray``: Ray tasks, scheduled by Ray on the cluster at ``address`` (``auto``
  for the one this machine belongs to; none: a local Ray instance). Ray itself
  retries a task whose worker died (``max_retries``).

``func`` and the tasks travel to other processes: ``func`` must be a module's
top-level function and the tasks picklable. A task should be worth tens of
milliseconds at least (a batch of games, not one move).
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from concurrent.futures.process import BrokenProcessPool
from typing import Any, TypeVar

import click

from rackety.errors import RacketyError

BACKENDS = ("local", "ray")
T = TypeVar("T")
R = TypeVar("R")


def run_tasks(func: Callable[[T], R], tasks: Sequence[T], *, backend: str = "local",
              address: str | None = None, jobs: int | None = None, retries: int = 3,
              progress: Callable[[int, int], None] | None = None) -> list[R]:
    """``[func(t) for t in tasks]``, run on ``backend``. ``progress(done,
    total)`` is called as tasks finish."""
    results: list[Any] = [None] * len(tasks)
    for done, (index, result) in enumerate(imap_tasks(
            func, tasks, backend=backend, address=address, jobs=jobs, retries=retries), 1):
        results[index] = result
        if progress is not None:
            progress(done, len(tasks))
    return results


def imap_tasks(func: Callable[[T], R], tasks: Sequence[T], *, backend: str = "local",
               address: str | None = None, jobs: int | None = None,
               retries: int = 3) -> Iterator[tuple[int, R]]:
    """``(index, func(tasks[index]))`` pairs as the tasks finish (in any order)."""
    if backend not in BACKENDS:
        raise RacketyError(f"backend {backend!r}: expected one of {', '.join(BACKENDS)}")
    if jobs is not None and jobs < 1:
        raise RacketyError("jobs: at least 1")
    if not tasks:
        return iter(())
    if backend == "ray":
        return _ray(func, tasks, address, jobs, retries)
    if address is not None:
        raise RacketyError("--address goes with --backend ray")
    return _local(func, tasks, jobs or os.cpu_count() or 1, retries)


def _local(func: Callable[[T], R], tasks: Sequence[T], jobs: int,
           retries: int) -> Iterator[tuple[int, R]]:
    if jobs == 1 or len(tasks) == 1:
        for index, task in enumerate(tasks):
            yield index, func(task)
        return
    pending = set(range(len(tasks)))
    failures = 0
    while pending:
        broken = False
        with ProcessPoolExecutor(max_workers=min(jobs, len(pending))) as pool:
            futures: dict[Future[R], int] = {pool.submit(func, tasks[i]): i
                                               for i in sorted(pending)}
            waiting = set(futures)
            while waiting:
                done, waiting = wait(waiting, return_when=FIRST_COMPLETED)
                for future in done:
                    try:
                        result = future.result()
                    except BrokenProcessPool:
                        broken = True
                        continue
                    index = futures[future]
                    pending.discard(index)
                    yield index, result
                if broken:
                    for future in waiting:
                        future.cancel()
                    break
        if broken:
            failures += 1
            if failures > retries:
                raise RacketyError(f"a worker process died {failures} times; "
                                   f"{len(pending)} task(s) not done")


def _ray(func: Callable[[T], R], tasks: Sequence[T], address: str | None, jobs: int | None,
         retries: int) -> Iterator[tuple[int, R]]:
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
    remote = ray.remote(max_retries=retries, retry_exceptions=False)(func)
    refs = {remote.remote(task): index for index, task in enumerate(tasks)}
    waiting = list(refs)
    while waiting:
        done, waiting = ray.wait(waiting, num_returns=1)
        for ref in done:
            yield refs[ref], ray.get(ref)


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
