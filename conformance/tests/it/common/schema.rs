//! A validator for the subset of JSON Schema that the project's schema files use (the
//! vector files' `vectors/schema/*.schema.json`, the report's
//! `conformance/schema/report.schema.json`). It fails loudly on any keyword, type or
//! pattern it does not know, so the schemas cannot silently outgrow it; no JSON Schema
//! crate is needed for that.

use serde_json::Value;
use std::collections::HashSet;

/// The errors of `value` against `schema` (the root, for `$ref`s), each prefixed with a
/// JSON-pointer-like path: empty when it validates.
pub fn validate(schema: &Value, value: &Value) -> Vec<String> {
    let v = Validator { root: schema };
    let mut errors = Vec::new();
    v.check(schema, value, "", &mut errors);
    errors
}

/// The patterns the schema files use, each with a hand-written matcher.
fn pattern_matches(pattern: &str, s: &str) -> Result<bool, String> {
    let hex = |c: char| matches!(c, '0'..='9' | 'A'..='F');
    Ok(match pattern {
        "^([0-9a-f]{2})*$" => {
            s.len().is_multiple_of(2) && s.chars().all(|c| matches!(c, '0'..='9' | 'a'..='f'))
        }
        "^U\\+([0-9A-F]{4}|[1-9A-F][0-9A-F]{4,})$" => match s.strip_prefix("U+") {
            Some(d) => d.chars().all(hex) && (d.len() == 4 || (d.len() > 4 && !d.starts_with('0'))),
            None => false,
        },
        "^[A-Za-z0-9][A-Za-z0-9.-]*$" => {
            s.chars().next().is_some_and(|c| c.is_ascii_alphanumeric())
                && s.chars()
                    .all(|c| c.is_ascii_alphanumeric() || c == '.' || c == '-')
        }
        "^(0|[1-9][0-9]*)\\.(0|[1-9][0-9]*)\\.(0|[1-9][0-9]*)$" => {
            let parts: Vec<&str> = s.split('.').collect();
            parts.len() == 3
                && parts.iter().all(|p| {
                    !p.is_empty()
                        && p.chars().all(|c| c.is_ascii_digit())
                        && (p.len() == 1 || !p.starts_with('0'))
                })
        }
        "^[0-9a-f]{64}$" => s.len() == 64 && s.chars().all(|c| matches!(c, '0'..='9' | 'a'..='f')),
        other => return Err(format!("validator does not know pattern {other}")),
    })
}

/// Whether `value` is of the JSON Schema type `name`, or `None` for a type it does not
/// know.
fn is_of_type(name: &str, value: &Value) -> Option<bool> {
    Some(match name {
        "object" => value.is_object(),
        "array" => value.is_array(),
        "string" => value.is_string(),
        "integer" => value.is_u64() || value.is_i64(),
        "number" => value.is_number(),
        "boolean" => value.is_boolean(),
        "null" => value.is_null(),
        _ => return None,
    })
}

struct Validator<'a> {
    root: &'a Value,
}

impl Validator<'_> {
    fn resolve<'s>(&'s self, reference: &str) -> Result<&'s Value, String> {
        let path = reference
            .strip_prefix("#/")
            .ok_or_else(|| format!("unsupported $ref {reference}"))?;
        let mut v = self.root;
        for part in path.split('/') {
            v = v
                .get(part)
                .ok_or_else(|| format!("dangling $ref {reference}"))?;
        }
        Ok(v)
    }

    /// Errors of `value` against `schema`, each with a JSON-pointer-like path.
    fn check(&self, schema: &Value, value: &Value, path: &str, errors: &mut Vec<String>) {
        let Some(obj) = schema.as_object() else {
            errors.push(format!("{path}: schema is not an object"));
            return;
        };
        for (key, want) in obj {
            match key.as_str() {
                "$schema" | "$id" | "title" | "description" | "$defs" => {}
                "$ref" => match want.as_str().map(|r| self.resolve(r)) {
                    Some(Ok(target)) => self.check(target, value, path, errors),
                    Some(Err(e)) => errors.push(format!("{path}: {e}")),
                    None => errors.push(format!("{path}: $ref is not a string")),
                },
                "type" => {
                    // One type name, or a list of them (any may match).
                    let names: Vec<&Value> = match want {
                        Value::Array(names) => names.iter().collect(),
                        name => vec![name],
                    };
                    let mut ok = false;
                    for name in names {
                        match name.as_str().and_then(|n| is_of_type(n, value)) {
                            Some(matches) => ok |= matches,
                            None => {
                                errors.push(format!("{path}: unsupported type {name}"));
                                ok = true;
                            }
                        }
                    }
                    if !ok {
                        errors.push(format!("{path}: {value} is not of type {want}"));
                    }
                }
                "const" => {
                    if value != want {
                        errors.push(format!("{path}: {value} is not {want}"));
                    }
                }
                "enum" => {
                    if !want.as_array().is_some_and(|a| a.contains(value)) {
                        errors.push(format!("{path}: {value} not in {want}"));
                    }
                }
                "pattern" => {
                    if let (Some(p), Some(s)) = (want.as_str(), value.as_str()) {
                        match pattern_matches(p, s) {
                            Ok(true) => {}
                            Ok(false) => errors.push(format!("{path}: {s:?} does not match {p}")),
                            Err(e) => errors.push(e),
                        }
                    }
                }
                "minimum" => {
                    if let (Some(m), Some(v)) = (want.as_f64(), value.as_f64()) {
                        if v < m {
                            errors.push(format!("{path}: {v} < {m}"));
                        }
                    }
                }
                "minLength" => {
                    if let (Some(m), Some(s)) = (want.as_u64(), value.as_str()) {
                        if (s.chars().count() as u64) < m {
                            errors.push(format!("{path}: shorter than {m}"));
                        }
                    }
                }
                "uniqueItems" => {
                    if let (Some(true), Some(a)) = (want.as_bool(), value.as_array()) {
                        let set: HashSet<String> = a.iter().map(|v| v.to_string()).collect();
                        if set.len() != a.len() {
                            errors.push(format!("{path}: items not unique"));
                        }
                    }
                }
                "required" => {
                    if let (Some(req), Some(o)) = (want.as_array(), value.as_object()) {
                        for r in req.iter().filter_map(Value::as_str) {
                            if !o.contains_key(r) {
                                errors.push(format!("{path}: missing {r}"));
                            }
                        }
                    }
                }
                "properties" => {
                    if let (Some(props), Some(o)) = (want.as_object(), value.as_object()) {
                        for (k, s) in props {
                            if let Some(v) = o.get(k) {
                                self.check(s, v, &format!("{path}/{k}"), errors);
                            }
                        }
                    }
                }
                "additionalProperties" => {
                    if let Some(o) = value.as_object() {
                        let known: HashSet<&str> = obj
                            .get("properties")
                            .and_then(Value::as_object)
                            .map(|p| p.keys().map(String::as_str).collect())
                            .unwrap_or_default();
                        for (k, v) in o.iter().filter(|(k, _)| !known.contains(k.as_str())) {
                            match want {
                                Value::Bool(false) => {
                                    errors.push(format!("{path}: unexpected property {k}"))
                                }
                                Value::Bool(true) => {}
                                s => self.check(s, v, &format!("{path}/{k}"), errors),
                            }
                        }
                    }
                }
                "items" => {
                    if let Some(a) = value.as_array() {
                        for (i, v) in a.iter().enumerate() {
                            self.check(want, v, &format!("{path}/{i}"), errors);
                        }
                    }
                }
                "oneOf" => {
                    let branches = want.as_array().cloned().unwrap_or_default();
                    let passing = branches
                        .iter()
                        .filter(|b| {
                            let mut e = Vec::new();
                            self.check(b, value, path, &mut e);
                            e.is_empty()
                        })
                        .count();
                    if passing != 1 {
                        errors.push(format!("{path}: {passing} oneOf branches match, not 1"));
                    }
                }
                other => errors.push(format!("{path}: validator does not know keyword {other}")),
            }
        }
    }
}
