use gamesearch::depth_first::solve::{solve, SolveConfig};
use gamesearch::games::Kalah;
fn main() {
    let args: Vec<String> = std::env::args().collect();
    let m: usize = args[1].parse().unwrap();
    let n: u32 = args[2].parse().unwrap();
    let id: u32 = args.get(3).map(|s| s.parse().unwrap()).unwrap_or(8);
    let t = std::time::Instant::now();
    let cfg = SolveConfig {
        id_depth: id,
        ..SolveConfig::default()
    };
    let s = solve(&Kalah::new(m, n).unwrap(), &cfg, |_| {}).unwrap();
    println!(
        "Kalah({m},{n}) id={id}: {:?} best {:?} nodes {} tt_hits {} {:.2?}",
        s.value,
        s.best_move,
        s.stats.nodes(),
        s.stats.tt_hits,
        t.elapsed()
    );
}
