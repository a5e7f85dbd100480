# ascendc.cmake of the ascendcl install tree ($ASCENDC_CMAKE_DIR/ascendc.cmake).
#
# CANN's example programs include this file unconditionally, also those that
# build no device kernel. Here it lets such host-only programs configure and
# build against the simulator runtime, and it defines the kernel rules CANN's
# AscendC toolchain provides so that a program using them stops at configure
# time with a clear message instead of an unknown-command error: compiling
# AscendC device kernels needs CANN's AscendC compiler, which this install
# tree does not contain.
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
unset(_ascendcl_prefix)

# Every rule CANN's AscendC toolchain offers for device code ends the
# configuration with the same explanation.
function(_ascendcl_no_device_compiler rule)
  message(FATAL_ERROR
    "${rule}(${ARGN}): this is the ascendcl simulator's ascendc.cmake. "
    "Building AscendC device kernels needs CANN's AscendC compiler, which "
    "this install tree does not provide; programs without device kernels "
    "configure and build normally. Install CANN's toolkit for kernel "
    "programs.")
endfunction()

function(ascendc_library)
  _ascendcl_no_device_compiler(ascendc_library ${ARGN})
endfunction()
function(ascendc_fatbin_library)
  _ascendcl_no_device_compiler(ascendc_fatbin_library ${ARGN})
endfunction()
function(ascendc_compile_definitions)
  _ascendcl_no_device_compiler(ascendc_compile_definitions ${ARGN})
endfunction()
function(ascendc_compile_options)
  _ascendcl_no_device_compiler(ascendc_compile_options ${ARGN})
endfunction()
function(ascendc_include_directories)
  _ascendcl_no_device_compiler(ascendc_include_directories ${ARGN})
endfunction()
