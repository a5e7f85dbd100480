#include "runtime/global_state.h"

#include <linux/membarrier.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <cstdlib>
#include <string>
#include <utility>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "acl/error_codes/rt_error_codes.h"
#include "glog/logging.h"
#include "runtime/base/error.h"

namespace ascend::rt {
namespace internal {

std::atomic<bool> g_heavy_barrier_available{false};

namespace {

bool RegisterMembarrier() {
  long supported = syscall(__NR_membarrier, MEMBARRIER_CMD_QUERY, 0, 0);
  if (supported < 0 || (supported & MEMBARRIER_CMD_PRIVATE_EXPEDITED) == 0) {
    return false;
  }
  return syscall(__NR_membarrier, MEMBARRIER_CMD_REGISTER_PRIVATE_EXPEDITED, 0,
                 0) == 0;
}

void InitBarriersOnce() {
  static const bool available = [] {
    bool ok = RegisterMembarrier();
    g_heavy_barrier_available.store(ok, std::memory_order_seq_cst);
    if (!ok) {
      LOG(INFO) << "membarrier(2) unavailable: the API gate uses a full fence";
    }
    return ok;
  }();
  (void)available;
}

}  // namespace

void HeavyBarrier() {
  if (g_heavy_barrier_available.load(std::memory_order_relaxed)) {
    if (syscall(__NR_membarrier, MEMBARRIER_CMD_PRIVATE_EXPEDITED, 0, 0) == 0) {
      return;
    }
    // Registered but failing would break the protocol; it cannot happen on
    // a kernel that accepted the registration.
    PLOG(FATAL) << "membarrier(PRIVATE_EXPEDITED) failed";
  }
  FullFence();
}

}  // namespace internal

namespace {

std::atomic<uint64_t> g_next_instance_id{1};

// Keeps a thread's gate slots alive until the thread exits, then marks them
// dead so their GlobalState can prune them.
struct ThreadSlots {
  std::vector<std::pair<uint64_t, std::shared_ptr<internal::GateSlot>>> slots;
  ~ThreadSlots() {
    for (auto& [id, slot] : slots) {
      slot->depth.store(0, std::memory_order_release);
      slot->dead.store(true, std::memory_order_release);
    }
  }
};

ThreadSlots& CurrentThreadSlots() {
  static thread_local ThreadSlots slots;
  return slots;
}

absl::Duration TimeoutFromEnvironment() {
  const char* env = std::getenv("ACL_SNAPSHOT_TIMEOUT_MS");
  int64_t ms = 0;
  if (env != nullptr && absl::SimpleAtoi(env, &ms) && ms > 0) {
    return absl::Milliseconds(ms);
  }
  if (env != nullptr) {
    LOG(WARNING) << "ignoring ACL_SNAPSHOT_TIMEOUT_MS=\"" << env
                 << "\": expected a positive number of milliseconds";
  }
  return absl::Seconds(60);
}

}  // namespace

const char* ProcessStateName(int32_t state) {
  switch (state) {
    case 0:
      return "RUNNING";
    case 1:
      return "LOCKED";
    case 2:
      return "BACKED_UP";
    default:
      return "UNKNOWN";
  }
}

GlobalState::GlobalState(Options options)
    : options_(options), id_(g_next_instance_id.fetch_add(1)) {
  internal::InitBarriersOnce();
}

GlobalState::~GlobalState() = default;

GlobalState& GlobalState::Get() {
  static GlobalState* const instance = [] {
    auto* state = new GlobalState(Options{TimeoutFromEnvironment()});
    // CONTRACT item 20: a process exiting while locked must not hang.
    std::atexit([] { GlobalState::Get().ForceUnlock(); });
    return state;
  }();
  return *instance;
}

internal::GateSlot* GlobalState::CurrentSlotSlow() {
  ThreadSlots& mine = CurrentThreadSlots();
  for (auto& [id, slot] : mine.slots) {
    if (id == id_) {
      tls_owner_ = id_;
      tls_slot_ = slot.get();
      return tls_slot_;
    }
  }
  auto slot = std::make_shared<internal::GateSlot>();
  {
    ascend::MutexLock lock(&mu_);
    // Prune slots of exited threads while we hold the lock anyway.
    std::vector<std::shared_ptr<internal::GateSlot>> live;
    live.reserve(slots_.size() + 1);
    for (auto& s : slots_) {
      if (!s->dead.load(std::memory_order_acquire)) live.push_back(s);
    }
    live.push_back(slot);
    slots_ = std::move(live);
  }
  mine.slots.emplace_back(id_, slot);
  tls_owner_ = id_;
  tls_slot_ = slot.get();
  return tls_slot_;
}

void GlobalState::EnterSlow(internal::GateSlot* slot) {
  // A call nested inside one that already passed the gate is part of that
  // in-flight call: Lock is waiting for it, so it must not block.
  if (slot->depth.load(std::memory_order_relaxed) > 1) return;
  for (;;) {
    slot->depth.store(0, std::memory_order_release);
    internal::LightBarrier();
    ascend::MutexLock lock(&mu_);  // unlocking re-evaluates Lock's condition
    ++blocked_;
    mu_.Await(absl::Condition(
        +[](std::atomic<int32_t>* state) {
          return state->load(std::memory_order_acquire) ==
                 static_cast<int32_t>(ProcessState::kRunning);
        },
        &state_));
    --blocked_;
    slot->depth.store(1, std::memory_order_relaxed);
    internal::LightBarrier();
    if (state_.load(std::memory_order_acquire) ==
        static_cast<int32_t>(ProcessState::kRunning)) {
      return;
    }
  }
}

void GlobalState::NotifyDrain() {
  // ascend::Mutex re-evaluates waiters' conditions when it is released.
  ascend::MutexLock lock(&mu_);
}

int GlobalState::BusySlotsLocked() {
  int busy = 0;
  for (const auto& slot : slots_) {
    if (slot->depth.load(std::memory_order_acquire) != 0) ++busy;
  }
  return busy;
}

bool GlobalState::QuiescentLocked() {
  return parked_ == static_cast<int>(background_.size()) &&
         BusySlotsLocked() == 0;
}

absl::Status GlobalState::Lock() {
  ascend::MutexLock lock(&mu_);
  if (state() != ProcessState::kRunning) {
    return Error(ACL_ERROR_SNAPSHOT_LOCK_FAILED,
                 absl::StrCat("cannot lock: process state is ",
                              ProcessStateName(state_.load())));
  }
  state_.store(static_cast<int32_t>(ProcessState::kLocked));
  const uint64_t epoch = ++lock_epoch_;
  drain_waiters_.store(1);
  // After this, every thread either sees LOCKED at the gate or has its
  // in-flight mark visible to the scan below.
  internal::HeavyBarrier();
  for (BackgroundThread* bg : background_) {
    if (bg->wake_) bg->wake_();
  }
  const absl::Time deadline = absl::Now() + options_.timeout;
  auto done = [this, epoch]() ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_) {
    return state() != ProcessState::kLocked || lock_epoch_ != epoch ||
           QuiescentLocked();
  };
  bool quiescent = mu_.AwaitWithDeadline(absl::Condition(&done), deadline);
  drain_waiters_.store(0);
  if (state() != ProcessState::kLocked || lock_epoch_ != epoch) {
    return Error(ACL_ERROR_SNAPSHOT_LOCK_FAILED,
                 "process state changed while waiting for the lock");
  }
  if (!quiescent) {
    const int busy = BusySlotsLocked();
    const int unparked = static_cast<int>(background_.size()) - parked_;
    state_.store(static_cast<int32_t>(ProcessState::kRunning));
    return Error(ACL_ERROR_SNAPSHOT_LOCK_TIMEOUT,
                 absl::StrCat("lock timed out after ",
                              absl::FormatDuration(options_.timeout), ": ",
                              unparked, " background thread(s) not parked, ",
                              busy, " API call(s) still in progress"));
  }
  return absl::OkStatus();
}

absl::Status GlobalState::Unlock() {
  ascend::MutexLock lock(&mu_);
  if (state() == ProcessState::kRunning) {
    return Error(ACL_ERROR_SNAPSHOT_UNLOCK_FAILED,
                 "cannot unlock: process is RUNNING");
  }
  state_.store(static_cast<int32_t>(ProcessState::kRunning));
  const absl::Time deadline = absl::Now() + options_.timeout;
  auto resumed = [this]() ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_) {
    return state() != ProcessState::kRunning || parked_ == 0;
  };
  bool ok = mu_.AwaitWithDeadline(absl::Condition(&resumed), deadline);
  if (state() != ProcessState::kRunning) {
    return Error(ACL_ERROR_SNAPSHOT_UNLOCK_FAILED,
                 "process state changed while waiting for background threads");
  }
  if (!ok) {
    return Error(ACL_ERROR_SNAPSHOT_UNLOCK_FAILED,
                 absl::StrCat(parked_, " background thread(s) did not resume"));
  }
  return absl::OkStatus();
}

bool GlobalState::CompareAndSetState(ProcessState expected,
                                     ProcessState desired) {
  ascend::MutexLock lock(&mu_);
  if (state() != expected) return false;
  state_.store(static_cast<int32_t>(desired));
  return true;
}

void GlobalState::ForceUnlock() {
  ascend::MutexLock lock(&mu_);
  state_.store(static_cast<int32_t>(ProcessState::kRunning));
}

int GlobalState::blocked_callers() const {
  ascend::MutexLock lock(&mu_);
  return blocked_;
}

std::unique_ptr<GlobalState::BackgroundThread>
GlobalState::RegisterBackgroundThread(std::string name,
                                      std::function<void()> wake) {
  std::unique_ptr<BackgroundThread> bg(
      new BackgroundThread(this, std::move(name), std::move(wake)));
  ascend::MutexLock lock(&mu_);
  background_.push_back(bg.get());
  return bg;
}

GlobalState::BackgroundThread::~BackgroundThread() {
  ascend::MutexLock lock(&owner_->mu_);
  auto& list = owner_->background_;
  for (auto it = list.begin(); it != list.end(); ++it) {
    if (*it == this) {
      list.erase(it);
      break;
    }
  }
  if (parked_) --owner_->parked_;
}

void GlobalState::BackgroundThread::ParkIfLocked() {
  if (owner_->state() == ProcessState::kRunning) return;
  ascend::MutexLock lock(&owner_->mu_);
  if (owner_->state() == ProcessState::kRunning) return;
  parked_ = true;
  ++owner_->parked_;
  VLOG(1) << "background thread " << name_ << " parked";
  owner_->mu_.Await(absl::Condition(
      +[](std::atomic<int32_t>* state) {
        return state->load(std::memory_order_acquire) ==
               static_cast<int32_t>(ProcessState::kRunning);
      },
      &owner_->state_));
  parked_ = false;
  --owner_->parked_;
}

}  // namespace ascend::rt
