//! Byte-by-byte explanations of **Corrected UTF-8**, **UTF-8** and **UTF-∞-8**, as data.
//!
//! One explanation, two faces: `cutf8 explain` renders it as a table in a terminal, and
//! the explorer (a static web page over this crate compiled to WebAssembly) renders the
//! JSON of [`explorer::respond`]. Neither computes anything of its own: every code point,
//! span, row and offset comes from here, and every event from the reference codec
//! (`corrected-utf8`).
//!
//! * [`decode::explain`]: the input cut into [`Segment`]s, exactly the codec's events (a
//!   sequence, an error span or a reserved span), each with its row or form, its bits
//!   and a few lines of text saying how it decodes or why it fails; [`Decoding`] adds
//!   each byte's role, the lossy output, the strict decode's stop and the three-valued
//!   result.
//! * [`encode::explain`]: a list of code points encoded, each with the explanation of
//!   its bytes, up to the first that has no encoding (`docs/semantics.md` §1).
//! * [`document::explain`]: a Corrected UTF-8 document's findings, and its decoding.
//! * [`hex`] and [`codepoint`]: the input syntaxes both faces accept.
//!
//! # Example
//!
//! ```
//! use corrected_utf8::Encoding;
//! use cutf8_explain::decode::{self, Decoding};
//!
//! // EC BD A0 is U+E000 in Corrected UTF-8: raw 0xCF60 + 4 256, the 3-byte row above the split.
//! let decoding = Decoding::new(&[0xEC, 0xBD, 0xA0], Encoding::CorrectedUtf8, None);
//! let segment = &decoding.segments[0];
//! assert_eq!(segment.short, "U+E000");
//! assert_eq!(segment.lines[0], "U+E000 = raw 0xCF60 + 4 256");
//! assert_eq!(segment.row.as_ref().unwrap().offset, Some(4256));
//! assert_eq!(decoding.result(), "valid");
//!
//! // ED BF 80 in UTF-8: a surrogate's lead, then two stray continuation bytes.
//! let segments = decode::explain(&[0xED, 0xBF, 0x80], Encoding::Utf8, None);
//! assert_eq!(segments[0].lines, ["error: surrogate (byte 0)", "ED BF begins a surrogate"]);
//! assert_eq!(segments.len(), 3);
//! ```
#![deny(missing_docs)]
#![forbid(unsafe_code)]

pub mod codepoint;
pub mod decode;
pub mod document;
pub mod encode;
pub mod explorer;
pub mod hex;

pub use decode::{Decoding, Segment};
