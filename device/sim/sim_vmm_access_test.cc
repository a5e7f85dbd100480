// The simulator's virtual memory, continued (sim_vmm_test.cc has the rest):
// the access a mapping grants, on copies and in the page tables, and the
// placed window of addresses the program chooses.
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

// A mapping's access (what aclrtMemSetAccess sets, 11-04): copies check it,
// the page tables enforce it for anything touching the memory directly,
// Mappings() reports it; a refused change changes nothing.
TEST_F(SimVmmTest, MappingAccessIsEnforcedOnCopiesAndReported) {
  ASSERT_OK_AND_ASSIGN(const DeviceAddr id,
                       device_->AllocatePhysical(kGranule));
  ASSERT_OK_AND_ASSIGN(const DeviceAddr va,
                       device_->ReserveAddress(2 * kGranule, 0));
  ASSERT_OK(device_->MapPhysical(va, kGranule, id, 0));
  ASSERT_EQ(device_->Mappings().size(), 1u);
  EXPECT_EQ(device_->Mappings()[0].access, MemAccess::kReadWrite);
  const char text[] = "mapped bytes";
  ASSERT_OK(device_->CopyToDevice(va, text, sizeof text));

  ASSERT_OK(device_->SetMappingAccess(va, MemAccess::kRead));
  EXPECT_EQ(device_->Mappings()[0].access, MemAccess::kRead);
  char read[sizeof text] = {};
  ASSERT_OK(device_->CopyFromDevice(read, va, sizeof read));
  EXPECT_STREQ(read, text);
  EXPECT_EQ(device_->CopyToDevice(va, "x", 1).code(),
            absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(device_->Fill(va, 0, 16).code(),
            absl::StatusCode::kInvalidArgument);
  ASSERT_OK_AND_ASSIGN(const DeviceAddr plain, device_->Allocate(4096, 512));
  EXPECT_EQ(device_->CopyWithinDevice(va, plain, 16).code(),
            absl::StatusCode::kInvalidArgument);
  ASSERT_OK(device_->CopyWithinDevice(plain, va, sizeof text));

  ASSERT_OK(device_->SetMappingAccess(va, MemAccess::kNone));
  EXPECT_EQ(device_->CopyFromDevice(read, va, sizeof read).code(),
            absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(device_->CopyFromDeviceWithChecksum(read, va, sizeof read)
                .status()
                .code(),
            absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(device_->Checksum(va, 16).status().code(),
            absl::StatusCode::kInvalidArgument);
  // Unknown access values and addresses that start no mapping change
  // nothing.
  EXPECT_EQ(device_->SetMappingAccess(va, static_cast<MemAccess>(2)).code(),
            absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(device_->SetMappingAccess(va + 4096, MemAccess::kReadWrite).code(),
            absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(device_->Mappings()[0].access, MemAccess::kNone);
  // The physical memory itself is the device's, whatever a mapping grants.
  ASSERT_OK(device_->CopyFromDevice(read, id, sizeof read));
  EXPECT_STREQ(read, text);

  ASSERT_OK(device_->SetMappingAccess(va, MemAccess::kReadWrite));
  ASSERT_OK(device_->CopyToDevice(va, "Y", 1));
  EXPECT_EQ(Bytes(va)[0], 'Y');
  // A new mapping starts read-write.
  ASSERT_OK(device_->SetMappingAccess(va, MemAccess::kNone));
  ASSERT_OK(device_->Unmap(va));
  ASSERT_OK(device_->MapPhysical(va, kGranule, id, 0));
  EXPECT_EQ(device_->Mappings()[0].access, MemAccess::kReadWrite);
  ASSERT_OK(device_->Unmap(va));
  ASSERT_OK(device_->Free(plain));
  ASSERT_OK(device_->ReleaseAddress(va));
  ASSERT_OK(device_->FreePhysical(id));
}

// The page tables carry the access: a write to a read-only mapping, or any
// touch of one without access, faults (a kernel's memory fault).
TEST_F(SimVmmTest, MappingAccessIsInThePageTables) {
  ASSERT_OK_AND_ASSIGN(const DeviceAddr id,
                       device_->AllocatePhysical(kGranule));
  ASSERT_OK_AND_ASSIGN(const DeviceAddr va,
                       device_->ReserveAddress(kGranule, 0));
  ASSERT_OK(device_->MapPhysical(va, kGranule, id, 0));
  ASSERT_OK(device_->SetMappingAccess(va, MemAccess::kRead));
  EXPECT_EQ(Bytes(va)[0], 0);  // readable
  EXPECT_DEATH({ Bytes(va)[0] = 1; }, "");
  ASSERT_OK(device_->SetMappingAccess(va, MemAccess::kNone));
  EXPECT_DEATH({ (void)*static_cast<volatile unsigned char*>(Bytes(va)); }, "");
  ASSERT_OK(device_->Unmap(va));
  ASSERT_OK(device_->ReleaseAddress(va));
  ASSERT_OK(device_->FreePhysical(id));
}

bool UnderThreadSanitizer() {
#if defined(__SANITIZE_THREAD__)
  return true;
#elif defined(__has_feature)
#if __has_feature(thread_sanitizer)
  return true;
#endif
#endif
  return false;
}

// 11-04, aclrtReserveMemAddress `expectPtr`: an address the program chooses
// in 16 TiB to 24 TiB is honoured; the device windows stay out of it.
TEST_F(SimVmmTest, ReservationsArePlacedInTheWindowTheProgramChoosesFrom) {
  for (const Allocation& r : {Allocation{
           device_->ReserveAddress(kGranule, 0).value_or(0), kGranule}}) {
    EXPECT_TRUE(r.addr >= kPlacedVaEnd || r.addr + r.size <= kPlacedVaBegin);
    ASSERT_OK(device_->ReleaseAddress(r.addr));
  }
  if (UnderThreadSanitizer()) {
    GTEST_SKIP() << "ThreadSanitizer's shadow memory occupies the window";
  }
  const DeviceAddr at = DeviceAddr{20} << 40;
  ASSERT_OK_AND_ASSIGN(const DeviceAddr va,
                       device_->ReserveAddress(4 * kGranule, at));
  EXPECT_EQ(va, at);
  EXPECT_EQ(backend_->DeviceOwningAddress(at + kGranule), 0);
  ASSERT_EQ(device_->Reservations().size(), 1u);
  EXPECT_EQ(device_->Reservations()[0].addr, at);
  // Taken: by this device or another (the process's address space is one).
  EXPECT_EQ(device_->ReserveAddress(kGranule, at + kGranule).status().code(),
            absl::StatusCode::kAlreadyExists);
  ASSERT_OK_AND_ASSIGN(const std::unique_ptr<Device> second, backend_->Open(1));
  EXPECT_EQ(second->ReserveAddress(kGranule, at).status().code(),
            absl::StatusCode::kAlreadyExists);
  EXPECT_EQ(second->ReleaseAddress(at).code(),
            absl::StatusCode::kInvalidArgument);
  // Past the window's end.
  EXPECT_EQ(device_->ReserveAddress(4 * kGranule, kPlacedVaEnd - kGranule)
                .status()
                .code(),
            absl::StatusCode::kInvalidArgument);
  // Mapped there like anywhere.
  ASSERT_OK_AND_ASSIGN(const DeviceAddr id,
                       device_->AllocatePhysical(kGranule));
  ASSERT_OK(device_->MapPhysical(at + kGranule, kGranule, id, 0));
  ASSERT_OK(device_->CopyToDevice(at + kGranule + 8, "placed", 7));
  ASSERT_TRUE(device_->FindAllocation(at + kGranule).has_value());
  char read[7] = {};
  ASSERT_OK(device_->CopyFromDevice(read, id + 8, 7));
  EXPECT_STREQ(read, "placed");
  EXPECT_EQ(device_->ReleaseAddress(at).code(),
            absl::StatusCode::kFailedPrecondition);
  // A re-open keeps the addresses until they are put back exactly.
  ASSERT_OK(device_->Reopen());
  EXPECT_TRUE(device_->Reservations().empty());
  EXPECT_EQ(backend_->DeviceOwningAddress(at), 0);
  EXPECT_EQ(second->ReserveAddress(kGranule, at).status().code(),
            absl::StatusCode::kAlreadyExists);
  ASSERT_OK_AND_ASSIGN(const DeviceAddr back,
                       device_->ReserveAddress(4 * kGranule, at));
  EXPECT_EQ(back, at);
  ASSERT_OK(device_->AllocatePhysicalAt(id, kGranule));
  ASSERT_OK(device_->MapPhysical(at + kGranule, kGranule, id, 0));
  ASSERT_OK(device_->Unmap(at + kGranule));
  ASSERT_OK(device_->FreePhysical(id));
  ASSERT_OK(device_->ReleaseAddress(at));
  EXPECT_EQ(backend_->DeviceOwningAddress(at), std::nullopt);
  // Released, the addresses are anyone's: the other device takes them.
  ASSERT_OK_AND_ASSIGN(const DeviceAddr theirs,
                       second->ReserveAddress(kGranule, at));
  EXPECT_EQ(backend_->DeviceOwningAddress(theirs), 1);
  ASSERT_OK(second->ReleaseAddress(theirs));
}

// A device that closes gives its placed addresses back to the process.
TEST_F(SimVmmTest, ClosingADeviceGivesItsPlacedAddressesBack) {
  if (UnderThreadSanitizer()) {
    GTEST_SKIP() << "ThreadSanitizer's shadow memory occupies the window";
  }
  const DeviceAddr at = DeviceAddr{21} << 40;
  ASSERT_OK(device_->ReserveAddress(kGranule, at).status());
  device_.reset();
  EXPECT_EQ(backend_->DeviceOwningAddress(at), std::nullopt);
  ASSERT_OK_AND_ASSIGN(device_, backend_->Open(0));
  ASSERT_OK(device_->ReserveAddress(kGranule, at).status());
  ASSERT_OK(device_->ReleaseAddress(at));
}

}  // namespace
}  // namespace ascend::device::sim
