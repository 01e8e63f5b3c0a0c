//! The analysis board and the trace viewer driven in a real browser, as a person uses them:
//! headless Chromium through WebDriver (Debian's `chromium` and `chromium-driver`, driven with
//! fantoccini). The board: clicking moves, undo and redo, every move's value against the
//! library's solver, playing the engine to the end by clicking, flipping sides, Othello's board
//! (its rules in the page against the library's, a pass). The viewer: a
//! Connect-Four 4x4 proof-number trace fits the window, follows the current node, collapses a
//! subtree and shows the position as a board on hover; a trace of 10^5 nodes loads and steps
//! (its timings are printed, not asserted). Also the trace page stepped to its end and the
//! board page's values, read from the DOM headless Chromium leaves.
//!
//! Whether these tests can run is decided here, at run time (this file has its own `main`, a
//! libtest-mimic harness): where Chromium or chromedriver is missing they show as `ignored`,
//! and under CI (`CI=true`) `ci_has_a_browser` fails instead, since a skip there would read as a
//! pass. No build script decides it, so installing a browser never rebuilds the binary.

use std::net::TcpListener;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use fantoccini::actions::{InputSource, MouseActions, PointerAction};
use fantoccini::{Client, ClientBuilder, Locator};
use gamesearch::trace::{Trace, TraceNode};
use gamesearch::{Game, Player};
use gamesearch_games::othello::{Othello, PASS};
use gamesearch_games::{Dobutsu, Domineering, GameSpec, Hex};
use libtest_mimic::{Arguments, Failed, Trial};
use serde_json::{json, Value};

mod common;
use common::{
    browser, chromium, dump_dom, exact, example_tree, gamesearch, runs, scratch_dir, Server,
};

const NO_BROWSER: &str = "no Chromium and chromedriver here (.ci/run installs them)";

/// chromedriver on a free port and a headless Chromium session through it; both end on drop.
struct Driver {
    process: Child,
    client: Option<Client>,
}

impl Driver {
    async fn start() -> Driver {
        let port = TcpListener::bind("127.0.0.1:0")
            .unwrap()
            .local_addr()
            .unwrap()
            .port();
        let process = Command::new("chromedriver")
            .arg(format!("--port={port}"))
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("start chromedriver");
        let mut caps = serde_json::Map::new();
        caps.insert(
            "goog:chromeOptions".into(),
            json!({
                "binary": which(browser()),
                "args": ["--headless=new", "--no-sandbox", "--disable-gpu", "--window-size=1400,1000"],
            }),
        );
        let url = format!("http://127.0.0.1:{port}");
        let start = Instant::now();
        let client = loop {
            let connector = hyper_util::client::legacy::connect::HttpConnector::new();
            match ClientBuilder::new(connector)
                .capabilities(caps.clone())
                .connect(&url)
                .await
            {
                Ok(c) => break c,
                Err(e) if start.elapsed() > Duration::from_secs(20) => {
                    panic!("no WebDriver session: {e}")
                }
                Err(_) => tokio::time::sleep(Duration::from_millis(100)).await,
            }
        };
        Driver {
            process,
            client: Some(client),
        }
    }

    /// A session with `url` loaded.
    async fn open(url: &str) -> Driver {
        let d = Driver::start().await;
        d.c()
            .goto(url)
            .await
            .unwrap_or_else(|e| panic!("{url}: {e}"));
        d
    }

    fn c(&self) -> &Client {
        self.client.as_ref().unwrap()
    }

    /// The value of a script's `return`.
    async fn js(&self, script: &str) -> Value {
        self.c()
            .execute(script, vec![])
            .await
            .unwrap_or_else(|e| panic!("{script}: {e}"))
    }

    /// Waits (up to `secs`) until the script returns true.
    async fn until(&self, secs: u64, what: &str, script: &str) {
        let start = Instant::now();
        while self.js(script).await != Value::Bool(true) {
            let status = self
                .js("return (document.getElementById('status') || {}).textContent || ''")
                .await;
            assert!(
                start.elapsed() < Duration::from_secs(secs),
                "waited {secs} s for {what} (status: {status})"
            );
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
    }

    async fn click(&self, css: &str) {
        self.c()
            .find(Locator::Css(css))
            .await
            .unwrap_or_else(|e| panic!("{css}: {e}"))
            .click()
            .await
            .unwrap_or_else(|e| panic!("click {css}: {e}"));
    }

    /// Moves the mouse to (x, y) of the page's viewport.
    async fn hover(&self, x: f64, y: f64) {
        let moves = MouseActions::new("mouse".into()).then(PointerAction::MoveTo {
            duration: Some(Duration::from_millis(50)),
            x,
            y,
        });
        self.c().perform_actions(moves).await.unwrap();
    }

    async fn end(mut self) {
        if let Some(c) = self.client.take() {
            let _ = c.close().await;
        }
    }
}

impl Drop for Driver {
    fn drop(&mut self) {
        let _ = self.process.kill();
        let _ = self.process.wait();
    }
}

/// The full path of a program on PATH.
fn which(name: &str) -> String {
    std::env::split_paths(&std::env::var_os("PATH").unwrap())
        .map(|d| d.join(name))
        .find(|p| p.is_file())
        .unwrap_or_else(|| PathBuf::from(name))
        .to_string_lossy()
        .into_owned()
}

/// The text under each Connect-Four column of the page (column number, text).
const COLUMN_VALUES: &str = "return [...document.querySelectorAll('.c4 .col')].map(c => [c.dataset.move, c.querySelector('.val').textContent])";

/// A value as the page writes it under a move: `+3`, `0`, `-2`.
fn signed(v: i64) -> String {
    if v > 0 {
        format!("+{v}")
    } else {
        v.to_string()
    }
}

fn ci_has_a_browser() {
    assert!(
        std::env::var("CI").map_or(true, |v| v.is_empty() || v == "false"),
        "{NO_BROWSER}, and CI is set: .ci/run installs chromium and chromium-driver"
    );
}

/// Click a move, see every column's value (each the solver's), undo, redo.
async fn clicking_plays_undoes_and_redoes_and_every_value_is_the_solvers() {
    let s = Server::start(&["--tt-mb", "16"]);
    // Pons' benchmark position (Test_L3_R1, line 1) less its last move: 9 cells left.
    let before = "connect4:7x6:742234173564774116613357347324256";
    let d = Driver::open(&format!("http://{}/?game={before}", s.addr)).await;
    d.until(
        20,
        "the columns' values",
        "return document.getElementById('status').textContent.includes('ms')",
    )
    .await;
    // Column 6 is the move Pons' line plays: click it.
    d.click(".c4 .col[data-move='6']").await;
    let after = format!("{before}6");
    d.until(
        10,
        "the position after the click",
        &format!("return document.getElementById('game').value === '{after}' && decodeURIComponent(location.search).includes('{after}')"),
    )
    .await;
    d.until(20, "the analysis", "return document.getElementById('status').textContent.includes(\"value 1 (first player's view)\")")
        .await;
    // Every legal column shows the solver's value of its move, for the player to move (first).
    let shown = d.js(COLUMN_VALUES).await;
    let mut checked = 0;
    for col in shown.as_array().unwrap() {
        let (m, text) = (col[0].as_str().unwrap(), col[1].as_str().unwrap());
        let child = format!("{after}{m}");
        if child.parse::<GameSpec>().is_err() {
            assert_eq!(text, "", "column {m} is full: no value");
            continue;
        }
        let v = exact(&child);
        let want = signed(v);
        assert_eq!(text, want, "column {m}");
        checked += 1;
    }
    assert_eq!(checked, 4, "columns 1, 2, 5 and 6 have room");
    // Undo goes back to the position before the click, redo forward again.
    d.click("#undo").await;
    d.until(
        10,
        "undo",
        &format!("return document.getElementById('game').value === '{before}'"),
    )
    .await;
    assert_eq!(
        d.js("return document.querySelectorAll('.c4 .cell.x, .c4 .cell.o').length")
            .await,
        json!(33)
    );
    d.click("#redo").await;
    d.until(
        10,
        "redo",
        &format!("return document.getElementById('game').value === '{after}'"),
    )
    .await;
    assert_eq!(
        d.js("return document.querySelectorAll('.c4 .cell.x, .c4 .cell.o').length")
            .await,
        json!(34)
    );
    d.end().await;
}

/// A person plays tic-tac-toe against the engine by clicking, to the end: the engine (second)
/// never loses.
async fn a_person_plays_the_engine_to_the_end_by_clicking() {
    let s = Server::start(&["--tt-mb", "16"]);
    let d = Driver::open(&format!("http://{}/?game=tictactoe&time=0.2", s.addr)).await;
    d.until(
        10,
        "the board",
        "return document.querySelectorAll('.ttt div').length === 9",
    )
    .await;
    // The engine takes the second player through the page's own control.
    d.js("const s = document.getElementById('side'); s.value = 'min'; s.dispatchEvent(new Event('change')); return true")
        .await;
    let mut clicks = 0;
    loop {
        d.until(
            20,
            "the person's turn or the end",
            "const t = document.getElementById('status').textContent; return t.startsWith('game over') || (t.startsWith('first player to move') && document.querySelectorAll('.ttt div').length === 9)",
        )
        .await;
        let status = d
            .js("return document.getElementById('status').textContent")
            .await;
        if status.as_str().unwrap().starts_with("game over") {
            assert!(
                !status.as_str().unwrap().contains("first player wins"),
                "the engine lost: {status}"
            );
            break;
        }
        // The first empty cell.
        let cell = d
            .js("return [...document.querySelectorAll('.ttt div')].find(c => !/X|O/.test(c.textContent)).dataset.move")
            .await;
        let moves = d.js("return (document.getElementById('game').value.split(':')[1] || '').replace(/\\./g, '').length").await;
        d.click(&format!(".ttt div[data-move='{}']", cell.as_str().unwrap()))
            .await;
        clicks += 1;
        // The click is taken: one more stone.
        d.until(
            10,
            "the click",
            &format!("return (document.getElementById('game').value.split(':')[1] || '').replace(/\\./g, '').length > {moves}"),
        )
        .await;
    }
    let cells = d.js("return document.getElementById('game').value").await;
    let cells = cells
        .as_str()
        .unwrap()
        .split(':')
        .nth(1)
        .unwrap()
        .to_string();
    let (x, o) = (cells.matches('x').count(), cells.matches('o').count());
    assert!(x == o || x == o + 1, "{cells}");
    assert_eq!(clicks, x, "every X was a click, every O the engine's");
    // Clicking the first empty cell each turn is no match for the engine.
    let status = d
        .js("return document.getElementById('status').textContent")
        .await;
    assert!(
        status.as_str().unwrap().contains("second player wins"),
        "{status} ({cells})"
    );
    d.end().await;
}

/// Flip sides: the engine takes the other side and the Kalah board turns (North at the bottom).
async fn flip_sides_turns_the_kalah_board_and_swaps_the_engines_side() {
    let s = Server::start(&["--tt-mb", "16"]);
    let d = Driver::open(&format!(
        "http://{}/?game=kalah:4,3&engine=min&time=0.2",
        s.addr
    ))
    .await;
    // South (first) to move, the person's: South's pits are clickable on the bottom row (4).
    d.until(
        10,
        "the board",
        "return document.querySelectorAll('.kalah .mine').length === 4",
    )
    .await;
    assert_eq!(
        d.js("return [...document.querySelectorAll('.kalah .mine')].map(e => e.style.gridRow)")
            .await,
        json!(["4", "4", "4", "4"])
    );
    d.click("#flip").await;
    // The engine now plays South and moves; then North moves, on the bottom row.
    d.until(20, "the engine's move as South", "return document.getElementById('game').value !== 'kalah:4,3' && document.getElementById('game').value.endsWith('/N')")
        .await;
    d.until(
        10,
        "North's pits",
        "return document.querySelectorAll('.kalah .mine').length > 0",
    )
    .await;
    let rows = d
        .js("return [...document.querySelectorAll('.kalah .mine')].map(e => e.style.gridRow)")
        .await;
    assert!(
        rows.as_array().unwrap().iter().all(|r| r == "4"),
        "North's pits at the bottom: {rows}"
    );
    assert_eq!(
        d.js("return document.getElementById('side').value").await,
        json!("max")
    );
    assert_eq!(
        d.js("return location.search.includes('flip=1')").await,
        json!(true)
    );
    d.end().await;
}

fn trace_page(name: &str, args: &[&str]) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("gamesearch-browser-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let page = dir.join(name);
    let mut all = vec!["trace"];
    all.extend_from_slice(args);
    let out = page.to_string_lossy().into_owned();
    all.extend_from_slice(&["-o", &out]);
    let (code, _, err) = gamesearch(&all);
    assert_eq!(code, 0, "{err}");
    page
}

/// The screen position and the canvas size of the node a panel follows.
const FOCUS: &str = "const p = viewer.panels[0]; const [x, y] = p.toScreen(...p.world(p.focus())); return [x, y, p.w, p.h]";

fn inside(v: &Value) -> bool {
    let [x, y, w, h] = [0, 1, 2, 3].map(|i| v[i].as_f64().unwrap());
    (0.0..=w).contains(&x) && (0.0..=h).contains(&y)
}

/// The 4x4 proof-number trace: labels at full size, the current node in view at every step
/// looked at, Fit puts the whole tree in the window, double-click collapses a subtree, and
/// hovering a node shows its line and its position as a board.
async fn the_viewer_fits_follows_and_shows_a_board_on_hover() {
    let page = trace_page(
        "pn44.html",
        &[
            "connect4:4x4",
            "--algo",
            "pn-multi",
            "--depth",
            "16",
            "--max-nodes",
            "1000000",
        ],
    );
    let d = Driver::open(&format!("file://{}", page.display())).await;
    d.until(10, "the viewer", "return !!window.viewer").await;
    assert_eq!(
        d.js("return viewer.panels[0].zoom").await,
        json!(1),
        "labels at full size"
    );
    let total = d.js("return viewer.panels[0].trace.steps.length").await;
    let total = total.as_u64().unwrap();
    assert!(total > 3000, "{total} steps");
    // Following: the node the search is at stays on the canvas, step after step.
    for k in [1, 10, 57, 400, 1234, 2500, total] {
        d.js(&format!("viewer.go({k}); return true")).await;
        let at = d.js(FOCUS).await;
        assert!(inside(&at), "step {k}: the current node at {at}");
    }
    // The ▶ button steps and the view follows.
    for _ in 0..5 {
        d.click("#next").await;
    }
    assert!(inside(&d.js(FOCUS).await));
    // At the last step every node is shown: the page's layout is the library's (view::layout),
    // slot for slot.
    d.js("viewer.go(1e9); return true").await;
    let shown = d
        .js("const p = viewer.panels[0]; const lo = Math.min(...p.x); \
             return { x: Array.from(p.x, v => v - lo), nodes: p.trace.nodes }")
        .await;
    let nodes: Vec<TraceNode> = shown["nodes"]
        .as_array()
        .unwrap()
        .iter()
        .map(|n| TraceNode {
            id: n["id"].as_u64().unwrap() as u32,
            parent: n["parent"].as_u64().map(|p| p as u32),
            label: n["label"].as_str().unwrap().to_string(),
            to_move: if n["to_move"] == "max" {
                Player::Max
            } else {
                Player::Min
            },
            ply: n["ply"].as_u64().unwrap() as u32,
            repeats: n["repeats"].as_u64().map(|p| p as u32),
        })
        .collect();
    let trace = Trace {
        format: "gamesearch-trace/1",
        algorithm: "pn-multi".into(),
        nodes,
        steps: Vec::new(),
        truncated: true,
        node_cap: 2000,
        value: None,
        best_move: None,
        stats: Default::default(),
    };
    let rust = gamesearch_cli::view::layout(&trace);
    let js = shown["x"].as_array().unwrap();
    assert_eq!(js.len(), rust.len());
    for (v, (a, b)) in js.iter().zip(&rust).enumerate() {
        assert!(
            (a.as_f64().unwrap() - b.0).abs() < 1e-6,
            "node {v}: page {a}, library {}",
            b.0
        );
    }
    // Fit: the whole tree (as shown at the last step) inside the canvas.
    d.click("[data-act='fit']").await;
    let b = d.js("return viewer.panels[0].bbox()").await;
    let f = |k: &str| b[k].as_f64().unwrap();
    assert!(
        f("left") >= -1.0
            && f("top") >= -1.0
            && f("right") <= f("width") + 1.0
            && f("bottom") <= f("height") + 1.0,
        "fits: {b}"
    );
    assert!(
        f("right") - f("left") > 0.5 * f("width") || f("bottom") - f("top") > 0.5 * f("height"),
        "and fills the window: {b}"
    );
    assert_eq!(
        d.js("return viewer.panels[0].follow").await,
        json!(false),
        "Fit stops following"
    );
    // Back to full size, following, at a step deep in the search.
    d.click("[data-act='follow']").await;
    d.js("const p = viewer.panels[0]; p.zoom = 1; viewer.go(2000); return true")
        .await;
    // Hover a node two plies down the current line: its line and its board appear.
    let target = d
        .js("const p = viewer.panels[0]; let v = p.focus(); while (p.ply[v] > 2) v = p.trace.nodes[v].parent; \
             p.setFollow(false); p.cam = p.world(v); p.draw(); const [x, y] = p.toScreen(...p.world(v)); const r = p.el.canvas.getBoundingClientRect(); \
             return [v, r.left + x, r.top + y, p.boards[v]]")
        .await;
    let v = target[0].as_u64().unwrap();
    d.hover(target[1].as_f64().unwrap(), target[2].as_f64().unwrap())
        .await;
    d.until(
        5,
        "the hover box",
        "return viewer.panels[0].el.tip.style.display === 'block'",
    )
    .await;
    let tip = d.js("return viewer.panels[0].el.tip.textContent").await;
    let line = d
        .js(&format!("const p = viewer.panels[0]; const l = []; for (let u = {v}; u !== null; u = p.trace.nodes[u].parent) l.unshift(p.trace.nodes[u].label); return l"))
        .await;
    let moves: Vec<&str> = line.as_array().unwrap()[1..]
        .iter()
        .map(|m| m.as_str().unwrap())
        .collect();
    assert_eq!(moves.len(), 2);
    assert!(tip.as_str().unwrap().contains(&moves.join(" → ")), "{tip}");
    // The board is the position after the line (drawn from the notation the CLI wrote).
    assert_eq!(target[3], json!(format!("connect4:4x4:{}", moves.concat())));
    let board = d
        .js("const c = viewer.panels[0].el.tip.querySelector('canvas.board'); return c ? [c.width, c.height] : null")
        .await;
    assert!(
        board[0].as_f64().unwrap() > 40.0,
        "a board is drawn: {board}"
    );
    // Double-click collapses that subtree (its descendants leave the layout); again expands it.
    let shown = "return viewer.panels[0].shown.reduce((a, b) => a + b, 0)";
    let before = d.js(shown).await.as_u64().unwrap();
    d.js(&format!("viewer.panels[0].toggle({v}); return true"))
        .await;
    let collapsed = d.js(shown).await.as_u64().unwrap();
    assert!(collapsed < before, "{collapsed} < {before}");
    d.click("[data-act='expand']").await;
    assert_eq!(d.js(shown).await.as_u64().unwrap(), before);
    d.end().await;
    let _ = std::fs::remove_file(page);
}

/// A trace of 10^5 nodes: it loads, steps to its end, fits and follows; the timings are printed
/// (docs/results/robustness.md has them), not asserted.
async fn a_trace_of_100000_nodes_loads_steps_and_fits() {
    let page = trace_page(
        "big.html",
        &[
            "connect4:4x4",
            "--algo",
            "pn-multi",
            "--depth",
            "16",
            "--max-nodes",
            "1000000",
            "--node-cap",
            "100000",
        ],
    );
    let size = std::fs::metadata(&page).unwrap().len();
    let d = Driver::start().await;
    let start = Instant::now();
    d.c()
        .goto(&format!("file://{}", page.display()))
        .await
        .unwrap();
    d.until(60, "the viewer", "return !!window.viewer").await;
    let load = start.elapsed();
    assert_eq!(d.js("return viewer.panels[0].n").await, json!(100_000));
    let timing = d
        .js("const p = viewer.panels[0], n = p.trace.steps.length, t = []; \
             let s = performance.now(); viewer.go(n); t.push(performance.now() - s); \
             s = performance.now(); viewer.go(n - 1); t.push(performance.now() - s); \
             s = performance.now(); p.fit(); p.draw(); t.push(performance.now() - s); \
             s = performance.now(); p.zoom = 1; p.setFollow(true); viewer.go(Math.floor(n / 2)); t.push(performance.now() - s); \
             s = performance.now(); viewer.go(Math.floor(n / 2) + 1); t.push(performance.now() - s); \
             s = performance.now(); p.zoomBy(1.25); t.push(performance.now() - s); \
             return [n, p.seenCount, ...t]")
        .await;
    let t: Vec<f64> = timing
        .as_array()
        .unwrap()
        .iter()
        .map(|x| x.as_f64().unwrap())
        .collect();
    eprintln!(
        "10^5-node trace ({:.1} MB, {} steps): page loaded in {:.2} s; to the last step {:.0} ms, one step back (replayed from the start) {:.0} ms, fit {:.0} ms, to the middle following {:.0} ms, one step forward {:.0} ms, a zoom {:.0} ms",
        size as f64 / 1e6, t[0], load.as_secs_f64(), t[2], t[3], t[4], t[5], t[6], t[7]
    );
    assert!(
        inside(&d.js(FOCUS).await),
        "the middle step's node is in view"
    );
    d.js("viewer.go(1e9); viewer.panels[0].fit(); return true")
        .await;
    let b = d.js("return viewer.panels[0].bbox()").await;
    assert!(
        b["right"].as_f64().unwrap() <= b["width"].as_f64().unwrap() + 1.0,
        "fits: {b}"
    );
    d.end().await;
    let _ = std::fs::remove_file(page);
}

/// A board wider than 9 columns: drawn from the comma notation, and a click writes the move in
/// the same notation.
async fn a_board_wider_than_nine_columns_reads_and_writes_the_comma_notation() {
    let s = Server::start(&["--tt-mb", "16", "--max-time", "0.3"]);
    let d = Driver::open(&format!("http://{}/?game=connect4:10x5:10,1", s.addr)).await;
    d.until(
        10,
        "the board",
        "return document.querySelectorAll('.c4 .cell').length === 50",
    )
    .await;
    // Column 10 holds the first player's stone, column 1 the second's.
    let stones = d
        .js("return [...document.querySelectorAll('.c4 .col')].map(c => [...c.querySelectorAll('.cell')].map(e => e.className.replace('cell', '').trim()).join(''))")
        .await;
    let cols: Vec<&str> = stones
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c.as_str().unwrap())
        .collect();
    assert_eq!(cols[9], "x");
    assert_eq!(cols[0], "o");
    assert!(cols[1..9].iter().all(|c| c.is_empty()), "{cols:?}");
    d.click(".c4 .col[data-move='10']").await;
    d.until(
        10,
        "the move in the comma notation",
        "return document.getElementById('game').value === 'connect4:10x5:10,1,10'",
    )
    .await;
    d.end().await;
}

/// The page in headless Chromium: the board of a position from the URL, and the value under
/// every column that has room, from the analysis.
fn the_board_shows_every_columns_value_in_a_real_browser() {
    let browser = browser();
    let s = Server::start(&["--tt-mb", "16"]);
    // Pons' benchmark position (Test_L3_R1, line 1): 8 cells left, the first player to move
    // scores +1; columns 3, 4 and 7 are full.
    let game = "connect4:7x6:7422341735647741166133573473242566";
    let a = s.json(&format!("/api/analyse?game={game}"));
    let url = format!("http://{}/?game={game}", s.addr);
    let dom = dump_dom(browser, &url, Some(20_000));
    assert!(dom.contains("value 1 (first player's view)"), "{dom}");
    for m in a["moves"].as_array().unwrap() {
        let v = m["value"].as_i64().unwrap();
        let text = signed(v);
        let col = m["move"].as_str().unwrap();
        assert!(
            dom.contains(&format!("data-move=\"{col}\"")),
            "column {col} is drawn: {dom}"
        );
        assert!(
            dom.contains(&format!("\">{text}</div>")),
            "column {col}: {text}: {dom}"
        );
    }
    // 7 columns drawn, 6 cells each: 42 cells, 34 stones.
    assert_eq!(dom.matches("class=\"cell").count(), 42);
    assert_eq!(
        dom.matches("class=\"cell x").count() + dom.matches("class=\"cell o").count(),
        34
    );
}

/// The engine plays both sides of tic-tac-toe in the browser, move after move, to the end: a draw.
fn the_engine_plays_a_game_to_the_end_in_a_real_browser() {
    let browser = browser();
    let s = Server::start(&["--tt-mb", "16"]);
    let url = format!("http://{}/?game=tictactoe&engine=both&time=0.2", s.addr);
    let dom = dump_dom(browser, &url, Some(60_000));
    assert!(dom.contains("game over: draw"), "{dom}");
    // Nine moves: X five times, O four.
    assert_eq!(dom.matches(">X<").count(), 5, "{dom}");
    assert_eq!(dom.matches(">O<").count(), 4, "{dom}");
}

fn the_page_steps_to_the_end_in_a_real_browser() {
    let browser = browser();
    let dir = scratch_dir("browser", "browser");
    let page = dir.join("t.html");
    let (code, _, err) = gamesearch(&[
        "trace",
        &example_tree("cater-minimax.tree"),
        "--algo",
        "alphabeta,scout",
        "-o",
        &page.to_string_lossy(),
    ]);
    assert_eq!(code, 0, "{err}");
    let end = dom(browser, &page, "end");
    // Both panels at their last step: the value, the counters, every node drawn.
    for (i, leaves, steps) in [(0, 3, 16), (1, 4, 20)] {
        assert!(
            end.contains(&format!("id=\"result-{i}\">4<")),
            "result {i}: {end}"
        );
        assert!(
            end.contains(&format!("id=\"leaves-{i}\">{leaves}<")),
            "leaves {i}"
        );
        assert!(
            end.contains(&format!("id=\"steps-{i}\">{steps} / {steps}<")),
            "steps {i}"
        );
        assert!(
            end.contains(&format!("id=\"shown-{i}\">7<")),
            "panel {i}: all 7 nodes shown: {end}"
        );
    }
    assert!(
        end.contains("id=\"researches-1\">1<"),
        "SCOUT re-searches E once"
    );
    assert!(end.contains("id=\"stepno\">step 20 of 20<"));
    assert!(end.contains("id=\"cutoffs-0\">1<"), "alpha-beta cuts G off");
    // At the start only the root is shown and there is no result yet.
    let start = dom(browser, &page, "step=0");
    assert!(start.contains("id=\"result-0\">…<"));
    assert!(start.contains("id=\"shown-0\">1<"));
    // After 4 steps alpha-beta has entered A, B, D and evaluated D.
    let mid = dom(browser, &page, "step=4");
    assert!(mid.contains("id=\"leaves-0\">1<") && mid.contains("id=\"shown-0\">3<"));
    let _ = std::fs::remove_dir_all(dir);
}

/// MCTS-Solver's trace of Cater's tree at its last step: the proof of the root said in words,
/// its result, the playouts and the six nodes the tree grew to (G never joins it).
fn an_mcts_trace_steps_to_its_proof_in_a_real_browser() {
    let browser = browser();
    let dir = scratch_dir("browser", "mcts");
    let page = dir.join("t.html");
    let (code, _, err) = gamesearch(&[
        "trace",
        &example_tree("cater-minimax.tree"),
        "--algo",
        "mcts-solver",
        "-o",
        &page.to_string_lossy(),
    ]);
    assert_eq!(code, 0, "{err}");
    let end = dom(browser, &page, "end");
    assert!(
        end.contains("id=\"now-0\">A: 5 playouts, mean 1.000 for MAX, proven a MAX win.<"),
        "{end}"
    );
    for (id, want) in [
        ("result-0", "1"),
        ("leaves-0", "5"),
        ("shown-0", "6"),
        ("best-0", "B"),
    ] {
        assert!(end.contains(&format!("id=\"{id}\">{want}<")), "{id}: {end}");
    }
    let _ = std::fs::remove_dir_all(dir);
}

/// Issue #58, points of view: on `tictactoe:x........` (O to move) the numbers under the moves
/// were the mover's view (−1 under O's losing moves) while the line above said "first player's
/// view". Every number is now the first player's, as `/api/analyse` gives it: +1 under O's seven
/// losing cells, +0 under the centre; the colours say what each move does for the side to move.
fn the_values_under_the_moves_are_the_first_players_view() {
    let browser = browser();
    let s = Server::start(&["--tt-mb", "16"]);
    let game = "tictactoe:x........";
    let a = s.json(&format!("/api/analyse?game={game}"));
    let dom = dump_dom(
        browser,
        &format!("http://{}/?game={game}", s.addr),
        Some(20_000),
    );
    assert!(dom.contains("first player"), "{dom}");
    let mut shown = 0;
    for m in a["moves"].as_array().unwrap() {
        let v = m["value"].as_i64().unwrap();
        let text = signed(v);
        let class = if -v > 0 {
            "win"
        } else if -v < 0 {
            "loss"
        } else {
            "draw"
        };
        assert!(
            dom.contains(&format!(
                "class=\"val {class}\" style=\"font-size:16px\">{text}</span>"
            )),
            "move {}: {text} ({class}) not in: {dom}",
            m["move"]
        );
        shown += 1;
    }
    assert_eq!(shown, 8);
    assert!(!dom.contains(">-1</span>"), "{dom}");
}

/// Issue #58: a bad game in the page's address (`/?game=chess`) left no board and reset the
/// text box; the page now says what is wrong with it and shows the default board.
fn a_bad_game_in_the_address_keeps_a_board_and_says_why() {
    let browser = browser();
    let s = Server::start(&["--tt-mb", "16"]);
    let dom = dump_dom(
        browser,
        &format!("http://{}/?game=chess", s.addr),
        Some(10_000),
    );
    assert!(
        dom.contains("<div id=\"badgame\" class=\"error\">`chess`: the server plays"),
        "{dom}"
    );
    assert_eq!(
        dom.matches("class=\"cell").count(),
        42,
        "the default 7x6 board: {dom}"
    );
    // A time past the server's limit: the analysis is refused, and the page says why.
    let dom = dump_dom(
        browser,
        &format!("http://{}/?game=tictactoe&time=99", s.addr),
        Some(10_000),
    );
    assert!(
        dom.contains("class=\"error\">time=99: this server allows at most"),
        "{dom}"
    );
}

/// Positions of random Othello games (seeded): every ply of 12 games on 6x6 and 8x8 in the
/// move-list form, the same in the board form, and the first position where a side must pass.
fn othello_positions(seed: u64) -> (Vec<(String, Othello)>, String) {
    use rand::{Rng, SeedableRng};
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
    let (mut all, mut pass) = (Vec::new(), None);
    for game in 0..12 {
        let n = if game % 2 == 0 { 6 } else { 8 };
        let mut p = Othello::new(n).unwrap();
        let mut text = format!("othello:{n}x{n}:");
        loop {
            all.push((text.clone(), p));
            all.push((format!("othello:{}", p.notation()), p));
            let moves: Vec<u8> = p.moves().collect();
            if moves.is_empty() {
                break;
            }
            if moves == [PASS] && pass.is_none() {
                pass = Some(text.clone());
            }
            let m = moves[rng.gen_range(0..moves.len())];
            text.push_str(&p.move_name(m));
            p = p.play(m);
        }
    }
    (all, pass.expect("a pass in 12 random games"))
}

/// #53: Othello on the board page and in the viewer. The page's rules (boards.js, which draws
/// the board from the `game` text) against the library's on every position of random games,
/// both notations; each legal square shows the solver's value of its move and plays it when
/// clicked; a side with no move gets the pass button; a trace's hover boards are all drawn.
async fn othello_on_the_board_page_and_in_the_viewer() {
    let s = Server::start(&["--tt-mb", "16"]);
    // 6x6 after 16 plies: 16 empty squares, solved within the page's budget.
    let game = "othello:6x6:b3b4e5b2a4f6e4d5b1a1d6e3f5f4f3a2";
    let d = Driver::open(&format!("http://{}/?game={game}&time=2", s.addr)).await;
    d.until(
        30,
        "the exact value",
        "return document.getElementById('status').textContent.includes(\"(first player's view)\") && !document.getElementById('status').textContent.includes('not exact')",
    )
    .await;
    let shown = d
        .js("return [...document.querySelectorAll('.oth .move')].map(e => [e.dataset.move, e.textContent])")
        .await;
    let p: Othello = game["othello:".len()..].parse().unwrap();
    let legal: Vec<String> = p.moves().map(|m| p.move_name(m)).collect();
    let shown = shown.as_array().unwrap();
    assert_eq!(shown.len(), legal.len(), "{shown:?}");
    for sq in shown {
        let (m, text) = (sq[0].as_str().unwrap(), sq[1].as_str().unwrap());
        assert!(legal.iter().any(|l| l == m), "{m} is legal");
        let v = exact(&format!("{game}{m}"));
        let want = signed(v);
        assert_eq!(text, want, "the value under {m}");
    }
    assert_eq!(
        d.js("return document.querySelectorAll('.oth .disc').length")
            .await,
        json!(20),
        "16 plies from 4 discs"
    );
    let first = shown[0][0].as_str().unwrap().to_string();
    d.click(&format!(".oth .move[data-move='{first}']")).await;
    d.until(
        10,
        "the move played",
        &format!("return document.getElementById('game').value === '{game}{first}'"),
    )
    .await;
    // The page's rules against the library's, position by position.
    let (positions, pass) = othello_positions(53);
    let games: Vec<&str> = positions.iter().map(|(g, _)| g.as_str()).collect();
    let read = d
        .js(&format!(
            "return {}.map(g => {{ const b = parseBoard(g); return b && [b.cells.map(c => c || '-').join(''), b.side, b.legal.map(l => l ? '1' : '0').join('')]; }})",
            serde_json::to_string(&games).unwrap()
        ))
        .await;
    for ((g, p), b) in positions.iter().zip(read.as_array().unwrap()) {
        let n = p.size();
        let (black, white) = p.discs();
        let bit = |i: usize| 1u64 << (8 * (i / n) + i % n);
        let cells: String = (0..n * n)
            .map(|i| match (black & bit(i) != 0, white & bit(i) != 0) {
                (true, _) => 'x',
                (_, true) => 'o',
                _ => '-',
            })
            .collect();
        let legal: String = (0..n * n)
            .map(|i| {
                if p.legal_squares() & bit(i) != 0 {
                    '1'
                } else {
                    '0'
                }
            })
            .collect();
        let side = if p.black_to_move() { "x" } else { "o" };
        assert_eq!(b, &json!([cells, side, legal]), "{g}");
    }
    // A side with no move: the pass button, with its value, plays `pass`.
    d.js(&format!("load('{pass}', true); return true")).await;
    d.until(
        10,
        "the pass button",
        "return !!document.querySelector('#pass button')",
    )
    .await;
    // (Clicked from the page: analysis rounds redraw the board under WebDriver's element.)
    d.js("document.querySelector('#pass button').click(); return true")
        .await;
    d.until(
        10,
        "the pass played",
        &format!("return document.getElementById('game').value === '{pass}pass'"),
    )
    .await;
    d.end().await;
    // The viewer: every node of an Othello trace has a board the page draws.
    viewer_draws_every_board("othello.html", "othello:6x6:b3b4e5b2").await;
}

/// Domineering on the board page: the value under every place is the solver's, a click places
/// the domino; the page reads the notation as the library does; every node of a trace has a
/// board the viewer draws.
async fn domineering_on_the_board_page_and_in_the_viewer() {
    let s = Server::start(&["--tt-mb", "16"]);
    let game = "domineering:5x5:b2b3,c2d2";
    let d = Driver::open(&format!("http://{}/?game={game}&time=2", s.addr)).await;
    d.until(
        30,
        "the exact value",
        "return document.getElementById('status').textContent.includes(\"(first player's view)\") && !document.getElementById('status').textContent.includes('not exact')",
    )
    .await;
    let shown = d
        .js("return [...document.querySelectorAll('.dom .move')].map(e => [e.dataset.move, e.textContent])")
        .await;
    let p: Domineering = game["domineering:".len()..].parse().unwrap();
    let legal: Vec<String> = p.moves().map(|m| p.move_name(m)).collect();
    let shown = shown.as_array().unwrap();
    assert_eq!(shown.len(), legal.len(), "{shown:?}");
    for sq in shown {
        let (m, text) = (sq[0].as_str().unwrap(), sq[1].as_str().unwrap());
        assert!(legal.iter().any(|l| l == m), "{m} is legal");
        assert_eq!(
            text,
            signed(exact(&format!("{game},{m}"))),
            "the value under {m}"
        );
    }
    // Two dominoes of each colour: Vertical's b2b3 and Horizontal's c2d2.
    let colours = d
        .js("return ['v', 'h'].map(c => document.querySelectorAll('.dom .sq.' + c).length)")
        .await;
    assert_eq!(colours, json!([2, 2]));
    let first = shown[0][0].as_str().unwrap().to_string();
    d.click(&format!(".dom .move[data-move='{first}']")).await;
    d.until(
        10,
        "the move played",
        &format!("return document.getElementById('game').value === '{game},{first}'"),
    )
    .await;
    // The page's reading of the notation against the library's, position by position.
    let mut games = Vec::new();
    let mut q = Domineering::new(4, 6, false).unwrap();
    let mut text = String::from("domineering:4x6:h");
    let mut sep = ":";
    while let Some(m) = q.moves().nth(q.moves().count() / 3) {
        text = format!("{text}{sep}{}", q.move_name(m));
        sep = ",";
        q = q.play(m);
        games.push((text.clone(), q));
        games.push((format!("domineering:{}", q.notation()), q));
    }
    let names: Vec<&str> = games.iter().map(|(g, _)| g.as_str()).collect();
    let read = d
        .js(&format!(
            "return {}.map(g => {{ const b = parseBoard(g); return b && [b.cells.map(c => c ? '#' : '-').join(''), b.vertical]; }})",
            serde_json::to_string(&names).unwrap()
        ))
        .await;
    for ((g, q), b) in games.iter().zip(read.as_array().unwrap()) {
        let cells: String = (0..q.rows() * q.cols())
            .map(|i| if q.empty() >> i & 1 == 1 { '-' } else { '#' })
            .collect();
        assert_eq!(b, &json!([cells, q.vertical_to_move()]), "{g}");
    }
    d.end().await;
    viewer_draws_every_board("domineering.html", "domineering:4x4:b1b2").await;
}

/// Hex on the board page: every empty cell a hexagon with the solver's value of its move, the
/// stones drawn, a click plays; White's swap is a button with its value; the page's reading of
/// the notation is the library's, position by position; the viewer draws every node's board.
async fn hex_on_the_board_page_and_in_the_viewer() {
    let s = Server::start(&["--tt-mb", "16"]);
    let game = "hex:4x4:swap:b2";
    let d = Driver::open(&format!("http://{}/?game={game}&time=2", s.addr)).await;
    d.until(
        30,
        "the exact value",
        "return document.getElementById('status').textContent.includes(\"(first player's view)\") && !document.getElementById('status').textContent.includes('not exact')",
    )
    .await;
    let shown = d
        .js("return [...document.querySelectorAll('.hexboard g[data-move]')].map(e => [e.dataset.move, e.querySelector('text').textContent])")
        .await;
    let p: Hex = game["hex:".len()..].parse().unwrap();
    let legal: Vec<String> = p
        .moves()
        .map(|m| p.move_name(m))
        .filter(|m| m != "swap")
        .collect();
    let shown = shown.as_array().unwrap();
    assert_eq!(shown.len(), legal.len(), "{shown:?}");
    for cell in shown {
        let (m, text) = (cell[0].as_str().unwrap(), cell[1].as_str().unwrap());
        assert!(legal.iter().any(|l| l == m), "{m} is legal");
        assert_eq!(
            text,
            signed(exact(&format!("{game},{m}"))),
            "the value under {m}"
        );
    }
    // The swap button, with the value of swapping.
    let swap = d
        .js("const b = document.querySelector('#swap'); return b && b.querySelector('.val').textContent")
        .await;
    assert_eq!(swap, json!(signed(exact(&format!("{game},swap")))));
    d.click("#swap button").await;
    d.until(
        10,
        "the swap played",
        &format!("return document.getElementById('game').value === '{game},swap'"),
    )
    .await;
    // One white stone, no black one, after the swap.
    let stones = d
        .js("return ['#111', '#fff'].map(c => [...document.querySelectorAll('.hexboard polygon')].filter(e => e.getAttribute('fill') === c).length)")
        .await;
    assert_eq!(stones, json!([0, 1]));
    // The page's reading of the notation against the library's, position by position.
    let mut games = Vec::new();
    let mut q = Hex::new(5, true).unwrap();
    let mut text = String::from("hex:5x5:swap");
    let mut sep = ":";
    while let Some(m) = q.moves().nth(q.moves().count() / 3) {
        text = format!("{text}{sep}{}", q.move_name(m));
        sep = ",";
        q = q.play(m);
        games.push((text.clone(), q));
        games.push((format!("hex:{}", q.notation()), q));
    }
    let names: Vec<&str> = games.iter().map(|(g, _)| g.as_str()).collect();
    let read = d
        .js(&format!(
            "return {}.map(g => {{ const b = parseBoard(g); return b && [b.cells.map(c => c || '-').join(''), b.black]; }})",
            serde_json::to_string(&names).unwrap()
        ))
        .await;
    for ((g, q), b) in games.iter().zip(read.as_array().unwrap()) {
        let cells: String = (0..q.size() * q.size())
            .map(|i| {
                if q.black() >> i & 1 == 1 {
                    'b'
                } else if q.white() >> i & 1 == 1 {
                    'w'
                } else {
                    '-'
                }
            })
            .collect();
        assert_eq!(b, &json!([cells, q.black_to_move()]), "{g}");
    }
    d.end().await;
    viewer_draws_every_board("hex.html", "hex:4x4:b2").await;
}

/// Dōbutsu shōgi: a click on Sente's lion shows each of its moves' values, each the strong
/// solution's; a click on a square plays there; the viewer draws every node's board.
async fn dobutsu_on_the_board_page_and_in_the_viewer() {
    use gamesearch::retrograde::{solve_by_unmoves, RetrogradeConfig};
    let s = Server::start(&["--tt-mb", "16"]);
    let game = "dobutsu:board=.l./.c./.C./.L./s";
    let d = Driver::open(&format!("http://{}/?game={game}&time=2", s.addr)).await;
    d.until(
        60,
        "the exact value",
        "return document.getElementById('status').textContent.includes(\"(first player's view)\") && !document.getElementById('status').textContent.includes('not exact')",
    )
    .await;
    let root: Dobutsu = game.parse().unwrap();
    let strong = solve_by_unmoves(&root, &RetrogradeConfig::default()).unwrap();
    d.click(".dob [data-square=b4]").await;
    let shown = d
        .js("return [...document.querySelectorAll('.dob .to')].map(e => [e.dataset.move, e.querySelector('.val').textContent])")
        .await;
    let shown = shown.as_array().unwrap();
    let lion_moves = root
        .moves()
        .filter(|&m| root.move_name(m).starts_with("b4"))
        .count();
    assert_eq!(shown.len(), lion_moves, "{shown:?}");
    for cell in shown {
        let (m, text) = (cell[0].as_str().unwrap(), cell[1].as_str().unwrap());
        let child = root.play(root.parse_move(m).unwrap());
        let want = strong.probe(&child).unwrap().value;
        assert_eq!(text, signed(want.into()), "the value under {m}");
    }
    d.click(".dob .to[data-move=b4a3]").await;
    let child = root.play(root.parse_move("b4a3").unwrap());
    d.until(
        10,
        "the move played",
        &format!("return document.getElementById('game').value === 'dobutsu:board={child}'"),
    )
    .await;
    d.end().await;
    viewer_draws_every_board("dobutsu.html", game).await;
}

/// The viewer on an alpha-beta trace of `game` to depth 3 (written to `name`): every node has a
/// board the page reads and draws.
async fn viewer_draws_every_board(name: &str, game: &str) {
    let page = trace_page(name, &[game, "--algo", "alphabeta", "--depth", "3"]);
    let d = Driver::open(&format!("file://{}", page.display())).await;
    d.until(10, "the viewer", "return !!window.viewer").await;
    let drawn = d
        .js("const p = viewer.panels[0]; return p.boards.map(b => { const x = parseBoard(b); return !!x && drawSmallBoard(document.createElement('canvas').getContext('2d'), x, 0, 0, false)[0] > 40; })")
        .await;
    let drawn = drawn.as_array().unwrap();
    assert!(drawn.len() > 20, "{} nodes", drawn.len());
    assert!(drawn.iter().all(|b| b == &json!(true)), "{drawn:?}");
    d.end().await;
    let _ = std::fs::remove_file(page);
}

/// Loads the page in headless Chromium at `#fragment` and returns the DOM after its script ran.
fn dom(browser: &str, page: &Path, fragment: &str) -> String {
    dump_dom(
        browser,
        &format!("file://{}#{fragment}", page.display()),
        None,
    )
}

/// An async test run to its end on a runtime of its own.
fn on_runtime<F: std::future::Future<Output = ()>>(test: fn() -> F) -> Result<(), Failed> {
    tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .map_err(|e| Failed::from(format!("a tokio runtime: {e}")))?
        .block_on(test());
    Ok(())
}

fn main() -> std::process::ExitCode {
    let args = Arguments::from_args();
    let here = chromium().is_some() && runs("chromedriver");
    let needs_browser = |t: Trial| t.with_ignored_flag(!here);
    let plain = |f: fn()| {
        move || {
            f();
            Ok(())
        }
    };
    // A test that needs the browser, by its function's name (`async` ones on a runtime of
    // their own).
    macro_rules! browser_test {
        (async $f:ident) => {
            needs_browser(Trial::test(stringify!($f), || on_runtime($f)))
        };
        ($f:ident) => {
            needs_browser(Trial::test(stringify!($f), plain($f)))
        };
    }
    let trials = vec![
        Trial::test("ci_has_a_browser", plain(ci_has_a_browser)).with_ignored_flag(here),
        browser_test!(async clicking_plays_undoes_and_redoes_and_every_value_is_the_solvers),
        browser_test!(async a_person_plays_the_engine_to_the_end_by_clicking),
        browser_test!(async flip_sides_turns_the_kalah_board_and_swaps_the_engines_side),
        browser_test!(async the_viewer_fits_follows_and_shows_a_board_on_hover),
        browser_test!(async a_trace_of_100000_nodes_loads_steps_and_fits),
        browser_test!(async a_board_wider_than_nine_columns_reads_and_writes_the_comma_notation),
        browser_test!(async othello_on_the_board_page_and_in_the_viewer),
        browser_test!(async domineering_on_the_board_page_and_in_the_viewer),
        browser_test!(async hex_on_the_board_page_and_in_the_viewer),
        browser_test!(async dobutsu_on_the_board_page_and_in_the_viewer),
        browser_test!(the_board_shows_every_columns_value_in_a_real_browser),
        browser_test!(the_engine_plays_a_game_to_the_end_in_a_real_browser),
        browser_test!(the_values_under_the_moves_are_the_first_players_view),
        browser_test!(a_bad_game_in_the_address_keeps_a_board_and_says_why),
        browser_test!(the_page_steps_to_the_end_in_a_real_browser),
        browser_test!(an_mcts_trace_steps_to_its_proof_in_a_real_browser),
    ];
    libtest_mimic::run(&args, trials).exit_code()
}
