//! `cutf8 encode`: code points to bytes.

use crate::args::EncodeArgs;
use crate::codepoint::{self, no_encoding, CodePoint};
use crate::io::{self, Failure, Input, Result, Status, WriteResult};
use crate::transcode::{self, Transcoder};
use corrected_utf8::Encoding;
use cutf8_explain::hex;
use std::io::Write;

pub(crate) fn run(args: &EncodeArgs) -> Result<Status> {
    let encoding = args.encoding;
    let mut out = io::stdout();
    if let Some(path) = &args.from_utf8 {
        let mut writer = HexOrRaw::new(args.raw);
        let mut transcoder = Transcoder::new(Encoding::Utf8, encoding, false, None)?;
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
    for (i, arg) in args.codepoints.iter().enumerate() {
        let cp = codepoint::parse(arg).map_err(|why| {
            Failure::trouble(format_args!(
                "argument {}: '{arg}' is not a code point: {why}",
                i + 1
            ))
        })?;
        cp.encode(encoding, &mut bytes).map_err(|kind| {
            let why = no_encoding(&cp, encoding, kind);
            Failure::Invalid(format!("argument {}: {why}", i + 1))
        })?;
    }
    let mut writer = HexOrRaw::new(args.raw);
    writer.write(&mut out, &bytes)?;
    writer.end(&mut out)?;
    out.flush().out()?;
    Ok(Status::Ok)
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
