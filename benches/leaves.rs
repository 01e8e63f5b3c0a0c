//! Leaves per second on random trees: the raw speed of each algorithm's hot path (copy-make,
//! hashing the path, counting). Criterion reports throughput in leaves/s; seeds are fixed and
//! printed so every run measures the same trees.
//!
//! The `observer` group measures tracing's cost in the same run: each algorithm with no
//! observer (the default: `NoObserver`, whose calls compile to nothing) against the same search
//! with an observer attached that counts the events.
//!
//! Run: `cargo bench --bench leaves`

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use gamesearch::depth_first::{search, DepthFirst};
use gamesearch::trace::{search_observed, Event, Observer};
use gamesearch::trees::RandomTreeSpec;
use gamesearch::{Algorithm, Limits, SearchConfig};

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

/// An observer that only counts what it is told.
struct Counting(u64);

impl<M> Observer<M> for Counting {
    fn event(&mut self, e: Event<M>) {
        self.0 += 1 + matches!(e, Event::Leaf { .. }) as u64;
    }
}

fn observer(c: &mut Criterion) {
    let mut group = c.benchmark_group("observer");
    group.sample_size(20);
    let (b, h, seed) = (8u32, 7u32, 1u64);
    let root = RandomTreeSpec::new(b, h, seed).root().unwrap();
    println!("tree: random:b={b},h={h},seed={seed}");
    let cfg = SearchConfig::new(h);
    for algo in [
        Algorithm::AlphaBeta,
        Algorithm::Scout,
        Algorithm::NegaScout,
        Algorithm::Pvs,
    ] {
        let leaves = gamesearch::search(&root, algo, &cfg).stats.leaves;
        group.throughput(Throughput::Elements(leaves));
        group.bench_with_input(
            BenchmarkId::new(algo.name(), "none"),
            &root,
            |bench, root| bench.iter(|| gamesearch::search(root, algo, &cfg).value),
        );
        group.bench_with_input(
            BenchmarkId::new(algo.name(), "counting"),
            &root,
            |bench, root| {
                bench.iter(|| {
                    let mut obs = Counting(0);
                    search_observed(root, algo, &cfg, &mut obs).value
                })
            },
        );
    }
    group.finish();
}

criterion_group!(benches, leaves_per_second, observer);
criterion_main!(benches);
