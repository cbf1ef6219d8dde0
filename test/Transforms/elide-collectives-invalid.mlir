// RUN: dist-opt %s --split-input-file --dist-elide-collectives --verify-diagnostics
// dist-elide-collectives runs global-view programs on one device; each chunk
// is a per-device program, which needs its collectives.

// A per-device all_gather makes a larger tensor than it takes.
dist.mesh @mesh = <["tp"=4]>
func.func @gather(%x: tensor<8x4xf32>) -> tensor<8x16xf32> {
  // expected-error@+1 {{'dist.all_gather' changes tensor<8x4xf32> to tensor<8x16xf32>: it belongs to a per-device program}}
  %r = dist.all_gather %x on @mesh axes = ["tp"] dim = 1 : tensor<8x4xf32> -> tensor<8x16xf32>
  return %r : tensor<8x16xf32>
}

// -----

// An async start is checked against what its wait delivers.
dist.mesh @mesh = <["tp"=4]>
func.func @async_scatter(%x: tensor<8x16xf32>) -> tensor<2x16xf32> {
  // expected-error@+1 {{'dist.reduce_scatter_start' changes tensor<8x16xf32> to tensor<2x16xf32>}}
  %h = dist.reduce_scatter_start %x on @mesh axes = ["tp"] dim = 0 kind = sum : tensor<8x16xf32> -> !dist.handle<tensor<2x16xf32>>
  %r = dist.wait %h : !dist.handle<tensor<2x16xf32>> -> tensor<2x16xf32>
  return %r : tensor<2x16xf32>
}

// -----

// A device's index in its group only has a meaning per device.
dist.mesh @mesh = <["tp"=4]>
func.func @rank() -> index {
  // expected-error@+1 {{'dist.axis_index' belongs to a per-device program, which needs its collectives: run it partitioned (dist-run -n N)}}
  %i = dist.axis_index @mesh axes = ["tp"] : index
  return %i : index
}

// -----

// dist-partition marks what it made with dist.local, even where every
// collective keeps its type (an all_reduce of per-device partial sums).
dist.mesh @mesh = <["tp"=4]>
// expected-error@+1 {{this function was partitioned (dist.local on its signature)}}
func.func @partitioned(%x: tensor<8x4xf32> {dist.local = #dist.sharding<@mesh, [{}, {"tp"}]>}) -> tensor<8x4xf32> {
  %r = dist.all_reduce %x on @mesh axes = ["tp"] kind = sum : tensor<8x4xf32> -> tensor<8x4xf32>
  return %r : tensor<8x4xf32>
}
