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

mod dot;
mod indexing;
mod select;

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
    let producer = |o: &Operand| match *o {
        Operand::Inst(i) | Operand::Extra(i, _) => Some(i),
        Operand::Arg(_) => None,
    };
    let mut stack: Vec<usize> = results.iter().filter_map(producer).collect();
    while let Some(i) = stack.pop() {
        if std::mem::replace(&mut live[i], true) {
            continue;
        }
        stack.extend(insts[i].operands.iter().filter_map(producer));
    }
    let mut index = vec![usize::MAX; insts.len()];
    let renumber = |o: Operand, index: &[usize]| match o {
        Operand::Inst(i) => Operand::Inst(index[i]),
        Operand::Extra(i, j) => Operand::Extra(index[i], j),
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
            Kind::TopK { k, index_element } => {
                let x = self.val(node.operands[0])?;
                self.float(&x, node, "chlo.top_k")?;
                let x = self.materialise(&x, site)?;
                let val = self.full(
                    DistOp::TopK.name(),
                    vec![x],
                    vec![("k", Attr::I64(*k as i64))],
                    &node.ty,
                    site,
                );
                let Operand::Inst(i) = val.id else {
                    unreachable!("a pushed op's value")
                };
                self.insts[i].extra = vec![node.ty.with_element(index_element)];
                Ok(val)
            }
            Kind::Result(j) => {
                let Operand::Inst(i) = self.val(node.operands[0])?.id else {
                    unreachable!("the reader gives a result of a multi-result op its first result")
                };
                Ok(Val {
                    id: Operand::Extra(i, j - 1),
                    own: node.ty.shape.clone(),
                    shape: node.ty.shape.clone(),
                    element: node.ty.element.clone(),
                })
            }
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
        let (i, sharding) = match id {
            Operand::Inst(i) => (i, sharding.clone()),
            // Another result of a multi-result op: the op's first result
            // takes the constraint on its leading dims, the rest unsplit,
            // and every result its sharding's leading dims (emit).
            Operand::Extra(i, _) => {
                let mut first = sharding.clone();
                first
                    .dims
                    .resize(self.insts[i].ty.shape.len().max(first.dims.len()), Vec::new());
                (i, first)
            }
            Operand::Arg(_) => {
                return Err(error(
                    site,
                    "a sharding constraint on a function argument: shard the argument instead",
                ));
            }
        };
        let sharding = &sharding;
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
    fn lax_top_k_is_one_dist_top_k_and_its_gradient_a_top_k_grad() {
        let mut g = G::new(&[(&[4, 8], "f32"), (&[4, 2], "f32")]);
        let values = g.add(
            Kind::TopK {
                k: 2,
                index_element: "i32".into(),
            },
            &[Ref::Arg(0)],
            &[4, 2],
            "f32",
        );
        let indices = g.add(Kind::Result(1), &[values], &[4, 2], "i32");
        let column = g.add(Kind::Reshape, &[indices], &[4, 2, 1], "i32");
        let zero = g.constant("dense<0.0> : tensor<f32>");
        let zeros = g.add(Kind::BroadcastInDim(vec![]), &[zero], &[4, 8], "f32");
        let dims = DimNumbers::parse(
            "#stablehlo.scatter<inserted_window_dims = [1], input_batching_dims = [0], \
             scatter_indices_batching_dims = [0], scatter_dims_to_operand_dims = [1], index_vector_dim = 2>",
        )
        .unwrap();
        let scatter = |replaces| Kind::Scatter {
            dims: dims.clone(),
            replaces,
        };
        let dx = g.add(scatter(false), &[zeros, column, Ref::Arg(1)], &[4, 8], "f32");
        let program = g.run(&[values, indices, dx]).unwrap();
        assert_eq!(
            ops(&program),
            [
                "dist.top_k [Arg(0)] k=2 : i64 tensor<4x2xf32>",
                "dist.top_k_grad [Extra(0, 0), Arg(1)]  tensor<4x8xf32>",
            ]
        );
        assert_eq!(program.insts[0].extra, [TensorTy::new(vec![4, 2], "i32")]);
        assert_eq!(
            program.results,
            [Operand::Inst(0), Operand::Extra(0, 0), Operand::Inst(1)]
        );
        // Only the indices read: the op stays for them.
        let mut g = G::new(&[(&[4, 8], "f32")]);
        let kind = Kind::TopK {
            k: 2,
            index_element: "i32".into(),
        };
        let values = g.add(kind, &[Ref::Arg(0)], &[4, 2], "f32");
        let indices = g.add(Kind::Result(1), &[values], &[4, 2], "i32");
        let program = g.run(&[indices]).unwrap();
        assert_eq!(ops(&program), ["dist.top_k [Arg(0)] k=2 : i64 tensor<4x2xf32>"]);
        assert_eq!(program.results, [Operand::Extra(0, 0)]);
        // Written into zeros instead of added, two picks of one index would
        // keep one of the two; more picks than the row holds are no top-k's.
        for (replaces, picks) in [(true, 2), (false, 9)] {
            let mut g = G::new(&[(&[4, picks, 1], "i32"), (&[4, picks], "f32")]);
            let zero = g.constant("dense<0.0> : tensor<f32>");
            let zeros = g.add(Kind::BroadcastInDim(vec![]), &[zero], &[4, 8], "f32");
            let dx = g.add(scatter(replaces), &[zeros, Ref::Arg(0), Ref::Arg(1)], &[4, 8], "f32");
            let refused = g.run(&[dx]).unwrap_err();
            assert!(
                refused.message.contains("of lax.top_k (k elements per row added)"),
                "{refused}"
            );
        }
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
