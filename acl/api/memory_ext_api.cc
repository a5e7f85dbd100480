// ACL entry points: configured allocations, pointer attributes, managed
// memory, registered host memory, per-module usage and uncorrectable memory
// errors (DESIGN.md §5.15).
#include <algorithm>
#include <cstring>
#include <string>
#include <vector>

#include "acl/acl_rt.h"
#include "acl/api/api_util.h"
#include "acl/error_codes/rt_error_codes.h"
#include "runtime/device_info/device_info.h"
#include "runtime/memory/memory.h"

using ascend::acl::Fam;
using ascend::acl::InvalidEnum;
using ascend::acl::RawEnum;
namespace rt = ascend::rt;

namespace {

// The process runtime always has the memory family (runtime/process).
ascend::rt::Memory& Memory() { return ascend::acl::Fam<ascend::rt::Memory>(); }

constexpr uint32_t kRegisterV2Flags =
    ACL_HOST_REG_MAPPED | ACL_HOST_REG_IOMEMORY | ACL_HOST_REG_READONLY |
    ACL_HOST_REG_PINNED;

// What an aclrtMallocConfig asks for. Later attributes of a type override
// earlier ones; RSV entries are ignored.
struct ParsedConfig {
  rt::Memory::MallocOptions options;
  uint32_t va_flag = 0;
};

aclError ParseConfig(const char* api, const aclrtMallocConfig* cfg,
                     ParsedConfig* out) {
  if (cfg == nullptr || cfg->numAttrs == 0) return ACL_SUCCESS;
  if (cfg->attrs == nullptr) {
    return rt::ReportErrorCode(api, ACL_ERROR_INVALID_PARAM,
                               "cfg->attrs must not be NULL when "
                               "cfg->numAttrs is not 0");
  }
  for (size_t i = 0; i < cfg->numAttrs; ++i) {
    const aclrtMallocAttribute& attribute = cfg->attrs[i];
    switch (RawEnum(attribute.attr)) {
      case ACL_RT_MEM_ATTR_RSV:
        break;
      case ACL_RT_MEM_ATTR_MODULE_ID:
        out->options.module_id = attribute.value.moduleId;
        break;
      case ACL_RT_MEM_ATTR_DEVICE_ID:
        out->options.device_id = static_cast<int32_t>(attribute.value.deviceId);
        break;
      case ACL_RT_MEM_ATTR_VA_FLAG:
        if (attribute.value.vaFlag > 1) {
          return rt::ReportErrorCode(
              api, ACL_ERROR_RT_PARAM_INVALID,
              "vaFlag " + std::to_string(attribute.value.vaFlag) +
                  " is neither 0 nor 1");
        }
        out->va_flag = attribute.value.vaFlag;
        break;
      default:
        return InvalidEnum(api, "cfg->attrs[].attr", "aclrtMallocAttrType",
                           RawEnum(attribute.attr), ACL_ERROR_RT_PARAM_INVALID);
    }
  }
  return ACL_SUCCESS;
}

aclError MallocConfigured(const char* api, void** devPtr, size_t size,
                          aclrtMemMallocPolicy policy, aclrtMallocConfig* cfg,
                          rt::DeviceMemoryKind kind) {
  if (devPtr == nullptr) {
    return rt::ReportErrorCode(api, ACL_ERROR_INVALID_PARAM,
                               "devPtr must not be NULL");
  }
  if (size == 0) {
    return rt::ReportErrorCode(api, ACL_ERROR_INVALID_PARAM,
                               "size must be greater than 0");
  }
  ParsedConfig parsed;
  if (aclError bad = ParseConfig(api, cfg, &parsed); bad != ACL_SUCCESS) {
    return bad;
  }
  parsed.options.kind = kind;
  // Any policy integer is accepted: outside the enum the size chooses the
  // page size (the reference's documented behaviour).
  absl::StatusOr<void*> ptr = Memory().MallocWith(
      size, static_cast<uint32_t>(RawEnum(policy)), parsed.options);
  if (!ptr.ok()) return rt::ReportError(api, ptr.status());
  *devPtr = *ptr;
  return ACL_SUCCESS;
}

bool IsAdvise(int32_t raw) {
  return raw >= ACL_MEM_ADVISE_SET_READ_MOSTLY &&
         raw <= ACL_MEM_ADVISE_UNSET_ACCESSED_BY;
}

bool IsRangeAttribute(int32_t raw) {
  return raw >= ACL_MEM_RANGE_ATTRIBUTE_READ_MOSTLY &&
         raw <= ACL_MEM_RANGE_ATTRIBUTE_LAST_PREFETCH_LOCATION_ID;
}

bool IsHacType(int32_t raw) {
  return raw >= ACL_RT_HAC_TYPE_STARS && raw <= ACL_RT_HAC_TYPE_CCU;
}

aclError RegisterHost(const char* api, void* ptr, uint64_t size,
                      uint32_t flags) {
  if ((flags & (ACL_HOST_REG_IOMEMORY | ACL_HOST_REG_READONLY)) != 0) {
    return rt::ReportErrorCode(api, ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
                               "IO-memory and read-only registrations are not "
                               "supported");
  }
  return rt::ReportError(api, Memory().HostRegister(ptr, size, flags));
}

}  // namespace

extern "C" {

aclError aclrtMallocWithCfg(void** devPtr, size_t size,
                            aclrtMemMallocPolicy policy,
                            aclrtMallocConfig* cfg) try {
  ACL_GATE();
  return MallocConfigured(__func__, devPtr, size, policy, cfg,
                          rt::DeviceMemoryKind::kDevice);
}
ACL_ENTRY_CATCH(aclError)

aclError aclrtMallocForTaskScheduler(void** devPtr, size_t size,
                                     aclrtMemMallocPolicy policy,
                                     aclrtMallocConfig* cfg) try {
  ACL_GATE();
  return MallocConfigured(__func__, devPtr, size, policy, cfg,
                          rt::DeviceMemoryKind::kTaskScheduler);
}
ACL_ENTRY_CATCH(aclError)

aclError aclrtMallocHostWithCfg(void** ptr, uint64_t size,
                                aclrtMallocConfig* cfg) try {
  ACL_GATE();
  ACL_REQUIRE_NOT_NULL(ptr);
  if (size == 0) {
    return rt::ReportErrorCode(__func__, ACL_ERROR_INVALID_PARAM,
                               "size must be greater than 0");
  }
  // Module and device are bookkeeping for device memory; a VA flag of 1 asks
  // for what the simulator always gives (a registered range's device address
  // is its host address).
  ParsedConfig parsed;
  if (aclError bad = ParseConfig(__func__, cfg, &parsed); bad != ACL_SUCCESS) {
    return bad;
  }
  ACL_RETURN_VALUE(ptr, Memory().MallocHost(static_cast<size_t>(size)));
}
ACL_ENTRY_CATCH(aclError)

aclError aclrtPointerGetAttributes(const void* ptr,
                                   aclrtPtrAttributes* attributes) try {
  ACL_REQUIRE_NOT_NULL(ptr);
  ACL_REQUIRE_NOT_NULL(attributes);
  ACL_RETURN_VALUE(attributes, Memory().PointerAttributes(ptr));
}
ACL_ENTRY_CATCH(aclError)

aclError aclrtCheckMemType(void** addrList, uint32_t size, uint32_t memType,
                           uint32_t* checkResult, uint32_t reserve) try {
  ACL_REQUIRE_NOT_NULL(addrList);
  ACL_REQUIRE_NOT_NULL(checkResult);
  *checkResult = 0;
  if (reserve != 0) {
    return rt::ReportErrorCode(__func__, ACL_ERROR_RT_PARAM_INVALID,
                               "reserve must be 0");
  }
  absl::StatusOr<bool> match = Memory().CheckMemType(addrList, size, memType);
  if (!match.ok()) return ACL_RESULT(match.status());
  *checkResult = *match ? 1 : 0;
  return ACL_SUCCESS;
}
ACL_ENTRY_CATCH(aclError)

aclError aclrtGetMemUsageInfo(int32_t deviceId, aclrtMemUsageInfo* memUsageInfo,
                              size_t inputNum, size_t* outputNum) try {
  ACL_REQUIRE_NOT_NULL(outputNum);
  *outputNum = 0;
  ACL_REQUIRE_NOT_NULL(memUsageInfo);
  if (inputNum == 0) {
    return rt::ReportErrorCode(__func__, ACL_ERROR_RT_PARAM_INVALID,
                               "inputNum must be greater than 0");
  }
  absl::StatusOr<std::vector<rt::ModuleUsage>> usage =
      Memory().MemUsage(deviceId);
  if (!usage.ok()) return ACL_RESULT(usage.status());
  const size_t n = std::min(inputNum, usage->size());
  for (size_t i = 0; i < n; ++i) {
    aclrtMemUsageInfo& info = memUsageInfo[i];
    std::memset(&info, 0, sizeof info);
    const std::string name = rt::ModuleName((*usage)[i].module_id);
    std::strncpy(info.name, name.c_str(), sizeof info.name - 1);
    info.curMemSize = (*usage)[i].current_bytes;
    info.memPeakSize = (*usage)[i].peak_bytes;
  }
  *outputNum = n;
  return ACL_SUCCESS;
}
ACL_ENTRY_CATCH(aclError)

aclError aclrtMemAllocManaged(void** ptr, uint64_t size, uint32_t flag) try {
  ACL_GATE();
  ACL_REQUIRE_NOT_NULL(ptr);
  if (size == 0 || flag != ACL_RT_MEM_ATTACH_GLOBAL) {
    return rt::ReportErrorCode(
        __func__, ACL_ERROR_INVALID_PARAM,
        size == 0 ? "size must be greater than 0"
                  : "flag must be ACL_RT_MEM_ATTACH_GLOBAL (1)");
  }
  ACL_RETURN_VALUE(ptr, Memory().MallocManaged(size));
}
ACL_ENTRY_CATCH(aclError)

aclError aclrtMemManagedAdvise(const void* const ptr, uint64_t size,
                               aclrtMemManagedAdviseType advise,
                               aclrtMemManagedLocation location) try {
  ACL_GATE();
  ACL_REQUIRE_NOT_NULL(ptr);
  if (size == 0) {
    return rt::ReportErrorCode(__func__, ACL_ERROR_INVALID_PARAM,
                               "size must be greater than 0");
  }
  const int32_t raw_advise = RawEnum(advise);
  if (!IsAdvise(raw_advise)) {
    return InvalidEnum(__func__, "advise", "aclrtMemManagedAdviseType",
                       raw_advise);
  }
  return ACL_RESULT(Memory().ManagedAdvise(ptr, size, advise, location));
}
ACL_ENTRY_CATCH(aclError)

aclError aclrtMemManagedGetAttr(aclrtMemManagedRangeAttribute attribute,
                                const void* ptr, size_t size, void* data,
                                size_t dataSize) try {
  ACL_REQUIRE_NOT_NULL(ptr);
  ACL_REQUIRE_NOT_NULL(data);
  if (size == 0) {
    return rt::ReportErrorCode(__func__, ACL_ERROR_INVALID_PARAM,
                               "size must be greater than 0");
  }
  const int32_t raw = RawEnum(attribute);
  if (!IsRangeAttribute(raw)) {
    return InvalidEnum(__func__, "attribute", "aclrtMemManagedRangeAttribute",
                       raw);
  }
  return ACL_RESULT(
      Memory().ManagedGetAttr(attribute, ptr, size, data, dataSize));
}
ACL_ENTRY_CATCH(aclError)

aclError aclrtMemManagedGetAttrs(aclrtMemManagedRangeAttribute* attributes,
                                 size_t numAttributes, const void* ptr,
                                 size_t size, void** data,
                                 size_t* dataSizes) try {
  ACL_REQUIRE_NOT_NULL(ptr);
  ACL_REQUIRE_NOT_NULL(attributes);
  ACL_REQUIRE_NOT_NULL(data);
  ACL_REQUIRE_NOT_NULL(dataSizes);
  if (size == 0 || numAttributes == 0) {
    return rt::ReportErrorCode(__func__, ACL_ERROR_INVALID_PARAM,
                               size == 0
                                   ? "size must be greater than 0"
                                   : "numAttributes must be greater than 0");
  }
  for (size_t i = 0; i < numAttributes; ++i) {
    const int32_t raw = RawEnum(attributes[i]);
    if (!IsRangeAttribute(raw)) {
      return InvalidEnum(__func__, "attributes[]",
                         "aclrtMemManagedRangeAttribute", raw);
    }
    if (data[i] == nullptr) {
      return rt::ReportErrorCode(__func__, ACL_ERROR_INVALID_PARAM,
                                 "data[] entries must not be NULL");
    }
  }
  for (size_t i = 0; i < numAttributes; ++i) {
    absl::Status status = Memory().ManagedGetAttr(attributes[i], ptr, size,
                                                  data[i], dataSizes[i]);
    if (!status.ok()) return ACL_RESULT(status);
  }
  return ACL_SUCCESS;
}
ACL_ENTRY_CATCH(aclError)

aclError aclrtMemManagedPrefetchAsync(const void* ptr, size_t size,
                                      aclrtMemManagedLocation location,
                                      uint32_t flags, aclrtStream stream) try {
  ACL_GATE();
  ACL_REQUIRE_NOT_NULL(ptr);
  if (size == 0 || flags != 0) {
    return rt::ReportErrorCode(
        __func__, ACL_ERROR_INVALID_PARAM,
        size == 0 ? "size must be greater than 0" : "flags must be 0");
  }
  const size_t start = 0;
  return ACL_RESULT(
      Memory().ManagedPrefetch(&ptr, &size, 1, &location, &start, 1, stream));
}
ACL_ENTRY_CATCH(aclError)

aclError aclrtMemManagedPrefetchBatchAsync(
    const void** ptrs, size_t* sizes, size_t count,
    aclrtMemManagedLocation* prefetchLocs, size_t* prefetchLocIdxs,
    size_t numPrefetchLocs, uint64_t flags, aclrtStream stream) try {
  ACL_GATE();
  ACL_REQUIRE_NOT_NULL(ptrs);
  ACL_REQUIRE_NOT_NULL(sizes);
  ACL_REQUIRE_NOT_NULL(prefetchLocs);
  ACL_REQUIRE_NOT_NULL(prefetchLocIdxs);
  if (count == 0 || numPrefetchLocs == 0 || flags != 0 ||
      count < numPrefetchLocs) {
    return rt::ReportErrorCode(
        __func__, ACL_ERROR_INVALID_PARAM,
        flags != 0 ? "flags must be 0"
                   : "count and numPrefetchLocs must be positive, count at "
                     "least numPrefetchLocs");
  }
  for (size_t i = 0; i < count; ++i) {
    if (ptrs[i] == nullptr) {
      return rt::ReportErrorCode(__func__, ACL_ERROR_INVALID_PARAM,
                                 "ptrs[] entries must not be NULL");
    }
  }
  return ACL_RESULT(Memory().ManagedPrefetch(ptrs, sizes, count, prefetchLocs,
                                             prefetchLocIdxs, numPrefetchLocs,
                                             stream));
}
ACL_ENTRY_CATCH(aclError)

aclError aclrtHostRegister(void* ptr, uint64_t size, aclrtHostRegisterType type,
                           void** devPtr) try {
  ACL_GATE();
  ACL_REQUIRE_NOT_NULL(ptr);
  ACL_REQUIRE_NOT_NULL(devPtr);
  if (size == 0) {
    return rt::ReportErrorCode(__func__, ACL_ERROR_INVALID_PARAM,
                               "size must be greater than 0");
  }
  // The type is a set of bits: MAPPED (0) plus IOMEMORY and READONLY.
  const uint32_t raw_type = static_cast<uint32_t>(RawEnum(type));
  constexpr uint32_t kTypeBits =
      ACL_HOST_REGISTER_IOMEMORY | ACL_HOST_REGISTER_READONLY;
  if ((raw_type & ~kTypeBits) != 0) {
    return rt::ReportErrorCode(__func__, ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
                               "type " + std::to_string(raw_type) +
                                   " is not a combination of the "
                                   "aclrtHostRegisterType values");
  }
  const uint32_t flags =
      ACL_HOST_REG_MAPPED |
      ((raw_type & ACL_HOST_REGISTER_IOMEMORY) ? ACL_HOST_REG_IOMEMORY : 0) |
      ((raw_type & ACL_HOST_REGISTER_READONLY) ? ACL_HOST_REG_READONLY : 0);
  if (aclError code = RegisterHost(__func__, ptr, size, flags);
      code != ACL_SUCCESS) {
    return code;
  }
  *devPtr = ptr;
  return ACL_SUCCESS;
}
ACL_ENTRY_CATCH(aclError)

aclError aclrtHostRegisterV2(void* ptr, uint64_t size, uint32_t flag) try {
  ACL_GATE();
  ACL_REQUIRE_NOT_NULL(ptr);
  if (size == 0) {
    return rt::ReportErrorCode(__func__, ACL_ERROR_INVALID_PARAM,
                               "size must be greater than 0");
  }
  if (flag == 0 || (flag & ~kRegisterV2Flags) != 0) {
    return rt::ReportErrorCode(
        __func__, ACL_ERROR_RT_PARAM_INVALID,
        "flag " + std::to_string(flag) +
            " is not a non-empty combination of the ACL_HOST_REG_* flags");
  }
  return RegisterHost(__func__, ptr, size, flag);
}
ACL_ENTRY_CATCH(aclError)

aclError aclrtHostGetDevicePointer(void* pHost, void** pDevice,
                                   uint32_t flag) try {
  ACL_GATE();
  ACL_REQUIRE_NOT_NULL(pHost);
  ACL_REQUIRE_NOT_NULL(pDevice);
  if (flag != 0) {
    return rt::ReportErrorCode(__func__, ACL_ERROR_INVALID_PARAM,
                               "flag must be 0");
  }
  ACL_RETURN_VALUE(pDevice, Memory().HostDevicePointer(pHost));
}
ACL_ENTRY_CATCH(aclError)

aclError aclrtHostUnregister(void* ptr) try {
  ACL_GATE();
  ACL_REQUIRE_NOT_NULL(ptr);
  return ACL_RESULT(Memory().HostUnregister(ptr));
}
ACL_ENTRY_CATCH(aclError)

aclError aclrtHostMemMapCapabilities(
    uint32_t deviceId, aclrtHacType hacType,
    aclrtHostMemMapCapability* capabilities) try {
  ACL_GATE();
  ACL_REQUIRE_NOT_NULL(capabilities);
  const int32_t raw = RawEnum(hacType);
  if (!IsHacType(raw)) {
    return InvalidEnum(__func__, "hacType", "aclrtHacType", raw);
  }
  if (deviceId >= static_cast<uint32_t>(ascend::acl::DeviceCount())) {
    return rt::ReportErrorCode(
        __func__, ACL_ERROR_RT_INVALID_DEVICEID,
        "device " + std::to_string(deviceId) + " does not exist");
  }
  // Every simulated engine runs on the host and reaches registered host
  // memory at its own address.
  *capabilities = ACL_RT_HOST_MEM_MAP_SUPPORTED;
  return ACL_SUCCESS;
}
ACL_ENTRY_CATCH(aclError)

aclError aclrtGetMemUceInfo(int32_t deviceId, aclrtMemUceInfo* memUceInfoArray,
                            size_t arraySize, size_t* retSize) try {
  ACL_REQUIRE_NOT_NULL(memUceInfoArray);
  ACL_REQUIRE_NOT_NULL(retSize);
  absl::StatusOr<std::vector<ascend::device::Allocation>> errors =
      Memory().MemoryErrors(deviceId);
  if (!errors.ok()) return ACL_RESULT(errors.status());
  const size_t n = std::min(arraySize, errors->size());
  for (size_t i = 0; i < n; ++i) {
    std::memset(&memUceInfoArray[i], 0, sizeof memUceInfoArray[i]);
    memUceInfoArray[i].addr = reinterpret_cast<void*>((*errors)[i].addr);
    memUceInfoArray[i].len = static_cast<size_t>((*errors)[i].size);
  }
  *retSize = n;
  return ACL_SUCCESS;
}
ACL_ENTRY_CATCH(aclError)

aclError aclrtMemUceRepair(int32_t deviceId, aclrtMemUceInfo* memUceInfoArray,
                           size_t arraySize) try {
  ACL_GATE();
  ACL_REQUIRE_NOT_NULL(memUceInfoArray);
  if (arraySize == 0) {
    return rt::ReportErrorCode(__func__, ACL_ERROR_INVALID_PARAM,
                               "arraySize must be greater than 0");
  }
  std::vector<ascend::device::Allocation> ranges;
  for (size_t i = 0; i < arraySize; ++i) {
    ranges.push_back({reinterpret_cast<uint64_t>(memUceInfoArray[i].addr),
                      memUceInfoArray[i].len});
  }
  return ACL_RESULT(Memory().RepairMemoryErrors(deviceId, ranges));
}
ACL_ENTRY_CATCH(aclError)

aclError aclrtRepairError(int32_t deviceId,
                          const aclrtErrorInfo* errorInfo) try {
  ACL_GATE();
  ACL_REQUIRE_NOT_NULL(errorInfo);
  const int32_t type = RawEnum(errorInfo->errorType);
  if (type == ACL_RT_NO_ERROR) {
    absl::StatusOr<bool> abnormal =
        Fam<ascend::rt::DeviceInfo>().DeviceAbnormal(deviceId);
    return abnormal.ok() ? ACL_SUCCESS : ACL_RESULT(abnormal.status());
  }
  if (type != ACL_RT_ERROR_MEMORY) {
    return rt::ReportErrorCode(__func__, ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
                               "only memory errors can be repaired here");
  }
  std::vector<ascend::device::Allocation> ranges;
  if (errorInfo->hasDetail) {
    const aclrtMemUceInfoArray& detail = errorInfo->detail.uceInfo;
    if (detail.arraySize == 0 ||
        detail.arraySize > ACL_RT_MEM_UCE_INFO_MAX_NUM) {
      return rt::ReportErrorCode(
          __func__, ACL_ERROR_INVALID_PARAM,
          "detail.uceInfo.arraySize must be in [1, " +
              std::to_string(ACL_RT_MEM_UCE_INFO_MAX_NUM) + "]");
    }
    for (size_t i = 0; i < detail.arraySize; ++i) {
      ranges.push_back(
          {reinterpret_cast<uint64_t>(detail.memUceInfoArray[i].addr),
           detail.memUceInfoArray[i].len});
    }
  } else {
    // No detail: every error the device has now.
    absl::StatusOr<std::vector<ascend::device::Allocation>> errors =
        Memory().MemoryErrors(deviceId);
    if (!errors.ok()) return ACL_RESULT(errors.status());
    ranges = *std::move(errors);
    if (ranges.empty()) return ACL_SUCCESS;
  }
  return ACL_RESULT(Memory().RepairMemoryErrors(deviceId, ranges));
}
ACL_ENTRY_CATCH(aclError)

}  // extern "C"
