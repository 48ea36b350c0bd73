//! The RFC 2044 bit layout shared by Corrected UTF-8 and UTF-8: a leaf module (no
//! imports), so that both encoders use it without depending on each other or on the
//! crate root.

/// Writes `raw` as an RFC 2044 sequence of `len` bytes (2 to 6) into `buf`: a lead of
/// `len` one bits, a zero and the high bits, then continuation bytes of 6 bits each.
/// Corrected UTF-8 and UTF-8 share this bit layout; they differ in what `raw` is.
pub(crate) fn pack(raw: u32, len: usize, buf: &mut [u8]) -> &[u8] {
    let mut rest = raw;
    for byte in buf[1..len].iter_mut().rev() {
        *byte = 0x80 | (rest & 0x3F) as u8;
        rest >>= 6;
    }
    buf[0] = (0xFF00u16 >> len) as u8 | rest as u8;
    &buf[..len]
}
