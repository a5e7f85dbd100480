// The stand-in driver's model (§5.2 of ascend_hal_subset.md), called through
// its C entry points. The BUILD file configures 3 devices, a 16 MiB normal and
// an 8 MiB huge pool per device, SoC "AscendTest1", and one NOT_SUPPORT fault
// on drvGetPlatformInfo.
//
// The driver state is process-wide: every test closes what it opened.
#include <cstdint>
#include <cstring>
#include <fstream>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "device/npu/internal/hal_abi.h"
#include "gtest/gtest.h"
#include "testing/fake_driver/fake_hal_control.h"

namespace {

constexpr uint64_t kMiB = 1ULL << 20;
constexpr uint32_t kDevices = 3;
constexpr uint64_t kNormalPool = 16 * kMiB;
constexpr uint64_t kHugePool = 8 * kMiB;
constexpr unsigned long long kNormalFlag = 0x2100000000904400ULL;
constexpr unsigned long long kHugeFlag = 0x2100000000924400ULL;

DVdeviceptr Ptr(const void* p) { return reinterpret_cast<uintptr_t>(p); }

drvError_t Open(uint32_t id) {
  halDevOpenIn in = {};
  halDevOpenOut out = {};
  return halDeviceOpen(id, &in, &out);
}

drvError_t Close(uint32_t id, uint32_t type = DEV_CLOSE_HOST_DEVICE) {
  halDevCloseIn in = {};
  in.close_type = type;
  return halDeviceClose(id, &in);
}

drvError_t Backup() {
  halProcResBackupInfo info = {};
  return halProcessResBackup(&info);
}

drvError_t Restore() {
  halProcResRestoreInfo info = {};
  return halProcessResRestore(&info);
}

// Allocates and returns the VA (0 on failure, with the error in `err`).
uint64_t Alloc(uint64_t size, unsigned long long flag,
               drvError_t* err = nullptr) {
  void* p = nullptr;
  const drvError_t result = halMemAlloc(&p, size, flag);
  if (err != nullptr) *err = result;
  return result == DRV_ERROR_NONE ? reinterpret_cast<uintptr_t>(p) : 0;
}

std::vector<uint8_t> Read(uint64_t va, size_t size) {
  std::vector<uint8_t> out(size);
  EXPECT_EQ(drvMemcpy(Ptr(out.data()), size, va, size), DRV_ERROR_NONE);
  return out;
}

void Write(uint64_t va, const std::vector<uint8_t>& bytes) {
  EXPECT_EQ(drvMemcpy(va, bytes.size(), Ptr(bytes.data()), bytes.size()),
            DRV_ERROR_NONE);
}

std::vector<uint8_t> Pattern(size_t size, uint8_t seed) {
  std::vector<uint8_t> bytes(size);
  for (size_t i = 0; i < size; ++i) bytes[i] = static_cast<uint8_t>(seed + i);
  return bytes;
}

MemPhyInfo Phy(uint32_t id, unsigned int type = MEM_INFO_TYPE_HBM_SIZE) {
  MemInfo info = {};
  EXPECT_EQ(halMemGetInfo(id, type, &info), DRV_ERROR_NONE);
  return info.phy_info;
}

// The permissions column of /proc/self/maps for the mapping holding `addr`.
std::string MappingPermissions(uint64_t addr) {
  std::ifstream maps("/proc/self/maps");
  std::string line;
  while (std::getline(maps, line)) {
    std::istringstream fields(line);
    std::string range;
    std::string perms;
    fields >> range >> perms;
    const size_t dash = range.find('-');
    const uint64_t start = std::stoull(range.substr(0, dash), nullptr, 16);
    const uint64_t end = std::stoull(range.substr(dash + 1), nullptr, 16);
    if (addr >= start && addr < end) return perms;
  }
  return "";
}

class FakeHalTest : public ::testing::Test {
 protected:
  void TearDown() override {
    for (uint32_t id = 0; id < kDevices; ++id) (void)Close(id);
    fakeHalInjectError("halMemAlloc", 0, 0);
    ASSERT_EQ(fakeHalSetCapacity(kNormalPool, kHugePool), DRV_ERROR_NONE);
  }
};

TEST_F(FakeHalTest, Enumeration) {
  uint32_t count = 0;
  ASSERT_EQ(drvGetDevNum(&count), DRV_ERROR_NONE);
  EXPECT_EQ(count, kDevices);
  EXPECT_EQ(drvGetDevNum(nullptr), DRV_ERROR_INVALID_VALUE);

  uint32_t ids[kDevices] = {9, 9, 9};
  ASSERT_EQ(drvGetDevIDs(ids, kDevices), DRV_ERROR_NONE);
  EXPECT_EQ(ids[0], 0u);
  EXPECT_EQ(ids[1], 1u);
  EXPECT_EQ(ids[2], 2u);
  // The length is an element count, exactly the device count.
  EXPECT_EQ(drvGetDevIDs(ids, kDevices - 1), DRV_ERROR_INVALID_VALUE);
  EXPECT_EQ(drvGetDevIDs(ids, kDevices * 4), DRV_ERROR_INVALID_VALUE);

  uint32_t other = 0;
  EXPECT_EQ(drvDeviceGetPhyIdByIndex(2, &other), DRV_ERROR_NONE);
  EXPECT_EQ(other, 2u);
  EXPECT_EQ(drvDeviceGetIndexByPhyId(1, &other), DRV_ERROR_NONE);
  EXPECT_EQ(other, 1u);
  EXPECT_EQ(drvDeviceGetPhyIdByIndex(kDevices, &other),
            DRV_ERROR_INVALID_DEVICE);
}

TEST_F(FakeHalTest, FaultFromEnvironmentThenPlatformInfo) {
  uint32_t info = 0;
  EXPECT_EQ(drvGetPlatformInfo(&info), DRV_ERROR_NOT_SUPPORT);  // armed once
  EXPECT_EQ(drvGetPlatformInfo(&info), DRV_ERROR_NONE);
  EXPECT_EQ(info, 1u);
  EXPECT_EQ(fakeHalCallCount("drvGetPlatformInfo"), 2u);
}

TEST_F(FakeHalTest, SocVersion) {
  char name[50] = {};
  ASSERT_EQ(halGetSocVersion(0, name, sizeof(name)), DRV_ERROR_NONE);
  EXPECT_STREQ(name, "AscendTest1");
  EXPECT_EQ(halGetSocVersion(0, name, 5), DRV_ERROR_INVALID_VALUE);
  EXPECT_EQ(halGetSocVersion(kDevices, name, sizeof(name)),
            DRV_ERROR_INVALID_DEVICE);
}

TEST_F(FakeHalTest, OpenCloseState) {
  EXPECT_EQ(Close(0), DRV_ERROR_INVALID_DEVICE);  // never opened
  halDevOpenIn in = {};
  halDevOpenOut out;
  std::memset(&out, 0xFF, sizeof(out));
  ASSERT_EQ(halDeviceOpen(0, &in, &out), DRV_ERROR_NONE);
  for (uint64_t word : out.reserve) EXPECT_EQ(word, 0u);
  EXPECT_EQ(Open(0), DRV_ERROR_REPEATED_INIT);
  EXPECT_EQ(Open(kDevices), DRV_ERROR_INVALID_DEVICE);
  UINT32 ssid = 0;
  EXPECT_EQ(drvMemSmmuQuery(0, &ssid), DRV_ERROR_NONE);
  EXPECT_EQ(drvMemSmmuQuery(1, &ssid), DRV_ERROR_INVALID_DEVICE);
  EXPECT_EQ(Close(0), DRV_ERROR_NONE);
  EXPECT_EQ(fakeHalLastCloseType(), DEV_CLOSE_HOST_DEVICE);
  EXPECT_EQ(Close(0), DRV_ERROR_INVALID_DEVICE);  // twice
  EXPECT_EQ(Open(0), DRV_ERROR_NONE);             // open again after close
}

TEST_F(FakeHalTest, ReservedFieldsMustBeZero) {
  halDevOpenIn in = {};
  halDevOpenOut out = {};
  in.reserve[7] = 1;
  EXPECT_EQ(halDeviceOpen(0, &in, &out), DRV_ERROR_INVALID_VALUE);
  EXPECT_EQ(halDeviceOpen(0, nullptr, &out), DRV_ERROR_INVALID_VALUE);
  ASSERT_EQ(Open(0), DRV_ERROR_NONE);  // the rejected calls opened nothing

  halDevCloseIn close_in = {};
  close_in.reserve0 = 1;
  EXPECT_EQ(halDeviceClose(0, &close_in), DRV_ERROR_INVALID_VALUE);
  close_in = {};
  close_in.reserve[3] = 1;
  EXPECT_EQ(halDeviceClose(0, &close_in), DRV_ERROR_INVALID_VALUE);
  close_in = {};
  close_in.close_type = DEV_CLOSE_TYPE_MAX;
  EXPECT_EQ(halDeviceClose(0, &close_in), DRV_ERROR_INVALID_VALUE);
  EXPECT_EQ(Close(0, DEV_CLOSE_ONLY_HOST), DRV_ERROR_NOT_SUPPORT);

  halProcResBackupInfo backup = {};
  backup.reserve[0] = 1;
  EXPECT_EQ(halProcessResBackup(&backup), DRV_ERROR_INVALID_VALUE);
  halProcResRestoreInfo restore = {};
  restore.reserve[5] = 1;
  EXPECT_EQ(halProcessResRestore(&restore), DRV_ERROR_INVALID_VALUE);
  EXPECT_EQ(halProcessResBackup(nullptr), DRV_ERROR_INVALID_VALUE);

  memcpy_info info = {};
  info.dir = DRV_MEMCPY_HOST_TO_DEVICE;
  info.reserve[1] = 1;
  const uint64_t va = Alloc(64, kNormalFlag);
  ASSERT_NE(va, 0u);
  uint8_t host[64] = {};
  EXPECT_EQ(halMemcpy(reinterpret_cast<void*>(va), 64, host, 64, &info),
            DRV_ERROR_INVALID_VALUE);
  EXPECT_EQ(Close(0), DRV_ERROR_NONE);  // still open: the bad closes did not
}

TEST_F(FakeHalTest, AllocationRules) {
  drvError_t err = DRV_ERROR_NONE;
  EXPECT_EQ(Alloc(64, kNormalFlag, &err), 0u);
  EXPECT_EQ(err, DRV_ERROR_INVALID_DEVICE);  // device 0 not open
  ASSERT_EQ(Open(0), DRV_ERROR_NONE);
  EXPECT_EQ(Alloc(0, kNormalFlag, &err), 0u);
  EXPECT_EQ(err, DRV_ERROR_INVALID_VALUE);
  EXPECT_EQ(halMemAlloc(nullptr, 64, kNormalFlag), DRV_ERROR_INVALID_VALUE);
  EXPECT_EQ(Alloc(64, (kNormalFlag & ~MEM_DEV) | MEM_HOST, &err), 0u);
  EXPECT_EQ(err, DRV_ERROR_INVALID_MALLOC_TYPE);
  EXPECT_EQ(Alloc(64, kNormalFlag | kDevices, &err), 0u);
  EXPECT_EQ(err, DRV_ERROR_INVALID_DEVICE);

  // At least 4 KiB alignment for normal pages, 2 MiB for huge pages, more
  // when the flag asks; the module id byte is ignored.
  const uint64_t small = Alloc(100, kNormalFlag);
  ASSERT_NE(small, 0u);
  EXPECT_EQ(fakeHalLastAllocFlag(), kNormalFlag);
  EXPECT_EQ(small % 4096, 0u);
  const unsigned long long align_4m =
      (kNormalFlag & ~MEM_SET_ALIGN_SIZE(0x1F)) | MEM_SET_ALIGN_SIZE(22);
  const uint64_t aligned = Alloc(100, align_4m | HAL_ABI_MODULE_ID(0xFF));
  ASSERT_NE(aligned, 0u);
  EXPECT_EQ(aligned % (4 * kMiB), 0u);
  const uint64_t huge = Alloc(3 * kMiB, kHugeFlag);
  ASSERT_NE(huge, 0u);
  EXPECT_EQ(huge % (2 * kMiB), 0u);

  // Not host memory: reserved without access, fresh bytes are not zero.
  EXPECT_EQ(MappingPermissions(small), "---p");
  EXPECT_EQ(MappingPermissions(huge), "---p");
  EXPECT_EQ(Read(small, 100), std::vector<uint8_t>(100, 0xA5));
}

TEST_F(FakeHalTest, PoolsAndMemoryInfo) {
  ASSERT_EQ(Open(1), DRV_ERROR_NONE);
  MemPhyInfo phy = Phy(1);
  EXPECT_EQ(phy.total, kNormalPool);
  EXPECT_EQ(phy.free, kNormalPool);
  EXPECT_EQ(phy.huge_total, kHugePool);
  EXPECT_EQ(phy.huge_free, kHugePool);
  EXPECT_EQ(phy.giant_total, 0u);

  const uint64_t a = Alloc(100, kNormalFlag | 1);     // charged 4 KiB
  const uint64_t b = Alloc(3 * kMiB, kHugeFlag | 1);  // charged 4 MiB
  ASSERT_NE(a, 0u);
  ASSERT_NE(b, 0u);
  phy = Phy(1, MEM_INFO_TYPE_DDR_SIZE);
  EXPECT_EQ(phy.free, kNormalPool - 4096);
  EXPECT_EQ(phy.huge_free, kHugePool - 4 * kMiB);
  EXPECT_EQ(Phy(0).free, kNormalPool);  // other devices untouched

  // Huge pool exhausted while the normal pool still has room: the case the
  // runtime's huge -> normal retry handles.
  drvError_t err = DRV_ERROR_NONE;
  EXPECT_EQ(Alloc(4 * kMiB + 1, kHugeFlag | 1, &err), 0u);
  EXPECT_EQ(err, DRV_ERROR_OUT_OF_MEMORY);
  const uint64_t c = Alloc(4 * kMiB + 1, kNormalFlag | 1);
  ASSERT_NE(c, 0u);
  EXPECT_EQ(Alloc(kNormalPool, kNormalFlag | 1, &err), 0u);
  EXPECT_EQ(err, DRV_ERROR_OUT_OF_MEMORY);

  EXPECT_EQ(halMemFree(reinterpret_cast<void*>(b)), DRV_ERROR_NONE);
  EXPECT_EQ(Phy(1).huge_free, kHugePool);

  MemInfo info = {};
  EXPECT_EQ(halMemGetInfo(1, MEM_INFO_TYPE_ADDR_CHECK, &info),
            DRV_ERROR_NOT_SUPPORT);
  EXPECT_EQ(halMemGetInfo(kDevices, MEM_INFO_TYPE_HBM_SIZE, &info),
            DRV_ERROR_INVALID_DEVICE);
  EXPECT_EQ(halMemGetInfo(1, MEM_INFO_TYPE_HBM_SIZE, nullptr),
            DRV_ERROR_INVALID_VALUE);

  // Capacity cannot drop below what is in use.
  EXPECT_EQ(fakeHalSetCapacity(4096, kHugePool), DRV_ERROR_OUT_OF_MEMORY);
}

TEST_F(FakeHalTest, MemcpyInfersDirection) {
  ASSERT_EQ(Open(0), DRV_ERROR_NONE);
  ASSERT_EQ(Open(2), DRV_ERROR_NONE);
  const uint64_t a = Alloc(256, kNormalFlag);
  const uint64_t b = Alloc(256, kNormalFlag);
  const uint64_t c = Alloc(256, kNormalFlag | 2);
  ASSERT_NE(a, 0u);
  ASSERT_NE(b, 0u);
  ASSERT_NE(c, 0u);
  const std::vector<uint8_t> data = Pattern(256, 1);
  Write(a, data);                                        // H2D
  EXPECT_EQ(Read(a, 256), data);                         // D2H
  EXPECT_EQ(drvMemcpy(b, 256, a, 256), DRV_ERROR_NONE);  // D2D
  EXPECT_EQ(Read(b, 256), data);
  EXPECT_EQ(drvMemcpy(c + 16, 240, a + 8, 100), DRV_ERROR_NONE);  // peer
  const std::vector<uint8_t> part = Read(c + 16, 100);
  EXPECT_EQ(part, std::vector<uint8_t>(data.begin() + 8, data.begin() + 108));

  uint8_t host[512] = {};
  uint8_t other[512] = {};
  EXPECT_EQ(drvMemcpy(a + 200, 512, Ptr(host), 57), DRV_ERROR_INVALID_VALUE)
      << "past the allocation's end";
  EXPECT_EQ(drvMemcpy(a, 8, Ptr(host), 16), DRV_ERROR_INVALID_VALUE)
      << "count above dest_max";
  EXPECT_EQ(drvMemcpy(Ptr(other), 512, Ptr(host), 512), DRV_ERROR_INVALID_VALUE)
      << "host to host";
  EXPECT_EQ(drvMemcpy(a, 256, Ptr(host), 0), DRV_ERROR_INVALID_VALUE);
  EXPECT_EQ(drvMemcpy(0, 256, Ptr(host), 16), DRV_ERROR_INVALID_VALUE);
  // An address in the device window but in no live allocation.
  ASSERT_EQ(halMemFree(reinterpret_cast<void*>(b)), DRV_ERROR_NONE);
  EXPECT_EQ(drvMemcpy(Ptr(host), 16, b, 16), DRV_ERROR_INVALID_VALUE);
  EXPECT_EQ(drvMemcpy(a + 256, 16, Ptr(host), 16), DRV_ERROR_INVALID_VALUE);
}

TEST_F(FakeHalTest, HalMemcpyChecksTheDirection) {
  ASSERT_EQ(Open(0), DRV_ERROR_NONE);
  const uint64_t a = Alloc(64, kNormalFlag);
  ASSERT_NE(a, 0u);
  std::vector<uint8_t> data = Pattern(64, 9);
  memcpy_info info = {};
  info.dir = DRV_MEMCPY_DEVICE_TO_HOST;  // wrong: this is host to device
  EXPECT_EQ(halMemcpy(reinterpret_cast<void*>(a), 64, data.data(), 64, &info),
            DRV_ERROR_INVALID_VALUE);
  EXPECT_EQ(Read(a, 64), std::vector<uint8_t>(64, 0xA5)) << "nothing copied";
  info.dir = DRV_MEMCPY_HOST_TO_DEVICE;
  EXPECT_EQ(halMemcpy(reinterpret_cast<void*>(a), 64, data.data(), 64, &info),
            DRV_ERROR_NONE);
  EXPECT_EQ(Read(a, 64), data);
}

TEST_F(FakeHalTest, Memset) {
  ASSERT_EQ(Open(0), DRV_ERROR_NONE);
  const uint64_t a = Alloc(128, kNormalFlag);
  ASSERT_NE(a, 0u);
  EXPECT_EQ(drvMemsetD8(a, 128, 0, 128), DRV_ERROR_NONE);
  EXPECT_EQ(drvMemsetD8(a + 10, 118, 0x3C, 20), DRV_ERROR_NONE);
  std::vector<uint8_t> expected(128, 0);
  std::fill(expected.begin() + 10, expected.begin() + 30, 0x3C);
  EXPECT_EQ(Read(a, 128), expected);
  EXPECT_EQ(drvMemsetD8(a + 100, 128, 1, 29), DRV_ERROR_INVALID_VALUE);
  EXPECT_EQ(drvMemsetD8(a, 16, 1, 17), DRV_ERROR_INVALID_VALUE);
  EXPECT_EQ(drvMemsetD8(a, 16, 1, 0), DRV_ERROR_INVALID_VALUE);
  EXPECT_EQ(drvMemsetD8(0, 16, 1, 1), DRV_ERROR_INVALID_VALUE);
  uint8_t host[16];
  EXPECT_EQ(drvMemsetD8(Ptr(host), 16, 1, 16), DRV_ERROR_INVALID_VALUE);
  EXPECT_EQ(Read(a, 128), expected) << "failed fills change nothing";
}

TEST_F(FakeHalTest, FreeByBaseAddressOnly) {
  ASSERT_EQ(Open(0), DRV_ERROR_NONE);
  const uint64_t a = Alloc(128, kNormalFlag);
  ASSERT_NE(a, 0u);
  EXPECT_EQ(halMemFree(reinterpret_cast<void*>(a + 8)),
            DRV_ERROR_INVALID_VALUE);
  EXPECT_EQ(halMemFree(nullptr), DRV_ERROR_INVALID_VALUE);
  EXPECT_EQ(halMemFree(reinterpret_cast<void*>(a)), DRV_ERROR_NONE);
  EXPECT_EQ(halMemFree(reinterpret_cast<void*>(a)), DRV_ERROR_INVALID_VALUE);
}

TEST_F(FakeHalTest, CloseDestroysTheDevicesAllocations) {
  ASSERT_EQ(Open(0), DRV_ERROR_NONE);
  ASSERT_EQ(Open(1), DRV_ERROR_NONE);
  const uint64_t a = Alloc(128, kNormalFlag);
  const uint64_t b = Alloc(128, kNormalFlag | 1);
  ASSERT_NE(a, 0u);
  ASSERT_NE(b, 0u);
  ASSERT_EQ(Close(0), DRV_ERROR_NONE);
  uint8_t host[128];
  EXPECT_EQ(drvMemcpy(Ptr(host), 128, a, 128), DRV_ERROR_INVALID_VALUE);
  EXPECT_EQ(halMemFree(reinterpret_cast<void*>(a)), DRV_ERROR_INVALID_VALUE);
  EXPECT_EQ(drvMemcpy(Ptr(host), 128, b, 128), DRV_ERROR_NONE);
  EXPECT_EQ(Phy(0).free, kNormalPool);
}

TEST_F(FakeHalTest, BackupCloseRestoreRoundTrip) {
  ASSERT_EQ(Open(0), DRV_ERROR_NONE);
  ASSERT_EQ(Open(1), DRV_ERROR_NONE);
  const uint64_t a = Alloc(300, kNormalFlag);
  const uint64_t b = Alloc(3 * kMiB, kHugeFlag | 1);
  ASSERT_NE(a, 0u);
  ASSERT_NE(b, 0u);
  const std::vector<uint8_t> a_bytes = Pattern(300, 5);
  const std::vector<uint8_t> b_bytes = Pattern(3 * kMiB, 77);
  Write(a, a_bytes);
  Write(b, b_bytes);
  ASSERT_EQ(Backup(), DRV_ERROR_NONE);
  // The devices stay open and usable after a backup.
  Write(a, Pattern(300, 200));

  // Host-user close keeps the image; its addresses stay reserved.
  ASSERT_EQ(Close(0, DEV_CLOSE_HOST_USER), DRV_ERROR_NONE);
  EXPECT_EQ(fakeHalLastCloseType(), DEV_CLOSE_HOST_USER);
  ASSERT_EQ(Open(0), DRV_ERROR_NONE);
  const uint64_t fresh = Alloc(300, kNormalFlag);
  ASSERT_NE(fresh, 0u);
  EXPECT_NE(fresh, a);

  // b is still live on device 1: restore fails and changes nothing.
  EXPECT_EQ(Restore(), DRV_ERROR_BUSY);
  uint8_t probe[16];
  EXPECT_EQ(drvMemcpy(Ptr(probe), 16, a, 16), DRV_ERROR_INVALID_VALUE);
  EXPECT_EQ(Phy(0).free, kNormalPool - 4096);

  // Device 1 closed and not reopened: a device in the image is not open.
  ASSERT_EQ(Close(1, DEV_CLOSE_HOST_USER), DRV_ERROR_NONE);
  EXPECT_EQ(Restore(), DRV_ERROR_INVALID_DEVICE);
  EXPECT_EQ(drvMemcpy(Ptr(probe), 16, a, 16), DRV_ERROR_INVALID_VALUE);

  ASSERT_EQ(Open(1), DRV_ERROR_NONE);
  ASSERT_EQ(Restore(), DRV_ERROR_NONE);
  EXPECT_EQ(Read(a, 300), a_bytes);  // the backed-up bytes, not the later ones
  EXPECT_EQ(Read(b, 3 * kMiB), b_bytes);
  EXPECT_EQ(Read(fresh, 300), std::vector<uint8_t>(300, 0xA5));
  EXPECT_EQ(Phy(1).huge_free, kHugePool - 4 * kMiB);
  EXPECT_EQ(Restore(), DRV_ERROR_BUSY);  // already live again

  // The image is kept: another round works without a new backup.
  ASSERT_EQ(Close(0), DRV_ERROR_NONE);
  ASSERT_EQ(Close(1), DRV_ERROR_NONE);
  ASSERT_EQ(Open(0), DRV_ERROR_NONE);
  ASSERT_EQ(Open(1), DRV_ERROR_NONE);
  ASSERT_EQ(Restore(), DRV_ERROR_NONE);
  EXPECT_EQ(Read(a, 300), a_bytes);
  EXPECT_EQ(halMemFree(reinterpret_cast<void*>(a)), DRV_ERROR_NONE);
  EXPECT_EQ(halMemFree(reinterpret_cast<void*>(b)), DRV_ERROR_NONE);
}

TEST_F(FakeHalTest, ImageReservesAddressesUntilReplaced) {
  ASSERT_EQ(Open(0), DRV_ERROR_NONE);
  ASSERT_EQ(Backup(), DRV_ERROR_NONE);  // empty image: nothing reserved
  const uint64_t a = Alloc(4096, kNormalFlag);
  ASSERT_NE(a, 0u);
  ASSERT_EQ(Backup(), DRV_ERROR_NONE);
  ASSERT_EQ(halMemFree(reinterpret_cast<void*>(a)), DRV_ERROR_NONE);
  const uint64_t b = Alloc(4096, kNormalFlag);
  EXPECT_NE(b, a) << "a is reserved by the image";
  ASSERT_EQ(halMemFree(reinterpret_cast<void*>(b)), DRV_ERROR_NONE);
  ASSERT_EQ(Backup(), DRV_ERROR_NONE);  // replaces the image
  EXPECT_EQ(Alloc(4096, kNormalFlag), a) << "first fit reuses a";
}

TEST_F(FakeHalTest, RestoreOutOfMemoryChangesNothing) {
  ASSERT_EQ(Open(0), DRV_ERROR_NONE);
  const uint64_t a = Alloc(2 * kMiB, kNormalFlag);
  ASSERT_NE(a, 0u);
  ASSERT_EQ(Backup(), DRV_ERROR_NONE);
  ASSERT_EQ(Close(0, DEV_CLOSE_HOST_USER), DRV_ERROR_NONE);
  ASSERT_EQ(Open(0), DRV_ERROR_NONE);
  ASSERT_EQ(fakeHalSetCapacity(kMiB, kHugePool), DRV_ERROR_NONE);
  EXPECT_EQ(Restore(), DRV_ERROR_OUT_OF_MEMORY);
  EXPECT_EQ(Phy(0).free, kMiB);
  ASSERT_EQ(fakeHalSetCapacity(kNormalPool, kHugePool), DRV_ERROR_NONE);
  EXPECT_EQ(Restore(), DRV_ERROR_NONE);
  EXPECT_EQ(Phy(0).free, kNormalPool - 2 * kMiB);
  // An empty image for the tests that follow.
  ASSERT_EQ(Close(0), DRV_ERROR_NONE);
  ASSERT_EQ(Backup(), DRV_ERROR_NONE);
}

TEST_F(FakeHalTest, InjectedErrors) {
  ASSERT_EQ(Open(0), DRV_ERROR_NONE);
  const uint64_t before = fakeHalCallCount("halMemAlloc");
  ASSERT_EQ(fakeHalInjectError("halMemAlloc", DRV_ERROR_OUT_OF_MEMORY, 2),
            DRV_ERROR_NONE);
  drvError_t err = DRV_ERROR_NONE;
  EXPECT_EQ(Alloc(64, kNormalFlag, &err), 0u);
  EXPECT_EQ(err, DRV_ERROR_OUT_OF_MEMORY);
  EXPECT_EQ(Alloc(64, kNormalFlag, &err), 0u);
  EXPECT_NE(Alloc(64, kNormalFlag), 0u);  // the fault ran out
  EXPECT_EQ(fakeHalCallCount("halMemAlloc"), before + 3);

  ASSERT_EQ(
      fakeHalInjectError("halProcessResBackup", DRV_ERROR_NOT_SUPPORT, -1),
      DRV_ERROR_NONE);
  EXPECT_EQ(Backup(), DRV_ERROR_NOT_SUPPORT);
  EXPECT_EQ(Backup(), DRV_ERROR_NOT_SUPPORT);
  ASSERT_EQ(fakeHalInjectError("halProcessResBackup", 0, 0), DRV_ERROR_NONE);
  EXPECT_EQ(Backup(), DRV_ERROR_NONE);
  EXPECT_EQ(fakeHalInjectError(nullptr, 1, 1), DRV_ERROR_INVALID_VALUE);
  // An empty image for the tests that follow.
  ASSERT_EQ(Close(0), DRV_ERROR_NONE);
  ASSERT_EQ(Backup(), DRV_ERROR_NONE);
}

TEST_F(FakeHalTest, ConcurrentUse) {
  for (uint32_t id = 0; id < kDevices; ++id)
    ASSERT_EQ(Open(id), DRV_ERROR_NONE);
  std::vector<std::thread> threads;
  std::vector<int> failures(6, 0);
  for (int t = 0; t < 6; ++t) {
    threads.emplace_back([t, &failures] {
      const uint32_t device = static_cast<uint32_t>(t) % kDevices;
      for (int i = 0; i < 200; ++i) {
        const size_t size = 64 + 8 * ((t * 31 + i) % 50);
        void* p = nullptr;
        if (halMemAlloc(&p, size, kNormalFlag | device) != DRV_ERROR_NONE) {
          ++failures[t];
          continue;
        }
        const uint64_t va = reinterpret_cast<uintptr_t>(p);
        std::vector<uint8_t> out = Pattern(size, static_cast<uint8_t>(t + i));
        std::vector<uint8_t> in(size);
        if (drvMemcpy(va, size, Ptr(out.data()), size) != DRV_ERROR_NONE ||
            drvMemcpy(Ptr(in.data()), size, va, size) != DRV_ERROR_NONE ||
            in != out || halMemFree(p) != DRV_ERROR_NONE) {
          ++failures[t];
        }
      }
    });
  }
  for (std::thread& thread : threads) thread.join();
  for (int t = 0; t < 6; ++t) EXPECT_EQ(failures[t], 0) << "thread " << t;
  for (uint32_t id = 0; id < kDevices; ++id) {
    EXPECT_EQ(Phy(id).free, kNormalPool);
  }
}

}  // namespace
