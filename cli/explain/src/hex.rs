//! Bytes written in hex, and bytes printed as hex.

use std::fmt::Write;

/// Parses hex pairs, separated or not by spaces or commas, each pair optionally written
/// `0xC0` or `\xC0`: `"C0 AF"`, `"C0AF"`, `"0xC0,0xAF"`, `"\xC0\xAF"`.
///
/// The error names the token and what is wrong with it: `'C0A' has an odd number of hex
/// digits`.
///
/// # Examples
///
/// ```
/// use cutf8_explain::hex;
/// assert_eq!(hex::parse("ec bd a0"), Ok(vec![0xEC, 0xBD, 0xA0]));
/// assert_eq!(hex::parse("\\xC0\\xAF"), Ok(vec![0xC0, 0xAF]));
/// assert_eq!(hex::parse("C0A").unwrap_err(), "'C0A' has an odd number of hex digits");
/// ```
pub fn parse(text: &str) -> Result<Vec<u8>, String> {
    let mut bytes = Vec::with_capacity(text.len() / 2);
    parse_into(text, &mut bytes)?;
    Ok(bytes)
}

/// [`parse`], appending to `bytes`.
pub fn parse_into(text: &str, bytes: &mut Vec<u8>) -> Result<(), String> {
    for token in text.split(|c: char| c.is_whitespace() || c == ',') {
        // `\xC0\xAF` is one token of several pairs.
        for piece in token.split("\\x") {
            let digits = piece
                .strip_prefix("0x")
                .or_else(|| piece.strip_prefix("0X"))
                .unwrap_or(piece);
            if let Some(bad) = digits.chars().find(|c| !c.is_ascii_hexdigit()) {
                return Err(format!("'{}' has '{bad}', not a hex digit", shorten(token)));
            }
            if digits.len() % 2 == 1 {
                return Err(format!(
                    "'{}' has an odd number of hex digits",
                    shorten(token)
                ));
            }
            for pair in digits.as_bytes().chunks(2) {
                let pair = std::str::from_utf8(pair).expect("ASCII hex digits");
                bytes.push(u8::from_str_radix(pair, 16).expect("two hex digits"));
            }
        }
    }
    Ok(())
}

/// A token as an error message quotes it: in full up to 40 characters, else its start
/// and end (a pasted megabyte stays one line).
fn shorten(token: &str) -> String {
    let chars = token.chars().count();
    if chars <= 40 {
        return token.to_string();
    }
    let start: String = token.chars().take(16).collect();
    let end: String = token.chars().skip(chars - 8).collect();
    format!("{start}…{end}")
}

/// `C0 AF`: uppercase pairs separated by spaces, as the source texts write bytes.
///
/// # Examples
///
/// ```
/// assert_eq!(cutf8_explain::hex::format(&[0xC0, 0xAF]), "C0 AF");
/// ```
pub fn format(bytes: &[u8]) -> String {
    let mut s = String::with_capacity(bytes.len() * 3);
    for (i, b) in bytes.iter().enumerate() {
        if i > 0 {
            s.push(' ');
        }
        let _ = write!(s, "{b:02X}");
    }
    s
}

/// `c0af`: lowercase pairs without separators, as the vectors and the explorer's links
/// write bytes.
///
/// # Examples
///
/// ```
/// assert_eq!(cutf8_explain::hex::compact(&[0xC0, 0xAF]), "c0af");
/// ```
pub fn compact(bytes: &[u8]) -> String {
    let mut s = String::with_capacity(bytes.len() * 2);
    for b in bytes {
        let _ = write!(s, "{b:02x}");
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_accepted_spelling() {
        let want = Ok(vec![0xC0, 0xAF]);
        assert_eq!(parse("C0 AF"), want);
        assert_eq!(parse("c0af"), want);
        assert_eq!(parse("0xC0,0xAF"), want);
        assert_eq!(parse("\\xC0\\xAF"), want);
        assert_eq!(parse(" C0  AF "), want);
        assert_eq!(parse("C0\nAF\t"), want);
        assert_eq!(parse(""), Ok(vec![]));
    }

    #[test]
    fn errors_name_the_token_and_the_problem() {
        assert_eq!(
            parse("41 C0A"),
            Err("'C0A' has an odd number of hex digits".into())
        );
        assert_eq!(parse("G1"), Err("'G1' has 'G', not a hex digit".into()));
        assert!(parse("0x").is_ok());
        assert!(parse("é").is_err());
        let long = "a".repeat(1 << 20) + "b";
        assert_eq!(
            parse(&long),
            Err("'aaaaaaaaaaaaaaaa…aaaaaaab' has an odd number of hex digits".into())
        );
    }

    #[test]
    fn format_is_uppercase_pairs_and_compact_lowercase() {
        assert_eq!(format(&[0xC0, 0xAF, 0x0A]), "C0 AF 0A");
        assert_eq!(format(&[]), "");
        assert_eq!(compact(&[0xC0, 0xAF, 0x0A]), "c0af0a");
    }
}
