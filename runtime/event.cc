#include "runtime/event.h"

#include <algorithm>

#include "absl/strings/str_cat.h"

namespace ascend::rt {

uint64_t Event::BeginRecord() {
  ascend::MutexLock lock(&mu_);
  return ++recorded_;
}

void Event::Complete(uint64_t seq) {
  ascend::MutexLock lock(&mu_);
  if (seq > completed_) {
    completed_ = seq;
    timestamp_ = absl::Now();
  }
}

uint64_t Event::LatestRecord() const {
  ascend::MutexLock lock(&mu_);
  return recorded_;
}

bool Event::WaitFor(uint64_t seq, absl::Time deadline) const {
  ascend::MutexLock lock(&mu_);
  struct Args {
    const Event* e;
    uint64_t seq;
  } args{this, seq};
  return mu_.AwaitWithDeadline(absl::Condition(
                                   +[](Args* a) ABSL_NO_THREAD_SAFETY_ANALYSIS {
                                     return a->e->completed_ >= a->seq;
                                   },
                                   &args),
                               deadline);
}

bool Event::IsComplete() const {
  ascend::MutexLock lock(&mu_);
  return completed_ >= recorded_;
}

void Event::Reset() {
  ascend::MutexLock lock(&mu_);
  timestamp_.reset();
}

std::optional<absl::Time> Event::Timestamp() const {
  ascend::MutexLock lock(&mu_);
  if (completed_ < recorded_) return std::nullopt;
  return timestamp_;
}

Event::State Event::SaveState() const {
  ascend::MutexLock lock(&mu_);
  return State{recorded_, completed_, timestamp_};
}

void Event::RestoreState(const State& state) {
  ascend::MutexLock lock(&mu_);
  recorded_ = state.recorded;
  completed_ = state.completed;
  timestamp_ = state.timestamp;
}

void Notify::Record() {
  ascend::MutexLock lock(&mu_);
  signaled_ = true;
}

absl::Status Notify::WaitAndReset(absl::Time deadline) {
  ascend::MutexLock lock(&mu_);
  bool ok =
      mu_.AwaitWithDeadline(absl::Condition(
                                +[](Notify* n) ABSL_NO_THREAD_SAFETY_ANALYSIS {
                                  return n->signaled_ || n->cancelled_;
                                },
                                this),
                            deadline);
  if (!ok) {
    return absl::DeadlineExceededError(
        absl::StrCat("notify ", id_, " was not recorded in time"));
  }
  if (!signaled_) return absl::CancelledError("notify wait cancelled");
  signaled_ = false;
  return absl::OkStatus();
}

void Notify::Cancel() {
  ascend::MutexLock lock(&mu_);
  cancelled_ = true;
}

bool Notify::SaveState() const {
  ascend::MutexLock lock(&mu_);
  return signaled_;
}

void Notify::RestoreState(bool signaled) {
  ascend::MutexLock lock(&mu_);
  signaled_ = signaled;
}

}  // namespace ascend::rt
