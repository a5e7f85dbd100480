// The dump configured by aclInit's config file (DESIGN.md §5.25;
// 02_initialization_and_deinitialization.md and 18_dump_configuration.md):
// a bad section fails aclInit with 100009; a good one dumps from aclInit to
// aclFinalize, and aclmdlInitDump is refused meanwhile (100044). Its own
// binary: aclInit's config is fixed per process (DESIGN.md §3.3).
#include <string>
#include <vector>

#include "absl/strings/match.h"
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

class DumpInitConfigTest : public ::testing::Test {};

TEST_F(DumpInitConfigTest, AclInitDumpsUntilAclFinalize) {
  const std::string dir = NewDir("init");
  // A section CANN's dump library refuses fails aclInit; the process stays
  // uninitialised.
  const std::string bad =
      WriteFile("bad.json", R"({"dump": {"dump_path": "/nonexistent/x",
                               "dump_op_switch": "on"}})");
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_DUMP_CONFIG, aclInit(bad.c_str()));
  EXPECT_ACL_ERROR(ACL_ERROR_UNINITIALIZE, aclmdlInitDump());
  EXPECT_EQ(acldumpGetPath(DATA_DUMP), nullptr);

  const std::string good = WriteFile(
      "acl.json", absl::StrCat(R"({"dump": {"dump_path": ")", dir,
                               R"(", "dump_list": [], "dump_op_switch": "on",
                               "dump_data": "tensor"}})"));
  ASSERT_ACL_OK(aclInit(good.c_str()));
  const char* path = acldumpGetPath(DATA_DUMP);
  ASSERT_NE(path, nullptr);
  const std::string root = path;
  EXPECT_TRUE(absl::StartsWith(root, dir + "/"));
  EXPECT_EQ(ascendclDumpOperatorSwitch(), ASCENDCL_DUMP_OPERATOR_DATA);
  EXPECT_ACL_ERROR(ACL_ERROR_DUMP_ALREADY_RUN, aclmdlInitDump());

  ASSERT_ACL_OK(aclrtSetDevice(0));
  float* x = DeviceFloats({1, 2});
  const acldumpTensorInfo out = Tensor(ACL_DUMP_TENSOR_OUTPUT, x, 8, 2);
  ASSERT_ACL_OK(ascendclDumpOperator("Add", "Add_1", &out, 1, nullptr));
  ASSERT_ACL_OK(aclrtSynchronizeDevice());
  const std::vector<std::string> files = rt::dump::ListFiles(root);
  ASSERT_EQ(files.size(), 1u);
  EXPECT_TRUE(absl::StartsWith(files[0], root + "/0/Add.Add_1."));
  ASSERT_ACL_OK(aclrtFree(x));
  ASSERT_ACL_OK(aclrtResetDevice(0));

  ASSERT_ACL_OK(aclFinalize());
  EXPECT_EQ(acldumpGetPath(DATA_DUMP), nullptr);
  EXPECT_EQ(ascendclDumpOperatorSwitch(), 0u);
  // The same config again: dumping again, under a new time-stamped
  // directory (or the same second's).
  ASSERT_ACL_OK(aclInit(good.c_str()));
  EXPECT_NE(acldumpGetPath(DATA_DUMP), nullptr);
  ASSERT_ACL_OK(aclFinalize());
}

}  // namespace
}  // namespace ascend::dump_test

int main(int argc, char** argv) {
  ::testing::InitGoogleTest(&argc, argv);
  if (argc >= 2) ascend::dump_test::g_kernels = argv[1];
  return RUN_ALL_TESTS();
}
