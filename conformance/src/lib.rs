//! Conformance tooling for Corrected UTF-8, UTF-8 and UTF-∞-8.
//!
//! The spec-literal code is the crate `conformance_literal` (no dependencies, so it shares
//! no code with the codec) and the fuzz targets' checks are `conformance_checks`; this
//! crate holds the tools built on them. Each tool is a library entry point taking a plain
//! configuration (the `conformance` binary's `cli` module only parses the command line
//! into it):
//!
//! * [`run`]: the conformance runner (`conformance run`): the vectors against the
//!   reference codec or any implementation over the line protocol, with the gate.
//! * [`exhaustive`]: every code point and every short input, the reference against the
//!   spec-literal code, or any implementation behind an adapter (`conformance exhaustive`),
//!   as one resumable walk.
//! * [`fuzz`]: structure-aware differential fuzzing of an implementation behind an adapter
//!   (`conformance fuzz`).
//! * [`serve`]: the reference codec as an adapter (`conformance serve`).
//! * [`vectors`]: the vector files' generator (`conformance generate`); [`audit`]: Table
//!   3.1b against Table 3-7 (`conformance audit`); [`seed_corpus`]: the fuzz corpus seeded
//!   from the vectors (`conformance seed-corpus`).
//!
//! Below them, the core every tool shares, so that a guarantee is made once:
//!
//! * [`case`]: a case, one test with its expected answer, and a suite of them.
//! * [`protocol`]: the line protocol: the hello and its declaration, requests, answers.
//! * [`adapter`]: an implementation behind a command (the process client: start, hello,
//!   batches, timeouts, restarts, killing what it started).
//! * [`reference`]: the built-in implementation, the reference codec.
//! * [`judge`]: one answer against its case and the declaration: the verdict.
//! * [`differential`]: inputs made at run time, judged against the spec-literal code
//!   ([`differential::oracle`]), disagreements written as vector files.
//! * [`report`]: what a run reports (the model and its terminal, JSON, JUnit and HTML
//!   forms) and how every tool writes its report files.
//! * [`adapter_spec`], [`exit`], [`files`], [`text`] and [`console`]: `--adapter
//!   NAME=COMMAND`, the exit codes and the usage error, inputs read with caps and outputs
//!   written atomically, text cut to a bound, and the standard streams written without
//!   panicking ([`outln!`](crate::outln), [`errln!`](crate::errln)).
#![deny(missing_docs)]
// A closed pipe or a full disk on stdout must not panic (exit 101): print through
// `outln!` / `errln!` (module `console`).
#![deny(clippy::print_stdout, clippy::print_stderr)]

pub mod adapter;
pub mod adapter_spec;
pub mod audit;
pub mod case;
pub mod console;
pub mod differential;
pub mod exhaustive;
pub mod exit;
pub mod files;
pub mod fuzz;
pub mod judge;
pub mod protocol;
pub mod reference;
pub mod report;
pub mod run;
pub mod seed_corpus;
pub mod serve;
pub mod text;
pub mod vectors;

// The workspace README's example is compiled and run as a doctest here (the codec
// doctests its own README), so that neither can go stale.
#[cfg(doctest)]
#[doc = include_str!("../../README.md")]
struct WorkspaceReadmeExample;
