//! Standing policies: the decisions the rules ask of a side in the middle of a step (often in
//! the opponent's turn), decided in advance and kept in the state. Every system reads them from
//! one key of its orders, `policies:`, which names only the parts the side changes: each part
//! present replaces the stored part of the same name, the others stay.
//!
//! A system writes two types: its stored policies (every part, each with a documented
//! default), and a patch with the same part names, each optional and left out when absent
//! (`#[serde(default, skip_serializing_if = "Option::is_none")]`). The merge is written once,
//! here, by name.

use serde::Serialize;
use serde::de::DeserializeOwned;
use serde_json::Value;

/// Puts the parts `patch` has into `stored`, by name; a part the patch leaves out (or writes
/// as null) keeps its stored value. The patch is checked by the rules before it is merged; an
/// error here means the two types do not match (a part of the patch that the stored policies
/// do not have), a defect in the system, and `stored` is left as it was.
pub fn merge<P, U>(stored: &mut P, patch: &U) -> Result<(), String>
where
    P: Serialize + DeserializeOwned,
    U: Serialize,
{
    let Value::Object(parts) = to_value(patch)? else {
        return Err("a policy patch must be a map of parts".into());
    };
    if parts.values().all(Value::is_null) {
        return Ok(());
    }
    let Value::Object(mut merged) = to_value(&*stored)? else {
        return Err("standing policies must be a map of parts".into());
    };
    for (name, value) in parts {
        if !value.is_null() {
            merged.insert(name, value);
        }
    }
    *stored = serde_json::from_value(Value::Object(merged))
        .map_err(|e| format!("the policy patch does not fit the standing policies: {e}"))?;
    Ok(())
}

fn to_value<T: Serialize>(v: &T) -> Result<Value, String> {
    serde_json::to_value(v).map_err(|e| format!("policies: {e}"))
}

/// A patch that changes nothing, for `skip_serializing_if`: orders written back (a default
/// order, a template) leave out an empty `policies:`.
pub fn is_empty<U: Default + PartialEq>(patch: &U) -> bool {
    *patch == U::default()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::yaml;
    use serde::Deserialize;

    #[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
    #[serde(deny_unknown_fields)]
    struct Policies {
        #[serde(default)]
        retreat: String,
        #[serde(default)]
        targets: Vec<String>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        capture: Option<u32>,
    }

    #[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
    #[serde(deny_unknown_fields)]
    struct PolicyPatch {
        #[serde(default, skip_serializing_if = "Option::is_none")]
        retreat: Option<String>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        targets: Option<Vec<String>>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        capture: Option<u32>,
    }

    fn stored() -> Policies {
        Policies {
            retreat: "never".into(),
            targets: vec!["at".into()],
            capture: None,
        }
    }

    #[test]
    fn a_part_named_in_the_patch_replaces_the_stored_part() {
        let mut p = stored();
        let patch: PolicyPatch = yaml::parse("targets: [soldier, heli]\n", "o").unwrap();
        merge(&mut p, &patch).unwrap();
        assert_eq!(p.targets, ["soldier", "heli"]);
    }

    #[test]
    fn parts_the_patch_leaves_out_keep_their_stored_value() {
        let mut p = stored();
        let patch: PolicyPatch = yaml::parse("capture: 3\n", "o").unwrap();
        merge(&mut p, &patch).unwrap();
        assert_eq!(
            p,
            Policies {
                capture: Some(3),
                ..stored()
            }
        );
    }

    #[test]
    fn an_empty_list_in_the_patch_empties_the_stored_list() {
        let mut p = stored();
        let patch: PolicyPatch = yaml::parse("targets: []\n", "o").unwrap();
        merge(&mut p, &patch).unwrap();
        assert!(p.targets.is_empty());
    }

    #[test]
    fn an_empty_patch_changes_nothing_and_is_empty() {
        let mut p = stored();
        let patch = PolicyPatch::default();
        assert!(is_empty(&patch));
        merge(&mut p, &patch).unwrap();
        assert_eq!(p, stored());
        assert!(!is_empty(&PolicyPatch {
            capture: Some(1),
            ..PolicyPatch::default()
        }));
    }

    #[test]
    fn a_patch_part_the_policies_lack_is_refused_and_changes_nothing() {
        #[derive(Serialize)]
        struct Other {
            sixth_army: Vec<String>,
        }
        let mut p = stored();
        let e = merge(
            &mut p,
            &Other {
                sixth_army: vec!["x".into()],
            },
        )
        .unwrap_err();
        assert!(e.contains("sixth_army"), "{e}");
        assert_eq!(p, stored());
    }
}
