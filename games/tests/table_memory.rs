//! A transposition table costs the memory of the part a search uses, not of its size: its pages
//! are mapped zeroed and touched only when a search reaches them. (Alone in its test binary, so
//! that no other test's memory moves the resident size it reads.)

use gamesearch::{ExactSolver, SolveConfig};
use gamesearch_games::Connect4;

/// Resident bytes of this process (Linux).
#[cfg(target_os = "linux")]
fn resident() -> usize {
    let statm = std::fs::read_to_string("/proc/self/statm").unwrap();
    let pages: usize = statm.split_whitespace().nth(1).unwrap().parse().unwrap();
    // SAFETY: sysconf only reads a system setting.
    let page = unsafe { libc::sysconf(libc::_SC_PAGESIZE) };
    pages * usize::try_from(page).unwrap()
}

#[cfg(target_os = "linux")]
#[test]
fn a_large_table_costs_only_what_a_search_touches() {
    const MIB: usize = 1 << 20;
    let before = resident();
    let cfg = SolveConfig {
        tt_bytes: 512 * MIB,
        id_depth: 0,
        ..SolveConfig::default()
    };
    let mut solver = ExactSolver::<Connect4>::new(&cfg).unwrap();
    let made = resident();
    assert!(
        made - before < 16 * MIB,
        "a 512 MiB table made {} MiB resident",
        (made - before) / MIB
    );
    // A small solve (5x4, a draw) touches a few MiB of it.
    let s = solver
        .solve(&Connect4::new(5, 4).unwrap(), &cfg, |_| {})
        .unwrap();
    assert_eq!(s.value, Some(0));
    let solved = resident();
    assert!(
        solved - before < 32 * MIB,
        "{} MiB resident after a small solve",
        (solved - before) / MIB
    );
}
