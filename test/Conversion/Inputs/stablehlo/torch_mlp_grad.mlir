"builtin.module"() ({
  "sdy.mesh"() <{mesh = #sdy.mesh<["dp"=2, "tp"=2]>, sym_name = "mesh"}> : () -> ()
  "func.func"() <{arg_attrs = [{sdy.sharding = #sdy.sharding<@mesh, [{"tp"}, {}]>}, {sdy.sharding = #sdy.sharding<@mesh, [{"tp"}]>}, {sdy.sharding = #sdy.sharding<@mesh, [{}]>}, {sdy.sharding = #sdy.sharding<@mesh, [{}]>}, {sdy.sharding = #sdy.sharding<@mesh, [{}, {}]>}, {sdy.sharding = #sdy.sharding<@mesh, [{}]>}, {sdy.sharding = #sdy.sharding<@mesh, [{"dp"}, {}]>}, {sdy.sharding = #sdy.sharding<@mesh, [{"dp"}]>}], function_type = (tensor<32x16xf32>, tensor<32xf32>, tensor<32xf32>, tensor<32xf32>, tensor<10x32xf32>, tensor<10xf32>, tensor<8x16xf32>, tensor<8xi64>) -> (tensor<f32>, tensor<32x16xf32>, tensor<32xf32>, tensor<32xf32>, tensor<32xf32>, tensor<10x32xf32>, tensor<10xf32>), res_attrs = [{sdy.sharding = #sdy.sharding<@mesh, []>}, {sdy.sharding = #sdy.sharding<@mesh, [{"tp"}, {}]>}, {sdy.sharding = #sdy.sharding<@mesh, [{"tp"}]>}, {sdy.sharding = #sdy.sharding<@mesh, [{}]>}, {sdy.sharding = #sdy.sharding<@mesh, [{}]>}, {sdy.sharding = #sdy.sharding<@mesh, [{}, {}]>}, {sdy.sharding = #sdy.sharding<@mesh, [{}]>}], sym_name = "main"}> ({
  ^bb0(%arg0: tensor<32x16xf32>, %arg1: tensor<32xf32>, %arg2: tensor<32xf32>, %arg3: tensor<32xf32>, %arg4: tensor<10x32xf32>, %arg5: tensor<10xf32>, %arg6: tensor<8x16xf32>, %arg7: tensor<8xi64>):
    %0 = "stablehlo.constant"() <{value = dense<0> : tensor<8x1xi64>}> : () -> tensor<8x1xi64>
    %1 = "stablehlo.constant"() <{value = dense<-100> : tensor<8x1xi64>}> : () -> tensor<8x1xi64>
    %2 = "stablehlo.constant"() <{value = dense<0> : tensor<8xi64>}> : () -> tensor<8xi64>
    %3 = "stablehlo.constant"() <{value = dense<-100> : tensor<8xi64>}> : () -> tensor<8xi64>
    %4 = "stablehlo.constant"() <{value = dense<-1.000000e+00> : tensor<8x1xf32>}> : () -> tensor<8x1xf32>
    %5 = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<8x10xf32>}> : () -> tensor<8x10xf32>
    %6 = "stablehlo.constant"() <{value = dense<1.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %7 = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %8 = "stablehlo.constant"() <{value = dense<0> : tensor<i64>}> : () -> tensor<i64>
    %9 = "stablehlo.constant"() <{value = dense<1.000000e+00> : tensor<8x32xf32>}> : () -> tensor<8x32xf32>
    %10 = "stablehlo.constant"() <{value = dense<2.000000e+00> : tensor<8x32xf32>}> : () -> tensor<8x32xf32>
    %11 = "stablehlo.constant"() <{value = dense<5.000000e-01> : tensor<8x32xf32>}> : () -> tensor<8x32xf32>
    %12 = "stablehlo.constant"() <{value = dense<-4.000000e+00> : tensor<8x32xf32>}> : () -> tensor<8x32xf32>
    %13 = "stablehlo.constant"() <{value = dense<4.000000e+00> : tensor<8x32xf32>}> : () -> tensor<8x32xf32>
    %14 = "stablehlo.constant"() <{value = dense<-2.72614237E-10> : tensor<8x32xf32>}> : () -> tensor<8x32xf32>
    %15 = "stablehlo.constant"() <{value = dense<2.77068146E-8> : tensor<8x32xf32>}> : () -> tensor<8x32xf32>
    %16 = "stablehlo.constant"() <{value = dense<-2.10102394E-6> : tensor<8x32xf32>}> : () -> tensor<8x32xf32>
    %17 = "stablehlo.constant"() <{value = dense<-5.69250624E-5> : tensor<8x32xf32>}> : () -> tensor<8x32xf32>
    %18 = "stablehlo.constant"() <{value = dense<-7.34990637E-4> : tensor<8x32xf32>}> : () -> tensor<8x32xf32>
    %19 = "stablehlo.constant"() <{value = dense<-2.954600e-03> : tensor<8x32xf32>}> : () -> tensor<8x32xf32>
    %20 = "stablehlo.constant"() <{value = dense<-0.0160960332> : tensor<8x32xf32>}> : () -> tensor<8x32xf32>
    %21 = "stablehlo.constant"() <{value = dense<-1.45660715E-5> : tensor<8x32xf32>}> : () -> tensor<8x32xf32>
    %22 = "stablehlo.constant"() <{value = dense<-2.13374049E-4> : tensor<8x32xf32>}> : () -> tensor<8x32xf32>
    %23 = "stablehlo.constant"() <{value = dense<-0.00168282702> : tensor<8x32xf32>}> : () -> tensor<8x32xf32>
    %24 = "stablehlo.constant"() <{value = dense<-0.00737332925> : tensor<8x32xf32>}> : () -> tensor<8x32xf32>
    %25 = "stablehlo.constant"() <{value = dense<-0.0142647391> : tensor<8x32xf32>}> : () -> tensor<8x32xf32>
    %26 = "stablehlo.constant"() <{value = dense<-1.000000e+00> : tensor<8x32xf32>}> : () -> tensor<8x32xf32>
    %27 = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f64>}> : () -> tensor<f64>
    %28 = "stablehlo.constant"() <{value = dense<0xFF800000> : tensor<f32>}> : () -> tensor<f32>
    %29 = "arith.constant"() <{value = dense<1> : tensor<1xi64>}> : () -> tensor<1xi64>
    %30 = "arith.constant"() <{value = dense<32> : tensor<1xi64>}> : () -> tensor<1xi64>
    %31 = "arith.constant"() <{value = dense<1.000000e-05> : tensor<1xf64>}> : () -> tensor<1xf64>
    %32 = "arith.constant"() <{value = dense<0.70710678118654757> : tensor<1xf64>}> : () -> tensor<1xf64>
    %33 = "arith.constant"() <{value = dense<5.000000e-01> : tensor<1xf64>}> : () -> tensor<1xf64>
    %34 = "arith.constant"() <{value = dense<-5.000000e-01> : tensor<1xf64>}> : () -> tensor<1xf64>
    %35 = "arith.constant"() <{value = dense<0.3989422804014327> : tensor<1xf64>}> : () -> tensor<1xf64>
    %36 = "stablehlo.transpose"(%arg0) <{permutation = array<i64: 1, 0>}> : (tensor<32x16xf32>) -> tensor<16x32xf32>
    %37 = "stablehlo.dot_general"(%arg6, %36) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [0]>}> : (tensor<8x16xf32>, tensor<16x32xf32>) -> tensor<8x32xf32>
    %38 = "stablehlo.convert"(%29) : (tensor<1xi64>) -> tensor<1xf32>
    %39 = "stablehlo.reshape"(%38) : (tensor<1xf32>) -> tensor<f32>
    %40 = "stablehlo.broadcast_in_dim"(%39) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<8x32xf32>
    %41 = "stablehlo.multiply"(%37, %40) : (tensor<8x32xf32>, tensor<8x32xf32>) -> tensor<8x32xf32>
    %42 = "stablehlo.broadcast_in_dim"(%arg1) <{broadcast_dimensions = array<i64: 1>}> : (tensor<32xf32>) -> tensor<8x32xf32>
    %43 = "stablehlo.multiply"(%42, %40) : (tensor<8x32xf32>, tensor<8x32xf32>) -> tensor<8x32xf32>
    %44 = "stablehlo.add"(%41, %43) : (tensor<8x32xf32>, tensor<8x32xf32>) -> tensor<8x32xf32>
    %45 = "stablehlo.multiply"(%44, %11) : (tensor<8x32xf32>, tensor<8x32xf32>) -> tensor<8x32xf32>
    %46 = "stablehlo.rsqrt"(%10) : (tensor<8x32xf32>) -> tensor<8x32xf32>
    %47 = "stablehlo.multiply"(%44, %46) : (tensor<8x32xf32>, tensor<8x32xf32>) -> tensor<8x32xf32>
    %48 = "stablehlo.clamp"(%12, %47, %13) : (tensor<8x32xf32>, tensor<8x32xf32>, tensor<8x32xf32>) -> tensor<8x32xf32>
    %49 = "stablehlo.multiply"(%48, %48) : (tensor<8x32xf32>, tensor<8x32xf32>) -> tensor<8x32xf32>
    %50 = "stablehlo.multiply"(%14, %49) : (tensor<8x32xf32>, tensor<8x32xf32>) -> tensor<8x32xf32>
    %51 = "stablehlo.add"(%50, %15) : (tensor<8x32xf32>, tensor<8x32xf32>) -> tensor<8x32xf32>
    %52 = "stablehlo.multiply"(%51, %49) : (tensor<8x32xf32>, tensor<8x32xf32>) -> tensor<8x32xf32>
    %53 = "stablehlo.add"(%52, %16) : (tensor<8x32xf32>, tensor<8x32xf32>) -> tensor<8x32xf32>
    %54 = "stablehlo.multiply"(%53, %49) : (tensor<8x32xf32>, tensor<8x32xf32>) -> tensor<8x32xf32>
    %55 = "stablehlo.add"(%54, %17) : (tensor<8x32xf32>, tensor<8x32xf32>) -> tensor<8x32xf32>
    %56 = "stablehlo.multiply"(%55, %49) : (tensor<8x32xf32>, tensor<8x32xf32>) -> tensor<8x32xf32>
    %57 = "stablehlo.add"(%56, %18) : (tensor<8x32xf32>, tensor<8x32xf32>) -> tensor<8x32xf32>
    %58 = "stablehlo.multiply"(%57, %49) : (tensor<8x32xf32>, tensor<8x32xf32>) -> tensor<8x32xf32>
    %59 = "stablehlo.add"(%58, %19) : (tensor<8x32xf32>, tensor<8x32xf32>) -> tensor<8x32xf32>
    %60 = "stablehlo.multiply"(%59, %49) : (tensor<8x32xf32>, tensor<8x32xf32>) -> tensor<8x32xf32>
    %61 = "stablehlo.add"(%60, %20) : (tensor<8x32xf32>, tensor<8x32xf32>) -> tensor<8x32xf32>
    %62 = "stablehlo.multiply"(%21, %49) : (tensor<8x32xf32>, tensor<8x32xf32>) -> tensor<8x32xf32>
    %63 = "stablehlo.add"(%62, %22) : (tensor<8x32xf32>, tensor<8x32xf32>) -> tensor<8x32xf32>
    %64 = "stablehlo.multiply"(%63, %49) : (tensor<8x32xf32>, tensor<8x32xf32>) -> tensor<8x32xf32>
    %65 = "stablehlo.add"(%64, %23) : (tensor<8x32xf32>, tensor<8x32xf32>) -> tensor<8x32xf32>
    %66 = "stablehlo.multiply"(%65, %49) : (tensor<8x32xf32>, tensor<8x32xf32>) -> tensor<8x32xf32>
    %67 = "stablehlo.add"(%66, %24) : (tensor<8x32xf32>, tensor<8x32xf32>) -> tensor<8x32xf32>
    %68 = "stablehlo.multiply"(%67, %49) : (tensor<8x32xf32>, tensor<8x32xf32>) -> tensor<8x32xf32>
    %69 = "stablehlo.add"(%68, %25) : (tensor<8x32xf32>, tensor<8x32xf32>) -> tensor<8x32xf32>
    %70 = "stablehlo.multiply"(%48, %61) : (tensor<8x32xf32>, tensor<8x32xf32>) -> tensor<8x32xf32>
    %71 = "stablehlo.divide"(%70, %69) : (tensor<8x32xf32>, tensor<8x32xf32>) -> tensor<8x32xf32>
    %72 = "stablehlo.clamp"(%26, %71, %9) : (tensor<8x32xf32>, tensor<8x32xf32>, tensor<8x32xf32>) -> tensor<8x32xf32>
    %73 = "stablehlo.add"(%72, %9) : (tensor<8x32xf32>, tensor<8x32xf32>) -> tensor<8x32xf32>
    %74 = "stablehlo.multiply"(%73, %45) : (tensor<8x32xf32>, tensor<8x32xf32>) -> tensor<8x32xf32>
    %75 = "stablehlo.convert"(%74) : (tensor<8x32xf32>) -> tensor<8x32xf64>
    %76 = "stablehlo.reduce"(%75, %27) <{dimensions = array<i64: 1>}> ({
    ^bb0(%arg36: tensor<f64>, %arg37: tensor<f64>):
      %260 = "stablehlo.add"(%arg36, %arg37) : (tensor<f64>, tensor<f64>) -> tensor<f64>
      "stablehlo.return"(%260) : (tensor<f64>) -> ()
    }) : (tensor<8x32xf64>, tensor<f64>) -> tensor<8xf64>
    %77 = "stablehlo.reshape"(%76) : (tensor<8xf64>) -> tensor<8x1xf64>
    %78 = "stablehlo.convert"(%30) : (tensor<1xi64>) -> tensor<1xf64>
    %79 = "stablehlo.reshape"(%78) : (tensor<1xf64>) -> tensor<f64>
    %80 = "stablehlo.broadcast_in_dim"(%79) <{broadcast_dimensions = array<i64>}> : (tensor<f64>) -> tensor<8x1xf64>
    %81 = "stablehlo.divide"(%77, %80) : (tensor<8x1xf64>, tensor<8x1xf64>) -> tensor<8x1xf64>
    %82 = "stablehlo.broadcast_in_dim"(%81) <{broadcast_dimensions = array<i64: 0, 1>}> : (tensor<8x1xf64>) -> tensor<8x32xf64>
    %83 = "stablehlo.subtract"(%75, %82) : (tensor<8x32xf64>, tensor<8x32xf64>) -> tensor<8x32xf64>
    %84 = "stablehlo.multiply"(%83, %83) : (tensor<8x32xf64>, tensor<8x32xf64>) -> tensor<8x32xf64>
    %85 = "stablehlo.reduce"(%84, %27) <{dimensions = array<i64: 1>}> ({
    ^bb0(%arg34: tensor<f64>, %arg35: tensor<f64>):
      %259 = "stablehlo.add"(%arg34, %arg35) : (tensor<f64>, tensor<f64>) -> tensor<f64>
      "stablehlo.return"(%259) : (tensor<f64>) -> ()
    }) : (tensor<8x32xf64>, tensor<f64>) -> tensor<8xf64>
    %86 = "stablehlo.reshape"(%85) : (tensor<8xf64>) -> tensor<8x1xf64>
    %87 = "stablehlo.divide"(%86, %80) : (tensor<8x1xf64>, tensor<8x1xf64>) -> tensor<8x1xf64>
    %88 = "stablehlo.convert"(%87) : (tensor<8x1xf64>) -> tensor<8x1xf32>
    %89 = "stablehlo.reduce"(%74, %7) <{dimensions = array<i64: 1>}> ({
    ^bb0(%arg32: tensor<f32>, %arg33: tensor<f32>):
      %258 = "stablehlo.add"(%arg32, %arg33) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%258) : (tensor<f32>) -> ()
    }) : (tensor<8x32xf32>, tensor<f32>) -> tensor<8xf32>
    %90 = "stablehlo.reshape"(%89) : (tensor<8xf32>) -> tensor<8x1xf32>
    %91 = "stablehlo.convert"(%30) : (tensor<1xi64>) -> tensor<1xf32>
    %92 = "stablehlo.reshape"(%91) : (tensor<1xf32>) -> tensor<f32>
    %93 = "stablehlo.broadcast_in_dim"(%92) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<8x1xf32>
    %94 = "stablehlo.divide"(%90, %93) : (tensor<8x1xf32>, tensor<8x1xf32>) -> tensor<8x1xf32>
    %95 = "stablehlo.convert"(%31) : (tensor<1xf64>) -> tensor<1xf32>
    %96 = "stablehlo.reshape"(%95) : (tensor<1xf32>) -> tensor<f32>
    %97 = "stablehlo.broadcast_in_dim"(%96) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<8x1xf32>
    %98 = "stablehlo.add"(%88, %97) : (tensor<8x1xf32>, tensor<8x1xf32>) -> tensor<8x1xf32>
    %99 = "stablehlo.rsqrt"(%98) : (tensor<8x1xf32>) -> tensor<8x1xf32>
    %100 = "stablehlo.broadcast_in_dim"(%94) <{broadcast_dimensions = array<i64: 0, 1>}> : (tensor<8x1xf32>) -> tensor<8x32xf32>
    %101 = "stablehlo.subtract"(%74, %100) : (tensor<8x32xf32>, tensor<8x32xf32>) -> tensor<8x32xf32>
    %102 = "stablehlo.broadcast_in_dim"(%99) <{broadcast_dimensions = array<i64: 0, 1>}> : (tensor<8x1xf32>) -> tensor<8x32xf32>
    %103 = "stablehlo.multiply"(%101, %102) : (tensor<8x32xf32>, tensor<8x32xf32>) -> tensor<8x32xf32>
    %104 = "stablehlo.broadcast_in_dim"(%arg2) <{broadcast_dimensions = array<i64: 1>}> : (tensor<32xf32>) -> tensor<8x32xf32>
    %105 = "stablehlo.multiply"(%103, %104) : (tensor<8x32xf32>, tensor<8x32xf32>) -> tensor<8x32xf32>
    %106 = "stablehlo.broadcast_in_dim"(%arg3) <{broadcast_dimensions = array<i64: 1>}> : (tensor<32xf32>) -> tensor<8x32xf32>
    %107 = "stablehlo.add"(%105, %106) : (tensor<8x32xf32>, tensor<8x32xf32>) -> tensor<8x32xf32>
    %108 = "stablehlo.transpose"(%arg4) <{permutation = array<i64: 1, 0>}> : (tensor<10x32xf32>) -> tensor<32x10xf32>
    %109 = "stablehlo.dot_general"(%107, %108) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [0]>}> : (tensor<8x32xf32>, tensor<32x10xf32>) -> tensor<8x10xf32>
    %110 = "stablehlo.broadcast_in_dim"(%39) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<8x10xf32>
    %111 = "stablehlo.multiply"(%109, %110) : (tensor<8x10xf32>, tensor<8x10xf32>) -> tensor<8x10xf32>
    %112 = "stablehlo.broadcast_in_dim"(%arg5) <{broadcast_dimensions = array<i64: 1>}> : (tensor<10xf32>) -> tensor<8x10xf32>
    %113 = "stablehlo.multiply"(%112, %110) : (tensor<8x10xf32>, tensor<8x10xf32>) -> tensor<8x10xf32>
    %114 = "stablehlo.add"(%111, %113) : (tensor<8x10xf32>, tensor<8x10xf32>) -> tensor<8x10xf32>
    %115 = "stablehlo.reduce"(%114, %28) <{dimensions = array<i64: 1>}> ({
    ^bb0(%arg30: tensor<f32>, %arg31: tensor<f32>):
      %257 = "stablehlo.maximum"(%arg30, %arg31) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%257) : (tensor<f32>) -> ()
    }) : (tensor<8x10xf32>, tensor<f32>) -> tensor<8xf32>
    %116 = "stablehlo.reshape"(%115) : (tensor<8xf32>) -> tensor<8x1xf32>
    %117 = "stablehlo.broadcast_in_dim"(%116) <{broadcast_dimensions = array<i64: 0, 1>}> : (tensor<8x1xf32>) -> tensor<8x10xf32>
    %118 = "stablehlo.subtract"(%114, %117) : (tensor<8x10xf32>, tensor<8x10xf32>) -> tensor<8x10xf32>
    %119 = "stablehlo.exponential"(%118) : (tensor<8x10xf32>) -> tensor<8x10xf32>
    %120 = "stablehlo.reduce"(%119, %7) <{dimensions = array<i64: 1>}> ({
    ^bb0(%arg28: tensor<f32>, %arg29: tensor<f32>):
      %256 = "stablehlo.add"(%arg28, %arg29) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%256) : (tensor<f32>) -> ()
    }) : (tensor<8x10xf32>, tensor<f32>) -> tensor<8xf32>
    %121 = "stablehlo.reshape"(%120) : (tensor<8xf32>) -> tensor<8x1xf32>
    %122 = "stablehlo.log"(%121) : (tensor<8x1xf32>) -> tensor<8x1xf32>
    %123 = "stablehlo.broadcast_in_dim"(%122) <{broadcast_dimensions = array<i64: 0, 1>}> : (tensor<8x1xf32>) -> tensor<8x10xf32>
    %124 = "stablehlo.subtract"(%118, %123) : (tensor<8x10xf32>, tensor<8x10xf32>) -> tensor<8x10xf32>
    %125 = "stablehlo.compare"(%arg7, %3) <{compare_type = #stablehlo<comparison_type SIGNED>, comparison_direction = #stablehlo<comparison_direction NE>}> : (tensor<8xi64>, tensor<8xi64>) -> tensor<8xi1>
    %126 = "stablehlo.broadcast_in_dim"(%125) <{broadcast_dimensions = array<i64: 0>}> : (tensor<8xi1>) -> tensor<8xi1>
    %127 = "stablehlo.broadcast_in_dim"(%arg7) <{broadcast_dimensions = array<i64: 0>}> : (tensor<8xi64>) -> tensor<8xi64>
    %128 = "stablehlo.select"(%126, %127, %2) : (tensor<8xi1>, tensor<8xi64>, tensor<8xi64>) -> tensor<8xi64>
    %129 = "stablehlo.reshape"(%128) : (tensor<8xi64>) -> tensor<8x1xi64>
    %130 = "stablehlo.iota"() <{iota_dimension = 0 : i64}> : () -> tensor<8x1x1xi64>
    %131 = "stablehlo.reshape"(%129) : (tensor<8x1xi64>) -> tensor<8x1x1xi64>
    %132 = "stablehlo.concatenate"(%130, %131) <{dimension = 2 : i64}> : (tensor<8x1x1xi64>, tensor<8x1x1xi64>) -> tensor<8x1x2xi64>
    %133 = "stablehlo.gather"(%124, %132) <{dimension_numbers = #stablehlo.gather<collapsed_slice_dims = [0, 1], start_index_map = [0, 1], index_vector_dim = 2>, slice_sizes = array<i64: 1, 1>}> : (tensor<8x10xf32>, tensor<8x1x2xi64>) -> tensor<8x1xf32>
    %134 = "stablehlo.reshape"(%133) : (tensor<8x1xf32>) -> tensor<8xf32>
    %135 = "stablehlo.negate"(%134) : (tensor<8xf32>) -> tensor<8xf32>
    %136 = "stablehlo.broadcast_in_dim"(%135) <{broadcast_dimensions = array<i64: 0>}> : (tensor<8xf32>) -> tensor<8xf32>
    %137 = "stablehlo.broadcast_in_dim"(%7) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<8xf32>
    %138 = "stablehlo.select"(%126, %136, %137) : (tensor<8xi1>, tensor<8xf32>, tensor<8xf32>) -> tensor<8xf32>
    %139 = "stablehlo.convert"(%125) : (tensor<8xi1>) -> tensor<8xi64>
    %140 = "stablehlo.reduce"(%139, %8) <{dimensions = array<i64: 0>}> ({
    ^bb0(%arg26: tensor<i64>, %arg27: tensor<i64>):
      %255 = "stablehlo.add"(%arg26, %arg27) : (tensor<i64>, tensor<i64>) -> tensor<i64>
      "stablehlo.return"(%255) : (tensor<i64>) -> ()
    }) : (tensor<8xi64>, tensor<i64>) -> tensor<i64>
    %141 = "stablehlo.convert"(%140) : (tensor<i64>) -> tensor<f32>
    %142 = "stablehlo.reduce"(%138, %7) <{dimensions = array<i64: 0>}> ({
    ^bb0(%arg24: tensor<f32>, %arg25: tensor<f32>):
      %254 = "stablehlo.add"(%arg24, %arg25) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%254) : (tensor<f32>) -> ()
    }) : (tensor<8xf32>, tensor<f32>) -> tensor<f32>
    %143 = "stablehlo.divide"(%142, %141) : (tensor<f32>, tensor<f32>) -> tensor<f32>
    %144 = "stablehlo.divide"(%6, %141) : (tensor<f32>, tensor<f32>) -> tensor<f32>
    %145 = "stablehlo.reshape"(%arg7) : (tensor<8xi64>) -> tensor<8x1xi64>
    %146 = "stablehlo.compare"(%145, %1) <{compare_type = #stablehlo<comparison_type SIGNED>, comparison_direction = #stablehlo<comparison_direction NE>}> : (tensor<8x1xi64>, tensor<8x1xi64>) -> tensor<8x1xi1>
    %147 = "stablehlo.broadcast_in_dim"(%146) <{broadcast_dimensions = array<i64: 0, 1>}> : (tensor<8x1xi1>) -> tensor<8x1xi1>
    %148 = "stablehlo.broadcast_in_dim"(%145) <{broadcast_dimensions = array<i64: 0, 1>}> : (tensor<8x1xi64>) -> tensor<8x1xi64>
    %149 = "stablehlo.select"(%147, %148, %0) : (tensor<8x1xi1>, tensor<8x1xi64>, tensor<8x1xi64>) -> tensor<8x1xi64>
    %150 = "stablehlo.slice"(%4) <{limit_indices = array<i64: 8, 1>, start_indices = array<i64: 0, 0>, strides = array<i64: 1, 1>}> : (tensor<8x1xf32>) -> tensor<8x1xf32>
    %151 = "stablehlo.reshape"(%149) : (tensor<8x1xi64>) -> tensor<8x1x1xi64>
    %152 = "stablehlo.concatenate"(%130, %151) <{dimension = 2 : i64}> : (tensor<8x1x1xi64>, tensor<8x1x1xi64>) -> tensor<8x1x2xi64>
    %153 = "stablehlo.scatter"(%5, %152, %150) <{indices_are_sorted = false, scatter_dimension_numbers = #stablehlo.scatter<inserted_window_dims = [0, 1], scatter_dims_to_operand_dims = [0, 1], index_vector_dim = 2>, unique_indices = false}> ({
    ^bb0(%arg22: tensor<f32>, %arg23: tensor<f32>):
      "stablehlo.return"(%arg23) : (tensor<f32>) -> ()
    }) : (tensor<8x10xf32>, tensor<8x1x2xi64>, tensor<8x1xf32>) -> tensor<8x10xf32>
    %154 = "stablehlo.broadcast_in_dim"(%144) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<8x1xf32>
    %155 = "stablehlo.broadcast_in_dim"(%7) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<8x1xf32>
    %156 = "stablehlo.select"(%147, %154, %155) : (tensor<8x1xi1>, tensor<8x1xf32>, tensor<8x1xf32>) -> tensor<8x1xf32>
    %157 = "stablehlo.broadcast_in_dim"(%156) <{broadcast_dimensions = array<i64: 0, 1>}> : (tensor<8x1xf32>) -> tensor<8x10xf32>
    %158 = "stablehlo.multiply"(%153, %157) : (tensor<8x10xf32>, tensor<8x10xf32>) -> tensor<8x10xf32>
    %159 = "stablehlo.exponential"(%124) : (tensor<8x10xf32>) -> tensor<8x10xf32>
    %160 = "stablehlo.reduce"(%158, %7) <{dimensions = array<i64: 1>}> ({
    ^bb0(%arg20: tensor<f32>, %arg21: tensor<f32>):
      %253 = "stablehlo.add"(%arg20, %arg21) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%253) : (tensor<f32>) -> ()
    }) : (tensor<8x10xf32>, tensor<f32>) -> tensor<8xf32>
    %161 = "stablehlo.reshape"(%160) : (tensor<8xf32>) -> tensor<8x1xf32>
    %162 = "stablehlo.broadcast_in_dim"(%161) <{broadcast_dimensions = array<i64: 0, 1>}> : (tensor<8x1xf32>) -> tensor<8x10xf32>
    %163 = "stablehlo.multiply"(%159, %162) : (tensor<8x10xf32>, tensor<8x10xf32>) -> tensor<8x10xf32>
    %164 = "stablehlo.subtract"(%158, %163) : (tensor<8x10xf32>, tensor<8x10xf32>) -> tensor<8x10xf32>
    %165 = "stablehlo.transpose"(%108) <{permutation = array<i64: 1, 0>}> : (tensor<32x10xf32>) -> tensor<10x32xf32>
    %166 = "stablehlo.dot_general"(%164, %165) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [0]>}> : (tensor<8x10xf32>, tensor<10x32xf32>) -> tensor<8x32xf32>
    %167 = "stablehlo.transpose"(%164) <{permutation = array<i64: 1, 0>}> : (tensor<8x10xf32>) -> tensor<10x8xf32>
    %168 = "stablehlo.dot_general"(%167, %107) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [0]>}> : (tensor<10x8xf32>, tensor<8x32xf32>) -> tensor<10x32xf32>
    %169 = "stablehlo.transpose"(%168) <{permutation = array<i64: 1, 0>}> : (tensor<10x32xf32>) -> tensor<32x10xf32>
    %170 = "stablehlo.reduce"(%164, %7) <{dimensions = array<i64: 0>}> ({
    ^bb0(%arg18: tensor<f32>, %arg19: tensor<f32>):
      %252 = "stablehlo.add"(%arg18, %arg19) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%252) : (tensor<f32>) -> ()
    }) : (tensor<8x10xf32>, tensor<f32>) -> tensor<10xf32>
    %171 = "stablehlo.reshape"(%170) : (tensor<10xf32>) -> tensor<1x10xf32>
    %172 = "stablehlo.reshape"(%171) : (tensor<1x10xf32>) -> tensor<10xf32>
    %173 = "stablehlo.transpose"(%169) <{permutation = array<i64: 1, 0>}> : (tensor<32x10xf32>) -> tensor<10x32xf32>
    %174 = "stablehlo.multiply"(%166, %104) : (tensor<8x32xf32>, tensor<8x32xf32>) -> tensor<8x32xf32>
    %175 = "stablehlo.broadcast_in_dim"(%92) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<8x32xf32>
    %176 = "stablehlo.multiply"(%174, %175) : (tensor<8x32xf32>, tensor<8x32xf32>) -> tensor<8x32xf32>
    %177 = "stablehlo.reduce"(%174, %7) <{dimensions = array<i64: 1>}> ({
    ^bb0(%arg16: tensor<f32>, %arg17: tensor<f32>):
      %251 = "stablehlo.add"(%arg16, %arg17) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%251) : (tensor<f32>) -> ()
    }) : (tensor<8x32xf32>, tensor<f32>) -> tensor<8xf32>
    %178 = "stablehlo.reshape"(%177) : (tensor<8xf32>) -> tensor<8x1xf32>
    %179 = "stablehlo.multiply"(%174, %103) : (tensor<8x32xf32>, tensor<8x32xf32>) -> tensor<8x32xf32>
    %180 = "stablehlo.reduce"(%179, %7) <{dimensions = array<i64: 1>}> ({
    ^bb0(%arg14: tensor<f32>, %arg15: tensor<f32>):
      %250 = "stablehlo.add"(%arg14, %arg15) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%250) : (tensor<f32>) -> ()
    }) : (tensor<8x32xf32>, tensor<f32>) -> tensor<8xf32>
    %181 = "stablehlo.reshape"(%180) : (tensor<8xf32>) -> tensor<8x1xf32>
    %182 = "stablehlo.broadcast_in_dim"(%181) <{broadcast_dimensions = array<i64: 0, 1>}> : (tensor<8x1xf32>) -> tensor<8x32xf32>
    %183 = "stablehlo.multiply"(%103, %182) : (tensor<8x32xf32>, tensor<8x32xf32>) -> tensor<8x32xf32>
    %184 = "stablehlo.broadcast_in_dim"(%178) <{broadcast_dimensions = array<i64: 0, 1>}> : (tensor<8x1xf32>) -> tensor<8x32xf32>
    %185 = "stablehlo.subtract"(%176, %184) : (tensor<8x32xf32>, tensor<8x32xf32>) -> tensor<8x32xf32>
    %186 = "stablehlo.subtract"(%185, %183) : (tensor<8x32xf32>, tensor<8x32xf32>) -> tensor<8x32xf32>
    %187 = "stablehlo.divide"(%99, %93) : (tensor<8x1xf32>, tensor<8x1xf32>) -> tensor<8x1xf32>
    %188 = "stablehlo.broadcast_in_dim"(%187) <{broadcast_dimensions = array<i64: 0, 1>}> : (tensor<8x1xf32>) -> tensor<8x32xf32>
    %189 = "stablehlo.multiply"(%188, %186) : (tensor<8x32xf32>, tensor<8x32xf32>) -> tensor<8x32xf32>
    %190 = "stablehlo.multiply"(%166, %103) : (tensor<8x32xf32>, tensor<8x32xf32>) -> tensor<8x32xf32>
    %191 = "stablehlo.reduce"(%190, %7) <{dimensions = array<i64: 0>}> ({
    ^bb0(%arg12: tensor<f32>, %arg13: tensor<f32>):
      %249 = "stablehlo.add"(%arg12, %arg13) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%249) : (tensor<f32>) -> ()
    }) : (tensor<8x32xf32>, tensor<f32>) -> tensor<32xf32>
    %192 = "stablehlo.reduce"(%166, %7) <{dimensions = array<i64: 0>}> ({
    ^bb0(%arg10: tensor<f32>, %arg11: tensor<f32>):
      %248 = "stablehlo.add"(%arg10, %arg11) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%248) : (tensor<f32>) -> ()
    }) : (tensor<8x32xf32>, tensor<f32>) -> tensor<32xf32>
    %193 = "stablehlo.convert"(%32) : (tensor<1xf64>) -> tensor<1xf32>
    %194 = "stablehlo.reshape"(%193) : (tensor<1xf32>) -> tensor<f32>
    %195 = "stablehlo.broadcast_in_dim"(%194) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<8x32xf32>
    %196 = "stablehlo.multiply"(%44, %195) : (tensor<8x32xf32>, tensor<8x32xf32>) -> tensor<8x32xf32>
    %197 = "stablehlo.clamp"(%12, %196, %13) : (tensor<8x32xf32>, tensor<8x32xf32>, tensor<8x32xf32>) -> tensor<8x32xf32>
    %198 = "stablehlo.multiply"(%197, %197) : (tensor<8x32xf32>, tensor<8x32xf32>) -> tensor<8x32xf32>
    %199 = "stablehlo.multiply"(%14, %198) : (tensor<8x32xf32>, tensor<8x32xf32>) -> tensor<8x32xf32>
    %200 = "stablehlo.add"(%199, %15) : (tensor<8x32xf32>, tensor<8x32xf32>) -> tensor<8x32xf32>
    %201 = "stablehlo.multiply"(%200, %198) : (tensor<8x32xf32>, tensor<8x32xf32>) -> tensor<8x32xf32>
    %202 = "stablehlo.add"(%201, %16) : (tensor<8x32xf32>, tensor<8x32xf32>) -> tensor<8x32xf32>
    %203 = "stablehlo.multiply"(%202, %198) : (tensor<8x32xf32>, tensor<8x32xf32>) -> tensor<8x32xf32>
    %204 = "stablehlo.add"(%203, %17) : (tensor<8x32xf32>, tensor<8x32xf32>) -> tensor<8x32xf32>
    %205 = "stablehlo.multiply"(%204, %198) : (tensor<8x32xf32>, tensor<8x32xf32>) -> tensor<8x32xf32>
    %206 = "stablehlo.add"(%205, %18) : (tensor<8x32xf32>, tensor<8x32xf32>) -> tensor<8x32xf32>
    %207 = "stablehlo.multiply"(%206, %198) : (tensor<8x32xf32>, tensor<8x32xf32>) -> tensor<8x32xf32>
    %208 = "stablehlo.add"(%207, %19) : (tensor<8x32xf32>, tensor<8x32xf32>) -> tensor<8x32xf32>
    %209 = "stablehlo.multiply"(%208, %198) : (tensor<8x32xf32>, tensor<8x32xf32>) -> tensor<8x32xf32>
    %210 = "stablehlo.add"(%209, %20) : (tensor<8x32xf32>, tensor<8x32xf32>) -> tensor<8x32xf32>
    %211 = "stablehlo.multiply"(%21, %198) : (tensor<8x32xf32>, tensor<8x32xf32>) -> tensor<8x32xf32>
    %212 = "stablehlo.add"(%211, %22) : (tensor<8x32xf32>, tensor<8x32xf32>) -> tensor<8x32xf32>
    %213 = "stablehlo.multiply"(%212, %198) : (tensor<8x32xf32>, tensor<8x32xf32>) -> tensor<8x32xf32>
    %214 = "stablehlo.add"(%213, %23) : (tensor<8x32xf32>, tensor<8x32xf32>) -> tensor<8x32xf32>
    %215 = "stablehlo.multiply"(%214, %198) : (tensor<8x32xf32>, tensor<8x32xf32>) -> tensor<8x32xf32>
    %216 = "stablehlo.add"(%215, %24) : (tensor<8x32xf32>, tensor<8x32xf32>) -> tensor<8x32xf32>
    %217 = "stablehlo.multiply"(%216, %198) : (tensor<8x32xf32>, tensor<8x32xf32>) -> tensor<8x32xf32>
    %218 = "stablehlo.add"(%217, %25) : (tensor<8x32xf32>, tensor<8x32xf32>) -> tensor<8x32xf32>
    %219 = "stablehlo.multiply"(%197, %210) : (tensor<8x32xf32>, tensor<8x32xf32>) -> tensor<8x32xf32>
    %220 = "stablehlo.divide"(%219, %218) : (tensor<8x32xf32>, tensor<8x32xf32>) -> tensor<8x32xf32>
    %221 = "stablehlo.clamp"(%26, %220, %9) : (tensor<8x32xf32>, tensor<8x32xf32>, tensor<8x32xf32>) -> tensor<8x32xf32>
    %222 = "stablehlo.add"(%221, %40) : (tensor<8x32xf32>, tensor<8x32xf32>) -> tensor<8x32xf32>
    %223 = "stablehlo.convert"(%33) : (tensor<1xf64>) -> tensor<1xf32>
    %224 = "stablehlo.reshape"(%223) : (tensor<1xf32>) -> tensor<f32>
    %225 = "stablehlo.broadcast_in_dim"(%224) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<8x32xf32>
    %226 = "stablehlo.multiply"(%222, %225) : (tensor<8x32xf32>, tensor<8x32xf32>) -> tensor<8x32xf32>
    %227 = "stablehlo.multiply"(%44, %44) : (tensor<8x32xf32>, tensor<8x32xf32>) -> tensor<8x32xf32>
    %228 = "stablehlo.convert"(%34) : (tensor<1xf64>) -> tensor<1xf32>
    %229 = "stablehlo.reshape"(%228) : (tensor<1xf32>) -> tensor<f32>
    %230 = "stablehlo.broadcast_in_dim"(%229) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<8x32xf32>
    %231 = "stablehlo.multiply"(%227, %230) : (tensor<8x32xf32>, tensor<8x32xf32>) -> tensor<8x32xf32>
    %232 = "stablehlo.exponential"(%231) : (tensor<8x32xf32>) -> tensor<8x32xf32>
    %233 = "stablehlo.convert"(%35) : (tensor<1xf64>) -> tensor<1xf32>
    %234 = "stablehlo.reshape"(%233) : (tensor<1xf32>) -> tensor<f32>
    %235 = "stablehlo.broadcast_in_dim"(%234) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<8x32xf32>
    %236 = "stablehlo.multiply"(%232, %235) : (tensor<8x32xf32>, tensor<8x32xf32>) -> tensor<8x32xf32>
    %237 = "stablehlo.multiply"(%44, %236) : (tensor<8x32xf32>, tensor<8x32xf32>) -> tensor<8x32xf32>
    %238 = "stablehlo.add"(%226, %237) : (tensor<8x32xf32>, tensor<8x32xf32>) -> tensor<8x32xf32>
    %239 = "stablehlo.multiply"(%189, %238) : (tensor<8x32xf32>, tensor<8x32xf32>) -> tensor<8x32xf32>
    %240 = "stablehlo.transpose"(%239) <{permutation = array<i64: 1, 0>}> : (tensor<8x32xf32>) -> tensor<32x8xf32>
    %241 = "stablehlo.dot_general"(%240, %arg6) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [0]>}> : (tensor<32x8xf32>, tensor<8x16xf32>) -> tensor<32x16xf32>
    %242 = "stablehlo.transpose"(%241) <{permutation = array<i64: 1, 0>}> : (tensor<32x16xf32>) -> tensor<16x32xf32>
    %243 = "stablehlo.reduce"(%239, %7) <{dimensions = array<i64: 0>}> ({
    ^bb0(%arg8: tensor<f32>, %arg9: tensor<f32>):
      %247 = "stablehlo.add"(%arg8, %arg9) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%247) : (tensor<f32>) -> ()
    }) : (tensor<8x32xf32>, tensor<f32>) -> tensor<32xf32>
    %244 = "stablehlo.reshape"(%243) : (tensor<32xf32>) -> tensor<1x32xf32>
    %245 = "stablehlo.reshape"(%244) : (tensor<1x32xf32>) -> tensor<32xf32>
    %246 = "stablehlo.transpose"(%242) <{permutation = array<i64: 1, 0>}> : (tensor<16x32xf32>) -> tensor<32x16xf32>
    "func.return"(%143, %246, %245, %191, %192, %173, %172) : (tensor<f32>, tensor<32x16xf32>, tensor<32xf32>, tensor<32xf32>, tensor<32xf32>, tensor<10x32xf32>, tensor<10xf32>) -> ()
  }) : () -> ()
}) : () -> ()
