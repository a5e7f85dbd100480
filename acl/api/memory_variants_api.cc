// ACL entry points: variants of aclrtMalloc / aclrtFree that the simulator
// serves with the same allocator (aligned and cached allocation, frees that
// first wait for the device).
#include <cstddef>
#include <cstdint>

#include "absl/time/time.h"
#include "acl/acl_rt.h"
#include "acl/api/api_util.h"
#include "runtime/memory/memory.h"
#include "runtime/streams/streams.h"

namespace {

// 11-01, aclrtMallocCached: `policy` is one item of aclrtMemMallocPolicy,
// never several or-ed, and only HUGE_FIRST, HUGE_ONLY, NORMAL_ONLY or
// HUGE1G_ONLY (constraints); a value outside the enumeration chooses by size
// (the parameter table), as aclrtMalloc's does.
bool CachedPolicyAccepted(int32_t raw) {
  switch (raw) {
    case ACL_MEM_MALLOC_HUGE_FIRST:
    case ACL_MEM_MALLOC_HUGE_ONLY:
    case ACL_MEM_MALLOC_NORMAL_ONLY:
    case ACL_MEM_MALLOC_HUGE1G_ONLY:
      return true;
    default:
      break;
  }
  // Every bit an item of the enumeration may set: the page policies (0-7)
  // and the memory type and access flags.
  constexpr uint32_t kItemBits = 0x7u | ACL_MEM_TYPE_LOW_BAND_WIDTH |
                                 ACL_MEM_TYPE_HIGH_BAND_WIDTH |
                                 ACL_MEM_ACCESS_USER_SPACE_READONLY;
  // Other items (the P2P policies, the type and access flags) and or-ed
  // items are refused; anything with a bit no item has is outside the
  // enumeration.
  return (static_cast<uint32_t>(raw) & ~kItemBits) != 0;
}

// aclrtMalloc for the variants, with the policy as the integer the caller
// passed: handing an out-of-range enum on by value would load it, which is
// undefined (DESIGN.md §2.4). Failures are reported under `api`.
aclError MallocRawPolicy(const char* api, void** devPtr, size_t size,
                         int32_t raw_policy) {
  ascend::rt::ProcessApiScope gate;
  if (gate.refused()) {
    return ascend::rt::ReportError(api, ascend::rt::GateRefusal());
  }
  if (devPtr == nullptr) {
    return ascend::rt::ReportErrorCode(api, ACL_ERROR_INVALID_PARAM,
                                       "devPtr must not be NULL");
  }
  absl::StatusOr<void*> ptr = ascend::acl::Fam<ascend::rt::Memory>().MallocWith(
      size, static_cast<uint32_t>(raw_policy),
      ascend::rt::Memory::MallocOptions{});
  if (!ptr.ok()) return ascend::rt::ReportError(api, ptr.status());
  *devPtr = *ptr;
  return ACL_SUCCESS;
}

}  // namespace

extern "C" {

aclError aclrtMallocAlign32(void** devPtr, size_t size,
                            aclrtMemMallocPolicy policy) try {
  constexpr size_t kAlign = 32;
  // A size that cannot be rounded up is left as is: aclrtMalloc refuses it.
  const size_t rounded = size > static_cast<size_t>(-1) - (kAlign - 1)
                             ? size
                             : (size + kAlign - 1) / kAlign * kAlign;
  return MallocRawPolicy(__func__, devPtr, rounded,
                         ascend::acl::RawEnum(policy));
}
ACL_ENTRY_CATCH(aclError)

aclError aclrtMallocCached(void** devPtr, size_t size,
                           aclrtMemMallocPolicy policy) try {
  const int32_t raw = ascend::acl::RawEnum(policy);
  if (!CachedPolicyAccepted(raw)) {
    return ascend::rt::ReportErrorCode(
        __func__, ACL_ERROR_RT_PARAM_INVALID,
        ascend::acl::InvalidEnumMessage("policy", "aclrtMemMallocPolicy", raw) +
            " for aclrtMallocCached: it takes one of HUGE_FIRST, HUGE_ONLY, "
            "NORMAL_ONLY and HUGE1G_ONLY, not or-ed");
  }
  return MallocRawPolicy(__func__, devPtr, size, raw);
}
ACL_ENTRY_CATCH(aclError)

aclError aclrtFreeWithDevSync(void* devPtr) try {
  ACL_REQUIRE_NOT_NULL(devPtr);
  const absl::Status synced =
      ascend::acl::Fam<ascend::rt::Streams>().SynchronizeDevice(
          absl::InfiniteFuture());
  if (!synced.ok()) return ACL_RESULT(synced);
  return aclrtFree(devPtr);
}
ACL_ENTRY_CATCH(aclError)

aclError aclrtFreeHostWithDevSync(void* hostPtr) try {
  ACL_REQUIRE_NOT_NULL(hostPtr);
  const absl::Status synced =
      ascend::acl::Fam<ascend::rt::Streams>().SynchronizeDevice(
          absl::InfiniteFuture());
  if (!synced.ok()) return ACL_RESULT(synced);
  return aclrtFreeHost(hostPtr);
}
ACL_ENTRY_CATCH(aclError)

}  // extern "C"
