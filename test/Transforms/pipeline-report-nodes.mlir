// A stage's collectives cost the level their groups on that stage span:
// with 4 devices a node, stage 0's dp group (devices 0-2) is inside node 0
// and stage 1's (3-5) spans two, so its all-reduce costs the network's 100
// us; so does the transfer, since device 1's peer on stage 1, device 4, is
// on the other node.
// RUN: dist-opt %s --dist-pipeline-report="devices-per-node=4 link-gbps=1000000000 link-latency-us=1 inter-node-gbps=1000000000 inter-node-latency-us=100" -o /dev/null 2>&1 | FileCheck %s
// With 6 devices a node nothing crosses.
// RUN: dist-opt %s --dist-pipeline-report="devices-per-node=6 link-gbps=1000000000 link-latency-us=1 inter-node-gbps=1000000000 inter-node-latency-us=100" -o /dev/null 2>&1 | FileCheck %s --check-prefix=ONE-NODE
dist.mesh @pm = <["pp"=2, "dp"=3]>
func.func @per_stage(%x: tensor<256xf32> {dist.sharding = #dist.sharding<@pm, [{}]>}) -> tensor<256xf32> {
  %a = dist.all_reduce %x on @pm axes = ["dp"] kind = sum : tensor<256xf32> -> tensor<256xf32>
  %b = dist.stage_boundary %a : (tensor<256xf32>) -> tensor<256xf32>
  %c = dist.all_reduce %b on @pm axes = ["dp"] kind = sum : tensor<256xf32> -> tensor<256xf32>
  return %c : tensor<256xf32>
}
// CHECK:      // dist-pipeline-report @per_stage: 2 stages on "pp", 1 microbatches, a forward program; {{.*}} 4 devices a node, link 1000000000 GB/s 1 us in a node, 1000000000 GB/s 100 us across
// CHECK-NEXT: //  stage  ops     F_us   B_us   W_us  send_us
// CHECK-NEXT: //  0        2    1.000  0.000  0.000  100.000
// CHECK-NEXT: //  1        1  100.000  0.000  0.000
// ONE-NODE:      //  0        2  1.000  0.000  0.000    1.000
// ONE-NODE-NEXT: //  1        1  1.000  0.000  0.000
