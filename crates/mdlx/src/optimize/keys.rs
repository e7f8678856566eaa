//! The keys pass (see the [module docs](super)).

use super::{Changes, Ctx};
use crate::model::Model;

pub(crate) fn run(model: &mut Model, ctx: &Ctx) -> Changes {
    let _ = (model, ctx);
    Vec::new()
}
