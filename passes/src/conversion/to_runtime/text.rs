//! The helper bodies, written as MLIR text: SSA names, constants, the
//! reshapes and transposes that flatten operands into the runtime's
//! contiguous blocks and back.

use dist_dialect::ir::tensor_type_text as tensor_type;

pub(super) fn memref_type(n: i64, element: &str) -> String {
    format!("memref<{n}x{element}>")
}

/// Text building one helper body.
pub(super) struct Text {
    pub(super) body: String,
    pub(super) next: usize,
    pub(super) element: String,
}

impl Text {
    pub(super) fn value(&mut self) -> String {
        self.next += 1;
        format!("%v{}", self.next)
    }

    pub(super) fn line(&mut self, line: String) {
        self.body.push_str("    ");
        self.body.push_str(&line);
        self.body.push('\n');
    }

    pub(super) fn constant_list(&mut self, words: &[i64], element: &str) -> String {
        let list: Vec<String> = words.iter().map(i64::to_string).collect();
        let v = self.value();
        self.line(format!(
            "{v} = arith.constant dense<[{}]> : tensor<{}x{element}>",
            list.join(", "),
            words.len()
        ));
        v
    }

    /// `tensor.reshape` of `x` (of `from`) to `to`.
    pub(super) fn reshape(&mut self, x: &str, from: &[i64], to: &[i64]) -> String {
        if from == to {
            return x.to_owned();
        }
        let shape = self.constant_list(to, "index");
        let v = self.value();
        let e = self.element.clone();
        self.line(format!(
            "{v} = tensor.reshape {x}({shape}) : ({}, tensor<{}xindex>) -> {}",
            tensor_type(from, &e),
            to.len(),
            tensor_type(to, &e)
        ));
        v
    }

    /// `linalg.transpose` of `x` (of `shape`): result dim `i` is dim
    /// `perm[i]`.
    pub(super) fn transpose(&mut self, x: &str, shape: &[i64], perm: &[usize]) -> (String, Vec<i64>) {
        let out: Vec<i64> = perm.iter().map(|&p| shape[p]).collect();
        if perm.iter().enumerate().all(|(i, &p)| i == p) {
            return (x.to_owned(), out);
        }
        let e = self.element.clone();
        let init = self.value();
        self.line(format!("{init} = tensor.empty() : {}", tensor_type(&out, &e)));
        let v = self.value();
        let perm: Vec<String> = perm.iter().map(usize::to_string).collect();
        self.line(format!(
            "{v} = linalg.transpose ins({x} : {}) outs({init} : {}) permutation = [{}]",
            tensor_type(shape, &e),
            tensor_type(&out, &e),
            perm.join(", ")
        ));
        (v, out)
    }

    /// The buffer of flat tensor `x` of `n` elements, as `memref<?xE>`;
    /// `copy` makes it a fresh buffer the caller owns.
    pub(super) fn buffer_of(&mut self, x: &str, n: i64, copy: bool) -> String {
        let e = self.element.clone();
        let b = self.value();
        self.line(format!(
            "{b} = bufferization.to_buffer {x} read_only : {} to {}",
            tensor_type(&[n], &e),
            memref_type(n, &e)
        ));
        let b = if copy {
            let fresh = self.value();
            self.line(format!("{fresh} = memref.alloc() : {}", memref_type(n, &e)));
            self.line(format!(
                "memref.copy {b}, {fresh} : {} to {}",
                memref_type(n, &e),
                memref_type(n, &e)
            ));
            fresh
        } else {
            b
        };
        let c = self.value();
        self.line(format!(
            "{c} = memref.cast {b} : {} to memref<?x{e}>",
            memref_type(n, &e)
        ));
        c
    }

    /// A new output buffer of `n` elements: (its `memref<?xE>`, itself).
    pub(super) fn output(&mut self, n: i64) -> (String, String) {
        let e = self.element.clone();
        let out = self.value();
        self.line(format!("{out} = memref.alloc() : {}", memref_type(n, &e)));
        let c = self.value();
        self.line(format!(
            "{c} = memref.cast {out} : {} to memref<?x{e}>",
            memref_type(n, &e)
        ));
        (c, out)
    }

    /// The tensor of output buffer `out` (static `memref<nxE>`).
    pub(super) fn tensor_of(&mut self, out: &str, n: i64) -> String {
        let e = self.element.clone();
        let v = self.value();
        self.line(format!(
            "{v} = bufferization.to_tensor {out} restrict writable : {} to {}",
            memref_type(n, &e),
            tensor_type(&[n], &e)
        ));
        v
    }

    /// The mesh and axes descriptors, as `memref<?xi64>`.
    pub(super) fn descriptors(&mut self, mesh: &[i64], axes: &[i64]) -> (String, String) {
        let mut buffer = |words: &[i64]| {
            let t = self.constant_list(words, "i64");
            let b = self.value();
            self.line(format!(
                "{b} = bufferization.to_buffer {t} read_only : tensor<{n}xi64> to memref<{n}xi64>",
                n = words.len()
            ));
            let c = self.value();
            self.line(format!(
                "{c} = memref.cast {b} : memref<{}xi64> to memref<?xi64>",
                words.len()
            ));
            c
        };
        (buffer(mesh), buffer(axes))
    }
}

/// Prepares operand `x` (of `shape`) as the flat block layout `kind`
/// needs; returns the flat tensor.
pub(super) fn to_blocks(t: &mut Text, x: &str, shape: &[i64], kind: &Layout) -> String {
    let n: i64 = shape.iter().product();
    match *kind {
        Layout::Flat => t.reshape(x, shape, &[n]),
        Layout::Leading(d) => {
            let mut perm: Vec<usize> = vec![d];
            perm.extend((0..shape.len()).filter(|&i| i != d));
            let (v, s) = t.transpose(x, shape, &perm);
            t.reshape(&v, &s, &[n])
        }
        Layout::Blocks { split, group, .. } => {
            // Split `split` into (group, size / group), group to the front.
            let mut expanded = shape[..split].to_vec();
            expanded.extend([group, shape[split] / group]);
            expanded.extend_from_slice(&shape[split + 1..]);
            let v = t.reshape(x, shape, &expanded);
            let mut perm = vec![split];
            perm.extend((0..expanded.len()).filter(|&i| i != split));
            let (v, s) = t.transpose(&v, &expanded, &perm);
            t.reshape(&v, &s, &[n])
        }
    }
}

/// The result (of `shape`) from the flat output of `kind`.
pub(super) fn from_blocks(t: &mut Text, flat: &str, n: i64, shape: &[i64], kind: &Layout, group: i64) -> String {
    match kind {
        Layout::Flat => t.reshape(flat, &[n], shape),
        &Layout::Leading(d) => {
            // The flat output is [shape[d], others...].
            let mut front = vec![shape[d]];
            front.extend((0..shape.len()).filter(|&i| i != d).map(|i| shape[i]));
            let v = t.reshape(flat, &[n], &front);
            // Back: result dim i comes from front dim (0 if i == d, else its
            // place among the others).
            let perm: Vec<usize> = (0..shape.len())
                .map(|i| match i.cmp(&d) {
                    std::cmp::Ordering::Equal => 0,
                    std::cmp::Ordering::Less => i + 1,
                    std::cmp::Ordering::Greater => i,
                })
                .collect();
            t.transpose(&v, &front, &perm).0
        }
        Layout::Blocks { concat, block, .. } => {
            // [group, block...] -> group next to `concat` -> merged.
            let concat = *concat;
            let mut received = vec![group];
            received.extend_from_slice(block);
            let v = t.reshape(flat, &[n], &received);
            let mut perm: Vec<usize> = (1..=concat).collect();
            perm.push(0);
            perm.extend(concat + 1..received.len());
            let (v, s) = t.transpose(&v, &received, &perm);
            t.reshape(&v, &s, shape)
        }
    }
}

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
