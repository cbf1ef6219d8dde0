//! `.npy` files (little-endian, C order): what `dist-run` feeds a program
//! and writes back, and which arrays a program argument accepts.
//!
//! An argument takes an array of exactly its global shape. An `f32`
//! argument takes float32, or float64 rounded to the nearest float32 (as
//! JAX does without x64); an `f64` argument takes float64, or float32
//! widened exactly; a `bf16` argument takes bfloat16 (ml_dtypes' type, as
//! JAX saves it: numpy writes it as the 2-byte void `'<V2'`), or float32 or
//! float64 rounded to the nearest bfloat16 through float32 (as ml_dtypes'
//! `astype` does); an `i64` argument (token ids) takes int64, or int32
//! widened exactly; an `i1` argument (a mask) takes bool. Nothing else converts: an integer array for a float
//! argument, or a float array for token ids, is an error. Results are
//! written in the program's element type.

use std::io::{Read, Write};

/// The element types a program reads and writes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Element {
    F32,
    F64,
    BF16,
    I32,
    I64,
    /// numpy's bool: one byte, 0 or 1.
    Bool,
}

const ELEMENTS: [Element; 6] = [
    Element::F32,
    Element::F64,
    Element::BF16,
    Element::I32,
    Element::I64,
    Element::Bool,
];

impl Element {
    fn descr(self) -> &'static str {
        match self {
            Self::F32 => "<f4",
            Self::F64 => "<f8",
            // numpy has no bfloat16 of its own: it saves ml_dtypes' type as
            // raw 2-byte records, which `np.load(...).view(bfloat16)` reads.
            Self::BF16 => "<V2",
            Self::I32 => "<i4",
            Self::I64 => "<i8",
            Self::Bool => "|b1",
        }
    }

    fn from_descr(descr: &str) -> Option<Self> {
        ELEMENTS.into_iter().find(|e| e.descr() == descr)
    }

    /// numpy's name of the dtype.
    pub fn name(self) -> &'static str {
        match self {
            Self::F32 => "float32",
            Self::F64 => "float64",
            Self::BF16 => "bfloat16",
            Self::I32 => "int32",
            Self::I64 => "int64",
            Self::Bool => "bool",
        }
    }

    fn size(self) -> usize {
        match self {
            Self::Bool => 1,
            Self::BF16 => 2,
            Self::F32 | Self::I32 => 4,
            Self::F64 | Self::I64 => 8,
        }
    }
}

/// An array as read from a file: its shape, element type and raw bytes.
#[derive(Debug, Clone, PartialEq)]
pub struct Array {
    pub shape: Vec<i64>,
    pub element: Element,
    pub data: Vec<u8>,
}

impl Array {
    /// The elements as f64 (for conversion into the program's type).
    pub fn to_f64(&self) -> Vec<f64> {
        let n = self.element.size();
        self.data
            .chunks_exact(n)
            .map(|c| match self.element {
                Element::F32 => f64::from(f32::from_le_bytes(c.try_into().expect("4 bytes"))),
                Element::F64 => f64::from_le_bytes(c.try_into().expect("8 bytes")),
                Element::BF16 => f64::from(bf16_to_f32(u16::from_le_bytes(c.try_into().expect("2 bytes")))),
                Element::I32 => f64::from(i32::from_le_bytes(c.try_into().expect("4 bytes"))),
                Element::I64 => i64::from_le_bytes(c.try_into().expect("8 bytes")) as f64,
                Element::Bool => f64::from(u8::from(c[0] != 0)),
            })
            .collect()
    }
}

fn bad(path: &str, why: &str) -> String {
    format!("{path}: not a supported .npy file ({why})")
}

/// The dtypes an argument of MLIR element type `element` accepts, or `None`
/// if programs cannot take such arguments.
pub fn accepted(element: &str) -> Option<&'static [Element]> {
    match element {
        "f32" => Some(&[Element::F32, Element::F64]),
        "f64" => Some(&[Element::F64, Element::F32]),
        "bf16" => Some(&[Element::BF16, Element::F32, Element::F64]),
        "i32" => Some(&[Element::I32]),
        "i64" => Some(&[Element::I64, Element::I32]),
        "i1" => Some(&[Element::Bool]),
        _ => None,
    }
}

/// `(8, 64)`: a shape as numpy prints it.
pub fn shape_text(shape: &[i64]) -> String {
    match shape {
        [d] => format!("({d},)"),
        _ => format!("({})", shape.iter().map(i64::to_string).collect::<Vec<_>>().join(", ")),
    }
}

/// Why an array of `shape` and `dtype` cannot feed an argument of `expected`
/// shape and MLIR element type `element`, if it cannot.
pub fn mismatch(shape: &[i64], dtype: Element, expected: &[i64], element: &str) -> Option<String> {
    let dtypes = accepted(element)?;
    if shape != expected {
        return Some(format!(
            "shape {} where the argument is {}",
            shape_text(shape),
            shape_text(expected)
        ));
    }
    (!dtypes.contains(&dtype)).then(|| {
        let names: Vec<&str> = dtypes.iter().map(|d| d.name()).collect();
        format!(
            "dtype {} where the argument is {element} (give {})",
            dtype.name(),
            names.join(" or ")
        )
    })
}

/// An array's shape and dtype, and where its data starts.
#[derive(Debug, Clone, PartialEq)]
pub struct Header {
    pub shape: Vec<i64>,
    pub element: Element,
    data_offset: usize,
}

impl Header {
    fn data_bytes(&self) -> usize {
        self.shape.iter().product::<i64>() as usize * self.element.size()
    }
}

/// Parses the header at the start of `bytes` (all or the head of a file).
fn parse_header(path: &str, bytes: &[u8]) -> Result<Header, String> {
    if bytes.len() < 10 || &bytes[..6] != b"\x93NUMPY" {
        return Err(bad(path, "no NUMPY magic"));
    }
    let (header_len, start) = match bytes[6] {
        1 => (u16::from_le_bytes([bytes[8], bytes[9]]) as usize, 10),
        2 | 3 if bytes.len() >= 12 => (
            u32::from_le_bytes([bytes[8], bytes[9], bytes[10], bytes[11]]) as usize,
            12,
        ),
        _ => return Err(bad(path, "unknown version")),
    };
    let header = std::str::from_utf8(
        bytes
            .get(start..start + header_len)
            .ok_or_else(|| bad(path, "short header"))?,
    )
    .map_err(|_| bad(path, "header is not text"))?;
    let field = |key: &str| {
        let at = header.find(&format!("'{key}'"))? + key.len() + 2;
        Some(
            header[at..]
                .trim_start()
                .trim_start_matches(':')
                .trim_start()
                .to_owned(),
        )
    };
    let descr = field("descr").and_then(|d| d.split('\'').nth(1).map(str::to_owned));
    let element = descr.as_deref().and_then(Element::from_descr).ok_or_else(|| {
        bad(
            path,
            "dtype must be float32, float64, bfloat16, int32, int64 or bool, little-endian",
        )
    })?;
    if field("fortran_order").is_some_and(|f| f.starts_with("True")) {
        return Err(bad(path, "Fortran order"));
    }
    let shape_text = field("shape").ok_or_else(|| bad(path, "no shape"))?;
    let inner = shape_text
        .strip_prefix('(')
        .and_then(|s| s.split(')').next())
        .ok_or_else(|| bad(path, "bad shape"))?;
    let shape = inner
        .split(',')
        .map(str::trim)
        .filter(|s| !s.is_empty())
        .map(|s| {
            s.parse::<i64>()
                .ok()
                .filter(|&d| d >= 0)
                .ok_or_else(|| bad(path, "bad shape"))
        })
        .collect::<Result<Vec<_>, _>>()?;
    Ok(Header {
        shape,
        element,
        data_offset: start + header_len,
    })
}

/// Reads the header of `path` (its first 64 KiB at most).
pub fn read_header(path: &str) -> Result<Header, String> {
    let mut head = Vec::new();
    std::fs::File::open(path)
        .and_then(|f| f.take(1 << 16).read_to_end(&mut head))
        .map_err(|e| format!("{path}: {e}"))?;
    parse_header(path, &head)
}

/// Reads `path`.
pub fn read(path: &str) -> Result<Array, String> {
    let mut bytes = Vec::new();
    std::fs::File::open(path)
        .and_then(|mut f| f.read_to_end(&mut bytes))
        .map_err(|e| format!("{path}: {e}"))?;
    let header = parse_header(path, &bytes)?;
    let data = bytes[header.data_offset..].to_vec();
    if data.len() != header.data_bytes() {
        return Err(bad(
            path,
            &format!("{} data bytes for shape {}", data.len(), shape_text(&header.shape)),
        ));
    }
    Ok(Array {
        shape: header.shape,
        element: header.element,
        data,
    })
}

/// The f32 value of bfloat16 bits.
pub fn bf16_to_f32(bits: u16) -> f32 {
    f32::from_bits(u32::from(bits) << 16)
}

/// `value` rounded to the nearest bfloat16, ties to even (NaN stays NaN).
pub fn f32_to_bf16(value: f32) -> u16 {
    let bits = value.to_bits();
    if value.is_nan() {
        return ((bits >> 16) | 0x40) as u16;
    }
    let rounding = 0x7fff + ((bits >> 16) & 1);
    (bits.wrapping_add(rounding) >> 16) as u16
}

/// bfloat16, as its 16 bits (how compiled code stores it).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[repr(transparent)]
pub struct Bf16(pub u16);

/// An element type a program reads and writes, as compiled code stores it.
pub trait Scalar: Copy {
    /// Its MLIR name.
    const MLIR: &'static str;
    const ELEMENT: Element;
    /// A value read from a file, converted as [`accepted`] allows.
    fn from_f64(value: f64) -> Self;
    fn put(self, out: &mut Vec<u8>);
}

/// The numpy dtypes that are Rust's own types, converted by `as`.
macro_rules! primitive_scalars {
    ($($t:ty: $mlir:literal, $element:ident;)*) => {$(
        impl Scalar for $t {
            const MLIR: &'static str = $mlir;
            const ELEMENT: Element = Element::$element;
            fn from_f64(value: f64) -> Self {
                value as $t
            }
            fn put(self, out: &mut Vec<u8>) {
                out.extend_from_slice(&self.to_le_bytes());
            }
        }
    )*};
}

primitive_scalars! {
    f32: "f32", F32;
    f64: "f64", F64;
    i32: "i32", I32;
    i64: "i64", I64;
}

impl Scalar for Bf16 {
    const MLIR: &'static str = "bf16";
    const ELEMENT: Element = Element::BF16;
    /// Through f32, as ml_dtypes converts float64.
    fn from_f64(value: f64) -> Self {
        Self(f32_to_bf16(value as f32))
    }
    fn put(self, out: &mut Vec<u8>) {
        out.extend_from_slice(&self.0.to_le_bytes());
    }
}

/// A boolean as compiled code stores an `i1`: one byte, 0 or 1.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[repr(transparent)]
pub struct Bool(pub u8);

impl Scalar for Bool {
    const MLIR: &'static str = "i1";
    const ELEMENT: Element = Element::Bool;
    fn from_f64(value: f64) -> Self {
        Self(u8::from(value != 0.0))
    }
    fn put(self, out: &mut Vec<u8>) {
        out.push(u8::from(self.0 != 0));
    }
}

/// Writes `values` of `shape` to `path`, in their own element type.
pub fn write<T: Scalar>(path: &str, shape: &[i64], values: &[T]) -> Result<(), String> {
    let mut header = format!(
        "{{'descr': '{}', 'fortran_order': False, 'shape': {}, }}",
        T::ELEMENT.descr(),
        shape_text(shape)
    );
    // Magic (6) + version (2) + length (2) + header + '\n', to 64 bytes.
    while (10 + header.len() + 1) % 64 != 0 {
        header.push(' ');
    }
    header.push('\n');
    let mut out = Vec::with_capacity(10 + header.len() + T::ELEMENT.size() * values.len());
    out.extend_from_slice(b"\x93NUMPY\x01\x00");
    out.extend_from_slice(&(header.len() as u16).to_le_bytes());
    out.extend_from_slice(header.as_bytes());
    for v in values {
        v.put(&mut out);
    }
    std::fs::File::create(path)
        .and_then(|mut f| f.write_all(&out))
        .map_err(|e| format!("{path}: {e}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bfloat16_rounds_to_nearest_even() {
        // 1 + 2^-8 lies halfway between 1 and 1 + 2^-7: to the even 1.
        assert_eq!(f32_to_bf16(1.0 + 1.0 / 256.0), 0x3f80);
        assert_eq!(f32_to_bf16(1.0 + 3.0 / 256.0), 0x3f82);
        assert_eq!(bf16_to_f32(f32_to_bf16(-2.5)), -2.5);
        assert!(bf16_to_f32(f32_to_bf16(f32::NAN)).is_nan());
        assert_eq!(bf16_to_f32(f32_to_bf16(f32::INFINITY)), f32::INFINITY);
    }

    #[test]
    fn written_arrays_read_back() {
        let dir = std::env::temp_dir().join(format!("dist-npy-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("a.npy");
        let path = path.to_str().unwrap();
        write(path, &[2, 3], &[1.0f32, 2.0, 3.0, 4.0, 5.0, 6.5]).unwrap();
        let a = read(path).unwrap();
        assert_eq!((a.shape.clone(), a.element), (vec![2, 3], Element::F32));
        assert_eq!(a.to_f64(), [1.0, 2.0, 3.0, 4.0, 5.0, 6.5]);
        let bytes = std::fs::read(path).unwrap();
        assert_eq!((bytes.len() - 24) % 64, 0, "header padded to 64 bytes");
        write(path, &[], &[7.0f32]).unwrap();
        assert_eq!(read(path).unwrap().shape, Vec::<i64>::new());
        assert_eq!(read_header(path).unwrap().shape, Vec::<i64>::new());
        // bfloat16 as ml_dtypes saves it: np.save(p, np.array([1.5, -2, 3.015625], bfloat16)).
        write(path, &[3], &[1.5, -2.0, 3.015_625].map(Bf16::from_f64)).unwrap();
        let bytes = std::fs::read(path).unwrap();
        let header = "{'descr': '<V2', 'fortran_order': False, 'shape': (3,), }";
        assert_eq!(&bytes[10..10 + header.len()], header.as_bytes());
        assert_eq!(&bytes[128..], [0xc0, 0x3f, 0x00, 0xc0, 0x41, 0x40]);
        let a = read(path).unwrap();
        assert_eq!((a.element, a.to_f64()), (Element::BF16, vec![1.5, -2.0, 3.015_625]));
        write(path, &[1], &[0.1f64]).unwrap();
        assert_eq!(read(path).unwrap().to_f64(), [0.1]);
        // numpy's bool: np.save(p, np.array([True, False, True])).
        write(path, &[3], &[1.0, 0.0, 1.0].map(Bool::from_f64)).unwrap();
        let bytes = std::fs::read(path).unwrap();
        let header = "{'descr': '|b1', 'fortran_order': False, 'shape': (3,), }";
        assert_eq!(&bytes[10..10 + header.len()], header.as_bytes());
        assert_eq!(&bytes[bytes.len() - 3..], [1, 0, 1]);
        let a = read(path).unwrap();
        assert_eq!((a.element, a.to_f64()), (Element::Bool, vec![1.0, 0.0, 1.0]));
        std::fs::write(path, b"nope").unwrap();
        assert!(read(path).unwrap_err().contains("not a supported .npy file"));
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn arguments_take_their_shape_and_listed_dtypes() {
        assert_eq!(mismatch(&[8, 64], Element::F64, &[8, 64], "f32"), None);
        assert_eq!(mismatch(&[4, 16], Element::I32, &[4, 16], "i64"), None);
        assert_eq!(
            mismatch(&[64, 8], Element::F32, &[8, 64], "f32").unwrap(),
            "shape (64, 8) where the argument is (8, 64)"
        );
        assert_eq!(
            mismatch(&[8], Element::I32, &[8], "f32").unwrap(),
            "dtype int32 where the argument is f32 (give float32 or float64)"
        );
        assert!(mismatch(&[8], Element::F32, &[8], "i64").is_some());
        assert_eq!(mismatch(&[2], Element::F32, &[2], "bf16"), None);
        assert_eq!(mismatch(&[2], Element::F32, &[2], "f64"), None);
        assert_eq!(
            mismatch(&[2], Element::BF16, &[2], "f32").unwrap(),
            "dtype bfloat16 where the argument is f32 (give float32 or float64)"
        );
        assert_eq!(accepted("f16"), None);
        // Every element type the runtime reads has a Scalar of its own.
        for mlir in [f32::MLIR, f64::MLIR, Bf16::MLIR, i32::MLIR, i64::MLIR, Bool::MLIR] {
            assert!(accepted(mlir).is_some(), "{mlir}");
        }
        assert_eq!(shape_text(&[3]), "(3,)");
        assert_eq!(shape_text(&[]), "()");
    }
}
