//! The `dist-canonicalize-globals` pass. Its documentation (what it does, preconditions, before
//! and after) is [`INFO`]'s description: `dist-opt --help-passes` prints it
//! and docs/passes.md holds it.

use crate::error::PassError;
use crate::pass::{DistPass, PassInfo};
use dist_dialect::ir::{
    OperationExt, attribute, context_of, move_after, move_before, op_name, set_attribute, walk_preorder,
};
use dist_dialect::ops::attr;
use melior::ir::attribute::{FlatSymbolRefAttribute, StringAttribute};
use melior::ir::operation::WalkResult;
use melior::ir::{Attribute, BlockLike, OperationRef, RegionLike};
use rustc_hash::{FxHashMap, FxHashSet};

#[derive(Debug, Default)]
pub struct CanonicalizeGlobals;

pub const INFO: PassInfo = PassInfo {
    argument: "dist-canonicalize-globals",
    summary: "Name and order bufferization's constant globals by first use (deterministic output)",
    description: r#"`dist-canonicalize-globals`: names and orders the constant globals that
bufferization makes of tensor constants by their first use.

`one-shot-bufferize{bufferize-function-boundaries}` visits functions in
the order of a pointer-keyed map, and each constant becomes a
`memref.global` named `__constant_<type>` (with `_<n>` appended on a clash)
and inserted at the top of the module when the first function using it is
visited. So the globals' order and suffixes changed from run to run. This
pass renames them `__constant_<type>`, `__constant_<type>_1`, ... in the
order of their first `memref.get_global` in the module, and puts them at
the top in that order: the output depends on the input alone.

Preconditions: none; it only touches private constant globals named
`__constant_*` and the `memref.get_global`s that read them.

Before (one run; another may swap the two):
```mlir
memref.global "private" constant @__constant_2xindex_1 : memref<2xindex> = dense<[4, 8]>
memref.global "private" constant @__constant_2xindex : memref<2xindex> = dense<[8, 4]>
func.func @f() { %0 = memref.get_global @__constant_2xindex : memref<2xindex> ... }
func.func @g() { %0 = memref.get_global @__constant_2xindex_1 : memref<2xindex> ... }
```
After:
```mlir
memref.global "private" constant @__constant_2xindex : memref<2xindex> = dense<[8, 4]>
memref.global "private" constant @__constant_2xindex_1 : memref<2xindex> = dense<[4, 8]>
func.func @f() { %0 = memref.get_global @__constant_2xindex : memref<2xindex> ... }
func.func @g() { %0 = memref.get_global @__constant_2xindex_1 : memref<2xindex> ... }
```
"#,
    anchor: "builtin.module",
    options: Vec::new,
    dialects: &[],
    create: || Box::new(CanonicalizeGlobals),
};

const PREFIX: &str = "__constant_";

/// `__constant_2xindex_3` -> `__constant_2xindex`: the name bufferization
/// starts from (a type never ends in `_<digits>`).
fn base(name: &str) -> &str {
    match name.rsplit_once('_') {
        Some((stem, digits)) if stem.len() > PREFIX.len() && digits.bytes().all(|b| b.is_ascii_digit()) => stem,
        _ => name,
    }
}

/// The new name of each global in `globals`, numbered per base name in the
/// order of `first_uses` (global names, each once); unused globals follow in
/// their own order. Names in `taken` (the module's other symbols) are
/// skipped. Returns `(old, new)` in the new order.
pub fn renaming(globals: &[String], first_uses: &[String], taken: &FxHashSet<String>) -> Vec<(String, String)> {
    let global_set: FxHashSet<&String> = globals.iter().collect();
    let used_set: FxHashSet<&String> = first_uses.iter().collect();
    let used = first_uses.iter().filter(|n| global_set.contains(n));
    let unused = globals.iter().filter(|n| !used_set.contains(n));
    let mut counts: FxHashMap<&str, usize> = FxHashMap::default();
    used.chain(unused)
        .map(|old| {
            let stem = base(old);
            let count = counts.entry(stem).or_default();
            let new = loop {
                let candidate = match *count {
                    0 => stem.to_owned(),
                    n => format!("{stem}_{n}"),
                };
                *count += 1;
                if !taken.contains(&candidate) {
                    break candidate;
                }
            };
            (old.clone(), new)
        })
        .collect()
}

fn string_value(attribute: Option<Attribute<'_>>) -> Option<String> {
    let attribute = attribute?;
    StringAttribute::try_from(attribute)
        .map(|s| s.value().to_owned())
        .or_else(|_| FlatSymbolRefAttribute::try_from(attribute).map(|s| s.value().to_owned()))
        .ok()
}

fn is_constant_global(op: &OperationRef<'_, '_>) -> bool {
    op_name(op) == "memref.global"
        && attribute(op, "constant").is_some()
        && string_value(attribute(op, "sym_visibility")).as_deref() == Some("private")
        && string_value(attribute(op, "sym_name")).is_some_and(|n| n.starts_with(PREFIX))
}

impl DistPass for CanonicalizeGlobals {
    fn run(&mut self, module: OperationRef<'_, '_>) -> Result<(), PassError> {
        let Some(body) = module.region_at(0).and_then(|r| r.first_block()) else {
            return Ok(());
        };
        let globals: Vec<OperationRef> = dist_dialect::ir::block_ops(body)
            .into_iter()
            .filter(is_constant_global)
            .collect();
        if globals.is_empty() {
            return Ok(());
        }
        let names: Vec<String> = globals
            .iter()
            .map(|g| string_value(attribute(g, "sym_name")).expect("a constant global has a name"))
            .collect();
        let renamed_set: FxHashSet<&String> = names.iter().collect();
        // Every other symbol of the module keeps its name.
        let taken: FxHashSet<String> = dist_dialect::ir::block_ops(body)
            .iter()
            .filter_map(|op| string_value(attribute(op, "sym_name")))
            .filter(|name| !renamed_set.contains(name))
            .collect();
        let mut readers = Vec::new();
        let mut first_uses: Vec<String> = Vec::new();
        let mut seen: FxHashSet<String> = FxHashSet::default();
        walk_preorder(&module, |op| {
            let name = op_name(&op);
            // A nested module (GPU kernels) has symbols of its own.
            if op != module && matches!(name, "builtin.module" | "gpu.module") {
                return WalkResult::Skip;
            }
            if name == "memref.get_global"
                && let Some(global) = string_value(attribute(&op, "name"))
                && renamed_set.contains(&global)
            {
                if seen.insert(global.clone()) {
                    first_uses.push(global.clone());
                }
                readers.push((op, global));
            }
            WalkResult::Advance
        });
        let context = context_of(&module);
        let order = renaming(&names, &first_uses, &taken);
        let top = body.first_operation().expect("the module holds the globals");
        let mut previous: Option<OperationRef> = None;
        for (old, new) in &order {
            let global = globals[names.iter().position(|n| n == old).expect("a listed global")];
            set_attribute(global, attr::SYM_NAME, StringAttribute::new(context, new).into());
            // Each is moved next to another op, never onto itself.
            match previous {
                None if global == top => {}
                None => move_before(global, top),
                Some(previous) => move_after(global, previous),
            }
            previous = Some(global);
        }
        let renamed: FxHashMap<&str, &str> = order.iter().map(|(old, new)| (old.as_str(), new.as_str())).collect();
        for (reader, old) in readers {
            set_attribute(
                reader,
                "name",
                FlatSymbolRefAttribute::new(context, renamed[old.as_str()]).into(),
            );
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn strings(names: &[&str]) -> Vec<String> {
        names.iter().map(|n| n.to_string()).collect()
    }

    #[test]
    fn globals_are_numbered_by_first_use() {
        let globals = strings(&[
            "__constant_2xindex_1",
            "__constant_2xindex",
            "__constant_xf32_7",
            "__constant_1xi64",
        ]);
        let uses = strings(&["__constant_2xindex_1", "__constant_xf32_7", "__constant_2xindex"]);
        assert_eq!(
            renaming(&globals, &uses, &FxHashSet::default()),
            [
                ("__constant_2xindex_1", "__constant_2xindex"),
                ("__constant_xf32_7", "__constant_xf32"),
                ("__constant_2xindex", "__constant_2xindex_1"),
                ("__constant_1xi64", "__constant_1xi64"),
            ]
            .map(|(a, b)| (a.to_owned(), b.to_owned()))
        );
    }

    #[test]
    fn other_symbols_keep_their_names() {
        let globals = strings(&["__constant_1xi64_1", "__constant_1xi64_2"]);
        let taken: FxHashSet<String> = ["__constant_1xi64".to_owned()].into_iter().collect();
        assert_eq!(
            renaming(&globals, &globals, &taken),
            [
                ("__constant_1xi64_1", "__constant_1xi64_1"),
                ("__constant_1xi64_2", "__constant_1xi64_2")
            ]
            .map(|(a, b)| (a.to_owned(), b.to_owned()))
        );
    }

    #[test]
    fn base_names_keep_their_type() {
        assert_eq!(base("__constant_4x32xf32_12"), "__constant_4x32xf32");
        assert_eq!(base("__constant_4x32xf32"), "__constant_4x32xf32");
        assert_eq!(base("__constant_"), "__constant_");
    }
}
