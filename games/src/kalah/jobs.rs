//! Job-level solving and books: a Kalah position's rules and text.

use gamesearch::split::Splittable;

use super::Kalah;

impl Splittable for Kalah {
    fn rules(&self) -> String {
        format!("kalah:{}", self.pits())
    }
    fn game_text(&self, _: &str, _: &[u8]) -> String {
        format!("kalah:{self}")
    }
}
