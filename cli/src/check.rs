//! `cutf8 check`: Corrected UTF-8 document checks, printed like a compiler's messages.

use crate::args::CheckArgs;
use crate::io::{self, Failure, Input, Result, Status, WriteResult};
use corrected_utf8::{DocumentChecker, Finding, Severity};
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use std::io::{IsTerminal, Write};

/// Files at least this large get a progress bar (when stderr is a terminal): smaller
/// ones are checked before a bar would be worth drawing.
const PROGRESS_MIN_BYTES: u64 = 64 * 1024 * 1024;

#[derive(Default)]
struct Totals {
    files: u64,
    errors: u64,
    warnings: u64,
    unreadable: u64,
}

pub(crate) fn run(args: &CheckArgs) -> Result<Status> {
    let mut out = io::stdout();
    let mut totals = Totals::default();
    let terminal = std::io::stderr().is_terminal();
    for path in &args.files {
        match check_file(path, &mut out, &mut totals, terminal) {
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
    writeln!(out, "{}", summary(&totals)).out()?;
    out.flush().out()?;
    if totals.unreadable > 0 {
        // Each unreadable file has had its line on stderr already.
        return Ok(Status::Trouble);
    }
    let failing = totals.errors > 0 || (args.strict && totals.warnings > 0);
    Ok(if failing { Status::Invalid } else { Status::Ok })
}

fn check_file(
    path: &std::path::Path,
    out: &mut io::Out,
    totals: &mut Totals,
    terminal: bool,
) -> Result<()> {
    let mut input = Input::open(path)?;
    let progress = progress_bar(terminal, input.len());
    let mut checker = DocumentChecker::new();
    let mut buf = vec![0; io::CHUNK];
    let mut reporter = Reporter {
        out,
        name: input.name().to_string(),
        totals,
        failed: None,
        unflushed: false,
    };
    loop {
        let n = input.read(&mut buf)?;
        if n == 0 {
            break;
        }
        checker.push(&buf[..n], |f| reporter.finding(f));
        if let Some(bar) = &progress {
            bar.inc(n as u64);
            // Findings go out above the bar, not through it, when both share a terminal;
            // only when there are some, since each suspension redraws the bar.
            if std::mem::take(&mut reporter.unflushed) {
                if let Err(e) = bar.suspend(|| reporter.out.flush()) {
                    reporter.failed.get_or_insert(e);
                }
            }
        }
        reporter.check()?;
    }
    checker.finish(|f| reporter.finding(f));
    if let Some(bar) = progress {
        bar.finish_and_clear();
    }
    reporter.check()
}

/// Prints findings and counts them. The checker's callback cannot fail: the first write
/// error is kept, the findings after it are only counted.
struct Reporter<'a> {
    out: &'a mut io::Out,
    name: String,
    totals: &'a mut Totals,
    failed: Option<std::io::Error>,
    /// Findings written since the last flush.
    unflushed: bool,
}

impl Reporter<'_> {
    fn finding(&mut self, f: Finding) {
        match f.severity() {
            Severity::Error => self.totals.errors += 1,
            Severity::Warning => self.totals.warnings += 1,
        }
        if self.failed.is_none() {
            self.unflushed = true;
            // `{f}` is `LINE:COLUMN: SEVERITY: KIND (byte OFFSET)`.
            if let Err(e) = writeln!(self.out, "{}:{f}", self.name) {
                self.failed = Some(e);
            }
        }
    }

    fn check(&mut self) -> Result<()> {
        self.failed
            .take()
            .map_or(Ok(()), |e| Err(io::write_failed(e)))
    }
}

/// A bar for a regular file of at least [`PROGRESS_MIN_BYTES`] when stderr is a
/// terminal; otherwise none, so that logs and pipes stay clean.
fn progress_bar(terminal: bool, len: Option<u64>) -> Option<ProgressBar> {
    let len = len.filter(|&len| terminal && len >= PROGRESS_MIN_BYTES)?;
    let bar = ProgressBar::with_draw_target(Some(len), ProgressDrawTarget::stderr());
    let style =
        ProgressStyle::with_template("{bar:40} {bytes}/{total_bytes} {bytes_per_sec} {eta}")
            .expect("the template is valid");
    bar.set_style(style);
    Some(bar)
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn progress_only_for_large_files_on_a_terminal() {
        assert!(progress_bar(false, Some(1 << 40)).is_none());
        assert!(progress_bar(true, None).is_none());
        assert!(progress_bar(true, Some(PROGRESS_MIN_BYTES - 1)).is_none());
        assert!(progress_bar(true, Some(PROGRESS_MIN_BYTES)).is_some());
    }

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
