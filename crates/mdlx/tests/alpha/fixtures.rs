//! Hand-built alpha files, field by field from the wowdev page (seed 004). The builder is
//! independent of the codec's writer: it frames records and chunks and back-patches their
//! sizes itself.

/// A little-endian byte builder.
#[derive(Default)]
pub(crate) struct B(pub Vec<u8>);

impl B {
    pub(crate) fn u8(&mut self, v: u8) -> &mut Self {
        self.0.push(v);
        self
    }
    pub(crate) fn u16(&mut self, v: u16) -> &mut Self {
        self.0.extend_from_slice(&v.to_le_bytes());
        self
    }
    pub(crate) fn u32(&mut self, v: u32) -> &mut Self {
        self.0.extend_from_slice(&v.to_le_bytes());
        self
    }
    pub(crate) fn i32(&mut self, v: i32) -> &mut Self {
        self.u32(v as u32)
    }
    pub(crate) fn u64(&mut self, v: u64) -> &mut Self {
        self.0.extend_from_slice(&v.to_le_bytes());
        self
    }
    pub(crate) fn f32s(&mut self, v: &[f32]) -> &mut Self {
        for x in v {
            self.0.extend_from_slice(&x.to_le_bytes());
        }
        self
    }
    pub(crate) fn f32(&mut self, v: f32) -> &mut Self {
        self.f32s(&[v])
    }
    pub(crate) fn tag(&mut self, t: &[u8; 4]) -> &mut Self {
        self.0.extend_from_slice(t);
        self
    }
    /// A NUL-padded string field of `n` bytes.
    pub(crate) fn text(&mut self, s: &str, n: usize) -> &mut Self {
        assert!(s.len() <= n);
        self.0.extend_from_slice(s.as_bytes());
        self.0.resize(self.0.len() + n - s.len(), 0);
        self
    }
    fn patch(&mut self, at: usize, v: usize) {
        self.0[at..at + 4].copy_from_slice(&(v as u32).to_le_bytes());
    }
    /// A record framed by an inclusive size (the size counts itself).
    pub(crate) fn sized(&mut self, f: impl FnOnce(&mut B)) -> &mut Self {
        let at = self.0.len();
        self.u32(0);
        f(self);
        let n = self.0.len() - at;
        self.patch(at, n);
        self
    }
    /// A chunk: tag, then the size of the payload.
    pub(crate) fn chunk(&mut self, tag: &[u8; 4], f: impl FnOnce(&mut B)) -> &mut Self {
        self.tag(tag);
        let at = self.0.len();
        self.u32(0);
        f(self);
        let n = self.0.len() - at - 4;
        self.patch(at, n);
        self
    }
}

/// Page "MDLKEYTRACK": tag, count, type, global sequence id (-1), then per key the time
/// and the floats of value (and in/out tangents when type > 1, included by the caller).
pub(crate) fn track(b: &mut B, tag: &[u8; 4], interpolation: u32, keys: &[(i32, &[f32])]) {
    b.tag(tag).u32(keys.len() as u32).u32(interpolation).i32(-1);
    for (t, v) in keys {
        b.i32(*t).f32s(v);
    }
}

/// Page "KGRT"/"KTAR": an MDLKEYTRACK of C4QuaternionCompressed (8 bytes per value).
pub(crate) fn rotations(b: &mut B, tag: &[u8; 4], interpolation: u32, keys: &[(i32, &[u64])]) {
    b.tag(tag).u32(keys.len() as u32).u32(interpolation).i32(-1);
    for (t, v) in keys {
        b.i32(*t);
        for q in *v {
            b.u64(*q);
        }
    }
}

/// Page "MDLSIMPLEKEYTRACK" of MDLINTKEY (KMTF, KRTX): tag, count, global sequence id,
/// then (time, value) pairs.
pub(crate) fn int_track(b: &mut B, tag: &[u8; 4], keys: &[(u32, u32)]) {
    b.tag(tag).u32(keys.len() as u32).i32(-1);
    for (t, v) in keys {
        b.u32(*t).u32(*v);
    }
}

/// Page "MDLGENOBJECT": size, name[0x50], object id, parent id, flags, KGTR KGRT KGSC.
pub(crate) fn object(
    b: &mut B,
    name: &str,
    id: u32,
    parent: i32,
    flags: u32,
    tracks: impl FnOnce(&mut B),
) {
    b.sized(|b| {
        b.text(name, 80).u32(id).i32(parent).u32(flags);
        tracks(b);
    });
}

/// CMdlBounds, radius first as the boar stores it.
pub(crate) fn bounds(b: &mut B, radius: f32, min: [f32; 3], max: [f32; 3]) {
    b.f32(radius).f32s(&min).f32s(&max);
}

/// q = (0.5, 0, 0, w) packed by the page's `Set`.
pub(crate) const HALF_X: u64 = 1 << 62;
/// q = (0, -0.25, 0.125, w) packed by the page's `Set`.
pub(crate) const Y_Z: u64 = (0x1C_0000 << 21) | 0x2_0000;
/// Object ids: bones 0-1, light 2, helper 3, attachment 4, PREM 5, PRE2 6, RIBB 7,
/// event 8, hit-test shapes 9-12.
pub(crate) const OBJECTS: u32 = 13;

/// A file with every chunk of the page, in the page's MDLBASE order. For 1400 it also has
/// an unknown chunk and three trailing bytes.
#[allow(
    clippy::too_many_lines,
    reason = "test code: the shape gate holds the sources only"
)]
pub(crate) fn hand_built(version: u32) -> Vec<u8> {
    let mut b = B::default();
    b.tag(b"MDLX");
    // VERS: uint32 version.
    b.chunk(b"VERS", |b| {
        b.u32(version);
    });
    // MODL: name[0x50], animationFile[0x104], bounds, blendTime, flags (one byte).
    b.chunk(b"MODL", |b| {
        b.text("Fixture", 80).text("", 260);
        bounds(b, 2.0, [-1.0, -1.0, 0.0], [1.0, 1.0, 2.0]);
        b.u32(150).u8(0);
    });
    // SEQS: numSeqs, then MDLSEQUENCESSECTION: name[0x50], time (start, end), movespeed,
    // flags, bounds, frequency, replay (min, max), blendTime.
    b.chunk(b"SEQS", |b| {
        b.u32(2);
        for (name, start, end, flags, freq) in
            [("Stand", 0, 1000, 0, 1.0), ("Death", 2000, 3000, 1, 0.0)]
        {
            b.text(name, 80).u32(start).u32(end).f32(0.0).u32(flags);
            bounds(b, 1.5, [-1.0, -1.0, 0.0], [1.0, 1.0, 1.5]);
            b.f32(freq).u32(1).u32(3).u32(150);
        }
    });
    // GLBS: uint32 lengths until the chunk ends.
    b.chunk(b"GLBS", |b| {
        b.u32(1000).u32(2500);
    });
    // MTLS: numMaterials, unused, MDLMATERIALSECTION: size, priorityPlane, numLayers,
    // MDLTEXLAYER: size, blendMode, flags, textureId, transformId, coordId, staticAlpha,
    // KMTA, KMTF.
    b.chunk(b"MTLS", |b| {
        b.u32(1).u32(0);
        b.sized(|b| {
            b.i32(0).u32(2);
            b.sized(|b| {
                b.u32(2).u32(0x10).i32(0).i32(0).i32(0).f32(1.0);
                track(b, b"KMTA", 1, &[(0, &[1.0]), (500, &[0.0])]);
                int_track(b, b"KMTF", &[(0, 0), (500, 1)]);
            });
            b.sized(|b| {
                b.u32(3).u32(0x1 | 0x4).i32(1).i32(-1).i32(-1).f32(0.5);
                // Two bytes that are no track: the layer's kept tail.
                b.u8(0xAB).u8(0xCD);
            });
        });
    });
    // TEXS: MDLTEXTURESECTION (replaceableId, image[0x104], flags) until the chunk ends.
    b.chunk(b"TEXS", |b| {
        b.u32(0).text("Textures\\Fixture.blp", 260).u32(3);
        b.u32(1).text("", 260).u32(0);
    });
    // TXAN: numTexAnims, MDLTEXANIMSECTION: size, KTAT, KTAR, KTAS.
    b.chunk(b"TXAN", |b| {
        b.u32(1).sized(|b| {
            track(
                b,
                b"KTAT",
                1,
                &[(0, &[0.0, 0.0, 0.0]), (1000, &[1.0, 0.0, 0.0])],
            );
            rotations(b, b"KTAR", 1, &[(0, &[HALF_X])]);
            track(b, b"KTAS", 0, &[(0, &[1.0, 1.0, 1.0])]);
        });
    });
    if version < 1500 {
        geosets_1400(&mut b);
    } else {
        geosets_1500(&mut b);
    }
    // GEOA: numGeoAnims, MDLGEOSETANIMSECTION: size, geosetId, staticAlpha, staticColor,
    // flags, KGAO, KGAC.
    b.chunk(b"GEOA", |b| {
        b.u32(1).sized(|b| {
            b.u32(0).f32(0.75).f32s(&[0.1, 0.2, 0.3]).u32(1);
            track(b, b"KGAO", 0, &[(0, &[1.0]), (2000, &[0.0])]);
            track(b, b"KGAC", 1, &[(0, &[1.0, 0.5, 0.25])]);
        });
    });
    // BONE: numBones, MDLBONESECTION: MDLGENOBJECT, geosetId, geosetAnimId.
    b.chunk(b"BONE", |b| {
        b.u32(2);
        object(b, "Root", 0, -1, 0, |b| {
            track(
                b,
                b"KGTR",
                1,
                &[(0, &[0.0, 0.0, 0.0]), (1000, &[0.0, 0.0, 1.0])],
            );
            // Hermite: value, in-tangent, out-tangent, all packed.
            rotations(
                b,
                b"KGRT",
                2,
                &[(0, &[HALF_X, Y_Z, 0]), (1000, &[Y_Z, 0, HALF_X])],
            );
            track(b, b"KGSC", 0, &[(0, &[1.0, 1.0, 1.0])]);
        });
        b.i32(-1).i32(-1);
        object(b, "Child", 1, 0, 0x8, |_| {});
        b.i32(0).i32(0);
    });
    // LITE: numLights, MDLLIGHTSECTION: size, MDLGENOBJECT, type, staticAttenStart,
    // staticAttenEnd, staticColor, staticIntensity, staticAmbColor, staticAmbIntensity,
    // KLAS KLAE KLAC KLAI KLBC KLBI KVIS.
    b.chunk(b"LITE", |b| {
        b.u32(1).sized(|b| {
            object(b, "Light", 2, 0, 0x100, |_| {});
            b.u32(0)
                .f32(80.0)
                .f32(200.0)
                .f32s(&[1.0, 0.9, 0.8])
                .f32(1.5);
            b.f32s(&[0.2, 0.2, 0.2]).f32(0.5);
            track(b, b"KLAS", 0, &[(0, &[80.0])]);
            track(b, b"KLAE", 0, &[(0, &[200.0])]);
            track(b, b"KLAC", 0, &[(0, &[1.0, 1.0, 1.0])]);
            track(b, b"KLAI", 0, &[(0, &[1.0])]);
            track(b, b"KLBC", 0, &[(0, &[0.1, 0.1, 0.1])]);
            track(b, b"KLBI", 0, &[(0, &[0.3])]);
            track(b, b"KVIS", 0, &[(0, &[1.0]), (2000, &[0.0])]);
        });
    });
    // HELP: count, MDLGENOBJECT.
    b.chunk(b"HELP", |b| {
        b.u32(1);
        object(b, "Helper", 3, -1, 0, |b| {
            track(
                b,
                b"KGSC",
                1,
                &[(0, &[1.0, 1.0, 1.0]), (500, &[2.0, 2.0, 2.0])],
            );
        });
    });
    if version < 1500 {
        // A chunk the page does not know: kept raw, in place.
        b.chunk(b"ZZZZ", |b| {
            b.u32(0xDEAD_BEEF).u8(7);
        });
    }
    // ATCH: numAttachments, unused, MDLATTACHMENTSECTION: size, MDLGENOBJECT,
    // attachmentId, padding (one byte), path[0x104], KVIS.
    b.chunk(b"ATCH", |b| {
        b.u32(1).u32(7).sized(|b| {
            object(b, "Helm", 4, 1, 0x400, |_| {});
            b.u32(11).u8(0xFF).text("", 260);
            track(b, b"KVIS", 0, &[(0, &[1.0])]);
        });
    });
    // PIVT: C3Vectors until the chunk ends, one per object id.
    b.chunk(b"PIVT", |b| {
        for i in 0..OBJECTS {
            b.f32s(&[i as f32, 0.0, 0.5]);
        }
    });
    // PREM: numEmitters, MDLPARTICLEEMITTER: size, MDLGENOBJECT, staticEmissionRate,
    // staticGravity, staticLongitude, staticLatitude, MDLPARTICLE (path[0x104],
    // staticLife, staticSpeed, KPEL, KPES), KPEE KPEG KPLN KPLT KVIS.
    b.chunk(b"PREM", |b| {
        b.u32(1).sized(|b| {
            object(b, "Smoke", 5, 0, 0x8000, |_| {});
            b.f32(10.0)
                .f32(-1.0)
                .f32(0.3)
                .f32(0.2)
                .text("Spells\\Smoke.mdx", 260);
            b.f32(2.0).f32(30.0);
            track(b, b"KPEL", 0, &[(0, &[2.0])]);
            track(b, b"KPES", 0, &[(0, &[30.0])]);
            track(b, b"KPEE", 1, &[(0, &[10.0]), (1000, &[0.0])]);
            track(b, b"KPEG", 0, &[(0, &[-1.0])]);
            track(b, b"KPLN", 0, &[(0, &[0.3])]);
            track(b, b"KPLT", 0, &[(0, &[0.2])]);
            track(b, b"KVIS", 0, &[(0, &[1.0])]);
        });
    });
    // CAMS: numCameras, MDLCAMERASECTION: size, name[0x50], pivot, fieldOfView, farClip,
    // nearClip, targetPivot, KCTR KCRL KVIS KTTR.
    b.chunk(b"CAMS", |b| {
        b.u32(1).sized(|b| {
            b.text("Portrait", 80)
                .f32s(&[2.0, 0.0, 1.0])
                .f32(0.950_021_5);
            b.f32(27.777_779).f32(0.222_222_22).f32s(&[0.0, 0.0, 1.0]);
            track(b, b"KCTR", 1, &[(0, &[0.0, 0.0, 0.0])]);
            // Bezier: value, in-tangent, out-tangent.
            track(b, b"KCRL", 3, &[(0, &[0.1, 0.0, 0.2])]);
            track(b, b"KVIS", 0, &[(0, &[1.0])]);
            track(b, b"KTTR", 0, &[(0, &[0.0, 0.0, 0.5])]);
        });
    });
    // EVTS: numEventObjs, MDLEVENTSECTION: size, MDLGENOBJECT, KEVT (MDLSIMPLEKEYTRACK
    // of MDLEVENTKEY: count, globalSeqId, times).
    b.chunk(b"EVTS", |b| {
        b.u32(1).sized(|b| {
            object(b, "$DTH", 8, -1, 0x200, |_| {});
            b.tag(b"KEVT").u32(2).i32(-1).i32(2100).i32(2900);
        });
    });
    emitter2(&mut b);
    hit_test_shapes(&mut b);
    ribbon(&mut b);
    // CLID: VRTX (count, C3Vectors), TRI (count, uint16s), NRMS (count, C3Vectors).
    b.chunk(b"CLID", |b| {
        b.tag(b"VRTX").u32(4);
        for v in [
            [0.0, 0.0, 0.0],
            [1.0, 0.0, 0.0],
            [1.0, 1.0, 0.0],
            [0.0, 1.0, 0.0],
        ] {
            b.f32s(&v);
        }
        b.tag(b"TRI ").u32(6);
        for i in [0u16, 1, 2, 0, 2, 3] {
            b.u16(i);
        }
        b.tag(b"NRMS").u32(2).f32s(&[0.0, 0.0, 1.0, 0.0, 0.0, 1.0]);
    });
    if version < 1500 {
        b.u8(1).u8(2).u8(3);
    }
    b.0
}

/// GEOS (≤ v1400): numGeosets, MDLGEOSETSECTION: size, VRTX NRMS UVAS PTYP PCNT PVTX GNDX
/// MTGC MATS BIDX BWGT, materialId, selectionGroup, flags, bounds, numSeqBounds,
/// seqBounds.
fn geosets_1400(b: &mut B) {
    b.chunk(b"GEOS", |b| {
        b.u32(1).sized(|b| {
            b.tag(b"VRTX").u32(4);
            b.f32s(&[0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 1.0, 1.0, 0.0, 0.0, 1.0, 0.0]);
            b.tag(b"NRMS").u32(4);
            for _ in 0..4 {
                b.f32s(&[0.0, 0.0, 1.0]);
            }
            // UVAS: the number of UV sets; count x vertices pairs follow.
            b.tag(b"UVAS")
                .u32(1)
                .f32s(&[0.0, 0.0, 1.0, 0.0, 1.0, 1.0, 0.0, 1.0]);
            // PTYP: FACETYPE is one byte; 4 = triangles.
            b.tag(b"PTYP").u32(1).u8(4);
            b.tag(b"PCNT").u32(1).u32(6);
            b.tag(b"PVTX").u32(6);
            for i in [0u16, 1, 2, 0, 2, 3] {
                b.u16(i);
            }
            b.tag(b"GNDX").u32(4).u8(0).u8(0).u8(1).u8(1);
            b.tag(b"MTGC").u32(2).u32(1).u32(2);
            b.tag(b"MATS").u32(3).u32(0).u32(0).u32(1);
            b.tag(b"BIDX").u32(4).u32(0).u32(0).u32(0x0100).u32(0x0100);
            b.tag(b"BWGT")
                .u32(4)
                .u32(0xFF)
                .u32(0xFF)
                .u32(0x7F80)
                .u32(0x7F80);
            b.u32(0).u32(1).u32(1);
            bounds(b, 1.0, [0.0, 0.0, 0.0], [1.0, 1.0, 0.0]);
            b.u32(2);
            bounds(b, 1.0, [0.0, 0.0, 0.0], [1.0, 1.0, 0.0]);
            bounds(b, 0.5, [0.0, 0.0, 0.0], [0.5, 0.5, 0.0]);
        });
    });
}

/// One MDLVERTEX: position, boneWeights[4], boneIndices[4], normal, texCoords[2].
fn vertex(b: &mut B, pos: [f32; 3], weights: [u8; 4], bones: [u8; 4], uv: [f32; 4]) {
    b.f32s(&pos);
    b.0.extend_from_slice(&weights);
    b.0.extend_from_slice(&bones);
    b.f32s(&[0.0, 0.0, 1.0]).f32s(&uv);
}

/// GEOS (v1500): numGeosets, the MDLGEOSETSECTIONs (materialId, boundsCentre,
/// boundsRadius, selectionGroup, geosetIndex, flags, 'PVTX' vertexCount, 'PTYP'
/// primitiveTypesCount, 'PVTX' primitiveVerticesCount, unknown1, unknown2), then the
/// MDLBATCHes (vertices, primitiveTypes, unknown, numPrimVertices, maxVertex,
/// primitiveVertices, padding to a multiple of 8 indices).
fn geosets_1500(b: &mut B) {
    b.chunk(b"GEOS", |b| {
        b.u32(2);
        for (material, verts, indices, index) in [(0, 4, 6, 0), (1, 3, 3, 1)] {
            b.u32(material)
                .f32s(&[0.5, 0.5, 0.0])
                .f32(0.75)
                .u32(0)
                .u32(index)
                .u32(0);
            b.tag(b"PVTX")
                .u32(verts)
                .tag(b"PTYP")
                .u32(1)
                .tag(b"PVTX")
                .u32(indices);
            b.u32(0).u32(0);
        }
        // Batch 0: four vertices; weights (255), (255), (128, 127), none.
        vertex(
            b,
            [0.0, 0.0, 0.0],
            [255, 0, 0, 0],
            [0, 0, 0, 0],
            [0.0, 0.0, 0.0, 0.0],
        );
        vertex(
            b,
            [1.0, 0.0, 0.0],
            [255, 0, 0, 0],
            [1, 0, 0, 0],
            [1.0, 0.0, 0.0, 0.0],
        );
        vertex(
            b,
            [1.0, 1.0, 0.0],
            [128, 127, 0, 0],
            [0, 1, 0, 0],
            [1.0, 1.0, 0.0, 0.0],
        );
        vertex(
            b,
            [0.0, 1.0, 0.0],
            [0, 0, 0, 0],
            [1, 0, 0, 0],
            [0.0, 1.0, 0.0, 0.0],
        );
        b.u32(3).u32(0).u32(6).u32(3);
        for i in [0u16, 1, 2, 0, 2, 3] {
            b.u16(i);
        }
        b.u16(0).u16(0);
        // Batch 1: three vertices, one with a second UV pair; 3 indices, 5 padding
        // entries (one of them not zero: kept as found).
        vertex(
            b,
            [0.0, 0.0, 1.0],
            [255, 0, 0, 0],
            [0, 0, 0, 0],
            [0.0, 0.0, 0.5, 0.5],
        );
        vertex(
            b,
            [1.0, 0.0, 1.0],
            [255, 0, 0, 0],
            [0, 0, 0, 0],
            [1.0, 0.0, 0.0, 0.0],
        );
        vertex(
            b,
            [0.0, 1.0, 1.0],
            [255, 0, 0, 0],
            [0, 0, 0, 0],
            [0.0, 1.0, 0.0, 0.0],
        );
        b.u32(3).u32(0).u32(3).u32(2);
        for i in [0u16, 1, 2, 0, 0, 9, 0, 0] {
            b.u16(i);
        }
    });
}

/// PRE2: numEmitters, MDLPARTICLEEMITTER2 (page order, 795 fixed bytes after the object
/// and before the spline points), then KVIS KP2S KP2R KP2L KPLN KP2G KLIF KP2E KP2W KP2N
/// KP2Z.
fn emitter2(b: &mut B) {
    b.chunk(b"PRE2", |b| {
        b.u32(1).sized(|b| {
            object(
                b,
                "Sparks",
                6,
                0,
                0x800 | 0x8000 | 0x800_0000 | 0x4000,
                |_| {},
            );
            // emitterSize: the fixed part plus two spline points.
            b.u32(795 + 24).u32(3);
            // speed, variation, latitude, longitude, gravity, zsource, life, emission
            // rate, length, width.
            b.f32s(&[50.0, 0.1, 0.5, 0.25, 9.8, 1.0, 1.5, 20.0, 3.0, 4.0]);
            b.u32(2).u32(4).u32(2).f32(0.5).f32(0.4);
            b.f32s(&[1.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 1.0]);
            b.u8(255).u8(128).u8(0).f32s(&[1.0, 2.0, 3.0]);
            for i in 0..12 {
                b.u32(i);
            }
            b.u32(1).i32(1).i32(2).u32(0);
            b.text("Spells\\Spark.mdx", 260).text("", 260);
            b.f32s(&[10.0, 1.0, 0.5, 1.5, 0.9]);
            b.f32s(&[
                -1.0, 1.0, -2.0, 2.0, -3.0, 3.0, 0.1, 0.2, 1.0, 0.0, 0.0, 0.5,
            ]);
            b.f32s(&[1.0, 2.0, 3.0, 4.0]);
            b.u32(2).f32s(&[0.0, 0.0, 0.0, 1.0, 1.0, 1.0]).u32(1);
            for tag in [b"KVIS", b"KP2S", b"KP2R", b"KP2L", b"KPLN", b"KP2G"] {
                track(b, tag, 0, &[(0, &[1.0])]);
            }
            for tag in [b"KLIF", b"KP2E", b"KP2W", b"KP2N", b"KP2Z"] {
                track(b, tag, 1, &[(0, &[1.0]), (100, &[2.0])]);
            }
        });
    });
}

/// HTST: numHitTestShapes, MDLHITTESTSHAPE: size, MDLGENOBJECT, type (one byte), then
/// MDLBOX (min, max), MDLCYLINDER (base, height, radius), MDLSPHERE (center, radius) or
/// MDLPLANE (length, width).
fn hit_test_shapes(b: &mut B) {
    b.chunk(b"HTST", |b| {
        b.u32(4);
        b.sized(|b| {
            object(b, "Box", 9, 0, 0x1000, |_| {});
            b.u8(0).f32s(&[-1.0, -1.0, 0.0, 1.0, 1.0, 2.0]);
        });
        b.sized(|b| {
            object(b, "Cylinder", 10, 0, 0x1000, |_| {});
            b.u8(1).f32s(&[0.0, 0.0, 0.0, 2.0, 0.5]);
        });
        b.sized(|b| {
            object(b, "Sphere", 11, 0, 0x1000, |_| {});
            b.u8(2).f32s(&[0.0, 0.0, 1.0, 0.75]);
        });
        b.sized(|b| {
            object(b, "Plane", 12, 0, 0x1000, |_| {});
            b.u8(3).f32s(&[4.0, 2.0]);
        });
    });
}

/// RIBB: numEmitters, MDLRIBBONEMITTER: size, MDLGENOBJECT, emitterSize,
/// staticHeightAbove, staticHeightBelow, staticAlpha, staticColor, edgeLifetime,
/// staticTextureSlot, edgesPerSecond, textureRows, textureCols, materialId, gravity,
/// KRHA KRHB KRAL KRCO KRTX KVIS.
fn ribbon(b: &mut B) {
    b.chunk(b"RIBB", |b| {
        b.u32(1).sized(|b| {
            object(b, "Trail", 7, 0, 0x2000, |_| {});
            b.u32(56)
                .f32(10.0)
                .f32(5.0)
                .f32(1.0)
                .f32s(&[1.0, 1.0, 1.0])
                .f32(0.5);
            b.u32(0).u32(30).u32(1).u32(1).u32(0).f32(0.0);
            track(b, b"KRHA", 0, &[(0, &[10.0])]);
            track(b, b"KRHB", 0, &[(0, &[5.0])]);
            track(b, b"KRAL", 0, &[(0, &[1.0])]);
            track(b, b"KRCO", 0, &[(0, &[1.0, 0.5, 0.0])]);
            int_track(b, b"KRTX", &[(0, 0)]);
            track(b, b"KVIS", 0, &[(0, &[1.0])]);
        });
    });
}

/// A Warcraft III-shaped file that claims an alpha version number: a 372-byte MODL and
/// two 132-byte SEQS records, no HTST (more chunks can follow).
pub(crate) fn reforged_header(version: u32) -> B {
    let mut b = B::default();
    b.tag(b"MDLX").chunk(b"VERS", |b| {
        b.u32(version);
    });
    b.chunk(b"MODL", |b| {
        b.text("Reforged", 80).text("", 260);
        bounds(b, 1.0, [0.0; 3], [1.0; 3]);
        b.u32(150);
    });
    b.chunk(b"SEQS", |b| {
        for name in ["Stand", "Walk"] {
            b.text(name, 80).u32(0).u32(1000).f32(0.0).u32(0);
            b.f32(0.0).u32(0);
            bounds(b, 1.0, [0.0; 3], [1.0; 3]);
        }
    });
    b
}
