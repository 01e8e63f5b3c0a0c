//! Job-level solving and books: a Domineering position's rules and text.

use gamesearch::split::Splittable;

use super::Domineering;

impl Splittable for Domineering {
    fn rules(&self) -> String {
        let first = if self.first_vertical { 'v' } else { 'h' };
        format!("domineering:{}x{}:{first}", self.rows, self.cols)
    }
    fn game_text(&self, _: &str, _: &[u8]) -> String {
        format!("domineering:{}", self.notation())
    }
}
