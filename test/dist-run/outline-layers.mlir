// dist-run outlines identical layers (dist-outline-layers, before
// dist-lower-to-cpu); --no-outline-layers keeps them inline. The results
// are byte for byte the same, at 1, 2 and 8 layers, on one device and
// sharded, with overlap and with an optimizer step.
// RUN: rm -rf %t && mkdir -p %t
// RUN: dist-gen gpt --layers 1 --dp 1 --tp 1 > %t/g1.mlir
// RUN: dist-gen gpt --layers 2 --dp 2 --tp 2 --optimizer adamw --zero 2 > %t/g2.mlir
// RUN: dist-gen gpt --layers 8 --dp 1 --tp 1 > %t/g8.mlir
// RUN: %python %S/../../scripts/npy.py inputs %t/g1.mlir gpt_step %t/in1 > /dev/null
// RUN: %python %S/../../scripts/npy.py inputs %t/g2.mlir gpt_step %t/in2 > /dev/null
// RUN: %python %S/../../scripts/npy.py inputs %t/g8.mlir gpt_step %t/in8 > /dev/null
// RUN: dist-run %t/g1.mlir --entry gpt_step --input-dir %t/in1 --out %t/g1-on
// RUN: dist-run %t/g1.mlir --entry gpt_step --input-dir %t/in1 --out %t/g1-off --no-outline-layers
// RUN: dist-run %t/g2.mlir --entry gpt_step -n 4 --overlap --input-dir %t/in2 --out %t/g2-on
// RUN: dist-run %t/g2.mlir --entry gpt_step -n 4 --overlap --input-dir %t/in2 --out %t/g2-off --no-outline-layers
// RUN: dist-run %t/g8.mlir --entry gpt_step --input-dir %t/in8 --out %t/g8-on
// RUN: dist-run %t/g8.mlir --entry gpt_step --input-dir %t/in8 --out %t/g8-off --no-outline-layers
// RUN: %python -c "import filecmp, os, sys; bad = [f'%t/{d}/{f}' for d in ('g1', 'g2', 'g8') for f in sorted(os.listdir(f'%t/{d}-off')) if not filecmp.cmp(f'%t/{d}-on/{f}', f'%t/{d}-off/{f}', shallow=False)]; print('differ:', bad or 'none'); print(sum(len(os.listdir(f'%t/{d}-off')) for d in ('g1', 'g2', 'g8')), 'results compared')" | FileCheck %s
// CHECK: differ: none
// CHECK-NEXT: {{[1-9][0-9]*}} results compared
