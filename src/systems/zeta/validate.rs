//! Loading the six data files and judging them against what the rules need (plan §5.9).

use super::data::{self, ZetaData};
use crate::systems::DataSource;

/// Reads the data files. Validation comes with zeta commit 3.
pub fn load(data: &DataSource) -> Result<ZetaData, String> {
    data::read(data)
}
