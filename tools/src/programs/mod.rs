//! `dist-gen`'s programs in the global view, for tests and benchmarks:
//! [`gpt`] (a GPT-2-style step with a hand-written backward) and [`llama`]
//! (a Llama-style step differentiated by `dist-append-backward`), whose
//! MLPs may be [`moe`]'s experts (`dist-gen moe`).
//!
//! What they share lives here: the function being written (its arguments
//! with their Megatron layouts, ZeRO's layouts of parameters and optimizer
//! states, the body as text with fresh SSA names), the optimizer update of
//! each parameter and the printing of the function.

pub mod gpt;
pub mod llama;
pub mod moe;

use dist_dialect::ir::tensor_type_text as tensor;
use dist_dialect::ops::attr;
use std::fmt::Write;

/// The optimizer of a generated step.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Optimizer {
    /// AdamW: moments `m_<param>` and `v_<param>`, and the step count `%step`.
    AdamW,
    /// SGD with momentum 0.9: a buffer `buf_<param>`.
    Sgd,
}

/// The element type a generated step computes in. Parameters, optimizer
/// states, gradients and the loss are f32 whatever it is (the master copy,
/// as PyTorch's `param_dtype`/`reduce_dtype` and Megatron's fp32 main
/// gradients keep them): with bf16 each parameter (and each f32 input of
/// the layers) is cast to bf16 where the forward pass reads it, the logits
/// are cast back to f32 for the loss, and each parameter's gradient is the
/// gradient of its cast, back in f32.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Dtype {
    #[default]
    F32,
    Bf16,
}

impl Dtype {
    pub fn mlir(self) -> &'static str {
        match self {
            Self::F32 => "f32",
            Self::Bf16 => "bf16",
        }
    }
}

/// What every generated step takes: its depth, its mesh and how it ends.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Step {
    pub layers: usize,
    pub dp: i64,
    pub tp: i64,
    /// Expert parallelism as its own mesh axis, if any: the experts split
    /// over it, everything else data-parallel over it as over `dp`.
    pub ep: Option<i64>,
    /// Sequence parallelism as its own mesh axis, if any.
    pub sp: Option<i64>,
    /// Pipeline stages, on a mesh axis `pp` of their own, if any.
    pub pp: Option<i64>,
    /// Only the forward pass, parameters marked `dist.requires_grad`.
    pub forward_only: bool,
    /// Update the parameters in the step.
    pub optimizer: Option<Optimizer>,
    /// ZeRO stage 0-3 (with an optimizer).
    pub zero: u8,
    /// The element type of the compute.
    pub dtype: Dtype,
    /// Write no mesh and no shardings: the global program alone, for
    /// `dist-auto-parallel` to lay out.
    pub unsharded: bool,
}

impl Step {
    /// The mesh: pp if any, dp, ep if any, sp if any, then tp.
    pub fn mesh_axes(&self) -> Vec<(&'static str, i64)> {
        let mut axes: Vec<_> = self.pp.map(|pp| ("pp", pp)).into_iter().collect();
        axes.push(("dp", self.dp));
        axes.extend(self.ep.map(|ep| ("ep", ep)));
        axes.extend(self.sp.map(|sp| ("sp", sp)));
        axes.push(("tp", self.tp));
        axes
    }

    /// The axes that split the batch: dp, and ep if any (outside the
    /// experts, expert parallelism is data parallelism).
    pub fn batch_axes(&self) -> &'static [&'static str] {
        if self.ep.is_some() { &["dp", "ep"] } else { &["dp"] }
    }

    /// The layers of each pipeline stage: `ceil(N/P)` each, and where the
    /// stages do not divide the layers, `ceil(N/P) P - N` of them take one
    /// fewer, in the order last, first, second to last, second, ... (the
    /// last holds the LM head and the loss, the first the embedding: Llama
    /// 3 ran 126 layers on 16 stages of 8, the first and last of 7). Empty
    /// without `pp`.
    pub fn stage_layers(&self) -> Vec<usize> {
        let Some(pp) = self.pp.map(|pp| pp as usize) else {
            return Vec::new();
        };
        let most = self.layers.div_ceil(pp);
        let mut layers = vec![most; pp];
        let lighter = (0..pp).map(|i| if i % 2 == 0 { pp - 1 - i / 2 } else { i / 2 });
        for stage in lighter.take(most * pp - self.layers) {
            layers[stage] -= 1;
        }
        layers
    }

    /// Whether a pipeline stage ends after layer `layer` (from 0).
    pub fn ends_stage(&self, layer: usize) -> bool {
        let mut end = 0;
        let stages = self.stage_layers();
        stages[..stages.len().saturating_sub(1)].iter().any(|&n| {
            end += n;
            end == layer + 1
        })
    }
}

/// Refuses sizes whose tensor `what`, the product of `factors`, would have
/// more elements than an i64 counts (every smaller product then fits).
fn fits(what: &str, factors: &[i64]) -> Result<(), String> {
    factors
        .iter()
        .try_fold(1i64, |n, &f| n.checked_mul(f))
        .map(|_| ())
        .ok_or_else(|| format!("the sizes are too large: {what} would have more than 2^63 elements"))
}

/// PyTorch's defaults, with weight decay.
const ADAMW_ATTRS: &str = " {lr = 1.000000e-03 : f64, beta1 = 9.000000e-01 : f64, beta2 = 9.990000e-01 : f64, \
                           epsilon = 1.000000e-08 : f64, weight_decay = 1.000000e-02 : f64}";
const SGD_ATTRS: &str = " {lr = 1.000000e-02 : f64, momentum = 9.000000e-01 : f64}";

/// The mesh axes that split each dim of a tensor.
pub type Layout = Vec<Vec<&'static str>>;

/// A value of the program: its SSA name and type.
#[derive(Debug, Clone)]
pub struct V {
    pub name: String,
    pub ty: String,
}

impl V {
    /// The element type (`f32` of `tensor<4x8xf32>`).
    pub fn element(&self) -> &str {
        let inner = self.ty.trim_start_matches("tensor<").trim_end_matches('>');
        inner.rsplit('x').next().unwrap_or(inner)
    }

    fn shape(&self) -> Vec<i64> {
        let inner = self.ty.trim_start_matches("tensor<").trim_end_matches('>');
        let mut dims: Vec<&str> = inner.split('x').collect();
        dims.pop();
        dims.iter().map(|d| d.parse().expect("a static dim")).collect()
    }
}

/// Writes the function body one op at a time with fresh SSA names.
#[derive(Default)]
pub struct Body {
    pub text: String,
    next: usize,
}

impl Body {
    /// Emits `op operands attrs : (types) -> (results)` and returns the
    /// results, of the element type of its first float operand (an op
    /// computes in its operands' type; token ids are not among them), or
    /// of its first operand's if none is a float.
    pub fn op(&mut self, op: &str, operands: &[&V], attrs: &str, results: &[&[i64]]) -> Vec<V> {
        let element = operands
            .iter()
            .map(|v| v.element())
            .find(|e| e.starts_with(['f', 'b']))
            .or_else(|| operands.first().map(|v| v.element()))
            .unwrap_or("f32")
            .to_owned();
        let types: Vec<String> = results.iter().map(|s| tensor(s, &element)).collect();
        self.typed(op, operands, attrs, &types)
    }

    /// `value` cast to `element` (`dist.cast`), or `value` itself if it is
    /// of that type already.
    pub fn cast(&mut self, value: &V, element: &str) -> V {
        if value.element() == element {
            return value.clone();
        }
        let ty = tensor(&value.shape(), element);
        self.typed("cast", &[value], "", &[ty]).remove(0)
    }

    /// As [`Body::op`], with the result types spelled out.
    pub fn typed(&mut self, op: &str, operands: &[&V], attrs: &str, types: &[String]) -> Vec<V> {
        let id = self.fresh();
        let names: Vec<String> = (0..types.len()).map(|i| format!("%v{id}_{i}")).collect();
        let _ = write!(
            self.text,
            "  {} = dist.{op}{}{attrs} : ({}) -> ",
            names.join(", "),
            operands
                .iter()
                .map(|v| format!(" {}", v.name))
                .collect::<Vec<_>>()
                .join(","),
            operands.iter().map(|v| v.ty.as_str()).collect::<Vec<_>>().join(", "),
        );
        if types.len() == 1 {
            let _ = writeln!(self.text, "{}", types[0]);
        } else {
            let _ = writeln!(self.text, "({})", types.join(", "));
        }
        names
            .into_iter()
            .zip(types.iter().cloned())
            .map(|(name, ty)| V { name, ty })
            .collect()
    }

    pub fn one(&mut self, op: &str, operands: &[&V], attrs: &str, result: &[i64]) -> V {
        self.op(op, operands, attrs, &[result]).remove(0)
    }

    /// A scalar constant of `element` (`arith.constant`), its value written
    /// as MLIR writes a dense literal (`0xFF800000` is an f32 -inf).
    pub fn scalar(&mut self, literal: &str, element: &str) -> V {
        let id = self.fresh();
        let value = V {
            name: format!("%v{id}_0"),
            ty: tensor(&[], element),
        };
        let _ = writeln!(
            self.text,
            "  {} = arith.constant dense<{literal}> : {}",
            value.name, value.ty
        );
        value
    }

    /// `x * factor` (`dist.scale`; the factor printed as f64 prints,
    /// shortest round-trip).
    pub fn scale(&mut self, x: &V, factor: f64) -> V {
        let attrs = format!(" {{factor = {factor:?} : f64}}");
        self.op("scale", &[x], &attrs, &[&x.shape()]).remove(0)
    }

    /// `value` reshaped to `shape`, or `value` itself if it has that shape.
    pub fn reshape(&mut self, value: &V, shape: &[i64]) -> V {
        if value.shape() == shape {
            return value.clone();
        }
        let ty = tensor(shape, value.element());
        self.typed("reshape", &[value], "", &[ty]).remove(0)
    }

    /// `x <direction> y` (`eq`, `le`, ...), broadcast, as booleans of `shape`.
    pub fn compare(&mut self, x: &V, y: &V, direction: &str, shape: &[i64]) -> V {
        let attrs = format!(" {{direction = \"{direction}\"}}");
        self.typed("compare", &[x, y], &attrs, &[tensor(shape, "i1")]).remove(0)
    }

    /// The number of the next op's results (`%v<id>_<i>`).
    fn fresh(&mut self) -> usize {
        self.next += 1;
        self.next - 1
    }

    /// Emits a `func.call` of `callee` returning `types`; returns its results.
    pub fn call(&mut self, callee: &str, operands: &[V], types: &[String]) -> Vec<V> {
        let id = self.fresh();
        let _ = writeln!(
            self.text,
            "  %v{id}:{} = func.call @{callee}({}) : ({}) -> ({})",
            types.len(),
            operands.iter().map(|v| v.name.as_str()).collect::<Vec<_>>().join(", "),
            operands.iter().map(|v| v.ty.as_str()).collect::<Vec<_>>().join(", "),
            types.join(", ")
        );
        let results = types.iter().enumerate();
        results
            .map(|(i, ty)| V {
                name: format!("%v{id}#{i}"),
                ty: ty.clone(),
            })
            .collect()
    }
}

/// A function argument with the layout it declares, if any.
pub struct Arg {
    pub value: V,
    pub shape: Vec<i64>,
    pub layout: Option<Layout>,
    /// For a model parameter (which has a gradient), the layout of its
    /// optimizer states.
    pub state: Option<Layout>,
    /// For a data argument, the dim of its samples (`dist.batch_dim`).
    pub batch_dim: Option<usize>,
}

/// The function being written: its mesh, arguments and body.
pub struct Program {
    /// The mesh axes, in mesh order, with their sizes.
    pub axes: Vec<(&'static str, i64)>,
    /// ZeRO stage 0-3 (with an optimizer).
    pub zero: u8,
    pub args: Vec<Arg>,
    pub body: Body,
    /// Parameters ZeRO could not split over dp.
    unsplit: Vec<String>,
    /// Give each argument its name as its location (`loc("ids")`), so that
    /// passes run on the text and printing with name locations as SSA
    /// names keep the names.
    pub name_locs: bool,
    /// The element type of the compute (parameters stay f32).
    pub compute: Dtype,
    /// No mesh and no shardings ([`Step::unsharded`]).
    pub unsharded: bool,
}

impl Program {
    pub fn new(step: &Step) -> Self {
        Self {
            axes: step.mesh_axes(),
            zero: step.zero,
            args: Vec::new(),
            body: Body::default(),
            unsplit: Vec::new(),
            name_locs: false,
            unsharded: step.unsharded,
            compute: step.dtype,
        }
    }

    /// `value` (a parameter or an f32 input) as the compute reads it: cast
    /// to the compute's type.
    pub fn to_compute(&mut self, value: &V) -> V {
        self.body.cast(value, self.compute.mlir())
    }

    /// A parameter ([`Program::param`]), as the compute reads it.
    pub fn compute_param(&mut self, name: &str, shape: &[i64], dims: &[&[&'static str]]) -> V {
        let master = self.param(name, shape, dims);
        self.to_compute(&master)
    }

    /// `#dist.sharding<@mesh, [...]>` with each dim split over `dims[d]`.
    pub fn sharding(dims: &[Vec<&str>]) -> String {
        let dims: Vec<String> = dims
            .iter()
            .map(|axes| {
                let quoted: Vec<String> = axes.iter().map(|a| format!("\"{a}\"")).collect();
                format!("{{{}}}", quoted.join(", "))
            })
            .collect();
        format!("#dist.sharding<@mesh, [{}]>", dims.join(", "))
    }

    pub fn arg(&mut self, name: &str, shape: &[i64], element: &str, dims: Option<&[&[&'static str]]>) -> V {
        let layout = dims.map(|d| d.iter().map(|axes| axes.to_vec()).collect());
        self.push_arg(name, shape, element, layout, None)
    }

    /// A data argument, its samples along dim 0 (`dist.batch_dim = 0`,
    /// which microbatching splits), with layout `dims`.
    pub fn data(&mut self, name: &str, shape: &[i64], element: &str, dims: &[&[&'static str]]) -> V {
        let value = self.arg(name, shape, element, Some(dims));
        self.args.last_mut().expect("just pushed").batch_dim = Some(0);
        value
    }

    /// A parameter with Megatron's layout `dims`: from ZeRO stage 1 its
    /// states are split over `dp` too, at stage 3 the parameter itself.
    pub fn param(&mut self, name: &str, shape: &[i64], dims: &[&[&'static str]]) -> V {
        let megatron: Layout = dims.iter().map(|axes| axes.to_vec()).collect();
        let state = if self.zero >= 1 {
            self.zero_layout(name, shape, &megatron)
        } else {
            megatron.clone()
        };
        let declared = if self.zero == 3 { state.clone() } else { megatron };
        self.push_arg(name, shape, "f32", Some(declared), Some(state))
    }

    fn push_arg(
        &mut self,
        name: &str,
        shape: &[i64],
        element: &str,
        layout: Option<Layout>,
        state: Option<Layout>,
    ) -> V {
        let value = V {
            name: format!("%{name}"),
            ty: tensor(shape, element),
        };
        self.args.push(Arg {
            value: value.clone(),
            shape: shape.to_vec(),
            layout,
            state,
            batch_dim: None,
        });
        value
    }

    /// Devices that split a dim over `axes`.
    pub fn shards(&self, axes: &[&str]) -> i64 {
        axes.iter()
            .map(|a| self.axes.iter().find(|(n, _)| n == a).map_or(1, |(_, s)| *s))
            .product()
    }

    /// `layout` of `name` also split over `dp` (ZeRO), on the first dim
    /// that divides evenly; a tensor none of whose dims does is recorded in
    /// `unsplit` (the stage could not be written).
    fn zero_layout(&mut self, name: &str, shape: &[i64], layout: &Layout) -> Layout {
        let mut out = layout.clone();
        let dp = self.shards(&["dp"]);
        if dp == 1 {
            return out;
        }
        match (0..shape.len()).find(|&d| shape[d] % (self.shards(&layout[d]) * dp) == 0) {
            Some(d) => out[d].push("dp"),
            None => self.unsplit.push(format!("%{name}")),
        }
        out
    }

    /// The parameters (arguments with optimizer states), in order.
    pub fn params(&self) -> impl Iterator<Item = &Arg> {
        self.args.iter().filter(|a| a.state.is_some())
    }

    /// Each parameter's optimizer step on its gradient in `grads`
    /// (parameter order): the new parameter and states, with their layouts
    /// (the states split over `dp` from ZeRO stage 1, the parameter from
    /// stage 3).
    pub fn update(&mut self, optimizer: Optimizer, grads: Vec<V>) -> Vec<(V, Option<Layout>)> {
        let step = (optimizer == Optimizer::AdamW).then(|| self.arg("step", &[], "f32", Some(&[])));
        let params: Vec<(V, Vec<i64>, Option<Layout>, Layout)> = self
            .params()
            .map(|a| {
                (
                    a.value.clone(),
                    a.shape.clone(),
                    a.layout.clone(),
                    a.state.clone().expect("a parameter"),
                )
            })
            .collect();
        let mut results = Vec::new();
        for ((param, shape, declared, state), grad) in params.into_iter().zip(grads) {
            let name = param.name.trim_start_matches('%').to_owned();
            let state_arg = |p: &mut Self, prefix: &str| {
                p.push_arg(&format!("{prefix}_{name}"), &shape, "f32", Some(state.clone()), None)
            };
            let outputs = match &step {
                Some(step) => {
                    let (m, v) = (state_arg(self, "m"), state_arg(self, "v"));
                    self.body.op(
                        "adamw",
                        &[&param, &grad, &m, &v, step],
                        ADAMW_ATTRS,
                        &[shape.as_slice(); 3],
                    )
                }
                None => {
                    let buffer = state_arg(self, "buf");
                    self.body
                        .op("sgd", &[&param, &grad, &buffer], SGD_ATTRS, &[shape.as_slice(); 2])
                }
            };
            let mut outputs = outputs.into_iter();
            results.push((outputs.next().expect("the new parameter"), declared));
            results.extend(outputs.map(|o| (o, Some(state.clone()))));
        }
        results
    }

    /// The parameters ZeRO could not split, as an error naming them.
    pub fn check_zero(&self) -> Result<(), String> {
        if self.unsplit.is_empty() {
            return Ok(());
        }
        let mut unsplit = self.unsplit.clone();
        unsplit.sort();
        Err(format!(
            "ZeRO stage {} cannot split {} over dp={}: no dim divides evenly",
            self.zero,
            unsplit.join(", "),
            self.shards(&["dp"])
        ))
    }

    /// The module text: a comment saying `what` it is and which
    /// `generator` wrote it, the mesh and the function `name` returning
    /// `results`; parameters carry `dist.requires_grad` if `requires_grad`.
    pub fn print(
        &self,
        (what, generator): (&str, &str),
        name: &str,
        requires_grad: bool,
        results: &[(V, Option<Layout>)],
    ) -> String {
        let mut out = String::new();
        let axes: Vec<String> = self.axes.iter().map(|(n, s)| format!("\"{n}\"={s}")).collect();
        let mesh: Vec<String> = self.axes.iter().map(|(n, s)| format!("{n}={s}")).collect();
        if self.unsharded {
            let _ = writeln!(out, "// {what}, in the global view without a mesh ({generator}).\n");
        } else {
            let _ = writeln!(out, "// {what} on a {} mesh ({generator}).", mesh.join(" x "));
            let _ = writeln!(out, "dist.mesh @mesh = <[{}]>\n", axes.join(", "));
        }
        out.push_str(&self.print_function(name, requires_grad, results));
        out
    }

    /// The function alone, as [`Program::print`] writes it.
    pub fn print_function(&self, name: &str, requires_grad: bool, results: &[(V, Option<Layout>)]) -> String {
        let mut out = String::new();
        let _ = writeln!(out, "func.func @{name}(");
        let args: Vec<String> = self
            .args
            .iter()
            .map(|a| {
                let mut attrs = Vec::new();
                if a.state.is_some() && requires_grad {
                    attrs.push(attr::REQUIRES_GRAD.to_owned());
                }
                attrs.extend(a.batch_dim.map(|d| format!("dist.batch_dim = {d} : i64")));
                attrs.extend(
                    a.layout
                        .as_ref()
                        .filter(|_| !self.unsharded)
                        .map(|l| format!("dist.sharding = {}", Self::sharding(l))),
                );
                let mut arg = format!("    {}: {}", a.value.name, a.value.ty);
                if !attrs.is_empty() {
                    arg.push_str(&format!(" {{{}}}", attrs.join(", ")));
                }
                if self.name_locs {
                    arg.push_str(&format!(" loc(\"{}\")", a.value.name.trim_start_matches('%')));
                }
                arg
            })
            .collect();
        out.push_str(&args.join(",\n"));
        let result_types: Vec<String> = results
            .iter()
            .map(|(v, s)| match s {
                Some(l) if !self.unsharded => format!("{} {{dist.sharding = {}}}", v.ty, Self::sharding(l)),
                _ => v.ty.clone(),
            })
            .collect();
        let _ = writeln!(out, ")\n    -> ({}) {{", result_types.join(",\n        "));
        out.push_str(&self.body.text);
        let names: Vec<&str> = results.iter().map(|(v, _)| v.name.as_str()).collect();
        let types: Vec<&str> = results.iter().map(|(v, _)| v.ty.as_str()).collect();
        let _ = writeln!(out, "  return {} : {}\n}}", names.join(", "), types.join(", "));
        out
    }
}

#[cfg(test)]
mod tests {
    use super::{Dtype, Step};

    /// The layers of each stage, and the layers after which a stage ends.
    fn stages(layers: usize, pp: i64) -> (Vec<usize>, Vec<usize>) {
        let step = Step {
            layers,
            dp: 1,
            tp: 1,
            ep: None,
            sp: None,
            pp: Some(pp),
            forward_only: true,
            optimizer: None,
            zero: 0,
            dtype: Dtype::F32,
            unsharded: false,
        };
        let ends = (0..step.layers).filter(|&l| step.ends_stage(l)).collect();
        (step.stage_layers(), ends)
    }

    #[test]
    fn the_first_and_last_stages_are_lighter_where_the_layers_do_not_divide() {
        assert_eq!(stages(8, 4), (vec![2, 2, 2, 2], vec![1, 3, 5]));
        let (llama3, ends) = stages(126, 16);
        assert_eq!((llama3[0], llama3[15]), (7, 7));
        assert!(llama3[1..15].iter().all(|&n| n == 8));
        assert_eq!(ends, [6, 14, 22, 30, 38, 46, 54, 62, 70, 78, 86, 94, 102, 110, 118]);
        // One layer fewer: the last stage; two: the first too; three: the
        // second to last as well.
        assert_eq!(stages(3, 2), (vec![2, 1], vec![1]));
        assert_eq!(stages(7, 4), (vec![2, 2, 2, 1], vec![1, 3, 5]));
        assert_eq!(stages(6, 4), (vec![1, 2, 2, 1], vec![0, 2, 4]));
        assert_eq!(stages(5, 4), (vec![1, 2, 1, 1], vec![0, 2, 3]));
        assert_eq!(stages(4, 4), (vec![1, 1, 1, 1], vec![0, 1, 2]));
    }
}
