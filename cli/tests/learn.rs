//! `gamesearch learn` and the `--weights` a user gives: a short learning writes a weights file
//! that `bench othello` and `gtp` then read; a damaged, truncated or foreign weights file, and
//! a game with no features, are one line and exit status 2.

mod common;
use common::{gamesearch, scratch_dir};

/// `bench othello` on FFO #40 alone, with `extra` arguments: exit status, stdout, stderr.
fn bench_first(extra: &[&str]) -> (i32, String, String) {
    let mut args = vec![
        "bench",
        "othello",
        "../tests/data/ffo-40-59.txt",
        "--limit",
        "1",
    ];
    args.extend(extra);
    gamesearch(&args)
}

#[test]
fn learn_writes_a_weights_file_that_the_solver_reads() {
    let dir = scratch_dir("learn", "writes");
    let out = dir.join("o6.gsw");
    let (code, stdout, err) = gamesearch(&[
        "learn",
        "othello:6x6",
        "--games",
        "200",
        "--rounds",
        "1",
        "--threads",
        "2",
        "--seed",
        "5",
        "--out",
        out.to_str().unwrap(),
        "--json",
    ]);
    assert_eq!(code, 0, "{stdout}{err}");
    let v: serde_json::Value = serde_json::from_str(&stdout).unwrap();
    assert_eq!(v["feature_set"], "othello-6x6-patterns-1");
    assert_eq!(v["seed"], 5);
    assert_eq!(v["complete"], true);
    assert_eq!(v["stages"].as_array().unwrap().len(), 8);
    assert!(v["positions"].as_u64().unwrap() > 1000);
    let bytes = std::fs::metadata(&out).unwrap().len();
    assert_eq!(v["bytes"].as_u64(), Some(bytes));
    // The 8x8 suite cannot read a 6x6 file.
    let (code, _, err) = bench_first(&["--weights", out.to_str().unwrap()]);
    assert_eq!(code, 2);
    assert!(
        err.contains("learned for `othello-6x6-patterns-1`, not `othello-8x8-patterns-1`"),
        "{err}"
    );
}

#[test]
fn bad_weights_files_and_games_without_features_are_one_line_and_exit_2() {
    let dir = scratch_dir("learn", "bad");
    let good = gamesearch_games::othello::shipped_weights(8)
        .unwrap()
        .to_bytes();
    let truncated = dir.join("truncated.gsw");
    std::fs::write(&truncated, &good[..good.len() / 2]).unwrap();
    let damaged = dir.join("damaged.gsw");
    let mut d = good.clone();
    d[good.len() / 2] ^= 0x10;
    std::fs::write(&damaged, &d).unwrap();
    let text = dir.join("text.gsw");
    std::fs::write(&text, "hello").unwrap();
    let cases: Vec<(Vec<&str>, &str)> = vec![
        (vec!["--weights", truncated.to_str().unwrap()], "truncated"),
        (
            vec!["--weights", damaged.to_str().unwrap()],
            "checksum mismatch",
        ),
        (
            vec!["--weights", text.to_str().unwrap()],
            "not a weights file",
        ),
        (vec!["--weights", "/no/such/file.gsw"], "No such file"),
    ];
    for (extra, why) in cases {
        let (code, out, err) = bench_first(&extra);
        assert_eq!(code, 2, "{extra:?}: {out}{err}");
        assert_eq!(err.trim_end().lines().count(), 1, "{err}");
        assert!(err.contains(why), "{extra:?}: {err}");
    }
    for args in [
        &["learn", "connect4", "--out", "/tmp/x.gsw"][..],
        &[
            "learn",
            "othello:8x8",
            "--games",
            "0",
            "--out",
            "/tmp/x.gsw",
        ],
        &["learn", "othello:8x8", "--out", "/no/such/dir/x.gsw"],
        &["gtp", "othello", "--weights", truncated.to_str().unwrap()],
        &[
            "play",
            "kalah:6,4",
            "--weights",
            truncated.to_str().unwrap(),
        ],
        &["play", "connect4", "--weights", "none"],
        &["play", "kalah:6,4", "--match", "2", "--b", "eval=good"],
        &[
            "play",
            "kalah:6,4",
            "--match",
            "2",
            "--b",
            "eval=hand,driver=mcts,threads=2",
        ],
    ] {
        let (code, out, err) = gamesearch(args);
        assert_eq!(code, 2, "{args:?}: {out}{err}");
        assert_eq!(err.trim_end().lines().count(), 1, "{err}");
    }
}

#[test]
fn the_hand_written_evaluation_is_still_there_and_solves_the_same() {
    let (code, out, err) = bench_first(&["--weights", "none", "--json"]);
    assert_eq!(code, 0, "{out}{err}");
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["failed_lines"].as_array().map(Vec::len), Some(0), "{out}");
    assert_eq!(v["positions"][0]["ok"], true, "{out}");
}

#[test]
fn kalah_learns_and_a_match_puts_the_learned_evaluation_against_the_hand_written_one() {
    let dir = scratch_dir("learn", "kalah");
    let out = dir.join("k4.gsw");
    let (code, stdout, err) = gamesearch(&[
        "learn",
        "kalah:4,3",
        "--games",
        "300",
        "--rounds",
        "1",
        "--threads",
        "2",
        "--out",
        out.to_str().unwrap(),
        "--json",
    ]);
    assert_eq!(code, 0, "{stdout}{err}");
    let v: serde_json::Value = serde_json::from_str(&stdout).unwrap();
    assert_eq!(v["feature_set"], "kalah-4-pits-1");
    // The start of Kalah(4,3) is among the positions the tests check: kept out.
    assert!(v["excluded"].as_u64().unwrap() >= 300, "{stdout}");
    let (code, stdout, err) = gamesearch(&[
        "play",
        "kalah:4,3",
        "--weights",
        out.to_str().unwrap(),
        "--match",
        "2",
        "--a",
        "depth=3",
        "--b",
        "depth=3,eval=hand",
        "--json",
    ]);
    assert_eq!(code, 0, "{stdout}{err}");
    assert!(err.contains("hand-written evaluation"), "{err}");
    let v: serde_json::Value = serde_json::from_str(&stdout).unwrap();
    assert_eq!(v["games"], 4, "{stdout}");
}
