//! The kernel table: one [`Kernels`] per instruction set (a `const KERNELS` in its
//! module; the type is `kernel.rs`'s), picked by [`for_isa`], and the one place that
//! finishes what a kernel leaves with the portable code.
//!
//! A kernel does what its instruction set does fast and returns how far it got: a
//! sequence boundary before which the input is done (valid, and decoded, encoded or
//! converted into the output). It may stop anywhere: at the tail of the input, before a
//! problem, where the output has no more room, or at the very start (the portable
//! instruction set has no kernel at all). [`Available`] then finishes from there with
//! the portable loops, which check everything, and, when something is wrong, the
//! reference explains it. So every instruction set gives the portable code's results,
//! which are the reference's: a kernel can only make it faster.
//!
//! Adding an instruction set is one `InstructionSet` variant, one row in [`for_isa`] and
//! a module with its files (`vector.rs`, `decode.rs`, `encode.rs`, `transcode.rs`) and
//! its `KERNELS`; a kernel it lacks is [`Kernels::NONE`]'s.

use super::kernel::{Decoded, Kernels};
#[cfg(feature = "alloc")]
use super::transcode_error::TranscodeError;
use super::{corrected, portable, InstructionSet};
#[cfg(feature = "alloc")]
use crate::error::{EncodeError, ErrorKind};
use crate::event::Stop;
#[cfg(feature = "alloc")]
use crate::utf8;
#[cfg(feature = "alloc")]
use alloc::vec::Vec;

/// The table of `instruction_set`, or the portable one's if this CPU cannot run it.
pub(super) fn for_isa(instruction_set: InstructionSet) -> Available {
    let kernels = match instruction_set.or_portable() {
        #[cfg(target_arch = "x86_64")]
        InstructionSet::Sse2 => &super::x86::SSE2,
        #[cfg(target_arch = "x86_64")]
        InstructionSet::Avx2 => &super::x86::avx2::KERNELS,
        #[cfg(target_arch = "x86_64")]
        InstructionSet::Avx512 => &super::x86::avx512::KERNELS,
        #[cfg(all(target_arch = "aarch64", target_endian = "little"))]
        InstructionSet::Neon => &super::aarch64::KERNELS,
        _ => &Kernels::NONE,
    };
    Available(kernels)
}

/// The kernels of an instruction set this CPU runs: [`for_isa`] makes one only after
/// `is_available()` said so (through `or_portable`), and nothing else can, so calling
/// its kernels is sound. Its methods are the operations, each its kernel then the
/// portable code from where the kernel stopped.
#[derive(Clone, Copy)]
pub(super) struct Available(&'static Kernels);

impl Available {
    /// Validates `bytes` exactly as [`corrected::validate`].
    pub(super) fn validate(self, bytes: &[u8]) -> Result<(), Stop> {
        // SAFETY: `self` exists, so the CPU runs the table's instruction set (see
        // `Available`).
        let done = unsafe { (self.0.validate)(bytes) };
        if done == bytes.len() {
            return Ok(());
        }
        match portable::validate(&bytes[done..]) {
            Ok(()) => Ok(()),
            Err(restart) => explain(bytes, done + restart),
        }
    }

    /// Decodes `bytes` into `out` exactly as [`corrected::decode`], with the panic of
    /// `decode_to_utf32` when `out` is too short for valid input.
    pub(super) fn decode(self, bytes: &[u8], out: &mut [u32]) -> Result<usize, Stop> {
        // SAFETY: `self` exists, so the CPU runs the table's instruction set.
        match unsafe { (self.0.decode)(bytes, out) } {
            Decoded::Upto { read, written } => {
                match portable::decode(&bytes[read..], &mut out[written..]) {
                    Ok(n) => Ok(written + n),
                    // An error there, or no more room in `out` for valid text.
                    Err(restart) => explain(bytes, read + restart).map(|()| out_too_short()),
                }
            }
            Decoded::Invalid(restart) => explain(bytes, restart).map(|()| unreachable_valid()),
        }
    }

    /// Appends the encoding of `codepoints` to `out` exactly as [`corrected::encode`].
    #[cfg(feature = "alloc")]
    pub(super) fn encode(self, codepoints: &[u32], out: &mut Vec<u8>) -> Result<(), EncodeError> {
        // SAFETY: `self` exists, so the CPU runs the table's instruction set.
        let done = unsafe { (self.0.encode)(codepoints, out) };
        portable::encode(&codepoints[done..], out)
    }

    /// Appends the UTF-8 of Corrected UTF-8 `bytes` to `out` (see
    /// [`super::transcode_to_utf8`]).
    #[cfg(feature = "alloc")]
    pub(super) fn transcode_to_utf8(
        self,
        bytes: &[u8],
        out: &mut Vec<u8>,
    ) -> Result<(), TranscodeError> {
        // SAFETY: `self` exists, so the CPU runs the table's instruction set.
        let done = unsafe { (self.0.to_utf8)(bytes, out) };
        // The rest in one pass, up to the first problem; then from there, an error or
        // reserved span anywhere wins over a code point above U+10FFFF.
        let rest = &bytes[done..];
        let (reached, _) = portable::corrected_to_utf8(rest, 0, rest.len(), out);
        if reached == rest.len() {
            return Ok(());
        }
        let at = done + reached;
        if let Err(stop) = self.validate(&bytes[at..]) {
            return Err(TranscodeError::Decode {
                stop: stop.shifted(at as u64),
                valid_up_to: at,
            });
        }
        // Valid: a code point above U+10FFFF.
        let len = usize::from(bytes[at].leading_ones() as u8);
        let cp = corrected::decode(&bytes[at..at + len])
            .ok()
            .and_then(|cps| cps.first().copied())
            .unwrap_or(0);
        let kind = utf8::encoded_len(cp).map_or_else(|e| e.kind, |_| ErrorKind::OutOfRange);
        Err(TranscodeError::Encode {
            error: EncodeError {
                kind,
                codepoint: cp,
            },
            offset: at as u64,
            length: len as u64,
        })
    }

    /// Appends the Corrected UTF-8 of UTF-8 `bytes` to `out` (see
    /// [`super::utf8_to_corrected`]).
    #[cfg(feature = "alloc")]
    pub(super) fn utf8_to_corrected(
        self,
        bytes: &[u8],
        out: &mut Vec<u8>,
    ) -> Result<(), TranscodeError> {
        // SAFETY: `self` exists, so the CPU runs the table's instruction set.
        let done = unsafe { (self.0.from_utf8)(bytes, out) };
        // The rest in one pass, up to the first problem; then from there, an error
        // anywhere wins over a C1 control (std's validation, then Table 3-7 for the
        // exact span).
        let rest = &bytes[done..];
        let (reached, _) = portable::utf8_to_corrected(rest, 0, rest.len(), out);
        if reached == rest.len() {
            return Ok(());
        }
        let at = done + reached;
        if let Err(e) = utf8::validate(&bytes[at..]) {
            return Err(TranscodeError::Decode {
                stop: Stop::Error(e).shifted(at as u64),
                valid_up_to: at,
            });
        }
        // Valid: a C1 control, `C2 80` to `C2 9F`.
        let cp = u32::from(bytes[at + 1] & 0x3F) | 0x80;
        let kind = corrected::encoded_len(cp).map_or_else(|e| e.kind, |_| ErrorKind::C1Control);
        Err(TranscodeError::Encode {
            error: EncodeError {
                kind,
                codepoint: cp,
            },
            offset: at as u64,
            length: 2,
        })
    }
}

/// The first error or reserved span at or after `restart`, a sequence boundary before
/// which everything is valid.
#[cold]
#[inline(never)]
fn explain(bytes: &[u8], restart: usize) -> Result<(), Stop> {
    corrected::validate(&bytes[restart..]).map_err(|stop| stop.shifted(restart as u64))
}

/// The documented panic of `decode_to_utf32` for a valid input that does not fit.
#[cold]
#[track_caller]
fn out_too_short() -> usize {
    panic!("corrected_utf8::corrected::fast::decode_to_utf32: `out` is shorter than the number of code points the input decodes to")
}

/// What a decode kernel that found an error returns if the reference then finds none: a
/// bug, caught by the tests and fuzz targets that compare every result with the
/// reference.
#[cold]
fn unreachable_valid() -> usize {
    panic!("corrected_utf8::corrected::fast: the decoder and the validator disagree; please report this input")
}
