//! UTF-∞-8 targets: round trip of big code points, the reference against the
//! spec-literal decoder, and streaming.

use super::fail::{ensure, ensure_eq, Ctx};
use super::input::ChunkedInput;
use conformance_literal::utf_inf8 as literal;
use corrected_utf8::{utf_inf8, BigCodePoint, ErrorKind, Event, Located};

/// Code points from raw bytes: records of a digit count `n` (1 to 256 hex digits: the
/// byte + 1) followed by `ceil(n / 2)` bytes of digits, two per byte; a record cut short
/// by the end takes zeros. Leading zero digits make shorter values, so every length
/// class is reachable.
fn code_points(bytes: &[u8]) -> Vec<BigCodePoint> {
    let mut out = Vec::new();
    let mut rest = bytes;
    while let Some((&n, tail)) = rest.split_first() {
        let digits = usize::from(n) + 1;
        let take = digits.div_ceil(2).min(tail.len());
        let (packed, tail) = tail.split_at(take);
        let nibbles: Vec<u8> = (0..digits)
            .map(|i| {
                packed
                    .get(i / 2)
                    .map_or(0, |b| (b >> (4 - 4 * (i % 2))) & 0xF)
            })
            .collect();
        out.push(BigCodePoint::from_digits(&nibbles).expect("nibbles are below 16"));
        rest = tail;
    }
    out
}

fn is_surrogate(cp: &BigCodePoint) -> bool {
    cp.to_u32().is_some_and(|v| (0xD800..=0xDFFF).contains(&v))
}

/// `utf_inf8_roundtrip`: every code point (layout: `code_points` above) but a surrogate
/// encodes; the reference's bytes are the spec-literal encoder's; they decode back to the
/// code point; the byte order of two encodings is their code points' order; and the
/// whole sequence encodes and decodes in one go.
pub fn utf_inf8_roundtrip(bytes: &[u8]) {
    let ctx = Ctx::new("utf_inf8_roundtrip", bytes);
    let cps = code_points(bytes);
    let mut encoded: Vec<Option<Vec<u8>>> = Vec::with_capacity(cps.len());
    for cp in &cps {
        let ours = utf_inf8::encode([cp]);
        let theirs = literal::encode(&cp.to_string().parse().expect("U+ and hex digits"));
        match (&ours, &theirs) {
            (Ok(a), Ok(b)) => {
                ensure_eq!(
                    ctx,
                    b,
                    a,
                    "encoding of {cp}: spec-literal (expected) vs reference"
                );
                let back = utf_inf8::decode(a);
                ensure_eq!(ctx, Ok(vec![cp.clone()]), back, "decode(encode({cp}))");
            }
            (Err(e), Err(k)) => {
                ensure_eq!(
                    ctx,
                    k.as_str(),
                    e.kind.as_str(),
                    "encode error kind of {cp}"
                );
                ensure!(ctx, is_surrogate(cp), cp, "only surrogates fail to encode");
            }
            _ => ctx.fail(
                |w| w(format_args!("encode {cp}: one encoder failed")),
                &theirs.map_err(|k| k.as_str()),
                &ours.map_err(|e| e.kind.as_str()),
            ),
        }
        ensure_eq!(
            ctx,
            is_surrogate(cp),
            ours.is_err(),
            "encodable exactly when not a surrogate: {cp}"
        );
        encoded.push(ours.ok());
    }
    for (pair, bytes) in cps.windows(2).zip(encoded.windows(2)) {
        if let [Some(a), Some(b)] = bytes {
            ensure_eq!(
                ctx,
                pair[0].cmp(&pair[1]),
                a.cmp(b),
                "byte order of {} and {}",
                pair[0],
                pair[1]
            );
        }
    }
    let encodable: Vec<BigCodePoint> = cps.iter().filter(|c| !is_surrogate(c)).cloned().collect();
    let all = utf_inf8::encode(&encodable).expect("no surrogates left");
    ensure_eq!(
        ctx,
        Ok(encodable),
        utf_inf8::decode(&all),
        "decode(encode(all))"
    );
}

/// The limit a differential or streaming input asks for: its first byte below 64 picks a
/// small limit (1 to 64 bytes, to reach `limit-exceeded` often), otherwise the default.
fn limit_and_data(bytes: &[u8]) -> (u32, &[u8]) {
    match bytes.split_first() {
        Some((&b, rest)) if b < 64 => (u32::from(b) + 1, rest),
        Some((_, rest)) => (utf_inf8::DEFAULT_MAX_CODE_LEN, rest),
        None => (utf_inf8::DEFAULT_MAX_CODE_LEN, bytes),
    }
}

/// One event as `(offset, length, "U+…" or kind)`, comparable across implementations.
fn ours(l: &Located<BigCodePoint>) -> (usize, usize, String) {
    let what = match &l.event {
        Event::CodePoint(cp) => cp.to_string(),
        Event::Error(e) => e.kind.as_str().to_string(),
        // UTF-∞-8 has no reserved spans: make any that appears differ from the literal.
        Event::Reserved(r) => r.to_string(),
    };
    (l.offset as usize, l.length as usize, what)
}

fn located(data: &[u8], limit: u32) -> Vec<Located<BigCodePoint>> {
    let mut events = utf_inf8::events_with_limit(data, limit);
    std::iter::from_fn(|| events.next_located()).collect()
}

/// `utf_inf8_differential_literal`: on the data (layout: `limit_and_data` above), the
/// reference's event list equals the spec-literal decoder's, and lossy, strict and
/// validate agree with it.
pub fn utf_inf8_differential_literal(bytes: &[u8]) {
    let ctx = Ctx::new("utf_inf8_differential_literal", bytes);
    let (limit, data) = limit_and_data(bytes);
    let got: Vec<_> = located(data, limit).iter().map(ours).collect();
    let expected: Vec<_> = literal::decode_located(data, limit as usize)
        .into_iter()
        .map(|(offset, length, e)| {
            let what = match e {
                literal::Event::CodePoint(cp) => cp.to_string(),
                literal::Event::Error { kind, .. } => kind.as_str().to_string(),
            };
            (offset, length, what)
        })
        .collect();
    ensure_eq!(
        ctx,
        expected,
        got,
        "events with limit {limit}: spec-literal (expected) vs reference"
    );
    if limit == utf_inf8::DEFAULT_MAX_CODE_LEN {
        let first_error = located(data, limit)
            .into_iter()
            .find_map(|l| l.event.error().copied());
        ensure_eq!(
            ctx,
            first_error.map_or(Ok(()), Err),
            utf_inf8::validate(data),
            "validate"
        );
        ensure_eq!(
            ctx,
            first_error.is_some(),
            utf_inf8::decode(data).is_err(),
            "strict"
        );
        let lossy: Vec<String> = utf_inf8::decode_lossy(data)
            .iter()
            .map(|c| c.to_string())
            .collect();
        let from_events: Vec<String> = got
            .iter()
            .map(|(_, _, w)| {
                if w.starts_with("U+") {
                    w.clone()
                } else {
                    "U+FFFD".into()
                }
            })
            .collect();
        ensure_eq!(ctx, from_events, lossy, "lossy");
    }
}

/// `utf_inf8_streaming`: the data (layout: a limit byte as in
/// `utf_inf8_differential_literal`, then [`ChunkedInput`]) pushed in its chunks gives the
/// one-shot events, and the decoder never holds more of a code than the limit or than
/// it has received.
pub fn utf_inf8_streaming(bytes: &[u8]) {
    let ctx = Ctx::new("utf_inf8_streaming", bytes);
    let (limit, rest) = limit_and_data(bytes);
    let input = ChunkedInput::from_bytes(rest);
    let expected = located(input.data, limit);
    let mut decoder = utf_inf8::StreamDecoder::with_limit(limit);
    let mut got = Vec::new();
    let mut pushed = 0u64;
    for chunk in input.chunks() {
        decoder.push(chunk, |e| got.push(e));
        pushed += chunk.len() as u64;
        let pending = decoder.pending_len();
        ensure!(
            ctx,
            pending <= u64::from(limit),
            pending,
            "pending bytes within the limit {limit}"
        );
        let reported = got.last().map_or(0, |l| l.offset + l.length);
        // Unreported bytes are the pending code, or a code over the limit being skipped
        // (nothing held): then the one-shot events have a limit-exceeded span there.
        let skipping = pending == 0
            && expected.iter().any(|l| {
                l.offset == reported
                    && l.event.error().map(|e| e.kind) == Some(ErrorKind::LimitExceeded)
            });
        ensure!(
            ctx,
            pushed - reported == pending || skipping,
            (pushed - reported, pending),
            "everything before the pending code (or a skipped limit-exceeded span) is reported"
        );
    }
    decoder.finish(|e| got.push(e));
    ensure_eq!(
        ctx,
        expected,
        got,
        "streamed events with limit {limit} (expected: one-shot)"
    );
}
