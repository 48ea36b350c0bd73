//! UTF-∞-8's splits: the forms' code point ranges (the length steps), the surrogates,
//! the lead byte of each form, the continuation bytes, the 13-byte form's second byte
//! and the length digits after it, `B4`, and NUD 18, where the long form starts.

use super::{byte_label, cp_label, leak, Bound, Case, Planter, Probe, Subject};
use conformance_literal::utf_inf8::{
    encode_in_form, CodePoint, Event, Slot, Tables, DEFAULT_LIMIT, FORMS, SPEC,
};

struct Mutant(Tables);

fn parse(cp: &str) -> Option<CodePoint> {
    cp.parse().ok()
}

impl Subject for Mutant {
    fn decode(&self, input: &[u8]) -> Vec<String> {
        self.0
            .decode(input, DEFAULT_LIMIT)
            .into_iter()
            .map(|e| match e {
                Event::CodePoint(cp) => cp.to_string(),
                Event::Error {
                    kind,
                    offset,
                    length,
                } => format!("{kind}@{offset}+{length}"),
            })
            .collect()
    }

    fn encode(&self, cp: &str) -> Option<String> {
        Some(match self.0.encode(&parse(cp)?) {
            Ok(b) => format!("bytes:{}", conformance_literal::hex(&b, "")),
            Err(k) => format!("error:{k}"),
        })
    }

    fn encode_string(&self, cps: &[String]) -> Option<String> {
        let cps: Vec<CodePoint> = cps.iter().map(|c| parse(c)).collect::<Option<_>>()?;
        Some(match self.0.encode_string(&cps) {
            Ok(b) => format!("bytes:{}", conformance_literal::hex(&b, "")),
            Err((i, k)) => format!("error:{k}@{i}"),
        })
    }
}

fn hex(s: &str) -> u128 {
    u128::from_str_radix(s, 16).expect("fits")
}

fn leak_hex(v: u128) -> &'static str {
    Box::leak(format!("{v:X}").into_boxed_str())
}

/// Sets one bound of form `f`'s slot `s` (`hi`: the upper one).
fn set_slot(t: &mut Tables, f: usize, s: usize, hi: bool, v: u128) {
    let mut slots: Vec<Slot> = t.forms[f].slots.to_vec();
    if hi {
        slots[s].range.1 = v as u8;
    } else {
        slots[s].range.0 = v as u8;
    }
    t.forms[f].slots = leak(slots);
}

/// Sets a bound of the continuation bytes: the tables' own and every form slot that is
/// one.
fn set_continuation(t: &mut Tables, hi: bool, v: u128) {
    let old = t.continuation;
    for f in 0..t.forms.len() {
        let slots: Vec<Slot> = t.forms[f]
            .slots
            .iter()
            .map(|s| {
                let mut s = *s;
                if s.range == old {
                    if hi {
                        s.range.1 = v as u8;
                    } else {
                        s.range.0 = v as u8;
                    }
                }
                s
            })
            .collect();
        t.forms[f].slots = leak(slots);
    }
    if hi {
        t.continuation.1 = v as u8;
    } else {
        t.continuation.0 = v as u8;
    }
}

pub fn case() -> Case {
    let subject = |t: Tables| -> Box<dyn Subject> { Box::new(Mutant(t)) };
    let mut p = Planter {
        spec: SPEC,
        subject: &subject,
        out: vec![],
    };
    let (cp, byte) = (&cp_label, &byte_label);
    let max = u128::MAX / 2;
    // The forms' code points, in order: every range and every length step.
    for f in 0..FORMS.len() {
        let set_first = move |t: &mut Tables, v: u128| t.forms[f].first = leak_hex(v);
        let set_last = move |t: &mut Tables, v: u128| t.forms[f].last = leak_hex(v);
        let what = format!("the {}-byte form's code points", FORMS[f].len());
        p.range(
            &what,
            cp,
            Bound {
                value: hex(FORMS[f].first),
                max,
                set: &set_first,
            },
            Bound {
                value: hex(FORMS[f].last),
                max,
                set: &set_last,
            },
        );
        if f + 1 < FORMS.len() {
            let set_next = move |t: &mut Tables, v: u128| t.forms[f + 1].first = leak_hex(v);
            p.split(
                &format!(
                    "length step {} | {} bytes",
                    FORMS[f].len(),
                    FORMS[f + 1].len()
                ),
                cp,
                Bound {
                    value: hex(FORMS[f].last),
                    max,
                    set: &set_last,
                },
                Bound {
                    value: hex(FORMS[f + 1].first),
                    max,
                    set: &set_next,
                },
            );
        }
    }
    let set_lo = |t: &mut Tables, v: u128| t.surrogates.0 = leak_hex(v);
    let set_hi = |t: &mut Tables, v: u128| t.surrogates.1 = leak_hex(v);
    p.range(
        "surrogates",
        cp,
        Bound {
            value: hex(SPEC.surrogates.0),
            max,
            set: &set_lo,
        },
        Bound {
            value: hex(SPEC.surrogates.1),
            max,
            set: &set_hi,
        },
    );
    // The lead bytes, and the splits between neighbouring leads.
    for (f, form) in FORMS.iter().enumerate() {
        let (lo, hi) = form.slots[0].range;
        let set_lo = move |t: &mut Tables, v: u128| set_slot(t, f, 0, false, v);
        let set_hi = move |t: &mut Tables, v: u128| set_slot(t, f, 0, true, v);
        p.range(
            &format!("the {}-byte form's lead", form.len()),
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
        if let Some(next) = FORMS.get(f + 1).filter(|n| n.slots[0].range.0 == hi + 1) {
            let set_next = move |t: &mut Tables, v: u128| set_slot(t, f + 1, 0, false, v);
            p.split(
                &format!(
                    "leads of the {}- and {}-byte forms",
                    FORMS[f].len(),
                    next.len()
                ),
                byte,
                Bound {
                    value: hi.into(),
                    max: 0xFF,
                    set: &set_hi,
                },
                Bound {
                    value: next.slots[0].range.0.into(),
                    max: 0xFF,
                    set: &set_next,
                },
            );
        }
    }
    // The 13-byte form's second byte, 80–9F, and the length digits A0–AF after FF.
    let (lo, hi) = FORMS[7].slots[1].range;
    let set13_lo = |t: &mut Tables, v: u128| set_slot(t, 7, 1, false, v);
    let set13_hi = |t: &mut Tables, v: u128| set_slot(t, 7, 1, true, v);
    p.range(
        "the 13-byte form's second byte",
        byte,
        Bound {
            value: lo.into(),
            max: 0xFF,
            set: &set13_lo,
        },
        Bound {
            value: hi.into(),
            max: 0xFF,
            set: &set13_hi,
        },
    );
    let set_digit_lo = |t: &mut Tables, v: u128| t.length_digit.0 = v as u8;
    let set_digit_hi = |t: &mut Tables, v: u128| t.length_digit.1 = v as u8;
    p.range(
        "length digits",
        byte,
        Bound {
            value: SPEC.length_digit.0.into(),
            max: 0xFF,
            set: &set_digit_lo,
        },
        Bound {
            value: SPEC.length_digit.1.into(),
            max: 0xFF,
            set: &set_digit_hi,
        },
    );
    p.split(
        "the 13-byte form's second byte | length digits",
        byte,
        Bound {
            value: hi.into(),
            max: 0xFF,
            set: &set13_hi,
        },
        Bound {
            value: SPEC.length_digit.0.into(),
            max: 0xFF,
            set: &set_digit_lo,
        },
    );
    let set_cont_lo = |t: &mut Tables, v: u128| set_continuation(t, false, v);
    let set_cont_hi = |t: &mut Tables, v: u128| set_continuation(t, true, v);
    p.range(
        "continuation bytes",
        byte,
        Bound {
            value: SPEC.continuation.0.into(),
            max: 0xFF,
            set: &set_cont_lo,
        },
        Bound {
            value: SPEC.continuation.1.into(),
            max: 0xFF,
            set: &set_cont_hi,
        },
    );
    // B4 and NUD 18 (the long form's first digit count, 14 and 16 bytes and on).
    for (d, sign) in [(1i16, "+"), (-1, "−")] {
        let b4 = (i16::from(SPEC.b4) + d) as u8;
        p.plant("B4".into(), "B4".into(), format!("B4 {sign} 1"), &|t| {
            t.b4 = b4
        });
        let nud = (SPEC.nud_min as i128 + i128::from(d)) as u128;
        p.plant(
            "NUD 17 | 18 (the long form)".into(),
            "NUD 18".into(),
            format!("NUD_MIN {} {sign} 1", SPEC.nud_min),
            &|t| t.nud_min = nud,
        );
    }
    Case {
        encoding: "utf-inf-8",
        spec: subject(SPEC),
        planted: p.out,
        probe: probe(),
    }
}

fn probe() -> Probe {
    let mut inputs: Vec<Vec<u8>> = Vec::new();
    for a in 0..=0xFFu8 {
        inputs.push(vec![a]);
        inputs.push(vec![a, 0x41]);
        if a >= 0xC0 {
            for b in 0..=0xFFu8 {
                inputs.push(vec![a, b]);
            }
        }
    }
    // Each form's lowest and highest code, each byte set to every value (the first two
    // positions) or to the continuation bytes' neighbours (the later ones).
    for form in &FORMS {
        for pick in [|s: &Slot| s.range.0, |s: &Slot| s.range.1] {
            let base: Vec<u8> = form.slots.iter().map(pick).collect();
            for pos in 0..base.len() {
                let values: Vec<u8> = if pos < 2 {
                    (0..=0xFF).collect()
                } else {
                    vec![0x7E, 0x7F, 0x80, 0x81, 0xBE, 0xBF, 0xC0, 0xC1]
                };
                for b in values {
                    let mut input = base.clone();
                    input[pos] = b;
                    inputs.push([&input[..], b"A"].concat());
                }
            }
        }
    }
    // Values around every form's ends in that form and its neighbours (overlong or not).
    let mut values: Vec<u128> = Vec::new();
    for form in &FORMS {
        for v in [hex(form.first), hex(form.last)] {
            values.extend(v.saturating_sub(2)..=v + 2);
        }
        values.push((hex(form.first) + hex(form.last)) / 2);
    }
    for s in [hex(SPEC.surrogates.0), hex(SPEC.surrogates.1)] {
        values.extend(s - 2..=s + 2);
    }
    // (Every value in every form: the ones far from a form's range are one form's
    // overlong values or do not fit, both cheap.)
    for form in &FORMS {
        for &v in &values {
            if v >> form.payload_bits() == 0 {
                let bytes = encode_in_form(form, v);
                inputs.push([&bytes[..], b"A"].concat());
            }
        }
    }
    // The long form: after FF, after FF B4, after the first digits; codes of 17 to 20 and
    // 32 to 35 digits, each cut after every byte.
    for b in 0..=0xFFu8 {
        for prefix in [
            &[0xFF][..],
            &[0xFF, 0xB4],
            &[0xFF, 0xA0],
            &[0xFF, 0xA1],
            &[0xFF, 0xB4, 0xA1],
        ] {
            inputs.push([prefix, &[b, 0x80, 0x80, 0x41]].concat());
        }
    }
    let mut codepoints: Vec<String> = values.iter().map(|&v| cp_label(v)).collect();
    for nud in (17..=20).chain(32..=35) {
        for digits in [
            format!("1{}", "0".repeat(nud - 1)),
            format!("8{}", "0".repeat(nud - 1)),
            "F".repeat(nud),
        ] {
            let cp: CodePoint = format!("U+{digits}").parse().expect("a code point");
            codepoints.push(cp.to_string());
            if let Ok(bytes) = SPEC.encode(&cp) {
                for cut in 1..=bytes.len() {
                    inputs.push([&bytes[..cut], b"A"].concat());
                }
            }
        }
    }
    Probe { inputs, codepoints }
}
