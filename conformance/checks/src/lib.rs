//! Property checks shared by every fuzzing harness.
//!
//! Each target is one function taking the fuzzer's raw bytes: it decodes them into the
//! target's input (for some, a structured [`arbitrary::Arbitrary`] value), runs the
//! reference codec and panics with a clear message — the input in hex, what was
//! expected, what came out — when a property fails. The same function is called by
//!
//! * the cargo-fuzz (libFuzzer) targets in `fuzz/fuzz_targets/`,
//! * the AFL targets in `fuzz/afl/`,
//! * `cargo test` (`conformance/checks/tests/corpus_replay.rs`), which replays every file under
//!   `corpus/<target>/` and `corpus/regressions/`,
//!
//! so an input means the same thing everywhere and every crash replays on stable.
//!
//! The checks are the default feature `codec`; without it (`default-features = false`)
//! the crate is the input generator alone ([`generate`], [`minimize`], the chunked
//! inputs), with no reference codec: what the testkit uses.
//!
//! | target | property |
//! |---|---|
//! | [`decode`] | events cover the input in order; lossy, strict and validate agree with them |
//! | [`roundtrip`] | encodable exactly as SPEC says; decode(encode(x)) = x; byte order = code point order |
//! | [`differential_literal`] | reference and spec-literal decoders, encoders, document checkers agree |
//! | [`differential_std`] | UTF-8 agrees with `std`; `&str` → Corrected UTF-8 → back is unchanged |
//! | [`streaming`] | any chunking gives the one-shot events; pending bytes stay bounded |
//! | [`document`] | the document checker follows §2.6 over the decoder's events, in any chunking |
//! | [`fast::fast_validate`], [`fast::fast_decode`], [`fast::fast_transcode`] | the fast paths agree with the reference, every implementation, every misalignment |
//! | [`utf_inf8_roundtrip`], [`utf_inf8_differential_literal`], [`utf_inf8_streaming`] | UTF-∞-8: big code points round-trip in byte order; reference = spec-literal at any limit; any chunking |
//! | [`encoding`] | the run-time handles (`Encoding`, `Decoder`) agree with each encoding's module |
//!
//! A new target (UTF-∞-8, a fast path) is registered in six places besides its function
//! here: a row in [`TARGETS`], a `[[bin]]` in `fuzz/Cargo.toml`, a one-line file in
//! `fuzz/fuzz_targets/` and one in `fuzz/afl/src/bin/`, its input bound in
//! `fuzz/options/<target>.options` and a `corpus_<target>` test in
//! `tests/corpus_replay.rs` (`fuzz/README.md`); `every_target_is_wired_up` fails until
//! all of them exist. A mutation in `fuzz/teeth.sh` shows the target catches a bug. The
//! nightly scripts find the targets in `fuzz/Cargo.toml`.
//!
//! The checks run hundreds of thousands of times a second under a fuzzer: they avoid
//! allocating where they can and build their messages only when a check fails.
//!
//! Two modules serve differential testing of other implementations (`conformance fuzz
//! --adapter`, and any Rust harness): [`generate`], seeded structure-aware inputs (table
//! edges, truncations, reserved runs, magic numbers, big UTF-∞-8 codes, corpus mutation),
//! and [`minimize`], delta debugging of a failing input.
#![deny(missing_docs)]

/// The items that exist only with the `codec` feature (the checks themselves).
macro_rules! with_codec {
    ($($item:item)*) => { $( #[cfg(feature = "codec")] $item )* };
}

with_codec! {
    mod codecs;
    mod decode;
    mod differential_literal;
    mod differential_std;
    mod document;
    mod encoding;
    pub mod fast;
    mod roundtrip;
    mod streaming;
    mod utf_inf8;

    pub use decode::decode;
    pub use differential_literal::differential_literal;
    pub use differential_std::differential_std;
    pub use document::document;
    pub use encoding::encoding;
    pub use roundtrip::roundtrip;
    pub use streaming::streaming;
    pub use utf_inf8::{utf_inf8_differential_literal, utf_inf8_roundtrip, utf_inf8_streaming};
}

// The checks' failure reporting: only `hex` is used without the checks.
#[cfg_attr(
    not(feature = "codec"),
    allow(dead_code, unused_macros, unused_imports)
)]
mod fail;
pub mod generate;
mod input;
pub mod minimize;

pub use fail::hex;
pub use input::{ChunkedInput, Chunks, CodePoints};

use std::fmt::{self, Debug};

/// A fuzz target: its name (the file name in `fuzz/fuzz_targets/`, the directory under
/// `corpus/`) and its check.
#[derive(Clone, Copy)]
pub struct Target {
    /// The target's name.
    pub name: &'static str,
    /// The check: panics when a property fails.
    pub check: fn(&[u8]),
}

impl Debug for Target {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name)
    }
}

/// Every target, in the order the nightly job and the corpus replay run them.
#[cfg(feature = "codec")]
pub const TARGETS: [Target; 13] = [
    Target {
        name: "decode",
        check: decode,
    },
    Target {
        name: "roundtrip",
        check: roundtrip,
    },
    Target {
        name: "differential_literal",
        check: differential_literal,
    },
    Target {
        name: "differential_std",
        check: differential_std,
    },
    Target {
        name: "streaming",
        check: streaming,
    },
    Target {
        name: "document",
        check: document,
    },
    Target {
        name: "fast_validate",
        check: fast::fast_validate,
    },
    Target {
        name: "fast_decode",
        check: fast::fast_decode,
    },
    Target {
        name: "fast_transcode",
        check: fast::fast_transcode,
    },
    Target {
        name: "utf_inf8_roundtrip",
        check: utf_inf8_roundtrip,
    },
    Target {
        name: "utf_inf8_differential_literal",
        check: utf_inf8_differential_literal,
    },
    Target {
        name: "utf_inf8_streaming",
        check: utf_inf8_streaming,
    },
    Target {
        name: "encoding",
        check: encoding,
    },
];

/// The target named `name`, if any.
#[cfg(feature = "codec")]
pub fn target(name: &str) -> Option<Target> {
    TARGETS.into_iter().find(|t| t.name == name)
}
