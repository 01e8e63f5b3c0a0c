#![allow(dead_code)] // each test binary uses some of these
//! Generators shared by the property tests.

use gamesearch::trees::{RandomTreeSpec, TreeOrder, Turns, Values};
use gamesearch::Game;
use proptest::prelude::*;

/// Random explicit trees in the text form: irregular branching (1-4), leaves at any depth, `max`
/// and `min` chosen freely (so turns do not alternate), small values (many ties) and interior
/// static values.
pub fn explicit_tree(depth: u32) -> impl Strategy<Value = String> {
    let leaf = (-5i32..=5).prop_map(|v| v.to_string());
    leaf.prop_recursive(depth, 256, 4, |inner| {
        (
            any::<bool>(),
            -5i32..=5,
            prop::collection::vec(inner, 1..=4),
        )
            .prop_map(|(max, f, kids)| {
                format!(
                    "({}={} {})",
                    if max { "max" } else { "min" },
                    f,
                    kids.join(" ")
                )
            })
    })
}

/// Random (h, d, F) trees of every kind (continuous and discrete values; random, perfect and
/// first-best order; alternating and random turns) with a horizon anywhere up to one past the
/// tree's height.
pub fn spec_strategy() -> impl Strategy<Value = (RandomTreeSpec, u32)> {
    (
        1u32..=5,
        0u32..=6,
        any::<u64>(),
        prop_oneof![
            Just(Values::Continuous),
            (2u32..=6).prop_map(Values::Discrete)
        ],
        prop_oneof![
            Just(TreeOrder::Random),
            Just(TreeOrder::Perfect),
            (0.0f64..=1.0).prop_map(TreeOrder::First)
        ],
        prop_oneof![Just(Turns::Alternate), Just(Turns::Random)],
        0u32..=7,
    )
        .prop_map(|(b, h, seed, values, order, turns, depth)| {
            let spec = RandomTreeSpec {
                b,
                h,
                seed,
                values,
                order,
                turns,
            };
            (spec, depth.min(h + 1))
        })
}

/// The position `choices` reaches from `start`: each choice picks a move among those there
/// (modulo their number), until the game ends.
pub fn reached<G: Game>(start: &G, choices: &[u8]) -> G {
    let mut p = start.clone();
    for &c in choices {
        let moves: Vec<G::Move> = p.moves().collect();
        if moves.is_empty() {
            break;
        }
        p = p.play(moves[c as usize % moves.len()]);
    }
    p
}
