//! The fuzz corpus `conformance fuzz` mutates: the corpus built into the binary
//! ([`crate::seed_corpus::EMBEDDED`]) or `--corpus DIR`, each file read in its target's
//! layout.

use crate::differential::Probe;
use crate::differential::Target;
use crate::exit::UsageError;
use crate::vectors::Op;
use conformance_checks::generate::{self, CorpusPayload, Rng};
use std::path::{Path, PathBuf};

/// The largest corpus file read (the fuzz targets' inputs are far smaller).
const MAX_CORPUS_FILE: u64 = 1 << 20;

/// The corpus files' payloads.
#[derive(Default)]
pub struct Corpus {
    /// Byte inputs (decode and document targets).
    pub bytes: Vec<Vec<u8>>,
    /// Code points (encode targets).
    pub code_points: Vec<u32>,
}

impl Corpus {
    /// A file of `target`'s corpus, when `conformance fuzz` reads that target's layout.
    fn add(&mut self, target: &str, bytes: &[u8]) {
        match generate::corpus_payload(target, bytes) {
            Some(CorpusPayload::Bytes(b)) if !b.is_empty() => self.bytes.push(b),
            Some(CorpusPayload::CodePoints(c)) => self.code_points.extend(c),
            _ => {}
        }
    }

    /// The corpus built into the binary.
    pub fn embedded() -> Corpus {
        let mut corpus = Corpus::default();
        for (target, bytes) in crate::seed_corpus::EMBEDDED {
            corpus.add(target, bytes);
        }
        corpus
    }
}

/// Reads every file of `dir/<target>/` whose target layout is known; `dir` itself must be
/// a readable folder (a `--corpus` that names nothing is a usage error, not a run
/// without a corpus), and so must every folder and entry in it: an entry that cannot be
/// listed is an error naming it, never a file silently left out. A file that is not a
/// regular file (a FIFO, a device) or is larger than 1 MiB is left out and said so.
pub fn load_corpus(dir: &Path) -> Result<Corpus, UsageError> {
    let list = |dir: &Path| -> Result<Vec<PathBuf>, UsageError> {
        let cannot =
            |e: std::io::Error| UsageError(format!("--corpus: cannot list {}: {e}", dir.display()));
        let mut paths = std::fs::read_dir(dir)
            .map_err(cannot)?
            .map(|entry| entry.map(|e| e.path()).map_err(cannot))
            .collect::<Result<Vec<_>, _>>()?;
        // Sorted, so that a seed means the same inputs on every machine.
        paths.sort();
        Ok(paths)
    };
    let mut corpus = Corpus::default();
    for t in list(dir)? {
        // Files beside the targets' folders (a README) are not corpus.
        if !t.is_dir() {
            continue;
        }
        let name = t.file_name().map(|n| n.to_string_lossy().into_owned());
        let Some(name) = name else { continue };
        for f in list(&t)? {
            // Regular files only, capped: a FIFO or a device in the corpus cannot hang
            // or flood the run; what is left out is said.
            match crate::files::read_capped(&f, MAX_CORPUS_FILE) {
                Ok(bytes) => corpus.add(&name, &bytes),
                Err(e) => crate::errln!("conformance fuzz: corpus file left out: {e}"),
            }
        }
    }
    Ok(corpus)
}

/// A window of at most 256 bytes of a corpus file, mutated.
fn from_corpus(rng: &mut Rng, corpus: &Corpus) -> Vec<u8> {
    let file = rng.pick(&corpus.bytes);
    let len = file.len().min(256);
    let start = rng.index(file.len() - len + 1);
    let mut bytes = file[start..start + len].to_vec();
    generate::mutate(rng, &mut bytes);
    bytes
}

/// One input for `target`.
pub fn make_probe(rng: &mut Rng, target: &Target, corpus: &Corpus) -> Probe {
    let encoding = target.encoding;
    match target.op {
        Op::Encode if !corpus.code_points.is_empty() && rng.chance(1, 5) => {
            Probe::CodePoint(u128::from(*rng.pick(&corpus.code_points)))
        }
        Op::Encode => Probe::CodePoint(generate::codepoint(rng, encoding)),
        Op::Decode if !corpus.bytes.is_empty() && rng.chance(2, 5) => {
            Probe::Bytes(from_corpus(rng, corpus))
        }
        Op::Decode => Probe::Bytes(generate::decode_input(rng, encoding)),
        Op::Document if !corpus.bytes.is_empty() && rng.chance(1, 4) => {
            let mut doc = Vec::new();
            if rng.chance(1, 2) {
                doc.extend(generate::MAGIC);
            }
            doc.extend(from_corpus(rng, corpus));
            Probe::Bytes(doc)
        }
        Op::Document => Probe::Bytes(generate::document(rng)),
    }
}
