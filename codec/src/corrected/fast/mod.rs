//! Fast paths for **Corrected UTF-8 only**: validation, decoding to UTF-32 and encoding
//! from it, with exactly the results of [`corrected`]. (They do not validate standard
//! UTF-8: for that, [`utf8::validate`](crate::utf8::validate) uses `core::str::from_utf8`.)
//!
//! Corrected UTF-8 has no overlong, surrogate or range checks, so validity is purely
//! structural: a byte must be a continuation (`80–BF`) exactly when a lead before it
//! reaches it, and `FE`/`FF` never occur:
//!
//! ```text
//! continuation(i) == (byte[i−1] ≥ C0 | byte[i−2] ≥ E0 | byte[i−3] ≥ F0 | byte[i−4] ≥ F8 | byte[i−5] ≥ FC)
//! ```
//!
//! The SIMD validator tests this 64 bytes at a time by comparing the input with itself
//! 1 to 5 bytes back (only 3 for text without bytes `F8–FF`, the common case) with one
//! saturating subtraction per distance; it is written once (`simd.rs`) over a
//! byte-vector trait that SSE2, AVX2, AVX-512 and NEON implement. The portable
//! validator keeps one flag per byte in a 64-bit word. There is no table and no state
//! between blocks.
//!
//! **The fast path detects, the reference explains**: when a block fails, the careful
//! decoder re-runs from the last sequence boundary before it and reports the exact
//! first error span, so every result equals [`corrected::validate`]
//! and [`corrected::decode`].
//!
//! **One kernel table per instruction set** (`kernels.rs`): each instruction set has a
//! `Kernels` row (validate, decode, encode, to UTF-8, from UTF-8) in a module with one
//! file per kernel (`x86/avx2/{vector,decode,encode,transcode}.rs`,
//! `x86/avx512/{vector,decode,encode,transcode,tables}.rs`). A kernel returns how far it
//! got, and one place finishes from there with the portable code (`portable.rs`: the
//! word-at-a-time validator, the one-pass decoder, the encoder, the transcoder loops),
//! which checks everything; the portable instruction set has no kernel at all.
//!
//! The instruction set is picked once, at the first call, from what the CPU offers
//! ([`InstructionSet::detect`]): AVX-512 (with VBMI2, as on Ice Lake and Zen 4), AVX2,
//! SSE2 on x86_64, NEON on (little-endian) aarch64, and the portable word-at-a-time
//! version everywhere else. Decoding and encoding are vectorized with AVX-512, AVX2 and
//! NEON (NEON: ASCII, and runs of one sequence length up to 4 bytes; decoding also
//! mixed 1- to 3-byte text); SSE2 validates with vectors and decodes and encodes with
//! the portable code.
//!
//! [`transcode_to_utf8`] and [`utf8_to_corrected`] convert between Corrected UTF-8 and
//! UTF-8 directly, validating, with the result of decoding with one reference and
//! encoding with the other ([`TranscodeError`]); vectorized with AVX-512 and AVX2 (each
//! sequence decoded and re-encoded in a register, no UTF-32 buffer; AVX2 after its
//! validator, converting 1- and 2-byte text in place), elsewhere the portable loop after
//! the instruction set's validator.
//!
//! # Examples
//!
//! ```
//! use corrected_utf8::{corrected::{self, fast}, ErrorKind, ReservedSpan, Stop};
//! let text = corrected::encode("Größe 大小 🦀".chars().map(u32::from)).unwrap();
//! assert_eq!(fast::validate(&text), Ok(()));
//! assert_eq!(fast::decode_to_vec(&text).unwrap(), corrected::decode(&text).unwrap());
//! let stop = fast::validate(b"abc\xE0\x80").unwrap_err();
//! assert_eq!(stop.error().map(|e| e.kind), Some(ErrorKind::Truncated));
//! assert_eq!((stop.offset(), stop.length()), (3, 2));
//! let stop = fast::validate(b"abc\xFF\x80").unwrap_err();
//! assert_eq!(stop, Stop::Reserved(ReservedSpan { offset: 3, length: 2 }));
//! ```
// The only modules with `unsafe`: SIMD intrinsics, each block with its SAFETY argument,
// and the kernel table, which calls each instruction set's kernels.
#[cfg(all(target_arch = "aarch64", target_endian = "little"))]
#[allow(unsafe_code)]
mod aarch64;
mod kernel;
#[allow(unsafe_code)]
mod kernels;
mod portable;
// The validator over one vector type per instruction set.
#[cfg(any(
    target_arch = "x86_64",
    all(target_arch = "aarch64", target_endian = "little")
))]
#[allow(unsafe_code)]
mod simd;
#[cfg(feature = "alloc")]
mod transcode;
#[cfg(feature = "alloc")]
pub use transcode::{
    transcode_to_utf8, transcode_to_utf8_with, utf8_to_corrected, utf8_to_corrected_with,
};
#[cfg(feature = "alloc")]
mod transcode_error;
#[cfg(feature = "alloc")]
pub use transcode_error::TranscodeError;
#[cfg(target_arch = "x86_64")]
#[allow(unsafe_code)]
mod x86;

use crate::corrected;
#[cfg(feature = "alloc")]
use crate::error::EncodeError;
use crate::event::Stop;
#[cfg(feature = "alloc")]
use alloc::vec::Vec;
use core::sync::atomic::{AtomicU8, Ordering};

/// An instruction set the fast paths can run on. Every one gives the same results; they
/// differ in speed and in the CPUs that can run them.
///
/// [`validate`], [`decode_to_utf32`] and [`encode_from_utf32`] use [`InstructionSet::detect`];
/// the `*_with` functions force one (for tests and benchmarks).
///
/// # Examples
///
/// ```
/// use corrected_utf8::corrected::fast::InstructionSet;
/// // The portable instruction set runs everywhere.
/// assert!(InstructionSet::Portable.is_available());
/// assert!(InstructionSet::available().any(|i| i == InstructionSet::detect()));
/// assert_eq!(InstructionSet::Avx2.name(), "avx2");
/// ```
// Non-exhaustive: a new instruction set is not a breaking change.
#[non_exhaustive]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum InstructionSet {
    /// Safe Rust, 8 bytes at a time: any target.
    Portable,
    /// x86_64 SSE2 (every x86_64 CPU).
    Sse2,
    /// x86_64 AVX2 (with POPCNT, which every AVX2 CPU has: the encoder, decoder and
    /// transcoders count lengths with it).
    Avx2,
    /// x86_64 AVX-512 F/BW/CD/VL/VBMI/VBMI2 with BMI2 (Ice Lake, Zen 4 and later).
    Avx512,
    /// aarch64 NEON (every aarch64 CPU; little-endian targets).
    Neon,
}

impl InstructionSet {
    /// Every instruction set; of those of one architecture, the slowest first.
    pub const ALL: [InstructionSet; 5] = [
        InstructionSet::Portable,
        InstructionSet::Sse2,
        InstructionSet::Avx2,
        InstructionSet::Avx512,
        InstructionSet::Neon,
    ];

    /// A short lowercase name (`portable`, `sse2`, `avx2`, `avx512`, `neon`).
    ///
    /// # Examples
    ///
    /// ```
    /// use corrected_utf8::corrected::fast::InstructionSet;
    /// assert_eq!(InstructionSet::Avx512.name(), "avx512");
    /// assert_ne!(InstructionSet::Portable.name(), "scalar");
    /// ```
    pub const fn name(self) -> &'static str {
        match self {
            InstructionSet::Portable => "portable",
            InstructionSet::Sse2 => "sse2",
            InstructionSet::Avx2 => "avx2",
            InstructionSet::Avx512 => "avx512",
            InstructionSet::Neon => "neon",
        }
    }

    /// Whether this CPU (and target) can run it.
    ///
    /// # Examples
    ///
    /// ```
    /// use corrected_utf8::corrected::fast::InstructionSet;
    /// assert!(InstructionSet::Portable.is_available());
    /// if !cfg!(target_arch = "x86_64") {
    ///     assert!(!InstructionSet::Sse2.is_available());
    /// }
    /// ```
    pub fn is_available(self) -> bool {
        // Bit k: the instruction set ALL[k] (its discriminant) runs here; bit 7: detected.
        // Detected once, then cached (a race only detects twice).
        static AVAILABLE: AtomicU8 = AtomicU8::new(0);
        let mut bits = AVAILABLE.load(Ordering::Relaxed);
        if bits == 0 {
            bits = InstructionSet::ALL
                .into_iter()
                .filter(|i| i.runs_here())
                .fold(0x80, |bits, i| bits | 1 << i as u8);
            AVAILABLE.store(bits, Ordering::Relaxed);
        }
        bits >> self as u8 & 1 != 0
    }

    /// Whether this CPU (and target) can run it, asked of the CPU.
    fn runs_here(self) -> bool {
        match self {
            InstructionSet::Portable => true,
            #[cfg(target_arch = "x86_64")]
            InstructionSet::Sse2 => true,
            #[cfg(target_arch = "x86_64")]
            InstructionSet::Avx2 => x86::has_avx2(),
            #[cfg(target_arch = "x86_64")]
            InstructionSet::Avx512 => x86::has_avx512(),
            // In the baseline of every aarch64 target but the soft-float ones.
            #[cfg(all(target_arch = "aarch64", target_endian = "little"))]
            InstructionSet::Neon => cfg!(target_feature = "neon"),
            _ => false,
        }
    }

    /// The implementations this CPU can run, slowest first.
    ///
    /// # Examples
    ///
    /// ```
    /// use corrected_utf8::corrected::fast::InstructionSet;
    /// let here: Vec<_> = InstructionSet::available().collect();
    /// assert_eq!(here[0], InstructionSet::Portable);
    /// assert!(here.len() <= InstructionSet::ALL.len());
    /// ```
    pub fn available() -> impl Iterator<Item = InstructionSet> {
        InstructionSet::ALL.into_iter().filter(|i| i.is_available())
    }

    /// The fastest instruction set this CPU can run; detected once, then cached.
    ///
    /// # Examples
    ///
    /// ```
    /// use corrected_utf8::corrected::fast::InstructionSet;
    /// let best = InstructionSet::detect();
    /// assert!(best.is_available());
    /// assert_eq!(best, InstructionSet::available().last().unwrap());
    /// ```
    pub fn detect() -> InstructionSet {
        // 0 = not detected yet, else 1 + the index in ALL. A race only detects twice.
        static CHOSEN: AtomicU8 = AtomicU8::new(0);
        match CHOSEN.load(Ordering::Relaxed) {
            0 => {
                let best = InstructionSet::available()
                    .last()
                    .unwrap_or(InstructionSet::Portable);
                CHOSEN.store(best as u8 + 1, Ordering::Relaxed);
                best
            }
            n => InstructionSet::ALL[usize::from(n - 1)],
        }
    }

    /// `self` if this CPU can run it, else the portable instruction set.
    fn or_portable(self) -> InstructionSet {
        if self.is_available() {
            self
        } else {
            InstructionSet::Portable
        }
    }
}

/// Validates `bytes`: `Ok`, or where a strict decode stops (the first error span or
/// reserved span), exactly as [`corrected::validate`].
///
/// # Examples
///
/// ```
/// use corrected_utf8::{corrected::fast, DecodeError, ErrorKind, ReservedSpan, Stop};
/// assert_eq!(fast::validate(b"\xC0\xAF plain ASCII \xFD\xBF\xBF\xBF\xBF\xBF"), Ok(()));
/// let stop = fast::validate(b"ok\xFE\xFE\x80A").unwrap_err();
/// assert_eq!(stop, Stop::Reserved(ReservedSpan { offset: 2, length: 3 }));
/// let stop = fast::validate(b"ok\xC0A").unwrap_err();
/// assert_eq!(stop, Stop::Error(DecodeError { kind: ErrorKind::Truncated, offset: 2, length: 1 }));
/// ```
pub fn validate(bytes: &[u8]) -> Result<(), Stop> {
    validate_with(InstructionSet::detect(), bytes)
}

/// [`validate`] with a given instruction set (the portable one if this CPU cannot run
/// it). For tests and benchmarks.
///
/// # Examples
///
/// ```
/// use corrected_utf8::corrected::fast::{self, InstructionSet};
/// for imp in InstructionSet::available() {
///     assert!(fast::validate_with(imp, b"\xE0\x80\x80").is_ok());
///     assert!(fast::validate_with(imp, b"\x80").is_err());
/// }
/// ```
#[doc(hidden)]
pub fn validate_with(instruction_set: InstructionSet, bytes: &[u8]) -> Result<(), Stop> {
    kernels::for_isa(instruction_set).validate(bytes)
}

/// The sequence boundary to restart from when the block starting at `block` failed
/// and everything before it is valid: `block` itself, or the lead of the sequence
/// that runs into it (at most 5 bytes back).
#[inline]
fn restart_point(bytes: &[u8], block: usize) -> usize {
    let block = block.min(bytes.len());
    let from = block.saturating_sub(corrected::MAX_LEN);
    match bytes[from..block]
        .iter()
        .rposition(|&b| !is_continuation(b))
    {
        Some(i) => {
            let lead = from + i;
            let len = match bytes[lead] {
                0x00..=0x7F => 1,
                b => b.leading_ones() as usize,
            };
            if lead + len > block {
                lead
            } else {
                block
            }
        }
        None => block,
    }
}

#[inline(always)]
const fn is_continuation(b: u8) -> bool {
    (b as i8) < -64
}

/// The number of bytes before the first one that starts something the document checker
/// reports or holds back (a C0 control other than U+000A, U+2028, U+2029, or U+10E7D,
/// the magic number's first code point), whether or not `bytes` are valid: the stretch
/// [`DocumentChecker::push_fast`](crate::DocumentChecker::push_fast) may count in bulk
/// once validated.
// Its one `unsafe` block calls into `x86`, argued at the block.
#[allow(unsafe_code)]
pub(crate) fn quiet_len(bytes: &[u8]) -> usize {
    #[cfg(target_arch = "x86_64")]
    if InstructionSet::Avx2.is_available() {
        // SAFETY: the CPU has AVX2, just checked (and cached by `std`).
        return unsafe { x86::quiet_len_avx2(bytes) };
    }
    portable::quiet_len(bytes)
}

/// The number of `0A` bytes in `bytes`: the lines a quiet stretch ends.
// Its one `unsafe` block calls into `x86`, argued at the block.
#[allow(unsafe_code)]
pub(crate) fn count_newlines(bytes: &[u8]) -> usize {
    #[cfg(target_arch = "x86_64")]
    if InstructionSet::Avx2.is_available() {
        // SAFETY: the CPU has AVX2 and POPCNT, just checked (and cached by `std`).
        return unsafe { x86::count_newlines_avx2(bytes) };
    }
    portable::count_newlines(bytes)
}

/// Decodes `bytes` into `out`: the number of code points written, or where a strict
/// decode stops (the first error span or reserved span) exactly as
/// [`corrected::decode`] reports it.
///
/// On a stop, what `out` holds is unspecified (the AVX-512 and portable decoders
/// validate as they go), and so, always, is what lies past the code points written
/// (the decoders widen whole blocks into the room there is).
///
/// # Panics
///
/// If the input is valid and `out` is shorter than the number of code points it
/// decodes to ([`utf32_len`]). `out.len() >= bytes.len()` always suffices.
///
/// # Examples
///
/// ```
/// use corrected_utf8::{corrected::fast, ErrorKind, ReservedSpan};
/// let mut out = [0u32; 8];
/// assert_eq!(fast::decode_to_utf32(b"A\xC0\xAF\xEF\xB7\x9D", &mut out), Ok(3));
/// assert_eq!(out[..3], [0x41, 0xCF, 0x10E7D]);
/// let stop = fast::decode_to_utf32(b"A\x80", &mut out).unwrap_err();
/// assert_eq!((stop.error().map(|e| e.kind), stop.offset()), (Some(ErrorKind::UnexpectedContinuation), 1));
/// let stop = fast::decode_to_utf32(b"A\xFE", &mut out).unwrap_err();
/// assert_eq!(stop.reserved(), Some(&ReservedSpan { offset: 1, length: 1 }));
/// ```
pub fn decode_to_utf32(bytes: &[u8], out: &mut [u32]) -> Result<usize, Stop> {
    decode_to_utf32_with(InstructionSet::detect(), bytes, out)
}

/// [`decode_to_utf32`] with a given instruction set (the portable one if this CPU cannot
/// run it). For tests and benchmarks.
///
/// # Examples
///
/// ```
/// use corrected_utf8::corrected::fast::{self, InstructionSet};
/// let mut out = [0u32; 4];
/// for imp in InstructionSet::available() {
///     assert_eq!(fast::decode_to_utf32_with(imp, b"\xC0\x80", &mut out), Ok(1));
///     assert!(fast::decode_to_utf32_with(imp, b"\xC0", &mut out).is_err());
/// }
/// ```
#[doc(hidden)]
pub fn decode_to_utf32_with(
    instruction_set: InstructionSet,
    bytes: &[u8],
    out: &mut [u32],
) -> Result<usize, Stop> {
    kernels::for_isa(instruction_set).decode(bytes, out)
}

/// The number of code points valid Corrected UTF-8 `bytes` decode to, which is the
/// number of bytes that are not continuation bytes: the length [`decode_to_utf32`]
/// needs.
///
/// # Examples
///
/// ```
/// use corrected_utf8::corrected::fast;
/// assert_eq!(fast::utf32_len(b"A\xC0\xAF\xEF\xB7\x9D"), 3);
/// assert_eq!(fast::utf32_len(b"\x80\x80"), 0);
/// ```
pub fn utf32_len(bytes: &[u8]) -> usize {
    // Written so that LLVM vectorizes it.
    bytes
        .iter()
        .map(|&b| usize::from(!is_continuation(b)))
        .sum()
}

/// Decodes `bytes` into a new `Vec`, exactly as [`corrected::decode`].
///
/// # Examples
///
/// ```
/// use corrected_utf8::{corrected::fast, ReservedSpan, Stop};
/// assert_eq!(fast::decode_to_vec(b"\xFD\xBF\xBF\xBF\xBF\xBF"), Ok(vec![0x8421_109F]));
/// assert_eq!(fast::decode_to_vec(b"\xFF"), Err(Stop::Reserved(ReservedSpan { offset: 0, length: 1 })));
/// assert!(fast::decode_to_vec(b"\xC0").unwrap_err().error().is_some());
/// ```
#[cfg(feature = "alloc")]
pub fn decode_to_vec(bytes: &[u8]) -> Result<Vec<u32>, Stop> {
    decode_to_vec_with(InstructionSet::detect(), bytes)
}

/// [`decode_to_vec`] with a given instruction set. For tests and benchmarks.
///
/// # Examples
///
/// ```
/// use corrected_utf8::corrected::fast::{self, InstructionSet};
/// assert_eq!(fast::decode_to_vec_with(InstructionSet::Portable, b"A"), Ok(vec![0x41]));
/// assert!(fast::decode_to_vec_with(InstructionSet::Portable, b"\xC0").is_err());
/// ```
#[doc(hidden)]
#[cfg(feature = "alloc")]
pub fn decode_to_vec_with(instruction_set: InstructionSet, bytes: &[u8]) -> Result<Vec<u32>, Stop> {
    let mut out = alloc::vec![0; utf32_len(bytes)];
    let written = decode_to_utf32_with(instruction_set, bytes, &mut out)?;
    debug_assert_eq!(written, out.len());
    Ok(out)
}

/// Appends the Corrected UTF-8 encoding of `codepoints` to `out`. Fails at the first
/// code point that has no encoding, with the error of
/// [`corrected::encode`]; `out` then holds the encoding of the
/// code points before it.
///
/// # Examples
///
/// ```
/// use corrected_utf8::{corrected::{self, fast}, ErrorKind};
/// let mut out = Vec::new();
/// fast::encode_from_utf32(&[0x10E7D, 0xED4E, 0, 0x0A], &mut out).unwrap();
/// assert_eq!(out, corrected::MAGIC);
/// let err = fast::encode_from_utf32(&[0x41, 0xD800], &mut out).unwrap_err();
/// assert_eq!((err.kind, err.codepoint), (ErrorKind::Surrogate, 0xD800));
/// ```
#[cfg(feature = "alloc")]
pub fn encode_from_utf32(codepoints: &[u32], out: &mut Vec<u8>) -> Result<(), EncodeError> {
    encode_from_utf32_with(InstructionSet::detect(), codepoints, out)
}

/// [`encode_from_utf32`] with a given instruction set. For tests and benchmarks.
///
/// # Examples
///
/// ```
/// use corrected_utf8::corrected::fast::{self, InstructionSet};
/// let mut out = Vec::new();
/// assert!(fast::encode_from_utf32_with(InstructionSet::Portable, &[0xA0], &mut out).is_ok());
/// assert_eq!(out, [0xC0, 0x80]);
/// assert!(fast::encode_from_utf32_with(InstructionSet::Portable, &[0x80], &mut out).is_err());
/// ```
#[doc(hidden)]
#[cfg(feature = "alloc")]
pub fn encode_from_utf32_with(
    instruction_set: InstructionSet,
    codepoints: &[u32],
    out: &mut Vec<u8>,
) -> Result<(), EncodeError> {
    kernels::for_isa(instruction_set).encode(codepoints, out)
}

#[cfg(all(test, feature = "alloc"))]
mod tests {
    use super::*;
    use alloc::vec::Vec;

    /// The first position where a document check has something to report or hold back,
    /// one byte at a time.
    fn naive_quiet_len(bytes: &[u8]) -> usize {
        (0..bytes.len())
            .find(|&i| {
                let rest = &bytes[i..];
                (rest[0] < 0x20 && rest[0] != b'\n')
                    || rest.starts_with(&[0xE1, 0x9E, 0x88])
                    || rest.starts_with(&[0xE1, 0x9E, 0x89])
                    || rest.starts_with(&[0xEF, 0xB7, 0x9D])
            })
            .unwrap_or(bytes.len())
    }

    #[test]
    fn count_newlines_counts_past_a_lane_s_255() {
        for len in [
            0,
            1,
            31,
            32,
            33,
            32 * 255 - 1,
            32 * 255,
            32 * 255 + 1,
            3 * 32 * 255 + 7,
        ] {
            for fill in [b'\n', b'a'] {
                let mut bytes = alloc::vec![fill; len];
                bytes.extend_from_slice(b"\n\x0B\x0A\x8A");
                let want = bytes.iter().filter(|&&b| b == b'\n').count();
                assert_eq!(portable::count_newlines(&bytes), want, "{len}");
                assert_eq!(count_newlines(&bytes), want, "{len}");
            }
        }
    }

    #[test]
    fn quiet_len_stops_at_the_first_loud_byte_in_every_copy() {
        let loud: [&[u8]; 6] = [
            b"\x00",
            b"\x1F",
            b"\xE1\x9E\x88",
            b"\xE1\x9E\x89",
            b"\xEF\xB7\x9D",
            b"\r",
        ];
        // Near misses, which are quiet: U+000A, other E1 9E and EF B7 sequences, cut ones.
        let quiet = b"ab\n\xE1\x9E\x8A\xE1\x9D\x88\xEF\xB7\x9E\xEF\xB6\x9D \x20\x7F\xFE";
        for len in [0, 1, 63, 64, 65, 66, 67, 130, 200] {
            for at in 0..len {
                for loud in loud {
                    let mut bytes: Vec<u8> = quiet.iter().copied().cycle().take(len).collect();
                    bytes.splice(at..at, loud.iter().copied());
                    let want = naive_quiet_len(&bytes);
                    assert!(want <= at, "{bytes:02X?}");
                    assert_eq!(portable::quiet_len(&bytes), want, "{bytes:02X?}");
                    assert_eq!(quiet_len(&bytes), want, "{bytes:02X?}");
                }
            }
            let bytes: Vec<u8> = quiet.iter().copied().cycle().take(len).collect();
            let newlines = bytes.iter().filter(|&&b| b == b'\n').count();
            assert_eq!(portable::count_newlines(&bytes), newlines);
            assert_eq!(count_newlines(&bytes), newlines);
            assert_eq!(naive_quiet_len(&bytes), len);
            assert_eq!(portable::quiet_len(&bytes), len);
            assert_eq!(quiet_len(&bytes), len);
            // Cut at the end: not loud, whatever follows.
            for cut in [&b"\xE1"[..], b"\xE1\x9E", b"\xEF\xB7"] {
                let bytes = [&bytes[..], cut].concat();
                assert_eq!(quiet_len(&bytes), bytes.len());
            }
        }
    }
}
