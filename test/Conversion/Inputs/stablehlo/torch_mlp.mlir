"builtin.module"() ({
  "sdy.mesh"() <{mesh = #sdy.mesh<["dp"=2, "tp"=2]>, sym_name = "mesh"}> : () -> ()
  "func.func"() <{arg_attrs = [{dist.requires_grad, sdy.sharding = #sdy.sharding<@mesh, [{"tp"}, {}]>}, {dist.requires_grad, sdy.sharding = #sdy.sharding<@mesh, [{"tp"}]>}, {dist.requires_grad, sdy.sharding = #sdy.sharding<@mesh, [{}]>}, {dist.requires_grad, sdy.sharding = #sdy.sharding<@mesh, [{}]>}, {dist.requires_grad, sdy.sharding = #sdy.sharding<@mesh, [{}, {}]>}, {dist.requires_grad, sdy.sharding = #sdy.sharding<@mesh, [{}]>}, {sdy.sharding = #sdy.sharding<@mesh, [{"dp"}, {}]>}, {sdy.sharding = #sdy.sharding<@mesh, [{"dp"}]>}], function_type = (tensor<32x16xf32>, tensor<32xf32>, tensor<32xf32>, tensor<32xf32>, tensor<10x32xf32>, tensor<10xf32>, tensor<8x16xf32>, tensor<8xi64>) -> tensor<f32>, res_attrs = [{sdy.sharding = #sdy.sharding<@mesh, []>}], sym_name = "main"}> ({
  ^bb0(%arg0: tensor<32x16xf32>, %arg1: tensor<32xf32>, %arg2: tensor<32xf32>, %arg3: tensor<32xf32>, %arg4: tensor<10x32xf32>, %arg5: tensor<10xf32>, %arg6: tensor<8x16xf32>, %arg7: tensor<8xi64>):
    %0 = "stablehlo.constant"() <{value = dense<0> : tensor<8xi64>}> : () -> tensor<8xi64>
    %1 = "stablehlo.constant"() <{value = dense<-100> : tensor<8xi64>}> : () -> tensor<8xi64>
    %2 = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %3 = "stablehlo.constant"() <{value = dense<0> : tensor<i64>}> : () -> tensor<i64>
    %4 = "stablehlo.constant"() <{value = dense<1.000000e+00> : tensor<8x32xf32>}> : () -> tensor<8x32xf32>
    %5 = "stablehlo.constant"() <{value = dense<2.000000e+00> : tensor<8x32xf32>}> : () -> tensor<8x32xf32>
    %6 = "stablehlo.constant"() <{value = dense<5.000000e-01> : tensor<8x32xf32>}> : () -> tensor<8x32xf32>
    %7 = "stablehlo.constant"() <{value = dense<-4.000000e+00> : tensor<8x32xf32>}> : () -> tensor<8x32xf32>
    %8 = "stablehlo.constant"() <{value = dense<4.000000e+00> : tensor<8x32xf32>}> : () -> tensor<8x32xf32>
    %9 = "stablehlo.constant"() <{value = dense<-2.72614237E-10> : tensor<8x32xf32>}> : () -> tensor<8x32xf32>
    %10 = "stablehlo.constant"() <{value = dense<2.77068146E-8> : tensor<8x32xf32>}> : () -> tensor<8x32xf32>
    %11 = "stablehlo.constant"() <{value = dense<-2.10102394E-6> : tensor<8x32xf32>}> : () -> tensor<8x32xf32>
    %12 = "stablehlo.constant"() <{value = dense<-5.69250624E-5> : tensor<8x32xf32>}> : () -> tensor<8x32xf32>
    %13 = "stablehlo.constant"() <{value = dense<-7.34990637E-4> : tensor<8x32xf32>}> : () -> tensor<8x32xf32>
    %14 = "stablehlo.constant"() <{value = dense<-2.954600e-03> : tensor<8x32xf32>}> : () -> tensor<8x32xf32>
    %15 = "stablehlo.constant"() <{value = dense<-0.0160960332> : tensor<8x32xf32>}> : () -> tensor<8x32xf32>
    %16 = "stablehlo.constant"() <{value = dense<-1.45660715E-5> : tensor<8x32xf32>}> : () -> tensor<8x32xf32>
    %17 = "stablehlo.constant"() <{value = dense<-2.13374049E-4> : tensor<8x32xf32>}> : () -> tensor<8x32xf32>
    %18 = "stablehlo.constant"() <{value = dense<-0.00168282702> : tensor<8x32xf32>}> : () -> tensor<8x32xf32>
    %19 = "stablehlo.constant"() <{value = dense<-0.00737332925> : tensor<8x32xf32>}> : () -> tensor<8x32xf32>
    %20 = "stablehlo.constant"() <{value = dense<-0.0142647391> : tensor<8x32xf32>}> : () -> tensor<8x32xf32>
    %21 = "stablehlo.constant"() <{value = dense<-1.000000e+00> : tensor<8x32xf32>}> : () -> tensor<8x32xf32>
    %22 = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f64>}> : () -> tensor<f64>
    %23 = "stablehlo.constant"() <{value = dense<0xFF800000> : tensor<f32>}> : () -> tensor<f32>
    %24 = "arith.constant"() <{value = dense<1> : tensor<1xi64>}> : () -> tensor<1xi64>
    %25 = "arith.constant"() <{value = dense<32> : tensor<1xi64>}> : () -> tensor<1xi64>
    %26 = "arith.constant"() <{value = dense<1.000000e-05> : tensor<1xf64>}> : () -> tensor<1xf64>
    %27 = "stablehlo.transpose"(%arg0) <{permutation = array<i64: 1, 0>}> : (tensor<32x16xf32>) -> tensor<16x32xf32>
    %28 = "stablehlo.dot_general"(%arg6, %27) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [0]>}> : (tensor<8x16xf32>, tensor<16x32xf32>) -> tensor<8x32xf32>
    %29 = "stablehlo.convert"(%24) : (tensor<1xi64>) -> tensor<1xf32>
    %30 = "stablehlo.reshape"(%29) : (tensor<1xf32>) -> tensor<f32>
    %31 = "stablehlo.broadcast_in_dim"(%30) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<8x32xf32>
    %32 = "stablehlo.multiply"(%28, %31) : (tensor<8x32xf32>, tensor<8x32xf32>) -> tensor<8x32xf32>
    %33 = "stablehlo.broadcast_in_dim"(%arg1) <{broadcast_dimensions = array<i64: 1>}> : (tensor<32xf32>) -> tensor<8x32xf32>
    %34 = "stablehlo.multiply"(%33, %31) : (tensor<8x32xf32>, tensor<8x32xf32>) -> tensor<8x32xf32>
    %35 = "stablehlo.add"(%32, %34) : (tensor<8x32xf32>, tensor<8x32xf32>) -> tensor<8x32xf32>
    %36 = "stablehlo.multiply"(%35, %6) : (tensor<8x32xf32>, tensor<8x32xf32>) -> tensor<8x32xf32>
    %37 = "stablehlo.rsqrt"(%5) : (tensor<8x32xf32>) -> tensor<8x32xf32>
    %38 = "stablehlo.multiply"(%35, %37) : (tensor<8x32xf32>, tensor<8x32xf32>) -> tensor<8x32xf32>
    %39 = "stablehlo.clamp"(%7, %38, %8) : (tensor<8x32xf32>, tensor<8x32xf32>, tensor<8x32xf32>) -> tensor<8x32xf32>
    %40 = "stablehlo.multiply"(%39, %39) : (tensor<8x32xf32>, tensor<8x32xf32>) -> tensor<8x32xf32>
    %41 = "stablehlo.multiply"(%9, %40) : (tensor<8x32xf32>, tensor<8x32xf32>) -> tensor<8x32xf32>
    %42 = "stablehlo.add"(%41, %10) : (tensor<8x32xf32>, tensor<8x32xf32>) -> tensor<8x32xf32>
    %43 = "stablehlo.multiply"(%42, %40) : (tensor<8x32xf32>, tensor<8x32xf32>) -> tensor<8x32xf32>
    %44 = "stablehlo.add"(%43, %11) : (tensor<8x32xf32>, tensor<8x32xf32>) -> tensor<8x32xf32>
    %45 = "stablehlo.multiply"(%44, %40) : (tensor<8x32xf32>, tensor<8x32xf32>) -> tensor<8x32xf32>
    %46 = "stablehlo.add"(%45, %12) : (tensor<8x32xf32>, tensor<8x32xf32>) -> tensor<8x32xf32>
    %47 = "stablehlo.multiply"(%46, %40) : (tensor<8x32xf32>, tensor<8x32xf32>) -> tensor<8x32xf32>
    %48 = "stablehlo.add"(%47, %13) : (tensor<8x32xf32>, tensor<8x32xf32>) -> tensor<8x32xf32>
    %49 = "stablehlo.multiply"(%48, %40) : (tensor<8x32xf32>, tensor<8x32xf32>) -> tensor<8x32xf32>
    %50 = "stablehlo.add"(%49, %14) : (tensor<8x32xf32>, tensor<8x32xf32>) -> tensor<8x32xf32>
    %51 = "stablehlo.multiply"(%50, %40) : (tensor<8x32xf32>, tensor<8x32xf32>) -> tensor<8x32xf32>
    %52 = "stablehlo.add"(%51, %15) : (tensor<8x32xf32>, tensor<8x32xf32>) -> tensor<8x32xf32>
    %53 = "stablehlo.multiply"(%16, %40) : (tensor<8x32xf32>, tensor<8x32xf32>) -> tensor<8x32xf32>
    %54 = "stablehlo.add"(%53, %17) : (tensor<8x32xf32>, tensor<8x32xf32>) -> tensor<8x32xf32>
    %55 = "stablehlo.multiply"(%54, %40) : (tensor<8x32xf32>, tensor<8x32xf32>) -> tensor<8x32xf32>
    %56 = "stablehlo.add"(%55, %18) : (tensor<8x32xf32>, tensor<8x32xf32>) -> tensor<8x32xf32>
    %57 = "stablehlo.multiply"(%56, %40) : (tensor<8x32xf32>, tensor<8x32xf32>) -> tensor<8x32xf32>
    %58 = "stablehlo.add"(%57, %19) : (tensor<8x32xf32>, tensor<8x32xf32>) -> tensor<8x32xf32>
    %59 = "stablehlo.multiply"(%58, %40) : (tensor<8x32xf32>, tensor<8x32xf32>) -> tensor<8x32xf32>
    %60 = "stablehlo.add"(%59, %20) : (tensor<8x32xf32>, tensor<8x32xf32>) -> tensor<8x32xf32>
    %61 = "stablehlo.multiply"(%39, %52) : (tensor<8x32xf32>, tensor<8x32xf32>) -> tensor<8x32xf32>
    %62 = "stablehlo.divide"(%61, %60) : (tensor<8x32xf32>, tensor<8x32xf32>) -> tensor<8x32xf32>
    %63 = "stablehlo.clamp"(%21, %62, %4) : (tensor<8x32xf32>, tensor<8x32xf32>, tensor<8x32xf32>) -> tensor<8x32xf32>
    %64 = "stablehlo.add"(%63, %4) : (tensor<8x32xf32>, tensor<8x32xf32>) -> tensor<8x32xf32>
    %65 = "stablehlo.multiply"(%64, %36) : (tensor<8x32xf32>, tensor<8x32xf32>) -> tensor<8x32xf32>
    %66 = "stablehlo.convert"(%65) : (tensor<8x32xf32>) -> tensor<8x32xf64>
    %67 = "stablehlo.reduce"(%66, %22) <{dimensions = array<i64: 1>}> ({
    ^bb0(%arg20: tensor<f64>, %arg21: tensor<f64>):
      %141 = "stablehlo.add"(%arg20, %arg21) : (tensor<f64>, tensor<f64>) -> tensor<f64>
      "stablehlo.return"(%141) : (tensor<f64>) -> ()
    }) : (tensor<8x32xf64>, tensor<f64>) -> tensor<8xf64>
    %68 = "stablehlo.reshape"(%67) : (tensor<8xf64>) -> tensor<8x1xf64>
    %69 = "stablehlo.convert"(%25) : (tensor<1xi64>) -> tensor<1xf64>
    %70 = "stablehlo.reshape"(%69) : (tensor<1xf64>) -> tensor<f64>
    %71 = "stablehlo.broadcast_in_dim"(%70) <{broadcast_dimensions = array<i64>}> : (tensor<f64>) -> tensor<8x1xf64>
    %72 = "stablehlo.divide"(%68, %71) : (tensor<8x1xf64>, tensor<8x1xf64>) -> tensor<8x1xf64>
    %73 = "stablehlo.broadcast_in_dim"(%72) <{broadcast_dimensions = array<i64: 0, 1>}> : (tensor<8x1xf64>) -> tensor<8x32xf64>
    %74 = "stablehlo.subtract"(%66, %73) : (tensor<8x32xf64>, tensor<8x32xf64>) -> tensor<8x32xf64>
    %75 = "stablehlo.multiply"(%74, %74) : (tensor<8x32xf64>, tensor<8x32xf64>) -> tensor<8x32xf64>
    %76 = "stablehlo.reduce"(%75, %22) <{dimensions = array<i64: 1>}> ({
    ^bb0(%arg18: tensor<f64>, %arg19: tensor<f64>):
      %140 = "stablehlo.add"(%arg18, %arg19) : (tensor<f64>, tensor<f64>) -> tensor<f64>
      "stablehlo.return"(%140) : (tensor<f64>) -> ()
    }) : (tensor<8x32xf64>, tensor<f64>) -> tensor<8xf64>
    %77 = "stablehlo.reshape"(%76) : (tensor<8xf64>) -> tensor<8x1xf64>
    %78 = "stablehlo.divide"(%77, %71) : (tensor<8x1xf64>, tensor<8x1xf64>) -> tensor<8x1xf64>
    %79 = "stablehlo.convert"(%78) : (tensor<8x1xf64>) -> tensor<8x1xf32>
    %80 = "stablehlo.reduce"(%65, %2) <{dimensions = array<i64: 1>}> ({
    ^bb0(%arg16: tensor<f32>, %arg17: tensor<f32>):
      %139 = "stablehlo.add"(%arg16, %arg17) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%139) : (tensor<f32>) -> ()
    }) : (tensor<8x32xf32>, tensor<f32>) -> tensor<8xf32>
    %81 = "stablehlo.reshape"(%80) : (tensor<8xf32>) -> tensor<8x1xf32>
    %82 = "stablehlo.convert"(%25) : (tensor<1xi64>) -> tensor<1xf32>
    %83 = "stablehlo.reshape"(%82) : (tensor<1xf32>) -> tensor<f32>
    %84 = "stablehlo.broadcast_in_dim"(%83) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<8x1xf32>
    %85 = "stablehlo.divide"(%81, %84) : (tensor<8x1xf32>, tensor<8x1xf32>) -> tensor<8x1xf32>
    %86 = "stablehlo.convert"(%26) : (tensor<1xf64>) -> tensor<1xf32>
    %87 = "stablehlo.reshape"(%86) : (tensor<1xf32>) -> tensor<f32>
    %88 = "stablehlo.broadcast_in_dim"(%87) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<8x1xf32>
    %89 = "stablehlo.add"(%79, %88) : (tensor<8x1xf32>, tensor<8x1xf32>) -> tensor<8x1xf32>
    %90 = "stablehlo.rsqrt"(%89) : (tensor<8x1xf32>) -> tensor<8x1xf32>
    %91 = "stablehlo.broadcast_in_dim"(%85) <{broadcast_dimensions = array<i64: 0, 1>}> : (tensor<8x1xf32>) -> tensor<8x32xf32>
    %92 = "stablehlo.subtract"(%65, %91) : (tensor<8x32xf32>, tensor<8x32xf32>) -> tensor<8x32xf32>
    %93 = "stablehlo.broadcast_in_dim"(%90) <{broadcast_dimensions = array<i64: 0, 1>}> : (tensor<8x1xf32>) -> tensor<8x32xf32>
    %94 = "stablehlo.multiply"(%92, %93) : (tensor<8x32xf32>, tensor<8x32xf32>) -> tensor<8x32xf32>
    %95 = "stablehlo.broadcast_in_dim"(%arg2) <{broadcast_dimensions = array<i64: 1>}> : (tensor<32xf32>) -> tensor<8x32xf32>
    %96 = "stablehlo.multiply"(%94, %95) : (tensor<8x32xf32>, tensor<8x32xf32>) -> tensor<8x32xf32>
    %97 = "stablehlo.broadcast_in_dim"(%arg3) <{broadcast_dimensions = array<i64: 1>}> : (tensor<32xf32>) -> tensor<8x32xf32>
    %98 = "stablehlo.add"(%96, %97) : (tensor<8x32xf32>, tensor<8x32xf32>) -> tensor<8x32xf32>
    %99 = "stablehlo.transpose"(%arg4) <{permutation = array<i64: 1, 0>}> : (tensor<10x32xf32>) -> tensor<32x10xf32>
    %100 = "stablehlo.dot_general"(%98, %99) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [0]>}> : (tensor<8x32xf32>, tensor<32x10xf32>) -> tensor<8x10xf32>
    %101 = "stablehlo.broadcast_in_dim"(%30) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<8x10xf32>
    %102 = "stablehlo.multiply"(%100, %101) : (tensor<8x10xf32>, tensor<8x10xf32>) -> tensor<8x10xf32>
    %103 = "stablehlo.broadcast_in_dim"(%arg5) <{broadcast_dimensions = array<i64: 1>}> : (tensor<10xf32>) -> tensor<8x10xf32>
    %104 = "stablehlo.multiply"(%103, %101) : (tensor<8x10xf32>, tensor<8x10xf32>) -> tensor<8x10xf32>
    %105 = "stablehlo.add"(%102, %104) : (tensor<8x10xf32>, tensor<8x10xf32>) -> tensor<8x10xf32>
    %106 = "stablehlo.reduce"(%105, %23) <{dimensions = array<i64: 1>}> ({
    ^bb0(%arg14: tensor<f32>, %arg15: tensor<f32>):
      %138 = "stablehlo.maximum"(%arg14, %arg15) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%138) : (tensor<f32>) -> ()
    }) : (tensor<8x10xf32>, tensor<f32>) -> tensor<8xf32>
    %107 = "stablehlo.reshape"(%106) : (tensor<8xf32>) -> tensor<8x1xf32>
    %108 = "stablehlo.broadcast_in_dim"(%107) <{broadcast_dimensions = array<i64: 0, 1>}> : (tensor<8x1xf32>) -> tensor<8x10xf32>
    %109 = "stablehlo.subtract"(%105, %108) : (tensor<8x10xf32>, tensor<8x10xf32>) -> tensor<8x10xf32>
    %110 = "stablehlo.exponential"(%109) : (tensor<8x10xf32>) -> tensor<8x10xf32>
    %111 = "stablehlo.reduce"(%110, %2) <{dimensions = array<i64: 1>}> ({
    ^bb0(%arg12: tensor<f32>, %arg13: tensor<f32>):
      %137 = "stablehlo.add"(%arg12, %arg13) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%137) : (tensor<f32>) -> ()
    }) : (tensor<8x10xf32>, tensor<f32>) -> tensor<8xf32>
    %112 = "stablehlo.reshape"(%111) : (tensor<8xf32>) -> tensor<8x1xf32>
    %113 = "stablehlo.log"(%112) : (tensor<8x1xf32>) -> tensor<8x1xf32>
    %114 = "stablehlo.broadcast_in_dim"(%113) <{broadcast_dimensions = array<i64: 0, 1>}> : (tensor<8x1xf32>) -> tensor<8x10xf32>
    %115 = "stablehlo.subtract"(%109, %114) : (tensor<8x10xf32>, tensor<8x10xf32>) -> tensor<8x10xf32>
    %116 = "stablehlo.compare"(%arg7, %1) <{compare_type = #stablehlo<comparison_type SIGNED>, comparison_direction = #stablehlo<comparison_direction NE>}> : (tensor<8xi64>, tensor<8xi64>) -> tensor<8xi1>
    %117 = "stablehlo.broadcast_in_dim"(%116) <{broadcast_dimensions = array<i64: 0>}> : (tensor<8xi1>) -> tensor<8xi1>
    %118 = "stablehlo.broadcast_in_dim"(%arg7) <{broadcast_dimensions = array<i64: 0>}> : (tensor<8xi64>) -> tensor<8xi64>
    %119 = "stablehlo.select"(%117, %118, %0) : (tensor<8xi1>, tensor<8xi64>, tensor<8xi64>) -> tensor<8xi64>
    %120 = "stablehlo.reshape"(%119) : (tensor<8xi64>) -> tensor<8x1xi64>
    %121 = "stablehlo.iota"() <{iota_dimension = 0 : i64}> : () -> tensor<8x1x1xi64>
    %122 = "stablehlo.reshape"(%120) : (tensor<8x1xi64>) -> tensor<8x1x1xi64>
    %123 = "stablehlo.concatenate"(%121, %122) <{dimension = 2 : i64}> : (tensor<8x1x1xi64>, tensor<8x1x1xi64>) -> tensor<8x1x2xi64>
    %124 = "stablehlo.gather"(%115, %123) <{dimension_numbers = #stablehlo.gather<collapsed_slice_dims = [0, 1], start_index_map = [0, 1], index_vector_dim = 2>, slice_sizes = array<i64: 1, 1>}> : (tensor<8x10xf32>, tensor<8x1x2xi64>) -> tensor<8x1xf32>
    %125 = "stablehlo.reshape"(%124) : (tensor<8x1xf32>) -> tensor<8xf32>
    %126 = "stablehlo.negate"(%125) : (tensor<8xf32>) -> tensor<8xf32>
    %127 = "stablehlo.broadcast_in_dim"(%126) <{broadcast_dimensions = array<i64: 0>}> : (tensor<8xf32>) -> tensor<8xf32>
    %128 = "stablehlo.broadcast_in_dim"(%2) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<8xf32>
    %129 = "stablehlo.select"(%117, %127, %128) : (tensor<8xi1>, tensor<8xf32>, tensor<8xf32>) -> tensor<8xf32>
    %130 = "stablehlo.convert"(%116) : (tensor<8xi1>) -> tensor<8xi64>
    %131 = "stablehlo.reduce"(%130, %3) <{dimensions = array<i64: 0>}> ({
    ^bb0(%arg10: tensor<i64>, %arg11: tensor<i64>):
      %136 = "stablehlo.add"(%arg10, %arg11) : (tensor<i64>, tensor<i64>) -> tensor<i64>
      "stablehlo.return"(%136) : (tensor<i64>) -> ()
    }) : (tensor<8xi64>, tensor<i64>) -> tensor<i64>
    %132 = "stablehlo.convert"(%131) : (tensor<i64>) -> tensor<f32>
    %133 = "stablehlo.reduce"(%129, %2) <{dimensions = array<i64: 0>}> ({
    ^bb0(%arg8: tensor<f32>, %arg9: tensor<f32>):
      %135 = "stablehlo.add"(%arg8, %arg9) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%135) : (tensor<f32>) -> ()
    }) : (tensor<8xf32>, tensor<f32>) -> tensor<f32>
    %134 = "stablehlo.divide"(%133, %132) : (tensor<f32>, tensor<f32>) -> tensor<f32>
    "func.return"(%134) : (tensor<f32>) -> ()
  }) : () -> ()
}) : () -> ()
