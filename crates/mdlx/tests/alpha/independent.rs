//! Independent readings of the boar: a minimal chunk walker written from the page, and
//! the numbers GrenderG/MDX-Parser's own reader prints.

pub(crate) fn le32(d: &[u8], at: usize) -> u32 {
    u32::from_le_bytes(d[at..at + 4].try_into().unwrap())
}

/// What the minimal walker sees.
#[derive(Debug, Default)]
pub(crate) struct Walk {
    pub tags: Vec<String>,
    pub counts: Vec<(String, u32)>,
    pub vertices_per_geoset: Vec<u32>,
    pub sequences: Vec<(String, u32, u32)>,
}

/// Walks `MDLX` and the `[tag][size]` chunk headers; takes the leading count of every
/// count-prefixed chunk (page: SEQS, MTLS, GEOS, BONE, HELP, ATCH, CAMS, EVTS, HTST...),
/// item counts of the size-divided ones (TEXS /268, PIVT /12), the VRTX count at the start
/// of each 1300 geoset (size, then `VRTX`, count), and sequence names and intervals at
/// their 140-byte stride.
pub(crate) fn walk(d: &[u8]) -> Walk {
    assert_eq!(&d[..4], b"MDLX");
    let mut w = Walk::default();
    let mut p = 4;
    while p + 8 <= d.len() {
        let tag = String::from_utf8_lossy(&d[p..p + 4]).to_string();
        let size = le32(d, p + 4) as usize;
        let body = p + 8;
        let n = match tag.as_str() {
            "TEXS" => (size / 268) as u32,
            "PIVT" => (size / 12) as u32,
            "VERS" | "MODL" | "CLID" | "GLBS" => 0,
            _ => le32(d, body),
        };
        if tag == "GEOS" {
            let mut g = body + 4;
            for _ in 0..n {
                assert_eq!(&d[g + 4..g + 8], b"VRTX");
                w.vertices_per_geoset.push(le32(d, g + 8));
                g += le32(d, g) as usize;
            }
        }
        if tag == "SEQS" {
            for i in 0..n as usize {
                let s = body + 4 + 140 * i;
                let name = d[s..s + 80].split(|&b| b == 0).next().unwrap();
                let name = String::from_utf8_lossy(name).to_string();
                w.sequences.push((name, le32(d, s + 80), le32(d, s + 84)));
            }
        }
        w.counts.push((tag.clone(), n));
        w.tags.push(tag);
        p = body + size;
    }
    assert_eq!(p, d.len(), "the chunks cover the file exactly");
    w
}

/// Numbers printed by GrenderG/MDX-Parser's reader for the boar. Its MDXLib classes
/// (commits a429e65, 10df62a, 8c2a25c: Model, VERS, MODL, SEQS, MTLS, TEXS, GEOS, BONE,
/// HELP, ATCH, PIVT, CAMS, EVTS, HTST, CLID, GenObject, Track, SimpleTrack, CVector4...)
/// were transcribed without their M2 conversion members and run with mono 6.8; the reader
/// ended every chunk exactly at its declared size.
pub(crate) mod grender {
    pub(crate) const SEQUENCES: &[(&str, u32, u32, bool)] = &[
        ("Run", 3333, 4000, false),
        ("Stand - Var1", 6667, 8333, false),
        ("Walk", 10000, 11000, false),
        ("AttackUnarmed - Var 1", 16667, 17667, true),
        ("AttackUnarmed - Var 2", 20000, 21000, true),
        ("CombatWound", 30000, 31000, true),
        ("Death", 36667, 38033, true),
        ("CombatCritical", 40000, 41000, true),
        ("Stand - Var2", 43333, 48533, true),
        ("Stand - Var3", 50000, 52333, true),
    ];
    /// Per geoset: vertices, UV pairs, face indices, matrix groups, MATS entries, BIDX
    /// entries, material id, per-sequence bounds.
    pub(crate) const GEOSETS: &[[u32; 8]] = &[
        [92, 92, 246, 20, 33, 92, 0, 10],
        [309, 309, 1266, 54, 103, 309, 1, 10],
    ];
    pub(crate) const BLEND_TIME: u32 = 14593;
    pub(crate) const MATERIALS: usize = 2;
    pub(crate) const LAYERS: usize = 2;
    pub(crate) const TEXTURES: usize = 1;
    pub(crate) const REPLACEABLE_ID: u32 = 11;
    pub(crate) const BONES: usize = 26;
    pub(crate) const BONE_ROTATION_KEYS: usize = 8098;
    pub(crate) const BONE_TRANSLATION_KEYS: usize = 103;
    pub(crate) const HELPERS: usize = 4;
    pub(crate) const ATTACHMENT_IDS: &[u32] = &[15, 16, 17, 18, 19, 20, 21, 22, 34];
    pub(crate) const ATCH_UNUSED: u32 = 34;
    pub(crate) const PIVOTS: usize = 57;
    pub(crate) const EVENTS: usize = 17;
    pub(crate) const EVENTS_WITH_KEVT: usize = 15;
    pub(crate) const EVENT_KEYS: usize = 27;
    pub(crate) const COLLISION: [usize; 3] = [8, 36, 12];
}
