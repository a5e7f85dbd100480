// Memory kinds through the ACL C API (DESIGN.md §5.15): configured and
// task-scheduler allocations, pointer attributes, memory-type checks,
// per-module usage, host registration and uncorrectable memory errors.
// Managed memory, and what survives a snapshot, are in
// managed_memory_api_test.cc. The registration sequence follows CANN's
// example 3_memory_advanced/host_register/0_simple_zero_copy (without its
// kernel).
#include <unistd.h>

#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "acl/acl.h"
#include "aclsim/aclsim.h"
#include "gtest/gtest.h"
#include "testing/status_matchers.h"

namespace {

// Host memory starting on a 4 KiB page (what aclrtHostRegister takes).
class PageAlignedBuffer {
 public:
  explicit PageAlignedBuffer(size_t size)
      : data_(static_cast<char*>(std::aligned_alloc(4096, size))), size_(size) {
    std::memset(data_, 0, size_);
  }
  ~PageAlignedBuffer() { std::free(data_); }
  PageAlignedBuffer(const PageAlignedBuffer&) = delete;
  PageAlignedBuffer& operator=(const PageAlignedBuffer&) = delete;
  char* data() { return data_; }
  size_t size() const { return size_; }

 private:
  char* data_;
  size_t size_;
};

class MemoryExtApiTest : public ::testing::Test {
 protected:
  void SetUp() override { ASSERT_ACL_OK(aclrtSetDevice(0)); }
  void TearDown() override {
    // A failed test may leave the process locked; unlocking a running
    // process is a harmless error.
    (void)aclrtSnapShotProcessUnlock(getpid(), nullptr);
    (void)aclrtResetDeviceForce(0);
    (void)aclrtGetLastError(ACL_RT_THREAD_LEVEL);
  }

  static aclrtPtrAttributes Attributes(const void* ptr) {
    aclrtPtrAttributes attributes;
    std::memset(&attributes, 0xAB, sizeof attributes);
    EXPECT_ACL_OK(aclrtPointerGetAttributes(ptr, &attributes));
    return attributes;
  }

  // Usage of the module named `name` on device 0 (false when absent).
  static bool Usage(const std::string& name, aclrtMemUsageInfo* out) {
    aclrtMemUsageInfo infos[16];
    size_t n = 0;
    EXPECT_ACL_OK(aclrtGetMemUsageInfo(0, infos, 16, &n));
    for (size_t i = 0; i < n; ++i) {
      if (name == infos[i].name) {
        *out = infos[i];
        return true;
      }
    }
    return false;
  }
};

// --- Configured allocations
// ---------------------------------------------------

TEST_F(MemoryExtApiTest, MallocWithCfgAllocatesDeviceMemoryWithPageSizes) {
  struct Case {
    aclrtMemMallocPolicy policy;
    size_t size;
    uint32_t page;
  };
  const Case cases[] = {
      {ACL_MEM_MALLOC_HUGE_ONLY, 4096, 2u << 20},
      {ACL_MEM_MALLOC_NORMAL_ONLY, 4u << 20, 4096},
      {ACL_MEM_MALLOC_HUGE1G_ONLY, 4096, 1u << 30},
      {ACL_MEM_MALLOC_HUGE_FIRST, 4096, 4096},
      {ACL_MEM_MALLOC_HUGE_FIRST, 4u << 20, 2u << 20},
      // Out of range: chosen by size (huge from 2 MiB), not rejected.
      {static_cast<aclrtMemMallocPolicy>(99), 4096, 4096},
      {static_cast<aclrtMemMallocPolicy>(99), 2u << 20, 2u << 20},
  };
  for (const Case& c : cases) {
    void* ptr = nullptr;
    ASSERT_ACL_OK(aclrtMallocWithCfg(&ptr, c.size, c.policy, nullptr));
    ASSERT_NE(ptr, nullptr);
    EXPECT_EQ(reinterpret_cast<uintptr_t>(ptr) % 64, 0u);
    const aclrtPtrAttributes attributes = Attributes(ptr);
    EXPECT_EQ(attributes.location.type, ACL_MEM_LOCATION_TYPE_DEVICE);
    EXPECT_EQ(attributes.location.id, 0u);
    EXPECT_EQ(attributes.pageSize, c.page) << c.policy << " " << c.size;
    // Real device memory: a round trip through it.
    std::vector<uint8_t> in(64, 0x5C), out(64, 0);
    ASSERT_ACL_OK(
        aclrtMemcpy(ptr, 64, in.data(), 64, ACL_MEMCPY_HOST_TO_DEVICE));
    ASSERT_ACL_OK(
        aclrtMemcpy(out.data(), 64, ptr, 64, ACL_MEMCPY_DEVICE_TO_HOST));
    EXPECT_EQ(in, out);
    ASSERT_ACL_OK(aclrtFree(ptr));
  }
}

TEST_F(MemoryExtApiTest, MallocWithCfgHonoursModuleAndDeviceAttributes) {
  aclrtMallocAttribute attrs[3];
  std::memset(attrs, 0, sizeof attrs);
  attrs[0].attr = ACL_RT_MEM_ATTR_MODULE_ID;
  attrs[0].value.moduleId = 7;
  attrs[1].attr = ACL_RT_MEM_ATTR_DEVICE_ID;
  attrs[1].value.deviceId = 0;
  attrs[2].attr = ACL_RT_MEM_ATTR_RSV;
  aclrtMallocConfig cfg{attrs, 3};
  void* a = nullptr;
  void* b = nullptr;
  ASSERT_ACL_OK(aclrtMallocWithCfg(&a, 3000, ACL_MEM_MALLOC_HUGE_FIRST, &cfg));
  ASSERT_ACL_OK(aclrtMallocWithCfg(&b, 5000, ACL_MEM_MALLOC_HUGE_FIRST, &cfg));
  aclrtMemUsageInfo info;
  ASSERT_TRUE(Usage("MODULE_7", &info));
  EXPECT_EQ(info.curMemSize, 8000u);
  EXPECT_EQ(info.memPeakSize, 8000u);
  ASSERT_ACL_OK(aclrtFree(b));
  ASSERT_TRUE(Usage("MODULE_7", &info));
  EXPECT_EQ(info.curMemSize, 3000u);
  EXPECT_EQ(info.memPeakSize, 8000u);
  ASSERT_ACL_OK(aclrtFree(a));
}

TEST_F(MemoryExtApiTest, MallocWithCfgRejectsBadArguments) {
  void* ptr = reinterpret_cast<void*>(0x1);
  aclrtMallocAttribute attr;
  std::memset(&attr, 0, sizeof attr);
  aclrtMallocConfig cfg{&attr, 1};
  EXPECT_ACL_ERROR(
      ACL_ERROR_INVALID_PARAM,
      aclrtMallocWithCfg(nullptr, 64, ACL_MEM_MALLOC_HUGE_FIRST, nullptr));
  EXPECT_ACL_ERROR(
      ACL_ERROR_INVALID_PARAM,
      aclrtMallocWithCfg(&ptr, 0, ACL_MEM_MALLOC_HUGE_FIRST, nullptr));
  aclrtMallocConfig no_attrs{nullptr, 1};
  EXPECT_ACL_ERROR(
      ACL_ERROR_INVALID_PARAM,
      aclrtMallocWithCfg(&ptr, 64, ACL_MEM_MALLOC_HUGE_FIRST, &no_attrs));
  attr.attr = ACL_RT_MEM_ATTR_DEVICE_ID;  // not the current device
  attr.value.deviceId = 1;
  EXPECT_ACL_ERROR(
      ACL_ERROR_RT_PARAM_INVALID,
      aclrtMallocWithCfg(&ptr, 64, ACL_MEM_MALLOC_HUGE_FIRST, &cfg));
  attr.attr = ACL_RT_MEM_ATTR_VA_FLAG;
  attr.value.vaFlag = 2;
  EXPECT_ACL_ERROR(
      ACL_ERROR_RT_PARAM_INVALID,
      aclrtMallocWithCfg(&ptr, 64, ACL_MEM_MALLOC_HUGE_FIRST, &cfg));
  std::memset(&attr, 0, sizeof attr);
  const int32_t bad_type = 9;
  std::memcpy(&attr.attr, &bad_type, sizeof bad_type);
  EXPECT_ACL_ERROR(
      ACL_ERROR_RT_PARAM_INVALID,
      aclrtMallocForTaskScheduler(&ptr, 64, ACL_MEM_MALLOC_HUGE_FIRST, &cfg));
  EXPECT_EQ(ptr, reinterpret_cast<void*>(0x1));
}

TEST_F(MemoryExtApiTest, TaskSchedulerMemoryIsDeviceMemory) {
  void* ptr = nullptr;
  ASSERT_ACL_OK(aclrtMallocForTaskScheduler(
      &ptr, 4096, ACL_MEM_MALLOC_HUGE_FIRST, nullptr));
  EXPECT_EQ(Attributes(ptr).location.type, ACL_MEM_LOCATION_TYPE_DEVICE);
  uint32_t result = 7;
  ASSERT_ACL_OK(aclrtCheckMemType(&ptr, 1, ACL_RT_MEM_TYPE_DEV, &result, 0));
  EXPECT_EQ(result, 1u);
  ASSERT_ACL_OK(aclrtMemset(ptr, 4096, 0x11, 4096));
  ASSERT_ACL_OK(aclrtFree(ptr));
}

TEST_F(MemoryExtApiTest, MallocHostWithCfgIsPinnedHostMemory) {
  aclrtMallocAttribute attr;
  std::memset(&attr, 0, sizeof attr);
  attr.attr = ACL_RT_MEM_ATTR_VA_FLAG;
  attr.value.vaFlag = 1;
  aclrtMallocConfig cfg{&attr, 1};
  void* ptr = nullptr;
  ASSERT_ACL_OK(aclrtMallocHostWithCfg(&ptr, 1000, &cfg));
  EXPECT_EQ(reinterpret_cast<uintptr_t>(ptr) % 64, 0u);
  std::memset(ptr, 0x3C, 1000);
  const aclrtPtrAttributes attributes =
      Attributes(static_cast<char*>(ptr) + 999);
  EXPECT_EQ(attributes.location.type, ACL_MEM_LOCATION_TYPE_HOST);
  ASSERT_ACL_OK(aclrtFreeHost(ptr));
  void* plain = nullptr;
  ASSERT_ACL_OK(aclrtMallocHostWithCfg(&plain, 64, nullptr));
  ASSERT_ACL_OK(aclrtFreeHost(plain));
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM,
                   aclrtMallocHostWithCfg(nullptr, 64, nullptr));
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM,
                   aclrtMallocHostWithCfg(&plain, 0, nullptr));
  attr.value.vaFlag = 3;
  EXPECT_ACL_ERROR(ACL_ERROR_RT_PARAM_INVALID,
                   aclrtMallocHostWithCfg(&plain, 64, &cfg));
}

// --- Pointer attributes and memory types -------------------------------------

TEST_F(MemoryExtApiTest, PointerAttributesTellDeviceHostAndUnknown) {
  void* dev = nullptr;
  void* host = nullptr;
  ASSERT_ACL_OK(aclrtMalloc(&dev, 8192, ACL_MEM_MALLOC_NORMAL_ONLY));
  ASSERT_ACL_OK(aclrtMallocHost(&host, 8192));
  aclrtPtrAttributes a = Attributes(static_cast<char*>(dev) + 8191);
  EXPECT_EQ(a.location.type, ACL_MEM_LOCATION_TYPE_DEVICE);
  EXPECT_EQ(a.location.id, 0u);
  EXPECT_EQ(a.pageSize, 4096u);
  EXPECT_EQ(a.rsv[0], 0u);
  a = Attributes(host);
  EXPECT_EQ(a.location.type, ACL_MEM_LOCATION_TYPE_HOST);
  EXPECT_EQ(a.pageSize, 4096u);
  int on_stack = 0;
  a = Attributes(&on_stack);
  EXPECT_EQ(a.location.type, ACL_MEM_LOCATION_TYPE_UNREGISTERED);

  ASSERT_ACL_OK(aclrtFree(dev));
  aclrtPtrAttributes untouched;
  std::memset(&untouched, 0x5A, sizeof untouched);
  EXPECT_ACL_ERROR(ACL_ERROR_RT_PARAM_INVALID,
                   aclrtPointerGetAttributes(dev, &untouched));
  EXPECT_EQ(untouched.pageSize, 0x5A5A5A5Au);
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM,
                   aclrtPointerGetAttributes(nullptr, &untouched));
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM,
                   aclrtPointerGetAttributes(host, nullptr));
  ASSERT_ACL_OK(aclrtFreeHost(host));
  a = Attributes(host);
  EXPECT_EQ(a.location.type, ACL_MEM_LOCATION_TYPE_UNREGISTERED);
}

TEST_F(MemoryExtApiTest, CheckMemTypeMatchesDeviceMemoryOnly) {
  void* dev[2] = {nullptr, nullptr};
  ASSERT_ACL_OK(aclrtMalloc(&dev[0], 64, ACL_MEM_MALLOC_HUGE_FIRST));
  ASSERT_ACL_OK(aclrtMalloc(&dev[1], 64, ACL_MEM_MALLOC_HUGE_FIRST));
  uint32_t result = 7;
  ASSERT_ACL_OK(aclrtCheckMemType(dev, 2, ACL_RT_MEM_TYPE_DEV, &result, 0));
  EXPECT_EQ(result, 1u);
  ASSERT_ACL_OK(aclrtCheckMemType(
      dev, 2, ACL_RT_MEM_TYPE_DEV | ACL_RT_MEM_TYPE_DVPP, &result, 0));
  EXPECT_EQ(result, 1u);
  ASSERT_ACL_OK(aclrtCheckMemType(dev, 2, ACL_RT_MEM_TYPE_DVPP, &result, 0));
  EXPECT_EQ(result, 0u);
  int on_stack = 0;
  void* mixed[2] = {dev[0], &on_stack};
  ASSERT_ACL_OK(aclrtCheckMemType(mixed, 2, ACL_RT_MEM_TYPE_DEV, &result, 0));
  EXPECT_EQ(result, 0u);

  EXPECT_ACL_ERROR(ACL_ERROR_RT_PARAM_INVALID,
                   aclrtCheckMemType(dev, 2, 0x1, &result, 0));
  EXPECT_ACL_ERROR(ACL_ERROR_RT_PARAM_INVALID,
                   aclrtCheckMemType(dev, 0, ACL_RT_MEM_TYPE_DEV, &result, 0));
  EXPECT_ACL_ERROR(ACL_ERROR_RT_PARAM_INVALID,
                   aclrtCheckMemType(dev, 2, ACL_RT_MEM_TYPE_DEV, &result, 1));
  EXPECT_ACL_ERROR(
      ACL_ERROR_INVALID_PARAM,
      aclrtCheckMemType(nullptr, 2, ACL_RT_MEM_TYPE_DEV, &result, 0));
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM,
                   aclrtCheckMemType(dev, 2, ACL_RT_MEM_TYPE_DEV, nullptr, 0));
  ASSERT_ACL_OK(aclrtFree(dev[0]));
  ASSERT_ACL_OK(aclrtFree(dev[1]));
}

TEST_F(MemoryExtApiTest, MemUsageInfoCountsModulesLargestFirst) {
  aclrtMallocAttribute attr;
  std::memset(&attr, 0, sizeof attr);
  attr.attr = ACL_RT_MEM_ATTR_MODULE_ID;
  attr.value.moduleId = 40;
  aclrtMallocConfig cfg{&attr, 1};
  void* app = nullptr;
  void* big = nullptr;
  ASSERT_ACL_OK(aclrtMalloc(&app, 1000, ACL_MEM_MALLOC_HUGE_FIRST));
  ASSERT_ACL_OK(
      aclrtMallocWithCfg(&big, 1 << 20, ACL_MEM_MALLOC_HUGE_FIRST, &cfg));
  aclrtMemUsageInfo infos[4];
  size_t n = 99;
  ASSERT_ACL_OK(aclrtGetMemUsageInfo(0, infos, 4, &n));
  ASSERT_GE(n, 2u);
  EXPECT_STREQ(infos[0].name, "MODULE_40");
  EXPECT_EQ(infos[0].curMemSize, 1u << 20);
  aclrtMemUsageInfo info;
  ASSERT_TRUE(Usage("APP", &info));
  EXPECT_GE(info.curMemSize, 1000u);
  ASSERT_ACL_OK(aclrtGetMemUsageInfo(0, infos, 1, &n));
  EXPECT_EQ(n, 1u);

  EXPECT_ACL_ERROR(ACL_ERROR_RT_INVALID_DEVICEID,
                   aclrtGetMemUsageInfo(99, infos, 4, &n));
  EXPECT_EQ(n, 0u);
  EXPECT_ACL_ERROR(ACL_ERROR_RT_PARAM_INVALID,
                   aclrtGetMemUsageInfo(0, infos, 0, &n));
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM,
                   aclrtGetMemUsageInfo(0, nullptr, 4, &n));
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM,
                   aclrtGetMemUsageInfo(0, infos, 4, nullptr));
  ASSERT_ACL_OK(aclrtFree(app));
  ASSERT_ACL_OK(aclrtFree(big));
  ASSERT_TRUE(Usage("MODULE_40", &info));
  EXPECT_EQ(info.curMemSize, 0u);
  EXPECT_EQ(info.memPeakSize, 1u << 20);
}

// --- Host registration
// -----------------------------------------------------------

// The call sequence of the simple_zero_copy example: pinned host buffers,
// registered and mapped, their device addresses handed to device work.
TEST_F(MemoryExtApiTest, RegisteredHostMemoryIsUsableByDeviceWork) {
  constexpr size_t kBytes = 1 << 16;
  aclrtStream stream = nullptr;
  ASSERT_ACL_OK(aclrtCreateStream(&stream));
  void* host = nullptr;
  ASSERT_ACL_OK(aclrtMallocHost(&host, kBytes));
  ASSERT_ACL_OK(aclrtHostRegisterV2(host, kBytes, ACL_HOST_REG_MAPPED));
  void* device_view = nullptr;
  ASSERT_ACL_OK(aclrtHostGetDevicePointer(host, &device_view, 0));
  EXPECT_EQ(device_view, host);  // one address space on the simulator
  void* inner = nullptr;
  ASSERT_ACL_OK(
      aclrtHostGetDevicePointer(static_cast<char*>(host) + 100, &inner, 0));
  EXPECT_EQ(inner, static_cast<char*>(host) + 100);
  std::memset(host, 0x42, kBytes);
  void* dev = nullptr;
  ASSERT_ACL_OK(aclrtMalloc(&dev, kBytes, ACL_MEM_MALLOC_HUGE_FIRST));
  ASSERT_ACL_OK(aclrtMemcpyAsync(dev, kBytes, device_view, kBytes,
                                 ACL_MEMCPY_HOST_TO_DEVICE, stream));
  ASSERT_ACL_OK(aclrtMemsetAsync(device_view, kBytes, 0, kBytes / 2, stream));
  ASSERT_ACL_OK(aclrtSynchronizeStream(stream));
  std::vector<uint8_t> back(kBytes);
  ASSERT_ACL_OK(
      aclrtMemcpy(back.data(), kBytes, dev, kBytes, ACL_MEMCPY_DEVICE_TO_HOST));
  EXPECT_EQ(back[kBytes - 1], 0x42);
  EXPECT_EQ(static_cast<uint8_t*>(host)[0], 0);
  EXPECT_EQ(Attributes(host).location.type, ACL_MEM_LOCATION_TYPE_HOST);
  ASSERT_ACL_OK(aclrtHostUnregister(host));
  EXPECT_ACL_ERROR(ACL_ERROR_HOST_MEMORY_NOT_REGISTERED,
                   aclrtHostGetDevicePointer(host, &device_view, 0));
  ASSERT_ACL_OK(aclrtFreeHost(host));
  ASSERT_ACL_OK(aclrtFree(dev));
  ASSERT_ACL_OK(aclrtDestroyStream(stream));
}

TEST_F(MemoryExtApiTest, HostRegisterV1ReturnsTheDeviceAddress) {
  PageAlignedBuffer pageable(1 << 14);
  void* dev = nullptr;
  ASSERT_ACL_OK(aclrtHostRegister(pageable.data(), pageable.size(),
                                  ACL_HOST_REGISTER_MAPPED, &dev));
  EXPECT_EQ(dev, pageable.data());
  const aclrtPtrAttributes a = Attributes(pageable.data() + 10);
  EXPECT_EQ(a.location.type, ACL_MEM_LOCATION_TYPE_HOST);
  void* again = nullptr;
  EXPECT_ACL_ERROR(ACL_ERROR_HOST_MEMORY_ALREADY_REGISTERED,
                   aclrtHostRegister(pageable.data() + 4096, 16,
                                     ACL_HOST_REGISTER_MAPPED, &again));
  // 11-02, `ptr`: the address must be 4 KiB aligned.
  EXPECT_ACL_ERROR(ACL_ERROR_RT_PARAM_INVALID,
                   aclrtHostRegister(pageable.data() + 64, 16,
                                     ACL_HOST_REGISTER_MAPPED, &again));
  EXPECT_ACL_ERROR(ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
                   aclrtHostRegister(pageable.data(), 16,
                                     ACL_HOST_REGISTER_IOMEMORY, &again));
  EXPECT_ACL_ERROR(
      ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
      aclrtHostRegister(pageable.data(), 16,
                        static_cast<aclrtHostRegisterType>(0x10), &again));
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM,
                   aclrtHostRegister(pageable.data(), 16,
                                     ACL_HOST_REGISTER_MAPPED, nullptr));
  EXPECT_ACL_ERROR(
      ACL_ERROR_INVALID_PARAM,
      aclrtHostRegister(pageable.data(), 0, ACL_HOST_REGISTER_MAPPED, &again));
  ASSERT_ACL_OK(aclrtHostUnregister(pageable.data()));
  EXPECT_ACL_ERROR(ACL_ERROR_HOST_MEMORY_NOT_REGISTERED,
                   aclrtHostUnregister(pageable.data()));
}

TEST_F(MemoryExtApiTest, HostRegisterV2ValidatesFlagsAndRanges) {
  PageAlignedBuffer pageable(1 << 14);
  char* p = pageable.data();
  void* pinned = nullptr;
  ASSERT_ACL_OK(aclrtMallocHost(&pinned, 4096));
  void* dev = nullptr;
  ASSERT_ACL_OK(aclrtMalloc(&dev, 4096, ACL_MEM_MALLOC_HUGE_FIRST));
  EXPECT_ACL_ERROR(ACL_ERROR_RT_PARAM_INVALID, aclrtHostRegisterV2(p, 64, 0));
  EXPECT_ACL_ERROR(ACL_ERROR_RT_PARAM_INVALID, aclrtHostRegisterV2(p, 64, 0x1));
  EXPECT_ACL_ERROR(ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
                   aclrtHostRegisterV2(p, 64, ACL_HOST_REG_READONLY));
  EXPECT_ACL_ERROR(ACL_ERROR_RT_PARAM_INVALID,
                   aclrtHostRegisterV2(
                       pinned, 64, ACL_HOST_REG_MAPPED | ACL_HOST_REG_PINNED));
  EXPECT_ACL_ERROR(ACL_ERROR_RT_PARAM_INVALID,
                   aclrtHostRegisterV2(dev, 64, ACL_HOST_REG_MAPPED));
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM,
                   aclrtHostRegisterV2(nullptr, 64, ACL_HOST_REG_MAPPED));
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM,
                   aclrtHostRegisterV2(p, 0, ACL_HOST_REG_MAPPED));
  ASSERT_ACL_OK(
      aclrtHostRegisterV2(p, 4096, ACL_HOST_REG_MAPPED | ACL_HOST_REG_PINNED));
  // Overlaps; the neighbour is free. An address off a 4 KiB page is
  // refused first (11-02, aclrtHostRegisterV2 `ptr`).
  EXPECT_ACL_ERROR(ACL_ERROR_RT_PARAM_INVALID,
                   aclrtHostRegisterV2(p + 4095, 16, ACL_HOST_REG_MAPPED));
  EXPECT_ACL_ERROR(ACL_ERROR_HOST_MEMORY_ALREADY_REGISTERED,
                   aclrtHostRegisterV2(p - 0, 1, ACL_HOST_REG_MAPPED));
  ASSERT_ACL_OK(aclrtHostRegisterV2(p + 4096, 4096, ACL_HOST_REG_MAPPED));
  void* view = nullptr;
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM,
                   aclrtHostGetDevicePointer(p, &view, 1));
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM,
                   aclrtHostGetDevicePointer(p, nullptr, 0));
  EXPECT_ACL_ERROR(ACL_ERROR_HOST_MEMORY_NOT_REGISTERED,
                   aclrtHostGetDevicePointer(p + 8192, &view, 0));
  EXPECT_ACL_ERROR(ACL_ERROR_HOST_MEMORY_NOT_REGISTERED,
                   aclrtHostUnregister(p + 1));
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM, aclrtHostUnregister(nullptr));
  ASSERT_ACL_OK(aclrtHostUnregister(p));
  ASSERT_ACL_OK(aclrtHostUnregister(p + 4096));
  ASSERT_ACL_OK(aclrtFreeHost(pinned));
  ASSERT_ACL_OK(aclrtFree(dev));
}

TEST_F(MemoryExtApiTest, HostMemMapCapabilities) {
  aclrtHostMemMapCapability capability = ACL_RT_HOST_MEM_MAP_NOT_SUPPORTED;
  ASSERT_ACL_OK(
      aclrtHostMemMapCapabilities(0, ACL_RT_HAC_TYPE_AIC, &capability));
  EXPECT_EQ(capability, ACL_RT_HOST_MEM_MAP_SUPPORTED);
  EXPECT_ACL_ERROR(
      ACL_ERROR_RT_INVALID_DEVICEID,
      aclrtHostMemMapCapabilities(99, ACL_RT_HAC_TYPE_AIC, &capability));
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM,
                   aclrtHostMemMapCapabilities(0, static_cast<aclrtHacType>(99),
                                               &capability));
  EXPECT_ACL_ERROR(
      ACL_ERROR_INVALID_PARAM,
      aclrtHostMemMapCapabilities(0, ACL_RT_HAC_TYPE_AIC, nullptr));
}

// --- Uncorrectable memory errors
// -----------------------------------------------

TEST_F(MemoryExtApiTest, MemoryErrorFailsReadsUntilRepaired) {
  constexpr size_t kBytes = 1 << 16;
  void* dev = nullptr;
  ASSERT_ACL_OK(aclrtMalloc(&dev, kBytes, ACL_MEM_MALLOC_HUGE_FIRST));
  ASSERT_ACL_OK(aclrtMemset(dev, kBytes, 0x77, kBytes));
  char* bad = static_cast<char*>(dev) + 4096;
  ASSERT_ACL_OK(aclsimInjectMemoryError(0, bad, 4096));

  std::vector<uint8_t> out(kBytes, 0);
  EXPECT_ACL_ERROR(
      ACL_ERROR_RT_DEVICE_MEM_ERROR,
      aclrtMemcpy(out.data(), kBytes, dev, kBytes, ACL_MEMCPY_DEVICE_TO_HOST));
  ASSERT_ACL_OK(aclrtMemcpy(out.data(), 4096, dev, 4096,
                            ACL_MEMCPY_DEVICE_TO_HOST));  // a healthy part
  EXPECT_EQ(out[0], 0x77);
  // Stream work meets it too.
  aclrtStream stream = nullptr;
  ASSERT_ACL_OK(aclrtCreateStream(&stream));
  ASSERT_ACL_OK(aclrtMemcpyAsync(out.data(), kBytes, dev, kBytes,
                                 ACL_MEMCPY_DEVICE_TO_HOST, stream));
  EXPECT_ACL_ERROR(ACL_ERROR_RT_DEVICE_MEM_ERROR,
                   aclrtSynchronizeStream(stream));
  ASSERT_ACL_OK(aclrtDestroyStreamForce(stream));

  aclrtMemUceInfo infos[4];
  size_t n = 0;
  ASSERT_ACL_OK(aclrtGetMemUceInfo(0, infos, 4, &n));
  ASSERT_EQ(n, 1u);
  EXPECT_EQ(infos[0].addr, bad);
  EXPECT_EQ(infos[0].len, 4096u);
  EXPECT_EQ(infos[0].reserved[0], 0u);

  aclrtMemUceInfo unknown = infos[0];
  unknown.addr = static_cast<char*>(dev) + 32768;
  EXPECT_ACL_ERROR(ACL_ERROR_RT_PARAM_INVALID,
                   aclrtMemUceRepair(0, &unknown, 1));
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM, aclrtMemUceRepair(0, infos, 0));
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM, aclrtMemUceRepair(0, nullptr, 1));
  ASSERT_ACL_OK(aclrtMemUceRepair(0, infos, n));
  ASSERT_ACL_OK(aclrtGetMemUceInfo(0, infos, 4, &n));
  EXPECT_EQ(n, 0u);
  ASSERT_ACL_OK(
      aclrtMemcpy(out.data(), kBytes, dev, kBytes, ACL_MEMCPY_DEVICE_TO_HOST));
  EXPECT_EQ(out[4095], 0x77);
  EXPECT_EQ(out[4096], 0);  // the repaired range lost its contents
  EXPECT_EQ(out[8191], 0);
  EXPECT_EQ(out[8192], 0x77);
  ASSERT_ACL_OK(aclrtFree(dev));
}

TEST_F(MemoryExtApiTest, MemoryErrorInfoAndInjectionRejectBadArguments) {
  void* dev = nullptr;
  ASSERT_ACL_OK(aclrtMalloc(&dev, 8192, ACL_MEM_MALLOC_HUGE_FIRST));
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM,
                   aclsimInjectMemoryError(0, dev, 8193));
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM, aclsimInjectMemoryError(0, dev, 0));
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM,
                   aclsimInjectMemoryError(99, dev, 64));
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM,
                   aclsimInjectMemoryError(1, dev, 64));  // not device 1's
  int on_stack = 0;
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM,
                   aclsimInjectMemoryError(0, &on_stack, 4));
  aclrtMemUceInfo infos[2];
  size_t n = 5;
  EXPECT_ACL_ERROR(ACL_ERROR_RT_INVALID_DEVICEID,
                   aclrtGetMemUceInfo(99, infos, 2, &n));
  EXPECT_ACL_ERROR(ACL_ERROR_RT_INVALID_DEVICEID,
                   aclrtGetMemUceInfo(1, infos, 2, &n));  // not set
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM,
                   aclrtGetMemUceInfo(0, nullptr, 2, &n));
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM,
                   aclrtGetMemUceInfo(0, infos, 2, nullptr));
  ASSERT_ACL_OK(aclrtGetMemUceInfo(0, infos, 2, &n));
  EXPECT_EQ(n, 0u);
  // Freeing the allocation drops its errors.
  ASSERT_ACL_OK(aclsimInjectMemoryError(0, dev, 64));
  ASSERT_ACL_OK(aclrtFree(dev));
  ASSERT_ACL_OK(aclrtGetMemUceInfo(0, infos, 2, &n));
  EXPECT_EQ(n, 0u);
}

TEST_F(MemoryExtApiTest, RepairErrorRepairsMemoryErrors) {
  void* dev = nullptr;
  ASSERT_ACL_OK(aclrtMalloc(&dev, 8192, ACL_MEM_MALLOC_HUGE_FIRST));
  char* base = static_cast<char*>(dev);
  ASSERT_ACL_OK(aclsimInjectMemoryError(0, base, 512));
  ASSERT_ACL_OK(aclsimInjectMemoryError(0, base + 4096, 512));
  aclrtErrorInfo info;
  std::memset(&info, 0, sizeof info);
  info.errorType = ACL_RT_ERROR_MEMORY;
  info.hasDetail = 1;
  info.detail.uceInfo.arraySize = 1;
  info.detail.uceInfo.memUceInfoArray[0].addr = base + 4096;
  info.detail.uceInfo.memUceInfoArray[0].len = 512;
  ASSERT_ACL_OK(aclrtRepairError(0, &info));
  aclrtMemUceInfo left[4];
  size_t n = 0;
  ASSERT_ACL_OK(aclrtGetMemUceInfo(0, left, 4, &n));
  ASSERT_EQ(n, 1u);
  EXPECT_EQ(left[0].addr, base);
  info.hasDetail = 0;  // every error of the device
  ASSERT_ACL_OK(aclrtRepairError(0, &info));
  ASSERT_ACL_OK(aclrtGetMemUceInfo(0, left, 4, &n));
  EXPECT_EQ(n, 0u);
  uint8_t byte = 1;
  ASSERT_ACL_OK(aclrtMemcpy(&byte, 1, dev, 1, ACL_MEMCPY_DEVICE_TO_HOST));

  info.errorType = ACL_RT_NO_ERROR;
  EXPECT_ACL_OK(aclrtRepairError(0, &info));
  info.errorType = ACL_RT_ERROR_AICORE;
  EXPECT_ACL_ERROR(ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
                   aclrtRepairError(0, &info));
  info.errorType = ACL_RT_ERROR_MEMORY;
  info.hasDetail = 1;
  info.detail.uceInfo.arraySize = 0;
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM, aclrtRepairError(0, &info));
  info.detail.uceInfo.arraySize = 1;  // names no current error
  EXPECT_ACL_ERROR(ACL_ERROR_RT_PARAM_INVALID, aclrtRepairError(0, &info));
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM, aclrtRepairError(0, nullptr));
  ASSERT_ACL_OK(aclrtFree(dev));
}

TEST_F(MemoryExtApiTest, BackupRefusesMemoryWithErrorsAndRestoreClearsThem) {
  void* dev = nullptr;
  ASSERT_ACL_OK(aclrtMalloc(&dev, 8192, ACL_MEM_MALLOC_HUGE_FIRST));
  ASSERT_ACL_OK(aclrtMemset(dev, 8192, 0x19, 8192));
  ASSERT_ACL_OK(aclrtSnapShotProcessLock(getpid(), nullptr));
  ASSERT_ACL_OK(aclrtSnapShotProcessBackup(getpid(), nullptr));
  // An error after the Backup: the Restore writes the memory again.
  ASSERT_ACL_OK(aclsimInjectMemoryError(0, dev, 512));
  ASSERT_ACL_OK(aclrtSnapShotProcessRestore(getpid(), nullptr));
  ASSERT_ACL_OK(aclrtSnapShotProcessUnlock(getpid(), nullptr));
  aclrtMemUceInfo infos[2];
  size_t n = 9;
  ASSERT_ACL_OK(aclrtGetMemUceInfo(0, infos, 2, &n));
  EXPECT_EQ(n, 0u);
  uint8_t byte = 0;
  ASSERT_ACL_OK(aclrtMemcpy(&byte, 1, dev, 1, ACL_MEMCPY_DEVICE_TO_HOST));
  EXPECT_EQ(byte, 0x19);
  // An error before the Backup: it cannot save memory it cannot read.
  ASSERT_ACL_OK(aclsimInjectMemoryError(0, dev, 512));
  ASSERT_ACL_OK(aclrtSnapShotProcessLock(getpid(), nullptr));
  EXPECT_ACL_ERROR(ACL_ERROR_SNAPSHOT_BACKUP_FAILED,
                   aclrtSnapShotProcessBackup(getpid(), nullptr));
  ASSERT_ACL_OK(aclrtSnapShotProcessUnlock(getpid(), nullptr));
  ASSERT_ACL_OK(aclrtGetMemUceInfo(0, infos, 2, &n));
  ASSERT_EQ(n, 1u);
  ASSERT_ACL_OK(aclrtMemUceRepair(0, infos, n));
  ASSERT_ACL_OK(aclrtFree(dev));
}

}  // namespace
