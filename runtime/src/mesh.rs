//! Meshes as the compiled program passes them, and the groups of devices
//! along their axes.

use crate::RuntimeError;

/// A mesh: axis sizes and the MPI rank at each position (row-major).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Mesh {
    pub sizes: Vec<i64>,
    pub devices: Vec<i64>,
}

impl Mesh {
    /// Reads `[rank, sizes..., device count, devices...]`.
    pub fn decode(words: &[i64]) -> Result<Self, RuntimeError> {
        let bad = || RuntimeError::Mesh(words.to_vec());
        let (&rank, rest) = words.split_first().ok_or_else(bad)?;
        let rank = usize::try_from(rank).map_err(|_| bad())?;
        let sizes = rest.get(..rank).ok_or_else(bad)?.to_vec();
        let count: i64 = sizes.iter().product();
        let (&n, devices) = rest.get(rank..).and_then(<[i64]>::split_first).ok_or_else(bad)?;
        let devices = match n {
            0 => (0..count).collect(),
            n if n == count && devices.len() == n as usize => devices.to_vec(),
            _ => return Err(bad()),
        };
        if sizes.iter().any(|&s| s < 1) {
            return Err(bad());
        }
        Ok(Self { sizes, devices })
    }

    /// The mesh coordinates of MPI rank `rank`.
    fn coordinates(&self, rank: i32) -> Result<Vec<i64>, RuntimeError> {
        let mut p = self
            .devices
            .iter()
            .position(|&d| d == i64::from(rank))
            .ok_or(RuntimeError::NotInMesh(rank))? as i64;
        let mut coords = vec![0; self.sizes.len()];
        for (c, &s) in coords.iter_mut().zip(&self.sizes).rev() {
            *c = p % s;
            p /= s;
        }
        Ok(coords)
    }

    /// This rank's index in its group over `axes` (major to minor), and the
    /// index of the group (its position along the other axes).
    pub fn group_position(&self, rank: i32, axes: &[i64]) -> Result<(i64, i64), RuntimeError> {
        let coords = self.coordinates(rank)?;
        let index_over = |dims: &mut dyn Iterator<Item = usize>| dims.fold(0, |acc, d| acc * self.sizes[d] + coords[d]);
        let group: Vec<usize> = axes.iter().map(|&a| a as usize).collect();
        if group.iter().any(|&a| a >= self.sizes.len()) {
            return Err(RuntimeError::Mesh(axes.to_vec()));
        }
        let within = index_over(&mut group.iter().copied());
        let color = index_over(&mut (0..self.sizes.len()).filter(|d| !group.contains(d)));
        Ok((within, color))
    }

    /// The MPI ranks of this rank's group over `axes`, by their index in
    /// the group (`group_position`'s).
    pub fn group_ranks(&self, rank: i32, axes: &[i64]) -> Result<Vec<i32>, RuntimeError> {
        let coords = self.coordinates(rank)?;
        self.group_position(rank, axes)?;
        let members = (0..self.group_size(axes)).map(|mut index| {
            let mut member = coords.clone();
            for &a in axes.iter().rev() {
                let size = self.sizes[a as usize];
                member[a as usize] = index % size;
                index /= size;
            }
            let position = member.iter().zip(&self.sizes).fold(0, |acc, (&c, &s)| acc * s + c);
            self.devices[position as usize] as i32
        });
        Ok(members.collect())
    }

    /// The number of devices in a group over `axes`.
    pub fn group_size(&self, axes: &[i64]) -> i64 {
        axes.iter().map(|&a| self.sizes[a as usize]).product()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_group_lists_its_ranks_by_their_index() {
        // 2 x 4, rank 6 at (1, 2): its row over axis 1, its column over 0,
        // and both axes listed minor first.
        let mesh = Mesh::decode(&[2, 2, 4, 0]).unwrap();
        assert_eq!(mesh.group_ranks(6, &[1]).unwrap(), [4, 5, 6, 7]);
        assert_eq!(mesh.group_ranks(6, &[0]).unwrap(), [2, 6]);
        assert_eq!(mesh.group_ranks(6, &[1, 0]).unwrap(), [0, 4, 1, 5, 2, 6, 3, 7]);
        // An explicit order maps positions to ranks.
        let ring = Mesh::decode(&[1, 4, 4, 0, 2, 3, 1]).unwrap();
        assert_eq!(ring.group_ranks(3, &[0]).unwrap(), [0, 2, 3, 1]);
    }

    #[test]
    fn meshes_decode_and_place_ranks() {
        let mesh = Mesh::decode(&[2, 2, 4, 0]).unwrap();
        assert_eq!(mesh.sizes, [2, 4]);
        // Rank 6 is at (1, 2): index 2 of its tp group (color 1), index 1
        // of its dp group (color 2), 6 over both.
        assert_eq!(mesh.group_position(6, &[1]).unwrap(), (2, 1));
        assert_eq!(mesh.group_position(6, &[0]).unwrap(), (1, 2));
        assert_eq!(mesh.group_position(6, &[0, 1]).unwrap(), (6, 0));
        assert_eq!(mesh.group_position(6, &[1, 0]).unwrap(), (5, 0));
        assert_eq!(mesh.group_size(&[0, 1]), 8);
        let ring = Mesh::decode(&[1, 4, 4, 0, 2, 3, 1]).unwrap();
        assert_eq!(ring.group_position(3, &[0]).unwrap(), (2, 0));
        assert!(Mesh::decode(&[1, 4, 2, 0, 1]).is_err());
        assert!(Mesh::decode(&[2, 2]).is_err());
        assert_eq!(mesh.group_position(9, &[0]), Err(RuntimeError::NotInMesh(9)));
    }
}
