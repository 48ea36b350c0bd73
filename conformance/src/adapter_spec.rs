//! `--adapter NAME=COMMAND`: how `run`, `exhaustive` and `fuzz` name an external
//! implementation.

/// Parses `NAME=COMMAND` (`--adapter`).
pub fn parse_adapter(s: &str) -> Result<(String, String), String> {
    let (name, command) = s
        .split_once('=')
        .ok_or_else(|| "expected NAME=COMMAND".to_string())?;
    if name.is_empty()
        || !name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.'))
    {
        return Err(format!(
            "bad name {name:?}: use letters, digits, '-', '_' and '.'"
        ));
    }
    if command.trim().is_empty() {
        return Err("empty COMMAND".into());
    }
    Ok((name.to_string(), command.to_string()))
}
