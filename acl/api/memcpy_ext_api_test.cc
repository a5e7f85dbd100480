// 2-D, batch, conditional, offset and descriptor copies, 32-bit fills and
// cache maintenance through the ACL C API (DESIGN.md §5.14), on the default
// simulator. The stream sequences follow CANN's memory samples
// (example/1_basic_features/memory: set device, create stream, aclrtMallocHost
// + aclrtMalloc, copy on the stream, synchronize, free, force reset).
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <future>
#include <memory>
#include <thread>
#include <vector>

#include "acl/acl.h"
#include "aclsim/aclsim.h"
#include "gtest/gtest.h"
#include "testing/host_callbacks.h"
#include "testing/status_matchers.h"

namespace {

using ::ascend::testing::HostGate;
using ::ascend::testing::SetFlag;

std::vector<uint8_t> Pattern(size_t n, uint8_t seed) {
  std::vector<uint8_t> bytes(n);
  for (size_t i = 0; i < n; ++i) {
    bytes[i] = static_cast<uint8_t>(seed + i * 7 + (i >> 5));
  }
  return bytes;
}

aclrtMemcpyBatchAttr Attr(aclrtMemLocationType dst_type, uint32_t dst_id,
                          aclrtMemLocationType src_type, uint32_t src_id) {
  aclrtMemcpyBatchAttr attr;
  std::memset(&attr, 0, sizeof attr);
  attr.dstLoc.type = dst_type;
  attr.dstLoc.id = dst_id;
  attr.srcLoc.type = src_type;
  attr.srcLoc.id = src_id;
  return attr;
}

aclrtMemcpyBatchAttr HostToDevice(uint32_t device = 0) {
  return Attr(ACL_MEM_LOCATION_TYPE_DEVICE, device, ACL_MEM_LOCATION_TYPE_HOST,
              0);
}

aclrtMemcpyBatchAttr DeviceToHost(uint32_t device = 0) {
  return Attr(ACL_MEM_LOCATION_TYPE_HOST, 0, ACL_MEM_LOCATION_TYPE_DEVICE,
              device);
}

class MemcpyExtApiTest : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_ACL_OK(aclrtSetDevice(0));
    ASSERT_ACL_OK(aclrtCreateStream(&stream_));
  }
  void TearDown() override {
    (void)aclrtDestroyStreamForce(stream_);
    (void)aclrtResetDeviceForce(0);
    (void)aclrtResetDeviceForce(1);
    (void)aclrtGetLastError(ACL_RT_THREAD_LEVEL);
  }

  uint8_t* Malloc(size_t size) {
    void* ptr = nullptr;
    EXPECT_ACL_OK(aclrtMalloc(&ptr, size, ACL_MEM_MALLOC_HUGE_FIRST));
    return static_cast<uint8_t*>(ptr);
  }
  uint8_t* MallocHost(size_t size) {
    void* ptr = nullptr;
    EXPECT_ACL_OK(aclrtMallocHost(&ptr, size));
    return static_cast<uint8_t*>(ptr);
  }
  std::vector<uint8_t> Read(const void* device, size_t n) {
    std::vector<uint8_t> out(n, 0xEE);
    EXPECT_ACL_OK(
        aclrtMemcpy(out.data(), n, device, n, ACL_MEMCPY_DEVICE_TO_HOST));
    return out;
  }
  void Write(void* device, const std::vector<uint8_t>& bytes) {
    EXPECT_ACL_OK(aclrtMemcpy(device, bytes.size(), bytes.data(), bytes.size(),
                              ACL_MEMCPY_HOST_TO_DEVICE));
  }
  void WritePointer(void* cell, const void* value) {
    const uint64_t v = reinterpret_cast<uint64_t>(value);
    EXPECT_ACL_OK(
        aclrtMemcpy(cell, sizeof v, &v, sizeof v, ACL_MEMCPY_HOST_TO_DEVICE));
  }

  aclrtStream stream_ = nullptr;
};

// --- 2-D copies
// -----------------------------------------------------------------

TEST_F(MemcpyExtApiTest, Memcpy2dCopiesRowsAtTheirPitches) {
  constexpr size_t kWidth = 24, kHeight = 5, kSpitch = 32, kDpitch = 64;
  const std::vector<uint8_t> src = Pattern(kSpitch * kHeight, 3);
  uint8_t* device = Malloc(kDpitch * kHeight);
  ASSERT_ACL_OK(aclrtMemcpy2d(device, kDpitch, src.data(), kSpitch, kWidth,
                              kHeight, ACL_MEMCPY_HOST_TO_DEVICE));
  const std::vector<uint8_t> got = Read(device, kDpitch * kHeight);
  for (size_t r = 0; r < kHeight; ++r) {
    for (size_t c = 0; c < kDpitch; ++c) {
      const uint8_t want = c < kWidth ? src[r * kSpitch + c] : 0;
      ASSERT_EQ(got[r * kDpitch + c], want) << "row " << r << " col " << c;
    }
  }
  // And back, packed (pitch == width), through DEFAULT.
  std::vector<uint8_t> packed(kWidth * kHeight, 0xEE);
  ASSERT_ACL_OK(aclrtMemcpy2d(packed.data(), kWidth, device, kDpitch, kWidth,
                              kHeight, ACL_MEMCPY_DEFAULT));
  for (size_t r = 0; r < kHeight; ++r) {
    EXPECT_EQ(0, std::memcmp(&packed[r * kWidth], &src[r * kSpitch], kWidth));
  }
  ASSERT_ACL_OK(aclrtFree(device));
}

TEST_F(MemcpyExtApiTest, Memcpy2dRejectsBadArgumentsAndCopiesNothing) {
  uint8_t* device = Malloc(4096);
  uint8_t* other = Malloc(4096);
  std::vector<uint8_t> host(4096, 0x5A);
  // Empty: success at once, even with NULL pointers.
  EXPECT_ACL_OK(
      aclrtMemcpy2d(nullptr, 8, nullptr, 8, 0, 4, ACL_MEMCPY_HOST_TO_DEVICE));
  EXPECT_ACL_OK(
      aclrtMemcpy2d(nullptr, 8, nullptr, 8, 4, 0, ACL_MEMCPY_HOST_TO_DEVICE));
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM,
                   aclrtMemcpy2d(nullptr, 64, host.data(), 64, 16, 4,
                                 ACL_MEMCPY_HOST_TO_DEVICE));
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM,
                   aclrtMemcpy2d(device, 16, host.data(), 64, 32, 4,
                                 ACL_MEMCPY_HOST_TO_DEVICE));
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM,
                   aclrtMemcpy2d(device, 64, host.data(), 16, 32, 4,
                                 ACL_MEMCPY_HOST_TO_DEVICE));
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM,
                   aclrtMemcpy2d(device, 64, host.data(), 64, 16, 4,
                                 ACL_MEMCPY_HOST_TO_HOST));
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM,
                   aclrtMemcpy2d(device, 64, host.data(), 64, 16, 4,
                                 static_cast<aclrtMemcpyKind>(99)));
  EXPECT_ACL_ERROR(
      ACL_ERROR_RT_PARAM_INVALID,
      aclrtMemcpy2d(device, 64, host.data(), 64, 16, 5 * 1024 * 1024 + 1,
                    ACL_MEMCPY_HOST_TO_DEVICE));
  EXPECT_ACL_ERROR(ACL_ERROR_RT_PARAM_INVALID,
                   aclrtMemcpy2d(device, 5000001, host.data(), 5000001, 5000001,
                                 1, ACL_MEMCPY_HOST_TO_DEVICE));
  // The synchronous form does not copy within devices.
  EXPECT_ACL_ERROR(
      ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
      aclrtMemcpy2d(device, 64, other, 64, 16, 4, ACL_MEMCPY_DEVICE_TO_DEVICE));
  EXPECT_ACL_ERROR(
      ACL_ERROR_RT_PARAM_INVALID,
      aclrtMemcpy2d(device, 64, other, 64, 16, 4, ACL_MEMCPY_DEFAULT));
  // Kind against the pointers; the pitched region past the allocation.
  EXPECT_ACL_ERROR(ACL_ERROR_RT_PARAM_INVALID,
                   aclrtMemcpy2d(device, 64, host.data(), 64, 16, 4,
                                 ACL_MEMCPY_DEVICE_TO_HOST));
  EXPECT_ACL_ERROR(ACL_ERROR_RT_PARAM_INVALID,
                   aclrtMemcpy2d(device + 4000, 64, host.data(), 64, 16, 4,
                                 ACL_MEMCPY_HOST_TO_DEVICE));
  EXPECT_EQ(Read(device, 4096), std::vector<uint8_t>(4096, 0));
  ASSERT_ACL_OK(aclrtFree(device));
  ASSERT_ACL_OK(aclrtFree(other));
}

TEST_F(MemcpyExtApiTest, Memcpy2dAsyncRunsInStreamOrderAndCopiesOnDevice) {
  constexpr size_t kWidth = 100, kHeight = 3, kPitch = 128;
  const std::vector<uint8_t> src = Pattern(kPitch * kHeight, 9);
  uint8_t* host = MallocHost(kPitch * kHeight);
  std::memcpy(host, src.data(), src.size());
  uint8_t* a = Malloc(kPitch * kHeight);
  uint8_t* b = Malloc(kWidth * kHeight);
  HostGate gate;
  ASSERT_ACL_OK(aclrtLaunchHostFunc(stream_, &HostGate::Wait, &gate));
  ASSERT_ACL_OK(aclrtMemcpy2dAsync(a, kPitch, host, kPitch, kWidth, kHeight,
                                   ACL_MEMCPY_HOST_TO_DEVICE, stream_));
  ASSERT_ACL_OK(aclrtMemcpy2dAsync(b, kWidth, a, kPitch, kWidth, kHeight,
                                   ACL_MEMCPY_DEVICE_TO_DEVICE, stream_));
  EXPECT_EQ(Read(b, kWidth * kHeight),
            std::vector<uint8_t>(kWidth * kHeight, 0));  // held
  gate.Open();
  ASSERT_ACL_OK(aclrtSynchronizeStream(stream_));
  const std::vector<uint8_t> got = Read(b, kWidth * kHeight);
  for (size_t r = 0; r < kHeight; ++r) {
    EXPECT_EQ(0, std::memcmp(&got[r * kWidth], &src[r * kPitch], kWidth));
  }
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM,
                   aclrtMemcpy2dAsync(b, 8, a, kPitch, 16, 2,
                                      ACL_MEMCPY_DEVICE_TO_DEVICE, stream_));
  // 11-03, aclrtMemcpy2dAsync constraints: a copy type it does not support
  // (here host to host, by the pointers) is ACL_ERROR_INVALID_PARAM.
  std::vector<uint8_t> h1(64), h2(64);
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM,
                   aclrtMemcpy2dAsync(h1.data(), 16, h2.data(), 16, 16, 2,
                                      ACL_MEMCPY_DEFAULT, stream_));
  ASSERT_ACL_OK(aclrtFreeHost(host));
  ASSERT_ACL_OK(aclrtFree(a));
  ASSERT_ACL_OK(aclrtFree(b));
}

// --- Batch copies
// -----------------------------------------------------------------

struct BatchBuffers {
  std::vector<std::vector<uint8_t>> host;
  std::vector<void*> dsts, srcs;
  std::vector<size_t> sizes, dest_maxs;
};

TEST_F(MemcpyExtApiTest, MemcpyBatchCopiesEveryBufferBothWays) {
  // Ten copies, the first six with one attribute and the last four with
  // another (the reference's example), host to device.
  constexpr size_t kCount = 10;
  uint8_t* device = Malloc(kCount * 1024);
  std::vector<std::vector<uint8_t>> host;
  std::vector<void*> dsts, srcs;
  std::vector<size_t> sizes, maxs;
  for (size_t i = 0; i < kCount; ++i) {
    host.push_back(Pattern(64 + i * 90, static_cast<uint8_t>(i)));
    dsts.push_back(device + i * 1024);
    srcs.push_back(host.back().data());
    sizes.push_back(host.back().size());
    maxs.push_back(1024);
  }
  aclrtMemcpyBatchAttr attrs[2] = {HostToDevice(), HostToDevice()};
  attrs[1].srcLoc.type = ACL_MEM_LOCATION_TYPE_HOST_NUMA;
  size_t indexes[2] = {0, 6};
  size_t fail = 7;
  ASSERT_ACL_OK(aclrtMemcpyBatch(dsts.data(), maxs.data(), srcs.data(),
                                 sizes.data(), kCount, attrs, indexes, 2,
                                 &fail));
  EXPECT_EQ(fail, SIZE_MAX);
  for (size_t i = 0; i < kCount; ++i) {
    EXPECT_EQ(Read(device + i * 1024, sizes[i]), host[i]) << i;
  }
  // Back to fresh host buffers with V2 (one attribute for all).
  std::vector<std::vector<uint8_t>> back;
  for (size_t i = 0; i < kCount; ++i) {
    back.emplace_back(sizes[i], 0);
    dsts[i] = back[i].data();
    srcs[i] = device + i * 1024;
    maxs[i] = sizes[i];
  }
  aclrtMemcpyBatchAttr d2h = DeviceToHost();
  size_t zero = 0;
  ASSERT_ACL_OK(aclrtMemcpyBatchV2(dsts.data(), maxs.data(), srcs.data(),
                                   sizes.data(), kCount, &d2h, &zero, 1));
  EXPECT_EQ(back, host);
  ASSERT_ACL_OK(aclrtFree(device));
}

TEST_F(MemcpyExtApiTest, MemcpyBatchReportsWhichCopyFailed) {
  uint8_t* device = Malloc(4096);
  std::vector<uint8_t> h0(64, 1), h1(64, 2), h2(64, 3);
  void* dsts[3] = {device, device + 64, device + 128};
  void* srcs[3] = {h0.data(), h1.data(), h2.data()};
  size_t sizes[3] = {64, 64, 64};
  size_t maxs[3] = {64, 64, 64};
  aclrtMemcpyBatchAttr attrs[2] = {HostToDevice(), HostToDevice()};
  size_t indexes[2] = {0, 2};
  size_t fail = 0;

  // Copy 2's attribute names device 1, but its dst is on device 0.
  attrs[1].dstLoc.id = 1;
  EXPECT_ACL_ERROR(
      ACL_ERROR_RT_PARAM_INVALID,
      aclrtMemcpyBatch(dsts, maxs, srcs, sizes, 3, attrs, indexes, 2, &fail));
  EXPECT_EQ(fail, 2u);
  attrs[1].dstLoc.id = 0;
  // Copy 1 is host to host: its attribute says device, and the pair has one
  // location.
  dsts[1] = h0.data();
  EXPECT_ACL_ERROR(
      ACL_ERROR_RT_PARAM_INVALID,
      aclrtMemcpyBatch(dsts, maxs, srcs, sizes, 3, attrs, indexes, 2, &fail));
  EXPECT_EQ(fail, 1u);
  aclrtMemcpyBatchAttr h2h =
      Attr(ACL_MEM_LOCATION_TYPE_HOST, 0, ACL_MEM_LOCATION_TYPE_HOST, 0);
  aclrtMemcpyBatchAttr per_copy[3] = {HostToDevice(), h2h, HostToDevice()};
  size_t each[3] = {0, 1, 2};
  EXPECT_ACL_ERROR(
      ACL_ERROR_RT_PARAM_INVALID,
      aclrtMemcpyBatch(dsts, maxs, srcs, sizes, 3, per_copy, each, 3, &fail));
  EXPECT_EQ(fail, 1u);
  dsts[1] = device + 64;
  // Copy 0 runs past its allocation.
  dsts[0] = device + 4096 - 32;
  EXPECT_ACL_ERROR(
      ACL_ERROR_RT_PARAM_INVALID,
      aclrtMemcpyBatch(dsts, maxs, srcs, sizes, 3, attrs, indexes, 2, &fail));
  EXPECT_EQ(fail, 0u);
  dsts[0] = device;
  // Errors about no particular copy leave SIZE_MAX.
  fail = 5;
  size_t bad_start[2] = {1, 2};
  EXPECT_ACL_ERROR(
      ACL_ERROR_RT_PARAM_INVALID,
      aclrtMemcpyBatch(dsts, maxs, srcs, sizes, 3, attrs, bad_start, 2, &fail));
  EXPECT_EQ(fail, SIZE_MAX);
  size_t not_increasing[2] = {0, 0};
  EXPECT_ACL_ERROR(ACL_ERROR_RT_PARAM_INVALID,
                   aclrtMemcpyBatch(dsts, maxs, srcs, sizes, 3, attrs,
                                    not_increasing, 2, &fail));
  size_t past_end[2] = {0, 3};
  EXPECT_ACL_ERROR(
      ACL_ERROR_RT_PARAM_INVALID,
      aclrtMemcpyBatch(dsts, maxs, srcs, sizes, 3, attrs, past_end, 2, &fail));
  EXPECT_ACL_ERROR(
      ACL_ERROR_RT_PARAM_INVALID,
      aclrtMemcpyBatch(dsts, maxs, srcs, sizes, 3, attrs, indexes, 0, &fail));
  aclrtMemcpyBatchAttr four[4] = {HostToDevice(), HostToDevice(),
                                  HostToDevice(), HostToDevice()};
  size_t four_idx[4] = {0, 1, 2, 3};
  EXPECT_ACL_ERROR(
      ACL_ERROR_RT_PARAM_INVALID,
      aclrtMemcpyBatch(dsts, maxs, srcs, sizes, 3, four, four_idx, 4, &fail));
  EXPECT_EQ(fail, SIZE_MAX);
  // The ACL layer's checks: 100000.
  EXPECT_ACL_ERROR(
      ACL_ERROR_INVALID_PARAM,
      aclrtMemcpyBatch(dsts, maxs, srcs, sizes, 3, attrs, indexes, 2, nullptr));
  EXPECT_ACL_ERROR(
      ACL_ERROR_INVALID_PARAM,
      aclrtMemcpyBatch(dsts, maxs, srcs, nullptr, 3, attrs, indexes, 2, &fail));
  EXPECT_ACL_ERROR(
      ACL_ERROR_INVALID_PARAM,
      aclrtMemcpyBatch(dsts, maxs, srcs, sizes, 0, attrs, indexes, 2, &fail));
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM,
                   aclrtMemcpyBatch(nullptr, maxs, srcs, sizes, 3, attrs,
                                    indexes, 2, &fail));
  EXPECT_ACL_ERROR(
      ACL_ERROR_INVALID_PARAM,
      aclrtMemcpyBatch(dsts, maxs, srcs, sizes, 3, nullptr, indexes, 2, &fail));
  maxs[2] = 63;
  EXPECT_ACL_ERROR(
      ACL_ERROR_INVALID_PARAM,
      aclrtMemcpyBatch(dsts, maxs, srcs, sizes, 3, attrs, indexes, 2, &fail));
  maxs[2] = 64;
  attrs[0].rsv[3] = 1;
  EXPECT_ACL_ERROR(
      ACL_ERROR_INVALID_PARAM,
      aclrtMemcpyBatch(dsts, maxs, srcs, sizes, 3, attrs, indexes, 2, &fail));
  attrs[0].rsv[3] = 0;
  // Nothing was copied by any failed call.
  EXPECT_EQ(Read(device, 4096), std::vector<uint8_t>(4096, 0));
  // All sizes 0: success at once, nothing else looked at.
  size_t empty[3] = {0, 0, 0};
  fail = 9;
  EXPECT_ACL_OK(aclrtMemcpyBatch(nullptr, nullptr, nullptr, empty, 3, nullptr,
                                 nullptr, 0, &fail));
  EXPECT_EQ(fail, SIZE_MAX);
  EXPECT_ACL_OK(aclrtMemcpyBatchAsyncV2(nullptr, nullptr, nullptr, empty, 3,
                                        nullptr, nullptr, 0, stream_));
  ASSERT_ACL_OK(aclrtFree(device));
}

TEST_F(MemcpyExtApiTest, MemcpyBatchAsyncIsOneTaskInStreamOrder) {
  constexpr size_t kCount = 200;
  uint8_t* device = Malloc(kCount * 256);
  uint8_t* host = MallocHost(kCount * 256);
  const std::vector<uint8_t> src = Pattern(kCount * 256, 17);
  std::memcpy(host, src.data(), src.size());
  std::vector<void*> dsts, srcs;
  std::vector<size_t> sizes, maxs;
  for (size_t i = 0; i < kCount; ++i) {
    dsts.push_back(device + i * 256);
    srcs.push_back(host + i * 256);
    sizes.push_back(256);
    maxs.push_back(256);
  }
  aclrtMemcpyBatchAttr attr = HostToDevice();
  size_t zero = 0;
  size_t fail = 0;
  HostGate gate;
  ASSERT_ACL_OK(aclrtLaunchHostFunc(stream_, &HostGate::Wait, &gate));
  ASSERT_ACL_OK(aclrtMemcpyBatchAsync(dsts.data(), maxs.data(), srcs.data(),
                                      sizes.data(), kCount, &attr, &zero, 1,
                                      &fail, stream_));
  EXPECT_EQ(fail, SIZE_MAX);
  // Queued behind the held stream: nothing copied yet.
  EXPECT_EQ(Read(device, 256), std::vector<uint8_t>(256, 0));
  gate.Open();
  ASSERT_ACL_OK(aclrtSynchronizeStream(stream_));
  EXPECT_EQ(Read(device, kCount * 256), src);

  // An empty copy among others is refused by the asynchronous form (as
  // CANN), naming it; the synchronous form skips it.
  sizes[5] = 0;
  EXPECT_ACL_ERROR(
      ACL_ERROR_RT_PARAM_INVALID,
      aclrtMemcpyBatchAsync(dsts.data(), maxs.data(), srcs.data(), sizes.data(),
                            kCount, &attr, &zero, 1, &fail, stream_));
  EXPECT_EQ(fail, 5u);
  EXPECT_ACL_OK(aclrtMemcpyBatch(dsts.data(), maxs.data(), srcs.data(),
                                 sizes.data(), kCount, &attr, &zero, 1, &fail));
  sizes[5] = 256;
  // A stream that is not live.
  aclrtStream dead = nullptr;
  ASSERT_ACL_OK(aclrtCreateStream(&dead));
  ASSERT_ACL_OK(aclrtDestroyStream(dead));
  EXPECT_ACL_ERROR(
      ACL_ERROR_RT_PARAM_INVALID,
      aclrtMemcpyBatchAsyncV2(dsts.data(), maxs.data(), srcs.data(),
                              sizes.data(), kCount, &attr, &zero, 1, dead));
  ASSERT_ACL_OK(aclrtFreeHost(host));
  ASSERT_ACL_OK(aclrtFree(device));
}

TEST_F(MemcpyExtApiTest, MemcpyBatchSurfacesADeviceCopyFault) {
  uint8_t* device = Malloc(1024);
  std::vector<uint8_t> h(128, 0x77);
  void* dsts[2] = {device, device + 512};
  void* srcs[2] = {h.data(), h.data()};
  size_t sizes[2] = {128, 128};
  aclrtMemcpyBatchAttr attr = HostToDevice();
  size_t zero = 0;
  size_t fail = 0;
  ASSERT_ACL_OK(aclsimInjectFault(0, ACLSIM_FAULT_NEXT_COPY_FAILS));
  EXPECT_ACL_ERROR(
      ACL_ERROR_RT_SYS_DMA,
      aclrtMemcpyBatch(dsts, sizes, srcs, sizes, 2, &attr, &zero, 1, &fail));
  ASSERT_ACL_OK(aclsimInjectFault(0, ACLSIM_FAULT_NEXT_COPY_FAILS));
  ASSERT_ACL_OK(aclrtMemcpyBatchAsync(dsts, sizes, srcs, sizes, 2, &attr, &zero,
                                      1, &fail, stream_));
  EXPECT_ACL_ERROR(ACL_ERROR_RT_SYS_DMA, aclrtSynchronizeStream(stream_));
  ASSERT_ACL_OK(aclrtFree(device));
}

// --- Conditional and offset copies
// --------------------------------------------

// aclrtMemcpyAsyncWithCondition is deprecated (as in CANN).
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"
TEST_F(MemcpyExtApiTest,
       MemcpyAsyncWithConditionIsSynchronousForPageableMemory) {
  const std::vector<uint8_t> src = Pattern(4096, 5);
  uint8_t* device = Malloc(4096);
  HostGate gate;
  ASSERT_ACL_OK(aclrtLaunchHostFunc(stream_, &HostGate::Wait, &gate));
  // Page-locked host memory: queued behind the held stream.
  uint8_t* pinned = MallocHost(4096);
  std::memcpy(pinned, src.data(), 4096);
  ASSERT_ACL_OK(aclrtMemcpyAsyncWithCondition(
      device, 4096, pinned, 4096, ACL_MEMCPY_HOST_TO_DEVICE, stream_));
  EXPECT_EQ(Read(device, 4096), std::vector<uint8_t>(4096, 0));
  gate.Open();
  ASSERT_ACL_OK(aclrtSynchronizeStream(stream_));
  EXPECT_EQ(Read(device, 4096), src);
  // Registered host memory is page-locked too: queued.
  // (On a 4 KiB page, as aclrtHostRegister wants: 11-02.)
  const std::vector<uint8_t> registered = Pattern(4096, 9);
  std::unique_ptr<uint8_t, decltype(&std::free)> page(
      static_cast<uint8_t*>(std::aligned_alloc(4096, 4096)), &std::free);
  std::memcpy(page.get(), registered.data(), 4096);
  void* mapped = nullptr;
  ASSERT_ACL_OK(
      aclrtHostRegister(page.get(), 4096, ACL_HOST_REGISTER_MAPPED, &mapped));
  HostGate second;
  ASSERT_ACL_OK(aclrtLaunchHostFunc(stream_, &HostGate::Wait, &second));
  ASSERT_ACL_OK(aclrtMemcpyAsyncWithCondition(
      device, 4096, page.get(), 4096, ACL_MEMCPY_HOST_TO_DEVICE, stream_));
  EXPECT_EQ(Read(device, 4096), src);
  second.Open();
  ASSERT_ACL_OK(aclrtSynchronizeStream(stream_));
  EXPECT_EQ(Read(device, 4096), registered);
  ASSERT_ACL_OK(aclrtHostUnregister(page.get()));
  // Pageable host memory: done when the call returns.
  std::vector<uint8_t> back(4096, 0);
  ASSERT_ACL_OK(aclrtMemcpyAsyncWithCondition(
      back.data(), 4096, device, 4096, ACL_MEMCPY_DEVICE_TO_HOST, stream_));
  EXPECT_EQ(back, registered);
  EXPECT_ACL_OK(aclrtMemcpyAsyncWithCondition(
      nullptr, 0, nullptr, 0, ACL_MEMCPY_HOST_TO_DEVICE, stream_));
  EXPECT_ACL_ERROR(
      ACL_ERROR_INVALID_PARAM,
      aclrtMemcpyAsyncWithCondition(nullptr, 16, pinned, 16,
                                    ACL_MEMCPY_HOST_TO_DEVICE, stream_));
  EXPECT_ACL_ERROR(
      ACL_ERROR_INVALID_PARAM,
      aclrtMemcpyAsyncWithCondition(device, 8, pinned, 16,
                                    ACL_MEMCPY_HOST_TO_DEVICE, stream_));
  // Like aclrtMemcpyAsync's, the kind does not decide the direction.
  EXPECT_ACL_OK(aclrtMemcpyAsyncWithCondition(
      device, 16, pinned, 16, ACL_MEMCPY_DEVICE_TO_HOST, stream_));
  ASSERT_ACL_OK(aclrtSynchronizeStream(stream_));
  ASSERT_ACL_OK(aclrtFreeHost(pinned));
  ASSERT_ACL_OK(aclrtFree(device));
}
#pragma GCC diagnostic pop

TEST_F(MemcpyExtApiTest, MemcpyAsyncWithOffsetReadsTheBasesWhenItRuns) {
  uint8_t* cells = Malloc(64);
  uint8_t* a = Malloc(4096);
  uint8_t* b = Malloc(4096);
  uint8_t* c = Malloc(4096);
  const std::vector<uint8_t> src = Pattern(4096, 21);
  Write(a, src);
  void** dst_cell = reinterpret_cast<void**>(cells);
  const void** src_cell = reinterpret_cast<const void**>(cells + 8);
  WritePointer(dst_cell, b);
  WritePointer(src_cell, a);
  HostGate gate;
  ASSERT_ACL_OK(aclrtLaunchHostFunc(stream_, &HostGate::Wait, &gate));
  ASSERT_ACL_OK(
      aclrtMemcpyAsyncWithOffset(dst_cell, 1000, 100, src_cell, 500, 200,
                                 ACL_MEMCPY_INNER_DEVICE_TO_DEVICE, stream_));
  // The destination base changes before the task runs: the copy goes there.
  WritePointer(dst_cell, c);
  gate.Open();
  ASSERT_ACL_OK(aclrtSynchronizeStream(stream_));
  EXPECT_EQ(Read(b, 4096), std::vector<uint8_t>(4096, 0));
  const std::vector<uint8_t> got = Read(c, 4096);
  EXPECT_EQ(0, std::memcmp(&got[100], &src[200], 500));
  EXPECT_EQ(got[99], 0);
  EXPECT_EQ(got[600], 0);

  EXPECT_ACL_OK(aclrtMemcpyAsyncWithOffset(nullptr, 0, 0, nullptr, 0, 0,
                                           ACL_MEMCPY_DEVICE_TO_HOST, stream_));
  EXPECT_ACL_ERROR(
      ACL_ERROR_RT_PARAM_INVALID,
      aclrtMemcpyAsyncWithOffset(dst_cell, 64, 0, src_cell, 16, 0,
                                 ACL_MEMCPY_DEVICE_TO_DEVICE, stream_));
  EXPECT_ACL_ERROR(
      ACL_ERROR_RT_PARAM_INVALID,
      aclrtMemcpyAsyncWithOffset(dst_cell, 64, 0, src_cell, 16, 0,
                                 static_cast<aclrtMemcpyKind>(99), stream_));
  EXPECT_ACL_ERROR(
      ACL_ERROR_RT_PARAM_INVALID,
      aclrtMemcpyAsyncWithOffset(nullptr, 64, 0, src_cell, 16, 0,
                                 ACL_MEMCPY_INNER_DEVICE_TO_DEVICE, stream_));
  EXPECT_ACL_ERROR(
      ACL_ERROR_RT_PARAM_INVALID,
      aclrtMemcpyAsyncWithOffset(dst_cell, 8, 0, src_cell, 16, 0,
                                 ACL_MEMCPY_INNER_DEVICE_TO_DEVICE, stream_));
  void* host_cell[1] = {b};
  EXPECT_ACL_ERROR(
      ACL_ERROR_RT_PARAM_INVALID,
      aclrtMemcpyAsyncWithOffset(host_cell, 64, 0, src_cell, 16, 0,
                                 ACL_MEMCPY_INNER_DEVICE_TO_DEVICE, stream_));
  // A base + offset past the allocation fails the task.
  ASSERT_ACL_OK(aclrtMemcpyAsyncWithOffset(dst_cell, 64, 4090, src_cell, 16, 0,
                                           ACL_MEMCPY_INNER_DEVICE_TO_DEVICE,
                                           stream_));
  EXPECT_ACL_ERROR(ACL_ERROR_RT_PARAM_INVALID, aclrtSynchronizeStream(stream_));
  for (uint8_t* p : {cells, a, b, c}) ASSERT_ACL_OK(aclrtFree(p));
}

// --- Descriptor copies
// ----------------------------------------------------------

TEST_F(MemcpyExtApiTest, MemcpyDescriptorIsReadWhenTheTaskRuns) {
  size_t size = 0;
  ASSERT_ACL_OK(
      aclrtGetMemcpyDescSize(ACL_MEMCPY_INNER_DEVICE_TO_DEVICE, &size));
  EXPECT_EQ(size, 32u);
  uint8_t* desc = Malloc(size);
  uint8_t* a = Malloc(4096);
  uint8_t* b = Malloc(4096);
  uint8_t* c = Malloc(4096);
  const std::vector<uint8_t> src = Pattern(4096, 33);
  Write(a, src);
  ASSERT_ACL_OK(aclrtSetMemcpyDesc(desc, ACL_MEMCPY_INNER_DEVICE_TO_DEVICE, a,
                                   b, 4096, nullptr));
  ASSERT_ACL_OK(aclrtMemcpyAsyncWithDesc(
      desc, ACL_MEMCPY_INNER_DEVICE_TO_DEVICE, stream_));
  ASSERT_ACL_OK(aclrtSynchronizeStream(stream_));
  EXPECT_EQ(Read(b, 4096), src);

  // Rewritten after the task is queued, before it runs: the new copy.
  HostGate gate;
  ASSERT_ACL_OK(aclrtLaunchHostFunc(stream_, &HostGate::Wait, &gate));
  ASSERT_ACL_OK(aclrtMemcpyAsyncWithDesc(
      desc, ACL_MEMCPY_INNER_DEVICE_TO_DEVICE, stream_));
  ASSERT_ACL_OK(aclrtSetMemcpyDesc(desc, ACL_MEMCPY_INNER_DEVICE_TO_DEVICE, a,
                                   c, 100, nullptr));
  gate.Open();
  ASSERT_ACL_OK(aclrtSynchronizeStream(stream_));
  std::vector<uint8_t> want(4096, 0);
  std::memcpy(want.data(), src.data(), 100);
  EXPECT_EQ(Read(c, 4096), want);

  // A descriptor never set fails the task.
  uint8_t* blank = Malloc(size);
  ASSERT_ACL_OK(aclrtMemcpyAsyncWithDesc(
      blank, ACL_MEMCPY_INNER_DEVICE_TO_DEVICE, stream_));
  EXPECT_ACL_ERROR(ACL_ERROR_RT_PARAM_INVALID, aclrtSynchronizeStream(stream_));
  ASSERT_ACL_OK(aclrtFree(blank));
  for (uint8_t* p : {desc, a, b, c}) ASSERT_ACL_OK(aclrtFree(p));
}

TEST_F(MemcpyExtApiTest, MemcpyDescriptorRejectsBadArguments) {
  size_t size = 7;
  uint8_t* desc = Malloc(64);
  uint8_t* a = Malloc(64);
  std::vector<uint8_t> host(64);
  EXPECT_ACL_ERROR(
      ACL_ERROR_INVALID_PARAM,
      aclrtGetMemcpyDescSize(ACL_MEMCPY_INNER_DEVICE_TO_DEVICE, nullptr));
  EXPECT_ACL_ERROR(
      ACL_ERROR_INVALID_PARAM,
      aclrtGetMemcpyDescSize(static_cast<aclrtMemcpyKind>(99), &size));
  EXPECT_ACL_ERROR(ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
                   aclrtGetMemcpyDescSize(ACL_MEMCPY_DEVICE_TO_DEVICE, &size));
  EXPECT_EQ(size, 7u);
  const aclrtMemcpyKind inner = ACL_MEMCPY_INNER_DEVICE_TO_DEVICE;
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM,
                   aclrtSetMemcpyDesc(nullptr, inner, a, a, 8, nullptr));
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM,
                   aclrtSetMemcpyDesc(desc, inner, nullptr, a, 8, nullptr));
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM,
                   aclrtSetMemcpyDesc(desc, inner, a, nullptr, 8, nullptr));
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM,
                   aclrtSetMemcpyDesc(desc, inner, a, a, 0, nullptr));
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM,
                   aclrtSetMemcpyDesc(desc, inner, a, a, 8, desc));
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM,
                   aclrtSetMemcpyDesc(desc, static_cast<aclrtMemcpyKind>(-1), a,
                                      a, 8, nullptr));
  EXPECT_ACL_ERROR(
      ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
      aclrtSetMemcpyDesc(desc, ACL_MEMCPY_HOST_TO_DEVICE, a, a, 8, nullptr));
  EXPECT_ACL_ERROR(ACL_ERROR_RT_PARAM_INVALID,
                   aclrtSetMemcpyDesc(host.data(), inner, a, a, 8, nullptr));
  EXPECT_ACL_ERROR(ACL_ERROR_RT_PARAM_INVALID,
                   aclrtSetMemcpyDesc(desc + 40, inner, a, a, 8, nullptr));
  EXPECT_EQ(Read(desc, 64), std::vector<uint8_t>(64, 0));
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM,
                   aclrtMemcpyAsyncWithDesc(nullptr, inner, stream_));
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM,
                   aclrtMemcpyAsyncWithDesc(desc, inner, nullptr));
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM,
                   aclrtMemcpyAsyncWithDesc(
                       desc, static_cast<aclrtMemcpyKind>(42), stream_));
  EXPECT_ACL_ERROR(
      ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
      aclrtMemcpyAsyncWithDesc(desc, ACL_MEMCPY_DEVICE_TO_DEVICE, stream_));
  EXPECT_ACL_ERROR(ACL_ERROR_RT_PARAM_INVALID,
                   aclrtMemcpyAsyncWithDesc(host.data(), inner, stream_));
  ASSERT_ACL_OK(aclrtFree(desc));
  ASSERT_ACL_OK(aclrtFree(a));
}

// --- 32-bit fills
// -----------------------------------------------------------------

std::vector<uint8_t> Repeat32(uint32_t value, size_t n) {
  std::vector<uint8_t> out(n * 4);
  for (size_t i = 0; i < n; ++i) std::memcpy(&out[i * 4], &value, 4);
  return out;
}

TEST_F(MemcpyExtApiTest, MemsetD32FillsThePattern) {
  uint8_t* device = Malloc(1 << 20);
  ASSERT_ACL_OK(aclrtMemsetD32(device + 4, 1 << 20, 0xDEADBEEFu, 100000));
  const std::vector<uint8_t> got = Read(device, 400008);
  EXPECT_EQ(std::vector<uint8_t>(got.begin(), got.begin() + 4),
            std::vector<uint8_t>(4, 0));
  EXPECT_EQ(std::vector<uint8_t>(got.begin() + 4, got.begin() + 400004),
            Repeat32(0xDEADBEEFu, 100000));
  EXPECT_EQ(std::vector<uint8_t>(got.begin() + 400004, got.end()),
            std::vector<uint8_t>(4, 0));
  // A value of four equal bytes, on a stream behind a held gate.
  HostGate gate;
  ASSERT_ACL_OK(aclrtLaunchHostFunc(stream_, &HostGate::Wait, &gate));
  ASSERT_ACL_OK(aclrtMemsetD32Async(device, 64, 0x5A5A5A5Au, 16, stream_));
  EXPECT_EQ(Read(device, 4), std::vector<uint8_t>(4, 0));
  gate.Open();
  ASSERT_ACL_OK(aclrtSynchronizeStream(stream_));
  EXPECT_EQ(Read(device, 64), std::vector<uint8_t>(64, 0x5A));
  // Page-locked host memory, filled at once by both forms.
  uint32_t* host = reinterpret_cast<uint32_t*>(MallocHost(256));
  ASSERT_ACL_OK(aclrtMemsetD32(host, 256, 0x01020304u, 64));
  EXPECT_EQ(host[63], 0x01020304u);
  ASSERT_ACL_OK(aclrtMemsetD32Async(host, 256, 7u, 64, stream_));
  EXPECT_EQ(host[0], 7u);
  EXPECT_EQ(host[63], 7u);
  ASSERT_ACL_OK(aclrtFreeHost(host));
  ASSERT_ACL_OK(aclrtFree(device));
}

TEST_F(MemcpyExtApiTest, MemsetD32RejectsBadArguments) {
  uint8_t* device = Malloc(1024);
  std::vector<uint32_t> pageable(16, 0);
  EXPECT_ACL_OK(aclrtMemsetD32(nullptr, 0, 1, 0));
  EXPECT_ACL_OK(aclrtMemsetD32Async(nullptr, 0, 1, 0, stream_));
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM, aclrtMemsetD32(nullptr, 64, 1, 4));
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM,
                   aclrtMemsetD32(device + 2, 64, 1, 4));
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM, aclrtMemsetD32(device, 15, 1, 4));
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM,
                   aclrtMemsetD32(device, SIZE_MAX, 1, SIZE_MAX / 2));
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM,
                   aclrtMemsetD32(pageable.data(), 64, 1, 16));
  EXPECT_ACL_ERROR(ACL_ERROR_RT_PARAM_INVALID,
                   aclrtMemsetD32(device + 1020, 8, 1, 2));
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM,
                   aclrtMemsetD32Async(device + 2, 64, 1, 4, stream_));
  EXPECT_EQ(pageable, std::vector<uint32_t>(16, 0));
  EXPECT_EQ(Read(device, 1024), std::vector<uint8_t>(1024, 0));
  ASSERT_ACL_OK(aclrtFree(device));
}

// --- Cache maintenance
// ------------------------------------------------------------

TEST_F(MemcpyExtApiTest, FlushAndInvalidateAreCheckedNoOps) {
  uint8_t* device = Malloc(4096);
  Write(device, Pattern(4096, 1));
  std::vector<uint8_t> host(64, 3);
  for (auto* fn : {&aclrtMemFlush, &aclrtMemInvalidate}) {
    EXPECT_ACL_OK(fn(device, 4096));
    EXPECT_ACL_OK(fn(device + 100, 16));
    EXPECT_ACL_OK(fn(host.data(), host.size()));
    EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM, fn(nullptr, 16));
    EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM, fn(device, 0));
    EXPECT_ACL_ERROR(ACL_ERROR_RT_PARAM_INVALID, fn(device + 4000, 200));
  }
  EXPECT_EQ(Read(device, 4096), Pattern(4096, 1));
  ASSERT_ACL_OK(aclrtFree(device));
  EXPECT_ACL_ERROR(ACL_ERROR_RT_PARAM_INVALID, aclrtMemFlush(device, 16));
}

TEST_F(MemcpyExtApiTest, CmoAsyncTakesItsPlaceInStreamOrder) {
  uint8_t* device = Malloc(4096);
  Write(device, Pattern(4096, 2));
  std::atomic<bool> after{false};
  for (int32_t type = ACL_RT_CMO_TYPE_PREFETCH; type <= ACL_RT_CMO_TYPE_FLUSH;
       ++type) {
    ASSERT_ACL_OK(
        aclrtCmoAsync(device, 4096, static_cast<aclrtCmoType>(type), stream_));
  }
  ASSERT_ACL_OK(aclrtLaunchHostFunc(stream_, &SetFlag, &after));
  ASSERT_ACL_OK(aclrtSynchronizeStream(stream_));
  EXPECT_TRUE(after.load());
  EXPECT_EQ(Read(device, 4096), Pattern(4096, 2));
  std::vector<uint8_t> host(64);
  EXPECT_ACL_ERROR(
      ACL_ERROR_INVALID_PARAM,
      aclrtCmoAsync(nullptr, 64, ACL_RT_CMO_TYPE_PREFETCH, stream_));
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM,
                   aclrtCmoAsync(device, 0, ACL_RT_CMO_TYPE_PREFETCH, stream_));
  EXPECT_ACL_ERROR(
      ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
      aclrtCmoAsync(device, 64, static_cast<aclrtCmoType>(4), stream_));
  EXPECT_ACL_ERROR(
      ACL_ERROR_RT_PARAM_INVALID,
      aclrtCmoAsync(host.data(), 64, ACL_RT_CMO_TYPE_PREFETCH, stream_));
  EXPECT_ACL_ERROR(
      ACL_ERROR_RT_PARAM_INVALID,
      aclrtCmoAsync(device + 4000, 200, ACL_RT_CMO_TYPE_PREFETCH, stream_));
  // Memory of another device than the stream's.
  ASSERT_ACL_OK(aclrtSetDevice(1));
  uint8_t* other = Malloc(64);
  ASSERT_ACL_OK(aclrtSetDevice(0));
  EXPECT_ACL_ERROR(ACL_ERROR_RT_PARAM_INVALID,
                   aclrtCmoAsync(other, 64, ACL_RT_CMO_TYPE_PREFETCH, stream_));
  ASSERT_ACL_OK(aclrtFree(other));
  ASSERT_ACL_OK(aclrtFree(device));
}

TEST_F(MemcpyExtApiTest, CmoWaitBarrierWaitsForTheInvalidOperations) {
  uint8_t* device = Malloc(4096);
  aclrtStream other = nullptr;
  ASSERT_ACL_OK(aclrtCreateStream(&other));
  HostGate gate;
  ASSERT_ACL_OK(aclrtLaunchHostFunc(stream_, &HostGate::Wait, &gate));
  ASSERT_ACL_OK(aclrtCmoAsyncWithBarrier(device, 4096, ACL_RT_CMO_TYPE_INVALID,
                                         5, stream_));
  aclrtBarrierTaskInfo info;
  std::memset(&info, 0, sizeof info);
  info.barrierNum = 1;
  info.cmoInfo[0].cmoType = ACL_RT_CMO_TYPE_INVALID;
  info.cmoInfo[0].barrierId = 5;
  std::atomic<bool> passed{false};
  ASSERT_ACL_OK(aclrtCmoWaitBarrier(&info, other, 0));
  ASSERT_ACL_OK(aclrtLaunchHostFunc(other, &SetFlag, &passed));
  std::this_thread::sleep_for(std::chrono::milliseconds(100));
  EXPECT_FALSE(passed.load());  // the invalid operation has not run
  gate.Open();
  ASSERT_ACL_OK(aclrtSynchronizeStream(other));
  EXPECT_TRUE(passed.load());
  ASSERT_ACL_OK(aclrtSynchronizeStream(stream_));

  // A barrier id nothing was issued with passes at once; so do operations
  // issued after the wait.
  info.cmoInfo[0].barrierId = 9;
  ASSERT_ACL_OK(aclrtCmoWaitBarrier(&info, other, 0));
  ASSERT_ACL_OK(aclrtSynchronizeStream(other));

  // Argument checks.
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM,
                   aclrtCmoAsyncWithBarrier(
                       nullptr, 64, ACL_RT_CMO_TYPE_INVALID, 1, stream_));
  EXPECT_ACL_ERROR(
      ACL_ERROR_RT_PARAM_INVALID,
      aclrtCmoAsyncWithBarrier(device, 0, ACL_RT_CMO_TYPE_INVALID, 1, stream_));
  EXPECT_ACL_ERROR(ACL_ERROR_RT_PARAM_INVALID,
                   aclrtCmoAsyncWithBarrier(device, 64, ACL_RT_CMO_TYPE_INVALID,
                                            0, stream_));
  EXPECT_ACL_ERROR(ACL_ERROR_RT_PARAM_INVALID,
                   aclrtCmoAsyncWithBarrier(
                       device, 64, ACL_RT_CMO_TYPE_PREFETCH, 3, stream_));
  EXPECT_ACL_ERROR(ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
                   aclrtCmoAsyncWithBarrier(
                       device, 64, static_cast<aclrtCmoType>(7), 0, stream_));
  EXPECT_ACL_OK(
      aclrtCmoAsyncWithBarrier(device, 64, ACL_RT_CMO_TYPE_FLUSH, 0, stream_));
  EXPECT_ACL_ERROR(ACL_ERROR_RT_PARAM_INVALID,
                   aclrtCmoWaitBarrier(nullptr, other, 0));
  info.barrierNum = 0;
  EXPECT_ACL_ERROR(ACL_ERROR_RT_PARAM_INVALID,
                   aclrtCmoWaitBarrier(&info, other, 0));
  info.barrierNum = ACL_RT_CMO_MAX_BARRIER_NUM + 1;
  EXPECT_ACL_ERROR(ACL_ERROR_RT_PARAM_INVALID,
                   aclrtCmoWaitBarrier(&info, other, 0));
  info.barrierNum = 2;
  info.cmoInfo[1].cmoType = ACL_RT_CMO_TYPE_FLUSH;
  info.cmoInfo[1].barrierId = 2;
  EXPECT_ACL_ERROR(ACL_ERROR_RT_PARAM_INVALID,
                   aclrtCmoWaitBarrier(&info, other, 0));
  info.cmoInfo[1].cmoType = ACL_RT_CMO_TYPE_INVALID;
  info.cmoInfo[1].barrierId = 0;
  EXPECT_ACL_ERROR(ACL_ERROR_RT_PARAM_INVALID,
                   aclrtCmoWaitBarrier(&info, other, 0));
  info.cmoInfo[1].barrierId = 2;
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM,
                   aclrtCmoWaitBarrier(&info, other, 1));
  ASSERT_ACL_OK(aclrtSynchronizeStream(stream_));
  ASSERT_ACL_OK(aclrtDestroyStream(other));
  ASSERT_ACL_OK(aclrtFree(device));
}

TEST_F(MemcpyExtApiTest, CmoDescriptorIsReadWhenTheTaskRuns) {
  size_t size = 0;
  ASSERT_ACL_OK(aclrtCmoGetDescSize(&size));
  EXPECT_EQ(size, 32u);
  EXPECT_ACL_ERROR(ACL_ERROR_RT_PARAM_INVALID, aclrtCmoGetDescSize(nullptr));
  uint8_t* desc = Malloc(size);
  uint8_t* device = Malloc(4096);
  std::vector<uint8_t> host(64);
  ASSERT_ACL_OK(aclrtCmoSetDesc(desc, device, 4096));
  ASSERT_ACL_OK(
      aclrtCmoAsyncWithDesc(desc, ACL_RT_CMO_TYPE_PREFETCH, stream_, nullptr));
  ASSERT_ACL_OK(aclrtSynchronizeStream(stream_));
  // Rewritten before the task runs to a range that is not device memory:
  // the task sees the new range and fails.
  HostGate gate;
  ASSERT_ACL_OK(aclrtLaunchHostFunc(stream_, &HostGate::Wait, &gate));
  ASSERT_ACL_OK(
      aclrtCmoAsyncWithDesc(desc, ACL_RT_CMO_TYPE_PREFETCH, stream_, nullptr));
  ASSERT_ACL_OK(aclrtCmoSetDesc(desc, host.data(), host.size()));
  gate.Open();
  EXPECT_ACL_ERROR(ACL_ERROR_RT_PARAM_INVALID, aclrtSynchronizeStream(stream_));

  EXPECT_ACL_ERROR(ACL_ERROR_RT_PARAM_INVALID,
                   aclrtCmoSetDesc(nullptr, device, 64));
  EXPECT_ACL_ERROR(ACL_ERROR_RT_PARAM_INVALID,
                   aclrtCmoSetDesc(desc, nullptr, 64));
  EXPECT_ACL_ERROR(ACL_ERROR_RT_PARAM_INVALID,
                   aclrtCmoSetDesc(desc, device, 0));
  EXPECT_ACL_ERROR(ACL_ERROR_RT_PARAM_INVALID,
                   aclrtCmoSetDesc(host.data(), device, 64));
  EXPECT_ACL_ERROR(ACL_ERROR_RT_PARAM_INVALID,
                   aclrtCmoAsyncWithDesc(nullptr, ACL_RT_CMO_TYPE_PREFETCH,
                                         stream_, nullptr));
  EXPECT_ACL_ERROR(
      ACL_ERROR_RT_PARAM_INVALID,
      aclrtCmoAsyncWithDesc(desc, ACL_RT_CMO_TYPE_PREFETCH, stream_, desc));
  EXPECT_ACL_ERROR(ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
                   aclrtCmoAsyncWithDesc(desc, static_cast<aclrtCmoType>(-3),
                                         stream_, nullptr));
  EXPECT_ACL_ERROR(ACL_ERROR_RT_PARAM_INVALID,
                   aclrtCmoAsyncWithDesc(host.data(), ACL_RT_CMO_TYPE_PREFETCH,
                                         stream_, nullptr));
  uint8_t* blank = Malloc(size);
  ASSERT_ACL_OK(
      aclrtCmoAsyncWithDesc(blank, ACL_RT_CMO_TYPE_PREFETCH, stream_, nullptr));
  EXPECT_ACL_ERROR(ACL_ERROR_RT_PARAM_INVALID, aclrtSynchronizeStream(stream_));
  for (uint8_t* p : {desc, device, blank}) ASSERT_ACL_OK(aclrtFree(p));
}

// --- Snapshot: gating, drained copies, descriptors that survive
// ---------------

TEST_F(MemcpyExtApiTest, CopiesBlockWhileLockedAndEmptyOnesDoNot) {
  uint8_t* device = Malloc(4096);
  std::vector<uint8_t> host(64, 0x42);
  void* dsts[1] = {device};
  void* srcs[1] = {host.data()};
  size_t sizes[1] = {64};
  size_t empty[1] = {0};
  aclrtMemcpyBatchAttr attr = HostToDevice();
  size_t zero = 0;
  size_t fail = 0;
  ASSERT_ACL_OK(aclrtSnapShotProcessLock(getpid(), nullptr));
  // Empty variants return at once while locked.
  EXPECT_ACL_OK(
      aclrtMemcpyBatch(dsts, sizes, srcs, empty, 1, &attr, &zero, 1, &fail));
  EXPECT_ACL_OK(aclrtMemcpy2d(device, 64, host.data(), 64, 0, 1,
                              ACL_MEMCPY_HOST_TO_DEVICE));
  EXPECT_ACL_OK(aclrtMemsetD32(device, 64, 1, 0));
  // aclrtMemFlush is not gated.
  EXPECT_ACL_OK(aclrtMemFlush(device, 64));
  std::future<aclError> batch = std::async(std::launch::async, [&] {
    return aclrtMemcpyBatch(dsts, sizes, srcs, sizes, 1, &attr, &zero, 1,
                            &fail);
  });
  std::future<aclError> fill = std::async(std::launch::async, [&] {
    return aclrtMemsetD32(device + 64, 64, 0x11223344u, 16);
  });
  EXPECT_EQ(batch.wait_for(std::chrono::milliseconds(150)),
            std::future_status::timeout);
  EXPECT_EQ(fill.wait_for(std::chrono::milliseconds(1)),
            std::future_status::timeout);
  ASSERT_ACL_OK(aclrtSnapShotProcessUnlock(getpid(), nullptr));
  EXPECT_ACL_OK(batch.get());
  EXPECT_ACL_OK(fill.get());
  const std::vector<uint8_t> got = Read(device, 128);
  EXPECT_EQ(std::vector<uint8_t>(got.begin(), got.begin() + 64), host);
  EXPECT_EQ(std::vector<uint8_t>(got.begin() + 64, got.end()),
            Repeat32(0x11223344u, 16));
  ASSERT_ACL_OK(aclrtFree(device));
}

TEST_F(MemcpyExtApiTest, QueuedBatchAndDescriptorsSurviveASnapshot) {
  uint8_t* desc = Malloc(32);
  uint8_t* a = Malloc(4096);
  uint8_t* b = Malloc(4096);
  uint8_t* host = MallocHost(4096);
  const std::vector<uint8_t> src = Pattern(4096, 77);
  std::memcpy(host, src.data(), 4096);
  // A batch queued before the lock: the backup drains it, so its bytes are
  // in the backup.
  std::vector<void*> dsts, srcs;
  std::vector<size_t> sizes;
  for (size_t i = 0; i < 16; ++i) {
    dsts.push_back(a + i * 256);
    srcs.push_back(host + i * 256);
    sizes.push_back(256);
  }
  aclrtMemcpyBatchAttr attr = HostToDevice();
  size_t zero = 0;
  size_t fail = 0;
  ASSERT_ACL_OK(aclrtMemcpyBatchAsync(dsts.data(), sizes.data(), srcs.data(),
                                      sizes.data(), 16, &attr, &zero, 1, &fail,
                                      stream_));
  ASSERT_ACL_OK(aclrtSetMemcpyDesc(desc, ACL_MEMCPY_INNER_DEVICE_TO_DEVICE, a,
                                   b, 4096, nullptr));
  ASSERT_ACL_OK(aclrtSnapShotProcessLock(getpid(), nullptr));
  ASSERT_ACL_OK(aclrtSnapShotProcessBackup(getpid(), nullptr));
  ASSERT_ACL_OK(aclsimInjectFault(0, ACLSIM_FAULT_DEVICE_MEMORY_LOSS));
  ASSERT_ACL_OK(aclrtSnapShotProcessRestore(getpid(), nullptr));
  ASSERT_ACL_OK(aclrtSnapShotProcessUnlock(getpid(), nullptr));
  // The restored descriptor drives the same copy, of the restored bytes.
  ASSERT_ACL_OK(aclrtMemcpyAsyncWithDesc(
      desc, ACL_MEMCPY_INNER_DEVICE_TO_DEVICE, stream_));
  ASSERT_ACL_OK(aclrtSynchronizeStream(stream_));
  EXPECT_EQ(Read(a, 4096), src);
  EXPECT_EQ(Read(b, 4096), src);
  ASSERT_ACL_OK(aclrtFreeHost(host));
  for (uint8_t* p : {desc, a, b}) ASSERT_ACL_OK(aclrtFree(p));
}

}  // namespace
