//! `conformance run`.

mod batch;
mod declared_limit;
mod gate;
mod inputs;
mod limits;
mod processes;
mod splits;
mod verdicts;
