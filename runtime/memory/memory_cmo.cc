// Cache maintenance (DESIGN.md §5.14): the simulator's memory is coherent,
// so aclrtCmoAsync and its descriptor form check their arguments, take their
// place in stream order (an Invalid operation with a barrier id is what
// aclrtCmoWaitBarrier waits for) and change no bytes. The copies and fills of
// memcpy_ext.cc are the rest of the extended memory operations.
#include <cstdint>
#include <memory>
#include <set>
#include <utility>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/strings/str_cat.h"
#include "absl/time/time.h"
#include "acl/error_codes/rt_error_codes.h"
#include "device/base/mutex.h"
#include "device/base/status_macros.h"
#include "runtime/base/error.h"
#include "runtime/memory/memcpy_ext.h"
#include "runtime/memory/memory.h"
#include "runtime/runtime.h"
#include "runtime/stream.h"

namespace ascend::rt {

namespace {

uint64_t Addr(const void* p) { return reinterpret_cast<uint64_t>(p); }
void* Ptr(uint64_t a) { return reinterpret_cast<void*>(a); }

}  // namespace

// Invalid cache operations carrying a barrier id, in flight; what
// aclrtCmoWaitBarrier waits for. Each issue takes a sequence number, so a
// wait covers exactly the operations issued before it.
class Memory::CmoBarriers {
 public:
  uint64_t Issue(uint32_t id) {
    ascend::MutexLock lock(&mu_);
    const uint64_t seq = ++last_;
    pending_[id].insert(seq);
    return seq;
  }
  void Done(uint32_t id, uint64_t seq) {
    ascend::MutexLock lock(&mu_);
    auto it = pending_.find(id);
    if (it == pending_.end()) return;
    it->second.erase(seq);
    if (it->second.empty()) pending_.erase(it);
  }
  uint64_t Last() {
    ascend::MutexLock lock(&mu_);
    return last_;
  }
  // Returns once no operation with one of `ids` issued at or before `upto`
  // is pending, or cancelled when the waiting stream is being destroyed.
  absl::Status Wait(std::vector<uint32_t> ids, uint64_t upto,
                    const Stream& stream) {
    struct Args {
      CmoBarriers* self;
      const std::vector<uint32_t>* ids;
      uint64_t upto;
    } args{this, &ids, upto};
    Stream::BlockedWait blocked(&stream);
    ascend::MutexLock lock(&mu_);
    for (;;) {
      const bool done =
          mu_.AwaitWithTimeout(absl::Condition(
                                   +[](Args* a) ABSL_NO_THREAD_SAFETY_ANALYSIS {
                                     for (uint32_t id : *a->ids) {
                                       auto it = a->self->pending_.find(id);
                                       if (it != a->self->pending_.end() &&
                                           *it->second.begin() <= a->upto) {
                                         return false;
                                       }
                                     }
                                     return true;
                                   },
                                   &args),
                               kTaskWaitSlice);
      if (done) return absl::OkStatus();
      if (stream.aborting()) return absl::CancelledError("stream destroyed");
    }
  }

 private:
  ascend::Mutex mu_;
  uint64_t last_ ABSL_GUARDED_BY(mu_) = 0;
  absl::flat_hash_map<uint32_t, std::set<uint64_t>> pending_
      ABSL_GUARDED_BY(mu_);
};

std::shared_ptr<Memory::CmoBarriers> Memory::Barriers() {
  ascend::MutexLock lock(&mu_);
  if (cmo_barriers_ == nullptr) {
    cmo_barriers_ = std::make_shared<CmoBarriers>();
  }
  return cmo_barriers_;
}

// --- Cache maintenance (validated no-ops) -----------------------------------

absl::Status Memory::CheckCacheRange(const void* ptr, size_t size) {
  Runtime::Location where = runtime_.Locate(ptr);
  ASCEND_RETURN_IF_ERROR(RejectStale(where, ptr, "cache operation on"));
  if (where.device && !RangeInAllocation(where, ptr, size)) {
    return Error(ACL_ERROR_RT_PARAM_INVALID,
                 "cache operation runs past the end of the device allocation");
  }
  return absl::OkStatus();
}

absl::Status Memory::CmoAsync(void* src, size_t size, aclrtCmoType type,
                              uint32_t barrier_id, void* stream) {
  ASCEND_ASSIGN_OR_RETURN(std::shared_ptr<Stream> s,
                          runtime_.ResolveStream(stream));
  Runtime::Location where = runtime_.Locate(src);
  ASCEND_RETURN_IF_ERROR(RejectStale(where, src, "cache operation on"));
  if (!RangeInAllocation(where, src, size) ||
      where.device->id() != s->device_id()) {
    return Error(ACL_ERROR_RT_PARAM_INVALID,
                 absl::StrCat("a cache operation works on device memory of "
                              "the stream's device (",
                              s->device_id(), ")"));
  }
  if (type != ACL_RT_CMO_TYPE_INVALID || barrier_id == 0) {
    return runtime_.tasks().Submit(
        TaskKind::kMarker, "aclrtCmoAsync", std::move(s),
        Task{[] { return absl::OkStatus(); }, nullptr});
  }
  std::shared_ptr<CmoBarriers> barriers = Barriers();
  const uint64_t seq = barriers->Issue(barrier_id);
  return runtime_.tasks().Submit(
      TaskKind::kMarker, "aclrtCmoAsyncWithBarrier", std::move(s),
      Task{[barriers, barrier_id, seq] {
             barriers->Done(barrier_id, seq);
             return absl::OkStatus();
           },
           [barriers, barrier_id, seq] { barriers->Done(barrier_id, seq); }});
}

absl::Status Memory::CmoWaitBarrier(const aclrtBarrierTaskInfo& info,
                                    void* stream) {
  ASCEND_ASSIGN_OR_RETURN(std::shared_ptr<Stream> s,
                          runtime_.ResolveStream(stream));
  std::vector<uint32_t> ids;
  for (size_t i = 0; i < info.barrierNum; ++i) {
    ids.push_back(info.cmoInfo[i].barrierId);
  }
  std::shared_ptr<CmoBarriers> barriers = Barriers();
  const uint64_t upto = barriers->Last();
  return runtime_.tasks().Submit(
      TaskKind::kMarker, "aclrtCmoWaitBarrier", std::move(s),
      Task{[barriers, ids = std::move(ids), upto] {
             return barriers->Wait(ids, upto, *Stream::Current());
           },
           nullptr});
}

absl::Status Memory::SetCmoDesc(void* desc, void* src, size_t size) {
  const CmoDescriptor value{Addr(src), size, CmoDescriptor::kMagic, 0};
  return WriteDescriptor(desc, &value, kCmoDescSize, "cache descriptor");
}

absl::Status Memory::CmoAsyncWithDesc(void* desc, aclrtCmoType type,
                                      void* stream) {
  (void)type;  // every type is a no-op on coherent memory
  ASCEND_ASSIGN_OR_RETURN(std::shared_ptr<Stream> s,
                          runtime_.ResolveStream(stream));
  ASCEND_ASSIGN_OR_RETURN(
      const Runtime::Location where,
      LocateDescriptor(desc, kCmoDescSize, "cache descriptor"));
  // Like the copy descriptor, read when the task runs; the range it names
  // is checked then.
  return runtime_.tasks().Submit(
      TaskKind::kMarker, "aclrtCmoAsyncWithDesc", std::move(s),
      Task{[this, dev = where.device, at = Addr(desc)]() -> absl::Status {
             CmoDescriptor value;
             ASCEND_RETURN_IF_ERROR(
                 dev->CopyFromDevice(&value, at, sizeof value));
             if (value.magic != CmoDescriptor::kMagic) {
               return Error(ACL_ERROR_RT_PARAM_INVALID,
                            "the cache descriptor was not set by "
                            "aclrtCmoSetDesc");
             }
             const void* range = Ptr(value.src);
             if (value.size == 0 || !RangeInAllocation(runtime_.Locate(range),
                                                       range, value.size)) {
               return Error(ACL_ERROR_RT_PARAM_INVALID,
                            "the cache descriptor's range is not in "
                            "device memory");
             }
             return absl::OkStatus();
           },
           nullptr});
}

}  // namespace ascend::rt
