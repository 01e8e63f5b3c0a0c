#!/usr/bin/env python3
"""Medians of tools/c4peer/boards.sh's rounds, as a markdown table: reads its output on stdin.

    tools/c4peer/boards.sh PEER "6x6 7x6" 1 1024 5 | tee runs.txt | tools/c4peer/medians.py

Per board: the peer's median "Time to solve" and its nodes, gamesearch's median search time
and its nodes (nodes are the same every round at one thread; with more, the median), the ratios
ours / peer, and the ratio of the whole processes' median times (start to exit). The peer's
search time excludes allocating and clearing its table and starting its threads; ours excludes
mapping the table, zeroing the part a search starts in (512 KiB) and starting the helper
threads, but includes zeroing the pages the search touches beyond it (the kernel does it on
first touch), and the whole-process time includes everything on both sides.
"""
import re
import statistics
import sys

peer, ours, order = {}, {}, []
for line in sys.stdin:
    m = re.match(r"(\d+x\d+) peer round \d+: ([\d.]+) s; .*Time to solve = ([\d.]+) s; Total = ([\d,.]+);", line)
    if m:
        b = m.group(1)
        if b not in order:
            order.append(b)
        peer.setdefault(b, []).append((float(m.group(3)), int(re.sub(r"\D", "", m.group(4))), float(m.group(2))))
        continue
    m = re.match(r"(\d+x\d+) gamesearch round \d+: ([\d.]+) s; .*value ([+-]?\d+), (\d+) nodes, search ([\d.]+) s", line)
    if m:
        ours.setdefault(m.group(1), []).append((float(m.group(5)), int(m.group(4)), float(m.group(2))))

print("| board | rounds | c4: time / nodes | gamesearch: time / nodes | time ratio | node ratio | whole process: c4 / ours | ratio |")
print("|---|---:|---:|---:|---:|---:|---:|---:|")
for b in order:
    if b not in ours:
        continue
    pt = statistics.median(t for t, _, _ in peer[b])
    pn = statistics.median(n for _, n, _ in peer[b])
    pw = statistics.median(w for _, _, w in peer[b])
    ot = statistics.median(t for t, _, _ in ours[b])
    on = statistics.median(n for _, n, _ in ours[b])
    ow = statistics.median(w for _, _, w in ours[b])
    ratio = f"{ot / pt:.2f}" if pt > 0 else "–"
    print(f"| {b} | {min(len(peer[b]), len(ours[b]))} | {pt:.6f} s / {pn:,.0f} | {ot:.6f} s / {on:,.0f} | {ratio} | {on / pn:.2f} | {pw:.2f} s / {ow:.2f} s | {ow / pw:.2f} |")
