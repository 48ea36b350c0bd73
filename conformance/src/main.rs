//! `conformance`: generate and audit the vectors, run implementations against them.
//!
//! Each subcommand's logic lives in the library; this file only parses arguments, and
//! checks the standard streams first and stdout's fate last (`conformance::console`).
#![deny(clippy::print_stdout, clippy::print_stderr)]

use clap::{Parser, Subcommand};
use conformance::console::{self, Stream};
use std::path::PathBuf;
use std::process::ExitCode;

#[derive(Parser)]
#[command(
    name = "conformance",
    version,
    about = "Conformance tooling for Corrected UTF-8, UTF-8 and UTF-∞-8"
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Rewrite vectors/ from the spec-literal code (tcIds of existing cases are kept).
    Generate {
        /// Write nothing; exit non-zero if any committed file differs from what would be written.
        #[arg(long)]
        check: bool,
        /// The vectors directory (default: vectors/ of this checkout).
        #[arg(long, value_name = "DIR")]
        vectors: Option<PathBuf>,
    },
    /// Compare Table 3.1b (as transcribed, or --amended) with Table 3-7 over every input
    /// of 1 to 4 bytes.
    Audit {
        /// Longest input length to check (1 to 4).
        #[arg(long, default_value_t = 4)]
        max_len: usize,
        /// Check every input one by one instead of by byte classes (slow; a cross-check).
        #[arg(long)]
        brute_force: bool,
        /// Audit Table 3.1b amended (row 6 corrected, rows 11-16 added) instead of as
        /// transcribed.
        #[arg(long)]
        amended: bool,
    },
    /// Run the vectors against the reference codec or adapters (conformance/README.md).
    Run(conformance::run::RunArgs),
    /// The reference codec as a protocol-2 adapter on stdin/stdout (batches, streaming):
    /// the model adapter (conformance/adapters/README.md).
    Serve(conformance::run::serve::ServeArgs),
    /// Every code point and every input of 1 to 4 (or --max-len) bytes, reference codec
    /// against the spec-literal code and std (rayon; progress on stderr).
    Exhaustive(conformance::exhaustive::Args),
    /// Structure-aware differential fuzzing of an adapter against the spec-literal code;
    /// disagreements are minimized and written as vector files.
    Fuzz(conformance::adapter_check::fuzz::Args),
    /// Write every vector's input into corpus/<target>/ in each fuzz target's layout
    /// (then `fuzz/seed-corpus.sh` minimizes it with `cargo fuzz cmin`).
    SeedCorpus {
        /// The vectors directory (default: vectors/ of this checkout).
        #[arg(long, value_name = "DIR")]
        vectors: Option<PathBuf>,
        /// Where to write (default: corpus/ of this checkout).
        #[arg(long, value_name = "DIR")]
        out: Option<PathBuf>,
    },
}

fn main() -> ExitCode {
    // A closed stdout or stderr (`>&-`): exit 2 before anything runs, as coreutils do.
    if let Err(closed) = console::check_standard_streams(&[Stream::Stdout, Stream::Stderr]) {
        conformance::errln!("conformance: {} is closed (exit 2)", closed.name());
        return ExitCode::from(2);
    }
    let command = Cli::parse().command;
    // `serve` answers what it reads: a closed stdin is not an empty one.
    if matches!(command, Command::Serve(_)) {
        if let Err(closed) = console::check_standard_streams(&[Stream::Stdin]) {
            conformance::errln!("conformance serve: {} is closed (exit 2)", closed.name());
            return ExitCode::from(2);
        }
    }
    let code = dispatch(command);
    // Whatever the verdict, output that could not be written is exit 2.
    if console::exit_code("conformance", 0) != 0 {
        return ExitCode::from(2);
    }
    code
}

fn dispatch(command: Command) -> ExitCode {
    match command {
        Command::Generate { check, vectors } => conformance::vectors::generate::run(
            &vectors.unwrap_or_else(conformance::vectors::default_dir),
            check,
        ),
        Command::Audit {
            max_len,
            brute_force,
            amended,
        } => conformance::audit::run(max_len, brute_force, amended),
        Command::Run(args) => conformance::run::run(&args),
        Command::Serve(args) => conformance::run::serve::serve(&args),
        Command::Exhaustive(args) => conformance::exhaustive::run(&args),
        Command::Fuzz(args) => conformance::adapter_check::fuzz::run(&args),
        Command::SeedCorpus { vectors, out } => conformance::seed_corpus::run(
            &vectors.unwrap_or_else(conformance::vectors::default_dir),
            &out.unwrap_or_else(conformance::seed_corpus::default_dir),
        ),
    }
}
