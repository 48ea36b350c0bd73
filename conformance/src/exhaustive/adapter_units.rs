//! The units of `exhaustive --adapter`'s walk, in walk order, and the cases each holds.
//!
//! Per target (an encoding and operation the adapter declared), in the declaration's
//! order:
//!
//! * **decode**: for UTF-∞-8, first the long forms at the target's limit (its declared
//!   `"limit"`, else 65 536: [`super::long_forms`]); then every input of 1 to `--max-len`
//!   bytes, shortest first, each length's inputs by their first byte from `FE`: `FE`,
//!   `FF`, `00`, …, `FD` ([`lead_first`]), so that the bytes that begin UTF-∞-8's long
//!   codes (and Corrected UTF-8's reserved spans, UTF-8's invalid bytes) are walked at
//!   the start of each length, not at its end;
//! * **document**: the magic number followed by every body of 0 to `--max-len` bytes; a
//!   magic number inserted at each position of every body of 0 to `--max-len` − 1 bytes,
//!   after a leading magic number and without one (not at the start of a body without
//!   one: that document has a leading magic number, and is walked with them); then every
//!   input of 1 to `--max-len` bytes as a document of its own, as for decode;
//! * **encode**: every code point up to `--max-codepoint`, by blocks of 65 536, then the
//!   table edges above it.
//!
//! Inputs of a length are cut into units by all but their last two bytes (65 536 inputs
//! a unit at most); the long forms into units of at most [`LONG_UNIT`] inputs and
//! [`LONG_UNIT_BYTES`] bytes, sent in batches of at most [`BATCH_BYTES`] bytes.

use super::long_forms::LongForms;
use crate::differential::{Probe, Target};
use crate::vectors::{Encoding, Op};
use conformance_checks::generate::edge_codepoints;
use conformance_literal::corrected::MAGIC;

/// Cases per round trip (one batch when the adapter declares batches).
pub const BATCH: u64 = 1024;
/// Inputs or code points per unit, at most.
const UNIT: u64 = 1 << 16;
/// Long-form inputs per unit, at most.
pub const LONG_UNIT: u64 = 1024;
/// Bytes of long-form inputs per unit, at most (one input may be longer).
pub const LONG_UNIT_BYTES: usize = 4 << 20;
/// Bytes of input per round trip, at most (one input may be longer): the long forms'
/// inputs reach 65 538 bytes.
pub const BATCH_BYTES: usize = 1 << 20;

/// Which inputs a unit holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Span {
    /// Inputs of `len` bytes starting with the `len - 2` bytes of `prefix` (big-endian;
    /// none for `len` ≤ 2), then every value of the last one or two bytes; the first
    /// byte walked from `FE` ([`lead_first`]).
    Bytes { len: usize, prefix: u64 },
    /// Code points `first..first + count`.
    CodePoints { first: u64 },
    /// The target's edge code points above `--max-codepoint`.
    Edges,
    /// Documents: the magic number, then the bodies of `len` bytes starting with the
    /// `len - 2` bytes of `prefix`, in byte-wise order.
    MagicThen { len: usize, prefix: u64 },
    /// Documents: the bodies of `len` bytes starting with the `len - 2` bytes of
    /// `prefix`, a magic number inserted before byte `at`, after a leading magic number
    /// or not.
    InnerMagic {
        len: usize,
        prefix: u64,
        at: usize,
        leading: bool,
    },
    /// UTF-∞-8 decode: the inputs `from..from + size` of the target's long forms.
    LongForms { from: usize },
}

/// A unit of the walk.
#[derive(Clone, Copy, Debug)]
pub struct Unit {
    /// The index of its target.
    pub target: usize,
    /// Its inputs.
    pub span: Span,
    /// How many.
    pub size: u64,
}

/// What the walk sends besides the units' own numbers.
pub struct Plan {
    /// The units, in walk order.
    pub units: Vec<Unit>,
    /// Per target, its long forms (UTF-∞-8 decode only).
    pub long: Vec<Option<LongForms>>,
}

/// Maps the first byte of a walk of inputs so that it starts at `FE`: `FE`, `FF`, `00`,
/// …, `FD`.
pub fn lead_first(b: u8) -> u8 {
    b.wrapping_add(0xFE)
}

/// The edge code points of `target` above `max`.
pub fn edges(target: &Target, max: u32) -> Vec<u128> {
    let mut e = edge_codepoints(target.encoding);
    e.retain(|&v| v > u128::from(max));
    e
}

/// The units of bodies of 1 to `len` bytes: `(len, prefix, size)`.
fn bodies(len: usize) -> impl Iterator<Item = (u64, u64)> {
    let tail = len.min(2);
    let prefixes = 1u64 << (8 * (len - tail));
    (0..prefixes).map(move |p| (p, 1 << (8 * tail)))
}

/// Every unit of the walk, in walk order, with the long forms it sends.
pub fn plan(targets: &[Target], max_len: usize, max_codepoint: u32) -> Plan {
    let mut units = Vec::new();
    let mut long = Vec::new();
    for (t, target) in targets.iter().enumerate() {
        let mut push = |span, size| {
            units.push(Unit {
                target: t,
                span,
                size,
            })
        };
        let mut forms = None;
        match target.op {
            Op::Decode | Op::Document => {
                if target.op == Op::Decode && target.encoding == Encoding::UtfInf8 {
                    let f = LongForms::at_limit(target.limit.unwrap_or(65_536));
                    let mut from = 0;
                    while from < f.len() {
                        let (mut to, mut bytes) = (from, 0);
                        while to < f.len()
                            && ((to - from) as u64) < LONG_UNIT
                            && (to == from || bytes + f.input_len(to) <= LONG_UNIT_BYTES)
                        {
                            bytes += f.input_len(to);
                            to += 1;
                        }
                        push(Span::LongForms { from }, (to - from) as u64);
                        from = to;
                    }
                    forms = Some(f);
                }
                if target.op == Op::Document {
                    push(Span::MagicThen { len: 0, prefix: 0 }, 1);
                    for len in 1..=max_len {
                        for (prefix, size) in bodies(len) {
                            push(Span::MagicThen { len, prefix }, size);
                        }
                    }
                    push(
                        Span::InnerMagic {
                            len: 0,
                            prefix: 0,
                            at: 0,
                            leading: true,
                        },
                        1,
                    );
                    for len in 1..max_len {
                        for leading in [true, false] {
                            for at in usize::from(!leading)..=len {
                                for (prefix, size) in bodies(len) {
                                    push(
                                        Span::InnerMagic {
                                            len,
                                            prefix,
                                            at,
                                            leading,
                                        },
                                        size,
                                    );
                                }
                            }
                        }
                    }
                }
                for len in 1..=max_len {
                    for (prefix, size) in bodies(len) {
                        push(Span::Bytes { len, prefix }, size);
                    }
                }
            }
            Op::Encode => {
                let count = u64::from(max_codepoint) + 1;
                for first in (0..count).step_by(UNIT as usize) {
                    push(Span::CodePoints { first }, UNIT.min(count - first));
                }
                push(Span::Edges, edges(target, max_codepoint).len() as u64);
            }
        }
        long.push(forms);
    }
    Plan { units, long }
}

/// Body `i` of a unit of bodies of `len` bytes starting with `prefix`.
fn body(len: usize, prefix: u64, i: u64) -> Vec<u8> {
    let tail = len.min(2);
    let head = prefix.to_be_bytes();
    let mut b = head[8 - (len - tail)..].to_vec();
    b.extend_from_slice(&(i as u16).to_be_bytes()[2 - tail..]);
    b
}

impl Plan {
    /// Items `from..to` of a unit.
    pub fn probes(
        &self,
        unit: &Unit,
        target: &Target,
        max_cp: u32,
        from: u64,
        to: u64,
    ) -> Vec<Probe> {
        let items = from..to;
        match unit.span {
            Span::Bytes { len, prefix } => items
                .map(|i| {
                    let mut b = body(len, prefix, i);
                    b[0] = lead_first(b[0]);
                    Probe::Bytes(b)
                })
                .collect(),
            Span::MagicThen { len, prefix } => items
                .map(|i| Probe::Bytes([&MAGIC[..], &body(len, prefix, i)].concat()))
                .collect(),
            Span::InnerMagic {
                len,
                prefix,
                at,
                leading,
            } => items
                .map(|i| {
                    let b = if len == 0 {
                        Vec::new()
                    } else {
                        body(len, prefix, i)
                    };
                    let head: &[u8] = if leading { &MAGIC } else { &[] };
                    Probe::Bytes([head, &b[..at], &MAGIC, &b[at..]].concat())
                })
                .collect(),
            Span::LongForms { from: first } => match &self.long[unit.target] {
                Some(f) => items
                    .map(|i| Probe::Bytes(f.input(first + i as usize)))
                    .collect(),
                None => Vec::new(),
            },
            Span::CodePoints { first } => items
                .map(|i| Probe::CodePoint(u128::from(first + i)))
                .collect(),
            Span::Edges => edges(target, max_cp)[from as usize..to as usize]
                .iter()
                .map(|&cp| Probe::CodePoint(cp))
                .collect(),
        }
    }

    /// Where the round trip that starts at item `pos` of `unit` ends: [`BATCH`] items,
    /// and for the long forms at most [`BATCH_BYTES`] bytes (at least one item).
    pub fn batch_end(&self, unit: &Unit, pos: u64) -> u64 {
        let end = (pos + BATCH).min(unit.size);
        let Span::LongForms { from } = unit.span else {
            return end;
        };
        let Some(f) = &self.long[unit.target] else {
            return end;
        };
        let (mut to, mut bytes) = (pos, 0);
        while to < end && (to == pos || bytes + f.input_len(from + to as usize) <= BATCH_BYTES) {
            bytes += f.input_len(from + to as usize);
            to += 1;
        }
        to
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashSet;

    fn target(encoding: Encoding, op: Op, limit: Option<u64>) -> Target {
        Target {
            encoding,
            op,
            fields: vec![],
            limit,
        }
    }

    fn all(plan: &Plan, targets: &[Target], unit: &Unit, max_cp: u32) -> Vec<Probe> {
        plan.probes(unit, &targets[unit.target], max_cp, 0, unit.size)
    }

    #[test]
    fn units_cover_every_input_once() {
        let targets = [
            target(Encoding::CorrectedUtf8, Op::Decode, None),
            target(Encoding::CorrectedUtf8, Op::Encode, None),
        ];
        let plan = plan(&targets, 2, 0x1_0000);
        let mut inputs = HashSet::new();
        let mut cps = Vec::new();
        for u in &plan.units {
            for p in all(&plan, &targets, u, 0x1_0000) {
                match p {
                    Probe::Bytes(b) => assert!(inputs.insert(b)),
                    Probe::CodePoint(c) => cps.push(c),
                }
            }
        }
        assert_eq!(inputs.len(), 256 + 65_536);
        assert!(inputs.contains(&vec![0xFF, 0x00]) && inputs.contains(&vec![0x7F]));
        assert!(cps[..=0x1_0000]
            .iter()
            .enumerate()
            .all(|(i, &c)| c == i as u128));
        assert!(cps.contains(&0x8421_10A0) && !cps[0x1_0001..].contains(&0xA0));
        // Decode: one unit per length; encode: 2 blocks and the edges.
        assert_eq!(plan.units.len(), 2 + 3);
        // Three bytes: one unit per first byte, each every value of the last two; the
        // first bytes from FE: FE, FF, 00, …, FD.
        let plan3 = super::plan(&targets[..1], 3, 0);
        assert_eq!(plan3.units.len(), 2 + 256);
        let first = all(&plan3, &targets, &plan3.units[2], 0);
        assert_eq!(first[0], Probe::Bytes(vec![0xFE, 0x00, 0x00]));
        let second = all(&plan3, &targets, &plan3.units[3], 0);
        assert_eq!(second[0], Probe::Bytes(vec![0xFF, 0x00, 0x00]));
        let last = &plan3.units[257];
        let p = plan3.probes(last, &targets[0], 0, 65_535, 65_536);
        assert_eq!(p, [Probe::Bytes(vec![0xFD, 0xFF, 0xFF])]);
        // One and two bytes: FE first too.
        let p = all(&plan3, &targets, &plan3.units[0], 0);
        assert_eq!(
            (&p[0], &p[1], &p[2]),
            (
                &Probe::Bytes(vec![0xFE]),
                &Probe::Bytes(vec![0xFF]),
                &Probe::Bytes(vec![0x00])
            )
        );
    }

    #[test]
    fn documents_are_the_magic_number_with_every_short_body() {
        let targets = [target(Encoding::CorrectedUtf8, Op::Document, None)];
        let plan = plan(&targets, 2, 0);
        let mut docs = Vec::new();
        for u in &plan.units {
            docs.extend(all(&plan, &targets, u, 0));
        }
        let set: HashSet<&Probe> = docs.iter().collect();
        assert_eq!(set.len(), docs.len(), "no document twice");
        // Magic then 0..=2 bytes; inner magic: (2L + 1) · 256^L for L = 0, 1; plain
        // inputs of 1 and 2 bytes.
        assert_eq!(
            docs.len(),
            (1 + 256 + 65_536) + (1 + 3 * 256) + (256 + 65_536)
        );
        let magic = MAGIC.to_vec();
        assert_eq!(docs[0], Probe::Bytes(magic.clone()));
        let with = |parts: &[&[u8]]| Probe::Bytes(parts.concat());
        assert!(set.contains(&with(&[&MAGIC, &[0x41, 0x00]])));
        assert!(set.contains(&with(&[&MAGIC, &MAGIC])));
        assert!(set.contains(&with(&[&[0x41], &MAGIC])));
        assert!(set.contains(&with(&[&MAGIC, &[0x41], &MAGIC])));
        assert!(set.contains(&with(&[&MAGIC, &MAGIC, &[0x41]])));
        // The magic number documents come before the plain inputs.
        let first_plain = docs
            .iter()
            .position(|d| !matches!(d, Probe::Bytes(b) if b.windows(8).any(|w| w == MAGIC)))
            .unwrap();
        assert_eq!(first_plain, 1 + 256 + 65_536 + 1 + 3 * 256);
    }

    #[test]
    fn utf_inf8_decode_starts_with_its_long_forms_in_batches_of_bounded_size() {
        let targets = [target(Encoding::UtfInf8, Op::Decode, None)];
        let plan = plan(&targets, 1, 0);
        let forms = plan.long[0].as_ref().unwrap();
        assert!(matches!(plan.units[0].span, Span::LongForms { from: 0 }));
        let long_units: Vec<&Unit> = plan
            .units
            .iter()
            .filter(|u| matches!(u.span, Span::LongForms { .. }))
            .collect();
        assert_eq!(
            long_units.iter().map(|u| u.size).sum::<u64>(),
            forms.len() as u64
        );
        let mut longest_batch = 0;
        for u in &long_units {
            let mut pos = 0;
            while pos < u.size {
                let end = plan.batch_end(u, pos);
                assert!(end > pos);
                let bytes: usize = all(&plan, &targets, u, 0)[pos as usize..end as usize]
                    .iter()
                    .map(|p| match p {
                        Probe::Bytes(b) => b.len(),
                        Probe::CodePoint(_) => 0,
                    })
                    .sum();
                assert!(end == pos + 1 || bytes <= BATCH_BYTES);
                longest_batch = longest_batch.max(bytes);
                pos = end;
            }
        }
        // The default limit's edge: codes of 65 536 bytes, 2 of them at most 1 MiB.
        assert!(longest_batch > 65_536, "{longest_batch}");
        // A declared limit of 16 makes its own edge: a code of exactly 16 bytes.
        let limited = [target(Encoding::UtfInf8, Op::Decode, Some(16))];
        let plan16 = super::plan(&limited, 1, 0);
        let codes = plan16.long[0].as_ref().unwrap().codes();
        assert!(codes.iter().any(|c| c.len() == 16));
        assert!(!codes.iter().any(|c| c.len() > 4096));
    }
}
