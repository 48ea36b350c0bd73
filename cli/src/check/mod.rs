//! `cutf8 check`: Corrected UTF-8 document checks of files, standard input and
//! directories, then the totals.
//!
//! [`file`] checks one input and prints its findings; [`tree`] checks a directory's
//! files in parallel with [`file`] and prints their outputs in path order. This module
//! only dispatches and sums up: `tree` uses `file`, and neither uses this module.

pub(crate) mod file;
pub(crate) mod tree;

use crate::args::{CheckArgs, CheckFormat};
use crate::io::{self, Failure, Result, Status, WriteResult};
use file::{check_file, json_line, Totals};
use std::io::{IsTerminal, Write};

pub(crate) fn run(args: &CheckArgs) -> Result<Status> {
    let mut out = io::stdout();
    let mut totals = Totals::default();
    let terminal = std::io::stderr().is_terminal();
    for path in &args.files {
        if path.is_dir() {
            match tree::jobs(args.jobs.map(usize::from)) {
                1 => tree::check_tree_here(path, args.format, &mut out, &mut totals)?,
                jobs => tree::check_tree(path, args.format, jobs, &mut out, &mut totals)?,
            }
            continue;
        }
        match check_file(path, args.format, &mut out, &mut totals, terminal) {
            Ok(()) => totals.files += 1,
            // One unreadable file does not hide the findings of the others; it makes the
            // exit status 2 at the end.
            Err(Failure::Trouble(message)) => {
                out.flush().out()?;
                io::report(&message);
                totals.unreadable += 1;
            }
            Err(other) => return Err(other),
        }
    }
    if args.format == CheckFormat::Json {
        let t = &totals;
        writeln!(out, "{}", json_line(&JsonTotals::from(t))).out()?;
    } else {
        writeln!(out, "{}", summary(&totals)).out()?;
    }
    out.flush().out()?;
    if totals.unreadable > 0 {
        // Each unreadable file has had its line on stderr already.
        return Ok(Status::Trouble);
    }
    let failing = totals.errors > 0 || (args.strict && totals.warnings > 0);
    Ok(if failing { Status::Invalid } else { Status::Ok })
}

/// `2 files: 1 error, 3 warnings`, and how many could not be read, if any.
fn summary(t: &Totals) -> String {
    let plural = |n: u64, word: &str| format!("{n} {word}{}", if n == 1 { "" } else { "s" });
    let mut s = format!(
        "{}: {}, {}",
        plural(t.files, "file"),
        plural(t.errors, "error"),
        plural(t.warnings, "warning")
    );
    if t.unreadable > 0 {
        s += &format!(" ({} not readable)", t.unreadable);
    }
    s
}

// `--format json`: structs rather than `json!` maps, so that the keys come in this order
// whatever features of serde_json the build unifies (`preserve_order` or not).

/// The totals line.
#[derive(serde::Serialize)]
struct JsonTotals {
    files: u64,
    errors: u64,
    warnings: u64,
    unreadable: u64,
}

impl From<&Totals> for JsonTotals {
    fn from(t: &Totals) -> Self {
        JsonTotals {
            files: t.files,
            errors: t.errors,
            warnings: t.warnings,
            unreadable: t.unreadable,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn summary_counts_in_words() {
        let t = Totals {
            files: 1,
            errors: 2,
            warnings: 1,
            unreadable: 0,
        };
        assert_eq!(summary(&t), "1 file: 2 errors, 1 warning");
        let t = Totals {
            files: 2,
            errors: 0,
            warnings: 0,
            unreadable: 1,
        };
        assert_eq!(
            summary(&t),
            "2 files: 0 errors, 0 warnings (1 not readable)"
        );
    }
}
