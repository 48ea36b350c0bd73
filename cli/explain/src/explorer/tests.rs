use super::*;
use serde_json::{json, Value};

fn ask(request: &str) -> Value {
    serde_json::from_str(&respond(request)).unwrap()
}

fn error_of(request: &str) -> String {
    let answer = ask(request);
    answer["error"]
        .as_str()
        .unwrap_or_else(|| panic!("{request:?} is answered without an error: {answer}"))
        .to_string()
}

#[test]
fn the_issue_s_examples() {
    let a = ask("corrected-utf8 decode hex\necbda0");
    assert_eq!(a["segments"][0]["codepoint"], "U+E000");
    assert_eq!(
        a["segments"][0]["row"]["label"],
        "3-byte row (raw ≥ CF60), offset 4 256"
    );
    assert_eq!(a["segments"][0]["row"]["offset"], 4256);
    assert_eq!(a["bytes"][0]["role"], "lead of 3");
    assert_eq!(a["bytes"][1]["role"], "continuation");
    assert_eq!(a["result"], "valid");

    let a = ask("utf-8 decode hex\nedbf80");
    assert_eq!(
        a["vector"]["output"],
        json!([
            {"error": "surrogate", "offset": 0, "length": 1},
            {"error": "unexpected-continuation", "offset": 1, "length": 1},
            {"error": "unexpected-continuation", "offset": 2, "length": 1},
        ])
    );
    assert_eq!(a["segments"][0]["lines"][1], "ED BF begins a surrogate");
    assert_eq!(
        a["strict"],
        json!({"error": "surrogate", "offset": 0, "length": 1})
    );
    assert_eq!(a["lossy"], json!(["U+FFFD", "U+FFFD", "U+FFFD"]));
    assert_eq!(a["verdict"], "3 errors");
    assert_eq!(a["result"], "invalid");
}

#[test]
fn reserved_spans_are_not_errors() {
    let a = ask("corrected-utf8 decode hex\n41 FE FE 80 42");
    assert_eq!(a["vector"]["result"], "reserved");
    assert_eq!(a["errors"], 0);
    assert_eq!(a["reserved"], 1);
    assert_eq!(
        a["vector"]["output"][1],
        json!({"reserved": true, "offset": 1, "length": 3})
    );
    assert_eq!(
        a["strict"],
        json!({"reserved": true, "offset": 1, "length": 3})
    );
}

#[test]
fn text_is_its_utf8_bytes_or_its_code_points() {
    let a = ask("utf-8 decode text\nAé");
    assert_eq!(a["state"], "41c3a9");
    let a = ask("corrected-utf8 encode text\nA\u{E000}");
    assert_eq!(a["state"], "41,e000");
    assert_eq!(a["vector"], json!({"bytes": "41ecbda0", "result": "valid"}));
    assert_eq!(a["items"][1]["hex"], "EC BD A0");
    assert_eq!(a["items"][1]["segment"]["offset"], 1);
}

#[test]
fn encoding_stops_at_the_first_unencodable_code_point() {
    let a = ask("utf-8 encode hex\nU+41, d800 U+110000");
    assert_eq!(
        a["vector"],
        json!({"index": 1, "error": "surrogate", "result": "invalid"})
    );
    assert_eq!(
        a["failure"]["message"],
        "U+D800 has no utf-8 encoding: surrogate"
    );
    assert_eq!(a["items"].as_array().unwrap().len(), 1);
    let a = ask("utf-inf-8 encode hex\n");
    assert_eq!(a["vector"], json!({"bytes": "", "result": "valid"}));
}

#[test]
fn documents_are_checked() {
    let a = ask("corrected-utf8 document hex\nefb79dedb2ae000a 41 00 0d");
    assert_eq!(a["magic"], true);
    let kinds: Vec<&str> = a["vector"]["findings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| f["kind"].as_str().unwrap())
        .collect();
    assert_eq!(kinds, ["nul", "cr", "missing-final-newline"]);
    assert_eq!(a["vector"]["result"], "invalid");
    assert_eq!(a["decoding"]["segments"][0]["codepoint"], "U+10E7D");
    assert_eq!(
        error_of("utf-8 document hex\n41"),
        "the document check is for corrected-utf8 documents, not utf-8"
    );
}

#[test]
fn bad_requests_say_what_is_wrong() {
    assert_eq!(
        error_of("utf-8 decode hex\nC0A"),
        "'C0A' has an odd number of hex digits"
    );
    assert_eq!(
        error_of("utf-8 decode hex\nzz"),
        "'zz' has 'z', not a hex digit"
    );
    assert_eq!(
        error_of("utf-9 decode hex\n41"),
        "unknown encoding 'utf-9': corrected-utf8, utf-8 or utf-inf-8"
    );
    assert_eq!(
        error_of("utf-8 transcode hex\n41"),
        "unknown operation 'transcode': decode, encode or document"
    );
    assert_eq!(
        error_of("utf-8 decode\n41"),
        "a request starts with 'ENCODING OP SYNTAX', not 'utf-8 decode'"
    );
    assert_eq!(
        error_of("utf-8 encode hex\n41 U+x"),
        "code point 2: 'U+x' is not a code point: expected hex digits, as in U+00CF"
    );
    // Above the encoding's range: a result, not a request error.
    let a = ask("corrected-utf8 encode hex\nU+8421109F U+842110A0");
    assert_eq!(a["failure"]["error"], "out-of-range");
}

#[test]
fn inputs_are_bounded() {
    let mib = "41".repeat(512 * 1024);
    assert_eq!(
        error_of(&format!("utf-8 decode hex\n{mib}")),
        "the input is 1 MiB of text; the explorer takes at most 512 KiB (use cutf8 for more)"
    );
    let over = "41".repeat(MAX_INPUT_BYTES + 1);
    assert_eq!(
        error_of(&format!("utf-8 decode hex\n{over}")),
        "the input is 131 073 bytes; the explorer explains at most 128 KiB (use cutf8 for more)"
    );
    let many = "41 ".repeat(MAX_CODE_POINTS + 1);
    assert!(
        error_of(&format!("utf-8 encode hex\n{many}")).starts_with("more than 32 768 code points")
    );
    // At the bound: explained, the detail cut, the vector field complete.
    let full = "80".repeat(MAX_INPUT_BYTES);
    let a = ask(&format!("utf-8 decode hex\n{full}"));
    assert_eq!(a["detailed"], DETAIL_BYTES);
    assert_eq!(a["bytes"].as_array().unwrap().len(), DETAIL_BYTES);
    assert_eq!(a["segments"].as_array().unwrap().len(), DETAIL_BYTES);
    assert_eq!(a["summary"].as_array().unwrap().len(), SHOWN_EVENTS);
    assert_eq!(a["events"], MAX_INPUT_BYTES);
    assert_eq!(
        a["vector"]["output"].as_array().unwrap().len(),
        MAX_INPUT_BYTES
    );
}

/// The vector fields of the explorer's answer are every vector's expected result: what
/// the browser test checks on a sample through the WebAssembly build, checked here
/// natively for every case. As the page does, by the fields a case has, whatever its
/// schema: `input` (hex) is decoded, or checked in a `document` file; `codepoint` is
/// encoded alone, `codepoints` as a list (vectors 2.5's `encode-string`); every other
/// field but `tcId`, `comment` and `flags` is an expected result.
#[test]
fn answers_are_every_vector_s_expected_result() {
    let mut checked = 0;
    for file in corrected_utf8_vectors::EMBEDDED {
        let json: Value = serde_json::from_str(file.text).unwrap();
        let encoding = json["encoding"].as_str().unwrap();
        let schema = json["schema"].as_str().unwrap();
        for group in json["testGroups"].as_array().unwrap() {
            for test in group["tests"].as_array().unwrap() {
                let (request, single) = if let Some(hex) = test["input"].as_str() {
                    let op = if schema == "document" {
                        "document"
                    } else {
                        "decode"
                    };
                    (format!("{encoding} {op} hex\n{hex}"), false)
                } else if let Some(cp) = test["codepoint"].as_str() {
                    (format!("{encoding} encode hex\n{cp}"), true)
                } else if let Some(list) = test["codepoints"].as_array() {
                    let list: Vec<&str> = list.iter().map(|c| c.as_str().unwrap()).collect();
                    (format!("{encoding} encode hex\n{}", list.join(" ")), false)
                } else {
                    panic!(
                        "{} tcId {}: no input this test knows",
                        file.path, test["tcId"]
                    );
                };
                let mut want = test.as_object().unwrap().clone();
                for field in [
                    "tcId",
                    "comment",
                    "flags",
                    "input",
                    "codepoint",
                    "codepoints",
                ] {
                    want.remove(field);
                }
                let mut got = ask(&request)["vector"].as_object().unwrap().clone();
                if single {
                    // One code point: the list's index is 0, and not a field of the case.
                    got.remove("index");
                }
                assert_eq!(got, want, "{} tcId {}", file.path, test["tcId"]);
                checked += 1;
            }
        }
    }
    assert!(checked > 3000, "{checked} cases");
}
