#include "device/sim/internal/device_memory.h"

#include <sys/mman.h>
#include <unistd.h>

#include <cstdint>
#include <cstring>
#include <memory>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "gtest/gtest.h"
#include "testing/status_matchers.h"

namespace ascend::device::sim::internal {
namespace {

constexpr uint64_t kChunk = DeviceMemory::kChunkSize;

unsigned char* Bytes(uint64_t addr) {
  return reinterpret_cast<unsigned char*>(addr);
}

// Number of resident pages in [addr, addr + size).
size_t ResidentPages(uint64_t addr, uint64_t size) {
  const size_t page = static_cast<size_t>(sysconf(_SC_PAGESIZE));
  std::vector<unsigned char> residency((size + page - 1) / page);
  EXPECT_EQ(mincore(Bytes(addr), size, residency.data()), 0);
  size_t resident = 0;
  for (unsigned char r : residency) resident += r & 1;
  return resident;
}

bool AllZero(uint64_t addr, uint64_t size) {
  for (uint64_t i = 0; i < size; ++i) {
    if (Bytes(addr)[i] != 0) return false;
  }
  return true;
}

TEST(DeviceMemoryTest, ReservesAChunkAlignedWindowWithoutCommitting) {
  ASSERT_OK_AND_ASSIGN(std::unique_ptr<DeviceMemory> memory,
                       DeviceMemory::Reserve(64ull << 30));
  EXPECT_EQ(memory->base() % kChunk, 0u);
  EXPECT_EQ(memory->size(), 64ull << 30);
  EXPECT_EQ(ResidentPages(memory->base(), 64 * kChunk), 0u);
  ASSERT_OK_AND_ASSIGN(std::unique_ptr<DeviceMemory> odd,
                       DeviceMemory::Reserve(kChunk + 512));
  EXPECT_EQ(odd->size(), 2 * kChunk);
  EXPECT_EQ(DeviceMemory::Reserve(0).status().code(),
            absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(DeviceMemory::Reserve(~uint64_t{0}).status().code(),
            absl::StatusCode::kResourceExhausted);
}

TEST(DeviceMemoryTest, ReleasedBytesInSharedChunksAreZeroedAndOthersKept) {
  ASSERT_OK_AND_ASSIGN(std::unique_ptr<DeviceMemory> memory,
                       DeviceMemory::Reserve(4 * kChunk));
  const uint64_t a = memory->base();
  const uint64_t b = a + 4096;
  ASSERT_OK(memory->Commit(a, 4096));
  ASSERT_OK(memory->Commit(b, 512));
  std::memset(Bytes(a), 0x11, 4096);
  std::memset(Bytes(b), 0x22, 512);
  memory->Release(a, 4096);  // the chunk is still used by b
  EXPECT_TRUE(AllZero(a, 4096));
  EXPECT_EQ(Bytes(b)[0], 0x22);
  EXPECT_EQ(Bytes(b)[511], 0x22);
  ASSERT_OK(memory->Commit(a, 4096));
  EXPECT_TRUE(AllZero(a, 4096));
  memory->Release(a, 4096);
  memory->Release(b, 512);
}

TEST(DeviceMemoryTest, ChunksNoLongerUsedAreReturnedToTheKernel) {
  ASSERT_OK_AND_ASSIGN(std::unique_ptr<DeviceMemory> memory,
                       DeviceMemory::Reserve(8 * kChunk));
  // Spans chunks 1..3 partially: [1.5, 3.5) chunks.
  const uint64_t addr = memory->base() + kChunk + kChunk / 2;
  const uint64_t size = 2 * kChunk;
  ASSERT_OK(memory->Commit(addr, size));
  // A neighbour keeps chunk 3 in use.
  const uint64_t neighbour = addr + size;
  ASSERT_OK(memory->Commit(neighbour, 512));
  std::memset(Bytes(addr), 0x5A, size);
  std::memset(Bytes(neighbour), 0x6B, 512);
  EXPECT_GT(ResidentPages(addr, size), 0u);
  memory->Release(addr, size);
  // Chunks 1 and 2 are gone; chunk 3 stays with its tail zeroed.
  EXPECT_EQ(ResidentPages(memory->base() + kChunk, 2 * kChunk), 0u);
  EXPECT_TRUE(AllZero(memory->base() + 3 * kChunk, kChunk / 2));
  EXPECT_EQ(Bytes(neighbour)[0], 0x6B);
  // Recommitting gives zeros again.
  ASSERT_OK(memory->Commit(addr, size));
  EXPECT_TRUE(AllZero(addr, size));
}

TEST(DeviceMemoryTest, ZeroAllKeepsAccessAndReleaseAllDropsEverything) {
  ASSERT_OK_AND_ASSIGN(std::unique_ptr<DeviceMemory> memory,
                       DeviceMemory::Reserve(4 * kChunk));
  const uint64_t addr = memory->base() + 512;
  ASSERT_OK(memory->Commit(addr, 3 * kChunk));
  std::memset(Bytes(addr), 0x7F, 3 * kChunk);
  memory->ZeroAll();
  EXPECT_TRUE(AllZero(addr, 3 * kChunk));
  std::memset(Bytes(addr), 0x7F, 3 * kChunk);  // still writable
  memory->ReleaseAll();
  EXPECT_EQ(ResidentPages(memory->base(), memory->size()), 0u);
  // Usage counts are reset: one commit and one release make it inaccessible.
  ASSERT_OK(memory->Commit(addr, 512));
  EXPECT_TRUE(AllZero(addr, 512));
  memory->Release(addr, 512);
  EXPECT_EQ(ResidentPages(memory->base(), memory->size()), 0u);
}

TEST(DeviceMemoryTest, ForgetCommitsKeepsPagesAndContentsForThePutBack) {
  ASSERT_OK_AND_ASSIGN(std::unique_ptr<DeviceMemory> memory,
                       DeviceMemory::Reserve(8 * kChunk));
  const uint64_t addr = memory->base() + kChunk;
  const uint64_t size = 2 * kChunk;
  ASSERT_OK(memory->Commit(addr, size));
  std::memset(Bytes(addr), 0x3C, size);
  const size_t resident = ResidentPages(addr, size);
  memory->ForgetCommits();
  EXPECT_EQ(ResidentPages(addr, size), resident);
  ASSERT_OK(memory->Commit(addr, size));
  EXPECT_EQ(Bytes(addr)[0], 0x3C);
  EXPECT_EQ(Bytes(addr)[size - 1], 0x3C);
  // Usage counts were reset: one release drops it.
  memory->Release(addr, size);
  EXPECT_EQ(ResidentPages(addr, size), 0u);
  EXPECT_EQ(ResidentPages(memory->base(), memory->size()), 0u);
}

// The file behind the window, mapped a second time in the virtual address
// window: what a physical allocation's mapping sees.
TEST(DeviceMemoryTest, ReleaseAndDiscardZeroTheFileForEveryMapping) {
  ASSERT_OK_AND_ASSIGN(std::unique_ptr<DeviceMemory> memory,
                       DeviceMemory::Reserve(4 * kChunk, 4 * kChunk));
  ASSERT_TRUE(memory->shareable()) << "the host refused a memfd";
  EXPECT_EQ(memory->va_base(), memory->base() + memory->size());
  EXPECT_EQ(memory->va_size(), 4 * kChunk);
  const uint64_t addr = memory->base() + kChunk;
  const uint64_t alias = memory->va_base() + 2 * kChunk;
  ASSERT_OK(memory->Commit(addr, 2 * kChunk));
  ASSERT_OK(memory->MapVa(alias, 2 * kChunk, kChunk));
  std::memset(Bytes(addr), 0x5A, 2 * kChunk);
  EXPECT_EQ(Bytes(alias)[0], 0x5A);
  EXPECT_EQ(Bytes(alias)[2 * kChunk - 1], 0x5A);
  Bytes(alias)[12345] = 0x77;
  EXPECT_EQ(Bytes(addr)[12345], 0x77);
  // Discard: whole pages punched out of the file, partial ends zeroed.
  memory->Discard(addr + 100, kChunk);
  EXPECT_TRUE(AllZero(alias + 100, kChunk));
  EXPECT_EQ(Bytes(alias)[99], 0x5A);
  EXPECT_EQ(Bytes(alias)[kChunk + 100], 0x5A);
  // Release of the whole range: the pages leave the file, so the alias
  // reads zero (and costs nothing) though the window is protected again.
  memory->Release(addr, 2 * kChunk);
  EXPECT_EQ(ResidentPages(alias, 2 * kChunk), 0u);
  EXPECT_TRUE(memory->PresentRanges(addr, 2 * kChunk).empty());
  // (Reading a hole of the file brings in pages: shared memory has no
  // shared zero page.)
  EXPECT_TRUE(AllZero(alias, 2 * kChunk));
  memory->UnmapVa(alias, 2 * kChunk);
}

TEST(DeviceMemoryTest, DetachAllLeavesTheOldContentsToOtherMappings) {
  ASSERT_OK_AND_ASSIGN(std::unique_ptr<DeviceMemory> memory,
                       DeviceMemory::Reserve(4 * kChunk, 4 * kChunk));
  ASSERT_TRUE(memory->shareable()) << "the host refused a memfd";
  const int fd = memory->fd();
  const uint64_t addr = memory->base() + kChunk;
  ASSERT_OK(memory->Commit(addr, kChunk));
  std::memset(Bytes(addr), 0x3C, kChunk);
  // Another process's import: its own descriptor and mapping of the file.
  const int imported = dup(fd);
  ASSERT_GE(imported, 0);
  void* view = mmap(nullptr, kChunk, PROT_READ | PROT_WRITE, MAP_SHARED,
                    imported, static_cast<off_t>(kChunk));
  ASSERT_NE(view, MAP_FAILED);
  close(imported);  // the mapping alone keeps the file

  ASSERT_OK(memory->DetachAll());
  // The importer keeps every byte, and can still write.
  EXPECT_EQ(static_cast<unsigned char*>(view)[0], 0x3C);
  EXPECT_EQ(static_cast<unsigned char*>(view)[kChunk - 1], 0x3C);
  static_cast<unsigned char*>(view)[7] = 0x11;
  // The device starts again from an empty file under the same descriptor:
  // everything was released, a new allocation reads zero, and the two no
  // longer share bytes.
  EXPECT_EQ(memory->fd(), fd);
  EXPECT_TRUE(memory->PresentRanges(memory->base(), memory->size()).empty());
  ASSERT_OK(memory->Commit(addr, kChunk));
  EXPECT_TRUE(AllZero(addr, kChunk));
  Bytes(addr)[0] = 0x99;
  EXPECT_EQ(static_cast<unsigned char*>(view)[0], 0x3C);
  memory->Release(addr, kChunk);
  EXPECT_EQ(static_cast<unsigned char*>(view)[7], 0x11);
  munmap(view, kChunk);
}

TEST(DeviceMemoryTest, PresentRangesComeFromTheFileWhoeverWrote) {
  ASSERT_OK_AND_ASSIGN(std::unique_ptr<DeviceMemory> memory,
                       DeviceMemory::Reserve(8 * kChunk, 8 * kChunk));
  ASSERT_TRUE(memory->shareable()) << "the host refused a memfd";
  const uint64_t addr = memory->base() + 2 * kChunk;
  ASSERT_OK(memory->Commit(addr, 4 * kChunk));
  EXPECT_TRUE(memory->PresentRanges(memory->base(), memory->size()).empty());
  // Written through the alias only.
  const uint64_t alias = memory->va_base();
  ASSERT_OK(memory->MapVa(alias, 4 * kChunk, 2 * kChunk));
  Bytes(alias + 3 * kChunk)[8] = 1;
  const std::vector<std::pair<uint64_t, uint64_t>> ranges =
      memory->PresentRanges(memory->base(), memory->size());
  ASSERT_EQ(ranges.size(), 1u);
  EXPECT_LE(ranges[0].first, addr + 3 * kChunk + 8);
  EXPECT_GT(ranges[0].second, addr + 3 * kChunk + 8);
  EXPECT_GE(ranges[0].first, addr + 3 * kChunk);
  EXPECT_LE(ranges[0].second, addr + 4 * kChunk);
  // Clipped to the range asked about.
  const std::vector<std::pair<uint64_t, uint64_t>> clipped =
      memory->PresentRanges(addr + 3 * kChunk + 8, 1);
  ASSERT_EQ(clipped.size(), 1u);
  EXPECT_LE(clipped[0].first, addr + 3 * kChunk + 8);
  EXPECT_LE(clipped[0].second - clipped[0].first, kChunk);
  EXPECT_TRUE(memory->PresentRanges(addr, 3 * kChunk).empty());
  // ZeroAll empties the file for the alias too.
  memory->ZeroAll();
  EXPECT_EQ(Bytes(alias + 3 * kChunk)[8], 0);
  memory->UnmapVa(alias, 4 * kChunk);
}

bool KernelPopulatesOnRequest() {
  const size_t page = static_cast<size_t>(sysconf(_SC_PAGESIZE));
  void* p = mmap(nullptr, page, PROT_READ | PROT_WRITE,
                 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (p == MAP_FAILED) return false;
  const bool ok = madvise(p, page, 23 /* MADV_POPULATE_WRITE */) == 0;
  munmap(p, page);
  return ok;
}

TEST(DeviceMemoryTest, ZeroAllKeepsCommittedChunksResident) {
  ASSERT_OK_AND_ASSIGN(std::unique_ptr<DeviceMemory> memory,
                       DeviceMemory::Reserve(8 * kChunk));
  const uint64_t addr = memory->base() + 2 * kChunk;
  ASSERT_OK(memory->Commit(addr, 2 * kChunk));
  std::memset(Bytes(addr), 0x7F, 2 * kChunk);
  memory->ZeroAll();
  if (KernelPopulatesOnRequest()) {
    const size_t page = static_cast<size_t>(sysconf(_SC_PAGESIZE));
    EXPECT_EQ(ResidentPages(addr, 2 * kChunk), 2 * kChunk / page);
  }
  EXPECT_TRUE(AllZero(addr, 2 * kChunk));
  // Nothing outside the committed chunks was brought in.
  EXPECT_EQ(ResidentPages(memory->base(), 2 * kChunk), 0u);
  EXPECT_EQ(ResidentPages(addr + 2 * kChunk, 4 * kChunk), 0u);
}

TEST(DeviceMemoryDeathTest, ForgottenCommitsFaultOnceReleasedAgain) {
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  ASSERT_OK_AND_ASSIGN(std::unique_ptr<DeviceMemory> memory,
                       DeviceMemory::Reserve(4 * kChunk));
  ASSERT_OK(memory->Commit(memory->base(), kChunk));
  memory->ForgetCommits();
  ASSERT_OK(memory->Commit(memory->base(), kChunk));
  memory->Release(memory->base(), kChunk);
  volatile unsigned char* p = Bytes(memory->base());
  EXPECT_DEATH(*p = 1, "");
}

TEST(DeviceMemoryDeathTest, UncommittedMemoryFaults) {
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  ASSERT_OK_AND_ASSIGN(std::unique_ptr<DeviceMemory> memory,
                       DeviceMemory::Reserve(4 * kChunk));
  ASSERT_OK(memory->Commit(memory->base(), 512));
  memory->Release(memory->base(), 512);
  volatile unsigned char* p = Bytes(memory->base() + kChunk);
  EXPECT_DEATH(*p = 1, "");
  volatile unsigned char* q = Bytes(memory->base());
  EXPECT_DEATH(*q = 1, "");
}

}  // namespace
}  // namespace ascend::device::sim::internal
