//! One regression test per item of issue #77 ("What a new user met"), numbered as there. The
//! crash of item 1 is the library's: `tests/endless.rs` runs every algorithm on two games
//! whose positions repeat.

mod common;
use common::{gamesearch, gamesearch_stdin, Server};

use std::io::{Read, Write};
use std::net::TcpStream;
use std::time::{Duration, Instant};

/// The number after `value` on the engine's last iteration line ("depth  13  value  -1 …").
fn last_iteration_value(out: &str) -> String {
    let line = out
        .lines()
        .rev()
        .find(|l| l.starts_with("depth "))
        .unwrap_or_else(|| panic!("no iteration in {out}"));
    let after = line.split("value").nth(1).expect("a value");
    after.split("  nodes").next().unwrap().trim().to_string()
}

/// #77.2: `search connect4:7x6:4 --max-time 0.5` printed `value -1`, then `best move 4 (+1 for
/// the side to move)`. Every value printed is now the first player's; a proven result names
/// its winner.
#[test]
fn i77_2_search_prints_one_point_of_view() {
    for game in ["connect4:7x6:4", "connect4:7x6:44", "kalah:4,3"] {
        let (code, out, err) = gamesearch(&["search", game, "--max-time", "0.3"]);
        assert_eq!(code, 0, "{err}");
        assert!(!out.contains("side to move"), "{out}");
        let best = out.lines().find(|l| l.starts_with("best move")).unwrap();
        let value = last_iteration_value(&out);
        if value.contains(" wins in ") {
            assert!(best.contains(&value), "{best} vs {value}");
        } else {
            assert!(
                best.contains(&format!("value {value}, the first player's view")),
                "{best} vs the last iteration's {value}"
            );
        }
    }
}

/// #77.2: `play` printed "engine (O (second)) plays 4 proven loss (-1)", and in Kalah "North
/// plays 4 proven loss (-8)" before "South wins … +8": the number was the mover's, the final
/// score the first player's. Now both are the first player's, and the winner is named.
#[test]
fn i77_2_play_prints_one_point_of_view() {
    let (code, out, err) = gamesearch_stdin(&["play", "connect4:7x6"], "4\nquit\n");
    assert_eq!(code, 0, "{err}");
    assert!(
        out.contains("engine (O, second) plays 4   proven by the book: a win for X (+1)"),
        "{out}"
    );
    // Kalah to the end, the engine both sides: each proven move's value is the final score's.
    let (code, out, err) = gamesearch_stdin(
        &[
            "play",
            "kalah:4,3",
            "--human",
            "none",
            "--engine",
            "time=0.1",
        ],
        "",
    );
    assert_eq!(code, 0, "{err}");
    let last = out
        .lines()
        .rev()
        .find(|l| l.starts_with("game over"))
        .unwrap();
    let proven: Vec<&str> = out.lines().filter(|l| l.contains("proven: ")).collect();
    assert!(!proven.is_empty(), "{out}");
    for line in proven {
        let value = line.rsplit('(').next().unwrap().trim_end_matches(')');
        assert!(
            last.contains(value) || (value == "0" && last.contains("draw")),
            "`{line}` against `{last}`"
        );
        assert!(!line.contains("loss"), "{line}");
    }
}

/// #77.3: `serve` stopped during a search took 2.1-3.4 s to exit and left the waiting client an
/// empty reply (curl's error 52). The search now stops at once and the client gets a 503 with a
/// JSON error; the server says it stopped, not the CLI's "what is printed above".
#[cfg(unix)]
#[test]
fn i77_3_a_server_stopped_mid_search_answers_its_client() {
    let mut s = Server::start(&["--tt-mb", "16", "--max-time", "30"]);
    let mut client = TcpStream::connect(&s.addr).unwrap();
    write!(
        client,
        "GET /api/analyse?game=connect4:7x6&time=30 HTTP/1.1\r\nHost: {}\r\nConnection: close\r\n\r\n",
        s.addr
    )
    .unwrap();
    std::thread::sleep(Duration::from_millis(500));
    let sent = Instant::now();
    // SAFETY: sending a signal to our own child.
    unsafe {
        libc::kill(s.child.id() as i32, libc::SIGTERM);
    }
    let mut reply = String::new();
    client.read_to_string(&mut reply).unwrap();
    let answered = sent.elapsed();
    assert!(reply.starts_with("HTTP/1.1 503"), "{reply:?}");
    let body = reply.split_once("\r\n\r\n").map_or("", |(_, b)| b);
    let json: serde_json::Value = serde_json::from_str(body).unwrap();
    assert!(
        json["error"].as_str().unwrap().contains("stopping"),
        "{json}"
    );
    let status = s.child.wait().unwrap();
    let exited = sent.elapsed();
    assert_eq!(status.code(), Some(130));
    let mut err = String::new();
    s.child
        .stderr
        .take()
        .unwrap()
        .read_to_string(&mut err)
        .unwrap();
    assert!(!err.contains("what is printed above"), "{err}");
    assert!(err.contains("gamesearch serve: stopped"), "{err}");
    // Far below the two seconds of grace an idle client gets (seen: ~0.05 s).
    assert!(
        answered < Duration::from_secs(1),
        "answered after {answered:?}"
    );
    assert!(exited < Duration::from_secs(1), "exited after {exited:?}");
}

/// #77.4: the proof-number solvers named no move on won positions whose root the game's
/// knowledge settles (0 interior nodes, 1 leaf): `best_move: null`. A solver that proves a win
/// names a move that keeps it, checked here by df-pn on the position after it.
#[test]
fn i77_4_a_proven_win_names_a_move_that_keeps_it() {
    for (game, algo) in [
        ("hex:5x5:board=W----------W-----B---W-BB/B", "pn"),
        ("hex:5x5:a1", "pn"),
        ("connect4:5x5:434411352323", "pn-multi"),
    ] {
        let (code, out, err) = gamesearch(&["solve", game, "--algo", algo, "--json"]);
        assert_eq!(code, 0, "{game} {algo}: {err}");
        let r: serde_json::Value = serde_json::from_str(&out).unwrap();
        assert_eq!(r["complete"], true, "{out}");
        let value = r["value"].as_i64().expect("a proven value");
        let best = r["best_move"]
            .as_str()
            .unwrap_or_else(|| panic!("{game} {algo}: no best move in {out}"));
        // The position after the move, solved apart: the same value.
        let after = match game.split_once(":board=") {
            Some(_) => None, // a board form takes no moves after it: checked by the solver below
            None => Some(format!("{game}{best}")),
        };
        if let Some(after) = after {
            let (code, out, err) = gamesearch(&["solve", &after, "--algo", "dfpn-multi", "--json"]);
            assert_eq!(code, 0, "{after}: {err}");
            let a: serde_json::Value = serde_json::from_str(&out).unwrap();
            assert_eq!(a["value"].as_i64(), Some(value), "{after}: {out}");
        }
    }
}

/// #77.5: `solve --help` listed kalah, tictactoe, connect4, random and tree, not othello,
/// domineering or hex; `play --help` left out domineering and hex. Every list of games comes
/// from the registry now: each command's help names every form it takes.
#[test]
fn i77_5_every_commands_help_lists_every_game() {
    use gamesearch_games::spec::GAMES;
    type Which = fn(&gamesearch_games::spec::Kind) -> bool;
    let every: Which = |_| true;
    let boards: Which = |k| k.board;
    let splits: Which = |k| k.splits;
    for (command, which) in [
        ("search", every),
        ("solve", every),
        ("compare", every),
        ("trace", every),
        ("play", boards),
        ("split", splits),
    ] {
        let (code, out, err) = gamesearch(&[command, "--help"]);
        assert_eq!(code, 0, "{err}");
        for kind in GAMES.iter().filter(|k| which(k)) {
            for form in kind.forms {
                assert!(
                    out.contains(form),
                    "`{command} --help` lacks {form}:\n{out}"
                );
            }
        }
    }
    // The error for an unknown game, and the user's docs, name every kind.
    let (_, _, err) = gamesearch(&["solve", "chess"]);
    let root = common::repo_root();
    let readme = std::fs::read_to_string(root.join("README.md")).unwrap();
    let python = std::fs::read_to_string(root.join("python/README.md")).unwrap();
    for kind in &GAMES {
        assert!(err.contains(kind.name), "{err}");
        assert!(readme.contains(kind.name), "README.md lacks {}", kind.name);
        assert!(
            python.contains(&format!("`{}`", kind.name)),
            "python/README.md lacks {}",
            kind.name
        );
    }
}

/// #77.6: the README's "your own game" did not compile pasted into `main.rs` (its last lines
/// stood outside any function). Every Rust snippet of the docs is a whole `main.rs` (it has a
/// `fn main`), and every file with one is compiled by the library's doctests.
#[test]
fn i77_6_every_rust_snippet_is_a_whole_program_that_is_compiled() {
    let root = common::repo_root();
    let lib = std::fs::read_to_string(root.join("src/lib.rs")).unwrap();
    let mut files = vec![root.join("README.md"), root.join("python/README.md")];
    files.extend(common::markdown_pages(&root.join("docs")));
    let mut snippets = 0;
    for f in files {
        let text = std::fs::read_to_string(&f).unwrap();
        let blocks: Vec<&str> = text.split("```rust").skip(1).collect();
        if blocks.is_empty() {
            continue;
        }
        let rel = f
            .strip_prefix(&root)
            .unwrap()
            .to_string_lossy()
            .replace('\\', "/");
        assert!(
            lib.contains(&format!("include_str!(\"../{rel}\")")),
            "{rel} has Rust snippets that no doctest compiles"
        );
        for b in blocks {
            let code = b.split("```").next().unwrap();
            assert!(
                code.contains("fn main()"),
                "{rel}: a snippet without fn main:\n{code}"
            );
            snippets += 1;
        }
    }
    assert!(snippets >= 2, "the README's snippets were not found");
}

/// #77.9: `experiment domineering|hex|boards` wrote every table row to stderr as well as
/// stdout, also with `-q` and off a terminal; `experiment cns` a header. Off a terminal (as
/// here) and with `-q`, standard error stays empty and the table is on stdout.
#[test]
fn i77_9_experiments_write_nothing_to_stderr_off_a_terminal() {
    for args in [
        &[
            "experiment",
            "domineering",
            "--max-cells",
            "8",
            "--tt-mb",
            "16",
        ][..],
        &["experiment", "hex", "--size", "3", "--tt-mb", "16"],
        &["experiment", "boards", "--boards", "4x4", "--tt-mb", "16"],
        &["experiment", "cns", "--positions", "2"],
    ] {
        for quiet in [false, true] {
            let mut a = args.to_vec();
            if quiet {
                a.push("-q");
            }
            let (code, out, err) = gamesearch(&a);
            assert_eq!(code, 0, "{a:?}: {err}");
            assert!(err.is_empty(), "{a:?} wrote to stderr: {err}");
            assert!(!out.trim().is_empty(), "{a:?}: no table");
        }
    }
}

/// #77.12: engine scores had no unit on screen (Othello's "+190" is hundredths of a disc).
#[test]
fn i77_12_the_engine_says_what_its_values_count() {
    for (game, unit) in [
        ("othello", "hundredths of a disc"),
        ("hex:5x5", "distance"),
        ("domineering:6x6", "safe moves"),
    ] {
        let (code, out, err) = gamesearch(&["search", game, "--max-time", "0.2"]);
        assert_eq!(code, 0, "{err}");
        let line = out.lines().find(|l| l.starts_with("values")).unwrap_or("");
        assert!(
            line.contains("the first player's view") && line.contains(unit),
            "{game}: {out}"
        );
    }
}

/// #77.13: `compare --algos pn-multi,cns` under a budget showed only "?", beside a legend that
/// promised "the best value found so far". The legend now says what a bare "?" is.
#[test]
fn i77_13_the_legend_explains_a_bare_question_mark() {
    let (code, out, err) = gamesearch(&[
        "compare",
        "connect4:5x4",
        "--algos",
        "pn-multi,cns",
        "--depth",
        "20",
        "--max-nodes",
        "20000",
    ]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("? = incomplete"), "{out}");
    assert!(out.contains("no value yet"), "{out}");
    assert!(!out.contains("best value found so far"), "{out}");
}

/// #77.15: wording. A Domineering move that is no domino said "the two cells of a domino are
/// next to each other", a statement rather than the rule broken; Othello's board form said "a
/// 8x8 board".
#[test]
fn i77_15_errors_say_what_was_wrong() {
    let (code, _, err) = gamesearch(&["solve", "domineering:4x4:a1a3"]);
    assert_eq!(code, 2);
    assert!(err.contains("not next to each other"), "{err}");
    let (code, _, err) = gamesearch(&["solve", "othello:8x8:board=XO/X"]);
    assert_eq!(code, 2);
    assert!(err.contains("an 8x8 board"), "{err}");
}
