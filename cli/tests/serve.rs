//! `gamesearch serve` as a client meets it, over real sockets: every endpoint; each move's value
//! against an independent source (Pons' published scores for the position, and the library's
//! solver for each move); bad input is 400 with a JSON error naming the problem; budgets are
//! kept; a full queue answers 503; a client that goes away stops its search; Ctrl-C stops the
//! server.

use std::io::{BufRead, BufReader, Write};
use std::net::TcpStream;
use std::process::Command;
use std::time::{Duration, Instant};

use serde_json::Value;

mod common;
use common::{exact, Server};

/// Polls `done` for up to `within`.
fn eventually(within: Duration, mut done: impl FnMut() -> bool) -> bool {
    let start = Instant::now();
    while start.elapsed() < within {
        if done() {
            return true;
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    false
}

#[test]
fn legal_play_and_the_page() {
    let s = Server::start(&["--tt-mb", "16"]);
    let l = s.json("/api/legal?game=connect4:7x6:4453");
    assert_eq!(l["to_move"], "max");
    assert_eq!(l["over"], false);
    let moves: Vec<&str> = l["moves"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["move"].as_str().unwrap())
        .collect();
    assert_eq!(moves, ["1", "2", "3", "4", "5", "6", "7"]);
    assert_eq!(l["moves"][3]["game"], "connect4:7x6:44534");
    let p = s.json("/api/play?game=connect4:7x6&move=4");
    assert_eq!(p["game"], "connect4:7x6:4");
    assert_eq!(p["to_move"], "min");
    // A win: the game is over with its value.
    let w = s.json("/api/play?game=connect4:7x6:445566&move=7");
    assert_eq!(w["over"], true);
    assert!(w["value"].as_i64().unwrap() > 0);
    let k = s.json("/api/play?game=kalah:6,4&move=3");
    assert_eq!(k["game"], "kalah:4,4,0,5,5,5/4,4,4,4,4,4/1,0/S"); // the last seed in the store

    // Kalah's capture rule travels with the position and is named for the page.
    let k = s.json("/api/play?game=kalah:6,4:standard&move=3");
    assert_eq!(k["game"], "kalah:4,4,0,5,5,5/4,4,4,4,4,4/1,0/S:standard");
    let l = s.json("/api/legal?game=kalah:4,4,0,5,5,5/4,4,4,4,4,4/1,0/S:standard");
    assert!(
        l["rules"].as_str().unwrap().starts_with("standard rule"),
        "{l}"
    );
    let l = s.json("/api/legal?game=kalah:6,4");
    assert!(
        l["rules"]
            .as_str()
            .unwrap()
            .starts_with("empty-capture rule"),
        "{l}"
    );
    assert!(s.json("/api/legal?game=tictactoe").get("rules").is_none());
    let t = s.json("/api/legal?game=tictactoe:xo.......");
    assert_eq!(t["moves"].as_array().unwrap().len(), 7);
    // Othello (#53): a move list grows by the move, a board form gives the child's board form,
    // and a side with no move has `pass`.
    let o = s.json("/api/legal?game=othello");
    assert_eq!(o["moves"][2]["game"], "othello:8x8:f5");
    let o = s.json("/api/play?game=othello:6x6:c2&move=b2");
    assert_eq!(o["game"], "othello:6x6:c2b2");
    let o = s.json("/api/play?game=othello:4x4:board=-----OX--XO-----/X&move=b1");
    assert_eq!(o["game"], "othello:4x4:board=-X---XX--XO-----/O");
    let o = s.json("/api/legal?game=othello:4x4:board=XXXXXXXXXXXXXXO-/O");
    assert_eq!(o["moves"][0]["move"], "pass", "{o}");
    let (status, page) = s.get("/");
    assert_eq!(status, 200);
    assert!(page.contains("gamesearch analysis board"), "{page}");
    // The step-through viewer of one search of the position.
    let (status, page) = s.get("/trace?game=tictactoe:xo.......&algo=scout&depth=3");
    assert_eq!(status, 200, "{page}");
    assert!(page.contains("scout on tictactoe:xo......."), "{page}");
    assert!(page.contains("id=\"stepno\""), "the viewer's step counter");
}

/// Dōbutsu shōgi on the board: a move list grows, the page gets the board form (drawing a move
/// list would need the rules in the page), and a traced search marks where a position repeats.
#[test]
fn dobutsu_is_served_and_its_trace_marks_repetitions() {
    let s = Server::start(&[]);
    let l = s.json("/api/legal?game=dobutsu");
    assert_eq!(l["board"], "dobutsu:board=gle/.c./.C./ELG/s", "{l}");
    assert_eq!(l["moves"].as_array().unwrap().len(), 4, "{l}");
    assert_eq!(
        l["moves"][0]["game"],
        format!("dobutsu:{}", l["moves"][0]["move"].as_str().unwrap())
    );
    let p = s.json("/api/play?game=dobutsu:b3b2&move=c1b2");
    assert_eq!(p["game"], "dobutsu:b3b2,c1b2", "{p}");
    let b = s.json("/api/legal?game=dobutsu:board=.l./.c./.C./.L./s");
    assert!(
        b["moves"][0]["game"]
            .as_str()
            .unwrap()
            .starts_with("dobutsu:board="),
        "{b}"
    );
    assert!(s.json("/api/legal?game=tictactoe")["board"].is_null());
    // Lions stepping back and forth: a depth-4 search meets its root again.
    let (status, page) =
        s.get("/trace?game=dobutsu:board=.l./.c./.C./.L./s&algo=alphabeta&depth=4");
    assert_eq!(status, 200, "{page}");
    assert!(page.contains("\"repeats\":0"), "a node repeating the root");
    assert!(
        page.contains("dobutsu:board=.l./.c./.C./.L./s"),
        "the root's board"
    );
}

#[test]
fn every_moves_value_is_the_solvers_and_the_position_pons() {
    let s = Server::start(&["--tt-mb", "16"]);
    // Pons' benchmark positions: the position's score for the side to move is published.
    let lines = include_str!("../../tests/data/connect4/Test_L3_R1");
    for line in lines.lines().filter(|l| !l.starts_with('#')).take(3) {
        let (moves, score) = line.split_once(' ').unwrap();
        let game = format!("connect4:7x6:{moves}");
        let a = s.json(&format!("/api/analyse?game={game}&time=2"));
        assert_eq!(a["complete"], true, "{game}: {a}");
        let sign = if a["to_move"] == "max" { 1 } else { -1 };
        assert_eq!(
            a["value"].as_i64().unwrap() * sign,
            score.parse::<i64>().unwrap(),
            "{game}: {a}"
        );
        for m in a["moves"].as_array().unwrap() {
            let after = m["game"].as_str().unwrap();
            assert_eq!(m["value"].as_i64().unwrap(), exact(after), "{after}: {m}");
        }
        let best = a["best_move"].as_str().unwrap();
        let best = a["moves"]
            .as_array()
            .unwrap()
            .iter()
            .find(|m| m["move"] == best)
            .unwrap();
        assert_eq!(best["value"], a["value"], "the best move keeps the value");
    }
    // Kalah and tic-tac-toe: the whole game within the budget.
    for game in ["kalah:3,3", "tictactoe", "tictactoe:x...o...."] {
        let a = s.json(&format!("/api/analyse?game={game}"));
        assert_eq!(a["value"].as_i64().unwrap(), exact(game), "{game}: {a}");
        for m in a["moves"].as_array().unwrap() {
            let after = m["game"].as_str().unwrap();
            assert_eq!(m["value"].as_i64().unwrap(), exact(after), "{after}");
        }
    }
    // A finished game: its value, no moves.
    let a = s.json("/api/analyse?game=connect4:7x6:4455667");
    assert_eq!(a["over"], true);
    assert!(a["moves"].as_array().unwrap().is_empty());
}

#[test]
fn the_engine_moves_and_a_hard_position_gets_evaluations_within_its_budget() {
    let s = Server::start(&["--tt-mb", "16", "--max-time", "5"]);
    let e = s.json("/api/engine?game=connect4:7x6:445566&time=0.5");
    assert!(e["move"] == "3" || e["move"] == "7", "{e}");
    assert_eq!(e["mate"], 1);
    // The empty 7x6 board does not solve in 1 s: each move gets the engine's evaluation and
    // depth, and the answer comes within the budget (plus what a last node takes).
    let a = s.json("/api/analyse?game=connect4:7x6&time=1");
    assert!(a["value"].is_null(), "{a}");
    assert!(a["time_ms"].as_f64().unwrap() < 1_000.0 + 500.0, "{a}");
    for m in a["moves"].as_array().unwrap() {
        assert!(m["value"].is_null() && m["eval"].is_i64(), "{m}");
        assert!(m["depth"].as_u64().unwrap() > 0, "{m}");
    }
    let a = s.json("/api/analyse?game=connect4:7x6&nodes=1000");
    // The budget is checked every 1,024 nodes, by the solver and the engine on each of 7 moves.
    assert!(a["nodes"].as_u64().unwrap() <= 1000 + 14 * 1024, "{a}");
    // The Monte-Carlo drivers: MCTS-Solver and PN-MCTS prove the immediate win (MAX's view: X,
    // to move, wins); plain UCT spends its playouts and prefers a winning move.
    for driver in ["mcts-solver", "pn-mcts"] {
        let e = s.json(&format!(
            "/api/engine?game=connect4:7x6:445566&driver={driver}&time=1"
        ));
        assert_eq!(e["proven"].as_i64(), Some(1), "{e}");
        assert!((0.0..=1.0).contains(&e["mean"].as_f64().unwrap()), "{e}");
        assert!(e["move"] == "3" || e["move"] == "7", "{e}");
    }
    let e = s.json("/api/engine?game=connect4:7x6:445566&driver=mcts&nodes=2000&seed=3");
    assert_eq!(
        (e["playouts"].as_u64(), e["proven"].as_i64()),
        (Some(2000), None),
        "{e}"
    );
    assert_eq!(e["children"].as_array().unwrap().len(), 7, "{e}");
    assert!(e["move"] == "3" || e["move"] == "7", "{e}");
}

#[test]
fn bad_input_is_400_with_a_json_error() {
    let s = Server::start(&["--tt-mb", "16", "--max-time", "2"]);
    let long = format!("/api/legal?game={}", "4".repeat(3000));
    for (path, status, says) in [
        ("/api/legal", 400, "missing `game`"),
        ("/api/legal?game=chess", 400, "chess"),
        ("/api/legal?game=connect4:7x6:4444444", 400, "column 4"),
        ("/api/legal?game=random:b=2,h=2", 400, "the server plays"),
        ("/api/play?game=connect4:7x6", 400, "missing `move`"),
        ("/api/play?game=connect4:7x6&move=9", 400, "not legal"),
        ("/api/play?game=kalah:6,4&move=0", 400, "not legal"),
        ("/api/legal?game=othello:8x8:a1", 400, "a1 is not legal"),
        ("/api/legal?game=othello:5x5", 400, "4x4, 6x6 or 8x8"),
        (
            "/api/play?game=othello&move=a1",
            400,
            "legal moves are d3 c4 f5 e6",
        ),
        ("/api/analyse?game=tictactoe&time=abc", 400, "not a number"),
        ("/api/analyse?game=tictactoe&time=-1", 400, "more than 0"),
        ("/api/analyse?game=tictactoe&time=60", 400, "at most 2 s"),
        ("/api/analyse?game=tictactoe&nodes=0", 400, "nodes=0"),
        ("/api/engine?game=tictactoe:xxxoo....", 400, "over"),
        ("/api/engine?game=tictactoe&driver=mtcs", 400, "driver=mtcs"),
        (
            "/api/engine?game=tictactoe&driver=mcts&seed=-1",
            400,
            "seed=-1",
        ),
        ("/trace?game=tictactoe&algo=bogus", 400, "bogus"),
        ("/trace?game=tictactoe&depth=99", 400, "depth=99"),
        (long.as_str(), 414, "longer than"),
    ] {
        let (got, body) = s.get(path);
        assert_eq!(got, status, "{path}: {body}");
        let v: Value =
            serde_json::from_str(&body).unwrap_or_else(|e| panic!("{path}: {e}: {body}"));
        let error = v["error"].as_str().unwrap();
        assert!(error.contains(says), "{path}: {error}");
    }
    let (got, _) = s.get("/api/nothing");
    assert_eq!(got, 404);
}

#[test]
fn a_full_queue_answers_503_and_a_client_that_leaves_stops_its_search() {
    let s = Server::start(&["--tt-mb", "16", "--max-time", "60", "--queue", "1"]);
    // A long analysis holds the only place; the client then goes away.
    let mut long = TcpStream::connect(&s.addr).unwrap();
    write!(
        long,
        "GET /api/analyse?game=connect4:7x6&time=60 HTTP/1.1\r\nHost: x\r\n\r\n"
    )
    .unwrap();
    assert!(
        eventually(Duration::from_secs(10), || s.status()["running"] == 1),
        "the analysis started"
    );
    let (status, body) = s.get("/api/analyse?game=tictactoe");
    assert_eq!(status, 503, "{body}");
    assert!(body.contains("busy"), "{body}");
    // Simple requests are still answered during the search.
    assert_eq!(s.json("/api/legal?game=tictactoe")["over"], false);
    drop(long);
    // Its search stops long before its 60 s.
    assert!(
        eventually(Duration::from_secs(20), || s.status()["running"] == 0),
        "the search of a client that left goes on: {}",
        s.status()
    );
    assert_eq!(s.status()["in_queue"], 0);
    assert_eq!(s.json("/api/analyse?game=tictactoe")["value"], 0);
}

/// `(event, data)` of every server-sent event in `body`.
fn events(body: &str) -> Vec<(String, Value)> {
    let mut out = Vec::new();
    let mut name = String::new();
    for line in body.lines() {
        if let Some(n) = line.strip_prefix("event: ") {
            name = n.to_string();
        } else if let Some(d) = line.strip_prefix("data: ") {
            out.push((name.clone(), serde_json::from_str(d).unwrap()));
        }
    }
    out
}

#[test]
fn the_stream_sends_rounds_then_done_and_a_closed_stream_stops_its_search() {
    let s = Server::start(&["--tt-mb", "16", "--max-time", "60"]);
    // Tic-tac-toe solves in the first round: `done` with the exact value.
    let (status, body) = s.get("/api/analyse/stream?game=tictactoe");
    assert_eq!(status, 200, "{body}");
    let ev = events(&body);
    let (last, a) = ev.last().unwrap();
    assert_eq!(last, "done", "{body}");
    assert_eq!(a["value"], 0);
    assert!(ev[..ev.len() - 1].iter().all(|(n, _)| n == "round"));
    // The empty 7x6 board for up to 24 s (a first round of 3 s): closing the stream after the
    // first round stops the search, 20 s before its budget would.
    let mut c = TcpStream::connect(&s.addr).unwrap();
    write!(
        c,
        "GET /api/analyse/stream?game=connect4:7x6&time=24 HTTP/1.1\r\nHost: x\r\n\r\n"
    )
    .unwrap();
    let mut r = BufReader::new(c.try_clone().unwrap());
    let mut line = String::new();
    let first = loop {
        line.clear();
        assert!(
            r.read_line(&mut line).unwrap() > 0,
            "the stream ended early"
        );
        if let Some(d) = line.trim_end().strip_prefix("data: ") {
            break serde_json::from_str::<Value>(d).unwrap();
        }
    };
    assert!(first["value"].is_null() && first["moves"][3]["depth"].as_u64().unwrap() > 0);
    assert_eq!(s.status()["running"], 1);
    drop(r);
    drop(c);
    assert!(
        eventually(Duration::from_secs(10), || s.status()["running"] == 0),
        "the search goes on after its stream closed: {}",
        s.status()
    );
}

#[test]
fn bad_flags_and_a_busy_port_are_one_line_exit_2() {
    let held = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let port = held.local_addr().unwrap().port().to_string();
    for (args, says) in [
        (vec!["serve", "--port", &port], "cannot listen"),
        (vec!["serve", "--max-time", "0"], "--max-time"),
        (vec!["serve", "--port", "70000"], "70000"),
        (vec!["serve", "--host", "nowhere"], "nowhere"),
        (vec!["serve", "--queue", "0"], "0"),
    ] {
        let out = Command::new(env!("CARGO_BIN_EXE_gamesearch"))
            .args(&args)
            .output()
            .unwrap();
        let err = String::from_utf8(out.stderr).unwrap();
        assert_eq!(out.status.code(), Some(2), "{args:?}: {err}");
        assert_eq!(err.lines().count(), 1, "{args:?}: {err}");
        assert!(err.contains(says), "{args:?}: {err}");
    }
}

#[cfg(unix)]
#[test]
fn sigterm_stops_the_server() {
    let mut s = Server::start(&["--tt-mb", "16"]);
    assert_eq!(s.json("/api/legal?game=tictactoe")["over"], false);
    // SAFETY: sending a signal to our own child.
    unsafe {
        libc::kill(s.child.id() as i32, libc::SIGTERM);
    }
    let mut stopped = false;
    assert!(eventually(Duration::from_secs(10), || {
        stopped = matches!(s.child.try_wait(), Ok(Some(_)));
        stopped
    }));
}

/// Issue #58: SIGTERM while a client holds a half-sent request (`GET /api/status HTTP/1.1` and
/// nothing more) waited for that client (30 s, until it left); the server now stops within its
/// two-second grace, with status 130.
#[cfg(unix)]
#[test]
fn sigterm_does_not_wait_for_a_half_sent_request() {
    let mut s = Server::start(&["--tt-mb", "16"]);
    let mut idle = TcpStream::connect(&s.addr).unwrap();
    write!(idle, "GET /api/status HTTP/1.1\r\n").unwrap();
    std::thread::sleep(Duration::from_millis(300));
    let sent = Instant::now();
    // SAFETY: sending a signal to our own child.
    unsafe {
        libc::kill(s.child.id() as i32, libc::SIGTERM);
    }
    let mut code = None;
    assert!(
        eventually(Duration::from_secs(6), || {
            code = s.child.try_wait().ok().flatten().and_then(|st| st.code());
            code.is_some()
        }),
        "still serving {:?} after SIGTERM",
        sent.elapsed()
    );
    assert_eq!(code, Some(130));
    drop(idle);
}

/// Issue #58: an unknown path and a method other than GET had empty bodies; docs/guide/server-api.md promises
/// a JSON error for every error.
#[test]
fn unknown_paths_and_methods_answer_json_errors() {
    let s = Server::start(&["--tt-mb", "16"]);
    let (status, body) = s.get("/nowhere");
    assert_eq!(status, 404);
    let v: Value = serde_json::from_str(&body).unwrap_or_else(|e| panic!("{e}: {body:?}"));
    assert!(v["error"].as_str().unwrap().contains("/nowhere"), "{v}");
    for method in ["PUT", "DELETE", "POST"] {
        let mut c = TcpStream::connect(&s.addr).unwrap();
        write!(
            c,
            "{method} /api/status HTTP/1.1\r\nHost: x\r\nContent-Length: 0\r\nConnection: close\r\n\r\n"
        )
        .unwrap();
        let mut reply = String::new();
        std::io::Read::read_to_string(&mut c, &mut reply).unwrap();
        assert!(reply.starts_with("HTTP/1.1 405"), "{method}: {reply}");
        let body = reply.split_once("\r\n\r\n").map_or("", |(_, b)| b);
        let v: Value = serde_json::from_str(body).unwrap_or_else(|e| panic!("{e}: {reply:?}"));
        assert!(v["error"].as_str().unwrap().contains(method), "{v}");
    }
    // Requests hyper answers itself, before any route: a malformed request line (400) and more
    // headers than it reads (431) get the same JSON error (#58: they had empty bodies).
    let many: String = (0..200).map(|i| format!("X-{i}: a\r\n")).collect();
    for (request, status, words) in [
        (
            "GARBAGE\r\n\r\n".to_string(),
            "400",
            "malformed HTTP request",
        ),
        (
            format!("GET /api/status HTTP/1.1\r\nHost: x\r\n{many}\r\n"),
            "431",
            "at most 100 headers",
        ),
    ] {
        let mut c = TcpStream::connect(&s.addr).unwrap();
        c.write_all(request.as_bytes()).unwrap();
        let mut reply = String::new();
        std::io::Read::read_to_string(&mut c, &mut reply).unwrap();
        assert!(reply.starts_with(&format!("HTTP/1.1 {status}")), "{reply}");
        assert!(reply.contains("content-type: application/json"), "{reply}");
        let body = reply.split_once("\r\n\r\n").map_or("", |(_, b)| b);
        let v: Value = serde_json::from_str(body).unwrap_or_else(|e| panic!("{e}: {reply:?}"));
        assert!(v["error"].as_str().unwrap().contains(words), "{v}");
    }
}
