//! Placeholder while the kummen system is written.
use super::*;
pub struct Kummen;
impl Rules for Kummen {
    type State = ();
    type Orders = ();
    type View = ();
    fn id(&self) -> &'static str {
        "kummen"
    }
    fn title(&self) -> &'static str {
        ""
    }
    fn sides(&self) -> &'static [&'static str] {
        &["mercenary", "beeler"]
    }
    fn scenarios(&self) -> Vec<(String, String)> {
        vec![]
    }
    fn initial_state(&self, _: &str, _: &DataSource) -> Result<(), String> {
        Err("x".into())
    }
    fn phase(&self, _: &()) -> Phase {
        Phase::Waiting {
            title: String::new(),
            sides: vec![],
        }
    }
    fn check(&self, _: &(), _: &str, _: &()) -> Vec<Problem> {
        vec![]
    }
    fn default_orders(&self, _: &(), _: &str) {}
    fn resolve(
        &self,
        _: &(),
        _: &BTreeMap<String, ()>,
        _: &mut Dice,
    ) -> Result<Resolution<()>, String> {
        Err("x".into())
    }
    fn view(&self, _: &(), _: &Reader) {}
    fn render(&self, _: &()) -> String {
        String::new()
    }
    fn template(&self, _: &(), _: &str) -> String {
        String::new()
    }
}
