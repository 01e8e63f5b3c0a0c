//! The CLI contract, run on the real binary: JSON shapes other tools script against, and one
//! clear line with exit status 2 on bad input.

mod common;
use common::{gamesearch, gamesearch_stdin};

use std::process::Command;

#[test]
fn search_json_has_the_contract_fields() {
    let (code, out, _) = gamesearch(&[
        "search",
        "random:b=4,h=5,seed=9",
        "--algo",
        "scout",
        "--json",
    ]);
    assert_eq!(code, 0);
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    for key in ["value", "best_move", "pv", "complete", "stats", "algo"] {
        assert!(v.get(key).is_some(), "missing {key}: {v}");
    }
    for key in ["leaves", "interior", "tests", "re_searches"] {
        assert!(v["stats"][key].is_u64(), "missing stats.{key}");
    }
    assert_eq!(v["complete"], true);
    assert_eq!(v["pv"].as_array().unwrap().len(), 5);
    assert_eq!(v["pv"][0], v["best_move"]);
}

#[test]
fn compare_json_lists_every_algorithm_with_one_value() {
    let (code, out, _) = gamesearch(&["compare", "random:b=5,h=5,seed=2,turns=random", "--json"]);
    assert_eq!(code, 0);
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    let rows = v.as_array().unwrap();
    assert_eq!(rows.len(), 10);
    let value = &rows[0]["value"];
    for r in rows {
        assert_eq!(&r["value"], value, "{}", r["algo"]);
    }
    let names: Vec<&str> = rows.iter().map(|r| r["algo"].as_str().unwrap()).collect();
    assert_eq!(
        names,
        [
            "minimax",
            "alphabeta",
            "alphabeta-hard",
            "scout",
            "negascout",
            "negascout-minimax",
            "pvs",
            "mtdf",
            "pn-multi",
            "cns"
        ]
    );
}

#[test]
fn compare_table_and_explicit_tree_trace() {
    let (code, out, _) = gamesearch(&[
        "compare",
        "random:b=3,h=4,seed=1",
        "--algos",
        "alphabeta,scout",
    ]);
    assert_eq!(code, 0);
    assert!(out.contains("alphabeta") && out.contains("scout") && !out.contains("pvs"));
    let (code, out, _) = gamesearch(&[
        "search",
        "tree:(A max (B min D=7 E=4) (C min F=2 G=3))",
        "--algo",
        "alphabeta",
        "--trace",
    ]);
    assert_eq!(code, 0);
    assert!(out.contains("value       4"), "{out}");
    assert!(out.contains("evaluated   D E F"), "{out}");
}

#[test]
fn budgets_make_the_result_incomplete() {
    let (code, out, _) = gamesearch(&[
        "search",
        "random:b=8,h=10,seed=1",
        "--algo",
        "alphabeta",
        "--max-nodes",
        "5000",
        "--json",
    ]);
    assert_eq!(code, 0);
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["complete"], false);
    assert!(v["stats"]["leaves"].as_u64().unwrap() <= 5000);
}

#[test]
fn bad_input_is_one_line_and_exit_2() {
    let cases: &[&[&str]] = &[
        &["search", "chess:start"],
        &["search", "random:b=0,h=3,seed=1"],
        &["search", "random:b=2,h=3"],
        &["search", "random:b=2,h=3,seed=1,colour=red"],
        &["search", "random:b=2,h=3,seed=1", "--algo", "quantum"],
        &[
            "compare",
            "random:b=2,h=3,seed=1",
            "--algos",
            "minimax,nope",
        ],
        &["search", "tree:(max 1 (min 2"],
        &["search", "tree:(A max (B foo 1))"],
        &["search", "tree:/no/such/file.tree"],
        &["search", "random:b=8,h=40,seed=1", "--algo", "minimax"],
        &["search", "random:b=40,h=20,seed=1", "--algo", "alphabeta"],
        &["search", "random:b=2,h=3,seed=1", "--max-nodes", "0"],
        &["search", "random:b=2,h=3,seed=1", "--frobnicate"],
        &["experiment", "ratios", "--seeds", "0"],
        &["solve", "domineering:4x4", "--algo", "dfpn", "--focus", "0"],
        &[
            "solve",
            "domineering:4x4",
            "--algo",
            "dfpn",
            "--focus",
            "1.5",
        ],
        &["solve", "domineering:4x4", "--focus", "0.25"],
        &[
            "experiment",
            "hex",
            "--size",
            "3",
            "--algo",
            "pn",
            "--focus",
            "0.5",
        ],
    ];
    for args in cases {
        let (code, out, err) = gamesearch(args);
        assert_eq!(code, 2, "{args:?}: {out}{err}");
        assert_eq!(err.trim_end().lines().count(), 1, "{args:?}: {err}");
        assert!(err.starts_with("error"), "{args:?}: {err}");
        assert!(!err.contains("panicked"), "{args:?}: {err}");
    }
}

#[test]
fn experiment_ratios_prints_a_table() {
    let (code, out, _) = gamesearch(&[
        "experiment",
        "ratios",
        "--b",
        "2,4",
        "--h",
        "4,5",
        "--seeds",
        "3",
        "--json",
    ]);
    assert_eq!(code, 0);
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    let rows = v["rows"].as_array().unwrap();
    assert_eq!(rows.len(), 4);
    for r in rows {
        assert!(r["scout_ratio"].as_f64().unwrap() > 0.5);
        assert!(r["alphabeta"].as_f64().unwrap() >= 1.0);
    }
}

#[test]
fn solve_kalah_json_and_text() {
    let (code, out, _) = gamesearch(&["solve", "kalah:4,3", "--json", "--tt-mb", "16"]);
    assert_eq!(code, 0);
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["value"], 8); // Irving et al., Table 9
    assert_eq!(v["complete"], true);
    assert!(v["best_move"].is_string());
    let (code, out, _) =
        gamesearch(&["solve", "kalah:4,6", "--max-nodes", "10000", "--tt-mb", "4"]);
    assert_eq!(code, 0);
    assert!(out.contains("INCOMPLETE"), "{out}");
    let (code, out, _) = gamesearch(&[
        "search",
        "kalah:6,4",
        "--algo",
        "scout",
        "--depth",
        "4",
        "--json",
    ]);
    assert_eq!(code, 0, "{out}");
}

#[test]
fn bad_kalah_input_is_one_line_and_exit_2() {
    for args in [
        &["solve", "kalah:9,4"][..],
        &["solve", "kalah:6,0"],
        &["solve", "kalah:1,2/3/0,0/S"],
        &["solve", "kalah:4,4", "--tt-mb", "0"],
        &["search", "kalah:6,4", "--algo", "alphabeta"],
        &["search", "kalah:6,4", "--algo", "minimax", "--depth", "40"],
    ] {
        let (code, out, err) = gamesearch(args);
        assert_eq!(code, 2, "{args:?}: {out}{err}");
        assert_eq!(err.trim_end().lines().count(), 1, "{args:?}: {err}");
    }
}

#[test]
fn pearl_kalah_experiment_writes_table_and_svg() {
    let dir = std::env::temp_dir().join(format!("gamesearch-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let svg = dir.join("plot.svg");
    let (code, out, err) = gamesearch(&[
        "experiment",
        "pearl-kalah",
        "--positions",
        "5",
        "--svg",
        svg.to_str().unwrap(),
    ]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("| 6 |") && out.contains("[5111]"), "{out}");
    let plot = std::fs::read_to_string(&svg).unwrap();
    assert!(plot.starts_with("<svg") && plot.contains("polyline"));
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn cns_json_has_range_and_conspiracy() {
    let (code, out, err) = gamesearch(&[
        "search",
        "tree:(A max (B min (D max=7 0) (E max=4 0)) (C min (F max=2 0) (G max=3 0)))",
        "--algo",
        "cns",
        "--threshold",
        "1",
        "--accuracy",
        "5",
        "--json",
    ]);
    assert_eq!(code, 0, "{err}");
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert!(v["range"].is_array() && v["conspiracy"].is_array(), "{v}");
    assert!(v["value"].is_i64() && v["best_move"].is_string());
    let (code, _, err) = gamesearch(&[
        "search",
        "random:b=2,h=3,seed=1",
        "--algo",
        "cns",
        "--threshold",
        "0",
    ]);
    assert_eq!(code, 2);
    assert_eq!(err.trim_end().lines().count(), 1);
    let (code, out, _) = gamesearch(&["experiment", "cns", "--positions", "2", "--json"]);
    assert_eq!(code, 0);
    let rows: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(rows.as_array().unwrap().len(), 18);
}

#[test]
fn compare_runs_by_default_what_it_can_bound_and_names_the_rest() {
    // The README's first command: 16.7 M leaves for minimax, seconds in all; proof-number and
    // conspiracy search would keep up to 19 M nodes and are named, not run.
    let (code, out, err) = gamesearch(&["compare", "random:b=8,h=8,seed=1"]);
    assert_eq!(code, 0, "{err}");
    assert!(
        out.contains("negascout") && out.contains("minimax"),
        "{out}"
    );
    let note = out
        .lines()
        .find(|l| l.starts_with("not run by default"))
        .expect("a note naming what was left out");
    assert!(
        note.contains("pn-multi, cns")
            && note.contains("--algos pn-multi,cns --max-nodes")
            && note.contains("--all --max-nodes")
    );
    assert!(!out.lines().any(|l| l.starts_with("cns ")), "{out}");
    let (code, out, err) = gamesearch(&["compare", "random:b=8,h=8,seed=1", "--json"]);
    assert_eq!(code, 0);
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v.as_array().unwrap().len(), 8);
    assert!(err.contains("not run by default"), "{err}");
    // On a small tree every algorithm runs, and --all asks for every one anyway.
    let (code, out, _) = gamesearch(&["compare", "random:b=3,h=4,seed=1", "--all", "--json"]);
    assert_eq!(code, 0);
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v.as_array().unwrap().len(), 10);
}

#[test]
fn absurd_runs_are_refused_before_they_start() {
    let l3 = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../tests/data/connect4/Test_L3_R1"
    );
    for (args, what) in [
        (
            &["compare", "random:b=8,h=8,seed=1", "--algos", "cns"][..],
            "keeps the searched tree in memory",
        ),
        (
            &["search", "random:b=8,h=9,seed=1", "--algo", "pn-multi"],
            "keeps the searched tree in memory",
        ),
        (&["compare", "random:b=8,h=8,seed=1", "--all"], "pn-multi"),
        (&["solve", "connect4:7x6", "--tt-mb", "1000000"], "memory"),
        (&["bench", "connect4", l3, "--tt-mb", "1000000"], "memory"),
        (
            &[
                "solve",
                "tictactoe",
                "--algo",
                "pn",
                "--max-memory",
                "1000G",
            ],
            "memory",
        ),
        // Would run a 2·10^9-leaf minimax before complaining, if flags were checked late.
        (
            &[
                "search",
                "kalah:6,4",
                "--algo",
                "minimax",
                "--depth",
                "12",
                "--trace",
            ],
            "--trace",
        ),
    ] {
        let (code, out, err) = gamesearch(args);
        assert_eq!(code, 2, "{args:?}: {out}{err}");
        assert_eq!(err.trim_end().lines().count(), 1, "{args:?}: {err}");
        assert!(err.contains(what), "{args:?}: {err}");
        assert!(out.is_empty(), "{args:?}: {out}");
    }
}

#[test]
fn every_flag_is_validated_with_one_line() {
    for args in [
        &["solve", "kalah:4,3", "--bogus"][..],
        &["solve", "kalah:4,3", "--algo", "quantum"],
        &["solve", "kalah:4,3", "--max-time", "-1"],
        &["solve", "kalah:4,3", "--max-time", "NaN"],
        &["solve", "kalah:4,3", "--id-depth", "1000"],
        &["solve", "kalah:4,3", "--algo", "pn", "--max-memory", "12X"],
        &[
            "search",
            "random:b=2,h=3,seed=1",
            "--algo",
            "cns",
            "--accuracy",
            "-1",
        ],
        &[
            "bench",
            "connect4",
            "tests/data/connect4/Test_L3_R1",
            "--limit",
            "0",
        ],
        &["bench", "connect4", "/no/such/file"],
        &["experiment", "ratios", "--values", "discrete:1"],
        &["experiment", "pearl-kalah", "--positions", "0"],
        &["experiment", "engines", "--engine", "driver=mcts"],
        &[
            "experiment",
            "engines",
            "--game",
            "tree:(max 1 2)",
            "--engine",
            "depth=1",
            "--engine",
            "depth=2",
        ],
        &[
            "experiment",
            "engines",
            "--engine",
            "driver=pvs,plies=3",
            "--engine",
            "depth=2",
        ],
        &[
            "experiment",
            "engines",
            "--engine",
            "driver=mcts,pn=1",
            "--engine",
            "depth=2",
        ],
        &[
            "search",
            "connect4:4x4",
            "--driver",
            "mcts",
            "--algo",
            "pvs",
        ],
        &["search", "tictactoe", "--algo", "bstar", "--margin", "-1"],
        &["trace", "tictactoe", "--algo", "bstar", "--margin", "-1"],
    ] {
        let (code, out, err) = gamesearch(args);
        assert_eq!(code, 2, "{args:?}: {out}{err}");
        assert_eq!(err.trim_end().lines().count(), 1, "{args:?}: {err}");
        assert!(!err.contains("panicked"), "{args:?}: {err}");
    }
    // The exact solver's old CLI name still works.
    let (code, out, _) = gamesearch(&["solve", "kalah:4,2", "--algo", "negascout", "--json"]);
    assert_eq!(code, 0);
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(
        (v["value"].as_i64(), v["algo"].as_str()),
        (Some(6), Some("alphabeta-tt"))
    );
}

/// SIGTERM is Ctrl-C: the solve stops cleanly, prints what it proved (here as JSON), and the
/// status says it was interrupted.
#[cfg(unix)]
#[test]
fn sigterm_stops_a_solve_cleanly_with_its_result() {
    use std::process::Stdio;
    let child = Command::new(env!("CARGO_BIN_EXE_gamesearch"))
        .args(["solve", "connect4:7x6", "--tt-mb", "16", "--json"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run gamesearch");
    // The empty board takes minutes: the signal lands mid-search.
    std::thread::sleep(std::time::Duration::from_millis(1500));
    let killed = Command::new("kill")
        .args(["-TERM", &child.id().to_string()])
        .status()
        .expect("kill");
    assert!(killed.success());
    let out = child.wait_with_output().unwrap();
    let stdout = String::from_utf8(out.stdout).unwrap();
    let stderr = String::from_utf8(out.stderr).unwrap();
    assert_eq!(out.status.code(), Some(130), "{stdout}{stderr}");
    let v: serde_json::Value = serde_json::from_str(&stdout).unwrap();
    assert_eq!(v["complete"], false);
    assert!(v["stats"]["interior"].as_u64().unwrap() > 0);
    let (lo, hi) = (
        v["bounds"][0].as_i64().unwrap(),
        v["bounds"][1].as_i64().unwrap(),
    );
    assert!((-18..=1).contains(&lo) && (1..=18).contains(&hi), "{v}"); // the value is +1
    assert!(stderr.contains("interrupted"), "{stderr}");
}

#[test]
fn play_a_scripted_game_with_an_illegal_move_and_undo() {
    // X takes the top row; `42` is refused with one line and asked again; `undo` takes back
    // X's second move, which is then played again.
    let (code, out, err) = gamesearch_stdin(
        &[
            "play",
            "tictactoe",
            "--human",
            "both",
            "--engine",
            "depth=9",
        ],
        "1\n4\n42\n2\nundo\n2\n5\n3\n",
    );
    assert_eq!(code, 0, "{err}");
    let refusals: Vec<&str> = out.lines().filter(|l| l.contains("illegal")).collect();
    assert_eq!(refusals.len(), 1, "{out}");
    assert!(
        refusals[0].ends_with("illegal move `42`: legal moves are 2 3 5 6 7 8 9"),
        "{out}"
    );
    // Prompts: 1, 4, 42 (refused), 2, undo, 2, 5, 3 — eight answers, eight prompts.
    assert_eq!(out.matches("to move [").count(), 8, "{out}");
    assert!(out.contains("X|X|X"), "{out}");
    assert!(
        out.trim_end().ends_with("game over: X (first) wins"),
        "{out}"
    );
}

#[test]
fn play_against_the_engine_and_ask_for_a_hint() {
    let (code, out, err) =
        gamesearch_stdin(&["play", "tictactoe", "--engine", "depth=9"], "5\nhint\n");
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("engine (O, second) plays"), "{out}");
    assert!(out.contains("hint: "), "{out}");
    assert!(out.trim_end().ends_with("input ended"), "{out}");
    // The engine against itself at full depth: tic-tac-toe is a draw.
    let (code, out, _) = gamesearch_stdin(
        &[
            "play",
            "tictactoe",
            "--human",
            "none",
            "--engine",
            "depth=9",
        ],
        "",
    );
    assert_eq!(code, 0);
    assert!(out.trim_end().ends_with("game over: draw"), "{out}");
    // Connect-Four and Kalah draw their boards and answer.
    for (game, first) in [("connect4:7x6", "4"), ("kalah:6,4", "1")] {
        let (code, out, err) = gamesearch_stdin(
            &["play", game, "--engine", "depth=4"],
            &format!("{first}\n"),
        );
        assert_eq!(code, 0, "{game}: {err}");
        assert!(
            out.contains("engine (") && out.contains(" plays "),
            "{game}: {out}"
        );
    }
}

#[test]
fn a_match_between_two_perfect_engines_is_all_draws() {
    // From the empty board (no random plies: a random opening may already be lost).
    let (code, out, err) = gamesearch(&[
        "play",
        "tictactoe",
        "--match",
        "2",
        "--a",
        "depth=9",
        "--b",
        "depth=9,driver=mtdf",
        "--opening-plies",
        "0",
        "--json",
    ]);
    assert_eq!(code, 0, "{err}");
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(
        (v["games"].as_u64(), v["draws"].as_u64()),
        (Some(4), Some(4)),
        "{v}"
    );
    assert_eq!(v["score"], 0.5);
}

#[test]
fn a_match_against_a_gtp_engine_tells_it_every_move() {
    // B is this program's own engine behind GTP (`gamesearch gtp`), A the same engine in the
    // process: both search to a fixed depth, so each opening's two games are one game with the
    // names swapped, and A scores exactly one half — unless a move, a pass or a new game is lost
    // on the way through the protocol (an illegal move or a desynchronised board then ends the
    // match with an error, or the games differ).
    let b = format!(
        "gtp:{} gtp othello:6x6 --engine depth=2",
        env!("CARGO_BIN_EXE_gamesearch")
    );
    let (code, out, err) = gamesearch(&[
        "play",
        "othello:6x6",
        "--match",
        "3",
        "--a",
        "depth=2",
        "--b",
        &b,
        "--opening-plies",
        "4",
        "--json",
    ]);
    assert_eq!(code, 0, "{err}");
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["games"], 6, "{v}");
    assert_eq!(v["score"], 0.5, "{v}");
    assert!(v["gtp_b"]["moves"].as_u64().unwrap() > 30, "{v}");
    assert!(v["gtp_a"].is_null(), "{v}");
}

#[test]
fn the_gtp_engine_answers_the_protocol() {
    let (code, out, err) = gamesearch_stdin(
        &["gtp", "othello", "--engine", "depth=1"],
        "protocol_version\n3 boardsize 8\nboardsize 6\nplay black f5\nplay black f6\n\
         genmove white\nundo\nundo\nundo\nfrobnicate\nquit\n",
    );
    assert_eq!(code, 0, "{err}");
    let answers: Vec<&str> = out.trim_end().split("\n\n").collect();
    assert_eq!(answers[0], "= 2");
    assert_eq!(answers[1], "=3 ");
    assert!(answers[2].starts_with("? unacceptable size"), "{out}");
    assert_eq!(answers[3], "= ");
    assert!(answers[4].starts_with("? wrong colour: white"), "{out}");
    // Depth 1 takes the first of the equal replies the engine orders first: one of three.
    assert!(["= d6", "= f6", "= f4"].contains(&answers[5]), "{out}");
    assert_eq!(&answers[6..9], ["= ", "= ", "? cannot undo"]);
    assert_eq!(answers[9], "? unknown command");
    assert_eq!(answers[10], "="); // quit's `= `, its space trimmed with the output's end
}

#[test]
fn bad_gtp_input_is_one_line_and_exit_2() {
    for args in [
        &["gtp", "connect4:7x6"][..],
        &["gtp", "othello:8x8:f5"],
        &["play", "othello", "--match", "1", "--b", "gtp:"],
        &["play", "othello", "--match", "1", "--b", "gtp:exit 3"],
        &[
            "play",
            "othello",
            "--match",
            "1",
            "--b",
            "gtp:no-such-gtp-engine",
        ],
        &["play", "othello:8x8:f5", "--match", "1", "--b", "gtp:cat"],
        &["play", "tictactoe", "--match", "1", "--a", "gtp:cat"],
    ] {
        let (code, out, err) = gamesearch(args);
        assert_eq!(code, 2, "{args:?}: {out}{err}");
        assert_eq!(err.trim_end().lines().count(), 1, "{args:?}: {err}");
    }
    // An engine that answers everything with a move that is not legal: the match has begun
    // (its line is printed), and ends with one line of error.
    let (code, _, err) = gamesearch(&[
        "play",
        "othello",
        "--match",
        "1",
        "--b",
        "gtp:while read c; do printf '= a1\\n\\n'; done",
    ]);
    assert_eq!(code, 2, "{err}");
    let last = err.trim_end().lines().last().unwrap();
    assert!(
        last.starts_with("error: the GTP engine played `a1` where the legal moves are"),
        "{err}"
    );
}

#[test]
fn mcts_searches_to_the_end_and_mcts_solver_proves() {
    // MCTS-Solver, no budget: tic-tac-toe proven a draw, Kalah(4,2) a first-player win (the
    // exact solver's results, signs of their values).
    for (game, want) in [("tictactoe", 0), ("kalah:4,2", 1)] {
        let (code, out, err) = gamesearch(&["search", game, "--algo", "mcts-solver", "--json"]);
        assert_eq!(code, 0, "{err}");
        let v: serde_json::Value = serde_json::from_str(&out).unwrap();
        assert_eq!(
            (v["value"].as_i64(), v["complete"].as_bool()),
            (Some(want), Some(true)),
            "{v}"
        );
        let (_, solved, _) = gamesearch(&["solve", game, "--json"]);
        let solved: serde_json::Value = serde_json::from_str(&solved).unwrap();
        assert_eq!(solved["value"].as_i64().unwrap().signum(), want);
    }
    // Plain UCT estimates: its budget's nodes are playouts, the same seed gives the same search.
    let run = |seed: &str| {
        let (code, out, err) = gamesearch(&[
            "search",
            "connect4:5x4",
            "--algo",
            "mcts",
            "--max-nodes",
            "3000",
            "--seed",
            seed,
            "--json",
        ]);
        assert_eq!(code, 0, "{err}");
        let mut v: serde_json::Value = serde_json::from_str(&out).unwrap();
        v.as_object_mut().unwrap().remove("time_ms");
        v
    };
    let v = run("7");
    assert_eq!(v["stats"]["leaves"], 3000, "{v}");
    assert!(v["value"].is_null() && v["complete"] == false, "{v}");
    let mean = v["mcts_mean"].as_f64().unwrap();
    assert!((0.0..=1.0).contains(&mean), "{v}");
    assert_eq!(run("7"), v);
    let (code, out, _) = gamesearch(&[
        "search",
        "othello:6x6",
        "--algo",
        "mcts",
        "--max-nodes",
        "500",
    ]);
    assert_eq!(code, 0);
    assert!(
        out.contains("to the end of the game") && out.contains("playouts 500"),
        "{out}"
    );
    // Threads, a tree each or one tree shared: the budget is shared (each thread tallies every
    // 16 playouts), MCTS-Solver still proves.
    for parallel in ["root", "tree"] {
        let (code, out, err) = gamesearch(&[
            "search",
            "connect4:5x4",
            "--driver",
            "mcts",
            "--threads",
            "2",
            "--parallel",
            parallel,
            "--max-nodes",
            "3000",
            "--json",
        ]);
        assert_eq!(code, 0, "{err}");
        let v: serde_json::Value = serde_json::from_str(&out).unwrap();
        let playouts = v["stats"]["leaves"].as_u64().unwrap();
        assert!((3000..3032).contains(&playouts), "{v}");
        let (code, out, err) = gamesearch(&[
            "search",
            "tictactoe",
            "--algo",
            "mcts-solver",
            "--threads",
            "3",
            "--parallel",
            parallel,
            "--json",
        ]);
        assert_eq!(code, 0, "{err}");
        let v: serde_json::Value = serde_json::from_str(&out).unwrap();
        assert_eq!(v["value"].as_i64(), Some(0), "{v}");
    }
    // The default is the shared tree, but for PN-MCTS, whose threads grow a tree each.
    for algo in ["mcts-solver", "pn-mcts"] {
        let (code, out, err) = gamesearch(&[
            "search",
            "tictactoe",
            "--algo",
            algo,
            "--threads",
            "2",
            "--json",
        ]);
        assert_eq!(code, 0, "{err}");
        let v: serde_json::Value = serde_json::from_str(&out).unwrap();
        assert_eq!(v["value"].as_i64(), Some(0), "{algo}: {v}");
    }
}

#[test]
fn a_match_with_an_sprt_stops_when_it_decides() {
    // A perfect tic-tac-toe player against one that looks a single ply ahead: H1 (A stronger by
    // 50 normalised Elo) is accepted long before the 200 openings are played.
    let (code, out, err) = gamesearch(&[
        "play",
        "tictactoe",
        "--match",
        "200",
        "--a",
        "depth=9",
        "--b",
        "depth=1",
        "--sprt",
        "elo0=0,elo1=50",
        "--json",
    ]);
    assert_eq!(code, 0, "{err}");
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["sprt"]["verdict"], "h1", "{v}");
    let games = v["games"].as_u64().unwrap();
    assert!(games < 400 && games % 2 == 0, "{v}");
    let pairs: u64 = v["pairs"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c.as_u64().unwrap())
        .sum();
    assert_eq!(2 * pairs, games, "{v}");
    assert!(v["sprt"]["llr"].as_f64().unwrap() >= v["sprt"]["bounds"][1].as_f64().unwrap());
    assert!(v["elo_ci95"][0].as_f64().unwrap() > 0.0, "{v}");
    // The same engine on both sides: after 40 openings, no verdict for +50, H0 not rejected.
    let (code, out, _) = gamesearch(&[
        "play",
        "tictactoe",
        "--match",
        "40",
        "--a",
        "depth=9",
        "--b",
        "depth=9",
        "--sprt",
        "elo0=0,elo1=50",
    ]);
    assert_eq!(code, 0);
    assert!(
        out.contains("SPRT elo0=0 elo1=50") && !out.contains("H1 accepted"),
        "{out}"
    );
    for bad in [
        "elo0=5,elo1=0",
        "elo1=5",
        "elo0=0,elo1=5,beta=0.7",
        "elo0=x,elo1=5",
    ] {
        let (code, _, err) = gamesearch(&["play", "tictactoe", "--match", "1", "--sprt", bad]);
        assert_eq!(code, 2, "{bad}: {err}");
        assert_eq!(err.trim_end().lines().count(), 1, "{bad}: {err}");
    }
}

#[test]
fn a_match_reads_its_openings_from_a_file() {
    let dir = std::env::temp_dir().join(format!("gs-openings-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let good = dir.join("good.txt");
    std::fs::write(&good, "# Othello: two openings\nf5 d6 c3\nf5,f6\n").unwrap();
    // The GTP engine is told each opening's moves: a desynchronised board would end the match
    // with an illegal move.
    let b = format!(
        "gtp:{} gtp othello --engine depth=1",
        env!("CARGO_BIN_EXE_gamesearch")
    );
    let (code, out, err) = gamesearch(&[
        "play",
        "othello",
        "--match",
        "2",
        "--openings",
        good.to_str().unwrap(),
        "--a",
        "depth=1",
        "--b",
        &b,
        "--json",
    ]);
    assert_eq!(code, 0, "{err}");
    assert!(err.contains("the first 2 openings of"), "{err}");
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(
        (v["games"].as_u64(), v["score"].as_f64()),
        (Some(4), Some(0.5)),
        "{v}"
    );
    let bad = dir.join("bad.txt");
    for (text, says) in [
        ("f5 d6\nf5 z9\n", "line 2: `z9` is not a legal move"),
        ("# nothing\n\n", "no openings"),
        ("f5\n", "1 openings, fewer than the 2"),
    ] {
        std::fs::write(&bad, text).unwrap();
        let (code, _, err) = gamesearch(&[
            "play",
            "othello",
            "--match",
            "2",
            "--openings",
            bad.to_str().unwrap(),
        ]);
        assert_eq!(code, 2, "{text:?}: {err}");
        assert_eq!(err.trim_end().lines().count(), 1, "{err}");
        assert!(err.contains(says), "{text:?}: {err}");
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn mcts_plays_matches() {
    // MCTS-Solver against plain UCT, and UCT against the alpha-beta engine: whole games, the
    // seed printed, the tally adding up.
    for (a, b) in [
        ("time=0.01,driver=mcts-solver", "time=0.01,driver=mcts"),
        ("time=0.01,driver=mcts", "time=0.01"),
        (
            "time=0.01,driver=mcts,threads=2",
            "time=0.01,driver=mcts,threads=2,parallel=tree",
        ),
    ] {
        let (code, out, err) = gamesearch(&[
            "play",
            "connect4:5x4",
            "--match",
            "2",
            "--a",
            a,
            "--b",
            b,
            "--json",
        ]);
        assert_eq!(code, 0, "{err}");
        assert!(err.contains("(seed 1)") && err.contains("MCTS"), "{err}");
        let v: serde_json::Value = serde_json::from_str(&out).unwrap();
        let sum = v["wins"].as_u64().unwrap()
            + v["draws"].as_u64().unwrap()
            + v["losses"].as_u64().unwrap();
        assert_eq!((v["games"].as_u64(), sum), (Some(4), 4), "{v}");
    }
}

#[test]
fn mcts_plays_in_the_terminal() {
    // 6x7 Connect-Four has no book, and its solver does not finish in a few milliseconds: the
    // engine's first move and the hint are MCTS's.
    let (code, out, err) = gamesearch_stdin(
        &[
            "play",
            "connect4:6x7",
            "--engine",
            "time=0.05,driver=mcts",
            "--human",
            "second",
        ],
        "hint\n",
    );
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("engine (X, first) plays "), "{out}");
    assert!(
        out.contains("estimate: MCTS, ") && out.contains(" for X, "),
        "{out}"
    );
    assert!(out.contains("hint: ") && out.contains(" for O)"), "{out}");
}

#[test]
fn bad_mcts_input_is_one_line_and_exit_2() {
    for args in [
        &["gtp", "othello", "--engine", "driver=mcts"][..],
        &["play", "tictactoe", "--engine", "depth=4,driver=mcts"],
        &[
            "play",
            "tictactoe",
            "--match",
            "1",
            "--a",
            "depth=3,driver=mcts",
        ],
        &[
            "play",
            "tictactoe",
            "--match",
            "1",
            "--a",
            "driver=mcts-fast",
        ],
        &[
            "search",
            "tictactoe",
            "--algo",
            "mcts",
            "--exploration",
            "-1",
        ][..],
        &[
            "search",
            "tictactoe",
            "--algo",
            "mcts",
            "--exploration",
            "nan",
        ],
        &["search", "tictactoe", "--algo", "mcts", "--seed", "-3"],
        &["search", "tictactoe", "--algo", "mcts-fast"],
        &["search", "tictactoe", "--algo", "mcts", "--threads", "0"],
        &[
            "search",
            "tictactoe",
            "--algo",
            "mcts",
            "--parallel",
            "leaf",
        ],
        &["search", "tictactoe", "--algo", "pvs", "--threads", "2"],
        &[
            "search",
            "tictactoe",
            "--algo",
            "pn-mcts",
            "--threads",
            "2",
            "--parallel",
            "tree",
        ],
        &[
            "play",
            "tictactoe",
            "--engine",
            "time=0.01,driver=pn-mcts,threads=2,parallel=tree",
        ],
        &["play", "tictactoe", "--engine", "time=0.01,threads=2"],
        &[
            "play",
            "tictactoe",
            "--engine",
            "time=0.01,driver=mcts,threads=0",
        ],
        &[
            "play",
            "tictactoe",
            "--engine",
            "time=0.01,driver=mcts,parallel=leaf",
        ],
    ] {
        let (code, out, err) = gamesearch(args);
        assert_eq!(code, 2, "{args:?}: {out}{err}");
        assert_eq!(err.trim_end().lines().count(), 1, "{args:?}: {err}");
    }
}

#[test]
fn search_with_a_time_budget_deepens_and_reports_each_iteration() {
    for game in ["connect4:7x6", "kalah:6,4", "tictactoe", "connect4:5x4:33"] {
        for budget in ["0.001", "0.05"] {
            let (code, out, err) = gamesearch(&["search", game, "--max-time", budget, "--json"]);
            assert_eq!(code, 0, "{game}: {err}");
            let v: serde_json::Value = serde_json::from_str(&out).unwrap();
            let best = v["best_move"].as_str().expect("a best move");
            assert!(!best.is_empty());
            let iterations = v["iterations"].as_array().unwrap();
            if let Some(last) = iterations.last() {
                assert_eq!(last["depth"], v["depth"]);
                assert_eq!(v["pv"][0].as_str(), Some(best), "{v}");
            }
        }
    }
    let (code, out, _) = gamesearch(&[
        "search",
        "connect4:7x6",
        "--max-time",
        "0.2",
        "--driver",
        "mtdf",
    ]);
    assert_eq!(code, 0);
    assert!(
        out.lines().filter(|l| l.starts_with("depth ")).count() >= 5,
        "{out}"
    );
    assert!(out.contains("best move   "), "{out}");
    // A proven result ends the search and is said in words.
    let (code, out, _) = gamesearch(&["search", "connect4:7x6:445566", "--max-time", "1"]);
    assert_eq!(code, 0);
    assert!(out.contains("the first player wins in 1"), "{out}");
}

#[test]
fn bad_play_input_is_one_line_and_exit_2() {
    for args in [
        &["play", "random:b=2,h=2,seed=1"][..],
        &["play", "tictactoe", "--engine", "time=-1"],
        &["play", "tictactoe", "--engine", "colour=red"],
        &["play", "tictactoe", "--a", "depth=2"],
        &["play", "tictactoe", "--match", "0"],
        &["play", "connect4:7x6", "--engine", "tt=1000000000"],
        &["search", "tictactoe", "--driver", "quantum"],
    ] {
        let (code, out, err) = gamesearch(args);
        assert_eq!(code, 2, "{args:?}: {out}{err}");
        assert_eq!(err.trim_end().lines().count(), 1, "{args:?}: {err}");
    }
}

#[test]
fn solve_with_dfpn_checks_its_proof() {
    // Connect-Four 5x4 is a draw (Tromp); the multi-valued answer's proof is verified.
    let (code, out, err) = gamesearch(&[
        "solve",
        "connect4:5x4",
        "--algo",
        "dfpn-multi",
        "--tt-mb",
        "16",
        "--check",
        "--json",
    ]);
    assert_eq!(code, 0, "{err}");
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(
        (v["value"].as_i64(), v["outcome"].as_str()),
        (Some(0), Some("draw")),
        "{v}"
    );
    assert!(v["proof_nodes"].as_u64().unwrap() > 0);
    assert_eq!(v["tt_bytes"], 16 << 20);
    // Binary df-pn: win, draw or loss; Kalah(4,3) is a first-player win (+8).
    let (code, out, _) = gamesearch(&["solve", "kalah:4,3", "--algo", "dfpn", "--tt-mb", "16"]);
    assert_eq!(code, 0);
    assert!(out.contains("outcome     win"), "{out}");
    // A budget leaves it unknown, with status 0.
    let (code, out, _) = gamesearch(&[
        "solve",
        "connect4:7x6",
        "--algo",
        "dfpn",
        "--tt-mb",
        "16",
        "--max-nodes",
        "2000",
    ]);
    assert_eq!(code, 0);
    assert!(out.contains("INCOMPLETE"), "{out}");
    for args in [
        &["solve", "kalah:4,3", "--check"][..],
        &["solve", "kalah:4,3", "--algo", "dfpn", "--epsilon", "-1"],
    ] {
        let (code, _, err) = gamesearch(args);
        assert_eq!(code, 2, "{args:?}");
        assert_eq!(err.trim_end().lines().count(), 1, "{args:?}: {err}");
    }
}

#[test]
fn experiment_engines_plays_every_pairing_and_rates_the_engines() {
    // A perfect player against a one-ply one on tic-tac-toe, and PN-MCTS beside them: every
    // pairing plays 2 openings twice; the Elo table's ratings are centred on 0.
    let (code, out, err) = gamesearch(&[
        "experiment",
        "engines",
        "--game",
        "tictactoe",
        "--openings",
        "2",
        "--time",
        "0.002",
        "--engine",
        "depth=9",
        "--engine",
        "depth=1",
        "--engine",
        "driver=pn-mcts",
        "--json",
    ]);
    assert_eq!(code, 0, "{err}");
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    let game = &v["games"][0];
    assert_eq!(game["game"], "tictactoe");
    let pairings = game["pairings"].as_array().unwrap();
    assert_eq!(pairings.len(), 3);
    for p in pairings {
        let t = &p["tally"];
        let games = t["wins"].as_u64().unwrap()
            + t["draws"].as_u64().unwrap()
            + t["losses"].as_u64().unwrap();
        assert_eq!(games, 4, "{p}");
    }
    let standings = game["standings"].as_array().unwrap();
    let elo: Vec<f64> = standings
        .iter()
        .map(|s| s["elo"].as_f64().unwrap())
        .collect();
    assert!(elo.iter().sum::<f64>().abs() < 1e-6, "{elo:?}");
    // The perfect player never loses a pair of games to the one-ply player.
    let first = &pairings[0];
    assert_eq!(
        (first["a"].as_u64(), first["b"].as_u64()),
        (Some(0), Some(1))
    );
    assert!(elo[0] >= elo[1], "{standings:?}");
    let (code, out, _) = gamesearch(&[
        "experiment",
        "engines",
        "--game",
        "tictactoe",
        "--openings",
        "1",
        "--time",
        "0.002",
    ]);
    assert_eq!(code, 0);
    assert!(out.contains("95% CI") && out.contains("PN-MCTS"), "{out}");
}
