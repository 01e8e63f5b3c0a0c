//! Dōbutsu shōgi ("animal shogi", Kitao & Fujita 2008): a 3×4 board, a lion, a giraffe, an
//! elephant and a chick a side; captured pieces change sides and may be dropped; a position
//! that repeats is a draw. Sente (MAX) moves first. Tanaka (2009) solved it strongly: the start
//! is lost for Sente in 78 plies.
//!
//! The rules, and where each comes from (Kitao & Fujita's rules as Tanaka's 2009 analysis
//! takes them; REFERENCES.md):
//! - the lion moves one square any way, the giraffe one square orthogonally, the elephant one
//!   square diagonally, the chick one square forward; all capture as they move;
//! - a chick that moves onto the far rank is promoted to a hen (one square orthogonally or
//!   diagonally forward); a chick dropped there stays a chick and cannot move;
//! - a captured piece goes to the captor's hand, a hen as a chick; instead of moving, a side may
//!   drop a piece from its hand onto any empty square (no restriction on files or ranks);
//! - a side wins by capturing the opponent's lion, or by moving its lion onto the far rank
//!   where the opponent cannot capture it at once (the "try"); moving into check is allowed;
//! - a side that can take the opponent's lion has won: its moves are then the captures of the
//!   lion (the rest cannot change the result, and Tanaka's count of positions stops there);
//! - a side with no move loses; a position repeated is a draw (never a win for either side,
//!   which is what [`gamesearch::retrograde`] gives every position it cannot settle).
//!
//! The game ends, lost for the side to move, when its lion has been captured, when the
//! opponent's lion stands on its home rank and cannot be captured, or when it has no move.
//!
//! Positions are kept from the mover's side (the board turned round after every move), so one
//! [`PositionKey`] serves both sides: equal keys mean the same position for the side to move, or
//! its mirror image, which is what the negamax tables and the strong solver need (the key is
//! exact up to the mirror: 48 bits of board and 10 of hands).
//!
//! ```
//! use gamesearch::Game;
//! use gamesearch_games::Dobutsu;
//! let p = Dobutsu::start();
//! assert_eq!(p.moves().count(), 4); // the chick takes the chick, the lion two ways, the giraffe
//! assert_eq!(p.to_string(), "gle/.c./.C./ELG/s");
//! ```

// A square's number indexes the board and the move tables together.
#![allow(clippy::needless_range_loop)]

mod index;
mod knowledge;
mod notation;

use gamesearch::game::{Game, Player, PositionKey, Score};
use gamesearch::retrograde::UnMoves;

/// The kinds of piece, as the low three bits of a square's code.
pub(crate) const LION: u8 = 1;
pub(crate) const GIRAFFE: u8 = 2;
pub(crate) const ELEPHANT: u8 = 3;
pub(crate) const CHICK: u8 = 4;
pub(crate) const HEN: u8 = 5;
/// Set on the code of a piece of the side not to move.
pub(crate) const THEIRS: u8 = 8;

/// The kind a piece in hand is, by its slot: giraffe, elephant, chick.
pub(crate) const HAND_KINDS: [u8; 3] = [GIRAFFE, ELEPHANT, CHICK];

/// A Dōbutsu shōgi position, from the side to move: square `rank * 3 + file`, rank 0 its home
/// rank, rank 3 the far one; a square holds 0 (empty), a kind (the mover's) or a kind with
/// the opponent's bit set. `hands[0]` is the mover's hand, `hands[1]` the opponent's
/// (giraffes, elephants, chicks).
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Dobutsu {
    pub(crate) board: [u8; 12],
    pub(crate) hands: [[u8; 3]; 2],
    pub(crate) sente_to_move: bool,
}

/// A move: `from` a square (0..12) or a drop (`12 + hand slot`), `to` a square, both from the
/// mover's side.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct DobutsuMove {
    /// The square the piece leaves (0..12), or 12 + the hand slot it is dropped from.
    pub from: u8,
    /// The square it goes to.
    pub to: u8,
}

/// Where a piece of each kind goes from each square, moving up the board (the mover's pieces):
/// `STEPS[kind][square]`, a set of squares.
const STEPS: [[u16; 12]; 6] = steps(false);
/// The same for the opponent's pieces, which move down the board.
const STEPS_DOWN: [[u16; 12]; 6] = steps(true);
/// The squares a piece of the opponent's can have come from to reach a square:
/// `SOURCES_DOWN[kind][to]`.
const SOURCES_DOWN: [[u16; 12]; 6] = sources(&STEPS_DOWN);

const fn steps(down: bool) -> [[u16; 12]; 6] {
    // (rank, file) steps, forward = +1 rank for the mover.
    const ALL: [(i8, i8); 8] = [
        (1, -1),
        (1, 0),
        (1, 1),
        (0, -1),
        (0, 1),
        (-1, -1),
        (-1, 0),
        (-1, 1),
    ];
    let mut t = [[0u16; 12]; 6];
    let mut kind = 1;
    while kind <= 5 {
        let mut s = 0;
        while s < 12 {
            let (r, f) = ((s / 3) as i8, (s % 3) as i8);
            let mut d = 0;
            while d < 8 {
                let (dr, df) = ALL[d];
                let allowed = match kind as u8 {
                    LION => true,
                    GIRAFFE => dr == 0 || df == 0,
                    ELEPHANT => dr != 0 && df != 0,
                    CHICK => dr == 1 && df == 0,
                    _ => dr == 1 || df == 0 || dr == 0, // hen: all but diagonally back
                };
                let dr = if down { -dr } else { dr };
                let (nr, nf) = (r + dr, f + df);
                if allowed && nr >= 0 && nr < 4 && nf >= 0 && nf < 3 {
                    t[kind][s] |= 1 << (nr * 3 + nf);
                }
                d += 1;
            }
            s += 1;
        }
        kind += 1;
    }
    t
}

const fn sources(steps: &[[u16; 12]; 6]) -> [[u16; 12]; 6] {
    let mut t = [[0u16; 12]; 6];
    let mut kind = 1;
    while kind <= 5 {
        let mut from = 0;
        while from < 12 {
            let mut to = 0;
            while to < 12 {
                if steps[kind][from] >> to & 1 == 1 {
                    t[kind][to] |= 1 << from;
                }
                to += 1;
            }
            from += 1;
        }
        kind += 1;
    }
    t
}

/// The demoted kind a captured piece goes to hand as, by slot.
fn hand_slot(kind: u8) -> usize {
    match kind {
        GIRAFFE => 0,
        ELEPHANT => 1,
        _ => 2, // a chick, or a hen demoted
    }
}

impl Dobutsu {
    /// The start: Sente's elephant, lion and giraffe on a4, b4, c4 and its chick on b3; Gote's
    /// the same turned round (giraffe a1, lion b1, elephant c1, chick b2).
    pub fn start() -> Self {
        let mut board = [0u8; 12];
        board[0] = ELEPHANT;
        board[1] = LION;
        board[2] = GIRAFFE;
        board[4] = CHICK;
        board[7] = CHICK | THEIRS;
        board[9] = GIRAFFE | THEIRS;
        board[10] = LION | THEIRS;
        board[11] = ELEPHANT | THEIRS;
        Dobutsu {
            board,
            hands: [[0; 3]; 2],
            sente_to_move: true,
        }
    }

    /// How many positions of a strong solution of Dōbutsu shōgi have both lions on the board:
    /// the count Tanaka (2009) publishes (246,803,167 from the start), which leaves out the
    /// positions after a lion is taken, and counts as this crate's keys do (the board from the
    /// side to move, a position and its mirror image as one).
    ///
    /// ```
    /// use gamesearch::retrograde::{solve_by_unmoves, RetrogradeConfig};
    /// use gamesearch_games::Dobutsu;
    /// let root: Dobutsu = "dobutsu:board=.l./.../.../.L./s".parse().unwrap();
    /// let s = solve_by_unmoves(&root, &RetrogradeConfig::default()).unwrap();
    /// let both = Dobutsu::with_both_lions(&s);
    /// assert!(0 < both && both < s.stats().positions); // some ends have a lion taken
    /// ```
    pub fn with_both_lions(solution: &gamesearch::retrograde::StrongSolution) -> u64 {
        solution
            .keys()
            .filter(|&key| {
                let code = |s: u64| (key >> (4 * s) & 15) as u8;
                (0..12).any(|s| code(s) == LION) && (0..12).any(|s| code(s) == LION | THEIRS)
            })
            .count() as u64
    }

    /// The position turned round: the opponent's side, with the other side to move.
    pub(crate) fn flipped(&self) -> Self {
        let mut board = [0u8; 12];
        for (s, b) in board.iter_mut().enumerate() {
            let c = self.board[11 - s];
            *b = if c == 0 { 0 } else { c ^ THEIRS };
        }
        Dobutsu {
            board,
            hands: [self.hands[1], self.hands[0]],
            sente_to_move: !self.sente_to_move,
        }
    }

    /// Whether the mover can take the opponent's lion (and so has won).
    #[inline]
    pub(crate) fn can_take_lion(&self) -> bool {
        self.survey().can_take_lion()
    }

    /// A move that wins at once, if there is one: a capture of the opponent's lion, or a step
    /// of the mover's lion onto the far rank where nothing of the opponent's attacks it (a safe
    /// try: the opponent, to move, finds the lion there out of reach).
    pub(crate) fn winning_move(&self) -> Option<DobutsuMove> {
        let b = self.survey();
        let lion = b.own_lion?;
        if b.over() {
            return None;
        }
        if b.can_take_lion() {
            // The first capture of the lion, as the moves list it.
            return b.lion_captures().next();
        }
        let mut far = STEPS[LION as usize][lion] & 0b1110_0000_0000;
        while far != 0 {
            let t = far.trailing_zeros() as usize;
            far &= far - 1;
            if b.own_squares >> t & 1 == 1 {
                continue; // its own piece is there
            }
            // Safe when no piece of theirs but the one taken there attacks t.
            let attacked = (0..12).any(|s| {
                let c = self.board[s];
                s != t && c & THEIRS != 0 && STEPS_DOWN[usize::from(c & 7)][s] >> t & 1 == 1
            });
            if !attacked {
                return Some(DobutsuMove {
                    from: lion as u8,
                    to: t as u8,
                });
            }
        }
        None
    }

    /// Every piece is where a legal position can have it: one lion for the side not to move
    /// (the mover's may be gone: captured, the game over), at most two of each other kind in
    /// all (fewer make an endgame: a capture never adds a piece), a hand holding at most two of
    /// a kind.
    pub(crate) fn consistent(&self) -> bool {
        let count = |kinds: &[u8]| {
            self.board
                .iter()
                .filter(|&&c| c != 0 && kinds.contains(&(c & 7)))
                .count()
        };
        let ours_lion = self.board.iter().filter(|&&c| c == LION).count();
        let their_lion = self.board.iter().filter(|&&c| c == LION | THEIRS).count();
        let in_hand = |slot: usize| usize::from(self.hands[0][slot] + self.hands[1][slot]);
        self.board
            .iter()
            .all(|&c| matches!(c & 7, 0..=5) && c & !15 == 0 && c != THEIRS)
            && ours_lion <= 1
            && their_lion == 1
            && count(&[GIRAFFE]) + in_hand(0) <= 2
            && count(&[ELEPHANT]) + in_hand(1) <= 2
            && count(&[CHICK, HEN]) + in_hand(2) <= 2
    }
}

/// One pass over the board, what `moves` and `winning_move` both read: the mover's pieces
/// (square, code) and their squares, what they attack, the empty squares and both lions.
struct Survey {
    ours: [(u8, u8); 12],
    n_ours: usize,
    own_squares: u16,
    attacked: u16,
    empty: u16,
    own_lion: Option<usize>,
    /// The opponent's lion's square as a set (empty when it is gone).
    their_lion: u16,
}

impl Survey {
    fn ours(&self) -> &[(u8, u8)] {
        &self.ours[..self.n_ours]
    }

    /// Whether the game is over before any move: the mover's lion is gone, or the opponent's
    /// stands on the mover's home rank out of reach.
    fn over(&self) -> bool {
        self.own_lion.is_none() || self.their_lion & 0b111 & !self.attacked != 0
    }

    fn can_take_lion(&self) -> bool {
        self.attacked & self.their_lion != 0
    }

    /// The moves that take the opponent's lion, in the moves' order.
    fn lion_captures(&self) -> impl Iterator<Item = DobutsuMove> + '_ {
        let to = self.their_lion.trailing_zeros() as u8;
        self.ours()
            .iter()
            .filter(move |&&(s, c)| STEPS[usize::from(c)][usize::from(s)] & self.their_lion != 0)
            .map(move |&(from, _)| DobutsuMove { from, to })
    }
}

impl Dobutsu {
    #[inline]
    fn survey(&self) -> Survey {
        let mut b = Survey {
            ours: [(0, 0); 12],
            n_ours: 0,
            own_squares: 0,
            attacked: 0,
            empty: 0,
            own_lion: None,
            their_lion: 0,
        };
        for (s, &c) in self.board.iter().enumerate() {
            if c == 0 {
                b.empty |= 1 << s;
            } else if c & THEIRS == 0 {
                b.ours[b.n_ours] = (s as u8, c);
                b.n_ours += 1;
                b.own_squares |= 1 << s;
                b.attacked |= STEPS[usize::from(c)][s];
                if c == LION {
                    b.own_lion = Some(s);
                }
            } else if c == LION | THEIRS {
                b.their_lion = 1 << s;
            }
        }
        b
    }
}

/// The moves of a position, generated at once into a fixed array (no allocation).
#[derive(Clone, Copy, Debug)]
pub struct DobutsuMoves {
    list: [DobutsuMove; 64],
    len: u8,
    next: u8,
}

impl Iterator for DobutsuMoves {
    type Item = DobutsuMove;
    #[inline]
    fn next(&mut self) -> Option<DobutsuMove> {
        (self.next < self.len).then(|| {
            self.next += 1;
            self.list[self.next as usize - 1]
        })
    }
}

impl Game for Dobutsu {
    type Move = DobutsuMove;
    type Moves = DobutsuMoves;

    fn to_move(&self) -> Player {
        if self.sente_to_move {
            Player::Max
        } else {
            Player::Min
        }
    }

    fn moves(&self) -> DobutsuMoves {
        let mut out = DobutsuMoves {
            list: [DobutsuMove { from: 0, to: 0 }; 64],
            len: 0,
            next: 0,
        };
        let b = self.survey();
        if b.over() {
            return out;
        }
        let mut push = |m: DobutsuMove| {
            out.list[out.len as usize] = m;
            out.len += 1;
        };
        // A side that can take the lion has won: its moves are the captures (the rest cannot
        // change the value, and Tanaka's count of positions stops here).
        if b.can_take_lion() {
            b.lion_captures().for_each(push);
            return out;
        }
        for &(s, c) in b.ours() {
            // Any square but one of its own pieces.
            let mut to = STEPS[usize::from(c)][usize::from(s)] & !b.own_squares;
            while to != 0 {
                push(DobutsuMove {
                    from: s,
                    to: to.trailing_zeros() as u8,
                });
                to &= to - 1;
            }
        }
        let empty = b.empty;
        for slot in 0..3 {
            if self.hands[0][slot] > 0 {
                let mut to = empty;
                while to != 0 {
                    let t = to.trailing_zeros() as u8;
                    to &= to - 1;
                    push(DobutsuMove {
                        from: 12 + slot as u8,
                        to: t,
                    });
                }
            }
        }
        out
    }

    fn play(&self, m: DobutsuMove) -> Self {
        let mut p = *self;
        let to = m.to as usize;
        if m.from >= 12 {
            let slot = usize::from(m.from - 12);
            p.hands[0][slot] -= 1;
            p.board[to] = HAND_KINDS[slot];
        } else {
            let from = m.from as usize;
            let captured = p.board[to] & 7;
            if captured != 0 && captured != LION {
                p.hands[0][hand_slot(captured)] += 1;
            }
            let piece = p.board[from];
            p.board[from] = 0;
            p.board[to] = if piece == CHICK && to >= 9 {
                HEN
            } else {
                piece
            };
        }
        p.flipped()
    }

    /// At the end, the side to move has lost: −1 when that is Sente (MAX), +1 when Gote.
    /// Elsewhere 0 (no heuristic: the game is solved, not estimated).
    fn evaluate(&self) -> Score {
        if self.moves().len == 0 {
            -self.to_move().sign()
        } else {
            0
        }
    }

    fn value_bounds(&self) -> Option<(Score, Score)> {
        Some((-1, 1))
    }

    /// Positions repeat (pieces move back, captures are dropped again); a repetition is a
    /// draw (Tanaka 2009: play that never ends is a draw).
    const REPEATS: bool = true;

    fn move_name(&self, m: DobutsuMove) -> String {
        notation::move_name(self, m)
    }
}

impl PositionKey for Dobutsu {
    /// The board's twelve codes, four bits each, and both hands in base 3 above them, of the
    /// position or its mirror image (files a and c swapped), whichever is smaller: exact up to
    /// the mirror, which changes nothing in the game, and the same whichever side is to move
    /// (the board is kept from the mover's side).
    #[inline]
    fn key(&self) -> u64 {
        let (mut k, mut m) = (0u64, 0u64);
        for rank in (0..4).rev() {
            for file in (0..3).rev() {
                k = k << 4 | u64::from(self.board[rank * 3 + file]);
                m = m << 4 | u64::from(self.board[rank * 3 + 2 - file]);
            }
        }
        let hand = |h: [u8; 3]| u64::from(h[0] + 3 * h[1] + 9 * h[2]);
        k.min(m) | (hand(self.hands[0]) + 27 * hand(self.hands[1])) << 48
    }
}

impl UnMoves for Dobutsu {
    /// The position of a key (of the two mirror images, the one whose board is the key's),
    /// Sente to move (the key does not say which side moves).
    fn position_of(&self, key: u64) -> Option<Self> {
        let mut board = [0u8; 12];
        for (s, b) in board.iter_mut().enumerate() {
            *b = (key >> (4 * s) & 15) as u8;
        }
        let hands = key >> 48;
        if hands >= 27 * 27 {
            return None;
        }
        let digits = |h: u64| [(h % 3) as u8, (h / 3 % 3) as u8, (h / 9) as u8];
        let p = Dobutsu {
            board,
            hands: [digits(hands % 27), digits(hands / 27)],
            sente_to_move: true,
        };
        p.consistent().then_some(p)
    }

    /// The opponent moved last: each of its pieces was dropped there (a giraffe, an elephant,
    /// or a chick — on the mover's home rank only a drop leaves an unpromoted chick), or came
    /// from a square it moves from, having taken nothing or a piece now in its hand (a chick
    /// or a hen for a chick in hand) — or the mover's lion, when the mover has none.
    fn unmoves(&self, mut each: impl FnMut(Self)) {
        let lion = self.board.iter().position(|&c| c == LION);
        let lion_taken = lion.is_none();
        // A position that can take the lion has only those captures: a predecessor that could
        // take the lion is one only by taking it. Whether it can is read from the squares the
        // opponent's pieces attack here, its moved piece put back (no board is looked at again).
        let lion_bit = lion.map_or(0, |l| 1u16 << l);
        let mut attacks = [0u16; 12];
        for (s, &c) in self.board.iter().enumerate() {
            if c & THEIRS != 0 {
                attacks[s] = STEPS_DOWN[usize::from(c & 7)][s];
            }
        }
        let mut each = |p: Dobutsu, took_lion: bool, attacked: u16| {
            if took_lion || attacked & lion_bit == 0 {
                each(p.flipped());
            }
        };
        for t in 0..12 {
            let c = self.board[t];
            if c & THEIRS == 0 || c == 0 {
                continue;
            }
            let kind = c & 7;
            // What the opponent's other pieces attack.
            let others = (0..12)
                .filter(|&s| s != t)
                .fold(0u16, |a, s| a | attacks[s]);
            // A drop.
            if !lion_taken && matches!(kind, GIRAFFE | ELEPHANT | CHICK) {
                let mut p = *self;
                p.board[t] = 0;
                p.hands[1][hand_slot(kind)] += 1;
                each(p, false, others);
            }
            // A move, of the piece as it was: a hen may have been a chick that stepped onto
            // the mover's home rank (rank 0) from rank 1.
            let mut before: [(u8, u16); 2] = [(kind, SOURCES_DOWN[kind as usize][t]), (0, 0)];
            match kind {
                CHICK if t < 3 => before[0].1 = 0,
                HEN if t < 3 => before[1] = (CHICK, 1 << (t + 3)),
                _ => {}
            }
            for (was, mut from) in before {
                while from != 0 {
                    let f = from.trailing_zeros() as usize;
                    from &= from - 1;
                    if self.board[f] != 0 {
                        continue;
                    }
                    let mut p = *self;
                    p.board[f] = was | THEIRS;
                    let attacked = others | STEPS_DOWN[usize::from(was)][f];
                    if lion_taken {
                        p.board[t] = LION;
                        each(p, true, attacked);
                        continue;
                    }
                    p.board[t] = 0;
                    each(p, false, attacked);
                    for slot in 0..3 {
                        if self.hands[1][slot] == 0 {
                            continue;
                        }
                        let mut q = p;
                        q.hands[1][slot] -= 1;
                        q.board[t] = HAND_KINDS[slot];
                        each(q, false, attacked);
                        if slot == 2 {
                            q.board[t] = HEN;
                            each(q, false, attacked);
                        }
                    }
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_tables_move_each_piece_as_the_rules_say() {
        // From b2 (square 4), moving up: the lion reaches all 8 neighbours, the chick one.
        assert_eq!(STEPS[LION as usize][4].count_ones(), 8);
        assert_eq!(STEPS[CHICK as usize][4], 1 << 7);
        assert_eq!(STEPS_DOWN[CHICK as usize][7], 1 << 4);
        assert_eq!(STEPS[HEN as usize][4].count_ones(), 6);
        assert_eq!(STEPS[ELEPHANT as usize][4].count_ones(), 4);
        assert_eq!(STEPS[GIRAFFE as usize][0].count_ones(), 2);
    }
}
