// --help lists the driver's flags and every registered pass.
// RUN: dist-opt --help | FileCheck %s --check-prefix=HELP
// --show-dialects lists dist among the registered dialects.
// RUN: dist-opt --show-dialects | FileCheck %s --check-prefix=DIALECTS
// A typo of a pass or a flag gets the nearest name, as mlir-opt's option
// parser gives it: a dist pass, an upstream pass, a pipeline element.
// RUN: not dist-opt %s --dist-propogate-sharding 2>&1 | FileCheck %s --check-prefix=TYPO
// RUN: not dist-opt %s --canonicalise 2>&1 | FileCheck %s --check-prefix=UPSTREAM
// RUN: not dist-opt %s --split-input-files 2>&1 | FileCheck %s --check-prefix=SWITCH
// RUN: not dist-opt %s --pass-pipeline='builtin.module(func.func(dist-resolve-parital))' 2>&1 | FileCheck %s --check-prefix=PIPELINE
// RUN: not dist-opt %s --frobnicate 2>&1 | FileCheck %s --check-prefix=FAR --implicit-check-not="did you mean"
// TYPO: dist-opt: unknown command line argument '--dist-propogate-sharding'; try 'dist-opt --help'
// TYPO-NEXT: dist-opt: did you mean '--dist-propagate-sharding'?
// UPSTREAM: dist-opt: did you mean '--canonicalize'?
// SWITCH: dist-opt: did you mean '--split-input-file'?
// PIPELINE: 'dist-resolve-parital' does not refer to a registered pass or pass pipeline
// PIPELINE-NEXT: dist-opt: did you mean 'dist-resolve-partial'?
// FAR: dist-opt: unknown command line argument '--frobnicate'; try 'dist-opt --help'
// An option a dist pass does not have: one line, naming the ones it has,
// in a flag or in a pipeline.
// RUN: not dist-opt %s --dist-propagate-sharding=remark=none 2>&1 | FileCheck %s --check-prefix=OPTION
// RUN: not dist-opt %s --pass-pipeline='builtin.module(func.func(dist-propagate-sharding{remark=none}))' 2>&1 | FileCheck %s --check-prefix=OPTION
// RUN: not dist-opt %s --dist-partition=to=local 2>&1 | FileCheck %s --check-prefix=NO-OPTIONS
// OPTION: dist-opt: invalid pass pipeline: 'dist-propagate-sharding' has no option 'remark'; its options are direction, remarks (did you mean 'remarks'?)
// OPTION-EMPTY:
// NO-OPTIONS: dist-opt: invalid pass pipeline: 'dist-partition' has no option 'to'; it takes none
// Ops of unregistered dialects parse only when allowed.
// RUN: dist-opt %s --allow-unregistered-dialect | FileCheck %s
// RUN: not dist-opt %s 2>&1 | FileCheck %s --check-prefix=UNREGISTERED

// HELP: USAGE: dist-opt [options] <input file or - for stdin>
// HELP: --pass-pipeline=
// HELP: --emit=<mlir|llvm|obj|ptx>
// HELP: --split-input-file
// HELP: --verify-diagnostics
// HELP: --mlir-print-ir-after-all
// HELP: --mlir-print-ir-module-scope
// HELP: --mlir-timing
// HELP: --allow-unregistered-dialect
// HELP: --mlir-disable-threading
// HELP: --show-dialects
// HELP: --canonicalize
// HELP: --max-iterations
// HELP: --convert-dist-to-linalg
// HELP: --convert-dist-to-runtime
// HELP: --dist-comm-report
// HELP: --dist-overlap-collectives
// HELP: --dist-overlap-report
// HELP-NEXT: --cluster=
// HELP-NEXT: --devices-per-node=
// HELP-NEXT: --gemm-bf16-tflops=
// HELP-NEXT: --gemm-f64-tflops=
// HELP-NEXT: --gemm-tflops=
// HELP-NEXT: --inter-node-gbps=
// HELP-NEXT: --inter-node-latency-us=
// HELP-NEXT: --link-gbps=
// HELP-NEXT: --link-latency-us=
// HELP-NEXT: --memory-gbps=
// HELP: --dist-partition
// HELP: --dist-propagate-sharding
// HELP: --dist-resolve-partial
// HELP-NEXT: --argument-reshards=
// HELP-NEXT: --avg=
// HELP-NEXT: --bucket-mb=
// HELP: --dist-split-matmul-grad
// HELP-NEXT: --split=
// HELP: --dist-verify-sharding
// HELP: Pass Pipelines:
// HELP-NEXT: --dist-lower-to-local
// HELP-NEXT: --dist-partition-pipeline
// HELP-NEXT: --dist-lower-to-cpu
// HELP-NEXT: --dist-lower-to-llvm
// DIALECTS: Available Dialects: {{.*}}, dist, {{.*}}func
// CHECK: "foo.bar"() : () -> ()
// UNREGISTERED: cli.mlir:[[# @LINE + 1]]:10: error: operation being parsed with an unregistered dialect
"foo.bar"() : () -> ()
