"builtin.module"() ({
  "sdy.mesh"() <{mesh = #sdy.mesh<["dp"=2, "tp"=2]>, sym_name = "mesh"}> : () -> ()
  "func.func"() <{arg_attrs = [{dist.requires_grad, sdy.sharding = #sdy.sharding<@mesh, [{}, {}]>}, {dist.requires_grad, sdy.sharding = #sdy.sharding<@mesh, [{"tp"}, {}]>}, {dist.requires_grad, sdy.sharding = #sdy.sharding<@mesh, [{"tp"}, {}]>}, {dist.requires_grad, sdy.sharding = #sdy.sharding<@mesh, [{"tp"}, {}]>}, {dist.requires_grad, sdy.sharding = #sdy.sharding<@mesh, [{}, {"tp"}]>}, {dist.requires_grad, sdy.sharding = #sdy.sharding<@mesh, [{}, {}]>}, {dist.requires_grad, sdy.sharding = #sdy.sharding<@mesh, [{}, {}]>}, {dist.requires_grad, sdy.sharding = #sdy.sharding<@mesh, [{}, {}]>}, {dist.requires_grad, sdy.sharding = #sdy.sharding<@mesh, [{}]>}, {dist.requires_grad, sdy.sharding = #sdy.sharding<@mesh, [{}]>}, {dist.requires_grad, sdy.sharding = #sdy.sharding<@mesh, [{"tp"}, {}]>}, {dist.requires_grad, sdy.sharding = #sdy.sharding<@mesh, [{"tp"}, {}]>}, {dist.requires_grad, sdy.sharding = #sdy.sharding<@mesh, [{"tp"}, {}]>}, {dist.requires_grad, sdy.sharding = #sdy.sharding<@mesh, [{}, {"tp"}]>}, {dist.requires_grad, sdy.sharding = #sdy.sharding<@mesh, [{}, {}]>}, {dist.requires_grad, sdy.sharding = #sdy.sharding<@mesh, [{}, {}]>}, {dist.requires_grad, sdy.sharding = #sdy.sharding<@mesh, [{}, {}]>}, {dist.requires_grad, sdy.sharding = #sdy.sharding<@mesh, [{}]>}, {dist.requires_grad, sdy.sharding = #sdy.sharding<@mesh, [{}]>}, {dist.requires_grad, sdy.sharding = #sdy.sharding<@mesh, [{}]>}, {dist.requires_grad, sdy.sharding = #sdy.sharding<@mesh, [{"tp"}, {}]>}, {sdy.sharding = #sdy.sharding<@mesh, [{"dp"}, {}]>}, {sdy.sharding = #sdy.sharding<@mesh, [{"dp"}, {}]>}], function_type = (tensor<64x32xf32>, tensor<32x32xf32>, tensor<16x32xf32>, tensor<16x32xf32>, tensor<32x32xf32>, tensor<64x32xf32>, tensor<64x32xf32>, tensor<32x64xf32>, tensor<32xf32>, tensor<32xf32>, tensor<32x32xf32>, tensor<16x32xf32>, tensor<16x32xf32>, tensor<32x32xf32>, tensor<64x32xf32>, tensor<64x32xf32>, tensor<32x64xf32>, tensor<32xf32>, tensor<32xf32>, tensor<32xf32>, tensor<64x32xf32>, tensor<4x8xi64>, tensor<4x8xi64>) -> tensor<f32>, res_attrs = [{sdy.sharding = #sdy.sharding<@mesh, []>}], sym_name = "main"}> ({
  ^bb0(%arg0: tensor<64x32xf32>, %arg1: tensor<32x32xf32>, %arg2: tensor<16x32xf32>, %arg3: tensor<16x32xf32>, %arg4: tensor<32x32xf32>, %arg5: tensor<64x32xf32>, %arg6: tensor<64x32xf32>, %arg7: tensor<32x64xf32>, %arg8: tensor<32xf32>, %arg9: tensor<32xf32>, %arg10: tensor<32x32xf32>, %arg11: tensor<16x32xf32>, %arg12: tensor<16x32xf32>, %arg13: tensor<32x32xf32>, %arg14: tensor<64x32xf32>, %arg15: tensor<64x32xf32>, %arg16: tensor<32x64xf32>, %arg17: tensor<32xf32>, %arg18: tensor<32xf32>, %arg19: tensor<32xf32>, %arg20: tensor<64x32xf32>, %arg21: tensor<4x8xi64>, %arg22: tensor<4x8xi64>):
    %0 = "stablehlo.constant"() <{value = dense<0> : tensor<32xi64>}> : () -> tensor<32xi64>
    %1 = "stablehlo.constant"() <{value = dense<-100> : tensor<32xi64>}> : () -> tensor<32xi64>
    %2 = "stablehlo.constant"() <{value = dense<0> : tensor<8xi64>}> : () -> tensor<8xi64>
    %3 = "stablehlo.constant"() <{value = dense<1> : tensor<8xi64>}> : () -> tensor<8xi64>
    %4 = "stablehlo.constant"() <{value = dense<8> : tensor<i64>}> : () -> tensor<i64>
    %5 = "stablehlo.constant"() <{value = dense<1> : tensor<i64>}> : () -> tensor<i64>
    %6 = "stablehlo.constant"() <{value = dense<0> : tensor<i64>}> : () -> tensor<i64>
    %7 = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<4x4x8x8xf32>}> : () -> tensor<4x4x8x8xf32>
    %8 = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %9 = "stablehlo.constant"() <{value = dense<0xFF800000> : tensor<f32>}> : () -> tensor<f32>
    %10 = "stablehlo.constant"() <{value = dense<[1.000000e+00, 1.000000e-01, 0.00999999977, 1.000000e-03]> : tensor<4xf32>}> : () -> tensor<4xf32>
    %11 = "stablehlo.constant"() <{value = dense<5.65685415> : tensor<f32>}> : () -> tensor<f32>
    %12 = "stablehlo.constant"() <{value = dense<true> : tensor<i1>}> : () -> tensor<i1>
    %13 = "stablehlo.constant"() <{value = dense<1.000000e+00> : tensor<4x8x64xf32>}> : () -> tensor<4x8x64xf32>
    %14 = "stablehlo.constant"() <{value = dense<3.000000e+00> : tensor<4x8x64xf32>}> : () -> tensor<4x8x64xf32>
    %15 = "stablehlo.constant"() <{value = dense<5.000000e-01> : tensor<4x8x64xf32>}> : () -> tensor<4x8x64xf32>
    %16 = "stablehlo.constant"() <{value = dense<0.636619746> : tensor<4x8x64xf32>}> : () -> tensor<4x8x64xf32>
    %17 = "stablehlo.constant"() <{value = dense<4.471500e-02> : tensor<4x8x64xf32>}> : () -> tensor<4x8x64xf32>
    %18 = "arith.constant"() <{value = dense<1.000000e+00> : tensor<1xf64>}> : () -> tensor<1xf64>
    %19 = "arith.constant"() <{value = dense<2> : tensor<1xi64>}> : () -> tensor<1xi64>
    %20 = "arith.constant"() <{value = dense<32> : tensor<1xi64>}> : () -> tensor<1xi64>
    %21 = "arith.constant"() <{value = dense<9.9999999999999995E-7> : tensor<1xf64>}> : () -> tensor<1xf64>
    %22 = "arith.constant"() <{value = dense<0.59460355750136051> : tensor<1xf64>}> : () -> tensor<1xf64>
    %23 = "arith.constant"() <{value = dense<0xFFF0000000000000> : tensor<1xf64>}> : () -> tensor<1xf64>
    %24 = "arith.constant"() <{value = dense<-1.000000e+02> : tensor<1xf64>}> : () -> tensor<1xf64>
    %25 = "stablehlo.gather"(%arg0, %arg21) <{dimension_numbers = #stablehlo.gather<offset_dims = [2], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 2>, indices_are_sorted = false, slice_sizes = array<i64: 1, 32>}> : (tensor<64x32xf32>, tensor<4x8xi64>) -> tensor<4x8x32xf32>
    %26 = "stablehlo.convert"(%25) : (tensor<4x8x32xf32>) -> tensor<4x8x32xf32>
    %27 = "stablehlo.broadcast_in_dim"(%11) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<4x8x32xf32>
    %28 = "stablehlo.multiply"(%26, %27) : (tensor<4x8x32xf32>, tensor<4x8x32xf32>) -> tensor<4x8x32xf32>
    %29 = "stablehlo.convert"(%5) : (tensor<i64>) -> tensor<f64>
    %30 = "stablehlo.convert"(%4) : (tensor<i64>) -> tensor<f64>
    %31 = "stablehlo.divide"(%30, %29) : (tensor<f64>, tensor<f64>) -> tensor<f64>
    %32 = "stablehlo.ceil"(%31) : (tensor<f64>) -> tensor<f64>
    %33 = "stablehlo.convert"(%32) : (tensor<f64>) -> tensor<i64>
    %34 = "stablehlo.reshape"(%33) : (tensor<i64>) -> tensor<1xi64>
    %35 = "stablehlo.dynamic_iota"(%34) <{iota_dimension = 0 : i64}> : (tensor<1xi64>) -> tensor<8xi64>
    %36 = "stablehlo.multiply"(%35, %3) : (tensor<8xi64>, tensor<8xi64>) -> tensor<8xi64>
    %37 = "stablehlo.add"(%36, %2) : (tensor<8xi64>, tensor<8xi64>) -> tensor<8xi64>
    %38 = "stablehlo.add"(%37, %2) : (tensor<8xi64>, tensor<8xi64>) -> tensor<8xi64>
    %39 = "stablehlo.reshape"(%38) : (tensor<8xi64>) -> tensor<1x8xi64>
    %40 = "stablehlo.reshape"(%39) : (tensor<1x8xi64>) -> tensor<1x1x8xi64>
    %41 = "stablehlo.reshape"(%40) : (tensor<1x1x8xi64>) -> tensor<1x1x8x1xi64>
    %42 = "stablehlo.reshape"(%40) : (tensor<1x1x8xi64>) -> tensor<1x1x1x8xi64>
    %43 = "stablehlo.broadcast_in_dim"(%42) <{broadcast_dimensions = array<i64: 0, 1, 2, 3>}> : (tensor<1x1x1x8xi64>) -> tensor<1x1x8x8xi64>
    %44 = "stablehlo.broadcast_in_dim"(%41) <{broadcast_dimensions = array<i64: 0, 1, 2, 3>}> : (tensor<1x1x8x1xi64>) -> tensor<1x1x8x8xi64>
    %45 = "stablehlo.compare"(%43, %44) <{compare_type = #stablehlo<comparison_type SIGNED>, comparison_direction = #stablehlo<comparison_direction LE>}> : (tensor<1x1x8x8xi64>, tensor<1x1x8x8xi64>) -> tensor<1x1x8x8xi1>
    %46 = "stablehlo.broadcast_in_dim"(%45) <{broadcast_dimensions = array<i64: 0, 1, 2, 3>}> : (tensor<1x1x8x8xi1>) -> tensor<4x1x8x8xi1>
    %47 = "stablehlo.reshape"(%39) : (tensor<1x8xi64>) -> tensor<1x8x1xi64>
    %48 = "stablehlo.convert"(%47) : (tensor<1x8x1xi64>) -> tensor<1x8x1xf32>
    %49 = "stablehlo.broadcast_in_dim"(%48) <{broadcast_dimensions = array<i64: 0, 1, 2>}> : (tensor<1x8x1xf32>) -> tensor<1x8x4xf32>
    %50 = "stablehlo.broadcast_in_dim"(%10) <{broadcast_dimensions = array<i64: 2>}> : (tensor<4xf32>) -> tensor<1x8x4xf32>
    %51 = "stablehlo.multiply"(%49, %50) : (tensor<1x8x4xf32>, tensor<1x8x4xf32>) -> tensor<1x8x4xf32>
    %52 = "stablehlo.concatenate"(%51, %51) <{dimension = 2 : i64}> : (tensor<1x8x4xf32>, tensor<1x8x4xf32>) -> tensor<1x8x8xf32>
    %53 = "stablehlo.cosine"(%52) : (tensor<1x8x8xf32>) -> tensor<1x8x8xf32>
    %54 = "stablehlo.convert"(%18) : (tensor<1xf64>) -> tensor<1xf32>
    %55 = "stablehlo.reshape"(%54) : (tensor<1xf32>) -> tensor<f32>
    %56 = "stablehlo.broadcast_in_dim"(%55) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<1x8x8xf32>
    %57 = "stablehlo.multiply"(%53, %56) : (tensor<1x8x8xf32>, tensor<1x8x8xf32>) -> tensor<1x8x8xf32>
    %58 = "stablehlo.sine"(%52) : (tensor<1x8x8xf32>) -> tensor<1x8x8xf32>
    %59 = "stablehlo.multiply"(%58, %56) : (tensor<1x8x8xf32>, tensor<1x8x8xf32>) -> tensor<1x8x8xf32>
    %60 = "stablehlo.convert"(%19) : (tensor<1xi64>) -> tensor<1xf32>
    %61 = "stablehlo.reshape"(%60) : (tensor<1xf32>) -> tensor<f32>
    %62 = "stablehlo.broadcast_in_dim"(%61) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<4x8x32xf32>
    %63 = "stablehlo.power"(%28, %62) : (tensor<4x8x32xf32>, tensor<4x8x32xf32>) -> tensor<4x8x32xf32>
    %64 = "stablehlo.reduce"(%63, %8) <{dimensions = array<i64: 2>}> ({
    ^bb0(%arg51: tensor<f32>, %arg52: tensor<f32>):
      %396 = "stablehlo.add"(%arg51, %arg52) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%396) : (tensor<f32>) -> ()
    }) : (tensor<4x8x32xf32>, tensor<f32>) -> tensor<4x8xf32>
    %65 = "stablehlo.reshape"(%64) : (tensor<4x8xf32>) -> tensor<4x8x1xf32>
    %66 = "stablehlo.convert"(%20) : (tensor<1xi64>) -> tensor<1xf32>
    %67 = "stablehlo.reshape"(%66) : (tensor<1xf32>) -> tensor<f32>
    %68 = "stablehlo.broadcast_in_dim"(%67) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<4x8x1xf32>
    %69 = "stablehlo.divide"(%65, %68) : (tensor<4x8x1xf32>, tensor<4x8x1xf32>) -> tensor<4x8x1xf32>
    %70 = "stablehlo.convert"(%21) : (tensor<1xf64>) -> tensor<1xf32>
    %71 = "stablehlo.reshape"(%70) : (tensor<1xf32>) -> tensor<f32>
    %72 = "stablehlo.broadcast_in_dim"(%71) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<4x8x1xf32>
    %73 = "stablehlo.add"(%69, %72) : (tensor<4x8x1xf32>, tensor<4x8x1xf32>) -> tensor<4x8x1xf32>
    %74 = "stablehlo.rsqrt"(%73) : (tensor<4x8x1xf32>) -> tensor<4x8x1xf32>
    %75 = "stablehlo.broadcast_in_dim"(%74) <{broadcast_dimensions = array<i64: 0, 1, 2>}> : (tensor<4x8x1xf32>) -> tensor<4x8x32xf32>
    %76 = "stablehlo.multiply"(%28, %75) : (tensor<4x8x32xf32>, tensor<4x8x32xf32>) -> tensor<4x8x32xf32>
    %77 = "stablehlo.broadcast_in_dim"(%55) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<32xf32>
    %78 = "stablehlo.add"(%arg8, %77) : (tensor<32xf32>, tensor<32xf32>) -> tensor<32xf32>
    %79 = "stablehlo.broadcast_in_dim"(%78) <{broadcast_dimensions = array<i64: 2>}> : (tensor<32xf32>) -> tensor<4x8x32xf32>
    %80 = "stablehlo.multiply"(%76, %79) : (tensor<4x8x32xf32>, tensor<4x8x32xf32>) -> tensor<4x8x32xf32>
    %81 = "stablehlo.transpose"(%arg1) <{permutation = array<i64: 1, 0>}> : (tensor<32x32xf32>) -> tensor<32x32xf32>
    %82 = "stablehlo.reshape"(%80) : (tensor<4x8x32xf32>) -> tensor<32x32xf32>
    %83 = "stablehlo.dot_general"(%82, %81) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [0]>}> : (tensor<32x32xf32>, tensor<32x32xf32>) -> tensor<32x32xf32>
    %84 = "stablehlo.reshape"(%83) : (tensor<32x32xf32>) -> tensor<4x8x32xf32>
    %85 = "stablehlo.reshape"(%84) : (tensor<4x8x32xf32>) -> tensor<4x8x4x8xf32>
    %86 = "stablehlo.transpose"(%85) <{permutation = array<i64: 0, 2, 1, 3>}> : (tensor<4x8x4x8xf32>) -> tensor<4x4x8x8xf32>
    %87 = "stablehlo.transpose"(%arg2) <{permutation = array<i64: 1, 0>}> : (tensor<16x32xf32>) -> tensor<32x16xf32>
    %88 = "stablehlo.dot_general"(%82, %87) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [0]>}> : (tensor<32x32xf32>, tensor<32x16xf32>) -> tensor<32x16xf32>
    %89 = "stablehlo.reshape"(%88) : (tensor<32x16xf32>) -> tensor<4x8x16xf32>
    %90 = "stablehlo.reshape"(%89) : (tensor<4x8x16xf32>) -> tensor<4x8x2x8xf32>
    %91 = "stablehlo.transpose"(%90) <{permutation = array<i64: 0, 2, 1, 3>}> : (tensor<4x8x2x8xf32>) -> tensor<4x2x8x8xf32>
    %92 = "stablehlo.transpose"(%arg3) <{permutation = array<i64: 1, 0>}> : (tensor<16x32xf32>) -> tensor<32x16xf32>
    %93 = "stablehlo.dot_general"(%82, %92) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [0]>}> : (tensor<32x32xf32>, tensor<32x16xf32>) -> tensor<32x16xf32>
    %94 = "stablehlo.reshape"(%93) : (tensor<32x16xf32>) -> tensor<4x8x16xf32>
    %95 = "stablehlo.reshape"(%94) : (tensor<4x8x16xf32>) -> tensor<4x8x2x8xf32>
    %96 = "stablehlo.transpose"(%95) <{permutation = array<i64: 0, 2, 1, 3>}> : (tensor<4x8x2x8xf32>) -> tensor<4x2x8x8xf32>
    %97 = "stablehlo.reshape"(%57) : (tensor<1x8x8xf32>) -> tensor<1x1x8x8xf32>
    %98 = "stablehlo.reshape"(%59) : (tensor<1x8x8xf32>) -> tensor<1x1x8x8xf32>
    %99 = "stablehlo.broadcast_in_dim"(%97) <{broadcast_dimensions = array<i64: 0, 1, 2, 3>}> : (tensor<1x1x8x8xf32>) -> tensor<4x4x8x8xf32>
    %100 = "stablehlo.multiply"(%86, %99) : (tensor<4x4x8x8xf32>, tensor<4x4x8x8xf32>) -> tensor<4x4x8x8xf32>
    %101 = "stablehlo.slice"(%86) <{limit_indices = array<i64: 4, 4, 8, 4>, start_indices = array<i64: 0, 0, 0, 0>, strides = array<i64: 1, 1, 1, 1>}> : (tensor<4x4x8x8xf32>) -> tensor<4x4x8x4xf32>
    %102 = "stablehlo.slice"(%86) <{limit_indices = array<i64: 4, 4, 8, 8>, start_indices = array<i64: 0, 0, 0, 4>, strides = array<i64: 1, 1, 1, 1>}> : (tensor<4x4x8x8xf32>) -> tensor<4x4x8x4xf32>
    %103 = "stablehlo.negate"(%102) : (tensor<4x4x8x4xf32>) -> tensor<4x4x8x4xf32>
    %104 = "stablehlo.concatenate"(%103, %101) <{dimension = 3 : i64}> : (tensor<4x4x8x4xf32>, tensor<4x4x8x4xf32>) -> tensor<4x4x8x8xf32>
    %105 = "stablehlo.broadcast_in_dim"(%98) <{broadcast_dimensions = array<i64: 0, 1, 2, 3>}> : (tensor<1x1x8x8xf32>) -> tensor<4x4x8x8xf32>
    %106 = "stablehlo.multiply"(%104, %105) : (tensor<4x4x8x8xf32>, tensor<4x4x8x8xf32>) -> tensor<4x4x8x8xf32>
    %107 = "stablehlo.add"(%100, %106) : (tensor<4x4x8x8xf32>, tensor<4x4x8x8xf32>) -> tensor<4x4x8x8xf32>
    %108 = "stablehlo.broadcast_in_dim"(%97) <{broadcast_dimensions = array<i64: 0, 1, 2, 3>}> : (tensor<1x1x8x8xf32>) -> tensor<4x2x8x8xf32>
    %109 = "stablehlo.multiply"(%91, %108) : (tensor<4x2x8x8xf32>, tensor<4x2x8x8xf32>) -> tensor<4x2x8x8xf32>
    %110 = "stablehlo.slice"(%91) <{limit_indices = array<i64: 4, 2, 8, 4>, start_indices = array<i64: 0, 0, 0, 0>, strides = array<i64: 1, 1, 1, 1>}> : (tensor<4x2x8x8xf32>) -> tensor<4x2x8x4xf32>
    %111 = "stablehlo.slice"(%91) <{limit_indices = array<i64: 4, 2, 8, 8>, start_indices = array<i64: 0, 0, 0, 4>, strides = array<i64: 1, 1, 1, 1>}> : (tensor<4x2x8x8xf32>) -> tensor<4x2x8x4xf32>
    %112 = "stablehlo.negate"(%111) : (tensor<4x2x8x4xf32>) -> tensor<4x2x8x4xf32>
    %113 = "stablehlo.concatenate"(%112, %110) <{dimension = 3 : i64}> : (tensor<4x2x8x4xf32>, tensor<4x2x8x4xf32>) -> tensor<4x2x8x8xf32>
    %114 = "stablehlo.broadcast_in_dim"(%98) <{broadcast_dimensions = array<i64: 0, 1, 2, 3>}> : (tensor<1x1x8x8xf32>) -> tensor<4x2x8x8xf32>
    %115 = "stablehlo.multiply"(%113, %114) : (tensor<4x2x8x8xf32>, tensor<4x2x8x8xf32>) -> tensor<4x2x8x8xf32>
    %116 = "stablehlo.add"(%109, %115) : (tensor<4x2x8x8xf32>, tensor<4x2x8x8xf32>) -> tensor<4x2x8x8xf32>
    %117 = "stablehlo.reshape"(%116) : (tensor<4x2x8x8xf32>) -> tensor<4x2x1x8x8xf32>
    %118 = "stablehlo.broadcast_in_dim"(%117) <{broadcast_dimensions = array<i64: 0, 1, 2, 3, 4>}> : (tensor<4x2x1x8x8xf32>) -> tensor<4x2x2x8x8xf32>
    %119 = "stablehlo.reshape"(%118) : (tensor<4x2x2x8x8xf32>) -> tensor<4x4x8x8xf32>
    %120 = "stablehlo.reshape"(%96) : (tensor<4x2x8x8xf32>) -> tensor<4x2x1x8x8xf32>
    %121 = "stablehlo.broadcast_in_dim"(%120) <{broadcast_dimensions = array<i64: 0, 1, 2, 3, 4>}> : (tensor<4x2x1x8x8xf32>) -> tensor<4x2x2x8x8xf32>
    %122 = "stablehlo.reshape"(%121) : (tensor<4x2x2x8x8xf32>) -> tensor<4x4x8x8xf32>
    %123 = "stablehlo.broadcast_in_dim"(%46) <{broadcast_dimensions = array<i64: 0, 1, 2, 3>}> : (tensor<4x1x8x8xi1>) -> tensor<4x1x8x8xi1>
    %124 = "stablehlo.broadcast_in_dim"(%8) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<4x1x8x8xf32>
    %125 = "stablehlo.broadcast_in_dim"(%9) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<4x1x8x8xf32>
    %126 = "stablehlo.select"(%123, %124, %125) : (tensor<4x1x8x8xi1>, tensor<4x1x8x8xf32>, tensor<4x1x8x8xf32>) -> tensor<4x1x8x8xf32>
    %127 = "stablehlo.convert"(%22) : (tensor<1xf64>) -> tensor<1xf32>
    %128 = "stablehlo.reshape"(%127) : (tensor<1xf32>) -> tensor<f32>
    %129 = "stablehlo.broadcast_in_dim"(%128) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<4x4x8x8xf32>
    %130 = "stablehlo.multiply"(%107, %129) : (tensor<4x4x8x8xf32>, tensor<4x4x8x8xf32>) -> tensor<4x4x8x8xf32>
    %131 = "stablehlo.transpose"(%119) <{permutation = array<i64: 0, 1, 3, 2>}> : (tensor<4x4x8x8xf32>) -> tensor<4x4x8x8xf32>
    %132 = "stablehlo.multiply"(%131, %129) : (tensor<4x4x8x8xf32>, tensor<4x4x8x8xf32>) -> tensor<4x4x8x8xf32>
    %133 = "stablehlo.reshape"(%130) : (tensor<4x4x8x8xf32>) -> tensor<16x8x8xf32>
    %134 = "stablehlo.reshape"(%132) : (tensor<4x4x8x8xf32>) -> tensor<16x8x8xf32>
    %135 = "stablehlo.broadcast_in_dim"(%134) <{broadcast_dimensions = array<i64: 0, 1, 2>}> : (tensor<16x8x8xf32>) -> tensor<16x8x8xf32>
    %136 = "stablehlo.dot_general"(%133, %135) <{dot_dimension_numbers = #stablehlo.dot<lhs_batching_dimensions = [0], rhs_batching_dimensions = [0], lhs_contracting_dimensions = [2], rhs_contracting_dimensions = [1]>}> : (tensor<16x8x8xf32>, tensor<16x8x8xf32>) -> tensor<16x8x8xf32>
    %137 = "stablehlo.reshape"(%136) : (tensor<16x8x8xf32>) -> tensor<4x4x8x8xf32>
    %138 = "stablehlo.broadcast_in_dim"(%126) <{broadcast_dimensions = array<i64: 0, 1, 2, 3>}> : (tensor<4x1x8x8xf32>) -> tensor<4x4x8x8xf32>
    %139 = "stablehlo.add"(%137, %138) : (tensor<4x4x8x8xf32>, tensor<4x4x8x8xf32>) -> tensor<4x4x8x8xf32>
    %140 = "stablehlo.reduce"(%139, %9) <{dimensions = array<i64: 3>}> ({
    ^bb0(%arg49: tensor<f32>, %arg50: tensor<f32>):
      %395 = "stablehlo.maximum"(%arg49, %arg50) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%395) : (tensor<f32>) -> ()
    }) : (tensor<4x4x8x8xf32>, tensor<f32>) -> tensor<4x4x8xf32>
    %141 = "stablehlo.reshape"(%140) : (tensor<4x4x8xf32>) -> tensor<4x4x8x1xf32>
    %142 = "stablehlo.broadcast_in_dim"(%141) <{broadcast_dimensions = array<i64: 0, 1, 2, 3>}> : (tensor<4x4x8x1xf32>) -> tensor<4x4x8x8xf32>
    %143 = "stablehlo.subtract"(%139, %142) : (tensor<4x4x8x8xf32>, tensor<4x4x8x8xf32>) -> tensor<4x4x8x8xf32>
    %144 = "stablehlo.exponential"(%143) : (tensor<4x4x8x8xf32>) -> tensor<4x4x8x8xf32>
    %145 = "stablehlo.reduce"(%144, %8) <{dimensions = array<i64: 3>}> ({
    ^bb0(%arg47: tensor<f32>, %arg48: tensor<f32>):
      %394 = "stablehlo.add"(%arg47, %arg48) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%394) : (tensor<f32>) -> ()
    }) : (tensor<4x4x8x8xf32>, tensor<f32>) -> tensor<4x4x8xf32>
    %146 = "stablehlo.reshape"(%145) : (tensor<4x4x8xf32>) -> tensor<4x4x8x1xf32>
    %147 = "stablehlo.broadcast_in_dim"(%146) <{broadcast_dimensions = array<i64: 0, 1, 2, 3>}> : (tensor<4x4x8x1xf32>) -> tensor<4x4x8x8xf32>
    %148 = "stablehlo.divide"(%144, %147) : (tensor<4x4x8x8xf32>, tensor<4x4x8x8xf32>) -> tensor<4x4x8x8xf32>
    %149 = "stablehlo.convert"(%23) : (tensor<1xf64>) -> tensor<1xf64>
    %150 = "stablehlo.reshape"(%149) : (tensor<1xf64>) -> tensor<f64>
    %151 = "stablehlo.convert"(%150) : (tensor<f64>) -> tensor<f32>
    %152 = "stablehlo.broadcast_in_dim"(%151) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<4x4x8x8xf32>
    %153 = "stablehlo.compare"(%139, %152) <{compare_type = #stablehlo<comparison_type FLOAT>, comparison_direction = #stablehlo<comparison_direction EQ>}> : (tensor<4x4x8x8xf32>, tensor<4x4x8x8xf32>) -> tensor<4x4x8x8xi1>
    %154 = "stablehlo.reduce"(%153, %12) <{dimensions = array<i64: 3>}> ({
    ^bb0(%arg45: tensor<i1>, %arg46: tensor<i1>):
      %393 = "stablehlo.and"(%arg45, %arg46) : (tensor<i1>, tensor<i1>) -> tensor<i1>
      "stablehlo.return"(%393) : (tensor<i1>) -> ()
    }) : (tensor<4x4x8x8xi1>, tensor<i1>) -> tensor<4x4x8xi1>
    %155 = "stablehlo.reshape"(%154) : (tensor<4x4x8xi1>) -> tensor<4x4x8x1xi1>
    %156 = "stablehlo.broadcast_in_dim"(%155) <{broadcast_dimensions = array<i64: 0, 1, 2, 3>}> : (tensor<4x4x8x1xi1>) -> tensor<4x4x8x8xi1>
    %157 = "stablehlo.broadcast_in_dim"(%7) <{broadcast_dimensions = array<i64: 0, 1, 2, 3>}> : (tensor<4x4x8x8xf32>) -> tensor<4x4x8x8xf32>
    %158 = "stablehlo.broadcast_in_dim"(%148) <{broadcast_dimensions = array<i64: 0, 1, 2, 3>}> : (tensor<4x4x8x8xf32>) -> tensor<4x4x8x8xf32>
    %159 = "stablehlo.select"(%156, %157, %158) : (tensor<4x4x8x8xi1>, tensor<4x4x8x8xf32>, tensor<4x4x8x8xf32>) -> tensor<4x4x8x8xf32>
    %160 = "stablehlo.reshape"(%159) : (tensor<4x4x8x8xf32>) -> tensor<16x8x8xf32>
    %161 = "stablehlo.reshape"(%122) : (tensor<4x4x8x8xf32>) -> tensor<16x8x8xf32>
    %162 = "stablehlo.broadcast_in_dim"(%161) <{broadcast_dimensions = array<i64: 0, 1, 2>}> : (tensor<16x8x8xf32>) -> tensor<16x8x8xf32>
    %163 = "stablehlo.dot_general"(%160, %162) <{dot_dimension_numbers = #stablehlo.dot<lhs_batching_dimensions = [0], rhs_batching_dimensions = [0], lhs_contracting_dimensions = [2], rhs_contracting_dimensions = [1]>}> : (tensor<16x8x8xf32>, tensor<16x8x8xf32>) -> tensor<16x8x8xf32>
    %164 = "stablehlo.reshape"(%163) : (tensor<16x8x8xf32>) -> tensor<4x4x8x8xf32>
    %165 = "stablehlo.transpose"(%164) <{permutation = array<i64: 2, 0, 1, 3>}> : (tensor<4x4x8x8xf32>) -> tensor<8x4x4x8xf32>
    %166 = "stablehlo.transpose"(%165) <{permutation = array<i64: 1, 2, 0, 3>}> : (tensor<8x4x4x8xf32>) -> tensor<4x4x8x8xf32>
    %167 = "stablehlo.reshape"(%166) : (tensor<4x4x8x8xf32>) -> tensor<4x4x8x8xf32>
    %168 = "stablehlo.transpose"(%167) <{permutation = array<i64: 0, 2, 1, 3>}> : (tensor<4x4x8x8xf32>) -> tensor<4x8x4x8xf32>
    %169 = "stablehlo.reshape"(%168) : (tensor<4x8x4x8xf32>) -> tensor<4x8x32xf32>
    %170 = "stablehlo.transpose"(%arg4) <{permutation = array<i64: 1, 0>}> : (tensor<32x32xf32>) -> tensor<32x32xf32>
    %171 = "stablehlo.reshape"(%169) : (tensor<4x8x32xf32>) -> tensor<4x8x32xf32>
    %172 = "stablehlo.broadcast_in_dim"(%170) <{broadcast_dimensions = array<i64: 1, 2>}> : (tensor<32x32xf32>) -> tensor<4x32x32xf32>
    %173 = "stablehlo.reshape"(%172) : (tensor<4x32x32xf32>) -> tensor<4x32x32xf32>
    %174 = "stablehlo.broadcast_in_dim"(%173) <{broadcast_dimensions = array<i64: 0, 1, 2>}> : (tensor<4x32x32xf32>) -> tensor<4x32x32xf32>
    %175 = "stablehlo.dot_general"(%171, %174) <{dot_dimension_numbers = #stablehlo.dot<lhs_batching_dimensions = [0], rhs_batching_dimensions = [0], lhs_contracting_dimensions = [2], rhs_contracting_dimensions = [1]>}> : (tensor<4x8x32xf32>, tensor<4x32x32xf32>) -> tensor<4x8x32xf32>
    %176 = "stablehlo.reshape"(%175) : (tensor<4x8x32xf32>) -> tensor<4x8x32xf32>
    %177 = "stablehlo.add"(%28, %176) : (tensor<4x8x32xf32>, tensor<4x8x32xf32>) -> tensor<4x8x32xf32>
    %178 = "stablehlo.power"(%177, %62) : (tensor<4x8x32xf32>, tensor<4x8x32xf32>) -> tensor<4x8x32xf32>
    %179 = "stablehlo.reduce"(%178, %8) <{dimensions = array<i64: 2>}> ({
    ^bb0(%arg43: tensor<f32>, %arg44: tensor<f32>):
      %392 = "stablehlo.add"(%arg43, %arg44) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%392) : (tensor<f32>) -> ()
    }) : (tensor<4x8x32xf32>, tensor<f32>) -> tensor<4x8xf32>
    %180 = "stablehlo.reshape"(%179) : (tensor<4x8xf32>) -> tensor<4x8x1xf32>
    %181 = "stablehlo.divide"(%180, %68) : (tensor<4x8x1xf32>, tensor<4x8x1xf32>) -> tensor<4x8x1xf32>
    %182 = "stablehlo.add"(%181, %72) : (tensor<4x8x1xf32>, tensor<4x8x1xf32>) -> tensor<4x8x1xf32>
    %183 = "stablehlo.rsqrt"(%182) : (tensor<4x8x1xf32>) -> tensor<4x8x1xf32>
    %184 = "stablehlo.broadcast_in_dim"(%183) <{broadcast_dimensions = array<i64: 0, 1, 2>}> : (tensor<4x8x1xf32>) -> tensor<4x8x32xf32>
    %185 = "stablehlo.multiply"(%177, %184) : (tensor<4x8x32xf32>, tensor<4x8x32xf32>) -> tensor<4x8x32xf32>
    %186 = "stablehlo.add"(%arg9, %77) : (tensor<32xf32>, tensor<32xf32>) -> tensor<32xf32>
    %187 = "stablehlo.broadcast_in_dim"(%186) <{broadcast_dimensions = array<i64: 2>}> : (tensor<32xf32>) -> tensor<4x8x32xf32>
    %188 = "stablehlo.multiply"(%185, %187) : (tensor<4x8x32xf32>, tensor<4x8x32xf32>) -> tensor<4x8x32xf32>
    %189 = "stablehlo.transpose"(%arg5) <{permutation = array<i64: 1, 0>}> : (tensor<64x32xf32>) -> tensor<32x64xf32>
    %190 = "stablehlo.reshape"(%188) : (tensor<4x8x32xf32>) -> tensor<32x32xf32>
    %191 = "stablehlo.dot_general"(%190, %189) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [0]>}> : (tensor<32x32xf32>, tensor<32x64xf32>) -> tensor<32x64xf32>
    %192 = "stablehlo.reshape"(%191) : (tensor<32x64xf32>) -> tensor<4x8x64xf32>
    %193 = "stablehlo.multiply"(%192, %15) : (tensor<4x8x64xf32>, tensor<4x8x64xf32>) -> tensor<4x8x64xf32>
    %194 = "stablehlo.sqrt"(%16) : (tensor<4x8x64xf32>) -> tensor<4x8x64xf32>
    %195 = "stablehlo.power"(%192, %14) : (tensor<4x8x64xf32>, tensor<4x8x64xf32>) -> tensor<4x8x64xf32>
    %196 = "stablehlo.multiply"(%17, %195) : (tensor<4x8x64xf32>, tensor<4x8x64xf32>) -> tensor<4x8x64xf32>
    %197 = "stablehlo.add"(%192, %196) : (tensor<4x8x64xf32>, tensor<4x8x64xf32>) -> tensor<4x8x64xf32>
    %198 = "stablehlo.multiply"(%194, %197) : (tensor<4x8x64xf32>, tensor<4x8x64xf32>) -> tensor<4x8x64xf32>
    %199 = "stablehlo.tanh"(%198) : (tensor<4x8x64xf32>) -> tensor<4x8x64xf32>
    %200 = "stablehlo.add"(%199, %13) : (tensor<4x8x64xf32>, tensor<4x8x64xf32>) -> tensor<4x8x64xf32>
    %201 = "stablehlo.multiply"(%200, %193) : (tensor<4x8x64xf32>, tensor<4x8x64xf32>) -> tensor<4x8x64xf32>
    %202 = "stablehlo.transpose"(%arg6) <{permutation = array<i64: 1, 0>}> : (tensor<64x32xf32>) -> tensor<32x64xf32>
    %203 = "stablehlo.dot_general"(%190, %202) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [0]>}> : (tensor<32x32xf32>, tensor<32x64xf32>) -> tensor<32x64xf32>
    %204 = "stablehlo.reshape"(%203) : (tensor<32x64xf32>) -> tensor<4x8x64xf32>
    %205 = "stablehlo.multiply"(%201, %204) : (tensor<4x8x64xf32>, tensor<4x8x64xf32>) -> tensor<4x8x64xf32>
    %206 = "stablehlo.transpose"(%arg7) <{permutation = array<i64: 1, 0>}> : (tensor<32x64xf32>) -> tensor<64x32xf32>
    %207 = "stablehlo.reshape"(%205) : (tensor<4x8x64xf32>) -> tensor<32x64xf32>
    %208 = "stablehlo.dot_general"(%207, %206) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [0]>}> : (tensor<32x64xf32>, tensor<64x32xf32>) -> tensor<32x32xf32>
    %209 = "stablehlo.reshape"(%208) : (tensor<32x32xf32>) -> tensor<4x8x32xf32>
    %210 = "stablehlo.add"(%177, %209) : (tensor<4x8x32xf32>, tensor<4x8x32xf32>) -> tensor<4x8x32xf32>
    %211 = "stablehlo.power"(%210, %62) : (tensor<4x8x32xf32>, tensor<4x8x32xf32>) -> tensor<4x8x32xf32>
    %212 = "stablehlo.reduce"(%211, %8) <{dimensions = array<i64: 2>}> ({
    ^bb0(%arg41: tensor<f32>, %arg42: tensor<f32>):
      %391 = "stablehlo.add"(%arg41, %arg42) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%391) : (tensor<f32>) -> ()
    }) : (tensor<4x8x32xf32>, tensor<f32>) -> tensor<4x8xf32>
    %213 = "stablehlo.reshape"(%212) : (tensor<4x8xf32>) -> tensor<4x8x1xf32>
    %214 = "stablehlo.divide"(%213, %68) : (tensor<4x8x1xf32>, tensor<4x8x1xf32>) -> tensor<4x8x1xf32>
    %215 = "stablehlo.add"(%214, %72) : (tensor<4x8x1xf32>, tensor<4x8x1xf32>) -> tensor<4x8x1xf32>
    %216 = "stablehlo.rsqrt"(%215) : (tensor<4x8x1xf32>) -> tensor<4x8x1xf32>
    %217 = "stablehlo.broadcast_in_dim"(%216) <{broadcast_dimensions = array<i64: 0, 1, 2>}> : (tensor<4x8x1xf32>) -> tensor<4x8x32xf32>
    %218 = "stablehlo.multiply"(%210, %217) : (tensor<4x8x32xf32>, tensor<4x8x32xf32>) -> tensor<4x8x32xf32>
    %219 = "stablehlo.add"(%arg17, %77) : (tensor<32xf32>, tensor<32xf32>) -> tensor<32xf32>
    %220 = "stablehlo.broadcast_in_dim"(%219) <{broadcast_dimensions = array<i64: 2>}> : (tensor<32xf32>) -> tensor<4x8x32xf32>
    %221 = "stablehlo.multiply"(%218, %220) : (tensor<4x8x32xf32>, tensor<4x8x32xf32>) -> tensor<4x8x32xf32>
    %222 = "stablehlo.transpose"(%arg10) <{permutation = array<i64: 1, 0>}> : (tensor<32x32xf32>) -> tensor<32x32xf32>
    %223 = "stablehlo.reshape"(%221) : (tensor<4x8x32xf32>) -> tensor<32x32xf32>
    %224 = "stablehlo.dot_general"(%223, %222) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [0]>}> : (tensor<32x32xf32>, tensor<32x32xf32>) -> tensor<32x32xf32>
    %225 = "stablehlo.reshape"(%224) : (tensor<32x32xf32>) -> tensor<4x8x32xf32>
    %226 = "stablehlo.reshape"(%225) : (tensor<4x8x32xf32>) -> tensor<4x8x4x8xf32>
    %227 = "stablehlo.transpose"(%226) <{permutation = array<i64: 0, 2, 1, 3>}> : (tensor<4x8x4x8xf32>) -> tensor<4x4x8x8xf32>
    %228 = "stablehlo.transpose"(%arg11) <{permutation = array<i64: 1, 0>}> : (tensor<16x32xf32>) -> tensor<32x16xf32>
    %229 = "stablehlo.dot_general"(%223, %228) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [0]>}> : (tensor<32x32xf32>, tensor<32x16xf32>) -> tensor<32x16xf32>
    %230 = "stablehlo.reshape"(%229) : (tensor<32x16xf32>) -> tensor<4x8x16xf32>
    %231 = "stablehlo.reshape"(%230) : (tensor<4x8x16xf32>) -> tensor<4x8x2x8xf32>
    %232 = "stablehlo.transpose"(%231) <{permutation = array<i64: 0, 2, 1, 3>}> : (tensor<4x8x2x8xf32>) -> tensor<4x2x8x8xf32>
    %233 = "stablehlo.transpose"(%arg12) <{permutation = array<i64: 1, 0>}> : (tensor<16x32xf32>) -> tensor<32x16xf32>
    %234 = "stablehlo.dot_general"(%223, %233) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [0]>}> : (tensor<32x32xf32>, tensor<32x16xf32>) -> tensor<32x16xf32>
    %235 = "stablehlo.reshape"(%234) : (tensor<32x16xf32>) -> tensor<4x8x16xf32>
    %236 = "stablehlo.reshape"(%235) : (tensor<4x8x16xf32>) -> tensor<4x8x2x8xf32>
    %237 = "stablehlo.transpose"(%236) <{permutation = array<i64: 0, 2, 1, 3>}> : (tensor<4x8x2x8xf32>) -> tensor<4x2x8x8xf32>
    %238 = "stablehlo.multiply"(%227, %99) : (tensor<4x4x8x8xf32>, tensor<4x4x8x8xf32>) -> tensor<4x4x8x8xf32>
    %239 = "stablehlo.slice"(%227) <{limit_indices = array<i64: 4, 4, 8, 4>, start_indices = array<i64: 0, 0, 0, 0>, strides = array<i64: 1, 1, 1, 1>}> : (tensor<4x4x8x8xf32>) -> tensor<4x4x8x4xf32>
    %240 = "stablehlo.slice"(%227) <{limit_indices = array<i64: 4, 4, 8, 8>, start_indices = array<i64: 0, 0, 0, 4>, strides = array<i64: 1, 1, 1, 1>}> : (tensor<4x4x8x8xf32>) -> tensor<4x4x8x4xf32>
    %241 = "stablehlo.negate"(%240) : (tensor<4x4x8x4xf32>) -> tensor<4x4x8x4xf32>
    %242 = "stablehlo.concatenate"(%241, %239) <{dimension = 3 : i64}> : (tensor<4x4x8x4xf32>, tensor<4x4x8x4xf32>) -> tensor<4x4x8x8xf32>
    %243 = "stablehlo.multiply"(%242, %105) : (tensor<4x4x8x8xf32>, tensor<4x4x8x8xf32>) -> tensor<4x4x8x8xf32>
    %244 = "stablehlo.add"(%238, %243) : (tensor<4x4x8x8xf32>, tensor<4x4x8x8xf32>) -> tensor<4x4x8x8xf32>
    %245 = "stablehlo.multiply"(%232, %108) : (tensor<4x2x8x8xf32>, tensor<4x2x8x8xf32>) -> tensor<4x2x8x8xf32>
    %246 = "stablehlo.slice"(%232) <{limit_indices = array<i64: 4, 2, 8, 4>, start_indices = array<i64: 0, 0, 0, 0>, strides = array<i64: 1, 1, 1, 1>}> : (tensor<4x2x8x8xf32>) -> tensor<4x2x8x4xf32>
    %247 = "stablehlo.slice"(%232) <{limit_indices = array<i64: 4, 2, 8, 8>, start_indices = array<i64: 0, 0, 0, 4>, strides = array<i64: 1, 1, 1, 1>}> : (tensor<4x2x8x8xf32>) -> tensor<4x2x8x4xf32>
    %248 = "stablehlo.negate"(%247) : (tensor<4x2x8x4xf32>) -> tensor<4x2x8x4xf32>
    %249 = "stablehlo.concatenate"(%248, %246) <{dimension = 3 : i64}> : (tensor<4x2x8x4xf32>, tensor<4x2x8x4xf32>) -> tensor<4x2x8x8xf32>
    %250 = "stablehlo.multiply"(%249, %114) : (tensor<4x2x8x8xf32>, tensor<4x2x8x8xf32>) -> tensor<4x2x8x8xf32>
    %251 = "stablehlo.add"(%245, %250) : (tensor<4x2x8x8xf32>, tensor<4x2x8x8xf32>) -> tensor<4x2x8x8xf32>
    %252 = "stablehlo.reshape"(%251) : (tensor<4x2x8x8xf32>) -> tensor<4x2x1x8x8xf32>
    %253 = "stablehlo.broadcast_in_dim"(%252) <{broadcast_dimensions = array<i64: 0, 1, 2, 3, 4>}> : (tensor<4x2x1x8x8xf32>) -> tensor<4x2x2x8x8xf32>
    %254 = "stablehlo.reshape"(%253) : (tensor<4x2x2x8x8xf32>) -> tensor<4x4x8x8xf32>
    %255 = "stablehlo.reshape"(%237) : (tensor<4x2x8x8xf32>) -> tensor<4x2x1x8x8xf32>
    %256 = "stablehlo.broadcast_in_dim"(%255) <{broadcast_dimensions = array<i64: 0, 1, 2, 3, 4>}> : (tensor<4x2x1x8x8xf32>) -> tensor<4x2x2x8x8xf32>
    %257 = "stablehlo.reshape"(%256) : (tensor<4x2x2x8x8xf32>) -> tensor<4x4x8x8xf32>
    %258 = "stablehlo.multiply"(%244, %129) : (tensor<4x4x8x8xf32>, tensor<4x4x8x8xf32>) -> tensor<4x4x8x8xf32>
    %259 = "stablehlo.transpose"(%254) <{permutation = array<i64: 0, 1, 3, 2>}> : (tensor<4x4x8x8xf32>) -> tensor<4x4x8x8xf32>
    %260 = "stablehlo.multiply"(%259, %129) : (tensor<4x4x8x8xf32>, tensor<4x4x8x8xf32>) -> tensor<4x4x8x8xf32>
    %261 = "stablehlo.reshape"(%258) : (tensor<4x4x8x8xf32>) -> tensor<16x8x8xf32>
    %262 = "stablehlo.reshape"(%260) : (tensor<4x4x8x8xf32>) -> tensor<16x8x8xf32>
    %263 = "stablehlo.broadcast_in_dim"(%262) <{broadcast_dimensions = array<i64: 0, 1, 2>}> : (tensor<16x8x8xf32>) -> tensor<16x8x8xf32>
    %264 = "stablehlo.dot_general"(%261, %263) <{dot_dimension_numbers = #stablehlo.dot<lhs_batching_dimensions = [0], rhs_batching_dimensions = [0], lhs_contracting_dimensions = [2], rhs_contracting_dimensions = [1]>}> : (tensor<16x8x8xf32>, tensor<16x8x8xf32>) -> tensor<16x8x8xf32>
    %265 = "stablehlo.reshape"(%264) : (tensor<16x8x8xf32>) -> tensor<4x4x8x8xf32>
    %266 = "stablehlo.add"(%265, %138) : (tensor<4x4x8x8xf32>, tensor<4x4x8x8xf32>) -> tensor<4x4x8x8xf32>
    %267 = "stablehlo.reduce"(%266, %9) <{dimensions = array<i64: 3>}> ({
    ^bb0(%arg39: tensor<f32>, %arg40: tensor<f32>):
      %390 = "stablehlo.maximum"(%arg39, %arg40) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%390) : (tensor<f32>) -> ()
    }) : (tensor<4x4x8x8xf32>, tensor<f32>) -> tensor<4x4x8xf32>
    %268 = "stablehlo.reshape"(%267) : (tensor<4x4x8xf32>) -> tensor<4x4x8x1xf32>
    %269 = "stablehlo.broadcast_in_dim"(%268) <{broadcast_dimensions = array<i64: 0, 1, 2, 3>}> : (tensor<4x4x8x1xf32>) -> tensor<4x4x8x8xf32>
    %270 = "stablehlo.subtract"(%266, %269) : (tensor<4x4x8x8xf32>, tensor<4x4x8x8xf32>) -> tensor<4x4x8x8xf32>
    %271 = "stablehlo.exponential"(%270) : (tensor<4x4x8x8xf32>) -> tensor<4x4x8x8xf32>
    %272 = "stablehlo.reduce"(%271, %8) <{dimensions = array<i64: 3>}> ({
    ^bb0(%arg37: tensor<f32>, %arg38: tensor<f32>):
      %389 = "stablehlo.add"(%arg37, %arg38) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%389) : (tensor<f32>) -> ()
    }) : (tensor<4x4x8x8xf32>, tensor<f32>) -> tensor<4x4x8xf32>
    %273 = "stablehlo.reshape"(%272) : (tensor<4x4x8xf32>) -> tensor<4x4x8x1xf32>
    %274 = "stablehlo.broadcast_in_dim"(%273) <{broadcast_dimensions = array<i64: 0, 1, 2, 3>}> : (tensor<4x4x8x1xf32>) -> tensor<4x4x8x8xf32>
    %275 = "stablehlo.divide"(%271, %274) : (tensor<4x4x8x8xf32>, tensor<4x4x8x8xf32>) -> tensor<4x4x8x8xf32>
    %276 = "stablehlo.compare"(%266, %152) <{compare_type = #stablehlo<comparison_type FLOAT>, comparison_direction = #stablehlo<comparison_direction EQ>}> : (tensor<4x4x8x8xf32>, tensor<4x4x8x8xf32>) -> tensor<4x4x8x8xi1>
    %277 = "stablehlo.reduce"(%276, %12) <{dimensions = array<i64: 3>}> ({
    ^bb0(%arg35: tensor<i1>, %arg36: tensor<i1>):
      %388 = "stablehlo.and"(%arg35, %arg36) : (tensor<i1>, tensor<i1>) -> tensor<i1>
      "stablehlo.return"(%388) : (tensor<i1>) -> ()
    }) : (tensor<4x4x8x8xi1>, tensor<i1>) -> tensor<4x4x8xi1>
    %278 = "stablehlo.reshape"(%277) : (tensor<4x4x8xi1>) -> tensor<4x4x8x1xi1>
    %279 = "stablehlo.broadcast_in_dim"(%278) <{broadcast_dimensions = array<i64: 0, 1, 2, 3>}> : (tensor<4x4x8x1xi1>) -> tensor<4x4x8x8xi1>
    %280 = "stablehlo.broadcast_in_dim"(%275) <{broadcast_dimensions = array<i64: 0, 1, 2, 3>}> : (tensor<4x4x8x8xf32>) -> tensor<4x4x8x8xf32>
    %281 = "stablehlo.select"(%279, %157, %280) : (tensor<4x4x8x8xi1>, tensor<4x4x8x8xf32>, tensor<4x4x8x8xf32>) -> tensor<4x4x8x8xf32>
    %282 = "stablehlo.reshape"(%281) : (tensor<4x4x8x8xf32>) -> tensor<16x8x8xf32>
    %283 = "stablehlo.reshape"(%257) : (tensor<4x4x8x8xf32>) -> tensor<16x8x8xf32>
    %284 = "stablehlo.broadcast_in_dim"(%283) <{broadcast_dimensions = array<i64: 0, 1, 2>}> : (tensor<16x8x8xf32>) -> tensor<16x8x8xf32>
    %285 = "stablehlo.dot_general"(%282, %284) <{dot_dimension_numbers = #stablehlo.dot<lhs_batching_dimensions = [0], rhs_batching_dimensions = [0], lhs_contracting_dimensions = [2], rhs_contracting_dimensions = [1]>}> : (tensor<16x8x8xf32>, tensor<16x8x8xf32>) -> tensor<16x8x8xf32>
    %286 = "stablehlo.reshape"(%285) : (tensor<16x8x8xf32>) -> tensor<4x4x8x8xf32>
    %287 = "stablehlo.transpose"(%286) <{permutation = array<i64: 2, 0, 1, 3>}> : (tensor<4x4x8x8xf32>) -> tensor<8x4x4x8xf32>
    %288 = "stablehlo.transpose"(%287) <{permutation = array<i64: 1, 2, 0, 3>}> : (tensor<8x4x4x8xf32>) -> tensor<4x4x8x8xf32>
    %289 = "stablehlo.reshape"(%288) : (tensor<4x4x8x8xf32>) -> tensor<4x4x8x8xf32>
    %290 = "stablehlo.transpose"(%289) <{permutation = array<i64: 0, 2, 1, 3>}> : (tensor<4x4x8x8xf32>) -> tensor<4x8x4x8xf32>
    %291 = "stablehlo.reshape"(%290) : (tensor<4x8x4x8xf32>) -> tensor<4x8x32xf32>
    %292 = "stablehlo.transpose"(%arg13) <{permutation = array<i64: 1, 0>}> : (tensor<32x32xf32>) -> tensor<32x32xf32>
    %293 = "stablehlo.reshape"(%291) : (tensor<4x8x32xf32>) -> tensor<4x8x32xf32>
    %294 = "stablehlo.broadcast_in_dim"(%292) <{broadcast_dimensions = array<i64: 1, 2>}> : (tensor<32x32xf32>) -> tensor<4x32x32xf32>
    %295 = "stablehlo.reshape"(%294) : (tensor<4x32x32xf32>) -> tensor<4x32x32xf32>
    %296 = "stablehlo.broadcast_in_dim"(%295) <{broadcast_dimensions = array<i64: 0, 1, 2>}> : (tensor<4x32x32xf32>) -> tensor<4x32x32xf32>
    %297 = "stablehlo.dot_general"(%293, %296) <{dot_dimension_numbers = #stablehlo.dot<lhs_batching_dimensions = [0], rhs_batching_dimensions = [0], lhs_contracting_dimensions = [2], rhs_contracting_dimensions = [1]>}> : (tensor<4x8x32xf32>, tensor<4x32x32xf32>) -> tensor<4x8x32xf32>
    %298 = "stablehlo.reshape"(%297) : (tensor<4x8x32xf32>) -> tensor<4x8x32xf32>
    %299 = "stablehlo.add"(%210, %298) : (tensor<4x8x32xf32>, tensor<4x8x32xf32>) -> tensor<4x8x32xf32>
    %300 = "stablehlo.power"(%299, %62) : (tensor<4x8x32xf32>, tensor<4x8x32xf32>) -> tensor<4x8x32xf32>
    %301 = "stablehlo.reduce"(%300, %8) <{dimensions = array<i64: 2>}> ({
    ^bb0(%arg33: tensor<f32>, %arg34: tensor<f32>):
      %387 = "stablehlo.add"(%arg33, %arg34) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%387) : (tensor<f32>) -> ()
    }) : (tensor<4x8x32xf32>, tensor<f32>) -> tensor<4x8xf32>
    %302 = "stablehlo.reshape"(%301) : (tensor<4x8xf32>) -> tensor<4x8x1xf32>
    %303 = "stablehlo.divide"(%302, %68) : (tensor<4x8x1xf32>, tensor<4x8x1xf32>) -> tensor<4x8x1xf32>
    %304 = "stablehlo.add"(%303, %72) : (tensor<4x8x1xf32>, tensor<4x8x1xf32>) -> tensor<4x8x1xf32>
    %305 = "stablehlo.rsqrt"(%304) : (tensor<4x8x1xf32>) -> tensor<4x8x1xf32>
    %306 = "stablehlo.broadcast_in_dim"(%305) <{broadcast_dimensions = array<i64: 0, 1, 2>}> : (tensor<4x8x1xf32>) -> tensor<4x8x32xf32>
    %307 = "stablehlo.multiply"(%299, %306) : (tensor<4x8x32xf32>, tensor<4x8x32xf32>) -> tensor<4x8x32xf32>
    %308 = "stablehlo.add"(%arg18, %77) : (tensor<32xf32>, tensor<32xf32>) -> tensor<32xf32>
    %309 = "stablehlo.broadcast_in_dim"(%308) <{broadcast_dimensions = array<i64: 2>}> : (tensor<32xf32>) -> tensor<4x8x32xf32>
    %310 = "stablehlo.multiply"(%307, %309) : (tensor<4x8x32xf32>, tensor<4x8x32xf32>) -> tensor<4x8x32xf32>
    %311 = "stablehlo.transpose"(%arg14) <{permutation = array<i64: 1, 0>}> : (tensor<64x32xf32>) -> tensor<32x64xf32>
    %312 = "stablehlo.reshape"(%310) : (tensor<4x8x32xf32>) -> tensor<32x32xf32>
    %313 = "stablehlo.dot_general"(%312, %311) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [0]>}> : (tensor<32x32xf32>, tensor<32x64xf32>) -> tensor<32x64xf32>
    %314 = "stablehlo.reshape"(%313) : (tensor<32x64xf32>) -> tensor<4x8x64xf32>
    %315 = "stablehlo.multiply"(%314, %15) : (tensor<4x8x64xf32>, tensor<4x8x64xf32>) -> tensor<4x8x64xf32>
    %316 = "stablehlo.power"(%314, %14) : (tensor<4x8x64xf32>, tensor<4x8x64xf32>) -> tensor<4x8x64xf32>
    %317 = "stablehlo.multiply"(%17, %316) : (tensor<4x8x64xf32>, tensor<4x8x64xf32>) -> tensor<4x8x64xf32>
    %318 = "stablehlo.add"(%314, %317) : (tensor<4x8x64xf32>, tensor<4x8x64xf32>) -> tensor<4x8x64xf32>
    %319 = "stablehlo.multiply"(%194, %318) : (tensor<4x8x64xf32>, tensor<4x8x64xf32>) -> tensor<4x8x64xf32>
    %320 = "stablehlo.tanh"(%319) : (tensor<4x8x64xf32>) -> tensor<4x8x64xf32>
    %321 = "stablehlo.add"(%320, %13) : (tensor<4x8x64xf32>, tensor<4x8x64xf32>) -> tensor<4x8x64xf32>
    %322 = "stablehlo.multiply"(%321, %315) : (tensor<4x8x64xf32>, tensor<4x8x64xf32>) -> tensor<4x8x64xf32>
    %323 = "stablehlo.transpose"(%arg15) <{permutation = array<i64: 1, 0>}> : (tensor<64x32xf32>) -> tensor<32x64xf32>
    %324 = "stablehlo.dot_general"(%312, %323) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [0]>}> : (tensor<32x32xf32>, tensor<32x64xf32>) -> tensor<32x64xf32>
    %325 = "stablehlo.reshape"(%324) : (tensor<32x64xf32>) -> tensor<4x8x64xf32>
    %326 = "stablehlo.multiply"(%322, %325) : (tensor<4x8x64xf32>, tensor<4x8x64xf32>) -> tensor<4x8x64xf32>
    %327 = "stablehlo.transpose"(%arg16) <{permutation = array<i64: 1, 0>}> : (tensor<32x64xf32>) -> tensor<64x32xf32>
    %328 = "stablehlo.reshape"(%326) : (tensor<4x8x64xf32>) -> tensor<32x64xf32>
    %329 = "stablehlo.dot_general"(%328, %327) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [0]>}> : (tensor<32x64xf32>, tensor<64x32xf32>) -> tensor<32x32xf32>
    %330 = "stablehlo.reshape"(%329) : (tensor<32x32xf32>) -> tensor<4x8x32xf32>
    %331 = "stablehlo.add"(%299, %330) : (tensor<4x8x32xf32>, tensor<4x8x32xf32>) -> tensor<4x8x32xf32>
    %332 = "stablehlo.power"(%331, %62) : (tensor<4x8x32xf32>, tensor<4x8x32xf32>) -> tensor<4x8x32xf32>
    %333 = "stablehlo.reduce"(%332, %8) <{dimensions = array<i64: 2>}> ({
    ^bb0(%arg31: tensor<f32>, %arg32: tensor<f32>):
      %386 = "stablehlo.add"(%arg31, %arg32) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%386) : (tensor<f32>) -> ()
    }) : (tensor<4x8x32xf32>, tensor<f32>) -> tensor<4x8xf32>
    %334 = "stablehlo.reshape"(%333) : (tensor<4x8xf32>) -> tensor<4x8x1xf32>
    %335 = "stablehlo.divide"(%334, %68) : (tensor<4x8x1xf32>, tensor<4x8x1xf32>) -> tensor<4x8x1xf32>
    %336 = "stablehlo.add"(%335, %72) : (tensor<4x8x1xf32>, tensor<4x8x1xf32>) -> tensor<4x8x1xf32>
    %337 = "stablehlo.rsqrt"(%336) : (tensor<4x8x1xf32>) -> tensor<4x8x1xf32>
    %338 = "stablehlo.broadcast_in_dim"(%337) <{broadcast_dimensions = array<i64: 0, 1, 2>}> : (tensor<4x8x1xf32>) -> tensor<4x8x32xf32>
    %339 = "stablehlo.multiply"(%331, %338) : (tensor<4x8x32xf32>, tensor<4x8x32xf32>) -> tensor<4x8x32xf32>
    %340 = "stablehlo.add"(%arg19, %77) : (tensor<32xf32>, tensor<32xf32>) -> tensor<32xf32>
    %341 = "stablehlo.broadcast_in_dim"(%340) <{broadcast_dimensions = array<i64: 2>}> : (tensor<32xf32>) -> tensor<4x8x32xf32>
    %342 = "stablehlo.multiply"(%339, %341) : (tensor<4x8x32xf32>, tensor<4x8x32xf32>) -> tensor<4x8x32xf32>
    %343 = "stablehlo.transpose"(%arg20) <{permutation = array<i64: 1, 0>}> : (tensor<64x32xf32>) -> tensor<32x64xf32>
    %344 = "stablehlo.reshape"(%342) : (tensor<4x8x32xf32>) -> tensor<32x32xf32>
    %345 = "stablehlo.dot_general"(%344, %343) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [0]>}> : (tensor<32x32xf32>, tensor<32x64xf32>) -> tensor<32x64xf32>
    %346 = "stablehlo.reshape"(%345) : (tensor<32x64xf32>) -> tensor<4x8x64xf32>
    %347 = "stablehlo.convert"(%24) : (tensor<1xf64>) -> tensor<1xi64>
    %348 = "stablehlo.reshape"(%347) : (tensor<1xi64>) -> tensor<i64>
    %349 = "stablehlo.pad"(%arg22, %348) <{edge_padding_high = array<i64: 0, 1>, edge_padding_low = array<i64: 0, 0>, interior_padding = array<i64: 0, 0>}> : (tensor<4x8xi64>, tensor<i64>) -> tensor<4x9xi64>
    %350 = "stablehlo.slice"(%349) <{limit_indices = array<i64: 4, 9>, start_indices = array<i64: 0, 1>, strides = array<i64: 1, 1>}> : (tensor<4x9xi64>) -> tensor<4x8xi64>
    %351 = "stablehlo.reshape"(%346) : (tensor<4x8x64xf32>) -> tensor<32x64xf32>
    %352 = "stablehlo.reshape"(%350) : (tensor<4x8xi64>) -> tensor<32xi64>
    %353 = "stablehlo.reduce"(%351, %9) <{dimensions = array<i64: 1>}> ({
    ^bb0(%arg29: tensor<f32>, %arg30: tensor<f32>):
      %385 = "stablehlo.maximum"(%arg29, %arg30) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%385) : (tensor<f32>) -> ()
    }) : (tensor<32x64xf32>, tensor<f32>) -> tensor<32xf32>
    %354 = "stablehlo.reshape"(%353) : (tensor<32xf32>) -> tensor<32x1xf32>
    %355 = "stablehlo.broadcast_in_dim"(%354) <{broadcast_dimensions = array<i64: 0, 1>}> : (tensor<32x1xf32>) -> tensor<32x64xf32>
    %356 = "stablehlo.subtract"(%351, %355) : (tensor<32x64xf32>, tensor<32x64xf32>) -> tensor<32x64xf32>
    %357 = "stablehlo.exponential"(%356) : (tensor<32x64xf32>) -> tensor<32x64xf32>
    %358 = "stablehlo.reduce"(%357, %8) <{dimensions = array<i64: 1>}> ({
    ^bb0(%arg27: tensor<f32>, %arg28: tensor<f32>):
      %384 = "stablehlo.add"(%arg27, %arg28) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%384) : (tensor<f32>) -> ()
    }) : (tensor<32x64xf32>, tensor<f32>) -> tensor<32xf32>
    %359 = "stablehlo.reshape"(%358) : (tensor<32xf32>) -> tensor<32x1xf32>
    %360 = "stablehlo.log"(%359) : (tensor<32x1xf32>) -> tensor<32x1xf32>
    %361 = "stablehlo.broadcast_in_dim"(%360) <{broadcast_dimensions = array<i64: 0, 1>}> : (tensor<32x1xf32>) -> tensor<32x64xf32>
    %362 = "stablehlo.subtract"(%356, %361) : (tensor<32x64xf32>, tensor<32x64xf32>) -> tensor<32x64xf32>
    %363 = "stablehlo.compare"(%352, %1) <{compare_type = #stablehlo<comparison_type SIGNED>, comparison_direction = #stablehlo<comparison_direction NE>}> : (tensor<32xi64>, tensor<32xi64>) -> tensor<32xi1>
    %364 = "stablehlo.broadcast_in_dim"(%363) <{broadcast_dimensions = array<i64: 0>}> : (tensor<32xi1>) -> tensor<32xi1>
    %365 = "stablehlo.broadcast_in_dim"(%352) <{broadcast_dimensions = array<i64: 0>}> : (tensor<32xi64>) -> tensor<32xi64>
    %366 = "stablehlo.select"(%364, %365, %0) : (tensor<32xi1>, tensor<32xi64>, tensor<32xi64>) -> tensor<32xi64>
    %367 = "stablehlo.reshape"(%366) : (tensor<32xi64>) -> tensor<32x1xi64>
    %368 = "stablehlo.iota"() <{iota_dimension = 0 : i64}> : () -> tensor<32x1x1xi64>
    %369 = "stablehlo.reshape"(%367) : (tensor<32x1xi64>) -> tensor<32x1x1xi64>
    %370 = "stablehlo.concatenate"(%368, %369) <{dimension = 2 : i64}> : (tensor<32x1x1xi64>, tensor<32x1x1xi64>) -> tensor<32x1x2xi64>
    %371 = "stablehlo.gather"(%362, %370) <{dimension_numbers = #stablehlo.gather<collapsed_slice_dims = [0, 1], start_index_map = [0, 1], index_vector_dim = 2>, slice_sizes = array<i64: 1, 1>}> : (tensor<32x64xf32>, tensor<32x1x2xi64>) -> tensor<32x1xf32>
    %372 = "stablehlo.reshape"(%371) : (tensor<32x1xf32>) -> tensor<32xf32>
    %373 = "stablehlo.negate"(%372) : (tensor<32xf32>) -> tensor<32xf32>
    %374 = "stablehlo.broadcast_in_dim"(%373) <{broadcast_dimensions = array<i64: 0>}> : (tensor<32xf32>) -> tensor<32xf32>
    %375 = "stablehlo.broadcast_in_dim"(%8) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<32xf32>
    %376 = "stablehlo.select"(%364, %374, %375) : (tensor<32xi1>, tensor<32xf32>, tensor<32xf32>) -> tensor<32xf32>
    %377 = "stablehlo.convert"(%363) : (tensor<32xi1>) -> tensor<32xi64>
    %378 = "stablehlo.reduce"(%377, %6) <{dimensions = array<i64: 0>}> ({
    ^bb0(%arg25: tensor<i64>, %arg26: tensor<i64>):
      %383 = "stablehlo.add"(%arg25, %arg26) : (tensor<i64>, tensor<i64>) -> tensor<i64>
      "stablehlo.return"(%383) : (tensor<i64>) -> ()
    }) : (tensor<32xi64>, tensor<i64>) -> tensor<i64>
    %379 = "stablehlo.convert"(%378) : (tensor<i64>) -> tensor<f32>
    %380 = "stablehlo.reduce"(%376, %8) <{dimensions = array<i64: 0>}> ({
    ^bb0(%arg23: tensor<f32>, %arg24: tensor<f32>):
      %382 = "stablehlo.add"(%arg23, %arg24) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%382) : (tensor<f32>) -> ()
    }) : (tensor<32xf32>, tensor<f32>) -> tensor<f32>
    %381 = "stablehlo.divide"(%380, %379) : (tensor<f32>, tensor<f32>) -> tensor<f32>
    "func.return"(%381) : (tensor<f32>) -> ()
  }) : () -> ()
}) : () -> ()
