//! `split`, `solve --job` and `combine` as a batch system runs them: every job solved by its
//! own process, the results combined, the root's value equal to `solve`'s; and the ways a run
//! goes wrong (a missing result, a line edited, two values for one job) are one line, exit 2.

mod common;
use common::{gamesearch, gamesearch_stdin};

/// The value `gamesearch solve GAME --json` gives.
fn solved(game: &str) -> i64 {
    let (code, out, err) = gamesearch(&["solve", game, "--json", "--tt-mb", "16", "-q"]);
    assert_eq!(code, 0, "{err}");
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    v["value"].as_i64().unwrap()
}

/// Splits, solves each line in its own process, and returns (jobs, result lines).
fn run_jobs(game: &str, plies: &str) -> (Vec<String>, Vec<String>) {
    let (code, out, err) = gamesearch(&["split", game, "--plies", plies, "-q"]);
    assert_eq!(code, 0, "{err}");
    let jobs: Vec<String> = out.lines().map(String::from).collect();
    let results = jobs
        .iter()
        .map(|line| {
            let (code, out, err) = gamesearch(&[
                "solve",
                "--job",
                line,
                "--tt-mb",
                "4",
                "--threads",
                "1",
                "-q",
            ]);
            assert_eq!(code, 0, "{line}: {err}");
            out.trim().to_string()
        })
        .collect();
    (jobs, results)
}

/// `combine` with `results` on its standard input: (exit status, stdout, stderr).
fn combine(game: &str, plies: &str, results: &[String], json: bool) -> (i32, String, String) {
    let mut args = vec!["combine", game, "--plies", plies];
    if json {
        args.push("--json");
    }
    let input: String = results.iter().map(|r| format!("{r}\n")).collect();
    gamesearch_stdin(&args, &input)
}

#[test]
fn jobs_solved_apart_combine_to_the_solved_value() {
    for (game, plies) in [
        ("connect4:5x4", "2"),
        ("connect4:4x4:2", "3"),
        ("kalah:4,2", "2"),
        ("tictactoe", "2"),
    ] {
        let (jobs, results) = run_jobs(game, plies);
        assert!(!jobs.is_empty());
        let (code, out, err) = combine(game, plies, &results, true);
        assert_eq!(code, 0, "{game}: {err}");
        let v: serde_json::Value = serde_json::from_str(&out).unwrap();
        assert_eq!(v["value"].as_i64().unwrap(), solved(game), "{game}");
        assert_eq!(v["jobs"].as_u64().unwrap() as usize, jobs.len());
        // The best move keeps the value.
        let best = v["best_move"].as_str().unwrap();
        let after = match game.split_once(':') {
            Some(("connect4", rest)) if rest.contains(':') => format!("{game}{best}"),
            Some(("connect4", _)) => format!("{game}:{best}"),
            _ => continue,
        };
        assert_eq!(solved(&after), v["value"].as_i64().unwrap(), "{after}");
    }
}

#[test]
fn incomplete_or_inconsistent_results_are_one_line_exit_2() {
    let (_, results) = run_jobs("connect4:4x4", "2");
    // A result missing.
    let (code, _, err) = combine("connect4:4x4", "2", &results[1..], false);
    assert_eq!(code, 2);
    assert!(
        err.contains("1 of") && err.contains("no result yet"),
        "{err}"
    );
    // Results of another split.
    let (code, _, err) = combine("connect4:5x4", "2", &results, false);
    assert_eq!(code, 2);
    assert!(err.contains("is not a job of connect4:5x4"), "{err}");
    // Two values for one job.
    let mut two = results.clone();
    let mut r: serde_json::Value = serde_json::from_str(&results[0]).unwrap();
    r["value"] = (r["value"].as_i64().unwrap() + 1).into();
    two.push(r.to_string());
    let (code, _, err) = combine("connect4:4x4", "2", &two, false);
    assert_eq!(code, 2);
    assert!(err.contains("has two values"), "{err}");
    // A line that is not a result.
    let (code, _, err) = combine("connect4:4x4", "2", &["{}".to_string()], false);
    assert_eq!(code, 2);
    assert!(err.contains("not a result line"), "{err}");
}

#[test]
fn bad_jobs_and_splits_are_one_line_exit_2() {
    for (args, says) in [
        (
            vec!["split", "random:b=2,h=3,seed=1", "--plies", "1"],
            "only kalah, tictactoe, connect4, othello, domineering and hex positions",
        ),
        (
            vec![
                "split",
                "connect4:7x6",
                "--plies",
                "9",
                "--max-jobs",
                "1000",
            ],
            "more than 1000 jobs",
        ),
        (vec!["split", "connect4:7x6"], "--plies"),
        (
            vec!["solve", "--job", "nonsense"],
            "expected a line of `gamesearch split`",
        ),
        (
            vec![
                "solve",
                "--job",
                r#"{"key":"connect4:5x4/0000000000000001","game":"connect4:5x4:111"}"#,
            ],
            "has the key connect4:5x4/",
        ),
        (
            vec!["solve", "connect4:5x4", "--job", "{}"],
            "cannot be used with",
        ),
    ] {
        let (code, out, err) = gamesearch(&args);
        assert_eq!(code, 2, "{args:?}: {out}");
        assert_eq!(err.lines().count(), 1, "{args:?}: {err}");
        assert!(err.contains(says), "{args:?}: {err}");
    }
}

/// `combine --book` writes the results as a book; `solve --book` answers the positions in it
/// without a search (the same value as `solve`, a move that keeps it), mirror images too, and
/// searches the others with it; `play --book` plays the book's moves; a book of other rules, a
/// file that is no book, or `--book` with another solver is one line, exit 2.
#[test]
fn combine_writes_a_book_that_solve_and_play_read() {
    let dir = std::env::temp_dir().join(format!("gamesearch-cli-book-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let book = dir.join("5x4.book");
    let book = book.to_str().unwrap();
    let (jobs, results) = run_jobs("connect4:5x4", "2");
    let input: String = results.iter().map(|r| format!("{r}\n")).collect();
    let (code, _, err) = gamesearch_stdin(
        &["combine", "connect4:5x4", "--plies", "2", "--book", book],
        &input,
    );
    assert_eq!(code, 0, "{err}");
    // 13 jobs and the 4 positions above them (the root; five first moves, mirror images merged).
    assert!(err.contains("17 positions (17 exact)"), "{err}");
    assert!(
        err.contains(&format!("from {} of {} jobs", jobs.len(), jobs.len())),
        "{err}"
    );
    let answer = |game: &str| {
        let (code, out, err) = gamesearch(&["solve", game, "--book", book, "--json", "-q"]);
        assert_eq!(code, 0, "{game}: {err}");
        serde_json::from_str::<serde_json::Value>(&out).unwrap()
    };
    // In the book (the root, a first move, a job and its mirror image): no search.
    for game in [
        "connect4:5x4",
        "connect4:5x4:2",
        "connect4:5x4:21",
        "connect4:5x4:45",
    ] {
        let v = answer(game);
        assert_eq!(v["from_book"], true, "{game}");
        assert_eq!(v["stats"]["leaves"], 0, "{game}");
        assert_eq!(v["value"].as_i64().unwrap(), solved(game), "{game}");
        let best = v["best_move"].as_str().unwrap();
        let sep = if game.matches(':').count() == 2 {
            ""
        } else {
            ":"
        };
        assert_eq!(
            solved(&format!("{game}{sep}{best}")),
            solved(game),
            "{game} {best}"
        );
    }
    // Below the book: searched, the same value.
    let v = answer("connect4:5x4:213");
    assert!(v.get("from_book").is_none());
    assert_eq!(v["value"].as_i64().unwrap(), solved("connect4:5x4:213"));
    // play: the engine opens with the book's move, without thinking.
    let (code, out, err) = gamesearch_stdin(
        &["play", "connect4:5x4", "--human", "second", "--book", book],
        "quit\n",
    );
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("proven by the book"), "{out}");
    // The ways it goes wrong.
    for (args, says) in [
        (
            vec!["solve", "connect4:6x5", "--book", book],
            "is a position of connect4:6x5",
        ),
        (
            vec!["solve", "connect4:5x4", "--book", book, "--algo", "pn"],
            "alpha-beta solver",
        ),
        (
            vec!["solve", "connect4:5x4", "--book", "/etc/hostname"],
            "not a gamesearch book",
        ),
        (
            vec!["play", "connect4:5x4", "--book", book, "--match", "2"],
            "cannot be used with",
        ),
    ] {
        let (code, _, err) = gamesearch(&args);
        assert_eq!(code, 2, "{args:?}");
        assert_eq!(err.trim().lines().count(), 1, "{err}");
        assert!(err.contains(says), "{args:?}: {err}");
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

/// The book in `books/` (regenerated by `books/make.sh connect4:7x6 4 …`) answers the empty 7x6
/// board as Allis (1988) and Tromp found it — a first-player win, only in the middle column —
/// and each first move as they did: the middle wins, its neighbours draw, the others lose.
#[test]
fn the_shipped_7x6_book_answers_as_allis_and_tromp() {
    let book = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../books/connect4-7x6-ply4.book"
    );
    let answer = |game: &str| {
        let (code, out, err) = gamesearch(&["solve", game, "--book", book, "--json", "-q"]);
        assert_eq!(code, 0, "{game}: {err}");
        let v: serde_json::Value = serde_json::from_str(&out).unwrap();
        assert_eq!(v["from_book"], true, "{game}");
        v
    };
    let root = answer("connect4:7x6");
    assert_eq!(
        (root["outcome"].as_str(), root["best_move"].as_str()),
        (Some("win"), Some("4"))
    );
    for (column, outcome) in ["loss", "loss", "draw", "win", "draw", "loss", "loss"]
        .iter()
        .enumerate()
    {
        let v = answer(&format!("connect4:7x6:{}", column + 1));
        assert_eq!(
            v["outcome"].as_str(),
            Some(*outcome),
            "first move {}",
            column + 1
        );
    }
}
