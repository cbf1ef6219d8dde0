//! Writing a function's body op by op, each at the end of its block: the
//! constants, reshapes, transposes and buffers that carry tensors across
//! the runtime's C ABI and back. The runtime helpers and `dist-run`'s
//! `main` are written with it.

use crate::conversion::runtime_abi::{RuntimeFn, buffer_type};
use crate::vocabulary::linalg::build::slice_attributes;
use dist_dialect::ir::build::{integer_elements_attribute, tensor_type};
use dist_dialect::ir::{OperationExt, block_argument, element_type, static_tensor_shape};
use melior::Context;
use melior::dialect::ods::{bufferization, linalg, memref, tensor};
use melior::dialect::{arith, func};
use melior::ir::attribute::{
    DenseI32ArrayAttribute, DenseI64ArrayAttribute, IntegerAttribute, StringAttribute, TypeAttribute,
};
use melior::ir::operation::OperationBuilder;
use melior::ir::r#type::{FunctionType, IntegerType, MemRefType};
use melior::ir::{
    Attribute, Block, BlockLike, Identifier, Location, Operation, OperationRef, Region, RegionLike, Type, Value,
    ValueLike,
};

/// A dynamic offset or size (MLIR's `ShapedType::kDynamic`).
const DYNAMIC: i64 = i64::MIN;

/// Appends ops at the end of `block`, at `location`.
pub struct Body<'c, 'b> {
    pub context: &'c Context,
    pub location: Location<'c>,
    block: &'b Block<'c>,
}

/// A `func.func` `@name` of `inputs` with `attributes`, and its result
/// types: `write` writes its body from its arguments and returns the values
/// it returns, which give the function its results.
pub fn function<'c>(
    context: &'c Context,
    name: &str,
    inputs: &[Type<'c>],
    attributes: &[(Identifier<'c>, Attribute<'c>)],
    location: Location<'c>,
    write: impl for<'b> FnOnce(&Body<'c, 'b>, &[Value<'c, 'b>]) -> Vec<Value<'c, 'b>>,
) -> (Operation<'c>, Vec<Type<'c>>) {
    let arguments: Vec<(Type<'c>, Location<'c>)> = inputs.iter().map(|&ty| (ty, location)).collect();
    let block = Block::new(&arguments);
    let results: Vec<Type<'c>> = {
        let body = Body::new(context, &block, location);
        let arguments: Vec<Value<'c, '_>> = (0..inputs.len())
            .map(|i| block_argument(&block, i).expect("one argument per input").into())
            .collect();
        let returned = write(&body, &arguments);
        body.append(func::r#return(&returned, location));
        returned.iter().map(|v| v.r#type()).collect()
    };
    let region = Region::new();
    region.append_block(block);
    let ty = FunctionType::new(context, inputs, &results);
    let function = func::func(
        context,
        StringAttribute::new(context, name),
        TypeAttribute::new(ty.into()),
        region,
        attributes,
        location,
    );
    (function, results)
}

/// `sym_visibility = "private"`, for [`function`]'s `attributes`.
pub fn private(context: &Context) -> (Identifier<'_>, Attribute<'_>) {
    (
        Identifier::new(context, "sym_visibility"),
        StringAttribute::new(context, "private").into(),
    )
}

/// `memref<n x element>`.
pub fn memref_type(n: i64, element: Type<'_>) -> Type<'_> {
    MemRefType::new(element, &[n], None, None).into()
}

/// The static shape of tensor `x`.
pub fn shape_of(x: Value<'_, '_>) -> Vec<i64> {
    static_tensor_shape(x.r#type()).expect("the runtime moves static tensors")
}

impl<'c, 'b> Body<'c, 'b> {
    pub fn new(context: &'c Context, block: &'b Block<'c>, location: Location<'c>) -> Self {
        Self {
            context,
            location,
            block,
        }
    }

    pub fn append(&self, op: impl Into<Operation<'c>>) -> OperationRef<'c, 'b> {
        self.block.append_operation(op.into())
    }

    /// Appends `op` and returns its one result.
    pub fn value(&self, op: impl Into<Operation<'c>>) -> Value<'c, 'b> {
        self.append(op).result_at(0).expect("one result").into()
    }

    /// `arith.constant value` of an integer or index type `ty`.
    pub fn constant(&self, value: i64, ty: Type<'c>) -> Value<'c, 'b> {
        self.value(arith::constant(
            self.context,
            IntegerAttribute::new(ty, value).into(),
            self.location,
        ))
    }

    /// `arith.constant dense<[words]> : tensor<N x element>`.
    pub fn list(&self, words: &[i64], element: Type<'c>) -> Value<'c, 'b> {
        let ty = tensor_type(&[words.len() as i64], element);
        self.value(arith::constant(
            self.context,
            integer_elements_attribute(ty, words),
            self.location,
        ))
    }

    /// `tensor.reshape` of `x` to `shape`, through a constant shape.
    pub fn reshape(&self, x: Value<'c, '_>, shape: &[i64]) -> Value<'c, 'b> {
        let to = self.list(shape, Type::index(self.context));
        let ty = tensor_type(shape, element_type(x.r#type()));
        self.value(tensor::reshape(self.context, ty, x, to, self.location))
    }

    /// `linalg.transpose` of `x` into a `tensor.empty`: result dim `i` is
    /// dim `permutation[i]`.
    pub fn transpose(&self, x: Value<'c, '_>, permutation: &[usize]) -> Value<'c, 'b> {
        let shape = shape_of(x);
        let element = element_type(x.r#type());
        let out: Vec<i64> = permutation.iter().map(|&p| shape[p]).collect();
        let init = self.value(tensor::empty(
            self.context,
            tensor_type(&out, element),
            &[],
            self.location,
        ));
        // The body the op's parser builds: yield the input's element.
        let block = Block::new(&[(element, self.location), (element, self.location)]);
        let input = block_argument(&block, 0).expect("two arguments").into();
        block.append_operation(linalg::r#yield(self.context, &[input], self.location).into());
        let region = Region::new();
        region.append_block(block);
        let permutation: Vec<i64> = permutation.iter().map(|&p| p as i64).collect();
        let permutation = DenseI64ArrayAttribute::new(self.context, &permutation).into();
        // Built by name: melior generates no builders for linalg's
        // structured ops.
        let op = OperationBuilder::new("linalg.transpose", self.location)
            .add_operands(&[x, init])
            .add_results(&[init.r#type()])
            .add_attributes(&[(Identifier::new(self.context, "permutation"), permutation)])
            .add_regions([region])
            .build()
            .expect("a valid linalg.transpose");
        self.value(op)
    }

    /// `bufferization.to_buffer` of static tensor `x`, read only.
    pub fn to_buffer(&self, x: Value<'c, '_>) -> Value<'c, 'b> {
        let shape = shape_of(x);
        let ty = MemRefType::new(element_type(x.r#type()), &shape, None, None).into();
        self.value(
            bufferization::ToBufferOperation::builder(self.context, self.location)
                .buffer(ty)
                .tensor(x)
                .read_only(Attribute::unit(self.context))
                .build(),
        )
    }

    /// `bufferization.to_tensor` of static buffer `buffer`, which it owns.
    pub fn tensor_of(&self, buffer: Value<'c, '_>) -> Value<'c, 'b> {
        let shape = dist_dialect::ir::static_identity_memref_shape(buffer.r#type()).expect("a static buffer");
        let ty = tensor_type(&shape, element_type(buffer.r#type()));
        self.value(
            bufferization::ToTensorOperation::builder(self.context, self.location)
                .result(ty)
                .buffer(buffer)
                .restrict(Attribute::unit(self.context))
                .writable(Attribute::unit(self.context))
                .build(),
        )
    }

    /// A new tensor holding `x` (`bufferization.alloc_tensor` copying it):
    /// a slice made contiguous once, where its users would each copy it.
    pub fn copied(&self, x: Value<'c, '_>) -> Value<'c, 'b> {
        self.value(
            OperationBuilder::new("bufferization.alloc_tensor", self.location)
                .add_operands(&[x])
                .add_results(&[x.r#type()])
                .add_attributes(&[(
                    Identifier::new(self.context, "operandSegmentSizes"),
                    DenseI32ArrayAttribute::new(self.context, &[0, 1, 0]).into(),
                )])
                .build()
                .expect("a valid bufferization.alloc_tensor"),
        )
    }

    /// A new `memref<n x element>`. (melior's own builder: the generated
    /// one leaves the op's `operandSegmentSizes` out.)
    pub fn alloc(&self, n: i64, element: Type<'c>) -> Value<'c, 'b> {
        let ty = MemRefType::new(element, &[n], None, None);
        self.value(melior::dialect::memref::alloc(
            self.context,
            ty,
            &[],
            &[],
            None,
            self.location,
        ))
    }

    pub fn copy(&self, from: Value<'c, '_>, to: Value<'c, '_>) {
        self.append(memref::copy(self.context, from, to, self.location));
    }

    /// `buffer` cast to `memref<?xE>`, as the runtime takes it.
    pub fn flat(&self, buffer: Value<'c, '_>) -> Value<'c, 'b> {
        let ty = buffer_type(element_type(buffer.r#type()));
        self.value(memref::cast(self.context, ty, buffer, self.location))
    }

    /// The buffer of flat tensor `x`, as `memref<?xE>`; `copy` makes it a
    /// fresh buffer the caller owns.
    pub fn buffer_of(&self, x: Value<'c, '_>, copy: bool) -> Value<'c, 'b> {
        let buffer = self.to_buffer(x);
        if !copy {
            return self.flat(buffer);
        }
        let fresh = self.alloc(shape_of(x)[0], element_type(x.r#type()));
        self.copy(buffer, fresh);
        self.flat(fresh)
    }

    /// A new output buffer of `n` elements: (its `memref<?xE>`, itself).
    pub fn output(&self, n: i64, element: Type<'c>) -> (Value<'c, 'b>, Value<'c, 'b>) {
        let out = self.alloc(n, element);
        (self.flat(out), out)
    }

    /// `words` as a `memref<?xi64>`: a mesh, axes or shape as the runtime
    /// reads it.
    pub fn descriptor(&self, words: &[i64]) -> Value<'c, 'b> {
        let list = self.list(words, IntegerType::new(self.context, 64).into());
        let buffer = self.to_buffer(list);
        self.flat(buffer)
    }

    /// `tensor.extract_slice` of `x` at `offsets` (static, or `None` for
    /// the value `dynamic`) with `sizes` and unit strides.
    pub fn extract_slice(
        &self,
        x: Value<'c, '_>,
        offsets: &[Option<i64>],
        dynamic: Option<Value<'c, '_>>,
        sizes: &[i64],
    ) -> Value<'c, 'b> {
        let offsets: Vec<i64> = offsets.iter().map(|o| o.unwrap_or(DYNAMIC)).collect();
        let mut operands = vec![x];
        operands.extend(dynamic);
        let segments = [1, operands.len() as i32 - 1, 0, 0];
        let ty = tensor_type(sizes, element_type(x.r#type()));
        self.slice("tensor.extract_slice", &operands, ty, &offsets, sizes, &segments)
    }

    /// `tensor.insert_slice` of `piece` into `into` at static `offsets`.
    pub fn insert_slice(&self, piece: Value<'c, '_>, into: Value<'c, '_>, offsets: &[i64]) -> Value<'c, 'b> {
        let sizes = shape_of(piece);
        self.slice(
            "tensor.insert_slice",
            &[piece, into],
            into.r#type(),
            offsets,
            &sizes,
            &[1, 1, 0, 0, 0],
        )
    }

    /// A slice op, built by name: melior's generated builders leave its
    /// `operandSegmentSizes` out.
    fn slice(
        &self,
        name: &str,
        operands: &[Value<'c, '_>],
        ty: Type<'c>,
        offsets: &[i64],
        sizes: &[i64],
        segments: &[i32],
    ) -> Value<'c, 'b> {
        let op = OperationBuilder::new(name, self.location)
            .add_operands(operands)
            .add_results(&[ty])
            .add_attributes(&slice_attributes(self.context, offsets, sizes, segments))
            .build()
            .expect("a valid slice");
        self.value(op)
    }

    /// A call of the runtime's `function`; its result, if any.
    pub fn call(&self, function: &RuntimeFn, arguments: &[Value<'c, '_>]) -> Option<Value<'c, 'b>> {
        let call = self.append(function.call(self.context, arguments, self.location));
        call.result_at(0).map(Into::into)
    }
}
