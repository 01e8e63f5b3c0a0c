//! What a match between two engines says: Elo with a 95 % interval from the game pairs, and the
//! sequential probability ratio test that engine testers use to stop a match as soon as it
//! decides (the generalised SPRT on normalised Elo over pentanomial pair results, after Van den
//! Bergh's notes on normalised Elo, as Fishtest and fastchess run it).
//!
//! A match plays each opening twice, colours swapped: a *pair*, whose score for A is 0, ½, 1,
//! 1½ or 2. Counting pairs rather than games takes out most of what the opening gives one side
//! (an opening lost for whoever plays it scores 1 for each engine), so the variance — and the
//! number of games a decision needs — is smaller than games counted one by one.

use std::fmt;

/// Counts of pairs by A's score in them: `[0, ½, 1, 1½, 2]`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize)]
pub struct Pentanomial(pub [u64; 5]);

/// `800 / ln 10`: Elo per unit of `t` (normalised Elo is `t` in these units).
const ELO_PER_T: f64 = 800.0 / std::f64::consts::LN_10;

impl Pentanomial {
    /// Adds a pair in which A scored `score` (0, ½, 1, 1½ or 2; twice that as `halves`).
    pub fn add(&mut self, halves: usize) {
        self.0[halves.min(4)] += 1;
    }

    /// Pairs counted.
    pub fn pairs(&self) -> u64 {
        self.0.iter().sum()
    }

    /// Mean and variance of A's score a game, per pair (the pair's score over 2), each empty
    /// class counted as a thousandth of a pair so that a short match is not certain.
    fn moments(&self) -> (f64, f64) {
        let counts = self.0.map(|c| if c == 0 { 1e-3 } else { c as f64 });
        let n: f64 = counts.iter().sum();
        let score = |i: usize| i as f64 / 4.0;
        let mean = (0..5).map(|i| counts[i] * score(i)).sum::<f64>() / n;
        let var = (0..5)
            .map(|i| counts[i] * (score(i) - mean).powi(2))
            .sum::<f64>()
            / n;
        (mean, var)
    }

    /// A's score a game (win 1, draw ½) over the pairs.
    pub fn score(&self) -> f64 {
        let n = self.pairs();
        if n == 0 {
            return 0.5;
        }
        (0..5)
            .map(|i| self.0[i] as f64 * i as f64 / 4.0)
            .sum::<f64>()
            / n as f64
    }

    /// A's Elo over B (logistic) and its 95 % interval, from the pairs' mean and variance.
    ///
    /// ```
    /// use gamesearch_cli::sprt::Pentanomial;
    /// let even = Pentanomial([5, 10, 20, 10, 5]);
    /// let (elo, lo, hi) = even.elo();
    /// assert!(elo.abs() < 1e-9 && lo < 0.0 && hi > 0.0);
    /// let (elo, lo, _) = Pentanomial([1, 5, 20, 30, 20]).elo();
    /// assert!(elo > 100.0 && lo > 0.0);
    /// ```
    pub fn elo(&self) -> (f64, f64, f64) {
        let (mean, var) = self.moments();
        let n = self.pairs().max(1) as f64;
        let half = 1.96 * (var / n).sqrt();
        (elo(self.score()), elo(mean - half), elo(mean + half))
    }

    /// The log-likelihood ratio of the GSPRT for normalised Elo `nelo1` against `nelo0`:
    /// `pairs · ln((1 + (t − t0)²) / (1 + (t − t1)²))`, `t` the observed score's distance from
    /// ½ in per-game standard deviations (`sqrt(2 · var)` of a pair's mean), `t0`, `t1` the
    /// hypotheses' normalised Elo in units of `800 / ln 10`.
    ///
    /// ```
    /// use gamesearch_cli::sprt::Pentanomial;
    /// // Far more won pairs than lost ones: strong evidence for +10 over 0.
    /// assert!(Pentanomial([2, 10, 40, 60, 30]).llr(0.0, 10.0) > 2.94);
    /// // An even match leans to H0.
    /// assert!(Pentanomial([10, 40, 80, 40, 10]).llr(0.0, 10.0) < 0.0);
    /// ```
    pub fn llr(&self, nelo0: f64, nelo1: f64) -> f64 {
        if self.pairs() == 0 {
            return 0.0;
        }
        let (mean, var) = self.moments();
        let t = (mean - 0.5) / (2.0 * var).sqrt();
        let (t0, t1) = (nelo0 / ELO_PER_T, nelo1 / ELO_PER_T);
        self.pairs() as f64 * ((1.0 + (t - t0).powi(2)) / (1.0 + (t - t1).powi(2))).ln()
    }
}

/// Logistic Elo of a score (clamped short of 0 and 1: ±∞ is no figure).
fn elo(score: f64) -> f64 {
    let s = score.clamp(1e-6, 1.0 - 1e-6);
    // `+ 0.0`: an even score is +0, not −0 (which would print as "-0.0").
    -400.0 * (1.0 / s - 1.0).log10() + 0.0
}

/// The test: H0 normalised Elo `elo0`, H1 `elo1`, false positives `alpha`, false negatives
/// `beta`.
#[derive(Clone, Copy, Debug, PartialEq, serde::Serialize)]
pub struct Sprt {
    /// H0's normalised Elo.
    pub elo0: f64,
    /// H1's normalised Elo.
    pub elo1: f64,
    /// The chance of accepting H1 when H0 holds.
    pub alpha: f64,
    /// The chance of accepting H0 when H1 holds.
    pub beta: f64,
}

/// What the test says so far.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Verdict {
    /// H1 accepted: A is stronger by about `elo1` (normalised).
    H1,
    /// H0 accepted: A is not stronger by `elo1`.
    H0,
    /// Not decided yet.
    Continue,
}

impl fmt::Display for Verdict {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Verdict::H1 => "H1 accepted",
            Verdict::H0 => "H0 accepted",
            Verdict::Continue => "undecided",
        })
    }
}

impl Sprt {
    /// The bounds on the log-likelihood ratio: `ln(β / (1 − α))` and `ln((1 − β) / α)`.
    pub fn bounds(&self) -> (f64, f64) {
        (
            (self.beta / (1.0 - self.alpha)).ln(),
            ((1.0 - self.beta) / self.alpha).ln(),
        )
    }

    /// The verdict on these pairs, and the log-likelihood ratio.
    ///
    /// ```
    /// use gamesearch_cli::sprt::{Pentanomial, Sprt, Verdict};
    /// let test: Sprt = "elo0=0,elo1=10".parse().unwrap();
    /// assert_eq!(test.verdict(&Pentanomial([2, 10, 40, 60, 30])).0, Verdict::H1);
    /// assert_eq!(test.verdict(&Pentanomial([0, 1, 2, 1, 0])).0, Verdict::Continue);
    /// ```
    pub fn verdict(&self, p: &Pentanomial) -> (Verdict, f64) {
        let llr = self.llr(p);
        let (lower, upper) = self.bounds();
        let v = if llr >= upper {
            Verdict::H1
        } else if llr <= lower {
            Verdict::H0
        } else {
            Verdict::Continue
        };
        (v, llr)
    }

    fn llr(&self, p: &Pentanomial) -> f64 {
        p.llr(self.elo0, self.elo1)
    }
}

impl std::str::FromStr for Sprt {
    type Err = String;
    /// `elo0=0,elo1=10[,alpha=0.05,beta=0.05]`.
    ///
    /// ```
    /// use gamesearch_cli::sprt::Sprt;
    /// let t: Sprt = "elo0=0,elo1=5,alpha=0.1".parse().unwrap();
    /// assert_eq!((t.elo1, t.alpha, t.beta), (5.0, 0.1, 0.05));
    /// assert!("elo0=5,elo1=5".parse::<Sprt>().is_err());
    /// assert!("elo1=5".parse::<Sprt>().is_err());
    /// assert!("elo0=0,elo1=5,alpha=0".parse::<Sprt>().is_err());
    /// ```
    fn from_str(s: &str) -> Result<Self, String> {
        let (mut elo0, mut elo1, mut alpha, mut beta) = (None, None, None, None);
        for part in s.split(',').filter(|p| !p.is_empty()) {
            let (k, v) = part
                .split_once('=')
                .ok_or_else(|| format!("`{part}`: expected key=value (elo0, elo1, alpha, beta)"))?;
            let x: f64 = v
                .trim()
                .parse()
                .ok()
                .filter(|x: &f64| x.is_finite())
                .ok_or_else(|| format!("{k}={v}: not a number"))?;
            let slot = match k.trim() {
                "elo0" => &mut elo0,
                "elo1" => &mut elo1,
                "alpha" => &mut alpha,
                "beta" => &mut beta,
                _ => return Err(format!("`{k}`: expected elo0, elo1, alpha or beta")),
            };
            if slot.replace(x).is_some() {
                return Err(format!("`{k}` is given twice"));
            }
        }
        let (Some(elo0), Some(elo1)) = (elo0, elo1) else {
            return Err("the test needs elo0 and elo1 (e.g. elo0=0,elo1=10)".into());
        };
        if elo1 <= elo0 {
            return Err(format!("elo1 ({elo1}) must be greater than elo0 ({elo0})"));
        }
        let (alpha, beta) = (alpha.unwrap_or(0.05), beta.unwrap_or(0.05));
        for (name, p) in [("alpha", alpha), ("beta", beta)] {
            if !(p > 0.0 && p < 0.5) {
                return Err(format!("{name}={p}: must be between 0 and 0.5"));
            }
        }
        Ok(Sprt {
            elo0,
            elo1,
            alpha,
            beta,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The LLR against the normal approximation it refines: for small differences
    /// `ln((1 + (t − t0)²) / (1 + (t − t1)²)) ≈ (t1 − t0)(2t − t0 − t1)`, so the LLR is about
    /// `pairs · (μ1 − μ0)(2μ − μ0 − μ1) / (2σ²)` with `μi = ½ + ti · sqrt(2σ²)` — the textbook
    /// SPRT for a normal mean, computed here apart.
    #[test]
    fn the_llr_agrees_with_the_normal_approximation() {
        let p = Pentanomial([30, 200, 500, 230, 40]);
        let (nelo0, nelo1) = (0.0, 5.0);
        let counts = p.0.map(|c| c as f64);
        let n: f64 = counts.iter().sum();
        let mean = (0..5).map(|i| counts[i] * i as f64 / 4.0).sum::<f64>() / n;
        let var = (0..5)
            .map(|i| counts[i] * (i as f64 / 4.0 - mean).powi(2))
            .sum::<f64>()
            / n;
        let sd = (2.0 * var).sqrt();
        let (m0, m1) = (0.5 + nelo0 / ELO_PER_T * sd, 0.5 + nelo1 / ELO_PER_T * sd);
        let approx = n * (m1 - m0) * (2.0 * mean - m0 - m1) / (2.0 * var);
        let llr = p.llr(nelo0, nelo1);
        assert!(
            (llr - approx).abs() < 0.02 * approx.abs().max(1.0),
            "{llr} vs {approx}"
        );
    }

    #[test]
    fn bounds_are_walds() {
        let t = Sprt {
            elo0: 0.0,
            elo1: 10.0,
            alpha: 0.05,
            beta: 0.05,
        };
        let (lo, hi) = t.bounds();
        assert!((lo + 2.944).abs() < 1e-3 && (hi - 2.944).abs() < 1e-3);
    }

    #[test]
    fn elo_of_a_score() {
        assert!((elo(0.75) - 190.85).abs() < 0.01);
        assert!(elo(0.5).abs() < 1e-9);
        assert!(elo(1.0).is_finite());
    }
}
