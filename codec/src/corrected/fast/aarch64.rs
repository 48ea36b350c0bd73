//! aarch64 NEON: the vector under the shared validator, and vector paths for decoding to UTF-32 and encoding
//! from it.
//!
//! Every function enables NEON, which every aarch64 CPU has (it is in the baseline of
//! every aarch64 target but the soft-float ones): the callers in `super` call the entry
//! points (`validate`, `decode_valid`, `encode`) in an `unsafe` block after
//! [`super::InstructionSet::is_available`]. Inside, the arithmetic intrinsics are safe
//! to call, and every `unsafe` is a load or a store, whose bounds are argued at the
//! block. The module is compiled for little-endian aarch64 only, where lane `k` of a
//! vector loaded from memory is the `k`-th element in memory order (the widening zips
//! rely on it).

// Every unsafe operation in an `unsafe fn` gets its own block and SAFETY argument too.
#![deny(unsafe_op_in_unsafe_fn)]

use super::kernel::{Decoded, Kernels};
use super::portable;
use super::simd::{self, ByteVector};
#[cfg(feature = "alloc")]
use alloc::vec::Vec;
use core::arch::aarch64::*;

/// The NEON row of the kernel table: the transcoders are the portable code's (after the
/// NEON validator).
pub(super) const KERNELS: Kernels = Kernels {
    validate,
    decode,
    #[cfg(feature = "alloc")]
    encode,
    #[cfg(feature = "alloc")]
    to_utf8: Kernels::NONE.to_utf8,
    #[cfg(feature = "alloc")]
    from_utf8: Kernels::NONE.from_utf8,
};

/// Loads the 16 bytes at `p`.
///
/// # Safety
///
/// The 16 bytes must be readable.
#[inline]
#[target_feature(enable = "neon")]
unsafe fn load(p: *const u8) -> uint8x16_t {
    // SAFETY: the caller's contract.
    unsafe { vld1q_u8(p) }
}

/// A vector of 16 bytes on NEON, for the shared validator ([`super::simd`]). Instead of
/// loading the input again 1 to 5 bytes back as x86 does, [`ByteVector::back`] combines
/// each vector with the one before it by `vext` (`ext #15` is the input 1 byte back, …,
/// `ext #11` 5 bytes back), so a block reads the 16 bytes before it as context.
///
/// Soundness as there: a value exists only after an `unsafe` constructor whose contract
/// is that the CPU runs NEON. (Where NEON is in the target's baseline, the intrinsics
/// are safe to call anyway: hence `allow(unused_unsafe)`.)
#[derive(Clone, Copy)]
pub(super) struct Neon(uint8x16_t);

#[allow(unused_unsafe)]
impl ByteVector for Neon {
    const LANES: usize = 16;
    const CONTEXT: usize = 16;
    type Mask = Neon;

    #[inline(always)]
    unsafe fn load(p: *const u8) -> Self {
        // SAFETY: the caller's contract: the CPU, and the bytes.
        Neon(unsafe { vld1q_u8(p) })
    }
    #[inline(always)]
    unsafe fn before(p: *const u8) -> Self {
        // SAFETY: the caller's contract: the CPU, and p − 16 .. p.
        unsafe { Self::load(p.sub(16)) }
    }
    #[inline(always)]
    unsafe fn back<const K: usize>(_: *const u8, prev: Self, cur: Self) -> Self {
        // SAFETY: `cur` exists, so the CPU runs NEON.
        Neon(unsafe {
            match K {
                1 => vextq_u8::<15>(prev.0, cur.0),
                2 => vextq_u8::<14>(prev.0, cur.0),
                3 => vextq_u8::<13>(prev.0, cur.0),
                4 => vextq_u8::<12>(prev.0, cur.0),
                _ => vextq_u8::<11>(prev.0, cur.0),
            }
        })
    }
    #[inline(always)]
    fn above(self, t: u8) -> Self {
        // SAFETY: `self` exists, so the CPU runs NEON.
        Neon(unsafe { vqsubq_u8(self.0, vdupq_n_u8(t)) })
    }
    #[inline(always)]
    fn any3(a: Self, b: Self, c: Self) -> Self {
        // SAFETY: `a` exists, so the CPU runs NEON.
        Neon(unsafe { vorrq_u8(vorrq_u8(a.0, b.0), c.0) })
    }
    #[inline(always)]
    fn max(self, other: Self) -> Self {
        // SAFETY: `self` exists, so the CPU runs NEON.
        Neon(unsafe { vmaxq_u8(self.0, other.0) })
    }
    #[inline(always)]
    fn or(self, other: Self) -> Self {
        // SAFETY: `self` exists, so the CPU runs NEON.
        Neon(unsafe { vorrq_u8(self.0, other.0) })
    }
    #[inline(always)]
    fn is_ascii(self) -> bool {
        // SAFETY: `self` exists, so the CPU runs NEON.
        unsafe { vmaxvq_u8(self.0) < 0x80 }
    }
    #[inline(always)]
    fn zero(self) -> Self {
        // SAFETY: `self` exists, so the CPU runs NEON.
        Neon(unsafe { vceqzq_u8(self.0) })
    }
    #[inline(always)]
    fn continuation(self) -> Self {
        // 80–BF are the signed bytes below −64.
        // SAFETY: `self` exists, so the CPU runs NEON.
        Neon(unsafe { vcltq_s8(vreinterpretq_s8_u8(self.0), vdupq_n_s8(-64)) })
    }
    #[inline(always)]
    fn below(self, t: u8) -> Self {
        // SAFETY: `self` exists, so the CPU runs NEON.
        Neon(unsafe { vcltq_u8(self.0, vdupq_n_u8(t)) })
    }
    #[inline(always)]
    fn mask_xor(a: Self, b: Self) -> Self {
        // SAFETY: `a` exists, so the CPU runs NEON.
        Neon(unsafe { veorq_u8(a.0, b.0) })
    }
    #[inline(always)]
    fn mask_and(a: Self, b: Self) -> Self {
        // SAFETY: `a` exists, so the CPU runs NEON.
        Neon(unsafe { vandq_u8(a.0, b.0) })
    }
    #[inline(always)]
    fn mask_is_full(m: Self) -> bool {
        // SAFETY: `m` exists, so the CPU runs NEON.
        unsafe { vminvq_u8(m.0) == 0xFF }
    }
}

/// The validate kernel: `bytes.len()`, or a sequence boundary before which `bytes` are
/// valid and after which the first error lies (the start of the first failing 64-byte
/// block, or of the sequence that runs into it).
#[target_feature(enable = "neon")]
fn validate(bytes: &[u8]) -> usize {
    // SAFETY: this is a `#[target_feature(enable = "neon")]` function: calling it took
    // a caller compiled with NEON or an `unsafe` block that checked the CPU.
    unsafe { simd::validate::<Neon>(bytes) }
}

// Decoding (of validated input). At each sequence boundary, in this order: 16 ASCII
// bytes widened by `vmovl`; 16 sequences of one length from 2 to 4 bytes, split into
// their bytes by a de-interleaving load (`vld2`/`vld3`/`vld4`); 16 bytes of 1- to
// 3-byte sequences, each lane decoded as if a sequence started there and the lanes
// where one does packed together by `vqtbl1q_u8`; else one sequence the scalar way.

/// Stores 16 code points: `raw + offset`, widened from the two halves (lanes 0–7 and
/// 8–15) of each.
#[inline]
#[target_feature(enable = "neon")]
fn store_sum16(dst: &mut [u32; 16], raw: [uint16x8_t; 2], offset: [uint16x8_t; 2]) {
    let ptr = dst.as_mut_ptr();
    for h in 0..2 {
        let low = vaddl_u16(vget_low_u16(raw[h]), vget_low_u16(offset[h]));
        let high = vaddl_high_u16(raw[h], offset[h]);
        // SAFETY: lanes 8h .. 8h + 8 of the 16 of `dst`.
        unsafe {
            vst1q_u32(ptr.add(8 * h), low);
            vst1q_u32(ptr.add(8 * h + 4), high);
        }
    }
}

/// The halves (lanes 0–7 and 8–15) of `(hi << SHIFT) | lo`, widened to 16 bits.
#[inline]
#[target_feature(enable = "neon")]
fn join<const SHIFT: i32>(hi: uint8x16_t, lo: uint8x16_t) -> [uint16x8_t; 2] {
    [
        vorrq_u16(
            vshll_n_u8::<SHIFT>(vget_low_u8(hi)),
            vmovl_u8(vget_low_u8(lo)),
        ),
        vorrq_u16(vshll_high_n_u8::<SHIFT>(hi), vmovl_high_u8(lo)),
    ]
}

/// The low 6 bits of each byte (a continuation byte's payload).
#[inline]
#[target_feature(enable = "neon")]
fn payload(v: uint8x16_t) -> uint8x16_t {
    vandq_u8(v, vdupq_n_u8(0x3F))
}

/// Decodes 16 ASCII bytes, or returns `false`.
#[inline]
#[target_feature(enable = "neon")]
fn ascii16(src: &[u8; 16], dst: &mut [u32; 16]) -> bool {
    // SAFETY: `src` is 16 bytes.
    let v = unsafe { load(src.as_ptr()) };
    if vmaxvq_u8(v) >= 0x80 {
        return false;
    }
    let zero = vdupq_n_u16(0);
    store_sum16(dst, [vmovl_u8(vget_low_u8(v)), vmovl_high_u8(v)], [zero; 2]);
    true
}

/// Decodes 16 valid 2-byte sequences, or returns `false` if `src` is not that.
#[inline]
#[target_feature(enable = "neon")]
fn two16(src: &[u8; 32], dst: &mut [u32; 16]) -> bool {
    // SAFETY: `src` is 32 bytes.
    let v = unsafe { vld2q_u8(src.as_ptr()) };
    // Every first byte C0–DF (and so, the input being valid, every second a
    // continuation).
    if vmaxvq_u8(veorq_u8(vshrq_n_u8::<5>(v.0), vdupq_n_u8(0b110))) != 0 {
        return false;
    }
    let raw = join::<6>(vandq_u8(v.0, vdupq_n_u8(0x1F)), payload(v.1));
    store_sum16(dst, raw, [vdupq_n_u16(160); 2]);
    true
}

/// Decodes 16 valid 3-byte sequences, or returns `false` if `src` is not that.
#[inline]
#[target_feature(enable = "neon")]
fn three16(src: &[u8; 48], dst: &mut [u32; 16]) -> bool {
    // SAFETY: `src` is 48 bytes.
    let v = unsafe { vld3q_u8(src.as_ptr()) };
    if vmaxvq_u8(veorq_u8(vshrq_n_u8::<4>(v.0), vdupq_n_u8(0b1110))) != 0 {
        return false;
    }
    let low12 = join::<6>(payload(v.1), payload(v.2));
    let raw = core::array::from_fn(|h| {
        let lead = [vget_low_u8(v.0), vget_high_u8(v.0)][h];
        // The lead's 4 bits on top (the lead mark shifts out).
        vorrq_u16(vshlq_n_u16::<12>(vmovl_u8(lead)), low12[h])
    });
    store_sum16(dst, raw, [offset3(raw[0]), offset3(raw[1])]);
    true
}

/// The offset of 3-byte sequences with these raw values: the class below the
/// surrogates or the one above.
#[inline]
#[target_feature(enable = "neon")]
fn offset3(raw: uint16x8_t) -> uint16x8_t {
    let above = vcgeq_u16(raw, vdupq_n_u16(0xD800 - 2_208));
    vbslq_u16(above, vdupq_n_u16(4_256), vdupq_n_u16(2_208))
}

/// Decodes 16 valid 4-byte sequences, or returns `false` if `src` is not that.
#[inline]
#[target_feature(enable = "neon")]
fn four16(src: &[u8; 64], dst: &mut [u32; 16]) -> bool {
    // SAFETY: `src` is 64 bytes.
    let v = unsafe { vld4q_u8(src.as_ptr()) };
    if vmaxvq_u8(veorq_u8(vshrq_n_u8::<3>(v.0), vdupq_n_u8(0b1_1110))) != 0 {
        return false;
    }
    // The raw value's bits 12–20 and 0–11.
    let high = join::<6>(vandq_u8(v.0, vdupq_n_u8(0x07)), payload(v.1));
    let low = join::<6>(payload(v.2), payload(v.3));
    let offset = vdupq_n_u32(69_792);
    let ptr = dst.as_mut_ptr();
    for h in 0..2 {
        let first = vorrq_u32(
            vshll_n_u16::<12>(vget_low_u16(high[h])),
            vmovl_u16(vget_low_u16(low[h])),
        );
        let second = vorrq_u32(vshll_high_n_u16::<12>(high[h]), vmovl_high_u16(low[h]));
        // SAFETY: lanes 8h .. 8h + 8 of the 16 of `dst`.
        unsafe {
            vst1q_u32(ptr.add(8 * h), vaddq_u32(first, offset));
            vst1q_u32(ptr.add(8 * h + 4), vaddq_u32(second, offset));
        }
    }
    true
}

/// For each 4-bit mask of u32 lanes: the byte indices that pack those lanes to the
/// front (in order), for `vqtbl1q_u8`. The rest are 0 (what lands there is overwritten).
static PACK: [[u8; 16]; 16] = {
    let mut t = [[0u8; 16]; 16];
    let mut mask = 0;
    while mask < 16 {
        let mut to = 0;
        let mut lane = 0;
        while lane < 4 {
            if mask & (1 << lane) != 0 {
                let mut b = 0;
                while b < 4 {
                    t[mask][4 * to + b] = (4 * lane + b) as u8;
                    b += 1;
                }
                to += 1;
            }
            lane += 1;
        }
        mask += 1;
    }
    t
};

/// Bit `k % 8` in byte `k`: ANDed with a byte mask and summed per half, a 16-bit mask.
static BIT_OF_LANE: [u8; 16] = [1, 2, 4, 8, 16, 32, 64, 128, 1, 2, 4, 8, 16, 32, 64, 128];

/// Decodes the 1- to 3-byte sequences that lie wholly in the 16 bytes of `src` (valid
/// input, a sequence starts at `src[0]`): the number of bytes and of code points, or
/// `None` if a byte is F0–FF.
#[inline]
#[target_feature(enable = "neon")]
fn short16(src: &[u8; 16], dst: &mut [u32; 16]) -> Option<(usize, usize)> {
    // SAFETY: `src` is 16 bytes.
    let v = unsafe { load(src.as_ptr()) };
    if vmaxvq_u8(v) >= 0xF0 {
        return None;
    }
    // Each lane as if a sequence started there: b0 (its own byte), b1 and b2 (the next
    // two; past the end they are 0, and those lanes are never kept).
    let zero = vdupq_n_u8(0);
    let b1 = payload(vextq_u8::<1>(v, zero));
    let b2 = payload(vextq_u8::<2>(v, zero));
    let two = vcgeq_u8(v, vdupq_n_u8(0xC0));
    let three = vcgeq_u8(v, vdupq_n_u8(0xE0));
    // The raw value's low and high byte, by length: ASCII `b0`; 2 bytes
    // `(b0 & 1F) << 6 | b1`; 3 bytes `(b0 & 0F) << 12 | b1 << 6 | b2`.
    let low = vbslq_u8(
        three,
        vorrq_u8(vshlq_n_u8::<6>(b1), b2),
        vbslq_u8(two, vorrq_u8(vshlq_n_u8::<6>(v), b1), v),
    );
    let high = vbslq_u8(
        three,
        vorrq_u8(vshlq_n_u8::<4>(v), vshrq_n_u8::<2>(b1)),
        vandq_u8(vshrq_n_u8::<2>(v), vandq_u8(two, vdupq_n_u8(0x07))),
    );
    // Little-endian: zipping low and high bytes gives the 16-bit lanes.
    let raw = [
        vreinterpretq_u16_u8(vzip1q_u8(low, high)),
        vreinterpretq_u16_u8(vzip2q_u8(low, high)),
    ];
    let wide = |m: uint8x16_t| {
        [
            vreinterpretq_u16_u8(vzip1q_u8(m, m)),
            vreinterpretq_u16_u8(vzip2q_u8(m, m)),
        ]
    };
    let (two, three) = (wide(two), wide(three));
    let offset: [uint16x8_t; 2] = core::array::from_fn(|h| {
        vbslq_u16(
            three[h],
            offset3(raw[h]),
            vandq_u16(two[h], vdupq_n_u16(160)),
        )
    });
    // Where sequences start; the last one is dropped if it runs past the 16 bytes.
    // SAFETY: `BIT_OF_LANE` is 16 bytes.
    let bits = vandq_u8(vcgeq_s8(vreinterpretq_s8_u8(v), vdupq_n_s8(-64)), unsafe {
        load(BIT_OF_LANE.as_ptr())
    });
    let leads =
        u32::from(vaddv_u8(vget_low_u8(bits))) | u32::from(vaddv_u8(vget_high_u8(bits))) << 8;
    let last = 31 - leads.leading_zeros() as usize;
    let end = match src[last] {
        0x00..=0x7F => last + 1,
        0xC0..=0xDF => last + 2,
        _ => last + 3,
    };
    let (end, keep) = if end <= 16 {
        (16, leads)
    } else {
        (last, leads & !(1 << last))
    };
    let ptr = dst.as_mut_ptr();
    let mut written = 0;
    for q in 0..4 {
        let h = q / 2;
        let lanes = if q % 2 == 0 {
            vaddl_u16(vget_low_u16(raw[h]), vget_low_u16(offset[h]))
        } else {
            vaddl_high_u16(raw[h], offset[h])
        };
        let mask = (keep >> (4 * q)) & 0xF;
        // SAFETY: `PACK` rows are 16 bytes.
        let pack = unsafe { load(PACK[mask as usize].as_ptr()) };
        let packed = vqtbl1q_u8(vreinterpretq_u8_u32(lanes), pack);
        // SAFETY: `written` <= 4q, so lanes written .. written + 4 are within the 16 of
        // `dst`.
        unsafe { vst1q_u32(ptr.add(written), vreinterpretq_u32_u8(packed)) };
        written += mask.count_ones() as usize;
    }
    Some((end, written))
}

/// The decode kernel: validates `bytes` (the validate kernel), then decodes them while 16
/// bytes and the room of 16 code points are left.
#[target_feature(enable = "neon")]
fn decode(bytes: &[u8], out: &mut [u32]) -> Decoded {
    let valid = validate(bytes);
    if valid < bytes.len() {
        return Decoded::Invalid(valid);
    }
    let (mut i, mut o) = (0, 0);
    while let (Some(rest), Some(dst)) = (bytes.get(i..), out.get_mut(o..o + 16)) {
        if rest.len() < 16 {
            break;
        }
        let dst: &mut [u32; 16] = dst.try_into().expect("16 lanes");
        let first = bytes[i];
        let whole = |n: usize| rest.get(..n);
        let done = if ascii16(rest[..16].try_into().expect("16 bytes"), dst) {
            Some((16, 16))
        } else if matches!(first, 0xC0..=0xDF)
            && whole(32).is_some_and(|s| two16(s.try_into().expect("32"), dst))
        {
            Some((32, 16))
        } else if matches!(first, 0xE0..=0xEF)
            && whole(48).is_some_and(|s| three16(s.try_into().expect("48"), dst))
        {
            Some((48, 16))
        } else if matches!(first, 0xF0..=0xF7)
            && whole(64).is_some_and(|s| four16(s.try_into().expect("64"), dst))
        {
            Some((64, 16))
        } else {
            short16(rest[..16].try_into().expect("16 bytes"), dst)
        };
        match done {
            Some((read, written)) => {
                i += read;
                o += written;
            }
            // One sequence (or 8 ASCII bytes) the scalar way.
            None => (i, o) = portable::decode_valid_until(bytes, out, i, o, i + 1),
        }
    }
    Decoded::Upto {
        read: i,
        written: o,
    }
}

// Encoding, 16 code points at a time: all ASCII, narrowed by `vmovn`; or all of one
// length from 2 to 4 bytes, each byte of the sequences computed in its own vector and
// interleaved by `vst2`/`vst3`/`vst4`. Mixed groups, and any with a code point that has
// no encoding or needs 5 or 6 bytes, go to the scalar loop (which finds the exact error).

/// The low bytes of 16 u32 lanes.
#[cfg(feature = "alloc")]
#[inline]
#[target_feature(enable = "neon")]
fn narrow(v: [uint32x4_t; 4]) -> uint8x16_t {
    let low = vcombine_u16(vmovn_u32(v[0]), vmovn_u32(v[1]));
    let high = vcombine_u16(vmovn_u32(v[2]), vmovn_u32(v[3]));
    vcombine_u8(vmovn_u16(low), vmovn_u16(high))
}

/// Byte `k` of 16 sequences of `len` bytes with raw values `raw`: the 6-bit group
/// `len − 1 − k` with the continuation mark, or for `k = 0` the bits above with the
/// lead mark.
#[cfg(feature = "alloc")]
#[inline]
#[target_feature(enable = "neon")]
fn sequence_byte(raw: [uint32x4_t; 4], len: i32, k: i32) -> uint8x16_t {
    // A negative left shift is a right shift.
    let right = vdupq_n_s32(-6 * (len - 1 - k));
    let groups = narrow(raw.map(|r| vshlq_u32(r, right)));
    if k == 0 {
        vorrq_u8(groups, vdupq_n_u8((0xFF00u16 >> len) as u8))
    } else {
        vorrq_u8(vandq_u8(groups, vdupq_n_u8(0x3F)), vdupq_n_u8(0x80))
    }
}

/// The encode kernel: appends the encoding of `codepoints` to `out` up to the last 15
/// or the first group of 16 with a code point that has no encoding; returns how many it
/// encoded.
#[cfg(feature = "alloc")]
#[target_feature(enable = "neon")]
fn encode(codepoints: &[u32], out: &mut Vec<u8>) -> usize {
    out.reserve(codepoints.len());
    let mut done = 0;
    for chunk in codepoints.chunks_exact(16) {
        // SAFETY: the chunk is 16 u32, 4 vectors.
        let v: [uint32x4_t; 4] =
            core::array::from_fn(|k| unsafe { vld1q_u32(chunk.as_ptr().add(4 * k)) });
        let max = vmaxvq_u32(vmaxq_u32(vmaxq_u32(v[0], v[1]), vmaxq_u32(v[2], v[3])));
        let min = vminvq_u32(vminq_u32(vminq_u32(v[0], v[1]), vminq_u32(v[2], v[3])));
        let sub = |offset: u32| v.map(|x| vsubq_u32(x, vdupq_n_u32(offset)));
        if max < 0x80 {
            let mut bytes = [0u8; 16];
            // SAFETY: 16 bytes into `bytes`.
            unsafe { vst1q_u8(bytes.as_mut_ptr(), narrow(v)) };
            out.extend_from_slice(&bytes);
        } else if min >= 0xA0 && max <= 0x89F {
            let raw = sub(160);
            let seq = uint8x16x2_t(sequence_byte(raw, 2, 0), sequence_byte(raw, 2, 1));
            let mut bytes = [0u8; 32];
            // SAFETY: 32 bytes into `bytes`.
            unsafe { vst2q_u8(bytes.as_mut_ptr(), seq) };
            out.extend_from_slice(&bytes);
        } else if min >= 0x8A0 && max <= 0x1_109F {
            // Surrogates have no encoding; above them the offset is 2048 more.
            let surrogate = |x| vcltq_u32(vsubq_u32(x, vdupq_n_u32(0xD800)), vdupq_n_u32(0x800));
            let any = vorrq_u32(
                vorrq_u32(surrogate(v[0]), surrogate(v[1])),
                vorrq_u32(surrogate(v[2]), surrogate(v[3])),
            );
            if vmaxvq_u32(any) != 0 {
                // A surrogate: an error, which the portable encoder finds.
                return done;
            }
            let raw = v.map(|x| {
                let above = vcgeq_u32(x, vdupq_n_u32(0xE000));
                let offset = vbslq_u32(above, vdupq_n_u32(4_256), vdupq_n_u32(2_208));
                vsubq_u32(x, offset)
            });
            let seq = uint8x16x3_t(
                sequence_byte(raw, 3, 0),
                sequence_byte(raw, 3, 1),
                sequence_byte(raw, 3, 2),
            );
            let mut bytes = [0u8; 48];
            // SAFETY: 48 bytes into `bytes`.
            unsafe { vst3q_u8(bytes.as_mut_ptr(), seq) };
            out.extend_from_slice(&bytes);
        } else if min >= 0x1_10A0 && max <= 0x21_109F {
            let raw = sub(69_792);
            let seq = uint8x16x4_t(
                sequence_byte(raw, 4, 0),
                sequence_byte(raw, 4, 1),
                sequence_byte(raw, 4, 2),
                sequence_byte(raw, 4, 3),
            );
            let mut bytes = [0u8; 64];
            // SAFETY: 64 bytes into `bytes`.
            unsafe { vst4q_u8(bytes.as_mut_ptr(), seq) };
            out.extend_from_slice(&bytes);
        } else if !portable::encode_whole(chunk, out) {
            // A code point without an encoding: the portable encoder finds it.
            return done;
        }
        done += 16;
    }
    done
}
