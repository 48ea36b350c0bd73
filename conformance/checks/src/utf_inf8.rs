//! UTF-∞-8 targets: round trip of big code points, the reference against the
//! spec-literal decoder, and streaming.

use super::fail::{display_len, ensure, ensure_eq, Ctx};
use super::input::ChunkedInput;
use conformance_literal::utf_inf8 as literal;
use corrected_utf8::{utf_inf8, BigCodePoint, Decoder, ErrorKind, Event, Located};

/// Code points from raw bytes: records of a digit count `n` (1 to 256 hex digits: the
/// byte + 1) followed by `ceil(n / 2)` bytes of digits, two per byte; a record cut short
/// by the end takes zeros. Leading zero digits make shorter values, so every length
/// class is reachable. Each comes with its digits as text (uppercase hex, no leading
/// zeros), for the spec-literal code.
fn code_points(bytes: &[u8]) -> Vec<(BigCodePoint, String)> {
    let mut out = Vec::new();
    let mut nibbles = Vec::with_capacity(256);
    let mut rest = bytes;
    while let Some((&n, tail)) = rest.split_first() {
        let digits = usize::from(n) + 1;
        let take = digits.div_ceil(2).min(tail.len());
        let (packed, tail) = tail.split_at(take);
        nibbles.clear();
        nibbles.extend((0..digits).map(|i| {
            packed
                .get(i / 2)
                .map_or(0, |b| (b >> (4 - 4 * (i % 2))) & 0xF)
        }));
        let cp = BigCodePoint::from_digits(&nibbles).expect("nibbles are below 16");
        let hex = hex_of(&cp);
        out.push((cp, hex));
        rest = tail;
    }
    out
}

/// The digits of `cp` as the spec-literal code writes them: uppercase hex without
/// leading zeros, `0` for zero.
fn hex_of(cp: &BigCodePoint) -> String {
    if cp.digits().is_empty() {
        return "0".into();
    }
    cp.digits()
        .iter()
        .map(|&d| HEX[usize::from(d)] as char)
        .collect()
}

const HEX: &[u8; 16] = b"0123456789ABCDEF";

/// Whether the reference's code point and the spec-literal one are the same number,
/// digit by digit (no conversion on either side).
fn same_code_point(ours: &BigCodePoint, theirs: &literal::CodePoint) -> bool {
    let (digits, hex) = (ours.digits(), theirs.hex().as_bytes());
    if digits.is_empty() {
        return hex == b"0";
    }
    digits.len() == hex.len()
        && digits
            .iter()
            .zip(hex)
            .all(|(&d, &h)| HEX[usize::from(d)] == h)
}

fn is_surrogate(cp: &BigCodePoint) -> bool {
    cp.to_u32().is_some_and(|v| (0xD800..=0xDFFF).contains(&v))
}

/// `utf_inf8_roundtrip`: every code point (layout: `code_points` above) but a surrogate
/// encodes; the reference's bytes are the spec-literal encoder's; the byte order of two
/// encodings is their code points' order; the whole sequence encodes to the
/// concatenation and decodes back to the code points in one go (so each encoding
/// decodes back to its code point, which a failure reports); and the first code point's
/// text and conversions are [`BigCodePoint`]'s (`big_code_point_api`).
pub fn utf_inf8_roundtrip(bytes: &[u8]) {
    let ctx = Ctx::new("utf_inf8_roundtrip", bytes);
    let cps = code_points(bytes);
    // Every encodable code point's bytes, back to back; `ends[i]` is where code point
    // i's end (a surrogate's start and end coincide).
    let mut all = Vec::new();
    let mut ends = Vec::with_capacity(cps.len());
    for (cp, hex) in &cps {
        let start = all.len();
        let ours = utf_inf8::encode_into(cp, &mut all);
        let theirs = literal::encode(&literal::CodePoint::from_hex(hex).expect("hex digits"));
        match (&ours, &theirs) {
            (Ok(()), Ok(b)) => {
                let a = &all[start..];
                ensure_eq!(
                    ctx,
                    &b[..],
                    a,
                    "encoding of {cp}: spec-literal (expected) vs reference"
                );
            }
            (Err(e), Err(k)) => {
                ensure_eq!(
                    ctx,
                    k.as_str(),
                    e.kind.as_str(),
                    "encode error kind of {cp}"
                );
                // (What a failed `encode_into` leaves in `out` is not promised.)
                all.truncate(start);
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
        if ends.is_empty() {
            // Text and conversions: on the first code point only (they cost more than
            // the rest of the checks together, and no more are needed to vary them).
            big_code_point_api(&ctx, cp, hex);
        }
        ends.push(all.len());
    }
    let encoding = |i: usize| &all[if i == 0 { 0 } else { ends[i - 1] }..ends[i]];
    for (i, pair) in cps.windows(2).enumerate() {
        let (a, b) = (encoding(i), encoding(i + 1));
        ensure_eq!(
            ctx,
            Some(pair[0].0.cmp(&pair[1].0)),
            pair[0].0.partial_cmp(&pair[1].0),
            "partial_cmp of {} and {}",
            pair[0].0,
            pair[1].0
        );
        if !a.is_empty() && !b.is_empty() {
            ensure_eq!(
                ctx,
                pair[0].0.cmp(&pair[1].0),
                a.cmp(b),
                "byte order of {} and {}",
                pair[0].0,
                pair[1].0
            );
        }
    }
    let encodable = || cps.iter().map(|(cp, _)| cp).filter(|cp| !is_surrogate(cp));
    ensure_eq!(
        ctx,
        Ok(&all[..]),
        utf_inf8::encode(encodable()).as_deref(),
        "encode(all non-surrogates) = their encodings back to back"
    );
    let back = utf_inf8::decode(&all);
    let same = back
        .as_ref()
        .is_ok_and(|back| back.len() == encodable().count() && back.iter().eq(encodable()));
    if !same {
        // Which one: the first whose encoding alone does not decode back to it.
        for (i, (cp, _)) in cps.iter().enumerate() {
            let one = encoding(i);
            if !one.is_empty() {
                ensure_eq!(
                    ctx,
                    Ok(std::slice::from_ref(cp)),
                    utf_inf8::decode(one).as_deref(),
                    "decode(encode({cp}))"
                );
            }
        }
        ctx.fail(
            |w| w(format_args!("decode(encode(all)) = all")),
            &encodable().collect::<Vec<_>>(),
            &back,
        );
    }
}

/// [`BigCodePoint`]'s text and conversions on `cp`, whose digits are `hex`: it displays
/// (and debugs) as `U+` and at least 4 digits, parses back from that, from its bare
/// digits and from `u+` and lowercase; a stray character is a parse error that
/// displays; `hex_digits()` counts its digits and `from_digits()` takes them back (but
/// not a digit of 16); and a value that fits 64 bits comes back through `From<u64>`.
fn big_code_point_api(ctx: &Ctx<'_>, cp: &BigCodePoint, hex: &str) {
    let shown = cp.to_string();
    let padded = format!("U+{hex:0>4}");
    ensure_eq!(ctx, padded, shown, "Display of {hex}");
    ensure_eq!(
        ctx,
        shown,
        format!("{cp:?}"),
        "Debug of {hex} is its Display"
    );
    for text in [&shown[..], hex, &format!("u+{}", hex.to_ascii_lowercase())] {
        ensure_eq!(
            ctx,
            Ok(cp),
            text.parse::<BigCodePoint>().as_ref(),
            "parse {text:?}"
        );
    }
    let bad = format!("U+{hex}g");
    match bad.parse::<BigCodePoint>() {
        Ok(v) => ctx.fail(|w| w(format_args!("{bad:?} parses")), &"an error", &v),
        Err(e) => ensure!(ctx, display_len(&e) > 0, e, "a parse error displays"),
    }
    ensure_eq!(
        ctx,
        cp.digits().len(),
        cp.hex_digits(),
        "hex_digits() of {cp}"
    );
    let mut digits = cp.digits().to_vec();
    ensure_eq!(
        ctx,
        Some(cp),
        BigCodePoint::from_digits(&digits).as_ref(),
        "from_digits(digits()) of {cp}"
    );
    digits.push(16);
    ensure_eq!(
        ctx,
        None,
        BigCodePoint::from_digits(&digits),
        "from_digits with a digit of 16"
    );
    if let Some(v) = cp.to_u128().and_then(|v| u64::try_from(v).ok()) {
        ensure_eq!(
            ctx,
            cp,
            &BigCodePoint::from(v),
            "BigCodePoint::from({v}u64)"
        );
    }
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

fn located(data: &[u8], limit: u32) -> Vec<Located<BigCodePoint>> {
    utf_inf8::events_with_limit(data, limit).located().collect()
}

/// `Events::offset()` before each event and once the events are done.
fn offsets(data: &[u8], limit: u32) -> Vec<u64> {
    let mut events = utf_inf8::events_with_limit(data, limit);
    let mut offsets = vec![events.offset()];
    while events.next().is_some() {
        offsets.push(events.offset());
    }
    offsets
}

/// Whether one reference event is the spec-literal one: same offset, length, and code
/// point (digit by digit) or error kind.
fn same_event(ours: &Located<BigCodePoint>, theirs: &(usize, usize, literal::Event)) -> bool {
    let (offset, length, event) = theirs;
    ours.offset == *offset as u64
        && ours.length == *length as u64
        && match (&ours.event, event) {
            (Event::CodePoint(a), literal::Event::CodePoint(b)) => same_code_point(a, b),
            (Event::Error(a), literal::Event::Error { kind, .. }) => {
                a.kind.as_str() == kind.as_str()
            }
            // UTF-∞-8 has no reserved spans: one that appears differs from the literal.
            _ => false,
        }
}

/// An event list as `(offset, length, "U+…" or kind)`, for a failure message.
fn listed_ours(events: &[Located<BigCodePoint>]) -> Vec<(u64, u64, String)> {
    events
        .iter()
        .map(|l| {
            let what = match &l.event {
                Event::CodePoint(cp) => cp.to_string(),
                Event::Error(e) => e.kind.as_str().to_string(),
                Event::Reserved(r) => r.to_string(),
            };
            (l.offset, l.length, what)
        })
        .collect()
}

fn listed_theirs(events: &[(usize, usize, literal::Event)]) -> Vec<(u64, u64, String)> {
    events
        .iter()
        .map(|(offset, length, e)| {
            let what = match e {
                literal::Event::CodePoint(cp) => cp.to_string(),
                literal::Event::Error { kind, .. } => kind.as_str().to_string(),
            };
            (*offset as u64, *length as u64, what)
        })
        .collect()
}

/// `utf_inf8_differential_literal`: on the data (layout: `limit_and_data` above), the
/// reference's event list equals the spec-literal decoder's, `Events::offset()` is each
/// event's offset before it comes (and the input's length after the last), and lossy,
/// strict and validate agree with it.
///
/// The reference's events are decoded once and compared with the literal's digit by
/// digit; the lists are only written out as text for a failure message.
pub fn utf_inf8_differential_literal(bytes: &[u8]) {
    let ctx = Ctx::new("utf_inf8_differential_literal", bytes);
    let (limit, data) = limit_and_data(bytes);
    let got = located(data, limit);
    let expected = literal::decode_located(data, limit as usize);
    if got.len() != expected.len() || !got.iter().zip(&expected).all(|(o, t)| same_event(o, t)) {
        ctx.fail(
            |w| {
                w(format_args!(
                    "events with limit {limit}: spec-literal (expected) vs reference"
                ))
            },
            &listed_theirs(&expected),
            &listed_ours(&got),
        );
    }
    // Each event's offset, then the input's length.
    let want: Vec<u64> = got
        .iter()
        .map(|l| l.offset)
        .chain([data.len() as u64])
        .collect();
    ensure_eq!(
        ctx,
        want,
        offsets(data, limit),
        "Events::offset() before each event and at the end"
    );
    if limit == utf_inf8::DEFAULT_MAX_CODE_LEN {
        let first_error = got.iter().find_map(|l| l.event.error().copied());
        ensure_eq!(
            ctx,
            first_error.map_or(Ok(()), Err),
            utf_inf8::validate(data),
            "validate"
        );
        let code_points = || {
            got.iter().filter_map(|l| match &l.event {
                Event::CodePoint(cp) => Some(cp),
                _ => None,
            })
        };
        match utf_inf8::decode(data) {
            Ok(cps) => ensure!(
                ctx,
                first_error.is_none() && cps.iter().eq(code_points()),
                (first_error, cps),
                "strict: the code points, as no span stops it"
            ),
            Err(e) => ensure_eq!(ctx, first_error, Some(e), "strict: the first error"),
        }
        let fffd = BigCodePoint::from(0xFFFDu32);
        let lossy = utf_inf8::decode_lossy(data);
        let from_events = got.iter().map(|l| match &l.event {
            Event::CodePoint(cp) => cp,
            _ => &fffd,
        });
        ensure!(
            ctx,
            lossy.len() == got.len() && lossy.iter().eq(from_events),
            (listed_ours(&got), lossy),
            "lossy: the events with U+FFFD for each span"
        );
    }
}

/// `utf_inf8_streaming`: the data (layout: a limit byte as in
/// `utf_inf8_differential_literal`, then [`ChunkedInput`]) pushed in its chunks gives the
/// one-shot events; after every chunk `offset()` is the bytes pushed and the decoder
/// holds no more of a code than the limit or than it has received; after `finish()`
/// nothing is pending and a second `finish()` reports nothing.
///
/// The decoder is driven through the [`Decoder`] handle, which forwards to
/// `utf_inf8::StreamDecoder`; each streamed event is compared as it comes.
pub fn utf_inf8_streaming(bytes: &[u8]) {
    let ctx = Ctx::new("utf_inf8_streaming", bytes);
    let (limit, rest) = limit_and_data(bytes);
    let input = ChunkedInput::from_bytes(rest);
    let expected = located(input.data, limit);
    let mut decoder = Decoder::UtfInf8(if limit == utf_inf8::DEFAULT_MAX_CODE_LEN {
        utf_inf8::StreamDecoder::default()
    } else {
        utf_inf8::StreamDecoder::with_limit(limit)
    });
    // How many of `expected` have been streamed.
    let mut matched = 0usize;
    let streamed = |matched: &mut usize, got: Located<BigCodePoint>| {
        ensure_eq!(
            ctx,
            expected.get(*matched),
            Some(&got),
            "streamed event {matched} with limit {limit} (expected: one-shot)"
        );
        *matched += 1;
    };
    let mut pushed = 0u64;
    for chunk in input.chunks() {
        decoder.push(chunk, |got| streamed(&mut matched, got));
        pushed += chunk.len() as u64;
        ensure_eq!(
            ctx,
            pushed,
            decoder.offset(),
            "offset() after {pushed} bytes"
        );
        let pending = decoder.pending_len();
        ensure!(
            ctx,
            pending <= u64::from(limit),
            pending,
            "pending bytes within the limit {limit}"
        );
        let reported = expected[..matched]
            .last()
            .map_or(0, |l| l.offset + l.length);
        // Unreported bytes are the pending code, or a code over the limit being skipped
        // (nothing held): then the next one-shot event is a limit-exceeded span there.
        let skipping = pending == 0
            && expected.get(matched).is_some_and(|l| {
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
    decoder.finish(|got| streamed(&mut matched, got));
    ensure_eq!(
        ctx,
        expected.len(),
        matched,
        "streamed events with limit {limit}: all of the one-shot ones"
    );
    ensure_eq!(
        ctx,
        0,
        decoder.pending_len(),
        "pending_len() after finish()"
    );
    decoder.finish(|got| {
        ctx.fail(
            |w| w(format_args!("a second finish() reports nothing")),
            &"nothing",
            &got,
        )
    });
}
