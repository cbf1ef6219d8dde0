//! The mixture-of-experts MLP of `dist-gen moe`: Mixtral's router and
//! SwiGLU experts in GShard's formulation with a static capacity, as GSPMD
//! compiles it.
//!
//! The tokens form groups: each data shard's tokens (the batch split over
//! dp and ep, the sequence over sp) one group of `T` tokens. The group
//! dims are the batch's groups and, with sp, the sequence's: two dims, as
//! one dim split over dp x ep and sp would not stay split. Per group the
//! router scores every token for every expert (softmax of `x Wg`), each
//! token picks its `k` best experts (`dist.top_k`) and their weights are
//! renormalised to sum to 1. Each expert takes at most `capacity` tokens of
//! a group, in GShard's order: every token's first choice before any
//! token's second, and within one choice in token order (the running sum of
//! the one-hot choices, `dist.cumsum`); a choice past the capacity is
//! dropped (the token keeps its residual, with fewer or no experts). The
//! `dispatch` and `combine` tensors `[groups..., token, expert, slot]` hold a 1,
//! or the choice's weight, where a token fills a slot. The experts' inputs
//! are `dispatch`'s einsum with the tokens, `[groups..., expert, slot,
//! hidden]`; every expert's SwiGLU runs batched over the expert dim
//! (weights `[experts, hidden, ffn]` broadcast over the group dims, the
//! experts split over ep, ffn over tp), and `combine` takes the outputs
//! back to the tokens.
//!
//! No collective is written: the tokens arrive split over dp and ep by
//! group, the expert weights split over ep by expert, and propagation
//! derives the all_to_all that moves ep from the group dim to the expert
//! dim and the one back (and their transposes in the backward).
//!
//! The load-balancing loss is the Switch Transformer's with Mixtral's top-k
//! counting, per layer: `E * sum_e f_e P_e`, with `f_e` the fraction of
//! tokens that chose expert `e` among their k (so the `f_e` sum to k, as in
//! Hugging Face's `load_balancing_loss_func`) and `P_e` the mean router
//! probability of `e`, both over all tokens of the step, before any
//! capacity drop; the step's loss adds `aux_loss_coef` times its sum over
//! the layers (as Switch and MaxText sum it; Hugging Face's Mixtral
//! instead computes one loss over all layers' tokens pooled).

use super::llama::swiglu;
use super::{Body, Program, V};
use dist_dialect::ir::tensor_type_text as tensor;

/// The experts of every layer.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct MoeConfig {
    pub experts: i64,
    /// Experts each token is routed to.
    pub top_k: i64,
    /// Each expert's slots per group: `ceil(capacity_factor * T * k / E)`
    /// of a group's `T` tokens, at most `T`.
    pub capacity_factor: f64,
    /// The weight of the load-balancing loss in the step's loss.
    pub aux_loss_coef: f64,
}

impl Default for MoeConfig {
    fn default() -> Self {
        Self {
            experts: 4,
            top_k: 2,
            capacity_factor: 1.25,
            aux_loss_coef: 0.01,
        }
    }
}

/// One layer's router and experts.
pub struct Experts {
    config: MoeConfig,
    router: V,
    w1: V,
    w3: V,
    w2: V,
}

/// How the tokens `[batch, seq]` form groups: `batch_groups` of the batch
/// times `seq_groups` of the sequence, `tokens` each.
#[derive(Debug, Clone, Copy)]
pub struct Groups {
    pub batch_groups: i64,
    pub seq_groups: i64,
    pub tokens: i64,
}

impl MoeConfig {
    /// Each expert's slots in a group of `tokens` tokens. The product is
    /// rounded up less a hair, so that a factor like 1.1 that is not exact
    /// in binary does not round 11.000000000000002 up to 12.
    pub fn capacity(&self, tokens: i64) -> i64 {
        let wanted = self.capacity_factor * (tokens * self.top_k) as f64 / self.experts as f64;
        ((wanted - 1e-9).ceil() as i64).clamp(1, tokens)
    }

    pub fn check(&self) -> Result<(), String> {
        if self.top_k > self.experts {
            return Err(format!(
                "--top-k {} is more than --experts {}: a token picks distinct experts",
                self.top_k, self.experts
            ));
        }
        if !(self.capacity_factor > 0.0 && self.capacity_factor.is_finite()) {
            return Err(format!(
                "--capacity-factor {} is not a positive number",
                self.capacity_factor
            ));
        }
        if !self.aux_loss_coef.is_finite() {
            return Err(format!("--aux-loss-coef {} is not a number", self.aux_loss_coef));
        }
        Ok(())
    }

    /// Layer `l`'s router `wg_<l>` `[hidden, experts]` (replicated) and
    /// experts `w1_<l>`, `w3_<l>` `[experts, hidden, ffn]`, `w2_<l>`
    /// `[experts, ffn, hidden]` (experts over ep, ffn over tp).
    pub fn params(&self, program: &mut Program, l: usize, hidden: i64, ffn: i64) -> Experts {
        let e = self.experts;
        let column: &[&[&str]] = &[&["ep"], &[], &["tp"]];
        let row: &[&[&str]] = &[&["ep"], &["tp"], &[]];
        Experts {
            config: *self,
            router: program.compute_param(&format!("wg_{l}"), &[hidden, e], &[&[], &[]]),
            w1: program.compute_param(&format!("w1_{l}"), &[e, hidden, ffn], column),
            w3: program.compute_param(&format!("w3_{l}"), &[e, hidden, ffn], column),
            w2: program.compute_param(&format!("w2_{l}"), &[e, ffn, hidden], row),
        }
    }
}

impl Experts {
    /// The MoE MLP of `x` (`[batch, seq, hidden]`): its output, of `x`'s
    /// shape, and the layer's load-balancing loss (f32, unscaled).
    pub fn block(&self, body: &mut Body, x: &V, groups: Groups, ffn: i64) -> (V, V) {
        let config = &self.config;
        let shape = x.shape();
        let (b, n, h) = (shape[0], shape[1], shape[2]);
        let (t, e, k) = (groups.tokens, config.experts, config.top_k);
        let c = config.capacity(t);
        let (gb, gs) = (groups.batch_groups, groups.seq_groups);
        // The group dims: the batch's groups and the sequence's kept apart
        // (split over dp x ep and over sp), one dim where there is no sp.
        let lead = if gs == 1 { vec![gb] } else { vec![gb, gs] };
        let r = lead.len();
        let at = |rest: &[i64]| [lead.as_slice(), rest].concat();
        // A reduction's dims, counted after the group dims.
        let dims = |ds: &[usize]| dims_attribute(ds.iter().map(|d| d + r));
        // [batch, seq, hidden] -> [groups..., token, hidden].
        let xg = if gs == 1 {
            body.reshape(x, &at(&[t, h]))
        } else {
            let split = body.reshape(x, &[gb, b / gb, gs, n / gs, h]);
            let grouped = body.one("transpose", &[&split], PERM_GROUPS, &[gb, gs, b / gb, n / gs, h]);
            body.reshape(&grouped, &at(&[t, h]))
        };

        // The router, in f32.
        let logits = body.one("matmul", &[&xg, &self.router], "", &at(&[t, e]));
        let logits = body.cast(&logits, "f32");
        let probs = body.one(
            "softmax",
            &[&logits],
            &format!(" {{axis = {} : i64}}", r + 1),
            &at(&[t, e]),
        );
        let picked = body.typed(
            "top_k",
            &[&probs],
            &format!(" {{k = {k} : i64}}"),
            &[tensor(&at(&[t, k]), "f32"), tensor(&at(&[t, k]), "i64")],
        );
        let (scores, choices) = (&picked[0], &picked[1]);
        let keepdim = format!(" {{dims = array<i64: {}>, keepdim}}", r + 1);
        let total = body.one("reduce_sum", &[scores], &keepdim, &at(&[t, 1]));
        let weights = body.one("div", &[scores, &total], "", &at(&[t, k]));

        // chosen[g..., t, j, e]: the j-th choice of token t is expert e.
        let choices = body.reshape(choices, &at(&[t, k, 1]));
        let expert_ids = body
            .typed("iota", &[], " {dim = 0 : i64}", &[tensor(&[e], "i64")])
            .remove(0);
        let chosen = body.compare(&choices, &expert_ids, "eq", &at(&[t, k, e]));

        // Each choice's slot: the choices before it in GShard's order (all
        // first choices, then all second ones, each in token order).
        let ones = body.cast(&chosen, "i32");
        let choice_major = swap_perm(r, r + 1, r + 3);
        let by_choice = body.one("transpose", &[&ones], &choice_major, &at(&[k, t, e]));
        let queue = body.reshape(&by_choice, &at(&[k * t, e]));
        let through = body.one("cumsum", &[&queue], &format!(" {{dim = {r} : i64}}"), &at(&[k * t, e]));
        let before = body.one("sub", &[&through, &queue], "", &at(&[k * t, e]));
        let before = body.reshape(&before, &at(&[k, t, e]));
        let before = body.one("transpose", &[&before], &choice_major, &at(&[t, k, e]));
        let before = body.reshape(&before, &at(&[t, k, e, 1]));
        let slots = body
            .typed("iota", &[], " {dim = 0 : i64}", &[tensor(&[c], "i32")])
            .remove(0);
        let in_slot = body.compare(&before, &slots, "eq", &at(&[t, k, e, c]));
        let chosen5 = body.reshape(&chosen, &at(&[t, k, e, 1]));
        // A choice past the capacity matches no slot: dropped.
        let fills = body
            .typed("and", &[&in_slot, &chosen5], "", &[tensor(&at(&[t, k, e, c]), "i1")])
            .remove(0);

        let compute = x.element().to_owned();
        let fills = body.cast(&fills, &compute);
        let dispatch = body.one("reduce_sum", &[&fills], &dims(&[1]), &at(&[t, e, c]));
        let weights = body.cast(&weights, &compute);
        let weights = body.reshape(&weights, &at(&[t, k, 1, 1]));
        let weighted = body.one("mul", &[&fills, &weights], "", &at(&[t, k, e, c]));
        let combine = body.one("reduce_sum", &[&weighted], &dims(&[1]), &at(&[t, e, c]));

        // The experts' inputs [groups..., expert, slot, hidden]: each
        // expert's weights multiply every group's slots (broadcast over the
        // group dims).
        let dispatch = body.reshape(&dispatch, &at(&[t, e * c]));
        let inputs = body.one("matmul", &[&dispatch, &xg], " {transpose_x}", &at(&[e * c, h]));
        let inputs = body.reshape(&inputs, &at(&[e, c, h]));
        let outputs = swiglu(body, &inputs, [&self.w1, &self.w3, &self.w2], ffn);
        let outputs = body.reshape(&outputs, &at(&[e * c, h]));
        let combine = body.reshape(&combine, &at(&[t, e * c]));
        let y = body.one("matmul", &[&combine, &outputs], "", &at(&[t, h]));
        let y = if gs == 1 {
            body.reshape(&y, &[b, n, h])
        } else {
            let split = body.reshape(&y, &[gb, gs, b / gb, n / gs, h]);
            let back = body.one("transpose", &[&split], PERM_GROUPS, &[gb, b / gb, gs, n / gs, h]);
            body.reshape(&back, &[b, n, h])
        };

        // The load-balancing loss.
        let chosen = body.cast(&chosen, "f32");
        let per_token = body.one("reduce_sum", &[&chosen], &dims(&[1]), &at(&[t, e]));
        let over_tokens = dims_attribute(0..=r);
        let fraction = body.one("reduce_mean", &[&per_token], &over_tokens, &[e]);
        let mean_prob = body.one("reduce_mean", &[&probs], &over_tokens, &[e]);
        let product = body.one("mul", &[&fraction, &mean_prob], "", &[e]);
        let sum = body.one("reduce_sum", &[&product], " {dims = array<i64: 0>}", &[]);
        let aux = body.scale(&sum, e as f64);
        (y, aux)
    }
}

/// ` {dims = array<i64: ...>}` of `dims`.
fn dims_attribute(dims: impl Iterator<Item = usize>) -> String {
    let dims: Vec<String> = dims.map(|d| d.to_string()).collect();
    format!(" {{dims = array<i64: {}>}}", dims.join(", "))
}

/// The permutation of `rank` dims that swaps dims `i` and `j`.
fn swap_perm(i: usize, j: usize, rank: usize) -> String {
    let mut perm: Vec<usize> = (0..rank).collect();
    perm.swap(i, j);
    let perm: Vec<String> = perm.iter().map(usize::to_string).collect();
    format!(" {{perm = array<i64: {}>}}", perm.join(", "))
}

/// [batch group, batch, seq group, seq, hidden] <-> [batch group, seq group, batch, seq, hidden]
const PERM_GROUPS: &str = " {perm = array<i64: 0, 2, 1, 3, 4>}";
