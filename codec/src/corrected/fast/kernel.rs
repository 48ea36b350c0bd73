//! What a kernel is: the table of one instruction set's kernels ([`Kernels`], a
//! `const KERNELS` in each instruction set's module) and what a decode kernel returns
//! ([`Decoded`]). `kernels.rs` picks a table and finishes after its kernels; the
//! instruction sets' modules fill one and import nothing else of it.

#[cfg(feature = "alloc")]
use alloc::vec::Vec;

/// What a decode kernel did.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Decoded {
    /// `bytes[..read]` are whole valid sequences, decoded into `out[..written]`; the rest
    /// is the finishing code's.
    Upto {
        /// Input bytes done (a sequence boundary).
        read: usize,
        /// Code points written.
        written: usize,
    },
    /// The input is not valid: its first error or reserved span lies at or after this
    /// sequence boundary, before which everything is valid. (What `out` holds is then
    /// unspecified.)
    // Only the vector instruction sets' kernels find this.
    #[cfg_attr(
        not(any(
            target_arch = "x86_64",
            all(target_arch = "aarch64", target_endian = "little")
        )),
        allow(dead_code)
    )]
    Invalid(usize),
}

/// The kernels of one instruction set. Each is an `unsafe fn` whose contract is that the
/// CPU runs that instruction set, and returns how far it got (see the module's docs).
pub(super) struct Kernels {
    /// A sequence boundary before which `bytes` are valid: `bytes.len()` when they all
    /// are; otherwise the error lies after it.
    pub(super) validate: unsafe fn(bytes: &[u8]) -> usize,
    /// Decodes a prefix of `bytes` into `out`, or finds that `bytes` are not valid.
    pub(super) decode: unsafe fn(bytes: &[u8], out: &mut [u32]) -> Decoded,
    /// Appends the encoding of a prefix of `codepoints` (each with an encoding) to
    /// `out`; returns its length.
    #[cfg(feature = "alloc")]
    pub(super) encode: unsafe fn(codepoints: &[u32], out: &mut Vec<u8>) -> usize,
    /// Appends the UTF-8 of a prefix of Corrected UTF-8 `bytes` (whole valid sequences
    /// whose code points all have a UTF-8 encoding) to `out`; returns its length.
    #[cfg(feature = "alloc")]
    pub(super) to_utf8: unsafe fn(bytes: &[u8], out: &mut Vec<u8>) -> usize,
    /// Appends the Corrected UTF-8 of a prefix of UTF-8 `bytes` (whole valid sequences,
    /// no C1 control) to `out`; returns its length.
    #[cfg(feature = "alloc")]
    pub(super) from_utf8: unsafe fn(bytes: &[u8], out: &mut Vec<u8>) -> usize,
}

impl Kernels {
    /// No kernel at all: each does nothing, and the finishing code does everything. The
    /// portable instruction set's table, and the default of every other's.
    pub(super) const NONE: Kernels = Kernels {
        validate: |_| 0,
        decode: |_, _| Decoded::Upto {
            read: 0,
            written: 0,
        },
        #[cfg(feature = "alloc")]
        encode: |_, _| 0,
        #[cfg(feature = "alloc")]
        to_utf8: |_, _| 0,
        #[cfg(feature = "alloc")]
        from_utf8: |_, _| 0,
    };
}
