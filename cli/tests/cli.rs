//! The CLI contract, run on the real binary: JSON shapes other tools script against, and one
//! clear line with exit status 2 on bad input.

use std::process::Command;

fn gamesearch(args: &[&str]) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_gamesearch"))
        .args(args)
        .output()
        .expect("run gamesearch");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8(out.stdout).unwrap(),
        String::from_utf8(out.stderr).unwrap(),
    )
}

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
    assert_eq!(rows.len(), 9);
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
