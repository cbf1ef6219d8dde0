//! The helper of each op: a runtime call (or, for a start, a start and a
//! wait helper) that packs the operands, calls `libdist_runtime` and
//! unpacks the results.

use super::body::{Body, memref_type};
use super::layout::{Layout, from_blocks, reshaped, to_blocks};
use super::site::{Moved, Site};
use super::{Call, Helpers};
use crate::conversion::runtime_abi::{self, Element, buffer_type};
use crate::vocabulary::comm::CollectiveKind;
use dist_dialect::ir::build::tensor_type;
use melior::ir::r#type::IntegerType;
use melior::ir::{Type, Value};

impl<'c> Site<'c> {
    /// The mesh and axes descriptors, as `memref<?xi64>`.
    fn descriptors<'b>(&self, b: &Body<'c, 'b>) -> [Value<'c, 'b>; 2] {
        [b.descriptor(&self.mesh_words), b.descriptor(&self.axis_words)]
    }

    fn integer(&self, bits: u32) -> Type<'c> {
        IntegerType::new(self.context, bits).into()
    }
}

/// `dist.axis_index`: the runtime's coordinate of this device.
pub(super) fn axis_index_call<'c>(helpers: &mut Helpers<'c>, site: &Site<'c>) -> Call<'c> {
    let axis_index = runtime_abi::axis_index();
    helpers.declare(&axis_index);
    let key = format!("axis_index {:?} {:?}", site.mesh_words, site.axis_words);
    let helper = helpers.add(key, site.at, &[], |b, _| {
        vec![b.call(&axis_index, &site.descriptors(b)).expect("a coordinate")]
    });
    Call { helper, wait: None }
}

/// `dist.send` of a tensor of `shape` (`send`) or `dist.recv` of one: the
/// flat buffer through `dist_rt_send_<t>` or `dist_rt_recv_<t>`.
pub(super) fn point_to_point_call<'c>(
    helpers: &mut Helpers<'c>,
    site: &Site<'c>,
    send: bool,
    (shape, element): (&[i64], Element),
    peer: i64,
    tag: i64,
) -> Call<'c> {
    let function = runtime_abi::point_to_point(send, element);
    helpers.declare(&function);
    let n: i64 = shape.iter().product();
    let key = format!(
        "{} {shape:?} {:?} {:?} {peer} {tag}",
        function.name, site.mesh_words, site.axis_words
    );
    let ty = tensor_type(shape, element.r#type(site.context));
    let inputs = if send { vec![ty] } else { Vec::new() };
    let helper = helpers.add(key, site.at, &inputs, |b, arguments| {
        let (buffer, out) = if send {
            let flat = reshaped(b, arguments[0], &[n]);
            (b.buffer_of(flat, false), None)
        } else {
            let (buffer, out) = b.output(n, element.r#type(site.context));
            (buffer, Some(out))
        };
        let [m, a] = site.descriptors(b);
        let i64_type = site.integer(64);
        let (p, g) = (b.constant(peer, i64_type), b.constant(tag, i64_type));
        b.call(&function, &[buffer, m, a, p, g]);
        out.map(|out| reshaped(b, b.tensor_of(out), shape))
            .into_iter()
            .collect()
    });
    Call { helper, wait: None }
}

/// `dist.all_slice`: the device's slice of `dim`, no communication.
pub(super) fn slice_call<'c>(helpers: &mut Helpers<'c>, site: &Site<'c>, moved: &Moved<'c>, dim: usize) -> Call<'c> {
    let axis_index = runtime_abi::axis_index();
    helpers.declare(&axis_index);
    let input = tensor_type(&moved.shapes[0], moved.element);
    let sizes = &moved.result_shapes[0];
    let helper = helpers.add(moved.key.clone(), site.at, &[input], |b, arguments| {
        let i = b.call(&axis_index, &site.descriptors(b)).expect("a coordinate");
        let size = b.constant(sizes[dim], Type::index(site.context));
        let offset = b.value(melior::dialect::arith::muli(i, size, b.location));
        let offsets: Vec<Option<i64>> = (0..sizes.len()).map(|d| (d != dim).then_some(0)).collect();
        vec![b.extract_slice(arguments[0], &offsets, Some(offset), sizes)]
    });
    Call { helper, wait: None }
}

/// The flat size of `shapes` together.
fn total(shapes: &[Vec<i64>]) -> i64 {
    shapes.iter().map(|s| s.iter().product::<i64>()).sum()
}

/// Packs the operands, in their block layouts, into one flat tensor: one
/// after the other, or, for a reduce_scatter, block by block (the blocks
/// each of the `group` devices keeps, of every operand, side by side).
fn pack_operands<'c, 'b>(
    b: &Body<'c, 'b>,
    operands: &[Value<'c, 'b>],
    moved: &Moved<'c>,
    layout: &Layout,
    group: i64,
) -> Value<'c, 'b> {
    let flats: Vec<Value<'c, 'b>> = operands
        .iter()
        .zip(&moved.shapes)
        .map(|(&x, s)| to_blocks(b, x, s, layout))
        .collect();
    if let [flat] = flats[..] {
        return flat;
    }
    let n_in = total(&moved.shapes);
    // A row per device for a reduce_scatter, else one (a flat tensor).
    let rows = if moved.kind == CollectiveKind::ReduceScatter {
        group
    } else {
        1
    };
    let shape = |cols: i64| if rows == 1 { vec![cols] } else { vec![rows, cols] };
    let packed = shape(n_in / rows);
    let mut acc = b.value(melior::dialect::ods::tensor::empty(
        b.context,
        tensor_type(&packed, moved.element),
        &[],
        b.location,
    ));
    let mut offset = 0;
    for (&flat, s) in flats.iter().zip(&moved.shapes) {
        let n: i64 = s.iter().product();
        let block = shape(n / rows);
        let piece = reshaped(b, flat, &block);
        let mut offsets = vec![0; block.len()];
        offsets[block.len() - 1] = offset;
        acc = b.insert_slice(piece, acc, &offsets);
        offset += n / rows;
    }
    reshaped(b, acc, &[n_in])
}

/// After the data has arrived in `out` (static `memref<nxE>`): the flat
/// output cut into the results, each in its shape.
fn unpack_results<'c, 'b>(
    b: &Body<'c, 'b>,
    out: Value<'c, 'b>,
    moved: &Moved<'c>,
    layout: &Layout,
    group: i64,
) -> Vec<Value<'c, 'b>> {
    let flat = b.tensor_of(out);
    let mut results = Vec::new();
    let mut offset = 0;
    for s in &moved.result_shapes {
        let n: i64 = s.iter().product();
        let piece = if moved.result_shapes.len() == 1 {
            flat
        } else {
            b.extract_slice(flat, &[Some(offset)], None, &[n])
        };
        offset += n;
        results.push(from_blocks(b, piece, s, layout, group));
    }
    results
}

/// A collective through the runtime's MPI (or NCCL) call: one helper that
/// packs, calls and unpacks; for a start, a helper that packs and starts
/// and a second one, for its wait, that completes and unpacks.
pub(super) fn runtime_call<'c>(
    helpers: &mut Helpers<'c>,
    site: &Site<'c>,
    moved: &Moved<'c>,
    element: Element,
    layout: &Layout,
) -> Call<'c> {
    let function = runtime_abi::collective(moved.kind, element, moved.is_start)
        .expect("plan_call does an all_slice itself, without the runtime");
    helpers.declare(&function);
    let n_out = total(&moved.result_shapes);
    let inputs: Vec<Type<'c>> = moved.shapes.iter().map(|s| tensor_type(s, moved.element)).collect();
    let group = site.group;
    let helper = helpers.add(moved.key.clone(), site.at, &inputs, |b, arguments| {
        let packed = pack_operands(b, arguments, moved, layout, group);
        let input = b.buffer_of(packed, moved.is_start);
        let (out, out_static) = b.output(n_out, moved.element);
        let [m, a] = site.descriptors(b);
        let reduction = b.constant(moved.reduction, site.integer(32));
        let request = b.call(&function, &[input, out, m, a, reduction]);
        match request {
            // A start returns the request and both buffers; its wait (a
            // second helper) completes the request and unpacks.
            Some(request) => vec![request, input, out_static],
            None => unpack_results(b, out_static, moved, layout, group),
        }
    });
    if !moved.is_start {
        return Call { helper, wait: None };
    }
    let wait = runtime_abi::wait(element);
    helpers.declare(&wait);
    let handed = [
        site.integer(64),
        buffer_type(moved.element),
        memref_type(n_out, moved.element),
    ];
    let wait = helpers.add(format!("wait of {}", moved.key), site.at, &handed, |b, arguments| {
        let (request, input, out) = (arguments[0], arguments[1], arguments[2]);
        b.call(&wait, &[request, input, b.flat(out)]);
        unpack_results(b, out, moved, layout, group)
    });
    Call {
        helper,
        wait: Some(wait),
    }
}
