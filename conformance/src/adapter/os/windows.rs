//! What an adapter started, on Windows: a job object per start, with kill-on-close.
//!
//! The adapter's `sh` is created suspended, put in a job object of its own whose limit is
//! `JOB_OBJECT_LIMIT_KILL_ON_JOB_CLOSE`, then resumed: every process it starts is in the
//! job from its first instruction, with no window in which a child could escape it. Ending
//! the adapter terminates the job (the adapter and all its descendants); and since the
//! runner holds the job's only handle, the runner's own end (Ctrl-C, a crash, a kill)
//! closes it, and Windows ends every adapter with it. Where the job cannot be made (an
//! old Windows that forbids nested jobs), the adapter still runs, and only its `sh` is
//! killed, as before.

use std::os::windows::io::AsRawHandle;
use std::os::windows::process::CommandExt;
use std::process::{Child, Command, ExitStatus};
use std::sync::atomic::{AtomicU64, Ordering};
use windows_sys::Win32::Foundation::{CloseHandle, HANDLE, INVALID_HANDLE_VALUE};
use windows_sys::Win32::System::Diagnostics::ToolHelp::{
    CreateToolhelp32Snapshot, Thread32First, Thread32Next, TH32CS_SNAPTHREAD, THREADENTRY32,
};
use windows_sys::Win32::System::JobObjects::{
    AssignProcessToJobObject, CreateJobObjectW, JobObjectExtendedLimitInformation,
    SetInformationJobObject, TerminateJobObject, JOBOBJECT_EXTENDED_LIMIT_INFORMATION,
    JOB_OBJECT_LIMIT_KILL_ON_JOB_CLOSE,
};
use windows_sys::Win32::System::Threading::{
    OpenThread, ResumeThread, CREATE_SUSPENDED, THREAD_SUSPEND_RESUME,
};

/// The environment variable that marks every process an adapter starts, as on Unix.
pub(crate) const TOKEN_VAR: &str = "CONFORMANCE_ADAPTER";

/// Adapter starts so far (each gets a token of its own).
static STARTS: AtomicU64 = AtomicU64::new(0);

/// Creates the adapter's `sh` suspended (so that it starts nothing before it is in its
/// job) and gives it its token; returns the token.
pub(crate) fn prepare(command: &mut Command) -> String {
    let token = format!(
        "{}.{}",
        std::process::id(),
        STARTS.fetch_add(1, Ordering::SeqCst) + 1
    );
    command
        .env(TOKEN_VAR, &token)
        .creation_flags(CREATE_SUSPENDED);
    token
}

/// A job object's handle.
struct Job(HANDLE);

// SAFETY: a job object's handle is a kernel handle, usable from any thread; it is closed
// once, by Drop.
unsafe impl Send for Job {}

impl Drop for Job {
    fn drop(&mut self) {
        // SAFETY: the handle came from CreateJobObjectW and is closed only here. With
        // kill-on-close, this ends whatever of the adapter is left.
        unsafe {
            CloseHandle(self.0);
        }
    }
}

/// One adapter start: its job (when it could be made).
pub(crate) struct Family {
    job: Option<Job>,
}

impl Family {
    /// Puts the suspended `child` in a new kill-on-close job, then resumes it.
    pub(crate) fn new(child: &Child, _token: String) -> Family {
        let job = make_job(child.as_raw_handle() as HANDLE);
        resume(child.id());
        Family { job }
    }

    /// Terminates the job: the adapter and every process it started. Nothing is left to
    /// reap (Windows keeps no zombies).
    pub(crate) fn kill(&self) -> Vec<i32> {
        if let Some(job) = &self.job {
            // SAFETY: a valid job handle; terminating a job only ends its processes.
            unsafe {
                TerminateJobObject(job.0, 1);
            }
        }
        vec![]
    }

    /// Nothing to reap on Windows.
    pub(crate) fn reap(&self, _left: &[i32]) {}
}

/// A new job with kill-on-close holding `process`, or `None` when that fails (the
/// handle made is then closed).
fn make_job(process: HANDLE) -> Option<Job> {
    // SAFETY: null attributes and name make an unnamed job with default security.
    let handle = unsafe { CreateJobObjectW(std::ptr::null(), std::ptr::null()) };
    if handle.is_null() {
        return None;
    }
    let job = Job(handle);
    // SAFETY: an all-zero JOBOBJECT_EXTENDED_LIMIT_INFORMATION is a valid value (plain
    // integers and a zeroed IO_COUNTERS).
    let mut info: JOBOBJECT_EXTENDED_LIMIT_INFORMATION = unsafe { std::mem::zeroed() };
    info.BasicLimitInformation.LimitFlags = JOB_OBJECT_LIMIT_KILL_ON_JOB_CLOSE;
    // SAFETY: `info` lives across the call and its size is the one passed.
    let set = unsafe {
        SetInformationJobObject(
            job.0,
            JobObjectExtendedLimitInformation,
            (&info as *const JOBOBJECT_EXTENDED_LIMIT_INFORMATION).cast(),
            std::mem::size_of::<JOBOBJECT_EXTENDED_LIMIT_INFORMATION>() as u32,
        )
    };
    // SAFETY: both handles are valid: the job just made, the child's process handle.
    if set == 0 || unsafe { AssignProcessToJobObject(job.0, process) } == 0 {
        return None;
    }
    Some(job)
}

/// Resumes every thread of process `pid` (a process created suspended has one).
fn resume(pid: u32) {
    // SAFETY: a snapshot of the system's threads; the handle is closed below.
    let snapshot = unsafe { CreateToolhelp32Snapshot(TH32CS_SNAPTHREAD, 0) };
    if snapshot == INVALID_HANDLE_VALUE {
        return;
    }
    // SAFETY: an all-zero THREADENTRY32 is valid; dwSize is set as the API requires.
    let mut entry: THREADENTRY32 = unsafe { std::mem::zeroed() };
    entry.dwSize = std::mem::size_of::<THREADENTRY32>() as u32;
    // SAFETY: `entry` is a valid, sized THREADENTRY32 for the whole walk.
    let mut more = unsafe { Thread32First(snapshot, &mut entry) } != 0;
    while more {
        if entry.th32OwnerProcessID == pid {
            // SAFETY: opening a thread of our own child, resuming it, closing the handle.
            unsafe {
                let thread = OpenThread(THREAD_SUSPEND_RESUME, 0, entry.th32ThreadID);
                if !thread.is_null() {
                    ResumeThread(thread);
                    CloseHandle(thread);
                }
            }
        }
        // SAFETY: as for Thread32First.
        more = unsafe { Thread32Next(snapshot, &mut entry) } != 0;
    }
    // SAFETY: the snapshot's handle, closed once.
    unsafe {
        CloseHandle(snapshot);
    }
}

/// No signals on Windows: a crash is named by its exit code.
pub(crate) fn signal(_status: ExitStatus) -> Option<i32> {
    None
}

/// Nothing to install: the runner's end closes every job's handle, and kill-on-close
/// ends each adapter with everything it started.
pub(crate) fn kill_adapters_on_signal() {}

/// No handler, so no signal to end by.
pub(crate) fn end_if_signalled() {}
