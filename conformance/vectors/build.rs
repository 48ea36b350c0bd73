//! Embeds the vector files in the library: every `*.json` file under `vectors/` but the
//! JSON Schemas, found by the crate's own discovery (`src/discover.rs`, which
//! `conformance run --vectors DIR` uses too), so the embedded set is exactly what a run
//! on the folder would load. The files are discovered, not listed: whatever the
//! generator wrote last is what gets embedded.
//!
//! `vectors/` in this crate is a symbolic link to the repository's top-level `vectors/`;
//! in a package it is the files themselves (`cargo package` follows the link). A checkout
//! made without symbolic links (Git on Windows by default) has a small text file there
//! instead: then the repository's folder is read directly. No vector file at all is a
//! build error, never a library that checks nothing.

use std::fmt::Write as _;
use std::path::PathBuf;

// A build script cannot depend on its own crate, hence the path module.
#[path = "src/discover.rs"]
mod discover;

fn main() {
    let manifest = PathBuf::from(std::env::var("CARGO_MANIFEST_DIR").expect("set by cargo"));
    let packaged = manifest.join("vectors");
    let root = if packaged.is_dir() {
        packaged
    } else {
        manifest.join("../../vectors")
    };
    println!("cargo:rerun-if-changed={}", root.display());
    let (mut files, mut errors) = (Vec::new(), Vec::new());
    discover::json_files(&root, &mut files, &mut errors);
    if let Some((path, e)) = errors.first() {
        panic!(
            "corrected-utf8-vectors: cannot read {}: {e}",
            path.display()
        );
    }
    if files.is_empty() {
        panic!(
            "corrected-utf8-vectors: no vector file (*.json) under {}",
            root.display()
        );
    }
    let mut code = String::from("&[\n");
    for file in &files {
        // Folders are watched too, so that a new file triggers a rebuild.
        if let Some(dir) = file.parent() {
            println!("cargo:rerun-if-changed={}", dir.display());
        }
        println!("cargo:rerun-if-changed={}", file.display());
        let rel = file
            .strip_prefix(&root)
            .expect("under the root")
            .components()
            .map(|c| c.as_os_str().to_string_lossy().into_owned())
            .collect::<Vec<_>>()
            .join("/");
        let _ = writeln!(
            code,
            "    EmbeddedFile {{ path: {rel:?}, text: include_str!({:?}) }},",
            file.display().to_string()
        );
    }
    code.push_str("]\n");
    let out = PathBuf::from(std::env::var("OUT_DIR").expect("set by cargo"));
    std::fs::write(out.join("embedded.rs"), code).expect("OUT_DIR is writable");
}
