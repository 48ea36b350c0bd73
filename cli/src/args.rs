//! The command line, as clap parses it.

use clap::{Args, Parser, Subcommand};
use corrected_utf8::Encoding;
use std::path::PathBuf;

/// Decode, encode, check, explain and transcode Corrected UTF-8 (and UTF-8, UTF-∞-8).
///
/// Encodings: corrected-utf8, utf-8, utf-inf-8.
///
/// Exit status: 0 when all is well; 1 when the input is not valid in its encoding (a
/// decoding error, a document error, a code point with no encoding) or, for transcode,
/// has a reserved span it cannot convert; 2 when the command could not run (bad usage,
/// an unreadable file, bad hex or code point syntax). A Corrected UTF-8 reserved span
/// (FE or FF up to the next recognized lead byte) is not an error.
#[derive(Debug, Parser)]
#[command(name = "cutf8", version, max_term_width = 100)]
pub(crate) struct Cli {
    #[command(subcommand)]
    pub command: Command,
}

#[derive(Debug, Subcommand)]
pub(crate) enum Command {
    Decode(DecodeArgs),
    Encode(EncodeArgs),
    Check(CheckArgs),
    Explain(ExplainArgs),
    Transcode(TranscodeArgs),
}

/// Print the decoding events of a file: code points, error spans and (corrected-utf8)
/// reserved spans, one per line.
///
/// Exits 1 if there is any error span; reserved spans are not errors.
#[derive(Debug, Args)]
pub(crate) struct DecodeArgs {
    /// The encoding of the input.
    #[arg(long, short, value_name = "ENCODING", default_value = "corrected-utf8", value_parser = parse_encoding)]
    pub encoding: Encoding,
    /// One JSON array in the test vectors' `output` form.
    #[arg(long)]
    pub json: bool,
    /// utf-inf-8 only: the longest code, in bytes (default 65536); longer ones are
    /// `limit-exceeded` errors. Memory holds at most one such code.
    #[arg(long, value_name = "N", value_parser = parse_max_code_len)]
    pub max_code_len: Option<u32>,
    /// The input file; `-` (the default) reads standard input.
    #[arg(value_name = "FILE", default_value = "-")]
    pub file: PathBuf,
}

/// Encode code points and print the bytes in hex (or raw with --raw).
///
/// Code points are written `U+00CF`, `u+cf`, `0xCF` or `CF`, of any size for utf-inf-8.
/// Exits 1 if one has no encoding (nothing is printed then).
#[derive(Debug, Args)]
pub(crate) struct EncodeArgs {
    /// The encoding to encode into.
    #[arg(long, short, value_name = "ENCODING", default_value = "corrected-utf8", value_parser = parse_encoding)]
    pub encoding: Encoding,
    /// Write the bytes themselves instead of hex.
    #[arg(long)]
    pub raw: bool,
    /// Take the code points from a UTF-8 file (`-` for standard input) instead.
    #[arg(long, value_name = "FILE", conflicts_with = "codepoints")]
    pub from_utf8: Option<PathBuf>,
    /// The code points.
    #[arg(value_name = "CODEPOINT", required_unless_present = "from_utf8")]
    pub codepoints: Vec<String>,
}

/// The most `--jobs` takes. Threads that cannot start (under a process or memory limit)
/// are done without.
pub(crate) const MAX_JOBS: u16 = 64;

/// Check Corrected UTF-8 documents: the magic number, errors and warnings.
///
/// Shows each finding on its line with a caret under it, the first 20 of a run of one
/// kind and a count of the rest (`--format short`: prints every finding,
/// `FILE:LINE:COLUMN: error|warning: KIND (byte OFFSET)`), then a summary. Exits 1 if
/// there is an error (or, with --strict, a warning: a reserved span or an inner magic
/// number is one). Works in constant memory on input of any size, a directory of any
/// size included.
#[derive(Debug, Args)]
pub(crate) struct CheckArgs {
    /// Exit 1 on warnings too.
    #[arg(long)]
    pub strict: bool,
    /// `human`: each finding on its line with a caret, as a compiler shows errors;
    /// `short`: one line per finding, `FILE:LINE:COLUMN: SEVERITY: KIND (byte OFFSET)`;
    /// `json`: one JSON object per finding and one for the totals, a line each.
    #[arg(long, value_name = "FORMAT", default_value = "human")]
    pub format: CheckFormat,
    /// A directory's files checked at once, 1 to 64 (default: the cores, at most 8); the
    /// output is the same whatever the number.
    #[arg(long, short, value_name = "N", value_parser = clap::value_parser!(u16).range(1..=i64::from(MAX_JOBS)))]
    pub jobs: Option<u16>,
    /// The files; `-` (the default) reads standard input. A directory: every file
    /// under it that is not hidden or ignored (`.gitignore`), checked in parallel,
    /// each with a summary line.
    #[arg(value_name = "FILE", default_value = "-")]
    pub files: Vec<PathBuf>,
}

/// Explain bytes one by one: each sequence's row or form, bits, length fields, offset
/// and code point, or the error or reserved span, its span and why, for each encoding.
///
/// Encodings are side by side (`--layout columns`) when that fits the width (COLUMNS if
/// set, else the terminal's; a pipe or a file has no limit), else one after another
/// (`--layout stacked`).
#[derive(Debug, Args)]
pub(crate) struct ExplainArgs {
    /// `all`, one encoding, or several separated by commas.
    #[arg(long, short, value_name = "ENCODING", default_value = "all", value_parser = parse_selection)]
    pub encoding: Selection,
    /// `columns` or `stacked`; by default columns when they fit.
    #[arg(long, value_name = "LAYOUT")]
    pub layout: Option<Layout>,
    /// utf-inf-8 only: the longest code, in bytes (default 65536); longer ones are
    /// `limit-exceeded` errors.
    #[arg(long, value_name = "N", value_parser = parse_max_code_len)]
    pub max_code_len: Option<u32>,
    /// The bytes in hex: `C0 AF`, `C0AF`, `0xC0,0xAF` or `\xC0\xAF`.
    #[arg(value_name = "HEX", required = true)]
    pub hex: Vec<String>,
}

/// Convert between encodings in constant memory, from a file (or standard input) to
/// standard output.
///
/// Reading corrected-utf8 drops a leading magic number; --magic writes one when writing
/// corrected-utf8. A decoding error, a reserved span (no code point to write), or a code
/// point with no encoding in the target (C1 controls, surrogates and code points above
/// U+8421109F in corrected-utf8; code points above U+10FFFF in utf-8), stops with its
/// byte offset and exit 1, after writing everything before it; --replace writes U+FFFD
/// instead and goes on.
#[derive(Debug, Args)]
pub(crate) struct TranscodeArgs {
    /// The encoding of the input.
    #[arg(long, value_name = "ENCODING", value_parser = parse_encoding)]
    pub from: Encoding,
    /// The encoding of the output.
    #[arg(long, value_name = "ENCODING", value_parser = parse_encoding)]
    pub to: Encoding,
    /// Start the output with the Corrected UTF-8 magic number (needs --to corrected-utf8).
    #[arg(long)]
    pub magic: bool,
    /// Write U+FFFD for each decoding error, each reserved span and each code point with no
    /// encoding.
    #[arg(long)]
    pub replace: bool,
    /// --from utf-inf-8 only: the longest code, in bytes (default 65536); longer ones are
    /// `limit-exceeded` errors. Memory holds at most one such code.
    #[arg(long, value_name = "N", value_parser = parse_max_code_len)]
    pub max_code_len: Option<u32>,
    /// The input file; `-` (the default) reads standard input.
    #[arg(value_name = "FILE", default_value = "-")]
    pub file: PathBuf,
}

/// Which encodings `explain` shows, in order, each once. (An alias: clap's derive would
/// read a field written `Vec<…>` as an option given many times, not as one list.)
pub(crate) type Selection = Vec<Encoding>;

/// How `check` prints its findings.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub(crate) enum CheckFormat {
    /// The finding's line with a caret under it.
    Human,
    /// One line per finding, for scripts.
    Short,
    /// JSON lines.
    Json,
}

/// How `explain` arranges several encodings.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub(crate) enum Layout {
    /// Side by side, one column per encoding.
    Columns,
    /// One table per encoding, one after another.
    Stacked,
}

fn parse_encoding(name: &str) -> Result<Encoding, String> {
    Encoding::from_name(name).ok_or_else(|| {
        let known: Vec<_> = Encoding::ALL.iter().map(|e| e.name()).collect();
        format!("unknown encoding (known: {})", known.join(", "))
    })
}

fn parse_selection(names: &str) -> Result<Selection, String> {
    if names == "all" {
        return Ok(Encoding::ALL.to_vec());
    }
    let mut selection = Vec::new();
    for name in names.split(',') {
        let encoding = parse_encoding(name).map_err(|e| {
            let e = e.replace("known: ", "known: all, ");
            format!("'{name}': {e}; or several separated by commas")
        })?;
        if !selection.contains(&encoding) {
            selection.push(encoding);
        }
    }
    Ok(selection)
}

/// A code length limit of at least one byte (the codec would read 0 as 1; say so
/// instead).
fn parse_max_code_len(text: &str) -> Result<u32, String> {
    match text.parse::<u32>() {
        Ok(0) => Err("a code is at least 1 byte long".into()),
        Ok(n) => Ok(n),
        Err(_) => Err(format!("expected a number of bytes from 1 to {}", u32::MAX)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::CommandFactory;

    #[test]
    fn clap_definition_is_consistent() {
        Cli::command().debug_assert();
    }

    #[test]
    fn encodings_parse_by_their_identifiers_only() {
        assert_eq!(parse_encoding("utf-8"), Ok(Encoding::Utf8));
        assert!(parse_encoding("utf8").is_err());
        assert_eq!(parse_selection("all"), Ok(Encoding::ALL.to_vec()));
        assert_eq!(
            parse_selection("corrected-utf8"),
            Ok(vec![Encoding::CorrectedUtf8])
        );
        assert_eq!(
            parse_selection("utf-inf-8,utf-8,utf-inf-8"),
            Ok(vec![Encoding::UtfInf8, Encoding::Utf8])
        );
        assert!(parse_selection("ALL")
            .unwrap_err()
            .contains("all, corrected-utf8"));
        assert!(parse_selection("utf-8,").is_err());
    }

    #[test]
    fn help_states_the_codecs_default_limit() {
        let default = format!(
            "(default {})",
            corrected_utf8::utf_inf8::DEFAULT_MAX_CODE_LEN
        );
        let mut cli = Cli::command();
        for name in ["decode", "explain", "transcode"] {
            let help = cli.find_subcommand_mut(name).unwrap().render_long_help();
            assert!(help.to_string().contains(&default), "{name}");
        }
    }

    #[test]
    fn max_code_len_is_a_positive_u32() {
        assert_eq!(parse_max_code_len("13"), Ok(13));
        assert!(parse_max_code_len("0").is_err());
        assert!(parse_max_code_len("-1").is_err());
        assert!(parse_max_code_len("4294967296").is_err());
    }
}
