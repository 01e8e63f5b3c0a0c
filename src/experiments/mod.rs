//! The published figures we reproduce, each a function returning a table (and the CLI's
//! `experiment` command printing it).

pub mod ratios;
