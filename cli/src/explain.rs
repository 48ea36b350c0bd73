//! `cutf8 explain`: a byte-by-byte breakdown for each encoding, in the spirit of the
//! interactive decoder of *All you need to know about UTF-8 decoding* (docs/sources.md).
//!
//! The explanation is the `cutf8-explain` library's (the explorer in the browser shows
//! the same): it cuts the bytes into segments (a sequence, an error span or a reserved
//! span, exactly the codec's events) and describes each in a few short lines. This
//! module only lays them out: each segment's first line on the row of its first byte,
//! so the columns line up by byte; encodings side by side, or one table after another
//! when that would be too wide.

use crate::args::{ExplainArgs, Layout, Selection};
use crate::io::{self, Failure, Result, Status, WriteResult};
use corrected_utf8::Encoding;
use cutf8_explain::decode::{byte_bits, Decoding};
use cutf8_explain::hex;
use std::fmt::Write as _;
use std::io::{IsTerminal, Write as _};

pub(crate) fn run(args: &ExplainArgs) -> Result<Status> {
    let bytes = parse_args(&args.hex).map_err(Failure::Trouble)?;
    if bytes.is_empty() {
        return Err(Failure::trouble("no bytes to explain"));
    }
    if args.max_code_len.is_some() && !args.encoding.contains(&Encoding::UtfInf8) {
        return Err(Failure::trouble(
            "--max-code-len limits utf-inf-8 codes, so it needs utf-inf-8 among the encodings",
        ));
    }
    let columns = explain(&bytes, &args.encoding, args.max_code_len);
    let text = render(&bytes, &columns, args.layout, output_width());
    let mut out = io::stdout();
    out.write_all(text.as_bytes()).out()?;
    out.flush().out()?;
    Ok(Status::Ok)
}

/// The arguments' bytes; the error says which argument and what is wrong with it.
fn parse_args(args: &[String]) -> std::result::Result<Vec<u8>, String> {
    let mut bytes = Vec::new();
    for (i, arg) in args.iter().enumerate() {
        hex::parse_into(arg, &mut bytes)
            .map_err(|why| format!("bad hex in argument {}: {why}", i + 1))?;
    }
    Ok(bytes)
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

/// The selected encodings' explanations, in order.
fn explain(bytes: &[u8], selection: &Selection, max_code_len: Option<u32>) -> Vec<Decoding> {
    selection
        .iter()
        .map(|&encoding| Decoding::new(bytes, encoding, max_code_len))
        .collect()
}

/// The input, the explanations in `layout` (by default side by side if that fits
/// `width`), then one summary line per encoding.
fn render(
    bytes: &[u8],
    columns: &[Decoding],
    layout: Option<Layout>,
    width: Option<usize>,
) -> String {
    let side_by_side = table(bytes, columns);
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
    out.push_str(&summary(columns));
    out
}

/// The table of bytes with one column per encoding.
fn table(bytes: &[u8], columns: &[Decoding]) -> String {
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
                    .segments
                    .get(next_segment[c])
                    .is_some_and(|s| s.offset == offset)
            })
            .collect();
        row = starting.iter().map(|&c| next_free[c]).fold(row, usize::max);
        *slot = row;
        for c in starting {
            starts[c].push(row);
            next_free[c] = row + columns[c].segments[next_segment[c]].lines.len();
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
    for (c, column) in columns.iter().enumerate() {
        for (segment, &start) in column.segments.iter().zip(&starts[c]) {
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
    header.extend(columns.iter().map(|c| format!("  {}", c.encoding.name())));
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
/// and the library's verdict (`valid`, or the errors and reserved spans counted apart).
fn summary(columns: &[Decoding]) -> String {
    let mut out = String::new();
    let name_width = columns
        .iter()
        .map(|c| c.encoding.name().len())
        .max()
        .unwrap_or(0);
    for column in columns {
        let shorts: Vec<&str> = column.segments.iter().map(|s| s.short.as_str()).collect();
        let name = column.encoding.name();
        let _ = writeln!(
            out,
            "{name:name_width$}  → {} ({})",
            shorts.join(" "),
            column.verdict()
        );
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn selections_keep_their_order() {
        let encodings = |selection: &Selection| -> Vec<Encoding> {
            explain(b"A", selection, None)
                .iter()
                .map(|d| d.encoding)
                .collect()
        };
        assert_eq!(encodings(&Encoding::ALL.to_vec()), Encoding::ALL);
        let two = vec![Encoding::UtfInf8, Encoding::CorrectedUtf8];
        assert_eq!(encodings(&two), two);
    }

    #[test]
    fn columns_when_they_fit_else_stacked() {
        let bytes = b"\xC0\xAF";
        let all = explain(bytes, &Encoding::ALL.to_vec(), None);
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
        let one = explain(bytes, &vec![Encoding::Utf8], None);
        assert_eq!(
            render(bytes, &one, Some(Layout::Stacked), None),
            render(bytes, &one, Some(Layout::Columns), None)
        );
    }

    #[test]
    fn errors_name_the_argument_and_the_problem() {
        let parse =
            |args: &[&str]| parse_args(&args.iter().map(|s| s.to_string()).collect::<Vec<_>>());
        assert_eq!(parse(&["C0", "AF"]), Ok(vec![0xC0, 0xAF]));
        assert_eq!(
            parse(&["41", "C0A"]),
            Err("bad hex in argument 2: 'C0A' has an odd number of hex digits".into())
        );
        assert_eq!(
            parse(&["G1"]),
            Err("bad hex in argument 1: 'G1' has 'G', not a hex digit".into())
        );
    }
}
