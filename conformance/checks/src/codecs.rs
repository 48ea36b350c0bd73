//! The reference codec's two `u32` encodings behind one table of function pointers, so
//! each check is written once and run over both.

use corrected_utf8::{
    corrected, utf8, EncodeError, Encoding, ErrorKind, Events, Located, Stop, Validity,
};

/// One encoding of the reference codec.
pub(crate) struct Codec {
    pub encoding: Encoding,
    pub events: for<'a> fn(&'a [u8]) -> Events<'a>,
    pub decode: fn(&[u8]) -> Result<Vec<u32>, Stop>,
    pub decode_lossy: fn(&[u8]) -> Vec<u32>,
    pub validate: fn(&[u8]) -> Result<(), Stop>,
    pub validity: fn(&[u8]) -> Validity,
    pub encoded_len: fn(u32) -> Result<usize, EncodeError>,
    /// `encode_into`, widened to the longer buffer; returns the length written.
    pub encode_into: fn(u32, &mut [u8; corrected::MAX_LEN]) -> Result<usize, EncodeError>,
    pub encode: fn(&[u32]) -> Result<Vec<u8>, EncodeError>,
    /// The error kinds its decoder may report (a reserved span is no error: it has none).
    pub decode_kinds: &'static [ErrorKind],
}

impl Codec {
    /// The encoding's identifier, for messages.
    pub fn name(&self) -> &'static str {
        self.encoding.name()
    }

    /// The encoding's own streaming decoder (its `u32` one, not the `Decoder` handle),
    /// counting offsets from `base`.
    pub fn stream_decoder(&self, base: u64) -> StreamDecoder {
        // `default()` is `new()`: both are the API.
        match self.encoding {
            Encoding::CorrectedUtf8 => {
                StreamDecoder::Corrected(corrected::StreamDecoder::default().starting_at(base))
            }
            _ => StreamDecoder::Utf8(utf8::StreamDecoder::new().starting_at(base)),
        }
    }

    /// Encodes one code point into `buf`, returning the bytes.
    pub fn encode_one<'b>(
        &self,
        cp: u32,
        buf: &'b mut [u8; corrected::MAX_LEN],
    ) -> Result<&'b [u8], EncodeError> {
        let n = (self.encode_into)(cp, buf)?;
        Ok(&buf[..n])
    }
}

/// The `u32` streaming decoder of either encoding.
#[derive(Clone)]
pub(crate) enum StreamDecoder {
    Corrected(corrected::StreamDecoder),
    Utf8(utf8::StreamDecoder),
}

impl StreamDecoder {
    pub fn push<F: FnMut(Located)>(&mut self, chunk: &[u8], sink: F) {
        match self {
            StreamDecoder::Corrected(d) => d.push(chunk, sink),
            StreamDecoder::Utf8(d) => d.push(chunk, sink),
        }
    }

    pub fn finish<F: FnMut(Located)>(&mut self, sink: F) {
        match self {
            StreamDecoder::Corrected(d) => d.finish(sink),
            StreamDecoder::Utf8(d) => d.finish(sink),
        }
    }

    pub fn offset(&self) -> u64 {
        match self {
            StreamDecoder::Corrected(d) => d.offset(),
            StreamDecoder::Utf8(d) => d.offset(),
        }
    }

    pub fn pending_len(&self) -> u64 {
        match self {
            StreamDecoder::Corrected(d) => d.pending_len(),
            StreamDecoder::Utf8(d) => d.pending_len(),
        }
    }
}

pub(crate) const CORRECTED: Codec = Codec {
    encoding: Encoding::CorrectedUtf8,
    events: corrected::events,
    decode: corrected::decode,
    decode_lossy: corrected::decode_lossy,
    validate: corrected::validate,
    validity: corrected::validity,
    encoded_len: corrected::encoded_len,
    encode_into: |cp, buf| corrected::encode_into(cp, buf).map(<[u8]>::len),
    encode: |cps| corrected::encode(cps.iter().copied()),
    decode_kinds: &[ErrorKind::UnexpectedContinuation, ErrorKind::Truncated],
};

pub(crate) const UTF8: Codec = Codec {
    encoding: Encoding::Utf8,
    events: utf8::events,
    decode: |bytes| Ok(utf8::decode(bytes)?),
    decode_lossy: utf8::decode_lossy,
    validate: |bytes| Ok(utf8::validate(bytes)?),
    validity: utf8::validity,
    encoded_len: utf8::encoded_len,
    encode_into: |cp, buf| {
        let mut small = [0; utf8::MAX_LEN];
        let bytes = utf8::encode_into(cp, &mut small)?;
        buf[..bytes.len()].copy_from_slice(bytes);
        Ok(bytes.len())
    },
    encode: |cps| utf8::encode(cps.iter().copied()),
    decode_kinds: &[
        ErrorKind::UnexpectedContinuation,
        ErrorKind::Truncated,
        ErrorKind::Overlong,
        ErrorKind::Surrogate,
        ErrorKind::OutOfRange,
        ErrorKind::InvalidByte,
    ],
};

/// Both encodings, Corrected UTF-8 first.
pub(crate) const BOTH: [&Codec; 2] = [&CORRECTED, &UTF8];
