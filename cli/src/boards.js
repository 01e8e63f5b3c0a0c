// Boards from the `game` notation the server and `gamesearch trace` write (shared by the analysis
// board and the trace viewer, which embed this file):
//   connect4:WxH[:MOVES] (MOVES: digits, or numbers separated by commas)   kalah:M,N or kalah:S1,…,Sm/N1,…,Nm/STORE_S,STORE_N/S|N, either with :standard   tictactoe[:CELLS]

// The board a `game` argument names, or null for a game with no board (random trees, tree files).
function parseBoard(spec) {
  if (typeof spec !== "string") return null;
  if (spec.startsWith("connect4:")) {
    const [, size, moves = ""] = spec.split(":");
    const [w, h] = size.split("x").map(Number);
    // cols[c][r]: column c's r-th stone from the bottom, "x" (first player) or "o".
    const cols = Array.from({ length: w }, () => []);
    // Digits on boards up to 9 wide; column numbers separated by commas on any board (the only
    // notation past 9 columns).
    const played = w > 9 || moves.includes(",") ? moves.split(",").filter(Boolean) : [...moves];
    played.forEach((c, i) => { if (cols[Number(c) - 1]) cols[Number(c) - 1].push(i % 2 ? "o" : "x"); });
    return { kind: "connect4", w, h, cols };
  }
  if (spec.startsWith("kalah:")) {
    // The capture rule (`:standard`) after the position changes nothing drawn.
    const [text] = spec.slice("kalah:".length).split(":");
    if (/^\d+,\d+$/.test(text)) {
      const [m, n] = text.split(",").map(Number);
      return { kind: "kalah", south: Array(m).fill(n), north: Array(m).fill(n), stores: [0, 0], mover: "S" };
    }
    const parts = text.split("/");
    if (parts.length !== 4) return null;
    return {
      kind: "kalah", south: parts[0].split(",").map(Number), north: parts[1].split(",").map(Number),
      stores: parts[2].split(",").map(Number), mover: parts[3],
    };
  }
  if (spec === "tictactoe" || spec.startsWith("tictactoe:")) {
    return { kind: "tictactoe", cells: (spec.split(":")[1] || ".........").split("") };
  }
  return null;
}

// Draws `board` small on a 2-D canvas context with its top-left corner at (x, y); `flip` turns a
// Kalah board so North sits at the bottom. Returns the [width, height] it used.
function drawSmallBoard(ctx, board, x, y, flip) {
  ctx.save();
  ctx.translate(x, y);
  ctx.textAlign = "center";
  ctx.textBaseline = "middle";
  let size = [0, 0];
  if (board.kind === "connect4") {
    const r = 8, gap = 3, step = 2 * r + gap;
    const w = board.w * step + gap, h = board.h * step + gap;
    ctx.fillStyle = "#2456b8";
    ctx.fillRect(0, 0, w, h);
    for (let c = 0; c < board.w; c++) {
      for (let row = 0; row < board.h; row++) {
        const s = board.cols[c][row];
        ctx.fillStyle = s === "x" ? "#e0312c" : s === "o" ? "#f2c230" : "#fff";
        ctx.beginPath();
        ctx.arc(gap + c * step + r, h - gap - row * step - r, r, 0, 2 * Math.PI);
        ctx.fill();
      }
    }
    size = [w, h];
  } else if (board.kind === "tictactoe") {
    const cell = 22;
    ctx.font = "bold 16px system-ui, sans-serif";
    board.cells.forEach((c, i) => {
      const cx = (i % 3) * (cell + 2), cy = Math.floor(i / 3) * (cell + 2);
      ctx.fillStyle = "#eee";
      ctx.fillRect(cx, cy, cell, cell);
      if (c !== ".") {
        ctx.fillStyle = c === "x" ? "#b3261e" : "#2456b8";
        ctx.fillText(c.toUpperCase(), cx + cell / 2, cy + cell / 2 + 1);
      }
    });
    size = [3 * cell + 4, 3 * cell + 4];
  } else if (board.kind === "kalah") {
    const m = board.south.length, pit = 22, gap = 3, store = 26;
    const w = 2 * store + m * (pit + gap) + gap, h = 2 * pit + 3 * gap;
    ctx.fillStyle = "#e9d6b4";
    ctx.fillRect(0, 0, w, h);
    ctx.font = "bold 11px system-ui, sans-serif";
    const text = (n, cx, cy) => { ctx.fillStyle = "#222"; ctx.fillText(String(n), cx, cy); };
    // Seen from South (flip: from North): the bottom row is the viewer's pits, left to right, and
    // the viewer's store is on the right.
    const [bottom, top] = flip ? [board.north, board.south] : [board.south, board.north];
    const [right, left] = flip ? [board.stores[1], board.stores[0]] : board.stores;
    ctx.fillStyle = "#a9824a";
    ctx.fillRect(1, gap, store - 4, h - 2 * gap);
    ctx.fillRect(w - store + 3, gap, store - 4, h - 2 * gap);
    text(left, store / 2 - 1, h / 2);
    text(right, w - store / 2 + 1, h / 2);
    for (let i = 0; i < m; i++) {
      const bx = store + gap + i * (pit + gap) + pit / 2, tx = store + gap + (m - 1 - i) * (pit + gap) + pit / 2;
      ctx.fillStyle = "#c9a36b";
      ctx.beginPath(); ctx.arc(bx, gap + pit * 1.5 + gap, pit / 2, 0, 2 * Math.PI); ctx.fill();
      ctx.beginPath(); ctx.arc(tx, gap + pit / 2, pit / 2, 0, 2 * Math.PI); ctx.fill();
      text(bottom[i], bx, gap + pit * 1.5 + gap + 1);
      text(top[i], tx, gap + pit / 2 + 1);
    }
    size = [w, h];
  }
  ctx.restore();
  return size;
}
