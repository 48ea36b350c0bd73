//! The exit codes every subcommand shares, and the error that means "nothing was run".

/// Exit code: every checked case passed.
pub const EXIT_OK: i32 = 0;
/// Exit code: a case failed, crashed, timed out, broke the protocol, or passed unexpectedly;
/// or the gate's floor was not met (see [`crate::report::model::RunReport::gate`]).
pub const EXIT_FAILED: i32 = 1;
/// Exit code: bad usage, an unreadable or malformed vector (or expected-failures) file, no
/// vectors at all, or a report file that cannot be written.
pub const EXIT_USAGE: i32 = 2;

/// A usage error or an unusable input file: exit code 2, nothing run.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UsageError(pub String);

impl std::fmt::Display for UsageError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}
