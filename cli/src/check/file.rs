//! One file (or standard input) checked: its findings printed like a compiler's
//! messages (`--format human`), a line each (`short`) or as JSON lines (`json`), and
//! counted.

use crate::args::CheckFormat;
use crate::io::{self, Input, Result};
use crate::lines::Lines;
use annotate_snippets::{Level, Renderer, Snippet};
use corrected_utf8::{corrected, DocumentChecker, Event, Finding, FindingKind, Severity};
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use std::io::Write;
use std::path::Path;

/// Files at least this large get a progress bar (when stderr is a terminal): smaller
/// ones are checked before a bar would be worth drawing.
pub(crate) const PROGRESS_MIN_BYTES: u64 = 64 * 1024 * 1024;

/// Counts over the files checked.
#[derive(Debug, Default)]
pub(crate) struct Totals {
    pub files: u64,
    pub errors: u64,
    pub warnings: u64,
    pub unreadable: u64,
}

/// `FILE: 1 error, 2 warnings` (or its JSON object), after a file of a tree.
pub(crate) fn file_summary(
    out: &mut dyn Write,
    format: CheckFormat,
    path: &Path,
    t: &Totals,
) -> std::io::Result<()> {
    let name = path.display().to_string();
    if format == CheckFormat::Json {
        let line = JsonFileSummary {
            file: &name,
            errors: t.errors,
            warnings: t.warnings,
        };
        writeln!(out, "{}", json_line(&line))
    } else {
        let plural = |n: u64, word: &str| format!("{n} {word}{}", if n == 1 { "" } else { "s" });
        writeln!(
            out,
            "{}: {}, {}",
            io::printable(&name),
            plural(t.errors, "error"),
            plural(t.warnings, "warning")
        )
    }
}

/// Checks one file (or standard input), writing its findings to `out` and counting
/// them in `totals`.
pub(crate) fn check_file(
    path: &Path,
    format: CheckFormat,
    out: &mut dyn Write,
    totals: &mut Totals,
    terminal: bool,
) -> Result<()> {
    let mut input = Input::open(path)?;
    let progress = progress_bar(terminal, input.len());
    let mut checker = DocumentChecker::new();
    let mut buf = vec![0; io::CHUNK];
    let mut reporter = Reporter::new(out, input.name(), totals, format);
    loop {
        let n = input.read(&mut buf)?;
        if n == 0 {
            break;
        }
        let chunk = &buf[..n];
        checker.push_fast(chunk, |f| reporter.finding(f, chunk));
        if format == CheckFormat::Human {
            reporter.context.keep(chunk);
        }
        reporter.flush_lines();
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
    checker.finish(|f| reporter.finding(f, &[]));
    reporter.end();
    if let Some(bar) = progress {
        bar.finish_and_clear();
    }
    reporter.check()
}

/// Prints findings and counts them. The checker's callback cannot fail: the first write
/// error is kept, the findings after it are only counted.
struct Reporter<'a> {
    out: &'a mut dyn Write,
    /// The input's name as shown to a person ([`io::printable`]).
    name: String,
    totals: &'a mut Totals,
    /// The end of the bytes before the chunk being checked, to show findings on their
    /// line (`--format human`).
    context: Context,
    /// `--format human`: which findings are shown, which summarized.
    runs: Runs,
    /// `--format short` and `json`: the lines, written out a buffer at a time.
    lines: Option<Lines>,
    failed: Option<std::io::Error>,
    /// Findings written since the last flush.
    unflushed: bool,
}

impl<'a> Reporter<'a> {
    fn new(
        out: &'a mut dyn Write,
        name: &str,
        totals: &'a mut Totals,
        format: CheckFormat,
    ) -> Self {
        // The human and short formats show the name with its control characters
        // escaped; JSON escapes them itself, keeping the exact name.
        let lines = match format {
            CheckFormat::Human => None,
            CheckFormat::Short => Some(Lines::new(false, &io::printable(name))),
            CheckFormat::Json => Some(Lines::new(true, name)),
        };
        Reporter {
            out,
            name: io::printable(name).into_owned(),
            totals,
            context: Context::default(),
            runs: Runs::default(),
            lines,
            failed: None,
            unflushed: false,
        }
    }

    /// `chunk`: the bytes being checked (the finding may be in them or before them).
    fn finding(&mut self, f: Finding, chunk: &[u8]) {
        match f.severity() {
            Severity::Error => self.totals.errors += 1,
            Severity::Warning => self.totals.warnings += 1,
        }
        // A reserved span can be gigabytes: its extent is shown (the finding's length).
        let length = (f.kind == FindingKind::Reserved).then_some(f.length);
        if self.failed.is_some() {
            return;
        }
        let written = match &mut self.lines {
            Some(lines) => lines.push(f, length, self.out),
            None => {
                if !self.runs.admit(f) {
                    return;
                }
                self.summaries().and_then(|()| self.human(f, length, chunk))
            }
        };
        self.unflushed = true;
        if let Err(e) = written {
            self.failed = Some(e);
        }
    }

    /// After a chunk: the lines so far to the output.
    fn flush_lines(&mut self) {
        if let (Some(lines), None) = (&mut self.lines, &self.failed) {
            if let Err(e) = lines.flush(self.out) {
                self.failed = Some(e);
            }
        }
    }

    /// After the file's last finding: the lines not yet written, and the summaries of
    /// the findings not shown.
    fn end(&mut self) {
        self.flush_lines();
        if self.failed.is_none() {
            if let Err(e) = self.summaries() {
                self.failed = Some(e);
            }
        }
    }

    /// The finding on its line with a caret under it, as rustc shows an error; the
    /// location alone when its line is not at hand (it started too long before).
    fn human(&mut self, f: Finding, length: Option<u64>, chunk: &[u8]) -> std::io::Result<()> {
        let shown = self.context.line_of(f, chunk);
        // A span's length: a reserved span's from the finding; a decoding error's from the
        // shown line's events.
        let spans = matches!(f.kind, FindingKind::Reserved | FindingKind::Decode(_));
        let length = length.or(shown.as_ref().and_then(|s| s.length).filter(|_| spans));
        let label = match length {
            Some(n) if n > 1 => format!("{} ({n} bytes)", f.kind),
            _ => f.kind.to_string(),
        };
        let level = match f.severity() {
            Severity::Error => Level::Error,
            Severity::Warning => Level::Warning,
        };
        // The renderer adds LINE:COLUMN to the file's name, counting from the start of
        // the text shown: when that is not the line's start, the title says where.
        let title = match &shown {
            Some(s) if s.whole => format!("{} (byte {})", f.kind, f.offset),
            _ => format!("{label} (byte {}, {}:{})", f.offset, f.line, f.column),
        };
        let message = match &shown {
            Some(s) => level.title(&title).snippet(
                Snippet::source(&s.text)
                    .line_start(f.line as usize)
                    .origin(&self.name)
                    .annotation(level.span(s.span.clone()).label(&label)),
            ),
            None => level.title(&title),
        };
        let rendered = Renderer::plain().render(message).to_string();
        writeln!(self.out, "{rendered}\n")
    }

    /// `… and 2,147,483,628 more nul errors in FILE, bytes 20-2147483647`: for each
    /// kind, the findings not shown since the last line written.
    fn summaries(&mut self) -> std::io::Result<()> {
        for hidden in self.runs.take_hidden() {
            let what = match (hidden.kind.severity(), hidden.count) {
                (Severity::Error, 1) => "error",
                (Severity::Error, _) => "errors",
                (Severity::Warning, 1) => "warning",
                (Severity::Warning, _) => "warnings",
            };
            let place = match hidden.first == hidden.last {
                true => format!("byte {}", hidden.first),
                false => format!("bytes {}-{}", hidden.first, hidden.last),
            };
            writeln!(
                self.out,
                "… and {} more {} {what} in {}, {place}\n",
                grouped(hidden.count),
                hidden.kind,
                self.name
            )?;
        }
        Ok(())
    }

    fn check(&mut self) -> Result<()> {
        self.failed
            .take()
            .map_or(Ok(()), |e| Err(io::write_failed(e)))
    }
}

/// `n` with its digits in groups of three: `2,147,483,628`.
fn grouped(n: u64) -> String {
    let digits = n.to_string();
    let mut text = String::with_capacity(digits.len() * 4 / 3);
    for (i, digit) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            text.push(',');
        }
        text.push(digit);
    }
    text
}

/// The most findings of one kind in a run shown in `--format human`; the rest of the
/// run are counted and summarized in a line.
pub(crate) const SHOWN_PER_RUN: u32 = 20;

/// Which findings `--format human` shows. A *run* is findings of one kind, each on the
/// line of the one before it or the next line, or with no finding of another kind
/// between them (so `\0\0\0…` on one line, a `\t` on each line of a table, and NUL
/// bytes between newlines are each one run). Of each run the first [`SHOWN_PER_RUN`]
/// are shown; the others are counted, and their count and extent are written as soon
/// as anything else is shown, or the file ends: the output stays in file order, and a
/// file of NUL bytes is checked as fast as the checker goes, not as the renderer does.
#[derive(Debug, Default)]
struct Runs {
    /// Findings so far.
    seen: u64,
    /// One per kind met (a few).
    runs: Vec<Run>,
    /// Whether any run has findings not shown and not yet summarized.
    hiding: bool,
}

#[derive(Debug)]
struct Run {
    kind: FindingKind,
    /// The line of the last finding of this kind, and its number among all findings.
    last_line: u64,
    last_seen: u64,
    /// Findings shown in the current run.
    shown: u32,
    hidden: Option<Hidden>,
}

/// Findings of a kind not shown: how many, and the offsets of the first and the last.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Hidden {
    kind: FindingKind,
    count: u64,
    first: u64,
    last: u64,
}

impl Runs {
    /// Whether `f` is shown; if not, it is counted for its run's summary.
    fn admit(&mut self, f: Finding) -> bool {
        self.seen += 1;
        let seen = self.seen;
        let run = match self.runs.iter().position(|r| r.kind == f.kind) {
            Some(i) => &mut self.runs[i],
            None => {
                self.runs.push(Run {
                    kind: f.kind,
                    last_line: f.line,
                    last_seen: seen,
                    shown: 0,
                    hidden: None,
                });
                self.runs.last_mut().expect("just pushed")
            }
        };
        let continues = f.line <= run.last_line.saturating_add(1) || run.last_seen + 1 == seen;
        if !continues {
            run.shown = 0;
        }
        run.last_line = f.line;
        run.last_seen = seen;
        if run.shown < SHOWN_PER_RUN {
            run.shown += 1;
            return true;
        }
        let hidden = run.hidden.get_or_insert(Hidden {
            kind: f.kind,
            count: 0,
            first: f.offset,
            last: f.offset,
        });
        hidden.count += 1;
        hidden.last = f.offset;
        self.hiding = true;
        false
    }

    /// The findings not shown since the last call, a [`Hidden`] per kind, in the order
    /// of their first.
    fn take_hidden(&mut self) -> Vec<Hidden> {
        if !std::mem::take(&mut self.hiding) {
            return Vec::new();
        }
        let mut hidden: Vec<Hidden> = self
            .runs
            .iter_mut()
            .filter_map(|r| r.hidden.take())
            .collect();
        hidden.sort_by_key(|h| h.first);
        hidden
    }
}

/// The most bytes of a line before a finding that are shown, and kept from one chunk to
/// the next for that.
pub(crate) const CONTEXT: usize = 240;

/// The end of the bytes checked before the current chunk: from the start of the last
/// line, at most [`CONTEXT`] bytes.
#[derive(Debug)]
struct Context {
    /// Bytes checked so far (the end of `tail`).
    offset: u64,
    tail: Vec<u8>,
    /// Whether `tail` starts a line (or the file).
    tail_starts_line: bool,
}

impl Default for Context {
    fn default() -> Self {
        Context {
            offset: 0,
            tail: Vec::new(),
            tail_starts_line: true,
        }
    }
}

/// A finding's line as shown: its text (code points as characters, the rest as
/// symbols), the span of the finding in it and, for an error or reserved span, its
/// length.
#[derive(Debug, PartialEq)]
struct Shown {
    /// Whether `text` starts at the line's start.
    whole: bool,
    text: String,
    span: std::ops::Range<usize>,
    length: Option<u64>,
}

impl Context {
    /// Bytes `lo..hi` of the tail followed by `chunk`, without copying the rest.
    fn slice(&self, chunk: &[u8], lo: usize, hi: usize) -> Vec<u8> {
        let t = self.tail.len();
        let mut bytes = Vec::with_capacity(hi - lo);
        if lo < t {
            bytes.extend_from_slice(&self.tail[lo..hi.min(t)]);
        }
        if hi > t {
            bytes.extend_from_slice(&chunk[lo.max(t) - t..hi - t]);
        }
        bytes
    }

    /// After `chunk` was checked: keep its end.
    fn keep(&mut self, chunk: &[u8]) {
        let end = self.tail.len() + chunk.len();
        let lo = end.saturating_sub(CONTEXT);
        let last = self.slice(chunk, lo, end);
        let newline = last.iter().rposition(|&b| b == b'\n');
        self.tail_starts_line = newline.is_some() || (lo == 0 && self.tail_starts_line);
        self.tail = last[newline.map_or(0, |i| i + 1)..].to_vec();
        self.offset += chunk.len() as u64;
    }

    /// The line of `f` as far as it is in the tail and `chunk`: from its start (or
    /// [`CONTEXT`] bytes before the finding) to its end (or the end of `chunk`, or
    /// [`CONTEXT`] bytes after the finding); `None` when the finding is before the tail.
    fn line_of(&self, f: Finding, chunk: &[u8]) -> Option<Shown> {
        let base = self.offset - self.tail.len() as u64;
        let at = usize::try_from(f.offset.checked_sub(base)?).ok()?;
        let end = self.tail.len() + chunk.len();
        if at > end {
            return None;
        }
        let lo = at.saturating_sub(CONTEXT);
        let window = self.slice(chunk, lo, end.min(at + CONTEXT));
        let at = at - lo;
        let newline = window[..at].iter().rposition(|&b| b == b'\n');
        let whole = newline.is_some() || (lo == 0 && self.tail_starts_line);
        let mut start = newline.map_or(0, |i| i + 1);
        // Cut: start on a sequence's first byte.
        while !whole && start < at && (0x80..0xC0).contains(&window[start]) {
            start += 1;
        }
        let end = window[at..]
            .iter()
            .position(|&b| b == b'\n')
            .map_or(window.len(), |i| at + i);
        let mut shown = Shown {
            whole,
            text: String::new(),
            span: 0..0,
            length: None,
        };
        for located in corrected::events(&window[start..end]).located() {
            let here = start + located.offset as usize == at;
            let from = shown.text.len();
            let (c, length) = match located.event {
                Event::CodePoint(cp) => (visible(cp), None),
                Event::Error(e) => ('\u{FFFD}', Some(e.length)),
                Event::Reserved(r) => ('\u{FFFD}', Some(r.length)),
            };
            shown.text.push(c);
            if here {
                shown.span = from..shown.text.len();
                shown.length = length;
            }
        }
        if at == end {
            // At the end of the line (a missing final newline, a truncated sequence
            // cut by it): the caret after the text.
            shown.span = shown.text.len()..shown.text.len();
        }
        Some(shown)
    }
}

/// A code point as one visible character: controls as their Control Pictures symbol
/// (U+2400…), U+2028/U+2029 and what is no scalar value as U+FFFD.
fn visible(cp: u32) -> char {
    match cp {
        0x00..=0x1F => char::from_u32(0x2400 + cp),
        0x7F => Some('\u{2421}'),
        0x2028 | 0x2029 => None,
        _ => char::from_u32(cp),
    }
    .unwrap_or('\u{FFFD}')
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn check_help_states_the_run_length() {
        use clap::CommandFactory;
        let mut cli = crate::args::Cli::command();
        let help = cli.find_subcommand_mut("check").unwrap().render_long_help();
        let shown = format!("the first {} of a run", SHOWN_PER_RUN);
        assert!(help.to_string().contains(&shown));
    }

    #[test]
    fn progress_only_for_large_files_on_a_terminal() {
        assert!(progress_bar(false, Some(1 << 40)).is_none());
        assert!(progress_bar(true, None).is_none());
        assert!(progress_bar(true, Some(PROGRESS_MIN_BYTES - 1)).is_none());
        assert!(progress_bar(true, Some(PROGRESS_MIN_BYTES)).is_some());
    }

    #[test]
    fn a_finding_s_line_is_the_same_at_every_chunking_up_to_the_chunk_s_end() {
        let file = b"first\nta\tb\x00c\xFE\x80\x80d\xE0\x80\nlast \x01 line\n\x80tail";
        let findings = corrected_utf8::check_document(file);
        let whole: Vec<Shown> = findings
            .iter()
            .map(|&f| Context::default().line_of(f, file).unwrap())
            .collect();
        assert_eq!(whole[1].text, "ta␉b␀c�d�");
        assert_eq!((whole[1].span.clone(), whole[1].length), (2..5, None));
        assert_eq!((whole[3].span.clone(), whole[3].length), (10..13, Some(3)));
        assert!(whole.iter().all(|s| s.whole));
        for size in 1..=file.len() {
            let mut context = Context::default();
            for (i, chunk) in file.chunks(size).enumerate() {
                let start = (i * size) as u64;
                for (f, want) in findings.iter().zip(&whole) {
                    if (start..start + chunk.len() as u64).contains(&f.offset) {
                        let got = context.line_of(*f, chunk).unwrap();
                        assert!(got.whole, "{f} chunk size {size}");
                        assert!(want.text.starts_with(&got.text), "{f} chunk size {size}");
                        assert_eq!(got.span, want.span, "{f} chunk size {size}");
                    }
                }
                context.keep(chunk);
            }
        }
    }
}

// `--format json`: structs rather than `json!` maps, so that the keys come in this order
// whatever features of serde_json the build unifies (`preserve_order` or not).

/// One file's summary line (`check DIR`).
#[derive(serde::Serialize)]
struct JsonFileSummary<'a> {
    file: &'a str,
    errors: u64,
    warnings: u64,
}

/// One line of JSON (serializing these structs cannot fail).
pub(super) fn json_line<T: serde::Serialize>(value: &T) -> String {
    io::json_escaped(serde_json::to_string(value).unwrap_or_default())
}
