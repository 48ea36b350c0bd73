//! `conformance fuzz --adapter` and `conformance exhaustive --adapter` against
//! deliberately broken adapters (`conformance/adapters/testing/broken_corrected.py`): each
//! bug is caught, the vector file written follows the schema, and replaying it with
//! `conformance run` (the printed command) fails against the broken adapter and passes
//! against the honest one and the reference. The honest adapter passes both commands.

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

/// A wrapper of the honest adapter that answers `valid: true` where `mode` says: `all`,
/// or the one input given in hex. Its hello is the honest adapter's, unchanged.
fn liar(mode: &str) -> String {
    format!(
        r#"import json, subprocess, sys
honest = subprocess.Popen([sys.executable, {honest:?}], stdin=subprocess.PIPE,
                          stdout=subprocess.PIPE, text=True)
inputs = {{}}
for line in sys.stdin:
    req = json.loads(line)
    for q in req.get("requests", [req]):
        inputs[q.get("id")] = q.get("input")
    honest.stdin.write(line)
    honest.stdin.flush()
    obj = json.loads(honest.stdout.readline())
    for r in obj.get("responses", [obj]):
        if "valid" in r and {mode:?} in ("all", inputs.get(r.get("id"))):
            r["valid"] = True
    print(json.dumps(obj), flush=True)
"#,
        honest = manifest().join("adapters/corrected_utf8.py"),
    )
}

/// `exhaustive --adapter x="sh adapter.sh" --max-len 1 … --resume ck.json`, in `dir`.
fn resume_run(dir: &Path, extra: &[&str]) -> (Finished, String) {
    let mut args = vec![
        "exhaustive",
        "--adapter",
        "x=sh adapter.sh",
        "--max-len",
        "1",
        "--encodings",
        "corrected-utf8",
        "--op",
        "decode",
        "--resume",
        "ck.json",
        "--out",
        "out",
    ];
    args.extend(extra);
    let (out, _, text) = capped(dir, &args);
    (out, text)
}

/// A checkpoint binds to the implementation it was made with. Behind the same command and
/// the same files it names, an implementation that answers `valid: true` to everything is
/// refused (its answers to the fixed probes differ), and one that lies on a single input
/// outside the probes is caught by the done units walked again at resume. A file the
/// command names that changed (the script) is refused before anything is asked.
#[test]
fn a_checkpoint_is_refused_for_another_implementation() {
    let dir = scratch("checkpoint-swap");
    // The command names adapter.sh; the implementation is impl.py, which it does not name.
    script(&dir, "adapter.sh", "exec python3 impl.py\n");
    script(&dir, "impl.py", &liar("none"));
    let (out, text) = resume_run(&dir, &[]);
    assert_eq!(out.status.code(), Some(0), "{text}");
    assert!(text.contains("PASS (complete)"), "{text}");
    // The same implementation resumes: nothing walked, every done unit walked again.
    let (out, text) = resume_run(&dir, &[]);
    assert_eq!(out.status.code(), Some(0), "{text}");
    assert!(
        text.contains("(0 in this run")
            && text.contains("1 of its units walked again")
            && text.contains("PASS (complete: 0 unit(s) walked in this run, 1 from"),
        "{text}"
    );

    script(&dir, "impl.py", &liar("all"));
    let (out, text) = resume_run(&dir, &[]);
    assert_eq!(out.status.code(), Some(2), "{text}");
    assert!(
        text.contains("answers to the 40 fixed probes differ"),
        "{text}"
    );
    assert!(!text.contains("PASS"), "{text}");

    script(&dir, "impl.py", &liar("9c"));
    let (out, text) = resume_run(&dir, &["--json", "r.json"]);
    assert_eq!(out.status.code(), Some(1), "{text}");
    assert!(
        text.contains("NOT BELIEVED") && text.contains("corrected-utf8 decode input 9c: FAIL"),
        "{text}"
    );
    let report: Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join("r.json")).unwrap()).unwrap();
    assert_eq!(
        exhaustive_schema_errors(&report),
        Vec::<String>::new(),
        "{report}"
    );
    assert_eq!(report["checkpoint"]["believed"], false, "{report}");
    assert_eq!(report["casesThisRun"], 0, "{report}");
    assert_eq!(report["complete"], false, "{report}");
}

/// A checkpoint binds to the files its command names: an honest adapter's checkpoint, then
/// the same command line with its script edited to answer `C0 AF` as valid, is refused
/// (exit 2, naming the file) — before, it passed with 0 cases checked in that run.
#[test]
fn a_checkpoint_is_refused_when_a_file_of_the_command_changed() {
    let dir = scratch("checkpoint-files");
    script(&dir, "adapter.sh", "exec python3 honest.py\n");
    script(&dir, "honest.py", &liar("none"));
    let run = |dir: &Path| {
        let (out, _, text) = capped(
            dir,
            &[
                "exhaustive",
                "--adapter",
                "x=sh adapter.sh",
                "--max-len",
                "2",
                "--encoding",
                "corrected-utf8",
                "--op",
                "decode",
                "--resume",
                "ck.json",
                "--out",
                "out",
            ],
        );
        (out, text)
    };
    let (out, text) = run(&dir);
    assert_eq!(out.status.code(), Some(0), "{text}");
    script(&dir, "adapter.sh", "exec python3 lie.py\n");
    script(&dir, "lie.py", &liar("c0af"));
    let (out, text) = run(&dir);
    assert_eq!(out.status.code(), Some(2), "{text}");
    assert!(
        text.contains("made by another walk or implementation") && text.contains("its files"),
        "{text}"
    );
    assert!(!text.contains("PASS"), "{text}");
}

/// The SHA-256 checksum a checkpoint carries, computed as documented (compact JSON of
/// every key but `checksum`, in file order) by Python, so that this test also pins the
/// format.
fn forge_checksum(path: &Path) {
    let status = Command::new("python3")
        .arg("-c")
        .arg(
            r#"import hashlib, json, sys
p = sys.argv[1]
c = json.load(open(p))
c.pop("checksum", None)
text = json.dumps(c, separators=(",", ":"), ensure_ascii=False)
c["checksum"] = "sha256:" + hashlib.sha256(text.encode()).hexdigest()
json.dump(c, open(p, "w"), indent=2)
"#,
        )
        .arg(path)
        .status()
        .unwrap();
    assert!(status.success());
}

/// A checkpoint edited to claim more than was walked is refused (its
/// checksum), and one forged with a recomputed checksum is caught by the sample.
#[test]
fn an_edited_checkpoint_is_refused() {
    let dir = scratch("checkpoint-edit");
    script(&dir, "liar.py", &liar("9c"));
    script(&dir, "adapter.sh", "exec python3 liar.py\n");
    let (out, text) = resume_run(&dir, &[]);
    assert_eq!(out.status.code(), Some(1), "{text}");
    let path = dir.join("ck.json");
    let mut ck: Value = serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
    // The unit with the disagreement is not done; claim it is.
    assert_eq!(ck["done"], serde_json::json!([]), "{ck}");
    ck["done"] = serde_json::json!([[0, 0]]);
    std::fs::write(&path, serde_json::to_string_pretty(&ck).unwrap()).unwrap();
    let (out, text) = resume_run(&dir, &[]);
    assert_eq!(out.status.code(), Some(2), "{text}");
    assert!(
        text.contains("ck.json: its checksum does not match its content"),
        "{text}"
    );
    forge_checksum(&path);
    let (out, text) = resume_run(&dir, &[]);
    assert_eq!(out.status.code(), Some(1), "{text}");
    assert!(
        text.contains("NOT BELIEVED") && text.contains("input 9c"),
        "{text}"
    );
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

/// `--seconds` bounds the whole command, minimizing included. This
/// adapter hangs on any input holding C0, so each such case costs the 5 s timeout: before,
/// `--seconds 15` ran for minutes (every hang of the batch, then every hang of the
/// minimizing). Now the command ends within --seconds and one case's timeout, reporting
/// the smallest input found by then. (15 s, so that the first hang, after start-up on a
/// loaded machine, still has its full 5 s timeout and shows as a TIMEOUT.)
#[test]
fn fuzz_seconds_bound_the_whole_command() {
    let dir = scratch("deadline");
    let adapter = script(
        &dir,
        "hang.py",
        &utf8_valid_adapter("    if b'\\xc0' in data:\n        time.sleep(3600)"),
    );
    let spec = format!("hang=python3 {}", adapter.display());
    let (out, took, text) = capped(
        &dir,
        &[
            "fuzz",
            "--adapter",
            &spec,
            "--seconds",
            "15",
            "--seed",
            "1",
            "--out",
            "out",
        ],
    );
    assert_eq!(out.status.code(), Some(1), "{text}");
    assert!(
        text.contains("utf-8 decode input") && text.contains(": TIMEOUT"),
        "{text}"
    );
    assert!(text.contains("time was up"), "{text}");
    // 15 s, one case's timeout (5 s) and the adapter's restarts (slow on a loaded
    // machine); far from the minutes of before. A bound, not a speed measurement.
    assert!(took < Duration::from_secs(45), "{took:?}\n{text}");
    assert!(dir.join("out/hang-utf-8-decode.json").exists(), "{text}");
}

/// Findings are told apart by class. This adapter encodes every
/// surrogate as EF BF BD (as Node's TextEncoder does): one class, found once (the other
/// surrogates counted as repeats), so `--max-failures 5` is not filled by U+D800 to
/// U+D804 and decode is fuzzed too. Before, the run stopped at 5 surrogates.
#[test]
fn fuzz_findings_are_deduplicated_by_class() {
    let dir = scratch("classes");
    let adapter = script(
        &dir,
        "surrogates.py",
        r#"import json, sys
for line in sys.stdin:
    req = json.loads(line)
    if req.get("op") == "hello":
        print(json.dumps({"id": "hello", "protocol": 2, "supports": [
            {"encoding": "utf-8", "op": "decode", "fields": ["valid"]},
            {"encoding": "utf-8", "op": "encode", "fields": ["bytes", "error"]}]}), flush=True)
        continue
    if req["op"] == "encode":
        cp = int(req["codepoint"][2:], 16)
        if 0xD800 <= cp <= 0xDFFF:
            answer = {"bytes": "efbfbd"}
        elif cp > 0x10FFFF:
            answer = {"error": None}
        else:
            answer = {"bytes": chr(cp).encode("utf-8").hex()}
    else:
        try:
            bytes.fromhex(req["input"]).decode("utf-8")
            answer = {"valid": True}
        except UnicodeDecodeError:
            answer = {"valid": False}
    answer["id"] = req["id"]
    print(json.dumps(answer), flush=True)
"#,
    );
    let spec = format!("surrogates=python3 {}", adapter.display());
    let (out, _, text) = capped(
        &dir,
        &[
            "fuzz",
            "--adapter",
            &spec,
            "--seconds",
            "6",
            "--seed",
            "1",
            "--max-failures",
            "5",
            "--out",
            "out",
        ],
    );
    assert_eq!(out.status.code(), Some(1), "{text}");
    let found: Vec<&str> = text
        .lines()
        .filter(|l| l.starts_with("disagreement ") && !l.contains("(a smaller input)"))
        .collect();
    assert_eq!(found.len(), 1, "{text}");
    assert!(
        found[0].starts_with("disagreement 1: utf-8 encode codepoint U+D"),
        "{text}"
    );
    assert!(
        text.contains("FAIL: 1 class(es) of disagreement (")
            && text.contains("more input(s) of the same classes)"),
        "{text}"
    );
    // Both operations were fuzzed.
    let per_target = text
        .lines()
        .find_map(|l| l.strip_prefix("inputs per target: "))
        .unwrap_or_else(|| panic!("{text}"));
    for part in per_target.split(", ") {
        let n: u64 = part.rsplit(' ').next().unwrap().parse().unwrap();
        assert!(n > 0, "{per_target}");
    }
    assert_eq!(per_target.split(", ").count(), 2, "{per_target}");
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

/// `exhaustive --adapter --resume` on a FIFO or `/dev/zero` is refused
/// before a byte is read (before: a FIFO blocked forever, /dev/zero grew until killed;
/// here, until the address-space limit of [`capped`]); a malformed checkpoint is named
/// with its line and column.
#[test]
#[cfg(unix)] // FIFOs and /dev/zero
fn adapter_checkpoints_that_never_end_are_refused() {
    let dir = scratch("resume-fifo");
    let honest = format!(
        "py=python3 {}",
        manifest().join("adapters/corrected_utf8.py").display()
    );
    let fifo = dir.join("fifo");
    process::mkfifo(&fifo);
    std::fs::write(dir.join("bad.json"), "{\"format\": 2,}\n").unwrap();
    for (resume, want) in [
        ("fifo", "fifo: is a FIFO (named pipe), not a regular file"),
        (
            "/dev/zero",
            "/dev/zero: is a character device, not a regular file",
        ),
        ("bad.json", "bad.json:1:14: trailing comma"),
    ] {
        let (out, _, text) = capped(
            &dir,
            &[
                "exhaustive",
                "--adapter",
                &honest,
                "--max-len",
                "1",
                "--encodings",
                "corrected-utf8",
                "--op",
                "decode",
                "--resume",
                resume,
            ],
        );
        assert_eq!(out.status.code(), Some(2), "{resume}\n{text}");
        assert!(text.contains(want), "{resume}\n{text}");
    }
}

/// The `; corpus X: N inputs, M code points` part of a fuzz run's first line.
fn corpus_line(text: &str) -> String {
    let line = text
        .lines()
        .find(|l| l.starts_with("conformance fuzz --adapter"))
        .unwrap_or_else(|| panic!("no header line:\n{text}"));
    line[line.find("; corpus ").unwrap_or_else(|| panic!("{line}"))..].to_string()
}

/// `conformance fuzz --adapter` finds its default corpus inside the
/// binary. A copy of the binary, run from an empty folder, mutates the corpus built into
/// it: the same inputs and code points as `--corpus` on the repository's `corpus/`.
/// Before, the default was `corpus/` of the build checkout, found by an absolute path: an
/// installed or copied binary whose build folder was gone fuzzed with no corpus at all.
#[test]
fn fuzz_finds_its_corpus_inside_the_binary() {
    if !crate::common::prereq::python3() {
        return;
    }
    let dir = scratch("embedded-corpus");
    let bin = dir.join("bin/conformance");
    std::fs::create_dir_all(bin.parent().unwrap()).unwrap();
    std::fs::copy(env!("CARGO_BIN_EXE_conformance"), &bin).unwrap();
    let empty = dir.join("empty");
    std::fs::create_dir(&empty).unwrap();
    // An adapter with a bug the fuzzer finds: the run ends when it has (`--max-failures
    // 1`), an event, not after a time; `--seconds` only bounds it. (An honest adapter runs
    // the whole `--seconds`, and under load answered nothing in 1 s: NOT CHECKED.)
    let adapter = format!("broken={}", broken(&["--bug", "swallow"]));
    let fuzz = |extra: &[&str]| {
        Command::new(&bin)
            .current_dir(&empty)
            .args([
                "fuzz",
                "--adapter",
                &adapter,
                "--seed",
                SEED,
                "--seconds",
                "600",
                "--max-failures",
                "1",
            ])
            .args([
                "--encodings",
                "corrected-utf8",
                "--op",
                "decode",
                "--out",
                "out",
            ])
            .args(extra)
            .output()
            .unwrap()
    };
    let header = |extra: &[&str]| {
        let out = fuzz(extra);
        let text = format!(
            "{}\n--- stderr:\n{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        );
        assert_eq!(out.status.code(), Some(1), "{text}");
        assert!(
            text.contains("disagreement 1: corrected-utf8 decode"),
            "{text}"
        );
        corpus_line(&text)
    };
    let built_in = header(&[]);
    let checkout = manifest().join("../corpus");
    let on_disk = header(&["--corpus", checkout.to_str().unwrap()]);
    let counts = |line: &str| line[line.rfind(": ").unwrap() + 2..].to_string();
    assert!(built_in.starts_with("; corpus (built in): "), "{built_in}");
    assert_eq!(counts(&built_in), counts(&on_disk), "{built_in}\n{on_disk}");
    assert!(
        !counts(&built_in).starts_with("0 ") && !counts(&built_in).contains(", 0 "),
        "{built_in}"
    );
    // An explicit --corpus that names no folder is a usage error, not a run without one.
    let out = fuzz(&["--corpus", "no-such-corpus"]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(
        stderr.contains("--corpus: cannot list no-such-corpus: "),
        "{stderr}"
    );
}
