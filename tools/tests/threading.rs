//! Stress test of the pass pipelines under MLIR's multi-threading: a module
//! of many functions goes through every registered pipeline many times with
//! threading on, and every run must print exactly what a single-threaded run
//! prints. Function passes run on several functions at once, so a pass that
//! touches IR outside its function (melior's accessors once printed the
//! whole module on a miss) crashes or diverges here.

use dist_dialect::ir::{context_with_all_dialects, parse_module};
use melior::Context;
use melior::pass::PassManager;
use std::path::{Path, PathBuf};

/// Runs per pipeline with threading on; fewer where PTX is compiled (the
/// compilation is one module pass, seconds long).
const RUNS: usize = 12;
const RUNS_COMPILING_KERNELS: usize = 3;
/// Copies of each source function in the module.
const COPIES: usize = 4;

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR")).parent().unwrap()
}

/// `text`'s top-level functions, each copied `COPIES` times under new names,
/// with its meshes renamed by `mesh_suffix` (the sources reuse `@mesh`).
fn functions(text: &str, mesh_suffix: &str) -> (String, Vec<String>) {
    let text = text.replace("@mesh", &format!("@mesh{mesh_suffix}"));
    let (mut meshes, mut bodies) = (String::new(), Vec::new());
    let mut current: Option<String> = None;
    for line in text.lines().filter(|l| !l.trim_start().starts_with("//")) {
        if line.starts_with("dist.mesh") {
            meshes.push_str(line);
            meshes.push('\n');
        } else if line.starts_with("func.func") {
            current = Some(format!("{line}\n"));
        } else if let Some(body) = current.as_mut() {
            body.push_str(line);
            body.push('\n');
            if line == "}" {
                bodies.push(current.take().unwrap());
            }
        }
    }
    let copies = (0..COPIES)
        .flat_map(|copy| {
            bodies.iter().map(move |body| {
                let (head, rest) = body.split_once('(').unwrap();
                format!("{head}_{mesh_suffix}{copy}({rest}")
            })
        })
        .collect();
    (meshes, copies)
}

fn stress_module() -> String {
    let sources = [
        ("examples/gpt-block.mlir", "gpt"),
        ("examples/megatron-mlp.mlir", "mlp"),
        ("test/dist-opt/threading.mlir", "ops"),
    ];
    let mut module = String::new();
    let mut bodies = String::new();
    for (path, suffix) in sources {
        let text = std::fs::read_to_string(root().join(path)).unwrap();
        let (meshes, functions) = functions(&text, suffix);
        assert!(!functions.is_empty(), "{path} has no functions");
        module.push_str(&meshes);
        bodies.push_str(&functions.concat());
    }
    module + &bodies
}

/// libdevice for the GPU pipelines, found as the lit suite finds it.
fn cuda_root() -> Option<PathBuf> {
    let root = std::env::var_os("CUDA_ROOT")
        .map(PathBuf::from)
        .unwrap_or_else(|| root().join(".tools/cuda/nvidia/cuda_nvcc"));
    root.join("nvvm/libdevice/libdevice.10.bc").exists().then_some(root)
}

/// What each registered pipeline needs to have run before it: a pipeline
/// added without an entry here fails the test.
fn prerequisite(pipeline: &str) -> &'static str {
    match pipeline {
        "dist-lower-to-local" => "",
        "dist-lower-to-cpu" | "dist-lower-to-gpu-kernels" | "dist-lower-to-gpu" => "dist-lower-to-local,",
        "dist-lower-gpu-host-to-llvm" => "dist-lower-to-local,dist-lower-to-gpu-kernels,dist-compile-gpu-kernels,",
        other => panic!("no prerequisite known for the pipeline '{other}': add it to tools/tests/threading.rs"),
    }
}

fn needs_libdevice(pipeline: &str) -> bool {
    pipeline.contains("dist-compile-gpu-kernels") || pipeline.contains("dist-lower-to-gpu")
}

fn run(context: &Context, source: &str, pipeline: &str) -> String {
    let mut module = parse_module(context, source, "stress.mlir").expect("the stress module parses");
    let pm = PassManager::new(context);
    melior::utility::parse_pass_pipeline(pm.as_operation_pass_manager(), &format!("builtin.module({pipeline})"))
        .unwrap_or_else(|e| panic!("{pipeline}: {e}"));
    pm.run(&mut module)
        .unwrap_or_else(|_| panic!("{pipeline} failed on the stress module"));
    module.as_operation().to_string()
}

#[test]
fn every_pipeline_is_deterministic_under_threading() {
    dist_passes::register_all();
    let source = stress_module();
    let cuda = cuda_root();
    if let Some(root) = &cuda {
        // SAFETY: set before any pass reads it; the test is single-threaded
        // here.
        unsafe { std::env::set_var("CUDA_ROOT", root) };
    } else {
        assert!(
            std::env::var_os("DIST_REQUIRE_PTXAS").is_none(),
            "no libdevice: run scripts/setup.sh"
        );
    }
    let mut pipelines: Vec<String> = dist_passes::PIPELINES
        .iter()
        .map(|p| format!("{}{}", prerequisite(p.argument), p.argument))
        .collect();
    // What `dist-run --overlap` runs: the overlap passes between the
    // sharding passes and partition.
    pipelines.push(
        "func.func(dist-propagate-sharding{remarks=none},dist-resolve-partial,dist-split-matmul-grad,\
         dist-overlap-collectives,dist-partition)"
            .into(),
    );
    let serial = context_with_all_dialects();
    serial.enable_multi_threading(false);
    let threaded = context_with_all_dialects();
    assert!(threaded.thread_count() >= 2 || std::thread::available_parallelism().map_or(1, |n| n.get()) == 1);
    for pipeline in &pipelines {
        if needs_libdevice(pipeline) && cuda.is_none() {
            eprintln!("skipped {pipeline}: no libdevice");
            continue;
        }
        let expected = run(&serial, &source, pipeline);
        let runs = if needs_libdevice(pipeline) {
            RUNS_COMPILING_KERNELS
        } else {
            RUNS
        };
        for i in 0..runs {
            let got = run(&threaded, &source, pipeline);
            assert!(
                got == expected,
                "run {i} of {pipeline} with threading differs from the serial run"
            );
        }
    }
}
