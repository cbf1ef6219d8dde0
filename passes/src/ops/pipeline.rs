//! `dist.stage_boundary`: where a pipeline stage ends.

use super::shape::moves_data;
use super::{GradRule, Grads, OpSpec, Read};
use crate::vocabulary::linalg::build::{Builder, Lowered};
use crate::vocabulary::linalg::common::operand;
use crate::vocabulary::rules::{OpDesc, Rule, RuleBuilder, RuleError, expect_arity, sum_each};
use dist_dialect::DistOp;
use melior::ir::{OperationRef, Value};

/// The identity on the value that crosses into the next stage.
pub struct StageBoundary;

pub static STAGE_BOUNDARY: StageBoundary = StageBoundary;

impl OpSpec for StageBoundary {
    /// Its operand's layout, partial status included: the value crosses as
    /// it is.
    fn rule(&self, desc: &OpDesc) -> Result<Rule, RuleError> {
        expect_arity(desc, 1, 1)?;
        let mut b = RuleBuilder::default();
        let x = b.dims(desc.operands[0].len());
        Ok(b.finish(vec![x.clone()], vec![x], sum_each(1), moves_data()))
    }

    /// The backward crosses the same boundary the other way.
    fn gradient(&self) -> Option<GradRule> {
        Some(GradRule {
            op: DistOp::StageBoundary,
            reads: &[Read::Dout],
            grads: Grads::Of(&[0]),
            attributes: &[],
        })
    }

    fn lower<'c, 'a>(&self, _b: &mut Builder<'c, 'a>, op: OperationRef<'c, 'a>) -> Lowered<'c, Vec<Value<'c, 'a>>> {
        Ok(vec![operand(op, 0)])
    }

    fn is_view(&self) -> bool {
        true
    }
}

#[cfg(test)]
mod tests {
    use crate::ops::testing::{desc, factor_rule};
    use crate::vocabulary::rules::OpAttrs;

    #[test]
    fn a_boundary_keeps_every_dim_and_passes_partial_values() {
        let rule = factor_rule(&desc(
            "dist.stage_boundary",
            &[&[8, 16]],
            &[&[8, 16]],
            OpAttrs::default(),
        ));
        assert_eq!(rule.operands[0], rule.results[0]);
        assert!(rule.operands[0].iter().all(Option::is_some));
        let err = crate::ops::rule_for(&desc("dist.stage_boundary", &[&[8], &[8]], &[&[8]], OpAttrs::default()));
        assert!(err.is_err());
    }
}
