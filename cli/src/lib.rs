//! `cutf8`: decode, encode, check, explain and transcode Corrected UTF-8, UTF-8 and
//! UTF-∞-8.
//!
//! The binary is a thin wrapper around [`main`]; each subcommand lives in a module of
//! its own. Usage and examples: `cli/README.md`.
#![deny(missing_docs)]
#![forbid(unsafe_code)]

mod args;
mod check;
mod codepoint;
mod decode;
mod encode;
mod explain;
mod io;
mod lines;
mod stretch;
mod transcode;

use args::{Cli, Command};
use clap::error::ErrorKind as ClapErrorKind;
use clap::Parser;
use io::{Failure, Status};
use std::process::ExitCode;

/// Runs `cutf8` with the process's arguments and standard streams; returns the exit
/// status: 0 all well, 1 invalid input, 2 the command could not run.
pub fn main() -> ExitCode {
    // Before anything is written, `--help` included (as coreutils' `ls --help >&-`).
    if io::closed_streams().stdout {
        io::report("cannot write to standard output: it is closed");
        return ExitCode::from(2);
    }
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) => return usage_error(e),
    };
    let result = match cli.command {
        Command::Decode(a) => decode::run(&a),
        Command::Encode(a) => encode::run(&a),
        Command::Check(a) => check::run(&a),
        Command::Explain(a) => explain::run(&a),
        Command::Transcode(a) => transcode::run(&a),
    };
    match result {
        Ok(Status::Ok) => ExitCode::SUCCESS,
        Ok(Status::Invalid) => ExitCode::from(1),
        Ok(Status::Trouble) => ExitCode::from(2),
        Err(Failure::Invalid(message)) => {
            io::report(&message);
            ExitCode::from(1)
        }
        Err(Failure::Trouble(message)) => {
            io::report(&message);
            ExitCode::from(2)
        }
        // The reader went away (`| head`): nobody is left to tell.
        Err(Failure::BrokenPipe) => ExitCode::from(io::BROKEN_PIPE_STATUS),
    }
}

/// `--help` and `--version` print as clap makes them; a usage error (a bare `cutf8`
/// included) becomes one line on stderr, like every other failure, and exit 2.
fn usage_error(e: clap::Error) -> ExitCode {
    match e.kind() {
        ClapErrorKind::DisplayHelp | ClapErrorKind::DisplayVersion => {
            // Help and version are output like any other: a failed write fails.
            match e
                .print()
                .and_then(|()| std::io::Write::flush(&mut std::io::stdout()))
            {
                Ok(()) => ExitCode::SUCCESS,
                Err(e) => match io::write_failed(e) {
                    Failure::BrokenPipe => ExitCode::from(io::BROKEN_PIPE_STATUS),
                    failure => {
                        if let Failure::Trouble(message) | Failure::Invalid(message) = failure {
                            io::report(&message);
                        }
                        ExitCode::from(2)
                    }
                },
            }
        }
        ClapErrorKind::DisplayHelpOnMissingArgumentOrSubcommand => {
            io::report("no command given: decode, encode, check, explain or transcode (see 'cutf8 --help')");
            ExitCode::from(2)
        }
        _ => {
            io::report(&one_line(&e.render().to_string()));
            ExitCode::from(2)
        }
    }
}

/// Clap's first paragraph joined into one line, without its `error: ` prefix, and a
/// pointer to `--help` in place of the usage block.
fn one_line(rendered: &str) -> String {
    let paragraph: Vec<&str> = rendered
        .lines()
        .map(str::trim)
        .take_while(|line| !line.is_empty())
        .collect();
    let text = paragraph.join(" ");
    let text = text.strip_prefix("error: ").unwrap_or(&text);
    format!("{text} (see 'cutf8 --help')")
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `cli/README.md`'s "Limits" table states the constants of the code (the two
    /// memory rows are the caps `cli/tests/it/limits.rs` runs under, and checks).
    #[test]
    fn the_readme_limits_are_the_code_s() {
        let readme = include_str!("../README.md");
        let table = &readme[readme.find("## Limits").expect("a Limits section")..];
        let row = |label: &str| -> &str {
            table
                .lines()
                .find(|line| line.starts_with(&format!("| {label} |")))
                .unwrap_or_else(|| panic!("no row '{label}'"))
        };
        let has = |label: &str, text: String| {
            assert!(
                row(label).contains(&text),
                "'{label}' should say '{text}': {}",
                row(label)
            );
        };
        has("read size", format!("{} KiB a chunk", io::CHUNK >> 10));
        has(
            "files checked at once (`check DIR`)",
            format!("at most {}", check::tree::MAX_DEFAULT_JOBS),
        );
        has(
            "files checked at once (`check DIR`)",
            format!("1 to {}", args::MAX_JOBS),
        );
        let held = "a file's output held before its turn (`check DIR`)";
        has(held, format!("{} KiB", check::tree::SLOT_BYTES >> 10));
        has(
            held,
            format!("{} MiB in all", check::tree::OUTPUT_BYTES >> 20),
        );
        let full_slots =
            check::tree::OUTPUT_BYTES / check::tree::SLOT_BYTES / check::tree::WINDOW_PER_JOB;
        has(held, format!("more than {full_slots} jobs"));
        has(
            "files checked ahead of the one printing (`check DIR`)",
            format!("{} per job", check::tree::WINDOW_PER_JOB),
        );
        has(
            "findings of a run shown (`check`, default format)",
            format!("{}, then counted", check::file::SHOWN_PER_RUN),
        );
        has(
            "a line's bytes shown before and after a finding (`check`)",
            format!("| {} |", check::file::CONTEXT),
        );
        has(
            "progress bar (`check`, stderr a terminal)",
            format!("{} MiB or more", check::file::PROGRESS_MIN_BYTES >> 20),
        );
        let code = corrected_utf8::utf_inf8::DEFAULT_MAX_CODE_LEN;
        has(
            "a UTF-∞-8 code (`decode`, `explain`, `transcode`)",
            format!("{},{:03} bytes", code / 1000, code % 1000),
        );
    }

    #[test]
    fn clap_errors_become_one_line() {
        let e = Cli::try_parse_from(["cutf8", "decode", "--bogus"]).unwrap_err();
        let line = one_line(&e.render().to_string());
        assert_eq!(
            line,
            "unexpected argument '--bogus' found (see 'cutf8 --help')"
        );
        assert!(!line.contains('\n'));
        let e = Cli::try_parse_from(["cutf8", "explain"]).unwrap_err();
        assert_eq!(
            one_line(&e.render().to_string()),
            "the following required arguments were not provided: <HEX>... (see 'cutf8 --help')"
        );
    }
}
