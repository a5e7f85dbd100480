// Lifecycle under concurrent use: reference §1.6 rows 12 and the
// MultiThreadConcurrentAclInit unit test, plus a mixed stress run.
#include <algorithm>
#include <atomic>
#include <mutex>
#include <vector>

#include "acl/acl_base.h"
#include "acl/acl_rt.h"
#include "acl/lifecycle/lifecycle.h"
#include "acl/lifecycle/test_util.h"
#include "gtest/gtest.h"
#include "runtime/base/error.h"
#include "testing/status_matchers.h"

namespace ascend::acl {
namespace {

using ::ascend::acl::testing::FinalizeFn;
using ::ascend::acl::testing::InitFn;
using ::ascend::acl::testing::Probe;
using ::ascend::acl::testing::Recorder;
using ::ascend::acl::testing::RunThreads;

constexpr CallbackType kModel = ACL_REG_TYPE_ACL_MODEL;
constexpr CallbackType kOther = ACL_REG_TYPE_OTHER;

TEST(LifecycleConcurrencyTest, SixteenThreadsInitOnce) {
  Lifecycle lifecycle;
  Recorder log;
  Probe model("model", &log), other("other", &log);
  ASSERT_OK(lifecycle.RegisterInitCallback(kModel, InitFn<0>, &model));
  ASSERT_OK(lifecycle.RegisterInitCallback(kOther, InitFn<0>, &other));
  std::atomic<int> ok{0}, repeated{0}, other_codes{0};
  RunThreads(16, [&](int) {
    int32_t code = rt::ErrorCode(lifecycle.Init(nullptr));
    if (code == 0) {
      ++ok;
    } else if (code == ACL_ERROR_REPEAT_INITIALIZE) {
      ++repeated;
    } else {
      ++other_codes;
    }
  });
  EXPECT_EQ(ok.load(), 1);
  EXPECT_EQ(repeated.load(), 15);
  EXPECT_EQ(other_codes.load(), 0);
  EXPECT_EQ(lifecycle.ref_count(), 16u);
  EXPECT_EQ(model.calls, 1);
  EXPECT_EQ(other.calls, 1);
}

TEST(LifecycleConcurrencyTest, TenThreadsFinalizeReferenceFromTen) {
  Lifecycle lifecycle;
  Recorder log;
  Probe fin("fin", &log);
  ASSERT_OK(lifecycle.RegisterFinalizeCallback(kOther, FinalizeFn<0>, &fin));
  ASSERT_OK(lifecycle.Init(nullptr));
  for (int i = 0; i < 9; ++i) lifecycle.Init(nullptr).IgnoreError();
  ASSERT_EQ(lifecycle.ref_count(), 10u);

  std::mutex mu;
  std::vector<uint64_t> left;
  std::atomic<int> failures{0};
  RunThreads(10, [&](int) {
    uint64_t count = 99;
    if (!lifecycle.FinalizeReference(&count).ok()) ++failures;
    std::lock_guard<std::mutex> lock(mu);
    left.push_back(count);
  });
  EXPECT_EQ(failures.load(), 0);
  std::sort(left.begin(), left.end());
  EXPECT_EQ(left, (std::vector<uint64_t>{0, 1, 2, 3, 4, 5, 6, 7, 8, 9}));
  EXPECT_EQ(lifecycle.ref_count(), 0u);
  EXPECT_EQ(fin.calls, 1);
  EXPECT_EQ(rt::ErrorCode(lifecycle.Finalize()), ACL_ERROR_REPEAT_FINALIZE);
}

// Threads cycling Init/FinalizeReference while others register and
// unregister callbacks (some late, some during notifications): nothing
// deadlocks, the references balance, and every successful finalize pairs
// with an init notification.
TEST(LifecycleConcurrencyTest, MixedStress) {
  Lifecycle lifecycle;
  Recorder log;
  Probe model("model", &log), fin("fin", &log);
  ASSERT_OK(lifecycle.RegisterInitCallback(kModel, InitFn<0>, &model));
  ASSERT_OK(lifecycle.RegisterFinalizeCallback(kModel, FinalizeFn<0>, &fin));
  struct Churn {
    static aclError Init(const char*, size_t, void*) { return 0; }
    static aclError Finalize(void*) { return 0; }
  };
  constexpr int kRounds = 300;
  RunThreads(8, [&](int thread) {
    for (int i = 0; i < kRounds; ++i) {
      if (thread < 6) {
        absl::Status init = lifecycle.Init(nullptr);
        EXPECT_TRUE(init.ok() ||
                    rt::ErrorCode(init) == ACL_ERROR_REPEAT_INITIALIZE);
        EXPECT_OK(lifecycle.FinalizeReference(nullptr));
      } else {
        EXPECT_OK(lifecycle.RegisterInitCallback(kOther, Churn::Init, nullptr));
        EXPECT_OK(lifecycle.RegisterFinalizeCallback(kOther, Churn::Finalize,
                                                     nullptr));
        EXPECT_OK(lifecycle.UnregisterInitCallback(kOther, Churn::Init));
        EXPECT_OK(
            lifecycle.UnregisterFinalizeCallback(kOther, Churn::Finalize));
      }
    }
  });
  EXPECT_EQ(lifecycle.ref_count(), 0u);
  EXPECT_GE(model.calls, 1);
  EXPECT_EQ(model.calls, fin.calls);
}

}  // namespace
}  // namespace ascend::acl
