//! What the solver knows of Hex beyond the rules: a win with the next stone, the opponent's
//! such wins (one must be blocked; two lose), virtual connections by H-search (a player joined
//! to its edges wins; the opponent's semi connections say where the mover must play), all of
//! it on the board with its dead and captured cells filled in (which are left out as moves),
//! a move order, and the half turn in the key.

use gamesearch::{Game, PositionKey, Score, SolverKnowledge, ANY_SUPPORT};

use super::bits::{dead_cells, fill, fill_in, half_turn, neighbours};
use super::vc::{connection_currents, edge_connections, Currents, EdgeConnections};
use super::{Hex, SWAP};

impl Hex {
    /// The empty cells where Black's stone (`black`) or White's would join that player's
    /// edges at once: cells next to (or on) both a chain touching the first edge and one
    /// touching the second.
    ///
    /// ```
    /// use gamesearch_games::Hex;
    /// // Black has c1, c2, c4, c5 down the c column: c3 joins them.
    /// let p = Hex::new(5, false).unwrap().play_moves("c1,a1,c2,a2,c4,a3,c5,e5").unwrap();
    /// assert_eq!(p.winning_cells(true), 1 << 12);
    /// assert_eq!(p.winning_cells(false), 0);
    /// ```
    pub fn winning_cells(&self, black: bool) -> u128 {
        let m = self.masks();
        let n = self.size;
        let (own, from, to) = self.side(black);
        let empty = self.empty();
        let first = fill(own & from, own, n, m);
        let last = fill(own & to, own, n, m);
        (neighbours(first, n, m) | from) & (neighbours(last, n, m) | to) & empty
    }

    /// Whether Black (`black`) or White has joined its edges *virtually*: H-search finds a
    /// full connection between them (bridges, edge templates and what the AND and OR rules
    /// build from them, on the board with its inferior cells filled in: [`Hex::filled_in`]),
    /// which wins whoever is to move. `false` may miss one (H-search is incomplete); `true` is
    /// always right.
    ///
    /// ```
    /// use gamesearch_games::Hex;
    /// // Black: c2 (an edge bridge to row 1) and b4 (one to row 5), a bridge apart.
    /// let p = Hex::new(5, false).unwrap().play_moves("c2,a1,b4,a2").unwrap();
    /// assert!(p.virtually_joined(true));
    /// assert!(!p.virtually_joined(false));
    /// ```
    pub fn virtually_joined(&self, black: bool) -> bool {
        self.edge_connections(black).full
    }

    /// The cells where the side to move must play or lose: those in every semi connection
    /// H-search finds between the opponent's edges on the filled-in board (the opponent, moving
    /// next, would win by any of them); every empty cell when it finds none, none when it finds
    /// a full one.
    ///
    /// ```
    /// use gamesearch::Game;
    /// use gamesearch_games::Hex;
    /// let start = Hex::new(5, false).unwrap();
    /// // After Black's e1 (the obtuse corner), White must play in 6 of the 24 empty cells …
    /// let p = start.play_moves("e1").unwrap();
    /// let cells = |set: u128| (0..25u8).filter(|&i| set >> i & 1 == 1).map(|i| p.move_name(i)).collect::<Vec<_>>();
    /// assert_eq!(cells(p.must_play()), ["d2", "c3", "d3", "b4", "c4", "b5"]);
    /// // … and after c3 in none: H-search joins c3 to both edges (edge templates), Black has won.
    /// let p = start.play_moves("c3").unwrap();
    /// assert!(p.virtually_joined(true));
    /// assert_eq!(p.must_play(), 0);
    /// ```
    pub fn must_play(&self) -> u128 {
        self.edge_connections(!self.black_to_move).must_play & self.empty()
    }

    /// H-search's connections between Black's (`black`) or White's edges (see the module
    /// `vc`): whether it has joined them virtually, or would with one move, and where the other
    /// player must then play.
    pub(crate) fn edge_connections(&self, black: bool) -> EdgeConnections {
        self.edge_connections_of(self.filled_in(), black)
    }

    /// [`Hex::edge_connections`] on the stones `(black, white)` of [`Hex::filled_in`].
    fn edge_connections_of(
        &self,
        (black_stones, white_stones): (u128, u128),
        black: bool,
    ) -> EdgeConnections {
        let m = self.masks();
        let (own, from, to) = if black {
            (black_stones, m.top, m.bottom)
        } else {
            (white_stones, m.left, m.right)
        };
        edge_connections(
            own,
            m.board & !(black_stones | white_stones),
            from,
            to,
            self.size,
            m,
        )
    }

    /// Black's and White's stones after *inferior-cell fill-in* (Henderson, Arneson & Hayward
    /// 2009), which changes no value: every dead cell ([`Hex::dead_cells`]) filled with the
    /// colour of the stones that kill it, and every pair of neighbouring empty cells that a
    /// player has *captured* — its stone on either would leave the other dead — filled with its
    /// colour, until none is left. The knowledge reads the filled board: H-search finds more
    /// connections on it, and the filled cells are no moves worth trying. Before White's
    /// choice to swap, the stones as they are (a swap is not monotone).
    ///
    /// ```
    /// use gamesearch::Game;
    /// use gamesearch_games::Hex;
    /// let cells = |p: &Hex, set: u128| {
    ///     (0..25u8).filter(|&i| set >> i & 1 == 1).map(|i| p.move_name(i)).collect::<Vec<_>>()
    /// };
    /// // Black's b2 and c2 under the top edge have captured b1 and c1: White on either is
    /// // answered on the other, and White's stone is then dead. Filled, they and c2 kill d1.
    /// let p = Hex::new(5, false).unwrap().play_moves("b2,e5,c2,e4").unwrap();
    /// let (black, white) = p.filled_in();
    /// assert_eq!(cells(&p, black & p.empty()), ["b1", "c1", "d1"]);
    /// assert_eq!(white, p.white());
    /// ```
    pub fn filled_in(&self) -> (u128, u128) {
        if self.swap_rule && self.white == 0 && self.black.count_ones() <= 1 {
            return (self.black, self.white);
        }
        fill_in(self.black, self.white, self.size, self.masks())
    }

    /// The empty cells that are dead (see [`SolverKnowledge::non_losing_moves`]).
    pub fn dead_cells(&self) -> u128 {
        dead_cells(self.black, self.white, self.size, self.masks())
    }

    /// The currents of the resistance evaluation by cell, the mover's and the opponent's
    /// (`vc::connection_currents`), on the filled-in board.
    fn currents(&self) -> (Currents, Currents) {
        let m = self.masks();
        let (black, white) = self.filled_in();
        let empty = m.board & !(black | white);
        let b = connection_currents(black, empty, m.top, m.bottom, self.size, m);
        let w = connection_currents(white, empty, m.left, m.right, self.size, m);
        if self.black_to_move {
            (b, w)
        } else {
            (w, b)
        }
    }

    /// The opponent's winning cells (its threats), for the side to move.
    #[inline]
    fn threats(&self) -> u128 {
        self.winning_cells(!self.black_to_move)
    }

    /// How promising a cell is for the side to move, higher first: next to stones (the
    /// opponent's count twice, the mover's once), then near the centre.
    #[inline]
    fn cell_rank(&self, mv: u8) -> u32 {
        if mv == SWAP {
            return 0;
        }
        let m = self.masks();
        let around = neighbours(1u128 << mv, self.size, m);
        let (own, theirs) = if self.black_to_move {
            (self.black, self.white)
        } else {
            (self.white, self.black)
        };
        let near = 2 * (around & theirs).count_ones() + (around & own).count_ones();
        let n = i32::from(self.size);
        let (r, c) = (i32::from(mv) / n, i32::from(mv) % n);
        // Hex distance from the centre (doubled, so that even boards' centres count alike).
        let (dr, dc) = (2 * r - (n - 1), 2 * c - (n - 1));
        let from_centre = (dr.abs() + dc.abs() + (dr + dc).abs()) as u32 / 2;
        near * 64 + (64 - from_centre.min(63))
    }
}

impl SolverKnowledge for Hex {
    /// A cell that joins the mover's edges.
    fn immediate_win(&self) -> Option<u8> {
        if self.over {
            return None;
        }
        let wins = self.winning_cells(self.black_to_move);
        (wins != 0).then(|| wins.trailing_zeros() as u8)
    }

    /// With no immediate win of its own, the mover must take the opponent's winning cell when
    /// there is one, and loses when there are two or more (a stone fills one; it cannot undo
    /// the other) — unless it may swap, which is kept. Of the cells left, only the must-play
    /// region is kept ([`Hex::must_play`]: elsewhere the opponent plays a semi connection's key
    /// and wins). And moves to cells that inferior-cell fill-in fills ([`Hex::filled_in`]) are
    /// dropped while another move is kept: a stone on a dead cell, or on a cell its own side
    /// has captured, leaves the filled position as it was (a pass, and in Hex a stone anywhere
    /// else is never worse than a pass: an extra stone never hurts its owner); a stone on a
    /// cell the opponent has captured is answered in the pair and is then dead (no better than
    /// the best move of the filled position, which is among those kept). Each measured on
    /// and off in docs/results/hex.md.
    fn non_losing_moves(&self, moves: &mut [u8]) -> usize {
        let threats = self.threats();
        let swap = self.can_swap();
        let filled = self.filled_in();
        let keep: u128 = if threats == 0 {
            let live = self.masks().board & !(filled.0 | filled.1);
            if live == 0 && !swap {
                // Every cell is filled in: the outcome is settled; any one move stands for all.
                self.empty() & self.empty().wrapping_neg()
            } else {
                live
            }
        } else if threats & (threats - 1) == 0 {
            threats
        } else {
            0
        };
        // The opponent's stone on a cell joining it virtually wins unless the mover plays in
        // that connection's cells: only cells in all of them are kept.
        let keep = if keep != 0 {
            keep & self
                .edge_connections_of(filled, !self.black_to_move)
                .must_play
        } else {
            keep
        };
        let mut kept = 0;
        for i in 0..moves.len() {
            let mv = moves[i];
            let keeps = if mv == SWAP {
                swap
            } else {
                keep >> mv & 1 != 0
            };
            if keeps {
                moves.swap(kept, i);
                kept += 1;
            }
        }
        kept
    }

    /// Proof-set pruning (Arneson, Hayward & Henderson 2010): the opponent, to move in
    /// `child`, wins there on `support` (df-pn's, from a search of any depth) or, when df-pn
    /// knows none, by a cell that joins its edges or a connection H-search finds on the child's
    /// filled-in board, which rests on that connection's cells and the opponent's stones. A
    /// stone of the mover's anywhere else leaves that win standing (the fill-in stays sound
    /// with a stone more: a dead cell stays dead), and its stone on `refuted` as well only helps
    /// the mover (an extra stone never hurts its owner). So every move outside those cells
    /// loses too. Before a swap every move is kept. The 36 6x6 openings with the supports df-pn
    /// keeps (below), and without them (what H-search sees in the child alone): see
    /// docs/results/hex.md.
    fn prune_by_refutation(
        &self,
        _refuted: u8,
        child: &Hex,
        support: u128,
        moves: &mut [u8],
    ) -> usize {
        if self.can_swap() || child.can_swap() || child.over {
            return moves.len();
        }
        // (Without df-pn's support, the child's own: its mover, the opponent, wins at once.)
        let proof = if support != ANY_SUPPORT {
            support
        } else {
            child.settled_support()
        };
        if proof == ANY_SUPPORT {
            return moves.len();
        }
        let mut kept = 0;
        for i in 0..moves.len() {
            if moves[i] == SWAP || proof >> moves[i] & 1 != 0 {
                moves.swap(kept, i);
                kept += 1;
            }
        }
        kept
    }

    /// A result's support: cells such that the winner still wins however many of the others
    /// the loser is given (Henderson 2010's proof sets).
    const TRACKS_SUPPORT: bool = true;

    /// The game over: the winner's stones. A win with the next stone: that cell and the
    /// mover's stones. The quiet bounds: the winner's connection between its edges on the
    /// filled-in board (a semi one for the mover, a full one for the opponent), its carrier and
    /// the winner's stones, filled in.
    fn settled_support(&self) -> u128 {
        if self.can_swap() {
            return ANY_SUPPORT;
        }
        let mover = self.black_to_move;
        if self.over {
            return self.side(!mover).0;
        }
        let wins = self.winning_cells(mover);
        if wins != 0 {
            return (wins & wins.wrapping_neg()) | self.side(mover).0;
        }
        let filled = self.filled_in();
        let stones = |black: bool| if black { filled.0 } else { filled.1 };
        let mine = self.edge_connections_of(filled, mover);
        if mine.semi {
            return mine.carrier | stones(mover);
        }
        let theirs = self.edge_connections_of(filled, !mover);
        if theirs.full {
            return theirs.carrier | stones(!mover);
        }
        ANY_SUPPORT
    }

    /// The winning move's child's, and the move's cell.
    fn support_of_win(&self, mv: u8, child_support: u128) -> u128 {
        if mv == SWAP || child_support == ANY_SUPPORT {
            return ANY_SUPPORT;
        }
        child_support | 1u128 << mv
    }

    /// What [`SolverKnowledge::non_losing_moves`] drops rests on the opponent's winning cells,
    /// its stones filled in (its captured cells among them; a cell the mover has captured, or a
    /// dead one, may be the mover's), and its connections: a full one's carrier, or every semi
    /// one's (each move outside the must-play region leaves one of them standing).
    fn support_of_loss(&self) -> u128 {
        if self.can_swap() {
            return ANY_SUPPORT;
        }
        let theirs_black = !self.black_to_move;
        let filled = self.filled_in();
        let found = self.edge_connections_of(filled, theirs_black);
        let connections = if found.full {
            found.carrier
        } else {
            found.semis
        };
        self.threats() | connections | if theirs_black { filled.0 } else { filled.1 }
    }

    /// The half turn reverses the cells (it is its own inverse).
    fn support_image(&self, symmetry: u8, support: u128, _to_key: bool) -> u128 {
        if symmetry == 0 {
            support
        } else {
            half_turn(support, self.size)
        }
    }

    /// After a kept move the opponent has no winning cell: there was none, or the mover took
    /// the only one (a stone of the mover's never makes one for the opponent); after a swap,
    /// Black has no stone.
    const NON_LOSING_PREVENTS_IMMEDIATE_WIN: bool = true;

    const PRUNES_BY_REFUTATION: bool = true;

    /// Two or more winning cells of the opponent: the opponent wins.
    fn forced_loss_value(&self) -> Option<Score> {
        Some(-self.to_move().sign())
    }

    /// The opponent's one winning cell, when the mover may not swap.
    fn forced_move(&self) -> Option<u8> {
        if self.over || self.can_swap() {
            return None;
        }
        let threats = self.threats();
        (threats != 0 && threats & (threats - 1) == 0).then(|| threats.trailing_zeros() as u8)
    }

    /// Higher first by the resistance evaluation over H-search's connections on the
    /// filled-in board (the share of each player's current between its edges that runs
    /// through the cell, the larger of the two: `vc::connection_currents`), then by rank: next
    /// to the opponent's stones, then the mover's, then near the centre; a swap last. The 36
    /// 6x6 openings (df-pn, nodes, at b54da2b): focused at 0.25, 262,675 by the larger current
    /// and 282,733 by the two added (Benzene's); weighing every child, 335,717, 337,255 and
    /// 344,136 by the rank alone, which focused does worse (386,650 at 0.5). A circuit over
    /// neighbours alone, without the connections, did worse than the rank.
    fn order_moves(&self, moves: &mut [u8]) {
        if moves.len() < 2 {
            return;
        }
        let (mine, theirs) = self.currents();
        let mut keys = [0u64; 128];
        let n = moves.len().min(128);
        for (k, &mv) in keys.iter_mut().zip(moves.iter()) {
            let current = if mv == SWAP {
                0
            } else {
                u64::from(mine[usize::from(mv)].max(theirs[usize::from(mv)]))
            };
            // The current turned so that the best sorts first, above the rank, above the move.
            *k = (0x3_FFFF - current.min(0x3_FFFF)) << 32
                | u64::from(0xFF_FFFF - self.cell_rank(mv)) << 8
                | u64::from(mv);
        }
        keys[..n].sort_unstable();
        for (m, k) in moves.iter_mut().zip(&keys[..n]) {
            *m = *k as u8;
        }
    }

    /// The least key of the position and its half turn (which keeps each player's edges):
    /// symmetry 1 when it is the turned one's.
    fn canonical_key(&self) -> Option<(u64, u8)> {
        let own = self.key();
        let turned = self.key_of(
            half_turn(self.black, self.size),
            half_turn(self.white, self.size),
        );
        Some(if turned < own { (turned, 1) } else { (own, 0) })
    }

    /// Moves go cell by cell, then a swap: the half turn reverses the cells' order and keeps
    /// the swap last.
    fn index_to_key(&self, symmetry: u8, index: u8) -> u8 {
        if symmetry == 0 {
            return index;
        }
        let cells = self.empty().count_ones() as u8;
        if index < cells {
            cells - 1 - index
        } else {
            index
        }
    }

    fn index_from_key(&self, symmetry: u8, index: u8) -> u8 {
        // The half turn is its own inverse.
        self.index_to_key(symmetry, index)
    }

    /// A player joined to its edges by disjoint bridges ([`Hex::virtually_joined`]) wins, and
    /// so does the mover when one stone would join it so — unless White may still swap (and
    /// take Black's stone).
    fn quiet_bounds(&self) -> Option<(Score, Score)> {
        if self.can_swap() {
            return self.value_bounds();
        }
        let sign = self.to_move().sign();
        let filled = self.filled_in();
        let mine = self.edge_connections_of(filled, self.black_to_move);
        if mine.full {
            return Some((sign, sign));
        }
        if self.edge_connections_of(filled, !self.black_to_move).full {
            return Some((-sign, -sign));
        }
        // (Black's first stone may be swapped.)
        let swappable = self.swap_rule && self.black == 0 && self.white == 0;
        if !swappable && mine.semi {
            return Some((sign, sign));
        }
        Some((-1, 1))
    }

    /// A value is ±1, so the first null-window test decides it.
    const GUESS_BY_DEEPENING: bool = false;

    /// df-pn weighs a quarter of a node's live children (and one more) in the order above,
    /// as Benzene's does (the 36 6x6 openings at b54da2b: 262,675 nodes against 335,717
    /// weighing every child; 289,351 at 0.5, 308,908 at 0.15).
    const DFPN_FOCUS: Option<f64> = Some(0.25);

    /// No draws: a value is ±1.
    const DRAWS: bool = false;

    fn plies_left_at_most(&self) -> Option<u32> {
        Some(self.empty().count_ones() + u32::from(self.can_swap()))
    }
}
