// RUN: dist-opt %s --split-input-file --dist-elide-collectives | FileCheck %s
// Eliding is idempotent: a second run finds no collective.
// RUN: dist-opt %s --split-input-file --dist-elide-collectives > %t
// RUN: dist-opt %t --split-input-file --dist-elide-collectives | diff %t -

// The tour's first example (docs/tour.md): the all_reduce of a value partial over tp is
// the value itself on one device.
dist.mesh @mesh = <["dp"=2, "tp"=4]>
func.func @tour(%x: tensor<8x16xf32> {dist.sharding = #dist.sharding<@mesh, [{"dp"}, {}]>},
                %w: tensor<16x32xf32> {dist.sharding = #dist.sharding<@mesh, [{"tp"}, {}]>}) -> tensor<8x32xf32> {
  %y = dist.matmul %x, %w {dist.sharding = [#dist.sharding<@mesh, [{"dp"}, {}], partial = sum{"tp"}>]}
      : (tensor<8x16xf32>, tensor<16x32xf32>) -> tensor<8x32xf32>
  %r = dist.all_reduce %y on @mesh axes = ["tp"] kind = sum : tensor<8x32xf32> -> tensor<8x32xf32>
  return %r : tensor<8x32xf32>
}

// CHECK-LABEL: func.func @tour
// CHECK:         %[[Y:.*]] = dist.matmul %{{.*}}, %{{.*}} {dist.sharding
// CHECK-NEXT:    return %[[Y]] : tensor<8x32xf32>


// -----


// Every kind, sync, coalesced and async: each result is its operand, and a
// wait delivers its start's operands in order.
dist.mesh @mesh = <["dp"=2, "tp"=2]>
func.func @every_kind(%a: tensor<8x16xf32>, %b: tensor<16xf32>) -> (tensor<8x16xf32>, tensor<16xf32>, tensor<8x16xf32>, tensor<16xf32>) {
  %0 = dist.reduce_scatter %a on @mesh axes = ["dp"] dim = 0 kind = sum : tensor<8x16xf32> -> tensor<8x16xf32>
  %1 = dist.all_gather %0 on @mesh axes = ["dp"] dim = 0 : tensor<8x16xf32> -> tensor<8x16xf32>
  %2 = dist.all_to_all %1 on @mesh axes = ["tp"] split_dim = 1 concat_dim = 0 : tensor<8x16xf32> -> tensor<8x16xf32>
  %3 = dist.all_slice %2 on @mesh axes = ["tp"] dim = 1 : tensor<8x16xf32> -> tensor<8x16xf32>
  %4:2 = dist.all_reduce_coalesced %3, %b on @mesh axes = ["dp", "tp"] kind = max
      : (tensor<8x16xf32>, tensor<16xf32>) -> (tensor<8x16xf32>, tensor<16xf32>)
  %h = dist.all_reduce_start %4#0, %4#1 on @mesh axes = ["tp"] kind = avg
      : tensor<8x16xf32>, tensor<16xf32> -> !dist.handle<tensor<8x16xf32>, tensor<16xf32>>
  %g = dist.all_gather_start %b on @mesh axes = ["dp"] dim = 0 : tensor<16xf32> -> !dist.handle<tensor<16xf32>>
  %5:2 = dist.wait %h : !dist.handle<tensor<8x16xf32>, tensor<16xf32>> -> tensor<8x16xf32>, tensor<16xf32>
  %6 = dist.wait %g : !dist.handle<tensor<16xf32>> -> tensor<16xf32>
  %7 = dist.add %5#0, %a : (tensor<8x16xf32>, tensor<8x16xf32>) -> tensor<8x16xf32>
  return %5#0, %5#1, %7, %6 : tensor<8x16xf32>, tensor<16xf32>, tensor<8x16xf32>, tensor<16xf32>
}

// CHECK-LABEL: func.func @every_kind
// CHECK-SAME:    (%[[A:.*]]: tensor<8x16xf32>, %[[B:.*]]: tensor<16xf32>)
// CHECK-NEXT:    %[[S:.*]] = dist.add %[[A]], %[[A]]
// CHECK-NEXT:    return %[[A]], %[[B]], %[[S]], %[[B]]


// -----


// Collectives nested in a region are elided too.
dist.mesh @mesh = <["dp"=2]>
func.func @nested(%a: tensor<4xf32>, %n: index) -> tensor<4xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %a) -> tensor<4xf32> {
    %s = dist.all_reduce %acc on @mesh axes = ["dp"] kind = sum : tensor<4xf32> -> tensor<4xf32>
    scf.yield %s : tensor<4xf32>
  }
  return %r : tensor<4xf32>
}

// CHECK-LABEL: func.func @nested
// CHECK:         scf.for %{{.*}} iter_args(%[[ACC:.*]] = %{{.*}})
// CHECK-NEXT:      scf.yield %[[ACC]]
