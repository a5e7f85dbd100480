// The config-identity rule (DESIGN.md §3.3)
// on the real process state: a fresh process, so its own binary.
#include <string>

#include "acl/acl.h"
#include "acl/lifecycle/lifecycle.h"
#include "acl/lifecycle/test_util.h"
#include "gtest/gtest.h"
#include "runtime/default_device.h"
#include "testing/status_matchers.h"

namespace ascend::acl {
namespace {

using ::ascend::acl::testing::WriteTempFile;

TEST(LifecycleApiIdentityTest, ReinitNeedsTheBytesOfTheFirstSuccessfulInit) {
  const std::string content =
      "{\"defaultDevice\": {\"default_device\": \"2\"}}";
  std::string a = WriteTempFile("identity_a.json", content);
  std::string a_copy = WriteTempFile("identity_a_copy.json", content);
  std::string b = WriteTempFile("identity_b.json", "{\"x\": 1}");
  std::string bad = WriteTempFile("identity_bad.json", "{\"err_msg_mode\": 2}");

  // A failed init does not fix the content.
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM, aclInit(bad.c_str()));
  ASSERT_ACL_OK(aclInit(a.c_str()));
  EXPECT_EQ(rt::DefaultDevice(), 2);
  // While initialised nothing is compared.
  EXPECT_ACL_ERROR(ACL_ERROR_REPEAT_INITIALIZE, aclInit(b.c_str()));
  ASSERT_ACL_OK(aclFinalize());
  EXPECT_EQ(rt::DefaultDevice(), std::nullopt);

  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM, aclInit(b.c_str()));
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM, aclInit(nullptr));
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM, aclInit(""));
  uint64_t count = 3;
  EXPECT_ACL_ERROR(ACL_ERROR_REPEAT_FINALIZE, aclFinalizeReference(&count));
  EXPECT_EQ(count, 0u);

  // Same bytes, other path: accepted.
  EXPECT_ACL_OK(aclInit(a_copy.c_str()));
  EXPECT_EQ(rt::DefaultDevice(), 2);
  EXPECT_ACL_OK(aclFinalize());
}

}  // namespace
}  // namespace ascend::acl
