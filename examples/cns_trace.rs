//! Prints the conspiracy-number tree growth on a tree given as text (Cater, *CN and PN search*, "Tree Growth
//! example"): each expansion, the root's value and its likely range.
//! Run: cargo run --release --example cns_trace -- "TREE" NT EPS
use gamesearch::conspiracy::{CnConfig, CnTree};
use gamesearch::trees::ExplicitTree;
use gamesearch::Game;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let text = args.get(1).expect("tree text");
    let nt: usize = args.get(2).map_or(2, |s| s.parse().unwrap());
    let eps: i32 = args.get(3).map_or(0, |s| s.parse().unwrap());
    let t = ExplicitTree::parse(text).unwrap();
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
