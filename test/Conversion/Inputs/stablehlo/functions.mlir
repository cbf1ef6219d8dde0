"builtin.module"() <{sym_name = "jit_fn"}> ({
  "sdy.mesh"() <{mesh = #sdy.mesh<["dp"=2]>, sym_name = "mesh"}> {stablehlo.mesh = {axes = [{name = "dp", size = 2 : i64}]}} : () -> ()
  "func.func"() <{arg_attrs = [{sdy.sharding = #sdy.sharding<@mesh, [{"dp"}, {}]>}, {sdy.sharding = #sdy.sharding<@mesh, [{"dp"}, {}]>}], function_type = (tensor<8x16xf32>, tensor<8x16xf32>) -> tensor<f32>, res_attrs = [{jax.result_info = "result", sdy.sharding = #sdy.sharding<@mesh, []>}], sym_name = "main", sym_visibility = "public"}> ({
  ^bb0(%arg5: tensor<8x16xf32>, %arg6: tensor<8x16xf32>):
    %6 = "stablehlo.constant"() <{value = dense<[0.000000e+00, 0.000000e+00, 1.000000e+00, -1.000000e+00, 1.000000e+00, -1.000000e+00, 2.000000e+00, -2.000000e+00, 5.000000e-01, -5.000000e-01, 3.000000e+00, 0.000000e+00]> : tensor<12xf32>}> : () -> tensor<12xf32>
    %7 = "stablehlo.constant"() <{value = dense<[0.000000e+00, 1.000000e+00, 0.000000e+00, 0.000000e+00, -1.000000e+00, -1.000000e+00, 2.000000e+00, 2.000000e+00, -3.000000e+00, -3.000000e+00, -5.000000e-01, -2.000000e+00]> : tensor<12xf32>}> : () -> tensor<12xf32>
    %8 = "stablehlo.constant"() <{value = dense<[5.000000e-01, -5.000000e-01, 1.500000e+00, -2.500000e+00, 0.49999997, -0.49999997, 2.000000e+00, -3.000000e+00]> : tensor<8xf32>}> : () -> tensor<8xf32>
    %9 = "stablehlo.tanh"(%arg5) : (tensor<8x16xf32>) -> tensor<8x16xf32>
    %10 = "stablehlo.constant"() <{value = dense<0.899999976> : tensor<f32>}> : () -> tensor<f32>
    %11 = "stablehlo.broadcast_in_dim"(%10) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<8x16xf32>
    %12 = "stablehlo.multiply"(%11, %9) : (tensor<8x16xf32>, tensor<8x16xf32>) -> tensor<8x16xf32>
    %13 = "stablehlo.constant"() <{value = dense<5.000000e-01> : tensor<f32>}> : () -> tensor<f32>
    %14 = "stablehlo.broadcast_in_dim"(%13) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<8x16xf32>
    %15 = "stablehlo.multiply"(%14, %arg5) : (tensor<8x16xf32>, tensor<8x16xf32>) -> tensor<8x16xf32>
    %16 = "stablehlo.tan"(%15) : (tensor<8x16xf32>) -> tensor<8x16xf32>
    %17 = "chlo.sinh"(%arg5) : (tensor<8x16xf32>) -> tensor<8x16xf32>
    %18 = "chlo.cosh"(%arg5) : (tensor<8x16xf32>) -> tensor<8x16xf32>
    %19 = "chlo.atanh"(%12) : (tensor<8x16xf32>) -> tensor<8x16xf32>
    %20 = "stablehlo.constant"() <{value = dense<3.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %21 = "stablehlo.broadcast_in_dim"(%20) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<8x16xf32>
    %22 = "stablehlo.multiply"(%21, %arg5) : (tensor<8x16xf32>, tensor<8x16xf32>) -> tensor<8x16xf32>
    %23 = "chlo.asinh"(%22) : (tensor<8x16xf32>) -> tensor<8x16xf32>
    %24 = "stablehlo.constant"() <{value = dense<1.000000e+20> : tensor<f32>}> : () -> tensor<f32>
    %25 = "stablehlo.broadcast_in_dim"(%24) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<8x16xf32>
    %26 = "stablehlo.multiply"(%25, %arg5) : (tensor<8x16xf32>, tensor<8x16xf32>) -> tensor<8x16xf32>
    %27 = "chlo.asinh"(%26) : (tensor<8x16xf32>) -> tensor<8x16xf32>
    %28 = "stablehlo.multiply"(%arg5, %arg5) : (tensor<8x16xf32>, tensor<8x16xf32>) -> tensor<8x16xf32>
    %29 = "stablehlo.constant"() <{value = dense<1.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %30 = "stablehlo.broadcast_in_dim"(%29) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<8x16xf32>
    %31 = "stablehlo.add"(%30, %28) : (tensor<8x16xf32>, tensor<8x16xf32>) -> tensor<8x16xf32>
    %32 = "stablehlo.constant"() <{value = dense<0.00999999977> : tensor<f32>}> : () -> tensor<f32>
    %33 = "stablehlo.broadcast_in_dim"(%32) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<8x16xf32>
    %34 = "stablehlo.add"(%31, %33) : (tensor<8x16xf32>, tensor<8x16xf32>) -> tensor<8x16xf32>
    %35 = "func.call"(%34) <{callee = @arccosh}> : (tensor<8x16xf32>) -> tensor<8x16xf32>
    %36 = "chlo.asin"(%12) : (tensor<8x16xf32>) -> tensor<8x16xf32>
    %37 = "chlo.acos"(%12) : (tensor<8x16xf32>) -> tensor<8x16xf32>
    %38 = "stablehlo.constant"() <{value = dense<2.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %39 = "stablehlo.broadcast_in_dim"(%38) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<8x16xf32>
    %40 = "stablehlo.multiply"(%39, %arg5) : (tensor<8x16xf32>, tensor<8x16xf32>) -> tensor<8x16xf32>
    %41 = "chlo.atan"(%40) : (tensor<8x16xf32>) -> tensor<8x16xf32>
    %42 = "stablehlo.atan2"(%arg6, %arg5) : (tensor<8x16xf32>, tensor<8x16xf32>) -> tensor<8x16xf32>
    %43 = "stablehlo.cbrt"(%arg5) : (tensor<8x16xf32>) -> tensor<8x16xf32>
    %44 = "stablehlo.constant"() <{value = dense<3.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %45 = "stablehlo.broadcast_in_dim"(%44) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<8x16xf32>
    %46 = "stablehlo.multiply"(%45, %arg5) : (tensor<8x16xf32>, tensor<8x16xf32>) -> tensor<8x16xf32>
    %47 = "stablehlo.round_nearest_afz"(%46) : (tensor<8x16xf32>) -> tensor<8x16xf32>
    %48 = "stablehlo.multiply"(%47, %arg5) : (tensor<8x16xf32>, tensor<8x16xf32>) -> tensor<8x16xf32>
    %49 = "stablehlo.constant"() <{value = dense<5.000000e-01> : tensor<f32>}> : () -> tensor<f32>
    %50 = "stablehlo.broadcast_in_dim"(%49) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<8x16xf32>
    %51 = "stablehlo.compare"(%arg5, %50) <{compare_type = #stablehlo<comparison_type FLOAT>, comparison_direction = #stablehlo<comparison_direction GT>}> : (tensor<8x16xf32>, tensor<8x16xf32>) -> tensor<8x16xi1>
    %52 = "stablehlo.subtract"(%arg5, %arg5) : (tensor<8x16xf32>, tensor<8x16xf32>) -> tensor<8x16xf32>
    %53 = "stablehlo.divide"(%arg5, %52) : (tensor<8x16xf32>, tensor<8x16xf32>) -> tensor<8x16xf32>
    %54 = "func.call"(%51, %53, %arg5) <{callee = @_where}> : (tensor<8x16xi1>, tensor<8x16xf32>, tensor<8x16xf32>) -> tensor<8x16xf32>
    %55 = "func.call"(%54) <{callee = @isinf}> : (tensor<8x16xf32>) -> tensor<8x16xi1>
    %56 = "stablehlo.constant"() <{value = dense<2.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %57 = "stablehlo.broadcast_in_dim"(%56) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<8x16xf32>
    %58 = "stablehlo.multiply"(%57, %arg5) : (tensor<8x16xf32>, tensor<8x16xf32>) -> tensor<8x16xf32>
    %59 = "func.call"(%55, %arg5, %58) <{callee = @_where}> : (tensor<8x16xi1>, tensor<8x16xf32>, tensor<8x16xf32>) -> tensor<8x16xf32>
    %60 = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %61 = "stablehlo.broadcast_in_dim"(%60) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<8x16xf32>
    %62 = "stablehlo.compare"(%arg5, %61) <{compare_type = #stablehlo<comparison_type FLOAT>, comparison_direction = #stablehlo<comparison_direction GT>}> : (tensor<8x16xf32>, tensor<8x16xf32>) -> tensor<8x16xi1>
    %63 = "stablehlo.subtract"(%arg5, %arg5) : (tensor<8x16xf32>, tensor<8x16xf32>) -> tensor<8x16xf32>
    %64 = "stablehlo.divide"(%arg5, %63) : (tensor<8x16xf32>, tensor<8x16xf32>) -> tensor<8x16xf32>
    %65 = "func.call"(%62, %64, %arg5) <{callee = @_where}> : (tensor<8x16xi1>, tensor<8x16xf32>, tensor<8x16xf32>) -> tensor<8x16xf32>
    %66 = "stablehlo.constant"() <{value = dense<0x7F800000> : tensor<f32>}> : () -> tensor<f32>
    %67 = "stablehlo.broadcast_in_dim"(%66) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<8x16xf32>
    %68 = "stablehlo.compare"(%65, %67) <{compare_type = #stablehlo<comparison_type FLOAT>, comparison_direction = #stablehlo<comparison_direction EQ>}> : (tensor<8x16xf32>, tensor<8x16xf32>) -> tensor<8x16xi1>
    %69 = "stablehlo.constant"() <{value = dense<3.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %70 = "stablehlo.broadcast_in_dim"(%69) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<8x16xf32>
    %71 = "stablehlo.multiply"(%70, %arg5) : (tensor<8x16xf32>, tensor<8x16xf32>) -> tensor<8x16xf32>
    %72 = "func.call"(%68, %arg5, %71) <{callee = @_where}> : (tensor<8x16xi1>, tensor<8x16xf32>, tensor<8x16xf32>) -> tensor<8x16xf32>
    %73 = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %74 = "stablehlo.broadcast_in_dim"(%73) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<8x16xf32>
    %75 = "stablehlo.compare"(%arg5, %74) <{compare_type = #stablehlo<comparison_type FLOAT>, comparison_direction = #stablehlo<comparison_direction LT>}> : (tensor<8x16xf32>, tensor<8x16xf32>) -> tensor<8x16xi1>
    %76 = "stablehlo.subtract"(%arg5, %arg5) : (tensor<8x16xf32>, tensor<8x16xf32>) -> tensor<8x16xf32>
    %77 = "stablehlo.divide"(%arg5, %76) : (tensor<8x16xf32>, tensor<8x16xf32>) -> tensor<8x16xf32>
    %78 = "func.call"(%75, %77, %arg5) <{callee = @_where}> : (tensor<8x16xi1>, tensor<8x16xf32>, tensor<8x16xf32>) -> tensor<8x16xf32>
    %79 = "stablehlo.constant"() <{value = dense<0xFF800000> : tensor<f32>}> : () -> tensor<f32>
    %80 = "stablehlo.broadcast_in_dim"(%79) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<8x16xf32>
    %81 = "stablehlo.compare"(%78, %80) <{compare_type = #stablehlo<comparison_type FLOAT>, comparison_direction = #stablehlo<comparison_direction EQ>}> : (tensor<8x16xf32>, tensor<8x16xf32>) -> tensor<8x16xi1>
    %82 = "stablehlo.constant"() <{value = dense<4.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %83 = "stablehlo.broadcast_in_dim"(%82) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<8x16xf32>
    %84 = "stablehlo.multiply"(%83, %arg5) : (tensor<8x16xf32>, tensor<8x16xf32>) -> tensor<8x16xf32>
    %85 = "func.call"(%81, %arg5, %84) <{callee = @_where}> : (tensor<8x16xi1>, tensor<8x16xf32>, tensor<8x16xf32>) -> tensor<8x16xf32>
    %86 = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %87 = "stablehlo.reduce"(%16, %86) <{dimensions = array<i64: 0, 1>}> ({
    ^bb0(%arg43: tensor<f32>, %arg44: tensor<f32>):
      %240 = "stablehlo.add"(%arg43, %arg44) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%240) : (tensor<f32>) -> ()
    }) : (tensor<8x16xf32>, tensor<f32>) -> tensor<f32>
    %88 = "stablehlo.constant"() <{value = dense<1.280000e+02> : tensor<f32>}> : () -> tensor<f32>
    %89 = "stablehlo.divide"(%87, %88) : (tensor<f32>, tensor<f32>) -> tensor<f32>
    %90 = "stablehlo.constant"() <{value = dense<1.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %91 = "stablehlo.multiply"(%90, %89) : (tensor<f32>, tensor<f32>) -> tensor<f32>
    %92 = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %93 = "stablehlo.add"(%92, %91) : (tensor<f32>, tensor<f32>) -> tensor<f32>
    %94 = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %95 = "stablehlo.reduce"(%17, %94) <{dimensions = array<i64: 0, 1>}> ({
    ^bb0(%arg41: tensor<f32>, %arg42: tensor<f32>):
      %239 = "stablehlo.add"(%arg41, %arg42) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%239) : (tensor<f32>) -> ()
    }) : (tensor<8x16xf32>, tensor<f32>) -> tensor<f32>
    %96 = "stablehlo.constant"() <{value = dense<1.280000e+02> : tensor<f32>}> : () -> tensor<f32>
    %97 = "stablehlo.divide"(%95, %96) : (tensor<f32>, tensor<f32>) -> tensor<f32>
    %98 = "stablehlo.constant"() <{value = dense<2.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %99 = "stablehlo.multiply"(%98, %97) : (tensor<f32>, tensor<f32>) -> tensor<f32>
    %100 = "stablehlo.add"(%93, %99) : (tensor<f32>, tensor<f32>) -> tensor<f32>
    %101 = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %102 = "stablehlo.reduce"(%18, %101) <{dimensions = array<i64: 0, 1>}> ({
    ^bb0(%arg39: tensor<f32>, %arg40: tensor<f32>):
      %238 = "stablehlo.add"(%arg39, %arg40) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%238) : (tensor<f32>) -> ()
    }) : (tensor<8x16xf32>, tensor<f32>) -> tensor<f32>
    %103 = "stablehlo.constant"() <{value = dense<1.280000e+02> : tensor<f32>}> : () -> tensor<f32>
    %104 = "stablehlo.divide"(%102, %103) : (tensor<f32>, tensor<f32>) -> tensor<f32>
    %105 = "stablehlo.constant"() <{value = dense<3.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %106 = "stablehlo.multiply"(%105, %104) : (tensor<f32>, tensor<f32>) -> tensor<f32>
    %107 = "stablehlo.add"(%100, %106) : (tensor<f32>, tensor<f32>) -> tensor<f32>
    %108 = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %109 = "stablehlo.reduce"(%19, %108) <{dimensions = array<i64: 0, 1>}> ({
    ^bb0(%arg37: tensor<f32>, %arg38: tensor<f32>):
      %237 = "stablehlo.add"(%arg37, %arg38) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%237) : (tensor<f32>) -> ()
    }) : (tensor<8x16xf32>, tensor<f32>) -> tensor<f32>
    %110 = "stablehlo.constant"() <{value = dense<1.280000e+02> : tensor<f32>}> : () -> tensor<f32>
    %111 = "stablehlo.divide"(%109, %110) : (tensor<f32>, tensor<f32>) -> tensor<f32>
    %112 = "stablehlo.constant"() <{value = dense<4.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %113 = "stablehlo.multiply"(%112, %111) : (tensor<f32>, tensor<f32>) -> tensor<f32>
    %114 = "stablehlo.add"(%107, %113) : (tensor<f32>, tensor<f32>) -> tensor<f32>
    %115 = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %116 = "stablehlo.reduce"(%23, %115) <{dimensions = array<i64: 0, 1>}> ({
    ^bb0(%arg35: tensor<f32>, %arg36: tensor<f32>):
      %236 = "stablehlo.add"(%arg35, %arg36) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%236) : (tensor<f32>) -> ()
    }) : (tensor<8x16xf32>, tensor<f32>) -> tensor<f32>
    %117 = "stablehlo.constant"() <{value = dense<1.280000e+02> : tensor<f32>}> : () -> tensor<f32>
    %118 = "stablehlo.divide"(%116, %117) : (tensor<f32>, tensor<f32>) -> tensor<f32>
    %119 = "stablehlo.constant"() <{value = dense<5.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %120 = "stablehlo.multiply"(%119, %118) : (tensor<f32>, tensor<f32>) -> tensor<f32>
    %121 = "stablehlo.add"(%114, %120) : (tensor<f32>, tensor<f32>) -> tensor<f32>
    %122 = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %123 = "stablehlo.reduce"(%27, %122) <{dimensions = array<i64: 0, 1>}> ({
    ^bb0(%arg33: tensor<f32>, %arg34: tensor<f32>):
      %235 = "stablehlo.add"(%arg33, %arg34) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%235) : (tensor<f32>) -> ()
    }) : (tensor<8x16xf32>, tensor<f32>) -> tensor<f32>
    %124 = "stablehlo.constant"() <{value = dense<1.280000e+02> : tensor<f32>}> : () -> tensor<f32>
    %125 = "stablehlo.divide"(%123, %124) : (tensor<f32>, tensor<f32>) -> tensor<f32>
    %126 = "stablehlo.constant"() <{value = dense<6.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %127 = "stablehlo.multiply"(%126, %125) : (tensor<f32>, tensor<f32>) -> tensor<f32>
    %128 = "stablehlo.add"(%121, %127) : (tensor<f32>, tensor<f32>) -> tensor<f32>
    %129 = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %130 = "stablehlo.reduce"(%35, %129) <{dimensions = array<i64: 0, 1>}> ({
    ^bb0(%arg31: tensor<f32>, %arg32: tensor<f32>):
      %234 = "stablehlo.add"(%arg31, %arg32) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%234) : (tensor<f32>) -> ()
    }) : (tensor<8x16xf32>, tensor<f32>) -> tensor<f32>
    %131 = "stablehlo.constant"() <{value = dense<1.280000e+02> : tensor<f32>}> : () -> tensor<f32>
    %132 = "stablehlo.divide"(%130, %131) : (tensor<f32>, tensor<f32>) -> tensor<f32>
    %133 = "stablehlo.constant"() <{value = dense<7.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %134 = "stablehlo.multiply"(%133, %132) : (tensor<f32>, tensor<f32>) -> tensor<f32>
    %135 = "stablehlo.add"(%128, %134) : (tensor<f32>, tensor<f32>) -> tensor<f32>
    %136 = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %137 = "stablehlo.reduce"(%36, %136) <{dimensions = array<i64: 0, 1>}> ({
    ^bb0(%arg29: tensor<f32>, %arg30: tensor<f32>):
      %233 = "stablehlo.add"(%arg29, %arg30) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%233) : (tensor<f32>) -> ()
    }) : (tensor<8x16xf32>, tensor<f32>) -> tensor<f32>
    %138 = "stablehlo.constant"() <{value = dense<1.280000e+02> : tensor<f32>}> : () -> tensor<f32>
    %139 = "stablehlo.divide"(%137, %138) : (tensor<f32>, tensor<f32>) -> tensor<f32>
    %140 = "stablehlo.constant"() <{value = dense<8.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %141 = "stablehlo.multiply"(%140, %139) : (tensor<f32>, tensor<f32>) -> tensor<f32>
    %142 = "stablehlo.add"(%135, %141) : (tensor<f32>, tensor<f32>) -> tensor<f32>
    %143 = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %144 = "stablehlo.reduce"(%37, %143) <{dimensions = array<i64: 0, 1>}> ({
    ^bb0(%arg27: tensor<f32>, %arg28: tensor<f32>):
      %232 = "stablehlo.add"(%arg27, %arg28) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%232) : (tensor<f32>) -> ()
    }) : (tensor<8x16xf32>, tensor<f32>) -> tensor<f32>
    %145 = "stablehlo.constant"() <{value = dense<1.280000e+02> : tensor<f32>}> : () -> tensor<f32>
    %146 = "stablehlo.divide"(%144, %145) : (tensor<f32>, tensor<f32>) -> tensor<f32>
    %147 = "stablehlo.constant"() <{value = dense<9.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %148 = "stablehlo.multiply"(%147, %146) : (tensor<f32>, tensor<f32>) -> tensor<f32>
    %149 = "stablehlo.add"(%142, %148) : (tensor<f32>, tensor<f32>) -> tensor<f32>
    %150 = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %151 = "stablehlo.reduce"(%41, %150) <{dimensions = array<i64: 0, 1>}> ({
    ^bb0(%arg25: tensor<f32>, %arg26: tensor<f32>):
      %231 = "stablehlo.add"(%arg25, %arg26) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%231) : (tensor<f32>) -> ()
    }) : (tensor<8x16xf32>, tensor<f32>) -> tensor<f32>
    %152 = "stablehlo.constant"() <{value = dense<1.280000e+02> : tensor<f32>}> : () -> tensor<f32>
    %153 = "stablehlo.divide"(%151, %152) : (tensor<f32>, tensor<f32>) -> tensor<f32>
    %154 = "stablehlo.constant"() <{value = dense<1.000000e+01> : tensor<f32>}> : () -> tensor<f32>
    %155 = "stablehlo.multiply"(%154, %153) : (tensor<f32>, tensor<f32>) -> tensor<f32>
    %156 = "stablehlo.add"(%149, %155) : (tensor<f32>, tensor<f32>) -> tensor<f32>
    %157 = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %158 = "stablehlo.reduce"(%42, %157) <{dimensions = array<i64: 0, 1>}> ({
    ^bb0(%arg23: tensor<f32>, %arg24: tensor<f32>):
      %230 = "stablehlo.add"(%arg23, %arg24) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%230) : (tensor<f32>) -> ()
    }) : (tensor<8x16xf32>, tensor<f32>) -> tensor<f32>
    %159 = "stablehlo.constant"() <{value = dense<1.280000e+02> : tensor<f32>}> : () -> tensor<f32>
    %160 = "stablehlo.divide"(%158, %159) : (tensor<f32>, tensor<f32>) -> tensor<f32>
    %161 = "stablehlo.constant"() <{value = dense<1.100000e+01> : tensor<f32>}> : () -> tensor<f32>
    %162 = "stablehlo.multiply"(%161, %160) : (tensor<f32>, tensor<f32>) -> tensor<f32>
    %163 = "stablehlo.add"(%156, %162) : (tensor<f32>, tensor<f32>) -> tensor<f32>
    %164 = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %165 = "stablehlo.reduce"(%43, %164) <{dimensions = array<i64: 0, 1>}> ({
    ^bb0(%arg21: tensor<f32>, %arg22: tensor<f32>):
      %229 = "stablehlo.add"(%arg21, %arg22) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%229) : (tensor<f32>) -> ()
    }) : (tensor<8x16xf32>, tensor<f32>) -> tensor<f32>
    %166 = "stablehlo.constant"() <{value = dense<1.280000e+02> : tensor<f32>}> : () -> tensor<f32>
    %167 = "stablehlo.divide"(%165, %166) : (tensor<f32>, tensor<f32>) -> tensor<f32>
    %168 = "stablehlo.constant"() <{value = dense<1.200000e+01> : tensor<f32>}> : () -> tensor<f32>
    %169 = "stablehlo.multiply"(%168, %167) : (tensor<f32>, tensor<f32>) -> tensor<f32>
    %170 = "stablehlo.add"(%163, %169) : (tensor<f32>, tensor<f32>) -> tensor<f32>
    %171 = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %172 = "stablehlo.reduce"(%48, %171) <{dimensions = array<i64: 0, 1>}> ({
    ^bb0(%arg19: tensor<f32>, %arg20: tensor<f32>):
      %228 = "stablehlo.add"(%arg19, %arg20) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%228) : (tensor<f32>) -> ()
    }) : (tensor<8x16xf32>, tensor<f32>) -> tensor<f32>
    %173 = "stablehlo.constant"() <{value = dense<1.280000e+02> : tensor<f32>}> : () -> tensor<f32>
    %174 = "stablehlo.divide"(%172, %173) : (tensor<f32>, tensor<f32>) -> tensor<f32>
    %175 = "stablehlo.constant"() <{value = dense<1.300000e+01> : tensor<f32>}> : () -> tensor<f32>
    %176 = "stablehlo.multiply"(%175, %174) : (tensor<f32>, tensor<f32>) -> tensor<f32>
    %177 = "stablehlo.add"(%170, %176) : (tensor<f32>, tensor<f32>) -> tensor<f32>
    %178 = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %179 = "stablehlo.reduce"(%59, %178) <{dimensions = array<i64: 0, 1>}> ({
    ^bb0(%arg17: tensor<f32>, %arg18: tensor<f32>):
      %227 = "stablehlo.add"(%arg17, %arg18) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%227) : (tensor<f32>) -> ()
    }) : (tensor<8x16xf32>, tensor<f32>) -> tensor<f32>
    %180 = "stablehlo.constant"() <{value = dense<1.280000e+02> : tensor<f32>}> : () -> tensor<f32>
    %181 = "stablehlo.divide"(%179, %180) : (tensor<f32>, tensor<f32>) -> tensor<f32>
    %182 = "stablehlo.constant"() <{value = dense<1.400000e+01> : tensor<f32>}> : () -> tensor<f32>
    %183 = "stablehlo.multiply"(%182, %181) : (tensor<f32>, tensor<f32>) -> tensor<f32>
    %184 = "stablehlo.add"(%177, %183) : (tensor<f32>, tensor<f32>) -> tensor<f32>
    %185 = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %186 = "stablehlo.reduce"(%72, %185) <{dimensions = array<i64: 0, 1>}> ({
    ^bb0(%arg15: tensor<f32>, %arg16: tensor<f32>):
      %226 = "stablehlo.add"(%arg15, %arg16) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%226) : (tensor<f32>) -> ()
    }) : (tensor<8x16xf32>, tensor<f32>) -> tensor<f32>
    %187 = "stablehlo.constant"() <{value = dense<1.280000e+02> : tensor<f32>}> : () -> tensor<f32>
    %188 = "stablehlo.divide"(%186, %187) : (tensor<f32>, tensor<f32>) -> tensor<f32>
    %189 = "stablehlo.constant"() <{value = dense<1.500000e+01> : tensor<f32>}> : () -> tensor<f32>
    %190 = "stablehlo.multiply"(%189, %188) : (tensor<f32>, tensor<f32>) -> tensor<f32>
    %191 = "stablehlo.add"(%184, %190) : (tensor<f32>, tensor<f32>) -> tensor<f32>
    %192 = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %193 = "stablehlo.reduce"(%85, %192) <{dimensions = array<i64: 0, 1>}> ({
    ^bb0(%arg13: tensor<f32>, %arg14: tensor<f32>):
      %225 = "stablehlo.add"(%arg13, %arg14) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%225) : (tensor<f32>) -> ()
    }) : (tensor<8x16xf32>, tensor<f32>) -> tensor<f32>
    %194 = "stablehlo.constant"() <{value = dense<1.280000e+02> : tensor<f32>}> : () -> tensor<f32>
    %195 = "stablehlo.divide"(%193, %194) : (tensor<f32>, tensor<f32>) -> tensor<f32>
    %196 = "stablehlo.constant"() <{value = dense<1.600000e+01> : tensor<f32>}> : () -> tensor<f32>
    %197 = "stablehlo.multiply"(%196, %195) : (tensor<f32>, tensor<f32>) -> tensor<f32>
    %198 = "stablehlo.add"(%191, %197) : (tensor<f32>, tensor<f32>) -> tensor<f32>
    %199 = "stablehlo.iota"() <{iota_dimension = 0 : i64}> : () -> tensor<12xf32>
    %200 = "stablehlo.constant"() <{value = dense<1.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %201 = "stablehlo.broadcast_in_dim"(%200) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<12xf32>
    %202 = "stablehlo.add"(%201, %199) : (tensor<12xf32>, tensor<12xf32>) -> tensor<12xf32>
    %203 = "stablehlo.atan2"(%6, %7) : (tensor<12xf32>, tensor<12xf32>) -> tensor<12xf32>
    %204 = "stablehlo.multiply"(%202, %203) : (tensor<12xf32>, tensor<12xf32>) -> tensor<12xf32>
    %205 = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %206 = "stablehlo.reduce"(%204, %205) <{dimensions = array<i64: 0>}> ({
    ^bb0(%arg11: tensor<f32>, %arg12: tensor<f32>):
      %224 = "stablehlo.add"(%arg11, %arg12) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%224) : (tensor<f32>) -> ()
    }) : (tensor<12xf32>, tensor<f32>) -> tensor<f32>
    %207 = "stablehlo.iota"() <{iota_dimension = 0 : i64}> : () -> tensor<8xf32>
    %208 = "stablehlo.constant"() <{value = dense<1.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %209 = "stablehlo.broadcast_in_dim"(%208) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<8xf32>
    %210 = "stablehlo.add"(%209, %207) : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xf32>
    %211 = "stablehlo.round_nearest_afz"(%8) : (tensor<8xf32>) -> tensor<8xf32>
    %212 = "stablehlo.multiply"(%210, %211) : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xf32>
    %213 = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %214 = "stablehlo.reduce"(%212, %213) <{dimensions = array<i64: 0>}> ({
    ^bb0(%arg9: tensor<f32>, %arg10: tensor<f32>):
      %223 = "stablehlo.add"(%arg9, %arg10) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%223) : (tensor<f32>) -> ()
    }) : (tensor<8xf32>, tensor<f32>) -> tensor<f32>
    %215 = "stablehlo.add"(%206, %214) : (tensor<f32>, tensor<f32>) -> tensor<f32>
    %216 = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %217 = "stablehlo.reduce"(%arg5, %216) <{dimensions = array<i64: 0, 1>}> ({
    ^bb0(%arg7: tensor<f32>, %arg8: tensor<f32>):
      %222 = "stablehlo.add"(%arg7, %arg8) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%222) : (tensor<f32>) -> ()
    }) : (tensor<8x16xf32>, tensor<f32>) -> tensor<f32>
    %218 = "stablehlo.constant"() <{value = dense<1.280000e+02> : tensor<f32>}> : () -> tensor<f32>
    %219 = "stablehlo.divide"(%217, %218) : (tensor<f32>, tensor<f32>) -> tensor<f32>
    %220 = "stablehlo.multiply"(%215, %219) : (tensor<f32>, tensor<f32>) -> tensor<f32>
    %221 = "stablehlo.add"(%198, %220) : (tensor<f32>, tensor<f32>) -> tensor<f32>
    "func.return"(%221) : (tensor<f32>) -> ()
  }) : () -> ()
  "func.func"() <{arg_attrs = [{}], function_type = (tensor<8x16xf32>) -> tensor<8x16xf32>, res_attrs = [{}], sym_name = "arccosh", sym_visibility = "private"}> ({
  ^bb0(%arg4: tensor<8x16xf32>):
    %5 = "chlo.acosh"(%arg4) : (tensor<8x16xf32>) -> tensor<8x16xf32>
    "func.return"(%5) : (tensor<8x16xf32>) -> ()
  }) : () -> ()
  "func.func"() <{arg_attrs = [{}, {}, {}], function_type = (tensor<8x16xi1>, tensor<8x16xf32>, tensor<8x16xf32>) -> tensor<8x16xf32>, res_attrs = [{}], sym_name = "_where", sym_visibility = "private"}> ({
  ^bb0(%arg1: tensor<8x16xi1>, %arg2: tensor<8x16xf32>, %arg3: tensor<8x16xf32>):
    %4 = "stablehlo.select"(%arg1, %arg2, %arg3) : (tensor<8x16xi1>, tensor<8x16xf32>, tensor<8x16xf32>) -> tensor<8x16xf32>
    "func.return"(%4) : (tensor<8x16xf32>) -> ()
  }) : () -> ()
  "func.func"() <{arg_attrs = [{}], function_type = (tensor<8x16xf32>) -> tensor<8x16xi1>, res_attrs = [{}], sym_name = "isinf", sym_visibility = "private"}> ({
  ^bb0(%arg0: tensor<8x16xf32>):
    %0 = "stablehlo.abs"(%arg0) : (tensor<8x16xf32>) -> tensor<8x16xf32>
    %1 = "stablehlo.constant"() <{value = dense<0x7F800000> : tensor<f32>}> : () -> tensor<f32>
    %2 = "stablehlo.broadcast_in_dim"(%1) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<8x16xf32>
    %3 = "stablehlo.compare"(%0, %2) <{compare_type = #stablehlo<comparison_type FLOAT>, comparison_direction = #stablehlo<comparison_direction EQ>}> : (tensor<8x16xf32>, tensor<8x16xf32>) -> tensor<8x16xi1>
    "func.return"(%3) : (tensor<8x16xi1>) -> ()
  }) : () -> ()
}) {mhlo.num_partitions = 2 : i32, mhlo.num_replicas = 1 : i32} : () -> ()
