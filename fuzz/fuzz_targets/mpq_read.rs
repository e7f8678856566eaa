//! The MPQ reader on any bytes: opening (header search, tables, name recovery), listing,
//! and reading every file either succeed or give an error; never a panic, a hang or an
//! allocation past the limit set here (each file at most 16 MiB).
#![no_main]
use mdlx::mpq::Archive;

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    let Ok(mut archive) = Archive::from_bytes(data.to_vec()) else {
        return;
    };
    archive.set_limit(16 << 20);
    for entry in archive.entries() {
        if let Ok(bytes) = archive.read_entry(&entry) {
            assert_eq!(bytes.len() as u64, entry.size, "a file read to another length than its size");
        }
    }
});
