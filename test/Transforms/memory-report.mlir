// RUN: dist-opt %s --split-input-file --dist-propagate-sharding=remarks=none --dist-resolve-partial --dist-memory-report -o /dev/null 2>&1 | FileCheck %s
// Scheduled with async collectives (an operand lives until its wait),
// and partitioned (its types are local): the same bytes.
// RUN: dist-opt %s --split-input-file --dist-propagate-sharding=remarks=none --dist-resolve-partial --dist-overlap-collectives --dist-memory-report -o /dev/null 2>&1 | FileCheck %s
// RUN: dist-opt %s --split-input-file --dist-propagate-sharding=remarks=none --dist-resolve-partial --dist-partition --dist-memory-report -o /dev/null 2>&1 | FileCheck %s
// The same report twice: deterministic.
// RUN: dist-opt %s --split-input-file --dist-propagate-sharding=remarks=none --dist-resolve-partial --dist-memory-report -o /dev/null 2> %t.first
// RUN: dist-opt %s --split-input-file --dist-propagate-sharding=remarks=none --dist-resolve-partial --dist-memory-report -o /dev/null 2>&1 | diff %t.first -
// Against a device's memory: the cluster's (h200: 141 GiB), or one given
// (4 KiB, 2^-18 GiB: the first step's 8196 bytes do not fit).
// RUN: dist-opt %s --split-input-file --dist-propagate-sharding=remarks=none --dist-resolve-partial --dist-memory-report=cluster=h200 -o /dev/null 2>&1 | FileCheck %s --check-prefix=H200
// H200: //  total                8196  8.00 KiB
// H200-NEXT: // fits a device's 141 GiB (h200): 0.0%
// RUN: dist-opt %s --split-input-file --dist-propagate-sharding=remarks=none --dist-resolve-partial --dist-memory-report=memory-gib=0.000003814697265625 -o /dev/null 2>&1 | FileCheck %s --check-prefix=SMALL
// SMALL: //  total                8196  8.00 KiB
// SMALL-NEXT: // does not fit a device's 4.00 KiB (given): 200.1%

// ZeRO stage 1 of one weight on dp=2. Per device: the replicated weight
// (16x32 f32, 2048 bytes), its gradient as the reduce-scatter delivers it
// (8x32, 1024), the moments' shards (2 x 1024). The weight's local slice
// and the gathered new weight are copies of the parameter, not
// activations. Activations peak at the matmul_grad: x (4x16, 256), the
// step (4), dy (4x32, 512), dx (256) and the partial dw (16x32, 2048).
dist.mesh @mesh = <["dp"=2]>
func.func @step(%x: tensor<8x16xf32> {dist.sharding = #dist.sharding<@mesh, [{"dp"}, {}]>},
                %w: tensor<16x32xf32> {dist.sharding = #dist.sharding<@mesh, [{}, {}]>},
                %m: tensor<16x32xf32> {dist.sharding = #dist.sharding<@mesh, [{"dp"}, {}]>},
                %v: tensor<16x32xf32> {dist.sharding = #dist.sharding<@mesh, [{"dp"}, {}]>},
                %t: tensor<f32> {dist.sharding = #dist.sharding<@mesh, []>},
                %dy: tensor<8x32xf32> {dist.sharding = #dist.sharding<@mesh, [{"dp"}, {}]>})
    -> (tensor<16x32xf32> {dist.sharding = #dist.sharding<@mesh, [{}, {}]>},
        tensor<16x32xf32> {dist.sharding = #dist.sharding<@mesh, [{"dp"}, {}]>},
        tensor<16x32xf32> {dist.sharding = #dist.sharding<@mesh, [{"dp"}, {}]>}) {
  %dx, %dw = dist.matmul_grad %x, %w, %dy : (tensor<8x16xf32>, tensor<16x32xf32>, tensor<8x32xf32>) -> (tensor<8x16xf32>, tensor<16x32xf32>)
  %p1, %m1, %v1 = dist.adamw %w, %dw, %m, %v, %t {lr = 1.0e-3 : f64, beta1 = 0.9 : f64, beta2 = 0.999 : f64, epsilon = 1.0e-8 : f64, weight_decay = 0.01 : f64} : (tensor<16x32xf32>, tensor<16x32xf32>, tensor<16x32xf32>, tensor<16x32xf32>, tensor<f32>) -> (tensor<16x32xf32>, tensor<16x32xf32>, tensor<16x32xf32>)
  return %p1, %m1, %v1 : tensor<16x32xf32>, tensor<16x32xf32>, tensor<16x32xf32>
}
// CHECK-LABEL: // dist-memory-report @step
// CHECK-NEXT:  //                      bytes
// CHECK-NEXT:  //  parameters           2048  2.00 KiB
// CHECK-NEXT:  //  gradients            1024  1.00 KiB
// CHECK-NEXT:  //  optimizer state      2048  2.00 KiB
// CHECK-NEXT:  //  activations (peak)   3076  3.00 KiB  at dist.matmul_grad ({{.*}}memory-report.mlir:{{[0-9]+}}:14)
// CHECK-NEXT:  //  total                8196  8.00 KiB
// CHECK-NEXT:  // fits a device's 80.0 GiB (h100-sxm): 0.0%

// -----

// Without an optimizer step there are no model states to name: the step's
// values are activations, its results live to the end (x 32 + y 32 + z 32
// at the second op; x dies after it).
func.func @plain(%x: tensor<8xf32>) -> tensor<8xf32> {
  %y = dist.relu %x : (tensor<8xf32>) -> tensor<8xf32>
  %z = dist.mul %y, %x : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xf32>
  return %z : tensor<8xf32>
}
// CHECK-LABEL: // dist-memory-report @plain, bytes per device
// CHECK-NEXT:  //                      bytes
// CHECK-NEXT:  //  parameters              0   0 B
// CHECK-NEXT:  //  gradients               0   0 B
// CHECK-NEXT:  //  optimizer state         0   0 B
// CHECK-NEXT:  //  activations (peak)     96  96 B  at dist.mul ({{.*}}memory-report.mlir:{{[0-9]+}}:8)
// CHECK-NEXT:  //  total                  96  96 B

// -----

// Mixed precision: the f32 master weight (16x32, 2048 bytes), its f32
// gradient and moments count 4 bytes an element, bf16 values 2. The peak
// is at the gradient's cast back to f32: the bf16 gradient (1024), the f32
// one it becomes (2048, partial until the all-reduce) and the step (4).
dist.mesh @mesh = <["dp"=2]>
func.func @mixed(%x: tensor<8x16xbf16> {dist.sharding = #dist.sharding<@mesh, [{"dp"}, {}]>},
                 %w: tensor<16x32xf32> {dist.sharding = #dist.sharding<@mesh, [{}, {}]>},
                 %m: tensor<16x32xf32> {dist.sharding = #dist.sharding<@mesh, [{}, {}]>},
                 %v: tensor<16x32xf32> {dist.sharding = #dist.sharding<@mesh, [{}, {}]>},
                 %t: tensor<f32> {dist.sharding = #dist.sharding<@mesh, []>},
                 %dy: tensor<8x32xbf16> {dist.sharding = #dist.sharding<@mesh, [{"dp"}, {}]>})
    -> (tensor<16x32xf32> {dist.sharding = #dist.sharding<@mesh, [{}, {}]>},
        tensor<16x32xf32> {dist.sharding = #dist.sharding<@mesh, [{}, {}]>},
        tensor<16x32xf32> {dist.sharding = #dist.sharding<@mesh, [{}, {}]>}) {
  %wb = dist.cast %w : (tensor<16x32xf32>) -> tensor<16x32xbf16>
  %dx, %dwb = dist.matmul_grad %x, %wb, %dy : (tensor<8x16xbf16>, tensor<16x32xbf16>, tensor<8x32xbf16>) -> (tensor<8x16xbf16>, tensor<16x32xbf16>)
  %dw = dist.cast %dwb : (tensor<16x32xbf16>) -> tensor<16x32xf32>
  %p1, %m1, %v1 = dist.adamw %w, %dw, %m, %v, %t {lr = 1.0e-3 : f64, beta1 = 0.9 : f64, beta2 = 0.999 : f64, epsilon = 1.0e-8 : f64, weight_decay = 0.01 : f64} : (tensor<16x32xf32>, tensor<16x32xf32>, tensor<16x32xf32>, tensor<16x32xf32>, tensor<f32>) -> (tensor<16x32xf32>, tensor<16x32xf32>, tensor<16x32xf32>)
  return %p1, %m1, %v1 : tensor<16x32xf32>, tensor<16x32xf32>, tensor<16x32xf32>
}
// CHECK-LABEL: // dist-memory-report @mixed
// CHECK-NEXT:  //                      bytes
// CHECK-NEXT:  //  parameters           2048  2.00 KiB
// CHECK-NEXT:  //  gradients            2048  2.00 KiB
// CHECK-NEXT:  //  optimizer state      4096  4.00 KiB
// CHECK-NEXT:  //  activations (peak)   3076  3.00 KiB  at dist.cast ({{.*}}memory-report.mlir:{{[0-9]+}}:9)
// CHECK-NEXT:  //  total               11268  11.0 KiB
