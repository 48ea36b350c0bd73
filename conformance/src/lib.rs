//! Conformance tooling for Corrected UTF-8, UTF-8 and UTF-∞-8.
//!
//! * [`literal`]: spec-literal encoders and decoders written from the source tables as
//!   data. They share no code with the reference codec (`corrected-utf8`): the vectors'
//!   expected results come from here, and the codec must then agree.
//! * [`vectors`]: the serde model of the JSON vector files and their generator
//!   (`conformance generate`).
//! * [`run`]: the conformance runner (`conformance run`): the vectors against the
//!   reference codec or any implementation over a line protocol, with reports.
//! * [`audit`]: Table 3.1b as transcribed against Table 3-7 (`conformance audit`).
#![deny(missing_docs)]

pub mod audit;
pub mod literal;
pub mod run;
pub mod vectors;
