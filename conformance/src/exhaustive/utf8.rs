//! Check (2) for UTF-8: every input's events equal the spec-literal decoder's
//! ([`literal::utf8::decode_located`]), by the walk of [`super::walk`]; the first error
//! equals `core::str::from_utf8`'s; and each input is put in its Table 3.1b audit class.

use super::codec_fns::{render_events, CodecFns, Ev, KindCode, Value};
use super::failure::{Counters, Failure};
use super::walk::{agrees, counterexample, DecodeTally, InputCheck, Memo, SuffixTable, MAX_INPUT};
use crate::audit::{self, Cut, Disagreement};
use conformance_literal::{self as literal, hex, table31b, Kind};
use std::collections::BTreeMap;

/// Table 3.1b's rows as a shift-and automaton: bit `base(row) + c` is set after a byte
/// when the row's cells `0..=c` accepted the run ending at that byte. Built from
/// [`table31b::TABLE_3_1B`]'s cells ([`table31b::Cell::accepts`]); tested against
/// [`table31b::is_ill_formed`].
#[derive(Clone, Debug)]
pub struct ShiftAnd {
    accept: [u32; 256],
    starts: u32,
    ends: u32,
}

impl Default for ShiftAnd {
    fn default() -> Self {
        let mut accept = [0u32; 256];
        let (mut starts, mut ends, mut bit) = (0u32, 0u32, 0u32);
        for row in &table31b::TABLE_3_1B {
            starts |= 1 << bit;
            for cell in row.cells {
                for (b, mask) in accept.iter_mut().enumerate() {
                    if cell.accepts(b as u8) {
                        *mask |= 1 << bit;
                    }
                }
                bit += 1;
            }
            ends |= 1 << (bit - 1);
        }
        ShiftAnd {
            accept,
            starts,
            ends,
        }
    }
}

/// The automaton's state after a prefix, and whether a row matched anywhere in it.
#[derive(Clone, Copy, Debug, Default)]
pub struct T31b {
    live: u32,
    /// Some row of Table 3.1b matches a run of the prefix.
    pub ill_formed: bool,
}

impl ShiftAnd {
    /// The state after one more byte.
    #[inline]
    pub fn step(&self, s: T31b, byte: u8) -> T31b {
        let live = (((s.live << 1) & !self.starts) | self.starts) & self.accept[usize::from(byte)];
        T31b {
            live,
            ill_formed: s.ill_formed || live & self.ends != 0,
        }
    }

    /// Whether Table 3.1b calls `input` ill-formed.
    pub fn is_ill_formed(&self, input: &[u8]) -> bool {
        input
            .iter()
            .fold(T31b::default(), |s, &b| self.step(s, b))
            .ill_formed
    }
}

/// Where a `truncated` span was cut, as [`audit::classify`] puts it: index 0 no cut (not
/// truncated), 1 end of input, 2 a lead in no row, 3 + i a lead of Table 3-7 row i.
const CUTS: usize = 3 + literal::utf8::TABLE_3_7.len();

/// Counters of the UTF-8 check.
pub struct Utf8Tally {
    decode: DecodeTally,
    std_agree: u64,
    t31b_agree: [u64; MAX_INPUT + 1],
    /// `[kind][cut][len]`: Table 3-7 ill-formed, no row of Table 3.1b matches.
    misses: Vec<[u64; MAX_INPUT + 1]>,
    /// Table 3.1b ill-formed, Table 3-7 well-formed (rare: classified by
    /// [`audit::classify`] itself).
    flags: BTreeMap<Disagreement, [u64; MAX_INPUT + 1]>,
}

impl Default for Utf8Tally {
    fn default() -> Self {
        Utf8Tally {
            decode: DecodeTally::default(),
            std_agree: 0,
            t31b_agree: [0; MAX_INPUT + 1],
            misses: vec![[0; MAX_INPUT + 1]; Kind::ALL.len() * CUTS],
            flags: BTreeMap::new(),
        }
    }
}

/// UTF-8: the implementation's events against the spec-literal decoder's (Table 3-7),
/// its first error against `core::str::from_utf8`, and the Table 3.1b audit classes.
pub struct Utf8Decode<'a> {
    imp: &'a CodecFns,
    suffixes: SuffixTable,
    t31b: ShiftAnd,
    /// The Table 3-7 row whose first byte range holds each byte.
    lead_row: [Option<u8>; 256],
}

impl<'a> Utf8Decode<'a> {
    /// The check of `imp` over inputs of up to `max_len` bytes.
    pub fn new(imp: &'a CodecFns, max_len: usize) -> Self {
        let mut lead_row = [None; 256];
        for (b, row) in lead_row.iter_mut().enumerate() {
            *row = literal::utf8::TABLE_3_7
                .iter()
                .position(|r| {
                    r.bytes
                        .first()
                        .is_some_and(|&(lo, hi)| lo as usize <= b && b <= hi as usize)
                })
                .map(|i| i as u8);
        }
        Utf8Decode {
            imp,
            suffixes: SuffixTable::build(imp.utf8_decode, max_len),
            t31b: ShiftAnd::default(),
            lead_row,
        }
    }
}

/// Whether `core::str::from_utf8` agrees with the first error span of `evs`:
/// `valid_up_to` is its offset, and `error_len` its length, or `None` for a `truncated`
/// span that reaches the end.
#[inline]
fn std_agrees(input: &[u8], evs: &[Ev]) -> bool {
    let first_error = evs.iter().find(|e| e.is_error());
    match (core::str::from_utf8(input), first_error) {
        (Ok(_), None) => true,
        (Err(e), Some(f)) => {
            let at_end = f.value == Value::Error(KindCode::literal(Kind::Truncated))
                && (f.offset + f.length) as usize == input.len();
            e.valid_up_to() == f.offset as usize
                && match e.error_len() {
                    Some(l) => l == f.length as usize && !at_end,
                    None => at_end,
                }
        }
        _ => false,
    }
}

/// Renders `from_utf8`'s verdict.
fn std_text(input: &[u8]) -> String {
    match core::str::from_utf8(input) {
        Ok(_) => "Ok".to_string(),
        Err(e) => format!(
            "Err(valid_up_to {}, error_len {:?})",
            e.valid_up_to(),
            e.error_len()
        ),
    }
}

impl InputCheck for Utf8Decode<'_> {
    type Node = (Memo, T31b);
    type Tally = Utf8Tally;

    fn name(&self) -> &'static str {
        "utf-8"
    }

    fn root(&self) -> (Memo, T31b) {
        (Memo::UNSET, T31b::default())
    }

    #[inline]
    fn extend(&self, parent: &(Memo, T31b), node: &[u8]) -> (Memo, T31b) {
        let last = node.last().copied().unwrap_or(0);
        (
            parent.0.extend(node, literal::utf8::step),
            self.t31b.step(parent.1, last),
        )
    }

    #[inline]
    fn check(
        &self,
        node: &(Memo, T31b),
        input: &[u8],
        t: &mut Utf8Tally,
    ) -> Result<(), Box<Failure>> {
        let decode = self.imp.utf8_decode;
        let d = &mut t.decode;
        if !agrees(decode, &self.suffixes, &node.0, input, &mut d.a, &mut d.b) {
            return Err(counterexample(
                "utf-8 decode",
                self.imp,
                decode,
                literal::utf8::decode_located,
                input,
            ));
        }
        let evs = d.a.as_slice();
        if !std_agrees(input, evs) {
            return Err(Box::new(Failure {
                check: "utf-8 first error vs core::str::from_utf8",
                input: hex(input, " "),
                got_from: self.imp.name,
                got: render_events(evs, false),
                want_from: "std",
                want: std_text(input),
            }));
        }
        t.std_agree += 1;
        let n = input.len();
        let first_error = evs.iter().find(|e| e.is_error());
        match (first_error, node.1.ill_formed) {
            (None, false) | (Some(_), true) => t.t31b_agree[n] += 1,
            (Some(e), false) => {
                let kind = match e.value {
                    Value::Error(k) => usize::from(k.0).min(Kind::ALL.len() - 1),
                    Value::CodePoint(_) | Value::Reserved => 0,
                };
                let cut = if kind != Kind::Truncated as usize {
                    0
                } else if (e.offset + e.length) as usize == n {
                    1
                } else {
                    match self.lead_row[usize::from(input[e.offset as usize])] {
                        None => 2,
                        Some(i) => 3 + usize::from(i),
                    }
                };
                t.misses[kind * CUTS + cut][n] += 1;
            }
            (None, true) => {
                let Some(class) = audit::classify(input) else {
                    return Err(Box::new(Failure {
                        check: "table-3.1b audit",
                        input: hex(input, " "),
                        got_from: "the exhaustive check's Table 3.1b matcher",
                        got: "ill-formed, Table 3-7 well-formed".to_string(),
                        want_from: "conformance audit's classifier",
                        want: "no disagreement".to_string(),
                    }));
                };
                t.flags.entry(class).or_insert([0; MAX_INPUT + 1])[n] += 1;
            }
        }
        t.decode.count(n);
        Ok(())
    }

    fn counts(&self, t: &Utf8Tally, counts: &mut Counters) {
        t.decode.counts("utf-8", counts);
        counts.insert("utf-8.std-agrees".into(), t.std_agree);
        let total_agree: u64 = t.t31b_agree.iter().sum();
        counts.insert("table-3.1b.agree".into(), total_agree);
        let mut add = |d: &Disagreement, by_len: &[u64; MAX_INPUT + 1]| {
            for (n, &c) in by_len.iter().enumerate() {
                if c > 0 {
                    *counts.entry(class_key(d, n)).or_default() += c;
                }
            }
        };
        for (i, by_len) in t.misses.iter().enumerate() {
            if by_len.iter().all(|&c| c == 0) {
                continue;
            }
            let (kind, cut) = (Kind::ALL[i / CUTS], i % CUTS);
            let cut = match cut {
                0 => None,
                1 => Some(Cut::EndOfInput),
                2 => Some(Cut::NonContinuation { lead_row: None }),
                r => Some(Cut::NonContinuation {
                    lead_row: Some(r - 3),
                }),
            };
            add(&Disagreement::MissesIllFormed { kind, cut }, by_len);
        }
        for (d, by_len) in &t.flags {
            add(d, by_len);
        }
    }
}

/// The count key of a Table 3.1b class for inputs of `n` bytes.
pub fn class_key(d: &Disagreement, n: usize) -> String {
    format!("table-3.1b.disagree.{n}-byte: {}", d.describe())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shift_and_is_table_31b() {
        let m = ShiftAnd::default();
        for len in 1..=3usize {
            for v in 0..(1u32 << (8 * len)) {
                let bytes: Vec<u8> = (0..len).rev().map(|k| (v >> (8 * k)) as u8).collect();
                assert_eq!(
                    m.is_ill_formed(&bytes),
                    table31b::is_ill_formed(&bytes),
                    "{bytes:02X?}"
                );
            }
        }
        // Row 10 is the only 4-cell row: check it at both offsets of a 5-byte input.
        for b0 in [0x41, 0xF0, 0xF4, 0xF5] {
            for b4 in [0x00, 0x80, 0xBF, 0xC0] {
                let x = [0x41, b0, 0x80, 0x80, b4];
                assert_eq!(m.is_ill_formed(&x), table31b::is_ill_formed(&x), "{x:02X?}");
            }
        }
    }
}
