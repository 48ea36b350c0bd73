//! Code the test modules share: vector files, `sh` adapters, running the binary with a
//! watchdog, the prerequisites, and a JSON Schema validator.

pub mod fixtures;
pub mod prereq;
pub mod process;
pub mod schema;
pub mod sh;
