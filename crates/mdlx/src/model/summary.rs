//! Counts of every record kind, and a measure of what was kept without being understood.

use super::Model;

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
    /// Counts of every record kind (and of vertices, face indices, UV sets and layers).
    pub fn counts(&self) -> Counts {
        let sum = |f: &dyn Fn(&super::Geoset) -> usize| self.geosets.iter().map(f).sum::<usize>();
        let entries = vec![
            ("sequences", self.sequences.len()),
            ("global_sequences", self.global_sequences.len()),
            ("textures", self.textures.len()),
            ("materials", self.materials.len()),
            (
                "layers",
                self.materials.iter().map(|m| m.layers.len()).sum(),
            ),
            ("texture_animations", self.texture_animations.len()),
            ("geosets", self.geosets.len()),
            ("vertices", sum(&|g| g.vertices.len())),
            ("face_indices", sum(&|g| g.faces.len())),
            ("uv_sets", sum(&|g| g.uv_sets.len())),
            ("geoset_animations", self.geoset_animations.len()),
            ("bones", self.bones.len()),
            ("lights", self.lights.len()),
            ("helpers", self.helpers.len()),
            ("attachments", self.attachments.len()),
            ("pivots", self.pivot_points.len()),
            ("particle_emitters", self.particle_emitters.len()),
            ("particle_emitters2", self.particle_emitters2.len()),
            ("popcorn_emitters", self.popcorn_emitters.len()),
            ("ribbon_emitters", self.ribbon_emitters.len()),
            ("cameras", self.cameras.len()),
            ("event_objects", self.event_objects.len()),
            ("collision_shapes", self.collision_shapes.len()),
            ("face_effects", self.face_effects.len()),
            ("bind_poses", self.bind_poses.len()),
            ("unknown_chunks", self.unknown_chunks.len()),
        ];
        Counts { entries }
    }

    /// Bytes kept without being understood: unknown chunks, the tails of records and
    /// chunks, and bytes after the last chunk. Zero for a file this crate fully decodes.
    pub fn opaque_bytes(&self) -> usize {
        let tails = |ts: &mut dyn Iterator<Item = usize>| ts.sum::<usize>();
        let nodes = self.nodes().map(|n| n.tail.len()).sum::<usize>();
        let layers = self
            .materials
            .iter()
            .flat_map(|m| &m.layers)
            .map(|l| l.tail.len())
            .sum::<usize>();
        let layout = self
            .layout
            .chunks
            .iter()
            .map(|e| match e {
                super::LayoutEntry::Known { tag, tail, .. }
                    if *tag != crate::format::chunk::VERS =>
                {
                    tail.len()
                }
                _ => 0,
            })
            .sum::<usize>();
        nodes
            + layers
            + layout
            + self.layout.trailing.len()
            + self.info.tail.len()
            + self
                .unknown_chunks
                .iter()
                .map(|u| u.data.len() + 8)
                .sum::<usize>()
            + tails(&mut self.materials.iter().map(|m| m.tail.len()))
            + tails(&mut self.geosets.iter().map(|g| g.tail.len()))
            + tails(&mut self.texture_animations.iter().map(|t| t.tail.len()))
            + tails(&mut self.geoset_animations.iter().map(|t| t.tail.len()))
            + tails(&mut self.lights.iter().map(|t| t.tail.len()))
            + tails(&mut self.attachments.iter().map(|t| t.tail.len()))
            + tails(&mut self.particle_emitters.iter().map(|t| t.tail.len()))
            + tails(&mut self.particle_emitters2.iter().map(|t| t.tail.len()))
            + tails(&mut self.popcorn_emitters.iter().map(|t| t.tail.len()))
            + tails(&mut self.ribbon_emitters.iter().map(|t| t.tail.len()))
            + tails(&mut self.cameras.iter().map(|t| t.tail.len()))
    }

    /// Every node of the model, in the order of the chunks that hold them.
    pub fn nodes(&self) -> impl Iterator<Item = &super::Node> {
        let b = self.bones.iter().map(|x| &x.node);
        let l = self.lights.iter().map(|x| &x.node);
        let h = self.helpers.iter().map(|x| &x.node);
        let a = self.attachments.iter().map(|x| &x.node);
        let p = self.particle_emitters.iter().map(|x| &x.node);
        let p2 = self.particle_emitters2.iter().map(|x| &x.node);
        let c = self.popcorn_emitters.iter().map(|x| &x.node);
        let r = self.ribbon_emitters.iter().map(|x| &x.node);
        let e = self.event_objects.iter().map(|x| &x.node);
        let s = self.collision_shapes.iter().map(|x| &x.node);
        b.chain(l)
            .chain(h)
            .chain(a)
            .chain(p)
            .chain(p2)
            .chain(c)
            .chain(r)
            .chain(e)
            .chain(s)
    }
}
