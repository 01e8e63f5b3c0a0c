#!/usr/bin/env python3
"""Medians of tools/c4peer/boards.sh's rounds, as a markdown table: reads its output on stdin.

    tools/c4peer/boards.sh PEER "6x6 7x6" 1 1024 5 | tee runs.txt | tools/c4peer/medians.py

Per board: the peer's median "Time to solve" and its nodes, gamesearch's median search time
and its nodes (nodes are the same every round at one thread; with more, the median), and the
ratios ours / peer. Both solvers' times exclude allocating and clearing their tables.
"""
import re
import statistics
import sys

peer, ours, order = {}, {}, []
for line in sys.stdin:
    m = re.match(r"(\d+x\d+) peer round \d+: .*Time to solve = ([\d.]+) s; Total = ([\d,.]+);", line)
    if m:
        b = m.group(1)
        if b not in order:
            order.append(b)
        peer.setdefault(b, []).append((float(m.group(2)), int(re.sub(r"\D", "", m.group(3)))))
        continue
    m = re.match(r"(\d+x\d+) gamesearch round \d+: .*value ([+-]?\d+), (\d+) nodes, search ([\d.]+) s", line)
    if m:
        ours.setdefault(m.group(1), []).append((float(m.group(4)), int(m.group(3))))

print("| board | rounds | c4: time / nodes | gamesearch: time / nodes | time ratio | node ratio |")
print("|---|---:|---:|---:|---:|---:|")
for b in order:
    if b not in ours:
        continue
    pt = statistics.median(t for t, _ in peer[b])
    pn = statistics.median(n for _, n in peer[b])
    ot = statistics.median(t for t, _ in ours[b])
    on = statistics.median(n for _, n in ours[b])
    ratio = f"{ot / pt:.2f}" if pt > 0 else "–"
    print(f"| {b} | {min(len(peer[b]), len(ours[b]))} | {pt:.2f} s / {pn:,.0f} | {ot:.2f} s / {on:,.0f} | {ratio} | {on / pn:.2f} |")
