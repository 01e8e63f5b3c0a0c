//! Job-level solving and books: a Connect-Four position's rules and text.

use gamesearch::split::Splittable;

use super::{Bitboard, Connect4};

impl<B: Bitboard> Splittable for Connect4<B> {
    fn rules(&self) -> String {
        format!("connect4:{}x{}", self.width(), self.height())
    }
    fn game_text(&self, root_text: &str, path: &[u8]) -> String {
        // connect4:WxH[:MOVES]: the path's columns go after the root's, in its notation.
        self.notation_after(root_text, path)
    }
}
