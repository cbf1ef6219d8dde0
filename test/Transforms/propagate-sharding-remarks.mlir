// RUN: dist-opt %s --split-input-file --verify-diagnostics --dist-propagate-sharding -o /dev/null
// RUN: dist-opt %s --split-input-file --dist-propagate-sharding=remarks=all -o /dev/null 2>&1 | FileCheck %s --check-prefix=ALL
// RUN: dist-opt %s --split-input-file --dist-propagate-sharding=remarks=none -o /dev/null 2>&1 | FileCheck %s --allow-empty --check-prefix=NONE
// Conflicts are resolved deterministically and reported as remarks naming
// both sides; remarks=all also reports every op's factor assignment and the
// partial operands that need resolution; remarks=none is silent.

// NONE-NOT: remark

dist.mesh @mesh = <["dp"=2, "tp"=2]>

// Two fixed operands of equal weight: the earlier one wins.
func.func @fixed_operands(
    %a: tensor<8x16xf32> {dist.sharding = #dist.sharding<@mesh, [{"dp"}, {}]>},
    %b: tensor<8x16xf32> {dist.sharding = #dist.sharding<@mesh, [{"tp"}, {}]>}) {
  // expected-remark@+1 {{sharding conflict on factor 'd0': operand #0 splits it over {"dp"}, operand #1 over {"tp"}; keeping {"dp"} (operand #0 comes first)}}
  %0 = dist.add %a, %b : (tensor<8x16xf32>, tensor<8x16xf32>) -> tensor<8x16xf32>
  return
}

// -----

dist.mesh @mesh = <["dp"=2, "tp"=2]>

// A fixed result wins over a fixed operand.
func.func @fixed_result(%x: tensor<8x16xf32> {dist.sharding = #dist.sharding<@mesh, [{"dp"}, {}]>}) {
  // expected-remark@+1 {{sharding conflict on factor 'd0': result #0 splits it over {"tp"}, operand #0 over {"dp"}; keeping {"tp"} (fixed result wins over fixed operand)}}
  %0 = dist.relu %x {dist.sharding = [#dist.sharding<@mesh, [{"tp"}, {}]>]} : (tensor<8x16xf32>) -> tensor<8x16xf32>
  return
}

// -----

dist.mesh @mesh = <["dp"=2]>

// A fixed operand's split is where it is stored. w (stored split over dp on
// its contracted rows) and the batch of x (dp from propagation) both claim
// dp: gathering w moves 8192 elements per device, contracting over dp (an
// all_to_all of x, then reducing the 512x256 product) 139264, so the batch
// keeps dp and w is gathered.
func.func @stored_weight_gathered(
    %ids: tensor<512x64xf32> {dist.sharding = #dist.sharding<@mesh, [{"dp"}, {}]>},
    %w: tensor<64x256xf32> {dist.sharding = #dist.sharding<@mesh, [{"dp"}, {}]>}) {
  %x = dist.relu %ids : (tensor<512x64xf32>) -> tensor<512x64xf32>
  // expected-remark@+1 {{factor 'k' cannot be split over {"dp"}: {"dp"} is taken by factor 'm'; operand #1 is resharded}}
  %0 = dist.matmul %x, %w : (tensor<512x64xf32>, tensor<64x256xf32>) -> tensor<512x256xf32>
  return
}

// -----

dist.mesh @mesh = <["dp"=2]>

// With 4 rows the contraction over dp moves less (64 + 1024 elements
// against 8192): w keeps its split and x is resharded.
func.func @stored_weight_kept(
    %ids: tensor<4x64xf32> {dist.sharding = #dist.sharding<@mesh, [{"dp"}, {}]>},
    %w: tensor<64x256xf32> {dist.sharding = #dist.sharding<@mesh, [{"dp"}, {}]>}) {
  %x = dist.relu %ids : (tensor<4x64xf32>) -> tensor<4x64xf32>
  // expected-remark@+1 {{factor 'm' cannot be split over {"dp"}: {"dp"} is taken by factor 'k'; operand #0 is resharded}}
  %0 = dist.matmul %x, %w : (tensor<4x64xf32>, tensor<64x256xf32>) -> tensor<4x256xf32>
  return
}

// -----

dist.mesh @mesh = <["dp"=2, "tp"=2]>

// A fixed operand wins over a propagated one.
func.func @fixed_over_propagated(
    %x: tensor<8x16xf32> {dist.sharding = #dist.sharding<@mesh, [{"dp"}, {}]>},
    %y: tensor<8x16xf32> {dist.sharding = #dist.sharding<@mesh, [{"tp"}, {}]>}) {
  %p = dist.relu %x : (tensor<8x16xf32>) -> tensor<8x16xf32>
  // expected-remark@+1 {{sharding conflict on factor 'd0': operand #1 splits it over {"tp"}, operand #0 over {"dp"}; keeping {"tp"} (fixed operand wins over propagated)}}
  %0 = dist.add %p, %y : (tensor<8x16xf32>, tensor<8x16xf32>) -> tensor<8x16xf32>
  return
}

// -----

dist.mesh @mesh = <["dp"=2]>

// One mesh axis splits one factor: a claim on a taken axis cannot be kept,
// so it does not count as more shards.
func.func @axis_taken(
    %a: tensor<8x16xf32> {dist.sharding = #dist.sharding<@mesh, [{"dp"}, {}]>},
    %b: tensor<8x16xf32> {dist.sharding = #dist.sharding<@mesh, [{}, {"dp"}]>}) {
  // expected-remark@+2 {{sharding conflict on factor 'd0': operand #0 splits it over {"dp"}, operand #1 over {}; keeping {"dp"} (more usable shards win)}}
  // expected-remark@+1 {{sharding conflict on factor 'd1': operand #0 splits it over {}, operand #1 over {"dp"}; keeping {} (operand #0 comes first)}}
  %0 = dist.add %a, %b : (tensor<8x16xf32>, tensor<8x16xf32>) -> tensor<8x16xf32>
  return
}

// -----

dist.mesh @mesh = <["tp"=2]>

// A partial operand carried through a matmul holds its axes: k cannot be
// split over them too.
func.func @axis_taken_by_partial(
    %x: tensor<8x64xf32> {dist.sharding = #dist.sharding<@mesh, [{}, {"tp"}]>},
    %w: tensor<64x16xf32> {dist.sharding = #dist.sharding<@mesh, [{"tp"}, {}]>},
    %v: tensor<16x4xf32> {dist.sharding = #dist.sharding<@mesh, [{"tp"}, {}]>}) {
  %p = dist.matmul %x, %w : (tensor<8x64xf32>, tensor<64x16xf32>) -> tensor<8x16xf32>
  // expected-remark@+1 {{factor 'k' cannot be split over {"tp"}: {"tp"} is taken by the partial operand; operand #1 is resharded}}
  %q = dist.matmul %p, %v : (tensor<8x16xf32>, tensor<16x4xf32>) -> tensor<8x4xf32>
  return
}

// -----

dist.mesh @mesh = <["dp"=4]>

// A split that does not divide every dim of its factor, whose dims differ
// in size (a reshape's merged dims), cannot be padded: it is dropped.
func.func @not_divisible(%x: tensor<4x8xf32> {dist.sharding = #dist.sharding<@mesh, [{"dp"}, {}]>}) {
  // expected-remark@+1 {{factor 'g0' cannot be split over {"dp"}: size 2 is not divisible by 4, and its dims differ in size (a reshape), so padding cannot line up; operand #0 is resharded}}
  %0 = dist.reshape %x : (tensor<4x8xf32>) -> tensor<2x16xf32>
  return
}

// -----

dist.mesh @mesh = <["tp"=2]>

func.func @assignments(
    %x: tensor<8x64xf32>,
    %w: tensor<64x16xf32> {dist.sharding = #dist.sharding<@mesh, [{"tp"}, {}]>},
    %b: tensor<16xf32>) {
  // ALL: :[[@LINE+6]]:8: remark: m,k ; k,n -> m,n: k = {"tp"}
  // ALL-NEXT: :[[@LINE+6]]:8: remark: d0,d1 -> d0,d1: nothing split
  // ALL-NEXT: :[[@LINE+5]]:8: remark: operand #0 is partial sum over {"tp"} and must be resolved first
  // ALL-NEXT: :[[@LINE+5]]:8: remark: d0,d1 ; d1 -> d0,d1: nothing split
  // ALL-NEXT: :[[@LINE+4]]:8: remark: operand #0 is partial sum over {"tp"} and must be resolved first
  // ALL-NEXT: :[[@LINE+4]]:8: remark: d0,d1 -> (): nothing split
  %p = dist.matmul %x, %w : (tensor<8x64xf32>, tensor<64x16xf32>) -> tensor<8x16xf32>
  %g = dist.gelu %p : (tensor<8x16xf32>) -> tensor<8x16xf32>
  %s = dist.add %p, %b : (tensor<8x16xf32>, tensor<16xf32>) -> tensor<8x16xf32>
  %l = dist.reduce_sum %g {dims = array<i64: 0, 1>} : (tensor<8x16xf32>) -> tensor<f32>
  return
}

// -----

dist.mesh @mesh = <["dp"=2, "tp"=4]>

// A split that divides its factor evenly wins over an uneven one with more
// shards: 6 over dp=2, not over tp=4 (shards of 2, the last one empty).
func.func @even_wins(%x: tensor<6x8xf32> {dist.sharding = #dist.sharding<@mesh, [{"tp"}, {}]>}, %y: tensor<6x8xf32> {dist.sharding = #dist.sharding<@mesh, [{"dp"}, {}]>}) {
  // expected-remark@+1 {{sharding conflict on factor 'd0': operand #1 splits it over {"dp"}, operand #0 over {"tp"}; keeping {"dp"} (an even split wins over an uneven one)}}
  %0 = dist.add %x, %y : (tensor<6x8xf32>, tensor<6x8xf32>) -> tensor<6x8xf32>
  return
}

// -----

dist.mesh @mesh = <["dp"=2, "tp"=2]>

// A top-k picks from a whole row: a row split over tp is gathered first, and
// the remark says so; the positions keep dp.
func.func @top_k_of_a_split_row(%x: tensor<8x16xf32> {dist.sharding = #dist.sharding<@mesh, [{"dp"}, {"tp"}]>}) {
  // expected-remark@+1 {{factor 'n1' cannot be split over {"tp"}: the op needs it whole; operand #0 is resharded}}
  %v, %i = dist.top_k %x {k = 2 : i64} : (tensor<8x16xf32>) -> (tensor<8x2xf32>, tensor<8x2xi64>)
  return
}
