// The process's shared queues and the routes between them (DESIGN.md §5.23).
//
// A queue is a FIFO of shared buffers (the runtime's mbufs, held by handle)
// with a name and a depth, on the device current when it was made. A route
// (src, dst) moves every buffer that reaches src to each destination bound
// to src (the first gets the buffer, the others references to its data made
// with aclrtCopyBufRef), as soon as every destination has room; it is done
// by whichever call makes that possible (an enqueue to src, a dequeue from a
// destination, a bind), so no thread runs in the background. Routes are one
// level deep: a destination is never a source.
//
// No call here waits for a snapshot under the lock: buffers to free come back
// in `garbage` for ReleaseBuffers once the lock is released.
//
//   Queues& queues = Queues::Get();
//   uint32_t qid;
//   aclError ret = queues.Create(api, /*device=*/0, "", 8, &qid);
#ifndef ASCENDCL_ACL_TDT_QUEUE_H_
#define ASCENDCL_ACL_TDT_QUEUE_H_

#include <cstddef>
#include <cstdint>
#include <deque>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "absl/base/thread_annotations.h"
#include "absl/container/flat_hash_set.h"
#include "acl/acl_tdt_queue.h"
#include "device/base/mutex.h"

// The public header's opaque types.
struct tagMemQueueAttr {
  static constexpr size_t kNameSize = 128;  // terminator included
  char name[kNameSize] = {};
  uint32_t depth = 8;
};

struct acltdtQueueRoute {
  uint32_t src = 0;
  uint32_t dst = 0;
  int32_t status = ACL_TDT_QUEUE_ROUTE_UNBIND;
};

struct acltdtQueueRouteList {
  std::vector<acltdtQueueRoute> routes;
};

struct acltdtQueueRouteQueryInfo {
  int32_t mode = 0;
  uint32_t src = 0;
  uint32_t dst = 0;
  bool has_mode = false;
  bool has_src = false;
  bool has_dst = false;
};

namespace ascend::tdt {

class Queues {
 public:
  static constexpr uint32_t kDefaultDepth = 8;
  static constexpr uint32_t kMinDepth = 2;
  static constexpr uint32_t kMaxDepth = 8192;
  using Garbage = std::vector<void*>;

  // The process's queues.
  static Queues& Get();

  // Errors: 107000 for a depth outside [kMinDepth, kMaxDepth]; 100000 for a
  // name of a live queue of the device. An empty name gets a generated one.
  aclError Create(const char* api, int32_t device, const std::string& name,
                  uint32_t depth, uint32_t* qid);
  // Errors: 107000 unknown; 500001 bound by a route.
  aclError Destroy(const char* api, int32_t device, uint32_t qid,
                   Garbage* garbage);
  // 107000 unless qid is a live queue (of `device` when given).
  aclError Check(const char* api, std::optional<int32_t> device, uint32_t qid);
  // Appends buf (the queue owns it on success). Errors: 107000 unknown queue
  // (also when destroyed while waiting) or buf already queued; 207014 full.
  aclError Enqueue(const char* api, std::optional<int32_t> device, uint32_t qid,
                   void* buf, int32_t timeout, Garbage* garbage);
  // Takes the oldest buffer (the caller owns it). With max_len set, a head
  // buffer holding more bytes stays queued: 100000 with *len its length.
  // *len is the buffer chain's valid data length. Errors: 107000 unknown;
  // 207013 empty.
  aclError Dequeue(const char* api, std::optional<int32_t> device, uint32_t qid,
                   int32_t timeout, std::optional<size_t> max_len, void** buf,
                   size_t* len, Garbage* garbage);
  // Returns a buffer Dequeue took to the front of its queue (or to garbage
  // when the queue is gone).
  void PutBack(uint32_t qid, void* buf, Garbage* garbage);
  // Whether buf sits in a queue (so its owner is the queue).
  bool Queued(void* buf) const;

  // Binds / unbinds every route of the list, setting each status; Bind
  // returns 500001 when one was refused.
  aclError Bind(const char* api, int32_t device, acltdtQueueRouteList* list,
                Garbage* garbage);
  void Unbind(int32_t device, acltdtQueueRouteList* list);
  // The bound routes of the device matching a validated query.
  void Query(int32_t device, const acltdtQueueRouteQueryInfo& query,
             std::vector<acltdtQueueRoute>* routes) const;

 private:
  struct Queue {
    int32_t device = 0;
    std::string name;
    uint32_t depth = 0;
    std::deque<void*> buffers;
    bool destroyed = false;
  };
  using Route = std::pair<uint32_t, uint32_t>;  // (src, dst)

  std::shared_ptr<Queue> FindLocked(std::optional<int32_t> device,
                                    uint32_t qid) const
      ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_);
  bool IsSourceLocked(uint32_t qid) const ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_);
  bool IsDestinationLocked(uint32_t qid) const
      ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_);
  std::string BindRefusalLocked(int32_t device, uint32_t src,
                                uint32_t dst) const
      ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_);
  // Moves buffers from src along its routes while every destination has
  // room; then the same for every source bound to `qid` when it is a
  // destination.
  void PumpLocked(uint32_t qid, Garbage* garbage)
      ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_);
  void PumpSourceLocked(uint32_t src, Garbage* garbage)
      ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_);

  mutable ascend::Mutex mu_;
  uint32_t next_qid_ ABSL_GUARDED_BY(mu_) = 0;
  std::map<uint32_t, std::shared_ptr<Queue>> queues_ ABSL_GUARDED_BY(mu_);
  std::set<Route> routes_ ABSL_GUARDED_BY(mu_);
  absl::flat_hash_set<void*> queued_ ABSL_GUARDED_BY(mu_);
};

}  // namespace ascend::tdt

#endif  // ASCENDCL_ACL_TDT_QUEUE_H_
