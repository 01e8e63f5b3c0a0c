//! Kalah's rules and text form.

use super::*;

fn k(s: &str) -> Kalah {
    s.parse().unwrap()
}

#[test]
fn sowing_skips_the_opponents_store_and_laps_into_the_start_pit() {
    // South pit 3 of 3 with 8 seeds: store, N1..N3, (skip N store), S1, S2, S3 (start), store.
    let p = k("1,1,8/1,1,1/0,0/S").play(2);
    assert_eq!(p.to_string(), "2,2,1/2,2,2/2,0/S"); // last seed in the store: moves again
                                                    // 14 seeds from South's pit 1 of 3 (7 holes a lap): two full laps.
    let p = k("14,1,1/1,1,1/0,0/S").play(0);
    assert_eq!(p.stores().1, 0, "North's store is skipped");
    assert_eq!(p.total_seeds(), 19);
}

#[test]
fn capture_takes_the_seed_and_the_opposite_pit_even_if_empty() {
    // South pit 1 (1 seed) lands in empty pit 2; opposite is North's pit 2 (index 2m-1 = 5-1).
    let p = k("1,0,3/1,4,1/0,0/S").play(0);
    assert_eq!(p.to_string(), "0,0,3/1,0,1/5,0/N");
    // Opposite pit empty: the single seed still goes to the store.
    let p = k("1,0,3/1,0,1/0,0/S").play(0);
    assert_eq!(p.to_string(), "0,0,3/1,0,1/1,0/N");
    // Landing in an empty pit on the opponent's side captures nothing.
    let p = k("1,0,2/0,1,1/0,0/S").play(2);
    assert_eq!(p.to_string(), "1,0,0/1,1,1/1,0/N");
}

#[test]
fn empty_side_ends_the_game_and_each_side_sweeps_its_own() {
    // South empties its side with a capture-free move into North's side.
    let p = k("0,0,2/3,1,0/4,1/S").play(2);
    assert!(p.is_over());
    assert_eq!(p.stores(), (5, 1 + 3 + 1 + 1));
    assert_eq!(p.moves().count(), 0);
    assert_eq!(p.evaluate(), 5 - 6);
}

#[test]
fn north_moves_and_captures_on_its_side() {
    // North pit 1 (index m+1) with 1 seed into empty North pit 2; opposite is South pit 2.
    let p = k("1,7,1/1,0,2/0,0/N").play(0);
    assert_eq!(p.to_string(), "1,0,1/0,0,2/0,8/S");
}

#[test]
fn illegal_moves_and_bad_text_are_errors() {
    let p = k("0,1,1/1,1,1/0,0/S");
    assert!(p.try_play(0).is_err());
    assert!(p.try_play(3).is_err());
    assert!(p.try_play(1).is_ok());
    for bad in [
        "",
        "6",
        "9,1",
        "0,4",
        "1,2/3/0,0/S",
        "1,1/1,1/0/S",
        "1,1/1,1/0,0/X",
        "a,1/1,1/0,0/S",
        "0,0/1,1/0,0/S",
        "200,200/1,1/0,0/S",
    ] {
        assert!(bad.parse::<Kalah>().is_err(), "{bad}");
    }
}
