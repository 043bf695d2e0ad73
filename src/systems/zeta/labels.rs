//! Dice labels (docs/dice.md: every die has a label unique in its step). Every label of zeta
//! is built here, and each names the turn and the action phase, so labels stay unique when
//! several phases are resolved in one step (plan §1.3): `t3/p5/c:space:H05/air/aeug/a-nemo-2/1`.

use super::data::Loc;

/// `t<turn>`: the prefix of every label of a turn.
pub fn turn(t: u8) -> String {
    format!("t{t}")
}

/// `t<turn>/deck`: the sealed shuffle of the turn's nine cards (10.4).
pub fn deck(t: u8) -> String {
    format!("t{t}/deck")
}

/// `nuke/salt`: the salt of the nuke base's commitment, drawn sealed in Titans' turn-1 packet
/// step (plan §12/F10).
pub fn nuke_salt() -> String {
    "nuke/salt".to_string()
}

/// `t1/nuke-default`: Titans' nuke base when they missed the turn-1 packet (Z-2).
pub fn nuke_default() -> String {
    "t1/nuke-default".to_string()
}

/// `t<turn>/char/<char>`: a character-phase recovery roll (4.4).
pub fn recovery(t: u8, char: &str) -> String {
    format!("t{t}/char/{char}")
}

/// `t<turn>/p<k>`: the prefix of every label of one action phase.
pub fn phase(t: u8, k: u8) -> String {
    format!("t{t}/p{k}")
}

/// `t<turn>/p<k>/c:<hex>`: the prefix of one combat's labels (19).
pub fn combat(t: u8, k: u8, at: Loc) -> String {
    format!("t{t}/p{k}/c:{}", at.label())
}

/// `<prefix>/<part>/<part>…`: one die or roll under a prefix.
pub fn under(prefix: &str, parts: &[&str]) -> String {
    let mut s = prefix.to_string();
    for p in parts {
        s.push('/');
        s.push_str(p);
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_combat_die_label_names_turn_phase_hex_and_unit() {
        let at = Loc::parse("space:H05").unwrap();
        let l = under(&combat(3, 5, at), &["air", "aeug", "a-nemo-2", "1"]);
        assert_eq!(l, "t3/p5/c:space:H05/air/aeug/a-nemo-2/1");
        assert_eq!(deck(3), "t3/deck");
        assert_eq!(under(&phase(2, 9), &["laser"]), "t2/p9/laser");
    }
}
