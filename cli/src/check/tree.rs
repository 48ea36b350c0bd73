//! `cutf8 check DIR`: the files of a tree checked in parallel, their outputs printed in
//! path order as they are made, in bounded memory whatever the files hold.
//!
//! Worker threads take the files in walk order; each writes its file's output into a
//! slot of its own, which holds at most [`SLOT_BYTES`] (with many jobs less:
//! [`OUTPUT_BYTES`] in all); a worker whose slot is full waits. The main thread prints
//! the first file's slot as it fills, then the next's: so output is in path order, a
//! file of any size streams through its slot, and files further on are checked
//! meanwhile. At most [`WINDOW_PER_JOB`] × jobs files are taken but not yet printed,
//! so memory is at most that many slots, whatever the tree and its files hold. (A
//! temporary file for outputs that outgrow memory would have bounded memory too, but
//! not disk: `--format json` writes ~90 bytes per byte of a file of NUL bytes.)

use super::file::{check_file, file_summary, Totals};
use crate::args::CheckFormat;
use crate::io::{self, Failure, Result, WriteResult};
use std::collections::VecDeque;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Condvar, Mutex, MutexGuard, PoisonError};

/// The most bytes of output a file's slot holds before its worker waits for them to be
/// printed (less with many jobs: see [`OUTPUT_BYTES`]).
pub(crate) const SLOT_BYTES: usize = 256 * 1024;

/// The most bytes of output all slots hold together: with more than 32 jobs, each
/// slot holds less than [`SLOT_BYTES`].
pub(crate) const OUTPUT_BYTES: usize = 16 * 1024 * 1024;

/// A worker hands its output to its slot in pieces of this size (and at the file's
/// end): one lock per piece, not per finding.
const PIECE: usize = 32 * 1024;

/// Files taken but not yet printed, per job: enough that the workers keep busy while
/// the first file prints, few enough to bound memory.
pub(crate) const WINDOW_PER_JOB: usize = 2;

/// The default number of jobs: the cores, at most this many.
pub(crate) const MAX_DEFAULT_JOBS: usize = 8;

/// A worker's stack. Checking a file recurses nowhere; Rust's default of 2 MiB a thread
/// would make 64 jobs reserve 128 MiB of address space in stacks alone, and the heap
/// then fails under a 64 MiB address-space limit (the memory ceiling in the README).
const WORKER_STACK_BYTES: usize = 256 * 1024;

/// How many files are checked at once: `--jobs`, else the cores (at most
/// [`MAX_DEFAULT_JOBS`]).
pub(crate) fn jobs(asked: Option<usize>) -> usize {
    asked.unwrap_or_else(|| {
        std::thread::available_parallelism()
            .map_or(1, usize::from)
            .min(MAX_DEFAULT_JOBS)
    })
}

/// A tree's walk: every file that is not hidden or ignored (`.gitignore`, `.ignore`, in
/// a git repository or not), as ripgrep walks a tree; each directory's entries sorted
/// by name, so files come in path order.
fn walk(dir: &Path) -> ignore::Walk {
    ignore::WalkBuilder::new(dir)
        .require_git(false)
        .sort_by_file_name(|a, b| a.cmp(b))
        .build()
}

/// One step of a walk: a file to check, or an error of the walk (an unreadable
/// directory), reported in its place.
enum Item {
    File(PathBuf),
    Unwalkable(String),
}

/// The next file (or walk error) of `walk`; `None` at the end.
fn next_item(walk: &mut ignore::Walk, dir: &Path) -> Option<Item> {
    for entry in walk.by_ref() {
        match entry {
            Ok(e) if e.file_type().is_some_and(|t| t.is_file()) => {
                return Some(Item::File(e.into_path()))
            }
            Ok(_) => {}
            Err(e) => {
                return Some(Item::Unwalkable(format!(
                    "cannot walk '{}': {e}",
                    dir.display()
                )))
            }
        }
    }
    None
}

/// Checks every file under `dir`, printing each file's findings and then its summary
/// line (`DIR/FILE: 1 error, 2 warnings`) in path order; adds to `totals`.
pub(crate) fn check_tree(
    dir: &Path,
    format: CheckFormat,
    jobs: usize,
    out: &mut io::Out,
    totals: &mut Totals,
) -> Result<()> {
    let shared = Arc::new(Shared {
        state: Mutex::new(State {
            walk: Some(walk(dir)),
            dir: dir.to_path_buf(),
            head: 0,
            slots: VecDeque::new(),
            stopped: false,
            workers: 0,
        }),
        changed: Condvar::new(),
    });
    let window = jobs.saturating_mul(WINDOW_PER_JOB).max(1);
    let slot_bytes = (OUTPUT_BYTES / window).clamp(PIECE, SLOT_BYTES);
    let mut handles = Vec::new();
    for i in 0..jobs {
        let worker = Arc::clone(&shared);
        shared.lock().workers += 1;
        let spawned = std::thread::Builder::new()
            .name(format!("check-{i}"))
            .stack_size(WORKER_STACK_BYTES)
            .spawn(move || worker.work(format, window, slot_bytes));
        match spawned {
            Ok(handle) => handles.push(handle),
            // Fewer threads than asked (a process or memory limit): the others do it.
            Err(_) => {
                shared.lock().workers -= 1;
                break;
            }
        }
    }
    if handles.is_empty() {
        return check_tree_here(dir, format, out, totals);
    }
    let printed = shared.print(format, out, totals);
    if printed.is_err() {
        // Workers stop at their next piece of output; the process exits without
        // waiting for them.
        shared.lock().stopped = true;
        shared.changed.notify_all();
        return printed;
    }
    for handle in handles {
        // Every file was printed, so every worker has returned.
        let _ = handle.join();
    }
    Ok(())
}

/// [`check_tree`] in this thread, a file at a time: with `--jobs 1`, or when no thread
/// could be started. The output is the same.
pub(crate) fn check_tree_here(
    dir: &Path,
    format: CheckFormat,
    out: &mut io::Out,
    totals: &mut Totals,
) -> Result<()> {
    let mut walk = walk(dir);
    while let Some(item) = next_item(&mut walk, dir) {
        match item {
            Item::File(path) => {
                let mut t = Totals::default();
                let result = check_file(&path, format, out, &mut t, false);
                finish_file(out, format, &path, &t, result, totals)?;
            }
            Item::Unwalkable(message) => unwalkable(out, &message, totals)?,
        }
    }
    Ok(())
}

/// After a file's findings: its summary line, or its error on stderr; its counts added.
fn finish_file(
    out: &mut io::Out,
    format: CheckFormat,
    path: &Path,
    t: &Totals,
    result: Result<()>,
    totals: &mut Totals,
) -> Result<()> {
    match result {
        Ok(()) => {
            totals.files += 1;
            file_summary(out, format, path, t).out()?;
        }
        Err(Failure::Trouble(message)) => {
            out.flush().out()?;
            io::report(&message);
            totals.unreadable += 1;
        }
        Err(other) => return Err(other),
    }
    totals.errors += t.errors;
    totals.warnings += t.warnings;
    Ok(())
}

fn unwalkable(out: &mut io::Out, message: &str, totals: &mut Totals) -> Result<()> {
    out.flush().out()?;
    io::report(message);
    totals.unreadable += 1;
    Ok(())
}

struct Shared {
    state: Mutex<State>,
    /// Signalled whenever the state changes: a slot got output or was finished or
    /// printed, or the run stopped.
    changed: Condvar,
}

struct State {
    /// The walk, stepped by whichever worker takes the next file; `None` once it ended.
    walk: Option<ignore::Walk>,
    dir: PathBuf,
    /// The number of the file in `slots[0]` (files are numbered in walk order).
    head: u64,
    /// The files taken and not yet printed, in order.
    slots: VecDeque<Slot>,
    /// Printing failed: workers stop.
    stopped: bool,
    /// Workers still running (a worker that panicked is counted out too).
    workers: usize,
}

/// A file's output on its way to standard output.
struct Slot {
    item: Item,
    pieces: VecDeque<Vec<u8>>,
    /// The bytes in `pieces`.
    bytes: usize,
    /// The file's counts and result, once it is checked.
    done: Option<(Totals, Result<()>)>,
}

/// What the printer found at the head.
enum Head {
    Output(Vec<Vec<u8>>),
    Done(Slot),
    End,
}

impl Shared {
    fn lock(&self) -> MutexGuard<'_, State> {
        self.state.lock().unwrap_or_else(PoisonError::into_inner)
    }

    fn wait<'a>(&self, guard: MutexGuard<'a, State>) -> MutexGuard<'a, State> {
        self.changed
            .wait(guard)
            .unwrap_or_else(PoisonError::into_inner)
    }

    /// A worker: takes the next file while fewer than `window` wait to be printed,
    /// checks it into its slot (of `slot_bytes`), until the walk ends or printing
    /// fails.
    fn work(&self, format: CheckFormat, window: usize, slot_bytes: usize) {
        // Counted out however this returns, so the printer never waits for a worker
        // that is gone; a panic (a bug) stops the run, since the file it was checking
        // will never be printed and the others would wait for it.
        struct Leaving<'a>(&'a Shared);
        impl Drop for Leaving<'_> {
            fn drop(&mut self) {
                let mut s = self.0.lock();
                s.workers -= 1;
                s.stopped |= std::thread::panicking();
                drop(s);
                self.0.changed.notify_all();
            }
        }
        let _leaving = Leaving(self);
        loop {
            let (index, path) = {
                let mut s = self.lock();
                while !s.stopped && s.slots.len() >= window {
                    s = self.wait(s);
                }
                if s.stopped {
                    return;
                }
                let state = &mut *s;
                let Some(walk) = state.walk.as_mut() else {
                    return;
                };
                let Some(item) = next_item(walk, &state.dir) else {
                    state.walk = None;
                    drop(s);
                    self.changed.notify_all();
                    return;
                };
                let index = state.head + state.slots.len() as u64;
                let path = match &item {
                    Item::File(path) => Some(path.clone()),
                    Item::Unwalkable(_) => None,
                };
                state.slots.push_back(Slot {
                    item,
                    pieces: VecDeque::new(),
                    bytes: 0,
                    done: path.is_none().then(|| (Totals::default(), Ok(()))),
                });
                drop(s);
                self.changed.notify_all();
                match path {
                    Some(path) => (index, path),
                    None => continue,
                }
            };
            let mut writer = SlotWriter {
                shared: self,
                index,
                slot_bytes,
                piece: Vec::with_capacity(PIECE),
            };
            let mut t = Totals::default();
            let mut result = check_file(&path, format, &mut writer, &mut t, false);
            if let Err(e) = writer.flush() {
                result = result.and(Err(io::write_failed(e)));
            }
            let mut s = self.lock();
            if let Some(slot) = s.slot(index) {
                slot.done = Some((t, result));
            }
            drop(s);
            self.changed.notify_all();
        }
    }

    /// The printer: prints the slots in order as they fill, each file's summary line
    /// after its findings, until every file is printed.
    fn print(&self, format: CheckFormat, out: &mut io::Out, totals: &mut Totals) -> Result<()> {
        loop {
            let head = {
                let mut s = self.lock();
                loop {
                    if let Some(slot) = s.slots.front_mut() {
                        if !slot.pieces.is_empty() {
                            slot.bytes = 0;
                            break Head::Output(slot.pieces.drain(..).collect());
                        }
                        if slot.done.is_some() {
                            let slot = s.slots.pop_front().expect("a front slot");
                            s.head += 1;
                            break Head::Done(slot);
                        }
                    } else if s.walk.is_none() {
                        break Head::End;
                    }
                    if s.workers == 0 || s.stopped {
                        return Err(Failure::trouble(
                            "internal error: a thread checking files stopped",
                        ));
                    }
                    s = self.wait(s);
                }
            };
            self.changed.notify_all();
            match head {
                Head::Output(pieces) => {
                    for piece in pieces {
                        out.write_all(&piece).out()?;
                    }
                }
                Head::Done(slot) => {
                    let (t, result) = slot.done.expect("a finished slot");
                    match slot.item {
                        Item::File(path) => finish_file(out, format, &path, &t, result, totals)?,
                        Item::Unwalkable(message) => unwalkable(out, &message, totals)?,
                    }
                }
                Head::End => return Ok(()),
            }
        }
    }
}

impl State {
    fn slot(&mut self, index: u64) -> Option<&mut Slot> {
        let at = usize::try_from(index.checked_sub(self.head)?).ok()?;
        self.slots.get_mut(at)
    }
}

/// A worker's output for one file, handed to its slot a piece at a time; waits while
/// the slot is full.
struct SlotWriter<'a> {
    shared: &'a Shared,
    index: u64,
    slot_bytes: usize,
    piece: Vec<u8>,
}

impl SlotWriter<'_> {
    fn hand_over(&mut self) -> std::io::Result<()> {
        let mut s = self.shared.lock();
        loop {
            if s.stopped {
                return Err(std::io::Error::other("stopped: printing failed"));
            }
            match s.slot(self.index) {
                Some(slot) if slot.bytes >= self.slot_bytes => s = self.shared.wait(s),
                Some(slot) => {
                    let piece = std::mem::replace(&mut self.piece, Vec::with_capacity(PIECE));
                    slot.bytes += piece.len();
                    slot.pieces.push_back(piece);
                    break;
                }
                None => return Err(std::io::Error::other("the file's slot is gone")),
            }
        }
        drop(s);
        self.shared.changed.notify_all();
        Ok(())
    }
}

impl Write for SlotWriter<'_> {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.piece.extend_from_slice(buf);
        if self.piece.len() >= PIECE {
            self.hand_over()?;
        }
        Ok(buf.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        if self.piece.is_empty() {
            return Ok(());
        }
        self.hand_over()
    }
}
