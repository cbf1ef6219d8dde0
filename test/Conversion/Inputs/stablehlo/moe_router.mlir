"builtin.module"() <{sym_name = "jit_fn"}> ({
  "sdy.mesh"() <{mesh = #sdy.mesh<["dp"=2, "tp"=2]>, sym_name = "mesh"}> {stablehlo.mesh = {axes = [{name = "dp", size = 2 : i64}, {name = "tp", size = 2 : i64}]}} : () -> ()
  "func.func"() <{arg_attrs = [{sdy.sharding = #sdy.sharding<@mesh, [{"dp"}, {}]>}, {sdy.sharding = #sdy.sharding<@mesh, [{}, {}]>}, {sdy.sharding = #sdy.sharding<@mesh, [{}, {}, {"tp"}]>}, {sdy.sharding = #sdy.sharding<@mesh, [{"dp"}, {}]>}], function_type = (tensor<16x8xf32>, tensor<8x4xf32>, tensor<4x8x8xf32>, tensor<16x8xf32>) -> tensor<f32>, res_attrs = [{jax.result_info = "result", sdy.sharding = #sdy.sharding<@mesh, []>}], sym_name = "main", sym_visibility = "public"}> ({
  ^bb0(%arg1: tensor<16x8xf32>, %arg2: tensor<8x4xf32>, %arg3: tensor<4x8x8xf32>, %arg4: tensor<16x8xf32>):
    %6 = "stablehlo.dot_general"(%arg1, %arg2) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [0]>, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]}> : (tensor<16x8xf32>, tensor<8x4xf32>) -> tensor<16x4xf32>
    %7 = "stablehlo.constant"() <{value = dense<0xFF800000> : tensor<f32>}> : () -> tensor<f32>
    %8 = "stablehlo.reduce"(%6, %7) <{dimensions = array<i64: 1>}> ({
    ^bb0(%arg19: tensor<f32>, %arg20: tensor<f32>):
      %65 = "stablehlo.maximum"(%arg19, %arg20) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%65) : (tensor<f32>) -> ()
    }) : (tensor<16x4xf32>, tensor<f32>) -> tensor<16xf32>
    %9 = "stablehlo.constant"() <{value = dense<0xFF800000> : tensor<f32>}> : () -> tensor<f32>
    %10 = "stablehlo.broadcast_in_dim"(%9) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<16xf32>
    %11 = "stablehlo.maximum"(%10, %8) : (tensor<16xf32>, tensor<16xf32>) -> tensor<16xf32>
    %12 = "stablehlo.broadcast_in_dim"(%11) <{broadcast_dimensions = array<i64: 0>}> : (tensor<16xf32>) -> tensor<16x1xf32>
    %13 = "stablehlo.broadcast_in_dim"(%12) <{broadcast_dimensions = array<i64: 0, 1>}> : (tensor<16x1xf32>) -> tensor<16x4xf32>
    %14 = "stablehlo.subtract"(%6, %13) : (tensor<16x4xf32>, tensor<16x4xf32>) -> tensor<16x4xf32>
    %15 = "stablehlo.exponential"(%14) : (tensor<16x4xf32>) -> tensor<16x4xf32>
    %16 = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %17 = "stablehlo.reduce"(%15, %16) <{dimensions = array<i64: 1>}> ({
    ^bb0(%arg17: tensor<f32>, %arg18: tensor<f32>):
      %64 = "stablehlo.add"(%arg17, %arg18) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%64) : (tensor<f32>) -> ()
    }) : (tensor<16x4xf32>, tensor<f32>) -> tensor<16xf32>
    %18 = "stablehlo.broadcast_in_dim"(%17) <{broadcast_dimensions = array<i64: 0>}> : (tensor<16xf32>) -> tensor<16x1xf32>
    %19 = "stablehlo.broadcast_in_dim"(%18) <{broadcast_dimensions = array<i64: 0, 1>}> : (tensor<16x1xf32>) -> tensor<16x4xf32>
    %20 = "stablehlo.divide"(%15, %19) : (tensor<16x4xf32>, tensor<16x4xf32>) -> tensor<16x4xf32>
    %21:2 = "chlo.top_k"(%20) <{k = 2 : i64}> : (tensor<16x4xf32>) -> (tensor<16x2xf32>, tensor<16x2xi32>)
    %22 = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %23 = "stablehlo.reduce"(%21#0, %22) <{dimensions = array<i64: 1>}> ({
    ^bb0(%arg15: tensor<f32>, %arg16: tensor<f32>):
      %63 = "stablehlo.add"(%arg15, %arg16) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%63) : (tensor<f32>) -> ()
    }) : (tensor<16x2xf32>, tensor<f32>) -> tensor<16xf32>
    %24 = "stablehlo.broadcast_in_dim"(%23) <{broadcast_dimensions = array<i64: 0>}> : (tensor<16xf32>) -> tensor<16x1xf32>
    %25 = "stablehlo.broadcast_in_dim"(%24) <{broadcast_dimensions = array<i64: 0, 1>}> : (tensor<16x1xf32>) -> tensor<16x2xf32>
    %26 = "stablehlo.divide"(%21#0, %25) : (tensor<16x2xf32>, tensor<16x2xf32>) -> tensor<16x2xf32>
    %27 = "func.call"(%21#1) <{callee = @_one_hot}> : (tensor<16x2xi32>) -> tensor<16x2x4xf32>
    %28 = "stablehlo.dot_general"(%26, %27) <{dot_dimension_numbers = #stablehlo.dot<lhs_batching_dimensions = [0], rhs_batching_dimensions = [0], lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [1]>, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]}> : (tensor<16x2xf32>, tensor<16x2x4xf32>) -> tensor<16x4xf32>
    %29 = "stablehlo.dot_general"(%arg1, %arg3) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [1]>, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]}> : (tensor<16x8xf32>, tensor<4x8x8xf32>) -> tensor<16x4x8xf32>
    %30 = "stablehlo.tanh"(%29) : (tensor<16x4x8xf32>) -> tensor<16x4x8xf32>
    %31 = "stablehlo.dot_general"(%28, %30) <{dot_dimension_numbers = #stablehlo.dot<lhs_batching_dimensions = [0], rhs_batching_dimensions = [0], lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [1]>, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]}> : (tensor<16x4xf32>, tensor<16x4x8xf32>) -> tensor<16x8xf32>
    %32 = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %33 = "stablehlo.reduce"(%27, %32) <{dimensions = array<i64: 1>}> ({
    ^bb0(%arg13: tensor<f32>, %arg14: tensor<f32>):
      %62 = "stablehlo.add"(%arg13, %arg14) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%62) : (tensor<f32>) -> ()
    }) : (tensor<16x2x4xf32>, tensor<f32>) -> tensor<16x4xf32>
    %34 = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %35 = "stablehlo.reduce"(%33, %34) <{dimensions = array<i64: 0>}> ({
    ^bb0(%arg11: tensor<f32>, %arg12: tensor<f32>):
      %61 = "stablehlo.add"(%arg11, %arg12) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%61) : (tensor<f32>) -> ()
    }) : (tensor<16x4xf32>, tensor<f32>) -> tensor<4xf32>
    %36 = "stablehlo.constant"() <{value = dense<1.600000e+01> : tensor<f32>}> : () -> tensor<f32>
    %37 = "stablehlo.broadcast_in_dim"(%36) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<4xf32>
    %38 = "stablehlo.divide"(%35, %37) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
    %39 = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %40 = "stablehlo.reduce"(%20, %39) <{dimensions = array<i64: 0>}> ({
    ^bb0(%arg9: tensor<f32>, %arg10: tensor<f32>):
      %60 = "stablehlo.add"(%arg9, %arg10) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%60) : (tensor<f32>) -> ()
    }) : (tensor<16x4xf32>, tensor<f32>) -> tensor<4xf32>
    %41 = "stablehlo.constant"() <{value = dense<1.600000e+01> : tensor<f32>}> : () -> tensor<f32>
    %42 = "stablehlo.broadcast_in_dim"(%41) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<4xf32>
    %43 = "stablehlo.divide"(%40, %42) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
    %44 = "stablehlo.multiply"(%38, %43) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
    %45 = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %46 = "stablehlo.reduce"(%44, %45) <{dimensions = array<i64: 0>}> ({
    ^bb0(%arg7: tensor<f32>, %arg8: tensor<f32>):
      %59 = "stablehlo.add"(%arg7, %arg8) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%59) : (tensor<f32>) -> ()
    }) : (tensor<4xf32>, tensor<f32>) -> tensor<f32>
    %47 = "stablehlo.constant"() <{value = dense<4.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %48 = "stablehlo.multiply"(%47, %46) : (tensor<f32>, tensor<f32>) -> tensor<f32>
    %49 = "stablehlo.subtract"(%31, %arg4) : (tensor<16x8xf32>, tensor<16x8xf32>) -> tensor<16x8xf32>
    %50 = "stablehlo.multiply"(%49, %49) : (tensor<16x8xf32>, tensor<16x8xf32>) -> tensor<16x8xf32>
    %51 = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %52 = "stablehlo.reduce"(%50, %51) <{dimensions = array<i64: 0, 1>}> ({
    ^bb0(%arg5: tensor<f32>, %arg6: tensor<f32>):
      %58 = "stablehlo.add"(%arg5, %arg6) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%58) : (tensor<f32>) -> ()
    }) : (tensor<16x8xf32>, tensor<f32>) -> tensor<f32>
    %53 = "stablehlo.constant"() <{value = dense<1.280000e+02> : tensor<f32>}> : () -> tensor<f32>
    %54 = "stablehlo.divide"(%52, %53) : (tensor<f32>, tensor<f32>) -> tensor<f32>
    %55 = "stablehlo.constant"() <{value = dense<0.00999999977> : tensor<f32>}> : () -> tensor<f32>
    %56 = "stablehlo.multiply"(%55, %48) : (tensor<f32>, tensor<f32>) -> tensor<f32>
    %57 = "stablehlo.add"(%54, %56) : (tensor<f32>, tensor<f32>) -> tensor<f32>
    "func.return"(%57) : (tensor<f32>) -> ()
  }) : () -> ()
  "func.func"() <{arg_attrs = [{}], function_type = (tensor<16x2xi32>) -> tensor<16x2x4xf32>, res_attrs = [{}], sym_name = "_one_hot", sym_visibility = "private"}> ({
  ^bb0(%arg0: tensor<16x2xi32>):
    %0 = "stablehlo.broadcast_in_dim"(%arg0) <{broadcast_dimensions = array<i64: 0, 1>}> : (tensor<16x2xi32>) -> tensor<16x2x1xi32>
    %1 = "stablehlo.iota"() <{iota_dimension = 2 : i64}> : () -> tensor<1x1x4xi32>
    %2 = "stablehlo.broadcast_in_dim"(%0) <{broadcast_dimensions = array<i64: 0, 1, 2>}> : (tensor<16x2x1xi32>) -> tensor<16x2x4xi32>
    %3 = "stablehlo.broadcast_in_dim"(%1) <{broadcast_dimensions = array<i64: 0, 1, 2>}> : (tensor<1x1x4xi32>) -> tensor<16x2x4xi32>
    %4 = "stablehlo.compare"(%2, %3) <{compare_type = #stablehlo<comparison_type SIGNED>, comparison_direction = #stablehlo<comparison_direction EQ>}> : (tensor<16x2x4xi32>, tensor<16x2x4xi32>) -> tensor<16x2x4xi1>
    %5 = "stablehlo.convert"(%4) : (tensor<16x2x4xi1>) -> tensor<16x2x4xf32>
    "func.return"(%5) : (tensor<16x2x4xf32>) -> ()
  }) : () -> ()
}) {mhlo.num_partitions = 4 : i32, mhlo.num_replicas = 1 : i32} : () -> ()
