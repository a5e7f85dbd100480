// ACL entry points of virtual memory management (runtime/vmm.h; DESIGN.md
// §5.17): physical memory, reservations, mappings, access rights.
#include <cstdint>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "acl/acl_rt.h"
#include "acl/api/api_util.h"
#include "runtime/base/error.h"
#include "runtime/global_state.h"
#include "runtime/runtime.h"
#include "runtime/vmm.h"

namespace {

using ascend::acl::InvalidEnum;
using ascend::acl::RawEnum;
using ascend::acl::Runtime;

aclError BadFlags(const char* api, uint64_t flags) {
  return ascend::rt::ReportErrorCode(
      api, ACL_ERROR_INVALID_PARAM,
      absl::StrCat("flags ", flags, " is reserved and must be 0"));
}

}  // namespace

extern "C" {

aclError aclrtMemGetAllocationGranularity(aclrtPhysicalMemProp* prop,
                                          aclrtMemGranularityOptions option,
                                          size_t* granularity) {
  ACL_REQUIRE_NOT_NULL(prop);
  ACL_REQUIRE_NOT_NULL(granularity);
  const int32_t raw = RawEnum(option);
  if (raw != ACL_RT_MEM_ALLOC_GRANULARITY_MINIMUM &&
      raw != ACL_RT_MEM_ALLOC_GRANULARITY_RECOMMENDED) {
    return InvalidEnum(__func__, "option", "aclrtMemGranularityOptions", raw);
  }
  ACL_RETURN_VALUE(granularity,
                   Runtime().vmm().Granularity(
                       *prop, raw == ACL_RT_MEM_ALLOC_GRANULARITY_RECOMMENDED));
}

aclError aclrtMallocPhysical(aclrtDrvMemHandle* handle, size_t size,
                             const aclrtPhysicalMemProp* prop, uint64_t flags) {
  ACL_GATE();
  ACL_REQUIRE_NOT_NULL(handle);
  ACL_REQUIRE_NOT_NULL(prop);
  if (flags != 0) return BadFlags(__func__, flags);
  ACL_RETURN_VALUE(handle, Runtime().vmm().MallocPhysical(size, *prop));
}

aclError aclrtFreePhysical(aclrtDrvMemHandle handle) {
  ACL_GATE();
  ACL_REQUIRE_NOT_NULL(handle);
  return ACL_RESULT(Runtime().vmm().FreePhysical(handle));
}

aclError aclrtReserveMemAddress(void** virPtr, size_t size, size_t alignment,
                                void* expectPtr, uint64_t flags) {
  ACL_GATE();
  ACL_REQUIRE_NOT_NULL(virPtr);
  if (alignment != 0) {
    return ascend::rt::ReportErrorCode(__func__, ACL_ERROR_INVALID_PARAM,
                                       "alignment is reserved and must be 0");
  }
  ACL_RETURN_VALUE(virPtr, Runtime().vmm().Reserve(size, expectPtr, flags));
}

aclError aclrtReleaseMemAddress(void* virPtr) {
  ACL_GATE();
  ACL_REQUIRE_NOT_NULL(virPtr);
  return ACL_RESULT(Runtime().vmm().Release(virPtr));
}

aclError aclrtMapMem(void* virPtr, size_t size, size_t offset,
                     aclrtDrvMemHandle handle, uint64_t flags) {
  ACL_GATE();
  ACL_REQUIRE_NOT_NULL(virPtr);
  ACL_REQUIRE_NOT_NULL(handle);
  if (flags != 0) return BadFlags(__func__, flags);
  return ACL_RESULT(Runtime().vmm().Map(virPtr, size, offset, handle));
}

aclError aclrtMemMapNoAccess(void* virPtr, size_t size, size_t offset,
                             aclrtDrvMemHandle handle, uint64_t flags) {
  ACL_GATE();
  ACL_REQUIRE_NOT_NULL(virPtr);
  ACL_REQUIRE_NOT_NULL(handle);
  if (flags != 0) return BadFlags(__func__, flags);
  return ACL_RESULT(Runtime().vmm().Map(virPtr, size, offset, handle,
                                        ACL_RT_MEM_ACCESS_FLAGS_NONE));
}

aclError aclrtUnmapMem(void* virPtr) {
  ACL_GATE();
  ACL_REQUIRE_NOT_NULL(virPtr);
  return ACL_RESULT(Runtime().vmm().Unmap(virPtr));
}

aclError aclrtMemSetAccess(void* virPtr, size_t size, aclrtMemAccessDesc* desc,
                           size_t count) {
  ACL_GATE();
  ACL_REQUIRE_NOT_NULL(virPtr);
  ACL_REQUIRE_NOT_NULL(desc);
  if (count == 0) {
    return ascend::rt::ReportErrorCode(__func__, ACL_ERROR_INVALID_PARAM,
                                       "count must not be 0");
  }
  std::vector<aclrtMemAccessDesc> descs(desc, desc + count);
  return ACL_RESULT(Runtime().vmm().SetAccess(virPtr, size, descs));
}

aclError aclrtMemGetAccess(void* virPtr, aclrtMemLocation* location,
                           uint64_t* flag) {
  ACL_REQUIRE_NOT_NULL(virPtr);
  ACL_REQUIRE_NOT_NULL(location);
  ACL_REQUIRE_NOT_NULL(flag);
  ACL_RETURN_VALUE(flag, Runtime().vmm().GetAccess(virPtr, *location));
}

aclError aclrtMemRetainAllocationHandle(void* virPtr,
                                        aclrtDrvMemHandle* handle) {
  ACL_GATE();
  ACL_REQUIRE_NOT_NULL(virPtr);
  ACL_REQUIRE_NOT_NULL(handle);
  ACL_RETURN_VALUE(handle, Runtime().vmm().Retain(virPtr));
}

aclError aclrtMemGetAllocationPropertiesFromHandle(aclrtDrvMemHandle handle,
                                                   aclrtPhysicalMemProp* prop) {
  ACL_REQUIRE_NOT_NULL(handle);
  ACL_REQUIRE_NOT_NULL(prop);
  ACL_RETURN_VALUE(prop, Runtime().vmm().Properties(handle));
}

aclError aclrtMemGetAddressRange(void* ptr, void** pbase, size_t* psize) {
  ACL_REQUIRE_NOT_NULL(ptr);
  if (pbase == nullptr && psize == nullptr) {
    return ascend::rt::ReportErrorCode(__func__, ACL_ERROR_INVALID_PARAM,
                                       "pbase and psize are both NULL");
  }
  auto range = Runtime().vmm().MappingRange(ptr);
  if (!range.has_value()) {
    absl::StatusOr<std::pair<void*, uint64_t>> allocation =
        Runtime().AllocationRange(ptr);
    if (!allocation.ok()) return ACL_RESULT(allocation.status());
    range = *allocation;
  }
  if (pbase != nullptr) *pbase = range->first;
  if (psize != nullptr) *psize = range->second;
  return ACL_SUCCESS;
}

aclError aclrtMemP2PMap(void* devPtr, size_t size, int32_t dstDevId,
                        uint64_t flags) {
  ACL_GATE();
  ACL_REQUIRE_NOT_NULL(devPtr);
  if (flags != 0) return BadFlags(__func__, flags);
  return ACL_RESULT(Runtime().PrepareP2PMap(devPtr, size, dstDevId));
}

}  // extern "C"
