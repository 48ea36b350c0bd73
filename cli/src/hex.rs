//! Bytes written in hex on the command line, and bytes printed as hex.

use std::fmt::Write;

/// Parses `explain`'s arguments into bytes.
///
/// Each argument holds hex pairs, separated or not by spaces or commas, each pair
/// optionally written `0xC0` or `\xC0`: `"C0 AF"`, `"C0AF"`, `"0xC0,0xAF"`, `"\xC0\xAF"`.
/// The error says which argument and what is wrong with it.
pub(crate) fn parse_args(args: &[String]) -> Result<Vec<u8>, String> {
    let mut bytes = Vec::new();
    for (i, arg) in args.iter().enumerate() {
        parse_one(arg, &mut bytes)
            .map_err(|why| format!("bad hex in argument {}: {why}", i + 1))?;
    }
    Ok(bytes)
}

fn parse_one(arg: &str, bytes: &mut Vec<u8>) -> Result<(), String> {
    for token in arg.split(|c: char| c.is_whitespace() || c == ',') {
        // `\xC0\xAF` is one token of several pairs.
        for piece in token.split("\\x") {
            let digits = piece
                .strip_prefix("0x")
                .or_else(|| piece.strip_prefix("0X"))
                .unwrap_or(piece);
            if let Some(bad) = digits.chars().find(|c| !c.is_ascii_hexdigit()) {
                return Err(format!("'{token}' has '{bad}', not a hex digit"));
            }
            if digits.len() % 2 == 1 {
                return Err(format!("'{token}' has an odd number of hex digits"));
            }
            for pair in digits.as_bytes().chunks(2) {
                let pair = std::str::from_utf8(pair).expect("ASCII hex digits");
                bytes.push(u8::from_str_radix(pair, 16).expect("two hex digits"));
            }
        }
    }
    Ok(())
}

/// `C0 AF`: uppercase pairs separated by spaces, as the source texts write bytes.
pub(crate) fn format(bytes: &[u8]) -> String {
    let mut s = String::with_capacity(bytes.len() * 3);
    for (i, b) in bytes.iter().enumerate() {
        if i > 0 {
            s.push(' ');
        }
        let _ = write!(s, "{b:02X}");
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(args: &[&str]) -> Result<Vec<u8>, String> {
        parse_args(&args.iter().map(|s| s.to_string()).collect::<Vec<_>>())
    }

    #[test]
    fn every_accepted_spelling() {
        let want = Ok(vec![0xC0, 0xAF]);
        assert_eq!(parse(&["C0 AF"]), want);
        assert_eq!(parse(&["c0af"]), want);
        assert_eq!(parse(&["C0", "AF"]), want);
        assert_eq!(parse(&["0xC0,0xAF"]), want);
        assert_eq!(parse(&["\\xC0\\xAF"]), want);
        assert_eq!(parse(&[" C0  AF "]), want);
        assert_eq!(parse(&[""]), Ok(vec![]));
    }

    #[test]
    fn errors_name_the_argument_and_the_problem() {
        assert_eq!(
            parse(&["41", "C0A"]),
            Err("bad hex in argument 2: 'C0A' has an odd number of hex digits".into())
        );
        assert_eq!(
            parse(&["G1"]),
            Err("bad hex in argument 1: 'G1' has 'G', not a hex digit".into())
        );
        assert!(parse(&["0x"]).is_ok());
        assert!(parse(&["é"]).is_err());
    }

    #[test]
    fn format_is_uppercase_pairs() {
        assert_eq!(format(&[0xC0, 0xAF, 0x0A]), "C0 AF 0A");
        assert_eq!(format(&[]), "");
    }
}
