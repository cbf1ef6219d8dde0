// scripts/npy.py, which makes dist-run's inputs and compares its results.
// RUN: rm -rf %t && mkdir -p %t/ref %t/nan %t/inf %t/same
//
// compare fails on a NaN or an infinity where the reference is finite,
// however small the other differences (25 of 76 AdamW results were NaN and
// compare passed them).
// RUN: %python -c "import sys; sys.path.insert(0, '%S/../../scripts'); import npy; npy.write('%t/ref/result0.npy', [3], [1.0, 2.0, 3.0], 'f4'); npy.write('%t/nan/result0.npy', [3], [1.0, float('nan'), 3.0], 'f4'); npy.write('%t/inf/result0.npy', [3], [1.0, 2.0, float('inf')], 'f4'); npy.write('%t/same/result0.npy', [3], [1.0, 2.0, 3.0], 'f4')"
// RUN: not %python %S/../../scripts/npy.py compare %t/ref %t/nan | FileCheck %s --check-prefix=NAN
// RUN: not %python %S/../../scripts/npy.py compare %t/ref %t/inf | FileCheck %s --check-prefix=NAN
// RUN: %python %S/../../scripts/npy.py compare %t/ref %t/same | FileCheck %s --check-prefix=SAME
// NAN: max difference against -n 1: 0.00e+00
// NAN-NEXT: result0.npy: 1 of 3 values are NaN or infinite where the reference is finite
// SAME: max difference against -n 1: 0.00e+00
// SAME-NOT: NaN
//
// inputs makes valid optimizer states by itself: the second moments an
// AdamW step reads are not negative, so the step's results are finite.
// RUN: dist-gen gpt --layers 1 --dp 1 --tp 1 --batch 2 --seq 8 --heads 2 --head-dim 8 --optimizer adamw > %t/adamw.mlir
// RUN: %python %S/../../scripts/npy.py inputs %t/adamw.mlir gpt_step %t/in --id-range 32 > /dev/null
// RUN: %python -c "import sys, glob; sys.path.insert(0, '%S/../../scripts'); import npy; moments = glob.glob('%t/in/v_*.npy'); print(len(moments), min(min(npy.read(f)) for f in moments) >= 0, min(npy.read('%t/in/m_w1_0.npy')) < 0)" | FileCheck %s --check-prefix=MOMENTS
// MOMENTS: 14 True True
// RUN: dist-run %t/adamw.mlir --entry gpt_step --input-dir %t/in --out %t/out
// RUN: %python -c "import sys, glob, math; sys.path.insert(0, '%S/../../scripts'); import npy; results = glob.glob('%t/out/result*.npy'); print(len(results), all(math.isfinite(v) for f in results for v in npy.read(f)))" | FileCheck %s --check-prefix=FINITE
// FINITE: 43 True
//
// --help prints the usage, which documents both.
// RUN: %python %S/../../scripts/npy.py --help | FileCheck %s --check-prefix=HELP
// HELP: npy.py inputs PROGRAM ENTRY DIR
// HELP: the second moments of the optimizer
// HELP: npy.py compare REFERENCE_DIR DIR
// HELP: a value is NaN or infinite where the reference is finite
