//! UTF-8's splits: Table 3-7's code point rows with the refused ranges between them, every
//! byte range of every row (the leads and their neighbours, the second-byte ranges of
//! `E0`, `ED`, `F0`, `F4`, the continuation ranges), and the error-kind table.

use super::{byte_label, cp_label, leak, Bound, Case, CodePointRange, Planter, Probe, Subject};
use conformance_literal::utf8::{Tables, SPEC};

mutant_subject!();

/// Sets one byte range bound of row `r`, position `pos` (`hi`: the upper bound).
fn set_byte(t: &mut Tables, r: usize, pos: usize, hi: bool, v: u128) {
    let mut bytes = t.table_3_7[r].bytes.to_vec();
    if hi {
        bytes[pos].1 = v as u8;
    } else {
        bytes[pos].0 = v as u8;
    }
    t.table_3_7[r].bytes = leak(bytes);
}

pub fn case() -> Case {
    let subject = |t: Tables| -> Box<dyn Subject> { Box::new(Mutant(t)) };
    let mut p = Planter {
        spec: SPEC,
        subject: &subject,
        out: vec![],
    };
    let byte = &byte_label;
    // Every byte range of every row; the lead ranges of neighbouring rows also as splits.
    for (r, row) in SPEC.table_3_7.iter().enumerate() {
        for (pos, &(lo, hi)) in row.bytes.iter().enumerate() {
            let set_lo = move |t: &mut Tables, v: u128| set_byte(t, r, pos, false, v);
            let set_hi = move |t: &mut Tables, v: u128| set_byte(t, r, pos, true, v);
            p.range(
                &format!(
                    "Table 3-7 row U+{:04X}..U+{:04X} byte {}",
                    row.first_cp,
                    row.last_cp,
                    pos + 1
                ),
                byte,
                Bound {
                    value: lo.into(),
                    max: 0xFF,
                    set: &set_lo,
                },
                Bound {
                    value: hi.into(),
                    max: 0xFF,
                    set: &set_hi,
                },
            );
        }
    }
    for r in 0..SPEC.table_3_7.len() - 1 {
        let (a, b) = (SPEC.table_3_7[r].bytes[0], SPEC.table_3_7[r + 1].bytes[0]);
        if a.1.checked_add(1) != Some(b.0) {
            continue;
        }
        let set_hi = move |t: &mut Tables, v: u128| set_byte(t, r, 0, true, v);
        let set_lo = move |t: &mut Tables, v: u128| set_byte(t, r + 1, 0, false, v);
        p.split(
            "Table 3-7 lead bytes of neighbouring rows",
            byte,
            Bound {
                value: a.1.into(),
                max: 0xFF,
                set: &set_hi,
            },
            Bound {
                value: b.0.into(),
                max: 0xFF,
                set: &set_lo,
            },
        );
    }
    // The error kinds (docs/semantics.md §3): each rule's byte ranges.
    for (k, rule) in SPEC.kinds.iter().enumerate() {
        let what = format!("kind {} first byte", rule.kind);
        let set_lo = move |t: &mut Tables, v: u128| t.kinds[k].first.0 = v as u8;
        let set_hi = move |t: &mut Tables, v: u128| t.kinds[k].first.1 = v as u8;
        p.range(
            &what,
            byte,
            Bound {
                value: rule.first.0.into(),
                max: 0xFF,
                set: &set_lo,
            },
            Bound {
                value: rule.first.1.into(),
                max: 0xFF,
                set: &set_hi,
            },
        );
        if let Some((lo, hi)) = rule.second {
            let what = format!("kind {} after {:02X}", rule.kind, rule.first.0);
            let set_lo = move |t: &mut Tables, v: u128| {
                if let Some(s) = t.kinds[k].second.as_mut() {
                    s.0 = v as u8;
                }
            };
            let set_hi = move |t: &mut Tables, v: u128| {
                if let Some(s) = t.kinds[k].second.as_mut() {
                    s.1 = v as u8;
                }
            };
            p.range(
                &what,
                byte,
                Bound {
                    value: lo.into(),
                    max: 0xFF,
                    set: &set_lo,
                },
                Bound {
                    value: hi.into(),
                    max: 0xFF,
                    set: &set_hi,
                },
            );
        }
    }
    // The code points: rows and refused ranges in order.
    let mut ranges: Vec<CodePointRange<Tables>> = Vec::new();
    for (r, row) in SPEC.table_3_7.iter().enumerate() {
        ranges.push((
            format!(
                "Table 3-7 row U+{:04X}..U+{:04X}",
                row.first_cp, row.last_cp
            ),
            row.first_cp.into(),
            row.last_cp.into(),
            Box::new(move |t, v| t.table_3_7[r].first_cp = v as u32),
            Box::new(move |t, v| t.table_3_7[r].last_cp = v as u32),
        ));
    }
    for (e, (lo, hi, kind)) in SPEC.encode_errors.iter().enumerate() {
        ranges.push((
            format!("{kind} range"),
            (*lo).into(),
            (*hi).into(),
            Box::new(move |t, v| t.encode_errors[e].0 = v as u32),
            Box::new(move |t, v| t.encode_errors[e].1 = v as u32),
        ));
    }
    p.code_point_ranges(ranges);
    Case {
        encoding: "utf-8",
        spec: subject(SPEC),
        planted: p.out,
        probe: probe(),
    }
}

/// Every input of 1 and 2 bytes (and each followed by `41`); for every row, its lowest
/// and its highest sequence with each byte in turn set to every value (then `41`); every
/// code point within two of every constant.
fn probe() -> Probe {
    let mut inputs: Vec<Vec<u8>> = (0..=0xFFFFu32)
        .flat_map(|v| {
            let two = v.to_be_bytes()[2..].to_vec();
            [vec![v as u8], two.clone(), [&two[..], b"A"].concat()]
        })
        .collect();
    for row in &SPEC.table_3_7 {
        for pick in [|r: (u8, u8)| r.0, |r: (u8, u8)| r.1] {
            let base: Vec<u8> = row.bytes.iter().map(|&r| pick(r)).collect();
            for pos in 0..base.len() {
                for b in 0..=0xFFu8 {
                    let mut input = base.clone();
                    input[pos] = b;
                    input.push(0x41);
                    inputs.push(input);
                }
            }
        }
    }
    let constants = SPEC
        .table_3_7
        .iter()
        .flat_map(|r| [r.first_cp, r.last_cp])
        .chain(SPEC.encode_errors.iter().flat_map(|e| [e.0, e.1]));
    let mut codepoints = Vec::new();
    for c in constants {
        let c = u128::from(c);
        for v in c.saturating_sub(2)..=(c + 2).min(0xFFFF_FFFF) {
            codepoints.push(cp_label(v));
        }
    }
    Probe { inputs, codepoints }
}
