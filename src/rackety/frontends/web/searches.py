"""The web app's long searches: endgames and pre-endgames run as jobs.

A search runs in a thread of its own under a `rackety.search.control.Control`
(its stop signal), so the request that starts it answers at once with the
search's id and the page polls its state: running with its progress, then
done (or stopped, with the best found until then) with its result, or failed
with a one-line reason. ``POST /api/searches/{id}/stop`` stops it within a
slice of the engine's work. At most `MAX_RUNNING` searches run at a time
(another is refused as a conflict) and the `MAX_KEPT` latest are kept to be
read; an id is a random token, so one client cannot guess another's.

What a search is (the position read, the engine called, its result as JSON)
is the service's (`Service.endgame`, `Service.preendgame`); this module only
runs them.
"""

from __future__ import annotations

import logging
import secrets
import threading
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from rackety.errors import RacketyError, clip, one_line
from rackety.search.control import Control

#: searches running at once (each takes a core)
MAX_RUNNING = 2
#: searches kept, the oldest finished forgotten first
MAX_KEPT = 32
#: the shape of an id (`secrets.token_hex(8)`)
ID_PATTERN = r"^[0-9a-f]{16}$"

log = logging.getLogger("rackety.frontends.web")

#: what a search does: given its control and a ``progress(done, total, what)``
#: to call as it goes, its result as JSON
#: a search's work: its result is the JSON form of its kind (`rackety.frontends.shapes`)
Work = Callable[[Control, Callable[[int, int, str], None]], Mapping[str, Any]]


class SearchNotFoundError(RacketyError):
    """No such search (HTTP 404)."""


class SearchesBusyError(RacketyError):
    """Too many searches running (HTTP 409)."""


@dataclass
class Search:
    """One search and what is known of it so far."""

    id: str
    kind: str
    seconds: float
    about: dict[str, Any] = field(default_factory=dict)  # what is searched (the position)
    stop: threading.Event = field(default_factory=threading.Event)
    started: float = field(default_factory=time.monotonic)
    status: str = "running"  # running, done, stopped or failed
    done: int | None = None
    total: int | None = None
    what: str = "starting"
    result: Mapping[str, Any] | None = None
    error: str | None = None
    elapsed: float | None = None  # once finished
    finished: threading.Event = field(default_factory=threading.Event)

    def state(self) -> dict[str, Any]:
        """The search as the page polls it."""
        elapsed = self.elapsed if self.elapsed is not None else time.monotonic() - self.started
        out: dict[str, Any] = {
            "id": self.id, "kind": self.kind, "status": self.status,
            "seconds": self.seconds, "elapsed": round(elapsed, 3),
            "stopping": self.stop.is_set() and self.status == "running",
            "progress": {"done": self.done, "total": self.total, "what": self.what},
            **self.about}
        if self.result is not None:
            out["result"] = self.result
        if self.error is not None:
            out["error"] = self.error
        return out


class Searches:
    """The searches of one app: started, polled, stopped."""

    def __init__(self, running: int = MAX_RUNNING, kept: int = MAX_KEPT) -> None:
        self.running = running
        self.kept = kept
        self._searches: dict[str, Search] = {}
        self._lock = threading.Lock()

    def start(self, kind: str, seconds: float, work: Work,
              about: dict[str, Any] | None = None) -> Search:
        """Run ``work`` in a thread (``about``: what it searches, in its state
        from the start); refused while `running` searches run."""
        with self._lock:
            busy = sum(1 for s in self._searches.values() if s.status == "running")
            if busy >= self.running:
                raise SearchesBusyError(f"{busy} searches are running, the most at once; stop one "
                                   "or wait for it")
            search = Search(secrets.token_hex(8), kind, seconds, dict(about or {}))
            while search.id in self._searches:
                search.id = secrets.token_hex(8)
            self._searches[search.id] = search
            self._forget()
        thread = threading.Thread(target=self._run, args=(search, work), daemon=True,
                                  name=f"rackety-{kind}-{search.id}")
        thread.start()
        return search

    def _forget(self) -> None:
        """Keep the latest `kept`: the oldest finished ones go first."""
        finished = [k for k, s in self._searches.items() if s.status != "running"]
        for k in finished[:max(0, len(self._searches) - self.kept)]:
            del self._searches[k]

    @staticmethod
    def _run(search: Search, work: Work) -> None:
        def progress(done: int, total: int, what: str) -> None:
            search.done, search.total, search.what = int(done), int(total), clip(what, 200)

        try:
            result = work(Control(stop=search.stop), progress)
            search.result = result
            search.status = "stopped" if search.stop.is_set() else "done"
        except RacketyError as exc:
            search.error, search.status = one_line(str(exc)), "failed"
        except Exception as exc:  # the server goes on; the search says it failed
            log.exception("search %s failed", search.id)
            search.error = one_line(f"the search failed: {type(exc).__name__}")
            search.status = "failed"
        finally:
            search.elapsed = time.monotonic() - search.started
            search.finished.set()

    def get(self, search_id: str) -> Search:
        with self._lock:
            search = self._searches.get(search_id)
        if search is None:
            raise SearchNotFoundError(f"search {clip(search_id, 40)}: no such search (finished "
                                 "ones are kept a while, the latest first)")
        return search

    def stop(self, search_id: str) -> Search:
        """Ask a search to stop (nothing for one that has finished)."""
        search = self.get(search_id)
        search.stop.set()
        return search

    def wait(self, search_id: str, timeout: float | None = None) -> Search:
        """The search once it has finished (or ``timeout`` seconds passed)."""
        search = self.get(search_id)
        search.finished.wait(timeout)
        return search
