//! The translation of a StableHLO [`Graph`] into dist ops, as plain data.
//!
//! Values are translated in program order; a node the importer cannot map
//! gets an error instead of a value, reported only if a result depends on
//! it, so the index arithmetic JAX writes around a gather (which the gather
//! patterns make dead) needs no dist form. `broadcast_in_dim` is kept
//! lazy: dist's elementwise ops broadcast NumPy-style, so a broadcast that
//! only feeds them costs nothing, and one that something else reads is
//! materialised where it is read.

use super::eval::{Evaluator, unflatten};
use super::graph::{Binary, Graph, Kind, Node, Ref, Unary};
use super::program::{Attr, Inst, Operand, Program};
use super::raise;
use super::syntax::{self, Dense, DimNumbers, TensorTy};
use dist_dialect::CompareDirection;
use dist_dialect::DistOp;
use dist_dialect::Sharding;
use thiserror::Error;

/// Why a value cannot be imported, at the site of the op at fault.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[error("{message}")]
pub struct ImportError {
    pub site: usize,
    pub message: String,
}

fn error(site: usize, message: impl Into<String>) -> ImportError {
    ImportError {
        site,
        message: message.into(),
    }
}

/// A translated value: the dist value `id`, of shape `own`, which
/// broadcasts NumPy-style (aligned at the last dim) to `shape`, the
/// StableHLO value's.
#[derive(Debug, Clone)]
struct Val {
    id: Operand,
    own: Vec<i64>,
    shape: Vec<i64>,
    element: String,
}

impl Val {
    fn ty(&self) -> TensorTy {
        TensorTy::new(self.own.clone(), &self.element)
    }
}

/// Translates `graph`; the first error a result depends on, if any.
pub fn translate(graph: &Graph) -> Result<Program, ImportError> {
    let mut t = Translator {
        graph,
        eval: Evaluator::new(graph),
        insts: Vec::new(),
        vals: Vec::with_capacity(graph.nodes.len()),
        finite_masks: Vec::new(),
    };
    for n in 0..graph.nodes.len() {
        let val = t.node(&graph.nodes[n]);
        t.vals.push(val);
    }
    let results = graph
        .results
        .iter()
        .map(|&r| {
            let val = t.val(r)?;
            t.materialise(&val, graph.site)
        })
        .collect::<Result<Vec<_>, _>>()?;
    raise::raise(&mut t.insts, &graph.args);
    let (program, index) = prune(t.insts.clone(), results.clone());
    let inexact: Vec<&FiniteMask> = t
        .finite_masks
        .iter()
        .filter(|m| index[m.mask] != usize::MAX && !reads_only_through_softmax(&program, index[m.mask]))
        .collect();
    if inexact.is_empty() {
        return Ok(program);
    }
    let mut results = results;
    for m in inexact {
        let select = m.select.clone()?;
        let mask = Operand::Inst(m.mask);
        for operand in t
            .insts
            .iter_mut()
            .flat_map(|inst| inst.operands.iter_mut())
            .chain(results.iter_mut())
        {
            if *operand == mask {
                *operand = select;
            }
        }
    }
    Ok(prune(t.insts, results).0)
}

/// A causal mask whose StableHLO fill is finite, and the select it was
/// (or why that has no dist form).
struct FiniteMask {
    mask: usize,
    select: Result<Operand, ImportError>,
}

/// Whether only softmaxes (and cross-entropies) read inst `mask` of
/// `program`. A mask filled with a finite lowest value equals
/// dist.causal_mask's -inf fill only through a softmax (both make the
/// masked probabilities 0, and causal rows always keep their diagonal):
/// where anything else reads one (a reduce_max of JAX's softmax backward)
/// or it is a result, its readers read the select it was instead.
fn reads_only_through_softmax(program: &Program, mask: usize) -> bool {
    let mask = Operand::Inst(mask);
    let through_softmax = |inst: &Inst| inst.op == DistOp::Softmax.name() || inst.op == DistOp::CrossEntropy.name();
    !program.results.contains(&mask)
        && program
            .insts
            .iter()
            .all(|inst| !inst.operands.contains(&mask) || through_softmax(inst))
}

/// The ops `results` depend on, renumbered in order, and each op's new
/// index (`usize::MAX` for those dropped).
fn prune(insts: Vec<Inst>, results: Vec<Operand>) -> (Program, Vec<usize>) {
    let mut live = vec![false; insts.len()];
    let mut stack: Vec<usize> = results
        .iter()
        .filter_map(|r| match r {
            Operand::Inst(i) => Some(*i),
            Operand::Arg(_) => None,
        })
        .collect();
    while let Some(i) = stack.pop() {
        if std::mem::replace(&mut live[i], true) {
            continue;
        }
        stack.extend(insts[i].operands.iter().filter_map(|o| match o {
            Operand::Inst(j) => Some(*j),
            Operand::Arg(_) => None,
        }));
    }
    let mut index = vec![usize::MAX; insts.len()];
    let renumber = |o: Operand, index: &[usize]| match o {
        Operand::Inst(i) => Operand::Inst(index[i]),
        arg => arg,
    };
    let mut kept = Vec::new();
    for (i, mut inst) in insts.into_iter().enumerate() {
        if live[i] {
            index[i] = kept.len();
            inst.operands = inst.operands.iter().map(|&o| renumber(o, &index)).collect();
            kept.push(inst);
        }
    }
    let results = results.into_iter().map(|o| renumber(o, &index)).collect();
    (Program { insts: kept, results }, index)
}

/// The shape two NumPy-broadcast operands make.
fn broadcast_shape(a: &[i64], b: &[i64]) -> Vec<i64> {
    let rank = a.len().max(b.len());
    let at = |s: &[i64], d: usize| if d + s.len() >= rank { s[d + s.len() - rank] } else { 1 };
    (0..rank).map(|d| at(a, d).max(at(b, d))).collect()
}

fn strip_leading_ones(shape: &[i64]) -> &[i64] {
    let first = shape.iter().position(|&d| d != 1).unwrap_or(shape.len());
    &shape[first..]
}

/// A gather's dimension numbers, or a scatter's (a gather's transpose)
/// under the gather's names: the operand's batching dims and the indices',
/// the operand dims a position drops (a gather's collapsed dims, a
/// scatter's inserted ones), the dims the index vector names, the window
/// dims of the result (or of the updates), the index vector dim.
struct Indexing<'d> {
    batching: &'d [i64],
    index_batching: &'d [i64],
    collapsed: &'d [i64],
    to_operand: &'d [i64],
    window: &'d [i64],
    vector_dim: Option<usize>,
}

impl<'d> Indexing<'d> {
    fn of_gather(dims: &'d DimNumbers) -> Self {
        Self {
            batching: dims.get("operand_batching_dims"),
            index_batching: dims.get("start_indices_batching_dims"),
            collapsed: dims.get("collapsed_slice_dims"),
            to_operand: dims.get("start_index_map"),
            window: dims.get("offset_dims"),
            vector_dim: dims.get("index_vector_dim").first().map(|&d| d as usize),
        }
    }

    fn of_scatter(dims: &'d DimNumbers) -> Self {
        Self {
            batching: dims.get("input_batching_dims"),
            index_batching: dims.get("scatter_indices_batching_dims"),
            collapsed: dims.get("inserted_window_dims"),
            to_operand: dims.get("scatter_dims_to_operand_dims"),
            window: dims.get("update_window_dims"),
            vector_dim: dims.get("index_vector_dim").first().map(|&d| d as usize),
        }
    }

    /// The shape of the ids of whole rows of a 2-D operand (`jnp.take(t,
    /// ids, axis=0)`) with indices of shape `index`: one id per position,
    /// without the index vector dim (of size 1, or past the last dim), the
    /// row the window after them. None for other dimension numbers.
    fn row_ids(&self, rank: usize, index: &[i64]) -> Option<Vec<i64>> {
        let ids = match self.vector_dim {
            Some(d) if d == index.len() => index.to_vec(),
            Some(d) if d + 1 == index.len() && index[d] == 1 => index[..d].to_vec(),
            _ => return None,
        };
        (rank == 2
            && self.batching.is_empty()
            && self.collapsed == [0]
            && self.to_operand == [0]
            && self.window == [ids.len() as i64])
        .then_some(ids)
    }

    /// Whether they pick one element of each row along the last dim of an
    /// operand of rank `rank` (`jnp.take_along_axis(x, i[..., None],
    /// axis=-1)`), with indices of shape `index`.
    fn is_along(&self, rank: usize, index: &[i64]) -> bool {
        let leading: Vec<i64> = (0..rank as i64 - 1).collect();
        rank >= 1
            && self.batching == leading
            && self.index_batching == leading
            && self.collapsed == [rank as i64 - 1]
            && self.to_operand == [rank as i64 - 1]
            && self.window.is_empty()
            && self.vector_dim == Some(rank)
            && index.len() == rank + 1
            && index[rank - 1] == 1
            && index[rank] == 1
    }
}

/// The lowest finite value of a float type: a mask filled with it (JAX's
/// `jnp.finfo(dtype).min`) or with -inf gives the same softmax.
fn lowest(element: &str) -> f64 {
    -syntax::largest_finite(element)
}

fn unary_op(op: Unary) -> &'static str {
    match op {
        Unary::Neg => DistOp::Neg.name(),
        Unary::Exp => DistOp::Exp.name(),
        Unary::Log => DistOp::Log.name(),
        Unary::Tanh => DistOp::Tanh.name(),
        Unary::Rsqrt => DistOp::Rsqrt.name(),
        Unary::Sqrt => DistOp::Sqrt.name(),
        Unary::Logistic => DistOp::Sigmoid.name(),
        Unary::Abs => DistOp::Abs.name(),
        Unary::Sign => DistOp::Sign.name(),
        Unary::Floor => DistOp::Floor.name(),
        Unary::Ceil => DistOp::Ceil.name(),
        Unary::Round => DistOp::Round.name(),
        Unary::Sine => DistOp::Sin.name(),
        Unary::Cosine => DistOp::Cos.name(),
        Unary::Square => DistOp::Square.name(),
        Unary::Erf => DistOp::Erf.name(),
        Unary::Erfc => DistOp::Erfc.name(),
        Unary::Log1p => DistOp::Log1p.name(),
        Unary::Expm1 => DistOp::Expm1.name(),
        Unary::Atan => DistOp::Atan.name(),
    }
}

struct Translator<'g> {
    graph: &'g Graph,
    eval: Evaluator<'g>,
    insts: Vec<Inst>,
    vals: Vec<Result<Val, ImportError>>,
    /// The causal masks whose StableHLO fill is finite (JAX's
    /// `finfo.min`), where dist.causal_mask's is -inf.
    finite_masks: Vec<FiniteMask>,
}

impl Translator<'_> {
    fn val(&self, value: Ref) -> Result<Val, ImportError> {
        match value {
            Ref::Arg(i) => {
                let ty = &self.graph.args[i];
                Ok(Val {
                    id: Operand::Arg(i),
                    own: ty.shape.clone(),
                    shape: ty.shape.clone(),
                    element: ty.element.clone(),
                })
            }
            Ref::Node(n) => self.vals[n].clone(),
        }
    }

    fn push(
        &mut self,
        op: &'static str,
        operands: Vec<Operand>,
        attributes: Vec<(&'static str, Attr)>,
        ty: TensorTy,
        site: usize,
    ) -> Operand {
        self.insts.push(Inst {
            op,
            operands,
            attributes,
            ty,
            extra: Vec::new(),
            sharding: None,
            site,
        });
        Operand::Inst(self.insts.len() - 1)
    }

    /// A value of `ty`'s full shape made by `op` (materialised).
    fn full(
        &mut self,
        op: &'static str,
        operands: Vec<Operand>,
        attributes: Vec<(&'static str, Attr)>,
        ty: &TensorTy,
        site: usize,
    ) -> Val {
        let id = self.push(op, operands, attributes, ty.clone(), site);
        Val {
            id,
            own: ty.shape.clone(),
            shape: ty.shape.clone(),
            element: ty.element.clone(),
        }
    }

    /// `val` as a dist value of its full shape.
    fn materialise(&mut self, val: &Val, site: usize) -> Result<Operand, ImportError> {
        if val.own == val.shape {
            return Ok(val.id);
        }
        let ty = TensorTy::new(val.shape.clone(), &val.element);
        if val.own.iter().product::<i64>() == ty.elements() {
            return Ok(self.push(DistOp::Reshape.name(), vec![val.id], vec![], ty, site));
        }
        // dist has no broadcast op: adding zeros of the full shape is one,
        // with the sharding rule and gradient (a sum over the broadcast
        // dims) of NumPy broadcasting; for booleans, an or with false.
        let zeros = self.push("arith.constant", vec![], vec![("value", Attr::Zeros)], ty.clone(), site);
        let op = if ty.element == "i1" { DistOp::Or } else { DistOp::Add };
        Ok(self.push(op.name(), vec![val.id, zeros], vec![], ty, site))
    }

    fn float(&self, val: &Val, node: &Node, what: &str) -> Result<(), ImportError> {
        if TensorTy::new(vec![], &val.element).is_float() {
            Ok(())
        } else {
            Err(error(
                node.site,
                format!(
                    "'{what}' of {} tensors has no dist op (it computes on floats)",
                    val.element
                ),
            ))
        }
    }

    /// The dist ops of StableHLO op `node`, and the value it makes.
    fn node(&mut self, node: &Node) -> Result<Val, ImportError> {
        let site = node.site;
        match &node.kind {
            Kind::Constant(dense, text) => Ok(self.constant(node, dense, text)),
            Kind::Iota(dim) => Ok(self.full(
                DistOp::Iota.name(),
                vec![],
                vec![("dim", Attr::I64(*dim as i64))],
                &node.ty,
                site,
            )),
            Kind::Compare(direction) => {
                let attribute = ("direction", Attr::Str(direction.as_str().to_owned()));
                self.elementwise(node, DistOp::Compare, vec![attribute])
            }
            Kind::IsFinite => {
                let x = self.val(node.operands[0])?;
                self.float(&x, node, "stablehlo.is_finite")?;
                let id = self.push(
                    DistOp::IsFinite.name(),
                    vec![x.id],
                    vec![],
                    x.ty().with_element("i1"),
                    site,
                );
                Ok(Val {
                    id,
                    element: "i1".to_owned(),
                    ..x
                })
            }
            Kind::Not => {
                let x = self.val(node.operands[0])?;
                self.discrete(&x, node, "stablehlo.not")?;
                let id = self.push(DistOp::Not.name(), vec![x.id], vec![], x.ty(), site);
                Ok(Val { id, ..x })
            }
            Kind::BroadcastInDim(dims) => {
                let x = self.val(node.operands[0])?;
                self.broadcast(x, dims, node)
            }
            Kind::Reshape => self.reshape(node),
            Kind::Transpose(perm) => self.transpose(node, perm),
            Kind::Slice { start, limit } => {
                let x = self.val(node.operands[0])?;
                let x = self.materialise(&x, site)?;
                Ok(self.slice(
                    x,
                    &node.ty.with_shape(self.graph.ty(node.operands[0]).shape.clone()),
                    start,
                    limit,
                    site,
                ))
            }
            Kind::Concatenate(dim) => {
                let parts = node
                    .operands
                    .iter()
                    .map(|&r| self.val(r).and_then(|v| self.materialise(&v, site)))
                    .collect::<Result<Vec<_>, _>>()?;
                Ok(self.concat(parts, *dim, &node.ty, site))
            }
            Kind::Pad { low, high } => self.pad(node, low, high),
            Kind::Convert => self.convert(node),
            Kind::Unary(op) => {
                let x = self.val(node.operands[0])?;
                self.float(&x, node, op.stablehlo_name())?;
                let id = self.push(unary_op(*op), vec![x.id], vec![], x.ty(), site);
                Ok(Val { id, ..x })
            }
            Kind::Binary(op) => self.binary(node, op),
            Kind::Select => self.select(node),
            Kind::Clamp => self.clamp(node),
            Kind::Reduce { dims, body } => self.reduce(node, dims, *body),
            Kind::ReduceWindow {
                window,
                strides,
                padding,
                body,
            } => self.running_sum(node, window, strides, padding, *body),
            Kind::DotGeneral(dims) => self.dot(node, dims),
            Kind::Gather { dims, slice_sizes } => self.gather(node, dims, slice_sizes),
            Kind::Scatter { dims, replaces } => self.scatter(node, dims, *replaces),
            Kind::ShardingConstraint(sharding) => self.sharding_constraint(node, sharding),
            Kind::Unsupported(why) => Err(error(site, why.to_string())),
        }
    }

    /// A constant; a splat stays a scalar, broadcast where it is read.
    fn constant(&mut self, node: &Node, dense: &Dense, text: &str) -> Val {
        let site = node.site;
        match &dense.splat {
            Some(literal) => {
                let scalar = node.ty.with_shape(vec![]);
                let value = format!("dense<{literal}> : {}", scalar.text());
                let id = self.push(
                    "arith.constant",
                    vec![],
                    vec![("value", Attr::Literal(value))],
                    scalar,
                    site,
                );
                Val {
                    id,
                    own: vec![],
                    shape: node.ty.shape.clone(),
                    element: node.ty.element.clone(),
                }
            }
            None => self.full(
                "arith.constant",
                vec![],
                vec![("value", Attr::Literal(text.to_owned()))],
                &node.ty,
                site,
            ),
        }
    }

    fn reshape(&mut self, node: &Node) -> Result<Val, ImportError> {
        let site = node.site;
        let x = self.val(node.operands[0])?;
        if x.shape == node.ty.shape {
            return Ok(x);
        }
        let mut id = self.materialise(&x, site)?;
        // A reshape of a reshape reads the first one's operand.
        if let Operand::Inst(i) = id
            && self.insts[i].op == DistOp::Reshape.name()
            && self.insts[i].sharding.is_none()
        {
            id = self.insts[i].operands[0];
            if self.source_ty(id).shape == node.ty.shape {
                let shape = node.ty.shape.clone();
                return Ok(Val {
                    id,
                    own: shape.clone(),
                    shape,
                    ..x
                });
            }
        }
        Ok(self.full(DistOp::Reshape.name(), vec![id], vec![], &node.ty, site))
    }

    fn transpose(&mut self, node: &Node, perm: &[i64]) -> Result<Val, ImportError> {
        let site = node.site;
        let x = self.val(node.operands[0])?;
        let id = self.materialise(&x, site)?;
        if perm.iter().enumerate().all(|(i, &p)| p == i as i64) {
            return Ok(Val {
                id,
                own: x.shape.clone(),
                ..x
            });
        }
        Ok(self.full(
            DistOp::Transpose.name(),
            vec![id],
            vec![("perm", Attr::I64s(perm.to_vec()))],
            &node.ty,
            site,
        ))
    }

    /// `[start, limit)` of each dim of `x` (of type `ty`).
    fn slice(&mut self, x: Operand, ty: &TensorTy, start: &[i64], limit: &[i64], site: usize) -> Val {
        let sizes: Vec<i64> = limit.iter().zip(start).map(|(l, s)| l - s).collect();
        let out = ty.with_shape(sizes.clone());
        if sizes == ty.shape {
            return Val {
                id: x,
                own: sizes.clone(),
                shape: sizes,
                element: ty.element.clone(),
            };
        }
        let attributes = vec![("offsets", Attr::I64s(start.to_vec())), ("sizes", Attr::I64s(sizes))];
        self.full(DistOp::Slice.name(), vec![x], attributes, &out, site)
    }

    /// `parts` joined along `dim` into a value of type `ty`.
    fn concat(&mut self, parts: Vec<Operand>, dim: usize, ty: &TensorTy, site: usize) -> Val {
        if let [only] = parts[..] {
            return Val {
                id: only,
                own: ty.shape.clone(),
                shape: ty.shape.clone(),
                element: ty.element.clone(),
            };
        }
        self.full(
            DistOp::Concat.name(),
            parts,
            vec![("dim", Attr::I64(dim as i64))],
            ty,
            site,
        )
    }

    /// Edge padding as a slice (the negative edges) then, dim by dim, a
    /// concatenation with the pad value broadcast to each edge (torch's
    /// label shift pads with -100).
    fn pad(&mut self, node: &Node, low: &[i64], high: &[i64]) -> Result<Val, ImportError> {
        let site = node.site;
        let (x, fill) = (self.val(node.operands[0])?, self.val(node.operands[1])?);
        let source = self.graph.ty(node.operands[0]);
        let start: Vec<i64> = low.iter().map(|&l| (-l).max(0)).collect();
        let limit: Vec<i64> = high.iter().zip(&source.shape).map(|(&h, &n)| n + h.min(0)).collect();
        let x = self.materialise(&x, site)?;
        let mut padded = self.slice(x, source, &start, &limit, site);
        for d in 0..source.shape.len() {
            let mut parts = Vec::new();
            for (edge, at_end) in [(low[d], false), (high[d], true)] {
                if edge <= 0 {
                    continue;
                }
                let mut shape = padded.shape.clone();
                shape[d] = edge;
                let filled = self.materialise(&Val { shape, ..fill.clone() }, site)?;
                parts.push((at_end, filled));
            }
            if parts.is_empty() {
                continue;
            }
            let mut joined: Vec<Operand> = parts.iter().filter(|(end, _)| !end).map(|p| p.1).collect();
            joined.push(padded.id);
            joined.extend(parts.iter().filter(|(end, _)| *end).map(|p| p.1));
            let mut shape = padded.shape.clone();
            shape[d] += low[d].max(0) + high[d].max(0);
            padded = self.concat(joined, d, &node.ty.with_shape(shape), site);
        }
        Ok(padded)
    }

    fn convert(&mut self, node: &Node) -> Result<Val, ImportError> {
        let site = node.site;
        let x = self.val(node.operands[0])?;
        if x.element == node.ty.element {
            return Ok(x);
        }
        // Floats, and signless integers (booleans included): not unsigned
        // (`ui32`) nor complex types.
        let castable = |element: &str| TensorTy::new(vec![], element).is_float() || element.starts_with('i');
        if !(castable(&x.element) && castable(&node.ty.element)) {
            return Err(error(
                site,
                format!(
                    "'stablehlo.convert' from {} to {} has no dist op",
                    x.element, node.ty.element
                ),
            ));
        }
        let id = self.push(
            DistOp::Cast.name(),
            vec![x.id],
            vec![],
            TensorTy::new(x.own.clone(), &node.ty.element),
            site,
        );
        Ok(Val {
            id,
            element: node.ty.element.clone(),
            ..x
        })
    }

    /// `clamp(low, x, high)` as `minimum(maximum(x, low), high)`, as
    /// `jnp.clip` computes it (a tie with a bound shares the gradient).
    fn clamp(&mut self, node: &Node) -> Result<Val, ImportError> {
        let site = node.site;
        let [low, x, high] = [0, 1, 2].map(|i| self.val(node.operands[i]));
        let (low, x, high) = (low?, x?, high?);
        if x.element == "i1" {
            return Err(error(site, "'stablehlo.clamp' of i1 tensors has no dist op"));
        }
        let mut bounded = x;
        for (op, bound) in [(DistOp::Maximum, low), (DistOp::Minimum, high)] {
            let own = broadcast_shape(&bounded.own, &bound.own);
            let id = self.push(
                op.name(),
                vec![bounded.id, bound.id],
                vec![],
                TensorTy::new(own.clone(), &node.ty.element),
                site,
            );
            bounded = Val {
                id,
                own,
                shape: node.ty.shape.clone(),
                element: node.ty.element.clone(),
            };
        }
        Ok(bounded)
    }

    fn binary(&mut self, node: &Node, op: &Binary) -> Result<Val, ImportError> {
        let a = self.val(node.operands[0])?;
        let dist_op = match op {
            Binary::Add => DistOp::Add,
            Binary::Sub => DistOp::Sub,
            Binary::Mul => DistOp::Mul,
            Binary::Div => DistOp::Div,
            Binary::Max => DistOp::Maximum,
            Binary::Min => DistOp::Minimum,
            Binary::Pow => DistOp::Pow,
            Binary::Rem => DistOp::Rem,
            Binary::And => DistOp::And,
            Binary::Or => DistOp::Or,
            Binary::Xor => DistOp::Xor,
        };
        match op {
            Binary::And | Binary::Or | Binary::Xor => self.discrete(&a, node, op.stablehlo_name())?,
            Binary::Pow => self.float(&a, node, op.stablehlo_name())?,
            // Arithmetic of floats and integers; on booleans StableHLO's
            // add and multiply are or and and.
            _ if a.element == "i1" => {
                return Err(error(
                    node.site,
                    format!(
                        "'{}' of i1 tensors has no dist op (booleans combine with and, or and xor)",
                        op.stablehlo_name()
                    ),
                ));
            }
            _ => {}
        }
        self.elementwise(node, dist_op, vec![])
    }

    /// `op` of the node's operands, which broadcast NumPy-style (a lazy
    /// broadcast stays one): its result has the node's element type.
    fn elementwise(
        &mut self,
        node: &Node,
        op: DistOp,
        attributes: Vec<(&'static str, Attr)>,
    ) -> Result<Val, ImportError> {
        let operands = node
            .operands
            .iter()
            .map(|&r| self.val(r))
            .collect::<Result<Vec<_>, _>>()?;
        let own = operands.iter().fold(vec![], |own, v| broadcast_shape(&own, &v.own));
        let id = self.push(
            op.name(),
            operands.iter().map(|v| v.id).collect(),
            attributes,
            TensorTy::new(own.clone(), &node.ty.element),
            node.site,
        );
        Ok(Val {
            id,
            own,
            shape: node.ty.shape.clone(),
            element: node.ty.element.clone(),
        })
    }

    /// Whether `val` holds booleans or integers (what logic reads).
    fn discrete(&self, val: &Val, node: &Node, what: &str) -> Result<(), ImportError> {
        if val.element.starts_with('i') {
            return Ok(());
        }
        Err(error(
            node.site,
            format!(
                "'{what}' of {} tensors has no dist op (it reads booleans or integers)",
                val.element
            ),
        ))
    }

    fn sharding_constraint(&mut self, node: &Node, sharding: &Sharding) -> Result<Val, ImportError> {
        let site = node.site;
        let x = self.val(node.operands[0])?;
        let id = self.materialise(&x, site)?;
        let Operand::Inst(i) = id else {
            return Err(error(
                site,
                "a sharding constraint on a function argument: shard the argument instead",
            ));
        };
        match &self.insts[i].sharding {
            Some(other) if other != sharding => {
                return Err(error(
                    site,
                    format!("a second sharding constraint {sharding} on a value constrained to {other}"),
                ));
            }
            _ => self.insts[i].sharding = Some(sharding.clone()),
        }
        Ok(Val {
            id,
            own: x.shape.clone(),
            ..x
        })
    }

    fn broadcast(&mut self, x: Val, dims: &[i64], node: &Node) -> Result<Val, ImportError> {
        if dims.windows(2).any(|w| w[0] >= w[1]) {
            return Err(error(
                node.site,
                format!("'stablehlo.broadcast_in_dim' with dimensions {dims:?}, which reorder dims, is not supported"),
            ));
        }
        // x's own dims sit at the last dims of x's shape; place them at the
        // dims they broadcast to.
        let lead = x.shape.len() - x.own.len();
        let mut placed = vec![1; node.ty.shape.len()];
        for (j, &size) in x.own.iter().enumerate() {
            placed[dims[lead + j] as usize] = size;
        }
        let placed = strip_leading_ones(&placed).to_vec();
        let shape = node.ty.shape.clone();
        if placed == strip_leading_ones(&x.own) {
            return Ok(Val { shape, ..x });
        }
        let id = self.push(
            DistOp::Reshape.name(),
            vec![x.id],
            vec![],
            TensorTy::new(placed.clone(), &x.element),
            node.site,
        );
        Ok(Val {
            id,
            own: placed,
            shape,
            element: x.element,
        })
    }

    fn reduce(&mut self, node: &Node, dims: &[i64], body: Binary) -> Result<Val, ImportError> {
        let x = self.val(node.operands[0])?;
        if !(TensorTy::new(vec![], &x.element).is_float() || x.element.starts_with('i')) {
            return Err(error(
                node.site,
                format!("'stablehlo.reduce' of {} tensors has no dist op", x.element),
            ));
        }
        let init = self.eval.eval(node.operands[1]).and_then(|a| a.splat());
        // Each reduction from its identity: floats from the infinities,
        // integers from their range's ends, booleans (and = min, or = max,
        // unsigned) from true and false.
        let (lowest, highest) = match x.element.strip_prefix('i').and_then(|w| w.parse::<i32>().ok()) {
            Some(1) => (0.0, 1.0),
            Some(width) => (-(2f64.powi(width - 1)), 2f64.powi(width - 1) - 1.0),
            None => (f64::NEG_INFINITY, f64::INFINITY),
        };
        let boolean = x.element == "i1";
        let op = match (body, init) {
            (Binary::Add, Some(0.0)) if !boolean => DistOp::ReduceSum.name(),
            (Binary::Max, Some(v)) if v == lowest => DistOp::ReduceMax.name(),
            (Binary::Min, Some(v)) if v == highest => DistOp::ReduceMin.name(),
            (Binary::Or | Binary::Add, Some(0.0)) if boolean => DistOp::ReduceMax.name(),
            (Binary::And, Some(1.0)) if boolean => DistOp::ReduceMin.name(),
            _ => {
                return Err(error(
                    node.site,
                    format!(
                        "'stablehlo.reduce' applying '{}' to {} from {} has no dist op (sums from 0, maxima from \
                         the lowest value, minima from the highest, and of booleans and from true and or from false \
                         have)",
                        body.stablehlo_name(),
                        x.element,
                        init.map_or("a value that is not a constant".to_owned(), |v| v.to_string())
                    ),
                ));
            }
        };
        let id = self.materialise(&x, node.site)?;
        if dims.is_empty() {
            return Ok(Val {
                id,
                own: x.shape.clone(),
                ..x
            });
        }
        Ok(self.full(
            op,
            vec![id],
            vec![("dims", Attr::I64s(dims.to_vec()))],
            &node.ty,
            node.site,
        ))
    }

    /// A `reduce_window` that adds from 0 over a window of one dim's whole
    /// length, padded before (or after) by one less, with unit strides: the
    /// running sum `jnp.cumsum` and `torch.cumsum` write (reversed).
    fn running_sum(
        &mut self,
        node: &Node,
        window: &[i64],
        strides: &[i64],
        padding: &[(i64, i64)],
        body: Binary,
    ) -> Result<Val, ImportError> {
        let site = node.site;
        let x = self.val(node.operands[0])?;
        let shape = &self.graph.ty(node.operands[0]).shape;
        let summed: Vec<usize> = (0..shape.len()).filter(|&d| window[d] != 1).collect();
        let unit = |d: usize| window[d] == 1 && padding[d] == (0, 0);
        let init = self.eval.eval(node.operands[1]).and_then(|a| a.splat());
        let direction = match summed[..] {
            [d] if window[d] == shape[d] && (0..shape.len()).all(|e| e == d || unit(e)) => {
                let n = shape[d];
                match padding[d] {
                    (before, 0) if before == n - 1 => Some((d, false)),
                    (0, after) if after == n - 1 => Some((d, true)),
                    _ => None,
                }
            }
            _ => None,
        };
        let (Some((dim, reverse)), Binary::Add, Some(0.0), true) =
            (direction, body, init, strides.iter().all(|&s| s == 1))
        else {
            return Err(error(
                site,
                "'stablehlo.reduce_window' is imported as a running sum (jnp.cumsum, torch.cumsum: an add from 0 \
                 over a window of one dim's length, padded before or after by one less, unit strides); this \
                 window is not one",
            ));
        };
        if !(TensorTy::new(vec![], &x.element).is_float() || x.element.starts_with('i')) || x.element == "i1" {
            return Err(error(
                site,
                format!("'stablehlo.reduce_window' of {} tensors has no dist op", x.element),
            ));
        }
        let x = self.materialise(&x, site)?;
        let mut attributes = vec![("dim", Attr::I64(dim as i64))];
        if reverse {
            attributes.push(("reverse", Attr::Unit));
        }
        Ok(self.full(DistOp::Cumsum.name(), vec![x], attributes, &node.ty, site))
    }

    /// `value` with its dims in the order `perm`.
    fn permute(&mut self, value: Operand, ty: &TensorTy, perm: &[i64], site: usize) -> Operand {
        if perm.iter().enumerate().all(|(i, &p)| p == i as i64) {
            return value;
        }
        let shape = perm.iter().map(|&p| ty.shape[p as usize]).collect();
        self.push(
            DistOp::Transpose.name(),
            vec![value],
            vec![("perm", Attr::I64s(perm.to_vec()))],
            ty.with_shape(shape),
            site,
        )
    }

    /// `dot_general` as `dist.matmul`: operands transposed into
    /// `[batch..., m..., k]` x `[batch..., k, n]` (or `transpose_x`/`_y`
    /// where the product takes the other order as it is).
    fn dot(&mut self, node: &Node, dims: &DimNumbers) -> Result<Val, ImportError> {
        let (lhs, rhs) = (self.val(node.operands[0])?, self.val(node.operands[1])?);
        self.float(&lhs, node, "stablehlo.dot_general")?;
        let (mut lty, mut rty) = (
            self.graph.ty(node.operands[0]).clone(),
            self.graph.ty(node.operands[1]).clone(),
        );
        let (lb, rb) = (dims.get("lhs_batching_dimensions"), dims.get("rhs_batching_dimensions"));
        let (lc, rc) = (
            dims.get("lhs_contracting_dimensions"),
            dims.get("rhs_contracting_dimensions"),
        );
        let free = |rank: usize, batch: &[i64], contracting: &[i64]| -> Vec<i64> {
            (0..rank as i64)
                .filter(|d| !batch.contains(d) && !contracting.contains(d))
                .collect()
        };
        let (lfree, rfree) = (free(lty.shape.len(), lb, lc), free(rty.shape.len(), rb, rc));
        let site = node.site;
        let mut l = self.materialise(&lhs, site)?;
        let mut r = self.materialise(&rhs, site)?;
        if lc.len() != 1 || rc.len() != 1 || rfree.len() != 1 || (!lb.is_empty() && lfree.len() != 1) {
            return Ok(self.merged_dot(node, (l, &lty), (r, &rty), [lb, &lfree, lc], [rb, rc, &rfree]));
        }
        // torch's bmm of [batch * heads, m, k] operands merged by reshapes:
        // the product over the dims before the merge, which keeps each
        // one's split (a merged dim keeps only its leading dim's).
        let (mut lb, mut rb, mut lc, mut rc) = (lb.to_vec(), rb.to_vec(), lc.to_vec(), rc.to_vec());
        let (mut lfree, mut rfree) = (lfree, rfree);
        let mut out = node.ty.clone();
        if let (Some((lsource, lbatch)), Some((rsource, rbatch))) = (self.unmerged(l, &lb), self.unmerged(r, &rb)) {
            // Merged differently (GQA's values as [b, kv_heads, groups]), the
            // operands are reshaped to the shorter run of batch dims.
            let batch = if lbatch.len() <= rbatch.len() { lbatch } else { rbatch };
            let unmerged = |t: &TensorTy| t.with_shape([batch.as_slice(), &t.shape[1..]].concat());
            (lty, rty, out) = (unmerged(&lty), unmerged(&rty), unmerged(&out));
            l = self.reshaped(lsource, self.source_ty(lsource), &lty.shape, site);
            r = self.reshaped(rsource, self.source_ty(rsource), &rty.shape, site);
            let extra = batch.len() as i64 - 1;
            for dims in [&mut lc, &mut rc, &mut lfree, &mut rfree] {
                dims.iter_mut().for_each(|d| *d += extra);
            }
            lb = (0..batch.len() as i64).collect();
            rb = lb.clone();
        }
        let mut attributes = Vec::new();
        let l = if lb.is_empty() && lty.shape.len() == 2 && lc == [0] {
            attributes.push(("transpose_x", Attr::Unit));
            l
        } else {
            let perm: Vec<i64> = lb.iter().chain(&lfree).chain(&lc).copied().collect();
            self.permute(l, &lty, &perm, site)
        };
        let contracting_first = rc[0] < rfree[0];
        let tail = if contracting_first {
            [rc[0], rfree[0]]
        } else {
            [rfree[0], rc[0]]
        };
        let perm: Vec<i64> = rb.iter().chain(&tail).copied().collect();
        let mut r = self.permute(r, &rty, &perm, site);
        let mut transpose_y = !contracting_first;
        // `x @ w.T` (a tied embedding's logits): the product transposes.
        if let Some(source) = self.transposed_matrix(r) {
            (r, transpose_y) = (source, !transpose_y);
        }
        if transpose_y {
            attributes.push(("transpose_y", Attr::Unit));
        }
        let product = self.full(DistOp::Matmul.name(), vec![l, r], attributes, &out, site);
        Ok(Val {
            shape: node.ty.shape.clone(),
            ..product
        })
    }

    /// The type of a translated value.
    fn source_ty(&self, value: Operand) -> TensorTy {
        match value {
            Operand::Inst(j) => self.insts[j].ty.clone(),
            Operand::Arg(j) => self.graph.args[j].clone(),
        }
    }

    /// The operand and leading dims of `value` if it is a reshape that
    /// merged several leading dims into the one batch dim `batch` names
    /// (`[b, h, m, k]` to `[b * h, m, k]`); None otherwise.
    fn unmerged(&self, value: Operand, batch: &[i64]) -> Option<(Operand, Vec<i64>)> {
        let Operand::Inst(i) = value else {
            return None;
        };
        let reshape = &self.insts[i];
        if batch != [0] || reshape.op != DistOp::Reshape.name() || reshape.sharding.is_some() {
            return None;
        }
        let source = &self.source_ty(reshape.operands[0]).shape;
        let merged = &reshape.ty.shape;
        let lead = source.len().checked_sub(merged.len() - 1)?;
        (lead > 1 && source[lead..] == merged[1..] && source[..lead].iter().product::<i64>() == merged[0])
            .then(|| (reshape.operands[0], source[..lead].to_vec()))
    }

    /// `dot_general` of several contracting or free dims as one
    /// `dist.matmul`: the left operand transposed to `[batch..., free...,
    /// contracting...]` and the right to `[batch..., contracting...,
    /// free...]`, each run merged by a reshape into one dim (`[batch..., m,
    /// k]` x `[batch..., k, n]`; without batch dims the left's free dims
    /// stay, the product's broadcast batch), the product reshaped to the
    /// node's `[batch..., lhs free..., rhs free...]`. A merged run keeps the
    /// sharding of its leading dim (a split heads dim of `[heads, head_dim]`).
    /// `lhs` and `rhs` are each operand's batching, free and contracting
    /// dims (in the order the dot pairs them).
    fn merged_dot(
        &mut self,
        node: &Node,
        (l, lty): (Operand, &TensorTy),
        (r, rty): (Operand, &TensorTy),
        [lb, lfree, lc]: [&[i64]; 3],
        [rb, rc, rfree]: [&[i64]; 3],
    ) -> Val {
        let site = node.site;
        let sizes = |ty: &TensorTy, dims: &[i64]| dims.iter().map(|&d| ty.shape[d as usize]).collect::<Vec<_>>();
        let (batch, k) = (sizes(lty, lb), sizes(lty, lc).iter().product::<i64>());
        let (m, n) = (
            sizes(lty, lfree).iter().product::<i64>(),
            sizes(rty, rfree).iter().product::<i64>(),
        );
        let perm: Vec<i64> = lb.iter().chain(lfree).chain(lc).copied().collect();
        let l = self.permute(l, lty, &perm, site);
        let mut rows = batch.clone();
        if lb.is_empty() && !lfree.is_empty() {
            rows.extend(sizes(lty, lfree));
        } else {
            rows.push(m);
        }
        let l = self.reshaped(
            l,
            lty.with_shape(sizes(lty, &perm)),
            &[rows.as_slice(), &[k]].concat(),
            site,
        );
        let perm: Vec<i64> = rb.iter().chain(rc).chain(rfree).copied().collect();
        let r = self.permute(r, rty, &perm, site);
        let r = self.reshaped(
            r,
            rty.with_shape(sizes(rty, &perm)),
            &[batch.as_slice(), &[k, n]].concat(),
            site,
        );
        let product_ty = node.ty.with_shape([rows.as_slice(), &[n]].concat());
        let product = self.push(DistOp::Matmul.name(), vec![l, r], vec![], product_ty.clone(), site);
        let id = self.reshaped(product, product_ty, &node.ty.shape, site);
        Val {
            id,
            own: node.ty.shape.clone(),
            shape: node.ty.shape.clone(),
            element: node.ty.element.clone(),
        }
    }

    /// `value` (of type `ty`) reshaped to `shape`, if that is another.
    fn reshaped(&mut self, value: Operand, ty: TensorTy, shape: &[i64], site: usize) -> Operand {
        // A reshape of a reshape reads the first one's operand.
        let (value, ty) = match value {
            Operand::Inst(i) if self.insts[i].op == DistOp::Reshape.name() && self.insts[i].sharding.is_none() => {
                let source = self.insts[i].operands[0];
                (source, self.source_ty(source))
            }
            _ => (value, ty),
        };
        if ty.shape == shape {
            return value;
        }
        self.push(
            DistOp::Reshape.name(),
            vec![value],
            vec![],
            ty.with_shape(shape.to_vec()),
            site,
        )
    }

    /// The operand of `value` if it is a `dist.transpose` of a matrix.
    fn transposed_matrix(&self, value: Operand) -> Option<Operand> {
        let Operand::Inst(i) = value else {
            return None;
        };
        let inst = &self.insts[i];
        (inst.op == DistOp::Transpose.name()
            && inst.attributes == [("perm", Attr::I64s(vec![1, 0]))]
            && inst.sharding.is_none())
        .then(|| inst.operands[0])
    }

    /// The ids a gather reads, as the dist value of shape `shape`: the
    /// index operand without the unit dims and the negative-index wrap
    /// (`select(i < 0, i + n, i)`) JAX adds around it.
    fn ids(&mut self, indices: Ref, shape: &[i64], site: usize) -> Result<Operand, ImportError> {
        let source = *self
            .index_chain(indices)
            .last()
            .expect("the chain starts at the indices");
        let ids = self.val(source)?;
        if !ids.element.starts_with('i') {
            return Err(error(
                site,
                format!("gather indices of type {} are not integers", ids.element),
            ));
        }
        let id = self.materialise(&ids, site)?;
        if ids.shape == shape {
            return Ok(id);
        }
        Ok(self.push(
            DistOp::Reshape.name(),
            vec![id],
            vec![],
            TensorTy::new(shape.to_vec(), &ids.element),
            site,
        ))
    }

    /// The values from a gather's `indices` back to the ids they are made
    /// of: through unit dims added (a reshape, or a broadcast that keeps
    /// the order of dims) and the negative-index wrap.
    fn index_chain(&mut self, indices: Ref) -> Vec<Ref> {
        let graph = self.graph;
        let mut chain = vec![indices];
        while let Some(node) = graph.node(*chain.last().expect("never empty")) {
            let keeps_order = match &node.kind {
                Kind::BroadcastInDim(dims) => dims.windows(2).all(|w| w[0] < w[1]),
                Kind::Reshape => true,
                _ => false,
            };
            let next = match &node.kind {
                _ if keeps_order && graph.ty(node.operands[0]).elements() == node.ty.elements() => node.operands[0],
                Kind::Select if self.is_index_wrap(node) => node.operands[2],
                _ => break,
            };
            chain.push(next);
        }
        chain
    }

    /// Whether `value` depends on no argument other than through `allowed`
    /// (constants aside).
    fn depends_only_on(&mut self, value: Ref, allowed: &[Ref]) -> bool {
        let graph = self.graph;
        let mut stack = vec![value];
        let mut seen = rustc_hash::FxHashSet::default();
        while let Some(at) = stack.pop() {
            if allowed.contains(&at) || !seen.insert(at) || self.eval.eval(at).is_some() {
                continue;
            }
            match graph.node(at) {
                Some(node) => stack.extend(&node.operands),
                None => return false,
            }
        }
        true
    }

    /// `select(i < 0, i + c, i)`.
    fn is_index_wrap(&mut self, select: &Node) -> bool {
        let graph = self.graph;
        let [predicate, wrapped, index] = select.operands[..] else {
            return false;
        };
        let is_zero = |eval: &mut Evaluator, r: Ref| eval.eval(r).and_then(|a| a.splat()) == Some(0.0);
        let less_than_zero = matches!(
            graph.node(predicate),
            Some(Node { kind: Kind::Compare(CompareDirection::Lt), operands, .. })
                if operands[0] == index && is_zero(&mut self.eval, operands[1])
        );
        let plus_constant = matches!(
            graph.node(wrapped),
            Some(Node { kind: Kind::Binary(Binary::Add), operands, .. })
                if operands[0] == index && self.eval.eval(operands[1]).is_some()
        );
        less_than_zero && plus_constant
    }

    fn gather(&mut self, node: &Node, dims: &DimNumbers, slice_sizes: &[i64]) -> Result<Val, ImportError> {
        let site = node.site;
        let (table, indices) = (node.operands[0], node.operands[1]);
        let operand = self.graph.ty(table).shape.clone();
        let index = self.graph.ty(indices).shape.clone();
        let rank = operand.len();
        let indexing = Indexing::of_gather(dims);
        // jnp.take(table, ids, axis=0): whole rows of a 2-D table.
        let row_ids = indexing
            .row_ids(rank, &index)
            .filter(|_| slice_sizes == [1, operand[1]]);
        let is_rows = row_ids.is_some();
        // jnp.take_along_axis(x, i[..., None], axis=-1): one element of
        // each row along the last dim.
        let is_along = indexing.is_along(rank, &index) && slice_sizes.iter().all(|&s| s == 1);
        if is_rows {
            let ids = self.ids(indices, &row_ids.unwrap_or_default(), site)?;
            let x = self.val(table)?;
            let table = self.materialise(&x, site)?;
            return Ok(self.full(DistOp::Embedding.name(), vec![ids, table], vec![], &node.ty, site));
        }
        if is_along {
            let ids = self.ids(indices, &index[..rank - 1], site)?;
            let x = self.val(table)?;
            let x = self.materialise(&x, site)?;
            let picked = self.push(
                DistOp::TakeAlong.name(),
                vec![x, ids],
                vec![],
                node.ty.with_shape(index[..rank - 1].to_vec()),
                site,
            );
            return Ok(self.full(DistOp::Reshape.name(), vec![picked], vec![], &node.ty, site));
        }
        if let Some(slice) = self.constant_slice(node, dims, slice_sizes) {
            return slice;
        }
        if let Some(ids) = self.ids_after_positions(&indexing, node, slice_sizes) {
            let x = self.val(table)?;
            let x = self.materialise(&x, site)?;
            let ids_ty = self.graph.ty(ids).clone();
            let ids = self.val(ids)?;
            let ids = self.materialise(&ids, site)?;
            let positions = &operand[..rank - 1];
            let ids = self.reshaped(ids, ids_ty, positions, site);
            let picked = self.push(
                DistOp::TakeAlong.name(),
                vec![x, ids],
                vec![],
                node.ty.with_shape(positions.to_vec()),
                site,
            );
            return Ok(self.full(DistOp::Reshape.name(), vec![picked], vec![], &node.ty, site));
        }
        Err(error(
            site,
            "'stablehlo.gather' is supported for whole rows of a 2-D table (jnp.take along axis 0), for one \
             element per row along the last dim (jnp.take_along_axis, torch.gather) and for one slice at \
             constant indices (x[:, 0]); these dimension numbers are neither",
        ))
    }

    /// The ids of a gather of one element per row along the last dim whose
    /// index vectors spell the row out (torch's `gather` of `nll_loss`,
    /// before batching dims): every dim collapsed, the index vector the
    /// concatenation of argument-free parts that count the positions of
    /// the leading dims row-major (iotas) and a last part of one id each.
    /// None for another gather.
    fn ids_after_positions(&mut self, indexing: &Indexing, node: &Node, slice_sizes: &[i64]) -> Option<Ref> {
        let operand = self.graph.ty(node.operands[0]).shape.clone();
        let index = self.graph.ty(node.operands[1]).shape.clone();
        let rank = operand.len();
        let every: Vec<i64> = (0..rank as i64).collect();
        let vector_dim = indexing.vector_dim?;
        let fits = rank >= 1
            && indexing.batching.is_empty()
            && indexing.collapsed == every
            && indexing.to_operand == every
            && indexing.window.is_empty()
            && slice_sizes.iter().all(|&s| s == 1)
            && vector_dim + 1 == index.len()
            && index[vector_dim] == rank as i64
            && index[..vector_dim].iter().product::<i64>() == operand[..rank - 1].iter().product::<i64>();
        if !fits {
            return None;
        }
        let parts = match self.graph.node(node.operands[1]) {
            Some(Node {
                kind: Kind::Concatenate(d),
                operands,
                ..
            }) if *d == vector_dim => operands.clone(),
            _ => return None,
        };
        let (&ids, leading) = parts.split_last()?;
        if self.graph.ty(ids).shape[vector_dim] != 1 {
            return None;
        }
        let mut component = 0;
        for &part in leading {
            let width = self.graph.ty(part).shape[vector_dim];
            let values = self.eval.eval(part)?;
            for (i, &v) in values.data.iter().enumerate() {
                let (position, c) = (i as i64 / width, i as i64 % width);
                if v != unflatten(position, &operand[..rank - 1])[(component + c) as usize] as f64 {
                    return None;
                }
            }
            component += width;
        }
        (component == rank as i64 - 1).then_some(ids)
    }

    /// A gather of one slice at constant start indices (`x[:, 0]`, a column
    /// a helper picks by a constant): `dist.slice` (StableHLO clamps each
    /// start into the operand), reshaped without the collapsed dims. None
    /// for another gather.
    fn constant_slice(
        &mut self,
        node: &Node,
        dims: &DimNumbers,
        slice_sizes: &[i64],
    ) -> Option<Result<Val, ImportError>> {
        let (table, indices) = (node.operands[0], node.operands[1]);
        let operand = self.graph.ty(table).shape.clone();
        let start_map = dims.get("start_index_map");
        let collapsed = dims.get("collapsed_slice_dims");
        let kept: Vec<i64> = (0..slice_sizes.len() as i64)
            .filter(|d| !collapsed.contains(d))
            .map(|d| slice_sizes[d as usize])
            .collect();
        let in_order: Vec<i64> = (0..kept.len() as i64).collect();
        // (What StableHLO's verifier would refuse is no such slice either.)
        let fits = slice_sizes.len() == operand.len()
            && slice_sizes.iter().zip(&operand).all(|(&s, &n)| (0..=n).contains(&s))
            && start_map.iter().all(|&d| (0..operand.len() as i64).contains(&d));
        if !fits
            || !dims.get("operand_batching_dims").is_empty()
            || dims.get("offset_dims") != in_order
            || node.ty.shape != kept
        {
            return None;
        }
        let start = self.eval.eval(indices)?;
        if start.data.len() != start_map.len() {
            return None;
        }
        let mut offsets = vec![0; operand.len()];
        for (&d, &v) in start_map.iter().zip(&start.data) {
            let d = d as usize;
            offsets[d] = (v as i64).clamp(0, operand[d] - slice_sizes[d]);
        }
        let site = node.site;
        Some(self.val(table).and_then(|x| {
            let x = self.materialise(&x, site)?;
            let ty = node.ty.with_shape(slice_sizes.to_vec());
            let sliced = self.push(
                DistOp::Slice.name(),
                vec![x],
                vec![
                    ("offsets", Attr::I64s(offsets)),
                    ("sizes", Attr::I64s(slice_sizes.to_vec())),
                ],
                ty.clone(),
                site,
            );
            let id = self.reshaped(sliced, ty, &node.ty.shape, site);
            Ok(Val {
                id,
                own: node.ty.shape.clone(),
                shape: node.ty.shape.clone(),
                element: node.ty.element.clone(),
            })
        }))
    }

    /// A scatter that adds (the gradient JAX's backward writes for a
    /// gather), where it is the transpose of a gather pattern: whole rows
    /// (`jnp.take`'s gradient) become `dist.embedding_grad`, one element per
    /// row along the last dim (`take_along_axis`'s) `dist.take_along_grad`,
    /// one slice at constant indices `dist.slice_grad`; added to the
    /// operand unless that is zeros.
    fn scatter(&mut self, node: &Node, dims: &DimNumbers, replaces: bool) -> Result<Val, ImportError> {
        let site = node.site;
        let [operand, indices, updates] = node.operands[..] else {
            unreachable!("the reader gives a scatter three operands");
        };
        let base = self.eval.eval(operand).and_then(|a| a.splat());
        let shape = node.ty.shape.clone();
        let index = self.graph.ty(indices).shape.clone();
        let rank = shape.len();
        let indexing = Indexing::of_scatter(dims);
        let is_along = indexing.is_along(rank, &index) && index[..rank - 1] == shape[..rank - 1];
        // jnp.take(table, ids, axis=0)'s gradient: whole rows added.
        let row_ids = indexing
            .row_ids(rank, &index)
            .filter(|ids| self.graph.ty(updates).shape == [ids.as_slice(), &[shape[1]]].concat());
        // Written into zeros where no two updates meet (one per row, or one
        // window), a replacing scatter adds.
        let is_rows = row_ids.is_some() && !replaces;
        if replaces && base != Some(0.0) {
            return Err(error(
                site,
                "'stablehlo.scatter' that replaces is imported where it writes into zeros (a gather's gradient)",
            ));
        }
        let scattered = if is_rows {
            let ids = self.ids(indices, &row_ids.unwrap_or_default(), site)?;
            let table = self.val(operand)?;
            let table = self.materialise(&table, site)?;
            let rows = self.val(updates)?;
            let rows = self.materialise(&rows, site)?;
            self.push(
                DistOp::EmbeddingGrad.name(),
                vec![ids, table, rows],
                vec![],
                node.ty.clone(),
                site,
            )
        } else if let Some(ids) = self.along_ids(&indexing, node, is_along)? {
            let values = self.val(updates)?;
            let values = self.materialise(&values, site)?;
            let rows = node.ty.with_shape(shape[..rank - 1].to_vec());
            let values = self.reshaped(values, self.graph.ty(updates).clone(), &rows.shape, site);
            self.push(
                DistOp::TakeAlongGrad.name(),
                vec![ids, values],
                vec![],
                node.ty.clone(),
                site,
            )
        } else if let Some((offsets, window)) = self.constant_window(node, dims) {
            let values = self.val(updates)?;
            let values = self.materialise(&values, site)?;
            let window = self.reshaped(values, self.graph.ty(updates).clone(), &window, site);
            self.push(
                DistOp::SliceGrad.name(),
                vec![window],
                vec![("offsets", Attr::I64s(offsets))],
                node.ty.clone(),
                site,
            )
        } else {
            return Err(error(
                site,
                "'stablehlo.scatter' is supported as the gradient of a gather of whole rows of a 2-D table \
                 (jnp.take), of one element per row along the last dim (take_along_axis) and of one slice at \
                 constant indices; these dimension numbers are neither",
            ));
        };
        let id = if base == Some(0.0) {
            scattered
        } else {
            let x = self.val(operand)?;
            let x = self.materialise(&x, site)?;
            self.push(DistOp::Add.name(), vec![x, scattered], vec![], node.ty.clone(), site)
        };
        Ok(Val {
            id,
            own: shape.clone(),
            shape,
            element: node.ty.element.clone(),
        })
    }

    /// The ids of a scatter of one element per row along the last dim, as
    /// `[positions]`: JAX's (`is_along`, take_along_axis's gradient) or
    /// torch's (nll_loss's backward: index vectors of iotas, then the id).
    /// None for another scatter.
    fn along_ids(&mut self, indexing: &Indexing, node: &Node, is_along: bool) -> Result<Option<Operand>, ImportError> {
        let site = node.site;
        let shape = &node.ty.shape;
        let positions = &shape[..shape.len() - 1];
        if is_along {
            return self.ids(node.operands[1], positions, site).map(Some);
        }
        let Some(ids) = self.ids_after_positions(indexing, node, &[]) else {
            return Ok(None);
        };
        let ids_ty = self.graph.ty(ids).clone();
        let ids = self.val(ids)?;
        let ids = self.materialise(&ids, site)?;
        Ok(Some(self.reshaped(ids, ids_ty, positions, site)))
    }

    /// The start and shape of a scatter's one window at constant indices
    /// (no batch dims, every update dim a window dim in order), each start
    /// clamped into the operand as StableHLO does; None for another
    /// scatter.
    fn constant_window(&mut self, node: &Node, dims: &DimNumbers) -> Option<(Vec<i64>, Vec<i64>)> {
        let shape = &node.ty.shape;
        let updates = self.graph.ty(node.operands[2]).shape.clone();
        let inserted = dims.get("inserted_window_dims");
        let to_operand = dims.get("scatter_dims_to_operand_dims");
        let window_rank = shape.len() - inserted.len().min(shape.len());
        let in_order: Vec<i64> = (0..window_rank as i64).collect();
        let fits = to_operand
            .iter()
            .chain(inserted)
            .all(|&d| (0..shape.len() as i64).contains(&d))
            && dims.get("input_batching_dims").is_empty()
            && dims.get("update_window_dims") == in_order
            && updates.len() == window_rank;
        if !fits {
            return None;
        }
        let start = self.eval.eval(node.operands[1])?;
        if start.data.len() != to_operand.len() {
            return None;
        }
        let mut offsets = vec![0; shape.len()];
        let mut kept = updates.iter();
        let window: Vec<i64> = (0..shape.len() as i64)
            .map(|d| {
                if inserted.contains(&d) {
                    1
                } else {
                    *kept.next().expect("one per kept dim")
                }
            })
            .collect();
        if window.iter().zip(shape).any(|(&w, &n)| w > n) {
            return None;
        }
        for (&d, &v) in to_operand.iter().zip(&start.data) {
            let d = d as usize;
            offsets[d] = (v as i64).clamp(0, shape[d] - window[d]);
        }
        Some((offsets, window))
    }

    fn select(&mut self, node: &Node) -> Result<Val, ImportError> {
        let graph = self.graph;
        let [predicate, on_true, on_false] = node.operands[..] else {
            unreachable!("the reader gives select three operands");
        };
        let fill = self.eval.eval(on_false).and_then(|a| a.splat());
        // jnp.take and take_along_axis read NaN for out-of-range indices
        // (mode "fill"): a select of the gather, its NaN fill, and a test of
        // the gather's own indices. For indices in range it is the gather.
        if fill.is_some_and(f64::is_nan)
            && let Some(Node {
                kind: Kind::Gather { .. },
                operands,
                ..
            }) = graph.node(on_true)
        {
            let chain = self.index_chain(operands[1]);
            if self.depends_only_on(predicate, &chain) {
                return self.val(on_true);
            }
        }
        // The lowest finite value as JAX prints it may round to just above
        // the type's.
        let low = 0.999 * lowest(&node.ty.element);
        if let Some(fill) = fill.filter(|&f| f <= low)
            && self.is_causal(predicate)
        {
            let scores = self.val(on_true)?;
            let id = self.materialise(&scores, node.site)?;
            let masked = self.full(DistOp::CausalMask.name(), vec![id], vec![], &node.ty, node.site);
            if fill.is_finite()
                && let Operand::Inst(i) = masked.id
            {
                // The select itself, for where only it is right: its
                // operands (dead, and pruned, where the mask stays).
                let general = self.elementwise(node, DistOp::Select, vec![]).map(|v| v.id);
                self.finite_masks.push(FiniteMask {
                    mask: i,
                    select: general,
                });
            }
            return Ok(masked);
        }
        self.elementwise(node, DistOp::Select, vec![])
    }

    /// Whether `predicate` is constant, true exactly where the last index
    /// (key) is at most the one before it (query).
    fn is_causal(&mut self, predicate: Ref) -> bool {
        let graph = self.graph;
        let mut at = predicate;
        // Evaluate the mask before the broadcasts that add leading dims.
        while let Some(Node {
            kind: Kind::BroadcastInDim(dims),
            operands,
            ty,
            ..
        }) = graph.node(at)
        {
            let source = graph.ty(operands[0]).shape.len();
            let rank = ty.shape.len() as i64;
            if source < 2
                || dims[source - 2..] != [rank - 2, rank - 1]
                || graph.ty(operands[0]).shape[source - 2..] != ty.shape[ty.shape.len() - 2..]
            {
                break;
            }
            at = operands[0];
        }
        let Some(mask) = self.eval.eval(at) else {
            return false;
        };
        mask.shape.len() >= 2
            && mask.data.iter().enumerate().all(|(i, &v)| {
                let index = unflatten(i as i64, &mask.shape);
                let (q, k) = (index[index.len() - 2], index[index.len() - 1]);
                (v != 0.0) == (k <= q)
            })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::conversion::from_stablehlo::graph::Unsupported;
    use crate::conversion::from_stablehlo::syntax::Dense;

    /// Builds graphs node by node.
    struct G(Graph);

    impl G {
        fn new(args: &[(&[i64], &str)]) -> Self {
            G(Graph {
                args: args.iter().map(|(s, e)| TensorTy::new(s.to_vec(), e)).collect(),
                ..Graph::default()
            })
        }

        fn add(&mut self, kind: Kind, operands: &[Ref], shape: &[i64], element: &str) -> Ref {
            let site = self.0.nodes.len();
            self.0.nodes.push(Node {
                kind,
                operands: operands.to_vec(),
                ty: TensorTy::new(shape.to_vec(), element),
                site,
            });
            Ref::Node(site)
        }

        fn constant(&mut self, text: &str) -> Ref {
            let dense = Dense::parse(text).unwrap();
            let ty = dense.ty.clone();
            self.add(Kind::Constant(dense, text.into()), &[], &ty.shape, &ty.element)
        }

        fn run(mut self, results: &[Ref]) -> Result<Program, ImportError> {
            self.0.results = results.to_vec();
            translate(&self.0)
        }
    }

    fn ops(program: &Program) -> Vec<String> {
        program
            .insts
            .iter()
            .map(|i| {
                let attrs: Vec<String> = i.attributes.iter().map(|(k, v)| format!("{k}={v}")).collect();
                format!("{} {:?} {} {}", i.op, i.operands, attrs.join(","), i.ty.text())
            })
            .collect()
    }

    fn dot(lb: &[i64], rb: &[i64], lc: &[i64], rc: &[i64]) -> Kind {
        let list = |v: &[i64]| format!("{v:?}");
        let text = format!(
            "#stablehlo.dot<lhs_batching_dimensions = {}, rhs_batching_dimensions = {}, lhs_contracting_dimensions = {}, rhs_contracting_dimensions = {}>",
            list(lb),
            list(rb),
            list(lc),
            list(rc)
        );
        Kind::DotGeneral(DimNumbers::parse(&text).unwrap())
    }

    /// relu(x) = maximum(x, broadcast(0)): the constant stays a scalar that
    /// dist.maximum broadcasts; the mean's divisor likewise.
    #[test]
    fn scalar_broadcasts_feed_elementwise_ops_as_scalars() {
        let mut g = G::new(&[(&[8, 32], "f32")]);
        let zero = g.constant("dense<0.000000e+00> : tensor<f32>");
        let zeros = g.add(Kind::BroadcastInDim(vec![]), &[zero], &[8, 32], "f32");
        let relu = g.add(Kind::Binary(Binary::Max), &[Ref::Arg(0), zeros], &[8, 32], "f32");
        let sum = g.add(
            Kind::Reduce {
                dims: vec![0, 1],
                body: Binary::Add,
            },
            &[relu, zero],
            &[],
            "f32",
        );
        let n = g.constant("dense<2.560000e+02> : tensor<f32>");
        let mean = g.add(Kind::Binary(Binary::Div), &[sum, n], &[], "f32");
        let program = g.run(&[mean]).unwrap();
        assert_eq!(
            ops(&program),
            [
                "arith.constant [] value=dense<0.000000e+00> : tensor<f32> tensor<f32>",
                "dist.maximum [Arg(0), Inst(0)]  tensor<8x32xf32>",
                "dist.reduce_sum [Inst(1)] dims=array<i64: 0, 1> tensor<f32>",
                "arith.constant [] value=dense<2.560000e+02> : tensor<f32> tensor<f32>",
                "dist.div [Inst(2), Inst(3)]  tensor<f32>",
            ]
        );
        assert_eq!(program.results, [Operand::Inst(4)]);
    }

    /// mean over the last dim, keepdims: [2,8] -> [2,8,1] is a reshape;
    /// [2,8,1] -> [2,8,16] stays lazy into the subtraction.
    #[test]
    fn keepdims_broadcasts_are_reshapes_then_lazy() {
        let mut g = G::new(&[(&[2, 8, 16], "f32")]);
        let zero = g.constant("dense<0.000000e+00> : tensor<f32>");
        let sum = g.add(
            Kind::Reduce {
                dims: vec![2],
                body: Binary::Add,
            },
            &[Ref::Arg(0), zero],
            &[2, 8],
            "f32",
        );
        let kept = g.add(Kind::BroadcastInDim(vec![0, 1]), &[sum], &[2, 8, 1], "f32");
        let wide = g.add(Kind::BroadcastInDim(vec![0, 1, 2]), &[kept], &[2, 8, 16], "f32");
        let centred = g.add(Kind::Binary(Binary::Sub), &[Ref::Arg(0), wide], &[2, 8, 16], "f32");
        let program = g.run(&[centred]).unwrap();
        assert_eq!(
            ops(&program),
            [
                "dist.reduce_sum [Arg(0)] dims=array<i64: 2> tensor<2x8xf32>",
                "dist.reshape [Inst(0)]  tensor<2x8x1xf32>",
                "dist.sub [Arg(0), Inst(1)]  tensor<2x8x16xf32>",
            ]
        );
    }

    /// A broadcast read by something other than an elementwise op is
    /// materialised by adding zeros.
    #[test]
    fn a_broadcast_read_by_a_reduction_is_materialised() {
        let mut g = G::new(&[(&[16], "f32")]);
        let wide = g.add(Kind::BroadcastInDim(vec![1]), &[Ref::Arg(0)], &[4, 16], "f32");
        let zero = g.constant("dense<0.000000e+00> : tensor<f32>");
        let sum = g.add(
            Kind::Reduce {
                dims: vec![1],
                body: Binary::Add,
            },
            &[wide, zero],
            &[4],
            "f32",
        );
        let program = g.run(&[sum]).unwrap();
        assert_eq!(
            ops(&program),
            [
                "arith.constant [] value=zeros tensor<4x16xf32>",
                "dist.add [Arg(0), Inst(0)]  tensor<4x16xf32>",
                "dist.reduce_sum [Inst(1)] dims=array<i64: 1> tensor<4xf32>",
            ]
        );
    }

    #[test]
    fn dot_generals_become_matmuls() {
        // q k^T over batch and heads: transpose_y.
        let mut g = G::new(&[(&[2, 2, 8, 4], "f32"), (&[2, 2, 8, 4], "f32")]);
        let s = g.add(
            dot(&[0, 1], &[0, 1], &[3], &[3]),
            &[Ref::Arg(0), Ref::Arg(1)],
            &[2, 2, 8, 8],
            "f32",
        );
        let program = g.run(&[s]).unwrap();
        assert_eq!(
            ops(&program),
            ["dist.matmul [Arg(0), Arg(1)] transpose_y=unit tensor<2x2x8x8xf32>"]
        );
        // x @ w with a 3-D x: the leading dims broadcast.
        let mut g = G::new(&[(&[2, 8, 16], "f32"), (&[16, 32], "f32")]);
        let y = g.add(
            dot(&[], &[], &[2], &[0]),
            &[Ref::Arg(0), Ref::Arg(1)],
            &[2, 8, 32],
            "f32",
        );
        assert_eq!(
            ops(&g.run(&[y]).unwrap()),
            ["dist.matmul [Arg(0), Arg(1)]  tensor<2x8x32xf32>"]
        );
        // x^T y for 2-D operands: transpose_x.
        let mut g = G::new(&[(&[16, 8], "f32"), (&[16, 32], "f32")]);
        let y = g.add(dot(&[], &[], &[0], &[0]), &[Ref::Arg(0), Ref::Arg(1)], &[8, 32], "f32");
        assert_eq!(
            ops(&g.run(&[y]).unwrap()),
            ["dist.matmul [Arg(0), Arg(1)] transpose_x=unit tensor<8x32xf32>"]
        );
        // Batch dims last on the left: transposed to the front.
        let mut g = G::new(&[(&[8, 4, 2], "f32"), (&[2, 4, 5], "f32")]);
        let y = g.add(
            dot(&[2], &[0], &[1], &[1]),
            &[Ref::Arg(0), Ref::Arg(1)],
            &[2, 8, 5],
            "f32",
        );
        assert_eq!(
            ops(&g.run(&[y]).unwrap()),
            [
                "dist.transpose [Arg(0)] perm=array<i64: 2, 0, 1> tensor<2x8x4xf32>",
                "dist.matmul [Inst(0), Arg(1)]  tensor<2x8x5xf32>",
            ]
        );
        // Two contracting dims: merged into one on each side.
        let mut g = G::new(&[(&[8, 4, 2], "f32"), (&[4, 2, 5], "f32")]);
        let y = g.add(
            dot(&[], &[], &[1, 2], &[0, 1]),
            &[Ref::Arg(0), Ref::Arg(1)],
            &[8, 5],
            "f32",
        );
        assert_eq!(
            ops(&g.run(&[y]).unwrap()),
            [
                "dist.reshape [Arg(0)]  tensor<8x8xf32>",
                "dist.reshape [Arg(1)]  tensor<8x5xf32>",
                "dist.matmul [Inst(0), Inst(1)]  tensor<8x5xf32>",
            ]
        );
        // Batch dims and two free dims on each side, contracting dims in
        // the middle: transposed into place, merged, the product reshaped
        // back to [batch, lhs free, rhs free].
        let mut g = G::new(&[(&[2, 3, 4, 5], "f32"), (&[2, 4, 6, 7], "f32")]);
        let y = g.add(
            dot(&[0], &[0], &[2], &[1]),
            &[Ref::Arg(0), Ref::Arg(1)],
            &[2, 3, 5, 6, 7],
            "f32",
        );
        assert_eq!(
            ops(&g.run(&[y]).unwrap()),
            [
                "dist.transpose [Arg(0)] perm=array<i64: 0, 1, 3, 2> tensor<2x3x5x4xf32>",
                "dist.reshape [Inst(0)]  tensor<2x15x4xf32>",
                "dist.reshape [Arg(1)]  tensor<2x4x42xf32>",
                "dist.matmul [Inst(1), Inst(2)]  tensor<2x15x42xf32>",
                "dist.reshape [Inst(3)]  tensor<2x3x5x6x7xf32>",
            ]
        );
    }

    /// jnp.tril + jnp.where(mask, scores, fill) as JAX lowers them; a
    /// finite fill (finfo.min) is the same only where a softmax reads it.
    #[test]
    fn a_constant_lower_triangle_select_is_a_causal_mask() {
        let masked = |fill_text: &str| {
            let mut g = G::new(&[(&[2, 4, 4], "f32")]);
            let (rows, cols) = (
                g.add(Kind::Iota(0), &[], &[4, 4], "i32"),
                g.add(Kind::Iota(1), &[], &[4, 4], "i32"),
            );
            let tril = g.add(Kind::Compare(CompareDirection::Ge), &[rows, cols], &[4, 4], "i1");
            let wide = g.add(Kind::BroadcastInDim(vec![1, 2]), &[tril], &[2, 4, 4], "i1");
            let low = g.constant(fill_text);
            let fill = g.add(Kind::BroadcastInDim(vec![]), &[low], &[2, 4, 4], "f32");
            let masked = g.add(Kind::Select, &[wide, Ref::Arg(0), fill], &[2, 4, 4], "f32");
            g.run(&[masked])
        };
        assert_eq!(
            ops(&masked("dense<0xFF800000> : tensor<f32>").unwrap()),
            ["dist.causal_mask [Arg(0)]  tensor<2x4x4xf32>"]
        );
        // finfo.min returned as it is: the select, not the -inf mask.
        let finite = ops(&masked("dense<-3.40282347E+38> : tensor<f32>").unwrap());
        assert!(finite.last().unwrap().starts_with("dist.select "), "{finite:?}");
        assert!(
            !finite.iter().any(|op| op.starts_with("dist.causal_mask")),
            "{finite:?}"
        );
        // An upper triangle is not causal: it stays the select it is.
        let mut g = G::new(&[(&[4, 4], "f32")]);
        let (rows, cols) = (
            g.add(Kind::Iota(0), &[], &[4, 4], "i32"),
            g.add(Kind::Iota(1), &[], &[4, 4], "i32"),
        );
        let triu = g.add(Kind::Compare(CompareDirection::Le), &[rows, cols], &[4, 4], "i1");
        let low = g.constant("dense<0xFF800000> : tensor<f32>");
        let fill = g.add(Kind::BroadcastInDim(vec![]), &[low], &[4, 4], "f32");
        let masked = g.add(Kind::Select, &[triu, Ref::Arg(0), fill], &[4, 4], "f32");
        let program = ops(&g.run(&[masked]).unwrap());
        assert_eq!(
            program
                .iter()
                .map(|op| op.split(' ').next().unwrap())
                .collect::<Vec<_>>(),
            [
                "dist.iota",
                "dist.iota",
                "dist.compare",
                "arith.constant",
                "dist.select"
            ]
        );
    }

    /// jnp.take(table, ids, axis=0): the index wrap and the NaN fill for
    /// out-of-range ids are dropped; the validity test is never needed.
    #[test]
    fn jnp_take_is_an_embedding() {
        let mut g = G::new(&[(&[32, 16], "f32"), (&[2, 8], "i32")]);
        let zero = g.constant("dense<0> : tensor<i32>");
        let zeros = g.add(Kind::BroadcastInDim(vec![]), &[zero], &[2, 8], "i32");
        let negative = g.add(
            Kind::Compare(CompareDirection::Lt),
            &[Ref::Arg(1), zeros],
            &[2, 8],
            "i1",
        );
        let n = g.constant("dense<32> : tensor<i32>");
        let ns = g.add(Kind::BroadcastInDim(vec![]), &[n], &[2, 8], "i32");
        let shifted = g.add(Kind::Binary(Binary::Add), &[Ref::Arg(1), ns], &[2, 8], "i32");
        let wrapped = g.add(Kind::Select, &[negative, shifted, Ref::Arg(1)], &[2, 8], "i32");
        let column = g.add(Kind::BroadcastInDim(vec![0, 1]), &[wrapped], &[2, 8, 1], "i32");
        let valid = g.add(Kind::Compare(CompareDirection::Ge), &[column, zeros], &[2, 8, 1], "i1");
        let dims = DimNumbers::parse(
            "#stablehlo.gather<offset_dims = [2], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 2>",
        )
        .unwrap();
        let rows = g.add(
            Kind::Gather {
                dims,
                slice_sizes: vec![1, 16],
            },
            &[Ref::Arg(0), column],
            &[2, 8, 16],
            "f32",
        );
        let nan = g.constant("dense<0x7FC00000> : tensor<f32>");
        let nans = g.add(Kind::BroadcastInDim(vec![]), &[nan], &[2, 8, 16], "f32");
        let wide = g.add(Kind::BroadcastInDim(vec![0, 1, 2]), &[valid], &[2, 8, 16], "i1");
        let picked = g.add(Kind::Select, &[wide, rows, nans], &[2, 8, 16], "f32");
        assert_eq!(
            ops(&g.run(&[picked]).unwrap()),
            ["dist.embedding [Arg(1), Arg(0)]  tensor<2x8x16xf32>"]
        );
    }

    #[test]
    fn an_unsupported_op_is_an_error_only_where_a_result_needs_it() {
        let mut g = G::new(&[(&[4], "f32")]);
        g.add(
            Kind::Unsupported(Unsupported::NoMapping("stablehlo.while".into())),
            &[Ref::Arg(0)],
            &[4],
            "f32",
        );
        let live = g.add(Kind::Unary(Unary::Exp), &[Ref::Arg(0)], &[4], "f32");
        assert_eq!(ops(&g.run(&[live]).unwrap()), ["dist.exp [Arg(0)]  tensor<4xf32>"]);
        let mut g = G::new(&[(&[4], "f32")]);
        let bad = g.add(
            Kind::Unsupported(Unsupported::NoMapping("stablehlo.while".into())),
            &[Ref::Arg(0)],
            &[4],
            "f32",
        );
        let user = g.add(Kind::Unary(Unary::Exp), &[bad], &[4], "f32");
        assert_eq!(
            g.run(&[user]).unwrap_err(),
            error(0, "'stablehlo.while' has no dist mapping")
        );
    }
}
