//! The command line: it only parses. Each subcommand's options (a file of its own) become
//! the plain configuration of a library entry point; what several share is in
//! [`options`] ([`options::AdapterOptions`] for every command that starts an adapter).

pub mod exhaustive;
pub mod fuzz;
pub mod options;
pub mod run;
pub mod serve;
pub mod tools;

use clap::{Parser, Subcommand};

/// `conformance`.
#[derive(Parser)]
#[command(
    name = "conformance",
    version,
    about = "Conformance tooling for Corrected UTF-8, UTF-8 and UTF-∞-8"
)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Command,
}

/// The subcommands.
#[derive(Subcommand)]
pub enum Command {
    /// Rewrite vectors/ from the spec-literal code (tcIds of existing cases are kept).
    Generate(tools::GenerateOptions),
    /// Compare Table 3.1b (as transcribed, or --amended) with Table 3-7 over every input
    /// of 1 to 4 bytes.
    Audit(tools::AuditOptions),
    /// Run the vectors against the reference codec or adapters (conformance/README.md).
    Run(run::RunOptions),
    /// The reference codec as a protocol-2 adapter on stdin/stdout (batches, streaming):
    /// the model adapter (conformance/adapters/README.md).
    Serve(serve::ServeOptions),
    /// Every code point and every input of 1 to 4 (or --max-len) bytes, reference codec
    /// against the spec-literal code and std (rayon; progress on stderr).
    Exhaustive(exhaustive::ExhaustiveOptions),
    /// Structure-aware differential fuzzing of an adapter against the spec-literal code;
    /// disagreements are minimized and written as vector files.
    Fuzz(fuzz::FuzzOptions),
    /// Write every vector's input into corpus/<target>/ in each fuzz target's layout
    /// (then `fuzz/seed-corpus.sh` minimizes it with `cargo fuzz cmin`).
    SeedCorpus(tools::SeedCorpusOptions),
}
