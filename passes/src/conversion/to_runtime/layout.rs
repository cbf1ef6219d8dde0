//! The block layouts of the runtime's flat buffers: the reshapes and
//! transposes that move a collective's dim to the front (and back), or
//! split a dim into the group's blocks and join them along another.

use super::body::Body;
use dist_dialect::ir::static_tensor_shape;
use melior::ir::{Value, ValueLike};

/// How a collective's buffers are arranged.
#[derive(Debug, Clone)]
pub(super) enum Layout {
    Flat,
    /// Dim moved to the front (reduce_scatter, all_gather).
    Leading(usize),
    /// all_to_all: blocks of `split`, joined along `concat`; `block` is
    /// the shape of one block.
    Blocks {
        split: usize,
        concat: usize,
        group: i64,
        block: Vec<i64>,
    },
}

/// `x` reshaped to `shape`, if it has another.
pub(super) fn reshaped<'c, 'b>(b: &Body<'c, 'b>, x: Value<'c, 'b>, shape: &[i64]) -> Value<'c, 'b> {
    if static_tensor_shape(x.r#type()).as_deref() == Some(shape) {
        return x;
    }
    b.reshape(x, shape)
}

/// `x` transposed by `permutation` (result dim `i` is dim
/// `permutation[i]`), if that moves a dim.
fn transposed<'c, 'b>(b: &Body<'c, 'b>, x: Value<'c, 'b>, permutation: &[usize]) -> Value<'c, 'b> {
    if permutation.iter().enumerate().all(|(i, &p)| i == p) {
        return x;
    }
    b.transpose(x, permutation)
}

/// Operand `x` (of `shape`) in the flat block layout `kind` needs.
pub(super) fn to_blocks<'c, 'b>(b: &Body<'c, 'b>, x: Value<'c, 'b>, shape: &[i64], kind: &Layout) -> Value<'c, 'b> {
    let n: i64 = shape.iter().product();
    match *kind {
        Layout::Flat => reshaped(b, x, &[n]),
        Layout::Leading(d) => {
            let mut perm: Vec<usize> = vec![d];
            perm.extend((0..shape.len()).filter(|&i| i != d));
            let v = transposed(b, x, &perm);
            reshaped(b, v, &[n])
        }
        Layout::Blocks { split, group, .. } => {
            // Split `split` into (group, size / group), group to the front.
            let mut expanded = shape[..split].to_vec();
            expanded.extend([group, shape[split] / group]);
            expanded.extend_from_slice(&shape[split + 1..]);
            let v = reshaped(b, x, &expanded);
            let mut perm = vec![split];
            perm.extend((0..expanded.len()).filter(|&i| i != split));
            let v = transposed(b, v, &perm);
            reshaped(b, v, &[n])
        }
    }
}

/// The result (of `shape`) from the flat output `flat` of `kind`.
pub(super) fn from_blocks<'c, 'b>(
    b: &Body<'c, 'b>,
    flat: Value<'c, 'b>,
    shape: &[i64],
    kind: &Layout,
    group: i64,
) -> Value<'c, 'b> {
    match kind {
        Layout::Flat => reshaped(b, flat, shape),
        &Layout::Leading(d) => {
            // The flat output is [shape[d], others...].
            let mut front = vec![shape[d]];
            front.extend((0..shape.len()).filter(|&i| i != d).map(|i| shape[i]));
            let v = reshaped(b, flat, &front);
            // Back: result dim i comes from front dim (0 if i == d, else its
            // place among the others).
            let perm: Vec<usize> = (0..shape.len())
                .map(|i| match i.cmp(&d) {
                    std::cmp::Ordering::Equal => 0,
                    std::cmp::Ordering::Less => i + 1,
                    std::cmp::Ordering::Greater => i,
                })
                .collect();
            transposed(b, v, &perm)
        }
        Layout::Blocks { concat, block, .. } => {
            // [group, block...] -> group next to `concat` -> merged.
            let concat = *concat;
            let mut received = vec![group];
            received.extend_from_slice(block);
            let v = reshaped(b, flat, &received);
            let mut perm: Vec<usize> = (1..=concat).collect();
            perm.push(0);
            perm.extend(concat + 1..received.len());
            let v = transposed(b, v, &perm);
            reshaped(b, v, shape)
        }
    }
}
