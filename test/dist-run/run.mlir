// dist-run compiles the shipped Megatron MLP step with LLVM, links it with
// the runtime and runs it: -n 1 unpartitioned (the reference), -n 4 on the
// 2 x 2 mesh, with overlap and buckets; the results are global .npy files
// and agree to 1e-5 relative.
// RUN: rm -rf %t && mkdir -p %t
// RUN: %python %S/../../scripts/npy.py inputs %S/../../examples/megatron-mlp.mlir step %t/in
// RUN: dist-run %S/../../examples/megatron-mlp.mlir --entry step -n 1 --input-dir %t/in --out %t/ref
// RUN: dist-run %S/../../examples/megatron-mlp.mlir --entry step -n 4 --input-dir %t/in --out %t/sharded --overlap --bucket-mb 1 -O3
// RUN: %python %S/../../scripts/npy.py compare %t/ref %t/sharded | FileCheck %s
// CHECK: loss {{[0-9.]+}} (reference {{[0-9.]+}}); 4 results; max difference against -n 1: {{.*}}e-0{{[6-9]}}
//
// --repeat K calls the step K times after loading the inputs and writes the
// last call's results; --timing reports the median step time.
// RUN: dist-run %S/../../examples/megatron-mlp.mlir --entry step -n 4 --input-dir %t/in --out %t/repeat --overlap \
// RUN:   --repeat 3 --timing 2>&1 | FileCheck %s --check-prefix=REPEAT
// RUN: %python %S/../../scripts/npy.py compare %t/ref %t/repeat | FileCheck %s
// REPEAT: step {{[0-9.]+}} ms (median of 3)
// REPEAT: dist-run: compile {{[0-9]+}} ms
// RUN: not dist-run %S/../../examples/megatron-mlp.mlir --entry step --repeat 0 --out %t/x 2>&1 | FileCheck %s --check-prefix=REPEAT0
// REPEAT0: error: invalid value '0' for '--repeat <K>': must be a positive integer
//
// Bad command lines are clear errors.
// RUN: not dist-run %S/../../examples/megatron-mlp.mlir --entry step -n 3 --input-dir %t/in --out %t/x 2>&1 | FileCheck %s --check-prefix=COUNT
// COUNT: dist-run: the mesh has 4 devices: run with -n 4 (or -n 1 for the reference)
// RUN: not dist-run %S/../../examples/megatron-mlp.mlir --entry step -n 1 --input x=%t/in/x.npy --out %t/x 2>&1 | FileCheck %s --check-prefix=MISSING
// MISSING: dist-run: no --input for argument %target of @step
// RUN: not dist-run %S/../../examples/megatron-mlp.mlir --entry nope -n 1 --out %t/x 2>&1 | FileCheck %s --check-prefix=ENTRY
// ENTRY: dist-run: {{.*}}megatron-mlp.mlir has no function @nope; its functions are @step
// --grad differentiates first, and reports what it cannot differentiate.
// RUN: not dist-run %S/Inputs/not-a-loss.mlir --grad --entry f -n 1 --out %t/x 2>&1 | FileCheck %s --check-prefix=GRAD
// GRAD: not-a-loss.mlir:2:1: error: the first result of @f is the loss, which must be a rank-0 floating-point tensor, not 'tensor<8xf32>'
// GRAD: dist-run: func.func(dist-append-backward) failed (its diagnostics are above)
// RUN: not dist-run %S/../../examples/megatron-mlp.mlir --entry step -n 4 --out %t/x --argument-reshards always 2>&1 | FileCheck %s --check-prefix=RESHARDS
// RESHARDS: error: invalid value 'always' for '--argument-reshards <MODE>': must be shared or per-use
// RUN: not dist-run %S/../../examples/megatron-mlp.mlir --grad --entry step -n 1 --out %t/x 2>&1 | FileCheck %s --check-prefix=NO-GRAD
// NO-GRAD: dist-run: --grad: no argument of @step carries dist.requires_grad, so there is no gradient to derive
//
// A forward program run without --grad says so at the argument, in two lines
// (not with the function's IR and the pipeline), and at -n 4 too.
// RUN: %python %S/../../scripts/npy.py inputs %S/../../examples/megatron-mlp-forward.mlir step %t/fwd > /dev/null
// RUN: not dist-run %S/../../examples/megatron-mlp-forward.mlir --entry step -n 1 --input-dir %t/fwd --out %t/x 2> %t/forward.err
// RUN: FileCheck %s --check-prefix=FORWARD < %t/forward.err
// RUN: count 2 < %t/forward.err
// RUN: not dist-run %S/../../examples/megatron-mlp-forward.mlir --entry step -n 4 --input-dir %t/fwd --out %t/x 2>&1 | FileCheck %s --check-prefix=FORWARD
// FORWARD: megatron-mlp-forward.mlir:12:5: error: argument #2 asks for a gradient (dist.requires_grad) but the function has no backward: derive it first with dist-append-backward (dist-run --grad)
// FORWARD-NEXT: dist-run: dist-lower-to-cpu failed (its diagnostics are above)

//
// -n is optional: the usage says so and what it defaults to.
// RUN: dist-run --help | FileCheck %s --check-prefix=USAGE
// USAGE: N is 1 by default: -n 1 runs the unpartitioned program on one device
// USAGE: Usage: dist-run [OPTIONS] --entry <NAME> <PROGRAM>
