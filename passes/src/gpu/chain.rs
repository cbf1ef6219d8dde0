//! The `dist-chain-gpu-launches` pass. Its documentation (what it does,
//! preconditions, before and after) is [`INFO`]'s description:
//! `dist-opt --help-passes` prints it and docs/passes.md holds it.

use super::fills::{QUERIES, VIEWS};
use crate::conversion::runtime_abi::{accepts_device_memory, is_stream_ordered};
use crate::error::{PassError, fail};
use crate::pass::{DistPass, PassInfo};
use crate::transforms::strip_call_descriptors::symbol_uses;
use dist_dialect::ir::build::gpu_async_token_type;
use dist_dialect::ir::{
    OperationExt, attribute, block_argument, block_ops, context_of, erase, has_uses, insert_before, nearest_ancestor,
    op_name, op_result, replace_all_uses, set_operand, static_identity_memref_shape, string_attribute, symbol_name,
    symbol_ref_attribute, uses, walk_preorder,
};
use melior::Context;
use melior::dialect::ods::gpu;
use melior::ir::attribute::DenseI32ArrayAttribute;
use melior::ir::operation::{OperationBuilder, OperationLike, WalkResult};
use melior::ir::{Attribute, BlockLike, BlockRef, Identifier, OperationRef, RegionLike, Value, ValueLike};
use std::collections::{HashMap, HashSet};

pub const INFO: PassInfo = PassInfo {
    argument: "dist-chain-gpu-launches",
    summary: "Chain kernel launches, fills and frees on async tokens, the host waiting only before it touches \
              device memory and at the return; buffers only the device touches in device memory",
    description: r#"`dist-chain-gpu-launches`: asynchronous launches on one stream.

`gpu-to-llvm` lowers a `gpu.launch_func` without a token to a launch and
a stream synchronisation: the host waits for every kernel. This pass
makes each launch of a host function `async`, depending on the token of
the launch, fill (`gpu.memset`) or copy (`gpu.memcpy`) before it, so the
stream orders them and the host runs ahead. Frees (`gpu.dealloc`) depend
on the chain's token too, and nothing waits for them. The collectives and
their waits (runtime calls the runtime orders on the same compute stream,
`runtime_abi::is_stream_ordered`) join the stream as they are.

The host waits for the chain (`gpu.wait [%t]`, one stream synchronisation)
only:
- before a host op that reads or writes a buffer the device may use: one
  whose root (through views) is a `gpu.alloc`, a function argument or
  anything but a host allocation (`memref.alloc`, `memref.alloca`) or a
  constant global; runtime calls other than the stream-ordered ones count
  as host ops on their buffer operands;
- before the function returns, so that its results are complete; but a
  private function called only from other private functions' host code
  (a pipelined step's stage and its parts) is ordered on the stream like a
  collective: it returns without waiting, enters as if work were queued
  (it waits before its own host accesses), and its calls queue work.

Buffers only the device touches move from managed memory
(`gpu.alloc host_shared`) to device memory, allocated on the stream
(`gpu.alloc async`): those whose every use, through views, is a kernel, a
fill, a copy or a free on the stream, or a runtime call that takes device
memory (`runtime_abi::accepts_device_memory`: the collectives, and the
readers and writers of inputs and results, which copy through host
memory). Across one call: a buffer passed to a function this module
defines counts by that function's argument, and a returned buffer by its
result at every call site. Any other use (host code) keeps it managed.

An op whose regions queue work (a host loop of launches) waits before it,
and its regions each wait at their end for what they queued: `gpu-to-llvm`
takes a token that crosses control flow for an event, not a stream, so
the chain does not cross into regions. (`dist-collapse-contraction-dims`
leaves the GPU pipeline no such loop.) Regions that only free buffers
follow the chain; one that touches device memory waits before it.

- **Precondition:** kernels outlined (`gpu.launch_func`), every buffer a
  kernel touches allocated with `gpu.alloc` (`dist-finalize-gpu-launches`),
  fills, copies and frees each depending on a fresh `gpu.wait async` (as
  that pass writes them), function bodies of one block (structured control
  flow, before `convert-scf-to-cf`). A function of several blocks is left
  as it is (its launches stay synchronous).
- **Failures:** none beyond an op that cannot be rebuilt.

```mlir
// before                                           // after
%t0 = gpu.wait async                                %t0 = gpu.wait async
%t1 = gpu.memset async [%t0] %c, %zero              %t1 = gpu.memset async [%t0] %c, %zero
gpu.launch_func @k0::@k0 ... args(%a, %c)           %t2 = gpu.launch_func async [%t1] @k0::@k0 ... args(%a, %c)
gpu.launch_func @k1::@k1 ... args(%c, %d)           %t3 = gpu.launch_func async [%t2] @k1::@k1 ... args(%c, %d)
%t4 = gpu.wait async                                %t5 = gpu.dealloc async [%t3] %c
%t5 = gpu.dealloc async [%t4] %c                    gpu.wait [%t3]
%s = memref.load %d[] : memref<f32>                 %s = memref.load %d[] : memref<f32>
```
"#,
    anchor: "builtin.module",
    options: Vec::new,
    dialects: &["gpu"],
    create: || Box::new(ChainGpuLaunches),
};

struct ChainGpuLaunches;

impl DistPass for ChainGpuLaunches {
    fn run(&mut self, module: OperationRef<'_, '_>) -> Result<(), PassError> {
        let context = context_of(&module);
        let mut bodies = Vec::new();
        walk_preorder(&module, |op| match op_name(&op) {
            "gpu.module" | "gpu.binary" => WalkResult::Skip,
            "func.func" => {
                bodies.extend(only_block(&op));
                WalkResult::Skip
            }
            _ => WalkResult::Advance,
        });
        place_in_device_memory(context, &module)?;
        let ordered = stream_ordered_functions(&module, &bodies);
        for body in bodies {
            let entry = match body.parent_operation() {
                Some(function) if ordered.contains(&symbol_name(&function)) => Stream::pending(),
                _ => Stream::idle(),
            };
            chain_block(context, body, entry, &ordered)?;
        }
        Ok(())
    }
}

/// Where the compute stream stands at a point of the host code.
#[derive(Clone, Copy, PartialEq)]
struct Stream<'c, 'a> {
    /// The token of the last launch, fill or copy, which the next depends on.
    last: Option<Value<'c, 'a>>,
    /// Whether work was queued (launches, fills, collectives) since the host
    /// last waited.
    busy: bool,
}

impl Stream<'_, '_> {
    fn idle() -> Self {
        Stream {
            last: None,
            busy: false,
        }
    }

    /// On entry to a stream-ordered function: its caller may have queued
    /// work that the host has not waited for.
    fn pending() -> Self {
        Stream { last: None, busy: true }
    }
}

/// The private functions whose every use is a call from another private
/// function's host code (one block, chained here): such a function's work
/// is ordered on the stream like a runtime collective's, so it returns
/// without waiting and its callers wait only where they touch what it
/// queued. A function called from a public one (the entry, whose caller
/// outside the module or dist-run's `main` expects complete results and
/// times the call) keeps its wait at the return.
fn stream_ordered_functions(module: &OperationRef<'_, '_>, bodies: &[BlockRef<'_, '_>]) -> HashSet<String> {
    let (calls, other_uses) = symbol_uses(*module);
    let private = |function: &OperationRef| string_attribute(function, "sym_visibility").as_deref() == Some("private");
    let chained: HashMap<String, bool> = bodies
        .iter()
        .filter_map(|body| body.parent_operation())
        .map(|function| (symbol_name(&function), private(&function)))
        .collect();
    chained
        .iter()
        .filter(|&(name, &is_private)| {
            is_private
                && !other_uses.contains(name)
                && calls.get(name).is_some_and(|sites| {
                    sites.iter().all(|site| {
                        let caller = nearest_ancestor(site, |a| op_name(a) == "func.func");
                        caller.is_some_and(|f| chained.get(&symbol_name(&f)) == Some(&true))
                    })
                })
        })
        .map(|(name, _)| name.clone())
        .collect()
}

/// The body of `function` where it is one block: the host code this pass
/// chains on the stream (a function of several blocks, structured control
/// flow lowered, is left as it is), which `dist-finalize-gpu-launches`
/// relies on to fill a buffer such a function returns on the stream.
pub(super) fn only_block<'c, 'a>(function: &OperationRef<'c, 'a>) -> Option<BlockRef<'c, 'a>> {
    let entry = function.region_at(0)?.first_block()?;
    (op_name(function) == "func.func" && entry.next_in_region().is_none()).then_some(entry)
}

/// Whether `op` queues work on the stream without the host waiting: a
/// runtime call ordered on the stream, or a call of a stream-ordered
/// function of the module.
fn queues_call(op: &OperationRef<'_, '_>, ordered: &HashSet<String>) -> bool {
    is_stream_call(op) || (op_name(op) == "func.call" && callee(op).is_some_and(|c| ordered.contains(&c)))
}

/// What the regions of an op hold, for the stream, from least to most.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum Held {
    /// Host work on host memory only.
    Nothing,
    /// Frees besides host work on host memory: they follow the chain.
    Frees,
    /// Host accesses to device memory: the host waits before the op.
    HostAccess,
    /// Work queued on the stream.
    Queues,
}

/// Chains the async work of `block`, entered with the stream as `stream`;
/// returns where it stands at the block's end.
fn chain_block<'c, 'a>(
    context: &'c Context,
    block: BlockRef<'c, 'a>,
    mut stream: Stream<'c, 'a>,
    ordered: &HashSet<String>,
) -> Result<Stream<'c, 'a>, PassError> {
    for op in block_ops(block) {
        match op_name(&op) {
            "gpu.launch_func" if op.result_count() == 0 => {
                let after = token(context, op, &mut stream);
                stream.last = Some(make_async(context, op, after)?);
                stream.busy = true;
            }
            // An allocation of device memory: on the stream, no work.
            "gpu.alloc" if op.result_count() == 2 => {
                follow(op, stream.last);
                stream.last = op.result_at(1).map(Into::into);
            }
            "gpu.launch_func" | "gpu.memset" | "gpu.memcpy" if op.result_count() == 1 => {
                follow(op, stream.last);
                stream.last = op.result_at(0).map(Into::into);
                stream.busy = true;
            }
            "memref.copy" if copies_on_device(&op) => {
                let after = token(context, op, &mut stream);
                stream.last = Some(copy_on_stream(context, op, after)?);
                stream.busy = true;
            }
            // The host waited for everything queued.
            "gpu.wait" if op.result_count() == 0 => stream = Stream::idle(),
            // Nothing waits for a free.
            "gpu.dealloc" => follow(op, stream.last),
            "func.return" => {
                let function = op.parent_operation().map(|f| symbol_name(&f));
                if stream.busy && !function.is_some_and(|f| ordered.contains(&f)) {
                    wait(context, op, &mut stream);
                }
            }
            "func.call" if is_stream_call(&op) => stream.busy = true,
            // What the callee queued follows no token of the caller's: the
            // next op depends on the stream itself.
            "func.call" if queues_call(&op, ordered) => stream = Stream::pending(),
            _ if op.region_count() > 0 => match held(&op, ordered) {
                Held::Nothing => {}
                Held::Frees => {
                    for region in op.regions() {
                        let mut block = region.first_block();
                        while let Some(b) = block {
                            chain_block(context, b, stream, ordered)?;
                            block = b.next_in_region();
                        }
                    }
                }
                Held::HostAccess => {
                    if stream.busy {
                        wait(context, op, &mut stream);
                    }
                }
                Held::Queues => {
                    if stream.busy {
                        wait(context, op, &mut stream);
                    }
                    for region in op.regions() {
                        let mut block = region.first_block();
                        while let Some(b) = block {
                            let mut end = chain_block(context, b, Stream::idle(), ordered)?;
                            if end.busy {
                                let terminator = b
                                    .terminator()
                                    .ok_or_else(|| fail(op.location(), "a block without its terminator"))?;
                                wait(context, terminator, &mut end);
                            }
                            block = b.next_in_region();
                        }
                    }
                    stream = Stream::idle();
                }
            },
            _ => {
                if stream.busy && touches_device_memory(&op) {
                    wait(context, op, &mut stream);
                }
            }
        }
    }
    Ok(stream)
}

/// The token the next async op before `at` depends on: the chain's last,
/// or a new one (`gpu.wait async`, the stream itself) where the chain has
/// none.
fn token<'c, 'a>(context: &'c Context, at: OperationRef<'c, 'a>, stream: &mut Stream<'c, 'a>) -> Value<'c, 'a> {
    *stream.last.get_or_insert_with(|| {
        let fresh = gpu::WaitOperationBuilder::new(context, at.location())
            .async_token(gpu_async_token_type(context))
            .async_dependencies(&[])
            .build();
        insert_before(at, fresh.into()).result_at(0).expect("a token").into()
    })
}

/// The host waits, before `at`, for everything queued so far.
fn wait<'c, 'a>(context: &'c Context, at: OperationRef<'c, 'a>, stream: &mut Stream<'c, 'a>) {
    let last = token(context, at, stream);
    let wait = gpu::WaitOperationBuilder::new(context, at.location())
        .async_dependencies(&[last])
        .build();
    insert_before(at, wait.into());
    *stream = Stream::idle();
}

/// Makes the async op `op`, whose one dependency is a fresh `gpu.wait
/// async`, depend on `last` instead, and erases the fresh one.
fn follow<'c>(op: OperationRef<'c, '_>, last: Option<Value<'c, '_>>) {
    let Some(last) = last else { return };
    let Some(dependency) = op.operand_at(0) else { return };
    let Some(fresh) = op_result(dependency).map(|r| r.owner()) else {
        return;
    };
    if op_name(&fresh) != "gpu.wait" || fresh.operand_count() != 0 || fresh.result_count() != 1 {
        return;
    }
    set_operand(op, 0, last);
    if !has_uses(fresh.result_at(0).expect("a token")) {
        // SAFETY: its one result has no uses left, and no handle to it is kept.
        #[allow(unsafe_code)]
        unsafe {
            erase(fresh)
        };
    }
}

/// Replaces the synchronous launch `op` by the same launch, async after
/// `after`; returns its token.
fn make_async<'c, 'a>(
    context: &'c Context,
    op: OperationRef<'c, 'a>,
    after: Value<'c, 'a>,
) -> Result<Value<'c, 'a>, PassError> {
    let location = op.location();
    let segments = attribute(&op, "operandSegmentSizes")
        .and_then(|a| DenseI32ArrayAttribute::try_from(a).ok())
        .ok_or_else(|| fail(location, "a launch without its operand segments"))?;
    let mut sizes: Vec<i32> = (0..segments.len()).filter_map(|i| segments.element(i).ok()).collect();
    sizes[0] += 1;
    let mut operands = vec![after];
    operands.extend(op.operands());
    let mut builder = OperationBuilder::new("gpu.launch_func", location)
        .add_operands(&operands)
        .add_results(&[gpu_async_token_type(context)]);
    for (name, value) in op.attributes() {
        let value = if name.as_string_ref().as_str() == Ok("operandSegmentSizes") {
            Attribute::from(DenseI32ArrayAttribute::new(context, &sizes))
        } else {
            value
        };
        builder = builder.add_attributes(&[(name, value)]);
    }
    if attribute(&op, "kernel").is_none() {
        return Err(fail(location, "a launch without its kernel"));
    }
    let launch = builder.build().map_err(|e| fail(location, &e.to_string()))?;
    Ok(replace_by_async(op, launch))
}

/// Puts `async_op` in the place of `op`, which has no results, and returns
/// the token `async_op` gives.
fn replace_by_async<'c, 'a>(op: OperationRef<'c, 'a>, async_op: melior::ir::Operation<'c>) -> Value<'c, 'a> {
    let async_op = insert_before(op, async_op);
    // SAFETY: `op` has no results, and the callers keep no handle to it.
    #[allow(unsafe_code)]
    unsafe {
        erase(op)
    };
    async_op.result_at(0).expect("a token").into()
}

/// Whether `copy` (a `memref.copy`) moves a contiguous device buffer into
/// another, which the stream then copies (`gpu.memcpy`, lowered for the
/// identity layout only).
fn copies_on_device(copy: &OperationRef<'_, '_>) -> bool {
    copy.operands()
        .all(|v| static_identity_memref_shape(v.r#type()).is_some() && on_device(v))
}

/// Replaces `copy` by a `gpu.memcpy` on the stream after `after`; returns
/// its token.
fn copy_on_stream<'c, 'a>(
    context: &'c Context,
    copy: OperationRef<'c, 'a>,
    after: Value<'c, 'a>,
) -> Result<Value<'c, 'a>, PassError> {
    let location = copy.location();
    let (Some(source), Some(target)) = (copy.operand_at(0), copy.operand_at(1)) else {
        return Err(fail(location, "a copy without its buffers"));
    };
    let memcpy = gpu::MemcpyOperationBuilder::new(context, location)
        .async_token(gpu_async_token_type(context))
        .async_dependencies(&[after])
        .dst(target)
        .src(source)
        .build();
    Ok(replace_by_async(copy, memcpy.into()))
}

/// The function `op` (a `func.call`) calls.
pub(super) fn callee(op: &OperationRef<'_, '_>) -> Option<String> {
    symbol_ref_attribute(op, "callee")
}

/// Whether `op` calls a runtime function ordered on the compute stream
/// (`runtime_abi::is_stream_ordered`).
pub(super) fn is_stream_call(op: &OperationRef<'_, '_>) -> bool {
    op_name(op) == "func.call" && callee(op).is_some_and(|c| is_stream_ordered(&c))
}

/// What the regions of `op` hold for the stream.
fn held(op: &OperationRef<'_, '_>, ordered: &HashSet<String>) -> Held {
    let mut held = Held::Nothing;
    walk_preorder(op, |inner| {
        if inner.to_raw().ptr == op.to_raw().ptr {
            return WalkResult::Advance;
        }
        let here = match op_name(&inner) {
            "gpu.launch_func" | "gpu.memset" | "gpu.memcpy" => Held::Queues,
            "func.call" if queues_call(&inner, ordered) => Held::Queues,
            "gpu.dealloc" => Held::Frees,
            _ if touches_device_memory(&inner) => Held::HostAccess,
            _ => Held::Nothing,
        };
        held = held.max(here);
        if held == Held::Queues {
            WalkResult::Interrupt
        } else {
            WalkResult::Advance
        }
    });
    held
}

/// Ops that touch no element of a buffer: views and queries (besides
/// [`VIEWS`] and [`QUERIES`]), allocation and terminators.
const NO_ACCESS: [&str; 9] = [
    "gpu.alloc",
    "gpu.wait",
    "memref.alloc",
    "memref.alloca",
    "memref.dealloc",
    "memref.get_global",
    "scf.yield",
    "scf.condition",
    "func.return",
];

/// Whether `op` itself (not its regions) reads or writes the elements of a
/// buffer the device may use.
fn touches_device_memory(op: &OperationRef<'_, '_>) -> bool {
    let name = op_name(op);
    if VIEWS.contains(&name) || QUERIES.contains(&name) || NO_ACCESS.contains(&name) {
        return false;
    }
    op.operands()
        .any(|v| v.r#type().to_string().starts_with("memref<") && on_device(v))
}

/// Whether the root of `buffer`, through its views, may be device memory:
/// anything but a host allocation or a constant global (a function's
/// arguments come from its caller's device buffers).
fn on_device<'c: 'a, 'a>(mut buffer: Value<'c, 'a>) -> bool {
    loop {
        let Some(result) = op_result(buffer) else { return true };
        let owner = result.owner();
        match op_name(&owner) {
            name if VIEWS.contains(&name) => match owner.operand_at(0) {
                Some(source) => buffer = source,
                None => return true,
            },
            "memref.alloc" | "memref.alloca" | "memref.get_global" => return false,
            _ => return true,
        }
    }
}

/// The module's functions and their call sites, for [`device_only`]'s look
/// across a call.
struct Calls<'c, 'a> {
    /// Each defined function's entry block, by name.
    bodies: HashMap<String, BlockRef<'c, 'a>>,
    /// Each function's call sites, by callee.
    sites: HashMap<String, Vec<OperationRef<'c, 'a>>>,
}

impl<'c, 'a> Calls<'c, 'a> {
    fn of(module: &OperationRef<'c, 'a>) -> Self {
        let mut calls = Calls {
            bodies: HashMap::new(),
            sites: HashMap::new(),
        };
        walk_preorder(module, |op| {
            match op_name(&op) {
                "gpu.module" | "gpu.binary" => return WalkResult::Skip,
                "func.func" => {
                    if let Some(entry) = op.region_at(0).and_then(|r| r.first_block()) {
                        calls.bodies.insert(symbol_name(&op), entry);
                    }
                }
                "func.call" => {
                    if let Some(callee) = callee(&op) {
                        calls.sites.entry(callee).or_default().push(op);
                    }
                }
                _ => {}
            }
            WalkResult::Advance
        });
        calls
    }
}

/// Moves each managed allocation (`gpu.alloc host_shared`) that only the
/// device touches to device memory: an async `gpu.alloc` after a fresh
/// `gpu.wait async`, which [`chain_block`] then chains.
fn place_in_device_memory<'c>(context: &'c Context, module: &OperationRef<'c, '_>) -> Result<(), PassError> {
    let calls = Calls::of(module);
    let mut allocations = Vec::new();
    walk_preorder(module, |op| {
        if matches!(op_name(&op), "gpu.module" | "gpu.binary") {
            return WalkResult::Skip;
        }
        if op_name(&op) == "gpu.alloc" && op.result_count() == 1 && attribute(&op, "hostShared").is_some() {
            allocations.push(op);
        }
        WalkResult::Advance
    });
    for alloc in allocations {
        let buffer = alloc.result_at(0).expect("an allocation result");
        if alloc.operand_count() != 0 || !device_only(buffer.into(), &calls, true) {
            continue;
        }
        let location = alloc.location();
        let token = gpu_async_token_type(context);
        let fresh = gpu::WaitOperationBuilder::new(context, location)
            .async_token(token)
            .async_dependencies(&[])
            .build();
        let fresh: Value = insert_before(alloc, fresh.into()).result_at(0).expect("a token").into();
        let device = OperationBuilder::new("gpu.alloc", location)
            .add_operands(&[fresh])
            .add_results(&[buffer.r#type(), token])
            .add_attributes(&[(
                Identifier::new(context, "operandSegmentSizes"),
                Attribute::from(DenseI32ArrayAttribute::new(context, &[1, 0, 0])),
            )])
            .build()
            .map_err(|e| fail(location, &e.to_string()))?;
        let device = insert_before(alloc, device);
        replace_all_uses(buffer, device.result_at(0).expect("a buffer"));
        // SAFETY: its result's uses were replaced; no handle to it is kept.
        #[allow(unsafe_code)]
        unsafe {
            erase(alloc)
        };
    }
    Ok(())
}

/// Whether only the device touches `buffer`, through any view: kernels,
/// fills, copies (between contiguous device buffers) and frees on the
/// stream, and runtime calls that take
/// device memory (`runtime_abi::accepts_device_memory`). Across a call
/// (`look_across`): the callee's argument, or a returned buffer's result at
/// every call site, must be touched by the device alone too.
fn device_only<'c, 'a>(buffer: Value<'c, 'a>, calls: &Calls<'c, 'a>, look_across: bool) -> bool {
    let mut aliases = vec![buffer];
    let mut next = 0;
    while let Some(&alias) = aliases.get(next) {
        next += 1;
        for (user, position) in uses(alias) {
            let name = op_name(&user);
            let fine = match name {
                _ if VIEWS.contains(&name) && position == 0 => {
                    aliases.extend(user.results().map(Value::from));
                    true
                }
                "gpu.launch_func" | "gpu.memset" | "gpu.memcpy" | "gpu.dealloc" => true,
                _ if QUERIES.contains(&name) => true,
                // A copy the stream makes ([`chain_block`]).
                "memref.copy" => copies_on_device(&user),
                "func.call" => {
                    let callee = callee(&user).unwrap_or_default();
                    accepts_device_memory(&callee)
                        || (look_across
                            && calls
                                .bodies
                                .get(&callee)
                                .and_then(|body| block_argument(body, position))
                                .is_some_and(|argument| device_only(argument.into(), calls, false)))
                }
                "func.return" => {
                    let function = user.parent_operation().map(|f| symbol_name(&f)).unwrap_or_default();
                    let sites = calls.sites.get(&function).map(Vec::as_slice).unwrap_or_default();
                    look_across
                        && !sites.is_empty()
                        && sites.iter().all(|site| {
                            site.result_at(position)
                                .is_some_and(|result| device_only(result.into(), calls, false))
                        })
                }
                _ => false,
            };
            if !fine {
                return false;
            }
        }
    }
    true
}
