//! Code shared by several test binaries (a folder module, so Cargo does not build it as a
//! test of its own).

pub mod fixtures;
pub mod prereq;
pub mod process;
pub mod schema;
