// The exception dump enabled by the environment (DESIGN.md §5.25;
// 18_dump_configuration.md, acldumpGetExceptionInfoPath: "or the environment
// variable ASCEND_DUMP_SCENE"): no config file, ASCEND_DUMP_SCENE and
// ASCEND_WORK_PATH set before the process's first aclInit.
#include <cstdlib>
#include <string>

#include "absl/strings/str_cat.h"
#include "acl/acl.h"
#include "acl/acl_dump.h"
#include "acl/dump/dump_test_util.h"
#include "ascendcl/dump.h"
#include "gtest/gtest.h"
#include "runtime/dump/dump_reader.h"
#include "testing/status_matchers.h"

namespace ascend::dump_test {
namespace {

class DumpEnvTest : public ::testing::Test {};

TEST_F(DumpEnvTest, SceneFromTheEnvironment) {
  ASSERT_ACL_OK(aclInit(nullptr));
  ASSERT_ACL_OK(aclrtSetDevice(1));
  EXPECT_EQ(ascendclDumpOperatorSwitch(), ASCENDCL_DUMP_OPERATOR_EXCEPTION);
  char path[ACL_DUMP_MAX_FILE_PATH_LENGTH];
  ASSERT_ACL_OK(acldumpGetExceptionInfoPath(path, sizeof path));
  EXPECT_EQ(std::string(path), TempDir() + "/work/extra-info/data-dump/1");
  float* x = DeviceFloats({1, 2});
  const acldumpTensorInfo t = Tensor(ACL_DUMP_TENSOR_INPUT, x, 8, 2);
  ASSERT_ACL_OK(acldumpSaveExceptionInfo("env", nullptr, &t, 1));
  EXPECT_EQ(rt::dump::ListFiles(path).size(), 1u);
  // aclInit without a config enables no data dump.
  EXPECT_EQ(acldumpGetPath(DATA_DUMP), nullptr);
  ASSERT_ACL_OK(aclrtFree(x));
  ASSERT_ACL_OK(aclrtResetDevice(1));
  // aclFinalize ends only what a config enabled.
  ASSERT_ACL_OK(aclFinalize());
  EXPECT_EQ(ascendclDumpOperatorSwitch(), ASCENDCL_DUMP_OPERATOR_EXCEPTION);
}

}  // namespace
}  // namespace ascend::dump_test

int main(int argc, char** argv) {
  ::testing::InitGoogleTest(&argc, argv);
  const std::string work = ascend::dump_test::TempDir() + "/work";
  setenv("ASCEND_DUMP_SCENE", "aic_err_norm_dump", 1);
  setenv("ASCEND_WORK_PATH", work.c_str(), 1);
  return RUN_ALL_TESTS();
}
