//! The fast paths over valid stretches and the careful path from the first problem,
//! alternated over each chunk: what `transcode` and `decode` share.
//!
//! The careful path is the codec's streaming decoder, which says what every byte is
//! and where; the fast path is only taken where it gives the same result, from a
//! point where the decoder is between sequences, over whole valid sequences.

use corrected_utf8::{
    corrected::{self, fast},
    utf8, Decoder,
};

/// The first careful step after a stretch done in bulk: a few code points, enough to
/// get past a problem and back to the fast path.
const CAREFUL_MIN: usize = 16;

/// The longest careful step, reached by doubling the step after each bulk stretch
/// shorter than [`BULK_MIN`]: input with a problem every few bytes goes at the careful
/// path's speed, without a fast-path attempt per problem.
const CAREFUL_MAX: usize = 4096;

/// A bulk stretch at least this long resets the careful step to [`CAREFUL_MIN`].
const BULK_MIN: usize = 32;

/// The most bytes a bulk step validates at once, so that a problem every few hundred
/// bytes does not have each attempt validate the whole rest of the chunk.
pub(crate) const WINDOW: usize = 4096;

/// A command with a fast and a careful path over the same input.
pub(crate) trait Paths {
    /// Takes the longest prefix of `chunk` the fast path can; returns its length.
    fn bulk(&mut self, chunk: &[u8]) -> usize;
    /// Feeds `chunk` to the careful path.
    fn careful(&mut self, chunk: &[u8]);
    /// Nothing more is to be done (a problem stops the command).
    fn stopped(&self) -> bool;
}

/// Feeds `chunk` to `paths`: the fast path as far as it goes, then a careful step,
/// longer each time the fast path gets nowhere.
pub(crate) fn alternate(paths: &mut impl Paths, mut chunk: &[u8]) {
    let mut step = CAREFUL_MIN;
    while !chunk.is_empty() && !paths.stopped() {
        let bulk = paths.bulk(chunk);
        chunk = &chunk[bulk..];
        step = if bulk >= BULK_MIN {
            CAREFUL_MIN
        } else {
            (2 * step).min(CAREFUL_MAX)
        };
        let careful = chunk.len().min(step);
        paths.careful(&chunk[..careful]);
        chunk = &chunk[careful..];
    }
}

/// The offset of `decoder` if it is between sequences (nothing pending), where a fast
/// path can take over; `None` in the middle of a sequence or a reserved span, and for
/// UTF-∞-8, which has no fast path.
pub(crate) fn idle_at(decoder: &Decoder) -> Option<u64> {
    let offset = decoder.offset();
    let idle = match decoder {
        Decoder::CorrectedUtf8(d) => *d == corrected::StreamDecoder::new().starting_at(offset),
        Decoder::Utf8(d) => *d == utf8::StreamDecoder::new().starting_at(offset),
        Decoder::UtfInf8(_) => false,
    };
    idle.then_some(offset)
}

/// The longest prefix of `bytes` that is whole valid Corrected UTF-8 sequences: up to
/// the first error or reserved span (a sequence cut short by the end is one).
pub(crate) fn corrected_valid(bytes: &[u8]) -> &[u8] {
    match fast::validate(bytes) {
        Ok(()) => bytes,
        Err(stop) => &bytes[..stop.offset() as usize],
    }
}

/// The longest prefix of `bytes` that is whole valid UTF-8 sequences, as text.
pub(crate) fn utf8_valid(bytes: &[u8]) -> &str {
    match simdutf8::compat::from_utf8(bytes) {
        Ok(text) => text,
        Err(e) => {
            simdutf8::compat::from_utf8(&bytes[..e.valid_up_to()]).expect("valid up to there")
        }
    }
}

/// Whether the bulk step that made `done` of `window` (of which `valid` is valid) goes
/// on with the next window: only past a window valid to its end, or up to a sequence
/// cut by its end (the next window starts with that sequence).
pub(crate) fn next_window(done: usize, valid: usize, window: usize) -> bool {
    done > 0 && done == valid && valid + corrected::MAX_LEN > window
}

#[cfg(test)]
pub(crate) mod tests {
    use corrected_utf8::{corrected, utf8};
    use std::fs;
    use std::path::Path;

    /// Inputs for the differential tests of the fast paths against the careful path:
    /// every file of the fuzz corpus, every input of the vectors, and each of those sets
    /// joined between stretches of clean text of up to a few KiB (in each encoding),
    /// so that the fast path runs across chunk and window boundaries and into problems.
    pub(crate) fn samples() -> Vec<Vec<u8>> {
        let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
        let mut corpus = Vec::new();
        for dir in fs::read_dir(root.join("corpus")).unwrap() {
            for file in fs::read_dir(dir.unwrap().path()).unwrap() {
                corpus.push(fs::read(file.unwrap().path()).unwrap());
            }
        }
        let mut vectors = Vec::new();
        for encoding in ["corrected-utf8", "utf-8", "utf-inf-8"] {
            for file in fs::read_dir(root.join("vectors").join(encoding)).unwrap() {
                let text = fs::read_to_string(file.unwrap().path()).unwrap();
                inputs(&serde_json::from_str(&text).unwrap(), &mut vectors);
            }
        }
        assert!(corpus.len() > 100 && vectors.len() > 1000);
        let text: Vec<u32> = "Größe 大小 🦀 naïve — «déjà vu»\n"
            .chars()
            .map(u32::from)
            .collect();
        let mut clean = [Vec::new(), Vec::new()];
        for _ in 0..200 {
            clean[0].extend(corrected::encode(text.iter().copied()).unwrap());
            clean[1].extend(utf8::encode(text.iter().copied()).unwrap());
        }
        let mut joined = Vec::new();
        for (set, most) in [(&corpus, 3000), (&vectors, 300)] {
            for clean in &clean {
                let mut all = Vec::new();
                for (i, sample) in set.iter().enumerate() {
                    all.extend_from_slice(&clean[..i * 397 % most]);
                    all.extend_from_slice(sample);
                }
                joined.push(all);
            }
        }
        [corpus, vectors, joined].concat()
    }

    /// Appends the bytes of every `input` (a hex string) in a vectors file.
    fn inputs(value: &serde_json::Value, out: &mut Vec<Vec<u8>>) {
        match value {
            serde_json::Value::Object(map) => {
                for (key, v) in map {
                    match v.as_str() {
                        Some(hex) if key == "input" => out.extend(unhex(hex)),
                        _ => inputs(v, out),
                    }
                }
            }
            serde_json::Value::Array(items) => items.iter().for_each(|v| inputs(v, out)),
            _ => {}
        }
    }

    fn unhex(hex: &str) -> Option<Vec<u8>> {
        (hex.len().is_multiple_of(2) && hex.is_ascii())
            .then(|| {
                (0..hex.len())
                    .step_by(2)
                    .map(|i| u8::from_str_radix(&hex[i..i + 2], 16).ok())
                    .collect()
            })
            .flatten()
    }
}
