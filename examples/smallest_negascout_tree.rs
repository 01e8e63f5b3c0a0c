//! Searches small uniform trees for the smallest on which NegaScout (F4) evaluates fewer leaves
//! than alpha-beta (F3): the question of Reinefeld's "smallest uniform tree" figure (Reinefeld 1983). Exhaustive over small value ranges; prints counts and the
//! first tree with distinct leaf values.
//! Run: cargo run --release --example smallest_negascout_tree
use gamesearch::trees::ExplicitTree;
use gamesearch::{search as search_with, Algorithm, SearchConfig};

fn build(b: usize, h: usize, leaves: &[i32], idx: &mut usize, max: bool) -> String {
    if h == 0 {
        let v = leaves[*idx];
        *idx += 1;
        return v.to_string();
    }
    let kids: Vec<String> = (0..b).map(|_| build(b, h - 1, leaves, idx, !max)).collect();
    format!("({} {})", if max { "max" } else { "min" }, kids.join(" "))
}

/// (alpha-beta leaves, NegaScout leaves) on the uniform tree with these leaves.
fn leaves(b: usize, h: usize, values: &[i32]) -> (u64, u64, String) {
    let text = build(b, h, values, &mut 0, true);
    let t = ExplicitTree::parse(&text).unwrap();
    let cfg = SearchConfig::new(h as u32);
    let ab = search_with(&t.root(), Algorithm::AlphaBeta, &cfg)
        .stats
        .leaves;
    let ns = search_with(&t.root(), Algorithm::NegaScout, &cfg)
        .stats
        .leaves;
    (ab, ns, text)
}

fn main() {
    for (b, h, levels) in [(2usize, 2usize, 4i32), (3, 2, 4), (2, 3, 4)] {
        let n = b.pow(h as u32);
        let total = (levels as u64).pow(n as u32);
        let wins = (0..total)
            .filter(|&code| {
                let mut c = code;
                let v: Vec<i32> = (0..n)
                    .map(|_| {
                        let x = (c % levels as u64) as i32;
                        c /= levels as u64;
                        x
                    })
                    .collect();
                let (ab, ns, _) = leaves(b, h, &v);
                ns < ab
            })
            .count();
        println!("b={b} h={h}, leaf values 0..{levels}: NegaScout < alpha-beta on {wins} of {total} trees");
    }
    // Distinct leaf values, b=2 h=3: every permutation of 1..=8.
    let mut v: Vec<i32> = (1..=8).collect();
    let mut count = 0;
    let mut first = None;
    permute(&mut v, 0, &mut |p| {
        let (ab, ns, text) = leaves(2, 3, p);
        if ns < ab {
            count += 1;
            first.get_or_insert((text, ab, ns));
        }
    });
    println!(
        "b=2 h=3, distinct values: NegaScout < alpha-beta on {count} of 40320; first: {first:?}"
    );
}

fn permute(v: &mut Vec<i32>, k: usize, f: &mut impl FnMut(&[i32])) {
    if k == v.len() {
        f(v);
        return;
    }
    for i in k..v.len() {
        v.swap(k, i);
        permute(v, k + 1, f);
        v.swap(k, i);
    }
}
