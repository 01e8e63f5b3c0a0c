//! Games whose positions repeat, from the command line: `solve` answers with the remoteness,
//! `tablebase build` writes a strong solution (over the dense index, or by keys) that `probe`
//! and `solve --tablebase` read, and a
//! missing, truncated, damaged or foreign file is one line and exit 2.

mod common;

use common::{gamesearch, scratch_dir};

/// Lions and chicks only: 28,891 positions, solved in a blink.
const ENDGAME: &str = "dobutsu:board=.l./.c./.C./.L./s";

#[test]
fn solve_gives_the_value_and_the_remoteness_of_a_position_that_can_repeat() {
    let (code, out, err) = gamesearch(&["solve", ENDGAME, "--json"]);
    assert_eq!(code, 0, "{err}");
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["value"], 1, "{out}");
    assert_eq!(v["remoteness"], 15, "{out}");
    assert_eq!(v["algorithm"], "retrograde", "{out}");
    // The line is the winner's shortest: as long as the remoteness.
    assert_eq!(v["pv"].as_array().unwrap().len(), 15, "{out}");
    // Weakly, by df-pn (safe where positions repeat): the same value, for this position alone.
    for algo in ["dfpn", "dfpn-multi"] {
        let (code, out, err) = gamesearch(&["solve", ENDGAME, "--algo", algo, "--json"]);
        assert_eq!(code, 0, "{err}");
        let v: serde_json::Value = serde_json::from_str(&out).unwrap();
        assert_eq!(v["algo"], algo, "{out}");
        assert!(v["value"] == 1 || v["outcome"] == "win", "{out}");
        assert_eq!(v["remoteness"], 15, "{out}");
    }
    // The tree proof-number search keeps no line, and says so.
    let (code, _, err) = gamesearch(&["solve", ENDGAME, "--algo", "pn"]);
    assert_eq!(code, 2);
    assert!(err.contains("solved strongly"), "{err}");
}

#[test]
fn a_built_strong_solution_is_probed_and_solved_from_and_a_bad_file_is_refused() {
    let dir = scratch_dir("cycles", "tablebase");
    let d = dir.to_str().unwrap();
    // Over the dense index (the default): every placement of the root's pieces.
    let (code, out, err) = gamesearch(&["tablebase", "build", ENDGAME, "--out", d, "--json"]);
    assert_eq!(code, 0, "{err}");
    let built: serde_json::Value = serde_json::from_str(out.trim()).unwrap();
    assert_eq!(built["by"], "index", "{out}");
    assert_eq!(built["numbers"], 16_863, "{out}");
    assert_eq!(built["with_both_lions"], 24_789, "{out}");
    assert_eq!(
        (built["value"].clone(), built["remoteness"].clone()),
        (1.into(), 15.into())
    );
    // By keys: every position from the root; those with both lions are Tanaka's way of
    // counting (the games crate's tests count them apart).
    let keys = scratch_dir("cycles", "tablebase-keys");
    let k = keys.to_str().unwrap();
    let (code, out, err) = gamesearch(&[
        "tablebase",
        "build",
        ENDGAME,
        "--by-keys",
        "--out",
        k,
        "--json",
    ]);
    assert_eq!(code, 0, "{err}");
    let built: serde_json::Value = serde_json::from_str(out.trim()).unwrap();
    assert_eq!(built["positions"], 28_891, "{out}");
    assert_eq!(built["with_both_lions"], 24_789, "{out}");
    assert_eq!(
        (built["value"].clone(), built["remoteness"].clone()),
        (1.into(), 15.into())
    );
    // The two agree on the root's best line.
    let line = |dir: &str| {
        let (code, out, err) = gamesearch(&["solve", ENDGAME, "--tablebase", dir, "--json"]);
        assert_eq!(code, 0, "{err}");
        let v: serde_json::Value = serde_json::from_str(&out).unwrap();
        v["pv"].clone()
    };
    assert_eq!(line(d), line(k));

    let (code, out, err) = gamesearch(&["solve", ENDGAME, "--tablebase", d, "--json"]);
    assert_eq!(code, 0, "{err}");
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(
        (v["value"].clone(), v["remoteness"].clone()),
        (1.into(), 15.into()),
        "{out}"
    );

    // Every move's value from the file: the best keeps the win, one ply nearer.
    let (code, out, err) = gamesearch(&["tablebase", "probe", ENDGAME, "--tablebase", d, "--json"]);
    assert_eq!(code, 0, "{err}");
    let p: serde_json::Value = serde_json::from_str(out.trim()).unwrap();
    let best = p["best_move"].as_str().unwrap();
    let m = p["moves"]
        .as_array()
        .unwrap()
        .iter()
        .find(|m| m["move"] == best)
        .unwrap();
    assert_eq!(
        (m["value"].clone(), m["remoteness"].clone()),
        (1.into(), 14.into()),
        "{out}"
    );

    // A position the solution by keys does not hold (the dense table is of other pieces).
    let (code, _, err) = gamesearch(&["solve", "dobutsu", "--tablebase", k]);
    assert_eq!(code, 2);
    assert!(err.contains("not in the strong solution"), "{err}");
    let (code, _, err) = gamesearch(&["solve", "dobutsu", "--tablebase", d]);
    assert_eq!(code, 2);
    assert!(err.contains("no strong solution"), "{err}");

    // A truncated file, then a damaged one, then none: one line each, exit 2.
    let file = dir.join("dobutsu-g0e0c2.gssd");
    let whole = std::fs::read(&file).unwrap();
    std::fs::write(&file, &whole[..whole.len() / 2]).unwrap();
    let (code, _, err) = gamesearch(&["solve", ENDGAME, "--tablebase", d]);
    assert_eq!(code, 2);
    assert!(err.contains("truncated"), "{err}");
    let mut damaged = whole.clone();
    let at = damaged.len() / 2;
    damaged[at] ^= 1;
    std::fs::write(&file, &damaged).unwrap();
    let (code, _, err) = gamesearch(&["tablebase", "probe", ENDGAME, "--tablebase", d]);
    assert_eq!(code, 2);
    assert!(err.contains("checksum"), "{err}");
    assert_eq!(err.trim().lines().count(), 1, "{err}");
    std::fs::remove_file(&file).unwrap();
    let (code, _, err) = gamesearch(&["solve", ENDGAME, "--tablebase", d]);
    assert_eq!(code, 2);
    assert!(err.contains("no strong solution"), "{err}");
}

#[test]
fn a_strong_solve_past_its_memory_is_refused_with_what_it_needs() {
    let dir = scratch_dir("cycles", "memory");
    let d = dir.to_str().unwrap();
    let (code, _, err) = gamesearch(&[
        "tablebase",
        "build",
        "dobutsu",
        "--out",
        d,
        "--max-memory",
        "64M",
    ]);
    assert_eq!(code, 2);
    assert!(err.contains("needs"), "{err}");
    assert!(!dir.join("dobutsu.gssd").exists());
}
