"builtin.module"() <{sym_name = "jit_fn"}> ({
  "sdy.mesh"() <{mesh = #sdy.mesh<["dp"=2, "tp"=2]>, sym_name = "mesh"}> {stablehlo.mesh = {axes = [{name = "dp", size = 2 : i64}, {name = "tp", size = 2 : i64}]}} : () -> ()
  "func.func"() <{arg_attrs = [{sdy.sharding = #sdy.sharding<@mesh, [{"dp"}, {}]>}, {sdy.sharding = #sdy.sharding<@mesh, [{}, {"tp"}]>}, {sdy.sharding = #sdy.sharding<@mesh, [{"tp"}]>}, {sdy.sharding = #sdy.sharding<@mesh, [{}]>}, {sdy.sharding = #sdy.sharding<@mesh, [{}]>}, {sdy.sharding = #sdy.sharding<@mesh, [{}, {}]>}, {sdy.sharding = #sdy.sharding<@mesh, [{}]>}, {sdy.sharding = #sdy.sharding<@mesh, [{"dp"}]>}], function_type = (tensor<8x16xf32>, tensor<16x32xf32>, tensor<32xf32>, tensor<32xf32>, tensor<32xf32>, tensor<32x10xf32>, tensor<10xf32>, tensor<8xi32>) -> (tensor<f32>, tensor<16x32xf32>, tensor<32xf32>, tensor<32xf32>, tensor<32xf32>, tensor<32x10xf32>, tensor<10xf32>), res_attrs = [{jax.result_info = "result[0]", sdy.sharding = #sdy.sharding<@mesh, []>}, {jax.result_info = "result[1]", sdy.sharding = #sdy.sharding<@mesh, [{}, {"tp"}]>}, {jax.result_info = "result[2]", sdy.sharding = #sdy.sharding<@mesh, [{"tp"}]>}, {jax.result_info = "result[3]", sdy.sharding = #sdy.sharding<@mesh, [{}]>}, {jax.result_info = "result[4]", sdy.sharding = #sdy.sharding<@mesh, [{}]>}, {jax.result_info = "result[5]", sdy.sharding = #sdy.sharding<@mesh, [{}, {}]>}, {jax.result_info = "result[6]", sdy.sharding = #sdy.sharding<@mesh, [{}]>}], sym_name = "main", sym_visibility = "public"}> ({
  ^bb0(%arg19: tensor<8x16xf32>, %arg20: tensor<16x32xf32>, %arg21: tensor<32xf32>, %arg22: tensor<32xf32>, %arg23: tensor<32xf32>, %arg24: tensor<32x10xf32>, %arg25: tensor<10xf32>, %arg26: tensor<8xi32>):
    %53 = "stablehlo.dot_general"(%arg19, %arg20) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [0]>, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]}> : (tensor<8x16xf32>, tensor<16x32xf32>) -> tensor<8x32xf32>
    %54 = "stablehlo.reshape"(%arg21) : (tensor<32xf32>) -> tensor<1x32xf32>
    %55 = "stablehlo.broadcast_in_dim"(%54) <{broadcast_dimensions = array<i64: 0, 1>}> : (tensor<1x32xf32>) -> tensor<8x32xf32>
    %56 = "stablehlo.add"(%53, %55) : (tensor<8x32xf32>, tensor<8x32xf32>) -> tensor<8x32xf32>
    %57 = "stablehlo.multiply"(%56, %56) : (tensor<8x32xf32>, tensor<8x32xf32>) -> tensor<8x32xf32>
    %58 = "stablehlo.multiply"(%57, %56) : (tensor<8x32xf32>, tensor<8x32xf32>) -> tensor<8x32xf32>
    %59 = "stablehlo.multiply"(%56, %56) : (tensor<8x32xf32>, tensor<8x32xf32>) -> tensor<8x32xf32>
    %60 = "stablehlo.constant"() <{value = dense<3.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %61 = "stablehlo.broadcast_in_dim"(%60) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<8x32xf32>
    %62 = "stablehlo.multiply"(%61, %59) : (tensor<8x32xf32>, tensor<8x32xf32>) -> tensor<8x32xf32>
    %63 = "stablehlo.constant"() <{value = dense<4.471500e-02> : tensor<f32>}> : () -> tensor<f32>
    %64 = "stablehlo.broadcast_in_dim"(%63) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<8x32xf32>
    %65 = "stablehlo.multiply"(%64, %58) : (tensor<8x32xf32>, tensor<8x32xf32>) -> tensor<8x32xf32>
    %66 = "stablehlo.add"(%56, %65) : (tensor<8x32xf32>, tensor<8x32xf32>) -> tensor<8x32xf32>
    %67 = "stablehlo.constant"() <{value = dense<0.797884583> : tensor<f32>}> : () -> tensor<f32>
    %68 = "stablehlo.broadcast_in_dim"(%67) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<8x32xf32>
    %69 = "stablehlo.multiply"(%68, %66) : (tensor<8x32xf32>, tensor<8x32xf32>) -> tensor<8x32xf32>
    %70 = "stablehlo.tanh"(%69) : (tensor<8x32xf32>) -> tensor<8x32xf32>
    %71 = "stablehlo.constant"() <{value = dense<1.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %72 = "stablehlo.broadcast_in_dim"(%71) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<8x32xf32>
    %73 = "stablehlo.subtract"(%72, %70) : (tensor<8x32xf32>, tensor<8x32xf32>) -> tensor<8x32xf32>
    %74 = "stablehlo.constant"() <{value = dense<1.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %75 = "stablehlo.broadcast_in_dim"(%74) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<8x32xf32>
    %76 = "stablehlo.add"(%75, %70) : (tensor<8x32xf32>, tensor<8x32xf32>) -> tensor<8x32xf32>
    %77 = "stablehlo.constant"() <{value = dense<5.000000e-01> : tensor<f32>}> : () -> tensor<f32>
    %78 = "stablehlo.broadcast_in_dim"(%77) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<8x32xf32>
    %79 = "stablehlo.multiply"(%78, %76) : (tensor<8x32xf32>, tensor<8x32xf32>) -> tensor<8x32xf32>
    %80 = "stablehlo.multiply"(%56, %79) : (tensor<8x32xf32>, tensor<8x32xf32>) -> tensor<8x32xf32>
    %81 = "chlo.square"(%80) : (tensor<8x32xf32>) -> tensor<8x32xf32>
    %82 = "stablehlo.constant"() <{value = dense<2.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %83 = "stablehlo.broadcast_in_dim"(%82) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<8x32xf32>
    %84 = "stablehlo.multiply"(%83, %80) : (tensor<8x32xf32>, tensor<8x32xf32>) -> tensor<8x32xf32>
    %85 = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %86 = "stablehlo.reduce"(%80, %85) <{dimensions = array<i64: 1>}> ({
    ^bb0(%arg53: tensor<f32>, %arg54: tensor<f32>):
      %297 = "stablehlo.add"(%arg53, %arg54) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%297) : (tensor<f32>) -> ()
    }) : (tensor<8x32xf32>, tensor<f32>) -> tensor<8xf32>
    %87 = "stablehlo.constant"() <{value = dense<3.200000e+01> : tensor<f32>}> : () -> tensor<f32>
    %88 = "stablehlo.broadcast_in_dim"(%87) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<8xf32>
    %89 = "stablehlo.divide"(%86, %88) : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xf32>
    %90 = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %91 = "stablehlo.reduce"(%81, %90) <{dimensions = array<i64: 1>}> ({
    ^bb0(%arg51: tensor<f32>, %arg52: tensor<f32>):
      %296 = "stablehlo.add"(%arg51, %arg52) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%296) : (tensor<f32>) -> ()
    }) : (tensor<8x32xf32>, tensor<f32>) -> tensor<8xf32>
    %92 = "stablehlo.constant"() <{value = dense<3.200000e+01> : tensor<f32>}> : () -> tensor<f32>
    %93 = "stablehlo.broadcast_in_dim"(%92) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<8xf32>
    %94 = "stablehlo.divide"(%91, %93) : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xf32>
    %95 = "chlo.square"(%89) : (tensor<8xf32>) -> tensor<8xf32>
    %96 = "stablehlo.constant"() <{value = dense<2.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %97 = "stablehlo.broadcast_in_dim"(%96) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<8xf32>
    %98 = "stablehlo.multiply"(%97, %89) : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xf32>
    %99 = "stablehlo.subtract"(%94, %95) : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xf32>
    %100 = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %101 = "stablehlo.broadcast_in_dim"(%100) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<8xf32>
    %102 = "stablehlo.maximum"(%101, %99) : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xf32>
    %103 = "stablehlo.compare"(%99, %102) <{compare_type = #stablehlo<comparison_type FLOAT>, comparison_direction = #stablehlo<comparison_direction EQ>}> : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xi1>
    %104 = "stablehlo.constant"() <{value = dense<1.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %105 = "stablehlo.broadcast_in_dim"(%104) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<8xf32>
    %106 = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %107 = "stablehlo.broadcast_in_dim"(%106) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<8xf32>
    %108 = "stablehlo.select"(%103, %105, %107) : (tensor<8xi1>, tensor<8xf32>, tensor<8xf32>) -> tensor<8xf32>
    %109 = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %110 = "stablehlo.broadcast_in_dim"(%109) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<8xf32>
    %111 = "stablehlo.compare"(%110, %102) <{compare_type = #stablehlo<comparison_type FLOAT>, comparison_direction = #stablehlo<comparison_direction EQ>}> : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xi1>
    %112 = "stablehlo.constant"() <{value = dense<2.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %113 = "stablehlo.broadcast_in_dim"(%112) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<8xf32>
    %114 = "stablehlo.constant"() <{value = dense<1.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %115 = "stablehlo.broadcast_in_dim"(%114) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<8xf32>
    %116 = "stablehlo.select"(%111, %113, %115) : (tensor<8xi1>, tensor<8xf32>, tensor<8xf32>) -> tensor<8xf32>
    %117 = "stablehlo.divide"(%108, %116) : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xf32>
    %118 = "stablehlo.broadcast_in_dim"(%89) <{broadcast_dimensions = array<i64: 0>}> : (tensor<8xf32>) -> tensor<8x1xf32>
    %119 = "stablehlo.broadcast_in_dim"(%102) <{broadcast_dimensions = array<i64: 0>}> : (tensor<8xf32>) -> tensor<8x1xf32>
    %120 = "stablehlo.broadcast_in_dim"(%118) <{broadcast_dimensions = array<i64: 0, 1>}> : (tensor<8x1xf32>) -> tensor<8x32xf32>
    %121 = "stablehlo.subtract"(%80, %120) : (tensor<8x32xf32>, tensor<8x32xf32>) -> tensor<8x32xf32>
    %122 = "stablehlo.constant"() <{value = dense<9.99999997E-7> : tensor<f32>}> : () -> tensor<f32>
    %123 = "stablehlo.broadcast_in_dim"(%122) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<8x1xf32>
    %124 = "stablehlo.add"(%119, %123) : (tensor<8x1xf32>, tensor<8x1xf32>) -> tensor<8x1xf32>
    %125 = "stablehlo.rsqrt"(%124) : (tensor<8x1xf32>) -> tensor<8x1xf32>
    %126 = "stablehlo.divide"(%125, %124) : (tensor<8x1xf32>, tensor<8x1xf32>) -> tensor<8x1xf32>
    %127 = "stablehlo.constant"() <{value = dense<-5.000000e-01> : tensor<f32>}> : () -> tensor<f32>
    %128 = "stablehlo.broadcast_in_dim"(%127) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<8x1xf32>
    %129 = "stablehlo.multiply"(%128, %126) : (tensor<8x1xf32>, tensor<8x1xf32>) -> tensor<8x1xf32>
    %130 = "stablehlo.reshape"(%arg22) : (tensor<32xf32>) -> tensor<1x32xf32>
    %131 = "stablehlo.broadcast_in_dim"(%125) <{broadcast_dimensions = array<i64: 0, 1>}> : (tensor<8x1xf32>) -> tensor<8x32xf32>
    %132 = "stablehlo.broadcast_in_dim"(%130) <{broadcast_dimensions = array<i64: 0, 1>}> : (tensor<1x32xf32>) -> tensor<8x32xf32>
    %133 = "stablehlo.multiply"(%131, %132) : (tensor<8x32xf32>, tensor<8x32xf32>) -> tensor<8x32xf32>
    %134 = "stablehlo.multiply"(%121, %133) : (tensor<8x32xf32>, tensor<8x32xf32>) -> tensor<8x32xf32>
    %135 = "stablehlo.reshape"(%arg23) : (tensor<32xf32>) -> tensor<1x32xf32>
    %136 = "stablehlo.broadcast_in_dim"(%135) <{broadcast_dimensions = array<i64: 0, 1>}> : (tensor<1x32xf32>) -> tensor<8x32xf32>
    %137 = "stablehlo.add"(%134, %136) : (tensor<8x32xf32>, tensor<8x32xf32>) -> tensor<8x32xf32>
    %138 = "stablehlo.dot_general"(%137, %arg24) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [0]>, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]}> : (tensor<8x32xf32>, tensor<32x10xf32>) -> tensor<8x10xf32>
    %139 = "stablehlo.reshape"(%arg25) : (tensor<10xf32>) -> tensor<1x10xf32>
    %140 = "stablehlo.broadcast_in_dim"(%139) <{broadcast_dimensions = array<i64: 0, 1>}> : (tensor<1x10xf32>) -> tensor<8x10xf32>
    %141 = "stablehlo.add"(%138, %140) : (tensor<8x10xf32>, tensor<8x10xf32>) -> tensor<8x10xf32>
    %142 = "stablehlo.broadcast_in_dim"(%arg26) <{broadcast_dimensions = array<i64: 0>}> : (tensor<8xi32>) -> tensor<8x1xi32>
    %143:2 = "func.call"(%141, %142) <{callee = @take_along_axis}> : (tensor<8x10xf32>, tensor<8x1xi32>) -> (tensor<8x1xf32>, tensor<8x1x1xi32>)
    %144 = "stablehlo.constant"() <{value = dense<0> : tensor<i32>}> : () -> tensor<i32>
    %145:2 = "func.call"(%143#0, %144) <{callee = @_take}> : (tensor<8x1xf32>, tensor<i32>) -> (tensor<8xf32>, tensor<1xi32>)
    %146 = "stablehlo.constant"() <{value = dense<0xFF800000> : tensor<f32>}> : () -> tensor<f32>
    %147 = "stablehlo.reduce"(%141, %146) <{dimensions = array<i64: 1>}> ({
    ^bb0(%arg49: tensor<f32>, %arg50: tensor<f32>):
      %295 = "stablehlo.maximum"(%arg49, %arg50) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%295) : (tensor<f32>) -> ()
    }) : (tensor<8x10xf32>, tensor<f32>) -> tensor<8xf32>
    %148 = "stablehlo.reshape"(%147) : (tensor<8xf32>) -> tensor<8x1xf32>
    %149 = "stablehlo.broadcast_in_dim"(%148) <{broadcast_dimensions = array<i64: 0, 1>}> : (tensor<8x1xf32>) -> tensor<8x10xf32>
    %150 = "stablehlo.compare"(%141, %149) <{compare_type = #stablehlo<comparison_type FLOAT>, comparison_direction = #stablehlo<comparison_direction EQ>}> : (tensor<8x10xf32>, tensor<8x10xf32>) -> tensor<8x10xi1>
    %151 = "stablehlo.convert"(%150) : (tensor<8x10xi1>) -> tensor<8x10xf32>
    %152 = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %153 = "stablehlo.reduce"(%151, %152) <{dimensions = array<i64: 1>}> ({
    ^bb0(%arg47: tensor<f32>, %arg48: tensor<f32>):
      %294 = "stablehlo.add"(%arg47, %arg48) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%294) : (tensor<f32>) -> ()
    }) : (tensor<8x10xf32>, tensor<f32>) -> tensor<8xf32>
    %154 = "stablehlo.constant"() <{value = dense<0xFF800000> : tensor<f32>}> : () -> tensor<f32>
    %155 = "stablehlo.broadcast_in_dim"(%154) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<8xf32>
    %156 = "stablehlo.maximum"(%155, %147) : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xf32>
    %157 = "stablehlo.compare"(%147, %156) <{compare_type = #stablehlo<comparison_type FLOAT>, comparison_direction = #stablehlo<comparison_direction EQ>}> : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xi1>
    %158 = "stablehlo.constant"() <{value = dense<1.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %159 = "stablehlo.broadcast_in_dim"(%158) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<8xf32>
    %160 = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %161 = "stablehlo.broadcast_in_dim"(%160) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<8xf32>
    %162 = "stablehlo.select"(%157, %159, %161) : (tensor<8xi1>, tensor<8xf32>, tensor<8xf32>) -> tensor<8xf32>
    %163 = "stablehlo.constant"() <{value = dense<0xFF800000> : tensor<f32>}> : () -> tensor<f32>
    %164 = "stablehlo.broadcast_in_dim"(%163) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<8xf32>
    %165 = "stablehlo.compare"(%164, %156) <{compare_type = #stablehlo<comparison_type FLOAT>, comparison_direction = #stablehlo<comparison_direction EQ>}> : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xi1>
    %166 = "stablehlo.constant"() <{value = dense<2.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %167 = "stablehlo.broadcast_in_dim"(%166) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<8xf32>
    %168 = "stablehlo.constant"() <{value = dense<1.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %169 = "stablehlo.broadcast_in_dim"(%168) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<8xf32>
    %170 = "stablehlo.select"(%165, %167, %169) : (tensor<8xi1>, tensor<8xf32>, tensor<8xf32>) -> tensor<8xf32>
    %171 = "stablehlo.divide"(%162, %170) : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xf32>
    %172 = "stablehlo.is_finite"(%156) : (tensor<8xf32>) -> tensor<8xi1>
    %173 = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %174 = "stablehlo.broadcast_in_dim"(%173) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<8xf32>
    %175 = "stablehlo.select"(%172, %156, %174) : (tensor<8xi1>, tensor<8xf32>, tensor<8xf32>) -> tensor<8xf32>
    %176 = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %177 = "stablehlo.broadcast_in_dim"(%176) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<8xf32>
    %178 = "stablehlo.broadcast_in_dim"(%175) <{broadcast_dimensions = array<i64: 0>}> : (tensor<8xf32>) -> tensor<8x1xf32>
    %179 = "stablehlo.broadcast_in_dim"(%178) <{broadcast_dimensions = array<i64: 0, 1>}> : (tensor<8x1xf32>) -> tensor<8x10xf32>
    %180 = "stablehlo.subtract"(%141, %179) : (tensor<8x10xf32>, tensor<8x10xf32>) -> tensor<8x10xf32>
    %181 = "stablehlo.exponential"(%180) : (tensor<8x10xf32>) -> tensor<8x10xf32>
    %182 = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %183 = "stablehlo.reduce"(%181, %182) <{dimensions = array<i64: 1>}> ({
    ^bb0(%arg45: tensor<f32>, %arg46: tensor<f32>):
      %293 = "stablehlo.add"(%arg45, %arg46) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%293) : (tensor<f32>) -> ()
    }) : (tensor<8x10xf32>, tensor<f32>) -> tensor<8xf32>
    %184 = "stablehlo.sign"(%183) : (tensor<8xf32>) -> tensor<8xf32>
    %185 = "stablehlo.abs"(%183) : (tensor<8xf32>) -> tensor<8xf32>
    %186 = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %187 = "stablehlo.broadcast_in_dim"(%186) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<8xf32>
    %188 = "stablehlo.compare"(%183, %187) <{compare_type = #stablehlo<comparison_type FLOAT>, comparison_direction = #stablehlo<comparison_direction GE>}> : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xi1>
    %189 = "stablehlo.log"(%185) : (tensor<8xf32>) -> tensor<8xf32>
    %190 = "stablehlo.add"(%189, %175) : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xf32>
    %191 = "stablehlo.subtract"(%190, %145#0) : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xf32>
    %192 = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %193 = "stablehlo.reduce"(%191, %192) <{dimensions = array<i64: 0>}> ({
    ^bb0(%arg43: tensor<f32>, %arg44: tensor<f32>):
      %292 = "stablehlo.add"(%arg43, %arg44) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%292) : (tensor<f32>) -> ()
    }) : (tensor<8xf32>, tensor<f32>) -> tensor<f32>
    %194 = "stablehlo.constant"() <{value = dense<8.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %195 = "stablehlo.divide"(%193, %194) : (tensor<f32>, tensor<f32>) -> tensor<f32>
    %196 = "stablehlo.constant"() <{value = dense<1.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %197 = "stablehlo.constant"() <{value = dense<8.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %198 = "stablehlo.divide"(%196, %197) : (tensor<f32>, tensor<f32>) -> tensor<f32>
    %199 = "stablehlo.broadcast_in_dim"(%198) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<8xf32>
    %200 = "stablehlo.negate"(%199) : (tensor<8xf32>) -> tensor<8xf32>
    %201 = "stablehlo.divide"(%199, %185) : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xf32>
    %202 = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %203 = "stablehlo.broadcast_in_dim"(%202) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<8xf32>
    %204 = "stablehlo.select"(%188, %203, %201) : (tensor<8xi1>, tensor<8xf32>, tensor<8xf32>) -> tensor<8xf32>
    %205 = "stablehlo.select"(%188, %201, %203) : (tensor<8xi1>, tensor<8xf32>, tensor<8xf32>) -> tensor<8xf32>
    %206 = "stablehlo.negate"(%204) : (tensor<8xf32>) -> tensor<8xf32>
    %207 = "stablehlo.add"(%205, %206) : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xf32>
    %208 = "stablehlo.broadcast_in_dim"(%207) <{broadcast_dimensions = array<i64: 0>}> : (tensor<8xf32>) -> tensor<8x10xf32>
    %209 = "stablehlo.multiply"(%208, %181) : (tensor<8x10xf32>, tensor<8x10xf32>) -> tensor<8x10xf32>
    %210 = "func.call"(%145#1, %200) <{callee = @_take_0}> : (tensor<1xi32>, tensor<8xf32>) -> tensor<8x1xf32>
    %211 = "func.call"(%143#1, %210) <{callee = @take_along_axis_1}> : (tensor<8x1x1xi32>, tensor<8x1xf32>) -> tensor<8x10xf32>
    %212 = "stablehlo.add"(%209, %211) : (tensor<8x10xf32>, tensor<8x10xf32>) -> tensor<8x10xf32>
    %213 = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %214 = "stablehlo.reduce"(%212, %213) <{dimensions = array<i64: 0>}> ({
    ^bb0(%arg41: tensor<f32>, %arg42: tensor<f32>):
      %291 = "stablehlo.add"(%arg41, %arg42) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%291) : (tensor<f32>) -> ()
    }) : (tensor<8x10xf32>, tensor<f32>) -> tensor<10xf32>
    %215 = "stablehlo.reshape"(%214) : (tensor<10xf32>) -> tensor<1x10xf32>
    %216 = "stablehlo.reshape"(%215) : (tensor<1x10xf32>) -> tensor<10xf32>
    %217 = "stablehlo.dot_general"(%212, %137) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [0], rhs_contracting_dimensions = [0]>, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]}> : (tensor<8x10xf32>, tensor<8x32xf32>) -> tensor<10x32xf32>
    %218 = "stablehlo.transpose"(%217) <{permutation = array<i64: 1, 0>}> : (tensor<10x32xf32>) -> tensor<32x10xf32>
    %219 = "stablehlo.dot_general"(%212, %arg24) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [1]>, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]}> : (tensor<8x10xf32>, tensor<32x10xf32>) -> tensor<8x32xf32>
    %220 = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %221 = "stablehlo.reduce"(%219, %220) <{dimensions = array<i64: 0>}> ({
    ^bb0(%arg39: tensor<f32>, %arg40: tensor<f32>):
      %290 = "stablehlo.add"(%arg39, %arg40) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%290) : (tensor<f32>) -> ()
    }) : (tensor<8x32xf32>, tensor<f32>) -> tensor<32xf32>
    %222 = "stablehlo.reshape"(%221) : (tensor<32xf32>) -> tensor<1x32xf32>
    %223 = "stablehlo.reshape"(%222) : (tensor<1x32xf32>) -> tensor<32xf32>
    %224 = "stablehlo.multiply"(%121, %219) : (tensor<8x32xf32>, tensor<8x32xf32>) -> tensor<8x32xf32>
    %225 = "stablehlo.multiply"(%219, %133) : (tensor<8x32xf32>, tensor<8x32xf32>) -> tensor<8x32xf32>
    %226 = "stablehlo.broadcast_in_dim"(%125) <{broadcast_dimensions = array<i64: 0, 1>}> : (tensor<8x1xf32>) -> tensor<8x32xf32>
    %227 = "stablehlo.multiply"(%226, %224) : (tensor<8x32xf32>, tensor<8x32xf32>) -> tensor<8x32xf32>
    %228 = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %229 = "stablehlo.reduce"(%227, %228) <{dimensions = array<i64: 0>}> ({
    ^bb0(%arg37: tensor<f32>, %arg38: tensor<f32>):
      %289 = "stablehlo.add"(%arg37, %arg38) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%289) : (tensor<f32>) -> ()
    }) : (tensor<8x32xf32>, tensor<f32>) -> tensor<32xf32>
    %230 = "stablehlo.reshape"(%229) : (tensor<32xf32>) -> tensor<1x32xf32>
    %231 = "stablehlo.broadcast_in_dim"(%130) <{broadcast_dimensions = array<i64: 0, 1>}> : (tensor<1x32xf32>) -> tensor<8x32xf32>
    %232 = "stablehlo.multiply"(%224, %231) : (tensor<8x32xf32>, tensor<8x32xf32>) -> tensor<8x32xf32>
    %233 = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %234 = "stablehlo.reduce"(%232, %233) <{dimensions = array<i64: 1>}> ({
    ^bb0(%arg35: tensor<f32>, %arg36: tensor<f32>):
      %288 = "stablehlo.add"(%arg35, %arg36) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%288) : (tensor<f32>) -> ()
    }) : (tensor<8x32xf32>, tensor<f32>) -> tensor<8xf32>
    %235 = "stablehlo.reshape"(%234) : (tensor<8xf32>) -> tensor<8x1xf32>
    %236 = "stablehlo.reshape"(%230) : (tensor<1x32xf32>) -> tensor<32xf32>
    %237 = "stablehlo.multiply"(%235, %129) : (tensor<8x1xf32>, tensor<8x1xf32>) -> tensor<8x1xf32>
    %238 = "stablehlo.negate"(%225) : (tensor<8x32xf32>) -> tensor<8x32xf32>
    %239 = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %240 = "stablehlo.reduce"(%238, %239) <{dimensions = array<i64: 1>}> ({
    ^bb0(%arg33: tensor<f32>, %arg34: tensor<f32>):
      %287 = "stablehlo.add"(%arg33, %arg34) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%287) : (tensor<f32>) -> ()
    }) : (tensor<8x32xf32>, tensor<f32>) -> tensor<8xf32>
    %241 = "stablehlo.reshape"(%240) : (tensor<8xf32>) -> tensor<8x1xf32>
    %242 = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %243 = "stablehlo.reduce"(%237, %242) <{dimensions = array<i64: 1>}> ({
    ^bb0(%arg31: tensor<f32>, %arg32: tensor<f32>):
      %286 = "stablehlo.add"(%arg31, %arg32) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%286) : (tensor<f32>) -> ()
    }) : (tensor<8x1xf32>, tensor<f32>) -> tensor<8xf32>
    %244 = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %245 = "stablehlo.reduce"(%241, %244) <{dimensions = array<i64: 1>}> ({
    ^bb0(%arg29: tensor<f32>, %arg30: tensor<f32>):
      %285 = "stablehlo.add"(%arg29, %arg30) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%285) : (tensor<f32>) -> ()
    }) : (tensor<8x1xf32>, tensor<f32>) -> tensor<8xf32>
    %246 = "stablehlo.multiply"(%243, %117) : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xf32>
    %247 = "stablehlo.negate"(%246) : (tensor<8xf32>) -> tensor<8xf32>
    %248 = "stablehlo.multiply"(%247, %98) : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xf32>
    %249 = "stablehlo.add"(%245, %248) : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xf32>
    %250 = "stablehlo.constant"() <{value = dense<3.200000e+01> : tensor<f32>}> : () -> tensor<f32>
    %251 = "stablehlo.broadcast_in_dim"(%250) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<8xf32>
    %252 = "stablehlo.divide"(%246, %251) : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xf32>
    %253 = "stablehlo.broadcast_in_dim"(%252) <{broadcast_dimensions = array<i64: 0>}> : (tensor<8xf32>) -> tensor<8x32xf32>
    %254 = "stablehlo.constant"() <{value = dense<3.200000e+01> : tensor<f32>}> : () -> tensor<f32>
    %255 = "stablehlo.broadcast_in_dim"(%254) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<8xf32>
    %256 = "stablehlo.divide"(%249, %255) : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xf32>
    %257 = "stablehlo.broadcast_in_dim"(%256) <{broadcast_dimensions = array<i64: 0>}> : (tensor<8xf32>) -> tensor<8x32xf32>
    %258 = "stablehlo.add"(%225, %257) : (tensor<8x32xf32>, tensor<8x32xf32>) -> tensor<8x32xf32>
    %259 = "stablehlo.multiply"(%253, %84) : (tensor<8x32xf32>, tensor<8x32xf32>) -> tensor<8x32xf32>
    %260 = "stablehlo.add"(%258, %259) : (tensor<8x32xf32>, tensor<8x32xf32>) -> tensor<8x32xf32>
    %261 = "stablehlo.multiply"(%56, %260) : (tensor<8x32xf32>, tensor<8x32xf32>) -> tensor<8x32xf32>
    %262 = "stablehlo.multiply"(%260, %79) : (tensor<8x32xf32>, tensor<8x32xf32>) -> tensor<8x32xf32>
    %263 = "stablehlo.constant"() <{value = dense<5.000000e-01> : tensor<f32>}> : () -> tensor<f32>
    %264 = "stablehlo.broadcast_in_dim"(%263) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<8x32xf32>
    %265 = "stablehlo.multiply"(%264, %261) : (tensor<8x32xf32>, tensor<8x32xf32>) -> tensor<8x32xf32>
    %266 = "stablehlo.multiply"(%265, %73) : (tensor<8x32xf32>, tensor<8x32xf32>) -> tensor<8x32xf32>
    %267 = "stablehlo.multiply"(%266, %70) : (tensor<8x32xf32>, tensor<8x32xf32>) -> tensor<8x32xf32>
    %268 = "stablehlo.add"(%266, %267) : (tensor<8x32xf32>, tensor<8x32xf32>) -> tensor<8x32xf32>
    %269 = "stablehlo.constant"() <{value = dense<0.797884583> : tensor<f32>}> : () -> tensor<f32>
    %270 = "stablehlo.broadcast_in_dim"(%269) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<8x32xf32>
    %271 = "stablehlo.multiply"(%270, %268) : (tensor<8x32xf32>, tensor<8x32xf32>) -> tensor<8x32xf32>
    %272 = "stablehlo.add"(%262, %271) : (tensor<8x32xf32>, tensor<8x32xf32>) -> tensor<8x32xf32>
    %273 = "stablehlo.constant"() <{value = dense<4.471500e-02> : tensor<f32>}> : () -> tensor<f32>
    %274 = "stablehlo.broadcast_in_dim"(%273) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<8x32xf32>
    %275 = "stablehlo.multiply"(%274, %271) : (tensor<8x32xf32>, tensor<8x32xf32>) -> tensor<8x32xf32>
    %276 = "stablehlo.multiply"(%275, %62) : (tensor<8x32xf32>, tensor<8x32xf32>) -> tensor<8x32xf32>
    %277 = "stablehlo.add"(%272, %276) : (tensor<8x32xf32>, tensor<8x32xf32>) -> tensor<8x32xf32>
    %278 = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %279 = "stablehlo.reduce"(%277, %278) <{dimensions = array<i64: 0>}> ({
    ^bb0(%arg27: tensor<f32>, %arg28: tensor<f32>):
      %284 = "stablehlo.add"(%arg27, %arg28) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%284) : (tensor<f32>) -> ()
    }) : (tensor<8x32xf32>, tensor<f32>) -> tensor<32xf32>
    %280 = "stablehlo.reshape"(%279) : (tensor<32xf32>) -> tensor<1x32xf32>
    %281 = "stablehlo.reshape"(%280) : (tensor<1x32xf32>) -> tensor<32xf32>
    %282 = "stablehlo.dot_general"(%277, %arg19) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [0], rhs_contracting_dimensions = [0]>, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]}> : (tensor<8x32xf32>, tensor<8x16xf32>) -> tensor<32x16xf32>
    %283 = "stablehlo.transpose"(%282) <{permutation = array<i64: 1, 0>}> : (tensor<32x16xf32>) -> tensor<16x32xf32>
    "func.return"(%195, %283, %281, %236, %223, %218, %216) : (tensor<f32>, tensor<16x32xf32>, tensor<32xf32>, tensor<32xf32>, tensor<32xf32>, tensor<32x10xf32>, tensor<10xf32>) -> ()
  }) : () -> ()
  "func.func"() <{arg_attrs = [{}, {}], function_type = (tensor<8x10xf32>, tensor<8x1xi32>) -> (tensor<8x1xf32>, tensor<8x1x1xi32>), res_attrs = [{}, {}], sym_name = "take_along_axis", sym_visibility = "private"}> ({
  ^bb0(%arg15: tensor<8x10xf32>, %arg16: tensor<8x1xi32>):
    %30 = "stablehlo.constant"() <{value = dense<0> : tensor<i32>}> : () -> tensor<i32>
    %31 = "stablehlo.broadcast_in_dim"(%30) <{broadcast_dimensions = array<i64>}> : (tensor<i32>) -> tensor<8x1xi32>
    %32 = "stablehlo.compare"(%arg16, %31) <{compare_type = #stablehlo<comparison_type SIGNED>, comparison_direction = #stablehlo<comparison_direction LT>}> : (tensor<8x1xi32>, tensor<8x1xi32>) -> tensor<8x1xi1>
    %33 = "stablehlo.constant"() <{value = dense<10> : tensor<i32>}> : () -> tensor<i32>
    %34 = "stablehlo.broadcast_in_dim"(%33) <{broadcast_dimensions = array<i64>}> : (tensor<i32>) -> tensor<8x1xi32>
    %35 = "stablehlo.add"(%arg16, %34) : (tensor<8x1xi32>, tensor<8x1xi32>) -> tensor<8x1xi32>
    %36 = "stablehlo.select"(%32, %35, %arg16) : (tensor<8x1xi1>, tensor<8x1xi32>, tensor<8x1xi32>) -> tensor<8x1xi32>
    %37 = "stablehlo.reshape"(%36) : (tensor<8x1xi32>) -> tensor<8x1x1xi32>
    %38 = "stablehlo.constant"() <{value = dense<9> : tensor<1xi32>}> : () -> tensor<1xi32>
    %39 = "stablehlo.constant"() <{value = dense<0> : tensor<i32>}> : () -> tensor<i32>
    %40 = "stablehlo.broadcast_in_dim"(%39) <{broadcast_dimensions = array<i64>}> : (tensor<i32>) -> tensor<8x1x1xi32>
    %41 = "stablehlo.compare"(%37, %40) <{compare_type = #stablehlo<comparison_type SIGNED>, comparison_direction = #stablehlo<comparison_direction GE>}> : (tensor<8x1x1xi32>, tensor<8x1x1xi32>) -> tensor<8x1x1xi1>
    %42 = "stablehlo.broadcast_in_dim"(%38) <{broadcast_dimensions = array<i64: 2>}> : (tensor<1xi32>) -> tensor<1x1x1xi32>
    %43 = "stablehlo.broadcast_in_dim"(%42) <{broadcast_dimensions = array<i64: 0, 1, 2>}> : (tensor<1x1x1xi32>) -> tensor<8x1x1xi32>
    %44 = "stablehlo.compare"(%37, %43) <{compare_type = #stablehlo<comparison_type SIGNED>, comparison_direction = #stablehlo<comparison_direction LE>}> : (tensor<8x1x1xi32>, tensor<8x1x1xi32>) -> tensor<8x1x1xi1>
    %45 = "stablehlo.and"(%41, %44) : (tensor<8x1x1xi1>, tensor<8x1x1xi1>) -> tensor<8x1x1xi1>
    %46 = "stablehlo.constant"() <{value = dense<true> : tensor<i1>}> : () -> tensor<i1>
    %47 = "stablehlo.reduce"(%45, %46) <{dimensions = array<i64: 2>}> ({
    ^bb0(%arg17: tensor<i1>, %arg18: tensor<i1>):
      %52 = "stablehlo.and"(%arg17, %arg18) : (tensor<i1>, tensor<i1>) -> tensor<i1>
      "stablehlo.return"(%52) : (tensor<i1>) -> ()
    }) : (tensor<8x1x1xi1>, tensor<i1>) -> tensor<8x1xi1>
    %48 = "stablehlo.gather"(%arg15, %37) <{dimension_numbers = #stablehlo.gather<collapsed_slice_dims = [1], operand_batching_dims = [0], start_indices_batching_dims = [0], start_index_map = [1], index_vector_dim = 2>, indices_are_sorted = false, slice_sizes = array<i64: 1, 1>}> : (tensor<8x10xf32>, tensor<8x1x1xi32>) -> tensor<8x1xf32>
    %49 = "stablehlo.constant"() <{value = dense<0x7FC00000> : tensor<f32>}> : () -> tensor<f32>
    %50 = "stablehlo.broadcast_in_dim"(%49) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<8x1xf32>
    %51 = "stablehlo.select"(%47, %48, %50) : (tensor<8x1xi1>, tensor<8x1xf32>, tensor<8x1xf32>) -> tensor<8x1xf32>
    "func.return"(%51, %37) : (tensor<8x1xf32>, tensor<8x1x1xi32>) -> ()
  }) : () -> ()
  "func.func"() <{arg_attrs = [{}, {}], function_type = (tensor<8x1xf32>, tensor<i32>) -> (tensor<8xf32>, tensor<1xi32>), res_attrs = [{}, {}], sym_name = "_take", sym_visibility = "private"}> ({
  ^bb0(%arg11: tensor<8x1xf32>, %arg12: tensor<i32>):
    %9 = "stablehlo.constant"() <{value = dense<0> : tensor<i32>}> : () -> tensor<i32>
    %10 = "stablehlo.compare"(%arg12, %9) <{compare_type = #stablehlo<comparison_type SIGNED>, comparison_direction = #stablehlo<comparison_direction LT>}> : (tensor<i32>, tensor<i32>) -> tensor<i1>
    %11 = "stablehlo.constant"() <{value = dense<1> : tensor<i32>}> : () -> tensor<i32>
    %12 = "stablehlo.add"(%arg12, %11) : (tensor<i32>, tensor<i32>) -> tensor<i32>
    %13 = "func.call"(%10, %12, %arg12) <{callee = @_where}> : (tensor<i1>, tensor<i32>, tensor<i32>) -> tensor<i32>
    %14 = "stablehlo.broadcast_in_dim"(%13) <{broadcast_dimensions = array<i64>}> : (tensor<i32>) -> tensor<1xi32>
    %15 = "stablehlo.constant"() <{value = dense<0> : tensor<1xi32>}> : () -> tensor<1xi32>
    %16 = "stablehlo.convert"(%14) : (tensor<1xi32>) -> tensor<1xi32>
    %17 = "stablehlo.constant"() <{value = dense<0> : tensor<i32>}> : () -> tensor<i32>
    %18 = "stablehlo.broadcast_in_dim"(%17) <{broadcast_dimensions = array<i64>}> : (tensor<i32>) -> tensor<1xi32>
    %19 = "stablehlo.compare"(%16, %18) <{compare_type = #stablehlo<comparison_type SIGNED>, comparison_direction = #stablehlo<comparison_direction GE>}> : (tensor<1xi32>, tensor<1xi32>) -> tensor<1xi1>
    %20 = "stablehlo.compare"(%16, %15) <{compare_type = #stablehlo<comparison_type SIGNED>, comparison_direction = #stablehlo<comparison_direction LE>}> : (tensor<1xi32>, tensor<1xi32>) -> tensor<1xi1>
    %21 = "stablehlo.and"(%19, %20) : (tensor<1xi1>, tensor<1xi1>) -> tensor<1xi1>
    %22 = "stablehlo.constant"() <{value = dense<true> : tensor<i1>}> : () -> tensor<i1>
    %23 = "stablehlo.reduce"(%21, %22) <{dimensions = array<i64: 0>}> ({
    ^bb0(%arg13: tensor<i1>, %arg14: tensor<i1>):
      %29 = "stablehlo.and"(%arg13, %arg14) : (tensor<i1>, tensor<i1>) -> tensor<i1>
      "stablehlo.return"(%29) : (tensor<i1>) -> ()
    }) : (tensor<1xi1>, tensor<i1>) -> tensor<i1>
    %24 = "stablehlo.gather"(%arg11, %16) <{dimension_numbers = #stablehlo.gather<offset_dims = [0], collapsed_slice_dims = [1], start_index_map = [1]>, indices_are_sorted = false, slice_sizes = array<i64: 8, 1>}> : (tensor<8x1xf32>, tensor<1xi32>) -> tensor<8xf32>
    %25 = "stablehlo.broadcast_in_dim"(%23) <{broadcast_dimensions = array<i64>}> : (tensor<i1>) -> tensor<8xi1>
    %26 = "stablehlo.constant"() <{value = dense<0x7FC00000> : tensor<f32>}> : () -> tensor<f32>
    %27 = "stablehlo.broadcast_in_dim"(%26) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<8xf32>
    %28 = "stablehlo.select"(%25, %24, %27) : (tensor<8xi1>, tensor<8xf32>, tensor<8xf32>) -> tensor<8xf32>
    "func.return"(%28, %14) : (tensor<8xf32>, tensor<1xi32>) -> ()
  }) : () -> ()
  "func.func"() <{arg_attrs = [{}, {}, {}], function_type = (tensor<i1>, tensor<i32>, tensor<i32>) -> tensor<i32>, res_attrs = [{}], sym_name = "_where", sym_visibility = "private"}> ({
  ^bb0(%arg8: tensor<i1>, %arg9: tensor<i32>, %arg10: tensor<i32>):
    %8 = "stablehlo.select"(%arg8, %arg9, %arg10) : (tensor<i1>, tensor<i32>, tensor<i32>) -> tensor<i32>
    "func.return"(%8) : (tensor<i32>) -> ()
  }) : () -> ()
  "func.func"() <{arg_attrs = [{}, {}], function_type = (tensor<1xi32>, tensor<8xf32>) -> tensor<8x1xf32>, res_attrs = [{}], sym_name = "_take_0", sym_visibility = "private"}> ({
  ^bb0(%arg4: tensor<1xi32>, %arg5: tensor<8xf32>):
    %4 = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %5 = "stablehlo.broadcast_in_dim"(%4) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<8x1xf32>
    %6 = "stablehlo.scatter"(%5, %arg4, %arg5) <{indices_are_sorted = false, scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [0], inserted_window_dims = [1], scatter_dims_to_operand_dims = [1]>, unique_indices = false}> ({
    ^bb0(%arg6: tensor<f32>, %arg7: tensor<f32>):
      %7 = "stablehlo.add"(%arg6, %arg7) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%7) : (tensor<f32>) -> ()
    }) : (tensor<8x1xf32>, tensor<1xi32>, tensor<8xf32>) -> tensor<8x1xf32>
    "func.return"(%6) : (tensor<8x1xf32>) -> ()
  }) : () -> ()
  "func.func"() <{arg_attrs = [{}, {}], function_type = (tensor<8x1x1xi32>, tensor<8x1xf32>) -> tensor<8x10xf32>, res_attrs = [{}], sym_name = "take_along_axis_1", sym_visibility = "private"}> ({
  ^bb0(%arg0: tensor<8x1x1xi32>, %arg1: tensor<8x1xf32>):
    %0 = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %1 = "stablehlo.broadcast_in_dim"(%0) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<8x10xf32>
    %2 = "stablehlo.scatter"(%1, %arg0, %arg1) <{indices_are_sorted = false, scatter_dimension_numbers = #stablehlo.scatter<inserted_window_dims = [1], input_batching_dims = [0], scatter_indices_batching_dims = [0], scatter_dims_to_operand_dims = [1], index_vector_dim = 2>, unique_indices = false}> ({
    ^bb0(%arg2: tensor<f32>, %arg3: tensor<f32>):
      %3 = "stablehlo.add"(%arg2, %arg3) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%3) : (tensor<f32>) -> ()
    }) : (tensor<8x10xf32>, tensor<8x1x1xi32>, tensor<8x1xf32>) -> tensor<8x10xf32>
    "func.return"(%2) : (tensor<8x10xf32>) -> ()
  }) : () -> ()
}) {mhlo.num_partitions = 4 : i32, mhlo.num_replicas = 1 : i32} : () -> ()
