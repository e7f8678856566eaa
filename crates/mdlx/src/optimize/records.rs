//! The records pass (see the [module docs](super)).

use super::{Changes, Ctx};
use crate::model::Model;

/// Merges duplicate records and removes unused ones.
pub(crate) fn run(model: &mut Model, ctx: &Ctx) -> Changes {
    let _ = (model, ctx);
    Vec::new()
}
