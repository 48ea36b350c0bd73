//! How a check fails: a panic naming the target, the input in hex, and both sides.

use std::fmt::{self, Debug, Write as _};

/// Bytes as space-separated lowercase hex, cut after 4 KiB so a message stays readable.
pub fn hex(bytes: &[u8]) -> String {
    const LIMIT: usize = 4096;
    let mut s = conformance_literal::hex(&bytes[..bytes.len().min(LIMIT)], " ");
    if bytes.len() > LIMIT {
        let _ = write!(s, " … ({} more bytes)", bytes.len() - LIMIT);
    }
    s
}

/// How many bytes `value`'s `Display` writes, without allocating: the checks format
/// every error and finding they meet, so that no message can panic either.
pub(crate) fn display_len(value: &dyn fmt::Display) -> usize {
    struct Count(usize);
    impl fmt::Write for Count {
        fn write_str(&mut self, s: &str) -> fmt::Result {
            self.0 += s.len();
            Ok(())
        }
    }
    let mut count = Count(0);
    let _ = write!(count, "{value}");
    count.0
}

/// What a failing check reports: the target and its raw input.
#[derive(Clone, Copy)]
pub(crate) struct Ctx<'a> {
    target: &'static str,
    input: &'a [u8],
}

impl<'a> Ctx<'a> {
    pub(crate) fn new(target: &'static str, input: &'a [u8]) -> Self {
        Ctx { target, input }
    }

    /// Fails the check: panics with the input, `what` failed, and both sides.
    ///
    /// `what` is a closure so that the message's arguments are only put together here,
    /// off the hot path (under AddressSanitizer, every `format_args!` left in a check's
    /// own stack frame costs time on each call).
    #[cold]
    #[inline(never)]
    #[track_caller]
    pub(crate) fn fail<W: FnOnce(&mut dyn FnMut(fmt::Arguments<'_>))>(
        &self,
        what: W,
        expected: &dyn Debug,
        got: &dyn Debug,
    ) -> ! {
        let mut message = String::new();
        what(&mut |args| {
            let _ = message.write_fmt(args);
        });
        panic!(
            "check `{target}` failed: {message}\n  input ({n} bytes): {hex}\n  expected: {expected:?}\n  got:      {got:?}\n  \
             reproduce: cargo +nightly fuzz run {target} <file with these bytes>   (in fuzz/)",
            target = self.target,
            n = self.input.len(),
            hex = hex(self.input),
        )
    }
}

/// Fails unless `expected == got`; the message arguments are only formatted on failure.
macro_rules! ensure_eq {
    ($ctx:expr, $expected:expr, $got:expr, $($what:tt)+) => {
        match (&$expected, &$got) {
            (expected, got) => {
                if expected != got {
                    $ctx.fail(|w| w(format_args!($($what)+)), expected, got);
                }
            }
        }
    };
}

/// Fails unless `cond`; `detail` (any `Debug` value, evaluated only on failure) is shown
/// as what came out.
macro_rules! ensure {
    ($ctx:expr, $cond:expr, $detail:expr, $($what:tt)+) => {
        if !$cond {
            $ctx.fail(|w| w(format_args!($($what)+)), &stringify!($cond), &$detail);
        }
    };
}

pub(crate) use {ensure, ensure_eq};
