//! Embeds the vector files (`../vectors/**/*.json`, JSON Schemas left out) in the binary,
//! so that `conformance run` without `--vectors` works from a copied binary, with no
//! checkout beside it. The files are discovered, not listed: whatever the generator wrote
//! last is what gets embedded.

use std::fmt::Write as _;
use std::path::PathBuf;

// The crate's own discovery (`conformance run --vectors DIR` uses it too), so the embedded
// files are exactly what a run on `vectors/` would load; a build script cannot depend on
// its own crate, hence the path module.
#[path = "src/run/discover.rs"]
mod discover;

fn main() {
    let manifest = PathBuf::from(std::env::var("CARGO_MANIFEST_DIR").expect("set by cargo"));
    let root = manifest.join("../vectors");
    println!("cargo:rerun-if-changed={}", root.display());
    let mut files = Vec::new();
    // A folder that cannot be read (or no `vectors/` at all) embeds nothing from it.
    discover::json_files(&root, &mut files, &mut Vec::new());
    let mut code =
        String::from("/// The embedded vector files: (name relative to `vectors/`, text).\n");
    code.push_str("pub const FILES: &[(&str, &str)] = &[\n");
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
