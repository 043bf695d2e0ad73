//! Text measured without a font engine: an estimate of DejaVu Sans advance widths by character
//! class, a little generous, so that plates and wrapped lines are laid out from the string alone
//! (the same on every machine) and never come out narrower than the rendered text.

/// The estimated width in pixels of `s` at `size` pixels (bold is about 8 % wider).
pub fn width(s: &str, size: i32, bold: bool) -> i32 {
    // Advances in thousandths of an em, rounded up from DejaVu Sans.
    let mut milli: i64 = 0;
    for c in s.chars() {
        milli += match c {
            'i' | 'j' | 'l' | '|' | '\'' | '.' | ',' | ':' | ';' | '!' => 300,
            ' ' | 'f' | 't' | 'r' | '(' | ')' | '[' | ']' | '-' | '/' => 420,
            'I' | 'J' => 320,
            'm' | 'w' | 'M' | 'W' | '@' | '%' => 900,
            c if c.is_ascii_digit() => 640,
            c if c.is_ascii_uppercase() => 720,
            c if c.is_ascii_lowercase() => 620,
            '#' | '=' | '+' | '<' | '>' | '~' => 840,
            _ => 800,
        };
    }
    if bold {
        milli = milli * 108 / 100;
    }
    i32::try_from((milli * i64::from(size) + 999) / 1000).unwrap_or(i32::MAX)
}

/// `words` set in lines no wider than `max` pixels at `size`, a space between words; a word
/// wider than a line gets a line of its own.
pub fn wrap(words: &[String], size: i32, bold: bool, max: i32) -> Vec<String> {
    let mut lines: Vec<String> = Vec::new();
    let mut line = String::new();
    for w in words {
        if line.is_empty() {
            line.push_str(w);
            continue;
        }
        let candidate = format!("{line} {w}");
        if width(&candidate, size, bold) <= max {
            line = candidate;
        } else {
            lines.push(std::mem::take(&mut line));
            line.push_str(w);
        }
    }
    if !line.is_empty() {
        lines.push(line);
    }
    lines
}

/// `s` cut to fit `max` pixels, ending in `…` when cut.
pub fn fit(s: &str, size: i32, bold: bool, max: i32) -> String {
    if width(s, size, bold) <= max {
        return s.to_string();
    }
    let mut out = String::new();
    for c in s.chars() {
        let next = format!("{out}{c}…");
        if width(&next, size, bold) > max {
            break;
        }
        out.push(c);
    }
    out.push('…');
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wider_text_and_larger_sizes_measure_wider() {
        assert!(width("WWW", 10, false) > width("iii", 10, false));
        assert!(width("EX-10", 12, false) > width("EX-10", 10, false));
        assert!(width("EX-10", 10, true) > width("EX-10", 10, false));
        assert_eq!(width("", 10, false), 0);
    }

    #[test]
    fn wrapped_lines_fit_and_keep_every_word_in_order() {
        let words: Vec<String> = "M-AT01 9-4 M-AT02 9-4 M-SO03 6-2 B#17 B#18"
            .split(' ')
            .map(String::from)
            .collect();
        let lines = wrap(&words, 11, false, 80);
        assert!(lines.len() > 1);
        assert!(lines.iter().all(|l| width(l, 11, false) <= 80), "{lines:?}");
        assert_eq!(lines.join(" ").split(' ').collect::<Vec<_>>(), words);
    }

    #[test]
    fn a_cut_text_fits_and_says_it_was_cut() {
        let s = fit("Kanjelman Palace", 10, false, 50);
        assert!(s.ends_with('…') && width(&s, 10, false) <= 50, "{s}");
        assert_eq!(fit("EX-9", 10, false, 50), "EX-9");
    }
}
