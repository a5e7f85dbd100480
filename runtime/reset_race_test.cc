// Creating streams, events and notifies while another thread resets (and
// re-opens) the device. The runtime must register every id with the device
// object that issued it, so that at any quiet moment the ids the runtime's
// tables hold for a device are exactly the ids the open device object has
// handed out: none leaked, none released to a later instance of the device.
//
// The device is a fake that keeps its own record of the ids each instance
// has issued, and can hold an AllocateId call to widen a race window; its
// backend is the shared StubBackend (//testing:stub_backend).
#include <algorithm>
#include <atomic>
#include <cstdint>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "absl/base/thread_annotations.h"
#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/synchronization/mutex.h"
#include "absl/time/clock.h"
#include "absl/time/time.h"
#include "device/base/mutex.h"
#include "device/device.h"
#include "gtest/gtest.h"
#include "runtime/device_info/device_info.h"
#include "runtime/runtime.h"
#include "runtime/streams/streams.h"
#include "runtime/sync/sync.h"
#include "testing/stub_backend.h"

namespace ascend::rt {
namespace {

using ::ascend::testing::StubBackend;
using ::ascend::testing::StubBackendOptions;
using device::ResourceKind;

constexpr int kKinds = 3;

// Holds the next AllocateId (of any device instance) until released.
class AllocationHold {
 public:
  void Arm() {
    ascend::MutexLock lock(&mu_);
    armed_ = true;
    held_ = false;
    released_ = false;
  }
  // Called by AllocateId: blocks the first call after Arm until Release.
  void MaybeHold() {
    ascend::MutexLock lock(&mu_);
    if (!armed_) return;
    armed_ = false;
    held_ = true;
    mu_.Await(absl::Condition(&released_));
  }
  bool WaitUntilHeld(absl::Duration timeout) {
    ascend::MutexLock lock(&mu_);
    return mu_.AwaitWithTimeout(absl::Condition(&held_), timeout);
  }
  void Release() {
    ascend::MutexLock lock(&mu_);
    released_ = true;
  }

 private:
  ascend::Mutex mu_;
  bool armed_ ABSL_GUARDED_BY(mu_) = false;
  bool held_ ABSL_GUARDED_BY(mu_) = false;
  bool released_ ABSL_GUARDED_BY(mu_) = false;
};

// One opened instance of device 0: ids only (the runtime calls nothing else
// in these tests). Instances are independent, as a re-opened real device is.
class FakeDevice final : public device::Device {
 public:
  FakeDevice(AllocationHold* hold, std::atomic<int>* live)
      : hold_(hold), live_(live) {
    ++*live_;
  }
  ~FakeDevice() override { --*live_; }

  int32_t id() const override { return 0; }

  absl::StatusOr<uint32_t> AllocateId(ResourceKind kind) override {
    hold_->MaybeHold();
    ascend::MutexLock lock(&mu_);
    std::set<uint32_t>& taken = taken_[static_cast<int>(kind)];
    uint32_t id = 0;
    while (taken.count(id) != 0) ++id;
    taken.insert(id);
    return id;
  }
  absl::Status ClaimId(ResourceKind kind, uint32_t id) override {
    ascend::MutexLock lock(&mu_);
    if (!taken_[static_cast<int>(kind)].insert(id).second) {
      return absl::AlreadyExistsError("id taken");
    }
    return absl::OkStatus();
  }
  void ReleaseId(ResourceKind kind, uint32_t id) override {
    ascend::MutexLock lock(&mu_);
    if (taken_[static_cast<int>(kind)].erase(id) == 0) ++bad_releases_;
  }
  absl::Status Reopen() override {
    ascend::MutexLock lock(&mu_);
    for (std::set<uint32_t>& taken : taken_) taken.clear();
    return absl::OkStatus();
  }

  // The ids this instance has handed out and not had back, ascending.
  std::vector<uint32_t> Taken(ResourceKind kind) const {
    ascend::MutexLock lock(&mu_);
    const std::set<uint32_t>& taken = taken_[static_cast<int>(kind)];
    return std::vector<uint32_t>(taken.begin(), taken.end());
  }
  // Releases of an id this instance had not handed out.
  int bad_releases() const {
    ascend::MutexLock lock(&mu_);
    return bad_releases_;
  }

  // --- Not used by these tests ---------------------------------------------
  absl::StatusOr<device::DeviceAddr> Allocate(uint64_t, uint64_t) override {
    return Unused();
  }
  absl::Status Free(device::DeviceAddr) override { return Unused(); }
  std::optional<device::Allocation> FindAllocation(
      device::DeviceAddr) const override {
    return std::nullopt;
  }
  std::vector<device::Allocation> Allocations() const override { return {}; }
  device::MemoryInfo GetMemoryInfo() const override { return {}; }
  absl::Status CopyToDevice(device::DeviceAddr, const void*,
                            uint64_t) override {
    return Unused();
  }
  absl::Status CopyFromDevice(void*, device::DeviceAddr, uint64_t) override {
    return Unused();
  }
  absl::Status CopyWithinDevice(device::DeviceAddr, device::DeviceAddr,
                                uint64_t) override {
    return Unused();
  }
  absl::Status Fill(device::DeviceAddr, uint8_t, uint64_t) override {
    return Unused();
  }
  absl::StatusOr<uint64_t> Checksum(device::DeviceAddr, uint64_t) override {
    return Unused();
  }
  void* HostPointer(device::DeviceAddr) override { return nullptr; }
  absl::Status AllocateAt(device::DeviceAddr, uint64_t) override {
    return Unused();
  }

 private:
  static absl::Status Unused() {
    return absl::UnimplementedError("not part of the fake device");
  }

  AllocationHold* const hold_;
  std::atomic<int>* const live_;
  mutable ascend::Mutex mu_;
  std::set<uint32_t> taken_[kKinds] ABSL_GUARDED_BY(mu_);
  int bad_releases_ ABSL_GUARDED_BY(mu_) = 0;
};

// The backend: device 0 only, opened as a FakeDevice; like the real
// backends, one instance of a device at a time.
std::unique_ptr<device::Backend> MakeFakeBackend(AllocationHold* hold,
                                                 std::atomic<int>* live) {
  StubBackendOptions options;
  options.name = "fake";
  options.soc_name = "fake";
  options.device_count = 1;
  options.process_resources = absl::OkStatus();
  options.open =
      [hold, live](int32_t) -> absl::StatusOr<std::unique_ptr<device::Device>> {
    if (live->load() != 0) {
      return absl::FailedPreconditionError("fake device 0 is already open");
    }
    return std::unique_ptr<device::Device>(new FakeDevice(hold, live));
  };
  return std::make_unique<StubBackend>(std::move(options));
}

class ResetRaceTest : public ::testing::Test {
 protected:
  ResetRaceTest()
      : runtime_(std::make_unique<Runtime>(MakeFakeBackend(&hold_, &live_),
                                           Options())) {}

  // The synchronisation family is the only one these tests use.
  static Runtime::Options Options() {
    Runtime::Options options;
    options.families = {StreamsFamily(), DeviceInfoFamily(), SyncFamily()};
    return options;
  }

  // The runtime's tables for device 0 against what the open instance of
  // device 0 has issued: equal for every kind of id, and no release of an id
  // the instance had not issued.
  void ExpectTablesMatchDevice() {
    std::shared_ptr<device::Device> open = runtime_->DeviceObject(0);
    ASSERT_NE(open, nullptr);
    auto* fake = static_cast<FakeDevice*>(open.get());
    auto ids = [&](auto kind) {
      std::vector<uint32_t> found;
      using T = typename decltype(kind)::element_type;
      for (const auto& object : runtime_->Objects<T>(0)) {
        found.push_back(object->id());
      }
      std::sort(found.begin(), found.end());
      return found;
    };
    std::vector<uint32_t> streams = ids(std::shared_ptr<Stream>());
    std::vector<uint32_t> events = ids(std::shared_ptr<Event>());
    std::vector<uint32_t> notifies = ids(std::shared_ptr<Notify>());
    EXPECT_EQ(streams, fake->Taken(ResourceKind::kStream));
    EXPECT_EQ(events, fake->Taken(ResourceKind::kEvent));
    EXPECT_EQ(notifies, fake->Taken(ResourceKind::kNotify));
    EXPECT_EQ(fake->bad_releases(), 0);
  }

  // Sets device 0 and runs `create` on a new thread in its context, holding
  // the creation's id allocation while another thread resets device 0
  // (forced), sets it again and runs `create` once more; then lets the first
  // go. The held creation may succeed (its object then goes with the reset)
  // or find its context gone; either way its id must not outlive its device:
  // the tables must match the re-opened device.
  template <typename Create>
  void CreateAcrossAReset(Create create) {
    ASSERT_TRUE(runtime_->SetDevice(0).ok());
    absl::StatusOr<void*> context = Streams::Of(*runtime_)->GetCurrentContext();
    ASSERT_TRUE(context.ok()) << context.status();
    hold_.Arm();
    std::thread creator([&] {
      if (Streams::Of(*runtime_)->SetCurrentContext(*context).ok())
        (void)create();
    });
    EXPECT_TRUE(hold_.WaitUntilHeld(absl::Seconds(10)));
    std::atomic<bool> reset_done{false};
    absl::Status after;
    std::thread resetter([&] {
      absl::Status s = runtime_->ResetDevice(0, /*force=*/true);
      if (s.ok()) s = runtime_->SetDevice(0);
      if (s.ok()) s = create().status();
      after = s;
      reset_done = true;
    });
    // With the creation's allocation and registration under the runtime's
    // lock the reset waits for the creation, so give it a moment only.
    const absl::Time deadline = absl::Now() + absl::Milliseconds(300);
    while (!reset_done && absl::Now() < deadline) {
      absl::SleepFor(absl::Milliseconds(1));
    }
    hold_.Release();
    creator.join();
    resetter.join();
    EXPECT_TRUE(after.ok()) << after;
    ExpectTablesMatchDevice();
  }

  AllocationHold hold_;
  std::atomic<int> live_{0};  // FakeDevice objects alive
  std::unique_ptr<Runtime> runtime_;
};

TEST_F(ResetRaceTest, StreamCreatedAcrossAResetGetsNoIdOfTheReopenedDevice) {
  CreateAcrossAReset(
      [&] { return Streams::Of(*runtime_)->CreateStream(0, 0); });
  // The next stream must not be given an id a live stream holds. (The reset
  // ended this thread's context: set the device again.)
  ASSERT_TRUE(runtime_->SetDevice(0).ok());
  ASSERT_TRUE(Streams::Of(*runtime_)->CreateStream(0, 0).ok());
  ExpectTablesMatchDevice();
  std::vector<uint32_t> stream_ids;
  for (const auto& stream : runtime_->Objects<Stream>(0)) {
    stream_ids.push_back(stream->id());
  }
  std::set<uint32_t> unique(stream_ids.begin(), stream_ids.end());
  EXPECT_EQ(unique.size(), stream_ids.size());
  EXPECT_TRUE(runtime_->ResetDevice(0, /*force=*/true).ok());
}

// A reset drops the runtime's reference to the device object, but an API
// call in flight on another thread may still hold one (here: the test). The
// backend refuses a second instance meanwhile, so SetDevice waits for it.
TEST_F(ResetRaceTest, SetDeviceWaitsForACallStillHoldingTheResetDevice) {
  ASSERT_TRUE(runtime_->SetDevice(0).ok());
  std::shared_ptr<device::Device> held = runtime_->DeviceObject(0);
  ASSERT_NE(held, nullptr);
  ASSERT_TRUE(runtime_->ResetDevice(0, /*force=*/true).ok());
  std::atomic<bool> done{false};
  absl::Status set = absl::UnknownError("not run");
  std::thread setter([&] {
    set = runtime_->SetDevice(0);
    done = true;
  });
  absl::SleepFor(absl::Milliseconds(100));
  EXPECT_FALSE(done.load()) << "SetDevice returned while the old device "
                               "object was still held: "
                            << (done.load() ? set.ToString() : "");
  held.reset();  // the call in flight ends
  setter.join();
  EXPECT_TRUE(set.ok()) << set;
  EXPECT_NE(runtime_->DeviceObject(0), nullptr);
  EXPECT_TRUE(runtime_->ResetDevice(0, /*force=*/true).ok());
}

TEST_F(ResetRaceTest, EventCreatedAcrossAResetIsNotLeftOnTheReopenedDevice) {
  CreateAcrossAReset([&] { return Sync::Of(*runtime_)->CreateEvent(0); });
  EXPECT_TRUE(runtime_->ResetDevice(0, /*force=*/true).ok());
}

TEST_F(ResetRaceTest, NotifyCreatedAcrossAResetIsNotLeftOnTheReopenedDevice) {
  CreateAcrossAReset([&] { return Sync::Of(*runtime_)->CreateNotify(0); });
  EXPECT_TRUE(runtime_->ResetDevice(0, /*force=*/true).ok());
}

// Bounded stress: creators make and destroy streams (and events and
// notifies) while a resetter resets and re-sets device 0. Failures of single
// calls are expected (a context gone, a handle closed with its device); a
// crash, a hang or a table out of step with the device is not.
TEST_F(ResetRaceTest, CreateAndDestroyAgainstResetStress) {
  constexpr absl::Duration kDuration = absl::Milliseconds(1500);
  constexpr int kCreators = 3;
  ASSERT_TRUE(runtime_->SetDevice(0).ok());
  std::atomic<bool> stop{false};
  std::atomic<int64_t> created{0};
  std::atomic<int64_t> resets{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < kCreators; ++t) {
    threads.emplace_back([&, t] {
      int round = 0;
      while (!stop) {
        if (!Streams::Of(*runtime_)->GetCurrentContext().ok() &&
            !runtime_->SetDevice(0).ok()) {
          continue;
        }
        ++round;
        absl::StatusOr<void*> stream =
            Streams::Of(*runtime_)->CreateStream(0, 0);
        if (stream.ok()) {
          ++created;
          // Destroy some at once (waiting or forced), keep others for the
          // reset to close.
          if (round % 3 != 0) {
            (void)Streams::Of(*runtime_)->DestroyStream(
                *stream, /*force=*/round % 2 == 0);
          }
        }
        if ((round + t) % 4 == 0) {
          absl::StatusOr<void*> event = Sync::Of(*runtime_)->CreateEvent(0);
          if (event.ok() && round % 2 == 0) {
            (void)Sync::Of(*runtime_)->DestroyEvent(*event);
          }
          absl::StatusOr<void*> notify = Sync::Of(*runtime_)->CreateNotify(0);
          if (notify.ok() && round % 2 == 1) {
            (void)Sync::Of(*runtime_)->DestroyNotify(*notify);
          }
        }
      }
    });
  }
  threads.emplace_back([&] {
    int round = 0;
    while (!stop) {
      // Alternate forced resets with reference-counted ones.
      (void)runtime_->ResetDevice(0, /*force=*/++round % 2 == 0);
      (void)runtime_->SetDevice(0);
      ++resets;
      absl::SleepFor(absl::Microseconds(200));
    }
  });
  absl::SleepFor(kDuration);
  stop = true;
  for (std::thread& thread : threads) thread.join();
  EXPECT_GT(created.load(), 0);
  EXPECT_GT(resets.load(), 0);
  ASSERT_TRUE(runtime_->SetDevice(0).ok());
  ExpectTablesMatchDevice();
  EXPECT_TRUE(runtime_->ResetDevice(0, /*force=*/true).ok());
}

}  // namespace
}  // namespace ascend::rt
