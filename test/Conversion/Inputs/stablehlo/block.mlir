"builtin.module"() <{sym_name = "jit_fn"}> ({
  "sdy.mesh"() <{mesh = #sdy.mesh<["dp"=2, "tp"=2]>, sym_name = "mesh"}> {stablehlo.mesh = {axes = [{name = "dp", size = 2 : i64}, {name = "tp", size = 2 : i64}]}} : () -> ()
  "func.func"() <{arg_attrs = [{sdy.sharding = #sdy.sharding<@mesh, [{"dp"}, {}]>}, {sdy.sharding = #sdy.sharding<@mesh, [{"dp"}, {}]>}, {sdy.sharding = #sdy.sharding<@mesh, [{"tp"}, {}]>}, {sdy.sharding = #sdy.sharding<@mesh, [{}]>}, {sdy.sharding = #sdy.sharding<@mesh, [{}]>}, {sdy.sharding = #sdy.sharding<@mesh, [{}, {"tp"}]>}, {sdy.sharding = #sdy.sharding<@mesh, [{}, {"tp"}]>}, {sdy.sharding = #sdy.sharding<@mesh, [{}, {"tp"}]>}, {sdy.sharding = #sdy.sharding<@mesh, [{"tp"}, {}]>}, {sdy.sharding = #sdy.sharding<@mesh, [{}]>}, {sdy.sharding = #sdy.sharding<@mesh, [{}]>}, {sdy.sharding = #sdy.sharding<@mesh, [{}, {"tp"}]>}, {sdy.sharding = #sdy.sharding<@mesh, [{"tp"}, {}]>}, {sdy.sharding = #sdy.sharding<@mesh, [{}]>}, {sdy.sharding = #sdy.sharding<@mesh, [{}]>}], function_type = (tensor<2x8xi32>, tensor<2x8xi32>, tensor<32x16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16x16xf32>, tensor<16x16xf32>, tensor<16x16xf32>, tensor<16x16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16x64xf32>, tensor<64x16xf32>, tensor<16xf32>, tensor<16xf32>) -> tensor<f32>, res_attrs = [{jax.result_info = "result", sdy.sharding = #sdy.sharding<@mesh, []>}], sym_name = "main", sym_visibility = "public"}> ({
  ^bb0(%arg20: tensor<2x8xi32>, %arg21: tensor<2x8xi32>, %arg22: tensor<32x16xf32>, %arg23: tensor<16xf32>, %arg24: tensor<16xf32>, %arg25: tensor<16x16xf32>, %arg26: tensor<16x16xf32>, %arg27: tensor<16x16xf32>, %arg28: tensor<16x16xf32>, %arg29: tensor<16xf32>, %arg30: tensor<16xf32>, %arg31: tensor<16x64xf32>, %arg32: tensor<64x16xf32>, %arg33: tensor<16xf32>, %arg34: tensor<16xf32>):
    %77 = "func.call"(%arg22, %arg20) <{callee = @_take}> : (tensor<32x16xf32>, tensor<2x8xi32>) -> tensor<2x8x16xf32>
    %78 = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %79 = "stablehlo.reduce"(%77, %78) <{dimensions = array<i64: 2>}> ({
    ^bb0(%arg51: tensor<f32>, %arg52: tensor<f32>):
      %243 = "stablehlo.add"(%arg51, %arg52) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%243) : (tensor<f32>) -> ()
    }) : (tensor<2x8x16xf32>, tensor<f32>) -> tensor<2x8xf32>
    %80 = "stablehlo.broadcast_in_dim"(%79) <{broadcast_dimensions = array<i64: 0, 1>}> : (tensor<2x8xf32>) -> tensor<2x8x1xf32>
    %81 = "stablehlo.constant"() <{value = dense<1.600000e+01> : tensor<f32>}> : () -> tensor<f32>
    %82 = "stablehlo.broadcast_in_dim"(%81) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<2x8x1xf32>
    %83 = "stablehlo.divide"(%80, %82) : (tensor<2x8x1xf32>, tensor<2x8x1xf32>) -> tensor<2x8x1xf32>
    %84 = "stablehlo.broadcast_in_dim"(%83) <{broadcast_dimensions = array<i64: 0, 1, 2>}> : (tensor<2x8x1xf32>) -> tensor<2x8x16xf32>
    %85 = "stablehlo.subtract"(%77, %84) : (tensor<2x8x16xf32>, tensor<2x8x16xf32>) -> tensor<2x8x16xf32>
    %86 = "stablehlo.multiply"(%85, %85) : (tensor<2x8x16xf32>, tensor<2x8x16xf32>) -> tensor<2x8x16xf32>
    %87 = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %88 = "stablehlo.reduce"(%86, %87) <{dimensions = array<i64: 2>}> ({
    ^bb0(%arg49: tensor<f32>, %arg50: tensor<f32>):
      %242 = "stablehlo.add"(%arg49, %arg50) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%242) : (tensor<f32>) -> ()
    }) : (tensor<2x8x16xf32>, tensor<f32>) -> tensor<2x8xf32>
    %89 = "stablehlo.broadcast_in_dim"(%88) <{broadcast_dimensions = array<i64: 0, 1>}> : (tensor<2x8xf32>) -> tensor<2x8x1xf32>
    %90 = "stablehlo.constant"() <{value = dense<1.600000e+01> : tensor<f32>}> : () -> tensor<f32>
    %91 = "stablehlo.broadcast_in_dim"(%90) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<2x8x1xf32>
    %92 = "stablehlo.divide"(%89, %91) : (tensor<2x8x1xf32>, tensor<2x8x1xf32>) -> tensor<2x8x1xf32>
    %93 = "stablehlo.broadcast_in_dim"(%83) <{broadcast_dimensions = array<i64: 0, 1, 2>}> : (tensor<2x8x1xf32>) -> tensor<2x8x16xf32>
    %94 = "stablehlo.subtract"(%77, %93) : (tensor<2x8x16xf32>, tensor<2x8x16xf32>) -> tensor<2x8x16xf32>
    %95 = "stablehlo.constant"() <{value = dense<9.99999974E-6> : tensor<f32>}> : () -> tensor<f32>
    %96 = "stablehlo.broadcast_in_dim"(%95) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<2x8x1xf32>
    %97 = "stablehlo.add"(%92, %96) : (tensor<2x8x1xf32>, tensor<2x8x1xf32>) -> tensor<2x8x1xf32>
    %98 = "stablehlo.rsqrt"(%97) : (tensor<2x8x1xf32>) -> tensor<2x8x1xf32>
    %99 = "stablehlo.broadcast_in_dim"(%98) <{broadcast_dimensions = array<i64: 0, 1, 2>}> : (tensor<2x8x1xf32>) -> tensor<2x8x16xf32>
    %100 = "stablehlo.multiply"(%94, %99) : (tensor<2x8x16xf32>, tensor<2x8x16xf32>) -> tensor<2x8x16xf32>
    %101 = "stablehlo.broadcast_in_dim"(%arg23) <{broadcast_dimensions = array<i64: 2>}> : (tensor<16xf32>) -> tensor<1x1x16xf32>
    %102 = "stablehlo.broadcast_in_dim"(%101) <{broadcast_dimensions = array<i64: 0, 1, 2>}> : (tensor<1x1x16xf32>) -> tensor<2x8x16xf32>
    %103 = "stablehlo.multiply"(%100, %102) : (tensor<2x8x16xf32>, tensor<2x8x16xf32>) -> tensor<2x8x16xf32>
    %104 = "stablehlo.broadcast_in_dim"(%arg24) <{broadcast_dimensions = array<i64: 2>}> : (tensor<16xf32>) -> tensor<1x1x16xf32>
    %105 = "stablehlo.broadcast_in_dim"(%104) <{broadcast_dimensions = array<i64: 0, 1, 2>}> : (tensor<1x1x16xf32>) -> tensor<2x8x16xf32>
    %106 = "stablehlo.add"(%103, %105) : (tensor<2x8x16xf32>, tensor<2x8x16xf32>) -> tensor<2x8x16xf32>
    %107 = "stablehlo.dot_general"(%106, %arg25) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [2], rhs_contracting_dimensions = [0]>, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]}> : (tensor<2x8x16xf32>, tensor<16x16xf32>) -> tensor<2x8x16xf32>
    %108 = "stablehlo.reshape"(%107) : (tensor<2x8x16xf32>) -> tensor<2x8x2x8xf32>
    %109 = "stablehlo.transpose"(%108) <{permutation = array<i64: 0, 2, 1, 3>}> : (tensor<2x8x2x8xf32>) -> tensor<2x2x8x8xf32>
    %110 = "stablehlo.dot_general"(%106, %arg26) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [2], rhs_contracting_dimensions = [0]>, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]}> : (tensor<2x8x16xf32>, tensor<16x16xf32>) -> tensor<2x8x16xf32>
    %111 = "stablehlo.reshape"(%110) : (tensor<2x8x16xf32>) -> tensor<2x8x2x8xf32>
    %112 = "stablehlo.transpose"(%111) <{permutation = array<i64: 0, 2, 1, 3>}> : (tensor<2x8x2x8xf32>) -> tensor<2x2x8x8xf32>
    %113 = "stablehlo.dot_general"(%106, %arg27) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [2], rhs_contracting_dimensions = [0]>, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]}> : (tensor<2x8x16xf32>, tensor<16x16xf32>) -> tensor<2x8x16xf32>
    %114 = "stablehlo.reshape"(%113) : (tensor<2x8x16xf32>) -> tensor<2x8x2x8xf32>
    %115 = "stablehlo.transpose"(%114) <{permutation = array<i64: 0, 2, 1, 3>}> : (tensor<2x8x2x8xf32>) -> tensor<2x2x8x8xf32>
    %116 = "stablehlo.dot_general"(%109, %112) <{dot_dimension_numbers = #stablehlo.dot<lhs_batching_dimensions = [0, 1], rhs_batching_dimensions = [0, 1], lhs_contracting_dimensions = [3], rhs_contracting_dimensions = [3]>, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]}> : (tensor<2x2x8x8xf32>, tensor<2x2x8x8xf32>) -> tensor<2x2x8x8xf32>
    %117 = "stablehlo.constant"() <{value = dense<8.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %118 = "stablehlo.sqrt"(%117) : (tensor<f32>) -> tensor<f32>
    %119 = "stablehlo.convert"(%118) : (tensor<f32>) -> tensor<f32>
    %120 = "stablehlo.broadcast_in_dim"(%119) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<2x2x8x8xf32>
    %121 = "stablehlo.divide"(%116, %120) : (tensor<2x2x8x8xf32>, tensor<2x2x8x8xf32>) -> tensor<2x2x8x8xf32>
    %122 = "stablehlo.constant"() <{value = dense<true> : tensor<i1>}> : () -> tensor<i1>
    %123 = "stablehlo.broadcast_in_dim"(%122) <{broadcast_dimensions = array<i64>}> : (tensor<i1>) -> tensor<8x8xi1>
    %124 = "func.call"(%123) <{callee = @tril}> : (tensor<8x8xi1>) -> tensor<8x8xi1>
    %125 = "stablehlo.constant"() <{value = dense<-3.40282347E+38> : tensor<f32>}> : () -> tensor<f32>
    %126 = "func.call"(%124, %121, %125) <{callee = @_where_0}> : (tensor<8x8xi1>, tensor<2x2x8x8xf32>, tensor<f32>) -> tensor<2x2x8x8xf32>
    %127 = "stablehlo.constant"() <{value = dense<0xFF800000> : tensor<f32>}> : () -> tensor<f32>
    %128 = "stablehlo.reduce"(%126, %127) <{dimensions = array<i64: 3>}> ({
    ^bb0(%arg47: tensor<f32>, %arg48: tensor<f32>):
      %241 = "stablehlo.maximum"(%arg47, %arg48) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%241) : (tensor<f32>) -> ()
    }) : (tensor<2x2x8x8xf32>, tensor<f32>) -> tensor<2x2x8xf32>
    %129 = "stablehlo.constant"() <{value = dense<0xFF800000> : tensor<f32>}> : () -> tensor<f32>
    %130 = "stablehlo.broadcast_in_dim"(%129) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<2x2x8xf32>
    %131 = "stablehlo.maximum"(%130, %128) : (tensor<2x2x8xf32>, tensor<2x2x8xf32>) -> tensor<2x2x8xf32>
    %132 = "stablehlo.broadcast_in_dim"(%131) <{broadcast_dimensions = array<i64: 0, 1, 2>}> : (tensor<2x2x8xf32>) -> tensor<2x2x8x1xf32>
    %133 = "stablehlo.broadcast_in_dim"(%132) <{broadcast_dimensions = array<i64: 0, 1, 2, 3>}> : (tensor<2x2x8x1xf32>) -> tensor<2x2x8x8xf32>
    %134 = "stablehlo.subtract"(%126, %133) : (tensor<2x2x8x8xf32>, tensor<2x2x8x8xf32>) -> tensor<2x2x8x8xf32>
    %135 = "stablehlo.exponential"(%134) : (tensor<2x2x8x8xf32>) -> tensor<2x2x8x8xf32>
    %136 = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %137 = "stablehlo.reduce"(%135, %136) <{dimensions = array<i64: 3>}> ({
    ^bb0(%arg45: tensor<f32>, %arg46: tensor<f32>):
      %240 = "stablehlo.add"(%arg45, %arg46) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%240) : (tensor<f32>) -> ()
    }) : (tensor<2x2x8x8xf32>, tensor<f32>) -> tensor<2x2x8xf32>
    %138 = "stablehlo.broadcast_in_dim"(%137) <{broadcast_dimensions = array<i64: 0, 1, 2>}> : (tensor<2x2x8xf32>) -> tensor<2x2x8x1xf32>
    %139 = "stablehlo.broadcast_in_dim"(%138) <{broadcast_dimensions = array<i64: 0, 1, 2, 3>}> : (tensor<2x2x8x1xf32>) -> tensor<2x2x8x8xf32>
    %140 = "stablehlo.divide"(%135, %139) : (tensor<2x2x8x8xf32>, tensor<2x2x8x8xf32>) -> tensor<2x2x8x8xf32>
    %141 = "stablehlo.dot_general"(%140, %115) <{dot_dimension_numbers = #stablehlo.dot<lhs_batching_dimensions = [0, 1], rhs_batching_dimensions = [0, 1], lhs_contracting_dimensions = [3], rhs_contracting_dimensions = [2]>, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]}> : (tensor<2x2x8x8xf32>, tensor<2x2x8x8xf32>) -> tensor<2x2x8x8xf32>
    %142 = "stablehlo.transpose"(%141) <{permutation = array<i64: 0, 2, 1, 3>}> : (tensor<2x2x8x8xf32>) -> tensor<2x8x2x8xf32>
    %143 = "stablehlo.reshape"(%142) : (tensor<2x8x2x8xf32>) -> tensor<2x8x16xf32>
    %144 = "stablehlo.dot_general"(%143, %arg28) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [2], rhs_contracting_dimensions = [0]>, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]}> : (tensor<2x8x16xf32>, tensor<16x16xf32>) -> tensor<2x8x16xf32>
    %145 = "stablehlo.add"(%77, %144) : (tensor<2x8x16xf32>, tensor<2x8x16xf32>) -> tensor<2x8x16xf32>
    %146 = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %147 = "stablehlo.reduce"(%145, %146) <{dimensions = array<i64: 2>}> ({
    ^bb0(%arg43: tensor<f32>, %arg44: tensor<f32>):
      %239 = "stablehlo.add"(%arg43, %arg44) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%239) : (tensor<f32>) -> ()
    }) : (tensor<2x8x16xf32>, tensor<f32>) -> tensor<2x8xf32>
    %148 = "stablehlo.broadcast_in_dim"(%147) <{broadcast_dimensions = array<i64: 0, 1>}> : (tensor<2x8xf32>) -> tensor<2x8x1xf32>
    %149 = "stablehlo.constant"() <{value = dense<1.600000e+01> : tensor<f32>}> : () -> tensor<f32>
    %150 = "stablehlo.broadcast_in_dim"(%149) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<2x8x1xf32>
    %151 = "stablehlo.divide"(%148, %150) : (tensor<2x8x1xf32>, tensor<2x8x1xf32>) -> tensor<2x8x1xf32>
    %152 = "stablehlo.broadcast_in_dim"(%151) <{broadcast_dimensions = array<i64: 0, 1, 2>}> : (tensor<2x8x1xf32>) -> tensor<2x8x16xf32>
    %153 = "stablehlo.subtract"(%145, %152) : (tensor<2x8x16xf32>, tensor<2x8x16xf32>) -> tensor<2x8x16xf32>
    %154 = "stablehlo.multiply"(%153, %153) : (tensor<2x8x16xf32>, tensor<2x8x16xf32>) -> tensor<2x8x16xf32>
    %155 = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %156 = "stablehlo.reduce"(%154, %155) <{dimensions = array<i64: 2>}> ({
    ^bb0(%arg41: tensor<f32>, %arg42: tensor<f32>):
      %238 = "stablehlo.add"(%arg41, %arg42) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%238) : (tensor<f32>) -> ()
    }) : (tensor<2x8x16xf32>, tensor<f32>) -> tensor<2x8xf32>
    %157 = "stablehlo.broadcast_in_dim"(%156) <{broadcast_dimensions = array<i64: 0, 1>}> : (tensor<2x8xf32>) -> tensor<2x8x1xf32>
    %158 = "stablehlo.constant"() <{value = dense<1.600000e+01> : tensor<f32>}> : () -> tensor<f32>
    %159 = "stablehlo.broadcast_in_dim"(%158) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<2x8x1xf32>
    %160 = "stablehlo.divide"(%157, %159) : (tensor<2x8x1xf32>, tensor<2x8x1xf32>) -> tensor<2x8x1xf32>
    %161 = "stablehlo.broadcast_in_dim"(%151) <{broadcast_dimensions = array<i64: 0, 1, 2>}> : (tensor<2x8x1xf32>) -> tensor<2x8x16xf32>
    %162 = "stablehlo.subtract"(%145, %161) : (tensor<2x8x16xf32>, tensor<2x8x16xf32>) -> tensor<2x8x16xf32>
    %163 = "stablehlo.constant"() <{value = dense<9.99999974E-6> : tensor<f32>}> : () -> tensor<f32>
    %164 = "stablehlo.broadcast_in_dim"(%163) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<2x8x1xf32>
    %165 = "stablehlo.add"(%160, %164) : (tensor<2x8x1xf32>, tensor<2x8x1xf32>) -> tensor<2x8x1xf32>
    %166 = "stablehlo.rsqrt"(%165) : (tensor<2x8x1xf32>) -> tensor<2x8x1xf32>
    %167 = "stablehlo.broadcast_in_dim"(%166) <{broadcast_dimensions = array<i64: 0, 1, 2>}> : (tensor<2x8x1xf32>) -> tensor<2x8x16xf32>
    %168 = "stablehlo.multiply"(%162, %167) : (tensor<2x8x16xf32>, tensor<2x8x16xf32>) -> tensor<2x8x16xf32>
    %169 = "stablehlo.broadcast_in_dim"(%arg29) <{broadcast_dimensions = array<i64: 2>}> : (tensor<16xf32>) -> tensor<1x1x16xf32>
    %170 = "stablehlo.broadcast_in_dim"(%169) <{broadcast_dimensions = array<i64: 0, 1, 2>}> : (tensor<1x1x16xf32>) -> tensor<2x8x16xf32>
    %171 = "stablehlo.multiply"(%168, %170) : (tensor<2x8x16xf32>, tensor<2x8x16xf32>) -> tensor<2x8x16xf32>
    %172 = "stablehlo.broadcast_in_dim"(%arg30) <{broadcast_dimensions = array<i64: 2>}> : (tensor<16xf32>) -> tensor<1x1x16xf32>
    %173 = "stablehlo.broadcast_in_dim"(%172) <{broadcast_dimensions = array<i64: 0, 1, 2>}> : (tensor<1x1x16xf32>) -> tensor<2x8x16xf32>
    %174 = "stablehlo.add"(%171, %173) : (tensor<2x8x16xf32>, tensor<2x8x16xf32>) -> tensor<2x8x16xf32>
    %175 = "stablehlo.dot_general"(%174, %arg31) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [2], rhs_contracting_dimensions = [0]>, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]}> : (tensor<2x8x16xf32>, tensor<16x64xf32>) -> tensor<2x8x64xf32>
    %176 = "stablehlo.multiply"(%175, %175) : (tensor<2x8x64xf32>, tensor<2x8x64xf32>) -> tensor<2x8x64xf32>
    %177 = "stablehlo.multiply"(%176, %175) : (tensor<2x8x64xf32>, tensor<2x8x64xf32>) -> tensor<2x8x64xf32>
    %178 = "stablehlo.constant"() <{value = dense<4.471500e-02> : tensor<f32>}> : () -> tensor<f32>
    %179 = "stablehlo.broadcast_in_dim"(%178) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<2x8x64xf32>
    %180 = "stablehlo.multiply"(%179, %177) : (tensor<2x8x64xf32>, tensor<2x8x64xf32>) -> tensor<2x8x64xf32>
    %181 = "stablehlo.add"(%175, %180) : (tensor<2x8x64xf32>, tensor<2x8x64xf32>) -> tensor<2x8x64xf32>
    %182 = "stablehlo.constant"() <{value = dense<0.797884583> : tensor<f32>}> : () -> tensor<f32>
    %183 = "stablehlo.broadcast_in_dim"(%182) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<2x8x64xf32>
    %184 = "stablehlo.multiply"(%183, %181) : (tensor<2x8x64xf32>, tensor<2x8x64xf32>) -> tensor<2x8x64xf32>
    %185 = "stablehlo.tanh"(%184) : (tensor<2x8x64xf32>) -> tensor<2x8x64xf32>
    %186 = "stablehlo.constant"() <{value = dense<1.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %187 = "stablehlo.broadcast_in_dim"(%186) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<2x8x64xf32>
    %188 = "stablehlo.add"(%187, %185) : (tensor<2x8x64xf32>, tensor<2x8x64xf32>) -> tensor<2x8x64xf32>
    %189 = "stablehlo.constant"() <{value = dense<5.000000e-01> : tensor<f32>}> : () -> tensor<f32>
    %190 = "stablehlo.broadcast_in_dim"(%189) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<2x8x64xf32>
    %191 = "stablehlo.multiply"(%190, %188) : (tensor<2x8x64xf32>, tensor<2x8x64xf32>) -> tensor<2x8x64xf32>
    %192 = "stablehlo.multiply"(%175, %191) : (tensor<2x8x64xf32>, tensor<2x8x64xf32>) -> tensor<2x8x64xf32>
    %193 = "stablehlo.dot_general"(%192, %arg32) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [2], rhs_contracting_dimensions = [0]>, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]}> : (tensor<2x8x64xf32>, tensor<64x16xf32>) -> tensor<2x8x16xf32>
    %194 = "stablehlo.add"(%145, %193) : (tensor<2x8x16xf32>, tensor<2x8x16xf32>) -> tensor<2x8x16xf32>
    %195 = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %196 = "stablehlo.reduce"(%194, %195) <{dimensions = array<i64: 2>}> ({
    ^bb0(%arg39: tensor<f32>, %arg40: tensor<f32>):
      %237 = "stablehlo.add"(%arg39, %arg40) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%237) : (tensor<f32>) -> ()
    }) : (tensor<2x8x16xf32>, tensor<f32>) -> tensor<2x8xf32>
    %197 = "stablehlo.broadcast_in_dim"(%196) <{broadcast_dimensions = array<i64: 0, 1>}> : (tensor<2x8xf32>) -> tensor<2x8x1xf32>
    %198 = "stablehlo.constant"() <{value = dense<1.600000e+01> : tensor<f32>}> : () -> tensor<f32>
    %199 = "stablehlo.broadcast_in_dim"(%198) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<2x8x1xf32>
    %200 = "stablehlo.divide"(%197, %199) : (tensor<2x8x1xf32>, tensor<2x8x1xf32>) -> tensor<2x8x1xf32>
    %201 = "stablehlo.broadcast_in_dim"(%200) <{broadcast_dimensions = array<i64: 0, 1, 2>}> : (tensor<2x8x1xf32>) -> tensor<2x8x16xf32>
    %202 = "stablehlo.subtract"(%194, %201) : (tensor<2x8x16xf32>, tensor<2x8x16xf32>) -> tensor<2x8x16xf32>
    %203 = "stablehlo.multiply"(%202, %202) : (tensor<2x8x16xf32>, tensor<2x8x16xf32>) -> tensor<2x8x16xf32>
    %204 = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %205 = "stablehlo.reduce"(%203, %204) <{dimensions = array<i64: 2>}> ({
    ^bb0(%arg37: tensor<f32>, %arg38: tensor<f32>):
      %236 = "stablehlo.add"(%arg37, %arg38) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%236) : (tensor<f32>) -> ()
    }) : (tensor<2x8x16xf32>, tensor<f32>) -> tensor<2x8xf32>
    %206 = "stablehlo.broadcast_in_dim"(%205) <{broadcast_dimensions = array<i64: 0, 1>}> : (tensor<2x8xf32>) -> tensor<2x8x1xf32>
    %207 = "stablehlo.constant"() <{value = dense<1.600000e+01> : tensor<f32>}> : () -> tensor<f32>
    %208 = "stablehlo.broadcast_in_dim"(%207) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<2x8x1xf32>
    %209 = "stablehlo.divide"(%206, %208) : (tensor<2x8x1xf32>, tensor<2x8x1xf32>) -> tensor<2x8x1xf32>
    %210 = "stablehlo.broadcast_in_dim"(%200) <{broadcast_dimensions = array<i64: 0, 1, 2>}> : (tensor<2x8x1xf32>) -> tensor<2x8x16xf32>
    %211 = "stablehlo.subtract"(%194, %210) : (tensor<2x8x16xf32>, tensor<2x8x16xf32>) -> tensor<2x8x16xf32>
    %212 = "stablehlo.constant"() <{value = dense<9.99999974E-6> : tensor<f32>}> : () -> tensor<f32>
    %213 = "stablehlo.broadcast_in_dim"(%212) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<2x8x1xf32>
    %214 = "stablehlo.add"(%209, %213) : (tensor<2x8x1xf32>, tensor<2x8x1xf32>) -> tensor<2x8x1xf32>
    %215 = "stablehlo.rsqrt"(%214) : (tensor<2x8x1xf32>) -> tensor<2x8x1xf32>
    %216 = "stablehlo.broadcast_in_dim"(%215) <{broadcast_dimensions = array<i64: 0, 1, 2>}> : (tensor<2x8x1xf32>) -> tensor<2x8x16xf32>
    %217 = "stablehlo.multiply"(%211, %216) : (tensor<2x8x16xf32>, tensor<2x8x16xf32>) -> tensor<2x8x16xf32>
    %218 = "stablehlo.broadcast_in_dim"(%arg33) <{broadcast_dimensions = array<i64: 2>}> : (tensor<16xf32>) -> tensor<1x1x16xf32>
    %219 = "stablehlo.broadcast_in_dim"(%218) <{broadcast_dimensions = array<i64: 0, 1, 2>}> : (tensor<1x1x16xf32>) -> tensor<2x8x16xf32>
    %220 = "stablehlo.multiply"(%217, %219) : (tensor<2x8x16xf32>, tensor<2x8x16xf32>) -> tensor<2x8x16xf32>
    %221 = "stablehlo.broadcast_in_dim"(%arg34) <{broadcast_dimensions = array<i64: 2>}> : (tensor<16xf32>) -> tensor<1x1x16xf32>
    %222 = "stablehlo.broadcast_in_dim"(%221) <{broadcast_dimensions = array<i64: 0, 1, 2>}> : (tensor<1x1x16xf32>) -> tensor<2x8x16xf32>
    %223 = "stablehlo.add"(%220, %222) : (tensor<2x8x16xf32>, tensor<2x8x16xf32>) -> tensor<2x8x16xf32>
    %224 = "stablehlo.transpose"(%arg22) <{permutation = array<i64: 1, 0>}> : (tensor<32x16xf32>) -> tensor<16x32xf32>
    %225 = "stablehlo.dot_general"(%223, %224) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [2], rhs_contracting_dimensions = [0]>, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]}> : (tensor<2x8x16xf32>, tensor<16x32xf32>) -> tensor<2x8x32xf32>
    %226 = "func.call"(%225) <{callee = @log_softmax}> : (tensor<2x8x32xf32>) -> tensor<2x8x32xf32>
    %227 = "stablehlo.broadcast_in_dim"(%arg21) <{broadcast_dimensions = array<i64: 0, 1>}> : (tensor<2x8xi32>) -> tensor<2x8x1xi32>
    %228 = "func.call"(%226, %227) <{callee = @take_along_axis}> : (tensor<2x8x32xf32>, tensor<2x8x1xi32>) -> tensor<2x8x1xf32>
    %229 = "stablehlo.reshape"(%228) : (tensor<2x8x1xf32>) -> tensor<2x8xf32>
    %230 = "stablehlo.negate"(%229) : (tensor<2x8xf32>) -> tensor<2x8xf32>
    %231 = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %232 = "stablehlo.reduce"(%230, %231) <{dimensions = array<i64: 0, 1>}> ({
    ^bb0(%arg35: tensor<f32>, %arg36: tensor<f32>):
      %235 = "stablehlo.add"(%arg35, %arg36) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%235) : (tensor<f32>) -> ()
    }) : (tensor<2x8xf32>, tensor<f32>) -> tensor<f32>
    %233 = "stablehlo.constant"() <{value = dense<1.600000e+01> : tensor<f32>}> : () -> tensor<f32>
    %234 = "stablehlo.divide"(%232, %233) : (tensor<f32>, tensor<f32>) -> tensor<f32>
    "func.return"(%234) : (tensor<f32>) -> ()
  }) : () -> ()
  "func.func"() <{arg_attrs = [{}, {}], function_type = (tensor<32x16xf32>, tensor<2x8xi32>) -> tensor<2x8x16xf32>, res_attrs = [{}], sym_name = "_take", sym_visibility = "private"}> ({
  ^bb0(%arg16: tensor<32x16xf32>, %arg17: tensor<2x8xi32>):
    %53 = "stablehlo.constant"() <{value = dense<0> : tensor<i32>}> : () -> tensor<i32>
    %54 = "stablehlo.broadcast_in_dim"(%53) <{broadcast_dimensions = array<i64>}> : (tensor<i32>) -> tensor<2x8xi32>
    %55 = "stablehlo.compare"(%arg17, %54) <{compare_type = #stablehlo<comparison_type SIGNED>, comparison_direction = #stablehlo<comparison_direction LT>}> : (tensor<2x8xi32>, tensor<2x8xi32>) -> tensor<2x8xi1>
    %56 = "stablehlo.constant"() <{value = dense<32> : tensor<i32>}> : () -> tensor<i32>
    %57 = "stablehlo.broadcast_in_dim"(%56) <{broadcast_dimensions = array<i64>}> : (tensor<i32>) -> tensor<2x8xi32>
    %58 = "stablehlo.add"(%arg17, %57) : (tensor<2x8xi32>, tensor<2x8xi32>) -> tensor<2x8xi32>
    %59 = "func.call"(%55, %58, %arg17) <{callee = @_where}> : (tensor<2x8xi1>, tensor<2x8xi32>, tensor<2x8xi32>) -> tensor<2x8xi32>
    %60 = "stablehlo.broadcast_in_dim"(%59) <{broadcast_dimensions = array<i64: 0, 1>}> : (tensor<2x8xi32>) -> tensor<2x8x1xi32>
    %61 = "stablehlo.constant"() <{value = dense<31> : tensor<1xi32>}> : () -> tensor<1xi32>
    %62 = "stablehlo.constant"() <{value = dense<0> : tensor<i32>}> : () -> tensor<i32>
    %63 = "stablehlo.broadcast_in_dim"(%62) <{broadcast_dimensions = array<i64>}> : (tensor<i32>) -> tensor<2x8x1xi32>
    %64 = "stablehlo.compare"(%60, %63) <{compare_type = #stablehlo<comparison_type SIGNED>, comparison_direction = #stablehlo<comparison_direction GE>}> : (tensor<2x8x1xi32>, tensor<2x8x1xi32>) -> tensor<2x8x1xi1>
    %65 = "stablehlo.broadcast_in_dim"(%61) <{broadcast_dimensions = array<i64: 2>}> : (tensor<1xi32>) -> tensor<1x1x1xi32>
    %66 = "stablehlo.broadcast_in_dim"(%65) <{broadcast_dimensions = array<i64: 0, 1, 2>}> : (tensor<1x1x1xi32>) -> tensor<2x8x1xi32>
    %67 = "stablehlo.compare"(%60, %66) <{compare_type = #stablehlo<comparison_type SIGNED>, comparison_direction = #stablehlo<comparison_direction LE>}> : (tensor<2x8x1xi32>, tensor<2x8x1xi32>) -> tensor<2x8x1xi1>
    %68 = "stablehlo.and"(%64, %67) : (tensor<2x8x1xi1>, tensor<2x8x1xi1>) -> tensor<2x8x1xi1>
    %69 = "stablehlo.constant"() <{value = dense<true> : tensor<i1>}> : () -> tensor<i1>
    %70 = "stablehlo.reduce"(%68, %69) <{dimensions = array<i64: 2>}> ({
    ^bb0(%arg18: tensor<i1>, %arg19: tensor<i1>):
      %76 = "stablehlo.and"(%arg18, %arg19) : (tensor<i1>, tensor<i1>) -> tensor<i1>
      "stablehlo.return"(%76) : (tensor<i1>) -> ()
    }) : (tensor<2x8x1xi1>, tensor<i1>) -> tensor<2x8xi1>
    %71 = "stablehlo.gather"(%arg16, %60) <{dimension_numbers = #stablehlo.gather<offset_dims = [2], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 2>, indices_are_sorted = false, slice_sizes = array<i64: 1, 16>}> : (tensor<32x16xf32>, tensor<2x8x1xi32>) -> tensor<2x8x16xf32>
    %72 = "stablehlo.broadcast_in_dim"(%70) <{broadcast_dimensions = array<i64: 0, 1>}> : (tensor<2x8xi1>) -> tensor<2x8x16xi1>
    %73 = "stablehlo.constant"() <{value = dense<0x7FC00000> : tensor<f32>}> : () -> tensor<f32>
    %74 = "stablehlo.broadcast_in_dim"(%73) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<2x8x16xf32>
    %75 = "stablehlo.select"(%72, %71, %74) : (tensor<2x8x16xi1>, tensor<2x8x16xf32>, tensor<2x8x16xf32>) -> tensor<2x8x16xf32>
    "func.return"(%75) : (tensor<2x8x16xf32>) -> ()
  }) : () -> ()
  "func.func"() <{arg_attrs = [{}, {}, {}], function_type = (tensor<2x8xi1>, tensor<2x8xi32>, tensor<2x8xi32>) -> tensor<2x8xi32>, res_attrs = [{}], sym_name = "_where", sym_visibility = "private"}> ({
  ^bb0(%arg13: tensor<2x8xi1>, %arg14: tensor<2x8xi32>, %arg15: tensor<2x8xi32>):
    %52 = "stablehlo.select"(%arg13, %arg14, %arg15) : (tensor<2x8xi1>, tensor<2x8xi32>, tensor<2x8xi32>) -> tensor<2x8xi32>
    "func.return"(%52) : (tensor<2x8xi32>) -> ()
  }) : () -> ()
  "func.func"() <{arg_attrs = [{}], function_type = (tensor<8x8xi1>) -> tensor<8x8xi1>, res_attrs = [{}], sym_name = "tril", sym_visibility = "private"}> ({
  ^bb0(%arg12: tensor<8x8xi1>):
    %43 = "stablehlo.iota"() <{iota_dimension = 0 : i64}> : () -> tensor<8x8xi32>
    %44 = "stablehlo.constant"() <{value = dense<0> : tensor<i32>}> : () -> tensor<i32>
    %45 = "stablehlo.broadcast_in_dim"(%44) <{broadcast_dimensions = array<i64>}> : (tensor<i32>) -> tensor<8x8xi32>
    %46 = "stablehlo.add"(%43, %45) : (tensor<8x8xi32>, tensor<8x8xi32>) -> tensor<8x8xi32>
    %47 = "stablehlo.iota"() <{iota_dimension = 1 : i64}> : () -> tensor<8x8xi32>
    %48 = "stablehlo.compare"(%46, %47) <{compare_type = #stablehlo<comparison_type SIGNED>, comparison_direction = #stablehlo<comparison_direction GE>}> : (tensor<8x8xi32>, tensor<8x8xi32>) -> tensor<8x8xi1>
    %49 = "stablehlo.constant"() <{value = dense<false> : tensor<i1>}> : () -> tensor<i1>
    %50 = "stablehlo.broadcast_in_dim"(%49) <{broadcast_dimensions = array<i64>}> : (tensor<i1>) -> tensor<8x8xi1>
    %51 = "stablehlo.select"(%48, %arg12, %50) : (tensor<8x8xi1>, tensor<8x8xi1>, tensor<8x8xi1>) -> tensor<8x8xi1>
    "func.return"(%51) : (tensor<8x8xi1>) -> ()
  }) : () -> ()
  "func.func"() <{arg_attrs = [{}, {}, {}], function_type = (tensor<8x8xi1>, tensor<2x2x8x8xf32>, tensor<f32>) -> tensor<2x2x8x8xf32>, res_attrs = [{}], sym_name = "_where_0", sym_visibility = "private"}> ({
  ^bb0(%arg9: tensor<8x8xi1>, %arg10: tensor<2x2x8x8xf32>, %arg11: tensor<f32>):
    %40 = "stablehlo.broadcast_in_dim"(%arg9) <{broadcast_dimensions = array<i64: 2, 3>}> : (tensor<8x8xi1>) -> tensor<2x2x8x8xi1>
    %41 = "stablehlo.broadcast_in_dim"(%arg11) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<2x2x8x8xf32>
    %42 = "stablehlo.select"(%40, %arg10, %41) : (tensor<2x2x8x8xi1>, tensor<2x2x8x8xf32>, tensor<2x2x8x8xf32>) -> tensor<2x2x8x8xf32>
    "func.return"(%42) : (tensor<2x2x8x8xf32>) -> ()
  }) : () -> ()
  "func.func"() <{arg_attrs = [{}], function_type = (tensor<2x8x32xf32>) -> tensor<2x8x32xf32>, res_attrs = [{}], sym_name = "log_softmax", sym_visibility = "private"}> ({
  ^bb0(%arg4: tensor<2x8x32xf32>):
    %23 = "stablehlo.constant"() <{value = dense<0xFF800000> : tensor<f32>}> : () -> tensor<f32>
    %24 = "stablehlo.reduce"(%arg4, %23) <{dimensions = array<i64: 2>}> ({
    ^bb0(%arg7: tensor<f32>, %arg8: tensor<f32>):
      %39 = "stablehlo.maximum"(%arg7, %arg8) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%39) : (tensor<f32>) -> ()
    }) : (tensor<2x8x32xf32>, tensor<f32>) -> tensor<2x8xf32>
    %25 = "stablehlo.constant"() <{value = dense<0xFF800000> : tensor<f32>}> : () -> tensor<f32>
    %26 = "stablehlo.broadcast_in_dim"(%25) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<2x8xf32>
    %27 = "stablehlo.maximum"(%26, %24) : (tensor<2x8xf32>, tensor<2x8xf32>) -> tensor<2x8xf32>
    %28 = "stablehlo.broadcast_in_dim"(%27) <{broadcast_dimensions = array<i64: 0, 1>}> : (tensor<2x8xf32>) -> tensor<2x8x1xf32>
    %29 = "stablehlo.broadcast_in_dim"(%28) <{broadcast_dimensions = array<i64: 0, 1, 2>}> : (tensor<2x8x1xf32>) -> tensor<2x8x32xf32>
    %30 = "stablehlo.subtract"(%arg4, %29) : (tensor<2x8x32xf32>, tensor<2x8x32xf32>) -> tensor<2x8x32xf32>
    %31 = "stablehlo.exponential"(%30) : (tensor<2x8x32xf32>) -> tensor<2x8x32xf32>
    %32 = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %33 = "stablehlo.reduce"(%31, %32) <{dimensions = array<i64: 2>}> ({
    ^bb0(%arg5: tensor<f32>, %arg6: tensor<f32>):
      %38 = "stablehlo.add"(%arg5, %arg6) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%38) : (tensor<f32>) -> ()
    }) : (tensor<2x8x32xf32>, tensor<f32>) -> tensor<2x8xf32>
    %34 = "stablehlo.broadcast_in_dim"(%33) <{broadcast_dimensions = array<i64: 0, 1>}> : (tensor<2x8xf32>) -> tensor<2x8x1xf32>
    %35 = "stablehlo.log"(%34) : (tensor<2x8x1xf32>) -> tensor<2x8x1xf32>
    %36 = "stablehlo.broadcast_in_dim"(%35) <{broadcast_dimensions = array<i64: 0, 1, 2>}> : (tensor<2x8x1xf32>) -> tensor<2x8x32xf32>
    %37 = "stablehlo.subtract"(%30, %36) : (tensor<2x8x32xf32>, tensor<2x8x32xf32>) -> tensor<2x8x32xf32>
    "func.return"(%37) : (tensor<2x8x32xf32>) -> ()
  }) : () -> ()
  "func.func"() <{arg_attrs = [{}, {}], function_type = (tensor<2x8x32xf32>, tensor<2x8x1xi32>) -> tensor<2x8x1xf32>, res_attrs = [{}], sym_name = "take_along_axis", sym_visibility = "private"}> ({
  ^bb0(%arg0: tensor<2x8x32xf32>, %arg1: tensor<2x8x1xi32>):
    %0 = "stablehlo.constant"() <{value = dense<0> : tensor<i32>}> : () -> tensor<i32>
    %1 = "stablehlo.broadcast_in_dim"(%0) <{broadcast_dimensions = array<i64>}> : (tensor<i32>) -> tensor<2x8x1xi32>
    %2 = "stablehlo.compare"(%arg1, %1) <{compare_type = #stablehlo<comparison_type SIGNED>, comparison_direction = #stablehlo<comparison_direction LT>}> : (tensor<2x8x1xi32>, tensor<2x8x1xi32>) -> tensor<2x8x1xi1>
    %3 = "stablehlo.constant"() <{value = dense<32> : tensor<i32>}> : () -> tensor<i32>
    %4 = "stablehlo.broadcast_in_dim"(%3) <{broadcast_dimensions = array<i64>}> : (tensor<i32>) -> tensor<2x8x1xi32>
    %5 = "stablehlo.add"(%arg1, %4) : (tensor<2x8x1xi32>, tensor<2x8x1xi32>) -> tensor<2x8x1xi32>
    %6 = "stablehlo.select"(%2, %5, %arg1) : (tensor<2x8x1xi1>, tensor<2x8x1xi32>, tensor<2x8x1xi32>) -> tensor<2x8x1xi32>
    %7 = "stablehlo.reshape"(%6) : (tensor<2x8x1xi32>) -> tensor<2x8x1x1xi32>
    %8 = "stablehlo.constant"() <{value = dense<31> : tensor<1xi32>}> : () -> tensor<1xi32>
    %9 = "stablehlo.constant"() <{value = dense<0> : tensor<i32>}> : () -> tensor<i32>
    %10 = "stablehlo.broadcast_in_dim"(%9) <{broadcast_dimensions = array<i64>}> : (tensor<i32>) -> tensor<2x8x1x1xi32>
    %11 = "stablehlo.compare"(%7, %10) <{compare_type = #stablehlo<comparison_type SIGNED>, comparison_direction = #stablehlo<comparison_direction GE>}> : (tensor<2x8x1x1xi32>, tensor<2x8x1x1xi32>) -> tensor<2x8x1x1xi1>
    %12 = "stablehlo.broadcast_in_dim"(%8) <{broadcast_dimensions = array<i64: 3>}> : (tensor<1xi32>) -> tensor<1x1x1x1xi32>
    %13 = "stablehlo.broadcast_in_dim"(%12) <{broadcast_dimensions = array<i64: 0, 1, 2, 3>}> : (tensor<1x1x1x1xi32>) -> tensor<2x8x1x1xi32>
    %14 = "stablehlo.compare"(%7, %13) <{compare_type = #stablehlo<comparison_type SIGNED>, comparison_direction = #stablehlo<comparison_direction LE>}> : (tensor<2x8x1x1xi32>, tensor<2x8x1x1xi32>) -> tensor<2x8x1x1xi1>
    %15 = "stablehlo.and"(%11, %14) : (tensor<2x8x1x1xi1>, tensor<2x8x1x1xi1>) -> tensor<2x8x1x1xi1>
    %16 = "stablehlo.constant"() <{value = dense<true> : tensor<i1>}> : () -> tensor<i1>
    %17 = "stablehlo.reduce"(%15, %16) <{dimensions = array<i64: 3>}> ({
    ^bb0(%arg2: tensor<i1>, %arg3: tensor<i1>):
      %22 = "stablehlo.and"(%arg2, %arg3) : (tensor<i1>, tensor<i1>) -> tensor<i1>
      "stablehlo.return"(%22) : (tensor<i1>) -> ()
    }) : (tensor<2x8x1x1xi1>, tensor<i1>) -> tensor<2x8x1xi1>
    %18 = "stablehlo.gather"(%arg0, %7) <{dimension_numbers = #stablehlo.gather<collapsed_slice_dims = [2], operand_batching_dims = [0, 1], start_indices_batching_dims = [0, 1], start_index_map = [2], index_vector_dim = 3>, indices_are_sorted = false, slice_sizes = array<i64: 1, 1, 1>}> : (tensor<2x8x32xf32>, tensor<2x8x1x1xi32>) -> tensor<2x8x1xf32>
    %19 = "stablehlo.constant"() <{value = dense<0x7FC00000> : tensor<f32>}> : () -> tensor<f32>
    %20 = "stablehlo.broadcast_in_dim"(%19) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<2x8x1xf32>
    %21 = "stablehlo.select"(%17, %18, %20) : (tensor<2x8x1xi1>, tensor<2x8x1xf32>, tensor<2x8x1xf32>) -> tensor<2x8x1xf32>
    "func.return"(%21) : (tensor<2x8x1xf32>) -> ()
  }) : () -> ()
}) {mhlo.num_partitions = 4 : i32, mhlo.num_replicas = 1 : i32} : () -> ()
