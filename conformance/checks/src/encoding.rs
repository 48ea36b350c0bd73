//! `encoding`: the run-time handles ([`Encoding`],
//! [`Decoder`](corrected_utf8::Decoder)) agree with each encoding's own module, and the
//! shared event types display.

use super::fail::{display_len, ensure, ensure_eq, Ctx};
use super::input::ChunkedInput;
use corrected_utf8::{
    corrected, utf8, utf_inf8, BigCodePoint, DecodeError, Encoding, Event, Located, Validity,
    MAX_PENDING,
};

/// Checks the handles of one encoding on `bytes`. Layout: one byte picking the encoding
/// (its value mod 3: Corrected UTF-8, UTF-8, UTF-∞-8), then a [`ChunkedInput`].
///
/// * `name()`, `from_name()` and `Display` agree;
/// * `events_located` is the module's event list (code points widened to
///   [`BigCodePoint`]), and `validate`, `validity`, `decode` (strict) and
///   `decode_lossy` are what that list says: the first error or reserved span, the worst
///   outcome, the code points or the first span, the code points with U+FFFD for every
///   span; each also equals the module's own function;
/// * a [`Decoder`](corrected_utf8::Decoder) from `new_decoder()`, started at an offset
///   and fed the input's chunks, reports the same events there, with `offset()`,
///   `pending_len()` and `encoding()` right after every chunk, and nothing pending after
///   `finish()`;
/// * every event of the two `u32` encodings displays the same as its widened form's
///   parts, and a [`Validity`] displays as its `as_str()`.
pub fn encoding(bytes: &[u8]) {
    let ctx = Ctx::new("encoding", bytes);
    let (encoding, rest) = match bytes.split_first() {
        Some((&b, rest)) => (Encoding::ALL[usize::from(b % 3)], rest),
        None => (Encoding::CorrectedUtf8, bytes),
    };
    let input = ChunkedInput::from_bytes(rest);
    let data = input.data;
    let name = encoding.name();

    ensure_eq!(
        ctx,
        Some(encoding),
        Encoding::from_name(name),
        "Encoding::from_name({name})"
    );
    ensure_eq!(ctx, name, encoding.to_string(), "Display of {name}");

    // The module's own events, widened: what every handle operation must agree with.
    let events: Vec<Located<BigCodePoint>> = match encoding {
        Encoding::CorrectedUtf8 => widened(&ctx, corrected::events(data).located()),
        Encoding::Utf8 => widened(&ctx, utf8::events(data).located()),
        _ => {
            let mut events = utf_inf8::events(data);
            std::iter::from_fn(|| events.next_located()).collect()
        }
    };
    ensure_eq!(
        ctx,
        events,
        encoding.events_located(data),
        "{name}: events_located vs the module's events"
    );

    let stop = events.iter().find_map(|l| l.event.stop());
    let validity = Validity::of(events.iter().map(|l| l.event.clone()));
    let (module_validate, module_validity) = match encoding {
        Encoding::CorrectedUtf8 => (corrected::validate(data), corrected::validity(data)),
        Encoding::Utf8 => (utf8::validate(data), Validity::of(utf8::events(data))),
        _ => (
            utf_inf8::validate(data),
            Validity::of(utf_inf8::events(data)),
        ),
    };
    ensure_eq!(
        ctx,
        stop.map_or(Ok(()), Err),
        encoding.validate(data),
        "{name}: validate"
    );
    ensure_eq!(
        ctx,
        module_validate,
        encoding.validate(data),
        "{name}: validate vs the module's"
    );
    ensure_eq!(ctx, validity, encoding.validity(data), "{name}: validity");
    ensure_eq!(
        ctx,
        module_validity,
        validity,
        "{name}: the module's validity"
    );
    ensure!(
        ctx,
        validity.to_string() == validity.as_str()
            && ["valid", "reserved", "invalid"].contains(&validity.as_str()),
        validity,
        "{name}: a validity displays as its as_str()"
    );

    let code_points = || {
        events.iter().filter_map(|l| match &l.event {
            Event::CodePoint(cp) => Some(cp),
            _ => None,
        })
    };
    let strict: Result<Vec<BigCodePoint>, DecodeError> = match stop {
        Some(e) => Err(e),
        None => Ok(code_points().cloned().collect()),
    };
    ensure_eq!(ctx, strict, encoding.decode(data), "{name}: strict decode");
    let fffd = BigCodePoint::from(0xFFFDu32);
    let lossy = encoding.decode_lossy(data);
    let want = events.iter().map(|l| match &l.event {
        Event::CodePoint(cp) => cp,
        _ => &fffd,
    });
    ensure!(
        ctx,
        lossy.len() == events.len() && lossy.iter().eq(want),
        lossy,
        "{name}: lossy decode = the events with U+FFFD for every span"
    );

    // The streaming handle, from an offset past 2³².
    let base = (1 << 32) + 5;
    let mut decoder = encoding.new_decoder().starting_at(base);
    ensure_eq!(ctx, encoding, decoder.encoding(), "Decoder::encoding()");
    let bound = match encoding {
        Encoding::UtfInf8 => utf_inf8::DEFAULT_MAX_CODE_LEN as usize,
        _ => MAX_PENDING,
    };
    let mut matched = 0;
    let streamed = |matched: &mut usize, got: Located<BigCodePoint>| {
        let want = events.get(*matched).map(|l| shifted(l, base));
        ensure_eq!(
            ctx,
            want,
            Some(got),
            "{name}: Decoder event {matched} (stream from {base})"
        );
        *matched += 1;
    };
    let mut pushed = 0;
    for chunk in input.chunks() {
        decoder.push(chunk, |got| streamed(&mut matched, got));
        pushed += chunk.len() as u64;
        ensure_eq!(
            ctx,
            base + pushed,
            decoder.offset(),
            "{name}: Decoder::offset()"
        );
        let pending = decoder.pending_len();
        ensure!(
            ctx,
            pending <= bound,
            pending,
            "{name}: Decoder::pending_len() ≤ {bound}"
        );
    }
    decoder.finish(|got| streamed(&mut matched, got));
    ensure_eq!(
        ctx,
        events.len(),
        matched,
        "{name}: Decoder events after finish()"
    );
    ensure_eq!(
        ctx,
        0,
        decoder.pending_len(),
        "{name}: Decoder::pending_len() after finish()"
    );

    if encoding != Encoding::UtfInf8 {
        displays(&ctx, encoding, data);
    }
}

/// `u32` events as [`BigCodePoint`] ones, checking that each code point comes back.
fn widened(ctx: &Ctx, events: impl Iterator<Item = Located>) -> Vec<Located<BigCodePoint>> {
    events
        .map(|l| {
            let big = l.map(BigCodePoint::from);
            if let (Event::CodePoint(cp), Event::CodePoint(b)) = (&l.event, &big.event) {
                ensure_eq!(
                    ctx,
                    Some(*cp),
                    b.to_u32(),
                    "BigCodePoint::from(u32).to_u32()"
                );
            }
            big
        })
        .collect()
}

/// `located` with its offsets moved `by` bytes later.
fn shifted(located: &Located<BigCodePoint>, by: u64) -> Located<BigCodePoint> {
    let mut located = located.clone();
    located.offset += by;
    match &mut located.event {
        Event::Error(e) => e.offset += by,
        Event::Reserved(r) => r.offset += by,
        Event::CodePoint(_) => {}
    }
    located
}

/// Every event of a `u32` encoding displays as `U+` and at least 4 hex digits (a code
/// point, as its widened form does), or as its span's own text; the iterator's `Debug`
/// names where it is.
fn displays(ctx: &Ctx, encoding: Encoding, data: &[u8]) {
    let mut events = match encoding {
        Encoding::CorrectedUtf8 => corrected::events(data),
        _ => utf8::events(data),
    };
    ensure!(
        ctx,
        format!("{events:?}").contains(&format!("remaining: {}", data.len())),
        format!("{events:?}"),
        "Events' Debug shows what remains"
    );
    while let Some(located) = events.next_located() {
        let shown = located.event.to_string();
        let want = match located.event {
            Event::CodePoint(cp) => BigCodePoint::from(cp).to_string(),
            Event::Error(e) => e.to_string(),
            Event::Reserved(r) => r.to_string(),
        };
        ensure_eq!(ctx, want, shown, "Display of {:?}", located.event);
        ensure!(
            ctx,
            display_len(&located.event) == shown.len(),
            shown,
            "display_len"
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn accepts_every_encoding() {
        let data = b"a\xC0\xAF\xFE\xFE\x80A\xFC\x80\x80\x80\x80\x80\xE2\x82\xAC\xFF\xA0\xF0\x90";
        for e in 0..3u8 {
            for sizes in [&[][..], &[1, 0, 2, 1, 3, 5]] {
                let mut input = vec![e];
                input.extend(ChunkedInput::to_bytes(sizes, data));
                encoding(&input);
            }
            encoding(&[e]);
        }
        encoding(&[]);
    }
}
