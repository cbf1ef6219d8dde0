// A per-device program on a 2 x 2 mesh (dp x tp): each device fills x with
// rank * 100 + 10 * row + col and prints the result of every collective.
// Run by check_runtime.py under mpiexec -n 4.
dist.mesh @mesh = <["dp"=2, "tp"=2]>
func.func private @dist_rt_init() -> i32
func.func private @dist_rt_finalize() -> i32
func.func private @printMemrefF32(tensor<*xf32>)
func.func @main() {
  %0 = call @dist_rt_init() : () -> i32
  %i = dist.axis_index @mesh axes = ["dp", "tp"] : index
  %e = tensor.empty() : tensor<2x4xf32>
  %x = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} outs(%e : tensor<2x4xf32>) {
  ^bb0(%o: f32):
    %a = linalg.index 0 : index
    %b = linalg.index 1 : index
    %c100 = arith.constant 100 : index
    %c10 = arith.constant 10 : index
    %r = arith.muli %i, %c100 : index
    %p = arith.muli %a, %c10 : index
    %s = arith.addi %r, %p : index
    %t = arith.addi %s, %b : index
    %ti = arith.index_cast %t : index to i64
    %f = arith.sitofp %ti : i64 to f32
    linalg.yield %f : f32
  } -> tensor<2x4xf32>
  %r = dist.all_reduce %x on @mesh axes = ["tp"] kind = sum : tensor<2x4xf32> -> tensor<2x4xf32>
  %g = dist.all_gather %x on @mesh axes = ["dp"] dim = 1 : tensor<2x4xf32> -> tensor<2x8xf32>
  %s = dist.reduce_scatter %x on @mesh axes = ["tp"] dim = 1 kind = sum : tensor<2x4xf32> -> tensor<2x2xf32>
  %t = dist.all_to_all %x on @mesh axes = ["tp"] split_dim = 1 concat_dim = 0 : tensor<2x4xf32> -> tensor<4x2xf32>
  %h = dist.all_reduce_start %x, %s on @mesh axes = ["dp", "tp"] kind = avg : tensor<2x4xf32>, tensor<2x2xf32> -> !dist.handle<tensor<2x4xf32>, tensor<2x2xf32>>
  %w:2 = dist.wait %h : !dist.handle<tensor<2x4xf32>, tensor<2x2xf32>> -> tensor<2x4xf32>, tensor<2x2xf32>
  %sl = dist.all_slice %x on @mesh axes = ["tp"] dim = 1 : tensor<2x4xf32> -> tensor<2x2xf32>
  %c:2 = dist.reduce_scatter_coalesced %x, %g on @mesh axes = ["tp"] dim = 1 kind = sum : (tensor<2x4xf32>, tensor<2x8xf32>) -> (tensor<2x2xf32>, tensor<2x4xf32>)
  %hs = dist.reduce_scatter_start %x, %g on @mesh axes = ["dp"] dim = 0 kind = sum : tensor<2x4xf32>, tensor<2x8xf32> -> !dist.handle<tensor<1x4xf32>, tensor<1x8xf32>>
  %ws:2 = dist.wait %hs : !dist.handle<tensor<1x4xf32>, tensor<1x8xf32>> -> tensor<1x4xf32>, tensor<1x8xf32>
  %u1 = tensor.cast %r : tensor<2x4xf32> to tensor<*xf32>
  call @printMemrefF32(%u1) : (tensor<*xf32>) -> ()
  %u2 = tensor.cast %g : tensor<2x8xf32> to tensor<*xf32>
  call @printMemrefF32(%u2) : (tensor<*xf32>) -> ()
  %u3 = tensor.cast %s : tensor<2x2xf32> to tensor<*xf32>
  call @printMemrefF32(%u3) : (tensor<*xf32>) -> ()
  %u4 = tensor.cast %t : tensor<4x2xf32> to tensor<*xf32>
  call @printMemrefF32(%u4) : (tensor<*xf32>) -> ()
  %u5 = tensor.cast %w#0 : tensor<2x4xf32> to tensor<*xf32>
  call @printMemrefF32(%u5) : (tensor<*xf32>) -> ()
  %u6 = tensor.cast %w#1 : tensor<2x2xf32> to tensor<*xf32>
  call @printMemrefF32(%u6) : (tensor<*xf32>) -> ()
  %u7 = tensor.cast %sl : tensor<2x2xf32> to tensor<*xf32>
  call @printMemrefF32(%u7) : (tensor<*xf32>) -> ()
  %u8 = tensor.cast %c#0 : tensor<2x2xf32> to tensor<*xf32>
  call @printMemrefF32(%u8) : (tensor<*xf32>) -> ()
  %u9 = tensor.cast %c#1 : tensor<2x4xf32> to tensor<*xf32>
  call @printMemrefF32(%u9) : (tensor<*xf32>) -> ()
  %u10 = tensor.cast %ws#0 : tensor<1x4xf32> to tensor<*xf32>
  call @printMemrefF32(%u10) : (tensor<*xf32>) -> ()
  %u11 = tensor.cast %ws#1 : tensor<1x8xf32> to tensor<*xf32>
  call @printMemrefF32(%u11) : (tensor<*xf32>) -> ()
  %1 = call @dist_rt_finalize() : () -> i32
  return
}
