//! Building attributes and types that melior has no constructor for: the
//! dialect's reduction kind, constants by value, affine maps, and the
//! upstream GPU, NVVM and linalg attributes the lowerings write. Built, not
//! parsed: a mistake is a Rust error at its site, not text that fails to
//! parse later.

use crate::ffi;
use crate::model::ReductionKind;
use melior::ir::attribute::{DenseElementsAttribute, FloatAttribute, IntegerAttribute};
use melior::ir::r#type::RankedTensorType;
use melior::ir::{Attribute, AttributeLike, Type, TypeLike};
use melior::{Context, StringRef};
use mlir_sys::{
    MlirAffineExpr, mlirAffineAddExprGet, mlirAffineConstantExprGet, mlirAffineDimExprGet, mlirAffineMapAttrGet,
    mlirAffineMapGet, mlirFlatSymbolRefAttrGet, mlirGPUAsyncTokenTypeGet, mlirGPUObjectAttrGet,
    mlirLLVMStructTypeLiteralGet, mlirSymbolRefAttrGet,
};

/// `#dist<kind sum>` and the other kinds of a collective.
pub fn reduction_kind_attribute(context: &Context, kind: ReductionKind) -> Attribute<'_> {
    // SAFETY: the context is live; every kind has an attribute.
    unsafe { Attribute::from_raw(ffi::distReductionKindAttrGet(context.to_raw(), kind.to_raw())) }
}

/// `tensor<shape x element>`, static.
pub fn tensor_type<'c>(shape: &[i64], element: Type<'c>) -> Type<'c> {
    let dims: Vec<u64> = shape.iter().map(|&d| d as u64).collect();
    RankedTensorType::new(&dims, element, None).into()
}

/// A tensor of type `ty` (float or integer elements, index included) whose
/// every element is `value`, rounded to the element type.
pub fn splat_attribute<'c>(context: &'c Context, ty: Type<'c>, value: f64) -> Attribute<'c> {
    let element = crate::ir::element_type(ty);
    let scalar: Attribute = if element.is_float() {
        FloatAttribute::new(context, element, value).into()
    } else {
        IntegerAttribute::new(element, value as i64).into()
    };
    dense(ty, &[scalar])
}

/// A tensor of type `ty` holding `values` (integers or indices), in order.
pub fn integer_elements_attribute<'c>(ty: Type<'c>, values: &[i64]) -> Attribute<'c> {
    let element = crate::ir::element_type(ty);
    let values: Vec<Attribute> = values
        .iter()
        .map(|&v| IntegerAttribute::new(element, v).into())
        .collect();
    dense(ty, &values)
}

fn dense<'c>(ty: Type<'c>, values: &[Attribute<'c>]) -> Attribute<'c> {
    DenseElementsAttribute::new(ty, values)
        .expect("a shaped type with elements of its element type")
        .into()
}

/// A result of an affine map: `d3`, `d3 + 2`, or a constant.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum AffineResult {
    Dim(usize),
    Shifted(usize, i64),
    Constant(i64),
}

/// `affine_map<(d0, ..., d{dims-1}) -> (results)>` as an attribute.
pub fn affine_map_attribute<'c>(context: &'c Context, dims: usize, results: &[AffineResult]) -> Attribute<'c> {
    let raw = context.to_raw();
    // SAFETY: every expression is built in the live context and used
    // before the call returns; the map copies the expression handles.
    unsafe {
        let dim = |d: usize| mlirAffineDimExprGet(raw, d as isize);
        let exprs: Vec<MlirAffineExpr> = results
            .iter()
            .map(|result| match *result {
                AffineResult::Dim(d) => dim(d),
                AffineResult::Shifted(d, by) => mlirAffineAddExprGet(dim(d), mlirAffineConstantExprGet(raw, by)),
                AffineResult::Constant(c) => mlirAffineConstantExprGet(raw, c),
            })
            .collect();
        let map = mlirAffineMapGet(raw, dims as isize, 0, exprs.len() as isize, exprs.as_ptr().cast_mut());
        Attribute::from_raw(mlirAffineMapAttrGet(map))
    }
}

/// `#linalg.iterator_type<reduction>` or `<parallel>`.
pub fn iterator_type_attribute(context: &Context, reduction: bool) -> Attribute<'_> {
    let name = if reduction { "reduction" } else { "parallel" };
    // SAFETY: the context is live and the name one of the enum's words.
    unsafe {
        Attribute::from_raw(ffi::distLinalgIteratorTypeAttrGet(
            context.to_raw(),
            StringRef::new(name).to_raw(),
        ))
    }
}

/// `#gpu.select_object<index : i64>`: which object of a `gpu.binary` loads.
pub fn select_object_attribute(context: &Context, index: i64) -> Attribute<'_> {
    let target = IntegerAttribute::new(melior::ir::r#type::IntegerType::new(context, 64).into(), index);
    // SAFETY: the context and the target attribute are live.
    unsafe { Attribute::from_raw(ffi::distGPUSelectObjectAttrGet(context.to_raw(), target.to_raw())) }
}

/// `#gpu.object<#nvvm.target<chip = chip>, assembly = "ptx">`: PTX for a
/// `gpu.binary`.
pub fn ptx_object_attribute<'c>(context: &'c Context, chip: &str, ptx: &str) -> Attribute<'c> {
    /// `gpu::CompilationTarget::Assembly`.
    const ASSEMBLY: u32 = 2;
    // SAFETY: the context is live; the attributes copy the strings.
    unsafe {
        let target = ffi::distNVVMTargetAttrGet(context.to_raw(), StringRef::new(chip).to_raw());
        let no_properties = mlir_sys::MlirAttribute { ptr: std::ptr::null() };
        Attribute::from_raw(mlirGPUObjectAttrGet(
            context.to_raw(),
            target,
            ASSEMBLY,
            StringRef::new(ptx).to_raw(),
            no_properties,
        ))
    }
}

/// `#nvvm.mma_layout<row>` or `<col>`.
pub fn mma_layout_attribute(context: &Context, column: bool) -> Attribute<'_> {
    let name = if column { "col" } else { "row" };
    // SAFETY: the context is live and the name one of the enum's words.
    unsafe {
        Attribute::from_raw(ffi::distNVVMMMALayoutAttrGet(
            context.to_raw(),
            StringRef::new(name).to_raw(),
        ))
    }
}

/// `#nvvm.mma_type<name>` (`bf16`, `f16`, `tf32`, ...); `None` for a name
/// that is not one.
pub fn mma_type_attribute<'c>(context: &'c Context, name: &str) -> Option<Attribute<'c>> {
    // SAFETY: the context is live; a null result is an unknown name.
    unsafe {
        Attribute::from_option_raw(ffi::distNVVMMMATypesAttrGet(
            context.to_raw(),
            StringRef::new(name).to_raw(),
        ))
    }
}

/// `#nvvm.shape<m = m, n = n, k = k>`.
pub fn mma_shape_attribute(context: &Context, [m, n, k]: [i32; 3]) -> Attribute<'_> {
    // SAFETY: the context is live.
    unsafe { Attribute::from_raw(ffi::distNVVMMMAShapeAttrGet(context.to_raw(), m, n, k)) }
}

/// `!llvm.struct<(fields)>`, a literal (unnamed, unpacked) struct.
pub fn llvm_struct_type<'c>(context: &'c Context, fields: &[Type<'c>]) -> Type<'c> {
    let raw: Vec<_> = fields.iter().map(|t| t.to_raw()).collect();
    // SAFETY: the field types live in the context; the call copies them.
    unsafe {
        Type::from_raw(mlirLLVMStructTypeLiteralGet(
            context.to_raw(),
            raw.len() as isize,
            raw.as_ptr(),
            false,
        ))
    }
}

/// `@root::@nested...`: a symbol nested in the symbol tables of `root`.
pub fn symbol_ref_attribute<'c>(context: &'c Context, root: &str, nested: &[&str]) -> Attribute<'c> {
    // SAFETY: the context is live; the attributes copy the strings, and the
    // nested references live in the context.
    unsafe {
        let nested: Vec<_> = nested
            .iter()
            .map(|name| mlirFlatSymbolRefAttrGet(context.to_raw(), StringRef::new(name).to_raw()))
            .collect();
        Attribute::from_raw(mlirSymbolRefAttrGet(
            context.to_raw(),
            StringRef::new(root).to_raw(),
            nested.len() as isize,
            nested.as_ptr(),
        ))
    }
}

/// `!gpu.async.token`.
pub fn gpu_async_token_type(context: &Context) -> Type<'_> {
    // SAFETY: the context is live.
    unsafe { Type::from_raw(mlirGPUAsyncTokenTypeGet(context.to_raw())) }
}

/// `{name = value, ...}`: a dictionary attribute of `entries` (MLIR sorts
/// them by name).
pub fn dictionary_attribute<'c>(context: &'c Context, entries: &[(&str, Attribute<'c>)]) -> Attribute<'c> {
    // SAFETY: the context is live; the identifiers copy the names, and the
    // named attributes are read during the call only.
    unsafe {
        let named: Vec<mlir_sys::MlirNamedAttribute> = entries
            .iter()
            .map(|(name, value)| {
                mlir_sys::mlirNamedAttributeGet(
                    mlir_sys::mlirIdentifierGet(context.to_raw(), StringRef::new(name).to_raw()),
                    value.to_raw(),
                )
            })
            .collect();
        Attribute::from_raw(mlir_sys::mlirDictionaryAttrGet(
            context.to_raw(),
            named.len() as isize,
            named.as_ptr(),
        ))
    }
}

/// The entry `name` of a dictionary attribute (`None`: not a dictionary, or
/// no such entry).
pub fn dictionary_entry<'c>(dictionary: Attribute<'c>, name: &str) -> Option<Attribute<'c>> {
    // SAFETY: the attribute is live; a null result means no entry.
    unsafe {
        if !mlir_sys::mlirAttributeIsADictionary(dictionary.to_raw()) {
            return None;
        }
        Attribute::from_option_raw(mlir_sys::mlirDictionaryAttrGetElementByName(
            dictionary.to_raw(),
            StringRef::new(name).to_raw(),
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ir::context_with_all_dialects;
    use melior::ir::r#type::RankedTensorType;

    /// Each builder gives the attribute its text spells.
    #[test]
    fn built_as_printed() {
        let context = context_with_all_dialects();
        context.load_all_available_dialects();
        let parsed = |text: &str| Attribute::parse(&context, text).expect(text);
        let f32_tensor = RankedTensorType::new(&[2, 3], Type::float32(&context), None).into();
        let index_tensor = RankedTensorType::new(&[2], Type::index(&context), None).into();
        assert_eq!(
            reduction_kind_attribute(&context, ReductionKind::Max),
            parsed("#dist<kind max>")
        );
        assert_eq!(
            splat_attribute(&context, f32_tensor, 0.5),
            parsed("dense<5.0e-01> : tensor<2x3xf32>")
        );
        assert_eq!(
            integer_elements_attribute(index_tensor, &[4, 7]),
            parsed("dense<[4, 7]> : tensor<2xindex>")
        );
        assert_eq!(
            affine_map_attribute(
                &context,
                3,
                &[
                    AffineResult::Dim(2),
                    AffineResult::Shifted(0, 1),
                    AffineResult::Constant(0)
                ]
            ),
            parsed("affine_map<(d0, d1, d2) -> (d2, d0 + 1, 0)>")
        );
        assert_eq!(
            iterator_type_attribute(&context, true),
            parsed("#linalg.iterator_type<reduction>")
        );
        assert_eq!(select_object_attribute(&context, 0), parsed("#gpu.select_object<0>"));
        assert_eq!(
            ptx_object_attribute(&context, "sm_90", ".target sm_90\n"),
            parsed("#gpu.object<#nvvm.target<chip = \"sm_90\">, assembly = \".target sm_90\\0A\">")
        );
        assert_eq!(mma_layout_attribute(&context, true), parsed("#nvvm.mma_layout<col>"));
        assert_eq!(
            mma_type_attribute(&context, "bf16"),
            Some(parsed("#nvvm.mma_type<bf16>"))
        );
        assert_eq!(mma_type_attribute(&context, "bf17"), None);
        assert_eq!(
            mma_shape_attribute(&context, [16, 8, 16]),
            parsed("#nvvm.shape<m = 16, n = 8, k = 16>")
        );
        assert_eq!(
            symbol_ref_attribute(&context, "kernels", &["k_1"]),
            parsed("@kernels::@k_1")
        );
        let f32 = Type::float32(&context);
        assert_eq!(
            llvm_struct_type(&context, &[f32, f32]),
            Type::parse(&context, "!llvm.struct<(f32, f32)>").unwrap()
        );
        assert_eq!(
            gpu_async_token_type(&context),
            Type::parse(&context, "!gpu.async.token").unwrap()
        );
    }
}
