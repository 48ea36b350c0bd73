//! What the project's Markdown points at exists.
//!
//! Every Markdown file of the workspace (not under `target/`, `node_modules/` or `.git/`)
//! is read outside its fenced code blocks, and two kinds of mention are checked:
//!
//! * a relative link, `[text](path)`, `[text](path#anchor)` or `[name]: path`, must name
//!   a file or directory that exists relative to the Markdown file (as GitHub resolves
//!   it), and a link into this repository's main branch,
//!   `https://github.com/OWNER/REPO/blob/main/path` (the `repository` of the root
//!   `Cargo.toml`), one relative to the root; its `#anchor`, when the target is a Markdown
//!   file, must be one of that file's headings (GitHub's slugs);
//! * a path in backticks, `` `conformance/literal/src/utf8.rs` `` (a `/` and a file
//!   extension, or a trailing `/`), must name a file or directory of the tree: relative to
//!   the Markdown file, to one of its parent directories (a crate's README names
//!   `src/lib.rs`), or as the tail of a path in the tree (`fast/x86/avx2.rs` in a text
//!   about `codec/src/corrected/`). A `:line` after it is ignored. Paths under `target/`
//!   are made by builds and not checked, nor are absolute ones (`/dev/null`).
//!
//! What git ignores (`git ls-files --others --ignored --exclude-standard --directory`:
//! `conformance/adapters/matrix/build/`, `__pycache__/`, ...) is not part of the tree:
//! it is neither read nor counts as existing, so the verdict is the same before and after
//! a build (a clean clone has none of it).
//!
//! A path that is hypothetical on purpose (a file a user creates) is listed in
//! [`HYPOTHETICAL`] with its reason; an entry that no Markdown file mentions any more,
//! or that exists, fails too.
//!
//! The README of a crate that is published (no `publish = false`) is also shown by
//! crates.io and docs.rs, where a relative link leads nowhere: it has none (links into
//! the repository are absolute, `https://github.com/OWNER/REPO/blob/main/...`, which
//! `scripts/address.py` keeps on the workspace's `repository`).

use std::collections::{BTreeSet, HashMap};
use std::path::{Path, PathBuf};

/// Paths mentioned on purpose although they do not exist, each with the reason.
const HYPOTHETICAL: &[(&str, &str)] = &[
    (
        "DIR/NAME-ENCODING-OP.json",
        "the pattern of the files `conformance fuzz` writes: DIR, NAME, ENCODING and OP are placeholders",
    ),
    (
        "build/",
        "conformance/adapters/matrix/run.sh builds the matrix's programs into it (ignored by git)",
    ),
    (
        "projects/corrected-utf8/",
        "the folder of google/oss-fuzz's repository that the OSS-Fuzz files are submitted to",
    ),
];

/// Directories never read: build output, installed tools, git's own.
const SKIP_DIRS: &[&str] = &["target", "node_modules", ".git"];

/// `https://github.com/OWNER/REPO/blob/main/`: where links into this repository start.
fn blob_main(root: &Path) -> String {
    let manifest = std::fs::read_to_string(root.join("Cargo.toml")).unwrap();
    let repository = manifest
        .lines()
        .find_map(|l| l.strip_prefix("repository = \""))
        .and_then(|l| l.strip_suffix('"'))
        .expect("the root Cargo.toml has `repository = \"...\"`");
    format!("{repository}/blob/main/")
}

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("conformance/ has a parent")
        .to_path_buf()
}

/// What git ignores in the workspace (build output, caches), relative to its root,
/// `/`-separated, without a directory's trailing `/`; asked once. Outside a git checkout
/// (a packaged crate, where no build has left anything behind) nothing.
fn ignored(root: &Path) -> &'static BTreeSet<String> {
    static IGNORED: std::sync::OnceLock<BTreeSet<String>> = std::sync::OnceLock::new();
    IGNORED.get_or_init(|| {
        let out = std::process::Command::new("git")
            .args([
                "ls-files",
                "-z",
                "--others",
                "--ignored",
                "--exclude-standard",
                "--directory",
            ])
            .current_dir(root)
            .output();
        match out {
            Ok(out) if out.status.success() => out
                .stdout
                .split(|&b| b == 0)
                .filter(|p| !p.is_empty())
                .map(|p| String::from_utf8_lossy(p).trim_end_matches('/').to_string())
                .collect(),
            _ => BTreeSet::new(),
        }
    })
}

/// Every file and directory of the tree, relative to `root`, `/`-separated: not what git
/// ignores (see [`ignored`]).
fn tree(root: &Path) -> BTreeSet<String> {
    let ignored = ignored(root);
    let mut out = BTreeSet::new();
    let mut stack = vec![PathBuf::new()];
    while let Some(rel) = stack.pop() {
        let dir = root.join(&rel);
        let entries = std::fs::read_dir(&dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display()));
        for entry in entries {
            let entry = entry.unwrap();
            let name = entry.file_name().to_string_lossy().into_owned();
            let path = rel.join(&name);
            let key = path.to_string_lossy().replace('\\', "/");
            if ignored.contains(&key) {
                continue;
            }
            let kind = entry.file_type().unwrap();
            if kind.is_dir() {
                if SKIP_DIRS.contains(&name.as_str()) {
                    continue;
                }
                stack.push(path.clone());
            }
            out.insert(key);
        }
    }
    out
}

/// One mention found in a Markdown file.
#[derive(Debug, PartialEq)]
enum Mention {
    /// A link's target as written (`../docs/x.md#anchor`).
    Link(String),
    /// A path in backticks as written.
    Code(String),
}

/// The mentions of `text` with their 1-based line numbers, outside fenced code blocks.
fn mentions(text: &str) -> Vec<(usize, Mention)> {
    let mut out = Vec::new();
    let mut fence: Option<String> = None;
    for (i, line) in text.lines().enumerate() {
        let trimmed = line.trim_start();
        if let Some(open) = &fence {
            if trimmed.starts_with(open.as_str())
                && trimmed
                    .trim_end()
                    .chars()
                    .all(|c| c == open.chars().next().unwrap())
            {
                fence = None;
            }
            continue;
        }
        for marker in ["```", "~~~"] {
            if trimmed.starts_with(marker) {
                let run: String = trimmed
                    .chars()
                    .take_while(|&c| c == marker.chars().next().unwrap())
                    .collect();
                fence = Some(run);
            }
        }
        if fence.is_some() {
            continue;
        }
        // Code spans first; links are searched in what is left (a link inside a code
        // span is not a link).
        let mut rest = String::with_capacity(line.len());
        let mut chars = line.char_indices().peekable();
        while let Some((at, c)) = chars.next() {
            if c != '`' {
                rest.push(c);
                continue;
            }
            let mut ticks = 1;
            while chars.peek().map(|&(_, c)| c) == Some('`') {
                chars.next();
                ticks += 1;
            }
            let open = at + ticks;
            let closer = "`".repeat(ticks);
            match line[open..].find(&closer) {
                Some(len) => {
                    out.push((
                        i + 1,
                        Mention::Code(line[open..open + len].trim().to_string()),
                    ));
                    // Skip the span and its closing backticks.
                    let end = open + len + ticks;
                    while chars.peek().is_some_and(|&(j, _)| j < end) {
                        chars.next();
                    }
                    rest.push(' ');
                }
                None => rest.push_str(&closer),
            }
        }
        let mut from = 0;
        while let Some(at) = rest[from..].find("](") {
            let start = from + at + 2;
            let Some(len) = rest[start..].find(')') else {
                break;
            };
            let target = rest[start..start + len].trim();
            let target = target.split_whitespace().next().unwrap_or("");
            let target = target.trim_start_matches('<').trim_end_matches('>');
            out.push((i + 1, Mention::Link(target.to_string())));
            from = start + len;
        }
        // A reference definition: `[name]: target`.
        if let Some(def) = rest.trim_start().strip_prefix('[') {
            if let Some((_, target)) = def.split_once("]:") {
                if let Some(target) = target.split_whitespace().next() {
                    out.push((i + 1, Mention::Link(target.to_string())));
                }
            }
        }
    }
    out
}

/// Whether a link target leaves the repository (a URL, `mailto:`): not checked.
fn is_external(target: &str) -> bool {
    target.contains("://")
        || target.starts_with("mailto:")
        || target.starts_with("//")
        || target.is_empty()
}

/// The path a code span names, if it looks like one: a `/`, no spaces or pattern
/// characters, and a file extension or a trailing `/`. `:line` and `#anchor` are cut off.
fn code_path(span: &str) -> Option<&str> {
    if span.is_empty()
        || span.contains("://")
        || span.contains("::")
        || span.starts_with(['/', '~', '-', '$', '.'])
            && !span.starts_with("./")
            && !span.starts_with("../")
            && !span.starts_with(".cargo/")
            && !span.starts_with(".ci/")
            && !span.starts_with(".github/")
            && !span.starts_with(".clusterfuzzlite/")
            && !span.starts_with(".gitignore")
    {
        return None;
    }
    if span
        .chars()
        .any(|c| c.is_whitespace() || "*?<>{}[]$…|,;=()'\"\\@%!&+".contains(c))
    {
        return None;
    }
    let path = span.split(['#', ':']).next()?;
    if !path.contains('/') {
        return None;
    }
    // `github.com/...`, `docs.rs/...`: a host, not a path of the tree.
    let first = path.split('/').next()?;
    if first.contains('.') && !first.starts_with('.') {
        return None;
    }
    // Build output (`target/`, `rust/target/`) exists only after a build.
    if path.split('/').any(|c| c == "target") {
        return None;
    }
    if path.ends_with('/') {
        return Some(path);
    }
    let last = path.rsplit('/').next()?;
    let (stem, ext) = last.rsplit_once('.')?;
    let file_like = !stem.is_empty()
        && (1..=6).contains(&ext.len())
        && ext.chars().all(|c| c.is_ascii_alphanumeric())
        && ext.chars().any(|c| c.is_ascii_alphabetic());
    file_like.then_some(path)
}

/// GitHub's anchor of a heading: lowercase; letters, digits, `-` and `_` kept; spaces
/// become `-`; everything else dropped.
fn slug(heading: &str) -> String {
    heading
        .trim()
        .to_lowercase()
        .chars()
        .filter_map(|c| match c {
            ' ' => Some('-'),
            c if c.is_alphanumeric() || c == '-' || c == '_' => Some(c),
            _ => None,
        })
        .collect()
}

/// The anchors of a Markdown file's headings (duplicates get `-1`, `-2`, …), and of any
/// explicit `<a id="…">` / `<a name="…">`.
fn anchors(text: &str) -> BTreeSet<String> {
    let mut seen: HashMap<String, usize> = HashMap::new();
    let mut out = BTreeSet::new();
    let mut in_fence = false;
    for line in text.lines() {
        let trimmed = line.trim_start();
        if trimmed.starts_with("```") || trimmed.starts_with("~~~") {
            in_fence = !in_fence;
            continue;
        }
        if in_fence {
            continue;
        }
        for attr in ["id=\"", "name=\""] {
            let mut rest = line;
            while let Some(at) = rest.find(attr) {
                rest = &rest[at + attr.len()..];
                if let Some(end) = rest.find('"') {
                    out.insert(rest[..end].to_string());
                }
            }
        }
        let hashes = trimmed.chars().take_while(|&c| c == '#').count();
        if !(1..=6).contains(&hashes) || !trimmed[hashes..].starts_with(' ') {
            continue;
        }
        // Inline markup is dropped from the anchor, its text kept.
        let text: String = trimmed[hashes..]
            .trim()
            .trim_end_matches('#')
            .chars()
            .filter(|&c| c != '`' && c != '*')
            .collect();
        let text = strip_links(&text);
        let base = slug(&text);
        let n = seen.entry(base.clone()).or_insert(0);
        out.insert(if *n == 0 {
            base.clone()
        } else {
            format!("{base}-{n}")
        });
        *n += 1;
    }
    out
}

/// `[text](target)` → `text`.
fn strip_links(s: &str) -> String {
    let mut out = String::new();
    let mut rest = s;
    while let Some(open) = rest.find('[') {
        let Some(mid) = rest[open..].find("](") else {
            break;
        };
        let Some(close) = rest[open + mid..].find(')') else {
            break;
        };
        out.push_str(&rest[..open]);
        out.push_str(&rest[open + 1..open + mid]);
        rest = &rest[open + mid + close + 1..];
    }
    out.push_str(rest);
    out
}

/// Whether `rel` (relative to `root`, perhaps with `.` and `..`) exists and is not in
/// something git ignores (the prefixes of its path, once `.` and `..` are resolved).
fn present(root: &Path, rel: &Path) -> bool {
    if !root.join(rel).exists() {
        return false;
    }
    let ignored = ignored(root);
    let mut parts: Vec<String> = Vec::new();
    for part in rel.components() {
        match part {
            std::path::Component::CurDir => {}
            std::path::Component::ParentDir => {
                // Above the root: not the workspace's, nothing of it is ignored.
                if parts.pop().is_none() {
                    return true;
                }
            }
            std::path::Component::Normal(p) => parts.push(p.to_string_lossy().into_owned()),
            _ => return true,
        }
    }
    !(1..=parts.len()).any(|n| ignored.contains(&parts[..n].join("/")))
}

/// Whether `path` (a code span's path) names something of the tree, seen from `dir`.
fn code_path_exists(root: &Path, tree: &BTreeSet<String>, dir: &Path, path: &str) -> bool {
    let trimmed = path.trim_end_matches('/');
    let mut base = Some(dir);
    while let Some(d) = base {
        if present(root, &d.join(trimmed)) {
            return true;
        }
        base = d.parent();
    }
    let trimmed = trimmed.trim_start_matches("./");
    let tail = format!("/{trimmed}");
    tree.iter().any(|p| p == trimmed || p.ends_with(&tail))
}

/// Every problem of the Markdown file `rel` (relative to `root`), as `file:line: what`.
fn check_file(root: &Path, tree: &BTreeSet<String>, rel: &str, text: &str) -> Vec<String> {
    let dir = Path::new(rel).parent().unwrap_or(Path::new(""));
    let blob_main = blob_main(root);
    let mut problems = Vec::new();
    for (line, mention) in mentions(text) {
        match mention {
            Mention::Link(written) => {
                // A link into this repository is one relative to its root.
                let (target, dir) = match written.strip_prefix(&blob_main) {
                    Some(path) => (path.to_string(), Path::new("")),
                    None => (written.clone(), dir),
                };
                if is_external(&target) {
                    continue;
                }
                let (path, anchor) = match target.split_once('#') {
                    Some((p, a)) => (p, Some(a)),
                    None => (target.as_str(), None),
                };
                // An anchor alone points into this file.
                let linked = dir.join(path.replace("%20", " "));
                let file = if path.is_empty() {
                    root.join(rel)
                } else {
                    root.join(&linked)
                };
                if !path.is_empty() && !present(root, &linked) {
                    problems.push(format!(
                        "{rel}:{line}: link `{written}`: no such file or directory"
                    ));
                    continue;
                }
                if let Some(anchor) = anchor {
                    if path.is_empty() || file.extension().is_some_and(|e| e == "md") {
                        let target_text = if path.is_empty() {
                            text.to_string()
                        } else {
                            std::fs::read_to_string(&file).unwrap()
                        };
                        if !anchors(&target_text).contains(anchor) {
                            problems.push(format!(
                                "{rel}:{line}: link `{written}`: no heading with the anchor #{anchor}"
                            ));
                        }
                    }
                }
            }
            Mention::Code(span) => {
                let Some(path) = code_path(&span) else {
                    continue;
                };
                if HYPOTHETICAL.iter().any(|(p, _)| *p == path) {
                    continue;
                }
                if !code_path_exists(root, tree, dir, path) {
                    problems.push(format!(
                        "{rel}:{line}: path `{span}`: no such file or directory"
                    ));
                }
            }
        }
    }
    problems
}

/// Every Markdown file of the tree.
fn markdown_files(tree: &BTreeSet<String>) -> Vec<&str> {
    tree.iter()
        .filter(|p| p.ends_with(".md"))
        .map(String::as_str)
        .collect()
}

#[test]
fn every_relative_link_and_mentioned_path_exists() {
    let root = root();
    let tree = tree(&root);
    let files = markdown_files(&tree);
    assert!(
        files.len() >= 20,
        "only {} Markdown files found under {}",
        files.len(),
        root.display()
    );
    let mut problems = Vec::new();
    let mut checked = 0;
    for rel in &files {
        let text = std::fs::read_to_string(root.join(rel)).unwrap();
        checked += mentions(&text).len();
        problems.extend(check_file(&root, &tree, rel, &text));
    }
    assert!(
        checked > 500,
        "only {checked} mentions found: is the scanner broken?"
    );
    assert!(
        problems.is_empty(),
        "{} broken mention(s) in the Markdown files (fix the text, or list a path that is \
         hypothetical on purpose in HYPOTHETICAL with its reason):\n  {}",
        problems.len(),
        problems.join("\n  ")
    );
}

#[test]
fn every_hypothetical_path_is_mentioned_and_absent() {
    let root = root();
    let tree = tree(&root);
    let mut mentioned = BTreeSet::new();
    for rel in markdown_files(&tree) {
        let text = std::fs::read_to_string(root.join(rel)).unwrap();
        for (_, mention) in mentions(&text) {
            if let Mention::Code(span) = mention {
                if let Some(path) = code_path(&span) {
                    mentioned.insert(path.to_string());
                }
            }
        }
    }
    for (path, reason) in HYPOTHETICAL {
        assert!(!reason.is_empty(), "HYPOTHETICAL `{path}` has no reason");
        assert!(
            mentioned.contains(*path),
            "HYPOTHETICAL `{path}` is no longer mentioned: remove it"
        );
        assert!(
            !code_path_exists(&root, &tree, Path::new(""), path),
            "HYPOTHETICAL `{path}` exists now: remove it from the list"
        );
    }
}

#[test]
fn published_readmes_have_no_relative_links() {
    let root = root();
    let manifest = std::fs::read_to_string(root.join("Cargo.toml")).unwrap();
    let members = manifest
        .split("members")
        .nth(1)
        .and_then(|s| s.split(']').next())
        .expect("the root Cargo.toml lists its members");
    let mut published = 0;
    for member in members.split('"').skip(1).step_by(2) {
        let crate_manifest = std::fs::read_to_string(root.join(member).join("Cargo.toml")).unwrap();
        if crate_manifest
            .lines()
            .any(|l| l.replace(' ', "") == "publish=false")
        {
            continue;
        }
        published += 1;
        let readme = root.join(member).join("README.md");
        let Ok(text) = std::fs::read_to_string(&readme) else {
            continue;
        };
        let relative: Vec<String> = mentions(&text)
            .into_iter()
            .filter_map(|(line, m)| match m {
                Mention::Link(t) if !is_external(&t) && !t.starts_with('#') => {
                    Some(format!("{member}/README.md:{line}: `{t}`"))
                }
                _ => None,
            })
            .collect();
        assert!(
            relative.is_empty(),
            "{member} is published, and crates.io and docs.rs show its README away from the \
             repository, where these relative links lead nowhere; write them as \
             https://github.com/OWNER/REPO/blob/main/<path> (scripts/address.py keeps the \
             address):\n  {}",
            relative.join("\n  ")
        );
    }
    assert!(published >= 1, "no published crate found among {members}");
}

/// The checker itself: each kind of broken mention is reported, the good ones are not.
#[test]
fn the_checker_reports_broken_links_and_paths() {
    let root = root();
    let tree = tree(&root);
    let text = "\
# Title

## A `code` heading: with [a link](docs/report.md)

See [the semantics](docs/semantics.md), [its §2.4a](docs/semantics.md#24a-reserved-sequences-not-errors)
and [gone](docs/no-such-file.md), [a bad anchor](docs/semantics.md#no-such-heading),
[here](#a-code-heading-with-a-link), [the web](https://example.org/x.md).
The code is in `conformance/literal/src/utf8.rs:12`, once `conformance/src/literal/utf8.rs`;
a tail `fast/x86/avx2.rs`, a directory `conformance/literal/src/`, a gone one `conformance/src/literal/`,
`cargo run -p conformance`, `vectors/*/*.json`, `OWNER/REPO`, `target/debug/conformance`.
[ref]: docs/missing.md
[absolute](https://github.com/OWNER/REPO/blob/main/docs/semantics.md#25-streams), [gone](https://github.com/OWNER/REPO/blob/main/docs/gone.md)

```sh
cat not/a/checked/path.rs
```
";
    let problems = check_file(&root, &tree, "README.md", text);
    let lines: Vec<&str> = problems
        .iter()
        .map(|p| p.split(": ").nth(1).unwrap())
        .collect();
    assert_eq!(
        lines,
        [
            "link `docs/no-such-file.md`",
            "link `docs/semantics.md#no-such-heading`",
            "path `conformance/src/literal/utf8.rs`",
            "path `conformance/src/literal/`",
            "link `docs/missing.md`",
            "link `https://github.com/OWNER/REPO/blob/main/docs/gone.md`",
        ],
        "{problems:#?}"
    );
}

#[test]
fn what_git_ignores_is_neither_read_nor_found() {
    let root = root();
    let tree = tree(&root);
    // In a checkout git ignores at least the matrix's build output: `tree` must not hold
    // it, whether a build made it or not (the verdict may not depend on a build).
    if root.join(".git").exists() {
        let ignored = ignored(&root);
        assert!(
            ignored.contains("conformance/adapters/matrix/build")
                || !root.join("conformance/adapters/matrix/build").exists(),
            "git does not report conformance/adapters/matrix/build/ as ignored: {ignored:?}"
        );
    }
    assert!(!tree
        .iter()
        .any(|p| p.starts_with("conformance/adapters/matrix/build")));
    let text = "[the matrix's programs](conformance/adapters/matrix/build/) and \
                `conformance/adapters/matrix/build/java/CharsetDecoderAdapter.class`.\n";
    let problems = check_file(&root, &tree, "README.md", text);
    assert_eq!(problems.len(), 2, "{problems:#?}");
}
