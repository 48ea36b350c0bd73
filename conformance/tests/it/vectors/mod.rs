//! The vector files.

mod lint;
