//! What `exhaustive --resume FILE` keeps, and what is checked before a checkpoint is
//! believed.
//!
//! A checkpoint is a claim: "these units were walked and passed". It is believed only as
//! far as it can be checked:
//!
//! * **Read safely**: a regular file of at most 64 MiB ([`crate::files`]: a FIFO or
//!   `/dev/zero` is refused before a byte is read); malformed JSON is an error with the
//!   file, line and column.
//! * **Whole**: it carries a SHA-256 checksum of its own content ([`checksum`]), so a
//!   file damaged or edited by hand (more units claimed done) is refused. The checksum is
//!   not a signature: someone who recomputes it can forge a claim, which the next two
//!   checks are for.
//! * **The same implementation**: it records what identifies the implementation it was
//!   made with (for an adapter, its name, command and answer to the hello; for the
//!   reference codec, its name and the version of `conformance`), and a
//!   [`Fingerprint`] of the implementation's answers to a fixed set of probes, asked
//!   again at resume. Another implementation behind the same command answers them
//!   differently and the checkpoint is refused.
//! * **The same walk**: the walk's parameters (lengths, shard, targets, encodings).
//! * **Re-checked on a sample**: at resume a random sample of the inputs it records as
//!   done is checked again; one that fails means the checkpoint is not believed.
//!
//! What a checkpoint that passes all this proves: the units it lists passed against an
//! implementation that gives the same answers to the probes and to the sample, with the
//! same parameters. Not more: an implementation that changed only on inputs outside the
//! probes and the sample is not caught, so a release is best gated on a run that walked
//! everything itself (the report says how many inputs this run checked).

use crate::files::{read_text_capped, write_atomic, InputErrorKind, MAX_STATE_FILE};
use serde::de::DeserializeOwned;
use serde::Serialize;
use serde_json::{Map, Value};
use sha2::{Digest, Sha256};
use std::path::Path;

/// The key of the checksum in a checkpoint.
const CHECKSUM: &str = "checksum";

/// `sha256:` and the hex SHA-256 of `bytes`.
fn sha256_hex(bytes: &[u8]) -> String {
    let digest = Sha256::digest(bytes);
    let hex: String = digest.iter().map(|b| format!("{b:02x}")).collect();
    format!("sha256:{hex}")
}

/// The checksum of a checkpoint: the SHA-256 of its compact JSON without the checksum
/// key (keys in file order).
pub fn checksum(object: &Map<String, Value>) -> String {
    let mut o = object.clone();
    o.shift_remove(CHECKSUM);
    let text = serde_json::to_string(&Value::Object(o)).unwrap_or_default();
    sha256_hex(text.as_bytes())
}

/// `FILE:LINE:COLUMN: message` for a JSON error.
fn json_error(path: &Path, e: &serde_json::Error) -> String {
    let text = e.to_string();
    // serde_json appends " at line L column C": given in front instead.
    let message = text
        .rsplit_once(" at line ")
        .map_or(text.as_str(), |(m, _)| m);
    format!("{}:{}:{}: {message}", path.display(), e.line(), e.column())
}

/// Reads the checkpoint at `path` as `T`, after checking that it is a regular file of at
/// most 64 MiB, well-formed JSON (errors give line:column), of `format`, and whole (its
/// checksum holds). `None` when there is no file yet.
pub fn read<T: DeserializeOwned>(path: &Path, format: &str) -> Result<Option<T>, String> {
    let text = match read_text_capped(path, MAX_STATE_FILE) {
        Ok(t) => t,
        Err(e) => match &e.kind {
            InputErrorKind::Io(io) if io.kind() == std::io::ErrorKind::NotFound => return Ok(None),
            _ => return Err(format!("checkpoint {e}")),
        },
    };
    let value: Value = serde_json::from_str(&text).map_err(|e| json_error(path, &e))?;
    let Value::Object(object) = value else {
        return Err(format!(
            "{}:1:1: a checkpoint is a JSON object",
            path.display()
        ));
    };
    let found = object.get("format").and_then(Value::as_str).unwrap_or("");
    if found != format {
        return Err(format!(
            "{}: a checkpoint of format {found:?}, and this conformance reads {format:?} (made by \
             another version, or not a checkpoint): delete it to start over",
            path.display()
        ));
    }
    let recorded = object.get(CHECKSUM).and_then(Value::as_str).unwrap_or("");
    if recorded != checksum(&object) {
        return Err(format!(
            "{}: its checksum does not match its content: the checkpoint was edited or \
             damaged, and is not believed (delete it to start over)",
            path.display()
        ));
    }
    // Parsed again as the typed checkpoint, so that a wrong field has its line:column.
    serde_json::from_str(&text)
        .map(Some)
        .map_err(|e| json_error(path, &e))
}

/// Writes `checkpoint` to `path` with its checksum (atomically: a run killed mid-write
/// leaves the last checkpoint whole).
pub fn write<T: Serialize>(path: &Path, checkpoint: &T) -> Result<(), String> {
    let cannot = |e: &dyn std::fmt::Display| format!("cannot write {}: {e}", path.display());
    let Value::Object(mut object) = serde_json::to_value(checkpoint).map_err(|e| cannot(&e))?
    else {
        return Err(cannot(&"not an object"));
    };
    object.shift_remove(CHECKSUM);
    let sum = checksum(&object);
    object.insert(CHECKSUM.into(), Value::String(sum));
    let text = serde_json::to_string_pretty(&Value::Object(object)).map_err(|e| cannot(&e))?;
    write_atomic(path, (text + "\n").as_bytes()).map_err(|e| cannot(&e))
}

/// Done units as inclusive index ranges.
pub fn ranges(done: &[bool]) -> Vec<[u64; 2]> {
    let mut out: Vec<[u64; 2]> = Vec::new();
    for (i, _) in done.iter().enumerate().filter(|(_, d)| **d) {
        let i = i as u64;
        match out.last_mut() {
            Some(r) if r[1] + 1 == i => r[1] = i,
            _ => out.push([i, i]),
        }
    }
    out
}

/// Marks the units of `ranges` done in `done`; a range that is reversed or reaches past
/// the last unit is an error.
pub fn mark_done(path: &Path, ranges: &[[u64; 2]], done: &mut [bool]) -> Result<(), String> {
    for &[a, b] in ranges {
        if a > b || b >= done.len() as u64 {
            return Err(format!(
                "{}: done range [{a}, {b}] is not within the {} units of this walk",
                path.display(),
                done.len()
            ));
        }
        done[a as usize..=b as usize].fill(true);
    }
    Ok(())
}

/// Field by field, what differs between a checkpoint's parameters and this run's:
/// `its KEY is A, this run's is B`.
pub fn differences(recorded: &Value, now: &Value) -> Vec<String> {
    let (Some(r), Some(n)) = (recorded.as_object(), now.as_object()) else {
        return vec![format!(
            "its parameters are {recorded}, this run's are {now}"
        )];
    };
    n.iter()
        .filter(|(k, v)| r.get(*k) != Some(*v))
        .map(|(k, v)| {
            format!(
                "its {k} is {}, this run's is {v}",
                r.get(k).unwrap_or(&Value::Null)
            )
        })
        .collect()
}

/// A fingerprint of an implementation's answers: the SHA-256 of each answer in turn,
/// each prefixed by its length.
#[derive(Default)]
pub struct Fingerprint {
    hasher: Sha256,
    answers: u64,
}

/// What a checkpoint records of the answers to the probes.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Probed {
    /// How many answers.
    pub answers: u64,
    /// Their [`Fingerprint`].
    pub sha256: String,
}

impl Fingerprint {
    /// Adds one answer.
    pub fn add(&mut self, answer: &str) {
        self.hasher.update((answer.len() as u64).to_le_bytes());
        self.hasher.update(answer.as_bytes());
        self.answers += 1;
    }

    /// The count and the hash.
    pub fn finish(self) -> Probed {
        let digest = self.hasher.finalize();
        Probed {
            answers: self.answers,
            sha256: digest.iter().map(|b| format!("{b:02x}")).collect(),
        }
    }
}

/// A seed for the sample re-checked at resume, from the clock: a checkpoint cannot be
/// made to pass a sample chosen in advance.
pub fn sample_seed() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0x5EED, |d| d.as_nanos() as u64)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn the_checksum_covers_every_key_but_itself() {
        let a = json!({"format": "x", "done": [[0, 3]]});
        let a = a.as_object().unwrap();
        let mut b = a.clone();
        b.insert(CHECKSUM.into(), json!("anything"));
        assert_eq!(checksum(a), checksum(&b));
        let mut c = a.clone();
        c.insert("done".into(), json!([[0, 4]]));
        assert_ne!(checksum(a), checksum(&c));
        assert!(checksum(a).starts_with("sha256:") && checksum(a).len() == 7 + 64);
    }

    /// A checkpoint holds times in seconds as floats: each must read back exactly, or
    /// the checksum of a sound checkpoint fails (1 in about 1 000 did, before
    /// `float_roundtrip`).
    #[test]
    fn a_checkpoint_with_any_float_reads_back_whole() {
        let dir = std::env::temp_dir().join(format!("conformance-ck-float-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let file = dir.join("ck.json");
        let mut x: u64 = 0x1234_5678_9ABC_DEF1;
        for seconds in [114.61689784000001, 28.605132910000002]
            .into_iter()
            .chain((0..2_000).map(|_| {
                x ^= x << 13;
                x ^= x >> 7;
                x ^= x << 17;
                std::time::Duration::from_nanos(x % 1_000_000_000_000).as_secs_f64()
            }))
        {
            write(&file, &json!({"format": "f", "elapsedSeconds": seconds})).unwrap();
            let back: Value = read(&file, "f")
                .unwrap_or_else(|e| panic!("{seconds}: {e}"))
                .unwrap();
            assert_eq!(back["elapsedSeconds"].as_f64(), Some(seconds));
        }
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn ranges_round_trip() {
        let done = [true, true, false, true, false, false, true, true, true];
        let r = ranges(&done);
        assert_eq!(r, [[0, 1], [3, 3], [6, 8]]);
        let mut back = [false; 9];
        mark_done(Path::new("c"), &r, &mut back).unwrap();
        assert_eq!(back, done);
        let e = mark_done(Path::new("c"), &[[3, 9]], &mut back).unwrap_err();
        assert!(e.contains("[3, 9] is not within the 9 units"), "{e}");
        assert!(mark_done(Path::new("c"), &[[4, 3]], &mut back).is_err());
    }

    #[test]
    fn json_errors_give_line_and_column() {
        let e = serde_json::from_str::<Value>("{\n  \"a\": 1,\n}").unwrap_err();
        assert_eq!(
            json_error(Path::new("c.json"), &e),
            "c.json:3:1: trailing comma"
        );
    }
}
