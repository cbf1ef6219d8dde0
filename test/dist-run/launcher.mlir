// dist-run starts a job with the MPI launcher named by --mpiexec, else
// DIST_MPIEXEC, else mpiexec, and gives it what its flavour needs: Open
// MPI's (told by its --version) may run as root and start more processes
// than it counts slots. The stand-in launcher logs what it got and runs the job.
// RUN: rm -rf %t && mkdir -p %t
// RUN: %python %S/../../scripts/npy.py inputs %S/../../examples/megatron-mlp.mlir step %t/in > /dev/null
// RUN: dist-run %S/../../examples/megatron-mlp.mlir --entry step -n 1 --input-dir %t/in --out %t/ref
//
// RUN: dist-run %S/../../examples/megatron-mlp.mlir --entry step -n 4 --input-dir %t/in --out %t/ompi \
// RUN:   --mpiexec "%S/Inputs/logging-mpiexec.sh openmpi %t/ompi.log"
// RUN: FileCheck %s --check-prefix=OMPI < %t/ompi.log
// RUN: %python %S/../../scripts/npy.py compare %t/ref %t/ompi | FileCheck %s
// OMPI:      args: -n 4 --oversubscribe {{[^ ]*}}/step{{$}}
// OMPI-NEXT: OMPI_ALLOW_RUN_AS_ROOT=1
// CHECK: max difference against -n 1: {{.*}}e-0{{[6-9]}}
//
// RUN: env DIST_MPIEXEC="%S/Inputs/logging-mpiexec.sh mpich %t/mpich.log" dist-run \
// RUN:   %S/../../examples/megatron-mlp.mlir --entry step -n 4 --input-dir %t/in --out %t/mpich --keep-exe %t/step4
// RUN: FileCheck %s --check-prefix=MPICH < %t/mpich.log
// RUN: %python %S/../../scripts/npy.py compare %t/ref %t/mpich | FileCheck %s
// MPICH:      args: -n 4 {{[^ ]*}}/step{{$}}
// MPICH-NEXT: OMPI_ALLOW_RUN_AS_ROOT={{$}}
//
// RUN: not dist-run %S/../../examples/megatron-mlp.mlir --entry step -n 4 --input-dir %t/in --out %t/x \
// RUN:   --mpiexec /nonexistent/mpiexec 2>&1 | FileCheck %s --check-prefix=MISSING
// MISSING: dist-run: cannot run the MPI launcher '/nonexistent/mpiexec'
//
// A launcher of another MPI starts singletons; the runtime says so.
// RUN: env OMPI_COMM_WORLD_SIZE=4 DIST_RUN_OUT=%t not %t/step4 2>&1 | FileCheck %s --check-prefix=FOREIGN
// FOREIGN: dist-runtime: Open MPI started 4 processes, but MPI sees a job of 1: this runtime is built against MPICH
