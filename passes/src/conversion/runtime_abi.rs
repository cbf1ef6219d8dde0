//! The runtime's ABI: every function of `libdist_runtime` that generated
//! code calls, with the types it is declared and called with.
//!
//! The one place these names and types are spelled on the compiler's side:
//! the collective lowering, the BLAS lowering and `dist-run`'s `main`
//! declare and call through here, and a test (`tools/tests/runtime_abi.rs`)
//! checks that the built library exports every symbol [`all`] lists (the
//! names: the C ABI carries no types to check).

use crate::vocabulary::comm::CollectiveKind;
use dist_dialect::ir::{OperationExt, block_ops, context_of, context_of_type, op_name, symbol_name};
use melior::Context;
use melior::dialect::func;
use melior::ir::BlockLike;
use melior::ir::attribute::{FlatSymbolRefAttribute, StringAttribute, TypeAttribute};
use melior::ir::operation::OperationLike;
use melior::ir::r#type::{FunctionType, IntegerType, MemRefType};
use melior::ir::{Attribute, Identifier, Location, Operation, OperationRef, Region, RegionLike, Type, TypeLike, Value};
use std::fmt;

/// An element type the runtime reads, writes or moves.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Element {
    F32,
    F64,
    BF16,
    I32,
    I64,
    /// A boolean: one byte, 0 or 1.
    I1,
    /// A byte of a buffer of any element type.
    I8,
}

impl Element {
    /// Its MLIR spelling, which also ends the names of the runtime
    /// functions that take it.
    pub const fn name(self) -> &'static str {
        match self {
            Self::F32 => "f32",
            Self::F64 => "f64",
            Self::BF16 => "bf16",
            Self::I32 => "i32",
            Self::I64 => "i64",
            Self::I1 => "i1",
            Self::I8 => "i8",
        }
    }

    pub fn r#type(self, context: &Context) -> Type<'_> {
        match self {
            Self::F32 => Type::float32(context),
            Self::F64 => Type::float64(context),
            Self::BF16 => Type::bfloat16(context),
            Self::I32 => IntegerType::new(context, 32).into(),
            Self::I64 => IntegerType::new(context, 64).into(),
            Self::I1 => IntegerType::new(context, 1).into(),
            Self::I8 => IntegerType::new(context, 8).into(),
        }
    }

    /// The element `ty` is, if it is one of these.
    pub fn of(ty: Type<'_>) -> Option<Self> {
        let context = context_of_type(ty);
        IO_ELEMENTS.into_iter().find(|e| e.r#type(context) == ty)
    }

    /// The element spelled `name`, if it is one of these.
    pub fn named(name: &str) -> Option<Self> {
        IO_ELEMENTS.into_iter().find(|e| e.name() == name)
    }
}

impl fmt::Display for Element {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// The type of a runtime function's argument or result.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum AbiType {
    I32,
    I64,
    Index,
    /// `memref<?xE>`: a flat buffer (a pointer to its descriptor through
    /// the C interface).
    Buffer(Element),
    /// `memref<*xE>`: a buffer of any rank and layout.
    Unranked(Element),
}

impl AbiType {
    pub fn r#type(self, context: &Context) -> Type<'_> {
        match self {
            Self::I32 => IntegerType::new(context, 32).into(),
            Self::I64 => IntegerType::new(context, 64).into(),
            Self::Index => Type::index(context),
            Self::Buffer(element) => buffer_type(element.r#type(context)),
            Self::Unranked(element) => {
                let no_memory_space = mlir_sys::MlirAttribute { ptr: std::ptr::null() };
                // SAFETY: the element type is live; a null memory space is
                // the default one.
                #[allow(unsafe_code)]
                unsafe {
                    Type::from_raw(mlir_sys::mlirUnrankedMemRefTypeGet(
                        element.r#type(context).to_raw(),
                        no_memory_space,
                    ))
                }
            }
        }
    }
}

/// `memref<?xE>`: a flat buffer of `element`s, as the runtime takes them.
pub fn buffer_type(element: Type<'_>) -> Type<'_> {
    /// A dynamic size (MLIR's `ShapedType::kDynamic`).
    const DYNAMIC: i64 = i64::MIN;
    MemRefType::new(element, &[DYNAMIC], None, None).into()
}

/// A runtime function as generated code declares and calls it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RuntimeFn {
    pub name: String,
    pub inputs: Vec<AbiType>,
    pub result: Option<AbiType>,
    /// Called through MLIR's C interface (`llvm.emit_c_interface`): memref
    /// arguments travel as pointers to descriptors, and the library
    /// defines `_mlir_ciface_<name>`.
    pub c_interface: bool,
}

impl RuntimeFn {
    fn new(name: impl Into<String>, inputs: &[AbiType], result: Option<AbiType>, c_interface: bool) -> Self {
        Self {
            name: name.into(),
            inputs: inputs.to_vec(),
            result,
            c_interface,
        }
    }

    /// Its function type, as it is declared and called.
    pub fn function_type<'c>(&self, context: &'c Context) -> FunctionType<'c> {
        let inputs: Vec<Type<'c>> = self.inputs.iter().map(|t| t.r#type(context)).collect();
        let results: Vec<Type<'c>> = self.result.iter().map(|t| t.r#type(context)).collect();
        FunctionType::new(context, &inputs, &results)
    }

    /// A `func.call` of it on `arguments`.
    pub fn call<'c>(&self, context: &'c Context, arguments: &[Value<'c, '_>], location: Location<'c>) -> Operation<'c> {
        let results: Vec<Type<'c>> = self.result.iter().map(|t| t.r#type(context)).collect();
        let callee = FlatSymbolRefAttribute::new(context, &self.name);
        func::call(context, callee, arguments, &results, location)
    }

    /// Its private `func.func` declaration.
    pub fn declaration<'c>(&self, context: &'c Context, location: Location<'c>) -> Operation<'c> {
        let mut attributes = vec![(
            Identifier::new(context, "sym_visibility"),
            StringAttribute::new(context, "private").into(),
        )];
        if self.c_interface {
            attributes.push((
                Identifier::new(context, "llvm.emit_c_interface"),
                Attribute::unit(context),
            ));
        }
        func::func(
            context,
            StringAttribute::new(context, &self.name),
            TypeAttribute::new(self.function_type(context).into()),
            Region::new(),
            &attributes,
            location,
        )
    }

    /// Declares it at the end of `module`, unless the module declares it.
    pub fn declare_once(&self, module: OperationRef<'_, '_>) {
        let body = module
            .region_at(0)
            .and_then(|r| r.first_block())
            .expect("a module has a body");
        let declared = block_ops(body)
            .iter()
            .any(|op| op_name(op) == "func.func" && symbol_name(op) == self.name);
        if !declared {
            body.append_operation(self.declaration(context_of(&module), module.location()));
        }
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
    RuntimeFn::new("dist_rt_init", &[], Some(AbiType::I32), false)
}

pub fn finalize() -> RuntimeFn {
    RuntimeFn::new("dist_rt_finalize", &[], Some(AbiType::I32), false)
}

/// Moves collectives to NCCL and kernels to the GPU.
pub fn use_gpu() -> RuntimeFn {
    RuntimeFn::new("dist_rt_use_gpu", &[], Some(AbiType::I32), false)
}

/// Flushes subnormal floats to zero on the calling thread (FTZ and DAZ),
/// as XLA's CPU runtime does; `dist-run`'s `main` calls it first.
pub fn flush_subnormals() -> RuntimeFn {
    RuntimeFn::new("dist_rt_flush_subnormals", &[], None, false)
}

/// Before a call of `dist-run`'s repeat loop on the GPU: nonzero when the
/// runtime launched the step's captured CUDA graph in place of the call.
pub fn step_replay() -> RuntimeFn {
    RuntimeFn::new("dist_rt_step_replay", &[], Some(AbiType::I32), false)
}

/// The step timer: `begin`, `end` (one step each) and `report`.
pub fn step(phase: &str) -> RuntimeFn {
    RuntimeFn::new(format!("dist_rt_step_{phase}"), &[], None, false)
}

/// A pipelined step starts a part of a microbatch's work (phase, microbatch),
/// which names its compute in `dist-run --trace`.
pub fn trace_job() -> RuntimeFn {
    RuntimeFn::new("dist_rt_trace_job", &[AbiType::I64, AbiType::I64], None, false)
}

/// The element types of the inputs `dist-run` reads and the results it
/// writes.
pub const IO_ELEMENTS: [Element; 6] = [
    Element::F32,
    Element::F64,
    Element::BF16,
    Element::I32,
    Element::I64,
    Element::I1,
];

/// `load` or `store`: the index of the input or result, its buffer and
/// its shape.
fn transfer(verb: &str, element: Element) -> RuntimeFn {
    RuntimeFn::new(
        format!("dist_rt_{verb}_{element}"),
        &[AbiType::I64, AbiType::Buffer(element), AbiType::Buffer(Element::I64)],
        None,
        true,
    )
}

/// Reads input `index` (`-n N`: this rank's shard of it) into a buffer of
/// its shape.
pub fn load(element: Element) -> RuntimeFn {
    transfer("load", element)
}

/// Writes result `index` from rank 0, in its element type.
pub fn store(element: Element) -> RuntimeFn {
    transfer("store", element)
}

/// The mesh and axes descriptors (`memref<?xi64>`) the runtime reads.
const DESCRIPTOR: AbiType = AbiType::Buffer(Element::I64);

/// This device's coordinate along a mesh's axes.
pub fn axis_index() -> RuntimeFn {
    RuntimeFn::new(
        "dist_rt_axis_index",
        &[DESCRIPTOR, DESCRIPTOR],
        Some(AbiType::Index),
        true,
    )
}

/// Makes the communicators of this device's group over the axes (the
/// mesh and axes descriptors) before the first step; the flag (nonzero)
/// asks for those of point-to-point transfers rather than collectives.
/// `dist-run`'s `main` calls it for every group its program uses.
pub fn prepare_group() -> RuntimeFn {
    RuntimeFn::new(
        "dist_rt_prepare_group",
        &[DESCRIPTOR, DESCRIPTOR, AbiType::I32],
        None,
        true,
    )
}

/// OpenBLAS's f32 GEMM over three strided memrefs (`dist-call-blas`).
pub fn contract(input: Element) -> RuntimeFn {
    RuntimeFn::new(
        format!("dist_rt_contract_{input}"),
        &contraction_operands(input),
        None,
        true,
    )
}

/// cuBLASLt's GEMM over three strided memrefs in device memory
/// (`dist-call-blas{library=cublaslt}`): `contract`'s arguments and the
/// compute mode (1: f32 inputs rounded to TF32, else 0).
pub fn gpu_contract(input: Element) -> RuntimeFn {
    let operands = [contraction_operands(input).as_slice(), &[AbiType::I64]].concat();
    RuntimeFn::new(format!("dist_rt_gpu_contract_{input}"), &operands, None, true)
}

/// `gpu_contract` with a bias epilogue (`dist-fuse-product-bias`): the
/// bias vector (f32, along C's contiguous dim) after C, and C is
/// overwritten with `A . B + bias` rather than accumulated into.
pub fn gpu_contract_bias(input: Element) -> RuntimeFn {
    let [a, b, c, scalars @ ..] = contraction_operands(input);
    let operands = [
        &[a, b, c, AbiType::Unranked(Element::F32)],
        scalars.as_slice(),
        &[AbiType::I64],
    ]
    .concat();
    RuntimeFn::new(format!("dist_rt_gpu_contract_bias_{input}"), &operands, None, true)
}

/// A contraction's A, B (of `input`) and C (f32) as unranked memrefs, then
/// each one's packed dim roles and the number of batch loops.
fn contraction_operands(input: Element) -> [AbiType; 7] {
    let operand = AbiType::Unranked(input);
    [
        operand,
        operand,
        AbiType::Unranked(Element::F32),
        AbiType::I64,
        AbiType::I64,
        AbiType::I64,
        AbiType::I64,
    ]
}

/// The device copy of a constant the device reads (its host address and
/// bytes): uploaded at the first call, the same buffer at every later one
/// (`dist-finalize-gpu-launches`).
pub fn gpu_constant() -> RuntimeFn {
    RuntimeFn::new(
        "dist_rt_gpu_constant",
        &[AbiType::Index, AbiType::I64],
        Some(AbiType::Buffer(Element::I8)),
        true,
    )
}

/// The input element types the runtime's GEMMs take (into f32).
pub const CONTRACTED_ELEMENTS: [Element; 2] = [Element::F32, Element::BF16];
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
pub fn collective_elements(kind: CollectiveKind) -> &'static [Element] {
    match kind {
        CollectiveKind::AllGather | CollectiveKind::AllToAll => &IO_ELEMENTS,
        CollectiveKind::AllReduce | CollectiveKind::ReduceScatter => &[Element::F32, Element::F64, Element::BF16],
        CollectiveKind::AllSlice => &[],
    }
}

/// The collective of `kind` moving `element`s; its start (returning the
/// request for [`wait`]) if `start`. None for an all_slice, which each
/// device does alone.
pub fn collective(kind: CollectiveKind, element: Element, start: bool) -> Option<RuntimeFn> {
    let base = match kind {
        CollectiveKind::AllReduce => "dist_rt_all_reduce",
        CollectiveKind::ReduceScatter => "dist_rt_reduce_scatter",
        CollectiveKind::AllGather => "dist_rt_all_gather",
        CollectiveKind::AllToAll => "dist_rt_all_to_all",
        CollectiveKind::AllSlice => return None,
    };
    let suffix = if start { "_start" } else { "" };
    let buffer = AbiType::Buffer(element);
    Some(RuntimeFn::new(
        format!("{base}{suffix}_{element}"),
        &[buffer, buffer, DESCRIPTOR, DESCRIPTOR, AbiType::I32],
        start.then_some(AbiType::I64),
        true,
    ))
}

/// Whether `callee` (a collective, its start or a wait, a point-to-point
/// transfer, or a cuBLASLt product) is ordered on the GPU's compute stream
/// when the runtime runs collectives on NCCL: it
/// starts after the kernels launched before it, and kernels launched after
/// it (or after its wait) start after it, with no host synchronisation.
/// `dist-chain-gpu-launches` lets such calls into the chain of launches;
/// the host waits before touching what they write.
pub fn is_stream_ordered(callee: &str) -> bool {
    let name = callee.strip_prefix("_mlir_ciface_").unwrap_or(callee);
    [
        "dist_rt_all_reduce_",
        "dist_rt_reduce_scatter_",
        "dist_rt_all_gather_",
        "dist_rt_all_to_all_",
        "dist_rt_wait_",
        "dist_rt_send_",
        "dist_rt_recv_",
        "dist_rt_gpu_contract_",
    ]
    .iter()
    .any(|prefix| name.starts_with(prefix))
}

/// Whether the device reads operand `index` of a call of `callee`: a
/// stream-ordered call's buffers (a collective's input and output, a
/// send's data, a cuBLASLt product's three matrices and bias), not the mesh and axes
/// descriptors the runtime reads on the host, nor anything a wait or a
/// receive is given.
pub fn device_reads_operand(callee: &str, index: usize) -> bool {
    let name = callee.strip_prefix("_mlir_ciface_").unwrap_or(callee);
    if name.starts_with("dist_rt_gpu_contract_bias_") {
        index < 4
    } else if name.starts_with("dist_rt_gpu_contract_") {
        index < 3
    } else if name.starts_with("dist_rt_send_") || name.starts_with("dist_rt_recv_") {
        name.starts_with("dist_rt_send_") && index == 0
    } else {
        is_stream_ordered(name) && !name.starts_with("dist_rt_wait_") && index < 2
    }
}

/// Whether `callee` takes buffers in device memory: the stream-ordered
/// calls ([`is_stream_ordered`]), and the readers and writers of inputs
/// and results, which copy such a buffer through host memory.
/// `dist-chain-gpu-launches` places a buffer only such calls and kernels
/// touch in device memory.
pub fn accepts_device_memory(callee: &str) -> bool {
    let name = callee.strip_prefix("_mlir_ciface_").unwrap_or(callee);
    is_stream_ordered(name) || name.starts_with("dist_rt_load_") || name.starts_with("dist_rt_store_")
}

/// The element types `dist.send` and `dist.recv` move.
pub const POINT_TO_POINT_ELEMENTS: [Element; 6] = IO_ELEMENTS;

/// `dist.send` (`send`) or `dist.recv`: the buffer, the mesh and axes, the
/// peer's index in the group and the tag.
pub fn point_to_point(send: bool, element: Element) -> RuntimeFn {
    let verb = if send { "send" } else { "recv" };
    RuntimeFn::new(
        format!("dist_rt_{verb}_{element}"),
        &[
            AbiType::Buffer(element),
            DESCRIPTOR,
            DESCRIPTOR,
            AbiType::I64,
            AbiType::I64,
        ],
        None,
        true,
    )
}

/// Completes a started collective into its output buffer.
pub fn wait(element: Element) -> RuntimeFn {
    let buffer = AbiType::Buffer(element);
    RuntimeFn::new(
        format!("dist_rt_wait_{element}"),
        &[AbiType::I64, buffer, buffer],
        None,
        true,
    )
}

/// Every function generated code may call.
pub fn all() -> Vec<RuntimeFn> {
    let mut all = vec![
        init(),
        finalize(),
        use_gpu(),
        prepare_group(),
        step_replay(),
        axis_index(),
        trace_job(),
        gpu_constant(),
    ];
    all.extend(CONTRACTED_ELEMENTS.map(contract));
    all.extend(CONTRACTED_ELEMENTS.map(gpu_contract));
    all.extend(CONTRACTED_ELEMENTS.map(gpu_contract_bias));
    all.extend(["begin", "end", "report"].map(step));
    all.extend(IO_ELEMENTS.map(load));
    all.extend(IO_ELEMENTS.map(store));
    let mut started: Vec<Element> = Vec::new();
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
    use dist_dialect::ir::context_with_all_dialects;

    #[test]
    fn declarations_and_calls_agree_on_the_type() {
        let context = context_with_all_dialects();
        context.load_all_available_dialects();
        let location = Location::unknown(&context);
        let f = collective(CollectiveKind::AllReduce, Element::F32, true).expect("an all_reduce moves data");
        assert_eq!(f.name, "dist_rt_all_reduce_start_f32");
        assert_eq!(
            f.declaration(&context, location).to_string().trim_end(),
            "func.func private @dist_rt_all_reduce_start_f32(memref<?xf32>, memref<?xf32>, memref<?xi64>, \
             memref<?xi64>, i32) -> i64 attributes {llvm.emit_c_interface}"
        );
        assert_eq!(
            step("end").call(&context, &[], location).to_string().trim_end(),
            "func.call @dist_rt_step_end() : () -> ()"
        );
        assert_eq!(
            axis_index().function_type(&context).to_string(),
            "(memref<?xi64>, memref<?xi64>) -> index"
        );
        assert_eq!(
            contract(Element::BF16).function_type(&context).to_string(),
            "(memref<*xbf16>, memref<*xbf16>, memref<*xf32>, i64, i64, i64, i64) -> ()"
        );
        assert_eq!(step("end").symbol(), "dist_rt_step_end");
        assert_eq!(wait(Element::I64).symbol(), "_mlir_ciface_dist_rt_wait_i64");
        assert_eq!(collective(CollectiveKind::AllSlice, Element::F32, false), None);
    }

    #[test]
    fn elements_are_known_by_name_and_type() {
        let context = context_with_all_dialects();
        for element in IO_ELEMENTS {
            assert_eq!(Element::named(element.name()), Some(element));
            assert_eq!(Element::of(element.r#type(&context)), Some(element));
        }
        assert_eq!(Element::of(Type::float16(&context)), None);
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
