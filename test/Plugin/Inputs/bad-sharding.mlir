dist.mesh @mesh = <["dp"=2]>
// expected-error@+1 {{argument #0: tensor dim 0 of size 3 is not divisible by 2}}
func.func @f(%x: tensor<3xf32> {dist.sharding = #dist.sharding<@mesh, [{"dp"}]>}) {
  return
}
