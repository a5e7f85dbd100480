// The npu backend over the stand-in driver: what the conformance suite does
// not pin — the driver call sequence CANN uses (open/close arguments,
// halMemAlloc flags, the huge -> normal retry), driver error mapping, memory
// info, checksum and peer copies. The BUILD file gives the stand-in 2 devices
// with 64 MiB normal and 64 MiB huge pools.
#include "device/npu/npu_backend.h"

#include <cstdlib>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "absl/status/status.h"
#include "absl/time/clock.h"
#include "absl/time/time.h"
#include "device/checksum.h"
#include "device/device.h"
#include "device/npu/internal/hal_abi.h"
#include "device/npu/internal/hal_library.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "testing/fake_driver/fake_hal_client.h"
#include "testing/status_matchers.h"

namespace ascend::device::npu {
namespace {

using ::ascend::testing::FakeHalClient;
using ::testing::HasSubstr;

constexpr uint64_t kMiB = 1ULL << 20;
constexpr uint64_t kPool = 64 * kMiB;
constexpr unsigned long long kNormalFlag = 0x2100000000904400ULL;
constexpr unsigned long long kHugeFlag = 0x2100000000924400ULL;

std::vector<uint8_t> Pattern(size_t size, uint8_t seed) {
  std::vector<uint8_t> bytes(size);
  for (size_t i = 0; i < size; ++i) {
    bytes[i] = static_cast<uint8_t>(seed + i * 13);
  }
  return bytes;
}

std::vector<uint8_t> Read(Device& device, DeviceAddr addr, size_t size) {
  std::vector<uint8_t> out(size);
  EXPECT_OK(device.CopyFromDevice(out.data(), addr, size));
  return out;
}

class NpuBackendTest : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_OK_AND_ASSIGN(
        FakeHalClient hal,
        FakeHalClient::Attach(internal::HalLibrary::DefaultPath()));
    hal_ = std::make_unique<FakeHalClient>(hal);
    ASSERT_OK(hal_->SetCapacity(kPool, kPool));
    ASSERT_OK_AND_ASSIGN(backend_, CreateNpuBackend());
  }

  void TearDown() override {
    for (const char* name :
         {"halDeviceOpen", "halDeviceClose", "halMemAlloc", "drvMemcpy",
          "drvMemsetD8", "halMemGetInfo", "drvMemSmmuQuery"}) {
      hal_->ClearError(name);
    }
  }

  std::unique_ptr<FakeHalClient> hal_;
  std::unique_ptr<Backend> backend_;
};

TEST_F(NpuBackendTest, Identity) {
  EXPECT_EQ(backend_->name(), "npu");
  EXPECT_EQ(backend_->DeviceCount(), 2);
  EXPECT_EQ(backend_->SocName(), "Ascend910B1");  // from halGetSocVersion
}

TEST_F(NpuBackendTest, OpenAndCloseFollowCannsSequence) {
  const uint64_t opens = hal_->CallCount("halDeviceOpen");
  const uint64_t queries = hal_->CallCount("drvMemSmmuQuery");
  const uint64_t closes = hal_->CallCount("halDeviceClose");
  ASSERT_OK_AND_ASSIGN(std::unique_ptr<Device> device, backend_->Open(1));
  EXPECT_EQ(device->id(), 1);
  EXPECT_EQ(hal_->CallCount("halDeviceOpen"), opens + 1);
  EXPECT_EQ(hal_->CallCount("drvMemSmmuQuery"), queries + 1);
  EXPECT_EQ(backend_->Open(1).status().code(),
            absl::StatusCode::kFailedPrecondition);
  EXPECT_EQ(hal_->CallCount("halDeviceOpen"), opens + 1)
      << "a second Open must not reach the driver";
  device.reset();
  EXPECT_EQ(hal_->CallCount("halDeviceClose"), closes + 1);
  EXPECT_EQ(hal_->LastCloseType(), DEV_CLOSE_HOST_DEVICE);
}

TEST_F(NpuBackendTest, OpenFailuresAreMappedAndLeaveTheDeviceClosed) {
  hal_->InjectError("halDeviceOpen", DRV_ERROR_INVALID_DEVICE);
  absl::StatusOr<std::unique_ptr<Device>> failed = backend_->Open(0);
  EXPECT_EQ(failed.status().code(), absl::StatusCode::kOutOfRange);
  EXPECT_THAT(failed.status().message(), HasSubstr("halDeviceOpen"));

  // The SMMU query after a successful open fails: the device is closed again.
  const uint64_t closes = hal_->CallCount("halDeviceClose");
  hal_->InjectError("drvMemSmmuQuery", DRV_ERROR_IOCRL_FAIL);
  failed = backend_->Open(0);
  EXPECT_EQ(failed.status().code(), absl::StatusCode::kInternal);
  EXPECT_THAT(failed.status().message(), HasSubstr("DRV_ERROR_IOCRL_FAIL"));
  EXPECT_THAT(failed.status().message(), HasSubstr("507899"));
  EXPECT_EQ(hal_->CallCount("halDeviceClose"), closes + 1);

  ASSERT_OK_AND_ASSIGN(std::unique_ptr<Device> device, backend_->Open(0));
}

TEST_F(NpuBackendTest, OpenRejectsIdsOutsideTheEnumeration) {
  EXPECT_EQ(backend_->Open(2).status().code(), absl::StatusCode::kOutOfRange);
  EXPECT_EQ(backend_->Open(-1).status().code(), absl::StatusCode::kOutOfRange);
}

TEST_F(NpuBackendTest, AllocationFlagsAreWhatCannPassesForAclrtMalloc) {
  ASSERT_OK_AND_ASSIGN(std::unique_ptr<Device> d0, backend_->Open(0));
  ASSERT_OK_AND_ASSIGN(std::unique_ptr<Device> d1, backend_->Open(1));
  // <= 1 MiB: normal pages, 512-byte alignment field, module APP, device id.
  ASSERT_OK(d0->Allocate(4096, 32));
  EXPECT_EQ(hal_->LastAllocFlag(), kNormalFlag);
  ASSERT_OK(d1->Allocate(kMiB, 1));
  EXPECT_EQ(hal_->LastAllocFlag(), kNormalFlag | 1);
  // > 1 MiB: huge pages first.
  const uint64_t calls = hal_->CallCount("halMemAlloc");
  ASSERT_OK_AND_ASSIGN(DeviceAddr big, d1->Allocate(kMiB + 1, 32));
  EXPECT_EQ(hal_->LastAllocFlag(), kHugeFlag | 1);
  EXPECT_EQ(hal_->CallCount("halMemAlloc"), calls + 1);
  EXPECT_EQ(big % (2 * kMiB), 0u);
  // A larger alignment raises the exponent field (2^22 = 4 MiB).
  ASSERT_OK_AND_ASSIGN(DeviceAddr aligned, d0->Allocate(100, 4 * kMiB));
  EXPECT_EQ(hal_->LastAllocFlag(),
            (kNormalFlag & ~MEM_SET_ALIGN_SIZE(0x1F)) | MEM_SET_ALIGN_SIZE(22));
  EXPECT_EQ(aligned % (4 * kMiB), 0u);
  EXPECT_EQ(d0->Allocate(100, 1ULL << 32).status().code(),
            absl::StatusCode::kInvalidArgument);
}

TEST_F(NpuBackendTest, FailedHugePageAttemptIsRetriedWithNormalPages) {
  ASSERT_OK_AND_ASSIGN(std::unique_ptr<Device> device, backend_->Open(0));
  ASSERT_OK(hal_->SetCapacity(kPool, 0));  // no huge pages at all
  const uint64_t calls = hal_->CallCount("halMemAlloc");
  ASSERT_OK_AND_ASSIGN(DeviceAddr addr, device->Allocate(3 * kMiB, 32));
  EXPECT_EQ(hal_->CallCount("halMemAlloc"), calls + 2);
  EXPECT_EQ(hal_->LastAllocFlag(), kNormalFlag);
  EXPECT_EQ(device->FindAllocation(addr + 5)->size, 3 * kMiB);

  // When the retry fails too, its error is the one returned.
  hal_->InjectError("halMemAlloc", DRV_ERROR_OUT_OF_MEMORY, 2);
  absl::StatusOr<DeviceAddr> failed = device->Allocate(3 * kMiB, 32);
  EXPECT_EQ(failed.status().code(), absl::StatusCode::kResourceExhausted);
  EXPECT_THAT(failed.status().message(), HasSubstr("DRV_ERROR_OUT_OF_MEMORY"));
  EXPECT_THAT(failed.status().message(), HasSubstr("207001"));
  EXPECT_EQ(device->Allocations().size(), 1u);
}

TEST_F(NpuBackendTest, FreshMemoryIsZeroedEvenThoughTheDriverDoesNotZeroIt) {
  ASSERT_OK_AND_ASSIGN(std::unique_ptr<Device> device, backend_->Open(0));
  const uint64_t fills = hal_->CallCount("drvMemsetD8");
  ASSERT_OK_AND_ASSIGN(DeviceAddr addr, device->Allocate(1000, 32));
  EXPECT_EQ(hal_->CallCount("drvMemsetD8"), fills + 1);
  EXPECT_EQ(Read(*device, addr, 1000), std::vector<uint8_t>(1000, 0));

  // A failed zero fill frees the allocation again.
  hal_->InjectError("drvMemsetD8", DRV_ERROR_INNER_ERR);
  const uint64_t frees = hal_->CallCount("halMemFree");
  EXPECT_EQ(device->Allocate(1000, 32).status().code(),
            absl::StatusCode::kInternal);
  EXPECT_EQ(hal_->CallCount("halMemFree"), frees + 1);
  EXPECT_EQ(device->Allocations().size(), 1u);
}

TEST_F(NpuBackendTest, CopiesInEveryDirection) {
  ASSERT_OK_AND_ASSIGN(std::unique_ptr<Device> device, backend_->Open(0));
  ASSERT_OK_AND_ASSIGN(DeviceAddr a, device->Allocate(4096, 32));
  ASSERT_OK_AND_ASSIGN(DeviceAddr b, device->Allocate(4096, 32));
  const std::vector<uint8_t> data = Pattern(4096, 3);
  ASSERT_OK(device->CopyToDevice(a, data.data(), data.size()));
  EXPECT_EQ(Read(*device, a, 4096), data);
  ASSERT_OK(device->CopyWithinDevice(b + 96, a + 32, 4000));
  EXPECT_EQ(Read(*device, b + 96, 4000),
            std::vector<uint8_t>(data.begin() + 32, data.end() - 64));
  ASSERT_OK(device->Fill(a + 10, 0x5A, 20));
  const std::vector<uint8_t> head = Read(*device, a, 40);
  for (size_t i = 0; i < head.size(); ++i) {
    EXPECT_EQ(head[i], i >= 10 && i < 30 ? 0x5A : data[i]) << i;
  }
  EXPECT_EQ(device->CopyToDevice(a, nullptr, 16).code(),
            absl::StatusCode::kInvalidArgument);
  EXPECT_OK(device->CopyToDevice(a, nullptr, 0));  // nothing to copy
  EXPECT_EQ(device->HostPointer(a), nullptr);      // not host-addressable
}

TEST_F(NpuBackendTest, DriverCopyErrorsAreMapped) {
  ASSERT_OK_AND_ASSIGN(std::unique_ptr<Device> device, backend_->Open(0));
  ASSERT_OK_AND_ASSIGN(DeviceAddr a, device->Allocate(64, 32));
  uint8_t host[64] = {};
  hal_->InjectError("drvMemcpy", DRV_ERROR_NOT_SUPPORT);
  absl::Status status = device->CopyToDevice(a, host, 64);
  EXPECT_EQ(status.code(), absl::StatusCode::kUnimplemented);
  EXPECT_THAT(status.message(), HasSubstr("207000"));
  hal_->InjectError("drvMemcpy", DRV_ERROR_COPY_USER_FAIL);
  EXPECT_EQ(device->CopyFromDevice(host, a, 64).code(),
            absl::StatusCode::kDataLoss);
  hal_->InjectError("drvMemsetD8", DRV_ERROR_INVALID_VALUE);
  EXPECT_EQ(device->Fill(a, 1, 64).code(), absl::StatusCode::kInvalidArgument);
}

TEST_F(NpuBackendTest, PeerCopies) {
  EXPECT_TRUE(backend_->CanAccessPeer(0, 1));
  EXPECT_TRUE(backend_->CanAccessPeer(1, 0));
  EXPECT_FALSE(backend_->CanAccessPeer(0, 0));
  ASSERT_OK_AND_ASSIGN(std::unique_ptr<Device> d0, backend_->Open(0));
  ASSERT_OK_AND_ASSIGN(std::unique_ptr<Device> d1, backend_->Open(1));
  ASSERT_OK_AND_ASSIGN(DeviceAddr a, d0->Allocate(8192, 32));
  ASSERT_OK_AND_ASSIGN(DeviceAddr b, d1->Allocate(8192, 32));
  const std::vector<uint8_t> data = Pattern(8192, 9);
  ASSERT_OK(d0->CopyToDevice(a, data.data(), data.size()));
  ASSERT_OK(backend_->CopyPeer(*d1, b, *d0, a, 8192));
  EXPECT_EQ(Read(*d1, b, 8192), data);
  // The same device through CopyPeer is a copy within it.
  ASSERT_OK(backend_->CopyPeer(*d0, a, *d0, a + 4096, 4096));
  EXPECT_EQ(Read(*d0, a, 4096),
            std::vector<uint8_t>(data.begin() + 4096, data.end()));

  // A device of another backend instance is not this backend's.
  ASSERT_OK_AND_ASSIGN(std::unique_ptr<Backend> other, CreateNpuBackend());
  EXPECT_EQ(other->CopyPeer(*d1, b, *d0, a, 16).code(),
            absl::StatusCode::kInvalidArgument);
}

TEST_F(NpuBackendTest, MemoryInfoIsNormalPlusHugePages) {
  ASSERT_OK_AND_ASSIGN(std::unique_ptr<Device> device, backend_->Open(0));
  MemoryInfo info = device->GetMemoryInfo();
  EXPECT_EQ(info.total_bytes, 2 * kPool);
  EXPECT_EQ(info.free_bytes, 2 * kPool);
  ASSERT_OK(device->Allocate(100, 32));       // 4 KiB of normal pages
  ASSERT_OK(device->Allocate(3 * kMiB, 32));  // 4 MiB of huge pages
  info = device->GetMemoryInfo();
  EXPECT_EQ(info.total_bytes, 2 * kPool);
  EXPECT_EQ(info.free_bytes, 2 * kPool - 4096 - 4 * kMiB);

  // HBM not supported: the DDR query answers.
  const uint64_t queries = hal_->CallCount("halMemGetInfo");
  hal_->InjectError("halMemGetInfo", DRV_ERROR_NOT_SUPPORT);
  EXPECT_EQ(device->GetMemoryInfo().total_bytes, 2 * kPool);
  EXPECT_EQ(hal_->CallCount("halMemGetInfo"), queries + 2);
  // Any other failure reports nothing.
  hal_->InjectError("halMemGetInfo", DRV_ERROR_INNER_ERR);
  info = device->GetMemoryInfo();
  EXPECT_EQ(info.total_bytes, 0u);
  EXPECT_EQ(info.free_bytes, 0u);
}

TEST_F(NpuBackendTest, ChecksumMatchesTheSharedFunctionOnTheSameBytes) {
  ASSERT_OK_AND_ASSIGN(std::unique_ptr<Device> device, backend_->Open(0));
  const size_t size = 3 * kMiB + 17;
  ASSERT_OK_AND_ASSIGN(DeviceAddr addr, device->Allocate(size, 32));
  const std::vector<uint8_t> data = Pattern(size, 21);
  ASSERT_OK(device->CopyToDevice(addr, data.data(), size));
  ASSERT_OK_AND_ASSIGN(uint64_t sum, device->Checksum(addr, size));
  EXPECT_EQ(sum, device::Checksum(data.data(), size));
  ASSERT_OK_AND_ASSIGN(uint64_t middle, device->Checksum(addr + 1000, 5000));
  EXPECT_EQ(middle, device::Checksum(data.data() + 1000, 5000));
  ASSERT_OK_AND_ASSIGN(uint64_t empty, device->Checksum(addr, 0));
  EXPECT_EQ(empty, device::Checksum(nullptr, 0));
  EXPECT_EQ(device->Checksum(addr + 1, size).status().code(),
            absl::StatusCode::kInvalidArgument);
  hal_->InjectError("drvMemcpy", DRV_ERROR_BUS_DOWN);
  EXPECT_EQ(device->Checksum(addr, size).status().code(),
            absl::StatusCode::kInternal);
}

TEST_F(NpuBackendTest, IdsArePerKindHostSideTables) {
  ASSERT_OK_AND_ASSIGN(std::unique_ptr<Device> device, backend_->Open(0));
  ASSERT_OK_AND_ASSIGN(uint32_t stream,
                       device->AllocateId(ResourceKind::kStream));
  ASSERT_OK_AND_ASSIGN(uint32_t event,
                       device->AllocateId(ResourceKind::kEvent));
  EXPECT_EQ(stream, 0u);
  EXPECT_EQ(event, 0u);
  EXPECT_EQ(device->ClaimId(ResourceKind::kStream, 0).code(),
            absl::StatusCode::kAlreadyExists);
  EXPECT_EQ(device->AllocateId(static_cast<ResourceKind>(7)).status().code(),
            absl::StatusCode::kInvalidArgument);
  // The host-side limit.
  for (uint32_t i = 1; i < 65536; ++i) {
    ASSERT_OK(device->AllocateId(ResourceKind::kNotify));
  }
  ASSERT_OK(device->AllocateId(ResourceKind::kNotify));
  EXPECT_EQ(device->AllocateId(ResourceKind::kNotify).status().code(),
            absl::StatusCode::kResourceExhausted);
}

TEST_F(NpuBackendTest, NoFaultInjection) {
  EXPECT_EQ(backend_->InjectFault(0, Fault::kNextCopyFails).code(),
            absl::StatusCode::kUnimplemented);
}

TEST_F(NpuBackendTest, HealthWaitTimesOutAndInterruptIsRemembered) {
  absl::Time start = absl::Now();
  EXPECT_FALSE(backend_->WaitHealthEvent(absl::Milliseconds(30)).has_value());
  EXPECT_GE(absl::Now() - start, absl::Milliseconds(25));

  // An interrupt that comes before the wait ends the next wait at once.
  backend_->InterruptHealthWait();
  start = absl::Now();
  EXPECT_FALSE(backend_->WaitHealthEvent(absl::Seconds(30)).has_value());
  EXPECT_LT(absl::Now() - start, absl::Seconds(10));

  std::thread waiter([&] {
    EXPECT_FALSE(backend_->WaitHealthEvent(absl::Seconds(30)).has_value());
  });
  absl::SleepFor(absl::Milliseconds(20));
  backend_->InterruptHealthWait();
  waiter.join();
}

}  // namespace
}  // namespace ascend::device::npu
