"builtin.module"() ({
  "sdy.mesh"() <{mesh = #sdy.mesh<["dp"=2, "tp"=2]>, sym_name = "mesh"}> : () -> ()
  "func.func"() <{arg_attrs = [{dist.requires_grad, sdy.sharding = #sdy.sharding<@mesh, [{}, {}]>}, {dist.requires_grad, sdy.sharding = #sdy.sharding<@mesh, [{"tp"}, {}]>}, {dist.requires_grad, sdy.sharding = #sdy.sharding<@mesh, [{"tp"}]>}, {dist.requires_grad, sdy.sharding = #sdy.sharding<@mesh, [{"tp"}, {}]>}, {dist.requires_grad, sdy.sharding = #sdy.sharding<@mesh, [{"tp"}]>}, {dist.requires_grad, sdy.sharding = #sdy.sharding<@mesh, [{"tp"}, {}]>}, {dist.requires_grad, sdy.sharding = #sdy.sharding<@mesh, [{"tp"}]>}, {dist.requires_grad, sdy.sharding = #sdy.sharding<@mesh, [{}, {"tp"}]>}, {dist.requires_grad, sdy.sharding = #sdy.sharding<@mesh, [{}, {}]>}, {dist.requires_grad, sdy.sharding = #sdy.sharding<@mesh, [{}, {}]>}, {dist.requires_grad, sdy.sharding = #sdy.sharding<@mesh, [{}, {}]>}, {dist.requires_grad, sdy.sharding = #sdy.sharding<@mesh, [{}]>}, {dist.requires_grad, sdy.sharding = #sdy.sharding<@mesh, [{}]>}, {dist.requires_grad, sdy.sharding = #sdy.sharding<@mesh, [{"tp"}, {}]>}, {dist.requires_grad, sdy.sharding = #sdy.sharding<@mesh, [{"tp"}]>}, {dist.requires_grad, sdy.sharding = #sdy.sharding<@mesh, [{"tp"}, {}]>}, {dist.requires_grad, sdy.sharding = #sdy.sharding<@mesh, [{"tp"}]>}, {dist.requires_grad, sdy.sharding = #sdy.sharding<@mesh, [{"tp"}, {}]>}, {dist.requires_grad, sdy.sharding = #sdy.sharding<@mesh, [{"tp"}]>}, {dist.requires_grad, sdy.sharding = #sdy.sharding<@mesh, [{}, {"tp"}]>}, {dist.requires_grad, sdy.sharding = #sdy.sharding<@mesh, [{}, {}]>}, {dist.requires_grad, sdy.sharding = #sdy.sharding<@mesh, [{}, {}]>}, {dist.requires_grad, sdy.sharding = #sdy.sharding<@mesh, [{}, {}]>}, {dist.requires_grad, sdy.sharding = #sdy.sharding<@mesh, [{}]>}, {dist.requires_grad, sdy.sharding = #sdy.sharding<@mesh, [{}]>}, {dist.requires_grad, sdy.sharding = #sdy.sharding<@mesh, [{}]>}, {dist.requires_grad, sdy.sharding = #sdy.sharding<@mesh, [{"tp"}, {}]>}, {sdy.sharding = #sdy.sharding<@mesh, [{"dp"}, {}]>}, {sdy.sharding = #sdy.sharding<@mesh, [{"dp"}, {}]>}], function_type = (tensor<64x32xf32>, tensor<32x32xf32>, tensor<32xf32>, tensor<16x32xf32>, tensor<16xf32>, tensor<16x32xf32>, tensor<16xf32>, tensor<32x32xf32>, tensor<64x32xf32>, tensor<64x32xf32>, tensor<32x64xf32>, tensor<32xf32>, tensor<32xf32>, tensor<32x32xf32>, tensor<32xf32>, tensor<16x32xf32>, tensor<16xf32>, tensor<16x32xf32>, tensor<16xf32>, tensor<32x32xf32>, tensor<64x32xf32>, tensor<64x32xf32>, tensor<32x64xf32>, tensor<32xf32>, tensor<32xf32>, tensor<32xf32>, tensor<64x32xf32>, tensor<4x8xi64>, tensor<4x8xi64>) -> tensor<f32>, res_attrs = [{sdy.sharding = #sdy.sharding<@mesh, []>}], sym_name = "main"}> ({
  ^bb0(%arg0: tensor<64x32xf32>, %arg1: tensor<32x32xf32>, %arg2: tensor<32xf32>, %arg3: tensor<16x32xf32>, %arg4: tensor<16xf32>, %arg5: tensor<16x32xf32>, %arg6: tensor<16xf32>, %arg7: tensor<32x32xf32>, %arg8: tensor<64x32xf32>, %arg9: tensor<64x32xf32>, %arg10: tensor<32x64xf32>, %arg11: tensor<32xf32>, %arg12: tensor<32xf32>, %arg13: tensor<32x32xf32>, %arg14: tensor<32xf32>, %arg15: tensor<16x32xf32>, %arg16: tensor<16xf32>, %arg17: tensor<16x32xf32>, %arg18: tensor<16xf32>, %arg19: tensor<32x32xf32>, %arg20: tensor<64x32xf32>, %arg21: tensor<64x32xf32>, %arg22: tensor<32x64xf32>, %arg23: tensor<32xf32>, %arg24: tensor<32xf32>, %arg25: tensor<32xf32>, %arg26: tensor<64x32xf32>, %arg27: tensor<4x8xi64>, %arg28: tensor<4x8xi64>):
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
    %12 = "arith.constant"() <{value = dense<1> : tensor<1xi64>}> : () -> tensor<1xi64>
    %13 = "arith.constant"() <{value = dense<1.000000e+00> : tensor<1xf64>}> : () -> tensor<1xf64>
    %14 = "arith.constant"() <{value = dense<2> : tensor<1xi64>}> : () -> tensor<1xi64>
    %15 = "arith.constant"() <{value = dense<32> : tensor<1xi64>}> : () -> tensor<1xi64>
    %16 = "arith.constant"() <{value = dense<9.9999999999999995E-7> : tensor<1xf64>}> : () -> tensor<1xf64>
    %17 = "arith.constant"() <{value = dense<0.59460355750136051> : tensor<1xf64>}> : () -> tensor<1xf64>
    %18 = "arith.constant"() <{value = dense<0xFFF0000000000000> : tensor<1xf64>}> : () -> tensor<1xf64>
    %19 = "arith.constant"() <{value = dense<-1.000000e+02> : tensor<1xf64>}> : () -> tensor<1xf64>
    %20 = "stablehlo.gather"(%arg0, %arg27) <{dimension_numbers = #stablehlo.gather<offset_dims = [2], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 2>, indices_are_sorted = false, slice_sizes = array<i64: 1, 32>}> : (tensor<64x32xf32>, tensor<4x8xi64>) -> tensor<4x8x32xf32>
    %21 = "stablehlo.convert"(%20) : (tensor<4x8x32xf32>) -> tensor<4x8x32xf32>
    %22 = "stablehlo.convert"(%5) : (tensor<i64>) -> tensor<f64>
    %23 = "stablehlo.convert"(%4) : (tensor<i64>) -> tensor<f64>
    %24 = "stablehlo.divide"(%23, %22) : (tensor<f64>, tensor<f64>) -> tensor<f64>
    %25 = "stablehlo.ceil"(%24) : (tensor<f64>) -> tensor<f64>
    %26 = "stablehlo.convert"(%25) : (tensor<f64>) -> tensor<i64>
    %27 = "stablehlo.reshape"(%26) : (tensor<i64>) -> tensor<1xi64>
    %28 = "stablehlo.dynamic_iota"(%27) <{iota_dimension = 0 : i64}> : (tensor<1xi64>) -> tensor<8xi64>
    %29 = "stablehlo.multiply"(%28, %3) : (tensor<8xi64>, tensor<8xi64>) -> tensor<8xi64>
    %30 = "stablehlo.add"(%29, %2) : (tensor<8xi64>, tensor<8xi64>) -> tensor<8xi64>
    %31 = "stablehlo.add"(%30, %2) : (tensor<8xi64>, tensor<8xi64>) -> tensor<8xi64>
    %32 = "stablehlo.reshape"(%31) : (tensor<8xi64>) -> tensor<1x8xi64>
    %33 = "stablehlo.reshape"(%32) : (tensor<1x8xi64>) -> tensor<1x1x8xi64>
    %34 = "stablehlo.reshape"(%33) : (tensor<1x1x8xi64>) -> tensor<1x1x8x1xi64>
    %35 = "stablehlo.reshape"(%33) : (tensor<1x1x8xi64>) -> tensor<1x1x1x8xi64>
    %36 = "stablehlo.broadcast_in_dim"(%35) <{broadcast_dimensions = array<i64: 0, 1, 2, 3>}> : (tensor<1x1x1x8xi64>) -> tensor<1x1x8x8xi64>
    %37 = "stablehlo.broadcast_in_dim"(%34) <{broadcast_dimensions = array<i64: 0, 1, 2, 3>}> : (tensor<1x1x8x1xi64>) -> tensor<1x1x8x8xi64>
    %38 = "stablehlo.compare"(%36, %37) <{compare_type = #stablehlo<comparison_type SIGNED>, comparison_direction = #stablehlo<comparison_direction LE>}> : (tensor<1x1x8x8xi64>, tensor<1x1x8x8xi64>) -> tensor<1x1x8x8xi1>
    %39 = "stablehlo.broadcast_in_dim"(%38) <{broadcast_dimensions = array<i64: 0, 1, 2, 3>}> : (tensor<1x1x8x8xi1>) -> tensor<4x1x8x8xi1>
    %40 = "stablehlo.reshape"(%32) : (tensor<1x8xi64>) -> tensor<1x8x1xi64>
    %41 = "stablehlo.convert"(%40) : (tensor<1x8x1xi64>) -> tensor<1x8x1xf32>
    %42 = "stablehlo.broadcast_in_dim"(%41) <{broadcast_dimensions = array<i64: 0, 1, 2>}> : (tensor<1x8x1xf32>) -> tensor<1x8x4xf32>
    %43 = "stablehlo.broadcast_in_dim"(%10) <{broadcast_dimensions = array<i64: 2>}> : (tensor<4xf32>) -> tensor<1x8x4xf32>
    %44 = "stablehlo.multiply"(%42, %43) : (tensor<1x8x4xf32>, tensor<1x8x4xf32>) -> tensor<1x8x4xf32>
    %45 = "stablehlo.concatenate"(%44, %44) <{dimension = 2 : i64}> : (tensor<1x8x4xf32>, tensor<1x8x4xf32>) -> tensor<1x8x8xf32>
    %46 = "stablehlo.cosine"(%45) : (tensor<1x8x8xf32>) -> tensor<1x8x8xf32>
    %47 = "stablehlo.convert"(%13) : (tensor<1xf64>) -> tensor<1xf32>
    %48 = "stablehlo.reshape"(%47) : (tensor<1xf32>) -> tensor<f32>
    %49 = "stablehlo.broadcast_in_dim"(%48) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<1x8x8xf32>
    %50 = "stablehlo.multiply"(%46, %49) : (tensor<1x8x8xf32>, tensor<1x8x8xf32>) -> tensor<1x8x8xf32>
    %51 = "stablehlo.sine"(%45) : (tensor<1x8x8xf32>) -> tensor<1x8x8xf32>
    %52 = "stablehlo.multiply"(%51, %49) : (tensor<1x8x8xf32>, tensor<1x8x8xf32>) -> tensor<1x8x8xf32>
    %53 = "stablehlo.convert"(%14) : (tensor<1xi64>) -> tensor<1xf32>
    %54 = "stablehlo.reshape"(%53) : (tensor<1xf32>) -> tensor<f32>
    %55 = "stablehlo.broadcast_in_dim"(%54) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<4x8x32xf32>
    %56 = "stablehlo.power"(%21, %55) : (tensor<4x8x32xf32>, tensor<4x8x32xf32>) -> tensor<4x8x32xf32>
    %57 = "stablehlo.reduce"(%56, %8) <{dimensions = array<i64: 2>}> ({
    ^bb0(%arg57: tensor<f32>, %arg58: tensor<f32>):
      %398 = "stablehlo.add"(%arg57, %arg58) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%398) : (tensor<f32>) -> ()
    }) : (tensor<4x8x32xf32>, tensor<f32>) -> tensor<4x8xf32>
    %58 = "stablehlo.reshape"(%57) : (tensor<4x8xf32>) -> tensor<4x8x1xf32>
    %59 = "stablehlo.convert"(%15) : (tensor<1xi64>) -> tensor<1xf32>
    %60 = "stablehlo.reshape"(%59) : (tensor<1xf32>) -> tensor<f32>
    %61 = "stablehlo.broadcast_in_dim"(%60) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<4x8x1xf32>
    %62 = "stablehlo.divide"(%58, %61) : (tensor<4x8x1xf32>, tensor<4x8x1xf32>) -> tensor<4x8x1xf32>
    %63 = "stablehlo.convert"(%16) : (tensor<1xf64>) -> tensor<1xf32>
    %64 = "stablehlo.reshape"(%63) : (tensor<1xf32>) -> tensor<f32>
    %65 = "stablehlo.broadcast_in_dim"(%64) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<4x8x1xf32>
    %66 = "stablehlo.add"(%62, %65) : (tensor<4x8x1xf32>, tensor<4x8x1xf32>) -> tensor<4x8x1xf32>
    %67 = "stablehlo.rsqrt"(%66) : (tensor<4x8x1xf32>) -> tensor<4x8x1xf32>
    %68 = "stablehlo.broadcast_in_dim"(%67) <{broadcast_dimensions = array<i64: 0, 1, 2>}> : (tensor<4x8x1xf32>) -> tensor<4x8x32xf32>
    %69 = "stablehlo.multiply"(%21, %68) : (tensor<4x8x32xf32>, tensor<4x8x32xf32>) -> tensor<4x8x32xf32>
    %70 = "stablehlo.broadcast_in_dim"(%arg11) <{broadcast_dimensions = array<i64: 2>}> : (tensor<32xf32>) -> tensor<4x8x32xf32>
    %71 = "stablehlo.multiply"(%70, %69) : (tensor<4x8x32xf32>, tensor<4x8x32xf32>) -> tensor<4x8x32xf32>
    %72 = "stablehlo.reshape"(%71) : (tensor<4x8x32xf32>) -> tensor<32x32xf32>
    %73 = "stablehlo.transpose"(%arg1) <{permutation = array<i64: 1, 0>}> : (tensor<32x32xf32>) -> tensor<32x32xf32>
    %74 = "stablehlo.dot_general"(%72, %73) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [0]>}> : (tensor<32x32xf32>, tensor<32x32xf32>) -> tensor<32x32xf32>
    %75 = "stablehlo.convert"(%12) : (tensor<1xi64>) -> tensor<1xf32>
    %76 = "stablehlo.reshape"(%75) : (tensor<1xf32>) -> tensor<f32>
    %77 = "stablehlo.broadcast_in_dim"(%76) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<32x32xf32>
    %78 = "stablehlo.multiply"(%74, %77) : (tensor<32x32xf32>, tensor<32x32xf32>) -> tensor<32x32xf32>
    %79 = "stablehlo.broadcast_in_dim"(%arg2) <{broadcast_dimensions = array<i64: 1>}> : (tensor<32xf32>) -> tensor<32x32xf32>
    %80 = "stablehlo.multiply"(%79, %77) : (tensor<32x32xf32>, tensor<32x32xf32>) -> tensor<32x32xf32>
    %81 = "stablehlo.add"(%78, %80) : (tensor<32x32xf32>, tensor<32x32xf32>) -> tensor<32x32xf32>
    %82 = "stablehlo.reshape"(%81) : (tensor<32x32xf32>) -> tensor<4x8x32xf32>
    %83 = "stablehlo.reshape"(%82) : (tensor<4x8x32xf32>) -> tensor<4x8x4x8xf32>
    %84 = "stablehlo.transpose"(%83) <{permutation = array<i64: 0, 2, 1, 3>}> : (tensor<4x8x4x8xf32>) -> tensor<4x4x8x8xf32>
    %85 = "stablehlo.transpose"(%arg3) <{permutation = array<i64: 1, 0>}> : (tensor<16x32xf32>) -> tensor<32x16xf32>
    %86 = "stablehlo.dot_general"(%72, %85) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [0]>}> : (tensor<32x32xf32>, tensor<32x16xf32>) -> tensor<32x16xf32>
    %87 = "stablehlo.broadcast_in_dim"(%76) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<32x16xf32>
    %88 = "stablehlo.multiply"(%86, %87) : (tensor<32x16xf32>, tensor<32x16xf32>) -> tensor<32x16xf32>
    %89 = "stablehlo.broadcast_in_dim"(%arg4) <{broadcast_dimensions = array<i64: 1>}> : (tensor<16xf32>) -> tensor<32x16xf32>
    %90 = "stablehlo.multiply"(%89, %87) : (tensor<32x16xf32>, tensor<32x16xf32>) -> tensor<32x16xf32>
    %91 = "stablehlo.add"(%88, %90) : (tensor<32x16xf32>, tensor<32x16xf32>) -> tensor<32x16xf32>
    %92 = "stablehlo.reshape"(%91) : (tensor<32x16xf32>) -> tensor<4x8x16xf32>
    %93 = "stablehlo.reshape"(%92) : (tensor<4x8x16xf32>) -> tensor<4x8x2x8xf32>
    %94 = "stablehlo.transpose"(%93) <{permutation = array<i64: 0, 2, 1, 3>}> : (tensor<4x8x2x8xf32>) -> tensor<4x2x8x8xf32>
    %95 = "stablehlo.transpose"(%arg5) <{permutation = array<i64: 1, 0>}> : (tensor<16x32xf32>) -> tensor<32x16xf32>
    %96 = "stablehlo.dot_general"(%72, %95) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [0]>}> : (tensor<32x32xf32>, tensor<32x16xf32>) -> tensor<32x16xf32>
    %97 = "stablehlo.multiply"(%96, %87) : (tensor<32x16xf32>, tensor<32x16xf32>) -> tensor<32x16xf32>
    %98 = "stablehlo.broadcast_in_dim"(%arg6) <{broadcast_dimensions = array<i64: 1>}> : (tensor<16xf32>) -> tensor<32x16xf32>
    %99 = "stablehlo.multiply"(%98, %87) : (tensor<32x16xf32>, tensor<32x16xf32>) -> tensor<32x16xf32>
    %100 = "stablehlo.add"(%97, %99) : (tensor<32x16xf32>, tensor<32x16xf32>) -> tensor<32x16xf32>
    %101 = "stablehlo.reshape"(%100) : (tensor<32x16xf32>) -> tensor<4x8x16xf32>
    %102 = "stablehlo.reshape"(%101) : (tensor<4x8x16xf32>) -> tensor<4x8x2x8xf32>
    %103 = "stablehlo.transpose"(%102) <{permutation = array<i64: 0, 2, 1, 3>}> : (tensor<4x8x2x8xf32>) -> tensor<4x2x8x8xf32>
    %104 = "stablehlo.reshape"(%50) : (tensor<1x8x8xf32>) -> tensor<1x1x8x8xf32>
    %105 = "stablehlo.reshape"(%52) : (tensor<1x8x8xf32>) -> tensor<1x1x8x8xf32>
    %106 = "stablehlo.broadcast_in_dim"(%104) <{broadcast_dimensions = array<i64: 0, 1, 2, 3>}> : (tensor<1x1x8x8xf32>) -> tensor<4x4x8x8xf32>
    %107 = "stablehlo.multiply"(%84, %106) : (tensor<4x4x8x8xf32>, tensor<4x4x8x8xf32>) -> tensor<4x4x8x8xf32>
    %108 = "stablehlo.slice"(%84) <{limit_indices = array<i64: 4, 4, 8, 4>, start_indices = array<i64: 0, 0, 0, 0>, strides = array<i64: 1, 1, 1, 1>}> : (tensor<4x4x8x8xf32>) -> tensor<4x4x8x4xf32>
    %109 = "stablehlo.slice"(%84) <{limit_indices = array<i64: 4, 4, 8, 8>, start_indices = array<i64: 0, 0, 0, 4>, strides = array<i64: 1, 1, 1, 1>}> : (tensor<4x4x8x8xf32>) -> tensor<4x4x8x4xf32>
    %110 = "stablehlo.negate"(%109) : (tensor<4x4x8x4xf32>) -> tensor<4x4x8x4xf32>
    %111 = "stablehlo.concatenate"(%110, %108) <{dimension = 3 : i64}> : (tensor<4x4x8x4xf32>, tensor<4x4x8x4xf32>) -> tensor<4x4x8x8xf32>
    %112 = "stablehlo.broadcast_in_dim"(%105) <{broadcast_dimensions = array<i64: 0, 1, 2, 3>}> : (tensor<1x1x8x8xf32>) -> tensor<4x4x8x8xf32>
    %113 = "stablehlo.multiply"(%111, %112) : (tensor<4x4x8x8xf32>, tensor<4x4x8x8xf32>) -> tensor<4x4x8x8xf32>
    %114 = "stablehlo.add"(%107, %113) : (tensor<4x4x8x8xf32>, tensor<4x4x8x8xf32>) -> tensor<4x4x8x8xf32>
    %115 = "stablehlo.broadcast_in_dim"(%104) <{broadcast_dimensions = array<i64: 0, 1, 2, 3>}> : (tensor<1x1x8x8xf32>) -> tensor<4x2x8x8xf32>
    %116 = "stablehlo.multiply"(%94, %115) : (tensor<4x2x8x8xf32>, tensor<4x2x8x8xf32>) -> tensor<4x2x8x8xf32>
    %117 = "stablehlo.slice"(%94) <{limit_indices = array<i64: 4, 2, 8, 4>, start_indices = array<i64: 0, 0, 0, 0>, strides = array<i64: 1, 1, 1, 1>}> : (tensor<4x2x8x8xf32>) -> tensor<4x2x8x4xf32>
    %118 = "stablehlo.slice"(%94) <{limit_indices = array<i64: 4, 2, 8, 8>, start_indices = array<i64: 0, 0, 0, 4>, strides = array<i64: 1, 1, 1, 1>}> : (tensor<4x2x8x8xf32>) -> tensor<4x2x8x4xf32>
    %119 = "stablehlo.negate"(%118) : (tensor<4x2x8x4xf32>) -> tensor<4x2x8x4xf32>
    %120 = "stablehlo.concatenate"(%119, %117) <{dimension = 3 : i64}> : (tensor<4x2x8x4xf32>, tensor<4x2x8x4xf32>) -> tensor<4x2x8x8xf32>
    %121 = "stablehlo.broadcast_in_dim"(%105) <{broadcast_dimensions = array<i64: 0, 1, 2, 3>}> : (tensor<1x1x8x8xf32>) -> tensor<4x2x8x8xf32>
    %122 = "stablehlo.multiply"(%120, %121) : (tensor<4x2x8x8xf32>, tensor<4x2x8x8xf32>) -> tensor<4x2x8x8xf32>
    %123 = "stablehlo.add"(%116, %122) : (tensor<4x2x8x8xf32>, tensor<4x2x8x8xf32>) -> tensor<4x2x8x8xf32>
    %124 = "stablehlo.reshape"(%123) : (tensor<4x2x8x8xf32>) -> tensor<4x2x1x8x8xf32>
    %125 = "stablehlo.broadcast_in_dim"(%124) <{broadcast_dimensions = array<i64: 0, 1, 2, 3, 4>}> : (tensor<4x2x1x8x8xf32>) -> tensor<4x2x2x8x8xf32>
    %126 = "stablehlo.reshape"(%125) : (tensor<4x2x2x8x8xf32>) -> tensor<4x4x8x8xf32>
    %127 = "stablehlo.reshape"(%103) : (tensor<4x2x8x8xf32>) -> tensor<4x2x1x8x8xf32>
    %128 = "stablehlo.broadcast_in_dim"(%127) <{broadcast_dimensions = array<i64: 0, 1, 2, 3, 4>}> : (tensor<4x2x1x8x8xf32>) -> tensor<4x2x2x8x8xf32>
    %129 = "stablehlo.reshape"(%128) : (tensor<4x2x2x8x8xf32>) -> tensor<4x4x8x8xf32>
    %130 = "stablehlo.broadcast_in_dim"(%39) <{broadcast_dimensions = array<i64: 0, 1, 2, 3>}> : (tensor<4x1x8x8xi1>) -> tensor<4x1x8x8xi1>
    %131 = "stablehlo.broadcast_in_dim"(%8) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<4x1x8x8xf32>
    %132 = "stablehlo.broadcast_in_dim"(%9) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<4x1x8x8xf32>
    %133 = "stablehlo.select"(%130, %131, %132) : (tensor<4x1x8x8xi1>, tensor<4x1x8x8xf32>, tensor<4x1x8x8xf32>) -> tensor<4x1x8x8xf32>
    %134 = "stablehlo.convert"(%17) : (tensor<1xf64>) -> tensor<1xf32>
    %135 = "stablehlo.reshape"(%134) : (tensor<1xf32>) -> tensor<f32>
    %136 = "stablehlo.broadcast_in_dim"(%135) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<4x4x8x8xf32>
    %137 = "stablehlo.multiply"(%114, %136) : (tensor<4x4x8x8xf32>, tensor<4x4x8x8xf32>) -> tensor<4x4x8x8xf32>
    %138 = "stablehlo.transpose"(%126) <{permutation = array<i64: 0, 1, 3, 2>}> : (tensor<4x4x8x8xf32>) -> tensor<4x4x8x8xf32>
    %139 = "stablehlo.multiply"(%138, %136) : (tensor<4x4x8x8xf32>, tensor<4x4x8x8xf32>) -> tensor<4x4x8x8xf32>
    %140 = "stablehlo.reshape"(%137) : (tensor<4x4x8x8xf32>) -> tensor<16x8x8xf32>
    %141 = "stablehlo.reshape"(%139) : (tensor<4x4x8x8xf32>) -> tensor<16x8x8xf32>
    %142 = "stablehlo.broadcast_in_dim"(%141) <{broadcast_dimensions = array<i64: 0, 1, 2>}> : (tensor<16x8x8xf32>) -> tensor<16x8x8xf32>
    %143 = "stablehlo.dot_general"(%140, %142) <{dot_dimension_numbers = #stablehlo.dot<lhs_batching_dimensions = [0], rhs_batching_dimensions = [0], lhs_contracting_dimensions = [2], rhs_contracting_dimensions = [1]>}> : (tensor<16x8x8xf32>, tensor<16x8x8xf32>) -> tensor<16x8x8xf32>
    %144 = "stablehlo.reshape"(%143) : (tensor<16x8x8xf32>) -> tensor<4x4x8x8xf32>
    %145 = "stablehlo.broadcast_in_dim"(%133) <{broadcast_dimensions = array<i64: 0, 1, 2, 3>}> : (tensor<4x1x8x8xf32>) -> tensor<4x4x8x8xf32>
    %146 = "stablehlo.add"(%144, %145) : (tensor<4x4x8x8xf32>, tensor<4x4x8x8xf32>) -> tensor<4x4x8x8xf32>
    %147 = "stablehlo.reduce"(%146, %9) <{dimensions = array<i64: 3>}> ({
    ^bb0(%arg55: tensor<f32>, %arg56: tensor<f32>):
      %397 = "stablehlo.maximum"(%arg55, %arg56) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%397) : (tensor<f32>) -> ()
    }) : (tensor<4x4x8x8xf32>, tensor<f32>) -> tensor<4x4x8xf32>
    %148 = "stablehlo.reshape"(%147) : (tensor<4x4x8xf32>) -> tensor<4x4x8x1xf32>
    %149 = "stablehlo.broadcast_in_dim"(%148) <{broadcast_dimensions = array<i64: 0, 1, 2, 3>}> : (tensor<4x4x8x1xf32>) -> tensor<4x4x8x8xf32>
    %150 = "stablehlo.subtract"(%146, %149) : (tensor<4x4x8x8xf32>, tensor<4x4x8x8xf32>) -> tensor<4x4x8x8xf32>
    %151 = "stablehlo.exponential"(%150) : (tensor<4x4x8x8xf32>) -> tensor<4x4x8x8xf32>
    %152 = "stablehlo.reduce"(%151, %8) <{dimensions = array<i64: 3>}> ({
    ^bb0(%arg53: tensor<f32>, %arg54: tensor<f32>):
      %396 = "stablehlo.add"(%arg53, %arg54) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%396) : (tensor<f32>) -> ()
    }) : (tensor<4x4x8x8xf32>, tensor<f32>) -> tensor<4x4x8xf32>
    %153 = "stablehlo.reshape"(%152) : (tensor<4x4x8xf32>) -> tensor<4x4x8x1xf32>
    %154 = "stablehlo.broadcast_in_dim"(%153) <{broadcast_dimensions = array<i64: 0, 1, 2, 3>}> : (tensor<4x4x8x1xf32>) -> tensor<4x4x8x8xf32>
    %155 = "stablehlo.divide"(%151, %154) : (tensor<4x4x8x8xf32>, tensor<4x4x8x8xf32>) -> tensor<4x4x8x8xf32>
    %156 = "stablehlo.convert"(%18) : (tensor<1xf64>) -> tensor<1xf64>
    %157 = "stablehlo.reshape"(%156) : (tensor<1xf64>) -> tensor<f64>
    %158 = "stablehlo.convert"(%157) : (tensor<f64>) -> tensor<f32>
    %159 = "stablehlo.broadcast_in_dim"(%158) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<4x4x8x8xf32>
    %160 = "stablehlo.compare"(%146, %159) <{compare_type = #stablehlo<comparison_type FLOAT>, comparison_direction = #stablehlo<comparison_direction EQ>}> : (tensor<4x4x8x8xf32>, tensor<4x4x8x8xf32>) -> tensor<4x4x8x8xi1>
    %161 = "stablehlo.reduce"(%160, %11) <{dimensions = array<i64: 3>}> ({
    ^bb0(%arg51: tensor<i1>, %arg52: tensor<i1>):
      %395 = "stablehlo.and"(%arg51, %arg52) : (tensor<i1>, tensor<i1>) -> tensor<i1>
      "stablehlo.return"(%395) : (tensor<i1>) -> ()
    }) : (tensor<4x4x8x8xi1>, tensor<i1>) -> tensor<4x4x8xi1>
    %162 = "stablehlo.reshape"(%161) : (tensor<4x4x8xi1>) -> tensor<4x4x8x1xi1>
    %163 = "stablehlo.broadcast_in_dim"(%162) <{broadcast_dimensions = array<i64: 0, 1, 2, 3>}> : (tensor<4x4x8x1xi1>) -> tensor<4x4x8x8xi1>
    %164 = "stablehlo.broadcast_in_dim"(%7) <{broadcast_dimensions = array<i64: 0, 1, 2, 3>}> : (tensor<4x4x8x8xf32>) -> tensor<4x4x8x8xf32>
    %165 = "stablehlo.broadcast_in_dim"(%155) <{broadcast_dimensions = array<i64: 0, 1, 2, 3>}> : (tensor<4x4x8x8xf32>) -> tensor<4x4x8x8xf32>
    %166 = "stablehlo.select"(%163, %164, %165) : (tensor<4x4x8x8xi1>, tensor<4x4x8x8xf32>, tensor<4x4x8x8xf32>) -> tensor<4x4x8x8xf32>
    %167 = "stablehlo.reshape"(%166) : (tensor<4x4x8x8xf32>) -> tensor<16x8x8xf32>
    %168 = "stablehlo.reshape"(%129) : (tensor<4x4x8x8xf32>) -> tensor<16x8x8xf32>
    %169 = "stablehlo.broadcast_in_dim"(%168) <{broadcast_dimensions = array<i64: 0, 1, 2>}> : (tensor<16x8x8xf32>) -> tensor<16x8x8xf32>
    %170 = "stablehlo.dot_general"(%167, %169) <{dot_dimension_numbers = #stablehlo.dot<lhs_batching_dimensions = [0], rhs_batching_dimensions = [0], lhs_contracting_dimensions = [2], rhs_contracting_dimensions = [1]>}> : (tensor<16x8x8xf32>, tensor<16x8x8xf32>) -> tensor<16x8x8xf32>
    %171 = "stablehlo.reshape"(%170) : (tensor<16x8x8xf32>) -> tensor<4x4x8x8xf32>
    %172 = "stablehlo.transpose"(%171) <{permutation = array<i64: 2, 0, 1, 3>}> : (tensor<4x4x8x8xf32>) -> tensor<8x4x4x8xf32>
    %173 = "stablehlo.transpose"(%172) <{permutation = array<i64: 1, 2, 0, 3>}> : (tensor<8x4x4x8xf32>) -> tensor<4x4x8x8xf32>
    %174 = "stablehlo.reshape"(%173) : (tensor<4x4x8x8xf32>) -> tensor<4x4x8x8xf32>
    %175 = "stablehlo.transpose"(%174) <{permutation = array<i64: 0, 2, 1, 3>}> : (tensor<4x4x8x8xf32>) -> tensor<4x8x4x8xf32>
    %176 = "stablehlo.reshape"(%175) : (tensor<4x8x4x8xf32>) -> tensor<4x8x32xf32>
    %177 = "stablehlo.transpose"(%arg7) <{permutation = array<i64: 1, 0>}> : (tensor<32x32xf32>) -> tensor<32x32xf32>
    %178 = "stablehlo.reshape"(%176) : (tensor<4x8x32xf32>) -> tensor<4x8x32xf32>
    %179 = "stablehlo.broadcast_in_dim"(%177) <{broadcast_dimensions = array<i64: 1, 2>}> : (tensor<32x32xf32>) -> tensor<4x32x32xf32>
    %180 = "stablehlo.reshape"(%179) : (tensor<4x32x32xf32>) -> tensor<4x32x32xf32>
    %181 = "stablehlo.broadcast_in_dim"(%180) <{broadcast_dimensions = array<i64: 0, 1, 2>}> : (tensor<4x32x32xf32>) -> tensor<4x32x32xf32>
    %182 = "stablehlo.dot_general"(%178, %181) <{dot_dimension_numbers = #stablehlo.dot<lhs_batching_dimensions = [0], rhs_batching_dimensions = [0], lhs_contracting_dimensions = [2], rhs_contracting_dimensions = [1]>}> : (tensor<4x8x32xf32>, tensor<4x32x32xf32>) -> tensor<4x8x32xf32>
    %183 = "stablehlo.reshape"(%182) : (tensor<4x8x32xf32>) -> tensor<4x8x32xf32>
    %184 = "stablehlo.add"(%21, %183) : (tensor<4x8x32xf32>, tensor<4x8x32xf32>) -> tensor<4x8x32xf32>
    %185 = "stablehlo.power"(%184, %55) : (tensor<4x8x32xf32>, tensor<4x8x32xf32>) -> tensor<4x8x32xf32>
    %186 = "stablehlo.reduce"(%185, %8) <{dimensions = array<i64: 2>}> ({
    ^bb0(%arg49: tensor<f32>, %arg50: tensor<f32>):
      %394 = "stablehlo.add"(%arg49, %arg50) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%394) : (tensor<f32>) -> ()
    }) : (tensor<4x8x32xf32>, tensor<f32>) -> tensor<4x8xf32>
    %187 = "stablehlo.reshape"(%186) : (tensor<4x8xf32>) -> tensor<4x8x1xf32>
    %188 = "stablehlo.divide"(%187, %61) : (tensor<4x8x1xf32>, tensor<4x8x1xf32>) -> tensor<4x8x1xf32>
    %189 = "stablehlo.add"(%188, %65) : (tensor<4x8x1xf32>, tensor<4x8x1xf32>) -> tensor<4x8x1xf32>
    %190 = "stablehlo.rsqrt"(%189) : (tensor<4x8x1xf32>) -> tensor<4x8x1xf32>
    %191 = "stablehlo.broadcast_in_dim"(%190) <{broadcast_dimensions = array<i64: 0, 1, 2>}> : (tensor<4x8x1xf32>) -> tensor<4x8x32xf32>
    %192 = "stablehlo.multiply"(%184, %191) : (tensor<4x8x32xf32>, tensor<4x8x32xf32>) -> tensor<4x8x32xf32>
    %193 = "stablehlo.broadcast_in_dim"(%arg12) <{broadcast_dimensions = array<i64: 2>}> : (tensor<32xf32>) -> tensor<4x8x32xf32>
    %194 = "stablehlo.multiply"(%193, %192) : (tensor<4x8x32xf32>, tensor<4x8x32xf32>) -> tensor<4x8x32xf32>
    %195 = "stablehlo.transpose"(%arg8) <{permutation = array<i64: 1, 0>}> : (tensor<64x32xf32>) -> tensor<32x64xf32>
    %196 = "stablehlo.reshape"(%194) : (tensor<4x8x32xf32>) -> tensor<32x32xf32>
    %197 = "stablehlo.dot_general"(%196, %195) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [0]>}> : (tensor<32x32xf32>, tensor<32x64xf32>) -> tensor<32x64xf32>
    %198 = "stablehlo.reshape"(%197) : (tensor<32x64xf32>) -> tensor<4x8x64xf32>
    %199 = "stablehlo.logistic"(%198) : (tensor<4x8x64xf32>) -> tensor<4x8x64xf32>
    %200 = "stablehlo.multiply"(%198, %199) : (tensor<4x8x64xf32>, tensor<4x8x64xf32>) -> tensor<4x8x64xf32>
    %201 = "stablehlo.transpose"(%arg9) <{permutation = array<i64: 1, 0>}> : (tensor<64x32xf32>) -> tensor<32x64xf32>
    %202 = "stablehlo.dot_general"(%196, %201) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [0]>}> : (tensor<32x32xf32>, tensor<32x64xf32>) -> tensor<32x64xf32>
    %203 = "stablehlo.reshape"(%202) : (tensor<32x64xf32>) -> tensor<4x8x64xf32>
    %204 = "stablehlo.multiply"(%200, %203) : (tensor<4x8x64xf32>, tensor<4x8x64xf32>) -> tensor<4x8x64xf32>
    %205 = "stablehlo.transpose"(%arg10) <{permutation = array<i64: 1, 0>}> : (tensor<32x64xf32>) -> tensor<64x32xf32>
    %206 = "stablehlo.reshape"(%204) : (tensor<4x8x64xf32>) -> tensor<32x64xf32>
    %207 = "stablehlo.dot_general"(%206, %205) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [0]>}> : (tensor<32x64xf32>, tensor<64x32xf32>) -> tensor<32x32xf32>
    %208 = "stablehlo.reshape"(%207) : (tensor<32x32xf32>) -> tensor<4x8x32xf32>
    %209 = "stablehlo.add"(%184, %208) : (tensor<4x8x32xf32>, tensor<4x8x32xf32>) -> tensor<4x8x32xf32>
    %210 = "stablehlo.power"(%209, %55) : (tensor<4x8x32xf32>, tensor<4x8x32xf32>) -> tensor<4x8x32xf32>
    %211 = "stablehlo.reduce"(%210, %8) <{dimensions = array<i64: 2>}> ({
    ^bb0(%arg47: tensor<f32>, %arg48: tensor<f32>):
      %393 = "stablehlo.add"(%arg47, %arg48) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%393) : (tensor<f32>) -> ()
    }) : (tensor<4x8x32xf32>, tensor<f32>) -> tensor<4x8xf32>
    %212 = "stablehlo.reshape"(%211) : (tensor<4x8xf32>) -> tensor<4x8x1xf32>
    %213 = "stablehlo.divide"(%212, %61) : (tensor<4x8x1xf32>, tensor<4x8x1xf32>) -> tensor<4x8x1xf32>
    %214 = "stablehlo.add"(%213, %65) : (tensor<4x8x1xf32>, tensor<4x8x1xf32>) -> tensor<4x8x1xf32>
    %215 = "stablehlo.rsqrt"(%214) : (tensor<4x8x1xf32>) -> tensor<4x8x1xf32>
    %216 = "stablehlo.broadcast_in_dim"(%215) <{broadcast_dimensions = array<i64: 0, 1, 2>}> : (tensor<4x8x1xf32>) -> tensor<4x8x32xf32>
    %217 = "stablehlo.multiply"(%209, %216) : (tensor<4x8x32xf32>, tensor<4x8x32xf32>) -> tensor<4x8x32xf32>
    %218 = "stablehlo.broadcast_in_dim"(%arg23) <{broadcast_dimensions = array<i64: 2>}> : (tensor<32xf32>) -> tensor<4x8x32xf32>
    %219 = "stablehlo.multiply"(%218, %217) : (tensor<4x8x32xf32>, tensor<4x8x32xf32>) -> tensor<4x8x32xf32>
    %220 = "stablehlo.reshape"(%219) : (tensor<4x8x32xf32>) -> tensor<32x32xf32>
    %221 = "stablehlo.transpose"(%arg13) <{permutation = array<i64: 1, 0>}> : (tensor<32x32xf32>) -> tensor<32x32xf32>
    %222 = "stablehlo.dot_general"(%220, %221) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [0]>}> : (tensor<32x32xf32>, tensor<32x32xf32>) -> tensor<32x32xf32>
    %223 = "stablehlo.multiply"(%222, %77) : (tensor<32x32xf32>, tensor<32x32xf32>) -> tensor<32x32xf32>
    %224 = "stablehlo.broadcast_in_dim"(%arg14) <{broadcast_dimensions = array<i64: 1>}> : (tensor<32xf32>) -> tensor<32x32xf32>
    %225 = "stablehlo.multiply"(%224, %77) : (tensor<32x32xf32>, tensor<32x32xf32>) -> tensor<32x32xf32>
    %226 = "stablehlo.add"(%223, %225) : (tensor<32x32xf32>, tensor<32x32xf32>) -> tensor<32x32xf32>
    %227 = "stablehlo.reshape"(%226) : (tensor<32x32xf32>) -> tensor<4x8x32xf32>
    %228 = "stablehlo.reshape"(%227) : (tensor<4x8x32xf32>) -> tensor<4x8x4x8xf32>
    %229 = "stablehlo.transpose"(%228) <{permutation = array<i64: 0, 2, 1, 3>}> : (tensor<4x8x4x8xf32>) -> tensor<4x4x8x8xf32>
    %230 = "stablehlo.transpose"(%arg15) <{permutation = array<i64: 1, 0>}> : (tensor<16x32xf32>) -> tensor<32x16xf32>
    %231 = "stablehlo.dot_general"(%220, %230) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [0]>}> : (tensor<32x32xf32>, tensor<32x16xf32>) -> tensor<32x16xf32>
    %232 = "stablehlo.multiply"(%231, %87) : (tensor<32x16xf32>, tensor<32x16xf32>) -> tensor<32x16xf32>
    %233 = "stablehlo.broadcast_in_dim"(%arg16) <{broadcast_dimensions = array<i64: 1>}> : (tensor<16xf32>) -> tensor<32x16xf32>
    %234 = "stablehlo.multiply"(%233, %87) : (tensor<32x16xf32>, tensor<32x16xf32>) -> tensor<32x16xf32>
    %235 = "stablehlo.add"(%232, %234) : (tensor<32x16xf32>, tensor<32x16xf32>) -> tensor<32x16xf32>
    %236 = "stablehlo.reshape"(%235) : (tensor<32x16xf32>) -> tensor<4x8x16xf32>
    %237 = "stablehlo.reshape"(%236) : (tensor<4x8x16xf32>) -> tensor<4x8x2x8xf32>
    %238 = "stablehlo.transpose"(%237) <{permutation = array<i64: 0, 2, 1, 3>}> : (tensor<4x8x2x8xf32>) -> tensor<4x2x8x8xf32>
    %239 = "stablehlo.transpose"(%arg17) <{permutation = array<i64: 1, 0>}> : (tensor<16x32xf32>) -> tensor<32x16xf32>
    %240 = "stablehlo.dot_general"(%220, %239) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [0]>}> : (tensor<32x32xf32>, tensor<32x16xf32>) -> tensor<32x16xf32>
    %241 = "stablehlo.multiply"(%240, %87) : (tensor<32x16xf32>, tensor<32x16xf32>) -> tensor<32x16xf32>
    %242 = "stablehlo.broadcast_in_dim"(%arg18) <{broadcast_dimensions = array<i64: 1>}> : (tensor<16xf32>) -> tensor<32x16xf32>
    %243 = "stablehlo.multiply"(%242, %87) : (tensor<32x16xf32>, tensor<32x16xf32>) -> tensor<32x16xf32>
    %244 = "stablehlo.add"(%241, %243) : (tensor<32x16xf32>, tensor<32x16xf32>) -> tensor<32x16xf32>
    %245 = "stablehlo.reshape"(%244) : (tensor<32x16xf32>) -> tensor<4x8x16xf32>
    %246 = "stablehlo.reshape"(%245) : (tensor<4x8x16xf32>) -> tensor<4x8x2x8xf32>
    %247 = "stablehlo.transpose"(%246) <{permutation = array<i64: 0, 2, 1, 3>}> : (tensor<4x8x2x8xf32>) -> tensor<4x2x8x8xf32>
    %248 = "stablehlo.multiply"(%229, %106) : (tensor<4x4x8x8xf32>, tensor<4x4x8x8xf32>) -> tensor<4x4x8x8xf32>
    %249 = "stablehlo.slice"(%229) <{limit_indices = array<i64: 4, 4, 8, 4>, start_indices = array<i64: 0, 0, 0, 0>, strides = array<i64: 1, 1, 1, 1>}> : (tensor<4x4x8x8xf32>) -> tensor<4x4x8x4xf32>
    %250 = "stablehlo.slice"(%229) <{limit_indices = array<i64: 4, 4, 8, 8>, start_indices = array<i64: 0, 0, 0, 4>, strides = array<i64: 1, 1, 1, 1>}> : (tensor<4x4x8x8xf32>) -> tensor<4x4x8x4xf32>
    %251 = "stablehlo.negate"(%250) : (tensor<4x4x8x4xf32>) -> tensor<4x4x8x4xf32>
    %252 = "stablehlo.concatenate"(%251, %249) <{dimension = 3 : i64}> : (tensor<4x4x8x4xf32>, tensor<4x4x8x4xf32>) -> tensor<4x4x8x8xf32>
    %253 = "stablehlo.multiply"(%252, %112) : (tensor<4x4x8x8xf32>, tensor<4x4x8x8xf32>) -> tensor<4x4x8x8xf32>
    %254 = "stablehlo.add"(%248, %253) : (tensor<4x4x8x8xf32>, tensor<4x4x8x8xf32>) -> tensor<4x4x8x8xf32>
    %255 = "stablehlo.multiply"(%238, %115) : (tensor<4x2x8x8xf32>, tensor<4x2x8x8xf32>) -> tensor<4x2x8x8xf32>
    %256 = "stablehlo.slice"(%238) <{limit_indices = array<i64: 4, 2, 8, 4>, start_indices = array<i64: 0, 0, 0, 0>, strides = array<i64: 1, 1, 1, 1>}> : (tensor<4x2x8x8xf32>) -> tensor<4x2x8x4xf32>
    %257 = "stablehlo.slice"(%238) <{limit_indices = array<i64: 4, 2, 8, 8>, start_indices = array<i64: 0, 0, 0, 4>, strides = array<i64: 1, 1, 1, 1>}> : (tensor<4x2x8x8xf32>) -> tensor<4x2x8x4xf32>
    %258 = "stablehlo.negate"(%257) : (tensor<4x2x8x4xf32>) -> tensor<4x2x8x4xf32>
    %259 = "stablehlo.concatenate"(%258, %256) <{dimension = 3 : i64}> : (tensor<4x2x8x4xf32>, tensor<4x2x8x4xf32>) -> tensor<4x2x8x8xf32>
    %260 = "stablehlo.multiply"(%259, %121) : (tensor<4x2x8x8xf32>, tensor<4x2x8x8xf32>) -> tensor<4x2x8x8xf32>
    %261 = "stablehlo.add"(%255, %260) : (tensor<4x2x8x8xf32>, tensor<4x2x8x8xf32>) -> tensor<4x2x8x8xf32>
    %262 = "stablehlo.reshape"(%261) : (tensor<4x2x8x8xf32>) -> tensor<4x2x1x8x8xf32>
    %263 = "stablehlo.broadcast_in_dim"(%262) <{broadcast_dimensions = array<i64: 0, 1, 2, 3, 4>}> : (tensor<4x2x1x8x8xf32>) -> tensor<4x2x2x8x8xf32>
    %264 = "stablehlo.reshape"(%263) : (tensor<4x2x2x8x8xf32>) -> tensor<4x4x8x8xf32>
    %265 = "stablehlo.reshape"(%247) : (tensor<4x2x8x8xf32>) -> tensor<4x2x1x8x8xf32>
    %266 = "stablehlo.broadcast_in_dim"(%265) <{broadcast_dimensions = array<i64: 0, 1, 2, 3, 4>}> : (tensor<4x2x1x8x8xf32>) -> tensor<4x2x2x8x8xf32>
    %267 = "stablehlo.reshape"(%266) : (tensor<4x2x2x8x8xf32>) -> tensor<4x4x8x8xf32>
    %268 = "stablehlo.multiply"(%254, %136) : (tensor<4x4x8x8xf32>, tensor<4x4x8x8xf32>) -> tensor<4x4x8x8xf32>
    %269 = "stablehlo.transpose"(%264) <{permutation = array<i64: 0, 1, 3, 2>}> : (tensor<4x4x8x8xf32>) -> tensor<4x4x8x8xf32>
    %270 = "stablehlo.multiply"(%269, %136) : (tensor<4x4x8x8xf32>, tensor<4x4x8x8xf32>) -> tensor<4x4x8x8xf32>
    %271 = "stablehlo.reshape"(%268) : (tensor<4x4x8x8xf32>) -> tensor<16x8x8xf32>
    %272 = "stablehlo.reshape"(%270) : (tensor<4x4x8x8xf32>) -> tensor<16x8x8xf32>
    %273 = "stablehlo.broadcast_in_dim"(%272) <{broadcast_dimensions = array<i64: 0, 1, 2>}> : (tensor<16x8x8xf32>) -> tensor<16x8x8xf32>
    %274 = "stablehlo.dot_general"(%271, %273) <{dot_dimension_numbers = #stablehlo.dot<lhs_batching_dimensions = [0], rhs_batching_dimensions = [0], lhs_contracting_dimensions = [2], rhs_contracting_dimensions = [1]>}> : (tensor<16x8x8xf32>, tensor<16x8x8xf32>) -> tensor<16x8x8xf32>
    %275 = "stablehlo.reshape"(%274) : (tensor<16x8x8xf32>) -> tensor<4x4x8x8xf32>
    %276 = "stablehlo.add"(%275, %145) : (tensor<4x4x8x8xf32>, tensor<4x4x8x8xf32>) -> tensor<4x4x8x8xf32>
    %277 = "stablehlo.reduce"(%276, %9) <{dimensions = array<i64: 3>}> ({
    ^bb0(%arg45: tensor<f32>, %arg46: tensor<f32>):
      %392 = "stablehlo.maximum"(%arg45, %arg46) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%392) : (tensor<f32>) -> ()
    }) : (tensor<4x4x8x8xf32>, tensor<f32>) -> tensor<4x4x8xf32>
    %278 = "stablehlo.reshape"(%277) : (tensor<4x4x8xf32>) -> tensor<4x4x8x1xf32>
    %279 = "stablehlo.broadcast_in_dim"(%278) <{broadcast_dimensions = array<i64: 0, 1, 2, 3>}> : (tensor<4x4x8x1xf32>) -> tensor<4x4x8x8xf32>
    %280 = "stablehlo.subtract"(%276, %279) : (tensor<4x4x8x8xf32>, tensor<4x4x8x8xf32>) -> tensor<4x4x8x8xf32>
    %281 = "stablehlo.exponential"(%280) : (tensor<4x4x8x8xf32>) -> tensor<4x4x8x8xf32>
    %282 = "stablehlo.reduce"(%281, %8) <{dimensions = array<i64: 3>}> ({
    ^bb0(%arg43: tensor<f32>, %arg44: tensor<f32>):
      %391 = "stablehlo.add"(%arg43, %arg44) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%391) : (tensor<f32>) -> ()
    }) : (tensor<4x4x8x8xf32>, tensor<f32>) -> tensor<4x4x8xf32>
    %283 = "stablehlo.reshape"(%282) : (tensor<4x4x8xf32>) -> tensor<4x4x8x1xf32>
    %284 = "stablehlo.broadcast_in_dim"(%283) <{broadcast_dimensions = array<i64: 0, 1, 2, 3>}> : (tensor<4x4x8x1xf32>) -> tensor<4x4x8x8xf32>
    %285 = "stablehlo.divide"(%281, %284) : (tensor<4x4x8x8xf32>, tensor<4x4x8x8xf32>) -> tensor<4x4x8x8xf32>
    %286 = "stablehlo.compare"(%276, %159) <{compare_type = #stablehlo<comparison_type FLOAT>, comparison_direction = #stablehlo<comparison_direction EQ>}> : (tensor<4x4x8x8xf32>, tensor<4x4x8x8xf32>) -> tensor<4x4x8x8xi1>
    %287 = "stablehlo.reduce"(%286, %11) <{dimensions = array<i64: 3>}> ({
    ^bb0(%arg41: tensor<i1>, %arg42: tensor<i1>):
      %390 = "stablehlo.and"(%arg41, %arg42) : (tensor<i1>, tensor<i1>) -> tensor<i1>
      "stablehlo.return"(%390) : (tensor<i1>) -> ()
    }) : (tensor<4x4x8x8xi1>, tensor<i1>) -> tensor<4x4x8xi1>
    %288 = "stablehlo.reshape"(%287) : (tensor<4x4x8xi1>) -> tensor<4x4x8x1xi1>
    %289 = "stablehlo.broadcast_in_dim"(%288) <{broadcast_dimensions = array<i64: 0, 1, 2, 3>}> : (tensor<4x4x8x1xi1>) -> tensor<4x4x8x8xi1>
    %290 = "stablehlo.broadcast_in_dim"(%285) <{broadcast_dimensions = array<i64: 0, 1, 2, 3>}> : (tensor<4x4x8x8xf32>) -> tensor<4x4x8x8xf32>
    %291 = "stablehlo.select"(%289, %164, %290) : (tensor<4x4x8x8xi1>, tensor<4x4x8x8xf32>, tensor<4x4x8x8xf32>) -> tensor<4x4x8x8xf32>
    %292 = "stablehlo.reshape"(%291) : (tensor<4x4x8x8xf32>) -> tensor<16x8x8xf32>
    %293 = "stablehlo.reshape"(%267) : (tensor<4x4x8x8xf32>) -> tensor<16x8x8xf32>
    %294 = "stablehlo.broadcast_in_dim"(%293) <{broadcast_dimensions = array<i64: 0, 1, 2>}> : (tensor<16x8x8xf32>) -> tensor<16x8x8xf32>
    %295 = "stablehlo.dot_general"(%292, %294) <{dot_dimension_numbers = #stablehlo.dot<lhs_batching_dimensions = [0], rhs_batching_dimensions = [0], lhs_contracting_dimensions = [2], rhs_contracting_dimensions = [1]>}> : (tensor<16x8x8xf32>, tensor<16x8x8xf32>) -> tensor<16x8x8xf32>
    %296 = "stablehlo.reshape"(%295) : (tensor<16x8x8xf32>) -> tensor<4x4x8x8xf32>
    %297 = "stablehlo.transpose"(%296) <{permutation = array<i64: 2, 0, 1, 3>}> : (tensor<4x4x8x8xf32>) -> tensor<8x4x4x8xf32>
    %298 = "stablehlo.transpose"(%297) <{permutation = array<i64: 1, 2, 0, 3>}> : (tensor<8x4x4x8xf32>) -> tensor<4x4x8x8xf32>
    %299 = "stablehlo.reshape"(%298) : (tensor<4x4x8x8xf32>) -> tensor<4x4x8x8xf32>
    %300 = "stablehlo.transpose"(%299) <{permutation = array<i64: 0, 2, 1, 3>}> : (tensor<4x4x8x8xf32>) -> tensor<4x8x4x8xf32>
    %301 = "stablehlo.reshape"(%300) : (tensor<4x8x4x8xf32>) -> tensor<4x8x32xf32>
    %302 = "stablehlo.transpose"(%arg19) <{permutation = array<i64: 1, 0>}> : (tensor<32x32xf32>) -> tensor<32x32xf32>
    %303 = "stablehlo.reshape"(%301) : (tensor<4x8x32xf32>) -> tensor<4x8x32xf32>
    %304 = "stablehlo.broadcast_in_dim"(%302) <{broadcast_dimensions = array<i64: 1, 2>}> : (tensor<32x32xf32>) -> tensor<4x32x32xf32>
    %305 = "stablehlo.reshape"(%304) : (tensor<4x32x32xf32>) -> tensor<4x32x32xf32>
    %306 = "stablehlo.broadcast_in_dim"(%305) <{broadcast_dimensions = array<i64: 0, 1, 2>}> : (tensor<4x32x32xf32>) -> tensor<4x32x32xf32>
    %307 = "stablehlo.dot_general"(%303, %306) <{dot_dimension_numbers = #stablehlo.dot<lhs_batching_dimensions = [0], rhs_batching_dimensions = [0], lhs_contracting_dimensions = [2], rhs_contracting_dimensions = [1]>}> : (tensor<4x8x32xf32>, tensor<4x32x32xf32>) -> tensor<4x8x32xf32>
    %308 = "stablehlo.reshape"(%307) : (tensor<4x8x32xf32>) -> tensor<4x8x32xf32>
    %309 = "stablehlo.add"(%209, %308) : (tensor<4x8x32xf32>, tensor<4x8x32xf32>) -> tensor<4x8x32xf32>
    %310 = "stablehlo.power"(%309, %55) : (tensor<4x8x32xf32>, tensor<4x8x32xf32>) -> tensor<4x8x32xf32>
    %311 = "stablehlo.reduce"(%310, %8) <{dimensions = array<i64: 2>}> ({
    ^bb0(%arg39: tensor<f32>, %arg40: tensor<f32>):
      %389 = "stablehlo.add"(%arg39, %arg40) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%389) : (tensor<f32>) -> ()
    }) : (tensor<4x8x32xf32>, tensor<f32>) -> tensor<4x8xf32>
    %312 = "stablehlo.reshape"(%311) : (tensor<4x8xf32>) -> tensor<4x8x1xf32>
    %313 = "stablehlo.divide"(%312, %61) : (tensor<4x8x1xf32>, tensor<4x8x1xf32>) -> tensor<4x8x1xf32>
    %314 = "stablehlo.add"(%313, %65) : (tensor<4x8x1xf32>, tensor<4x8x1xf32>) -> tensor<4x8x1xf32>
    %315 = "stablehlo.rsqrt"(%314) : (tensor<4x8x1xf32>) -> tensor<4x8x1xf32>
    %316 = "stablehlo.broadcast_in_dim"(%315) <{broadcast_dimensions = array<i64: 0, 1, 2>}> : (tensor<4x8x1xf32>) -> tensor<4x8x32xf32>
    %317 = "stablehlo.multiply"(%309, %316) : (tensor<4x8x32xf32>, tensor<4x8x32xf32>) -> tensor<4x8x32xf32>
    %318 = "stablehlo.broadcast_in_dim"(%arg24) <{broadcast_dimensions = array<i64: 2>}> : (tensor<32xf32>) -> tensor<4x8x32xf32>
    %319 = "stablehlo.multiply"(%318, %317) : (tensor<4x8x32xf32>, tensor<4x8x32xf32>) -> tensor<4x8x32xf32>
    %320 = "stablehlo.transpose"(%arg20) <{permutation = array<i64: 1, 0>}> : (tensor<64x32xf32>) -> tensor<32x64xf32>
    %321 = "stablehlo.reshape"(%319) : (tensor<4x8x32xf32>) -> tensor<32x32xf32>
    %322 = "stablehlo.dot_general"(%321, %320) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [0]>}> : (tensor<32x32xf32>, tensor<32x64xf32>) -> tensor<32x64xf32>
    %323 = "stablehlo.reshape"(%322) : (tensor<32x64xf32>) -> tensor<4x8x64xf32>
    %324 = "stablehlo.logistic"(%323) : (tensor<4x8x64xf32>) -> tensor<4x8x64xf32>
    %325 = "stablehlo.multiply"(%323, %324) : (tensor<4x8x64xf32>, tensor<4x8x64xf32>) -> tensor<4x8x64xf32>
    %326 = "stablehlo.transpose"(%arg21) <{permutation = array<i64: 1, 0>}> : (tensor<64x32xf32>) -> tensor<32x64xf32>
    %327 = "stablehlo.dot_general"(%321, %326) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [0]>}> : (tensor<32x32xf32>, tensor<32x64xf32>) -> tensor<32x64xf32>
    %328 = "stablehlo.reshape"(%327) : (tensor<32x64xf32>) -> tensor<4x8x64xf32>
    %329 = "stablehlo.multiply"(%325, %328) : (tensor<4x8x64xf32>, tensor<4x8x64xf32>) -> tensor<4x8x64xf32>
    %330 = "stablehlo.transpose"(%arg22) <{permutation = array<i64: 1, 0>}> : (tensor<32x64xf32>) -> tensor<64x32xf32>
    %331 = "stablehlo.reshape"(%329) : (tensor<4x8x64xf32>) -> tensor<32x64xf32>
    %332 = "stablehlo.dot_general"(%331, %330) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [0]>}> : (tensor<32x64xf32>, tensor<64x32xf32>) -> tensor<32x32xf32>
    %333 = "stablehlo.reshape"(%332) : (tensor<32x32xf32>) -> tensor<4x8x32xf32>
    %334 = "stablehlo.add"(%309, %333) : (tensor<4x8x32xf32>, tensor<4x8x32xf32>) -> tensor<4x8x32xf32>
    %335 = "stablehlo.power"(%334, %55) : (tensor<4x8x32xf32>, tensor<4x8x32xf32>) -> tensor<4x8x32xf32>
    %336 = "stablehlo.reduce"(%335, %8) <{dimensions = array<i64: 2>}> ({
    ^bb0(%arg37: tensor<f32>, %arg38: tensor<f32>):
      %388 = "stablehlo.add"(%arg37, %arg38) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%388) : (tensor<f32>) -> ()
    }) : (tensor<4x8x32xf32>, tensor<f32>) -> tensor<4x8xf32>
    %337 = "stablehlo.reshape"(%336) : (tensor<4x8xf32>) -> tensor<4x8x1xf32>
    %338 = "stablehlo.divide"(%337, %61) : (tensor<4x8x1xf32>, tensor<4x8x1xf32>) -> tensor<4x8x1xf32>
    %339 = "stablehlo.add"(%338, %65) : (tensor<4x8x1xf32>, tensor<4x8x1xf32>) -> tensor<4x8x1xf32>
    %340 = "stablehlo.rsqrt"(%339) : (tensor<4x8x1xf32>) -> tensor<4x8x1xf32>
    %341 = "stablehlo.broadcast_in_dim"(%340) <{broadcast_dimensions = array<i64: 0, 1, 2>}> : (tensor<4x8x1xf32>) -> tensor<4x8x32xf32>
    %342 = "stablehlo.multiply"(%334, %341) : (tensor<4x8x32xf32>, tensor<4x8x32xf32>) -> tensor<4x8x32xf32>
    %343 = "stablehlo.broadcast_in_dim"(%arg25) <{broadcast_dimensions = array<i64: 2>}> : (tensor<32xf32>) -> tensor<4x8x32xf32>
    %344 = "stablehlo.multiply"(%343, %342) : (tensor<4x8x32xf32>, tensor<4x8x32xf32>) -> tensor<4x8x32xf32>
    %345 = "stablehlo.transpose"(%arg26) <{permutation = array<i64: 1, 0>}> : (tensor<64x32xf32>) -> tensor<32x64xf32>
    %346 = "stablehlo.reshape"(%344) : (tensor<4x8x32xf32>) -> tensor<32x32xf32>
    %347 = "stablehlo.dot_general"(%346, %345) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [0]>}> : (tensor<32x32xf32>, tensor<32x64xf32>) -> tensor<32x64xf32>
    %348 = "stablehlo.reshape"(%347) : (tensor<32x64xf32>) -> tensor<4x8x64xf32>
    %349 = "stablehlo.convert"(%19) : (tensor<1xf64>) -> tensor<1xi64>
    %350 = "stablehlo.reshape"(%349) : (tensor<1xi64>) -> tensor<i64>
    %351 = "stablehlo.pad"(%arg28, %350) <{edge_padding_high = array<i64: 0, 1>, edge_padding_low = array<i64: 0, 0>, interior_padding = array<i64: 0, 0>}> : (tensor<4x8xi64>, tensor<i64>) -> tensor<4x9xi64>
    %352 = "stablehlo.slice"(%351) <{limit_indices = array<i64: 4, 9>, start_indices = array<i64: 0, 1>, strides = array<i64: 1, 1>}> : (tensor<4x9xi64>) -> tensor<4x8xi64>
    %353 = "stablehlo.reshape"(%348) : (tensor<4x8x64xf32>) -> tensor<32x64xf32>
    %354 = "stablehlo.reshape"(%352) : (tensor<4x8xi64>) -> tensor<32xi64>
    %355 = "stablehlo.reduce"(%353, %9) <{dimensions = array<i64: 1>}> ({
    ^bb0(%arg35: tensor<f32>, %arg36: tensor<f32>):
      %387 = "stablehlo.maximum"(%arg35, %arg36) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%387) : (tensor<f32>) -> ()
    }) : (tensor<32x64xf32>, tensor<f32>) -> tensor<32xf32>
    %356 = "stablehlo.reshape"(%355) : (tensor<32xf32>) -> tensor<32x1xf32>
    %357 = "stablehlo.broadcast_in_dim"(%356) <{broadcast_dimensions = array<i64: 0, 1>}> : (tensor<32x1xf32>) -> tensor<32x64xf32>
    %358 = "stablehlo.subtract"(%353, %357) : (tensor<32x64xf32>, tensor<32x64xf32>) -> tensor<32x64xf32>
    %359 = "stablehlo.exponential"(%358) : (tensor<32x64xf32>) -> tensor<32x64xf32>
    %360 = "stablehlo.reduce"(%359, %8) <{dimensions = array<i64: 1>}> ({
    ^bb0(%arg33: tensor<f32>, %arg34: tensor<f32>):
      %386 = "stablehlo.add"(%arg33, %arg34) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%386) : (tensor<f32>) -> ()
    }) : (tensor<32x64xf32>, tensor<f32>) -> tensor<32xf32>
    %361 = "stablehlo.reshape"(%360) : (tensor<32xf32>) -> tensor<32x1xf32>
    %362 = "stablehlo.log"(%361) : (tensor<32x1xf32>) -> tensor<32x1xf32>
    %363 = "stablehlo.broadcast_in_dim"(%362) <{broadcast_dimensions = array<i64: 0, 1>}> : (tensor<32x1xf32>) -> tensor<32x64xf32>
    %364 = "stablehlo.subtract"(%358, %363) : (tensor<32x64xf32>, tensor<32x64xf32>) -> tensor<32x64xf32>
    %365 = "stablehlo.compare"(%354, %1) <{compare_type = #stablehlo<comparison_type SIGNED>, comparison_direction = #stablehlo<comparison_direction NE>}> : (tensor<32xi64>, tensor<32xi64>) -> tensor<32xi1>
    %366 = "stablehlo.broadcast_in_dim"(%365) <{broadcast_dimensions = array<i64: 0>}> : (tensor<32xi1>) -> tensor<32xi1>
    %367 = "stablehlo.broadcast_in_dim"(%354) <{broadcast_dimensions = array<i64: 0>}> : (tensor<32xi64>) -> tensor<32xi64>
    %368 = "stablehlo.select"(%366, %367, %0) : (tensor<32xi1>, tensor<32xi64>, tensor<32xi64>) -> tensor<32xi64>
    %369 = "stablehlo.reshape"(%368) : (tensor<32xi64>) -> tensor<32x1xi64>
    %370 = "stablehlo.iota"() <{iota_dimension = 0 : i64}> : () -> tensor<32x1x1xi64>
    %371 = "stablehlo.reshape"(%369) : (tensor<32x1xi64>) -> tensor<32x1x1xi64>
    %372 = "stablehlo.concatenate"(%370, %371) <{dimension = 2 : i64}> : (tensor<32x1x1xi64>, tensor<32x1x1xi64>) -> tensor<32x1x2xi64>
    %373 = "stablehlo.gather"(%364, %372) <{dimension_numbers = #stablehlo.gather<collapsed_slice_dims = [0, 1], start_index_map = [0, 1], index_vector_dim = 2>, slice_sizes = array<i64: 1, 1>}> : (tensor<32x64xf32>, tensor<32x1x2xi64>) -> tensor<32x1xf32>
    %374 = "stablehlo.reshape"(%373) : (tensor<32x1xf32>) -> tensor<32xf32>
    %375 = "stablehlo.negate"(%374) : (tensor<32xf32>) -> tensor<32xf32>
    %376 = "stablehlo.broadcast_in_dim"(%375) <{broadcast_dimensions = array<i64: 0>}> : (tensor<32xf32>) -> tensor<32xf32>
    %377 = "stablehlo.broadcast_in_dim"(%8) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<32xf32>
    %378 = "stablehlo.select"(%366, %376, %377) : (tensor<32xi1>, tensor<32xf32>, tensor<32xf32>) -> tensor<32xf32>
    %379 = "stablehlo.convert"(%365) : (tensor<32xi1>) -> tensor<32xi64>
    %380 = "stablehlo.reduce"(%379, %6) <{dimensions = array<i64: 0>}> ({
    ^bb0(%arg31: tensor<i64>, %arg32: tensor<i64>):
      %385 = "stablehlo.add"(%arg31, %arg32) : (tensor<i64>, tensor<i64>) -> tensor<i64>
      "stablehlo.return"(%385) : (tensor<i64>) -> ()
    }) : (tensor<32xi64>, tensor<i64>) -> tensor<i64>
    %381 = "stablehlo.convert"(%380) : (tensor<i64>) -> tensor<f32>
    %382 = "stablehlo.reduce"(%378, %8) <{dimensions = array<i64: 0>}> ({
    ^bb0(%arg29: tensor<f32>, %arg30: tensor<f32>):
      %384 = "stablehlo.add"(%arg29, %arg30) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%384) : (tensor<f32>) -> ()
    }) : (tensor<32xf32>, tensor<f32>) -> tensor<f32>
    %383 = "stablehlo.divide"(%382, %381) : (tensor<f32>, tensor<f32>) -> tensor<f32>
    "func.return"(%383) : (tensor<f32>) -> ()
  }) : () -> ()
}) : () -> ()
