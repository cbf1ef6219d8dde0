use thiserror::Error;

/// Everything that can go wrong in this crate.
#[derive(Debug, Error, Clone, PartialEq, Eq)]
pub enum Error {
    #[error("mesh @{mesh} is invalid: {reason}")]
    InvalidMesh { mesh: String, reason: String },
    #[error("mesh @{mesh} has no axis \"{axis}\"")]
    UnknownAxis { mesh: String, axis: String },
    #[error("sharding refers to mesh @{found}, expected @{expected}")]
    MeshMismatch { expected: String, found: String },
    #[error("mesh axis \"{0}\" is used twice in the sharding")]
    AxisUsedTwice(String),
    #[error("mesh axis \"{0}\" cannot both split a dim and be partial")]
    PartialAxisSplit(String),
    #[error("mesh axis \"{0}\" is listed twice as partial")]
    PartialAxisTwice(String),
    #[error("partial needs at least one mesh axis")]
    EmptyPartial,
    #[error("sharding has {sharding} dims but the tensor has rank {tensor}")]
    RankMismatch { sharding: usize, tensor: usize },
    #[error("tensor dim {dim} of size {size} has fewer entries than {parts}, the number of shards of its mesh axes")]
    FewerEntries { dim: usize, size: i64, parts: i64 },
    #[error("tensor dim {dim} of size {size} is split unevenly over {axes} mesh axes; an uneven split takes one axis")]
    UnevenOverAxes { dim: usize, size: i64, axes: usize },
    #[error("unknown reduction kind '{0}', expected sum, avg, max or min")]
    UnknownReductionKind(String),
    #[error("not a {expected}: {found}")]
    WrongKind { expected: &'static str, found: String },
    #[error("{0}")]
    Mlir(String),
}

pub type Result<T> = std::result::Result<T, Error>;
