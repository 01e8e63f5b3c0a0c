//! `experiment engines`: a round robin of the library's engines on one game at a fixed time a
//! move — every pair plays a match over the same seeded openings, both colours each — and the
//! Elo table the results give.
//!
//! **The ratings** are the maximum-likelihood Elo ratings of the Bradley–Terry (logistic)
//! model (Bradley & Terry 1952) over every game (a draw half a point), centred on a mean of 0, as Coulom's BayesElo
//! and Ordo compute them. Each pairing also counts one virtual draw (a prior, as BayesElo's), so
//! that an engine that won every game has a finite rating. Each rating's 95 % interval is
//! ±1.96 standard errors from the likelihood's curvature in that rating, the others held
//! fixed.

use gamesearch::Limits;
use serde::Serialize;

use crate::play::{play_match, Board, Contender, EngineSpec, Match, Seats, Tally};

/// One pairing's result: engines `a` and `b` (indices), `a`'s tally.
#[derive(Clone, Debug, Serialize)]
pub struct Pairing {
    /// The first engine (the tally is its).
    pub a: usize,
    /// The second engine.
    pub b: usize,
    /// A's wins, draws and losses.
    pub tally: Tally,
}

/// One engine's line of the table.
#[derive(Clone, Debug, Serialize)]
pub struct Standing {
    /// The engine, as its settings read.
    pub engine: String,
    /// Games it played.
    pub games: u32,
    /// Its points (win 1, draw ½) per game.
    pub score: f64,
    /// Its Elo rating (the mean of the table 0).
    pub elo: f64,
    /// The rating's 95 % interval.
    pub elo_ci95: [f64; 2],
}

/// Plays every pair of `engines` on `start`: `openings` seeded openings of `opening_plies`
/// random plies, each twice with the colours swapped. `on_game(pairing, tally)` after each
/// game. The stop flag of `base` ends it with the games played (a pairing cut short counts as
/// far as it went).
pub fn round_robin<G: Board>(
    start: &G,
    engines: &[EngineSpec],
    openings: usize,
    opening_plies: u32,
    seed: u64,
    base: &Limits,
    mut on_game: impl FnMut(usize, &Tally),
) -> anyhow::Result<Vec<Pairing>> {
    let mut out = Vec::new();
    for a in 0..engines.len() {
        for b in a + 1..engines.len() {
            if base.stop_requested() {
                return Ok(out);
            }
            let m = Match {
                a: Contender::Engine(engines[a]),
                b: Contender::Engine(engines[b]),
                openings,
                opening_plies,
                seed,
                sprt: None,
            };
            let mut seats = Seats::start(&m, start)?;
            let k = out.len();
            let tally = play_match(start, &m, None, &mut seats, base, |t| on_game(k, t))?;
            out.push(Pairing { a, b, tally });
        }
    }
    Ok(out)
}

/// The expected score of a player rated `d` Elo above its opponent.
fn expected(d: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-d / 400.0))
}

/// The table: each engine's games, score, rating and interval, from the pairings (see the
/// module's notes).
///
/// ```
/// use gamesearch_cli::experiments::engines::{standings, Pairing};
/// use gamesearch_cli::play::Tally;
/// // A scores 3 of 4 against B: with the virtual draw, 3.5 of 5 = 0.7, i.e. 147 Elo apart.
/// let t = Tally { wins: 3, draws: 0, losses: 1, ..Tally::default() };
/// let s = standings(&["A".into(), "B".into()], &[Pairing { a: 0, b: 1, tally: t }]);
/// assert!((s[0].elo - s[1].elo - 147.2).abs() < 0.1);
/// assert!((s[0].elo + s[1].elo).abs() < 1e-6);
/// ```
pub fn standings(names: &[String], pairings: &[Pairing]) -> Vec<Standing> {
    let n = names.len();
    // Games and points of i against j, the virtual draw included.
    let mut games = vec![vec![0.0f64; n]; n];
    let mut points = vec![vec![0.0f64; n]; n];
    let mut played = vec![0u32; n];
    let mut scored = vec![0.0f64; n];
    for p in pairings {
        let t = &p.tally;
        let g = f64::from(t.wins + t.draws + t.losses);
        if g == 0.0 {
            continue;
        }
        let won = f64::from(t.wins) + 0.5 * f64::from(t.draws);
        games[p.a][p.b] += g + 1.0;
        games[p.b][p.a] += g + 1.0;
        points[p.a][p.b] += won + 0.5;
        points[p.b][p.a] += g - won + 0.5;
        played[p.a] += g as u32;
        played[p.b] += g as u32;
        scored[p.a] += won;
        scored[p.b] += g - won;
    }
    let slope = 10f64.ln() / 400.0;
    let mut elo = vec![0.0f64; n];
    // Newton's method one rating at a time: each step solves for rating i with the others
    // fixed; the likelihood is concave, so the sweeps converge.
    for _ in 0..500 {
        let mut moved = 0.0f64;
        for i in 0..n {
            let (mut expect, mut curve, mut got) = (0.0, 0.0, 0.0);
            for j in 0..n {
                if games[i][j] > 0.0 {
                    let e = expected(elo[i] - elo[j]);
                    expect += games[i][j] * e;
                    curve += games[i][j] * e * (1.0 - e) * slope;
                    got += points[i][j];
                }
            }
            if curve > 0.0 {
                let step = ((got - expect) / curve).clamp(-400.0, 400.0);
                elo[i] += step;
                moved = moved.max(step.abs());
            }
        }
        let mean = elo.iter().sum::<f64>() / n.max(1) as f64;
        elo.iter_mut().for_each(|r| *r -= mean);
        if moved < 1e-9 {
            break;
        }
    }
    (0..n)
        .map(|i| {
            let information: f64 = (0..n)
                .filter(|&j| games[i][j] > 0.0)
                .map(|j| {
                    let e = expected(elo[i] - elo[j]);
                    games[i][j] * e * (1.0 - e) * slope * slope
                })
                .sum();
            let half = if information > 0.0 {
                1.96 / information.sqrt()
            } else {
                f64::INFINITY
            };
            Standing {
                engine: names[i].clone(),
                games: played[i],
                score: if played[i] > 0 {
                    scored[i] / f64::from(played[i])
                } else {
                    0.5
                },
                elo: elo[i],
                elo_ci95: [elo[i] - half, elo[i] + half],
            }
        })
        .collect()
}

/// The table as text: the standings best first, then each pairing's result.
pub fn table(names: &[String], standings: &[Standing], pairings: &[Pairing]) -> String {
    let width = names.iter().map(|n| n.len()).max().unwrap_or(6).max(6);
    let mut order: Vec<&Standing> = standings.iter().collect();
    order.sort_by(|x, y| y.elo.total_cmp(&x.elo));
    let mut s = format!("{:<width$}  games  score      Elo  95% CI\n", "engine");
    for st in order {
        s += &format!(
            "{:<width$}  {:>5}  {:>5.3}  {:>+7.0}  [{:+.0}, {:+.0}]\n",
            st.engine, st.games, st.score, st.elo, st.elo_ci95[0], st.elo_ci95[1]
        );
    }
    s += "\npairings (first engine's wins, draws, losses)\n";
    for p in pairings {
        let t = &p.tally;
        s += &format!(
            "  {} vs {}: +{} ={} -{}\n",
            names[p.a], names[p.b], t.wins, t.draws, t.losses
        );
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pairing(a: usize, b: usize, wins: u32, draws: u32, losses: u32) -> Pairing {
        Pairing {
            a,
            b,
            tally: Tally {
                wins,
                draws,
                losses,
                ..Tally::default()
            },
        }
    }

    #[test]
    fn ratings_fit_every_pairing_s_score_when_they_are_consistent() {
        // A 75 % over B and B 75 % over C (virtual draws included: 7.5 of 10 each), and A
        // against C as the model predicts for a 2 × 190.8 Elo gap: the fit is exact.
        let names: Vec<String> = ["A", "B", "C"].map(String::from).to_vec();
        let gap = 400.0 * 3f64.log10();
        let e = expected(2.0 * gap);
        // A scores e of 101 games against C, plus the virtual draw: solve for real games.
        let games = 1000.0;
        let won = e * (games + 1.0) - 0.5;
        let s = standings(
            &names,
            &[
                pairing(0, 1, 7, 0, 2),
                pairing(1, 2, 7, 0, 2),
                Pairing {
                    a: 0,
                    b: 2,
                    tally: Tally {
                        wins: won.round() as u32,
                        losses: games as u32 - won.round() as u32,
                        ..Tally::default()
                    },
                },
            ],
        );
        assert!((s[0].elo - s[1].elo - gap).abs() < 3.0, "{s:?}");
        assert!((s[1].elo - s[2].elo - gap).abs() < 3.0, "{s:?}");
        assert!(s[0].elo_ci95[0] < s[0].elo && s[0].elo < s[0].elo_ci95[1]);
        // More games, a narrower interval: A's (with 1,009 games) is narrower than B's (18).
        let width = |x: &Standing| x.elo_ci95[1] - x.elo_ci95[0];
        assert!(width(&s[0]) < width(&s[1]));
    }

    #[test]
    fn a_clean_sweep_has_a_finite_rating_and_equal_engines_rate_equal() {
        let names: Vec<String> = ["A", "B"].map(String::from).to_vec();
        let s = standings(&names, &[pairing(0, 1, 20, 0, 0)]);
        assert!(s[0].elo.is_finite() && s[0].elo > 200.0, "{s:?}");
        let s = standings(&names, &[pairing(0, 1, 5, 10, 5)]);
        assert!(s[0].elo.abs() < 1e-6 && s[1].elo.abs() < 1e-6);
        assert_eq!((s[0].games, s[0].score), (20, 0.5));
    }
}
