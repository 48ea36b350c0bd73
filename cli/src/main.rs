//! `cutf8`: command-line tool for Corrected UTF-8. Everything lives in the library so
//! that its parts can be unit-tested; see `cutf8 --help` and `cli/README.md`.

fn main() -> std::process::ExitCode {
    cutf8::main()
}
