//! Failures and exit statuses, reading inputs in fixed chunks, writing standard output.

use std::fmt;
use std::fs::File;
use std::io::{self, Read, Write};
use std::path::Path;

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
    /// Standard output was closed (`| head`): stop quietly.
    BrokenPipe,
}

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
        Failure::trouble(format_args!("cannot write to standard output: {e}"))
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

/// An I/O error's message without std's "(os error N)" suffix, which says nothing more
/// to a user.
pub(crate) fn io_message(e: &io::Error) -> String {
    let text = e.to_string();
    match text.rfind(" (os error ") {
        Some(i) if text.ends_with(')') => text[..i].to_string(),
        _ => text,
    }
}

/// Writes the one line a failure prints on stderr. A failure to write it is ignored:
/// there is nowhere left to report it.
pub(crate) fn report(message: &str) {
    let _ = writeln!(io::stderr().lock(), "cutf8: error: {message}");
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
    fn broken_pipe_is_quiet() {
        let e = io::Error::from(io::ErrorKind::BrokenPipe);
        assert!(matches!(write_failed(e), Failure::BrokenPipe));
        let e = io::Error::from(io::ErrorKind::PermissionDenied);
        assert!(matches!(write_failed(e), Failure::Trouble(_)));
    }
}
