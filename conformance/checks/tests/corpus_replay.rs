//! Replays the fuzz corpus on stable: every file under `corpus/<target>/` through that
//! target's check, and every crash kept in `corpus/regressions/` through a test that
//! names it.
//!
//! A crash found by fuzzing becomes `corpus/regressions/<target>-<what-it-shows>` plus a
//! line in the `regressions!` list below; `every_regression_has_a_test` fails until the
//! line is there.

use conformance_checks::{self as checks, Target, TARGETS};
use std::fs;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::path::{Path, PathBuf};

fn corpus() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../corpus")
}

fn files(dir: &Path) -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|e| e.unwrap().path())
        .filter(|p| {
            p.is_file()
                && !p
                    .file_name()
                    .is_some_and(|n| n.to_string_lossy().starts_with('.'))
        })
        .collect();
    files.sort();
    files
}

/// Runs `target` on each file; panics naming every file that failed.
fn replay(target: Target, files: &[PathBuf]) {
    let failed: Vec<String> = files
        .iter()
        .filter_map(|path| {
            let bytes = fs::read(path).unwrap();
            catch_unwind(AssertUnwindSafe(|| (target.check)(&bytes)))
                .err()
                .map(|_| path.display().to_string())
        })
        .collect();
    assert!(
        failed.is_empty(),
        "target `{}` failed on {} file(s) (messages above):\n  {}",
        target.name,
        failed.len(),
        failed.join("\n  ")
    );
}

fn replay_target(name: &str) {
    let target = checks::target(name).unwrap();
    let dir = corpus().join(name);
    let files = files(&dir);
    assert!(
        !files.is_empty(),
        "{} is empty: run fuzz/seed-corpus.sh",
        dir.display()
    );
    replay(target, &files);
}

#[test]
fn corpus_decode() {
    replay_target("decode");
}

#[test]
fn corpus_roundtrip() {
    replay_target("roundtrip");
}

#[test]
fn corpus_differential_literal() {
    replay_target("differential_literal");
}

#[test]
fn corpus_differential_std() {
    replay_target("differential_std");
}

#[test]
fn corpus_streaming() {
    replay_target("streaming");
}

#[test]
fn corpus_document() {
    replay_target("document");
}

#[test]
fn corpus_fast_validate() {
    replay_target("fast_validate");
}

#[test]
fn corpus_fast_decode() {
    replay_target("fast_decode");
}

#[test]
fn corpus_fast_transcode() {
    replay_target("fast_transcode");
}

#[test]
fn corpus_utf_inf8_roundtrip() {
    replay_target("utf_inf8_roundtrip");
}

#[test]
fn corpus_utf_inf8_differential_literal() {
    replay_target("utf_inf8_differential_literal");
}

#[test]
fn corpus_utf_inf8_streaming() {
    replay_target("utf_inf8_streaming");
}

#[test]
fn corpus_encoding() {
    replay_target("encoding");
}

/// Each target has a corpus test above, a `[[bin]]` in `fuzz/Cargo.toml`, a libFuzzer
/// target, an AFL target and an options file (its `max_len`), and each libFuzzer target
/// is one of `TARGETS` (so that its corpus is replayed here).
#[test]
fn every_target_is_wired_up() {
    let this = include_str!("corpus_replay.rs");
    let fuzz = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fuzz");
    let manifest = fs::read_to_string(fuzz.join("Cargo.toml")).unwrap();
    let mut bins = Vec::new();
    for line in manifest.lines() {
        let Some(name) = line
            .strip_prefix("name = \"")
            .and_then(|l| l.strip_suffix('"'))
        else {
            continue;
        };
        if name != "corrected-utf8-fuzz" {
            bins.push(name);
            assert!(
                checks::target(name).is_some(),
                "fuzz target {name} is not in conformance_checks::TARGETS, so its corpus is never replayed"
            );
        }
    }
    for t in TARGETS {
        assert!(
            bins.contains(&t.name),
            "no [[bin]] named {} in fuzz/Cargo.toml, so cargo fuzz cannot run it",
            t.name
        );
        assert!(
            this.contains(&format!("fn corpus_{}()", t.name)),
            "no corpus_{} test",
            t.name
        );
        for file in [
            fuzz.join("fuzz_targets").join(format!("{}.rs", t.name)),
            fuzz.join("afl/src/bin").join(format!("{}.rs", t.name)),
        ] {
            assert!(file.is_file(), "{} is missing", file.display());
        }
        // Its input bound, read by every fuzzing script and by ClusterFuzzLite/OSS-Fuzz.
        let options = fuzz.join("options").join(format!("{}.options", t.name));
        let text =
            fs::read_to_string(&options).unwrap_or_else(|e| panic!("{}: {e}", options.display()));
        assert!(
            text.lines().any(|l| l == "[libfuzzer]")
                && text.lines().any(|l| l
                    .strip_prefix("max_len = ")
                    .is_some_and(|n| n.parse::<usize>().is_ok_and(|n| n > 0))),
            "{} has no `[libfuzzer]` section with `max_len = N`",
            options.display()
        );
    }
}

/// `fuzz/fuzz.dict`: each `c8_XXXX` token is the Corrected UTF-8 encoding of U+XXXX and
/// each `u8_XXXX` its UTF-8 encoding, so the dictionary says what it means.
#[test]
fn dictionary_tokens_mean_what_they_say() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fuzz/fuzz.dict");
    let dict = fs::read_to_string(&path).unwrap();
    let mut named = 0;
    for line in dict
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
    {
        let (name, value) = line
            .split_once('=')
            .unwrap_or_else(|| panic!("bad line {line:?}"));
        let value = value
            .strip_prefix('"')
            .and_then(|v| v.strip_suffix('"'))
            .unwrap_or_else(|| panic!("bad value in {line:?}"));
        let bytes: Vec<u8> = value
            .split("\\x")
            .skip(1)
            .map(|h| u8::from_str_radix(h, 16).unwrap_or_else(|_| panic!("bad escape in {line:?}")))
            .collect();
        let encode = match name.get(..3) {
            Some("c8_") => |cp| corrected_utf8::corrected::encode([cp]),
            Some("u8_") => |cp| corrected_utf8::utf8::encode([cp]),
            _ => continue,
        };
        let cp = u32::from_str_radix(&name[3..], 16).unwrap();
        assert_eq!(encode(cp).as_deref(), Ok(&bytes[..]), "{line}");
        named += 1;
    }
    assert!(
        named > 20,
        "only {named} named tokens in {}",
        path.display()
    );
}

/// One test per file of `corpus/regressions/`: `test_name => "file-name"`. The file
/// name starts with its target's name and a `-`.
macro_rules! regressions {
    ($($test:ident => $file:literal,)*) => {
        const REGRESSIONS: &[&str] = &[$($file),*];
        $(
            #[test]
            fn $test() {
                replay_regression($file);
            }
        )*
    };
}

fn replay_regression(file: &str) {
    let target = TARGETS
        .into_iter()
        .filter(|t| file.starts_with(&format!("{}-", t.name)))
        .max_by_key(|t| t.name.len())
        .unwrap_or_else(|| panic!("regression {file:?} does not start with a target's name"));
    replay(target, &[corpus().join("regressions").join(file)]);
}

regressions! {
    // The first crash the fuzzers found: AddressSanitizer, a 64-byte store past the
    // output buffer in the AVX-512 UTF-8 -> Corrected UTF-8 transcoder's checking loop
    // (an invalid block of 2-byte leads kept up to 4 bytes a lane; it reserved for 99).
    fast_transcode_avx512_invalid_block_writes_past_buffer => "fast_transcode-avx512-invalid-block-writes-past-buffer",
    // The same bug found again by a second fuzzing run: 64 Corrected UTF-8 leads in a block, each lane encoding 4 bytes of UTF-8: the
    // AVX-512 transcoder's stores ran past the room it reserved (ASan, 60 s of fuzzing).
    fast_transcode_avx512_64_leads_overrun_room => "fast_transcode-avx512-64-leads-overrun-room",
}

#[test]
fn every_regression_has_a_test() {
    let dir = corpus().join("regressions");
    let on_disk: Vec<String> = files(&dir)
        .iter()
        .map(|p| p.file_name().unwrap().to_string_lossy().into_owned())
        .filter(|n| n != "README.md")
        .collect();
    for name in &on_disk {
        assert!(
            REGRESSIONS.contains(&name.as_str()),
            "corpus/regressions/{name} has no test: add it to `regressions!` in {}",
            file!()
        );
    }
    // Replay them all here too, so a file is checked even before its test exists.
    for name in &on_disk {
        replay_regression(name);
    }
    for name in REGRESSIONS {
        assert!(
            on_disk.iter().any(|n| n == name),
            "corpus/regressions/{name} is missing"
        );
    }
}
