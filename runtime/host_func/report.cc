#include "runtime/host_func/report.h"

#include "absl/strings/str_cat.h"
#include "acl/error_codes/rt_error_codes.h"
#include "runtime/base/error.h"

namespace ascend::rt {

absl::Status ReportHub::Subscribe(uint64_t thread_id, const void* stream,
                                  std::optional<int32_t> device) {
  ascend::MutexLock lock(&mu_);
  if (subscriber_.contains(stream)) {
    return Error(ACL_ERROR_RT_STREAM_SUBSCRIBE,
                 "stream already has a report subscriber");
  }
  auto held = subscriptions_.find(thread_id);
  if (device.has_value() && held != subscriptions_.end() &&
      held->second.device.has_value() && *held->second.device != *device) {
    return Error(ACL_ERROR_RT_THREAD_SUBSCRIBE,
                 absl::StrCat("thread ", thread_id,
                              " already serves the reports of device ",
                              *held->second.device, "; a stream of device ",
                              *device, " needs another thread"));
  }
  subscriber_[stream] = thread_id;
  Subscriptions& subs = subscriptions_[thread_id];
  if (subs.count++ == 0) subs.device = device;
  return absl::OkStatus();
}

absl::Status ReportHub::Unsubscribe(uint64_t thread_id, const void* stream) {
  ascend::MutexLock lock(&mu_);
  auto it = subscriber_.find(stream);
  if (it == subscriber_.end() || it->second != thread_id) {
    return Error(ACL_ERROR_RT_STREAM_SUBSCRIBE,
                 absl::StrCat("thread ", thread_id,
                              " is not subscribed to this stream"));
  }
  subscriber_.erase(it);
  if (--subscriptions_[thread_id].count == 0) subscriptions_.erase(thread_id);
  return absl::OkStatus();
}

void ReportHub::ForgetStream(const void* stream) {
  ascend::MutexLock lock(&mu_);
  auto it = subscriber_.find(stream);
  if (it == subscriber_.end()) return;
  if (--subscriptions_[it->second].count == 0) {
    subscriptions_.erase(it->second);
  }
  subscriber_.erase(it);
}

absl::StatusOr<uint64_t> ReportHub::Subscriber(const void* stream) const {
  ascend::MutexLock lock(&mu_);
  auto it = subscriber_.find(stream);
  if (it == subscriber_.end()) {
    return Error(ACL_ERROR_RT_STREAM_NO_CB_REG,
                 "no thread is subscribed to the stream's reports");
  }
  return it->second;
}

std::optional<uint64_t> ReportHub::FindSubscriber(const void* stream) const {
  ascend::MutexLock lock(&mu_);
  auto it = subscriber_.find(stream);
  if (it == subscriber_.end()) return std::nullopt;
  return it->second;
}

std::shared_ptr<ReportHub::Item> ReportHub::Post(uint64_t thread_id,
                                                 Callback fn, void* user_data) {
  auto item = std::make_shared<Item>();
  item->fn = fn;
  item->user_data = user_data;
  ascend::MutexLock lock(&mu_);
  queues_[thread_id].push_back(item);
  return item;
}

bool ReportHub::WaitDone(const std::shared_ptr<Item>& item,
                         absl::Time deadline) {
  ascend::MutexLock lock(&mu_);
  return mu_.AwaitWithDeadline(
      absl::Condition(
          +[](Item* i) ABSL_NO_THREAD_SAFETY_ANALYSIS { return i->done; },
          item.get()),
      deadline);
}

absl::Status ReportHub::WaitPending(uint64_t thread_id, absl::Time deadline) {
  ascend::MutexLock lock(&mu_);
  auto queue = queues_.find(thread_id);
  if (!subscriptions_.contains(thread_id) &&
      (queue == queues_.end() || queue->second.empty())) {
    return Error(ACL_ERROR_RT_THREAD_SUBSCRIBE,
                 "the calling thread is not subscribed to any stream");
  }
  struct Args {
    ReportHub* hub;
    uint64_t thread;
  } args{this, thread_id};
  const bool ready = mu_.AwaitWithDeadline(
      absl::Condition(
          +[](Args* a) ABSL_NO_THREAD_SAFETY_ANALYSIS {
            auto it = a->hub->queues_.find(a->thread);
            return it != a->hub->queues_.end() && !it->second.empty();
          },
          &args),
      deadline);
  if (!ready) {
    return Error(ACL_ERROR_RT_REPORT_TIMEOUT,
                 "no callback arrived before the timeout");
  }
  return absl::OkStatus();
}

bool ReportHub::RunPending(uint64_t thread_id) {
  std::shared_ptr<Item> item;
  {
    ascend::MutexLock lock(&mu_);
    auto queue = queues_.find(thread_id);
    if (queue == queues_.end() || queue->second.empty()) return false;
    item = std::move(queue->second.front());
    queue->second.pop_front();
    if (queue->second.empty()) queues_.erase(queue);
  }
  item->fn(item->user_data);
  ascend::MutexLock lock(&mu_);
  item->done = true;
  return true;
}

}  // namespace ascend::rt
