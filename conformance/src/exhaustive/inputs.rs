//! Check (2): every input of 1 to `max_len` bytes.
//!
//! Each [`InputCheck`] walks the inputs of a work unit ([`InputUnit`]) as a tree of
//! prefixes, so that what depends only on a prefix is computed once for all the inputs
//! that start with it ([`InputCheck::extend`]), and checks every input at a leaf
//! ([`InputCheck::check`]). The table of checks is [`checks`]; a new encoding (UTF-∞-8)
//! adds an [`InputCheck`] there.
//!
//! # Why comparing with a memoised step and a suffix proves the whole event list
//!
//! The spec-literal decoders are loops over a step function (`decode_located` calls
//! `step` at each offset), so the literal events of an input `x` are the literal step at
//! offset 0 (`k` bytes) followed by the literal events of `x[k..]`, shifted by `k`. The
//! check compares the implementation's events of `x` with that step followed by the
//! *implementation's* events of `x[k..]`, shifted. Every shorter input is checked in the
//! same run (in units of its own length), so by induction on the length, all checks
//! passing means the implementation's events equal the literal events for every input.
//! (A run split with `--shard` proves this once every shard has passed.)
//!
//! The step at offset 0 is computed once per prefix: a step that stopped before the end
//! of its prefix, or decoded a complete sequence, decided on the bytes it saw, so it is
//! the same for every longer input; only a step that ran into the end of its prefix is
//! computed again one byte further ([`Memo`]). The self-test runs the spec-literal code
//! through all this as the implementation, so a wrong shortcut would show up there.
//!
//! When a check fails, the counterexample is confirmed by the full spec-literal decode.

use super::implementation::{hex, render_events, Ev, EvBuf, Implementation, KindCode, Value};
use super::{Counts, Encoding, Failure};
use crate::audit::{self, Cut, Disagreement};
use conformance_literal::{self as literal, table31b, Kind};
use rayon::prelude::*;
use std::collections::BTreeMap;

/// Longest input length the walk supports.
pub const MAX_INPUT: usize = 6;

/// A work unit: every input of `len` bytes that starts with `prefix`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct InputUnit {
    /// Length of the inputs.
    pub len: u8,
    /// Their first bytes (`prefix_len` of them are used).
    pub prefix: [u8; 2],
    /// How many of `prefix` are fixed: `len − 2`, at most 2 (so inputs of 4 bytes come in
    /// 65 536 units of 65 536, and of 5 bytes in 65 536 units of 2^24).
    pub prefix_len: u8,
}

impl InputUnit {
    /// Every unit for inputs of 1 to `max_len` bytes, shortest inputs first, each length
    /// in byte-wise order.
    pub fn all(max_len: usize) -> Vec<InputUnit> {
        let mut units = Vec::new();
        for len in 1..=max_len.min(MAX_INPUT) {
            let prefix_len = len.saturating_sub(2).min(2);
            for p in 0..(1usize << (8 * prefix_len)) {
                let prefix = if prefix_len == 2 {
                    [(p >> 8) as u8, p as u8]
                } else {
                    [p as u8, 0]
                };
                units.push(InputUnit {
                    len: len as u8,
                    prefix,
                    prefix_len: prefix_len as u8,
                });
            }
        }
        units
    }

    /// How many inputs the unit holds.
    pub fn inputs(&self) -> u64 {
        1u64 << (8 * u32::from(self.len - self.prefix_len))
    }

    /// The fixed first bytes.
    pub fn prefix(&self) -> &[u8] {
        &self.prefix[..usize::from(self.prefix_len)]
    }
}

/// One check over every input, walked as a tree of prefixes.
pub trait InputCheck: Send + Sync {
    /// What is shared by all inputs that start with the same bytes.
    type Node: Copy;
    /// Counters (and scratch buffers) for one unit.
    type Tally: Default;
    /// The check's name, for reports.
    fn name(&self) -> &'static str;
    /// The node of the empty prefix.
    fn root(&self) -> Self::Node;
    /// The node of `node` (non-empty), whose parent (`node` less its last byte) is `parent`.
    fn extend(&self, parent: &Self::Node, node: &[u8]) -> Self::Node;
    /// Checks one input, whose own node is `node`.
    fn check(
        &self,
        node: &Self::Node,
        input: &[u8],
        tally: &mut Self::Tally,
    ) -> Result<(), Box<Failure>>;
    /// Adds a unit's counters to `counts`.
    fn counts(&self, tally: &Self::Tally, counts: &mut Counts);
}

/// An [`InputCheck`] with its types erased, so that checks fit in one table.
pub trait UnitCheck: Send + Sync {
    /// The check's name.
    fn name(&self) -> &'static str;
    /// Checks every input of the unit, in byte-wise order; stops at the first failure.
    fn check_unit(&self, unit: &InputUnit) -> Result<Counts, Box<Failure>>;
}

impl<C: InputCheck> UnitCheck for C {
    fn name(&self) -> &'static str {
        InputCheck::name(self)
    }

    fn check_unit(&self, unit: &InputUnit) -> Result<Counts, Box<Failure>> {
        let n = usize::from(unit.len).min(MAX_INPUT);
        let mut buf = [0u8; MAX_INPUT];
        let mut node = self.root();
        for (d, &b) in unit.prefix().iter().enumerate() {
            buf[d] = b;
            node = self.extend(&node, &buf[..=d]);
        }
        let mut tally = C::Tally::default();
        descend(self, &mut buf, unit.prefix().len(), n, &node, &mut tally)?;
        let mut counts = Counts::new();
        self.counts(&tally, &mut counts);
        Ok(counts)
    }
}

/// Every byte at `buf[depth]`, then deeper until inputs of `n` bytes.
fn descend<C: InputCheck>(
    c: &C,
    buf: &mut [u8; MAX_INPUT],
    depth: usize,
    n: usize,
    parent: &C::Node,
    tally: &mut C::Tally,
) -> Result<(), Box<Failure>> {
    if depth + 1 >= n {
        for b in 0..=255u8 {
            buf[depth] = b;
            let input = &buf[..n];
            let node = c.extend(parent, input);
            c.check(&node, input, tally)?;
        }
    } else {
        for b in 0..=255u8 {
            buf[depth] = b;
            let node = c.extend(parent, &buf[..=depth]);
            descend(c, buf, depth + 1, n, &node, tally)?;
        }
    }
    Ok(())
}

/// The table of input checks run on `imp` over inputs of up to `max_len` bytes, for
/// `encodings`, in order. Builds their suffix tables (in parallel, on the current rayon pool).
pub fn checks<'a>(
    imp: &'a Implementation,
    max_len: usize,
    encodings: &[Encoding],
) -> Vec<Box<dyn UnitCheck + 'a>> {
    let mut checks: Vec<Box<dyn UnitCheck + 'a>> = Vec::new();
    if encodings.contains(&Encoding::CorrectedUtf8) {
        checks.push(Box::new(CorrectedDecode {
            imp,
            suffixes: SuffixTable::build(imp.corrected_decode, max_len),
        }));
    }
    if encodings.contains(&Encoding::Utf8) {
        checks.push(Box::new(Utf8Decode::new(imp, max_len)));
    }
    if encodings.contains(&Encoding::UtfInf8) {
        checks.push(Box::new(super::inf::InfDecode::new(imp, max_len)));
        checks.push(Box::new(super::inf::InfDecode::small_limit(imp, max_len)));
    }
    checks
}

/// A spec-literal step function: bytes taken and the code point or error kind.
type StepFn = fn(&[u8]) -> (usize, Result<u32, Kind>);

/// A decoder of the implementation under test.
type DecodeFn = fn(&[u8], &mut EvBuf);

/// A spec-literal `decode_located`.
type LiteralDecodeFn = fn(&[u8]) -> Vec<(usize, usize, literal::Event)>;

/// The spec-literal step at offset 0 of a prefix, memoised down the tree.
#[derive(Clone, Copy, Debug)]
pub struct Memo {
    pub(super) len: usize,
    pub(super) value: Result<u32, Kind>,
    /// The step is the same for every input that starts with this prefix.
    pub(super) settled: bool,
}

impl Memo {
    pub(super) const UNSET: Memo = Memo {
        len: 0,
        value: Err(Kind::Truncated),
        settled: false,
    };

    fn extend(&self, node: &[u8], step: StepFn) -> Memo {
        if self.settled {
            return *self;
        }
        let (len, value) = step(node);
        Memo {
            len,
            value,
            settled: len < node.len() || value.is_ok(),
        }
    }
}

/// Counters of a decode check, and its scratch buffers.
#[derive(Default)]
pub struct DecodeTally {
    pub(super) a: EvBuf,
    pub(super) b: EvBuf,
    inputs: [u64; MAX_INPUT + 1],
    well_formed: [u64; MAX_INPUT + 1],
    events: u64,
    errors: [u64; Kind::ALL.len()],
}

impl DecodeTally {
    pub(super) fn count(&mut self, n: usize) {
        self.inputs[n] += 1;
        let evs = self.a.as_slice();
        self.events += evs.len() as u64;
        let mut ok = true;
        for e in evs {
            if let Value::Error(KindCode(k)) = e.value {
                ok = false;
                if let Some(c) = self.errors.get_mut(usize::from(k)) {
                    *c += 1;
                }
            }
        }
        if ok {
            self.well_formed[n] += 1;
        }
    }

    pub(super) fn counts(&self, name: &str, counts: &mut Counts) {
        for n in 1..=MAX_INPUT {
            if self.inputs[n] > 0 {
                counts.insert(format!("{name}.inputs.{n}-byte"), self.inputs[n]);
                counts.insert(format!("{name}.well-formed.{n}-byte"), self.well_formed[n]);
            }
        }
        counts.insert(format!("{name}.events"), self.events);
        for (k, &c) in Kind::ALL.iter().zip(&self.errors) {
            if c > 0 {
                counts.insert(format!("{name}.error-spans.{}", k.as_str()), c);
            }
        }
    }
}

/// A packed event list that [`pack`] could not represent.
const UNPACKABLE: u64 = 1 << 63;

/// Packs the events of an input of at most 3 bytes, the first starting at `base`, into
/// one word: 21 bits each (length 1–3, an error flag, and the code point or kind code
/// below 2^18), offsets implied by the lengths. [`UNPACKABLE`] if they do not fit (more
/// than 3 events, or offsets that do not follow each other: only a broken decoder).
#[inline]
fn pack(evs: &[Ev], base: u32) -> u64 {
    if evs.len() > 3 {
        return UNPACKABLE;
    }
    let (mut word, mut at) = (0u64, base);
    for (i, e) in evs.iter().enumerate() {
        let (flag, v) = match e.value {
            Value::CodePoint(cp) => (0, cp),
            Value::Error(k) => (1, u32::from(k.0)),
        };
        if e.offset != at || !(1..=3).contains(&e.length) || v >= 1 << 18 {
            return UNPACKABLE;
        }
        word |= ((u64::from(e.length) << 19) | (flag << 18) | u64::from(v)) << (21 * i);
        at += e.length;
    }
    word
}

/// The implementation's events of every input of 1 to 3 bytes (at most `max_len − 1`),
/// packed: a check looks up the events of an input's suffix here instead of decoding it
/// again (the same events: the decoder is a function of its input). 128 MiB for 3 bytes.
pub struct SuffixTable {
    longest: usize,
    packed: Vec<u64>,
}

impl SuffixTable {
    /// Longest suffix kept.
    const MAX: usize = 3;

    /// Where the entries of inputs of `len` bytes start.
    fn start(len: usize) -> usize {
        (1..len).map(|l| 1usize << (8 * l)).sum()
    }

    /// Decodes every input of 1 to `min(max_len − 1, 3)` bytes with `decode`.
    pub fn build<D: Fn(&[u8], &mut EvBuf) + Sync>(decode: D, max_len: usize) -> SuffixTable {
        let longest = max_len.saturating_sub(1).min(Self::MAX);
        let mut packed = vec![UNPACKABLE; Self::start(longest + 1)];
        for len in 1..=longest {
            let (from, to) = (Self::start(len), Self::start(len + 1));
            // One chunk per first byte.
            let chunk = 1usize << (8 * (len - 1));
            packed[from..to]
                .par_chunks_mut(chunk)
                .enumerate()
                .for_each(|(first, out)| {
                    let mut evs = EvBuf::default();
                    let mut input = [first as u8, 0, 0];
                    for (rest, slot) in out.iter_mut().enumerate() {
                        for (i, b) in input[1..len].iter_mut().enumerate() {
                            *b = (rest >> (8 * (len - 2 - i))) as u8;
                        }
                        decode(&input[..len], &mut evs);
                        if !evs.overflowed() {
                            *slot = pack(evs.as_slice(), 0);
                        }
                    }
                });
        }
        SuffixTable { longest, packed }
    }

    /// The packed events of `input`, or [`UNPACKABLE`] if it is not in the table.
    #[inline]
    fn get(&self, input: &[u8]) -> u64 {
        if input.is_empty() || input.len() > self.longest {
            return UNPACKABLE;
        }
        let index = input
            .iter()
            .fold(0usize, |acc, &b| (acc << 8) | usize::from(b));
        self.packed
            .get(Self::start(input.len()) + index)
            .copied()
            .unwrap_or(UNPACKABLE)
    }
}

/// Whether the implementation's events of `input` (left in `a`) are the literal step
/// `memo` followed by the implementation's events of the rest, shifted (looked up in
/// `suffixes`, or decoded into `b`).
#[inline]
pub(super) fn agrees<D: Fn(&[u8], &mut EvBuf)>(
    decode: D,
    suffixes: &SuffixTable,
    memo: &Memo,
    input: &[u8],
    a: &mut EvBuf,
    b: &mut EvBuf,
) -> bool {
    decode(input, a);
    let Some((first, rest)) = a.as_slice().split_first() else {
        return false;
    };
    if a.overflowed() || *first != Ev::from_step(0, memo.len, memo.value) {
        return false;
    }
    let k = memo.len;
    if k >= input.len() {
        return rest.is_empty();
    }
    let want = suffixes.get(&input[k..]);
    if want != UNPACKABLE {
        let got = pack(rest, k as u32);
        if got != UNPACKABLE {
            return got == want;
        }
    }
    decode(&input[k..], b);
    !b.overflowed()
        && rest.len() == b.as_slice().len()
        && rest.iter().zip(b.as_slice()).all(|(x, y)| {
            x.offset == y.offset.wrapping_add(k as u32)
                && x.length == y.length
                && x.value == y.value
        })
}

/// The counterexample for a failed [`agrees`]: `input` itself if its full spec-literal
/// decode differs from the implementation's, else the shortest suffix that does (one
/// must, by the induction above), else a report that the shortcut itself is wrong.
fn counterexample(
    check: &'static str,
    imp: &Implementation,
    decode: DecodeFn,
    literal_decode: LiteralDecodeFn,
    input: &[u8],
) -> Box<Failure> {
    let mut got = EvBuf::default();
    let mut want = EvBuf::default();
    let starts = std::iter::once(0).chain((1..input.len()).rev());
    for start in starts {
        let x = &input[start..];
        decode(x, &mut got);
        super::implementation::fill_literal(literal_decode(x), &mut want);
        if got.as_slice() != want.as_slice() || got.overflowed() || want.overflowed() {
            return Box::new(Failure {
                check,
                input: hex(x),
                got_from: imp.name,
                got: render_events(got.as_slice(), got.overflowed()),
                want_from: "spec-literal",
                want: render_events(want.as_slice(), want.overflowed()),
            });
        }
    }
    // Show the input's own literal events, not the last suffix's.
    decode(input, &mut got);
    super::implementation::fill_literal(literal_decode(input), &mut want);
    Box::new(Failure {
        check,
        input: hex(input),
        got_from: imp.name,
        got: render_events(got.as_slice(), got.overflowed()),
        want_from: "spec-literal (the check's memoised step disagrees with the full decode)",
        want: render_events(want.as_slice(), want.overflowed()),
    })
}

/// Corrected UTF-8: the implementation's events against the spec-literal decoder's.
pub struct CorrectedDecode<'a> {
    imp: &'a Implementation,
    suffixes: SuffixTable,
}

impl InputCheck for CorrectedDecode<'_> {
    type Node = Memo;
    type Tally = DecodeTally;

    fn name(&self) -> &'static str {
        "corrected-utf8"
    }

    fn root(&self) -> Memo {
        Memo::UNSET
    }

    #[inline]
    fn extend(&self, parent: &Memo, node: &[u8]) -> Memo {
        parent.extend(node, literal::corrected::step)
    }

    #[inline]
    fn check(&self, node: &Memo, input: &[u8], t: &mut DecodeTally) -> Result<(), Box<Failure>> {
        let decode = self.imp.corrected_decode;
        if !agrees(decode, &self.suffixes, node, input, &mut t.a, &mut t.b) {
            return Err(counterexample(
                "corrected-utf8 decode",
                self.imp,
                decode,
                literal::corrected::decode_located,
                input,
            ));
        }
        t.count(input.len());
        Ok(())
    }

    fn counts(&self, t: &DecodeTally, counts: &mut Counts) {
        t.counts("corrected-utf8", counts);
    }
}

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
    imp: &'a Implementation,
    suffixes: SuffixTable,
    t31b: ShiftAnd,
    /// The Table 3-7 row whose first byte range holds each byte.
    lead_row: [Option<u8>; 256],
}

impl<'a> Utf8Decode<'a> {
    /// The check of `imp` over inputs of up to `max_len` bytes.
    pub fn new(imp: &'a Implementation, max_len: usize) -> Self {
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
                input: hex(input),
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
                    Value::CodePoint(_) => 0,
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
                        input: hex(input),
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

    fn counts(&self, t: &Utf8Tally, counts: &mut Counts) {
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

    #[test]
    fn units_cover_every_input_once() {
        let units = InputUnit::all(4);
        let total: u64 = units.iter().map(InputUnit::inputs).sum();
        assert_eq!(total, 256 + 256u64.pow(2) + 256u64.pow(3) + 256u64.pow(4));
        assert_eq!(units.len(), 1 + 1 + 256 + 65536);
    }
}
