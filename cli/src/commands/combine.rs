//! `gamesearch combine`: the jobs' results (the lines `gamesearch solve --job` prints) backed up
//! the top tree of the same split: the root's value and best move.

use std::collections::{HashMap, HashSet};
use std::io::BufRead;

use anyhow::{bail, Context, Result};
use clap::Args;
use gamesearch::split::JobResult;
use gamesearch_games::split::split_text;

use crate::args::whole;

/// Combine the results of a split's jobs into the root's value and best move.
#[derive(Args)]
pub struct CombineArgs {
    /// The position that was split, as given to `gamesearch split`.
    pub game: String,
    /// The ply it was split at.
    #[arg(long, allow_negative_numbers = true, value_parser = whole::<u32>(0, 64))]
    pub plies: u32,
    /// Files of result lines (default, or `-`: standard input).
    pub results: Vec<String>,
    /// Also write the results as an opening book to this file (for `solve --book`, `play
    /// --book`): every job with a result and every position above them whose value they prove
    /// (or bound). Written even when some jobs have no result yet.
    #[arg(long)]
    pub book: Option<String>,
    /// Print JSON for tools instead of text.
    #[arg(long)]
    pub json: bool,
}

/// Runs `gamesearch combine`.
pub fn run(args: CombineArgs) -> Result<()> {
    let s = split_text(&args.game, args.plies, usize::MAX)?;
    let known: HashSet<&str> = s.jobs().iter().map(|j| j.key.as_str()).collect();
    let mut values: HashMap<String, i32> = HashMap::new();
    // Every result's bounds (a window's answer too) and best move, for the book.
    let mut answers: HashMap<String, ((i32, i32), Option<String>)> = HashMap::new();
    let files = if args.results.is_empty() {
        vec!["-".to_string()]
    } else {
        args.results.clone()
    };
    for file in &files {
        let reader: Box<dyn BufRead> = if file == "-" {
            Box::new(std::io::stdin().lock())
        } else {
            Box::new(std::io::BufReader::new(
                std::fs::File::open(file).with_context(|| file.clone())?,
            ))
        };
        for (i, line) in reader.lines().enumerate() {
            let line = line.with_context(|| file.clone())?;
            if line.trim().is_empty() {
                continue;
            }
            let r: JobResult = serde_json::from_str(&line)
                .with_context(|| format!("{file}:{}: not a result line", i + 1))?;
            if !known.contains(r.key.as_str()) {
                bail!(
                    "{file}:{}: job {} is not a job of {} split at ply {}",
                    i + 1,
                    r.key,
                    args.game,
                    args.plies
                );
            }
            let (lo, hi) = answers
                .get(&r.key)
                .map_or((r.lower, r.upper), |&((a, b), _)| {
                    (a.max(r.lower), b.min(r.upper))
                });
            if lo > hi {
                bail!(
                    "{file}:{}: job {} has results that contradict each other ([{}, {}] against an earlier one)",
                    i + 1,
                    r.key,
                    r.lower,
                    r.upper
                );
            }
            let best = r.best_move.clone().filter(|_| r.value.is_some());
            let entry = answers.entry(r.key.clone()).or_insert(((lo, hi), None));
            entry.0 = (lo, hi);
            if entry.1.is_none() {
                entry.1 = best;
            }
            // A result with bounds only (a job asked a window) counts as none.
            let Some(value) = r.value else { continue };
            if let Some(&v) = values.get(&r.key) {
                if v != value {
                    bail!(
                        "{file}:{}: job {} has two values, {v} and {value}",
                        i + 1,
                        r.key
                    );
                }
            }
            values.insert(r.key, value);
        }
    }
    if let Some(path) = &args.book {
        let source = format!("{} split at ply {}", args.game, args.plies);
        let book = s.book(&answers, &source)?;
        book.write(path)?;
        eprintln!(
            "book {path}: {} positions ({} exact) from {} of {} jobs, {}",
            book.len(),
            book.exact(),
            answers.len(),
            s.jobs().len(),
            gamesearch::error::human_bytes(book.to_bytes().len())
        );
    }
    let c = s.combine(&values);
    let Some(value) = c.value else {
        let missing = s
            .jobs()
            .iter()
            .filter(|j| !values.contains_key(&j.key))
            .count();
        bail!(
            "{missing} of {} jobs have no result yet (the root's value waits for them)",
            s.jobs().len()
        );
    };
    if args.json {
        println!(
            "{}",
            serde_json::json!({
                "game": args.game,
                "plies": args.plies,
                "value": value,
                "best_move": c.best_move,
                "jobs": s.jobs().len(),
                "results": values.len(),
            })
        );
    } else {
        println!(
            "{}: value {value}, best move {} ({} jobs combined)",
            args.game,
            c.best_move.as_deref().unwrap_or("-"),
            s.jobs().len()
        );
    }
    Ok(())
}
