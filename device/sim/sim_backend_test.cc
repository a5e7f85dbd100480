// What only the sim backend promises: configuration, address and allocation
// policies, reservations after Reopen, id limits, fault details and
// lifetimes. The shared behaviour is in sim_conformance_test.
#include "device/sim/sim_backend.h"

#include <stdlib.h>

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <cstring>
#include <memory>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/time/clock.h"
#include "absl/time/time.h"
#include "device/checksum.h"
#include "device/device.h"
#include "gtest/gtest.h"
#include "testing/status_matchers.h"

namespace ascend::device::sim {
namespace {

constexpr uint64_t kKiB = 1024;
constexpr uint64_t kMiB = 1024 * kKiB;
constexpr uint64_t kGiB = 1024 * kMiB;

SimConfig SmallConfig() {
  SimConfig config;
  config.device_count = 2;
  config.device_memory_bytes = 64 * kMiB;
  return config;
}

std::unique_ptr<Backend> MakeBackend(const SimConfig& config) {
  absl::StatusOr<std::unique_ptr<Backend>> backend = CreateSimBackend(config);
  EXPECT_OK(backend);
  return backend.ok() ? std::move(backend).value() : nullptr;
}

std::vector<unsigned char> Pattern(size_t size) {
  std::vector<unsigned char> data(size);
  for (size_t i = 0; i < size; ++i) {
    data[i] = static_cast<unsigned char>(i * 31 + 7);
  }
  return data;
}

// Sets the ACLSIM_* variables for one test and restores them afterwards.
class ScopedEnv {
 public:
  ScopedEnv(const char* name, const char* value) : name_(name) {
    const char* old = getenv(name);
    if (old != nullptr) old_ = old;
    setenv(name, value, 1);
  }
  ~ScopedEnv() {
    if (old_.has_value()) {
      setenv(name_, old_->c_str(), 1);
    } else {
      unsetenv(name_);
    }
  }

 private:
  const char* name_;
  std::optional<std::string> old_;
};

TEST(SimConfigTest, DefaultsFollowTheContract) {
  ScopedEnv count("ACLSIM_DEVICE_COUNT", "");
  ScopedEnv memory("ACLSIM_DEVICE_MEMORY_MB", "");
  ScopedEnv soc("ACLSIM_SOC_NAME", "");
  ASSERT_OK_AND_ASSIGN(const SimConfig config, SimConfig::FromEnvironment());
  EXPECT_EQ(config.device_count, 8);
  EXPECT_EQ(config.device_memory_bytes, 64 * kGiB);
  EXPECT_EQ(config.soc_name, "Ascend910B1");
  ASSERT_OK_AND_ASSIGN(const std::unique_ptr<Backend> backend,
                       CreateSimBackend());
  EXPECT_EQ(backend->name(), "sim");
  EXPECT_EQ(backend->DeviceCount(), 8);
  EXPECT_EQ(backend->SocName(), "Ascend910B1");
}

TEST(SimConfigTest, ReadsTheEnvironment) {
  ScopedEnv count("ACLSIM_DEVICE_COUNT", "3");
  ScopedEnv memory("ACLSIM_DEVICE_MEMORY_MB", "128");
  ScopedEnv soc("ACLSIM_SOC_NAME", "MySoc");
  ASSERT_OK_AND_ASSIGN(const std::unique_ptr<Backend> backend,
                       CreateSimBackend());
  EXPECT_EQ(backend->DeviceCount(), 3);
  EXPECT_EQ(backend->SocName(), "MySoc");
  ASSERT_OK_AND_ASSIGN(const std::unique_ptr<Device> device, backend->Open(2));
  EXPECT_EQ(device->GetMemoryInfo().total_bytes, 128 * kMiB);
  EXPECT_EQ(device->GetMemoryInfo().free_bytes, 128 * kMiB);
  EXPECT_EQ(backend->Open(3).status().code(), absl::StatusCode::kOutOfRange);
}

TEST(SimConfigTest, ZeroDevicesIsAValidConfiguration) {
  ScopedEnv count("ACLSIM_DEVICE_COUNT", "0");
  ASSERT_OK_AND_ASSIGN(const std::unique_ptr<Backend> backend,
                       CreateSimBackend());
  EXPECT_EQ(backend->DeviceCount(), 0);
  EXPECT_EQ(backend->Open(0).status().code(), absl::StatusCode::kOutOfRange);
}

TEST(SimConfigTest, RejectsMalformedEnvironment) {
  for (const char* bad : {"abc", "-1", "1025", "3x", "99999999999999999999"}) {
    ScopedEnv count("ACLSIM_DEVICE_COUNT", bad);
    const absl::Status status = SimConfig::FromEnvironment().status();
    EXPECT_EQ(status.code(), absl::StatusCode::kInvalidArgument) << bad;
    EXPECT_NE(status.message().find("ACLSIM_DEVICE_COUNT"), std::string::npos);
    EXPECT_EQ(CreateSimBackend().status().code(),
              absl::StatusCode::kInvalidArgument);
  }
  for (const char* bad : {"0", "1.5", "16777217", "lots"}) {
    ScopedEnv memory("ACLSIM_DEVICE_MEMORY_MB", bad);
    const absl::Status status = SimConfig::FromEnvironment().status();
    EXPECT_EQ(status.code(), absl::StatusCode::kInvalidArgument) << bad;
    EXPECT_NE(status.message().find("ACLSIM_DEVICE_MEMORY_MB"),
              std::string::npos);
  }
}

TEST(SimConfigTest, RejectsBadConfigs) {
  SimConfig config = SmallConfig();
  config.device_count = -1;
  EXPECT_EQ(CreateSimBackend(config).status().code(),
            absl::StatusCode::kInvalidArgument);
  config = SmallConfig();
  config.device_memory_bytes = 0;
  EXPECT_EQ(CreateSimBackend(config).status().code(),
            absl::StatusCode::kInvalidArgument);
  config.device_memory_bytes = 1000;  // not a multiple of 512
  EXPECT_EQ(CreateSimBackend(config).status().code(),
            absl::StatusCode::kInvalidArgument);
  config = SmallConfig();
  config.soc_name.clear();
  EXPECT_EQ(CreateSimBackend(config).status().code(),
            absl::StatusCode::kInvalidArgument);
}

TEST(SimBackendTest, DefaultDevicesEachReserve64GiBAndCommitLazily) {
  const std::unique_ptr<Backend> backend = MakeBackend(SimConfig{});
  ASSERT_NE(backend, nullptr);
  std::vector<std::unique_ptr<Device>> devices;
  std::vector<DeviceAddr> buffers;
  for (int32_t id = 0; id < backend->DeviceCount(); ++id) {
    ASSERT_OK_AND_ASSIGN(std::unique_ptr<Device> device, backend->Open(id));
    EXPECT_EQ(device->GetMemoryInfo().total_bytes, 64 * kGiB);
    // 16 GiB each, 128 GiB in all: only the touched pages cost memory.
    ASSERT_OK_AND_ASSIGN(const DeviceAddr addr,
                         device->Allocate(16 * kGiB, 2 * kMiB));
    const unsigned char marker = static_cast<unsigned char>(id + 1);
    ASSERT_OK(device->CopyToDevice(addr + 16 * kGiB - 1, &marker, 1));
    ASSERT_OK(device->Fill(addr, marker, 1));
    for (const DeviceAddr other : buffers) {
      EXPECT_TRUE(addr + 16 * kGiB <= other || other + 16 * kGiB <= addr);
    }
    buffers.push_back(addr);
    devices.push_back(std::move(device));
  }
  for (size_t id = 0; id < devices.size(); ++id) {
    unsigned char first = 0, last = 0;
    ASSERT_OK(devices[id]->CopyFromDevice(&first, buffers[id], 1));
    ASSERT_OK(
        devices[id]->CopyFromDevice(&last, buffers[id] + 16 * kGiB - 1, 1));
    EXPECT_EQ(first, id + 1);
    EXPECT_EQ(last, id + 1);
  }
}

TEST(SimBackendTest, DeviceAddressesAreHostAddressesApartFromTheHeap) {
  const std::unique_ptr<Backend> backend = MakeBackend(SmallConfig());
  ASSERT_OK_AND_ASSIGN(const std::unique_ptr<Device> device, backend->Open(0));
  ASSERT_OK_AND_ASSIGN(const DeviceAddr addr, device->Allocate(4096, 32));
  EXPECT_EQ(device->HostPointer(addr), reinterpret_cast<void*>(addr));
  EXPECT_EQ(device->HostPointer(addr + 4095),
            reinterpret_cast<void*>(addr + 4095));
  EXPECT_EQ(device->HostPointer(addr + 4096), nullptr);
  auto heap = std::make_unique<char[]>(4096);
  EXPECT_FALSE(device->FindAllocation(reinterpret_cast<DeviceAddr>(heap.get()))
                   .has_value());
}

TEST(SimBackendTest, DeviceOwningAddressKnowsEveryOpenedWindow) {
  const std::unique_ptr<Backend> backend = MakeBackend(SmallConfig());
  const std::unique_ptr<Backend> other_backend = MakeBackend(SmallConfig());
  DeviceAddr first = 0;
  DeviceAddr second = 0;
  {
    ASSERT_OK_AND_ASSIGN(const std::unique_ptr<Device> device,
                         backend->Open(0));
    ASSERT_OK_AND_ASSIGN(first, device->Allocate(512, 32));
    EXPECT_EQ(backend->DeviceOwningAddress(first), 0);
    // Anywhere in the window, allocated or not.
    EXPECT_EQ(backend->DeviceOwningAddress(first + 32 * kMiB), 0);
    ASSERT_OK(device->Free(first));
    EXPECT_EQ(backend->DeviceOwningAddress(first), 0);
  }
  EXPECT_EQ(backend->DeviceOwningAddress(first), 0) << "after close";
  {
    ASSERT_OK_AND_ASSIGN(const std::unique_ptr<Device> device,
                         other_backend->Open(1));
    ASSERT_OK_AND_ASSIGN(second, device->Allocate(512, 32));
  }
  // Each backend knows its own windows only.
  EXPECT_EQ(other_backend->DeviceOwningAddress(second), 1);
  EXPECT_EQ(backend->DeviceOwningAddress(second), std::nullopt);
  EXPECT_EQ(other_backend->DeviceOwningAddress(first), std::nullopt);
}

TEST(SimBackendTest, SizesRoundTo512BytesAndBestFitPacksThem) {
  const std::unique_ptr<Backend> backend = MakeBackend(SmallConfig());
  ASSERT_OK_AND_ASSIGN(const std::unique_ptr<Device> device, backend->Open(0));
  const uint64_t free_before = device->GetMemoryInfo().free_bytes;
  ASSERT_OK_AND_ASSIGN(const DeviceAddr a, device->Allocate(1, 1));
  ASSERT_OK_AND_ASSIGN(const DeviceAddr b, device->Allocate(600, 1));
  ASSERT_OK_AND_ASSIGN(const DeviceAddr c, device->Allocate(1, 1));
  EXPECT_EQ(a % 512, 0u);
  EXPECT_EQ(b, a + 512);
  EXPECT_EQ(c, b + 1024);
  EXPECT_EQ(device->FindAllocation(b)->size, 600u);
  EXPECT_EQ(device->GetMemoryInfo().free_bytes, free_before - 2048);
  // A 1-byte allocation is 1 byte long for copies.
  const unsigned char two[2] = {1, 2};
  EXPECT_EQ(device->CopyToDevice(a, two, 2).code(),
            absl::StatusCode::kInvalidArgument);
}

TEST(SimBackendTest, CopyWithinOneAllocationHandlesOverlap) {
  const std::unique_ptr<Backend> backend = MakeBackend(SmallConfig());
  ASSERT_OK_AND_ASSIGN(const std::unique_ptr<Device> device, backend->Open(0));
  const std::vector<unsigned char> data = Pattern(4096);
  ASSERT_OK_AND_ASSIGN(const DeviceAddr addr, device->Allocate(4096, 32));
  ASSERT_OK(device->CopyToDevice(addr, data.data(), 4096));
  ASSERT_OK(device->CopyWithinDevice(addr + 1, addr, 4095));
  std::vector<unsigned char> read(4096);
  ASSERT_OK(device->CopyFromDevice(read.data(), addr, 4096));
  EXPECT_EQ(read[0], data[0]);
  EXPECT_TRUE(std::equal(read.begin() + 1, read.end(), data.begin()));
  // Zero-size copies of valid addresses do nothing and succeed.
  EXPECT_OK(device->CopyToDevice(addr, nullptr, 0));
  EXPECT_OK(device->CopyWithinDevice(addr, addr + 1, 0));
}

TEST(SimBackendTest, ChecksumIsTheDocumentedFunctionOfTheBytes) {
  const std::unique_ptr<Backend> backend = MakeBackend(SmallConfig());
  ASSERT_OK_AND_ASSIGN(const std::unique_ptr<Device> device, backend->Open(0));
  const std::vector<unsigned char> data = Pattern(100000);
  ASSERT_OK_AND_ASSIGN(const DeviceAddr addr, device->Allocate(100000, 32));
  ASSERT_OK(device->CopyToDevice(addr, data.data(), data.size()));
  ASSERT_OK_AND_ASSIGN(const uint64_t sum, device->Checksum(addr + 3, 99990));
  EXPECT_EQ(sum, device::Checksum(data.data() + 3, 99990));
  ASSERT_OK_AND_ASSIGN(const uint64_t empty, device->Checksum(addr, 0));
  EXPECT_EQ(empty, device::Checksum(nullptr, 0));
}

// Verified copies to the device, one piece and several at once: each
// checksum is the device's of what landed; an injected fault fails the
// transfer, or shows in the checksum of the piece it damaged; a transfer
// across two allocations is refused.
TEST(SimBackendTest, VerifiedCopiesReturnTheChecksumsOfWhatLanded) {
  const std::unique_ptr<Backend> backend = MakeBackend(SmallConfig());
  ASSERT_OK_AND_ASSIGN(const std::unique_ptr<Device> device, backend->Open(0));
  constexpr uint64_t kPiece = 64 * kKiB;
  const uint64_t size = 5 * kPiece + 1000;  // the last piece is short
  const std::vector<unsigned char> data = Pattern(size);
  ASSERT_OK_AND_ASSIGN(const DeviceAddr addr, device->Allocate(size, 4096));
  ASSERT_OK_AND_ASSIGN(const DeviceAddr next, device->Allocate(kPiece, 4096));
  std::vector<uint64_t> want;
  for (uint64_t at = 0; at < size; at += kPiece) {
    want.push_back(
        device::Checksum(data.data() + at, std::min(kPiece, size - at)));
  }
  std::vector<uint64_t> sums(want.size(), 0);
  ASSERT_OK(device->CopyToDeviceWithChecksums(addr, data.data(), size, kPiece,
                                              sums.data()));
  EXPECT_EQ(sums, want);
  EXPECT_EQ(std::memcmp(device->HostPointer(addr), data.data(), size), 0);
  ASSERT_OK_AND_ASSIGN(const uint64_t one, device->CopyToDeviceWithChecksum(
                                               addr, data.data(), kPiece));
  EXPECT_EQ(one, want[0]);

  ASSERT_OK(backend->InjectFault(0, Fault::kNextCopyCorrupts));
  ASSERT_OK(device->CopyToDeviceWithChecksums(addr, data.data(), size, kPiece,
                                              sums.data()));
  int damaged = 0;
  for (size_t i = 0; i < sums.size(); ++i) damaged += sums[i] != want[i];
  EXPECT_EQ(damaged, 1);
  ASSERT_OK(backend->InjectFault(0, Fault::kNextCopyFails));
  EXPECT_EQ(device
                ->CopyToDeviceWithChecksums(addr, data.data(), size, kPiece,
                                            sums.data())
                .code(),
            absl::StatusCode::kDataLoss);
  ASSERT_OK(device->CopyToDeviceWithChecksums(addr, data.data(), size, kPiece,
                                              sums.data()));
  EXPECT_EQ(sums, want);

  // Across the end of the first allocation (the second follows it or not).
  const DeviceAddr last = addr + 5 * kPiece;
  EXPECT_FALSE(device
                   ->CopyToDeviceWithChecksums(last, data.data(), 2 * kPiece,
                                               kPiece, sums.data())
                   .ok());
  EXPECT_EQ(
      device->CopyToDeviceWithChecksums(addr, data.data(), size, 0, sums.data())
          .code(),
      absl::StatusCode::kInvalidArgument);
  (void)next;
}

TEST(SimBackendTest, ReopenKeepsDroppedRangesReservedUntilClose) {
  const std::unique_ptr<Backend> backend = MakeBackend(SmallConfig());
  ASSERT_OK_AND_ASSIGN(std::unique_ptr<Device> device, backend->Open(0));
  ASSERT_OK_AND_ASSIGN(const DeviceAddr a, device->Allocate(48 * kMiB, 32));
  ASSERT_OK(device->Reopen());
  // Reserved space is neither live nor free.
  EXPECT_EQ(device->GetMemoryInfo().free_bytes, 16 * kMiB);
  EXPECT_EQ(device->Allocate(32 * kMiB, 32).status().code(),
            absl::StatusCode::kResourceExhausted);
  ASSERT_OK_AND_ASSIGN(const DeviceAddr b, device->Allocate(16 * kMiB, 32));
  EXPECT_TRUE(b >= a + 48 * kMiB || b + 16 * kMiB <= a);
  ASSERT_OK(device->Free(b));
  // A second Reopen keeps the reservation; a put-back ends it.
  ASSERT_OK(device->Reopen());
  ASSERT_OK(device->AllocateAt(a, 48 * kMiB));
  ASSERT_OK(device->Free(a));
  EXPECT_EQ(device->GetMemoryInfo().free_bytes, 64 * kMiB);
  // Closing ends reservations that were never put back.
  ASSERT_OK_AND_ASSIGN(const DeviceAddr c, device->Allocate(40 * kMiB, 32));
  ASSERT_OK(device->Reopen());
  EXPECT_EQ(device->GetMemoryInfo().free_bytes, 24 * kMiB);
  device.reset();
  ASSERT_OK_AND_ASSIGN(device, backend->Open(0));
  EXPECT_EQ(device->GetMemoryInfo().free_bytes, 64 * kMiB);
  ASSERT_OK_AND_ASSIGN(const DeviceAddr d, device->Allocate(64 * kMiB, 32));
  EXPECT_EQ(d, c);  // the same window, at the same addresses
}

TEST(SimBackendTest, IdsAreLowestFreeAndBounded) {
  SimConfig config = SmallConfig();
  config.max_ids_per_kind = 4;
  const std::unique_ptr<Backend> backend = MakeBackend(config);
  ASSERT_OK_AND_ASSIGN(const std::unique_ptr<Device> device, backend->Open(0));
  for (uint32_t expected = 0; expected < 4; ++expected) {
    ASSERT_OK_AND_ASSIGN(const uint32_t id,
                         device->AllocateId(ResourceKind::kStream));
    EXPECT_EQ(id, expected);
  }
  EXPECT_EQ(device->AllocateId(ResourceKind::kStream).status().code(),
            absl::StatusCode::kResourceExhausted);
  device->ReleaseId(ResourceKind::kStream, 2);
  ASSERT_OK_AND_ASSIGN(const uint32_t reused,
                       device->AllocateId(ResourceKind::kStream));
  EXPECT_EQ(reused, 2u);
  EXPECT_EQ(device->ClaimId(ResourceKind::kEvent, 4).code(),
            absl::StatusCode::kInvalidArgument);
  const auto bogus = static_cast<ResourceKind>(7);
  EXPECT_EQ(device->AllocateId(bogus).status().code(),
            absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(device->ClaimId(bogus, 0).code(),
            absl::StatusCode::kInvalidArgument);
  device->ReleaseId(bogus, 0);  // ignored
}

TEST(SimBackendTest, CanAccessPeerIsTrueForDistinctValidDevices) {
  const std::unique_ptr<Backend> backend = MakeBackend(SmallConfig());
  EXPECT_TRUE(backend->CanAccessPeer(0, 1));
  EXPECT_TRUE(backend->CanAccessPeer(1, 0));
  EXPECT_FALSE(backend->CanAccessPeer(0, 0));
  EXPECT_FALSE(backend->CanAccessPeer(0, 2));
}

TEST(SimBackendTest, CopyPeerNeedsDevicesOfThisBackend) {
  const std::unique_ptr<Backend> backend = MakeBackend(SmallConfig());
  const std::unique_ptr<Backend> other_backend = MakeBackend(SmallConfig());
  ASSERT_OK_AND_ASSIGN(const std::unique_ptr<Device> mine, backend->Open(0));
  ASSERT_OK_AND_ASSIGN(const std::unique_ptr<Device> theirs,
                       other_backend->Open(1));
  ASSERT_OK_AND_ASSIGN(const DeviceAddr a, mine->Allocate(4096, 32));
  ASSERT_OK_AND_ASSIGN(const DeviceAddr b, theirs->Allocate(4096, 32));
  EXPECT_EQ(backend->CopyPeer(*theirs, b, *mine, a, 16).code(),
            absl::StatusCode::kInvalidArgument);
  // The same device on both sides is a copy within it.
  EXPECT_OK(backend->CopyPeer(*mine, a + 100, *mine, a, 16));
}

TEST(SimBackendTest, BackupAndRestoreAreNoOps) {
  const std::unique_ptr<Backend> backend = MakeBackend(SmallConfig());
  EXPECT_OK(backend->BackupProcessResources());  // no device open
  ASSERT_OK_AND_ASSIGN(const std::unique_ptr<Device> device, backend->Open(0));
  ASSERT_OK_AND_ASSIGN(const DeviceAddr addr, device->Allocate(4096, 32));
  ASSERT_OK(device->Reopen());
  EXPECT_OK(backend->RestoreProcessResources());
  EXPECT_FALSE(device->FindAllocation(addr).has_value());
}

TEST(SimFaultTest, PendingFaultsOutliveCloseAndApplyAfterOpen) {
  const std::unique_ptr<Backend> backend = MakeBackend(SmallConfig());
  ASSERT_OK(backend->InjectFault(1, Fault::kNextCopyFails));
  ASSERT_OK_AND_ASSIGN(const std::unique_ptr<Device> device, backend->Open(1));
  ASSERT_OK_AND_ASSIGN(const DeviceAddr addr, device->Allocate(4096, 32));
  const std::vector<unsigned char> data = Pattern(4096);
  // Invalid, zero-size copies and fills do not consume the fault.
  EXPECT_EQ(device->CopyToDevice(addr, data.data(), 4097).code(),
            absl::StatusCode::kInvalidArgument);
  EXPECT_OK(device->CopyToDevice(addr, data.data(), 0));
  EXPECT_OK(device->Fill(addr, 1, 4096));
  EXPECT_EQ(device->CopyWithinDevice(addr, addr + 2048, 1024).code(),
            absl::StatusCode::kDataLoss);
  EXPECT_OK(device->CopyWithinDevice(addr, addr + 2048, 1024));
}

TEST(SimFaultTest, CorruptionFlipsTheMiddleByteOfTheDestination) {
  const std::unique_ptr<Backend> backend = MakeBackend(SmallConfig());
  ASSERT_OK_AND_ASSIGN(const std::unique_ptr<Device> device, backend->Open(0));
  const std::vector<unsigned char> data = Pattern(1000);
  ASSERT_OK_AND_ASSIGN(const DeviceAddr addr, device->Allocate(1000, 32));
  ASSERT_OK(device->CopyToDevice(addr, data.data(), 1000));
  ASSERT_OK_AND_ASSIGN(const uint64_t clean, device->Checksum(addr, 1000));
  // Device to host: the host buffer is the destination.
  ASSERT_OK(backend->InjectFault(0, Fault::kNextCopyCorrupts));
  std::vector<unsigned char> read(1000);
  ASSERT_OK(device->CopyFromDevice(read.data(), addr, 1000));
  EXPECT_EQ(read[500], data[500] ^ 0xFF);
  read[500] = data[500];
  EXPECT_EQ(read, data);
  // The device copy was untouched, and the checksum proves it.
  ASSERT_OK_AND_ASSIGN(const uint64_t after, device->Checksum(addr, 1000));
  EXPECT_EQ(after, clean);
}

TEST(SimFaultTest, PeerCopiesConsumeTheDestinationsFaultFirst) {
  const std::unique_ptr<Backend> backend = MakeBackend(SmallConfig());
  ASSERT_OK_AND_ASSIGN(const std::unique_ptr<Device> d0, backend->Open(0));
  ASSERT_OK_AND_ASSIGN(const std::unique_ptr<Device> d1, backend->Open(1));
  ASSERT_OK_AND_ASSIGN(const DeviceAddr a, d0->Allocate(4096, 32));
  ASSERT_OK_AND_ASSIGN(const DeviceAddr b, d1->Allocate(4096, 32));
  ASSERT_OK(backend->InjectFault(0, Fault::kNextCopyFails));
  ASSERT_OK(backend->InjectFault(1, Fault::kNextCopyCorrupts));
  // 0 -> 1: device 1 (destination) corrupts; device 0's failure stays.
  ASSERT_OK(backend->CopyPeer(*d1, b, *d0, a, 4096));
  unsigned char middle = 0;
  ASSERT_OK(d1->CopyFromDevice(&middle, b + 2048, 1));
  EXPECT_EQ(middle, 0xFF);
  // 1 -> 0: device 0 (destination) fails.
  EXPECT_EQ(backend->CopyPeer(*d0, a, *d1, b, 4096).code(),
            absl::StatusCode::kDataLoss);
  EXPECT_OK(backend->CopyPeer(*d0, a, *d1, b, 4096));
}

TEST(SimFaultTest, MemoryLossOnAnUnopenedDeviceOnlyReports) {
  const std::unique_ptr<Backend> backend = MakeBackend(SmallConfig());
  ASSERT_OK(backend->InjectFault(1, Fault::kMemoryLoss));
  const std::optional<HealthEvent> event =
      backend->WaitHealthEvent(absl::ZeroDuration());
  ASSERT_TRUE(event.has_value());
  EXPECT_EQ(event->device_id, 1);
  EXPECT_TRUE(event->device_abnormal);
  EXPECT_EQ(backend->InjectFault(0, static_cast<Fault>(9)).code(),
            absl::StatusCode::kInvalidArgument);
}

TEST(SimFaultTest, MemoryLossDuringCopiesIsSafe) {
  const std::unique_ptr<Backend> backend = MakeBackend(SmallConfig());
  ASSERT_OK_AND_ASSIGN(const std::unique_ptr<Device> device, backend->Open(0));
  ASSERT_OK_AND_ASSIGN(const DeviceAddr addr, device->Allocate(4 * kMiB, 32));
  std::atomic<bool> stop{false};
  std::thread copier([&] {
    const std::vector<unsigned char> data = Pattern(4 * kMiB);
    std::vector<unsigned char> read(4 * kMiB);
    while (!stop) {
      ASSERT_OK(device->CopyToDevice(addr, data.data(), data.size()));
      ASSERT_OK(device->CopyFromDevice(read.data(), addr, read.size()));
    }
  });
  for (int i = 0; i < 20; ++i) {
    const absl::Time start = absl::Now();
    ASSERT_OK(backend->InjectFault(0, Fault::kMemoryLoss));
    // Injection takes no lock a copy holds.
    EXPECT_LT(absl::Now() - start, absl::Seconds(5));
    absl::SleepFor(absl::Milliseconds(2));
  }
  stop = true;
  copier.join();
  int events = 0;
  while (backend->WaitHealthEvent(absl::ZeroDuration()).has_value()) ++events;
  EXPECT_EQ(events, 20);
  ASSERT_EQ(device->Allocations().size(), 1u);
}

TEST(SimHealthTest, AnInterruptWithoutAWaiterIsRemembered) {
  const std::unique_ptr<Backend> backend = MakeBackend(SmallConfig());
  backend->InterruptHealthWait();
  const absl::Time start = absl::Now();
  EXPECT_FALSE(backend->WaitHealthEvent(absl::Seconds(30)).has_value());
  EXPECT_LT(absl::Now() - start, absl::Seconds(10));
  // Only once.
  EXPECT_FALSE(backend->WaitHealthEvent(absl::Milliseconds(20)).has_value());
}

TEST(SimLifetimeTest, DevicesMayOutliveTheirBackend) {
  std::unique_ptr<Backend> backend = MakeBackend(SmallConfig());
  ASSERT_OK_AND_ASSIGN(const std::unique_ptr<Device> device, backend->Open(0));
  ASSERT_OK_AND_ASSIGN(const DeviceAddr addr, device->Allocate(4096, 32));
  backend.reset();
  const std::vector<unsigned char> data = Pattern(4096);
  ASSERT_OK(device->CopyToDevice(addr, data.data(), 4096));
  std::vector<unsigned char> read(4096);
  ASSERT_OK(device->CopyFromDevice(read.data(), addr, 4096));
  EXPECT_EQ(read, data);
  EXPECT_OK(device->Free(addr));
}

TEST(SimLifetimeDeathTest, FreedDeviceMemoryIsInaccessible) {
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  const std::unique_ptr<Backend> backend = MakeBackend(SmallConfig());
  ASSERT_OK_AND_ASSIGN(const std::unique_ptr<Device> device, backend->Open(0));
  ASSERT_OK_AND_ASSIGN(const DeviceAddr addr,
                       device->Allocate(4 * kMiB, 2 * kMiB));
  auto* host = static_cast<volatile unsigned char*>(device->HostPointer(addr));
  ASSERT_NE(host, nullptr);
  host[0] = 1;
  ASSERT_OK(device->Free(addr));
  EXPECT_DEATH(host[0] = 2, "");
}

TEST(SimFaultTest, MemoryErrorFailsReadsOfItsRangeUntilRepaired) {
  const std::unique_ptr<Backend> backend = MakeBackend(SmallConfig());
  ASSERT_OK_AND_ASSIGN(const std::unique_ptr<Device> device, backend->Open(0));
  const std::vector<unsigned char> data = Pattern(8192);
  ASSERT_OK_AND_ASSIGN(const DeviceAddr addr, device->Allocate(8192, 32));
  ASSERT_OK_AND_ASSIGN(const DeviceAddr other, device->Allocate(8192, 32));
  ASSERT_OK(device->CopyToDevice(addr, data.data(), 8192));
  EXPECT_EQ(backend->InjectFault(0, Fault::kMemoryError).code(),
            absl::StatusCode::kInvalidArgument);  // needs a range
  EXPECT_EQ(backend->InjectRangeFault(0, Fault::kNextCopyFails, addr, 1).code(),
            absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(backend->InjectRangeFault(0, Fault::kMemoryError, 16, 1).code(),
            absl::StatusCode::kInvalidArgument);  // outside the window
  ASSERT_OK(
      backend->InjectRangeFault(0, Fault::kMemoryError, addr + 1024, 1024));
  std::vector<unsigned char> read(8192);
  const absl::Status failed = device->CopyFromDevice(read.data(), addr, 8192);
  EXPECT_TRUE(IsMemoryError(failed)) << failed;
  EXPECT_TRUE(IsMemoryError(device->CopyWithinDevice(other, addr + 2047, 1)));
  EXPECT_TRUE(IsMemoryError(device->Checksum(addr, 4096).status()));
  EXPECT_TRUE(IsMemoryError(
      device->CopyFromDeviceWithChecksum(read.data(), addr, 8192).status()));
  // Around it, and writes into it, work.
  EXPECT_OK(device->CopyFromDevice(read.data(), addr, 1024));
  EXPECT_OK(device->CopyFromDevice(read.data(), addr + 2048, 1024));
  EXPECT_OK(device->CopyToDevice(addr + 1024, data.data(), 16));
  EXPECT_FALSE(IsMemoryError(absl::DataLossError("another copy failure")));
  ASSERT_OK_AND_ASSIGN(std::vector<Allocation> errors, device->MemoryErrors());
  ASSERT_EQ(errors.size(), 1u);
  EXPECT_EQ(errors[0].addr, addr + 1024);
  EXPECT_EQ(errors[0].size, 1024u);
  EXPECT_EQ(device->RepairMemoryErrors(addr, 1024).code(),
            absl::StatusCode::kNotFound);
  ASSERT_OK(device->RepairMemoryErrors(addr + 1500, 1));
  ASSERT_OK(device->CopyFromDevice(read.data(), addr, 8192));
  EXPECT_EQ(read[1023], data[1023]);
  EXPECT_EQ(read[1024], 0);  // lost with the repair
  EXPECT_EQ(read[2047], 0);
  EXPECT_EQ(read[2048], data[2048]);
  ASSERT_OK_AND_ASSIGN(errors, device->MemoryErrors());
  EXPECT_TRUE(errors.empty());
  // A re-open (a snapshot Restore) and a free both clear errors.
  ASSERT_OK(backend->InjectRangeFault(0, Fault::kMemoryError, other, 64));
  ASSERT_OK(device->Free(other));
  ASSERT_OK_AND_ASSIGN(errors, device->MemoryErrors());
  EXPECT_TRUE(errors.empty());
  ASSERT_OK(backend->InjectRangeFault(0, Fault::kMemoryError, addr, 64));
  ASSERT_OK(device->Reopen());
  ASSERT_OK_AND_ASSIGN(errors, device->MemoryErrors());
  EXPECT_TRUE(errors.empty());
}

}  // namespace
}  // namespace ascend::device::sim
