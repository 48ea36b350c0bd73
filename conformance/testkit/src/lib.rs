//! The conformance harness of Corrected UTF-8, UTF-8 and UTF-∞-8 as a library, for a
//! Rust implementation to run in its own `cargo test` and `cargo fuzz`, with no
//! subprocess and no adapter.
//!
//! Implement [`Implementation`] for your decoder or encoder: say which [`Encoding`] it
//! implements, and override the methods it really has (every one defaults to `None`,
//! "not supported"). Then:
//!
//! * [`check_vectors`] runs every JSON test vector of that encoding (embedded in this
//!   crate at build time, so nothing needs to be beside it);
//! * [`check_exhaustive`] walks every input of `1..=max_len` bytes and compares the answers
//!   with the spec-literal decoders (`conformance-literal`);
//! * [`check_fuzz`] is a deterministic loop over structure-aware random inputs (table
//!   edges, truncations, `FE`/`FF` runs, the document magic number, UTF-∞-8 long forms),
//!   [`check_inputs`] replays given byte strings (a fuzz corpus, past crashes), and
//!   [`fuzz_one`] is the property for a `cargo fuzz` or AFL target.
//!
//! Every check compares exactly what the implementation gives: the full events of
//! [`decode`](Implementation::decode), or only a [lossy](Implementation::decode_lossy)
//! or [strict](Implementation::decode_strict) decode, a [validity](Implementation::validity),
//! [`encode`](Implementation::encode), the [document checker](Implementation::check_document),
//! and the streaming hooks ([`decode_chunks`](Implementation::decode_chunks),
//! [`check_document_chunks`](Implementation::check_document_chunks)), which get every input
//! cut at every point and byte by byte. A check returns a [`Report`]; it fails when
//! anything disagrees, when a method answers some cases and `None` for others, and when
//! the implementation gives nothing checkable at all. The `assert_*` functions panic with
//! the report, which names each failing case, its input in hex, the method, the expected
//! and the actual answer.
//!
//! The behaviour checked is the project's `docs/semantics.md`; the event shapes are those
//! of `vectors/README.md`.
//!
//! # Example
//!
//! Rust's standard library is a UTF-8 implementation that gives a strict decode
//! (`str::from_utf8`, whose error has `valid_up_to` and `error_len` but no kind), a lossy
//! decode and an encoder (`char::from_u32`, whose failure has no kind either):
//!
//! ```
//! use conformance_testkit::{CodePoint, Encoding, Implementation, Stop};
//!
//! struct Std;
//!
//! impl Implementation for Std {
//!     fn encoding(&self) -> Encoding {
//!         Encoding::Utf8
//!     }
//!
//!     fn decode_strict(&self, input: &[u8]) -> Option<Result<Vec<CodePoint>, Stop>> {
//!         Some(match std::str::from_utf8(input) {
//!             Ok(s) => Ok(s.chars().map(CodePoint::from).collect()),
//!             Err(e) => Err(Stop::Error {
//!                 kind: None,
//!                 offset: e.valid_up_to(),
//!                 // `None`: the input ends inside the sequence, which is the span.
//!                 length: e.error_len().unwrap_or(input.len() - e.valid_up_to()),
//!             }),
//!         })
//!     }
//!
//!     fn decode_lossy(&self, input: &[u8]) -> Option<Vec<CodePoint>> {
//!         Some(String::from_utf8_lossy(input).chars().map(CodePoint::from).collect())
//!     }
//!
//!     fn encode(&self, code_point: &CodePoint) -> Option<Result<Vec<u8>, Option<conformance_testkit::Kind>>> {
//!         // The encoder takes any 32-bit value; `char` knows only that some fail.
//!         let value = code_point.to_u32()?;
//!         Some(match char::from_u32(value) {
//!             Some(c) => Ok(c.to_string().into_bytes()),
//!             None => Err(None),
//!         })
//!     }
//! }
//!
//! // In a test: every utf-8 vector, every input of 1 or 2 bytes, 2 000 fuzz inputs.
//! conformance_testkit::assert_vectors(&Std);
//! conformance_testkit::assert_exhaustive(&Std, 2);
//! conformance_testkit::assert_fuzz(&Std, 1, 2_000);
//!
//! // A report says what was compared.
//! let report = conformance_testkit::check_vectors(&Std);
//! assert!(report.passed());
//! println!("{report}");
//! ```
//!
//! And a `cargo fuzz` target (`fuzz/fuzz_targets/conformance.rs`):
//!
//! ```ignore
//! #![no_main]
//! libfuzzer_sys::fuzz_target!(|data: &[u8]| conformance_testkit::fuzz_one(&my_crate::MyDecoder, data));
//! ```
//!
//! `check_exhaustive` with `max_len` 2 takes well under a second; with 3 it walks
//! 16 843 008 inputs, from 15 s for an implementation with three operations to a few
//! minutes for one with every operation (the streaming hooks get each input cut at every
//! point, and Corrected UTF-8 inputs are also checked as documents): put it in an
//! `#[ignore]`d test.
#![deny(missing_docs)]

mod check;
mod exhaustive;
mod fuzz;
mod oracle;
mod report;
mod types;
mod vectors;

pub use report::{Failure, Op, Report, MAX_FAILURES};
pub use types::{CodePoint, Encoding, Event, Finding, FindingKind, Kind, Stop, Validity};

/// What [`Implementation::encode_string`] answers: the bytes of the whole list, or the
/// first failing code point's 0-based index and, if the API names it, its kind.
pub type StringEncoding = Result<Vec<u8>, (usize, Option<Kind>)>;

/// A Rust implementation of one of the three encodings, as the checks see it.
///
/// Only [`encoding`](Implementation::encoding) is required. Every other method returns
/// `None` by default, meaning "this implementation does not have this operation"; override
/// the ones it has, and answer them for **every** input (a method that answers some cases
/// and `None` for others fails the check, as a declared field missing from an answer
/// fails in the adapter protocol). Answer what the implementation computes, not what can
/// be derived: each answer given is compared with the expected one.
///
/// The answers follow `docs/semantics.md` §1: a decoder turns bytes into [`Event`]s (code
/// points, error spans that are maximal subparts, and in Corrected UTF-8 reserved spans,
/// which are not errors); a lossy decode has one U+FFFD per span; a strict decode stops
/// at the first span of either class; validity has three outcomes.
pub trait Implementation {
    /// The encoding this implements; the checks use its vectors and its oracle.
    fn encoding(&self) -> Encoding;

    /// A name for reports (by default the type's name).
    fn name(&self) -> String {
        std::any::type_name::<Self>().to_owned()
    }

    /// UTF-∞-8: the code length limit in bytes (`docs/semantics.md` §4.3). The vectors
    /// assume the default, 65 536. With another limit, the vectors made for it (flags
    /// `LimitExceeded`, `LimitSpan`, `AtLimit`, `LargeInput`) are skipped, the other
    /// decode vectors' inputs are checked against the spec-literal decoder at this limit,
    /// and so are the exhaustive walk and the fuzz checks. Ignored for the other
    /// encodings.
    fn code_length_limit(&self) -> usize {
        vectors::DEFAULT_LIMIT
    }

    /// Every event of `input`, in order, with byte offsets into `input`.
    fn decode(&self, input: &[u8]) -> Option<Vec<Event>> {
        let _ = input;
        None
    }

    /// The streaming decoder: feed the chunks in order to a new decoder, then finish it,
    /// and return every event (offsets into the whole stream). The checks cut each input
    /// at every point (two chunks) and byte by byte, with empty chunks at both ends;
    /// every chunking must give the events of the whole input (`docs/semantics.md` §2.5).
    fn decode_chunks(&self, chunks: &[&[u8]]) -> Option<Vec<Event>> {
        let _ = chunks;
        None
    }

    /// Lossy decode: every code point, with one U+FFFD in place of each error span and
    /// each reserved span.
    fn decode_lossy(&self, input: &[u8]) -> Option<Vec<CodePoint>> {
        let _ = input;
        None
    }

    /// Strict decode: every code point, or where and why it stops, the first span of
    /// either class ([`Stop::Error`] with `kind: None` if the implementation does not
    /// name kinds).
    fn decode_strict(&self, input: &[u8]) -> Option<Result<Vec<CodePoint>, Stop>> {
        let _ = input;
        None
    }

    /// Validation with three outcomes: valid, reserved (Corrected UTF-8: no error span,
    /// at least one reserved span) or invalid.
    fn validity(&self, input: &[u8]) -> Option<Validity> {
        let _ = input;
        None
    }

    /// Validation as yes or no: `true` exactly when `input` decodes to code points alone
    /// (a reserved input is not valid).
    fn is_valid(&self, input: &[u8]) -> Option<bool> {
        let _ = input;
        None
    }

    /// The encoding of one code point, or why it has none: `Err(Some(kind))` names the
    /// kind (`surrogate`, `out-of-range`, `c1-control`), `Err(None)` only says that it
    /// failed. The Corrected UTF-8 and UTF-8 encoders take any 32-bit value, UTF-∞-8's any
    /// value (code points of thousands of digits); return `None` for a value the API
    /// cannot take (the vectors then count it as unsupported).
    fn encode(&self, code_point: &CodePoint) -> Option<Result<Vec<u8>, Option<Kind>>> {
        let _ = code_point;
        None
    }

    /// The encoding of a list of code points (SPEC, "Encoding a string"): the
    /// concatenation of each one's bytes, or the first that has none: its 0-based index
    /// and, as for [`Implementation::encode`], its kind if the API names it. Implement it
    /// with the API's own string encoder (`encode_all`, `TextEncoder.encode`, …), never
    /// by calling [`Implementation::encode`] in a loop: that would test `encode` again and
    /// leave the string encoder untested. `None` (the default): the `encode-string`
    /// vectors are not answered.
    fn encode_string(&self, code_points: &[CodePoint]) -> Option<StringEncoding> {
        let _ = code_points;
        None
    }

    /// Corrected UTF-8: the findings of the document checker for a whole file
    /// (`docs/semantics.md` §2.6), in order.
    fn check_document(&self, file: &[u8]) -> Option<Vec<Finding>> {
        let _ = file;
        None
    }

    /// Corrected UTF-8: the streaming document checker, fed these chunks, then finished.
    fn check_document_chunks(&self, chunks: &[&[u8]]) -> Option<Vec<Finding>> {
        let _ = chunks;
        None
    }
}

/// `name (encoding)`, for reports.
fn describe<I: Implementation + ?Sized>(imp: &I) -> String {
    format!("{} ({})", imp.name(), imp.encoding())
}

/// Runs every embedded vector of the implementation's encoding (decode, encode and,
/// for Corrected UTF-8, document files).
pub fn check_vectors<I: Implementation + ?Sized>(imp: &I) -> Report {
    vectors::check(imp, &[])
}

/// [`check_vectors`], leaving out the vectors that carry any of these flags (the flags
/// and what they mean: `vectors/README.md` and each file's `notes`).
pub fn check_vectors_skipping<I: Implementation + ?Sized>(imp: &I, flags: &[&str]) -> Report {
    vectors::check(imp, flags)
}

/// Walks every input of `1..=max_len` bytes (256 + 65 536 inputs for 2, 16 843 008 for
/// 3), comparing every answer with the spec-literal decoders; also encodes every code
/// point whose encoding is at most `max_len` bytes, and for Corrected UTF-8 checks every
/// input as a document.
pub fn check_exhaustive<I: Implementation + ?Sized>(imp: &I, max_len: usize) -> Report {
    exhaustive::check(imp, max_len)
}

/// A deterministic fuzz loop: `cases` structure-aware random inputs from `seed`, each
/// through the same property as [`fuzz_one`]. The same seed gives the same inputs on
/// every machine; a failure names the seed and case number.
pub fn check_fuzz<I: Implementation + ?Sized>(imp: &I, seed: u64, cases: usize) -> Report {
    let mut report = Report::new(format!("fuzz seed {seed}, {cases} cases"), describe(imp));
    let mut rng = fuzz::Rng::new(seed);
    for n in 0..cases {
        let input = fuzz::generate(&mut rng, imp.encoding());
        let name = || format!("seed {seed} case {n}");
        fuzz::one(imp, &input, &name, &mut report);
    }
    report.finish()
}

/// Replays given inputs (a fuzz corpus, inputs that once failed) through the fuzz
/// property.
pub fn check_inputs<I, B>(imp: &I, inputs: impl IntoIterator<Item = B>) -> Report
where
    I: Implementation + ?Sized,
    B: AsRef<[u8]>,
{
    let mut report = Report::new("inputs".to_owned(), describe(imp));
    for (n, input) in inputs.into_iter().enumerate() {
        let name = || format!("input {n}");
        fuzz::one(imp, input.as_ref(), &name, &mut report);
    }
    report.finish()
}

/// The fuzz property for one input from a fuzzer (`cargo fuzz`, AFL): checks everything
/// the implementation answers about `data` (decode answers whole and in chunks; encoding
/// of the code points it decodes to and of a value made from its first bytes; for
/// Corrected UTF-8 the document checker on `data` and on `data` after the magic number)
/// against the spec-literal decoders.
///
/// # Panics
///
/// With the report, on any disagreement, or when non-empty data gave nothing to compare
/// (the implementation answers `None` everywhere).
///
/// ```
/// use conformance_testkit::{Encoding, Implementation};
/// struct Validator;
/// impl Implementation for Validator {
///     fn encoding(&self) -> Encoding { Encoding::Utf8 }
///     fn is_valid(&self, input: &[u8]) -> Option<bool> { Some(std::str::from_utf8(input).is_ok()) }
/// }
/// conformance_testkit::fuzz_one(&Validator, b"\xED\xA0\x80 and \xF4\x8F\xBF\xBF");
/// ```
pub fn fuzz_one<I: Implementation + ?Sized>(imp: &I, data: &[u8]) {
    let mut report = Report::new("fuzz_one".to_owned(), describe(imp));
    fuzz::one(imp, data, &|| "fuzz input".to_owned(), &mut report);
    let report = report.finish();
    if report.failed > 0 || (report.comparisons == 0 && !data.is_empty()) {
        panic!("{report}");
    }
}

/// [`check_vectors`], panicking with the report unless it passed.
pub fn assert_vectors<I: Implementation + ?Sized>(imp: &I) {
    check_vectors(imp).assert_passed();
}

/// [`check_exhaustive`], panicking with the report unless it passed.
pub fn assert_exhaustive<I: Implementation + ?Sized>(imp: &I, max_len: usize) {
    check_exhaustive(imp, max_len).assert_passed();
}

/// [`check_fuzz`], panicking with the report unless it passed.
pub fn assert_fuzz<I: Implementation + ?Sized>(imp: &I, seed: u64, cases: usize) {
    check_fuzz(imp, seed, cases).assert_passed();
}

/// [`check_inputs`], panicking with the report unless it passed.
pub fn assert_inputs<I, B>(imp: &I, inputs: impl IntoIterator<Item = B>)
where
    I: Implementation + ?Sized,
    B: AsRef<[u8]>,
{
    check_inputs(imp, inputs).assert_passed();
}
