//! "Every boundary twice from each side" (issue 38, vectors 2.5.0): one more vector for
//! each side of every split the spec-literal tables define, under the flag `SplitEdge`,
//! so that each side is tested by at least two vectors whose flags differ (an importer
//! that skips one flag still has the other). The sides are read off the tables here; the
//! test `conformance/literal/tests/boundaries` plants every split moved by one in a copy
//! of the tables and checks that at least two vectors of each file see it.

use super::build::{cp_text, spaced, Groups};
use super::utf_inf8::{dec as inf_dec, enc as inf_enc};
use crate::vectors::model::{DecodeTest, EncodeTest};
use conformance_literal::corrected::{raw_value, SPEC as CORRECTED};
use conformance_literal::utf8::SPEC as UTF8;
use conformance_literal::utf_inf8::{encode_in_form, CodePoint, FORMS, SPEC as INF};

/// The group's comment, the same in every file.
pub(super) const GROUP: &str =
    "Every split of the tables from each side, once more (vectors/README.md, \"Every boundary twice\")";

/// The flag of the group.
pub(super) const FLAG: &str = "SplitEdge";

/// The values on each side of every bound of the ranges `[lo, hi]`: lo − 1, lo, hi,
/// hi + 1 (within `0..=max`), sorted, each once.
fn sides(ranges: impl IntoIterator<Item = (u128, u128)>, max: u128) -> Vec<u128> {
    let mut out: Vec<u128> = ranges
        .into_iter()
        .flat_map(|(lo, hi)| [lo.checked_sub(1), Some(lo), Some(hi), hi.checked_add(1)])
        .flatten()
        .filter(|&v| v <= max)
        .collect();
    out.sort_unstable();
    out.dedup();
    out
}

/// Corrected UTF-8 encode: both sides of every row's and every refused range's bounds.
pub(super) fn corrected_encode(
    g: &mut Groups<EncodeTest>,
    enc: fn(String, &[&str], u32) -> EncodeTest,
) {
    g.group(GROUP);
    let ranges = CORRECTED
        .table
        .iter()
        .map(|r| (r.first_cp.into(), r.last_cp.into()))
        .chain(
            CORRECTED
                .encode_errors
                .iter()
                .map(|e| (e.0.into(), e.1.into())),
        );
    for v in sides(ranges, u32::MAX.into()) {
        let v = v as u32;
        g.push(enc(
            format!("{}, on one side of a split of the table", cp_text(v)),
            &[FLAG],
            v,
        ));
    }
}

/// UTF-8 encode: both sides of every Table 3-7 row's and every refused range's bounds.
pub(super) fn utf8_encode(g: &mut Groups<EncodeTest>, enc: fn(String, &[&str], u32) -> EncodeTest) {
    g.group(GROUP);
    let ranges = UTF8
        .table_3_7
        .iter()
        .map(|r| (r.first_cp.into(), r.last_cp.into()))
        .chain(UTF8.encode_errors.iter().map(|e| (e.0.into(), e.1.into())));
    for v in sides(ranges, u32::MAX.into()) {
        let v = v as u32;
        g.push(enc(
            format!("{}, on one side of a split of Table 3-7", cp_text(v)),
            &[FLAG],
            v,
        ));
    }
}

fn hex(s: &str) -> u128 {
    u128::from_str_radix(s, 16).unwrap_or(0)
}

/// UTF-∞-8's code point ranges: the forms and the surrogates.
fn inf_ranges() -> Vec<(u128, u128)> {
    FORMS
        .iter()
        .map(|f| (hex(f.first), hex(f.last)))
        .chain([(hex(INF.surrogates.0), hex(INF.surrogates.1))])
        .collect()
}

/// UTF-∞-8 encode: both sides of every form's and the surrogates' bounds.
pub(super) fn utf_inf8_encode(g: &mut Groups<EncodeTest>) {
    g.group(GROUP);
    for v in sides(inf_ranges(), u128::MAX) {
        let cp = CodePoint::from_u128(v);
        g.push(inf_enc(
            format!("{cp}, on one side of a length step or of the surrogates"),
            &[FLAG],
            &cp,
        ));
    }
}

/// Corrected UTF-8 decode: every row's first and last sequence and their neighbours of
/// the same length, between ASCII.
pub(super) fn corrected_decode(
    g: &mut Groups<DecodeTest>,
    dec: fn(String, &[&str], &[u8]) -> DecodeTest,
) {
    g.group(GROUP);
    for row in &CORRECTED.table {
        let n = row.first.len();
        let ends = [u128::from(raw_value(row.first)), raw_value(row.last).into()];
        for raw in sides([(ends[0], ends[1])], u128::MAX) {
            let Some(seq) = sequence(n, raw) else {
                continue;
            };
            let input = [&b"A"[..], &seq, b"A"].concat();
            g.push(dec(
                format!(
                    "{}: an {n}-byte sequence on one side of a row's end, between A and A",
                    spaced(&input)
                ),
                &[FLAG],
                &input,
            ));
        }
    }
}

/// The n-byte sequence with raw value `raw` (RFC 2044 layout), if it fits n bytes.
fn sequence(n: usize, raw: u128) -> Option<Vec<u8>> {
    if n == 1 {
        return (raw < 0x80).then(|| vec![raw as u8]);
    }
    let bits = 7 - n as u32 + 6 * (n as u32 - 1);
    if raw >> bits != 0 {
        return None;
    }
    let marker = !(0xFFu8 >> n);
    let mut b = vec![marker | (raw >> (6 * (n - 1))) as u8];
    for k in (0..n - 1).rev() {
        b.push(0x80 | ((raw >> (6 * k)) & 0x3F) as u8);
    }
    Some(b)
}

/// UTF-8 decode: for each error-kind rule that looks at the second byte, the lead with
/// each side of that range's bounds, and the lead's neighbours with the range's first
/// byte; then `41` or the end of input.
pub(super) fn utf8_decode(
    g: &mut Groups<DecodeTest>,
    dec: fn(String, &[&str], &[u8]) -> DecodeTest,
) {
    g.group(GROUP);
    for rule in &UTF8.kinds {
        let Some(second) = rule.second else {
            continue;
        };
        let mut inputs: Vec<Vec<u8>> = Vec::new();
        for b in sides([(second.0.into(), second.1.into())], 0xFF) {
            inputs.extend([
                vec![rule.first.0, b as u8, 0x41],
                vec![rule.first.0, b as u8],
            ]);
        }
        for lead in sides([(rule.first.0.into(), rule.first.1.into())], 0xFF) {
            let lead = lead as u8;
            inputs.extend([vec![lead, second.0, 0x41], vec![lead, second.0]]);
        }
        for input in inputs {
            g.push(dec(
                format!(
                    "{}: on one side of the {} rule's byte ranges",
                    spaced(&input),
                    rule.kind
                ),
                &[FLAG],
                &input,
            ));
        }
    }
}

/// UTF-∞-8 decode: each form's first and last code and the values next to them in it and
/// in the next longer form (overlong), the surrogates' edges, each side of every lead's
/// bounds with the continuation bytes the forms on both sides need, and 7F and C0 where
/// a continuation byte must come; after ASCII, then ASCII or the end of input.
pub(super) fn utf_inf8_decode(g: &mut Groups<DecodeTest>) {
    g.group(GROUP);
    let values = sides(inf_ranges(), u128::MAX);
    let mut inputs: Vec<(Vec<u8>, String)> = Vec::new();
    for (i, form) in FORMS.iter().enumerate() {
        let near = |v: u128| v + 2 >= hex(form.first) && v <= hex(form.last) + 2;
        for &v in values.iter().filter(|&&v| near(v)) {
            // In this form (overlong below its first), and overlong in the next one.
            for into in &FORMS[i..(i + 2).min(FORMS.len())] {
                if v >> into.payload_bits() == 0 {
                    let bytes = encode_in_form(into, v);
                    inputs.push((bytes, format!("U+{v:04X} in the {}-byte form", into.len())));
                }
            }
        }
    }
    // Each side of every lead range's bounds, followed by as many BF as the forms on
    // either side of that bound need, then A or the end of input.
    let mut leads: Vec<(u8, usize)> = Vec::new();
    for form in FORMS.iter().filter(|f| f.len() <= 7) {
        let (lo, hi) = form.slots[0].range;
        for b in sides([(lo.into(), hi.into())], 0xFF) {
            if b >= 0xC0 {
                leads.push((b as u8, form.len() - 1));
            }
        }
    }
    leads.sort_unstable();
    leads.dedup();
    for (lead, k) in leads {
        let mut bytes = vec![lead];
        bytes.extend(std::iter::repeat_n(0xBF, k));
        inputs.push((
            bytes,
            format!("a lead on one side of a form's lead range, then {k} × BF"),
        ));
    }
    for lead in [&[0xC2][..], &[0xE1, 0x80], &[0xF1, 0x80, 0x80]] {
        for b in [0x7F, 0xC0] {
            let bytes = [lead, &[b, 0x80]].concat();
            inputs.push((
                bytes,
                format!("{b:02X} where a continuation byte must come"),
            ));
        }
    }
    for (bytes, what) in inputs {
        for input in [
            [&b"A"[..], &bytes, b"A"].concat(),
            [&b"A"[..], &bytes].concat(),
        ] {
            g.push(inf_dec(
                format!("{}: {what}", spaced(&input)),
                &[FLAG],
                &input,
            ));
        }
    }
}
