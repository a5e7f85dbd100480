#include "runtime/global_state.h"

#include <linux/membarrier.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstdlib>
#include <string>
#include <thread>
#include <utility>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "acl/error_codes/rt_error_codes.h"
#include "glog/logging.h"
#include "runtime/base/error.h"
#include "runtime/base/logging.h"

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

namespace {

void Membarrier() {
  // The kernel may lack memory for the CPU mask (ENOMEM) for a moment: the
  // barrier is retried, as skipping it would break the protocol.
  while (syscall(__NR_membarrier, MEMBARRIER_CMD_PRIVATE_EXPEDITED, 0, 0) !=
         0) {
    if (errno != ENOMEM && errno != EAGAIN && errno != EINTR) {
      // EINVAL / EPERM: not registered, which cannot happen on a kernel that
      // accepted the registration; no input reaches it (DESIGN.md §2.7).
      PLOG(FATAL) << "membarrier(PRIVATE_EXPEDITED) failed";
    }
    std::this_thread::sleep_for(std::chrono::microseconds(100));
  }
}

}  // namespace

void HeavyBarrier() {
  if (g_heavy_barrier_available.load(std::memory_order_relaxed)) {
    Membarrier();
  } else {
    FullFence();
  }
}

}  // namespace internal

namespace {

// Every registered thread's in-flight mark. Calls made by threads whose
// registration was already torn down at thread exit (API calls from other
// thread_local destructors) are counted per instance instead.
struct MarkRegistry {
  ascend::Mutex mu;
  std::vector<std::atomic<uint32_t>*> marks ABSL_GUARDED_BY(mu);
};

std::atomic<uint32_t> g_next_instance_tag{internal::kFirstInstanceTag};

MarkRegistry& Marks() {
  static MarkRegistry* const registry = new MarkRegistry;
  return *registry;
}

// Gated-call nesting depth of a thread on the counted path.
thread_local int tls_counted_depth = 0;

// Removes the thread's mark from the registry when the thread exits.
struct ThreadRegistration {
  ~ThreadRegistration() {
    MarkRegistry& registry = Marks();
    ascend::MutexLock lock(&registry.mu);
    auto& marks = registry.marks;
    for (size_t i = 0; i < marks.size(); ++i) {
      if (marks[i] == &internal::tls_gate_mark) {
        marks[i] = marks.back();
        marks.pop_back();
        break;
      }
    }
    internal::tls_gate_mark.store(internal::kMarkExiting,
                                  std::memory_order_relaxed);
  }
};

void RegisterThisThread() {
  static thread_local ThreadRegistration registration;
  (void)registration;
  MarkRegistry& registry = Marks();
  ascend::MutexLock lock(&registry.mu);
  registry.marks.push_back(&internal::tls_gate_mark);
  internal::tls_gate_mark.store(internal::kMarkIdle, std::memory_order_relaxed);
}

// Threads whose outermost gated call is in flight on the instance `tag`.
// Threads in a call of the instance tagged `tag`, not counting the thread
// whose mark is `except`.
int BusyThreads(uint32_t tag, const std::atomic<uint32_t>* except) {
  MarkRegistry& registry = Marks();
  int busy = 0;
  ascend::MutexLock lock(&registry.mu);
  for (const std::atomic<uint32_t>* mark : registry.marks) {
    if (mark != except && mark->load(std::memory_order_acquire) == tag) {
      ++busy;
    }
  }
  return busy;
}

bool IsRunning(std::atomic<uint32_t>* word) {
  return (word->load(std::memory_order_acquire) & internal::kStateMask) ==
         static_cast<uint32_t>(ProcessState::kRunning);
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

GlobalState::GlobalState(Options options) : GlobalState(options, false) {}

GlobalState::GlobalState(Options options, bool singleton)
    : options_(options),
      word_(singleton ? &internal::g_process_state.value : &own_word_),
      fallback_bits_([] {
        internal::InitBarriersOnce();
        return internal::g_heavy_barrier_available.load()
                   ? 0u
                   : internal::kFenceFallbackBit;
      }()),
      tag_(singleton ? internal::kMarkInFlight
                     : g_next_instance_tag.fetch_add(1)) {
  word_->store(fallback_bits_ | static_cast<uint32_t>(ProcessState::kRunning));
}

GlobalState::~GlobalState() = default;

GlobalState& GlobalState::Get() {
  static GlobalState* const instance = [] {
    // The first gated call may be the process's first ACL call, and the
    // constructor may log.
    InitLogging();
    auto* state = new GlobalState(Options{TimeoutFromEnvironment()}, true);
    RegisterExitHook();
    return state;
  }();
  return *instance;
}

// DESIGN.md §4.6: a process exiting while locked must not hang. Exit
// handlers and static destructors run in reverse order of registration, so
// the hook is registered again by every Lock of the singleton: it then runs
// before any cleanup registered earlier (an atexit handler or a function-
// local static made after the first ACL call) that makes a gated call. One
// handler entry per Lock; the hook is idempotent.
void GlobalState::RegisterExitHook() {
  std::atexit([] { GlobalState::Get().ForceUnlock(); });
}

internal::GateToken GlobalState::EnterUncommon(GlobalState* self,
                                               uint32_t previous_mark) {
  std::atomic<uint32_t>& mark = internal::tls_gate_mark;
  switch (previous_mark) {
    case internal::kMarkIdle:
      // The state word sent us here: not RUNNING, or a slow-path bit.
      return Resolve(self)->EnterSlow();
    case internal::kMarkUnregistered:
      RegisterThisThread();  // the mark becomes idle and visible to Lock
      return Enter(
          self != nullptr ? *self->word_ : internal::g_process_state.value,
          self, self != nullptr ? self->tag_ : internal::kMarkInFlight);
    case internal::kMarkExiting:
      // The fast path overwrote the mark; only the teardown's value is kept.
      mark.store(internal::kMarkExiting, std::memory_order_relaxed);
      break;
    default:
      // Part of the call this thread is already in (of this instance or
      // another): its Lock waits for that call, so this one must not block.
      // The mark keeps the outer call's tag.
      mark.store(previous_mark, std::memory_order_relaxed);
      return internal::GateToken::kNested;
  }
  // The thread's registration is gone (thread exit): count the call.
  if (tls_counted_depth > 0) {
    ++tls_counted_depth;  // nested: never blocks; ExitCounted undoes it
    return internal::GateToken::kCounted;
  }
  tls_counted_depth = 1;
  GlobalState* gs = Resolve(self);
  std::atomic<int32_t>& counted = gs->counted_;
  for (;;) {
    counted.fetch_add(1, std::memory_order_seq_cst);
    internal::FullFence();
    if (gs->state() == ProcessState::kRunning) {
      return internal::GateToken::kCounted;
    }
    counted.fetch_sub(1, std::memory_order_seq_cst);
    ascend::MutexLock lock(&gs->mu_);  // unlocking re-evaluates Lock's wait
    ++gs->blocked_;
    gs->mu_.Await(absl::Condition(&IsRunning, gs->word_));
    --gs->blocked_;
  }
}

void GlobalState::ExitCounted() {
  if (--tls_counted_depth > 0) return;
  counted_.fetch_sub(1, std::memory_order_seq_cst);
  internal::FullFence();
  if (state() != ProcessState::kRunning) NotifyDrain();
}

namespace {
thread_local int tls_stage_callback_depth = 0;
thread_local StreamWorkScope::Kind tls_stream_work = StreamWorkScope::kNone;
}  // namespace

StageCallbackScope::StageCallbackScope() { ++tls_stage_callback_depth; }
StageCallbackScope::~StageCallbackScope() { --tls_stage_callback_depth; }
bool StageCallbackScope::Active() { return tls_stage_callback_depth > 0; }

StreamWorkScope::StreamWorkScope(Kind kind) : previous_(tls_stream_work) {
  tls_stream_work = kind;
}
StreamWorkScope::~StreamWorkScope() { tls_stream_work = previous_; }
StreamWorkScope::Kind StreamWorkScope::Current() { return tls_stream_work; }

absl::Status GateRefusal() {
  return Error(ACL_ERROR_RT_NO_PERMISSION,
               "a task running on a stream cannot make this call once a "
               "snapshot Backup has drained the streams, until Unlock "
               "(DESIGN.md §4.3)");
}

GlobalState::Verdict GlobalState::StreamWorkVerdict(int work_kind) const {
  const ProcessState current = state();
  if (current == ProcessState::kRunning) return Verdict::kAdmit;
  const auto work =
      static_cast<StreamWork>(stream_work_.load(std::memory_order_seq_cst));
  if (current == ProcessState::kLocked) {
    if (work == StreamWork::kOpen) return Verdict::kAdmit;
    if (work == StreamWork::kClosing) return Verdict::kHold;
  }
  // Closed, or BACKED_UP (which only a drained Backup reaches).
  return work_kind == StreamWorkScope::kTask ? Verdict::kRefuse
                                             : Verdict::kHold;
}

internal::GateToken GlobalState::EnterSlow() {
  std::atomic<uint32_t>& mark = internal::tls_gate_mark;
  // A stage callback's call proceeds: its lock holder waits for it.
  if (StageCallbackScope::Active()) return internal::GateToken::kOutermost;
  const StreamWorkScope::Kind work = StreamWorkScope::Current();
  for (;;) {
    // Without membarrier(2), this fence pairs with Lock's.
    if (fallback_bits_ != 0) internal::FullFence();
    if (state() == ProcessState::kRunning) {
      return internal::GateToken::kOutermost;
    }
    if (work != StreamWorkScope::kNone) {
      // Stream work: a stream (and so Backup's drain) may be waiting for it.
      // The fence orders the mark before the admission load, against
      // CloseStreamWork's store of kClosing before its scan of the marks:
      // either this call sees the gate closing, or the scan sees it.
      internal::FullFence();
      const Verdict verdict = StreamWorkVerdict(work);
      if (verdict == Verdict::kAdmit) return internal::GateToken::kOutermost;
      if (verdict == Verdict::kRefuse) {
        mark.store(internal::kMarkIdle, std::memory_order_release);
        return internal::GateToken::kRefused;
      }
    }
    // Step out of flight while blocked, so that Lock can complete.
    mark.store(internal::kMarkIdle, std::memory_order_release);
    {
      ascend::MutexLock lock(&mu_);  // unlocking re-evaluates Lock's wait
      ++blocked_;
      struct Args {
        GlobalState* gs;
        StreamWorkScope::Kind work;
      } args{this, work};
      mu_.Await(absl::Condition(
          +[](Args* a) {
            return IsRunning(a->gs->word_) ||
                   (a->work != StreamWorkScope::kNone &&
                    a->gs->StreamWorkVerdict(a->work) != Verdict::kHold);
          },
          &args));
      --blocked_;
    }
    mark.store(tag_, std::memory_order_relaxed);
    std::atomic_signal_fence(std::memory_order_seq_cst);
  }
}

void GlobalState::OpenStreamWork() {
  ascend::MutexLock lock(&mu_);  // unlocking wakes the calls held at the gate
  stream_work_.store(static_cast<uint32_t>(StreamWork::kOpen),
                     std::memory_order_seq_cst);
}

absl::StatusOr<bool> GlobalState::CloseStreamWork(
    absl::Time deadline, absl::FunctionRef<bool()> quiet) {
  auto store = [this](StreamWork work) {
    stream_work_.store(static_cast<uint32_t>(work), std::memory_order_seq_cst);
  };
  // The caller's own call in flight (a Backup from a report callback, say)
  // is not waited for, as in Lock.
  const std::atomic<uint32_t>* caller_mark = &internal::tls_gate_mark;
  {
    ascend::MutexLock lock(&mu_);
    if (state() != ProcessState::kLocked || locking_) {
      return Error(ACL_ERROR_SNAPSHOT_BACKUP_FAILED,
                   "closing the gate to stream work needs a completed Lock");
    }
    store(StreamWork::kClosing);
    // Pairs with the fence of stream work in EnterSlow.
    internal::FullFence();
    auto settled = [this, caller_mark]() ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_) {
      return state() != ProcessState::kLocked ||
             BusyThreads(tag_, caller_mark) +
                     counted_.load(std::memory_order_acquire) ==
                 0;
    };
    const bool ok = mu_.AwaitWithDeadline(absl::Condition(&settled), deadline);
    if (state() != ProcessState::kLocked) {
      store(StreamWork::kOpen);
      return Error(ACL_ERROR_SNAPSHOT_BACKUP_FAILED,
                   "process state changed while draining the streams");
    }
    if (!ok) {
      const int busy = BusyThreads(tag_, caller_mark);
      store(StreamWork::kOpen);
      return absl::DeadlineExceededError(
          absl::StrCat(busy, " call(s) made by stream work still in progress"));
    }
  }
  // New stream work waits at the gate meanwhile, so if no stream has work
  // now, none can get any: only stream work and stage callbacks make gated
  // calls while LOCKED.
  const bool is_quiet = quiet();
  ascend::MutexLock lock(&mu_);
  if (state() != ProcessState::kLocked) {
    store(StreamWork::kOpen);
    return Error(ACL_ERROR_SNAPSHOT_BACKUP_FAILED,
                 "process state changed while draining the streams");
  }
  store(is_quiet ? StreamWork::kClosed : StreamWork::kOpen);
  return is_quiet;
}

void GlobalState::ExitSlow() {
  if (fallback_bits_ != 0) internal::FullFence();
  // A Lock may be waiting for this call.
  if (state() != ProcessState::kRunning) NotifyDrain();
}

void GlobalState::NotifyDrain() {
  // ascend::Mutex re-evaluates waiters' conditions when it is released.
  ascend::MutexLock lock(&mu_);
}

void GlobalState::StoreStateLocked(ProcessState state) {
  word_->store(fallback_bits_ | static_cast<uint32_t>(state),
               std::memory_order_seq_cst);
}

void GlobalState::HeavyBarrier() const {
  if (fallback_bits_ != 0) {
    internal::FullFence();
  } else {
    internal::Membarrier();
  }
}

bool GlobalState::QuiescentLocked(const std::atomic<uint32_t>* caller_mark) {
  return parked_ == static_cast<int>(background_.size()) &&
         BusyThreads(tag_, caller_mark) +
                 counted_.load(std::memory_order_acquire) ==
             0;
}

absl::Status GlobalState::Lock() {
  ascend::MutexLock lock(&mu_);
  if (state() != ProcessState::kRunning) {
    return Error(ACL_ERROR_SNAPSHOT_LOCK_FAILED,
                 absl::StrCat("cannot lock: process state is ",
                              ProcessStateName(static_cast<int32_t>(state()))));
  }
  if (word_ == &internal::g_process_state.value) RegisterExitHook();
  // Each lock period admits stream work until a Backup drains the streams.
  stream_work_.store(static_cast<uint32_t>(StreamWork::kOpen),
                     std::memory_order_seq_cst);
  StoreStateLocked(ProcessState::kLocked);
  const uint64_t epoch = ++lock_epoch_;
  locking_ = true;  // until this function returns (mu_ held at every return)
  struct Done {
    bool& flag;
    ~Done() { flag = false; }
  } done_locking{locking_};
  // After this, every thread either sees LOCKED at the gate (and, leaving a
  // call, notifies this wait) or has its in-flight mark visible to the scan.
  HeavyBarrier();
  for (BackgroundThread* bg : background_) {
    bg->Wake(Pass());
  }
  const absl::Time deadline = absl::Now() + options_.timeout;
  // A Lock made from inside a gated call (a report callback, say) does not
  // wait for that call: it is the caller's own, and would never finish.
  const std::atomic<uint32_t>* caller_mark = &internal::tls_gate_mark;
  auto done = [this, epoch, caller_mark]() ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_) {
    return state() != ProcessState::kLocked || lock_epoch_ != epoch ||
           QuiescentLocked(caller_mark);
  };
  bool quiescent = mu_.AwaitWithDeadline(absl::Condition(&done), deadline);
  if (state() != ProcessState::kLocked || lock_epoch_ != epoch) {
    return Error(ACL_ERROR_SNAPSHOT_LOCK_FAILED,
                 "process state changed while waiting for the lock");
  }
  if (!quiescent) {
    const int busy = BusyThreads(tag_, caller_mark) +
                     counted_.load(std::memory_order_acquire);
    const int unparked = static_cast<int>(background_.size()) - parked_;
    StoreStateLocked(ProcessState::kRunning);
    return Error(ACL_ERROR_SNAPSHOT_LOCK_TIMEOUT,
                 absl::StrCat("lock timed out after ",
                              absl::FormatDuration(options_.timeout), ": ",
                              unparked, " background thread(s) not parked, ",
                              busy, " API call(s) still in progress"));
  }
  return absl::OkStatus();
}

bool GlobalState::LockInProgress() {
  ascend::MutexLock lock(&mu_);
  return locking_;
}

absl::Status GlobalState::Unlock() {
  ascend::MutexLock lock(&mu_);
  if (state() == ProcessState::kRunning) {
    return Error(ACL_ERROR_SNAPSHOT_UNLOCK_FAILED,
                 "cannot unlock: process is RUNNING");
  }
  StoreStateLocked(ProcessState::kRunning);
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
  StoreStateLocked(desired);
  return true;
}

void GlobalState::ForceUnlock() {
  ascend::MutexLock lock(&mu_);
  StoreStateLocked(ProcessState::kRunning);
}

int GlobalState::blocked_callers() const {
  ascend::MutexLock lock(&mu_);
  return blocked_;
}

std::unique_ptr<GlobalState::BackgroundThread>
GlobalState::RegisterBackgroundThread(std::string name,
                                      std::function<void()> wake) {
  std::unique_ptr<BackgroundThread> bg(
      new BackgroundThread(Pass(), this, std::move(name), std::move(wake)));
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
  owner_->mu_.Await(absl::Condition(&IsRunning, owner_->word_));
  parked_ = false;
  --owner_->parked_;
}

}  // namespace ascend::rt
