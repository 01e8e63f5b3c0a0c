//! The published figures we reproduce, each a function returning a table (and the CLI's
//! `experiment` command printing it).

pub mod cns;
pub mod pearl_kalah;
pub mod ratios;
pub mod svg;
