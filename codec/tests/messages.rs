//! Snapshots of every error message (insta).

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
