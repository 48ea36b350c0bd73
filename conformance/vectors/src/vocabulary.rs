//! The names the vectors, the adapter protocol and the command lines share: which
//! [`Encoding`] and which [`Op`] (operation) a test is for.
//!
//! This crate owns them because it is the one crate that every user of the names already
//! depends on (the runner, the test kit, the generator) and it depends on no codec: a
//! vector file's `encoding` and `schema`, a request's `encoding` and `op`, `--encoding`
//! and `--require ENCODING:OP` are these names, spelled once here. A program parses a
//! name once, where it comes in ([`str::parse`], [`Encoding::from_name`]), and carries
//! the enum; [`Encoding::name`] and [`Op::name`] give back the exact string. The
//! reference codec has its own `corrected_utf8::Encoding` (it cannot depend on the
//! vectors); the conversion between the two lives in the crates that use both.

use serde::{Deserialize, Serialize};
use std::fmt;
use std::str::FromStr;

/// One of the three encodings the vectors cover, named as in a vector file's `encoding`.
///
/// ```
/// use corrected_utf8_vectors::Encoding;
/// assert_eq!("utf-inf-8".parse::<Encoding>(), Ok(Encoding::UtfInf8));
/// assert_eq!(Encoding::CorrectedUtf8.name(), "corrected-utf8");
/// let err = "utf8".parse::<Encoding>().unwrap_err();
/// assert_eq!(
///     err.to_string(),
///     r#"unknown encoding "utf8" (expected one of corrected-utf8, utf-8, utf-inf-8)"#
/// );
/// ```
// The variants are in the order of their names (`Ord` sorts as the strings did).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub enum Encoding {
    /// `corrected-utf8`: Corrected UTF-8.
    #[serde(rename = "corrected-utf8")]
    CorrectedUtf8,
    /// `utf-8`: standard UTF-8 (Unicode Table 3-7).
    #[serde(rename = "utf-8")]
    Utf8,
    /// `utf-inf-8`: UTF-∞-8, unbounded code points.
    #[serde(rename = "utf-inf-8")]
    UtfInf8,
}

impl Encoding {
    /// Every encoding, in the order of their names.
    pub const ALL: [Encoding; 3] = [Encoding::CorrectedUtf8, Encoding::Utf8, Encoding::UtfInf8];

    /// Every encoding's name, in the order of [`Encoding::ALL`] (for a command line's list
    /// of possible values).
    pub const NAMES: [&'static str; 3] = ["corrected-utf8", "utf-8", "utf-inf-8"];

    /// The name used in the vectors, the adapter protocol and the command lines:
    /// `"corrected-utf8"`, `"utf-8"` or `"utf-inf-8"`.
    pub const fn name(self) -> &'static str {
        match self {
            Encoding::CorrectedUtf8 => "corrected-utf8",
            Encoding::Utf8 => "utf-8",
            Encoding::UtfInf8 => "utf-inf-8",
        }
    }

    /// The encoding with this name, or `None`.
    pub fn from_name(name: &str) -> Option<Encoding> {
        Encoding::ALL.into_iter().find(|e| e.name() == name)
    }
}

impl fmt::Display for Encoding {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Encoding {
    type Err = UnknownName;

    fn from_str(name: &str) -> Result<Encoding, UnknownName> {
        Encoding::from_name(name).ok_or_else(|| UnknownName {
            kind: NameKind::Encoding,
            name: name.to_string(),
        })
    }
}

/// What a test asks of an implementation, named as in a request's `op`. A vector file's
/// `schema` says it too (`crate::model::Schema::op`): `encode-string` files hold
/// `encode` tests whose request carries a list of code points.
///
/// ```
/// use corrected_utf8_vectors::Op;
/// assert_eq!("document".parse::<Op>(), Ok(Op::Document));
/// assert_eq!(Op::Encode.name(), "encode");
/// let err = "transcode".parse::<Op>().unwrap_err();
/// assert_eq!(
///     err.to_string(),
///     r#"unknown operation "transcode" (expected one of decode, encode, document)"#
/// );
/// ```
// The variants are in the order of their names, as for `Encoding` (a report that lists
// them sorted lists them as it did when they were strings); `ALL` is the spec's order.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Op {
    /// `decode`: bytes in, events out ([`crate::model::DecodeTest`]).
    Decode,
    /// `document`: a whole Corrected UTF-8 file in, document findings out
    /// ([`crate::model::DocumentTest`]).
    Document,
    /// `encode`: one code point in, bytes or an error kind out
    /// (`crate::model::EncodeTest`), or a list of them (`EncodeStringTest`).
    Encode,
}

impl Op {
    /// Every operation.
    pub const ALL: [Op; 3] = [Op::Decode, Op::Encode, Op::Document];

    /// Every operation's name, in the order of [`Op::ALL`].
    pub const NAMES: [&'static str; 3] = ["decode", "encode", "document"];

    /// `"decode"`, `"encode"` or `"document"`.
    pub const fn name(self) -> &'static str {
        match self {
            Op::Decode => "decode",
            Op::Encode => "encode",
            Op::Document => "document",
        }
    }

    /// The same as [`Op::name`].
    pub const fn as_str(self) -> &'static str {
        self.name()
    }

    /// The operation with this name, or `None`.
    pub fn from_name(name: &str) -> Option<Op> {
        Op::ALL.into_iter().find(|o| o.name() == name)
    }
}

impl fmt::Display for Op {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Op {
    type Err = UnknownName;

    fn from_str(name: &str) -> Result<Op, UnknownName> {
        Op::from_name(name).ok_or_else(|| UnknownName {
            kind: NameKind::Op,
            name: name.to_string(),
        })
    }
}

/// A vector file's `schema` names (`model::Schema::NAMES`, which needs the `files`
/// feature; the vocabulary alone names them too).
const SCHEMA_NAMES: [&str; 4] = ["decode", "encode", "encode-string", "document"];

/// Which list of names an [`UnknownName`] was looked up in.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum NameKind {
    /// [`Encoding::NAMES`].
    Encoding,
    /// [`Op::NAMES`].
    Op,
    /// A vector file's `schema`, [`crate::model::Schema::NAMES`] (since 2.5.0).
    Schema,
}

impl NameKind {
    /// The names it knows.
    pub fn known(self) -> &'static [&'static str] {
        match self {
            NameKind::Encoding => &Encoding::NAMES,
            NameKind::Op => &Op::NAMES,
            NameKind::Schema => &SCHEMA_NAMES,
        }
    }
}

/// A name that is no [`Encoding`] or [`Op`]. Displays as `unknown encoding "utf8"
/// (expected one of corrected-utf8, utf-8, utf-inf-8)`, the runner's message for a vector
/// file's `encoding` and a command line's.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct UnknownName {
    /// What was looked up.
    pub kind: NameKind,
    /// The name given.
    pub name: String,
}

impl fmt::Display for UnknownName {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let what = match self.kind {
            NameKind::Encoding => "encoding",
            NameKind::Op => "operation",
            NameKind::Schema => "schema",
        };
        write!(
            f,
            "unknown {what} {:?} (expected one of {})",
            self.name,
            self.kind.known().join(", ")
        )
    }
}

impl std::error::Error for UnknownName {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_encoding_round_trips_through_its_name_and_serde() {
        assert_eq!(Encoding::ALL.len(), Encoding::NAMES.len());
        for (e, name) in Encoding::ALL.into_iter().zip(Encoding::NAMES) {
            assert_eq!(e.name(), name);
            assert_eq!(e.to_string(), name);
            assert_eq!(name.parse::<Encoding>(), Ok(e));
            let json = serde_json::to_string(&e).unwrap();
            assert_eq!(json, format!("\"{name}\""));
            assert_eq!(serde_json::from_str::<Encoding>(&json).unwrap(), e);
        }
        // The order of the enum is the order of the names (reports sorted either way
        // agree).
        let (mut by_enum, mut by_name) = (Encoding::ALL, Encoding::ALL);
        by_enum.sort_unstable();
        by_name.sort_unstable_by_key(|e| e.name());
        assert_eq!(by_enum, by_name);
    }

    #[test]
    fn every_op_round_trips_through_its_name_and_serde() {
        for (o, name) in Op::ALL.into_iter().zip(Op::NAMES) {
            assert_eq!(o.name(), name);
            assert_eq!(o.as_str(), name);
            assert_eq!(o.to_string(), name);
            assert_eq!(name.parse::<Op>(), Ok(o));
            let json = serde_json::to_string(&o).unwrap();
            assert_eq!(json, format!("\"{name}\""));
            assert_eq!(serde_json::from_str::<Op>(&json).unwrap(), o);
        }
        let (mut by_enum, mut by_name) = (Op::ALL, Op::ALL);
        by_enum.sort_unstable();
        by_name.sort_unstable_by_key(|o| o.name());
        assert_eq!(by_enum, by_name);
    }

    /// The names are those of the embedded files: every file's `encoding` and `schema`
    /// parse, and every encoding and operation has a file.
    #[test]
    #[cfg(feature = "files")]
    fn the_names_are_the_vector_files_names() {
        let mut seen = Vec::new();
        for f in crate::EMBEDDED {
            let file = f.parse().unwrap();
            let encoding: Encoding = file.encoding().parse().unwrap();
            assert!(f.path.starts_with(&format!("{encoding}/")), "{}", f.path);
            seen.push((encoding, file.schema().op()));
        }
        for e in Encoding::ALL {
            assert!(seen.iter().any(|s| s.0 == e), "no file of {e}");
        }
        for o in Op::ALL {
            assert!(seen.iter().any(|s| s.1 == o), "no file of {o}");
        }
    }

    #[test]
    fn an_unknown_name_is_an_error_naming_the_known_ones() {
        for bad in ["", "utf8", "UTF-8", "utf-8 ", "corrected-utf-8", "utf-∞-8"] {
            let err = bad.parse::<Encoding>().unwrap_err();
            assert_eq!(err.kind, NameKind::Encoding);
            assert_eq!(err.name, bad);
            assert_eq!(
                err.to_string(),
                format!(
                    "unknown encoding {bad:?} (expected one of corrected-utf8, utf-8, utf-inf-8)"
                )
            );
        }
        for bad in ["", "Decode", "transcode", "check_document"] {
            let err = bad.parse::<Op>().unwrap_err();
            assert_eq!(err.kind, NameKind::Op);
            assert_eq!(
                err.to_string(),
                format!("unknown operation {bad:?} (expected one of decode, encode, document)")
            );
        }
        assert!(serde_json::from_str::<Encoding>("\"utf8\"").is_err());
        assert!(serde_json::from_str::<Op>("\"Decode\"").is_err());
    }
}
