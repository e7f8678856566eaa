//! Accessors: read through their buffer views (strides, column padding, sparse values),
//! with every range checked.

use super::*;

/// An accessor's components, tightly packed (no stride, no column padding), little-endian.
pub(super) struct Raw {
    pub(super) path: String,
    pub(super) component: ComponentType,
    pub(super) normalized: bool,
    pub(super) components: usize,
    pub(super) bytes: Vec<u8>,
}

/// How one element of an accessor lies in memory.
#[derive(Clone, Copy, Debug)]
pub(super) struct Layout {
    /// Bytes per component.
    pub(super) size: usize,
    /// Components per element.
    pub(super) components: usize,
    /// Rows per column (matrices), else `components`.
    pub(super) rows: usize,
    /// Bytes from one column to the next (4-byte aligned for matrices).
    pub(super) column_stride: usize,
    /// Bytes per element, padding included.
    pub(super) element: usize,
}

impl Layout {
    pub(super) fn new(component: ComponentType, kind: Type) -> Layout {
        let size = component.size();
        let components = kind.multiplicity();
        let rows = match kind {
            Type::Mat2 => 2,
            Type::Mat3 => 3,
            Type::Mat4 => 4,
            _ => components,
        };
        let columns = components / rows;
        let column_stride = if columns > 1 {
            (rows * size).next_multiple_of(4)
        } else {
            rows * size
        };
        Layout {
            size,
            components,
            rows,
            column_stride,
            element: columns * column_stride,
        }
    }

    /// Bytes per element without padding.
    pub(super) fn packed(&self) -> usize {
        self.components * self.size
    }

    /// Copies one element from the start of `src` (laid out with padding) into `dst`
    /// (packed).
    pub(super) fn unpack(&self, src: &[u8], dst: &mut [u8]) {
        for k in 0..self.components {
            let from = (k / self.rows) * self.column_stride + (k % self.rows) * self.size;
            dst[k * self.size..(k + 1) * self.size].copy_from_slice(&src[from..from + self.size]);
        }
    }
}

/// Where an accessor read is: the reference that led to it (`at`) and the objects followed
/// from there (`accessors[3] > bufferViews[1]`), shown as `at (chain)`.
#[derive(Clone, Debug)]
pub(super) struct Trail<'a> {
    pub(super) at: &'a str,
    pub(super) chain: String,
}

impl<'a> Trail<'a> {
    pub(super) fn new(at: &'a str) -> Trail<'a> {
        Trail {
            at,
            chain: String::new(),
        }
    }

    /// Followed on to `object` (`bufferViews[1]`).
    pub(super) fn then(&self, object: &str) -> Trail<'a> {
        let sep = if self.chain.is_empty() { "" } else { " > " };
        Trail {
            at: self.at,
            chain: format!("{}{sep}{object}", self.chain),
        }
    }

    /// Down to `field` of the last object (`sparse.indices`).
    pub(super) fn field(&self, field: &str) -> Trail<'a> {
        Trail {
            at: self.at,
            chain: format!("{}.{field}", self.chain),
        }
    }

    pub(super) fn path(&self) -> String {
        match (self.at.is_empty(), self.chain.is_empty()) {
            (_, true) => self.at.to_owned(),
            (true, false) => self.chain.clone(),
            (false, false) => format!("{} ({})", self.at, self.chain),
        }
    }

    pub(super) fn error(&self, message: impl Into<String>) -> GltfError {
        GltfError::new(self.path(), message)
    }
}

impl Source {
    /// The bytes of buffer view `index` and their offset in its buffer; `at` names the
    /// reference that led here, for errors (see the module docs for the form of paths).
    pub fn view_bytes(&self, index: usize, at: &str) -> Result<(&[u8], u64), GltfError> {
        self.view(index, &Trail::new(at))
            .map(|(bytes, start, _)| (bytes, start))
    }

    /// View `index`'s bytes, their offset in the buffer, and its stride.
    pub(super) fn view(
        &self,
        index: usize,
        trail: &Trail,
    ) -> Result<(&[u8], u64, Option<usize>), GltfError> {
        let trail = trail.then(&format!("bufferViews[{index}]"));
        let Some(view) = self.root.buffer_views.get(index) else {
            let n = self.root.buffer_views.len();
            return Err(trail.error(format!("no such buffer view (the file has {n})")));
        };
        let b = view.buffer.value();
        let Some(buffer) = self.buffers.get(b) else {
            return Err(trail.error(format!("buffers[{b}] does not exist")));
        };
        let start = view.byte_offset.map_or(0, |o| o.0);
        let len = view.byte_length.0;
        match start.checked_add(len) {
            Some(end) if end <= buffer.len() as u64 => Ok((
                &buffer[start as usize..end as usize],
                start,
                view.byte_stride.map(|s| s.0),
            )),
            _ => Err(trail
                .error(format!(
                    "byteOffset {start} + byteLength {len} runs past the end of buffers[{b}] \
                     ({} bytes)",
                    buffer.len()
                ))
                .at(start)),
        }
    }

    /// Accessor `index`'s components, packed, sparse values applied.
    pub(super) fn read_raw(&self, index: usize, at: &str) -> Result<Raw, GltfError> {
        let Some(accessor) = self.root.accessors.get(index) else {
            let n = self.root.accessors.len();
            return Err(GltfError::new(
                at,
                format!("accessors[{index}] does not exist (the file has {n})"),
            ));
        };
        let trail = Trail::new(at).then(&format!("accessors[{index}]"));
        let (Checked::Valid(component), Checked::Valid(kind)) =
            (accessor.component_type, accessor.type_)
        else {
            return Err(trail.error("invalid componentType or type"));
        };
        let layout = Layout::new(component.0, kind);
        let count = accessor.count.0;
        let total = count
            .checked_mul(layout.element as u64)
            .filter(|&t| t <= isize::MAX as u64)
            .ok_or_else(|| trail.error(format!("count {count} overflows")))?;
        let mut bytes = match accessor.buffer_view {
            Some(view) => {
                let offset = accessor.byte_offset.map_or(0, |o| o.0);
                self.read_elements(view.value(), offset, count, false, layout, &trail)?
                    .0
            }
            None => {
                let backed: u64 = self.buffers.iter().map(|b| b.len() as u64).sum();
                if total > backed.max(ZERO_ACCESSOR_FLOOR) {
                    return Err(trail.error(format!(
                        "count {count} of {}-byte elements without a bufferView is more than \
                         the file's buffers hold ({backed} bytes)",
                        layout.element
                    )));
                }
                vec![0; count as usize * layout.packed()]
            }
        };
        if let Some(sparse) = &accessor.sparse {
            self.apply_sparse(sparse, count, layout, &mut bytes, &trail.field("sparse"))?;
        }
        Ok(Raw {
            path: trail.path(),
            component: component.0,
            normalized: accessor.normalized,
            components: layout.components,
            bytes,
        })
    }

    /// `count` elements of `layout` from byte `offset` of view `view`, packed, and the
    /// offset in the buffer where they start. `packed_source`: the elements are tightly
    /// packed whatever the view's stride (sparse sections).
    pub(super) fn read_elements(
        &self,
        view: usize,
        offset: u64,
        count: u64,
        packed_source: bool,
        layout: Layout,
        trail: &Trail,
    ) -> Result<(Vec<u8>, u64), GltfError> {
        let (data, view_start, view_stride) = self.view(view, trail)?;
        let trail = trail.then(&format!("bufferViews[{view}]"));
        let stride = match view_stride {
            Some(s) if !packed_source => s,
            _ => layout.element,
        };
        if stride < layout.element {
            return Err(trail.error(format!(
                "byteStride {stride} is smaller than an element ({} bytes)",
                layout.element
            )));
        }
        let span = match count.checked_sub(1) {
            None => Some(0),
            Some(last) => last
                .checked_mul(stride as u64)
                .and_then(|n| n.checked_add(layout.element as u64)),
        };
        let end = span.and_then(|n| n.checked_add(offset));
        let start = view_start.saturating_add(offset);
        let Some(end) = end.filter(|&n| n <= data.len() as u64) else {
            return Err(trail
                .error(format!(
                    "{count} elements of {} bytes (stride {stride}) from byteOffset {offset} run \
                     past the end of the view ({} bytes)",
                    layout.element,
                    data.len()
                ))
                .at(start));
        };
        let data = &data[offset as usize..end as usize];
        let packed = layout.packed();
        let mut out = vec![0; count as usize * packed];
        for (e, dst) in out.chunks_exact_mut(packed).enumerate() {
            layout.unpack(&data[e * stride..], dst);
        }
        Ok((out, start))
    }

    /// Overwrites the elements a sparse accessor names.
    pub(super) fn apply_sparse(
        &self,
        sparse: &gltf_json::accessor::sparse::Sparse,
        count: u64,
        layout: Layout,
        bytes: &mut [u8],
        trail: &Trail,
    ) -> Result<(), GltfError> {
        let n = sparse.count.0;
        if n > count {
            return Err(trail.error(format!(
                "sparse count {n} is more than the accessor's count {count}"
            )));
        }
        let indices = &sparse.indices;
        let itrail = trail.field("indices");
        let Checked::Valid(index_type) = indices.component_type else {
            return Err(itrail.error("invalid componentType"));
        };
        let index_layout = Layout::new(index_type.0, Type::Scalar);
        let view = indices.buffer_view.value();
        let (raw_indices, index_start) =
            self.read_elements(view, indices.byte_offset.0, n, true, index_layout, &itrail)?;
        let values = &sparse.values;
        let vtrail = trail.field("values");
        let (raw_values, _) = self.read_elements(
            values.buffer_view.value(),
            values.byte_offset.0,
            n,
            true,
            layout,
            &vtrail,
        )?;
        let packed = layout.packed();
        let entries = raw_indices
            .chunks_exact(index_layout.size)
            .zip(raw_values.chunks_exact(packed));
        for (k, (index, value)) in entries.enumerate() {
            let i = index
                .iter()
                .rev()
                .fold(0u64, |acc, &b| (acc << 8) | u64::from(b));
            if i >= count {
                return Err(itrail
                    .then(&format!("bufferViews[{view}]"))
                    .error(format!(
                        "sparse index {i} (entry {k}) is not below the accessor's count {count}"
                    ))
                    .at(index_start + (k * index_layout.size) as u64));
            }
            let at = i as usize * packed;
            bytes[at..at + packed].copy_from_slice(value);
        }
        Ok(())
    }
}

/// Components of `N` little-endian bytes each, converted by `f`.
pub(super) fn convert<const N: usize, T>(bytes: &[u8], f: impl Fn([u8; N]) -> T) -> Vec<T> {
    bytes
        .chunks_exact(N)
        .map(|c| {
            let mut a = [0u8; N];
            a.copy_from_slice(c);
            f(a)
        })
        .collect()
}

pub(super) fn component_name(c: ComponentType) -> &'static str {
    match c {
        ComponentType::I8 => "BYTE",
        ComponentType::U8 => "UNSIGNED_BYTE",
        ComponentType::I16 => "SHORT",
        ComponentType::U16 => "UNSIGNED_SHORT",
        ComponentType::U32 => "UNSIGNED_INT",
        ComponentType::F32 => "FLOAT",
    }
}
