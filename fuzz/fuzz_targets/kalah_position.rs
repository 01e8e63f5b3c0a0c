//! Kalah's text form (`S1,…,Sm/N1,…,Nm/STORE_S,STORE_N/S|N`): parses or is an error, prints back
//! to text that parses to the same position, and is searched.
#![no_main]
use gamesearch_games::Kalah;
use libfuzzer_sys::fuzz_target;

#[path = "common.rs"]
mod common;

fuzz_target!(|s: &str| {
    let Ok(k) = s.parse::<Kalah>() else { return };
    let again: Kalah = k.to_string().parse().expect("Display's text parses");
    assert_eq!(again.to_string(), k.to_string());
    common::exercise(&k);
});
