//! `encoding`: the run-time handles ([`Encoding`],
//! [`Decoder`](corrected_utf8::Decoder)) agree with each encoding's own module, and the
//! shared event types display.

use super::fail::{display_len, ensure, ensure_eq, Ctx};
use super::input::ChunkedInput;
use corrected_utf8::{
    corrected, utf8, utf_inf8, BigCodePoint, DecodeError, Encoding, Event, Located, Stop, Validity,
    MAX_PENDING,
};
use std::fmt::Debug;

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
/// * the first event of each class of the two `u32` encodings displays as its parts do,
///   and a [`Validity`] displays as its `as_str()`.
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

    // The module's own events, in its own code point type: what every handle operation
    // must agree with (compared without widening them, which allocates).
    match encoding {
        Encoding::CorrectedUtf8 => {
            let events: Vec<Located> = corrected::events(data).located().collect();
            let module = (corrected::validate(data), corrected::validity(data));
            handles(&ctx, encoding, &input, &events, module);
            displays(&ctx, corrected::events(data), data.len());
        }
        Encoding::Utf8 => {
            let events: Vec<Located> = utf8::events(data).located().collect();
            let module = (
                utf8::validate(data).map_err(Stop::from),
                utf8::validity(data),
            );
            handles(&ctx, encoding, &input, &events, module);
            displays(&ctx, utf8::events(data), data.len());
        }
        _ => {
            let mut events = utf_inf8::events(data);
            let events: Vec<_> = std::iter::from_fn(|| events.next_located()).collect();
            let module = (
                utf_inf8::validate(data).map_err(Stop::from),
                utf_inf8::validity(data),
            );
            handles(&ctx, encoding, &input, &events, module);
        }
    }
}

/// A module's code point type, compared with the handles' [`BigCodePoint`].
trait Same: Debug {
    fn same(&self, big: &BigCodePoint) -> bool;
}

impl Same for u32 {
    fn same(&self, big: &BigCodePoint) -> bool {
        big.to_u32() == Some(*self)
    }
}

impl Same for BigCodePoint {
    fn same(&self, big: &BigCodePoint) -> bool {
        self == big
    }
}

/// Whether `ours`, moved `by` bytes later, is `theirs`.
fn same_located<C: Same>(ours: &Located<C>, theirs: &Located<BigCodePoint>, by: u64) -> bool {
    let shift = |e: DecodeError| DecodeError {
        offset: e.offset + by,
        ..e
    };
    ours.offset + by == theirs.offset
        && ours.length == theirs.length
        && match (&ours.event, &theirs.event) {
            (Event::CodePoint(a), Event::CodePoint(b)) => a.same(b),
            (Event::Error(a), Event::Error(b)) => shift(*a) == *b,
            (Event::Reserved(a), Event::Reserved(b)) => {
                (a.offset + by, a.length) == (b.offset, b.length)
            }
            _ => false,
        }
}

/// The handles of `encoding` on the input, against the module's `events` and its own
/// `validate` and `validity` results.
fn handles<C: Same>(
    ctx: &Ctx,
    encoding: Encoding,
    input: &ChunkedInput,
    events: &[Located<C>],
    (module_validate, module_validity): (Result<(), Stop>, Validity),
) {
    let (name, data) = (encoding.name(), input.data);
    let located: Vec<_> = encoding.events_located(data).collect();
    ensure!(
        ctx,
        located.len() == events.len()
            && events
                .iter()
                .zip(&located)
                .all(|(a, b)| same_located(a, b, 0)),
        (events, located),
        "{name}: events_located vs the module's events (module's first)"
    );

    let stop = events.iter().find_map(|l| l.event.stop());
    // Each event's class alone (no code point copied).
    let classes = events.iter().map(|l| match l.event {
        Event::CodePoint(_) => Event::CodePoint(()),
        Event::Error(e) => Event::Error(e),
        Event::Reserved(r) => Event::Reserved(r),
    });
    let validity = Validity::of(classes);
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
    let strict = encoding.decode(data);
    let ok = match (&strict, stop) {
        (Err(e), Some(stop)) => *e == stop,
        (Ok(cps), None) => {
            cps.len() == code_points().count() && code_points().zip(cps).all(|(a, b)| a.same(b))
        }
        _ => false,
    };
    ensure!(
        ctx,
        ok,
        (stop, strict),
        "{name}: strict decode = the code points or the first span (first span, got)"
    );
    let fffd = BigCodePoint::from(0xFFFDu32);
    let lossy = encoding.decode_lossy(data);
    let ok = lossy.len() == events.len()
        && events.iter().zip(&lossy).all(|(l, got)| match &l.event {
            Event::CodePoint(cp) => cp.same(got),
            _ => *got == fffd,
        });
    ensure!(
        ctx,
        ok,
        lossy,
        "{name}: lossy decode = the events with U+FFFD for every span"
    );

    // The streaming handle, from an offset past 2³².
    let base = (1 << 32) + 5;
    let mut decoder = encoding.new_decoder().starting_at(base);
    ensure_eq!(ctx, encoding, decoder.encoding(), "Decoder::encoding()");
    let bound = match encoding {
        Encoding::UtfInf8 => u64::from(utf_inf8::DEFAULT_MAX_CODE_LEN),
        _ => MAX_PENDING,
    };
    let mut matched = 0;
    let streamed = |matched: &mut usize, got: Located<BigCodePoint>| {
        let want = events.get(*matched);
        ensure!(
            ctx,
            want.is_some_and(|w| same_located(w, &got, base)),
            (want, got),
            "{name}: Decoder event {matched} (stream from {base}; the module's from 0, got)"
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
}

/// The first event of each class of a `u32` encoding displays as its parts do: a code
/// point as `U+` and at least 4 hex digits (as [`BigCodePoint`] does), a span as its
/// error or reserved span; the iterator's `Debug` says how much remains. (Once per
/// class and input: formatting costs more than the rest.)
fn displays(ctx: &Ctx, mut events: corrected_utf8::Events<'_>, len: usize) {
    ensure!(
        ctx,
        format!("{events:?}").contains(&format!("remaining: {len}")),
        format!("{events:?}"),
        "Events' Debug shows what remains"
    );
    let mut shown = [false; 3];
    while let Some(located) = events.next_located() {
        let (class, want) = match located.event {
            Event::CodePoint(cp) => (0, BigCodePoint::from(cp).to_string()),
            Event::Error(e) => (1, e.to_string()),
            Event::Reserved(r) => (2, r.to_string()),
        };
        if std::mem::replace(&mut shown[class], true) {
            continue;
        }
        let got = located.event.to_string();
        ensure_eq!(ctx, want, got, "Display of {:?}", located.event);
        ensure_eq!(ctx, got.len(), display_len(&located.event), "display_len");
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
