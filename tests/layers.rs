//! The library's modules in layers, arrows one way (ARCHITECTURE.md draws the same picture):
//! read from the code's own `crate::…` paths (comments aside, names taken through the crate
//! root's re-exports counted as their module's), no top-level module reaches a module of a
//! higher layer, and there is no circle. And the library knows no game: it depends on no games
//! crate, and its code (comments aside) names none of the shipped games.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

/// Each top-level module's layer: 1 vocabulary, 2 the families, 3 the front doors, 4 the
/// literature's abstract trees and the adapters over any game, 5 a solve split into jobs (the
/// games, the CLI and the Python package are crates of their own above them all).
const LAYERS: &[(&str, u32)] = &[
    ("game", 1),
    ("limits", 1),
    ("stats", 1),
    ("error", 1),
    ("memory", 1),
    ("stack", 1),
    ("sort", 1),
    ("arena", 1),
    ("observe", 1),
    ("outcome", 1),
    ("report", 1),
    ("random", 1),
    ("depth_first", 2),
    ("proof_number", 2),
    ("conspiracy", 2),
    ("solver", 2),
    ("engine", 2),
    ("tablebase", 2),
    ("retrograde", 2),
    ("mcts", 2),
    ("bstar", 2),
    ("learn", 2),
    ("search", 3),
    ("trace", 3),
    ("exact", 3),
    ("trees", 4),
    ("adapters", 4),
    ("split", 5),
];

/// Arrows within a layer, where one module builds on another's public API (ARCHITECTURE.md
/// names each; none points back): the engine keeps the solver's table, df-pn reads the solver's
/// knowledge hooks, and `trace::search_observed` is the search front door with an observer.
const SIDEWAYS: &[(&str, &str)] = &[
    ("engine", "solver"),
    ("proof_number", "solver"),
    ("learn", "solver"),
    ("trace", "search"),
];

fn layer(m: &str) -> u32 {
    LAYERS
        .iter()
        .find(|(n, _)| *n == m)
        .unwrap_or_else(|| {
            panic!("module `{m}` has no layer: add it to LAYERS and ARCHITECTURE.md")
        })
        .1
}

/// `crate::x`, `crate::{x, y::z}` in `text` (comments removed): the first segment of each path.
fn crate_paths(text: &str) -> Vec<String> {
    let code = code_of(text);
    let ident = |s: &str| -> String {
        s.trim_start()
            .chars()
            .take_while(|c| c.is_alphanumeric() || *c == '_')
            .collect()
    };
    let mut out = Vec::new();
    let mut rest = code.as_str();
    while let Some(i) = rest.find("crate::") {
        rest = &rest[i + "crate::".len()..];
        if let Some(group) = rest.strip_prefix('{') {
            // Top-level names of the group, up to its matching brace.
            let (mut depth, mut start) = (0, 0);
            for (k, c) in group.char_indices() {
                match c {
                    '{' => depth += 1,
                    '}' if depth == 0 => {
                        out.push(ident(&group[start..k]));
                        break;
                    }
                    '}' => depth -= 1,
                    ',' if depth == 0 => {
                        out.push(ident(&group[start..k]));
                        start = k + 1;
                    }
                    _ => {}
                }
            }
        } else {
            out.push(ident(rest));
        }
    }
    out.retain(|s| !s.is_empty());
    out
}

/// The crate root's `pub use module::{names}`: name → module.
fn reexports(lib: &str) -> BTreeMap<String, String> {
    let mut map = BTreeMap::new();
    for line in lib.lines() {
        let Some(rest) = line.trim().strip_prefix("pub use ") else {
            continue;
        };
        let Some((module, names)) = rest.trim_end_matches(';').split_once("::") else {
            continue;
        };
        for n in names.trim_matches(|c| c == '{' || c == '}').split(',') {
            map.insert(n.trim().to_string(), module.to_string());
        }
    }
    map
}

fn rust_files(dir: &Path, out: &mut Vec<std::path::PathBuf>) {
    for e in std::fs::read_dir(dir).unwrap() {
        let p = e.unwrap().path();
        if p.is_dir() {
            rust_files(&p, out);
        } else if p.extension().and_then(|e| e.to_str()) == Some("rs") {
            out.push(p);
        }
    }
}

/// module → the modules it names.
fn graph() -> BTreeMap<String, BTreeSet<String>> {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let names = reexports(&std::fs::read_to_string(src.join("lib.rs")).unwrap());
    let mut files = Vec::new();
    rust_files(&src, &mut files);
    let mut edges: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for f in files {
        let rel = f.strip_prefix(&src).unwrap();
        let first = rel
            .components()
            .next()
            .unwrap()
            .as_os_str()
            .to_string_lossy();
        let module = first.trim_end_matches(".rs").to_string();
        if module == "lib" {
            continue;
        }
        for p in crate_paths(&std::fs::read_to_string(&f).unwrap()) {
            let target = names.get(&p).cloned().unwrap_or(p);
            if target != module {
                edges.entry(module.clone()).or_default().insert(target);
            }
        }
    }
    edges
}

#[test]
fn the_reader_sees_groups_and_comments() {
    let text = "use crate::{game::{Game, Score}, limits::Limits};\n// crate::search\nlet x = crate::stats::Stats::default();";
    assert_eq!(crate_paths(text), ["game", "limits", "stats"]);
}

#[test]
fn arrows_point_down_only() {
    let g = graph();
    assert!(g.len() >= 10, "{g:?}");
    let mut wrong = Vec::new();
    for (from, tos) in &g {
        for to in tos {
            let (lf, lt) = (layer(from), layer(to));
            // Down a layer; sideways where named; vocabulary among itself (no circle: below).
            let allowed =
                lt < lf || (lf == lt && SIDEWAYS.contains(&(from, to))) || (lf == 1 && lt == 1);
            if !allowed {
                wrong.push(format!("{from} (layer {lf}) -> {to} (layer {lt})"));
            }
        }
    }
    assert!(wrong.is_empty(), "arrows against the layers: {wrong:#?}");
}

#[test]
fn no_circle_among_the_modules() {
    let g = graph();
    // Depth-first search for a back edge.
    fn visit(
        u: &str,
        g: &BTreeMap<String, BTreeSet<String>>,
        state: &mut BTreeMap<String, u8>,
        path: &mut Vec<String>,
    ) -> Option<Vec<String>> {
        state.insert(u.to_string(), 1);
        path.push(u.to_string());
        for v in g.get(u).into_iter().flatten() {
            match state.get(v.as_str()) {
                Some(1) => {
                    let i = path.iter().position(|p| p == v).unwrap();
                    let mut c = path[i..].to_vec();
                    c.push(v.clone());
                    return Some(c);
                }
                Some(_) => {}
                None => {
                    if let Some(c) = visit(v, g, state, path) {
                        return Some(c);
                    }
                }
            }
        }
        path.pop();
        state.insert(u.to_string(), 2);
        None
    }
    let mut state = BTreeMap::new();
    for u in g.keys() {
        if !state.contains_key(u.as_str()) {
            let circle = visit(u, &g, &mut state, &mut Vec::new());
            assert!(
                circle.is_none(),
                "a circle: {}",
                circle.unwrap().join(" -> ")
            );
        }
    }
}

/// The code of `text` without its comments (a `//` to the end of its line).
fn code_of(text: &str) -> String {
    text.lines()
        .map(|l| match l.find("//") {
            Some(i) => &l[..i],
            None => l,
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// The library depends on no games crate (dependencies, dev-dependencies or otherwise), and no
/// line of its code or of its tests names a shipped game: the games are plug-ins written
/// against its public API (the crate `gamesearch-games`), never something an algorithm knows.
#[test]
fn the_library_names_no_game() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let manifest = std::fs::read_to_string(root.join("Cargo.toml")).unwrap();
    let package = manifest.split("[workspace]").next().unwrap_or("");
    let ours = manifest
        .split("\n[")
        .filter(|section| !section.starts_with("workspace"))
        .collect::<Vec<_>>()
        .join("\n[");
    assert!(package.is_empty() || !package.contains("gamesearch-games"));
    assert!(
        !ours
            .lines()
            .any(|l| l.trim_start().starts_with("gamesearch-games")),
        "the library's Cargo.toml depends on the games crate"
    );
    let games = ["connect4", "kalah", "tictactoe", "gamesearch_games"];
    let mut files = Vec::new();
    rust_files(&root.join("src"), &mut files);
    rust_files(&root.join("tests"), &mut files);
    files.push(root.join("docs/nim.rs"));
    let mut named = Vec::new();
    for f in &files {
        let code = code_of(&std::fs::read_to_string(f).unwrap()).to_lowercase();
        for g in games {
            if code.contains(g) && !f.ends_with("layers.rs") {
                named.push(format!("{} names {g}", f.display()));
            }
        }
    }
    assert!(named.is_empty(), "the library names a game: {named:#?}");
}

/// `super::x` in `text` (comments removed): the sibling modules a submodule names.
fn super_paths(text: &str) -> Vec<String> {
    let code = code_of(text);
    let mut out = Vec::new();
    let mut rest = code.as_str();
    while let Some(i) = rest.find("super::") {
        rest = &rest[i + "super::".len()..];
        let name: String = rest
            .chars()
            .take_while(|c| c.is_alphanumeric() || *c == '_')
            .collect();
        if !name.is_empty() {
            out.push(name);
        }
    }
    out
}

/// Inside each module of files (`solver/`, `engine/`, …), the submodules name each other
/// without a circle (`super::x` counted; the module's own `mod.rs` items are not a submodule).
#[test]
fn no_circle_among_submodules() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    for dir in std::fs::read_dir(&src).unwrap() {
        let dir = dir.unwrap().path();
        if !dir.is_dir() {
            continue;
        }
        let subs: BTreeSet<String> = std::fs::read_dir(&dir)
            .unwrap()
            .filter_map(|e| {
                let p = e.unwrap().path();
                let stem = p.file_stem()?.to_string_lossy().into_owned();
                (stem != "mod").then_some(stem)
            })
            .collect();
        let mut edges: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
        for s in &subs {
            let file = dir.join(format!("{s}.rs"));
            let Ok(text) = std::fs::read_to_string(&file) else {
                continue;
            };
            for t in super_paths(&text) {
                if subs.contains(&t) && &t != s {
                    edges.entry(s.clone()).or_default().insert(t);
                }
            }
        }
        for (a, tos) in &edges {
            for b in tos {
                let back = edges.get(b).is_some_and(|t| t.contains(a));
                assert!(!back, "{}: {a} and {b} name each other", dir.display());
            }
        }
        // Longer circles: repeat the closure until it settles.
        let mut reach = edges.clone();
        loop {
            let mut grew = false;
            let snapshot = reach.clone();
            for (_, tos) in reach.iter_mut() {
                for t in tos.clone() {
                    for u in snapshot.get(&t).into_iter().flatten() {
                        grew |= tos.insert(u.clone());
                    }
                }
            }
            if !grew {
                break;
            }
        }
        for (a, tos) in &reach {
            assert!(!tos.contains(a), "{}: a circle through {a}", dir.display());
        }
    }
}
