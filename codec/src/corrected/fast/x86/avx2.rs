//! AVX2: one file per kernel (`vector.rs` holds the byte vector and the validate kernel),
//! and the row of the kernel table.
//!
//! Every `unsafe` in these files is one of two things: calling a `#[target_feature]`
//! function, which is sound because every kernel is an `unsafe fn` whose caller (the
//! kernel table) has checked that the CPU runs AVX2; or a SIMD load/store, whose bounds
//! are argued at the block.

use crate::corrected::fast::kernel::Kernels;

#[cfg(feature = "alloc")]
mod chunk;
mod decode;
#[cfg(feature = "alloc")]
mod encode;
#[cfg(feature = "alloc")]
mod transcode;
mod vector;

/// The AVX2 row of the kernel table.
pub(in crate::corrected::fast) const KERNELS: Kernels = Kernels {
    validate: vector::validate,
    decode: decode::decode,
    #[cfg(feature = "alloc")]
    encode: encode::encode,
    #[cfg(feature = "alloc")]
    to_utf8: transcode::to_utf8,
    #[cfg(feature = "alloc")]
    from_utf8: transcode::from_utf8,
};
