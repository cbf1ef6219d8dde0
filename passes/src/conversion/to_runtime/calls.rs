//! The helper of each op: a runtime call (or, for a start, a start and a
//! wait helper) that packs the operands, calls `libdist_runtime` and
//! unpacks the results.

use super::site::{Moved, Site};
use super::text::{Layout, Text, from_blocks, memref_type, to_blocks};
use super::{Call, Helpers, add_helper, declare};
use crate::conversion::runtime_abi;
use crate::vocabulary::comm::CollectiveKind;
use dist_dialect::ir::tensor_type_text as tensor_type;

/// `dist.axis_index`: the runtime's coordinate of this device.
pub(super) fn axis_index_call(helpers: &mut Helpers, site: &Site<'_>) -> Call {
    let axis_index = runtime_abi::axis_index();
    declare(helpers, &axis_index);
    let key = format!("axis_index {:?} {:?}", site.mesh_words, site.axis_words);
    let mut t = site.text("f32", 0);
    let (m, a) = t.descriptors(&site.mesh_words, &site.axis_words);
    let v = t.value();
    t.line(format!("{v} = {}", axis_index.call(&format!("{m}, {a}"))));
    t.line(format!("return {v} : index"));
    let helper = add_helper(helpers, key, "() -> index", &t.body);
    Call {
        helper,
        results: vec!["index".to_owned()],
    }
}

/// `dist.send` of a tensor of `shape` (`send`) or `dist.recv` of one: the
/// flat buffer through `dist_rt_send_<t>` or `dist_rt_recv_<t>`.
pub(super) fn point_to_point_call(
    helpers: &mut Helpers,
    site: &Site<'_>,
    send: bool,
    shape: &[i64],
    element: &str,
    peer: i64,
    tag: i64,
) -> Call {
    let function = runtime_abi::point_to_point(send, element);
    declare(helpers, &function);
    let n: i64 = shape.iter().product();
    let ty = tensor_type(shape, element);
    let key = format!(
        "{} {ty} {:?} {:?} {peer} {tag}",
        function.name, site.mesh_words, site.axis_words
    );
    let mut t = site.text(element, 0);
    let (buffer, out) = if send {
        let flat = t.reshape("%arg0", shape, &[n]);
        (t.buffer_of(&flat, n, false), String::new())
    } else {
        t.output(n)
    };
    let (m, a) = t.descriptors(&site.mesh_words, &site.axis_words);
    let (p, g) = (t.value(), t.value());
    t.line(format!("{p} = arith.constant {peer} : i64"));
    t.line(format!("{g} = arith.constant {tag} : i64"));
    t.line(function.call(&format!("{buffer}, {m}, {a}, {p}, {g}")));
    let (signature, results) = if send {
        t.line("return".to_owned());
        (format!("(%arg0: {ty}) -> ()"), Vec::new())
    } else {
        let flat = t.tensor_of(&out, n);
        let result = t.reshape(&flat, &[n], shape);
        t.line(format!("return {result} : {ty}"));
        (format!("() -> {ty}"), vec![ty])
    };
    let helper = add_helper(helpers, key, &signature, &t.body);
    Call { helper, results }
}

/// `dist.all_slice`: the device's slice of `dim`, no communication.
pub(super) fn slice_call(helpers: &mut Helpers, site: &Site<'_>, moved: &Moved, dim: usize) -> Call {
    let axis_index = runtime_abi::axis_index();
    declare(helpers, &axis_index);
    let mut t = site.text(&moved.element, 0);
    let (m, a) = t.descriptors(&site.mesh_words, &site.axis_words);
    let i = t.value();
    t.line(format!("{i} = {}", axis_index.call(&format!("{m}, {a}"))));
    let size = moved.result_shapes[0][dim];
    let c = t.value();
    t.line(format!("{c} = arith.constant {size} : index"));
    let off = t.value();
    t.line(format!("{off} = arith.muli {i}, {c} : index"));
    let rank = moved.shapes[0].len();
    let offsets: Vec<String> = (0..rank)
        .map(|d| if d == dim { off.clone() } else { "0".to_owned() })
        .collect();
    let sizes: Vec<String> = moved.result_shapes[0].iter().map(i64::to_string).collect();
    let strides = vec!["1"; rank].join(", ");
    let v = t.value();
    let (input, output) = (&moved.input_types[0], &moved.output_types[0]);
    t.line(format!(
        "{v} = tensor.extract_slice %arg0[{}] [{}] [{strides}] : {input} to {output}",
        offsets.join(", "),
        sizes.join(", "),
    ));
    t.line(format!("return {v} : {output}"));
    let helper = add_helper(
        helpers,
        moved.key.clone(),
        &format!("(%arg0: {input}) -> {output}"),
        &t.body,
    );
    Call {
        helper,
        results: moved.output_types.clone(),
    }
}

/// The flat size of `shapes` together.
pub(super) fn total(shapes: &[Vec<i64>]) -> i64 {
    shapes.iter().map(|s| s.iter().product::<i64>()).sum()
}

/// Packs the operands, in their block layouts, into one flat tensor: one
/// after the other, or, for a reduce_scatter, block by block (the blocks
/// each of the `group` devices keeps, of every operand, side by side).
pub(super) fn pack_operands(t: &mut Text, moved: &Moved, layout: &Layout, group: i64) -> String {
    let element = &moved.element;
    let flats: Vec<String> = moved
        .shapes
        .iter()
        .enumerate()
        .map(|(i, s)| to_blocks(t, &format!("%arg{i}"), s, layout))
        .collect();
    if flats.len() == 1 {
        return flats[0].clone();
    }
    let n_in = total(&moved.shapes);
    // A row per device for a reduce_scatter, else one (a flat tensor).
    let rows = if moved.kind == CollectiveKind::ReduceScatter {
        group
    } else {
        1
    };
    let shape = |cols: i64| if rows == 1 { vec![cols] } else { vec![rows, cols] };
    let list = |v: &[i64]| v.iter().map(i64::to_string).collect::<Vec<_>>().join(", ");
    let packed = shape(n_in / rows);
    let mut acc = t.value();
    t.line(format!("{acc} = tensor.empty() : {}", tensor_type(&packed, element)));
    let mut offset = 0;
    for (f, s) in flats.iter().zip(&moved.shapes) {
        let n: i64 = s.iter().product();
        let block = shape(n / rows);
        let piece = t.reshape(f, &[n], &block);
        let mut offsets = vec![0; block.len()];
        offsets[block.len() - 1] = offset;
        let v = t.value();
        t.line(format!(
            "{v} = tensor.insert_slice {piece} into {acc}[{}] [{}] [{}] : {} into {}",
            list(&offsets),
            list(&block),
            list(&vec![1; block.len()]),
            tensor_type(&block, element),
            tensor_type(&packed, element)
        ));
        acc = v;
        offset += n / rows;
    }
    t.reshape(&acc, &packed, &[n_in])
}

/// After the data has arrived: the flat output cut into the results, each
/// in its shape.
pub(super) fn unpack_results(
    t: &mut Text,
    out_static: &str,
    moved: &Moved,
    layout: &Layout,
    group: i64,
) -> Vec<String> {
    let n_out = total(&moved.result_shapes);
    let flat = t.tensor_of(out_static, n_out);
    let mut results = Vec::new();
    let mut offset = 0;
    for s in &moved.result_shapes {
        let n: i64 = s.iter().product();
        let piece = if moved.result_shapes.len() == 1 {
            flat.clone()
        } else {
            let v = t.value();
            t.line(format!(
                "{v} = tensor.extract_slice {flat}[{offset}] [{n}] [1] : {} to {}",
                tensor_type(&[n_out], &t.element.clone()),
                tensor_type(&[n], &t.element.clone())
            ));
            v
        };
        offset += n;
        results.push(from_blocks(t, &piece, n, s, layout, group));
    }
    results
}

/// A collective through the runtime's MPI (or NCCL) call: one helper that
/// packs, calls and unpacks; for a start, a helper that packs and starts
/// and a second one, for its wait, that completes and unpacks.
pub(super) fn runtime_call(helpers: &mut Helpers, site: &Site<'_>, moved: Moved, layout: &Layout) -> Call {
    let element = moved.element.clone();
    let function = runtime_abi::collective(moved.kind, &element, moved.is_start)
        .expect("plan_call does an all_slice itself, without the runtime");
    declare(helpers, &function);
    let (n_in, n_out) = (total(&moved.shapes), total(&moved.result_shapes));
    let mut t = site.text(&element, 0);
    let packed = pack_operands(&mut t, &moved, layout, site.group);
    let input = t.buffer_of(&packed, n_in, moved.is_start);
    let (out, out_static) = t.output(n_out);
    let (m, a) = t.descriptors(&site.mesh_words, &site.axis_words);
    let k = t.value();
    t.line(format!("{k} = arith.constant {} : i32", moved.reduction));
    let call = function.call(&format!("{input}, {out}, {m}, {a}, {k}"));
    let params: Vec<String> = moved
        .input_types
        .iter()
        .enumerate()
        .map(|(i, ty)| format!("%arg{i}: {ty}"))
        .collect();
    let outputs = moved.output_types.join(", ");
    if !moved.is_start {
        t.line(call);
        let results = unpack_results(&mut t, &out_static, &moved, layout, site.group);
        t.line(format!("return {} : {outputs}", results.join(", ")));
        let helper = add_helper(
            helpers,
            moved.key.clone(),
            &format!("({}) -> ({outputs})", params.join(", ")),
            &t.body,
        );
        return Call {
            helper,
            results: moved.output_types,
        };
    }
    // A start returns the request and both buffers; its wait (a second
    // helper) completes the request and unpacks.
    let r = t.value();
    t.line(format!("{r} = {call}"));
    let out_type = memref_type(n_out, &element);
    t.line(format!(
        "return {r}, {input}, {out_static} : i64, memref<?x{element}>, {out_type}"
    ));
    let start_results = vec!["i64".to_owned(), format!("memref<?x{element}>"), out_type.clone()];
    let helper = add_helper(
        helpers,
        moved.key.clone(),
        &format!("({}) -> ({})", params.join(", "), start_results.join(", ")),
        &t.body,
    );
    let wait = runtime_abi::wait(&element);
    declare(helpers, &wait);
    let mut w = site.text(&element, 100);
    let oc = w.value();
    w.line(format!("{oc} = memref.cast %out : {out_type} to memref<?x{element}>"));
    w.line(wait.call(&format!("%request, %input, {oc}")));
    let results = unpack_results(&mut w, "%out", &moved, layout, site.group);
    w.line(format!("return {} : {outputs}", results.join(", ")));
    let wait = add_helper(
        helpers,
        format!("wait of {}", moved.key),
        &format!("(%request: i64, %input: memref<?x{element}>, %out: {out_type}) -> ({outputs})"),
        &w.body,
    );
    Call {
        helper: format!("{helper} {wait}"),
        results: start_results,
    }
}
