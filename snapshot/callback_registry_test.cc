// Unit tests of the snapshot stage-callback registry (reference §2.7), on
// private instances.
#include "snapshot/callback_registry.h"

#include <climits>
#include <condition_variable>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "absl/time/time.h"
#include "acl/error_codes/rt_error_codes.h"
#include "gtest/gtest.h"
#include "runtime/base/error.h"
#include "runtime/rt_snapshot.h"
#include "testing/sync_helpers.h"

namespace ascend::snapshot {
namespace {

using ::ascend::testing::Event;
using ::ascend::testing::RunWithDeadline;

using rt::ErrorCode;

// Every call of the recording callbacks, as "<name>@<device>".
struct Journal {
  std::mutex mu;
  std::vector<std::string> calls;
  void Add(const char* name, int32_t device, void* args) {
    std::lock_guard<std::mutex> lock(mu);
    calls.push_back(absl::StrCat(name, "@", device));
    last_args = args;
  }
  std::vector<std::string> Take() {
    std::lock_guard<std::mutex> lock(mu);
    return std::move(calls);
  }
  void* last_args = nullptr;
};

// Callbacks get their behaviour from a Ctx passed as args.
struct Ctx {
  Journal* journal = nullptr;
  // Fail (return this value) on this device; -1 never.
  int32_t fail_on_device = -1;
  uint32_t failure_value = 7;
};

uint32_t RecordA(int32_t device, void* args) {
  auto* ctx = static_cast<Ctx*>(args);
  ctx->journal->Add("A", device, args);
  return device == ctx->fail_on_device ? ctx->failure_value : 0;
}
uint32_t RecordB(int32_t device, void* args) {
  auto* ctx = static_cast<Ctx*>(args);
  ctx->journal->Add("B", device, args);
  return device == ctx->fail_on_device ? ctx->failure_value : 0;
}
uint32_t RecordC(int32_t device, void* args) {
  auto* ctx = static_cast<Ctx*>(args);
  ctx->journal->Add("C", device, args);
  return device == ctx->fail_on_device ? ctx->failure_value : 0;
}
uint32_t Succeed(int32_t, void*) { return 0; }

TEST(CallbackRegistryTest, StageOutsideRangeIsParamInvalid) {
  CallbackRegistry registry;
  for (int32_t stage : {-1, 6, 7, 100, INT_MAX, INT_MIN}) {
    SCOPED_TRACE(stage);
    EXPECT_EQ(ErrorCode(registry.Register(stage, &Succeed, nullptr)),
              ACL_ERROR_RT_PARAM_INVALID);
    EXPECT_EQ(ErrorCode(registry.Unregister(stage, &Succeed)),
              ACL_ERROR_RT_PARAM_INVALID);
    EXPECT_EQ(registry.Count(stage), 0);
  }
  for (int32_t stage = 0; stage < CallbackRegistry::kStageCount; ++stage) {
    EXPECT_EQ(registry.Count(stage), 0)
        << "bad registration changed stage " << stage;
  }
}

TEST(CallbackRegistryTest, EveryStageInRangeAccepts) {
  CallbackRegistry registry;
  for (int32_t stage = RT_SNAPSHOT_LOCK_PRE; stage <= RT_SNAPSHOT_UNLOCK_POST;
       ++stage) {
    EXPECT_EQ(ErrorCode(registry.Register(stage, &Succeed, nullptr)), 0)
        << stage;
    EXPECT_EQ(registry.Count(stage), 1);
  }
}

TEST(CallbackRegistryTest, NullCallbackIsParamInvalid) {
  CallbackRegistry registry;
  EXPECT_EQ(
      ErrorCode(registry.Register(RT_SNAPSHOT_LOCK_PRE, nullptr, nullptr)),
      ACL_ERROR_RT_PARAM_INVALID);
  EXPECT_EQ(ErrorCode(registry.Unregister(RT_SNAPSHOT_LOCK_PRE, nullptr)),
            ACL_ERROR_RT_PARAM_INVALID);
  EXPECT_EQ(registry.Count(RT_SNAPSHOT_LOCK_PRE), 0);
}

TEST(CallbackRegistryTest, DuplicateIsRejectedAndItsArgsIgnored) {
  CallbackRegistry registry;
  Journal journal;
  Ctx first{&journal};
  Ctx second{&journal};
  ASSERT_EQ(
      ErrorCode(registry.Register(RT_SNAPSHOT_BACKUP_PRE, &RecordA, &first)),
      0);
  // Same function, same stage: rejected whatever the args.
  EXPECT_EQ(
      ErrorCode(registry.Register(RT_SNAPSHOT_BACKUP_PRE, &RecordA, &second)),
      ACL_ERROR_SNAPSHOT_REGISTER_CALLBACK_FAILED);
  EXPECT_EQ(
      ErrorCode(registry.Register(RT_SNAPSHOT_BACKUP_PRE, &RecordA, &first)),
      ACL_ERROR_SNAPSHOT_REGISTER_CALLBACK_FAILED);
  EXPECT_EQ(
      ErrorCode(registry.Register(RT_SNAPSHOT_BACKUP_PRE, &RecordA, nullptr)),
      ACL_ERROR_SNAPSHOT_REGISTER_CALLBACK_FAILED);
  EXPECT_EQ(registry.Count(RT_SNAPSHOT_BACKUP_PRE), 1);
  // The first registration (and its args) is what runs, once.
  ASSERT_EQ(ErrorCode(registry.Invoke(RT_SNAPSHOT_BACKUP_PRE, {0})), 0);
  EXPECT_EQ(journal.Take(), std::vector<std::string>{"A@0"});
  EXPECT_EQ(journal.last_args, &first);
}

TEST(CallbackRegistryTest, SameFunctionOnSeveralStages) {
  CallbackRegistry registry;
  Journal journal;
  Ctx lock_ctx{&journal};
  Ctx unlock_ctx{&journal};
  ASSERT_EQ(
      ErrorCode(registry.Register(RT_SNAPSHOT_LOCK_PRE, &RecordA, &lock_ctx)),
      0);
  ASSERT_EQ(ErrorCode(registry.Register(RT_SNAPSHOT_UNLOCK_POST, &RecordA,
                                        &unlock_ctx)),
            0);
  EXPECT_EQ(registry.Count(RT_SNAPSHOT_LOCK_PRE), 1);
  EXPECT_EQ(registry.Count(RT_SNAPSHOT_UNLOCK_POST), 1);
  EXPECT_EQ(registry.Count(RT_SNAPSHOT_BACKUP_PRE), 0);

  ASSERT_EQ(ErrorCode(registry.Invoke(RT_SNAPSHOT_UNLOCK_POST, {3})), 0);
  EXPECT_EQ(journal.Take(), std::vector<std::string>{"A@3"});
  EXPECT_EQ(journal.last_args, &unlock_ctx) << "each stage keeps its own args";
  ASSERT_EQ(ErrorCode(registry.Invoke(RT_SNAPSHOT_LOCK_PRE, {1})), 0);
  EXPECT_EQ(journal.Take(), std::vector<std::string>{"A@1"});
  EXPECT_EQ(journal.last_args, &lock_ctx);

  // Unregistering from one stage leaves the other.
  ASSERT_EQ(ErrorCode(registry.Unregister(RT_SNAPSHOT_LOCK_PRE, &RecordA)), 0);
  EXPECT_EQ(registry.Count(RT_SNAPSHOT_LOCK_PRE), 0);
  EXPECT_EQ(registry.Count(RT_SNAPSHOT_UNLOCK_POST), 1);
  ASSERT_EQ(ErrorCode(registry.Invoke(RT_SNAPSHOT_LOCK_PRE, {1})), 0);
  EXPECT_TRUE(journal.Take().empty());
}

TEST(CallbackRegistryTest, UnregisterUnknownIsParamInvalid) {
  CallbackRegistry registry;
  // Stage never registered.
  EXPECT_EQ(ErrorCode(registry.Unregister(RT_SNAPSHOT_RESTORE_PRE, &Succeed)),
            ACL_ERROR_RT_PARAM_INVALID);
  // Registered on another stage only.
  ASSERT_EQ(
      ErrorCode(registry.Register(RT_SNAPSHOT_RESTORE_POST, &Succeed, nullptr)),
      0);
  EXPECT_EQ(ErrorCode(registry.Unregister(RT_SNAPSHOT_RESTORE_PRE, &Succeed)),
            ACL_ERROR_RT_PARAM_INVALID);
  // A different function on the registered stage.
  EXPECT_EQ(ErrorCode(registry.Unregister(RT_SNAPSHOT_RESTORE_POST, &RecordA)),
            ACL_ERROR_RT_PARAM_INVALID);
  EXPECT_EQ(registry.Count(RT_SNAPSHOT_RESTORE_POST), 1);
  // Unregister, then again.
  EXPECT_EQ(ErrorCode(registry.Unregister(RT_SNAPSHOT_RESTORE_POST, &Succeed)),
            0);
  EXPECT_EQ(ErrorCode(registry.Unregister(RT_SNAPSHOT_RESTORE_POST, &Succeed)),
            ACL_ERROR_RT_PARAM_INVALID);
  EXPECT_EQ(registry.Count(RT_SNAPSHOT_RESTORE_POST), 0);
  // Re-registering after unregistering works.
  EXPECT_EQ(
      ErrorCode(registry.Register(RT_SNAPSHOT_RESTORE_POST, &Succeed, nullptr)),
      0);
}

TEST(CallbackRegistryTest, CallbacksOuterLoopDevicesInnerLoop) {
  CallbackRegistry registry;
  Journal journal;
  Ctx ctx{&journal};
  // Registration order B, A, C: the order of calls follows registration.
  ASSERT_EQ(ErrorCode(registry.Register(RT_SNAPSHOT_LOCK_PRE, &RecordB, &ctx)),
            0);
  ASSERT_EQ(ErrorCode(registry.Register(RT_SNAPSHOT_LOCK_PRE, &RecordA, &ctx)),
            0);
  ASSERT_EQ(ErrorCode(registry.Register(RT_SNAPSHOT_LOCK_PRE, &RecordC, &ctx)),
            0);
  ASSERT_EQ(ErrorCode(registry.Invoke(RT_SNAPSHOT_LOCK_PRE, {0, 2, 5})), 0);
  EXPECT_EQ(journal.Take(),
            (std::vector<std::string>{"B@0", "B@2", "B@5", "A@0", "A@2", "A@5",
                                      "C@0", "C@2", "C@5"}));
  // Removing the middle one keeps the others' order.
  ASSERT_EQ(ErrorCode(registry.Unregister(RT_SNAPSHOT_LOCK_PRE, &RecordA)), 0);
  ASSERT_EQ(ErrorCode(registry.Invoke(RT_SNAPSHOT_LOCK_PRE, {1})), 0);
  EXPECT_EQ(journal.Take(), (std::vector<std::string>{"B@1", "C@1"}));
  // Only the invoked stage runs.
  ASSERT_EQ(ErrorCode(registry.Invoke(RT_SNAPSHOT_UNLOCK_POST, {1})), 0);
  EXPECT_TRUE(journal.Take().empty());
}

TEST(CallbackRegistryTest, FirstFailureStopsWithCallbackFailed) {
  CallbackRegistry registry;
  Journal journal;
  Ctx ok{&journal};
  Ctx fails_on_2{&journal, /*fail_on_device=*/2, /*failure_value=*/1};
  ASSERT_EQ(
      ErrorCode(registry.Register(RT_SNAPSHOT_BACKUP_POST, &RecordA, &ok)), 0);
  ASSERT_EQ(ErrorCode(registry.Register(RT_SNAPSHOT_BACKUP_POST, &RecordB,
                                        &fails_on_2)),
            0);
  ASSERT_EQ(
      ErrorCode(registry.Register(RT_SNAPSHOT_BACKUP_POST, &RecordC, &ok)), 0);
  EXPECT_EQ(ErrorCode(registry.Invoke(RT_SNAPSHOT_BACKUP_POST, {0, 2, 5})),
            ACL_ERROR_SNAPSHOT_CALLBACK_FAILED);
  // B failed on device 2: neither B@5 nor any C call happens.
  EXPECT_EQ(journal.Take(),
            (std::vector<std::string>{"A@0", "A@2", "A@5", "B@0", "B@2"}));
}

TEST(CallbackRegistryTest, AnyNonZeroValueIsAFailure) {
  for (uint32_t value : {1u, 2u, 0x80000000u, 0xFFFFFFFFu}) {
    CallbackRegistry registry;
    Journal journal;
    Ctx ctx{&journal, /*fail_on_device=*/0, value};
    ASSERT_EQ(
        ErrorCode(registry.Register(RT_SNAPSHOT_RESTORE_PRE, &RecordA, &ctx)),
        0);
    EXPECT_EQ(ErrorCode(registry.Invoke(RT_SNAPSHOT_RESTORE_PRE, {0, 1})),
              ACL_ERROR_SNAPSHOT_CALLBACK_FAILED)
        << value;
    EXPECT_EQ(journal.Take(), std::vector<std::string>{"A@0"});
  }
}

TEST(CallbackRegistryTest, NoDeviceCallsNothing) {
  CallbackRegistry registry;
  Journal journal;
  Ctx always_fails{&journal, /*fail_on_device=*/0};
  ASSERT_EQ(ErrorCode(registry.Register(RT_SNAPSHOT_LOCK_PRE, &RecordA,
                                        &always_fails)),
            0);
  EXPECT_EQ(ErrorCode(registry.Invoke(RT_SNAPSHOT_LOCK_PRE, {})), 0);
  EXPECT_TRUE(journal.Take().empty());
}

TEST(CallbackRegistryTest, EmptyStageSucceeds) {
  CallbackRegistry registry;
  for (int32_t stage = 0; stage < CallbackRegistry::kStageCount; ++stage) {
    EXPECT_EQ(ErrorCode(registry.Invoke(stage, {0, 1, 2})), 0);
  }
}

TEST(CallbackRegistryTest, ManyCallbacksNoMaximum) {
  // No maximum count: register the same three functions on every stage and
  // many distinct-args duplicates are still rejected one by one.
  CallbackRegistry registry;
  for (int32_t stage = 0; stage < CallbackRegistry::kStageCount; ++stage) {
    for (rtSnapShotCallBack cb : {&RecordA, &RecordB, &RecordC, &Succeed}) {
      ASSERT_EQ(ErrorCode(registry.Register(stage, cb, nullptr)), 0);
    }
    EXPECT_EQ(registry.Count(stage), 4);
  }
}

// --- Callbacks that use the registry -------------------------------------

struct Reentrant {
  CallbackRegistry* registry = nullptr;
  Journal* journal = nullptr;
  absl::Status register_status;
  absl::Status unregister_status;
  int count_seen = -1;
};

uint32_t RegistersAndUnregisters(int32_t device, void* args) {
  auto* r = static_cast<Reentrant*>(args);
  r->journal->Add("R", device, nullptr);
  // Query, register another callback, and remove ourselves.
  r->count_seen = r->registry->Count(RT_SNAPSHOT_LOCK_PRE);
  r->register_status =
      r->registry->Register(RT_SNAPSHOT_LOCK_PRE, &Succeed, nullptr);
  r->unregister_status =
      r->registry->Unregister(RT_SNAPSHOT_LOCK_PRE, &RegistersAndUnregisters);
  return 0;
}

TEST(CallbackRegistryTest, CallbackMayChangeTheRegistryWithoutDeadlock) {
  CallbackRegistry registry;
  Journal journal;
  Reentrant r{&registry, &journal};
  ASSERT_EQ(ErrorCode(registry.Register(RT_SNAPSHOT_LOCK_PRE,
                                        &RegistersAndUnregisters, &r)),
            0);
  absl::Status invoked;
  RunWithDeadline("Invoke with a callback that changes the registry", [&] {
    invoked = registry.Invoke(RT_SNAPSHOT_LOCK_PRE, {4});
  });
  EXPECT_EQ(ErrorCode(invoked), 0);
  EXPECT_EQ(r.count_seen, 1);
  EXPECT_EQ(ErrorCode(r.register_status), 0);
  EXPECT_EQ(ErrorCode(r.unregister_status), 0);
  EXPECT_EQ(journal.Take(), std::vector<std::string>{"R@4"});
  // The change applies to the next invocation: only Succeed is left.
  EXPECT_EQ(registry.Count(RT_SNAPSHOT_LOCK_PRE), 1);
  RunWithDeadline("second Invoke", [&] {
    invoked = registry.Invoke(RT_SNAPSHOT_LOCK_PRE, {4});
  });
  EXPECT_EQ(ErrorCode(invoked), 0);
  EXPECT_TRUE(journal.Take().empty());
}

// Blocks until another thread used the registry: proves the registry's lock
// is not held while a callback runs.
struct CrossThread {
  CallbackRegistry* registry = nullptr;
  absl::Status other_thread_status;
  bool other_thread_done = false;
};

uint32_t WaitsForAnotherThread(int32_t, void* args) {
  auto* c = static_cast<CrossThread*>(args);
  std::thread other([c] {
    c->other_thread_status =
        c->registry->Register(RT_SNAPSHOT_UNLOCK_POST, &Succeed, nullptr);
    (void)c->registry->Count(RT_SNAPSHOT_LOCK_PRE);
  });
  other.join();
  c->other_thread_done = true;
  return 0;
}

TEST(CallbackRegistryTest, RegistryIsUsableFromOtherThreadsDuringCallback) {
  CallbackRegistry registry;
  CrossThread c{&registry};
  ASSERT_EQ(ErrorCode(registry.Register(RT_SNAPSHOT_LOCK_PRE,
                                        &WaitsForAnotherThread, &c)),
            0);
  absl::Status invoked;
  RunWithDeadline("Invoke while another thread registers", [&] {
    invoked = registry.Invoke(RT_SNAPSHOT_LOCK_PRE, {0});
  });
  EXPECT_EQ(ErrorCode(invoked), 0);
  EXPECT_TRUE(c.other_thread_done);
  EXPECT_EQ(ErrorCode(c.other_thread_status), 0);
  EXPECT_EQ(registry.Count(RT_SNAPSHOT_UNLOCK_POST), 1);
}

TEST(CallbackRegistryTest, ConcurrentRegistrationIsConsistent) {
  // Threads register and unregister distinct (stage, fn) pairs while others
  // invoke; every registration lands exactly once.
  CallbackRegistry registry;
  static constexpr rtSnapShotCallBack kFns[] = {&RecordA, &RecordB, &RecordC,
                                                &Succeed};
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([&registry, t] {
      for (int i = 0; i < 200; ++i) {
        const int32_t stage = (t + i) % CallbackRegistry::kStageCount;
        ASSERT_EQ(ErrorCode(registry.Register(stage, kFns[t], nullptr)), 0);
        ASSERT_EQ(ErrorCode(registry.Register(stage, kFns[t], nullptr)),
                  ACL_ERROR_SNAPSHOT_REGISTER_CALLBACK_FAILED);
        ASSERT_EQ(ErrorCode(registry.Unregister(stage, kFns[t])), 0);
      }
    });
  }
  threads.emplace_back([&registry] {
    for (int i = 0; i < 200; ++i) {
      // No devices: nothing is called, but the list is read concurrently.
      ASSERT_EQ(
          ErrorCode(registry.Invoke(i % CallbackRegistry::kStageCount, {})), 0);
    }
  });
  for (std::thread& t : threads) t.join();
  for (int32_t stage = 0; stage < CallbackRegistry::kStageCount; ++stage) {
    EXPECT_EQ(registry.Count(stage), 0);
  }
}

}  // namespace
}  // namespace ascend::snapshot
