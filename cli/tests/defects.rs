//! One regression test per defect of issue #24 ("Nothing a user types can crash, hang or lie"),
//! numbered as there. Each asserts the exit status and the one line a person reads.

mod common;
use common::gamesearch;

use std::io::Read;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

fn bin() -> Command {
    Command::new(env!("CARGO_BIN_EXE_gamesearch"))
}

/// Exit 2 with exactly one line on stderr that contains every one of `words`.
fn one_line(args: &[&str], words: &[&str]) {
    let (code, _, err) = gamesearch(args);
    assert_eq!(code, 2, "{args:?}: {err}");
    assert_eq!(err.trim_end().lines().count(), 1, "{args:?}: {err}");
    for w in words {
        assert!(err.contains(w), "{args:?}: `{w}` not in: {err}");
    }
    assert!(!err.contains("panicked"), "{err}");
}

fn temp(name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("gamesearch-defects-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir.join(name)
}

/// Defect 0: An odd board's last-stone win is a win in every solver (the library's property test is
/// `tests/connect4_odd.rs`; here the command line says so).
#[test]
fn d00_odd_board_last_stone_win_is_a_win() {
    for algo in ["alphabeta-tt", "pn", "pn-multi", "dfpn", "dfpn-multi"] {
        let (code, out, err) = gamesearch(&["solve", "connect4:5x5:23", "--algo", algo, "--json"]);
        assert_eq!(code, 0, "{algo}: {err}");
        let v: serde_json::Value = serde_json::from_str(&out).unwrap();
        assert_eq!(v["outcome"], "win", "{algo}: {v}");
        if !matches!(algo, "pn" | "dfpn") {
            assert_eq!(v["value"], 1, "{algo}: {v}");
        }
    }
}

/// Defect 1: An opening that cannot exist is refused, and one that is merely hard to find has a bound.
#[test]
fn d01_impossible_openings_are_refused() {
    one_line(
        &[
            "play",
            "connect4:5x4",
            "--match",
            "1",
            "--opening-plies",
            "100",
        ],
        &["opening plies (100) exceed", "20 plies"],
    );
    one_line(
        &["play", "tictactoe", "--match", "1", "--opening-plies", "9"],
        &["opening plies (9) exceed"],
    );
}

/// Defect 2: A closed stdout ends the program quietly: no panic, no exit 101.
#[cfg(unix)]
#[test]
fn d02_a_closed_pipe_is_not_a_panic() {
    for args in [
        &["compare", "random:b=6,h=6,seed=1"][..],
        &["search", "random:b=4,h=6,seed=1", "--json"],
        &["search", "connect4:7x6", "--max-time", "0.5"],
        &["play", "tictactoe", "--match", "1", "--json"],
    ] {
        let mut child = bin()
            .args(args)
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        // Read nothing: close the pipe at once, as `| head -0` would.
        drop(child.stdout.take());
        let mut err = String::new();
        child
            .stderr
            .take()
            .unwrap()
            .read_to_string(&mut err)
            .unwrap();
        let status = child.wait().unwrap();
        assert_ne!(status.code(), Some(101), "{args:?}: {err}");
        assert!(!err.contains("panicked"), "{args:?}: {err}");
        assert!(!err.contains("Broken pipe"), "{args:?}: {err}");
    }
}

/// Defect 3: A tree nested 100,000 levels deep is refused with one line, not a stack overflow.
#[test]
fn d03_deep_tree_text_is_refused_not_a_crash() {
    let path = temp("deep.tree");
    let n = 100_000;
    let text = format!("{}1{}", "(max ".repeat(n), ")".repeat(n));
    std::fs::write(&path, text).unwrap();
    let p = path.to_str().unwrap();
    one_line(
        &["search", &format!("tree:{p}")],
        &["nests deeper than 1000 levels"],
    );
    one_line(&["trace", p], &["nests deeper than 1000 levels"]);
    // 1,000 levels still run.
    let n = 1000;
    std::fs::write(&path, format!("{}1{}", "(max ".repeat(n), ")".repeat(n))).unwrap();
    let (code, out, err) = gamesearch(&["search", p, "--algo", "alphabeta"]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("value       1"), "{out}");
}

/// Defect 4: SIGTERM stops each experiment within a second and the finished part is printed.
#[cfg(unix)]
#[test]
fn d04_experiments_stop_at_once_on_a_signal() {
    for args in [
        &[
            "experiment",
            "ratios",
            "--b",
            "8",
            "--h",
            "10,11",
            "--seeds",
            "20",
        ][..],
        &["experiment", "pearl-kalah", "--positions", "2000"],
        &["experiment", "cns", "--positions", "1000"],
    ] {
        let child = bin()
            .args(args)
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        std::thread::sleep(Duration::from_millis(1500));
        let sent = Instant::now();
        let ok = Command::new("kill")
            .args(["-TERM", &child.id().to_string()])
            .status()
            .unwrap();
        assert!(ok.success());
        let out = child.wait_with_output().unwrap();
        let waited = sent.elapsed();
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(130), "{args:?}: {err}");
        assert!(err.contains("interrupted"), "{args:?}: {err}");
        assert!(
            waited < Duration::from_secs(3),
            "{args:?} took {waited:?} to stop"
        );
    }
    // ...and one that ran to its end does not say "interrupted".
    let (code, _, err) = gamesearch(&["experiment", "cns", "--positions", "1"]);
    assert_eq!(code, 0, "{err}");
    assert!(!err.contains("interrupted"), "{err}");
}

/// Defect 5: The default tree budget comes from available memory, and --help says so.
#[test]
fn d05_default_memory_budget_is_from_available_memory() {
    let (code, out, _) = gamesearch(&["solve", "--help"]);
    assert_eq!(code, 0);
    assert!(out.contains("MemAvailable"), "{out}");
}

/// Defect 6: The hint `compare` prints runs as written.
#[test]
fn d06_compare_hint_is_a_command_that_works() {
    let (code, out, err) = gamesearch(&["compare", "random:b=8,h=8,seed=1"]);
    assert_eq!(code, 0, "{err}");
    let note = out
        .lines()
        .find(|l| l.starts_with("not run by default"))
        .expect("the hint");
    let flags = note
        .split("run them with a budget: ")
        .nth(1)
        .expect("flags");
    for alternative in flags.split(" (or ") {
        let alternative = alternative.trim_end_matches(')');
        let mut args = vec!["compare", "random:b=8,h=8,seed=1"];
        args.extend(alternative.split_whitespace());
        let (code, out, err) = gamesearch(&args);
        assert_eq!(code, 0, "{args:?}: {err}");
        assert!(out.contains("pn-multi") && out.contains("cns"), "{out}");
    }
}

/// Defect 7: The feasibility estimate knows that Connect-Four 5x4 ends within 20 plies.
#[test]
fn d07_the_game_length_bounds_the_estimate() {
    let (code, out, err) = gamesearch(&[
        "search",
        "connect4:5x4",
        "--algo",
        "alphabeta",
        "--depth",
        "200",
    ]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("value       0"), "{out}");
}

/// Defect 8: An output that cannot be written is found before the work.
#[test]
fn d08_unwritable_outputs_fail_before_the_work() {
    let start = Instant::now();
    one_line(
        &[
            "experiment",
            "pearl-kalah",
            "--svg",
            "/nonexistent-dir/x.svg",
        ],
        &["cannot write /nonexistent-dir/x.svg"],
    );
    assert!(
        start.elapsed() < Duration::from_secs(5),
        "it did the work first"
    );
}

/// Defect 9: `--a tt=128` keeps A's match default time (0.01 s).
#[test]
fn d09_engine_fields_not_given_keep_the_match_defaults() {
    let (code, out, err) = gamesearch(&[
        "play",
        "tictactoe",
        "--match",
        "1",
        "--a",
        "tt=128",
        "--json",
    ]);
    assert_eq!(code, 0, "{err}");
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["a"], "0.01 s a move, PVS, 128 MiB table", "{v}");
    assert_eq!(v["b"], "0.1 s a move, PVS, 64 MiB table", "{v}");
}

/// Defect 10: Negative numbers are values, and the message says what is wrong.
#[test]
fn d10_negative_numbers_say_must_be_at_least() {
    one_line(
        &["search", "random:b=2,h=3,seed=1", "--depth", "-1"],
        &["--depth", "must be ≥ 0"],
    );
    one_line(
        &["search", "connect4:4x4", "--max-time", "-1"],
        &["--max-time", "more than 0 seconds"],
    );
    one_line(
        &["solve", "tictactoe", "--algo", "dfpn", "--epsilon", "-5"],
        &["--epsilon", "must be ≥ 0"],
    );
    one_line(
        &[
            "bench",
            "connect4",
            "tests/data/connect4/Test_L3_R1",
            "--limit",
            "-3",
        ],
        &["--limit", "at least 1"],
    );
    one_line(
        &["solve", "tictactoe", "--tt-mb", "-2"],
        &["--tt-mb", "at least 1"],
    );
    for args in [
        &["search", "random:b=2,h=3,seed=1", "--depth", "-1"][..],
        &["search", "connect4:4x4", "--max-time", "-1"],
    ] {
        let (_, _, err) = gamesearch(args);
        assert!(!err.contains("unexpected argument"), "{err}");
    }
}

/// Defect 11: Out-of-range values are explained in words.
#[test]
fn d11_messages_say_what_is_wrong_in_words() {
    one_line(
        &["search", "connect4:4x4", "--max-time", "1e308"],
        &["10^9 seconds"],
    );
    one_line(
        &["search", "random:b=2,h=3,seed=1", "--max-nodes", "0"],
        &["--max-nodes", "at least 1"],
    );
    let (_, _, err) = gamesearch(&["search", "random:b=2,h=3,seed=1", "--max-nodes", "0"]);
    assert!(!err.contains("18446744073709551615"), "{err}");
}

/// Defect 12: A bad benchmark line: one prefix, the file and the line.
#[test]
fn d12_bench_errors_name_file_and_line_once() {
    let path = temp("bad-line.txt");
    std::fs::write(&path, "88 0\n").unwrap();
    let p = path.to_str().unwrap();
    one_line(&["bench", "connect4", p], &[p, "line 1", "move 1"]);
    let (_, _, err) = gamesearch(&["bench", "connect4", p]);
    assert_eq!(err.matches("bad parameter").count(), 1, "{err}");
}

/// Defect 13: An empty benchmark file is an error.
#[test]
fn d13_an_empty_bench_file_is_an_error() {
    let path = temp("empty.txt");
    std::fs::write(&path, "\n\n").unwrap();
    let p = path.to_str().unwrap();
    one_line(&["bench", "connect4", p], &["no positions in", p]);
}

/// Defect 14: One rule for tree files in every command; a missing file says so.
#[test]
fn d14_tree_files_one_rule_and_no_such_file() {
    let example = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../examples/trees/cater-minimax.tree"
    );
    for cmd in ["search", "trace", "compare"] {
        let (code, _, err) = gamesearch(&[cmd, example]);
        assert_eq!(code, 0, "{cmd} FILE: {err}");
        let (code, _, err) = gamesearch(&[cmd, &format!("tree:{example}")]);
        assert_eq!(code, 0, "{cmd} tree:FILE: {err}");
        one_line(&[cmd, "missing.tree"], &["missing.tree", "no such file"]);
        one_line(&[cmd, "examples/trees/x.tree"], &["no such file"]);
    }
    one_line(&["search", "chess"], &["unknown game `chess`"]);
    #[cfg(unix)]
    one_line(&["search", "tree:/dev/zero"], &["not a regular file"]);
    one_line(&["trace", "/"], &["not a regular file"]);
}

/// Defect 15: A key given twice is an error.
#[test]
fn d15_repeated_keys_are_errors() {
    one_line(
        &["search", "random:b=4,h=3,seed=1,seed=2"],
        &["`seed` is given twice"],
    );
    one_line(
        &["play", "tictactoe", "--match", "1", "--a", "tt=1,tt=2"],
        &["`tt` is given twice"],
    );
}

/// Defect 16: Human text where humans read: no Rust debug output.
#[test]
fn d16_no_debug_text_for_people() {
    let (code, out, err) = gamesearch(&["play", "tictactoe", "--match", "1"]);
    assert_eq!(code, 0, "{err}");
    assert!(
        !err.contains("EngineSpec") && !err.contains("Some("),
        "{err}"
    );
    assert!(err.contains("A: 0.01 s a move, PVS, 64 MiB table"), "{err}");
    assert!(out.contains("A wins"), "{out}");
    // A finished game explains its score.
    let (code, out, err) = gamesearch(&[
        "play",
        "connect4:7x6:445566",
        "--human",
        "none",
        "--engine",
        "depth=4",
    ]);
    assert_eq!(code, 0, "{err}");
    let last = out
        .lines()
        .rev()
        .find(|l| l.starts_with("game over"))
        .unwrap();
    assert!(
        last.contains("stone number 4") && last.contains("first player's view"),
        "{last}"
    );
    let (code, out, err) = gamesearch(&[
        "experiment",
        "ratios",
        "--b",
        "2",
        "--h",
        "4",
        "--seeds",
        "2",
    ]);
    assert_eq!(code, 0, "{err}");
    assert!(
        out.contains("continuous values") && !out.contains("Continuous"),
        "{out}"
    );
    let (_, out, _) = gamesearch(&[
        "experiment",
        "ratios",
        "--b",
        "2",
        "--h",
        "4",
        "--seeds",
        "2",
        "--values",
        "discrete:4",
    ]);
    assert!(out.contains("discrete:4 values"), "{out}");
    assert!(!out.contains("Discrete("), "{out}");
}

/// Defect 17: `Algorithm`'s Display honours width.
#[test]
fn d17_algorithm_display_pads() {
    let a = gamesearch::Algorithm::AlphaBeta;
    assert_eq!(format!("{a:>12}|"), "   alphabeta|");
    assert_eq!(format!("{a:<12}|"), "alphabeta   |");
}

/// Defect 20: Nothing is written that was not asked for.
#[test]
fn d20_nothing_is_written_unasked() {
    let dir = temp("quiet-dir");
    std::fs::create_dir_all(&dir).unwrap();
    let example = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../examples/trees/cater-minimax.tree"
    );
    for args in [
        &["trace", example][..],
        &["trace", example, "--json"],
        &["experiment", "pearl-kalah", "--positions", "2"],
    ] {
        let out = bin().args(args).current_dir(&dir).output().unwrap();
        assert_eq!(out.status.code(), Some(0), "{args:?}");
        let written: Vec<_> = std::fs::read_dir(&dir).unwrap().collect();
        assert!(written.is_empty(), "{args:?} wrote {written:?}");
    }
    // --json prints the trace on stdout.
    let out = bin()
        .args(["trace", example, "--json"])
        .current_dir(&dir)
        .output()
        .unwrap();
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert!(v[0]["steps"].as_array().is_some_and(|s| !s.is_empty()));
}

/// What fuzzing found (fuzz/): sizes whose arithmetic wrapped, and values past the searches'
/// infinity. Each was a panic or a wrong answer; each is now one line and exit 2.
#[test]
fn fuzz_findings_are_refused() {
    // (h + 1) * w wrapped to 0: a 9 x 2^64 board, then an index out of bounds.
    one_line(
        &["solve", "connect4:9x18446744073709551615"],
        &["Connect-Four 9x18446744073709551615"],
    );
    // 2·m·n wrapped in u32: Kalah(1, 2^31) was solved as an empty board, "a draw".
    one_line(&["solve", "kalah:1,2147483648"], &["Kalah(1,2147483648)"]);
    // discrete:M past 2^31 wrapped values to negatives beyond ±INF: the searches disagreed.
    one_line(
        &[
            "compare",
            "random:b=2,h=6,seed=9,values=discrete:3019670348",
        ],
        &["at most 536870912 levels"],
    );
}

/// Issue #58, wrong answer 1: values past 2^29. Multi-valued PN and df-pn capped a game's value
/// at ±(2^29 − 1) and called it exact; binary PN proved bounds that excluded the true value.
#[test]
fn i58_values_past_2_pow_29_are_answered_by_every_solver() {
    for (tree, value) in [
        ("tree:(max 999999999 5)", 999_999_999i64),
        ("tree:(max 536870912 5)", 536_870_912),
        ("tree:(min -999999999 5)", -999_999_999),
    ] {
        for algo in ["alphabeta-tt", "pn", "pn-multi", "dfpn", "dfpn-multi"] {
            let (code, out, err) = gamesearch(&["solve", tree, "--algo", algo, "--json"]);
            assert_eq!(code, 0, "{tree} {algo}: {err}");
            let v: serde_json::Value = serde_json::from_str(&out).unwrap();
            let (lo, hi) = (v["bounds"][0].as_i64(), v["bounds"][1].as_i64());
            match v["value"].as_i64() {
                Some(x) => assert_eq!(x, value, "{tree} {algo}: {v}"),
                None => assert!(
                    lo.unwrap() <= value && value <= hi.unwrap(),
                    "{tree} {algo}: bounds exclude {value}: {v}"
                ),
            }
        }
    }
}

/// Issue #58, wrong answer 2: `play`'s hint lost. After 4 and the engine's reply on 7x6, the
/// engine's estimate hinted 5 or 2 (−2 and −3 by the book); the hint and the engine's moves now
/// come from what is proven — the shipped book, else the solver within the budget — and say so;
/// only where neither answers is the engine's estimate given, as an estimate.
#[test]
fn i58_hints_are_proven_when_proof_is_at_hand() {
    for _ in 0..3 {
        let (code, out, err) =
            common::gamesearch_stdin(&["play", "connect4:7x6"], "4\nhint\nquit\n");
        assert_eq!(code, 0, "{err}");
        assert!(
            out.contains("hint: 4   (proven by the book: a win for X (+1))"),
            "{out}"
        );
        assert!(
            out.contains("engine (O, second) plays 4   proven by the book: a win for X (+1)"),
            "{out}"
        );
    }
    // Past the book, a position the solver finishes: proven by it.
    let (_, out, _) = common::gamesearch_stdin(&["play", "tictactoe"], "hint\nquit\n");
    assert!(out.contains("(proven: a draw (0))"), "{out}");
    // Neither book nor solver within 50 ms: the engine's estimate, called one.
    let (_, out, _) = common::gamesearch_stdin(
        &["play", "connect4:7x6:1234567", "--engine", "time=0.05"],
        "hint\nquit\n",
    );
    assert!(out.contains("(estimate: "), "{out}");
}

/// Issue #58, rough edges: the top-level help's summary names every command; `solve` says
/// "interior" as its JSON does; Kalah's estimates name their unit.
#[test]
fn i58_help_solve_and_play_say_what_they_mean() {
    let (code, out, _) = gamesearch(&["--help"]);
    assert_eq!(code, 0);
    let summary = out.lines().next().unwrap();
    for command in [
        "search",
        "solve",
        "play",
        "compare",
        "trace",
        "serve",
        "split",
        "combine",
        "tablebase",
        "bench",
        "experiment",
    ] {
        assert!(summary.contains(command), "{command} not in: {summary}");
    }
    let (code, out, _) = gamesearch(&["solve", "tictactoe"]);
    assert_eq!(code, 0);
    assert!(
        out.contains(" interior ") && !out.contains("expanded"),
        "{out}"
    );
    let (_, out, _) =
        common::gamesearch_stdin(&["play", "kalah:6,4", "--engine", "time=0.05"], "1\nquit\n");
    assert!(
        out.contains("points (stores ×4 + seeds on each side) (+ favours South)"),
        "{out}"
    );
}

/// Issue #58, points of view: every value is the first player's, and `solve` says so where it
/// prints one (its help, its value line), as the board page now does (tests/browser.rs).
#[test]
fn i58_solve_states_whose_view_its_value_is() {
    let (code, out, _) = gamesearch(&["solve", "--help"]);
    assert_eq!(code, 0);
    assert!(
        out.contains("first player's (MAX's) point of view"),
        "{out}"
    );
    // O to move after X's corner: the second player's centre holds the draw.
    let (code, out, _) = gamesearch(&["solve", "tictactoe:x........"]);
    assert_eq!(code, 0);
    assert!(
        out.contains("value       +0  (the first player's view)"),
        "{out}"
    );
    let (_, out, _) = gamesearch(&["search", "tictactoe", "--depth", "9"]);
    assert!(out.contains("(the first player's view)"), "{out}");
}

/// Issue #58: `tablebase build kalah:4 --seeds 100` started writing 352 GB onto a disk with
/// 76 GB free; the size is now checked against the disk before any work (one line, exit 2,
/// nothing written). `-q` keeps the line a class quiet; a signal exits 130 (it was 2).
#[cfg(unix)]
#[test]
fn i58_tablebase_checks_its_size_is_quiet_and_stops_with_130() {
    let dir = temp("tb-too-big");
    let d = dir.to_string_lossy().into_owned();
    one_line(
        &[
            "tablebase",
            "build",
            "kalah:4",
            "--seeds",
            "100",
            "--out",
            &d,
        ],
        &["needs", "GiB on disk", "free", "--seeds"],
    );
    assert!(!dir.exists(), "nothing is written");
    let dir = temp("tb-quiet");
    let d = dir.to_string_lossy().into_owned();
    let (code, out, err) = gamesearch(&[
        "-q",
        "tablebase",
        "build",
        "kalah:2",
        "--seeds",
        "6",
        "--out",
        &d,
    ]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(err, "", "-q: no line a class");
    assert!(out.contains("210 positions"), "{out}");
    let dir = temp("tb-signal");
    let child = bin()
        .args(["tablebase", "build", "kalah:6", "--seeds", "18", "--out"])
        .arg(&dir)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    std::thread::sleep(Duration::from_millis(1500));
    let ok = Command::new("kill")
        .args(["-TERM", &child.id().to_string()])
        .status()
        .unwrap();
    assert!(ok.success());
    let out = child.wait_with_output().unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(130), "{err}");
    assert!(err.contains("interrupted: stopped: classes 0.."), "{err}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// Issue #58: a textbook search stopped by its budget inside the first root move printed
/// "best move -" without a word, where the README promised the best move found so far; it now
/// says why there is none and what gives a move within a time budget.
#[test]
fn i58_a_stopped_search_says_why_it_has_no_move() {
    let (code, out, err) = gamesearch(&[
        "search",
        "connect4:7x6",
        "--algo",
        "negascout",
        "--depth",
        "20",
        "--max-time",
        "0.3",
    ]);
    assert_eq!(code, 0, "{err}");
    assert!(
        out.contains("best move   -  (no root move was searched to the end within the budget"),
        "{out}"
    );
}

/// Issue #58, wrong answer 3: `search connect4:7x6:44 --depth 16` ran the table-less textbook
/// search for 263 s without a word, valuing every unfinished position 0. It now says before a
/// long run what it will cost, says what values its horizon, and `--horizon heuristic` gives it
/// the engine's evaluation there.
#[test]
fn i58_a_textbook_search_says_what_it_computes_and_what_it_costs() {
    // A budget given: no note. Without one, the note comes before any work (the search is then
    // stopped by the test after it).
    let (code, _, err) = gamesearch(&[
        "search",
        "connect4:7x6:44",
        "--algo",
        "negascout",
        "--depth",
        "16",
        "--max-nodes",
        "1000",
    ]);
    assert_eq!(code, 0);
    assert!(!err.contains("note:"), "{err}");
    let mut child = bin()
        .args([
            "search",
            "connect4:7x6:44",
            "--algo",
            "negascout",
            "--depth",
            "16",
        ])
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // Its first line (stderr is unbuffered: read to the line's end, not one read).
    let mut note = String::new();
    std::io::BufRead::read_line(
        &mut std::io::BufReader::new(child.stderr.as_mut().unwrap()),
        &mut note,
    )
    .unwrap();
    let _ = child.kill();
    let _ = child.wait();
    assert!(
        note.starts_with("note: negascout to depth 16 with b=7: between 1.2e7 leaves"),
        "{note}"
    );
    let (_, out, _) = gamesearch(&[
        "search",
        "connect4:7x6:44",
        "--algo",
        "negascout",
        "--depth",
        "8",
    ]);
    assert!(out.contains("horizon     f(p), the rules' value"), "{out}");
    assert!(
        out.contains("best move   1\n"),
        "f is 0 everywhere: the first move: {out}"
    );
    let (_, out, _) = gamesearch(&[
        "search",
        "connect4:7x6:44",
        "--algo",
        "negascout",
        "--depth",
        "8",
        "--horizon",
        "heuristic",
    ]);
    assert!(out.contains("horizon     the game's heuristic"), "{out}");
    assert!(out.contains("best move   4\n"), "{out}");
    let (_, out, _) = gamesearch(&[
        "search",
        "tictactoe",
        "--depth",
        "2",
        "--horizon",
        "heuristic",
        "--json",
    ]);
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["horizon"], "heuristic");
}

/// Issue #58: Kalah's capture rule was Irving et al.'s "empty capture" without a word; the
/// standard rule (`kalah:M,N:standard`) is a game of its own with other values, and every output
/// that names a Kalah game names its rule.
#[test]
fn i58_kalah_names_its_rule_and_offers_the_standard_one() {
    // Kalah(2,4): the two rules' values differ (the oracle is games/tests/kalah_rules.rs).
    for (game, value, rule) in [
        ("kalah:2,4", "-12", "empty-capture rule"),
        ("kalah:2,4:standard", "-10", "standard rule"),
    ] {
        let (code, out, err) = gamesearch(&["solve", game]);
        assert_eq!(code, 0, "{err}");
        let first = out.lines().next().unwrap();
        assert!(
            first.starts_with(&format!("game        {game}  ({rule}")),
            "{out}"
        );
        assert!(out.contains(&format!("value       {value} ")), "{out}");
        let (_, out, _) = gamesearch(&["solve", game, "--json"]);
        let v: serde_json::Value = serde_json::from_str(&out).unwrap();
        assert!(v["rules"].as_str().unwrap().starts_with(rule), "{v}");
        let (_, out, _) = gamesearch(&["search", game, "--depth", "3"]);
        assert!(out.contains(&format!("({rule}")), "{out}");
        let (_, out, _) = gamesearch(&["compare", game, "--depth", "3"]);
        assert!(out.contains(&format!("({rule}")), "{out}");
        let (_, _, err) = common::gamesearch_stdin(&["play", game, "--human", "both"], "quit\n");
        assert!(err.contains(&format!("rules: {rule}")), "{err}");
    }
    one_line(
        &["solve", "kalah:4,3:oware"],
        &["`oware` is no capture rule", "standard"],
    );
    // Databases are the rule's own: built under the standard rule, they solve its games alone.
    let dir = temp("tb-standard");
    let d = dir.to_string_lossy().into_owned();
    let (code, out, err) = gamesearch(&[
        "-q",
        "tablebase",
        "build",
        "kalah:3:standard",
        "--seeds",
        "8",
        "--out",
        &d,
    ]);
    assert_eq!(code, 0, "{err}");
    assert!(out.starts_with("kalah:3:standard: classes 0..=8"), "{out}");
    let (code, out, err) =
        gamesearch(&["solve", "kalah:3,3:standard", "--tablebase", &d, "--json"]);
    assert_eq!(code, 0, "{err}");
    let with: serde_json::Value = serde_json::from_str(&out).unwrap();
    let (_, out, _) = gamesearch(&["solve", "kalah:3,3:standard", "--json"]);
    let without: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(with["value"], without["value"]);
    one_line(
        &["solve", "kalah:3,3", "--tablebase", &d],
        &["no tablebase of kalah:3 in"],
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// Issue #53 (first part): Othello from the command line — solved, played, and every malformed
/// or illegal text one line and exit 2.
#[test]
fn i53_othello_is_solved_played_and_its_bad_text_refused() {
    let (code, out, err) = gamesearch(&["solve", "othello:4x4", "--json"]);
    assert_eq!(code, 0, "{err}");
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(
        v["value"], -10,
        "3 discs to 11, the two empty squares to the winner"
    );
    for (args, words) in [
        (&["solve", "othello:9x9"][..], &["4x4, 6x6 or 8x8"][..]),
        (
            &["solve", "othello:8x8:a1"],
            &["a1 is not legal", "d3 c4 f5 e6"],
        ),
        (&["solve", "othello:8x8:board=XO/X"], &["2 cells", "64"]),
        (
            &["solve", "othello:4x4:board=-----OX--XO-----/Q"],
            &["X or O"],
        ),
        (&["search", "othello:8x8:f5z9", "--depth", "2"], &["`z9`"]),
    ] {
        one_line(args, words);
    }
    let (code, out, err) = common::gamesearch_stdin(
        &["play", "othello:6x6", "--engine", "time=0.05"],
        "c2\nquit\n",
    );
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("engine (O, White, second) plays"), "{out}");
    // The four openings are one move turned: the table's key (the least of the eight images')
    // makes them one job.
    let (code, out, _) = gamesearch(&["split", "othello:6x6", "--plies", "1"]);
    assert_eq!(code, 0);
    assert_eq!(out.lines().count(), 1, "one opening up to symmetry: {out}");
}

/// #53: `bench othello FILE` solves an obf suite and checks every position against its
/// published score and best moves (FFO #40: +38 by a2); a wrong published score is reported
/// and fails the run; a malformed line is one line naming it.
#[test]
fn i53_bench_othello_checks_the_published_scores() {
    let suite = concat!(env!("CARGO_MANIFEST_DIR"), "/../tests/data/ffo-40-59.txt");
    let (code, out, err) = gamesearch(&["bench", "othello", suite, "--limit", "1", "--json"]);
    assert_eq!(code, 0, "{err}");
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    let first = &v["positions"][0];
    assert_eq!(first["score"], 38, "{out}");
    assert_eq!(first["expected"], 38, "{out}");
    assert_eq!(first["best_move"], "a2", "{out}");
    assert_eq!(first["ok"], true, "{out}");
    assert_eq!(v["solved"], 1);
    assert_eq!(first["bounds"], serde_json::json!([38, 38]), "{out}");
    // Stopped by a budget, the position is listed with the bounds proven on its score.
    let (code, out, err) = gamesearch(&[
        "bench",
        "othello",
        suite,
        "--limit",
        "1",
        "--json",
        "--max-time",
        "0.1",
    ]);
    assert_eq!(code, 0, "{err}");
    assert!(err.contains("0 of 1 positions solved"), "{err}");
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    let first = &v["positions"][0];
    assert_eq!(first["score"], serde_json::Value::Null, "{out}");
    let (lo, hi) = (
        first["bounds"][0].as_i64().unwrap(),
        first["bounds"][1].as_i64().unwrap(),
    );
    assert!(lo <= 38 && 38 <= hi && (lo, hi) != (38, 38), "{out}");
    assert_eq!(v["solved"], 0);
    // --skip takes one line of the suite by itself (the docs' long commands do), and skipping
    // past its end is one line, status 2.
    let (code, out, err) = gamesearch(&[
        "bench",
        "othello",
        suite,
        "--skip",
        "1",
        "--limit",
        "1",
        "--json",
        "--max-time",
        "0.1",
    ]);
    assert_eq!(code, 0, "{err}");
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["positions"][0]["expected"], 0, "FFO #41 is +0: {out}");
    let (code, _, err) = gamesearch(&["bench", "othello", suite, "--skip", "20"]);
    assert_eq!(code, 2, "{err}");
    assert!(
        err.contains("--skip 20") && err.contains("has 20 positions") && err.lines().count() == 1,
        "{err}"
    );
    let ffo40 = "O--OOOOX-OOOOOOXOOXXOOOXOOXOOOXXOOOOOOXX---OOOOX----O--X-------- X";
    let wrong = temp("wrong.obf");
    std::fs::write(&wrong, format!("{ffo40}; A2:+36; C7:+34;\n")).unwrap();
    let (code, out, err) = gamesearch(&["bench", "othello", wrong.to_str().unwrap()]);
    assert_ne!(code, 0, "{out}");
    assert!(out.contains("NO") && out.contains("+36"), "{out}");
    assert!(err.contains("1 of 1 positions disagree"), "{err}");
    for (text, words) in [
        ("O--OOOOX X; A2:+38\n", &["line 1", "cells"][..]),
        (
            &format!("{ffo40}; H8:+38\n"),
            &["line 1", "`H8` is not a legal move"],
        ),
        (&format!("{ffo40}; A2:+99\n"), &["line 1", "-64 to +64"]),
        (&format!("\n# a comment\n{ffo40} A2:+38\n"), &["line 3"]),
    ] {
        let bad = temp("bad.obf");
        std::fs::write(&bad, text).unwrap();
        one_line(&["bench", "othello", bad.to_str().unwrap()], words);
    }
}
