//! Adapters written as small `sh` scripts: a loop that reads each request line, takes
//! its id into `$id`, and answers with the `case` arms a test gives (`hello)` for the
//! handshake, `*#2)` for case #2 of a file, `*)` for the rest).

/// The hello arm of an adapter declaring `valid` for UTF-8 decode (protocol 2).
pub const HELLO_VALID: &str = r#"hello) echo '{"id":"hello","protocol":2,"name":"t","supports":[{"encoding":"utf-8","op":"decode","fields":["valid"]}]}';;"#;

/// The hello arm of a protocol-1 adapter (it declares nothing).
pub const HELLO_P1: &str = r#"hello) echo '{"id":"hello","unsupported":true}';;"#;

/// The right `valid` for [`super::fixtures::decode_file`]'s cases: odd tcIds are valid,
/// even ones not.
pub const RIGHT: &str = r#"*[13579]) echo "{\"id\":\"$id\",\"valid\":true}";;
  *) echo "{\"id\":\"$id\",\"valid\":false}";;"#;

/// An arm's body answering `valid: true`.
pub const VALID: &str = r#"echo "{\"id\":\"$id\",\"valid\":true}";;"#;

/// An arm's body answering `valid: false`.
pub const INVALID: &str = r#"echo "{\"id\":\"$id\",\"valid\":false}";;"#;

/// The adapter script answering with `arms` (the branches of a `case "$id" in`).
pub fn script(arms: &str) -> String {
    format!(
        "while IFS= read -r line; do\n  id=${{line#*\\\"id\\\":\\\"}}; id=${{id%%\\\"*}}\n  case \"$id\" in\n  {arms}\n  esac\ndone\n"
    )
}
