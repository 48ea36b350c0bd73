//! `conformance generate`: rewrites `vectors/` from the spec-literal code.
//!
//! Expected results come only from [`conformance_literal`]. Output is deterministic: the
//! cases are listed in code order, and each keeps the `tcId` it has in the committed
//! file, matched by (group comment, input or code point); a new case gets one more than
//! the file's highest `tcId`. `--check` writes nothing and fails when a committed file
//! differs from what would be written.

pub(crate) mod build;
mod corrected_decode;
mod corrected_document;
mod corrected_encode;
mod flags;
mod serialize;
mod table31b;
mod utf8_decode;
mod utf8_encode;
pub(crate) mod utf_inf8;

use crate::vectors::model::Schema;
use serialize::{finish, header};
use std::path::Path;
use std::process::ExitCode;

/// The vector set's version (`vectors/README.md`, "Versioning").
pub const VERSION: &str = "2.4.0";

/// The generated files, relative to `vectors/`.
pub const FILES: [&str; 8] = [
    "corrected-utf8/decode.json",
    "corrected-utf8/encode.json",
    "corrected-utf8/document.json",
    "utf-8/decode.json",
    "utf-8/encode.json",
    "utf-8/table-3.1b.json",
    "utf-inf-8/decode.json",
    "utf-inf-8/encode.json",
];

/// Every generated file as (path relative to `vectors/`, content). `existing` gives a
/// committed file's text by relative path, for keeping tcIds.
pub fn generate_files(
    existing: impl Fn(&str) -> Option<String>,
) -> Result<Vec<(&'static str, String)>, String> {
    let [cd, ce, cdoc, ud, ue, ut, id, ie] = FILES;
    Ok(vec![
        (cd, finish(Schema::Decode, "corrected-utf8", header("Corrected UTF-8 decode vectors: bytes in, the complete list of events (code points, error spans and reserved spans) out; result valid, reserved or invalid."), corrected_decode::groups(), existing(cd))?),
        (ce, finish(Schema::Encode, "corrected-utf8", header("Corrected UTF-8 encode vectors: one code point in, its bytes or an error kind out."), corrected_encode::groups(), existing(ce))?),
        (cdoc, finish(Schema::Document, "corrected-utf8", header("Corrected UTF-8 document vectors: a whole file in, the document checker's findings out (docs/semantics.md §2.6)."), corrected_document::groups(), existing(cdoc))?),
        (ud, finish(Schema::Decode, "utf-8", header("UTF-8 decode vectors (Unicode Table 3-7, maximal subparts, error kinds of docs/semantics.md §3): bytes in, events out."), utf8_decode::groups(), existing(ud))?),
        (ue, finish(Schema::Encode, "utf-8", header("UTF-8 encode vectors: one code point in, its bytes or an error kind out."), utf8_encode::groups(), existing(ue))?),
        (ut, finish(Schema::Decode, "utf-8", header("Table 3.1b (Davis 2000, as transcribed) inputs, decoded per Table 3-7: flags give the rows that match and whether the row disagrees with Table 3-7."), table31b::groups(), existing(ut))?),
        (id, finish(Schema::Decode, "utf-inf-8", header("UTF-∞-8 decode vectors (the UTF-∞-8 draft and docs/semantics.md §4; shortest form only, maximal subparts, default code length limit 65 536 bytes): bytes in, the complete list of events out."), utf_inf8::decode::groups(), existing(id))?),
        (ie, finish(Schema::Encode, "utf-inf-8", header("UTF-∞-8 encode vectors: one code point (unbounded) in, its bytes or an error kind out."), utf_inf8::encode::groups(), existing(ie))?),
    ])
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
        let old = std::fs::read_to_string(&path).ok();
        if old.as_deref() == Some(content.as_str()) {
            continue;
        }
        if check {
            let why = if old.is_some() {
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
            .and_then(|()| std::fs::write(&path, content));
        if let Err(e) = written {
            crate::errln!("conformance generate: cannot write {}: {e}", path.display());
            return ExitCode::FAILURE;
        }
        crate::outln!("wrote {}", path.display());
    }
    if stale > 0 {
        crate::errln!(
            "{stale} file(s) stale: run `cargo run -p conformance -- generate` and commit vectors/"
        );
        ExitCode::FAILURE
    } else {
        if check {
            crate::outln!("vectors/ is up to date ({} files)", files.len());
        }
        ExitCode::SUCCESS
    }
}
