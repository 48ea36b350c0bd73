//! Benchmark support for `corrected-utf8`: the texts every measurement runs on and the
//! yardsticks (simdutf, simdutf8, `std`) they are compared with.

#![deny(missing_docs)]

pub mod texts;
pub mod yardstick;
