// A process whose first lifecycle call is aclFinalize (100037 and no
// callback, DESIGN.md §3.2), and the logging set-up by the first failing
// call (§5.11): both need a fresh process, so this is its own binary with a
// single test.
#include <cstdlib>

#include "acl/acl.h"
#include "acl/lifecycle/test_util.h"
#include "glog/logging.h"
#include "gtest/gtest.h"
#include "testing/status_matchers.h"

namespace ascend::acl {
namespace {

using ::ascend::acl::testing::FinalizeFn;
using ::ascend::acl::testing::Probe;
using ::ascend::acl::testing::Recorder;

TEST(LifecycleApiFinalizeFirstTest, FinalizeBeforeAnyInitRunsNothing) {
  Recorder log;
  Probe fin("fin", &log);
  ASSERT_ACL_OK(
      aclFinalizeCallbackRegister(ACL_REG_TYPE_OTHER, FinalizeFn<0>, &fin));

  EXPECT_ACL_ERROR(ACL_ERROR_REPEAT_FINALIZE, aclFinalize());
  EXPECT_ACL_ERROR(ACL_ERROR_REPEAT_FINALIZE, aclFinalize());
  uint64_t count = 9;
  EXPECT_ACL_ERROR(ACL_ERROR_REPEAT_FINALIZE, aclFinalizeReference(&count));
  EXPECT_EQ(count, 0u);
  EXPECT_EQ(fin.calls, 0);

  // The failing calls above already set up logging (to files, nothing on
  // stderr); ASCEND_GLOBAL_LOG_LEVEL was read then, not by aclInit.
  EXPECT_TRUE(google::IsGoogleLoggingInitialized());
  EXPECT_FALSE(FLAGS_logtostderr);
  EXPECT_EQ(FLAGS_minloglevel, google::GLOG_ERROR);
  ASSERT_EQ(setenv("ASCEND_GLOBAL_LOG_LEVEL", "1", 1), 0);
  ASSERT_ACL_OK(aclInit(nullptr));
  EXPECT_EQ(FLAGS_minloglevel, google::GLOG_ERROR);
  EXPECT_ACL_OK(aclFinalize());
  EXPECT_EQ(fin.calls, 1);
}

}  // namespace
}  // namespace ascend::acl
