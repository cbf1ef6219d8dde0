"builtin.module"() <{sym_name = "jit_fn"}> ({
  "sdy.mesh"() <{mesh = #sdy.mesh<["dp"=2, "tp"=2]>, sym_name = "mesh"}> {stablehlo.mesh = {axes = [{name = "dp", size = 2 : i64}, {name = "tp", size = 2 : i64}]}} : () -> ()
  "func.func"() <{arg_attrs = [{sdy.sharding = #sdy.sharding<@mesh, [{"dp"}, {}]>}, {sdy.sharding = #sdy.sharding<@mesh, [{}, {"tp"}]>}, {sdy.sharding = #sdy.sharding<@mesh, [{"tp"}, {}]>}, {sdy.sharding = #sdy.sharding<@mesh, [{"dp"}]>}], function_type = (tensor<16x16xf32>, tensor<16x32xf32>, tensor<32x4xf32>, tensor<16xi32>) -> tensor<f32>, res_attrs = [{jax.result_info = "result", sdy.sharding = #sdy.sharding<@mesh, []>}], sym_name = "main", sym_visibility = "public"}> ({
  ^bb0(%arg14: tensor<16x16xf32>, %arg15: tensor<16x32xf32>, %arg16: tensor<32x4xf32>, %arg17: tensor<16xi32>):
    %53 = "stablehlo.dot_general"(%arg14, %arg15) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [0]>, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]}> : (tensor<16x16xf32>, tensor<16x32xf32>) -> tensor<16x32xf32>
    %54 = "stablehlo.iota"() <{iota_dimension = 0 : i64}> : () -> tensor<16xi32>
    %55 = "stablehlo.convert"(%54) : (tensor<16xi32>) -> tensor<16xf32>
    %56 = "stablehlo.constant"() <{value = dense<1.600000e+01> : tensor<f32>}> : () -> tensor<f32>
    %57 = "stablehlo.broadcast_in_dim"(%56) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<16xf32>
    %58 = "stablehlo.divide"(%55, %57) : (tensor<16xf32>, tensor<16xf32>) -> tensor<16xf32>
    %59 = "stablehlo.sine"(%58) : (tensor<16xf32>) -> tensor<16xf32>
    %60 = "stablehlo.broadcast_in_dim"(%59) <{broadcast_dimensions = array<i64: 0>}> : (tensor<16xf32>) -> tensor<16x2xf32>
    %61 = "stablehlo.reshape"(%60) : (tensor<16x2xf32>) -> tensor<32xf32>
    %62 = "stablehlo.cosine"(%58) : (tensor<16xf32>) -> tensor<16xf32>
    %63 = "stablehlo.broadcast_in_dim"(%62) <{broadcast_dimensions = array<i64: 0>}> : (tensor<16xf32>) -> tensor<16x2xf32>
    %64 = "stablehlo.reshape"(%63) : (tensor<16x2xf32>) -> tensor<32xf32>
    %65 = "stablehlo.broadcast_in_dim"(%64) <{broadcast_dimensions = array<i64: 1>}> : (tensor<32xf32>) -> tensor<1x32xf32>
    %66 = "stablehlo.broadcast_in_dim"(%65) <{broadcast_dimensions = array<i64: 0, 1>}> : (tensor<1x32xf32>) -> tensor<16x32xf32>
    %67 = "stablehlo.multiply"(%53, %66) : (tensor<16x32xf32>, tensor<16x32xf32>) -> tensor<16x32xf32>
    %68 = "stablehlo.slice"(%53) <{limit_indices = array<i64: 16, 32>, start_indices = array<i64: 0, 0>, strides = array<i64: 1, 2>}> : (tensor<16x32xf32>) -> tensor<16x16xf32>
    %69 = "stablehlo.slice"(%53) <{limit_indices = array<i64: 16, 32>, start_indices = array<i64: 0, 1>, strides = array<i64: 1, 2>}> : (tensor<16x32xf32>) -> tensor<16x16xf32>
    %70 = "stablehlo.negate"(%69) : (tensor<16x16xf32>) -> tensor<16x16xf32>
    %71 = "stablehlo.broadcast_in_dim"(%70) <{broadcast_dimensions = array<i64: 0, 1>}> : (tensor<16x16xf32>) -> tensor<16x16x1xf32>
    %72 = "stablehlo.broadcast_in_dim"(%68) <{broadcast_dimensions = array<i64: 0, 1>}> : (tensor<16x16xf32>) -> tensor<16x16x1xf32>
    %73 = "stablehlo.concatenate"(%71, %72) <{dimension = 2 : i64}> : (tensor<16x16x1xf32>, tensor<16x16x1xf32>) -> tensor<16x16x2xf32>
    %74 = "stablehlo.reshape"(%73) : (tensor<16x16x2xf32>) -> tensor<16x32xf32>
    %75 = "stablehlo.broadcast_in_dim"(%61) <{broadcast_dimensions = array<i64: 1>}> : (tensor<32xf32>) -> tensor<1x32xf32>
    %76 = "stablehlo.broadcast_in_dim"(%75) <{broadcast_dimensions = array<i64: 0, 1>}> : (tensor<1x32xf32>) -> tensor<16x32xf32>
    %77 = "stablehlo.multiply"(%74, %76) : (tensor<16x32xf32>, tensor<16x32xf32>) -> tensor<16x32xf32>
    %78 = "stablehlo.add"(%67, %77) : (tensor<16x32xf32>, tensor<16x32xf32>) -> tensor<16x32xf32>
    %79 = "stablehlo.tanh"(%78) : (tensor<16x32xf32>) -> tensor<16x32xf32>
    %80 = "stablehlo.dot_general"(%79, %arg16) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [0]>, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]}> : (tensor<16x32xf32>, tensor<32x4xf32>) -> tensor<16x4xf32>
    %81 = "func.call"(%80) <{callee = @log_softmax}> : (tensor<16x4xf32>) -> tensor<16x4xf32>
    %82 = "stablehlo.broadcast_in_dim"(%arg17) <{broadcast_dimensions = array<i64: 0>}> : (tensor<16xi32>) -> tensor<16x1xi32>
    %83 = "func.call"(%81, %82) <{callee = @take_along_axis}> : (tensor<16x4xf32>, tensor<16x1xi32>) -> tensor<16x1xf32>
    %84 = "stablehlo.reshape"(%83) : (tensor<16x1xf32>) -> tensor<16xf32>
    %85 = "stablehlo.negate"(%84) : (tensor<16xf32>) -> tensor<16xf32>
    %86 = "func.call"(%80) <{callee = @argmax}> : (tensor<16x4xf32>) -> tensor<16xi32>
    %87 = "stablehlo.compare"(%86, %arg17) <{compare_type = #stablehlo<comparison_type SIGNED>, comparison_direction = #stablehlo<comparison_direction NE>}> : (tensor<16xi32>, tensor<16xi32>) -> tensor<16xi1>
    %88 = "stablehlo.convert"(%87) : (tensor<16xi1>) -> tensor<16xf32>
    %89 = "stablehlo.constant"() <{value = dense<1.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %90 = "stablehlo.broadcast_in_dim"(%89) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<16xf32>
    %91 = "stablehlo.add"(%90, %88) : (tensor<16xf32>, tensor<16xf32>) -> tensor<16xf32>
    %92 = "stablehlo.convert"(%91) : (tensor<16xf32>) -> tensor<16xf32>
    %93 = "stablehlo.multiply"(%85, %92) : (tensor<16xf32>, tensor<16xf32>) -> tensor<16xf32>
    %94 = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %95 = "stablehlo.reduce"(%93, %94) <{dimensions = array<i64: 0>}> ({
    ^bb0(%arg18: tensor<f32>, %arg19: tensor<f32>):
      %98 = "stablehlo.add"(%arg18, %arg19) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%98) : (tensor<f32>) -> ()
    }) : (tensor<16xf32>, tensor<f32>) -> tensor<f32>
    %96 = "stablehlo.constant"() <{value = dense<1.600000e+01> : tensor<f32>}> : () -> tensor<f32>
    %97 = "stablehlo.divide"(%95, %96) : (tensor<f32>, tensor<f32>) -> tensor<f32>
    "func.return"(%97) : (tensor<f32>) -> ()
  }) : () -> ()
  "func.func"() <{arg_attrs = [{}], function_type = (tensor<16x4xf32>) -> tensor<16x4xf32>, res_attrs = [{}], sym_name = "log_softmax", sym_visibility = "private"}> ({
  ^bb0(%arg9: tensor<16x4xf32>):
    %36 = "stablehlo.constant"() <{value = dense<0xFF800000> : tensor<f32>}> : () -> tensor<f32>
    %37 = "stablehlo.reduce"(%arg9, %36) <{dimensions = array<i64: 1>}> ({
    ^bb0(%arg12: tensor<f32>, %arg13: tensor<f32>):
      %52 = "stablehlo.maximum"(%arg12, %arg13) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%52) : (tensor<f32>) -> ()
    }) : (tensor<16x4xf32>, tensor<f32>) -> tensor<16xf32>
    %38 = "stablehlo.constant"() <{value = dense<0xFF800000> : tensor<f32>}> : () -> tensor<f32>
    %39 = "stablehlo.broadcast_in_dim"(%38) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<16xf32>
    %40 = "stablehlo.maximum"(%39, %37) : (tensor<16xf32>, tensor<16xf32>) -> tensor<16xf32>
    %41 = "stablehlo.broadcast_in_dim"(%40) <{broadcast_dimensions = array<i64: 0>}> : (tensor<16xf32>) -> tensor<16x1xf32>
    %42 = "stablehlo.broadcast_in_dim"(%41) <{broadcast_dimensions = array<i64: 0, 1>}> : (tensor<16x1xf32>) -> tensor<16x4xf32>
    %43 = "stablehlo.subtract"(%arg9, %42) : (tensor<16x4xf32>, tensor<16x4xf32>) -> tensor<16x4xf32>
    %44 = "stablehlo.exponential"(%43) : (tensor<16x4xf32>) -> tensor<16x4xf32>
    %45 = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %46 = "stablehlo.reduce"(%44, %45) <{dimensions = array<i64: 1>}> ({
    ^bb0(%arg10: tensor<f32>, %arg11: tensor<f32>):
      %51 = "stablehlo.add"(%arg10, %arg11) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%51) : (tensor<f32>) -> ()
    }) : (tensor<16x4xf32>, tensor<f32>) -> tensor<16xf32>
    %47 = "stablehlo.broadcast_in_dim"(%46) <{broadcast_dimensions = array<i64: 0>}> : (tensor<16xf32>) -> tensor<16x1xf32>
    %48 = "stablehlo.log"(%47) : (tensor<16x1xf32>) -> tensor<16x1xf32>
    %49 = "stablehlo.broadcast_in_dim"(%48) <{broadcast_dimensions = array<i64: 0, 1>}> : (tensor<16x1xf32>) -> tensor<16x4xf32>
    %50 = "stablehlo.subtract"(%43, %49) : (tensor<16x4xf32>, tensor<16x4xf32>) -> tensor<16x4xf32>
    "func.return"(%50) : (tensor<16x4xf32>) -> ()
  }) : () -> ()
  "func.func"() <{arg_attrs = [{}, {}], function_type = (tensor<16x4xf32>, tensor<16x1xi32>) -> tensor<16x1xf32>, res_attrs = [{}], sym_name = "take_along_axis", sym_visibility = "private"}> ({
  ^bb0(%arg5: tensor<16x4xf32>, %arg6: tensor<16x1xi32>):
    %13 = "stablehlo.constant"() <{value = dense<0> : tensor<i32>}> : () -> tensor<i32>
    %14 = "stablehlo.broadcast_in_dim"(%13) <{broadcast_dimensions = array<i64>}> : (tensor<i32>) -> tensor<16x1xi32>
    %15 = "stablehlo.compare"(%arg6, %14) <{compare_type = #stablehlo<comparison_type SIGNED>, comparison_direction = #stablehlo<comparison_direction LT>}> : (tensor<16x1xi32>, tensor<16x1xi32>) -> tensor<16x1xi1>
    %16 = "stablehlo.constant"() <{value = dense<4> : tensor<i32>}> : () -> tensor<i32>
    %17 = "stablehlo.broadcast_in_dim"(%16) <{broadcast_dimensions = array<i64>}> : (tensor<i32>) -> tensor<16x1xi32>
    %18 = "stablehlo.add"(%arg6, %17) : (tensor<16x1xi32>, tensor<16x1xi32>) -> tensor<16x1xi32>
    %19 = "stablehlo.select"(%15, %18, %arg6) : (tensor<16x1xi1>, tensor<16x1xi32>, tensor<16x1xi32>) -> tensor<16x1xi32>
    %20 = "stablehlo.reshape"(%19) : (tensor<16x1xi32>) -> tensor<16x1x1xi32>
    %21 = "stablehlo.constant"() <{value = dense<3> : tensor<1xi32>}> : () -> tensor<1xi32>
    %22 = "stablehlo.constant"() <{value = dense<0> : tensor<i32>}> : () -> tensor<i32>
    %23 = "stablehlo.broadcast_in_dim"(%22) <{broadcast_dimensions = array<i64>}> : (tensor<i32>) -> tensor<16x1x1xi32>
    %24 = "stablehlo.compare"(%20, %23) <{compare_type = #stablehlo<comparison_type SIGNED>, comparison_direction = #stablehlo<comparison_direction GE>}> : (tensor<16x1x1xi32>, tensor<16x1x1xi32>) -> tensor<16x1x1xi1>
    %25 = "stablehlo.broadcast_in_dim"(%21) <{broadcast_dimensions = array<i64: 2>}> : (tensor<1xi32>) -> tensor<1x1x1xi32>
    %26 = "stablehlo.broadcast_in_dim"(%25) <{broadcast_dimensions = array<i64: 0, 1, 2>}> : (tensor<1x1x1xi32>) -> tensor<16x1x1xi32>
    %27 = "stablehlo.compare"(%20, %26) <{compare_type = #stablehlo<comparison_type SIGNED>, comparison_direction = #stablehlo<comparison_direction LE>}> : (tensor<16x1x1xi32>, tensor<16x1x1xi32>) -> tensor<16x1x1xi1>
    %28 = "stablehlo.and"(%24, %27) : (tensor<16x1x1xi1>, tensor<16x1x1xi1>) -> tensor<16x1x1xi1>
    %29 = "stablehlo.constant"() <{value = dense<true> : tensor<i1>}> : () -> tensor<i1>
    %30 = "stablehlo.reduce"(%28, %29) <{dimensions = array<i64: 2>}> ({
    ^bb0(%arg7: tensor<i1>, %arg8: tensor<i1>):
      %35 = "stablehlo.and"(%arg7, %arg8) : (tensor<i1>, tensor<i1>) -> tensor<i1>
      "stablehlo.return"(%35) : (tensor<i1>) -> ()
    }) : (tensor<16x1x1xi1>, tensor<i1>) -> tensor<16x1xi1>
    %31 = "stablehlo.gather"(%arg5, %20) <{dimension_numbers = #stablehlo.gather<collapsed_slice_dims = [1], operand_batching_dims = [0], start_indices_batching_dims = [0], start_index_map = [1], index_vector_dim = 2>, indices_are_sorted = false, slice_sizes = array<i64: 1, 1>}> : (tensor<16x4xf32>, tensor<16x1x1xi32>) -> tensor<16x1xf32>
    %32 = "stablehlo.constant"() <{value = dense<0x7FC00000> : tensor<f32>}> : () -> tensor<f32>
    %33 = "stablehlo.broadcast_in_dim"(%32) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<16x1xf32>
    %34 = "stablehlo.select"(%30, %31, %33) : (tensor<16x1xi1>, tensor<16x1xf32>, tensor<16x1xf32>) -> tensor<16x1xf32>
    "func.return"(%34) : (tensor<16x1xf32>) -> ()
  }) : () -> ()
  "func.func"() <{function_type = (tensor<16x4xf32>) -> tensor<16xi32>, sym_name = "argmax", sym_visibility = "private"}> ({
  ^bb0(%arg0: tensor<16x4xf32>):
    %0 = "stablehlo.iota"() <{iota_dimension = 1 : i64}> : () -> tensor<16x4xi32>
    %1 = "stablehlo.constant"() <{value = dense<0xFF800000> : tensor<f32>}> : () -> tensor<f32>
    %2 = "stablehlo.constant"() <{value = dense<0> : tensor<i32>}> : () -> tensor<i32>
    %3:2 = "stablehlo.reduce"(%arg0, %0, %1, %2) <{dimensions = array<i64: 1>}> ({
    ^bb0(%arg1: tensor<f32>, %arg2: tensor<i32>, %arg3: tensor<f32>, %arg4: tensor<i32>):
      %4 = "stablehlo.compare"(%arg1, %arg3) <{compare_type = #stablehlo<comparison_type FLOAT>, comparison_direction = #stablehlo<comparison_direction GT>}> : (tensor<f32>, tensor<f32>) -> tensor<i1>
      %5 = "stablehlo.compare"(%arg1, %arg1) <{compare_type = #stablehlo<comparison_type FLOAT>, comparison_direction = #stablehlo<comparison_direction NE>}> : (tensor<f32>, tensor<f32>) -> tensor<i1>
      %6 = "stablehlo.or"(%4, %5) : (tensor<i1>, tensor<i1>) -> tensor<i1>
      %7 = "stablehlo.compare"(%arg1, %arg3) <{compare_type = #stablehlo<comparison_type FLOAT>, comparison_direction = #stablehlo<comparison_direction EQ>}> : (tensor<f32>, tensor<f32>) -> tensor<i1>
      %8 = "stablehlo.compare"(%arg2, %arg4) <{compare_type = #stablehlo<comparison_type SIGNED>, comparison_direction = #stablehlo<comparison_direction LT>}> : (tensor<i32>, tensor<i32>) -> tensor<i1>
      %9 = "stablehlo.and"(%7, %8) : (tensor<i1>, tensor<i1>) -> tensor<i1>
      %10 = "stablehlo.or"(%6, %9) : (tensor<i1>, tensor<i1>) -> tensor<i1>
      %11 = "stablehlo.select"(%6, %arg1, %arg3) : (tensor<i1>, tensor<f32>, tensor<f32>) -> tensor<f32>
      %12 = "stablehlo.select"(%10, %arg2, %arg4) : (tensor<i1>, tensor<i32>, tensor<i32>) -> tensor<i32>
      "stablehlo.return"(%11, %12) : (tensor<f32>, tensor<i32>) -> ()
    }) : (tensor<16x4xf32>, tensor<16x4xi32>, tensor<f32>, tensor<i32>) -> (tensor<16xf32>, tensor<16xi32>)
    "func.return"(%3#1) : (tensor<16xi32>) -> ()
  }) : () -> ()
}) {mhlo.num_partitions = 4 : i32, mhlo.num_replicas = 1 : i32} : () -> ()
