//! The one binary buffer of an exported glTF, and the accessors that view it.

use gltf_json::accessor::{ComponentType, GenericComponentType, Type};
use gltf_json::buffer::{Target, View};
use gltf_json::validation::{Checked, USize64};
use gltf_json::{Accessor, Index, Root, Value};

/// Bytes of the buffer being built.
#[derive(Default)]
pub(crate) struct Bin {
    /// The buffer's contents so far.
    pub(crate) data: Vec<u8>,
}

/// Numbers an accessor can hold.
pub(crate) trait Component: Copy {
    /// glTF's component type.
    const TYPE: ComponentType;
    /// Appends the little-endian bytes.
    fn put(self, out: &mut Vec<u8>);
    /// As JSON, for min and max.
    fn json(self) -> Value;
    /// As a number, to compare.
    fn num(self) -> f64;
}

macro_rules! component {
    ($t:ty, $kind:ident) => {
        impl Component for $t {
            const TYPE: ComponentType = ComponentType::$kind;
            fn put(self, out: &mut Vec<u8>) {
                out.extend_from_slice(&self.to_le_bytes());
            }
            fn json(self) -> Value {
                Value::from(self)
            }
            fn num(self) -> f64 {
                f64::from(self)
            }
        }
    };
}

component!(f32, F32);
component!(u8, U8);
component!(u16, U16);
component!(u32, U32);

fn components(t: Type) -> usize {
    match t {
        Type::Scalar => 1,
        Type::Vec2 => 2,
        Type::Vec3 => 3,
        Type::Vec4 | Type::Mat2 => 4,
        Type::Mat3 => 9,
        Type::Mat4 => 16,
    }
}

impl Bin {
    /// A buffer view over `bytes`, appended at a 4-byte boundary.
    pub(crate) fn view(
        &mut self,
        root: &mut Root,
        bytes: &[u8],
        target: Option<Target>,
    ) -> Index<View> {
        while self.data.len() % 4 != 0 {
            self.data.push(0);
        }
        let offset = self.data.len();
        self.data.extend_from_slice(bytes);
        root.push(View {
            buffer: Index::new(0),
            byte_length: USize64::from(bytes.len()),
            byte_offset: Some(USize64::from(offset)),
            byte_stride: None,
            name: None,
            target: target.map(Checked::Valid),
            extensions: None,
            extras: Default::default(),
        })
    }

    /// An accessor of `values` (`type_`'s components per element, flattened), in a view of
    /// its own. `bounds` adds min and max (required for positions and animation inputs).
    /// `normalized` marks integer weights as fractions of their maximum.
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn accessor<C: Component>(
        &mut self,
        root: &mut Root,
        values: &[C],
        type_: Type,
        target: Option<Target>,
        bounds: bool,
        normalized: bool,
    ) -> Index<Accessor> {
        let n = components(type_);
        let mut bytes = Vec::with_capacity(std::mem::size_of_val(values));
        for v in values {
            v.put(&mut bytes);
        }
        let view = self.view(root, &bytes, target);
        let (min, max) = if bounds && !values.is_empty() {
            let mut lo: Vec<C> = values[..n].to_vec();
            let mut hi = lo.clone();
            for e in values.chunks_exact(n) {
                for k in 0..n {
                    if less(e[k], lo[k]) {
                        lo[k] = e[k];
                    }
                    if less(hi[k], e[k]) {
                        hi[k] = e[k];
                    }
                }
            }
            (
                Some(Value::from(lo.iter().map(|c| c.json()).collect::<Vec<_>>())),
                Some(Value::from(hi.iter().map(|c| c.json()).collect::<Vec<_>>())),
            )
        } else {
            (None, None)
        };
        root.push(Accessor {
            buffer_view: Some(view),
            byte_offset: None,
            count: USize64::from(values.len() / n),
            component_type: Checked::Valid(GenericComponentType(C::TYPE)),
            extensions: None,
            extras: Default::default(),
            type_: Checked::Valid(type_),
            min,
            max,
            name: None,
            normalized,
            sparse: None,
        })
    }
}

fn less<C: Component>(a: C, b: C) -> bool {
    a.num() < b.num()
}
