#include "runtime/global_state.h"

#include <linux/membarrier.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <climits>
#include <condition_variable>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/time/clock.h"
#include "absl/time/time.h"
#include "acl/error_codes/rt_error_codes.h"
#include "gtest/gtest.h"
#include "runtime/base/error.h"
#include "testing/status_matchers.h"

namespace ascend::rt {
namespace {

constexpr int32_t kLockTimeout = 507905;
constexpr int32_t kLockFailed = 507906;
constexpr int32_t kUnlockFailed = 507907;
static_assert(kLockTimeout == ACL_ERROR_SNAPSHOT_LOCK_TIMEOUT);
static_assert(kLockFailed == ACL_ERROR_SNAPSHOT_LOCK_FAILED);
static_assert(kUnlockFailed == ACL_ERROR_SNAPSHOT_UNLOCK_FAILED);

GlobalState::Options WithTimeout(absl::Duration timeout) {
  GlobalState::Options options;
  options.timeout = timeout;
  return options;
}

// Polls `pred` until it holds or `limit` passes; every wait in this file is
// bounded.
bool WaitFor(const std::function<bool()>& pred,
             absl::Duration limit = absl::Seconds(5)) {
  const absl::Time deadline = absl::Now() + limit;
  while (!pred()) {
    if (absl::Now() > deadline) return false;
    std::this_thread::sleep_for(std::chrono::microseconds(200));
  }
  return true;
}

// Checks that `pred` stays true for `period`.
bool StaysTrue(const std::function<bool()>& pred,
               absl::Duration period = absl::Milliseconds(20)) {
  const absl::Time end = absl::Now() + period;
  while (absl::Now() < end) {
    if (!pred()) return false;
    std::this_thread::sleep_for(std::chrono::microseconds(200));
  }
  return pred();
}

// Owns test threads. On destruction (also when an assertion bails out early)
// runs `release` so that nothing stays blocked, then joins.
class Threads {
 public:
  explicit Threads(std::function<void()> release)
      : release_(std::move(release)) {}
  ~Threads() { JoinAll(); }
  template <typename F>
  void Start(F&& f) {
    threads_.emplace_back(std::forward<F>(f));
  }
  void JoinAll() {
    if (release_) release_();
    for (std::thread& t : threads_) {
      if (t.joinable()) t.join();
    }
    threads_.clear();
  }

 private:
  std::function<void()> release_;
  std::vector<std::thread> threads_;
};

// A runtime-style background thread: parks when locked, otherwise waits for
// work until its wake function (or Stop) interrupts the wait. Observable
// phases let the tests see where it is.
class Worker {
 public:
  enum Phase : int { kStarting, kWaitingForWork, kInPark, kStopped };

  Worker(GlobalState& gs, std::string name, bool parks = true) : parks_(parks) {
    handle_ = gs.RegisterBackgroundThread(std::move(name), [this] { Wake(); });
    thread_ = std::thread([this] { Run(); });
  }
  ~Worker() { Stop(); }

  void Stop() {
    {
      std::lock_guard<std::mutex> lock(mu_);
      stop_ = true;
    }
    cv_.notify_all();
    if (thread_.joinable()) thread_.join();
    handle_.reset();
  }
  // Deregisters while the thread keeps running (never parking again).
  void Deregister() { handle_.reset(); }

  Phase phase() const { return static_cast<Phase>(phase_.load()); }
  int wakes() const { return wakes_.load(); }
  int resumes() const { return resumes_.load(); }

 private:
  void Wake() {
    wakes_.fetch_add(1);
    {
      std::lock_guard<std::mutex> lock(mu_);
      woken_ = true;
    }
    cv_.notify_all();
  }

  void Run() {
    for (;;) {
      if (parks_) {
        phase_.store(kInPark);
        handle_->ParkIfLocked();
        resumes_.fetch_add(1);
      }
      phase_.store(kWaitingForWork);
      std::unique_lock<std::mutex> lock(mu_);
      cv_.wait(lock, [this] { return woken_ || stop_; });
      woken_ = false;
      if (stop_) break;
    }
    phase_.store(kStopped);
  }

  const bool parks_;
  std::unique_ptr<GlobalState::BackgroundThread> handle_;
  std::mutex mu_;
  std::condition_variable cv_;
  bool woken_ = false;
  bool stop_ = false;
  std::atomic<int> phase_{kStarting};
  std::atomic<int> wakes_{0};
  std::atomic<int> resumes_{0};
  std::thread thread_;
};

// --- Names and plain transitions ------------------------------------------

TEST(ProcessStateNameTest, NamesEveryStateAndUnknown) {
  EXPECT_STREQ(ProcessStateName(0), "RUNNING");
  EXPECT_STREQ(ProcessStateName(1), "LOCKED");
  EXPECT_STREQ(ProcessStateName(2), "BACKED_UP");
  EXPECT_STREQ(ProcessStateName(3), "UNKNOWN");
  EXPECT_STREQ(ProcessStateName(-1), "UNKNOWN");
  EXPECT_STREQ(ProcessStateName(INT_MAX), "UNKNOWN");
  EXPECT_STREQ(ProcessStateName(INT_MIN), "UNKNOWN");
  EXPECT_STREQ(ProcessStateName(static_cast<int32_t>(ProcessState::kBackedUp)),
               "BACKED_UP");
}

TEST(GlobalStateTest, StartsRunningWithConfiguredTimeout) {
  GlobalState gs(WithTimeout(absl::Milliseconds(1234)));
  EXPECT_EQ(gs.state(), ProcessState::kRunning);
  EXPECT_EQ(gs.timeout(), absl::Milliseconds(1234));
  EXPECT_EQ(gs.blocked_callers(), 0);
  EXPECT_EQ(GlobalState::Options().timeout, absl::Seconds(60));
}

TEST(GlobalStateTest, LockThenUnlock) {
  GlobalState gs(WithTimeout(absl::Seconds(2)));
  ASSERT_OK(gs.Lock());
  EXPECT_EQ(gs.state(), ProcessState::kLocked);
  ASSERT_OK(gs.Unlock());
  EXPECT_EQ(gs.state(), ProcessState::kRunning);
  // And again: a lock session leaves nothing behind.
  ASSERT_OK(gs.Lock());
  ASSERT_OK(gs.Unlock());
  EXPECT_EQ(gs.state(), ProcessState::kRunning);
}

TEST(GlobalStateTest, LockWhenLockedFailsWith507906AndKeepsState) {
  GlobalState gs(WithTimeout(absl::Seconds(2)));
  ASSERT_OK(gs.Lock());
  absl::Status again = gs.Lock();
  EXPECT_FALSE(again.ok());
  EXPECT_EQ(ErrorCode(again), kLockFailed) << again;
  EXPECT_EQ(gs.state(), ProcessState::kLocked);
  EXPECT_OK(gs.Unlock());
}

TEST(GlobalStateTest, LockWhenBackedUpFailsWith507906AndKeepsState) {
  GlobalState gs(WithTimeout(absl::Seconds(2)));
  ASSERT_OK(gs.Lock());
  ASSERT_TRUE(
      gs.CompareAndSetState(ProcessState::kLocked, ProcessState::kBackedUp));
  absl::Status again = gs.Lock();
  EXPECT_EQ(ErrorCode(again), kLockFailed) << again;
  EXPECT_EQ(gs.state(), ProcessState::kBackedUp);
  // Unlock is allowed from BACKED_UP.
  EXPECT_OK(gs.Unlock());
  EXPECT_EQ(gs.state(), ProcessState::kRunning);
}

TEST(GlobalStateTest, UnlockWhenRunningFailsWith507907) {
  GlobalState gs(WithTimeout(absl::Seconds(2)));
  absl::Status s = gs.Unlock();
  EXPECT_FALSE(s.ok());
  EXPECT_EQ(ErrorCode(s), kUnlockFailed) << s;
  EXPECT_EQ(gs.state(), ProcessState::kRunning);
  ASSERT_OK(gs.Lock());
  ASSERT_OK(gs.Unlock());
  EXPECT_EQ(ErrorCode(gs.Unlock()), kUnlockFailed);
}

TEST(GlobalStateTest, CompareAndSetStateOnlyMovesFromExpected) {
  GlobalState gs(WithTimeout(absl::Seconds(2)));
  EXPECT_FALSE(
      gs.CompareAndSetState(ProcessState::kLocked, ProcessState::kBackedUp));
  EXPECT_EQ(gs.state(), ProcessState::kRunning);
  EXPECT_FALSE(
      gs.CompareAndSetState(ProcessState::kBackedUp, ProcessState::kLocked));
  EXPECT_EQ(gs.state(), ProcessState::kRunning);

  ASSERT_OK(gs.Lock());
  EXPECT_FALSE(
      gs.CompareAndSetState(ProcessState::kRunning, ProcessState::kBackedUp));
  EXPECT_EQ(gs.state(), ProcessState::kLocked);
  EXPECT_TRUE(
      gs.CompareAndSetState(ProcessState::kLocked, ProcessState::kBackedUp));
  EXPECT_EQ(gs.state(), ProcessState::kBackedUp);
  EXPECT_FALSE(
      gs.CompareAndSetState(ProcessState::kLocked, ProcessState::kBackedUp));
  EXPECT_EQ(gs.state(), ProcessState::kBackedUp);
  // Restore's transition.
  EXPECT_TRUE(
      gs.CompareAndSetState(ProcessState::kBackedUp, ProcessState::kLocked));
  EXPECT_EQ(gs.state(), ProcessState::kLocked);
  EXPECT_OK(gs.Unlock());
  EXPECT_EQ(gs.state(), ProcessState::kRunning);
}

TEST(GlobalStateTest, ForceUnlockFromEveryState) {
  GlobalState gs(WithTimeout(absl::Seconds(2)));
  gs.ForceUnlock();  // RUNNING: no-op
  EXPECT_EQ(gs.state(), ProcessState::kRunning);
  ASSERT_OK(gs.Lock());
  gs.ForceUnlock();
  EXPECT_EQ(gs.state(), ProcessState::kRunning);
  ASSERT_OK(gs.Lock());
  ASSERT_TRUE(
      gs.CompareAndSetState(ProcessState::kLocked, ProcessState::kBackedUp));
  gs.ForceUnlock();
  EXPECT_EQ(gs.state(), ProcessState::kRunning);
  // Usable afterwards.
  ASSERT_OK(gs.Lock());
  EXPECT_OK(gs.Unlock());
}

// --- The gate ---------------------------------------------------------------

TEST(GateTest, FastPathDoesNotBlockWhenRunning) {
  GlobalState gs(WithTimeout(absl::Seconds(2)));
  std::atomic<int> done{0};
  Threads threads([&] { gs.ForceUnlock(); });
  for (int t = 0; t < 2; ++t) {
    threads.Start([&] {
      for (int i = 0; i < 10000; ++i) {
        ApiScope scope(gs);
      }
      done.fetch_add(1);
    });
  }
  EXPECT_TRUE(WaitFor([&] { return done.load() == 2; }));
  EXPECT_EQ(gs.blocked_callers(), 0);
  EXPECT_EQ(gs.state(), ProcessState::kRunning);
  for (int i = 0; i < 1000; ++i) {
    ApiScope scope(gs);
  }
}

// Starts a thread that passes the gate once; returns its "ran" flag.
void StartGateCaller(Threads& threads, GlobalState& gs, std::atomic<int>& ran) {
  threads.Start([&gs, &ran] {
    ApiScope scope(gs);
    ran.fetch_add(1);
  });
}

TEST(GateTest, BlocksWhileLockedUntilUnlock) {
  GlobalState gs(WithTimeout(absl::Seconds(2)));
  ASSERT_OK(gs.Lock());
  std::atomic<int> ran{0};
  Threads threads([&] { gs.ForceUnlock(); });
  StartGateCaller(threads, gs, ran);
  StartGateCaller(threads, gs, ran);
  ASSERT_TRUE(WaitFor([&] { return gs.blocked_callers() == 2; }));
  EXPECT_TRUE(StaysTrue([&] { return ran.load() == 0; }));
  ASSERT_OK(gs.Unlock());
  EXPECT_TRUE(WaitFor([&] { return ran.load() == 2; }));
  EXPECT_TRUE(WaitFor([&] { return gs.blocked_callers() == 0; }));
}

TEST(GateTest, BlocksWhileBackedUpUntilUnlock) {
  GlobalState gs(WithTimeout(absl::Seconds(2)));
  ASSERT_OK(gs.Lock());
  ASSERT_TRUE(
      gs.CompareAndSetState(ProcessState::kLocked, ProcessState::kBackedUp));
  std::atomic<int> ran{0};
  Threads threads([&] { gs.ForceUnlock(); });
  StartGateCaller(threads, gs, ran);
  ASSERT_TRUE(WaitFor([&] { return gs.blocked_callers() == 1; }));
  // Restore goes back to LOCKED: still blocked.
  ASSERT_TRUE(
      gs.CompareAndSetState(ProcessState::kBackedUp, ProcessState::kLocked));
  EXPECT_TRUE(StaysTrue([&] { return ran.load() == 0; }));
  EXPECT_EQ(gs.blocked_callers(), 1);
  ASSERT_OK(gs.Unlock());
  EXPECT_TRUE(WaitFor([&] { return ran.load() == 1; }));
}

TEST(GateTest, BlockedCallersWakeOnForceUnlock) {
  GlobalState gs(WithTimeout(absl::Seconds(2)));
  ASSERT_OK(gs.Lock());
  std::atomic<int> ran{0};
  Threads threads([&] { gs.ForceUnlock(); });
  for (int i = 0; i < 3; ++i) StartGateCaller(threads, gs, ran);
  ASSERT_TRUE(WaitFor([&] { return gs.blocked_callers() == 3; }));
  EXPECT_TRUE(StaysTrue([&] { return ran.load() == 0; }));
  gs.ForceUnlock();
  EXPECT_TRUE(WaitFor([&] { return ran.load() == 3; }));
  EXPECT_TRUE(WaitFor([&] { return gs.blocked_callers() == 0; }));
  EXPECT_EQ(gs.state(), ProcessState::kRunning);
}

TEST(GateTest, CallersThatMissTheUnlockWindowBlockAgain) {
  // Unlock and lock again at once while callers are blocked: the callers
  // that got through in between have finished when Lock returns, the others
  // block again until the next Unlock.
  GlobalState gs(WithTimeout(absl::Seconds(2)));
  std::atomic<int> ran{0};
  std::atomic<int> inside{0};
  Threads threads([&] { gs.ForceUnlock(); });
  ASSERT_OK(gs.Lock());
  for (int i = 0; i < 4; ++i) {
    threads.Start([&] {
      ApiScope scope(gs);
      inside.fetch_add(1);
      std::this_thread::yield();
      ran.fetch_add(1);
      inside.fetch_sub(1);
    });
  }
  ASSERT_TRUE(WaitFor([&] { return gs.blocked_callers() == 4; }));
  ASSERT_OK(gs.Unlock());
  ASSERT_OK(gs.Lock());
  EXPECT_EQ(inside.load(), 0);
  const int through = ran.load();
  EXPECT_TRUE(StaysTrue([&] { return ran.load() == through; }));
  EXPECT_EQ(gs.blocked_callers(), 4 - through);
  ASSERT_OK(gs.Unlock());
  EXPECT_TRUE(WaitFor([&] { return ran.load() == 4; }));
}

TEST(GateTest, NestedEntryOnTheSameThreadNeverBlocks) {
  GlobalState gs(WithTimeout(absl::Seconds(5)));
  std::atomic<bool> outer_entered{false};
  std::atomic<bool> nested_done{false};
  std::atomic<bool> nested_saw_locked{false};
  absl::Status lock_status = absl::UnknownError("not run");
  Threads threads([&] { gs.ForceUnlock(); });
  threads.Start([&] {
    ApiScope outer(gs);
    outer_entered.store(true);
    // Lock is now waiting for this in-flight call.
    if (!WaitFor([&] { return gs.state() == ProcessState::kLocked; })) return;
    nested_saw_locked.store(true);
    {
      ApiScope nested(gs);
      internal::GateToken token = gs.EnterApi();  // and one more level
      gs.ExitApi(token);
    }
    nested_done.store(true);
  });
  ASSERT_TRUE(WaitFor([&] { return outer_entered.load(); }));
  std::atomic<bool> lock_returned{false};
  threads.Start([&] {
    lock_status = gs.Lock();
    lock_returned.store(true);
  });
  ASSERT_TRUE(WaitFor([&] { return lock_returned.load(); }));
  EXPECT_OK(lock_status);
  EXPECT_TRUE(nested_saw_locked.load());
  EXPECT_TRUE(nested_done.load());
  EXPECT_EQ(gs.blocked_callers(), 0);
  EXPECT_OK(gs.Unlock());
}

TEST(GateTest, NestedEntryWhileLockedDoesNotBlockButNewCallDoes) {
  // A thread that is inside a gated call when the state leaves RUNNING (here
  // by CompareAndSetState, so nothing waits for it) can still nest.
  GlobalState gs(WithTimeout(absl::Seconds(2)));
  std::atomic<bool> outer_entered{false};
  std::atomic<bool> proceed{false};
  std::atomic<bool> nested_done{false};
  std::atomic<int> ran{0};
  Threads threads([&] {
    proceed.store(true);
    gs.ForceUnlock();
  });
  threads.Start([&] {
    internal::GateToken outer = gs.EnterApi();
    outer_entered.store(true);
    WaitFor([&] { return proceed.load(); });
    {
      ApiScope nested(gs);
      ApiScope nested_again(gs);
    }
    nested_done.store(true);
    gs.ExitApi(outer);
  });
  ASSERT_TRUE(WaitFor([&] { return outer_entered.load(); }));
  ASSERT_TRUE(
      gs.CompareAndSetState(ProcessState::kRunning, ProcessState::kLocked));
  proceed.store(true);
  ASSERT_TRUE(WaitFor([&] { return nested_done.load(); }));
  EXPECT_EQ(gs.blocked_callers(), 0);
  StartGateCaller(threads, gs, ran);
  ASSERT_TRUE(WaitFor([&] { return gs.blocked_callers() == 1; }));
  EXPECT_EQ(ran.load(), 0);
  ASSERT_OK(gs.Unlock());
  EXPECT_TRUE(WaitFor([&] { return ran.load() == 1; }));
}

TEST(GateTest, InstancesAreIndependent) {
  GlobalState a(WithTimeout(absl::Seconds(2)));
  GlobalState b(WithTimeout(absl::Seconds(2)));
  ASSERT_OK(a.Lock());
  std::atomic<int> ran_b{0};
  std::atomic<int> ran_a{0};
  Threads threads([&] {
    a.ForceUnlock();
    b.ForceUnlock();
  });
  threads.Start([&] {
    {
      ApiScope in_b(b);
      ran_b.fetch_add(1);
    }
    ApiScope in_a(a);
    ran_a.fetch_add(1);
  });
  EXPECT_TRUE(WaitFor([&] { return ran_b.load() == 1; }));
  ASSERT_TRUE(WaitFor([&] { return a.blocked_callers() == 1; }));
  EXPECT_EQ(b.blocked_callers(), 0);
  EXPECT_EQ(ran_a.load(), 0);
  // Locking b while a thread is blocked in a's gate works.
  ASSERT_OK(b.Lock());
  ASSERT_OK(b.Unlock());
  ASSERT_OK(a.Unlock());
  EXPECT_TRUE(WaitFor([&] { return ran_a.load() == 1; }));
}

TEST(GateTest, ExitedThreadsDoNotHoldUpLock) {
  GlobalState gs(WithTimeout(absl::Seconds(2)));
  for (int round = 0; round < 3; ++round) {
    std::vector<std::thread> threads;
    for (int i = 0; i < 8; ++i) {
      threads.emplace_back([&] {
        for (int k = 0; k < 100; ++k) ApiScope scope(gs);
      });
    }
    for (std::thread& t : threads) t.join();
    ASSERT_OK(gs.Lock());
    ASSERT_OK(gs.Unlock());
  }
}

TEST(GateTest, LockWaitsOnlyForCallsOfItsOwnInstance) {
  GlobalState a(WithTimeout(absl::Seconds(10)));
  GlobalState b(WithTimeout(absl::Seconds(10)));
  std::atomic<bool> entered{false};
  std::atomic<bool> nested_in_b{false};
  std::atomic<bool> release{false};
  std::atomic<bool> a_locked{false};
  Threads threads([&] {
    release.store(true);
    a.ForceUnlock();
    b.ForceUnlock();
  });
  threads.Start([&] {
    ApiScope in_a(a);
    { ApiScope nested(b); }  // nested in a's call: part of it
    nested_in_b.store(true);
    entered.store(true);
    WaitFor([&] { return release.load(); }, absl::Seconds(10));
  });
  ASSERT_TRUE(WaitFor([&] { return entered.load(); }));
  // A call in flight on a does not hold up b's Lock.
  const absl::Time start = absl::Now();
  ASSERT_OK(b.Lock());
  EXPECT_LT(absl::Now() - start, absl::Seconds(2));
  ASSERT_OK(b.Unlock());
  // a's Lock waits for it and is notified when it ends, long before the
  // timeout.
  threads.Start([&] {
    if (a.Lock().ok()) a_locked.store(true);
  });
  EXPECT_TRUE(StaysTrue([&] { return !a_locked.load(); }));
  const absl::Time released = absl::Now();
  release.store(true);
  EXPECT_TRUE(WaitFor([&] { return a_locked.load(); }));
  EXPECT_LT(absl::Now() - released, absl::Seconds(2));
  EXPECT_TRUE(nested_in_b.load());
  EXPECT_OK(a.Unlock());
}

// The process singleton's gate (ACL_GATE) blocks and resumes like an
// instance's. The singleton is shared with nothing else in this binary.
TEST(ProcessGateTest, BlocksWhileTheSingletonIsLocked) {
  GlobalState& gs = GlobalState::Get();
  { ProcessApiScope first; }  // constructs the singleton if needed
  ASSERT_EQ(gs.state(), ProcessState::kRunning);
  ASSERT_OK(gs.Lock());
  std::atomic<int> ran{0};
  Threads threads([&] { gs.ForceUnlock(); });
  threads.Start([&] {
    ProcessApiScope scope;
    { ProcessApiScope nested; }
    ran.fetch_add(1);
  });
  ASSERT_TRUE(WaitFor([&] { return gs.blocked_callers() == 1; }));
  EXPECT_TRUE(StaysTrue([&] { return ran.load() == 0; }));
  ASSERT_OK(gs.Unlock());
  EXPECT_TRUE(WaitFor([&] { return ran.load() == 1; }));
}

TEST(ProcessGateTest, LockWaitsForASingletonCallInFlight) {
  GlobalState& gs = GlobalState::Get();
  std::atomic<bool> entered{false};
  std::atomic<bool> release{false};
  std::atomic<bool> locked{false};
  Threads threads([&] {
    release.store(true);
    gs.ForceUnlock();
  });
  threads.Start([&] {
    ProcessApiScope scope;
    entered.store(true);
    WaitFor([&] { return release.load(); }, absl::Seconds(10));
  });
  ASSERT_TRUE(WaitFor([&] { return entered.load(); }));
  threads.Start([&] {
    if (gs.Lock().ok()) locked.store(true);
  });
  EXPECT_TRUE(StaysTrue([&] { return !locked.load(); }));
  release.store(true);
  EXPECT_TRUE(WaitFor([&] { return locked.load(); }));
  EXPECT_OK(gs.Unlock());
}

// A gated call made by a thread_local destructor that runs after the gate's
// own per-thread teardown (thread_locals constructed before the thread's
// first gated call are destroyed after it) is still tracked: it blocks while
// locked, and Lock waits for it.
struct TeardownCall {
  static inline GlobalState* gs = nullptr;
  static inline std::atomic<bool> entered{false};
  static inline std::atomic<bool> release{false};
  static inline std::atomic<bool> done{false};
  ~TeardownCall() {
    ApiScope scope(*gs);
    { ApiScope nested(*gs); }
    entered.store(true);
    WaitFor([] { return release.load(); }, absl::Seconds(10));
    done.store(true);
  }
};

TEST(GateTest, CallsFromLateThreadExitDestructorsAreTracked) {
  GlobalState gs(WithTimeout(absl::Seconds(5)));
  TeardownCall::gs = &gs;
  std::atomic<bool> locked{false};
  std::thread t([&] {
    static thread_local TeardownCall teardown;  // constructed first
    (void)teardown;
    ApiScope first(gs);  // registers the thread after it
  });
  ASSERT_TRUE(WaitFor([] { return TeardownCall::entered.load(); }));
  std::thread locker([&] {
    if (gs.Lock().ok()) locked.store(true);
  });
  EXPECT_TRUE(StaysTrue([&] { return !locked.load(); }));
  TeardownCall::release.store(true);
  EXPECT_TRUE(WaitFor([&] { return locked.load(); }));
  locker.join();
  t.join();
  EXPECT_TRUE(TeardownCall::done.load());
  EXPECT_OK(gs.Unlock());

  // While locked, such a call blocks until Unlock. (The thread registers
  // through another instance: the marks are process-wide.)
  GlobalState other(WithTimeout(absl::Seconds(5)));
  TeardownCall::entered.store(false);
  TeardownCall::done.store(false);
  ASSERT_OK(gs.Lock());
  std::thread t2([&] {
    static thread_local TeardownCall teardown;
    (void)teardown;
    ApiScope first(other);
  });
  EXPECT_TRUE(WaitFor([&] { return gs.blocked_callers() == 1; }));
  EXPECT_TRUE(StaysTrue([] { return !TeardownCall::entered.load(); }));
  ASSERT_OK(gs.Unlock());
  t2.join();
  EXPECT_TRUE(TeardownCall::done.load());
}

// --- DESIGN.md §4.3: nothing in flight once Lock succeeds ---------------

// Switches the process to the full-fence fallback of the gate for one scope.
class FenceFallback {
 public:
  FenceFallback() : saved_(internal::g_heavy_barrier_available.load()) {
    internal::g_heavy_barrier_available.store(false);
  }
  ~FenceFallback() { internal::g_heavy_barrier_available.store(saved_); }

 private:
  const bool saved_;
};

// Workers hammer gated critical sections. Each worker writes its own plain
// (non-atomic) cell inside the gate, and reads a plain value that the lock
// holder writes only while locked: under TSan this checks that the gate
// orders memory in both directions, not just that the counter drops to zero.
// Runs `cycles` lock sessions, or as many as fit in `budget` (at least
// `kMinCycles`), so that slow sanitizer builds stay quick.
void HammerLockCycles(int cycles, absl::Duration budget) {
  constexpr int kMinCycles = 20;
  const absl::Time soft_deadline = absl::Now() + budget;
  constexpr int kWorkers = 4;
  GlobalState gs(WithTimeout(absl::Seconds(5)));
  std::atomic<bool> stop{false};
  std::atomic<int> inside{0};
  std::atomic<int64_t> ops{0};
  std::atomic<int> stale_reads{0};
  int64_t cells[kWorkers] = {};
  int generation = 0;  // written only while locked
  Threads threads([&] {
    stop.store(true);
    gs.ForceUnlock();
  });
  for (int w = 0; w < kWorkers; ++w) {
    threads.Start([&, w] {
      int last_generation = 0;
      while (!stop.load(std::memory_order_relaxed)) {
        ApiScope scope(gs);
        inside.fetch_add(1);
        ++cells[w];
        if (generation < last_generation) stale_reads.fetch_add(1);
        last_generation = generation;
        // Nested calls inside an in-flight call are part of it.
        if ((cells[w] & 7) == 0) ApiScope nested(gs);
        inside.fetch_sub(1);
        ops.fetch_add(1, std::memory_order_relaxed);
      }
    });
  }
  int violations = 0;
  int cycle = 0;
  for (; cycle < cycles; ++cycle) {
    if (cycle >= kMinCycles && absl::Now() > soft_deadline) break;
    const int64_t before = ops.load();
    // Let the workers run (and be inside their critical sections) first.
    ASSERT_TRUE(WaitFor([&] { return ops.load() > before + kWorkers; }))
        << "workers made no progress in cycle " << cycle;
    absl::Status s = gs.Lock();
    if (inside.load() != 0) ++violations;
    ASSERT_OK(s) << "cycle " << cycle;
    int64_t sum = 0;
    for (int64_t c : cells) sum += c;
    ++generation;
    for (int k = 0; k < 20; ++k) {
      if (inside.load() != 0) ++violations;
      std::this_thread::yield();
    }
    int64_t sum_after = 0;
    for (int64_t c : cells) sum_after += c;
    EXPECT_EQ(sum, sum_after) << "a worker ran while locked, cycle " << cycle;
    if (inside.load() != 0) ++violations;
    ASSERT_OK(gs.Unlock()) << "cycle " << cycle;
  }
  EXPECT_EQ(violations, 0);
  EXPECT_GE(cycle, kMinCycles);
  stop.store(true);
  threads.JoinAll();
  EXPECT_EQ(stale_reads.load(), 0);
  int64_t total = 0;
  for (int64_t c : cells) total += c;
  EXPECT_EQ(total, ops.load());
}

TEST(InFlightTest, NoGatedCallInProgressOnceLockSucceeds) {
  HammerLockCycles(150, absl::Seconds(2));
}

TEST(InFlightTest, HoldsWithTheFullFenceFallback) {
  // The flag is process-wide; no other thread uses a gate while this test
  // runs, and every thread that does is started after the change and joined
  // before it is undone.
  FenceFallback fallback;
  HammerLockCycles(60, absl::Seconds(1));
}

TEST(InFlightTest, CallStuckInFlightMakesLockTimeOutWith507905) {
  GlobalState gs(WithTimeout(absl::Milliseconds(200)));
  std::atomic<bool> entered{false};
  std::atomic<bool> release{false};
  Threads threads([&] {
    release.store(true);
    gs.ForceUnlock();
  });
  threads.Start([&] {
    ApiScope scope(gs);
    entered.store(true);
    WaitFor([&] { return release.load(); }, absl::Seconds(10));
  });
  ASSERT_TRUE(WaitFor([&] { return entered.load(); }));
  const absl::Time start = absl::Now();
  absl::Status s = gs.Lock();
  const absl::Duration took = absl::Now() - start;
  EXPECT_EQ(ErrorCode(s), kLockTimeout) << s;
  EXPECT_NE(s.message().find("1 API call(s)"), absl::string_view::npos) << s;
  EXPECT_GE(took, absl::Milliseconds(190));
  EXPECT_LT(took, absl::Seconds(3));
  EXPECT_EQ(gs.state(), ProcessState::kRunning);
  release.store(true);
  threads.JoinAll();
  ASSERT_OK(gs.Lock());
  EXPECT_OK(gs.Unlock());
}

TEST(InFlightTest, LockWaitsForTheInFlightCallAndIsNotifiedWhenItEnds) {
  // The timeout is long: Lock must return because the call's exit notifies
  // it, not because a deadline passed.
  GlobalState gs(WithTimeout(absl::Seconds(20)));
  std::atomic<bool> entered{false};
  std::atomic<bool> release{false};
  std::atomic<bool> exited{false};
  Threads threads([&] {
    release.store(true);
    gs.ForceUnlock();
  });
  threads.Start([&] {
    {
      ApiScope scope(gs);
      entered.store(true);
      WaitFor([&] { return release.load(); }, absl::Seconds(10));
      exited.store(true);
    }
  });
  ASSERT_TRUE(WaitFor([&] { return entered.load(); }));
  std::atomic<bool> lock_returned{false};
  absl::Status lock_status = absl::UnknownError("not run");
  threads.Start([&] {
    lock_status = gs.Lock();
    lock_returned.store(true);
  });
  ASSERT_TRUE(WaitFor([&] { return gs.state() == ProcessState::kLocked; }));
  EXPECT_TRUE(
      StaysTrue([&] { return !lock_returned.load(); }, absl::Milliseconds(50)));
  const absl::Time released_at = absl::Now();
  release.store(true);
  ASSERT_TRUE(WaitFor([&] { return lock_returned.load(); }, absl::Seconds(5)));
  EXPECT_LT(absl::Now() - released_at, absl::Seconds(2));
  EXPECT_OK(lock_status);
  EXPECT_TRUE(exited.load());
  EXPECT_OK(gs.Unlock());
}

// --- Stream work (DESIGN.md §4.3) -------------------------------------------

// Runs one gated call of `kind` stream work on a new thread and returns
// whether the gate refused it.
bool StreamWorkCall(GlobalState& gs, StreamWorkScope::Kind kind) {
  bool refused = false;
  std::thread([&] {
    StreamWorkScope work(kind);
    ApiScope scope(gs);
    refused = scope.refused();
  }).join();
  return refused;
}

TEST(StreamWorkTest, ProceedsWhileLockedAndIsRefusedOnceClosed) {
  GlobalState gs(WithTimeout(absl::Seconds(5)));
  ASSERT_OK(gs.Lock());
  // Admitted while LOCKED (a plain call would block here).
  EXPECT_FALSE(StreamWorkCall(gs, StreamWorkScope::kTask));
  EXPECT_FALSE(StreamWorkCall(gs, StreamWorkScope::kReportCallback));
  bool asked = false;
  absl::StatusOr<bool> closed =
      gs.CloseStreamWork(absl::Now() + absl::Seconds(5), [&] {
        asked = true;
        return true;
      });
  ASSERT_OK(closed.status());
  EXPECT_TRUE(*closed);
  EXPECT_TRUE(asked);
  EXPECT_TRUE(StreamWorkCall(gs, StreamWorkScope::kTask));
  ASSERT_TRUE(
      gs.CompareAndSetState(ProcessState::kLocked, ProcessState::kBackedUp));
  EXPECT_TRUE(StreamWorkCall(gs, StreamWorkScope::kTask));
  EXPECT_EQ(gs.blocked_callers(), 0);
  ASSERT_OK(gs.Unlock());
  EXPECT_FALSE(StreamWorkCall(gs, StreamWorkScope::kTask));
  // A new lock period admits stream work again.
  ASSERT_OK(gs.Lock());
  EXPECT_FALSE(StreamWorkCall(gs, StreamWorkScope::kTask));
  ASSERT_OK(gs.Unlock());
}

TEST(StreamWorkTest, AReportCallbackIsHeldOnceClosedUntilUnlock) {
  GlobalState gs(WithTimeout(absl::Seconds(5)));
  ASSERT_OK(gs.Lock());
  ASSERT_OK(gs.CloseStreamWork(absl::Now() + absl::Seconds(5), [] {
                return true;
              }).status());
  std::atomic<bool> inside{false};
  std::atomic<bool> refused{true};
  Threads threads([&] { gs.ForceUnlock(); });
  threads.Start([&] {
    StreamWorkScope work(StreamWorkScope::kReportCallback);
    ApiScope scope(gs);
    refused = scope.refused();
    inside = true;
  });
  ASSERT_TRUE(WaitFor([&] { return gs.blocked_callers() == 1; }));
  EXPECT_TRUE(StaysTrue([&] { return !inside.load(); }));
  // The next Backup's drain opens the gate again.
  gs.OpenStreamWork();
  ASSERT_TRUE(WaitFor([&] { return inside.load(); }));
  EXPECT_FALSE(refused.load());
  EXPECT_EQ(gs.state(), ProcessState::kLocked);
  ASSERT_OK(gs.Unlock());
}

// Closing waits for stream work in flight, holds new stream work meanwhile,
// and opens the gate again when a stream is still busy.
TEST(StreamWorkTest, ClosingWaitsForCallsInFlightAndReopensWhenNotQuiet) {
  GlobalState gs(WithTimeout(absl::Seconds(20)));
  ASSERT_OK(gs.Lock());
  std::atomic<bool> entered{false};
  std::atomic<bool> release{false};
  Threads threads([&] {
    release = true;
    gs.ForceUnlock();
  });
  threads.Start([&] {
    StreamWorkScope work(StreamWorkScope::kTask);
    ApiScope scope(gs);
    entered = true;
    WaitFor([&] { return release.load(); }, absl::Seconds(10));
  });
  ASSERT_TRUE(WaitFor([&] { return entered.load(); }));
  std::atomic<bool> close_returned{false};
  std::atomic<bool> quiet_asked{false};
  absl::StatusOr<bool> closed = absl::UnknownError("not run");
  threads.Start([&] {
    closed = gs.CloseStreamWork(absl::Now() + absl::Seconds(10), [&] {
      quiet_asked = true;
      return false;  // a stream still has work
    });
    close_returned = true;
  });
  // A second task arriving now is held, not refused.
  std::atomic<bool> second_inside{false};
  std::atomic<bool> second_refused{true};
  absl::SleepFor(absl::Milliseconds(100));  // CloseStreamWork is waiting
  threads.Start([&] {
    StreamWorkScope work(StreamWorkScope::kTask);
    ApiScope scope(gs);
    second_refused = scope.refused();
    second_inside = true;
  });
  EXPECT_TRUE(WaitFor([&] { return gs.blocked_callers() == 1; }));
  EXPECT_TRUE(StaysTrue([&] {
    return !close_returned.load() && !quiet_asked.load() &&
           !second_inside.load();
  }));
  release = true;
  ASSERT_TRUE(WaitFor([&] { return close_returned.load(); }));
  ASSERT_OK(closed.status());
  EXPECT_FALSE(*closed);
  EXPECT_TRUE(quiet_asked.load());
  ASSERT_TRUE(WaitFor([&] { return second_inside.load(); }));
  EXPECT_FALSE(second_refused.load());
  ASSERT_OK(gs.Unlock());
}

TEST(StreamWorkTest, ClosingNeedsACompletedLock) {
  GlobalState gs(WithTimeout(absl::Seconds(5)));
  absl::StatusOr<bool> closed =
      gs.CloseStreamWork(absl::Now() + absl::Seconds(1), [] { return true; });
  EXPECT_EQ(ErrorCode(closed.status()), ACL_ERROR_SNAPSHOT_BACKUP_FAILED);
  // A plain call is unaffected by stream-work scopes of other threads.
  ApiScope scope(gs);
  EXPECT_FALSE(scope.refused());
}

// --- Background threads ------------------------------------------------------

TEST(BackgroundTest, LockReturnsOnlyAfterAllParkAndUnlockResumesThem) {
  constexpr int kThreads = 4;
  GlobalState gs(WithTimeout(absl::Seconds(5)));
  std::vector<std::unique_ptr<Worker>> workers;
  Threads cleanup([&] {
    gs.ForceUnlock();
    workers.clear();
  });
  for (int i = 0; i < kThreads; ++i) {
    workers.push_back(
        std::make_unique<Worker>(gs, "bg" + std::to_string(i), true));
  }
  auto all_in = [&](Worker::Phase phase) {
    for (auto& w : workers) {
      if (w->phase() != phase) return false;
    }
    return true;
  };
  for (int cycle = 0; cycle < 5; ++cycle) {
    ASSERT_TRUE(WaitFor([&] { return all_in(Worker::kWaitingForWork); }))
        << "cycle " << cycle;
    std::vector<int> wakes_before;
    for (auto& w : workers) wakes_before.push_back(w->wakes());
    ASSERT_OK(gs.Lock()) << "cycle " << cycle;
    // Lock called every wake function once, and each thread is parked.
    for (int i = 0; i < kThreads; ++i) {
      EXPECT_EQ(workers[i]->wakes(), wakes_before[i] + 1);
    }
    EXPECT_TRUE(all_in(Worker::kInPark));
    std::vector<int> resumes_before;
    for (auto& w : workers) resumes_before.push_back(w->resumes());
    EXPECT_TRUE(StaysTrue([&] { return all_in(Worker::kInPark); }));
    for (int i = 0; i < kThreads; ++i) {
      EXPECT_EQ(workers[i]->resumes(), resumes_before[i]);
    }
    ASSERT_OK(gs.Unlock()) << "cycle " << cycle;
    EXPECT_TRUE(WaitFor([&] {
      for (int i = 0; i < kThreads; ++i) {
        if (workers[i]->resumes() != resumes_before[i] + 1) return false;
      }
      return true;
    }));
  }
}

TEST(BackgroundTest, WakeFunctionMayBeEmpty) {
  GlobalState gs(WithTimeout(absl::Seconds(2)));
  auto bg = gs.RegisterBackgroundThread("no-wake", nullptr);
  std::atomic<bool> parked{false};
  std::atomic<bool> resumed{false};
  Threads threads([&] { gs.ForceUnlock(); });
  threads.Start([&] {
    // Polls for the lock itself (no wake function to interrupt it).
    WaitFor([&] { return gs.state() != ProcessState::kRunning; });
    parked.store(true);
    bg->ParkIfLocked();
    resumed.store(true);
  });
  ASSERT_OK(gs.Lock());
  EXPECT_TRUE(parked.load());
  EXPECT_TRUE(StaysTrue([&] { return !resumed.load(); }));
  ASSERT_OK(gs.Unlock());
  EXPECT_TRUE(WaitFor([&] { return resumed.load(); }));
  threads.JoinAll();
  bg.reset();
}

TEST(BackgroundTest, ParkIfLockedReturnsAtOnceWhenRunning) {
  GlobalState gs(WithTimeout(absl::Seconds(2)));
  auto bg = gs.RegisterBackgroundThread("idle", [] {});
  for (int i = 0; i < 1000; ++i) bg->ParkIfLocked();
  bg.reset();
  ASSERT_OK(gs.Lock());
  EXPECT_OK(gs.Unlock());
}

TEST(BackgroundTest, ThreadThatNeverParksMakesLockTimeOutAndRollsBack) {
  // Long enough for the callers below to block while Lock still waits, even
  // on a loaded machine.
  GlobalState gs(WithTimeout(absl::Seconds(1)));
  Worker stubborn(gs, "stubborn", /*parks=*/false);
  std::atomic<int> ran{0};
  absl::Status lock_status = absl::UnknownError("not run");
  std::atomic<bool> lock_returned{false};
  absl::Duration took;
  Threads threads([&] { gs.ForceUnlock(); });
  threads.Start([&] {
    const absl::Time start = absl::Now();
    lock_status = gs.Lock();
    took = absl::Now() - start;
    lock_returned.store(true);
  });
  ASSERT_TRUE(WaitFor([&] { return gs.state() == ProcessState::kLocked; }));
  // Callers arriving while Lock waits block, and wake on the rollback.
  StartGateCaller(threads, gs, ran);
  StartGateCaller(threads, gs, ran);
  ASSERT_TRUE(WaitFor([&] { return gs.blocked_callers() == 2; }));
  EXPECT_EQ(ran.load(), 0);
  ASSERT_TRUE(WaitFor([&] { return lock_returned.load(); }));
  EXPECT_EQ(ErrorCode(lock_status), kLockTimeout) << lock_status;
  EXPECT_NE(lock_status.message().find("1 background thread(s) not parked"),
            absl::string_view::npos)
      << lock_status;
  EXPECT_GE(took, absl::Milliseconds(990));
  EXPECT_LT(took, absl::Seconds(4));
  EXPECT_EQ(gs.state(), ProcessState::kRunning);
  EXPECT_TRUE(WaitFor([&] { return ran.load() == 2; }));
  EXPECT_EQ(stubborn.wakes(), 1);
  // Nothing was left half-locked: Unlock says RUNNING.
  EXPECT_EQ(ErrorCode(gs.Unlock()), kUnlockFailed);
}

TEST(BackgroundTest, DeregisteringWhileLockWaitsLetsLockSucceed) {
  GlobalState gs(WithTimeout(absl::Seconds(20)));
  Worker stubborn(gs, "leaving", /*parks=*/false);
  Worker good(gs, "good", /*parks=*/true);
  absl::Status lock_status = absl::UnknownError("not run");
  std::atomic<bool> lock_returned{false};
  Threads threads([&] { gs.ForceUnlock(); });
  threads.Start([&] {
    lock_status = gs.Lock();
    lock_returned.store(true);
  });
  ASSERT_TRUE(WaitFor([&] { return gs.state() == ProcessState::kLocked; }));
  ASSERT_TRUE(WaitFor([&] { return good.phase() == Worker::kInPark; }));
  EXPECT_TRUE(
      StaysTrue([&] { return !lock_returned.load(); }, absl::Milliseconds(50)));
  const absl::Time deregistered_at = absl::Now();
  stubborn.Deregister();
  ASSERT_TRUE(WaitFor([&] { return lock_returned.load(); }));
  EXPECT_LT(absl::Now() - deregistered_at, absl::Seconds(2));
  EXPECT_OK(lock_status);
  EXPECT_EQ(gs.state(), ProcessState::kLocked);
  EXPECT_OK(gs.Unlock());
  EXPECT_TRUE(WaitFor([&] { return good.resumes() >= 2; }));
}

TEST(BackgroundTest, ThreadRegisteredAfterLockDoesNotBreakUnlock) {
  GlobalState gs(WithTimeout(absl::Seconds(2)));
  ASSERT_OK(gs.Lock());
  {
    Worker late(gs, "late", /*parks=*/true);
    Threads guard([&] { gs.ForceUnlock(); });
    ASSERT_TRUE(WaitFor([&] { return late.phase() == Worker::kInPark; }));
    EXPECT_TRUE(StaysTrue([&] { return late.resumes() == 0; }));
    ASSERT_OK(gs.Unlock());
    EXPECT_TRUE(WaitFor([&] { return late.resumes() == 1; }));
  }
  ASSERT_OK(gs.Lock());
  EXPECT_OK(gs.Unlock());
}

TEST(BackgroundTest, ForceUnlockWakesParkedThreadsAndBlockedCallers) {
  GlobalState gs(WithTimeout(absl::Seconds(5)));
  std::vector<std::unique_ptr<Worker>> workers;
  Threads cleanup([&] {
    gs.ForceUnlock();
    workers.clear();
  });
  for (int i = 0; i < 3; ++i) {
    workers.push_back(std::make_unique<Worker>(gs, "bg", true));
  }
  for (auto& w : workers) {
    ASSERT_TRUE(WaitFor([&] { return w->phase() == Worker::kWaitingForWork; }));
  }
  ASSERT_OK(gs.Lock());
  ASSERT_TRUE(
      gs.CompareAndSetState(ProcessState::kLocked, ProcessState::kBackedUp));
  std::atomic<int> ran{0};
  Threads callers([&] { gs.ForceUnlock(); });
  StartGateCaller(callers, gs, ran);
  StartGateCaller(callers, gs, ran);
  ASSERT_TRUE(WaitFor([&] { return gs.blocked_callers() == 2; }));
  for (auto& w : workers) EXPECT_EQ(w->resumes(), 1);

  gs.ForceUnlock();
  EXPECT_EQ(gs.state(), ProcessState::kRunning);
  EXPECT_TRUE(WaitFor([&] { return ran.load() == 2; }));
  for (auto& w : workers) {
    EXPECT_TRUE(WaitFor([&] { return w->resumes() == 2; }));
  }
  callers.JoinAll();
  // The parked bookkeeping is consistent afterwards: a new session works.
  for (auto& w : workers) {
    ASSERT_TRUE(WaitFor([&] { return w->phase() == Worker::kWaitingForWork; }));
  }
  ASSERT_OK(gs.Lock());
  EXPECT_OK(gs.Unlock());
  for (auto& w : workers) {
    EXPECT_TRUE(WaitFor([&] { return w->resumes() == 3; }));
  }
}

TEST(BackgroundTest, ForceUnlockWhileLockWaitsFailsLockWith507906) {
  GlobalState gs(WithTimeout(absl::Seconds(20)));
  Worker stubborn(gs, "stubborn", /*parks=*/false);
  absl::Status lock_status = absl::UnknownError("not run");
  std::atomic<bool> lock_returned{false};
  Threads threads([&] { gs.ForceUnlock(); });
  threads.Start([&] {
    lock_status = gs.Lock();
    lock_returned.store(true);
  });
  ASSERT_TRUE(WaitFor([&] { return gs.state() == ProcessState::kLocked; }));
  const absl::Time forced_at = absl::Now();
  gs.ForceUnlock();
  ASSERT_TRUE(WaitFor([&] { return lock_returned.load(); }));
  EXPECT_LT(absl::Now() - forced_at, absl::Seconds(2));
  EXPECT_EQ(ErrorCode(lock_status), kLockFailed) << lock_status;
  EXPECT_EQ(gs.state(), ProcessState::kRunning);
}

TEST(BackgroundTest, SecondLockWhileTheFirstWaitsFailsWith507906) {
  GlobalState gs(WithTimeout(absl::Seconds(1)));
  Worker stubborn(gs, "stubborn", /*parks=*/false);
  absl::Status first = absl::UnknownError("not run");
  std::atomic<bool> first_returned{false};
  Threads threads([&] { gs.ForceUnlock(); });
  threads.Start([&] {
    first = gs.Lock();
    first_returned.store(true);
  });
  ASSERT_TRUE(WaitFor([&] { return gs.state() == ProcessState::kLocked; }));
  absl::Status second = gs.Lock();
  EXPECT_EQ(ErrorCode(second), kLockFailed) << second;
  ASSERT_TRUE(WaitFor([&] { return first_returned.load(); }));
  EXPECT_EQ(ErrorCode(first), kLockTimeout) << first;
}

// --- Barriers ----------------------------------------------------------------

bool KernelOffersPrivateExpeditedMembarrier() {
  long supported = syscall(__NR_membarrier, MEMBARRIER_CMD_QUERY, 0, 0);
  if (supported < 0 || (supported & MEMBARRIER_CMD_PRIVATE_EXPEDITED) == 0) {
    return false;
  }
  // Registering again is harmless and tells whether it is permitted here.
  return syscall(__NR_membarrier, MEMBARRIER_CMD_REGISTER_PRIVATE_EXPEDITED, 0,
                 0) == 0;
}

TEST(BarrierTest, HeavyBarrierAvailabilityMatchesTheKernel) {
  GlobalState gs(WithTimeout(absl::Seconds(1)));  // decides availability
  EXPECT_EQ(internal::g_heavy_barrier_available.load(),
            KernelOffersPrivateExpeditedMembarrier());
}

TEST(BarrierTest, BarriersAreCallableOnBothPaths) {
  GlobalState gs(WithTimeout(absl::Seconds(1)));
  std::atomic<bool> stop{false};
  std::thread other([&] {
    while (!stop.load()) internal::LightBarrier();
  });
  for (int i = 0; i < 100; ++i) {
    internal::LightBarrier();
    internal::HeavyBarrier();
  }
  stop.store(true);
  other.join();
  FenceFallback fallback;
  internal::LightBarrier();
  internal::HeavyBarrier();
  ASSERT_OK(gs.Lock());
  EXPECT_OK(gs.Unlock());
}

}  // namespace
}  // namespace ascend::rt
