// RUN: dist-opt %s --split-input-file --verify-diagnostics --allow-unregistered-dialect --dist-propagate-sharding
// Every failure of dist-propagate-sharding, one case per chunk.

dist.mesh @mesh = <["dp"=2, "tp"=2]>

// Two fixed results of one op cannot split one factor two ways (and a
// bias gradient declared not partial forbids splitting the rows).
func.func @contradicting_results(%x: tensor<8x16xf32>, %b: tensor<16xf32>, %d: tensor<8x16xf32>) {
  // expected-remark@+2 {{factor 'd0' cannot be split over {"dp"}: result #1 is declared not partial; result #0 is resharded}}
  // expected-error@+1 {{fixed shardings contradict on factor 'd1': result #1 splits it over {"tp"}, result #0 over {}}}
  %dx, %db = dist.add_grad %x, %b, %d {dist.sharding = [#dist.sharding<@mesh, [{"dp"}, {}]>, #dist.sharding<@mesh, [{"tp"}]>]}
      : (tensor<8x16xf32>, tensor<16xf32>, tensor<8x16xf32>) -> (tensor<8x16xf32>, tensor<16xf32>)
  return
}

// -----

dist.mesh @mesh = <["tp"=2]>

// An elementwise op reduces nothing, so its result cannot be partial.
func.func @partial_without_reduction(%x: tensor<8x16xf32>) {
  // expected-error@+1 {{result #0 is declared partial over {"tp"}, which the op cannot produce: it reduces no factor}}
  %0 = dist.relu %x {dist.sharding = [#dist.sharding<@mesh, [{}, {}], partial = sum{"tp"}>]} : (tensor<8x16xf32>) -> tensor<8x16xf32>
  return
}

// -----

dist.mesh @mesh = <["dp"=2]>

// A sum reduction yields a partial sum, not a partial max.
func.func @partial_kind_mismatch(%x: tensor<8x16xf32> {dist.sharding = #dist.sharding<@mesh, [{"dp"}, {}]>}) {
  // expected-error@+1 {{result #0 is declared partial max, but the op produces partial sum}}
  %0 = dist.reduce_sum %x {dims = array<i64: 0>, dist.sharding = [#dist.sharding<@mesh, [{}], partial = max{"dp"}>]} : (tensor<8x16xf32>) -> tensor<16xf32>
  return
}

// -----

dist.mesh @mesh = <["tp"=3]>

// A declared partial result needs its reduced factor split. k = 2 could be
// split unevenly (padded) over 3 only if it had at least 3 entries.
func.func @partial_too_small(%x: tensor<8x2xf32>, %w: tensor<2x6xf32>) {
  // expected-remark@+2 {{factor 'k' cannot be split over {"tp"}: size 2 is not divisible by 3, and has fewer entries than shards; result #0 is resharded}}
  // expected-error@+1 {{result #0 is declared partial over {"tp"}, which the op cannot produce: its reduced factors ('k') are not split over them}}
  %0 = dist.matmul %x, %w {dist.sharding = [#dist.sharding<@mesh, [{}, {}], partial = sum{"tp"}>]} : (tensor<8x2xf32>, tensor<2x6xf32>) -> tensor<8x6xf32>
  return
}

// -----

dist.mesh @mesh = <["tp"=3]>

// A mean over a dim that 3 does not divide cannot be padded: the padding
// would count in the mean.
func.func @mean_not_divisible(%x: tensor<8x6xf32>) {
  // expected-remark@+2 {{factor 'd0' cannot be split over {"tp"}: size 8 is not divisible by 3, and a result averages over it, which padding would skew; result #0 is resharded}}
  // expected-error@+1 {{result #0 is declared partial over {"tp"}, which the op cannot produce: its reduced factors ('d0') are not split over them}}
  %0 = dist.reduce_mean %x {dims = array<i64: 0>, dist.sharding = [#dist.sharding<@mesh, [{}], partial = avg{"tp"}>]} : (tensor<8x6xf32>) -> tensor<6xf32>
  return
}

// -----

dist.mesh @mesh = <["dp"=2]>

// An op without a rule is an error, never a silent replicate.
func.func @no_rule(%x: tensor<8xf32> {dist.sharding = #dist.sharding<@mesh, [{"dp"}]>}) {
  // expected-error@+1 {{no sharding rule for 'test.opaque'}}
  %0 = "test.opaque"(%x) : (tensor<8xf32>) -> tensor<8xf32>
  return
}

// -----

dist.mesh @a = <["x"=2]>
dist.mesh @b = <["y"=2]>

// One mesh per function.
func.func @two_meshes(%x: tensor<8xf32> {dist.sharding = #dist.sharding<@a, [{"x"}]>}) {
  // expected-error@+1 {{dist-propagate-sharding handles one mesh per function: this uses @b, the function also uses @a}}
  %0 = dist.relu %x {dist.sharding = [#dist.sharding<@b, [{"y"}]>]} : (tensor<8xf32>) -> tensor<8xf32>
  return
}

// -----

dist.mesh @mesh = <["dp"=2]>

// An async start needs its wait in the same function.
func.func @start_without_wait(%x: tensor<8xf32>) {
  // expected-error@+1 {{'dist.all_gather_start' has no dist.wait in this function}}
  %h = dist.all_gather_start %x on @mesh axes = ["dp"] dim = 0 : tensor<8xf32> -> !dist.handle<tensor<8xf32>>
  return
}

// -----

dist.mesh @mesh = <["dp"=2]>

// Control flow inside a function is out of scope.
// expected-error@+1 {{dist-propagate-sharding needs a single-block function body}}
func.func @blocks(%x: tensor<8xf32> {dist.sharding = #dist.sharding<@mesh, [{"dp"}]>}) {
  cf.br ^next
^next:
  return
}

// -----

dist.mesh @mesh = <["a0"=1, "a1"=1, "a2"=1, "a3"=1, "a4"=1, "a5"=1, "a6"=1, "a7"=1, "a8"=1, "a9"=1, "a10"=1, "a11"=1, "a12"=1, "a13"=1, "a14"=1, "a15"=1]>

// Axis lists are inline; a mesh of more axes than they hold is refused.
// expected-error@+1 {{dist-propagate-sharding handles meshes of at most 15 axes; @mesh has 16}}
func.func @too_many_axes(%x: tensor<8xf32> {dist.sharding = #dist.sharding<@mesh, [{"a0"}]>}) -> tensor<8xf32> {
  %0 = dist.relu %x : (tensor<8xf32>) -> tensor<8xf32>
  return %0 : tensor<8xf32>
}
