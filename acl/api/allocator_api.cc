// ACL entry points: allocator descriptors and their registration per stream
// (DESIGN.md §5.16). A descriptor holds a framework's allocator object and
// callbacks; registering copies it for the stream. The work this runtime
// enqueues (copies, memsets, built-in tasks) needs no workspace, so nothing
// here calls the callbacks: single-operator and model execution, the
// reference's users of a stream's allocator, take it with
// aclrtAllocatorGetByStream.
#include <memory>

#include "absl/base/thread_annotations.h"
#include "absl/container/flat_hash_map.h"
#include "acl/acl_rt.h"
#include "acl/acl_rt_allocator.h"
#include "acl/api/api_util.h"
#include "device/base/mutex.h"

using ascend::acl::Runtime;

namespace {

struct Desc {
  aclrtAllocator obj = nullptr;
  aclrtAllocatorAllocFunc alloc = nullptr;
  aclrtAllocatorFreeFunc free = nullptr;
  aclrtAllocatorAllocAdviseFunc alloc_advise = nullptr;
  aclrtAllocatorGetAddrFromBlockFunc get_addr = nullptr;
};

struct Registration {
  aclrtAllocatorDesc handle;
  Desc desc;  // as it was when registered
};

class Allocators {
 public:
  static Allocators& Get() {
    static Allocators* const allocators = new Allocators();
    return *allocators;
  }

  aclrtAllocatorDesc Create() {
    auto desc = std::make_unique<Desc>();
    aclrtAllocatorDesc handle = desc.get();
    ascend::MutexLock lock(&mu_);
    descs_.emplace(handle, std::move(desc));
    return handle;
  }
  bool Destroy(aclrtAllocatorDesc handle) {
    ascend::MutexLock lock(&mu_);
    return descs_.erase(handle) != 0;
  }
  // Applies `edit` to a live descriptor; false when `handle` is none.
  template <typename F>
  bool Edit(aclrtAllocatorDesc handle, F edit) {
    ascend::MutexLock lock(&mu_);
    auto it = descs_.find(handle);
    if (it == descs_.end()) return false;
    edit(*it->second);
    return true;
  }
  bool Snapshot(aclrtAllocatorDesc handle, Desc* out) {
    return Edit(handle, [out](Desc& d) { *out = d; });
  }
  void Register(aclrtStream stream, Registration registration) {
    ascend::MutexLock lock(&mu_);
    streams_[stream] = registration;
  }
  void Unregister(aclrtStream stream) {
    ascend::MutexLock lock(&mu_);
    streams_.erase(stream);
  }
  bool Find(aclrtStream stream, Registration* out) {
    ascend::MutexLock lock(&mu_);
    auto it = streams_.find(stream);
    if (it == streams_.end()) return false;
    *out = it->second;
    return true;
  }

 private:
  ascend::Mutex mu_;
  absl::flat_hash_map<aclrtAllocatorDesc, std::unique_ptr<Desc>> descs_
      ABSL_GUARDED_BY(mu_);
  absl::flat_hash_map<aclrtStream, Registration> streams_ ABSL_GUARDED_BY(mu_);
};

aclError NotADesc(const char* api) {
  return ascend::rt::ReportErrorCode(
      api, ACL_ERROR_INVALID_PARAM,
      "allocatorDesc is not a live allocator descriptor");
}

template <typename F>
aclError EditDesc(const char* api, aclrtAllocatorDesc handle, F edit) {
  if (!Allocators::Get().Edit(handle, edit)) return NotADesc(api);
  return ACL_SUCCESS;
}

}  // namespace

extern "C" {

aclrtAllocatorDesc aclrtAllocatorCreateDesc(void) try {
  return Allocators::Get().Create();
}
ACL_ENTRY_CATCH(aclrtAllocatorDesc)

aclError aclrtAllocatorDestroyDesc(aclrtAllocatorDesc allocatorDesc) try {
  ACL_REQUIRE_NOT_NULL(allocatorDesc);
  if (!Allocators::Get().Destroy(allocatorDesc)) return NotADesc(__func__);
  return ACL_SUCCESS;
}
ACL_ENTRY_CATCH(aclError)

aclError aclrtAllocatorSetObjToDesc(aclrtAllocatorDesc allocatorDesc,
                                    aclrtAllocator allocator) try {
  ACL_REQUIRE_NOT_NULL(allocatorDesc);
  ACL_REQUIRE_NOT_NULL(allocator);
  return EditDesc(__func__, allocatorDesc,
                  [allocator](Desc& d) { d.obj = allocator; });
}
ACL_ENTRY_CATCH(aclError)

aclError aclrtAllocatorSetAllocFuncToDesc(aclrtAllocatorDesc allocatorDesc,
                                          aclrtAllocatorAllocFunc func) try {
  ACL_REQUIRE_NOT_NULL(allocatorDesc);
  ACL_REQUIRE_NOT_NULL(func);
  return EditDesc(__func__, allocatorDesc, [func](Desc& d) { d.alloc = func; });
}
ACL_ENTRY_CATCH(aclError)

aclError aclrtAllocatorSetFreeFuncToDesc(aclrtAllocatorDesc allocatorDesc,
                                         aclrtAllocatorFreeFunc func) try {
  ACL_REQUIRE_NOT_NULL(allocatorDesc);
  ACL_REQUIRE_NOT_NULL(func);
  return EditDesc(__func__, allocatorDesc, [func](Desc& d) { d.free = func; });
}
ACL_ENTRY_CATCH(aclError)

aclError aclrtAllocatorSetAllocAdviseFuncToDesc(
    aclrtAllocatorDesc allocatorDesc, aclrtAllocatorAllocAdviseFunc func) try {
  ACL_REQUIRE_NOT_NULL(allocatorDesc);
  ACL_REQUIRE_NOT_NULL(func);
  return EditDesc(__func__, allocatorDesc,
                  [func](Desc& d) { d.alloc_advise = func; });
}
ACL_ENTRY_CATCH(aclError)

aclError aclrtAllocatorSetGetAddrFromBlockFuncToDesc(
    aclrtAllocatorDesc allocatorDesc,
    aclrtAllocatorGetAddrFromBlockFunc func) try {
  ACL_REQUIRE_NOT_NULL(allocatorDesc);
  ACL_REQUIRE_NOT_NULL(func);
  return EditDesc(__func__, allocatorDesc,
                  [func](Desc& d) { d.get_addr = func; });
}
ACL_ENTRY_CATCH(aclError)

aclError aclrtAllocatorRegister(aclrtStream stream,
                                aclrtAllocatorDesc allocatorDesc) try {
  ACL_REQUIRE_NOT_NULL(stream);
  ACL_REQUIRE_NOT_NULL(allocatorDesc);
  Desc desc;
  if (!Allocators::Get().Snapshot(allocatorDesc, &desc)) {
    return NotADesc(__func__);
  }
  // The object and the alloc, free and block-address callbacks are
  // required; alloc-advise is optional.
  if (desc.obj == nullptr || desc.alloc == nullptr || desc.free == nullptr ||
      desc.get_addr == nullptr) {
    return ascend::rt::ReportErrorCode(
        __func__, ACL_ERROR_INVALID_PARAM,
        "allocatorDesc lacks its allocator object or its alloc, free or "
        "get-address-from-block callback");
  }
  absl::StatusOr<std::shared_ptr<ascend::rt::Stream>> live =
      Runtime().ResolveStream(stream);
  if (!live.ok()) return ACL_RESULT(live.status());
  Allocators::Get().Register(stream, Registration{allocatorDesc, desc});
  return ACL_SUCCESS;
}
ACL_ENTRY_CATCH(aclError)

aclError aclrtAllocatorUnregister(aclrtStream stream) try {
  ACL_REQUIRE_NOT_NULL(stream);
  Allocators::Get().Unregister(stream);
  return ACL_SUCCESS;
}
ACL_ENTRY_CATCH(aclError)

aclError aclrtAllocatorGetByStream(
    aclrtStream stream, aclrtAllocatorDesc* allocatorDesc,
    aclrtAllocator* allocator, aclrtAllocatorAllocFunc* allocFunc,
    aclrtAllocatorFreeFunc* freeFunc,
    aclrtAllocatorAllocAdviseFunc* allocAdviseFunc,
    aclrtAllocatorGetAddrFromBlockFunc* getAddrFromBlockFunc) try {
  ACL_REQUIRE_NOT_NULL(allocatorDesc);
  ACL_REQUIRE_NOT_NULL(stream);
  Registration r;
  if (!Allocators::Get().Find(stream, &r)) {
    return ascend::rt::ReportErrorCode(
        __func__, ACL_ERROR_INVALID_PARAM,
        "the stream is not registered with any allocator");
  }
  *allocatorDesc = r.handle;
  if (allocator != nullptr) *allocator = r.desc.obj;
  if (allocFunc != nullptr) *allocFunc = r.desc.alloc;
  if (freeFunc != nullptr) *freeFunc = r.desc.free;
  if (allocAdviseFunc != nullptr) *allocAdviseFunc = r.desc.alloc_advise;
  if (getAddrFromBlockFunc != nullptr) {
    *getAddrFromBlockFunc = r.desc.get_addr;
  }
  return ACL_SUCCESS;
}
ACL_ENTRY_CATCH(aclError)

}  // extern "C"
