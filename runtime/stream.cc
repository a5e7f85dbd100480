#include "runtime/stream.h"

#include <utility>

#include "absl/strings/str_cat.h"

namespace ascend::rt {

Stream::Stream(int32_t device_id, uint32_t id, uint32_t flags,
               uint32_t priority)
    : device_id_(device_id), id_(id), flags_(flags), priority_(priority) {
  executor_ = std::thread([this] { Run(); });
}

Stream::~Stream() {
  Abort();
  {
    ascend::MutexLock lock(&mu_);
    shutdown_ = true;
  }
  executor_.join();
}

void Stream::Enqueue(Task task) {
  ascend::MutexLock lock(&mu_);
  queue_.push_back(std::move(task));
  ++enqueued_;
}

void Stream::Run() {
  for (;;) {
    Task task;
    bool skip = false;
    {
      ascend::MutexLock lock(&mu_);
      mu_.Await(absl::Condition(
          +[](Stream* s) ABSL_EXCLUSIVE_LOCKS_REQUIRED(s->mu_) {
            return s->shutdown_ || !s->queue_.empty();
          },
          this));
      if (queue_.empty()) return;  // shutdown
      task = std::move(queue_.front());
      queue_.pop_front();
      skip = stop_on_failure_ && !error_.ok();
    }
    absl::Status status;
    if (skip) {
      if (task.cancel) task.cancel();
    } else if (task.run) {
      status = task.run();
    }
    ascend::MutexLock lock(&mu_);
    if (!status.ok() && error_.ok()) {
      error_ = absl::Status(status.code(),
                            absl::StrCat("stream ", id_, ": ", status.message()));
      status.ForEachPayload([this](absl::string_view url, const absl::Cord& p) {
        error_.SetPayload(url, p);
      });
    }
    ++finished_;
  }
}

absl::Status Stream::Synchronize(absl::Time deadline) {
  ascend::MutexLock lock(&mu_);
  const uint64_t target = enqueued_;
  struct Args {
    Stream* s;
    uint64_t target;
  } args{this, target};
  bool done = mu_.AwaitWithDeadline(
      absl::Condition(
          +[](Args* a) ABSL_NO_THREAD_SAFETY_ANALYSIS {
            return a->s->finished_ >= a->target;
          },
          &args),
      deadline);
  if (!done) {
    return absl::DeadlineExceededError(
        absl::StrCat("stream ", id_, " did not finish in time (",
                     target - finished_, " task(s) pending)"));
  }
  absl::Status error = std::move(error_);
  error_ = absl::OkStatus();
  return error;
}

bool Stream::Idle() const {
  ascend::MutexLock lock(&mu_);
  return finished_ == enqueued_;
}

void Stream::SetStopOnFailure(bool stop) {
  ascend::MutexLock lock(&mu_);
  stop_on_failure_ = stop;
}

void Stream::Abort() {
  aborting_.store(true, std::memory_order_release);
  DiscardPending();
}

void Stream::DiscardPending() {
  std::deque<Task> discarded;
  {
    ascend::MutexLock lock(&mu_);
    discarded.swap(queue_);
    finished_ += discarded.size();
  }
  for (Task& task : discarded) {
    if (task.cancel) task.cancel();
  }
}

}  // namespace ascend::rt
