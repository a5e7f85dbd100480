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
// The gate's fast path (state RUNNING, thread not inside another gated call)
// is: load the thread's in-flight mark, store "in flight", a compiler barrier,
// one acquire load of the state word; on exit, store "idle" and one relaxed
// load of the state word. No read-modify-write, no fence, and no value the
// next call depends on (the mark's load only confirms a predicted branch).
// The heavy half of the store/load ordering is paid by Lock through
// membarrier(2) (an asymmetric barrier); where membarrier is unavailable a
// flag bit in the state word sends every call to the slow path, which uses a
// full fence. This lets Lock guarantee that when it returns success no
// resource-modifying call is in progress in any thread (DESIGN.md §4.3).
//
// Each thread has one in-flight mark: 0 when idle, else the tag of the
// instance its outermost gated call is in (the process singleton's is 1;
// only tests create more instances). Lock waits for the calls of its own
// instance only, so instances stay independent, and a call nested in any
// gated call never blocks.
//
// Stream work (DESIGN.md §4.3, §5.7). A gated call made by work a stream is
// waiting for -- a task on a stream executor (StreamWorkScope::kTask), or a
// report thread already inside aclrtProcessReport starting a callback
// (kReportCallback) -- does not block while the process is LOCKED: Backup's
// drain waits for that stream, so blocking would deadlock it. It proceeds
// until a Backup has drained the streams (CloseStreamWork); from then on,
// until Unlock or the next Backup's drain, a task's call is refused
// (GateToken::kRefused, ACL_ERROR_RT_NO_PERMISSION) instead of blocking and a
// report callback waits for the Unlock. All of this is on the slow path: the
// RUNNING fast path is unchanged.
//
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
#include "absl/functional/function_ref.h"
#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/synchronization/mutex.h"
#include "absl/time/time.h"
#include "device/base/mutex.h"

namespace ascend::rt {

enum class ProcessState : int32_t { kRunning = 0, kLocked = 1, kBackedUp = 2 };

// "RUNNING", "LOCKED", "BACKED_UP", or "UNKNOWN" for any other value.
const char* ProcessStateName(int32_t state);

namespace internal {
// A thread's in-flight mark (one per thread).
inline constexpr uint32_t kMarkIdle = 0;          // registered, not in a call
inline constexpr uint32_t kMarkInFlight = 1;      // in a call of the singleton
inline constexpr uint32_t kMarkUnregistered = 2;  // never passed a gate
inline constexpr uint32_t kMarkExiting = 3;       // thread-exit teardown ran
// Tags of other instances: in a call of that instance.
inline constexpr uint32_t kFirstInstanceTag = 16;
// Defined here, with a constant initialiser and a trivial destructor, so the
// fast path reaches it with one %fs-relative access (no TLS-init call).
inline thread_local std::atomic<uint32_t> tls_gate_mark
    ABSL_ATTRIBUTE_INITIAL_EXEC{kMarkUnregistered};

// The state word: the ProcessState in the low byte, plus bits that send every
// gated call to the slow path while set.
inline constexpr uint32_t kStateMask = 0xff;
inline constexpr uint32_t kFenceFallbackBit = 0x100;   // no membarrier(2)
inline constexpr uint32_t kNotConstructedBit = 0x200;  // singleton not built
// The process singleton's state word. A namespace-scope variable so that the
// gate of every ACL entry point reads it at a fixed address, with no call to
// GlobalState::Get() on the fast path. On a cache line of its own: every
// gated call reads it, so no frequently written variable may share it.
struct alignas(64) CacheLineWord {
  std::atomic<uint32_t> value;
};
inline CacheLineWord g_process_state{{kNotConstructedBit}};

// What EnterApi hands to ExitApi.
enum class GateToken : uint8_t {
  kNested = 0,     // inside another gated call: nothing to undo
  kOutermost = 1,  // this thread's mark was set
  kCounted = 2,    // exiting thread: counted in the shared in-flight counter
  // Stream work after Backup's drain: not admitted, nothing to undo. The call
  // must fail with GateRefusal() and change nothing.
  kRefused = 3,
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
    return static_cast<ProcessState>(word_->load(std::memory_order_acquire) &
                                     internal::kStateMask);
  }
  absl::Duration timeout() const { return options_.timeout; }

  // --- The gate -----------------------------------------------------------
  // Enter blocks while the state is not RUNNING (unless the thread is already
  // inside a gated call); Exit ends the call. Use ApiScope (this instance) or
  // ProcessApiScope (the process singleton, what ACL entry points use).
  internal::GateToken EnterApi() { return Enter(*word_, this, tag_); }
  void ExitApi(internal::GateToken token) { Exit(*word_, this, token); }

  // The same on the process singleton, without calling Get() on the fast
  // path (it is constructed by the first call's slow path).
  static internal::GateToken EnterProcessApi() {
    return Enter(internal::g_process_state.value, nullptr,
                 internal::kMarkInFlight);
  }
  static void ExitProcessApi(internal::GateToken token) {
    Exit(internal::g_process_state.value, nullptr, token);
  }

  // --- Transitions (exact codes of the reference, DESIGN.md §4.2) -------
  // RUNNING -> LOCKED, then waits for background threads to park and
  // in-flight gated calls to finish. 507906 when not RUNNING or when the state
  // changed while waiting; 507905 on timeout (state rolled back to RUNNING).
  absl::Status Lock();
  // LOCKED|BACKED_UP -> RUNNING, wakes everyone, waits for background threads
  // to resume. 507907 when RUNNING, or when they do not resume in time (the
  // state stays RUNNING).
  absl::Status Unlock();
  // True while a Lock has set LOCKED but still waits for background threads
  // and calls in flight (an Unlock now cancels it: it returns 507906).
  bool LockInProgress();
  // Atomically moves `expected` -> `desired`; false (no change) otherwise.
  bool CompareAndSetState(ProcessState expected, ProcessState desired);
  // Any state -> RUNNING, wakes everyone. Never fails, runs no callbacks.
  void ForceUnlock();

  // --- Background threads -------------------------------------------------
 private:
  // A pass only this class can make (its constructor is explicit and the
  // type is private): it lets GlobalState alone construct and wake
  // background threads, without friendship.
  struct Pass {
    explicit Pass() = default;
  };

 public:
  class BackgroundThread {
   public:
    ~BackgroundThread();  // deregisters
    // Parks the calling thread while the state is not RUNNING.
    void ParkIfLocked();

    BackgroundThread(Pass, GlobalState* owner, std::string name,
                     std::function<void()> wake)
        : owner_(owner), name_(std::move(name)), wake_(std::move(wake)) {}
    // Makes the thread reach ParkIfLocked (Lock calls it).
    void Wake(Pass) const {
      if (wake_) wake_();
    }

   private:
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

  // --- Stream work during a Backup (DESIGN.md §4.3) -----------------------
  // Admits stream work again (a Backup calls it before draining: an earlier
  // Backup of the same lock period may have closed it).
  void OpenStreamWork();
  // Closes the gate to stream work once no stream has work left. With new
  // stream work held at the gate, waits until no gated call of this instance
  // is in flight (but the caller's) and asks `quiet` whether any stream still
  // has work. If none does, the gate stays closed -- tasks' calls are refused
  // and report callbacks wait, until Unlock or OpenStreamWork -- and the
  // result is true; otherwise the gate opens again (the held calls proceed)
  // and the result is false: drain again and retry. `quiet` runs without
  // this object's lock. 507908 unless LOCKED with the Lock completed;
  // kDeadlineExceeded past `deadline` (the gate is then open).
  absl::StatusOr<bool> CloseStreamWork(absl::Time deadline,
                                       absl::FunctionRef<bool()> quiet);

 private:
  // `self` is null for the process singleton.
  ABSL_ATTRIBUTE_ALWAYS_INLINE static internal::GateToken Enter(
      std::atomic<uint32_t>& word, GlobalState* self, uint32_t tag) {
    std::atomic<uint32_t>& mark = internal::tls_gate_mark;
    // One branch for both conditions: the previous mark (idle unless nested,
    // unregistered or exiting; the uncommon path puts it back) and the
    // state word (0 unless not RUNNING or a slow-path bit is set).
    const uint32_t previous = mark.load(std::memory_order_relaxed);
    mark.store(tag, std::memory_order_relaxed);
    // Orders the mark before the state load against Lock's membarrier(2).
    std::atomic_signal_fence(std::memory_order_seq_cst);
    // Acquire (a plain load on x86): a call that starts after an Unlock sees
    // what the lock holder wrote while the state was not RUNNING.
    const uint32_t state_word = word.load(std::memory_order_acquire);
    if (ABSL_PREDICT_FALSE((previous | state_word) != 0)) {
      return EnterUncommon(self, previous);
    }
    return internal::GateToken::kOutermost;
  }
  ABSL_ATTRIBUTE_ALWAYS_INLINE static void Exit(std::atomic<uint32_t>& word,
                                                GlobalState* self,
                                                internal::GateToken token) {
    if (ABSL_PREDICT_FALSE(token != internal::GateToken::kOutermost)) {
      if (token == internal::GateToken::kCounted) Resolve(self)->ExitCounted();
      return;
    }
    // Release: Lock, seeing the mark idle, sees everything the call did.
    internal::tls_gate_mark.store(internal::kMarkIdle,
                                  std::memory_order_release);
    std::atomic_signal_fence(std::memory_order_seq_cst);
    if (ABSL_PREDICT_FALSE(word.load(std::memory_order_relaxed) != 0)) {
      Resolve(self)->ExitSlow();
    }
  }
  static GlobalState* Resolve(GlobalState* self) {
    return self != nullptr ? self : &Get();
  }
  // Admission of stream work while not RUNNING.
  enum class StreamWork : uint32_t {
    kOpen = 0,     // admitted
    kClosing = 1,  // CloseStreamWork is deciding: held at the gate
    kClosed = 2,   // the streams are drained: refused (tasks) or held
  };
  // What the gate does with the calling thread's stream work now.
  enum class Verdict { kAdmit, kRefuse, kHold };
  Verdict StreamWorkVerdict(int work_kind) const;

  static internal::GateToken EnterUncommon(GlobalState* self,
                                           uint32_t previous_mark);
  internal::GateToken EnterSlow();
  void ExitSlow();
  void ExitCounted();
  void NotifyDrain();
  void StoreStateLocked(ProcessState state) ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_);
  // Background threads parked and no call in flight but the caller's own.
  bool QuiescentLocked(const std::atomic<uint32_t>* caller_mark)
      ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_);
  void HeavyBarrier() const;
  static void RegisterExitHook();

  GlobalState(Options options, bool singleton);

  const Options options_;
  // The state word: the process singleton's is g_process_state.value, any
  // other instance's is own_word_.
  std::atomic<uint32_t> own_word_{0};
  std::atomic<uint32_t>* const word_;
  // kFenceFallbackBit when this instance was built without membarrier(2).
  const uint32_t fallback_bits_;
  // What this instance's calls write into the in-flight mark.
  const uint32_t tag_;
  // Calls in flight counted instead of marked (thread teardown, see .cc).
  std::atomic<int32_t> counted_{0};

  mutable ascend::Mutex mu_;
  std::vector<BackgroundThread*> background_ ABSL_GUARDED_BY(mu_);
  int parked_ ABSL_GUARDED_BY(mu_) = 0;
  // Incremented by every Lock, so a Lock that waits notices a newer one.
  uint64_t lock_epoch_ ABSL_GUARDED_BY(mu_) = 0;
  bool locking_ ABSL_GUARDED_BY(mu_) = false;  // a Lock is still waiting
  int blocked_ ABSL_GUARDED_BY(mu_) = 0;
  // A StreamWork; written under mu_, read by the gate's slow path.
  std::atomic<uint32_t> stream_work_{0};
};

// What a call the gate refused returns: ACL_ERROR_RT_NO_PERMISSION (207006),
// with a message saying why (DESIGN.md §4.3).
absl::Status GateRefusal();

// RAII form of the gate on one GlobalState instance.
class ApiScope {
 public:
  explicit ApiScope(GlobalState& state)
      : state_(state), token_(state.EnterApi()) {}
  ApiScope(const ApiScope&) = delete;
  ApiScope& operator=(const ApiScope&) = delete;
  ~ApiScope() { state_.ExitApi(token_); }
  // The gate refused the call (stream work after Backup's drain): return
  // GateRefusal() and change nothing.
  bool refused() const { return token_ == internal::GateToken::kRefused; }

 private:
  GlobalState& state_;
  const internal::GateToken token_;
};

// While one is alive on a thread, that thread's gated calls do not block.
// The snapshot runs its stage callbacks in one: the lock holder is waiting
// for the callback, so a gated call it makes (aclrtFree, say, or a query
// that opens the default device) proceeds instead of deadlocking the
// process.
class StageCallbackScope {
 public:
  StageCallbackScope();
  ~StageCallbackScope();
  StageCallbackScope(const StageCallbackScope&) = delete;
  StageCallbackScope& operator=(const StageCallbackScope&) = delete;
  static bool Active();
};

// Marks the calling thread's gated calls as stream work while alive (see the
// comment at the top). Stream executors hold a kTask scope while a task runs;
// aclrtProcessReport holds a kReportCallback scope around the gate it passes
// before running a callback. Scopes nest; the innermost decides.
class StreamWorkScope {
 public:
  enum Kind : int {
    kNone = 0,
    // A task on a stream executor: refused once the streams are drained.
    kTask = 1,
    // A report thread starting a callback: held once the streams are drained
    // (nothing waits for it then), until Unlock or the next Backup's drain.
    kReportCallback = 2,
  };
  explicit StreamWorkScope(Kind kind);
  ~StreamWorkScope();
  StreamWorkScope(const StreamWorkScope&) = delete;
  StreamWorkScope& operator=(const StreamWorkScope&) = delete;
  static Kind Current();

 private:
  const Kind previous_;
};

// RAII form of the gate on the process singleton (GlobalState::Get()).
class ProcessApiScope {
 public:
  ProcessApiScope() : token_(GlobalState::EnterProcessApi()) {}
  ProcessApiScope(const ProcessApiScope&) = delete;
  ProcessApiScope& operator=(const ProcessApiScope&) = delete;
  ~ProcessApiScope() { GlobalState::ExitProcessApi(token_); }
  // See ApiScope::refused(). A constant false on the fast path.
  bool refused() const { return token_ == internal::GateToken::kRefused; }

 private:
  const internal::GateToken token_;
};

}  // namespace ascend::rt

#endif  // ASCENDCL_RUNTIME_GLOBAL_STATE_H_
