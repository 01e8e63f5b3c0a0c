//! The learned evaluation ([`gamesearch::learn`]) against oracles written apart: on Nim, whose
//! values a brute force below gives, features that can hold every value exactly learn exactly
//! those values; the configuration's errors, the stop flag and the exclusion set.

use std::collections::HashSet;
use std::sync::atomic::AtomicBool;
use std::sync::Arc;

use gamesearch::learn::{learn, Features, LearnConfig, Weights};
use gamesearch::{Error, Limits, Player, PositionKey};

mod nim {
    include!("../docs/nim.rs");
}
use nim::Nim;

/// One feature a position: its pile and side to move (one-hot), one stage.
impl Features for Nim {
    fn feature_set(&self) -> String {
        "nim-one-hot".into()
    }
    fn stages(&self) -> usize {
        1
    }
    fn weights_per_stage(&self) -> usize {
        512
    }
    fn stage(&self) -> usize {
        0
    }
    fn features(&self, out: &mut impl FnMut(u32)) {
        out(u32::from(self.pile) * 2 + u32::from(self.to_move == Player::Max))
    }
}

/// Whether the side to move wins a pile of `pile` (take 1-3, the last stone wins), by brute force.
fn wins(pile: u8) -> bool {
    (1..=pile.min(3)).any(|m| !wins(pile - m))
}

fn small() -> LearnConfig {
    LearnConfig {
        games: 300,
        rounds: 1,
        exact_stages: 1,
        held_out: 0.0,
        ridge: 0.0,
        tt_bytes: 1 << 16,
        ..LearnConfig::default()
    }
}

#[test]
fn exact_labels_and_one_hot_features_learn_every_value_the_brute_force_gives() {
    let learned = learn(&Nim::new(40), &small(), &HashSet::new(), |_| {}).unwrap();
    assert!(learned.complete);
    let w = &learned.weights;
    let mut checked = 0;
    for pile in 1..=40u8 {
        for to_move in [Player::Max, Player::Min] {
            let p = Nim { pile, to_move };
            if learned.keys.binary_search(&p.key()).is_err() {
                continue; // never played
            }
            let v = f64::from(w.value(&p)) / f64::from(w.scale());
            let want = if wins(pile) { 1.0 } else { -1.0 };
            assert!(
                (v - want).abs() < 0.05,
                "pile {pile}: learned {v}, brute force {want}"
            );
            checked += 1;
        }
    }
    assert!(checked > 60, "only {checked} positions were played");
}

#[test]
fn the_same_seed_learns_the_same_weights_on_one_thread_or_two_and_another_seed_plays_otherwise() {
    let cfg = LearnConfig {
        held_out: 0.2,
        ridge: 1.0,
        rounds: 2,
        ..small()
    };
    let one = learn(&Nim::new(60), &cfg, &HashSet::new(), |_| {}).unwrap();
    let two = learn(
        &Nim::new(60),
        &LearnConfig {
            threads: 2,
            ..cfg.clone()
        },
        &HashSet::new(),
        |_| {},
    )
    .unwrap();
    assert_eq!(one.weights.to_bytes(), two.weights.to_bytes());
    assert_eq!(one.keys, two.keys);
    let other = learn(
        &Nim::new(60),
        &LearnConfig {
            seed: 2,
            games: 3,
            ..cfg
        },
        &HashSet::new(),
        |_| {},
    )
    .unwrap();
    assert_ne!(one.keys, other.keys);
}

#[test]
fn excluded_positions_are_never_kept() {
    // Every pile of 30 to 35 with MIN to move is reached by some game from 40.
    let exclude: HashSet<u64> = (30..=35u8)
        .map(|pile| {
            Nim {
                pile,
                to_move: Player::Min,
            }
            .key()
        })
        .collect();
    let learned = learn(&Nim::new(40), &small(), &exclude, |_| {}).unwrap();
    assert!(
        learned.excluded > 0,
        "the test must reach an excluded position"
    );
    for k in &exclude {
        assert!(learned.keys.binary_search(k).is_err());
    }
}

#[test]
fn a_raised_stop_flag_ends_the_learning_with_what_is_done() {
    let stop = Arc::new(AtomicBool::new(true));
    let cfg = LearnConfig {
        limits: Limits::none().with_stop_flag(stop),
        ..small()
    };
    let learned = learn(&Nim::new(40), &cfg, &HashSet::new(), |_| {}).unwrap();
    assert!(!learned.complete);
    assert_eq!(learned.weights.shape(), (1, 512));
}

#[test]
fn a_configuration_that_cannot_learn_is_an_error() {
    for cfg in [
        LearnConfig {
            games: 0,
            ..small()
        },
        LearnConfig {
            held_out: 1.0,
            ..small()
        },
        LearnConfig {
            threads: 0,
            ..small()
        },
        LearnConfig {
            ridge: f64::NAN,
            ..small()
        },
    ] {
        let e = learn(&Nim::new(10), &cfg, &HashSet::new(), |_| {}).unwrap_err();
        assert!(matches!(e, Error::BadParameter(_)), "{e}");
    }
}

#[test]
fn a_weights_file_is_refused_with_one_line_when_missing_or_of_another_shape() {
    let dir = std::env::temp_dir().join(format!("gs-learn-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let missing = dir.join("none.gsw");
    let e = Weights::load(&missing, &Nim::new(3)).unwrap_err();
    assert!(
        matches!(e, Error::WeightsFile { .. }) && !e.to_string().contains('\n'),
        "{e}"
    );
    // Same name, other shape.
    let other = Weights::from_f32("nim-one-hot", 2, 4, &[0.0; 8], 1);
    let path = dir.join("other.gsw");
    other.save(&path).unwrap();
    let e = Weights::load(&path, &Nim::new(3)).unwrap_err();
    assert!(e.to_string().contains("2 stages of 4 weights"), "{e}");
    // And a good one round-trips.
    let good = Weights::zero(&Nim::new(3));
    good.save(&path).unwrap();
    assert_eq!(Weights::load(&path, &Nim::new(3)).unwrap(), good);
    let _ = std::fs::remove_dir_all(&dir);
}
