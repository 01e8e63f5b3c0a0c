"""An exact solve spread over many machines with Ray: job-level search.

The driver splits the position at `split_plies` (`gamesearch.split`), submits each job — or a
batch of jobs — as a Ray task that runs the Rust solver with a table of its own (kept from job to
job in the same worker process), writes each result to a **store** the moment its task is done,
and backs the values up to the root. Ray schedules, retries a task whose worker died, and moves
the data; gamesearch solves and combines.

The store is one SQLite file (WAL mode), keyed by the job's key: a job found there is never run
again, so a driver stopped (Ctrl-C, a crash, SIGKILL) and started again with the same store
resumes where it stopped, and a worker killed in the middle of a job loses only its task's jobs.
Results are written once (`INSERT OR IGNORE`): none is lost or counted twice.

    >>> import gamesearch.distributed as gd                      # doctest: +SKIP
    >>> r = gd.solve("connect4:6x5", split_plies=4, store="c4.sqlite")   # doctest: +SKIP
    >>> r.value, r.best_move, r.jobs_solved, r.jobs_reused       # doctest: +SKIP
    (0, '3', 567, 0)

On a cluster: `ray start --head` on one machine, `ray start --address HEAD:6379` on the others,
then `solve(..., address="auto")` on the head (every machine needs `pip install ./python ray`).
"""

import os
import socket
import sqlite3
import sys
import time
from dataclasses import dataclass
from typing import Dict, Iterable, List, Optional, Sequence, Tuple

import gamesearch as gs

__all__ = ["DistributedSolution", "Store", "solve"]


@dataclass(frozen=True)
class DistributedSolution:
    """The root's exact value (MAX's view) and best move; the split's jobs, how many this call
    ran and how many it found in the store; the jobs' nodes and core-seconds (as the store has
    them) and this call's wall time."""

    value: int
    best_move: Optional[str]
    jobs: int
    jobs_solved: int
    jobs_reused: int
    nodes: int
    job_seconds: float
    seconds: float
    store: str


class Store:
    """Solved jobs in one SQLite file (WAL mode): key, value, best move, nodes, seconds, the
    worker that solved it and when. `":memory:"` keeps nothing after the process."""

    def __init__(self, path: str = ":memory:"):
        self.path = path
        self._db = sqlite3.connect(path, timeout=60)
        if path != ":memory:":
            self._db.execute("PRAGMA journal_mode=WAL")
        self._db.execute(
            "CREATE TABLE IF NOT EXISTS jobs (key TEXT PRIMARY KEY, value INTEGER NOT NULL, "
            "best_move TEXT, nodes INTEGER NOT NULL, seconds REAL NOT NULL, worker TEXT, "
            "finished REAL NOT NULL)"
        )
        self._db.commit()

    def values(self, keys: Iterable[str]) -> Dict[str, int]:
        """The stored values of those of `keys` the store has."""
        wanted = set(keys)
        rows = self._db.execute("SELECT key, value FROM jobs")
        return {k: v for k, v in rows if k in wanted}

    def add(self, results: Sequence[Tuple[str, int, Optional[str], int, float, str]]) -> int:
        """Stores results (key, value, best move, nodes, seconds, worker) in one transaction;
        a key already there is left as it is. Returns how many were new."""
        now = time.time()
        with self._db:
            before = self._db.total_changes
            self._db.executemany(
                "INSERT OR IGNORE INTO jobs VALUES (?, ?, ?, ?, ?, ?, ?)",
                [(*r, now) for r in results],
            )
            return self._db.total_changes - before

    def totals(self, keys: Iterable[str]) -> Tuple[int, float]:
        """Nodes and seconds of the stored jobs among `keys`."""
        wanted = set(keys)
        nodes, seconds = 0, 0.0
        for k, n, s in self._db.execute("SELECT key, nodes, seconds FROM jobs"):
            if k in wanted:
                nodes, seconds = nodes + n, seconds + s
        return nodes, seconds

    def __len__(self) -> int:
        return self._db.execute("SELECT COUNT(*) FROM jobs").fetchone()[0]

    def close(self) -> None:
        self._db.close()


# The worker side: one Solver per worker process and settings, its table kept between tasks.
_SOLVERS: Dict[Tuple[int, int], "gs.Solver"] = {}


def _solve_jobs(jobs: List[Tuple[str, str]], tt_mb: int, threads: int) -> List[tuple]:
    """A task: solves `jobs` (key, game) in turn; their results as the store's rows."""
    solver = _SOLVERS.get((tt_mb, threads))
    if solver is None:
        solver = _SOLVERS[(tt_mb, threads)] = gs.Solver(tt_mb=tt_mb, threads=threads)
    worker = f"{socket.gethostname()}:{os.getpid()}"
    out = []
    for key, game in jobs:
        r = gs.solve_job(gs.Job(key, game), solver=solver)
        out.append((r.key, r.value, r.best_move, r.nodes, r.seconds, worker))
    return out


class _Progress:
    """jobs done/total, rate and ETA on one line of stderr (when it is a terminal)."""

    def __init__(self, total: int, show: bool):
        self.total, self.done, self.start = total, 0, time.monotonic()
        self.show = show and sys.stderr.isatty()

    def add(self, n: int) -> None:
        self.done += n
        if not self.show:
            return
        elapsed = time.monotonic() - self.start
        rate = self.done / elapsed if elapsed > 0 else 0.0
        eta = (self.total - self.done) / rate if rate > 0 else float("inf")
        eta_s = f"{eta:.0f} s" if eta != float("inf") else "?"
        sys.stderr.write(
            f"\rjobs {self.done}/{self.total} ({100 * self.done / max(self.total, 1):.1f} %), "
            f"{rate:.1f} jobs/s, ETA {eta_s}   "
        )
        sys.stderr.flush()

    def finish(self) -> None:
        if self.show:
            sys.stderr.write("\n")


def solve(
    game: str,
    *,
    split_plies: int,
    address: Optional[str] = None,
    store: str = ":memory:",
    tt_mb: int = 64,
    threads_per_task: int = 1,
    jobs_per_task: int = 1,
    max_retries: int = 3,
    max_jobs: int = 10_000_000,
    progress: bool = True,
) -> DistributedSolution:
    """Solves `game` (a Connect-Four, Kalah or tic-tac-toe spec) exactly on a Ray cluster.

    - `split_plies`: the jobs are the positions that many moves below (see `gamesearch.split`).
    - `address`: None starts a local Ray (or uses the one this process already joined),
      `"auto"` joins the cluster `ray start` made on this machine, `"ray://host:10001"` a remote
      one.
    - `store`: the SQLite file results go to as each task finishes; jobs already in it are not
      run again (`":memory:"`: nothing kept).
    - `tt_mb`, `threads_per_task`: each task's solver (its table is kept between the tasks a
      worker runs); `jobs_per_task` batches small jobs; `max_retries`: Ray's retries of a task
      whose worker died.

    Ctrl-C cancels what is in flight and raises KeyboardInterrupt; what finished is in the store.
    """
    import ray

    start = time.monotonic()
    if split_plies < 0 or jobs_per_task < 1 or threads_per_task < 1 or max_retries < 0:
        raise gs.GameSearchError(
            "split_plies and max_retries must be at least 0, jobs_per_task and threads_per_task at least 1"
        )
    plan = gs.split(game, split_plies, max_jobs=max_jobs)
    keys = [j.key for j in plan.jobs]
    db = Store(store)
    try:
        done = db.values(keys)
        todo = [(j.key, j.game) for j in plan.jobs if j.key not in done]
        reused = len(plan.jobs) - len(todo)
        solved = 0
        if todo:
            solved = _run(ray, todo, db, address, tt_mb, threads_per_task, jobs_per_task, max_retries, progress)
        values = db.values(keys)
        c = plan.combine(values)
        if c.value is None:
            raise gs.GameSearchError(f"{c.missing} jobs have no result: the root's value waits for them")
        nodes, job_seconds = db.totals(keys)
        return DistributedSolution(
            value=c.value,
            best_move=c.best_move,
            jobs=len(plan.jobs),
            jobs_solved=solved,
            jobs_reused=reused,
            nodes=nodes,
            job_seconds=job_seconds,
            seconds=time.monotonic() - start,
            store=store,
        )
    finally:
        db.close()


def _run(ray, todo, db, address, tt_mb, threads, per_task, max_retries, progress) -> int:
    """Runs the jobs `todo` on Ray, storing each task's results as it finishes; returns how
    many results were new to the store."""
    started_here = not ray.is_initialized()
    if started_here:
        ray.init(address=address, include_dashboard=False, log_to_driver=False, configure_logging=False)
    task = ray.remote(_solve_jobs).options(num_cpus=threads, max_retries=max_retries)
    batches = [todo[i : i + per_task] for i in range(0, len(todo), per_task)]
    # Keep the cluster busy but the queue short, so that Ctrl-C has little to cancel.
    window = max(2, 2 * int(ray.cluster_resources().get("CPU", 1)) // threads)
    bar = _Progress(len(todo), progress)
    pending, next_batch, new = [], 0, 0
    try:
        while pending or next_batch < len(batches):
            while next_batch < len(batches) and len(pending) < window:
                pending.append(task.remote(batches[next_batch], tt_mb, threads))
                next_batch += 1
            ready, pending = ray.wait(pending, num_returns=1)
            for ref in ready:
                rows = ray.get(ref)
                new += db.add(rows)
                bar.add(len(rows))
    except BaseException:
        for ref in pending:
            ray.cancel(ref, force=True)
        raise
    finally:
        bar.finish()
        if started_here:
            ray.shutdown()
    return new
