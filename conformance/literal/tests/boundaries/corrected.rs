//! Corrected UTF-8's splits: the byte roles, the rows' byte sequences (raw values within
//! a length), the rows' code points with the refused ranges between them, the offsets.

use super::{
    byte_label, bytes_label, cp_label, leak, Bound, Case, CodePointRange, Planter, Probe, Subject,
};
use conformance_literal::corrected::{raw_value, Tables, SPEC};

mutant_subject!();

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

const ROLE_NAMES: [&str; 8] = [
    "ASCII",
    "continuation",
    "2-byte lead",
    "3-byte lead",
    "4-byte lead",
    "5-byte lead",
    "6-byte lead",
    "reserved",
];

pub fn case() -> Case {
    let subject = |t: Tables| -> Box<dyn Subject> { Box::new(Mutant(t)) };
    let mut p = Planter {
        spec: SPEC,
        subject: &subject,
        out: vec![],
    };
    // The byte roles (docs/semantics.md §2.1).
    let byte = &byte_label;
    for i in 0..SPEC.roles.len() {
        let (lo, hi) = SPEC.roles[i].0;
        let set_lo = move |t: &mut Tables, v: u128| t.roles[i].0 .0 = v as u8;
        let set_hi = move |t: &mut Tables, v: u128| t.roles[i].0 .1 = v as u8;
        p.range(
            &format!("byte role {}", ROLE_NAMES[i]),
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
        if i + 1 < SPEC.roles.len() {
            let set_next = move |t: &mut Tables, v: u128| t.roles[i + 1].0 .0 = v as u8;
            p.split(
                &format!("byte roles {} | {}", ROLE_NAMES[i], ROLE_NAMES[i + 1]),
                byte,
                Bound {
                    value: hi.into(),
                    max: 0xFF,
                    set: &set_hi,
                },
                Bound {
                    value: SPEC.roles[i + 1].0 .0.into(),
                    max: 0xFF,
                    set: &set_next,
                },
            );
        }
    }
    // The rows' byte sequences, as raw values of their length.
    for (r, row) in SPEC.table.iter().enumerate() {
        let n = row.first.len();
        let label =
            move |raw: u128| sequence(n, raw).map_or(format!("raw {raw:X}"), |b| bytes_label(&b));
        let bits = if n == 1 {
            7
        } else {
            7 - n as u32 + 6 * (n as u32 - 1)
        };
        let max = (1u128 << bits) - 1;
        let set_first = move |t: &mut Tables, v: u128| {
            t.table[r].first = leak(sequence(n, v).unwrap_or_else(|| vec![0xFF; n]));
        };
        let set_last = move |t: &mut Tables, v: u128| {
            t.table[r].last = leak(sequence(n, v).unwrap_or_else(|| vec![0xFF; n]));
        };
        p.range(
            &format!("row {} byte sequences", r + 1),
            &label,
            Bound {
                value: raw_value(row.first).into(),
                max,
                set: &set_first,
            },
            Bound {
                value: raw_value(row.last).into(),
                max,
                set: &set_last,
            },
        );
        if let Some(next) = SPEC.table.get(r + 1).filter(|next| next.first.len() == n) {
            let set_next = move |t: &mut Tables, v: u128| {
                t.table[r + 1].first = leak(sequence(n, v).unwrap_or_else(|| vec![0xFF; n]));
            };
            p.split(
                &format!("rows {} | {} (raw CF60)", r + 1, r + 2),
                &label,
                Bound {
                    value: raw_value(row.last).into(),
                    max,
                    set: &set_last,
                },
                Bound {
                    value: raw_value(next.first).into(),
                    max,
                    set: &set_next,
                },
            );
        }
        // The offset (its ±1 moves every code point of the row).
        let offset = row.offset;
        for (d, sign) in [(1i64, "+"), (-1, "−")] {
            let Some(v) = u32::try_from(i64::from(offset) + d).ok() else {
                continue;
            };
            p.plant(
                format!("row {} offset {offset}", r + 1),
                format!("row {}", r + 1),
                format!("row {} offset {offset} {sign} 1", r + 1),
                &|t| t.table[r].offset = v,
            );
        }
    }
    // The code points: rows and refused ranges in order, each range and each split.
    let mut ranges: Vec<CodePointRange<Tables>> = Vec::new();
    for (r, row) in SPEC.table.iter().enumerate() {
        ranges.push((
            format!("row {} code points", r + 1),
            row.first_cp.into(),
            row.last_cp.into(),
            Box::new(move |t, v| t.table[r].first_cp = v as u32),
            Box::new(move |t, v| t.table[r].last_cp = v as u32),
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
        encoding: "corrected-utf8",
        spec: subject(SPEC),
        planted: p.out,
        probe: probe(),
    }
}

/// Every input of 1 and 2 bytes; every byte after each lead and its continuation bytes
/// so far, and inside a reserved span; the sequences within two of every row's ends and
/// a middle one; every code point within two of every constant, and each row's middle.
fn probe() -> Probe {
    let mut inputs: Vec<Vec<u8>> = (0..=0xFFFFu32)
        .flat_map(|v| [vec![v as u8], v.to_be_bytes()[2..].to_vec()])
        .collect();
    for lead in 0xC0..=0xFFu8 {
        for k in 0..6 {
            for b in 0..=0xFFu8 {
                let mut input = vec![lead];
                input.extend(std::iter::repeat_n(0x80, k));
                input.push(b);
                input.push(0x41);
                inputs.push(input);
            }
        }
    }
    let mut codepoints = Vec::new();
    for row in &SPEC.table {
        let n = row.first.len();
        let (a, z) = (
            u128::from(raw_value(row.first)),
            u128::from(raw_value(row.last)),
        );
        for raw in [a, z]
            .into_iter()
            .flat_map(|v| v.saturating_sub(2)..=v + 2)
            .chain([(a + z) / 2])
        {
            if let Some(seq) = sequence(n, raw) {
                inputs.push([&seq[..], b"A"].concat());
            }
        }
        let (f, l) = (u128::from(row.first_cp), u128::from(row.last_cp));
        codepoints.push(cp_label((f + l) / 2));
    }
    let constants = SPEC
        .table
        .iter()
        .flat_map(|r| [r.first_cp, r.last_cp])
        .chain(SPEC.encode_errors.iter().flat_map(|e| [e.0, e.1]));
    for c in constants {
        let c = u128::from(c);
        for v in c.saturating_sub(2)..=(c + 2).min(0xFFFF_FFFF) {
            codepoints.push(cp_label(v));
        }
    }
    Probe { inputs, codepoints }
}
