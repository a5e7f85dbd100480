#include "runtime/stream.h"

#include <utility>

#include "absl/strings/str_cat.h"
#include "device/base/status_macros.h"

namespace ascend::rt {
namespace {
thread_local const Stream* tls_running_stream = nullptr;
}  // namespace

const Stream* Stream::Current() { return tls_running_stream; }

Stream::Stream(int32_t device_id, uint32_t id, uint32_t flags,
               uint32_t priority)
    : device_id_(device_id), id_(id), flags_(flags), priority_(priority) {
  ascend::MutexLock lock(&join_mu_);
  executor_ = std::thread([this] { Run(); });
}

Stream::~Stream() { Shutdown(); }

void Stream::Shutdown() {
  // A running blocking task gives up, the executor takes no further task,
  // and what is left is cancelled once it has stopped.
  aborting_.store(true, std::memory_order_release);
  {
    ascend::MutexLock lock(&mu_);
    shutdown_ = true;
  }
  {
    ascend::MutexLock lock(&join_mu_);
    if (executor_.joinable()) {
      if (executor_.get_id() == std::this_thread::get_id()) {
        // Only reachable by a task tearing its own stream down, which the
        // runtime refuses; never join (or leave joinable) this thread.
        executor_.detach();
      } else {
        executor_.join();
      }
    }
  }
  DiscardPending();
}

void Stream::Enqueue(Task task) {
  {
    ascend::MutexLock lock(&mu_);
    if (!shutdown_) {
      queue_.push_back(std::move(task));
      ++enqueued_;
      return;
    }
  }
  if (task.cancel) task.cancel();  // shut down: it will never run
}

void Stream::Run() {
  // One critical section per task: it records the previous task's result and
  // takes the next one. Every release of mu_ wakes the threads waiting in
  // Synchronize to re-check, so a second lock per task would double the
  // wake-ups while a Synchronize waits on a long queue.
  absl::Status status;
  bool ran = false;
  for (;;) {
    Task task;
    bool skip = false;
    {
      ascend::MutexLock lock(&mu_);
      if (ran) FinishLocked(std::move(status));
      mu_.Await(absl::Condition(
          +[](Stream* s) ABSL_EXCLUSIVE_LOCKS_REQUIRED(s->mu_) {
            return s->shutdown_ || !s->queue_.empty();
          },
          this));
      if (shutdown_) return;  // Shutdown cancels what is left
      task = std::move(queue_.front());
      queue_.pop_front();
      skip = stop_on_failure_ && !ErrorLocked(ErrorReader::kStream).ok();
    }
    status = absl::OkStatus();
    if (skip) {
      if (task.cancel) task.cancel();
    } else if (task.run) {
      tls_running_stream = this;
      status = task.run();
      tls_running_stream = nullptr;
    }
    ran = true;
  }
}

void Stream::FinishLocked(absl::Status status) {
  ++finished_;
  if (status.ok()) return;
  absl::Status error(status.code(),
                     absl::StrCat("stream ", id_, ": ", status.message()));
  status.ForEachPayload([&error](absl::string_view url, const absl::Cord& p) {
    error.SetPayload(url, p);
  });
  for (absl::Status& pending : errors_) {
    if (pending.ok()) pending = error;
  }
}

absl::Status Stream::WaitLocked(absl::Time deadline) {
  const uint64_t target = enqueued_;
  struct Args {
    Stream* s;
    uint64_t target;
  } args{this, target};
  bool done =
      mu_.AwaitWithDeadline(absl::Condition(
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
  return absl::OkStatus();
}

absl::Status Stream::Synchronize(absl::Time deadline, ErrorReader reader) {
  ascend::MutexLock lock(&mu_);
  ASCEND_RETURN_IF_ERROR(WaitLocked(deadline));
  absl::Status error = std::move(ErrorLocked(reader));
  ErrorLocked(reader) = absl::OkStatus();
  return error;
}

absl::Status Stream::Drain(absl::Time deadline) {
  ascend::MutexLock lock(&mu_);
  ASCEND_RETURN_IF_ERROR(WaitLocked(deadline));
  return ErrorLocked(ErrorReader::kStream);
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
