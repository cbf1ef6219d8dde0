//! Building linalg, tensor, arith and math IR in front of an op being
//! lowered ([`build`]), and the maps, elementwise bodies and sums the
//! lowerings share ([`common`]).

// Building a linalg body extends the lifetimes of the values of a block
// not yet inserted (melior ties them to a borrow of the block).
#[allow(unsafe_code)]
pub mod build;
pub mod common;
