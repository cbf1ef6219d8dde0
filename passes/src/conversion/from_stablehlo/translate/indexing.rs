//! Gathers and scatters as the dist ops they are where a program writes
//! them: embeddings and their gradients, take_along_axis, slices at
//! constant indices.

use super::*;

/// A gather's dimension numbers, or a scatter's (a gather's transpose)
/// under the gather's names: the operand's batching dims and the indices',
/// the operand dims a position drops (a gather's collapsed dims, a
/// scatter's inserted ones), the dims the index vector names, the window
/// dims of the result (or of the updates), the index vector dim.
struct Indexing<'d> {
    batching: &'d [i64],
    index_batching: &'d [i64],
    collapsed: &'d [i64],
    to_operand: &'d [i64],
    window: &'d [i64],
    vector_dim: Option<usize>,
}

impl<'d> Indexing<'d> {
    fn of_gather(dims: &'d DimNumbers) -> Self {
        Self {
            batching: dims.get("operand_batching_dims"),
            index_batching: dims.get("start_indices_batching_dims"),
            collapsed: dims.get("collapsed_slice_dims"),
            to_operand: dims.get("start_index_map"),
            window: dims.get("offset_dims"),
            vector_dim: dims.get("index_vector_dim").first().map(|&d| d as usize),
        }
    }

    fn of_scatter(dims: &'d DimNumbers) -> Self {
        Self {
            batching: dims.get("input_batching_dims"),
            index_batching: dims.get("scatter_indices_batching_dims"),
            collapsed: dims.get("inserted_window_dims"),
            to_operand: dims.get("scatter_dims_to_operand_dims"),
            window: dims.get("update_window_dims"),
            vector_dim: dims.get("index_vector_dim").first().map(|&d| d as usize),
        }
    }

    /// The shape of the ids of whole rows of a 2-D operand (`jnp.take(t,
    /// ids, axis=0)`) with indices of shape `index`: one id per position,
    /// without the index vector dim (of size 1, or past the last dim), the
    /// row the window after them. None for other dimension numbers.
    fn row_ids(&self, rank: usize, index: &[i64]) -> Option<Vec<i64>> {
        let ids = match self.vector_dim {
            Some(d) if d == index.len() => index.to_vec(),
            Some(d) if d + 1 == index.len() && index[d] == 1 => index[..d].to_vec(),
            _ => return None,
        };
        (rank == 2
            && self.batching.is_empty()
            && self.collapsed == [0]
            && self.to_operand == [0]
            && self.window == [ids.len() as i64])
        .then_some(ids)
    }

    /// How many elements of each row along the last dim of an operand of
    /// rank `rank` they pick, with indices of shape `[rows..., k, 1]`:
    /// one for `jnp.take_along_axis(x, i[..., None], axis=-1)`, k for the
    /// scatter of `lax.top_k`'s gradient. None for other dimension numbers.
    fn picks_along(&self, rank: usize, index: &[i64]) -> Option<i64> {
        let leading: Vec<i64> = (0..rank as i64 - 1).collect();
        (rank >= 1
            && self.batching == leading
            && self.index_batching == leading
            && self.collapsed == [rank as i64 - 1]
            && self.to_operand == [rank as i64 - 1]
            && self.window.is_empty()
            && self.vector_dim == Some(rank)
            && index.len() == rank + 1
            && index[rank] == 1)
            .then(|| index[rank - 1])
    }
}

impl Translator<'_> {
    /// The ids a gather reads, as the dist value of shape `shape`: the
    /// index operand without the unit dims and the negative-index wrap
    /// (`select(i < 0, i + n, i)`) JAX adds around it.
    fn ids(&mut self, indices: Ref, shape: &[i64], site: usize) -> Result<Operand, ImportError> {
        let source = *self
            .index_chain(indices)
            .last()
            .expect("the chain starts at the indices");
        let ids = self.val(source)?;
        if !ids.element.starts_with('i') {
            return Err(error(
                site,
                format!("gather indices of type {} are not integers", ids.element),
            ));
        }
        let id = self.materialise(&ids, site)?;
        if ids.shape == shape {
            return Ok(id);
        }
        Ok(self.push(
            DistOp::Reshape.name(),
            vec![id],
            vec![],
            TensorTy::new(shape.to_vec(), &ids.element),
            site,
        ))
    }

    /// The values from a gather's `indices` back to the ids they are made
    /// of: through unit dims added (a reshape, or a broadcast that keeps
    /// the order of dims) and the negative-index wrap.
    pub(super) fn index_chain(&mut self, indices: Ref) -> Vec<Ref> {
        let graph = self.graph;
        let mut chain = vec![indices];
        while let Some(node) = graph.node(*chain.last().expect("never empty")) {
            let keeps_order = match &node.kind {
                Kind::BroadcastInDim(dims) => dims.windows(2).all(|w| w[0] < w[1]),
                Kind::Reshape => true,
                _ => false,
            };
            let next = match &node.kind {
                _ if keeps_order && graph.ty(node.operands[0]).elements() == node.ty.elements() => node.operands[0],
                Kind::Select if self.is_index_wrap(node) => node.operands[2],
                _ => break,
            };
            chain.push(next);
        }
        chain
    }

    /// Whether `value` depends on no argument other than through `allowed`
    /// (constants aside).
    pub(super) fn depends_only_on(&mut self, value: Ref, allowed: &[Ref]) -> bool {
        let graph = self.graph;
        let mut stack = vec![value];
        let mut seen = rustc_hash::FxHashSet::default();
        while let Some(at) = stack.pop() {
            if allowed.contains(&at) || !seen.insert(at) || self.eval.eval(at).is_some() {
                continue;
            }
            match graph.node(at) {
                Some(node) => stack.extend(&node.operands),
                None => return false,
            }
        }
        true
    }

    /// `select(i < 0, i + c, i)`.
    fn is_index_wrap(&mut self, select: &Node) -> bool {
        let graph = self.graph;
        let [predicate, wrapped, index] = select.operands[..] else {
            return false;
        };
        let is_zero = |eval: &mut Evaluator, r: Ref| eval.eval(r).and_then(|a| a.splat()) == Some(0.0);
        let less_than_zero = matches!(
            graph.node(predicate),
            Some(Node { kind: Kind::Compare(CompareDirection::Lt), operands, .. })
                if operands[0] == index && is_zero(&mut self.eval, operands[1])
        );
        let plus_constant = matches!(
            graph.node(wrapped),
            Some(Node { kind: Kind::Binary(Binary::Add), operands, .. })
                if operands[0] == index && self.eval.eval(operands[1]).is_some()
        );
        less_than_zero && plus_constant
    }

    pub(super) fn gather(&mut self, node: &Node, dims: &DimNumbers, slice_sizes: &[i64]) -> Result<Val, ImportError> {
        let site = node.site;
        let (table, indices) = (node.operands[0], node.operands[1]);
        let operand = self.graph.ty(table).shape.clone();
        let index = self.graph.ty(indices).shape.clone();
        let rank = operand.len();
        let indexing = Indexing::of_gather(dims);
        // jnp.take(table, ids, axis=0): whole rows of a 2-D table.
        let row_ids = indexing
            .row_ids(rank, &index)
            .filter(|_| slice_sizes == [1, operand[1]]);
        let is_rows = row_ids.is_some();
        // jnp.take_along_axis(x, i[..., None], axis=-1): one element of
        // each row along the last dim.
        let is_along = indexing.picks_along(rank, &index) == Some(1) && slice_sizes.iter().all(|&s| s == 1);
        if is_rows {
            let ids = self.ids(indices, &row_ids.unwrap_or_default(), site)?;
            let x = self.val(table)?;
            let table = self.materialise(&x, site)?;
            return Ok(self.full(DistOp::Embedding.name(), vec![ids, table], vec![], &node.ty, site));
        }
        if is_along {
            let ids = self.ids(indices, &index[..rank - 1], site)?;
            let x = self.val(table)?;
            let x = self.materialise(&x, site)?;
            let picked = self.push(
                DistOp::TakeAlong.name(),
                vec![x, ids],
                vec![],
                node.ty.with_shape(index[..rank - 1].to_vec()),
                site,
            );
            return Ok(self.full(DistOp::Reshape.name(), vec![picked], vec![], &node.ty, site));
        }
        if let Some(slice) = self.constant_slice(node, dims, slice_sizes) {
            return slice;
        }
        if let Some(ids) = self.ids_after_positions(&indexing, node, slice_sizes) {
            let x = self.val(table)?;
            let x = self.materialise(&x, site)?;
            let ids_ty = self.graph.ty(ids).clone();
            let ids = self.val(ids)?;
            let ids = self.materialise(&ids, site)?;
            let positions = &operand[..rank - 1];
            let ids = self.reshaped(ids, ids_ty, positions, site);
            let picked = self.push(
                DistOp::TakeAlong.name(),
                vec![x, ids],
                vec![],
                node.ty.with_shape(positions.to_vec()),
                site,
            );
            return Ok(self.full(DistOp::Reshape.name(), vec![picked], vec![], &node.ty, site));
        }
        Err(error(
            site,
            "'stablehlo.gather' is supported for whole rows of a 2-D table (jnp.take along axis 0), for one \
             element per row along the last dim (jnp.take_along_axis, torch.gather) and for one slice at \
             constant indices (x[:, 0]); these dimension numbers are neither",
        ))
    }

    /// The ids of a gather of one element per row along the last dim whose
    /// index vectors spell the row out (torch's `gather` of `nll_loss`,
    /// before batching dims): every dim collapsed, the index vector the
    /// concatenation of argument-free parts that count the positions of
    /// the leading dims row-major (iotas) and a last part of one id each.
    /// None for another gather.
    fn ids_after_positions(&mut self, indexing: &Indexing, node: &Node, slice_sizes: &[i64]) -> Option<Ref> {
        let operand = self.graph.ty(node.operands[0]).shape.clone();
        let index = self.graph.ty(node.operands[1]).shape.clone();
        let rank = operand.len();
        let every: Vec<i64> = (0..rank as i64).collect();
        let vector_dim = indexing.vector_dim?;
        let fits = rank >= 1
            && indexing.batching.is_empty()
            && indexing.collapsed == every
            && indexing.to_operand == every
            && indexing.window.is_empty()
            && slice_sizes.iter().all(|&s| s == 1)
            && vector_dim + 1 == index.len()
            && index[vector_dim] == rank as i64
            && index[..vector_dim].iter().product::<i64>() == operand[..rank - 1].iter().product::<i64>();
        if !fits {
            return None;
        }
        let parts = match self.graph.node(node.operands[1]) {
            Some(Node {
                kind: Kind::Concatenate(d),
                operands,
                ..
            }) if *d == vector_dim => operands.clone(),
            _ => return None,
        };
        let (&ids, leading) = parts.split_last()?;
        if self.graph.ty(ids).shape[vector_dim] != 1 {
            return None;
        }
        let mut component = 0;
        for &part in leading {
            let width = self.graph.ty(part).shape[vector_dim];
            let values = self.eval.eval(part)?;
            for (i, &v) in values.data.iter().enumerate() {
                let (position, c) = (i as i64 / width, i as i64 % width);
                if v != unflatten(position, &operand[..rank - 1])[(component + c) as usize] as f64 {
                    return None;
                }
            }
            component += width;
        }
        (component == rank as i64 - 1).then_some(ids)
    }

    /// A gather of one slice at constant start indices (`x[:, 0]`, a column
    /// a helper picks by a constant): `dist.slice` (StableHLO clamps each
    /// start into the operand), reshaped without the collapsed dims. None
    /// for another gather.
    fn constant_slice(
        &mut self,
        node: &Node,
        dims: &DimNumbers,
        slice_sizes: &[i64],
    ) -> Option<Result<Val, ImportError>> {
        let (table, indices) = (node.operands[0], node.operands[1]);
        let operand = self.graph.ty(table).shape.clone();
        let start_map = dims.get("start_index_map");
        let collapsed = dims.get("collapsed_slice_dims");
        let kept: Vec<i64> = (0..slice_sizes.len() as i64)
            .filter(|d| !collapsed.contains(d))
            .map(|d| slice_sizes[d as usize])
            .collect();
        let in_order: Vec<i64> = (0..kept.len() as i64).collect();
        // (What StableHLO's verifier would refuse is no such slice either.)
        let fits = slice_sizes.len() == operand.len()
            && slice_sizes.iter().zip(&operand).all(|(&s, &n)| (0..=n).contains(&s))
            && start_map.iter().all(|&d| (0..operand.len() as i64).contains(&d));
        if !fits
            || !dims.get("operand_batching_dims").is_empty()
            || dims.get("offset_dims") != in_order
            || node.ty.shape != kept
        {
            return None;
        }
        let start = self.eval.eval(indices)?;
        if start.data.len() != start_map.len() {
            return None;
        }
        let mut offsets = vec![0; operand.len()];
        for (&d, &v) in start_map.iter().zip(&start.data) {
            let d = d as usize;
            offsets[d] = (v as i64).clamp(0, operand[d] - slice_sizes[d]);
        }
        let site = node.site;
        Some(self.val(table).and_then(|x| {
            let x = self.materialise(&x, site)?;
            let ty = node.ty.with_shape(slice_sizes.to_vec());
            let sliced = self.push(
                DistOp::Slice.name(),
                vec![x],
                vec![
                    ("offsets", Attr::I64s(offsets)),
                    ("sizes", Attr::I64s(slice_sizes.to_vec())),
                ],
                ty.clone(),
                site,
            );
            let id = self.reshaped(sliced, ty, &node.ty.shape, site);
            Ok(Val {
                id,
                own: node.ty.shape.clone(),
                shape: node.ty.shape.clone(),
                element: node.ty.element.clone(),
            })
        }))
    }

    /// A scatter that adds (the gradient JAX's backward writes for a
    /// gather), where it is the transpose of a gather pattern: whole rows
    /// (`jnp.take`'s gradient) become `dist.embedding_grad`, one element per
    /// row along the last dim (`take_along_axis`'s) `dist.take_along_grad`,
    /// one slice at constant indices `dist.slice_grad`; added to the
    /// operand unless that is zeros.
    pub(super) fn scatter(&mut self, node: &Node, dims: &DimNumbers, replaces: bool) -> Result<Val, ImportError> {
        let site = node.site;
        let [operand, indices, updates] = node.operands[..] else {
            unreachable!("the reader gives a scatter three operands");
        };
        let base = self.eval.eval(operand).and_then(|a| a.splat());
        let shape = node.ty.shape.clone();
        let index = self.graph.ty(indices).shape.clone();
        let rank = shape.len();
        let indexing = Indexing::of_scatter(dims);
        let picks = indexing
            .picks_along(rank, &index)
            .filter(|_| index[..rank - 1] == shape[..rank - 1]);
        let is_along = picks == Some(1);
        // lax.top_k's gradient: k updates of each row added at their picks
        // (a replacing scatter would keep one of two at the same pick).
        let top_k_picks = picks
            .filter(|&k| {
                (2..=shape[rank - 1]).contains(&k)
                    && !replaces
                    && node.ty.is_float()
                    && self.graph.ty(updates).shape == index[..rank]
            })
            .map(|_| index[..rank].to_vec());
        // jnp.take(table, ids, axis=0)'s gradient: whole rows added.
        let row_ids = indexing
            .row_ids(rank, &index)
            .filter(|ids| self.graph.ty(updates).shape == [ids.as_slice(), &[shape[1]]].concat());
        // Written into zeros where no two updates meet (one per row, or one
        // window), a replacing scatter adds.
        let is_rows = row_ids.is_some() && !replaces;
        if replaces && base != Some(0.0) {
            return Err(error(
                site,
                "'stablehlo.scatter' that replaces is imported where it writes into zeros (a gather's gradient)",
            ));
        }
        let scattered = if is_rows {
            let ids = self.ids(indices, &row_ids.unwrap_or_default(), site)?;
            let table = self.val(operand)?;
            let table = self.materialise(&table, site)?;
            let rows = self.val(updates)?;
            let rows = self.materialise(&rows, site)?;
            self.push(
                DistOp::EmbeddingGrad.name(),
                vec![ids, table, rows],
                vec![],
                node.ty.clone(),
                site,
            )
        } else if let Some(picks) = top_k_picks {
            let ids = self.ids(indices, &picks, site)?;
            let values = self.val(updates)?;
            let values = self.materialise(&values, site)?;
            self.push(
                DistOp::TopKGrad.name(),
                vec![ids, values],
                vec![],
                node.ty.clone(),
                site,
            )
        } else if let Some(ids) = self.along_ids(&indexing, node, is_along)? {
            let values = self.val(updates)?;
            let values = self.materialise(&values, site)?;
            let rows = node.ty.with_shape(shape[..rank - 1].to_vec());
            let values = self.reshaped(values, self.graph.ty(updates).clone(), &rows.shape, site);
            self.push(
                DistOp::TakeAlongGrad.name(),
                vec![ids, values],
                vec![],
                node.ty.clone(),
                site,
            )
        } else if let Some((offsets, window)) = self.constant_window(node, dims) {
            let values = self.val(updates)?;
            let values = self.materialise(&values, site)?;
            let window = self.reshaped(values, self.graph.ty(updates).clone(), &window, site);
            self.push(
                DistOp::SliceGrad.name(),
                vec![window],
                vec![("offsets", Attr::I64s(offsets))],
                node.ty.clone(),
                site,
            )
        } else {
            return Err(error(
                site,
                "'stablehlo.scatter' is supported as the gradient of a gather of whole rows of a 2-D table \
                 (jnp.take), of one element per row along the last dim (take_along_axis), of lax.top_k (k \
                 elements per row added) and of one slice at constant indices; these dimension numbers are none \
                 of them",
            ));
        };
        let id = if base == Some(0.0) {
            scattered
        } else {
            let x = self.val(operand)?;
            let x = self.materialise(&x, site)?;
            self.push(DistOp::Add.name(), vec![x, scattered], vec![], node.ty.clone(), site)
        };
        Ok(Val {
            id,
            own: shape.clone(),
            shape,
            element: node.ty.element.clone(),
        })
    }

    /// The ids of a scatter of one element per row along the last dim, as
    /// `[positions]`: JAX's (`is_along`, take_along_axis's gradient) or
    /// torch's (nll_loss's backward: index vectors of iotas, then the id).
    /// None for another scatter.
    fn along_ids(&mut self, indexing: &Indexing, node: &Node, is_along: bool) -> Result<Option<Operand>, ImportError> {
        let site = node.site;
        let shape = &node.ty.shape;
        let positions = &shape[..shape.len() - 1];
        if is_along {
            return self.ids(node.operands[1], positions, site).map(Some);
        }
        let Some(ids) = self.ids_after_positions(indexing, node, &[]) else {
            return Ok(None);
        };
        let ids_ty = self.graph.ty(ids).clone();
        let ids = self.val(ids)?;
        let ids = self.materialise(&ids, site)?;
        Ok(Some(self.reshaped(ids, ids_ty, positions, site)))
    }

    /// The start and shape of a scatter's one window at constant indices
    /// (no batch dims, every update dim a window dim in order), each start
    /// clamped into the operand as StableHLO does; None for another
    /// scatter.
    fn constant_window(&mut self, node: &Node, dims: &DimNumbers) -> Option<(Vec<i64>, Vec<i64>)> {
        let shape = &node.ty.shape;
        let updates = self.graph.ty(node.operands[2]).shape.clone();
        let inserted = dims.get("inserted_window_dims");
        let to_operand = dims.get("scatter_dims_to_operand_dims");
        let window_rank = shape.len() - inserted.len().min(shape.len());
        let in_order: Vec<i64> = (0..window_rank as i64).collect();
        let fits = to_operand
            .iter()
            .chain(inserted)
            .all(|&d| (0..shape.len() as i64).contains(&d))
            && dims.get("input_batching_dims").is_empty()
            && dims.get("update_window_dims") == in_order
            && updates.len() == window_rank;
        if !fits {
            return None;
        }
        let start = self.eval.eval(node.operands[1])?;
        if start.data.len() != to_operand.len() {
            return None;
        }
        let mut offsets = vec![0; shape.len()];
        let mut kept = updates.iter();
        let window: Vec<i64> = (0..shape.len() as i64)
            .map(|d| {
                if inserted.contains(&d) {
                    1
                } else {
                    *kept.next().expect("one per kept dim")
                }
            })
            .collect();
        if window.iter().zip(shape).any(|(&w, &n)| w > n) {
            return None;
        }
        for (&d, &v) in to_operand.iter().zip(&start.data) {
            let d = d as usize;
            offsets[d] = (v as i64).clamp(0, shape[d] - window[d]);
        }
        Some((offsets, window))
    }
}
