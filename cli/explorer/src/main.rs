//! `cutf8-explorer DIR --wasm FILE`: writes the explorer, a static site, into `DIR`
//! (`scripts/site.sh DIR` builds the WebAssembly module and runs this; `docs/explorer.md`).
//!
//! The site is five files that work from `file://` in any browser with WebAssembly and
//! `DecompressionStream`, with no server and no network:
//!
//! * `index.html`, `explorer.js`: the page, which only renders (`site/` here);
//! * `explain-wasm.js`: the WebAssembly build of `cutf8-explain` (`cli/explorer/wasm`),
//!   gzipped, in base64 in a script (a `<script src>` loads from `file://`, `fetch()`
//!   does not);
//! * `vectors.js`: the vectors embedded in `corrected-utf8-vectors`, their version and
//!   manifest hash, gzipped the same way;
//! * `LICENSE-MIT`, `LICENSE-APACHE`.
//!
//! The budgets are checked here: the whole site at most [`SITE_BUDGET`] bytes and the
//! `.wasm` at most [`WASM_BUDGET`]; over either, nothing is written and the exit status
//! is 1.
#![deny(missing_docs)]
#![forbid(unsafe_code)]

use base64::Engine as _;
use flate2::write::GzEncoder;
use flate2::{Compression, GzBuilder};
use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

/// The whole site, in bytes: 1 MB.
pub const SITE_BUDGET: usize = 1_000_000;
/// The WebAssembly module, in bytes, before compression: 300 KB.
pub const WASM_BUDGET: usize = 300_000;

const INDEX_HTML: &str = include_str!("../site/index.html");
const EXPLORER_JS: &str = include_str!("../site/explorer.js");
const LICENSE_MIT: &str = include_str!("../../../LICENSE-MIT");
const LICENSE_APACHE: &str = include_str!("../../../LICENSE-APACHE");

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let (dir, wasm) = match &args[..] {
        [dir, flag, wasm] if flag == "--wasm" => (PathBuf::from(dir), PathBuf::from(wasm)),
        _ => {
            eprintln!("usage: cutf8-explorer DIR --wasm FILE (scripts/site.sh DIR builds FILE and runs this)");
            return ExitCode::from(2);
        }
    };
    match build(&dir, &wasm) {
        Ok(report) => {
            print!("{report}");
            ExitCode::SUCCESS
        }
        Err(message) => {
            eprintln!("cutf8-explorer: {message}");
            ExitCode::from(1)
        }
    }
}

/// Writes the site into `dir` from the module at `wasm`; returns what was written and
/// the sizes.
fn build(dir: &Path, wasm: &Path) -> Result<String, String> {
    let module = std::fs::read(wasm)
        .map_err(|e| format!("cannot read the module {}: {e}", wasm.display()))?;
    if !module.starts_with(b"\0asm") {
        return Err(format!("{} is not a WebAssembly module", wasm.display()));
    }
    let files = site(&module);
    let total: usize = files.iter().map(|(_, bytes)| bytes.len()).sum();
    check_budgets(module.len(), total)?;
    prepare(dir, &files)?;
    let mut report = format!("explorer written to {}:\n", dir.display());
    for (name, bytes) in &files {
        std::fs::write(dir.join(name), bytes)
            .map_err(|e| format!("cannot write {}: {e}", dir.join(name).display()))?;
        report += &format!("  {:>9} bytes  {name}\n", bytes.len());
    }
    report += &format!(
        "  {total:>9} bytes in all (budget {SITE_BUDGET}); the .wasm is {} bytes (budget {WASM_BUDGET}), {} gzipped\n",
        module.len(),
        gzip(&module).len()
    );
    Ok(report)
}

/// Fails when the site or the module is over its budget.
fn check_budgets(wasm: usize, site: usize) -> Result<(), String> {
    if wasm > WASM_BUDGET {
        return Err(format!(
            "the .wasm is {wasm} bytes, over its budget of {WASM_BUDGET}"
        ));
    }
    if site > SITE_BUDGET {
        return Err(format!(
            "the site would be {site} bytes, over its budget of {SITE_BUDGET}"
        ));
    }
    Ok(())
}

/// `dir` made ready: created if missing; if it exists, it may hold only the site's own
/// files (a rebuild), so that a mistyped path never mixes the site into other files.
fn prepare(dir: &Path, files: &[(&str, Vec<u8>)]) -> Result<(), String> {
    std::fs::create_dir_all(dir).map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
    let entries =
        std::fs::read_dir(dir).map_err(|e| format!("cannot read {}: {e}", dir.display()))?;
    for entry in entries {
        let entry = entry.map_err(|e| format!("cannot read {}: {e}", dir.display()))?;
        let name = entry.file_name();
        if !files.iter().any(|(own, _)| name == *own) {
            return Err(format!(
                "{} holds {}, which is not a file of the site: give an empty or new directory",
                dir.display(),
                name.to_string_lossy()
            ));
        }
    }
    Ok(())
}

/// The site's files, names and bytes.
fn site(module: &[u8]) -> Vec<(&'static str, Vec<u8>)> {
    vec![
        ("index.html", INDEX_HTML.as_bytes().to_vec()),
        ("explorer.js", EXPLORER_JS.as_bytes().to_vec()),
        ("explain-wasm.js", wasm_script(module).into_bytes()),
        ("vectors.js", vectors_script().into_bytes()),
        ("LICENSE-MIT", LICENSE_MIT.as_bytes().to_vec()),
        ("LICENSE-APACHE", LICENSE_APACHE.as_bytes().to_vec()),
    ]
}

/// gzip without a file name or a time, so the same input gives the same bytes.
fn gzip(bytes: &[u8]) -> Vec<u8> {
    let mut encoder: GzEncoder<Vec<u8>> = GzBuilder::new()
        .mtime(0)
        .write(Vec::new(), Compression::best());
    encoder.write_all(bytes).expect("writing to memory");
    encoder.finish().expect("writing to memory")
}

fn base64(bytes: &[u8]) -> String {
    base64::engine::general_purpose::STANDARD.encode(bytes)
}

/// `explain-wasm.js`: the module, gzipped, in base64.
fn wasm_script(module: &[u8]) -> String {
    format!(
        "// The explorer's WebAssembly module (cli/explorer/wasm), gzip in base64: written by\n\
         // scripts/site.sh; explorer.js inflates and instantiates it.\n\
         window.EXPLORER_WASM = {{bytes: {}, gzip: \"{}\"}};\n",
        module.len(),
        base64(&gzip(module))
    )
}

/// `vectors.js`: the embedded vector files, byte for byte, one after the other, gzipped,
/// in base64; an index of paths and lengths to cut them apart; the version and the
/// manifest hash (which the page recomputes from the files).
fn vectors_script() -> String {
    let mut all = Vec::new();
    let mut index = Vec::new();
    for file in corrected_utf8_vectors::EMBEDDED {
        all.extend_from_slice(file.text.as_bytes());
        index.push(format!(
            "{{path: \"{}\", bytes: {}}}",
            file.path,
            file.text.len()
        ));
    }
    format!(
        "// The vectors embedded in corrected-utf8-vectors {version}: the files byte for byte, one\n\
         // after the other, gzip in base64; written by scripts/site.sh.\n\
         window.EXPLORER_VECTORS = {{\n  version: \"{version}\",\n  manifestSha256: \"{hash}\",\n  \
         files: [\n    {files}\n  ],\n  gzip: \"{data}\"\n}};\n",
        version = corrected_utf8_vectors::VERSION,
        hash = corrected_utf8_vectors::manifest_sha256(),
        files = index.join(",\n    "),
        data = base64(&gzip(&all)),
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use flate2::read::GzDecoder;
    use std::io::Read as _;

    fn gunzip(bytes: &[u8]) -> Vec<u8> {
        let mut out = Vec::new();
        GzDecoder::new(bytes).read_to_end(&mut out).unwrap();
        out
    }

    /// The quoted string after `key: "` in a script.
    fn field<'a>(script: &'a str, key: &str) -> &'a str {
        let start = script.find(&format!("{key}: \"")).unwrap() + key.len() + 3;
        &script[start..start + script[start..].find('"').unwrap()]
    }

    #[test]
    fn the_vectors_script_holds_every_embedded_file_byte_for_byte() {
        let script = vectors_script();
        let data = base64::engine::general_purpose::STANDARD
            .decode(field(&script, "gzip"))
            .unwrap();
        let all = gunzip(&data);
        let mut at = 0;
        for file in corrected_utf8_vectors::EMBEDDED {
            assert!(script.contains(&format!(
                "{{path: \"{}\", bytes: {}}}",
                file.path,
                file.text.len()
            )));
            assert_eq!(
                &all[at..at + file.text.len()],
                file.text.as_bytes(),
                "{}",
                file.path
            );
            at += file.text.len();
        }
        assert_eq!(at, all.len());
        assert_eq!(field(&script, "version"), corrected_utf8_vectors::VERSION);
        assert_eq!(
            field(&script, "manifestSha256"),
            corrected_utf8_vectors::manifest_sha256()
        );
        // Reproducible: the same vectors, the same script.
        assert_eq!(vectors_script(), script);
    }

    #[test]
    fn the_module_round_trips() {
        let module = b"\0asm\x01\0\0\0 any bytes".to_vec();
        let script = wasm_script(&module);
        let data = base64::engine::general_purpose::STANDARD
            .decode(field(&script, "gzip"))
            .unwrap();
        assert_eq!(gunzip(&data), module);
    }

    #[test]
    fn budgets_are_enforced() {
        assert!(check_budgets(WASM_BUDGET, SITE_BUDGET).is_ok());
        assert_eq!(
            check_budgets(WASM_BUDGET + 1, 0),
            Err("the .wasm is 300001 bytes, over its budget of 300000".into())
        );
        assert!(check_budgets(0, SITE_BUDGET + 1).is_err());
        // The page and the vectors alone leave the module most of the budget.
        let without_module: usize = site(b"").iter().map(|(_, b)| b.len()).sum();
        assert!(without_module < SITE_BUDGET / 2, "{without_module} bytes");
    }

    #[test]
    fn a_directory_of_other_files_is_refused() {
        let dir = std::env::temp_dir().join(format!("cutf8-explorer-test-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        let files = site(b"\0asm");
        prepare(&dir, &files).unwrap();
        std::fs::write(dir.join("index.html"), "old").unwrap();
        prepare(&dir, &files).unwrap();
        std::fs::write(dir.join("notes.txt"), "mine").unwrap();
        let err = prepare(&dir, &files).unwrap_err();
        assert!(err.contains("holds notes.txt"), "{err}");
        std::fs::remove_dir_all(&dir).unwrap();
    }

    /// The page loads the scripts this writes, by these names, and nothing else.
    #[test]
    fn the_page_loads_the_site_s_scripts() {
        for script in ["explain-wasm.js", "vectors.js", "explorer.js"] {
            assert!(
                INDEX_HTML.contains(&format!("<script src=\"{script}\"></script>")),
                "{script}"
            );
        }
        assert!(!INDEX_HTML.contains("http://") && !INDEX_HTML.contains("https://"));
        assert!(!EXPLORER_JS.contains("fetch("));
    }
}
