//! Prints the conspiracy-number tree growth on a tree given as text (Cater, *CN and PN search*, "Tree Growth
//! example"): each expansion, the root's value and its likely range.
//! Run: cargo run --release --example cns_trace -- "TREE" [NT] [EPS]; without a tree, a
//! small tree of its own.
use gamesearch::conspiracy::{CnConfig, CnTree};
use gamesearch::trees::ExplicitTree;
use gamesearch::Game;

/// A tree small enough to follow by hand when none is given.
const DEFAULT_TREE: &str = "(A max (B min D=4 E=6) (C min F=3 G=8))";

/// Bad arguments: one line and exit status 2, as the command line does.
fn fail(message: String) -> ! {
    eprintln!("cns_trace: {message}");
    eprintln!("usage: cargo run --release --example cns_trace -- \"TREE\" [NT] [EPS]");
    std::process::exit(2)
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let text = args.get(1).map_or(DEFAULT_TREE, String::as_str);
    let nt: usize = match args.get(2) {
        None => 2,
        Some(s) => s
            .parse()
            .unwrap_or_else(|_| fail(format!("NT must be a count, not `{s}`"))),
    };
    let eps: i32 = match args.get(3) {
        None => 0,
        Some(s) => s
            .parse()
            .unwrap_or_else(|_| fail(format!("EPS must be an integer, not `{s}`"))),
    };
    let t = ExplicitTree::parse(text).unwrap_or_else(|e| fail(e.to_string()));
    let root = t.root();
    let mut cn = CnTree::new(&root, &CnConfig::new(100));
    for step in 1..=50 {
        let (lo, hi) = cn.range(Some(nt));
        println!(
            "step {step}: A = {}, range [{lo}, {hi}], asc {:?} desc {:?}",
            cn.value(),
            cn.asc(),
            cn.desc()
        );
        let Some(leaf) = cn.next_leaf(eps, Some(nt)) else {
            break;
        };
        t.clear_log();
        cn.expand(leaf);
        let log = t.evaluated();
        println!("  expanded the node whose children are {:?}", log);
    }
    let _ = root.to_move();
}
