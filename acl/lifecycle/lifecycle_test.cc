// Lifecycle on private instances: the scenario table of reference §1.6, the
// notification order and failure rules of §1.7, the config through Init, and
// the config-identity rule (each instance starts like a fresh process).
#include "acl/lifecycle/lifecycle.h"

#include <string>
#include <vector>

#include "acl/acl_base.h"
#include "acl/acl_rt.h"
#include "acl/lifecycle/test_util.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "runtime/base/error.h"
#include "runtime/default_device.h"
#include "testing/status_matchers.h"

namespace ascend::acl {
namespace {

using ::ascend::acl::testing::FinalizeFn;
using ::ascend::acl::testing::InitFn;
using ::ascend::acl::testing::Probe;
using ::ascend::acl::testing::Recorder;
using ::ascend::acl::testing::WriteTempFile;
using ::testing::ElementsAre;
using ::testing::IsEmpty;

int32_t Code(const absl::Status& status) { return rt::ErrorCode(status); }

constexpr CallbackType kModel = ACL_REG_TYPE_ACL_MODEL;
constexpr CallbackType kOpExecutor = ACL_REG_TYPE_ACL_OP_EXECUTOR;
constexpr CallbackType kOpCompiler = ACL_REG_TYPE_ACL_OP_COMPILER;
constexpr CallbackType kDvpp = ACL_REG_TYPE_ACL_DVPP;
constexpr CallbackType kRetr = ACL_REG_TYPE_ACL_RETR;
constexpr CallbackType kOther = ACL_REG_TYPE_OTHER;

class LifecycleTest : public ::testing::Test {
 protected:
  // One init and one finalize probe per type, all registered.
  void RegisterAll() {
    const CallbackType types[] = {0, 1, 2, 3, 4, 5, 6, 7};
    for (CallbackType type : types) {
      init_probes_.emplace_back(std::to_string(type), &log_);
      fin_probes_.emplace_back(std::to_string(type), &log_);
    }
    init_probes_.emplace_back("other1", &log_);
    init_probes_.emplace_back("other2", &log_);
    fin_probes_.emplace_back("other1", &log_);
    fin_probes_.emplace_back("other2", &log_);
    for (CallbackType type : types) {
      ASSERT_OK(lifecycle_.RegisterInitCallback(type, InitFn<0>,
                                                &init_probes_[type]));
      ASSERT_OK(lifecycle_.RegisterFinalizeCallback(type, FinalizeFn<0>,
                                                    &fin_probes_[type]));
    }
    ASSERT_OK(
        lifecycle_.RegisterInitCallback(kOther, InitFn<0>, &init_probes_[8]));
    ASSERT_OK(
        lifecycle_.RegisterInitCallback(kOther, InitFn<1>, &init_probes_[9]));
    ASSERT_OK(lifecycle_.RegisterFinalizeCallback(kOther, FinalizeFn<0>,
                                                  &fin_probes_[8]));
    ASSERT_OK(lifecycle_.RegisterFinalizeCallback(kOther, FinalizeFn<1>,
                                                  &fin_probes_[9]));
  }

  Probe& init_probe(CallbackType type) {
    return init_probes_[type == kOther ? 8 : type];
  }
  Probe& fin_probe(CallbackType type) {
    return fin_probes_[type == kOther ? 8 : type];
  }

  Recorder log_;
  // Reserved so that pointers handed out as userData stay valid.
  std::vector<Probe> init_probes_ = Reserved();
  std::vector<Probe> fin_probes_ = Reserved();
  Lifecycle lifecycle_;

 private:
  static std::vector<Probe> Reserved() {
    std::vector<Probe> v;
    v.reserve(16);
    return v;
  }
};

const std::vector<std::string> kInitOrderWithPath = {
    "init:0", "init:1", "init:6", "init:other1", "init:other2"};
const std::vector<std::string> kInitOrderWithoutPath = {
    "init:0", "init:6", "init:other1", "init:other2"};
const std::vector<std::string> kFinalizeOrder = {
    "finalize:3", "finalize:0", "finalize:6", "finalize:other1",
    "finalize:other2"};

// --- scenario table (reference §1.6) -----------------------------------

TEST_F(LifecycleTest, RepeatedInitCountsWithoutCallbacks) {  // rows 1-3
  RegisterAll();
  std::string a = WriteTempFile("rows123_a.json", "{\"a\": 1}");
  std::string b = WriteTempFile("rows123_b.json", "{\"b\": 2}");
  EXPECT_OK(lifecycle_.Init(a.c_str()));
  EXPECT_EQ(lifecycle_.ref_count(), 1u);
  log_.Clear();
  EXPECT_EQ(Code(lifecycle_.Init(a.c_str())), ACL_ERROR_REPEAT_INITIALIZE);
  EXPECT_EQ(lifecycle_.ref_count(), 2u);
  // Different content while initialised: not compared, just counted.
  EXPECT_EQ(Code(lifecycle_.Init(b.c_str())), ACL_ERROR_REPEAT_INITIALIZE);
  EXPECT_EQ(lifecycle_.ref_count(), 3u);
  // Not even a missing file is looked at.
  EXPECT_EQ(Code(lifecycle_.Init("/nonexistent.json")),
            ACL_ERROR_REPEAT_INITIALIZE);
  EXPECT_EQ(lifecycle_.ref_count(), 4u);
  EXPECT_THAT(log_.events(), IsEmpty());
}

TEST_F(LifecycleTest, FinalizeReferenceCountsDownThenFinalizes) {  // 4-6
  RegisterAll();
  ASSERT_OK(lifecycle_.Init(nullptr));
  ASSERT_EQ(Code(lifecycle_.Init(nullptr)), ACL_ERROR_REPEAT_INITIALIZE);
  log_.Clear();

  uint64_t count = 99;
  EXPECT_OK(lifecycle_.FinalizeReference(&count));
  EXPECT_EQ(count, 1u);
  EXPECT_THAT(log_.events(), IsEmpty());

  EXPECT_OK(lifecycle_.FinalizeReference(&count));
  EXPECT_EQ(count, 0u);
  EXPECT_EQ(log_.events(), kFinalizeOrder);

  log_.Clear();
  count = 99;
  EXPECT_EQ(Code(lifecycle_.FinalizeReference(&count)),
            ACL_ERROR_REPEAT_FINALIZE);
  EXPECT_EQ(count, 0u);
  EXPECT_EQ(Code(lifecycle_.FinalizeReference(nullptr)),
            ACL_ERROR_REPEAT_FINALIZE);
  EXPECT_THAT(log_.events(), IsEmpty());
}

TEST_F(LifecycleTest, FinalizeReferenceAcceptsNull) {
  ASSERT_OK(lifecycle_.Init(nullptr));
  ASSERT_EQ(Code(lifecycle_.Init(nullptr)), ACL_ERROR_REPEAT_INITIALIZE);
  EXPECT_OK(lifecycle_.FinalizeReference(nullptr));
  EXPECT_EQ(lifecycle_.ref_count(), 1u);
  EXPECT_OK(lifecycle_.FinalizeReference(nullptr));
  EXPECT_EQ(lifecycle_.ref_count(), 0u);
}

TEST_F(LifecycleTest, FinalizeDropsEveryReferenceOnce) {  // rows 7-8
  RegisterAll();
  ASSERT_OK(lifecycle_.Init(nullptr));
  for (int i = 0; i < 4; ++i) lifecycle_.Init(nullptr).IgnoreError();
  ASSERT_EQ(lifecycle_.ref_count(), 5u);
  log_.Clear();
  EXPECT_OK(lifecycle_.Finalize());
  EXPECT_EQ(lifecycle_.ref_count(), 0u);
  EXPECT_EQ(log_.events(), kFinalizeOrder);

  log_.Clear();
  EXPECT_EQ(Code(lifecycle_.Finalize()), ACL_ERROR_REPEAT_FINALIZE);
  EXPECT_THAT(log_.events(), IsEmpty());
}

TEST_F(LifecycleTest, FinalizeAfterFinalizeReferenceIsRepeat) {  // row 8
  ASSERT_OK(lifecycle_.Init(nullptr));
  ASSERT_OK(lifecycle_.FinalizeReference(nullptr));
  EXPECT_EQ(Code(lifecycle_.Finalize()), ACL_ERROR_REPEAT_FINALIZE);
}

TEST_F(LifecycleTest, InitAfterFinalizeIsAFullInit) {  // row 9
  RegisterAll();
  std::string a = WriteTempFile("row9_a.json", "{\"a\": 1}");
  ASSERT_OK(lifecycle_.Init(a.c_str()));
  ASSERT_OK(lifecycle_.Finalize());
  log_.Clear();
  EXPECT_OK(lifecycle_.Init(a.c_str()));
  EXPECT_EQ(lifecycle_.ref_count(), 1u);
  EXPECT_EQ(log_.events(), kInitOrderWithPath);
}

TEST_F(LifecycleTest, ReinitMustPresentTheFirstContent) {  // row 10
  RegisterAll();
  std::string a = WriteTempFile("row10_a.json", "{\"a\": 1}");
  std::string a_copy = WriteTempFile("row10_a_copy.json", "{\"a\": 1}");
  std::string b = WriteTempFile("row10_b.json", "{\"a\": 2}");
  ASSERT_OK(lifecycle_.Init(a.c_str()));
  ASSERT_OK(lifecycle_.Finalize());
  log_.Clear();
  EXPECT_EQ(Code(lifecycle_.Init(b.c_str())), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(lifecycle_.ref_count(), 0u);
  EXPECT_EQ(Code(lifecycle_.Init(nullptr)), ACL_ERROR_INVALID_PARAM);
  EXPECT_THAT(log_.events(), IsEmpty());
  // Same bytes under another path are fine.
  EXPECT_OK(lifecycle_.Init(a_copy.c_str()));
  EXPECT_EQ(log_.events(), kInitOrderWithPath);
}

TEST_F(LifecycleTest, NullFirstConfigCountsAsEmptyContent) {  // row 11
  RegisterAll();
  std::string x = WriteTempFile("row11_x.json", "{\"x\": 1}");
  std::string empty = WriteTempFile("row11_empty.json", "");
  ASSERT_OK(lifecycle_.Init(nullptr));
  ASSERT_OK(lifecycle_.Finalize());
  EXPECT_EQ(Code(lifecycle_.Init(x.c_str())), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(lifecycle_.ref_count(), 0u);
  // "" and an empty file have the same (empty) content as NULL.
  EXPECT_OK(lifecycle_.Init(""));
  ASSERT_OK(lifecycle_.Finalize());
  log_.Clear();
  EXPECT_OK(lifecycle_.Init(empty.c_str()));
  // A non-empty path (even to an empty file) notifies OP_EXECUTOR.
  EXPECT_EQ(log_.events(), kInitOrderWithPath);
}

TEST_F(LifecycleTest, OnlyTheFirstSuccessfulInitFixesTheContent) {
  std::string bad = WriteTempFile("first_bad.json", "{\"err_msg_mode\": 1}");
  std::string good = WriteTempFile("first_good.json", "{\"ok\": true}");
  EXPECT_EQ(Code(lifecycle_.Init(bad.c_str())), ACL_ERROR_INVALID_PARAM);
  EXPECT_OK(lifecycle_.Init(good.c_str()));
  ASSERT_OK(lifecycle_.Finalize());
  EXPECT_EQ(Code(lifecycle_.Init(nullptr)), ACL_ERROR_INVALID_PARAM);
  EXPECT_OK(lifecycle_.Init(good.c_str()));
}

TEST_F(LifecycleTest, MissingConfigIsInvalidFile) {  // row 13
  RegisterAll();
  EXPECT_EQ(Code(lifecycle_.Init("missing.json")), ACL_ERROR_INVALID_FILE);
  EXPECT_EQ(lifecycle_.ref_count(), 0u);
  EXPECT_THAT(log_.events(), IsEmpty());
}

TEST_F(LifecycleTest, BadErrMsgModeIsInvalidParamBeforeAnyCallback) {  // 14
  RegisterAll();
  std::string path = WriteTempFile("row14.json", "{\"err_msg_mode\": \"2\"}");
  EXPECT_EQ(Code(lifecycle_.Init(path.c_str())), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(lifecycle_.ref_count(), 0u);
  EXPECT_THAT(log_.events(), IsEmpty());
}

TEST_F(LifecycleTest, FinalizeWhenNeverInitialisedIsRepeat) {  // row 15
  RegisterAll();
  EXPECT_EQ(Code(lifecycle_.Finalize()), ACL_ERROR_REPEAT_FINALIZE);
  uint64_t count = 7;
  EXPECT_EQ(Code(lifecycle_.FinalizeReference(&count)),
            ACL_ERROR_REPEAT_FINALIZE);
  EXPECT_EQ(count, 0u);
  EXPECT_THAT(log_.events(), IsEmpty());
}

TEST_F(LifecycleTest, FinalizeAfterAFailedInitIsRepeat) {
  RegisterAll();
  init_probe(kDvpp).result = 42;
  ASSERT_EQ(Code(lifecycle_.Init(nullptr)), 42);
  log_.Clear();
  EXPECT_EQ(Code(lifecycle_.Finalize()), ACL_ERROR_REPEAT_FINALIZE);
  EXPECT_THAT(log_.events(), IsEmpty());
}

// --- notification order ------------------------------------------------

TEST_F(LifecycleTest, NotificationOrderAndTypes) {
  RegisterAll();
  std::string path = WriteTempFile("order.json", "{}");
  ASSERT_OK(lifecycle_.Init(path.c_str()));
  EXPECT_EQ(log_.events(), kInitOrderWithPath);
  log_.Clear();
  ASSERT_OK(lifecycle_.Finalize());
  EXPECT_EQ(log_.events(), kFinalizeOrder);
}

TEST_F(LifecycleTest, OpExecutorNeedsAPath) {
  RegisterAll();
  ASSERT_OK(lifecycle_.Init(nullptr));
  EXPECT_EQ(log_.events(), kInitOrderWithoutPath);
  ASSERT_OK(lifecycle_.Finalize());
  log_.Clear();
  ASSERT_OK(lifecycle_.Init(""));
  EXPECT_EQ(log_.events(), kInitOrderWithoutPath);
}

TEST_F(LifecycleTest, RegistrationsPersistAcrossCycles) {
  RegisterAll();
  for (int cycle = 0; cycle < 3; ++cycle) {
    ASSERT_OK(lifecycle_.Init(nullptr));
    ASSERT_OK(lifecycle_.Finalize());
  }
  EXPECT_EQ(init_probe(kModel).calls, 3);
  EXPECT_EQ(init_probe(kOther).calls, 3);
  EXPECT_EQ(init_probe(kOpCompiler).calls, 0);
  EXPECT_EQ(fin_probe(kOpCompiler).calls, 3);
  EXPECT_EQ(fin_probe(kOpExecutor).calls, 0);
  EXPECT_EQ(fin_probe(kRetr).calls, 0);
}

TEST_F(LifecycleTest, UnregisteredCallbacksAreNotCalled) {
  RegisterAll();
  ASSERT_OK(lifecycle_.UnregisterInitCallback(kOther, InitFn<0>));
  ASSERT_OK(lifecycle_.UnregisterInitCallback(kModel, InitFn<0>));
  ASSERT_OK(lifecycle_.UnregisterFinalizeCallback(kOther, FinalizeFn<1>));
  ASSERT_OK(lifecycle_.UnregisterFinalizeCallback(kDvpp, FinalizeFn<0>));
  ASSERT_OK(lifecycle_.Init(nullptr));
  ASSERT_OK(lifecycle_.Finalize());
  EXPECT_THAT(log_.events(), ElementsAre("init:6", "init:other2", "finalize:3",
                                         "finalize:0", "finalize:other1"));
}

TEST_F(LifecycleTest, RegistrationErrorsAreExact) {
  EXPECT_EQ(Code(lifecycle_.RegisterInitCallback(kModel, nullptr, nullptr)),
            ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(Code(lifecycle_.UnregisterInitCallback(kModel, nullptr)),
            ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(Code(lifecycle_.RegisterFinalizeCallback(kModel, nullptr, nullptr)),
            ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(Code(lifecycle_.UnregisterFinalizeCallback(kModel, nullptr)),
            ACL_ERROR_INVALID_PARAM);
  ASSERT_OK(lifecycle_.RegisterInitCallback(kModel, InitFn<0>, nullptr));
  EXPECT_EQ(Code(lifecycle_.RegisterInitCallback(kModel, InitFn<1>, nullptr)),
            ACL_ERROR_INTERNAL_ERROR);
  EXPECT_EQ(Code(lifecycle_.UnregisterInitCallback(kModel, InitFn<1>)),
            ACL_ERROR_INTERNAL_ERROR);
  EXPECT_EQ(Code(lifecycle_.UnregisterFinalizeCallback(kModel, FinalizeFn<0>)),
            ACL_ERROR_INTERNAL_ERROR);
  // Types are not range-checked.
  EXPECT_OK(lifecycle_.RegisterFinalizeCallback(200, FinalizeFn<0>, nullptr));
  EXPECT_OK(lifecycle_.UnregisterFinalizeCallback(200, FinalizeFn<0>));
}

// --- failures ----------------------------------------------------------

TEST_F(LifecycleTest, InitFailureIsVerbatimStopsAndIsNotRolledBack) {
  RegisterAll();
  init_probe(kDvpp).result = 507033;
  std::string path = WriteTempFile("init_fail.json", "{}");
  EXPECT_EQ(Code(lifecycle_.Init(path.c_str())), 507033);
  EXPECT_EQ(lifecycle_.ref_count(), 0u);
  // MODEL and OP_EXECUTOR stay initialised; no finalize notification.
  EXPECT_THAT(log_.events(), ElementsAre("init:0", "init:1", "init:6"));

  // The first failing callback of a type stops the rest of that type.
  log_.Clear();
  init_probe(kDvpp).result = 0;
  init_probe(kOther).result = 1;
  EXPECT_EQ(Code(lifecycle_.Init(path.c_str())), 1);
  EXPECT_THAT(log_.events(),
              ElementsAre("init:0", "init:1", "init:6", "init:other1"));

  // A retry notifies everything again.
  log_.Clear();
  init_probe(kOther).result = 0;
  EXPECT_OK(lifecycle_.Init(path.c_str()));
  EXPECT_EQ(log_.events(), kInitOrderWithPath);
}

TEST_F(LifecycleTest, AnyNonZeroCallbackCodeIsReturnedUnchanged) {
  RegisterAll();
  for (int32_t code : {1, 100000, 107000, 500000, 999999, 2147483647}) {
    init_probe(kModel).result = code;
    EXPECT_EQ(Code(lifecycle_.Init(nullptr)), code);
  }
  init_probe(kModel).result = 0;
  ASSERT_OK(lifecycle_.Init(nullptr));
  for (int32_t code : {1, 100037, 507000, 2147483647}) {
    fin_probe(kOther).result = code;
    EXPECT_EQ(Code(lifecycle_.Finalize()), code);
  }
}

TEST_F(LifecycleTest, FinalizeFailureKeepsTheCountForARetry) {
  RegisterAll();
  ASSERT_OK(lifecycle_.Init(nullptr));
  ASSERT_EQ(Code(lifecycle_.Init(nullptr)), ACL_ERROR_REPEAT_INITIALIZE);
  log_.Clear();
  fin_probe(kModel).result = 777;
  EXPECT_EQ(Code(lifecycle_.Finalize()), 777);
  EXPECT_EQ(lifecycle_.ref_count(), 2u);
  EXPECT_THAT(log_.events(), ElementsAre("finalize:3", "finalize:0"));

  // The retry re-runs the callbacks that already succeeded.
  log_.Clear();
  fin_probe(kModel).result = 0;
  EXPECT_OK(lifecycle_.Finalize());
  EXPECT_EQ(log_.events(), kFinalizeOrder);
  EXPECT_EQ(lifecycle_.ref_count(), 0u);
}

TEST_F(LifecycleTest, FinalizeReferenceFailureReportsTheKeptCount) {
  RegisterAll();
  ASSERT_OK(lifecycle_.Init(nullptr));
  fin_probe(kOther).result = 555;
  uint64_t count = 0;
  EXPECT_EQ(Code(lifecycle_.FinalizeReference(&count)), 555);
  EXPECT_EQ(count, 1u);
  fin_probe(kOther).result = 0;
  EXPECT_OK(lifecycle_.FinalizeReference(&count));
  EXPECT_EQ(count, 0u);
}

// --- late registration -------------------------------------------------

TEST_F(LifecycleTest, InitCallbackRegisteredWhileInitialisedRunsAtOnce) {
  std::string bytes = "{ \"late\" :  true }\n";
  std::string path = WriteTempFile("late.json", bytes);
  ASSERT_OK(lifecycle_.Init(path.c_str()));

  Probe late("late", &log_);
  late.result = 12345;  // ignored
  // Any type, even one Init never notifies.
  EXPECT_OK(lifecycle_.RegisterInitCallback(kRetr, InitFn<0>, &late));
  EXPECT_EQ(late.calls, 1);
  EXPECT_EQ(late.last_config, bytes);
  EXPECT_EQ(lifecycle_.ref_count(), 1u);

  // Finalize callbacks are never called at registration.
  Probe fin("fin", &log_);
  EXPECT_OK(lifecycle_.RegisterFinalizeCallback(kOther, FinalizeFn<0>, &fin));
  EXPECT_EQ(fin.calls, 0);

  // A refused registration runs nothing.
  Probe refused("refused", &log_);
  EXPECT_EQ(Code(lifecycle_.RegisterInitCallback(kRetr, InitFn<1>, &refused)),
            ACL_ERROR_INTERNAL_ERROR);
  EXPECT_EQ(refused.calls, 0);

  ASSERT_OK(lifecycle_.Finalize());
  Probe after("after", &log_);
  EXPECT_OK(lifecycle_.RegisterInitCallback(kOther, InitFn<2>, &after));
  EXPECT_EQ(after.calls, 0);
}

TEST_F(LifecycleTest, LateRegistrationBeforeAnyInitRunsNothing) {
  Probe early("early", &log_);
  EXPECT_OK(lifecycle_.RegisterInitCallback(kOther, InitFn<0>, &early));
  EXPECT_EQ(early.calls, 0);
}

// --- what callbacks receive ----------------------------------------------

TEST_F(LifecycleTest, CallbacksReceiveTheRawBytes) {
  RegisterAll();
  const std::string bytes =
      "{\n  \"max_opqueue_num\" : \"1000\",\t\"x\": [1, 2]\n}\n\n";
  std::string path = WriteTempFile("raw_bytes.json", bytes);
  ASSERT_OK(lifecycle_.Init(path.c_str()));
  for (CallbackType type : {kModel, kOpExecutor, kDvpp, kOther}) {
    EXPECT_EQ(init_probe(type).last_config, bytes) << type;
  }
}

TEST_F(LifecycleTest, NoConfigGivesAnEmptyString) {
  RegisterAll();
  ASSERT_OK(lifecycle_.Init(nullptr));
  ASSERT_NE(init_probe(kModel).last_config_pointer, nullptr);
  EXPECT_EQ(init_probe(kModel).last_config, "");
}

// --- config through Init -----------------------------------------------

TEST_F(LifecycleTest, ConfigErrorsComeBeforeAnyCallback) {
  RegisterAll();
  struct Case {
    const char* name;
    std::string bytes;
    int32_t code;
  };
  const Case cases[] = {
      {"depth_brace.json", std::string(11, '{') + std::string(11, '}'),
       ACL_ERROR_PARSE_FILE},
      {"depth_bracket.json",
       "{\"a\":" + std::string(11, '[') + std::string(11, ']') + "}",
       ACL_ERROR_PARSE_FILE},
      {"bad_json.json", "{\"a\": ", ACL_ERROR_PARSE_FILE},
      {"too_big.json", std::string(kMaxConfigBytes + 1, ' '),
       ACL_ERROR_INVALID_FILE},
      {"err_msg_number.json", "{\"err_msg_mode\": 1}", ACL_ERROR_INVALID_PARAM},
  };
  for (const Case& c : cases) {
    Lifecycle fresh;
    Probe model("model", &log_);
    ASSERT_OK(fresh.RegisterInitCallback(kModel, InitFn<0>, &model));
    EXPECT_EQ(Code(fresh.Init(WriteTempFile(c.name, c.bytes).c_str())), c.code)
        << c.name;
    EXPECT_EQ(model.calls, 0) << c.name;
    EXPECT_EQ(fresh.ref_count(), 0u);
  }
  std::string dir = ::ascend::acl::testing::MakeTempDir("config_dir");
  EXPECT_EQ(Code(lifecycle_.Init(dir.c_str())), ACL_ERROR_INVALID_FILE);
  EXPECT_THAT(log_.events(), IsEmpty());
}

TEST_F(LifecycleTest, DeviceSettingErrorsComeAfterOpExecutor) {
  struct Case {
    const char* name;
    const char* bytes;
    int32_t code;
  };
  const Case cases[] = {
      {"dd_leading_zero.json",
       "{\"defaultDevice\": {\"default_device\": \"01\"}}", ACL_ERROR_FAILURE},
      {"dd_negative.json", "{\"defaultDevice\": {\"default_device\": \"-1\"}}",
       ACL_ERROR_FAILURE},
      {"dd_number.json", "{\"defaultDevice\": {\"default_device\": 1}}",
       ACL_ERROR_FAILURE},
      {"stack_string.json", "{\"StackSize\": {\"aicore_stack_size\": \"1\"}}",
       ACL_ERROR_FAILURE},
      {"printf_quoted.json", "{\"simt_printf_fifo_size\": \"1024\"}",
       ACL_ERROR_FAILURE},
      {"event_mode_two.json", "{\"acl_graph\": {\"event_mode\": \"2\"}}",
       ACL_ERROR_INVALID_PARAM},
      {"event_mode_number.json", "{\"acl_graph\": {\"event_mode\": 1}}",
       ACL_ERROR_INVALID_PARAM},
  };
  for (const Case& c : cases) {
    Lifecycle fresh;
    Recorder log;
    Probe model("model", &log), executor("executor", &log), dvpp("dvpp", &log);
    ASSERT_OK(fresh.RegisterInitCallback(kModel, InitFn<0>, &model));
    ASSERT_OK(fresh.RegisterInitCallback(kOpExecutor, InitFn<0>, &executor));
    ASSERT_OK(fresh.RegisterInitCallback(kDvpp, InitFn<0>, &dvpp));
    EXPECT_EQ(Code(fresh.Init(WriteTempFile(c.name, c.bytes).c_str())), c.code)
        << c.name;
    EXPECT_THAT(log.events(), ElementsAre("init:model", "init:executor"))
        << c.name;
    EXPECT_EQ(fresh.ref_count(), 0u);
  }
}

TEST_F(LifecycleTest, SettingsAreStored) {
  std::string path = WriteTempFile(
      "settings.json",
      "{\"err_msg_mode\": \"1\", \"StackSize\": {\"aicore_stack_size\": 32768,"
      " \"simt_stack_size\": 1024, \"simt_divergence_stack_size\": 2048},"
      " \"simd_printf_fifo_size_per_core\": 65536,"
      " \"simt_printf_fifo_size\": 131072,"
      " \"acl_graph\": {\"event_mode\": \"1\"},"
      " \"dump\": {\"dump_path\": \"/tmp\"}, \"profiler\": {\"x\": 1}}");
  ASSERT_OK(lifecycle_.Init(path.c_str()));
  ConfigSettings s = lifecycle_.settings();
  EXPECT_EQ(s.err_msg_mode, ErrMsgMode::kProcess);
  EXPECT_EQ(s.aicore_stack_size, 32768u);
  EXPECT_EQ(s.simt_stack_size, 1024u);
  EXPECT_EQ(s.simt_divergence_stack_size, 2048u);
  EXPECT_EQ(s.simd_printf_fifo_size_per_core, 65536u);
  EXPECT_EQ(s.simt_printf_fifo_size, 131072u);
  EXPECT_EQ(s.event_mode, 1);
  EXPECT_FALSE(s.default_device.has_value());
}

TEST_F(LifecycleTest, DefaultDeviceIsSetUntilFinalizeBetweenDvppAndOther) {
  std::string path =
      WriteTempFile("default_device.json",
                    "{\"defaultDevice\": {\"default_device\": \"3\"}}");
  Probe dvpp("dvpp", &log_), other("other", &log_);
  std::optional<int32_t> seen_by_dvpp, seen_by_other;
  dvpp.action = [&] { seen_by_dvpp = rt::DefaultDevice(); };
  other.action = [&] { seen_by_other = rt::DefaultDevice(); };
  ASSERT_OK(lifecycle_.RegisterFinalizeCallback(kDvpp, FinalizeFn<0>, &dvpp));
  ASSERT_OK(lifecycle_.RegisterFinalizeCallback(kOther, FinalizeFn<0>, &other));

  ASSERT_OK(lifecycle_.Init(path.c_str()));
  EXPECT_EQ(rt::DefaultDevice(), 3);
  EXPECT_EQ(lifecycle_.settings().default_device, 3);
  ASSERT_OK(lifecycle_.Finalize());
  EXPECT_EQ(seen_by_dvpp, 3);
  EXPECT_EQ(seen_by_other, std::nullopt);
  EXPECT_EQ(rt::DefaultDevice(), std::nullopt);
}

}  // namespace
}  // namespace ascend::acl
