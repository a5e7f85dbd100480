#include "device/sim/internal/device_memory.h"

#include <fcntl.h>
#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "device/checksum.h"

namespace ascend::device::sim::internal {
namespace {

void* AsPointer(uint64_t addr) { return reinterpret_cast<void*>(addr); }

// Neither way of dropping pages fails on a mapping and a file we own, short
// of locked pages (the process called mlockall) or a file system without hole
// punching; DropPages then zeroes the range another way. Should that fail
// too, the range may keep stale bytes: said on stderr, never an abort
// (DESIGN.md §2.7).
void DropFailed(const char* what) {
  std::fprintf(stderr,
               "error: %s failed on simulated device memory: %s; the range "
               "may not read as zero\n",
               what, std::strerror(errno));
}

// Writes zeros over [offset, offset + size) of `fd` (not through the
// mapping, which may be protected); false if a write fails.
bool WriteZeros(int fd, uint64_t offset, uint64_t size) {
  static const char kZeros[64 << 10] = {};
  while (size > 0) {
    const size_t n = size < sizeof kZeros ? size : sizeof kZeros;
    const ssize_t written = pwrite(fd, kZeros, n, static_cast<off_t>(offset));
    if (written <= 0) {
      if (written < 0 && errno == EINTR) continue;
      return false;
    }
    offset += static_cast<uint64_t>(written);
    size -= static_cast<uint64_t>(written);
  }
  return true;
}

// Linux 5.14; older headers lack the name, older kernels answer EINVAL.
#ifdef MADV_POPULATE_WRITE
constexpr int kMadvisePopulateWrite = MADV_POPULATE_WRITE;
#else
constexpr int kMadvisePopulateWrite = 23;
#endif

// Best effort: if the kernel runs out of mappings the range stays
// accessible, which only loses stray-access detection (contents are zero).
void Protect(uint64_t addr, uint64_t size) {
  (void)mprotect(AsPointer(addr), size, PROT_NONE);
}

uint64_t PageSize() {
  static const uint64_t page = static_cast<uint64_t>(sysconf(_SC_PAGESIZE));
  return page;
}

// /proc/self/pagemap, opened once (never closed: the process owns it), or -1
// when it cannot be read (then every range counts as holding data).
int PagemapFd() {
  static const int fd = open("/proc/self/pagemap", O_RDONLY | O_CLOEXEC);
  return fd;
}

// Appends [begin, end) to `ranges`, merging with the last one when adjacent.
void AppendRange(std::vector<std::pair<uint64_t, uint64_t>>& ranges,
                 uint64_t begin, uint64_t end) {
  if (!ranges.empty() && ranges.back().second == begin) {
    ranges.back().second = end;
  } else {
    ranges.emplace_back(begin, end);
  }
}

}  // namespace

absl::StatusOr<std::unique_ptr<DeviceMemory>> DeviceMemory::Reserve(
    uint64_t capacity, uint64_t va_capacity, uint64_t avoid_begin,
    uint64_t avoid_end) {
  if (capacity == 0) {
    return absl::InvalidArgumentError("device memory capacity must not be 0");
  }
  if (capacity > (uint64_t{1} << 56)) {
    return absl::ResourceExhaustedError(
        absl::StrCat("cannot reserve ", capacity, " bytes of address space"));
  }
  const uint64_t size = (capacity + kChunkSize - 1) / kChunkSize * kChunkSize;
  const uint64_t va_size =
      (va_capacity + kChunkSize - 1) / kChunkSize * kChunkSize;
  // Over-reserve by one chunk and trim, so the window is chunk-aligned.
  const uint64_t span = size + va_size + kChunkSize;
  // Where the kernel puts it; should that meet the window to avoid, above
  // that window (a hint the kernel takes where it is free).
  void* raw = MAP_FAILED;
  for (void* hint : {static_cast<void*>(nullptr), AsPointer(avoid_end)}) {
    raw = mmap(hint, span, PROT_NONE,
               MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (raw == MAP_FAILED) break;
    const uint64_t at = reinterpret_cast<uint64_t>(raw);
    if (at >= avoid_end || at + span <= avoid_begin) break;
    munmap(raw, span);
    raw = MAP_FAILED;
    errno = EEXIST;
  }
  if (raw == MAP_FAILED) {
    return absl::ResourceExhaustedError(
        absl::StrCat("cannot reserve ", size,
                     " bytes of address space for a simulated device: ",
                     std::strerror(errno)));
  }
  const uint64_t start = reinterpret_cast<uint64_t>(raw);
  const uint64_t base = (start + kChunkSize - 1) / kChunkSize * kChunkSize;
  if (base > start) munmap(raw, base - start);
  const uint64_t tail = start + span - (base + size + va_size);
  if (tail > 0) munmap(AsPointer(base + size + va_size), tail);
  // The memory itself is a sparse shared-memory file mapped over the
  // window, so that other addresses (virtual memory mappings) and other
  // processes (shared handles) can map the same bytes. Without memfd the
  // window stays anonymous: everything works except sharing and mapping.
  int fd = memfd_create("aclsim-device-memory", MFD_CLOEXEC);
  if (fd >= 0 &&
      (ftruncate(fd, static_cast<off_t>(size)) != 0 ||
       mmap(AsPointer(base), size, PROT_NONE,
            MAP_SHARED | MAP_FIXED | MAP_NORESERVE, fd, 0) == MAP_FAILED)) {
    close(fd);
    fd = -1;
    (void)mmap(AsPointer(base), size, PROT_NONE,
               MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE | MAP_FIXED, -1, 0);
  }
  return std::unique_ptr<DeviceMemory>(
      new DeviceMemory(base, size, va_size, fd));
}

DeviceMemory::DeviceMemory(uint64_t base, uint64_t size, uint64_t va_size,
                           int fd)
    : base_(base),
      size_(size),
      va_size_(va_size),
      fd_(fd),
      chunk_users_(new std::atomic<uint32_t>[size / kChunkSize]()) {}

DeviceMemory::~DeviceMemory() {
  munmap(AsPointer(base_), size_ + va_size_);
  if (uint8_t* alias = alias_.load(std::memory_order_acquire)) {
    munmap(alias, size_);
  }
  if (fd_ >= 0) close(fd_);
}

void DeviceMemory::DropPages(uint64_t addr, uint64_t size) {
  if (fd_ < 0) {
    if (madvise(AsPointer(addr), size, MADV_DONTNEED) == 0) return;
    // Locked pages refuse MADV_DONTNEED: fresh zero pages mapped over the
    // range instead. They are accessible; callers that release the range
    // protect it afterwards, and ZeroAll only loses stray-access detection
    // on chunks not committed.
    if (mmap(AsPointer(addr), size, PROT_READ | PROT_WRITE,
             MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE | MAP_FIXED, -1,
             0) != MAP_FAILED) {
      return;
    }
    DropFailed("madvise(MADV_DONTNEED)");
    return;
  }
  // The file holds the bytes: punching the hole frees the pages for every
  // mapping of them (other addresses, other processes) at once.
  if (fallocate(fd_, FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE,
                static_cast<off_t>(addr - base_),
                static_cast<off_t>(size)) == 0) {
    return;
  }
  // No hole punching: zeros written over the parts that hold data.
  bool zeroed = true;
  for (const auto& [begin, end] : FileDataRanges(addr, size)) {
    zeroed = WriteZeros(fd_, begin - base_, end - begin) && zeroed;
  }
  if (!zeroed) DropFailed("fallocate(FALLOC_FL_PUNCH_HOLE)");
}

absl::Status DeviceMemory::MapVa(uint64_t va, uint64_t size,
                                 uint64_t file_offset, int fd) {
  if (fd < 0) fd = fd_;
  if (fd < 0) {
    return absl::UnimplementedError(
        "simulated device memory is not backed by a file");
  }
  void* got = mmap(AsPointer(va), size, PROT_READ | PROT_WRITE,
                   MAP_SHARED | MAP_FIXED, fd, static_cast<off_t>(file_offset));
  if (got == MAP_FAILED) {
    const int error = errno;
    UnmapVa(va, size);
    return absl::ResourceExhaustedError(absl::StrCat(
        "cannot map simulated physical memory: ", std::strerror(error)));
  }
  return absl::OkStatus();
}

void DeviceMemory::UnmapVa(uint64_t va, uint64_t size) {
  // Replacing the mapping cannot fail for lack of memory (PROT_NONE,
  // MAP_NORESERVE); if the kernel refused anyway the range would stay
  // readable, losing only stray-access detection.
  (void)mmap(AsPointer(va), size, PROT_NONE,
             MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE | MAP_FIXED, -1, 0);
}

absl::Status DeviceMemory::ProtectVa(uint64_t va, uint64_t size, int prot) {
  if (mprotect(AsPointer(va), size, prot) != 0) {
    return absl::ResourceExhaustedError(
        absl::StrCat("cannot change the protection of mapped simulated "
                     "memory: ",
                     std::strerror(errno)));
  }
  return absl::OkStatus();
}

absl::Status DeviceMemory::PlaceAt(uint64_t va, uint64_t size) {
  void* got = mmap(
      AsPointer(va), size, PROT_NONE,
      MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE | MAP_FIXED_NOREPLACE, -1, 0);
  if (got == MAP_FAILED || got != AsPointer(va)) {
    const int error = got == MAP_FAILED ? errno : EEXIST;
    // A kernel (or an interceptor) that took the address as a hint put the
    // range elsewhere: not ours.
    if (got != MAP_FAILED) munmap(got, size);
    return absl::AlreadyExistsError(absl::StrCat(
        "[0x", absl::Hex(va), ", +", size,
        ") of the address space is in use: ", std::strerror(error)));
  }
  return absl::OkStatus();
}

void DeviceMemory::Unplace(uint64_t va, uint64_t size) {
  (void)munmap(AsPointer(va), size);
}

absl::Status DeviceMemory::Commit(uint64_t addr, uint64_t size) {
  const uint64_t first = (addr - base_) / kChunkSize;
  const uint64_t last = (addr - base_ + size - 1) / kChunkSize;
  // Unprotect each run of unused chunks with one call.
  std::vector<std::pair<uint64_t, uint64_t>> opened;  // [first, last] chunks
  uint64_t c = first;
  while (c <= last) {
    if (Users(c) != 0) {
      ++c;
      continue;
    }
    const uint64_t run = c;
    while (c <= last && Users(c) == 0) ++c;
    if (mprotect(AsPointer(base_ + run * kChunkSize), (c - run) * kChunkSize,
                 PROT_READ | PROT_WRITE) != 0) {
      const int error = errno;
      for (const auto& [from, to] : opened) {
        Protect(base_ + from * kChunkSize, (to - from + 1) * kChunkSize);
      }
      return absl::ResourceExhaustedError(absl::StrCat(
          "cannot map simulated device memory: ", std::strerror(error)));
    }
    opened.emplace_back(run, c - 1);
  }
  for (c = first; c <= last; ++c) SetUsers(c, Users(c) + 1);
  return absl::OkStatus();
}

void DeviceMemory::Release(uint64_t addr, uint64_t size) {
  const uint64_t end = addr + size;
  const uint64_t first = (addr - base_) / kChunkSize;
  const uint64_t last = (end - 1 - base_) / kChunkSize;
  uint64_t c = first;
  while (c <= last) {
    SetUsers(c, Users(c) - 1);
    if (Users(c) != 0) {
      // Still used by another range: zero just our part of it.
      const uint64_t chunk = base_ + c * kChunkSize;
      const uint64_t from = addr > chunk ? addr : chunk;
      const uint64_t to = end < chunk + kChunkSize ? end : chunk + kChunkSize;
      std::memset(AsPointer(from), 0, to - from);
      ++c;
      continue;
    }
    const uint64_t run = c++;
    while (c <= last && Users(c) == 1) SetUsers(c++, 0);
    DropPages(base_ + run * kChunkSize, (c - run) * kChunkSize);
    Protect(base_ + run * kChunkSize, (c - run) * kChunkSize);
  }
}

absl::Status DeviceMemory::DetachAll() {
  if (fd_ < 0) {
    return absl::UnimplementedError(
        "simulated device memory is not backed by a file");
  }
  const int fresh = memfd_create("aclsim-device-memory", MFD_CLOEXEC);
  if (fresh < 0 || ftruncate(fresh, static_cast<off_t>(size_)) != 0) {
    const int error = errno;
    if (fresh >= 0) close(fresh);
    return absl::ResourceExhaustedError(absl::StrCat(
        "cannot create a new device memory file: ", std::strerror(error)));
  }
  if (mmap(AsPointer(base_), size_, PROT_NONE,
           MAP_SHARED | MAP_FIXED | MAP_NORESERVE, fresh, 0) == MAP_FAILED) {
    const int error = errno;
    // A failed MAP_FIXED may have unmapped the window: the old file goes
    // back over it (a reservation never fails for lack of memory).
    (void)mmap(AsPointer(base_), size_, PROT_NONE,
               MAP_SHARED | MAP_FIXED | MAP_NORESERVE, fd_, 0);
    close(fresh);
    return absl::ResourceExhaustedError(absl::StrCat(
        "cannot map a new device memory file: ", std::strerror(error)));
  }
  // The window maps the new file; fd_ now names it too. The old file lives
  // on in other processes' mappings and descriptors only.
  if (dup3(fresh, fd_, O_CLOEXEC) < 0) {
    // Without the swap fd_ still names the old file, which the window no
    // longer maps: keep the window and the fd on one file by remapping.
    (void)mmap(AsPointer(base_), size_, PROT_NONE,
               MAP_SHARED | MAP_FIXED | MAP_NORESERVE, fd_, 0);
    close(fresh);
    return absl::ResourceExhaustedError(absl::StrCat(
        "cannot replace the device memory file: ", std::strerror(errno)));
  }
  close(fresh);
  // The alias maps the old file: dropped, made again over the new one.
  if (uint8_t* alias = alias_.exchange(nullptr, std::memory_order_acq_rel)) {
    munmap(alias, size_);
  }
  if (va_size_ > 0) UnmapVa(base_ + size_, va_size_);
  ForgetUsers();
  return absl::OkStatus();
}

uint8_t* DeviceMemory::Alias(uint64_t addr) {
  uint8_t* alias = alias_.load(std::memory_order_acquire);
  if (alias == nullptr) {
    if (fd_ < 0 || alias_failed_.load(std::memory_order_relaxed)) {
      return nullptr;
    }
    void* mapped = mmap(nullptr, size_, PROT_READ | PROT_WRITE,
                        MAP_SHARED | MAP_NORESERVE, fd_, 0);
    if (mapped == MAP_FAILED) {
      alias_failed_.store(true, std::memory_order_relaxed);
      return nullptr;
    }
    uint8_t* expected = nullptr;
    if (alias_.compare_exchange_strong(expected, static_cast<uint8_t*>(mapped),
                                       std::memory_order_acq_rel)) {
      alias = static_cast<uint8_t*>(mapped);
    } else {
      munmap(mapped, size_);  // another thread made it first
      alias = expected;
    }
  }
  return alias + (addr - base_);
}

void DeviceMemory::ReleaseAll() {
  DropPages(base_, size_);
  Protect(base_, size_);
  if (va_size_ > 0) UnmapVa(base_ + size_, va_size_);
  ForgetUsers();
}

void DeviceMemory::ForgetCommits() {
  // No mprotect: changing the protection of a gigabyte of resident pages
  // costs tens of milliseconds each way, and the put-back follows at once.
  ForgetUsers();
}

void DeviceMemory::ForgetUsers() {
  for (uint64_t c = 0; c < size_ / kChunkSize; ++c) SetUsers(c, 0);
}

std::vector<std::pair<uint64_t, uint64_t>> DeviceMemory::PresentRanges(
    uint64_t addr, uint64_t size) const {
  std::vector<std::pair<uint64_t, uint64_t>> ranges;
  if (size == 0) return ranges;
  if (fd_ >= 0) return FileDataRanges(addr, size);
  const uint64_t page = PageSize();
  const uint64_t first = addr / page;
  const uint64_t last = (addr + size - 1) / page;
  const int fd = PagemapFd();
  // Bit 63: present; bit 62: swapped.
  constexpr uint64_t kHeld = (uint64_t{1} << 63) | (uint64_t{1} << 62);
  constexpr uint64_t kBatch = 8192;  // entries per read (64 KiB)
  std::vector<uint64_t> entries(kBatch);
  for (uint64_t p = first; p <= last;) {
    const uint64_t n = std::min(kBatch, last - p + 1);
    const ssize_t want = static_cast<ssize_t>(n * sizeof(uint64_t));
    if (fd < 0 || pread(fd, entries.data(), want,
                        static_cast<off_t>(p * sizeof(uint64_t))) != want) {
      // Cannot tell: the rest may hold data.
      AppendRange(ranges, std::max(addr, p * page), addr + size);
      return ranges;
    }
    for (uint64_t i = 0; i < n; ++i) {
      if ((entries[i] & kHeld) == 0) continue;
      const uint64_t begin = std::max(addr, (p + i) * page);
      const uint64_t end = std::min(addr + size, (p + i + 1) * page);
      AppendRange(ranges, begin, end);
    }
    p += n;
  }
  return ranges;
}

// The file knows which of its pages hold data, whoever wrote them (through
// this window, a virtual memory mapping, or another process).
std::vector<std::pair<uint64_t, uint64_t>> DeviceMemory::FileDataRanges(
    uint64_t addr, uint64_t size) const {
  std::vector<std::pair<uint64_t, uint64_t>> ranges;
  const off_t end = static_cast<off_t>(addr - base_ + size);
  off_t at = static_cast<off_t>(addr - base_);
  while (at < end) {
    const off_t data = lseek(fd_, at, SEEK_DATA);
    if (data < 0) {
      if (errno == ENXIO) break;                     // no data after `at`
      AppendRange(ranges, base_ + at, base_ + end);  // cannot tell
      break;
    }
    if (data >= end) break;
    off_t hole = lseek(fd_, data, SEEK_HOLE);
    if (hole < 0 || hole > end) hole = end;
    AppendRange(ranges, base_ + static_cast<uint64_t>(data),
                base_ + static_cast<uint64_t>(hole));
    at = hole;
  }
  return ranges;
}

void DeviceMemory::Discard(uint64_t addr, uint64_t size) {
  if (size == 0) return;
  const uint64_t page = PageSize();
  const uint64_t end = addr + size;
  const uint64_t inner_begin = (addr + page - 1) / page * page;
  const uint64_t inner_end = end / page * page;
  if (inner_begin >= inner_end) {
    std::memset(AsPointer(addr), 0, size);
    return;
  }
  std::memset(AsPointer(addr), 0, inner_begin - addr);
  DropPages(inner_begin, inner_end - inner_begin);
  std::memset(AsPointer(inner_end), 0, end - inner_end);
}

bool DeviceMemory::PopulateForWrite(uint8_t* p, uint64_t size) {
  const uint64_t page = PageSize();
  const uint64_t begin = reinterpret_cast<uint64_t>(p) & ~(page - 1);
  const uint64_t end =
      (reinterpret_cast<uint64_t>(p) + size + page - 1) & ~(page - 1);
  // Walking the page tables of a mapped range costs about as much as the
  // copy into it: asking pagemap about two pages costs next to nothing.
  // Bit 63: present (the pages are mapped writable where a shared mapping
  // has them: the simulator's file needs no write notification).
  const int fd = PagemapFd();
  uint64_t first = 0;
  uint64_t last = 0;
  if (fd >= 0 &&
      pread(fd, &first, sizeof(first),
            static_cast<off_t>(begin / page * sizeof(uint64_t))) ==
          sizeof(first) &&
      pread(fd, &last, sizeof(last),
            static_cast<off_t>((end - page) / page * sizeof(uint64_t))) ==
          sizeof(last) &&
      (first >> 63) != 0 && (last >> 63) != 0) {
    return true;
  }
  return madvise(AsPointer(begin), end - begin, kMadvisePopulateWrite) == 0;
}

std::optional<absl::StatusOr<uint64_t>> DeviceMemory::WriteFileAndChecksum(
    uint64_t addr, const void* src, uint64_t size) {
  if (fd_ < 0 || addr < base_ || addr - base_ > size_ ||
      size > size_ - (addr - base_)) {
    return std::nullopt;
  }
  const off_t offset = static_cast<off_t>(addr - base_);
  const auto* from = static_cast<const uint8_t*>(src);
  for (uint64_t done = 0; done < size;) {
    const ssize_t n = pwrite(fd_, from + done, size - done,
                             offset + static_cast<off_t>(done));
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return std::nullopt;  // the mapping takes the rest over
    done += static_cast<uint64_t>(n);
  }
  // What the device holds now, read back and hashed.
  constexpr uint64_t kChunk = 64 * device::kChecksumBlockBytes;
  thread_local std::vector<uint8_t> back;
  back.resize(kChunk);
  device::ChecksumState state;
  for (uint64_t done = 0;;) {
    const uint64_t len = std::min(kChunk, size - done);
    for (uint64_t got = 0; got < len;) {
      const ssize_t n = pread(fd_, back.data() + got, len - got,
                              offset + static_cast<off_t>(done + got));
      if (n < 0 && errno == EINTR) continue;
      if (n <= 0) {
        return absl::DataLossError("device memory cannot be read back");
      }
      got += static_cast<uint64_t>(n);
    }
    if (done + len == size) return state.Finish(back.data(), len);
    state.Update(back.data(), len);
    done += len;
  }
}

void DeviceMemory::ZeroAll() {
  // Committed chunks that held pages get them back at once (resident, as
  // device memory stays); chunks never touched stay untouched, so a lost
  // device does not cost host memory it never used. A run the owner
  // releases meanwhile is protected again and refuses the repopulation:
  // harmless, as is a kernel without MADV_POPULATE_WRITE (the pages then
  // come back on first touch).
  std::vector<uint64_t> held;  // chunk indexes, ascending
  const uint64_t chunks = size_ / kChunkSize;
  for (uint64_t c = 0; c < chunks;) {
    if (Users(c) == 0) {
      ++c;
      continue;
    }
    const uint64_t run = c;
    while (c < chunks && Users(c) != 0) ++c;
    for (const auto& [begin, end] :
         PresentRanges(base_ + run * kChunkSize, (c - run) * kChunkSize)) {
      for (uint64_t k = (begin - base_) / kChunkSize;
           k <= (end - 1 - base_) / kChunkSize; ++k) {
        if (held.empty() || held.back() != k) held.push_back(k);
      }
    }
  }
  DropPages(base_, size_);
  for (uint64_t k : held) {
    (void)madvise(AsPointer(base_ + k * kChunkSize), kChunkSize,
                  kMadvisePopulateWrite);
  }
}

}  // namespace ascend::device::sim::internal
