//! Dōbutsu shōgi's text: squares `a1`–`c4` as Sente sees the board (rank 1 Gote's home at the
//! top, rank 4 Sente's at the bottom), moves `b3b2` (a step; `+` when a chick is promoted) or
//! `C*b2` (a drop), positions `dobutsu`, `dobutsu:MOVES` (moves after the start, separated by
//! commas or spaces) or `dobutsu:board=RANK1/RANK2/RANK3/RANK4/SIDE[/HANDS]`: `L G E C H` for
//! Sente's lion, giraffe, elephant, chick and hen, lower case for Gote's, `.` an empty square,
//! SIDE `s` or `g` for the side to move, HANDS the pieces in hand (`Cg`: Sente holds a chick,
//! Gote a giraffe).

use std::fmt;
use std::str::FromStr;

use gamesearch::error::Error;
use gamesearch::Game;

use super::{Dobutsu, DobutsuMove, CHICK, ELEPHANT, GIRAFFE, HAND_KINDS, HEN, LION, THEIRS};

const LETTERS: [char; 6] = ['.', 'L', 'G', 'E', 'C', 'H'];

/// The square `s` of the mover's board as Sente names it.
fn square_name(p: &Dobutsu, s: u8) -> String {
    let s = if p.sente_to_move { s } else { 11 - s };
    format!("{}{}", (b'a' + s % 3) as char, 4 - s / 3)
}

pub(super) fn move_name(p: &Dobutsu, m: DobutsuMove) -> String {
    if m.from >= 12 {
        let kind = HAND_KINDS[usize::from(m.from - 12)];
        return format!("{}*{}", LETTERS[kind as usize], square_name(p, m.to));
    }
    let promotes = p.board[m.from as usize] == CHICK && m.to >= 9;
    let plus = if promotes { "+" } else { "" };
    format!("{}{}{plus}", square_name(p, m.from), square_name(p, m.to))
}

impl Dobutsu {
    /// The board as Sente sees it (Sente's pieces without [`THEIRS`]) and the hands
    /// `[Sente's, Gote's]`.
    fn sente_view(&self) -> ([u8; 12], [[u8; 3]; 2]) {
        let p = if self.sente_to_move {
            *self
        } else {
            self.flipped()
        };
        (p.board, p.hands)
    }

    /// The move named `text` (`b3b2`, `b3b2+`, `C*b2`), if it is legal here.
    ///
    /// ```
    /// use gamesearch::Game;
    /// use gamesearch_games::Dobutsu;
    /// let p = Dobutsu::start();
    /// let m = p.parse_move("b3b2").unwrap();
    /// assert_eq!(p.move_name(m), "b3b2");
    /// assert!(p.parse_move("a4a3").is_err()); // the elephant moves diagonally
    /// ```
    pub fn parse_move(&self, text: &str) -> Result<DobutsuMove, Error> {
        let want = text.trim().trim_end_matches('+').to_ascii_lowercase();
        self.moves()
            .find(|&m| self.move_name(m).trim_end_matches('+').to_ascii_lowercase() == want)
            .ok_or_else(|| {
                let legal: Vec<String> = self.moves().map(|m| self.move_name(m)).collect();
                Error::BadParameter(if legal.is_empty() {
                    format!("dobutsu move `{text}`: the game is over")
                } else {
                    format!(
                        "dobutsu move `{text}` is not legal here; the legal moves are {}",
                        legal.join(", ")
                    )
                })
            })
    }

    /// The position after `moves` (separated by commas or spaces) from this one.
    ///
    /// ```
    /// use gamesearch_games::Dobutsu;
    /// let p = Dobutsu::start().play_moves("b3b2, b1b2").unwrap();
    /// assert_eq!(p.to_string(), "g.e/.l./.../ELG/s/Cc");
    /// ```
    pub fn play_moves(&self, moves: &str) -> Result<Dobutsu, Error> {
        let mut p = *self;
        for text in moves.split([',', ' ']).filter(|t| !t.is_empty()) {
            p = p.play(p.parse_move(text)?);
        }
        Ok(p)
    }
}

impl fmt::Display for Dobutsu {
    /// The board form (what `dobutsu:board=` reads).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (board, hands) = self.sente_view();
        for rank in (0..4).rev() {
            for file in 0..3 {
                let c = board[rank * 3 + file];
                let letter = LETTERS[(c & 7) as usize];
                let letter = if c & THEIRS != 0 {
                    letter.to_ascii_lowercase()
                } else {
                    letter
                };
                write!(f, "{letter}")?;
            }
            if rank > 0 {
                write!(f, "/")?;
            }
        }
        write!(f, "/{}", if self.sente_to_move { 's' } else { 'g' })?;
        let mut held = String::new();
        for (side, hand) in hands.iter().enumerate() {
            for (slot, &n) in hand.iter().enumerate() {
                let letter = LETTERS[HAND_KINDS[slot] as usize];
                let letter = if side == 1 {
                    letter.to_ascii_lowercase()
                } else {
                    letter
                };
                held.extend(std::iter::repeat_n(letter, n.into()));
            }
        }
        if !held.is_empty() {
            write!(f, "/{held}")?;
        }
        Ok(())
    }
}

impl fmt::Debug for Dobutsu {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Dobutsu({self})")
    }
}

/// A board form's mistake, said in one line.
fn bad(text: &str, why: impl fmt::Display) -> Error {
    Error::BadParameter(format!(
        "dobutsu position `{text}`: {why} (expected board=RANK1/RANK2/RANK3/RANK4/SIDE[/HANDS], \
         e.g. board=gle/.c./.C./ELG/s)"
    ))
}

impl Dobutsu {
    /// Reads the board form (`gle/.c./.C./ELG/s`, with `/HANDS` when a side holds pieces).
    fn from_board(text: &str) -> Result<Dobutsu, Error> {
        let parts: Vec<&str> = text.split('/').collect();
        if !(5..=6).contains(&parts.len()) {
            return Err(bad(
                text,
                "four ranks, the side to move and the hands, separated by /",
            ));
        }
        let mut p = Dobutsu {
            board: [0; 12],
            hands: [[0; 3]; 2],
            sente_to_move: match parts[4] {
                "s" | "S" => true,
                "g" | "G" => false,
                side => return Err(bad(text, format_args!("side `{side}` is not s or g"))),
            },
        };
        let letter_kind = |c: char| match c.to_ascii_uppercase() {
            'L' => Some(LION),
            'G' => Some(GIRAFFE),
            'E' => Some(ELEPHANT),
            'C' => Some(CHICK),
            'H' => Some(HEN),
            _ => None,
        };
        for (row, rank_text) in parts[..4].iter().enumerate() {
            let cells: Vec<char> = rank_text.chars().collect();
            if cells.len() != 3 {
                return Err(bad(
                    text,
                    format_args!("rank {} `{rank_text}` needs 3 squares", row + 1),
                ));
            }
            for (file, &c) in cells.iter().enumerate() {
                let s = (3 - row) * 3 + file; // Sente's side: rank 4 is square row 0
                p.board[s] = match c {
                    '.' | '-' => 0,
                    _ => {
                        let kind = letter_kind(c)
                            .ok_or_else(|| bad(text, format_args!("`{c}` is not a piece")))?;
                        if c.is_ascii_lowercase() {
                            kind | THEIRS
                        } else {
                            kind
                        }
                    }
                };
            }
        }
        for c in parts.get(5).copied().unwrap_or("").chars() {
            let slot = match letter_kind(c) {
                Some(GIRAFFE) => 0,
                Some(ELEPHANT) => 1,
                Some(CHICK) => 2,
                _ => return Err(bad(text, format_args!("`{c}` cannot be held (G, E or C)"))),
            };
            let side = usize::from(c.is_ascii_lowercase());
            p.hands[side][slot] += 1;
            if p.hands[side][slot] > 2 {
                return Err(bad(text, "a hand holds at most two of a kind"));
            }
        }
        // Sente's view read; turn it round when Gote is to move.
        if !p.sente_to_move {
            p.sente_to_move = true;
            p = p.flipped();
        }
        if !p.consistent() {
            return Err(bad(
                text,
                "not a position: each side needs its lion (the side to move may have lost it), \
                 and there are at most two giraffes, two elephants and two chicks in all",
            ));
        }
        Ok(p)
    }
}

impl FromStr for Dobutsu {
    type Err = Error;
    /// `dobutsu`, `dobutsu:MOVES`, `dobutsu:board=…` (or the same without `dobutsu:`).
    ///
    /// ```
    /// use gamesearch_games::Dobutsu;
    /// let p: Dobutsu = "dobutsu:board=gle/.c./.C./ELG/s".parse().unwrap();
    /// assert_eq!(p, Dobutsu::start());
    /// assert_eq!("dobutsu".parse::<Dobutsu>().unwrap(), Dobutsu::start());
    /// // Gote has no lion, and it is not Gote to move (whose loss that would be).
    /// assert!("dobutsu:board=g.e/.c./.C./ELG/s".parse::<Dobutsu>().is_err());
    /// assert!("dobutsu:board=gle/.c./.C./ELG/s/GG".parse::<Dobutsu>().is_err()); // 4 giraffes
    /// ```
    fn from_str(text: &str) -> Result<Dobutsu, Error> {
        let rest = text.trim();
        let rest = rest.strip_prefix("dobutsu").unwrap_or(rest);
        let rest = rest.strip_prefix(':').unwrap_or(rest);
        match rest.strip_prefix("board=") {
            Some(board) => Dobutsu::from_board(board),
            None => Dobutsu::start().play_moves(rest),
        }
    }
}
