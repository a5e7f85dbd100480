// Report callbacks (aclrtLaunchCallback): a stream hands callbacks to the
// host thread subscribed to it (aclrtSubscribeReport), which runs them when it
// calls aclrtProcessReport. Thread ids are pthread_self() values, which is
// what std::this_thread::get_id() prints on Linux.
#ifndef ASCENDCL_RUNTIME_HOST_FUNC_REPORT_H_
#define ASCENDCL_RUNTIME_HOST_FUNC_REPORT_H_

#include <cstdint>
#include <deque>
#include <memory>
#include <optional>

#include "absl/base/thread_annotations.h"
#include "absl/container/flat_hash_map.h"
#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/synchronization/mutex.h"
#include "absl/time/time.h"
#include "device/base/mutex.h"

namespace ascend::rt {

class ReportHub {
 public:
  using Callback = void (*)(void*);

  // One callback handed to a subscriber; `done` turns true after it ran.
  struct Item {
    Callback fn = nullptr;
    void* user_data = nullptr;
    bool done = false;
  };

  // 107011 when the stream already has a subscriber. With `device` set, a
  // thread serves the streams of one device: 107012 when it is subscribed
  // to a stream of another device (12, aclrtSubscribeReport constraints).
  absl::Status Subscribe(uint64_t thread_id, const void* stream,
                         std::optional<int32_t> device = std::nullopt);
  // 107011 when (thread, stream) is not subscribed.
  absl::Status Unsubscribe(uint64_t thread_id, const void* stream);
  // Drops the subscription of a destroyed stream.
  void ForgetStream(const void* stream);
  // The subscriber of `stream`; 107015 when there is none.
  absl::StatusOr<uint64_t> Subscriber(const void* stream) const;
  // The same without building an error (the per-task check of host
  // functions: a Status with a message costs more than the task).
  std::optional<uint64_t> FindSubscriber(const void* stream) const;

  // Queues an item for `thread_id` and returns it.
  std::shared_ptr<Item> Post(uint64_t thread_id, Callback fn, void* user_data);
  // Waits until `item` ran or `deadline`; false on deadline.
  bool WaitDone(const std::shared_ptr<Item>& item, absl::Time deadline);
  // Waits until an item is pending for `thread_id` or `deadline` passes.
  // 107012 if the thread subscribed to nothing; 507012 on timeout.
  absl::Status WaitPending(uint64_t thread_id, absl::Time deadline);
  // Takes the thread's next pending item and runs it; false when there was
  // none.
  bool RunPending(uint64_t thread_id);

 private:
  mutable ascend::Mutex mu_;
  absl::flat_hash_map<const void*, uint64_t> subscriber_ ABSL_GUARDED_BY(mu_);
  // Per subscribed thread: how many streams it serves, and the device of
  // the first (when the subscriptions name one).
  struct Subscriptions {
    int count = 0;
    std::optional<int32_t> device;
  };
  absl::flat_hash_map<uint64_t, Subscriptions> subscriptions_
      ABSL_GUARDED_BY(mu_);
  absl::flat_hash_map<uint64_t, std::deque<std::shared_ptr<Item>>> queues_
      ABSL_GUARDED_BY(mu_);
};

}  // namespace ascend::rt

#endif  // ASCENDCL_RUNTIME_HOST_FUNC_REPORT_H_
