// The process's dump configuration (acl/dump/dump_control.h, DESIGN.md
// §5.25) on a private runtime: aclInit's section and a dump round, which of
// them wins, the environment's exception dump and its paths, acldumpGetPath,
// the operator switch and the aclopStartDumpArgs record
// (docs/zh/api_ref/18_dump_configuration.md).
#include "acl/dump/dump_control.h"

#include <sys/stat.h>

#include <cstdlib>
#include <map>
#include <string>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "acl/acl_base.h"
#include "acl/acl_dump.h"
#include "gtest/gtest.h"
#include "runtime/base/error.h"
#include "runtime/dump/dump.h"
#include "runtime/dump/dump_reader.h"
#include "runtime/private_runtime.h"
#include "testing/status_matchers.h"

namespace ascend::acl::dump {
namespace {

class DumpControlTest : public ::testing::Test {
 protected:
  void SetUp() override {
    const char* tmp = std::getenv("TEST_TMPDIR");
    root_ = absl::StrCat(
        tmp != nullptr ? tmp : "/tmp", "/control_",
        ::testing::UnitTest::GetInstance()->current_test_info()->name());
    ASSERT_OK(rt::dump::MakeDirectories(root_));
  }
  std::unique_ptr<DumpControl> Make() {
    return std::make_unique<DumpControl>(
        [this] {
          ++dumps_asked_;
          return rt::Dumps::Of(*rt_);
        },
        [this](const char* name) -> const char* {
          auto it = env_.find(name);
          return it == env_.end() ? nullptr : it->second.c_str();
        });
  }
  std::string Data(const std::string& extra = "") const {
    return absl::StrCat(R"({"dump": {"dump_path": ")", root_,
                        R"(", "dump_op_switch": "on")", extra, "}}");
  }
  std::shared_ptr<const rt::DumpSettings> Settings() {
    return rt::Dumps::Of(*rt_)->settings();
  }

  rt::PrivateRuntime rt_;
  std::map<std::string, std::string> env_;
  int dumps_asked_ = 0;
  std::string root_;
};

TEST_F(DumpControlTest, NothingEnabledLeavesTheRuntimeAlone) {
  auto control = Make();
  ASSERT_OK(control->OnInit(""));
  ASSERT_OK(control->OnInit(
      absl::StrCat(R"({"dump": {"dump_path": ")", root_, "\"}}")));
  control->OnFinalize();
  EXPECT_EQ(dumps_asked_, 0);
  EXPECT_EQ(control->PathOf(DATA_DUMP), nullptr);
  EXPECT_EQ(control->OperatorSwitch(), 0u);
}

TEST_F(DumpControlTest, InitConfigEnablesAndFinalizeEnds) {
  auto control = Make();
  EXPECT_EQ(rt::ErrorCode(control->OnInit(R"({"dump": 1})")),
            ACL_ERROR_INVALID_DUMP_CONFIG);
  EXPECT_EQ(Settings(), nullptr);  // a refused section changes nothing
  ASSERT_OK(control->OnInit(Data(R"(, "dump_mode": "all")")));
  std::shared_ptr<const rt::DumpSettings> s = Settings();
  ASSERT_NE(s, nullptr);
  EXPECT_TRUE(s->data);
  EXPECT_TRUE(s->all_operators);
  EXPECT_TRUE(s->inputs && s->outputs && s->workspaces);
  EXPECT_TRUE(s->op_level && s->kernel_level);
  // <dump_path>/<YYYYmmddHHMMSS>, created by acldumpGetPath.
  EXPECT_TRUE(absl::StartsWith(s->data_root, root_ + "/"));
  EXPECT_EQ(s->data_root.size(), root_.size() + 15);
  const char* path = control->PathOf(DATA_DUMP);
  ASSERT_NE(path, nullptr);
  EXPECT_EQ(path, s->data_root);
  struct stat st;
  EXPECT_EQ(stat(path, &st), 0);
  EXPECT_STREQ(control->PathOf(OVERFLOW_DUMP), path);
  EXPECT_EQ(control->PathOf(AIC_ERR_BRIEF_DUMP), nullptr);
  EXPECT_EQ(control->PathOf(0), nullptr);
  EXPECT_EQ(control->PathOf(6), nullptr);
  EXPECT_EQ(control->OperatorSwitch(), kOperatorData);
  // A round may not start over aclInit's dump (100044).
  EXPECT_EQ(rt::ErrorCode(control->BeginRound()), ACL_ERROR_DUMP_ALREADY_RUN);
  control->OnFinalize();
  EXPECT_EQ(Settings(), nullptr);
  EXPECT_EQ(control->PathOf(DATA_DUMP), nullptr);
  EXPECT_OK(control->BeginRound());
}

TEST_F(DumpControlTest, RoundsOrderAndOverride) {
  auto control = Make();
  EXPECT_EQ(rt::ErrorCode(control->SetRound(Data())), ACL_ERROR_DUMP_NOT_RUN);
  EXPECT_EQ(rt::ErrorCode(control->EndRound()), ACL_ERROR_DUMP_NOT_RUN);
  EXPECT_FALSE(control->RoundOpen());
  ASSERT_OK(control->BeginRound());
  EXPECT_TRUE(control->RoundOpen());
  EXPECT_EQ(rt::ErrorCode(control->BeginRound()), ACL_ERROR_REPEAT_INITIALIZE);
  EXPECT_EQ(Settings(), nullptr);  // a round dumps nothing before SetDump
  ASSERT_OK(control->SetRound(Data()));
  EXPECT_TRUE(Settings()->all_operators);
  // A later setting replaces the earlier one.
  ASSERT_OK(control->SetRound(absl::StrCat(
      R"({"dump": {"dump_path": ")", root_,
      R"(", "dump_list": [{"layer": ["Add_1"]}], "dump_level": "op"}})")));
  std::shared_ptr<const rt::DumpSettings> s = Settings();
  EXPECT_FALSE(s->all_operators);
  EXPECT_EQ(s->layers, std::vector<std::string>{"Add_1"});
  EXPECT_FALSE(s->kernel_level);
  // A section that asks for nothing keeps what is set; a bad one is refused.
  ASSERT_OK(control->SetRound("{}"));
  EXPECT_EQ(Settings(), s);
  EXPECT_EQ(rt::ErrorCode(control->SetRound(R"({"dump": {"dump_mode": 1}})")),
            ACL_ERROR_INVALID_DUMP_CONFIG);
  EXPECT_EQ(Settings(), s);
  ASSERT_OK(control->EndRound());
  EXPECT_EQ(Settings(), nullptr);
}

TEST_F(DumpControlTest, ExceptionDumpPathsAndSwitch) {
  auto control = Make();
  ASSERT_OK(control->BeginRound());
  ASSERT_OK(control->SetRound(absl::StrCat(
      R"({"dump": {"dump_scene": "aic_err_brief_dump", "dump_path": ")", root_,
      "/exc\"}}")));
  EXPECT_TRUE(control->ExceptionEnabled());
  EXPECT_EQ(control->ExceptionRoot(), root_ + "/exc");
  EXPECT_EQ(control->OperatorSwitch(), kOperatorException);
  const char* extra = control->PathOf(AIC_ERR_NORM_DUMP);
  ASSERT_NE(extra, nullptr);
  EXPECT_EQ(std::string(extra), root_ + "/exc/extra-info/data-dump");
  EXPECT_EQ(control->PathOf(DATA_DUMP), nullptr);
  // Enabled once: a second scene changes nothing.
  ASSERT_OK(
      control->SetRound(R"({"dump": {"dump_scene": "aic_err_norm_dump"}})"));
  EXPECT_EQ(Settings()->exception, rt::DumpSettings::Exception::kBrief);
  // A data dump beside it.
  ASSERT_OK(control->SetRound(Data()));
  EXPECT_TRUE(control->ExceptionEnabled());
  EXPECT_EQ(control->OperatorSwitch(), kOperatorData | kOperatorException);
  ASSERT_OK(control->EndRound());
  EXPECT_FALSE(control->ExceptionEnabled());
}

TEST_F(DumpControlTest, EnvironmentEnablesTheExceptionDump) {
  env_["ASCEND_DUMP_SCENE"] = "aic_err_detail_dump";
  env_["ASCEND_WORK_PATH"] = root_ + "/work";
  auto control = Make();
  ASSERT_NE(Settings(), nullptr);  // at once, without a config
  EXPECT_EQ(Settings()->exception, rt::DumpSettings::Exception::kDetail);
  EXPECT_EQ(control->ExceptionRoot(), root_ + "/work");
  // Over a configured exception dump, the environment's root wins.
  ASSERT_OK(control->OnInit(
      R"({"dump": {"dump_scene": "aic_err_brief_dump", "dump_path": "x"}})"));
  EXPECT_EQ(Settings()->exception, rt::DumpSettings::Exception::kBrief);
  EXPECT_EQ(control->ExceptionRoot(), root_ + "/work");
  control->OnFinalize();  // the environment's stays
  EXPECT_EQ(Settings()->exception, rt::DumpSettings::Exception::kDetail);
}

TEST_F(DumpControlTest, EnvironmentOrder) {
  env_["ASCEND_DUMP_SCENE"] = "aic_err_brief_dump";
  env_["ASCEND_DUMP_PATH"] = root_ + "/dump";
  env_["ASCEND_WORK_PATH"] = root_ + "/work";
  EXPECT_EQ(Make()->ExceptionRoot(), root_ + "/dump");
  env_.clear();
  env_["NPU_COLLECT_PATH"] = root_ + "/collect";
  auto collect = Make();
  EXPECT_EQ(Settings()->exception, rt::DumpSettings::Exception::kNormal);
  EXPECT_EQ(collect->ExceptionRoot(), root_ + "/collect");
  env_.clear();
  env_["ASCEND_DUMP_SCENE"] = "lite_exception";  // not an environment scene
  rt::Dumps::Of(*rt_)->Configure(nullptr);
  auto none = Make();
  EXPECT_FALSE(none->ExceptionEnabled());
  // No environment: a relative dump_path is taken in the working directory.
  env_.clear();
  auto plain = Make();
  ASSERT_OK(plain->OnInit(
      R"({"dump": {"dump_scene": "aic_err_brief_dump", "dump_path": "rel"}})"));
  EXPECT_TRUE(absl::EndsWith(plain->ExceptionRoot(), "/rel"));
  EXPECT_EQ(plain->ExceptionRoot()[0], '/');
}

TEST_F(DumpControlTest, OperatorInformationRecord) {
  auto control = Make();
  const std::string dir = root_ + "/info/sub";
  ASSERT_OK(control->StartOperatorInfo(dir));  // created
  EXPECT_EQ(control->OperatorSwitch(), kOperatorInfo);
  EXPECT_EQ(control->StartOperatorInfo(dir).code(),
            absl::StatusCode::kFailedPrecondition);
  rt::OperatorDump op;
  op.op_type = "Add";
  op.op_name = "Add_1";
  rt::DumpTensorSpec t;
  t.data_type = ACL_FLOAT;
  t.shape = {4, 2};
  op.tensors = {t, t};
  op.tensors[1].role = rt::dump::TensorRole::kOutput;
  control->RecordOperator(op);
  control->RecordOperator(op);  // the same signature: one file
  op.tensors[0].shape = {8};
  control->RecordOperator(op);  // another shape: another file
  std::vector<std::string> files = rt::dump::ListFiles(dir);
  ASSERT_EQ(files.size(), 2u);
  EXPECT_TRUE(absl::EndsWith(files[0], ".json"));
  EXPECT_TRUE(absl::StartsWith(files[0], dir + "/Add."));
  const std::string text = rt::dump::ReadWholeFile(files[0]);
  EXPECT_TRUE(absl::StrContains(text, "\"op_type\": \"Add\""));
  EXPECT_TRUE(absl::StrContains(text, "\"outputs\""));
  control->StopOperatorInfo();
  EXPECT_EQ(control->OperatorSwitch(), 0u);
  op.tensors[0].shape = {16};
  control->RecordOperator(op);
  EXPECT_EQ(rt::dump::ListFiles(dir).size(), 2u);
  // Paths that cannot be a record directory.
  EXPECT_EQ(control->StartOperatorInfo("").code(),
            absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(control->StartOperatorInfo(files[0]).code(),
            absl::StatusCode::kInvalidArgument);
  ASSERT_OK(control->StartOperatorInfo(dir));  // again after a stop
}

}  // namespace
}  // namespace ascend::acl::dump
