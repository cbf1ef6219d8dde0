// dist-run feeds an argument only an array of exactly its global shape, and
// converts only the dtypes docs/partition-and-lowering.md lists (float64 to
// an f32 argument, int32 to token ids); anything else is an error that names
// the argument and both shapes, before anything compiles or runs.
// RUN: rm -rf %t && mkdir -p %t
// RUN: %python %S/../../scripts/npy.py inputs %S/../../examples/megatron-mlp.mlir step %t/in > /dev/null
//
// The same elements transposed: (16, 8) for tensor<8x16xf32>.
// RUN: %python %S/../../scripts/npy.py convert %t/in/x.npy %t/x-t.npy --shape 16,8
// RUN: not dist-run %S/../../examples/megatron-mlp.mlir --entry step -n 1 --input-dir %t/in \
// RUN:   --input x=%t/x-t.npy --out %t/transposed 2>&1 | FileCheck %s --check-prefix=SHAPE
// RUN: not test -e %t/transposed
// SHAPE: dist-run: %x of @step: {{.*}}x-t.npy has shape (16, 8) where the argument is (8, 16)
//
// A rank-0 argument takes a rank-0 array, not a (1,) one.
// RUN: %python %S/../../scripts/npy.py convert %t/in/dloss.npy %t/dloss-1.npy --shape 1
// RUN: not dist-run %S/../../examples/megatron-mlp.mlir --entry step -n 1 --input-dir %t/in \
// RUN:   --input dloss=%t/dloss-1.npy --out %t/x 2>&1 | FileCheck %s --check-prefix=SCALAR
// SCALAR: dist-run: %dloss of @step: {{.*}}dloss-1.npy has shape (1,) where the argument is ()
//
// Integers are not converted to an f32 argument.
// RUN: %python %S/../../scripts/npy.py convert %t/in/x.npy %t/x-i4.npy --dtype i4
// RUN: not dist-run %S/../../examples/megatron-mlp.mlir --entry step -n 1 --input-dir %t/in \
// RUN:   --input x=%t/x-i4.npy --out %t/x 2>&1 | FileCheck %s --check-prefix=DTYPE
// DTYPE: dist-run: %x of @step: {{.*}}x-i4.npy has dtype int32 where the argument is f32 (give float32 or float64)
//
// float64 is rounded to float32: the same values give the same results.
// RUN: dist-run %S/../../examples/megatron-mlp.mlir --entry step -n 1 --input-dir %t/in --out %t/ref \
// RUN:   --keep-exe %t/step
// RUN: %python %S/../../scripts/npy.py convert %t/in/x.npy %t/x-f8.npy --dtype f8
// RUN: dist-run %S/../../examples/megatron-mlp.mlir --entry step -n 1 --input-dir %t/in \
// RUN:   --input x=%t/x-f8.npy --out %t/f8
// RUN: %python %S/../../scripts/npy.py compare %t/ref %t/f8 | FileCheck %s --check-prefix=SAME
// SAME: max difference against -n 1: 0.00e+00
//
// The compiled program checks too, when run without dist-run.
// RUN: env DIST_RUN_INPUT_0=%t/x-t.npy DIST_RUN_OUT=%t not %t/step 2>&1 | FileCheck %s --check-prefix=RUNTIME
// RUNTIME: dist-runtime: {{.*}}x-t.npy: shape (16, 8) where the argument is (8, 16)
