//! `exhaustive --adapter` checkpoints: one made for another implementation, or behind a
//! changed file of the command, or edited, is refused; one that never ends (a FIFO,
//! `/dev/zero`) is refused before a byte is read.

use super::*;
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
