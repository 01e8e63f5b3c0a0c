//! Leaves per second on random trees: the raw speed of each algorithm's hot path (copy-make,
//! hashing the path, counting). Criterion reports throughput in leaves/s; seeds are fixed and
//! printed so every run measures the same trees.
//!
//! Run: `cargo bench --bench leaves`

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use gamesearch::depth_first::{search, DepthFirst};
use gamesearch::games::RandomTreeSpec;
use gamesearch::Limits;

fn leaves_per_second(c: &mut Criterion) {
    let mut group = c.benchmark_group("leaves_per_second");
    group.sample_size(20);
    for (b, h, seed) in [(8u32, 7u32, 1u64), (20, 5, 1)] {
        let root = RandomTreeSpec::new(b, h, seed).root().unwrap();
        println!("tree: random:b={b},h={h},seed={seed}");
        for algo in [
            DepthFirst::Minimax,
            DepthFirst::AlphaBeta,
            DepthFirst::Scout,
            DepthFirst::NegaScout,
            DepthFirst::Pvs,
        ] {
            let leaves = search(&root, algo, h, &Limits::none()).stats.leaves;
            group.throughput(Throughput::Elements(leaves));
            group.bench_with_input(
                BenchmarkId::new(algo.name(), format!("b{b}h{h}s{seed}")),
                &root,
                |bench, root| bench.iter(|| search(root, algo, h, &Limits::none()).value),
            );
        }
    }
    group.finish();
}

criterion_group!(benches, leaves_per_second);
criterion_main!(benches);
