//! MPQ archives: the maps (`.w3m`, `.w3x`) and game data files (`war3.mpq`, ...) models
//! and textures live in.
//!
//! (Work in progress: the reader, the writer and the names are being built.)

mod compress;
mod crypto;
mod write;
pub use write::{ArchiveWriter, Compression, EntryName, NewFile, WriteError, WriteReport};
