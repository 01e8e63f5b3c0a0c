//! Job-level solving and books: a tic-tac-toe position's rules and text.

use gamesearch::split::Splittable;

use super::TicTacToe;

impl Splittable for TicTacToe {
    fn rules(&self) -> String {
        "tictactoe".into()
    }
    fn game_text(&self, _: &str, _: &[u8]) -> String {
        format!("tictactoe:{self}")
    }
}
