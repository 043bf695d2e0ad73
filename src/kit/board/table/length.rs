//! Lengths as orders and views write them (docs/first-blood-plan.md §10, K8).
//!
//! A length is inches with at most two decimals (`"18.35"`, `"6"`, also `"6in"` or `6"`),
//! millimetres with at most one (`"25mm"`, `"12.5 mm"`) or raw table units of 0.1 mm
//! (`"4661u"`). An inch is 254 units, so a hundredth of an inch is 2.54 units: inches are
//! rounded to the nearest unit, halves away from zero (up, for a length); millimetres and units
//! are exact. A leading `-` is accepted (an offset), and rounds as its length does. The text is
//! at most [`MAX_TEXT`] bytes and the value at most [`LIMIT`] units (10 km) either way, so nothing
//! can overflow. [`inches`] writes units back as inches, rounded to the nearest hundredth (halves
//! away from zero), without trailing zeros; `parse(&inches(parse(x)?))` gives `parse(x)` back for
//! every `x` written in hundredths of an inch.

use super::LIMIT;

/// The longest text [`parse`] reads.
pub const MAX_TEXT: usize = 24;

fn accepted(text: &str) -> String {
    format!(
        "{text:?} is not a length: write inches with at most 2 decimals (\"18.35\", \"6\", \
         \"6in\"), millimetres with at most 1 (\"25mm\", \"12.5mm\") or table units of 0.1 mm \
         (\"4661u\")"
    )
}

/// Reads a length in table units (0.1 mm).
pub fn parse(text: &str) -> Result<i64, String> {
    if text.len() > MAX_TEXT {
        return Err(format!(
            "a length is at most {MAX_TEXT} characters, not {}: {}",
            text.len(),
            accepted(&text.chars().take(MAX_TEXT).collect::<String>())
        ));
    }
    let t = text.trim();
    // (number, decimals allowed, units per whole number)
    let (num, places, unit) = if let Some(n) = t.strip_suffix("mm") {
        (n, 1, 10)
    } else if let Some(n) = t.strip_suffix('u') {
        (n, 0, 1)
    } else if let Some(n) = t.strip_suffix("in").or_else(|| t.strip_suffix('"')) {
        (n, 2, 254)
    } else {
        (t, 2, 254)
    };
    let num = num.trim_end();
    let (negative, digits) = match num.strip_prefix('-') {
        Some(rest) => (true, rest),
        None => (false, num),
    };
    let (whole, frac) = match digits.split_once('.') {
        Some((w, f)) => (w, f),
        None => (digits, ""),
    };
    let all_digits = |s: &str| s.bytes().all(|b| b.is_ascii_digit());
    if whole.is_empty()
        || !all_digits(whole)
        || !all_digits(frac)
        || (digits.contains('.') && frac.is_empty())
    {
        return Err(accepted(text));
    }
    if frac.len() > places {
        let what = match places {
            0 => "table units are whole numbers".to_string(),
            1 => "millimetres take at most 1 decimal".to_string(),
            _ => "inches take at most 2 decimals".to_string(),
        };
        return Err(format!("{what}: {}", accepted(text)));
    }
    // At most MAX_TEXT digits: below 10^24, so the sums below stay far inside i128.
    let scale = 10i128.pow(places as u32);
    let mut fixed: i128 = 0;
    for b in whole.bytes() {
        fixed = fixed * 10 + i128::from(b - b'0');
    }
    fixed *= scale;
    let mut f: i128 = 0;
    for b in frac.bytes() {
        f = f * 10 + i128::from(b - b'0');
    }
    fixed += f * 10i128.pow((places - frac.len()) as u32);
    // units = fixed * unit / scale, rounded half up.
    let units = (2 * fixed * unit + scale) / (2 * scale);
    if units > i128::from(LIMIT) {
        return Err(format!(
            "{text:?} is longer than the table allows: at most {LIMIT} units (10 km)"
        ));
    }
    let units = units as i64;
    Ok(if negative { -units } else { units })
}

/// Writes table units as inches, to the nearest hundredth (halves away from zero), trailing
/// zeros left out: 4661 → `"18.35"`, 1524 → `"6"`, 1651 → `"6.5"`.
pub fn inches(u: i64) -> String {
    let m = i128::from(u).unsigned_abs();
    let h = (200 * m + 254) / 508;
    let (whole, frac) = (h / 100, h % 100);
    let sign = if u < 0 && h != 0 { "-" } else { "" };
    if frac == 0 {
        format!("{sign}{whole}")
    } else if frac % 10 == 0 {
        format!("{sign}{whole}.{}", frac / 10)
    } else {
        format!("{sign}{whole}.{frac:02}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn inches_parse_to_units_rounding_half_up() {
        assert_eq!(parse("6"), Ok(6 * 254));
        assert_eq!(parse("18.35"), Ok(4661), "4660.9");
        assert_eq!(parse("0.25"), Ok(64), "63.5 rounds up");
        assert_eq!(parse("0.01"), Ok(3), "2.54");
        assert_eq!(parse("2.5"), Ok(635));
        assert_eq!(parse("6in"), Ok(1524));
        assert_eq!(parse("6\""), Ok(1524));
        assert_eq!(parse(" 6.5 in "), Ok(1651));
        assert_eq!(parse("0"), Ok(0));
    }

    #[test]
    fn millimetres_and_units_are_exact() {
        assert_eq!(parse("25mm"), Ok(250));
        assert_eq!(parse("12.5 mm"), Ok(125));
        assert_eq!(parse("4661u"), Ok(4661));
        assert_eq!(parse("-3u"), Ok(-3));
    }

    #[test]
    fn a_negative_length_rounds_as_its_length_does() {
        assert_eq!(parse("-0.25"), Ok(-64));
        assert_eq!(parse("-18.35"), Ok(-4661));
    }

    #[test]
    fn a_bad_length_says_what_is_accepted() {
        let all = "write inches with at most 2 decimals (\"18.35\", \"6\", \"6in\"), millimetres \
                   with at most 1 (\"25mm\", \"12.5mm\") or table units of 0.1 mm (\"4661u\")";
        assert_eq!(parse("six"), Err(format!("\"six\" is not a length: {all}")));
        assert_eq!(
            parse("18.355"),
            Err(format!(
                "inches take at most 2 decimals: \"18.355\" is not a length: {all}"
            ))
        );
        assert!(
            parse("12.55mm")
                .unwrap_err()
                .starts_with("millimetres take at most 1")
        );
        assert!(
            parse("1.5u")
                .unwrap_err()
                .starts_with("table units are whole")
        );
        for bad in ["", "-", ".5", "5.", "1e3", "+5", "5 cm", "--5", "5..0", "٣"] {
            assert!(parse(bad).is_err(), "{bad:?}");
        }
    }

    #[test]
    fn a_length_is_bounded_in_text_and_value() {
        assert_eq!(parse("393700"), Ok(99_999_800));
        assert_eq!(
            parse("393701"),
            Err(
                "\"393701\" is longer than the table allows: at most 100000000 units (10 km)"
                    .into()
            )
        );
        assert!(parse("100000000u").is_ok());
        assert!(parse("-100000001u").is_err());
        assert!(
            parse("99999999999999999999999").is_err(),
            "23 digits, no overflow"
        );
        let long = "1".repeat(MAX_TEXT + 1);
        assert!(
            parse(&long)
                .unwrap_err()
                .starts_with("a length is at most 24 characters")
        );
    }

    #[test]
    fn units_write_as_inches_to_the_hundredth() {
        assert_eq!(inches(4661), "18.35");
        assert_eq!(inches(1524), "6");
        assert_eq!(inches(1651), "6.5");
        assert_eq!(inches(0), "0");
        assert_eq!(inches(1), "0");
        assert_eq!(inches(2), "0.01");
        assert_eq!(inches(-4661), "-18.35");
        assert_eq!(inches(-1), "0", "no minus zero");
        assert!(inches(i64::MIN).starts_with('-'));
    }

    #[test]
    fn every_hundredth_of_an_inch_round_trips() {
        for k in -40_000i64..=40_000 {
            let text = format!(
                "{}{}.{:02}",
                if k < 0 { "-" } else { "" },
                k.abs() / 100,
                k.abs() % 100
            );
            let u = parse(&text).unwrap();
            assert_eq!(parse(&inches(u)), Ok(u), "{text} -> {u} -> {}", inches(u));
            assert_eq!(inches(u), inches(parse(&inches(u)).unwrap()));
        }
    }
}
