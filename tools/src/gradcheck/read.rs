//! A program read from MLIR (`dist-fuzz --grad-check FILE`): the forward
//! function's arguments and `dist` ops as a [`Program`], for the
//! reference. The file itself is what `dist-run` compiles.

use super::program::{Arg, Binary, Data, Element, Kind, Op, Program, Reduction, Ref, Unary};
use crate::run::{argument_names, find_function};
use dist_dialect::CompareDirection;
use dist_dialect::DistOp;
use dist_dialect::ir::{
    FunctionOpRef, OperationExt, attribute, block_argument, context_with_all_dialects, element_type, float_attribute,
    i64_array_attribute, integer_attribute, op_name, op_result, parse_module, sharding_of, static_tensor_shape,
    string_attribute,
};
use dist_dialect::ops::attr;
use melior::ir::attribute::DenseElementsAttribute;
use melior::ir::operation::OperationLike;
use melior::ir::{BlockLike, OperationRef, RegionLike, Type, TypeLike, Value, ValueLike};

fn shape_of(ty: Type<'_>) -> Result<Vec<usize>, String> {
    static_tensor_shape(ty)
        .map(|s| s.iter().map(|&d| d as usize).collect())
        .ok_or_else(|| format!("{ty} is not a static tensor"))
}

fn element_of(ty: Type<'_>) -> Result<Element, String> {
    let element = element_type(ty);
    if element.is_f32() {
        Ok(Element::F32)
    } else if element.is_integer() && (element.to_string() == "i64") {
        Ok(Element::I64)
    } else if element.is_integer() && (element.to_string() == "i32") {
        Ok(Element::I32)
    } else if element.is_integer() && (element.to_string() == "i1") {
        Ok(Element::I1)
    } else {
        Err(format!(
            "the reference has no {element} values (f32, i32, i64 and i1 only)"
        ))
    }
}

fn dims(op: &OperationRef<'_, '_>, name: &str, rank: usize) -> Vec<usize> {
    i64_array_attribute(op, name)
        .unwrap_or_default()
        .iter()
        .map(|&d| d.rem_euclid(rank.max(1) as i64) as usize)
        .collect()
}

/// The op's kind, from its name and attributes.
fn kind_of(op: &OperationRef<'_, '_>, first_rank: usize) -> Result<Kind, String> {
    let name = op_name(op);
    let flag = |n: &str| attribute(op, n).is_some();
    let reduce = |kind| Kind::Reduce {
        kind,
        dims: dims(op, "dims", first_rank),
        keepdim: flag("keepdim"),
    };
    let begin = || integer_attribute(op, "begin_norm_axis").unwrap_or(0) as usize;
    let epsilon = || float_attribute(op, "epsilon").unwrap_or(1e-5) as f32;
    let kind = DistOp::from_name(name);
    Ok(match kind {
        Some(DistOp::Add) => Kind::Binary(Binary::Add),
        Some(DistOp::Sub) => Kind::Binary(Binary::Sub),
        Some(DistOp::Mul) => Kind::Binary(Binary::Mul),
        Some(DistOp::Div) => Kind::Binary(Binary::Div),
        Some(DistOp::Maximum) => Kind::Binary(Binary::Maximum),
        Some(DistOp::Minimum) => Kind::Binary(Binary::Minimum),
        Some(DistOp::Pow) => Kind::Binary(Binary::Pow),
        Some(DistOp::Rem) => Kind::Binary(Binary::Rem),
        Some(DistOp::Compare) => Kind::Compare(
            string_attribute(op, attr::DIRECTION)
                .as_deref()
                .and_then(CompareDirection::from_word)
                .ok_or("a dist.compare without its direction")?,
        ),
        Some(DistOp::Select) => Kind::Select,
        Some(DistOp::Exp) => Kind::Unary(Unary::Exp),
        Some(DistOp::Log) => Kind::Unary(Unary::Log),
        Some(DistOp::Sqrt) => Kind::Unary(Unary::Sqrt),
        Some(DistOp::Rsqrt) => Kind::Unary(Unary::Rsqrt),
        Some(DistOp::Sigmoid) => Kind::Unary(Unary::Sigmoid),
        Some(DistOp::Silu) => Kind::Unary(Unary::Silu),
        Some(DistOp::Tanh) => Kind::Unary(Unary::Tanh),
        Some(DistOp::Neg) => Kind::Unary(Unary::Neg),
        Some(DistOp::Reciprocal) => Kind::Unary(Unary::Reciprocal),
        Some(DistOp::Relu) => Kind::Unary(Unary::Relu),
        Some(DistOp::Abs) => Kind::Unary(Unary::Abs),
        Some(DistOp::Square) => Kind::Unary(Unary::Square),
        Some(DistOp::Sin) => Kind::Unary(Unary::Sin),
        Some(DistOp::Cos) => Kind::Unary(Unary::Cos),
        Some(DistOp::Erf) => Kind::Unary(Unary::Erf),
        Some(DistOp::Erfc) => Kind::Unary(Unary::Erfc),
        Some(DistOp::Log1p) => Kind::Unary(Unary::Log1p),
        Some(DistOp::Expm1) => Kind::Unary(Unary::Expm1),
        Some(DistOp::Atan) => Kind::Unary(Unary::Atan),
        Some(DistOp::Sign) => Kind::Unary(Unary::Sign),
        Some(DistOp::Floor) => Kind::Unary(Unary::Floor),
        Some(DistOp::Ceil) => Kind::Unary(Unary::Ceil),
        Some(DistOp::Round) => Kind::Unary(Unary::Round),
        Some(DistOp::Gelu) if string_attribute(op, "approximate").as_deref() == Some("tanh") => {
            Kind::Unary(Unary::GeluTanh)
        }
        Some(DistOp::Gelu) => Kind::Unary(Unary::Gelu),
        Some(DistOp::Scale) => Kind::Scale(float_attribute(op, "factor").unwrap_or(1.0)),
        Some(DistOp::ReduceSum) => reduce(Reduction::Sum),
        Some(DistOp::ReduceMean) => reduce(Reduction::Mean),
        Some(DistOp::ReduceMax) => reduce(Reduction::Max),
        Some(DistOp::ReduceMin) => reduce(Reduction::Min),
        Some(DistOp::Softmax) => Kind::Softmax {
            axis: integer_attribute(op, "axis").unwrap_or(-1),
        },
        Some(DistOp::LayerNorm) => Kind::LayerNorm {
            begin: begin(),
            epsilon: epsilon(),
        },
        Some(DistOp::RmsNorm) => Kind::RmsNorm {
            begin: begin(),
            epsilon: epsilon(),
        },
        Some(DistOp::Matmul) => Kind::Matmul {
            tx: flag("transpose_x"),
            ty: flag("transpose_y"),
        },
        Some(DistOp::Transpose) => Kind::Transpose {
            perm: dims(op, "perm", first_rank),
        },
        Some(DistOp::Reshape) => Kind::Reshape,
        Some(DistOp::Cumsum) => Kind::Cumsum {
            dim: integer_attribute(op, attr::DIM).unwrap_or(0) as usize,
            reverse: flag(attr::REVERSE),
        },
        Some(DistOp::Slice) => Kind::Slice {
            offsets: dims(op, "offsets", usize::MAX),
            sizes: dims(op, "sizes", usize::MAX),
        },
        Some(DistOp::Concat) => Kind::Concat {
            dim: integer_attribute(op, "dim").unwrap_or(0) as usize,
        },
        Some(DistOp::CausalMask) if op.operand_count() == 1 => Kind::CausalMask,
        Some(DistOp::TakeAlong) if op.operand_count() == 2 => Kind::TakeAlong,
        Some(DistOp::TopK) => Kind::TopK {
            k: integer_attribute(op, "k").unwrap_or(1) as usize,
        },
        Some(DistOp::CrossEntropy) => Kind::CrossEntropy {
            ignore_index: integer_attribute(op, attr::IGNORE_INDEX),
        },
        Some(DistOp::Embedding) if op.operand_count() == 2 => Kind::Embedding,
        Some(DistOp::Attention) if op.operand_count() == 3 => Kind::Attention {
            scale: float_attribute(op, attr::SCALE).unwrap_or(1.0),
            causal: flag(attr::CAUSAL),
            balance: integer_attribute(op, attr::BALANCE).map(|s| s as usize),
        },
        None if name == "arith.constant" => {
            let splat = attribute(op, "value")
                .and_then(|a| DenseElementsAttribute::try_from(a).ok())
                .filter(|d| d.is_splat() && op.result_at(0).is_some_and(|r| element_type(r.r#type()).is_f32()));
            match splat {
                Some(dense) => Kind::Constant(f64::from(dense.f32_splat_value())),
                None => return Err("the reference has constants of one f32 value only".into()),
            }
        }
        _ => return Err(format!("the reference has no '{name}' (of these operands)")),
    })
}

/// The function `entry` of the MLIR `text` as a program, its arguments
/// named as the text names them (dist-run's input files).
pub fn read(text: &str, file: &str, entry: &str) -> Result<Program, String> {
    dist_passes::register_all();
    let context = context_with_all_dialects();
    context.load_all_available_dialects();
    let module = parse_module(&context, text, file).ok_or_else(|| format!("{file} does not parse"))?;
    let function = find_function(&module, entry).ok_or_else(|| format!("{file} has no function @{entry}"))?;
    read_function(function, text, file)
}

fn read_function(function: FunctionOpRef<'_, '_>, text: &str, file: &str) -> Result<Program, String> {
    let names = argument_names(function, text, file);
    let mesh_name = (0..function.num_arguments())
        .find_map(|i| function.argument_attribute(i, attr::SHARDING).and_then(sharding_of))
        .map_or_else(|| "mesh".to_owned(), |s| s.mesh);
    let mesh = dist_dialect::ir::MeshOpRef::lookup(&function.operation(), &mesh_name)
        .and_then(|m| m.to_model().ok())
        .map(|m| m.axes().iter().map(|a| (a.name.clone(), a.size as usize)).collect())
        .unwrap_or_default();
    let mut program = Program::new(mesh);
    for (i, ty) in function.argument_types().into_iter().enumerate() {
        let sharding = function
            .argument_attribute(i, attr::SHARDING)
            .and_then(sharding_of)
            .map(|s| s.dims);
        let element = element_of(ty)?;
        program.args.push(Arg {
            name: names.get(i).cloned().unwrap_or_else(|| format!("arg{i}")),
            shape: shape_of(ty)?,
            element,
            grad: function.argument_attribute(i, attr::REQUIRES_GRAD).is_some(),
            sharding,
            data: if element == Element::F32 {
                Data::Uniform(-1.0, 1.0)
            } else {
                Data::Below(1)
            },
        });
    }
    let body = function
        .operation()
        .region_at(0)
        .and_then(|r| r.first_block())
        .ok_or_else(|| "a declaration has no body".to_owned())?;
    let arguments: Vec<Value> = (0..function.num_arguments())
        .filter_map(|i| block_argument(&body, i).map(Into::into))
        .collect();
    // The ops read so far, in order: a result is (its op's index, its number).
    let mut seen: Vec<OperationRef> = Vec::new();
    let reference = |seen: &[OperationRef], v: Value| -> Result<Ref, String> {
        if let Some(i) = arguments.iter().position(|a| *a == v) {
            return Ok(Ref::Arg(i));
        }
        let result = op_result(v).ok_or_else(|| "a value of another block".to_owned())?;
        let owner = result.owner();
        let op = seen
            .iter()
            .position(|o| *o == owner)
            .ok_or_else(|| "a value defined later".to_owned())?;
        Ok(Ref::Op(op, result.result_number()))
    };
    let mut next = body.first_operation();
    while let Some(op) = next {
        next = op.next_in_block();
        if op_name(&op) == "func.return" {
            if op.operand_count() != 1 {
                return Err(at(&op, "the forward function must return the loss alone"));
            }
            let loss = op.operand_at(0).expect("one operand");
            program.loss = reference(&seen, loss)?;
            break;
        }
        let operands = op
            .operands()
            .map(|v| reference(&seen, v))
            .collect::<Result<Vec<Ref>, String>>()?;
        let first_rank = operands.first().map_or(0, |&v| program.shape(v).len());
        let kind = kind_of(&op, first_rank).map_err(|e| at(&op, &e))?;
        let shapes = op
            .results()
            .map(|r| shape_of(r.r#type()))
            .collect::<Result<Vec<_>, String>>()?;
        seen.push(op);
        program.ops.push(Op {
            kind,
            operands,
            results: shapes,
        });
    }
    bound_indices(&mut program);
    Ok(program)
}

/// `file:line:col: message` for `op`.
fn at(op: &OperationRef<'_, '_>, message: &str) -> String {
    match dist_dialect::ir::file_line_col(op.location()) {
        Some((file, line, col)) => format!("{file}:{line}:{col}: {message}"),
        None => message.to_owned(),
    }
}

/// Each index argument draws below the size it indexes (a vocabulary, a
/// last dim), as its first reader says.
fn bound_indices(program: &mut Program) {
    for i in 0..program.args.len() {
        if program.args[i].element == Element::F32 {
            continue;
        }
        let data = program.ops.iter().find_map(|op| {
            let at = op.operands.iter().position(|&v| v == Ref::Arg(i))?;
            let read = |k: usize| program.shape(op.operands[k]).to_vec();
            let below = |n: usize| Data::Below(n as i64);
            match (&op.kind, at) {
                (Kind::Embedding, 0) => Some(below(read(1)[0])),
                (
                    Kind::CrossEntropy {
                        ignore_index: Some(ignored),
                    },
                    1,
                ) => Some(Data::Labels {
                    below: *read(0).last()? as i64,
                    ignored: *ignored,
                }),
                (Kind::TakeAlong | Kind::CrossEntropy { .. }, 1) => read(0).last().map(|&n| below(n)),
                // A boolean argument: false or true.
                (Kind::Select, 0) => Some(below(2)),
                _ => None,
            }
        });
        program.args[i].data = data.unwrap_or(Data::Below(1));
    }
}
