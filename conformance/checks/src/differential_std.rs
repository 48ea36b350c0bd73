//! `differential_std`: the UTF-8 decoder against Rust's `std`, and `&str` through
//! Corrected UTF-8 and back.

use super::fail::{ensure, ensure_eq, Ctx};
use corrected_utf8::{corrected, utf8, ErrorKind, Event};

/// Checks `bytes` against `std` (SPEC §3):
///
/// * `utf8::validate` agrees with `str::from_utf8`: the first span's offset is
///   `valid_up_to()` and its length `error_len()` (`None` is a `truncated` span that
///   reaches the end);
/// * the events are exactly `<[u8]>::utf8_chunks`: each valid chunk's chars, then one
///   span the length of its invalid bytes;
/// * `utf8::decode_lossy_to_string` is `String::from_utf8_lossy`;
///
/// and, taking `from_utf8_lossy(bytes)` as an arbitrary `&str`:
///
/// * without its C1 controls it encodes to Corrected UTF-8 (ASCII unchanged) and decodes
///   back unchanged; with them, encoding fails at the first one with `c1-control`;
/// * `utf8::encode` of its chars is its bytes.
pub fn differential_std(bytes: &[u8]) {
    let ctx = Ctx::new("differential_std", bytes);

    let ours = utf8::validate(bytes);
    match std::str::from_utf8(bytes) {
        Ok(_) => ensure_eq!(
            ctx,
            Ok(()),
            ours,
            "utf8::validate vs str::from_utf8 (valid)"
        ),
        Err(e) => {
            let got = ours.map(|_| ()).map_err(|err| {
                let length = if err.kind == ErrorKind::Truncated
                    && err.offset + err.length == bytes.len() as u64
                {
                    None
                } else {
                    Some(err.length as usize)
                };
                (err.offset as usize, length)
            });
            ensure_eq!(
                ctx,
                Err((e.valid_up_to(), e.error_len())),
                got,
                "utf8::validate vs str::from_utf8: (valid_up_to, error_len)"
            );
        }
    }

    let mut events = utf8::events(bytes).located();
    for chunk in bytes.utf8_chunks() {
        for c in chunk.valid().chars() {
            let got = events.next().map(|l| (l.event, l.length));
            ensure_eq!(
                ctx,
                Some((Event::CodePoint(c as u32), c.len_utf8() as u64)),
                got,
                "utf8 events vs utf8_chunks (valid part)"
            );
        }
        if !chunk.invalid().is_empty() {
            let got = events.next().map(|l| (l.event.error().is_some(), l.length));
            ensure_eq!(
                ctx,
                Some((true, chunk.invalid().len() as u64)),
                got,
                "utf8 events vs utf8_chunks: (is an error span, length)"
            );
        }
    }
    ensure_eq!(
        ctx,
        None,
        events.next(),
        "utf8 events vs utf8_chunks: extra events"
    );

    let std_lossy = String::from_utf8_lossy(bytes);
    ensure_eq!(
        ctx,
        std_lossy,
        utf8::decode_lossy_to_string(bytes),
        "utf8::decode_lossy_to_string vs String::from_utf8_lossy"
    );

    transcode(&ctx, &std_lossy);
}

/// `s` through Corrected UTF-8 and UTF-8.
fn transcode(ctx: &Ctx<'_>, s: &str) {
    let is_c1 = |c: char| ('\u{80}'..='\u{9F}').contains(&c);
    if let Some(c1) = s.chars().find(|&c| is_c1(c)) {
        let got = corrected::encode(s.chars().map(u32::from)).map_err(|e| (e.kind, e.codepoint));
        ensure_eq!(
            ctx,
            Err((ErrorKind::C1Control, c1 as u32)),
            got,
            "corrected::encode of a str with a C1 control fails at the first one"
        );
    }
    let text: Vec<u32> = s.chars().filter(|&c| !is_c1(c)).map(u32::from).collect();
    let encoded = corrected::encode(text.iter().copied());
    let Ok(encoded) = encoded else {
        ctx.fail(
            |w| {
                w(format_args!(
                    "corrected::encode of a str without C1 controls"
                ))
            },
            &"Ok",
            &encoded,
        );
    };
    if s.is_ascii() {
        ensure_eq!(
            ctx,
            s.as_bytes(),
            &encoded[..],
            "Corrected UTF-8 leaves ASCII unchanged"
        );
    }
    ensure_eq!(
        ctx,
        Ok(&text),
        corrected::decode(&encoded).as_ref(),
        "corrected::decode(corrected::encode(str))"
    );
    let chars: Vec<u32> = s.chars().map(u32::from).collect();
    ensure!(
        ctx,
        utf8::encode(chars.iter().copied()).is_ok_and(|b| b == s.as_bytes()),
        utf8::encode(chars.iter().copied()),
        "utf8::encode(str's chars) = str's bytes"
    );
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn accepts_mixed_input() {
        differential_std(b"ok\xC2\x85\xE2\x82\xAC\xF0\x9F\x98\x80\xED\xA0\x80\xF4\x90\xE2\x82");
        differential_std(b"");
        differential_std("caf\u{e9} \u{10FFFF}".as_bytes());
    }
}
