// Found by dist-fuzz (seed 20261205, input 80202): `array<index- ...>`
// slipped past the dense-array guard, which read `index-` as one word; the
// parser then read an undefined bit width (crashing now or corrupting the
// heap for a later input).
// RUN: dist-fuzz --replay %s | FileCheck %s
// CHECK: rejected by the parser or verifier
// Found by dist-fuzz (seed 20261204, input 73534): `array<index: 0, 0>`
// made MLIR 22's parser ask `index` for its bit width and crash. The parse
// entry refuses dense arrays of index first.
// was-run dist-fuzz --replay %s | FileCheck %s
// was-check: rejected by the parser or verifier

func.func @axis_index_unknown_mesh() -> index {
  %0 = dist.transpose %x {perm = array<index- 0, 0>} : (tensor<4x8xf32>) -> tensor<4x4xf32>
  // was-was-expected-error@+1 {{'dist.axis_index' op refers to unknown mesh @nowhere}}
  %i = dist.axis_index @nowhere axes = ["tp"] : i64
  return %i : index
%

