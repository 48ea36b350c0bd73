//! Embeds the fuzz corpus's seed inputs in the runner, so that `conformance fuzz --adapter`
//! mutates them wherever the binary runs (a `cargo install`, a copied static binary), not
//! only next to the checkout it was built from.
//!
//! Only the targets whose layout `conformance fuzz` reads are embedded ([`TARGETS`], the
//! ones `conformance_checks::generate::corpus_payload` knows; a test keeps the two in
//! step); the README states their number and size (a docs test checks them). `corpus`
//! in this crate is a symbolic link to the repository's top-level `corpus/`; in a package
//! it is the files themselves (`cargo package` follows the link, and the manifest's
//! `exclude` leaves the other targets out). A checkout made without symbolic links has a small text file there
//! instead: then the repository's folder is read directly. A missing target folder is a
//! build error, never a binary that silently fuzzes without its corpus.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

/// The corpus folders embedded, one per fuzz target whose inputs `conformance fuzz` reads.
const TARGETS: [&str; 11] = [
    "decode",
    "differential_literal",
    "differential_std",
    "document",
    "fast_decode",
    "fast_transcode",
    "fast_validate",
    "roundtrip",
    "streaming",
    "utf_inf8_differential_literal",
    "utf_inf8_streaming",
];

fn main() {
    let manifest = PathBuf::from(std::env::var("CARGO_MANIFEST_DIR").expect("set by cargo"));
    let packaged = manifest.join("corpus");
    let root = if packaged.is_dir() {
        packaged
    } else {
        manifest.join("../corpus")
    };
    let mut code = String::from("&[\n");
    for target in TARGETS {
        let dir = root.join(target);
        println!("cargo:rerun-if-changed={}", dir.display());
        for file in files(&dir) {
            println!("cargo:rerun-if-changed={}", file.display());
            let _ = writeln!(
                code,
                "    ({target:?}, include_bytes!({:?})),",
                file.display().to_string()
            );
        }
    }
    code.push_str("]\n");
    let out = PathBuf::from(std::env::var("OUT_DIR").expect("set by cargo"));
    std::fs::write(out.join("seed_corpus.rs"), code).expect("OUT_DIR is writable");
}

/// The regular files of `dir`, sorted by name (so that a seed means the same inputs on
/// every machine).
fn files(dir: &Path) -> Vec<PathBuf> {
    let entries = std::fs::read_dir(dir).unwrap_or_else(|e| {
        panic!(
            "conformance: cannot read the fuzz corpus {}: {e}",
            dir.display()
        )
    });
    let mut files: Vec<PathBuf> = entries
        .map(|e| e.unwrap_or_else(|e| panic!("conformance: {}: {e}", dir.display())))
        .map(|e| e.path())
        .filter(|p| p.is_file())
        .collect();
    files.sort();
    if files.is_empty() {
        panic!("conformance: no file in the fuzz corpus {}", dir.display());
    }
    files
}
