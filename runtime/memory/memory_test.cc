// Device and host memory below the C API (runtime/memory.cc, DESIGN.md §5.5):
// allocation and free codes, copies of every kind with their kind and extent
// checks, fills, stream-ordered copies and fills, 64-bit value waits and
// writes, pointer attributes, allocation ranges, memory info, and copies
// between the two simulated devices with and without peer access.
#include <array>
#include <cstdint>
#include <cstring>
#include <vector>

#include "absl/status/status.h"
#include "absl/time/clock.h"
#include "absl/time/time.h"
#include "acl/acl_rt.h"
#include "acl/error_codes/rt_error_codes.h"
#include "gtest/gtest.h"
#include "runtime/base/error.h"
#include "runtime/device_info/device_info.h"
#include "runtime/private_runtime.h"
#include "runtime/streams/streams.h"
#include "testing/status_matchers.h"

namespace ascend::rt {
namespace {

constexpr int32_t kInvalidParam = 100000;  // ACL_ERROR_INVALID_PARAM

absl::Time Soon() { return absl::Now() + absl::Seconds(10); }

class MemoryTest : public ::testing::Test {
 protected:
  void SetUp() override { ASSERT_OK(rt_->SetDevice(0)); }

  // The `size` bytes at device pointer `p`, read back with a synchronous copy.
  std::vector<uint8_t> Read(const void* p, size_t size) {
    std::vector<uint8_t> out(size, 0);
    EXPECT_OK(rt_.memory().Memcpy(out.data(), size, p, size,
                                  ACL_MEMCPY_DEVICE_TO_HOST));
    return out;
  }

  PrivateRuntime rt_;
};

TEST_F(MemoryTest, MallocReturnsDistinctWritableBlocks) {
  ASSERT_OK_AND_ASSIGN(void* a,
                       rt_.memory().Malloc(100, ACL_MEM_MALLOC_HUGE_FIRST));
  ASSERT_OK_AND_ASSIGN(void* b,
                       rt_.memory().Malloc(100, ACL_MEM_MALLOC_HUGE_FIRST));
  ASSERT_NE(a, nullptr);
  ASSERT_NE(b, nullptr);
  EXPECT_NE(a, b);
  const std::vector<uint8_t> ones(100, 1), twos(100, 2);
  ASSERT_OK(
      rt_.memory().Memcpy(a, 100, ones.data(), 100, ACL_MEMCPY_HOST_TO_DEVICE));
  ASSERT_OK(
      rt_.memory().Memcpy(b, 100, twos.data(), 100, ACL_MEMCPY_HOST_TO_DEVICE));
  EXPECT_EQ(Read(a, 100), ones);
  EXPECT_EQ(Read(b, 100), twos);
  EXPECT_OK(rt_.memory().Free(a));
  EXPECT_OK(rt_.memory().Free(b));
}

TEST_F(MemoryTest, MallocSizeCodes) {
  EXPECT_EQ(
      ErrorCode(rt_.memory().Malloc(0, ACL_MEM_MALLOC_HUGE_FIRST).status()),
      kInvalidParam);
  // More than the simulated device holds (64 MiB).
  EXPECT_EQ(ErrorCode(rt_.memory()
                          .Malloc(size_t{1} << 30, ACL_MEM_MALLOC_NORMAL_ONLY)
                          .status()),
            ACL_ERROR_RT_MEMORY_ALLOCATION);
  // A refused allocation leaves the device able to allocate.
  ASSERT_OK_AND_ASSIGN(void* p,
                       rt_.memory().Malloc(4096, ACL_MEM_MALLOC_NORMAL_ONLY));
  EXPECT_OK(rt_.memory().Free(p));
}

TEST_F(MemoryTest, PoliciesChooseThePageSize) {
  struct Case {
    aclrtMemMallocPolicy policy;
    size_t size;
    uint32_t page;
  };
  const Case cases[] = {
      {ACL_MEM_MALLOC_HUGE_FIRST, 4096, 4096},
      {ACL_MEM_MALLOC_HUGE_FIRST, 4u << 20, 2u << 20},
      {ACL_MEM_MALLOC_HUGE_ONLY, 4096, 2u << 20},
      {ACL_MEM_MALLOC_NORMAL_ONLY, 4u << 20, 4096},
      {ACL_MEM_MALLOC_HUGE_FIRST_P2P, 4u << 20, 2u << 20},
      {ACL_MEM_MALLOC_NORMAL_ONLY_P2P, 4096, 4096},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(::testing::Message()
                 << "policy " << c.policy << " size " << c.size);
    ASSERT_OK_AND_ASSIGN(void* p, rt_.memory().Malloc(c.size, c.policy));
    ASSERT_OK_AND_ASSIGN(aclrtPtrAttributes attr,
                         rt_.memory().PointerAttributes(p));
    EXPECT_EQ(attr.location.type, ACL_MEM_LOCATION_TYPE_DEVICE);
    EXPECT_EQ(attr.location.id, 0u);
    EXPECT_EQ(attr.pageSize, c.page);
    EXPECT_OK(rt_.memory().Free(p));
  }
}

TEST_F(MemoryTest, DoubleFreeAndForeignPointersAreRefused) {
  ASSERT_OK_AND_ASSIGN(void* p,
                       rt_.memory().Malloc(1024, ACL_MEM_MALLOC_HUGE_FIRST));
  ASSERT_OK_AND_ASSIGN(void* keep,
                       rt_.memory().Malloc(1024, ACL_MEM_MALLOC_HUGE_FIRST));
  // Not the start of the allocation.
  EXPECT_EQ(ErrorCode(rt_.memory().Free(static_cast<char*>(p) + 16)),
            ACL_ERROR_RT_PARAM_INVALID);
  ASSERT_OK(rt_.memory().Free(p));
  EXPECT_EQ(ErrorCode(rt_.memory().Free(p)), ACL_ERROR_RT_PARAM_INVALID);
  // Host memory, and host memory from MallocHost, are not device memory.
  int on_stack = 0;
  EXPECT_EQ(ErrorCode(rt_.memory().Free(&on_stack)),
            ACL_ERROR_RT_PARAM_INVALID);
  ASSERT_OK_AND_ASSIGN(void* host, rt_.memory().MallocHost(64));
  EXPECT_EQ(ErrorCode(rt_.memory().Free(host)), ACL_ERROR_RT_PARAM_INVALID);
  // The refused frees changed nothing: the other block is still live.
  ASSERT_OK_AND_ASSIGN(auto range, rt_.memory().AllocationRange(keep));
  EXPECT_EQ(range.first, keep);
  EXPECT_OK(rt_.memory().FreeHost(host));
  EXPECT_OK(rt_.memory().Free(keep));
}

TEST_F(MemoryTest, MallocHostAndFreeHost) {
  EXPECT_EQ(ErrorCode(rt_.memory().MallocHost(0).status()), kInvalidParam);
  ASSERT_OK_AND_ASSIGN(void* host, rt_.memory().MallocHost(100));
  ASSERT_NE(host, nullptr);
  EXPECT_EQ(reinterpret_cast<uintptr_t>(host) % 64, 0u);
  std::memset(host, 0x5A, 100);  // writable, all of it
  ASSERT_OK_AND_ASSIGN(aclrtPtrAttributes attr,
                       rt_.memory().PointerAttributes(host));
  EXPECT_EQ(attr.location.type, ACL_MEM_LOCATION_TYPE_HOST);
  // Not an address from MallocHost: the middle of one, a device pointer.
  EXPECT_EQ(ErrorCode(rt_.memory().FreeHost(static_cast<char*>(host) + 8)),
            ACL_ERROR_RT_PARAM_INVALID);
  ASSERT_OK_AND_ASSIGN(void* dev,
                       rt_.memory().Malloc(64, ACL_MEM_MALLOC_HUGE_FIRST));
  EXPECT_EQ(ErrorCode(rt_.memory().FreeHost(dev)), ACL_ERROR_RT_PARAM_INVALID);
  ASSERT_OK(rt_.memory().FreeHost(host));
  EXPECT_EQ(ErrorCode(rt_.memory().FreeHost(host)), ACL_ERROR_RT_PARAM_INVALID);
  // A device pointer refused by FreeHost is still live.
  EXPECT_OK(rt_.memory().Free(dev));
}

TEST_F(MemoryTest, MemcpyOfEveryKind) {
  ASSERT_OK_AND_ASSIGN(void* d1,
                       rt_.memory().Malloc(256, ACL_MEM_MALLOC_HUGE_FIRST));
  ASSERT_OK_AND_ASSIGN(void* d2,
                       rt_.memory().Malloc(256, ACL_MEM_MALLOC_HUGE_FIRST));
  std::vector<uint8_t> src(256);
  for (size_t i = 0; i < src.size(); ++i) src[i] = static_cast<uint8_t>(i);
  std::vector<uint8_t> dst(256, 0);

  ASSERT_OK(rt_.memory().Memcpy(dst.data(), 256, src.data(), 256,
                                ACL_MEMCPY_HOST_TO_HOST));
  EXPECT_EQ(dst, src);

  ASSERT_OK(
      rt_.memory().Memcpy(d1, 256, src.data(), 256, ACL_MEMCPY_HOST_TO_DEVICE));
  ASSERT_OK(rt_.memory().Memcpy(d2, 256, d1, 256, ACL_MEMCPY_DEVICE_TO_DEVICE));
  std::fill(dst.begin(), dst.end(), 0);
  ASSERT_OK(
      rt_.memory().Memcpy(dst.data(), 256, d2, 256, ACL_MEMCPY_DEVICE_TO_HOST));
  EXPECT_EQ(dst, src);

  // DEFAULT infers the direction from the pointers.
  std::vector<uint8_t> other(256, 0xEE);
  ASSERT_OK(
      rt_.memory().Memcpy(d1, 256, other.data(), 256, ACL_MEMCPY_DEFAULT));
  EXPECT_EQ(Read(d1, 256), other);
  ASSERT_OK(rt_.memory().Memcpy(d2, 256, d1, 128, ACL_MEMCPY_DEFAULT));
  std::vector<uint8_t> want = src;
  std::fill(want.begin(), want.begin() + 128, 0xEE);
  EXPECT_EQ(Read(d2, 256), want);

  // HOST_TO_BUF_TO_DEVICE is a host-to-device copy; INNER is device-to-device
  // within one device.
  ASSERT_OK(rt_.memory().Memcpy(d1, 256, src.data(), 256,
                                ACL_MEMCPY_HOST_TO_BUF_TO_DEVICE));
  EXPECT_EQ(Read(d1, 256), src);
  ASSERT_OK(
      rt_.memory().Memcpy(d2, 256, d1, 256, ACL_MEMCPY_INNER_DEVICE_TO_DEVICE));
  EXPECT_EQ(Read(d2, 256), src);
  // INTER names two devices, but the pointers decide (11-03).
  ASSERT_OK(
      rt_.memory().Memcpy(d2, 256, d1, 256, ACL_MEMCPY_INTER_DEVICE_TO_DEVICE));
  EXPECT_EQ(Read(d2, 256), src);

  // A zero-byte copy does nothing, even with a wrong kind.
  EXPECT_OK(
      rt_.memory().Memcpy(d1, 256, src.data(), 0, ACL_MEMCPY_DEVICE_TO_HOST));
  EXPECT_OK(rt_.memory().Free(d1));
  EXPECT_OK(rt_.memory().Free(d2));
}

// 11-03 (aclrtMemcpy `kind`): the kind does not decide the direction, the
// pointers do; every pair below copies.
TEST_F(MemoryTest, ThePointersDecideTheDirectionWhateverTheKind) {
  ASSERT_OK_AND_ASSIGN(void* d,
                       rt_.memory().Malloc(64, ACL_MEM_MALLOC_HUGE_FIRST));
  ASSERT_OK(rt_.memory().Memset(d, 64, 0x11, 64));
  std::vector<uint8_t> host(64, 0x22);
  std::vector<uint8_t> host2(64, 0x33);
  const std::vector<uint8_t> ones(64, 0x11);
  ASSERT_OK(
      rt_.memory().Memcpy(host.data(), 64, d, 64, ACL_MEMCPY_HOST_TO_DEVICE));
  EXPECT_EQ(host, ones);
  ASSERT_OK(rt_.memory().Memcpy(host.data(), 64, host2.data(), 64,
                                ACL_MEMCPY_DEVICE_TO_DEVICE));
  EXPECT_EQ(host, host2);
  ASSERT_OK(
      rt_.memory().Memcpy(d, 64, host.data(), 64, ACL_MEMCPY_DEVICE_TO_HOST));
  EXPECT_EQ(Read(d, 64), host2);
  ASSERT_OK(rt_.memory().Memcpy(d, 64, ones.data(), 64,
                                ACL_MEMCPY_INNER_DEVICE_TO_DEVICE));
  EXPECT_EQ(Read(d, 64), ones);
  // (Out-of-range enum values are the ACL layer's to refuse: runtime.h takes
  // valid enums only, and loading any other value is undefined.)
  // A count above destMax and NULL pointers are 100000.
  EXPECT_EQ(ErrorCode(rt_.memory().Memcpy(d, 32, host.data(), 64,
                                          ACL_MEMCPY_HOST_TO_DEVICE)),
            kInvalidParam);
  EXPECT_EQ(ErrorCode(rt_.memory().Memcpy(nullptr, 64, host.data(), 64,
                                          ACL_MEMCPY_HOST_TO_DEVICE)),
            kInvalidParam);
  EXPECT_EQ(Read(d, 64), ones);
  EXPECT_OK(rt_.memory().Free(d));
}

TEST_F(MemoryTest, CopiesPastTheEndAreRefused) {
  ASSERT_OK_AND_ASSIGN(void* d,
                       rt_.memory().Malloc(64, ACL_MEM_MALLOC_HUGE_FIRST));
  ASSERT_OK(rt_.memory().Memset(d, 64, 0, 64));
  std::vector<uint8_t> host(128, 0x7F);
  char* mid = static_cast<char*>(d) + 32;
  // Into the device: 64 bytes from the middle of a 64-byte block.
  EXPECT_EQ(ErrorCode(rt_.memory().Memcpy(mid, 128, host.data(), 64,
                                          ACL_MEMCPY_HOST_TO_DEVICE)),
            ACL_ERROR_RT_PARAM_INVALID);
  // Out of the device.
  EXPECT_EQ(ErrorCode(rt_.memory().Memcpy(host.data(), 128, mid, 64,
                                          ACL_MEMCPY_DEVICE_TO_HOST)),
            ACL_ERROR_RT_PARAM_INVALID);
  EXPECT_EQ(host, std::vector<uint8_t>(128, 0x7F));
  EXPECT_EQ(Read(d, 64), std::vector<uint8_t>(64, 0));
  // Exactly to the end is fine.
  ASSERT_OK(
      rt_.memory().Memcpy(mid, 32, host.data(), 32, ACL_MEMCPY_HOST_TO_DEVICE));
  std::vector<uint8_t> want(64, 0);
  std::fill(want.begin() + 32, want.end(), 0x7F);
  EXPECT_EQ(Read(d, 64), want);
  // A freed block is neither device nor host memory.
  ASSERT_OK(rt_.memory().Free(d));
  EXPECT_EQ(ErrorCode(rt_.memory().Memcpy(host.data(), 64, d, 64,
                                          ACL_MEMCPY_DEFAULT)),
            ACL_ERROR_RT_PARAM_INVALID);
}

TEST_F(MemoryTest, MemsetFillsBytesAndChecksTheExtent) {
  ASSERT_OK_AND_ASSIGN(void* d,
                       rt_.memory().Malloc(64, ACL_MEM_MALLOC_HUGE_FIRST));
  ASSERT_OK(rt_.memory().Memset(d, 64, 0x1234, 64));  // the low byte only
  EXPECT_EQ(Read(d, 64), std::vector<uint8_t>(64, 0x34));
  ASSERT_OK(rt_.memory().Memset(static_cast<char*>(d) + 8, 56, 0, 8));
  std::vector<uint8_t> want(64, 0x34);
  std::fill(want.begin() + 8, want.begin() + 16, 0);
  EXPECT_EQ(Read(d, 64), want);
  EXPECT_EQ(ErrorCode(rt_.memory().Memset(d, 32, 1, 64)), kInvalidParam);
  EXPECT_EQ(
      ErrorCode(rt_.memory().Memset(static_cast<char*>(d) + 32, 64, 1, 64)),
      ACL_ERROR_RT_PARAM_INVALID);
  EXPECT_EQ(ErrorCode(rt_.memory().Memset(nullptr, 64, 1, 64)), kInvalidParam);
  EXPECT_EQ(Read(d, 64), want);
  // Host memory is accepted too.
  std::vector<uint8_t> host(16, 0);
  ASSERT_OK(rt_.memory().Memset(host.data(), 16, 9, 16));
  EXPECT_EQ(host, std::vector<uint8_t>(16, 9));
  EXPECT_OK(rt_.memory().Free(d));
}

TEST_F(MemoryTest, AsyncCopiesAndFillsRunInStreamOrder) {
  ASSERT_OK_AND_ASSIGN(void* stream, Streams::Of(*rt_)->CreateStream(0, 0));
  constexpr size_t kSize = 1 << 16;
  ASSERT_OK_AND_ASSIGN(void* d,
                       rt_.memory().Malloc(kSize, ACL_MEM_MALLOC_HUGE_FIRST));
  std::vector<uint8_t> src(kSize, 0x01);
  std::vector<uint8_t> out1(kSize, 0), out2(kSize, 0);
  // fill 0xAA -> copy out -> copy src in -> fill first half 0x55 -> copy out.
  for (int round = 0; round < 20; ++round) {
    ASSERT_OK(rt_.memory().MemsetAsync(d, kSize, 0xAA, kSize, stream));
    ASSERT_OK(rt_.memory().MemcpyAsync(out1.data(), kSize, d, kSize,
                                       ACL_MEMCPY_DEVICE_TO_HOST, stream));
    ASSERT_OK(rt_.memory().MemcpyAsync(d, kSize, src.data(), kSize,
                                       ACL_MEMCPY_HOST_TO_DEVICE, stream));
    ASSERT_OK(rt_.memory().MemsetAsync(d, kSize, 0x55, kSize / 2, stream));
    ASSERT_OK(rt_.memory().MemcpyAsync(out2.data(), kSize, d, kSize,
                                       ACL_MEMCPY_DEVICE_TO_HOST, stream));
    ASSERT_OK(Streams::Of(*rt_)->SynchronizeStream(stream, Soon()));
    ASSERT_EQ(out1, std::vector<uint8_t>(kSize, 0xAA)) << "round " << round;
    std::vector<uint8_t> want(kSize, 0x01);
    std::fill(want.begin(), want.begin() + kSize / 2, 0x55);
    ASSERT_EQ(out2, want) << "round " << round;
  }
  // Refused async calls enqueue nothing and report at submission.
  EXPECT_EQ(
      ErrorCode(rt_.memory().MemcpyAsync(out1.data(), kSize, out2.data(), kSize,
                                         ACL_MEMCPY_HOST_TO_DEVICE, stream)),
      ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
  EXPECT_EQ(ErrorCode(rt_.memory().MemsetAsync(static_cast<char*>(d) + 1, kSize,
                                               0, kSize, stream)),
            ACL_ERROR_RT_PARAM_INVALID);
  int not_a_stream = 0;
  EXPECT_EQ(
      ErrorCode(rt_.memory().MemsetAsync(d, kSize, 0, kSize, &not_a_stream)),
      ACL_ERROR_RT_PARAM_INVALID);
  ASSERT_OK(Streams::Of(*rt_)->SynchronizeStream(stream, Soon()));
  // The async path on the default stream (null) too.
  ASSERT_OK(rt_.memory().MemsetAsync(d, kSize, 0x42, kSize, nullptr));
  ASSERT_OK(Streams::Of(*rt_)->SynchronizeStream(nullptr, Soon()));
  EXPECT_EQ(Read(d, kSize), std::vector<uint8_t>(kSize, 0x42));
  EXPECT_OK(rt_.memory().Free(d));
  EXPECT_OK(Streams::Of(*rt_)->DestroyStream(stream, false));
}

TEST_F(MemoryTest, ValueWaitHoldsTheStreamUntilValueWrite) {
  ASSERT_OK_AND_ASSIGN(void* waiter, Streams::Of(*rt_)->CreateStream(0, 0));
  ASSERT_OK_AND_ASSIGN(void* writer, Streams::Of(*rt_)->CreateStream(0, 0));
  ASSERT_OK_AND_ASSIGN(void* d,
                       rt_.memory().Malloc(64, ACL_MEM_MALLOC_HUGE_FIRST));
  ASSERT_OK(rt_.memory().Memset(d, 64, 0, 64));
  auto* word = static_cast<uint64_t*>(d);
  uint64_t after = 0;
  // waiter: wait for *word >= 7, then copy word[1] out.
  ASSERT_OK(rt_.memory().ValueWait(word, 7, ACL_STREAM_WAIT_VALUE_GEQ, waiter));
  ASSERT_OK(rt_.memory().MemcpyAsync(&after, 8, word + 1, 8,
                                     ACL_MEMCPY_DEVICE_TO_HOST, waiter));
  absl::SleepFor(absl::Milliseconds(30));
  ASSERT_OK_AND_ASSIGN(bool idle, Streams::Of(*rt_)->StreamIdle(waiter));
  EXPECT_FALSE(idle);
  // Too small a value does not release it.
  ASSERT_OK(rt_.memory().ValueWrite(word, 3, 0, writer));
  ASSERT_OK(Streams::Of(*rt_)->SynchronizeStream(writer, Soon()));
  absl::SleepFor(absl::Milliseconds(30));
  ASSERT_OK_AND_ASSIGN(idle, Streams::Of(*rt_)->StreamIdle(waiter));
  EXPECT_FALSE(idle);
  // word[1] first, then the released value: the copy sees word[1].
  ASSERT_OK(rt_.memory().ValueWrite(word + 1, 0xFEEDull, 0, writer));
  ASSERT_OK(rt_.memory().ValueWrite(word, 9, 0, writer));
  ASSERT_OK(Streams::Of(*rt_)->SynchronizeStream(waiter, Soon()));
  EXPECT_EQ(after, 0xFEEDull);
  uint64_t current = 0;
  ASSERT_OK(
      rt_.memory().Memcpy(&current, 8, word, 8, ACL_MEMCPY_DEVICE_TO_HOST));
  EXPECT_EQ(current, 9u);
  // EQ waits for the exact value. (Released by a value write, which is
  // atomic like the wait's poll: a plain copy into a word a wait is polling
  // is a data race.)
  ASSERT_OK(rt_.memory().ValueWait(word, 11, ACL_STREAM_WAIT_VALUE_EQ, waiter));
  ASSERT_OK(rt_.memory().ValueWrite(word, 11, 0, writer));
  ASSERT_OK(Streams::Of(*rt_)->SynchronizeStream(waiter, Soon()));

  // Codes: unaligned 107008, bad flags 100000, not device memory 107000.
  EXPECT_EQ(
      ErrorCode(rt_.memory().ValueWait(static_cast<char*>(d) + 4, 1,
                                       ACL_STREAM_WAIT_VALUE_GEQ, waiter)),
      ACL_ERROR_RT_ADDR_UNALIGNED);
  EXPECT_EQ(ErrorCode(rt_.memory().ValueWrite(static_cast<char*>(d) + 4, 1, 0,
                                              writer)),
            ACL_ERROR_RT_ADDR_UNALIGNED);
  EXPECT_EQ(ErrorCode(rt_.memory().ValueWait(word, 1, 99, waiter)),
            kInvalidParam);
  EXPECT_EQ(ErrorCode(rt_.memory().ValueWrite(word, 1, 1, writer)),
            kInvalidParam);
  alignas(8) uint64_t host_word = 0;
  EXPECT_EQ(ErrorCode(rt_.memory().ValueWrite(&host_word, 1, 0, writer)),
            ACL_ERROR_RT_PARAM_INVALID);
  EXPECT_EQ(ErrorCode(rt_.memory().ValueWait(
                &host_word, 1, ACL_STREAM_WAIT_VALUE_GEQ, waiter)),
            ACL_ERROR_RT_PARAM_INVALID);
  // The last word of the block fits; one past it does not.
  EXPECT_EQ(ErrorCode(rt_.memory().ValueWrite(word + 8, 1, 0, writer)),
            ACL_ERROR_RT_PARAM_INVALID);
  ASSERT_OK(rt_.memory().ValueWrite(word + 7, 5, 0, writer));
  ASSERT_OK(Streams::Of(*rt_)->SynchronizeStream(writer, Soon()));
  ASSERT_OK(
      rt_.memory().Memcpy(&current, 8, word, 8, ACL_MEMCPY_DEVICE_TO_HOST));
  EXPECT_EQ(current, 11u);  // the refused writes changed nothing
  EXPECT_OK(rt_.memory().Free(d));
  EXPECT_OK(Streams::Of(*rt_)->DestroyStream(waiter, false));
  EXPECT_OK(Streams::Of(*rt_)->DestroyStream(writer, false));
}

TEST_F(MemoryTest, PointerAttributesAndAllocationRange) {
  ASSERT_OK_AND_ASSIGN(void* d,
                       rt_.memory().Malloc(1000, ACL_MEM_MALLOC_NORMAL_ONLY));
  ASSERT_OK_AND_ASSIGN(
      auto range, rt_.memory().AllocationRange(static_cast<char*>(d) + 999));
  EXPECT_EQ(range.first, d);
  EXPECT_GE(range.second, 1000u);
  ASSERT_OK_AND_ASSIGN(
      aclrtPtrAttributes inner,
      rt_.memory().PointerAttributes(static_cast<char*>(d) + 500));
  EXPECT_EQ(inner.location.type, ACL_MEM_LOCATION_TYPE_DEVICE);
  EXPECT_EQ(inner.location.id, 0u);

  int local = 0;
  ASSERT_OK_AND_ASSIGN(aclrtPtrAttributes plain,
                       rt_.memory().PointerAttributes(&local));
  EXPECT_EQ(plain.location.type, ACL_MEM_LOCATION_TYPE_UNREGISTERED);
  EXPECT_EQ(ErrorCode(rt_.memory().AllocationRange(&local).status()),
            ACL_ERROR_RT_PARAM_INVALID);

  ASSERT_OK(rt_.memory().Free(d));
  EXPECT_EQ(ErrorCode(rt_.memory().AllocationRange(d).status()),
            ACL_ERROR_RT_PARAM_INVALID);
  EXPECT_EQ(ErrorCode(rt_.memory().PointerAttributes(d).status()),
            ACL_ERROR_RT_PARAM_INVALID);
}

TEST_F(MemoryTest, GetMemInfoTracksAllocations) {
  ASSERT_OK_AND_ASSIGN(device::MemoryInfo before,
                       rt_.memory().GetMemInfo(ACL_HBM_MEM));
  EXPECT_EQ(before.total_bytes, uint64_t{64} << 20);
  EXPECT_LE(before.free_bytes, before.total_bytes);
  ASSERT_OK_AND_ASSIGN(
      void* d, rt_.memory().Malloc(size_t{4} << 20, ACL_MEM_MALLOC_HUGE_FIRST));
  ASSERT_OK_AND_ASSIGN(device::MemoryInfo during,
                       rt_.memory().GetMemInfo(ACL_HBM_MEM));
  EXPECT_EQ(during.total_bytes, before.total_bytes);
  EXPECT_LE(during.free_bytes + (uint64_t{4} << 20), before.free_bytes);
  ASSERT_OK(rt_.memory().Free(d));
  ASSERT_OK_AND_ASSIGN(device::MemoryInfo after,
                       rt_.memory().GetMemInfo(ACL_HBM_MEM));
  EXPECT_EQ(after.free_bytes, before.free_bytes);
}

TEST_F(MemoryTest, PeerCopiesNeedPeerAccess) {
  constexpr size_t kSize = 4096;
  ASSERT_OK_AND_ASSIGN(void* d0,
                       rt_.memory().Malloc(kSize, ACL_MEM_MALLOC_HUGE_FIRST));
  ASSERT_OK(rt_->SetDevice(1));
  ASSERT_OK_AND_ASSIGN(void* d1,
                       rt_.memory().Malloc(kSize, ACL_MEM_MALLOC_HUGE_FIRST));
  ASSERT_OK_AND_ASSIGN(aclrtPtrAttributes attr,
                       rt_.memory().PointerAttributes(d1));
  EXPECT_EQ(attr.location.id, 1u);
  ASSERT_OK(rt_.memory().Memset(d1, kSize, 0x10, kSize));
  ASSERT_OK(rt_->SetDevice(0));
  ASSERT_OK(rt_.memory().Memset(d0, kSize, 0x20, kSize));

  ASSERT_OK_AND_ASSIGN(bool can, DeviceInfo::Of(*rt_)->CanAccessPeer(0, 1));
  EXPECT_TRUE(can);
  ASSERT_OK_AND_ASSIGN(bool enabled,
                       DeviceInfo::Of(*rt_)->PeerAccessStatus(0, 1));
  EXPECT_FALSE(enabled);
  // Without peer access: 207006, in either direction and with either kind;
  // nothing moves.
  EXPECT_EQ(ErrorCode(rt_.memory().Memcpy(d1, kSize, d0, kSize,
                                          ACL_MEMCPY_DEVICE_TO_DEVICE)),
            ACL_ERROR_RT_NO_PERMISSION);
  EXPECT_EQ(ErrorCode(rt_.memory().Memcpy(d0, kSize, d1, kSize,
                                          ACL_MEMCPY_INTER_DEVICE_TO_DEVICE)),
            ACL_ERROR_RT_NO_PERMISSION);
  EXPECT_EQ(Read(d0, kSize), std::vector<uint8_t>(kSize, 0x20));
  EXPECT_EQ(Read(d1, kSize), std::vector<uint8_t>(kSize, 0x10));

  ASSERT_OK(DeviceInfo::Of(*rt_)->EnablePeerAccess(1, 0));
  ASSERT_OK_AND_ASSIGN(enabled, DeviceInfo::Of(*rt_)->PeerAccessStatus(0, 1));
  EXPECT_TRUE(enabled);
  // One-directional: 1 -> 0 is not enabled by device 0 (04 device
  // management); copies need either direction (DESIGN.md §5.6).
  ASSERT_OK_AND_ASSIGN(enabled, DeviceInfo::Of(*rt_)->PeerAccessStatus(1, 0));
  EXPECT_FALSE(enabled);
  // INNER names one device, but the pointers decide (11-03).
  ASSERT_OK(rt_.memory().Memcpy(d1, kSize, d0, kSize / 2,
                                ACL_MEMCPY_INNER_DEVICE_TO_DEVICE));
  std::vector<uint8_t> want(kSize, 0x10);
  std::fill(want.begin(), want.begin() + kSize / 2, 0x20);
  EXPECT_EQ(Read(d1, kSize), want);
  // The other direction, asynchronously on a stream of device 0.
  ASSERT_OK_AND_ASSIGN(void* stream, Streams::Of(*rt_)->CreateStream(0, 0));
  ASSERT_OK(
      rt_.memory().MemcpyAsync(static_cast<char*>(d0) + kSize / 2, kSize / 2,
                               static_cast<char*>(d1) + kSize / 2, kSize / 2,
                               ACL_MEMCPY_DEVICE_TO_DEVICE, stream));
  ASSERT_OK(Streams::Of(*rt_)->SynchronizeStream(stream, Soon()));
  std::vector<uint8_t> want0(kSize, 0x20);
  std::fill(want0.begin() + kSize / 2, want0.end(), 0x10);
  EXPECT_EQ(Read(d0, kSize), want0);

  ASSERT_OK(DeviceInfo::Of(*rt_)->DisablePeerAccess(1));
  EXPECT_EQ(ErrorCode(rt_.memory().Memcpy(d1, kSize, d0, kSize,
                                          ACL_MEMCPY_DEVICE_TO_DEVICE)),
            ACL_ERROR_RT_NO_PERMISSION);
  EXPECT_OK(Streams::Of(*rt_)->DestroyStream(stream, false));
  EXPECT_OK(rt_.memory().Free(d0));
  EXPECT_OK(rt_.memory().Free(d1));
}

}  // namespace
}  // namespace ascend::rt
