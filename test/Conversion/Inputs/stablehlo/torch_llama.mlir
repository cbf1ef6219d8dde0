"builtin.module"() ({
  "sdy.mesh"() <{mesh = #sdy.mesh<["dp"=2, "tp"=2]>, sym_name = "mesh"}> : () -> ()
  "func.func"() <{arg_attrs = [{dist.requires_grad, sdy.sharding = #sdy.sharding<@mesh, [{"tp"}, {}]>}, {dist.requires_grad, sdy.sharding = #sdy.sharding<@mesh, [{"tp"}, {}]>}, {dist.requires_grad, sdy.sharding = #sdy.sharding<@mesh, [{"tp"}, {}]>}, {dist.requires_grad, sdy.sharding = #sdy.sharding<@mesh, [{"tp"}, {}]>}, {dist.requires_grad, sdy.sharding = #sdy.sharding<@mesh, [{}, {"tp"}]>}, {dist.requires_grad, sdy.sharding = #sdy.sharding<@mesh, [{"tp"}, {}]>}, {dist.requires_grad, sdy.sharding = #sdy.sharding<@mesh, [{"tp"}, {}]>}, {dist.requires_grad, sdy.sharding = #sdy.sharding<@mesh, [{}, {"tp"}]>}, {dist.requires_grad, sdy.sharding = #sdy.sharding<@mesh, [{}]>}, {dist.requires_grad, sdy.sharding = #sdy.sharding<@mesh, [{}]>}, {dist.requires_grad, sdy.sharding = #sdy.sharding<@mesh, [{"tp"}, {}]>}, {dist.requires_grad, sdy.sharding = #sdy.sharding<@mesh, [{"tp"}, {}]>}, {dist.requires_grad, sdy.sharding = #sdy.sharding<@mesh, [{"tp"}, {}]>}, {dist.requires_grad, sdy.sharding = #sdy.sharding<@mesh, [{}, {"tp"}]>}, {dist.requires_grad, sdy.sharding = #sdy.sharding<@mesh, [{"tp"}, {}]>}, {dist.requires_grad, sdy.sharding = #sdy.sharding<@mesh, [{"tp"}, {}]>}, {dist.requires_grad, sdy.sharding = #sdy.sharding<@mesh, [{}, {"tp"}]>}, {dist.requires_grad, sdy.sharding = #sdy.sharding<@mesh, [{}]>}, {dist.requires_grad, sdy.sharding = #sdy.sharding<@mesh, [{}]>}, {dist.requires_grad, sdy.sharding = #sdy.sharding<@mesh, [{}]>}, {dist.requires_grad, sdy.sharding = #sdy.sharding<@mesh, [{"tp"}, {}]>}, {sdy.sharding = #sdy.sharding<@mesh, [{"dp"}, {}]>}, {sdy.sharding = #sdy.sharding<@mesh, [{"dp"}, {}]>}], function_type = (tensor<64x32xf32>, tensor<32x32xf32>, tensor<16x32xf32>, tensor<16x32xf32>, tensor<32x32xf32>, tensor<64x32xf32>, tensor<64x32xf32>, tensor<32x64xf32>, tensor<32xf32>, tensor<32xf32>, tensor<32x32xf32>, tensor<16x32xf32>, tensor<16x32xf32>, tensor<32x32xf32>, tensor<64x32xf32>, tensor<64x32xf32>, tensor<32x64xf32>, tensor<32xf32>, tensor<32xf32>, tensor<32xf32>, tensor<64x32xf32>, tensor<4x8xi64>, tensor<4x8xi64>) -> tensor<f32>, res_attrs = [{sdy.sharding = #sdy.sharding<@mesh, []>}], sym_name = "main"}> ({
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
    %11 = "stablehlo.constant"() <{value = dense<true> : tensor<i1>}> : () -> tensor<i1>
    %12 = "arith.constant"() <{value = dense<1.000000e+00> : tensor<1xf64>}> : () -> tensor<1xf64>
    %13 = "arith.constant"() <{value = dense<2> : tensor<1xi64>}> : () -> tensor<1xi64>
    %14 = "arith.constant"() <{value = dense<32> : tensor<1xi64>}> : () -> tensor<1xi64>
    %15 = "arith.constant"() <{value = dense<9.9999999999999995E-7> : tensor<1xf64>}> : () -> tensor<1xf64>
    %16 = "arith.constant"() <{value = dense<0.59460355750136051> : tensor<1xf64>}> : () -> tensor<1xf64>
    %17 = "arith.constant"() <{value = dense<0xFFF0000000000000> : tensor<1xf64>}> : () -> tensor<1xf64>
    %18 = "arith.constant"() <{value = dense<-1.000000e+02> : tensor<1xf64>}> : () -> tensor<1xf64>
    %19 = "stablehlo.gather"(%arg0, %arg21) <{dimension_numbers = #stablehlo.gather<offset_dims = [2], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 2>, indices_are_sorted = false, slice_sizes = array<i64: 1, 32>}> : (tensor<64x32xf32>, tensor<4x8xi64>) -> tensor<4x8x32xf32>
    %20 = "stablehlo.convert"(%19) : (tensor<4x8x32xf32>) -> tensor<4x8x32xf32>
    %21 = "stablehlo.convert"(%5) : (tensor<i64>) -> tensor<f64>
    %22 = "stablehlo.convert"(%4) : (tensor<i64>) -> tensor<f64>
    %23 = "stablehlo.divide"(%22, %21) : (tensor<f64>, tensor<f64>) -> tensor<f64>
    %24 = "stablehlo.ceil"(%23) : (tensor<f64>) -> tensor<f64>
    %25 = "stablehlo.convert"(%24) : (tensor<f64>) -> tensor<i64>
    %26 = "stablehlo.reshape"(%25) : (tensor<i64>) -> tensor<1xi64>
    %27 = "stablehlo.dynamic_iota"(%26) <{iota_dimension = 0 : i64}> : (tensor<1xi64>) -> tensor<8xi64>
    %28 = "stablehlo.multiply"(%27, %3) : (tensor<8xi64>, tensor<8xi64>) -> tensor<8xi64>
    %29 = "stablehlo.add"(%28, %2) : (tensor<8xi64>, tensor<8xi64>) -> tensor<8xi64>
    %30 = "stablehlo.add"(%29, %2) : (tensor<8xi64>, tensor<8xi64>) -> tensor<8xi64>
    %31 = "stablehlo.reshape"(%30) : (tensor<8xi64>) -> tensor<1x8xi64>
    %32 = "stablehlo.reshape"(%31) : (tensor<1x8xi64>) -> tensor<1x1x8xi64>
    %33 = "stablehlo.reshape"(%32) : (tensor<1x1x8xi64>) -> tensor<1x1x8x1xi64>
    %34 = "stablehlo.reshape"(%32) : (tensor<1x1x8xi64>) -> tensor<1x1x1x8xi64>
    %35 = "stablehlo.broadcast_in_dim"(%34) <{broadcast_dimensions = array<i64: 0, 1, 2, 3>}> : (tensor<1x1x1x8xi64>) -> tensor<1x1x8x8xi64>
    %36 = "stablehlo.broadcast_in_dim"(%33) <{broadcast_dimensions = array<i64: 0, 1, 2, 3>}> : (tensor<1x1x8x1xi64>) -> tensor<1x1x8x8xi64>
    %37 = "stablehlo.compare"(%35, %36) <{compare_type = #stablehlo<comparison_type SIGNED>, comparison_direction = #stablehlo<comparison_direction LE>}> : (tensor<1x1x8x8xi64>, tensor<1x1x8x8xi64>) -> tensor<1x1x8x8xi1>
    %38 = "stablehlo.broadcast_in_dim"(%37) <{broadcast_dimensions = array<i64: 0, 1, 2, 3>}> : (tensor<1x1x8x8xi1>) -> tensor<4x1x8x8xi1>
    %39 = "stablehlo.reshape"(%31) : (tensor<1x8xi64>) -> tensor<1x8x1xi64>
    %40 = "stablehlo.convert"(%39) : (tensor<1x8x1xi64>) -> tensor<1x8x1xf32>
    %41 = "stablehlo.broadcast_in_dim"(%40) <{broadcast_dimensions = array<i64: 0, 1, 2>}> : (tensor<1x8x1xf32>) -> tensor<1x8x4xf32>
    %42 = "stablehlo.broadcast_in_dim"(%10) <{broadcast_dimensions = array<i64: 2>}> : (tensor<4xf32>) -> tensor<1x8x4xf32>
    %43 = "stablehlo.multiply"(%41, %42) : (tensor<1x8x4xf32>, tensor<1x8x4xf32>) -> tensor<1x8x4xf32>
    %44 = "stablehlo.concatenate"(%43, %43) <{dimension = 2 : i64}> : (tensor<1x8x4xf32>, tensor<1x8x4xf32>) -> tensor<1x8x8xf32>
    %45 = "stablehlo.cosine"(%44) : (tensor<1x8x8xf32>) -> tensor<1x8x8xf32>
    %46 = "stablehlo.convert"(%12) : (tensor<1xf64>) -> tensor<1xf32>
    %47 = "stablehlo.reshape"(%46) : (tensor<1xf32>) -> tensor<f32>
    %48 = "stablehlo.broadcast_in_dim"(%47) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<1x8x8xf32>
    %49 = "stablehlo.multiply"(%45, %48) : (tensor<1x8x8xf32>, tensor<1x8x8xf32>) -> tensor<1x8x8xf32>
    %50 = "stablehlo.sine"(%44) : (tensor<1x8x8xf32>) -> tensor<1x8x8xf32>
    %51 = "stablehlo.multiply"(%50, %48) : (tensor<1x8x8xf32>, tensor<1x8x8xf32>) -> tensor<1x8x8xf32>
    %52 = "stablehlo.convert"(%13) : (tensor<1xi64>) -> tensor<1xf32>
    %53 = "stablehlo.reshape"(%52) : (tensor<1xf32>) -> tensor<f32>
    %54 = "stablehlo.broadcast_in_dim"(%53) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<4x8x32xf32>
    %55 = "stablehlo.power"(%20, %54) : (tensor<4x8x32xf32>, tensor<4x8x32xf32>) -> tensor<4x8x32xf32>
    %56 = "stablehlo.reduce"(%55, %8) <{dimensions = array<i64: 2>}> ({
    ^bb0(%arg51: tensor<f32>, %arg52: tensor<f32>):
      %369 = "stablehlo.add"(%arg51, %arg52) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%369) : (tensor<f32>) -> ()
    }) : (tensor<4x8x32xf32>, tensor<f32>) -> tensor<4x8xf32>
    %57 = "stablehlo.reshape"(%56) : (tensor<4x8xf32>) -> tensor<4x8x1xf32>
    %58 = "stablehlo.convert"(%14) : (tensor<1xi64>) -> tensor<1xf32>
    %59 = "stablehlo.reshape"(%58) : (tensor<1xf32>) -> tensor<f32>
    %60 = "stablehlo.broadcast_in_dim"(%59) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<4x8x1xf32>
    %61 = "stablehlo.divide"(%57, %60) : (tensor<4x8x1xf32>, tensor<4x8x1xf32>) -> tensor<4x8x1xf32>
    %62 = "stablehlo.convert"(%15) : (tensor<1xf64>) -> tensor<1xf32>
    %63 = "stablehlo.reshape"(%62) : (tensor<1xf32>) -> tensor<f32>
    %64 = "stablehlo.broadcast_in_dim"(%63) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<4x8x1xf32>
    %65 = "stablehlo.add"(%61, %64) : (tensor<4x8x1xf32>, tensor<4x8x1xf32>) -> tensor<4x8x1xf32>
    %66 = "stablehlo.rsqrt"(%65) : (tensor<4x8x1xf32>) -> tensor<4x8x1xf32>
    %67 = "stablehlo.broadcast_in_dim"(%66) <{broadcast_dimensions = array<i64: 0, 1, 2>}> : (tensor<4x8x1xf32>) -> tensor<4x8x32xf32>
    %68 = "stablehlo.multiply"(%20, %67) : (tensor<4x8x32xf32>, tensor<4x8x32xf32>) -> tensor<4x8x32xf32>
    %69 = "stablehlo.broadcast_in_dim"(%arg8) <{broadcast_dimensions = array<i64: 2>}> : (tensor<32xf32>) -> tensor<4x8x32xf32>
    %70 = "stablehlo.multiply"(%69, %68) : (tensor<4x8x32xf32>, tensor<4x8x32xf32>) -> tensor<4x8x32xf32>
    %71 = "stablehlo.transpose"(%arg1) <{permutation = array<i64: 1, 0>}> : (tensor<32x32xf32>) -> tensor<32x32xf32>
    %72 = "stablehlo.reshape"(%70) : (tensor<4x8x32xf32>) -> tensor<32x32xf32>
    %73 = "stablehlo.dot_general"(%72, %71) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [0]>}> : (tensor<32x32xf32>, tensor<32x32xf32>) -> tensor<32x32xf32>
    %74 = "stablehlo.reshape"(%73) : (tensor<32x32xf32>) -> tensor<4x8x32xf32>
    %75 = "stablehlo.reshape"(%74) : (tensor<4x8x32xf32>) -> tensor<4x8x4x8xf32>
    %76 = "stablehlo.transpose"(%75) <{permutation = array<i64: 0, 2, 1, 3>}> : (tensor<4x8x4x8xf32>) -> tensor<4x4x8x8xf32>
    %77 = "stablehlo.transpose"(%arg2) <{permutation = array<i64: 1, 0>}> : (tensor<16x32xf32>) -> tensor<32x16xf32>
    %78 = "stablehlo.dot_general"(%72, %77) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [0]>}> : (tensor<32x32xf32>, tensor<32x16xf32>) -> tensor<32x16xf32>
    %79 = "stablehlo.reshape"(%78) : (tensor<32x16xf32>) -> tensor<4x8x16xf32>
    %80 = "stablehlo.reshape"(%79) : (tensor<4x8x16xf32>) -> tensor<4x8x2x8xf32>
    %81 = "stablehlo.transpose"(%80) <{permutation = array<i64: 0, 2, 1, 3>}> : (tensor<4x8x2x8xf32>) -> tensor<4x2x8x8xf32>
    %82 = "stablehlo.transpose"(%arg3) <{permutation = array<i64: 1, 0>}> : (tensor<16x32xf32>) -> tensor<32x16xf32>
    %83 = "stablehlo.dot_general"(%72, %82) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [0]>}> : (tensor<32x32xf32>, tensor<32x16xf32>) -> tensor<32x16xf32>
    %84 = "stablehlo.reshape"(%83) : (tensor<32x16xf32>) -> tensor<4x8x16xf32>
    %85 = "stablehlo.reshape"(%84) : (tensor<4x8x16xf32>) -> tensor<4x8x2x8xf32>
    %86 = "stablehlo.transpose"(%85) <{permutation = array<i64: 0, 2, 1, 3>}> : (tensor<4x8x2x8xf32>) -> tensor<4x2x8x8xf32>
    %87 = "stablehlo.reshape"(%49) : (tensor<1x8x8xf32>) -> tensor<1x1x8x8xf32>
    %88 = "stablehlo.reshape"(%51) : (tensor<1x8x8xf32>) -> tensor<1x1x8x8xf32>
    %89 = "stablehlo.broadcast_in_dim"(%87) <{broadcast_dimensions = array<i64: 0, 1, 2, 3>}> : (tensor<1x1x8x8xf32>) -> tensor<4x4x8x8xf32>
    %90 = "stablehlo.multiply"(%76, %89) : (tensor<4x4x8x8xf32>, tensor<4x4x8x8xf32>) -> tensor<4x4x8x8xf32>
    %91 = "stablehlo.slice"(%76) <{limit_indices = array<i64: 4, 4, 8, 4>, start_indices = array<i64: 0, 0, 0, 0>, strides = array<i64: 1, 1, 1, 1>}> : (tensor<4x4x8x8xf32>) -> tensor<4x4x8x4xf32>
    %92 = "stablehlo.slice"(%76) <{limit_indices = array<i64: 4, 4, 8, 8>, start_indices = array<i64: 0, 0, 0, 4>, strides = array<i64: 1, 1, 1, 1>}> : (tensor<4x4x8x8xf32>) -> tensor<4x4x8x4xf32>
    %93 = "stablehlo.negate"(%92) : (tensor<4x4x8x4xf32>) -> tensor<4x4x8x4xf32>
    %94 = "stablehlo.concatenate"(%93, %91) <{dimension = 3 : i64}> : (tensor<4x4x8x4xf32>, tensor<4x4x8x4xf32>) -> tensor<4x4x8x8xf32>
    %95 = "stablehlo.broadcast_in_dim"(%88) <{broadcast_dimensions = array<i64: 0, 1, 2, 3>}> : (tensor<1x1x8x8xf32>) -> tensor<4x4x8x8xf32>
    %96 = "stablehlo.multiply"(%94, %95) : (tensor<4x4x8x8xf32>, tensor<4x4x8x8xf32>) -> tensor<4x4x8x8xf32>
    %97 = "stablehlo.add"(%90, %96) : (tensor<4x4x8x8xf32>, tensor<4x4x8x8xf32>) -> tensor<4x4x8x8xf32>
    %98 = "stablehlo.broadcast_in_dim"(%87) <{broadcast_dimensions = array<i64: 0, 1, 2, 3>}> : (tensor<1x1x8x8xf32>) -> tensor<4x2x8x8xf32>
    %99 = "stablehlo.multiply"(%81, %98) : (tensor<4x2x8x8xf32>, tensor<4x2x8x8xf32>) -> tensor<4x2x8x8xf32>
    %100 = "stablehlo.slice"(%81) <{limit_indices = array<i64: 4, 2, 8, 4>, start_indices = array<i64: 0, 0, 0, 0>, strides = array<i64: 1, 1, 1, 1>}> : (tensor<4x2x8x8xf32>) -> tensor<4x2x8x4xf32>
    %101 = "stablehlo.slice"(%81) <{limit_indices = array<i64: 4, 2, 8, 8>, start_indices = array<i64: 0, 0, 0, 4>, strides = array<i64: 1, 1, 1, 1>}> : (tensor<4x2x8x8xf32>) -> tensor<4x2x8x4xf32>
    %102 = "stablehlo.negate"(%101) : (tensor<4x2x8x4xf32>) -> tensor<4x2x8x4xf32>
    %103 = "stablehlo.concatenate"(%102, %100) <{dimension = 3 : i64}> : (tensor<4x2x8x4xf32>, tensor<4x2x8x4xf32>) -> tensor<4x2x8x8xf32>
    %104 = "stablehlo.broadcast_in_dim"(%88) <{broadcast_dimensions = array<i64: 0, 1, 2, 3>}> : (tensor<1x1x8x8xf32>) -> tensor<4x2x8x8xf32>
    %105 = "stablehlo.multiply"(%103, %104) : (tensor<4x2x8x8xf32>, tensor<4x2x8x8xf32>) -> tensor<4x2x8x8xf32>
    %106 = "stablehlo.add"(%99, %105) : (tensor<4x2x8x8xf32>, tensor<4x2x8x8xf32>) -> tensor<4x2x8x8xf32>
    %107 = "stablehlo.reshape"(%106) : (tensor<4x2x8x8xf32>) -> tensor<4x2x1x8x8xf32>
    %108 = "stablehlo.broadcast_in_dim"(%107) <{broadcast_dimensions = array<i64: 0, 1, 2, 3, 4>}> : (tensor<4x2x1x8x8xf32>) -> tensor<4x2x2x8x8xf32>
    %109 = "stablehlo.reshape"(%108) : (tensor<4x2x2x8x8xf32>) -> tensor<4x4x8x8xf32>
    %110 = "stablehlo.reshape"(%86) : (tensor<4x2x8x8xf32>) -> tensor<4x2x1x8x8xf32>
    %111 = "stablehlo.broadcast_in_dim"(%110) <{broadcast_dimensions = array<i64: 0, 1, 2, 3, 4>}> : (tensor<4x2x1x8x8xf32>) -> tensor<4x2x2x8x8xf32>
    %112 = "stablehlo.reshape"(%111) : (tensor<4x2x2x8x8xf32>) -> tensor<4x4x8x8xf32>
    %113 = "stablehlo.broadcast_in_dim"(%38) <{broadcast_dimensions = array<i64: 0, 1, 2, 3>}> : (tensor<4x1x8x8xi1>) -> tensor<4x1x8x8xi1>
    %114 = "stablehlo.broadcast_in_dim"(%8) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<4x1x8x8xf32>
    %115 = "stablehlo.broadcast_in_dim"(%9) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<4x1x8x8xf32>
    %116 = "stablehlo.select"(%113, %114, %115) : (tensor<4x1x8x8xi1>, tensor<4x1x8x8xf32>, tensor<4x1x8x8xf32>) -> tensor<4x1x8x8xf32>
    %117 = "stablehlo.convert"(%16) : (tensor<1xf64>) -> tensor<1xf32>
    %118 = "stablehlo.reshape"(%117) : (tensor<1xf32>) -> tensor<f32>
    %119 = "stablehlo.broadcast_in_dim"(%118) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<4x4x8x8xf32>
    %120 = "stablehlo.multiply"(%97, %119) : (tensor<4x4x8x8xf32>, tensor<4x4x8x8xf32>) -> tensor<4x4x8x8xf32>
    %121 = "stablehlo.transpose"(%109) <{permutation = array<i64: 0, 1, 3, 2>}> : (tensor<4x4x8x8xf32>) -> tensor<4x4x8x8xf32>
    %122 = "stablehlo.multiply"(%121, %119) : (tensor<4x4x8x8xf32>, tensor<4x4x8x8xf32>) -> tensor<4x4x8x8xf32>
    %123 = "stablehlo.reshape"(%120) : (tensor<4x4x8x8xf32>) -> tensor<16x8x8xf32>
    %124 = "stablehlo.reshape"(%122) : (tensor<4x4x8x8xf32>) -> tensor<16x8x8xf32>
    %125 = "stablehlo.broadcast_in_dim"(%124) <{broadcast_dimensions = array<i64: 0, 1, 2>}> : (tensor<16x8x8xf32>) -> tensor<16x8x8xf32>
    %126 = "stablehlo.dot_general"(%123, %125) <{dot_dimension_numbers = #stablehlo.dot<lhs_batching_dimensions = [0], rhs_batching_dimensions = [0], lhs_contracting_dimensions = [2], rhs_contracting_dimensions = [1]>}> : (tensor<16x8x8xf32>, tensor<16x8x8xf32>) -> tensor<16x8x8xf32>
    %127 = "stablehlo.reshape"(%126) : (tensor<16x8x8xf32>) -> tensor<4x4x8x8xf32>
    %128 = "stablehlo.broadcast_in_dim"(%116) <{broadcast_dimensions = array<i64: 0, 1, 2, 3>}> : (tensor<4x1x8x8xf32>) -> tensor<4x4x8x8xf32>
    %129 = "stablehlo.add"(%127, %128) : (tensor<4x4x8x8xf32>, tensor<4x4x8x8xf32>) -> tensor<4x4x8x8xf32>
    %130 = "stablehlo.reduce"(%129, %9) <{dimensions = array<i64: 3>}> ({
    ^bb0(%arg49: tensor<f32>, %arg50: tensor<f32>):
      %368 = "stablehlo.maximum"(%arg49, %arg50) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%368) : (tensor<f32>) -> ()
    }) : (tensor<4x4x8x8xf32>, tensor<f32>) -> tensor<4x4x8xf32>
    %131 = "stablehlo.reshape"(%130) : (tensor<4x4x8xf32>) -> tensor<4x4x8x1xf32>
    %132 = "stablehlo.broadcast_in_dim"(%131) <{broadcast_dimensions = array<i64: 0, 1, 2, 3>}> : (tensor<4x4x8x1xf32>) -> tensor<4x4x8x8xf32>
    %133 = "stablehlo.subtract"(%129, %132) : (tensor<4x4x8x8xf32>, tensor<4x4x8x8xf32>) -> tensor<4x4x8x8xf32>
    %134 = "stablehlo.exponential"(%133) : (tensor<4x4x8x8xf32>) -> tensor<4x4x8x8xf32>
    %135 = "stablehlo.reduce"(%134, %8) <{dimensions = array<i64: 3>}> ({
    ^bb0(%arg47: tensor<f32>, %arg48: tensor<f32>):
      %367 = "stablehlo.add"(%arg47, %arg48) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%367) : (tensor<f32>) -> ()
    }) : (tensor<4x4x8x8xf32>, tensor<f32>) -> tensor<4x4x8xf32>
    %136 = "stablehlo.reshape"(%135) : (tensor<4x4x8xf32>) -> tensor<4x4x8x1xf32>
    %137 = "stablehlo.broadcast_in_dim"(%136) <{broadcast_dimensions = array<i64: 0, 1, 2, 3>}> : (tensor<4x4x8x1xf32>) -> tensor<4x4x8x8xf32>
    %138 = "stablehlo.divide"(%134, %137) : (tensor<4x4x8x8xf32>, tensor<4x4x8x8xf32>) -> tensor<4x4x8x8xf32>
    %139 = "stablehlo.convert"(%17) : (tensor<1xf64>) -> tensor<1xf64>
    %140 = "stablehlo.reshape"(%139) : (tensor<1xf64>) -> tensor<f64>
    %141 = "stablehlo.convert"(%140) : (tensor<f64>) -> tensor<f32>
    %142 = "stablehlo.broadcast_in_dim"(%141) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<4x4x8x8xf32>
    %143 = "stablehlo.compare"(%129, %142) <{compare_type = #stablehlo<comparison_type FLOAT>, comparison_direction = #stablehlo<comparison_direction EQ>}> : (tensor<4x4x8x8xf32>, tensor<4x4x8x8xf32>) -> tensor<4x4x8x8xi1>
    %144 = "stablehlo.reduce"(%143, %11) <{dimensions = array<i64: 3>}> ({
    ^bb0(%arg45: tensor<i1>, %arg46: tensor<i1>):
      %366 = "stablehlo.and"(%arg45, %arg46) : (tensor<i1>, tensor<i1>) -> tensor<i1>
      "stablehlo.return"(%366) : (tensor<i1>) -> ()
    }) : (tensor<4x4x8x8xi1>, tensor<i1>) -> tensor<4x4x8xi1>
    %145 = "stablehlo.reshape"(%144) : (tensor<4x4x8xi1>) -> tensor<4x4x8x1xi1>
    %146 = "stablehlo.broadcast_in_dim"(%145) <{broadcast_dimensions = array<i64: 0, 1, 2, 3>}> : (tensor<4x4x8x1xi1>) -> tensor<4x4x8x8xi1>
    %147 = "stablehlo.broadcast_in_dim"(%7) <{broadcast_dimensions = array<i64: 0, 1, 2, 3>}> : (tensor<4x4x8x8xf32>) -> tensor<4x4x8x8xf32>
    %148 = "stablehlo.broadcast_in_dim"(%138) <{broadcast_dimensions = array<i64: 0, 1, 2, 3>}> : (tensor<4x4x8x8xf32>) -> tensor<4x4x8x8xf32>
    %149 = "stablehlo.select"(%146, %147, %148) : (tensor<4x4x8x8xi1>, tensor<4x4x8x8xf32>, tensor<4x4x8x8xf32>) -> tensor<4x4x8x8xf32>
    %150 = "stablehlo.reshape"(%149) : (tensor<4x4x8x8xf32>) -> tensor<16x8x8xf32>
    %151 = "stablehlo.reshape"(%112) : (tensor<4x4x8x8xf32>) -> tensor<16x8x8xf32>
    %152 = "stablehlo.broadcast_in_dim"(%151) <{broadcast_dimensions = array<i64: 0, 1, 2>}> : (tensor<16x8x8xf32>) -> tensor<16x8x8xf32>
    %153 = "stablehlo.dot_general"(%150, %152) <{dot_dimension_numbers = #stablehlo.dot<lhs_batching_dimensions = [0], rhs_batching_dimensions = [0], lhs_contracting_dimensions = [2], rhs_contracting_dimensions = [1]>}> : (tensor<16x8x8xf32>, tensor<16x8x8xf32>) -> tensor<16x8x8xf32>
    %154 = "stablehlo.reshape"(%153) : (tensor<16x8x8xf32>) -> tensor<4x4x8x8xf32>
    %155 = "stablehlo.transpose"(%154) <{permutation = array<i64: 2, 0, 1, 3>}> : (tensor<4x4x8x8xf32>) -> tensor<8x4x4x8xf32>
    %156 = "stablehlo.transpose"(%155) <{permutation = array<i64: 1, 2, 0, 3>}> : (tensor<8x4x4x8xf32>) -> tensor<4x4x8x8xf32>
    %157 = "stablehlo.reshape"(%156) : (tensor<4x4x8x8xf32>) -> tensor<4x4x8x8xf32>
    %158 = "stablehlo.transpose"(%157) <{permutation = array<i64: 0, 2, 1, 3>}> : (tensor<4x4x8x8xf32>) -> tensor<4x8x4x8xf32>
    %159 = "stablehlo.reshape"(%158) : (tensor<4x8x4x8xf32>) -> tensor<4x8x32xf32>
    %160 = "stablehlo.transpose"(%arg4) <{permutation = array<i64: 1, 0>}> : (tensor<32x32xf32>) -> tensor<32x32xf32>
    %161 = "stablehlo.reshape"(%159) : (tensor<4x8x32xf32>) -> tensor<4x8x32xf32>
    %162 = "stablehlo.broadcast_in_dim"(%160) <{broadcast_dimensions = array<i64: 1, 2>}> : (tensor<32x32xf32>) -> tensor<4x32x32xf32>
    %163 = "stablehlo.reshape"(%162) : (tensor<4x32x32xf32>) -> tensor<4x32x32xf32>
    %164 = "stablehlo.broadcast_in_dim"(%163) <{broadcast_dimensions = array<i64: 0, 1, 2>}> : (tensor<4x32x32xf32>) -> tensor<4x32x32xf32>
    %165 = "stablehlo.dot_general"(%161, %164) <{dot_dimension_numbers = #stablehlo.dot<lhs_batching_dimensions = [0], rhs_batching_dimensions = [0], lhs_contracting_dimensions = [2], rhs_contracting_dimensions = [1]>}> : (tensor<4x8x32xf32>, tensor<4x32x32xf32>) -> tensor<4x8x32xf32>
    %166 = "stablehlo.reshape"(%165) : (tensor<4x8x32xf32>) -> tensor<4x8x32xf32>
    %167 = "stablehlo.add"(%20, %166) : (tensor<4x8x32xf32>, tensor<4x8x32xf32>) -> tensor<4x8x32xf32>
    %168 = "stablehlo.power"(%167, %54) : (tensor<4x8x32xf32>, tensor<4x8x32xf32>) -> tensor<4x8x32xf32>
    %169 = "stablehlo.reduce"(%168, %8) <{dimensions = array<i64: 2>}> ({
    ^bb0(%arg43: tensor<f32>, %arg44: tensor<f32>):
      %365 = "stablehlo.add"(%arg43, %arg44) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%365) : (tensor<f32>) -> ()
    }) : (tensor<4x8x32xf32>, tensor<f32>) -> tensor<4x8xf32>
    %170 = "stablehlo.reshape"(%169) : (tensor<4x8xf32>) -> tensor<4x8x1xf32>
    %171 = "stablehlo.divide"(%170, %60) : (tensor<4x8x1xf32>, tensor<4x8x1xf32>) -> tensor<4x8x1xf32>
    %172 = "stablehlo.add"(%171, %64) : (tensor<4x8x1xf32>, tensor<4x8x1xf32>) -> tensor<4x8x1xf32>
    %173 = "stablehlo.rsqrt"(%172) : (tensor<4x8x1xf32>) -> tensor<4x8x1xf32>
    %174 = "stablehlo.broadcast_in_dim"(%173) <{broadcast_dimensions = array<i64: 0, 1, 2>}> : (tensor<4x8x1xf32>) -> tensor<4x8x32xf32>
    %175 = "stablehlo.multiply"(%167, %174) : (tensor<4x8x32xf32>, tensor<4x8x32xf32>) -> tensor<4x8x32xf32>
    %176 = "stablehlo.broadcast_in_dim"(%arg9) <{broadcast_dimensions = array<i64: 2>}> : (tensor<32xf32>) -> tensor<4x8x32xf32>
    %177 = "stablehlo.multiply"(%176, %175) : (tensor<4x8x32xf32>, tensor<4x8x32xf32>) -> tensor<4x8x32xf32>
    %178 = "stablehlo.transpose"(%arg5) <{permutation = array<i64: 1, 0>}> : (tensor<64x32xf32>) -> tensor<32x64xf32>
    %179 = "stablehlo.reshape"(%177) : (tensor<4x8x32xf32>) -> tensor<32x32xf32>
    %180 = "stablehlo.dot_general"(%179, %178) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [0]>}> : (tensor<32x32xf32>, tensor<32x64xf32>) -> tensor<32x64xf32>
    %181 = "stablehlo.reshape"(%180) : (tensor<32x64xf32>) -> tensor<4x8x64xf32>
    %182 = "stablehlo.logistic"(%181) : (tensor<4x8x64xf32>) -> tensor<4x8x64xf32>
    %183 = "stablehlo.multiply"(%181, %182) : (tensor<4x8x64xf32>, tensor<4x8x64xf32>) -> tensor<4x8x64xf32>
    %184 = "stablehlo.transpose"(%arg6) <{permutation = array<i64: 1, 0>}> : (tensor<64x32xf32>) -> tensor<32x64xf32>
    %185 = "stablehlo.dot_general"(%179, %184) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [0]>}> : (tensor<32x32xf32>, tensor<32x64xf32>) -> tensor<32x64xf32>
    %186 = "stablehlo.reshape"(%185) : (tensor<32x64xf32>) -> tensor<4x8x64xf32>
    %187 = "stablehlo.multiply"(%183, %186) : (tensor<4x8x64xf32>, tensor<4x8x64xf32>) -> tensor<4x8x64xf32>
    %188 = "stablehlo.transpose"(%arg7) <{permutation = array<i64: 1, 0>}> : (tensor<32x64xf32>) -> tensor<64x32xf32>
    %189 = "stablehlo.reshape"(%187) : (tensor<4x8x64xf32>) -> tensor<32x64xf32>
    %190 = "stablehlo.dot_general"(%189, %188) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [0]>}> : (tensor<32x64xf32>, tensor<64x32xf32>) -> tensor<32x32xf32>
    %191 = "stablehlo.reshape"(%190) : (tensor<32x32xf32>) -> tensor<4x8x32xf32>
    %192 = "stablehlo.add"(%167, %191) : (tensor<4x8x32xf32>, tensor<4x8x32xf32>) -> tensor<4x8x32xf32>
    %193 = "stablehlo.power"(%192, %54) : (tensor<4x8x32xf32>, tensor<4x8x32xf32>) -> tensor<4x8x32xf32>
    %194 = "stablehlo.reduce"(%193, %8) <{dimensions = array<i64: 2>}> ({
    ^bb0(%arg41: tensor<f32>, %arg42: tensor<f32>):
      %364 = "stablehlo.add"(%arg41, %arg42) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%364) : (tensor<f32>) -> ()
    }) : (tensor<4x8x32xf32>, tensor<f32>) -> tensor<4x8xf32>
    %195 = "stablehlo.reshape"(%194) : (tensor<4x8xf32>) -> tensor<4x8x1xf32>
    %196 = "stablehlo.divide"(%195, %60) : (tensor<4x8x1xf32>, tensor<4x8x1xf32>) -> tensor<4x8x1xf32>
    %197 = "stablehlo.add"(%196, %64) : (tensor<4x8x1xf32>, tensor<4x8x1xf32>) -> tensor<4x8x1xf32>
    %198 = "stablehlo.rsqrt"(%197) : (tensor<4x8x1xf32>) -> tensor<4x8x1xf32>
    %199 = "stablehlo.broadcast_in_dim"(%198) <{broadcast_dimensions = array<i64: 0, 1, 2>}> : (tensor<4x8x1xf32>) -> tensor<4x8x32xf32>
    %200 = "stablehlo.multiply"(%192, %199) : (tensor<4x8x32xf32>, tensor<4x8x32xf32>) -> tensor<4x8x32xf32>
    %201 = "stablehlo.broadcast_in_dim"(%arg17) <{broadcast_dimensions = array<i64: 2>}> : (tensor<32xf32>) -> tensor<4x8x32xf32>
    %202 = "stablehlo.multiply"(%201, %200) : (tensor<4x8x32xf32>, tensor<4x8x32xf32>) -> tensor<4x8x32xf32>
    %203 = "stablehlo.transpose"(%arg10) <{permutation = array<i64: 1, 0>}> : (tensor<32x32xf32>) -> tensor<32x32xf32>
    %204 = "stablehlo.reshape"(%202) : (tensor<4x8x32xf32>) -> tensor<32x32xf32>
    %205 = "stablehlo.dot_general"(%204, %203) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [0]>}> : (tensor<32x32xf32>, tensor<32x32xf32>) -> tensor<32x32xf32>
    %206 = "stablehlo.reshape"(%205) : (tensor<32x32xf32>) -> tensor<4x8x32xf32>
    %207 = "stablehlo.reshape"(%206) : (tensor<4x8x32xf32>) -> tensor<4x8x4x8xf32>
    %208 = "stablehlo.transpose"(%207) <{permutation = array<i64: 0, 2, 1, 3>}> : (tensor<4x8x4x8xf32>) -> tensor<4x4x8x8xf32>
    %209 = "stablehlo.transpose"(%arg11) <{permutation = array<i64: 1, 0>}> : (tensor<16x32xf32>) -> tensor<32x16xf32>
    %210 = "stablehlo.dot_general"(%204, %209) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [0]>}> : (tensor<32x32xf32>, tensor<32x16xf32>) -> tensor<32x16xf32>
    %211 = "stablehlo.reshape"(%210) : (tensor<32x16xf32>) -> tensor<4x8x16xf32>
    %212 = "stablehlo.reshape"(%211) : (tensor<4x8x16xf32>) -> tensor<4x8x2x8xf32>
    %213 = "stablehlo.transpose"(%212) <{permutation = array<i64: 0, 2, 1, 3>}> : (tensor<4x8x2x8xf32>) -> tensor<4x2x8x8xf32>
    %214 = "stablehlo.transpose"(%arg12) <{permutation = array<i64: 1, 0>}> : (tensor<16x32xf32>) -> tensor<32x16xf32>
    %215 = "stablehlo.dot_general"(%204, %214) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [0]>}> : (tensor<32x32xf32>, tensor<32x16xf32>) -> tensor<32x16xf32>
    %216 = "stablehlo.reshape"(%215) : (tensor<32x16xf32>) -> tensor<4x8x16xf32>
    %217 = "stablehlo.reshape"(%216) : (tensor<4x8x16xf32>) -> tensor<4x8x2x8xf32>
    %218 = "stablehlo.transpose"(%217) <{permutation = array<i64: 0, 2, 1, 3>}> : (tensor<4x8x2x8xf32>) -> tensor<4x2x8x8xf32>
    %219 = "stablehlo.multiply"(%208, %89) : (tensor<4x4x8x8xf32>, tensor<4x4x8x8xf32>) -> tensor<4x4x8x8xf32>
    %220 = "stablehlo.slice"(%208) <{limit_indices = array<i64: 4, 4, 8, 4>, start_indices = array<i64: 0, 0, 0, 0>, strides = array<i64: 1, 1, 1, 1>}> : (tensor<4x4x8x8xf32>) -> tensor<4x4x8x4xf32>
    %221 = "stablehlo.slice"(%208) <{limit_indices = array<i64: 4, 4, 8, 8>, start_indices = array<i64: 0, 0, 0, 4>, strides = array<i64: 1, 1, 1, 1>}> : (tensor<4x4x8x8xf32>) -> tensor<4x4x8x4xf32>
    %222 = "stablehlo.negate"(%221) : (tensor<4x4x8x4xf32>) -> tensor<4x4x8x4xf32>
    %223 = "stablehlo.concatenate"(%222, %220) <{dimension = 3 : i64}> : (tensor<4x4x8x4xf32>, tensor<4x4x8x4xf32>) -> tensor<4x4x8x8xf32>
    %224 = "stablehlo.multiply"(%223, %95) : (tensor<4x4x8x8xf32>, tensor<4x4x8x8xf32>) -> tensor<4x4x8x8xf32>
    %225 = "stablehlo.add"(%219, %224) : (tensor<4x4x8x8xf32>, tensor<4x4x8x8xf32>) -> tensor<4x4x8x8xf32>
    %226 = "stablehlo.multiply"(%213, %98) : (tensor<4x2x8x8xf32>, tensor<4x2x8x8xf32>) -> tensor<4x2x8x8xf32>
    %227 = "stablehlo.slice"(%213) <{limit_indices = array<i64: 4, 2, 8, 4>, start_indices = array<i64: 0, 0, 0, 0>, strides = array<i64: 1, 1, 1, 1>}> : (tensor<4x2x8x8xf32>) -> tensor<4x2x8x4xf32>
    %228 = "stablehlo.slice"(%213) <{limit_indices = array<i64: 4, 2, 8, 8>, start_indices = array<i64: 0, 0, 0, 4>, strides = array<i64: 1, 1, 1, 1>}> : (tensor<4x2x8x8xf32>) -> tensor<4x2x8x4xf32>
    %229 = "stablehlo.negate"(%228) : (tensor<4x2x8x4xf32>) -> tensor<4x2x8x4xf32>
    %230 = "stablehlo.concatenate"(%229, %227) <{dimension = 3 : i64}> : (tensor<4x2x8x4xf32>, tensor<4x2x8x4xf32>) -> tensor<4x2x8x8xf32>
    %231 = "stablehlo.multiply"(%230, %104) : (tensor<4x2x8x8xf32>, tensor<4x2x8x8xf32>) -> tensor<4x2x8x8xf32>
    %232 = "stablehlo.add"(%226, %231) : (tensor<4x2x8x8xf32>, tensor<4x2x8x8xf32>) -> tensor<4x2x8x8xf32>
    %233 = "stablehlo.reshape"(%232) : (tensor<4x2x8x8xf32>) -> tensor<4x2x1x8x8xf32>
    %234 = "stablehlo.broadcast_in_dim"(%233) <{broadcast_dimensions = array<i64: 0, 1, 2, 3, 4>}> : (tensor<4x2x1x8x8xf32>) -> tensor<4x2x2x8x8xf32>
    %235 = "stablehlo.reshape"(%234) : (tensor<4x2x2x8x8xf32>) -> tensor<4x4x8x8xf32>
    %236 = "stablehlo.reshape"(%218) : (tensor<4x2x8x8xf32>) -> tensor<4x2x1x8x8xf32>
    %237 = "stablehlo.broadcast_in_dim"(%236) <{broadcast_dimensions = array<i64: 0, 1, 2, 3, 4>}> : (tensor<4x2x1x8x8xf32>) -> tensor<4x2x2x8x8xf32>
    %238 = "stablehlo.reshape"(%237) : (tensor<4x2x2x8x8xf32>) -> tensor<4x4x8x8xf32>
    %239 = "stablehlo.multiply"(%225, %119) : (tensor<4x4x8x8xf32>, tensor<4x4x8x8xf32>) -> tensor<4x4x8x8xf32>
    %240 = "stablehlo.transpose"(%235) <{permutation = array<i64: 0, 1, 3, 2>}> : (tensor<4x4x8x8xf32>) -> tensor<4x4x8x8xf32>
    %241 = "stablehlo.multiply"(%240, %119) : (tensor<4x4x8x8xf32>, tensor<4x4x8x8xf32>) -> tensor<4x4x8x8xf32>
    %242 = "stablehlo.reshape"(%239) : (tensor<4x4x8x8xf32>) -> tensor<16x8x8xf32>
    %243 = "stablehlo.reshape"(%241) : (tensor<4x4x8x8xf32>) -> tensor<16x8x8xf32>
    %244 = "stablehlo.broadcast_in_dim"(%243) <{broadcast_dimensions = array<i64: 0, 1, 2>}> : (tensor<16x8x8xf32>) -> tensor<16x8x8xf32>
    %245 = "stablehlo.dot_general"(%242, %244) <{dot_dimension_numbers = #stablehlo.dot<lhs_batching_dimensions = [0], rhs_batching_dimensions = [0], lhs_contracting_dimensions = [2], rhs_contracting_dimensions = [1]>}> : (tensor<16x8x8xf32>, tensor<16x8x8xf32>) -> tensor<16x8x8xf32>
    %246 = "stablehlo.reshape"(%245) : (tensor<16x8x8xf32>) -> tensor<4x4x8x8xf32>
    %247 = "stablehlo.add"(%246, %128) : (tensor<4x4x8x8xf32>, tensor<4x4x8x8xf32>) -> tensor<4x4x8x8xf32>
    %248 = "stablehlo.reduce"(%247, %9) <{dimensions = array<i64: 3>}> ({
    ^bb0(%arg39: tensor<f32>, %arg40: tensor<f32>):
      %363 = "stablehlo.maximum"(%arg39, %arg40) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%363) : (tensor<f32>) -> ()
    }) : (tensor<4x4x8x8xf32>, tensor<f32>) -> tensor<4x4x8xf32>
    %249 = "stablehlo.reshape"(%248) : (tensor<4x4x8xf32>) -> tensor<4x4x8x1xf32>
    %250 = "stablehlo.broadcast_in_dim"(%249) <{broadcast_dimensions = array<i64: 0, 1, 2, 3>}> : (tensor<4x4x8x1xf32>) -> tensor<4x4x8x8xf32>
    %251 = "stablehlo.subtract"(%247, %250) : (tensor<4x4x8x8xf32>, tensor<4x4x8x8xf32>) -> tensor<4x4x8x8xf32>
    %252 = "stablehlo.exponential"(%251) : (tensor<4x4x8x8xf32>) -> tensor<4x4x8x8xf32>
    %253 = "stablehlo.reduce"(%252, %8) <{dimensions = array<i64: 3>}> ({
    ^bb0(%arg37: tensor<f32>, %arg38: tensor<f32>):
      %362 = "stablehlo.add"(%arg37, %arg38) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%362) : (tensor<f32>) -> ()
    }) : (tensor<4x4x8x8xf32>, tensor<f32>) -> tensor<4x4x8xf32>
    %254 = "stablehlo.reshape"(%253) : (tensor<4x4x8xf32>) -> tensor<4x4x8x1xf32>
    %255 = "stablehlo.broadcast_in_dim"(%254) <{broadcast_dimensions = array<i64: 0, 1, 2, 3>}> : (tensor<4x4x8x1xf32>) -> tensor<4x4x8x8xf32>
    %256 = "stablehlo.divide"(%252, %255) : (tensor<4x4x8x8xf32>, tensor<4x4x8x8xf32>) -> tensor<4x4x8x8xf32>
    %257 = "stablehlo.compare"(%247, %142) <{compare_type = #stablehlo<comparison_type FLOAT>, comparison_direction = #stablehlo<comparison_direction EQ>}> : (tensor<4x4x8x8xf32>, tensor<4x4x8x8xf32>) -> tensor<4x4x8x8xi1>
    %258 = "stablehlo.reduce"(%257, %11) <{dimensions = array<i64: 3>}> ({
    ^bb0(%arg35: tensor<i1>, %arg36: tensor<i1>):
      %361 = "stablehlo.and"(%arg35, %arg36) : (tensor<i1>, tensor<i1>) -> tensor<i1>
      "stablehlo.return"(%361) : (tensor<i1>) -> ()
    }) : (tensor<4x4x8x8xi1>, tensor<i1>) -> tensor<4x4x8xi1>
    %259 = "stablehlo.reshape"(%258) : (tensor<4x4x8xi1>) -> tensor<4x4x8x1xi1>
    %260 = "stablehlo.broadcast_in_dim"(%259) <{broadcast_dimensions = array<i64: 0, 1, 2, 3>}> : (tensor<4x4x8x1xi1>) -> tensor<4x4x8x8xi1>
    %261 = "stablehlo.broadcast_in_dim"(%256) <{broadcast_dimensions = array<i64: 0, 1, 2, 3>}> : (tensor<4x4x8x8xf32>) -> tensor<4x4x8x8xf32>
    %262 = "stablehlo.select"(%260, %147, %261) : (tensor<4x4x8x8xi1>, tensor<4x4x8x8xf32>, tensor<4x4x8x8xf32>) -> tensor<4x4x8x8xf32>
    %263 = "stablehlo.reshape"(%262) : (tensor<4x4x8x8xf32>) -> tensor<16x8x8xf32>
    %264 = "stablehlo.reshape"(%238) : (tensor<4x4x8x8xf32>) -> tensor<16x8x8xf32>
    %265 = "stablehlo.broadcast_in_dim"(%264) <{broadcast_dimensions = array<i64: 0, 1, 2>}> : (tensor<16x8x8xf32>) -> tensor<16x8x8xf32>
    %266 = "stablehlo.dot_general"(%263, %265) <{dot_dimension_numbers = #stablehlo.dot<lhs_batching_dimensions = [0], rhs_batching_dimensions = [0], lhs_contracting_dimensions = [2], rhs_contracting_dimensions = [1]>}> : (tensor<16x8x8xf32>, tensor<16x8x8xf32>) -> tensor<16x8x8xf32>
    %267 = "stablehlo.reshape"(%266) : (tensor<16x8x8xf32>) -> tensor<4x4x8x8xf32>
    %268 = "stablehlo.transpose"(%267) <{permutation = array<i64: 2, 0, 1, 3>}> : (tensor<4x4x8x8xf32>) -> tensor<8x4x4x8xf32>
    %269 = "stablehlo.transpose"(%268) <{permutation = array<i64: 1, 2, 0, 3>}> : (tensor<8x4x4x8xf32>) -> tensor<4x4x8x8xf32>
    %270 = "stablehlo.reshape"(%269) : (tensor<4x4x8x8xf32>) -> tensor<4x4x8x8xf32>
    %271 = "stablehlo.transpose"(%270) <{permutation = array<i64: 0, 2, 1, 3>}> : (tensor<4x4x8x8xf32>) -> tensor<4x8x4x8xf32>
    %272 = "stablehlo.reshape"(%271) : (tensor<4x8x4x8xf32>) -> tensor<4x8x32xf32>
    %273 = "stablehlo.transpose"(%arg13) <{permutation = array<i64: 1, 0>}> : (tensor<32x32xf32>) -> tensor<32x32xf32>
    %274 = "stablehlo.reshape"(%272) : (tensor<4x8x32xf32>) -> tensor<4x8x32xf32>
    %275 = "stablehlo.broadcast_in_dim"(%273) <{broadcast_dimensions = array<i64: 1, 2>}> : (tensor<32x32xf32>) -> tensor<4x32x32xf32>
    %276 = "stablehlo.reshape"(%275) : (tensor<4x32x32xf32>) -> tensor<4x32x32xf32>
    %277 = "stablehlo.broadcast_in_dim"(%276) <{broadcast_dimensions = array<i64: 0, 1, 2>}> : (tensor<4x32x32xf32>) -> tensor<4x32x32xf32>
    %278 = "stablehlo.dot_general"(%274, %277) <{dot_dimension_numbers = #stablehlo.dot<lhs_batching_dimensions = [0], rhs_batching_dimensions = [0], lhs_contracting_dimensions = [2], rhs_contracting_dimensions = [1]>}> : (tensor<4x8x32xf32>, tensor<4x32x32xf32>) -> tensor<4x8x32xf32>
    %279 = "stablehlo.reshape"(%278) : (tensor<4x8x32xf32>) -> tensor<4x8x32xf32>
    %280 = "stablehlo.add"(%192, %279) : (tensor<4x8x32xf32>, tensor<4x8x32xf32>) -> tensor<4x8x32xf32>
    %281 = "stablehlo.power"(%280, %54) : (tensor<4x8x32xf32>, tensor<4x8x32xf32>) -> tensor<4x8x32xf32>
    %282 = "stablehlo.reduce"(%281, %8) <{dimensions = array<i64: 2>}> ({
    ^bb0(%arg33: tensor<f32>, %arg34: tensor<f32>):
      %360 = "stablehlo.add"(%arg33, %arg34) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%360) : (tensor<f32>) -> ()
    }) : (tensor<4x8x32xf32>, tensor<f32>) -> tensor<4x8xf32>
    %283 = "stablehlo.reshape"(%282) : (tensor<4x8xf32>) -> tensor<4x8x1xf32>
    %284 = "stablehlo.divide"(%283, %60) : (tensor<4x8x1xf32>, tensor<4x8x1xf32>) -> tensor<4x8x1xf32>
    %285 = "stablehlo.add"(%284, %64) : (tensor<4x8x1xf32>, tensor<4x8x1xf32>) -> tensor<4x8x1xf32>
    %286 = "stablehlo.rsqrt"(%285) : (tensor<4x8x1xf32>) -> tensor<4x8x1xf32>
    %287 = "stablehlo.broadcast_in_dim"(%286) <{broadcast_dimensions = array<i64: 0, 1, 2>}> : (tensor<4x8x1xf32>) -> tensor<4x8x32xf32>
    %288 = "stablehlo.multiply"(%280, %287) : (tensor<4x8x32xf32>, tensor<4x8x32xf32>) -> tensor<4x8x32xf32>
    %289 = "stablehlo.broadcast_in_dim"(%arg18) <{broadcast_dimensions = array<i64: 2>}> : (tensor<32xf32>) -> tensor<4x8x32xf32>
    %290 = "stablehlo.multiply"(%289, %288) : (tensor<4x8x32xf32>, tensor<4x8x32xf32>) -> tensor<4x8x32xf32>
    %291 = "stablehlo.transpose"(%arg14) <{permutation = array<i64: 1, 0>}> : (tensor<64x32xf32>) -> tensor<32x64xf32>
    %292 = "stablehlo.reshape"(%290) : (tensor<4x8x32xf32>) -> tensor<32x32xf32>
    %293 = "stablehlo.dot_general"(%292, %291) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [0]>}> : (tensor<32x32xf32>, tensor<32x64xf32>) -> tensor<32x64xf32>
    %294 = "stablehlo.reshape"(%293) : (tensor<32x64xf32>) -> tensor<4x8x64xf32>
    %295 = "stablehlo.logistic"(%294) : (tensor<4x8x64xf32>) -> tensor<4x8x64xf32>
    %296 = "stablehlo.multiply"(%294, %295) : (tensor<4x8x64xf32>, tensor<4x8x64xf32>) -> tensor<4x8x64xf32>
    %297 = "stablehlo.transpose"(%arg15) <{permutation = array<i64: 1, 0>}> : (tensor<64x32xf32>) -> tensor<32x64xf32>
    %298 = "stablehlo.dot_general"(%292, %297) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [0]>}> : (tensor<32x32xf32>, tensor<32x64xf32>) -> tensor<32x64xf32>
    %299 = "stablehlo.reshape"(%298) : (tensor<32x64xf32>) -> tensor<4x8x64xf32>
    %300 = "stablehlo.multiply"(%296, %299) : (tensor<4x8x64xf32>, tensor<4x8x64xf32>) -> tensor<4x8x64xf32>
    %301 = "stablehlo.transpose"(%arg16) <{permutation = array<i64: 1, 0>}> : (tensor<32x64xf32>) -> tensor<64x32xf32>
    %302 = "stablehlo.reshape"(%300) : (tensor<4x8x64xf32>) -> tensor<32x64xf32>
    %303 = "stablehlo.dot_general"(%302, %301) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [0]>}> : (tensor<32x64xf32>, tensor<64x32xf32>) -> tensor<32x32xf32>
    %304 = "stablehlo.reshape"(%303) : (tensor<32x32xf32>) -> tensor<4x8x32xf32>
    %305 = "stablehlo.add"(%280, %304) : (tensor<4x8x32xf32>, tensor<4x8x32xf32>) -> tensor<4x8x32xf32>
    %306 = "stablehlo.power"(%305, %54) : (tensor<4x8x32xf32>, tensor<4x8x32xf32>) -> tensor<4x8x32xf32>
    %307 = "stablehlo.reduce"(%306, %8) <{dimensions = array<i64: 2>}> ({
    ^bb0(%arg31: tensor<f32>, %arg32: tensor<f32>):
      %359 = "stablehlo.add"(%arg31, %arg32) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%359) : (tensor<f32>) -> ()
    }) : (tensor<4x8x32xf32>, tensor<f32>) -> tensor<4x8xf32>
    %308 = "stablehlo.reshape"(%307) : (tensor<4x8xf32>) -> tensor<4x8x1xf32>
    %309 = "stablehlo.divide"(%308, %60) : (tensor<4x8x1xf32>, tensor<4x8x1xf32>) -> tensor<4x8x1xf32>
    %310 = "stablehlo.add"(%309, %64) : (tensor<4x8x1xf32>, tensor<4x8x1xf32>) -> tensor<4x8x1xf32>
    %311 = "stablehlo.rsqrt"(%310) : (tensor<4x8x1xf32>) -> tensor<4x8x1xf32>
    %312 = "stablehlo.broadcast_in_dim"(%311) <{broadcast_dimensions = array<i64: 0, 1, 2>}> : (tensor<4x8x1xf32>) -> tensor<4x8x32xf32>
    %313 = "stablehlo.multiply"(%305, %312) : (tensor<4x8x32xf32>, tensor<4x8x32xf32>) -> tensor<4x8x32xf32>
    %314 = "stablehlo.broadcast_in_dim"(%arg19) <{broadcast_dimensions = array<i64: 2>}> : (tensor<32xf32>) -> tensor<4x8x32xf32>
    %315 = "stablehlo.multiply"(%314, %313) : (tensor<4x8x32xf32>, tensor<4x8x32xf32>) -> tensor<4x8x32xf32>
    %316 = "stablehlo.transpose"(%arg20) <{permutation = array<i64: 1, 0>}> : (tensor<64x32xf32>) -> tensor<32x64xf32>
    %317 = "stablehlo.reshape"(%315) : (tensor<4x8x32xf32>) -> tensor<32x32xf32>
    %318 = "stablehlo.dot_general"(%317, %316) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [0]>}> : (tensor<32x32xf32>, tensor<32x64xf32>) -> tensor<32x64xf32>
    %319 = "stablehlo.reshape"(%318) : (tensor<32x64xf32>) -> tensor<4x8x64xf32>
    %320 = "stablehlo.convert"(%18) : (tensor<1xf64>) -> tensor<1xi64>
    %321 = "stablehlo.reshape"(%320) : (tensor<1xi64>) -> tensor<i64>
    %322 = "stablehlo.pad"(%arg22, %321) <{edge_padding_high = array<i64: 0, 1>, edge_padding_low = array<i64: 0, 0>, interior_padding = array<i64: 0, 0>}> : (tensor<4x8xi64>, tensor<i64>) -> tensor<4x9xi64>
    %323 = "stablehlo.slice"(%322) <{limit_indices = array<i64: 4, 9>, start_indices = array<i64: 0, 1>, strides = array<i64: 1, 1>}> : (tensor<4x9xi64>) -> tensor<4x8xi64>
    %324 = "stablehlo.reshape"(%319) : (tensor<4x8x64xf32>) -> tensor<32x64xf32>
    %325 = "stablehlo.reshape"(%323) : (tensor<4x8xi64>) -> tensor<32xi64>
    %326 = "stablehlo.reduce"(%324, %9) <{dimensions = array<i64: 1>}> ({
    ^bb0(%arg29: tensor<f32>, %arg30: tensor<f32>):
      %358 = "stablehlo.maximum"(%arg29, %arg30) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%358) : (tensor<f32>) -> ()
    }) : (tensor<32x64xf32>, tensor<f32>) -> tensor<32xf32>
    %327 = "stablehlo.reshape"(%326) : (tensor<32xf32>) -> tensor<32x1xf32>
    %328 = "stablehlo.broadcast_in_dim"(%327) <{broadcast_dimensions = array<i64: 0, 1>}> : (tensor<32x1xf32>) -> tensor<32x64xf32>
    %329 = "stablehlo.subtract"(%324, %328) : (tensor<32x64xf32>, tensor<32x64xf32>) -> tensor<32x64xf32>
    %330 = "stablehlo.exponential"(%329) : (tensor<32x64xf32>) -> tensor<32x64xf32>
    %331 = "stablehlo.reduce"(%330, %8) <{dimensions = array<i64: 1>}> ({
    ^bb0(%arg27: tensor<f32>, %arg28: tensor<f32>):
      %357 = "stablehlo.add"(%arg27, %arg28) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%357) : (tensor<f32>) -> ()
    }) : (tensor<32x64xf32>, tensor<f32>) -> tensor<32xf32>
    %332 = "stablehlo.reshape"(%331) : (tensor<32xf32>) -> tensor<32x1xf32>
    %333 = "stablehlo.log"(%332) : (tensor<32x1xf32>) -> tensor<32x1xf32>
    %334 = "stablehlo.broadcast_in_dim"(%333) <{broadcast_dimensions = array<i64: 0, 1>}> : (tensor<32x1xf32>) -> tensor<32x64xf32>
    %335 = "stablehlo.subtract"(%329, %334) : (tensor<32x64xf32>, tensor<32x64xf32>) -> tensor<32x64xf32>
    %336 = "stablehlo.compare"(%325, %1) <{compare_type = #stablehlo<comparison_type SIGNED>, comparison_direction = #stablehlo<comparison_direction NE>}> : (tensor<32xi64>, tensor<32xi64>) -> tensor<32xi1>
    %337 = "stablehlo.broadcast_in_dim"(%336) <{broadcast_dimensions = array<i64: 0>}> : (tensor<32xi1>) -> tensor<32xi1>
    %338 = "stablehlo.broadcast_in_dim"(%325) <{broadcast_dimensions = array<i64: 0>}> : (tensor<32xi64>) -> tensor<32xi64>
    %339 = "stablehlo.select"(%337, %338, %0) : (tensor<32xi1>, tensor<32xi64>, tensor<32xi64>) -> tensor<32xi64>
    %340 = "stablehlo.reshape"(%339) : (tensor<32xi64>) -> tensor<32x1xi64>
    %341 = "stablehlo.iota"() <{iota_dimension = 0 : i64}> : () -> tensor<32x1x1xi64>
    %342 = "stablehlo.reshape"(%340) : (tensor<32x1xi64>) -> tensor<32x1x1xi64>
    %343 = "stablehlo.concatenate"(%341, %342) <{dimension = 2 : i64}> : (tensor<32x1x1xi64>, tensor<32x1x1xi64>) -> tensor<32x1x2xi64>
    %344 = "stablehlo.gather"(%335, %343) <{dimension_numbers = #stablehlo.gather<collapsed_slice_dims = [0, 1], start_index_map = [0, 1], index_vector_dim = 2>, slice_sizes = array<i64: 1, 1>}> : (tensor<32x64xf32>, tensor<32x1x2xi64>) -> tensor<32x1xf32>
    %345 = "stablehlo.reshape"(%344) : (tensor<32x1xf32>) -> tensor<32xf32>
    %346 = "stablehlo.negate"(%345) : (tensor<32xf32>) -> tensor<32xf32>
    %347 = "stablehlo.broadcast_in_dim"(%346) <{broadcast_dimensions = array<i64: 0>}> : (tensor<32xf32>) -> tensor<32xf32>
    %348 = "stablehlo.broadcast_in_dim"(%8) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<32xf32>
    %349 = "stablehlo.select"(%337, %347, %348) : (tensor<32xi1>, tensor<32xf32>, tensor<32xf32>) -> tensor<32xf32>
    %350 = "stablehlo.convert"(%336) : (tensor<32xi1>) -> tensor<32xi64>
    %351 = "stablehlo.reduce"(%350, %6) <{dimensions = array<i64: 0>}> ({
    ^bb0(%arg25: tensor<i64>, %arg26: tensor<i64>):
      %356 = "stablehlo.add"(%arg25, %arg26) : (tensor<i64>, tensor<i64>) -> tensor<i64>
      "stablehlo.return"(%356) : (tensor<i64>) -> ()
    }) : (tensor<32xi64>, tensor<i64>) -> tensor<i64>
    %352 = "stablehlo.convert"(%351) : (tensor<i64>) -> tensor<f32>
    %353 = "stablehlo.reduce"(%349, %8) <{dimensions = array<i64: 0>}> ({
    ^bb0(%arg23: tensor<f32>, %arg24: tensor<f32>):
      %355 = "stablehlo.add"(%arg23, %arg24) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%355) : (tensor<f32>) -> ()
    }) : (tensor<32xf32>, tensor<f32>) -> tensor<f32>
    %354 = "stablehlo.divide"(%353, %352) : (tensor<f32>, tensor<f32>) -> tensor<f32>
    "func.return"(%354) : (tensor<f32>) -> ()
  }) : () -> ()
}) : () -> ()
