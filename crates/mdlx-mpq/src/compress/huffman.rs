//! Blizzard's adaptive Huffman coding (mask 0x01), used on WAV sectors after ADPCM.
//!
//! The first byte names one of nine weight tables (its low nibble; 0..=8). The tree
//! starts from that table's nonzero weights plus two 1-weight symbols, 0x100 (end of
//! stream) and 0x101 (a byte not yet in the tree follows as 8 plain bits). Codes are
//! read one bit at a time from the low end of each byte: 1 takes the heavier child.
//!
//! All nodes sit in one list ordered by weight, heaviest first, with the two children of
//! a node next to each other (heavier one first). A new byte splits the lightest node
//! into itself and the new byte (weight 0). Adapting adds one to a node's weight and to
//! each of its ancestors', and swaps a node that became heavier than the nodes before
//! it with the first of those of lower weight, so the list stays ordered. Type 0 adapts
//! on every byte, the other types only when a new byte enters. The exact list moves
//! matter: the encoder makes the same ones, so the codes only agree if they match.

use super::CodecError;

/// The weight tables of the compression types 0..=8, as runs of (first byte, weights);
/// bytes outside the runs weigh 0 (they enter the tree when first seen).
const WEIGHTS: [&[(u8, &[u8])]; 9] = [
    &[(0, &[10]), (255, &[2])],
    &[(
        0,
        &[
            84, 22, 22, 13, 12, 8, 6, 5, 6, 5, 6, 3, 4, 4, 3, 5, 14, 11, 20, 19, 19, 9, 11, 6, 5,
            4, 3, 2, 3, 2, 2, 2, 13, 7, 9, 6, 6, 4, 3, 2, 4, 3, 3, 3, 3, 3, 2, 2, 9, 6, 4, 4, 4, 4,
            3, 2, 3, 2, 2, 2, 2, 3, 2, 4, 8, 3, 4, 7, 9, 5, 3, 3, 3, 3, 2, 2, 2, 3, 2, 2, 3, 2, 2,
            2, 2, 2, 2, 2, 2, 1, 1, 1, 2, 1, 2, 2, 6, 10, 8, 8, 6, 7, 4, 3, 4, 4, 2, 2, 4, 2, 3, 3,
            4, 3, 7, 7, 9, 6, 4, 3, 3, 2, 1, 2, 2, 2, 2, 2, 10, 2, 2, 3, 2, 2, 1, 1, 2, 2, 2, 6, 3,
            5, 2, 3, 2, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 2, 3, 1, 1, 1, 2, 1, 1, 1, 1, 1, 1, 2, 4, 4,
            4, 7, 9, 8, 12, 2, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 2, 1, 1, 3, 4, 1, 2, 4, 5, 1, 1,
            1, 1, 1, 1, 1, 2, 1, 1, 1, 4, 1, 1, 1, 1, 1, 2, 1, 1, 1, 1, 1, 1, 1, 1, 1, 2, 1, 1, 1,
            1, 1, 1, 1, 3, 1, 1, 1, 1, 1, 1, 1, 2, 1, 1, 1, 1, 1, 1, 2, 2, 1, 1, 2, 2, 2, 6, 75,
        ],
    )],
    &[
        (9, &[3, 39, 0, 0, 35]),
        (
            32,
            &[
                255, 1, 1, 1, 1, 1, 1, 1, 2, 2, 1, 1, 6, 14, 16, 4, 6, 8, 5, 4, 4, 3, 3, 2, 2, 3,
                3, 1, 1, 2, 1, 1, 1, 4, 2, 4, 2, 2, 2, 1, 1, 4, 1, 1, 2, 3, 3, 2, 3, 1, 3, 6, 4, 1,
                1, 1, 1, 1, 1, 2, 1, 2, 1, 1, 1, 41, 7, 22, 18, 64, 10, 10, 17, 37, 1, 3, 23, 16,
                38, 42, 16, 1, 35, 35, 47, 16, 6, 7, 2, 9, 1, 1, 1, 1, 1,
            ],
        ),
    ],
    &[(
        0,
        &[
            255, 11, 7, 5, 11, 2, 2, 2, 6, 2, 2, 1, 4, 2, 1, 3, 9, 1, 1, 1, 3, 4, 1, 1, 2, 1, 1, 1,
            2, 1, 1, 1, 5, 1, 1, 1, 13, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 2, 1, 1, 3, 1, 1, 1, 1, 1,
            1, 1, 2, 1, 1, 1, 1, 10, 4, 2, 1, 6, 3, 2, 1, 1, 1, 1, 1, 3, 1, 1, 1, 5, 2, 3, 4, 3, 3,
            3, 2, 1, 1, 1, 2, 1, 2, 3, 3, 1, 3, 1, 1, 2, 5, 1, 1, 4, 3, 5, 1, 3, 1, 3, 3, 2, 1, 4,
            3, 10, 6, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 2, 2, 1, 10, 2, 5, 1, 1, 2, 7, 2, 23, 1, 5, 1,
            1, 14, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
            1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 6, 2, 1, 4, 5, 1, 1, 2, 1,
            1, 1, 1, 2, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
            1, 1, 7, 1, 1, 2, 1, 1, 1, 1, 2, 1, 1, 1, 1, 1, 1, 1, 2, 1, 1, 1, 1, 1, 1, 17,
        ],
    )],
    &[(
        0,
        &[
            255, 251, 152, 154, 132, 133, 99, 100, 62, 62, 34, 34, 19, 19, 24, 23,
        ],
    )],
    &[(
        0,
        &[
            255, 241, 157, 158, 154, 155, 154, 151, 147, 147, 140, 142, 134, 136, 128, 130, 124,
            124, 114, 115, 105, 107, 95, 96, 85, 86, 74, 75, 64, 65, 55, 55, 47, 47, 39, 39, 33,
            33, 27, 28, 23, 23, 19, 19, 16, 16, 13, 13, 11, 11, 9, 9, 8, 8, 7, 7, 6, 5, 5, 4, 4, 4,
            25, 24,
        ],
    )],
    &[
        (0, &[195, 203, 245, 65, 255, 123, 247, 33]),
        (64, &[191, 204, 242, 64, 253, 124, 247, 34]),
        (128, &[122, 70]),
    ],
    &[
        (
            0,
            &[
                195, 217, 239, 61, 249, 124, 233, 30, 253, 171, 241, 44, 252, 91, 254, 23,
            ],
        ),
        (
            64,
            &[
                189, 217, 236, 61, 245, 125, 232, 29, 251, 174, 240, 44, 251, 92, 255, 24,
            ],
        ),
        (128, &[112, 108]),
    ],
    &[
        (
            0,
            &[
                186, 197, 218, 51, 227, 109, 216, 24, 229, 148, 218, 35, 223, 74, 209, 16, 238,
                175, 228, 44, 234, 90, 222, 21, 244, 135, 233, 33, 246, 67, 252, 18,
            ],
        ),
        (
            64,
            &[
                176, 199, 216, 51, 227, 107, 214, 24, 231, 149, 216, 35, 219, 73, 208, 17, 233,
                178, 226, 43, 232, 92, 221, 21, 241, 135, 231, 32, 247, 68, 255, 19,
            ],
        ),
        (128, &[95, 158]),
    ],
];

/// The list's head (not a node): its `next` is the heaviest node, its `prev` the lightest.
const HEAD: usize = 0;
/// At most 258 leaves and 257 inner nodes, plus the head.
const MAX_NODES: usize = 0x203 + 1;
/// Symbols: the 256 bytes, the end mark and the new-byte escape.
const END: usize = 0x100;
const ESCAPE: usize = 0x101;

#[derive(Clone, Copy, Default)]
struct Node {
    value: usize,
    weight: u32,
    parent: Option<usize>,
    /// The lighter child; the heavier one is the node before it in the list.
    child_lo: Option<usize>,
    prev: usize,
    next: usize,
}

/// The adaptive tree.
struct Tree {
    nodes: Vec<Node>,
    /// The leaf of each symbol.
    leaf: [Option<usize>; 0x102],
}

fn broken(why: &str) -> CodecError {
    CodecError::corrupt("huffman", why)
}

impl Tree {
    /// Links `b` into the list right after `a`.
    fn link_after(&mut self, a: usize, b: usize) {
        let next = self.nodes[a].next;
        self.nodes[b].next = next;
        self.nodes[b].prev = a;
        self.nodes[next].prev = b;
        self.nodes[a].next = b;
    }

    fn unlink(&mut self, i: usize) {
        let Node { prev, next, .. } = self.nodes[i];
        self.nodes[prev].next = next;
        self.nodes[next].prev = prev;
    }

    fn first(&self) -> usize {
        self.nodes[HEAD].next
    }

    fn last(&self) -> usize {
        self.nodes[HEAD].prev
    }

    /// A new node, first in the list or last.
    fn create(&mut self, value: usize, weight: u32, front: bool) -> Result<usize, CodecError> {
        if self.nodes.len() >= MAX_NODES {
            return Err(broken("more nodes than a tree can have"));
        }
        let i = self.nodes.len();
        self.nodes.push(Node {
            value,
            weight,
            ..Node::default()
        });
        let at = if front { HEAD } else { self.last() };
        self.link_after(at, i);
        Ok(i)
    }

    /// From `i` toward the front, the first node weighing at least `weight`; the head if
    /// none does.
    fn heavier_or_equal(&self, mut i: usize, weight: u32) -> usize {
        for _ in 0..self.nodes.len() {
            if i == HEAD || self.nodes[i].weight >= weight {
                return i;
            }
            i = self.nodes[i].prev;
        }
        HEAD
    }

    /// Moves a node just created at the front back to its place by weight (after the
    /// last node at least as heavy); `max` is the heaviest weight so far.
    fn place(&mut self, i: usize, max: u32) -> u32 {
        let weight = self.nodes[i].weight;
        if weight >= max {
            return weight;
        }
        let at = self.heavier_or_equal(self.last(), weight);
        if at != i {
            self.unlink(i);
            self.link_after(at, i);
        }
        max
    }

    /// The starting tree of a compression type.
    fn new(kind: usize) -> Result<Tree, CodecError> {
        let mut tree = Tree {
            nodes: Vec::with_capacity(MAX_NODES),
            leaf: [None; 0x102],
        };
        tree.nodes.push(Node::default()); // the head, linked to itself
        let mut max = 0;
        for &(start, weights) in WEIGHTS[kind] {
            for (k, &w) in weights.iter().enumerate() {
                if w != 0 {
                    let byte = usize::from(start) + k;
                    let i = tree.create(byte, u32::from(w), true)?;
                    tree.leaf[byte] = Some(i);
                    max = tree.place(i, max);
                }
            }
        }
        tree.leaf[END] = Some(tree.create(END, 1, false)?);
        tree.leaf[ESCAPE] = Some(tree.create(ESCAPE, 1, false)?);
        // Pair nodes from the light end: each pair gets a parent, placed by weight.
        let mut lo = tree.last();
        while lo != HEAD {
            let hi = tree.nodes[lo].prev;
            if hi == HEAD {
                break;
            }
            let weight = tree.nodes[hi].weight.wrapping_add(tree.nodes[lo].weight);
            let parent = tree.create(0, weight, true)?;
            tree.nodes[lo].parent = Some(parent);
            tree.nodes[hi].parent = Some(parent);
            tree.nodes[parent].child_lo = Some(lo);
            max = tree.place(parent, max);
            lo = tree.nodes[hi].prev;
        }
        Ok(tree)
    }

    /// Adds one to the weight of `i` and of its ancestors, swapping nodes to keep the
    /// list ordered.
    fn adapt(&mut self, i: usize) -> Result<(), CodecError> {
        let mut cur = Some(i);
        let mut steps = 0;
        while let Some(item) = cur {
            steps += 1;
            if steps > MAX_NODES {
                return Err(broken("the tree loops"));
            }
            let weight = self.nodes[item].weight.wrapping_add(1);
            self.nodes[item].weight = weight;
            let higher = self.heavier_or_equal(self.nodes[item].prev, weight);
            let swap = self.nodes[higher].next;
            if swap != item {
                // `swap` is lighter than `item` now but stands before it: trade places
                // in the list and in the tree.
                self.unlink(swap);
                self.link_after(item, swap);
                self.unlink(item);
                self.link_after(higher, item);
                let (Some(p_item), Some(p_swap)) =
                    (self.nodes[item].parent, self.nodes[swap].parent)
                else {
                    return Err(broken("the root would move"));
                };
                let swap_was_lo = self.nodes[p_swap].child_lo == Some(swap);
                if self.nodes[p_item].child_lo == Some(item) {
                    self.nodes[p_item].child_lo = Some(swap);
                }
                if swap_was_lo {
                    self.nodes[p_swap].child_lo = Some(item);
                }
                self.nodes[item].parent = Some(p_swap);
                self.nodes[swap].parent = Some(p_item);
            }
            cur = self.nodes[item].parent;
        }
        Ok(())
    }

    /// Splits the lightest node into itself and the new byte `value`.
    fn add_byte(&mut self, value: usize) -> Result<(), CodecError> {
        let last = self.last();
        if last == HEAD {
            return Err(broken("empty tree"));
        }
        let Node {
            value: old, weight, ..
        } = self.nodes[last];
        let hi = self.create(old, weight, false)?;
        self.nodes[hi].parent = Some(last);
        self.leaf[old] = Some(hi);
        let lo = self.create(value, 0, false)?;
        self.nodes[lo].parent = Some(last);
        self.nodes[last].child_lo = Some(lo);
        self.leaf[value] = Some(lo);
        self.adapt(lo)
    }

    /// Walks from the root to a leaf.
    fn decode(&self, bits: &mut Bits<'_>) -> Result<usize, CodecError> {
        let mut i = self.first();
        let mut steps = 0;
        while let Some(lo) = self.nodes[i].child_lo {
            steps += 1;
            if i == HEAD || steps > MAX_NODES {
                return Err(broken("the tree loops"));
            }
            i = if bits.bit()? { self.nodes[lo].prev } else { lo };
        }
        if i == HEAD {
            return Err(broken("empty tree"));
        }
        Ok(self.nodes[i].value)
    }
}

/// Bits from the low end of each byte.
struct Bits<'a> {
    data: &'a [u8],
    pos: usize,
}

impl Bits<'_> {
    fn bit(&mut self) -> Result<bool, CodecError> {
        let byte = self
            .data
            .get(self.pos / 8)
            .ok_or_else(|| broken("stream ends early"))?;
        let b = byte >> (self.pos % 8) & 1 == 1;
        self.pos += 1;
        Ok(b)
    }

    fn byte(&mut self) -> Result<usize, CodecError> {
        let mut v = 0;
        for k in 0..8 {
            v |= usize::from(self.bit()?) << k;
        }
        Ok(v)
    }
}

/// Decodes until the end mark or until `cap` bytes are written.
pub(super) fn decompress(data: &[u8], cap: usize) -> Result<Vec<u8>, CodecError> {
    let mut bits = Bits { data, pos: 0 };
    let kind = bits.byte()?;
    if kind & 0x0F > 8 {
        return Err(broken("unknown compression type"));
    }
    let adapt_always = kind == 0;
    let mut tree = Tree::new(kind & 0x0F)?;
    let mut out = Vec::with_capacity(cap);
    while out.len() < cap {
        let mut value = tree.decode(&mut bits)?;
        if value == END {
            break;
        }
        if value == ESCAPE {
            value = bits.byte()?;
            if tree.leaf[value].is_some() {
                return Err(broken("a byte announced as new is already in the tree"));
            }
            tree.add_byte(value)?;
            if !adapt_always {
                tree.adapt(leaf(&tree, value)?)?;
            }
        }
        out.push(value as u8);
        if adapt_always && out.len() < cap {
            tree.adapt(leaf(&tree, value)?)?;
        }
    }
    Ok(out)
}

fn leaf(tree: &Tree, value: usize) -> Result<usize, CodecError> {
    tree.leaf[value].ok_or_else(|| broken("a symbol without a leaf"))
}
