//! Where the report files go: checked before anything runs ([`plan`]), written after the
//! terminal verdict is on screen ([`Output::write`]).
//!
//! Refused before the run (exit 2), so that a report can never destroy what the run
//! reads or be read back as a vector:
//!
//! * two reports on one path (`--json r --junit r`);
//! * a path that is, or resolves to (a symbolic or hard link), an input: a `--vectors`
//!   file or `--expected-failures` file;
//! * a path inside a `--vectors` folder (the next run would load the report as a vector
//!   file), or one that resolves into it;
//! * a folder, a block device or a socket; a path whose folder does not exist or cannot
//!   be written (a temporary file is created there and removed: the path itself is not
//!   touched).
//!
//! Written after the run: a regular file (or nothing yet) atomically, to a temporary file
//! beside it renamed into place ([`crate::files::AtomicFile`]): whole or absent, and a
//! symbolic link at the path is replaced, never written through. A FIFO, a character
//! device (`/dev/null`), or any path in `/dev` or `/proc` (`/dev/stdout`, `/dev/fd/63` of
//! a shell's `>(…)`) is a stream: opened for writing as it is, without creating,
//! truncating or replacing anything, and without blocking (a FIFO nobody reads is an
//! error, not a hang).

use crate::exit::UsageError;
use crate::files::AtomicFile;
use std::fs::{self, Metadata, OpenOptions};
use std::io::{self, Write};
use std::path::{Path, PathBuf};

/// A report format.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    /// `--json`.
    Json,
    /// `--junit`.
    Junit,
    /// `--html`.
    Html,
}

impl Format {
    /// `json`, `junit`, `html`.
    pub fn as_str(self) -> &'static str {
        match self {
            Format::Json => "json",
            Format::Junit => "junit",
            Format::Html => "html",
        }
    }
}

/// How a report reaches its path.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum How {
    /// A temporary file renamed into place.
    Atomic,
    /// Written into what is there (a FIFO, a device, `/dev/stdout`).
    Stream,
}

/// One report file to write.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Output {
    /// Its format.
    pub format: Format,
    /// The path, as given.
    pub path: PathBuf,
    /// How it is written.
    pub how: How,
}

/// The inputs of a run that no report may be written over or into.
#[derive(Clone, Debug, Default)]
pub struct Inputs<'a> {
    /// `--vectors` (files and folders).
    pub vectors: &'a [PathBuf],
    /// `--expected-failures`.
    pub expected_failures: &'a [PathBuf],
}

/// Where `path` would be once written: its folder resolved, its own name kept (a link
/// at the path is replaced, not followed).
fn location(path: &Path) -> io::Result<PathBuf> {
    let name = path
        .file_name()
        .ok_or_else(|| io::Error::new(io::ErrorKind::InvalidInput, "the path names no file"))?;
    let dir = match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => Path::new("."),
    };
    let dir = dir.canonicalize().map_err(|e| {
        io::Error::new(
            e.kind(),
            format!("its folder {} cannot be used: {e}", dir.display()),
        )
    })?;
    if !dir.is_dir() {
        return Err(io::Error::new(
            io::ErrorKind::NotADirectory,
            format!("{} is not a folder", dir.display()),
        ));
    }
    Ok(dir.join(name))
}

/// (device, inode): a file under any of its names.
type FileId = (u64, u64);

/// (device, inode) of a file, to tell the same file under two names.
#[cfg(unix)]
fn identity(meta: &Metadata) -> Option<FileId> {
    use std::os::unix::fs::MetadataExt;
    Some((meta.dev(), meta.ino()))
}

#[cfg(not(unix))]
fn identity(_: &Metadata) -> Option<FileId> {
    None
}

/// Whether a path lies in `/dev` or `/proc`, whose entries are devices and descriptors:
/// written into, never replaced.
fn in_system_folder(location: &Path) -> bool {
    cfg!(unix) && (location.starts_with("/dev") || location.starts_with("/proc"))
}

/// What kind of file system object `meta` is, for messages.
fn kind_of(meta: &Metadata) -> &'static str {
    let t = meta.file_type();
    if t.is_dir() {
        return "a folder";
    }
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        if t.is_block_device() {
            return "a block device";
        }
        if t.is_socket() {
            return "a socket";
        }
        if t.is_fifo() {
            return "a FIFO";
        }
        if t.is_char_device() {
            return "a character device";
        }
    }
    "a file"
}

/// Whether `meta` is a FIFO or a character device: a stream to write into.
fn is_stream(meta: &Metadata) -> bool {
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        let t = meta.file_type();
        t.is_fifo() || t.is_char_device()
    }
    #[cfg(not(unix))]
    {
        let _ = meta;
        false
    }
}

/// Checks the report paths of a run (see the module documentation) and says how each
/// will be written. Nothing is written to any of them.
pub fn plan(
    reports: &[(Format, Option<&PathBuf>)],
    inputs: &Inputs<'_>,
) -> Result<Vec<Output>, UsageError> {
    // The inputs, by identity and by resolved path; the vector folders, resolved.
    let mut input_ids = Vec::new();
    let mut input_paths = Vec::new();
    let mut folders = Vec::new();
    for p in inputs.vectors.iter().chain(inputs.expected_failures) {
        // An input that cannot be resolved is reported by the loader, with its own words.
        let Ok(canon) = p.canonicalize() else {
            continue;
        };
        if canon.is_dir() {
            folders.push(canon);
        } else {
            if let Some(id) = fs::metadata(&canon).ok().as_ref().and_then(identity) {
                input_ids.push(id);
            }
            input_paths.push(canon);
        }
    }

    // Each output with where it lands and what it is now, to find two on one file.
    let mut planned: Vec<(Output, PathBuf, Option<FileId>)> = Vec::new();
    for &(format, path) in reports {
        let Some(path) = path else { continue };
        let refuse = |why: String| {
            UsageError(format!(
                "cannot write the {} report {}: {why}",
                format.as_str(),
                path.display()
            ))
        };
        // What the path leads to now, links followed (none: not there yet).
        let target = fs::metadata(path).ok();
        if target.as_ref().is_some_and(Metadata::is_dir) {
            return Err(refuse("it is a folder".into()));
        }
        let here = location(path).map_err(|e| refuse(e.to_string()))?;
        let resolved = path.canonicalize().ok();
        let id = target.as_ref().and_then(identity);

        if id.is_some_and(|id| input_ids.contains(&id)) {
            return Err(refuse(
                "it is an input of this run (refused: writing it would destroy what the run reads)"
                    .into(),
            ));
        }
        if resolved.as_ref().is_some_and(|r| input_paths.contains(r)) {
            return Err(refuse(
                "it resolves to an input of this run (refused: writing it would destroy \
                 what the run reads)"
                    .into(),
            ));
        }
        for folder in &folders {
            if here.starts_with(folder) || resolved.as_ref().is_some_and(|r| r.starts_with(folder))
            {
                return Err(refuse(format!(
                    "it is inside the --vectors folder {} (refused: the next run would read \
                     the report as a vector file; write it elsewhere)",
                    folder.display()
                )));
            }
        }
        for (other, other_here, other_id) in &planned {
            let same_file = id.is_some() && id == *other_id;
            if *other_here == here || same_file || resolved.as_ref() == Some(other_here) {
                return Err(refuse(format!(
                    "it is also the path of the {} report (refused: one report per path)",
                    other.format.as_str()
                )));
            }
        }

        let how = match &target {
            Some(meta) if is_stream(meta) => How::Stream,
            Some(meta) if !meta.is_file() => {
                return Err(refuse(format!(
                    "it is {}, not a file a report can be written to",
                    kind_of(meta)
                )))
            }
            _ if in_system_folder(&here) => {
                if target.is_none() {
                    return Err(refuse(format!(
                        "it does not exist, and no file is created in {}",
                        here.parent()
                            .map_or(here.clone(), Path::to_path_buf)
                            .display()
                    )));
                }
                How::Stream
            }
            _ => How::Atomic,
        };
        if how == How::Atomic {
            // The folder can be written: a temporary file is created there and removed.
            AtomicFile::create(path)
                .map_err(|e| refuse(format!("its folder cannot be written: {e}")))?;
        }
        planned.push((
            Output {
                format,
                path: path.clone(),
                how,
            },
            here,
            id,
        ));
    }
    Ok(planned.into_iter().map(|(o, _, _)| o).collect())
}

impl Output {
    /// Writes the report that `render` produces, atomically or as a stream.
    pub fn write(&self, render: impl FnOnce(&mut dyn Write) -> io::Result<()>) -> io::Result<()> {
        match self.how {
            How::Atomic => {
                let mut file = AtomicFile::create(&self.path)?;
                render(&mut file)?;
                file.commit()
            }
            How::Stream => {
                let file = open_stream(&self.path)?;
                let mut w = io::BufWriter::new(file);
                render(&mut w)?;
                w.flush()
            }
        }
    }
}

/// Opens a FIFO, a device or a descriptor path for writing: no creation, no truncation,
/// appending (so that `/dev/stdout` redirected to a file adds to it), and without
/// blocking on a FIFO that nobody reads (that is an error).
fn open_stream(path: &Path) -> io::Result<fs::File> {
    let mut options = OpenOptions::new();
    options.append(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        options.custom_flags(libc::O_NONBLOCK);
    }
    let opened = options.open(path);
    // ENXIO: opening a FIFO for writing without blocking when no process reads it.
    #[cfg(unix)]
    let opened = opened.map_err(|e| {
        if e.raw_os_error() == Some(libc::ENXIO) {
            return io::Error::new(
                e.kind(),
                "a FIFO that no process is reading (start the reader first)",
            );
        }
        e
    });
    let file = opened?;
    #[cfg(unix)]
    {
        use std::os::fd::AsRawFd;
        let fd = file.as_raw_fd();
        // SAFETY: fcntl(2) on a descriptor this function owns (`file` lives across both
        // calls); F_GETFL and F_SETFL read and set flags only, no memory is passed.
        let cleared = unsafe {
            let flags = libc::fcntl(fd, libc::F_GETFL);
            flags >= 0 && libc::fcntl(fd, libc::F_SETFL, flags & !libc::O_NONBLOCK) == 0
        };
        // Writes from here on wait for the reader, as writes to stdout do.
        if !cleared {
            return Err(io::Error::last_os_error());
        }
    }
    Ok(file)
}
