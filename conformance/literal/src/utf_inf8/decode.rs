//! Decoding UTF-∞-8 (`docs/semantics.md` §4.2, §4.3): every form judges each growing
//! prefix of a code ([`Tables::judge`]), and the first byte for which none can go on ends
//! it.

use super::{hex_value, CodePoint, Event, Form, Judgement, Tables};
use crate::{in_range, Kind};

/// NME from its hex digits (saturating).
fn nme_value(digits: &[u8]) -> u128 {
    digits.iter().fold(0u128, |v, &d| {
        v.checked_mul(16)
            .and_then(|v| v.checked_add(u128::from(d)))
            .unwrap_or(u128::MAX)
    })
}

impl Tables {
    /// What a fixed-length form says about `prefix` (its lead byte first; every later byte
    /// a continuation byte).
    pub fn judge_fixed(&self, form: &Form, prefix: &[u8]) -> Judgement {
        if prefix.len() > form.len() || prefix.is_empty() {
            return Judgement::NotThisForm;
        }
        if !form
            .slots
            .iter()
            .zip(prefix)
            .all(|(s, &b)| in_range(b, s.range))
        {
            return Judgement::NotThisForm;
        }
        // The bits the prefix fixes, then the interval of values its completions can take.
        let mut known: u128 = 0;
        let mut known_bits = 0;
        for (s, &b) in form.slots.iter().zip(prefix) {
            known = (known << s.bits) | (u128::from(b) & ((1u128 << s.bits) - 1));
            known_bits += s.bits;
        }
        let unknown = form.payload_bits() - known_bits;
        let min = known << unknown;
        let max = min | ((1u128 << unknown) - 1);
        let (first, last) = (hex_value(form.first), hex_value(form.last));
        let (lo, hi) = (min.max(first), max.min(last));
        if lo > hi {
            // Every row's `last` is all ones of its payload bits, so only `max < first` can
            // happen: every completion fits a shorter form.
            return Judgement::Closed(Kind::Overlong);
        }
        let (s_lo, s_hi) = (hex_value(self.surrogates.0), hex_value(self.surrogates.1));
        if s_lo <= lo && hi <= s_hi {
            return Judgement::Closed(Kind::Surrogate);
        }
        if prefix.len() == form.len() {
            Judgement::Complete(CodePoint::from_u128(min))
        } else {
            Judgement::Open {
                shortest: form.len() as u128,
            }
        }
    }

    /// Length in bytes of a long-form code whose NME is `nme`, stored in `length_bytes`
    /// length-storage bytes (saturating).
    fn long_code_len(&self, nme: u128, length_bytes: usize) -> u128 {
        let nud = nme.saturating_add(self.nud_min);
        // Draft §3.5.7: ((NUD + 2) / 3) * 2 USV-storage bytes.
        let storage = (nud.saturating_add(2) / 3).saturating_mul(2);
        storage.saturating_add(1 + length_bytes as u128)
    }

    /// The first code point of the long form with `nud` digits: "NUD ≥ 18 and above the
    /// previous row" (§4.1) — `8000…` for NUD 18 (the 13-byte form holds up to `7FFF…`),
    /// else `1000…`. Only its first digit matters: the rest are zeros.
    fn long_first_digit(&self, nud: u128) -> u8 {
        let last13 = self.forms[7].last;
        if nud == last13.len() as u128 {
            u8::from_str_radix(&last13[..1], 16).unwrap_or(0) + 1
        } else {
            1
        }
    }

    /// What the long form (NUD ≥ 18, draft §3.5) says about `prefix`.
    pub fn judge_long(&self, prefix: &[u8]) -> Judgement {
        let Some((&lead, rest)) = prefix.split_first() else {
            return Judgement::NotThisForm;
        };
        if lead != self.long_lead {
            return Judgement::NotThisForm;
        }
        // §3.5.2: zero or more B4, then one or more Ax.
        let b4s = rest.iter().take_while(|&&b| b == self.b4).count();
        let after = &rest[b4s..];
        let Some(&first_digit) = after.first() else {
            // NME has at least b4s + 1 digits, the first nonzero: at least 16^b4s.
            let nme = if b4s == 0 {
                0
            } else {
                16u128.checked_pow(b4s as u32).unwrap_or(u128::MAX)
            };
            return Judgement::Open {
                shortest: self.long_code_len(nme, 2 * b4s + 1),
            };
        };
        if b4s == 0 && in_range(first_digit, self.forms[7].slots[1].range) {
            // FF 80–9F is the 13-byte form's.
            return Judgement::NotThisForm;
        }
        if !in_range(first_digit, self.length_digit) {
            // After FF a byte other than 80–AF or B4; after B4s one other than B4 or Ax.
            return Judgement::Closed(Kind::InvalidLength);
        }
        if b4s > 0 && first_digit == self.length_digit.0 {
            // §3.5.4/3.5.5: as many Ax as necessary, so no leading zero digit (this is
            // also what a B4 more than needed looks like).
            return Judgement::Closed(Kind::Overlong);
        }
        // §3.5.5: "The number of B4 bytes is one less than the number of Ax bytes."
        let want = b4s + 1;
        let mut digits = Vec::new();
        for &b in after.iter().take(want) {
            if !in_range(b, self.length_digit) {
                return Judgement::Closed(Kind::InvalidLength);
            }
            digits.push(b - self.length_digit.0);
        }
        let length_bytes = b4s + want;
        if digits.len() < want {
            // The smallest NME with these leading digits: the rest zero.
            let mut least = digits.clone();
            least.resize(want, 0);
            return Judgement::Open {
                shortest: self.long_code_len(nme_value(&least), length_bytes),
            };
        }
        let nme = nme_value(&digits);
        let total = self.long_code_len(nme, length_bytes);
        let nud = nme.saturating_add(self.nud_min);
        // §3.5.6–3.5.7: the NUD digits padded on the left with zeros to a multiple of 3; 3
        // digits per 2 storage bytes of 6 bits each. NUD modulo 3 from the digits, exactly
        // however many there are (16 is 1 modulo 3: NME is the sum of its digits modulo 3),
        // not from `nud`, which saturates from 33 length digits on (such a code is over
        // any limit, but its padding and first digit still end its span).
        let nud_mod3 = (digits.iter().map(|&d| u128::from(d)).sum::<u128>() + self.nud_min % 3) % 3;
        let storage = &after[want..];
        let pad = ((3 - nud_mod3) % 3) as usize;
        let bit = |k: usize| -> Option<u8> {
            let b = storage.get(k / 6)?;
            Some((b >> (5 - k % 6)) & 1)
        };
        // Padding digits: their known bits must be zero (the digits must fit the length).
        for k in 0..4 * pad {
            if bit(k) == Some(1) {
                return Judgement::Closed(Kind::InvalidLength);
            }
        }
        // First significant digit: even with its unknown bits set it must reach the form's
        // first code point's first digit (else the value fits a shorter code).
        let best = (0..4).fold(0u8, |d, j| (d << 1) | bit(4 * pad + j).unwrap_or(1));
        if best < self.long_first_digit(nud) {
            return Judgement::Closed(Kind::Overlong);
        }
        let storage_len = total - 1 - length_bytes as u128;
        if (storage.len() as u128) < storage_len {
            return Judgement::Open { shortest: total };
        }
        let digits: String = (0..storage.len() * 6 / 4)
            .skip(pad)
            .map(|i| {
                let d = (0..4).fold(0u32, |d, j| {
                    (d << 1) | u32::from(bit(4 * i + j).unwrap_or(0))
                });
                char::from_digit(d, 16).unwrap_or('0')
            })
            .collect();
        match CodePoint::from_hex(&digits) {
            Some(cp) => Judgement::Complete(cp),
            None => Judgement::Closed(Kind::InvalidLength),
        }
    }

    /// What all forms together say about `prefix` (§4.2): complete or still open if any form
    /// says so; else the reason of the form that describes these bytes; a lead byte no form
    /// has is a continuation byte where a code must start.
    pub fn judge(&self, prefix: &[u8]) -> Judgement {
        let answers: Vec<Judgement> = self
            .forms
            .iter()
            .map(|f| self.judge_fixed(f, prefix))
            .chain([self.judge_long(prefix)])
            .collect();
        if let Some(done) = answers.iter().find(|a| matches!(a, Judgement::Complete(_))) {
            return done.clone();
        }
        let shortest = answers
            .iter()
            .filter_map(|a| match a {
                Judgement::Open { shortest } => Some(*shortest),
                _ => None,
            })
            .min();
        if let Some(shortest) = shortest {
            return Judgement::Open { shortest };
        }
        answers
            .into_iter()
            .find(|a| matches!(a, Judgement::Closed(_)))
            .unwrap_or(Judgement::Closed(Kind::UnexpectedContinuation))
    }

    fn is_continuation(&self, b: u8) -> bool {
        in_range(b, self.continuation)
    }

    /// Decodes `input` into `(offset, length, event)` triples, with a limit of `limit` bytes
    /// on one code (`docs/semantics.md` §4.2, §4.3).
    pub fn decode_located(&self, input: &[u8], limit: usize) -> Vec<(usize, usize, Event)> {
        let mut events = Vec::new();
        let error = |kind, offset, length| {
            (
                offset,
                length,
                Event::Error {
                    kind,
                    offset,
                    length,
                },
            )
        };
        let over = |n: u128| n > limit as u128;
        let mut start = 0;
        while start < input.len() {
            let mut end = start; // the byte being judged
            let next = loop {
                let prefix = &input[start..=end];
                let len = prefix.len();
                match self.judge(prefix) {
                    // The span is the bytes before the failing byte, at least the lead.
                    Judgement::Closed(kind) => break error(kind, start, (len - 1).max(1)),
                    Judgement::Complete(_) if over(len as u128) => {
                        break error(Kind::LimitExceeded, start, len)
                    }
                    Judgement::Complete(cp) => break (start, len, Event::CodePoint(cp)),
                    Judgement::Open { shortest } if over(shortest) => {
                        break error(
                            Kind::LimitExceeded,
                            start,
                            self.limit_span(&input[start..], len),
                        )
                    }
                    Judgement::Open { .. } | Judgement::NotThisForm => {}
                }
                end += 1;
                if !input
                    .get(end)
                    .copied()
                    .is_some_and(|b| self.is_continuation(b))
                {
                    break error(Kind::Truncated, start, len);
                }
            };
            start += next.1;
            events.push(next);
        }
        events
    }

    /// The length of the one `limit-exceeded` span of the code at the start of `code`, whose
    /// first `len` bytes went over the limit (`docs/semantics.md` §4.3): it takes every
    /// following byte that still continues a well-formed code, ignoring the limit, up to the
    /// code's declared end (inclusive); it stops before the first byte that cannot continue
    /// it, or at the end of the input.
    fn limit_span(&self, code: &[u8], mut len: usize) -> usize {
        // `FF B4 … B4` continues with another B4 however many there are: no need to judge
        // (which would cost the run's length each time).
        let mut b4_run =
            code.first() == Some(&self.long_lead) && code[1..len].iter().all(|&b| b == self.b4);
        while let Some(&b) = code.get(len).filter(|&&b| self.is_continuation(b)) {
            if b4_run && b == self.b4 {
                len += 1;
                continue;
            }
            b4_run = false;
            match self.judge(&code[..=len]) {
                Judgement::Complete(_) => return len + 1,
                Judgement::Open { shortest } if self.long_header_judged(&code[..=len]) => {
                    // The length and the first storage pair are judged: every continuation
                    // byte continues the code now, so count up to its declared end.
                    let declared = usize::try_from(shortest).unwrap_or(usize::MAX);
                    let rest = code[len + 1..]
                        .iter()
                        .take(declared - (len + 1))
                        .take_while(|&&c| self.is_continuation(c))
                        .count();
                    return len + 1 + rest;
                }
                Judgement::Open { .. } => len += 1,
                Judgement::Closed(_) | Judgement::NotThisForm => return len,
            }
        }
        len
    }

    /// Whether `prefix` is a long-form code whose length storage is complete and which has
    /// at least 2 USV-storage bytes: the padding digits and the first significant digit lie
    /// in those 2 bytes (draft §3.5.6–3.5.7), so [`judge_long`] judges nothing after them
    /// but the code's length.
    fn long_header_judged(&self, prefix: &[u8]) -> bool {
        let Some((&lead, rest)) = prefix.split_first() else {
            return false;
        };
        if lead != self.long_lead {
            return false;
        }
        let b4s = rest.iter().take_while(|&&b| b == self.b4).count();
        let digits = rest[b4s..]
            .iter()
            .take_while(|&&b| in_range(b, self.length_digit))
            .count();
        // The length storage is b4s B4 and b4s + 1 digits (a storage byte may be A0–AF too).
        digits > b4s && rest.len() >= 2 * b4s + 1 + 2
    }

    /// Decodes `input` into events with a limit of `limit` bytes on one code.
    pub fn decode(&self, input: &[u8], limit: usize) -> Vec<Event> {
        self.decode_located(input, limit)
            .into_iter()
            .map(|(_, _, e)| e)
            .collect()
    }
}
