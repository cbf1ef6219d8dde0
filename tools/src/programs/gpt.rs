//! A GPT-style training step in the global view, for tests and benchmarks
//! (`dist-gen gpt`).
//!
//! Token embedding (vocab-parallel), then per layer: layer_norm, q/k/v
//! projections (column-parallel), attention with scale and softmax, the
//! output projection (row-parallel), a residual add, layer_norm, the MLP
//! (column-parallel with bias and gelu, then row-parallel) and a residual
//! add; a final layer_norm, logits through the tied embedding and a mean
//! squared error loss. The backward pass follows with every gradient op.
//! Only parameters and inputs carry shardings (Megatron's annotations): the
//! batch over `dp`, the sequence over `sp` when given, the hidden dims of
//! the projections and the vocabulary over `tp`.
//!
//! With `forward_only` the program stops at the loss and marks every
//! parameter `dist.requires_grad`, for `dist-append-backward` to write the
//! backward. With an `optimizer` the step ends in each parameter's update
//! and returns the new parameters and optimizer states; `zero` chooses the
//! ZeRO stage by layouts alone: from 1 on the states are split over `dp`
//! too, at 3 the parameters as well.

use super::{Body, Program, Step, V, fits};

/// Shape of the generated program.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct GptConfig {
    pub step: Step,
    pub sizes: Sizes,
}

/// Per-shard model sizes: the global sizes are these times the mesh axes
/// that split them. The defaults make a small program for tests.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Sizes {
    /// Sequences per dp shard.
    pub batch: i64,
    /// Tokens per sp shard.
    pub seq: i64,
    /// Attention heads per tp shard.
    pub heads: i64,
    pub head_dim: i64,
    /// Vocabulary entries per tp shard.
    pub vocab: i64,
}

impl Default for Sizes {
    fn default() -> Self {
        Self {
            batch: 2,
            seq: 16,
            heads: 2,
            head_dim: 32,
            vocab: 128,
        }
    }
}

impl GptConfig {
    fn batch(&self) -> i64 {
        self.sizes.batch * self.step.dp
    }
    fn seq(&self) -> i64 {
        self.sizes.seq * self.step.sp.unwrap_or(1)
    }
    fn heads(&self) -> i64 {
        self.sizes.heads * self.step.tp
    }
    fn hidden(&self) -> i64 {
        self.heads() * self.sizes.head_dim
    }
    fn vocab(&self) -> i64 {
        self.sizes.vocab * self.step.tp
    }
}

struct Layer {
    ln1: (V, V),
    wq: V,
    wk: V,
    wv: V,
    wo: V,
    ln2: (V, V),
    w1: V,
    b1: V,
    w2: V,
}

/// What the backward pass needs of one layer's forward pass.
struct Saved {
    x: V,
    ln1: Vec<V>,
    q: V,
    k: V,
    v: V,
    probs: V,
    ctx: V,
    o: V,
    x1: V,
    ln2: Vec<V>,
    h: V,
    hb: V,
    a: V,
    m: V,
}

struct Generator {
    config: GptConfig,
    program: Program,
}

impl Generator {
    /// The split of the sequence dim of activations.
    fn seq_axes(&self) -> &'static [&'static str] {
        if self.config.step.sp.is_some() { &["sp"] } else { &[] }
    }

    fn layer_params(&mut self, l: usize) -> Layer {
        let (h, ff) = (self.config.hidden(), 4 * self.config.hidden());
        let replicated: &[&[&str]] = &[&[]];
        let column: &[&[&str]] = &[&[], &["tp"]];
        let row: &[&[&str]] = &[&["tp"], &[]];
        let mut param = |name: &str, shape: &[i64], dims: &[&[&'static str]]| {
            self.program.compute_param(&format!("{name}_{l}"), shape, dims)
        };
        Layer {
            ln1: (param("ln1_g", &[h], replicated), param("ln1_b", &[h], replicated)),
            wq: param("wq", &[h, h], column),
            wk: param("wk", &[h, h], column),
            wv: param("wv", &[h, h], column),
            wo: param("wo", &[h, h], row),
            ln2: (param("ln2_g", &[h], replicated), param("ln2_b", &[h], replicated)),
            w1: param("w1", &[h, ff], column),
            b1: param("b1", &[ff], &[&["tp"]]),
            w2: param("w2", &[ff, h], row),
        }
    }

    fn shapes(&self) -> (i64, i64, i64, i64, i64) {
        let c = &self.config;
        (c.batch(), c.seq(), c.hidden(), c.heads(), c.sizes.head_dim)
    }

    fn layer_forward(&mut self, x: &V, p: &Layer) -> (V, Saved) {
        let (b, s, h, nh, d) = self.shapes();
        let ff = 4 * h;
        let act = [b, s, h];
        let stats = [b, s];
        let norm = " {begin_norm_axis = 2 : i64}";
        let body = &mut self.program.body;
        let ln1 = body.op("layer_norm", &[x, &p.ln1.0, &p.ln1.1], norm, &[&act, &stats, &stats]);
        let q = body.one("matmul", &[&ln1[0], &p.wq], "", &act);
        let k = body.one("matmul", &[&ln1[0], &p.wk], "", &act);
        let v = body.one("matmul", &[&ln1[0], &p.wv], "", &act);
        let heads = |body: &mut Body, t: &V| {
            let split = body.one("reshape", &[t], "", &[b, s, nh, d]);
            body.one(
                "transpose",
                &[&split],
                " {perm = array<i64: 0, 2, 1, 3>}",
                &[b, nh, s, d],
            )
        };
        let (qh, kh, vh) = (heads(body, &q), heads(body, &k), heads(body, &v));
        let scores = body.one("matmul", &[&qh, &kh], " {transpose_y}", &[b, nh, s, s]);
        let scaled = body.scale(&scores, 1.0 / (d as f64).sqrt());
        let probs = body.one("softmax", &[&scaled], " {axis = -1 : i64}", &[b, nh, s, s]);
        let ctxh = body.one("matmul", &[&probs, &vh], "", &[b, nh, s, d]);
        let ctxt = body.one(
            "transpose",
            &[&ctxh],
            " {perm = array<i64: 0, 2, 1, 3>}",
            &[b, s, nh, d],
        );
        let ctx = body.one("reshape", &[&ctxt], "", &act);
        let o = body.one("matmul", &[&ctx, &p.wo], "", &act);
        let x1 = body.one("add", &[x, &o], "", &act);
        let ln2 = body.op("layer_norm", &[&x1, &p.ln2.0, &p.ln2.1], norm, &[&act, &stats, &stats]);
        let hm = body.one("matmul", &[&ln2[0], &p.w1], "", &[b, s, ff]);
        let hb = body.one("add", &[&hm, &p.b1], "", &[b, s, ff]);
        let a = body.one("gelu", &[&hb], " {approximate = \"tanh\"}", &[b, s, ff]);
        let m = body.one("matmul", &[&a, &p.w2], "", &act);
        let x2 = body.one("add", &[&x1, &m], "", &act);
        let saved = Saved {
            x: x.clone(),
            ln1,
            q: qh,
            k: kh,
            v: vh,
            probs,
            ctx,
            o: o.clone(),
            x1,
            ln2,
            h: hm,
            hb,
            a,
            m: m.clone(),
        };
        (x2, saved)
    }

    /// Backward of one layer: the gradient of its input and of each
    /// parameter, in parameter order.
    fn layer_backward(&mut self, dx2: &V, p: &Layer, f: &Saved) -> (V, Vec<V>) {
        let (b, s, h, nh, d) = self.shapes();
        let ff = 4 * h;
        let act = [b, s, h];
        let norm = " {begin_norm_axis = 2 : i64}";
        let heads_perm = " {perm = array<i64: 0, 2, 1, 3>}";
        let body = &mut self.program.body;
        let res2 = body.op("add_grad", &[&f.x1, &f.m, dx2], "", &[&act, &act]);
        let mlp2 = body.op("matmul_grad", &[&f.a, &p.w2, &res2[1]], "", &[&[b, s, ff], &[ff, h]]);
        let dhb = body.one(
            "gelu_grad",
            &[&f.hb, &mlp2[0]],
            " {approximate = \"tanh\"}",
            &[b, s, ff],
        );
        let bias = body.op("add_grad", &[&f.h, &p.b1, &dhb], "", &[&[b, s, ff], &[ff]]);
        let mlp1 = body.op("matmul_grad", &[&f.ln2[0], &p.w1, &bias[0]], "", &[&act, &[h, ff]]);
        let ln2 = body.op(
            "layer_norm_grad",
            &[&f.x1, &p.ln2.0, &f.ln2[1], &f.ln2[2], &mlp1[0]],
            norm,
            &[&act, &[h], &[h]],
        );
        let dx1 = body.one("add", &[&res2[0], &ln2[0]], "", &act);
        let res1 = body.op("add_grad", &[&f.x, &f.o, &dx1], "", &[&act, &act]);
        let out = body.op("matmul_grad", &[&f.ctx, &p.wo, &res1[1]], "", &[&act, &[h, h]]);
        let dctxt = body.one("reshape", &[&out[0]], "", &[b, s, nh, d]);
        let dctxh = body.one("transpose", &[&dctxt], heads_perm, &[b, nh, s, d]);
        let pv = body.op(
            "matmul_grad",
            &[&f.probs, &f.v, &dctxh],
            "",
            &[&[b, nh, s, s], &[b, nh, s, d]],
        );
        let dscaled = body.one(
            "softmax_grad",
            &[&f.probs, &pv[0]],
            " {axis = -1 : i64}",
            &[b, nh, s, s],
        );
        let dscores = body.scale(&dscaled, 1.0 / (d as f64).sqrt());
        let qk = body.op(
            "matmul_grad",
            &[&f.q, &f.k, &dscores],
            " {transpose_y}",
            &[&[b, nh, s, d], &[b, nh, s, d]],
        );
        let merge = |body: &mut Body, t: &V| {
            let back = body.one("transpose", &[t], heads_perm, &[b, s, nh, d]);
            body.one("reshape", &[&back], "", &act)
        };
        let (dq, dk, dv) = (merge(body, &qk[0]), merge(body, &qk[1]), merge(body, &pv[1]));
        let proj_q = body.op("matmul_grad", &[&f.ln1[0], &p.wq, &dq], "", &[&act, &[h, h]]);
        let proj_k = body.op("matmul_grad", &[&f.ln1[0], &p.wk, &dk], "", &[&act, &[h, h]]);
        let proj_v = body.op("matmul_grad", &[&f.ln1[0], &p.wv, &dv], "", &[&act, &[h, h]]);
        let dqk = body.one("add", &[&proj_q[0], &proj_k[0]], "", &act);
        let dln1 = body.one("add", &[&dqk, &proj_v[0]], "", &act);
        let ln1 = body.op(
            "layer_norm_grad",
            &[&f.x, &p.ln1.0, &f.ln1[1], &f.ln1[2], &dln1],
            norm,
            &[&act, &[h], &[h]],
        );
        let dx = body.one("add", &[&res1[0], &ln1[0]], "", &act);
        let grads = vec![
            ln1[1].clone(),
            ln1[2].clone(),
            proj_q[1].clone(),
            proj_k[1].clone(),
            proj_v[1].clone(),
            out[1].clone(),
            ln2[1].clone(),
            ln2[2].clone(),
            mlp1[1].clone(),
            bias[1].clone(),
            mlp2[1].clone(),
        ];
        (dx, grads)
    }

    fn generate(mut self) -> Result<String, String> {
        let c = self.config;
        let (b, s, h, _, _) = self.shapes();
        let v = c.vocab();
        let seq = self.seq_axes();
        let ids = self.program.data("ids", &[b, s], "i64", &[&["dp"], seq]);
        let targets = self
            .program
            .data("targets", &[b, s, v], "f32", &[&["dp"], seq, &["tp"]]);
        let dloss = (!c.step.forward_only).then(|| self.program.arg("dloss", &[], "f32", Some(&[])));
        let table = self.program.compute_param("table", &[v, h], &[&["tp"], &[]]);
        let lnf = (
            self.program.compute_param("lnf_g", &[h], &[&[]]),
            self.program.compute_param("lnf_b", &[h], &[&[]]),
        );
        let layers: Vec<Layer> = (0..c.step.layers).map(|l| self.layer_params(l)).collect();
        let act = [b, s, h];
        let norm = " {begin_norm_axis = 2 : i64}";

        let mut x = self.program.body.one("embedding", &[&ids, &table], "", &act);
        let mut saved = Vec::with_capacity(c.step.layers);
        for (l, p) in layers.iter().enumerate() {
            let (next, f) = self.layer_forward(&x, p);
            saved.push(f);
            x = next;
            if c.step.ends_stage(l) {
                x = self.program.body.one("stage_boundary", &[&x], "", &act);
            }
        }
        let body = &mut self.program.body;
        let lnf_out = body.op("layer_norm", &[&x, &lnf.0, &lnf.1], norm, &[&act, &[b, s], &[b, s]]);
        let logits = body.one("matmul", &[&lnf_out[0], &table], " {transpose_y}", &[b, s, v]);
        // The loss in f32, as mixed precision computes it.
        let logits = body.cast(&logits, "f32");
        let diff = body.one("sub", &[&logits, &targets], "", &[b, s, v]);
        let sq = body.one("mul", &[&diff, &diff], "", &[b, s, v]);
        let loss = body.one("reduce_mean", &[&sq], ALL_DIMS, &[]);

        // Results: the loss, then one gradient per parameter, declared with
        // the parameter's sharding.
        let mut results = vec![(loss, None)];
        if let Some(dloss) = dloss {
            let head = Head {
                ids,
                targets,
                dloss,
                table,
                lnf,
                x,
                lnf_out,
                logits,
                diff,
                sq,
            };
            // Each parameter's gradient as its master copy's: f32.
            let grads = self.backward(&head, &layers, &saved);
            let grads = grads.iter().map(|g| self.program.body.cast(g, "f32")).collect();
            match c.step.optimizer {
                Some(optimizer) => {
                    let updated = self.program.update(optimizer, grads);
                    results.extend(updated);
                }
                None => {
                    let layouts: Vec<_> = self.program.params().map(|p| p.layout.clone()).collect();
                    results.extend(grads.into_iter().zip(layouts));
                }
            }
        }
        self.program.check_zero()?;
        let what = if c.step.forward_only {
            "GPT forward pass and loss"
        } else {
            "GPT training step"
        };
        let what = format!("{what}: {} layers", c.step.layers);
        Ok(self
            .program
            .print((&what, "dist-gen gpt"), "gpt_step", c.step.forward_only, &results))
    }

    /// The hand-written backward pass: the gradient of every parameter, in
    /// parameter order.
    fn backward(&mut self, f: &Head, layers: &[Layer], saved: &[Saved]) -> Vec<V> {
        let (b, s, h, _, _) = self.shapes();
        let v = self.config.vocab();
        let act = [b, s, h];
        let norm = " {begin_norm_axis = 2 : i64}";
        let body = &mut self.program.body;
        let dsq = body.one("reduce_mean_grad", &[&f.sq, &f.dloss], ALL_DIMS, &[b, s, v]);
        let dd = body.op("mul_grad", &[&f.diff, &f.diff, &dsq], "", &[&[b, s, v], &[b, s, v]]);
        let ddiff = body.one("add", &[&dd[0], &dd[1]], "", &[b, s, v]);
        let dsub = body.op(
            "sub_grad",
            &[&f.logits, &f.targets, &ddiff],
            "",
            &[&[b, s, v], &[b, s, v]],
        );
        let dlogits = body.cast(&dsub[0], f.table.element());
        let dhead = body.op(
            "matmul_grad",
            &[&f.lnf_out[0], &f.table, &dlogits],
            " {transpose_y}",
            &[&act, &[v, h]],
        );
        let dlnf = body.op(
            "layer_norm_grad",
            &[&f.x, &f.lnf.0, &f.lnf_out[1], &f.lnf_out[2], &dhead[0]],
            norm,
            &[&act, &[h], &[h]],
        );
        let mut dx = dlnf[0].clone();
        let mut layer_grads = Vec::with_capacity(layers.len());
        for (l, (p, saved)) in layers.iter().zip(saved).enumerate().rev() {
            // The gradient crosses each stage boundary the other way.
            if self.config.step.ends_stage(l) {
                dx = self.program.body.one("stage_boundary", &[&dx], "", &act);
            }
            let (next, grads) = self.layer_backward(&dx, p, saved);
            layer_grads.push(grads);
            dx = next;
        }
        layer_grads.reverse();
        let body = &mut self.program.body;
        let dlookup = body.one("embedding_grad", &[&f.ids, &f.table, &dx], "", &[v, h]);
        let dtable = body.one("add", &[&dhead[1], &dlookup], "", &[v, h]);
        std::iter::once(dtable)
            .chain([dlnf[1].clone(), dlnf[2].clone()])
            .chain(layer_grads.into_iter().flatten())
            .collect()
    }
}

/// The reduction of the loss over every dim.
const ALL_DIMS: &str = " {dims = array<i64: 0, 1, 2>}";

/// What the backward pass needs of the embedding, the final layer_norm and
/// the loss.
struct Head {
    ids: V,
    targets: V,
    dloss: V,
    table: V,
    lnf: (V, V),
    x: V,
    lnf_out: Vec<V>,
    logits: V,
    diff: V,
    sq: V,
}

/// The program text of a GPT training step; an error names the
/// parameters a ZeRO stage cannot split over dp (no dim divides evenly).
pub fn gpt(config: GptConfig) -> Result<String, String> {
    let (s, step) = (config.sizes, config.step);
    let (b, n, v) = ([s.batch, step.dp], [s.seq, step.sp.unwrap_or(1)], [s.vocab, step.tp]);
    let h = [s.heads, step.tp, s.head_dim];
    fits("the targets [batch, seq, vocab]", &[&b[..], &n, &v].concat())?;
    fits(
        "the MLP's activations [batch, seq, 4 hidden]",
        &[&b[..], &n, &h, &[4]].concat(),
    )?;
    fits(
        "the attention scores [batch, heads, seq, seq]",
        &[&b[..], &h[..2], &n, &n].concat(),
    )?;
    fits("the embedding [vocab, hidden]", &[&v[..], &h].concat())?;
    fits("w1 [hidden, 4 hidden]", &[&h[..], &h, &[4]].concat())?;
    let generator = Generator {
        config,
        program: Program::new(&config.step),
    };
    generator.generate()
}
