//! The explorer's WebAssembly build: [`cutf8_explain::explorer::respond`] behind a small
//! C ABI, for a page that only renders (`docs/explorer.md`).
//!
//! Three exports and the module's memory, no bindings generator and no JavaScript glue
//! to ship: the page asks [`cutf8_request`] for room, writes the request's UTF-8 there,
//! calls [`cutf8_respond`] for the answer's length and reads that many bytes of JSON at
//! [`cutf8_answer`]. The two buffers belong to this module (nothing is freed by the
//! page); a pointer stays valid until the next call, and the page reads memory afresh
//! after each call, since growing it detaches the old view.
#![deny(missing_docs)]
// The only "unsafe" here is `#[no_mangle]` (the export names are the ABI, each prefixed
// `cutf8_`, so none can clash); no unsafe block, no raw pointer read or written in Rust.
#![deny(unsafe_code)]

use cutf8_explain::explorer;
use std::cell::RefCell;

/// The largest request accepted: the input's bound and room for the first line.
pub const MAX_REQUEST: usize = explorer::MAX_INPUT_TEXT + 64;

/// The request being written and the last answer.
#[derive(Default)]
struct Buffers {
    request: Vec<u8>,
    answer: Vec<u8>,
}

thread_local! {
    static BUFFERS: RefCell<Buffers> = RefCell::new(Buffers::default());
}

/// Room for a request of `len` bytes: where to write them, or null when `len` is over
/// [`MAX_REQUEST`] (the page says the input is too long before it asks).
#[allow(unsafe_code)] // `no_mangle` only: see the crate's docs
#[no_mangle]
pub extern "C" fn cutf8_request(len: usize) -> *mut u8 {
    if len > MAX_REQUEST {
        return std::ptr::null_mut();
    }
    BUFFERS.with_borrow_mut(|b| {
        b.request.clear();
        b.request.resize(len, 0);
        b.request.as_mut_ptr()
    })
}

/// Answers the request written at [`cutf8_request`]'s pointer; returns the answer's
/// length in bytes, to read at [`cutf8_answer`].
#[allow(unsafe_code)] // `no_mangle` only: see the crate's docs
#[no_mangle]
pub extern "C" fn cutf8_respond() -> usize {
    BUFFERS.with_borrow_mut(|b| {
        let request = std::mem::take(&mut b.request);
        b.answer = answer(&request).into_bytes();
        b.answer.len()
    })
}

/// Where the last answer is.
#[allow(unsafe_code)] // `no_mangle` only: see the crate's docs
#[no_mangle]
pub extern "C" fn cutf8_answer() -> *const u8 {
    BUFFERS.with_borrow(|b| b.answer.as_ptr())
}

/// The answer to a request's bytes, which the page wrote as UTF-8.
fn answer(request: &[u8]) -> String {
    match std::str::from_utf8(request) {
        Ok(text) => explorer::respond(text),
        Err(e) => format!(
            "{{\"error\":\"the request is not UTF-8 (byte {})\"}}",
            e.valid_up_to()
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The page's side of the ABI, natively: room asked for, the request written into
    /// the module's buffer (here through the buffer itself), the answer read.
    fn call(request: &[u8]) -> String {
        let at = cutf8_request(request.len());
        assert!(!at.is_null());
        BUFFERS.with_borrow_mut(|b| {
            assert_eq!(b.request.as_mut_ptr(), at);
            b.request.copy_from_slice(request);
        });
        let len = cutf8_respond();
        BUFFERS.with_borrow(|b| {
            assert_eq!(b.answer.as_ptr(), cutf8_answer());
            assert_eq!(b.answer.len(), len);
            String::from_utf8(b.answer.clone()).unwrap()
        })
    }

    #[test]
    fn answers_are_the_library_s() {
        let request = "corrected-utf8 decode hex\nec bd a0";
        assert_eq!(call(request.as_bytes()), explorer::respond(request));
        assert!(call(request.as_bytes()).contains("\"codepoint\":\"U+E000\""));
        // Twice: the buffers are reused.
        assert_eq!(
            call(b"utf-8 decode hex\n41"),
            explorer::respond("utf-8 decode hex\n41")
        );
    }

    #[test]
    fn bad_requests_are_answered_with_an_error() {
        assert_eq!(
            call(b"utf-8 decode text\n\xFF"),
            "{\"error\":\"the request is not UTF-8 (byte 18)\"}"
        );
        assert!(cutf8_request(MAX_REQUEST + 1).is_null());
        assert!(!cutf8_request(MAX_REQUEST).is_null());
        let over = format!("utf-8 decode hex\n{}", "4".repeat(MAX_REQUEST - 17));
        assert!(call(over.as_bytes()).contains("the explorer takes at most 512 KiB"));
    }
}
