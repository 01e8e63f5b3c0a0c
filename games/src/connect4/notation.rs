//! Connect-Four's notation: the 1-based columns played, as digits (`4453`) or, on any board,
//! numbers separated by commas (`4,4,5,3`; the only form past nine columns).

use gamesearch::error::Error;
use gamesearch::Game;

use super::{Bitboard, Connect4};

impl<B: Bitboard> Connect4<B> {
    /// Plays a sequence of 1-based columns, or says which one is illegal. Two notations: digits
    /// (`"4453"`) on boards up to 9 columns wide, and column numbers separated by commas
    /// (`"4,4,10,3"`) on any board — the only one on boards wider than 9, where `"12"` could be
    /// column 12 or columns 1 and 2. [`Connect4::notation_after`] writes the same.
    ///
    /// ```
    /// use gamesearch_games::Connect4;
    /// let narrow = Connect4::new(7, 6).unwrap();
    /// assert_eq!(narrow.play_moves("4453").unwrap(), narrow.play_moves("4,4,5,3").unwrap());
    /// let wide = Connect4::new(12, 4).unwrap();
    /// assert_eq!(wide.play_moves("12,1,10").unwrap().moves_played(), 3);
    /// assert!(wide.play_moves("121").is_err()); // column 121
    /// assert!(wide.play_moves("1,,2").is_err());
    /// ```
    pub fn play_moves(&self, seq: &str) -> Result<Self, Error> {
        let seq = seq.trim();
        let numbers = self.width > 9 || seq.contains(',');
        let tokens: Vec<&str> = if seq.is_empty() {
            Vec::new()
        } else if numbers {
            seq.split(',').map(str::trim).collect()
        } else {
            seq.split("").filter(|t| !t.is_empty()).collect()
        };
        let mut p = *self;
        for (i, c) in tokens.into_iter().enumerate() {
            let col = c
                .parse::<u8>()
                .ok()
                .filter(|_| c.bytes().all(|b| b.is_ascii_digit()))
                .filter(|&d| d >= 1 && d <= p.width)
                .ok_or_else(|| {
                    Error::BadParameter(format!(
                        "move {} `{c}`: not a column 1..={}{}",
                        i + 1,
                        p.width,
                        if p.width > 9 {
                            " (on boards wider than 9, columns are separated by commas: 1,10,3)"
                        } else {
                            ""
                        }
                    ))
                })?;
            let col = col - 1;
            if p.is_over() {
                return Err(Error::BadParameter(format!(
                    "move {} `{c}`: the game is over",
                    i + 1
                )));
            }
            if !p.can_play(col) {
                return Err(Error::BadParameter(format!(
                    "move {} `{c}`: column {} is full",
                    i + 1,
                    col + 1
                )));
            }
            p = p.play(col);
        }
        Ok(p)
    }

    /// The text of the position `text` (`connect4:WxH[:MOVES]`, naming a position of this
    /// board) after `moves` (0-based columns), in `text`'s notation: digits on boards up to 9
    /// wide unless `text` already separates its moves with commas, else column numbers
    /// separated by commas (see [`Connect4::play_moves`]).
    ///
    /// ```
    /// use gamesearch_games::Connect4;
    /// let p = Connect4::new(7, 6).unwrap();
    /// assert_eq!(p.notation_after("connect4:7x6", &[3, 3]), "connect4:7x6:44");
    /// assert_eq!(p.notation_after("connect4:7x6:4", &[2]), "connect4:7x6:43");
    /// assert_eq!(p.notation_after("connect4:7x6:4,4", &[2]), "connect4:7x6:4,4,3");
    /// let w = Connect4::new(12, 4).unwrap();
    /// assert_eq!(w.notation_after("connect4:12x4", &[11, 0]), "connect4:12x4:12,1");
    /// assert_eq!(w.notation_after("connect4:12x4:12", &[9]), "connect4:12x4:12,10");
    /// ```
    pub fn notation_after(&self, text: &str, moves: &[u8]) -> String {
        let mut out = text.to_string();
        let played = text.splitn(3, ':').nth(2).unwrap_or("");
        let commas = self.width > 9 || played.contains(',');
        if text.matches(':').count() < 2 {
            out.push(':');
        }
        for (i, &c) in moves.iter().enumerate() {
            if commas && (i > 0 || !played.is_empty()) {
                out.push(',');
            }
            out.push_str(&(c + 1).to_string());
        }
        out
    }
}
