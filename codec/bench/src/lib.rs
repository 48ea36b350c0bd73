//! Benchmark support for `corrected-utf8`: the texts every measurement runs on, the
//! yardsticks (simdutf, simdutf8, `std`) they are compared with, and the reports (JSON
//! records, verdicts, Markdown tables) of the `throughput` example.

#![deny(missing_docs)]

pub mod report;
pub mod texts;
pub mod yardstick;
