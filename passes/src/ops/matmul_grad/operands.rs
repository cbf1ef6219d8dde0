//! A `dist.matmul_grad` op's operands as the product plan reads them.

use super::{Input, Operands};
use dist_dialect::ir::{OperationExt, static_tensor_shape};
use dist_dialect::ops::attr;
use melior::ir::operation::OperationLike;
use melior::ir::{OperationRef, Value, ValueLike};

/// The operands of a `dist.matmul_grad` op, for the split plan.
pub struct GradOperands<'c, 'a> {
    values: [Value<'c, 'a>; 3],
    shapes: [Vec<i64>; 3],
    transpose_x: bool,
    transpose_y: bool,
}

impl<'c, 'a> GradOperands<'c, 'a> {
    pub fn of(op: OperationRef<'c, 'a>) -> Self {
        let values = [0, 1, 2].map(|i| op.operand_at(i).expect("matmul_grad has three operands"));
        Self {
            values,
            shapes: values.map(|v| static_tensor_shape(v.r#type()).unwrap_or_default()),
            transpose_x: op.has_attribute(attr::TRANSPOSE_X),
            transpose_y: op.has_attribute(attr::TRANSPOSE_Y),
        }
    }

    /// What the plan reads: the shapes and transposes.
    pub fn shapes(&self) -> Operands<'_> {
        Operands {
            x: &self.shapes[0],
            y: &self.shapes[1],
            dout: &self.shapes[2],
            transpose_x: self.transpose_x,
            transpose_y: self.transpose_y,
        }
    }

    /// The value a step reads: an operand, or a result in `built`.
    pub fn read(&self, input: Input, built: &[Value<'c, 'a>]) -> Value<'c, 'a> {
        match input {
            Input::X => self.values[0],
            Input::Y => self.values[1],
            Input::Dout => self.values[2],
            Input::Step(i) => built[i],
        }
    }
}
