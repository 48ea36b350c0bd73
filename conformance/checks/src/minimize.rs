//! Delta debugging (ddmin, Zeller and Hildebrandt 2002) over bytes, then a pass that
//! removes single bytes and whole sequences until none can go: the smallest input, made
//! of bytes of the original in their order, that still fails.
//!
//! The predicate is asked about several candidates at once (a whole round), so that an
//! implementation behind a pipe can answer them in one batch. [`minimize`]'s result is
//! 1-minimal: removing any single byte, or any whole sequence (a lead byte and the
//! continuation bytes after it), makes it pass. ddmin alone is not: once it works on
//! pieces smaller than half it never tries halves again, and it cuts at even positions,
//! not at sequence boundaries (`F5 8F BF BF DF 94` keeps its `DF 94`: neither byte can go
//! alone, only both).
//!
//! A predicate that runs out of time answers fewer verdicts than it was asked: the search
//! stops there with the smallest failing input found so far.

/// ddmin alone: reduces `input` to a smaller one for which `still_fails` holds; `input`
/// itself is assumed to fail. `still_fails` gets candidates and returns one verdict per
/// candidate (true: it still fails in the same way), in order; fewer verdicts than
/// candidates (out of time) end the search. Candidates are never empty. See [`minimize`]
/// for a 1-minimal result.
///
/// ```
/// use conformance_checks::minimize::ddmin;
/// // Fails while it holds a 0xC2 somewhere before a 0x41.
/// let fails = |b: &[u8]| {
///     b.iter().position(|&x| x == 0xC2).is_some_and(|i| b[i..].contains(&0x41))
/// };
/// let small = ddmin(b"xx\xC2yy\x41zz", |cands| cands.iter().map(|c| fails(c)).collect());
/// assert_eq!(small, b"\xC2\x41");
/// ```
pub fn ddmin(input: &[u8], mut still_fails: impl FnMut(&[Vec<u8>]) -> Vec<bool>) -> Vec<u8> {
    let mut current = input.to_vec();
    let mut n = 2usize;
    while current.len() >= 2 {
        let chunks = split(current.len(), n);
        let subsets: Vec<Vec<u8>> = chunks.iter().map(|r| current[r.clone()].to_vec()).collect();
        // With two chunks each complement is the other subset: ask once.
        let complements: Vec<Vec<u8>> = if n == 2 {
            Vec::new()
        } else {
            chunks
                .iter()
                .map(|r| {
                    let mut c = current[..r.start].to_vec();
                    c.extend_from_slice(&current[r.end..]);
                    c
                })
                .collect()
        };
        let mut candidates = subsets.clone();
        candidates.extend(complements.iter().cloned());
        let verdicts = still_fails(&candidates);
        let first = |from: usize, to: usize| (from..to).find(|&i| verdicts.get(i) == Some(&true));
        if let Some(i) = first(0, subsets.len()) {
            current = candidates.swap_remove(i);
            n = 2;
        } else if let Some(i) = first(subsets.len(), candidates.len()) {
            current = candidates.swap_remove(i);
            n = (n - 1).max(2);
        } else if verdicts.len() < candidates.len() {
            // Out of time: what is known to fail is all there is.
            break;
        } else if n < current.len() {
            n = (2 * n).min(current.len());
        } else {
            break;
        }
    }
    current
}

/// Reduces `input` as [`ddmin`] does, then removes single bytes and whole sequences (a
/// lead byte and the continuation bytes `80..=BF` after it) while any can go, the most
/// bytes first: the result is 1-minimal for both. `still_fails` is asked as in [`ddmin`];
/// fewer verdicts than candidates (out of time) end the search with the smallest failing
/// input found so far.
///
/// ```
/// use conformance_checks::minimize::minimize;
/// // Fails while it starts with F5 8F BF BF and every byte after that is part of a
/// // complete 2-byte sequence: neither DF nor 94 can go alone, only both.
/// let fails = |b: &[u8]| {
///     b.starts_with(b"\xF5\x8F\xBF\xBF")
///         && b[4..].chunks(2).all(|c| c.len() == 2 && (0xC2..=0xDF).contains(&c[0])
///             && (0x80..=0xBF).contains(&c[1]))
/// };
/// let small = minimize(b"\xF5\x8F\xBF\xBF\xDF\x94", |c| c.iter().map(|c| fails(c)).collect());
/// assert_eq!(small, b"\xF5\x8F\xBF\xBF");
/// ```
pub fn minimize(input: &[u8], mut still_fails: impl FnMut(&[Vec<u8>]) -> Vec<bool>) -> Vec<u8> {
    let mut current = ddmin(input, &mut still_fails);
    loop {
        let candidates = removals(&current);
        if candidates.is_empty() {
            break;
        }
        let verdicts = still_fails(&candidates);
        // The shortest candidate that still fails: the most bytes gone in one step.
        let best = candidates
            .into_iter()
            .zip(verdicts)
            .filter(|(_, fails)| *fails)
            .map(|(c, _)| c)
            .min_by_key(Vec::len);
        match best {
            Some(c) => current = c,
            None => break,
        }
    }
    current
}

/// Whether `b` continues a sequence (`10xxxxxx`).
fn is_continuation(b: u8) -> bool {
    b & 0xC0 == 0x80
}

/// `input` less one whole sequence of two or more bytes, for each; then less one byte,
/// for each; duplicates and empty candidates left out.
fn removals(input: &[u8]) -> Vec<Vec<u8>> {
    let without = |r: std::ops::Range<usize>| {
        let mut c = input[..r.start].to_vec();
        c.extend_from_slice(&input[r.end..]);
        c
    };
    let mut spans = Vec::new();
    let mut start = 0;
    for i in 1..=input.len() {
        if i == input.len() || !is_continuation(input[i]) {
            if i - start >= 2 {
                spans.push(start..i);
            }
            start = i;
        }
    }
    spans.extend((0..input.len()).map(|i| i..i + 1));
    let mut seen = std::collections::HashSet::new();
    spans
        .into_iter()
        .map(without)
        .filter(|c| !c.is_empty() && seen.insert(c.clone()))
        .collect()
}

/// `len` bytes in `n` chunks of nearly equal length (the first ones one longer).
fn split(len: usize, n: usize) -> Vec<std::ops::Range<usize>> {
    let n = n.min(len).max(1);
    let (q, r) = (len / n, len % n);
    let mut start = 0;
    (0..n)
        .map(|i| {
            let end = start + q + usize::from(i < r);
            let range = start..end;
            start = end;
            range
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn min_with(input: &[u8], fails: impl Fn(&[u8]) -> bool) -> (Vec<u8>, usize) {
        let mut asked = 0;
        let out = ddmin(input, |c| {
            asked += c.len();
            c.iter().map(|c| fails(c)).collect()
        });
        (out, asked)
    }

    #[test]
    fn finds_a_one_minimal_input() {
        // Fails when it holds FE and, later, 80.
        let fails = |b: &[u8]| {
            b.iter()
                .position(|&x| x == 0xFE)
                .is_some_and(|i| b[i..].contains(&0x80))
        };
        let input: Vec<u8> = (0..200u8)
            .map(|i| if i == 37 { 0xFE } else { i % 0x7F })
            .chain([1, 2, 0x80, 3])
            .collect();
        let (small, asked) = min_with(&input, fails);
        assert_eq!(small, [0xFE, 0x80]);
        assert!(asked < 400, "{asked} questions");
        // 1-minimal: no single byte can go.
        for i in 0..small.len() {
            let mut c = small.clone();
            c.remove(i);
            assert!(!fails(&c));
        }
    }

    #[test]
    fn keeps_an_input_that_cannot_shrink() {
        assert_eq!(min_with(b"ab", |b| b == b"ab").0, b"ab");
        assert_eq!(min_with(b"a", |_| true).0, b"a");
        // Everything fails: one byte is left.
        assert_eq!(min_with(b"abcdef", |_| true).0.len(), 1);
    }

    /// Whether `b` is made of `ED B0 80`, `C2 80` and `41` and holds an `ED B0 80`: an
    /// implementation that fails on a surrogate only when nothing else is wrong.
    fn lone_surrogates(b: &[u8]) -> bool {
        let (mut rest, mut any) = (b, false);
        while !rest.is_empty() {
            if let Some(r) = rest.strip_prefix(b"\xED\xB0\x80") {
                (rest, any) = (r, true);
            } else if let Some(r) = rest
                .strip_prefix(b"\xC2\x80")
                .or_else(|| rest.strip_prefix(b"A"))
            {
                rest = r;
            } else {
                return false;
            }
        }
        any
    }

    #[test]
    fn removes_whole_sequences_ddmin_cannot() {
        // ddmin halves ED B0 80 C2 80 ED B0 80 (neither half is well-formed), cuts
        // quarters, drops C2 80 and never halves again: ED B0 80 ED B0 80 is 1-minimal
        // for single bytes, not for whole sequences.
        let input = b"\xED\xB0\x80\xC2\x80\xED\xB0\x80";
        assert_eq!(
            min_with(input, lone_surrogates).0,
            b"\xED\xB0\x80\xED\xB0\x80"
        );
        let small = minimize(input, |c| c.iter().map(|c| lone_surrogates(c)).collect());
        assert_eq!(small, b"\xED\xB0\x80");
        // F5 8F BF BF then only complete 2-byte sequences: DF 94 goes only as a whole.
        let fails = |b: &[u8]| {
            b.starts_with(b"\xF5\x8F\xBF\xBF")
                && b[4..]
                    .chunks(2)
                    .all(|c| c.len() == 2 && (0xC2..=0xDF).contains(&c[0]) && is_continuation(c[1]))
        };
        let input = b"\xF5\x8F\xBF\xBF\xDF\x94";
        assert_eq!(min_with(input, fails).0, input);
        let small = minimize(input, |c| c.iter().map(|c| fails(c)).collect());
        assert_eq!(small, b"\xF5\x8F\xBF\xBF");
    }

    #[test]
    fn minimized_inputs_are_one_minimal() {
        // Random inputs of whole sequences and stray bytes, and predicates of several
        // shapes: well-formed with a surrogate, a lead then complete 2-byte sequences, a
        // sequence in order with anything between, a count of continuation bytes.
        let mut state = 0x9E37_79B9_7F4A_7C15u64;
        let mut next = move |n: usize| {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            (state % n as u64) as usize
        };
        let pieces: [&[u8]; 8] = [
            b"\xED\xB0\x80",
            b"\xC2\x80",
            b"A",
            b"\xDF\x94",
            b"\xF5\x8F\xBF\xBF",
            b"\x80",
            b"\xE0",
            b"\xFE",
        ];
        type Pred = fn(&[u8]) -> bool;
        let preds: [Pred; 4] = [
            lone_surrogates,
            |b| {
                b.len() >= 4
                    && b[0] >= 0xF5
                    && b[4..].chunks(2).all(|c| {
                        c.len() == 2 && (0xC2..=0xDF).contains(&c[0]) && is_continuation(c[1])
                    })
            },
            |b| {
                let mut it = b.iter();
                [0xED, 0xB0, 0x80].iter().all(|x| it.any(|y| y == x))
            },
            |b| b.iter().filter(|&&x| is_continuation(x)).count() >= 3 && b[0] >= 0xC2,
        ];
        let mut checked = [0usize; 4];
        for round in 0..4000 {
            let p = round % preds.len();
            let fails = preds[p];
            // Mostly the pieces the predicate likes, so that many inputs fail.
            let allowed = match p {
                0 => &pieces[..3],
                1 => &pieces[3..5],
                _ => &pieces[..],
            };
            let mut input = if p == 1 {
                pieces[4].to_vec()
            } else {
                Vec::new()
            };
            for _ in 0..1 + next(12) {
                input.extend_from_slice(allowed[next(allowed.len())]);
            }
            if !fails(&input) {
                continue;
            }
            checked[p] += 1;
            let small = minimize(&input, |c| c.iter().map(|c| fails(c)).collect());
            assert!(fails(&small), "{input:02X?} -> {small:02X?}");
            for c in removals(&small) {
                assert!(
                    !fails(&c),
                    "{input:02X?} -> {small:02X?}, yet {c:02X?} fails"
                );
            }
        }
        assert!(checked.iter().all(|&n| n > 50), "{checked:?}");
    }

    #[test]
    fn out_of_time_keeps_the_smallest_so_far() {
        // The predicate answers three rounds, then nothing (its deadline passed).
        let fails = |b: &[u8]| b.contains(&0xC0);
        let input: Vec<u8> = (0..64u8)
            .map(|i| if i == 40 { 0xC0 } else { 0x41 })
            .collect();
        let mut rounds = 0;
        let small = minimize(&input, |c| {
            rounds += 1;
            if rounds > 3 {
                return Vec::new();
            }
            c.iter().map(|c| fails(c)).collect()
        });
        assert!(fails(&small) && small.len() < input.len(), "{small:02X?}");
        assert!(small.len() > 1, "it stopped early: {small:02X?}");
        // Cut off in the middle of a round: the verdicts given still count.
        let small = minimize(&input, |c| c.iter().take(1).map(|c| fails(c)).collect());
        assert!(fails(&small), "{small:02X?}");
    }

    #[test]
    fn splits_evenly() {
        assert_eq!(split(5, 2), [0..3, 3..5]);
        assert_eq!(split(3, 8), [0..1, 1..2, 2..3]);
    }
}
