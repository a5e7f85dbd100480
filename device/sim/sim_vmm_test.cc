// The simulator's virtual memory management, method by method: physical
// allocations, reservations, mappings, shared memory, and how they meet
// Reopen, DataRanges, memory loss, FindAllocation and DeviceOwningAddress.
// The C API's view of the same calls is in //acl/api:vmm_api_test.
#include <unistd.h>

#include <cstdint>
#include <cstring>
#include <memory>
#include <optional>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "device/device.h"
#include "device/sim/sim_backend.h"
#include "device/sim/sim_vmm_test_fixture.h"
#include "gtest/gtest.h"
#include "testing/status_matchers.h"

namespace ascend::device::sim {
namespace {

TEST_F(SimVmmTest, PhysicalAllocationsAreZeroFilledCountedAndListed) {
  const uint64_t free_before = device_->GetMemoryInfo().free_bytes;
  ASSERT_OK_AND_ASSIGN(const DeviceAddr id,
                       device_->AllocatePhysical(2 * kGranule));
  EXPECT_EQ(id % kGranule, 0u);
  EXPECT_EQ(device_->GetMemoryInfo().free_bytes, free_before - 2 * kGranule);
  const std::vector<Allocation> physical = device_->PhysicalAllocations();
  ASSERT_EQ(physical.size(), 1u);
  EXPECT_EQ(physical[0].addr, id);
  EXPECT_EQ(physical[0].size, 2 * kGranule);
  // It is an allocation too (the snapshot saves it once).
  const std::vector<Allocation> allocations = device_->Allocations();
  ASSERT_EQ(allocations.size(), 1u);
  EXPECT_EQ(allocations[0].addr, id);
  std::vector<unsigned char> read(2 * kGranule, 0xff);
  ASSERT_OK(device_->CopyFromDevice(read.data(), id, read.size()));
  EXPECT_EQ(read, std::vector<unsigned char>(2 * kGranule, 0));
  // Free is for plain allocations only.
  EXPECT_EQ(device_->Free(id).code(), absl::StatusCode::kInvalidArgument);
  ASSERT_OK(device_->FreePhysical(id));
  EXPECT_TRUE(device_->PhysicalAllocations().empty());
  EXPECT_EQ(device_->GetMemoryInfo().free_bytes, free_before);
}

TEST_F(SimVmmTest, PhysicalAllocationErrors) {
  EXPECT_EQ(device_->AllocatePhysical(0).status().code(),
            absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(device_->AllocatePhysical(kGranule + 4096).status().code(),
            absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(device_->AllocatePhysical(128 * kMiB).status().code(),
            absl::StatusCode::kResourceExhausted);
  EXPECT_EQ(device_->FreePhysical(0x1234).code(), absl::StatusCode::kNotFound);
  // A plain allocation is not physical memory.
  ASSERT_OK_AND_ASSIGN(const DeviceAddr plain, device_->Allocate(4096, 32));
  EXPECT_EQ(device_->FreePhysical(plain).code(), absl::StatusCode::kNotFound);
  ASSERT_OK_AND_ASSIGN(const DeviceAddr id,
                       device_->AllocatePhysical(kGranule));
  ASSERT_OK(device_->FreePhysical(id));
  EXPECT_EQ(device_->FreePhysical(id).code(), absl::StatusCode::kNotFound);
}

TEST_F(SimVmmTest, ReservationsComeFromTheVirtualAddressWindow) {
  ASSERT_OK_AND_ASSIGN(const DeviceAddr va,
                       device_->ReserveAddress(8 * kGranule, 0));
  EXPECT_EQ(va % kGranule, 0u);
  // Not device memory: no allocation, nothing accessible, no free bytes used.
  EXPECT_FALSE(device_->FindAllocation(va).has_value());
  EXPECT_EQ(device_->HostPointer(va), nullptr);
  EXPECT_EQ(device_->GetMemoryInfo().free_bytes, 64 * kMiB);
  EXPECT_EQ(backend_->DeviceOwningAddress(va), 0);
  EXPECT_EQ(backend_->DeviceOwningAddress(va + 8 * kGranule - 1), 0);
  // At a chosen address.
  const DeviceAddr at = va + 16 * kGranule;
  ASSERT_OK_AND_ASSIGN(const DeviceAddr placed,
                       device_->ReserveAddress(kGranule, at));
  EXPECT_EQ(placed, at);
  const std::vector<Allocation> reservations = device_->Reservations();
  ASSERT_EQ(reservations.size(), 2u);
  EXPECT_EQ(reservations[0].addr, va);
  EXPECT_EQ(reservations[0].size, 8 * kGranule);
  EXPECT_EQ(reservations[1].addr, at);
  ASSERT_OK(device_->ReleaseAddress(va));
  ASSERT_OK(device_->ReleaseAddress(at));
  EXPECT_TRUE(device_->Reservations().empty());
}

TEST_F(SimVmmTest, ReservationErrors) {
  EXPECT_EQ(device_->ReserveAddress(0, 0).status().code(),
            absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(device_->ReserveAddress(kGranule + 4096, 0).status().code(),
            absl::StatusCode::kInvalidArgument);
  ASSERT_OK_AND_ASSIGN(const DeviceAddr va,
                       device_->ReserveAddress(4 * kGranule, 0));
  // Misaligned, taken, outside the window (the memory window, the heap).
  EXPECT_EQ(device_->ReserveAddress(kGranule, va + 4096).status().code(),
            absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(device_->ReserveAddress(kGranule, va + kGranule).status().code(),
            absl::StatusCode::kAlreadyExists);
  ASSERT_OK_AND_ASSIGN(const DeviceAddr memory, device_->Allocate(4096, 32));
  const DeviceAddr window = memory / kGranule * kGranule;
  EXPECT_FALSE(device_->ReserveAddress(kGranule, window).ok());
  auto heap = std::make_unique<char[]>(4 * kGranule);
  const DeviceAddr heap_at =
      (reinterpret_cast<DeviceAddr>(heap.get()) + kGranule - 1) / kGranule *
      kGranule;
  EXPECT_FALSE(device_->ReserveAddress(kGranule, heap_at).ok());
  // Releases name a reservation's start.
  EXPECT_EQ(device_->ReleaseAddress(va + kGranule).code(),
            absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(device_->ReleaseAddress(0x1000).code(),
            absl::StatusCode::kInvalidArgument);
  ASSERT_OK(device_->ReleaseAddress(va));
  EXPECT_EQ(device_->ReleaseAddress(va).code(),
            absl::StatusCode::kInvalidArgument);
}

TEST_F(SimVmmTest, MappingsShowThePhysicalBytes) {
  ASSERT_OK_AND_ASSIGN(const DeviceAddr id,
                       device_->AllocatePhysical(2 * kGranule));
  ASSERT_OK_AND_ASSIGN(const DeviceAddr va,
                       device_->ReserveAddress(4 * kGranule, 0));
  // The second granule of the physical allocation at the reservation's third.
  ASSERT_OK(device_->MapPhysical(va + 2 * kGranule, kGranule, id, kGranule));
  const std::vector<Mapping> mappings = device_->Mappings();
  ASSERT_EQ(mappings.size(), 1u);
  EXPECT_EQ(mappings[0].addr, va + 2 * kGranule);
  EXPECT_EQ(mappings[0].size, kGranule);
  EXPECT_EQ(mappings[0].physical, id);
  EXPECT_EQ(mappings[0].offset, kGranule);
  const char text[] = "written through the mapping";
  ASSERT_OK(device_->CopyToDevice(va + 2 * kGranule + 100, text, sizeof text));
  char read[sizeof text] = {};
  ASSERT_OK(device_->CopyFromDevice(read, id + kGranule + 100, sizeof read));
  EXPECT_STREQ(read, text);
  EXPECT_EQ(std::memcmp(Bytes(va + 2 * kGranule + 100), text, sizeof text), 0);
  // Mapped memory has no host pointer: its access may change under one
  // (SetMappingAccess), so callers go through the checked copies.
  EXPECT_EQ(device_->HostPointer(va + 2 * kGranule), nullptr);
  // Unmapped parts of the reservation are not accessible.
  EXPECT_EQ(device_->HostPointer(va), nullptr);
  EXPECT_FALSE(device_->CopyToDevice(va, text, sizeof text).ok());
  ASSERT_OK(device_->Unmap(va + 2 * kGranule));
  EXPECT_TRUE(device_->Mappings().empty());
  EXPECT_EQ(device_->HostPointer(va + 2 * kGranule), nullptr);
  // The bytes stay with the physical allocation.
  ASSERT_OK(device_->CopyFromDevice(read, id + kGranule + 100, sizeof read));
  EXPECT_STREQ(read, text);
  ASSERT_OK(device_->ReleaseAddress(va));
  ASSERT_OK(device_->FreePhysical(id));
}

TEST_F(SimVmmTest, MappingErrors) {
  ASSERT_OK_AND_ASSIGN(const DeviceAddr id,
                       device_->AllocatePhysical(2 * kGranule));
  ASSERT_OK_AND_ASSIGN(const DeviceAddr va,
                       device_->ReserveAddress(4 * kGranule, 0));
  ASSERT_OK_AND_ASSIGN(const DeviceAddr other,
                       device_->ReserveAddress(4 * kGranule, 0));
  // Misaligned address, size or offset; empty.
  EXPECT_EQ(device_->MapPhysical(va + 4096, kGranule, id, 0).code(),
            absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(device_->MapPhysical(va, kGranule - 4096, id, 0).code(),
            absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(device_->MapPhysical(va, 0, id, 0).code(),
            absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(device_->MapPhysical(va, kGranule, id, 4096).code(),
            absl::StatusCode::kInvalidArgument);
  // Beyond the physical allocation.
  EXPECT_EQ(device_->MapPhysical(va, 2 * kGranule, id, kGranule).code(),
            absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(device_->MapPhysical(va, kGranule, id, 2 * kGranule).code(),
            absl::StatusCode::kInvalidArgument);
  // Outside any reservation, or across its end.
  EXPECT_EQ(
      device_->MapPhysical(va + 4 * kGranule + 64 * kGranule, kGranule, id, 0)
          .code(),
      absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(device_->MapPhysical(va + 3 * kGranule, 2 * kGranule, id, 0).code(),
            absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(device_->MapPhysical(id, kGranule, id, 0).code(),
            absl::StatusCode::kInvalidArgument)
      << "the memory window is not a reservation";
  // Unknown physical allocation.
  EXPECT_EQ(device_->MapPhysical(va, kGranule, id + 8 * kGranule, 0).code(),
            absl::StatusCode::kNotFound);
  // Overlap with a mapping, whichever end.
  ASSERT_OK(device_->MapPhysical(va + kGranule, 2 * kGranule, id, 0));
  EXPECT_EQ(device_->MapPhysical(va + kGranule, kGranule, id, 0).code(),
            absl::StatusCode::kAlreadyExists);
  EXPECT_EQ(device_->MapPhysical(va + 2 * kGranule, kGranule, id, 0).code(),
            absl::StatusCode::kAlreadyExists);
  EXPECT_EQ(device_->MapPhysical(va, 2 * kGranule, id, 0).code(),
            absl::StatusCode::kAlreadyExists);
  // Unmap names a mapping's start.
  EXPECT_EQ(device_->Unmap(va + 2 * kGranule).code(),
            absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(device_->Unmap(va).code(), absl::StatusCode::kInvalidArgument);
  // Mapped: neither the physical allocation nor the reservation goes.
  EXPECT_EQ(device_->FreePhysical(id).code(),
            absl::StatusCode::kFailedPrecondition);
  EXPECT_EQ(device_->ReleaseAddress(va).code(),
            absl::StatusCode::kFailedPrecondition);
  // Mapped twice: still mapped after one unmap.
  ASSERT_OK(device_->MapPhysical(other, kGranule, id, 0));
  ASSERT_OK(device_->Unmap(va + kGranule));
  EXPECT_EQ(device_->FreePhysical(id).code(),
            absl::StatusCode::kFailedPrecondition);
  ASSERT_OK(device_->ReleaseAddress(va));
  ASSERT_OK(device_->Unmap(other));
  EXPECT_EQ(device_->Unmap(other).code(), absl::StatusCode::kInvalidArgument);
  ASSERT_OK(device_->FreePhysical(id));
  ASSERT_OK(device_->ReleaseAddress(other));
}

TEST_F(SimVmmTest, FindAllocationMergesAdjacentMappingsOfOneReservation) {
  ASSERT_OK_AND_ASSIGN(const DeviceAddr a, device_->AllocatePhysical(kGranule));
  ASSERT_OK_AND_ASSIGN(const DeviceAddr b, device_->AllocatePhysical(kGranule));
  ASSERT_OK_AND_ASSIGN(const DeviceAddr c, device_->AllocatePhysical(kGranule));
  ASSERT_OK_AND_ASSIGN(const DeviceAddr va,
                       device_->ReserveAddress(4 * kGranule, 0));
  // The next reservation, placed right after: adjacent in address.
  ASSERT_OK_AND_ASSIGN(const DeviceAddr next,
                       device_->ReserveAddress(kGranule, va + 4 * kGranule));
  ASSERT_OK(device_->MapPhysical(va + kGranule, kGranule, b, 0));
  ASSERT_OK(device_->MapPhysical(va, kGranule, a, 0));
  ASSERT_OK(device_->MapPhysical(va + 2 * kGranule, kGranule, c, 0));
  std::optional<Allocation> run = device_->FindAllocation(va + kGranule + 5);
  ASSERT_TRUE(run.has_value());
  EXPECT_EQ(run->addr, va);
  EXPECT_EQ(run->size, 3 * kGranule);
  // One copy may cross the mappings.
  std::vector<unsigned char> data(3 * kGranule);
  for (size_t i = 0; i < data.size(); ++i)
    data[i] = static_cast<unsigned char>(i * 7 + 1);
  ASSERT_OK(device_->CopyToDevice(va, data.data(), data.size()));
  std::vector<unsigned char> read(kGranule);
  ASSERT_OK(device_->CopyFromDevice(read.data(), b, kGranule));
  EXPECT_EQ(std::memcmp(read.data(), data.data() + kGranule, kGranule), 0);
  // Not across into the next reservation, adjacent as it is.
  ASSERT_OK(device_->Unmap(va + 2 * kGranule));
  ASSERT_OK(device_->MapPhysical(va + 3 * kGranule, kGranule, c, 0));
  ASSERT_OK_AND_ASSIGN(const DeviceAddr d, device_->AllocatePhysical(kGranule));
  ASSERT_OK(device_->MapPhysical(next, kGranule, d, 0));
  run = device_->FindAllocation(va + 3 * kGranule);
  ASSERT_TRUE(run.has_value());
  EXPECT_EQ(run->addr, va + 3 * kGranule);
  EXPECT_EQ(run->size, kGranule);
  run = device_->FindAllocation(next);
  ASSERT_TRUE(run.has_value());
  EXPECT_EQ(run->addr, next);
  EXPECT_EQ(run->size, kGranule);
  EXPECT_FALSE(
      device_->CopyToDevice(va + 4 * kGranule - 8, data.data(), 16).ok());
  // The hole splits the run; unmapping the middle splits it again.
  EXPECT_FALSE(device_->FindAllocation(va + 2 * kGranule).has_value());
  run = device_->FindAllocation(va);
  ASSERT_TRUE(run.has_value());
  EXPECT_EQ(run->size, 2 * kGranule);
  ASSERT_OK(device_->Unmap(va + kGranule));
  run = device_->FindAllocation(va);
  ASSERT_TRUE(run.has_value());
  EXPECT_EQ(run->size, kGranule);
  EXPECT_FALSE(device_->FindAllocation(va + kGranule).has_value());
}

TEST_F(SimVmmTest, DataRangesSeeBytesWrittenThroughAMapping) {
  ASSERT_OK_AND_ASSIGN(const DeviceAddr id,
                       device_->AllocatePhysical(4 * kGranule));
  ASSERT_OK_AND_ASSIGN(const DeviceAddr va,
                       device_->ReserveAddress(4 * kGranule, 0));
  ASSERT_OK(device_->MapPhysical(va, 4 * kGranule, id, 0));
  EXPECT_TRUE(device_->DataRanges(id, 4 * kGranule).empty());
  const uint64_t value = 0x0123456789abcdef;
  ASSERT_OK(device_->CopyToDevice(va + 2 * kGranule + 8, &value, sizeof value));
  const std::vector<Allocation> ranges = device_->DataRanges(id, 4 * kGranule);
  ASSERT_FALSE(ranges.empty());
  const uint64_t written = id + 2 * kGranule + 8;
  bool covered = false;
  uint64_t bytes = 0;
  for (const Allocation& r : ranges) {
    bytes += r.size;
    if (r.addr <= written && written + sizeof value <= r.addr + r.size) {
      covered = true;
    }
  }
  EXPECT_TRUE(covered);
  EXPECT_LE(bytes, kGranule) << "only the written page (or its huge page)";
  ASSERT_OK(device_->Unmap(va));
}

TEST_F(SimVmmTest, MemoryLossZeroesMappedMemory) {
  ASSERT_OK_AND_ASSIGN(const DeviceAddr id,
                       device_->AllocatePhysical(kGranule));
  ASSERT_OK_AND_ASSIGN(const DeviceAddr va,
                       device_->ReserveAddress(2 * kGranule, 0));
  ASSERT_OK(device_->MapPhysical(va, kGranule, id, 0));
  ASSERT_OK(device_->MapPhysical(va + kGranule, kGranule, id, 0));
  ASSERT_OK(device_->Fill(va, 0x5a, kGranule));
  EXPECT_EQ(Bytes(va + kGranule)[77], 0x5a) << "the same bytes, twice mapped";
  ASSERT_OK(backend_->InjectFault(0, Fault::kMemoryLoss));
  std::vector<unsigned char> read(2 * kGranule, 0xff);
  ASSERT_OK(device_->CopyFromDevice(read.data(), va, read.size()));
  EXPECT_EQ(read, std::vector<unsigned char>(2 * kGranule, 0));
  // Still mapped and writable.
  ASSERT_OK(device_->Fill(va + kGranule, 0x11, 16));
  EXPECT_EQ(Bytes(va)[15], 0x11);
}

TEST_F(SimVmmTest, SharedMemoryMappedAtAnotherReservationShowsTheSameBytes) {
  ASSERT_OK_AND_ASSIGN(const DeviceAddr id,
                       device_->AllocatePhysical(2 * kGranule));
  ASSERT_OK_AND_ASSIGN(const DeviceAddr va,
                       device_->ReserveAddress(2 * kGranule, 0));
  ASSERT_OK_AND_ASSIGN(const DeviceAddr other,
                       device_->ReserveAddress(2 * kGranule, 0));
  ASSERT_OK(device_->MapPhysical(va, 2 * kGranule, id, 0));
  ASSERT_OK(device_->Fill(va + kGranule, 0x3c, kGranule));
  ASSERT_OK_AND_ASSIGN(const SharedMemory shared,
                       device_->ShareMemory(va + kGranule, kGranule));
  ASSERT_GE(shared.fd, 0);
  EXPECT_EQ(shared.inner, 0u);
  EXPECT_EQ(shared.size, kGranule);
  ASSERT_OK(device_->MapShared(other, shared));
  // The device keeps no copy of the fd.
  close(shared.fd);
  const std::vector<Mapping> mappings = device_->Mappings();
  ASSERT_EQ(mappings.size(), 2u);
  EXPECT_EQ(mappings[1].addr, other);
  EXPECT_EQ(mappings[1].physical, 0u);
  EXPECT_EQ(Bytes(other)[kGranule - 1], 0x3c);
  // Writes either way are seen both ways.
  ASSERT_OK(device_->Fill(other, 0x99, 8));
  unsigned char byte = 0;
  ASSERT_OK(device_->CopyFromDevice(&byte, id + kGranule + 7, 1));
  EXPECT_EQ(byte, 0x99);
  // Imported memory is not a physical allocation: it cannot be shared on.
  EXPECT_EQ(device_->ShareMemory(other, kGranule).status().code(),
            absl::StatusCode::kFailedPrecondition);
  // Plain allocations can be shared, with the offset inside the page.
  ASSERT_OK_AND_ASSIGN(const DeviceAddr plain, device_->Allocate(8192, 32));
  ASSERT_OK_AND_ASSIGN(const SharedMemory part,
                       device_->ShareMemory(plain + 100, 50));
  EXPECT_EQ(part.inner % 4096, (plain + 100) % 4096);
  close(part.fd);
  // Errors: outside any allocation or mapping, past a mapping's end.
  EXPECT_EQ(device_->ShareMemory(va + 4 * kGranule + 64 * kGranule, 16)
                .status()
                .code(),
            absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(device_->ShareMemory(va + kGranule, 2 * kGranule).status().code(),
            absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(device_->MapShared(other + kGranule, SharedMemory{}).code(),
            absl::StatusCode::kInvalidArgument);
  ASSERT_OK(device_->Unmap(other));
  ASSERT_OK(device_->Unmap(va));
  ASSERT_OK(device_->FreePhysical(id));
}

TEST_F(SimVmmTest, ReopenDropsMappingsAndPhysicalButKeepsAddressesReserved) {
  ASSERT_OK_AND_ASSIGN(const DeviceAddr id,
                       device_->AllocatePhysical(2 * kGranule));
  ASSERT_OK_AND_ASSIGN(const DeviceAddr va,
                       device_->ReserveAddress(4 * kGranule, 0));
  ASSERT_OK(device_->MapPhysical(va, 2 * kGranule, id, 0));
  ASSERT_OK(device_->Reopen());
  EXPECT_TRUE(device_->Mappings().empty());
  EXPECT_TRUE(device_->PhysicalAllocations().empty());
  EXPECT_TRUE(device_->Reservations().empty());
  EXPECT_EQ(device_->HostPointer(va), nullptr);
  EXPECT_FALSE(device_->FindAllocation(va).has_value());
  // The addresses are neither live nor free.
  EXPECT_EQ(device_->FreePhysical(id).code(), absl::StatusCode::kNotFound);
  EXPECT_EQ(device_->ReleaseAddress(va).code(),
            absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(device_->GetMemoryInfo().free_bytes, 64 * kMiB - 2 * kGranule);
  ASSERT_OK_AND_ASSIGN(const DeviceAddr fresh_va,
                       device_->ReserveAddress(4 * kGranule, 0));
  EXPECT_TRUE(fresh_va >= va + 4 * kGranule || fresh_va + 4 * kGranule <= va);
  ASSERT_OK_AND_ASSIGN(const DeviceAddr fresh_id,
                       device_->AllocatePhysical(kGranule));
  EXPECT_TRUE(fresh_id >= id + 2 * kGranule || fresh_id + kGranule <= id);
  // Put back where they were, then mapped again.
  ASSERT_OK(device_->AllocatePhysicalAt(id, 2 * kGranule));
  ASSERT_OK_AND_ASSIGN(const DeviceAddr back,
                       device_->ReserveAddress(4 * kGranule, va));
  EXPECT_EQ(back, va);
  EXPECT_EQ(device_->AllocatePhysicalAt(id, 2 * kGranule).code(),
            absl::StatusCode::kAlreadyExists);
  ASSERT_OK(device_->MapPhysical(va + kGranule, kGranule, id, kGranule));
  ASSERT_OK(device_->Fill(va + kGranule, 0x42, 4));
  unsigned char byte = 0;
  ASSERT_OK(device_->CopyFromDevice(&byte, id + kGranule + 3, 1));
  EXPECT_EQ(byte, 0x42);
  ASSERT_OK(device_->Unmap(va + kGranule));
  ASSERT_OK(device_->FreePhysical(id));
  ASSERT_OK(device_->FreePhysical(fresh_id));
  ASSERT_OK(device_->ReleaseAddress(va));
  ASSERT_OK(device_->ReleaseAddress(fresh_va));
  EXPECT_EQ(device_->GetMemoryInfo().free_bytes, 64 * kMiB);
}

TEST_F(SimVmmTest, DeviceOwningAddressNamesTheDeviceOfEachVirtualWindow) {
  ASSERT_OK_AND_ASSIGN(const std::unique_ptr<Device> second, backend_->Open(1));
  ASSERT_OK_AND_ASSIGN(const DeviceAddr va0,
                       device_->ReserveAddress(kGranule, 0));
  ASSERT_OK_AND_ASSIGN(const DeviceAddr va1,
                       second->ReserveAddress(kGranule, 0));
  EXPECT_EQ(backend_->DeviceOwningAddress(va0), 0);
  EXPECT_EQ(backend_->DeviceOwningAddress(va1), 1);
  // A device's reservations are its own.
  EXPECT_EQ(second->ReleaseAddress(va0).code(),
            absl::StatusCode::kInvalidArgument);
  ASSERT_OK(device_->ReleaseAddress(va0));
  // The window still names the device once nothing is reserved.
  EXPECT_EQ(backend_->DeviceOwningAddress(va0), 0);
  ASSERT_OK(second->ReleaseAddress(va1));
}

}  // namespace
}  // namespace ascend::device::sim
