//! Check (2) for Corrected UTF-8: every input's events equal the spec-literal decoder's
//! ([`literal::corrected::decode_located`]), by the walk of [`super::walk`].

use super::codec_fns::CodecFns;
use super::failure::{Counters, Failure};
use super::walk::{agrees, counterexample, DecodeTally, InputCheck, Memo, SuffixTable};
use conformance_literal as literal;

/// Corrected UTF-8: the implementation's events against the spec-literal decoder's.
pub struct CorrectedDecode<'a> {
    imp: &'a CodecFns,
    suffixes: SuffixTable,
}

impl<'a> CorrectedDecode<'a> {
    /// The check of `imp` over inputs of up to `max_len` bytes (builds its suffix table).
    pub fn new(imp: &'a CodecFns, max_len: usize) -> Self {
        CorrectedDecode {
            imp,
            suffixes: SuffixTable::build(imp.corrected_decode, max_len),
        }
    }
}

impl InputCheck for CorrectedDecode<'_> {
    type Node = Memo;
    type Tally = DecodeTally;

    fn name(&self) -> &'static str {
        "corrected-utf8"
    }

    fn root(&self) -> Memo {
        Memo::UNSET
    }

    #[inline]
    fn extend(&self, parent: &Memo, node: &[u8]) -> Memo {
        parent.extend(node, literal::corrected::step)
    }

    #[inline]
    fn check(&self, node: &Memo, input: &[u8], t: &mut DecodeTally) -> Result<(), Box<Failure>> {
        let decode = self.imp.corrected_decode;
        if !agrees(decode, &self.suffixes, node, input, &mut t.a, &mut t.b) {
            return Err(counterexample(
                "corrected-utf8 decode",
                self.imp,
                decode,
                literal::corrected::decode_located,
                input,
            ));
        }
        t.count(input.len());
        Ok(())
    }

    fn counts(&self, t: &DecodeTally, counts: &mut Counters) {
        t.counts("corrected-utf8", counts);
    }
}
