//! What the checks return: named counters, or the first counterexample.

use std::collections::BTreeMap;
use std::fmt;

/// Named counters (`check.what[.detail]` → count), merged across units.
pub type Counters = BTreeMap<String, u64>;

/// A disagreement: the first counterexample.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Failure {
    /// Which check failed.
    pub check: &'static str,
    /// The input: `U+00A0` for a code point, bytes in lowercase hex (`c0 80`) for an input.
    pub input: String,
    /// Who gave [`got`](Self::got): the implementation's name.
    pub got_from: &'static str,
    /// What the implementation gave.
    pub got: String,
    /// Who gave [`want`](Self::want): `spec-literal`, `std`, …
    pub want_from: &'static str,
    /// What was expected.
    pub want: String,
}

impl fmt::Display for Failure {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let w = self.got_from.len().max(self.want_from.len());
        writeln!(f, "counterexample ({}): {}", self.check, self.input)?;
        writeln!(f, "  {:<w$}  {}", self.got_from, self.got)?;
        write!(f, "  {:<w$}  {}", self.want_from, self.want)
    }
}
