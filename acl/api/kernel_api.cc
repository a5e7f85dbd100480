// ACL entry points of kernels (runtime/kernel.h; DESIGN.md §5.20): binaries,
// functions, device globals, argument lists, launches, and aborting or
// stopping a stream's running work.
#include <cstdint>
#include <cstring>
#include <mutex>
#include <new>
#include <optional>
#include <set>
#include <string>
#include <utility>

#include "absl/strings/str_cat.h"
#include "acl/acl_rt.h"
#include "acl/api/api_util.h"
#include "aclsim/aclsim_kernel.h"
#include "device/sim/sim_kernels.h"
#include "runtime/base/error.h"
#include "runtime/kernel/kernel.h"
#include "runtime/memory/memory.h"
#include "runtime/model/model.h"
#include "runtime/runtime.h"
#include "runtime/stream.h"

namespace {

using ascend::acl::RawEnum;
using ascend::acl::Runtime;
using ascend::rt::LaunchArgs;
using ascend::rt::LaunchConfig;
using ascend::rt::ReportErrorCode;

// The process runtime always has the kernel and memory families
// (runtime/process).
ascend::rt::Kernels& Kernels() {
  return ascend::acl::Fam<ascend::rt::Kernels>();
}
ascend::rt::Memory& Memory() { return ascend::acl::Fam<ascend::rt::Memory>(); }

// aclrtCreateBinary's descriptions: the caller's data and its length (CANN
// keeps the pointer; the data must stay valid until aclrtBinaryLoad).
struct BinaryDescription {
  const void* data;
  size_t size;
};
std::mutex& DescriptionsMu() {
  static std::mutex mu;
  return mu;
}
std::set<BinaryDescription*>& Descriptions() {
  static auto* set = new std::set<BinaryDescription*>();
  return *set;
}

// The launch attributes of `cfg` (NULL: none).
aclError ParseConfig(const char* api, const aclrtLaunchKernelCfg* cfg,
                     LaunchConfig* out) {
  if (cfg == nullptr) return ACL_SUCCESS;
  if (cfg->numAttrs != 0 && cfg->attrs == nullptr) {
    return ReportErrorCode(api, ACL_ERROR_INVALID_PARAM,
                           "cfg->attrs is NULL with cfg->numAttrs > 0");
  }
  for (size_t i = 0; i < cfg->numAttrs; ++i) {
    const aclrtLaunchKernelAttr& attr = cfg->attrs[i];
    switch (RawEnum(attr.id)) {
      case ACL_RT_LAUNCH_KERNEL_ATTR_SCHEM_MODE:
        if (attr.value.schemMode > 1) {
          return ReportErrorCode(
              api, ACL_ERROR_INVALID_PARAM,
              absl::StrCat("schemMode ", attr.value.schemMode,
                           " is neither 0 (normal) nor 1 (batch)"));
        }
        out->sched_mode = attr.value.schemMode;
        break;
      case ACL_RT_LAUNCH_KERNEL_ATTR_ENGINE_TYPE: {
        const int32_t raw = RawEnum(attr.value.engineType);
        if (raw != ACL_RT_ENGINE_TYPE_AIC && raw != ACL_RT_ENGINE_TYPE_AIV) {
          return ascend::acl::InvalidEnum(api, "engineType", "aclrtEngineType",
                                          raw);
        }
        out->vector_cores = raw == ACL_RT_ENGINE_TYPE_AIV;
        break;
      }
      case ACL_RT_LAUNCH_KERNEL_ATTR_BLOCKDIM_OFFSET:
        out->block_offset = attr.value.blockDimOffset;
        break;
      case ACL_RT_LAUNCH_KERNEL_ATTR_TIMEOUT:
        out->timeout_us = uint64_t{attr.value.timeout} * 1000000;
        break;
      case ACL_RT_LAUNCH_KERNEL_ATTR_TIMEOUT_US:
        out->timeout_us = (uint64_t{attr.value.timeoutUs.timeoutHigh} << 32) |
                          attr.value.timeoutUs.timeoutLow;
        break;
      case ACL_RT_LAUNCH_KERNEL_ATTR_DYN_UBUF_SIZE:
      case ACL_RT_LAUNCH_KERNEL_ATTR_BLOCK_TASK_PREFETCH:
      case ACL_RT_LAUNCH_KERNEL_ATTR_DATA_DUMP:
      case ACL_RT_LAUNCH_KERNEL_ATTR_ENABLE_PROFILING:
        // Hints for the hardware's scheduler, dumper and profiler: valid,
        // and nothing for host-code cores to do with them.
        break;
      default:
        return ascend::acl::InvalidEnum(
            api, "attrs[].id", "aclrtLaunchKernelAttrId", RawEnum(attr.id));
    }
  }
  return ACL_SUCCESS;
}

aclError Launch(const char* api, aclrtFuncHandle func, uint32_t blocks,
                aclrtStream stream, const aclrtLaunchKernelCfg* cfg,
                LaunchArgs args) {
  LaunchConfig config;
  if (aclError bad = ParseConfig(api, cfg, &config); bad != ACL_SUCCESS) {
    return bad;
  }
  return ascend::rt::ReportError(
      api, Kernels().Launch(func, blocks, stream, config, std::move(args)));
}

// The description of function `func` as `info`, or its error returned.
#define ACL_ASSIGN_FUNCTION_INFO(info, func)                    \
  auto info##_or_ = Kernels().Describe(func);                   \
  if (!info##_or_.ok()) return ACL_RESULT(info##_or_.status()); \
  const ascend::rt::FunctionInfo& info = *info##_or_

// 107000 for a kernel that does not describe its parameters.
aclError RequireParams(const char* api, const ascend::rt::FunctionInfo& info) {
  if (info.has_params) return ACL_SUCCESS;
  return ReportErrorCode(
      api, ACL_ERROR_RT_PARAM_INVALID,
      absl::StrCat("kernel ", info.name, " does not describe its parameters"));
}

// An (address, size) answer into the outputs given (either may be NULL).
aclError PairOut(const char* api,
                 const absl::StatusOr<std::pair<void*, size_t>>& pair,
                 void** addr, size_t* size) {
  if (!pair.ok()) return ascend::rt::ReportError(api, pair.status());
  if (addr != nullptr) *addr = pair->first;
  if (size != nullptr) *size = pair->second;
  return ACL_SUCCESS;
}

// A device global's range for a copy of `count` bytes at `offset`.
aclError SymbolRange(const char* api, const void* symbol, size_t count,
                     size_t offset, void** at) {
  auto global = Kernels().Symbol(symbol);
  if (!global.ok()) return ascend::rt::ReportError(api, global.status());
  if (offset > global->second || count > global->second - offset) {
    return ReportErrorCode(api, ACL_ERROR_INVALID_PARAM,
                           absl::StrCat(count, " bytes at offset ", offset,
                                        " run past the device global of ",
                                        global->second, " bytes"));
  }
  *at = static_cast<uint8_t*>(global->first) + offset;
  return ACL_SUCCESS;
}

// A copy of `count` bytes between a device global (by host symbol, at
// `offset`) and `other` (of `other_max` bytes): into the global when
// `to_global`, else out of it; in stream order when `async`.
aclError SymbolCopy(const char* api, const void* symbol, size_t count,
                    size_t offset, void* other, size_t other_max,
                    bool to_global, aclrtMemcpyKind kind, aclrtStream stream,
                    bool async) {
  void* at = nullptr;
  if (aclError bad = SymbolRange(api, symbol, count, offset, &at);
      bad != ACL_SUCCESS) {
    return bad;
  }
  void* dst = to_global ? at : other;
  const void* src = to_global ? other : at;
  const size_t dst_max = to_global ? count : other_max;
  return ascend::rt::ReportError(
      api, async ? Memory().MemcpyAsync(dst, dst_max, src, count, kind, stream)
                 : Memory().Memcpy(dst, dst_max, src, count, kind));
}

// 06, aclrtStreamAbort / aclrtStreamStop constraints: a stream bound to a
// model runtime instance (aclmdlRIBindStream) is not supported. The page
// names no code: 107000, the stream family's parameter code.
absl::Status RefuseBoundStream(const ascend::rt::Stream& stream) {
  const ascend::rt::Models* models =
      ascend::acl::FamIfPresent<ascend::rt::Models>();
  if (models == nullptr) return absl::OkStatus();
  const std::optional<uint32_t> model = models->BoundModelId(stream);
  if (!model.has_value()) return absl::OkStatus();
  return ascend::rt::Error(
      ACL_ERROR_RT_PARAM_INVALID,
      absl::StrCat("stream ", stream.id(), " is bound to model ", *model,
                   " (aclmdlRIBindStream): not supported"));
}

}  // namespace

#define ACL_RETURN_IF_BOUND_TO_MODEL(stream)                   \
  do {                                                         \
    const absl::Status acl_bound_ = RefuseBoundStream(stream); \
    if (!acl_bound_.ok()) return ACL_RESULT(acl_bound_);       \
  } while (false)

extern "C" {

// --- Binaries ----------------------------------------------------------------

aclError aclrtBinaryLoadFromFile(const char* binPath,
                                 aclrtBinaryLoadOptions* options,
                                 aclrtBinHandle* binHandle) try {
  ACL_GATE();
  ACL_REQUIRE_NOT_NULL(binPath);
  ACL_REQUIRE_NOT_NULL(binHandle);
  ACL_RETURN_VALUE(binHandle, Kernels().LoadFile(binPath, options));
}
ACL_ENTRY_CATCH(aclError)

aclError aclrtBinaryLoadFromData(const void* data, size_t length,
                                 const aclrtBinaryLoadOptions* options,
                                 aclrtBinHandle* binHandle) try {
  ACL_GATE();
  ACL_REQUIRE_NOT_NULL(data);
  ACL_REQUIRE_NOT_NULL(binHandle);
  if (length == 0) {
    return ReportErrorCode(__func__, ACL_ERROR_INVALID_PARAM,
                           "length must not be 0");
  }
  ACL_RETURN_VALUE(binHandle, Kernels().LoadData(data, length, options));
}
ACL_ENTRY_CATCH(aclError)

aclrtBinary aclrtCreateBinary(const void* data, size_t dataLen) try {
  if (data == nullptr || dataLen == 0) {
    ReportErrorCode(__func__, ACL_ERROR_INVALID_PARAM,
                    "data must not be NULL nor dataLen 0");
    return nullptr;
  }
  auto* description = new (std::nothrow) BinaryDescription{data, dataLen};
  if (description == nullptr) {
    ReportErrorCode(__func__, ACL_ERROR_BAD_ALLOC, "out of host memory");
    return nullptr;
  }
  try {
    std::lock_guard<std::mutex> lock(DescriptionsMu());
    Descriptions().insert(description);
  } catch (...) {
    delete description;
    ReportErrorCode(__func__, ACL_ERROR_BAD_ALLOC, "out of host memory");
    return nullptr;
  }
  return description;
}
ACL_ENTRY_CATCH(aclrtBinary)

aclError aclrtDestroyBinary(aclrtBinary binary) try {
  ACL_REQUIRE_NOT_NULL(binary);
  auto* description = static_cast<BinaryDescription*>(binary);
  {
    std::lock_guard<std::mutex> lock(DescriptionsMu());
    if (Descriptions().erase(description) == 0) {
      return ReportErrorCode(__func__, ACL_ERROR_INVALID_PARAM,
                             "binary is not from aclrtCreateBinary");
    }
  }
  delete description;
  return ACL_SUCCESS;
}
ACL_ENTRY_CATCH(aclError)

aclError aclrtBinaryLoad(const aclrtBinary binary,
                         aclrtBinHandle* binHandle) try {
  ACL_GATE();
  ACL_REQUIRE_NOT_NULL(binary);
  ACL_REQUIRE_NOT_NULL(binHandle);
  BinaryDescription description{};
  {
    std::lock_guard<std::mutex> lock(DescriptionsMu());
    auto* d = static_cast<BinaryDescription*>(binary);
    if (Descriptions().count(d) == 0) {
      return ReportErrorCode(__func__, ACL_ERROR_INVALID_PARAM,
                             "binary is not from aclrtCreateBinary");
    }
    description = *d;
  }
  ACL_RETURN_VALUE(binHandle, Kernels().LoadData(description.data,
                                                 description.size, nullptr));
}
ACL_ENTRY_CATCH(aclError)

aclError aclrtBinaryUnLoad(aclrtBinHandle binHandle) try {
  ACL_GATE();
  ACL_REQUIRE_NOT_NULL(binHandle);
  return ACL_RESULT(Kernels().Unload(binHandle));
}
ACL_ENTRY_CATCH(aclError)

aclError aclrtBinaryGetDevAddress(const aclrtBinHandle binHandle,
                                  void** binAddr, size_t* binSize) try {
  ACL_REQUIRE_NOT_NULL(binHandle);
  ACL_REQUIRE_NOT_NULL(binAddr);
  ACL_REQUIRE_NOT_NULL(binSize);
  return PairOut(__func__, Kernels().DeviceImage(binHandle), binAddr, binSize);
}
ACL_ENTRY_CATCH(aclError)

aclError aclrtBinaryGetGlobal(aclrtBinHandle binHandle, const char* name,
                              void** dptr, size_t* size) try {
  ACL_REQUIRE_NOT_NULL(binHandle);
  ACL_REQUIRE_NOT_NULL(name);
  // 14, aclrtBinaryGetGlobal: either output may be NULL, not both.
  if (dptr == nullptr && size == nullptr) {
    return ReportErrorCode(__func__, ACL_ERROR_INVALID_PARAM,
                           "dptr and size are both NULL");
  }
  return PairOut(__func__, Kernels().Global(binHandle, name), dptr, size);
}
ACL_ENTRY_CATCH(aclError)

aclError aclrtBinarySetExceptionCallback(aclrtBinHandle binHandle,
                                         aclrtOpExceptionCallback callback,
                                         void* userData) try {
  ACL_REQUIRE_NOT_NULL(binHandle);
  return ACL_RESULT(
      Kernels().SetExceptionCallback(binHandle, callback, userData));
}
ACL_ENTRY_CATCH(aclError)

// --- Functions ---------------------------------------------------------------

aclError aclrtBinaryGetFunction(const aclrtBinHandle binHandle,
                                const char* kernelName,
                                aclrtFuncHandle* funcHandle) try {
  ACL_REQUIRE_NOT_NULL(binHandle);
  ACL_REQUIRE_NOT_NULL(kernelName);
  ACL_REQUIRE_NOT_NULL(funcHandle);
  ACL_RETURN_VALUE(funcHandle, Kernels().Function(binHandle, kernelName));
}
ACL_ENTRY_CATCH(aclError)

aclError aclrtBinaryGetFunctionByEntry(aclrtBinHandle binHandle,
                                       uint64_t funcEntry,
                                       aclrtFuncHandle* funcHandle) try {
  ACL_REQUIRE_NOT_NULL(binHandle);
  ACL_REQUIRE_NOT_NULL(funcHandle);
  ACL_RETURN_VALUE(funcHandle, Kernels().FunctionByEntry(binHandle, funcEntry));
}
ACL_ENTRY_CATCH(aclError)

aclError aclrtRegisterCpuFunc(const aclrtBinHandle handle, const char* funcName,
                              const char* kernelName,
                              aclrtFuncHandle* funcHandle) try {
  ACL_REQUIRE_NOT_NULL(handle);
  ACL_REQUIRE_NOT_NULL(funcName);
  ACL_REQUIRE_NOT_NULL(kernelName);
  ACL_REQUIRE_NOT_NULL(funcHandle);
  ACL_RETURN_VALUE(funcHandle,
                   Kernels().RegisterCpuFunc(handle, funcName, kernelName));
}
ACL_ENTRY_CATCH(aclError)

aclError aclrtGetFuncBySymbol(const void* symbol,
                              aclrtFuncHandle* funcHandle) try {
  ACL_REQUIRE_NOT_NULL(symbol);
  ACL_REQUIRE_NOT_NULL(funcHandle);
  ACL_RETURN_VALUE(funcHandle, Kernels().FunctionBySymbol(symbol));
}
ACL_ENTRY_CATCH(aclError)

aclError aclrtGetFunctionAddr(aclrtFuncHandle funcHandle, void** aicAddr,
                              void** aivAddr) try {
  ACL_REQUIRE_NOT_NULL(funcHandle);
  ACL_REQUIRE_NOT_NULL(aicAddr);
  ACL_REQUIRE_NOT_NULL(aivAddr);
  ACL_ASSIGN_FUNCTION_INFO(info, funcHandle);
  // One entry runs on either kind of simulated core.
  *aicAddr = info.entry;
  *aivAddr = info.entry;
  return ACL_SUCCESS;
}
ACL_ENTRY_CATCH(aclError)

aclError aclrtGetFunctionSize(aclrtFuncHandle funcHandle, size_t* aicSize,
                              size_t* aivSize) try {
  ACL_REQUIRE_NOT_NULL(funcHandle);
  ACL_REQUIRE_NOT_NULL(aicSize);
  ACL_REQUIRE_NOT_NULL(aivSize);
  ACL_ASSIGN_FUNCTION_INFO(info, funcHandle);
  *aicSize = info.code_size;
  *aivSize = info.code_size;
  return ACL_SUCCESS;
}
ACL_ENTRY_CATCH(aclError)

// 14: a SIMT kernel's dynamic UB budget per block; every simulated kernel is
// a SIMD (non-SIMT) one, for which the answer is success with 0.
aclError aclrtFunctionGetAvailDynUbufPerBlock(void* func, uint32_t flags,
                                              size_t* dynamicUbufSize) try {
  ACL_REQUIRE_NOT_NULL(func);
  ACL_REQUIRE_NOT_NULL(dynamicUbufSize);
  if (flags != 0) {
    return ReportErrorCode(
        __func__, ACL_ERROR_RT_PARAM_INVALID,
        absl::StrCat("flags is reserved and must be 0, not ", flags));
  }
  ACL_ASSIGN_FUNCTION_INFO(info, func);
  (void)info;
  *dynamicUbufSize = 0;
  return ACL_SUCCESS;
}
ACL_ENTRY_CATCH(aclError)

aclError aclrtGetFunctionName(aclrtFuncHandle funcHandle, uint32_t maxLen,
                              char* name) try {
  ACL_REQUIRE_NOT_NULL(funcHandle);
  ACL_REQUIRE_NOT_NULL(name);
  ACL_ASSIGN_FUNCTION_INFO(info, funcHandle);
  if (info.name.size() + 1 > maxLen) {
    return ReportErrorCode(__func__, ACL_ERROR_INVALID_PARAM,
                           absl::StrCat("the name needs ", info.name.size() + 1,
                                        " bytes; maxLen is ", maxLen));
  }
  std::memcpy(name, info.name.c_str(), info.name.size() + 1);
  return ACL_SUCCESS;
}
ACL_ENTRY_CATCH(aclError)

aclError aclrtGetFunctionAttribute(aclrtFuncHandle funcHandle,
                                   aclrtFuncAttribute attrType,
                                   int64_t* attrValue) try {
  ACL_REQUIRE_NOT_NULL(funcHandle);
  ACL_REQUIRE_NOT_NULL(attrValue);
  const int32_t raw = RawEnum(attrType);
  if (raw < ACL_FUNC_ATTR_KERNEL_TYPE ||
      raw > ACL_FUNC_ATTR_KERNEL_SCHED_MODE) {
    return ascend::acl::InvalidEnum(__func__, "attrType", "aclrtFuncAttribute",
                                    raw);
  }
  ACL_ASSIGN_FUNCTION_INFO(info, funcHandle);
  switch (raw) {
    case ACL_FUNC_ATTR_KERNEL_TYPE:
      *attrValue = info.cpu ? ACL_KERNEL_TYPE_AICPU : ACL_KERNEL_TYPE_AICORE;
      break;
    case ACL_FUNC_ATTR_KERNEL_RATIO:
      // Not a mixed cube/vector kernel: no ratio between the two.
      *attrValue = 0;
      break;
    default:
      *attrValue = 0;  // normal scheduling
      break;
  }
  return ACL_SUCCESS;
}
ACL_ENTRY_CATCH(aclError)

aclError aclrtFunctionGetBinary(const aclrtFuncHandle funcHandle,
                                aclrtBinHandle* binHandle) try {
  ACL_REQUIRE_NOT_NULL(funcHandle);
  ACL_REQUIRE_NOT_NULL(binHandle);
  ACL_ASSIGN_FUNCTION_INFO(info, funcHandle);
  *binHandle = info.binary;
  return ACL_SUCCESS;
}
ACL_ENTRY_CATCH(aclError)

aclError aclrtFunctionGetParamCount(const void* func, size_t* paramCount) try {
  ACL_REQUIRE_NOT_NULL(func);
  ACL_REQUIRE_NOT_NULL(paramCount);
  ACL_ASSIGN_FUNCTION_INFO(info, func);
  if (aclError bad = RequireParams(__func__, info); bad != ACL_SUCCESS) {
    return bad;
  }
  *paramCount = info.params.size();
  return ACL_SUCCESS;
}
ACL_ENTRY_CATCH(aclError)

aclError aclrtFunctionGetParamInfo(const void* func, size_t paramIndex,
                                   size_t* paramOffset, size_t* paramSize) try {
  ACL_REQUIRE_NOT_NULL(func);
  ACL_REQUIRE_NOT_NULL(paramOffset);
  ACL_REQUIRE_NOT_NULL(paramSize);
  ACL_ASSIGN_FUNCTION_INFO(info, func);
  if (aclError bad = RequireParams(__func__, info); bad != ACL_SUCCESS) {
    return bad;
  }
  if (paramIndex >= info.params.size()) {
    return ReportErrorCode(
        __func__, ACL_ERROR_INVALID_PARAM,
        absl::StrCat("paramIndex ", paramIndex, " is past the ",
                     info.params.size(), " parameters"));
  }
  *paramOffset = info.params[paramIndex].offset;
  *paramSize = info.params[paramIndex].size;
  return ACL_SUCCESS;
}
ACL_ENTRY_CATCH(aclError)

aclError aclsimRegisterKernel(const void* symbol, const char* name,
                              aclsimKernelEntry entry,
                              const aclsimKernelInfo* info,
                              aclrtFuncHandle* funcHandle) try {
  ACL_REQUIRE_NOT_NULL(symbol);
  ACL_REQUIRE_NOT_NULL(name);
  ACL_REQUIRE_NOT_NULL(entry);
  ACL_REQUIRE_NOT_NULL(funcHandle);
  // The simulator describes the kernel (checks its ABI); the runtime keeps
  // it.
  ACL_RETURN_VALUE(funcHandle, Kernels().RegisterProgramKernel(
                                   symbol, name,
                                   ascend::device::sim::DescribeProgramKernel(
                                       name, entry, info)));
}
ACL_ENTRY_CATCH(aclError)

// --- Device globals by host symbol -------------------------------------------

aclError aclrtGetSymbolAddress(const void* symbol, void** devPtr) try {
  ACL_REQUIRE_NOT_NULL(symbol);
  ACL_REQUIRE_NOT_NULL(devPtr);
  return PairOut(__func__, Kernels().Symbol(symbol), devPtr, nullptr);
}
ACL_ENTRY_CATCH(aclError)

aclError aclrtGetSymbolSize(const void* symbol, size_t* size) try {
  ACL_REQUIRE_NOT_NULL(symbol);
  ACL_REQUIRE_NOT_NULL(size);
  return PairOut(__func__, Kernels().Symbol(symbol), nullptr, size);
}
ACL_ENTRY_CATCH(aclError)

aclError aclrtMemcpyToSymbol(const void* symbol, const void* src, size_t count,
                             size_t offset, aclrtMemcpyKind kind) try {
  ACL_GATE();
  ACL_REQUIRE_NOT_NULL(symbol);
  ACL_REQUIRE_NOT_NULL(src);
  return SymbolCopy(__func__, symbol, count, offset, const_cast<void*>(src),
                    count, /*to_global=*/true, kind, nullptr, false);
}
ACL_ENTRY_CATCH(aclError)

aclError aclrtMemcpyToSymbolAsync(const void* symbol, const void* src,
                                  size_t count, size_t offset,
                                  aclrtMemcpyKind kind,
                                  aclrtStream stream) try {
  ACL_GATE();
  ACL_REQUIRE_NOT_NULL(symbol);
  ACL_REQUIRE_NOT_NULL(src);
  return SymbolCopy(__func__, symbol, count, offset, const_cast<void*>(src),
                    count, /*to_global=*/true, kind, stream, true);
}
ACL_ENTRY_CATCH(aclError)

aclError aclrtMemcpyFromSymbol(void* dst, size_t dstMax, const void* symbol,
                               size_t count, size_t offset,
                               aclrtMemcpyKind kind) try {
  ACL_GATE();
  ACL_REQUIRE_NOT_NULL(dst);
  ACL_REQUIRE_NOT_NULL(symbol);
  return SymbolCopy(__func__, symbol, count, offset, dst, dstMax,
                    /*to_global=*/false, kind, nullptr, false);
}
ACL_ENTRY_CATCH(aclError)

aclError aclrtMemcpyFromSymbolAsync(void* dst, size_t dstMax,
                                    const void* symbol, size_t count,
                                    size_t offset, aclrtMemcpyKind kind,
                                    aclrtStream stream) try {
  ACL_GATE();
  ACL_REQUIRE_NOT_NULL(dst);
  ACL_REQUIRE_NOT_NULL(symbol);
  return SymbolCopy(__func__, symbol, count, offset, dst, dstMax,
                    /*to_global=*/false, kind, stream, true);
}
ACL_ENTRY_CATCH(aclError)

// --- Argument lists ----------------------------------------------------------

aclError aclrtKernelArgsGetHandleMemSize(aclrtFuncHandle funcHandle,
                                         size_t* memSize) try {
  ACL_REQUIRE_NOT_NULL(funcHandle);
  ACL_REQUIRE_NOT_NULL(memSize);
  ACL_ASSIGN_FUNCTION_INFO(info, funcHandle);
  (void)info;  // any function: the handle memory is the same for all
  *memSize = ascend::rt::Kernels::ArgsHandleSize();
  return ACL_SUCCESS;
}
ACL_ENTRY_CATCH(aclError)

aclError aclrtKernelArgsGetMemSize(aclrtFuncHandle funcHandle,
                                   size_t userArgsSize,
                                   size_t* actualArgsSize) try {
  ACL_REQUIRE_NOT_NULL(funcHandle);
  ACL_REQUIRE_NOT_NULL(actualArgsSize);
  ACL_RETURN_VALUE(actualArgsSize,
                   Kernels().ArgsMemSize(funcHandle, userArgsSize));
}
ACL_ENTRY_CATCH(aclError)

aclError aclrtKernelArgsInit(aclrtFuncHandle funcHandle,
                             aclrtArgsHandle* argsHandle) try {
  ACL_REQUIRE_NOT_NULL(funcHandle);
  ACL_REQUIRE_NOT_NULL(argsHandle);
  ACL_RETURN_VALUE(argsHandle, Kernels().ArgsInit(funcHandle));
}
ACL_ENTRY_CATCH(aclError)

aclError aclrtKernelArgsInitByUserMem(aclrtFuncHandle funcHandle,
                                      aclrtArgsHandle argsHandle,
                                      void* userHostMem,
                                      size_t actualArgsSize) try {
  ACL_REQUIRE_NOT_NULL(funcHandle);
  ACL_REQUIRE_NOT_NULL(argsHandle);
  ACL_REQUIRE_NOT_NULL(userHostMem);
  return ACL_RESULT(Kernels().ArgsInitUser(funcHandle, argsHandle, userHostMem,
                                           actualArgsSize));
}
ACL_ENTRY_CATCH(aclError)

aclError aclrtKernelArgsAppend(aclrtArgsHandle argsHandle, void* param,
                               size_t paramSize,
                               aclrtParamHandle* paramHandle) try {
  ACL_REQUIRE_NOT_NULL(argsHandle);
  ACL_REQUIRE_NOT_NULL(param);
  ACL_REQUIRE_NOT_NULL(paramHandle);
  ACL_RETURN_VALUE(paramHandle,
                   Kernels().ArgsAppend(argsHandle, param, paramSize));
}
ACL_ENTRY_CATCH(aclError)

aclError aclrtKernelArgsAppendPlaceHolder(aclrtArgsHandle argsHandle,
                                          aclrtParamHandle* paramHandle) try {
  ACL_REQUIRE_NOT_NULL(argsHandle);
  ACL_REQUIRE_NOT_NULL(paramHandle);
  ACL_RETURN_VALUE(paramHandle, Kernels().ArgsAppendPlaceHolder(argsHandle));
}
ACL_ENTRY_CATCH(aclError)

aclError aclrtKernelArgsGetPlaceHolderBuffer(aclrtArgsHandle argsHandle,
                                             aclrtParamHandle paramHandle,
                                             size_t dataSize,
                                             void** bufferAddr) try {
  ACL_REQUIRE_NOT_NULL(argsHandle);
  ACL_REQUIRE_NOT_NULL(paramHandle);
  ACL_REQUIRE_NOT_NULL(bufferAddr);
  ACL_RETURN_VALUE(bufferAddr, Kernels().ArgsPlaceHolderBuffer(
                                   argsHandle, paramHandle, dataSize));
}
ACL_ENTRY_CATCH(aclError)

aclError aclrtKernelArgsParaUpdate(aclrtArgsHandle argsHandle,
                                   aclrtParamHandle paramHandle, void* param,
                                   size_t paramSize) try {
  ACL_REQUIRE_NOT_NULL(argsHandle);
  ACL_REQUIRE_NOT_NULL(paramHandle);
  ACL_REQUIRE_NOT_NULL(param);
  return ACL_RESULT(
      Kernels().ArgsUpdate(argsHandle, paramHandle, param, paramSize));
}
ACL_ENTRY_CATCH(aclError)

aclError aclrtKernelArgsFinalize(aclrtArgsHandle argsHandle) try {
  ACL_REQUIRE_NOT_NULL(argsHandle);
  return ACL_RESULT(Kernels().ArgsFinalize(argsHandle));
}
ACL_ENTRY_CATCH(aclError)

// --- Launches ----------------------------------------------------------------

aclError aclrtLaunchKernel(aclrtFuncHandle funcHandle, uint32_t numBlocks,
                           const void* argsData, size_t argsSize,
                           aclrtStream stream) try {
  ACL_GATE();
  ACL_REQUIRE_NOT_NULL(funcHandle);
  LaunchArgs args;
  if (argsData != nullptr || argsSize != 0) {
    ACL_REQUIRE_NOT_NULL(argsData);
    args.device = const_cast<void*>(argsData);
    args.device_size = argsSize;
  }
  return Launch(__func__, funcHandle, numBlocks, stream, nullptr,
                std::move(args));
}
ACL_ENTRY_CATCH(aclError)

aclError aclrtLaunchKernelV2(aclrtFuncHandle funcHandle, uint32_t numBlocks,
                             const void* argsData, size_t argsSize,
                             aclrtLaunchKernelCfg* cfg,
                             aclrtStream stream) try {
  ACL_GATE();
  ACL_REQUIRE_NOT_NULL(funcHandle);
  LaunchArgs args;
  if (argsData != nullptr || argsSize != 0) {
    ACL_REQUIRE_NOT_NULL(argsData);
    args.device = const_cast<void*>(argsData);
    args.device_size = argsSize;
  }
  return Launch(__func__, funcHandle, numBlocks, stream, cfg, std::move(args));
}
ACL_ENTRY_CATCH(aclError)

aclError aclrtLaunchKernelWithConfig(aclrtFuncHandle funcHandle,
                                     uint32_t numBlocks, aclrtStream stream,
                                     aclrtLaunchKernelCfg* cfg,
                                     aclrtArgsHandle argsHandle,
                                     void* reserve) try {
  ACL_GATE();
  ACL_REQUIRE_NOT_NULL(funcHandle);
  ACL_REQUIRE_NOT_NULL(argsHandle);
  if (reserve != nullptr) {
    return ReportErrorCode(__func__, ACL_ERROR_INVALID_PARAM,
                           "reserve must be NULL");
  }
  auto prepared = Kernels().ArgsForLaunch(argsHandle);
  if (!prepared.ok()) return ACL_RESULT(prepared.status());
  if (prepared->first != funcHandle) {
    return ReportErrorCode(__func__, ACL_ERROR_RT_PARAM_INVALID,
                           "argsHandle was initialised for another function");
  }
  return Launch(__func__, funcHandle, numBlocks, stream, cfg,
                std::move(prepared->second));
}
ACL_ENTRY_CATCH(aclError)

aclError aclrtLaunchKernelWithHostArgs(aclrtFuncHandle funcHandle,
                                       uint32_t numBlocks, aclrtStream stream,
                                       aclrtLaunchKernelCfg* cfg,
                                       void* hostArgs, size_t argsSize,
                                       aclrtPlaceHolderInfo* placeHolderArray,
                                       size_t placeHolderNum) try {
  ACL_GATE();
  ACL_REQUIRE_NOT_NULL(funcHandle);
  if (argsSize != 0) ACL_REQUIRE_NOT_NULL(hostArgs);
  if (placeHolderNum != 0) ACL_REQUIRE_NOT_NULL(placeHolderArray);
  LaunchArgs args;
  if (argsSize != 0) {
    const auto* bytes = static_cast<const uint8_t*>(hostArgs);
    args.bytes.assign(bytes, bytes + argsSize);
  }
  for (size_t i = 0; i < placeHolderNum; ++i) {
    const aclrtPlaceHolderInfo& p = placeHolderArray[i];
    if (size_t{p.addrOffset} + sizeof(void*) > argsSize ||
        p.dataOffset >= argsSize) {
      return ReportErrorCode(
          __func__, ACL_ERROR_INVALID_PARAM,
          absl::StrCat("placeHolderArray[", i, "] (addrOffset ", p.addrOffset,
                       ", dataOffset ", p.dataOffset, ") lies outside the ",
                       argsSize, " argument bytes"));
    }
    args.place_holders.emplace_back(p.addrOffset, p.dataOffset);
  }
  return Launch(__func__, funcHandle, numBlocks, stream, cfg, std::move(args));
}
ACL_ENTRY_CATCH(aclError)

aclError aclrtLaunchKernelWithArgsArray(void* func, uint32_t numBlocks,
                                        aclrtStream stream,
                                        aclrtLaunchKernelCfg* cfg,
                                        void** args) try {
  ACL_GATE();
  ACL_REQUIRE_NOT_NULL(func);
  ACL_REQUIRE_NOT_NULL(args);
  auto laid_out = Kernels().ArgsFromArray(func, args);
  if (!laid_out.ok()) return ACL_RESULT(laid_out.status());
  return Launch(__func__, func, numBlocks, stream, cfg, *std::move(laid_out));
}
ACL_ENTRY_CATCH(aclError)

// --- Stopping a stream's work ------------------------------------------------

aclError aclrtStreamAbort(aclrtStream stream) try {
  ACL_GATE();
  auto s = Runtime().ResolveStream(stream);
  if (!s.ok()) return ACL_RESULT(s.status());
  if (ascend::rt::Stream::Current() == s->get()) {
    return ReportErrorCode(__func__, ACL_ERROR_RT_NO_PERMISSION,
                           "a task cannot abort its own stream");
  }
  ACL_RETURN_IF_BOUND_TO_MODEL(**s);
  return ACL_RESULT((*s)->AbortTasks(absl::InfiniteFuture()));
}
ACL_ENTRY_CATCH(aclError)

aclError aclrtStreamStop(aclrtStream stream) try {
  ACL_GATE();
  if (stream == nullptr) {
    return ReportErrorCode(__func__, ACL_ERROR_INVALID_PARAM,
                           "the default stream cannot be stopped");
  }
  auto s = Runtime().ResolveStream(stream);
  if (!s.ok()) return ACL_RESULT(s.status());
  ACL_RETURN_IF_BOUND_TO_MODEL(**s);
  (*s)->StopRunning();
  return ACL_SUCCESS;
}
ACL_ENTRY_CATCH(aclError)

}  // extern "C"
