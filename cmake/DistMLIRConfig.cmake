# The dist-mlir package (scripts/install-package.sh installs it):
#
#   find_package(DistMLIR REQUIRED CONFIG)
#   target_link_libraries(my-opt PRIVATE DistMLIR::Dialect DistMLIR::Passes)
#
# Both targets are the one shared library libdist_mlir_plugin.so, which
# holds the dialect and every pass (a host linking two copies of the
# dialect would see two sets of type ids), with the C API header
# Dist-c/Dist.h: mlirDistRegisterDialect(registry), mlirRegisterDistPasses()
# and an mlirCreateDist<Pass>() per pass. It is built against Debian's
# libMLIR.so 22, which the host links too (find_package(MLIR)).
get_filename_component(DistMLIR_PREFIX "${CMAKE_CURRENT_LIST_DIR}/../../.." ABSOLUTE)
set(DistMLIR_INCLUDE_DIRS "${DistMLIR_PREFIX}/include")

if(NOT TARGET DistMLIR::Library)
  add_library(DistMLIR::Library SHARED IMPORTED)
  set_target_properties(DistMLIR::Library PROPERTIES
    IMPORTED_LOCATION "${DistMLIR_PREFIX}/lib/libdist_mlir_plugin.so"
    IMPORTED_SONAME "libdist_mlir_plugin.so"
    INTERFACE_INCLUDE_DIRECTORIES "${DistMLIR_INCLUDE_DIRS}")
  add_library(DistMLIR::Dialect INTERFACE IMPORTED)
  set_target_properties(DistMLIR::Dialect PROPERTIES INTERFACE_LINK_LIBRARIES DistMLIR::Library)
  add_library(DistMLIR::Passes INTERFACE IMPORTED)
  set_target_properties(DistMLIR::Passes PROPERTIES INTERFACE_LINK_LIBRARIES DistMLIR::Library)
endif()
set(DistMLIR_FOUND TRUE)
