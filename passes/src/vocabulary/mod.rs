//! The vocabulary the op descriptions (`crate::ops`) are written in, below
//! them and below every pass: the sharding rules' factor language
//! ([`rules`]), the communication model of collectives ([`comm`]) and the
//! builder of linalg bodies the lowerings use ([`linalg`]). It names no
//! compute op.

pub mod comm;
pub mod linalg;
pub mod rules;
