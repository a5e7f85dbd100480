#include "testing/participant_conformance/participant_conformance.h"

#include <atomic>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "acl/acl_rt.h"
#include "runtime/host_func/host_func.h"
#include "runtime/kernel/kernel.h"
#include "runtime/model/model.h"
#include "runtime/process/families.h"
#include "runtime/snapshot_support/snapshot_support.h"
#include "runtime/streams/streams.h"
#include "snapshot/backup_image.h"
#include "snapshot/builtin_participants.h"
#include "testing/status_matchers.h"

namespace ascend::snapshot::conformance {
namespace {

constexpr int32_t kDevices[] = {0, 1};

std::vector<uint8_t> Pattern(size_t size, uint32_t seed) {
  std::vector<uint8_t> data(size);
  uint32_t x = seed * 2654435761u + 1;
  for (auto& byte : data) {
    x ^= x << 13;
    x ^= x >> 17;
    x ^= x << 5;
    byte = static_cast<uint8_t>(x);
  }
  return data;
}

// Fails its first `failures` restores, then succeeds.
class FailingParticipant final : public rt::SnapshotParticipant {
 public:
  FailingParticipant(std::string name, int failures)
      : name_(std::move(name)), failures_(std::make_shared<int>(failures)) {}
  absl::string_view name() const override { return name_; }
  Scope scope() const override { return Scope::kProcess; }
  absl::StatusOr<std::unique_ptr<rt::SavedState>> Save(int32_t) override {
    return std::unique_ptr<rt::SavedState>(new State(failures_));
  }
  absl::StatusOr<std::string> Describe(int32_t) const override { return ""; }

 private:
  struct State final : rt::SavedState {
    explicit State(std::shared_ptr<int> failures)
        : failures(std::move(failures)) {}
    absl::Status Restore() const override {
      if (*failures > 0) {
        --*failures;
        return absl::DataLossError("injected restore failure");
      }
      return absl::OkStatus();
    }
    std::shared_ptr<int> failures;
  };
  const std::string name_;
  const std::shared_ptr<int> failures_;
};

void ExpectSame(const Descriptions& expected, const Descriptions& actual,
                const std::string& when) {
  ASSERT_EQ(expected.size(), actual.size()) << when;
  for (const auto& [key, text] : expected) {
    auto it = actual.find(key);
    ASSERT_NE(it, actual.end()) << when << ": " << key << " missing";
    EXPECT_EQ(it->second, text) << when << ": participant/device " << key;
  }
}

void CountCall(void* arg) { static_cast<std::atomic<int>*>(arg)->fetch_add(1); }

constexpr size_t kModelBytes = 8192;

}  // namespace

void ParticipantConformanceTest::BuildModels(int32_t device) {
  rt::Models& models = *rt::Models::Of(runtime());
  ASSERT_OK_AND_ASSIGN(void* src,
                       memory().Malloc(kModelBytes, ACL_MEM_MALLOC_HUGE_FIRST));
  ASSERT_OK_AND_ASSIGN(void* dst,
                       memory().Malloc(kModelBytes, ACL_MEM_MALLOC_HUGE_FIRST));
  ASSERT_OK_AND_ASSIGN(void* built_dst,
                       memory().Malloc(kModelBytes, ACL_MEM_MALLOC_HUGE_FIRST));
  ASSERT_OK_AND_ASSIGN(void* index, memory().Malloc(sizeof(uint32_t),
                                                    ACL_MEM_MALLOC_HUGE_FIRST));
  ASSERT_OK(memory().Memset(index, sizeof(uint32_t), 0, sizeof(uint32_t)));
  model_src_.push_back(src);
  model_dst_.push_back(dst);
  built_dst_.push_back(built_dst);
  model_bytes_.emplace_back();

  // Captured: `head` forks to `side`, which copies and calls the host
  // function, and joins back.
  ASSERT_OK_AND_ASSIGN(void* head,
                       ascend::rt::Streams::Of(runtime())->CreateStream(0, 0));
  ASSERT_OK_AND_ASSIGN(void* side,
                       ascend::rt::Streams::Of(runtime())->CreateStream(0, 0));
  ASSERT_OK_AND_ASSIGN(void* fork, sync().CreateEvent(0));
  ASSERT_OK_AND_ASSIGN(void* join, sync().CreateEvent(0));
  ASSERT_OK(models.CaptureBegin(head, ACL_MODEL_RI_CAPTURE_MODE_RELAXED));
  ASSERT_OK(sync().RecordEvent(fork, head));
  ASSERT_OK(sync().StreamWaitEvent(side, fork));
  ASSERT_OK(memory().MemcpyAsync(dst, kModelBytes, src, kModelBytes,
                                 ACL_MEMCPY_DEVICE_TO_DEVICE, side));
  ASSERT_OK(rt::HostFuncs::Of(runtime())->LaunchHostFunc(side, &CountCall,
                                                         &host_calls_));
  ASSERT_OK(sync().RecordEvent(join, side));
  ASSERT_OK(sync().StreamWaitEvent(head, join));
  ASSERT_OK_AND_ASSIGN(void* captured, models.CaptureEnd(head));
  ASSERT_OK(models.CondHandleCreate(captured, 3, 0).status());
  ASSERT_OK(models.SetName(captured, "conformance"));
  captured_models_.push_back(captured);

  // Built: copy, then a switch by the index (0) to the end label, past a
  // memset that would spoil the copy.
  ASSERT_OK_AND_ASSIGN(void* built, models.BuildBegin(0));
  ASSERT_OK_AND_ASSIGN(void* bound,
                       ascend::rt::Streams::Of(runtime())->CreateStream(
                           0, ACL_STREAM_PERSISTENT));
  ASSERT_OK(models.BindStream(built, bound, rt::kModelStreamHead));
  ASSERT_OK_AND_ASSIGN(void* start, models.CreateLabel());
  ASSERT_OK_AND_ASSIGN(void* end, models.CreateLabel());
  ASSERT_OK(models.SetLabel(start, bound));
  ASSERT_OK(memory().MemcpyAsync(built_dst, kModelBytes, src, kModelBytes,
                                 ACL_MEMCPY_DEVICE_TO_DEVICE, bound));
  void* targets[] = {end};
  ASSERT_OK_AND_ASSIGN(void* list, models.CreateLabelList(targets, 1));
  ASSERT_OK(models.SwitchLabelByIndex(index, 1, list, bound));
  ASSERT_OK(
      memory().MemsetAsync(built_dst, kModelBytes, 0x77, kModelBytes, bound));
  ASSERT_OK(models.SetLabel(end, bound));
  ASSERT_OK(models.EndTask(built, bound));
  ASSERT_OK(models.BuildEnd(built));
  built_models_.push_back(built);

  ASSERT_OK_AND_ASSIGN(void* exec,
                       ascend::rt::Streams::Of(runtime())->CreateStream(0, 0));
  model_streams_.push_back(exec);
}

void ParticipantConformanceTest::ReplayModels() {
  for (size_t d = 0; d < captured_models_.size(); ++d) {
    SCOPED_TRACE(absl::StrCat("models of device ", kDevices[d]));
    ASSERT_OK(runtime().SetDevice(kDevices[d]));
    ASSERT_OK(memory().Memset(model_dst_[d], kModelBytes, 0, kModelBytes));
    ASSERT_OK(memory().Memset(built_dst_[d], kModelBytes, 0, kModelBytes));
    const int calls = host_calls_.load();
    ASSERT_OK(rt::Models::Of(runtime())->ExecuteAsync(captured_models_[d],
                                                      model_streams_[d]));
    ASSERT_OK(rt::Models::Of(runtime())->ExecuteAsync(built_models_[d],
                                                      model_streams_[d]));
    ASSERT_OK(ascend::rt::Streams::Of(runtime())->SynchronizeStream(
        model_streams_[d], absl::InfiniteFuture()));
    EXPECT_EQ(host_calls_.load(), calls + 1);
    for (void* out : {model_dst_[d], built_dst_[d]}) {
      std::vector<uint8_t> back(kModelBytes);
      ASSERT_OK(memory().Memcpy(back.data(), back.size(), out, kModelBytes,
                                ACL_MEMCPY_DEVICE_TO_HOST));
      EXPECT_EQ(back, model_bytes_[d])
          << (out == model_dst_[d] ? "captured" : "built");
    }
  }
}

std::string BackendName(const ::testing::TestParamInfo<BackendUnderTest>& i) {
  return i.param.name;
}

void PrintTo(const BackendUnderTest& backend, std::ostream* os) {
  *os << backend.name;
}

void ParticipantConformanceTest::SetUp() {
  absl::StatusOr<std::unique_ptr<device::Backend>> backend =
      GetParam().factory();
  ASSERT_TRUE(backend.ok()) << "cannot create backend " << GetParam().name
                            << ": " << backend.status();
  ASSERT_GE((*backend)->DeviceCount(), 2)
      << "backend " << GetParam().name << " must provide two devices";
  state_ = std::make_unique<rt::GlobalState>(rt::GlobalState::Options{});
  rt::Runtime::Options options;
  options.state = state_.get();
  options.default_device = [] { return std::optional<int32_t>(); };
  options.families = rt::AllFamilies();
  runtime_ = std::make_unique<rt::Runtime>(*std::move(backend), options);
}

void ParticipantConformanceTest::TearDown() {
  runtime_.reset();
  state_.reset();
}

std::unique_ptr<ParticipantRegistry> ParticipantConformanceTest::Registry(
    const std::string& fail_after, int failures) {
  auto registry = std::make_unique<ParticipantRegistry>();
  EXPECT_OK(RegisterBuiltinParticipants(*registry, runtime(), MemoryOptions{}));
  if (!fail_after.empty()) {
    EXPECT_OK(registry->RegisterAfter(
        fail_after, std::make_unique<FailingParticipant>(
                        "test.fail_after_" + fail_after, failures)));
  }
  return registry;
}

std::vector<std::string> ParticipantConformanceTest::ParticipantNames() {
  ParticipantRegistry registry;
  EXPECT_OK(RegisterBuiltinParticipants(registry, runtime(), MemoryOptions{}));
  std::vector<std::string> names;
  for (rt::SnapshotParticipant* p : registry.participants()) {
    names.emplace_back(p->name());
  }
  return names;
}

void ParticipantConformanceTest::Populate(uint32_t seed) {
  for (int32_t device : kDevices) {
    ASSERT_OK(runtime().SetDevice(device));
    for (int i = 0; i < 2; ++i) {
      ASSERT_OK_AND_ASSIGN(
          void* stream, ascend::rt::Streams::Of(runtime())->CreateStream(0, 0));
      streams_.push_back(stream);
      ASSERT_OK_AND_ASSIGN(void* event, sync().CreateEvent(0));
      ASSERT_OK(sync().RecordEvent(event, stream));
      events_.push_back(event);
      ASSERT_OK_AND_ASSIGN(void* notify, sync().CreateNotify(0));
      if (i == 0) {
        ASSERT_OK(sync().RecordNotify(notify, stream));
      }
      notifies_.push_back(notify);
      ASSERT_OK_AND_ASSIGN(void* cnt_notify, sync().CreateCntNotify(0));
      ASSERT_OK(sync().RecordCntNotify(cnt_notify, stream,
                                       ACL_RT_CNT_NOTIFY_RECORD_SET_VALUE_MODE,
                                       10 + static_cast<uint32_t>(i)));
      cnt_notifies_.push_back(cnt_notify);
      ASSERT_OK(ascend::rt::Streams::Of(runtime())->SynchronizeStream(
          stream, absl::InfiniteFuture()));
    }
    for (size_t size : {size_t{4096}, size_t{(3 << 20) + 5}, size_t{1}}) {
      ASSERT_OK_AND_ASSIGN(void* ptr,
                           memory().Malloc(size, ACL_MEM_MALLOC_HUGE_FIRST));
      allocations_.push_back(ptr);
      sizes_.push_back(size);
    }
    // A kernel binary: its image and device global in device memory, a
    // function and an argument list; its `count` kernel (launched by
    // Change) adds to the global where the backend runs kernels. A backend
    // that loads no kernel modules (npu, DESIGN.md §5.20) has none.
    const char* kernels = std::getenv("ACLSIM_TEST_KERNELS");
    ASSERT_NE(kernels, nullptr)
        << "ACLSIM_TEST_KERNELS must name //testing/kernels:test_kernels.so";
    rt::Kernels& family = *rt::Kernels::Of(runtime());
    absl::StatusOr<void*> binary = family.LoadFile(kernels, nullptr);
    if (absl::IsUnimplemented(binary.status())) {
      unsupported_.insert("kernel_binaries");
      binaries_.push_back(nullptr);
      count_functions_.push_back(nullptr);
      runs_kernels_.push_back(false);
    } else {
      ASSERT_OK(binary.status());
      ASSERT_OK_AND_ASSIGN(void* count, family.Function(*binary, "count"));
      ASSERT_OK_AND_ASSIGN(void* vadd, family.Function(*binary, "vadd"));
      ASSERT_OK(family.ArgsInit(vadd).status());
      binaries_.push_back(*binary);
      count_functions_.push_back(count);
      const absl::Status runs =
          runtime().DeviceObject(device)->RunBlocks(1, 1, [](uint32_t) {});
      if (!absl::IsUnimplemented(runs)) {
        ASSERT_OK(runs);
      }
      runs_kernels_.push_back(runs.ok());
    }
    ASSERT_NO_FATAL_FAILURE(BuildModels(device));
    // Virtual memory: one physical allocation mapped twice (one mapping
    // with an access right for the other device), one unmapped, and an
    // empty reservation. The mapped bytes change with the allocations.
    // (Only where the backend maps memory: the npu subset has no VMM.)
    if (runtime().DeviceObject(device)->PhysicalGranularity() == 0) {
      unsupported_.insert("vmm");
      continue;
    }
    aclrtPhysicalMemProp prop{};
    prop.allocationType = ACL_MEM_ALLOCATION_TYPE_PINNED;
    prop.memAttr = ACL_HBM_MEM_HUGE;
    prop.location.type = ACL_MEM_LOCATION_TYPE_DEVICE;
    prop.location.id = static_cast<uint32_t>(device);
    constexpr uint64_t kGranule = uint64_t{2} << 20;
    ASSERT_OK_AND_ASSIGN(void* physical,
                         memory().vmm().MallocPhysical(2 * kGranule, prop));
    ASSERT_OK(memory().vmm().MallocPhysical(kGranule, prop).status());
    ASSERT_OK_AND_ASSIGN(void* a,
                         memory().vmm().Reserve(2 * kGranule, nullptr, 0));
    ASSERT_OK_AND_ASSIGN(void* b, memory().vmm().Reserve(kGranule, nullptr, 0));
    ASSERT_OK(memory().vmm().Reserve(4 * kGranule, nullptr, 1).status());
    ASSERT_OK(memory().vmm().Map(a, 2 * kGranule, 0, physical));
    ASSERT_OK(memory().vmm().Map(b, kGranule, kGranule, physical));
    aclrtMemAccessDesc desc{};
    desc.flags = ACL_RT_MEM_ACCESS_FLAGS_READ;
    desc.location.type = ACL_MEM_LOCATION_TYPE_DEVICE;
    desc.location.id = static_cast<uint32_t>(kDevices[0]);
    ASSERT_OK(memory().vmm().SetAccess(b, kGranule, {desc}));
    allocations_.push_back(static_cast<char*>(a) + 4096);
    sizes_.push_back(kGranule + 77);
  }
  Change(seed);
}

void ParticipantConformanceTest::Change(uint32_t seed) {
  for (size_t i = 0; i < allocations_.size(); ++i) {
    const std::vector<uint8_t> bytes = Pattern(sizes_[i], seed + i);
    ASSERT_OK(memory().Memcpy(allocations_[i], sizes_[i], bytes.data(),
                              sizes_[i], ACL_MEMCPY_HOST_TO_DEVICE));
  }
  for (size_t i = 0; i < events_.size(); ++i) {
    ASSERT_OK(sync().RecordEvent(events_[i], streams_[i]));
    ASSERT_OK(sync().RecordCntNotify(cnt_notifies_[i], streams_[i],
                                     ACL_RT_CNT_NOTIFY_RECORD_ADD_MODE, seed));
    aclrtStreamAttrValue tag = {};
    tag.userCustomTag = seed + static_cast<uint32_t>(i);
    ASSERT_OK(ascend::rt::Streams::Of(runtime())->SetStreamAttribute(
        streams_[i], ACL_STREAM_ATTR_USER_CUSTOM_TAG, tag));
    ASSERT_OK(ascend::rt::Streams::Of(runtime())->SynchronizeStream(
        streams_[i], absl::InfiniteFuture()));
  }
  // One stream of each device (streams_ holds two per device, in order).
  for (size_t d = 0; d < count_functions_.size(); ++d) {
    if (!runs_kernels_[d]) continue;
    void* stream = streams_[2 * d];
    ASSERT_OK(rt::Kernels::Of(runtime())->Launch(count_functions_[d], seed,
                                                 stream, rt::LaunchConfig{},
                                                 rt::LaunchArgs{}));
    ASSERT_OK(ascend::rt::Streams::Of(runtime())->SynchronizeStream(
        stream, absl::InfiniteFuture()));
  }
  // New model input, and the models run over it.
  for (size_t d = 0; d < model_src_.size(); ++d) {
    model_bytes_[d] = Pattern(kModelBytes, seed + 1000 + d);
    ASSERT_OK(memory().Memcpy(model_src_[d], kModelBytes,
                              model_bytes_[d].data(), kModelBytes,
                              ACL_MEMCPY_HOST_TO_DEVICE));
  }
  ASSERT_NO_FATAL_FAILURE(ReplayModels());
}

absl::Status ParticipantConformanceTest::Restore(BackupImage& image) {
  absl::Status restored = image.Restore();
  // What the coordinator does after a successful restore: the memory loss
  // Damage() injected marked the devices abnormal.
  if (restored.ok()) {
    for (int32_t device : kDevices)
      ascend::rt::SnapshotSupport::Of(runtime())->MarkDeviceHealthy(device);
  }
  return restored;
}

void ParticipantConformanceTest::Damage() {
  for (size_t i = 0; i < allocations_.size(); ++i) {
    ASSERT_OK(memory().Memset(allocations_[i], sizes_[i], 0x5A, sizes_[i]));
  }
  for (size_t i = 0; i < events_.size(); ++i) {
    ASSERT_OK(sync().RecordEvent(events_[i], streams_[i]));
    ASSERT_OK(sync().RecordNotify(notifies_[i], streams_[i]));
    ASSERT_OK(sync().RecordCntNotify(cnt_notifies_[i], streams_[i],
                                     ACL_RT_CNT_NOTIFY_RECORD_ADD_MODE, 1));
    aclrtStreamAttrValue value = {};
    value.streamPriority = 7;
    ASSERT_OK(ascend::rt::Streams::Of(runtime())->SetStreamAttribute(
        streams_[i], ACL_STREAM_ATTR_PRIORITY, value));
    ASSERT_OK(ascend::rt::Streams::Of(runtime())->SetStreamFailureMode(
        streams_[i], ACL_STOP_ON_FAILURE));
    ASSERT_OK(ascend::rt::Streams::Of(runtime())->SynchronizeStream(
        streams_[i], absl::InfiniteFuture()));
  }
  // The device loses its memory: the simulator's fault, or a re-open (what
  // a lost device amounts to) where the backend has no such fault.
  for (int32_t device : kDevices) {
    absl::Status lost =
        runtime().backend()->InjectFault(device, device::Fault::kMemoryLoss);
    if (absl::IsUnimplemented(lost)) {
      lost = runtime().DeviceObject(device)->Reopen();
    }
    ASSERT_OK(lost);
  }
}

Descriptions ParticipantConformanceTest::Describe(
    const ParticipantRegistry& registry) {
  Descriptions all;
  for (rt::SnapshotParticipant* p : registry.participants()) {
    std::vector<int32_t> scope(std::begin(kDevices), std::end(kDevices));
    if (p->scope() == rt::SnapshotParticipant::Scope::kProcess) {
      scope = {rt::SnapshotParticipant::kProcessWide};
    }
    for (int32_t device : scope) {
      absl::StatusOr<std::string> text = p->Describe(device);
      EXPECT_TRUE(text.ok()) << p->name() << ": " << text.status();
      all[absl::StrCat(p->name(), "/", device)] = text.value_or("");
    }
  }
  return all;
}

TEST_P(ParticipantConformanceTest, SaveLoseRestoreComparesEqual) {
  ASSERT_NO_FATAL_FAILURE(Populate(1));
  std::unique_ptr<ParticipantRegistry> registry = Registry("");
  const Descriptions before = Describe(*registry);
  ASSERT_OK_AND_ASSIGN(std::unique_ptr<BackupImage> image,
                       BackupImage::Save(*registry, {0, 1}));
  ASSERT_NO_FATAL_FAILURE(Damage());
  // The damage shows: a participant that restored nothing would fail below.
  EXPECT_NE(Describe(*registry), before);
  ASSERT_OK(Restore(*image));
  ExpectSame(before, Describe(*registry), "after Restore");
  // Restored memory is usable through the runtime again.
  std::vector<uint8_t> back(sizes_[1]);
  ASSERT_OK(memory().Memcpy(back.data(), back.size(), allocations_[1],
                            sizes_[1], ACL_MEMCPY_DEVICE_TO_HOST));
  EXPECT_EQ(back, Pattern(sizes_[1], 1 + 1));
  // The models replay over the restored memory.
  ASSERT_NO_FATAL_FAILURE(ReplayModels());
}

// The registration record ties each family to its participant, and this
// suite to both: a family whose participant Populate gives nothing to carry
// fails here until Populate creates its objects (DESIGN.md §1.7).
TEST_P(ParticipantConformanceTest, PopulateGivesEveryFamilyParticipantObjects) {
  for (int32_t device : kDevices) ASSERT_OK(runtime().SetDevice(device));
  std::unique_ptr<ParticipantRegistry> registry = Registry("");
  const Descriptions bare = Describe(*registry);
  ASSERT_NO_FATAL_FAILURE(Populate(7));
  const Descriptions populated = Describe(*registry);
  size_t families_with_participants = 0;
  for (const rt::FamilyRegistration& family :
       runtime().family_registrations()) {
    if (family.participants == nullptr) continue;
    ++families_with_participants;
    for (const auto& participant : family.participants(runtime())) {
      const std::string name(participant->name());
      bool carried = false;
      for (int32_t device : kDevices) {
        const std::string key = absl::StrCat(name, "/", device);
        ASSERT_EQ(populated.count(key), 1u)
            << "family " << family.name << ": participant " << name
            << " is not in the built-in registry";
        carried = carried || populated.at(key) != bare.at(key);
      }
      if (unsupported_.count(name) != 0) {
        // The backend has no such objects (npu: no kernel modules, no VMM).
        EXPECT_FALSE(carried) << name;
        continue;
      }
      EXPECT_TRUE(carried) << "family " << family.name
                           << ": Populate gives its "
                           << "participant " << name << " nothing to carry";
    }
  }
  // The process's families have participants (vmm, models, kernel
  // binaries): the loop above checked something.
  EXPECT_GE(families_with_participants, 1u);
}

TEST_P(ParticipantConformanceTest, RestoreAfterAFailedRestore) {
  ASSERT_NO_FATAL_FAILURE(Populate(3));
  for (const std::string& name : ParticipantNames()) {
    SCOPED_TRACE("restore fails right after participant " + name);
    std::unique_ptr<ParticipantRegistry> registry = Registry(name, 1);
    const Descriptions before = Describe(*registry);
    ASSERT_OK_AND_ASSIGN(std::unique_ptr<BackupImage> image,
                         BackupImage::Save(*registry, {0, 1}));
    ASSERT_NO_FATAL_FAILURE(Damage());
    const absl::Status failed = Restore(*image);
    EXPECT_EQ(failed.code(), absl::StatusCode::kDataLoss) << failed;
    ASSERT_OK(Restore(*image));
    ExpectSame(before, Describe(*registry), "after the retried Restore");
    ASSERT_NO_FATAL_FAILURE(ReplayModels());
  }
}

TEST_P(ParticipantConformanceTest, SecondBackupReplacesTheFirst) {
  ASSERT_NO_FATAL_FAILURE(Populate(5));
  std::unique_ptr<ParticipantRegistry> registry = Registry("");
  const Descriptions first = Describe(*registry);
  ASSERT_OK_AND_ASSIGN(std::unique_ptr<BackupImage> image,
                       BackupImage::Save(*registry, {0, 1}));
  ASSERT_NO_FATAL_FAILURE(Change(6));
  const Descriptions second = Describe(*registry);
  EXPECT_NE(first, second);
  ASSERT_OK_AND_ASSIGN(image, BackupImage::Save(*registry, {0, 1}));
  ASSERT_NO_FATAL_FAILURE(Damage());
  ASSERT_OK(Restore(*image));
  ExpectSame(second, Describe(*registry), "after Restore of the second");
  ASSERT_NO_FATAL_FAILURE(ReplayModels());
}

}  // namespace ascend::snapshot::conformance
