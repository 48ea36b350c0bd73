//! The walk behind check (2): every input of 1 to `max_len` bytes.
//!
//! Each [`InputCheck`] walks the inputs of a work unit ([`InputUnit`]) as a tree of
//! prefixes, so that what depends only on a prefix is computed once for all the inputs
//! that start with it ([`InputCheck::extend`]), and checks every input at a leaf
//! ([`InputCheck::check`]). The table of checks is [`super::reference::checks`], one
//! [`InputCheck`] per encoding in a file of its own.
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

use super::codec_fns::{fill_literal, render_events, CodecFns, Ev, EvBuf, KindCode, Value};
use super::failure::{Counters, Failure};
use conformance_literal::{self as literal, hex, Kind};
use rayon::prelude::*;

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

    /// Hands every input of the unit to `f`, in byte-wise order; stops at the first error.
    pub fn each<E>(&self, mut f: impl FnMut(&[u8]) -> Result<(), E>) -> Result<(), E> {
        let (len, fixed) = (usize::from(self.len), self.prefix().len());
        let mut buf = [0u8; MAX_INPUT];
        buf[..fixed].copy_from_slice(self.prefix());
        for i in 0..self.inputs() {
            for (d, b) in buf[fixed..len].iter_mut().enumerate() {
                *b = (i >> (8 * (len - fixed - 1 - d))) as u8;
            }
            f(&buf[..len])?;
        }
        Ok(())
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
    fn counts(&self, tally: &Self::Tally, counts: &mut Counters);
}

/// An [`InputCheck`] with its types erased, so that checks fit in one table.
pub trait UnitCheck: Send + Sync {
    /// The check's name.
    fn name(&self) -> &'static str;
    /// Checks every input of the unit, in byte-wise order; stops at the first failure.
    fn check_unit(&self, unit: &InputUnit) -> Result<Counters, Box<Failure>>;
}

impl<C: InputCheck> UnitCheck for C {
    fn name(&self) -> &'static str {
        InputCheck::name(self)
    }

    fn check_unit(&self, unit: &InputUnit) -> Result<Counters, Box<Failure>> {
        let n = usize::from(unit.len).min(MAX_INPUT);
        let mut buf = [0u8; MAX_INPUT];
        let mut node = self.root();
        for (d, &b) in unit.prefix().iter().enumerate() {
            buf[d] = b;
            node = self.extend(&node, &buf[..=d]);
        }
        let mut tally = C::Tally::default();
        descend(self, &mut buf, unit.prefix().len(), n, &node, &mut tally)?;
        let mut counts = Counters::new();
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

/// A spec-literal step function: bytes taken and the code point or error kind.
pub(super) type StepFn = fn(&[u8]) -> (usize, Result<u32, Kind>);

/// A decoder of the implementation under test.
pub(super) type DecodeFn = fn(&[u8], &mut EvBuf);

/// A spec-literal `decode_located`.
pub(super) type LiteralDecodeFn = fn(&[u8]) -> Vec<(usize, usize, literal::Event)>;

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

    pub(super) fn extend(&self, node: &[u8], step: StepFn) -> Memo {
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

    pub(super) fn counts(&self, name: &str, counts: &mut Counters) {
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
            // Above every kind code: the flag and value still tell it apart.
            Value::Reserved => (1, u32::from(u8::MAX) + 1),
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
pub(super) fn counterexample(
    check: &'static str,
    imp: &CodecFns,
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
        fill_literal(literal_decode(x), &mut want);
        if got.as_slice() != want.as_slice() || got.overflowed() || want.overflowed() {
            return Box::new(Failure {
                check,
                input: hex(x, " "),
                got_from: imp.name,
                got: render_events(got.as_slice(), got.overflowed()),
                want_from: "spec-literal",
                want: render_events(want.as_slice(), want.overflowed()),
            });
        }
    }
    // Show the input's own literal events, not the last suffix's.
    decode(input, &mut got);
    fill_literal(literal_decode(input), &mut want);
    Box::new(Failure {
        check,
        input: hex(input, " "),
        got_from: imp.name,
        got: render_events(got.as_slice(), got.overflowed()),
        want_from: "spec-literal (the check's memoised step disagrees with the full decode)",
        want: render_events(want.as_slice(), want.overflowed()),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn units_cover_every_input_once() {
        let units = InputUnit::all(4);
        let total: u64 = units.iter().map(InputUnit::inputs).sum();
        assert_eq!(total, 256 + 256u64.pow(2) + 256u64.pow(3) + 256u64.pow(4));
        assert_eq!(units.len(), 1 + 1 + 256 + 65536);
        let mut seen = Vec::new();
        units[2]
            .each(|x| {
                seen.push(x.to_vec());
                Ok::<(), ()>(())
            })
            .unwrap();
        assert_eq!(seen.len(), 65536);
        assert_eq!(
            (&seen[0][..], &seen[65535][..]),
            (&[0, 0, 0][..], &[0, 255, 255][..])
        );
    }
}
