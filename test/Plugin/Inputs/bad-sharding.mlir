dist.mesh @mesh = <["dp"=2]>
// expected-error@+1 {{argument #0: tensor dim 0 of size 1 has fewer entries than 2}}
func.func @f(%x: tensor<1xf32> {dist.sharding = #dist.sharding<@mesh, [{"dp"}]>}) {
  return
}
