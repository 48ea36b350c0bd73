//! Table 3.1b ("Ill-Formed UTF-8 Byte Sequences"), exactly as transcribed
//! (Davis 2000, Table 3.1b; docs/sources.md).
//!
//! The text's rule (its D36): "A byte sequence is ill-formed UTF-8 if and only if some sequence of
//! those bytes matches one (or more) of the lines in Table 3.1b", where "XX" matches any
//! byte. "Some sequence of those bytes" is read as a contiguous run. The rows are copied
//! as printed, errors included: this table is *audited*, not trusted
//! (`docs/semantics.md` §3, `conformance audit`).

use super::in_range;

/// One cell of a row: the byte ranges it accepts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Cell {
    /// "XX": any byte whatsoever.
    Any,
    /// A list of inclusive byte ranges, as printed (e.g. `00-7F, C0-FF`).
    Ranges(&'static [(u8, u8)]),
}

impl Cell {
    /// Whether the cell accepts `b`.
    pub fn accepts(&self, b: u8) -> bool {
        match self {
            Cell::Any => true,
            Cell::Ranges(rs) => rs.iter().any(|r| in_range(b, *r)),
        }
    }

    /// The inclusive ranges the cell accepts (`XX` is `00-FF`).
    pub fn ranges(&self) -> &'static [(u8, u8)] {
        match self {
            Cell::Any => &[(0x00, 0xFF)],
            Cell::Ranges(rs) => rs,
        }
    }
}

/// One numbered row of Table 3.1b.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Row {
    /// The row number printed in the table (1–10).
    pub number: u8,
    /// The cells "1 Byte", "2 Bytes", … in order; the "5 Bytes" column is empty in every row.
    pub cells: &'static [Cell],
}

use Cell::{Any as XX, Ranges as R};

/// Davis 2000, Table 3.1b as transcribed, row by row.
#[rustfmt::skip]
pub const TABLE_3_1B: [Row; 10] = [
    //                 1 Byte               2 Bytes                            3 Bytes                            4 Bytes
    Row { number: 1,  cells: &[R(&[(0xC0, 0xC1)])] },
    Row { number: 2,  cells: &[R(&[(0xF5, 0xFF)])] },
    Row { number: 3,  cells: &[R(&[(0xC2, 0xDF)]), R(&[(0x00, 0x7F), (0xC0, 0xFF)])] },
    Row { number: 4,  cells: &[R(&[(0xE0, 0xE0)]), R(&[(0x00, 0x9F), (0xC0, 0xFF)])] },
    Row { number: 5,  cells: &[R(&[(0xE1, 0xEF)]), R(&[(0x00, 0x7F), (0xC0, 0xFF)])] },
    Row { number: 6,  cells: &[R(&[(0xF0, 0xF0)]), R(&[(0x00, 0x9F), (0xC0, 0xFF)])] },
    Row { number: 7,  cells: &[R(&[(0xF4, 0xF4)]), R(&[(0x00, 0x7F), (0x90, 0xFF)])] },
    Row { number: 8,  cells: &[R(&[(0xE0, 0xEF)]), XX,                                R(&[(0x00, 0x7F), (0xC0, 0xFF)])] },
    Row { number: 9,  cells: &[R(&[(0xF0, 0xF4)]), XX,                                R(&[(0x00, 0x7F), (0xC0, 0xFF)])] },
    Row { number: 10, cells: &[R(&[(0xF0, 0xF4)]), XX,                                XX,                                R(&[(0x00, 0x7F), (0xC0, 0xFF)])] },
];

/// A place where a row matches: the run `input[offset..offset + row.cells.len()]`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Match {
    /// The row number (1–10).
    pub row: u8,
    /// Where the matching run starts.
    pub offset: usize,
}

/// Whether `row` matches the run of `input` starting at `offset`.
pub fn row_matches_at(row: &Row, input: &[u8], offset: usize) -> bool {
    input.len() >= offset + row.cells.len()
        && row
            .cells
            .iter()
            .zip(&input[offset..])
            .all(|(cell, &b)| cell.accepts(b))
}

/// Every (row, offset) where a row matches a contiguous run of `input`, by offset then row.
pub fn matches(input: &[u8]) -> Vec<Match> {
    let mut out = Vec::new();
    for offset in 0..input.len() {
        for row in &TABLE_3_1B {
            if row_matches_at(row, input, offset) {
                out.push(Match {
                    row: row.number,
                    offset,
                });
            }
        }
    }
    out
}

/// Whether Table 3.1b calls `input` ill-formed (some row matches somewhere).
pub fn is_ill_formed(input: &[u8]) -> bool {
    (0..input.len()).any(|o| TABLE_3_1B.iter().any(|r| row_matches_at(r, input, o)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rows_as_printed() {
        assert!(is_ill_formed(&[0xC0]));
        assert!(is_ill_formed(&[0x41, 0xFF]));
        assert!(!is_ill_formed(&[0xC2]));
        assert!(is_ill_formed(&[0xC2, 0x41]));
        // Row 6 as transcribed covers F0 90–9F, which Table 3-7 allows.
        assert_eq!(
            matches(&[0xF0, 0x90, 0x80, 0x80]),
            vec![Match { row: 6, offset: 0 }]
        );
        assert!(!is_ill_formed(&[0xED, 0xA0, 0x80]));
        assert_eq!(
            matches(&[0xE1, 0x80, 0x41]),
            vec![Match { row: 8, offset: 0 }]
        );
    }
}
