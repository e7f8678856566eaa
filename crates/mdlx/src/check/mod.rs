//! Checking models for mistakes, and the safe repairs of `--fix` ([`fix`]).
pub mod fix;
pub(crate) mod usage;
