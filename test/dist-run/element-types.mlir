// dist-run reads and writes each element type a program's arguments and
// results have: bf16 as ml_dtypes saves it (numpy's '<V2', what JAX's
// np.save writes), f64, and i64, on one device and sharded over two (the
// bf16 and f64 arguments are split, so their shards are cut and the results
// gathered in their own type).
// RUN: rm -rf %t && mkdir -p %t
// RUN: %python -c "import sys; sys.path.insert(0, '%S/../../scripts'); import npy; npy.write('%t/b.npy', [4], [1.5, -2.0, 3.015625, 0.1], 'bf16'); npy.write('%t/d.npy', [4], [0.1, 1e-300, 2.5, -7.0], 'f8'); npy.write('%t/ids.npy', [4], [3, 1, 4, 1], 'i8')"
// RUN: dist-run %s --entry io --input-dir %t --out %t/one
// RUN: %python -c "import sys; sys.path.insert(0, '%S/../../scripts'); import npy; [print(npy.read_with_shape('%t/one/result%%d.npy' %% k)) for k in range(3)]" | FileCheck %s
// bf16 doubled, 0.1 as its bf16 (0.10009765625) doubled; f64 exact.
// CHECK:      ([4], 'bf16', [3.0, -4.0, 6.03125, 0.2001953125])
// CHECK-NEXT: ([4], 'f8', [0.2, 2e-300, 5.0, -14.0])
// CHECK-NEXT: ([4], 'i8', [3, 1, 4, 1])
// RUN: dist-run %s --entry io -n 2 --input-dir %t --out %t/two
// RUN: %python -c "import sys; sys.path.insert(0, '%S/../../scripts'); import npy; [print(npy.read_with_shape('%t/two/result%%d.npy' %% k)) for k in range(3)]" | FileCheck %s
//
// A bf16 argument also takes float32 (or float64), rounded to nearest even:
// 1 + 2^-8 is halfway between two bf16 values and goes to the even one.
// RUN: %python -c "import sys; sys.path.insert(0, '%S/../../scripts'); import npy; npy.write('%t/b4.npy', [4], [1.00390625, 1.01171875, 3.015625, 0.1], 'f4'); npy.write('%t/d4.npy', [4], [0.5, 1.0, 2.5, -7.0], 'f4')"
// RUN: dist-run %s --entry io --input-dir %t --input b=%t/b4.npy --input d=%t/d4.npy --out %t/f4
// RUN: %python -c "import sys; sys.path.insert(0, '%S/../../scripts'); import npy; [print(npy.read('%t/f4/result%%d.npy' %% k)) for k in range(2)]" | FileCheck %s --check-prefix=ROUNDED
// ROUNDED:      [2.0, 2.03125, 6.03125, 0.2001953125]
// ROUNDED-NEXT: [1.0, 2.0, 5.0, -14.0]
//
// A bfloat16 array for an f32 argument would lose nothing, but it is not a
// dtype the argument takes: refused, as an integer array is.
// RUN: not dist-run %S/Inputs/io-types.mlir --entry single --input x=%t/b.npy --out %t/x 2>&1 \
// RUN:   | FileCheck %s --check-prefix=DTYPE
// DTYPE: dist-run: %x of @single: {{.*}}b.npy has dtype bfloat16 where the argument is f32 (give float32 or float64)
//
// Element types dist-run does not read or write are refused before it
// compiles anything.
// RUN: not dist-run %S/Inputs/io-types.mlir --entry half --input x=%t/b.npy --out %t/x 2>&1 | FileCheck %s --check-prefix=F16
// F16: dist-run: %x of @half is a tensor of f16: dist-run feeds f32, f64, bf16, i32, i64 and i1 arguments only
// RUN: not dist-run %S/Inputs/io-types.mlir --entry narrow --input x=%t/d.npy --out %t/x 2>&1 | FileCheck %s --check-prefix=RESULT
// RESULT: dist-run: result 0 of @narrow is a tensor of f16: dist-run writes f32, f64, bf16, i32, i64 and i1 results only
dist.mesh @mesh = <["a"=2]>
func.func @io(%b: tensor<4xbf16> {dist.sharding = #dist.sharding<@mesh, [{"a"}]>},
              %d: tensor<4xf64> {dist.sharding = #dist.sharding<@mesh, [{"a"}]>},
              %ids: tensor<4xi64>) -> (tensor<4xbf16>, tensor<4xf64>, tensor<4xi64>) {
  %b2 = dist.add %b, %b : (tensor<4xbf16>, tensor<4xbf16>) -> tensor<4xbf16>
  %d2 = dist.add %d, %d : (tensor<4xf64>, tensor<4xf64>) -> tensor<4xf64>
  return %b2, %d2, %ids : tensor<4xbf16>, tensor<4xf64>, tensor<4xi64>
}
