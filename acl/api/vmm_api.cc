// ACL entry points of virtual memory management (runtime/memory/vmm.h;
// DESIGN.md §5.17): physical memory, reservations, mappings, access rights.
#include <unistd.h>

#include <cstdint>
#include <cstdio>
#include <cstring>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "acl/acl_rt.h"
#include "acl/api/api_util.h"
#include "runtime/base/error.h"
#include "runtime/global_state.h"
#include "runtime/memory/memory.h"
#include "runtime/memory/vmm.h"
#include "runtime/runtime.h"

namespace {

using ascend::acl::InvalidEnum;
using ascend::acl::RawEnum;

// The process runtime always has the memory family (runtime/process).
ascend::rt::Memory& Memory() { return ascend::acl::Fam<ascend::rt::Memory>(); }

aclError BadFlags(const char* api, uint64_t flags) {
  return ascend::rt::ReportErrorCode(
      api, ACL_ERROR_INVALID_PARAM,
      absl::StrCat("flags ", flags, " is reserved and must be 0"));
}

aclError BadExportFlags(const char* api, uint64_t flags) {
  return ascend::rt::ReportErrorCode(
      api, ACL_ERROR_INVALID_PARAM,
      absl::StrCat("flags ", flags, " is not one of the documented values"));
}

aclError NoPids(const char* api) {
  return ascend::rt::ReportErrorCode(api, ACL_ERROR_INVALID_PARAM,
                                     "the pid count must not be 0");
}

// A key as CANN's callers pass it: a NUL-terminated string of at most
// kIpcKeyLength bytes.
constexpr size_t kIpcKeyLength = 65;
std::string KeyOf(const char* key) {
  return std::string(key, strnlen(key, kIpcKeyLength));
}

// Shareable handles of the default type work within this machine; fabric
// handles cross servers, which a simulator on one host cannot.
#define ACL_CHECK_SHARE_TYPE(share_type)                                    \
  do {                                                                      \
    const int32_t acl_share_raw_ = RawEnum(share_type);                     \
    if (acl_share_raw_ == ACL_MEM_SHARE_HANDLE_TYPE_FABRIC) {               \
      return ascend::acl::NotSupported(__func__);                           \
    }                                                                       \
    if (acl_share_raw_ != ACL_MEM_SHARE_HANDLE_TYPE_DEFAULT) {              \
      return InvalidEnum(__func__, "shareType", "aclrtMemSharedHandleType", \
                         acl_share_raw_);                                   \
    }                                                                       \
  } while (false)

}  // namespace

extern "C" {

aclError aclrtMemGetAllocationGranularity(aclrtPhysicalMemProp* prop,
                                          aclrtMemGranularityOptions option,
                                          size_t* granularity) try {
  ACL_REQUIRE_NOT_NULL(prop);
  ACL_REQUIRE_NOT_NULL(granularity);
  const int32_t raw = RawEnum(option);
  if (raw != ACL_RT_MEM_ALLOC_GRANULARITY_MINIMUM &&
      raw != ACL_RT_MEM_ALLOC_GRANULARITY_RECOMMENDED) {
    return InvalidEnum(__func__, "option", "aclrtMemGranularityOptions", raw);
  }
  ACL_RETURN_VALUE(granularity,
                   Memory().vmm().Granularity(
                       *prop, raw == ACL_RT_MEM_ALLOC_GRANULARITY_RECOMMENDED));
}
ACL_ENTRY_CATCH(aclError)

aclError aclrtMallocPhysical(aclrtDrvMemHandle* handle, size_t size,
                             const aclrtPhysicalMemProp* prop,
                             uint64_t flags) try {
  ACL_GATE();
  ACL_REQUIRE_NOT_NULL(handle);
  ACL_REQUIRE_NOT_NULL(prop);
  if (flags != 0) return BadFlags(__func__, flags);
  ACL_RETURN_VALUE(handle, Memory().vmm().MallocPhysical(size, *prop));
}
ACL_ENTRY_CATCH(aclError)

aclError aclrtFreePhysical(aclrtDrvMemHandle handle) try {
  ACL_GATE();
  ACL_REQUIRE_NOT_NULL(handle);
  return ACL_RESULT(Memory().vmm().FreePhysical(handle));
}
ACL_ENTRY_CATCH(aclError)

aclError aclrtReserveMemAddress(void** virPtr, size_t size, size_t alignment,
                                void* expectPtr, uint64_t flags) try {
  ACL_GATE();
  ACL_REQUIRE_NOT_NULL(virPtr);
  if (alignment != 0) {
    return ascend::rt::ReportErrorCode(__func__, ACL_ERROR_INVALID_PARAM,
                                       "alignment is reserved and must be 0");
  }
  ACL_RETURN_VALUE(virPtr, Memory().vmm().Reserve(size, expectPtr, flags));
}
ACL_ENTRY_CATCH(aclError)

aclError aclrtReleaseMemAddress(void* virPtr) try {
  ACL_GATE();
  ACL_REQUIRE_NOT_NULL(virPtr);
  return ACL_RESULT(Memory().vmm().Release(virPtr));
}
ACL_ENTRY_CATCH(aclError)

aclError aclrtMapMem(void* virPtr, size_t size, size_t offset,
                     aclrtDrvMemHandle handle, uint64_t flags) try {
  ACL_GATE();
  ACL_REQUIRE_NOT_NULL(virPtr);
  ACL_REQUIRE_NOT_NULL(handle);
  if (flags != 0) return BadFlags(__func__, flags);
  return ACL_RESULT(Memory().vmm().Map(virPtr, size, offset, handle));
}
ACL_ENTRY_CATCH(aclError)

aclError aclrtMemMapNoAccess(void* virPtr, size_t size, size_t offset,
                             aclrtDrvMemHandle handle, uint64_t flags) try {
  ACL_GATE();
  ACL_REQUIRE_NOT_NULL(virPtr);
  ACL_REQUIRE_NOT_NULL(handle);
  if (flags != 0) return BadFlags(__func__, flags);
  return ACL_RESULT(Memory().vmm().Map(virPtr, size, offset, handle,
                                       ACL_RT_MEM_ACCESS_FLAGS_NONE));
}
ACL_ENTRY_CATCH(aclError)

aclError aclrtUnmapMem(void* virPtr) try {
  ACL_GATE();
  ACL_REQUIRE_NOT_NULL(virPtr);
  return ACL_RESULT(Memory().vmm().Unmap(virPtr));
}
ACL_ENTRY_CATCH(aclError)

aclError aclrtMemSetAccess(void* virPtr, size_t size, aclrtMemAccessDesc* desc,
                           size_t count) try {
  ACL_GATE();
  ACL_REQUIRE_NOT_NULL(virPtr);
  ACL_REQUIRE_NOT_NULL(desc);
  if (count == 0) {
    return ascend::rt::ReportErrorCode(__func__, ACL_ERROR_INVALID_PARAM,
                                       "count must not be 0");
  }
  std::vector<aclrtMemAccessDesc> descs(desc, desc + count);
  return ACL_RESULT(Memory().vmm().SetAccess(virPtr, size, descs));
}
ACL_ENTRY_CATCH(aclError)

aclError aclrtMemGetAccess(void* virPtr, aclrtMemLocation* location,
                           uint64_t* flag) try {
  ACL_REQUIRE_NOT_NULL(virPtr);
  ACL_REQUIRE_NOT_NULL(location);
  ACL_REQUIRE_NOT_NULL(flag);
  ACL_RETURN_VALUE(flag, Memory().vmm().GetAccess(virPtr, *location));
}
ACL_ENTRY_CATCH(aclError)

aclError aclrtMemRetainAllocationHandle(void* virPtr,
                                        aclrtDrvMemHandle* handle) try {
  ACL_GATE();
  ACL_REQUIRE_NOT_NULL(virPtr);
  ACL_REQUIRE_NOT_NULL(handle);
  ACL_RETURN_VALUE(handle, Memory().vmm().Retain(virPtr));
}
ACL_ENTRY_CATCH(aclError)

aclError aclrtMemGetAllocationPropertiesFromHandle(
    aclrtDrvMemHandle handle, aclrtPhysicalMemProp* prop) try {
  ACL_REQUIRE_NOT_NULL(handle);
  ACL_REQUIRE_NOT_NULL(prop);
  ACL_RETURN_VALUE(prop, Memory().vmm().Properties(handle));
}
ACL_ENTRY_CATCH(aclError)

aclError aclrtMemGetAddressRange(void* ptr, void** pbase, size_t* psize) try {
  ACL_REQUIRE_NOT_NULL(ptr);
  if (pbase == nullptr && psize == nullptr) {
    return ascend::rt::ReportErrorCode(__func__, ACL_ERROR_INVALID_PARAM,
                                       "pbase and psize are both NULL");
  }
  auto range = Memory().vmm().MappingRange(ptr);
  if (!range.has_value()) {
    absl::StatusOr<std::pair<void*, uint64_t>> allocation =
        Memory().AllocationRange(ptr);
    if (!allocation.ok()) return ACL_RESULT(allocation.status());
    range = *allocation;
  }
  if (pbase != nullptr) *pbase = range->first;
  if (psize != nullptr) *psize = range->second;
  return ACL_SUCCESS;
}
ACL_ENTRY_CATCH(aclError)

aclError aclrtMemP2PMap(void* devPtr, size_t size, int32_t dstDevId,
                        uint64_t flags) try {
  ACL_GATE();
  ACL_REQUIRE_NOT_NULL(devPtr);
  if (flags != 0) return BadFlags(__func__, flags);
  return ACL_RESULT(Memory().PrepareP2PMap(devPtr, size, dstDevId));
}
ACL_ENTRY_CATCH(aclError)

// --- Sharing between processes ----------------------------------------------

aclError aclrtDeviceGetBareTgid(int32_t* pid) try {
  ACL_REQUIRE_NOT_NULL(pid);
  // No container translation on the simulator: the process's own pid is
  // what another process on this host whitelists.
  *pid = static_cast<int32_t>(getpid());
  return ACL_SUCCESS;
}
ACL_ENTRY_CATCH(aclError)

aclError aclrtMemExportToShareableHandle(aclrtDrvMemHandle handle,
                                         aclrtMemHandleType handleType,
                                         uint64_t flags,
                                         uint64_t* shareableHandle) try {
  ACL_GATE();
  ACL_REQUIRE_NOT_NULL(handle);
  ACL_REQUIRE_NOT_NULL(shareableHandle);
  const int32_t raw = RawEnum(handleType);
  if (raw != ACL_MEM_HANDLE_TYPE_NONE && raw != ACL_MEM_HANDLE_TYPE_POSIX) {
    return InvalidEnum(__func__, "handleType", "aclrtMemHandleType", raw);
  }
  if (flags > ACL_RT_VMM_EXPORT_FLAG_DISABLE_PID_VALIDATION) {
    return BadExportFlags(__func__, flags);
  }
  ACL_RETURN_VALUE(
      shareableHandle,
      Memory().vmm().ExportPhysical(
          handle, flags != ACL_RT_VMM_EXPORT_FLAG_DISABLE_PID_VALIDATION));
}
ACL_ENTRY_CATCH(aclError)

aclError aclrtMemExportToShareableHandleV2(aclrtDrvMemHandle handle,
                                           uint64_t flags,
                                           aclrtMemSharedHandleType shareType,
                                           void* shareableHandle) try {
  ACL_GATE();
  ACL_REQUIRE_NOT_NULL(handle);
  ACL_REQUIRE_NOT_NULL(shareableHandle);
  ACL_CHECK_SHARE_TYPE(shareType);
  if (flags > ACL_RT_VMM_EXPORT_FLAG_DISABLE_PID_VALIDATION) {
    return BadExportFlags(__func__, flags);
  }
  ACL_RETURN_VALUE(
      static_cast<uint64_t*>(shareableHandle),
      Memory().vmm().ExportPhysical(
          handle, flags != ACL_RT_VMM_EXPORT_FLAG_DISABLE_PID_VALIDATION));
}
ACL_ENTRY_CATCH(aclError)

aclError aclrtMemSetPidToShareableHandle(uint64_t shareableHandle, int32_t* pid,
                                         size_t pidNum) try {
  ACL_GATE();
  ACL_REQUIRE_NOT_NULL(pid);
  if (pidNum == 0) return NoPids(__func__);
  return ACL_RESULT(Memory().vmm().AllowShareablePids(
      shareableHandle, std::vector<int32_t>(pid, pid + pidNum)));
}
ACL_ENTRY_CATCH(aclError)

aclError aclrtMemSetPidToShareableHandleV2(void* shareableHandle,
                                           aclrtMemSharedHandleType shareType,
                                           int32_t* pid, size_t pidNum) try {
  ACL_GATE();
  ACL_REQUIRE_NOT_NULL(shareableHandle);
  ACL_REQUIRE_NOT_NULL(pid);
  ACL_CHECK_SHARE_TYPE(shareType);
  if (pidNum == 0) return NoPids(__func__);
  uint64_t value = 0;
  std::memcpy(&value, shareableHandle, sizeof value);
  return ACL_RESULT(Memory().vmm().AllowShareablePids(
      value, std::vector<int32_t>(pid, pid + pidNum)));
}
ACL_ENTRY_CATCH(aclError)

aclError aclrtMemImportFromShareableHandle(uint64_t shareableHandle,
                                           int32_t deviceId,
                                           aclrtDrvMemHandle* handle) try {
  ACL_GATE();
  ACL_REQUIRE_NOT_NULL(handle);
  ACL_RETURN_VALUE(handle,
                   Memory().vmm().ImportPhysical(shareableHandle, deviceId));
}
ACL_ENTRY_CATCH(aclError)

aclError aclrtMemImportFromShareableHandleV2(void* shareableHandle,
                                             aclrtMemSharedHandleType shareType,
                                             uint64_t flags,
                                             aclrtDrvMemHandle* handle) try {
  ACL_GATE();
  ACL_REQUIRE_NOT_NULL(shareableHandle);
  ACL_REQUIRE_NOT_NULL(handle);
  ACL_CHECK_SHARE_TYPE(shareType);
  if (flags != 0) return BadFlags(__func__, flags);
  uint64_t value = 0;
  std::memcpy(&value, shareableHandle, sizeof value);
  // The handle goes to the current device, as the V1 call's deviceId names.
  absl::StatusOr<int32_t> device = ascend::acl::CurrentDeviceId();
  if (!device.ok()) return ACL_RESULT(device.status());
  ACL_RETURN_VALUE(handle, Memory().vmm().ImportPhysical(value, *device));
}
ACL_ENTRY_CATCH(aclError)

aclError aclrtIpcMemGetExportKey(void* devPtr, size_t size, char* key,
                                 size_t len, uint64_t flags) try {
  ACL_GATE();
  ACL_REQUIRE_NOT_NULL(devPtr);
  ACL_REQUIRE_NOT_NULL(key);
  if (len < kIpcKeyLength) {
    return ascend::rt::ReportErrorCode(
        __func__, ACL_ERROR_INVALID_PARAM,
        absl::StrCat("len ", len, " is below the key length ", kIpcKeyLength));
  }
  if (flags > ACL_RT_IPC_MEM_EXPORT_FLAG_DISABLE_PID_VALIDATION) {
    return BadExportFlags(__func__, flags);
  }
  absl::StatusOr<std::string> exported = Memory().vmm().IpcExport(
      devPtr, size, flags != ACL_RT_IPC_MEM_EXPORT_FLAG_DISABLE_PID_VALIDATION);
  if (!exported.ok()) return ACL_RESULT(exported.status());
  std::snprintf(key, kIpcKeyLength, "%s", exported->c_str());
  return ACL_SUCCESS;
}
ACL_ENTRY_CATCH(aclError)

aclError aclrtIpcMemSetImportPid(const char* key, int32_t* pid,
                                 size_t num) try {
  ACL_GATE();
  ACL_REQUIRE_NOT_NULL(key);
  ACL_REQUIRE_NOT_NULL(pid);
  if (num == 0) return NoPids(__func__);
  return ACL_RESULT(Memory().vmm().IpcAllowPids(
      KeyOf(key), std::vector<int32_t>(pid, pid + num)));
}
ACL_ENTRY_CATCH(aclError)

aclError aclrtIpcMemSetAttr(const char* key, aclrtIpcMemAttrType type,
                            uint64_t attr) try {
  ACL_GATE();
  ACL_REQUIRE_NOT_NULL(key);
  const int32_t raw = RawEnum(type);
  if (raw != ACL_RT_IPC_MEM_ATTR_ACCESS_LINK) {
    return InvalidEnum(__func__, "type", "aclrtIpcMemAttrType", raw);
  }
  if (attr != ACL_RT_IPC_MEM_ATTR_ACCESS_LINK_SIO &&
      attr != ACL_RT_IPC_MEM_ATTR_ACCESS_LINK_HCCS) {
    return ascend::rt::ReportErrorCode(
        __func__, ACL_ERROR_INVALID_PARAM,
        absl::StrCat("attr ", attr, " is not an access link (SIO 0, HCCS 1)"));
  }
  return ACL_RESULT(Memory().vmm().IpcSetAttr(KeyOf(key), attr));
}
ACL_ENTRY_CATCH(aclError)

aclError aclrtIpcMemImportByKey(void** devPtr, const char* key,
                                uint64_t flags) try {
  ACL_GATE();
  ACL_REQUIRE_NOT_NULL(devPtr);
  ACL_REQUIRE_NOT_NULL(key);
  if (flags > ACL_RT_IPC_MEM_IMPORT_FLAG_ENABLE_PEER_ACCESS) {
    return BadExportFlags(__func__, flags);
  }
  ACL_RETURN_VALUE(devPtr, Memory().vmm().IpcImport(KeyOf(key)));
}
ACL_ENTRY_CATCH(aclError)

aclError aclrtIpcMemClose(const char* key) try {
  ACL_GATE();
  ACL_REQUIRE_NOT_NULL(key);
  return ACL_RESULT(Memory().vmm().IpcClose(KeyOf(key)));
}
ACL_ENTRY_CATCH(aclError)

}  // extern "C"
