//! `dist-gen`: writes benchmark and test programs to stdout.
//!
//! `dist-gen gpt|llama --layers N --dp D --tp T [--sp S] [--pp P] [sizes]`: a
//! training step of N layers on a [pp x] dp x [sp x] tp mesh with Megatron
//! annotations; `--forward-only` writes its forward pass for
//! `dist-append-backward`.

use clap::error::ErrorKind;
use clap::{Args, CommandFactory, Parser, Subcommand, ValueEnum};
use dist_tools::programs::gpt::{GptConfig, Sizes, gpt};
use dist_tools::programs::llama::{LlamaConfig, LlamaSizes, llama};
use dist_tools::programs::{Dtype, Optimizer, Step};
use std::process::ExitCode;

#[derive(Parser)]
#[command(
    name = "dist-gen",
    version,
    about = "Writes GPT- and Llama-style training steps as dist programs to stdout",
    after_long_help = "The data arguments (the token ids and the targets or labels) carry \
    dist.batch_dim = 0, which microbatching splits (dist-run --microbatches).\n\n\
    --pp P adds a mesh axis pp of P pipeline stages (before dp) and ends a stage after every N/P \
    layers with dist.stage_boundary (N a multiple of P); gpt's hand-written backward crosses each \
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
        /// The MLP's hidden size.
        #[arg(long, default_value_t = LlamaSizes::default().ffn, value_parser = positive)]
        ffn: i64,
        #[arg(long, default_value_t = LlamaSizes::default().vocab, value_parser = positive)]
        vocab: i64,
        /// Differentiate with activation recomputation
        /// (dist-append-backward{recompute=true}).
        #[arg(long, conflicts_with = "forward_only")]
        recompute: bool,
    },
}

/// What both models take.
#[derive(Args)]
struct StepArgs {
    /// Transformer layers.
    #[arg(long, value_parser = positive)]
    layers: i64,
    /// Data-parallel devices (mesh axis dp).
    #[arg(long, value_parser = positive)]
    dp: i64,
    /// Tensor-parallel devices (mesh axis tp).
    #[arg(long, value_parser = positive)]
    tp: i64,
    /// Sequence parallelism on a mesh axis sp of its own.
    #[arg(long, value_parser = positive)]
    sp: Option<i64>,
    /// Pipeline stages on a mesh axis pp (before dp); the layers split evenly
    /// over them.
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
            && self.layers % pp != 0
        {
            return Err(format!(
                "option '--pp {pp}' splits the layers evenly over the stages: {} layers are not a multiple of {pp}",
                self.layers
            ));
        }
        Ok(Step {
            layers: self.layers as usize,
            dp: self.dp,
            tp: self.tp,
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
        Model::Llama {
            step,
            batch,
            seq,
            heads,
            kv_heads,
            head_dim,
            ffn,
            vocab,
            recompute,
        } => llama(LlamaConfig {
            step: step.step().map_err(Failure::Usage)?,
            sizes: LlamaSizes {
                batch,
                seq,
                heads,
                kv_heads,
                head_dim,
                ffn,
                vocab,
            },
            recompute,
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
