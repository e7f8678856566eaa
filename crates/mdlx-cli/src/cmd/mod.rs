//! One module per verb.

pub(crate) mod archive;
pub(crate) mod bench;
pub(crate) mod check;
mod check_print;
pub(crate) mod classic;
pub(crate) mod convert;
pub(crate) mod convert_dir;
pub(crate) mod convert_file;
pub(crate) mod edit;
pub(crate) mod gltf_in;
pub(crate) mod icon;
pub(crate) mod info;
pub(crate) mod optimize;
pub(crate) mod portrait;
pub(crate) mod pose;
mod put_model;
pub(crate) mod render;
pub(crate) mod roundtrip;
pub(crate) mod texture;
#[cfg(feature = "view")]
pub(crate) mod view;

pub(crate) use crate::input::{decode, read_ms3d, read_options, stem, Decoded};
