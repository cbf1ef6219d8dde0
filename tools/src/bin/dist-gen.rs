//! `dist-gen`: writes benchmark and test programs to stdout.
//!
//! `dist-gen gpt|llama|moe --layers N --dp D --tp T [--sp S] [--pp P] [sizes]`:
//! a training step of N layers on a [pp x] dp x [ep x] [sp x] tp mesh with
//! Megatron annotations (`moe` adds `--ep` and its experts' options);
//! `--forward-only` writes its forward pass for `dist-append-backward`.

use clap::error::ErrorKind;
use clap::{Args, CommandFactory, Parser, Subcommand, ValueEnum};
use dist_tools::programs::gpt::{GptConfig, Sizes, gpt};
use dist_tools::programs::llama::{LlamaConfig, LlamaSizes, llama};
use dist_tools::programs::moe::MoeConfig;
use dist_tools::programs::{Dtype, Optimizer, Step};
use std::process::ExitCode;

#[derive(Parser)]
#[command(
    name = "dist-gen",
    version,
    about = "Writes GPT-, Llama- and Mixtral-style training steps as dist programs to stdout",
    after_long_help = "The data arguments (the token ids and the targets or labels) carry \
    dist.batch_dim = 0, which microbatching splits (dist-run --microbatches).\n\n\
    --pp P adds a mesh axis pp of P pipeline stages (before dp) and ends a stage after every N/P \
    layers with dist.stage_boundary; where P does not divide N, each stage takes ceil(N/P) layers \
    but ceil(N/P) P - N of them one fewer, in the order last, first, second to last, second, ... \
    (Llama 3's 126 layers on 16 stages: 7, 8 x 14, 7); gpt's hand-written backward crosses each \
    boundary the other way.\n\n\
    --dtype bf16 computes in bf16 with f32 master parameters (mixed precision): the same arguments \
    and results as the f32 step (parameters, optimizer states, gradients and the loss in f32), each \
    parameter (and the rotary tables) cast to bf16 where the forward pass reads it, the logits cast \
    back to f32 for the loss; each gradient is that of the cast, in f32, and the optimizer updates \
    the f32 parameters."
)]
struct Cli {
    #[command(subcommand)]
    model: Model,
}

#[derive(Subcommand)]
enum Model {
    /// A GPT-style training step (embedding, N transformer layers, loss and
    /// every gradient op, written by hand) with Megatron shardings. The sizes
    /// are per shard: sequences per dp shard, tokens per sp shard, heads and
    /// vocabulary entries per tp shard.
    Gpt {
        #[command(flatten)]
        step: StepArgs,
        /// Sequences per dp shard.
        #[arg(long, default_value_t = Sizes::default().batch, value_parser = positive)]
        batch: i64,
        /// Tokens per sp shard.
        #[arg(long, default_value_t = Sizes::default().seq, value_parser = positive)]
        seq: i64,
        /// Attention heads per tp shard.
        #[arg(long, default_value_t = Sizes::default().heads, value_parser = positive)]
        heads: i64,
        #[arg(long, default_value_t = Sizes::default().head_dim, value_parser = positive)]
        head_dim: i64,
        /// Vocabulary entries per tp shard.
        #[arg(long, default_value_t = Sizes::default().vocab, value_parser = positive)]
        vocab: i64,
    },
    /// A Llama-style training step (untied embedding, N layers of RMSNorm,
    /// grouped-query causal attention with rotary embeddings and a SwiGLU MLP,
    /// a vocabulary-parallel LM head and the cross-entropy against integer
    /// labels), its backward derived by dist-append-backward. The sizes are
    /// global; a split dim its axis does not divide (a vocabulary of 1001 on
    /// tp=4, 6 heads on tp=4, a batch of 5 on dp=4) is split unevenly, in
    /// padded shards, with at least as many entries as shards; the rotary
    /// tables cos and sin ([seq, head-dim]) are arguments
    /// (scripts/jax_llama.py rope DIR 10000 writes Llama's into an input
    /// directory).
    Llama {
        #[command(flatten)]
        step: StepArgs,
        #[command(flatten)]
        sizes: LlamaArgs,
    },
    /// A Mixtral-style training step: dist-gen llama's with every layer's MLP
    /// a mixture of experts (a softmax router, the top-k experts of each
    /// token with their weights renormalised, SwiGLU experts batched over
    /// the expert dim) in GShard's formulation with a static capacity, and a
    /// load-balancing loss added to the loss. The mesh axes are pp, dp, ep,
    /// sp, tp (those not given left out); outside the experts ep is data
    /// parallelism (the batch splits over dp and ep), the experts split over
    /// ep, each data shard's tokens are one group of the dispatch, and
    /// propagation derives the all_to_all into the experts and back.
    Moe {
        #[command(flatten)]
        step: StepArgs,
        #[command(flatten)]
        sizes: LlamaArgs,
        /// Experts per layer.
        #[arg(long, default_value_t = MoeConfig::default().experts, value_parser = positive)]
        experts: i64,
        /// Experts each token is routed to.
        #[arg(long, default_value_t = MoeConfig::default().top_k, value_parser = positive)]
        top_k: i64,
        /// Each expert's slots per group: ceil(C x tokens x top-k / experts),
        /// at most the group's tokens; choices past them are dropped.
        #[arg(long, default_value_t = MoeConfig::default().capacity_factor)]
        capacity_factor: f64,
        /// Expert-parallel devices (mesh axis ep, between dp and sp).
        #[arg(long, value_parser = positive)]
        ep: Option<i64>,
        /// The load-balancing loss's weight in the loss.
        #[arg(long, default_value_t = MoeConfig::default().aux_loss_coef)]
        aux_loss_coef: f64,
    },
}

/// The sizes of dist-gen llama's and moe's steps.
#[derive(Args)]
struct LlamaArgs {
    /// Sequences.
    #[arg(long, default_value_t = LlamaSizes::default().batch, value_parser = positive)]
    batch: i64,
    /// Tokens per sequence.
    #[arg(long, default_value_t = LlamaSizes::default().seq, value_parser = positive)]
    seq: i64,
    /// Query heads.
    #[arg(long, default_value_t = LlamaSizes::default().heads, value_parser = positive)]
    heads: i64,
    /// Key/value heads, each shared by heads / kv-heads query heads.
    #[arg(long, default_value_t = LlamaSizes::default().kv_heads, value_parser = positive)]
    kv_heads: i64,
    #[arg(long, default_value_t = LlamaSizes::default().head_dim, value_parser = positive)]
    head_dim: i64,
    /// The MLP's hidden size (each expert's, with experts).
    #[arg(long, default_value_t = LlamaSizes::default().ffn, value_parser = positive)]
    ffn: i64,
    #[arg(long, default_value_t = LlamaSizes::default().vocab, value_parser = positive)]
    vocab: i64,
    /// Differentiate with activation recomputation
    /// (dist-append-backward{recompute=true}).
    #[arg(long, conflicts_with = "forward_only")]
    recompute: bool,
    /// Balance the causal attention over sp: sp shard i holds chunks i and
    /// 2 sp - 1 - i of the sequence's 2 sp chunks. The tokens and labels
    /// arrive permuted so (scripts/npy.py balance), with their positions
    /// (%positions), from which the rotary tables' rows are taken; the
    /// attention is dist.attention in that order (--fused-attention), its
    /// mask fixed by it: permute with `npy.py balance IN OUT S` for S = sp.
    #[arg(long, requires = "sp")]
    balance: bool,
    /// Attention as one dist.attention, in blocks of queries and keys whose
    /// masked ones are skipped (FlashAttention's), instead of its steps
    /// (scores, causal mask, softmax, weighted values): half the work of a
    /// causal attention, and no scores tensor.
    #[arg(long)]
    fused_attention: bool,
}

impl LlamaArgs {
    fn sizes(&self) -> LlamaSizes {
        LlamaSizes {
            batch: self.batch,
            seq: self.seq,
            heads: self.heads,
            kv_heads: self.kv_heads,
            head_dim: self.head_dim,
            ffn: self.ffn,
            vocab: self.vocab,
        }
    }
}

/// What both models take.
#[derive(Args)]
struct StepArgs {
    /// Transformer layers.
    #[arg(long, value_parser = positive)]
    layers: i64,
    /// Data-parallel devices (mesh axis dp).
    #[arg(long, value_parser = positive, required_unless_present = "unsharded")]
    dp: Option<i64>,
    /// Tensor-parallel devices (mesh axis tp).
    #[arg(long, value_parser = positive, required_unless_present = "unsharded")]
    tp: Option<i64>,
    /// Context parallelism (Llama 3's: the sequence split through attention,
    /// keys and values all-gathered) on a mesh axis sp of its own; --cp is
    /// its other name.
    #[arg(long, visible_alias = "cp", value_parser = positive)]
    sp: Option<i64>,
    /// Pipeline stages on a mesh axis pp (before dp); the layers split as
    /// evenly as they go, the last and first stages lighter where they do
    /// not divide (Llama 3's 126 layers on 16 stages: 7, 8 x 14, 7).
    #[arg(long, value_parser = positive)]
    pp: Option<i64>,
    /// End at the loss, every parameter marked dist.requires_grad
    /// (dist-opt --dist-append-backward writes the backward).
    #[arg(long, conflicts_with = "optimizer")]
    forward_only: bool,
    /// Update every parameter in the step (AdamW with moments m_<param>,
    /// v_<param> and the step count %step, or SGD with momentum and buffers
    /// buf_<param>), returning the new parameters and states.
    #[arg(long, value_enum)]
    optimizer: Option<OptimizerArg>,
    /// The ZeRO stage, by layouts: 1 and 2 split the optimizer's states
    /// over dp, 3 the parameters too.
    #[arg(long, requires = "optimizer", value_parser = clap::value_parser!(u8).range(0..=3))]
    zero: Option<u8>,
    /// The element type the step computes in (bf16: mixed precision with
    /// f32 master parameters).
    #[arg(long, value_enum, default_value_t = DtypeArg::F32)]
    dtype: DtypeArg,
    /// Write the global program without a mesh or shardings, for
    /// `dist-opt --dist-auto-parallel` to lay out (the sizes are those of a
    /// mesh of one device).
    #[arg(long, conflicts_with_all = ["dp", "tp", "sp", "pp", "zero"])]
    unsharded: bool,
}

#[derive(Clone, Copy, ValueEnum)]
enum OptimizerArg {
    Adamw,
    Sgd,
}

#[derive(Clone, Copy, ValueEnum)]
enum DtypeArg {
    F32,
    Bf16,
}

/// A count of at least 1.
fn positive(value: &str) -> Result<i64, String> {
    value
        .parse()
        .ok()
        .filter(|&n: &i64| n >= 1)
        .ok_or_else(|| "a positive integer".to_owned())
}

impl StepArgs {
    fn step(&self) -> Result<Step, String> {
        if let Some(pp) = self.pp
            && self.layers < pp
        {
            return Err(format!(
                "option '--pp {pp}' needs a layer a stage at least: {} layers are fewer than {pp} stages",
                self.layers
            ));
        }
        Ok(Step {
            layers: self.layers as usize,
            dp: self.dp.unwrap_or(1),
            tp: self.tp.unwrap_or(1),
            ep: None,
            sp: self.sp,
            pp: self.pp,
            forward_only: self.forward_only,
            optimizer: self.optimizer.map(|o| match o {
                OptimizerArg::Adamw => Optimizer::AdamW,
                OptimizerArg::Sgd => Optimizer::Sgd,
            }),
            zero: self.zero.unwrap_or(0),
            dtype: match self.dtype {
                DtypeArg::F32 => Dtype::F32,
                DtypeArg::Bf16 => Dtype::Bf16,
            },
            unsharded: self.unsharded,
        })
    }
}

/// Why no program was written.
enum Failure {
    /// The command line asks for what cannot be (clap's usage error, exit 2).
    Usage(String),
    /// The program cannot be generated (exit 1).
    Generation(String),
}

/// The program the command line asks for.
fn generate(model: Model) -> Result<String, Failure> {
    let generated = match model {
        Model::Gpt {
            step,
            batch,
            seq,
            heads,
            head_dim,
            vocab,
        } => gpt(GptConfig {
            step: step.step().map_err(Failure::Usage)?,
            sizes: Sizes {
                batch,
                seq,
                heads,
                head_dim,
                vocab,
            },
        }),
        Model::Llama { step, sizes } => llama(LlamaConfig {
            step: step.step().map_err(Failure::Usage)?,
            sizes: sizes.sizes(),
            recompute: sizes.recompute,
            moe: None,
            balance: sizes.balance,
            fused_attention: sizes.fused_attention,
        }),
        Model::Moe {
            step,
            sizes,
            experts,
            top_k,
            capacity_factor,
            ep,
            aux_loss_coef,
        } => llama(LlamaConfig {
            step: Step {
                ep: match ep {
                    Some(_) if step.unsharded => {
                        return Err(Failure::Usage(
                            "the argument '--unsharded' cannot be used with '--ep <EP>'".into(),
                        ));
                    }
                    ep => ep,
                },
                ..step.step().map_err(Failure::Usage)?
            },
            sizes: sizes.sizes(),
            recompute: sizes.recompute,
            balance: sizes.balance,
            fused_attention: sizes.fused_attention,
            moe: Some(MoeConfig {
                experts,
                top_k,
                capacity_factor,
                aux_loss_coef,
            }),
        }),
    };
    generated.map_err(Failure::Generation)
}

fn main() -> ExitCode {
    dist_tools::exit_on_closed_pipe();
    match generate(Cli::parse().model) {
        Ok(text) => {
            print!("{text}");
            ExitCode::SUCCESS
        }
        Err(Failure::Usage(message)) => Cli::command().error(ErrorKind::ArgumentConflict, message).exit(),
        Err(Failure::Generation(message)) => {
            eprintln!("dist-gen: {message}");
            ExitCode::FAILURE
        }
    }
}
