"""Where a long run's tasks are played: a ``concurrent.futures`` executor, local or on a cluster.

:func:`local_pool` is the standard library's process pool (``--jobs N``); :func:`cluster` is a Dask
distributed cluster (``--cluster ADDRESS``, or ``local:N`` for a cluster of N worker processes on
this machine), imported only when asked for: the engine itself needs nothing outside the standard
library (``pip install "gongzhu[cluster]"`` adds Dask).  :func:`results` plays batches of tasks on
either, a bounded number in flight, and yields each batch's results as it ends.

A pool worker ignores Ctrl-C (the parent stops the run) and, told to stop (SIGTERM), kills the
outside bots it started and exits at once; leaving :func:`local_pool` by an error stops every
worker that way.  A Dask worker that dies has its tasks played again on another worker (Dask's own
retries): a task's result depends only on the task, so nothing changes.
"""

from __future__ import annotations

import concurrent.futures
import contextlib
import importlib
import itertools
import logging
import os
import signal
import sys
import time
import warnings
from collections.abc import Callable, Generator, Iterable, Iterator
from concurrent.futures import Executor, Future
from typing import IO, Any, TypeVar

from .agent import stop_running_bots

T = TypeVar("T")
R = TypeVar("R")

LOCAL_CLUSTER = "local:"  # ``--cluster local:N``: a LocalCluster of N worker processes
IN_FLIGHT = 4  # batches submitted per worker ahead of the results (memory stays bounded)
_GRACE = 5.0  # seconds a stopped pool worker gets to end before it is killed


#: Dask settings for workers of pure-Python tasks: no statistical profiler (it samples the task's
#: thread every 10 ms) and a slower event-loop tick, system monitor and memory monitor, so a
#: worker's own threads rarely take the GIL from its task (on a loaded machine each hand-over
#: waits for a CPU).
QUIET_WORKERS = {
    "DASK_DISTRIBUTED__WORKER__PROFILE__ENABLED": "False",
    "DASK_DISTRIBUTED__ADMIN__TICK__INTERVAL": "1s",
    "DASK_DISTRIBUTED__ADMIN__SYSTEM_MONITOR__INTERVAL": "5s",
    "DASK_DISTRIBUTED__WORKER__MEMORY__MONITOR_INTERVAL": "5s",
}


class ClusterUnavailable(RuntimeError):
    """``--cluster`` was asked for but Dask distributed is not installed, or the address is bad."""


def _stop_now(_signum: int, _frame: object) -> None:
    """A pool worker told to stop kills its bots' process groups and exits on the spot."""
    stop_running_bots(lambda: os._exit(1))


def _pool_worker_setup() -> None:
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, _stop_now)


@contextlib.contextmanager
def local_pool(jobs: int) -> Generator[Executor, None, None]:
    """A process pool of ``jobs`` workers; leaving the block by an exception (a task's error, Ctrl-C)
    stops every worker and its bots."""
    pool = concurrent.futures.ProcessPoolExecutor(jobs, initializer=_pool_worker_setup)
    try:
        yield pool
    except BaseException:
        processes = list(pool._processes.values())  # the standard pool cannot stop running tasks itself
        for process in processes:
            if process.exitcode is None:
                process.terminate()
        for process in processes:
            process.join(_GRACE)
            if process.exitcode is None:
                process.kill()
        pool.shutdown(wait=False, cancel_futures=True)
        raise
    else:
        pool.shutdown()


@contextlib.contextmanager
def cluster(address: str) -> Generator[Executor, None, None]:
    """An executor on the Dask cluster whose scheduler is at ``address``, or on a new LocalCluster of
    N worker processes for ``local:N``."""
    try:
        distributed: Any = importlib.import_module("distributed")  # untyped, and optional
    except ImportError as error:
        raise ClusterUnavailable(
            f"--cluster needs Dask distributed: pip install 'gongzhu[cluster]' ({error})"
        ) from None
    # a task's error reaches the caller as its exception: the workers' own reports of it, and of the
    # cancelled tasks when the run stops, would only repeat it (env: read by spawned workers at import)
    os.environ["DASK_LOGGING__DISTRIBUTED"] = "critical"
    for name, value in QUIET_WORKERS.items():  # read by the LocalCluster's workers as they start
        os.environ.setdefault(name, value)
    logging.getLogger("distributed").setLevel(logging.CRITICAL)
    local = None
    if address.startswith(LOCAL_CLUSTER):
        count = address[len(LOCAL_CLUSTER) :]
        if not count.isdigit() or int(count) < 1:
            raise ClusterUnavailable(f"--cluster {address!r}: expected local:N with N at least 1")
        with warnings.catch_warnings():  # "port 8787 is already in use": its HTTP server moves on
            warnings.simplefilter("ignore")
            local = distributed.LocalCluster(
                n_workers=int(count), threads_per_worker=1, processes=True, dashboard_address=None
            )
        client = distributed.Client(local)
    else:
        try:
            client = distributed.Client(address, timeout=30)
        except OSError as error:
            raise ClusterUnavailable(f"--cluster {address!r}: no scheduler answers ({error})") from None
    try:
        yield client.get_executor(pure=False)
    finally:
        client.close()
        if local is not None:
            local.close()


def worker_count(executor: Executor) -> int:
    """How many tasks ``executor`` runs at once (a Dask executor: its cluster's threads now)."""
    client: Any = getattr(executor, "_client", None)
    if client is not None:
        return max(1, sum(int(n) for n in client.nthreads().values()))
    return int(getattr(executor, "_max_workers", 1))


def batches(items: Iterable[T], size: int) -> Iterator[list[T]]:
    """``items`` in lists of ``size`` (the last one shorter), made as they are needed."""
    batch: list[T] = []
    for item in items:
        batch.append(item)
        if len(batch) == size:
            yield batch
            batch = []
    if batch:
        yield batch


def results(
    executor: Executor, play: Callable[[list[T]], list[R]], groups: Iterable[list[T]], workers: int
) -> Iterator[R]:
    """``play(group)``'s results for every group, run on ``executor`` with ``IN_FLIGHT`` groups per
    worker submitted at a time, in the order they end.  Nothing is cancelled here on leaving early:
    the executor's owner stops its workers (cancelling a pool's queued futures first races its
    manager thread on Python 3.11)."""
    pending: set[Future[list[R]]] = set()
    todo = iter(groups)
    for group in todo:
        pending.add(executor.submit(play, group))
        if len(pending) >= IN_FLIGHT * workers:
            break
    while pending:
        done, pending = concurrent.futures.wait(pending, return_when=concurrent.futures.FIRST_COMPLETED)
        for future in done:
            yield from future.result()
            for group in itertools.islice(todo, 1):
                pending.add(executor.submit(play, group))


class Progress:
    """A progress line on a terminal (``stream`` a TTY): items done, the rate, the time left."""

    def __init__(self, total: int, stream: IO[str] | None = None, every: float = 1.0) -> None:
        self.stream = stream if stream is not None else sys.stderr  # where the line is drawn
        self.shown = self.stream.isatty()  # only a terminal gets the line
        self.total = total  # items the run plays
        self.done = 0  # items played so far
        self.every = every  # seconds between two redraws
        self.start = time.monotonic()  # when the run started
        self.drawn = 0.0  # when the line was last drawn (0: never)

    def add(self, count: int = 1) -> None:
        self.done += count
        now = time.monotonic()
        if self.shown and (now - self.drawn >= self.every or self.done == self.total):
            self.drawn = now
            self.stream.write("\r" + self.line(now - self.start) + "\x1b[K")
            self.stream.flush()

    def line(self, seconds: float) -> str:
        """``done/total deals, rate/s, time left`` after ``seconds``."""
        rate = self.done / seconds if seconds > 0 else 0.0
        left = (self.total - self.done) / rate if rate > 0 else 0.0
        return f"{self.done}/{self.total} done, {rate:.1f}/s, {_duration(left)} left"

    def close(self) -> None:
        if self.shown and self.drawn:
            self.stream.write("\n")
            self.stream.flush()


def _duration(seconds: float) -> str:
    minutes, secs = divmod(int(seconds + 0.5), 60)
    hours, minutes = divmod(minutes, 60)
    return f"{hours}h{minutes:02d}m" if hours else f"{minutes}m{secs:02d}s"


__all__ = ["ClusterUnavailable", "Progress", "batches", "cluster", "local_pool", "results", "worker_count"]
