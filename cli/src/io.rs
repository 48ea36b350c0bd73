//! Failures and exit statuses, reading inputs in fixed chunks, writing standard output.

use std::borrow::Cow;
use std::fmt;
use std::fs::File;
use std::io::{self, Read, Write};
use std::path::Path;
use std::sync::atomic::{AtomicBool, Ordering};

/// Every command reads in chunks of this size, whatever the input's size: memory stays
/// constant.
pub(crate) const CHUNK: usize = 64 * 1024;

/// How a command that ran to the end went.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Status {
    /// Exit 0.
    Ok,
    /// Exit 1: the input is not valid (the output already says where).
    Invalid,
    /// Exit 2: something could not be done, and stderr already says what.
    Trouble,
}

/// Why a command stopped early.
#[derive(Debug)]
pub(crate) enum Failure {
    /// Exit 2 after one line on stderr: the command could not run as asked.
    Trouble(String),
    /// Exit 1 after one line on stderr: the input has no valid decoding or encoding.
    Invalid(String),
    /// Standard output was closed (`| head`): stop quietly, with
    /// [`BROKEN_PIPE_STATUS`].
    BrokenPipe,
}

/// The exit status after the reader of standard output went away (`| head`): what a
/// shell reports for `cat`, killed by SIGPIPE (128 + 13). Not 0: the output was cut
/// short, so not everything was checked or written.
pub(crate) const BROKEN_PIPE_STATUS: u8 = 141;

pub(crate) type Result<T> = std::result::Result<T, Failure>;

impl Failure {
    pub(crate) fn trouble(message: impl fmt::Display) -> Failure {
        Failure::Trouble(message.to_string())
    }
}

/// Maps an error writing standard output to a [`Failure`].
pub(crate) fn write_failed(e: io::Error) -> Failure {
    if e.kind() == io::ErrorKind::BrokenPipe {
        Failure::BrokenPipe
    } else {
        Failure::trouble(format_args!(
            "cannot write to standard output: {}",
            io_message(&e)
        ))
    }
}

/// `.out()?` on the result of a write to standard output.
pub(crate) trait WriteResult<T> {
    fn out(self) -> Result<T>;
}

impl<T> WriteResult<T> for io::Result<T> {
    fn out(self) -> Result<T> {
        self.map_err(write_failed)
    }
}

/// Standard output, buffered. Nothing writes with `print!`, which panics on a closed pipe.
pub(crate) type Out = io::BufWriter<io::StdoutLock<'static>>;

pub(crate) fn stdout() -> Out {
    io::BufWriter::with_capacity(CHUNK, io::stdout().lock())
}

/// A file, or standard input for `-`.
pub(crate) struct Input {
    name: String,
    source: Source,
}

enum Source {
    File(File),
    Stdin(io::StdinLock<'static>),
}

impl Input {
    pub(crate) fn open(path: &Path) -> Result<Input> {
        if path == Path::new("-") {
            if STDIN_CLOSED.load(Ordering::Relaxed) {
                // Read, it would be /dev/null: empty input, which would pass.
                return Err(Failure::trouble(
                    "cannot read '<stdin>': standard input is closed",
                ));
            }
            return Ok(Input {
                name: "<stdin>".to_string(),
                source: Source::Stdin(io::stdin().lock()),
            });
        }
        let name = path.display().to_string();
        match File::open(path) {
            Ok(file) => Ok(Input {
                name,
                source: Source::File(file),
            }),
            Err(e) => Err(Failure::trouble(format_args!(
                "cannot open '{name}': {}",
                io_message(&e)
            ))),
        }
    }

    /// How the input is named in messages: its path, or `<stdin>`.
    pub(crate) fn name(&self) -> &str {
        &self.name
    }

    /// The size of a regular file, for a progress bar; `None` for anything else.
    pub(crate) fn len(&self) -> Option<u64> {
        match &self.source {
            Source::File(f) => f.metadata().ok().filter(|m| m.is_file()).map(|m| m.len()),
            Source::Stdin(_) => None,
        }
    }

    /// Reads the next chunk into `buf`; 0 at the end.
    pub(crate) fn read(&mut self, buf: &mut [u8]) -> Result<usize> {
        loop {
            let read = match &mut self.source {
                Source::File(f) => f.read(buf),
                Source::Stdin(s) => s.read(buf),
            };
            match read {
                Ok(n) => return Ok(n),
                Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
                Err(e) => {
                    return Err(Failure::trouble(format_args!(
                        "cannot read '{}': {}",
                        self.name,
                        io_message(&e)
                    )))
                }
            }
        }
    }
}

/// Set at start-up: standard input was closed.
static STDIN_CLOSED: AtomicBool = AtomicBool::new(false);

/// The standard streams that were closed when the process started.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct Closed {
    pub stdin: bool,
    pub stdout: bool,
}

/// Which standard streams were closed at start-up (`cutf8 … >&-`, `<&-`), and
/// remembers a closed standard input for [`Input::open`].
///
/// Rust's runtime opens `/dev/null` for reading and writing on each of descriptors 0, 1
/// and 2 that it finds closed, before `main`: so that no file opened later takes its
/// number. Writes to it succeed and reads find nothing, so `encode U+41 >&-` would exit
/// 0 with its output lost and `check <&-` would pass empty input. A shell's `>/dev/null`
/// opens it for writing only and `</dev/null` for reading only: `/dev/null` open for
/// both on 0 or 1 is taken for a closed stream (`1<>/dev/null` is too, a rare spelling).
#[cfg(unix)]
pub(crate) fn closed_streams() -> Closed {
    use std::os::fd::AsFd;
    use std::os::unix::fs::MetadataExt;
    let null = std::fs::metadata("/dev/null")
        .ok()
        .map(|m| (m.dev(), m.ino()));
    let (stdin, stdout) = (io::stdin(), io::stdout());
    let closed = Closed {
        stdin: was_closed(stdin.as_fd(), null),
        stdout: was_closed(stdout.as_fd(), null),
    };
    STDIN_CLOSED.store(closed.stdin, Ordering::Relaxed);
    closed
}

/// Elsewhere (Windows) std keeps no stand-in to look for: a closed stream is not detected
/// (cli/README.md, "Errors").
#[cfg(not(unix))]
pub(crate) fn closed_streams() -> Closed {
    Closed::default()
}

/// Whether `fd` is closed, or is the runtime's stand-in for a closed stream.
#[cfg(unix)]
fn was_closed(fd: std::os::fd::BorrowedFd<'_>, null: Option<(u64, u64)>) -> bool {
    use rustix::fs::OFlags;
    let Ok(flags) = rustix::fs::fcntl_getfl(fd) else {
        // EBADF: still closed (a runtime that does not reopen it).
        return true;
    };
    if flags & OFlags::RWMODE != OFlags::RDWR {
        return false;
    }
    let Ok(stat) = rustix::fs::fstat(fd) else {
        return true;
    };
    // The `as` casts: the field types vary by platform.
    #[allow(clippy::unnecessary_cast)]
    let id = (stat.st_dev as u64, stat.st_ino as u64);
    null == Some(id)
}

/// An I/O error's message without std's "(os error N)" suffix, which says nothing more
/// to a user.
pub(crate) fn io_message(e: &io::Error) -> String {
    let text = e.to_string();
    match text.rfind(" (os error ") {
        Some(i) if text.ends_with(')') => text[..i].to_string(),
        _ => text,
    }
}

/// Writes the one line a failure prints on stderr, its control characters escaped
/// ([`printable`]: a file name in it cannot drive the terminal). A failure to write it
/// is ignored: there is nowhere left to report it.
pub(crate) fn report(message: &str) {
    let _ = writeln!(io::stderr().lock(), "cutf8: error: {}", printable(message));
}

/// `text` as shown to a person (a file name in the human and short formats, a message on
/// stderr): each control character, C0 (ESC included), DEL and C1 (CSI, OSC…), written
/// as its escape `\u{1b}`, so that a name holding escape sequences reaches the terminal
/// as text and not as commands. Everything else is kept as it is. (The JSON formats
/// escape with JSON's own `\u001b`, which keeps the name's exact text.)
pub(crate) fn printable(text: &str) -> Cow<'_, str> {
    if !text.chars().any(char::is_control) {
        return Cow::Borrowed(text);
    }
    let mut shown = String::with_capacity(text.len() + 8);
    for c in text.chars() {
        if c.is_control() {
            shown += &format!("\\u{{{:x}}}", u32::from(c));
        } else {
            shown.push(c);
        }
    }
    Cow::Owned(shown)
}

/// A JSON text with DEL and the C1 controls escaped too (`\u009b`): serde_json escapes
/// only C0, and a raw C1 such as CSI (U+009B) or OSC (U+009D) in a file name would
/// reach a terminal that shows the JSON. The same JSON value: control characters occur
/// only inside strings, where an escape means the character itself.
pub(crate) fn json_escaped(json: String) -> String {
    if !json.chars().any(char::is_control) {
        return json;
    }
    let mut out = String::with_capacity(json.len() + 8);
    for c in json.chars() {
        if c.is_control() {
            out += &format!("\\u{:04x}", u32::from(c));
        } else {
            out.push(c);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn io_messages_lose_the_os_error_number() {
        let e = io::Error::from_raw_os_error(2);
        assert_eq!(io_message(&e), "No such file or directory");
        let custom = io::Error::other("plain");
        assert_eq!(io_message(&custom), "plain");
    }

    #[test]
    fn control_characters_are_escaped_and_nothing_else() {
        assert_eq!(printable("plain é✓ \\ name.txt"), "plain é✓ \\ name.txt");
        assert_eq!(
            printable("a\u{1b}]0;pwned\u{7}b\u{1b}[31mc\td\u{7f}e\u{9b}2Jf\u{9d}g\n"),
            "a\\u{1b}]0;pwned\\u{7}b\\u{1b}[31mc\\u{9}d\\u{7f}e\\u{9b}2Jf\\u{9d}g\\u{a}"
        );
        assert!(!printable("\u{0}\u{1f}\u{7f}\u{80}\u{9f}")
            .chars()
            .any(char::is_control));
    }

    #[test]
    fn json_keeps_its_value_with_del_and_c1_escaped() {
        let name = "a\u{1b}]0;t\u{7}\u{7f}\u{9b}2J\u{9d}é";
        let json = json_escaped(serde_json::to_string(name).unwrap());
        assert_eq!(json, r#""a\u001b]0;t\u0007\u007f\u009b2J\u009dé""#);
        assert_eq!(serde_json::from_str::<String>(&json).unwrap(), name);
        assert_eq!(json_escaped("{\"a\":1}".into()), "{\"a\":1}");
    }

    #[test]
    fn broken_pipe_is_quiet() {
        let e = io::Error::from(io::ErrorKind::BrokenPipe);
        assert!(matches!(write_failed(e), Failure::BrokenPipe));
        let e = io::Error::from(io::ErrorKind::PermissionDenied);
        assert!(matches!(write_failed(e), Failure::Trouble(_)));
    }

    #[test]
    #[cfg(unix)]
    fn dev_null_is_a_closed_stream_only_when_open_for_both() {
        use std::os::fd::AsFd;
        use std::os::unix::fs::MetadataExt;
        let null = std::fs::metadata("/dev/null")
            .ok()
            .map(|m| (m.dev(), m.ino()));
        let open = |read, write| {
            std::fs::OpenOptions::new()
                .read(read)
                .write(write)
                .open("/dev/null")
                .unwrap()
        };
        assert!(was_closed(open(true, true).as_fd(), null));
        assert!(!was_closed(open(false, true).as_fd(), null));
        assert!(!was_closed(open(true, false).as_fd(), null));
        // Another file open for both is a file.
        let dir = std::env::temp_dir().join(format!("cutf8-io-{}", std::process::id()));
        let file = std::fs::OpenOptions::new()
            .read(true)
            .write(true)
            .create(true)
            .truncate(true)
            .open(&dir)
            .unwrap();
        assert!(!was_closed(file.as_fd(), null));
        let _ = std::fs::remove_file(&dir);
    }
}
