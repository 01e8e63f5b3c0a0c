//! Dōbutsu shōgi solved strongly over its dense index, with a line of progress every 10 s:
//! `cargo run --release -p gamesearch-games --example dobutsu_dense -- [THREADS] [POSITION]`
//! (a position solves the table of its pieces: `dobutsu:board=gle/.../.C./ELG/s`, 19 MB, for a
//! quick measure).

use std::sync::atomic::Ordering;
use std::sync::Arc;
use std::time::Instant;

use gamesearch::retrograde::{solve_by_index, RetrogradeConfig, RetrogradeProgress};
use gamesearch_games::Dobutsu;

fn main() {
    let threads = std::env::args()
        .nth(1)
        .map_or(2, |t| t.parse().expect("threads"));
    let root: Dobutsu = std::env::args()
        .nth(2)
        .map_or_else(Dobutsu::start, |p| p.parse().expect("a Dōbutsu position"));
    let progress = Arc::new(RetrogradeProgress::default());
    let cfg = RetrogradeConfig {
        threads,
        progress: Some(progress.clone()),
        ..RetrogradeConfig::default()
    };
    let start = Instant::now();
    let watch = progress.clone();
    std::thread::spawn(move || loop {
        std::thread::sleep(std::time::Duration::from_secs(10));
        eprintln!(
            "{:>5.0} s {}: {} positions, {} settled, ply {}",
            start.elapsed().as_secs_f64(),
            watch.phase(),
            watch.positions.load(Ordering::Relaxed),
            watch.settled.load(Ordering::Relaxed),
            watch.ply.load(Ordering::Relaxed)
        );
    });
    let s = solve_by_index(&root, &cfg).expect("solved");
    println!("{:?}", s.stats());
    println!("{root}: {:?}", s.probe(&root));
    println!("{:.1} s", start.elapsed().as_secs_f64());
}
