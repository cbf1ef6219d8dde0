// RUN: dist-opt %s --split-input-file --verify-diagnostics --dist-pipeline-report="microbatches=2 schedule=zb-h1" -o /dev/null

// Three stages need two boundaries on a path (or four in a training step);
// one leaves a stage with no work.
dist.mesh @mesh = <["pp"=3]>
// expected-error @below {{the stage boundaries lie 1 deep on the longest path; a forward program of 3 pipeline stages needs 2}}
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

// Two boundaries the loss depends on make three stages, not a training
// step of two.
dist.mesh @mesh = <["pp"=2]>
// expected-error @below {{the stage boundaries lie 2 deep on the longest path; a forward program of 2 pipeline stages needs 1}}
func.func @too_many_boundaries(%x: tensor<4x8xf32> {dist.sharding = #dist.sharding<@mesh, [{}, {}]>}) -> tensor<4x8xf32> {
  %a = dist.stage_boundary %x : (tensor<4x8xf32>) -> tensor<4x8xf32>
  %b = dist.gelu %a : (tensor<4x8xf32>) -> tensor<4x8xf32>
  %c = dist.stage_boundary %b : (tensor<4x8xf32>) -> tensor<4x8xf32>
  %d = dist.gelu %c : (tensor<4x8xf32>) -> tensor<4x8xf32>
  return %d : tensor<4x8xf32>
}

// -----

// The forward is what the loss (the first result) depends on: an argument
// returned first leaves no forward.
dist.mesh @mesh = <["pp"=2]>
// expected-error @below {{the function's first result (the loss) is no op's result: the forward is what the loss depends on}}
func.func @no_loss(%x: tensor<4x8xf32> {dist.sharding = #dist.sharding<@mesh, [{}, {}]>}) -> (tensor<4x8xf32>, tensor<4x8xf32>) {
  %a = dist.stage_boundary %x : (tensor<4x8xf32>) -> tensor<4x8xf32>
  %b = dist.gelu %a : (tensor<4x8xf32>) -> tensor<4x8xf32>
  return %x, %b : tensor<4x8xf32>, tensor<4x8xf32>
}

// -----

// Ops of a block that a branch reaches have no place in the order of work.
dist.mesh @mesh = <["pp"=2]>
// expected-error @below {{pipeline stages need a function of one block (branches between blocks have no stage)}}
func.func @branches(%x: tensor<4x8xf32> {dist.sharding = #dist.sharding<@mesh, [{}, {}]>}) -> tensor<4x8xf32> {
  %a = dist.stage_boundary %x : (tensor<4x8xf32>) -> tensor<4x8xf32>
  cf.br ^next(%a : tensor<4x8xf32>)
^next(%b: tensor<4x8xf32>):
  %c = dist.gelu %b : (tensor<4x8xf32>) -> tensor<4x8xf32>
  return %c : tensor<4x8xf32>
}

// -----

// ZB-H1 fills its bubbles with the W of earlier microbatches: a training
// step of three stages needs three microbatches.
dist.mesh @mesh = <["pp"=3]>
// expected-error @below {{zb-h1 needs at least as many microbatches as stages (3), not 2}}
func.func @too_few_microbatches(%x: tensor<4x8xf32> {dist.sharding = #dist.sharding<@mesh, [{}, {}]>}) -> (tensor<4x8xf32>, tensor<4x8xf32>) {
  %a = dist.gelu %x : (tensor<4x8xf32>) -> tensor<4x8xf32>
  %b0 = dist.stage_boundary %a : (tensor<4x8xf32>) -> tensor<4x8xf32>
  %c = dist.gelu %b0 : (tensor<4x8xf32>) -> tensor<4x8xf32>
  %b1 = dist.stage_boundary %c : (tensor<4x8xf32>) -> tensor<4x8xf32>
  %loss = dist.gelu %b1 : (tensor<4x8xf32>) -> tensor<4x8xf32>
  // A backward of the same shape, crossing back.
  %d = dist.gelu %loss : (tensor<4x8xf32>) -> tensor<4x8xf32>
  %g1 = dist.stage_boundary %d : (tensor<4x8xf32>) -> tensor<4x8xf32>
  %e = dist.gelu %g1 : (tensor<4x8xf32>) -> tensor<4x8xf32>
  %g0 = dist.stage_boundary %e : (tensor<4x8xf32>) -> tensor<4x8xf32>
  %f = dist.gelu %g0 : (tensor<4x8xf32>) -> tensor<4x8xf32>
  return %loss, %f : tensor<4x8xf32>, tensor<4x8xf32>
}
