//! Finds the order in a message wherever a mail client put it: an attached signed file, an
//! attached `orders.yaml` + `orders.yaml.sig` pair (ssh-keygen), or a signed order pasted into
//! the text body. Line endings do not matter here (the envelope normalises them); transfer
//! encodings are already undone by [`super::parse`].

use super::address::atom;
use super::parse::Part;
use crate::protocol::envelope::{self, EMBEDDED_BEGIN};

const EMBEDDED_END: &str = "# -----END SSH SIGNATURE-----";
const DETACHED_BEGIN: &str = "-----BEGIN SSH SIGNATURE-----";

/// One order found in a message, ready to be written to files and submitted.
#[derive(Debug, Clone)]
pub struct Candidate {
    /// What the player calls it: the attachment's name, or "the message body".
    pub label: String,
    /// A safe file name for the document (the signature goes beside it as NAME.sig).
    pub file_name: String,
    pub doc: Vec<u8>,
    pub sig: Option<Vec<u8>>,
}

/// Every distinct order in a message, and what looked like part of an order but was not usable.
#[derive(Debug, Clone, Default)]
pub struct Found {
    pub orders: Vec<Candidate>,
    pub problems: Vec<String>,
}

struct File<'a> {
    label: String,
    name: Option<String>,
    bytes: &'a [u8],
    embedded: bool,
    signature: bool,
    order_like: bool,
    used: bool,
}

fn lines(bytes: &[u8]) -> impl Iterator<Item = &str> {
    bytes
        .split(|&b| b == b'\n' || b == b'\r')
        .filter_map(|l| std::str::from_utf8(l).ok())
}

/// Finds the orders among the parts of a message.
pub fn find(parts: &[Part]) -> Found {
    let mut bodies = 0;
    let mut files: Vec<File> = Vec::new();
    for p in parts {
        let label = match &p.name {
            Some(n) => n.clone(),
            None if p.content_type.starts_with("text/") => {
                bodies += 1;
                if bodies == 1 {
                    "the message body".to_string()
                } else {
                    format!("text part {bodies} of the message")
                }
            }
            None => continue,
        };
        let embedded = lines(&p.body).any(|l| l.trim() == EMBEDDED_BEGIN);
        let signature = !embedded
            && (p.name.as_deref().is_some_and(|n| n.ends_with(".sig"))
                || lines(&p.body).any(|l| l.trim() == DETACHED_BEGIN));
        files.push(File {
            label,
            name: p.name.clone(),
            bytes: &p.body,
            embedded,
            signature,
            order_like: lines(&p.body).any(|l| l.starts_with("pbem:")),
            used: false,
        });
    }
    let mut found = Found::default();
    // Detached pairs: NAME.sig signs NAME, or the one other attachment.
    for i in 0..files.len() {
        if !files[i].signature {
            continue;
        }
        let sig_label = files[i].label.clone();
        let stem = sig_label.strip_suffix(".sig").map(str::to_string);
        let by_name = files
            .iter()
            .position(|f| !f.signature && !f.embedded && f.name.is_some() && f.name == stem);
        let others: Vec<usize> = (0..files.len())
            .filter(|&j| {
                let f = &files[j];
                j != i && !f.signature && !f.embedded && f.name.is_some()
            })
            .collect();
        let doc = by_name.or(match others.as_slice() {
            [only] => Some(*only),
            _ => None,
        });
        match doc {
            Some(j) => {
                files[j].used = true;
                files[i].used = true;
                let f = &files[j];
                found.orders.push(Candidate {
                    label: format!("{} with {sig_label}", f.label),
                    file_name: safe_name(f.name.as_deref()),
                    doc: f.bytes.to_vec(),
                    sig: Some(files[i].bytes.to_vec()),
                });
            }
            None => found.problems.push(format!(
                "{sig_label} is an SSH signature, but the file it signs ({}) is not attached: \
                 attach both the order file and its .sig",
                stem.unwrap_or_else(|| "the order file".into())
            )),
        }
    }
    // Single signed files, attached or pasted into the body.
    for f in files.iter_mut().filter(|f| f.embedded) {
        f.used = true;
        let doc = if f.name.is_some() {
            f.bytes.to_vec()
        } else {
            cut_pasted(f.bytes)
        };
        found.orders.push(Candidate {
            label: f.label.clone(),
            file_name: safe_name(f.name.as_deref()),
            doc,
            sig: None,
        });
    }
    // Order files without any signature: submitted anyway, so the player learns precisely why
    // they were refused.
    for f in files
        .iter()
        .filter(|f| !f.used && f.order_like && !f.signature)
    {
        found.orders.push(Candidate {
            label: f.label.clone(),
            file_name: safe_name(f.name.as_deref()),
            doc: f.bytes.to_vec(),
            sig: None,
        });
    }
    dedupe(&mut found.orders);
    found
}

/// At most this many different orders are kept from one message. One order per message is
/// the rule, so more than one is refused anyway; the cap bounds the signature checks and the
/// answer of a message made of thousands of order-like parts.
pub const MAX_CANDIDATES: usize = 16;

/// The same order found twice (a client that shows an attachment inline too) counts once; a
/// signed copy wins over an unsigned one. Linear: each order's key is computed once and looked
/// up in a map (a message may hold hundreds of thousands of parts).
fn dedupe(orders: &mut Vec<Candidate>) {
    let is_signed =
        |c: &Candidate| c.sig.is_some() || lines(&c.doc).any(|l| l.trim() == EMBEDDED_BEGIN);
    let mut out: Vec<(Candidate, bool)> = Vec::new();
    let mut seen: std::collections::HashMap<Vec<u8>, usize> = std::collections::HashMap::new();
    for c in orders.drain(..) {
        let signed = is_signed(&c);
        let key = envelope::strip_embedded_signature(&c.doc);
        match seen.get(&key) {
            Some(&i) if signed && !out[i].1 => out[i] = (c, signed),
            Some(_) => {}
            None if out.len() < MAX_CANDIDATES => {
                seen.insert(key, out.len());
                out.push((c, signed));
            }
            None => {}
        }
    }
    *orders = out.into_iter().map(|(c, _)| c).collect();
}

/// A signed order pasted into a message body, without the text around it: from the comment
/// block just above the `pbem:` line (or the body's start) to the end of the signature armour.
fn cut_pasted(body: &[u8]) -> Vec<u8> {
    let norm = envelope::normalize_line_endings(body);
    let text = String::from_utf8_lossy(&norm);
    let all: Vec<&str> = text.split('\n').collect();
    let Some(begin) = all.iter().position(|l| l.trim() == EMBEDDED_BEGIN) else {
        return norm;
    };
    let end = all[begin..]
        .iter()
        .position(|l| l.trim() == EMBEDDED_END)
        .map(|i| begin + i)
        .unwrap_or(all.len() - 1);
    let mut start = all[..begin]
        .iter()
        .rposition(|l| l.starts_with("pbem:"))
        .unwrap_or(0);
    while start > 0 && all[start - 1].starts_with('#') {
        start -= 1;
    }
    let mut out = all[start..=end].join("\n");
    out.push('\n');
    out.into_bytes()
}

/// A file name that is safe to create: the attachment's base name in a small alphabet.
fn safe_name(name: Option<&str>) -> String {
    let base = name
        .and_then(|n| n.rsplit(['/', '\\']).next())
        .map(atom)
        .unwrap_or_default();
    let base = base.trim_start_matches('.');
    if base.is_empty() || base == "-" {
        "orders.yaml".into()
    } else {
        base.to_string()
    }
}

/// The `game:` an order document names, for finding its game among many.
pub fn game_id(doc: &[u8]) -> Option<String> {
    lines(doc).find_map(|l| {
        let v = l.strip_prefix("game:")?;
        let v = v.split(" #").next().unwrap_or("").trim();
        let v = v.trim_matches(|c| c == '\'' || c == '"');
        (!v.is_empty()).then(|| v.to_string())
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn part(name: Option<&str>, ct: &str, body: &str) -> Part {
        Part {
            name: name.map(str::to_string),
            content_type: ct.into(),
            body: body.as_bytes().to_vec(),
        }
    }

    const SIGNED: &str = "# Orders\npbem: order/1\ngame: g\n# -----BEGIN SSH SIGNATURE-----\n# AAAA\n# -----END SSH SIGNATURE-----\n";

    #[test]
    fn a_signed_order_pasted_in_the_body_is_cut_from_the_greeting_and_the_signature() {
        let body = format!("Hello host,\n\n{SIGNED}\n-- \nAnn\n");
        let f = find(&[part(None, "text/plain", &body)]);
        assert_eq!(f.orders.len(), 1);
        assert_eq!(String::from_utf8(f.orders[0].doc.clone()).unwrap(), SIGNED);
    }

    #[test]
    fn a_message_of_thousands_of_different_orders_keeps_at_most_the_cap() {
        let parts: Vec<Part> = (0..2_000)
            .map(|i| {
                part(
                    Some(&format!("o{i}.yaml")),
                    "application/yaml",
                    &format!("pbem: order/2\ngame: g{i}\n"),
                )
            })
            .collect();
        assert_eq!(find(&parts).orders.len(), MAX_CANDIDATES);
    }

    #[test]
    fn the_same_order_in_thousands_of_parts_counts_once() {
        let parts: Vec<Part> = (0..2_000)
            .map(|i| part(Some(&format!("o{i}.yaml")), "application/yaml", SIGNED))
            .collect();
        assert_eq!(find(&parts).orders.len(), 1);
    }

    #[test]
    fn an_ssh_keygen_pair_is_matched_by_name() {
        let f = find(&[
            part(None, "text/plain", "hi"),
            part(Some("orders.yaml"), "application/yaml", "pbem: order/1\n"),
            part(
                Some("orders.yaml.sig"),
                "application/octet-stream",
                "-----BEGIN SSH SIGNATURE-----\nAA\n-----END SSH SIGNATURE-----\n",
            ),
        ]);
        assert_eq!(f.orders.len(), 1, "{f:?}");
        assert_eq!(f.orders[0].file_name, "orders.yaml");
        assert!(f.orders[0].sig.is_some());
    }

    #[test]
    fn a_signature_without_its_file_is_a_problem() {
        let f = find(&[part(
            Some("orders.yaml.sig"),
            "text/plain",
            "-----BEGIN SSH SIGNATURE-----\n",
        )]);
        assert!(f.orders.is_empty());
        assert!(f.problems[0].contains("not attached"), "{:?}", f.problems);
    }

    #[test]
    fn the_same_order_inline_and_attached_counts_once() {
        let f = find(&[
            part(None, "text/plain", SIGNED),
            part(Some("signed.yaml"), "application/yaml", SIGNED),
        ]);
        assert_eq!(f.orders.len(), 1);
    }

    #[test]
    fn the_game_id_is_read_from_the_document() {
        assert_eq!(
            game_id(b"pbem: order/1\ngame: 'k-1' # x\n").as_deref(),
            Some("k-1")
        );
    }

    #[test]
    fn attachment_names_cannot_leave_the_directory() {
        assert_eq!(safe_name(Some("../../etc/passwd")), "passwd");
        assert_eq!(safe_name(Some("..")), "orders.yaml");
    }
}
