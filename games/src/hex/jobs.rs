//! Job-level solving and books: a Hex position's rules and text.

use gamesearch::split::Splittable;

use super::Hex;

impl Splittable for Hex {
    fn rules(&self) -> String {
        let n = self.size;
        format!("hex:{n}x{n}{}", if self.swap_rule { ":swap" } else { "" })
    }
    fn game_text(&self, _: &str, _: &[u8]) -> String {
        format!("hex:{}", self.notation())
    }
}
