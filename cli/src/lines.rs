//! `check --format short|json`: a line per finding, composed by hand in a buffer.
//!
//! On finding-dense input (a file of NUL bytes: a finding per byte) the lines are the
//! work: with `write!` and serde, std's formatting machinery and the small copies it
//! made took 90% of the time (5 MB/s of input, 1,549 instructions a byte). Here a line
//! is the last line with its column and offset counted up when it can be ([`Repeat`]:
//! one line in a thousand is not, on a file of NUL bytes); else it is composed: the
//! file's prefix, the numbers ([`Counter`]) and the words between them, composed once
//! per kind, copied with a fixed size (a few vector moves, not a `memmove` call each)
//! into a buffer with room to spare, which goes to the output when full. 268
//! instructions a byte in all, the checker's included. Tests compare every line with
//! `Finding`'s `Display` and with serde's JSON.

use corrected_utf8::{Finding, FindingKind, Severity};
use std::io::{self, Write};

/// The buffer is written out when less than a line's room is left past this.
const BUFFER: usize = 64 * 1024;

/// The room a line needs past its prefix: four numbers of at most 20 digits, each
/// copied with its padding (24 bytes), the words between them (at most [`PAD`]) and
/// punctuation.
const LINE_ROOM: usize = 4 * 24 + 2 * PAD;

/// The size of the fixed copies: the longest words between two numbers
/// (`,"severity":"warning","kind":"missing-final-newline","offset":`, 62 bytes) fit.
/// (A longer piece, a long file name, is copied as it is.)
const PAD: usize = 64;

/// Pairs of decimal digits, `00` to `99`.
const DIGIT_PAIRS: &[u8; 200] = b"\
    0001020304050607080910111213141516171819\
    2021222324252627282930313233343536373839\
    4041424344454647484950515253545556575859\
    6061626364656667686970717273747576777879\
    8081828384858687888990919293949596979899";

/// A piece of a line: padded to [`PAD`] bytes for a fixed-size copy, or longer.
enum Piece {
    Padded([u8; PAD], usize),
    Long(Box<[u8]>),
}

impl Piece {
    fn new(bytes: &[u8]) -> Piece {
        if bytes.len() <= PAD {
            let mut padded = [0; PAD];
            padded[..bytes.len()].copy_from_slice(bytes);
            Piece::Padded(padded, bytes.len())
        } else {
            Piece::Long(bytes.into())
        }
    }

    fn len(&self) -> usize {
        match self {
            Piece::Padded(_, len) => *len,
            Piece::Long(bytes) => bytes.len(),
        }
    }
}

/// The findings of one file as lines of `--format short` or `--format json`.
pub(crate) struct Lines {
    json: bool,
    /// Fixed length: [`BUFFER`] plus a line's room; `len` bytes of it are the lines.
    buf: Vec<u8>,
    len: usize,
    /// The room a line may take: the prefix, or a padded copy of it, and the rest.
    room: usize,
    /// `FILE:` or `{"file":"FILE","line":`.
    prefix: Piece,
    /// The words between the column and the offset, for each kind met (a few), and
    /// whether they announce an extent (`(bytes A-B)`).
    middles: Vec<(FindingKind, bool, Piece)>,
    /// The name and severity of the last line's kind, whether it had an extent, and
    /// its words in `middles`.
    current: (&'static str, Severity, bool),
    current_at: usize,
    /// The last line written, to repeat with the next column and offset.
    repeat: Repeat,
    /// The last line, column and offset composed, in decimal.
    line: Counter,
    column: Counter,
    offset: Counter,
}

impl Lines {
    /// Lines for the file shown as `name`.
    pub(crate) fn new(json: bool, name: &str) -> Lines {
        let prefix = match json {
            true => format!(
                "{{\"file\":{},\"line\":",
                crate::io::json_escaped(serde_json::to_string(name).unwrap_or_default())
            ),
            false => format!("{name}:"),
        };
        let prefix = Piece::new(prefix.as_bytes());
        Lines {
            json,
            buf: vec![0; BUFFER + (prefix.len().max(PAD) + LINE_ROOM).max(8 * REPEAT_WORDS)],
            len: 0,
            room: (prefix.len().max(PAD) + LINE_ROOM).max(8 * REPEAT_WORDS),
            prefix,
            middles: Vec::new(),
            // No kind's name.
            current: ("", Severity::Error, false),
            current_at: 0,
            repeat: Repeat::default(),
            line: Counter::default(),
            column: Counter::default(),
            offset: Counter::default(),
        }
    }

    /// Adds the line of `f` (`length`: a reserved span's), writing the buffer to `out`
    /// first if it is full.
    ///
    /// `--format short`: `FILE:LINE:COLUMN: SEVERITY: KIND (byte OFFSET)`, or `(bytes
    /// FIRST-LAST)` for a reserved span of more than a byte. `--format json`:
    /// `{"file":…,"line":…,"column":…,"severity":…,"kind":…,"offset":…}`, with
    /// `"length"` last for a reserved span.
    #[inline]
    pub(crate) fn push(
        &mut self,
        f: Finding,
        length: Option<u64>,
        out: &mut dyn Write,
    ) -> io::Result<()> {
        if self.len > BUFFER {
            self.flush(out)?;
        }
        if length.is_none() && f.kind == self.repeat.kind {
            let room = &mut self.buf[self.len..self.len + self.room];
            if let Some(n) = self.repeat.next(f, room) {
                self.len += n;
                return Ok(());
            }
        }
        self.compose(f, length);
        Ok(())
    }

    /// Composes the line of `f` at the end of the buffer, and keeps it to repeat.
    #[inline(never)]
    fn compose(&mut self, f: Finding, length: Option<u64>) {
        // Short lines show an extent for a span of more than a byte; JSON always has
        // the length of a reserved span.
        let ranged = !self.json && length.is_some_and(|n| n > 1);
        // Most lines have the kind of the line before: one compare, not a search, and
        // of what the words are made of, the kind's name (a table lookup) and its
        // severity, which costs less than comparing kinds. (The severity too, so that
        // a name a warning and an error shared would still get each its own words.)
        let key = (f.kind.as_str(), f.severity(), ranged);
        if !std::ptr::eq(key.0, self.current.0)
            || (key.1, key.2) != (self.current.1, self.current.2)
        {
            self.change_kind(f, ranged);
        }
        // The line is composed in `room` at `n`, locals the compiler keeps in
        // registers (through `self` it stores and reloads them after every piece).
        let room = &mut self.buf[self.len..self.len + self.room];
        let mut n = put_piece(room, 0, &self.prefix);
        self.line.set(f.line);
        n = self.line.put(room, n);
        n = match self.json {
            true => put(room, n, b",\"column\":"),
            false => put(room, n, b":"),
        };
        self.column.set(f.column);
        n = self.column.put(room, n);
        let column_at = n - 1;
        n = put_piece(room, n, &self.middles[self.current_at].2);
        self.offset.set(f.offset);
        n = self.offset.put(room, n);
        let offset_at = n - 1;
        n = match (self.json, length) {
            (true, Some(length)) => {
                n = put(room, n, b",\"length\":");
                n += write_decimal(&mut room[n..], length);
                put(room, n, b"}\n")
            }
            (true, None) => put(room, n, b"}\n"),
            (false, Some(length)) if ranged => {
                n = put(room, n, b"-");
                n += write_decimal(&mut room[n..], f.offset + length - 1);
                put(room, n, b")\n")
            }
            (false, _) => put(room, n, b")\n"),
        };
        if length.is_none() {
            self.repeat.keep(&room[..n], f, column_at, offset_at);
        } else {
            self.repeat.words = 0;
        }
        self.len += n;
    }

    /// Writes the lines so far to `out`.
    pub(crate) fn flush(&mut self, out: &mut dyn Write) -> io::Result<()> {
        let len = std::mem::take(&mut self.len);
        out.write_all(&self.buf[..len])
    }

    /// Makes `kind` (with an extent or not) the current one: finds its words, or
    /// composes them.
    #[cold]
    fn change_kind(&mut self, f: Finding, ranged: bool) {
        let key = (f.kind, ranged);
        self.current_at = match self.middles.iter().position(|(k, r, _)| (*k, *r) == key) {
            Some(at) => at,
            None => {
                let middle = self.middle(f, ranged);
                self.middles
                    .push((f.kind, ranged, Piece::new(middle.as_bytes())));
                self.middles.len() - 1
            }
        };
        self.current = (f.kind.as_str(), f.severity(), ranged);
    }

    /// The words between the column and the offset.
    fn middle(&self, f: Finding, ranged: bool) -> String {
        let (severity, kind) = (f.severity().as_str(), f.kind.as_str());
        match (self.json, ranged) {
            // Kinds are lowercase ASCII letters and hyphens: nothing to escape.
            (true, _) => format!(",\"severity\":\"{severity}\",\"kind\":\"{kind}\",\"offset\":"),
            (false, true) => format!(": {severity}: {kind} (bytes "),
            (false, false) => format!(": {severity}: {kind} (byte "),
        }
    }
}

/// The longest line a [`Repeat`] keeps, in 8-byte words.
const REPEAT_WORDS: usize = 16;

/// The last line, kept to repeat: in a run of findings of one kind on one line (a file
/// of NUL bytes: a finding per byte) each line is the last one with its column and its
/// offset one more. Such a line is the last one with a number added to the words that
/// hold the last digits of the two (a one; for trailing 9s also the carry: `…19` +
/// `01` − `09` = `…20`), copied out a word at a time (8 or 16 words, a fixed count the
/// compiler unrolls): some 60 instructions rather than 240 to compose it anew.
///
/// The words are read and written 8 bytes at a time, never 16: a load wider than the
/// store that wrote its bytes (the two words just counted up) waits for the store to
/// reach the cache (no store forwarding). So the words are kept 16 bytes apart, where
/// the compiler cannot merge two loads into one.
struct Repeat {
    /// The line's words, each the first of a pair (the second unused).
    line_words: [[u64; 2]; REPEAT_WORDS],
    /// The words to copy out, 8 or 16; 0: no line to repeat.
    words: usize,
    len: usize,
    kind: FindingKind,
    line: u64,
    column: u64,
    offset: u64,
    /// Where the last digits of the column and the offset are in the line.
    column_at: usize,
    offset_at: usize,
}

impl Default for Repeat {
    fn default() -> Self {
        Repeat {
            line_words: [[0; 2]; REPEAT_WORDS],
            words: 0,
            len: 0,
            kind: FindingKind::Nul,
            line: 0,
            column: 0,
            offset: 0,
            column_at: 0,
            offset_at: 0,
        }
    }
}

impl Repeat {
    /// Keeps `line`, the line of `f`, if it fits.
    fn keep(&mut self, line: &[u8], f: Finding, column_at: usize, offset_at: usize) {
        self.words = match line.len() {
            0..=64 => 8,
            65..=128 => 16,
            _ => 0,
        };
        if self.words == 0 {
            return;
        }
        let mut bytes = [0; 8 * REPEAT_WORDS];
        bytes[..line.len()].copy_from_slice(line);
        for (word, from) in self.line_words.iter_mut().zip(bytes.chunks_exact(8)) {
            word[0] = u64::from_le_bytes(from.try_into().expect("8 bytes"));
        }
        (self.len, self.kind) = (line.len(), f.kind);
        (self.line, self.column, self.offset) = (f.line, f.column, f.offset);
        (self.column_at, self.offset_at) = (column_at, offset_at);
    }

    /// Writes the line of `f` to `room` if it is the last one with the column and the
    /// offset one more (`f` has the kind of the last line, and no length); returns its
    /// length.
    fn next(&mut self, f: Finding, room: &mut [u8]) -> Option<usize> {
        if self.words == 0
            || f.line != self.line
            || Some(f.column) != self.column.checked_add(1)
            || Some(f.offset) != self.offset.checked_add(1)
        {
            return None;
        }
        let (column_word, column_add) = count_up(&self.line_words, self.column_at)?;
        let (offset_word, offset_add) = count_up(&self.line_words, self.offset_at)?;
        self.line_words[column_word][0] = self.line_words[column_word][0].wrapping_add(column_add);
        self.line_words[offset_word][0] = self.line_words[offset_word][0].wrapping_add(offset_add);
        match self.words {
            8 => copy_words::<8>(&self.line_words, room),
            _ => copy_words::<16>(&self.line_words, room),
        }
        self.column += 1;
        self.offset += 1;
        Some(self.len)
    }
}

/// Copies the first `W` words to `room`.
fn copy_words<const W: usize>(words: &[[u64; 2]; REPEAT_WORDS], room: &mut [u8]) {
    let room = &mut room[..8 * W];
    for k in 0..W {
        room[8 * k..8 * k + 8].copy_from_slice(&words[k][0].to_le_bytes());
    }
}

/// What makes the number whose last digit is byte `at` of `words` one more, as a
/// number to add to the word that holds it: `(word, add)`. `None` when the carry would
/// cross into the word before, or add a digit (`…99` to `…100`).
fn count_up(words: &[[u64; 2]; REPEAT_WORDS], at: usize) -> Option<(usize, u64)> {
    let word = words.get(at / 8)?[0];
    let mut add = 0u64;
    let mut i = at % 8;
    loop {
        let one = 1u64 << (8 * i);
        match (word >> (8 * i)) as u8 {
            // No byte borrows from or carries into another: '9' − 9 is '0', and the
            // digit that gets one more is at most '8'.
            b'0'..=b'8' => return Some((at / 8, add.wrapping_add(one))),
            b'9' if i > 0 => {
                add = add.wrapping_sub(9 * one);
                i -= 1;
            }
            _ => return None,
        }
    }
}

/// A number and its decimal digits, kept from one line to the next: on finding-dense
/// input each line's line, column and offset are the last line's or one more, so the
/// digits are reused or counted up in place, with no division.
///
/// The digits are kept, changed and copied as three 64-bit words, never a byte at a
/// time nor 16 bytes at once: a load wider than the store that wrote its bytes waits
/// for the store to reach the cache (no store forwarding), which cost more than the
/// divisions saved. The words are apart in memory (`repr(C)`, other fields between
/// them) so that the compiler cannot merge their 8-byte loads into one 16-byte load.
#[derive(Debug)]
#[repr(C)]
struct Counter {
    /// The digits, from the first, as the little-endian bytes of `w0`, `w1`, `w2`;
    /// zeros after them.
    w0: u64,
    value: u64,
    w1: u64,
    len: usize,
    w2: u64,
}

impl Default for Counter {
    fn default() -> Self {
        Counter {
            w0: u64::from(b'0'),
            value: 0,
            w1: 0,
            len: 1,
            w2: 0,
        }
    }
}

impl Counter {
    fn set(&mut self, n: u64) {
        if n == self.value {
            return;
        }
        if Some(n) == self.value.checked_add(1) {
            // The last digit goes up one, unless it is a 9 (one time in ten: carries,
            // done below as any other number).
            let last = self.len - 1;
            let shift = 8 * (last % 8);
            let word = match last / 8 {
                0 => &mut self.w0,
                1 => &mut self.w1,
                _ => &mut self.w2,
            };
            if (*word >> shift) as u8 != b'9' {
                *word += 1 << shift;
                self.value = n;
                return;
            }
        }
        let mut digits = [0; 24];
        self.len = write_decimal(&mut digits, n);
        let word = |i: usize| u64::from_le_bytes(digits[i..i + 8].try_into().expect("8 bytes"));
        (self.w0, self.w1, self.w2) = (word(0), word(8), word(16));
        self.value = n;
    }

    /// Copies the digits to `room[n..]`, a word at a time (there is room for the
    /// three); returns where the digits end.
    fn put(&self, room: &mut [u8], n: usize) -> usize {
        // One bounds check for the three (an array's ranges are known).
        let words: &mut [u8; 24] = (&mut room[n..n + 24]).try_into().expect("24 bytes");
        words[..8].copy_from_slice(&self.w0.to_le_bytes());
        words[8..16].copy_from_slice(&self.w1.to_le_bytes());
        words[16..].copy_from_slice(&self.w2.to_le_bytes());
        n + self.len
    }

    #[cfg(test)]
    fn digits(&self) -> Vec<u8> {
        let words = [self.w0, self.w1, self.w2];
        let bytes: Vec<u8> = words.iter().flat_map(|w| w.to_le_bytes()).collect();
        bytes[..self.len].to_vec()
    }
}

/// Writes `n` in decimal at the start of `buf`, two digits at a time from the right;
/// returns the number of digits.
fn write_decimal(buf: &mut [u8], mut n: u64) -> usize {
    let digits = decimal_len(n);
    let field = &mut buf[..digits];
    let mut end = digits;
    while n >= 100 {
        let pair = (n % 100) as usize * 2;
        n /= 100;
        field[end - 2..end].copy_from_slice(&DIGIT_PAIRS[pair..pair + 2]);
        end -= 2;
    }
    if n >= 10 {
        let pair = n as usize * 2;
        field[end - 2..end].copy_from_slice(&DIGIT_PAIRS[pair..pair + 2]);
    } else {
        field[end - 1] = b'0' + n as u8;
    }
    digits
}

/// Copies `bytes` (a few, known at compile time: the copy is inlined) to `room[n..]`;
/// returns where they end.
fn put(room: &mut [u8], n: usize, bytes: &[u8]) -> usize {
    room[n..n + bytes.len()].copy_from_slice(bytes);
    n + bytes.len()
}

/// Copies `piece` to `room[n..]`, a padded piece whole, so the copy has a fixed size
/// (there is room for it past any line); returns where it ends.
fn put_piece(room: &mut [u8], n: usize, piece: &Piece) -> usize {
    match piece {
        Piece::Padded(bytes, len) => {
            let to: &mut [u8; PAD] = (&mut room[n..n + PAD]).try_into().expect("PAD bytes");
            *to = *bytes;
            n + len
        }
        Piece::Long(bytes) => put(room, n, bytes),
    }
}

/// The number of decimal digits of `n`.
fn decimal_len(n: u64) -> usize {
    n.checked_ilog10().map_or(1, |log| log as usize + 1)
}

#[cfg(test)]
mod tests {
    use super::*;
    use corrected_utf8::ErrorKind;

    /// What `--format json` printed with serde before these lines were written by
    /// hand: the reference.
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

    fn reference(json: bool, name: &str, f: Finding, length: Option<u64>) -> String {
        if json {
            let object = JsonFinding {
                file: name,
                line: f.line,
                column: f.column,
                severity: f.severity().as_str(),
                kind: f.kind.as_str(),
                offset: f.offset,
                length,
            };
            return serde_json::to_string(&object).unwrap() + "\n";
        }
        match length {
            Some(n) if n > 1 => format!(
                "{name}:{}:{}: {}: {} (bytes {}-{})\n",
                f.line,
                f.column,
                f.severity(),
                f.kind,
                f.offset,
                f.offset + n - 1
            ),
            _ => format!("{name}:{f}\n"),
        }
    }

    #[test]
    fn lines_are_what_display_and_serde_write() {
        let numbers = [
            0,
            1,
            9,
            10,
            99,
            100,
            101,
            999,
            1000,
            12_345,
            999_999_999,
            1_000_000_000,
            u64::MAX / 2,
            u64::MAX - 1,
        ];
        let kinds = [
            FindingKind::Nul,
            FindingKind::Reserved,
            FindingKind::MissingFinalNewline,
            FindingKind::ParagraphSeparator,
            FindingKind::Decode(ErrorKind::UnexpectedContinuation),
            FindingKind::Decode(ErrorKind::Truncated),
        ];
        let long = "d/".repeat(100) + "f.txt";
        let names = ["<stdin>", "a \"quoted\" \\ name\t\u{1}é✓.txt", &long];
        for json in [false, true] {
            for name in names {
                let mut lines = Lines::new(json, name);
                let mut want = String::new();
                let mut out = Vec::new();
                // Dense, as in a file of NUL bytes (the counters count up across
                // 99 → 100 and 999 → 1000)...
                for i in 0..1500 {
                    let f = Finding {
                        kind: FindingKind::Nul,
                        offset: i,
                        length: 1,
                        line: 1 + i / 700,
                        column: 1 + i % 700,
                    };
                    want += &reference(json, name, f, None);
                    lines.push(f, None, &mut out).unwrap();
                }
                // ... and anywhere: enough lines that the buffer is written out
                // several times.
                for (i, &n) in numbers.iter().cycle().take(5000).enumerate() {
                    let kind = kinds[i % kinds.len()];
                    let length = match kind {
                        FindingKind::Reserved => Some([1, 2, n.max(1)][i % 3]),
                        _ => None,
                    };
                    let f = Finding {
                        kind,
                        offset: n.min(u64::MAX - length.unwrap_or(0)),
                        length: length.unwrap_or(1),
                        line: numbers[(i + 3) % numbers.len()],
                        column: numbers[(i + 7) % numbers.len()],
                    };
                    want += &reference(json, name, f, length);
                    lines.push(f, length, &mut out).unwrap();
                }
                // A warning then an error, one after the other, at one place.
                for (kind, length) in [
                    (FindingKind::Reserved, Some(1)),
                    (FindingKind::Decode(ErrorKind::Truncated), None),
                ] {
                    let f = Finding {
                        kind,
                        offset: 7,
                        length: length.unwrap_or(1),
                        line: 1,
                        column: 8,
                    };
                    want += &reference(json, name, f, length);
                    lines.push(f, length, &mut out).unwrap();
                }
                lines.flush(&mut out).unwrap();
                let got = String::from_utf8(out).unwrap();
                assert_eq!(got.len(), want.len(), "json {json}, {name}");
                for (g, w) in got.lines().zip(want.lines()) {
                    assert_eq!(g, w, "json {json}, {name}");
                }
            }
        }
    }

    /// Runs of lines each the last one with the column and the offset one more, at
    /// every alignment of the numbers to the 8-byte words (names of 1 to 80 bytes: lines
    /// of 8 and of 16 words, and too long to repeat), across the carries (…9 to …0,
    /// within and across words) and the numbers that gain a digit, and across the
    /// buffer being written out.
    #[test]
    fn repeated_lines_at_every_alignment() {
        for json in [false, true] {
            for name_len in 1..=80 {
                let name = "x".repeat(name_len);
                let mut lines = Lines::new(json, &name);
                let (mut want, mut out) = (String::new(), Vec::new());
                for i in 0..2300u64 {
                    let f = Finding {
                        kind: FindingKind::C0Control,
                        offset: 9_990 + i,
                        length: 1,
                        line: 7 + i / 1500,
                        column: 1 + i % 1500,
                    };
                    want += &reference(json, &name, f, None);
                    lines.push(f, None, &mut out).unwrap();
                }
                lines.flush(&mut out).unwrap();
                let got = String::from_utf8(out).unwrap();
                for (g, w) in got.lines().zip(want.lines()) {
                    assert_eq!(g, w, "json {json}, name {name_len} bytes");
                }
                assert_eq!(got.len(), want.len(), "json {json}, name {name_len} bytes");
            }
        }
    }

    #[test]
    fn counters_count_up_and_jump() {
        let mut counter = Counter::default();
        let mut values: Vec<u64> = (0..12_000).collect();
        values.extend([99_999, 100_000, 100_001, 5, 6, u64::MAX - 1, u64::MAX, 0, 1]);
        for n in values {
            counter.set(n);
            assert_eq!(counter.digits(), n.to_string().as_bytes());
        }
    }

    #[test]
    fn decimal_lengths() {
        for (n, len) in [(0, 1), (9, 1), (10, 2), (99, 2), (100, 3), (u64::MAX, 20)] {
            assert_eq!(decimal_len(n), len, "{n}");
        }
    }
}
