//! The report files of `conformance run`.

mod formats;
mod output;
mod schema;
