//! The published results of Hex's openings on small boards: which first moves of Black win
//! (without the swap rule).
//!
//! Sources: 4x4's winning openings are the short diagonal, from one obtuse corner to the
//! other (Hayward & van Rijswijck, "Hex and combinatorics", 2006); 5x5's are the table of
//! Benzene's df-pn (`mohex`, `dfpn-solve-state` after each opening) run here on the 25
//! openings, which the hand analyses of the small boards agree with. The 6x6 and 7x7 tables are the expected answers of Benzene's regression files
//! `regression/dfpn-solve-6x6.tst` and `regression/dfpn-solve-7x7.tst` (Arneson, Hayward &
//! Henderson's solver, `cgao3/benzene-vanilla-cmake`), which state the winner after each of
//! Black's first moves — for 7x7, 25 of the 49, the rest following by the half turn, which
//! keeps each player's edges. They are the results first published for 6x6 by van Rijswijck's
//! Queenbee and for 7x7 by Hayward et al. (2003).

/// The result of each opening on an n×n board: n rows of n letters from `a1` (row 1 first),
/// `B` when Black's first move there wins, `W` when it loses; `None` for sizes with no
/// published table here.
///
/// ```
/// use gamesearch_games::hex::published::openings;
/// let six = openings(6).unwrap();
/// assert_eq!(six[0], "WWWWWB"); // a1…f1: only f1, the obtuse corner, wins
/// assert!(openings(12).is_none());
/// ```
pub fn openings(size: usize) -> Option<&'static [&'static str]> {
    match size {
        4 => Some(&FOUR),
        5 => Some(&FIVE),
        6 => Some(&SIX),
        7 => Some(&SEVEN),
        _ => None,
    }
}

/// 4x4: the short diagonal.
const FOUR: [&str; 4] = ["WWWB", "WWBW", "WBWW", "BWWW"];

/// 5x5: Benzene's df-pn, every opening.
const FIVE: [&str; 5] = ["WWWWB", "WBBBB", "WBBBW", "BBBBW", "BWWWW"];

/// 6x6: `regression/dfpn-solve-6x6.tst`, all 36 openings.
const SIX: [&str; 6] = ["WWWWWB", "WBBBBB", "BBBBBB", "BBBBBB", "BBBBBW", "BWWWWW"];

/// 7x7: `regression/dfpn-solve-7x7.tst` (a1…d4 in its order), the rest by the half turn.
const SEVEN: [&str; 7] = [
    "WWWWWWB", "WWBWBBB", "WBBBBBW", "BBBBBBB", "WBBBBBW", "BBBWBWW", "BWWWWWW",
];
