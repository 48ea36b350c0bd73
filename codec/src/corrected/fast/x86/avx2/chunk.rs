//! Where the encode kernel is in its input and output: a chunk of code points
//! whose room in the output is reserved once, then written with a cursor of its own (a
//! step's stores need no capacity check, and the length is set once per chunk).

use alloc::vec::Vec;

/// A chunk of `src` from `done` to `end` being encoded into room reserved at `base`:
/// 6 bytes for each of its code points (the longest encoding) and `slack` more, the most
/// a step stores past where it starts. A step that encodes k code points into at most
/// 6k bytes and stores within `slack` bytes of [`Chunk::dst`] stays in that room, and
/// [`Chunk::finish`] then counts what was written. The fields are private: `end` stays
/// within the code points and `written` counts what the steps wrote, as the `unsafe`
/// methods rely on.
pub(super) struct Chunk {
    src: *const u32,
    /// The code points before it are encoded (an index into `src`).
    done: usize,
    /// Where the chunk ends (an index into `src`).
    end: usize,
    base: *mut u8,
    /// The bytes written at `base`.
    written: usize,
}

impl Chunk {
    /// The next chunk of `codepoints` from `done` on, of at most `len` code points, with
    /// its room reserved in `out`.
    #[inline(always)]
    pub(super) fn new(
        codepoints: &[u32],
        done: usize,
        len: usize,
        out: &mut Vec<u8>,
        slack: usize,
    ) -> Chunk {
        let end = codepoints.len().min(done + len);
        out.reserve(6 * (end - done) + slack);
        Chunk {
            src: codepoints.as_ptr(),
            done,
            end,
            base: out.spare_capacity_mut().as_mut_ptr().cast(),
            written: 0,
        }
    }

    /// Whether `k` more code points are in the chunk.
    #[inline(always)]
    pub(super) fn has(&self, k: usize) -> bool {
        self.done + k <= self.end
    }

    /// The code points from `done + k` on.
    ///
    /// # Safety
    ///
    /// done + k must be at most `end` (and a read through the pointer must end there).
    #[inline(always)]
    pub(super) unsafe fn src(&self, k: usize) -> *const u32 {
        // SAFETY: done + k ≤ end ≤ the length of the code points (the caller's
        // promise and `new`), so the pointer is within them or one past their end.
        unsafe { self.src.add(self.done + k) }
    }

    /// Where the next step writes: the room of the code points from `done` to `end`
    /// (6 bytes each, at least) and `slack` bytes more, as `written` is at most 6 × the
    /// code points encoded in this chunk. (Writing through it is what is unsafe.)
    #[inline(always)]
    pub(super) fn dst(&self) -> *mut u8 {
        self.base.wrapping_add(self.written)
    }

    /// After a step: `read` code points encoded into `wrote` bytes.
    #[inline(always)]
    pub(super) fn step(&mut self, read: usize, wrote: usize) {
        self.done += read;
        self.written += wrote;
    }

    /// Counts the bytes written into `out`; returns `done`.
    ///
    /// # Safety
    ///
    /// `out` must be the `Vec` the chunk was made with, not changed since, and the
    /// `written` bytes at `base` must have been written.
    #[inline(always)]
    pub(super) unsafe fn finish(self, out: &mut Vec<u8>) -> usize {
        // SAFETY: `written` bytes of the spare capacity are initialized (the caller's
        // promise), and `written` is within the capacity reserved by `new`.
        unsafe { out.set_len(out.len() + self.written) };
        self.done
    }
}
