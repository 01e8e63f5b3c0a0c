//! Explicit-tree text: parses or is an error (never a stack overflow), and a tree that parses is
//! searched, its evaluation log and height consistent.
#![no_main]
use gamesearch::trees::ExplicitTree;
use libfuzzer_sys::fuzz_target;

#[path = "common.rs"]
mod common;

fuzz_target!(|s: &str| {
    let Ok(tree) = ExplicitTree::parse(s) else {
        return;
    };
    assert!(!tree.nodes().is_empty());
    let _ = tree.height();
    common::exercise(&tree.root());
    let _ = tree.evaluated();
});
