//! The UTF-∞-8 files (`utf-inf-8/{encode,decode}.json`) and the cross-encoding cases
//! that `corrected-utf8/decode.json` and `utf-8/decode.json` share with them.
//!
//! Expected results come from [`conformance_literal::utf_inf8`] only; the byte builders used
//! here for malformed inputs (`encode_in_form`, `long_form_bytes`, …) are the literal
//! module's too, so an input is described by how it is made.

use crate::vectors::generate::build::{spaced, strings};

use crate::vectors::model::{to_hex, DecodeTest, EncodeTest, OutputEvent, TestResult};
use conformance_literal::utf_inf8::{self as lit, CodePoint, Event, FORMS};
use conformance_literal::{corrected, utf8, Event as LitEvent};

pub(super) mod decode;
pub(super) mod encode;

// ---------------------------------------------------------------------------------
// Building tests.

fn output_of(events: &[Event]) -> Vec<OutputEvent> {
    events
        .iter()
        .map(|e| match e {
            Event::CodePoint(cp) => OutputEvent::CodePoint {
                codepoint: cp.to_string(),
            },
            Event::Error {
                kind,
                offset,
                length,
            } => OutputEvent::Error {
                error: kind.as_str().to_string(),
                offset: *offset as u64,
                length: *length as u64,
            },
        })
        .collect()
}

/// The flags that already say a case depends on the code length limit (`vectors/README.md`).
const LIMIT_FLAGS: [&str; 4] = ["LimitExceeded", "LimitSpan", "AtLimit", "LargeInput"];

/// The flag of the other cases whose events change under a smaller limit.
const LIMIT_DEPENDENT: &str = "LimitDependent";

/// The smallest limit under which a case without [`LIMIT_FLAGS`] or [`LIMIT_DEPENDENT`]
/// keeps its events (`vectors/README.md`, "Limit").
pub(crate) const SMALLEST_SAFE_LIMIT: usize = 1024;

/// Whether the events of `input` differ under [`SMALLEST_SAFE_LIMIT`] while no flag says
/// the case depends on the limit: a truncated code whose shortest completion is longer
/// than a smaller limit, say, is `limit-exceeded` there (`docs/semantics.md` §4.3).
fn is_limit_dependent(flags: &[&str], input: &[u8], events: &[Event]) -> bool {
    !flags.iter().any(|f| LIMIT_FLAGS.contains(f))
        && lit::decode(input, SMALLEST_SAFE_LIMIT) != events
}

pub(crate) fn dec(comment: impl Into<String>, flags: &[&str], input: &[u8]) -> DecodeTest {
    let events = lit::decode(input, lit::DEFAULT_LIMIT);
    let mut flags = flags.to_vec();
    if is_limit_dependent(flags.as_slice(), input, &events) {
        flags.push(LIMIT_DEPENDENT);
    }
    decode_test(comment, &flags, input, &events)
}

/// The decode test of `input` under a code length limit of `limit` bytes, as the
/// spec-literal decoder gives it: what an implementation that declared that limit is
/// judged against (`conformance run`, `exhaustive --adapter`, `fuzz`), in place of the
/// vectors' default of 65 536.
pub(crate) fn dec_at(
    comment: impl Into<String>,
    flags: &[&str],
    input: &[u8],
    limit: usize,
) -> DecodeTest {
    decode_test(comment, flags, input, &lit::decode(input, limit))
}

/// A decode test of `input` whose events are `events`.
fn decode_test(
    comment: impl Into<String>,
    flags: &[&str],
    input: &[u8],
    events: &[Event],
) -> DecodeTest {
    let result = if events.iter().any(Event::is_error) {
        TestResult::Invalid
    } else {
        TestResult::Valid
    };
    DecodeTest {
        tc_id: 0,
        comment: comment.into(),
        flags: strings(flags),
        input: to_hex(input),
        output: output_of(events),
        result,
    }
}

pub(crate) fn enc(comment: impl Into<String>, flags: &[&str], cp: &CodePoint) -> EncodeTest {
    let (bytes, error, result) = match lit::encode(cp) {
        Ok(b) => (Some(to_hex(&b)), None, TestResult::Valid),
        Err(k) => (None, Some(k.as_str().to_string()), TestResult::Invalid),
    };
    EncodeTest {
        tc_id: 0,
        comment: comment.into(),
        flags: strings(flags),
        codepoint: cp.to_string(),
        bytes,
        error,
        result,
    }
}

fn cp(hex: &str) -> CodePoint {
    CodePoint::from_hex(hex).expect("a hex literal")
}

fn bytes_of(cp: &CodePoint) -> Vec<u8> {
    lit::encode(cp).unwrap_or_default()
}

fn digits(hex: &str) -> Vec<u8> {
    hex.chars()
        .map(|c| c.to_digit(16).unwrap_or(0) as u8)
        .collect()
}

/// A code point for comments: short ones in full, long ones by their digits.
fn cp_text(cp: &CodePoint) -> String {
    let hex = cp.hex();
    if hex.len() <= 24 {
        cp.to_string()
    } else {
        let first = &hex[..1];
        if hex[1..].chars().all(|c| c == '0') {
            format!(
                "U+{first} and {} zeros ({} digits)",
                hex.len() - 1,
                hex.len()
            )
        } else if hex.chars().all(|c| c == 'F') {
            format!("U+ and {} F ({} digits)", hex.len(), hex.len())
        } else {
            format!("U+{}… ({} digits)", &hex[..8], hex.len())
        }
    }
}

// ---------------------------------------------------------------------------------
// Length classes.

/// The code points whose codes have one byte length.
pub(in crate::vectors::generate) struct Class {
    /// The length of their codes.
    pub(in crate::vectors::generate) bytes: usize,
    /// The first of them.
    pub(in crate::vectors::generate) first: CodePoint,
    /// The last of them.
    pub(in crate::vectors::generate) last: CodePoint,
}

/// Length of the long-form code of a NUD-digit code point.
fn long_len(nud: usize) -> usize {
    lit::long_form_bytes(&vec![1; nud]).len()
}

/// Every fixed form, then the long-form classes holding these NUDs: 18 (14 bytes), the
/// classes up to 28 bytes (the first with a B4), the last with one B4 and the first
/// with two (NUD 273, 274), the last with two and the first with three (4113, 4114).
pub(in crate::vectors::generate) fn classes() -> Vec<Class> {
    let mut out: Vec<Class> = FORMS
        .iter()
        .map(|f| Class {
            bytes: f.len(),
            first: cp(f.first),
            last: cp(f.last),
        })
        .collect();
    for nud in [18, 19, 22, 25, 28, 31, 34, 273, 274, 4113, 4114] {
        let bytes = long_len(nud);
        let mut lo = nud;
        while lo > 18 && long_len(lo - 1) == bytes {
            lo -= 1;
        }
        let mut hi = nud;
        while long_len(hi + 1) == bytes {
            hi += 1;
        }
        // NUD 18 starts above the 13-byte form's last code point (§4.1).
        let first = if lo == 18 {
            let last13 = cp(FORMS[7].last).to_u128().unwrap_or(0);
            CodePoint::from_u128(last13 + 1)
        } else {
            cp(&format!("1{}", "0".repeat(lo - 1)))
        };
        out.push(Class {
            bytes,
            first,
            last: cp(&"F".repeat(hi)),
        });
    }
    out
}

fn class_flags(cp: &CodePoint, which: &'static str) -> Vec<&'static str> {
    let mut flags = vec![which];
    if cp.nud() >= 18 && bytes_of(cp).first() == Some(&lit::LONG_LEAD) && bytes_of(cp).len() > 13 {
        flags.push("LongForm");
        if bytes_of(cp).get(1) == Some(&lit::B4) {
            flags.push("LengthB4");
        }
    }
    if cp.nud() >= 100 {
        flags.push("ManyDigits");
    }
    flags
}

// ---------------------------------------------------------------------------------
// Cross-encoding cases.

/// Inputs whose readings differ instructively between the three encodings.
pub(super) fn cross_inputs() -> Vec<Vec<u8>> {
    let mut v: Vec<Vec<u8>> = vec![
        vec![0x41],
        vec![0xC2, 0x80],
        vec![0xC3, 0xA9],
        vec![0xC0, 0xAF],
        vec![0xC1, 0xBF],
        vec![0xE0, 0x80, 0x80],
        vec![0xED, 0xA0, 0x80],
        vec![0xED, 0xBF, 0xBF],
        vec![0xEF, 0xBF, 0xBF],
        vec![0xF0, 0x80, 0x80, 0x80],
        vec![0xF4, 0x8F, 0xBF, 0xBF],
        vec![0xF4, 0x90, 0x80, 0x80],
        vec![0xF7, 0xBF, 0xBF, 0xBF],
        vec![0xF8, 0x88, 0x80, 0x80, 0x80],
        vec![0xFB, 0xBF, 0xBF, 0xBF, 0xBF],
        vec![0xFC, 0x84, 0x80, 0x80, 0x80, 0x80],
        vec![0xFD, 0xBF, 0xBF, 0xBF, 0xBF, 0xBF],
        vec![0xFE],
        vec![0xFF],
        vec![0xFE, 0x82, 0x80, 0x80, 0x80, 0x80, 0x80],
        vec![0xFE, 0xBF, 0xBF, 0xBF, 0xBF, 0xBF, 0xBF, 0x41],
        vec![0xFF, 0xB0, 0x41],
    ];
    v.extend(
        ["1000000000", "800000000000000000"]
            .iter()
            .map(|h| bytes_of(&cp(h))),
    );
    v.push(corrected::MAGIC.to_vec());
    v
}

/// Event summaries, runs of the same one written once with `×n`.
fn summary(items: Vec<String>) -> String {
    let mut runs: Vec<(String, usize)> = Vec::new();
    for item in items {
        match runs.last_mut() {
            Some((last, n)) if *last == item => *n += 1,
            _ => runs.push((item, 1)),
        }
    }
    if runs.is_empty() {
        return "nothing".to_string();
    }
    runs.into_iter()
        .map(|(s, n)| if n == 1 { s } else { format!("{s} ×{n}") })
        .collect::<Vec<_>>()
        .join(", ")
}

fn summary_u32(events: Vec<LitEvent>) -> String {
    summary(
        events
            .into_iter()
            .map(|e| match e {
                LitEvent::CodePoint(cp) => format!("U+{cp:04X}"),
                LitEvent::Error { kind, length, .. } => format!("{kind}[{length}]"),
                LitEvent::Reserved { length, .. } => format!("reserved[{length}]"),
            })
            .collect(),
    )
}

/// The comment of a cross-encoding case: the bytes and all three readings.
pub(super) fn cross_comment(input: &[u8]) -> String {
    let inf = summary(
        lit::decode(input, lit::DEFAULT_LIMIT)
            .into_iter()
            .map(|e| match e {
                Event::CodePoint(cp) => cp.to_string(),
                Event::Error { kind, length, .. } => format!("{kind}[{length}]"),
            })
            .collect(),
    );
    format!(
        "{}: UTF-∞-8 {inf}; Corrected UTF-8 {}; UTF-8 {}",
        spaced(input),
        summary_u32(corrected::decode(input)),
        summary_u32(utf8::decode(input)),
    )
}

/// The group comment of the cross-encoding cases, the same in every decode file.
pub(super) const CROSS_GROUP: &str =
    "The same bytes in Corrected UTF-8, UTF-8 and UTF-∞-8 (each encoding's decode file has these cases)";
