//! The options of the project's own tools: `generate`, `audit`, `seed-corpus`.

use std::path::PathBuf;

/// The options of `conformance generate`.
#[derive(clap::Args, Clone, Debug)]
pub struct GenerateOptions {
    /// Write nothing; exit non-zero if any committed file differs from what would be written.
    #[arg(long)]
    pub check: bool,
    /// The vectors directory (default: vectors/ of this checkout).
    #[arg(long, value_name = "DIR")]
    pub vectors: Option<PathBuf>,
}

/// The options of `conformance audit`.
#[derive(clap::Args, Clone, Debug)]
pub struct AuditOptions {
    /// Longest input length to check (1 to 4).
    #[arg(long, default_value_t = 4)]
    pub max_len: usize,
    /// Check every input one by one instead of by byte classes (slow; a cross-check).
    #[arg(long)]
    pub brute_force: bool,
    /// Audit Table 3.1b amended (row 6 corrected, rows 11-16 added) instead of as
    /// transcribed.
    #[arg(long)]
    pub amended: bool,
}

/// The options of `conformance seed-corpus`.
#[derive(clap::Args, Clone, Debug)]
pub struct SeedCorpusOptions {
    /// The vectors directory (default: vectors/ of this checkout).
    #[arg(long, value_name = "DIR")]
    pub vectors: Option<PathBuf>,
    /// Where to write (default: corpus/ of this checkout).
    #[arg(long, value_name = "DIR")]
    pub out: Option<PathBuf>,
}
