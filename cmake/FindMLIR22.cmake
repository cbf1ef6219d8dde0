# Locates Debian's LLVM/MLIR 22 and sets the flags the dialect must share with
# it: RTTI on, exceptions off (how Debian builds LLVM).
if(NOT MLIR_DIR)
  set(MLIR_DIR "/usr/lib/llvm-22/lib/cmake/mlir")
endif()
find_package(MLIR REQUIRED CONFIG PATHS "${MLIR_DIR}" NO_DEFAULT_PATH)
if(NOT LLVM_VERSION_MAJOR EQUAL 22)
  message(FATAL_ERROR "dist needs LLVM/MLIR 22, found ${LLVM_PACKAGE_VERSION} in ${MLIR_DIR}")
endif()
message(STATUS "Using MLIR ${LLVM_PACKAGE_VERSION} from ${MLIR_DIR}")

list(APPEND CMAKE_MODULE_PATH "${MLIR_CMAKE_DIR}" "${LLVM_CMAKE_DIR}")
include(TableGen)
include(AddLLVM)
include(AddMLIR)

include_directories(SYSTEM ${LLVM_INCLUDE_DIRS} ${MLIR_INCLUDE_DIRS})
add_definitions(${LLVM_DEFINITIONS})
if(NOT LLVM_ENABLE_EH)
  add_compile_options($<$<COMPILE_LANGUAGE:CXX>:-fno-exceptions>)
endif()
if(NOT LLVM_ENABLE_RTTI)
  add_compile_options($<$<COMPILE_LANGUAGE:CXX>:-fno-rtti>)
endif()
add_compile_options(-Wall -Wno-unused-parameter)

# Debian ships libMLIR.so but not the C API as a shared library; melior's
# shared link mode asks for `-lMLIR-C`. Merge the C API archives into one
# archive of that name: only the objects the program uses are linked, and
# they call into the one libMLIR.so.
function(dist_add_mlir_c_archive target)
  file(GLOB capi_archives "${LLVM_LIBRARY_DIR}/libMLIRCAPI*.a")
  list(SORT capi_archives)
  set(out "${CMAKE_CURRENT_BINARY_DIR}/libMLIR-C.a")
  set(script "${CMAKE_CURRENT_BINARY_DIR}/mlir-c.mri")
  set(lines "CREATE ${out}\n")
  foreach(a IN LISTS capi_archives)
    string(APPEND lines "ADDLIB ${a}\n")
  endforeach()
  string(APPEND lines "SAVE\nEND\n")
  file(WRITE "${script}" "${lines}")
  add_custom_command(OUTPUT "${out}"
    COMMAND ${CMAKE_COMMAND} -E rm -f "${out}"
    COMMAND ${CMAKE_AR} -M < "${script}"
    DEPENDS ${capi_archives} "${script}"
    COMMENT "Merging the MLIR C API archives into libMLIR-C.a")
  add_custom_target(${target} ALL DEPENDS "${out}")
endfunction()
