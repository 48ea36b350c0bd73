//! What a check found: counts, and the first disagreements with their inputs.

use std::fmt;

/// How many failures a [`Report`] keeps in detail (all of them are counted).
pub const MAX_FAILURES: usize = 10;

/// One operation of [`Implementation`](crate::Implementation), named after its method.
///
/// Not the operations of the vectors and the adapter protocol
/// ([`corrected_utf8_vectors::Op`]: `decode`, `encode`, `document`): a vector of one of
/// those is checked through several of these methods (a decode vector through `decode`,
/// `decode_chunks`, `decode_lossy`, …), and a report names the method that disagreed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Op {
    /// [`Implementation::decode`](crate::Implementation::decode).
    Decode,
    /// [`Implementation::decode_chunks`](crate::Implementation::decode_chunks).
    DecodeChunks,
    /// [`Implementation::decode_lossy`](crate::Implementation::decode_lossy).
    DecodeLossy,
    /// [`Implementation::decode_strict`](crate::Implementation::decode_strict).
    DecodeStrict,
    /// [`Implementation::validity`](crate::Implementation::validity).
    Validity,
    /// [`Implementation::is_valid`](crate::Implementation::is_valid).
    IsValid,
    /// [`Implementation::encode`](crate::Implementation::encode).
    Encode,
    /// [`Implementation::encode_string`](crate::Implementation::encode_string).
    EncodeString,
    /// [`Implementation::check_document`](crate::Implementation::check_document).
    CheckDocument,
    /// [`Implementation::check_document_chunks`](crate::Implementation::check_document_chunks).
    CheckDocumentChunks,
}

impl Op {
    /// Every operation.
    pub const ALL: [Op; 10] = [
        Op::Decode,
        Op::DecodeChunks,
        Op::DecodeLossy,
        Op::DecodeStrict,
        Op::Validity,
        Op::IsValid,
        Op::Encode,
        Op::EncodeString,
        Op::CheckDocument,
        Op::CheckDocumentChunks,
    ];

    /// The method's name.
    pub fn as_str(self) -> &'static str {
        match self {
            Op::Decode => "decode",
            Op::DecodeChunks => "decode_chunks",
            Op::DecodeLossy => "decode_lossy",
            Op::DecodeStrict => "decode_strict",
            Op::Validity => "validity",
            Op::IsValid => "is_valid",
            Op::Encode => "encode",
            Op::EncodeString => "encode_string",
            Op::CheckDocument => "check_document",
            Op::CheckDocumentChunks => "check_document_chunks",
        }
    }
}

impl fmt::Display for Op {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// One disagreement between the implementation and the expected answer.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Failure {
    /// Which case: `utf-8/decode.json#17` for a vector (with the chunking for
    /// [`Op::DecodeChunks`], `… split at 3`), `input` for the exhaustive walk and replayed
    /// inputs, `seed 1 case 12` for the fuzz loop.
    pub case: String,
    /// The input: bytes as lowercase hex separated by spaces (`ed a0 80`), or the code
    /// point of an encode case (`U+D800`).
    pub input: String,
    /// The operation that disagreed.
    pub op: Op,
    /// The expected answer.
    pub expected: String,
    /// The implementation's answer.
    pub got: String,
}

impl fmt::Display for Failure {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} [{}] {}: expected {}, got {}",
            self.case,
            shorten(&self.input),
            self.op,
            shorten(&self.expected),
            shorten(&self.got)
        )
    }
}

/// A long input or answer cut for the message (the [`Failure`] keeps it whole).
fn shorten(s: &str) -> String {
    const MAX: usize = 300;
    if s.len() <= MAX {
        return s.to_owned();
    }
    let cut = (0..=MAX)
        .rev()
        .find(|&i| s.is_char_boundary(i))
        .unwrap_or(0);
    format!("{}… ({} bytes of text)", &s[..cut], s.len())
}

/// Per operation: how many cases it answered, how many it left unsupported (`None`), and
/// the first of those.
#[derive(Clone, Debug, Default)]
struct Answered {
    answered: usize,
    unsupported: usize,
    first_unsupported: Option<(String, String)>,
}

/// The outcome of one check: how much was compared, and the first failures.
///
/// A report [passes](Report::passed) when nothing disagreed **and** something was
/// compared: an implementation whose methods all answer `None` fails.
#[derive(Clone, Debug)]
pub struct Report {
    /// What was checked: `vectors`, `exhaustive 1..=2 bytes`, `fuzz seed 7, 1000 cases`,
    /// `inputs`.
    pub check: String,
    /// The implementation's [`name`](crate::Implementation::name) and encoding.
    pub implementation: String,
    /// Cases looked at (vectors, inputs or code points).
    pub cases: usize,
    /// Cases left out: vectors with a flag that was asked to be skipped, or of the limit
    /// the implementation does not have.
    pub skipped: usize,
    /// Single comparisons made (one per operation answered per case and chunking).
    pub comparisons: usize,
    /// Comparisons that disagreed, and operations answered for some cases but not others.
    pub failed: usize,
    /// The first [`MAX_FAILURES`] failures, in the order found.
    pub failures: Vec<Failure>,
    ops: Vec<(Op, Answered)>,
}

impl Report {
    pub(crate) fn new(check: String, implementation: String) -> Report {
        Report {
            check,
            implementation,
            cases: 0,
            skipped: 0,
            comparisons: 0,
            failed: 0,
            failures: Vec::new(),
            ops: Op::ALL
                .iter()
                .map(|&op| (op, Answered::default()))
                .collect(),
        }
    }

    /// Whether nothing disagreed and at least one comparison was made.
    pub fn passed(&self) -> bool {
        self.failed == 0 && self.comparisons > 0
    }

    /// The operations the implementation answered at least once.
    pub fn ops_checked(&self) -> Vec<Op> {
        self.ops
            .iter()
            .filter(|(_, a)| a.answered > 0)
            .map(|&(op, _)| op)
            .collect()
    }

    /// Whether some failure is for this input (in [`Failure::input`]'s form, `ed a0 80`).
    pub fn fails_on(&self, input: &str) -> bool {
        self.failures.iter().any(|f| f.input == input)
    }

    /// Panics with the report unless it [passed](Report::passed).
    pub fn assert_passed(&self) {
        assert!(self.passed(), "{self}");
    }

    pub(crate) fn fail(&mut self, failure: Failure) {
        self.failed += 1;
        if self.failures.len() < MAX_FAILURES {
            self.failures.push(failure);
        }
    }

    /// Records one answer of `op`: `None` is counted as unsupported, `Some` is compared
    /// with `expected` by `same` (`show` writes both sides of a failure).
    pub(crate) fn answer<T>(
        &mut self,
        op: Op,
        site: &Site<'_>,
        got: Option<T>,
        expected: &T,
        same: impl FnOnce(&T, &T) -> bool,
        show: impl Fn(&T) -> String,
    ) {
        let counts = &mut self
            .ops
            .iter_mut()
            .find(|(o, _)| *o == op)
            .expect("all ops")
            .1;
        let Some(got) = got else {
            counts.unsupported += 1;
            if counts.first_unsupported.is_none() {
                counts.first_unsupported = Some((site.case(), site.input.to_owned()));
            }
            return;
        };
        counts.answered += 1;
        self.comparisons += 1;
        if !same(&got, expected) {
            self.fail(Failure {
                case: site.case(),
                input: site.input.to_owned(),
                op,
                expected: show(expected),
                got: show(&got),
            });
        }
    }

    /// Ends the check: an operation answered for some cases and `None` for others fails
    /// (the declaration is a floor, as in the adapter protocol: a method that answers
    /// must answer every case, or a regression to "unsupported" would go unseen).
    pub(crate) fn finish(mut self) -> Report {
        let mixed: Vec<(Op, Answered)> = self
            .ops
            .iter()
            .filter(|(_, a)| a.answered > 0 && a.unsupported > 0)
            .cloned()
            .collect();
        for (op, a) in mixed {
            let (case, input) = a.first_unsupported.unwrap_or_default();
            self.fail(Failure {
                case,
                input,
                op,
                expected: format!("an answer (it answered {} other cases)", a.answered),
                got: format!("None (unsupported) for {} cases", a.unsupported),
            });
        }
        self
    }
}

impl fmt::Display for Report {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let verdict = if self.passed() {
            "passed"
        } else if self.comparisons == 0 {
            "FAILED: nothing checkable (every method answered None)"
        } else {
            "FAILED"
        };
        let ops: Vec<&str> = self.ops_checked().into_iter().map(Op::as_str).collect();
        writeln!(
            f,
            "{} of {}: {verdict}; {} of {} comparisons disagree over {} cases ({} skipped); checked: {}",
            self.check,
            self.implementation,
            self.failed,
            self.comparisons,
            self.cases,
            self.skipped,
            if ops.is_empty() { "nothing".to_owned() } else { ops.join(", ") },
        )?;
        for failure in &self.failures {
            writeln!(f, "  {failure}")?;
        }
        if self.failed > self.failures.len() {
            writeln!(f, "  … and {} more", self.failed - self.failures.len())?;
        }
        Ok(())
    }
}

/// Where a comparison is made: the case's name (made only for a failure) and the input
/// in a failure's form.
pub(crate) struct Site<'a> {
    pub(crate) case: &'a dyn Fn() -> String,
    pub(crate) input: &'a str,
}

impl Site<'_> {
    pub(crate) fn case(&self) -> String {
        (self.case)()
    }
}
