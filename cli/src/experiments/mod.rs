//! The published figures we reproduce, each a function returning a table (and the CLI's
//! `experiment` command printing it).

pub mod boards;
pub mod cns;
pub mod domineering;
pub mod engines;
pub mod hex;
pub mod pearl_kalah;
pub mod ratios;
pub mod svg;

use gamesearch::Game;
use rand::Rng;

/// The position after `plies` uniformly random moves from `start`, or `None` if the game ended
/// on the way (or at the end): how the experiments, benchmarks and matches make their seeded
/// test positions.
///
/// ```
/// use gamesearch_games::Connect4;
/// use gamesearch_cli::experiments::random_play;
/// use rand::SeedableRng;
/// let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(1);
/// let p = random_play(&Connect4::new(7, 6).unwrap(), 4, &mut rng).unwrap();
/// assert_eq!(p.moves_played(), 4);
/// ```
pub fn random_play<G: Game>(start: &G, plies: u32, rng: &mut impl Rng) -> Option<G> {
    random_line(start, plies, rng).map(|(p, _)| p)
}

/// [`random_play`] with the moves that reached the position (the same position for the same
/// seed).
pub fn random_line<G: Game>(
    start: &G,
    plies: u32,
    rng: &mut impl Rng,
) -> Option<(G, Vec<G::Move>)> {
    let mut p = start.clone();
    let mut line = Vec::with_capacity(plies as usize);
    for _ in 0..plies {
        let moves: Vec<G::Move> = p.moves().collect();
        if moves.is_empty() {
            return None;
        }
        let m = moves[rng.gen_range(0..moves.len())];
        line.push(m);
        p = p.play(m);
    }
    p.moves().next().is_some().then_some((p, line))
}
