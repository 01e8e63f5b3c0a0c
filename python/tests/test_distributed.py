"""gamesearch.distributed on a local Ray cluster on loopback (`ray start --head`, stopped at
the end): the distributed value and best move equal the one-machine solver's on small boards at
several split depths; a worker killed (SIGKILL) in the middle of a task, and a driver killed and
started again with the same store, both end with the same answer and every job stored once."""

import json
import os
import secrets
import shutil
import signal
import socket
import sqlite3
import subprocess
import sys
import tempfile
import threading
import time

import pytest

# Ray's token authentication, with a token of the tests' own, in the environment that the head,
# this process and the drivers it starts share (set before Ray is imported: it reads them then).
os.environ["RAY_AUTH_MODE"] = "token"
os.environ["RAY_AUTH_TOKEN"] = secrets.token_hex(32)

import ray  # noqa: E402

import gamesearch as gs  # noqa: E402
import gamesearch.distributed as gd  # noqa: E402

RAY = shutil.which("ray") or os.path.join(os.path.dirname(sys.executable), "ray")


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture(scope="module")
def cluster():
    """A Ray head with two CPUs on this machine (`ray start --head --block` in a session of its
    own, so that the end of the tests stops this cluster and no other); this process joins it as
    a driver."""
    port = free_port()
    temp = tempfile.mkdtemp(prefix="ray")  # short: Ray's sockets live under it
    head = subprocess.Popen(
        [RAY, "start", "--head", "--block", f"--port={port}", "--num-cpus=2", "--include-dashboard=false",
         "--disable-usage-stats", f"--temp-dir={temp}"],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True,
    )
    address = f"127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 60
        while True:  # until the head answers
            try:
                with socket.create_connection(("127.0.0.1", port), timeout=1):
                    break
            except OSError:
                assert head.poll() is None and time.monotonic() < deadline, "ray start failed"
                time.sleep(0.2)
        ray.init(address=address, log_to_driver=False, configure_logging=False)
        yield address
    finally:
        ray.shutdown()
        os.killpg(head.pid, signal.SIGINT)  # as Ctrl-C on `ray start --block`
        try:
            head.wait(timeout=10)
        except subprocess.TimeoutExpired:
            pass
        try:
            os.killpg(head.pid, signal.SIGKILL)  # whatever of the group is left
        except ProcessLookupError:
            pass
        head.wait()
        shutil.rmtree(temp, ignore_errors=True)


def rows(store):
    """(rows, distinct keys) in a store file ((0, 0) before the driver has made it)."""
    if not os.path.exists(store):
        return (0, 0)
    with sqlite3.connect(store) as db:
        try:
            return db.execute("SELECT COUNT(*), COUNT(DISTINCT key) FROM jobs").fetchone()
        except sqlite3.OperationalError:  # the driver has opened the file, not yet made the table
            return (0, 0)


@pytest.mark.parametrize("master", ["pn", "full"])
@pytest.mark.parametrize(
    "game, plies",
    [("connect4:5x4", 2), ("connect4:5x4", 4), ("connect4:6x4", 3), ("connect4:6x5", 2),
     ("connect4:7x4", 3), ("kalah:4,3", 2), ("kalah:4,3", 4), ("kalah:5,2", 3)],
)
def test_distributed_equals_one_machine(cluster, game, plies, master, tmp_path):
    store = str(tmp_path / "jobs.sqlite")
    r = gd.solve(game, split_plies=plies, store=store, master=master, tt_mb=16, progress=False)
    want = gs.solve(game, tt_mb=16)
    assert r.value == want.value
    assert r.jobs == len(gs.split(game, plies).jobs) and r.jobs_reused == 0
    stored = rows(store)
    assert stored[0] == stored[1] <= r.jobs
    if master == "full":
        assert r.jobs_solved == r.jobs == stored[0]
    # The best move keeps the value.
    assert gs.solve(gs.Game(game).play(r.best_move), tt_mb=16).value == want.value
    # Again with the same store: nothing run, the same answer.
    again = gd.solve(game, split_plies=plies, store=store, master=master, tt_mb=16, progress=False)
    assert (again.value, again.best_move, again.jobs_solved) == (r.value, r.best_move, 0)
    assert again.jobs_reused == stored[0]
    # The store as an opening book: the root answered from it (every job exact: "full") or
    # searched with it (mostly bounds: "pn"); the same value either way.
    book = gd.export_book(str(tmp_path / "b.book"), game=game, split_plies=plies, store=store)
    with_book = gs.solve(game, tt_mb=16, book=book)
    assert with_book.value == want.value
    if master == "full":
        assert with_book.from_book and len(book) == book.exact > r.jobs


def test_the_pn_master_asks_fewer_jobs_than_the_full_split(cluster):
    pn = gd.solve("connect4:6x5", split_plies=4, tt_mb=16, progress=False)
    full = gd.solve("connect4:6x5", split_plies=4, master="full", tt_mb=16, progress=False)
    assert pn.value == full.value == 0
    assert pn.jobs_solved < full.jobs_solved / 2 and pn.nodes < full.nodes / 2
    assert pn.tests >= 1


def test_batches_and_a_store_in_memory(cluster):
    r = gd.solve("connect4:5x4", split_plies=3, master="full", jobs_per_task=7, tt_mb=16, progress=False)
    assert r.value == gs.solve("connect4:5x4").value
    assert r.jobs_solved == r.jobs and r.store == ":memory:"


def test_bad_arguments_are_errors(cluster):
    with pytest.raises(gs.GameSearchError, match="only kalah, tictactoe, connect4, othello, domineering and hex"):
        gd.solve("random:b=2,h=3,seed=1", split_plies=1)
    with pytest.raises(gs.GameSearchError, match="at least"):
        gd.solve("connect4:5x4", split_plies=2, jobs_per_task=0)
    with pytest.raises(gs.GameSearchError, match="expected 'pn' or 'full'"):
        gd.solve("connect4:5x4", split_plies=2, master="best")
    with pytest.raises(ValueError, match="more than 10 jobs"):
        gd.solve("connect4:7x6", split_plies=3, max_jobs=10)


# A workload of a few seconds on two CPUs: 330 jobs of 1-100 ms (the full master), or about a
# hundred null-window answers (the pn master).
WORK = ("connect4:6x5", 4)


def test_a_worker_killed_mid_task_loses_only_its_task(cluster, tmp_path):
    store = str(tmp_path / "jobs.sqlite")
    want = gs.solve(WORK[0]).value
    out = {}

    def drive():
        out["r"] = gd.solve(WORK[0], split_plies=WORK[1], store=store, master="full", jobs_per_task=10, tt_mb=16,
                            progress=False)

    t = threading.Thread(target=drive)
    t.start()
    killed = None
    deadline = time.monotonic() + 120
    while killed is None and t.is_alive() and time.monotonic() < deadline:
        # A worker process in the middle of a task has the task's name as its title.
        ps = subprocess.run(["ps", "-eo", "pid=,args="], capture_output=True, text=True).stdout
        busy = [int(line.split()[0]) for line in ps.splitlines() if "ray::_solve_jobs" in line]
        if busy and rows(store)[0] >= 20:
            killed = busy[0]
            os.kill(killed, signal.SIGKILL)
        time.sleep(0.02)
    t.join(timeout=300)
    assert killed is not None, "no worker was caught in the middle of a task"
    r = out["r"]
    assert r.value == want
    assert r.jobs_solved == r.jobs  # the killed task ran again; its jobs are counted once
    assert rows(store) == (r.jobs, r.jobs)


DRIVER = """
import sys, gamesearch.distributed as gd
r = gd.solve(sys.argv[1], split_plies=int(sys.argv[2]), address=sys.argv[3], store=sys.argv[4],
             master=sys.argv[5], tt_mb=16, progress=False)
print(r.value, r.best_move, r.jobs, r.jobs_solved, r.jobs_reused)
"""


@pytest.mark.parametrize("master", ["pn", "full"])
def test_a_driver_killed_and_restarted_resumes(cluster, tmp_path, master):
    store = str(tmp_path / "jobs.sqlite")
    args = [sys.executable, "-c", DRIVER, WORK[0], str(WORK[1]), cluster, store, master]
    first = subprocess.Popen(args, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline and first.poll() is None:
        if rows(store)[0] >= 30:
            break
        time.sleep(0.02)
    assert first.poll() is None, "the driver finished before it could be killed"
    first.kill()
    first.wait()
    stored = rows(store)[0]
    assert 30 <= stored
    second = subprocess.run(args, capture_output=True, text=True, timeout=300)
    assert second.returncode == 0, second.stderr[-2000:]
    value, best, jobs, solved, reused = second.stdout.split()
    assert int(value) == gs.solve(WORK[0]).value
    jobs, solved, reused = int(jobs), int(solved), int(reused)
    # What the first driver stored is reused, nothing is stored twice; the full master
    # solves exactly the rest.
    assert reused >= stored
    assert rows(store)[0] == rows(store)[1]
    if master == "full":
        assert solved + reused == jobs and rows(store) == (jobs, jobs)


def test_split_in_one_process_agrees_with_the_command_line():
    # The binary `cargo test --release` built (./test.sh runs it first), else `cargo run`.
    root = os.path.join(os.path.dirname(__file__), "..", "..")
    exe = os.path.join(root, "target", "release", "gamesearch")
    cmd = [exe] if os.path.exists(exe) else ["cargo", "run", "--release", "-q", "--"]
    for game, plies in [("connect4:7x6:44", 3), ("kalah:4,3", 3), ("tictactoe", 2)]:
        s = gs.split(game, plies)
        out = subprocess.run(cmd + ["split", game, "--plies", str(plies), "-q"], capture_output=True,
                             text=True, check=True, cwd=root).stdout
        assert [gs.Job(**json.loads(line)) for line in out.splitlines()] == s.jobs
    # Solved in turn, combined: the one-piece value; a job with another's key is refused.
    s = gs.split("kalah:4,3", 3)
    solver = gs.Solver(tt_mb=16)
    results = [gs.solve_job(j, solver=solver) for j in s.jobs]
    assert s.combine(results).value == gs.solve("kalah:4,3").value
    assert s.combine(results[1:]).value is None and s.combine(results[1:]).missing >= 1
    with pytest.raises(gs.GameSearchError, match="has the key"):
        gs.solve_job(gs.Job(s.jobs[0].key, s.jobs[1].game))


def test_without_ray_the_error_says_what_to_install(monkeypatch):
    monkeypatch.setitem(sys.modules, "ray", None)  # `import ray` now fails
    with pytest.raises(ImportError, match="pip install ray"):
        gd.solve("connect4:5x4", split_plies=2)


def test_docstring_examples(cluster, monkeypatch, tmp_path):
    """The module's examples (every public name: solve, DistributedSolution, Store,
    export_book) run as written on the cluster."""
    import doctest

    monkeypatch.chdir(tmp_path)
    failures, tried = doctest.testmod(gd)
    assert failures == 0 and tried >= 10
    for name in gd.__all__:
        assert name in (gd.__doc__ or "") + (gd.Store.__doc__ or ""), f"no example of {name}"

