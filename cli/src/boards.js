// Boards from the `game` notation the server and `gamesearch trace` write (shared by the analysis
// board and the trace viewer, which embed this file):
//   connect4:WxH[:MOVES] (MOVES: digits, or numbers separated by commas)   kalah:M,N or kalah:S1,…,Sm/N1,…,Nm/STORE_S,STORE_N/S|N, either with :standard   tictactoe[:CELLS]
//   othello[:NxN[:MOVES]] (MOVES: squares a1…h8 run together, `pass` or `ps` for a pass)   othello:NxN:board=CELLS/SIDE
//   domineering[:MxN[:v|:h][:MOVES]] (MOVES: dominoes as two cells, a1a2)   domineering:MxN:v|h:board=CELLS/SIDE
//   hex[:NxN[:swap][:MOVES]] (MOVES: cells a1…k11 and `swap`)   hex:NxN[:swap]:board=CELLS/SIDE
//   dobutsu:board=RANK1/RANK2/RANK3/RANK4/SIDE[/HANDS] (the server sends Dōbutsu positions in the
//   board form: a move list would need the rules here)

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
  if (spec === "othello" || spec.startsWith("othello:")) return parseOthello(spec);
  if (spec === "domineering" || spec.startsWith("domineering:")) return parseDomineering(spec);
  if (spec === "hex" || spec.startsWith("hex:")) return parseHex(spec);
  if (spec === "dobutsu") return parseDobutsu("dobutsu:board=gle/.c./.C./ELG/s");
  if (spec.startsWith("dobutsu:board=")) return parseDobutsu(spec);
  return null;
}

// A Dōbutsu shōgi board: cells[i] row by row from a1 (rank 1, Gote's home, at the top), a letter
// (L G E C H Sente's lion, giraffe, elephant, chick, hen; lower case Gote's) or "."; whose turn
// ("s" or "g"); the hands ("CCg": Sente holds two chicks, Gote a giraffe). Null for other text.
function parseDobutsu(spec) {
  const parts = spec.slice("dobutsu:board=".length).split("/");
  if (parts.length < 5 || parts.slice(0, 4).some((r) => !/^[.lgechLGECH]{3}$/.test(r))) return null;
  return { kind: "dobutsu", cells: parts.slice(0, 4).join("").split(""), side: parts[4], hands: parts[5] || "" };
}

// A Hex board: cells[i] ("b" Black, "w" White, "" empty) row by row from a1 (row 1 at the top,
// each row half a cell right of the one above), whether Black moves; null for text that is no
// position (a cell off the board or taken, a swap out of turn).
function parseHex(spec) {
  const parts = spec.split(":");
  const [rows, cols] = (parts[1] || "11x11").split(/x/i).map(Number);
  if (!(rows >= 1 && rows <= 11 && rows === cols)) return null;
  const n = rows;
  let i = 2;
  if (/^swap$/i.test(parts[i] || "")) i++;
  const rest = parts.slice(i).join(":");
  let cells = Array(n * n).fill(""), black = true;
  if (rest.startsWith("board=")) {
    const [text = "", s = "B"] = rest.slice("board=".length).split("/");
    if (text.length !== n * n) return null;
    cells = [...text].map((c) => ("BbXx".includes(c) ? "b" : "WwOo".includes(c) ? "w" : ""));
    black = !"WwOo".includes(s.trim());
  } else {
    for (const name of rest.toLowerCase().match(/swap|[a-z]\d+/g) || []) {
      if (name === "swap") {
        const at = cells.indexOf("b");
        if (black || at < 0 || cells.includes("w")) return null;
        cells[at] = "";
        cells[(at % n) * n + Math.floor(at / n)] = "w";
        black = true;
        continue;
      }
      const r = Number(name.slice(1)) - 1, c = name.charCodeAt(0) - 97;
      if (r < 0 || r >= n || c >= n || cells[r * n + c]) return null;
      cells[r * n + c] = black ? "b" : "w";
      black = !black;
    }
  }
  return { kind: "hex", n, cells, black };
}

// The centre of cell i of an n×n Hex board drawn with hexagons of radius `r` (pointy tops): the
// rhombus leans right, a row half a cell right of the one above.
function hexCentre(i, n, r, pad) {
  const w = Math.sqrt(3) * r, row = Math.floor(i / n), col = i % n;
  return [pad + w / 2 + (col + row / 2) * w, pad + r + row * 1.5 * r];
}

// A hexagon's path (pointy top) around (x, y).
function hexPath(ctx, x, y, r) {
  ctx.beginPath();
  for (let k = 0; k < 6; k++) {
    const a = Math.PI / 3 * k + Math.PI / 6;
    ctx.lineTo(x + r * Math.cos(a), y + r * Math.sin(a));
  }
  ctx.closePath();
}

// A Domineering board: cells[i] ("v" covered by Vertical, "h" by Horizontal, "#" covered, ""
// empty) row by row from a1 (the top left), whether Vertical moves, and the first player; null
// for text that is no position (a domino off the board or on a covered cell).
function parseDomineering(spec) {
  const parts = spec.split(":");
  const [rows, cols] = (parts[1] || "8x8").split(/x/i).map(Number);
  if (!(rows >= 1 && cols >= 1 && cols <= 26 && rows * cols <= 128)) return null;
  let i = 2, firstVertical = true;
  if (/^[vh]$/i.test(parts[i] || "")) firstVertical = parts[i++].toLowerCase() === "v";
  const rest = parts.slice(i).join(":");
  let cells = Array(rows * cols).fill(""), vertical = firstVertical;
  if (rest.startsWith("board=")) {
    const [text = "", s = "V"] = rest.slice("board=".length).split("/");
    if (text.length !== rows * cols) return null;
    cells = [...text].map((c) => ("-.".includes(c) ? "" : "#"));
    vertical = s.trim().toUpperCase() !== "H";
  } else {
    const names = rest.toLowerCase().match(/[a-z]\d+/g) || [];
    if (names.length % 2) return null;
    for (let k = 0; k < names.length; k += 2) {
      const at = names.slice(k, k + 2).map((n) => [Number(n.slice(1)) - 1, n.charCodeAt(0) - 97]);
      if (at.some(([r, c]) => r < 0 || r >= rows || c >= cols)) return null;
      const idx = at.map(([r, c]) => r * cols + c);
      if (idx.some((j) => cells[j])) return null;
      for (const j of idx) cells[j] = vertical ? "v" : "h";
      vertical = !vertical;
    }
  }
  return { kind: "domineering", rows, cols, cells, vertical, firstVertical };
}

// An Othello board: cells[i] ("x" Black, "o" White, "" empty) row by row from a1 (a1 at the top
// left, as the terminal draws it), the side to move ("x" or "o"), and the squares it may play;
// null for text that is no Othello position (an illegal move in the list).
function parseOthello(spec) {
  const [, size = "8x8", rest = ""] = spec.split(":");
  const n = Number(size.split(/x/i)[0]);
  if (![4, 6, 8].includes(n)) return null;
  const at = (r, c) => r * n + c;
  let cells = Array(n * n).fill(""), side = "x";
  // The discs `side` turns by playing square i (none: not a legal move).
  const flips = (i) => {
    if (cells[i]) return [];
    const [r0, c0] = [Math.floor(i / n), i % n], other = side === "x" ? "o" : "x", all = [];
    for (const [dr, dc] of [[-1, -1], [-1, 0], [-1, 1], [0, -1], [0, 1], [1, -1], [1, 0], [1, 1]]) {
      const line = [];
      let [r, c] = [r0 + dr, c0 + dc];
      while (r >= 0 && r < n && c >= 0 && c < n && cells[at(r, c)] === other) { line.push(at(r, c)); r += dr; c += dc; }
      if (line.length && r >= 0 && r < n && c >= 0 && c < n && cells[at(r, c)] === side) all.push(...line);
    }
    return all;
  };
  if (rest.startsWith("board=")) {
    const [text = "", s = "X"] = rest.slice("board=".length).split("/");
    if (text.length !== n * n) return null;
    cells = [...text].map((c) => ("Xx*".includes(c) ? "x" : "Oo".includes(c) ? "o" : ""));
    side = s.trim().toUpperCase() === "O" ? "o" : "x";
  } else {
    const m = n / 2;
    [cells[at(m - 1, m - 1)], cells[at(m - 1, m)], cells[at(m, m - 1)], cells[at(m, m)]] = ["o", "x", "x", "o"];
    const moves = rest.toLowerCase().match(/pass|ps|[a-h][1-8]|\S/g) || [];
    for (const mv of moves) {
      if (mv === "," ) continue;
      if (mv !== "pass" && mv !== "ps") {
        const c = mv.charCodeAt(0) - 97, r = Number(mv[1]) - 1;
        if (mv.length !== 2 || c >= n || r >= n) return null;
        const turned = flips(at(r, c));
        if (!turned.length) return null;
        for (const j of [at(r, c), ...turned]) cells[j] = side;
      }
      side = side === "x" ? "o" : "x";
    }
  }
  const legal = cells.map((_, i) => flips(i).length > 0);
  return { kind: "othello", n, cells, side, legal };
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
  } else if (board.kind === "othello") {
    const cell = board.n > 6 ? 12 : 16, w = board.n * cell + 1;
    ctx.fillStyle = "#1e7a3c";
    ctx.fillRect(0, 0, w, w);
    ctx.strokeStyle = "#0d4a22";
    board.cells.forEach((c, i) => {
      const x0 = (i % board.n) * cell, y0 = Math.floor(i / board.n) * cell;
      ctx.strokeRect(x0 + 0.5, y0 + 0.5, cell, cell);
      if (!c) return;
      ctx.fillStyle = c === "x" ? "#111" : "#f4f4f4";
      ctx.beginPath();
      ctx.arc(x0 + cell / 2 + 0.5, y0 + cell / 2 + 0.5, cell / 2 - 1.5, 0, 2 * Math.PI);
      ctx.fill();
    });
    size = [w + 1, w + 1];
  } else if (board.kind === "domineering") {
    const cell = Math.max(6, Math.min(14, Math.floor(120 / Math.max(board.rows, board.cols))));
    const w = board.cols * cell + 1, h = board.rows * cell + 1;
    ctx.fillStyle = "#f4efe4";
    ctx.fillRect(0, 0, w, h);
    ctx.strokeStyle = "#b9ad95";
    board.cells.forEach((c, i) => {
      const x0 = (i % board.cols) * cell, y0 = Math.floor(i / board.cols) * cell;
      if (c) {
        ctx.fillStyle = c === "v" ? "#2456b8" : c === "h" ? "#b3261e" : "#777";
        ctx.fillRect(x0 + 0.5, y0 + 0.5, cell, cell);
      }
      ctx.strokeRect(x0 + 0.5, y0 + 0.5, cell, cell);
    });
    size = [w + 1, h + 1];
  } else if (board.kind === "hex") {
    const n = board.n, r = Math.max(4, Math.min(9, Math.floor(60 / n))), pad = 3;
    const w = Math.sqrt(3) * r * (n + (n - 1) / 2) + 2 * pad, h = r * (1.5 * n + 0.5) + 2 * pad;
    ctx.fillStyle = "#f4efe4";
    ctx.fillRect(0, 0, w, h);
    // Black's edges (top and bottom rows) dark, White's (first and last columns) light grey.
    board.cells.forEach((c, i) => {
      const [x, y] = hexCentre(i, n, r, pad);
      hexPath(ctx, x, y, r - 0.5);
      ctx.fillStyle = c === "b" ? "#111" : c === "w" ? "#fff" : "#e2c99b";
      ctx.fill();
      const row = Math.floor(i / n), col = i % n;
      ctx.strokeStyle = row === 0 || row === n - 1 ? "#111" : col === 0 || col === n - 1 ? "#999" : "#b9ad95";
      ctx.stroke();
    });
    size = [Math.ceil(w), Math.ceil(h)];
  } else if (board.kind === "dobutsu") {
    // Rank 1 (Gote's home) at the top; Gote's pieces red, Sente's blue; the hands beneath.
    const cell = 18, w = 3 * cell + 1, h = 4 * cell + 1;
    ctx.font = "bold 12px system-ui, sans-serif";
    board.cells.forEach((c, i) => {
      const x0 = (i % 3) * cell, y0 = Math.floor(i / 3) * cell;
      ctx.fillStyle = "#f4efe4";
      ctx.fillRect(x0 + 0.5, y0 + 0.5, cell, cell);
      ctx.strokeStyle = "#b9ad95";
      ctx.strokeRect(x0 + 0.5, y0 + 0.5, cell, cell);
      if (c === ".") return;
      ctx.fillStyle = c === c.toUpperCase() ? "#2456b8" : "#b3261e";
      ctx.fillText(c.toUpperCase(), x0 + cell / 2 + 0.5, y0 + cell / 2 + 1);
    });
    ctx.fillStyle = "#222";
    ctx.font = "10px system-ui, sans-serif";
    ctx.fillText(board.hands || "–", w / 2, h + 7);
    size = [w + 1, h + 14];
  }
  ctx.restore();
  return size;
}
