//! AVX-512 (F, BW, CD, VL, VBMI, VBMI2, with BMI2): one file per kernel (`vector.rs`
//! holds the byte vector and the validate kernel), the tables more than one kernel
//! looks values up in (`tables.rs`), and the row of the kernel table. In files of their
//! own, so that a CPU without AVX-512 can leave them out of what it measures (mutation
//! testing).
//!
//! Every `unsafe` in these files is one of two things: calling a `#[target_feature]`
//! function, which is sound because every kernel is an `unsafe fn` whose caller (the
//! kernel table) has checked that the CPU runs every feature of [`has_avx512`]; or a
//! SIMD load/store, whose bounds are argued at the block.

use crate::corrected::fast::kernel::Kernels;

mod decode;
#[cfg(feature = "alloc")]
mod encode;
mod tables;
#[cfg(feature = "alloc")]
mod transcode;
mod vector;

/// The AVX-512 row of the kernel table.
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

/// Whether the CPU runs every AVX-512 extension the AVX-512 paths use.
pub(in crate::corrected::fast) fn has_avx512() -> bool {
    #[cfg(feature = "std")]
    {
        std::is_x86_feature_detected!("avx512f")
            && std::is_x86_feature_detected!("avx512bw")
            && std::is_x86_feature_detected!("avx512cd")
            && std::is_x86_feature_detected!("avx512vl")
            && std::is_x86_feature_detected!("avx512vbmi")
            && std::is_x86_feature_detected!("avx512vbmi2")
            && std::is_x86_feature_detected!("bmi1")
            && std::is_x86_feature_detected!("bmi2")
            && std::is_x86_feature_detected!("popcnt")
    }
    #[cfg(not(feature = "std"))]
    {
        cfg!(all(
            target_feature = "avx512f",
            target_feature = "avx512bw",
            target_feature = "avx512cd",
            target_feature = "avx512vl",
            target_feature = "avx512vbmi",
            target_feature = "avx512vbmi2",
            target_feature = "bmi1",
            target_feature = "bmi2",
            target_feature = "popcnt"
        ))
    }
}
