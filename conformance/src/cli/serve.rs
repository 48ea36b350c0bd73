//! `conformance serve`'s options.

use super::options::{bounded_usize, parse_max_line};
use conformance::protocol::hello::MAX_BATCH;
use conformance::serve::{
    Config, DEFAULT_BATCH, DEFAULT_MAX_INPUT, DEFAULT_MAX_REQUEST_LINE, MAX_INPUT_BYTES,
};

/// The options of `conformance serve`.
#[derive(clap::Args, Clone, Debug)]
pub struct ServeOptions {
    /// The `"batch"` it declares: the most requests in one batch request (1 to 65536).
    #[arg(long, value_name = "N", default_value_t = DEFAULT_BATCH,
          value_parser = clap::value_parser!(u32).range(1..=MAX_BATCH as i64))]
    pub batch: u32,

    /// The longest request line read, in bytes (1024 to 1073741824); a longer one is
    /// answered `unsupported`, with a reason.
    #[arg(long, value_name = "BYTES", default_value_t = DEFAULT_MAX_REQUEST_LINE,
          value_parser = parse_max_line)]
    pub max_line_bytes: usize,

    /// The most input bytes one request may have (its `input`, or its chunks together;
    /// 1 to 268435456); more is answered `unsupported`, with a reason.
    #[arg(long, value_name = "BYTES", default_value_t = DEFAULT_MAX_INPUT,
          value_parser = bounded_usize::<1, MAX_INPUT_BYTES>)]
    pub max_input_bytes: usize,
}

impl ServeOptions {
    /// What `serve` answers with.
    pub fn config(&self) -> Config {
        Config {
            batch: self.batch,
            max_line_bytes: self.max_line_bytes,
            max_input_bytes: self.max_input_bytes,
        }
    }
}
