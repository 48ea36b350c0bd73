//! `conformance generate`: rewrites `vectors/` from the spec-literal code.
//!
//! Expected results come only from [`conformance_literal`]. Output is deterministic: the
//! cases are listed in code order, and each keeps the `tcId` it has in the committed
//! file, matched by (group comment, input or code point); a new case gets one more than
//! the file's highest `tcId`. `--check` writes nothing and fails when a committed file
//! differs from what would be written, or when the files this binary embeds (the crate
//! [`corrected_utf8_vectors`], what `conformance run` checks without `--vectors`) do.

pub(crate) mod build;
mod corrected_decode;
mod corrected_document;
mod corrected_encode;
mod encode_string;
mod flags;
mod serialize;
mod splits;
mod table31b;
mod utf8_decode;
mod utf8_encode;
pub(crate) mod utf_inf8;

use crate::vectors::model::Schema;
use crate::vectors::Encoding;
use corrected_utf8_vectors::PATHS;
use serialize::{finish, header};
use std::path::Path;
use std::process::ExitCode;

/// The vector set's version that the files are written with: the vectors crate's
/// ([`corrected_utf8_vectors::VERSION`]).
pub use corrected_utf8_vectors::VERSION;

/// Every generated file as (path relative to `vectors/`, content). `existing` gives a
/// committed file's text by relative path, for keeping tcIds.
pub fn generate_files(
    existing: impl Fn(&str) -> Option<String>,
) -> Result<Vec<(&'static str, String)>, String> {
    let [cd, ce, cs, cdoc, ud, ue, us, ut, id, ie, is] = PATHS;
    let string_header = |name: &str| {
        header(&format!(
            "{name} string encode vectors: a list of code points in, the bytes of the whole list out, or the 0-based index and error kind of the first code point that has no encoding (docs/semantics.md §1, \"Encoding a string\"). An implementation is sent these as encode requests with \"codepoints\" only when it declares that field (vectors/README.md)."
        ))
    };
    Ok(vec![
        (cd, finish(Schema::Decode, Encoding::CorrectedUtf8, header("Corrected UTF-8 decode vectors: bytes in, the complete list of events (code points, error spans and reserved spans) out; result valid, reserved or invalid."), corrected_decode::groups(), existing(cd))?),
        (ce, finish(Schema::Encode, Encoding::CorrectedUtf8, header("Corrected UTF-8 encode vectors: one code point in, its bytes or an error kind out."), corrected_encode::groups(), existing(ce))?),
        (cs, finish(Schema::EncodeString, Encoding::CorrectedUtf8, string_header("Corrected UTF-8"), encode_string::groups(Encoding::CorrectedUtf8), existing(cs))?),
        (cdoc, finish(Schema::Document, Encoding::CorrectedUtf8, header("Corrected UTF-8 document vectors: a whole file in, the document checker's findings out (docs/semantics.md §2.6)."), corrected_document::groups(), existing(cdoc))?),
        (ud, finish(Schema::Decode, Encoding::Utf8, header("UTF-8 decode vectors (Unicode Table 3-7, maximal subparts, error kinds of docs/semantics.md §3): bytes in, events out."), utf8_decode::groups(), existing(ud))?),
        (ue, finish(Schema::Encode, Encoding::Utf8, header("UTF-8 encode vectors: one code point in, its bytes or an error kind out."), utf8_encode::groups(), existing(ue))?),
        (us, finish(Schema::EncodeString, Encoding::Utf8, string_header("UTF-8"), encode_string::groups(Encoding::Utf8), existing(us))?),
        (ut, finish(Schema::Decode, Encoding::Utf8, header("Table 3.1b (Davis 2000, as transcribed) inputs, decoded per Table 3-7: flags give the rows that match and whether the row disagrees with Table 3-7."), table31b::groups(), existing(ut))?),
        (id, finish(Schema::Decode, Encoding::UtfInf8, header("UTF-∞-8 decode vectors (the UTF-∞-8 draft and docs/semantics.md §4; shortest form only, maximal subparts, default code length limit 65 536 bytes): bytes in, the complete list of events out."), utf_inf8::decode::groups(), existing(id))?),
        (ie, finish(Schema::Encode, Encoding::UtfInf8, header("UTF-∞-8 encode vectors: one code point (unbounded) in, its bytes or an error kind out."), utf_inf8::encode::groups(), existing(ie))?),
        (is, finish(Schema::EncodeString, Encoding::UtfInf8, string_header("UTF-∞-8"), encode_string::groups(Encoding::UtfInf8), existing(is))?),
    ])
}

/// How many of the embedded vector files differ from what generate writes (their tcIds
/// kept from themselves), or are missing, or are not generated at all; each is named.
fn check_embedded() -> usize {
    let embedded = |rel: &str| corrected_utf8_vectors::get(rel).map(str::to_owned);
    let files = match generate_files(embedded) {
        Ok(f) => f,
        Err(e) => {
            crate::errln!("conformance generate --check: {e}");
            return 1;
        }
    };
    let mut stale = 0;
    for (rel, content) in &files {
        if corrected_utf8_vectors::get(rel) != Some(content.as_str()) {
            crate::errln!(
                "conformance generate --check: the vectors embedded in this binary: {rel} \
                 differs from what generate writes (rebuild after generating)"
            );
            stale += 1;
        }
    }
    for file in corrected_utf8_vectors::EMBEDDED {
        if !files.iter().any(|(rel, _)| *rel == file.path) {
            crate::errln!(
                "conformance generate --check: the vectors embedded in this binary: {} is \
                 not a file generate writes",
                file.path
            );
            stale += 1;
        }
    }
    stale
}

/// `conformance generate [--check]` on `dir`.
pub fn run(dir: &Path, check: bool) -> ExitCode {
    let files = match generate_files(|rel| std::fs::read_to_string(dir.join(rel)).ok()) {
        Ok(f) => f,
        Err(e) => {
            crate::errln!("conformance generate: {e}");
            return ExitCode::FAILURE;
        }
    };
    let mut stale = 0;
    for (rel, content) in &files {
        let path = dir.join(rel);
        // A symbolic link at a vector's path is replaced by the file, never written
        // through (its target may be outside the folder), whatever it points to.
        let link = std::fs::symlink_metadata(&path).is_ok_and(|m| m.file_type().is_symlink());
        let old = (!link)
            .then(|| std::fs::read_to_string(&path).ok())
            .flatten();
        if old.as_deref() == Some(content.as_str()) {
            continue;
        }
        if check {
            let why = if link {
                "is a symbolic link, unlike"
            } else if old.is_some() {
                "differs from"
            } else {
                "is missing, unlike"
            };
            crate::errln!(
                "conformance generate --check: {} {why} what generate writes",
                path.display()
            );
            stale += 1;
            continue;
        }
        let written = path
            .parent()
            .map_or(Ok(()), std::fs::create_dir_all)
            .and_then(|()| crate::files::write_atomic(&path, content.as_bytes()));
        if let Err(e) = written {
            crate::errln!("conformance generate: cannot write {}: {e}", path.display());
            return ExitCode::FAILURE;
        }
        crate::outln!("wrote {}", path.display());
    }
    if check {
        stale += check_embedded();
    }
    if stale > 0 {
        crate::errln!(
            "{stale} file(s) stale: run `cargo run -p conformance -- generate` and commit vectors/"
        );
        ExitCode::FAILURE
    } else {
        if check {
            crate::outln!(
                "vectors/ is up to date ({} files), and so are the ones embedded in this binary",
                files.len()
            );
        }
        ExitCode::SUCCESS
    }
}
