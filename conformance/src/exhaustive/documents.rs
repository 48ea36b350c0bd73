//! The document part of the reference's walk (`--op document`): Corrected UTF-8 documents
//! (`docs/semantics.md` §2.6) around the magic number, every one of them up to a length,
//! the implementation's findings ([`CodecFns::corrected_document`]) against the
//! spec-literal [`check_document`](lit::check_document)'s: kind, offset, line and column
//! of each finding, in order.
//!
//! With N the longest body (`--max-len`, at most [`REFERENCE_MAX_BODY`]):
//!
//! * **the magic number, then every body** of 0 to N bytes (4 311 810 305 documents for
//!   N = 4);
//! * **an inner magic number at each position** of every body of 0 to N − 1 bytes, after
//!   a leading magic number and without one (where the inserted magic number comes first
//!   in a document without a leading one, it *is* the leading one: that document is one
//!   of the first kind, and not walked twice): Σ (2L + 1) · 256^L for L = 0..N − 1
//!   (117 768 961 for N = 4);
//! * **without a magic number**: every input of 0 to N − 1 bytes (16 843 009 for N = 4).
//!
//! # Why the spec-literal findings can be looked up
//!
//! `check_document` reads its input only through: whether it starts with the magic number
//! (the base), and the events of the text after it (`decode_located`, a loop over
//! [`lit::step`]), of which it reads each one's offset and length, its error kind, whether
//! it is a reserved span, and of a code point only which of U+0000, U+000A, U+000D, the
//! other C0 controls, U+2028, U+2029, U+10E7D, U+ED4E or anything else it is ([`class`]);
//! the end of the input is the end of the last event. So documents with the same base and
//! the same such events have the same findings, and the walk computes them once per unit
//! for each [`Key`] with the literal function itself. The text's events come from
//! `lit::step` (the step at offset 0 of a body memoised down the prefix tree, as the input
//! walk does). The self-test runs the spec-literal checker as the implementation through
//! this, so a key that missed something would show as a disagreement; a failure is
//! confirmed with the full literal call before it is reported.

use super::codec_fns::{render_findings, CodecFns, DocFinding};
use super::failure::{Counters, Failure};
use super::walk::{InputCheck, InputUnit, Memo, UnitCheck, MAX_INPUT};
use conformance_literal::corrected::{self as lit, MAGIC};
use conformance_literal::{hex, Kind};
use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};

/// The longest body of the reference's document part (the magic number and 4 bytes:
/// 4.3 × 10^9 documents; `--max-len 5` would be 256 times that).
pub const REFERENCE_MAX_BODY: usize = 4;

/// The longest document: a leading magic number, a body of [`MAX_INPUT`] − 1 bytes and
/// an inner magic number.
const MAX_DOC: usize = 2 * MAGIC.len() + MAX_INPUT;

/// A unit of the document part.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DocUnit {
    /// The magic number alone, and the empty file.
    Empty,
    /// The magic number followed by each input of the unit.
    MagicThen(InputUnit),
    /// A magic number inserted at each position of each body: the empty body (`None`)
    /// or the unit's inputs; after a leading magic number, and without one (but not
    /// first: that is a leading one).
    InnerMagic(Option<InputUnit>),
    /// Each input of the unit alone, without a magic number.
    Plain(InputUnit),
}

impl DocUnit {
    /// Every unit for bodies of up to `max_body` bytes (at least 1), in walk order.
    pub fn all(max_body: usize) -> Vec<DocUnit> {
        let mut units = vec![DocUnit::Empty];
        units.extend(InputUnit::all(max_body).into_iter().map(DocUnit::MagicThen));
        units.push(DocUnit::InnerMagic(None));
        let shorter = InputUnit::all(max_body.saturating_sub(1));
        units.extend(shorter.iter().map(|&u| DocUnit::InnerMagic(Some(u))));
        units.extend(shorter.into_iter().map(DocUnit::Plain));
        units
    }

    /// How many documents the unit holds.
    pub fn documents(&self) -> u64 {
        match self {
            DocUnit::Empty => 2,
            DocUnit::MagicThen(u) | DocUnit::Plain(u) => u.inputs(),
            // After a leading magic number: L + 1 positions; without: L.
            DocUnit::InnerMagic(None) => 1,
            DocUnit::InnerMagic(Some(u)) => u.inputs() * (2 * u64::from(u.len) + 1),
        }
    }
}

/// What `check_document` reads of an event (the module's documentation): a code point's
/// class 0 to 8, or 16 plus the error kind's index in [`Kind::ALL`] (the reserved span's
/// included).
pub fn class(value: Result<u32, Kind>) -> u8 {
    match value {
        Ok(0x00) => 0,
        Ok(0x0A) => 1,
        Ok(0x0D) => 2,
        Ok(0x01..=0x1F) => 3,
        Ok(0x2028) => 4,
        Ok(0x2029) => 5,
        Ok(0x10E7D) => 6,
        Ok(0xED4E) => 7,
        Ok(_) => 8,
        Err(k) => 16 + Kind::ALL.iter().position(|&x| x == k).unwrap_or(15) as u8,
    }
}

/// A document as `check_document` sees it: its base, then each event's length (4 bits)
/// and class (5 bits); offsets follow from the lengths. `None` when it does not fit (a
/// text of more than 15 bytes, or of more than 13 events: never in this walk).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Key(u128);

struct KeyBuilder {
    bits: u128,
    events: u32,
}

impl KeyBuilder {
    fn new(base: bool) -> KeyBuilder {
        KeyBuilder {
            bits: u128::from(base),
            events: 0,
        }
    }

    fn push(&mut self, len: usize, class: u8) -> Option<()> {
        if len == 0 || len > 15 || self.events >= 13 {
            return None;
        }
        self.bits = (self.bits << 9) | ((len as u128) << 5) | u128::from(class);
        self.events += 1;
        Some(())
    }

    /// The events of `text` by the literal step, from its start.
    fn text(&mut self, text: &[u8]) -> Option<()> {
        let mut at = 0;
        while at < text.len() {
            let (len, value) = lit::step(&text[at..]);
            self.push(len, class(value))?;
            at += len;
        }
        Some(())
    }

    fn finish(self) -> Key {
        Key(self.bits | (u128::from(self.events) << 120))
    }
}

/// The key of a whole document.
pub fn key_of(doc: &[u8]) -> Option<Key> {
    let base = doc.starts_with(&MAGIC);
    let mut k = KeyBuilder::new(base);
    k.text(&doc[if base { MAGIC.len() } else { 0 }..])?;
    Some(k.finish())
}

/// The spec-literal findings of a document.
pub fn literal_findings(doc: &[u8]) -> Vec<DocFinding> {
    lit::check_document(doc)
        .iter()
        .map(DocFinding::from_literal)
        .collect()
}

/// A hasher for [`Key`]s (already well mixed bits; SipHash would cost more than the check).
#[derive(Default)]
struct KeyHasher(u64);

impl Hasher for KeyHasher {
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = (self.0.rotate_left(8) ^ u64::from(b)).wrapping_mul(0x9E37_79B9_7F4A_7C15);
        }
    }

    fn write_u128(&mut self, v: u128) {
        let x = (v as u64) ^ ((v >> 64) as u64).rotate_left(29);
        let x = (x ^ (x >> 31)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        self.0 = x ^ (x >> 29);
    }

    fn finish(&self) -> u64 {
        self.0
    }
}

/// The spec-literal findings of each key met in a unit, and how many documents had it.
type Cache = HashMap<Key, (Vec<DocFinding>, u64), BuildHasherDefault<KeyHasher>>;

/// Counters and scratch space of one unit.
#[derive(Default)]
pub struct DocTally {
    got: Vec<DocFinding>,
    cache: Cache,
    /// Documents by kind (`magic-then`, `inner-magic`, `plain`) and the length of their
    /// body (the magic numbers not counted).
    documents: [[u64; MAX_INPUT + 1]; 3],
}

/// The kinds of document, for the counters.
const KINDS: [&str; 3] = ["magic-then", "inner-magic", "plain"];

/// The document check of one implementation.
pub struct DocumentCheck<'a> {
    imp: &'a CodecFns,
}

impl<'a> DocumentCheck<'a> {
    /// The check of `imp`.
    pub fn new(imp: &'a CodecFns) -> Self {
        DocumentCheck { imp }
    }

    /// Checks every document of `unit`.
    pub fn check_unit(&self, unit: &DocUnit) -> Result<Counters, Box<Failure>> {
        let mut t = DocTally::default();
        let mut doc = [0u8; MAX_DOC];
        match *unit {
            DocUnit::Empty => {
                check(self.imp, &MAGIC, key_of(&MAGIC), &mut t)?;
                check(self.imp, &[], key_of(&[]), &mut t)?;
                t.documents[0][0] += 1;
                t.documents[2][0] += 1;
            }
            // The prefix-tree walk keeps the literal step of the body memoised.
            DocUnit::MagicThen(u) => return UnitCheck::check_unit(&MagicThen(self.imp), &u),
            DocUnit::InnerMagic(None) => {
                let both = [MAGIC, MAGIC].concat();
                check(self.imp, &both, key_of(&both), &mut t)?;
                t.documents[1][0] += 1;
            }
            DocUnit::InnerMagic(Some(u)) => {
                u.each(|body| {
                    for leading in [false, true] {
                        for at in usize::from(!leading)..=body.len() {
                            let n = place(&mut doc, leading, body, at);
                            check(self.imp, &doc[..n], key_of(&doc[..n]), &mut t)?;
                        }
                    }
                    Ok::<(), Box<Failure>>(())
                })?;
                t.documents[1][usize::from(u.len)] += unit.documents();
            }
            DocUnit::Plain(u) => {
                u.each(|body| check(self.imp, body, key_of(body), &mut t))?;
                t.documents[2][usize::from(u.len)] += u.inputs();
            }
        }
        let mut counts = Counters::new();
        count_into(&t, &mut counts);
        Ok(counts)
    }
}

/// Compares the implementation's findings of `doc` with the spec-literal ones of its key
/// (computed on the first document of the unit with that key).
fn check(
    imp: &CodecFns,
    doc: &[u8],
    key: Option<Key>,
    t: &mut DocTally,
) -> Result<(), Box<Failure>> {
    (imp.corrected_document)(doc, &mut t.got);
    let Some(key) = key else {
        // Never in this walk: compare with the literal call itself.
        return if t.got == literal_findings(doc) {
            Ok(())
        } else {
            Err(failure(imp, doc, &t.got))
        };
    };
    let (want, seen) = t
        .cache
        .entry(key)
        .or_insert_with(|| (literal_findings(doc), 0));
    *seen += 1;
    if t.got != *want {
        return Err(failure(imp, doc, &t.got));
    }
    Ok(())
}

/// The counterexample for `doc`, confirmed with the full literal call.
fn failure(imp: &CodecFns, doc: &[u8], got: &[DocFinding]) -> Box<Failure> {
    let want = literal_findings(doc);
    Box::new(Failure {
        check: "corrected-utf8 document",
        input: hex(doc, " "),
        got_from: imp.name,
        got: render_findings(got),
        want_from: if want == got {
            "spec-literal (the check's memoised findings disagree with the full check)"
        } else {
            "spec-literal"
        },
        want: render_findings(&want),
    })
}

/// Adds a unit's counters: documents by kind and body length, valid ones (no error
/// finding), findings by kind.
fn count_into(t: &DocTally, counts: &mut Counters) {
    for (kind, by_len) in KINDS.iter().zip(&t.documents) {
        for (len, &n) in by_len.iter().enumerate() {
            if n > 0 {
                *counts
                    .entry(format!("document.{kind}.{len}-byte"))
                    .or_default() += n;
            }
        }
    }
    for (findings, n) in t.cache.values() {
        if !findings.iter().any(|f| f.kind.is_error()) {
            *counts.entry("document.valid".into()).or_default() += n;
        }
        for f in findings {
            *counts
                .entry(format!("document.findings.{}", f.kind.name()))
                .or_default() += n;
        }
    }
}

/// Writes into `doc` a leading magic number (or not), then `body` with a magic number
/// inserted before its byte `at`; returns the length.
fn place(doc: &mut [u8; MAX_DOC], leading: bool, body: &[u8], at: usize) -> usize {
    let mut n = 0;
    let mut put = |bytes: &[u8]| {
        doc[n..n + bytes.len()].copy_from_slice(bytes);
        n += bytes.len();
    };
    if leading {
        put(&MAGIC);
    }
    put(&body[..at]);
    put(&MAGIC);
    put(&body[at..]);
    n
}

/// The magic number followed by each body, walked as a tree of body prefixes: the
/// literal step at the body's offset 0 is memoised ([`Memo`]), the rest of the body
/// stepped.
struct MagicThen<'a>(&'a CodecFns);

impl InputCheck for MagicThen<'_> {
    type Node = Memo;
    type Tally = DocTally;

    fn name(&self) -> &'static str {
        "corrected-utf8 document"
    }

    fn root(&self) -> Memo {
        Memo::UNSET
    }

    #[inline]
    fn extend(&self, parent: &Memo, node: &[u8]) -> Memo {
        parent.extend(node, lit::step)
    }

    #[inline]
    fn check(&self, node: &Memo, body: &[u8], t: &mut DocTally) -> Result<(), Box<Failure>> {
        let mut doc = [0u8; MAX_DOC];
        doc[..MAGIC.len()].copy_from_slice(&MAGIC);
        doc[MAGIC.len()..MAGIC.len() + body.len()].copy_from_slice(body);
        let mut k = KeyBuilder::new(true);
        let key = k
            .push(node.len, class(node.value))
            .and_then(|()| k.text(&body[node.len.min(body.len())..]))
            .map(|()| k.finish());
        t.documents[0][body.len()] += 1;
        let doc = &doc[..MAGIC.len() + body.len()];
        debug_assert_eq!(key, key_of(doc), "the memoised key of {doc:02X?}");
        check(self.0, doc, key, t)
    }

    fn counts(&self, t: &DocTally, counts: &mut Counters) {
        count_into(t, counts);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::exhaustive::{LITERAL, REFERENCE};

    /// The key holds everything the literal checker reads: on every document of the
    /// walk with bodies of up to 2 bytes, and on spread-out 4-byte bodies, the findings
    /// of the first document with a key are those of every other document with it.
    #[test]
    fn documents_with_one_key_have_the_same_literal_findings() {
        let mut first: HashMap<Key, (Vec<u8>, Vec<DocFinding>)> = HashMap::new();
        let mut check = |doc: &[u8]| {
            let key = key_of(doc).expect("fits");
            let findings = literal_findings(doc);
            let (d, f) = first
                .entry(key)
                .or_insert_with(|| (doc.to_vec(), findings.clone()));
            assert_eq!(*f, findings, "{:02X?} vs {:02X?}", d, doc);
        };
        let mut doc = [0u8; MAX_DOC];
        for unit in InputUnit::all(2) {
            unit.each(|body| {
                check(&[&MAGIC[..], body].concat());
                check(body);
                for leading in [false, true] {
                    for at in 0..=body.len() {
                        let n = place(&mut doc, leading, body, at);
                        check(&doc[..n]);
                    }
                }
                Ok::<(), ()>(())
            })
            .unwrap();
        }
        let mut x = 0x1234_5678u32;
        for _ in 0..200_000 {
            x ^= x << 13;
            x ^= x >> 17;
            x ^= x << 5;
            check(&[&MAGIC[..], &x.to_be_bytes()].concat());
        }
        assert!(first.len() > 1000, "{}", first.len());
    }

    #[test]
    fn units_hold_what_they_say() {
        let units = DocUnit::all(2);
        let total: u64 = units.iter().map(DocUnit::documents).sum();
        // Magic then 0..=2 bytes; inner magic: (2L + 1) · 256^L for L = 0, 1; plain
        // 0..=1 bytes.
        assert_eq!(total, (1 + 256 + 65_536) + (1 + 3 * 256) + (1 + 256));
        let check = DocumentCheck::new(&REFERENCE);
        let mut docs = 0;
        for unit in &units {
            let counts = check.check_unit(unit).unwrap_or_else(|f| panic!("{f}"));
            let n: u64 = counts
                .iter()
                .filter(|(k, _)| k.ends_with("-byte"))
                .map(|(_, v)| v)
                .sum();
            assert_eq!(n, unit.documents(), "{unit:?}");
            docs += n;
        }
        assert_eq!(docs, total);
    }

    #[test]
    fn the_spec_literal_checker_passes_against_itself() {
        let check = DocumentCheck::new(&LITERAL);
        for unit in DocUnit::all(2) {
            check.check_unit(&unit).unwrap_or_else(|f| panic!("{f}"));
        }
    }
}
