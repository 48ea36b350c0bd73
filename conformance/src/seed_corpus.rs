//! Seeding the fuzz corpus from the test vectors (`conformance seed-corpus`).
//!
//! Every vector's input becomes a file in the directory of each target it suits, in that
//! target's layout: decode and document inputs as raw bytes (and as one-chunk
//! [`ChunkedInput`]s for `streaming` and `document`, plus a 1-2-3-byte chunking, also
//! behind an encoding byte for `encoding`; behind a misalignment byte for the fast
//! paths, with long runs of valid text too), the
//! code points of each encode file as [`CodePoints`] (one file per code point, and all of
//! them in one). File names are a hash of the content, so seeding twice adds nothing.
//! `fuzz/seed-corpus.sh` then merges and minimizes the result into `corpus/` with
//! `cargo fuzz cmin`.

use crate::vectors::model::{from_hex, parse_codepoint};
use conformance_checks::{ChunkedInput, CodePoints};
use serde_json::Value;
use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::io;
use std::path::{Path, PathBuf};

/// The fuzz corpus built into the binary (`build.rs`): (target, file) pairs, each
/// target's files in name order, for the targets whose layout `conformance fuzz` reads.
pub const EMBEDDED: &[(&str, &[u8])] = include!(concat!(env!("OUT_DIR"), "/seed_corpus.rs"));

/// The `corpus/` directory of the checkout this crate was built from (where
/// `conformance seed-corpus` writes by default).
pub fn default_dir() -> PathBuf {
    PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/../corpus"))
}

/// Inputs per target, deduplicated.
#[derive(Debug, Default)]
pub struct Seeds {
    /// Target name → inputs in its layout.
    pub by_target: BTreeMap<&'static str, BTreeSet<Vec<u8>>>,
}

impl Seeds {
    fn add(&mut self, target: &'static str, input: Vec<u8>) {
        self.by_target.entry(target).or_default().insert(input);
    }

    /// A byte string that decoders and document checkers read.
    fn add_bytes(&mut self, bytes: &[u8]) {
        for target in ["decode", "differential_literal", "differential_std"] {
            self.add(target, bytes.to_vec());
        }
        // The fast paths: a misalignment byte, then the data (`checks::fast`).
        for target in ["fast_validate", "fast_decode", "fast_transcode"] {
            self.add(target, [&[0u8][..], bytes].concat());
        }
        for target in ["streaming", "document"] {
            self.add(target, ChunkedInput::to_bytes(&[], bytes));
            if bytes.len() > 1 {
                self.add(target, ChunkedInput::to_bytes(&[1, 2, 3], bytes));
            }
        }
        // The handles: an encoding byte (Corrected UTF-8, UTF-8), then a chunked input.
        for encoding in [0, 1] {
            self.add(
                "encoding",
                [&[encoding][..], &ChunkedInput::to_bytes(&[1, 2, 3], bytes)].concat(),
            );
        }
    }

    /// A UTF-∞-8 vector file: decode inputs for the differential and streaming targets
    /// (at the default limit, whose byte is 0xFF, and at a 13-byte limit; for streaming
    /// also byte by byte), code points for the round trip (as `checks::utf_inf8`
    /// records, up to 256 digits).
    fn add_utf_inf8(&mut self, file: &Value) {
        let tests = file["testGroups"]
            .as_array()
            .into_iter()
            .flatten()
            .flat_map(|g| g["tests"].as_array().into_iter().flatten());
        for test in tests {
            if let Some(bytes) = test["input"].as_str().and_then(|h| from_hex(h).ok()) {
                for limit in [0xFF, 12] {
                    self.add(
                        "utf_inf8_differential_literal",
                        [&[limit][..], &bytes].concat(),
                    );
                    let chunked = ChunkedInput::to_bytes(&[1, 0, 3], &bytes);
                    self.add("utf_inf8_streaming", [&[limit][..], &chunked].concat());
                }
                // Byte by byte (the first 31 bytes) under the 13-byte limit: a chunk ends
                // inside every code over the limit, past the limit.
                let bytewise = ChunkedInput::to_bytes(&[1; 31], &bytes);
                self.add("utf_inf8_streaming", [&[12][..], &bytewise].concat());
                // The handles, UTF-∞-8 (encoding byte 2).
                let chunked = ChunkedInput::to_bytes(&[1, 0, 3], &bytes);
                self.add("encoding", [&[2][..], &chunked].concat());
            }
            let digits = test["codepoint"]
                .as_str()
                .and_then(|c| c.strip_prefix("U+"));
            if let Some(digits) = digits.filter(|d| (1..=256).contains(&d.len())) {
                let nibbles: Vec<u8> = digits
                    .bytes()
                    .map(|c| (c as char).to_digit(16).unwrap_or(0) as u8)
                    .collect();
                let mut record = vec![(nibbles.len() - 1) as u8];
                record.extend(
                    nibbles
                        .chunks(2)
                        .map(|p| p[0] << 4 | p.get(1).copied().unwrap_or(0)),
                );
                self.add("utf_inf8_roundtrip", record);
            }
        }
    }

    /// Code points that encoders take.
    fn add_code_points(&mut self, cps: &[u32]) {
        self.add("roundtrip", CodePoints::to_bytes(cps));
        // The literal differential reads little-endian words as code points too.
        let words: Vec<u8> = cps.iter().take(8).flat_map(|cp| cp.to_le_bytes()).collect();
        self.add("differential_literal", words);
    }
}

/// The seeds of every `*.json` vector file under `vectors`, plus a few built-in ones.
pub fn collect(vectors: &Path) -> io::Result<Seeds> {
    let mut seeds = Seeds::default();
    seeds.add_bytes(b"");
    seeds.add_bytes(&corrected_utf8::corrected::MAGIC);
    seeds.add_code_points(&CodePoints::EDGES);
    // Valid Corrected UTF-8 from the vectors, end to end: long inputs for the fast
    // paths' vector loops.
    let mut long_text = Vec::new();
    let mut files = Vec::new();
    find_json(vectors, &mut files)?;
    files.sort();
    for path in files {
        let text = fs::read_to_string(&path)?;
        let value: Value = serde_json::from_str(&text).map_err(|e| {
            io::Error::new(
                io::ErrorKind::InvalidData,
                format!("{}: {e}", path.display()),
            )
        })?;
        let encoding = value["encoding"].as_str().unwrap_or("");
        if encoding == "utf-inf-8" {
            seeds.add_utf_inf8(&value);
            continue;
        }
        if !matches!(encoding, "corrected-utf8" | "utf-8") {
            continue;
        }
        let tests = value["testGroups"]
            .as_array()
            .into_iter()
            .flatten()
            .flat_map(|g| g["tests"].as_array().into_iter().flatten());
        let mut cps = Vec::new();
        for test in tests {
            if let Some(bytes) = test["input"].as_str().and_then(|h| from_hex(h).ok()) {
                seeds.add_bytes(&bytes);
                if encoding == "corrected-utf8" && test["result"] == "valid" {
                    long_text.extend_from_slice(&bytes);
                }
            }
            if let Some(cp) = test["codepoint"].as_str().and_then(parse_codepoint) {
                if let Ok(cp) = u32::try_from(cp) {
                    cps.push(cp);
                    seeds.add_code_points(&[cp]);
                }
            }
        }
        if !cps.is_empty() {
            seeds.add_code_points(&cps);
        }
    }
    for len in [64, 300, 1100] {
        if long_text.len() < len {
            break;
        }
        // Cut at a sequence boundary, so that the text stays valid: the fast decoders
        // only run on valid input.
        let len = (1..=len)
            .rev()
            .find(|&k| k == long_text.len() || !(0x80..=0xBF).contains(&long_text[k]))
            .unwrap_or(len);
        let text = &long_text[..len];
        for (shift, bad_at) in [
            (0u8, None),
            (7, None),
            (0, Some(len / 2)),
            (33, Some(len - 1)),
        ] {
            let mut data = text.to_vec();
            if let Some(at) = bad_at {
                data[at] = 0x80;
            }
            for target in ["fast_validate", "fast_decode", "fast_transcode"] {
                seeds.add(target, [&[shift][..], &data].concat());
            }
        }
    }
    // Runs of one kind of text, 100 code points each, for the transcoders' vector
    // layouts: Latin that the AVX2 transcoder converts in place (Corrected UTF-8 leads
    // up to DC, continuations that carry), CJK (3 bytes, both rows), emoji (4 bytes, up to
    // U+10FFFF, with code points of 3 bytes in Corrected UTF-8 and 4 in UTF-8 early on and
    // 3 above U+10FFFF later), CJK with a newline every 9 code points (so that it falls
    // at every place of an 8-code-point step; the AVX2 decoder takes such a step in one
    // layout, and code points at the surrogates' edges after it), emoji with a space
    // every 7 (two in some steps of 8; the 4-byte row's first code points after one).
    // `fast_transcode` also converts each to UTF-8, which it transcodes back.
    let runs: [fn(u32) -> u32; 5] = [
        |k| match k % 3 {
            0 => u32::from(b'a') + k % 26,
            _ => 0xA0 + k * 37 % 0x740,
        },
        |k| match k % 5 {
            0 => 0xE000 + k * 13,
            _ => 0x4E00 + k * 97 % 0x5200,
        },
        |k| match k {
            70..=72 => 0x11_0000 + k,
            _ if k % 11 == 0 && k < 60 => 0x1_0000 + k,
            _ if k % 7 == 0 => 0x10_FFFF - k,
            _ => 0x1_F300 + k * 11 % 0x700,
        },
        |k| match k % 9 {
            0 => u32::from(b'\n'),
            1 => [0xD7FF, 0xE000, 0x8A0, 0x1_109F][(k / 9 % 4) as usize],
            _ => 0x4E00 + k * 89 % 0x5200,
        },
        |k| match k % 7 {
            3 => u32::from(b' '),
            4 => 0x1_10A0 + k % 3,
            _ => 0x1_F300 + k * 13 % 0x300,
        },
    ];
    for run in runs {
        let cps: Vec<u32> = (0..100).map(run).collect();
        let text = conformance_literal::corrected::encode_all(&cps).expect("encodable");
        for target in ["fast_validate", "fast_decode", "fast_transcode"] {
            seeds.add(target, [&[0u8][..], &text].concat());
        }
    }
    // `fast_decode` also encodes its data read as little-endian words: CJK below U+10000
    // (a newline every 9), which the AVX2 encoder takes 16 at a time in a loop of its
    // own, then a surrogate in that loop's third step.
    seeds.add(
        "fast_decode",
        le_words((0..48u32).map(|k| match k {
            41 => 0xD800,
            _ if k % 9 == 0 => u32::from(b'\n'),
            _ => 0x4E00 + k * 89 % 0x5200,
        })),
    );
    // And Latin (ASCII and 2 bytes below U+800), which it takes 16 at a time in a loop of
    // its own too, then in that loop's third step a code point of 3 bytes or a C1
    // control.
    for odd in [0x900, 0x85] {
        seeds.add(
            "fast_decode",
            le_words((0..48u32).map(|k| match k {
                41 => odd,
                _ if k % 3 == 0 => u32::from(b'a') + k % 26,
                _ => 0xA0 + k * 37 % 0x740,
            })),
        );
    }
    Ok(seeds)
}

/// A `fast_decode` input whose data, read as little-endian words, are `codepoints`: the
/// shift byte 0 (the data at the start of its buffer), then the words.
fn le_words(codepoints: impl Iterator<Item = u32>) -> Vec<u8> {
    core::iter::once(0)
        .chain(codepoints.flat_map(u32::to_le_bytes))
        .collect()
}

fn find_json(dir: &Path, out: &mut Vec<PathBuf>) -> io::Result<()> {
    for entry in fs::read_dir(dir)? {
        let path = entry?.path();
        if path.is_dir() {
            find_json(&path, out)?;
        } else if path.extension().is_some_and(|e| e == "json")
            && !path.to_string_lossy().ends_with(".schema.json")
        {
            out.push(path);
        }
    }
    Ok(())
}

/// Writes the seeds into `out/<target>/seed-<hash>`; returns how many files each
/// target has in `out` now.
pub fn write(seeds: &Seeds, out: &Path) -> io::Result<BTreeMap<&'static str, usize>> {
    let mut counts = BTreeMap::new();
    for (target, inputs) in &seeds.by_target {
        let dir = out.join(target);
        fs::create_dir_all(&dir)?;
        for input in inputs {
            fs::write(dir.join(format!("seed-{:016x}", fnv1a(input))), input)?;
        }
        counts.insert(*target, fs::read_dir(&dir)?.count());
    }
    Ok(counts)
}

/// FNV-1a, 64 bits: a stable name for a file's content.
fn fnv1a(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |h, &b| {
        (h ^ u64::from(b)).wrapping_mul(0x0000_0100_0000_01b3)
    })
}

/// `conformance seed-corpus`: seeds from `vectors` into `out`, with a line per target.
pub fn run(vectors: &Path, out: &Path) -> std::process::ExitCode {
    let result = collect(vectors).and_then(|seeds| write(&seeds, out));
    match result {
        Ok(counts) => {
            for (target, n) in counts {
                crate::outln!("{target}: {n} files in {}", out.join(target).display());
            }
            std::process::ExitCode::SUCCESS
        }
        Err(e) => {
            crate::errln!("seed-corpus: {e}");
            std::process::ExitCode::FAILURE
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use conformance_checks::generate::corpus_payload;

    /// The corpus built in is every file of exactly the targets whose layout
    /// `conformance fuzz` reads (build.rs's list and `corpus_payload` kept in step), and
    /// each file is byte for byte the checkout's.
    #[test]
    fn the_built_in_corpus_is_the_readable_targets_of_the_checkout() {
        let mut want = Vec::new();
        let mut targets: Vec<_> = fs::read_dir(default_dir())
            .unwrap()
            .map(|e| e.unwrap().path())
            .filter(|p| p.is_dir())
            .collect();
        targets.sort();
        for dir in targets {
            let name = dir.file_name().unwrap().to_string_lossy().into_owned();
            if corpus_payload(&name, b"\x00\x41\x42").is_none() {
                continue;
            }
            let mut files: Vec<_> = fs::read_dir(&dir)
                .unwrap()
                .map(|e| e.unwrap().path())
                .collect();
            files.sort();
            want.extend(files.iter().map(|f| (name.clone(), fs::read(f).unwrap())));
        }
        let got: Vec<_> = EMBEDDED
            .iter()
            .map(|(t, b)| (t.to_string(), b.to_vec()))
            .collect();
        assert!(want.len() > 1000, "{} files", want.len());
        assert!(
            got == want,
            "{} files built in, {} in the checkout",
            got.len(),
            want.len()
        );
    }
}
