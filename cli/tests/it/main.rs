//! The integration tests of `cutf8`, in one test binary: a module per behaviour, each
//! driving the built binary.
//!
//! * [`commands`]: each subcommand and each error path, snapshotted;
//! * [`streams`]: standard streams that are closed, full or hung up;
//! * [`limits`]: the memory ceilings, under `setrlimit`;
//! * [`memory`]: constant memory on endless hostile streams;
//! * [`names`]: file names with control characters, escaped;
//! * [`readme`]: the README's examples, run.

mod commands;
mod common;
mod limits;
mod memory;
mod names;
mod readme;
mod streams;
