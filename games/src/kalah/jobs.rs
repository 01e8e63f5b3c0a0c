//! Job-level solving and books: a Kalah position's rules and text.

use gamesearch::split::Splittable;

use super::{Kalah, Rule};

/// The rules a position is played under: `kalah:M`, with `:standard` for the standard capture
/// rule — what books, jobs and databases are keyed by.
pub(super) fn rules_of(k: &Kalah) -> String {
    match k.rule() {
        Rule::EmptyCapture => format!("kalah:{}", k.pits()),
        Rule::Standard => format!("kalah:{}:{}", k.pits(), Rule::Standard.name()),
    }
}

impl Splittable for Kalah {
    fn rules(&self) -> String {
        rules_of(self)
    }
    fn game_text(&self, _: &str, _: &[u8]) -> String {
        format!("kalah:{self}")
    }
}
