//! `cutf8 explain`: a byte-by-byte breakdown for each encoding, in the spirit of the
//! interactive decoder of *All you need to know about UTF-8 decoding* (docs/sources.md).
//!
//! Each encoding is one [`Explainer`]: it cuts the bytes into segments (a sequence or an
//! error span, exactly the codec's events) and describes each in a few short lines. The
//! layout puts each segment's first line on the row of its first byte, so the columns
//! line up by byte; encodings go side by side, or one table after another when that
//! would be too wide.

mod utf_inf8;

use crate::args::{ExplainArgs, Layout, Selection};
use crate::hex;
use crate::io::{self, Failure, Result, Status, WriteResult};
use corrected_utf8::corrected::{self, Row, TABLE};
use corrected_utf8::{utf8, DecodeError, Encoding, ErrorKind, Event, Located};
use std::fmt::Write as _;
use std::io::{IsTerminal, Write as _};

pub(crate) fn run(args: &ExplainArgs) -> Result<Status> {
    let bytes = hex::parse_args(&args.hex).map_err(Failure::Trouble)?;
    if bytes.is_empty() {
        return Err(Failure::trouble("no bytes to explain"));
    }
    if args.max_code_len.is_some() && !args.encoding.contains(&Encoding::UtfInf8) {
        return Err(Failure::trouble(
            "--max-code-len limits utf-inf-8 codes, so it needs utf-inf-8 among the encodings",
        ));
    }
    let explainers = select(&args.encoding, args.max_code_len);
    let text = render(&bytes, &explainers, args.layout, output_width());
    let mut out = io::stdout();
    out.write_all(text.as_bytes()).out()?;
    out.flush().out()?;
    Ok(Status::Ok)
}

/// The width the output should fit: `COLUMNS` when set (as `ls` reads it), else the
/// terminal's width (80 if the terminal does not say); `None`, no limit, for a pipe or
/// a file.
fn output_width() -> Option<usize> {
    let columns = std::env::var("COLUMNS").ok();
    if let Some(n) = columns
        .and_then(|c| c.trim().parse().ok())
        .filter(|&n| n > 0)
    {
        return Some(n);
    }
    let stdout = std::io::stdout();
    stdout
        .is_terminal()
        .then(|| terminal_size::terminal_size_of(&stdout).map_or(80, |(w, _)| usize::from(w.0)))
}

/// Explains one encoding.
pub(crate) trait Explainer {
    /// The column's heading.
    fn encoding(&self) -> Encoding;
    /// The segments of `bytes`, covering it in order.
    fn explain(&self, bytes: &[u8]) -> Vec<Segment>;
}

/// A sequence, an error span or a reserved span, and what to say about it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Segment {
    offset: usize,
    length: usize,
    class: Class,
    /// `U+00CF`, `[truncated]` or `[reserved]`: the segment in the summary line.
    short: String,
    lines: Vec<String>,
}

/// The event class of a segment, which the summary line counts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Class {
    CodePoint,
    Error,
    /// Not an error (a Corrected UTF-8 reserved span): counted apart.
    Reserved,
}

/// The explainers of the selected encodings, in order.
fn select(selection: &Selection, max_code_len: Option<u32>) -> Vec<Box<dyn Explainer>> {
    selection
        .iter()
        .map(|&encoding| -> Box<dyn Explainer> {
            match encoding {
                Encoding::CorrectedUtf8 => Box::new(Corrected),
                Encoding::Utf8 => Box::new(Utf8),
                Encoding::UtfInf8 => Box::new(utf_inf8::UtfInf8 {
                    limit: max_code_len.unwrap_or(corrected_utf8::utf_inf8::DEFAULT_MAX_CODE_LEN),
                }),
            }
        })
        .collect()
}

/// `3-byte row (raw ≥ CF60), offset 4 256`: a row of Corrected UTF-8, *Putting it all
/// together*, named as there; the 3-byte class has two rows, told apart by where the raw values split.
fn row_label(row: &Row) -> String {
    let split = TABLE.iter().filter(|r| r.len == row.len).count() > 1;
    let class = match (split, row.raw_first) {
        (false, _) => String::new(),
        (true, 0) => format!(" (raw < {:X})", row.raw_last + 1),
        (true, first) => format!(" (raw ≥ {first:X})"),
    };
    format!(
        "{}-byte row{class}, offset {}",
        row.len,
        group_digits(row.offset.into())
    )
}

/// The row of a complete sequence of `len` bytes with raw value `raw`.
fn row(len: usize, raw: u32) -> &'static Row {
    u8::try_from(len)
        .ok()
        .and_then(|len| corrected::row_of_sequence(len, raw))
        .expect("every complete sequence of 1 to 6 bytes has a row")
}
/// The bits a sequence carries as in RFC 2044, grouped by byte (`00000 101111`), and
/// their value.
fn raw_bits(seq: &[u8]) -> (String, u32) {
    let n = seq.len();
    let lead_bits = 7 - n; // `110xxxxx` carries 5
    let mut text = format!("{:0w$b}", seq[0] & (0x7F >> n), w = lead_bits);
    let mut raw = (seq[0] & (0x7F >> n)) as u32;
    for &b in &seq[1..] {
        let _ = write!(text, " {:06b}", b & 0x3F);
        raw = (raw << 6) | (b & 0x3F) as u32;
    }
    (text, raw)
}

/// `1-byte`… `6-byte` leads, in either encoding's lead-byte layout; 0 for the rest.
fn lead_len(byte: u8) -> usize {
    match byte.leading_ones() {
        0 => 1,
        n @ 2..=6 => n as usize,
        _ => 0,
    }
}

/// `error: truncated (bytes 3-4)`.
fn span_line(e: &DecodeError) -> String {
    let last = e.offset + e.length - 1;
    if e.length == 1 {
        format!("error: {} (byte {})", e.kind, e.offset)
    } else {
        format!("error: {} (bytes {}-{last})", e.kind, e.offset)
    }
}

/// `E0 needs 3 bytes, has 2`.
fn truncated_line(bytes: &[u8], e: &DecodeError) -> String {
    let lead = bytes[e.offset as usize];
    format!(
        "{lead:02X} needs {} bytes, has {}",
        lead_len(lead),
        e.length
    )
}

/// Summary text for an error span.
fn short_error(e: &DecodeError) -> String {
    format!("[{}]", e.kind)
}

/// What one segment says: its summary text and its lines.
type Description = (String, Vec<String>);

/// The codec's events as segments, each described by `describe(bytes, offset, length,
/// event)`.
fn segments<C>(
    bytes: &[u8],
    events: impl Iterator<Item = Located<C>>,
    describe: impl Fn(&[u8], usize, usize, Event<C>) -> Description,
) -> Vec<Segment> {
    events
        .map(|l| {
            // Offsets fit in `usize`: the events are of a slice.
            let (offset, length) = (l.offset as usize, l.length as usize);
            let class = match l.event {
                Event::CodePoint(_) => Class::CodePoint,
                Event::Error(_) => Class::Error,
                Event::Reserved(_) => Class::Reserved,
            };
            let (short, lines) = describe(bytes, offset, length, l.event);
            Segment {
                offset,
                length,
                class,
                short,
                lines,
            }
        })
        .collect()
}

struct Corrected;

impl Explainer for Corrected {
    fn encoding(&self) -> Encoding {
        Encoding::CorrectedUtf8
    }

    fn explain(&self, bytes: &[u8]) -> Vec<Segment> {
        segments(
            bytes,
            corrected::events(bytes).located(),
            Corrected::describe,
        )
    }
}

impl Corrected {
    fn describe(bytes: &[u8], offset: usize, length: usize, event: Event) -> Description {
        let seq = &bytes[offset..offset + length];
        match event {
            Event::CodePoint(cp) if length == 1 => (
                format!("U+{cp:04X}"),
                vec![format!("U+{cp:04X}  {}", row_label(&TABLE[0]))],
            ),
            Event::CodePoint(cp) => {
                let (bits, raw) = raw_bits(seq);
                let row = row(length, raw);
                // The table here must say what the codec decodes (tested at every row's
                // edges and over every 2- and 3-byte sequence).
                debug_assert_eq!(raw + row.offset, cp, "row of {seq:02X?}");
                let lines = vec![
                    format!(
                        "U+{cp:04X} = raw 0x{raw:X} + {}",
                        group_digits(row.offset.into())
                    ),
                    row_label(row),
                    format!("raw bits {bits}"),
                ];
                (format!("U+{cp:04X}"), lines)
            }
            Event::Error(e) => {
                let why = match e.kind {
                    // The kind says it all; runs of them stay one row per byte.
                    ErrorKind::UnexpectedContinuation => {
                        return (short_error(&e), vec![span_line(&e)])
                    }
                    ErrorKind::Truncated => truncated_line(bytes, &e),
                    other => other.as_str().into(),
                };
                (short_error(&e), vec![span_line(&e), why])
            }
            Event::Reserved(r) => {
                // Not an error: say so, and where the span stops.
                let end = match bytes.get(offset + length) {
                    None => "to the end of the input".into(),
                    Some(next) => format!("up to the next lead byte, {next:02X}"),
                };
                let last = r.offset + r.length - 1;
                let span = if r.length == 1 {
                    format!("reserved (byte {})", r.offset)
                } else {
                    format!("reserved (bytes {}-{last})", r.offset)
                };
                let why = "not an error: reserved for future use".into();
                ("[reserved]".into(), vec![span, why, end])
            }
        }
    }
}

struct Utf8;

impl Explainer for Utf8 {
    fn encoding(&self) -> Encoding {
        Encoding::Utf8
    }

    fn explain(&self, bytes: &[u8]) -> Vec<Segment> {
        segments(bytes, utf8::events(bytes).located(), Utf8::describe)
    }
}

impl Utf8 {
    fn describe(bytes: &[u8], offset: usize, length: usize, event: Event) -> Description {
        let seq = &bytes[offset..offset + length];
        match event {
            Event::CodePoint(cp) => {
                let utf8::Row {
                    first: lo,
                    last: hi,
                    ..
                } = utf8::Row::of(cp).expect("a decoded code point is in Table 3-7");
                let mut lines = vec![format!("U+{cp:04X}  row U+{lo:04X}..U+{hi:04X}")];
                if length > 1 {
                    lines.push(format!("bits {}", raw_bits(seq).0));
                }
                (format!("U+{cp:04X}"), lines)
            }
            Event::Error(e) => {
                let next = bytes.get(offset + 1).copied().unwrap_or(0);
                let why = match (e.kind, seq[0]) {
                    (ErrorKind::UnexpectedContinuation, _) => {
                        return (short_error(&e), vec![span_line(&e)])
                    }
                    (ErrorKind::Truncated, _) => truncated_line(bytes, &e),
                    (ErrorKind::Overlong, 0xC0 | 0xC1) => "C0, C1 only begin overlongs".into(),
                    (ErrorKind::Overlong, lead) => {
                        format!("{lead:02X} {next:02X} begins an overlong")
                    }
                    (ErrorKind::Surrogate, lead) => {
                        format!("{lead:02X} {next:02X} begins a surrogate")
                    }
                    (ErrorKind::OutOfRange, 0xF4) => {
                        format!("F4 {next:02X} begins > U+10FFFF")
                    }
                    (ErrorKind::OutOfRange, _) => "F5..FD begin > U+10FFFF".into(),
                    (ErrorKind::InvalidByte, _) => "FE, FF never occur".into(),
                    (other, _) => other.as_str().into(),
                };
                (short_error(&e), vec![span_line(&e), why])
            }
            Event::Reserved(r) => unreachable!("UTF-8 has no reserved spans: {r}"),
        }
    }
}

/// `69 275 808`: digits in groups of three, as Corrected UTF-8, *Putting it all together*,
/// writes offsets.
fn group_digits(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(' ');
        }
        out.push(c);
    }
    out
}

/// `0 1000001`, `110 00000`, `10 101111`: the marker bits, then the payload.
fn byte_bits(b: u8) -> String {
    let bits = format!("{b:08b}");
    match b.leading_ones() as usize {
        // FE's and FF's marker bits leave no payload.
        7.. => bits,
        n => format!("{} {}", &bits[..=n], &bits[n + 1..]),
    }
}

/// The input, the explanations in `layout` (by default side by side if that fits
/// `width`), then one summary line per encoding.
fn render(
    bytes: &[u8],
    explainers: &[Box<dyn Explainer>],
    layout: Option<Layout>,
    width: Option<usize>,
) -> String {
    let columns: Vec<Column> = explainers
        .iter()
        .map(|e| (e.encoding(), e.explain(bytes)))
        .collect();
    let side_by_side = table(bytes, &columns);
    let fits = |text: &str| width.is_none_or(|w| text.lines().all(|l| l.chars().count() <= w));
    let layout = layout.unwrap_or(if fits(&side_by_side) {
        Layout::Columns
    } else {
        Layout::Stacked
    });
    let mut out = format!("input: {} ({} bytes)\n\n", hex::format(bytes), bytes.len());
    match layout {
        Layout::Columns => out.push_str(&side_by_side),
        Layout::Stacked => {
            let tables: Vec<String> = columns
                .iter()
                .map(|c| table(bytes, std::slice::from_ref(c)))
                .collect();
            out.push_str(&tables.join("\n"));
        }
    }
    out.push('\n');
    out.push_str(&summary(&columns));
    out
}

/// An encoding and its segments.
type Column = (Encoding, Vec<Segment>);

/// The table of bytes with one column per encoding.
fn table(bytes: &[u8], columns: &[Column]) -> String {
    // Each byte gets a row; it moves down when a column's previous segment needs more
    // lines than it has bytes, so that every segment starts on the row of its first byte.
    let mut byte_row = vec![0; bytes.len()];
    let mut next_free = vec![0; columns.len()];
    let mut next_segment = vec![0; columns.len()];
    let mut starts: Vec<Vec<usize>> = vec![Vec::new(); columns.len()];
    let mut row = 0;
    for (offset, slot) in byte_row.iter_mut().enumerate() {
        let starting: Vec<usize> = (0..columns.len())
            .filter(|&c| {
                columns[c]
                    .1
                    .get(next_segment[c])
                    .is_some_and(|s| s.offset == offset)
            })
            .collect();
        row = starting.iter().map(|&c| next_free[c]).fold(row, usize::max);
        *slot = row;
        for c in starting {
            starts[c].push(row);
            next_free[c] = row + columns[c].1[next_segment[c]].lines.len();
            next_segment[c] += 1;
        }
        row += 1;
    }
    let rows = next_free.iter().copied().fold(row, usize::max);

    // The cells, row by row: offset, byte, bits, then one text per column.
    let mut cells = vec![vec![String::new(); 3 + columns.len()]; rows];
    for (offset, (&r, &b)) in byte_row.iter().zip(bytes).enumerate() {
        cells[r][0] = offset.to_string();
        cells[r][1] = format!("{b:02X}");
        cells[r][2] = byte_bits(b);
    }
    for (c, (_, segments)) in columns.iter().enumerate() {
        for (segment, &start) in segments.iter().zip(&starts[c]) {
            let last_byte_row = byte_row[segment.offset + segment.length - 1];
            let end = (start + segment.lines.len() - 1).max(last_byte_row);
            for (i, row) in cells[start..=end].iter_mut().enumerate() {
                // A bracket shows which rows, and so which bytes, the segment spans.
                let bracket = match (i == 0, start + i == end) {
                    (true, true) => "╶",
                    (true, false) => "┌",
                    (false, true) => "└",
                    (false, false) => "│",
                };
                let text = segment.lines.get(i).map_or("", String::as_str);
                row[3 + c] = format!("{bracket} {text}");
            }
        }
    }

    let mut header = vec!["offset".to_string(), "byte".into(), "bits".into()];
    header.extend(columns.iter().map(|(e, _)| format!("  {}", e.name())));
    let widths: Vec<usize> = (0..header.len())
        .map(|i| {
            cells
                .iter()
                .chain(std::iter::once(&header))
                .map(|row| row[i].chars().count())
                .max()
                .unwrap_or(0)
        })
        .collect();
    let mut out = String::new();
    for row in std::iter::once(&header).chain(&cells) {
        let mut line = String::new();
        for (i, cell) in row.iter().enumerate() {
            let pad = widths[i] - cell.chars().count();
            if i == 0 {
                // Offsets right-aligned, like numbers.
                let _ = write!(line, "{}{cell}", " ".repeat(pad));
            } else {
                let _ = write!(line, "  {cell}{}", " ".repeat(pad));
            }
        }
        out.push_str(line.trim_end());
        out.push('\n');
    }
    out
}

/// One line per encoding: the events in order, error and reserved spans in brackets,
/// and a verdict: `valid`, or the errors and (when there are some) the reserved spans,
/// counted apart since a reserved span is not an error.
fn summary(columns: &[Column]) -> String {
    let mut out = String::new();
    let name_width = columns
        .iter()
        .map(|(e, _)| e.name().len())
        .max()
        .unwrap_or(0);
    for (encoding, segments) in columns {
        let shorts: Vec<&str> = segments.iter().map(|s| s.short.as_str()).collect();
        let count = |class| segments.iter().filter(|s| s.class == class).count();
        let (errors, reserved) = (count(Class::Error), count(Class::Reserved));
        let verdict = match (errors, reserved) {
            (0, 0) => "valid".to_string(),
            (1, 0) => "1 error".to_string(),
            (n, 0) => format!("{n} errors"),
            (1, r) => format!("1 error, {r} reserved"),
            (n, r) => format!("{n} errors, {r} reserved"),
        };
        let name = encoding.name();
        let _ = writeln!(
            out,
            "{name:name_width$}  → {} ({verdict})",
            shorts.join(" ")
        );
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn table_rows_agree_with_the_codec_at_every_row_edge() {
        // First and last sequence of every row of Corrected UTF-8, *Putting it all together*.
        let edges: [(&[u8], u32); 14] = [
            (b"\x00", 0x0),
            (b"\x7F", 0x7F),
            (b"\xC0\x80", 0xA0),
            (b"\xDF\xBF", 0x89F),
            (b"\xE0\x80\x80", 0x8A0),
            (b"\xEC\xBD\x9F", 0xD7FF),
            (b"\xEC\xBD\xA0", 0xE000),
            (b"\xEF\xBF\xBF", 0x1_109F),
            (b"\xF0\x80\x80\x80", 0x1_10A0),
            (b"\xF7\xBF\xBF\xBF", 0x21_109F),
            (b"\xF8\x80\x80\x80\x80", 0x21_10A0),
            (b"\xFB\xBF\xBF\xBF\xBF", 0x421_109F),
            (b"\xFC\x80\x80\x80\x80\x80", 0x421_10A0),
            (b"\xFD\xBF\xBF\xBF\xBF\xBF", 0x8421_109F),
        ];
        for (seq, cp) in edges {
            assert_eq!(corrected::decode(seq), Ok(vec![cp]));
            // `explain` asserts raw + offset == the codec's code point.
            let segments = Corrected.explain(seq);
            assert_eq!(segments.len(), 1);
            assert_eq!(segments[0].short, format!("U+{cp:04X}"));
        }
        let (_, raw) = raw_bits(b"\xEC\xBD\xA0");
        assert_eq!(raw, 0xCF60);
        assert_eq!(row(3, raw).offset, 4_256);
        assert_eq!(row(3, raw - 1).offset, 2_208);
    }

    #[test]
    fn every_two_and_three_byte_sequence_explains_as_the_codec_decodes() {
        let conts = 0x80..=0xBFu8;
        let two = (0xC0..=0xDFu8).flat_map(|a| conts.clone().map(move |b| vec![a, b]));
        let three = (0xE0..=0xEFu8).flat_map(|a| {
            conts
                .clone()
                .flat_map(move |b| (0x80..=0xBFu8).map(move |c| vec![a, b, c]))
        });
        for seq in two.chain(three) {
            let cp = corrected::decode(&seq).unwrap()[0];
            let (bits, raw) = raw_bits(&seq);
            assert_eq!(raw + row(seq.len(), raw).offset, cp, "{seq:02X?}");
            // Payload bits plus one space between bytes.
            assert_eq!(
                bits.len(),
                7 - seq.len() + 7 * (seq.len() - 1),
                "{seq:02X?}"
            );
        }
    }

    #[test]
    fn bits_split_marker_from_payload() {
        assert_eq!(byte_bits(0x41), "0 1000001");
        assert_eq!(byte_bits(0xAF), "10 101111");
        assert_eq!(byte_bits(0xC0), "110 00000");
        assert_eq!(byte_bits(0xFD), "1111110 1");
        assert_eq!(byte_bits(0xFE), "11111110");
        assert_eq!(byte_bits(0xFF), "11111111");
        assert_eq!(raw_bits(b"\xC0\xAF"), ("00000 101111".to_string(), 0x2F));
    }

    #[test]
    fn offsets_group_like_the_source_table() {
        assert_eq!(group_digits(0), "0");
        assert_eq!(group_digits(160), "160");
        assert_eq!(group_digits(2_208), "2 208");
        assert_eq!(group_digits(69_275_808), "69 275 808");
    }

    #[test]
    fn segments_cover_the_input_in_every_explainer() {
        let input = b"A\xC0\xAF\xFE\xFE\x80\xE0\x80\xED\xA0\x80\xF4\x90\x80\x80\xFF\xB4\xA0\xFF";
        for e in select(&Encoding::ALL.to_vec(), None) {
            let mut at = 0;
            for s in e.explain(input) {
                assert_eq!(s.offset, at, "{}", e.encoding());
                assert!(!s.lines.is_empty());
                at += s.length;
            }
            assert_eq!(at, input.len());
        }
    }

    /// Every encoding explains any bytes without a panic (this build's debug assertions
    /// check each code point against the codec), covering them exactly.
    #[test]
    fn every_explainer_covers_arbitrary_bytes() {
        let explainers = select(&Encoding::ALL.to_vec(), Some(40));
        // Bytes that begin every UTF-∞-8 form, then pseudo-random continuations.
        let mut state = 0x2545_F491_4F6C_DD1Du64;
        for round in 0..3000 {
            let mut bytes = vec![[0xFF, 0xFE, 0xF4, 0xED, 0xE0, 0xC1][round % 6]];
            let len = 1 + round % 37;
            for _ in 0..len {
                state ^= state << 13;
                state ^= state >> 7;
                state ^= state << 17;
                // Mostly continuation bytes, often the length bytes A0–AF and B4.
                let b = match state % 8 {
                    0 => 0xB4,
                    1..=3 => 0xA0 | (state >> 8) as u8 & 0x0F,
                    4 => (state >> 8) as u8,
                    _ => 0x80 | (state >> 8) as u8 & 0x3F,
                };
                bytes.push(b);
            }
            for e in &explainers {
                let covered: usize = e.explain(&bytes).iter().map(|s| s.length).sum();
                assert_eq!(covered, bytes.len(), "{} {bytes:02X?}", e.encoding());
            }
        }
    }

    #[test]
    fn selections_keep_their_order() {
        let encodings = |selection: &Selection| -> Vec<Encoding> {
            select(selection, None)
                .iter()
                .map(|e| e.encoding())
                .collect()
        };
        assert_eq!(encodings(&Encoding::ALL.to_vec()), Encoding::ALL);
        let two = vec![Encoding::UtfInf8, Encoding::CorrectedUtf8];
        assert_eq!(encodings(&two), two);
    }

    #[test]
    fn columns_when_they_fit_else_stacked() {
        let bytes = b"\xC0\xAF";
        let all = select(&Encoding::ALL.to_vec(), None);
        let columns = render(bytes, &all, None, None);
        let widest = columns.lines().take(6).map(|l| l.chars().count()).max();
        let header = |text: &str| text.lines().filter(|l| l.starts_with("offset")).count();
        assert_eq!(header(&columns), 1);
        assert_eq!(render(bytes, &all, None, widest), columns);
        let stacked = render(bytes, &all, None, widest.map(|w| w - 1));
        assert_eq!(header(&stacked), 3);
        assert_eq!(render(bytes, &all, Some(Layout::Stacked), None), stacked);
        assert_eq!(
            render(bytes, &all, Some(Layout::Columns), Some(10)),
            columns
        );
        // One encoding is the same table either way.
        let one = select(&vec![Encoding::Utf8], None);
        assert_eq!(
            render(bytes, &one, Some(Layout::Stacked), None),
            render(bytes, &one, Some(Layout::Columns), None)
        );
    }

    #[test]
    fn row_labels_name_the_split_of_the_3_byte_class() {
        let labels: Vec<String> = TABLE.iter().map(row_label).collect();
        assert_eq!(labels[0], "1-byte row, offset 0");
        assert_eq!(labels[2], "3-byte row (raw < CF60), offset 2 208");
        assert_eq!(labels[3], "3-byte row (raw ≥ CF60), offset 4 256");
        assert_eq!(labels[6], "6-byte row, offset 69 275 808");
    }
}
