//! The `dist-lower-gpu-mma` pass. Its documentation (what it does,
//! preconditions, before and after) is [`INFO`]'s description: `dist-opt
//! --help-passes` prints it and docs/passes.md holds it.

use super::plan::{MMA_SHAPE, MMA_TAG};
use crate::error::{PassError, fail};
use crate::pass::{DistPass, PassInfo};
use dist_dialect::ir::build::{llvm_struct_type, mma_layout_attribute, mma_shape_attribute, mma_type_attribute};
use dist_dialect::ir::{
    OperationExt, build_op, context_of, erase, has_ancestor, insert_before, linalg_contraction_roles,
    linalg_static_loops, op_name, walk_preorder,
};
use melior::Context;
use melior::ir::attribute::{DenseI32ArrayAttribute, DenseI64ArrayAttribute, IntegerAttribute};
use melior::ir::operation::{OperationLike, WalkResult};
use melior::ir::r#type::{DimSize, IntegerType, MemRefType};
use melior::ir::{Attribute, Identifier, Location, OperationRef, Type, Value};
use melior::ir::{ShapedTypeLike, TypeLike, ValueLike};

pub const INFO: PassInfo = PassInfo {
    argument: "dist-lower-gpu-mma",
    summary: "Turn each warp's 16 x 8 x 16 bf16 product (tagged dist.gpu_mma) into the tensor cores' mma.sync",
    description: r#"`dist-lower-gpu-mma`: the GPU schedule gives a bf16 contraction summed in
f32 one warp per 16 x 8 output tile and a K loop in steps of 16, and tags
each warp's product `dist.gpu_mma`. This pass replaces that product by one
`mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32` (`nvvm.mma.sync`):
each lane loads its fragments as the PTX ISA lays them out (A: 8 bf16 in
4 registers, rows g and g + 8, columns 2t, 2t + 1, 2t + 8, 2t + 9; B: 4
bf16 in 2 registers, rows 2t, 2t + 1, 2t + 8, 2t + 9 of column g; C: 4 f32,
rows g and g + 8, columns 2t and 2t + 1; g = lane / 4, t = lane % 4), and
stores the 4 sums back. The operands are read through the op's indexing
maps, so transposed and batched operands need nothing else.

- **Precondition:** bufferized and mapped to a `gpu.launch` (after the
  schedule's `__dist_gpu_map`), the tagged op a multiply-accumulate of bf16
  inputs into f32 with M, N and K of 16, 8 and 16 and every other loop of 1.
- **Failures:** a tagged op outside a launch or of another shape, each a
  diagnostic at the op.

```mlir
// before (in a gpu.launch, one warp's tile)
linalg.generic {...} ins(%a, %b : memref<16x16xbf16, ...>, memref<16x8xbf16, ...>)
    outs(%c : memref<16x8xf32, ...>) attrs = {dist.gpu_mma} { extf, extf, mulf, addf }
// after
%lane = gpu.lane_id
%a0 = memref.load %a[%g, %t2] : memref<16x16xbf16, ...>        // ... 8 of A, 4 of B, 4 of C
%d = nvvm.mma.sync A[%ra0, %ra1, %ra2, %ra3] B[%rb0, %rb1] C[%c0, %c1, %c2, %c3] {...}
memref.store %d0, %c[%g, %t2] : memref<16x8xf32, ...>           // ... 4 sums
```
"#,
    anchor: "builtin.module",
    options: Vec::new,
    dialects: &["gpu", "memref", "arith", "nvvm", "llvm"],
    create: || Box::new(LowerGpuMma),
};

struct LowerGpuMma;

/// Where a fragment element sits: `g + g_offset` along the operand's
/// lane-group loop and `2 t + t_offset` along its other loop, with
/// `g = lane / 4` and `t = lane % 4` (PTX ISA, "Matrix Fragments for
/// mma.m16n8k16 with floating point type").
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Place {
    g_offset: i64,
    t_offset: i64,
}

const fn place(g_offset: i64, t_offset: i64) -> Place {
    Place { g_offset, t_offset }
}

/// A's 8 bf16 in register order (two a register): rows (M) g, g + 8;
/// columns (K) 2t + {0, 1}, then 2t + 8 + {0, 1}.
const A_FRAGMENT: [Place; 8] = [
    place(0, 0),
    place(0, 1),
    place(8, 0),
    place(8, 1),
    place(0, 8),
    place(0, 9),
    place(8, 8),
    place(8, 9),
];
/// B's 4 bf16: rows (K) 2t + {0, 1, 8, 9} of column (N) g.
const B_FRAGMENT: [Place; 4] = [place(0, 0), place(0, 1), place(0, 8), place(0, 9)];
/// C's and D's 4 f32: rows (M) g, g + 8; columns (N) 2t + {0, 1}.
const C_FRAGMENT: [Place; 4] = [place(0, 0), place(0, 1), place(8, 0), place(8, 1)];

/// The loops (0 M, 1 N, 2 K) that `g` and `2 t` walk in operand `operand`
/// (0 A, 1 B, 2 C).
fn lane_loops(operand: usize) -> (usize, usize) {
    match operand {
        0 => (0, 2),
        1 => (1, 2),
        _ => (0, 1),
    }
}

impl DistPass for LowerGpuMma {
    fn run(&mut self, module: OperationRef<'_, '_>) -> Result<(), PassError> {
        let mut tagged = Vec::new();
        walk_preorder(&module, |op| {
            if op.attribute(MMA_TAG).is_ok() {
                tagged.push(op);
            }
            WalkResult::Advance
        });
        for op in tagged {
            lower(op)?;
            // SAFETY: the op has no results (it wrote its memref), its
            // replacement is in place and the walk that found it is over.
            #[allow(unsafe_code)]
            unsafe {
                erase(op)
            };
        }
        Ok(())
    }
}

/// Each operand's dim roles and the batch loop count of `op`, or why it is
/// not one warp's bf16 16 x 8 x 16 product.
fn check(op: &OperationRef<'_, '_>) -> Result<([Vec<i64>; 3], usize), String> {
    if !has_ancestor(op, |a| op_name(a) == "gpu.launch") {
        return Err("is not in a gpu.launch: run the schedule's mapping first".into());
    }
    let (roles, batch) = linalg_contraction_roles(op)
        .ok_or("is not a multiply-accumulate of bf16 inputs into f32 on memrefs with one K loop")?;
    let element = |i: usize| dist_dialect::ir::element_type(op.operand_at(i).expect("three operands").r#type());
    if !(element(0).is_bf16() && element(1).is_bf16()) {
        return Err("does not multiply bf16 inputs".into());
    }
    let loops: Vec<i64> = linalg_static_loops(op)
        .ok_or("has no static loops")?
        .into_iter()
        .map(|(size, _)| size.unwrap_or(-1))
        .collect();
    // The size of each role's loop (batch loops, then M, N, K), from the
    // dims that carry it: every batch loop 1, and M, N, K the tile's.
    let mut extent = vec![-1; batch + 3];
    for (operand, roles) in roles.iter().enumerate() {
        let ty = MemRefType::try_from(op.operand_at(operand).expect("three operands").r#type())
            .expect("linalg_contraction_roles takes memref operands only");
        for (dim, &role) in roles.iter().enumerate() {
            if let Ok(role) = usize::try_from(role) {
                extent[role] = match ty.dim_size(dim) {
                    Ok(DimSize::Static(size)) => size as i64,
                    _ => -1,
                };
            }
        }
    }
    let (batches, tile) = extent.split_at(batch);
    if batches.iter().any(|&s| s != 1) || tile != MMA_SHAPE {
        return Err(format!(
            "has loops {loops:?}: the tensor cores' tile is M, N, K = 16, 8, 16, every other loop 1"
        ));
    }
    Ok((roles, batch))
}

/// Builds ops right before `at`, at its location.
struct Emitter<'c, 'a> {
    context: &'c Context,
    location: Location<'c>,
    at: OperationRef<'c, 'a>,
}

impl<'c, 'a> Emitter<'c, 'a> {
    fn emit(
        &self,
        name: &str,
        operands: &[Value<'c, 'a>],
        results: &[Type<'c>],
        attributes: &[(Identifier<'c>, Attribute<'c>)],
    ) -> Result<OperationRef<'c, 'a>, PassError> {
        let op = build_op(name, self.location, operands, results, attributes).map_err(PassError::from)?;
        Ok(insert_before(self.at, op))
    }

    fn op(
        &self,
        name: &str,
        operands: &[Value<'c, 'a>],
        result: Type<'c>,
        attributes: &[(Identifier<'c>, Attribute<'c>)],
    ) -> Result<Value<'c, 'a>, PassError> {
        Ok(self
            .emit(name, operands, &[result], attributes)?
            .result_at(0)
            .expect("one result")
            .into())
    }

    fn constant(&self, ty: Type<'c>, value: i64) -> Result<Value<'c, 'a>, PassError> {
        let value = (
            Identifier::new(self.context, "value"),
            IntegerAttribute::new(ty, value).into(),
        );
        self.op("arith.constant", &[], ty, &[value])
    }

    fn index(&self, value: i64) -> Result<Value<'c, 'a>, PassError> {
        self.constant(Type::index(self.context), value)
    }

    /// `base + offset` (an index), or `base` for 0.
    fn offset(&self, base: Value<'c, 'a>, offset: i64) -> Result<Value<'c, 'a>, PassError> {
        if offset == 0 {
            return Ok(base);
        }
        let offset = self.index(offset)?;
        self.op("arith.addi", &[base, offset], Type::index(self.context), &[])
    }
}

/// Emits the lanes' fragment loads, the `mma.sync` and the stores of `op`
/// before it.
fn lower(op: OperationRef<'_, '_>) -> Result<(), PassError> {
    let location = op.location();
    let (roles, batch) = check(&op).map_err(|why| fail(location, &format!("this dist.gpu_mma product {why}")))?;
    let context = context_of(&op);
    let e = Emitter {
        context,
        location,
        at: op,
    };
    let index = Type::index(context);
    let lane = e.op("gpu.lane_id", &[], index, &[])?;
    let four = e.index(4)?;
    let g = e.op("arith.divui", &[lane, four], index, &[])?;
    let t = e.op("arith.remui", &[lane, four], index, &[])?;
    let two = e.index(2)?;
    let t2 = e.op("arith.muli", &[t, two], index, &[])?;
    let operand = |i: usize| op.operand_at(i).expect("three operands");
    // The memref indices of a fragment element: each dim by its loop's role
    // (a batch loop, or a broadcast dim, at 0).
    let indices = |which: usize, place: Place| -> Result<Vec<Value>, PassError> {
        let (g_loop, t_loop) = lane_loops(which);
        roles[which]
            .iter()
            .map(|&role| match usize::try_from(role - batch as i64) {
                Ok(l) if l == g_loop => e.offset(g, place.g_offset),
                Ok(l) if l == t_loop => e.offset(t2, place.t_offset),
                _ => e.index(0),
            })
            .collect()
    };
    let i32_type: Type = IntegerType::new(context, 32).into();
    let i16_type: Type = IntegerType::new(context, 16).into();
    let (bf16, f32_type) = (Type::bfloat16(context), Type::float32(context));
    // A register holds two bf16, the first in its low half.
    let registers = |which: usize, fragment: &[Place]| -> Result<Vec<Value>, PassError> {
        let sixteen = e.constant(i32_type, 16)?;
        let mut out = Vec::new();
        for pair in fragment.chunks(2) {
            let mut halves = Vec::new();
            for &place in pair {
                let at = indices(which, place)?;
                let loaded = e.op("memref.load", &[&[operand(which)][..], &at].concat(), bf16, &[])?;
                let bits = e.op("arith.bitcast", &[loaded], i16_type, &[])?;
                halves.push(e.op("arith.extui", &[bits], i32_type, &[])?);
            }
            let high = e.op("arith.shli", &[halves[1], sixteen], i32_type, &[])?;
            out.push(e.op("arith.ori", &[halves[0], high], i32_type, &[])?);
        }
        Ok(out)
    };
    let a = registers(0, &A_FRAGMENT)?;
    let b = registers(1, &B_FRAGMENT)?;
    let mut c = Vec::new();
    let mut c_indices = Vec::new();
    for &place in &C_FRAGMENT {
        let at = indices(2, place)?;
        c.push(e.op("memref.load", &[&[operand(2)][..], &at].concat(), f32_type, &[])?);
        c_indices.push(at);
    }
    let named = |name: &str, value| (Identifier::new(context, name), value);
    let sums = llvm_struct_type(context, &[f32_type; 4]);
    let bf16 = mma_type_attribute(context, "bf16").expect("bf16 is an MMA type");
    let segments = DenseI32ArrayAttribute::new(context, &[a.len() as i32, b.len() as i32, c.len() as i32]);
    let d = e.op(
        "nvvm.mma.sync",
        &[&a[..], &b, &c].concat(),
        sums,
        &[
            named("layoutA", mma_layout_attribute(context, false)),
            named("layoutB", mma_layout_attribute(context, true)),
            named("multiplicandAPtxType", bf16),
            named("multiplicandBPtxType", bf16),
            named("shape", mma_shape_attribute(context, MMA_SHAPE.map(|d| d as i32))),
            named("operandSegmentSizes", segments.into()),
        ],
    )?;
    for (i, at) in c_indices.into_iter().enumerate() {
        let position = DenseI64ArrayAttribute::new(context, &[i as i64]).into();
        let sum = e.op("llvm.extractvalue", &[d], f32_type, &[named("position", position)])?;
        e.emit("memref.store", &[&[sum, operand(2)][..], &at].concat(), &[], &[])?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::BTreeSet;

    /// The (M, N, K) loop indices of `place` of `operand` held by `lane`,
    /// as `lower` computes them.
    fn loop_indices(operand: usize, place: Place, lane: i64) -> [i64; 3] {
        let (g_loop, t_loop) = lane_loops(operand);
        let mut at = [0; 3];
        at[g_loop] = lane / 4 + place.g_offset;
        at[t_loop] = 2 * (lane % 4) + place.t_offset;
        at
    }

    /// Every element of an operand's tile is held by exactly one lane.
    fn covers(operand: usize, fragment: &[Place], tile: (i64, i64)) {
        let (g_loop, t_loop) = lane_loops(operand);
        let mut seen = BTreeSet::new();
        for lane in 0..32 {
            for &place in fragment {
                let at = loop_indices(operand, place, lane);
                assert!(at[g_loop] < tile.0 && at[t_loop] < tile.1, "{at:?} outside the tile");
                assert!(seen.insert((at[g_loop], at[t_loop])), "{at:?} held twice");
            }
        }
        assert_eq!(seen.len() as i64, tile.0 * tile.1);
    }

    #[test]
    fn fragments_tile_each_operand_once() {
        let [m, n, k] = MMA_SHAPE;
        covers(0, &A_FRAGMENT, (m, k));
        covers(1, &B_FRAGMENT, (n, k));
        covers(2, &C_FRAGMENT, (m, n));
    }

    #[test]
    fn every_lane_holds_what_the_ptx_isa_lists() {
        // The ISA's formulas, element i of a lane (g = lane / 4, t = lane % 4):
        // A row g + 8 * ((i >> 1) & 1), column 2t + (i & 1) + 8 * (i >> 2);
        // B row (K) 2t + (i & 1) + 8 * (i >> 1), column (N) g;
        // C row g + 8 * (i >> 1), column 2t + (i & 1).
        for lane in 0..32 {
            let (g, t) = (lane / 4, lane % 4);
            for (i, &p) in A_FRAGMENT.iter().enumerate() {
                let i = i as i64;
                let want = [g + 8 * ((i >> 1) & 1), 0, 2 * t + (i & 1) + 8 * (i >> 2)];
                assert_eq!(loop_indices(0, p, lane), want, "A lane {lane} element {i}");
            }
            for (i, &p) in B_FRAGMENT.iter().enumerate() {
                let i = i as i64;
                assert_eq!(
                    loop_indices(1, p, lane),
                    [0, g, 2 * t + (i & 1) + 8 * (i >> 1)],
                    "B lane {lane}"
                );
            }
            for (i, &p) in C_FRAGMENT.iter().enumerate() {
                let i = i as i64;
                assert_eq!(
                    loop_indices(2, p, lane),
                    [g + 8 * (i >> 1), 2 * t + (i & 1), 0],
                    "C lane {lane}"
                );
            }
        }
    }

    #[test]
    fn registers_pair_neighbours_along_k() {
        // Lane 5 (g = 1, t = 1) as the PTX ISA tables list it.
        let a: Vec<[i64; 3]> = A_FRAGMENT.iter().map(|&p| loop_indices(0, p, 5)).collect();
        assert_eq!(a[0], [1, 0, 2]);
        assert_eq!(a[3], [9, 0, 3]);
        assert_eq!(a[6], [9, 0, 10]);
        let b: Vec<[i64; 3]> = B_FRAGMENT.iter().map(|&p| loop_indices(1, p, 5)).collect();
        assert_eq!(b, [[0, 1, 2], [0, 1, 3], [0, 1, 10], [0, 1, 11]]);
        let c: Vec<[i64; 3]> = C_FRAGMENT.iter().map(|&p| loop_indices(2, p, 5)).collect();
        assert_eq!(c, [[1, 2, 0], [1, 3, 0], [9, 2, 0], [9, 3, 0]]);
        // The two halves of every A and B register are neighbours in K.
        for (operand, fragment) in [(0, &A_FRAGMENT[..]), (1, &B_FRAGMENT[..])] {
            for pair in fragment.chunks(2) {
                let (x, y) = (loop_indices(operand, pair[0], 7), loop_indices(operand, pair[1], 7));
                assert_eq!(y[2], x[2] + 1);
            }
        }
    }
}
