//! The `dist-finalize-gpu-launches` pass. Its documentation (what it does, preconditions, before
//! and after) is [`INFO`]'s description: `dist-opt --help-passes` prints it
//! and docs/passes.md holds it.

use super::chain::callee;
use super::fills::{QUERIES, VIEWS};
use super::plan::{SCHEDULE_MODULE, TAG};
use crate::conversion::runtime_abi::{self, device_reads_operand};
use crate::error::PassError;
use crate::error::fail;
use crate::pass::{DistPass, PassInfo};
use dist_dialect::ir::build::gpu_async_token_type;
use dist_dialect::ir::{
    OperationExt, add_workgroup_attribution, block_ops, body_ops, context_of, element_bytes, erase, has_ancestor,
    insert_before, nested_ops, op_name, op_result, remove_attribute, replace_all_uses, set_operand,
    static_identity_memref_shape, symbol_name, symbol_ref_attribute, users, walk_preorder,
};
use melior::dialect::arith;
use melior::dialect::ods::{gpu, memref};
use melior::ir::attribute::{DenseI32ArrayAttribute, IntegerAttribute, StringAttribute};
use melior::ir::operation::{OperationBuilder, OperationLike, WalkResult};
use melior::ir::r#type::IntegerType;
use melior::ir::{Attribute, Identifier, OperationRef, RegionLike, Type, Value, ValueLike};
use std::collections::HashSet;
use std::ffi::c_void;

pub const INFO: PassInfo = PassInfo {
    argument: "dist-finalize-gpu-launches",
    summary: "Give scheduled GPU launches their shared memory and the host managed buffers; drop the schedule",
    description: r#"`dist-finalize-gpu-launches`: what the transform schedule leaves for the
host and device to agree on memory.

- Shared-memory buffers the promotion allocated inside a `gpu.launch`
  become the launch's workgroup attributions (static shared memory).
- Every other buffer the device may touch is allocated with `gpu.alloc
  host_shared` (CUDA managed memory), so host code, the kernels and NCCL
  all read it. A constant global (`memref.global constant`) the device
  alone reads (a kernel, a cuBLASLt product or a collective; through
  views) is the runtime's device copy, uploaded at its first use and kept
  for the program (`dist_rt_gpu_constant`); a mutable global, or one that
  host code reads through a view the device reads too, is copied into a
  managed buffer before its use. A buffer only host code touches, through any view (element
  loads and stores, calls of functions the module defines, address
  queries: the deallocation's bookkeeping), stays a `memref.alloc` freed
  by `memref.dealloc`, so the host touches it without waiting for the
  device (`dist-chain-gpu-launches`). It is freed by
  a `gpu.dealloc` on the compute stream that nothing waits for: the
  runtime keeps the block for the step's next allocation of its size, and
  the block's next user is a launch later on the same stream, or host code,
  which runs after the launches before it have finished.
- A host buffer's fill from a splat constant (the zeros a product or a
  reduction starts from, which bufferization writes as a copy from a
  global) that a launch (or a host loop of launches) reads next, or that
  a function of one block returns next, becomes a `gpu.memset` on the
  compute stream, which orders the two. A 64-bit buffer of zeros (an f64 partial
  sum) is allocated as bytes and filled through a view of 32-bit words
  (`gpu-to-llvm` lowers memsets of 16 and 32 bits). Fills that host code
  reads next, and 64-bit splats other than zero, stay host copies.
- The schedule and its tags are removed.

- **Precondition:** bufferized, with deallocations inserted, and the
  schedule applied (`gpu.launch` ops).
- **Failures:** shared memory outside a launch, or of dynamic size; a
  dynamic host buffer. Each is a diagnostic at the allocation.

```mlir
// before                                           // after
%b = memref.alloc() : memref<64xf32>                %b = gpu.alloc host_shared () : memref<64xf32>
gpu.launch ... {                                    gpu.launch ... workgroup(%t : memref<4096xi8, #gpu.address_space<workgroup>>) {
  %t = memref.alloc() : memref<4096xi8, #gpu...>      ... uses %t ...
  ... uses %t ...
  memref.dealloc %t
}                                                   }
memref.dealloc %b                                   %0 = gpu.wait async
                                                    %1 = gpu.dealloc async [%0] %b
```
"#,
    anchor: "builtin.module",
    options: Vec::new,
    dialects: &["gpu", "memref"],
    create: || Box::new(FinalizeGpuLaunches),
};

struct FinalizeGpuLaunches;

fn inside_launch(op: &OperationRef<'_, '_>) -> bool {
    has_ancestor(op, |a| op_name(a) == "gpu.launch")
}

/// The names of the module's constant globals (`memref.global constant`):
/// only those may be uploaded once for the program.
fn constant_globals(module: OperationRef<'_, '_>) -> HashSet<String> {
    body_ops(module)
        .iter()
        .filter(|op| op_name(op) == "memref.global" && op.attribute("constant").is_ok())
        .map(symbol_name)
        .collect()
}

/// Who reads a value where an op is given it, through any view of it.
#[derive(Debug, Default, Clone, Copy)]
struct Readers {
    /// A kernel, or a stream-ordered runtime call at a device operand.
    device: bool,
    /// Host code: anything else but a query of its address or sizes.
    host: bool,
}

impl Readers {
    const DEVICE: Self = Self {
        device: true,
        host: false,
    };
    const HOST: Self = Self {
        device: false,
        host: true,
    };

    fn and(self, other: Self) -> Self {
        Self {
            device: self.device || other.device,
            host: self.host || other.host,
        }
    }
}

/// Who reads `value` where `op` is given it (see [`Readers`]); a view's
/// readers are those of its results.
fn readers(op: &OperationRef<'_, '_>, value: Value<'_, '_>) -> Readers {
    let name = op_name(op);
    if inside_launch(op) {
        Readers::DEVICE
    } else if name == "func.call" {
        let Some(callee) = callee(op) else { return Readers::HOST };
        (0..op.operand_count())
            .filter(|&i| op.operand_at(i) == Some(value))
            .map(|i| {
                if device_reads_operand(&callee, i) {
                    Readers::DEVICE
                } else {
                    Readers::HOST
                }
            })
            .fold(Readers::default(), Readers::and)
    } else if VIEWS.contains(&name) && op.operand_at(0) == Some(value) {
        op.results()
            .flat_map(|r| {
                let view = Value::from(r);
                users(view).into_iter().map(move |user| readers(&user, view))
            })
            .fold(Readers::default(), Readers::and)
    } else if QUERIES.contains(&name) {
        Readers::default()
    } else {
        Readers::HOST
    }
}

fn is_workgroup(ty: melior::ir::Type<'_>) -> bool {
    ty.to_string().contains("#gpu.address_space<workgroup>")
}

impl DistPass for FinalizeGpuLaunches {
    fn run(&mut self, module: OperationRef<'_, '_>) -> Result<(), PassError> {
        super::fills::fill_on_device(context_of(&module), module)?;
        let mut launches = Vec::new();
        let mut allocs = Vec::new();
        let mut deallocs = Vec::new();
        let mut globals = Vec::new();
        let mut schedules = Vec::new();
        walk_preorder(&module, |op| {
            remove_attribute(op, TAG);
            match op_name(&op) {
                "builtin.module" => {
                    let named = op
                        .attribute("sym_name")
                        .ok()
                        .and_then(|a| StringAttribute::try_from(a).ok())
                        .is_some_and(|s| s.value() == SCHEDULE_MODULE);
                    if named {
                        schedules.push(op);
                        return WalkResult::Skip;
                    }
                }
                "gpu.launch" => launches.push(op),
                "memref.alloc" => allocs.push(op),
                "memref.dealloc" => deallocs.push(op),
                "memref.get_global" => globals.push(op),
                _ => {}
            }
            WalkResult::Advance
        });
        for schedule in schedules {
            // SAFETY: the walk did not enter the schedule, so no collected op is inside it.
            #[allow(unsafe_code)]
            unsafe {
                erase(schedule)
            };
        }
        let context = context_of(&module);
        let host_only = host_only_allocations(&module, &allocs);
        let segments = Attribute::from(DenseI32ArrayAttribute::new(context, &[0, 0, 0]));
        let unit = Attribute::unit(context);
        // Deallocations: workgroup memory lives as long as the launch; host
        // buffers go back to the driver.
        for dealloc in deallocs {
            let buffer = dealloc
                .operand_at(0)
                .ok_or_else(|| fail(dealloc.location(), "a deallocation without its buffer"))?;
            if root_allocation(buffer).is_some_and(|a| host_only.contains(&a.to_raw().ptr)) {
                continue;
            }
            if is_workgroup(buffer.r#type()) {
                // SAFETY: a deallocation has no results and is listed once.
                #[allow(unsafe_code)]
                unsafe {
                    erase(dealloc)
                };
            } else if !inside_launch(&dealloc) {
                free_managed(context, buffer, dealloc);
                // SAFETY: a deallocation has no results and is listed once.
                #[allow(unsafe_code)]
                unsafe {
                    erase(dealloc)
                };
            }
        }
        for alloc in allocs {
            let location = alloc.location();
            let result = alloc
                .result_at(0)
                .ok_or_else(|| fail(location, "an allocation without a result"))?;
            let ty = result.r#type();
            if is_workgroup(ty) {
                let Some(launch) = launches.iter().find(|l| encloses(l, &alloc)) else {
                    return Err(fail(location, "shared memory allocated outside a GPU launch"));
                };
                if alloc.operand_count() != 0 {
                    return Err(fail(location, "shared memory of dynamic size is not supported"));
                }
                // The attribution replaces every use of the allocation.
                replace_all_uses(result, add_workgroup_attribution(*launch, ty, location));
                // SAFETY: its uses were replaced, and it is listed once.
                #[allow(unsafe_code)]
                unsafe {
                    erase(alloc)
                };
            } else if !inside_launch(&alloc) && !host_only.contains(&alloc.to_raw().ptr) {
                if alloc.operand_count() != 0 {
                    return Err(fail(
                        location,
                        "host buffers of dynamic size are not supported on the GPU",
                    ));
                }
                let managed = managed_alloc(context, location, ty, segments, unit)?;
                let managed = insert_before(alloc, managed);
                replace_all_uses(result, managed.result_at(0).expect("an allocation result"));
                // SAFETY: its uses were replaced, and it is listed once.
                #[allow(unsafe_code)]
                unsafe {
                    erase(alloc)
                };
            }
        }
        let constants = constant_globals(module);
        for global in globals {
            stage_global(context, module, &constants, global, segments, unit)?;
        }
        Ok(())
    }
}

/// The allocations of `allocs` that only host code reads and writes
/// (element loads and stores, calls of host functions, frees, queries: the
/// deallocation's bookkeeping), through any view: they stay host memory,
/// so the host touches them without waiting for the device.
fn host_only_allocations(module: &OperationRef<'_, '_>, allocs: &[OperationRef<'_, '_>]) -> HashSet<*mut c_void> {
    // Functions this module defines that run on the host alone: no launch,
    // and no call (a callee could hand the buffer to the device).
    let mut defined = HashSet::new();
    walk_preorder(module, |op| {
        let body = op.region_at(0).and_then(|r| r.first_block());
        if op_name(&op) == "func.func"
            && body.is_some()
            && nested_ops(&op, |inner| matches!(op_name(inner), "gpu.launch" | "func.call")).is_empty()
        {
            defined.insert(symbol_name(&op));
        }
        WalkResult::Advance
    });
    let host_use = |user: &OperationRef<'_, '_>| match op_name(user) {
        "memref.load" | "memref.store" | "memref.dealloc" => true,
        "func.call" => callee(user).is_some_and(|c| defined.contains(&c)),
        name => QUERIES.contains(&name),
    };
    allocs
        .iter()
        .filter(|alloc| !inside_launch(alloc) && alloc.result_at(0).is_some_and(|r| !is_workgroup(r.r#type())))
        .filter(|alloc| {
            let mut aliases: Vec<Value> = alloc.results().map(Value::from).collect();
            let mut next = 0;
            while let Some(&alias) = aliases.get(next) {
                next += 1;
                for user in users(alias) {
                    if VIEWS.contains(&op_name(&user)) && user.operand_at(0) == Some(alias) {
                        aliases.extend(user.results().map(Value::from));
                    } else if inside_launch(&user) || !host_use(&user) {
                        return false;
                    }
                }
            }
            true
        })
        .map(|alloc| alloc.to_raw().ptr)
        .collect()
}

/// The `memref.alloc` whose buffer `value` views, if any.
fn root_allocation<'c, 'a>(mut value: Value<'c, 'a>) -> Option<OperationRef<'c, 'a>> {
    loop {
        let owner = op_result(value)?.owner();
        match op_name(&owner) {
            "memref.alloc" => return Some(owner),
            name if VIEWS.contains(&name) => value = owner.operand_at(0)?,
            _ => return None,
        }
    }
}

fn encloses(launch: &OperationRef<'_, '_>, op: &OperationRef<'_, '_>) -> bool {
    has_ancestor(op, |a| a.to_raw().ptr == launch.to_raw().ptr)
}

fn managed_alloc<'c>(
    context: &'c melior::Context,
    location: melior::ir::Location<'c>,
    ty: melior::ir::Type<'c>,
    segments: Attribute<'c>,
    unit: Attribute<'c>,
) -> Result<melior::ir::Operation<'c>, PassError> {
    OperationBuilder::new("gpu.alloc", location)
        .add_attributes(&[
            (Identifier::new(context, "hostShared"), unit),
            (Identifier::new(context, "operandSegmentSizes"), segments),
        ])
        .add_results(&[ty])
        .build()
        .map_err(|e| fail(location, &e.to_string()))
}

/// A constant read by a kernel or by a runtime call ordered on the stream
/// (a cuBLASLt product, a collective; through views) is read from device
/// memory, since the device cannot read host globals: the runtime's copy,
/// uploaded once per program ([`upload_constant`]), where the global is
/// constant and the device alone reads it; else (a mutable global, or host
/// code reads a view the device reads too) a managed copy made before each
/// use and freed at the end of its block.
fn stage_global<'c>(
    context: &'c melior::Context,
    module: OperationRef<'c, '_>,
    constants: &HashSet<String>,
    global: OperationRef<'c, '_>,
    segments: Attribute<'c>,
    unit: Attribute<'c>,
) -> Result<(), PassError> {
    let location = global.location();
    let value = global
        .result_at(0)
        .ok_or_else(|| fail(location, "a global read without a result"))?;
    let users_readers: Vec<_> = users(value)
        .into_iter()
        .map(|user| (user, readers(&user, value.into())))
        .filter(|(_, readers)| readers.device)
        .collect();
    if users_readers.is_empty() || inside_launch(&global) {
        return Ok(());
    }
    let next = global.next_in_block().expect("a block ends with its terminator");
    let constant = symbol_ref_attribute(&global, "name").is_some_and(|name| constants.contains(&name));
    let buffer = if constant && users_readers.iter().all(|(_, readers)| !readers.host) {
        upload_constant(context, module, global, next)?
    } else {
        let managed = managed_alloc(context, location, value.r#type(), segments, unit)?;
        let buffer: melior::ir::Value = insert_before(next, managed)
            .result_at(0)
            .expect("an allocation result")
            .into();
        insert_before(next, memref::copy(context, value.into(), buffer, location).into());
        let block = global.block().expect("an op in a block");
        let terminator = block_ops(block).pop().expect("a terminator");
        free_managed(context, buffer, terminator);
        buffer
    };
    for (reader, _) in users_readers {
        for i in 0..reader.operand_count() {
            if reader.operand_at(i).is_some_and(|v| v == value.into()) {
                set_operand(reader, i, buffer);
            }
        }
    }
    Ok(())
}

/// The device copy of the constant `global` reads, before `next`: the
/// runtime uploads it at its first call (`dist_rt_gpu_constant`, keyed by
/// the global's address) and returns the same device buffer at every later
/// one, so a step copies no constant and a captured step replays with it.
fn upload_constant<'c, 'a>(
    context: &'c melior::Context,
    module: OperationRef<'c, '_>,
    global: OperationRef<'c, 'a>,
    next: OperationRef<'c, 'a>,
) -> Result<Value<'c, 'a>, PassError> {
    let location = global.location();
    let value: Value = global.result_at(0).expect("a global read's result").into();
    let elements: i64 = static_identity_memref_shape(value.r#type())
        .ok_or_else(|| fail(location, "a global read that is not a static memref"))?
        .iter()
        .product();
    let bytes = elements * element_bytes(value.r#type()) as i64;
    let index = Type::index(context);
    let address = OperationBuilder::new("memref.extract_aligned_pointer_as_index", location)
        .add_operands(&[value])
        .add_results(&[index])
        .build()
        .map_err(|e| fail(location, &e.to_string()))?;
    let address = insert_before(next, address).result_at(0).expect("an address").into();
    let i64_type = IntegerType::new(context, 64).into();
    let size = arith::constant(context, IntegerAttribute::new(i64_type, bytes).into(), location);
    let size = insert_before(next, size).result_at(0).expect("a constant").into();
    let upload = runtime_abi::gpu_constant();
    upload.declare_once(module);
    let device = insert_before(next, upload.call(context, &[address, size], location))
        .result_at(0)
        .expect("the device buffer")
        .into();
    let zero = arith::constant(context, IntegerAttribute::new(index, 0).into(), location);
    let zero = insert_before(next, zero).result_at(0).expect("a constant").into();
    let view = OperationBuilder::new("memref.view", location)
        .add_operands(&[device, zero])
        .add_results(&[value.r#type()])
        .build()
        .map_err(|e| fail(location, &e.to_string()))?;
    Ok(insert_before(next, view).result_at(0).expect("a view").into())
}

/// Frees the managed `buffer` before `at`, on the compute stream and
/// without waiting: the runtime keeps the block for a later allocation of
/// its size (it never returns it to the driver inside a step), and every
/// later use of that block is ordered after the kernels that read it
/// before (they are on the same stream, and host code runs after the
/// launches before it have finished).
fn free_managed<'c>(context: &'c melior::Context, buffer: melior::ir::Value<'c, '_>, at: OperationRef<'c, '_>) {
    let location = at.location();
    let token = gpu_async_token_type(context);
    let stream = gpu::WaitOperationBuilder::new(context, location)
        .async_token(token)
        .async_dependencies(&[])
        .build();
    let stream = insert_before(at, stream.into());
    let ready = stream.result_at(0).expect("a token").into();
    let free = gpu::DeallocOperationBuilder::new(context, location)
        .async_token(token)
        .async_dependencies(&[ready])
        .memref(buffer)
        .build();
    insert_before(at, free.into());
}
