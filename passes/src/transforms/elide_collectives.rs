//! The `dist-elide-collectives` pass. Its documentation (what it does,
//! preconditions, before and after) is [`INFO`]'s description:
//! `dist-opt --help-passes` prints it and docs/passes.md holds it.

use crate::error::{PassError, fail};
use crate::pass::{DistPass, PassInfo};
use crate::vocabulary::comm::CollectiveKind;
use dist_dialect::DistOp;
use dist_dialect::ir::{FunctionOpRef, erase, nested_ops, op_name, replace_all_uses, users};
use dist_dialect::ops::attr;
use melior::ir::operation::OperationLike;
use melior::ir::{OperationRef, Value, ValueLike};

#[derive(Debug, Default)]
pub struct ElideCollectives;

pub const INFO: PassInfo = PassInfo {
    argument: "dist-elide-collectives",
    summary: "Run a global-view program on one device: every collective is the identity (dist-run -n 1)",
    description: r#"`dist-elide-collectives`: replaces every collective of a global-view
function by its operands, so that the program runs on one device.

In the global view a collective changes a value's sharding, not its value:
operand and result have the same global type, and the program on one
device (every device group of size 1) computes each value whole. So an
`all_reduce` of a value partial over `tp` is the value itself, and so is
every `reduce_scatter`, `all_gather`, `all_to_all` and `all_slice`, sync
or async (a `dist.wait` delivers its start's operands). This is what
`dist-run -n 1`, the reference run, does before lowering.

Preconditions: a global-view function. A collective whose result type
differs from its operand's, a function that `dist-partition` made
(`dist.local` on its signature) or a `dist.axis_index` belongs to a
per-device program, which needs its collectives: each is an error at its
location.

Before:
```mlir
%y = dist.matmul %x, %w {dist.sharding = [#dist.sharding<@mesh, [{"dp"}, {}], partial = sum{"tp"}>]}
    : (tensor<8x16xf32>, tensor<16x32xf32>) -> tensor<8x32xf32>
%r = dist.all_reduce %y on @mesh axes = ["tp"] kind = sum : tensor<8x32xf32> -> tensor<8x32xf32>
return %r : tensor<8x32xf32>
```
After:
```mlir
%y = dist.matmul %x, %w {dist.sharding = [#dist.sharding<@mesh, [{"dp"}, {}], partial = sum{"tp"}>]}
    : (tensor<8x16xf32>, tensor<16x32xf32>) -> tensor<8x32xf32>
return %y : tensor<8x32xf32>
```
"#,
    anchor: "func.func",
    options: Vec::new,
    dialects: &[],
    create: || Box::new(ElideCollectives),
};

/// Why a collective from `inputs` to `results` (types, in order) is not a
/// global-view one, if it is not: each result has its operand's type.
pub fn per_device_mismatch(inputs: &[String], results: &[String]) -> Option<String> {
    if inputs.len() != results.len() {
        return Some(format!("has {} operands and {} results", inputs.len(), results.len()));
    }
    inputs
        .iter()
        .zip(results)
        .find(|(input, result)| input != result)
        .map(|(input, result)| format!("changes {input} to {result}"))
}

fn type_texts<'c, 'a>(values: impl Iterator<Item = Value<'c, 'a>>) -> Vec<String> {
    values.map(|v| v.r#type().to_string()).collect()
}

/// The waits on `op`'s handle if `op` starts an async collective.
fn async_waits<'c, 'a>(op: OperationRef<'c, 'a>) -> Result<Option<Vec<OperationRef<'c, 'a>>>, PassError> {
    if !DistOp::of(&op).is_some_and(DistOp::is_async_start) {
        return Ok(None);
    }
    let handle = op.result(0).map_err(|e| fail(op.location(), &e.to_string()))?;
    Ok(Some(users(handle)))
}

/// Replaces each result of `op` by the same operand of `source` (`op`
/// itself, or the start a wait takes), and erases `op` unless it is
/// `source` (erased by the caller once its waits are gone).
fn elide<'c>(op: OperationRef<'c, '_>, source: OperationRef<'c, '_>) {
    for (result, operand) in op.results().zip(source.operands()) {
        replace_all_uses(result, operand);
    }
    if op != source {
        #[allow(unsafe_code)]
        // SAFETY: the wait's results have no uses left, and its handle was
        // read once, by `async_waits`, before.
        unsafe {
            erase(op)
        };
    }
}

const PER_DEVICE: &str = "belongs to a per-device program, which needs its collectives: run it partitioned (dist-run -n N), \
                          or give dist-run -n 1 the global-view program";

impl DistPass for ElideCollectives {
    fn run(&mut self, op: OperationRef<'_, '_>) -> Result<(), PassError> {
        let function = FunctionOpRef::try_from(op).map_err(|e| fail(op.location(), &e.to_string()))?;
        let arguments = function.num_arguments();
        let partitioned = (0..arguments).any(|i| function.argument_attribute(i, attr::LOCAL).is_some())
            || (0..function.num_results()).any(|i| function.result_attribute(i, attr::LOCAL).is_some());
        if partitioned {
            return Err(fail(
                op.location(),
                &format!("this function was partitioned (dist.local on its signature): it {PER_DEVICE}"),
            ));
        }
        let ops = nested_ops(&op, |o| {
            DistOp::of(o).is_some_and(|d| d == DistOp::AxisIndex || CollectiveKind::of(d).is_some())
        });
        for collective in &ops {
            if DistOp::AxisIndex.is(collective) {
                return Err(fail(collective.location(), &format!("'dist.axis_index' {PER_DEVICE}")));
            }
            // What each wait on an async start delivers has the types its
            // handle carries.
            let inputs = type_texts(collective.operands());
            let deliveries: Vec<Vec<String>> = match async_waits(*collective)? {
                Some(waits) => waits.iter().map(|w| type_texts(w.results().map(Value::from))).collect(),
                None => vec![type_texts(collective.results().map(Value::from))],
            };
            if let Some(why) = deliveries
                .iter()
                .find_map(|results| per_device_mismatch(&inputs, results))
            {
                return Err(fail(
                    collective.location(),
                    &format!("'{}' {why}: it {PER_DEVICE}", op_name(collective)),
                ));
            }
        }
        for collective in ops {
            if let Some(waits) = async_waits(collective)? {
                for wait in waits {
                    elide(wait, collective);
                }
            } else {
                elide(collective, collective);
            }
            #[allow(unsafe_code)]
            // SAFETY: every use of its results was replaced; `ops` holds
            // each collective once and it is not used again.
            unsafe {
                erase(collective)
            };
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn texts(types: &[&str]) -> Vec<String> {
        types.iter().map(|t| t.to_string()).collect()
    }

    #[test]
    fn a_global_view_collective_keeps_every_type() {
        let t = texts(&["tensor<8x32xf32>", "tensor<4xf32>"]);
        assert_eq!(per_device_mismatch(&t, &t), None);
    }

    #[test]
    fn a_per_device_collective_changes_a_type_or_the_count() {
        assert_eq!(
            per_device_mismatch(&texts(&["tensor<8x4xf32>"]), &texts(&["tensor<8x16xf32>"])).as_deref(),
            Some("changes tensor<8x4xf32> to tensor<8x16xf32>")
        );
        assert!(per_device_mismatch(&texts(&["tensor<8xf32>"]), &[]).is_some());
    }
}
