//! The codec's integration tests, in one test binary: a module per part of SPEC.md and
//! per surface of the crate.
//!
//! `tests/fast.rs` (the fast paths against the careful ones) is a binary of its own, so
//! that Miri runs it alone (`cargo miri test --test fast`); `tests/fast_long.rs` (texts
//! longer than a stretch, too slow to interpret) is another, and both share
//! `tests/fast_checks/`.

mod common;
mod document;
mod exhaustive;
mod kinds;
mod messages;
mod sources;
mod surface;
mod utf_inf8;
