// The dump family on a private runtime (runtime/dump/dump.h, DESIGN.md
// §5.25): an operator's dump task, the kernel-level dump and the exception
// dump through the task path's hook, the chunk callback, custom exception
// information, and the hook's silence while nothing is configured.
#include "runtime/dump/dump.h"

#include <unistd.h>

#include <atomic>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "gtest/gtest.h"
#include "runtime/base/error.h"
#include "runtime/device_info/device_info.h"
#include "runtime/dump/dump_reader.h"
#include "runtime/kernel/kernel.h"
#include "runtime/private_runtime.h"
#include "runtime/streams/streams.h"
#include "testing/status_matchers.h"

// The simulated kernel ABI's block context, declared here (the runtime does
// not include the simulator's headers): program kernels take it first, and a
// kernel of another type would be called through a mismatched pointer.
struct aclsimKernelContext;

namespace ascend::rt {
namespace {

// Program kernels (the simulated backend calls them with a block's context
// and the argument bytes).
void Scale(const aclsimKernelContext*, void* args) {
  float* data = *static_cast<float**>(args);
  data[0] *= 2;
}
void Trap(const aclsimKernelContext*, void*) { __builtin_trap(); }

device::KernelSymbol Kernel(void (*entry)(const aclsimKernelContext*, void*)) {
  device::KernelSymbol kernel;
  kernel.entry = reinterpret_cast<const void*>(entry);
  return kernel;
}

class DumpTest : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_OK(rt_->SetDevice(0));
    dumps_ = Dumps::Of(*rt_);
    ASSERT_NE(dumps_, nullptr);
    const char* tmp = std::getenv("TEST_TMPDIR");
    root_ = absl::StrCat(
        tmp != nullptr ? tmp : "/tmp", "/dump_test_",
        ::testing::UnitTest::GetInstance()->current_test_info()->name());
  }
  void TearDown() override {
    dumps_->Configure(nullptr);
    dumps_->UnregisterCallback();
  }
  std::shared_ptr<DumpSettings> DataSettings() {
    auto s = std::make_shared<DumpSettings>();
    s->data = true;
    s->all_operators = true;
    s->inputs = true;
    s->outputs = true;
    s->data_root = root_ + "/data";
    return s;
  }
  void* Device(std::vector<float> values) {
    absl::StatusOr<void*> p = rt_.memory().Malloc(values.size() * sizeof(float),
                                                  ACL_MEM_MALLOC_HUGE_FIRST);
    EXPECT_TRUE(p.ok());
    EXPECT_OK(rt_.memory().Memcpy(*p, values.size() * sizeof(float),
                                  values.data(), values.size() * sizeof(float),
                                  ACL_MEMCPY_HOST_TO_DEVICE));
    return *p;
  }
  OperatorDump AddOp(void* x, void* out) {
    OperatorDump op;
    op.op_type = "Add";
    op.op_name = "Add.7";
    DumpTensorSpec in;
    in.role = dump::TensorRole::kInput;
    in.data_type = ACL_FLOAT;
    in.address = x;
    in.size = 8;
    in.shape = {2};
    DumpTensorSpec o = in;
    o.role = dump::TensorRole::kOutput;
    o.address = out;
    o.arg_index = 1;
    op.tensors = {in, o};
    return op;
  }
  void Sync() {
    ASSERT_OK(Streams::Of(*rt_)->SynchronizeDevice(absl::InfiniteFuture()));
  }

  PrivateRuntime rt_;
  Dumps* dumps_ = nullptr;
  std::string root_;
};

TEST_F(DumpTest, OperatorDumpFollowsItsKernelInCannLayout) {
  dumps_->Configure(DataSettings());
  void* x = Device({1, 2});
  void* out = Device({0, 0});
  // The operator's kernel: a task whose id the dump file carries.
  ASSERT_OK(DeviceInfo::Of(*rt_)->EnqueueStreamTask(nullptr, [out] {
    static_cast<float*>(out)[0] = 3;
    return absl::OkStatus();
  }));
  const uint32_t kernel_task = ThreadLastTaskId();
  ASSERT_OK(dumps_->DumpOperator(AddOp(x, out), nullptr));
  Sync();
  const std::vector<std::string> files = dump::ListFiles(root_ + "/data");
  ASSERT_EQ(files.size(), 1u);
  ASSERT_OK_AND_ASSIGN(void* stream, Streams::Of(*rt_)->CurrentDefaultStream());
  ASSERT_OK_AND_ASSIGN(StreamInfo info,
                       Streams::Of(*rt_)->GetStreamInfo(stream));
  // <root>/<device>/<type>.<name>.<task>.<stream>.<16-digit microseconds>
  const std::string prefix =
      absl::StrCat(root_, "/data/0/Add.Add_7.", kernel_task, ".", info.id, ".");
  ASSERT_TRUE(absl::StartsWith(files[0], prefix)) << files[0];
  EXPECT_EQ(files[0].size(), prefix.size() + 16);
  std::optional<dump::ReadDump> read =
      dump::ParseDump(dump::ReadWholeFile(files[0]));
  ASSERT_TRUE(read.has_value());
  EXPECT_EQ(read->op_name, "Add.7");
  ASSERT_EQ(read->inputs.size(), 1u);
  ASSERT_EQ(read->outputs.size(), 1u);
  float values[2];
  std::memcpy(values, read->outputs[0].data.data(), sizeof values);
  EXPECT_EQ(values[0], 3.0f);  // read after the kernel ran
  EXPECT_EQ(read->outputs[0].shape, std::vector<uint64_t>{2});
  EXPECT_EQ(read->outputs[0].arg_index, 1u);
}

TEST_F(DumpTest, ModeAndSelectionFilter) {
  std::shared_ptr<DumpSettings> s = DataSettings();
  s->inputs = false;  // dump_mode output
  s->all_operators = false;
  s->layers = {"Add.7"};
  dumps_->Configure(s);
  void* x = Device({1, 2});
  void* out = Device({5, 6});
  ASSERT_OK(dumps_->DumpOperator(AddOp(x, out), nullptr));
  OperatorDump other = AddOp(x, out);
  other.op_name = "Other";
  ASSERT_OK(dumps_->DumpOperator(other, nullptr));  // not in the layers
  Sync();
  const std::vector<std::string> files = dump::ListFiles(root_ + "/data");
  ASSERT_EQ(files.size(), 1u);
  std::optional<dump::ReadDump> read =
      dump::ParseDump(dump::ReadWholeFile(files[0]));
  ASSERT_TRUE(read.has_value());
  EXPECT_TRUE(read->inputs.empty());
  EXPECT_EQ(read->outputs.size(), 1u);
  // op_level off: nothing for operators.
  s = DataSettings();
  s->op_level = false;
  dumps_->Configure(s);
  ASSERT_OK(dumps_->DumpOperator(AddOp(x, out), nullptr));
  Sync();
  EXPECT_EQ(dump::ListFiles(root_ + "/data").size(), 1u);
}

TEST_F(DumpTest, NothingConfiguredQueuesNothing) {
  void* x = Device({1, 2});
  ASSERT_OK(DeviceInfo::Of(*rt_)->EnqueueStreamTask(
      nullptr, [] { return absl::OkStatus(); }));
  const uint32_t kernel = ThreadLastTaskId();
  ASSERT_OK(dumps_->DumpOperator(AddOp(x, x), nullptr));
  EXPECT_EQ(ThreadLastTaskId(), kernel);  // no task queued
  Sync();
  EXPECT_TRUE(dump::ListFiles(root_).empty());
}

std::atomic<int> g_chunks{0};
std::string g_name;
int32_t Count(const acldumpChunk* chunk, int32_t) {
  g_name = chunk->fileName;
  g_chunks++;
  return 0;
}
int32_t Other(const acldumpChunk*, int32_t) { return 0; }

TEST_F(DumpTest, CallbackTakesTheFilesInstead) {
  dumps_->Configure(DataSettings());
  ASSERT_TRUE(dumps_->RegisterCallback(&Count));
  EXPECT_FALSE(dumps_->RegisterCallback(&Other));  // one at a time
  void* x = Device({1, 2});
  g_chunks = 0;
  ASSERT_OK(dumps_->DumpOperator(AddOp(x, x), nullptr));
  Sync();
  EXPECT_EQ(g_chunks.load(), 1);
  EXPECT_TRUE(absl::StartsWith(g_name, root_ + "/data/0/Add.Add_7."));
  EXPECT_TRUE(dump::ListFiles(root_).empty());
  dumps_->UnregisterCallback();
  ASSERT_OK(dumps_->DumpOperator(AddOp(x, x), nullptr));
  Sync();
  EXPECT_EQ(g_chunks.load(), 1);
  EXPECT_EQ(dump::ListFiles(root_).size(), 1u);
}

TEST_F(DumpTest, StatisticsInsteadOfBytes) {
  std::shared_ptr<DumpSettings> s = DataSettings();
  s->stats = true;
  s->stats_items = {"Max", "Min"};
  dumps_->Configure(s);
  void* x = Device({1, 4});
  ASSERT_OK(dumps_->DumpOperator(AddOp(x, x), nullptr));
  Sync();
  const std::vector<std::string> files = dump::ListFiles(root_ + "/data");
  ASSERT_EQ(files.size(), 1u);
  EXPECT_TRUE(absl::EndsWith(files[0], ".csv"));
  EXPECT_TRUE(absl::StrContains(dump::ReadWholeFile(files[0]),
                                ",Output,0,8,0,2,\"2\",4,1\n"));
}

TEST_F(DumpTest, KernelArgumentsAndExceptionsThroughTheHook) {
  Kernels& kernels = *Kernels::Of(*rt_);
  ASSERT_OK_AND_ASSIGN(void* scale, kernels.RegisterProgramKernel(
                                        reinterpret_cast<const void*>(&Scale),
                                        "scale", Kernel(&Scale)));
  ASSERT_OK_AND_ASSIGN(void* trap, kernels.RegisterProgramKernel(
                                       reinterpret_cast<const void*>(&Trap),
                                       "trap", Kernel(&Trap)));
  void* x = Device({1.5f, 0});
  LaunchArgs args;
  args.bytes.resize(sizeof(void*));
  std::memcpy(args.bytes.data(), &x, sizeof x);

  // Nothing configured: the launch runs unwrapped.
  ASSERT_OK(kernels.Launch(scale, 1, nullptr, {}, args));
  Sync();
  EXPECT_TRUE(dump::ListFiles(root_).empty());

  std::shared_ptr<DumpSettings> s = DataSettings();
  s->exception = DumpSettings::Exception::kBrief;
  s->exception_root = root_ + "/exc";
  dumps_->Configure(s);
  ASSERT_OK(kernels.Launch(scale, 1, nullptr, {}, args));
  const uint32_t scale_task = ThreadLastTaskId();
  Sync();
  std::vector<std::string> files = dump::ListFiles(root_ + "/data");
  ASSERT_EQ(files.size(), 1u);
  EXPECT_TRUE(absl::StrContains(
      files[0], absl::StrCat("/data/0/scale.scale.", scale_task, ".")));
  std::optional<dump::ReadDump> read =
      dump::ParseDump(dump::ReadWholeFile(files[0]));
  ASSERT_TRUE(read.has_value());
  ASSERT_EQ(read->inputs.size(), 1u);
  EXPECT_EQ(read->inputs[0].input_type, dump::kArgsBuffer);
  EXPECT_EQ(read->inputs[0].data,
            std::string(reinterpret_cast<const char*>(args.bytes.data()),
                        args.bytes.size()));

  // A trapping kernel whose operator noted its tensors.
  ASSERT_OK(kernels.Launch(trap, 2, nullptr, {}, args));
  const uint32_t trap_task = ThreadLastTaskId();
  ASSERT_OK(dumps_->NoteOperator(AddOp(x, x), nullptr));
  EXPECT_EQ(
      ErrorCode(Streams::Of(*rt_)->SynchronizeDevice(absl::InfiniteFuture())),
      ACL_ERROR_RT_AICORE_TRAP_EXCEPTION);
  ASSERT_OK_AND_ASSIGN(std::string dir, dumps_->ExceptionDirectory(0));
  EXPECT_EQ(dir, root_ + "/exc/extra-info/data-dump/0");
  files = dump::ListFiles(dir);
  ASSERT_EQ(files.size(), 1u);
  ASSERT_OK_AND_ASSIGN(void* stream, Streams::Of(*rt_)->CurrentDefaultStream());
  ASSERT_OK_AND_ASSIGN(StreamInfo info,
                       Streams::Of(*rt_)->GetStreamInfo(stream));
  EXPECT_TRUE(absl::StartsWith(
      files[0],
      absl::StrCat(dir, "/exception_info.", info.id, ".", trap_task, ".")))
      << files[0];
  read = dump::ParseDump(dump::ReadWholeFile(files[0]));
  ASSERT_TRUE(read.has_value());
  EXPECT_EQ(read->op_name, "Add.7");   // the operator that noted its tensors
  ASSERT_EQ(read->inputs.size(), 2u);  // the arguments, then x
  EXPECT_EQ(read->inputs[0].input_type, dump::kArgsBuffer);
  EXPECT_EQ(read->outputs.size(), 1u);
  EXPECT_TRUE(absl::StrContains(read->dfx_message, "aic_err_brief_dump"));
  EXPECT_TRUE(absl::StrContains(read->dfx_message, "507016"));

  // aic_err_norm_dump names the file by the operator.
  s->exception = DumpSettings::Exception::kNormal;
  dumps_->Configure(s);
  ASSERT_OK(kernels.Launch(trap, 1, nullptr, {}, args));
  const uint32_t norm_task = ThreadLastTaskId();
  ASSERT_OK(dumps_->NoteOperator(AddOp(x, x), nullptr));
  (void)Streams::Of(*rt_)->SynchronizeDevice(absl::InfiniteFuture());
  files = dump::ListFiles(dir);
  ASSERT_EQ(files.size(), 2u);
  bool named = false;
  for (const std::string& f : files) {
    named |=
        absl::StartsWith(f, absl::StrCat(dir, "/Add.Add_7.", norm_task, "."));
  }
  EXPECT_TRUE(named);
}

TEST_F(DumpTest, CustomExceptionInformation) {
  void* x = Device({1, 2});
  DumpTensorSpec t;
  t.role = dump::TensorRole::kInput;
  t.data_type = ACL_FLOAT;
  t.address = x;
  t.size = 8;
  EXPECT_EQ(dumps_->SaveCustom(0, "f", "", {t}).status().code(),
            absl::StatusCode::kFailedPrecondition);
  EXPECT_EQ(dumps_->ExceptionDirectory(0).status().code(),
            absl::StatusCode::kFailedPrecondition);
  std::shared_ptr<DumpSettings> s = std::make_shared<DumpSettings>();
  s->exception = DumpSettings::Exception::kBrief;
  s->exception_root = root_;
  dumps_->Configure(s);
  ASSERT_OK_AND_ASSIGN(std::string path,
                       dumps_->SaveCustom(0, "sub/info", "tag", {t}));
  EXPECT_TRUE(absl::StartsWith(
      path, root_ + "/extra-info/data-dump/0/sub/info.custom."));
  std::optional<dump::ReadDump> read =
      dump::ParseDump(dump::ReadWholeFile(path));
  ASSERT_TRUE(read.has_value());
  EXPECT_TRUE(absl::StartsWith(read->op_name, "info.custom."));
  ASSERT_EQ(read->attrs.size(), 1u);
  EXPECT_EQ(read->attrs[0].second, "tag");
  ASSERT_EQ(read->inputs.size(), 1u);
  EXPECT_EQ(read->inputs[0].data.size(), 8u);
  // Memory outside a live allocation: refused, no file.
  t.size = 1 << 20;
  EXPECT_EQ(ErrorCode(dumps_->SaveCustom(0, "big", "", {t}).status()),
            ACL_ERROR_RT_PARAM_INVALID);
  EXPECT_EQ(dump::ListFiles(root_ + "/extra-info/data-dump/0").size(), 1u);
}

}  // namespace
}  // namespace ascend::rt
