//! Table 3.1b amended: our reading of what the table must say to agree with Table 3-7,
//! checked by `conformance audit --amended`.
//!
//! Table 3.1b's rule is that a byte string is ill-formed iff some contiguous run of it
//! matches a row. So the rows describe ill-formed *contexts*: whatever a row flags stays
//! flagged inside any longer string, and whatever no row flags has no flagged part
//! either. No such table can therefore call a string ill-formed that occurs inside a
//! well-formed one (a *factor* of well-formed UTF-8) without also calling that
//! well-formed string ill-formed. The best any table of contexts can do is flag exactly
//! the strings that are not factors of well-formed UTF-8; [`AMENDED`] does (see its doc
//! for why, and [`is_factor_of_well_formed`] for the check the audit counts with).
//! What is left, the factors that are not well-formed themselves, are the strings that
//! begin with a character's tail (a continuation byte first) or end with a character's
//! head (a sequence cut by the end): no table of contexts can express them.

use conformance_literal::table31b::{Cell, Row};
use conformance_literal::utf8;

use Cell::{Any as XX, Ranges as R};

/// `80-BF`: a continuation byte.
const CONT: &[(u8, u8)] = &[(0x80, 0xBF)];
/// `00-7F, C0-FF`: any byte but a continuation byte.
const NOT_CONT: &[(u8, u8)] = &[(0x00, 0x7F), (0xC0, 0xFF)];

/// Table 3.1b amended so that it flags exactly the strings that are not factors of
/// well-formed UTF-8 (Table 3-7).
///
/// * Rows 1–5 and 7–10 are the transcription's, unchanged.
/// * Row 6 is corrected from `F0 | 00-9F, C0-FF` to `F0 | 00-8F, C0-FF`: the overlong
///   range after `F0` is `80-8F` (Table 3-7 allows `F0 90-BF`), so `9F` flags every
///   character of plane 1.
/// * Row 11, `ED | A0-BF`, is added: surrogates, made ill-formed in Unicode 3.2, after
///   the table was written.
/// * Row 12, `F1-F3 | 00-7F, C0-FF`, is added: rows 4–7 check the byte after every
///   other lead, but nothing checked it after `F1-F3`.
/// * Rows 13–16 are added: a continuation byte is stray when the nearest byte before it
///   that is not a continuation is ASCII (row 13 sees it right after the ASCII byte) or
///   a lead whose sequence is already complete (rows 14 and 15 see the first surplus
///   byte after a 2- and 3-byte lead), or when there are four continuation bytes in a
///   row (row 16, which also catches the surplus after a 4-byte lead, the 5-byte row
///   `F0-F4 | XX | XX | XX | 80-BF` that the transcription's empty "5 Bytes" column
///   hints at, and a run of continuation bytes longer than any character's tail).
///
/// Why that is all of them: a string is a factor of well-formed UTF-8 iff it has no
/// `C0`, `C1`, `F5-FF` (rows 1, 2); every lead is followed, as far as the string goes,
/// by as many continuation bytes as its length says, the first in its Table 3-7 range
/// (rows 3–12; a row's `XX` is a byte that another row checks); and every continuation
/// byte lies within its lead's length after it, or, with no byte but continuation bytes
/// before it, is among the first three (rows 13–16, as above; any later surplus byte
/// comes after the first, which already matches). `conformance audit --amended` checks
/// the claim on every input of 1 to 4 bytes, a test on every input of 5 bytes, and
/// another that no row can be left out.
#[rustfmt::skip]
pub const AMENDED: [Row; 16] = [
    //                 1 Byte                             2 Bytes                            3 Bytes   4 Bytes
    Row { number: 1,  cells: &[R(&[(0xC0, 0xC1)])] },
    Row { number: 2,  cells: &[R(&[(0xF5, 0xFF)])] },
    Row { number: 3,  cells: &[R(&[(0xC2, 0xDF)]),                R(NOT_CONT)] },
    Row { number: 4,  cells: &[R(&[(0xE0, 0xE0)]),                R(&[(0x00, 0x9F), (0xC0, 0xFF)])] },
    Row { number: 5,  cells: &[R(&[(0xE1, 0xEF)]),                R(NOT_CONT)] },
    Row { number: 6,  cells: &[R(&[(0xF0, 0xF0)]),                R(&[(0x00, 0x8F), (0xC0, 0xFF)])] },
    Row { number: 7,  cells: &[R(&[(0xF4, 0xF4)]),                R(&[(0x00, 0x7F), (0x90, 0xFF)])] },
    Row { number: 8,  cells: &[R(&[(0xE0, 0xEF)]),                XX,                                R(NOT_CONT)] },
    Row { number: 9,  cells: &[R(&[(0xF0, 0xF4)]),                XX,                                R(NOT_CONT)] },
    Row { number: 10, cells: &[R(&[(0xF0, 0xF4)]),                XX,                                XX,       R(NOT_CONT)] },
    Row { number: 11, cells: &[R(&[(0xED, 0xED)]),                R(&[(0xA0, 0xBF)])] },
    Row { number: 12, cells: &[R(&[(0xF1, 0xF3)]),                R(NOT_CONT)] },
    Row { number: 13, cells: &[R(&[(0x00, 0x7F)]),                R(CONT)] },
    Row { number: 14, cells: &[R(&[(0xC2, 0xDF)]),                XX,                                R(CONT)] },
    Row { number: 15, cells: &[R(&[(0xE0, 0xEF)]),                XX,                                XX,       R(CONT)] },
    Row { number: 16, cells: &[R(CONT),                           R(CONT),                           R(CONT),  R(CONT)] },
];

/// Whether `input` occurs as a contiguous run inside some well-formed UTF-8 string:
/// read it from any position inside any Table 3-7 row, row after row, and let the end
/// of the input fall anywhere. Only Table 3-7's ranges are tested, so the audit's byte
/// classes still hold.
pub fn is_factor_of_well_formed(input: &[u8]) -> bool {
    utf8::TABLE_3_7
        .iter()
        .any(|row| (0..row.bytes.len()).any(|pos| follows(input, row, pos)))
}

/// Whether `input` reads as the rest of `row` from byte `pos` on, then whole rows.
fn follows(input: &[u8], row: &utf8::Row, pos: usize) -> bool {
    let Some((&b, rest)) = input.split_first() else {
        return true;
    };
    match row.bytes.get(pos) {
        Some(&(lo, hi)) => lo <= b && b <= hi && follows(rest, row, pos + 1),
        None => utf8::TABLE_3_7.iter().any(|r| follows(input, r, 0)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every row is needed: without it some input of at most 5 bytes that is not a
    /// factor of well-formed UTF-8 is flagged by no other row.
    #[test]
    fn no_row_is_redundant() {
        let classes = crate::audit::byte_classes();
        for (left_out, row) in AMENDED.iter().enumerate() {
            let rest: Vec<&Row> = AMENDED
                .iter()
                .enumerate()
                .filter(|&(i, _)| i != left_out)
                .map(|(_, r)| r)
                .collect();
            // The row's own shape, one byte per cell, is where it must be needed.
            let mut idx = vec![0usize; row.cells.len()];
            let found = loop {
                let input: Vec<u8> = idx.iter().map(|&i| classes[i].0).collect();
                let flagged = rest.iter().any(|r| {
                    (0..input.len())
                        .any(|o| conformance_literal::table31b::row_matches_at(r, &input, o))
                });
                if !flagged && !is_factor_of_well_formed(&input) {
                    break true;
                }
                let Some(p) = (0..idx.len()).rev().find(|&p| idx[p] + 1 < classes.len()) else {
                    break false;
                };
                idx[p] += 1;
                for i in &mut idx[p + 1..] {
                    *i = 0;
                }
            };
            assert!(found, "row {} is redundant", row.number);
        }
    }

    #[test]
    fn factors() {
        assert!(is_factor_of_well_formed(&[0x80, 0x80, 0x80]));
        assert!(is_factor_of_well_formed(&[0x90, 0x80, 0x41, 0xF4, 0x8F]));
        assert!(!is_factor_of_well_formed(&[0x80; 4]));
        assert!(!is_factor_of_well_formed(&[0xC2, 0x80, 0x80]));
        assert!(!is_factor_of_well_formed(&[0xED, 0xA0]));
        assert!(!is_factor_of_well_formed(&[0xF4, 0x90]));
    }
}
