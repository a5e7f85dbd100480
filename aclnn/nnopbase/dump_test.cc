// Operators and the data dump (DESIGN.md §5.25): every operator an executor
// runs reaches the dump with its tensors (inputs, outputs, views at their
// first element) after its kernels; aclDumpOpTensors dumps the tensors it is
// given, only while the operator dump is on (acl_meta.h; CANN's
// aclDumpOpTensors page: "takes effect only when the operator dump function
// is enabled").
#include "ascendcl/dump.h"

#include <cstdlib>
#include <cstring>
#include <fstream>
#include <string>
#include <vector>

#include "acl/acl.h"
#include "acl/acl_dump.h"
#include "aclnn/acl_meta.h"
#include "aclnn/opdev/op_errno.h"
#include "aclnn/testing/op_test_util.h"
#include "aclnnop/aclnn_add.h"
#include "runtime/dump/dump_reader.h"

namespace ascend::nn::testing {
namespace {

using rt::dump::ListFiles;
using rt::dump::ParseDump;
using rt::dump::ReadWholeFile;

class OperatorDumpTest : public OpTest {
 protected:
  static void SetUpTestSuite() { ASSERT_EQ(aclInit(nullptr), ACL_SUCCESS); }
  void SetUp() override {
    OpTest::SetUp();
    const char* tmp = std::getenv("TEST_TMPDIR");
    dir_ = std::string(tmp != nullptr ? tmp : "/tmp") + "/" +
           ::testing::UnitTest::GetInstance()->current_test_info()->name();
    ASSERT_EQ(std::system(("mkdir -p " + dir_).c_str()), 0);
  }
  void TearDown() override {
    (void)aclmdlFinalizeDump();
    OpTest::TearDown();
  }
  void DumpOn(const std::string& extra = "") {
    const std::string file = dir_ + "/dump.json";
    std::ofstream(file) << "{\"dump\": {\"dump_path\": \"" << dir_
                        << "\", \"dump_op_switch\": \"on\"" << extra << "}}";
    ASSERT_EQ(aclmdlInitDump(), ACL_SUCCESS);
    ASSERT_EQ(aclmdlSetDump(file.c_str()), ACL_SUCCESS);
  }
  int Add(const DeviceTensor& a, const DeviceTensor& b,
          const DeviceTensor& out) {
    float one = 1;
    aclScalar* alpha = aclCreateScalar(&one, ACL_FLOAT);
    const int ret = RunOp(
        stream_,
        [&](uint64_t* ws, aclOpExecutor** e) {
          return aclnnAddGetWorkspaceSize(a.get(), b.get(), alpha, out.get(),
                                          ws, e);
        },
        aclnnAdd);
    aclDestroyScalar(alpha);
    return ret;
  }
  std::string dir_;
};

TEST_F(OperatorDumpTest, EveryOperatorIsDumpedAfterItsKernels) {
  DeviceTensor x({2, 2}, ACL_FLOAT, {1, 2, 3, 4});
  // A view: column 1 of a 2x3 storage (strides 3, offset 1).
  DeviceTensor y({2}, {3}, 1, ACL_FLOAT, {0, 10, 0, 0, 20, 0});
  DeviceTensor out({2, 2}, ACL_FLOAT, {0, 0, 0, 0});
  ASSERT_EQ(Add(x, x, out), 0);  // the dump is off: nothing
  EXPECT_TRUE(ListFiles(dir_).empty());
  DumpOn(R"(, "dump_mode": "all")");
  const std::string root = acldumpGetPath(DATA_DUMP);
  ASSERT_EQ(Add(x, x, out), 0);
  DeviceTensor out1({2}, ACL_FLOAT, {0, 0});
  ASSERT_EQ(Add(y, y, out1), 0);
  // dump_level all: each operator's tensors and its kernel's arguments.
  std::vector<std::string> files;
  int kernels = 0;
  for (const std::string& f : ListFiles(root)) {
    if (f.find("/0/Add.aclnnAdd.") != std::string::npos) {
      files.push_back(f);
    } else {
      ++kernels;
    }
  }
  ASSERT_EQ(files.size(), 2u);
  EXPECT_EQ(kernels, 2);
  std::optional<rt::dump::ReadDump> first = ParseDump(ReadWholeFile(files[0]));
  std::optional<rt::dump::ReadDump> second = ParseDump(ReadWholeFile(files[1]));
  ASSERT_TRUE(first.has_value() && second.has_value());
  // Files are named by time; find the 2x2 one.
  const rt::dump::ReadDump& square =
      first->outputs[0].shape.size() == 2 ? *first : *second;
  const rt::dump::ReadDump& view =
      first->outputs[0].shape.size() == 2 ? *second : *first;
  EXPECT_EQ(square.op_name, "aclnnAdd");
  ASSERT_EQ(square.inputs.size(), 2u);  // self, other (alpha is a scalar)
  ASSERT_EQ(square.outputs.size(), 1u);
  EXPECT_EQ(square.outputs[0].shape, (std::vector<uint64_t>{2, 2}));
  float sum[4];
  std::memcpy(sum, square.outputs[0].data.data(), sizeof sum);
  EXPECT_EQ(sum[3], 8.0f);
  // The view's bytes run from its first element to its last.
  ASSERT_EQ(view.inputs.size(), 2u);
  EXPECT_EQ(view.inputs[0].size, 4u * sizeof(float));
  float column[4];
  std::memcpy(column, view.inputs[0].data.data(), sizeof column);
  EXPECT_EQ(column[0], 10.0f);
  EXPECT_EQ(column[3], 20.0f);
}

TEST_F(OperatorDumpTest, DumpOpTensors) {
  DeviceTensor x({4}, ACL_FLOAT, {1, 2, 3, 4});
  aclTensor* tensors[2] = {x.get(), x.get()};
  EXPECT_EQ(aclDumpOpTensors(nullptr, "n", tensors, 1, 1, stream_),
            ACLNN_ERR_PARAM_NULLPTR);
  EXPECT_EQ(aclDumpOpTensors("T", "n", nullptr, 1, 1, stream_),
            ACLNN_ERR_PARAM_NULLPTR);
  int not_a_tensor = 0;
  aclTensor* bad[1] = {reinterpret_cast<aclTensor*>(&not_a_tensor)};
  EXPECT_EQ(aclDumpOpTensors("T", "n", bad, 1, 0, stream_),
            ACLNN_ERR_PARAM_NULLPTR);
  // Off: 0 and nothing written.
  EXPECT_EQ(aclDumpOpTensors("Custom", "custom_1", tensors, 1, 1, stream_), 0);
  DumpOn();
  const std::string root = acldumpGetPath(DATA_DUMP);
  EXPECT_EQ(aclDumpOpTensors("Custom", "custom_1", tensors, 1, 1, stream_), 0);
  ASSERT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS);
  const std::vector<std::string> files = ListFiles(root);
  ASSERT_EQ(files.size(), 1u);
  EXPECT_NE(files[0].find("/0/Custom.custom_1."), std::string::npos);
  std::optional<rt::dump::ReadDump> read = ParseDump(ReadWholeFile(files[0]));
  ASSERT_TRUE(read.has_value());
  EXPECT_TRUE(read->inputs.empty());  // dump_mode output (the default)
  EXPECT_EQ(read->outputs.size(), 1u);
  // A stream that is not live: the dump refuses it.
  int dead = 0;
  EXPECT_EQ(aclDumpOpTensors("Custom", "c", tensors, 1, 1, &dead),
            ACLNN_ERR_PARAM_INVALID);
}

TEST_F(OperatorDumpTest, OperatorRecordTakesEveryOperator) {
  const std::string dir = dir_ + "/record";
  ASSERT_EQ(ascendclDumpStartArgs(1, dir.c_str()), ACL_SUCCESS);
  DeviceTensor x({3}, ACL_FLOAT, {1, 2, 3});
  DeviceTensor out({3}, ACL_FLOAT, {0, 0, 0});
  ASSERT_EQ(Add(x, x, out), 0);
  ASSERT_EQ(ascendclDumpStopArgs(1), ACL_SUCCESS);
  const std::vector<std::string> files = ListFiles(dir);
  ASSERT_EQ(files.size(), 1u);
  EXPECT_NE(files[0].find("/Add."), std::string::npos);
  EXPECT_NE(ReadWholeFile(files[0]).find("\"op_name\": \"aclnnAdd\""),
            std::string::npos);
}

}  // namespace
}  // namespace ascend::nn::testing
