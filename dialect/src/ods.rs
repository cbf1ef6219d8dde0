//! Typed builders and op wrappers of every `dist` op, generated from the
//! same ODS files CMake compiles (melior's `dialect!`, as
//! `melior::dialect::ods` does for the upstream dialects).
//!
//! A pass that builds one known op uses these, so that an operand, result
//! or attribute the ODS does not declare is a compile error instead of an
//! op the verifier refuses at run time:
//!
//! ```ignore
//! let scale = dist::scale(context, value, factor, location);
//! ```
//!
//! Drivers that copy an op chosen by a table (the gradient and
//! decomposition plans of `dist_passes::ops`) build through
//! [`crate::ir::rewrite::build_op`] with the op's [`crate::DistOp`] name.
//!
//! The generated wrappers' result accessors call `OperationLike::result`,
//! which the workspace's clippy setup steers away from (its miss prints the
//! module); the passes read results through `OperationExt` instead.
#![allow(clippy::disallowed_methods)]

melior::dialect! {
    name: "dist",
    files: ["Dist/Dist.td"],
    include_directory_env_vars: ["DIST_ODS_INCLUDE"],
}
