//! The yardsticks the fast paths are measured against, on the UTF-8 twin of each text:
//! simdutf (the C++ library), simdutf8 and `std`, with the instruction set each runs.
//!
//! simdutf picks its implementation once, at its first call, from the CPU's features;
//! the environment variable `SIMDUTF_FORCE_IMPLEMENTATION` (read at that first call)
//! overrides it. The Rust crate cannot say which it picked, so [`simdutf_pick`] applies
//! the library's own rule (its `detect_best_supported`: the first implementation, in
//! priority order, whose required instruction sets the CPU has) and [`pin_simdutf`]
//! then forces that very name, so that the label is what runs.

/// The environment variable simdutf reads to force an implementation.
pub const SIMDUTF_FORCE: &str = "SIMDUTF_FORCE_IMPLEMENTATION";

/// simdutf's x86-64 implementations in its priority order (all compiled in unless the
/// C++ is built for a fixed CPU).
#[cfg(target_arch = "x86_64")]
const SIMDUTF_X86: [&str; 4] = ["icelake", "haswell", "westmere", "fallback"];

/// Whether simdutf's implementation `name` is compiled in and this CPU has what it
/// requires (the instruction sets each declares in simdutf 7.7.1).
pub fn simdutf_supports(name: &str) -> bool {
    #[cfg(target_arch = "x86_64")]
    {
        use std::arch::is_x86_feature_detected as has;
        let haswell = has!("avx2") && has!("bmi1") && has!("bmi2");
        match name {
            "icelake" => {
                haswell
                    && has!("avx512bw")
                    && has!("avx512cd")
                    && has!("avx512vl")
                    && has!("avx512vbmi2")
                    && has!("avx512vpopcntdq")
            }
            "haswell" => haswell,
            "westmere" => has!("sse4.2"),
            "fallback" => true,
            _ => false,
        }
    }
    #[cfg(target_arch = "aarch64")]
    {
        // NEON is always there; the fallback is then not compiled in.
        name == "arm64"
    }
    #[cfg(not(any(target_arch = "x86_64", target_arch = "aarch64")))]
    {
        let _ = name;
        false
    }
}

/// The implementation simdutf runs in this process: the one `SIMDUTF_FORCE_IMPLEMENTATION`
/// names, else the best this CPU supports (`unknown` on targets not modelled here).
pub fn simdutf_pick() -> String {
    if let Ok(name) = std::env::var(SIMDUTF_FORCE) {
        return name;
    }
    #[cfg(target_arch = "x86_64")]
    let best = SIMDUTF_X86
        .into_iter()
        .find(|n| simdutf_supports(n))
        .unwrap_or("fallback");
    #[cfg(target_arch = "aarch64")]
    let best = "arm64";
    #[cfg(not(any(target_arch = "x86_64", target_arch = "aarch64")))]
    let best = "unknown";
    best.to_string()
}

/// The simdutf implementation that matches our instruction set `isa`
/// (`InstructionSet::name()`), or the nearest lower one this CPU supports: `avx512` →
/// icelake, `avx2` → haswell, SSE levels → westmere (SSE4.2: simdutf has nothing
/// lower but its fallback), `portable` → fallback, `neon` → arm64. `None` if there is
/// none (simdutf then runs its own pick).
pub fn simdutf_counterpart(isa: &str) -> Option<&'static str> {
    #[cfg(target_arch = "x86_64")]
    {
        let wanted = match isa {
            "avx512" => "icelake",
            "avx2" => "haswell",
            "portable" => "fallback",
            s if s.starts_with("sse") || s.starts_with("ssse") => "westmere",
            _ => return None,
        };
        let from = SIMDUTF_X86.iter().position(|&n| n == wanted)?;
        SIMDUTF_X86[from..]
            .iter()
            .copied()
            .find(|n| simdutf_supports(n))
    }
    #[cfg(target_arch = "aarch64")]
    {
        let _ = isa;
        Some("arm64")
    }
    #[cfg(not(any(target_arch = "x86_64", target_arch = "aarch64")))]
    {
        let _ = isa;
        None
    }
}

/// Forces simdutf to the implementation [`simdutf_pick`] names, and returns it, so that
/// the label is what runs. Call it at the start of `main`, before any thread exists
/// and before the first simdutf call (it sets an environment variable).
pub fn pin_simdutf() -> String {
    let name = simdutf_pick();
    if std::env::var_os(SIMDUTF_FORCE).is_none() && simdutf_supports(&name) {
        std::env::set_var(SIMDUTF_FORCE, &name);
    }
    name
}

/// The implementation simdutf8 (`basic::from_utf8`, std feature) picks on this CPU.
pub fn simdutf8_pick() -> &'static str {
    #[cfg(target_arch = "x86_64")]
    {
        if std::arch::is_x86_feature_detected!("avx2") {
            "avx2"
        } else if std::arch::is_x86_feature_detected!("sse4.2") {
            "sse4.2"
        } else {
            "fallback"
        }
    }
    #[cfg(all(target_arch = "aarch64", target_feature = "neon"))]
    {
        "neon"
    }
    #[cfg(not(any(
        target_arch = "x86_64",
        all(target_arch = "aarch64", target_feature = "neon")
    )))]
    {
        "fallback"
    }
}

/// simdutf's `validate_utf8`.
#[inline(never)]
pub fn simdutf_validate(bytes: &[u8]) -> bool {
    simdutf::validate_utf8(bytes)
}

/// simdutf's validating UTF-8 → UTF-32 (`convert_utf8_to_utf32`): the number of code
/// points written, 0 if `bytes` is not UTF-8.
///
/// # Panics
///
/// If `out` is shorter than `bytes` (which always suffices: a code point takes at least
/// one byte).
#[inline(never)]
pub fn simdutf_decode(bytes: &[u8], out: &mut [u32]) -> usize {
    assert!(out.len() >= bytes.len(), "output shorter than the input");
    // SAFETY: the pointers come from live slices (aligned, non-null even when empty),
    // `bytes` is readable for its length, `out` is writable for `bytes.len()` code
    // points, at least as many as the conversion writes, and a `&mut` cannot overlap.
    unsafe { simdutf::convert_utf8_to_utf32(bytes.as_ptr(), bytes.len(), out.as_mut_ptr()) }
}

/// simdutf's validating UTF-32 → UTF-8 (`convert_utf32_to_utf8`), appended to `out`
/// (sized for the worst case, 4 bytes a code point, as a caller who skips
/// `utf8_length_from_utf32` does): the number of bytes written, 0 on an invalid code
/// point.
#[inline(never)]
pub fn simdutf_encode(codepoints: &[u32], out: &mut Vec<u8>) -> usize {
    let worst = codepoints.len() * 4;
    out.reserve(worst);
    let len = out.len();
    // SAFETY: `reserve` made `out` writable for `worst` bytes after its `len`, at least
    // what the conversion writes; `codepoints` is readable for its length; the two do
    // not overlap (one is borrowed mutably).
    let written = unsafe {
        simdutf::convert_utf32_to_utf8(
            codepoints.as_ptr(),
            codepoints.len(),
            out.as_mut_ptr().add(len),
        )
    };
    // SAFETY: the conversion initialized the `written <= worst` bytes after `len`.
    unsafe { out.set_len(len + written) };
    written
}

/// UTF-8 → UTF-32 → UTF-8 with simdutf (`convert_utf8_to_utf32` into `buffer`, then
/// `convert_utf32_to_utf8` appended to `out`): what transcoding costs through UTF-32.
#[inline(never)]
pub fn simdutf_round_trip(bytes: &[u8], buffer: &mut [u32], out: &mut Vec<u8>) {
    let n = simdutf_decode(bytes, buffer);
    simdutf_encode(&buffer[..n], out);
}

/// UTF-8 to UTF-32 with `std`: `str::from_utf8`, then `chars()` into `out` (Rust has
/// no faster UTF-8 → UTF-32 in `std`). The number of code points, 0 if invalid.
#[inline(never)]
pub fn std_decode(bytes: &[u8], out: &mut [u32]) -> usize {
    let Ok(s) = core::str::from_utf8(bytes) else {
        return 0;
    };
    let mut n = 0;
    for (slot, c) in out.iter_mut().zip(s.chars()) {
        *slot = u32::from(c);
        n += 1;
    }
    n
}

/// UTF-32 to UTF-8 with `std`, one character at a time (`String::push`, which encodes
/// with `char::encode_utf8` straight into the string: the fastest such loop we found).
#[inline(never)]
pub fn std_encode(codepoints: &[u32], out: &mut String) {
    out.reserve(codepoints.len());
    for &cp in codepoints {
        out.push(char::from_u32(cp).unwrap_or(char::REPLACEMENT_CHARACTER));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn simdutf_agrees_with_std() {
        let text = "aé中😀";
        let cps: Vec<u32> = text.chars().map(u32::from).collect();
        assert!(simdutf_validate(text.as_bytes()));
        assert!(!simdutf_validate(b"\xC0\xAF"));
        let mut out = vec![0; text.len()];
        assert_eq!(simdutf_decode(text.as_bytes(), &mut out), 4);
        assert_eq!(out[..4], cps[..]);
        assert_eq!(std_decode(text.as_bytes(), &mut out), 4);
        let mut bytes = b"x".to_vec();
        assert_eq!(simdutf_encode(&cps, &mut bytes), text.len());
        assert_eq!(bytes[1..], *text.as_bytes());
        let mut s = String::new();
        std_encode(&cps, &mut s);
        assert_eq!(s, text);
    }

    #[test]
    fn the_pick_is_supported_and_counterparts_are_no_higher() {
        if std::env::var_os(SIMDUTF_FORCE).is_none() && cfg!(target_arch = "x86_64") {
            assert!(simdutf_supports(&simdutf_pick()));
        }
        if let Some(c) = simdutf_counterpart("portable") {
            assert!(simdutf_supports(c));
        }
    }
}
