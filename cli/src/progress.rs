//! Progress on stderr for long work, with indicatif: a line that shows what runs, its nodes and
//! nodes per second (read from the search's node counter every quarter second), or a bar of
//! steps done with an ETA. Hidden when stderr is not a terminal or with `--quiet`; stdout (the
//! result, or `--json`) is never touched.

use std::io::IsTerminal;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Arc;
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

/// Whether progress is drawn: stderr is a terminal and the user did not ask for quiet.
pub fn visible(quiet: bool) -> bool {
    !quiet && std::io::stderr().is_terminal()
}

/// `12.3 M`, `456 k`, `789`: counts as people read them.
///
/// ```
/// use gamesearch_cli::progress::count;
/// assert_eq!(count(789.0), "789");
/// assert_eq!(count(45_600.0), "45.6 k");
/// assert_eq!(count(12_300_000.0), "12.3 M");
/// ```
pub fn count(n: f64) -> String {
    if n >= 1e9 {
        format!("{:.2} G", n / 1e9)
    } else if n >= 1e6 {
        format!("{:.1} M", n / 1e6)
    } else if n >= 1e3 {
        format!("{:.1} k", n / 1e3)
    } else {
        format!("{n:.0}")
    }
}

/// A live line for one search: `⠋ [00:00:03] alphabeta  1.2 M nodes  3.4 M nodes/s  <message>`.
/// The search publishes its node count in [`Activity::counter`] (give it to
/// `Limits::with_node_counter`).
pub struct Activity {
    bar: ProgressBar,
    counter: Arc<AtomicU64>,
    done: Arc<AtomicBool>,
    ticker: Option<JoinHandle<()>>,
}

impl Activity {
    /// Starts the line (hidden unless `visible`).
    pub fn start(visible: bool, what: &str) -> Activity {
        let bar = if visible {
            let b = ProgressBar::with_draw_target(None, ProgressDrawTarget::stderr_with_hz(4));
            b.set_style(
                ProgressStyle::with_template("{spinner} [{elapsed_precise}] {prefix} {msg}")
                    .expect("a valid template"),
            );
            b.enable_steady_tick(Duration::from_millis(250));
            b
        } else {
            ProgressBar::hidden()
        };
        let counter = Arc::new(AtomicU64::new(0));
        let done = Arc::new(AtomicBool::new(false));
        let ticker = visible.then(|| {
            let (bar, counter, done, what) =
                (bar.clone(), counter.clone(), done.clone(), what.to_string());
            let start = Instant::now();
            std::thread::spawn(move || {
                while !done.load(Ordering::Relaxed) {
                    let n = counter.load(Ordering::Relaxed) as f64;
                    let rate = n / start.elapsed().as_secs_f64().max(1e-3);
                    bar.set_prefix(format!(
                        "{what}  {} nodes  {} nodes/s",
                        count(n),
                        count(rate)
                    ));
                    std::thread::sleep(Duration::from_millis(250));
                }
            })
        });
        Activity {
            bar,
            counter,
            done,
            ticker,
        }
    }

    /// The counter the search keeps up to date.
    pub fn counter(&self) -> Arc<AtomicU64> {
        self.counter.clone()
    }

    /// Replaces the message after the counts (e.g. the bounds proven so far).
    pub fn message(&self, msg: String) {
        self.bar.set_message(msg);
    }

    /// Clears the line.
    pub fn finish(mut self) {
        self.stop();
    }

    fn stop(&mut self) {
        self.done.store(true, Ordering::Relaxed);
        if let Some(t) = self.ticker.take() {
            let _ = t.join();
        }
        self.bar.finish_and_clear();
    }
}

impl Drop for Activity {
    fn drop(&mut self) {
        self.stop();
    }
}

/// A bar of `total` steps with an ETA: positions of a benchmark, cells of an experiment.
pub fn steps(visible: bool, total: u64, what: &str) -> ProgressBar {
    if !visible {
        return ProgressBar::hidden();
    }
    let b = ProgressBar::with_draw_target(Some(total), ProgressDrawTarget::stderr_with_hz(4));
    b.set_style(
        ProgressStyle::with_template(&format!(
            "{what} [{{elapsed_precise}}] {{bar:30}} {{pos}}/{{len}}  {{msg}}  ETA {{eta_known}}"
        ))
        .expect("a valid template")
        .with_key(
            "eta_known",
            |s: &indicatif::ProgressState, w: &mut dyn std::fmt::Write| {
                let _ = w.write_str(&eta_text(s.pos(), s.eta()));
            },
        ),
    );
    b.enable_steady_tick(Duration::from_millis(250));
    b
}

/// The ETA a bar shows after `done` steps: "?" until a step is done (indicatif's estimate is 0 s
/// then, which read as "finished").
pub fn eta_text(done: u64, eta: Duration) -> String {
    if done == 0 {
        "?".into()
    } else {
        format!("{:#}", indicatif::HumanDuration(eta))
    }
}

#[cfg(test)]
mod eta_tests {
    use super::*;

    #[test]
    fn no_eta_before_the_first_step() {
        assert_eq!(eta_text(0, Duration::ZERO), "?");
        assert_eq!(eta_text(3, Duration::from_secs(90)), "2m");
    }
}
