// Managed memory through the ACL C API (DESIGN.md §5.15): allocation,
// advice, prefetch and range attributes; and the lifetimes of memory kinds
// across a device reset, a snapshot and the snapshot lock. The managed
// sequence follows CANN's example 3_memory_advanced/managed_memory/
// 0_uvm_allocate (without its kernel).
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "acl/acl.h"
#include "aclsim/aclsim.h"
#include "gtest/gtest.h"
#include "testing/status_matchers.h"

namespace {

constexpr size_t k2M = 2u << 20;

class ManagedMemoryApiTest : public ::testing::Test {
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

  static int32_t IntAttr(aclrtMemManagedRangeAttribute attribute,
                         const void* ptr, size_t size) {
    int32_t value = 12345;
    EXPECT_ACL_OK(
        aclrtMemManagedGetAttr(attribute, ptr, size, &value, sizeof value));
    return value;
  }

  static aclrtMemManagedLocation Device(int32_t id) {
    return aclrtMemManagedLocation{ACL_MEM_LOCATIONTYPE_DEVICE, id};
  }
  static aclrtMemManagedLocation Host() {
    return aclrtMemManagedLocation{ACL_MEM_LOCATIONTYPE_HOST, 0};
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

// --- Managed memory
// ------------------------------------------------------------

// The call sequence of the uvm_allocate example: allocate three managed
// buffers, fill the inputs from the host, use them on the device, free them.
TEST_F(ManagedMemoryApiTest, ManagedMemoryIsAddressableFromHostAndDevice) {
  aclrtStream stream = nullptr;
  ASSERT_ACL_OK(aclrtCreateStream(&stream));
  constexpr size_t kCount = 1000;
  float* x = nullptr;
  float* y = nullptr;
  float* z = nullptr;
  ASSERT_ACL_OK(aclrtMemAllocManaged(reinterpret_cast<void**>(&x),
                                     kCount * sizeof(float),
                                     ACL_RT_MEM_ATTACH_GLOBAL));
  ASSERT_ACL_OK(aclrtMemAllocManaged(reinterpret_cast<void**>(&y),
                                     kCount * sizeof(float),
                                     ACL_RT_MEM_ATTACH_GLOBAL));
  ASSERT_ACL_OK(aclrtMemAllocManaged(reinterpret_cast<void**>(&z),
                                     kCount * sizeof(float),
                                     ACL_RT_MEM_ATTACH_GLOBAL));
  for (size_t i = 0; i < kCount; ++i) {
    x[i] = static_cast<float>(i);
    y[i] = 2.0f * static_cast<float>(i);
  }
  // Device work on the buffers (a copy in place of the example's kernel).
  ASSERT_ACL_OK(aclrtMemcpyAsync(z, kCount * sizeof(float), x,
                                 kCount * sizeof(float),
                                 ACL_MEMCPY_DEVICE_TO_DEVICE, stream));
  ASSERT_ACL_OK(aclrtSynchronizeStream(stream));
  for (size_t i = 0; i < kCount; ++i) ASSERT_EQ(z[i], static_cast<float>(i));
  // Rounded up to 2 MiB, all of it usable.
  static_cast<volatile char*>(static_cast<void*>(x))[k2M - 1] = 1;
  const aclrtPtrAttributes a = Attributes(x);
  EXPECT_EQ(a.location.type, ACL_MEM_LOCATION_TYPE_MANAGED);
  EXPECT_EQ(a.location.id, 0u);
  EXPECT_EQ(a.pageSize, k2M);
  EXPECT_EQ(reinterpret_cast<uintptr_t>(x) % k2M, 0u);
  ASSERT_ACL_OK(aclrtFree(z));
  ASSERT_ACL_OK(aclrtFree(y));
  ASSERT_ACL_OK(aclrtFree(x));
  ASSERT_ACL_OK(aclrtDestroyStream(stream));

  void* ptr = nullptr;
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM,
                   aclrtMemAllocManaged(nullptr, 64, ACL_RT_MEM_ATTACH_GLOBAL));
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM,
                   aclrtMemAllocManaged(&ptr, 0, ACL_RT_MEM_ATTACH_GLOBAL));
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM, aclrtMemAllocManaged(&ptr, 64, 0));
  EXPECT_EQ(ptr, nullptr);
}

TEST_F(ManagedMemoryApiTest, ManagedAdviceIsRecordedPerPage) {
  void* ptr = nullptr;
  ASSERT_ACL_OK(aclrtMemAllocManaged(&ptr, 2 * k2M, ACL_RT_MEM_ATTACH_GLOBAL));
  char* second = static_cast<char*>(ptr) + k2M;
  EXPECT_EQ(IntAttr(ACL_MEM_RANGE_ATTRIBUTE_READ_MOSTLY, ptr, 2 * k2M), 0);
  EXPECT_EQ(IntAttr(ACL_MEM_RANGE_ATTRIBUTE_PREFERRED_LOCATION, ptr, 2 * k2M),
            -2);

  ASSERT_ACL_OK(
      aclrtMemManagedAdvise(ptr, k2M, ACL_MEM_ADVISE_SET_READ_MOSTLY, Host()));
  EXPECT_EQ(IntAttr(ACL_MEM_RANGE_ATTRIBUTE_READ_MOSTLY, ptr, k2M), 1);
  EXPECT_EQ(IntAttr(ACL_MEM_RANGE_ATTRIBUTE_READ_MOSTLY, ptr, 2 * k2M), 0);
  ASSERT_ACL_OK(aclrtMemManagedAdvise(second, k2M,
                                      ACL_MEM_ADVISE_SET_READ_MOSTLY, Host()));
  EXPECT_EQ(IntAttr(ACL_MEM_RANGE_ATTRIBUTE_READ_MOSTLY, ptr, 2 * k2M), 1);
  ASSERT_ACL_OK(aclrtMemManagedAdvise(
      ptr, 2 * k2M, ACL_MEM_ADVISE_UNSET_READ_MOSTLY, Host()));
  EXPECT_EQ(IntAttr(ACL_MEM_RANGE_ATTRIBUTE_READ_MOSTLY, ptr, 2 * k2M), 0);

  ASSERT_ACL_OK(aclrtMemManagedAdvise(
      ptr, 2 * k2M, ACL_MEM_ADVISE_SET_PREFERRED_LOCATION, Device(0)));
  EXPECT_EQ(IntAttr(ACL_MEM_RANGE_ATTRIBUTE_PREFERRED_LOCATION, ptr, 2 * k2M),
            0);
  EXPECT_EQ(
      IntAttr(ACL_MEM_RANGE_ATTRIBUTE_PREFERRED_LOCATION_TYPE, ptr, 2 * k2M),
      ACL_MEM_LOCATIONTYPE_DEVICE);
  EXPECT_EQ(IntAttr(ACL_MEM_RANGE_ATTRIBUTE_PREFERRED_LOCATION_ID, ptr, k2M),
            0);
  ASSERT_ACL_OK(aclrtMemManagedAdvise(
      second, k2M, ACL_MEM_ADVISE_SET_PREFERRED_LOCATION, Host()));
  EXPECT_EQ(IntAttr(ACL_MEM_RANGE_ATTRIBUTE_PREFERRED_LOCATION, second, k2M),
            -1);
  EXPECT_EQ(IntAttr(ACL_MEM_RANGE_ATTRIBUTE_PREFERRED_LOCATION, ptr, 2 * k2M),
            -2);
  EXPECT_EQ(
      IntAttr(ACL_MEM_RANGE_ATTRIBUTE_PREFERRED_LOCATION_TYPE, ptr, 2 * k2M),
      ACL_MEM_LOCATIONTYPE_INVALID);
  ASSERT_ACL_OK(aclrtMemManagedAdvise(
      ptr, 2 * k2M, ACL_MEM_ADVISE_UNSET_PREFERRED_LOCATION, Host()));
  EXPECT_EQ(IntAttr(ACL_MEM_RANGE_ATTRIBUTE_PREFERRED_LOCATION, ptr, 2 * k2M),
            -2);

  ASSERT_ACL_OK(aclrtMemManagedAdvise(
      ptr, 2 * k2M, ACL_MEM_ADVISE_SET_ACCESSED_BY, Device(1)));
  ASSERT_ACL_OK(
      aclrtMemManagedAdvise(ptr, k2M, ACL_MEM_ADVISE_SET_ACCESSED_BY, Host()));
  int32_t by[4] = {7, 7, 7, 7};
  ASSERT_ACL_OK(aclrtMemManagedGetAttr(ACL_MEM_RANGE_ATTRIBUTE_ACCESSED_BY, ptr,
                                       k2M, by, sizeof by));
  EXPECT_EQ(by[0], 1);
  EXPECT_EQ(by[1], -1);
  EXPECT_EQ(by[2], -2);
  EXPECT_EQ(by[3], -2);
  ASSERT_ACL_OK(aclrtMemManagedGetAttr(ACL_MEM_RANGE_ATTRIBUTE_ACCESSED_BY, ptr,
                                       2 * k2M, by, sizeof by));
  EXPECT_EQ(by[0], 1);  // the host was advised for the first page only
  EXPECT_EQ(by[1], -2);
  ASSERT_ACL_OK(aclrtMemManagedAdvise(
      ptr, 2 * k2M, ACL_MEM_ADVISE_UNSET_ACCESSED_BY, Device(1)));
  ASSERT_ACL_OK(aclrtMemManagedGetAttr(ACL_MEM_RANGE_ATTRIBUTE_ACCESSED_BY, ptr,
                                       k2M, by, sizeof by));
  EXPECT_EQ(by[0], -1);
  EXPECT_EQ(by[1], -2);

  // Several at once.
  ASSERT_ACL_OK(aclrtMemManagedAdvise(ptr, 2 * k2M,
                                      ACL_MEM_ADVISE_SET_READ_MOSTLY, Host()));
  aclrtMemManagedRangeAttribute attributes[2] = {
      ACL_MEM_RANGE_ATTRIBUTE_READ_MOSTLY,
      ACL_MEM_RANGE_ATTRIBUTE_PREFERRED_LOCATION_ID};
  int32_t read_mostly = 0;
  int32_t preferred_id = 0;
  void* data[2] = {&read_mostly, &preferred_id};
  size_t sizes[2] = {4, 4};
  ASSERT_ACL_OK(
      aclrtMemManagedGetAttrs(attributes, 2, ptr, 2 * k2M, data, sizes));
  EXPECT_EQ(read_mostly, 1);
  EXPECT_EQ(preferred_id, -2);
  ASSERT_ACL_OK(aclrtFree(ptr));
}

TEST_F(ManagedMemoryApiTest, ManagedAdviceAndAttributesRejectBadArguments) {
  void* ptr = nullptr;
  void* plain = nullptr;
  ASSERT_ACL_OK(aclrtMemAllocManaged(&ptr, k2M, ACL_RT_MEM_ATTACH_GLOBAL));
  ASSERT_ACL_OK(aclrtMalloc(&plain, k2M, ACL_MEM_MALLOC_HUGE_ONLY));
  const auto set_preferred = ACL_MEM_ADVISE_SET_PREFERRED_LOCATION;
  EXPECT_ACL_ERROR(ACL_ERROR_RT_PARAM_INVALID,
                   aclrtMemManagedAdvise(ptr, 4096, set_preferred, Device(0)));
  EXPECT_ACL_ERROR(
      ACL_ERROR_RT_PARAM_INVALID,
      aclrtMemManagedAdvise(ptr, 2 * k2M, set_preferred, Device(0)));
  EXPECT_ACL_ERROR(ACL_ERROR_RT_PARAM_INVALID,
                   aclrtMemManagedAdvise(plain, k2M, set_preferred, Device(0)));
  EXPECT_ACL_ERROR(ACL_ERROR_RT_PARAM_INVALID,
                   aclrtMemManagedAdvise(ptr, k2M, set_preferred, Device(99)));
  aclrtMemManagedLocation bad{ACL_MEM_LOCATIONTYPE_INVALID, 0};
  EXPECT_ACL_ERROR(ACL_ERROR_RT_PARAM_INVALID,
                   aclrtMemManagedAdvise(ptr, k2M, set_preferred, bad));
  aclrtMemManagedLocation numa{ACL_MEM_LOCATIONTYPE_HOST_NUMA, 3};
  EXPECT_ACL_ERROR(ACL_ERROR_RT_PARAM_INVALID,
                   aclrtMemManagedAdvise(ptr, k2M, set_preferred, numa));
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM,
                   aclrtMemManagedAdvise(nullptr, k2M, set_preferred, Host()));
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM,
                   aclrtMemManagedAdvise(ptr, 0, set_preferred, Host()));
  EXPECT_ACL_ERROR(
      ACL_ERROR_INVALID_PARAM,
      aclrtMemManagedAdvise(
          ptr, k2M, static_cast<aclrtMemManagedAdviseType>(99), Host()));
  // Nothing of that changed the range.
  EXPECT_EQ(IntAttr(ACL_MEM_RANGE_ATTRIBUTE_PREFERRED_LOCATION, ptr, k2M), -2);
  // The current NUMA node is node 0.
  aclrtMemManagedLocation current{ACL_MEM_LOCATIONTYPE_HOST_NUMA_CURRENT, 9};
  ASSERT_ACL_OK(aclrtMemManagedAdvise(ptr, k2M, set_preferred, current));
  EXPECT_EQ(IntAttr(ACL_MEM_RANGE_ATTRIBUTE_PREFERRED_LOCATION_TYPE, ptr, k2M),
            ACL_MEM_LOCATIONTYPE_HOST_NUMA);
  EXPECT_EQ(IntAttr(ACL_MEM_RANGE_ATTRIBUTE_PREFERRED_LOCATION_ID, ptr, k2M),
            0);

  int64_t wide = 0;
  EXPECT_ACL_ERROR(ACL_ERROR_RT_PARAM_INVALID,
                   aclrtMemManagedGetAttr(ACL_MEM_RANGE_ATTRIBUTE_READ_MOSTLY,
                                          ptr, k2M, &wide, sizeof wide));
  int32_t value = 0;
  EXPECT_ACL_ERROR(ACL_ERROR_RT_PARAM_INVALID,
                   aclrtMemManagedGetAttr(ACL_MEM_RANGE_ATTRIBUTE_ACCESSED_BY,
                                          ptr, k2M, &value, 3));
  EXPECT_ACL_ERROR(ACL_ERROR_RT_PARAM_INVALID,
                   aclrtMemManagedGetAttr(ACL_MEM_RANGE_ATTRIBUTE_READ_MOSTLY,
                                          plain, k2M, &value, 4));
  EXPECT_ACL_ERROR(
      ACL_ERROR_INVALID_PARAM,
      aclrtMemManagedGetAttr(static_cast<aclrtMemManagedRangeAttribute>(0), ptr,
                             k2M, &value, 4));
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM,
                   aclrtMemManagedGetAttr(ACL_MEM_RANGE_ATTRIBUTE_READ_MOSTLY,
                                          ptr, 0, &value, 4));
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM,
                   aclrtMemManagedGetAttr(ACL_MEM_RANGE_ATTRIBUTE_READ_MOSTLY,
                                          ptr, k2M, nullptr, 4));
  aclrtMemManagedRangeAttribute attribute = ACL_MEM_RANGE_ATTRIBUTE_READ_MOSTLY;
  void* data = &value;
  size_t size = 4;
  EXPECT_ACL_ERROR(
      ACL_ERROR_INVALID_PARAM,
      aclrtMemManagedGetAttrs(&attribute, 0, ptr, k2M, &data, &size));
  EXPECT_ACL_ERROR(
      ACL_ERROR_INVALID_PARAM,
      aclrtMemManagedGetAttrs(&attribute, 1, ptr, k2M, nullptr, &size));
  ASSERT_ACL_OK(aclrtFree(plain));
  ASSERT_ACL_OK(aclrtFree(ptr));
}

TEST_F(ManagedMemoryApiTest, PrefetchIsOrderedAndRecorded) {
  aclrtStream stream = nullptr;
  ASSERT_ACL_OK(aclrtCreateStream(&stream));
  void* a = nullptr;
  void* b = nullptr;
  ASSERT_ACL_OK(aclrtMemAllocManaged(&a, 2 * k2M, ACL_RT_MEM_ATTACH_GLOBAL));
  ASSERT_ACL_OK(aclrtMemAllocManaged(&b, k2M, ACL_RT_MEM_ATTACH_GLOBAL));
  ASSERT_ACL_OK(aclrtMemManagedPrefetchAsync(a, 2 * k2M, Device(0), 0, stream));
  ASSERT_ACL_OK(aclrtSynchronizeStream(stream));
  EXPECT_EQ(IntAttr(ACL_MEM_RANGE_ATTRIBUTE_LAST_PREFETCH_LOCATION, a, 2 * k2M),
            0);
  EXPECT_EQ(
      IntAttr(ACL_MEM_RANGE_ATTRIBUTE_LAST_PREFETCH_LOCATION_TYPE, a, 2 * k2M),
      ACL_MEM_LOCATIONTYPE_DEVICE);

  // Batch: the second half of a and all of b go to the host.
  const void* ptrs[3] = {a, static_cast<char*>(a) + k2M, b};
  size_t sizes[3] = {k2M, k2M, k2M};
  aclrtMemManagedLocation locations[2] = {Device(1), Host()};
  size_t starts[2] = {0, 1};
  ASSERT_ACL_OK(aclrtMemManagedPrefetchBatchAsync(ptrs, sizes, 3, locations,
                                                  starts, 2, 0, stream));
  ASSERT_ACL_OK(aclrtSynchronizeStream(stream));
  EXPECT_EQ(IntAttr(ACL_MEM_RANGE_ATTRIBUTE_LAST_PREFETCH_LOCATION, a, k2M), 1);
  EXPECT_EQ(IntAttr(ACL_MEM_RANGE_ATTRIBUTE_LAST_PREFETCH_LOCATION,
                    static_cast<char*>(a) + k2M, k2M),
            -1);
  EXPECT_EQ(IntAttr(ACL_MEM_RANGE_ATTRIBUTE_LAST_PREFETCH_LOCATION, a, 2 * k2M),
            -2);
  EXPECT_EQ(IntAttr(ACL_MEM_RANGE_ATTRIBUTE_LAST_PREFETCH_LOCATION_ID, b, k2M),
            -2);
  EXPECT_EQ(
      IntAttr(ACL_MEM_RANGE_ATTRIBUTE_LAST_PREFETCH_LOCATION_TYPE, b, k2M),
      ACL_MEM_LOCATIONTYPE_HOST);

  // Errors change nothing.
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM,
                   aclrtMemManagedPrefetchAsync(a, k2M, Host(), 1, stream));
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM,
                   aclrtMemManagedPrefetchAsync(a, 0, Host(), 0, stream));
  EXPECT_ACL_ERROR(ACL_ERROR_RT_PARAM_INVALID,
                   aclrtMemManagedPrefetchAsync(a, 4096, Host(), 0, stream));
  EXPECT_ACL_ERROR(ACL_ERROR_RT_PARAM_INVALID,
                   aclrtMemManagedPrefetchAsync(a, k2M, Device(42), 0, stream));
  size_t bad_starts[2] = {1, 2};
  EXPECT_ACL_ERROR(ACL_ERROR_RT_PARAM_INVALID,
                   aclrtMemManagedPrefetchBatchAsync(ptrs, sizes, 3, locations,
                                                     bad_starts, 2, 0, stream));
  size_t unordered[2] = {0, 0};
  EXPECT_ACL_ERROR(ACL_ERROR_RT_PARAM_INVALID,
                   aclrtMemManagedPrefetchBatchAsync(ptrs, sizes, 3, locations,
                                                     unordered, 2, 0, stream));
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM,
                   aclrtMemManagedPrefetchBatchAsync(ptrs, sizes, 1, locations,
                                                     starts, 2, 0, stream));
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM,
                   aclrtMemManagedPrefetchBatchAsync(
                       nullptr, sizes, 3, locations, starts, 2, 0, stream));
  int on_stack = 0;
  const void* not_managed[1] = {&on_stack};
  EXPECT_ACL_ERROR(ACL_ERROR_RT_PARAM_INVALID,
                   aclrtMemManagedPrefetchBatchAsync(
                       not_managed, sizes, 1, locations, starts, 1, 0, stream));
  EXPECT_EQ(IntAttr(ACL_MEM_RANGE_ATTRIBUTE_LAST_PREFETCH_LOCATION, a, k2M), 1);
  ASSERT_ACL_OK(aclrtFree(a));
  ASSERT_ACL_OK(aclrtFree(b));
  ASSERT_ACL_OK(aclrtDestroyStream(stream));
}

// --- Lifetimes: reset, snapshot, gate ----------------------------------------

TEST_F(ManagedMemoryApiTest, ResetDropsManagedMemoryAndUsage) {
  void* ptr = nullptr;
  ASSERT_ACL_OK(aclrtMemAllocManaged(&ptr, k2M, ACL_RT_MEM_ATTACH_GLOBAL));
  ASSERT_ACL_OK(aclrtResetDeviceForce(0));
  aclrtPtrAttributes attributes;
  EXPECT_ACL_ERROR(ACL_ERROR_RT_PARAM_INVALID,
                   aclrtPointerGetAttributes(ptr, &attributes));
  int32_t value = 0;
  EXPECT_ACL_ERROR(ACL_ERROR_RT_PARAM_INVALID,
                   aclrtMemManagedGetAttr(ACL_MEM_RANGE_ATTRIBUTE_READ_MOSTLY,
                                          ptr, k2M, &value, 4));
  ASSERT_ACL_OK(aclrtSetDevice(0));
  aclrtMemUsageInfo info;
  if (Usage("APP", &info)) {
    EXPECT_EQ(info.curMemSize, 0u);
  }
}

TEST_F(ManagedMemoryApiTest, ManagedMemoryAndRegistrationsSurviveSnapshot) {
  constexpr size_t kBytes = 3 * k2M;
  uint8_t* managed = nullptr;
  ASSERT_ACL_OK(aclrtMemAllocManaged(reinterpret_cast<void**>(&managed), kBytes,
                                     ACL_RT_MEM_ATTACH_GLOBAL));
  for (size_t i = 0; i < kBytes; i += 4093) {
    managed[i] = static_cast<uint8_t>(i * 7 + 1);
  }
  ASSERT_ACL_OK(aclrtMemManagedAdvise(managed, k2M,
                                      ACL_MEM_ADVISE_SET_READ_MOSTLY, Host()));
  ASSERT_ACL_OK(aclrtMemManagedAdvise(
      managed, kBytes, ACL_MEM_ADVISE_SET_PREFERRED_LOCATION, Device(0)));
  void* host = nullptr;
  ASSERT_ACL_OK(aclrtMallocHost(&host, 1 << 16));
  ASSERT_ACL_OK(aclrtHostRegisterV2(host, 1 << 16, ACL_HOST_REG_MAPPED));
  std::memset(host, 0x24, 1 << 16);

  ASSERT_ACL_OK(aclrtSnapShotProcessLock(getpid(), nullptr));
  ASSERT_ACL_OK(aclrtSnapShotProcessBackup(getpid(), nullptr));
  ASSERT_ACL_OK(aclsimInjectFault(0, ACLSIM_FAULT_DEVICE_MEMORY_LOSS));
  EXPECT_EQ(managed[0], 0);  // device memory really lost
  ASSERT_ACL_OK(aclrtSnapShotProcessRestore(getpid(), nullptr));
  ASSERT_ACL_OK(aclrtSnapShotProcessUnlock(getpid(), nullptr));

  for (size_t i = 0; i < kBytes; i += 4093) {
    ASSERT_EQ(managed[i], static_cast<uint8_t>(i * 7 + 1)) << i;
  }
  const aclrtPtrAttributes a = Attributes(managed + k2M);
  EXPECT_EQ(a.location.type, ACL_MEM_LOCATION_TYPE_MANAGED);
  EXPECT_EQ(IntAttr(ACL_MEM_RANGE_ATTRIBUTE_READ_MOSTLY, managed, k2M), 1);
  EXPECT_EQ(
      IntAttr(ACL_MEM_RANGE_ATTRIBUTE_PREFERRED_LOCATION, managed, kBytes), 0);
  // The registration is still there, and its host memory untouched.
  void* view = nullptr;
  ASSERT_ACL_OK(aclrtHostGetDevicePointer(host, &view, 0));
  EXPECT_EQ(view, host);
  EXPECT_EQ(static_cast<uint8_t*>(host)[100], 0x24);
  EXPECT_ACL_ERROR(ACL_ERROR_HOST_MEMORY_ALREADY_REGISTERED,
                   aclrtHostRegisterV2(host, 64, ACL_HOST_REG_MAPPED));
  ASSERT_ACL_OK(aclrtHostUnregister(host));
  ASSERT_ACL_OK(aclrtFreeHost(host));
  ASSERT_ACL_OK(aclrtFree(managed));
}

TEST_F(ManagedMemoryApiTest, AllocationAndRegistrationWaitWhileLocked) {
  // A registration starts on a 4 KiB page (11-02).
  std::unique_ptr<char, decltype(&std::free)> page(
      static_cast<char*>(std::aligned_alloc(4096, 4096)), &std::free);
  char* const pageable = page.get();
  ASSERT_ACL_OK(aclrtSnapShotProcessLock(getpid(), nullptr));
  std::atomic<bool> done{false};
  aclError managed_result = -1;
  aclError register_result = -1;
  void* ptr = nullptr;
  std::thread worker([&] {
    (void)aclrtSetDevice(0);
    managed_result = aclrtMemAllocManaged(&ptr, k2M, ACL_RT_MEM_ATTACH_GLOBAL);
    register_result = aclrtHostRegisterV2(pageable, 4096, ACL_HOST_REG_MAPPED);
    done = true;
  });
  std::this_thread::sleep_for(std::chrono::milliseconds(200));
  EXPECT_FALSE(done.load());
  ASSERT_ACL_OK(aclrtSnapShotProcessUnlock(getpid(), nullptr));
  worker.join();
  EXPECT_ACL_OK(managed_result);
  EXPECT_ACL_OK(register_result);
  // Queries do not wait.
  ASSERT_ACL_OK(aclrtSnapShotProcessLock(getpid(), nullptr));
  EXPECT_EQ(Attributes(ptr).location.type, ACL_MEM_LOCATION_TYPE_MANAGED);
  ASSERT_ACL_OK(aclrtSnapShotProcessUnlock(getpid(), nullptr));
  ASSERT_ACL_OK(aclrtHostUnregister(pageable));
  ASSERT_ACL_OK(aclrtFree(ptr));
}

}  // namespace
