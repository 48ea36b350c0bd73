//! Embeds the vector files in the library, so that the checks work wherever the crate is
//! used, with no checkout beside it: every `*.json` file (JSON Schemas left out) under
//! `vectors/` in this crate when there is one (a packaged copy), else the repository's
//! `vectors/`. The files are discovered, not listed: whatever the generator wrote last is
//! what gets embedded.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

fn main() {
    let manifest = PathBuf::from(std::env::var("CARGO_MANIFEST_DIR").expect("set by cargo"));
    let packaged = manifest.join("vectors");
    let root = if packaged.is_dir() {
        packaged
    } else {
        manifest.join("../../vectors")
    };
    println!("cargo:rerun-if-changed={}", root.display());
    let mut files = Vec::new();
    json_files(&root, &mut files);
    let mut code =
        String::from("/// The embedded vector files: (name relative to `vectors/`, text).\n");
    code.push_str("pub(crate) const FILES: &[(&str, &str)] = &[\n");
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
            "    ({rel:?}, include_str!({:?})),",
            file.display().to_string()
        );
    }
    code.push_str("];\n");
    let out = PathBuf::from(std::env::var("OUT_DIR").expect("set by cargo"));
    std::fs::write(out.join("embedded_vectors.rs"), code).expect("OUT_DIR is writable");
}

/// The vector files under `dir`, depth first in sorted order (the runner's discovery
/// rule; a folder that cannot be read contributes nothing, and the library then reports
/// that it has no vectors for the encoding).
fn json_files(dir: &Path, files: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    let mut paths: Vec<PathBuf> = entries.filter_map(|e| e.ok().map(|e| e.path())).collect();
    paths.sort();
    for path in paths {
        let name = path
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        if path.is_dir() {
            json_files(&path, files);
        } else if name.ends_with(".json") && !name.ends_with(".schema.json") {
            files.push(path);
        }
    }
}
