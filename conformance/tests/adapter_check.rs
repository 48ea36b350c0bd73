//! `conformance fuzz --adapter` and `conformance exhaustive --adapter` against
//! deliberately broken adapters (`conformance/adapters/testing/broken_corrected.py`): each
//! bug is caught, the vector file written follows the schema, and replaying it with
//! `conformance run` (the printed command) fails against the broken adapter and passes
//! against the honest one and the reference. The honest adapter passes both commands.

mod common;

use common::schema::validate;
use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::time::{Duration, Instant};

const SEED: &str = "15";

fn manifest() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

fn broken(bug: &[&str]) -> String {
    format!(
        "python3 {}/adapters/testing/broken_corrected.py {}",
        manifest().display(),
        bug.join(" ")
    )
}

fn honest() -> String {
    format!(
        "python3 {}/adapters/corrected_utf8.py",
        manifest().display()
    )
}

/// A fresh folder under the target directory.
fn scratch(name: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join("adapter_check")
        .join(name);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn conformance(args: &[&str]) -> (Output, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_conformance"))
        .args(args)
        .output()
        .unwrap();
    let text = format!(
        "{}\n--- stderr:\n{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    (out, text)
}

/// The vector file follows its schema, and the printed reproduction command (run with
/// this binary) fails; the file passes against the honest adapter and the reference.
fn check_written(stdout: &str, file: &Path, schema: &str) {
    let text = std::fs::read_to_string(file).unwrap_or_else(|e| panic!("{file:?}: {e}"));
    let value: Value = serde_json::from_str(&text).unwrap();
    let schema_path = manifest().join(format!("../vectors/schema/{schema}.schema.json"));
    let schema: Value =
        serde_json::from_str(&std::fs::read_to_string(schema_path).unwrap()).unwrap();
    assert_eq!(validate(&schema, &value), Vec::<String>::new(), "{text}");
    assert_eq!(value["testGroups"][0]["tests"][0]["tcId"], 1);

    let line = stdout
        .lines()
        .find_map(|l| l.strip_prefix("reproduce: conformance "))
        .unwrap_or_else(|| panic!("no reproduction command in:\n{stdout}"));
    let bin = env!("CARGO_BIN_EXE_conformance");
    let replay = Command::new("sh")
        .arg("-c")
        .arg(format!("'{bin}' {line}"))
        .output()
        .unwrap();
    assert_eq!(
        replay.status.code(),
        Some(1),
        "{line}\n{}",
        String::from_utf8_lossy(&replay.stdout)
    );
    let file = file.to_str().unwrap();
    for args in [
        vec![
            "run",
            "--vectors",
            file,
            "--adapter",
            &format!("py={}", honest()),
        ],
        vec!["run", "--vectors", file],
    ] {
        let (out, text) = conformance(&args);
        assert_eq!(out.status.code(), Some(0), "{args:?}\n{text}");
    }
}

/// Each bug is caught by fuzzing within 60 s (far less with this seed), on decode only
/// so that the file to check is known. Row 7 needs complete 6-byte sequences, which
/// random bytes almost never form: the table-edge generator does.
#[test]
fn fuzz_catches_each_broken_adapter() {
    if !common::prereq::python3() {
        return;
    }
    for (name, bug) in [
        ("swallow", &["--bug", "swallow"][..]),
        ("row2", &["--bug", "table-row"][..]),
        ("row7", &["--bug", "table-row", "--row", "7"][..]),
    ] {
        let dir = scratch(&format!("fuzz-{name}"));
        let adapter = format!("broken={}", broken(bug));
        let start = Instant::now();
        let (out, text) = conformance(&[
            "fuzz",
            "--adapter",
            &adapter,
            "--seed",
            SEED,
            "--seconds",
            "60",
            "--max-failures",
            "1",
            "--encodings",
            "corrected-utf8",
            "--op",
            "decode",
            "--out",
            dir.to_str().unwrap(),
        ]);
        assert_eq!(out.status.code(), Some(1), "{name}: {text}");
        assert!(start.elapsed() < Duration::from_secs(60), "{name}");
        assert!(text.contains(&format!("seed {SEED}")), "{text}");
        let file = dir.join("broken-corrected-utf8-decode.json");
        check_written(&String::from_utf8_lossy(&out.stdout), &file, "decode");
        // Minimized: a truncated sequence and one byte, or one 2- or 6-byte sequence.
        let value: Value = serde_json::from_str(&std::fs::read_to_string(&file).unwrap()).unwrap();
        let input = value["testGroups"][0]["tests"][0]["input"]
            .as_str()
            .unwrap();
        assert!(input.len() <= 14, "{name}: {input}");
    }
}

/// Every input of 1 and 2 bytes catches both bugs of the 2-byte row and the swallowed
/// byte; the encode walk's table edges catch row 7's (6-byte sequences; no code point
/// walked: edges only).
#[test]
fn exhaustive_catches_each_broken_adapter() {
    if !common::prereq::python3() {
        return;
    }
    for (name, bug, op, schema) in [
        ("swallow", &["--bug", "swallow"][..], "decode", "decode"),
        ("row2", &["--bug", "table-row"][..], "decode", "decode"),
        (
            "row7",
            &["--bug", "table-row", "--row", "7"][..],
            "encode",
            "encode",
        ),
    ] {
        let dir = scratch(&format!("exhaustive-{name}"));
        let adapter = format!("broken={}", broken(bug));
        let json = dir.join("report.json");
        let (out, text) = conformance(&[
            "exhaustive",
            "--adapter",
            &adapter,
            "--max-len",
            "2",
            "--max-codepoint",
            "0",
            "--encodings",
            "corrected-utf8",
            "--op",
            op,
            "--max-failures",
            "3",
            "--out",
            dir.to_str().unwrap(),
            "--json",
            json.to_str().unwrap(),
        ]);
        assert_eq!(out.status.code(), Some(1), "{name}: {text}");
        assert!(text.contains("FAIL: 3 disagreement(s)"), "{text}");
        let report: Value = serde_json::from_str(&std::fs::read_to_string(&json).unwrap()).unwrap();
        assert_eq!(report["disagreements"].as_array().unwrap().len(), 3);
        let file = dir.join(format!("broken-corrected-utf8-{op}.json"));
        check_written(&String::from_utf8_lossy(&out.stdout), &file, schema);
    }
}

/// The honest adapter agrees with the spec-literal code on every input of 1 and 2 bytes
/// (Corrected UTF-8 decode) and under a few seconds of fuzzing of everything it declares.
#[test]
fn the_honest_adapter_passes_both() {
    if !common::prereq::python3() {
        return;
    }
    let adapter = format!("py={}", honest());
    let dir = scratch("honest");
    let (out, text) = conformance(&[
        "exhaustive",
        "--adapter",
        &adapter,
        "--max-len",
        "2",
        "--encodings",
        "corrected-utf8",
        "--op",
        "decode",
        "--out",
        dir.to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(0), "{text}");
    assert!(
        text.contains("cases: 65792") && text.contains("PASS (complete)"),
        "{text}"
    );
    let (out, text) = conformance(&[
        "fuzz",
        "--adapter",
        &adapter,
        "--seed",
        SEED,
        "--seconds",
        "4",
        "--out",
        dir.to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(0), "{text}");
    assert!(text.contains("PASS: no disagreement"), "{text}");
    assert_eq!(
        std::fs::read_dir(&dir).unwrap().count(),
        0,
        "no file written"
    );
}

/// An adapter that declares nothing (protocol 1), or nothing these commands can check,
/// is a usage error (exit 2) with a message saying so.
#[test]
fn nothing_declared_is_a_usage_error() {
    if !common::prereq::python3() {
        return;
    }
    let protocol1 = "py1=python3 -c 'import sys, json\nfor l in sys.stdin:\n    \
                     print(json.dumps({\"id\": json.loads(l)[\"id\"], \"unsupported\": True}), \
                     flush=True)'";
    let (out, text) = conformance(&["fuzz", "--adapter", protocol1, "--seconds", "1"]);
    assert_eq!(out.status.code(), Some(2), "{text}");
    assert!(text.contains("declared nothing (protocol 1)"), "{text}");
    let codec = format!(
        "cpython=python3 {}/adapters/python_codec.py",
        manifest().display()
    );
    let (out, text) = conformance(&[
        "exhaustive",
        "--adapter",
        &codec,
        "--encodings",
        "corrected-utf8",
        "--max-len",
        "1",
    ]);
    assert_eq!(out.status.code(), Some(2), "{text}");
    assert!(text.contains("declared nothing to check here"), "{text}");
}

/// `--shard` and `--resume` as in the reference's run: a resumed run skips the units
/// done, and a checkpoint of another configuration is refused.
#[test]
fn exhaustive_resumes_and_shards() {
    if !common::prereq::python3() {
        return;
    }
    let dir = scratch("resume");
    let adapter = format!("py={}", honest());
    let checkpoint = dir.join("checkpoint.json");
    // Units: decode of 1 byte, encode of U+0000..U+FFFF, the encode edges; shard 1/2
    // takes the first and the last.
    let args = |shard: &'static str| {
        vec![
            "exhaustive".to_string(),
            "--adapter".into(),
            adapter.clone(),
            "--max-len".into(),
            "1".into(),
            "--max-codepoint".into(),
            "U+FFFF".into(),
            "--encodings".into(),
            "corrected-utf8".into(),
            "--op".into(),
            "decode,encode".into(),
            "--shard".into(),
            shard.into(),
            "--resume".into(),
            checkpoint.to_str().unwrap().into(),
        ]
    };
    let run = |shard| {
        let a = args(shard);
        conformance(&a.iter().map(String::as_str).collect::<Vec<_>>())
    };
    let (out, first) = run("1/2");
    assert_eq!(out.status.code(), Some(0), "{first}");
    assert!(
        first.contains("units done: 2/2") && first.contains("PASS (partial"),
        "{first}"
    );
    let (out, again) = run("1/2");
    assert_eq!(out.status.code(), Some(0), "{again}");
    assert!(again.contains("(0 in this run"), "{again}");
    let (out, other) = run("2/2");
    assert_eq!(out.status.code(), Some(2), "{other}");
    assert!(other.contains("its shard is \"1/2\""), "{other}");
}
