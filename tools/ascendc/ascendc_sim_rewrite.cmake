# Rewrites one AscendC kernel source for the simulator (run by the rules of
# ascendc.cmake at build time, on a copy in the build tree):
#
#   cmake -DINPUT=<kernel source> -DOUTPUT=<rewritten copy>
#         [-DEXPORT_KERNELS=ON] -P ascendc_sim_rewrite.cmake
#
# - `NAME<<<blocks, l2ctrl, stream>>>(args...)` becomes
#   `::AscendC::Sim::Launcher<&NAME>("NAME", blocks, l2ctrl, stream)(args...)`
#   (kernel_operator.h: registers the kernel once, launches it with
#   aclrtLaunchKernelWithHostArgs and answers its code). The launch configuration must not
#   contain '>'.
# - `asm("trap")` (also __asm__, volatile) becomes `::AscendC::Sim::Trap()`,
#   which raises ACL_ERROR_RT_AICORE_TRAP_EXCEPTION and ends the block.
# - With EXPORT_KERNELS (kernel binaries), each kernel defined in the file as
#   `extern "C" __global__ __aicore__ void NAME(...) {` gets its exported ABI
#   symbols NAME__aclsim_entry and NAME__aclsim_info, appended at the end.
#
# The copy starts with a #line directive naming the original, and no rewrite
# adds or removes a line, so diagnostics point into the original source.
if(NOT DEFINED INPUT OR NOT DEFINED OUTPUT)
  message(FATAL_ERROR "usage: cmake -DINPUT=src -DOUTPUT=dst "
                      "[-DEXPORT_KERNELS=ON] -P ascendc_sim_rewrite.cmake")
endif()
file(READ "${INPUT}" text)

set(_space "[ \t\r\n]")

# Launches.
string(REGEX REPLACE
  "([A-Za-z_][A-Za-z0-9_:]*)${_space}*<<<([^>]*)>>>"
  "::AscendC::Sim::Launcher<&\\1>(\"\\1\", \\2)"
  text "${text}")

# Traps.
string(REGEX REPLACE
  "(__asm__|__asm|asm)[ \t]*(__volatile__|volatile)?[ \t]*\\([ \t]*\"trap\"[ \t]*\\)"
  "::AscendC::Sim::Trap()"
  text "${text}")

set(exports "")
if(EXPORT_KERNELS)
  set(_decl "extern${_space}+\"C\"${_space}+((__global__|__aicore__)${_space}+)+void${_space}+")
  string(REGEX MATCHALL
    "${_decl}[A-Za-z_][A-Za-z0-9_]*${_space}*\\([^;{]*\\)${_space}*{"
    definitions "${text}")
  set(names "")
  foreach(definition IN LISTS definitions)
    string(REGEX REPLACE "^${_decl}([A-Za-z_][A-Za-z0-9_]*).*$" "\\3" name
           "${definition}")
    list(APPEND names "${name}")
  endforeach()
  if(names)
    list(REMOVE_DUPLICATES names)
  endif()
  foreach(name IN LISTS names)
    string(APPEND exports "ACLSIM_ASCENDC_EXPORT_KERNEL(${name})\n")
  endforeach()
endif()

string(REPLACE "\\" "\\\\" line_name "${INPUT}")
string(REPLACE "\"" "\\\"" line_name "${line_name}")
set(result "#line 1 \"${line_name}\"\n${text}")
if(NOT result MATCHES "\n$")
  string(APPEND result "\n")
endif()
if(exports)
  string(APPEND result
    "// Added by ascendc.cmake (simulator): the kernels' ABI symbols.\n"
    "${exports}")
endif()

file(WRITE "${OUTPUT}" "${result}")
