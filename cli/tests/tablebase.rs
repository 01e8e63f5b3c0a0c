//! `tablebase build`, `tablebase probe`, `solve --tablebase` and `play --tablebase` as a user runs them: a build
//! resumes from the classes already written, a probe gives the value the solver gives, a solve
//! with the databases gives the value of one without, the engine playing with them ends the game
//! with the solver's result, and a damaged class file, a missing
//! directory or a game that is not Kalah is one line, exit 2.

mod common;
use common::gamesearch;

fn value(args: &[&str]) -> serde_json::Value {
    let (code, out, err) = gamesearch(args);
    assert_eq!(code, 0, "{args:?}: {err}");
    serde_json::from_str(&out).unwrap()
}

#[test]
fn build_probe_and_solve_with_databases() {
    let dir = std::env::temp_dir().join(format!("gamesearch-cli-tb-{}", std::process::id()));
    let d = dir.to_str().unwrap();
    let (code, out, err) =
        gamesearch(&["tablebase", "build", "kalah:3", "--seeds", "6", "--out", d]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("classes 0..=6"), "{out}");
    // Again, two more classes: the first seven are loaded, not built.
    let (code, out, _) = gamesearch(&[
        "tablebase",
        "build",
        "kalah:3",
        "--seeds",
        "8",
        "--out",
        d,
        "--json",
    ]);
    assert_eq!(code, 0);
    let lines: Vec<serde_json::Value> = out
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines.len(), 9);
    assert!(lines[..7].iter().all(|l| l["built"] == false));
    assert!(lines[7..].iter().all(|l| l["built"] == true));
    // A probe: the solver's value, and each move's.
    let game = "kalah:2,1,3/0,2,0/4,6/S";
    let p = value(&["tablebase", "probe", game, "--tablebase", d, "--json"]);
    let solved = value(&["solve", game, "--json", "-q", "--tt-mb", "4"]);
    assert_eq!(p["value"], solved["value"]);
    assert_eq!(p["class"], 8);
    // A solve from the start of Kalah(3,3) (18 seeds) with classes up to 8: the same value.
    let with = value(&[
        "solve",
        "kalah:3,3",
        "--tablebase",
        d,
        "--json",
        "-q",
        "--tt-mb",
        "4",
    ]);
    let without = value(&["solve", "kalah:3,3", "--json", "-q", "--tt-mb", "4"]);
    assert_eq!(with["value"], without["value"]);
    assert!(with["stats"]["interior"].as_u64() < without["stats"]["interior"].as_u64());
    // The engine plays with them: both sides perfect from a position of class 8, so the game
    // ends with the solver's result.
    let (code, out, err) = gamesearch(&[
        "play",
        game,
        "--human",
        "none",
        "--engine",
        "time=0.05",
        "--tablebase",
        d,
    ]);
    assert_eq!(code, 0, "{err}");
    assert!(err.contains("tablebase: classes 0..=8"), "{err}");
    assert!(out.contains("proven"), "{out}");
    let result = match solved["value"].as_i64().unwrap().signum() {
        1 => "game over: South (first) wins",
        -1 => "game over: North (second) wins",
        _ => "game over: draw",
    };
    assert!(out.contains(result), "{result}: {out}");
    // The ways it goes wrong.
    let file = dir.join("kalah-3.c8.gstb");
    let mut bytes = std::fs::read(&file).unwrap();
    let last = bytes.len() - 9;
    bytes[last] ^= 1;
    std::fs::write(&file, &bytes).unwrap();
    for (args, says) in [
        (
            vec!["tablebase", "probe", game, "--tablebase", d],
            "checksum",
        ),
        (vec!["solve", "kalah:3,3", "--tablebase", d], "checksum"),
        (vec!["play", "kalah:3,3", "--tablebase", d], "checksum"),
        (
            vec!["play", "connect4:4x4", "--tablebase", d],
            "the databases are Kalah's",
        ),
        (
            vec!["tablebase", "build", "kalah:3", "--seeds", "9", "--out", d],
            "remove it to build it again",
        ),
        (
            vec!["solve", "kalah:3,3", "--tablebase", "/nonexistent"],
            "no tablebase of kalah:3",
        ),
        (vec!["solve", "connect4:4x4", "--tablebase", d], "Kalah"),
        (
            vec![
                "tablebase",
                "build",
                "connect4:7x6",
                "--seeds",
                "3",
                "--out",
                d,
            ],
            "built for Kalah",
        ),
    ] {
        let (code, _, err) = gamesearch(&args);
        assert_eq!(code, 2, "{args:?}: {err}");
        // One line of error (a build's progress lines for the classes before it come first).
        let errors: Vec<&str> = err.lines().filter(|l| l.starts_with("error")).collect();
        assert_eq!(errors.len(), 1, "{err}");
        assert!(errors[0].contains(says), "{args:?}: {err}");
    }
    std::fs::remove_dir_all(&dir).unwrap();
}
