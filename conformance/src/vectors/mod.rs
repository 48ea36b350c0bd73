//! The JSON test vectors in `vectors/`: their serde model (the crate
//! [`corrected_utf8_vectors`], which also embeds the files), and the generator that
//! rewrites them from the spec-literal code ([`conformance_literal`]).

pub mod generate;
pub use corrected_utf8_vectors::model;

use std::path::PathBuf;

/// The `vectors/` directory of the checkout this crate was built from.
pub fn default_dir() -> PathBuf {
    let crate_dir = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    crate_dir
        .parent()
        .map_or_else(|| crate_dir.join("../vectors"), |root| root.join("vectors"))
}
