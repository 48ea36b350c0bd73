//! The JSON test vectors in `vectors/`: their serde model (the crate
//! [`corrected_utf8_vectors`], which also embeds the files), and the generator that
//! rewrites them from the spec-literal code ([`conformance_literal`]).

pub mod generate;
pub use corrected_utf8_vectors::model;
pub use corrected_utf8_vectors::{Encoding, Op};

use std::path::PathBuf;

/// The reference codec's encoding of this name. A function, not `From`: the names belong
/// to `corrected-utf8-vectors`, which has no codec, and the codec cannot depend on the
/// vectors, so neither crate can hold the conversion and this one may not implement a
/// foreign trait between two foreign types.
pub fn codec_encoding(encoding: Encoding) -> corrected_utf8::Encoding {
    match encoding {
        Encoding::CorrectedUtf8 => corrected_utf8::Encoding::CorrectedUtf8,
        Encoding::Utf8 => corrected_utf8::Encoding::Utf8,
        Encoding::UtfInf8 => corrected_utf8::Encoding::UtfInf8,
    }
}

/// The vectors' name of the reference codec's encoding (the inverse of
/// [`codec_encoding`]).
pub fn vector_encoding(encoding: corrected_utf8::Encoding) -> Encoding {
    match encoding {
        corrected_utf8::Encoding::CorrectedUtf8 => Encoding::CorrectedUtf8,
        corrected_utf8::Encoding::Utf8 => Encoding::Utf8,
        corrected_utf8::Encoding::UtfInf8 => Encoding::UtfInf8,
    }
}

/// The command lines' parser of an encoding's name (`--encoding`, `--encodings`): the
/// possible values `--help` lists are [`Encoding::NAMES`], each parsed into the enum.
pub fn encoding_parser() -> impl clap::builder::TypedValueParser<Value = Encoding> {
    use clap::builder::TypedValueParser;
    clap::builder::PossibleValuesParser::new(Encoding::NAMES).try_map(|s| s.parse::<Encoding>())
}

/// The `vectors/` directory of the checkout this crate was built from.
pub fn default_dir() -> PathBuf {
    let crate_dir = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    crate_dir
        .parent()
        .map_or_else(|| crate_dir.join("../vectors"), |root| root.join("vectors"))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Each encoding is the codec's encoding of the same name.
    #[test]
    fn codec_encoding_keeps_the_name() {
        for e in Encoding::ALL {
            assert_eq!(codec_encoding(e).name(), e.name());
            assert_eq!(vector_encoding(codec_encoding(e)), e);
        }
        assert_eq!(Encoding::ALL.len(), corrected_utf8::Encoding::ALL.len());
    }
}
