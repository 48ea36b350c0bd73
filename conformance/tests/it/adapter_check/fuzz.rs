//! `fuzz --adapter`: `--seconds` bounds the whole command, findings are told apart by
//! class, and the built-in corpus is inside the binary.

use super::*;
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
