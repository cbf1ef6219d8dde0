//! `dist-gen`: writes benchmark and test programs to stdout.
//!
//! `dist-gen gpt|llama --layers N --dp D --tp T [--sp S] [--pp P] [sizes]`: a
//! training step of N layers on a [pp x] dp x [sp x] tp mesh with Megatron
//! annotations; `--forward-only` writes its forward pass for
//! `dist-append-backward`.

use dist_tools::programs::gpt::{GptConfig, Sizes, gpt};
use dist_tools::programs::llama::{LlamaConfig, LlamaSizes, llama};
use dist_tools::programs::{Dtype, Optimizer, Step};
use std::process::ExitCode;

const USAGE: &str = "usage: dist-gen gpt --layers N --dp D --tp T [--sp S] [--pp P]\n\
    \x20      [--batch B] [--seq S] [--heads H] [--head-dim D] [--vocab V]\n\
    \x20      [--forward-only | --optimizer adamw|sgd [--zero 0|1|2|3]] [--dtype f32|bf16]\n\
    \x20      dist-gen llama --layers N --dp D --tp T [--sp S] [--pp P]\n\
    \x20      [--batch B] [--seq S] [--heads H] [--kv-heads K] [--head-dim D] [--ffn F] [--vocab V]\n\
    \x20      [--forward-only | --optimizer adamw|sgd [--zero 0|1|2|3]] [--recompute] [--dtype f32|bf16]\n\n\
    gpt: writes a GPT-style training step (embedding, N transformer layers, loss and\n\
    every gradient op) with Megatron shardings to stdout. The sizes are per\n\
    shard (sequences per dp shard, tokens per sp shard, heads and vocabulary\n\
    entries per tp shard; defaults 2, 16, 2, 32, 128).\n\n\
    llama: writes a Llama-style training step (untied embedding, N layers of\n\
    RMSNorm, grouped-query causal attention with rotary embeddings and a SwiGLU\n\
    MLP, a vocabulary-parallel LM head and the cross-entropy against integer\n\
    labels); its backward is derived by dist-append-backward. The sizes are\n\
    global (defaults: batch 4, seq 16, heads 8, kv-heads 4, head-dim 8, ffn 128,\n\
    vocab 256); a split dim its axis does not divide (a vocabulary of 1001 on\n\
    tp=4, 6 heads on tp=4, a batch of 5 on dp=4) is split unevenly, in padded\n\
    shards, with at least as many entries as shards; the rotary tables cos and\n\
    sin ([seq, head-dim]) are arguments (scripts/jax_llama.py rope DIR 10000\n\
    writes Llama's into an input directory). --recompute differentiates with\n\
    activation recomputation (dist-append-backward{recompute=true}).\n\n\
    With --forward-only the program ends at the loss and every parameter carries\n\
    dist.requires_grad: dist-opt --dist-append-backward writes the backward. With\n\
    --optimizer the step updates every parameter (AdamW with moments m_<param>,\n\
    v_<param> and the step count %step, or SGD with momentum and buffers\n\
    buf_<param>) and returns the new parameters and states; --zero picks the ZeRO\n\
    stage by layouts: 1 and 2 split the states over dp, 3 the parameters too.\n\n\
    The data arguments (the token ids and the targets or labels) carry\n\
    dist.batch_dim = 0, which microbatching splits (dist-run --microbatches).\n\n\
    --pp P adds a mesh axis pp of P pipeline stages (before dp) and ends a\n\
    stage after every N/P layers with dist.stage_boundary (N a multiple of P);\n\
    gpt's hand-written backward crosses each boundary the other way.\n\n\
    --dtype bf16 computes in bf16 with f32 master parameters (mixed precision):\n\
    the same arguments and results as the f32 step (parameters, optimizer\n\
    states, gradients and the loss in f32), each parameter (and the rotary\n\
    tables) cast to bf16 where the forward pass reads it, the logits cast\n\
    back to f32 for the loss; each gradient is that of the cast, in f32, and\n\
    the optimizer updates the f32 parameters.\n";

/// A command line's options (`--name value` or `--name=value`) and its
/// flags (`--forward-only`, `--recompute`).
struct CommandLine {
    options: Vec<(String, String)>,
    flags: Vec<String>,
}

fn options(args: &[String]) -> Result<CommandLine, String> {
    let (mut options, mut flags) = (Vec::new(), Vec::new());
    let mut it = args.iter();
    while let Some(flag) = it.next() {
        if flag == "--forward-only" || flag == "--recompute" {
            flags.push(flag.clone());
            continue;
        }
        let (name, inline) = match flag.split_once('=') {
            Some((n, v)) => (n, Some(v.to_owned())),
            None => (flag.as_str(), None),
        };
        let value = inline
            .or_else(|| it.next().cloned())
            .ok_or_else(|| format!("option '{name}' needs a value"))?;
        options.push((name.to_owned(), value));
    }
    Ok(CommandLine { options, flags })
}

fn positive(name: &str, value: &str) -> Result<i64, String> {
    value
        .parse()
        .ok()
        .filter(|&n: &i64| n >= 1)
        .ok_or_else(|| format!("option '{name}' needs a positive integer, got '{value}'"))
}

/// What both kinds take, from a command line.
struct Common {
    step: Step,
    recompute: bool,
    /// The other options (the sizes), in order, for the program kind.
    sizes: Vec<(String, i64)>,
}

fn common(args: &[String]) -> Result<Common, String> {
    let CommandLine { options, flags } = options(args)?;
    let mut step = Step {
        layers: 0,
        dp: 0,
        tp: 0,
        sp: None,
        pp: None,
        forward_only: flags.iter().any(|f| f == "--forward-only"),
        optimizer: None,
        zero: 0,
        dtype: Dtype::F32,
    };
    let recompute = flags.iter().any(|f| f == "--recompute");
    let mut sizes = Vec::new();
    let mut seen = Vec::new();
    for (name, value) in options {
        seen.push(name.clone());
        match name.as_str() {
            "--optimizer" => {
                step.optimizer = Some(match value.as_str() {
                    "adamw" => Optimizer::AdamW,
                    "sgd" => Optimizer::Sgd,
                    _ => return Err(format!("option '--optimizer' takes adamw or sgd, not '{value}'")),
                });
            }
            "--zero" => {
                step.zero = match value.as_str() {
                    "0" => 0,
                    "1" => 1,
                    "2" => 2,
                    "3" => 3,
                    _ => return Err(format!("option '--zero' takes a stage 0, 1, 2 or 3, not '{value}'")),
                };
            }
            "--dtype" => {
                step.dtype = match value.as_str() {
                    "f32" => Dtype::F32,
                    "bf16" => Dtype::Bf16,
                    _ => return Err(format!("option '--dtype' takes f32 or bf16, not '{value}'")),
                };
            }
            "--layers" => step.layers = positive(&name, &value)? as usize,
            "--dp" => step.dp = positive(&name, &value)?,
            "--tp" => step.tp = positive(&name, &value)?,
            "--sp" => step.sp = Some(positive(&name, &value)?),
            "--pp" => step.pp = Some(positive(&name, &value)?),
            _ => {
                let number = positive(&name, &value)?;
                sizes.push((name, number));
            }
        }
    }
    if seen.iter().any(|s| s == "--zero") && step.optimizer.is_none() {
        return Err("option '--zero' needs '--optimizer': the stage splits the optimizer's states".into());
    }
    if step.forward_only && step.optimizer.is_some() {
        return Err("'--forward-only' writes no backward, so no '--optimizer' step".into());
    }
    if step.forward_only && recompute {
        return Err(
            "'--forward-only' writes no backward to recompute in (dist-append-backward{recompute=true} does)".into(),
        );
    }
    for required in ["--layers", "--dp", "--tp"] {
        if !seen.iter().any(|s| s == required) {
            return Err(format!("missing option '{required}'"));
        }
    }
    if let Some(pp) = step.pp
        && !step.layers.is_multiple_of(pp as usize)
    {
        return Err(format!(
            "option '--pp {pp}' splits the layers evenly over the stages: {} layers are not a multiple of {pp}",
            step.layers
        ));
    }
    Ok(Common { step, recompute, sizes })
}

fn gpt_config(common: Common) -> Result<GptConfig, String> {
    if common.recompute {
        return Err("'--recompute' is dist-gen llama's: gpt's backward is written by hand".into());
    }
    let mut sizes = Sizes::default();
    for (name, number) in common.sizes {
        match name.as_str() {
            "--batch" => sizes.batch = number,
            "--seq" => sizes.seq = number,
            "--heads" => sizes.heads = number,
            "--head-dim" => sizes.head_dim = number,
            "--vocab" => sizes.vocab = number,
            _ => return Err(format!("unknown option '{name}'")),
        }
    }
    Ok(GptConfig {
        step: common.step,
        sizes,
    })
}

fn llama_config(common: Common) -> Result<LlamaConfig, String> {
    let mut sizes = LlamaSizes::default();
    for (name, number) in common.sizes {
        match name.as_str() {
            "--batch" => sizes.batch = number,
            "--seq" => sizes.seq = number,
            "--heads" => sizes.heads = number,
            "--kv-heads" => sizes.kv_heads = number,
            "--head-dim" => sizes.head_dim = number,
            "--ffn" => sizes.ffn = number,
            "--vocab" => sizes.vocab = number,
            _ => return Err(format!("unknown option '{name}'")),
        }
    }
    Ok(LlamaConfig {
        step: common.step,
        sizes,
        recompute: common.recompute,
    })
}

/// Why no program was written.
enum Failure {
    /// The command line is wrong: said with the usage, exit code 2.
    Usage(String),
    /// The program cannot be generated: exit code 1.
    Generation(String),
}

/// The program a command line asks for.
fn generate(args: &[String]) -> Result<String, Failure> {
    let Some((kind, rest)) = args.split_first() else {
        return Err(Failure::Usage("expected a program kind".into()));
    };
    let options = || common(rest).map_err(Failure::Usage);
    match kind.as_str() {
        "gpt" => gpt(gpt_config(options()?).map_err(Failure::Usage)?).map_err(Failure::Generation),
        "llama" => llama(llama_config(options()?).map_err(Failure::Usage)?).map_err(Failure::Generation),
        _ => Err(Failure::Usage(format!(
            "unknown program kind '{kind}'; dist-gen knows 'gpt' and 'llama'"
        ))),
    }
}

fn main() -> ExitCode {
    dist_tools::exit_on_closed_pipe();
    let args: Vec<String> = std::env::args().skip(1).collect();
    if args.iter().any(|a| a == "--help" || a == "-h") {
        print!("{USAGE}");
        return ExitCode::SUCCESS;
    }
    match generate(&args) {
        Ok(text) => {
            print!("{text}");
            ExitCode::SUCCESS
        }
        Err(Failure::Usage(usage)) => {
            eprintln!("dist-gen: {usage}\n{USAGE}");
            ExitCode::from(2)
        }
        Err(Failure::Generation(message)) => {
            eprintln!("dist-gen: {message}");
            ExitCode::FAILURE
        }
    }
}
