//! Endgame databases: Kalah's ranking is a bijection onto each class; every position of the
//! small classes has the value the exact solver finds without databases (exhaustively), random
//! positions solved with the databases have the value solved without them, and a damaged,
//! truncated or mislabelled file is refused, never read as values. The engine reading them
//! plays the solver's result.

use gamesearch::engine::{Driver, Engine, EngineConfig};
use gamesearch::tablebase::{class_file, Probed, Tablebase, Tables};
use gamesearch::{solver::solve_alphabeta, Error, Game, Limits, SolveConfig};
use gamesearch_games::Kalah;
use proptest::prelude::*;

#[path = "../../tests/common/mod.rs"]
mod common;
use common::reached;

fn cfg() -> SolveConfig {
    SolveConfig {
        tt_bytes: 1 << 20,
        threads: 1,
        ..SolveConfig::default()
    }
}

fn built(m: usize, up_to: u32) -> Tables<Kalah> {
    let mut t = Tables::new(&Kalah::new(m, 1).unwrap());
    for c in 0..=up_to {
        t.build_class(c).unwrap();
    }
    t
}

#[test]
fn ranks_are_a_bijection_onto_each_class() {
    for m in 1..=4 {
        let proto = Kalah::new(m, 1).unwrap();
        for class in 0..=6 {
            let size = proto.class_size(class).unwrap();
            for r in 0..size {
                let p = proto.unrank(class, r);
                assert_eq!(p.class(), class, "kalah:{m} class {class} rank {r}: {p}");
                assert_eq!(p.rank(), r, "kalah:{m} class {class}: {p}");
            }
        }
    }
}

#[test]
fn every_position_of_the_small_classes_has_the_solvers_value() {
    // Kalah with 3 pits a side, every position of up to 7 seeds in the pits (792 in class 7):
    // each solved without databases, South and North to move.
    let tables = built(3, 7);
    let proto = Kalah::new(3, 1).unwrap();
    for class in 0..=7 {
        for r in 0..proto.class_size(class).unwrap() {
            let south = proto.unrank(class, r);
            // The same pits with North to move, the mover's side North's (a position with a
            // side empty is no Kalah position: the text form refuses it, play never makes it).
            let t = south.to_string();
            let parts: Vec<&str> = t.split('/').collect();
            let north: Result<Kalah, _> = format!("{}/{}/0,0/N", parts[1], parts[0]).parse();
            let Ok(north) = north else { continue };
            for p in [south, north] {
                let s = solve_alphabeta(&p, &cfg(), |_| {}).unwrap();
                let want = s.value.unwrap_or_else(|| panic!("{p}: {s:?}"));
                assert_eq!(tables.probe(&p), Some(want), "{p}");
            }
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 200, failure_persistence: None, .. ProptestConfig::default() })]

    #[test]
    fn solves_with_databases_match_solves_without(
        m in 2..5usize,
        n in 1..4u32,
        choices in proptest::collection::vec(any::<u8>(), 0..12),
        up_to in 0..9u32,
    ) {
        let start = Kalah::new(m, n).unwrap();
        let p = reached(&start, &choices);
        let tables = built(m, up_to);
        let without = solve_alphabeta(&p, &cfg(), |_| {}).unwrap();
        let with = solve_alphabeta(&Probed::new(p, &tables), &cfg(), |_| {}).unwrap();
        prop_assert_eq!(with.value, without.value, "{}", p);
        if let Some(mv) = with.best_move {
            let after = solve_alphabeta(&p.play(mv), &cfg(), |_| {}).unwrap().value;
            prop_assert_eq!(after, without.value, "the move keeps the value");
        }
        if tables.has(p.class()) {
            prop_assert_eq!(tables.probe(&p), without.value);
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 150, failure_persistence: None, .. ProptestConfig::default() })]

    /// The playing engine reads the databases too: searched to the end (no budget), it finds
    /// the win, draw or loss the solver finds without databases, and its move keeps it.
    #[test]
    fn the_engine_with_databases_plays_the_solvers_result(
        m in 2..4usize,
        n in 1..4u32,
        choices in proptest::collection::vec(any::<u8>(), 0..10),
        up_to in 0..9u32,
        mtdf in any::<bool>(),
    ) {
        let start = Kalah::new(m, n).unwrap();
        let p = reached(&start, &choices);
        prop_assume!(p.moves().next().is_some());
        let tables = built(m, up_to);
        let exact = solve_alphabeta(&p, &cfg(), |_| {}).unwrap().value.unwrap();
        let driver = if mtdf { Driver::Mtdf } else { Driver::Pvs { aspiration: 4 } };
        let mut engine: Engine<Probed<'_, Kalah>> =
            Engine::new(&EngineConfig { tt_bytes: 1 << 20, driver, max_depth: 128 }).unwrap();
        let t = engine.think(&Probed::new(p, &tables), &Limits::none(), |_| {});
        prop_assert!(t.complete, "{}", p);
        let value = t.value.unwrap();
        prop_assert_eq!(value.signum(), exact.signum(), "{}: engine {} solver {}", p, value, exact);
        prop_assert_eq!(t.mate.is_some(), exact != 0, "{}", p);
        let after = solve_alphabeta(&p.play(t.best_move.unwrap()), &cfg(), |_| {}).unwrap().value.unwrap();
        prop_assert_eq!(after.signum(), exact.signum(), "{}: the move keeps the result", p);
    }
}

#[test]
fn files_read_back_and_damaged_ones_are_refused() {
    let dir = std::env::temp_dir().join(format!("gamesearch-tb-test-{}", std::process::id()));
    let tables = built(3, 6);
    for c in 0..=6 {
        tables.write_class(&dir, c).unwrap();
    }
    let mut back = Tables::new(&Kalah::new(3, 4).unwrap());
    assert_eq!(back.load_dir(&dir).unwrap(), (0..=6).collect::<Vec<_>>());
    let proto = Kalah::new(3, 1).unwrap();
    for r in 0..proto.class_size(6).unwrap() {
        let p = proto.unrank(6, r);
        assert_eq!(back.probe(&p), tables.probe(&p));
    }
    let path = class_file(&dir, "kalah:3", 6);
    let good = std::fs::read(&path).unwrap();
    let refused = |bytes: &[u8], says: &str| {
        std::fs::write(&path, bytes).unwrap();
        let mut t = Tables::new(&proto);
        let e = t.load_class(&dir, 6).unwrap_err();
        assert!(matches!(e, Error::TablebaseFile { .. }), "{e}");
        assert!(e.to_string().contains(says), "{e}");
        assert!(!t.has(6));
    };
    for at in [0, 9, 20, good.len() / 2, good.len() - 1] {
        let mut bad = good.clone();
        bad[at] ^= 0x10;
        refused(
            &bad,
            if at == 0 {
                "not a gamesearch"
            } else {
                "checksum"
            },
        );
    }
    refused(&good[..good.len() - 7], "checksum");
    // A value byte that marks a position not built, under a checksum that matches.
    let mut unbuilt = good[..good.len() - 4].to_vec();
    let last = unbuilt.len() - 1;
    unbuilt[last] = 0x80;
    let crc = crc32fast::hash(&unbuilt);
    unbuilt.extend_from_slice(&crc.to_le_bytes());
    refused(&unbuilt, "has no value");
    // Another class's file under this name, and another game's.
    refused(
        &std::fs::read(class_file(&dir, "kalah:3", 5)).unwrap(),
        "class 5",
    );
    let four = built(4, 1);
    let other = four.write_class(&dir, 1).unwrap();
    std::fs::copy(&other, class_file(&dir, "kalah:3", 1)).unwrap();
    let mut t = Tables::new(&proto);
    let e = t.load_class(&dir, 1).unwrap_err().to_string();
    assert!(e.contains("a table of kalah:4"), "{e}");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_class_needs_the_classes_below_it() {
    let mut t = Tables::new(&Kalah::new(3, 1).unwrap());
    t.build_class(0).unwrap();
    let e = t.build_class(2).unwrap_err().to_string();
    assert!(e.contains("needs class 1 first"), "{e}");
}
