"""An exact solve spread over many machines with Ray: job-level search.

The driver splits the position at `split_plies` (`gamesearch.split`) and runs the jobs as Ray
tasks, each with the Rust solver and a table of its own (kept from task to task in the same
worker process). Ray schedules, retries a task whose worker died, and moves the data; gamesearch
solves and combines. Two masters:

- `master="pn"` (the default), job-level proof-number search (Wu et al.): the root's value is
  found by null-window tests as MTD(f) finds it ("is it at least v?"), each answered by asking
  jobs the same question — one null-window solve each, far cheaper than an exact value —
  most-proving jobs first; a job whose answer can no longer matter gives its place to one that
  does. Most jobs are never asked (Connect-Four 7x5 split at ply 4: about 180 answers from 568
  jobs).
- `master="full"`: every job solved exactly (a complete table of the frontier: what an opening
  book is built from).

Every answer goes to a **store** the moment its task is done: one SQLite file (WAL mode) with a
row per job — the bounds proven on its value (equal when exact), its best move, nodes, seconds,
the worker — bounds only ever narrowed. What is in the store is never asked again, so a driver
stopped (Ctrl-C, a crash, SIGKILL) and started again with the same store resumes where it
stopped, and a worker killed in the middle of a task loses only that task.

    >>> import os, tempfile
    >>> import gamesearch as gs
    >>> import gamesearch.distributed as gd
    >>> store = os.path.join(tempfile.mkdtemp(), "c4.sqlite")
    >>> r = gd.solve("connect4:5x4", split_plies=2, store=store, tt_mb=16, progress=False)
    >>> isinstance(r, gd.DistributedSolution), r.value == gs.solve("connect4:5x4").value
    (True, True)
    >>> again = gd.solve("connect4:5x4", split_plies=2, store=store, tt_mb=16, progress=False)
    >>> again.jobs_solved, again.jobs_reused > 0                 # everything from the store
    (0, True)
    >>> book = gd.export_book(os.path.join(os.path.dirname(store), "c4.book"), game="connect4:5x4",
    ...                       split_plies=2, store=store)
    >>> book.lookup(gs.Game("connect4:5x4"))[0] <= r.value <= book.lookup(gs.Game("connect4:5x4"))[1]
    True

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

__all__ = ["DistributedSolution", "Store", "export_book", "solve"]


@dataclass(frozen=True)
class DistributedSolution:
    """The root's exact value (MAX's view) and best move; the split's jobs; the answers this
    call ran (`jobs_solved`) and the jobs whose answers it found in the store (`jobs_reused`);
    the root's null-window tests (`master="pn"`); the jobs' nodes and core-seconds as the store
    has them, and this call's wall time."""

    value: int
    best_move: Optional[str]
    jobs: int
    jobs_solved: int
    jobs_reused: int
    tests: int
    nodes: int
    job_seconds: float
    seconds: float
    store: str


class Store:
    """Jobs' answers in one SQLite file (WAL mode), a row per job: the bounds proven on its
    value (equal when exact), best move, nodes and seconds (summed over its answers), the
    worker and time of the last. `":memory:"` keeps nothing after the process.

    >>> s = Store()
    >>> s.add([("connect4:5x4/1", 0, 2, "3", 100, 0.5, "w1"), ("connect4:5x4/1", -1, 0, None, 50, 0.2, "w2")])
    >>> s.bounds(["connect4:5x4/1"]), s.values(["connect4:5x4/1"]), s.totals(["connect4:5x4/1"]), len(s)
    ({'connect4:5x4/1': (0, 0)}, {'connect4:5x4/1': 0}, (150, 0.7), 1)
    """

    COLUMNS = ["key", "lower", "upper", "best_move", "nodes", "seconds", "worker", "finished"]

    def __init__(self, path: str = ":memory:"):
        self.path = path
        self._db = sqlite3.connect(path, timeout=60)
        if path != ":memory:":
            self._db.execute("PRAGMA journal_mode=WAL")
        self._db.execute(
            "CREATE TABLE IF NOT EXISTS jobs (key TEXT PRIMARY KEY, lower INTEGER NOT NULL, "
            "upper INTEGER NOT NULL, best_move TEXT, nodes INTEGER NOT NULL, seconds REAL NOT NULL, "
            "worker TEXT, finished REAL NOT NULL)"
        )
        self._db.commit()
        columns = [r[1] for r in self._db.execute("PRAGMA table_info(jobs)")]
        if columns != self.COLUMNS:
            self._db.close()
            raise gs.GameSearchError(f"{path}: not a store of gamesearch.distributed (columns {columns})")

    def bounds(self, keys: Iterable[str]) -> Dict[str, Tuple[int, int]]:
        """The stored bounds of those of `keys` the store has."""
        wanted = set(keys)
        rows = self._db.execute("SELECT key, lower, upper FROM jobs")
        return {k: (lo, hi) for k, lo, hi in rows if k in wanted}

    def answers(self, keys: Iterable[str]) -> Dict[str, Tuple[int, int, Optional[str]]]:
        """(lower, upper, best move) of those of `keys` the store has."""
        wanted = set(keys)
        rows = self._db.execute("SELECT key, lower, upper, best_move FROM jobs")
        return {k: (lo, hi, best) for k, lo, hi, best in rows if k in wanted}

    def values(self, keys: Iterable[str]) -> Dict[str, int]:
        """The exact values of those of `keys` the store has one for."""
        return {k: lo for k, (lo, hi) in self.bounds(keys).items() if lo == hi}

    def add(self, rows: Sequence[Tuple[str, int, int, Optional[str], int, float, str]]) -> None:
        """Stores answers (key, lower, upper, best move, nodes, seconds, worker) in one
        transaction: a new job gets a row, a known one narrower bounds (never wider)."""
        now = time.time()
        with self._db:
            self._db.executemany(
                "INSERT INTO jobs VALUES (?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT(key) DO UPDATE SET "
                "lower = max(lower, excluded.lower), upper = min(upper, excluded.upper), "
                "best_move = coalesce(excluded.best_move, best_move), nodes = nodes + excluded.nodes, "
                "seconds = seconds + excluded.seconds, worker = excluded.worker, finished = excluded.finished",
                [(*r, now) for r in rows],
            )

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


def _solve_jobs(jobs: List[Tuple[str, str, Optional[Tuple[int, int]]]], tt_mb: int, threads: int) -> List[tuple]:
    """A task: solves `jobs` (key, game, window or None) in turn; their answers as the store's
    rows."""
    solver = _SOLVERS.get((tt_mb, threads))
    if solver is None:
        solver = _SOLVERS[(tt_mb, threads)] = gs.Solver(tt_mb=tt_mb, threads=threads)
    worker = f"{socket.gethostname()}:{os.getpid()}"
    out = []
    for key, game, window in jobs:
        r = gs.solve_job(gs.Job(key, game), solver=solver, window=window)
        out.append((r.key, r.lower, r.upper, r.best_move, r.nodes, r.seconds, worker))
    return out


class _Progress:
    """jobs done/total, rate and ETA on one line of stderr (when it is a terminal)."""

    def __init__(self, total: int, show: bool, unit: str = "jobs"):
        self.total, self.done, self.start, self.unit = total, 0, time.monotonic(), unit
        self.show = show and sys.stderr.isatty()

    def add(self, n: int) -> None:
        self.done += n
        if not self.show:
            return
        elapsed = time.monotonic() - self.start
        rate = self.done / elapsed if elapsed > 0 else 0.0
        eta = (self.total - self.done) / rate if rate > 0 else float("inf")
        eta_s = f"{eta:.0f} s" if eta != float("inf") else "?"
        if self.unit == "jobs":
            line = f"jobs {self.done}/{self.total} ({100 * self.done / max(self.total, 1):.1f} %), ETA {eta_s}"
        else:  # the master asks as many as it needs: no total to reach
            line = f"{self.unit} {self.done} (of {self.total} jobs in the split)"
        sys.stderr.write(f"\r{line}, {rate:.1f} {self.unit}/s   ")
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
    master: str = "pn",
    guess: int = 0,
    tt_mb: int = 64,
    threads_per_task: int = 1,
    jobs_per_task: int = 1,
    max_retries: int = 3,
    max_jobs: int = 10_000_000,
    progress: bool = True,
) -> DistributedSolution:
    """Solves `game` (a Connect-Four, Kalah or tic-tac-toe spec) exactly on a Ray cluster.

    - `split_plies`: the jobs are the positions that many moves below (see `gamesearch.split`).
    - `master`: `"pn"` asks jobs only what the root needs, most-proving first, its first test
      at `guess`; `"full"` solves every job exactly (`jobs_per_task` batches them).
    - `address`: None starts a local Ray (or uses the one this process already joined),
      `"auto"` joins the cluster `ray start` made on this machine, `"ray://host:10001"` a remote
      one.
    - `store`: the SQLite file answers go to as each task finishes; what is in it is not asked
      again (`":memory:"`: nothing kept).
    - `tt_mb`, `threads_per_task`: each task's solver (its table kept between the tasks a worker
      runs); `max_retries`: Ray's retries of a task whose worker died.

    Ctrl-C raises KeyboardInterrupt (Ray drops a gone driver's tasks); what finished is in the
    store.
    """
    try:
        import ray
    except ImportError as e:
        raise ImportError("gamesearch.distributed runs on Ray: pip install ray (or ./python[distributed])") from e

    start = time.monotonic()
    if master not in ("pn", "full"):
        raise gs.GameSearchError(f"master {master!r}: expected 'pn' or 'full'")
    if split_plies < 0 or jobs_per_task < 1 or threads_per_task < 1 or max_retries < 0:
        raise gs.GameSearchError(
            "split_plies and max_retries must be at least 0, jobs_per_task and threads_per_task at least 1"
        )
    plan = gs.split(game, split_plies, max_jobs=max_jobs)
    keys = [j.key for j in plan.jobs]
    db = Store(store)
    started_here = False
    try:
        # What the store already knows: bounds for the pn master, exact values for the full one.
        known = db.bounds(keys) if master == "pn" else db.values(keys)
        if not ray.is_initialized():
            ray.init(address=address, include_dashboard=False, log_to_driver=False, configure_logging=False)
            started_here = True
        run = _Run(ray, db, tt_mb, threads_per_task, max_retries, progress)
        if master == "full":
            run.full([(j.key, j.game, None) for j in plan.jobs if j.key not in known], jobs_per_task)
            c = plan.combine(db.values(keys))
            value, best, tests = c.value, c.best_move, 0
            if value is None:
                raise gs.GameSearchError(f"{c.missing} jobs have no result: the root's value waits for them")
        else:
            value, best, tests = run.pn(plan, known, guess)
        nodes, job_seconds = db.totals(keys)
        return DistributedSolution(
            value=value,
            best_move=best,
            jobs=len(plan.jobs),
            jobs_solved=run.answers,
            jobs_reused=len(known),
            tests=tests,
            nodes=nodes,
            job_seconds=job_seconds,
            seconds=time.monotonic() - start,
            store=store,
        )
    finally:
        db.close()
        if started_here:
            ray.shutdown()


def export_book(path: str, *, game: str, split_plies: int, store: str, max_jobs: int = 10_000_000) -> "gs.Book":
    """Writes the store of a solve of `game` split at `split_plies` as an opening book to
    `path` (for `gamesearch.solve(..., book=path)`, `Engine(..., book=path)`, `gamesearch solve
    --book`) and returns it: every stored job and every position above them whose value the
    stored answers prove or bound. A store of `master="full"` gives every position of the top
    tree exactly; one of `master="pn"` mostly bounds, which a search still uses."""
    plan = gs.split(game, split_plies, max_jobs=max_jobs)
    db = Store(store)
    try:
        answers = db.answers(j.key for j in plan.jobs)
    finally:
        db.close()
    return plan.book(answers, path, source=f"{game} split at ply {split_plies}, store {os.path.basename(store)}")


class _Run:
    """Tasks in flight on Ray, their answers stored as they finish."""

    def __init__(self, ray, db, tt_mb, threads, max_retries, progress):
        self.ray, self.db, self.tt_mb, self.threads = ray, db, tt_mb, threads
        self.task = ray.remote(_solve_jobs).options(num_cpus=threads, max_retries=max_retries)
        # Keep the cluster busy but the queue short: little left running after Ctrl-C, and the
        # master chooses each job with the latest answers.
        self.window = max(2, 2 * int(ray.cluster_resources().get("CPU", 1)) // threads)
        self.progress, self.answers = progress, 0

    def submit(self, jobs):
        return self.task.remote(jobs, self.tt_mb, self.threads)

    def finished(self, pending):
        """Waits for one task of `pending` (ref → anything), stores its rows; (ref, rows)."""
        ready, _ = self.ray.wait(list(pending), num_returns=1)
        ref = ready[0]
        rows = self.ray.get(ref)
        self.db.add(rows)
        self.answers += len(rows)
        return ref, rows

    def full(self, todo, per_task):
        """Every job of `todo` solved exactly, `per_task` to a task."""
        batches = [todo[i : i + per_task] for i in range(0, len(todo), per_task)]
        bar = _Progress(len(todo), self.progress)
        pending, next_batch = {}, 0
        try:
            while pending or next_batch < len(batches):
                while next_batch < len(batches) and len(pending) < self.window:
                    pending[self.submit(batches[next_batch])] = None
                    next_batch += 1
                ref, rows = self.finished(pending)
                del pending[ref]
                bar.add(len(rows))
        finally:
            bar.finish()

    def pn(self, plan, known, guess):
        """Job-level proof-number search: (value, best move, tests).

        A job the master no longer needs is not cancelled (`ray.cancel` of a task that is
        finishing crashed the driver's core worker here, Ray 2.60: "Tried to complete task that
        was not pending"): its slot goes to a job that matters, and its answer, when it comes,
        is stored and recorded like any other."""
        m = plan._s.master(guess)
        index = {j.key: i for i, j in enumerate(plan.jobs)}
        for key, (lo, hi) in known.items():
            m.record(index[key], lo, hi)
        pending = {}  # ref -> [job index, still needed]
        bar = _Progress(len(plan.jobs), self.progress, unit="answers")
        try:
            while True:
                value, _, tests, best = m.state()
                if value is not None:
                    return value, best, tests  # what is still out finishes on its own
                live = sum(1 for _, needed in pending.values() if needed)
                for i, v in m.next_jobs(self.window - live):
                    j = plan.jobs[i]
                    pending[self.submit([(j.key, j.game, (v - 1, v))])] = [i, True]
                if not pending:
                    raise gs.GameSearchError(f"no job left to ask and the root's value unknown: {m.state()}")
                ref, rows = self.finished(pending)
                i, _ = pending.pop(ref)
                for _, lower, upper, *_ in rows:
                    m.record(i, lower, upper)
                bar.add(1)
                needless = set(m.needless())
                for entry in pending.values():
                    if entry[0] in needless:
                        entry[1] = False
        finally:
            bar.finish()
