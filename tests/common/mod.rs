//! Generators shared by the property tests.

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
