//! The integration tests of the `conformance` package, in one test binary: a module per
//! behaviour, most of them driving the built `conformance` binary.
//!
//! * [`run`]: `conformance run` — verdicts, the release gate, batches, streaming splits,
//!   memory ceilings, the processes adapters start, the inputs it reads;
//! * [`report`]: the report files — what they hold, where they go, the JSON schema;
//! * [`streams`]: every subcommand on a full, broken or closed standard stream;
//! * [`exhaustive`]: the exhaustive walk of the reference and the spec-literal code;
//! * [`exhaustive_walks`]: the walks of documents and of UTF-∞-8's long codes, each
//!   failing planted mistakes;
//! * [`adapter_check`]: `fuzz --adapter` and `exhaustive --adapter` against broken,
//!   hanging and lying adapters;
//! * [`every_tool`]: each guarantee in `run`, `exhaustive --adapter` and `fuzz` alike
//!   (wrong answers bounded, a hello read strictly, no case dropped), and the command
//!   line's edges (`--help` to a full disk, unreadable vector entries, `serve` and
//!   `generate` bounds);
//! * [`audit`]: `conformance audit` and `audit --amended`;
//! * [`literal`]: the spec-literal decoders against the reference codec;
//! * [`vectors`]: the vector files' lint;
//! * [`docs`]: the Markdown's links and the facts the docs state.
//!
//! `tests/reference_vectors.rs` is a binary of its own: it is the "vectors only" test
//! set of mutation testing (`docs/mutation.md`), which cargo-mutants selects by target.

mod adapter_check;
mod audit;
mod common;
mod docs;
#[cfg(target_os = "linux")]
mod every_tool;
mod exhaustive;
mod exhaustive_walks;
mod literal;
mod report;
mod run;
mod streams;
mod vectors;
