//! `gamesearch combine`: the jobs' results (the lines `gamesearch solve --job` prints) backed up
//! the top tree of the same split: the root's value and best move.

use std::collections::{HashMap, HashSet};
use std::io::BufRead;

use anyhow::{bail, Context, Result};
use clap::Args;
use gamesearch::split::{split_text, JobResult};

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
    /// Print JSON for tools instead of text.
    #[arg(long)]
    pub json: bool,
}

/// Runs `gamesearch combine`.
pub fn run(args: CombineArgs) -> Result<()> {
    let s = split_text(&args.game, args.plies, usize::MAX)?;
    let known: HashSet<&str> = s.jobs().iter().map(|j| j.key.as_str()).collect();
    let mut values: HashMap<String, i32> = HashMap::new();
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
