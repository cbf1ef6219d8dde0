//! Building linalg/tensor/arith/math IR in front of the op being lowered:
//! tensors, `linalg.generic` with its maps and body, and the scalar ops of
//! a body.

use dist_dialect::ir::build::{
    AffineResult, affine_map_attribute, integer_elements_attribute, iterator_type_attribute, splat_attribute,
    tensor_type,
};
use dist_dialect::ir::{Located, OperationExt, block_argument, has_uses};
use melior::Context;
use melior::dialect::ods::{linalg, tensor};
use melior::dialect::{arith, scf};
use melior::ir::attribute::{
    ArrayAttribute, DenseI32ArrayAttribute, DenseI64ArrayAttribute, FloatAttribute, IntegerAttribute,
};
use melior::ir::operation::{OperationBuilder, OperationLike};
use melior::ir::r#type::IntegerType;
use melior::ir::{
    Attribute, Block, BlockLike, BlockRef, Identifier, Location, Operation, OperationRef, Region, RegionLike, Type,
    Value, ValueLike,
};

/// An affine expression over the loop dims: a dim, a dim shifted by a
/// constant (a slice at an offset), or the constant 0 (a broadcast size-1
/// dim).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Ix {
    D(usize),
    Shifted(usize, i64),
    Zero,
}

impl From<Ix> for AffineResult {
    fn from(ix: Ix) -> Self {
        match ix {
            Ix::D(d) => AffineResult::Dim(d),
            Ix::Shifted(d, by) => AffineResult::Shifted(d, by),
            Ix::Zero => AffineResult::Constant(0),
        }
    }
}

/// Builds in front of `anchor`, or at the end of a loop's or branch's
/// block (no anchor; [`Builder::for_loop`], [`Builder::if_else`]).
pub struct Builder<'c, 'a> {
    pub context: &'c Context,
    pub location: Location<'c>,
    block: BlockRef<'c, 'a>,
    anchor: Option<OperationRef<'c, 'a>>,
    /// Data-dependent scatters as parallel reductions (`scatter=dense`).
    dense_scatter: bool,
}

/// A lowering step: its errors are located at the op being lowered.
pub type Lowered<'c, T> = std::result::Result<T, Located<'c>>;

impl<'c, 'a> Builder<'c, 'a> {
    /// Builds in front of `anchor`; `dense_scatter`: `scatter=dense`.
    pub fn new(context: &'c Context, anchor: OperationRef<'c, 'a>, dense_scatter: bool) -> Self {
        Self {
            context,
            location: anchor.location(),
            block: anchor.block().expect("a lowered op is in a block"),
            anchor: Some(anchor),
            dense_scatter,
        }
    }

    fn named(&self, name: &str, value: Attribute<'c>) -> (Identifier<'c>, Attribute<'c>) {
        (Identifier::new(self.context, name), value)
    }

    /// Whether scatters are parallel reductions (`scatter=dense`).
    pub fn dense_scatter(&self) -> bool {
        self.dense_scatter
    }

    /// An op built by name, or the error at the lowered op's location.
    fn built(&self, op: Result<Operation<'c>, melior::Error>) -> Lowered<'c, Operation<'c>> {
        op.map_err(|e| Located::new(self.location, e.to_string()))
    }

    pub fn insert(&self, op: Operation<'c>) -> OperationRef<'c, 'a> {
        match self.anchor {
            Some(anchor) => self.block.insert_operation_before(anchor, op),
            None => self.block.append_operation(op),
        }
    }

    /// A builder at the end of block `index` of region `region` of `op`
    /// (an op this builder inserted), sharing its location and modes.
    fn inside(&self, op: OperationRef<'c, 'a>, region: usize) -> Builder<'c, 'a> {
        let block = op
            .region_at(region)
            .and_then(|r| r.first_block())
            .expect("a loop or branch built with its block");
        Builder {
            context: self.context,
            location: self.location,
            // SAFETY: the block belongs to `op`, which lives in this
            // builder's block as long as it does.
            block: unsafe { BlockRef::from_raw(block.to_raw()) },
            anchor: None,
            dense_scatter: self.dense_scatter,
        }
    }

    /// A scalar op `name` of `operands` with one result of type `result`
    /// (index arithmetic between the ops of a loop).
    pub fn scalar(&mut self, name: &str, operands: &[Value<'c, 'a>], result: Type<'c>) -> Lowered<'c, Value<'c, 'a>> {
        let op = OperationBuilder::new(name, self.location)
            .add_operands(operands)
            .add_results(&[result])
            .build();
        Ok(self.first(self.insert(self.built(op)?)))
    }

    /// The `index` constant `value`.
    pub fn index_value(&mut self, value: i64) -> Value<'c, 'a> {
        let index = Type::index(self.context);
        let constant = arith::constant(self.context, IntegerAttribute::new(index, value).into(), self.location);
        self.first(self.insert(constant))
    }

    /// `index` arithmetic `name` (`arith.addi`, `arith.muli`, ...) of `a`
    /// and `b`.
    pub fn index_arith(&mut self, name: &str, a: Value<'c, 'a>, b: Value<'c, 'a>) -> Lowered<'c, Value<'c, 'a>> {
        self.scalar(name, &[a, b], Type::index(self.context))
    }

    /// `arith.cmpi` of `index` values by its predicate's number
    /// (`arith::CmpIPredicate`: 0 eq, 2 slt, 3 sle, 4 sgt, ...).
    pub fn index_compare(&mut self, predicate: i64, a: Value<'c, 'a>, b: Value<'c, 'a>) -> Lowered<'c, Value<'c, 'a>> {
        let i1 = IntegerType::new(self.context, 1).into();
        let p = IntegerAttribute::new(IntegerType::new(self.context, 64).into(), predicate).into();
        let op = OperationBuilder::new("arith.cmpi", self.location)
            .add_operands(&[a, b])
            .add_results(&[i1])
            .add_attributes(&[self.named("predicate", p)])
            .build();
        Ok(self.first(self.insert(self.built(op)?)))
    }

    /// `tensor.extract` of `tensor` at `indices`.
    pub fn extract_element(&mut self, tensor: Value<'c, 'a>, indices: &[Value<'c, 'a>]) -> Lowered<'c, Value<'c, 'a>> {
        let mut operands = vec![tensor];
        operands.extend_from_slice(indices);
        let element = dist_dialect::ir::element_type(tensor.r#type());
        self.scalar("tensor.extract", &operands, element)
    }

    /// `scf.for %i = 0 to count iter_args(inits)`: `body` builds one
    /// iteration at the end of the loop's block from `%i` and the running
    /// values, and returns the next ones; the loop's results are the last.
    pub fn for_loop(
        &mut self,
        count: i64,
        inits: &[Value<'c, 'a>],
        body: impl FnOnce(&mut Builder<'c, 'a>, Value<'c, 'a>, &[Value<'c, 'a>]) -> Lowered<'c, Vec<Value<'c, 'a>>>,
    ) -> Lowered<'c, Vec<Value<'c, 'a>>> {
        let index = Type::index(self.context);
        let (lower, upper, step) = (self.index_value(0), self.index_value(count), self.index_value(1));
        let types: Vec<Type<'c>> = inits.iter().map(|v| v.r#type()).collect();
        let arguments: Vec<(Type<'c>, Location<'c>)> = std::iter::once(index)
            .chain(types.iter().copied())
            .map(|t| (t, self.location))
            .collect();
        let region = Region::new();
        region.append_block(Block::new(&arguments));
        let mut operands = vec![lower, upper, step];
        operands.extend_from_slice(inits);
        let op = OperationBuilder::new("scf.for", self.location)
            .add_operands(&operands)
            .add_results(&types)
            .add_regions([region])
            .build();
        let op = self.insert(self.built(op)?);
        let mut inner = self.inside(op, 0);
        let values: Vec<Value<'c, 'a>> = (0..arguments.len())
            // SAFETY: the arguments live with the loop's block, as the
            // builder's block does.
            .map(|k| unsafe { Value::from_raw(block_argument(&inner.block, k).expect("below the count").to_raw()) })
            .collect();
        let next = body(&mut inner, values[0], &values[1..])?;
        inner.insert(scf::r#yield(&next, self.location));
        Ok(op.results().map(Value::from).collect())
    }

    /// `scf.if condition` with results of `types`: `then` and `otherwise`
    /// build their branch at the end of its block and return its values.
    pub fn if_else(
        &mut self,
        condition: Value<'c, 'a>,
        types: &[Type<'c>],
        then: impl FnOnce(&mut Builder<'c, 'a>) -> Lowered<'c, Vec<Value<'c, 'a>>>,
        otherwise: impl FnOnce(&mut Builder<'c, 'a>) -> Lowered<'c, Vec<Value<'c, 'a>>>,
    ) -> Lowered<'c, Vec<Value<'c, 'a>>> {
        let regions = [Region::new(), Region::new()];
        for region in &regions {
            region.append_block(Block::new(&[]));
        }
        let op = OperationBuilder::new("scf.if", self.location)
            .add_operands(&[condition])
            .add_results(types)
            .add_regions(regions)
            .build();
        let op = self.insert(self.built(op)?);
        let mut branch = self.inside(op, 0);
        let values = then(&mut branch)?;
        branch.insert(scf::r#yield(&values, self.location));
        let mut branch = self.inside(op, 1);
        let values = otherwise(&mut branch)?;
        branch.insert(scf::r#yield(&values, self.location));
        Ok(op.results().map(Value::from).collect())
    }

    fn first(&self, op: OperationRef<'c, 'a>) -> Value<'c, 'a> {
        op.result_at(0).expect("the op has a result").into()
    }

    pub fn tensor(&self, shape: &[i64], element: Type<'c>) -> Type<'c> {
        tensor_type(shape, element)
    }

    /// An uninitialized tensor, for outputs every element of which is written.
    pub fn empty(&self, shape: &[i64], element: Type<'c>) -> Lowered<'c, Value<'c, 'a>> {
        let op = tensor::empty(self.context, self.tensor(shape, element), &[], self.location);
        Ok(self.first(self.insert(op.into())))
    }

    /// A tensor filled with `value`, for outputs that accumulate.
    pub fn splat(&mut self, shape: &[i64], element: Type<'c>, value: f64) -> Lowered<'c, Value<'c, 'a>> {
        let dense = splat_attribute(self.context, self.tensor(shape, element), value);
        Ok(self.first(self.insert(arith::constant(self.context, dense, self.location))))
    }

    /// `tensor.extract_slice` of `source` at static `offsets` with `sizes`
    /// (unit strides).
    pub fn extract_slice(
        &mut self,
        source: Value<'c, 'a>,
        offsets: &[i64],
        sizes: &[i64],
    ) -> Lowered<'c, Value<'c, 'a>> {
        let element = dist_dialect::ir::element_type(source.r#type());
        let attributes = self.slice_attributes(offsets, sizes, [1, 0, 0, 0].as_slice());
        let op = OperationBuilder::new("tensor.extract_slice", self.location)
            .add_operands(&[source])
            .add_results(&[self.tensor(sizes, element)])
            .add_attributes(&attributes)
            .build();
        Ok(self.first(self.insert(self.built(op)?)))
    }

    /// `tensor.insert_slice` of `source` into `dest` at static `offsets`
    /// (unit strides).
    pub fn insert_slice(
        &mut self,
        source: Value<'c, 'a>,
        dest: Value<'c, 'a>,
        offsets: &[i64],
    ) -> Lowered<'c, Value<'c, 'a>> {
        let sizes = dist_dialect::ir::static_tensor_shape(source.r#type()).unwrap_or_default();
        let attributes = self.slice_attributes(offsets, &sizes, [1, 1, 0, 0, 0].as_slice());
        let op = OperationBuilder::new("tensor.insert_slice", self.location)
            .add_operands(&[source, dest])
            .add_results(&[dest.r#type()])
            .add_attributes(&attributes)
            .build();
        Ok(self.first(self.insert(self.built(op)?)))
    }

    /// `tensor.extract_slice` of `size` entries of `source` along `dim` from
    /// the dynamic `offset`, the other dims whole.
    pub fn extract_block(
        &mut self,
        source: Value<'c, 'a>,
        dim: usize,
        offset: Value<'c, 'a>,
        size: i64,
    ) -> Lowered<'c, Value<'c, 'a>> {
        let mut sizes = dist_dialect::ir::static_tensor_shape(source.r#type()).unwrap_or_default();
        sizes[dim] = size;
        let element = dist_dialect::ir::element_type(source.r#type());
        let attributes = self.block_attributes(dim, &sizes, [1, 1, 0, 0].as_slice());
        let op = OperationBuilder::new("tensor.extract_slice", self.location)
            .add_operands(&[source, offset])
            .add_results(&[self.tensor(&sizes, element)])
            .add_attributes(&attributes)
            .build();
        Ok(self.first(self.insert(self.built(op)?)))
    }

    /// `tensor.insert_slice` of `source` into `dest` along `dim` from the
    /// dynamic `offset`, the other dims whole.
    pub fn insert_block(
        &mut self,
        source: Value<'c, 'a>,
        dest: Value<'c, 'a>,
        dim: usize,
        offset: Value<'c, 'a>,
    ) -> Lowered<'c, Value<'c, 'a>> {
        let sizes = dist_dialect::ir::static_tensor_shape(source.r#type()).unwrap_or_default();
        let attributes = self.block_attributes(dim, &sizes, [1, 1, 1, 0, 0].as_slice());
        let op = OperationBuilder::new("tensor.insert_slice", self.location)
            .add_operands(&[source, dest, offset])
            .add_results(&[dest.r#type()])
            .add_attributes(&attributes)
            .build();
        Ok(self.first(self.insert(self.built(op)?)))
    }

    /// The slice attributes of a block of `sizes` at a dynamic offset along
    /// `dim` (0 along the others).
    fn block_attributes(&self, dim: usize, sizes: &[i64], segments: &[i32]) -> Vec<(Identifier<'c>, Attribute<'c>)> {
        let mut offsets = vec![0; sizes.len()];
        // ShapedType::kDynamic: the offset is the operand.
        offsets[dim] = i64::MIN;
        self.slice_attributes(&offsets, sizes, segments)
    }

    fn slice_attributes(
        &self,
        offsets: &[i64],
        sizes: &[i64],
        segments: &[i32],
    ) -> Vec<(Identifier<'c>, Attribute<'c>)> {
        slice_attributes(self.context, offsets, sizes, segments)
    }

    /// `tensor.reshape` of `value` to `shape` (row-major; same element count).
    pub fn reshape(&mut self, value: Value<'c, 'a>, shape: &[i64]) -> Lowered<'c, Value<'c, 'a>> {
        let element = dist_dialect::ir::element_type(value.r#type());
        let shape_type = self.tensor(&[shape.len() as i64], Type::index(self.context));
        let literal = integer_elements_attribute(shape_type, shape);
        let shape_value = self.insert(arith::constant(self.context, literal, self.location));
        let op = tensor::reshape(
            self.context,
            self.tensor(shape, element),
            value,
            self.first(shape_value),
            self.location,
        );
        Ok(self.first(self.insert(op.into())))
    }

    /// A `linalg.generic` over `dims` loops (those in `reductions` reduce)
    /// reading `inputs` and writing `init` through `maps` (one per input,
    /// then the output's); `body` computes the element to yield from the
    /// block arguments (inputs', then the output's running value).
    ///
    /// A reduction into a 16-bit output (max and min: sums go through
    /// [`Builder::sum`], products through their own f32 buffer) runs on an
    /// f32 running value, rounded once at the end: a bf16 one would round
    /// at every step (exact for max and min, but a loop-carried chain of
    /// integer rounding ops that LLVM cannot vectorize, 7% of the bf16 GPT
    /// step in softmax's max). The body must build its float ops through
    /// [`Body::binary`] and [`Body::unary`], which extend 16-bit operands to
    /// meet the f32 running value.
    pub fn generic(
        &mut self,
        dims: usize,
        reductions: &[usize],
        inputs: &[(Value<'c, 'a>, Vec<Ix>)],
        init: (Value<'c, 'a>, Vec<Ix>),
        body: impl FnOnce(&mut Body<'c, '_>, &[Value<'c, 'c>]) -> Lowered<'c, Value<'c, 'c>>,
    ) -> Lowered<'c, Value<'c, 'a>> {
        use melior::ir::TypeLike;
        let element = dist_dialect::ir::element_type(init.0.r#type());
        if reductions.is_empty() || !(element.is_bf16() || element.is_f16()) {
            return self.structured("linalg.generic", dims, reductions, inputs, init, body);
        }
        let shape = dist_dialect::ir::static_tensor_shape(init.0.r#type())
            .ok_or_else(|| Located::new(self.location, "a reduction's output must have a static shape"))?;
        let (wide, rank) = (accumulator(element), shape.len());
        let identity: Vec<Ix> = (0..rank).map(Ix::D).collect();
        let map = |b: &mut Self, value: Value<'c, 'a>, to: Type<'c>, name: &'static str| {
            let out = b.empty(&shape, to)?;
            b.structured(
                "linalg.generic",
                rank,
                &[],
                &[(value, identity.clone())],
                (out, identity.clone()),
                |s, a| s.convert(name, a[0]),
            )
        };
        let start = map(self, init.0, wide, "arith.extf")?;
        let total = self.structured("linalg.generic", dims, reductions, inputs, (start, init.1), body)?;
        map(self, total, element, "arith.truncf")
    }

    /// `out = scale * sum of term(inputs)` over the `reductions` loops, with
    /// `out` of `shape` read through `map`. The sum runs in f64 and is
    /// rounded to `element` once at the end: a running float32 sum of n terms
    /// is off by up to n ulps (1e-5 relative for a mean of 2^18 values), an
    /// f64 one stays within one float32 ulp for any realistic n. A 16-bit
    /// sum runs in f32, on each term's unrounded f32 value (the term is
    /// a step of the op, not its result). With no reduction loop each
    /// element is one term: a map, with no accumulator to read (see
    /// [`Builder::generic`]).
    #[allow(clippy::too_many_arguments)]
    pub fn sum(
        &mut self,
        loops: usize,
        reductions: &[usize],
        inputs: &[(Value<'c, 'a>, Vec<Ix>)],
        (shape, map): (&[i64], Vec<Ix>),
        element: Type<'c>,
        scale: f64,
        term: impl FnOnce(&mut Body<'c, '_>, &[Value<'c, 'c>]) -> Lowered<'c, Value<'c, 'c>>,
    ) -> Lowered<'c, Value<'c, 'a>> {
        let wide = accumulator(element);
        let n = inputs.len();
        if reductions.is_empty() {
            let init = self.empty(shape, element)?;
            return self.generic(loops, &[], inputs, (init, map), |s, a| {
                let t = term(s, &a[..n])?;
                if scale == 1.0 {
                    return Ok(t);
                }
                if element == wide {
                    return s.times(t, scale);
                }
                s.element = wide;
                let t = s.convert("arith.extf", t)?;
                let scaled = s.times(t, scale)?;
                s.element = element;
                s.convert("arith.truncf", scaled)
            });
        }
        let init = self.splat(shape, wide, 0.0)?;
        let total = self.generic(loops, reductions, inputs, (init, map), |s, a| {
            s.element = element;
            let t = term(s, &a[..n])?;
            s.element = wide;
            let t = if element == wide {
                t
            } else {
                s.convert("arith.extf", t)?
            };
            s.add(a[n], t)
        })?;
        let rank = shape.len();
        let identity: Vec<Ix> = (0..rank).map(Ix::D).collect();
        let init = self.empty(shape, element)?;
        self.generic(rank, &[], &[(total, identity.clone())], (init, identity), |s, a| {
            s.element = wide;
            let scaled = if scale == 1.0 { a[0] } else { s.times(a[0], scale)? };
            s.element = element;
            if element == wide {
                Ok(scaled)
            } else {
                s.convert("arith.truncf", scaled)
            }
        })
    }

    /// A named structured op (`linalg.matmul`, `linalg.batch_matmul`) with
    /// explicit indexing maps (transposes, broadcasts) and the
    /// multiply-accumulate body its region builder would make.
    pub fn contraction(
        &mut self,
        name: &str,
        dims: usize,
        inputs: &[(Value<'c, 'a>, Vec<Ix>)],
        init: (Value<'c, 'a>, Vec<Ix>),
    ) -> Lowered<'c, Value<'c, 'a>> {
        self.structured(name, dims, &[dims - 1], inputs, init, |s, a| {
            let p = s.mul(a[0], a[1])?;
            s.add(a[2], p)
        })
    }

    fn structured(
        &mut self,
        name: &str,
        dims: usize,
        reductions: &[usize],
        inputs: &[(Value<'c, 'a>, Vec<Ix>)],
        init: (Value<'c, 'a>, Vec<Ix>),
        body: impl FnOnce(&mut Body<'c, '_>, &[Value<'c, 'c>]) -> Lowered<'c, Value<'c, 'c>>,
    ) -> Lowered<'c, Value<'c, 'a>> {
        let maps: Vec<Attribute<'c>> = inputs
            .iter()
            .chain([&init])
            .map(|(_, exprs)| {
                let results: Vec<AffineResult> = exprs.iter().map(|&e| e.into()).collect();
                affine_map_attribute(self.context, dims, &results)
            })
            .collect();
        let iterators: Vec<Attribute<'c>> = (0..dims)
            .map(|d| iterator_type_attribute(self.context, reductions.contains(&d)))
            .collect();
        let iterators = ArrayAttribute::new(self.context, &iterators).into();
        let arguments: Vec<(Type<'c>, Location<'c>)> = inputs
            .iter()
            .chain([&init])
            .map(|(v, _)| (dist_dialect::ir::element_type(v.r#type()), self.location))
            .collect();
        let block = Block::new(&arguments);
        // SAFETY: the arguments live with the block, which the generic owns
        // once inserted; they are only used while building its body.
        let args: Vec<Value<'c, 'c>> = (0..arguments.len())
            .map(|i| unsafe { Value::from_raw(block_argument(&block, i).expect("below the count").to_raw()) })
            .collect();
        let element = arguments.last().expect("an output").0;
        let mut scalar = Body {
            context: self.context,
            location: self.location,
            block: &block,
            element,
            unrounded: Vec::new(),
        };
        let yielded = body(&mut scalar, &args)?;
        // An all-parallel op that reads its output is an accumulator with
        // nothing to accumulate over, and `linalg-fuse-elementwise-ops`
        // keeps such an output when it fuses the op into a broadcasting
        // consumer: the fused loop then adds into it once per broadcast
        // element (a gradient (j+1) times too large in column j). Every
        // lowering writes a map instead.
        if reductions.is_empty() && has_uses(*args.last().expect("an output")) {
            return Err(Located::new(
                self.location,
                format!("internal error: an all-parallel {name} reads its output"),
            ));
        }
        block.append_operation(linalg::r#yield(self.context, &[yielded], self.location).into());
        let region = Region::new();
        region.append_block(block);
        let mut operands: Vec<Value<'c, 'a>> = inputs.iter().map(|(v, _)| *v).collect();
        operands.push(init.0);
        let segments = DenseI32ArrayAttribute::new(self.context, &[inputs.len() as i32, 1]).into();
        let mut attributes = vec![
            self.named("indexing_maps", ArrayAttribute::new(self.context, &maps).into()),
            self.named("operandSegmentSizes", segments),
        ];
        // Named ops know their iterators.
        if name == "linalg.generic" {
            attributes.push(self.named("iterator_types", iterators));
        }
        let op = OperationBuilder::new(name, self.location)
            .add_operands(&operands)
            .add_results(&[init.0.r#type()])
            .add_attributes(&attributes)
            .add_regions([region])
            .build();
        Ok(self.first(self.insert(self.built(op)?)))
    }
}

impl<'c, 'a> Builder<'c, 'a> {
    /// `scf.for %i = 0 to n iter_args(%acc = init)`: `body` computes the
    /// next `acc` from `i` and `acc` in scalar ops (its element type is
    /// `init`'s), and the loop's result is the last. For what linalg cannot
    /// express: a scatter into rows chosen by data.
    pub fn fold_indices(
        &mut self,
        n: i64,
        init: Value<'c, 'a>,
        body: impl FnOnce(&mut Body<'c, '_>, Value<'c, 'c>, Value<'c, 'c>) -> Lowered<'c, Value<'c, 'c>>,
    ) -> Lowered<'c, Value<'c, 'a>> {
        let index = Type::index(self.context);
        let bound = |b: &Self, value: i64| {
            let constant = arith::constant(b.context, IntegerAttribute::new(index, value).into(), b.location);
            b.first(b.insert(constant))
        };
        let (lower, upper, step) = (bound(self, 0), bound(self, n), bound(self, 1));
        let ty = init.r#type();
        let block = Block::new(&[(index, self.location), (ty, self.location)]);
        // SAFETY: as in `structured`: the arguments live with the block,
        // which the loop owns once inserted.
        let [i, acc] =
            [0, 1].map(|k| unsafe { Value::from_raw(block_argument(&block, k).expect("below the count").to_raw()) });
        let mut scalar = Body {
            context: self.context,
            location: self.location,
            block: &block,
            element: dist_dialect::ir::element_type(ty),
            unrounded: Vec::new(),
        };
        let next = body(&mut scalar, i, acc)?;
        block.append_operation(scf::r#yield(&[next], self.location));
        let region = Region::new();
        region.append_block(block);
        let op = OperationBuilder::new("scf.for", self.location)
            .add_operands(&[lower, upper, step, init])
            .add_results(&[ty])
            .add_regions([region])
            .build();
        Ok(self.first(self.insert(self.built(op)?)))
    }
}

/// The scalar ops of a `linalg.generic` body (or of a loop's).
pub struct Body<'c, 'b> {
    context: &'c Context,
    location: Location<'c>,
    block: &'b Block<'c>,
    /// The float type of the output.
    pub element: Type<'c>,
    /// The f32 value each 16-bit result of [`Body::arithmetic`] was rounded
    /// from: a later op of the body reads that instead, so that an op's
    /// scalar steps (gelu's dozen) round once, at the end, as a fused
    /// kernel of XLA or PyTorch does.
    unrounded: Vec<(Value<'c, 'c>, Value<'c, 'c>)>,
}

impl<'c> Body<'c, '_> {
    /// Op `name` of `operands` with one result of type `result`.
    pub fn op(&mut self, name: &str, operands: &[Value<'c, '_>], result: Type<'c>) -> Lowered<'c, Value<'c, 'c>> {
        self.op_with(name, operands, result, &[])
    }

    fn op_with(
        &mut self,
        name: &str,
        operands: &[Value<'c, '_>],
        result: Type<'c>,
        attributes: &[(Identifier<'c>, Attribute<'c>)],
    ) -> Lowered<'c, Value<'c, 'c>> {
        let op = OperationBuilder::new(name, self.location)
            .add_operands(operands)
            .add_results(&[result])
            .add_attributes(attributes)
            .build()
            .map_err(|e| Located::new(self.location, e.to_string()))?;
        let op = self.block.append_operation(op);
        // SAFETY: the block is owned by the region being built, which lives
        // in the context once the generic is inserted; the value outlives
        // this builder only as an operand of later ops in the same body.
        Ok(unsafe { Value::from_raw(op.result_at(0).expect("one result").to_raw()) })
    }

    /// A constant of the body's element type.
    pub fn float(&mut self, value: f64) -> Lowered<'c, Value<'c, 'c>> {
        self.float_of(self.element, value)
    }

    /// A constant of float type `ty`.
    pub fn float_of(&mut self, ty: Type<'c>, value: f64) -> Lowered<'c, Value<'c, 'c>> {
        let attribute = FloatAttribute::new(self.context, ty, value).into();
        self.op_with(
            "arith.constant",
            &[],
            ty,
            &[(Identifier::new(self.context, "value"), attribute)],
        )
    }

    pub fn binary(&mut self, name: &str, a: Value<'c, '_>, b: Value<'c, '_>) -> Lowered<'c, Value<'c, 'c>> {
        self.arithmetic(name, &[a, b])
    }

    /// Float op `name` of `operands` in the body's element type (16-bit
    /// operands of an f32 body extended: a 16-bit reduction's f32 running
    /// value meets its inputs). A 16-bit one computes in f32 (on the unrounded f32 values of the body's
    /// earlier ops) and rounds its result, with the rounding to bf16
    /// written in integer ops (LLVM's needs `__truncsfbf2` on a CPU without
    /// `avx512_bf16`) and math functions in f32, where
    /// `dist-approximate-math` replaces them (libm has no 16-bit functions:
    /// each would be a scalar call of the f32 one, 35% of the bf16 GPT
    /// step). The roundings no later op reads are dead code LLVM drops.
    fn arithmetic(&mut self, name: &str, operands: &[Value<'c, '_>]) -> Lowered<'c, Value<'c, 'c>> {
        use melior::ir::TypeLike;
        let element = self.element;
        let sixteen = |t: Type<'c>| t.is_bf16() || t.is_f16();
        let narrow = element.is_bf16() || (element.is_f16() && name.starts_with("math."));
        let wide = if narrow { accumulator(element) } else { element };
        if !narrow && !operands.iter().any(|o| wide.is_f32() && sixteen(o.r#type())) {
            return self.op(name, operands, element);
        }
        // In f32: 16-bit operands extended (or their unrounded values).
        self.element = wide;
        let mut extended = Vec::with_capacity(operands.len());
        for &operand in operands {
            extended.push(if sixteen(operand.r#type()) {
                self.convert("arith.extf", operand)?
            } else {
                // SAFETY: a value of this body, as the others.
                unsafe { Value::from_raw(operand.to_raw()) }
            });
        }
        let result = self.op(name, &extended, wide);
        self.element = element;
        let result = result?;
        if !narrow {
            return Ok(result);
        }
        let rounded = self.convert("arith.truncf", result)?;
        self.unrounded.push((rounded, result));
        Ok(rounded)
    }

    pub fn add(&mut self, a: Value<'c, '_>, b: Value<'c, '_>) -> Lowered<'c, Value<'c, 'c>> {
        self.binary("arith.addf", a, b)
    }

    pub fn sub(&mut self, a: Value<'c, '_>, b: Value<'c, '_>) -> Lowered<'c, Value<'c, 'c>> {
        self.binary("arith.subf", a, b)
    }

    pub fn mul(&mut self, a: Value<'c, '_>, b: Value<'c, '_>) -> Lowered<'c, Value<'c, 'c>> {
        self.binary("arith.mulf", a, b)
    }

    pub fn div(&mut self, a: Value<'c, '_>, b: Value<'c, '_>) -> Lowered<'c, Value<'c, 'c>> {
        self.binary("arith.divf", a, b)
    }

    /// `a` converted to the body's element type by `name` (`arith.extf`,
    /// `arith.truncf`). Rounding f32 to bf16 is written in integer ops: LLVM
    /// would otherwise call `__truncsfbf2` on a CPU without `avx512_bf16`,
    /// which Debian 12's libgcc does not have. Widening stays `arith.extf`,
    /// which LLVM lowers to a shift on any CPU, and which `dist-call-blas`
    /// recognises in a bf16 contraction's body.
    pub fn convert(&mut self, name: &str, a: Value<'c, '_>) -> Lowered<'c, Value<'c, 'c>> {
        use melior::ir::TypeLike;
        let (from, to) = (a.r#type(), self.element);
        if name == "arith.extf"
            && to.is_f32()
            && let Some(&(_, exact)) = self
                .unrounded
                .iter()
                .find(|(rounded, _)| rounded.to_raw().ptr == a.to_raw().ptr)
        {
            return Ok(exact);
        }
        match name {
            "arith.truncf" if from.is_f32() && to.is_bf16() => self.round_to_bf16(a),
            _ => self.op(name, &[a], to),
        }
    }

    /// An integer (or index) constant of type `ty`.
    pub fn integer(&mut self, ty: Type<'c>, value: i64) -> Lowered<'c, Value<'c, 'c>> {
        let attribute = IntegerAttribute::new(ty, value).into();
        self.op_with(
            "arith.constant",
            &[],
            ty,
            &[(Identifier::new(self.context, "value"), attribute)],
        )
    }

    /// An i32 constant.
    fn int32(&mut self, value: i64) -> Lowered<'c, Value<'c, 'c>> {
        self.integer(IntegerType::new(self.context, 32).into(), value)
    }

    /// f32 `a` rounded to the nearest bf16, ties to even; a NaN stays a
    /// (quiet) NaN.
    fn round_to_bf16(&mut self, a: Value<'c, '_>) -> Lowered<'c, Value<'c, 'c>> {
        let ctx = self.context;
        let (i32_type, i16_type): (Type<'c>, Type<'c>) =
            (IntegerType::new(ctx, 32).into(), IntegerType::new(ctx, 16).into());
        let bits = self.op("arith.bitcast", &[a], i32_type)?;
        let sixteen = self.int32(16)?;
        let one = self.int32(1)?;
        let half = self.int32(0x7fff)?;
        let high = self.op("arith.shrui", &[bits, sixteen], i32_type)?;
        let odd = self.op("arith.andi", &[high, one], i32_type)?;
        let bias = self.op("arith.addi", &[half, odd], i32_type)?;
        let rounded = self.op("arith.addi", &[bits, bias], i32_type)?;
        let quiet = self.int32(0x40_0000)?;
        let quieted = self.op("arith.ori", &[bits, quiet], i32_type)?;
        // arith::CmpFPredicate::uno
        let nan = self.cmpf(14, a, a)?;
        let chosen = self.op("arith.select", &[nan, quieted, rounded], i32_type)?;
        let top = self.op("arith.shrui", &[chosen, sixteen], i32_type)?;
        let narrow = self.op("arith.trunci", &[top], i16_type)?;
        let element = self.element;
        self.op("arith.bitcast", &[narrow], element)
    }

    /// A 16-bit float widened to f32 (exactly), any other value as it is:
    /// what comparisons and conversions to integers read, which LLVM
    /// would otherwise widen through library calls.
    pub fn at_least_f32(&mut self, a: Value<'c, '_>) -> Lowered<'c, Value<'c, 'c>> {
        use melior::ir::TypeLike;
        let ty = a.r#type();
        if ty.is_bf16() || ty.is_f16() {
            return self.op("arith.extf", &[a], Type::float32(self.context));
        }
        // SAFETY: a value of this body, as the others.
        Ok(unsafe { Value::from_raw(a.to_raw()) })
    }

    /// Float `a` as type `ty` (extended or rounded; itself where it has
    /// it), which the body's later ops compute in.
    pub fn as_type(&mut self, a: Value<'c, '_>, ty: Type<'c>) -> Lowered<'c, Value<'c, 'c>> {
        use melior::ir::TypeLike;
        let bits = |t: Type<'c>| match () {
            _ if t.is_f64() => 64,
            _ if t.is_f32() => 32,
            _ => 16,
        };
        let from = a.r#type();
        self.element = ty;
        if from == ty {
            // SAFETY: a value of this body (or from above it), as the others.
            return Ok(unsafe { Value::from_raw(a.to_raw()) });
        }
        match bits(from).cmp(&bits(ty)) {
            std::cmp::Ordering::Less => self.convert("arith.extf", a),
            std::cmp::Ordering::Greater => self.convert("arith.truncf", a),
            std::cmp::Ordering::Equal => Err(Located::new(
                self.location,
                format!("internal error: no float conversion from {from} to {ty}"),
            )),
        }
    }

    pub fn unary(&mut self, name: &str, a: Value<'c, '_>) -> Lowered<'c, Value<'c, 'c>> {
        self.arithmetic(name, &[a])
    }

    /// `a * factor`.
    pub fn times(&mut self, a: Value<'c, '_>, factor: f64) -> Lowered<'c, Value<'c, 'c>> {
        let f = self.float(factor)?;
        self.mul(a, f)
    }

    /// `a > 0 ? b : 0`.
    pub fn where_positive(&mut self, a: Value<'c, '_>, b: Value<'c, '_>) -> Lowered<'c, Value<'c, 'c>> {
        let zero = self.float(0.0)?;
        // arith::CmpFPredicate::OGT
        let predicate = IntegerAttribute::new(IntegerType::new(self.context, 64).into(), 2).into();
        let i1 = IntegerType::new(self.context, 1).into();
        let positive = self.op_with(
            "arith.cmpf",
            &[a, zero],
            i1,
            &[(Identifier::new(self.context, "predicate"), predicate)],
        )?;
        let element = self.element;
        self.op("arith.select", &[positive, b, zero], element)
    }

    /// `1` where `a > 0`, `-1` where `a < 0`, else `a` itself (a zero of
    /// either sign, NaN), as `stablehlo.sign`.
    pub fn sign(&mut self, a: Value<'c, '_>) -> Lowered<'c, Value<'c, 'c>> {
        let zero = self.float(0.0)?;
        let one = self.float(1.0)?;
        let minus_one = self.float(-1.0)?;
        // arith::CmpFPredicate::OGT and OLT
        let positive = self.cmpf(2, a, zero)?;
        let negative = self.cmpf(4, a, zero)?;
        let element = self.element;
        let below = self.op("arith.select", &[negative, minus_one, a], element)?;
        self.op("arith.select", &[positive, one, below], element)
    }

    /// The loop index along `dim`.
    pub fn index(&mut self, dim: usize) -> Lowered<'c, Value<'c, 'c>> {
        let index = Type::index(self.context);
        let dim = IntegerAttribute::new(IntegerType::new(self.context, 64).into(), dim as i64).into();
        self.op_with(
            "linalg.index",
            &[],
            index,
            &[(Identifier::new(self.context, "dim"), dim)],
        )
    }

    /// An integer value as an `index`.
    pub fn index_cast(&mut self, a: Value<'c, '_>) -> Lowered<'c, Value<'c, 'c>> {
        let index = Type::index(self.context);
        self.op("arith.index_cast", &[a], index)
    }

    /// An index-typed op (`arith.subi`, `arith.addi`, ...).
    pub fn index_op(&mut self, name: &str, a: Value<'c, '_>, b: Value<'c, '_>) -> Lowered<'c, Value<'c, 'c>> {
        let index = Type::index(self.context);
        self.op(name, &[a, b], index)
    }

    /// `arith.cmpi` by its predicate's number (`arith::CmpIPredicate`: 0 eq,
    /// 2 slt, 4 sgt, 5 sge, ...).
    pub fn cmpi(&mut self, predicate: i64, a: Value<'c, '_>, b: Value<'c, '_>) -> Lowered<'c, Value<'c, 'c>> {
        self.compare("arith.cmpi", predicate, a, b)
    }

    /// `arith.cmpf` by its predicate's number (`arith::CmpFPredicate`).
    pub fn cmpf(&mut self, predicate: i64, a: Value<'c, '_>, b: Value<'c, '_>) -> Lowered<'c, Value<'c, 'c>> {
        self.compare("arith.cmpf", predicate, a, b)
    }

    fn compare(
        &mut self,
        name: &str,
        predicate: i64,
        a: Value<'c, '_>,
        b: Value<'c, '_>,
    ) -> Lowered<'c, Value<'c, 'c>> {
        let i1 = IntegerType::new(self.context, 1).into();
        let p = IntegerAttribute::new(IntegerType::new(self.context, 64).into(), predicate).into();
        self.op_with(name, &[a, b], i1, &[(Identifier::new(self.context, "predicate"), p)])
    }

    pub fn select(&mut self, c: Value<'c, '_>, a: Value<'c, '_>, b: Value<'c, '_>) -> Lowered<'c, Value<'c, 'c>> {
        let ty = a.r#type();
        self.op("arith.select", &[c, a, b], ty)
    }

    pub fn and(&mut self, a: Value<'c, '_>, b: Value<'c, '_>) -> Lowered<'c, Value<'c, 'c>> {
        let ty = a.r#type();
        self.op("arith.andi", &[a, b], ty)
    }

    pub fn index_constant(&mut self, value: i64) -> Lowered<'c, Value<'c, 'c>> {
        self.integer(Type::index(self.context), value)
    }

    /// `tensor.insert` of `value` into `tensor` at `indices`: the new tensor.
    pub fn insert(
        &mut self,
        value: Value<'c, '_>,
        tensor: Value<'c, '_>,
        indices: &[Value<'c, '_>],
    ) -> Lowered<'c, Value<'c, 'c>> {
        let mut operands = vec![value, tensor];
        operands.extend_from_slice(indices);
        self.op("tensor.insert", &operands, tensor.r#type())
    }

    /// `tensor.extract` of `tensor` at `indices` (a tensor from above).
    pub fn extract(&mut self, tensor: Value<'c, '_>, indices: &[Value<'c, '_>]) -> Lowered<'c, Value<'c, 'c>> {
        let mut operands = vec![tensor];
        operands.extend_from_slice(indices);
        let element = dist_dialect::ir::element_type(tensor.r#type());
        self.op("tensor.extract", &operands, element)
    }
}

/// The static offsets, sizes and unit strides of a `tensor` slice op, and
/// its operand segments (the dynamic lists all empty). Built by hand:
/// melior's generated slice builders leave `operandSegmentSizes` out.
pub fn slice_attributes<'c>(
    context: &'c Context,
    offsets: &[i64],
    sizes: &[i64],
    segments: &[i32],
) -> Vec<(Identifier<'c>, Attribute<'c>)> {
    let strides = vec![1; sizes.len()];
    let named = |name: &str, value: Attribute<'c>| (Identifier::new(context, name), value);
    vec![
        named("static_offsets", DenseI64ArrayAttribute::new(context, offsets).into()),
        named("static_sizes", DenseI64ArrayAttribute::new(context, sizes).into()),
        named("static_strides", DenseI64ArrayAttribute::new(context, &strides).into()),
        named(
            "operandSegmentSizes",
            DenseI32ArrayAttribute::new(context, segments).into(),
        ),
    ]
}

/// The type sums of `element` accumulate in: f64 for f32 and f64 (a
/// running f32 sum drifts by n ulps), f32 for the 16-bit types (as mixed
/// precision training accumulates bf16 products and reductions).
pub fn accumulator(element: Type<'_>) -> Type<'_> {
    use melior::ir::TypeLike;
    let context = dist_dialect::ir::context_of_type(element);
    if element.is_bf16() || element.is_f16() {
        Type::float32(context)
    } else {
        Type::float64(context)
    }
}
