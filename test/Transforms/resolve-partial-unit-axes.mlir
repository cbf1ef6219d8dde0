// An axis of size 1 splits nothing, and a value partial over it alone is
// whole (the sum of one value): resolution places no collective for it.
// Here the contraction is split over "tp" of size 1, so the product is
// partial over "tp"; the gelu reads it as it is. dist-gen llama --tp 1
// wrote 8 such all_reduces of 0 bytes, which the report listed.
// RUN: dist-opt %s --dist-propagate-sharding=remarks=none --dist-resolve-partial | FileCheck %s
// RUN: dist-opt %s --dist-propagate-sharding=remarks=none --dist-resolve-partial --dist-comm-report -o /dev/null 2>&1 | FileCheck %s --check-prefix=REPORT
// The partitioned program runs as the global one does (dist-run -n 2
// against -n 1, and the gradients against float64).
// RUN: dist-fuzz --grad-check %s -n 2 --out %t | FileCheck %s --check-prefix=RAN
// RUN: dist-gen llama --layers 1 --dp 1 --tp 1 --sp 2 | dist-opt - --dist-propagate-sharding=remarks=none --dist-resolve-partial --dist-comm-report -o /dev/null 2>&1 | FileCheck %s --check-prefix=LLAMA
dist.mesh @mesh = <["dp"=2, "tp"=1]>
func.func @f(%x: tensor<8x16xf32> {dist.sharding = #dist.sharding<@mesh, [{"dp"}, {"tp"}]>},
             %w: tensor<16x32xf32> {dist.requires_grad, dist.sharding = #dist.sharding<@mesh, [{"tp"}, {}]>}) -> tensor<f32> {
  %y = dist.matmul %x, %w : (tensor<8x16xf32>, tensor<16x32xf32>) -> tensor<8x32xf32>
  %g = dist.gelu %y : (tensor<8x32xf32>) -> tensor<8x32xf32>
  %l = dist.reduce_mean %g {dims = array<i64: 0, 1>} : (tensor<8x32xf32>) -> tensor<f32>
  return %l : tensor<f32>
}

// CHECK-LABEL: func.func @f
// CHECK:       %[[Y:.*]] = dist.matmul {{.*}}partial = sum{"tp"}
// CHECK-NEXT:  dist.gelu %[[Y]]
// CHECK-NOT:   axes = ["tp"]
// REPORT:      // dist-comm-report @f on @mesh ["dp"=2, "tp"=1], bytes per device (ring lower bound)
// REPORT-NEXT: //  #  collective  reduce  axes  groups       type  bytes  value  for
// REPORT-NEXT: //  1  all_reduce  sum     "dp"  1x2 {0,1}  f32
// REPORT-NEXT: // total: 1 collective
// RAN:         -n 2 -O2: match
// LLAMA:       // dist-comm-report @llama_step on @mesh ["dp"=1, "sp"=2, "tp"=1]
// LLAMA-NOT:   "tp"
// LLAMA:       // total: 17 collectives, 295684 bytes per device
