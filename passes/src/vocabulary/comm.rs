//! The communication model shared by partial resolution (bucket sizes),
//! the communication report and, later, the overlap cost model: per-device
//! sizes of sharded values, the bytes a collective moves and the device
//! groups it runs on. Pure Rust.

use crate::vocabulary::rules::Axis;
use dist_dialect::DistOp;
use dist_dialect::model::Mesh;

/// The kinds of collective, by what they move.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CollectiveKind {
    AllReduce,
    ReduceScatter,
    AllGather,
    AllToAll,
    /// No communication: each device keeps its slice.
    AllSlice,
}

impl CollectiveKind {
    /// The kind of a `dist` collective op, sync or async.
    pub fn of(op: DistOp) -> Option<Self> {
        use DistOp::*;
        Some(match op {
            AllReduce | AllReduceCoalesced | AllReduceStart => Self::AllReduce,
            ReduceScatter | ReduceScatterCoalesced | ReduceScatterStart => Self::ReduceScatter,
            AllGather | AllGatherStart => Self::AllGather,
            AllToAll | AllToAllStart => Self::AllToAll,
            AllSlice => Self::AllSlice,
            _ => return None,
        })
    }

    /// The kind of the collective named `name`, if it is one.
    pub fn from_op_name(name: &str) -> Option<Self> {
        DistOp::from_name(name).and_then(Self::of)
    }

    /// Bytes each device sends in a bandwidth-optimal (ring) algorithm over
    /// a group of `group` devices, the lower bound for large messages:
    /// `2 (g-1)/g` of the buffer for all_reduce, `(g-1)/g` of the larger
    /// side for reduce_scatter, all_gather and all_to_all. `input` and
    /// `output` are the per-device bytes of operand and result. Rounded up.
    pub fn wire_bytes(self, group: u64, input: u64, output: u64) -> u64 {
        let fraction = |factor: u64, bytes: u64| (factor * (group - 1) * bytes).div_ceil(group);
        match self {
            _ if group <= 1 => 0,
            Self::AllReduce => fraction(2, input),
            Self::ReduceScatter => fraction(1, input),
            Self::AllGather => fraction(1, output),
            Self::AllToAll => fraction(1, input),
            Self::AllSlice => 0,
        }
    }
}

/// The entries of a dim of `size` on each of `shards` devices: all of them
/// when the shards divide it, else ceil(size / shards), the last shards
/// padded (GSPMD's uneven split).
pub fn local_size(size: i64, shards: i64) -> i64 {
    (size + shards - 1) / shards
}

/// Elements each device holds (padding included) of a value of `shape`
/// whose dims are split over `dims` (mesh axis indices).
pub fn local_numel<A: std::ops::Deref<Target = [Axis]>>(shape: &[i64], dims: &[A], axis_sizes: &[i64]) -> i64 {
    shape
        .iter()
        .zip(dims)
        .map(|(&size, axes)| local_size(size, axes.iter().map(|&a| axis_sizes[a as usize]).product::<i64>()))
        .product()
}

/// The device groups of a collective over `axes` (indices, major to minor):
/// every device is in exactly one, ranked by its coordinates on `axes`.
/// Groups are ordered by their first device's mesh position.
pub fn device_groups(mesh: &Mesh, axes: &[usize]) -> Vec<Vec<i64>> {
    let sizes: Vec<i64> = mesh.axes().iter().map(|a| a.size).collect();
    let group_size: i64 = axes.iter().map(|&a| sizes[a]).product();
    let mut groups = Vec::new();
    for position in 0..mesh.num_devices() {
        let coords = mesh.coordinates(position);
        if axes.iter().any(|&a| coords[a] != 0) {
            continue;
        }
        let group = (0..group_size)
            .map(|rank| {
                let mut member = coords.clone();
                let mut rest = rank;
                for &a in axes.iter().rev() {
                    member[a] = rest % sizes[a];
                    rest /= sizes[a];
                }
                mesh.device_at(&member)
            })
            .collect();
        groups.push(group);
    }
    groups
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn uneven_splits_hold_padded_shards() {
        assert_eq!(local_size(1000, 4), 250);
        assert_eq!(local_size(1001, 4), 251);
        assert_eq!(local_size(3, 3), 1);
        // A [1001, 8] table split over tp (4) on its rows.
        let dims: [&[Axis]; 2] = [&[0], &[]];
        assert_eq!(local_numel(&[1001, 8], &dims, &[4]), 251 * 8);
    }

    #[test]
    fn ring_bounds() {
        assert_eq!(CollectiveKind::AllReduce.wire_bytes(4, 1000, 1000), 1500);
        assert_eq!(CollectiveKind::ReduceScatter.wire_bytes(4, 1000, 250), 750);
        assert_eq!(CollectiveKind::AllGather.wire_bytes(4, 250, 1000), 750);
        assert_eq!(CollectiveKind::AllToAll.wire_bytes(2, 1000, 1000), 500);
        assert_eq!(CollectiveKind::AllSlice.wire_bytes(4, 1000, 250), 0);
        assert_eq!(CollectiveKind::AllReduce.wire_bytes(1, 1000, 1000), 0);
        // Rounded up: 2 * 2/3 * 10 = 13.3.
        assert_eq!(CollectiveKind::AllReduce.wire_bytes(3, 10, 10), 14);
    }

    #[test]
    fn local_sizes() {
        let sizes = [2, 4];
        assert_eq!(local_numel(&[8, 16], &[vec![0], vec![1]], &sizes), 4 * 4);
        assert_eq!(local_numel(&[8, 16], &[vec![0, 1], vec![]], &sizes), 16);
        assert_eq!(local_numel::<Vec<Axis>>(&[], &[], &sizes), 1);
    }

    #[test]
    fn groups_follow_the_listed_axes() {
        let mesh = Mesh::new("m", &[("dp", 2), ("tp", 4)]).unwrap();
        assert_eq!(device_groups(&mesh, &[1]), vec![vec![0, 1, 2, 3], vec![4, 5, 6, 7]]);
        assert_eq!(
            device_groups(&mesh, &[0]),
            vec![vec![0, 4], vec![1, 5], vec![2, 6], vec![3, 7]]
        );
        assert_eq!(device_groups(&mesh, &[0, 1]), vec![vec![0, 1, 2, 3, 4, 5, 6, 7]]);
        // Minor axis first: tp-major ranking.
        assert_eq!(device_groups(&mesh, &[1, 0]), vec![vec![0, 4, 1, 5, 2, 6, 3, 7]]);
        let mesh = mesh.with_devices(vec![7, 6, 5, 4, 3, 2, 1, 0]).unwrap();
        assert_eq!(
            device_groups(&mesh, &[0]),
            vec![vec![7, 3], vec![6, 2], vec![5, 1], vec![4, 0]]
        );
    }
}
