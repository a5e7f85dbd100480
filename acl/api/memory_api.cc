// ACL entry points: device and host memory, copies, fills, value wait/write.
#include "acl/acl_rt.h"
#include "acl/api/api_util.h"
#include "runtime/memory/memory.h"

using ascend::acl::InvalidEnum;
using ascend::acl::RawEnum;

namespace {

// The process runtime always has the memory family (runtime/process).
ascend::rt::Memory& Memory() { return ascend::acl::Fam<ascend::rt::Memory>(); }

bool IsMemcpyKind(int32_t raw) {
  return raw >= ACL_MEMCPY_HOST_TO_HOST &&
         raw <= ACL_MEMCPY_INTER_DEVICE_TO_DEVICE;
}

bool IsMemAttr(int32_t raw) {
  return raw >= ACL_DDR_MEM && raw <= ACL_MEM_P2P_HUGE1G;
}

}  // namespace

extern "C" {

aclError aclrtMalloc(void** devPtr, size_t size,
                     aclrtMemMallocPolicy policy) try {
  ACL_GATE();
  ACL_REQUIRE_NOT_NULL(devPtr);
  // Any policy value is accepted: one outside the enumeration, or several
  // or-ed together, chooses by size (11-01, aclrtMalloc `policy`). Read as
  // an integer: loading an out-of-range enum is undefined (DESIGN.md §2.4).
  ACL_RETURN_VALUE(
      devPtr, Memory().MallocWith(size, static_cast<uint32_t>(RawEnum(policy)),
                                  ascend::rt::Memory::MallocOptions{}));
}
ACL_ENTRY_CATCH(aclError)

aclError aclrtFree(void* devPtr) try {
  ACL_GATE();
  ACL_REQUIRE_NOT_NULL(devPtr);
  return ACL_RESULT(Memory().Free(devPtr));
}
ACL_ENTRY_CATCH(aclError)

aclError aclrtMallocHost(void** hostPtr, size_t size) try {
  ACL_GATE();
  ACL_REQUIRE_NOT_NULL(hostPtr);
  ACL_RETURN_VALUE(hostPtr, Memory().MallocHost(size));
}
ACL_ENTRY_CATCH(aclError)

aclError aclrtFreeHost(void* hostPtr) try {
  ACL_GATE();
  ACL_REQUIRE_NOT_NULL(hostPtr);
  return ACL_RESULT(Memory().FreeHost(hostPtr));
}
ACL_ENTRY_CATCH(aclError)

aclError aclrtGetMemInfo(aclrtMemAttr attr, size_t* free, size_t* total) try {
  ACL_REQUIRE_NOT_NULL(free);
  ACL_REQUIRE_NOT_NULL(total);
  const int32_t raw_attr = RawEnum(attr);
  if (!IsMemAttr(raw_attr)) {
    return InvalidEnum(__func__, "attr", "aclrtMemAttr", raw_attr);
  }
  absl::StatusOr<ascend::device::MemoryInfo> info = Memory().GetMemInfo(attr);
  if (!info.ok()) return ACL_RESULT(info.status());
  *free = static_cast<size_t>(info->free_bytes);
  *total = static_cast<size_t>(info->total_bytes);
  return ACL_SUCCESS;
}
ACL_ENTRY_CATCH(aclError)

aclError aclrtMemcpy(void* dst, size_t destMax, const void* src, size_t count,
                     aclrtMemcpyKind kind) try {
  // Zero-length copies return at once, without blocking (as the reference).
  if (count == 0) return ACL_SUCCESS;
  ACL_GATE();
  const int32_t raw_kind = RawEnum(kind);
  if (!IsMemcpyKind(raw_kind)) {
    return InvalidEnum(__func__, "kind", "aclrtMemcpyKind", raw_kind);
  }
  return ACL_RESULT(Memory().Memcpy(dst, destMax, src, count, kind));
}
ACL_ENTRY_CATCH(aclError)

aclError aclrtMemcpyAsync(void* dst, size_t destMax, const void* src,
                          size_t count, aclrtMemcpyKind kind,
                          aclrtStream stream) try {
  if (count == 0) return ACL_SUCCESS;
  ACL_GATE();
  const int32_t raw_kind = RawEnum(kind);
  if (!IsMemcpyKind(raw_kind)) {
    return InvalidEnum(__func__, "kind", "aclrtMemcpyKind", raw_kind);
  }
  return ACL_RESULT(
      Memory().MemcpyAsync(dst, destMax, src, count, kind, stream));
}
ACL_ENTRY_CATCH(aclError)

aclError aclrtMemset(void* devPtr, size_t maxCount, int32_t value,
                     size_t count) try {
  if (count == 0) return ACL_SUCCESS;
  ACL_GATE();
  return ACL_RESULT(Memory().Memset(devPtr, maxCount, value, count));
}
ACL_ENTRY_CATCH(aclError)

aclError aclrtMemsetAsync(void* devPtr, size_t maxCount, int32_t value,
                          size_t count, aclrtStream stream) try {
  if (count == 0) return ACL_SUCCESS;
  ACL_GATE();
  return ACL_RESULT(
      Memory().MemsetAsync(devPtr, maxCount, value, count, stream));
}
ACL_ENTRY_CATCH(aclError)

aclError aclrtValueWait(void* devAddr, uint64_t value, uint32_t flag,
                        aclrtStream stream) try {
  ACL_GATE();
  ACL_REQUIRE_NOT_NULL(devAddr);
  return ACL_RESULT(Memory().ValueWait(devAddr, value, flag, stream));
}
ACL_ENTRY_CATCH(aclError)

aclError aclrtValueWrite(void* devAddr, uint64_t value, uint32_t flag,
                         aclrtStream stream) try {
  ACL_GATE();
  ACL_REQUIRE_NOT_NULL(devAddr);
  return ACL_RESULT(Memory().ValueWrite(devAddr, value, flag, stream));
}
ACL_ENTRY_CATCH(aclError)

}  // extern "C"
