//! The runtime's ABI: every function of `libdist_runtime` that generated
//! code calls, with the MLIR type it is declared and called with.
//!
//! The one place these names are spelled on the compiler's side: the
//! collective lowering, the BLAS lowering and `dist-run`'s `main` declare
//! and call through here, and a test (`tools/tests/runtime_abi.rs`) checks
//! that the built library exports every symbol [`all`] lists (the names:
//! the C ABI carries no types to check).

use crate::vocabulary::comm::CollectiveKind;

/// A runtime function as generated code declares and calls it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RuntimeFn {
    pub name: String,
    /// The parenthesized argument types.
    pub inputs: String,
    /// The result type, if any.
    pub result: Option<&'static str>,
    /// Called through MLIR's C interface (`llvm.emit_c_interface`): memref
    /// arguments travel as pointers to descriptors, and the library
    /// defines `_mlir_ciface_<name>`.
    pub c_interface: bool,
}

impl RuntimeFn {
    fn new(
        name: impl Into<String>,
        inputs: impl Into<String>,
        result: Option<&'static str>,
        c_interface: bool,
    ) -> Self {
        Self {
            name: name.into(),
            inputs: inputs.into(),
            result,
            c_interface,
        }
    }

    /// Its function type, as a `func.call` spells it.
    pub fn call_type(&self) -> String {
        format!("{} -> {}", self.inputs, self.result.unwrap_or("()"))
    }

    /// A `func.call` of it on `arguments` (comma-separated SSA values);
    /// the caller binds its result, if any.
    pub fn call(&self, arguments: &str) -> String {
        format!("func.call @{}({arguments}) : {}", self.name, self.call_type())
    }

    /// Its private `func.func` declaration, one line of a module body.
    pub fn declaration(&self) -> String {
        let result = self.result.map(|r| format!(" -> {r}")).unwrap_or_default();
        let attributes = if self.c_interface {
            " attributes {llvm.emit_c_interface}"
        } else {
            ""
        };
        format!(
            "  func.func private @{}{}{result}{attributes}\n",
            self.name, self.inputs
        )
    }

    /// The symbol the library defines for it.
    pub fn symbol(&self) -> String {
        if self.c_interface {
            format!("_mlir_ciface_{}", self.name)
        } else {
            self.name.clone()
        }
    }
}

/// Starts MPI (and the communicators) in a program of several processes.
pub fn init() -> RuntimeFn {
    RuntimeFn::new("dist_rt_init", "()", Some("i32"), false)
}

pub fn finalize() -> RuntimeFn {
    RuntimeFn::new("dist_rt_finalize", "()", Some("i32"), false)
}

/// Moves collectives to NCCL and kernels to the GPU.
pub fn use_gpu() -> RuntimeFn {
    RuntimeFn::new("dist_rt_use_gpu", "()", Some("i32"), false)
}

/// Flushes subnormal floats to zero on the calling thread (FTZ and DAZ),
/// as XLA's CPU runtime does; `dist-run`'s `main` calls it first.
pub fn flush_subnormals() -> RuntimeFn {
    RuntimeFn::new("dist_rt_flush_subnormals", "()", None, false)
}

/// The step timer: `begin`, `end` (one step each) and `report`.
pub fn step(phase: &str) -> RuntimeFn {
    RuntimeFn::new(format!("dist_rt_step_{phase}"), "()", None, false)
}

/// A pipelined step starts a part of a microbatch's work (phase, microbatch),
/// which names its compute in `dist-run --trace`.
pub fn trace_job() -> RuntimeFn {
    RuntimeFn::new("dist_rt_trace_job", "(i64, i64)", None, false)
}

/// The element types of the inputs `dist-run` reads and the results it
/// writes.
pub const IO_ELEMENTS: [&str; 5] = ["f32", "f64", "bf16", "i32", "i64"];

/// Reads input `index` (`-n N`: this rank's shard of it) into a buffer of
/// its shape.
pub fn load(element: &str) -> RuntimeFn {
    RuntimeFn::new(
        format!("dist_rt_load_{element}"),
        format!("(i64, memref<?x{element}>, memref<?xi64>)"),
        None,
        true,
    )
}

/// Writes result `index` from rank 0, in its element type.
pub fn store(element: &str) -> RuntimeFn {
    RuntimeFn::new(
        format!("dist_rt_store_{element}"),
        format!("(i64, memref<?x{element}>, memref<?xi64>)"),
        None,
        true,
    )
}

/// This device's coordinate along a mesh's axes.
pub fn axis_index() -> RuntimeFn {
    RuntimeFn::new(
        "dist_rt_axis_index",
        "(memref<?xi64>, memref<?xi64>)",
        Some("index"),
        true,
    )
}

/// OpenBLAS's f32 GEMM over three strided memrefs (`dist-call-blas`).
pub fn contract(input: &str) -> RuntimeFn {
    RuntimeFn::new(
        format!("dist_rt_contract_{input}"),
        format!("(memref<*x{input}>, memref<*x{input}>, memref<*xf32>, i64, i64, i64, i64)"),
        None,
        true,
    )
}

/// The input element types the runtime's GEMMs take (into f32).
pub const CONTRACTED_ELEMENTS: [&str; 2] = ["f32", "bf16"];

/// The collectives that move data, each with a runtime call.
const MOVING: [CollectiveKind; 4] = [
    CollectiveKind::AllReduce,
    CollectiveKind::ReduceScatter,
    CollectiveKind::AllGather,
    CollectiveKind::AllToAll,
];

/// The element types the runtime moves for a collective of `kind`:
/// integers (token ids) are gathered and exchanged, never reduced; an
/// all_slice moves nothing.
pub fn collective_elements(kind: CollectiveKind) -> &'static [&'static str] {
    match kind {
        CollectiveKind::AllGather | CollectiveKind::AllToAll => &["f32", "f64", "bf16", "i32", "i64"],
        CollectiveKind::AllReduce | CollectiveKind::ReduceScatter => &["f32", "f64", "bf16"],
        CollectiveKind::AllSlice => &[],
    }
}

/// The collective of `kind` moving `element`s; its start (returning the
/// request for [`wait`]) if `start`. None for an all_slice, which each
/// device does alone.
pub fn collective(kind: CollectiveKind, element: &str, start: bool) -> Option<RuntimeFn> {
    let base = match kind {
        CollectiveKind::AllReduce => "dist_rt_all_reduce",
        CollectiveKind::ReduceScatter => "dist_rt_reduce_scatter",
        CollectiveKind::AllGather => "dist_rt_all_gather",
        CollectiveKind::AllToAll => "dist_rt_all_to_all",
        CollectiveKind::AllSlice => return None,
    };
    let suffix = if start { "_start" } else { "" };
    Some(RuntimeFn::new(
        format!("{base}{suffix}_{element}"),
        format!("(memref<?x{element}>, memref<?x{element}>, memref<?xi64>, memref<?xi64>, i32)"),
        start.then_some("i64"),
        true,
    ))
}

/// The element types `dist.send` and `dist.recv` move.
pub const POINT_TO_POINT_ELEMENTS: [&str; 5] = IO_ELEMENTS;

/// `dist.send` (`send`) or `dist.recv`: the buffer, the mesh and axes, the
/// peer's index in the group and the tag.
pub fn point_to_point(send: bool, element: &str) -> RuntimeFn {
    let verb = if send { "send" } else { "recv" };
    RuntimeFn::new(
        format!("dist_rt_{verb}_{element}"),
        format!("(memref<?x{element}>, memref<?xi64>, memref<?xi64>, i64, i64)"),
        None,
        true,
    )
}

/// Completes a started collective into its output buffer.
pub fn wait(element: &str) -> RuntimeFn {
    RuntimeFn::new(
        format!("dist_rt_wait_{element}"),
        format!("(i64, memref<?x{element}>, memref<?x{element}>)"),
        None,
        true,
    )
}

/// Every function generated code may call.
pub fn all() -> Vec<RuntimeFn> {
    let mut all = vec![init(), finalize(), use_gpu(), axis_index(), trace_job()];
    all.extend(CONTRACTED_ELEMENTS.map(contract));
    all.extend(["begin", "end", "report"].map(step));
    all.extend(IO_ELEMENTS.map(load));
    all.extend(IO_ELEMENTS.map(store));
    let mut started: Vec<&str> = Vec::new();
    for kind in MOVING {
        for &element in collective_elements(kind) {
            all.extend(
                [false, true]
                    .into_iter()
                    .filter_map(|start| collective(kind, element, start)),
            );
            if !started.contains(&element) {
                started.push(element);
            }
        }
    }
    all.extend(started.into_iter().map(wait));
    for send in [true, false] {
        all.extend(POINT_TO_POINT_ELEMENTS.map(|e| point_to_point(send, e)));
    }
    all
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn declarations_and_calls_agree_on_the_type() {
        let f = collective(CollectiveKind::AllReduce, "f32", true).expect("an all_reduce moves data");
        assert_eq!(f.name, "dist_rt_all_reduce_start_f32");
        assert_eq!(
            f.declaration(),
            "  func.func private @dist_rt_all_reduce_start_f32(memref<?xf32>, memref<?xf32>, memref<?xi64>, \
             memref<?xi64>, i32) -> i64 attributes {llvm.emit_c_interface}\n"
        );
        assert_eq!(step("end").call(""), "func.call @dist_rt_step_end() : () -> ()");
        assert_eq!(
            axis_index().call("%m, %a"),
            "func.call @dist_rt_axis_index(%m, %a) : (memref<?xi64>, memref<?xi64>) -> index"
        );
        assert_eq!(step("end").symbol(), "dist_rt_step_end");
        assert_eq!(wait("i64").symbol(), "_mlir_ciface_dist_rt_wait_i64");
        assert_eq!(collective(CollectiveKind::AllSlice, "f32", false), None);
    }

    #[test]
    fn every_name_is_listed_once() {
        let mut names: Vec<String> = all().into_iter().map(|f| f.name).collect();
        let count = names.len();
        names.sort();
        names.dedup();
        assert_eq!(names.len(), count);
    }
}
