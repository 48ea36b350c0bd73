//! The fixed probes whose answers fingerprint an implementation for a checkpoint: every
//! row's edges, errors of each kind, reserved bytes, the magic number; each row's ends,
//! the gaps and the ends of the code space for an encoder. Both walks ask them.

/// Inputs whose answers fingerprint a decoder or document checker: every row's edges,
/// errors of each kind, reserved bytes, the magic number.
pub const FINGERPRINT_INPUTS: [&str; 40] = [
    "00",
    "41",
    "7f",
    "80",
    "bf",
    "c0",
    "c1",
    "c2",
    "df",
    "e0",
    "ed",
    "ef",
    "f0",
    "f4",
    "f5",
    "f8",
    "fc",
    "fe",
    "ff",
    "c080",
    "c280",
    "c2a0",
    "dfbf",
    "e080",
    "e0a080",
    "ed9fbf",
    "eda080",
    "edb080",
    "efbfbf",
    "f0908080",
    "f48fbfbf",
    "f4908080",
    "f8888080",
    "fefe",
    "ff80",
    "41c0",
    "e08041",
    "f58fbfbfdf94",
    "dcbcf0ef0000de",
    "efbbbf41",
];

/// Code points whose answers fingerprint an encoder: each row's ends, the gaps, the ends
/// of the code space and of `u32` (and past it, for UTF-∞-8).
pub const FINGERPRINT_CODEPOINTS: [u128; 20] = [
    0x0,
    0x41,
    0x7F,
    0x80,
    0x9F,
    0xA0,
    0x7FF,
    0x800,
    0x89F,
    0xD7FF,
    0xD800,
    0xDFFF,
    0xE000,
    0xFFFF,
    0x1_0000,
    0x10_FFFF,
    0x11_0000,
    0x7FFF_FFFF,
    0xFFFF_FFFF,
    1 << 40,
];

/// [`FINGERPRINT_INPUTS`] as bytes.
pub fn fingerprint_inputs() -> Vec<Vec<u8>> {
    FINGERPRINT_INPUTS
        .iter()
        .map(|h| {
            (0..h.len())
                .step_by(2)
                .filter_map(|i| u8::from_str_radix(&h[i..i + 2], 16).ok())
                .collect()
        })
        .collect()
}
