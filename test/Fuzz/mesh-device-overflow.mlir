// Found by dist-fuzz (seed 16, input 9070): a mesh whose device count
// overflowed int64 made propagation panic (debug) or wrap (release). The
// verifier now bounds the count by the 32-bit MPI ranks.
// RUN: dist-fuzz --replay %s | FileCheck %s
// CHECK: rejected by the parser or verifier

dist.mesh @mesh = <["a0"=1, "a1"=1, "a2"=1, "a3"=11, "a4"=1, "a5"=1, "a6"=1, "a7"=9223372036854775807, "a8"=1, "a9"=1, "a10"=1, "a11"=1, "a12"=1, "a13"=1, "a14"=1, "a15"=1]>
// was-expected-error@+1 {{dist-propagate-sharding handles meshes of at most 15 axes; @mesh has 16}}
// Axis lists are inline; a mesh values more axes than they hold is refused.

func.func @too_many_axes(%x: tensor<8xf32> {dist.sharding = #dist.sharding<@mesh, [{"a0"}]>}) -> tensor<8xf32> {
  %0 = dist.relu %x : (tensor<8xf32>) -> tensor<8xf32>
  return %0 : tensor<8xf32>
}
