// ACL entry points: variants of aclrtMalloc / aclrtFree that the simulator
// serves with the same allocator (aligned and cached allocation, frees that
// first wait for the device).
#include <cstddef>

#include "absl/time/time.h"
#include "acl/acl_rt.h"
#include "acl/api/api_util.h"

using ascend::acl::Runtime;

extern "C" {

aclError aclrtMallocAlign32(void** devPtr, size_t size,
                            aclrtMemMallocPolicy policy) try {
  constexpr size_t kAlign = 32;
  // A size that cannot be rounded up is left as is: aclrtMalloc refuses it.
  const size_t rounded = size > static_cast<size_t>(-1) - (kAlign - 1)
                             ? size
                             : (size + kAlign - 1) / kAlign * kAlign;
  return aclrtMalloc(devPtr, rounded, policy);
}
ACL_ENTRY_CATCH(aclError)

aclError aclrtMallocCached(void** devPtr, size_t size,
                           aclrtMemMallocPolicy policy) try {
  return aclrtMalloc(devPtr, size, policy);
}
ACL_ENTRY_CATCH(aclError)

aclError aclrtFreeWithDevSync(void* devPtr) try {
  ACL_REQUIRE_NOT_NULL(devPtr);
  const absl::Status synced =
      Runtime().SynchronizeDevice(absl::InfiniteFuture());
  if (!synced.ok()) return ACL_RESULT(synced);
  return aclrtFree(devPtr);
}
ACL_ENTRY_CATCH(aclError)

aclError aclrtFreeHostWithDevSync(void* hostPtr) try {
  ACL_REQUIRE_NOT_NULL(hostPtr);
  const absl::Status synced =
      Runtime().SynchronizeDevice(absl::InfiniteFuture());
  if (!synced.ok()) return ACL_RESULT(synced);
  return aclrtFreeHost(hostPtr);
}
ACL_ENTRY_CATCH(aclError)

}  // extern "C"
