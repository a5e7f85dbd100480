// Device and host memory, copies, fills and 64-bit value waits/writes through
// the ACL C API, on the default simulator (device memory is host-addressable,
// so host functions may touch it directly).
#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <cstring>
#include <thread>
#include <vector>

#include "acl/acl.h"
#include "aclsim/aclsim.h"
#include "gtest/gtest.h"
#include "testing/host_callbacks.h"
#include "testing/status_matchers.h"

namespace {

using ::ascend::testing::OnNewThread;
using ::ascend::testing::SetFlag;

using Clock = std::chrono::steady_clock;

constexpr size_t kBytes = 8192;

std::vector<uint8_t> Pattern(size_t n, uint8_t seed) {
  std::vector<uint8_t> bytes(n);
  for (size_t i = 0; i < n; ++i) {
    bytes[i] = static_cast<uint8_t>(seed + i * 13 + (i >> 8));
  }
  return bytes;
}

// Waits (bounded) until the stream has finished everything queued so far;
// false on timeout.
bool StreamDrainsWithin(aclrtStream stream, int32_t timeout_ms) {
  return aclrtSynchronizeStreamWithTimeout(stream, timeout_ms) == ACL_SUCCESS;
}

class MemoryApiTest : public ::testing::Test {
 protected:
  void SetUp() override { ASSERT_ACL_OK(aclrtSetDevice(0)); }
  void TearDown() override {
    (void)aclrtResetDeviceForce(0);
    (void)aclrtResetDeviceForce(1);
    (void)aclrtGetLastError(ACL_RT_THREAD_LEVEL);
  }

  size_t FreeBytes() {
    size_t free_bytes = 0;
    size_t total = 0;
    EXPECT_ACL_OK(aclrtGetMemInfo(ACL_HBM_MEM, &free_bytes, &total));
    return free_bytes;
  }

  void* Malloc(size_t size) {
    void* ptr = nullptr;
    EXPECT_ACL_OK(aclrtMalloc(&ptr, size, ACL_MEM_MALLOC_HUGE_FIRST));
    return ptr;
  }

  std::vector<uint8_t> Read(const void* device, size_t n) {
    std::vector<uint8_t> out(n, 0xEE);
    EXPECT_ACL_OK(
        aclrtMemcpy(out.data(), n, device, n, ACL_MEMCPY_DEVICE_TO_HOST));
    return out;
  }
};

// --- Malloc / Free / GetMemInfo ----------------------------------------------

TEST_F(MemoryApiTest, MallocRejectsBadArgumentsAndChangesNothing) {
  const size_t before = FreeBytes();
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM,
                   aclrtMalloc(nullptr, 64, ACL_MEM_MALLOC_HUGE_FIRST));
  void* ptr = reinterpret_cast<void*>(0x1234);
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM,
                   aclrtMalloc(&ptr, 0, ACL_MEM_MALLOC_HUGE_FIRST));
  EXPECT_EQ(ptr, reinterpret_cast<void*>(0x1234));
  EXPECT_EQ(FreeBytes(), before);
}

// 11-01, aclrtMalloc `policy`: a value outside aclrtMemMallocPolicy is
// accepted and chooses by size (huge pages from 2 MiB, normal pages below);
// so is a value or-ing several items.
TEST_F(MemoryApiTest, MallocTakesAPolicyOutsideTheEnumeration) {
  struct Case {
    int32_t policy;
    size_t size;
    uint32_t page;
  };
  const Case cases[] = {
      {99, 4096, 4096},
      {99, 2u << 20, 2u << 20},
      {-1, 4096, 4096},
      {ACL_MEM_MALLOC_NORMAL_ONLY | ACL_MEM_TYPE_HIGH_BAND_WIDTH, 4u << 20,
       4096},
  };
  for (const Case& c : cases) {
    void* ptr = nullptr;
    ASSERT_ACL_OK(
        aclrtMalloc(&ptr, c.size, static_cast<aclrtMemMallocPolicy>(c.policy)))
        << c.policy;
    aclrtPtrAttributes attributes;
    ASSERT_ACL_OK(aclrtPointerGetAttributes(ptr, &attributes));
    EXPECT_EQ(attributes.pageSize, c.page) << c.policy << " " << c.size;
    ASSERT_ACL_OK(aclrtFree(ptr));
  }
  // The same sentence stands on aclrtMallocAlign32 and aclrtMallocCached.
  const auto outside = static_cast<aclrtMemMallocPolicy>(99);
  void* aligned = nullptr;
  ASSERT_ACL_OK(aclrtMallocAlign32(&aligned, 100, outside));
  ASSERT_ACL_OK(aclrtFree(aligned));
  void* cached = nullptr;
  ASSERT_ACL_OK(aclrtMallocCached(&cached, 100, outside));
  ASSERT_ACL_OK(aclrtFree(cached));
}

// 11-01, aclrtMallocCached constraints: one item of aclrtMemMallocPolicy,
// never several or-ed, and only HUGE_FIRST, HUGE_ONLY, NORMAL_ONLY or
// HUGE1G_ONLY. The others (the P2P policies, the type and access flags)
// and or-ed items are refused with 107000, allocating nothing; a value
// outside the enumeration still chooses by size (its parameter table).
TEST_F(MemoryApiTest, MallocCachedTakesOnlyFourPolicies) {
  const size_t before = FreeBytes();
  for (int32_t policy : std::initializer_list<int32_t>{
           ACL_MEM_MALLOC_HUGE_FIRST, ACL_MEM_MALLOC_HUGE_ONLY,
           ACL_MEM_MALLOC_NORMAL_ONLY, ACL_MEM_MALLOC_HUGE1G_ONLY, 99}) {
    void* ptr = nullptr;
    ASSERT_ACL_OK(aclrtMallocCached(&ptr, 4096,
                                    static_cast<aclrtMemMallocPolicy>(policy)))
        << policy;
    ASSERT_ACL_OK(aclrtFree(ptr));
  }
  for (int32_t policy : std::initializer_list<int32_t>{
           ACL_MEM_MALLOC_HUGE_FIRST_P2P, ACL_MEM_MALLOC_HUGE_ONLY_P2P,
           ACL_MEM_MALLOC_NORMAL_ONLY_P2P, ACL_MEM_MALLOC_HUGE1G_ONLY_P2P,
           ACL_MEM_TYPE_LOW_BAND_WIDTH, ACL_MEM_TYPE_HIGH_BAND_WIDTH,
           ACL_MEM_ACCESS_USER_SPACE_READONLY,
           ACL_MEM_MALLOC_NORMAL_ONLY | ACL_MEM_TYPE_HIGH_BAND_WIDTH,
           ACL_MEM_MALLOC_HUGE_ONLY | ACL_MEM_ACCESS_USER_SPACE_READONLY}) {
    void* ptr = reinterpret_cast<void*>(0x1234);
    EXPECT_ACL_ERROR(ACL_ERROR_RT_PARAM_INVALID,
                     aclrtMallocCached(
                         &ptr, 4096, static_cast<aclrtMemMallocPolicy>(policy)))
        << policy;
    EXPECT_EQ(ptr, reinterpret_cast<void*>(0x1234));
  }
  EXPECT_EQ(FreeBytes(), before);
  // aclrtMalloc's page has no such rule.
  void* p2p = nullptr;
  ASSERT_ACL_OK(aclrtMalloc(&p2p, 4096, ACL_MEM_MALLOC_HUGE_FIRST_P2P));
  ASSERT_ACL_OK(aclrtFree(p2p));
}

TEST_F(MemoryApiTest, MallocNeedsACurrentDevice) {
  OnNewThread([] {
    void* ptr = nullptr;
    EXPECT_ACL_ERROR(ACL_ERROR_RT_CONTEXT_NULL,
                     aclrtMalloc(&ptr, 64, ACL_MEM_MALLOC_HUGE_FIRST));
    EXPECT_EQ(ptr, nullptr);
    size_t free_bytes = 0;
    size_t total = 0;
    EXPECT_ACL_ERROR(ACL_ERROR_RT_CONTEXT_NULL,
                     aclrtGetMemInfo(ACL_HBM_MEM, &free_bytes, &total));
  });
}

TEST_F(MemoryApiTest, MallocIsZeroFilledAndAccounted) {
  const size_t before = FreeBytes();
  void* ptr = Malloc(kBytes);
  ASSERT_NE(ptr, nullptr);
  EXPECT_EQ(reinterpret_cast<uintptr_t>(ptr) % 512, 0u);
  EXPECT_LE(FreeBytes() + kBytes, before);
  EXPECT_EQ(Read(ptr, kBytes), std::vector<uint8_t>(kBytes, 0));
  ASSERT_ACL_OK(aclrtFree(ptr));
  EXPECT_EQ(FreeBytes(), before);
}

TEST_F(MemoryApiTest, FreeRejectsWhatIsNotALiveAllocation) {
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM, aclrtFree(nullptr));
  uint8_t* ptr = static_cast<uint8_t*>(Malloc(kBytes));
  const size_t allocated = FreeBytes();
  // Interior pointer, host pointer: refused, the allocation stays usable.
  EXPECT_ACL_ERROR(ACL_ERROR_RT_PARAM_INVALID, aclrtFree(ptr + 512));
  int on_host = 0;
  EXPECT_ACL_ERROR(ACL_ERROR_RT_PARAM_INVALID, aclrtFree(&on_host));
  EXPECT_EQ(FreeBytes(), allocated);
  EXPECT_ACL_OK(aclrtMemset(ptr, kBytes, 3, kBytes));
  ASSERT_ACL_OK(aclrtFree(ptr));
  EXPECT_ACL_ERROR(ACL_ERROR_RT_PARAM_INVALID, aclrtFree(ptr));
}

TEST_F(MemoryApiTest, GetMemInfo) {
  size_t free_bytes = 0;
  size_t total = 0;
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM,
                   aclrtGetMemInfo(ACL_HBM_MEM, nullptr, &total));
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM,
                   aclrtGetMemInfo(ACL_HBM_MEM, &free_bytes, nullptr));
  EXPECT_ACL_ERROR(
      ACL_ERROR_INVALID_PARAM,
      aclrtGetMemInfo(static_cast<aclrtMemAttr>(99), &free_bytes, &total));
  ASSERT_ACL_OK(aclrtGetMemInfo(ACL_DDR_MEM, &free_bytes, &total));
  // The simulator's default: 64 GiB of device address space per device.
  EXPECT_EQ(total, size_t{64} << 30);
  EXPECT_EQ(free_bytes, total);
}

TEST_F(MemoryApiTest, MallocHostAndFreeHost) {
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM, aclrtMallocHost(nullptr, 64));
  void* host = nullptr;
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM, aclrtMallocHost(&host, 0));
  EXPECT_EQ(host, nullptr);
  ASSERT_ACL_OK(aclrtMallocHost(&host, kBytes));
  ASSERT_NE(host, nullptr);
  std::memset(host, 0x42, kBytes);
  // Pinned host memory works as a copy source and is not device memory.
  void* device = Malloc(kBytes);
  ASSERT_ACL_OK(
      aclrtMemcpy(device, kBytes, host, kBytes, ACL_MEMCPY_HOST_TO_DEVICE));
  EXPECT_EQ(Read(device, kBytes), std::vector<uint8_t>(kBytes, 0x42));
  EXPECT_ACL_ERROR(ACL_ERROR_RT_PARAM_INVALID, aclrtFree(host));
  EXPECT_ACL_ERROR(ACL_ERROR_RT_PARAM_INVALID, aclrtFreeHost(device));

  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM, aclrtFreeHost(nullptr));
  int not_pinned = 0;
  EXPECT_ACL_ERROR(ACL_ERROR_RT_PARAM_INVALID, aclrtFreeHost(&not_pinned));
  ASSERT_ACL_OK(aclrtFreeHost(host));
  EXPECT_ACL_ERROR(ACL_ERROR_RT_PARAM_INVALID, aclrtFreeHost(host));
  ASSERT_ACL_OK(aclrtFree(device));
}

// --- Memcpy ------------------------------------------------------------------

TEST_F(MemoryApiTest, MemcpyInEveryDirection) {
  const std::vector<uint8_t> src = Pattern(kBytes, 1);
  std::vector<uint8_t> host(kBytes, 0);
  void* a = Malloc(kBytes);
  void* b = Malloc(kBytes);

  ASSERT_ACL_OK(aclrtMemcpy(host.data(), kBytes, src.data(), kBytes,
                            ACL_MEMCPY_HOST_TO_HOST));
  EXPECT_EQ(host, src);
  ASSERT_ACL_OK(
      aclrtMemcpy(a, kBytes, src.data(), kBytes, ACL_MEMCPY_HOST_TO_DEVICE));
  ASSERT_ACL_OK(aclrtMemcpy(b, kBytes, a, kBytes, ACL_MEMCPY_DEVICE_TO_DEVICE));
  std::fill(host.begin(), host.end(), 0);
  ASSERT_ACL_OK(
      aclrtMemcpy(host.data(), kBytes, b, kBytes, ACL_MEMCPY_DEVICE_TO_HOST));
  EXPECT_EQ(host, src);

  // DEFAULT infers the direction from the pointers.
  const std::vector<uint8_t> other = Pattern(kBytes, 99);
  ASSERT_ACL_OK(
      aclrtMemcpy(a, kBytes, other.data(), kBytes, ACL_MEMCPY_DEFAULT));
  ASSERT_ACL_OK(aclrtMemcpy(b, kBytes, a, kBytes, ACL_MEMCPY_DEFAULT));
  ASSERT_ACL_OK(
      aclrtMemcpy(host.data(), kBytes, b, kBytes, ACL_MEMCPY_DEFAULT));
  EXPECT_EQ(host, other);
  std::vector<uint8_t> copy(kBytes, 0);
  ASSERT_ACL_OK(aclrtMemcpy(copy.data(), kBytes, host.data(), kBytes,
                            ACL_MEMCPY_DEFAULT));
  EXPECT_EQ(copy, other);

  // The aliases of H2D and D2D.
  ASSERT_ACL_OK(aclrtMemcpy(a, kBytes, src.data(), kBytes,
                            ACL_MEMCPY_HOST_TO_BUF_TO_DEVICE));
  ASSERT_ACL_OK(
      aclrtMemcpy(b, kBytes, a, kBytes, ACL_MEMCPY_INNER_DEVICE_TO_DEVICE));
  EXPECT_EQ(Read(b, kBytes), src);
  ASSERT_ACL_OK(aclrtFree(a));
  ASSERT_ACL_OK(aclrtFree(b));
}

TEST_F(MemoryApiTest, MemcpyAtAnOffsetInsideAnAllocation) {
  uint8_t* device = static_cast<uint8_t*>(Malloc(kBytes));
  const std::vector<uint8_t> src = Pattern(100, 5);
  ASSERT_ACL_OK(aclrtMemcpy(device + 1000, kBytes - 1000, src.data(), 100,
                            ACL_MEMCPY_HOST_TO_DEVICE));
  const std::vector<uint8_t> all = Read(device, kBytes);
  for (size_t i = 0; i < kBytes; ++i) {
    const uint8_t want = (i >= 1000 && i < 1100) ? src[i - 1000] : 0;
    ASSERT_EQ(all[i], want) << "at byte " << i;
  }
  ASSERT_ACL_OK(aclrtFree(device));
}

TEST_F(MemoryApiTest, FailedMemcpyLeavesTheDestinationUntouched) {
  const std::vector<uint8_t> src = Pattern(kBytes, 7);
  const std::vector<uint8_t> canary(kBytes, 0xCD);
  std::vector<uint8_t> host = canary;
  uint8_t* device = static_cast<uint8_t*>(Malloc(kBytes));
  ASSERT_ACL_OK(aclrtMemset(device, kBytes, 0xCD, kBytes));

  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM,
                   aclrtMemcpy(nullptr, kBytes, src.data(), kBytes,
                               ACL_MEMCPY_HOST_TO_HOST));
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM,
                   aclrtMemcpy(host.data(), kBytes, nullptr, kBytes,
                               ACL_MEMCPY_HOST_TO_HOST));
  // count > destMax.
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM,
                   aclrtMemcpy(host.data(), kBytes - 1, src.data(), kBytes,
                               ACL_MEMCPY_HOST_TO_HOST));
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM,
                   aclrtMemcpy(device, kBytes - 1, src.data(), kBytes,
                               ACL_MEMCPY_HOST_TO_DEVICE));
  // Unknown kind.
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM,
                   aclrtMemcpy(device, kBytes, src.data(), kBytes,
                               static_cast<aclrtMemcpyKind>(99)));
  // A range that runs past the end of its allocation.
  EXPECT_ACL_ERROR(ACL_ERROR_RT_PARAM_INVALID,
                   aclrtMemcpy(device + 512, kBytes, src.data(), kBytes,
                               ACL_MEMCPY_HOST_TO_DEVICE));
  EXPECT_ACL_ERROR(ACL_ERROR_RT_PARAM_INVALID,
                   aclrtMemcpy(host.data(), kBytes, device + 1, kBytes,
                               ACL_MEMCPY_DEVICE_TO_HOST));

  EXPECT_EQ(host, canary);
  EXPECT_EQ(Read(device, kBytes), canary);
  ASSERT_ACL_OK(aclrtFree(device));
}

// 11-03, aclrtMemcpy `kind`: a reserved parameter; the runtime decides
// from the two pointers whether and which way the bytes can go. A program
// that names another kind than its pointers make still copies.
TEST_F(MemoryApiTest, MemcpyTakesItsDirectionFromThePointersNotTheKind) {
  const std::vector<uint8_t> src = Pattern(kBytes, 21);
  std::vector<uint8_t> host(kBytes, 0);
  void* a = Malloc(kBytes);
  void* b = Malloc(kBytes);
  ASSERT_ACL_OK(
      aclrtMemcpy(a, kBytes, src.data(), kBytes, ACL_MEMCPY_DEVICE_TO_DEVICE));
  EXPECT_EQ(Read(a, kBytes), src);
  ASSERT_ACL_OK(aclrtMemcpy(b, kBytes, a, kBytes, ACL_MEMCPY_HOST_TO_HOST));
  EXPECT_EQ(Read(b, kBytes), src);
  ASSERT_ACL_OK(
      aclrtMemcpy(host.data(), kBytes, b, kBytes, ACL_MEMCPY_HOST_TO_DEVICE));
  EXPECT_EQ(host, src);
  std::vector<uint8_t> other(kBytes, 0);
  ASSERT_ACL_OK(aclrtMemcpy(other.data(), kBytes, host.data(), kBytes,
                            ACL_MEMCPY_DEVICE_TO_HOST));
  EXPECT_EQ(other, src);
  // The async copy the same way (only a copy within host memory is refused,
  // see MemcpyAsyncValidatesAtEnqueue).
  ASSERT_ACL_OK(aclrtMemset(a, kBytes, 0, kBytes));
  ASSERT_ACL_OK(aclrtMemcpyAsync(a, kBytes, src.data(), kBytes,
                                 ACL_MEMCPY_DEVICE_TO_HOST, nullptr));
  ASSERT_ACL_OK(aclrtSynchronizeStream(nullptr));
  EXPECT_EQ(Read(a, kBytes), src);
  ASSERT_ACL_OK(aclrtFree(a));
  ASSERT_ACL_OK(aclrtFree(b));
}

TEST_F(MemoryApiTest, ZeroLengthMemcpyDoesNothing) {
  std::vector<uint8_t> host(16, 1);
  const std::vector<uint8_t> src(16, 2);
  EXPECT_ACL_OK(
      aclrtMemcpy(host.data(), 16, src.data(), 0, ACL_MEMCPY_HOST_TO_HOST));
  EXPECT_EQ(host, std::vector<uint8_t>(16, 1));
  EXPECT_ACL_OK(aclrtMemcpyAsync(host.data(), 16, src.data(), 0,
                                 ACL_MEMCPY_HOST_TO_HOST, nullptr));
  ASSERT_ACL_OK(aclrtSynchronizeStream(nullptr));
  EXPECT_EQ(host, std::vector<uint8_t>(16, 1));
}

TEST_F(MemoryApiTest, MemcpyAsyncValidatesAtEnqueue) {
  const std::vector<uint8_t> src = Pattern(kBytes, 3);
  std::vector<uint8_t> host(kBytes, 0xCD);
  void* device = Malloc(kBytes);
  aclrtStream stream = nullptr;
  ASSERT_ACL_OK(aclrtCreateStream(&stream));
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM,
                   aclrtMemcpyAsync(device, kBytes - 1, src.data(), kBytes,
                                    ACL_MEMCPY_HOST_TO_DEVICE, stream));
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM,
                   aclrtMemcpyAsync(nullptr, kBytes, src.data(), kBytes,
                                    ACL_MEMCPY_HOST_TO_DEVICE, stream));
  // Within host memory: not an async copy in this form (11-03,
  // aclrtMemcpyAsync constraints), whichever kind is named.
  EXPECT_ACL_ERROR(ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
                   aclrtMemcpyAsync(host.data(), kBytes, src.data(), kBytes,
                                    ACL_MEMCPY_DEVICE_TO_DEVICE, stream));
  EXPECT_ACL_ERROR(ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
                   aclrtMemcpyAsync(host.data(), kBytes, src.data(), kBytes,
                                    ACL_MEMCPY_HOST_TO_HOST, stream));
  EXPECT_ACL_ERROR(ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
                   aclrtMemcpyAsync(device, kBytes, src.data(), kBytes,
                                    ACL_MEMCPY_HOST_TO_HOST, stream));
  int not_a_stream = 0;
  EXPECT_ACL_ERROR(ACL_ERROR_RT_PARAM_INVALID,
                   aclrtMemcpyAsync(host.data(), kBytes, src.data(), kBytes,
                                    ACL_MEMCPY_HOST_TO_HOST, &not_a_stream));
  ASSERT_ACL_OK(aclrtSynchronizeStream(stream));
  EXPECT_EQ(host, std::vector<uint8_t>(kBytes, 0xCD));

  ASSERT_ACL_OK(aclrtMemcpyAsync(device, kBytes, src.data(), kBytes,
                                 ACL_MEMCPY_HOST_TO_DEVICE, stream));
  ASSERT_ACL_OK(aclrtMemcpyAsync(host.data(), kBytes, device, kBytes,
                                 ACL_MEMCPY_DEVICE_TO_HOST, stream));
  ASSERT_ACL_OK(aclrtSynchronizeStream(stream));
  EXPECT_EQ(host, src);
  ASSERT_ACL_OK(aclrtDestroyStream(stream));
  EXPECT_ACL_ERROR(ACL_ERROR_RT_PARAM_INVALID,
                   aclrtMemcpyAsync(host.data(), kBytes, src.data(), kBytes,
                                    ACL_MEMCPY_HOST_TO_HOST, stream));
  ASSERT_ACL_OK(aclrtFree(device));
}

TEST_F(MemoryApiTest, FailedDeviceCopySurfacesAtSynchronize) {
  const std::vector<uint8_t> src = Pattern(kBytes, 11);
  void* device = Malloc(kBytes);
  ASSERT_ACL_OK(aclsimInjectFault(0, ACLSIM_FAULT_NEXT_COPY_FAILS));
  EXPECT_ACL_ERROR(ACL_ERROR_RT_SYS_DMA,
                   aclrtMemcpy(device, kBytes, src.data(), kBytes,
                               ACL_MEMCPY_HOST_TO_DEVICE));
  EXPECT_EQ(Read(device, kBytes), std::vector<uint8_t>(kBytes, 0));

  ASSERT_ACL_OK(aclsimInjectFault(0, ACLSIM_FAULT_NEXT_COPY_FAILS));
  ASSERT_ACL_OK(aclrtMemcpyAsync(device, kBytes, src.data(), kBytes,
                                 ACL_MEMCPY_HOST_TO_DEVICE, nullptr));
  EXPECT_ACL_ERROR(ACL_ERROR_RT_SYS_DMA, aclrtSynchronizeStream(nullptr));
  // The failure is reported once.
  EXPECT_ACL_OK(aclrtSynchronizeStream(nullptr));
  EXPECT_EQ(Read(device, kBytes), std::vector<uint8_t>(kBytes, 0));
  ASSERT_ACL_OK(aclrtFree(device));
}

// --- Memset ------------------------------------------------------------------

TEST_F(MemoryApiTest, Memset) {
  uint8_t* device = static_cast<uint8_t*>(Malloc(kBytes));
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM, aclrtMemset(nullptr, 16, 1, 16));
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM,
                   aclrtMemset(device, kBytes - 1, 1, kBytes));
  EXPECT_ACL_ERROR(ACL_ERROR_RT_PARAM_INVALID,
                   aclrtMemset(device + 512, kBytes, 1, kBytes));
  EXPECT_EQ(Read(device, kBytes), std::vector<uint8_t>(kBytes, 0));

  // Only the low byte of the value is used; count 0 writes nothing.
  ASSERT_ACL_OK(aclrtMemset(device + 16, kBytes - 16, 0x1AB, 32));
  ASSERT_ACL_OK(aclrtMemset(device, kBytes, 0x77, 0));
  const std::vector<uint8_t> all = Read(device, kBytes);
  for (size_t i = 0; i < kBytes; ++i) {
    ASSERT_EQ(all[i], (i >= 16 && i < 48) ? 0xAB : 0) << "at byte " << i;
  }
  // Host memory is accepted too.
  std::vector<uint8_t> host(64, 0);
  ASSERT_ACL_OK(aclrtMemset(host.data(), 64, 9, 64));
  EXPECT_EQ(host, std::vector<uint8_t>(64, 9));
  ASSERT_ACL_OK(aclrtFree(device));
}

TEST_F(MemoryApiTest, MemsetAsync) {
  uint8_t* device = static_cast<uint8_t*>(Malloc(kBytes));
  aclrtStream stream = nullptr;
  ASSERT_ACL_OK(aclrtCreateStream(&stream));
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM,
                   aclrtMemsetAsync(nullptr, 16, 1, 16, stream));
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM,
                   aclrtMemsetAsync(device, 15, 1, 16, stream));
  EXPECT_ACL_ERROR(ACL_ERROR_RT_PARAM_INVALID,
                   aclrtMemsetAsync(device + kBytes - 8, 16, 1, 16, stream));
  int not_a_stream = 0;
  EXPECT_ACL_ERROR(ACL_ERROR_RT_PARAM_INVALID,
                   aclrtMemsetAsync(device, 16, 1, 16, &not_a_stream));
  ASSERT_ACL_OK(aclrtMemsetAsync(device, kBytes, 0x3C, kBytes, stream));
  ASSERT_ACL_OK(aclrtSynchronizeStream(stream));
  EXPECT_EQ(Read(device, kBytes), std::vector<uint8_t>(kBytes, 0x3C));
  ASSERT_ACL_OK(aclrtDestroyStream(stream));
  ASSERT_ACL_OK(aclrtFree(device));
}

// --- Freed and reset-device pointers
// ------------------------------------------

// A freed block that shares its 2 MiB chunk with a live allocation stays
// mapped: a fill or copy through it used to succeed and leave the next
// allocation there dirty (DESIGN.md §5.5: fresh allocations are zero-filled).
TEST_F(MemoryApiTest, FreedPointerIsRejectedAndNextMallocStaysZeroFilled) {
  void* keep = Malloc(512);
  uint8_t* freed = static_cast<uint8_t*>(Malloc(512));
  ASSERT_ACL_OK(aclrtFree(freed));
  const std::vector<uint8_t> src(512, 0xAB);
  std::vector<uint8_t> host(512, 0xCD);
  aclrtStream stream = nullptr;
  ASSERT_ACL_OK(aclrtCreateStream(&stream));
  // The same code aclrtFree gives the same pointer.
  EXPECT_ACL_ERROR(ACL_ERROR_RT_PARAM_INVALID, aclrtFree(freed));
  EXPECT_ACL_ERROR(ACL_ERROR_RT_PARAM_INVALID,
                   aclrtMemset(freed, 512, 0xAB, 512));
  EXPECT_ACL_ERROR(ACL_ERROR_RT_PARAM_INVALID,
                   aclrtMemsetAsync(freed + 8, 504, 0xAB, 504, stream));
  EXPECT_ACL_ERROR(
      ACL_ERROR_RT_PARAM_INVALID,
      aclrtMemcpy(freed, 512, src.data(), 512, ACL_MEMCPY_DEFAULT));
  EXPECT_ACL_ERROR(ACL_ERROR_RT_PARAM_INVALID,
                   aclrtMemcpyAsync(freed, 512, src.data(), 512,
                                    ACL_MEMCPY_DEFAULT, stream));
  EXPECT_ACL_ERROR(
      ACL_ERROR_RT_PARAM_INVALID,
      aclrtMemcpy(freed, 512, src.data(), 512, ACL_MEMCPY_HOST_TO_HOST));
  EXPECT_ACL_ERROR(
      ACL_ERROR_RT_PARAM_INVALID,
      aclrtMemcpy(host.data(), 512, freed, 512, ACL_MEMCPY_DEFAULT));
  EXPECT_ACL_ERROR(
      ACL_ERROR_RT_PARAM_INVALID,
      aclrtMemcpy(keep, 512, freed, 512, ACL_MEMCPY_DEVICE_TO_DEVICE));
  ASSERT_ACL_OK(aclrtSynchronizeStream(stream));
  ASSERT_ACL_OK(aclrtDestroyStream(stream));
  EXPECT_EQ(host, std::vector<uint8_t>(512, 0xCD));
  void* again = Malloc(512);
  EXPECT_EQ(Read(again, 512), std::vector<uint8_t>(512, 0));
  EXPECT_EQ(Read(keep, 512), std::vector<uint8_t>(512, 0));
  ASSERT_ACL_OK(aclrtFree(again));
  ASSERT_ACL_OK(aclrtFree(keep));
}

// A large freed block's pages are unmapped: writing through it crashed.
TEST_F(MemoryApiTest, FillThroughAnUnmappedFreedPointerIsRejected) {
  uint8_t* freed = static_cast<uint8_t*>(Malloc(4 << 20));
  ASSERT_ACL_OK(aclrtFree(freed));
  EXPECT_ACL_ERROR(ACL_ERROR_RT_PARAM_INVALID,
                   aclrtMemset(freed + 4096, 4096, 1, 4096));
  std::vector<uint8_t> host(4096, 0xCD);
  EXPECT_ACL_ERROR(ACL_ERROR_RT_PARAM_INVALID,
                   aclrtMemcpy(host.data(), host.size(), freed, host.size(),
                               ACL_MEMCPY_DEFAULT));
  EXPECT_EQ(host, std::vector<uint8_t>(4096, 0xCD));
}

TEST_F(MemoryApiTest, PointerOfAResetDeviceIsRejected) {
  ASSERT_ACL_OK(aclrtSetDevice(1));
  void* on1 = Malloc(4096);
  ASSERT_ACL_OK(aclrtResetDevice(1));
  ASSERT_ACL_OK(aclrtSetDevice(0));
  std::vector<uint8_t> host(4096, 0xCD);
  EXPECT_ACL_ERROR(ACL_ERROR_RT_PARAM_INVALID,
                   aclrtMemcpy(host.data(), host.size(), on1, host.size(),
                               ACL_MEMCPY_DEFAULT));
  EXPECT_ACL_ERROR(ACL_ERROR_RT_PARAM_INVALID,
                   aclrtMemcpy(on1, host.size(), host.data(), host.size(),
                               ACL_MEMCPY_DEFAULT));
  EXPECT_ACL_ERROR(ACL_ERROR_RT_PARAM_INVALID,
                   aclrtMemset(on1, host.size(), 1, host.size()));
  EXPECT_ACL_ERROR(ACL_ERROR_RT_PARAM_INVALID, aclrtFree(on1));
  EXPECT_EQ(host, std::vector<uint8_t>(4096, 0xCD));
}

// p + count used to wrap for a huge count, so the call queued a copy that
// only failed at synchronize.
TEST_F(MemoryApiTest, HugeCountsAreRejectedByTheCallNotTheTask) {
  uint8_t* device = static_cast<uint8_t*>(Malloc(kBytes));
  const std::vector<uint8_t> src = Pattern(kBytes, 9);
  std::vector<uint8_t> host(kBytes, 0xCD);
  aclrtStream stream = nullptr;
  ASSERT_ACL_OK(aclrtCreateStream(&stream));
  const size_t huge = SIZE_MAX - 8;  // device + 16 + huge wraps below the end
  EXPECT_ACL_ERROR(ACL_ERROR_RT_PARAM_INVALID,
                   aclrtMemcpyAsync(device + 16, SIZE_MAX, src.data(), huge,
                                    ACL_MEMCPY_HOST_TO_DEVICE, stream));
  EXPECT_ACL_ERROR(ACL_ERROR_RT_PARAM_INVALID,
                   aclrtMemcpyAsync(host.data(), SIZE_MAX, device + 16, huge,
                                    ACL_MEMCPY_DEVICE_TO_HOST, stream));
  EXPECT_ACL_ERROR(ACL_ERROR_RT_PARAM_INVALID,
                   aclrtMemsetAsync(device + 16, SIZE_MAX, 1, huge, stream));
  EXPECT_ACL_ERROR(ACL_ERROR_RT_PARAM_INVALID,
                   aclrtMemcpy(device + 16, SIZE_MAX, src.data(), huge,
                               ACL_MEMCPY_HOST_TO_DEVICE));
  EXPECT_ACL_OK(aclrtSynchronizeStream(stream));
  ASSERT_ACL_OK(aclrtDestroyStream(stream));
  EXPECT_EQ(host, std::vector<uint8_t>(kBytes, 0xCD));
  EXPECT_EQ(Read(device, kBytes), std::vector<uint8_t>(kBytes, 0));
  ASSERT_ACL_OK(aclrtFree(device));
}

// --- Copies between devices --------------------------------------------------

TEST_F(MemoryApiTest, CopyBetweenDevicesNeedsPeerAccess) {
  const std::vector<uint8_t> pattern = Pattern(kBytes, 21);
  void* on0 = Malloc(kBytes);
  void* other0 = Malloc(kBytes);
  ASSERT_ACL_OK(aclrtSetDevice(1));
  void* on1 = Malloc(kBytes);
  ASSERT_ACL_OK(aclrtMemcpy(on1, kBytes, pattern.data(), kBytes,
                            ACL_MEMCPY_HOST_TO_DEVICE));
  ASSERT_ACL_OK(aclrtSetDevice(0));
  aclrtStream stream = nullptr;
  ASSERT_ACL_OK(aclrtCreateStream(&stream));

  // No peer access yet, then enabled and disabled again: refused.
  for (int round = 0; round < 2; ++round) {
    for (aclrtMemcpyKind kind :
         {ACL_MEMCPY_DEVICE_TO_DEVICE, ACL_MEMCPY_DEFAULT,
          ACL_MEMCPY_INTER_DEVICE_TO_DEVICE}) {
      EXPECT_ACL_ERROR(ACL_ERROR_RT_NO_PERMISSION,
                       aclrtMemcpy(on0, kBytes, on1, kBytes, kind))
          << "kind " << kind << ", round " << round;
      EXPECT_ACL_ERROR(ACL_ERROR_RT_NO_PERMISSION,
                       aclrtMemcpyAsync(on1, kBytes, on0, kBytes, kind, stream))
          << "kind " << kind << ", round " << round;
    }
    ASSERT_ACL_OK(aclrtDeviceEnablePeerAccess(1, 0));
    ASSERT_ACL_OK(aclrtDeviceDisablePeerAccess(1));
  }
  ASSERT_ACL_OK(aclrtSynchronizeStream(stream));
  EXPECT_EQ(Read(on0, kBytes), std::vector<uint8_t>(kBytes, 0));

  // Enabled on either device, naming the other: copies go both ways.
  ASSERT_ACL_OK(aclrtSetDevice(1));
  ASSERT_ACL_OK(aclrtDeviceEnablePeerAccess(0, 0));
  ASSERT_ACL_OK(aclrtSetDevice(0));
  ASSERT_ACL_OK(
      aclrtMemcpy(on0, kBytes, on1, kBytes, ACL_MEMCPY_DEVICE_TO_DEVICE));
  EXPECT_EQ(Read(on0, kBytes), pattern);
  ASSERT_ACL_OK(aclrtMemset(on0, kBytes, 0x5A, kBytes));
  ASSERT_ACL_OK(aclrtMemcpyAsync(on1, kBytes, on0, kBytes,
                                 ACL_MEMCPY_INTER_DEVICE_TO_DEVICE, stream));
  ASSERT_ACL_OK(aclrtSynchronizeStream(stream));
  EXPECT_EQ(Read(on1, kBytes), std::vector<uint8_t>(kBytes, 0x5A));

  // The kinds that name one or two devices do not decide either: the
  // pointers do (11-03).
  ASSERT_ACL_OK(
      aclrtMemcpy(on0, kBytes, on1, kBytes, ACL_MEMCPY_INNER_DEVICE_TO_DEVICE));
  ASSERT_ACL_OK(aclrtMemcpy(other0, kBytes, on0, kBytes,
                            ACL_MEMCPY_INTER_DEVICE_TO_DEVICE));
  EXPECT_EQ(Read(other0, kBytes), std::vector<uint8_t>(kBytes, 0x5A));
  ASSERT_ACL_OK(aclrtMemcpy(other0, kBytes, on0, kBytes,
                            ACL_MEMCPY_INNER_DEVICE_TO_DEVICE));

  ASSERT_ACL_OK(aclrtDestroyStream(stream));
  ASSERT_ACL_OK(aclrtFree(on0));
  ASSERT_ACL_OK(aclrtFree(other0));
  ASSERT_ACL_OK(aclrtFree(on1));
}

TEST_F(MemoryApiTest, PeerAccessEndsWithTheEnablingDevicesReset) {
  for (int32_t reset : {0, 1}) {
    ASSERT_ACL_OK(aclrtSetDevice(1));
    void* on1 = Malloc(kBytes);
    ASSERT_ACL_OK(aclrtSetDevice(0));
    void* on0 = Malloc(kBytes);
    ASSERT_ACL_OK(aclrtDeviceEnablePeerAccess(1, 0));
    ASSERT_ACL_OK(
        aclrtMemcpy(on0, kBytes, on1, kBytes, ACL_MEMCPY_DEVICE_TO_DEVICE));
    ASSERT_ACL_OK(aclrtResetDeviceForce(reset));
    ASSERT_ACL_OK(aclrtSetDevice(reset));
    if (reset == 0) on0 = Malloc(kBytes);
    if (reset == 1) {
      on1 = Malloc(kBytes);
      ASSERT_ACL_OK(aclrtSetDevice(0));
    }
    if (reset == 0) {
      // The access belonged to device 0: its reset ended it.
      EXPECT_ACL_ERROR(
          ACL_ERROR_RT_NO_PERMISSION,
          aclrtMemcpy(on0, kBytes, on1, kBytes, ACL_MEMCPY_DEVICE_TO_DEVICE));
      EXPECT_ACL_ERROR(ACL_ERROR_RT_PARAM_INVALID,
                       aclrtDeviceDisablePeerAccess(1));
    } else {
      // Resetting the peer leaves device 0's access; it can still be
      // disabled (CANN's device_P2P example does that).
      EXPECT_ACL_OK(
          aclrtMemcpy(on0, kBytes, on1, kBytes, ACL_MEMCPY_DEVICE_TO_DEVICE));
      EXPECT_ACL_OK(aclrtDeviceDisablePeerAccess(1));
      EXPECT_ACL_ERROR(
          ACL_ERROR_RT_NO_PERMISSION,
          aclrtMemcpy(on0, kBytes, on1, kBytes, ACL_MEMCPY_DEVICE_TO_DEVICE));
    }
    ASSERT_ACL_OK(aclrtResetDeviceForce(0));
    ASSERT_ACL_OK(aclrtResetDeviceForce(1));
    ASSERT_ACL_OK(aclrtSetDevice(0));
  }
}

// --- Stream order: copy -> host function -> fill -> copy back ---------------

struct DoubleArgs {
  int32_t* data = nullptr;  // simulated device memory
  size_t count = 0;
  std::vector<int32_t> seen;  // what the host function found there
};

void DoubleInPlace(void* raw) {
  auto* args = static_cast<DoubleArgs*>(raw);
  args->seen.assign(args->data, args->data + args->count);
  for (size_t i = 0; i < args->count; ++i) args->data[i] *= 2;
}

TEST_F(MemoryApiTest, AsyncCopyHostFunctionAndFillRunInStreamOrder) {
  constexpr size_t kCount = 1024;
  constexpr size_t kSize = kCount * sizeof(int32_t);
  std::vector<int32_t> input(kCount);
  for (size_t i = 0; i < kCount; ++i) input[i] = static_cast<int32_t>(i) - 100;
  std::vector<int32_t> output(kCount, 0);
  void* device = Malloc(kSize);
  aclrtStream stream = nullptr;
  ASSERT_ACL_OK(aclrtCreateStream(&stream));

  DoubleArgs args;
  args.data = static_cast<int32_t*>(device);
  args.count = kCount;
  ASSERT_ACL_OK(aclrtMemcpyAsync(device, kSize, input.data(), kSize,
                                 ACL_MEMCPY_HOST_TO_DEVICE, stream));
  ASSERT_ACL_OK(aclrtLaunchHostFunc(stream, DoubleInPlace, &args));
  // Fill the first half with 0x01 bytes after the host function.
  ASSERT_ACL_OK(aclrtMemsetAsync(device, kSize, 1, kSize / 2, stream));
  ASSERT_ACL_OK(aclrtMemcpyAsync(output.data(), kSize, device, kSize,
                                 ACL_MEMCPY_DEVICE_TO_HOST, stream));
  ASSERT_ACL_OK(aclrtSynchronizeStream(stream));

  EXPECT_EQ(args.seen, input);
  for (size_t i = 0; i < kCount; ++i) {
    const int32_t want = i < kCount / 2 ? 0x01010101 : 2 * input[i];
    ASSERT_EQ(output[i], want) << "at element " << i;
  }
  ASSERT_ACL_OK(aclrtDestroyStream(stream));
  ASSERT_ACL_OK(aclrtFree(device));
}

// --- Value wait / write
// --------------------------------------------------------

TEST_F(MemoryApiTest, ValueWaitAndWriteRejectBadArguments) {
  uint8_t* device = static_cast<uint8_t*>(Malloc(kBytes));
  EXPECT_ACL_ERROR(
      ACL_ERROR_INVALID_PARAM,
      aclrtValueWait(nullptr, 1, ACL_STREAM_WAIT_VALUE_EQ, nullptr));
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM,
                   aclrtValueWait(device, 1, 4, nullptr));
  EXPECT_ACL_ERROR(
      ACL_ERROR_RT_ADDR_UNALIGNED,
      aclrtValueWait(device + 4, 1, ACL_STREAM_WAIT_VALUE_EQ, nullptr));
  uint64_t on_host = 0;
  EXPECT_ACL_ERROR(
      ACL_ERROR_RT_PARAM_INVALID,
      aclrtValueWait(&on_host, 1, ACL_STREAM_WAIT_VALUE_EQ, nullptr));
  // An aligned word that runs past the end of its (12-byte) allocation.
  uint8_t* small = static_cast<uint8_t*>(Malloc(12));
  EXPECT_ACL_ERROR(
      ACL_ERROR_RT_PARAM_INVALID,
      aclrtValueWait(small + 8, 1, ACL_STREAM_WAIT_VALUE_GEQ, nullptr));
  EXPECT_ACL_ERROR(ACL_ERROR_RT_PARAM_INVALID,
                   aclrtValueWrite(small + 8, 1, 0, nullptr));
  int not_a_stream = 0;
  EXPECT_ACL_ERROR(
      ACL_ERROR_RT_PARAM_INVALID,
      aclrtValueWait(device, 1, ACL_STREAM_WAIT_VALUE_EQ, &not_a_stream));

  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM,
                   aclrtValueWrite(nullptr, 1, 0, nullptr));
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM,
                   aclrtValueWrite(device, 1, 1, nullptr));
  EXPECT_ACL_ERROR(ACL_ERROR_RT_ADDR_UNALIGNED,
                   aclrtValueWrite(device + 12, 1, 0, nullptr));
  EXPECT_ACL_ERROR(ACL_ERROR_RT_PARAM_INVALID,
                   aclrtValueWrite(&on_host, 1, 0, nullptr));
  EXPECT_ACL_ERROR(ACL_ERROR_RT_PARAM_INVALID,
                   aclrtValueWrite(device, 1, 0, &not_a_stream));
  // Nothing was queued or written by the failures.
  ASSERT_ACL_OK(aclrtSynchronizeStream(nullptr));
  EXPECT_EQ(Read(device, kBytes), std::vector<uint8_t>(kBytes, 0));
  EXPECT_EQ(on_host, 0u);
  EXPECT_EQ(Read(small, 12), std::vector<uint8_t>(12, 0));
  ASSERT_ACL_OK(aclrtFree(small));
  ASSERT_ACL_OK(aclrtFree(device));
}

TEST_F(MemoryApiTest, ValueWriteStoresInStreamOrder) {
  void* device = Malloc(64);
  ASSERT_ACL_OK(aclrtValueWrite(device, 0x1122334455667788ull, 0, nullptr));
  ASSERT_ACL_OK(aclrtSynchronizeStream(nullptr));
  uint64_t value = 0;
  ASSERT_ACL_OK(aclrtMemcpy(&value, sizeof(value), device, sizeof(value),
                            ACL_MEMCPY_DEVICE_TO_HOST));
  EXPECT_EQ(value, 0x1122334455667788ull);
  ASSERT_ACL_OK(aclrtFree(device));
}

TEST_F(MemoryApiTest, ValueWaitReleasedByAWriteFromAnotherThreadAndStream) {
  void* flag_word = Malloc(64);
  aclrtStream waiter = nullptr;
  ASSERT_ACL_OK(aclrtCreateStream(&waiter));
  std::atomic<bool> passed{false};
  ASSERT_ACL_OK(aclrtValueWait(flag_word, 5, ACL_STREAM_WAIT_VALUE_EQ, waiter));
  ASSERT_ACL_OK(aclrtLaunchHostFunc(waiter, SetFlag, &passed));

  // Values other than 5 do not release an EQ wait.
  ASSERT_ACL_OK(aclrtValueWrite(flag_word, 4, 0, nullptr));
  ASSERT_ACL_OK(aclrtSynchronizeStream(nullptr));
  EXPECT_ACL_ERROR(ACL_ERROR_RT_STREAM_SYNC_TIMEOUT,
                   aclrtSynchronizeStreamWithTimeout(waiter, 30));
  EXPECT_FALSE(passed.load());

  aclrtContext context = nullptr;
  ASSERT_ACL_OK(aclrtGetCurrentContext(&context));
  std::thread writer([context, flag_word] {
    ASSERT_ACL_OK(aclrtSetCurrentContext(context));
    aclrtStream stream = nullptr;
    ASSERT_ACL_OK(aclrtCreateStream(&stream));
    ASSERT_ACL_OK(aclrtValueWrite(flag_word, 5, 0, stream));
    ASSERT_ACL_OK(aclrtSynchronizeStream(stream));
    ASSERT_ACL_OK(aclrtDestroyStream(stream));
  });
  writer.join();
  ASSERT_TRUE(StreamDrainsWithin(waiter, 5000));
  EXPECT_TRUE(passed.load());
  ASSERT_ACL_OK(aclrtDestroyStream(waiter));
  ASSERT_ACL_OK(aclrtFree(flag_word));
}

void StoreSeven(void* word) {
  __atomic_store_n(static_cast<uint64_t*>(word), 7, __ATOMIC_RELEASE);
}

TEST_F(MemoryApiTest, ValueWaitReleasedByAHostFunctionWritingDeviceMemory) {
  void* word = Malloc(64);
  aclrtStream waiter = nullptr;
  aclrtStream writer = nullptr;
  ASSERT_ACL_OK(aclrtCreateStream(&waiter));
  ASSERT_ACL_OK(aclrtCreateStream(&writer));
  ASSERT_ACL_OK(aclrtValueWait(word, 7, ACL_STREAM_WAIT_VALUE_GEQ, waiter));
  aclrtStreamStatus status;
  ASSERT_ACL_OK(aclrtStreamQuery(waiter, &status));
  EXPECT_EQ(status, ACL_STREAM_STATUS_NOT_READY);
  ASSERT_ACL_OK(aclrtLaunchHostFunc(writer, StoreSeven, word));
  ASSERT_TRUE(StreamDrainsWithin(waiter, 5000));
  ASSERT_ACL_OK(aclrtSynchronizeStream(writer));
  ASSERT_ACL_OK(aclrtDestroyStream(waiter));
  ASSERT_ACL_OK(aclrtDestroyStream(writer));
  ASSERT_ACL_OK(aclrtFree(word));
}

struct WaitCase {
  uint32_t flag;
  uint64_t stored;
  uint64_t value;
  bool released;
};

TEST_F(MemoryApiTest, ValueWaitComparisons) {
  const WaitCase cases[] = {
      {ACL_STREAM_WAIT_VALUE_GEQ, 10, 10, true},
      {ACL_STREAM_WAIT_VALUE_GEQ, 11, 10, true},
      {ACL_STREAM_WAIT_VALUE_GEQ, 9, 10, false},
      {ACL_STREAM_WAIT_VALUE_EQ, 10, 10, true},
      {ACL_STREAM_WAIT_VALUE_EQ, 11, 10, false},
      {ACL_STREAM_WAIT_VALUE_AND, 0b0110, 0b0100, true},
      {ACL_STREAM_WAIT_VALUE_AND, 0b0110, 0b1001, false},
      {ACL_STREAM_WAIT_VALUE_NOR, 0, 0, true},
      {ACL_STREAM_WAIT_VALUE_NOR, ~uint64_t{0}, 0, false},
      {ACL_STREAM_WAIT_VALUE_NOR, 0xF0, ~uint64_t{0xF0}, false},
  };
  void* word = Malloc(64);
  for (const WaitCase& c : cases) {
    SCOPED_TRACE(testing::Message() << "flag " << c.flag << " stored "
                                    << c.stored << " value " << c.value);
    aclrtStream stream = nullptr;
    ASSERT_ACL_OK(aclrtCreateStream(&stream));
    ASSERT_ACL_OK(
        aclrtMemcpy(word, 8, &c.stored, 8, ACL_MEMCPY_HOST_TO_DEVICE));
    ASSERT_ACL_OK(aclrtValueWait(word, c.value, c.flag, stream));
    EXPECT_EQ(StreamDrainsWithin(stream, c.released ? 5000 : 20), c.released);
    // Destroying with force abandons a wait that never passes.
    ASSERT_ACL_OK(aclrtDestroyStreamForce(stream));
  }
  ASSERT_ACL_OK(aclrtFree(word));
}

TEST_F(MemoryApiTest, ConcurrentAllocationsFromManyThreads) {
  aclrtContext context = nullptr;
  ASSERT_ACL_OK(aclrtGetCurrentContext(&context));
  const size_t before = FreeBytes();
  constexpr int kThreads = 4;
  constexpr int kRounds = 50;
  std::atomic<int> failures{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&, t] {
      if (aclrtSetCurrentContext(context) != ACL_SUCCESS) {
        failures.fetch_add(1);
        return;
      }
      std::vector<void*> mine;
      for (int round = 0; round < kRounds; ++round) {
        void* ptr = nullptr;
        const size_t size = 512 * (1 + (round + t) % 7);
        if (aclrtMalloc(&ptr, size, ACL_MEM_MALLOC_HUGE_FIRST) != ACL_SUCCESS) {
          failures.fetch_add(1);
          continue;
        }
        // Each thread's bytes stay its own.
        const uint8_t tag = static_cast<uint8_t>(t * 50 + round);
        std::vector<uint8_t> out(size, tag);
        std::vector<uint8_t> in(size, 0);
        if (aclrtMemcpy(ptr, size, out.data(), size,
                        ACL_MEMCPY_HOST_TO_DEVICE) != ACL_SUCCESS ||
            aclrtMemcpy(in.data(), size, ptr, size,
                        ACL_MEMCPY_DEVICE_TO_HOST) != ACL_SUCCESS ||
            in != out) {
          failures.fetch_add(1);
        }
        mine.push_back(ptr);
        if (round % 3 == 2) {
          if (aclrtFree(mine.front()) != ACL_SUCCESS) failures.fetch_add(1);
          mine.erase(mine.begin());
        }
      }
      for (void* ptr : mine) {
        if (aclrtFree(ptr) != ACL_SUCCESS) failures.fetch_add(1);
      }
    });
  }
  for (std::thread& thread : threads) thread.join();
  EXPECT_EQ(failures.load(), 0);
  EXPECT_EQ(FreeBytes(), before);
}

}  // namespace
