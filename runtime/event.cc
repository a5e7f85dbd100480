#include "runtime/event.h"

#include <algorithm>

#include "absl/strings/str_cat.h"

namespace ascend::rt {

uint64_t Event::BeginRecord() {
  ascend::MutexLock lock(&mu_);
  pending_.insert(++recorded_);
  return recorded_;
}

void Event::Complete(uint64_t seq) {
  ascend::MutexLock lock(&mu_);
  if (pending_.erase(seq) == 0) return;  // not a pending record
  if (seq > newest_completed_) {
    newest_completed_ = seq;
    timestamp_ = absl::Now();
  }
}

bool Event::IsDoneLocked(uint64_t seq) const {
  return pending_.count(seq) == 0;
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
                                     return a->e->IsDoneLocked(a->seq);
                                   },
                                   &args),
                               deadline);
}

bool Event::IsComplete() const {
  ascend::MutexLock lock(&mu_);
  return IsDoneLocked(recorded_);
}

void Event::Reset() {
  ascend::MutexLock lock(&mu_);
  timestamp_.reset();
}

std::optional<absl::Time> Event::Timestamp() const {
  ascend::MutexLock lock(&mu_);
  if (!IsDoneLocked(recorded_)) return std::nullopt;
  return timestamp_;
}

Event::State Event::SaveState() const {
  ascend::MutexLock lock(&mu_);
  return State{recorded_,
               std::vector<uint64_t>(pending_.begin(), pending_.end()),
               newest_completed_, timestamp_};
}

void Event::RestoreState(const State& state) {
  ascend::MutexLock lock(&mu_);
  recorded_ = state.recorded;
  pending_.clear();
  for (uint64_t seq : state.pending) {
    if (seq != 0 && seq <= recorded_) pending_.insert(seq);
  }
  newest_completed_ = state.newest_completed;
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
