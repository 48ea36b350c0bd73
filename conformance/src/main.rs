//! `conformance`: generate and audit the vectors, run implementations against them.
//!
//! The command line is parsed here (`cli`) into each subcommand's plain configuration; the
//! work is the library's. The standard streams are checked first, and stdout's fate last
//! (`conformance::console`): output that could not be written, `--help` and `--version`
//! included, is exit 2.
#![deny(clippy::print_stdout, clippy::print_stderr)]

mod cli;

use clap::error::ErrorKind;
use clap::Parser;
use cli::{exhaustive::Walk, Command};
use conformance::console::{self, Stream};
use conformance::exhaustive;
use conformance::exit::EXIT_USAGE;
use std::process::ExitCode;

fn main() -> ExitCode {
    // A closed stdout or stderr (`>&-`): exit 2 before anything runs, as coreutils do.
    if let Err(closed) = console::check_standard_streams(&[Stream::Stdout, Stream::Stderr]) {
        conformance::errln!("conformance: {} is closed (exit 2)", closed.name());
        return ExitCode::from(2);
    }
    let command = match cli::Cli::try_parse() {
        Ok(cli) => cli.command,
        // `--help` and `--version` go to stdout through the console, so that a full disk
        // or a closed pipe is exit 2, not a silent 0.
        Err(e) if matches!(e.kind(), ErrorKind::DisplayHelp | ErrorKind::DisplayVersion) => {
            conformance::out!("{e}");
            return ExitCode::from(console::exit_code("conformance", 0) as u8);
        }
        Err(e) => e.exit(),
    };
    // `serve` answers what it reads: a closed stdin is not an empty one.
    if matches!(command, Command::Serve(_)) {
        if let Err(closed) = console::check_standard_streams(&[Stream::Stdin]) {
            conformance::errln!("conformance serve: {} is closed (exit 2)", closed.name());
            return ExitCode::from(2);
        }
    }
    let code = dispatch(command);
    // Interrupted (SIGINT, SIGTERM, SIGHUP while adapters ran): ends by the signal, not by
    // an exit status of what ran meanwhile.
    conformance::adapter::end_if_signalled();
    // Whatever the verdict, output that could not be written is exit 2.
    if console::exit_code("conformance", 0) != 0 {
        return ExitCode::from(2);
    }
    code
}

/// A usage error found after parsing: said on stderr, exit 2.
fn usage(command: &str, message: &str) -> ExitCode {
    conformance::errln!("conformance {command}: {message}");
    ExitCode::from(EXIT_USAGE as u8)
}

fn dispatch(command: Command) -> ExitCode {
    match command {
        Command::Generate(o) => conformance::vectors::generate::run(
            &o.vectors.unwrap_or_else(conformance::vectors::default_dir),
            o.check,
        ),
        Command::Audit(o) => conformance::audit::run(o.max_len, o.brute_force, o.amended),
        Command::Run(o) => conformance::run::run(&o.config()),
        Command::Serve(o) => conformance::serve::serve(&o.config()),
        Command::Exhaustive(o) => {
            let walk = match o.config() {
                Ok(walk) => walk,
                Err(e) => return usage("exhaustive", &e),
            };
            let json = match exhaustive::plan_json(o.json.as_deref(), o.resume.as_deref()) {
                Ok(json) => json,
                Err(e) => return usage("exhaustive", &e.0),
            };
            match walk {
                Walk::Reference(cfg) => exhaustive::run_reference(&cfg, json.as_ref()),
                Walk::Adapter(cfg) => exhaustive::run_adapter(&cfg, json.as_ref()),
            }
        }
        Command::Fuzz(o) => match o.config() {
            Ok(cfg) => conformance::fuzz::run(&cfg),
            Err(e) => usage("fuzz", &e),
        },
        Command::SeedCorpus(o) => conformance::seed_corpus::run(
            &o.vectors.unwrap_or_else(conformance::vectors::default_dir),
            &o.out.unwrap_or_else(conformance::seed_corpus::default_dir),
        ),
    }
}
