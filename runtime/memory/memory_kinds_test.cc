// Memory kinds below the C API (runtime/memory_kinds.cc, DESIGN.md §5.15):
// configured allocations (kinds, module ids, alignment), managed memory,
// registered host memory, memory-type checks and per-module usage.
#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <optional>
#include <vector>

#include "acl/acl_rt.h"
#include "acl/error_codes/rt_error_codes.h"
#include "gtest/gtest.h"
#include "runtime/base/error.h"
#include "runtime/memory/memory_registry.h"
#include "runtime/private_runtime.h"
#include "testing/status_matchers.h"

namespace ascend::rt {
namespace {

constexpr int32_t kInvalidParam = 100000;  // ACL_ERROR_INVALID_PARAM
constexpr uint64_t k2M = uint64_t{2} << 20;

uintptr_t Addr(const void* p) { return reinterpret_cast<uintptr_t>(p); }

std::optional<ModuleUsage> UsageOf(const std::vector<ModuleUsage>& all,
                                   uint16_t module) {
  for (const ModuleUsage& u : all) {
    if (u.module_id == module) return u;
  }
  return std::nullopt;
}

class MemoryKindsTest : public ::testing::Test {
 protected:
  void SetUp() override { ASSERT_OK(rt_->SetDevice(0)); }
  PrivateRuntime rt_;
};

TEST_F(MemoryKindsTest, MallocWithHonoursAlignment) {
  for (uint64_t alignment : {uint64_t{512}, uint64_t{4096}, k2M}) {
    SCOPED_TRACE(alignment);
    Memory::MallocOptions options;
    options.alignment = alignment;
    // An odd size first, so the next block would be misaligned by chance.
    ASSERT_OK_AND_ASSIGN(
        void* odd, rt_.memory().MallocWith(33, ACL_MEM_MALLOC_NORMAL_ONLY, {}));
    ASSERT_OK_AND_ASSIGN(
        void* p,
        rt_.memory().MallocWith(100, ACL_MEM_MALLOC_NORMAL_ONLY, options));
    EXPECT_EQ(Addr(p) % alignment, 0u);
    EXPECT_OK(rt_.memory().Free(p));
    EXPECT_OK(rt_.memory().Free(odd));
  }
}

TEST_F(MemoryKindsTest, MallocWithChecksSizeAndDevice) {
  EXPECT_EQ(
      ErrorCode(
          rt_.memory().MallocWith(0, ACL_MEM_MALLOC_HUGE_FIRST, {}).status()),
      kInvalidParam);
  Memory::MallocOptions other;
  other.device_id = 1;  // not the current device
  EXPECT_EQ(ErrorCode(rt_.memory()
                          .MallocWith(64, ACL_MEM_MALLOC_HUGE_FIRST, other)
                          .status()),
            ACL_ERROR_RT_PARAM_INVALID);
  Memory::MallocOptions same;
  same.device_id = 0;
  ASSERT_OK_AND_ASSIGN(
      void* p, rt_.memory().MallocWith(64, ACL_MEM_MALLOC_HUGE_FIRST, same));
  EXPECT_OK(rt_.memory().Free(p));
  EXPECT_EQ(ErrorCode(rt_.memory()
                          .MallocWith(uint64_t{1} << 40,
                                      ACL_MEM_MALLOC_HUGE_FIRST, {})
                          .status()),
            ACL_ERROR_RT_MEMORY_ALLOCATION);
}

TEST_F(MemoryKindsTest, RawPoliciesChoosePagesBySize) {
  // A policy outside the enum chooses huge pages from 2 MiB.
  ASSERT_OK_AND_ASSIGN(void* small, rt_.memory().MallocWith(4096, 0x7777, {}));
  ASSERT_OK_AND_ASSIGN(void* big, rt_.memory().MallocWith(k2M, 0x7777, {}));
  ASSERT_OK_AND_ASSIGN(aclrtPtrAttributes a,
                       rt_.memory().PointerAttributes(small));
  ASSERT_OK_AND_ASSIGN(aclrtPtrAttributes b,
                       rt_.memory().PointerAttributes(big));
  EXPECT_EQ(a.pageSize, kPage4K);
  EXPECT_EQ(b.pageSize, kPage2M);
  // The bandwidth and read-only flag bits do not change the choice.
  ASSERT_OK_AND_ASSIGN(
      void* flagged,
      rt_.memory().MallocWith(
          4096, ACL_MEM_MALLOC_HUGE_ONLY | ACL_MEM_TYPE_HIGH_BAND_WIDTH, {}));
  ASSERT_OK_AND_ASSIGN(aclrtPtrAttributes c,
                       rt_.memory().PointerAttributes(flagged));
  EXPECT_EQ(c.pageSize, kPage2M);
  EXPECT_OK(rt_.memory().Free(small));
  EXPECT_OK(rt_.memory().Free(big));
  EXPECT_OK(rt_.memory().Free(flagged));
}

TEST_F(MemoryKindsTest, MemUsageChargesModules) {
  constexpr uint16_t kModule = 7;
  ASSERT_OK_AND_ASSIGN(std::vector<ModuleUsage> before,
                       rt_.memory().MemUsage(0));
  EXPECT_FALSE(UsageOf(before, kModule).has_value());
  Memory::MallocOptions options;
  options.module_id = kModule;
  ASSERT_OK_AND_ASSIGN(void* a, rt_.memory().MallocWith(
                                    1000, ACL_MEM_MALLOC_NORMAL_ONLY, options));
  ASSERT_OK_AND_ASSIGN(void* b, rt_.memory().MallocWith(
                                    3000, ACL_MEM_MALLOC_NORMAL_ONLY, options));
  ASSERT_OK_AND_ASSIGN(void* app,
                       rt_.memory().Malloc(500, ACL_MEM_MALLOC_NORMAL_ONLY));
  ASSERT_OK_AND_ASSIGN(std::vector<ModuleUsage> during,
                       rt_.memory().MemUsage(0));
  std::optional<ModuleUsage> mine = UsageOf(during, kModule);
  ASSERT_TRUE(mine.has_value());
  EXPECT_EQ(mine->current_bytes, 4000u);
  EXPECT_EQ(mine->peak_bytes, 4000u);
  std::optional<ModuleUsage> app_usage = UsageOf(during, kAppModuleId);
  ASSERT_TRUE(app_usage.has_value());
  EXPECT_EQ(app_usage->current_bytes, 500u);
  // Sorted by current bytes, largest first.
  EXPECT_TRUE(std::is_sorted(during.begin(), during.end(),
                             [](const ModuleUsage& x, const ModuleUsage& y) {
                               return x.current_bytes > y.current_bytes;
                             }));
  ASSERT_OK(rt_.memory().Free(b));
  ASSERT_OK_AND_ASSIGN(std::vector<ModuleUsage> after,
                       rt_.memory().MemUsage(0));
  mine = UsageOf(after, kModule);
  ASSERT_TRUE(mine.has_value());
  EXPECT_EQ(mine->current_bytes, 1000u);
  EXPECT_EQ(mine->peak_bytes, 4000u);
  // Device 1 has none of it; device 9 does not exist.
  ASSERT_OK_AND_ASSIGN(std::vector<ModuleUsage> other,
                       rt_.memory().MemUsage(1));
  EXPECT_FALSE(UsageOf(other, kModule).has_value());
  EXPECT_NE(ErrorCode(rt_.memory().MemUsage(9).status()), 0);
  EXPECT_OK(rt_.memory().Free(a));
  EXPECT_OK(rt_.memory().Free(app));
}

TEST_F(MemoryKindsTest, ManagedMemoryIsRoundedAndReportedAsManaged) {
  ASSERT_OK_AND_ASSIGN(void* m, rt_.memory().MallocManaged(100));
  EXPECT_EQ(Addr(m) % k2M, 0u);
  ASSERT_OK_AND_ASSIGN(aclrtPtrAttributes attr,
                       rt_.memory().PointerAttributes(m));
  EXPECT_EQ(attr.location.type, ACL_MEM_LOCATION_TYPE_MANAGED);
  EXPECT_EQ(attr.location.id, 0u);
  EXPECT_EQ(attr.pageSize, kPage2M);
  ASSERT_OK_AND_ASSIGN(auto range, rt_.memory().AllocationRange(
                                       static_cast<char*>(m) + k2M - 1));
  EXPECT_EQ(range.first, m);
  EXPECT_EQ(range.second, k2M);
  // Copies reach all of the rounded size.
  std::vector<uint8_t> bytes(k2M, 0x3C);
  ASSERT_OK(rt_.memory().Memcpy(m, k2M, bytes.data(), k2M,
                                ACL_MEMCPY_HOST_TO_DEVICE));
  std::vector<uint8_t> back(k2M, 0);
  ASSERT_OK(
      rt_.memory().Memcpy(back.data(), k2M, m, k2M, ACL_MEMCPY_DEVICE_TO_HOST));
  EXPECT_EQ(back, bytes);
  EXPECT_EQ(ErrorCode(rt_.memory().MallocManaged(0).status()), kInvalidParam);
  EXPECT_EQ(ErrorCode(rt_.memory().MallocManaged(UINT64_MAX).status()),
            ACL_ERROR_RT_MEMORY_ALLOCATION);
  EXPECT_OK(rt_.memory().Free(m));
}

TEST_F(MemoryKindsTest, CheckMemType) {
  ASSERT_OK_AND_ASSIGN(void* dev,
                       rt_.memory().Malloc(64, ACL_MEM_MALLOC_HUGE_FIRST));
  ASSERT_OK_AND_ASSIGN(void* managed, rt_.memory().MallocManaged(64));
  ASSERT_OK_AND_ASSIGN(void* va, rt_.memory().vmm().Reserve(k2M, nullptr, 0));
  int host = 0;
  void* inner = static_cast<char*>(dev) + 32;

  void* devs[] = {dev, inner};
  ASSERT_OK_AND_ASSIGN(bool ok,
                       rt_.memory().CheckMemType(devs, 2, ACL_RT_MEM_TYPE_DEV));
  EXPECT_TRUE(ok);
  ASSERT_OK_AND_ASSIGN(
      ok, rt_.memory().CheckMemType(devs, 2, ACL_RT_MEM_TYPE_DVPP));
  EXPECT_FALSE(ok);
  void* mixed[] = {dev, &host};
  ASSERT_OK_AND_ASSIGN(
      ok, rt_.memory().CheckMemType(mixed, 2, ACL_RT_MEM_TYPE_DEV));
  EXPECT_FALSE(ok);
  void* man[] = {managed};
  ASSERT_OK_AND_ASSIGN(ok,
                       rt_.memory().CheckMemType(man, 1, ACL_RT_MEM_TYPE_DEV));
  EXPECT_FALSE(ok);  // managed memory is not device memory
  void* rsvd[] = {va, dev};
  ASSERT_OK_AND_ASSIGN(
      ok, rt_.memory().CheckMemType(
              rsvd, 2, ACL_RT_MEM_TYPE_RSVD | ACL_RT_MEM_TYPE_DEV));
  EXPECT_TRUE(ok);
  ASSERT_OK_AND_ASSIGN(ok,
                       rt_.memory().CheckMemType(rsvd, 2, ACL_RT_MEM_TYPE_DEV));
  EXPECT_FALSE(ok);

  EXPECT_EQ(
      ErrorCode(
          rt_.memory().CheckMemType(devs, 0, ACL_RT_MEM_TYPE_DEV).status()),
      ACL_ERROR_RT_PARAM_INVALID);
  EXPECT_EQ(ErrorCode(rt_.memory().CheckMemType(devs, 2, 0x1).status()),
            ACL_ERROR_RT_PARAM_INVALID);
  // A freed block no longer counts.
  ASSERT_OK(rt_.memory().Free(dev));
  void* freed[] = {dev};
  ASSERT_OK_AND_ASSIGN(
      ok, rt_.memory().CheckMemType(freed, 1, ACL_RT_MEM_TYPE_DEV));
  EXPECT_FALSE(ok);
  EXPECT_OK(rt_.memory().vmm().Release(va));
  EXPECT_OK(rt_.memory().Free(managed));
}

TEST_F(MemoryKindsTest, HostRegisterAndUnregister) {
  // Registered ranges start on a 4 KiB page (11-02).
  std::unique_ptr<uint8_t, decltype(&std::free)> pages(
      static_cast<uint8_t*>(std::aligned_alloc(4096, 3 * 4096)), &std::free);
  uint8_t* const buffer_data = pages.get();
  struct {
    uint8_t* p;
    uint8_t* data() const { return p; }
  } buffer{buffer_data};
  void* base = buffer.data();
  void* inside = buffer.data() + 100;
  EXPECT_EQ(ErrorCode(rt_.memory().HostDevicePointer(base).status()),
            ACL_ERROR_HOST_MEMORY_NOT_REGISTERED);
  ASSERT_OK(rt_.memory().HostRegister(base, 4096, ACL_HOST_REG_MAPPED));
  ASSERT_OK_AND_ASSIGN(void* dev_view, rt_.memory().HostDevicePointer(inside));
  EXPECT_EQ(dev_view, inside);  // one address space in the simulator
  ASSERT_OK_AND_ASSIGN(aclrtPtrAttributes attr,
                       rt_.memory().PointerAttributes(inside));
  EXPECT_EQ(attr.location.type, ACL_MEM_LOCATION_TYPE_HOST);
  // Past the registered range.
  EXPECT_EQ(
      ErrorCode(rt_.memory().HostDevicePointer(buffer.data() + 4096).status()),
      ACL_ERROR_HOST_MEMORY_NOT_REGISTERED);
  // An address off a page is refused; so are overlaps. Neither changes
  // anything.
  EXPECT_EQ(
      ErrorCode(rt_.memory().HostRegister(inside, 16, ACL_HOST_REG_MAPPED)),
      ACL_ERROR_RT_PARAM_INVALID);
  EXPECT_EQ(ErrorCode(rt_.memory().HostRegister(base, 16, ACL_HOST_REG_MAPPED)),
            ACL_ERROR_HOST_MEMORY_ALREADY_REGISTERED);
  // An adjacent range is fine.
  ASSERT_OK(rt_.memory().HostRegister(buffer.data() + 4096, 4096,
                                      ACL_HOST_REG_MAPPED));
  // Only a range's start unregisters it.
  EXPECT_EQ(ErrorCode(rt_.memory().HostUnregister(inside)),
            ACL_ERROR_HOST_MEMORY_NOT_REGISTERED);
  ASSERT_OK(rt_.memory().HostUnregister(base));
  EXPECT_EQ(ErrorCode(rt_.memory().HostUnregister(base)),
            ACL_ERROR_HOST_MEMORY_NOT_REGISTERED);
  EXPECT_EQ(ErrorCode(rt_.memory().HostDevicePointer(inside).status()),
            ACL_ERROR_HOST_MEMORY_NOT_REGISTERED);
  ASSERT_OK(rt_.memory().HostUnregister(buffer.data() + 4096));

  // Device memory is not host memory.
  ASSERT_OK_AND_ASSIGN(void* dev,
                       rt_.memory().Malloc(4096, ACL_MEM_MALLOC_HUGE_FIRST));
  EXPECT_EQ(
      ErrorCode(rt_.memory().HostRegister(dev, 4096, ACL_HOST_REG_MAPPED)),
      ACL_ERROR_RT_PARAM_INVALID);
  // PINNED needs pageable memory, not MallocHost's; MAPPED takes it.
  ASSERT_OK_AND_ASSIGN(void* pinned, rt_.memory().MallocHost(4096));
  EXPECT_EQ(
      ErrorCode(rt_.memory().HostRegister(pinned, 4096, ACL_HOST_REG_PINNED)),
      ACL_ERROR_RT_PARAM_INVALID);
  ASSERT_OK(rt_.memory().HostRegister(base, 4096, ACL_HOST_REG_PINNED));
  ASSERT_OK(rt_.memory().HostUnregister(base));
  ASSERT_OK(rt_.memory().HostRegister(pinned, 4096, ACL_HOST_REG_MAPPED));
  ASSERT_OK(rt_.memory().HostUnregister(pinned));
  EXPECT_OK(rt_.memory().FreeHost(pinned));
  EXPECT_OK(rt_.memory().Free(dev));
}

}  // namespace
}  // namespace ascend::rt
