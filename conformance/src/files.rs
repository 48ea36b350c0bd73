//! Reading inputs and writing outputs so that neither can hang, grow without bound, or
//! lose what was there before.
//!
//! * Inputs ([`read_capped`]): only regular files are read (a FIFO, a device such as
//!   `/dev/zero`, or a folder is refused before anything is read), and no more than a cap
//!   named in the error. A FIFO is opened without blocking, so that a FIFO with no writer
//!   cannot hang the runner even when it appears between the check and the open.
//! * Outputs ([`AtomicFile`], [`write_atomic`]): written to a temporary file in the same
//!   folder and renamed into place once complete, so a report is either whole or absent,
//!   an existing file is replaced only by a complete one, and a symbolic link at the
//!   path is replaced rather than followed (its target is never written).

use std::fmt;
use std::fs::{self, File, OpenOptions};
use std::io::{self, Read, Write};
use std::path::{Path, PathBuf};

/// The largest vector file the runner reads.
pub const MAX_VECTOR_FILE: u64 = 1 << 30;
/// The largest checkpoint (`exhaustive --resume`) or expected-failures file read.
pub const MAX_STATE_FILE: u64 = 64 << 20;

/// Why an input could not be read.
#[derive(Debug)]
pub struct InputError {
    /// The path, as given.
    pub path: PathBuf,
    /// What is wrong.
    pub kind: InputErrorKind,
}

/// What is wrong with an input path.
#[derive(Debug)]
pub enum InputErrorKind {
    /// It is not a regular file: a FIFO, a device, a socket or a folder (named).
    NotARegularFile(&'static str),
    /// It holds more than the cap, in bytes.
    TooLarge(u64),
    /// Opening or reading it failed.
    Io(io::Error),
}

impl fmt::Display for InputError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let path = self.path.display();
        match &self.kind {
            InputErrorKind::NotARegularFile(what) => {
                write!(
                    f,
                    "{path}: is {what}, not a regular file (refused: it may never end)"
                )
            }
            InputErrorKind::TooLarge(cap) => write!(
                f,
                "{path}: larger than {} bytes ({}), the most this input may hold",
                cap,
                human_size(*cap)
            ),
            InputErrorKind::Io(e) => write!(f, "{path}: {e}"),
        }
    }
}

impl std::error::Error for InputError {}

/// `1 GiB`, `64 MiB`, `512 KiB`, `100 bytes`.
pub fn human_size(n: u64) -> String {
    match n {
        n if n >= 1 << 30 && n % (1 << 30) == 0 => format!("{} GiB", n >> 30),
        n if n >= 1 << 20 && n % (1 << 20) == 0 => format!("{} MiB", n >> 20),
        n if n >= 1 << 10 && n % (1 << 10) == 0 => format!("{} KiB", n >> 10),
        n => format!("{n} bytes"),
    }
}

/// What kind of file system object a non-regular file is, for messages.
fn describe(meta: &fs::Metadata) -> &'static str {
    let t = meta.file_type();
    if t.is_dir() {
        return "a folder";
    }
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        if t.is_fifo() {
            return "a FIFO (named pipe)";
        }
        if t.is_char_device() {
            return "a character device";
        }
        if t.is_block_device() {
            return "a block device";
        }
        if t.is_socket() {
            return "a socket";
        }
    }
    "not a regular file"
}

/// Opens `path` for reading if it is a regular file (symbolic links followed), without
/// blocking on a FIFO.
pub fn open_regular(path: &Path) -> Result<File, InputError> {
    let err = |kind| InputError {
        path: path.to_path_buf(),
        kind,
    };
    // Checked before opening (a FIFO's open blocks until a writer comes) …
    let meta = fs::metadata(path).map_err(|e| err(InputErrorKind::Io(e)))?;
    if !meta.is_file() {
        return Err(err(InputErrorKind::NotARegularFile(describe(&meta))));
    }
    let mut options = OpenOptions::new();
    options.read(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        // … and again after, on the open file: a FIFO put there in between is opened
        // without blocking and refused here.
        options.custom_flags(libc::O_NONBLOCK);
    }
    let file = options.open(path).map_err(|e| err(InputErrorKind::Io(e)))?;
    let meta = file.metadata().map_err(|e| err(InputErrorKind::Io(e)))?;
    if !meta.is_file() {
        return Err(err(InputErrorKind::NotARegularFile(describe(&meta))));
    }
    Ok(file)
}

/// The bytes of the regular file `path`, at most `cap` of them.
pub fn read_capped(path: &Path, cap: u64) -> Result<Vec<u8>, InputError> {
    let err = |kind| InputError {
        path: path.to_path_buf(),
        kind,
    };
    let file = open_regular(path)?;
    let len = file.metadata().map(|m| m.len()).unwrap_or(0);
    if len > cap {
        return Err(err(InputErrorKind::TooLarge(cap)));
    }
    let mut bytes = Vec::with_capacity(len as usize);
    // A file that grows while it is read stops at the cap all the same.
    file.take(cap + 1)
        .read_to_end(&mut bytes)
        .map_err(|e| err(InputErrorKind::Io(e)))?;
    if bytes.len() as u64 > cap {
        return Err(err(InputErrorKind::TooLarge(cap)));
    }
    Ok(bytes)
}

/// The text of the regular file `path` (at most `cap` bytes of UTF-8).
pub fn read_text_capped(path: &Path, cap: u64) -> Result<String, InputError> {
    let bytes = read_capped(path, cap)?;
    String::from_utf8(bytes).map_err(|e| {
        let offset = e.utf8_error().valid_up_to();
        InputError {
            path: path.to_path_buf(),
            kind: InputErrorKind::Io(io::Error::new(
                io::ErrorKind::InvalidData,
                format!("not UTF-8 text (invalid byte at offset {offset})"),
            )),
        }
    })
}

/// An output file written beside its final path and renamed into place by
/// [`AtomicFile::commit`]; dropped without a commit, it removes its temporary file and
/// leaves the path as it was.
pub struct AtomicFile {
    path: PathBuf,
    tmp: PathBuf,
    file: Option<io::BufWriter<File>>,
}

impl AtomicFile {
    /// Creates the temporary file in `path`'s folder.
    pub fn create(path: &Path) -> io::Result<AtomicFile> {
        let dir = match path.parent() {
            Some(d) if !d.as_os_str().is_empty() => d.to_path_buf(),
            _ => PathBuf::from("."),
        };
        let name = path
            .file_name()
            .ok_or_else(|| io::Error::new(io::ErrorKind::InvalidInput, "the path names no file"))?;
        let mut n = 0u32;
        loop {
            let mut tmp_name = std::ffi::OsString::from(".");
            tmp_name.push(name);
            tmp_name.push(format!(".tmp-{}-{n}", std::process::id()));
            let tmp = dir.join(tmp_name);
            match OpenOptions::new().write(true).create_new(true).open(&tmp) {
                Ok(f) => {
                    return Ok(AtomicFile {
                        path: path.to_path_buf(),
                        tmp,
                        file: Some(io::BufWriter::new(f)),
                    })
                }
                Err(e) if e.kind() == io::ErrorKind::AlreadyExists && n < 1000 => n += 1,
                Err(e) => return Err(e),
            }
        }
    }

    /// Flushes, syncs and renames the file into place (replacing a file or a symbolic
    /// link there; never writing through the link).
    pub fn commit(mut self) -> io::Result<()> {
        let file = self.file.take().expect("committed once");
        let done = file
            .into_inner()
            .map_err(|e| e.into_error())
            .and_then(|file| file.sync_all())
            .and_then(|()| fs::rename(&self.tmp, &self.path));
        // A failed flush or rename (a full disk, a folder at the path) leaves no
        // temporary file behind.
        if done.is_err() {
            let _ = fs::remove_file(&self.tmp);
        }
        done
    }
}

impl Write for AtomicFile {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.file.as_mut().expect("not committed").write(buf)
    }
    fn flush(&mut self) -> io::Result<()> {
        self.file.as_mut().expect("not committed").flush()
    }
}

impl Drop for AtomicFile {
    fn drop(&mut self) {
        if self.file.take().is_some() {
            let _ = fs::remove_file(&self.tmp);
        }
    }
}

/// Writes `bytes` to `path` atomically ([`AtomicFile`]).
pub fn write_atomic(path: &Path, bytes: &[u8]) -> io::Result<()> {
    let mut f = AtomicFile::create(path)?;
    f.write_all(bytes)?;
    f.commit()
}

/// Reads up to and including the next newline, at most `cap` bytes, into `line`; the
/// number of bytes read (0 at the end of the input). The buffer grows by doubling but
/// never past `cap`: a line near the cap costs about the cap, not twice it.
pub fn read_line_capped(
    input: &mut impl io::BufRead,
    line: &mut Vec<u8>,
    cap: usize,
) -> io::Result<usize> {
    let start = line.len();
    loop {
        let available = match input.fill_buf() {
            Ok(b) => b,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        };
        if available.is_empty() {
            return Ok(line.len() - start);
        }
        let room = cap - (line.len() - start);
        let newline = available.iter().position(|&b| b == b'\n');
        let take = newline.map_or(available.len(), |i| i + 1).min(room);
        let want = line.len() + take;
        if want > line.capacity() {
            let grown = line.capacity().saturating_mul(2).max(want).min(start + cap);
            line.reserve_exact(grown - line.len());
        }
        line.extend_from_slice(&available[..take]);
        input.consume(take);
        if newline.is_some_and(|i| i < take) || line.len() - start == cap {
            return Ok(line.len() - start);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn dir() -> PathBuf {
        let d = std::env::temp_dir().join(format!(
            "conformance-files-{}-{:?}",
            std::process::id(),
            std::thread::current().id()
        ));
        let _ = fs::remove_dir_all(&d);
        fs::create_dir_all(&d).unwrap();
        d
    }

    #[test]
    fn inputs_that_never_end_are_refused() {
        let e = read_capped(Path::new("/dev/zero"), 10).unwrap_err();
        assert!(matches!(e.kind, InputErrorKind::NotARegularFile(_)), "{e}");
        assert!(e.to_string().contains("character device"), "{e}");
        let d = dir();
        let e = read_capped(&d, 10).unwrap_err();
        assert!(e.to_string().contains("a folder"), "{e}");
        #[cfg(unix)]
        {
            let fifo = d.join("fifo");
            let c = std::ffi::CString::new(fifo.to_str().unwrap()).unwrap();
            // SAFETY: mkfifo(3) with a NUL-terminated path and a mode; no memory is shared.
            assert_eq!(unsafe { libc::mkfifo(c.as_ptr(), 0o600) }, 0);
            let e = read_capped(&fifo, 10).unwrap_err();
            assert!(e.to_string().contains("FIFO"), "{e}");
        }
        let big = d.join("big");
        fs::write(&big, [b'x'; 11]).unwrap();
        let e = read_capped(&big, 10).unwrap_err();
        assert!(e.to_string().contains("larger than 10 bytes"), "{e}");
        assert_eq!(read_capped(&big, 11).unwrap().len(), 11);
        fs::remove_dir_all(&d).unwrap();
    }

    #[test]
    fn outputs_are_whole_or_absent_and_replace_links() {
        let d = dir();
        let target = d.join("target");
        fs::write(&target, "keep").unwrap();
        let link = d.join("report");
        #[cfg(unix)]
        std::os::unix::fs::symlink(&target, &link).unwrap();
        write_atomic(&link, b"new").unwrap();
        assert_eq!(fs::read_to_string(&target).unwrap(), "keep");
        assert_eq!(fs::read_to_string(&link).unwrap(), "new");
        assert!(!fs::symlink_metadata(&link)
            .unwrap()
            .file_type()
            .is_symlink());
        // Dropped without a commit: the old file stays and no temporary file is left.
        let mut f = AtomicFile::create(&link).unwrap();
        f.write_all(b"half").unwrap();
        drop(f);
        assert_eq!(fs::read_to_string(&link).unwrap(), "new");
        assert_eq!(fs::read_dir(&d).unwrap().count(), 2);
        fs::remove_dir_all(&d).unwrap();
    }

    #[test]
    fn a_failed_rename_leaves_no_temporary_file() {
        let d = dir();
        let folder = d.join("a-folder");
        fs::create_dir(&folder).unwrap();
        fs::write(folder.join("inside"), "x").unwrap();
        assert!(write_atomic(&folder, b"report").is_err());
        let names: Vec<_> = fs::read_dir(&d)
            .unwrap()
            .map(|e| e.unwrap().file_name())
            .collect();
        assert_eq!(names, ["a-folder"]);
        fs::remove_dir_all(&d).unwrap();
    }

    #[test]
    fn sizes_read_as_people_write_them() {
        assert_eq!(human_size(MAX_VECTOR_FILE), "1 GiB");
        assert_eq!(human_size(MAX_STATE_FILE), "64 MiB");
        assert_eq!(human_size(1000), "1000 bytes");
    }
}
