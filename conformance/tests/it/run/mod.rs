//! `conformance run`.

mod batch;
mod gate;
mod inputs;
mod limits;
mod processes;
mod splits;
mod verdicts;
