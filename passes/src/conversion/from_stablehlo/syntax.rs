//! The textual forms of the StableHLO and Shardy attributes the importer
//! reads. This build has neither dialect, so `--allow-unregistered-dialect`
//! parses their attributes as opaque text; these functions read that text.
//! Each returns a [`SyntaxError`] naming what it could not read.

use dist_dialect::ir::tensor_type_text;
use thiserror::Error;

/// Text of an attribute the importer could not read.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum SyntaxError {
    #[error("cannot read the constant '{0}'")]
    Constant(String),
    #[error("cannot read the attribute '{0}'")]
    Attribute(String),
    #[error("cannot read '{field}' in '{text}'")]
    Field { field: String, text: String },
    #[error("cannot read the integers '{0}'")]
    Integers(String),
    #[error("cannot import the mesh '{text}': {why}")]
    Mesh { text: String, why: &'static str },
    #[error("cannot import the sharding '{text}': {why}")]
    Sharding { text: String, why: &'static str },
}

/// A ranked tensor type of static shape, `tensor<2x8xf32>`.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct TensorTy {
    pub shape: Vec<i64>,
    pub element: String,
}

impl TensorTy {
    pub fn new(shape: Vec<i64>, element: &str) -> Self {
        Self {
            shape,
            element: element.to_owned(),
        }
    }

    /// `tensor<2x8xf32>` or `tensor<f32>`; `None` for any other type.
    pub fn parse(text: &str) -> Option<Self> {
        let inner = text.trim().strip_prefix("tensor<")?.strip_suffix('>')?;
        let mut parts: Vec<&str> = inner.split('x').collect();
        let element = parts.pop()?;
        let shape = parts
            .iter()
            .map(|d| d.parse::<i64>().ok().filter(|d| *d >= 0))
            .collect::<Option<_>>()?;
        (!element.is_empty() && !element.contains(['<', ',', '?'])).then(|| Self::new(shape, element))
    }

    pub fn text(&self) -> String {
        tensor_type_text(&self.shape, &self.element)
    }

    /// The element count (saturating: a count past i64 is refused
    /// wherever it matters).
    pub fn elements(&self) -> i64 {
        self.shape
            .iter()
            .try_fold(1i64, |n, &d| n.checked_mul(d))
            .unwrap_or(i64::MAX)
    }

    pub fn is_float(&self) -> bool {
        matches!(self.element.as_str(), "f16" | "bf16" | "f32" | "f64")
    }

    /// The same element type with another shape.
    pub fn with_shape(&self, shape: Vec<i64>) -> Self {
        Self::new(shape, &self.element)
    }

    pub fn with_element(&self, element: &str) -> Self {
        Self::new(self.shape.clone(), element)
    }
}

/// A `dense<...> : tensor<...>` literal: one element text per element, or
/// one for a splat.
#[derive(Debug, Clone, PartialEq)]
pub struct Dense {
    pub ty: TensorTy,
    /// The splat's element as printed, which a rank-0 constant reuses.
    pub splat: Option<String>,
    /// Every element, or the one value of a splat.
    pub values: Vec<f64>,
}

/// The largest finite value of a float type (f64's for any other).
pub fn largest_finite(element: &str) -> f64 {
    match element {
        "f16" => 65504.0,
        "bf16" => 3.3895313892515355e38,
        "f32" => f64::from(f32::MAX),
        _ => f64::MAX,
    }
}

impl Dense {
    pub fn parse(text: &str) -> Result<Self, SyntaxError> {
        let bad = || SyntaxError::Constant(text.to_owned());
        let rest = text.trim().strip_prefix("dense<").ok_or_else(bad)?;
        let (body, ty) = rest.rsplit_once("> : ").ok_or_else(bad)?;
        let ty = TensorTy::parse(ty).ok_or_else(bad)?;
        let body = body.trim();
        if let Some(hex) = body.strip_prefix("\"0x").and_then(|h| h.strip_suffix('"')) {
            let values = hex_elements(hex, &ty.element).ok_or_else(bad)?;
            return if values.len() == 1 || values.len() as i64 == ty.elements() {
                Ok(Self {
                    splat: None,
                    values,
                    ty,
                })
            } else {
                Err(bad())
            };
        }
        if !body.starts_with('[') {
            let value = element_value(body, &ty.element).ok_or_else(bad)?;
            return Ok(Self {
                splat: Some(body.to_owned()),
                values: vec![value],
                ty,
            });
        }
        let values = body
            .split(|c: char| c == ',' || c == '[' || c == ']' || c.is_whitespace())
            .filter(|t| !t.is_empty())
            .map(|t| element_value(t, &ty.element))
            .collect::<Option<Vec<f64>>>()
            .ok_or_else(bad)?;
        if values.len() as i64 != ty.elements() {
            return Err(bad());
        }
        Ok(Self {
            splat: None,
            values,
            ty,
        })
    }
}

/// One element as MLIR prints it for `element`: a decimal or hexadecimal
/// float (the latter a bit pattern), an integer, or `true`/`false`.
pub fn element_value(text: &str, element: &str) -> Option<f64> {
    match text {
        "true" => return Some(1.0),
        "false" => return Some(0.0),
        _ => {}
    }
    if let Some(hex) = text.strip_prefix("0x") {
        return float_bits(u64::from_str_radix(hex, 16).ok()?, element);
    }
    text.parse::<f64>().ok()
}

/// The float `element` whose bits are `bits`.
fn float_bits(bits: u64, element: &str) -> Option<f64> {
    match element {
        "f64" => Some(f64::from_bits(bits)),
        "f32" => Some(f32::from_bits(u32::try_from(bits).ok()?) as f64),
        "bf16" => Some(f32::from_bits(u32::from(u16::try_from(bits).ok()?) << 16) as f64),
        "f16" => Some(half_to_f64(u16::try_from(bits).ok()?)),
        _ => None,
    }
}

fn half_to_f64(bits: u16) -> f64 {
    let sign = if bits >> 15 == 1 { -1.0 } else { 1.0 };
    let exponent = i32::from((bits >> 10) & 0x1f);
    let fraction = f64::from(bits & 0x3ff);
    sign * match exponent {
        0 => fraction * 2f64.powi(-24),
        31 if fraction == 0.0 => f64::INFINITY,
        31 => f64::NAN,
        e => (1.0 + fraction / 1024.0) * 2f64.powi(e - 15),
    }
}

/// The elements of a `"0x..."` blob: little-endian, as MLIR stores them.
fn hex_elements(hex: &str, element: &str) -> Option<Vec<f64>> {
    let width = match element {
        "f64" | "i64" => 8,
        "f32" | "i32" => 4,
        "bf16" | "f16" | "i16" => 2,
        "i8" | "i1" => 1,
        _ => return None,
    };
    let bytes = (0..hex.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(hex.get(i..i + 2)?, 16).ok())
        .collect::<Option<Vec<u8>>>()?;
    if bytes.len() % width != 0 {
        return None;
    }
    bytes
        .chunks(width)
        .map(|chunk| {
            let bits = chunk.iter().rev().fold(0u64, |acc, b| acc << 8 | u64::from(*b));
            if element.starts_with('i') {
                let shift = 64 - 8 * width as u32;
                Some(((bits << shift) as i64 >> shift) as f64)
            } else {
                float_bits(bits, element)
            }
        })
        .collect()
}

/// The `key = value` fields of `#dialect.name<key = value, ...>`, split at
/// top-level commas.
pub fn fields(text: &str) -> Result<Vec<(String, String)>, SyntaxError> {
    let inner = text
        .trim()
        .split_once('<')
        .and_then(|(_, rest)| rest.strip_suffix('>'))
        .ok_or_else(|| SyntaxError::Attribute(text.to_owned()))?;
    split_top_level(inner)
        .into_iter()
        .filter(|f| !f.is_empty())
        .map(|field| {
            field
                .split_once('=')
                .map(|(k, v)| (k.trim().to_owned(), v.trim().to_owned()))
                .ok_or_else(|| SyntaxError::Field {
                    field: field.to_owned(),
                    text: text.to_owned(),
                })
        })
        .collect()
}

/// `text` split at the commas outside brackets, braces, angles and quotes.
pub fn split_top_level(text: &str) -> Vec<&str> {
    let (mut depth, mut quoted, mut start) = (0i32, false, 0);
    let mut parts = Vec::new();
    for (i, c) in text.char_indices() {
        match c {
            '"' => quoted = !quoted,
            '[' | '{' | '<' | '(' if !quoted => depth += 1,
            ']' | '}' | '>' | ')' if !quoted => depth -= 1,
            ',' if !quoted && depth == 0 => {
                parts.push(text[start..i].trim());
                start = i + 1;
            }
            _ => {}
        }
    }
    parts.push(text[start..].trim());
    parts
}

/// `[0, 1]` (or a bare integer, a one-entry list) as integers.
pub fn int_list(text: &str) -> Result<Vec<i64>, SyntaxError> {
    let body = text.trim();
    let body = body.strip_prefix('[').and_then(|b| b.strip_suffix(']')).unwrap_or(body);
    body.split(',')
        .map(str::trim)
        .filter(|t| !t.is_empty())
        .map(|t| t.parse::<i64>().map_err(|_| SyntaxError::Integers(text.to_owned())))
        .collect()
}

/// The named integer lists of a dimension-numbers attribute
/// (`#stablehlo.dot<...>`, `#stablehlo.gather<...>`); absent names are
/// empty lists.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct DimNumbers(Vec<(String, Vec<i64>)>);

impl DimNumbers {
    pub fn parse(text: &str) -> Result<Self, SyntaxError> {
        fields(text)?
            .into_iter()
            .map(|(k, v)| Ok((k, int_list(&v)?)))
            .collect::<Result<_, SyntaxError>>()
            .map(Self)
    }

    pub fn get(&self, name: &str) -> &[i64] {
        self.0.iter().find(|(k, _)| k == name).map_or(&[], |(_, v)| v)
    }
}

/// The last word of `#stablehlo<comparison_direction LT>`.
pub fn enum_word(text: &str) -> Option<&str> {
    text.trim().strip_suffix('>')?.rsplit([' ', '<']).next()
}

/// A Shardy mesh `#sdy.mesh<["dp"=2, "tp"=2]>`: its axes, in order.
pub fn sdy_mesh(text: &str) -> Result<Vec<(String, i64)>, SyntaxError> {
    let bad = |why| SyntaxError::Mesh {
        text: text.to_owned(),
        why,
    };
    let inner = text
        .trim()
        .strip_prefix("#sdy.mesh<")
        .and_then(|t| t.strip_suffix('>'))
        .ok_or_else(|| bad("not a #sdy.mesh"))?;
    let parts = split_top_level(inner);
    if parts.len() != 1 {
        return Err(bad("device ids are not supported"));
    }
    let axes = parts[0]
        .strip_prefix('[')
        .and_then(|t| t.strip_suffix(']'))
        .ok_or_else(|| bad("no axis list"))?;
    let axes: Vec<(String, i64)> = split_top_level(axes)
        .into_iter()
        .filter(|a| !a.is_empty())
        .map(|axis| {
            let (name, size) = axis.split_once('=').ok_or_else(|| bad("an axis without a size"))?;
            let name = unquote(name).ok_or_else(|| bad("an axis name is not a string"))?;
            let size = size.trim().parse().map_err(|_| bad("an axis size is not an integer"))?;
            Ok((name, size))
        })
        .collect::<Result<_, SyntaxError>>()?;
    if axes.is_empty() {
        return Err(bad("a mesh without axes (a single device) is not supported"));
    }
    Ok(axes)
}

/// A Shardy sharding `#sdy.sharding<@mesh, [{"dp"}, {}]>`: the mesh's
/// name and each dim's axes, major to minor. Open dims (`?`), sub-axes,
/// priorities and replicated/unreduced axes have no dist form.
pub fn sdy_sharding(text: &str) -> Result<(String, Vec<Vec<String>>), SyntaxError> {
    let bad = |why| SyntaxError::Sharding {
        text: text.to_owned(),
        why,
    };
    let inner = text
        .trim()
        .strip_prefix("#sdy.sharding<")
        .and_then(|t| t.strip_suffix('>'))
        .ok_or_else(|| bad("not a #sdy.sharding"))?;
    let parts = split_top_level(inner);
    let mesh = parts[0]
        .strip_prefix('@')
        .ok_or_else(|| bad("the mesh is not a symbol reference"))?;
    match parts.as_slice() {
        [_, _] => {}
        [_] => return Err(bad("no dimension list")),
        _ => return Err(bad("replicated and unreduced axes are not supported")),
    }
    let dims = parts[1]
        .strip_prefix('[')
        .and_then(|t| t.strip_suffix(']'))
        .ok_or_else(|| bad("no dimension list"))?;
    let dims = split_top_level(dims)
        .into_iter()
        .filter(|d| !d.is_empty())
        .map(|dim| {
            let axes = dim
                .strip_prefix('{')
                .and_then(|d| d.strip_suffix('}'))
                .ok_or_else(|| bad("a priority on a dimension is not supported"))?;
            split_top_level(axes)
                .into_iter()
                .filter(|a| !a.is_empty())
                .map(|axis| match axis {
                    "?" => Err(bad("open dimensions (?) are not supported")),
                    _ => unquote(axis).ok_or_else(|| bad("sub-axes are not supported")),
                })
                .collect()
        })
        .collect::<Result<_, SyntaxError>>()?;
    Ok((mesh.to_owned(), dims))
}

/// `"dp"` -> `dp`; `None` if `text` is not one quoted word.
fn unquote(text: &str) -> Option<String> {
    let word = text.trim().strip_prefix('"')?.strip_suffix('"')?;
    (!word.contains('"')).then(|| word.to_owned())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tensor_types() {
        assert_eq!(
            TensorTy::parse("tensor<2x8xf32>"),
            Some(TensorTy::new(vec![2, 8], "f32"))
        );
        assert_eq!(TensorTy::parse("tensor<i1>"), Some(TensorTy::new(vec![], "i1")));
        assert_eq!(TensorTy::parse("tensor<?x8xf32>"), None);
        assert_eq!(TensorTy::parse("memref<8xf32>"), None);
        assert_eq!(TensorTy::new(vec![2, 8], "f32").text(), "tensor<2x8xf32>");
    }

    #[test]
    fn dense_literals() {
        let d = Dense::parse("dense<1.600000e+01> : tensor<f32>").unwrap();
        assert_eq!(
            (d.splat.as_deref(), d.values.as_slice()),
            (Some("1.600000e+01"), &[16.0][..])
        );
        let d = Dense::parse("dense<0xFF800000> : tensor<f32>").unwrap();
        assert_eq!(d.values, [f64::NEG_INFINITY]);
        assert!(Dense::parse("dense<0x7FC00000> : tensor<f32>").unwrap().values[0].is_nan());
        let d = Dense::parse("dense<true> : tensor<2xi1>").unwrap();
        assert_eq!(d.values, [1.0]);
        let d = Dense::parse("dense<[[1, 2], [3, -4]]> : tensor<2x2xi32>").unwrap();
        assert_eq!((d.splat, d.values), (None, vec![1.0, 2.0, 3.0, -4.0]));
        let d = Dense::parse("dense<\"0x0000803F000000C0\"> : tensor<2xf32>").unwrap();
        assert_eq!(d.values, [1.0, -2.0]);
        let d = Dense::parse("dense<\"0xFFFFFFFF\"> : tensor<1xi32>").unwrap();
        assert_eq!(d.values, [-1.0]);
        assert_eq!(Dense::parse("dense<0x3C00> : tensor<f16>").unwrap().values, [1.0]);
        assert_eq!(Dense::parse("dense<0x3F80> : tensor<bf16>").unwrap().values, [1.0]);
        assert!(Dense::parse("dense<[1, 2]> : tensor<3xi32>").is_err());
        assert!(Dense::parse("sparse<0> : tensor<f32>").is_err());
    }

    #[test]
    fn dimension_numbers() {
        let d = DimNumbers::parse(
            "#stablehlo.dot<lhs_batching_dimensions = [0, 1], rhs_batching_dimensions = [0, 1], \
             lhs_contracting_dimensions = [3], rhs_contracting_dimensions = [2]>",
        )
        .unwrap();
        assert_eq!(d.get("lhs_batching_dimensions"), [0, 1]);
        assert_eq!(d.get("rhs_contracting_dimensions"), [2]);
        assert_eq!(d.get("absent"), [] as [i64; 0]);
        let g = DimNumbers::parse(
            "#stablehlo.gather<offset_dims = [2], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 2>",
        )
        .unwrap();
        assert_eq!(g.get("index_vector_dim"), [2]);
        assert_eq!(enum_word("#stablehlo<comparison_direction GE>"), Some("GE"));
    }

    #[test]
    fn shardy_meshes_and_shardings() {
        assert_eq!(
            sdy_mesh("#sdy.mesh<[\"dp\"=2, \"tp\"=4]>").unwrap(),
            [("dp".to_owned(), 2), ("tp".to_owned(), 4)]
        );
        assert!(
            sdy_mesh("#sdy.mesh<[\"a\"=2], device_ids=[1, 0]>")
                .unwrap_err()
                .to_string()
                .contains("device ids")
        );
        assert!(
            sdy_mesh("#sdy.mesh<[]>")
                .unwrap_err()
                .to_string()
                .contains("without axes")
        );
        let (mesh, dims) = sdy_sharding("#sdy.sharding<@mesh, [{\"dp\", \"tp\"}, {}]>").unwrap();
        assert_eq!(
            (mesh.as_str(), dims),
            ("mesh", vec![vec!["dp".to_owned(), "tp".to_owned()], vec![]])
        );
        assert_eq!(
            sdy_sharding("#sdy.sharding<@mesh, []>").unwrap().1,
            Vec::<Vec<String>>::new()
        );
        assert!(
            sdy_sharding("#sdy.sharding<@mesh, [{\"dp\", ?}]>")
                .unwrap_err()
                .to_string()
                .contains("open dimensions")
        );
        assert!(
            sdy_sharding("#sdy.sharding<@mesh, [{\"dp\":(1)2}]>")
                .unwrap_err()
                .to_string()
                .contains("sub-axes")
        );
        assert!(
            sdy_sharding("#sdy.sharding<@mesh, [{}], replicated={\"tp\"}>")
                .unwrap_err()
                .to_string()
                .contains("replicated")
        );
    }
}
