//! `cutf8 check`: Corrected UTF-8 document checks, printed like a compiler's messages.

use crate::args::CheckArgs;
use crate::io::{self, Failure, Input, Result, Status, WriteResult};
use corrected_utf8::{DocumentChecker, Finding, FindingKind, Severity};
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use std::collections::VecDeque;
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
        reserved: ReservedSpans::default(),
        failed: None,
        unflushed: false,
    };
    loop {
        let n = input.read(&mut buf)?;
        if n == 0 {
            break;
        }
        // The spans first: the checker reports a reserved span once it has ended.
        reporter.reserved.scan(&buf[..n]);
        checker.push_fast(&buf[..n], |f| reporter.finding(f));
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
    reporter.reserved.finish();
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
    reserved: ReservedSpans,
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
        // A reserved span's length is looked up even when nothing is written, so that
        // the spans found are consumed in order.
        let length = match f.kind {
            FindingKind::Reserved => self.reserved.length_at(f.offset),
            _ => None,
        };
        if self.failed.is_none() {
            self.unflushed = true;
            let written = match length {
                // A reserved span can be gigabytes: its extent says more than its start.
                Some(length) if length > 1 => writeln!(
                    self.out,
                    "{}:{}:{}: {}: {} (bytes {}-{})",
                    self.name,
                    f.line,
                    f.column,
                    f.severity(),
                    f.kind,
                    f.offset,
                    f.offset + length - 1
                ),
                // `{f}` is `LINE:COLUMN: SEVERITY: KIND (byte OFFSET)`.
                _ => writeln!(self.out, "{}:{f}", self.name),
            };
            if let Err(e) = written {
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

/// The extents of the reserved spans (a finding carries only its offset): `FE` or `FF`
/// and every byte after it up to the next recognized lead byte (`docs/semantics.md`
/// §2.4a), found with the file's bytes as they are read. Only the spans that ended and
/// whose findings have not come yet are kept: a few, since the checker reports a span
/// as soon as it ends.
#[derive(Debug, Default)]
struct ReservedSpans {
    /// Bytes scanned so far.
    offset: u64,
    /// The start of the span the last byte scanned is in.
    open: Option<u64>,
    /// Ended spans, `(offset, length)`, in order.
    ended: VecDeque<(u64, u64)>,
}

impl ReservedSpans {
    fn scan(&mut self, chunk: &[u8]) {
        // The common case, no span open and none in the chunk, in one pass that LLVM
        // vectorizes (`position` stops early, so it goes a byte at a time).
        if self.open.is_none() && !chunk.iter().fold(false, |any, &b| any | (b >= 0xFE)) {
            self.offset += chunk.len() as u64;
            return;
        }
        let mut i = 0;
        while i < chunk.len() {
            let rest = &chunk[i..];
            match self.open {
                None => match rest.iter().position(|&b| b >= 0xFE) {
                    Some(at) => {
                        self.open = Some(self.offset + (i + at) as u64);
                        i += at + 1;
                    }
                    None => i = chunk.len(),
                },
                Some(start) => {
                    let lead = |&b: &u8| b < 0x80 || (0xC0..=0xFD).contains(&b);
                    match rest.iter().position(lead) {
                        Some(at) => {
                            let end = self.offset + (i + at) as u64;
                            self.ended.push_back((start, end - start));
                            self.open = None;
                            // The lead byte starts something else, never a span.
                            i += at + 1;
                        }
                        None => i = chunk.len(),
                    }
                }
            }
        }
        self.offset += chunk.len() as u64;
    }

    /// The end of the input ends an open span.
    fn finish(&mut self) {
        if let Some(start) = self.open.take() {
            self.ended.push_back((start, self.offset - start));
        }
    }

    /// The length of the span that starts at `offset`, forgetting it and any before it.
    fn length_at(&mut self, offset: u64) -> Option<u64> {
        while let Some(&(start, length)) = self.ended.front() {
            if start > offset {
                break;
            }
            self.ended.pop_front();
            if start == offset {
                return Some(length);
            }
        }
        None
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
    fn reserved_spans_have_the_codec_s_extents_at_every_chunking() {
        let input = b"a\xFE\xFE\x80A\xFF\xC3\xFF\x80\xBF";
        let want: Vec<(u64, u64)> = corrected_utf8::corrected::events(input)
            .located()
            .filter_map(|l| l.event.reserved().map(|r| (r.offset, r.length)))
            .collect();
        assert_eq!(want, [(1, 3), (5, 1), (7, 3)]);
        for size in 1..=input.len() {
            let mut spans = ReservedSpans::default();
            input.chunks(size).for_each(|c| spans.scan(c));
            spans.finish();
            assert_eq!(Vec::from(spans.ended.clone()), want, "chunk size {size}");
            assert_eq!(spans.length_at(5), Some(1), "an earlier one is skipped");
            assert_eq!(spans.length_at(6), None);
            assert_eq!(spans.length_at(7), Some(3));
        }
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
