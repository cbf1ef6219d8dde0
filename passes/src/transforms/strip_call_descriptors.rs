//! The `dist-strip-call-descriptors` pass. Its documentation (what it does, preconditions, before
//! and after) is [`INFO`]'s description: `dist-opt --help-passes` prints it
//! and docs/passes.md holds it.

use crate::error::PassError;
use crate::pass::{DistPass, PassInfo};
use dist_dialect::ir::{
    FunctionOpRef, Located, OperationExt, block_argument, block_ops, build_op, context_of, erase, has_ancestor,
    has_uses, insert_before, op_name, replace_all_uses, set_attribute, static_identity_memref_shape, string_attribute,
    walk_preorder,
};
use dist_dialect::ops::attr;
use melior::Context;
use melior::dialect::llvm;
use melior::ir::attribute::{
    AttributeLike, DenseI64ArrayAttribute, FlatSymbolRefAttribute, IntegerAttribute, TypeAttribute,
};
use melior::ir::operation::{OperationLike, WalkResult};
use melior::ir::r#type::{FunctionType, IntegerType};
use melior::ir::{Attribute, BlockLike, Identifier, Location, OperationRef, RegionLike, Type, Value, ValueLike};
use rustc_hash::{FxHashMap, FxHashSet};

#[derive(Debug, Default)]
pub struct StripCallDescriptors;

pub const INFO: PassInfo = PassInfo {
    argument: "dist-strip-call-descriptors",
    summary: "Pass statically shaped buffers to private functions as bare pointers (small calls of layers and \
              loop nests)",
    description: r#"`dist-strip-call-descriptors`: each private function takes its
statically shaped, identity-layout memref arguments as one `!llvm.ptr`
(the aligned pointer) instead of a memref descriptor, and returns each such
memref result as two (the allocated and the aligned pointer); its calls
are rewritten to match, and both sides rebuild the descriptor from the
pointers and the constant shape.

A memref descriptor is passed as 3 + 2 x rank scalars. The training step
calls a layer function (`dist-outline-layers`) with about 25 buffers per
layer and each loop nest (`dist-outline-loops`) with a few, so at 8
layers most of the step's LLVM IR took descriptors apart and put them
back together, and LLVM's instruction selection, scheduling and SLP
vectorizer spent more time on that than on the layers (docs/perf.md).
With static shapes the sizes and strides are constants that the callee
knows itself.

Preconditions: bufferized, deallocations lowered (a callee never frees an
argument, so the allocated pointer it is handed does not matter; the
caller frees results, so both of their pointers come back), before
`finalize-memref-to-llvm`, whose casts `reconcile-unrealized-casts` folds
with the ones this pass writes. Only private functions whose every use is
a `func.call` change, and only their memrefs of static shape, identity
layout and the default memory space; functions with argument or result
attributes are left alone.

Before:
```mlir
func.func @step(%x: memref<8xf32>) -> memref<8xf32> {
  %y = call @step__layer0(%x) : (memref<8xf32>) -> memref<8xf32>
  return %y : memref<8xf32>
}
func.func private @step__layer0(%a: memref<8xf32>) -> memref<8xf32> {...}
```
After (the descriptors spelled out):
```mlir
func.func @step(%x: memref<8xf32>) -> memref<8xf32> {
  %d = builtin.unrealized_conversion_cast %x : memref<8xf32> to !llvm.struct<(ptr, ptr, i64, array<1 x i64>, array<1 x i64>)>
  %p = llvm.extractvalue %d[1] : !llvm.struct<(ptr, ptr, i64, array<1 x i64>, array<1 x i64>)>
  %r:2 = call @step__layer0(%p) : (!llvm.ptr) -> (!llvm.ptr, !llvm.ptr)
  ... %r#0, %r#1, offset 0, size 8, stride 1 into a descriptor %y ...
  return %y : memref<8xf32>
}
func.func private @step__layer0(%p: !llvm.ptr) -> (!llvm.ptr, !llvm.ptr) {...}
```
"#,
    anchor: "builtin.module",
    options: Vec::new,
    dialects: &["llvm"],
    create: || Box::new(StripCallDescriptors),
};

/// The strides of a row-major (identity layout) buffer of `shape`.
pub fn identity_strides(shape: &[i64]) -> Vec<i64> {
    let mut strides = vec![1; shape.len()];
    for d in (0..shape.len().saturating_sub(1)).rev() {
        strides[d] = strides[d + 1] * shape[d + 1];
    }
    strides
}

/// What a function's signature becomes: each value's shape where it is
/// passed as pointers, `None` where it stays as it is.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Plan {
    pub arguments: Vec<Option<Vec<i64>>>,
    pub results: Vec<Option<Vec<i64>>>,
}

impl Plan {
    /// Whether anything changes.
    pub fn strips_any(&self) -> bool {
        self.arguments.iter().chain(&self.results).any(Option::is_some)
    }

    /// How many values the call passes for the arguments, and how many it
    /// returns: a pointer per stripped argument, two per stripped result.
    pub fn arity(&self) -> (usize, usize) {
        (
            self.arguments.len(),
            self.results.iter().map(|r| if r.is_some() { 2 } else { 1 }).sum(),
        )
    }

    /// The result types once stripped, from the old ones: two pointers
    /// (`ptr`) for each stripped result.
    fn result_types<'c>(&self, old: impl IntoIterator<Item = Type<'c>>, ptr: Type<'c>) -> Vec<Type<'c>> {
        old.into_iter()
            .zip(&self.results)
            .flat_map(|(ty, shape)| if shape.is_some() { vec![ptr, ptr] } else { vec![ty] })
            .collect()
    }
}

/// The LLVM struct a memref of `rank` lowers to (`finalize-memref-to-llvm`
/// with 64-bit indices): allocated and aligned pointer, offset, sizes,
/// strides.
fn descriptor_type(context: &Context, rank: usize) -> Type<'_> {
    let ptr = llvm::r#type::pointer(context, 0);
    let i64 = IntegerType::new(context, 64).into();
    let mut fields = vec![ptr, ptr, i64];
    if rank > 0 {
        let array = llvm::r#type::array(i64, rank as u32);
        fields.extend([array, array]);
    }
    llvm::r#type::r#struct(context, &fields, false)
}

impl DistPass for StripCallDescriptors {
    fn run(&mut self, module: OperationRef<'_, '_>) -> Result<(), PassError> {
        let Some(body) = module.region_at(0).and_then(|r| r.first_block()) else {
            return Ok(());
        };
        let (calls, other_uses) = symbol_uses(module);
        for function in block_ops(body) {
            if op_name(&function) != "func.func"
                || string_attribute(&function, "sym_visibility").as_deref() != Some("private")
                || function.region_at(0).and_then(|r| r.first_block()).is_none()
                || function.attribute("arg_attrs").is_ok()
                || function.attribute("res_attrs").is_ok()
            {
                continue;
            }
            let name = string_attribute(&function, attr::SYM_NAME).unwrap_or_default();
            if other_uses.contains(&name) {
                continue;
            }
            let Ok(signature) = FunctionOpRef::try_from(function) else {
                continue;
            };
            let plan = Plan {
                arguments: signature
                    .argument_types()
                    .into_iter()
                    .map(static_identity_memref_shape)
                    .collect(),
                results: signature
                    .result_types()
                    .into_iter()
                    .map(static_identity_memref_shape)
                    .collect(),
            };
            if !plan.strips_any() {
                continue;
            }
            rewrite_callee(function, &plan)?;
            for &call in calls.get(&name).into_iter().flatten() {
                rewrite_call(call, &plan)?;
            }
        }
        Ok(())
    }
}

/// The `func.call`s of each callee, and the symbols something other than a
/// call's callee names (a function whose address is taken keeps its
/// signature).
pub(crate) fn symbol_uses<'c, 'a>(
    module: OperationRef<'c, 'a>,
) -> (FxHashMap<String, Vec<OperationRef<'c, 'a>>>, FxHashSet<String>) {
    let mut calls: FxHashMap<String, Vec<OperationRef>> = FxHashMap::default();
    let mut other_uses = FxHashSet::default();
    walk_preorder(&module, |op| {
        // A flat reference in a nested module names a symbol of that
        // module's table, never one of this module.
        if has_ancestor(&op, |a| op_name(a) == "builtin.module" && *a != module) {
            return WalkResult::Advance;
        }
        let is_call = op_name(&op) == "func.call";
        for (name, value) in op.attributes() {
            if let Ok(symbol) = FlatSymbolRefAttribute::try_from(value) {
                let symbol = symbol.value().to_owned();
                if is_call && name.as_string_ref().as_str() == Ok("callee") {
                    calls.entry(symbol).or_default().push(op);
                } else {
                    other_uses.insert(symbol);
                }
            } else if value.is_array() || value.is_dictionary() || value.is_symbol_ref() {
                other_uses.extend(symbols_in(&value.to_string()));
            }
        }
        WalkResult::Advance
    });
    (calls, other_uses)
}

/// The symbol names an attribute's text refers to (`@name`, `@"name"`,
/// the root of `@a::@b`), over-approximated: an `@` inside a string counts
/// too, which only keeps a function as it is.
fn symbols_in(text: &str) -> Vec<String> {
    let mut names = Vec::new();
    let mut rest = text;
    while let Some(at) = rest.find('@') {
        rest = &rest[at + 1..];
        let name: String = match rest.strip_prefix('"') {
            Some(quoted) => quoted.chars().take_while(|&c| c != '"').collect(),
            None => rest
                .chars()
                .take_while(|&c| c.is_ascii_alphanumeric() || "_$.-".contains(c))
                .collect(),
        };
        names.push(name);
    }
    names
}

/// Writes ops before one op, at one location.
struct Cursor<'c, 'a> {
    context: &'c Context,
    at: OperationRef<'c, 'a>,
    location: Location<'c>,
}

impl<'c, 'a> Cursor<'c, 'a> {
    fn new(at: OperationRef<'c, 'a>) -> Self {
        Self {
            context: context_of(&at),
            at,
            location: at.location(),
        }
    }

    fn insert(&self, op: melior::ir::Operation<'c>) -> Value<'c, 'a> {
        insert_before(self.at, op).result(0).expect("one result").into()
    }

    fn build(&self, name: &str, operands: &[Value<'c, '_>], result: Type<'c>) -> Result<Value<'c, 'a>, Located<'c>> {
        Ok(self.insert(build_op(name, self.location, operands, &[result], &[])?))
    }

    fn constant(&self, value: i64) -> Result<Value<'c, 'a>, Located<'c>> {
        let i64 = IntegerType::new(self.context, 64).into();
        let op = build_op(
            "llvm.mlir.constant",
            self.location,
            &[],
            &[i64],
            &[(
                Identifier::new(self.context, "value"),
                IntegerAttribute::new(i64, value).into(),
            )],
        )?;
        Ok(self.insert(op))
    }

    fn insert_value(&self, container: Value<'c, '_>, position: &[i64], value: Value<'c, '_>) -> Value<'c, 'a> {
        let position = DenseI64ArrayAttribute::new(self.context, position);
        self.insert(llvm::insert_value(
            self.context,
            container,
            position,
            value,
            self.location,
        ))
    }

    fn extract_value(&self, container: Value<'c, '_>, position: i64, ty: Type<'c>) -> Value<'c, 'a> {
        let position = DenseI64ArrayAttribute::new(self.context, &[position]);
        self.insert(llvm::extract_value(
            self.context,
            container,
            position,
            ty,
            self.location,
        ))
    }

    /// The memref of type `ty` and static `shape` whose descriptor holds
    /// `allocated` and `aligned`.
    fn memref(
        &self,
        ty: Type<'c>,
        shape: &[i64],
        allocated: Value<'c, '_>,
        aligned: Value<'c, '_>,
    ) -> Result<Value<'c, 'a>, Located<'c>> {
        let descriptor = descriptor_type(self.context, shape.len());
        let mut d = self.insert(llvm::poison(descriptor, self.location));
        d = self.insert_value(d, &[0], allocated);
        d = self.insert_value(d, &[1], aligned);
        d = self.insert_value(d, &[2], self.constant(0)?);
        for (k, (&size, stride)) in shape.iter().zip(identity_strides(shape)).enumerate() {
            d = self.insert_value(d, &[3, k as i64], self.constant(size)?);
            d = self.insert_value(d, &[4, k as i64], self.constant(stride)?);
        }
        self.build("builtin.unrealized_conversion_cast", &[d], ty)
    }

    /// Field `field` (0: allocated, 1: aligned pointer) of the descriptor of
    /// `memref`, a memref of `rank`.
    fn pointer(&self, memref: Value<'c, '_>, rank: usize, field: i64) -> Result<Value<'c, 'a>, Located<'c>> {
        let descriptor = self.build(
            "builtin.unrealized_conversion_cast",
            &[memref],
            descriptor_type(self.context, rank),
        )?;
        Ok(self.extract_value(descriptor, field, llvm::r#type::pointer(self.context, 0)))
    }
}

/// The callee side: pointer arguments, descriptors rebuilt at the entry,
/// pointers returned.
fn rewrite_callee<'c>(function: OperationRef<'c, '_>, plan: &Plan) -> Result<(), Located<'c>> {
    let context = context_of(&function);
    let region = function.region_at(0).expect("a body");
    let entry = region.first_block().expect("an entry block");
    let first = entry.first_operation().expect("a terminator at least");
    let ptr = llvm::r#type::pointer(context, 0);
    for (i, shape) in plan.arguments.iter().enumerate().rev() {
        let Some(shape) = shape else { continue };
        let old = block_argument(&entry, i).expect("an argument per input");
        let (ty, location, used) = (old.r#type(), old.location(), has_uses(old));
        let new = entry.insert_argument(i, ptr, location);
        if used {
            let rebuilt = Cursor {
                context,
                at: first,
                location,
            }
            .memref(ty, shape, new, new)?;
            replace_all_uses(block_argument(&entry, i + 1).expect("the old argument"), rebuilt);
        }
        // SAFETY: its uses were just replaced and no handle to it is kept.
        #[allow(unsafe_code)]
        unsafe {
            entry.erase_argument(i + 1)
        };
    }
    let mut returns = Vec::new();
    let mut block = Some(entry);
    while let Some(b) = block {
        returns.extend(b.terminator().filter(|t| op_name(t) == "func.return"));
        block = b.next_in_region();
    }
    for ret in returns {
        let cursor = Cursor::new(ret);
        let mut operands = Vec::new();
        for (value, shape) in ret.operands().zip(&plan.results) {
            match shape {
                Some(shape) => {
                    operands.push(cursor.pointer(value, shape.len(), 0)?);
                    operands.push(cursor.pointer(value, shape.len(), 1)?);
                }
                None => operands.push(value),
            }
        }
        insert_before(ret, build_op("func.return", ret.location(), &operands, &[], &[])?);
        // SAFETY: a terminator has no results; no handle to it is kept.
        #[allow(unsafe_code)]
        unsafe {
            erase(ret)
        };
    }
    let signature = FunctionOpRef::try_from(function).expect("a function");
    let inputs: Vec<Type> = (0..entry.argument_count())
        .map(|i| block_argument(&entry, i).expect("an argument").r#type())
        .collect();
    let results = plan.result_types(signature.result_types(), ptr);
    let ty = FunctionType::new(context, &inputs, &results);
    set_attribute(function, "function_type", TypeAttribute::new(ty.into()).into());
    Ok(())
}

/// The caller side: aligned pointers passed, descriptors of the results
/// rebuilt from the two pointers each comes back as.
fn rewrite_call<'c>(call: OperationRef<'c, '_>, plan: &Plan) -> Result<(), Located<'c>> {
    let context = context_of(&call);
    let cursor = Cursor::new(call);
    let ptr = llvm::r#type::pointer(context, 0);
    let mut operands = Vec::new();
    for (value, shape) in call.operands().zip(&plan.arguments) {
        operands.push(match shape {
            Some(shape) => cursor.pointer(value, shape.len(), 1)?,
            None => value,
        });
    }
    let results = plan.result_types(call.results().map(|r| r.r#type()), ptr);
    debug_assert_eq!((operands.len(), results.len()), plan.arity());
    let attributes: Vec<(Identifier, Attribute)> = call.attributes().collect();
    let new = insert_before(
        call,
        build_op("func.call", call.location(), &operands, &results, &attributes)?,
    );
    let mut next = 0;
    for (old, shape) in call.results().zip(&plan.results) {
        let value: Value = match shape {
            Some(shape) => {
                let result = |k: usize| new.result(k).expect("a result per pointer");
                let (allocated, aligned) = (result(next), result(next + 1));
                next += 2;
                cursor.memref(old.r#type(), shape, allocated.into(), aligned.into())?
            }
            None => {
                next += 1;
                new.result(next - 1).expect("a result per value").into()
            }
        };
        replace_all_uses(old, value);
    }
    // SAFETY: every use of its results was replaced; no handle is kept.
    #[allow(unsafe_code)]
    unsafe {
        erase(call)
    };
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn symbols_in_attribute_text() {
        assert_eq!(
            symbols_in("[@a, {k = @\"my step\"}, @b::@c]"),
            ["a", "my step", "b", "c"]
        );
        assert!(symbols_in("[1, 2]").is_empty());
    }

    #[test]
    fn strides_are_row_major() {
        assert_eq!(identity_strides(&[4, 128, 512]), vec![65536, 512, 1]);
        assert_eq!(identity_strides(&[7]), vec![1]);
        assert!(identity_strides(&[]).is_empty());
    }

    #[test]
    fn results_come_back_as_two_pointers() {
        let plan = Plan {
            arguments: vec![Some(vec![8]), None, Some(vec![])],
            results: vec![Some(vec![2, 2]), None],
        };
        assert!(plan.strips_any());
        assert_eq!(plan.arity(), (3, 3));
        let untouched = Plan {
            arguments: vec![None],
            results: vec![],
        };
        assert!(!untouched.strips_any());
    }
}
