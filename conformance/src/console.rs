//! The standard streams, written without ever panicking.
//!
//! `println!` panics when stdout is a closed pipe (`conformance run | head -1`) or a full
//! disk (`> /dev/full`): exit 101 and a backtrace, which a script may not tell from a
//! verdict. Every subcommand writes through [`outln!`](crate::outln) and
//! [`errln!`](crate::errln) instead (the crate denies `clippy::print_stdout` and
//! `clippy::print_stderr`, so no `println!` comes back):
//!
//! * stdout: the first failed write is remembered and every later write is skipped, so
//!   the command finishes its work (its report files are still written); then
//!   [`exit_code`] turns the exit code into 2 and says on stderr what was lost. On a
//!   broken pipe too: the exit status of `conformance run | head -1` (with `pipefail`)
//!   is 2 and stderr says `standard output: Broken pipe`, not a panic.
//! * stderr: a failed write is ignored (there is nowhere left to say so); the verdict
//!   and the exit code do not depend on it.
//!
//! [`check_standard_streams`] runs first: a standard stream that was closed (`>&-`,
//! `2>&-`) stops the command with exit 2 before anything runs, as coreutils do. Rust's
//! runtime puts `/dev/null` on a closed standard descriptor before `main`, so the
//! terminal report would otherwise vanish with exit 0.

use std::fmt;
use std::io::{self, Write};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Mutex;

/// The first error met writing to stdout, if any.
static STDOUT_ERROR: Mutex<Option<String>> = Mutex::new(None);

/// Whether [`exit_code`] has said so on stderr already.
static REPORTED: AtomicBool = AtomicBool::new(false);

/// Writes to stdout and flushes; after a first failure, writes nothing more (see the
/// module documentation). Used by [`out!`](crate::out) and [`outln!`](crate::outln).
pub fn write_stdout(args: fmt::Arguments<'_>) {
    let mut error = STDOUT_ERROR.lock().unwrap_or_else(|e| e.into_inner());
    if error.is_some() {
        return;
    }
    let mut out = io::stdout().lock();
    if let Err(e) = out.write_fmt(args).and_then(|()| out.flush()) {
        *error = Some(e.to_string());
    }
}

/// Writes to stderr, ignoring a failure. Used by [`errln!`](crate::errln).
pub fn write_stderr(args: fmt::Arguments<'_>) {
    let _ = io::stderr().lock().write_fmt(args);
}

/// Why writing to stdout failed, if it did.
pub fn stdout_error() -> Option<String> {
    STDOUT_ERROR
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .clone()
}

/// `code`, or 2 ([`EXIT_USAGE`](crate::exit::EXIT_USAGE)) with a message on stderr naming
/// `command` (once) when stdout could not be written: what was printed is incomplete, so
/// no exit code may read as a pass.
pub fn exit_code(command: &str, code: i32) -> i32 {
    match stdout_error() {
        Some(e) => {
            if !REPORTED.swap(true, Ordering::Relaxed) {
                write_stderr(format_args!(
                    "{command}: cannot write to standard output: {e} (the output is \
                     incomplete: exit 2)\n"
                ));
            }
            crate::exit::EXIT_USAGE
        }
        None => code,
    }
}

/// A standard stream that is not open.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stream {
    /// File descriptor 0.
    Stdin,
    /// File descriptor 1.
    Stdout,
    /// File descriptor 2.
    Stderr,
}

impl Stream {
    /// `standard input`, `standard output`, `standard error`.
    pub fn name(self) -> &'static str {
        match self {
            Stream::Stdin => "standard input",
            Stream::Stdout => "standard output",
            Stream::Stderr => "standard error",
        }
    }
}

/// Whether each of `streams` was open when the command started; the first that was
/// closed is the error. (On other systems than Unix every stream counts as open.)
pub fn check_standard_streams(streams: &[Stream]) -> Result<(), Stream> {
    for &s in streams {
        if was_closed(s) {
            return Err(s);
        }
    }
    Ok(())
}

/// Whether `s` was closed when the process started. Rust's runtime opens `/dev/null`
/// read-write on a standard descriptor it finds closed, before `main`; a shell opens
/// `/dev/null` for reading only (`<`) or writing only (`>`). So a standard stream that
/// is `/dev/null` open for both was closed (`1<>/dev/null` looks the same: a false
/// alarm that no one meets). A descriptor still closed (no such runtime) is closed too.
#[cfg(unix)]
fn was_closed(s: Stream) -> bool {
    use std::os::fd::{AsFd, AsRawFd};
    use std::os::unix::fs::{FileTypeExt, MetadataExt};
    let dup = match s {
        Stream::Stdin => io::stdin().as_fd().try_clone_to_owned(),
        Stream::Stdout => io::stdout().as_fd().try_clone_to_owned(),
        Stream::Stderr => io::stderr().as_fd().try_clone_to_owned(),
    };
    let fd = match dup {
        Ok(fd) => fd,
        Err(e) => return e.raw_os_error() == Some(libc::EBADF),
    };
    // SAFETY: fcntl(2) F_GETFL on a descriptor owned here (`fd` lives until the end of
    // the function); it reads the status flags, no memory is passed.
    let flags = unsafe { libc::fcntl(fd.as_raw_fd(), libc::F_GETFL) };
    if flags < 0 || flags & libc::O_ACCMODE != libc::O_RDWR {
        return false;
    }
    let file = std::fs::File::from(fd);
    match (file.metadata(), std::fs::metadata("/dev/null")) {
        (Ok(a), Ok(b)) => a.file_type().is_char_device() && a.rdev() == b.rdev(),
        _ => false,
    }
}

#[cfg(not(unix))]
fn was_closed(_: Stream) -> bool {
    false
}

/// `print!` that never panics: [`write_stdout`].
#[macro_export]
macro_rules! out {
    ($($arg:tt)*) => {
        $crate::console::write_stdout(format_args!($($arg)*))
    };
}

/// `println!` that never panics: [`write_stdout`].
#[macro_export]
macro_rules! outln {
    () => {
        $crate::console::write_stdout(format_args!("\n"))
    };
    ($($arg:tt)*) => {
        $crate::console::write_stdout(format_args!("{}\n", format_args!($($arg)*)))
    };
}

/// `eprintln!` that never panics: [`write_stderr`].
#[macro_export]
macro_rules! errln {
    ($($arg:tt)*) => {
        $crate::console::write_stderr(format_args!("{}\n", format_args!($($arg)*)))
    };
}
