//! Counts of every record kind, and a measure of what was kept without being understood.

use super::Model;

/// The field name and record count of every registry row.
macro_rules! row_counts {
    (($m:ident)
        $($t:ident $field:ident [$ty:ty] $name:literal $shape:ident $(($n:expr))? $mdl:ident
        $(($blk:literal))? $node:ident $(($nk:ident))?,)*) => {
        [$((stringify!($field), $m.$field.len()),)*]
    };
}

/// The opaque bytes of every registry row's records.
macro_rules! opaque_sum {
    (($m:ident)
        $($t:ident $field:ident [$ty:ty] $name:literal $shape:ident $(($n:expr))? $mdl:ident
        $(($blk:literal))? $node:ident $(($nk:ident))?,)*) => {
        0 $(+ $m.$field.iter().map(super::declare::Opaque::opaque_bytes).sum::<usize>())*
    };
}

/// The nodes of every registry row marked `node`, chained in row order.
macro_rules! node_chain {
    (($m:ident)
        $($t:ident $field:ident [$ty:ty] $name:literal $shape:ident $(($n:expr))? $mdl:ident
        $(($blk:literal))? $node:ident $(($nk:ident))?,)*) => {{
        let it = std::iter::empty();
        $( let it = node_chain!(@row it $m $field $node); )*
        it
    }};
    (@row $it:ident $m:ident $field:ident node) => { $it.chain($m.$field.iter().map(|x| &x.node)) };
    (@row $it:ident $m:ident $field:ident $other:ident) => { $it };
}

/// How many of each record kind a model holds.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Counts {
    /// Name and value of each count, in a fixed order.
    pub entries: Vec<(&'static str, usize)>,
}

impl Counts {
    /// The count called `name`, if any.
    pub fn get(&self, name: &str) -> Option<usize> {
        self.entries
            .iter()
            .find(|(n, _)| *n == name)
            .map(|(_, v)| *v)
    }
}

impl Model {
    /// The box around the geosets' vertices in the bind pose (the finite ones; all zero
    /// without any).
    pub fn bind_extent(&self) -> super::Extent {
        let finite = |v: &&[f32; 3]| v.iter().all(|c| c.is_finite());
        super::Extent::around(
            self.geosets
                .iter()
                .flat_map(|g| &g.vertices)
                .filter(finite)
                .copied(),
        )
    }

    /// The size of the model: the diagonal of [`Self::bind_extent`], or 1 for a model
    /// without vertices (what the optimizer's and the conversions' tolerances are fractions
    /// of).
    pub fn size(&self) -> f32 {
        let e = self.bind_extent();
        let d = (0..3)
            .map(|k| (e.max[k] - e.min[k]).powi(2))
            .sum::<f32>()
            .sqrt();
        if d.is_finite() && d > 0.0 {
            d
        } else {
            1.0
        }
    }

    /// Counts of every record kind (and of vertices, face indices, UV sets and layers).
    pub fn counts(&self) -> Counts {
        let sum = |f: &dyn Fn(&super::Geoset) -> usize| self.geosets.iter().map(f).sum::<usize>();
        let rows: [(&'static str, usize); super::kinds::KINDS] =
            super::for_each_kind!(row_counts!(self));
        let mut entries = Vec::with_capacity(rows.len() + 5);
        for i in super::MDL_ORDER {
            let (field, n) = rows[i];
            // `info` has always called the pivot list `pivots`; scripts read the key.
            let label = if field == "pivot_points" {
                "pivots"
            } else {
                field
            };
            entries.push((label, n));
            match field {
                "materials" => entries.push((
                    "layers",
                    self.materials.iter().map(|m| m.layers.len()).sum(),
                )),
                "geosets" => entries.extend([
                    ("vertices", sum(&|g| g.vertices.len())),
                    ("face_indices", sum(&|g| g.faces.len())),
                    ("uv_sets", sum(&|g| g.uv_sets.len())),
                ]),
                _ => {}
            }
        }
        entries.push(("unknown_chunks", self.unknown_chunks.len()));
        Counts { entries }
    }

    /// Bytes kept without being understood: unknown chunks, the tails of records and
    /// chunks, and bytes after the last chunk. Zero for a file this crate fully decodes.
    pub fn opaque_bytes(&self) -> usize {
        let nodes = self.nodes().map(|n| n.tail.len()).sum::<usize>();
        let layout = self
            .layout
            .chunks
            .iter()
            .map(|e| match e {
                super::LayoutEntry::Known { tag, tail, .. } if *tag != crate::spec::chunk::VERS => {
                    tail.len()
                }
                _ => 0,
            })
            .sum::<usize>();
        let records: usize = super::for_each_kind!(opaque_sum!(self));
        nodes
            + records
            + layout
            + self.layout.trailing.len()
            + self.info.tail.len()
            + self
                .unknown_chunks
                .iter()
                .map(|u| u.data.len() + 8)
                .sum::<usize>()
    }

    /// Every node of the model, in the order of the chunks that hold them.
    pub fn nodes(&self) -> impl Iterator<Item = &super::Node> {
        super::for_each_kind!(node_chain!(self))
    }

    /// Every node of the model, mutably: bones, lights, helpers, attachments, the emitters,
    /// event objects, collision shapes.
    pub fn nodes_mut(&mut self) -> Vec<&mut super::Node> {
        let m = self;
        let mut v: Vec<&mut super::Node> = Vec::new();
        v.extend(m.bones.iter_mut().map(|x| &mut x.node));
        v.extend(m.lights.iter_mut().map(|x| &mut x.node));
        v.extend(m.helpers.iter_mut().map(|x| &mut x.node));
        v.extend(m.attachments.iter_mut().map(|x| &mut x.node));
        v.extend(m.particle_emitters.iter_mut().map(|x| &mut x.node));
        v.extend(m.particle_emitters2.iter_mut().map(|x| &mut x.node));
        v.extend(m.popcorn_emitters.iter_mut().map(|x| &mut x.node));
        v.extend(m.ribbon_emitters.iter_mut().map(|x| &mut x.node));
        v.extend(m.event_objects.iter_mut().map(|x| &mut x.node));
        v.extend(m.collision_shapes.iter_mut().map(|x| &mut x.node));
        v
    }
}
