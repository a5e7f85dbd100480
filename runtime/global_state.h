// The process-wide snapshot state (RUNNING -> LOCKED -> BACKED_UP), the gate
// every resource-modifying API call passes through, and the parking of the
// runtime's background threads.
//
//   // At the top of every resource-modifying entry point:
//   ApiScope scope(GlobalState::Get());   // blocks while not RUNNING
//
//   // A runtime background thread:
//   auto bg = GlobalState::Get().RegisterBackgroundThread("monitor", wake_fn);
//   while (running) { bg->ParkIfLocked(); ...wait for work...; }
//
// The gate's fast path (state RUNNING) is a thread-local store, a compiler
// barrier and one acquire load of the state: the heavy half of the
// store/load ordering is paid by Lock, through membarrier(2) (an asymmetric
// barrier), with a seq_cst fence on the fast path only where membarrier is
// unavailable. This lets Lock guarantee that when it returns success no
// resource-modifying call is in progress in any thread (CONTRACT item 15).
//
// Lock and Unlock wait by notification (condition variable), bounded by the
// timeout given in Options (process singleton: ACL_SNAPSHOT_TIMEOUT_MS,
// default 60 s). The process singleton registers an atexit handler that forces
// the state back to RUNNING so blocked threads wake and the process exits.
#ifndef ASCENDCL_RUNTIME_GLOBAL_STATE_H_
#define ASCENDCL_RUNTIME_GLOBAL_STATE_H_

#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "absl/base/attributes.h"
#include "absl/base/config.h"
#include "absl/base/optimization.h"
#include "absl/base/thread_annotations.h"
#include "absl/status/status.h"
#include "absl/synchronization/mutex.h"
#include "absl/time/time.h"
#include "device/base/mutex.h"

namespace ascend::rt {

enum class ProcessState : int32_t { kRunning = 0, kLocked = 1, kBackedUp = 2 };

// "RUNNING", "LOCKED", "BACKED_UP", or "UNKNOWN" for any other value.
const char* ProcessStateName(int32_t state);

namespace internal {
// One per thread that ever passed the gate of a GlobalState instance.
struct GateSlot {
  std::atomic<uint32_t> depth{0};
  std::atomic<bool> dead{false};
};
// True when membarrier(2) provides the heavy side of the asymmetric barrier;
// decided once, before the first GlobalState is constructed.
extern std::atomic<bool> g_heavy_barrier_available;
// A full barrier. ThreadSanitizer does not model fences (GCC rejects them
// under -fsanitize=thread), so there it is a seq_cst read-modify-write of one
// shared word: of any two such RMWs one reads from the other, which orders
// the store before each with the load after the other, as a pair of fences
// would.
inline void FullFence() {
#ifdef ABSL_HAVE_THREAD_SANITIZER
  static std::atomic<uint32_t> word{0};
  word.fetch_add(0, std::memory_order_seq_cst);
#else
  std::atomic_thread_fence(std::memory_order_seq_cst);
#endif
}
// The cheap side: a compiler barrier, or a full fence as a fallback.
inline void LightBarrier() {
  if (ABSL_PREDICT_TRUE(
          g_heavy_barrier_available.load(std::memory_order_relaxed))) {
    std::atomic_signal_fence(std::memory_order_seq_cst);
  } else {
    FullFence();
  }
}
// The expensive side: every other running thread of the process executes a
// full memory barrier before this returns.
void HeavyBarrier();
}  // namespace internal

class GlobalState {
 public:
  struct Options {
    absl::Duration timeout = absl::Seconds(60);
  };

  explicit GlobalState(Options options);
  GlobalState(const GlobalState&) = delete;
  GlobalState& operator=(const GlobalState&) = delete;
  ~GlobalState();

  // The process singleton (never destroyed).
  static GlobalState& Get();

  // Lock-free; never blocks.
  ProcessState state() const {
    return static_cast<ProcessState>(state_.load(std::memory_order_acquire));
  }
  absl::Duration timeout() const { return options_.timeout; }

  // --- The gate -----------------------------------------------------------
  // Enter blocks while the state is not RUNNING (unless the thread is already
  // inside a gated call); Exit ends the call. Use ApiScope.
  internal::GateSlot* EnterApi() {
    internal::GateSlot* slot = CurrentSlot();
    slot->depth.store(slot->depth.load(std::memory_order_relaxed) + 1,
                      std::memory_order_relaxed);
    internal::LightBarrier();
    // Acquire (a plain load on x86): a call that starts after an Unlock sees
    // what the lock holder wrote while the state was not RUNNING.
    if (ABSL_PREDICT_FALSE(state_.load(std::memory_order_acquire) !=
                           static_cast<int32_t>(ProcessState::kRunning))) {
      EnterSlow(slot);
    }
    return slot;
  }
  void ExitApi(internal::GateSlot* slot) {
    slot->depth.store(slot->depth.load(std::memory_order_relaxed) - 1,
                      std::memory_order_release);
    internal::LightBarrier();
    if (ABSL_PREDICT_FALSE(drain_waiters_.load(std::memory_order_relaxed) !=
                           0)) {
      NotifyDrain();
    }
  }

  // --- Transitions (exact codes of the reference, CONTRACT item 19) -------
  // RUNNING -> LOCKED, then waits for background threads to park and
  // in-flight gated calls to finish. 507906 when not RUNNING or when the state
  // changed while waiting; 507905 on timeout (state rolled back to RUNNING).
  absl::Status Lock();
  // LOCKED|BACKED_UP -> RUNNING, wakes everyone, waits for background threads
  // to resume. 507907 when RUNNING, or when they do not resume in time (the
  // state stays RUNNING).
  absl::Status Unlock();
  // Atomically moves `expected` -> `desired`; false (no change) otherwise.
  bool CompareAndSetState(ProcessState expected, ProcessState desired);
  // Any state -> RUNNING, wakes everyone. Never fails, runs no callbacks.
  void ForceUnlock();

  // --- Background threads -------------------------------------------------
  class BackgroundThread {
   public:
    ~BackgroundThread();  // deregisters
    // Parks the calling thread while the state is not RUNNING.
    void ParkIfLocked();

   private:
    friend class GlobalState;
    BackgroundThread(GlobalState* owner, std::string name,
                     std::function<void()> wake)
        : owner_(owner), name_(std::move(name)), wake_(std::move(wake)) {}
    GlobalState* owner_;
    std::string name_;
    std::function<void()> wake_;
    bool parked_ = false;  // guarded by owner_->mu_
  };
  // Registers a runtime background thread. `wake` must make the thread reach
  // ParkIfLocked promptly (e.g. interrupt its wait); Lock calls it with this
  // object's mutex held, so `wake` must not call into this GlobalState, and
  // the thread must not hold a lock `wake` takes when it calls ParkIfLocked.
  std::unique_ptr<BackgroundThread> RegisterBackgroundThread(
      std::string name, std::function<void()> wake);

  // Number of threads currently blocked in the gate (for tests).
  int blocked_callers() const;

 private:
  internal::GateSlot* CurrentSlot() {
    if (ABSL_PREDICT_TRUE(tls_owner_ == id_)) return tls_slot_;
    return CurrentSlotSlow();
  }
  internal::GateSlot* CurrentSlotSlow();
  void EnterSlow(internal::GateSlot* slot);
  void NotifyDrain();
  bool QuiescentLocked() ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_);
  int BusySlotsLocked() ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_);

  // Defined here (not in the .cc) so the fast path needs no TLS-init call.
  // id_ of the instance tls_slot_ belongs to.
  static inline thread_local uint64_t tls_owner_ ABSL_ATTRIBUTE_INITIAL_EXEC =
      0;
  static inline thread_local internal::GateSlot* tls_slot_
      ABSL_ATTRIBUTE_INITIAL_EXEC = nullptr;

  const Options options_;
  const uint64_t id_;
  std::atomic<int32_t> state_{static_cast<int32_t>(ProcessState::kRunning)};
  std::atomic<int32_t> drain_waiters_{0};

  mutable ascend::Mutex mu_;
  std::vector<std::shared_ptr<internal::GateSlot>> slots_ ABSL_GUARDED_BY(mu_);
  std::vector<BackgroundThread*> background_ ABSL_GUARDED_BY(mu_);
  int parked_ ABSL_GUARDED_BY(mu_) = 0;
  // Incremented by every Lock, so a Lock that waits notices a newer one.
  uint64_t lock_epoch_ ABSL_GUARDED_BY(mu_) = 0;
  int blocked_ ABSL_GUARDED_BY(mu_) = 0;
};

// RAII form of the gate.
class ApiScope {
 public:
  explicit ApiScope(GlobalState& state)
      : state_(state), slot_(state.EnterApi()) {}
  ApiScope(const ApiScope&) = delete;
  ApiScope& operator=(const ApiScope&) = delete;
  ~ApiScope() { state_.ExitApi(slot_); }

 private:
  GlobalState& state_;
  internal::GateSlot* slot_;
};

}  // namespace ascend::rt

#endif  // ASCENDCL_RUNTIME_GLOBAL_STATE_H_
