// Virtual memory management below the C API (runtime/vmm.cc, DESIGN.md
// §5.18): reservations, physical allocations, mappings, reading and writing
// mapped memory with the ordinary copies, and the codes of misuse.
#include "runtime/memory/vmm.h"

#include <cstdint>
#include <cstring>
#include <vector>

#include "acl/acl_rt.h"
#include "acl/error_codes/rt_error_codes.h"
#include "gtest/gtest.h"
#include "runtime/base/error.h"
#include "runtime/private_runtime.h"
#include "testing/status_matchers.h"

namespace ascend::rt {
namespace {

constexpr int32_t kInvalidParam = 100000;  // ACL_ERROR_INVALID_PARAM
constexpr uint64_t k2M = uint64_t{2} << 20;

aclrtPhysicalMemProp DeviceProp(uint32_t device) {
  aclrtPhysicalMemProp prop;
  std::memset(&prop, 0, sizeof prop);
  prop.handleType = ACL_MEM_HANDLE_TYPE_NONE;
  prop.allocationType = ACL_MEM_ALLOCATION_TYPE_PINNED;
  prop.memAttr = ACL_HBM_MEM_HUGE;
  prop.location.type = ACL_MEM_LOCATION_TYPE_DEVICE;
  prop.location.id = device;
  return prop;
}

char* At(void* p, uint64_t offset) { return static_cast<char*>(p) + offset; }

class VmmTest : public ::testing::Test {
 protected:
  void SetUp() override { ASSERT_OK(rt_->SetDevice(0)); }

  void Fill(void* dst, uint8_t byte, size_t size) {
    std::vector<uint8_t> bytes(size, byte);
    ASSERT_OK(rt_.memory().Memcpy(dst, size, bytes.data(), size,
                                  ACL_MEMCPY_HOST_TO_DEVICE));
  }
  std::vector<uint8_t> Read(const void* src, size_t size) {
    std::vector<uint8_t> out(size, 0);
    EXPECT_OK(rt_.memory().Memcpy(out.data(), size, src, size,
                                  ACL_MEMCPY_DEVICE_TO_HOST));
    return out;
  }

  PrivateRuntime rt_;
  Vmm& vmm() { return rt_.memory().vmm(); }
};

TEST_F(VmmTest, GranularityIsTwoMegabytes) {
  ASSERT_OK_AND_ASSIGN(uint64_t g, vmm().Granularity(DeviceProp(0), false));
  EXPECT_EQ(g, k2M);
  aclrtPhysicalMemProp bad = DeviceProp(0);
  bad.memAttr = ACL_HBM_MEM_HUGE1G;
  EXPECT_EQ(ErrorCode(vmm().Granularity(bad, false).status()),
            ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
  bad = DeviceProp(7);
  EXPECT_EQ(ErrorCode(vmm().Granularity(bad, false).status()),
            ACL_ERROR_RT_INVALID_DEVICEID);
  // (Out-of-range enum values are the ACL layer's to refuse: runtime.h takes
  // valid enums only, and loading any other value is undefined.)
}

TEST_F(VmmTest, MapReadWriteUnmapRelease) {
  ASSERT_OK_AND_ASSIGN(void* va, vmm().Reserve(4 * k2M, nullptr, 0));
  ASSERT_NE(va, nullptr);
  EXPECT_EQ(reinterpret_cast<uintptr_t>(va) % k2M, 0u);
  ASSERT_OK_AND_ASSIGN(void* handle, vmm().MallocPhysical(k2M, DeviceProp(0)));
  ASSERT_OK_AND_ASSIGN(aclrtPhysicalMemProp prop, vmm().Properties(handle));
  EXPECT_EQ(prop.location.id, 0u);
  EXPECT_EQ(prop.memAttr, ACL_HBM_MEM_HUGE);

  ASSERT_OK(vmm().Map(At(va, k2M), k2M, 0, handle));
  Fill(At(va, k2M), 0x6B, k2M);
  EXPECT_EQ(Read(At(va, k2M), k2M), std::vector<uint8_t>(k2M, 0x6B));
  // A copy from the middle of the mapping, and a fill.
  ASSERT_OK(rt_.memory().Memset(At(va, k2M + 4096), 4096, 0x01, 4096));
  std::vector<uint8_t> part = Read(At(va, k2M + 4000), 200);
  EXPECT_EQ(part[0], 0x6B);
  EXPECT_EQ(part[95], 0x6B);
  EXPECT_EQ(part[96], 0x01);
  // The mapping is device memory of device 0, with its range.
  ASSERT_OK_AND_ASSIGN(aclrtPtrAttributes attr,
                       rt_.memory().PointerAttributes(At(va, k2M + 10)));
  EXPECT_EQ(attr.location.type, ACL_MEM_LOCATION_TYPE_DEVICE);
  EXPECT_EQ(attr.location.id, 0u);
  ASSERT_OK_AND_ASSIGN(auto range,
                       rt_.memory().AllocationRange(At(va, k2M + 10)));
  EXPECT_EQ(range.first, At(va, k2M));
  EXPECT_EQ(range.second, k2M);
  EXPECT_TRUE(vmm().Reserved(At(va, 3 * k2M)));
  // Retain hands back the mapped handle (one more reference).
  ASSERT_OK_AND_ASSIGN(void* retained, vmm().Retain(At(va, k2M)));
  EXPECT_EQ(retained, handle);
  ASSERT_OK(vmm().FreePhysical(retained));

  // Copying past the mapping into the unmapped rest of the reservation is
  // refused.
  std::vector<uint8_t> big(2 * k2M, 0);
  EXPECT_NE(ErrorCode(rt_.memory().Memcpy(At(va, k2M), 2 * k2M, big.data(),
                                          2 * k2M, ACL_MEMCPY_HOST_TO_DEVICE)),
            0);

  ASSERT_OK(vmm().Unmap(At(va, k2M)));
  EXPECT_FALSE(vmm().MappingRange(At(va, k2M)).has_value());
  ASSERT_OK(vmm().FreePhysical(handle));
  ASSERT_OK(vmm().Release(va));
  EXPECT_FALSE(vmm().Reserved(va));
}

TEST_F(VmmTest, TwoMappingsOfOnePhysicalAllocationShareBytes) {
  ASSERT_OK_AND_ASSIGN(void* va, vmm().Reserve(2 * k2M, nullptr, 0));
  ASSERT_OK_AND_ASSIGN(void* handle,
                       vmm().MallocPhysical(2 * k2M, DeviceProp(0)));
  // The second half of the physical memory at the start of the range, and
  // the first half after it.
  ASSERT_OK(vmm().Map(va, k2M, k2M, handle));
  ASSERT_OK(vmm().Map(At(va, k2M), k2M, 0, handle));
  Fill(va, 0xA1, k2M);
  Fill(At(va, k2M), 0xB2, k2M);
  ASSERT_OK(vmm().Unmap(va));
  ASSERT_OK(vmm().Unmap(At(va, k2M)));
  // Mapped again the other way round: the bytes followed the physical pages.
  ASSERT_OK(vmm().Map(va, 2 * k2M, 0, handle));
  std::vector<uint8_t> want(2 * k2M, 0xB2);
  std::fill(want.begin() + k2M, want.end(), 0xA1);
  EXPECT_EQ(Read(va, 2 * k2M), want);
  ASSERT_OK(vmm().Unmap(va));
  ASSERT_OK(vmm().FreePhysical(handle));
  ASSERT_OK(vmm().Release(va));
}

TEST_F(VmmTest, MisuseCodesChangeNothing) {
  ASSERT_OK_AND_ASSIGN(void* va, vmm().Reserve(2 * k2M, nullptr, 0));
  ASSERT_OK_AND_ASSIGN(void* handle, vmm().MallocPhysical(k2M, DeviceProp(0)));
  ASSERT_OK_AND_ASSIGN(void* other, vmm().MallocPhysical(k2M, DeviceProp(0)));
  // Unmap of an address never mapped.
  EXPECT_EQ(ErrorCode(vmm().Unmap(va)), ACL_ERROR_RT_PARAM_INVALID);
  ASSERT_OK(vmm().Map(va, k2M, 0, handle));
  Fill(va, 0x44, 4096);
  // A second map over a mapped address, with either handle.
  EXPECT_EQ(ErrorCode(vmm().Map(va, k2M, 0, handle)),
            ACL_ERROR_RT_PARAM_INVALID);
  EXPECT_EQ(ErrorCode(vmm().Map(va, k2M, 0, other)),
            ACL_ERROR_RT_PARAM_INVALID);
  // Unaligned size or offset, and past the physical allocation: 100000.
  EXPECT_EQ(ErrorCode(vmm().Map(At(va, k2M), 4096, 0, other)), kInvalidParam);
  EXPECT_EQ(ErrorCode(vmm().Map(At(va, k2M), k2M, k2M, other)), kInvalidParam);
  EXPECT_EQ(ErrorCode(vmm().Map(At(va, k2M), 0, 0, other)), kInvalidParam);
  // An address outside every reservation, and a handle that is none.
  int not_handle = 0;
  EXPECT_EQ(ErrorCode(vmm().Map(At(va, k2M), k2M, 0, &not_handle)),
            ACL_ERROR_RT_PARAM_INVALID);
  // A mapped reservation cannot be released; unmap of the middle of a
  // mapping is not an unmap.
  EXPECT_EQ(ErrorCode(vmm().Release(va)), ACL_ERROR_RT_PARAM_INVALID);
  EXPECT_EQ(ErrorCode(vmm().Unmap(At(va, 4096))), ACL_ERROR_RT_PARAM_INVALID);
  EXPECT_EQ(ErrorCode(vmm().Release(At(va, k2M))), ACL_ERROR_RT_PARAM_INVALID);
  // The mapping and its bytes survived every refusal.
  EXPECT_EQ(Read(va, 4096), std::vector<uint8_t>(4096, 0x44));
  ASSERT_OK_AND_ASSIGN(void* retained, vmm().Retain(va));
  EXPECT_EQ(retained, handle);
  ASSERT_OK(vmm().FreePhysical(retained));

  // Freeing a mapped handle keeps its memory until the unmap.
  ASSERT_OK(vmm().FreePhysical(handle));
  EXPECT_EQ(ErrorCode(vmm().FreePhysical(handle)), ACL_ERROR_RT_PARAM_INVALID);
  EXPECT_EQ(Read(va, 4096), std::vector<uint8_t>(4096, 0x44));
  // ... and a freed handle cannot be mapped again.
  EXPECT_EQ(ErrorCode(vmm().Map(At(va, k2M), k2M, 0, handle)),
            ACL_ERROR_RT_PARAM_INVALID);
  ASSERT_OK(vmm().Unmap(va));
  EXPECT_EQ(ErrorCode(vmm().Unmap(va)), ACL_ERROR_RT_PARAM_INVALID);
  // The unmapped address is no longer device memory for the copies.
  std::vector<uint8_t> host(16, 0);
  EXPECT_NE(ErrorCode(rt_.memory().Memcpy(host.data(), 16, va, 16,
                                          ACL_MEMCPY_DEVICE_TO_HOST)),
            0);
  ASSERT_OK(vmm().Release(va));
  EXPECT_EQ(ErrorCode(vmm().Release(va)), ACL_ERROR_RT_PARAM_INVALID);
  ASSERT_OK(vmm().FreePhysical(other));
  EXPECT_EQ(ErrorCode(vmm().FreePhysical(other)), ACL_ERROR_RT_PARAM_INVALID);
}

TEST_F(VmmTest, ReserveArguments) {
  EXPECT_EQ(ErrorCode(vmm().Reserve(0, nullptr, 0).status()), kInvalidParam);
  EXPECT_EQ(ErrorCode(vmm().Reserve(k2M, nullptr, 2).status()), kInvalidParam);
  EXPECT_EQ(
      ErrorCode(vmm().Reserve(k2M, reinterpret_cast<void*>(4096), 0).status()),
      kInvalidParam);
  EXPECT_EQ(ErrorCode(vmm().MallocPhysical(0, DeviceProp(0)).status()),
            kInvalidParam);
  // A size that is not a multiple of the granularity is rounded up.
  ASSERT_OK_AND_ASSIGN(void* va, vmm().Reserve(100, nullptr, 1));
  ASSERT_OK_AND_ASSIGN(void* handle, vmm().MallocPhysical(100, DeviceProp(0)));
  ASSERT_OK(vmm().Map(va, k2M, 0, handle));
  Fill(At(va, k2M - 8), 0x99, 8);
  EXPECT_EQ(Read(At(va, k2M - 8), 8), std::vector<uint8_t>(8, 0x99));
  ASSERT_OK(vmm().Unmap(va));
  ASSERT_OK(vmm().FreePhysical(handle));
  ASSERT_OK(vmm().Release(va));
}

TEST_F(VmmTest, PhysicalMemoryOfAnotherDeviceIsNotMappedHere) {
  ASSERT_OK(rt_->SetDevice(1));
  ASSERT_OK_AND_ASSIGN(void* on1, vmm().MallocPhysical(k2M, DeviceProp(1)));
  ASSERT_OK(rt_->SetDevice(0));
  ASSERT_OK_AND_ASSIGN(void* va, vmm().Reserve(k2M, nullptr, 0));
  EXPECT_EQ(ErrorCode(vmm().Map(va, k2M, 0, on1)),
            ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
  EXPECT_EQ(ErrorCode(vmm().Unmap(va)), ACL_ERROR_RT_PARAM_INVALID);
  ASSERT_OK(vmm().Release(va));
  ASSERT_OK(vmm().FreePhysical(on1));
}

}  // namespace
}  // namespace ascend::rt
