//! Delta debugging (ddmin, Zeller and Hildebrandt 2002) over bytes: the smallest input,
//! made of bytes of the original in their order, that still fails.
//!
//! The predicate is asked about several candidates at once ([`ddmin`]'s `still_fails`
//! gets a whole round), so that an implementation behind a pipe can answer them in one
//! batch. The result is 1-minimal: removing any single byte makes it pass.

/// Reduces `input` to a smaller one for which `still_fails` holds; `input` itself is
/// assumed to fail. `still_fails` gets candidates and returns one verdict per candidate
/// (true: it still fails in the same way), in order. Candidates are never empty.
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
        } else if n < current.len() {
            n = (2 * n).min(current.len());
        } else {
            break;
        }
    }
    current
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

    #[test]
    fn splits_evenly() {
        assert_eq!(split(5, 2), [0..3, 3..5]);
        assert_eq!(split(3, 8), [0..1, 1..2, 2..3]);
    }
}
