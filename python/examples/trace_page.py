"""Record alpha-beta and SCOUT step by step on Pearl's kind of tree and write the viewer: a page
that replays both searches side by side (open it in a browser; in Jupyter, just show `t`).

    python python/examples/trace_page.py trace.html
"""

import sys

import gamesearch as gs

path = sys.argv[1] if len(sys.argv) > 1 else "trace.html"
t = gs.trace("random:b=3,h=4,seed=7", ["alphabeta", "scout", "negascout"])
for search in t.data:
    print(f"{search['algorithm']:>10}: value {search['value']}, {len(search['steps'])} steps")
t.save(path)
print("wrote", path)
