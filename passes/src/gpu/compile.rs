//! The `dist-compile-gpu-kernels` pass. Its documentation (what it does, preconditions, before
//! and after) is [`INFO`]'s description: `dist-opt --help-passes` prints it
//! and docs/passes.md holds it.

use crate::error::PassError;
use crate::error::fail;
use crate::pass::options::{Expected, OptionValue, PassOptions};
use crate::pass::{DistPass, PassInfo};
use dist_dialect::ir::build::{ptx_object_attribute, select_object_attribute, symbol_ref_attribute};
use dist_dialect::ir::{
    OperationExt, attribute, block_ops, context_of, erase, insert_before, op_name, set_attribute, thread_count,
    translate_to_llvm, walk_preorder,
};
use inkwell::OptimizationLevel;
use inkwell::context::Context as LlvmContext;
use inkwell::memory_buffer::MemoryBuffer;
use inkwell::module::{Linkage, Module as LlvmModule};
use inkwell::passes::PassBuilderOptions;
use inkwell::targets::{CodeModel, FileType, InitializationConfig, RelocMode, Target, TargetTriple};
use melior::dialect::ods::gpu;
use melior::ir::OperationRef;
use melior::ir::RegionLike;
use melior::ir::attribute::{ArrayAttribute, StringAttribute};
use melior::ir::operation::OperationLike;
use melior::ir::operation::WalkResult;
use std::collections::BTreeMap;
use std::path::PathBuf;
use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};
use thiserror::Error;

pub const INFO: PassInfo = PassInfo {
    argument: "dist-compile-gpu-kernels",
    summary: "Compile each gpu.module (NVVM dialect) to PTX with LLVM's NVPTX target and replace it by a gpu.binary",
    description: r#"`dist-compile-gpu-kernels`: each `gpu.module` (already in the NVVM and
LLVM dialects) to PTX with LLVM's NVPTX target machine, in process, and
into a `gpu.binary` that the host lowering embeds and loads.

Kernels whose modules are identical but for their names are compiled once
and their launches share it. Modules compile on worker threads, each with
its own LLVM context.

- **Precondition:** `gpu.module`s in the NVVM and LLVM dialects, which
  `dist-lower-to-gpu-kernels` produces.
- **Failures:** a module that does not translate, a kernel that needs
  libdevice when none is found, or an LLVM error. Each is a diagnostic at
  the module.

```mlir
// before                                           // after
gpu.module @step_kernel {                           gpu.binary @step_kernel <#gpu.select_object<0 : i64>>
  llvm.func @step_kernel(...) attributes              [#gpu.object<#nvvm.target<chip = "sm_90">,
      {nvvm.kernel, ...} { ... }                         assembly = "...\0A.target sm_90\0A...">]
}
```
"#,
    anchor: "builtin.module",
    options: CompileOptions::info,
    dialects: &["gpu", "llvm", "nvvm"],
    create: || Box::new(CompileGpuKernels::default()),
};

crate::pass::options::option_enum! {
    /// The GPU architectures the kernels compile for.
    pub enum Chip { Sm80 = "sm_80", Sm90 = "sm_90" }
}

/// LLVM's optimization level, 0 to 3.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct OptLevel(pub u8);

impl OptionValue for OptLevel {
    fn parse(text: &str) -> Result<Self, Expected> {
        text.parse()
            .ok()
            .filter(|l| *l <= 3)
            .map(OptLevel)
            .ok_or_else(|| Expected::from("an integer from 0 to 3"))
    }
    fn text(&self) -> String {
        self.0.to_string()
    }
}

crate::pass::options::pass_options! {
    /// Which chip, how hard to optimize, where libdevice is, on how many threads.
    pub struct CompileOptions {
        chip: Chip = "chip", "sm_90", "The GPU architecture: sm_80 or sm_90";
        opt_level: OptLevel = "opt-level", "3", "LLVM optimization level of the kernels, 0 to 3";
        libdevice: String = "libdevice", "",
            "Path of libdevice.10.bc, linked when a kernel calls a math function (default: $CUDA_ROOT/nvvm/libdevice/libdevice.10.bc)";
        jobs: usize = "jobs", "0", "Threads compiling kernels (0: the context's, so one under --mlir-disable-threading)";
    }
}

#[derive(Default)]
struct CompileGpuKernels {
    options: CompileOptions,
}

/// Why a kernel module did not compile; reported at the `gpu.module`.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum CompileError {
    #[error(
        "a kernel calls a math function from libdevice: set CUDA_ROOT to a CUDA toolkit (or the \
         nvidia-cuda-nvcc-cu12 wheel's nvidia/cuda_nvcc) or pass libdevice=PATH"
    )]
    NoLibdevice,
    #[error("libdevice not found at '{}'", .0.display())]
    LibdeviceMissing(PathBuf),
    #[error("libdevice '{}' does not load: {message}", .path.display())]
    LibdeviceLoad { path: PathBuf, message: String },
    #[error("libdevice does not link: {0}")]
    LibdeviceLink(String),
    #[error("the kernel's LLVM IR does not parse: {0}")]
    Parse(String),
    #[error("the kernel's LLVM IR is invalid: {0}")]
    Invalid(String),
    #[error("LLVM has no NVPTX target machine for {0}")]
    NoTargetMachine(String),
    /// LLVM's own message: the target, the optimizer or code generation.
    #[error("{0}")]
    Llvm(String),
    #[error("internal error: a kernel was not compiled")]
    NotCompiled,
}

/// One kernel module to compile.
struct Job {
    name: String,
    llvm_ir: String,
    kernels: Vec<String>,
}

impl DistPass for CompileGpuKernels {
    fn options(&mut self) -> Option<&mut dyn PassOptions> {
        Some(&mut self.options)
    }

    fn run(&mut self, module: OperationRef<'_, '_>) -> Result<(), PassError> {
        let body = module
            .region_at(0)
            .and_then(|r| r.first_block())
            .expect("a module body");
        let modules: Vec<OperationRef> = block_ops(body)
            .into_iter()
            .filter(|op| op_name(op) == "gpu.module")
            .collect();
        if modules.is_empty() {
            return Ok(());
        }
        let renames = deduplicate(module, &modules);
        let mut jobs = Vec::new();
        let mut kept = Vec::new();
        for gpu_module in modules {
            let name = symbol_name(&gpu_module);
            if renames.contains_key(&name) {
                // SAFETY: the module is erased once: a duplicate whose launches were renamed to its twin, or one a binary replaced.
                #[allow(unsafe_code)]
                unsafe {
                    erase(gpu_module)
                };
                continue;
            }
            let llvm_ir = translate(&gpu_module).ok_or_else(|| {
                fail(
                    gpu_module.location(),
                    "the kernel module does not translate to LLVM IR: lower it to the NVVM dialect first",
                )
            })?;
            let kernels = kernel_names(&gpu_module);
            jobs.push(Job { name, llvm_ir, kernels });
            kept.push(gpu_module);
        }
        let libdevice = match jobs.iter().position(|j| j.llvm_ir.contains("@__nv_")) {
            Some(i) => Some(
                self.libdevice_path()
                    .map_err(|e| fail(kept[i].location(), &e.to_string()))?,
            ),
            None => None,
        };
        let threads = thread_count(&module);
        let results = self.compile(&jobs, libdevice.as_ref(), threads);
        let context = context_of(&module);
        let select_object = select_object_attribute(context, 0);
        for (gpu_module, result) in kept.into_iter().zip(results) {
            let ptx = result.map_err(|e| fail(gpu_module.location(), &e.to_string()))?;
            let object = ptx_object_attribute(context, &self.options.chip.text(), &ptx);
            let name = symbol_name(&gpu_module);
            let binary = gpu::BinaryOperationBuilder::new(context, gpu_module.location())
                .sym_name(StringAttribute::new(context, &name))
                .objects(ArrayAttribute::new(context, &[object]))
                .offloading_handler(select_object)
                .build();
            // The binary takes the module's place.
            insert_before(gpu_module, binary.into());
            // SAFETY: the module is erased once: a duplicate whose launches were renamed to its twin, or one a binary replaced.
            #[allow(unsafe_code)]
            unsafe {
                erase(gpu_module)
            };
        }
        Ok(())
    }
}

/// The LLVM IR of a lowered gpu.module, as text (worker threads each parse
/// it into their own LLVM context); `None` if it does not translate.
fn translate(gpu_module: &OperationRef<'_, '_>) -> Option<String> {
    let context = LlvmContext::create();
    let module = translate_to_llvm(gpu_module, &context)?;
    Some(module.print_to_string().to_string())
}

impl CompileGpuKernels {
    fn libdevice_path(&self) -> Result<PathBuf, CompileError> {
        let path = if !self.options.libdevice.is_empty() {
            PathBuf::from(&self.options.libdevice)
        } else if let Some(root) = std::env::var_os("CUDA_ROOT") {
            PathBuf::from(root).join("nvvm/libdevice/libdevice.10.bc")
        } else {
            return Err(CompileError::NoLibdevice);
        };
        if path.is_file() {
            Ok(path)
        } else {
            Err(CompileError::LibdeviceMissing(path))
        }
    }

    /// PTX of each job, in order, compiled on up to `jobs` threads (the
    /// context's `threads` when 0).
    fn compile(&self, jobs: &[Job], libdevice: Option<&PathBuf>, threads: usize) -> Vec<Result<String, CompileError>> {
        Target::initialize_nvptx(&InitializationConfig::default());
        let workers = match self.options.jobs {
            0 => threads,
            n => n,
        }
        .min(jobs.len())
        .max(1);
        let next = AtomicUsize::new(0);
        let results: Mutex<Vec<Option<Result<String, CompileError>>>> = Mutex::new(jobs.iter().map(|_| None).collect());
        std::thread::scope(|scope| {
            for _ in 0..workers {
                scope.spawn(|| {
                    loop {
                        let i = next.fetch_add(1, Ordering::Relaxed);
                        let Some(job) = jobs.get(i) else { break };
                        let ptx = self.compile_one(job, libdevice);
                        results.lock().unwrap_or_else(|e| e.into_inner())[i] = Some(ptx);
                    }
                });
            }
        });
        results
            .into_inner()
            .unwrap_or_else(|e| e.into_inner())
            .into_iter()
            .map(|r| r.unwrap_or(Err(CompileError::NotCompiled)))
            .collect()
    }

    fn compile_one(&self, job: &Job, libdevice: Option<&PathBuf>) -> Result<String, CompileError> {
        let context = LlvmContext::create();
        let buffer = MemoryBuffer::create_from_memory_range_copy(job.llvm_ir.as_bytes(), &job.name);
        let module = context
            .create_module_from_ir(buffer)
            .map_err(|e| CompileError::Parse(e.to_string()))?;
        let triple = TargetTriple::create("nvptx64-nvidia-cuda");
        let target = Target::from_triple(&triple).map_err(|e| CompileError::Llvm(e.to_string()))?;
        let level = match self.options.opt_level.0 {
            0 => OptimizationLevel::None,
            1 => OptimizationLevel::Less,
            2 => OptimizationLevel::Default,
            _ => OptimizationLevel::Aggressive,
        };
        let machine = target
            .create_target_machine(
                &triple,
                &self.options.chip.text(),
                "",
                level,
                RelocMode::Default,
                CodeModel::Default,
            )
            .ok_or_else(|| CompileError::NoTargetMachine(self.options.chip.text()))?;
        module.set_triple(&triple);
        module.set_data_layout(&machine.get_target_data().get_data_layout());
        if let Some(path) = libdevice.filter(|_| job.llvm_ir.contains("@__nv_")) {
            link_libdevice(&context, &module, path, &job.kernels)?;
        }
        module.verify().map_err(|e| CompileError::Invalid(e.to_string()))?;
        module
            .run_passes(
                &format!("default<O{}>", self.options.opt_level.0),
                &machine,
                PassBuilderOptions::create(),
            )
            .map_err(|e| CompileError::Llvm(e.to_string()))?;
        let ptx = machine
            .write_to_memory_buffer(&module, FileType::Assembly)
            .map_err(|e| CompileError::Llvm(e.to_string()))?;
        Ok(String::from_utf8_lossy(ptx.as_slice()).into_owned())
    }
}

/// Links libdevice into `module` and makes everything but the kernels
/// internal, so the optimizer keeps only the math functions called.
fn link_libdevice<'l>(
    context: &'l LlvmContext,
    module: &LlvmModule<'l>,
    path: &PathBuf,
    kernels: &[String],
) -> Result<(), CompileError> {
    let library = LlvmModule::parse_bitcode_from_path(path, context).map_err(|e| CompileError::LibdeviceLoad {
        path: path.clone(),
        message: e.to_string(),
    })?;
    library.set_triple(&module.get_triple());
    library.set_data_layout(&module.get_data_layout());
    module
        .link_in_module(library)
        .map_err(|e| CompileError::LibdeviceLink(e.to_string()))?;
    let mut function = module.get_first_function();
    while let Some(f) = function {
        let name = f.get_name().to_string_lossy();
        if f.count_basic_blocks() > 0 && !kernels.iter().any(|k| *k == name) {
            f.set_linkage(Linkage::Internal);
        }
        function = f.get_next_function();
    }
    Ok(())
}

fn symbol_name(op: &OperationRef<'_, '_>) -> String {
    op.attribute("sym_name")
        .ok()
        .and_then(|a| StringAttribute::try_from(a).ok())
        .map(|s| s.value().to_owned())
        .unwrap_or_default()
}

/// The kernels of a lowered gpu.module (`llvm.func`s marked `nvvm.kernel`).
fn kernel_names(gpu_module: &OperationRef<'_, '_>) -> Vec<String> {
    let Some(body) = gpu_module.region_at(0).and_then(|r| r.first_block()) else {
        return Vec::new();
    };
    block_ops(body)
        .into_iter()
        .filter(|f| f.attribute("nvvm.kernel").is_ok() || f.attribute("gpu.kernel").is_ok())
        .map(|f| symbol_name(&f))
        .collect()
}

/// A gpu.module's name followed by its kernels' names, in body order.
fn symbol_names(gpu_module: &OperationRef<'_, '_>) -> Vec<String> {
    let mut names = vec![symbol_name(gpu_module)];
    names.extend(kernel_names(gpu_module));
    names
}

/// Modules identical up to their own and their kernels' names are compiled
/// once: every launch of a duplicate is pointed at the first copy. Returns
/// the duplicates by name.
fn deduplicate(module: OperationRef<'_, '_>, modules: &[OperationRef<'_, '_>]) -> BTreeMap<String, String> {
    let mut first_by_key: BTreeMap<String, Vec<String>> = BTreeMap::new();
    // Duplicate `@module::@kernel` to the kept one's module and kernel.
    let mut kernels: BTreeMap<String, (String, String)> = BTreeMap::new();
    let mut renames = BTreeMap::new();
    for gpu_module in modules {
        let names = symbol_names(gpu_module);
        // The body without the `gpu.module @name` line: nothing inside
        // names its module.
        let printed = dist_dialect::ir::print_local(gpu_module);
        let mut text = printed.split_once('\n').map_or("", |(_, body)| body).to_owned();
        // Longest names first, so that `@k_1` is not cut by `@k`.
        let mut order: Vec<usize> = (1..names.len()).collect();
        order.sort_by_key(|&i| std::cmp::Reverse(names[i].len()));
        for i in order {
            text = text.replace(&format!("@{}", names[i]), &format!("@__kernel{i}"));
            // The kernel's shared-memory globals carry its name too.
            text = text.replace(&format!("@__wg_{}_", names[i]), &format!("@__wg___kernel{i}_"));
        }
        match first_by_key.get(&text) {
            Some(first) => {
                for (dup, kept) in names[1..].iter().zip(&first[1..]) {
                    kernels.insert(format!("@{}::@{dup}", names[0]), (first[0].clone(), kept.clone()));
                }
                renames.insert(names[0].clone(), first[0].clone());
            }
            None => {
                first_by_key.insert(text, names);
            }
        }
    }
    let context = context_of(&module);
    walk_preorder(&module, |op| {
        if op_name(&op) != "gpu.launch_func" {
            return WalkResult::Advance;
        }
        let kernel = attribute(&op, "kernel").map(|a| a.to_string()).unwrap_or_default();
        if let Some((module, kernel)) = kernels.get(&kernel) {
            set_attribute(op, "kernel", symbol_ref_attribute(context, module, &[kernel]));
        }
        WalkResult::Advance
    });
    renames
}
