//! Check (2) for UTF-∞-8: every input's events equal the spec-literal decoder's
//! ([`conformance_literal::utf_inf8::decode_located`]), under a code length limit.
//!
//! The same proof as [`super::walk`]: the literal step at offset 0 is memoised down the
//! prefix tree, and each input is compared with that step followed by the
//! implementation's (already checked) events of the rest. The literal UTF-∞-8 decoder
//! has no step function of its own, so [`advance`] is its loop body cut at each byte:
//! one [`judge`] of the prefix per continuation byte, exactly as `decode_located` judges
//! growing prefixes. A node still "open" stands for the step that meets the end of the
//! input (`truncated`); the self-test runs the literal decoder as the implementation, so
//! a transcription slip here shows up as a disagreement.

use super::codec_fns::{fill_literal_inf, render_events, CodecFns, EvBuf};
use super::failure::{Counters, Failure};
use super::walk::{agrees, DecodeTally, InputCheck, Memo, SuffixTable};
use conformance_literal::utf_inf8::{decode_located, judge, Judgement};
use conformance_literal::{hex, Kind};

/// The small limit of the second pass: 4-byte codes and every longer lead then exceed
/// it, so `limit-exceeded` (from a complete code and from an open one) is enumerated too.
pub const SMALL_LIMIT: u32 = 3;

/// The continuation bytes of `decode_located`'s loop (its `CONT` slot).
#[inline]
fn is_continuation(b: u8) -> bool {
    (0x80..=0xBF).contains(&b)
}

/// The literal step at offset 0 of `node`, given that of `node` less its last byte
/// (`parent`): `decode_located`'s inner loop for one more byte. A settled step decided
/// on bytes it saw; an unsettled one is open, and is the `truncated` span the loop
/// gives when the input ends there, or the one `limit-exceeded` span still running
/// (`docs/semantics.md` §4.3), which the end of the input ends.
pub fn advance(parent: &Memo, node: &[u8], limit: u32) -> Memo {
    if parent.settled {
        return *parent;
    }
    let done = |len, value| Memo {
        len,
        value,
        settled: true,
    };
    let judged = parent.len; // bytes judged so far, all open
    let over_limit = parent.value == Err(Kind::LimitExceeded);
    let open_kind = if over_limit {
        Kind::LimitExceeded
    } else {
        Kind::Truncated
    };
    match node.get(judged) {
        None => return *parent,
        Some(&b) if judged > 0 && !is_continuation(b) => return done(judged, Err(open_kind)),
        Some(_) => {}
    }
    let len = judged + 1;
    if over_limit {
        // The span runs on over every byte that still continues a well-formed code.
        return match judge(&node[..len]) {
            Judgement::Complete(_) => done(len, Err(Kind::LimitExceeded)),
            Judgement::Open { .. } => Memo {
                len,
                value: Err(Kind::LimitExceeded),
                settled: false,
            },
            Judgement::Closed(_) | Judgement::NotThisForm => done(judged, Err(Kind::LimitExceeded)),
        };
    }
    let over = |n: u128| n > u128::from(limit);
    match judge(&node[..len]) {
        // The span is the bytes before the failing byte, at least the lead.
        Judgement::Closed(kind) => done((len - 1).max(1), Err(kind)),
        Judgement::Complete(_) if over(len as u128) => done(len, Err(Kind::LimitExceeded)),
        Judgement::Complete(cp) => {
            let v = cp.to_u128().and_then(|v| u32::try_from(v).ok());
            done(len, Ok(v.unwrap_or(u32::MAX)))
        }
        Judgement::Open { shortest } if over(shortest) => Memo {
            len,
            value: Err(Kind::LimitExceeded),
            settled: false,
        },
        Judgement::Open { .. } | Judgement::NotThisForm => Memo {
            len,
            value: Err(Kind::Truncated),
            settled: false,
        },
    }
}

/// UTF-∞-8 under one limit: the implementation's events against the spec-literal ones.
pub struct InfDecode<'a> {
    imp: &'a CodecFns,
    limit: u32,
    name: &'static str,
    check: &'static str,
    suffixes: SuffixTable,
}

impl<'a> InfDecode<'a> {
    /// The check of `imp` under the default limit (`utf-inf-8`), over inputs of up to
    /// `max_len` bytes.
    pub fn new(imp: &'a CodecFns, max_len: usize) -> Self {
        Self::with_limit(
            imp,
            max_len,
            corrected_utf8::utf_inf8::DEFAULT_MAX_CODE_LEN,
            "utf-inf-8",
            "utf-inf-8 decode",
        )
    }

    /// The check under [`SMALL_LIMIT`] (`utf-inf-8-limit-3`).
    pub fn small_limit(imp: &'a CodecFns, max_len: usize) -> Self {
        Self::with_limit(
            imp,
            max_len,
            SMALL_LIMIT,
            "utf-inf-8-limit-3",
            "utf-inf-8 decode, limit 3",
        )
    }

    fn with_limit(
        imp: &'a CodecFns,
        max_len: usize,
        limit: u32,
        name: &'static str,
        check: &'static str,
    ) -> Self {
        let decode = imp.utf_inf8_decode;
        InfDecode {
            imp,
            limit,
            name,
            check,
            suffixes: SuffixTable::build(
                move |x: &[u8], out: &mut EvBuf| decode(x, limit, out),
                max_len,
            ),
        }
    }

    /// The counterexample for a failed check: `input` if its full spec-literal decode
    /// differs from the implementation's, else the shortest suffix that does (one must,
    /// by the induction), else a report that the memoised step itself is wrong.
    fn counterexample(&self, input: &[u8]) -> Box<Failure> {
        let mut got = EvBuf::default();
        let mut want = EvBuf::default();
        let starts = std::iter::once(0).chain((1..input.len()).rev());
        for start in starts {
            let x = &input[start..];
            (self.imp.utf_inf8_decode)(x, self.limit, &mut got);
            fill_literal_inf(decode_located(x, self.limit as usize), &mut want);
            if got.as_slice() != want.as_slice() || got.overflowed() || want.overflowed() {
                return Box::new(Failure {
                    check: self.check,
                    input: hex(x, " "),
                    got_from: self.imp.name,
                    got: render_events(got.as_slice(), got.overflowed()),
                    want_from: "spec-literal",
                    want: render_events(want.as_slice(), want.overflowed()),
                });
            }
        }
        // Show the input's own literal events, not the last suffix's.
        (self.imp.utf_inf8_decode)(input, self.limit, &mut got);
        fill_literal_inf(decode_located(input, self.limit as usize), &mut want);
        Box::new(Failure {
            check: self.check,
            input: hex(input, " "),
            got_from: self.imp.name,
            got: render_events(got.as_slice(), got.overflowed()),
            want_from: "spec-literal (the check's memoised step disagrees with the full decode)",
            want: render_events(want.as_slice(), want.overflowed()),
        })
    }
}

impl InputCheck for InfDecode<'_> {
    type Node = Memo;
    type Tally = DecodeTally;

    fn name(&self) -> &'static str {
        self.name
    }

    fn root(&self) -> Memo {
        Memo::UNSET
    }

    #[inline]
    fn extend(&self, parent: &Memo, node: &[u8]) -> Memo {
        advance(parent, node, self.limit)
    }

    #[inline]
    fn check(&self, node: &Memo, input: &[u8], t: &mut DecodeTally) -> Result<(), Box<Failure>> {
        let (decode, limit) = (self.imp.utf_inf8_decode, self.limit);
        let d = |x: &[u8], out: &mut EvBuf| decode(x, limit, out);
        if !agrees(d, &self.suffixes, node, input, &mut t.a, &mut t.b) {
            return Err(self.counterexample(input));
        }
        t.count(input.len());
        Ok(())
    }

    fn counts(&self, t: &DecodeTally, counts: &mut Counters) {
        t.counts(self.name, counts);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use conformance_literal::utf_inf8::DEFAULT_LIMIT;

    /// The memoised step is the first event of the full literal decode, on every input
    /// of 1 or 2 bytes and on 3-byte ones from every lead (both limits).
    #[test]
    fn advance_is_the_first_literal_event() {
        let mut inputs: Vec<Vec<u8>> = (0..=255u8).map(|b| vec![b]).collect();
        for a in 0..=255u8 {
            for b in 0..=255u8 {
                inputs.push(vec![a, b]);
                inputs.push(vec![a, b, 0x80 | (a ^ b) & 0x3F]);
                inputs.push(vec![a, b, a.wrapping_add(b)]);
            }
        }
        for limit in [DEFAULT_LIMIT as u32, SMALL_LIMIT] {
            for x in &inputs {
                let memo = (1..=x.len()).fold(Memo::UNSET, |m, n| advance(&m, &x[..n], limit));
                let (off, len, e) = decode_located(x, limit as usize).remove(0);
                let mut want = EvBuf::default();
                fill_literal_inf(vec![(off, len, e)], &mut want);
                let got = super::super::codec_fns::Ev::from_step(0, memo.len, memo.value);
                assert_eq!(want.as_slice(), [got], "{x:02X?} limit {limit}");
            }
        }
    }
}
