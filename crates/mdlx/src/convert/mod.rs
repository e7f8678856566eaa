//! Conversions between formats that do not hold the same things. Each returns what it
//! could not carry as a list of [`Loss`](crate::Loss)es, so a tool can say exactly what
//! was dropped.

pub mod alpha;
pub mod classic;
mod door;
pub mod ms3d;
pub mod ready;
pub mod scale;
pub(crate) mod skin;

pub use door::*;
