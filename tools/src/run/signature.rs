//! The step's signature as `dist-run` reads it: each argument's name, type
//! and sharding, the input file for it, and the checks made before
//! anything compiles.

use super::RunOptions;
use crate::Error;
use dist_dialect::Sharding;
use dist_dialect::ir::{
    FunctionOpRef, OperationExt, block_argument, element_bytes, element_type, file_line_col, static_tensor_shape,
    symbol_name,
};
use dist_dialect::ops::attr;
use dist_passes::conversion::runtime_abi;
use melior::ir::operation::OperationLike;
use melior::ir::{BlockLike, Module, RegionLike, Type, ValueLike};

/// A value of the step's signature: its type and, sharded, what it is a
/// shard of.
pub struct Port {
    pub shape: Vec<i64>,
    pub element: String,
    pub sharding: Option<Sharding>,
}

/// The arguments (`arguments`) or results of `function`, each a static
/// tensor, with the `dist.local` sharding `dist-partition` wrote.
pub fn ports(function: FunctionOpRef<'_, '_>, arguments: bool) -> Result<Vec<Port>, Error> {
    let types: Vec<Type<'_>> = if arguments {
        function.argument_types()
    } else {
        function.result_types()
    };
    types
        .iter()
        .enumerate()
        .map(|(i, &ty)| {
            let shape = static_tensor_shape(ty)
                .ok_or_else(|| Error::Usage("every argument and result of the step must be a static tensor".into()))?;
            // The dist ops' verifier bounds the tensors they read; an
            // argument no op reads is bounded here, before main sizes it.
            let bytes = shape
                .iter()
                .try_fold(element_bytes(ty) as i64, |n, &d| n.checked_mul(d));
            if bytes.is_none() {
                let what = if arguments { "argument" } else { "result" };
                return Err(Error::Usage(format!(
                    "{what} #{i} of the step ({ty}) has more than 2^63 - 1 bytes"
                )));
            }
            let attribute = if arguments {
                function.argument_attribute(i, attr::LOCAL)
            } else {
                function.result_attribute(i, attr::LOCAL)
            };
            Ok(Port {
                shape,
                element: element_type(ty).to_string(),
                sharding: attribute.and_then(dist_dialect::ir::sharding_of),
            })
        })
        .collect()
}

/// The function `@name` of `module`.
pub fn find_function<'c, 'a>(module: &'a Module<'c>, name: &str) -> Option<FunctionOpRef<'c, 'a>> {
    let mut next = module.body().first_operation();
    while let Some(op) = next {
        next = op.next_in_block();
        if let Ok(f) = FunctionOpRef::try_from(op)
            && symbol_name(&op) == name
        {
            return Some(f);
        }
    }
    None
}

/// The names of `function`'s arguments as `source` (parsed as `file`)
/// spells them (`%x` is `x`). Each is read where the parser located the
/// argument; when an argument carries a location of its own (`loc(...)`
/// elsewhere), the signature's text is scanned instead.
pub fn argument_names(function: FunctionOpRef<'_, '_>, source: &str, file: &str) -> Vec<String> {
    located_names(function, source, file).unwrap_or_else(|| scanned_names(source, &symbol_name(&function.operation())))
}

/// The names at the arguments' locations, if every location is in the
/// signature (after the function's own, before the body's first op) and
/// the names are distinct.
fn located_names(function: FunctionOpRef<'_, '_>, source: &str, file: &str) -> Option<Vec<String>> {
    let operation = function.operation();
    let body = operation.region_at(0).and_then(|r| r.first_block())?;
    let position = |location| {
        file_line_col(location)
            .filter(|(located, _, _)| located == file)
            .map(|(_, line, column)| (line, column))
    };
    let start = position(operation.location())?;
    let end = body.first_operation().and_then(|op| position(op.location()))?;
    let lines: Vec<&str> = source.lines().collect();
    let mut names: Vec<String> = Vec::new();
    for i in 0..body.argument_count() {
        let (line, column) = position(block_argument(&body, i)?.location()).filter(|&p| start < p && p < end)?;
        let text = lines.get((line as usize).checked_sub(1)?)?;
        let at = text.get((column as usize).checked_sub(1)?..)?.strip_prefix('%')?;
        let name: String = at.chars().take_while(|&c| is_name_char(c)).collect();
        if name.is_empty() || names.contains(&name) {
            return None;
        }
        names.push(name);
    }
    Some(names)
}

fn is_name_char(c: char) -> bool {
    c.is_alphanumeric() || matches!(c, '_' | '.' | '$')
}

/// The argument names of `@entry` scanned from its signature's text.
fn scanned_names(source: &str, entry: &str) -> Vec<String> {
    let header = format!("func.func {}(", dist_dialect::model::symbol_ref(entry));
    let Some(start) = source.find(&header) else {
        return Vec::new();
    };
    let text = &source[start + header.len()..];
    let mut names = Vec::new();
    let (mut depth, mut at_start) = (0i32, true);
    for (i, c) in text.char_indices() {
        match c {
            '(' | '<' | '{' | '[' => depth += 1,
            ')' if depth == 0 => break,
            ')' | '>' | '}' | ']' => depth -= 1,
            ',' if depth == 0 => at_start = true,
            '%' if depth == 0 && at_start => {
                names.push(text[i + 1..].chars().take_while(|&c| is_name_char(c)).collect());
                at_start = false;
            }
            _ => {}
        }
    }
    names
}

/// The input file of each argument: `--input NAME=FILE`, else
/// `<input-dir>/NAME.npy`; an `--input` naming no argument is an error.
pub fn input_files(options: &RunOptions, names: &[String]) -> Result<Vec<String>, Error> {
    let mut files = Vec::new();
    for name in names {
        let file = options
            .inputs
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, f)| f.clone())
            .or_else(|| options.input_dir.as_ref().map(|d| format!("{d}/{name}.npy")))
            .ok_or_else(|| Error::Usage(format!("no --input for argument %{name} of @{}", options.entry)))?;
        files.push(file);
    }
    if let Some((extra, _)) = options.inputs.iter().find(|(n, _)| !names.contains(n)) {
        return Err(Error::Usage(format!("@{} has no argument %{extra}", options.entry)));
    }
    Ok(files)
}

/// Every argument has an element type dist-run feeds, and every input file
/// (none for `--no-run`) has its argument's global shape and a dtype the
/// argument accepts (`dist_npy`), checked before anything compiles or runs.
pub fn check_inputs(entry: &str, names: &[String], files: &[String], globals: &[Port]) -> Result<(), Error> {
    for (name, port) in names.iter().zip(globals) {
        if dist_npy::accepted(&port.element).is_none() {
            return Err(Error::Usage(format!(
                "%{name} of @{entry} is a tensor of {}: dist-run feeds {} arguments only",
                port.element,
                io_elements()
            )));
        }
    }
    for ((name, file), port) in names.iter().zip(files).zip(globals) {
        let header = dist_npy::read_header(file).map_err(Error::Usage)?;
        if let Some(why) = dist_npy::mismatch(&header.shape, header.element, &port.shape, &port.element) {
            return Err(Error::Usage(format!("%{name} of @{entry}: {file} has {why}")));
        }
    }
    Ok(())
}

/// `f32, f64, bf16, i32 and i64`: the element types dist-run reads and writes.
fn io_elements() -> String {
    let names = runtime_abi::IO_ELEMENTS.map(|e| e.name());
    let (last, rest) = names.split_last().expect("element types");
    format!("{} and {last}", rest.join(", "))
}

/// Every result has an element type dist-run writes.
pub fn check_results(entry: &str, results: &[Port]) -> Result<(), Error> {
    match results
        .iter()
        .position(|r| runtime_abi::Element::named(&r.element).is_none())
    {
        Some(k) => Err(Error::Usage(format!(
            "result {k} of @{entry} is a tensor of {}: dist-run writes {} results only",
            results[k].element,
            io_elements()
        ))),
        None => Ok(()),
    }
}

/// The number of devices of the program's mesh.
pub fn mesh_devices(module: &Module<'_>) -> Result<i64, Error> {
    let mut next = module.body().first_operation();
    while let Some(op) = next {
        next = op.next_in_block();
        if let Ok(mesh) = dist_dialect::ir::MeshOpRef::try_from(op) {
            return mesh
                .to_model()
                .map(|m| m.num_devices())
                .map_err(|e| Error::Usage(e.to_string()));
        }
    }
    Err(Error::Usage("the program declares no dist.mesh".into()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use dist_dialect::ir::{context_with_all_dialects, parse_module};

    #[test]
    fn argument_names_are_read_where_the_parser_put_them() {
        let context = context_with_all_dialects();
        context.load_all_available_dialects();
        let names = |source: &str| {
            let module = parse_module(&context, source, "f.mlir").expect("parses");
            let f = find_function(&module, "f").expect("@f");
            argument_names(f, source, "f.mlir")
        };
        let plain = "dist.mesh @m = <[\"a\"=2]>\nfunc.func @f(%x: tensor<2xf32> {dist.sharding = #dist.sharding<@m, [{\"a\"}]>},\n    %w_1: tensor<2x2xf32>, %z: tensor<2xf32>) -> tensor<2xf32> {\n  return %x : tensor<2xf32>\n}\n";
        assert_eq!(names(plain), ["x", "w_1", "z"]);
        // Locations of their own, in another file or elsewhere in this one
        // (line 4 column 10 is the `%x` of the return): the text decides.
        for own in ["loc(\"other.mlir\":1:1)", "loc(\"f.mlir\":4:10)"] {
            let source = plain.replace("%z: tensor<2xf32>", &format!("%z: tensor<2xf32> {own}"));
            assert_eq!(names(&source), ["x", "w_1", "z"], "{own}");
        }
        assert_eq!(scanned_names(plain, "g"), Vec::<String>::new());
    }
}
