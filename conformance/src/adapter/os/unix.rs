//! What an adapter started, on Unix: its process group, its process tree and (Linux) the
//! processes carrying its token; every adapter when the runner itself is interrupted.

use std::os::unix::process::{CommandExt, ExitStatusExt};
use std::process::{Command, ExitStatus};
use std::sync::atomic::{AtomicI32, AtomicU64, Ordering};
use std::sync::OnceLock;
use std::thread;
use std::time::{Duration, Instant};

/// The environment variable that marks every process an adapter starts (it inherits
/// it): `RUNNER_PID.START`.
pub(crate) const TOKEN_VAR: &str = "CONFORMANCE_ADAPTER";

/// Adapter starts so far (each gets a token of its own).
static STARTS: AtomicU64 = AtomicU64::new(0);

/// Puts the adapter's `sh` in a process group of its own, gives it (and, through its
/// environment, everything it starts) a token of its own, and on Linux makes it die
/// with the runner (`PR_SET_PDEATHSIG`); returns the token.
pub(crate) fn prepare(command: &mut Command) -> String {
    become_subreaper();
    let token = format!(
        "{}.{}",
        std::process::id(),
        STARTS.fetch_add(1, Ordering::SeqCst) + 1
    );
    command.env(TOKEN_VAR, &token).process_group(0);
    #[cfg(target_os = "linux")]
    {
        let runner = std::process::id() as libc::pid_t;
        // SAFETY: the closure runs in the child between fork and exec. It calls only
        // prctl(2) and getppid(2), which are async-signal-safe, and allocates nothing
        // (the error is built from a raw OS error code).
        unsafe {
            command.pre_exec(move || {
                if libc::prctl(libc::PR_SET_PDEATHSIG, libc::SIGKILL, 0, 0, 0) != 0 {
                    return Err(std::io::Error::last_os_error());
                }
                // The runner ended before the line above: nothing would end this one.
                if libc::getppid() != runner {
                    return Err(std::io::Error::from_raw_os_error(libc::ESRCH));
                }
                Ok(())
            });
        }
    }
    token
}

/// The signal that ended a process, if one did.
pub(crate) fn signal(status: ExitStatus) -> Option<i32> {
    status.signal()
}

/// One adapter start: its `sh` (the leader of its process group) and its token.
pub(crate) struct Family {
    pid: i32,
    token: String,
}

impl Family {
    /// A started adapter, registered for the signal handler.
    pub(crate) fn new(child: &std::process::Child, token: String) -> Family {
        let pid = child.id() as i32;
        register(pid);
        Family { pid, token }
    }

    /// Sends SIGKILL to its process group, to its process tree (walked while its `sh`
    /// lives) and to every process below the runner whose environment carries its
    /// token, until none is left alive (at most a second); returns the processes to
    /// reap once the `sh` itself is reaped ([`Family::reap`]).
    pub(crate) fn kill(&self) -> Vec<i32> {
        kill_group(self.pid);
        let left = linux::kill_family(&format!("{TOKEN_VAR}={}", self.token), false);
        kill_group(self.pid);
        left.into_iter().filter(|&p| p != self.pid).collect()
    }

    /// Reaps what [`Family::kill`] killed: the group's members and `left` (each once it
    /// is the runner's child, at most a second in all), then forgets the group.
    pub(crate) fn reap(&self, left: &[i32]) {
        reap_group(self.pid);
        linux::reap(left);
        unregister(self.pid);
    }
}

/// The registry of running adapters' process groups, for the signal handler: chunks
/// of slots (0 = free), a new chunk added when all are taken, none ever freed, so
/// that the handler reads it without a lock and no adapter is left out.
struct Chunk {
    slots: [AtomicI32; 64],
    next: OnceLock<Box<Chunk>>,
}

impl Chunk {
    const fn new() -> Chunk {
        Chunk {
            slots: [const { AtomicI32::new(0) }; 64],
            next: OnceLock::new(),
        }
    }

    /// This chunk and every one after it.
    fn all(&self) -> impl Iterator<Item = &Chunk> {
        std::iter::successors(Some(self), |c| c.next.get().map(|b| &**b))
    }
}

static GROUPS: Chunk = Chunk::new();

fn register(pgid: i32) {
    let mut chunk = &GROUPS;
    loop {
        for slot in &chunk.slots {
            if slot
                .compare_exchange(0, pgid, Ordering::SeqCst, Ordering::SeqCst)
                .is_ok()
            {
                return;
            }
        }
        chunk = chunk.next.get_or_init(|| Box::new(Chunk::new()));
    }
}

fn unregister(pgid: i32) {
    for chunk in GROUPS.all() {
        for slot in &chunk.slots {
            let _ = slot.compare_exchange(pgid, 0, Ordering::SeqCst, Ordering::SeqCst);
        }
    }
}

/// The process groups registered now.
fn registered() -> impl Iterator<Item = i32> {
    GROUPS
        .all()
        .flat_map(|c| c.slots.iter())
        .map(|s| s.load(Ordering::SeqCst))
        .filter(|&g| g != 0)
}

fn kill_group(pgid: i32) {
    if pgid > 0 {
        // SAFETY: kill(2) with a negative pid signals a process group; no memory involved.
        unsafe {
            libc::kill(-pgid, libc::SIGKILL);
        }
    }
}

/// Makes the runner the reaper of its orphaned descendants (Linux), so that the children of
/// an adapter's `sh` (reparented when `sh` dies) stay below the runner, where they are
/// found and reaped, rather than going to an init process that may not reap (as in
/// some containers).
fn become_subreaper() {
    #[cfg(target_os = "linux")]
    {
        static ONCE: std::sync::Once = std::sync::Once::new();
        ONCE.call_once(|| {
            // SAFETY: prctl(PR_SET_CHILD_SUBREAPER) only sets a flag on this process.
            unsafe {
                libc::prctl(libc::PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0);
            }
        });
    }
}

/// Reaps every child of the runner left in process group `pgid` (all of them were just
/// sent SIGKILL), waiting at most a second.
fn reap_group(pgid: i32) {
    let start = Instant::now();
    loop {
        let mut status = 0;
        // SAFETY: waitpid(2) on a process group of our own children; `status` is a local.
        let r = unsafe { libc::waitpid(-pgid, &mut status, libc::WNOHANG) };
        if r > 0 {
            continue; // reaped one; look for more
        }
        if r < 0 && std::io::Error::last_os_error().raw_os_error() != Some(libc::EINTR) {
            return; // ECHILD: none left
        }
        if start.elapsed() > Duration::from_secs(1) {
            return;
        }
        // r == 0: a member has not died yet.
        kill_group(pgid);
        thread::sleep(Duration::from_millis(5));
    }
}

/// The write end of the pipe that wakes the signal watcher (-1: none).
static WAKE: AtomicI32 = AtomicI32::new(-1);

/// The signal that came (0: none yet).
static SIGNALLED: AtomicI32 = AtomicI32::new(0);

extern "C" fn on_signal(sig: libc::c_int) {
    SIGNALLED.store(sig, Ordering::SeqCst);
    for pgid in registered() {
        kill_group(pgid);
    }
    let byte = sig as u8;
    let fd = WAKE.load(Ordering::SeqCst);
    // SAFETY: write(2) of one byte from a local to a pipe; async-signal-safe.
    if fd >= 0 && unsafe { libc::write(fd, (&byte as *const u8).cast(), 1) } == 1 {
        return; // the watcher ends what is left, then the runner
    }
    // SAFETY: signal(2) and raise(3) are async-signal-safe; restoring the default action
    // and raising again ends the runner the way the signal would have.
    unsafe {
        libc::signal(sig, libc::SIG_DFL);
        libc::raise(sig);
    }
}

/// Makes SIGINT, SIGTERM and SIGHUP kill every running adapter's process group at once
/// (adapters run in groups of their own, so the terminal's Ctrl-C does not reach them),
/// then, from a thread that waits for it (Linux), every process carrying one of this
/// runner's tokens, before the runner ends by the same signal.
pub(crate) fn kill_adapters_on_signal() {
    static ONCE: std::sync::Once = std::sync::Once::new();
    ONCE.call_once(|| {
        if let Ok((mut reader, writer)) = std::io::pipe() {
            use std::io::Read;
            use std::os::fd::AsRawFd;
            let fd = writer.as_raw_fd();
            let watcher = thread::Builder::new()
                .name("adapters-on-signal".into())
                .spawn(move || {
                    let _writer = writer; // kept open for the handler
                    let mut byte = [0u8];
                    loop {
                        match reader.read(&mut byte) {
                            Ok(1) => break,
                            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
                            _ => return,
                        }
                    }
                    end_by(libc::c_int::from(byte[0]));
                });
            if watcher.is_ok() {
                WAKE.store(fd, Ordering::SeqCst);
            }
        }
        let handler = on_signal as extern "C" fn(libc::c_int) as libc::sighandler_t;
        for sig in [libc::SIGINT, libc::SIGTERM, libc::SIGHUP] {
            // SAFETY: installs a handler that only calls async-signal-safe functions.
            unsafe {
                libc::signal(sig, handler);
            }
        }
    });
}

/// Once a signal has come: ends what the adapters left and the runner by that signal
/// ([`end_by`]); returns at once when none came. The signal watcher does the same; the
/// thread that calls this (the run, which saw its adapters die as crashes) does it too
/// rather than wait for the watcher, so that it cannot print a verdict and exit first.
pub(crate) fn end_if_signalled() {
    let sig = SIGNALLED.load(Ordering::SeqCst);
    if sig != 0 {
        end_by(sig);
    }
}

/// Kills every process carrying one of this runner's tokens (until none is alive, at
/// most a second), then ends the runner by `sig`. Two threads may do it at once (the
/// signal watcher and [`end_if_signalled`]): whichever ends the runner first has seen
/// the adapters' processes gone.
fn end_by(sig: libc::c_int) -> ! {
    let prefix = format!("{TOKEN_VAR}={}.", std::process::id());
    linux::kill_family(&prefix, true);
    // SAFETY: signal(2) and raise(3) with a signal number the handler received; the
    // default action of SIGINT, SIGTERM and SIGHUP ends the runner by that signal.
    unsafe {
        libc::signal(sig, libc::SIG_DFL);
        libc::raise(sig);
    }
    // Not reached (the signal is not blocked); the shell's convention otherwise.
    std::process::exit(128 + sig)
}

/// Finding an adapter's processes in `/proc`.
#[cfg(target_os = "linux")]
mod linux {
    use std::collections::{BTreeSet, HashMap};
    use std::thread;
    use std::time::{Duration, Instant};

    /// A process: its id, its parent's, and whether it has ended (a zombie).
    struct Process {
        pid: i32,
        ppid: i32,
        ended: bool,
    }

    fn processes() -> Vec<Process> {
        let Ok(dir) = std::fs::read_dir("/proc") else {
            return vec![];
        };
        dir.filter_map(|entry| {
            let pid: i32 = entry.ok()?.file_name().to_str()?.parse().ok()?;
            let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
            // `PID (COMM) STATE PPID …`: COMM may hold anything, so read after its
            // last `)`.
            let mut rest = stat.get(stat.rfind(')')? + 1..)?.split_whitespace();
            let state = rest.next()?;
            let ppid = rest.next()?.parse().ok()?;
            Some(Process {
                pid,
                ppid,
                ended: matches!(state, "Z" | "X"),
            })
        })
        .collect()
    }

    /// Whether process `pid`'s environment has the entry `entry` (`prefix`: an entry
    /// starting with it).
    fn carries(pid: i32, entry: &str, prefix: bool) -> bool {
        let Ok(env) = std::fs::read(format!("/proc/{pid}/environ")) else {
            return false;
        };
        env.split(|&b| b == 0).any(|e| {
            if prefix {
                e.starts_with(entry.as_bytes())
            } else {
                e == entry.as_bytes()
            }
        })
    }

    /// The processes below the runner that carry `entry` in their environment, and
    /// everything below them (whatever their environment): `(pid, ended)`.
    fn family(entry: &str, prefix: bool) -> Vec<(i32, bool)> {
        let all = processes();
        let mut children: HashMap<i32, Vec<usize>> = HashMap::new();
        for (i, p) in all.iter().enumerate() {
            children.entry(p.ppid).or_default().push(i);
        }
        let below = |roots: Vec<usize>| {
            let mut out = Vec::new();
            let mut queue = roots;
            while let Some(i) = queue.pop() {
                out.push(i);
                if let Some(c) = children.get(&all[i].pid) {
                    queue.extend(c.iter().copied());
                }
            }
            out
        };
        let runner = std::process::id() as i32;
        let roots: Vec<usize> = below(children.get(&runner).cloned().unwrap_or_default())
            .into_iter()
            .filter(|&i| !all[i].ended && carries(all[i].pid, entry, prefix))
            .collect();
        let mut out: Vec<(i32, bool)> = below(roots)
            .into_iter()
            .map(|i| (all[i].pid, all[i].ended))
            .collect();
        out.sort_unstable();
        out.dedup();
        out
    }

    /// Sends SIGKILL to [`family`] until none of it is alive (at most a second);
    /// returns every process it found.
    pub(crate) fn kill_family(entry: &str, prefix: bool) -> Vec<i32> {
        let start = Instant::now();
        let mut seen = BTreeSet::new();
        loop {
            let mut alive = 0;
            for (pid, ended) in family(entry, prefix) {
                seen.insert(pid);
                if !ended {
                    alive += 1;
                    // SAFETY: kill(2) of a process found below the runner; no memory
                    // involved.
                    unsafe {
                        libc::kill(pid, libc::SIGKILL);
                    }
                }
            }
            if alive == 0 || start.elapsed() > Duration::from_secs(1) {
                return seen.into_iter().collect();
            }
            thread::sleep(Duration::from_millis(5));
        }
    }

    /// Reaps `pids` (each once it has become the runner's child, as the orphans of a
    /// subreaper do), for at most a second.
    pub(crate) fn reap(pids: &[i32]) {
        let start = Instant::now();
        let mut left = pids.to_vec();
        while !left.is_empty() && start.elapsed() < Duration::from_secs(1) {
            left.retain(|&pid| {
                let mut status = 0;
                // SAFETY: waitpid(2) on one process; `status` is a local.
                let r = unsafe { libc::waitpid(pid, &mut status, libc::WNOHANG) };
                // 0: ours and not ended yet; -1 (ECHILD): not ours yet, or gone.
                r == 0 || (r < 0 && std::path::Path::new(&format!("/proc/{pid}")).exists())
            });
            if !left.is_empty() {
                thread::sleep(Duration::from_millis(5));
            }
        }
    }
}

/// Without `/proc`: the process group alone.
#[cfg(not(target_os = "linux"))]
mod linux {
    pub(crate) fn kill_family(_entry: &str, _prefix: bool) -> Vec<i32> {
        vec![]
    }
    pub(crate) fn reap(_pids: &[i32]) {}
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_registry_keeps_every_group() {
        // Far more than one chunk; values no real group has.
        let groups: Vec<i32> = (0..300).map(|i| -1_000_000 - i).collect();
        for &g in &groups {
            register(g);
        }
        let now: Vec<i32> = registered().collect();
        for g in &groups {
            assert!(now.contains(g), "{g} dropped");
        }
        for &g in &groups {
            unregister(g);
        }
        assert!(registered().all(|g| !groups.contains(&g)));
    }
}
