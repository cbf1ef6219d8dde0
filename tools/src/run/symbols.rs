//! The program's symbols as `dist-run` compiles them: the functions it
//! defines get names of their own before the generated `main` joins them,
//! so that any legal symbol is an entry.

use crate::Error;
use dist_dialect::ir::{FunctionOpRef, OperationExt, attribute, block_ops, rename_symbol, set_attribute, symbol_name};
use dist_dialect::model::symbol_ref;
use dist_dialect::ops::attr::SYM_NAME;
use melior::ir::attribute::StringAttribute;
use melior::ir::{Module, OperationRef, RegionLike};
use std::collections::HashSet;

/// The functions with a body at the top of `module` (not declarations).
fn defined_functions<'c, 'a>(module: &'a Module<'c>) -> Vec<OperationRef<'c, 'a>> {
    block_ops(module.body())
        .into_iter()
        .filter(|op| FunctionOpRef::try_from(*op).is_ok() && op.region_at(0).and_then(|r| r.first_block()).is_some())
        .collect()
}

/// The names of the symbols at the top of `module`.
pub fn module_symbols(module: &Module<'_>) -> HashSet<String> {
    block_ops(module.body())
        .into_iter()
        .filter(|op| attribute(op, SYM_NAME).is_some())
        .map(|op| symbol_name(&op))
        .collect()
}

/// Makes every function `module` defines but `entry` private, so that
/// `symbol-dce` drops those the entry does not call: only the step's call
/// graph is compiled (another function of the file may be a forward
/// program, or not compile at all).
pub fn privatize_all_but(module: &Module<'_>, entry: &str) {
    for op in defined_functions(module) {
        if symbol_name(&op) != entry {
            let context = dist_dialect::ir::context_of(&op);
            set_attribute(op, "sym_visibility", StringAttribute::new(context, "private").into());
        }
    }
}

/// Makes the step `step` private to the program once `main` calls it:
/// private functions called directly take their buffers as bare pointers
/// (`dist-strip-call-descriptors`, once `convert-dist-to-runtime` has
/// dropped the shardings on the signature), and the step's signature was
/// most of its code at 8 layers and more.
pub fn make_internal(module: &Module<'_>, step: &str) {
    for op in defined_functions(module) {
        if symbol_name(&op) == step {
            let context = dist_dialect::ir::context_of(&op);
            set_attribute(op, "sym_visibility", StringAttribute::new(context, "private").into());
        }
    }
}

/// The functions `module` defines, for an `--entry` that names none: `its
/// functions are @a, @b` (the first ten, then a count).
pub fn functions_text(module: &Module<'_>) -> String {
    const SHOWN: usize = 10;
    let names: Vec<String> = defined_functions(module)
        .iter()
        .map(|op| symbol_ref(&symbol_name(op)))
        .collect();
    match names.len() {
        0 => "it defines no function".to_owned(),
        n if n <= SHOWN => format!("its functions are {}", names.join(", ")),
        n => format!("its functions are {} and {} more", names[..SHOWN].join(", "), n - SHOWN),
    }
}

/// The name the `index`-th function the program defines, `name`, is
/// compiled under: letters, digits and `_` only (a GPU kernel is named
/// after its function, and PTX takes no other character), the index
/// keeping apart names that differ only in the others (`a.b`, `a_b`).
pub fn compiled_name(index: usize, name: &str) -> String {
    let clean: String = name
        .chars()
        .map(|c| if c.is_ascii_alphanumeric() { c } else { '_' })
        .collect();
    format!("dist_run{index}_{clean}")
}

/// Renames every function `module` defines (see [`compiled_name`]), so
/// that no name of the user's clashes with the generated `main` and its
/// helpers, the runtime's or the C library's (a step called `@main` or
/// `@malloc`); declarations keep theirs, which name external code. Every
/// new name is new to the module, so renaming one after another never
/// merges two. Returns the entry's new name.
pub fn rename_definitions(module: &Module<'_>, entry: &str) -> Result<String, Error> {
    let taken = module_symbols(module);
    let renames: Vec<(OperationRef, String, String)> = defined_functions(module)
        .into_iter()
        .enumerate()
        .map(|(i, op)| {
            let old = symbol_name(&op);
            let mut new = compiled_name(i, &old);
            while taken.contains(&new) {
                new.push('_');
            }
            (op, old, new)
        })
        .collect();
    let scope = module.as_operation();
    let mut entry_name = None;
    for (op, old, new) in renames {
        if !rename_symbol(op, &new, scope) {
            return Err(Error::Codegen(format!(
                "internal error: the uses of {} could not all be renamed",
                symbol_ref(&old)
            )));
        }
        if old == entry {
            entry_name = Some(new);
        }
    }
    entry_name.ok_or_else(|| Error::Usage(format!("{} is not a function the program defines", symbol_ref(entry))))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn compiled_names_are_identifiers_and_distinct() {
        assert_eq!(compiled_name(0, "gpt_step"), "dist_run0_gpt_step");
        assert_eq!(compiled_name(1, "my step.v2"), "dist_run1_my_step_v2");
        assert_ne!(compiled_name(1, "a.b"), compiled_name(2, "a_b"));
        // The index is followed by `_`: 1 + "1_a" and 11 + "a" differ.
        assert_ne!(compiled_name(1, "1_a"), compiled_name(11, "a"));
    }
}
