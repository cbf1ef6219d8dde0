// RUN: dist-opt %s --dist-propagate-sharding | FileCheck %s --check-prefix=BOTH
// RUN: dist-opt %s --dist-propagate-sharding="direction=forward" | FileCheck %s --check-prefix=FWD
// RUN: dist-opt %s --dist-propagate-sharding="direction=backward" | FileCheck %s --check-prefix=BWD
// RUN: not dist-opt %s --dist-propagate-sharding="direction=sideways" 2>&1 | FileCheck %s --check-prefix=BAD
// The direction option limits propagation to producer-to-user (forward) or
// user-to-producer (backward) edges.

dist.mesh @mesh = <["dp"=2]>

// BOTH-LABEL: func.func @direction
// BOTH-SAME: %{{.*}}: tensor<8x16xf32> {dist.sharding = #dist.sharding<@mesh, [{"dp"}, {}]>}
// BOTH: dist.relu {{.*}}[#dist.sharding<@mesh, [{"dp"}, {}]>]
// BOTH: dist.add {{.*}}[#dist.sharding<@mesh, [{"dp"}, {}]>]

// Forward: the unannotated input and its relu stay replicated.
// FWD-LABEL: func.func @direction
// FWD-SAME: %{{.*}}: tensor<8x16xf32> {dist.sharding = #dist.sharding<@mesh, [{}, {}]>}
// FWD: dist.relu {{.*}}[#dist.sharding<@mesh, [{}, {}]>]
// FWD: dist.add {{.*}}[#dist.sharding<@mesh, [{"dp"}, {}]>]

// Backward: the split reaches the input, not the sum.
// BWD-LABEL: func.func @direction
// BWD-SAME: %{{.*}}: tensor<8x16xf32> {dist.sharding = #dist.sharding<@mesh, [{"dp"}, {}]>}
// BWD: dist.relu {{.*}}[#dist.sharding<@mesh, [{"dp"}, {}]>]
// BWD: dist.add {{.*}}[#dist.sharding<@mesh, [{}, {}]>]

// BAD: direction must be both, forward or backward, not 'sideways'
func.func @direction(%x: tensor<8x16xf32>,
                     %y: tensor<8x16xf32> {dist.sharding = #dist.sharding<@mesh, [{"dp"}, {}]>}) {
  %a = dist.relu %x : (tensor<8x16xf32>) -> tensor<8x16xf32>
  %b = dist.add %a, %y : (tensor<8x16xf32>, tensor<8x16xf32>) -> tensor<8x16xf32>
  return
}
