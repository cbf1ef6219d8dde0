//! Pure-Rust model of meshes and shardings.
//!
//! The same rules the C++ verifier enforces, so passes can reason about
//! shardings without a round trip through MLIR, and unit tests need no MLIR.

use crate::error::{Error, Result};
use std::collections::BTreeSet;
use std::fmt;
use std::str::FromStr;

/// The direction of a comparison (`dist.compare`'s `direction`, StableHLO's
/// `comparison_direction` in lower case).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum CompareDirection {
    Eq,
    Ne,
    Lt,
    Le,
    Gt,
    Ge,
}

impl CompareDirection {
    pub const ALL: [CompareDirection; 6] = [Self::Eq, Self::Ne, Self::Lt, Self::Le, Self::Gt, Self::Ge];

    /// As `dist.compare` spells it.
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Eq => "eq",
            Self::Ne => "ne",
            Self::Lt => "lt",
            Self::Le => "le",
            Self::Gt => "gt",
            Self::Ge => "ge",
        }
    }

    /// The direction spelled `word` (in either case: StableHLO writes `GT`).
    pub fn from_word(word: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|d| d.as_str().eq_ignore_ascii_case(word))
    }

    /// Whether `a <direction> b` holds (IEEE-754: false with a NaN, but `ne`).
    pub fn holds(self, a: f64, b: f64) -> bool {
        match self {
            Self::Eq => a == b,
            Self::Ne => a != b,
            Self::Lt => a < b,
            Self::Le => a <= b,
            Self::Gt => a > b,
            Self::Ge => a >= b,
        }
    }
}

/// How the contributions of a partial value combine.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum ReductionKind {
    Sum,
    Avg,
    Max,
    Min,
}

impl ReductionKind {
    pub const ALL: [ReductionKind; 4] = [Self::Sum, Self::Avg, Self::Max, Self::Min];

    pub fn as_str(self) -> &'static str {
        match self {
            Self::Sum => "sum",
            Self::Avg => "avg",
            Self::Max => "max",
            Self::Min => "min",
        }
    }

    /// The value of `DistReductionKind` in the C API.
    pub fn to_raw(self) -> u32 {
        self as u32
    }

    pub fn from_raw(raw: u32) -> Option<Self> {
        Self::ALL.get(raw as usize).copied()
    }
}

/// `@name` as MLIR spells a reference to the symbol `name`: bare when it is
/// an identifier (a letter or `_`, then letters, digits, `_`, `$`, `.`),
/// quoted with MLIR's string escapes otherwise (`@"my step"`).
pub fn symbol_ref(name: &str) -> String {
    let mut chars = name.chars();
    let bare = chars.next().is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
        && chars.all(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '$' | '.'));
    if bare {
        return format!("@{name}");
    }
    let mut quoted = String::from("@\"");
    for byte in name.bytes() {
        match byte {
            b'"' | b'\\' => quoted.push_str(&format!("\\{}", byte as char)),
            0x20..=0x7e => quoted.push(byte as char),
            _ => quoted.push_str(&format!("\\{byte:02X}")),
        }
    }
    quoted.push('"');
    quoted
}

impl fmt::Display for ReductionKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl FromStr for ReductionKind {
    type Err = Error;
    fn from_str(s: &str) -> Result<Self> {
        Self::ALL
            .into_iter()
            .find(|k| k.as_str() == s)
            .ok_or_else(|| Error::UnknownReductionKind(s.to_owned()))
    }
}

#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct MeshAxis {
    pub name: String,
    pub size: i64,
}

/// A named N-D arrangement of devices (`dist.mesh`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Mesh {
    name: String,
    axes: Vec<MeshAxis>,
    /// Device id at each row-major mesh position; `None` means the identity.
    devices: Option<Vec<i64>>,
}

/// The most devices a mesh may have: MPI ranks are 32-bit.
pub const MAX_DEVICES: i64 = i32::MAX as i64;

impl Mesh {
    pub fn new(name: impl Into<String>, axes: &[(&str, i64)]) -> Result<Self> {
        let axes = axes
            .iter()
            .map(|&(name, size)| MeshAxis {
                name: name.to_owned(),
                size,
            })
            .collect();
        Self::from_parts(name.into(), axes, None)
    }

    pub fn from_parts(name: String, axes: Vec<MeshAxis>, devices: Option<Vec<i64>>) -> Result<Self> {
        let invalid = |reason: String| Error::InvalidMesh {
            mesh: name.clone(),
            reason,
        };
        if axes.is_empty() {
            return Err(invalid("it needs at least one axis".into()));
        }
        let mut seen = BTreeSet::new();
        for axis in &axes {
            if axis.name.is_empty() {
                return Err(invalid("axis names must not be empty".into()));
            }
            if !seen.insert(axis.name.as_str()) {
                return Err(invalid(format!("axis \"{}\" is declared twice", axis.name)));
            }
            if axis.size < 1 {
                return Err(invalid(format!(
                    "axis \"{}\" has size {}; sizes must be >= 1",
                    axis.name, axis.size
                )));
            }
        }
        let count = axes
            .iter()
            .try_fold(1i64, |n, a| n.checked_mul(a.size).filter(|&n| n <= MAX_DEVICES))
            .ok_or_else(|| {
                invalid(format!(
                    "it has more than {MAX_DEVICES} devices (the product of its axis sizes); devices are 32-bit MPI ranks"
                ))
            })?;
        if let Some(ids) = &devices {
            if ids.len() as i64 != count {
                return Err(invalid(format!("it has {count} devices but {} device ids", ids.len())));
            }
            let mut unique = BTreeSet::new();
            if let Some(bad) = ids.iter().find(|&&id| id < 0 || !unique.insert(id)) {
                return Err(invalid(format!("device id {bad} is negative or appears twice")));
            }
        }
        Ok(Self { name, axes, devices })
    }

    /// The same mesh with an explicit device id for every mesh position.
    pub fn with_devices(self, devices: Vec<i64>) -> Result<Self> {
        Self::from_parts(self.name, self.axes, Some(devices))
    }

    pub fn name(&self) -> &str {
        &self.name
    }

    pub fn axes(&self) -> &[MeshAxis] {
        &self.axes
    }

    pub fn explicit_devices(&self) -> Option<&[i64]> {
        self.devices.as_deref()
    }

    pub fn num_devices(&self) -> i64 {
        self.axes.iter().map(|a| a.size).product()
    }

    pub fn axis_index(&self, name: &str) -> Option<usize> {
        self.axes.iter().position(|a| a.name == name)
    }

    pub fn axis_size(&self, name: &str) -> Result<i64> {
        self.axis_index(name)
            .map(|i| self.axes[i].size)
            .ok_or_else(|| Error::UnknownAxis {
                mesh: self.name.clone(),
                axis: name.to_owned(),
            })
    }

    /// Number of devices in a group spanning `axes`.
    pub fn group_size<S: AsRef<str>>(&self, axes: &[S]) -> Result<i64> {
        axes.iter().map(|a| self.axis_size(a.as_ref())).product()
    }

    /// Mesh coordinates of the device at row-major `position`.
    pub fn coordinates(&self, mut position: i64) -> Vec<i64> {
        let mut coords = vec![0; self.axes.len()];
        for (i, axis) in self.axes.iter().enumerate().rev() {
            coords[i] = position % axis.size;
            position /= axis.size;
        }
        coords
    }

    /// Device id at the mesh position with these coordinates.
    pub fn device_at(&self, coords: &[i64]) -> i64 {
        let position = coords.iter().zip(&self.axes).fold(0, |acc, (c, a)| acc * a.size + c);
        self.devices.as_ref().map_or(position, |ids| ids[position as usize])
    }
}

impl fmt::Display for Mesh {
    /// The textual form of the `dist.mesh` op.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "dist.mesh {} = <[", symbol_ref(&self.name))?;
        for (i, axis) in self.axes.iter().enumerate() {
            let sep = if i == 0 { "" } else { ", " };
            write!(f, "{sep}\"{}\"={}", axis.name, axis.size)?;
        }
        f.write_str("]")?;
        if let Some(ids) = &self.devices {
            let ids: Vec<String> = ids.iter().map(i64::to_string).collect();
            write!(f, ", devices = [{}]", ids.join(", "))?;
        }
        f.write_str(">")
    }
}

/// Pending reduction over some mesh axes.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Partial {
    pub axes: Vec<String>,
    pub kind: ReductionKind,
}

/// Layout of a global tensor over a mesh (`#dist.sharding`).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Sharding {
    pub mesh: String,
    /// For each tensor dim, the mesh axes splitting it, major to minor.
    pub dims: Vec<Vec<String>>,
    pub partial: Option<Partial>,
}

impl Sharding {
    /// Fully replicated: no dim split, nothing partial.
    pub fn replicated(mesh: impl Into<String>, rank: usize) -> Self {
        Self {
            mesh: mesh.into(),
            dims: vec![Vec::new(); rank],
            partial: None,
        }
    }

    pub fn new<S: AsRef<str>>(mesh: impl Into<String>, dims: &[&[S]]) -> Self {
        let dims = dims
            .iter()
            .map(|d| d.iter().map(|a| a.as_ref().to_owned()).collect())
            .collect();
        Self {
            mesh: mesh.into(),
            dims,
            partial: None,
        }
    }

    pub fn with_partial<S: AsRef<str>>(mut self, kind: ReductionKind, axes: &[S]) -> Self {
        let axes = axes.iter().map(|a| a.as_ref().to_owned()).collect();
        self.partial = Some(Partial { axes, kind });
        self
    }

    pub fn rank(&self) -> usize {
        self.dims.len()
    }

    pub fn is_partial(&self) -> bool {
        self.partial.is_some()
    }

    pub fn partial_axes(&self) -> &[String] {
        self.partial.as_ref().map_or(&[], |p| &p.axes)
    }

    /// Every axis that splits some dim, in dim order.
    pub fn split_axes(&self) -> impl Iterator<Item = &str> {
        self.dims.iter().flatten().map(String::as_str)
    }

    /// Rules that need neither the mesh nor the tensor.
    pub fn validate(&self) -> Result<()> {
        let mut split = BTreeSet::new();
        for axis in self.split_axes() {
            if !split.insert(axis) {
                return Err(Error::AxisUsedTwice(axis.to_owned()));
            }
        }
        if let Some(partial) = &self.partial {
            if partial.axes.is_empty() {
                return Err(Error::EmptyPartial);
            }
            let mut seen = BTreeSet::new();
            for axis in &partial.axes {
                if split.contains(axis.as_str()) {
                    return Err(Error::PartialAxisSplit(axis.clone()));
                }
                if !seen.insert(axis.as_str()) {
                    return Err(Error::PartialAxisTwice(axis.clone()));
                }
            }
        }
        Ok(())
    }

    /// Every rule: those of [`Sharding::validate`], plus the mesh is this
    /// one, its axes exist, the rank matches, and a split dim has as many
    /// entries as shards, over one axis where they do not divide it.
    pub fn validate_for(&self, mesh: &Mesh, shape: &[i64]) -> Result<()> {
        self.local_shape(mesh, shape).map(|_| ())
    }

    /// Number of shards of dim `dim`.
    pub fn dim_parts(&self, mesh: &Mesh, dim: usize) -> Result<i64> {
        mesh.group_size(&self.dims[dim])
    }

    /// Per-device shape of a tensor of global `shape`.
    pub fn local_shape(&self, mesh: &Mesh, shape: &[i64]) -> Result<Vec<i64>> {
        self.validate()?;
        if self.mesh != mesh.name() {
            return Err(Error::MeshMismatch {
                expected: mesh.name().to_owned(),
                found: self.mesh.clone(),
            });
        }
        if self.rank() != shape.len() {
            return Err(Error::RankMismatch {
                sharding: self.rank(),
                tensor: shape.len(),
            });
        }
        for axis in self.partial_axes() {
            mesh.axis_size(axis)?;
        }
        shape
            .iter()
            .enumerate()
            .map(|(dim, &size)| {
                // As the dialect's verifier: an uneven split (GSPMD's padded
                // shards of ceil(size / parts)) over one axis, of at least
                // as many entries as shards.
                let parts = self.dim_parts(mesh, dim)?;
                if size < parts {
                    return Err(Error::FewerEntries { dim, size, parts });
                }
                let axes = self.dims[dim].len();
                if size % parts != 0 && axes > 1 {
                    return Err(Error::UnevenOverAxes { dim, size, axes });
                }
                Ok((size + parts - 1) / parts)
            })
            .collect()
    }
}

fn write_axis_set(f: &mut fmt::Formatter<'_>, axes: &[String]) -> fmt::Result {
    f.write_str("{")?;
    for (i, axis) in axes.iter().enumerate() {
        let sep = if i == 0 { "" } else { ", " };
        write!(f, "{sep}\"{axis}\"")?;
    }
    f.write_str("}")
}

impl fmt::Display for Sharding {
    /// Exactly the attribute's textual form, as MLIR prints it.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "#dist.sharding<{}, [", symbol_ref(&self.mesh))?;
        for (i, dim) in self.dims.iter().enumerate() {
            if i > 0 {
                f.write_str(", ")?;
            }
            write_axis_set(f, dim)?;
        }
        f.write_str("]")?;
        if let Some(partial) = &self.partial {
            write!(f, ", partial = {}", partial.kind)?;
            write_axis_set(f, &partial.axes)?;
        }
        f.write_str(">")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn mesh_2x4() -> Mesh {
        Mesh::new("mesh", &[("dp", 2), ("tp", 4)]).unwrap()
    }

    #[test]
    fn symbol_references_are_quoted_where_mlir_quotes_them() {
        assert_eq!(symbol_ref("gpt_step"), "@gpt_step");
        assert_eq!(symbol_ref("_a.b$1"), "@_a.b$1");
        assert_eq!(symbol_ref("my step"), "@\"my step\"");
        assert_eq!(symbol_ref("1st"), "@\"1st\"");
        assert_eq!(symbol_ref("a\"b\\c"), "@\"a\\\"b\\\\c\"");
        assert_eq!(symbol_ref("\u{e9}"), "@\"\\C3\\A9\"");
    }

    #[test]
    fn mesh_rejects_bad_axes() {
        assert!(matches!(Mesh::new("m", &[]), Err(Error::InvalidMesh { .. })));
        assert!(matches!(Mesh::new("m", &[("x", 0)]), Err(Error::InvalidMesh { .. })));
        assert!(matches!(
            Mesh::new("m", &[("x", 2), ("x", 2)]),
            Err(Error::InvalidMesh { .. })
        ));
        let m = Mesh::new("m", &[("x", 2)]).unwrap();
        assert!(m.clone().with_devices(vec![0]).is_err());
        assert!(m.clone().with_devices(vec![1, 1]).is_err());
        assert!(m.with_devices(vec![7, 3]).is_ok());
        // The device count is a 32-bit rank and must not wrap.
        assert!(Mesh::new("m", &[("x", 65536), ("y", 32767)]).is_ok());
        assert!(Mesh::new("m", &[("x", 65536), ("y", 32768)]).is_err());
        assert!(Mesh::new("m", &[("x", 11), ("y", i64::MAX)]).is_err());
    }

    #[test]
    fn mesh_coordinates_are_row_major() {
        let m = mesh_2x4();
        assert_eq!(m.num_devices(), 8);
        assert_eq!(m.coordinates(0), vec![0, 0]);
        assert_eq!(m.coordinates(5), vec![1, 1]);
        assert_eq!(m.device_at(&[1, 3]), 7);
        let ring = Mesh::new("r", &[("x", 4)])
            .unwrap()
            .with_devices(vec![0, 2, 3, 1])
            .unwrap();
        assert_eq!(ring.device_at(&[3]), 1);
        assert_eq!(m.group_size(&["dp", "tp"]).unwrap(), 8);
        assert!(m.group_size(&["pp"]).is_err());
    }

    #[test]
    fn sharding_prints_like_mlir() {
        let s = Sharding::new("mesh", &[&["dp"], &[], &["tp"]]);
        assert_eq!(s.to_string(), r#"#dist.sharding<@mesh, [{"dp"}, {}, {"tp"}]>"#);
        let p = Sharding::replicated("mesh", 2).with_partial(ReductionKind::Sum, &["dp", "tp"]);
        assert_eq!(
            p.to_string(),
            r#"#dist.sharding<@mesh, [{}, {}], partial = sum{"dp", "tp"}>"#
        );
        assert_eq!(mesh_2x4().to_string(), r#"dist.mesh @mesh = <["dp"=2, "tp"=4]>"#);
    }

    #[test]
    fn sharding_rules() {
        let m = mesh_2x4();
        let twice = Sharding::new("mesh", &[&["dp"], &["dp"]]);
        assert_eq!(twice.validate(), Err(Error::AxisUsedTwice("dp".into())));
        let both = Sharding::new("mesh", &[&["tp"], &[]]).with_partial(ReductionKind::Sum, &["tp"]);
        assert_eq!(both.validate(), Err(Error::PartialAxisSplit("tp".into())));
        let empty = Sharding::replicated("mesh", 1).with_partial(ReductionKind::Max, &[] as &[&str]);
        assert_eq!(empty.validate(), Err(Error::EmptyPartial));
        let unknown = Sharding::new("mesh", &[&["pp"]]);
        assert!(matches!(unknown.validate_for(&m, &[8]), Err(Error::UnknownAxis { .. })));
        let rank = Sharding::new("mesh", &[&["dp"]]);
        assert_eq!(
            rank.validate_for(&m, &[8, 8]),
            Err(Error::RankMismatch { sharding: 1, tensor: 2 })
        );
        let odd = Sharding::new("mesh", &[&["dp", "tp"]]);
        assert_eq!(
            odd.validate_for(&m, &[12]),
            Err(Error::UnevenOverAxes {
                dim: 0,
                size: 12,
                axes: 2
            })
        );
        assert_eq!(
            odd.validate_for(&m, &[6]),
            Err(Error::FewerEntries {
                dim: 0,
                size: 6,
                parts: 8
            })
        );
        let other = Sharding::new("other", &[&["dp"]]);
        assert!(matches!(other.validate_for(&m, &[8]), Err(Error::MeshMismatch { .. })));
    }

    #[test]
    fn local_shape_divides_split_dims() {
        let m = mesh_2x4();
        let s = Sharding::new("mesh", &[&["dp"], &[], &["tp"]]);
        assert_eq!(s.local_shape(&m, &[8, 3, 16]).unwrap(), vec![4, 3, 4]);
        // Uneven over one axis: padded shards of ceil(size / parts).
        assert_eq!(s.local_shape(&m, &[7, 3, 1001]).unwrap(), vec![4, 3, 251]);
        let both = Sharding::new("mesh", &[&["tp", "dp"], &[]]).with_partial(ReductionKind::Sum, &[] as &[&str]);
        assert!(both.local_shape(&m, &[16, 2]).is_err());
        let partial = Sharding::replicated("mesh", 1).with_partial(ReductionKind::Avg, &["tp"]);
        assert_eq!(partial.local_shape(&m, &[6]).unwrap(), vec![6]);
    }

    #[test]
    fn reduction_kind_round_trips() {
        for kind in ReductionKind::ALL {
            assert_eq!(kind.as_str().parse::<ReductionKind>().unwrap(), kind);
            assert_eq!(ReductionKind::from_raw(kind.to_raw()), Some(kind));
        }
        assert!("prod".parse::<ReductionKind>().is_err());
    }

    /// A mesh of up to 3 axes and a sharding that assigns each axis to at
    /// most one dim or to the partial set.
    fn mesh_and_sharding() -> impl Strategy<Value = (Mesh, Sharding, Vec<i64>)> {
        (proptest::collection::vec(1i64..=4, 1..=3), 1usize..=4)
            .prop_flat_map(|(sizes, rank)| {
                let n = sizes.len();
                // Each axis goes to a dim (0..rank), the partial set (rank) or nowhere (rank + 1).
                let places = proptest::collection::vec(0..rank + 2, n);
                let extents = proptest::collection::vec(1i64..=3, rank);
                (Just(sizes), Just(rank), places, extents)
            })
            .prop_map(|(sizes, rank, places, extents)| {
                let names: Vec<String> = (0..sizes.len()).map(|i| format!("a{i}")).collect();
                let axes: Vec<(&str, i64)> = names.iter().map(String::as_str).zip(sizes.iter().copied()).collect();
                let mesh = Mesh::new("m", &axes).unwrap();
                let mut sharding = Sharding::replicated("m", rank);
                let mut partial = Vec::new();
                for (axis, &place) in names.iter().zip(&places) {
                    match place {
                        p if p < rank => sharding.dims[p].push(axis.clone()),
                        p if p == rank => partial.push(axis.clone()),
                        _ => {}
                    }
                }
                if !partial.is_empty() {
                    sharding = sharding.with_partial(ReductionKind::Sum, &partial);
                }
                // Make every dim divisible: extent times the product of its axes.
                let shape = (0..rank)
                    .map(|d| extents[d] * sharding.dim_parts(&mesh, d).unwrap())
                    .collect();
                (mesh, sharding, shape)
            })
    }

    proptest! {
        #[test]
        fn consistent_shardings_validate_and_tile((mesh, sharding, shape) in mesh_and_sharding()) {
            let local = sharding.local_shape(&mesh, &shape).unwrap();
            for (d, (&l, &g)) in local.iter().zip(&shape).enumerate() {
                prop_assert_eq!(l * sharding.dim_parts(&mesh, d).unwrap(), g);
            }
            let devices: i64 = mesh.num_devices();
            let covered: i64 = (0..shape.len()).map(|d| sharding.dim_parts(&mesh, d).unwrap()).product::<i64>()
                * mesh.group_size(sharding.partial_axes()).unwrap();
            prop_assert_eq!(devices % covered, 0);
        }
    }
}
