//! The command line's library half: what `gamesearch` (the binary) runs besides the search
//! library itself — the published experiments (which need `rayon` and `rand`) and the progress
//! display, the pictures of a traced search. The binary only parses arguments and prints.

pub mod experiments;
pub mod gtp;
pub mod play;
pub mod progress;
pub mod serve;
pub mod sprt;
pub mod view;
