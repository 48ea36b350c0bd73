//! The SIMD validator, written once over [`ByteVector`], a vector of bytes with the
//! dozen operations it needs; each instruction set implements them (SSE2 and AVX2 in
//! `x86.rs`, AVX-512 in `x86/avx512.rs`, NEON in `aarch64.rs`), simdutf8's shape.
//!
//! A byte must be a continuation (`80–BF`) exactly when a lead before it reaches it: the
//! byte 1 back is `C0–FF`, or 2 back `E0–FF`, 3 back `F0–FF`, 4 back `F8–FF`, 5 back
//! `FC–FF`. Each vector is compared with the input 1, 2, … 5 bytes back (a reload on x86,
//! `ext` of the vector before on NEON), each with one saturating subtraction:
//! `sub(b1, BF) | sub(b2, DF) | …` is non-zero exactly where a byte is covered. Reserved
//! bytes `FE`/`FF` are errors of their own.
//!
//! Text without bytes `F8–FF` needs only 3 bytes back, so the common step checks 256
//! bytes that way and also tests that no `F8–FF` is among them or the 5 bytes before;
//! when one is (or anything fails), the full check runs on the step's 64-byte blocks and
//! finds the first block that fails.
//!
//! Every function here is `#[inline(always)]` and generic: it is compiled inside the
//! `#[target_feature]` entry point of each instruction set ([`validate`]'s callers), so
//! the operations inline with that feature set and the result is the hand-written loop.
//!
//! Soundness rests on one rule: a value of a [`ByteVector`] type exists only on a CPU
//! that runs its instruction set, because its only constructors ([`ByteVector::load`],
//! [`ByteVector::before`], [`ByteVector::back`]) are `unsafe fn`s that require it. So
//! the operations on a value are safe to call.

/// A vector of bytes on one instruction set, and what the validator does with one.
pub(super) trait ByteVector: Copy {
    /// Bytes in one vector: 16, 32 or 64.
    const LANES: usize;
    /// How many bytes before `p` [`Self::before`] and [`Self::back`] read (at most 64).
    const CONTEXT: usize;
    /// One flag per lane: a vector of `00`/`FF` bytes, or a bit mask (AVX-512).
    type Mask: Copy;

    /// The `LANES` bytes at `p`.
    ///
    /// # Safety
    ///
    /// The CPU runs the instruction set, and `p .. p + LANES` is readable.
    unsafe fn load(p: *const u8) -> Self;
    /// What [`Self::back`] needs of the bytes before `p` (on x86, nothing: a constant).
    ///
    /// # Safety
    ///
    /// The CPU runs the instruction set, and `p − CONTEXT .. p` is readable.
    unsafe fn before(p: *const u8) -> Self;
    /// The `LANES` bytes at `p − K` (`1 ≤ K ≤ 5`), where `cur` holds the bytes at `p` and
    /// `prev` is [`Self::before`]`(p)` or the vector loaded at `p − LANES`.
    ///
    /// # Safety
    ///
    /// `p − CONTEXT .. p + LANES` is readable.
    unsafe fn back<const K: usize>(p: *const u8, prev: Self, cur: Self) -> Self;

    /// Each byte minus `t`, saturating at 0: non-zero exactly where the byte is above `t`.
    fn above(self, t: u8) -> Self;
    /// A lane non-zero where any of the three is (their bitwise OR, or maximum).
    fn any3(a: Self, b: Self, c: Self) -> Self;
    /// The unsigned maximum of each lane.
    fn max(self, other: Self) -> Self;
    /// The bitwise OR.
    fn or(self, other: Self) -> Self;
    /// Whether every byte is below `80`.
    fn is_ascii(self) -> bool;
    /// The lanes that are `00`.
    fn zero(self) -> Self::Mask;
    /// The lanes that are continuation bytes, `80–BF`.
    fn continuation(self) -> Self::Mask;
    /// The lanes below `t` (`t ≥ 1`).
    fn below(self, t: u8) -> Self::Mask;
    /// The lanes in exactly one of `a` and `b`.
    fn mask_xor(a: Self::Mask, b: Self::Mask) -> Self::Mask;
    /// The lanes in both `a` and `b`.
    fn mask_and(a: Self::Mask, b: Self::Mask) -> Self::Mask;
    /// Whether every lane is set.
    fn mask_is_full(m: Self::Mask) -> bool;
}

/// The lanes of `cur`, the bytes at `p`, that are right: a continuation byte exactly
/// where a lead 1 to 3 bytes back (5 if `FULL`) covers it, and, if `FULL`, not a
/// reserved byte. `prev` as [`ByteVector::back`] takes it.
///
/// # Safety
///
/// `p − V::CONTEXT .. p + V::LANES` is readable.
#[inline(always)]
pub(super) unsafe fn right_lanes<V: ByteVector, const FULL: bool>(
    p: *const u8,
    prev: V,
    cur: V,
) -> V::Mask {
    // SAFETY: the caller's contract, for each distance back (at most 5 ≤ CONTEXT).
    let mut covered = unsafe {
        V::any3(
            V::back::<1>(p, prev, cur).above(0xBF),
            V::back::<2>(p, prev, cur).above(0xDF),
            V::back::<3>(p, prev, cur).above(0xEF),
        )
    };
    if FULL {
        // SAFETY: as above.
        covered = unsafe {
            V::any3(
                covered,
                V::back::<4>(p, prev, cur).above(0xF7),
                V::back::<5>(p, prev, cur).above(0xFB),
            )
        };
    }
    // Right where exactly one of "not covered" and "continuation" holds.
    let right = V::mask_xor(covered.zero(), cur.continuation());
    if FULL {
        V::mask_and(right, cur.below(0xFE))
    } else {
        right
    }
}

/// Whether the `BYTES` bytes at `p` (a multiple of `LANES`) are right. If `FULL`, looking 5 bytes back
/// and at reserved bytes; else (the quick check) only 3 bytes back, and only if neither
/// the bytes nor the 5 before are `F8–FF`, so that nothing reaches further.
///
/// # Safety
///
/// The CPU runs `V`'s instruction set, and `p − V::CONTEXT .. p + BYTES` is readable.
#[inline(always)]
pub(super) unsafe fn blocks_ok<V: ByteVector, const FULL: bool, const BYTES: usize>(
    p: *const u8,
) -> bool {
    // SAFETY: the caller's contract: the CPU, and the bytes p − CONTEXT .. p + LANES.
    let (prev, cur) = unsafe { (V::before(p), V::load(p)) };
    // SAFETY: as above.
    let mut right = unsafe { right_lanes::<V, FULL>(p, prev, cur) };
    // The 5 bytes before `p` count for the quick check, which does not look 4 or 5 back.
    // SAFETY: as above.
    let mut max = unsafe { V::back::<5>(p, prev, cur) }.max(cur);
    let mut prev = cur;
    for k in 1..BYTES / V::LANES {
        let q = p.wrapping_add(V::LANES * k);
        // SAFETY: q .. q + LANES is within p .. p + BYTES, and prev was loaded at
        // q − LANES.
        let cur = unsafe { V::load(q) };
        // SAFETY: as above.
        right = V::mask_and(right, unsafe { right_lanes::<V, FULL>(q, prev, cur) });
        max = max.max(cur);
        prev = cur;
    }
    if !FULL {
        right = V::mask_and(right, max.below(0xF8));
    }
    V::mask_is_full(right)
}

/// Whether the 64 bytes at `p` are right (given the `CONTEXT` before).
///
/// # Safety
///
/// The CPU runs `V`'s instruction set, and `p − V::CONTEXT .. p + 64` is readable.
#[inline(always)]
unsafe fn full<V: ByteVector>(p: *const u8) -> bool {
    // SAFETY: the caller's contract.
    unsafe { blocks_ok::<V, true, 64>(p) }
}

/// Whether the 256 bytes at `p` are ASCII.
///
/// # Safety
///
/// The CPU runs `V`'s instruction set, and `p .. p + 256` is readable.
#[inline(always)]
pub(super) unsafe fn ascii256<V: ByteVector>(p: *const u8) -> bool {
    // SAFETY: the caller's contract.
    let mut acc = unsafe { V::load(p) };
    for k in 1..256 / V::LANES {
        // SAFETY: k × LANES + LANES <= 256.
        acc = acc.or(unsafe { V::load(p.wrapping_add(V::LANES * k)) });
    }
    acc.is_ascii()
}

/// Validates with `V`: `bytes.len()` if `bytes` are valid, or else a sequence boundary
/// before which they are and after which the first error lies (the start of the first
/// failing 64-byte block, or of the sequence that runs into it): the validate kernel of
/// every vector instruction set.
///
/// # Safety
///
/// The CPU runs `V`'s instruction set.
#[inline(always)]
pub(super) unsafe fn validate<V: ByteVector>(bytes: &[u8]) -> usize {
    // The checks read at most `CONTEXT` (≤ 64) bytes before a block.
    debug_assert!(V::CONTEXT <= 64 && 64 % V::LANES == 0);
    let len = bytes.len();
    let ptr = bytes.as_ptr();
    // Room for the context and two 64-byte blocks.
    let mut buffer = [0u8; 64 + 128];
    let mut at = 0;
    let mut full_steps = 0u32;
    // The first block or two, with ASCII context in front. With two, the steps then
    // start where the input is 64-byte aligned (from 64 to 127), so that whole-block
    // loads do not straddle cache lines; the bytes from there to 128 are checked twice,
    // which changes nothing.
    if len >= 128 {
        buffer[64..].copy_from_slice(&bytes[..128]);
        let b = buffer.as_ptr();
        // SAFETY: the blocks and their context are the 192 bytes of `buffer`; the CPU by
        // this function's contract.
        if !unsafe { full::<V>(b.add(64)) && full::<V>(b.add(128)) } {
            return super::restart_point(bytes, 0);
        }
        at = 64 + (ptr as usize).wrapping_neg() % 64;
    } else if len >= 64 {
        buffer[64..128].copy_from_slice(&bytes[..64]);
        // SAFETY: the block and its context are in the 192 bytes of `buffer`; the CPU by
        // this function's contract.
        if !unsafe { full::<V>(buffer.as_ptr().add(64)) } {
            return super::restart_point(bytes, 0);
        }
        at = 64;
    }
    while at + 256 <= len {
        // After ASCII (a whole sequence) nothing is pending: skip ASCII runs.
        if bytes[at - 1] < 0x80 {
            // SAFETY: at + 256 <= len; the CPU by this function's contract.
            while at + 256 <= len && unsafe { ascii256::<V>(ptr.add(at)) } {
                at += 256;
            }
            if at + 256 > len {
                break;
            }
        }
        // SAFETY: at >= 64 >= CONTEXT and at + 256 <= len: every byte read, from
        // at − CONTEXT to at + 256, is in `bytes`; the CPU by this function's contract.
        if full_steps > 0 || !unsafe { blocks_ok::<V, false, 256>(ptr.add(at)) } {
            // Text with 5- and 6-byte sequences would fail the quick check every time:
            // after one failure, check the next 16 steps in full right away.
            full_steps = if full_steps > 0 { full_steps - 1 } else { 16 };
            // SAFETY: as above.
            if unsafe { blocks_ok::<V, true, 256>(ptr.add(at)) } {
                at += 256;
                continue;
            }
            // Find the block that fails.
            for block in (at..at + 256).step_by(64) {
                // SAFETY: as above, for a sub-range.
                if !unsafe { full::<V>(ptr.add(block)) } {
                    return super::restart_point(bytes, block);
                }
            }
        }
        at += 256;
    }
    while at + 64 <= len {
        // SAFETY: at >= 64 >= CONTEXT and at + 64 <= len; the CPU by this function's
        // contract.
        if !unsafe { full::<V>(ptr.add(at)) } {
            return super::restart_point(bytes, at);
        }
        at += 64;
    }
    // The tail (< 64 bytes) with its context, padded with `00`: a sequence cut short by
    // the end of the input expects a continuation where the padding starts (in the
    // block), and that is an error.
    buffer = [0; 64 + 128];
    let from = at.saturating_sub(64);
    buffer[64 - (at - from)..64 + len - at].copy_from_slice(&bytes[from..]);
    // SAFETY: the block and its context are the first 128 bytes of `buffer`; the CPU by
    // this function's contract.
    if !unsafe { full::<V>(buffer.as_ptr().add(64)) } {
        return super::restart_point(bytes, at);
    }
    len
}
