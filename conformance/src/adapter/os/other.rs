//! Neither Unix nor Windows: only the adapter's `sh` process is killed (no process groups,
//! no job objects).

use std::process::{Command, ExitStatus};

pub(crate) fn prepare(_command: &mut Command) -> String {
    String::new()
}

pub(crate) struct Family;

impl Family {
    pub(crate) fn new(_child: &std::process::Child, _token: String) -> Family {
        Family
    }
    pub(crate) fn kill(&self) -> Vec<i32> {
        vec![]
    }
    pub(crate) fn reap(&self, _left: &[i32]) {}
}

pub(crate) fn signal(_status: ExitStatus) -> Option<i32> {
    None
}

pub(crate) fn kill_adapters_on_signal() {}

pub(crate) fn end_if_signalled() {}
