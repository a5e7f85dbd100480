// Callbacks that re-enter the lifecycle (DESIGN.md §3.7, §3.8): changes to
// the registry and lifecycle calls made from inside a notification, on the
// notifying thread and on others.
#include <algorithm>
#include <chrono>
#include <functional>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "acl/acl_base.h"
#include "acl/acl_rt.h"
#include "acl/lifecycle/lifecycle.h"
#include "acl/lifecycle/test_util.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "runtime/base/error.h"
#include "testing/status_matchers.h"

namespace ascend::acl {
namespace {

using ::ascend::acl::testing::Event;
using ::ascend::acl::testing::FinalizeFn;
using ::ascend::acl::testing::InitFn;
using ::ascend::acl::testing::Probe;
using ::ascend::acl::testing::Recorder;
using ::ascend::acl::testing::RunThreads;
using ::testing::ElementsAre;

int32_t Code(const absl::Status& status) { return rt::ErrorCode(status); }

constexpr CallbackType kModel = ACL_REG_TYPE_ACL_MODEL;
constexpr CallbackType kOpCompiler = ACL_REG_TYPE_ACL_OP_COMPILER;
constexpr CallbackType kTdtChannel = ACL_REG_TYPE_ACL_TDT_CHANNEL;
constexpr CallbackType kDvpp = ACL_REG_TYPE_ACL_DVPP;
constexpr CallbackType kRetr = ACL_REG_TYPE_ACL_RETR;
constexpr CallbackType kOther = ACL_REG_TYPE_OTHER;

constexpr std::chrono::seconds kWait(10);

// Runs `action` the first time only.
std::function<void()> Once(std::function<void()> action) {
  auto done = std::make_shared<bool>(false);
  return [done, action = std::move(action)] {
    if (*done) return;
    *done = true;
    action();
  };
}

class ReentrancyTest : public ::testing::Test {
 protected:
  Recorder log_;
  Lifecycle lifecycle_;
};

TEST_F(ReentrancyTest, RegistrationDuringInitReachesLaterTypes) {
  Probe model("model", &log_), added("added", &log_);
  model.action = Once([&] {
    EXPECT_OK(lifecycle_.RegisterInitCallback(kOther, InitFn<1>, &added));
  });
  ASSERT_OK(lifecycle_.RegisterInitCallback(kModel, InitFn<0>, &model));
  ASSERT_OK(lifecycle_.Init(nullptr));
  EXPECT_THAT(log_.events(), ElementsAre("init:model", "init:added"));
}

TEST_F(ReentrancyTest, RegistrationAfterItsTypeWasNotifiedRunsAtTheEnd) {
  Probe dvpp("dvpp", &log_), other("other", &log_);
  Probe late_model("late_model", &log_), late_retr("late_retr", &log_),
      late_other("late_other", &log_);
  std::vector<uint64_t> counts_seen;
  for (Probe* late : {&late_model, &late_retr, &late_other}) {
    late->action = [&] { counts_seen.push_back(lifecycle_.ref_count()); };
  }
  late_retr.result = 99;  // ignored, like any late registration
  dvpp.action = Once([&] {
    // MODEL was notified already; RETR never is.
    EXPECT_OK(lifecycle_.RegisterInitCallback(kModel, InitFn<1>, &late_model));
    EXPECT_OK(lifecycle_.RegisterInitCallback(kRetr, InitFn<2>, &late_retr));
  });
  // OTHER is being notified: the copy being notified may not see it.
  other.action = Once([&] {
    EXPECT_OK(lifecycle_.RegisterInitCallback(kOther, InitFn<3>, &late_other));
  });
  ASSERT_OK(lifecycle_.RegisterInitCallback(kDvpp, InitFn<0>, &dvpp));
  ASSERT_OK(lifecycle_.RegisterInitCallback(kOther, InitFn<0>, &other));

  EXPECT_OK(lifecycle_.Init(nullptr));
  EXPECT_THAT(log_.events(),
              ElementsAre("init:dvpp", "init:other", "init:late_model",
                          "init:late_retr", "init:late_other"));
  // They ran as late registrations: with the process initialised.
  EXPECT_THAT(counts_seen, ElementsAre(1u, 1u, 1u));

  // Next cycle they are ordinary registrations.
  ASSERT_OK(lifecycle_.Finalize());
  log_.Clear();
  ASSERT_OK(lifecycle_.Init(nullptr));
  EXPECT_THAT(log_.events(), ElementsAre("init:late_model", "init:dvpp",
                                         "init:other", "init:late_other"));
}

TEST_F(ReentrancyTest, RegistrationDuringAFailedInitIsNotInvoked) {
  Probe dvpp("dvpp", &log_), late("late", &log_);
  dvpp.result = 5;
  dvpp.action = Once([&] {
    EXPECT_OK(lifecycle_.RegisterInitCallback(kRetr, InitFn<1>, &late));
  });
  ASSERT_OK(lifecycle_.RegisterInitCallback(kDvpp, InitFn<0>, &dvpp));
  EXPECT_EQ(Code(lifecycle_.Init(nullptr)), 5);
  EXPECT_EQ(late.calls, 0);
}

TEST_F(ReentrancyTest, CallbackUnregisteringItselfAndOthers) {
  Probe model("model", &log_), other1("other1", &log_), other2("other2", &log_);
  model.action = [&] {
    EXPECT_OK(lifecycle_.UnregisterInitCallback(kModel, InitFn<0>));
  };
  other1.action = [&] {
    EXPECT_OK(lifecycle_.UnregisterInitCallback(kOther, InitFn<2>));
  };
  ASSERT_OK(lifecycle_.RegisterInitCallback(kModel, InitFn<0>, &model));
  ASSERT_OK(lifecycle_.RegisterInitCallback(kOther, InitFn<1>, &other1));
  ASSERT_OK(lifecycle_.RegisterInitCallback(kOther, InitFn<2>, &other2));
  ASSERT_OK(lifecycle_.Init(nullptr));
  ASSERT_OK(lifecycle_.Finalize());
  log_.Clear();
  other1.action = nullptr;
  ASSERT_OK(lifecycle_.Init(nullptr));
  EXPECT_THAT(log_.events(), ElementsAre("init:other1"));
}

TEST_F(ReentrancyTest, InitFromAnInitCallbackAddsAReference) {
  Probe model("model", &log_), fin("fin", &log_);
  int32_t nested = 0;
  model.action = Once([&] { nested = Code(lifecycle_.Init(nullptr)); });
  ASSERT_OK(lifecycle_.RegisterInitCallback(kModel, InitFn<0>, &model));
  ASSERT_OK(lifecycle_.RegisterFinalizeCallback(kOther, FinalizeFn<0>, &fin));
  ASSERT_OK(lifecycle_.Init(nullptr));
  EXPECT_EQ(nested, ACL_ERROR_REPEAT_INITIALIZE);
  EXPECT_EQ(model.calls, 1);
  EXPECT_EQ(lifecycle_.ref_count(), 2u);
  uint64_t count = 0;
  ASSERT_OK(lifecycle_.FinalizeReference(&count));
  EXPECT_EQ(count, 1u);
  EXPECT_EQ(fin.calls, 0);
  ASSERT_OK(lifecycle_.FinalizeReference(&count));
  EXPECT_EQ(count, 0u);
  EXPECT_EQ(fin.calls, 1);
}

TEST_F(ReentrancyTest, NestedInitOfAFailedInitHoldsNothing) {
  Probe model("model", &log_), dvpp("dvpp", &log_);
  model.action = Once([&] { lifecycle_.Init(nullptr).IgnoreError(); });
  dvpp.result = 8;
  ASSERT_OK(lifecycle_.RegisterInitCallback(kModel, InitFn<0>, &model));
  ASSERT_OK(lifecycle_.RegisterInitCallback(kDvpp, InitFn<0>, &dvpp));
  EXPECT_EQ(Code(lifecycle_.Init(nullptr)), 8);
  EXPECT_EQ(lifecycle_.ref_count(), 0u);
  // The next successful Init does not inherit it.
  dvpp.result = 0;
  ASSERT_OK(lifecycle_.Init(nullptr));
  EXPECT_EQ(lifecycle_.ref_count(), 1u);
}

TEST_F(ReentrancyTest, FinalizeFromAnInitCallbackIsRepeatFinalize) {
  Probe model("model", &log_);
  int32_t finalize = 0, reference = 0;
  uint64_t count = 42;
  model.action = Once([&] {
    finalize = Code(lifecycle_.Finalize());
    reference = Code(lifecycle_.FinalizeReference(&count));
  });
  ASSERT_OK(lifecycle_.RegisterInitCallback(kModel, InitFn<0>, &model));
  EXPECT_OK(lifecycle_.Init(nullptr));
  EXPECT_EQ(finalize, ACL_ERROR_REPEAT_FINALIZE);
  EXPECT_EQ(reference, ACL_ERROR_REPEAT_FINALIZE);
  EXPECT_EQ(count, 0u);
  EXPECT_EQ(lifecycle_.ref_count(), 1u);
}

TEST_F(ReentrancyTest, LifecycleCallsFromAFinalizeCallback) {
  Probe compiler("compiler", &log_), other("other", &log_);
  int32_t finalize = 0, reference = 0, init = 0;
  uint64_t count = 0;
  compiler.action = Once([&] {
    finalize = Code(lifecycle_.Finalize());
    reference = Code(lifecycle_.FinalizeReference(&count));
    init = Code(lifecycle_.Init(nullptr));
  });
  ASSERT_OK(lifecycle_.RegisterFinalizeCallback(kOpCompiler, FinalizeFn<0>,
                                                &compiler));
  ASSERT_OK(lifecycle_.RegisterFinalizeCallback(kOther, FinalizeFn<0>, &other));
  ASSERT_OK(lifecycle_.Init(nullptr));
  ASSERT_EQ(Code(lifecycle_.Init(nullptr)), ACL_ERROR_REPEAT_INITIALIZE);

  EXPECT_OK(lifecycle_.Finalize());
  EXPECT_EQ(finalize, ACL_ERROR_REPEAT_FINALIZE);
  EXPECT_EQ(reference, ACL_ERROR_REPEAT_FINALIZE);
  EXPECT_EQ(count, 2u);
  EXPECT_EQ(init, ACL_ERROR_REPEAT_INITIALIZE);
  EXPECT_THAT(log_.events(),
              ElementsAre("finalize:compiler", "finalize:other"));
  EXPECT_EQ(lifecycle_.ref_count(), 0u);
}

TEST_F(ReentrancyTest, FinalizeCallbackChangesReachLaterTypes) {
  Probe compiler("compiler", &log_), added("added", &log_);
  compiler.action = Once([&] {
    EXPECT_OK(
        lifecycle_.RegisterFinalizeCallback(kOther, FinalizeFn<1>, &added));
    EXPECT_OK(
        lifecycle_.UnregisterFinalizeCallback(kOpCompiler, FinalizeFn<0>));
  });
  ASSERT_OK(lifecycle_.RegisterFinalizeCallback(kOpCompiler, FinalizeFn<0>,
                                                &compiler));
  ASSERT_OK(lifecycle_.Init(nullptr));
  ASSERT_OK(lifecycle_.Finalize());
  EXPECT_THAT(log_.events(),
              ElementsAre("finalize:compiler", "finalize:added"));
  log_.Clear();
  ASSERT_OK(lifecycle_.Init(nullptr));
  ASSERT_OK(lifecycle_.Finalize());
  EXPECT_THAT(log_.events(), ElementsAre("finalize:added"));
}

TEST_F(ReentrancyTest, LateCallbackMayUseTheLifecycle) {
  ASSERT_OK(lifecycle_.Init(nullptr));
  Probe late("late", &log_), inner("inner", &log_);
  int32_t init = 0;
  late.action = [&] {
    init = Code(lifecycle_.Init(nullptr));
    // A registration from inside a late invocation is itself late.
    EXPECT_OK(lifecycle_.RegisterInitCallback(kRetr, InitFn<1>, &inner));
    EXPECT_OK(lifecycle_.Finalize());
  };
  EXPECT_OK(lifecycle_.RegisterInitCallback(kOther, InitFn<0>, &late));
  EXPECT_EQ(init, ACL_ERROR_REPEAT_INITIALIZE);
  EXPECT_THAT(log_.events(), ElementsAre("init:late", "init:inner"));
  EXPECT_EQ(lifecycle_.ref_count(), 0u);
}

TEST_F(ReentrancyTest, EndOfInitInvocationsStopWhenACallbackFinalizes) {
  Probe dvpp("dvpp", &log_), first("first", &log_), second("second", &log_);
  first.action = [&] { EXPECT_OK(lifecycle_.Finalize()); };
  dvpp.action = Once([&] {
    EXPECT_OK(lifecycle_.RegisterInitCallback(kRetr, InitFn<1>, &first));
    EXPECT_OK(lifecycle_.RegisterInitCallback(kTdtChannel, InitFn<2>, &second));
  });
  ASSERT_OK(lifecycle_.RegisterInitCallback(kDvpp, InitFn<0>, &dvpp));
  EXPECT_OK(lifecycle_.Init(nullptr));
  EXPECT_THAT(log_.events(), ElementsAre("init:dvpp", "init:first"));
  EXPECT_EQ(lifecycle_.ref_count(), 0u);
}

// --- other threads during an Init --------------------------------------

// The MODEL callback of an Init on thread 0 holds the Init until thread 1
// is about to call `call`; then gives it time to reach the lifecycle.
void WhileInitIsInModelCallback(Lifecycle& lifecycle, Recorder& log,
                                const std::function<void()>& call) {
  Probe model("model", &log);
  Event in_init, about_to_call;
  model.action = Once([&] {
    in_init.Notify();
    EXPECT_TRUE(about_to_call.WaitFor(kWait));
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  });
  ASSERT_OK(lifecycle.RegisterInitCallback(kModel, InitFn<9>, &model));
  RunThreads(2, [&](int thread) {
    if (thread == 0) {
      EXPECT_OK(lifecycle.Init(nullptr));
      log.Add("init returned");
    } else {
      ASSERT_TRUE(in_init.WaitFor(kWait));
      about_to_call.Notify();
      call();
    }
  });
  EXPECT_OK(lifecycle.UnregisterInitCallback(kModel, InitFn<9>));
}

TEST_F(ReentrancyTest, RegistrationFromAnotherThreadDuringInitIsNotLost) {
  Probe late_retr("late_retr", &log_), late_other("late_other", &log_);
  WhileInitIsInModelCallback(lifecycle_, log_, [&] {
    EXPECT_OK(lifecycle_.RegisterInitCallback(kRetr, InitFn<1>, &late_retr));
    EXPECT_OK(lifecycle_.RegisterInitCallback(kOther, InitFn<2>, &late_other));
  });
  EXPECT_EQ(late_retr.calls, 1);
  EXPECT_EQ(late_other.calls, 1);
}

TEST_F(ReentrancyTest, UnregistrationFromAnotherThreadWaitsForTheInit) {
  Probe other("other", &log_);
  ASSERT_OK(lifecycle_.RegisterInitCallback(kOther, InitFn<1>, &other));
  WhileInitIsInModelCallback(lifecycle_, log_, [&] {
    EXPECT_OK(lifecycle_.UnregisterInitCallback(kOther, InitFn<1>));
    log_.Add("unregistered");
  });
  // Unregister could not return before the Init was over, so the Init
  // notified the callback first; it is never called afterwards.
  auto events = log_.events();
  auto position = [&](const std::string& event) {
    return std::find(events.begin(), events.end(), event) - events.begin();
  };
  ASSERT_LT(position("unregistered"), static_cast<long>(events.size()));
  EXPECT_LT(position("init:other"), position("unregistered"));
  EXPECT_EQ(other.calls, 1);
}

}  // namespace
}  // namespace ascend::acl
