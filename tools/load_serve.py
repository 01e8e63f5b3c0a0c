#!/usr/bin/env python3
"""Load test of `gamesearch serve` on loopback (Python's standard library only).

Starts the server, then CLIENTS threads ask /api/analyse of random Connect-Four 7x6 positions
(seeded openings of 6 to 16 plies) for SECONDS, each waiting for its answer before asking again,
while one more thread asks a simple request (/api/legal) every 0.25 s to see that the server
still answers during the load. Prints requests/s, latency percentiles, 503s (the queue was full:
by design, not an error), errors, the simple request's latency and the server's peak memory.

    tools/load_serve.py [--bin target/release/gamesearch] [--clients 16] [--seconds 30]
                        [--time 0.5] [--queue 8] [--seed 1] [--json]
"""

import argparse
import json
import random
import statistics
import subprocess
import threading
import time
import urllib.error
import urllib.request


def opening(rng, width=7, height=6):
    """A random move string of 6 to 16 plies that ends no game (a move that would connect four
    is left out, and the opening ends there)."""
    grid = [[0] * height for _ in range(width)]
    heights = [0] * width
    moves = []

    def wins(c, r, who):
        for dc, dr in ((1, 0), (0, 1), (1, 1), (1, -1)):
            n = 1
            for s in (1, -1):
                cc, rr = c + s * dc, r + s * dr
                while 0 <= cc < width and 0 <= rr < height and grid[cc][rr] == who:
                    n, cc, rr = n + 1, cc + s * dc, rr + s * dr
            if n >= 4:
                return True
        return False

    for ply in range(rng.randint(6, 16)):
        col = rng.choice([c for c in range(width) if heights[c] < height])
        who = 1 + ply % 2
        if wins(col, heights[col], who):
            break
        grid[col][heights[col]] = who
        heights[col] += 1
        moves.append(str(col + 1))
    return "".join(moves)


def get(base, path, timeout=60):
    """(status, seconds, body)."""
    start = time.perf_counter()
    try:
        with urllib.request.urlopen(base + path, timeout=timeout) as r:
            body = r.read()
            return r.status, time.perf_counter() - start, body
    except urllib.error.HTTPError as e:
        return e.code, time.perf_counter() - start, e.read()
    except Exception as e:  # refused, reset, timed out
        return None, time.perf_counter() - start, str(e).encode()


def pct(xs, p):
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(p / 100 * len(xs)))] if xs else float("nan")


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--bin", default="target/release/gamesearch")
    ap.add_argument("--clients", type=int, default=16)
    ap.add_argument("--seconds", type=float, default=30)
    ap.add_argument("--time", type=float, default=0.5, help="each analysis's budget, seconds")
    ap.add_argument("--queue", type=int, default=8)
    ap.add_argument("--tt-mb", type=int, default=256)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--json", action="store_true")
    a = ap.parse_args()
    print(f"seed {a.seed}", flush=True)

    server = subprocess.Popen(
        [a.bin, "serve", "--port", "0", "--queue", str(a.queue), "--tt-mb", str(a.tt_mb),
         "--max-time", str(max(a.time, 1.0))],
        stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    line = server.stdout.readline()
    base = line.split("http://")[1].split("/")[0]
    base = "http://" + base

    stop = time.perf_counter() + a.seconds
    lock = threading.Lock()
    ok, busy, errors, probes = [], 0, [], []

    def client(i):
        nonlocal busy
        rng = random.Random(a.seed * 1000 + i)
        while time.perf_counter() < stop:
            game = "connect4:7x6:" + opening(rng)
            status, secs, body = get(base, f"/api/analyse?game={game}&time={a.time}")
            with lock:
                if status == 200:
                    ok.append(secs)
                elif status == 503:
                    busy += 1
                else:
                    errors.append((status, body[:200]))
            if status == 503:
                time.sleep(0.05)  # a polite client backs off

    def probe():
        while time.perf_counter() < stop:
            status, secs, _ = get(base, "/api/legal?game=tictactoe")
            with lock:
                probes.append((status, secs))
            time.sleep(0.25)

    threads = [threading.Thread(target=client, args=(i,)) for i in range(a.clients)]
    threads.append(threading.Thread(target=probe))
    t0 = time.perf_counter()
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    wall = time.perf_counter() - t0
    with open(f"/proc/{server.pid}/status") as f:
        peak = next(int(l.split()[1]) for l in f if l.startswith("VmHWM"))
    server.terminate()
    server.wait()

    probe_ok = [s for st, s in probes if st == 200]
    result = {
        "seed": a.seed, "clients": a.clients, "seconds": round(wall, 1), "time": a.time,
        "queue": a.queue, "answered": len(ok), "busy_503": busy, "errors": len(errors),
        "requests_per_s": round(len(ok) / wall, 2),
        "latency_ms": {"p50": round(1e3 * pct(ok, 50), 1), "p99": round(1e3 * pct(ok, 99), 1),
                       "max": round(1e3 * max(ok, default=float("nan")), 1)},
        "simple_request": {"asked": len(probes), "answered": len(probe_ok),
                           "p50_ms": round(1e3 * pct(probe_ok, 50), 1),
                           "max_ms": round(1e3 * max(probe_ok, default=float("nan")), 1)},
        "server_peak_mib": round(peak / 1024, 1),
    }
    if a.json:
        print(json.dumps(result, indent=1))
    else:
        for k, v in result.items():
            print(f"{k:16} {v}")
    for e in errors[:5]:
        print("error:", e)


if __name__ == "__main__":
    main()
