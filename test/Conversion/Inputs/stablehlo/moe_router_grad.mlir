"builtin.module"() <{sym_name = "jit_fn"}> ({
  "sdy.mesh"() <{mesh = #sdy.mesh<["dp"=2, "tp"=2]>, sym_name = "mesh"}> {stablehlo.mesh = {axes = [{name = "dp", size = 2 : i64}, {name = "tp", size = 2 : i64}]}} : () -> ()
  "func.func"() <{arg_attrs = [{sdy.sharding = #sdy.sharding<@mesh, [{"dp"}, {}]>}, {sdy.sharding = #sdy.sharding<@mesh, [{}, {}]>}, {sdy.sharding = #sdy.sharding<@mesh, [{}, {}, {"tp"}]>}, {sdy.sharding = #sdy.sharding<@mesh, [{"dp"}, {}]>}], function_type = (tensor<16x8xf32>, tensor<8x4xf32>, tensor<4x8x8xf32>, tensor<16x8xf32>) -> (tensor<f32>, tensor<8x4xf32>, tensor<4x8x8xf32>), res_attrs = [{jax.result_info = "result[0]", sdy.sharding = #sdy.sharding<@mesh, []>}, {jax.result_info = "result[1]", sdy.sharding = #sdy.sharding<@mesh, [{}, {}]>}, {jax.result_info = "result[2]", sdy.sharding = #sdy.sharding<@mesh, [{}, {}, {"tp"}]>}], sym_name = "main", sym_visibility = "public"}> ({
  ^bb0(%arg1: tensor<16x8xf32>, %arg2: tensor<8x4xf32>, %arg3: tensor<4x8x8xf32>, %arg4: tensor<16x8xf32>):
    %6 = "stablehlo.dot_general"(%arg1, %arg2) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [0]>, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]}> : (tensor<16x8xf32>, tensor<8x4xf32>) -> tensor<16x4xf32>
    %7 = "stablehlo.constant"() <{value = dense<0xFF800000> : tensor<f32>}> : () -> tensor<f32>
    %8 = "stablehlo.reduce"(%6, %7) <{dimensions = array<i64: 1>}> ({
    ^bb0(%arg31: tensor<f32>, %arg32: tensor<f32>):
      %164 = "stablehlo.maximum"(%arg31, %arg32) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%164) : (tensor<f32>) -> ()
    }) : (tensor<16x4xf32>, tensor<f32>) -> tensor<16xf32>
    %9 = "stablehlo.reshape"(%8) : (tensor<16xf32>) -> tensor<16x1xf32>
    %10 = "stablehlo.broadcast_in_dim"(%9) <{broadcast_dimensions = array<i64: 0, 1>}> : (tensor<16x1xf32>) -> tensor<16x4xf32>
    %11 = "stablehlo.compare"(%6, %10) <{compare_type = #stablehlo<comparison_type FLOAT>, comparison_direction = #stablehlo<comparison_direction EQ>}> : (tensor<16x4xf32>, tensor<16x4xf32>) -> tensor<16x4xi1>
    %12 = "stablehlo.convert"(%11) : (tensor<16x4xi1>) -> tensor<16x4xf32>
    %13 = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %14 = "stablehlo.reduce"(%12, %13) <{dimensions = array<i64: 1>}> ({
    ^bb0(%arg29: tensor<f32>, %arg30: tensor<f32>):
      %163 = "stablehlo.add"(%arg29, %arg30) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%163) : (tensor<f32>) -> ()
    }) : (tensor<16x4xf32>, tensor<f32>) -> tensor<16xf32>
    %15 = "stablehlo.constant"() <{value = dense<0xFF800000> : tensor<f32>}> : () -> tensor<f32>
    %16 = "stablehlo.broadcast_in_dim"(%15) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<16xf32>
    %17 = "stablehlo.maximum"(%16, %8) : (tensor<16xf32>, tensor<16xf32>) -> tensor<16xf32>
    %18 = "stablehlo.compare"(%8, %17) <{compare_type = #stablehlo<comparison_type FLOAT>, comparison_direction = #stablehlo<comparison_direction EQ>}> : (tensor<16xf32>, tensor<16xf32>) -> tensor<16xi1>
    %19 = "stablehlo.constant"() <{value = dense<1.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %20 = "stablehlo.broadcast_in_dim"(%19) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<16xf32>
    %21 = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %22 = "stablehlo.broadcast_in_dim"(%21) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<16xf32>
    %23 = "stablehlo.select"(%18, %20, %22) : (tensor<16xi1>, tensor<16xf32>, tensor<16xf32>) -> tensor<16xf32>
    %24 = "stablehlo.constant"() <{value = dense<0xFF800000> : tensor<f32>}> : () -> tensor<f32>
    %25 = "stablehlo.broadcast_in_dim"(%24) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<16xf32>
    %26 = "stablehlo.compare"(%25, %17) <{compare_type = #stablehlo<comparison_type FLOAT>, comparison_direction = #stablehlo<comparison_direction EQ>}> : (tensor<16xf32>, tensor<16xf32>) -> tensor<16xi1>
    %27 = "stablehlo.constant"() <{value = dense<2.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %28 = "stablehlo.broadcast_in_dim"(%27) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<16xf32>
    %29 = "stablehlo.constant"() <{value = dense<1.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %30 = "stablehlo.broadcast_in_dim"(%29) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<16xf32>
    %31 = "stablehlo.select"(%26, %28, %30) : (tensor<16xi1>, tensor<16xf32>, tensor<16xf32>) -> tensor<16xf32>
    %32 = "stablehlo.divide"(%23, %31) : (tensor<16xf32>, tensor<16xf32>) -> tensor<16xf32>
    %33 = "stablehlo.broadcast_in_dim"(%17) <{broadcast_dimensions = array<i64: 0>}> : (tensor<16xf32>) -> tensor<16x1xf32>
    %34 = "stablehlo.broadcast_in_dim"(%33) <{broadcast_dimensions = array<i64: 0, 1>}> : (tensor<16x1xf32>) -> tensor<16x4xf32>
    %35 = "stablehlo.subtract"(%6, %34) : (tensor<16x4xf32>, tensor<16x4xf32>) -> tensor<16x4xf32>
    %36 = "stablehlo.exponential"(%35) : (tensor<16x4xf32>) -> tensor<16x4xf32>
    %37 = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %38 = "stablehlo.reduce"(%36, %37) <{dimensions = array<i64: 1>}> ({
    ^bb0(%arg27: tensor<f32>, %arg28: tensor<f32>):
      %162 = "stablehlo.add"(%arg27, %arg28) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%162) : (tensor<f32>) -> ()
    }) : (tensor<16x4xf32>, tensor<f32>) -> tensor<16xf32>
    %39 = "stablehlo.broadcast_in_dim"(%38) <{broadcast_dimensions = array<i64: 0>}> : (tensor<16xf32>) -> tensor<16x1xf32>
    %40 = "stablehlo.broadcast_in_dim"(%39) <{broadcast_dimensions = array<i64: 0, 1>}> : (tensor<16x1xf32>) -> tensor<16x4xf32>
    %41 = "stablehlo.divide"(%36, %40) : (tensor<16x4xf32>, tensor<16x4xf32>) -> tensor<16x4xf32>
    %42 = "stablehlo.multiply"(%39, %39) : (tensor<16x1xf32>, tensor<16x1xf32>) -> tensor<16x1xf32>
    %43 = "stablehlo.constant"() <{value = dense<1.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %44 = "stablehlo.broadcast_in_dim"(%43) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<16x1xf32>
    %45 = "stablehlo.divide"(%44, %42) : (tensor<16x1xf32>, tensor<16x1xf32>) -> tensor<16x1xf32>
    %46:2 = "chlo.top_k"(%41) <{k = 2 : i64}> : (tensor<16x4xf32>) -> (tensor<16x2xf32>, tensor<16x2xi32>)
    %47 = "stablehlo.reshape"(%46#1) : (tensor<16x2xi32>) -> tensor<16x2x1xi32>
    %48 = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %49 = "stablehlo.reduce"(%46#0, %48) <{dimensions = array<i64: 1>}> ({
    ^bb0(%arg25: tensor<f32>, %arg26: tensor<f32>):
      %161 = "stablehlo.add"(%arg25, %arg26) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%161) : (tensor<f32>) -> ()
    }) : (tensor<16x2xf32>, tensor<f32>) -> tensor<16xf32>
    %50 = "stablehlo.broadcast_in_dim"(%49) <{broadcast_dimensions = array<i64: 0>}> : (tensor<16xf32>) -> tensor<16x1xf32>
    %51 = "stablehlo.broadcast_in_dim"(%50) <{broadcast_dimensions = array<i64: 0, 1>}> : (tensor<16x1xf32>) -> tensor<16x2xf32>
    %52 = "stablehlo.divide"(%46#0, %51) : (tensor<16x2xf32>, tensor<16x2xf32>) -> tensor<16x2xf32>
    %53 = "stablehlo.multiply"(%50, %50) : (tensor<16x1xf32>, tensor<16x1xf32>) -> tensor<16x1xf32>
    %54 = "stablehlo.constant"() <{value = dense<1.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %55 = "stablehlo.broadcast_in_dim"(%54) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<16x1xf32>
    %56 = "stablehlo.divide"(%55, %53) : (tensor<16x1xf32>, tensor<16x1xf32>) -> tensor<16x1xf32>
    %57 = "func.call"(%46#1) <{callee = @_one_hot}> : (tensor<16x2xi32>) -> tensor<16x2x4xf32>
    %58 = "stablehlo.dot_general"(%52, %57) <{dot_dimension_numbers = #stablehlo.dot<lhs_batching_dimensions = [0], rhs_batching_dimensions = [0], lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [1]>, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]}> : (tensor<16x2xf32>, tensor<16x2x4xf32>) -> tensor<16x4xf32>
    %59 = "stablehlo.dot_general"(%arg1, %arg3) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [1]>, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]}> : (tensor<16x8xf32>, tensor<4x8x8xf32>) -> tensor<16x4x8xf32>
    %60 = "stablehlo.tanh"(%59) : (tensor<16x4x8xf32>) -> tensor<16x4x8xf32>
    %61 = "stablehlo.constant"() <{value = dense<1.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %62 = "stablehlo.broadcast_in_dim"(%61) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<16x4x8xf32>
    %63 = "stablehlo.subtract"(%62, %60) : (tensor<16x4x8xf32>, tensor<16x4x8xf32>) -> tensor<16x4x8xf32>
    %64 = "stablehlo.dot_general"(%58, %60) <{dot_dimension_numbers = #stablehlo.dot<lhs_batching_dimensions = [0], rhs_batching_dimensions = [0], lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [1]>, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]}> : (tensor<16x4xf32>, tensor<16x4x8xf32>) -> tensor<16x8xf32>
    %65 = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %66 = "stablehlo.reduce"(%57, %65) <{dimensions = array<i64: 1>}> ({
    ^bb0(%arg23: tensor<f32>, %arg24: tensor<f32>):
      %160 = "stablehlo.add"(%arg23, %arg24) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%160) : (tensor<f32>) -> ()
    }) : (tensor<16x2x4xf32>, tensor<f32>) -> tensor<16x4xf32>
    %67 = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %68 = "stablehlo.reduce"(%66, %67) <{dimensions = array<i64: 0>}> ({
    ^bb0(%arg21: tensor<f32>, %arg22: tensor<f32>):
      %159 = "stablehlo.add"(%arg21, %arg22) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%159) : (tensor<f32>) -> ()
    }) : (tensor<16x4xf32>, tensor<f32>) -> tensor<4xf32>
    %69 = "stablehlo.constant"() <{value = dense<1.600000e+01> : tensor<f32>}> : () -> tensor<f32>
    %70 = "stablehlo.broadcast_in_dim"(%69) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<4xf32>
    %71 = "stablehlo.divide"(%68, %70) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
    %72 = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %73 = "stablehlo.reduce"(%41, %72) <{dimensions = array<i64: 0>}> ({
    ^bb0(%arg19: tensor<f32>, %arg20: tensor<f32>):
      %158 = "stablehlo.add"(%arg19, %arg20) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%158) : (tensor<f32>) -> ()
    }) : (tensor<16x4xf32>, tensor<f32>) -> tensor<4xf32>
    %74 = "stablehlo.constant"() <{value = dense<1.600000e+01> : tensor<f32>}> : () -> tensor<f32>
    %75 = "stablehlo.broadcast_in_dim"(%74) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<4xf32>
    %76 = "stablehlo.divide"(%73, %75) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
    %77 = "stablehlo.multiply"(%71, %76) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
    %78 = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %79 = "stablehlo.reduce"(%77, %78) <{dimensions = array<i64: 0>}> ({
    ^bb0(%arg17: tensor<f32>, %arg18: tensor<f32>):
      %157 = "stablehlo.add"(%arg17, %arg18) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%157) : (tensor<f32>) -> ()
    }) : (tensor<4xf32>, tensor<f32>) -> tensor<f32>
    %80 = "stablehlo.constant"() <{value = dense<4.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %81 = "stablehlo.multiply"(%80, %79) : (tensor<f32>, tensor<f32>) -> tensor<f32>
    %82 = "stablehlo.subtract"(%64, %arg4) : (tensor<16x8xf32>, tensor<16x8xf32>) -> tensor<16x8xf32>
    %83 = "stablehlo.multiply"(%82, %82) : (tensor<16x8xf32>, tensor<16x8xf32>) -> tensor<16x8xf32>
    %84 = "stablehlo.constant"() <{value = dense<2.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %85 = "stablehlo.broadcast_in_dim"(%84) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<16x8xf32>
    %86 = "stablehlo.multiply"(%85, %82) : (tensor<16x8xf32>, tensor<16x8xf32>) -> tensor<16x8xf32>
    %87 = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %88 = "stablehlo.reduce"(%83, %87) <{dimensions = array<i64: 0, 1>}> ({
    ^bb0(%arg15: tensor<f32>, %arg16: tensor<f32>):
      %156 = "stablehlo.add"(%arg15, %arg16) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%156) : (tensor<f32>) -> ()
    }) : (tensor<16x8xf32>, tensor<f32>) -> tensor<f32>
    %89 = "stablehlo.constant"() <{value = dense<1.280000e+02> : tensor<f32>}> : () -> tensor<f32>
    %90 = "stablehlo.divide"(%88, %89) : (tensor<f32>, tensor<f32>) -> tensor<f32>
    %91 = "stablehlo.constant"() <{value = dense<0.00999999977> : tensor<f32>}> : () -> tensor<f32>
    %92 = "stablehlo.multiply"(%91, %81) : (tensor<f32>, tensor<f32>) -> tensor<f32>
    %93 = "stablehlo.add"(%90, %92) : (tensor<f32>, tensor<f32>) -> tensor<f32>
    %94 = "stablehlo.constant"() <{value = dense<1.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %95 = "stablehlo.constant"() <{value = dense<0.00999999977> : tensor<f32>}> : () -> tensor<f32>
    %96 = "stablehlo.multiply"(%95, %94) : (tensor<f32>, tensor<f32>) -> tensor<f32>
    %97 = "stablehlo.constant"() <{value = dense<1.280000e+02> : tensor<f32>}> : () -> tensor<f32>
    %98 = "stablehlo.divide"(%94, %97) : (tensor<f32>, tensor<f32>) -> tensor<f32>
    %99 = "stablehlo.broadcast_in_dim"(%98) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<16x8xf32>
    %100 = "stablehlo.multiply"(%99, %86) : (tensor<16x8xf32>, tensor<16x8xf32>) -> tensor<16x8xf32>
    %101 = "stablehlo.constant"() <{value = dense<4.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %102 = "stablehlo.multiply"(%101, %96) : (tensor<f32>, tensor<f32>) -> tensor<f32>
    %103 = "stablehlo.broadcast_in_dim"(%102) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<4xf32>
    %104 = "stablehlo.multiply"(%71, %103) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
    %105 = "stablehlo.constant"() <{value = dense<1.600000e+01> : tensor<f32>}> : () -> tensor<f32>
    %106 = "stablehlo.broadcast_in_dim"(%105) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<4xf32>
    %107 = "stablehlo.divide"(%104, %106) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
    %108 = "stablehlo.broadcast_in_dim"(%107) <{broadcast_dimensions = array<i64: 1>}> : (tensor<4xf32>) -> tensor<16x4xf32>
    %109 = "stablehlo.dot_general"(%100, %58) <{dot_dimension_numbers = #stablehlo.dot<lhs_batching_dimensions = [0], rhs_batching_dimensions = [0]>, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]}> : (tensor<16x8xf32>, tensor<16x4xf32>) -> tensor<16x8x4xf32>
    %110 = "stablehlo.transpose"(%109) <{permutation = array<i64: 0, 2, 1>}> : (tensor<16x8x4xf32>) -> tensor<16x4x8xf32>
    %111 = "stablehlo.dot_general"(%100, %60) <{dot_dimension_numbers = #stablehlo.dot<lhs_batching_dimensions = [0], rhs_batching_dimensions = [0], lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [2]>, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]}> : (tensor<16x8xf32>, tensor<16x4x8xf32>) -> tensor<16x4xf32>
    %112 = "stablehlo.multiply"(%110, %63) : (tensor<16x4x8xf32>, tensor<16x4x8xf32>) -> tensor<16x4x8xf32>
    %113 = "stablehlo.multiply"(%112, %60) : (tensor<16x4x8xf32>, tensor<16x4x8xf32>) -> tensor<16x4x8xf32>
    %114 = "stablehlo.add"(%112, %113) : (tensor<16x4x8xf32>, tensor<16x4x8xf32>) -> tensor<16x4x8xf32>
    %115 = "stablehlo.dot_general"(%114, %arg1) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [0], rhs_contracting_dimensions = [0]>, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]}> : (tensor<16x4x8xf32>, tensor<16x8xf32>) -> tensor<4x8x8xf32>
    %116 = "stablehlo.transpose"(%115) <{permutation = array<i64: 0, 2, 1>}> : (tensor<4x8x8xf32>) -> tensor<4x8x8xf32>
    %117 = "stablehlo.dot_general"(%111, %57) <{dot_dimension_numbers = #stablehlo.dot<lhs_batching_dimensions = [0], rhs_batching_dimensions = [0], lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [2]>, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]}> : (tensor<16x4xf32>, tensor<16x2x4xf32>) -> tensor<16x2xf32>
    %118 = "stablehlo.broadcast_in_dim"(%56) <{broadcast_dimensions = array<i64: 0, 1>}> : (tensor<16x1xf32>) -> tensor<16x2xf32>
    %119 = "stablehlo.multiply"(%117, %118) : (tensor<16x2xf32>, tensor<16x2xf32>) -> tensor<16x2xf32>
    %120 = "stablehlo.multiply"(%119, %46#0) : (tensor<16x2xf32>, tensor<16x2xf32>) -> tensor<16x2xf32>
    %121 = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %122 = "stablehlo.reduce"(%120, %121) <{dimensions = array<i64: 1>}> ({
    ^bb0(%arg13: tensor<f32>, %arg14: tensor<f32>):
      %155 = "stablehlo.add"(%arg13, %arg14) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%155) : (tensor<f32>) -> ()
    }) : (tensor<16x2xf32>, tensor<f32>) -> tensor<16xf32>
    %123 = "stablehlo.reshape"(%122) : (tensor<16xf32>) -> tensor<16x1xf32>
    %124 = "stablehlo.negate"(%123) : (tensor<16x1xf32>) -> tensor<16x1xf32>
    %125 = "stablehlo.broadcast_in_dim"(%50) <{broadcast_dimensions = array<i64: 0, 1>}> : (tensor<16x1xf32>) -> tensor<16x2xf32>
    %126 = "stablehlo.divide"(%117, %125) : (tensor<16x2xf32>, tensor<16x2xf32>) -> tensor<16x2xf32>
    %127 = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %128 = "stablehlo.reduce"(%124, %127) <{dimensions = array<i64: 1>}> ({
    ^bb0(%arg11: tensor<f32>, %arg12: tensor<f32>):
      %154 = "stablehlo.add"(%arg11, %arg12) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%154) : (tensor<f32>) -> ()
    }) : (tensor<16x1xf32>, tensor<f32>) -> tensor<16xf32>
    %129 = "stablehlo.broadcast_in_dim"(%128) <{broadcast_dimensions = array<i64: 0>}> : (tensor<16xf32>) -> tensor<16x2xf32>
    %130 = "stablehlo.add"(%126, %129) : (tensor<16x2xf32>, tensor<16x2xf32>) -> tensor<16x2xf32>
    %131 = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %132 = "stablehlo.broadcast_in_dim"(%131) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<16x4xf32>
    %133 = "stablehlo.scatter"(%132, %47, %130) <{indices_are_sorted = false, scatter_dimension_numbers = #stablehlo.scatter<inserted_window_dims = [1], input_batching_dims = [0], scatter_indices_batching_dims = [0], scatter_dims_to_operand_dims = [1], index_vector_dim = 2>, unique_indices = false}> ({
    ^bb0(%arg9: tensor<f32>, %arg10: tensor<f32>):
      %153 = "stablehlo.add"(%arg9, %arg10) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%153) : (tensor<f32>) -> ()
    }) : (tensor<16x4xf32>, tensor<16x2x1xi32>, tensor<16x2xf32>) -> tensor<16x4xf32>
    %134 = "stablehlo.add"(%108, %133) : (tensor<16x4xf32>, tensor<16x4xf32>) -> tensor<16x4xf32>
    %135 = "stablehlo.broadcast_in_dim"(%45) <{broadcast_dimensions = array<i64: 0, 1>}> : (tensor<16x1xf32>) -> tensor<16x4xf32>
    %136 = "stablehlo.multiply"(%134, %135) : (tensor<16x4xf32>, tensor<16x4xf32>) -> tensor<16x4xf32>
    %137 = "stablehlo.multiply"(%136, %36) : (tensor<16x4xf32>, tensor<16x4xf32>) -> tensor<16x4xf32>
    %138 = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %139 = "stablehlo.reduce"(%137, %138) <{dimensions = array<i64: 1>}> ({
    ^bb0(%arg7: tensor<f32>, %arg8: tensor<f32>):
      %152 = "stablehlo.add"(%arg7, %arg8) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%152) : (tensor<f32>) -> ()
    }) : (tensor<16x4xf32>, tensor<f32>) -> tensor<16xf32>
    %140 = "stablehlo.reshape"(%139) : (tensor<16xf32>) -> tensor<16x1xf32>
    %141 = "stablehlo.negate"(%140) : (tensor<16x1xf32>) -> tensor<16x1xf32>
    %142 = "stablehlo.broadcast_in_dim"(%39) <{broadcast_dimensions = array<i64: 0, 1>}> : (tensor<16x1xf32>) -> tensor<16x4xf32>
    %143 = "stablehlo.divide"(%134, %142) : (tensor<16x4xf32>, tensor<16x4xf32>) -> tensor<16x4xf32>
    %144 = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %145 = "stablehlo.reduce"(%141, %144) <{dimensions = array<i64: 1>}> ({
    ^bb0(%arg5: tensor<f32>, %arg6: tensor<f32>):
      %151 = "stablehlo.add"(%arg5, %arg6) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%151) : (tensor<f32>) -> ()
    }) : (tensor<16x1xf32>, tensor<f32>) -> tensor<16xf32>
    %146 = "stablehlo.broadcast_in_dim"(%145) <{broadcast_dimensions = array<i64: 0>}> : (tensor<16xf32>) -> tensor<16x4xf32>
    %147 = "stablehlo.add"(%143, %146) : (tensor<16x4xf32>, tensor<16x4xf32>) -> tensor<16x4xf32>
    %148 = "stablehlo.multiply"(%147, %36) : (tensor<16x4xf32>, tensor<16x4xf32>) -> tensor<16x4xf32>
    %149 = "stablehlo.dot_general"(%148, %arg1) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [0], rhs_contracting_dimensions = [0]>, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]}> : (tensor<16x4xf32>, tensor<16x8xf32>) -> tensor<4x8xf32>
    %150 = "stablehlo.transpose"(%149) <{permutation = array<i64: 1, 0>}> : (tensor<4x8xf32>) -> tensor<8x4xf32>
    "func.return"(%93, %150, %116) : (tensor<f32>, tensor<8x4xf32>, tensor<4x8x8xf32>) -> ()
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
