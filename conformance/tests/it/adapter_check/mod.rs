//! `conformance fuzz --adapter` and `conformance exhaustive --adapter` against
//! deliberately broken adapters (`conformance/adapters/testing/broken_corrected.py`): each
//! bug is caught, the vector file written follows the schema, and replaying it with
//! `conformance run` (the printed command) fails against the broken adapter and passes
//! against the honest one and the reference. The honest adapter passes both commands.
//!
//! * [`checkpoints`]: `exhaustive --adapter --resume` and what a checkpoint binds to;
//! * [`fuzz`]: `fuzz --adapter`'s time bound, classes and corpus.

mod checkpoints;
mod fuzz;

use crate::common::process::{self, Finished};
use crate::common::schema::validate;
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
    crate::common::process::scratch("adapter_check", name)
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

/// What is wrong with an `exhaustive --json` report, against
/// `conformance/schema/exhaustive.schema.json`.
fn exhaustive_schema_errors(report: &Value) -> Vec<String> {
    let path = manifest().join("schema/exhaustive.schema.json");
    let schema: Value = serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    validate(&schema, report)
}

/// Each bug is caught by fuzzing within 60 s (far less with this seed), on decode only
/// so that the file to check is known. Row 7 needs complete 6-byte sequences, which
/// random bytes almost never form: the table-edge generator does.
#[test]
fn fuzz_catches_each_broken_adapter() {
    if !crate::common::prereq::python3() {
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

/// Two independent document bugs and a decode bug in one adapter: one `fuzz --seconds
/// 30` finds all three. A decode bug touches documents in as many ways as a document has
/// findings; those document disagreements are put down to the decoder (it disagrees on
/// the same input) and take one slot of the document target, not all of them, and a
/// smaller input is kept only when it fails in the same class, so the minimizer does not
/// swap one bug for another. Before, the decode bug's document classes filled the
/// document target's budget in its first batch and the two document bugs went unfuzzed.
#[test]
fn fuzz_finds_two_document_bugs_and_a_decode_bug_in_one_run() {
    if !crate::common::prereq::python3() {
        return;
    }
    let dir = scratch("fuzz-three-bugs");
    let bugs = [
        "--bug",
        "inner-magic-nul",
        "--bug",
        "magic-line",
        "--bug",
        "swallow",
    ];
    let adapter = format!("broken={}", broken(&bugs));
    let (out, text) = conformance(&[
        "fuzz",
        "--adapter",
        &adapter,
        "--seed",
        SEED,
        "--seconds",
        "30",
        "--encodings",
        "corrected-utf8",
        "--op",
        "decode,document",
        "--out",
        dir.to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(1), "{text}");
    // Each bug alone fails some of the cases found for its operation; the honest adapter
    // passes them all (they hold the reference's answers).
    for (file, bug) in [
        ("broken-corrected-utf8-document.json", "inner-magic-nul"),
        ("broken-corrected-utf8-document.json", "magic-line"),
        ("broken-corrected-utf8-decode.json", "swallow"),
    ] {
        let vectors = dir.join(file);
        assert!(vectors.exists(), "{bug}: no {file}\n{text}");
        let vectors = vectors.to_str().unwrap();
        let alone = format!("alone={}", broken(&["--bug", bug]));
        let (out, run) = conformance(&["run", "--vectors", vectors, "--adapter", &alone]);
        assert_eq!(
            out.status.code(),
            Some(1),
            "{bug} not found:\n{run}\n{text}"
        );
        let honest = format!("honest={}", honest());
        let (out, run) = conformance(&["run", "--vectors", vectors, "--adapter", &honest]);
        assert_eq!(out.status.code(), Some(0), "{run}");
    }
}

/// Every input of 1 and 2 bytes catches both bugs of the 2-byte row and the swallowed
/// byte; the encode walk's table edges catch row 7's (6-byte sequences; no code point
/// walked: edges only).
#[test]
fn exhaustive_catches_each_broken_adapter() {
    if !crate::common::prereq::python3() {
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
        assert_eq!(
            exhaustive_schema_errors(&report),
            Vec::<String>::new(),
            "{report}"
        );
        assert_eq!(
            report["vectorFiles"].as_array().unwrap().len(),
            1,
            "{report}"
        );
        let file = dir.join(format!("broken-corrected-utf8-{op}.json"));
        check_written(&String::from_utf8_lossy(&out.stdout), &file, schema);
    }
}

/// The honest adapter agrees with the spec-literal code on every input of 1 and 2 bytes
/// (Corrected UTF-8 decode) and under a few seconds of fuzzing of everything it declares.
#[test]
fn the_honest_adapter_passes_both() {
    if !crate::common::prereq::python3() {
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
    if !crate::common::prereq::python3() {
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
    if !crate::common::prereq::python3() {
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

/// Writes `text` to `dir/name` and returns its path.
fn script(dir: &Path, name: &str, text: &str) -> PathBuf {
    let path = dir.join(name);
    std::fs::write(&path, text).unwrap();
    path
}

/// The address space each command of these tests may use (`ulimit -v`, KiB): an input
/// that grows without bound fails fast instead of taking the machine's memory.
const ADDRESS_SPACE_KIB: u64 = 2 << 20;

/// `conformance ARGS` in `dir` under [`ADDRESS_SPACE_KIB`], killed as hung after
/// [`process::HANG`]; its result, its wall time and its stdout and stderr as one text.
fn capped(dir: &Path, args: &[&str]) -> (Finished, Duration, String) {
    let start = Instant::now();
    let f = process::run(process::with_memory_cap(ADDRESS_SPACE_KIB, args).current_dir(dir));
    let text = format!("{}\n--- stderr:\n{}", f.stdout, f.stderr);
    (f, start.elapsed(), text)
}

/// A protocol-2 adapter declaring only UTF-8 decode (`valid`, from Python's strict
/// decoder), with `extra` run on each request's bytes `data` before it is answered.
fn utf8_valid_adapter(extra: &str) -> String {
    format!(
        r#"import json, sys, time
for line in sys.stdin:
    req = json.loads(line)
    if req.get("op") == "hello":
        print(json.dumps({{"id": "hello", "protocol": 2, "supports": [
            {{"encoding": "utf-8", "op": "decode", "fields": ["valid"]}}]}}), flush=True)
        continue
    data = bytes.fromhex(req.get("input", ""))
{extra}
    try:
        data.decode("utf-8")
        valid = True
    except UnicodeDecodeError:
        valid = False
    print(json.dumps({{"id": req["id"], "valid": valid}}), flush=True)
"#
    )
}

/// The hello is the liveness probe. An adapter that declares only UTF-8
/// decode gets nothing else, in `exhaustive` and in `fuzz`: before, both first sent
/// `{"id": "start", "encoding": "corrected-utf8", …}`, and this adapter, which exits on
/// anything undeclared, was restarted without a word.
#[test]
fn only_what_is_declared_is_sent() {
    let dir = scratch("declared-only");
    let log = dir.join("log");
    let adapter = script(
        &dir,
        "adapter.py",
        &format!(
            "import sys\nopen({log:?}, 'a').write('start\\n')\n{}",
            utf8_valid_adapter(&format!(
                "    open({log:?}, 'a').write(line)\n    \
                 if req.get('encoding') != 'utf-8' or req.get('op') != 'decode':\n        \
                 sys.exit(3)"
            ))
        ),
    );
    let spec = format!("only-utf8=python3 {}", adapter.display());
    for args in [
        vec!["exhaustive", "--adapter", &spec, "--max-len", "1"],
        vec!["fuzz", "--adapter", &spec, "--seconds", "5", "--seed", "1"],
    ] {
        let _ = std::fs::remove_file(&log);
        let (out, _, text) = capped(&dir, &args);
        assert_eq!(out.status.code(), Some(0), "{args:?}\n{text}");
        let log = std::fs::read_to_string(&log).unwrap();
        let lines: Vec<&str> = log.lines().collect();
        assert_eq!(lines.first(), Some(&"start"), "{log}");
        assert!(
            lines.iter().filter(|l| **l == "start").count() == 1,
            "{args:?}: restarted:\n{}",
            &log[..log.len().min(2000)]
        );
        assert!(
            lines[1..]
                .iter()
                .all(|l| l.contains("\"utf-8\"") || l.contains("\"hello\"")),
            "{args:?}: something undeclared was sent:\n{}",
            &log[..log.len().min(2000)]
        );
        assert!(text.contains("started 1 time(s)"), "{text}");
    }
}

/// The verdict is printed before any file is written, and a file that
/// cannot be written is named (exit 2) without losing it: before, `--out` on a path that
/// cannot be a folder printed nothing of the 3 disagreements found. A `--json` path that
/// cannot be a report (a folder, the checkpoint) is refused before anything runs.
#[test]
fn the_verdict_comes_first_and_an_unwritable_file_is_named() {
    let dir = scratch("unwritable");
    let file = script(&dir, "a-file", "");
    let folder = dir.join("a-folder");
    std::fs::create_dir(&folder).unwrap();
    let out_dir = file.join("sub");
    let adapter = format!("broken={}", broken(&["--bug", "swallow"]));
    let (out, _, text) = capped(
        &dir,
        &[
            "exhaustive",
            "--adapter",
            &adapter,
            "--max-len",
            "2",
            "--encodings",
            "corrected-utf8",
            "--op",
            "decode",
            "--max-failures",
            "3",
            "--out",
            out_dir.to_str().unwrap(),
        ],
    );
    assert_eq!(out.status.code(), Some(2), "{text}");
    let stdout = out.stdout.clone();
    assert!(
        stdout.contains("disagreement 3: corrected-utf8 decode input c002")
            && stdout.contains("FAIL: 3 disagreement(s)"),
        "{text}"
    );
    assert!(
        out.stderr.contains(&format!(
            "cannot write {}",
            out_dir.join("broken-corrected-utf8-decode.json").display()
        )),
        "{text}"
    );
    // Nothing half-written is left behind.
    let mut left: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .collect();
    left.sort();
    assert_eq!(left, ["a-file", "a-folder"]);
    // --json on a folder, or on the checkpoint: refused before the adapter starts.
    for (json, resume, why) in [
        ("a-folder", None, "it is a folder"),
        ("ck.json", Some("ck.json"), "it is the --resume checkpoint"),
    ] {
        let mut args = vec!["exhaustive", "--adapter", &adapter, "--json", json];
        if let Some(r) = resume {
            args.extend(["--resume", r]);
        }
        let (out, _, text) = capped(&dir, &args);
        assert_eq!(out.status.code(), Some(2), "{text}");
        assert!(
            out.stderr
                .contains(&format!("cannot write the json report {json}: {why}")),
            "{text}"
        );
        assert!(out.stdout.is_empty(), "{text}");
    }

    // fuzz: the same.
    let (out, _, text) = capped(
        &dir,
        &[
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
            out_dir.to_str().unwrap(),
        ],
    );
    assert_eq!(out.status.code(), Some(2), "{text}");
    let stdout = out.stdout.clone();
    assert!(
        stdout.contains("disagreement 1: corrected-utf8 decode") && stdout.contains("FAIL: 1"),
        "{text}"
    );
    assert!(
        out.stderr.clone().contains(&format!(
            "cannot write {}",
            out_dir.join("broken-corrected-utf8-decode.json").display()
        )),
        "{text}"
    );
}

/// Every numeric option is range-checked when the command line is read
/// (exit 2, clap's message naming the option), before any adapter starts: before,
/// `fuzz --progress 1e300` panicked (exit 101) and the others were accepted.
#[test]
fn numeric_options_are_range_checked() {
    let dir = scratch("options");
    let spec = "x=exit 3";
    for args in [
        vec!["fuzz", "--adapter", spec, "--progress", "1e300"],
        vec!["fuzz", "--adapter", spec, "--progress", "0"],
        vec!["fuzz", "--adapter", spec, "--seconds", "inf"],
        vec!["fuzz", "--adapter", spec, "--seconds", "NaN"],
        vec!["fuzz", "--adapter", spec, "--seconds", "0"],
        vec!["fuzz", "--adapter", spec, "--seconds=-1"],
        vec!["fuzz", "--adapter", spec, "--seconds", "1e8"],
        vec!["fuzz", "--adapter", spec, "--max-failures", "0"],
        vec![
            "fuzz",
            "--adapter",
            spec,
            "--max-failures",
            "18446744073709551616",
        ],
        vec!["exhaustive", "--max-len", "0"],
        vec!["exhaustive", "--max-len", "7"],
        vec!["exhaustive", "--max-len", "18446744073709551615"],
        vec!["exhaustive", "--threads", "0"],
        vec!["exhaustive", "--threads", "1000000"],
        vec!["exhaustive", "--adapter", spec, "--max-failures", "0"],
        vec![
            "exhaustive",
            "--adapter",
            spec,
            "--max-codepoint",
            "U+100000000",
        ],
    ] {
        let (out, _, text) = capped(&dir, &args);
        assert_eq!(out.status.code(), Some(2), "{args:?}\n{text}");
        let stderr = out.stderr.clone();
        let option = args
            .iter()
            .rev()
            .find(|a| a.starts_with("--") && **a != "--adapter")
            .map(|a| a.split('=').next().unwrap())
            .unwrap();
        assert!(
            stderr.contains("invalid value") && stderr.contains(option),
            "{args:?}\n{text}"
        );
        assert!(!stderr.contains("panicked"), "{args:?}\n{text}");
    }
}
