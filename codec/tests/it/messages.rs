//! Snapshots of every error message (insta).

use corrected_utf8::corrected::fast;
use corrected_utf8::{check_document, corrected, utf8, DecodeError, ErrorKind};
use std::fmt::Write;

#[test]
fn decode_error_messages() {
    let mut out = String::new();
    for kind in ErrorKind::ALL {
        for length in [1, 2] {
            writeln!(
                out,
                "{}",
                DecodeError {
                    kind,
                    offset: 7,
                    length
                }
            )
            .unwrap();
        }
    }
    insta::assert_snapshot!(out);
}

#[test]
fn encode_error_messages() {
    let mut out = String::new();
    for cp in [0x80, 0xD800, 0x8421_10A0, u32::MAX] {
        writeln!(
            out,
            "corrected-utf8: {}",
            corrected::encode([cp]).unwrap_err()
        )
        .unwrap();
    }
    for cp in [0xDFFF, 0x11_0000] {
        writeln!(out, "utf-8: {}", utf8::encode([cp]).unwrap_err()).unwrap();
    }
    insta::assert_snapshot!(out);
}

#[test]
fn finding_messages() {
    let mut out = String::new();
    let file = b"\x00\t\r\x80\xFE\xE1\x9E\x88\xE1\x9E\x89\n\xC0";
    for finding in check_document(file) {
        writeln!(out, "{finding}").unwrap();
    }
    insta::assert_snapshot!(out);
}

#[test]
fn stop_and_transcode_error_messages() {
    let mut out = String::new();
    for input in [&b"ab\xFE"[..], b"ab\xFF\x80\x80", b"ab\xE0\x80"] {
        writeln!(out, "stop: {}", fast::validate(input).unwrap_err()).unwrap();
        let e = fast::transcode_to_utf8(input, &mut Vec::new()).unwrap_err();
        writeln!(out, "to utf-8: {e}").unwrap();
    }
    let big = corrected::encode([0x41, 0x11_0000]).unwrap();
    let e = fast::transcode_to_utf8(&big, &mut Vec::new()).unwrap_err();
    writeln!(out, "to utf-8: {e}").unwrap();
    for input in ["a\u{85}".as_bytes(), b"\xED\xA0\x80"] {
        let e = fast::utf8_to_corrected(input, &mut Vec::new()).unwrap_err();
        writeln!(out, "from utf-8: {e}").unwrap();
    }
    insta::assert_snapshot!(out);
}
