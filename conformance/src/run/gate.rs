//! The gate's floor: what makes a run fail though no case failed — an implementation
//! that answered less than it declared, declared nothing, had nothing checked of what it
//! declared, left cases not run, or missed a `--require`.

use super::Config;
use crate::case::{Case, Suite};
use crate::judge::{CaseResult, Status};
use crate::protocol::hello::{self as handshake, describe_supports};
use crate::protocol::Declared;
use crate::report::model::ImplResult;
use corrected_utf8_vectors::{Encoding, Op};
use std::collections::{BTreeMap, BTreeSet};

/// The gate's floor: what makes a run fail though no case did.
pub(super) fn gate(suite: &Suite, results: &[ImplResult], cfg: &Config) -> Vec<String> {
    let mut problems = Vec::new();
    // Sorted as the names are (the enums' order is their names').
    let tested: BTreeSet<(Encoding, Op)> =
        suite.cases.iter().map(|c| (c.encoding, c.op())).collect();
    for imp in results {
        let name = &imp.name;
        let requires: Vec<_> = cfg.require.iter().filter(|r| r.applies_to(name)).collect();
        let pairs = || suite.cases.iter().zip(&imp.results);
        match &imp.declared {
            Declared::Protocol2(d) => {
                if !d
                    .supports
                    .iter()
                    .any(|s| tested.contains(&(s.encoding, s.op)))
                {
                    problems.push(format!(
                        "[{name}] declared nothing that these vectors test (declared: {}; \
                         tested: {})",
                        describe_supports(&d.supports),
                        tested
                            .iter()
                            .map(|(e, o)| format!("{e} {o}"))
                            .collect::<Vec<_>>()
                            .join(", ")
                    ));
                }
                // Every declared encoding and operation that the vectors test had at least
                // one case checked: a declaration is no floor if nothing was compared.
                for s in &d.supports {
                    let of_it = |c: &&Case| (s.encoding, s.op) == (c.encoding, c.op());
                    let total = suite.cases.iter().filter(of_it).count();
                    let checked = pairs()
                        .filter(|(c, r)| of_it(c) && !r.checked.is_empty())
                        .count();
                    if total > 0 && checked == 0 {
                        problems.push(format!(
                            "[{name}] declared {} {} but none of its {total} case(s) was \
                             checked",
                            s.encoding, s.op
                        ));
                    }
                }
                // Cases that answered less than declared, per encoding, op and shortfall.
                let mut short: BTreeMap<&str, (usize, &str)> = BTreeMap::new();
                for (case, r) in pairs() {
                    if let (Some(what), true) = (&r.undeclared, r.status.is_failure()) {
                        short.entry(what).or_insert((0, &case.id)).0 += 1;
                    }
                }
                for (what, (n, first)) in short {
                    problems.push(format!(
                        "[{name}] answered less than it declared: {what} on {n} case(s) \
                         (first: {first})"
                    ));
                }
            }
            Declared::Protocol1 | Declared::Unknown
                if requires.is_empty() && !cfg.allow_undeclared =>
            {
                let how = if imp.declared == Declared::Protocol1 {
                    "declared nothing (protocol 1)"
                } else {
                    "never completed the handshake, so declared nothing"
                };
                problems.push(format!(
                    "[{name}] {how}: skipped cases could hide a regression. Add a handshake \
                     (protocol 2, conformance/adapters/README.md) or pass --require \
                     [{name}=]ENCODING:OP[:FIELD,…] (or --allow-undeclared)"
                ));
            }
            _ => {}
        }
        // Whatever it declared: a run that checked nothing of an implementation passes
        // nothing.
        if pairs().all(|(_, r)| r.checked.is_empty()) {
            problems.push(format!(
                "[{name}] no case was checked: none of its {} case(s) was answered with a \
                 field the vectors compare",
                suite.cases.len()
            ));
        }
        // Cases never sent.
        let not_run: Vec<(&Case, &CaseResult)> =
            pairs().filter(|(_, r)| r.raw == Status::NotRun).collect();
        if let Some((first, r)) = not_run.first() {
            problems.push(format!(
                "[{name}] {} case(s) {} (first: {})",
                not_run.len(),
                r.message.as_deref().unwrap_or("not run"),
                first.id
            ));
        }
        for req in requires {
            // The cases a floor counts: those of its encoding and operation that apply to
            // this implementation (a chunked variant it declared no streaming for is never
            // sent), and of those only the whole-input ones must carry the fields (a
            // chunked answer gives what a streaming decoder gives).
            let cases: Vec<(&Case, &CaseResult)> = pairs()
                .filter(|(c, r)| {
                    c.encoding == req.encoding && c.op() == req.op && !r.not_applicable
                })
                .collect();
            if cases.is_empty() {
                continue; // said once below, not per implementation
            }
            if let Some(d) = imp.declared.declaration() {
                let declared = d.fields(req.encoding, req.op);
                let missing: Vec<&String> = req
                    .fields
                    .iter()
                    .filter(|f| declared.is_none_or(|d| !d.contains(f)))
                    .collect();
                if declared.is_none() {
                    problems.push(format!("[{name}] --require {req}: not declared"));
                } else if !missing.is_empty() {
                    problems.push(format!(
                        "[{name}] --require {req}: declared without {}",
                        missing
                            .iter()
                            .map(|f| f.as_str())
                            .collect::<Vec<_>>()
                            .join(", ")
                    ));
                }
            }
            let short: Vec<&Case> = cases
                .iter()
                .filter(|(c, r)| {
                    !matches!(r.raw, Status::Pass | Status::Fail)
                        || (c.chunking.is_none()
                            && req
                                .fields
                                .iter()
                                .any(|f| !handshake::has_answered(req.op, f, &r.answered)))
                })
                .map(|(c, _)| *c)
                .collect();
            if let Some(first) = short.first() {
                problems.push(format!(
                    "[{name}] --require {req}: {} of {} case(s) not answered{} (first: {})",
                    short.len(),
                    cases.len(),
                    if req.fields.is_empty() {
                        String::new()
                    } else {
                        format!(" with {}", req.fields.join(", "))
                    },
                    first.id
                ));
            }
        }
    }
    for req in &cfg.require {
        if !tested.contains(&(req.encoding, req.op)) {
            problems.push(format!(
                "--require {req}: no vector of this run tests {} {}",
                req.encoding, req.op
            ));
        }
    }
    problems
}

/// One `--require [NAME=]ENCODING:OP[:FIELD,…]`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Requirement {
    /// The implementation it applies to (`NAME=`); `None`: every implementation.
    pub implementation: Option<String>,
    /// The encoding.
    pub encoding: Encoding,
    /// The operation.
    pub op: Op,
    /// The fields every case must have (none: any answer).
    pub fields: Vec<String>,
}

impl Requirement {
    /// Whether it applies to the implementation `name`.
    pub fn applies_to(&self, name: &str) -> bool {
        self.implementation.as_deref().is_none_or(|n| n == name)
    }
}

impl std::fmt::Display for Requirement {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if let Some(name) = &self.implementation {
            write!(f, "{name}=")?;
        }
        write!(f, "{}:{}", self.encoding, self.op)?;
        if !self.fields.is_empty() {
            write!(f, ":{}", self.fields.join(","))?;
        }
        Ok(())
    }
}

/// Parses `[NAME=]ENCODING:OP[:FIELD,…]`; the levels `events`, `lossy`, `strict`,
/// `validity` stand for the decode fields `output`, `lossy`, `strict`, `valid`. With
/// `NAME=`, it applies to the implementation `NAME` alone (`--adapter NAME=…`, or
/// `reference`).
pub fn parse_requirement(s: &str) -> Result<Requirement, String> {
    // An encoding has no `=`: one before the first `:` ends a name.
    let (implementation, s) = match s.split_once('=') {
        Some((name, rest)) if !name.contains(':') => {
            crate::adapter_spec::check_name(name).map_err(|e| format!("in {name}=…: {e}"))?;
            (Some(name.to_string()), rest)
        }
        _ => (None, s),
    };
    let mut parts = s.splitn(3, ':');
    let encoding: Encoding = parts
        .next()
        .unwrap_or_default()
        .parse()
        .map_err(|e: corrected_utf8_vectors::vocabulary::UnknownName| e.to_string())?;
    let op = parts.next().unwrap_or_default();
    let op = Op::from_name(op)
        .ok_or_else(|| format!("unknown operation {op:?} (expected decode, encode or document)"))?;
    let fields = parts
        .next()
        .map(|f| {
            f.split(',')
                .filter(|f| !f.is_empty())
                .map(|f| {
                    match (op, f) {
                        (Op::Decode, "events") => "output",
                        (Op::Decode, "validity") => "valid",
                        (_, f) => f,
                    }
                    .to_string()
                })
                .collect::<Vec<String>>()
        })
        .unwrap_or_default();
    let known = handshake::known_fields(op);
    if let Some(unknown) = fields.iter().find(|f| !known.contains(&f.as_str())) {
        return Err(format!(
            "unknown field {unknown:?} of {op} (expected {}{})",
            known.join(", "),
            if op == Op::Decode {
                ", or the levels events, validity"
            } else {
                ""
            }
        ));
    }
    Ok(Requirement {
        implementation,
        encoding,
        op,
        fields,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn requirements() {
        let r = parse_requirement("utf-8:decode:events,strict").unwrap();
        assert_eq!(r.fields, ["output", "strict"]);
        assert_eq!(r.implementation, None);
        assert_eq!(r.to_string(), "utf-8:decode:output,strict");
        assert_eq!(
            (r.encoding, r.op),
            (Encoding::Utf8, Op::Decode),
            "parsed once, into the names"
        );
        // The wording of both errors is the runner's (clap prints it after the value).
        assert_eq!(
            parse_requirement("utf8:decode").unwrap_err(),
            r#"unknown encoding "utf8" (expected one of corrected-utf8, utf-8, utf-inf-8)"#
        );
        assert_eq!(
            parse_requirement("utf-inf-8:transcode").unwrap_err(),
            r#"unknown operation "transcode" (expected decode, encode or document)"#
        );
        assert!(parse_requirement("utf-8").is_err());
        assert!(parse_requirement("utf-8:decode:bogus").is_err());
        assert!(parse_requirement("utf-8:encode:lossy").is_err());
        let r = parse_requirement("ruby-1.x=utf-8:decode:spans").unwrap();
        assert_eq!(r.implementation.as_deref(), Some("ruby-1.x"));
        assert_eq!(r.fields, ["spans"]);
        assert_eq!(r.to_string(), "ruby-1.x=utf-8:decode:spans");
        assert!(r.applies_to("ruby-1.x") && !r.applies_to("php"));
        assert!(parse_requirement("a b=utf-8:decode").is_err());
    }
}
