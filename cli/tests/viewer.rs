//! `gamesearch trace`: the DOT against the trace on generated trees, every output format from
//! the binary (the HTML page in a real browser is in browser.rs).

mod common;
use common::{example_tree, gamesearch, scratch_dir};

use std::path::Path;

use gamesearch::trace::{search_observed, Recorder, Step, Trace};
use gamesearch::trees::RandomTreeSpec;
use gamesearch::{Algorithm, SearchConfig};
use gamesearch_cli::view::{dot, final_state, svg};

/// The DOT has one node statement per trace node, styled as the trace says (pruned: dashed,
/// re-searched: double border, leaf evaluated: filled, value and bound in the label), and one
/// edge per parent link.
fn check_dot(t: &Trace) {
    let d = dot(t);
    let states = final_state(t);
    let node_lines: Vec<&str> = d
        .lines()
        .filter(|l| {
            let l = l.trim_start();
            !l.contains("->")
                && l.strip_prefix('n')
                    .is_some_and(|r| r.starts_with(|c: char| c.is_ascii_digit()))
        })
        .collect();
    assert_eq!(node_lines.len(), t.nodes.len(), "{}", t.algorithm);
    assert_eq!(d.matches(" -> ").count(), t.nodes.len() - 1);
    let entered = |id: u32| {
        t.steps.iter().any(
            |s| matches!(s, Step::Enter { node, .. } | Step::Expand { node, .. } if *node == id),
        )
    };
    let researched = |id: u32| t.steps.contains(&Step::ReSearch { node: id });
    let leaf = |id: u32| {
        t.steps.iter().find_map(|s| match s {
            Step::Leaf { node, value } if *node == id => Some(*value),
            _ => None,
        })
    };
    for node in &t.nodes {
        let line = node_lines
            .iter()
            .find(|l| l.trim_start().starts_with(&format!("n{} [", node.id)))
            .unwrap_or_else(|| panic!("no DOT node for {}", node.id));
        let pruned_in_trace = t
            .steps
            .iter()
            .any(|s| matches!(s, Step::Cutoff { pruned, .. } if pruned.contains(&node.id)));
        let searched = entered(node.id)
            || leaf(node.id).is_some()
            || t.steps
                .iter()
                .any(|s| matches!(s, Step::Expand { children, .. } if children.contains(&node.id)));
        assert_eq!(
            line.contains("style=\"dashed\""),
            pruned_in_trace && !searched,
            "{line}"
        );
        assert_eq!(
            line.contains("peripheries=2"),
            researched(node.id),
            "{line}"
        );
        if let Some(f) = leaf(node.id) {
            assert!(line.contains(&format!("f = {f}")), "{line}");
            assert!(line.contains("fillcolor"), "{line}");
        }
        if let Some((v, _)) = states[node.id as usize].value {
            assert!(line.contains(&v.to_string()), "{line}");
        }
        if let Some(p) = node.parent {
            assert!(d.contains(&format!("n{p} -> n{}", node.id)));
        }
    }
}

#[test]
fn dot_agrees_with_the_trace_on_generated_trees() {
    for seed in 0..150u64 {
        let spec = RandomTreeSpec::new(1 + (seed % 4) as u32, 1 + (seed % 5) as u32, seed);
        let root = spec.root().unwrap();
        for algo in Algorithm::ALL {
            let mut rec = Recorder::new(&root, 1 << 16);
            let out = search_observed(&root, algo, &SearchConfig::new(spec.h), &mut rec);
            let t = rec.finish(algo.name(), &out);
            check_dot(&t);
            let s = svg(&t);
            assert_eq!(s.matches("<g class=\"node\"").count(), t.nodes.len());
        }
    }
}

#[test]
fn trace_command_writes_every_format() {
    let dir = scratch_dir("viewer", "formats");
    let p = |f: &str| dir.join(f).to_string_lossy().into_owned();
    let (code, out, err) = gamesearch(&[
        "trace",
        &example_tree("cater-minimax.tree"),
        "--algo",
        "alphabeta",
        "-o",
        &p("t.json"),
        "-o",
        &p("t.dot"),
        "-o",
        &p("t.svg"),
        "-o",
        &p("t.html"),
    ]);
    assert_eq!(code, 0, "{err}");
    assert!(
        out.contains("alphabeta") && out.contains("value      4"),
        "{out}"
    );
    let json: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(p("t.json")).unwrap()).unwrap();
    assert_eq!(json["format"], "gamesearch-trace/1");
    assert_eq!(json["value"], 4);
    assert_eq!(json["nodes"][0]["label"], "A");
    let leaves = json["steps"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|s| s["type"] == "leaf")
        .count();
    assert_eq!(leaves as u64, json["stats"]["leaves"].as_u64().unwrap());
    let d = std::fs::read_to_string(p("t.dot")).unwrap();
    assert!(
        d.contains("label=\"G\\npruned\"") && d.contains("style=\"dashed\""),
        "{d}"
    );
    let s = std::fs::read_to_string(p("t.svg")).unwrap();
    assert!(s.starts_with("<svg") && s.contains(">G</text>"));
    let h = std::fs::read_to_string(p("t.html")).unwrap();
    // Self-contained: nothing fetched (the only URL is the SVG namespace).
    assert!(!h.contains("src=") && !h.contains("<link") && !h.contains("href="));
    assert!(h.contains("\"format\":\"gamesearch-trace/1\""));
    // Bad output names and over-large caps are one line and status 2.
    let (code, _, err) = gamesearch(&[
        "trace",
        &example_tree("cater-minimax.tree"),
        "-o",
        &p("t.png"),
    ]);
    assert_eq!(code, 2);
    assert!(err.contains(".html, .json, .dot or .svg"), "{err}");
    let (code, _, _) = gamesearch(&["trace", "tictactoe", "--node-cap", "0"]);
    assert_eq!(code, 2);
    let _ = std::fs::remove_dir_all(dir);
}

/// `gamesearch trace` of Cater's tree with `algo`, written as JSON and SVG: what it printed,
/// the trace and the picture.
fn trace_cater(algo: &str) -> (String, serde_json::Value, String) {
    let dir = scratch_dir("viewer", algo);
    let p = |f: &str| dir.join(f).to_string_lossy().into_owned();
    let (code, out, err) = gamesearch(&[
        "trace",
        &example_tree("cater-minimax.tree"),
        "--algo",
        algo,
        "-o",
        &p("t.json"),
        "-o",
        &p("t.svg"),
    ]);
    assert_eq!(code, 0, "{err}");
    let json = serde_json::from_str(&std::fs::read_to_string(p("t.json")).unwrap()).unwrap();
    let svg = std::fs::read_to_string(p("t.svg")).unwrap();
    let _ = std::fs::remove_dir_all(dir);
    (out, json, svg)
}

#[test]
fn an_mcts_trace_shows_the_tree_growing_with_its_visits_and_proofs() {
    // MCTS-Solver on Cater's tree (A = 4: both of A's moves win for MAX). Each playout is
    // recorded as its selection, the one child added, the playout's result and the visits of
    // every node up the path; the last step proves the root.
    let (out, json, svg) = trace_cater("mcts-solver");
    assert!(
        out.contains("mcts-solver") && out.contains("value      1"),
        "{out}"
    );
    let steps = json["steps"].as_array().unwrap();
    let of = |kind: &str| steps.iter().filter(|s| s["type"] == kind).count() as u64;
    let playouts = json["stats"]["leaves"].as_u64().unwrap();
    assert_eq!(of("playout"), playouts);
    assert_eq!(of("select"), playouts);
    // One node joins the tree a playout, except where the playout starts at a proven node.
    assert!(
        of("expand") <= playouts
            && of("expand") + 1 == json["nodes"].as_array().unwrap().len() as u64
    );
    // The root's visits step after every playout; the last says all of them, proven a win.
    let root: Vec<&serde_json::Value> = steps
        .iter()
        .filter(|s| s["type"] == "visits" && s["node"] == 0)
        .collect();
    assert_eq!(root.len() as u64, playouts);
    let last = root.last().unwrap();
    assert_eq!(
        (last["visits"].as_u64(), last["proven"].as_i64()),
        (Some(playouts), Some(1)),
        "{last}"
    );
    assert_eq!(steps.last().unwrap(), *last);
    assert!(
        svg.contains(&format!("n {playouts} · 1.00")) && svg.contains("proven +1"),
        "{svg}"
    );
    // Without a budget, a trace of MCTS runs as many playouts as it may record nodes.
    let (code, out, err) = gamesearch(&[
        "trace",
        "connect4:5x4",
        "--algo",
        "mcts",
        "--node-cap",
        "150",
    ]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("leaves    150"), "{out}");
    assert!(err.contains("recorded its first 150 playouts"), "{err}");
    let (code, _, err) = gamesearch(&["trace", "tictactoe", "--algo", "mcts", "--threads", "2"]);
    assert_eq!(code, 2, "{err}");
}

#[test]
fn a_bstar_trace_shows_every_interval_until_the_separation() {
    // B* on Cater's tree with whole-range leaf intervals: each expansion, its children's
    // intervals, the intervals backed up to the root; the root ends exact at 4, B proven best.
    let (out, json, svg) = trace_cater("bstar");
    assert!(
        out.contains("bstar") && out.contains("value      4"),
        "{out}"
    );
    let steps = json["steps"].as_array().unwrap();
    let expansions = steps.iter().filter(|s| s["type"] == "expand").count() as u64;
    assert_eq!(expansions, json["stats"]["interior"].as_u64().unwrap());
    assert_eq!(json["best_move"], "B");
    let root: Vec<(i64, i64)> = steps
        .iter()
        .filter(|s| s["type"] == "interval" && s["node"] == 0)
        .map(|s| (s["lower"].as_i64().unwrap(), s["upper"].as_i64().unwrap()))
        .collect();
    assert_eq!(root.len() as u64, expansions);
    assert_eq!(root.last(), Some(&(4, 4)));
    // The intervals only narrow.
    for w in root.windows(2) {
        assert!(w[1].0 >= w[0].0 && w[1].1 <= w[0].1, "{root:?}");
    }
    assert!(svg.contains("[4, 4]") && svg.contains("[2, 2]"), "{svg}");
}

#[test]
fn the_node_cap_is_stated_and_kept() {
    let dir = scratch_dir("viewer", "cap");
    let f = dir.join("t.json").to_string_lossy().into_owned();
    let (code, _, err) = gamesearch(&[
        "trace",
        "connect4:4x4",
        "--depth",
        "6",
        "--node-cap",
        "50",
        "-o",
        &f,
    ]);
    assert_eq!(code, 0);
    assert!(err.contains("recording stopped at 50 nodes"), "{err}");
    let json: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&f).unwrap()).unwrap();
    assert_eq!(json["truncated"], true);
    assert_eq!(json["nodes"].as_array().unwrap().len(), 50);
    let _ = std::fs::remove_dir_all(dir);
}

/// Every worked example parses and the command its header gives runs.
#[test]
fn every_example_tree_runs_its_documented_command() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../examples/trees");
    let out = scratch_dir("viewer", "examples");
    let mut seen = 0;
    for entry in std::fs::read_dir(&dir).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().and_then(|e| e.to_str()) != Some("tree") {
            continue;
        }
        let text = std::fs::read_to_string(&path).unwrap();
        let line = text
            .lines()
            .find_map(|l| {
                l.trim_start_matches('#')
                    .trim()
                    .strip_prefix("gamesearch trace ")
            })
            .unwrap_or_else(|| panic!("{}: no `gamesearch trace` command", path.display()));
        let mut args: Vec<String> = vec!["trace".into()];
        for a in line.split_whitespace() {
            args.push(if a.starts_with("examples/trees/") {
                dir.join(a.trim_start_matches("examples/trees/"))
                    .to_string_lossy()
                    .into_owned()
            } else {
                a.to_string()
            });
        }
        args.push("-o".into());
        args.push(out.join("x.html").to_string_lossy().into_owned());
        let refs: Vec<&str> = args.iter().map(String::as_str).collect();
        let (code, stdout, err) = gamesearch(&refs);
        assert_eq!(code, 0, "{}: {err}", path.display());
        assert!(!stdout.contains("(cap)"), "{}", path.display());
        seen += 1;
    }
    assert!(seen >= 5);
    let _ = std::fs::remove_dir_all(out);
}

/// The tidy layout's promises on irregular trees (alpha-beta's cut-offs on random trees of every
/// shape, proof-number trees of Connect-Four cut at many sizes): at every ply the nodes are at
/// least one slot apart, in the order met, so no two subtrees overlap; a parent sits midway
/// between its first and last child; and the tree is never wider than one slot a leaf (the
/// layout it replaced).
#[test]
fn the_layout_is_tidy_on_irregular_trees() {
    use gamesearch_cli::view::layout;
    use gamesearch_games::GameSpec;
    let mut traces = Vec::new();
    for seed in 0..300u64 {
        let spec = RandomTreeSpec::new(2 + (seed % 5) as u32, 2 + (seed % 4) as u32, seed);
        let root = spec.root().unwrap();
        let algo =
            [Algorithm::AlphaBeta, Algorithm::Scout, Algorithm::NegaScout][seed as usize % 3];
        let mut rec = Recorder::new(&root, 1 << 16);
        let out = search_observed(&root, algo, &SearchConfig::new(spec.h), &mut rec);
        traces.push(rec.finish(algo.name(), &out));
    }
    let GameSpec::Connect4(c4) = "connect4:4x4".parse().unwrap() else {
        unreachable!()
    };
    for cap in [10, 37, 100, 333, 1000, 3000] {
        let mut rec = Recorder::new(&c4, cap);
        let cfg =
            SearchConfig::new(16).with_limits(gamesearch::Limits::none().with_max_nodes(200_000));
        let out = search_observed(&c4, Algorithm::PnMulti, &cfg, &mut rec);
        traces.push(rec.finish("pn-multi", &out));
    }
    for t in &traces {
        let pos = layout(t);
        let n = t.nodes.len();
        let mut children = vec![Vec::new(); n];
        for node in &t.nodes {
            if let Some(p) = node.parent {
                children[p as usize].push(node.id as usize);
            }
        }
        // Pre-order: each ply's nodes left to right.
        let mut order = Vec::new();
        let mut todo = vec![0usize];
        while let Some(v) = todo.pop() {
            order.push(v);
            todo.extend(children[v].iter().rev());
        }
        let mut last_at_ply: std::collections::HashMap<u64, f64> = Default::default();
        for &v in &order {
            let (x, y) = pos[v];
            assert_eq!(y, f64::from(t.nodes[v].ply), "{}", t.algorithm);
            if let Some(&prev) = last_at_ply.get(&(y as u64)) {
                assert!(
                    x >= prev + 1.0 - 1e-9,
                    "{}: node {v} overlaps at ply {y}",
                    t.algorithm
                );
            }
            last_at_ply.insert(y as u64, x);
            let kids = &children[v];
            if let (Some(&a), Some(&b)) = (kids.first(), kids.last()) {
                assert!(
                    (x - (pos[a].0 + pos[b].0) / 2.0).abs() < 1e-9,
                    "parent centred"
                );
            }
        }
        let leaves = children.iter().filter(|k| k.is_empty()).count();
        let width = pos.iter().map(|p| p.0).fold(0.0, f64::max) + 1.0;
        assert!(
            width <= leaves as f64 + 1e-9,
            "{width} slots for {leaves} leaves"
        );
        assert!(pos.iter().map(|p| p.0).fold(f64::INFINITY, f64::min).abs() < 1e-9);
    }
}
