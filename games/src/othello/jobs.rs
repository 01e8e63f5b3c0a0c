//! Job-level solving and books: an Othello position's rules and text.

use gamesearch::split::Splittable;

use super::Othello;

impl Splittable for Othello {
    fn rules(&self) -> String {
        format!("othello:{0}x{0}", self.n)
    }
    fn game_text(&self, _: &str, _: &[u8]) -> String {
        format!("othello:{}", self.notation())
    }
}
