//! `stablehlo.select`, and the selects that are other ops: a causal mask,
//! the NaN fill of an out-of-range gather.

use super::*;

impl Translator<'_> {
    pub(super) fn select(&mut self, node: &Node) -> Result<Val, ImportError> {
        let graph = self.graph;
        let [predicate, on_true, on_false] = node.operands[..] else {
            unreachable!("the reader gives select three operands");
        };
        let fill = self.eval.eval(on_false).and_then(|a| a.splat());
        // jnp.take and take_along_axis read NaN for out-of-range indices
        // (mode "fill"): a select of the gather, its NaN fill, and a test of
        // the gather's own indices. For indices in range it is the gather.
        if fill.is_some_and(f64::is_nan)
            && let Some(Node {
                kind: Kind::Gather { .. },
                operands,
                ..
            }) = graph.node(on_true)
        {
            let chain = self.index_chain(operands[1]);
            if self.depends_only_on(predicate, &chain) {
                return self.val(on_true);
            }
        }
        // The lowest finite value as JAX prints it may round to just above
        // the type's.
        let low = 0.999 * lowest(&node.ty.element);
        if let Some(fill) = fill.filter(|&f| f <= low)
            && self.is_causal(predicate)
        {
            let scores = self.val(on_true)?;
            let id = self.materialise(&scores, node.site)?;
            let masked = self.full(DistOp::CausalMask.name(), vec![id], vec![], &node.ty, node.site);
            if fill.is_finite()
                && let Operand::Inst(i) = masked.id
            {
                // The select itself, for where only it is right: its
                // operands (dead, and pruned, where the mask stays).
                let general = self.elementwise(node, DistOp::Select, vec![]).map(|v| v.id);
                self.finite_masks.push(FiniteMask {
                    mask: i,
                    select: general,
                });
            }
            return Ok(masked);
        }
        self.elementwise(node, DistOp::Select, vec![])
    }

    /// Whether `predicate` is constant, true exactly where the last index
    /// (key) is at most the one before it (query).
    fn is_causal(&mut self, predicate: Ref) -> bool {
        let graph = self.graph;
        let mut at = predicate;
        // Evaluate the mask before the broadcasts that add leading dims.
        while let Some(Node {
            kind: Kind::BroadcastInDim(dims),
            operands,
            ty,
            ..
        }) = graph.node(at)
        {
            let source = graph.ty(operands[0]).shape.len();
            let rank = ty.shape.len() as i64;
            if source < 2
                || dims[source - 2..] != [rank - 2, rank - 1]
                || graph.ty(operands[0]).shape[source - 2..] != ty.shape[ty.shape.len() - 2..]
            {
                break;
            }
            at = operands[0];
        }
        let Some(mask) = self.eval.eval(at) else {
            return false;
        };
        mask.shape.len() >= 2
            && mask.data.iter().enumerate().all(|(i, &v)| {
                let index = unflatten(i as i64, &mask.shape);
                let (q, k) = (index[index.len() - 2], index[index.len() - 1]);
                (v != 0.0) == (k <= q)
            })
    }
}
