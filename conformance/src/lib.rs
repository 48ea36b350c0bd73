//! Conformance tooling for Corrected UTF-8, UTF-8 and UTF-∞-8.
//!
//! The spec-literal code is the crate `conformance_literal` (no dependencies, so it shares
//! no code with the codec) and the fuzz targets' checks are `conformance_checks`; this
//! crate holds the tools built on them:
//!
//! * [`vectors`]: the serde model of the JSON vector files and their generator
//!   (`conformance generate`).
//! * [`run`]: the conformance runner (`conformance run`): the vectors against the
//!   reference codec or any implementation over a line protocol, with reports.
//! * [`seed_corpus`]: the fuzz corpus seeded from the vectors (`conformance seed-corpus`).
//! * [`audit`]: Table 3.1b as transcribed against Table 3-7 (`conformance audit`).
//! * [`exhaustive`]: every code point and every input of up to 4 (or 5) bytes, reference
//!   against spec-literal (`conformance exhaustive`).
//! * [`adapter_check`]: the same walk, and structure-aware differential fuzzing
//!   (`conformance fuzz`), against any implementation behind an adapter.
//! * [`adapter_spec`], [`exit`] and [`files`]: what the subcommands share — `--adapter NAME=COMMAND`,
//!   the exit codes and the usage error, inputs read with caps and outputs written atomically;
//!   [`console`]: the standard streams, written without panicking ([`outln!`](crate::outln), [`errln!`](crate::errln)).
#![deny(missing_docs)]
// A closed pipe or a full disk on stdout must not panic (exit 101): print through
// `outln!` / `errln!` (module `console`).
#![deny(clippy::print_stdout, clippy::print_stderr)]

pub mod adapter_check;
pub mod adapter_spec;
pub mod audit;
pub mod console;
pub mod exhaustive;
pub mod exit;
pub mod files;
pub mod run;
pub mod seed_corpus;
pub mod vectors;

// The workspace README's example is compiled and run as a doctest here (the codec
// doctests its own README), so that neither can go stale.
#[cfg(doctest)]
#[doc = include_str!("../../README.md")]
struct WorkspaceReadmeExample;
