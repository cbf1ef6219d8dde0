// A step that calls two functions of its own, one of them named as dist-run
// would name the other (`dist_run1_g`, the second function's): the
// functions are renamed apart, and each call follows its own callee.
func.func @f(%x: tensor<4xf32>) -> tensor<4xf32> {
  %a = func.call @g(%x) : (tensor<4xf32>) -> tensor<4xf32>
  %b = func.call @dist_run1_g(%x) : (tensor<4xf32>) -> tensor<4xf32>
  %y = dist.add %a, %b : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  return %y : tensor<4xf32>
}

func.func private @g(%x: tensor<4xf32>) -> tensor<4xf32> {
  %y = dist.relu %x : (tensor<4xf32>) -> tensor<4xf32>
  return %y : tensor<4xf32>
}

func.func private @dist_run1_g(%x: tensor<4xf32>) -> tensor<4xf32> {
  %y = dist.scale %x {factor = 2.0 : f64} : (tensor<4xf32>) -> tensor<4xf32>
  return %y : tensor<4xf32>
}
