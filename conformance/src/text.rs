//! Text cut to a bound: the one helper every message, excerpt and report of every tool
//! uses, so that nothing an implementation sends can make a line, a report or a vector
//! file's comment unbounded.

/// `s` when it is at most `max` bytes; else its first bytes up to `max` (cut at a
/// character boundary) and `… (N bytes)`, N being the whole length.
pub fn cut(s: &str, max: usize) -> String {
    if s.len() <= max {
        return s.to_string();
    }
    let mut end = max;
    while !s.is_char_boundary(end) {
        end -= 1;
    }
    format!("{}… ({} bytes)", &s[..end], s.len())
}

#[cfg(test)]
mod tests {
    use super::cut;

    #[test]
    fn cuts_at_a_character_boundary_and_says_how_long() {
        assert_eq!(cut("abc", 3), "abc");
        assert_eq!(cut("abcd", 3), "abc… (4 bytes)");
        // "é" is two bytes: a cut inside it goes back to before it.
        assert_eq!(cut("aé", 2), "a… (3 bytes)");
        assert_eq!(cut("", 0), "");
        assert_eq!(cut("x", 0), "… (1 bytes)");
        let long = "€".repeat(1000);
        let c = cut(&long, 100);
        assert!(c.len() <= 100 + "… (3000 bytes)".len(), "{c}");
        assert!(c.ends_with("… (3000 bytes)"));
    }
}
