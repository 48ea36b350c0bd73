//! The exhaustive walk: every input of 1..=max_len bytes against the spec-literal
//! decoders.

use crate::check::{self, hex};
use crate::report::{Report, Site};
use crate::{oracle, Encoding, Event, Implementation};

/// Walks every input of `1..=max_len` bytes.
pub(crate) fn check<I: Implementation + ?Sized>(imp: &I, max_len: usize) -> Report {
    let mut report = Report::new(
        format!("exhaustive 1..={max_len} bytes"),
        crate::describe(imp),
    );
    let mut input = Vec::with_capacity(max_len);
    for len in 1..=max_len {
        input.clear();
        input.resize(len, 0);
        loop {
            one(imp, &input, &mut report);
            // The next input of this length, as a base-256 counter (last byte fastest).
            let Some(i) = input.iter().rposition(|&b| b != 0xFF) else {
                break;
            };
            input[i] += 1;
            input[i + 1..].fill(0);
        }
    }
    report.finish()
}

fn one<I: Implementation + ?Sized>(imp: &I, input: &[u8], report: &mut Report) {
    let encoding = imp.encoding();
    report.cases += 1;
    let expected = oracle::events(encoding, input, imp.code_length_limit());
    let shown = hex(input);
    let name = || "input".to_owned();
    let site = Site {
        case: &name,
        input: &shown,
    };
    check::decode_ops(imp, input, &expected, &site, report);
    // Every code point whose encoding is at most max_len bytes comes by exactly once, as
    // the input that is that encoding alone.
    if let [Event::CodePoint(cp)] = expected.as_slice() {
        let name = || format!("encode of the code point of [{shown}]");
        check::encode(imp, cp, Ok(input.to_vec()), &name, report);
    }
    if encoding == Encoding::CorrectedUtf8 {
        check::document(imp, input, &oracle::document(input), &site, report);
    }
}
