//! The AVX-512 tables more than one kernel looks values up in: the decoder's gathers
//! (which the transcoders use too) and the encoder's 6-bit groups and byte indices
//! (the transcoders' too), each defined once, and the loading of a 64-byte table.

use core::arch::x86_64::*;

/// Loads a 64-byte table.
#[target_feature(enable = "avx512f")]
#[inline]
pub(super) fn table<T>(t: &'static T) -> __m512i {
    const { assert!(size_of::<T>() == 64) };
    // SAFETY: `T` is 64 bytes (checked above) and `t` a valid reference to it.
    unsafe { _mm512_loadu_si512(t as *const T as *const __m512i) }
}

/// `DUP[g]`, byte k of dword j: 16g + j. It spreads lead position 16g + j of the
/// compressed position vector over the 4 bytes of output lane j.
/// `DUP2[g]`, byte k of word j: 32g + j, the same for 16-bit lanes.
const fn dup_table(lane: usize) -> [[u8; 64]; 4] {
    let mut t = [[0u8; 64]; 4];
    let mut g = 0;
    while g < 4 {
        let mut i = 0;
        while i < 64 {
            t[g][i] = ((64 / lane) * g + i / lane) as u8;
            i += 1;
        }
        g += 1;
    }
    t
}
pub(super) static DUP: [[u8; 64]; 4] = dup_table(4);
pub(super) static DUP2: [[u8; 64]; 4] = dup_table(2);

/// Byte k of each lane of `lane` bytes is `first` − k: the lane holds the bytes from
/// there on as a big-endian number.
const fn rev_table(lane: usize, first: u8) -> [u8; 64] {
    let mut t = [0u8; 64];
    let mut i = 0;
    while i < 64 {
        t[i] = first - (i % lane) as u8;
        i += 1;
    }
    t
}
/// The lead and the 3 bytes after it.
pub(super) static REV: [u8; 64] = rev_table(4, 3);
/// Bytes 4 and 5 after the lead in the low two bytes (the top two are masked off).
pub(super) static REV_TAIL: [u8; 64] = rev_table(4, 5);
/// The lead and the byte after it.
pub(super) static REV2: [u8; 64] = rev_table(2, 1);

/// 0, 1, …, 63.
const fn iota() -> [u8; 64] {
    let mut t = [0u8; 64];
    let mut i = 0;
    while i < 64 {
        t[i] = i as u8;
        i += 1;
    }
    t
}
pub(super) static IOTA: [u8; 64] = iota();

/// For `vpmultishiftqb`: the bit offsets of the 6-bit groups c0–c3 (value bits 18, 12,
/// 6, 0) of the low and the high dword of each qword, c0 first.
#[cfg(feature = "alloc")]
pub(super) static FOUR_GROUPS: [u8; 64] = {
    let mut t = [0u8; 64];
    let mut i = 0;
    while i < 64 {
        t[i] = [18, 12, 6, 0, 50, 44, 38, 32][i % 8];
        i += 1;
    }
    t
};

/// Byte k of each dword is k: compared with a lane's length, it keeps its bytes.
#[cfg(feature = "alloc")]
pub(super) static BYTE_INDEX: [u8; 64] = {
    let mut t = [0u8; 64];
    let mut i = 0;
    while i < 64 {
        t[i] = (i % 4) as u8;
        i += 1;
    }
    t
};
