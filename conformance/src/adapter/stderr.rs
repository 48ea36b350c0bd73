//! The tail of an adapter's stderr, kept for crash messages: a thread reads the pipe line
//! by line (any length, each kept short) and keeps the last few lines.

use crate::text::cut;
use std::collections::VecDeque;
use std::io::{BufRead, BufReader, Read};
use std::process::ChildStderr;
use std::sync::mpsc::{self, Receiver};
use std::sync::{Arc, Mutex};
use std::time::Duration;

/// Lines of stderr kept for crash messages.
const STDERR_LINES: usize = 8;
/// How much of one stderr line is kept.
const LINE_KEPT: usize = super::QUOTE;

/// The last lines of one adapter start's stderr, read by a thread of its own.
pub(super) struct StderrTail {
    lines: Arc<Mutex<VecDeque<String>>>,
    /// Disconnected when the reader has read the pipe to its end.
    ended: Receiver<()>,
}

impl StderrTail {
    /// Starts the thread that reads `pipe` (named after the adapter `name`).
    pub(super) fn start(name: &str, pipe: ChildStderr) -> StderrTail {
        let lines = Arc::new(Mutex::new(VecDeque::new()));
        let tail = Arc::clone(&lines);
        let (end, ended) = mpsc::channel::<()>();
        super::spawn(name, "stderr", move || {
            let _end = end; // dropped at the pipe's end: `last_lines` waits for that
            let mut reader = BufReader::new(pipe);
            let mut line = Vec::new();
            loop {
                line.clear();
                // Lines of any length, kept short.
                match reader.by_ref().take(64 * 1024).read_until(b'\n', &mut line) {
                    Ok(0) | Err(_) => return,
                    Ok(_) => {
                        let text = String::from_utf8_lossy(&line).trim_end().to_string();
                        let mut tail = tail.lock().unwrap_or_else(|e| e.into_inner());
                        if tail.len() == STDERR_LINES {
                            tail.pop_front();
                        }
                        tail.push_back(cut(&text, LINE_KEPT));
                    }
                }
            }
        });
        StderrTail { lines, ended }
    }

    /// The last lines, joined by ` | `, once the pipe has been read to its end (everything
    /// that held it is dead), or after `limit` should a process that escaped the kill
    /// still hold it. An event, not a guess of how long the reader takes: a crash's message
    /// has its last lines whatever the machine's load.
    pub(super) fn last_lines(&self, limit: Duration) -> String {
        let _ = self.ended.recv_timeout(limit);
        self.lines
            .lock()
            .map(|t| t.iter().cloned().collect::<Vec<_>>().join(" | "))
            .unwrap_or_default()
    }
}
