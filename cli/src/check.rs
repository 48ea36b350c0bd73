//! `cutf8 check`: Corrected UTF-8 document checks, printed like a compiler's messages.

use crate::args::{CheckArgs, CheckFormat};
use crate::io::{self, Failure, Input, Result, Status, WriteResult};
use annotate_snippets::{Level, Renderer, Snippet};
use corrected_utf8::{corrected, DocumentChecker, Event, Finding, FindingKind, Severity};
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use rayon::prelude::*;
use std::io::{IsTerminal, Write};
use std::path::Path;

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
        if path.is_dir() {
            check_tree(path, args.format, &mut out, &mut totals)?;
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

/// How many files of a tree are checked in parallel before their outputs are printed:
/// the outputs wait in memory until then.
const BATCH: usize = 64;

/// Every file under `dir` that is not hidden or ignored (`.gitignore`, `.ignore`, in a
/// git repository or not), checked in parallel and printed in path order, each with its
/// own summary line after its findings.
fn check_tree(
    dir: &Path,
    format: CheckFormat,
    out: &mut io::Out,
    totals: &mut Totals,
) -> Result<()> {
    let mut files = Vec::new();
    for entry in ignore::WalkBuilder::new(dir).require_git(false).build() {
        match entry {
            Ok(e) if e.file_type().is_some_and(|t| t.is_file()) => files.push(e.into_path()),
            Ok(_) => {}
            Err(e) => {
                out.flush().out()?;
                io::report(&format!("cannot walk '{}': {e}", dir.display()));
                totals.unreadable += 1;
            }
        }
    }
    files.sort();
    for batch in files.chunks(BATCH) {
        let checked: Vec<(Vec<u8>, Totals, Result<()>)> = batch
            .par_iter()
            .map(|path| {
                let (mut text, mut t) = (Vec::new(), Totals::default());
                let result = check_file(path, format, &mut text, &mut t, false);
                (text, t, result)
            })
            .collect();
        for (path, (text, t, result)) in batch.iter().zip(checked) {
            out.write_all(&text).out()?;
            match result {
                Ok(()) => {
                    totals.files += 1;
                    file_summary(out, format, path, &t).out()?;
                }
                Err(Failure::Trouble(message)) => {
                    out.flush().out()?;
                    io::report(&message);
                    totals.unreadable += 1;
                }
                Err(other) => return Err(other),
            }
            totals.errors += t.errors;
            totals.warnings += t.warnings;
        }
    }
    Ok(())
}

/// `FILE: 1 error, 2 warnings` (or its JSON object), after a file of a tree.
fn file_summary(
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
            "{name}: {}, {}",
            plural(t.errors, "error"),
            plural(t.warnings, "warning")
        )
    }
}

fn check_file(
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
    let mut reporter = Reporter {
        out,
        name: input.name().to_string(),
        totals,
        format,
        context: Context::default(),
        failed: None,
        unflushed: false,
    };
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
    if let Some(bar) = progress {
        bar.finish_and_clear();
    }
    reporter.check()
}

/// Prints findings and counts them. The checker's callback cannot fail: the first write
/// error is kept, the findings after it are only counted.
struct Reporter<'a> {
    out: &'a mut dyn Write,
    name: String,
    totals: &'a mut Totals,
    format: CheckFormat,
    /// The end of the bytes before the chunk being checked, to show findings on their
    /// line (`--format human`).
    context: Context,
    failed: Option<std::io::Error>,
    /// Findings written since the last flush.
    unflushed: bool,
}

impl Reporter<'_> {
    /// `chunk`: the bytes being checked (the finding may be in them or before them).
    fn finding(&mut self, f: Finding, chunk: &[u8]) {
        match f.severity() {
            Severity::Error => self.totals.errors += 1,
            Severity::Warning => self.totals.warnings += 1,
        }
        // A reserved span can be gigabytes: its extent is shown (the finding's length).
        let length = (f.kind == FindingKind::Reserved).then_some(f.length);
        if self.failed.is_none() {
            self.unflushed = true;
            let written = match self.format {
                CheckFormat::Short => self.short(f, length),
                CheckFormat::Json => self.json(f, length),
                CheckFormat::Human => self.human(f, length, chunk),
            };
            if let Err(e) = written {
                self.failed = Some(e);
            }
        }
    }

    /// `FILE:LINE:COLUMN: SEVERITY: KIND (byte OFFSET)`, or `(bytes FIRST-LAST)` for a
    /// reserved span.
    fn short(&mut self, f: Finding, length: Option<u64>) -> std::io::Result<()> {
        match length {
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
        }
    }

    /// One JSON object on a line; `length` for a reserved span.
    fn json(&mut self, f: Finding, length: Option<u64>) -> std::io::Result<()> {
        let object = JsonFinding {
            file: &self.name,
            line: f.line,
            column: f.column,
            severity: f.severity().as_str(),
            kind: f.kind.as_str(),
            offset: f.offset,
            length,
        };
        writeln!(self.out, "{}", json_line(&object))
    }

    /// The finding on its line with a caret under it, as rustc shows an error; the
    /// location alone when its line is not at hand (it started too long before).
    fn human(&mut self, f: Finding, length: Option<u64>, chunk: &[u8]) -> std::io::Result<()> {
        let shown = self.context.line_of(f, chunk);
        // A span's length: a reserved span's from the finding; a decoding error's from
        // the shown line's events.
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

    fn check(&mut self) -> Result<()> {
        self.failed
            .take()
            .map_or(Ok(()), |e| Err(io::write_failed(e)))
    }
}

/// The most bytes of a line before a finding that are shown, and kept from one chunk to
/// the next for that.
const CONTEXT: usize = 240;

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

/// One file's summary line (`check DIR`).
#[derive(serde::Serialize)]
struct JsonFileSummary<'a> {
    file: &'a str,
    errors: u64,
    warnings: u64,
}

/// One finding; `length` for a reserved span.
#[derive(serde::Serialize)]
struct JsonFinding<'a> {
    file: &'a str,
    line: u64,
    column: u64,
    severity: &'static str,
    kind: &'static str,
    offset: u64,
    #[serde(skip_serializing_if = "Option::is_none")]
    length: Option<u64>,
}

/// One line of JSON (serializing these structs cannot fail).
fn json_line<T: serde::Serialize>(value: &T) -> String {
    serde_json::to_string(value).unwrap_or_default()
}
