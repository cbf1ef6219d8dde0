"builtin.module"() <{sym_name = "jit_fn"}> ({
  "sdy.mesh"() <{mesh = #sdy.mesh<["dp"=2, "tp"=2]>, sym_name = "mesh"}> {stablehlo.mesh = {axes = [{name = "dp", size = 2 : i64}, {name = "tp", size = 2 : i64}]}} : () -> ()
  "func.func"() <{arg_attrs = [{sdy.sharding = #sdy.sharding<@mesh, [{"dp"}, {}]>}, {sdy.sharding = #sdy.sharding<@mesh, [{}, {"tp"}]>}, {sdy.sharding = #sdy.sharding<@mesh, [{"tp"}, {}]>}, {sdy.sharding = #sdy.sharding<@mesh, [{"dp"}]>}], function_type = (tensor<16x16xf32>, tensor<16x32xf32>, tensor<32x4xf32>, tensor<16xi32>) -> (tensor<f32>, tensor<16x32xf32>, tensor<32x4xf32>), res_attrs = [{jax.result_info = "result[0]", sdy.sharding = #sdy.sharding<@mesh, []>}, {jax.result_info = "result[1]", sdy.sharding = #sdy.sharding<@mesh, [{}, {"tp"}]>}, {jax.result_info = "result[2]", sdy.sharding = #sdy.sharding<@mesh, [{"tp"}, {}]>}], sym_name = "main", sym_visibility = "public"}> ({
  ^bb0(%arg25: tensor<16x16xf32>, %arg26: tensor<16x32xf32>, %arg27: tensor<32x4xf32>, %arg28: tensor<16xi32>):
    %69 = "stablehlo.dot_general"(%arg25, %arg26) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [0]>, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]}> : (tensor<16x16xf32>, tensor<16x32xf32>) -> tensor<16x32xf32>
    %70 = "stablehlo.iota"() <{iota_dimension = 0 : i64}> : () -> tensor<16xi32>
    %71 = "stablehlo.convert"(%70) : (tensor<16xi32>) -> tensor<16xf32>
    %72 = "stablehlo.constant"() <{value = dense<1.600000e+01> : tensor<f32>}> : () -> tensor<f32>
    %73 = "stablehlo.broadcast_in_dim"(%72) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<16xf32>
    %74 = "stablehlo.divide"(%71, %73) : (tensor<16xf32>, tensor<16xf32>) -> tensor<16xf32>
    %75 = "stablehlo.sine"(%74) : (tensor<16xf32>) -> tensor<16xf32>
    %76 = "stablehlo.broadcast_in_dim"(%75) <{broadcast_dimensions = array<i64: 0>}> : (tensor<16xf32>) -> tensor<16x2xf32>
    %77 = "stablehlo.reshape"(%76) : (tensor<16x2xf32>) -> tensor<32xf32>
    %78 = "stablehlo.cosine"(%74) : (tensor<16xf32>) -> tensor<16xf32>
    %79 = "stablehlo.broadcast_in_dim"(%78) <{broadcast_dimensions = array<i64: 0>}> : (tensor<16xf32>) -> tensor<16x2xf32>
    %80 = "stablehlo.reshape"(%79) : (tensor<16x2xf32>) -> tensor<32xf32>
    %81 = "stablehlo.broadcast_in_dim"(%80) <{broadcast_dimensions = array<i64: 1>}> : (tensor<32xf32>) -> tensor<1x32xf32>
    %82 = "stablehlo.broadcast_in_dim"(%81) <{broadcast_dimensions = array<i64: 0, 1>}> : (tensor<1x32xf32>) -> tensor<16x32xf32>
    %83 = "stablehlo.multiply"(%69, %82) : (tensor<16x32xf32>, tensor<16x32xf32>) -> tensor<16x32xf32>
    %84 = "stablehlo.slice"(%69) <{limit_indices = array<i64: 16, 32>, start_indices = array<i64: 0, 0>, strides = array<i64: 1, 2>}> : (tensor<16x32xf32>) -> tensor<16x16xf32>
    %85 = "stablehlo.slice"(%69) <{limit_indices = array<i64: 16, 32>, start_indices = array<i64: 0, 1>, strides = array<i64: 1, 2>}> : (tensor<16x32xf32>) -> tensor<16x16xf32>
    %86 = "stablehlo.negate"(%85) : (tensor<16x16xf32>) -> tensor<16x16xf32>
    %87 = "stablehlo.broadcast_in_dim"(%86) <{broadcast_dimensions = array<i64: 0, 1>}> : (tensor<16x16xf32>) -> tensor<16x16x1xf32>
    %88 = "stablehlo.broadcast_in_dim"(%84) <{broadcast_dimensions = array<i64: 0, 1>}> : (tensor<16x16xf32>) -> tensor<16x16x1xf32>
    %89 = "stablehlo.concatenate"(%87, %88) <{dimension = 2 : i64}> : (tensor<16x16x1xf32>, tensor<16x16x1xf32>) -> tensor<16x16x2xf32>
    %90 = "stablehlo.reshape"(%89) : (tensor<16x16x2xf32>) -> tensor<16x32xf32>
    %91 = "stablehlo.broadcast_in_dim"(%77) <{broadcast_dimensions = array<i64: 1>}> : (tensor<32xf32>) -> tensor<1x32xf32>
    %92 = "stablehlo.broadcast_in_dim"(%91) <{broadcast_dimensions = array<i64: 0, 1>}> : (tensor<1x32xf32>) -> tensor<16x32xf32>
    %93 = "stablehlo.multiply"(%90, %92) : (tensor<16x32xf32>, tensor<16x32xf32>) -> tensor<16x32xf32>
    %94 = "stablehlo.add"(%83, %93) : (tensor<16x32xf32>, tensor<16x32xf32>) -> tensor<16x32xf32>
    %95 = "stablehlo.tanh"(%94) : (tensor<16x32xf32>) -> tensor<16x32xf32>
    %96 = "stablehlo.constant"() <{value = dense<1.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %97 = "stablehlo.broadcast_in_dim"(%96) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<16x32xf32>
    %98 = "stablehlo.subtract"(%97, %95) : (tensor<16x32xf32>, tensor<16x32xf32>) -> tensor<16x32xf32>
    %99 = "stablehlo.dot_general"(%95, %arg27) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [0]>, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]}> : (tensor<16x32xf32>, tensor<32x4xf32>) -> tensor<16x4xf32>
    %100:3 = "func.call"(%99) <{callee = @log_softmax}> : (tensor<16x4xf32>) -> (tensor<16x4xf32>, tensor<16x4xf32>, tensor<16x1xf32>)
    %101 = "stablehlo.broadcast_in_dim"(%arg28) <{broadcast_dimensions = array<i64: 0>}> : (tensor<16xi32>) -> tensor<16x1xi32>
    %102:2 = "func.call"(%100#0, %101) <{callee = @take_along_axis}> : (tensor<16x4xf32>, tensor<16x1xi32>) -> (tensor<16x1xf32>, tensor<16x1x1xi32>)
    %103 = "stablehlo.reshape"(%102#0) : (tensor<16x1xf32>) -> tensor<16xf32>
    %104 = "stablehlo.negate"(%103) : (tensor<16xf32>) -> tensor<16xf32>
    %105 = "func.call"(%99) <{callee = @argmax}> : (tensor<16x4xf32>) -> tensor<16xi32>
    %106 = "stablehlo.compare"(%105, %arg28) <{compare_type = #stablehlo<comparison_type SIGNED>, comparison_direction = #stablehlo<comparison_direction NE>}> : (tensor<16xi32>, tensor<16xi32>) -> tensor<16xi1>
    %107 = "stablehlo.convert"(%106) : (tensor<16xi1>) -> tensor<16xf32>
    %108 = "stablehlo.constant"() <{value = dense<1.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %109 = "stablehlo.broadcast_in_dim"(%108) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<16xf32>
    %110 = "stablehlo.add"(%109, %107) : (tensor<16xf32>, tensor<16xf32>) -> tensor<16xf32>
    %111 = "stablehlo.convert"(%110) : (tensor<16xf32>) -> tensor<16xf32>
    %112 = "stablehlo.multiply"(%104, %111) : (tensor<16xf32>, tensor<16xf32>) -> tensor<16xf32>
    %113 = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %114 = "stablehlo.reduce"(%112, %113) <{dimensions = array<i64: 0>}> ({
    ^bb0(%arg29: tensor<f32>, %arg30: tensor<f32>):
      %150 = "stablehlo.add"(%arg29, %arg30) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%150) : (tensor<f32>) -> ()
    }) : (tensor<16xf32>, tensor<f32>) -> tensor<f32>
    %115 = "stablehlo.constant"() <{value = dense<1.600000e+01> : tensor<f32>}> : () -> tensor<f32>
    %116 = "stablehlo.divide"(%114, %115) : (tensor<f32>, tensor<f32>) -> tensor<f32>
    %117 = "stablehlo.constant"() <{value = dense<1.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %118 = "stablehlo.constant"() <{value = dense<1.600000e+01> : tensor<f32>}> : () -> tensor<f32>
    %119 = "stablehlo.divide"(%117, %118) : (tensor<f32>, tensor<f32>) -> tensor<f32>
    %120 = "stablehlo.broadcast_in_dim"(%119) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<16xf32>
    %121 = "stablehlo.multiply"(%120, %111) : (tensor<16xf32>, tensor<16xf32>) -> tensor<16xf32>
    %122 = "stablehlo.negate"(%121) : (tensor<16xf32>) -> tensor<16xf32>
    %123 = "stablehlo.broadcast_in_dim"(%122) <{broadcast_dimensions = array<i64: 0>}> : (tensor<16xf32>) -> tensor<16x1xf32>
    %124 = "func.call"(%102#1, %123) <{callee = @take_along_axis_0}> : (tensor<16x1x1xi32>, tensor<16x1xf32>) -> tensor<16x4xf32>
    %125 = "func.call"(%100#1, %100#2, %124) <{callee = @log_softmax_1}> : (tensor<16x4xf32>, tensor<16x1xf32>, tensor<16x4xf32>) -> tensor<16x4xf32>
    %126 = "stablehlo.dot_general"(%125, %95) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [0], rhs_contracting_dimensions = [0]>, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]}> : (tensor<16x4xf32>, tensor<16x32xf32>) -> tensor<4x32xf32>
    %127 = "stablehlo.transpose"(%126) <{permutation = array<i64: 1, 0>}> : (tensor<4x32xf32>) -> tensor<32x4xf32>
    %128 = "stablehlo.dot_general"(%125, %arg27) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [1]>, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]}> : (tensor<16x4xf32>, tensor<32x4xf32>) -> tensor<16x32xf32>
    %129 = "stablehlo.multiply"(%128, %98) : (tensor<16x32xf32>, tensor<16x32xf32>) -> tensor<16x32xf32>
    %130 = "stablehlo.multiply"(%129, %95) : (tensor<16x32xf32>, tensor<16x32xf32>) -> tensor<16x32xf32>
    %131 = "stablehlo.add"(%129, %130) : (tensor<16x32xf32>, tensor<16x32xf32>) -> tensor<16x32xf32>
    %132 = "stablehlo.broadcast_in_dim"(%91) <{broadcast_dimensions = array<i64: 0, 1>}> : (tensor<1x32xf32>) -> tensor<16x32xf32>
    %133 = "stablehlo.multiply"(%131, %132) : (tensor<16x32xf32>, tensor<16x32xf32>) -> tensor<16x32xf32>
    %134 = "stablehlo.reshape"(%133) : (tensor<16x32xf32>) -> tensor<16x16x2xf32>
    %135 = "stablehlo.slice"(%134) <{limit_indices = array<i64: 16, 16, 1>, start_indices = array<i64: 0, 0, 0>, strides = array<i64: 1, 1, 1>}> : (tensor<16x16x2xf32>) -> tensor<16x16x1xf32>
    %136 = "stablehlo.reshape"(%135) : (tensor<16x16x1xf32>) -> tensor<16x16xf32>
    %137 = "stablehlo.slice"(%134) <{limit_indices = array<i64: 16, 16, 2>, start_indices = array<i64: 0, 0, 1>, strides = array<i64: 1, 1, 1>}> : (tensor<16x16x2xf32>) -> tensor<16x16x1xf32>
    %138 = "stablehlo.reshape"(%137) : (tensor<16x16x1xf32>) -> tensor<16x16xf32>
    %139 = "stablehlo.negate"(%136) : (tensor<16x16xf32>) -> tensor<16x16xf32>
    %140 = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %141 = "stablehlo.pad"(%139, %140) <{edge_padding_high = array<i64: 0, 0>, edge_padding_low = array<i64: 0, 1>, interior_padding = array<i64: 0, 1>}> : (tensor<16x16xf32>, tensor<f32>) -> tensor<16x32xf32>
    %142 = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %143 = "stablehlo.pad"(%138, %142) <{edge_padding_high = array<i64: 0, 1>, edge_padding_low = array<i64: 0, 0>, interior_padding = array<i64: 0, 1>}> : (tensor<16x16xf32>, tensor<f32>) -> tensor<16x32xf32>
    %144 = "stablehlo.add"(%141, %143) : (tensor<16x32xf32>, tensor<16x32xf32>) -> tensor<16x32xf32>
    %145 = "stablehlo.broadcast_in_dim"(%81) <{broadcast_dimensions = array<i64: 0, 1>}> : (tensor<1x32xf32>) -> tensor<16x32xf32>
    %146 = "stablehlo.multiply"(%131, %145) : (tensor<16x32xf32>, tensor<16x32xf32>) -> tensor<16x32xf32>
    %147 = "stablehlo.add"(%144, %146) : (tensor<16x32xf32>, tensor<16x32xf32>) -> tensor<16x32xf32>
    %148 = "stablehlo.dot_general"(%147, %arg25) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [0], rhs_contracting_dimensions = [0]>, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]}> : (tensor<16x32xf32>, tensor<16x16xf32>) -> tensor<32x16xf32>
    %149 = "stablehlo.transpose"(%148) <{permutation = array<i64: 1, 0>}> : (tensor<32x16xf32>) -> tensor<16x32xf32>
    "func.return"(%116, %149, %127) : (tensor<f32>, tensor<16x32xf32>, tensor<32x4xf32>) -> ()
  }) : () -> ()
  "func.func"() <{arg_attrs = [{}], function_type = (tensor<16x4xf32>) -> (tensor<16x4xf32>, tensor<16x4xf32>, tensor<16x1xf32>), res_attrs = [{}, {}, {}], sym_name = "log_softmax", sym_visibility = "private"}> ({
  ^bb0(%arg20: tensor<16x4xf32>):
    %52 = "stablehlo.constant"() <{value = dense<0xFF800000> : tensor<f32>}> : () -> tensor<f32>
    %53 = "stablehlo.reduce"(%arg20, %52) <{dimensions = array<i64: 1>}> ({
    ^bb0(%arg23: tensor<f32>, %arg24: tensor<f32>):
      %68 = "stablehlo.maximum"(%arg23, %arg24) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%68) : (tensor<f32>) -> ()
    }) : (tensor<16x4xf32>, tensor<f32>) -> tensor<16xf32>
    %54 = "stablehlo.constant"() <{value = dense<0xFF800000> : tensor<f32>}> : () -> tensor<f32>
    %55 = "stablehlo.broadcast_in_dim"(%54) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<16xf32>
    %56 = "stablehlo.maximum"(%55, %53) : (tensor<16xf32>, tensor<16xf32>) -> tensor<16xf32>
    %57 = "stablehlo.broadcast_in_dim"(%56) <{broadcast_dimensions = array<i64: 0>}> : (tensor<16xf32>) -> tensor<16x1xf32>
    %58 = "stablehlo.broadcast_in_dim"(%57) <{broadcast_dimensions = array<i64: 0, 1>}> : (tensor<16x1xf32>) -> tensor<16x4xf32>
    %59 = "stablehlo.subtract"(%arg20, %58) : (tensor<16x4xf32>, tensor<16x4xf32>) -> tensor<16x4xf32>
    %60 = "stablehlo.exponential"(%59) : (tensor<16x4xf32>) -> tensor<16x4xf32>
    %61 = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %62 = "stablehlo.reduce"(%60, %61) <{dimensions = array<i64: 1>}> ({
    ^bb0(%arg21: tensor<f32>, %arg22: tensor<f32>):
      %67 = "stablehlo.add"(%arg21, %arg22) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%67) : (tensor<f32>) -> ()
    }) : (tensor<16x4xf32>, tensor<f32>) -> tensor<16xf32>
    %63 = "stablehlo.broadcast_in_dim"(%62) <{broadcast_dimensions = array<i64: 0>}> : (tensor<16xf32>) -> tensor<16x1xf32>
    %64 = "stablehlo.log"(%63) : (tensor<16x1xf32>) -> tensor<16x1xf32>
    %65 = "stablehlo.broadcast_in_dim"(%64) <{broadcast_dimensions = array<i64: 0, 1>}> : (tensor<16x1xf32>) -> tensor<16x4xf32>
    %66 = "stablehlo.subtract"(%59, %65) : (tensor<16x4xf32>, tensor<16x4xf32>) -> tensor<16x4xf32>
    "func.return"(%66, %60, %63) : (tensor<16x4xf32>, tensor<16x4xf32>, tensor<16x1xf32>) -> ()
  }) : () -> ()
  "func.func"() <{arg_attrs = [{}, {}], function_type = (tensor<16x4xf32>, tensor<16x1xi32>) -> (tensor<16x1xf32>, tensor<16x1x1xi32>), res_attrs = [{}, {}], sym_name = "take_along_axis", sym_visibility = "private"}> ({
  ^bb0(%arg16: tensor<16x4xf32>, %arg17: tensor<16x1xi32>):
    %29 = "stablehlo.constant"() <{value = dense<0> : tensor<i32>}> : () -> tensor<i32>
    %30 = "stablehlo.broadcast_in_dim"(%29) <{broadcast_dimensions = array<i64>}> : (tensor<i32>) -> tensor<16x1xi32>
    %31 = "stablehlo.compare"(%arg17, %30) <{compare_type = #stablehlo<comparison_type SIGNED>, comparison_direction = #stablehlo<comparison_direction LT>}> : (tensor<16x1xi32>, tensor<16x1xi32>) -> tensor<16x1xi1>
    %32 = "stablehlo.constant"() <{value = dense<4> : tensor<i32>}> : () -> tensor<i32>
    %33 = "stablehlo.broadcast_in_dim"(%32) <{broadcast_dimensions = array<i64>}> : (tensor<i32>) -> tensor<16x1xi32>
    %34 = "stablehlo.add"(%arg17, %33) : (tensor<16x1xi32>, tensor<16x1xi32>) -> tensor<16x1xi32>
    %35 = "stablehlo.select"(%31, %34, %arg17) : (tensor<16x1xi1>, tensor<16x1xi32>, tensor<16x1xi32>) -> tensor<16x1xi32>
    %36 = "stablehlo.reshape"(%35) : (tensor<16x1xi32>) -> tensor<16x1x1xi32>
    %37 = "stablehlo.constant"() <{value = dense<3> : tensor<1xi32>}> : () -> tensor<1xi32>
    %38 = "stablehlo.constant"() <{value = dense<0> : tensor<i32>}> : () -> tensor<i32>
    %39 = "stablehlo.broadcast_in_dim"(%38) <{broadcast_dimensions = array<i64>}> : (tensor<i32>) -> tensor<16x1x1xi32>
    %40 = "stablehlo.compare"(%36, %39) <{compare_type = #stablehlo<comparison_type SIGNED>, comparison_direction = #stablehlo<comparison_direction GE>}> : (tensor<16x1x1xi32>, tensor<16x1x1xi32>) -> tensor<16x1x1xi1>
    %41 = "stablehlo.broadcast_in_dim"(%37) <{broadcast_dimensions = array<i64: 2>}> : (tensor<1xi32>) -> tensor<1x1x1xi32>
    %42 = "stablehlo.broadcast_in_dim"(%41) <{broadcast_dimensions = array<i64: 0, 1, 2>}> : (tensor<1x1x1xi32>) -> tensor<16x1x1xi32>
    %43 = "stablehlo.compare"(%36, %42) <{compare_type = #stablehlo<comparison_type SIGNED>, comparison_direction = #stablehlo<comparison_direction LE>}> : (tensor<16x1x1xi32>, tensor<16x1x1xi32>) -> tensor<16x1x1xi1>
    %44 = "stablehlo.and"(%40, %43) : (tensor<16x1x1xi1>, tensor<16x1x1xi1>) -> tensor<16x1x1xi1>
    %45 = "stablehlo.constant"() <{value = dense<true> : tensor<i1>}> : () -> tensor<i1>
    %46 = "stablehlo.reduce"(%44, %45) <{dimensions = array<i64: 2>}> ({
    ^bb0(%arg18: tensor<i1>, %arg19: tensor<i1>):
      %51 = "stablehlo.and"(%arg18, %arg19) : (tensor<i1>, tensor<i1>) -> tensor<i1>
      "stablehlo.return"(%51) : (tensor<i1>) -> ()
    }) : (tensor<16x1x1xi1>, tensor<i1>) -> tensor<16x1xi1>
    %47 = "stablehlo.gather"(%arg16, %36) <{dimension_numbers = #stablehlo.gather<collapsed_slice_dims = [1], operand_batching_dims = [0], start_indices_batching_dims = [0], start_index_map = [1], index_vector_dim = 2>, indices_are_sorted = false, slice_sizes = array<i64: 1, 1>}> : (tensor<16x4xf32>, tensor<16x1x1xi32>) -> tensor<16x1xf32>
    %48 = "stablehlo.constant"() <{value = dense<0x7FC00000> : tensor<f32>}> : () -> tensor<f32>
    %49 = "stablehlo.broadcast_in_dim"(%48) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<16x1xf32>
    %50 = "stablehlo.select"(%46, %47, %49) : (tensor<16x1xi1>, tensor<16x1xf32>, tensor<16x1xf32>) -> tensor<16x1xf32>
    "func.return"(%50, %36) : (tensor<16x1xf32>, tensor<16x1x1xi32>) -> ()
  }) : () -> ()
  "func.func"() <{function_type = (tensor<16x4xf32>) -> tensor<16xi32>, sym_name = "argmax", sym_visibility = "private"}> ({
  ^bb0(%arg11: tensor<16x4xf32>):
    %16 = "stablehlo.iota"() <{iota_dimension = 1 : i64}> : () -> tensor<16x4xi32>
    %17 = "stablehlo.constant"() <{value = dense<0xFF800000> : tensor<f32>}> : () -> tensor<f32>
    %18 = "stablehlo.constant"() <{value = dense<0> : tensor<i32>}> : () -> tensor<i32>
    %19:2 = "stablehlo.reduce"(%arg11, %16, %17, %18) <{dimensions = array<i64: 1>}> ({
    ^bb0(%arg12: tensor<f32>, %arg13: tensor<i32>, %arg14: tensor<f32>, %arg15: tensor<i32>):
      %20 = "stablehlo.compare"(%arg12, %arg14) <{compare_type = #stablehlo<comparison_type FLOAT>, comparison_direction = #stablehlo<comparison_direction GT>}> : (tensor<f32>, tensor<f32>) -> tensor<i1>
      %21 = "stablehlo.compare"(%arg12, %arg12) <{compare_type = #stablehlo<comparison_type FLOAT>, comparison_direction = #stablehlo<comparison_direction NE>}> : (tensor<f32>, tensor<f32>) -> tensor<i1>
      %22 = "stablehlo.or"(%20, %21) : (tensor<i1>, tensor<i1>) -> tensor<i1>
      %23 = "stablehlo.compare"(%arg12, %arg14) <{compare_type = #stablehlo<comparison_type FLOAT>, comparison_direction = #stablehlo<comparison_direction EQ>}> : (tensor<f32>, tensor<f32>) -> tensor<i1>
      %24 = "stablehlo.compare"(%arg13, %arg15) <{compare_type = #stablehlo<comparison_type SIGNED>, comparison_direction = #stablehlo<comparison_direction LT>}> : (tensor<i32>, tensor<i32>) -> tensor<i1>
      %25 = "stablehlo.and"(%23, %24) : (tensor<i1>, tensor<i1>) -> tensor<i1>
      %26 = "stablehlo.or"(%22, %25) : (tensor<i1>, tensor<i1>) -> tensor<i1>
      %27 = "stablehlo.select"(%22, %arg12, %arg14) : (tensor<i1>, tensor<f32>, tensor<f32>) -> tensor<f32>
      %28 = "stablehlo.select"(%26, %arg13, %arg15) : (tensor<i1>, tensor<i32>, tensor<i32>) -> tensor<i32>
      "stablehlo.return"(%27, %28) : (tensor<f32>, tensor<i32>) -> ()
    }) : (tensor<16x4xf32>, tensor<16x4xi32>, tensor<f32>, tensor<i32>) -> (tensor<16xf32>, tensor<16xi32>)
    "func.return"(%19#1) : (tensor<16xi32>) -> ()
  }) : () -> ()
  "func.func"() <{arg_attrs = [{}, {}], function_type = (tensor<16x1x1xi32>, tensor<16x1xf32>) -> tensor<16x4xf32>, res_attrs = [{}], sym_name = "take_along_axis_0", sym_visibility = "private"}> ({
  ^bb0(%arg7: tensor<16x1x1xi32>, %arg8: tensor<16x1xf32>):
    %12 = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %13 = "stablehlo.broadcast_in_dim"(%12) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<16x4xf32>
    %14 = "stablehlo.scatter"(%13, %arg7, %arg8) <{indices_are_sorted = false, scatter_dimension_numbers = #stablehlo.scatter<inserted_window_dims = [1], input_batching_dims = [0], scatter_indices_batching_dims = [0], scatter_dims_to_operand_dims = [1], index_vector_dim = 2>, unique_indices = false}> ({
    ^bb0(%arg9: tensor<f32>, %arg10: tensor<f32>):
      %15 = "stablehlo.add"(%arg9, %arg10) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%15) : (tensor<f32>) -> ()
    }) : (tensor<16x4xf32>, tensor<16x1x1xi32>, tensor<16x1xf32>) -> tensor<16x4xf32>
    "func.return"(%14) : (tensor<16x4xf32>) -> ()
  }) : () -> ()
  "func.func"() <{arg_attrs = [{}, {}, {}], function_type = (tensor<16x4xf32>, tensor<16x1xf32>, tensor<16x4xf32>) -> tensor<16x4xf32>, res_attrs = [{}], sym_name = "log_softmax_1", sym_visibility = "private"}> ({
  ^bb0(%arg0: tensor<16x4xf32>, %arg1: tensor<16x1xf32>, %arg2: tensor<16x4xf32>):
    %0 = "stablehlo.negate"(%arg2) : (tensor<16x4xf32>) -> tensor<16x4xf32>
    %1 = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %2 = "stablehlo.reduce"(%0, %1) <{dimensions = array<i64: 1>}> ({
    ^bb0(%arg5: tensor<f32>, %arg6: tensor<f32>):
      %11 = "stablehlo.add"(%arg5, %arg6) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%11) : (tensor<f32>) -> ()
    }) : (tensor<16x4xf32>, tensor<f32>) -> tensor<16xf32>
    %3 = "stablehlo.reshape"(%2) : (tensor<16xf32>) -> tensor<16x1xf32>
    %4 = "stablehlo.divide"(%3, %arg1) : (tensor<16x1xf32>, tensor<16x1xf32>) -> tensor<16x1xf32>
    %5 = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %6 = "stablehlo.reduce"(%4, %5) <{dimensions = array<i64: 1>}> ({
    ^bb0(%arg3: tensor<f32>, %arg4: tensor<f32>):
      %10 = "stablehlo.add"(%arg3, %arg4) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%10) : (tensor<f32>) -> ()
    }) : (tensor<16x1xf32>, tensor<f32>) -> tensor<16xf32>
    %7 = "stablehlo.broadcast_in_dim"(%6) <{broadcast_dimensions = array<i64: 0>}> : (tensor<16xf32>) -> tensor<16x4xf32>
    %8 = "stablehlo.multiply"(%7, %arg0) : (tensor<16x4xf32>, tensor<16x4xf32>) -> tensor<16x4xf32>
    %9 = "stablehlo.add"(%arg2, %8) : (tensor<16x4xf32>, tensor<16x4xf32>) -> tensor<16x4xf32>
    "func.return"(%9) : (tensor<16x4xf32>) -> ()
  }) : () -> ()
}) {mhlo.num_partitions = 4 : i32, mhlo.num_replicas = 1 : i32} : () -> ()
