//! `--adapter NAME=COMMAND`: how `run`, `exhaustive` and `fuzz` name an external
//! implementation.

use std::fmt;
use std::str::FromStr;

/// An implementation behind a command: its name in reports and the command run through
/// `sh -c`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AdapterSpec {
    /// Letters, digits, `-`, `_` and `.`.
    pub name: String,
    /// Run through `sh -c`.
    pub command: String,
}

impl FromStr for AdapterSpec {
    type Err = String;

    /// Parses `NAME=COMMAND` (`--adapter`).
    fn from_str(s: &str) -> Result<AdapterSpec, String> {
        let (name, command) = s
            .split_once('=')
            .ok_or_else(|| "expected NAME=COMMAND".to_string())?;
        check_name(name)?;
        if command.trim().is_empty() {
            return Err("empty COMMAND".into());
        }
        Ok(AdapterSpec {
            name: name.to_string(),
            command: command.to_string(),
        })
    }
}

impl fmt::Display for AdapterSpec {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}={}", self.name, self.command)
    }
}

/// An implementation's name: letters, digits, `-`, `_` and `.`.
pub fn check_name(name: &str) -> Result<(), String> {
    if name.is_empty()
        || !name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.'))
    {
        return Err(format!(
            "bad name {name:?}: use letters, digits, '-', '_' and '.'"
        ));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_and_commands() {
        let a: AdapterSpec = "py=python3 x.py --a=b".parse().unwrap();
        assert_eq!(
            (a.name.as_str(), a.command.as_str()),
            ("py", "python3 x.py --a=b")
        );
        assert_eq!(a.to_string(), "py=python3 x.py --a=b");
        assert_eq!(
            "x".parse::<AdapterSpec>().unwrap_err(),
            "expected NAME=COMMAND"
        );
        assert!("a b=x"
            .parse::<AdapterSpec>()
            .unwrap_err()
            .contains("bad name"));
        assert!("=x".parse::<AdapterSpec>().is_err());
        assert_eq!("a=  ".parse::<AdapterSpec>().unwrap_err(), "empty COMMAND");
    }
}
