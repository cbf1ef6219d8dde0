//! `stablehlo.dot_general` as dist products: matmuls, with the batch dims
//! merged or kept, and the transposes and reshapes around them.

use super::*;

impl Translator<'_> {
    /// `dot_general` as `dist.matmul`: operands transposed into
    /// `[batch..., m..., k]` x `[batch..., k, n]` (or `transpose_x`/`_y`
    /// where the product takes the other order as it is).
    pub(super) fn dot(&mut self, node: &Node, dims: &DimNumbers) -> Result<Val, ImportError> {
        let (lhs, rhs) = (self.val(node.operands[0])?, self.val(node.operands[1])?);
        self.float(&lhs, node, "stablehlo.dot_general")?;
        let (mut lty, mut rty) = (
            self.graph.ty(node.operands[0]).clone(),
            self.graph.ty(node.operands[1]).clone(),
        );
        let (lb, rb) = (dims.get("lhs_batching_dimensions"), dims.get("rhs_batching_dimensions"));
        let (lc, rc) = (
            dims.get("lhs_contracting_dimensions"),
            dims.get("rhs_contracting_dimensions"),
        );
        let free = |rank: usize, batch: &[i64], contracting: &[i64]| -> Vec<i64> {
            (0..rank as i64)
                .filter(|d| !batch.contains(d) && !contracting.contains(d))
                .collect()
        };
        let (lfree, rfree) = (free(lty.shape.len(), lb, lc), free(rty.shape.len(), rb, rc));
        let site = node.site;
        let mut l = self.materialise(&lhs, site)?;
        let mut r = self.materialise(&rhs, site)?;
        if lc.len() != 1 || rc.len() != 1 || rfree.len() != 1 || (!lb.is_empty() && lfree.len() != 1) {
            return Ok(self.merged_dot(node, (l, &lty), (r, &rty), [lb, &lfree, lc], [rb, rc, &rfree]));
        }
        // torch's bmm of [batch * heads, m, k] operands merged by reshapes:
        // the product over the dims before the merge, which keeps each
        // one's split (a merged dim keeps only its leading dim's).
        let (mut lb, mut rb, mut lc, mut rc) = (lb.to_vec(), rb.to_vec(), lc.to_vec(), rc.to_vec());
        let (mut lfree, mut rfree) = (lfree, rfree);
        let mut out = node.ty.clone();
        if let (Some((lsource, lbatch)), Some((rsource, rbatch))) = (self.unmerged(l, &lb), self.unmerged(r, &rb)) {
            // Merged differently (GQA's values as [b, kv_heads, groups]), the
            // operands are reshaped to the shorter run of batch dims.
            let batch = if lbatch.len() <= rbatch.len() { lbatch } else { rbatch };
            let unmerged = |t: &TensorTy| t.with_shape([batch.as_slice(), &t.shape[1..]].concat());
            (lty, rty, out) = (unmerged(&lty), unmerged(&rty), unmerged(&out));
            l = self.reshaped(lsource, self.source_ty(lsource), &lty.shape, site);
            r = self.reshaped(rsource, self.source_ty(rsource), &rty.shape, site);
            let extra = batch.len() as i64 - 1;
            for dims in [&mut lc, &mut rc, &mut lfree, &mut rfree] {
                dims.iter_mut().for_each(|d| *d += extra);
            }
            lb = (0..batch.len() as i64).collect();
            rb = lb.clone();
        }
        let mut attributes = Vec::new();
        let l = if lb.is_empty() && lty.shape.len() == 2 && lc == [0] {
            attributes.push(("transpose_x", Attr::Unit));
            l
        } else {
            let perm: Vec<i64> = lb.iter().chain(&lfree).chain(&lc).copied().collect();
            self.permute(l, &lty, &perm, site)
        };
        let contracting_first = rc[0] < rfree[0];
        let tail = if contracting_first {
            [rc[0], rfree[0]]
        } else {
            [rfree[0], rc[0]]
        };
        let perm: Vec<i64> = rb.iter().chain(&tail).copied().collect();
        let mut r = self.permute(r, &rty, &perm, site);
        let mut transpose_y = !contracting_first;
        // `x @ w.T` (a tied embedding's logits): the product transposes.
        if let Some(source) = self.transposed_matrix(r) {
            (r, transpose_y) = (source, !transpose_y);
        }
        if transpose_y {
            attributes.push(("transpose_y", Attr::Unit));
        }
        let product = self.full(DistOp::Matmul.name(), vec![l, r], attributes, &out, site);
        Ok(Val {
            shape: node.ty.shape.clone(),
            ..product
        })
    }

    /// The type of a translated value.
    pub(super) fn source_ty(&self, value: Operand) -> TensorTy {
        match value {
            Operand::Inst(j) => self.insts[j].ty.clone(),
            Operand::Extra(j, k) => self.insts[j].extra[k].clone(),
            Operand::Arg(j) => self.graph.args[j].clone(),
        }
    }

    /// The operand and leading dims of `value` if it is a reshape that
    /// merged several leading dims into the one batch dim `batch` names
    /// (`[b, h, m, k]` to `[b * h, m, k]`); None otherwise.
    fn unmerged(&self, value: Operand, batch: &[i64]) -> Option<(Operand, Vec<i64>)> {
        let Operand::Inst(i) = value else {
            return None;
        };
        let reshape = &self.insts[i];
        if batch != [0] || reshape.op != DistOp::Reshape.name() || reshape.sharding.is_some() {
            return None;
        }
        let source = &self.source_ty(reshape.operands[0]).shape;
        let merged = &reshape.ty.shape;
        let lead = source.len().checked_sub(merged.len() - 1)?;
        (lead > 1 && source[lead..] == merged[1..] && source[..lead].iter().product::<i64>() == merged[0])
            .then(|| (reshape.operands[0], source[..lead].to_vec()))
    }

    /// `dot_general` of several contracting or free dims as one
    /// `dist.matmul`: the left operand transposed to `[batch..., free...,
    /// contracting...]` and the right to `[batch..., contracting...,
    /// free...]`, each run merged by a reshape into one dim (`[batch..., m,
    /// k]` x `[batch..., k, n]`; without batch dims the left's free dims
    /// stay, the product's broadcast batch), the product reshaped to the
    /// node's `[batch..., lhs free..., rhs free...]`. A merged run keeps the
    /// sharding of its leading dim (a split heads dim of `[heads, head_dim]`).
    /// `lhs` and `rhs` are each operand's batching, free and contracting
    /// dims (in the order the dot pairs them).
    fn merged_dot(
        &mut self,
        node: &Node,
        (l, lty): (Operand, &TensorTy),
        (r, rty): (Operand, &TensorTy),
        [lb, lfree, lc]: [&[i64]; 3],
        [rb, rc, rfree]: [&[i64]; 3],
    ) -> Val {
        let site = node.site;
        let sizes = |ty: &TensorTy, dims: &[i64]| dims.iter().map(|&d| ty.shape[d as usize]).collect::<Vec<_>>();
        let (batch, k) = (sizes(lty, lb), sizes(lty, lc).iter().product::<i64>());
        let (m, n) = (
            sizes(lty, lfree).iter().product::<i64>(),
            sizes(rty, rfree).iter().product::<i64>(),
        );
        let perm: Vec<i64> = lb.iter().chain(lfree).chain(lc).copied().collect();
        let l = self.permute(l, lty, &perm, site);
        let mut rows = batch.clone();
        if lb.is_empty() && !lfree.is_empty() {
            rows.extend(sizes(lty, lfree));
        } else {
            rows.push(m);
        }
        let l = self.reshaped(
            l,
            lty.with_shape(sizes(lty, &perm)),
            &[rows.as_slice(), &[k]].concat(),
            site,
        );
        let perm: Vec<i64> = rb.iter().chain(rc).chain(rfree).copied().collect();
        let r = self.permute(r, rty, &perm, site);
        let r = self.reshaped(
            r,
            rty.with_shape(sizes(rty, &perm)),
            &[batch.as_slice(), &[k, n]].concat(),
            site,
        );
        let product_ty = node.ty.with_shape([rows.as_slice(), &[n]].concat());
        let product = self.push(DistOp::Matmul.name(), vec![l, r], vec![], product_ty.clone(), site);
        let id = self.reshaped(product, product_ty, &node.ty.shape, site);
        Val {
            id,
            own: node.ty.shape.clone(),
            shape: node.ty.shape.clone(),
            element: node.ty.element.clone(),
        }
    }

    /// `value` (of type `ty`) reshaped to `shape`, if that is another.
    pub(super) fn reshaped(&mut self, value: Operand, ty: TensorTy, shape: &[i64], site: usize) -> Operand {
        // A reshape of a reshape reads the first one's operand.
        let (value, ty) = match value {
            Operand::Inst(i) if self.insts[i].op == DistOp::Reshape.name() && self.insts[i].sharding.is_none() => {
                let source = self.insts[i].operands[0];
                (source, self.source_ty(source))
            }
            _ => (value, ty),
        };
        if ty.shape == shape {
            return value;
        }
        self.push(
            DistOp::Reshape.name(),
            vec![value],
            vec![],
            ty.with_shape(shape.to_vec()),
            site,
        )
    }

    /// The operand of `value` if it is a `dist.transpose` of a matrix.
    fn transposed_matrix(&self, value: Operand) -> Option<Operand> {
        let Operand::Inst(i) = value else {
            return None;
        };
        let inst = &self.insts[i];
        (inst.op == DistOp::Transpose.name()
            && inst.attributes == [("perm", Attr::I64s(vec![1, 0]))]
            && inst.sharding.is_none())
        .then(|| inst.operands[0])
    }
}
