//! `.npy` files (format version 1.0, little-endian, C order): what
//! `dist-run` feeds a program and writes back.

use std::io::{Read, Write};

/// The element types a program reads and writes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Element {
    F32,
    F64,
    I32,
    I64,
}

impl Element {
    fn descr(self) -> &'static str {
        match self {
            Self::F32 => "<f4",
            Self::F64 => "<f8",
            Self::I32 => "<i4",
            Self::I64 => "<i8",
        }
    }

    fn from_descr(descr: &str) -> Option<Self> {
        [Self::F32, Self::F64, Self::I32, Self::I64]
            .into_iter()
            .find(|e| e.descr() == descr)
    }

    fn size(self) -> usize {
        match self {
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
                Element::I32 => f64::from(i32::from_le_bytes(c.try_into().expect("4 bytes"))),
                Element::I64 => i64::from_le_bytes(c.try_into().expect("8 bytes")) as f64,
            })
            .collect()
    }
}

fn bad(path: &str, why: &str) -> String {
    format!("{path}: not a supported .npy file ({why})")
}

/// Reads `path`.
pub fn read(path: &str) -> Result<Array, String> {
    let mut bytes = Vec::new();
    std::fs::File::open(path)
        .and_then(|mut f| f.read_to_end(&mut bytes))
        .map_err(|e| format!("{path}: {e}"))?;
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
    let element = descr
        .as_deref()
        .and_then(Element::from_descr)
        .ok_or_else(|| bad(path, "dtype must be float32, float64, int32 or int64, little-endian"))?;
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
        .map(|s| s.parse::<i64>().map_err(|_| bad(path, "bad shape")))
        .collect::<Result<Vec<_>, _>>()?;
    let data = bytes[start + header_len..].to_vec();
    let expected = shape.iter().product::<i64>() as usize * element.size();
    if data.len() != expected {
        return Err(bad(path, &format!("{} data bytes for shape {shape:?}", data.len())));
    }
    Ok(Array { shape, element, data })
}

/// Writes `values` of `shape` to `path` as float32.
pub fn write_f32(path: &str, shape: &[i64], values: &[f32]) -> Result<(), String> {
    let dims: Vec<String> = shape.iter().map(i64::to_string).collect();
    let shape_text = match dims.len() {
        1 => format!("({},)", dims[0]),
        _ => format!("({})", dims.join(", ")),
    };
    let mut header = format!(
        "{{'descr': '{}', 'fortran_order': False, 'shape': {shape_text}, }}",
        Element::F32.descr()
    );
    // Magic (6) + version (2) + length (2) + header + '\n', to 64 bytes.
    while (10 + header.len() + 1) % 64 != 0 {
        header.push(' ');
    }
    header.push('\n');
    let mut out = Vec::with_capacity(10 + header.len() + 4 * values.len());
    out.extend_from_slice(b"\x93NUMPY\x01\x00");
    out.extend_from_slice(&(header.len() as u16).to_le_bytes());
    out.extend_from_slice(header.as_bytes());
    for v in values {
        out.extend_from_slice(&v.to_le_bytes());
    }
    std::fs::File::create(path)
        .and_then(|mut f| f.write_all(&out))
        .map_err(|e| format!("{path}: {e}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn written_arrays_read_back() {
        let dir = std::env::temp_dir().join(format!("dist-npy-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("a.npy");
        let path = path.to_str().unwrap();
        write_f32(path, &[2, 3], &[1.0, 2.0, 3.0, 4.0, 5.0, 6.5]).unwrap();
        let a = read(path).unwrap();
        assert_eq!((a.shape.clone(), a.element), (vec![2, 3], Element::F32));
        assert_eq!(a.to_f64(), [1.0, 2.0, 3.0, 4.0, 5.0, 6.5]);
        let bytes = std::fs::read(path).unwrap();
        assert_eq!((bytes.len() - 24) % 64, 0, "header padded to 64 bytes");
        write_f32(path, &[], &[7.0]).unwrap();
        assert_eq!(read(path).unwrap().shape, Vec::<i64>::new());
        std::fs::write(path, b"nope").unwrap();
        assert!(read(path).unwrap_err().contains("not a supported .npy file"));
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
