//! The `dist-comm-report` pass. Its documentation (what it does, preconditions, before
//! and after) is [`INFO`]'s description: `dist-opt --help-passes` prints it
//! and docs/passes.md holds it.

use super::collectives::{CommReader, first_reader};
use super::table::table;
use crate::error::PassError;
use crate::pass::{DistPass, PassInfo};
use dist_dialect::ReductionKind;
use dist_dialect::ir::{FunctionOpRef, OperationExt, ValueNames, body_ops, symbol_name};
use melior::ir::operation::OperationLike;
use melior::ir::{OperationRef, RegionLike};
use std::fmt::Write;

#[derive(Debug, Default)]
pub struct CommReport;

pub const INFO: PassInfo = PassInfo {
    argument: "dist-comm-report",
    summary: "Print each function's collectives with their groups and bytes per device (to stderr)",
    description: r#"`dist-comm-report`: prints, per function, a table of the collectives it
runs and what each moves per device.

Anchored on the module so that functions print in order whatever the
threading. The table goes to stderr, like `--mlir-timing`. Per collective
(sync or async start, in program order): kind, how a reducing one
combines the devices' values (sum, avg, max or min), mesh axes, device groups
(their count and size, and the first four), element type, the bytes each
device sends in a bandwidth-optimal ring (the lower bound for large
messages: `2 (g-1)/g` of the per-device buffer for all_reduce, `(g-1)/g`
for reduce_scatter, all_gather and all_to_all, 0 for all_slice), the
value it reads and the op that reads its result; then totals. The
per-device buffer is the operand's type divided by the splits of its
sharding (global view), or the type itself where the operand has no
sharding (after partitioning).

Example (`dist-opt f.mlir --dist-comm-report -o /dev/null`):
```text
// dist-comm-report @step on @mesh ["dp"=2, "tp"=2], bytes per device (ring lower bound)
//   #  collective  reduce  axes  groups               type  bytes  value  for
//   1  all_reduce  sum     "tp"  2x2 {0,1} {2,3}      f32     256  %2     dist.sub
// total: 1 collective, 256 bytes per device; all_reduce 1 (256)
```
"#,
    anchor: "builtin.module",
    options: Vec::new,
    dialects: &[],
    create: || Box::new(CommReport),
};

impl DistPass for CommReport {
    fn run(&mut self, module: OperationRef<'_, '_>) -> Result<(), PassError> {
        super::print_function_reports(module, report);
        Ok(())
    }
}

/// The values a collective reads, as the value column shows them: up to
/// four, then the count (a gradient bucket reads hundreds).
fn value_list(values: &[String]) -> String {
    const SHOWN: usize = 4;
    if values.len() <= SHOWN {
        return values.join(",");
    }
    format!("{},... ({} values)", values[..SHOWN - 1].join(","), values.len())
}

fn report(function: FunctionOpRef<'_, '_>, out: &mut String) {
    let operation = function.operation();
    if operation.region_at(0).and_then(|r| r.first_block()).is_none() {
        return; // a declaration
    }
    let names = ValueNames::new(&operation);
    let mut reader = CommReader::default();
    let mut rows = Vec::new();
    let mut mesh_text = String::new();
    for op in body_ops(operation) {
        if let Some(c) = reader.collective(op, function) {
            mesh_text = c.mesh.clone();
            rows.push(c);
        }
    }
    let symbol = symbol_name(&operation);
    if rows.is_empty() {
        let _ = writeln!(out, "// dist-comm-report @{symbol}: no collectives");
        return;
    }
    let _ = writeln!(
        out,
        "// dist-comm-report @{symbol} on {mesh_text}, bytes per device (ring lower bound)"
    );
    let header = [
        "#",
        "collective",
        "reduce",
        "axes",
        "groups",
        "type",
        "bytes",
        "value",
        "for",
    ];
    let cells: Vec<Vec<String>> = rows
        .iter()
        .enumerate()
        .map(|(i, r)| {
            let values: Vec<String> = r.inputs.iter().map(|&v| names.name(v)).collect();
            let reader = r.op.result_at(0).map_or_else(
                || "unused".to_owned(),
                |res| first_reader(res.into(), r.op.block().expect("in a block")),
            );
            vec![
                (i + 1).to_string(),
                r.name.to_owned(),
                r.reduction.map_or("-", ReductionKind::as_str).to_owned(),
                r.axes.clone(),
                r.groups.clone(),
                r.element.clone(),
                r.bytes.to_string(),
                value_list(&values),
                reader,
            ]
        })
        .collect();
    out.push_str(&table(&header, &cells, &[0, 6]));
    let total: u64 = rows.iter().map(|r| r.bytes).sum();
    let mut by_kind: Vec<(&str, usize, u64)> = Vec::new();
    for r in &rows {
        match by_kind.iter_mut().find(|(k, _, _)| *k == r.name) {
            Some((_, n, b)) => {
                *n += 1;
                *b += r.bytes;
            }
            None => by_kind.push((r.name, 1, r.bytes)),
        }
    }
    let kinds: Vec<String> = by_kind.iter().map(|(k, n, b)| format!("{k} {n} ({b})")).collect();
    let plural = if rows.len() == 1 { "" } else { "s" };
    let _ = writeln!(
        out,
        "// total: {} collective{plural}, {total} bytes per device; {}",
        rows.len(),
        kinds.join(", ")
    );
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn long_value_lists_are_cut_to_a_count() {
        let names = |n: usize| -> Vec<String> { (0..n).map(|i| format!("%v{i}")).collect() };
        assert_eq!(value_list(&names(1)), "%v0");
        assert_eq!(value_list(&names(4)), "%v0,%v1,%v2,%v3");
        assert_eq!(value_list(&names(44)), "%v0,%v1,%v2,... (44 values)");
    }
}
