//! Text for people and JSON for tools, in one place: the search report, the comparison table,
//! the solve report.

use gamesearch::{Report, SolveReport};
use gamesearch_games::GameSpec;

/// The game as the user wrote it, and the rule set where its name leaves that open (Kalah's
/// capture rule): the text of every `game` line.
pub fn game_title(text: &str, spec: &GameSpec) -> String {
    match spec.rules_note() {
        Some(rules) => format!("{text}  ({rules})"),
        None => text.to_string(),
    }
}

pub fn print_report(game: &str, r: &Report) {
    println!("game        {game}");
    if r.depth == u32::MAX {
        println!("algorithm   {}  (to the end of the game)", r.algo);
    } else {
        println!("algorithm   {}  (depth {})", r.algo, r.depth);
    }
    let status = match (r.complete, r.mcts_mean) {
        (true, _) => "",
        (false, Some(_)) => {
            "  (not proven: MCTS-Solver proves a result, plain MCTS estimates one, below)"
        }
        (false, None) => "  (INCOMPLETE: budget or Ctrl-C; best so far)",
    };
    match r.value {
        Some(v) => println!("value       {v}  (the first player's view){status}"),
        None => println!("value       unknown{status}"),
    }
    match (&r.best_move, r.complete) {
        (Some(m), _) => println!("best move   {m}"),
        (None, false) => println!(
            "best move   -  (no root move was searched to the end within the budget; the engine, --max-time without --algo, deepens and always has one)"
        ),
        (None, true) => println!("best move   -"),
    }
    println!("pv          {}", r.pv.join(" "));
    if let (Some((lo, hi)), Some(c)) = (r.range, &r.conspiracy) {
        println!("range       [{lo}, {hi}]");
        let list: Vec<String> = c
            .iter()
            .map(|(v, n)| {
                if *n == usize::MAX {
                    format!("{v}:inf")
                } else {
                    format!("{v}:{n}")
                }
            })
            .collect();
        println!("conspiracy  {}", list.join(" "));
    }
    let s = &r.stats;
    if let Some(mean) = r.mcts_mean {
        println!("mean        {mean:.3}  (the first player's reward: win 1, draw 0.5, loss 0)");
        println!(
            "stats       playouts {}  tree nodes {}  time {:.3} ms",
            s.leaves, s.interior, r.time_ms
        );
        return;
    }
    println!(
        "stats       leaves {}  interior {}  tests {}  re-searches {}  time {:.3} ms",
        s.leaves, s.interior, s.tests, s.re_searches, r.time_ms
    );
}

pub fn print_table(game: &str, reports: &[Report]) {
    println!(
        "game: {game}  depth: {}",
        reports.first().map_or(0, |r| r.depth)
    );
    let ab = reports
        .iter()
        .find(|r| r.algo == "alphabeta" && r.complete)
        .map(|r| r.stats.leaves as f64);
    println!(
        "{:<18} {:>12} {:>12} {:>12} {:>10} {:>11} {:>10} {:>8}",
        "algorithm", "value", "leaves", "interior", "tests", "re-searches", "time ms", "vs a-b"
    );
    for r in reports {
        let value = match (r.value, r.complete) {
            (Some(v), true) => v.to_string(),
            (Some(v), false) => format!("{v}?"),
            (None, _) => "?".to_string(),
        };
        let ratio = ab.map_or("-".to_string(), |a| {
            format!("{:.3}", r.stats.leaves as f64 / a)
        });
        let s = &r.stats;
        println!(
            "{:<18} {:>12} {:>12} {:>12} {:>10} {:>11} {:>10.3} {:>8}",
            r.algo, value, s.leaves, s.interior, s.tests, s.re_searches, r.time_ms, ratio
        );
    }
    // The legend says what the table shows: a bound found so far, or no value at all.
    if reports.iter().any(|r| !r.complete && r.value.is_some()) {
        println!("v? = incomplete (budget or Ctrl-C): the best value found so far");
    }
    if reports.iter().any(|r| !r.complete && r.value.is_none()) {
        println!("? = incomplete (budget or Ctrl-C) with no value yet: proof-number and conspiracy search give one only when they finish");
    }
}

pub fn print_solve(game: &str, r: &SolveReport) {
    println!("game        {game}");
    let status = if r.complete {
        ""
    } else {
        "  (INCOMPLETE: budget or Ctrl-C)"
    };
    match r.value {
        Some(v) => println!("value       {v:+}  (the first player's view){status}"),
        None => println!(
            "value       in [{}, {}]  (the first player's view){status}",
            r.bounds.0, r.bounds.1
        ),
    }
    println!(
        "outcome     {}  (for the first player)",
        r.outcome.unwrap_or("unknown")
    );
    println!("best move   {}", r.best_move.as_deref().unwrap_or("-"));
    if let Some(d) = r.remoteness {
        println!("remoteness  {d} plies to the end under perfect play");
    }
    let s = &r.stats;
    if let Some(n) = r.proof_nodes {
        println!("proof       {n} nodes, checked");
    }
    if let (Some((pn, dn)), false) = (r.root_numbers, r.complete) {
        let show = |n: u32| {
            if n == u32::MAX {
                "inf".to_string()
            } else {
                n.to_string()
            }
        };
        println!(
            "root        proof number {}  disproof number {}",
            show(pn),
            show(dn)
        );
    }
    if r.from_book {
        println!("book        answered from the book (no search)");
    }
    let memory = match r.peak_tree_bytes {
        Some(b) => format!("peak tree {}", gamesearch::error::human_bytes(b)),
        None => format!("tt {}", gamesearch::error::human_bytes(r.tt_bytes)),
    };
    println!(
        "stats       {}  nodes {}  leaves {}  interior {}  tests {}  tt hits {}  {memory}  time {:.3} s",
        r.algo,
        s.nodes(),
        s.leaves,
        s.interior,
        s.tests,
        s.tt_hits,
        r.time_ms / 1e3
    );
}
