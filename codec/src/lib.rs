//! Reference codec for **Corrected UTF-8** and standard **UTF-8**.
//!
//! Corrected UTF-8 is a UTF-8 variant in which every byte sequence has exactly one
//! meaning: multi-byte sequences carry offsets (there are no overlongs), the C1 controls
//! and surrogates are skipped, and 5- and 6-byte sequences reach U+8421109F. `FE` and
//! `FF` are reserved for future use.
//!
//! Both encodings decode to the same [`Event`]s: a code point, an error span with a
//! [`kind`](ErrorKind), an offset and a length, or — Corrected UTF-8 only — a
//! [reserved span](ReservedSpan): `FE`/`FF` up to the next recognized lead byte,
//! "reserved for future use", which is not an error. So an input has one of three
//! [`Validity`] outcomes: **valid** (code points only), **reserved** (no error span, at
//! least one reserved span) or **invalid** (at least one error span); see
//! [`corrected::validity`]. A strict decode or a validation stops at the first span of
//! either class, and says where with a [`Stop`]. Error spans are maximal subparts
//! (Unicode D93b), so the UTF-8 decoder agrees with `std` exactly and adds a kind to
//! each span.
//!
//! | | Corrected UTF-8 | UTF-8 |
//! |---|---|---|
//! | events (no allocation) | [`corrected::events`] | [`utf8::events`] |
//! | strict / lossy / validate | [`corrected::decode`], [`corrected::decode_lossy`], [`corrected::validate`], [`corrected::validity`] | [`utf8::decode`], [`utf8::decode_lossy`], [`utf8::validate`], [`utf8::validity`] |
//! | encode | [`corrected::encode_into`], [`corrected::encode`] | [`utf8::encode_into`], [`utf8::encode`] |
//! | streams | [`corrected::StreamDecoder`] | [`utf8::StreamDecoder`] |
//! | fast paths (x86 SIMD) | [`corrected::fast`] | (`core::str::from_utf8`) |
//! | documents | [`DocumentChecker`], [`check_document`] | |
//!
//! UTF-∞-8 ([`utf_inf8`], with `alloc`) has the same operations over unbounded
//! [`BigCodePoint`]s, and a limit on a code's length (a code over it is one
//! `limit-exceeded` span).
//!
//! [`Encoding`] is a handle for any of the three, for code that chooses the encoding at
//! run time: its [`decode`](Encoding::decode), [`decode_lossy`](Encoding::decode_lossy),
//! [`events_located`](Encoding::events_located) and [`new_decoder`](Encoding::new_decoder)
//! work over [`BigCodePoint`]s.
//!
//! # Safety
//!
//! `unsafe` is confined to the x86_64 and aarch64 SIMD code of [`corrected::fast`]:
//! every block carries its `SAFETY` argument (a CPU feature checked before the call, or
//! the bounds of a load or store), the rest of the crate denies `unsafe_code`, and the
//! differential fuzz targets `fast_validate` and `fast_decode` compare every fast path
//! with the reference decoder.
//!
//! The semantics are stated in the project's `docs/semantics.md`.
//!
//! # Examples
//!
//! ```
//! use corrected_utf8::{corrected, utf8, ErrorKind};
//!
//! // `C0 AF` is an overlong `/` in UTF-8, and the unique encoding of U+00CF here.
//! assert_eq!(corrected::decode(b"\xC0\xAF"), Ok(vec![0xCF]));
//! assert_eq!(utf8::decode(b"\xC0\xAF").unwrap_err().kind, ErrorKind::Overlong);
//!
//! // Six bytes reach past U+10FFFF.
//! assert_eq!(corrected::encode([0x8421_109F]), Ok(b"\xFD\xBF\xBF\xBF\xBF\xBF".to_vec()));
//! ```
//!
//! # Features
//!
//! * `std` (default): implies `alloc`.
//! * `alloc`: the functions that return a `Vec` or `String`.
//!
//! Without them the crate is `no_std` and never allocates.
#![cfg_attr(not(feature = "std"), no_std)]
#![deny(missing_docs)]
#![deny(unsafe_code)]

#[cfg(feature = "alloc")]
extern crate alloc;

#[cfg(feature = "alloc")]
mod big;
pub mod corrected;
mod document;
mod encoding;
mod error;
mod event;
mod events;
mod pack;
mod stream;
pub mod utf8;
#[cfg(feature = "alloc")]
pub mod utf_inf8;

#[cfg(feature = "alloc")]
pub use big::{BigCodePoint, ParseCodePointError};
#[cfg(feature = "alloc")]
pub use document::check_document;
pub use document::{DocumentChecker, Finding, FindingKind, Severity};
pub use encoding::Encoding;
#[cfg(feature = "alloc")]
pub use encoding::{Decoder, EventsLocated};
pub use error::{DecodeError, EncodeError, ErrorKind};
pub use event::{Event, Located, ReservedSpan, Stop, Validity};
pub use events::Events;

/// The most bytes a [`corrected::StreamDecoder`] or [`utf8::StreamDecoder`] holds back
/// while a sequence is in progress: a 6-byte Corrected UTF-8 sequence missing its last
/// byte.
///
/// # Examples
///
/// ```
/// use corrected_utf8::{corrected::StreamDecoder, MAX_PENDING};
/// let mut decoder = StreamDecoder::new();
/// decoder.push(b"\xFC\x84\x80\x80\x80", |_| unreachable!()); // 5 of 6 bytes
/// assert_eq!(decoder.pending_len(), MAX_PENDING); // the bound is tight
/// decoder.push(b"\x80", |_| {}); // the 6th byte completes it
/// assert_ne!(decoder.pending_len(), MAX_PENDING);
/// ```
pub const MAX_PENDING: u64 = corrected::MAX_LEN as u64 - 1;

// The crate's README (its crates.io page) is compiled and run as a doctest, so its
// example cannot go stale.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
struct ReadmeExample;
