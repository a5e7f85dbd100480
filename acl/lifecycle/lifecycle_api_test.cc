// The C entry points over the process's lifecycle. Every aclInit in this
// binary uses no config, so the config-identity rule never gets in the way;
// each test leaves the process finalized.
#include <atomic>
#include <string>

#include "acl/acl.h"
#include "acl/lifecycle/lifecycle.h"
#include "acl/lifecycle/test_util.h"
#include "gmock/gmock.h"
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
using ::ascend::acl::testing::WriteTempFile;
using ::testing::ElementsAre;
using ::testing::IsEmpty;

TEST(LifecycleApiTest, OneLifecyclePerProcess) {
  EXPECT_EQ(&ProcessLifecycle(), &ProcessLifecycle());
  ASSERT_ACL_OK(aclInit(nullptr));
  EXPECT_EQ(ProcessLifecycle().ref_count(), 1u);
  ASSERT_ACL_OK(aclFinalize());
  EXPECT_EQ(ProcessLifecycle().ref_count(), 0u);
}

TEST(LifecycleApiTest, RegistrationCodesAndLastError) {
  EXPECT_ACL_ERROR(
      ACL_ERROR_INVALID_PARAM,
      aclInitCallbackRegister(ACL_REG_TYPE_OTHER, nullptr, nullptr));
  EXPECT_EQ(rt::PeekLastError(), ACL_ERROR_INVALID_PARAM);
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM,
                   aclInitCallbackUnRegister(ACL_REG_TYPE_OTHER, nullptr));
  EXPECT_ACL_ERROR(
      ACL_ERROR_INVALID_PARAM,
      aclFinalizeCallbackRegister(ACL_REG_TYPE_OTHER, nullptr, nullptr));
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM,
                   aclFinalizeCallbackUnRegister(ACL_REG_TYPE_OTHER, nullptr));

  ASSERT_ACL_OK(
      aclInitCallbackRegister(ACL_REG_TYPE_ACL_MODEL, InitFn<0>, nullptr));
  EXPECT_ACL_ERROR(
      ACL_ERROR_INTERNAL_ERROR,
      aclInitCallbackRegister(ACL_REG_TYPE_ACL_MODEL, InitFn<1>, nullptr));
  EXPECT_EQ(rt::TakeLastError(), ACL_ERROR_INTERNAL_ERROR);
  EXPECT_ACL_ERROR(
      ACL_ERROR_INTERNAL_ERROR,
      aclInitCallbackUnRegister(ACL_REG_TYPE_ACL_MODEL, InitFn<1>));
  EXPECT_ACL_OK(aclInitCallbackUnRegister(ACL_REG_TYPE_ACL_MODEL, InitFn<0>));
  EXPECT_ACL_ERROR(
      ACL_ERROR_INTERNAL_ERROR,
      aclInitCallbackUnRegister(ACL_REG_TYPE_ACL_MODEL, InitFn<0>));
  EXPECT_ACL_ERROR(
      ACL_ERROR_INTERNAL_ERROR,
      aclFinalizeCallbackUnRegister(ACL_REG_TYPE_ACL_DVPP, FinalizeFn<0>));

  // Types are not range-checked: any value is its own single slot.
  const auto odd = static_cast<aclRegisterCallbackType>(0x7FFF);
  EXPECT_ACL_OK(aclFinalizeCallbackRegister(odd, FinalizeFn<0>, nullptr));
  EXPECT_ACL_ERROR(ACL_ERROR_INTERNAL_ERROR,
                   aclFinalizeCallbackRegister(odd, FinalizeFn<1>, nullptr));
  EXPECT_ACL_OK(aclFinalizeCallbackUnRegister(odd, FinalizeFn<0>));
}

TEST(LifecycleApiTest, ScenarioTable) {
  Recorder log;
  Probe init("init", &log), fin("fin", &log);
  ASSERT_ACL_OK(aclInitCallbackRegister(ACL_REG_TYPE_OTHER, InitFn<0>, &init));
  ASSERT_ACL_OK(
      aclFinalizeCallbackRegister(ACL_REG_TYPE_OTHER, FinalizeFn<0>, &fin));

  EXPECT_ACL_OK(aclInit(nullptr));                                  // 1
  EXPECT_ACL_ERROR(ACL_ERROR_REPEAT_INITIALIZE, aclInit(nullptr));  // 2
  EXPECT_EQ(rt::PeekLastError(), ACL_ERROR_REPEAT_INITIALIZE);
  EXPECT_ACL_ERROR(ACL_ERROR_REPEAT_INITIALIZE, aclInit("other.json"));  // 3
  uint64_t count = 0;
  EXPECT_ACL_OK(aclFinalizeReference(&count));  // 4
  EXPECT_EQ(count, 2u);
  EXPECT_ACL_OK(aclFinalizeReference(&count));
  EXPECT_EQ(count, 1u);
  EXPECT_THAT(log.events(), ElementsAre("init:init"));
  EXPECT_ACL_OK(aclFinalizeReference(&count));  // 5
  EXPECT_EQ(count, 0u);
  EXPECT_THAT(log.events(), ElementsAre("init:init", "finalize:fin"));
  count = 5;
  EXPECT_ACL_ERROR(ACL_ERROR_REPEAT_FINALIZE,
                   aclFinalizeReference(&count));  // 6
  EXPECT_EQ(count, 0u);
  EXPECT_ACL_ERROR(ACL_ERROR_REPEAT_FINALIZE, aclFinalize());  // 8

  log.Clear();
  EXPECT_ACL_OK(aclInit(nullptr));  // 9
  EXPECT_ACL_ERROR(ACL_ERROR_REPEAT_INITIALIZE, aclInit(nullptr));
  EXPECT_ACL_ERROR(ACL_ERROR_REPEAT_INITIALIZE, aclInit(nullptr));
  EXPECT_ACL_OK(aclFinalize());  // 7
  EXPECT_EQ(ProcessLifecycle().ref_count(), 0u);
  EXPECT_ACL_ERROR(ACL_ERROR_REPEAT_FINALIZE, aclFinalize());  // 8
  EXPECT_ACL_ERROR(ACL_ERROR_REPEAT_FINALIZE, aclFinalizeReference(nullptr));
  EXPECT_THAT(log.events(), ElementsAre("init:init", "finalize:fin"));

  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_FILE, aclInit("missing.json"));  // 13
  EXPECT_EQ(ProcessLifecycle().ref_count(), 0u);

  ASSERT_ACL_OK(aclInitCallbackUnRegister(ACL_REG_TYPE_OTHER, InitFn<0>));
  ASSERT_ACL_OK(
      aclFinalizeCallbackUnRegister(ACL_REG_TYPE_OTHER, FinalizeFn<0>));
}

TEST(LifecycleApiTest, NullFirstConfigRefusesOtherContent) {  // row 11
  ASSERT_ACL_OK(aclInit(nullptr));
  ASSERT_ACL_OK(aclFinalize());
  std::string x = WriteTempFile("api_row11.json", "{\"x\": 1}");
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM, aclInit(x.c_str()));
  EXPECT_ACL_ERROR(ACL_ERROR_REPEAT_FINALIZE, aclFinalize());
  std::string empty = WriteTempFile("api_row11_empty.json", "");
  EXPECT_ACL_OK(aclInit(empty.c_str()));
  EXPECT_ACL_OK(aclFinalize());
}

TEST(LifecycleApiTest, CallbackCodesComeBackVerbatim) {
  Recorder log;
  Probe model("model", &log), fin("fin", &log);
  model.result = 123456;
  fin.result = 654321;
  ASSERT_ACL_OK(
      aclInitCallbackRegister(ACL_REG_TYPE_ACL_MODEL, InitFn<0>, &model));
  ASSERT_ACL_OK(
      aclFinalizeCallbackRegister(ACL_REG_TYPE_ACL_MODEL, FinalizeFn<0>, &fin));
  EXPECT_ACL_ERROR(123456, aclInit(nullptr));
  EXPECT_EQ(rt::PeekLastError(), 123456);
  model.result = 0;
  ASSERT_ACL_OK(aclInit(nullptr));
  EXPECT_ACL_ERROR(654321, aclFinalize());
  uint64_t count = 0;
  EXPECT_ACL_ERROR(654321, aclFinalizeReference(&count));
  EXPECT_EQ(count, 1u);
  fin.result = 0;
  EXPECT_ACL_OK(aclFinalize());
  ASSERT_ACL_OK(aclInitCallbackUnRegister(ACL_REG_TYPE_ACL_MODEL, InitFn<0>));
  ASSERT_ACL_OK(
      aclFinalizeCallbackUnRegister(ACL_REG_TYPE_ACL_MODEL, FinalizeFn<0>));
}

TEST(LifecycleApiTest, LateInitRegistrationRunsAtOnce) {
  ASSERT_ACL_OK(aclInit(nullptr));
  Recorder log;
  Probe late("late", &log);
  late.result = 1;  // ignored
  EXPECT_ACL_OK(
      aclInitCallbackRegister(ACL_REG_TYPE_ACL_RETR, InitFn<0>, &late));
  EXPECT_EQ(late.calls, 1);
  EXPECT_EQ(late.last_config, "");
  EXPECT_ACL_OK(aclInitCallbackUnRegister(ACL_REG_TYPE_ACL_RETR, InitFn<0>));
  EXPECT_ACL_OK(aclFinalize());
}

TEST(LifecycleApiTest, SixteenThreadsInitTenThreadsFinalizeReference) {
  Recorder log;
  Probe init("init", &log), fin("fin", &log);
  ASSERT_ACL_OK(aclInitCallbackRegister(ACL_REG_TYPE_OTHER, InitFn<0>, &init));
  ASSERT_ACL_OK(
      aclFinalizeCallbackRegister(ACL_REG_TYPE_OTHER, FinalizeFn<0>, &fin));
  std::atomic<int> ok{0}, repeated{0};
  RunThreads(16, [&](int) {
    aclError code = aclInit(nullptr);
    if (code == ACL_SUCCESS) ++ok;
    if (code == ACL_ERROR_REPEAT_INITIALIZE) ++repeated;
  });
  EXPECT_EQ(ok.load(), 1);
  EXPECT_EQ(repeated.load(), 15);
  EXPECT_EQ(ProcessLifecycle().ref_count(), 16u);
  for (int i = 0; i < 6; ++i) ASSERT_ACL_OK(aclFinalizeReference(nullptr));

  std::atomic<int> released{0};
  RunThreads(10, [&](int) {
    if (aclFinalizeReference(nullptr) == ACL_SUCCESS) ++released;
  });
  EXPECT_EQ(released.load(), 10);
  EXPECT_EQ(ProcessLifecycle().ref_count(), 0u);
  EXPECT_EQ(init.calls, 1);
  EXPECT_EQ(fin.calls, 1);
  ASSERT_ACL_OK(aclInitCallbackUnRegister(ACL_REG_TYPE_OTHER, InitFn<0>));
  ASSERT_ACL_OK(
      aclFinalizeCallbackUnRegister(ACL_REG_TYPE_OTHER, FinalizeFn<0>));
}

}  // namespace
}  // namespace ascend::acl
