# ascendc.cmake of the ascendcl install tree ($ASCENDC_CMAKE_DIR/ascendc.cmake).
#
# CANN's example programs include this file unconditionally, also those that
# build no device kernel; host-only programs configure and build against the
# simulator runtime. The kernel rules of CANN's AscendC toolchain build
# kernels for the simulator instead of an NPU: the kernel sources are
# rewritten (ascendc_sim_rewrite.cmake, at build time, on a copy in the build
# tree: `name<<<blocks, l2ctrl, stream>>>(args)` launches become simulator
# launches, asm("trap") a device exception) and compiled with the host's C++17
# compiler against the tree's own kernel_operator.h
# (PREFIX/tikcpp/ascendc_sim/include: the part of the AscendC interface that
# CANN's example kernels use) and PREFIX/include.
#
#   ascendc_library(<name> STATIC|SHARED <sources>...)
#       a library of the kernels and their launch functions; it links
#       libascendcl.so, so an executable linking only <name> gets the runtime.
#   ascendc_fatbin_library(<name> <sources>...)
#       a kernel binary for aclrtBinaryLoadFromFile: a host shared object
#       exporting NAME__aclsim_entry and NAME__aclsim_info for each
#       extern "C" __global__ __aicore__ kernel NAME (aclsim/aclsim_kernel.h),
#       built as fatbin/<name>/<name>.o in the build directory and installed
#       (cmake --install) as ${CMAKE_INSTALL_PREFIX}/fatbin/<name>/<name>.o,
#       where CANN's toolchain puts its binaries.
#   ascendc_compile_definitions(<name> [PRIVATE|PUBLIC|INTERFACE] <defs>...)
#   ascendc_compile_options(<name> [PRIVATE|PUBLIC|INTERFACE] <options>...)
#   ascendc_include_directories(<name> [PRIVATE|PUBLIC|INTERFACE] <dirs>...)
#       apply to those targets (PRIVATE when no scope is given).
#
# Kernels are compiled with exceptions on, position-independent, and with -O2
# unless the build type's flags choose an optimisation level. A kernel
# source's own directory stays on its quoted-include path. The project must
# enable C++ (CANN's examples do: project() enables C and C++ by default).
#
# Variables a CMakeLists may read after including it:
#   ASCENDC_SIMULATOR        TRUE: this is the simulator runtime's file
#   ASCEND_CANN_PACKAGE_PATH the install tree (when the caller did not set it)
#   SOC_VERSION              $ENV{SOC_VERSION} when the caller did not set it

if(DEFINED _ASCENDCL_ASCENDC_CMAKE_INCLUDED)
  return()
endif()
set(_ASCENDCL_ASCENDC_CMAKE_INCLUDED TRUE)
set(ASCENDC_SIMULATOR TRUE)

# This file lives in PREFIX/tikcpp/ascendc_kernel_cmake.
get_filename_component(_ascendcl_prefix "${CMAKE_CURRENT_LIST_DIR}/../.."
                       ABSOLUTE)
if(NOT ASCEND_CANN_PACKAGE_PATH)
  set(ASCEND_CANN_PACKAGE_PATH "${_ascendcl_prefix}")
endif()
if(NOT SOC_VERSION AND DEFINED ENV{SOC_VERSION})
  set(SOC_VERSION "$ENV{SOC_VERSION}")
endif()
if(NOT EXISTS "${_ascendcl_prefix}/lib64/libascendcl.so")
  message(WARNING "ascendc.cmake: no lib64/libascendcl.so under "
                  "${_ascendcl_prefix}; was the tree moved without lib64?")
endif()
set_property(GLOBAL PROPERTY _ASCENDCL_SIM_PREFIX "${_ascendcl_prefix}")
unset(_ascendcl_prefix)

# --- Kernel rules (simulator) --------------------------------------------------

# Rewritten copies of the kernel sources of <target> (export: ON for kernel
# binaries) into <out_var>.
function(_ascendcl_sim_sources target export out_var)
  get_property(prefix GLOBAL PROPERTY _ASCENDCL_SIM_PREFIX)
  set(rewrite "${prefix}/tikcpp/ascendc_kernel_cmake/ascendc_sim_rewrite.cmake")
  if(NOT ARGN)
    message(FATAL_ERROR "ascendc.cmake: ${target} has no kernel sources")
  endif()
  get_property(languages GLOBAL PROPERTY ENABLED_LANGUAGES)
  list(FIND languages CXX cxx_index)
  if(cxx_index LESS 0)
    message(FATAL_ERROR "ascendc.cmake: ${target}: the simulator compiles "
                        "kernels as C++; enable CXX in project()")
  endif()
  set(outputs "")
  set(index 0)
  foreach(source IN LISTS ARGN)
    get_filename_component(path "${source}" ABSOLUTE
                           BASE_DIR "${CMAKE_CURRENT_SOURCE_DIR}")
    if(NOT EXISTS "${path}")
      message(FATAL_ERROR "ascendc.cmake: ${target}: no kernel source ${path}")
    endif()
    get_filename_component(directory "${path}" DIRECTORY)
    get_filename_component(name "${path}" NAME)
    set(copy "${CMAKE_CURRENT_BINARY_DIR}/ascendc_sim/${target}/${index}_${name}")
    math(EXPR index "${index} + 1")
    add_custom_command(
      OUTPUT "${copy}"
      COMMAND "${CMAKE_COMMAND}" "-DINPUT=${path}" "-DOUTPUT=${copy}"
              "-DEXPORT_KERNELS=${export}" -P "${rewrite}"
      DEPENDS "${path}" "${rewrite}"
      COMMENT "AscendC kernel (simulator): rewriting ${name}"
      VERBATIM)
    # The copy lives in the build tree: its #includes "..." still find the
    # original's neighbours.
    set_source_files_properties("${copy}" PROPERTIES
      GENERATED TRUE LANGUAGE CXX COMPILE_OPTIONS "-iquote${directory}")
    list(APPEND outputs "${copy}")
  endforeach()
  set(${out_var} "${outputs}" PARENT_SCOPE)
endfunction()

# What every kernel target gets.
function(_ascendcl_sim_kernel_target target)
  get_property(prefix GLOBAL PROPERTY _ASCENDCL_SIM_PREFIX)
  set_target_properties(${target} PROPERTIES
    CXX_STANDARD 17
    CXX_STANDARD_REQUIRED ON
    POSITION_INDEPENDENT_CODE ON
    LINKER_LANGUAGE CXX)
  target_include_directories(${target} PRIVATE
    "${prefix}/tikcpp/ascendc_sim/include" "${prefix}/include")
  target_compile_options(${target} PRIVATE -fexceptions)
  string(TOUPPER "${CMAKE_BUILD_TYPE}" build_type)
  if(NOT " ${CMAKE_CXX_FLAGS} ${CMAKE_CXX_FLAGS_${build_type}} " MATCHES " -O")
    target_compile_options(${target} PRIVATE -O2)
  endif()
  target_link_libraries(${target} PUBLIC "${prefix}/lib64/libascendcl.so")
endfunction()

function(ascendc_library target type)
  if(NOT type MATCHES "^(STATIC|SHARED)$")
    message(FATAL_ERROR "ascendc_library(${target} ${type} ...): the type is "
                        "STATIC or SHARED")
  endif()
  _ascendcl_sim_sources(${target} OFF sources ${ARGN})
  add_library(${target} ${type} ${sources})
  _ascendcl_sim_kernel_target(${target})
endfunction()

function(ascendc_fatbin_library target)
  _ascendcl_sim_sources(${target} ON sources ${ARGN})
  add_library(${target} MODULE ${sources})
  _ascendcl_sim_kernel_target(${target})
  set_target_properties(${target} PROPERTIES
    PREFIX ""
    SUFFIX ".o"
    LIBRARY_OUTPUT_DIRECTORY "${CMAKE_BINARY_DIR}/fatbin/${target}")
  install(TARGETS ${target} LIBRARY DESTINATION "fatbin/${target}")
endfunction()

# ARGN of the ascendc_* property rules: a scope keyword first, else PRIVATE.
macro(_ascendcl_sim_scoped out)
  if(ARGN)
    list(GET ARGN 0 _ascendcl_first)
  else()
    set(_ascendcl_first "")
  endif()
  if(_ascendcl_first MATCHES "^(PRIVATE|PUBLIC|INTERFACE)$")
    set(${out} ${ARGN})
  else()
    set(${out} PRIVATE ${ARGN})
  endif()
  unset(_ascendcl_first)
endmacro()

function(ascendc_compile_definitions target)
  _ascendcl_sim_scoped(items ${ARGN})
  target_compile_definitions(${target} ${items})
endfunction()
function(ascendc_compile_options target)
  _ascendcl_sim_scoped(items ${ARGN})
  target_compile_options(${target} ${items})
endfunction()
function(ascendc_include_directories target)
  _ascendcl_sim_scoped(items ${ARGN})
  target_include_directories(${target} ${items})
endfunction()
