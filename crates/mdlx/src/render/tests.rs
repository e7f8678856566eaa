//! The renderer's own checks, on pictures whose answer is known from geometry alone.

use super::*;
