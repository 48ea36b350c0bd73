//! Conformance tooling for Corrected UTF-8, UTF-8 and UTF-∞-8.
//!
//! * [`literal`]: spec-literal encoders and decoders written from the source tables as
//!   data. They share no code with the reference codec (`corrected-utf8`): the vectors'
//!   expected results come from here, and the codec must then agree.
//! * [`vectors`]: the serde model of the JSON vector files and their generator
//!   (`conformance generate`).
//! * [`run`]: the conformance runner (`conformance run`): the vectors against the
//!   reference codec or any implementation over a line protocol, with reports.
//! * [`checks`]: the property checks behind every fuzz target (`fuzz/`), shared by
//!   libFuzzer, AFL and the corpus replay in `cargo test`.
//! * [`audit`]: Table 3.1b as transcribed against Table 3-7 (`conformance audit`).
//! * [`exhaustive`]: every code point and every input of up to 4 (or 5) bytes, reference
//!   against spec-literal (`conformance exhaustive`).
#![deny(missing_docs)]

pub mod audit;
pub mod checks;
pub mod exhaustive;
pub mod literal;
pub mod run;
pub mod vectors;

// The codec's README (its crates.io page) is compiled and run as a doctest here, next to
// the workspace README's in the codec, so that neither example can go stale.
#[cfg(doctest)]
#[doc = include_str!("../../codec/README.md")]
struct CodecReadmeExample;
