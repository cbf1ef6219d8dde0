// RUN: dist-opt %s --split-input-file --verify-diagnostics --dist-pipeline-report="microbatches=2 schedule=zb-h1" -o /dev/null

// Three stages need two boundaries on a path (or four in a training step);
// one leaves a stage with no work.
dist.mesh @mesh = <["pp"=3]>
// expected-error @below {{the stage boundaries lie 1 deep on the longest path; 3 pipeline stages need 2 (a forward program) or 4 (a training step)}}
func.func @too_few_boundaries(%x: tensor<4x8xf32> {dist.sharding = #dist.sharding<@mesh, [{}, {}]>}) -> tensor<4x8xf32> {
  %a = dist.gelu %x : (tensor<4x8xf32>) -> tensor<4x8xf32>
  %b = dist.stage_boundary %a : (tensor<4x8xf32>) -> tensor<4x8xf32>
  %c = dist.gelu %b : (tensor<4x8xf32>) -> tensor<4x8xf32>
  return %c : tensor<4x8xf32>
}

// -----

// The stages are the coordinates of a mesh axis: without one, there are no
// devices to put them on.
dist.mesh @mesh = <["dp"=2]>
// expected-error @below {{no mesh axis "pp" for the pipeline stages: the meshes of its arguments are @mesh (axis= names another)}}
func.func @no_axis(%x: tensor<4x8xf32> {dist.sharding = #dist.sharding<@mesh, [{}, {}]>}) -> tensor<4x8xf32> {
  %b = dist.stage_boundary %x : (tensor<4x8xf32>) -> tensor<4x8xf32>
  %c = dist.gelu %b : (tensor<4x8xf32>) -> tensor<4x8xf32>
  return %c : tensor<4x8xf32>
}

// -----

// Nor without shardings, which name the mesh.
// expected-error @below {{no mesh axis "pp" for the pipeline stages: its arguments have no sharding (axis= names another)}}
func.func @no_mesh(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %b = dist.stage_boundary %x : (tensor<4x8xf32>) -> tensor<4x8xf32>
  return %b : tensor<4x8xf32>
}

// -----

// ZB-H1 fills its bubbles with the W of earlier microbatches: it needs as
// many microbatches as stages.
dist.mesh @mesh = <["pp"=4]>
// expected-error @below {{zb-h1 needs at least as many microbatches as stages (4), not 2}}
func.func @too_few_microbatches(%x: tensor<4x8xf32> {dist.sharding = #dist.sharding<@mesh, [{}, {}]>}) -> tensor<4x8xf32> {
  %a = dist.stage_boundary %x : (tensor<4x8xf32>) -> tensor<4x8xf32>
  %b = dist.stage_boundary %a : (tensor<4x8xf32>) -> tensor<4x8xf32>
  %c = dist.stage_boundary %b : (tensor<4x8xf32>) -> tensor<4x8xf32>
  return %c : tensor<4x8xf32>
}
