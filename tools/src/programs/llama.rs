//! A Llama-style training step in the global view (`dist-gen llama`).
//!
//! Token embedding (its own table, split over the vocabulary), then per
//! layer: RMSNorm, q/k/v projections with `kv_heads` key/value heads each
//! shared by `heads / kv_heads` query heads (column-parallel), rotary
//! embeddings on q and k (rotate-half by slice, neg and concat; the cos and
//! sin tables are arguments), causal attention, the output projection
//! (row-parallel) and a residual add; RMSNorm, the SwiGLU MLP (gate `w1`
//! and up `w3` column-parallel, down `w2` row-parallel) and a residual
//! add. A final RMSNorm, the LM head (column-parallel: the vocabulary over
//! `tp`) and the cross-entropy against integer labels. Only parameters and
//! inputs carry shardings (Megatron's): the batch over `dp`, the sequence
//! over `sp` when given, heads, the MLP's hidden dim and the vocabulary
//! over `tp`.
//!
//! Sizes are global (what a model's config gives), unlike `dist-gen gpt`'s
//! per-shard sizes. A split dim its axes do not divide is split unevenly
//! (padded shards: `dist-partition`); it needs as many entries as shards.
//!
//! The backward is not written here: `dist-append-backward` derives it
//! from the forward pass. With `forward_only` the program is that forward
//! pass, parameters marked `dist.requires_grad`. Otherwise the generator
//! differentiates it in process; with an `optimizer`, a step function
//! calls the differentiated forward, updates every parameter as `dist-gen
//! gpt` does (ZeRO layouts alike) and is then inlined into one function.

use super::moe::{Experts, Groups, MoeConfig};
use super::{Body, Layout, Program, Step, V, fits, tensor};
use crate::run::run_pipeline;
use dist_dialect::ir::pass::{PrintFlags, print_op};
use dist_dialect::ir::{block_ops, context_with_all_dialects, op_name, parse_module, set_attribute};
use melior::ir::attribute::StringAttribute;

/// Shape of the generated program.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct LlamaConfig {
    pub step: Step,
    pub sizes: LlamaSizes,
    /// Differentiate with activation recomputation.
    pub recompute: bool,
    /// Every layer's MLP a mixture of experts (`dist-gen moe`).
    pub moe: Option<MoeConfig>,
    /// Balance the causal attention's work over `sp` (Megatron's and Llama
    /// 3's): the tokens arrive permuted so that sp shard `i` holds chunks
    /// `i` and `2 sp - 1 - i` of `2 sp`, with their positions (`%positions`)
    /// from which the rotary tables are taken; the attention is
    /// `dist.attention` in that order.
    pub balance: bool,
    /// Attention as one `dist.attention` (blocks of queries and keys, the
    /// masked ones skipped) instead of its steps (scores, mask, softmax,
    /// weighted values); always so with `balance`.
    pub fused_attention: bool,
}

/// Global model sizes; the defaults make a small program for tests.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct LlamaSizes {
    /// Sequences.
    pub batch: i64,
    /// Tokens per sequence.
    pub seq: i64,
    /// Query heads.
    pub heads: i64,
    /// Key/value heads, each shared by `heads / kv_heads` query heads.
    pub kv_heads: i64,
    pub head_dim: i64,
    /// The MLP's hidden size.
    pub ffn: i64,
    pub vocab: i64,
}

impl Default for LlamaSizes {
    fn default() -> Self {
        Self {
            batch: 4,
            seq: 16,
            heads: 8,
            kv_heads: 4,
            head_dim: 8,
            ffn: 128,
            vocab: 256,
        }
    }
}

/// RMSNorm over the hidden dim, with Llama's epsilon.
const NORM: &str = " {begin_norm_axis = 2 : i64, epsilon = 1.000000e-05 : f32}";

struct Layer {
    attn_norm: V,
    wq: V,
    wk: V,
    wv: V,
    wo: V,
    mlp_norm: V,
    mlp: Mlp,
}

enum Mlp {
    /// SwiGLU: gate `w1` and up `w3` column-parallel, down `w2` row-parallel.
    Dense {
        w1: V,
        w3: V,
        w2: V,
    },
    Experts(Experts),
}

struct Generator {
    config: LlamaConfig,
    program: Program,
    cos: V,
    sin: V,
    /// Each MoE layer's load-balancing loss.
    aux_losses: Vec<V>,
}

impl LlamaConfig {
    fn hidden(&self) -> i64 {
        self.sizes.heads * self.sizes.head_dim
    }

    /// Each split dim divides evenly, and the heads group and rotate.
    fn check(&self) -> Result<(), String> {
        let s = &self.sizes;
        let hidden = [s.heads, s.head_dim];
        fits(
            "the activations [batch, seq, hidden]",
            &[&[s.batch, s.seq][..], &hidden].concat(),
        )?;
        fits("the MLP's activations [batch, seq, ffn]", &[s.batch, s.seq, s.ffn])?;
        fits("the logits [batch, seq, vocab]", &[s.batch, s.seq, s.vocab])?;
        fits(
            "the attention scores [batch, heads, seq, seq]",
            &[s.batch, s.heads, s.seq, s.seq],
        )?;
        fits("the embedding [vocab, hidden]", &[&[s.vocab][..], &hidden].concat())?;
        fits("w1 [hidden, ffn]", &[&hidden[..], &[s.ffn]].concat())?;
        // Every split dim may be uneven (GSPMD's padded shards), with at
        // least as many entries as shards.
        let sp = self.step.sp.unwrap_or(1);
        let splits = [
            ("--batch", s.batch, "dp", self.step.dp),
            ("--seq", s.seq, "sp", sp),
            ("--kv-heads", s.kv_heads, "tp", self.step.tp),
            ("--ffn", s.ffn, "tp", self.step.tp),
            ("--vocab", s.vocab, "tp", self.step.tp),
        ];
        for (option, size, axis, shards) in splits {
            if size < shards {
                return Err(format!(
                    "{option} {size} has fewer entries than {axis}={shards}: a split dim needs at least one per shard"
                ));
            }
        }
        if s.heads % s.kv_heads != 0 {
            return Err(format!(
                "--heads {} is not a multiple of --kv-heads {}: each key/value head serves a whole group",
                s.heads, s.kv_heads
            ));
        }
        if s.head_dim % 2 != 0 {
            return Err(format!(
                "--head-dim {} is odd; rotary embeddings rotate its two halves",
                s.head_dim
            ));
        }
        if self.balance && s.seq % (2 * sp) != 0 {
            return Err(format!(
                "--seq {} is not a multiple of 2 x sp = {}: --balance gives each sp shard two of 2 x sp equal chunks",
                s.seq,
                2 * sp
            ));
        }
        if let Some(moe) = &self.moe {
            moe.check()?;
            if self.balance {
                return Err(
                    "--balance with experts: the capacity groups follow the sp shards, so permuting \
                            the tokens would change which of them compete for an expert's slots"
                        .to_owned(),
                );
            }
            let ep = self.step.ep.unwrap_or(1);
            let even = [
                ("--batch", s.batch, "dp x ep", self.step.dp * ep),
                ("--seq", s.seq, "sp", sp),
                ("--experts", moe.experts, "ep", ep),
            ];
            for (option, size, axes, shards) in even {
                if size % shards != 0 {
                    return Err(format!(
                        "{option} {size} does not split evenly over {axes}={shards}: each shard holds whole \
                         token groups and whole experts"
                    ));
                }
            }
        }
        Ok(())
    }

    /// The experts' token groups: each data shard's tokens.
    fn groups(&self) -> Groups {
        let s = &self.sizes;
        let batch_groups = self.step.dp * self.step.ep.unwrap_or(1);
        let seq_groups = self.step.sp.unwrap_or(1);
        Groups {
            batch_groups,
            seq_groups,
            tokens: (s.batch / batch_groups) * (s.seq / seq_groups),
        }
    }
}

impl Generator {
    fn layer_params(&mut self, l: usize) -> Layer {
        let s = self.config.sizes;
        let (h, kv, ff) = (self.config.hidden(), s.kv_heads * s.head_dim, s.ffn);
        let column: &[&[&str]] = &[&[], &["tp"]];
        let row: &[&[&str]] = &[&["tp"], &[]];
        let program = &mut self.program;
        let mut param = |name: &str, shape: &[i64], dims: &[&[&'static str]]| {
            program.compute_param(&format!("{name}_{l}"), shape, dims)
        };
        let attn_norm = param("attn_norm", &[h], &[&[]]);
        let (wq, wk) = (param("wq", &[h, h], column), param("wk", &[h, kv], column));
        let (wv, wo) = (param("wv", &[h, kv], column), param("wo", &[h, h], row));
        let mlp_norm = param("mlp_norm", &[h], &[&[]]);
        let mlp = match &self.config.moe {
            None => Mlp::Dense {
                w1: param("w1", &[h, ff], column),
                w3: param("w3", &[h, ff], column),
                w2: param("w2", &[ff, h], row),
            },
            Some(moe) => Mlp::Experts(moe.params(program, l, h, ff)),
        };
        Layer {
            attn_norm,
            wq,
            wk,
            wv,
            wo,
            mlp_norm,
            mlp,
        }
    }

    /// `t * cos + rotate_half(t) * sin` of heads `t` (`[..., seq, head_dim]`),
    /// `rotate_half(t) = [-t2, t1]` of its halves.
    fn rotary(&mut self, t: &V, shape: &[i64]) -> V {
        let rank = shape.len();
        let half: Vec<i64> = shape[..rank - 1].iter().copied().chain([shape[rank - 1] / 2]).collect();
        let offsets = |last: i64| {
            let mut o = vec![0; rank];
            o[rank - 1] = last;
            format!(
                " {{offsets = array<i64: {}>, sizes = array<i64: {}>}}",
                join(&o),
                join(&half)
            )
        };
        let body = &mut self.program.body;
        let lo = body.one("slice", &[t], &offsets(0), &half);
        let hi = body.one("slice", &[t], &offsets(half[rank - 1]), &half);
        let neg = body.one("neg", &[&hi], "", &half);
        let rotated = body.one("concat", &[&neg, &lo], &format!(" {{dim = {} : i64}}", rank - 1), shape);
        let t_cos = body.one("mul", &[t, &self.cos], "", shape);
        let r_sin = body.one("mul", &[&rotated, &self.sin], "", shape);
        body.one("add", &[&t_cos, &r_sin], "", shape)
    }

    fn layer(&mut self, x: &V, p: &Layer) -> V {
        let c = self.config;
        let s = c.sizes;
        let (b, n, h, d) = (s.batch, s.seq, c.hidden(), s.head_dim);
        let (kv, group) = (s.kv_heads, s.heads / s.kv_heads);
        let act = [b, n, h];
        let body = &mut self.program.body;
        let hn = body.op("rms_norm", &[x, &p.attn_norm], NORM, &[&act, &[b, n]]);
        let q = body.one("matmul", &[&hn[0], &p.wq], "", &act);
        let k = body.one("matmul", &[&hn[0], &p.wk], "", &[b, n, kv * d]);
        let v = body.one("matmul", &[&hn[0], &p.wv], "", &[b, n, kv * d]);
        // [batch, seq, kv head, group, head dim] -> [batch, kv head, group, seq, head dim]
        let heads = |body: &mut Body, t: &V, g: i64| {
            let split = body.one("reshape", &[t], "", &[b, n, kv, g, d]);
            body.one("transpose", &[&split], PERM_HEADS, &[b, kv, g, n, d])
        };
        let (q, k, v) = (heads(body, &q, group), heads(body, &k, 1), heads(body, &v, 1));
        let q = self.rotary(&q, &[b, kv, group, n, d]);
        let k = self.rotary(&k, &[b, kv, 1, n, d]);
        let scale = 1.0 / (d as f64).sqrt();
        let heads_shape = [b, kv, group, n, d];
        let body = &mut self.program.body;
        // The size-1 group dim of k and v broadcasts over the query heads.
        let ctx = if c.fused_attention || c.balance {
            let balance = match (c.balance, c.step.sp) {
                (true, Some(sp)) => format!("balance = {sp} : i64, "),
                _ => String::new(),
            };
            let attrs = format!(" {{{balance}causal, scale = {scale:?} : f64}}");
            let types = [tensor(&heads_shape, q.element()), tensor(&[b, kv, group, n], "f32")];
            body.typed("attention", &[&q, &k, &v], &attrs, &types).remove(0)
        } else {
            let scores_shape = [b, kv, group, n, n];
            let scores = body.one("matmul", &[&q, &k], " {transpose_y}", &scores_shape);
            let scaled = body.scale(&scores, scale);
            let masked = body.one("causal_mask", &[&scaled], "", &scores_shape);
            let probs = body.one("softmax", &[&masked], " {axis = 4 : i64}", &scores_shape);
            body.one("matmul", &[&probs, &v], "", &heads_shape)
        };
        let ctx = body.one("transpose", &[&ctx], PERM_BACK, &[b, n, kv, group, d]);
        let ctx = body.one("reshape", &[&ctx], "", &act);
        let o = body.one("matmul", &[&ctx, &p.wo], "", &act);
        let x1 = body.one("add", &[x, &o], "", &act);
        let mn = body.op("rms_norm", &[&x1, &p.mlp_norm], NORM, &[&act, &[b, n]]);
        let down = match &p.mlp {
            Mlp::Dense { w1, w3, w2 } => swiglu(body, &mn[0], [w1, w3, w2], s.ffn),
            Mlp::Experts(experts) => {
                let (down, aux) = experts.block(body, &mn[0], c.groups(), s.ffn);
                self.aux_losses.push(aux);
                down
            }
        };
        body.one("add", &[&x1, &down], "", &act)
    }

    /// The forward pass: its loss.
    fn forward(&mut self, ids: &V, labels: &V) -> V {
        let c = self.config;
        let s = c.sizes;
        let (b, n, h) = (s.batch, s.seq, c.hidden());
        let embed = self.program.compute_param("embed", &[s.vocab, h], &[&["tp"], &[]]);
        let layers: Vec<Layer> = (0..c.step.layers).map(|l| self.layer_params(l)).collect();
        let final_norm = self.program.compute_param("final_norm", &[h], &[&[]]);
        let lm_head = self.program.compute_param("lm_head", &[h, s.vocab], &[&[], &["tp"]]);
        let mut x = self.program.body.one("embedding", &[ids, &embed], "", &[b, n, h]);
        for (l, p) in layers.iter().enumerate() {
            x = self.layer(&x, p);
            if c.step.ends_stage(l) {
                x = self.program.body.one("stage_boundary", &[&x], "", &[b, n, h]);
            }
        }
        let body = &mut self.program.body;
        let f = body.op("rms_norm", &[&x, &final_norm], NORM, &[&[b, n, h], &[b, n]]);
        let logits = body.one("matmul", &[&f[0], &lm_head], "", &[b, n, s.vocab]);
        // The loss in f32, as mixed precision computes it.
        let logits = body.cast(&logits, "f32");
        let loss = body.one("cross_entropy", &[&logits, labels], "", &[]);
        let (Some(moe), Some(first)) = (c.moe, self.aux_losses.first()) else {
            return loss;
        };
        let aux = self.aux_losses[1..]
            .iter()
            .fold(first.clone(), |sum, a| body.one("add", &[&sum, a], "", &[]));
        let weighted = body.scale(&aux, moe.aux_loss_coef);
        body.one("add", &[&loss, &weighted], "", &[])
    }
}

/// SwiGLU of `x` (`[..., hidden]`): `(silu(x w1) * (x w3)) w2`, the
/// gate `w1` and up `w3` of `ffn` columns (batched weights multiply batched
/// inputs, as the experts' do).
pub(super) fn swiglu(body: &mut Body, x: &V, [w1, w3, w2]: [&V; 3], ffn: i64) -> V {
    let shape = x.shape();
    let hidden: Vec<i64> = shape[..shape.len() - 1].iter().copied().chain([ffn]).collect();
    let gate = body.one("matmul", &[x, w1], "", &hidden);
    let up = body.one("matmul", &[x, w3], "", &hidden);
    let act_gate = body.one("silu", &[&gate], "", &hidden);
    let glu = body.one("mul", &[&act_gate, &up], "", &hidden);
    body.one("matmul", &[&glu, w2], "", &shape)
}

/// [batch, seq, kv head, group, head dim] -> [batch, kv head, group, seq, head dim]
const PERM_HEADS: &str = " {perm = array<i64: 0, 2, 3, 1, 4>}";
/// Its inverse.
const PERM_BACK: &str = " {perm = array<i64: 0, 3, 1, 2, 4>}";

fn join(values: &[i64]) -> String {
    values.iter().map(i64::to_string).collect::<Vec<_>>().join(", ")
}

/// The program text of a Llama step (see the module documentation); an
/// error says which size or option cannot be generated.
pub fn llama(config: LlamaConfig) -> Result<String, String> {
    config.check()?;
    let mut program = Program::new(&config.step);
    let s = config.sizes;
    let seq_axes: &[&str] = if config.step.sp.is_some() { &["sp"] } else { &[] };
    let batch_axes = config.step.batch_axes();
    let ids = program.data("ids", &[s.batch, s.seq], "i64", &[batch_axes, seq_axes]);
    let labels = program.data("labels", &[s.batch, s.seq], "i64", &[batch_axes, seq_axes]);
    let positions = config
        .balance
        .then(|| program.arg("positions", &[s.seq], "i64", Some(&[seq_axes])));
    let cos = program.arg("cos", &[s.seq, s.head_dim], "f32", None);
    let sin = program.arg("sin", &[s.seq, s.head_dim], "f32", None);
    let (mut cos, mut sin) = (program.to_compute(&cos), program.to_compute(&sin));
    if let Some(positions) = positions {
        // The rotary tables' rows of the tokens' positions.
        let body = &mut program.body;
        cos = body.one("embedding", &[&positions, &cos], "", &[s.seq, s.head_dim]);
        sin = body.one("embedding", &[&positions, &sin], "", &[s.seq, s.head_dim]);
    }
    let mut generator = Generator {
        config,
        program,
        cos,
        sin,
        aux_losses: Vec::new(),
    };
    let loss = generator.forward(&ids, &labels);
    generator.program.check_zero()?;
    let (model, generator_name, prefix) = match &config.moe {
        None => ("Llama".to_owned(), "dist-gen llama", "llama"),
        Some(moe) => (
            format!("Mixtral-style MoE ({} experts, top-{})", moe.experts, moe.top_k),
            "dist-gen moe",
            "moe",
        ),
    };
    let layers = format!("{} layers", config.step.layers);
    let step_name = format!("{prefix}_step");
    if config.step.forward_only {
        return Ok(generator.program.print(
            (&format!("{model} forward pass and loss: {layers}"), generator_name),
            &step_name,
            true,
            &[(loss, None)],
        ));
    }
    generator.program.name_locs = true;
    let forward_name = if config.step.optimizer.is_some() {
        format!("{prefix}_grads")
    } else {
        step_name.clone()
    };
    let forward = generator.program.print(
        (&format!("{model} training step: {layers}"), generator_name),
        &forward_name,
        true,
        &[(loss, None)],
    );
    let Some(optimizer) = config.step.optimizer else {
        return differentiate(&forward, config.recompute, None);
    };
    let program = &mut generator.program;
    // The step: call the differentiated forward pass (the loss, then each
    // parameter's gradient) and update every parameter.
    let params: Vec<(V, Option<Layout>)> = program.params().map(|p| (p.value.clone(), p.layout.clone())).collect();
    let loss_type = "tensor<f32>".to_owned();
    let result_types: Vec<String> = std::iter::once(loss_type.clone())
        .chain(params.iter().map(|(p, _)| p.ty.clone()))
        .collect();
    program.body = Body::default();
    let operands: Vec<V> = program.args.iter().map(|a| a.value.clone()).collect();
    let results = program.body.call(&forward_name, &operands, &result_types);
    let mut results = results.into_iter();
    let loss = results.next().expect("the loss");
    let mut returned = vec![(loss, None)];
    returned.extend(program.update(optimizer, results.collect()));
    let step = program.print_function(&step_name, false, &returned);
    differentiate(&forward, config.recompute, Some(&step))
}

/// `forward` differentiated by `dist-append-backward` (with `recompute`,
/// recomputing activations); with a `step` function calling it, the step
/// with the differentiated forward inlined.
fn differentiate(forward: &str, recompute: bool, step: Option<&str>) -> Result<String, String> {
    dist_passes::register_all();
    let context = context_with_all_dialects();
    let failed = |what: &str| format!("internal error: the generated program {what}");
    let mut module = parse_module(&context, forward, "dist-gen").ok_or_else(|| failed("does not parse"))?;
    let pass = format!("func.func(dist-append-backward{{recompute={recompute}}})");
    run_pipeline(&context, &mut module, &pass).map_err(|e| failed(&e.to_string()))?;
    let comment = forward.lines().next().unwrap_or_default();
    // The arguments' names, from their name locations.
    let named = PrintFlags {
        generic: false,
        name_loc_as_prefix: true,
    };
    let Some(step) = step else {
        return Ok(format!("{comment}\n{}", print_op(&module.as_operation(), named)));
    };
    let mut text = String::new();
    for op in block_ops(module.body()) {
        // Private, so that nothing is left of it once inlined.
        if op_name(&op) == "func.func" {
            set_attribute(op, "sym_visibility", StringAttribute::new(&context, "private").into());
        }
        text.push_str(&op.to_string());
        text.push('\n');
    }
    text.push_str(step);
    let mut module = parse_module(&context, &text, "dist-gen").ok_or_else(|| failed("step does not parse"))?;
    run_pipeline(&context, &mut module, "inline,symbol-dce").map_err(|e| failed(&e.to_string()))?;
    Ok(format!("{comment}\n{}", print_op(&module.as_operation(), named)))
}
