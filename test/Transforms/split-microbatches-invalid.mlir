// RUN: dist-opt %s --split-input-file --verify-diagnostics --dist-split-microbatches=microbatches=4 -o /dev/null

// 6 samples over 2 dp shards are 3 a device: not 4 microbatches.
dist.mesh @mesh = <["dp"=2]>
func.func @uneven(
    // expected-error @below {{argument #0: its batch dim 0 of size 6 over 2 shards does not split into 4 microbatches}}
    %x: tensor<6x8xf32> {dist.batch_dim = 0 : i64, dist.sharding = #dist.sharding<@mesh, [{"dp"}, {}]>}) -> tensor<6x8xf32> {
  return %x : tensor<6x8xf32>
}

// -----

// The axis is new: a mesh that has one of that name already is refused.
// expected-error @below {{the mesh @mesh has an axis "mb" already: axis= names the microbatch axis}}
dist.mesh @mesh = <["dp"=2, "mb"=2]>
func.func @taken(%x: tensor<8x8xf32> {dist.batch_dim = 0 : i64, dist.sharding = #dist.sharding<@mesh, [{"dp"}, {}]>}) -> tensor<8x8xf32> {
  return %x : tensor<8x8xf32>
}

// -----

// Without a sharding anywhere, no mesh to add the axis to.
func.func @no_mesh(
    // expected-error @below {{argument #0: no argument of the function names a mesh to split it on}}
    %x: tensor<8x8xf32> {dist.batch_dim = 0 : i64}) -> tensor<8x8xf32> {
  return %x : tensor<8x8xf32>
}

// -----

// Nothing is marked as data: nothing to split, which is a mistake of the
// program or of the pipeline.
module {
  dist.mesh @mesh = <["dp"=2]>
  // expected-error @below {{no function argument carries dist.batch_dim: mark each data argument with the dim its samples run along (dist.batch_dim = 0 : i64)}}
  func.func @unmarked(%x: tensor<8x8xf32> {dist.sharding = #dist.sharding<@mesh, [{"dp"}, {}]>}) -> tensor<8x8xf32> {
    return %x : tensor<8x8xf32>
  }
}
