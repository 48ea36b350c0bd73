//! The integration tests of the `conformance` package, in one test binary: a module per
//! behaviour, most of them driving the built `conformance` binary.
//!
//! * [`run`]: `conformance run` — verdicts, the release gate, batches, streaming splits,
//!   memory ceilings, the processes adapters start, the inputs it reads;
//! * [`report`]: the report files — what they hold, where they go, the JSON schema;
//! * [`streams`]: every subcommand on a full, broken or closed standard stream;
//! * [`exhaustive`]: the exhaustive walk of the reference and the spec-literal code;
//! * [`adapter_check`]: `fuzz --adapter` and `exhaustive --adapter` against broken,
//!   hanging and lying adapters;
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
mod exhaustive;
mod literal;
mod report;
mod run;
mod streams;
mod vectors;
