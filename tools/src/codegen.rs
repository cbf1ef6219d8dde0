//! The lowered module (LLVM dialect) to LLVM IR in-process, then to an
//! x86-64 object with LLVM's new pass manager at -O2 or -O3 (inkwell).

use crate::Error;
use inkwell::OptimizationLevel;
use inkwell::attributes::AttributeLoc;
use inkwell::context::Context;
use inkwell::passes::PassBuilderOptions;
use inkwell::targets::{CodeModel, FileType, InitializationConfig, RelocMode, Target, TargetMachine};
use melior::ir::Module as MlirModule;

/// What `--emit` writes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Emit {
    /// The MLIR module (the default).
    #[default]
    Mlir,
    /// Textual LLVM IR (`.ll`), optimized.
    LlvmIr,
    /// An x86-64 object file (`.o`).
    Object,
    /// The PTX of every `gpu.binary` (after `dist-compile-gpu-kernels`),
    /// each after a `// gpu.binary @name` line.
    Ptx,
}

impl Emit {
    pub fn parse(text: &str) -> Result<Self, Error> {
        match text {
            "mlir" => Ok(Self::Mlir),
            "llvm" => Ok(Self::LlvmIr),
            "obj" => Ok(Self::Object),
            "ptx" => Ok(Self::Ptx),
            _ => Err(Error::Usage(format!(
                "--emit takes mlir, llvm, obj or ptx, not '{text}'"
            ))),
        }
    }
}

/// How the program runs with subnormal floats, which LLVM's folding must
/// agree with.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Subnormals {
    /// IEEE subnormals (a program that links the runtime itself).
    Ieee,
    /// Flushed to zero, in results and operands: `dist-run`'s `main` sets
    /// the mode (`dist_rt_flush_subnormals`) before the step runs.
    Flushed,
}

/// The CPUs `--mcpu` takes: this machine's (`native`, with its features:
/// AVX2, AVX-512, ...) or an x86-64 level, the same object on any machine
/// of that level. (LLVM itself only warns about a CPU name it does not know.)
pub const CPUS: &[&str] = &["native", "x86-64", "x86-64-v2", "x86-64-v3", "x86-64-v4"];

/// The LLVM CPU name and features of `cpu` (one of [`CPUS`]).
fn target_cpu(cpu: &str) -> Result<(String, String), Error> {
    match cpu {
        "native" => Ok((
            TargetMachine::get_host_cpu_name().to_string(),
            TargetMachine::get_host_cpu_features().to_string(),
        )),
        _ if CPUS.contains(&cpu) => Ok((cpu.to_owned(), String::new())),
        _ => Err(Error::Usage(format!("--mcpu takes {}, not '{cpu}'", CPUS.join(", ")))),
    }
}

/// Translates `module` (all LLVM dialect) and writes it as `emit` at
/// `opt_level` (2 or 3), for x86-64 CPU `cpu` (see [`target_cpu`]), to run
/// with `subnormals`.
pub fn emit(
    module: &MlirModule<'_>,
    emit: Emit,
    opt_level: u8,
    cpu: &str,
    subnormals: Subnormals,
) -> Result<Vec<u8>, Error> {
    let fail = |what: &str| Error::Codegen(what.to_owned());
    if emit == Emit::Ptx {
        return ptx(module);
    }
    let context = Context::create();
    let llvm = dist_dialect::ir::translate_to_llvm(&module.as_operation(), &context).ok_or_else(|| {
        fail("the module does not translate to LLVM IR: lower it to the LLVM dialect first (--dist-lower-to-cpu)")
    })?;
    Target::initialize_x86(&InitializationConfig::default());
    let triple = TargetMachine::get_default_triple();
    let target = Target::from_triple(&triple).map_err(|e| fail(&e.to_string()))?;
    let level = if opt_level >= 3 {
        OptimizationLevel::Aggressive
    } else {
        OptimizationLevel::Default
    };
    let (name, features) = target_cpu(cpu)?;
    let machine = target
        .create_target_machine(&triple, &name, &features, level, RelocMode::PIC, CodeModel::Default)
        .ok_or_else(|| fail(&format!("no x86-64 target machine for --mcpu={cpu}")))?;
    if subnormals == Subnormals::Flushed {
        let mode = context.create_string_attribute("denormal-fp-math", "preserve-sign,preserve-sign");
        for function in llvm.get_functions().filter(|f| f.count_basic_blocks() > 0) {
            function.add_attribute(AttributeLoc::Function, mode);
        }
    }
    llvm.set_triple(&triple);
    llvm.set_data_layout(&machine.get_target_data().get_data_layout());
    llvm.verify()
        .map_err(|e| fail(&format!("the translated module is invalid: {e}")))?;
    // Loops stay rolled: unrolling the lowered loop nests took 75% of -O3
    // (1.5 s of 2 s on the GPT step) and gained nothing once they are
    // vectorized (56 ms a step either way; docs/perf.md).
    let options = PassBuilderOptions::create();
    options.set_loop_unrolling(false);
    llvm.run_passes(&format!("default<O{}>", opt_level.clamp(2, 3)), &machine, options)
        .map_err(|e| fail(&e.to_string()))?;
    Ok(match emit {
        Emit::Mlir | Emit::Ptx => unreachable!("MLIR is printed by the driver and PTX read off the module"),
        Emit::LlvmIr => llvm.print_to_string().to_bytes().to_vec(),
        Emit::Object => machine
            .write_to_memory_buffer(&llvm, FileType::Object)
            .map_err(|e| fail(&e.to_string()))?
            .as_slice()
            .to_vec(),
    })
}

/// The PTX objects of the module's `gpu.binary` ops, in order.
fn ptx(module: &MlirModule<'_>) -> Result<Vec<u8>, Error> {
    use melior::ir::BlockLike;
    use melior::ir::attribute::{ArrayAttribute, StringAttribute};
    use melior::ir::operation::OperationLike;
    let mut out = String::new();
    let mut next = module.body().first_operation();
    while let Some(op) = next {
        next = op.next_in_block();
        if op.name().as_string_ref().as_str() != Ok("gpu.binary") {
            continue;
        }
        let name = op
            .attribute("sym_name")
            .ok()
            .and_then(|a| StringAttribute::try_from(a).ok())
            .map(|s| s.value().to_owned())
            .unwrap_or_default();
        let objects = op
            .attribute("objects")
            .ok()
            .and_then(|a| ArrayAttribute::try_from(a).ok())
            .ok_or_else(|| Error::Codegen(format!("gpu.binary @{name} has no objects")))?;
        for i in 0..objects.len() {
            let object = objects.element(i).map_err(|e| Error::Codegen(e.to_string()))?;
            let Some(bytes) = dist_dialect::ir::gpu_object_bytes(object) else {
                continue;
            };
            out.push_str(&format!("// gpu.binary @{name}\n"));
            out.push_str(&String::from_utf8_lossy(bytes));
        }
    }
    if out.is_empty() {
        return Err(Error::Codegen(
            "the module has no GPU kernels: compile them first (--dist-lower-to-gpu)".into(),
        ));
    }
    Ok(out.into_bytes())
}
