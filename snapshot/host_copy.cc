#include "snapshot/host_copy.h"

#include <sys/mman.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <exception>
#include <thread>
#include <vector>

#include "absl/strings/str_cat.h"
#include "device/base/mutex.h"

namespace ascend::snapshot::internal {

absl::StatusOr<std::unique_ptr<HostBuffer>> HostBuffer::Map(uint64_t size) {
  if (size == 0) return std::unique_ptr<HostBuffer>(new HostBuffer(nullptr, 0));
  if (const std::optional<uint64_t> available = AvailableBytes();
      available.has_value() && size > *available) {
    return absl::ResourceExhaustedError(absl::StrCat(
        "the backup needs ", size, " bytes of host memory but only ",
        *available, " are available"));
  }
  void* p = mmap(nullptr, size, PROT_READ | PROT_WRITE,
                 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (p == MAP_FAILED) {
    return absl::ResourceExhaustedError(
        absl::StrCat("cannot map ", size,
                     " bytes of host memory for the "
                     "backup: ",
                     std::strerror(errno)));
  }
  constexpr uint64_t kHugePage = uint64_t{2} << 20;
  if (size >= kHugePage) (void)madvise(p, size, MADV_HUGEPAGE);
  return std::unique_ptr<HostBuffer>(
      new HostBuffer(static_cast<uint8_t*>(p), size));
}

HostBuffer::~HostBuffer() {
  if (data_ != nullptr) munmap(data_, size_);
}

void HostBuffer::Prefault() const {
  if (data_ == nullptr) return;
  constexpr int kMadvisePopulateWrite = 23;  // Linux 5.14
  if (madvise(data_, size_, kMadvisePopulateWrite) == 0) return;
  for (uint64_t at = 0; at < size_; at += 4096) data_[at] = 0;
}

void HostBuffer::Shrink(uint64_t size) {
  constexpr uint64_t kPage = 4096;
  const uint64_t keep = (size + kPage - 1) / kPage * kPage;
  if (data_ == nullptr || keep >= size_) return;
  if (munmap(data_ + keep, size_ - keep) == 0) size_ = keep;
}

std::optional<uint64_t> HostBuffer::AvailableBytes() {
  FILE* f = std::fopen("/proc/meminfo", "re");
  if (f == nullptr) return std::nullopt;
  char line[256];
  std::optional<uint64_t> found;
  while (std::fgets(line, sizeof(line), f) != nullptr) {
    unsigned long long kib = 0;
    if (std::sscanf(line, "MemAvailable: %llu kB", &kib) == 1) {
      found = static_cast<uint64_t>(kib) * 1024;
      break;
    }
  }
  std::fclose(f);
  return found;
}

absl::Status ParallelFor(int workers, size_t n,
                         const std::function<absl::Status(size_t)>& fn) {
  if (n == 0) return absl::OkStatus();
  size_t threads_wanted =
      workers > 0 ? static_cast<size_t>(workers)
                  : std::max(1u, std::thread::hardware_concurrency());
  threads_wanted = std::min(threads_wanted, n);
  std::atomic<size_t> next{0};
  std::atomic<bool> failed{false};
  ascend::Mutex mu;
  absl::Status first;
  auto work = [&] {
    for (;;) {
      if (failed.load(std::memory_order_relaxed)) return;
      const size_t i = next.fetch_add(1, std::memory_order_relaxed);
      if (i >= n) return;
      absl::Status s = fn(i);
      if (!s.ok()) {
        ascend::MutexLock lock(&mu);
        if (first.ok()) first = s;
        failed.store(true, std::memory_order_relaxed);
        return;
      }
    }
  };
  std::vector<std::thread> threads;
  try {
    threads.reserve(threads_wanted - 1);
    for (size_t t = 1; t < threads_wanted; ++t) threads.emplace_back(work);
  } catch (const std::exception&) {
    // Out of threads or memory for them: the threads made so far and this
    // one do the work.
  }
  work();
  for (std::thread& t : threads) t.join();
  return first;
}

}  // namespace ascend::snapshot::internal
