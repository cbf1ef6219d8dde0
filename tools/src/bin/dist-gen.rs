//! `dist-gen`: writes benchmark and test programs to stdout.
//!
//! `dist-gen gpt --layers N --dp D --tp T [--sp S] [sizes]`: a GPT training
//! step of N layers on a dp x [sp x] tp mesh with Megatron annotations;
//! `--forward-only` writes its forward pass for `dist-append-backward`.

use dist_tools::programs::Optimizer;
use dist_tools::programs::gpt::{GptConfig, Sizes, gpt};
use std::process::ExitCode;

const USAGE: &str = "usage: dist-gen gpt --layers N --dp D --tp T [--sp S]\n\
    \x20      [--batch B] [--seq S] [--heads H] [--head-dim D] [--vocab V]\n\
    \x20      [--forward-only | --optimizer adamw|sgd [--zero 0|1|2|3]]\n\n\
    Writes a GPT-style training step (embedding, N transformer layers, loss and\n\
    every gradient op) with Megatron shardings to stdout. The sizes are per\n\
    shard (sequences per dp shard, tokens per sp shard, heads and vocabulary\n\
    entries per tp shard; defaults 2, 16, 2, 32, 128). With --forward-only the\n\
    program ends at the loss and every parameter carries dist.requires_grad:\n\
    dist-opt --dist-append-backward writes the backward. With --optimizer the\n\
    step updates every parameter (AdamW with moments m_<param>, v_<param> and\n\
    the step count %step, or SGD with momentum and buffers buf_<param>) and\n\
    returns the new parameters and states; --zero picks the ZeRO stage by\n\
    layouts: 1 and 2 split the states over dp, 3 the parameters too.\n";

fn parse(args: &[String]) -> Result<GptConfig, String> {
    let Some((kind, rest)) = args.split_first() else {
        return Err("expected a program kind".into());
    };
    if kind != "gpt" {
        return Err(format!("unknown program kind '{kind}'; dist-gen knows 'gpt'"));
    }
    let mut config = GptConfig {
        layers: 0,
        dp: 0,
        tp: 0,
        sp: None,
        sizes: Sizes::default(),
        forward_only: false,
        optimizer: None,
        zero: 0,
    };
    let mut seen = Vec::new();
    let mut it = rest.iter();
    while let Some(flag) = it.next() {
        if flag == "--forward-only" {
            config.forward_only = true;
            continue;
        }
        let (name, inline) = match flag.split_once('=') {
            Some((n, v)) => (n, Some(v.to_owned())),
            None => (flag.as_str(), None),
        };
        let value = inline
            .or_else(|| it.next().cloned())
            .ok_or_else(|| format!("option '{name}' needs a value"))?;
        seen.push(name.to_owned());
        match name {
            "--optimizer" => {
                config.optimizer = Some(match value.as_str() {
                    "adamw" => Optimizer::AdamW,
                    "sgd" => Optimizer::Sgd,
                    _ => return Err(format!("option '--optimizer' takes adamw or sgd, not '{value}'")),
                });
                continue;
            }
            "--zero" => {
                config.zero = match value.as_str() {
                    "0" => 0,
                    "1" => 1,
                    "2" => 2,
                    "3" => 3,
                    _ => return Err(format!("option '--zero' takes a stage 0, 1, 2 or 3, not '{value}'")),
                };
                continue;
            }
            _ => {}
        }
        let number: i64 = value
            .parse()
            .ok()
            .filter(|&n| n >= 1)
            .ok_or_else(|| format!("option '{name}' needs a positive integer, got '{value}'"))?;
        match name {
            "--layers" => config.layers = number as usize,
            "--dp" => config.dp = number,
            "--tp" => config.tp = number,
            "--sp" => config.sp = Some(number),
            "--batch" => config.sizes.batch = number,
            "--seq" => config.sizes.seq = number,
            "--heads" => config.sizes.heads = number,
            "--head-dim" => config.sizes.head_dim = number,
            "--vocab" => config.sizes.vocab = number,
            _ => return Err(format!("unknown option '{name}'")),
        }
    }
    if seen.iter().any(|s| s == "--zero") && config.optimizer.is_none() {
        return Err("option '--zero' needs '--optimizer': the stage splits the optimizer's states".into());
    }
    if config.forward_only && config.optimizer.is_some() {
        return Err("'--forward-only' writes no backward, so no '--optimizer' step".into());
    }
    for required in ["--layers", "--dp", "--tp"] {
        if !seen.iter().any(|s| s == required) {
            return Err(format!("missing option '{required}'"));
        }
    }
    Ok(config)
}

fn main() -> ExitCode {
    dist_tools::exit_on_closed_pipe();
    let args: Vec<String> = std::env::args().skip(1).collect();
    if args.iter().any(|a| a == "--help" || a == "-h") {
        print!("{USAGE}");
        return ExitCode::SUCCESS;
    }
    let config = match parse(&args) {
        Ok(config) => config,
        Err(message) => {
            eprintln!("dist-gen: {message}\n{USAGE}");
            return ExitCode::from(2);
        }
    };
    match gpt(config) {
        Ok(text) => {
            print!("{text}");
            ExitCode::SUCCESS
        }
        Err(message) => {
            eprintln!("dist-gen: {message}");
            ExitCode::FAILURE
        }
    }
}
