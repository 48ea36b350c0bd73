//! `cutf8 encode`: code points to bytes.

use crate::args::EncodeArgs;
use crate::hex;
use crate::io::{self, Failure, Input, Result, Status, WriteResult};
use crate::transcode::{self, Transcoder};
use corrected_utf8::{corrected, utf8, EncodeError, Encoding, ErrorKind};
use std::io::Write;

/// Room for the longest sequence of any encoding the CLI encodes into.
pub(crate) type Buf = [u8; corrected::MAX_LEN];

/// Encodes `cp` into `buf`, or says why `encoding` has no encoding for it.
pub(crate) fn encode_into(
    encoding: Encoding,
    cp: u32,
    buf: &mut Buf,
) -> std::result::Result<&[u8], EncodeError> {
    match encoding {
        Encoding::CorrectedUtf8 => corrected::encode_into(cp, buf),
        _ => {
            let mut small = [0; utf8::MAX_LEN];
            let len = utf8::encode_into(cp, &mut small)?.len();
            buf[..len].copy_from_slice(&small[..len]);
            Ok(&buf[..len])
        }
    }
}

/// Exit 2 for an encoding the CLI cannot encode into yet.
pub(crate) fn supported(encoding: Encoding) -> Result<Encoding> {
    match encoding {
        Encoding::CorrectedUtf8 | Encoding::Utf8 => Ok(encoding),
        _ => Err(Failure::trouble(format_args!(
            "{encoding} is not supported yet"
        ))),
    }
}

pub(crate) fn run(args: &EncodeArgs) -> Result<Status> {
    let encoding = supported(args.encoding)?;
    let mut out = io::stdout();
    if let Some(path) = &args.from_utf8 {
        let mut writer = HexOrRaw::new(args.raw);
        let mut transcoder = Transcoder::new(Encoding::Utf8, encoding, false)?;
        let mut input = Input::open(path)?;
        let result = transcode::pump(&mut input, &mut transcoder, |bytes| {
            writer.write(&mut out, bytes)
        });
        // What came before a failure is written, as with `transcode`.
        writer.end(&mut out)?;
        out.flush().out()?;
        result?;
        return Ok(Status::Ok);
    }
    // Every argument is checked before anything is written: no partial output.
    let mut bytes = Vec::new();
    let mut buf = [0; corrected::MAX_LEN];
    for (i, arg) in args.codepoints.iter().enumerate() {
        let cp = parse_codepoint(arg).map_err(|why| {
            Failure::trouble(format_args!(
                "argument {}: '{arg}' is not a code point: {why}",
                i + 1
            ))
        })?;
        let unencodable = |kind| {
            let why = no_encoding(cp, encoding, kind);
            Failure::Invalid(format!("argument {}: {why}", i + 1))
        };
        let cp = u32::try_from(cp).map_err(|_| unencodable(ErrorKind::OutOfRange))?;
        let seq = encode_into(encoding, cp, &mut buf).map_err(|e| unencodable(e.kind))?;
        bytes.extend_from_slice(seq);
    }
    let mut writer = HexOrRaw::new(args.raw);
    writer.write(&mut out, &bytes)?;
    writer.end(&mut out)?;
    out.flush().out()?;
    Ok(Status::Ok)
}

/// `U+0085 has no corrected-utf8 encoding: c1-control`.
pub(crate) fn no_encoding(cp: u64, encoding: Encoding, kind: ErrorKind) -> String {
    format!("U+{cp:04X} has no {encoding} encoding: {kind}")
}

/// `U+00CF`, `u+cf`, `0xCF` or `CF`: the value, as wide as a `u64` holds.
pub(crate) fn parse_codepoint(s: &str) -> std::result::Result<u64, &'static str> {
    let digits = ["U+", "u+", "0x", "0X"]
        .iter()
        .find_map(|p| s.strip_prefix(p))
        .unwrap_or(s);
    if digits.is_empty() {
        return Err("no hex digits");
    }
    if !digits.chars().all(|c| c.is_ascii_hexdigit()) {
        return Err("expected hex digits, as in U+00CF");
    }
    u64::from_str_radix(digits, 16).map_err(|_| "too large")
}

/// Writes bytes as hex pairs on one line (so that `cutf8 explain $(cutf8 encode …)`
/// works), or as they are.
struct HexOrRaw {
    raw: bool,
    first: bool,
}

impl HexOrRaw {
    fn new(raw: bool) -> Self {
        HexOrRaw { raw, first: true }
    }

    fn write(&mut self, out: &mut io::Out, bytes: &[u8]) -> Result<()> {
        if bytes.is_empty() {
            return Ok(());
        }
        if self.raw {
            return out.write_all(bytes).out();
        }
        if !self.first {
            out.write_all(b" ").out()?;
        }
        self.first = false;
        out.write_all(hex::format(bytes).as_bytes()).out()
    }

    fn end(&mut self, out: &mut io::Out) -> Result<()> {
        if self.raw || self.first {
            return Ok(());
        }
        out.write_all(b"\n").out()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn code_point_spellings() {
        for s in ["U+00CF", "u+cf", "0xCF", "0XcF", "CF", "000CF"] {
            assert_eq!(parse_codepoint(s), Ok(0xCF), "{s}");
        }
        assert_eq!(parse_codepoint("U+8421109F"), Ok(0x8421_109F));
        assert_eq!(parse_codepoint("U+100000000"), Ok(0x1_0000_0000));
        assert!(parse_codepoint("U+").is_err());
        assert!(parse_codepoint("U+-1").is_err());
        assert!(parse_codepoint("+1").is_err());
        assert!(parse_codepoint("Ï").is_err());
        assert_eq!(parse_codepoint("11112222333344445"), Err("too large"));
    }

    #[test]
    fn both_encodings_encode_into_one_buffer() {
        let mut buf = [0; 6];
        assert_eq!(
            encode_into(Encoding::CorrectedUtf8, 0xCF, &mut buf),
            Ok(&[0xC0, 0xAF][..])
        );
        assert_eq!(
            encode_into(Encoding::Utf8, 0xCF, &mut buf),
            Ok(&[0xC3, 0x8F][..])
        );
        let e = encode_into(Encoding::Utf8, 0x11_0000, &mut buf).unwrap_err();
        assert_eq!(e.kind, ErrorKind::OutOfRange);
        let e = encode_into(Encoding::CorrectedUtf8, 0x85, &mut buf).unwrap_err();
        assert_eq!(e.kind, ErrorKind::C1Control);
    }
}
