#include "snapshot/memory_participant.h"

#include <sys/mman.h>

#include <algorithm>
#include <atomic>
#include <cstdio>
#include <cstring>
#include <exception>
#include <functional>
#include <string>
#include <thread>
#include <utility>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/time/clock.h"
#include "device/base/mutex.h"
#include "device/base/status_macros.h"
#include "device/checksum.h"
#include "glog/logging.h"

namespace ascend::snapshot {
namespace internal {

// Host memory for one device's saved pieces: mapped fresh, with transparent
// huge pages where the kernel offers them, and unmapped with the image.
class HostBuffer {
 public:
  static absl::StatusOr<std::unique_ptr<HostBuffer>> Map(uint64_t size) {
    if (size == 0)
      return std::unique_ptr<HostBuffer>(new HostBuffer(nullptr, 0));
    if (const std::optional<uint64_t> available = AvailableBytes();
        available.has_value() && size > *available) {
      return absl::ResourceExhaustedError(absl::StrCat(
          "the backup needs ", size, " bytes of host memory but only ",
          *available, " are available"));
    }
    void* p = mmap(nullptr, size, PROT_READ | PROT_WRITE,
                   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED) {
      return absl::ResourceExhaustedError(absl::StrCat(
          "cannot map ", size,
          " bytes of host memory for the backup: ", std::strerror(errno)));
    }
    constexpr uint64_t kHugePage = uint64_t{2} << 20;
    if (size >= kHugePage) (void)madvise(p, size, MADV_HUGEPAGE);
    return std::unique_ptr<HostBuffer>(
        new HostBuffer(static_cast<uint8_t*>(p), size));
  }
  HostBuffer(const HostBuffer&) = delete;
  HostBuffer& operator=(const HostBuffer&) = delete;
  ~HostBuffer() {
    if (data_ != nullptr) munmap(data_, size_);
  }

  uint8_t* data() const { return data_; }
  uint64_t size() const { return size_; }

 private:
  HostBuffer(uint8_t* data, uint64_t size) : data_(data), size_(size) {}

  // MemAvailable of /proc/meminfo; nullopt when it cannot be read.
  static std::optional<uint64_t> AvailableBytes() {
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

  uint8_t* const data_;
  const uint64_t size_;
};

}  // namespace internal

namespace {

std::string Throughput(uint64_t bytes, absl::Duration elapsed) {
  const double seconds = std::max(absl::ToDoubleSeconds(elapsed), 1e-9);
  return absl::StrFormat("%u bytes in %.3f ms (%.2f GB/s)", bytes,
                         seconds * 1e3,
                         static_cast<double>(bytes) / seconds / 1e9);
}

// Runs fn(i) for i in [0, n) on `workers` threads (0: one per core), the
// calling thread included; the first error wins and stops the rest.
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

absl::StatusOr<std::shared_ptr<device::Device>> OpenDevice(rt::Runtime& runtime,
                                                           int32_t device_id) {
  std::shared_ptr<device::Device> device = runtime.DeviceObject(device_id);
  if (!device) {
    return absl::FailedPreconditionError(
        absl::StrCat("device ", device_id, " is not open"));
  }
  return device;
}

uint64_t End(const device::Allocation& a) { return a.addr + a.size; }

// The parts of the sorted, disjoint `ranges` inside [begin, end), from
// ranges[*cursor] on; *cursor advances past ranges that end before `begin`
// (callers ask for ascending, disjoint windows).
template <typename Fn>
void ForEachOverlap(const std::vector<device::Allocation>& ranges,
                    size_t* cursor, uint64_t begin, uint64_t end, Fn&& fn) {
  while (*cursor < ranges.size() && End(ranges[*cursor]) <= begin) ++*cursor;
  for (size_t k = *cursor; k < ranges.size() && ranges[k].addr < end; ++k) {
    const uint64_t b = std::max(begin, ranges[k].addr);
    const uint64_t e = std::min(end, End(ranges[k]));
    if (b < e) fn(b, e);
  }
}

// The device's data ranges over the span of `allocations` (sorted).
std::vector<device::Allocation> DataOver(
    const device::Device& device,
    const std::vector<device::Allocation>& allocations) {
  if (allocations.empty()) return {};
  uint64_t hi = 0;
  for (const device::Allocation& a : allocations) hi = std::max(hi, End(a));
  const uint64_t lo = allocations.front().addr;
  return device.DataRanges(lo, hi - lo);
}

// --- "allocations"
// ------------------------------------------------------------

class SavedAllocations final : public rt::SavedState {
 public:
  SavedAllocations(rt::Runtime& runtime, int32_t device_id)
      : runtime_(runtime), device_id_(device_id) {}

  // The allocations alive now are the ones to put back: those freed after
  // the backup stay freed, those made since stay allocated.
  absl::Status Prepare() override {
    if (live_.has_value()) return absl::OkStatus();
    ASCEND_ASSIGN_OR_RETURN(std::shared_ptr<device::Device> device,
                            OpenDevice(runtime_, device_id_));
    live_ = device->Allocations();
    return absl::OkStatus();
  }

  absl::Status Restore() const override {
    if (!live_.has_value()) {
      return absl::FailedPreconditionError("restore without Prepare");
    }
    ASCEND_ASSIGN_OR_RETURN(std::shared_ptr<device::Device> device,
                            OpenDevice(runtime_, device_id_));
    for (const device::Allocation& a : *live_) {
      // A driver-level restore (npu) may have re-created it already.
      std::optional<device::Allocation> found = device->FindAllocation(a.addr);
      if (!found.has_value() || found->addr != a.addr ||
          found->size != a.size) {
        ASCEND_RETURN_IF_ERROR(device->AllocateAt(a.addr, a.size));
      }
    }
    return absl::OkStatus();
  }

 private:
  rt::Runtime& runtime_;
  const int32_t device_id_;
  std::optional<std::vector<device::Allocation>> live_;
};

class AllocationsParticipant final : public rt::SnapshotParticipant {
 public:
  explicit AllocationsParticipant(rt::Runtime& runtime) : runtime_(runtime) {}

  absl::string_view name() const override { return "allocations"; }

  absl::StatusOr<std::unique_ptr<rt::SavedState>> Save(
      int32_t device_id) override {
    ASCEND_RETURN_IF_ERROR(OpenDevice(runtime_, device_id).status());
    return std::unique_ptr<rt::SavedState>(
        new SavedAllocations(runtime_, device_id));
  }

  absl::StatusOr<std::string> Describe(int32_t device_id) const override {
    ASCEND_ASSIGN_OR_RETURN(std::shared_ptr<device::Device> device,
                            OpenDevice(runtime_, device_id));
    std::string text;
    for (const device::Allocation& a : device->Allocations()) {
      absl::StrAppendFormat(&text, "[0x%x, +%u)\n", a.addr, a.size);
    }
    return text;
  }

 private:
  rt::Runtime& runtime_;
};

}  // namespace

// --- "memory"
// -------------------------------------------------------------------

SavedMemory::SavedMemory(rt::Runtime& runtime, int32_t device_id,
                         MemoryOptions options)
    : runtime_(runtime), device_id_(device_id), options_(options) {}

SavedMemory::~SavedMemory() = default;

uint64_t SavedMemory::bytes() const {
  return buffer_ == nullptr ? 0 : buffer_->size();
}

uint8_t* SavedMemory::SavedByte(size_t index, uint64_t offset) {
  if (index >= allocations_.size() || buffer_ == nullptr) return nullptr;
  const Allocation& a = allocations_[index];
  const uint64_t addr = a.addr + offset;
  for (size_t p = a.first_piece; p < a.first_piece + a.piece_count; ++p) {
    const Piece& piece = pieces_[p];
    if (addr >= piece.addr && addr < piece.addr + piece.size) {
      return buffer_->data() + piece.offset + (addr - piece.addr);
    }
  }
  return nullptr;
}

absl::Status SavedMemory::Capture(device::Device& device) {
  const absl::Time start = absl::Now();
  const std::vector<device::Allocation> live = device.Allocations();
  const std::vector<device::Allocation> data = DataOver(device, live);
  const uint64_t piece_max = std::max<uint64_t>(options_.chunk_bytes, 1);
  uint64_t total = 0;
  uint64_t in_item = 0;
  size_t cursor = 0;
  allocations_.reserve(live.size());
  for (const device::Allocation& a : live) {
    Allocation& saved = allocations_.emplace_back();
    saved.addr = a.addr;
    saved.size = a.size;
    saved.first_piece = pieces_.size();
    ForEachOverlap(data, &cursor, a.addr, End(a), [&](uint64_t b, uint64_t e) {
      for (uint64_t p = b; p < e;) {
        const uint64_t len = std::min(piece_max, e - p);
        if (items_.empty() || in_item >= piece_max) {
          items_.push_back(pieces_.size());
          in_item = 0;
        }
        pieces_.push_back(
            Piece{allocations_.size() - 1, p, len, total, /*checksum=*/0});
        total += len;
        in_item += len;
        p += len;
      }
    });
    saved.piece_count = pieces_.size() - saved.first_piece;
  }
  ASCEND_ASSIGN_OR_RETURN(buffer_, internal::HostBuffer::Map(total));
  uint8_t* const host = buffer_->data();
  const int32_t device_id = device_id_;
  ASCEND_RETURN_IF_ERROR(ParallelFor(
      options_.workers, items_.size(), [&](size_t item) -> absl::Status {
        const size_t end =
            item + 1 < items_.size() ? items_[item + 1] : pieces_.size();
        for (size_t k = items_[item]; k < end; ++k) {
          Piece& piece = pieces_[k];
          uint8_t* to = host + piece.offset;
          // The device's checksum of what it sent, then ours of what
          // arrived (the piece is still in this core's cache).
          ASCEND_ASSIGN_OR_RETURN(
              const uint64_t on_device,
              device.CopyFromDeviceWithChecksum(to, piece.addr, piece.size));
          if (device::Checksum(to, piece.size) != on_device) {
            return absl::DataLossError(absl::StrFormat(
                "copy of device %d range [0x%x, +%u) was corrupted in "
                "transfer",
                device_id, piece.addr, piece.size));
          }
          piece.checksum = on_device;
        }
        return absl::OkStatus();
      }));
  uint64_t allocated = 0;
  for (const device::Allocation& a : live) allocated += a.size;
  LOG(INFO) << "snapshot backup: device " << device_id_ << ": " << live.size()
            << " allocation(s) of " << allocated << " bytes, saved "
            << Throughput(total, absl::Now() - start);
  return absl::OkStatus();
}

absl::Status SavedMemory::Prepare() {
  if (live_.has_value()) return absl::OkStatus();
  ASCEND_ASSIGN_OR_RETURN(std::shared_ptr<device::Device> device,
                          OpenDevice(runtime_, device_id_));
  live_ = device->Allocations();
  return absl::OkStatus();
}

absl::Status SavedMemory::Restore() const {
  const absl::Time start = absl::Now();
  if (!live_.has_value()) {
    return absl::FailedPreconditionError("restore without Prepare");
  }
  ASCEND_ASSIGN_OR_RETURN(std::shared_ptr<device::Device> device,
                          OpenDevice(runtime_, device_id_));
  const std::vector<device::Allocation>& live = *live_;
  // The saved allocations still alive, as they were (an allocation freed
  // since and one made in its place at the same address are different).
  std::vector<bool> keep(allocations_.size(), false);
  for (size_t i = 0, j = 0; i < allocations_.size() && j < live.size();) {
    if (allocations_[i].addr < live[j].addr) {
      ++i;
    } else if (live[j].addr < allocations_[i].addr) {
      ++j;
    } else {
      keep[i] = allocations_[i].size == live[j].size;
      ++i;
      ++j;
    }
  }
  // Everything alive that is not about to be written back must read as
  // zero: what was zero at the backup, and allocations made since. Only
  // the parts that hold data now need the device's attention (and when the
  // pieces cover everything, the device is not even asked).
  std::vector<device::Allocation> gaps;
  size_t saved = 0;
  for (const device::Allocation& a : live) {
    while (saved < allocations_.size() && allocations_[saved].addr < a.addr) {
      ++saved;
    }
    uint64_t from = a.addr;
    if (saved < allocations_.size() && allocations_[saved].addr == a.addr &&
        keep[saved]) {
      const Allocation& s = allocations_[saved];
      for (size_t p = s.first_piece; p < s.first_piece + s.piece_count; ++p) {
        if (pieces_[p].addr > from) {
          gaps.push_back(device::Allocation{from, pieces_[p].addr - from});
        }
        from = pieces_[p].addr + pieces_[p].size;
      }
    }
    if (End(a) > from) gaps.push_back(device::Allocation{from, End(a) - from});
  }
  if (!gaps.empty()) {
    const std::vector<device::Allocation> data = DataOver(*device, gaps);
    size_t cursor = 0;
    for (const device::Allocation& gap : gaps) {
      absl::Status status;
      ForEachOverlap(data, &cursor, gap.addr, End(gap),
                     [&](uint64_t b, uint64_t e) {
                       if (status.ok()) status = device->Discard(b, e - b);
                     });
      ASCEND_RETURN_IF_ERROR(status);
    }
  }
  const uint8_t* const host = buffer_ == nullptr ? nullptr : buffer_->data();
  const int32_t device_id = device_id_;
  uint64_t total = 0;
  ASCEND_RETURN_IF_ERROR(ParallelFor(
      options_.workers, items_.size(), [&](size_t item) -> absl::Status {
        const size_t end =
            item + 1 < items_.size() ? items_[item + 1] : pieces_.size();
        for (size_t k = items_[item]; k < end; ++k) {
          const Piece& piece = pieces_[k];
          if (!keep[piece.allocation]) continue;
          const uint8_t* from = host + piece.offset;
          // One verification covers both the image and the transfer: what
          // landed on the device must hash to what Backup saw there. (The
          // device was re-opened, so copying a damaged piece before
          // noticing loses nothing.) Only on a mismatch is the host copy
          // hashed as well, to say which of the two was damaged.
          ASCEND_ASSIGN_OR_RETURN(
              const uint64_t on_device,
              device->CopyToDeviceWithChecksum(piece.addr, from, piece.size));
          if (on_device != piece.checksum) {
            if (device::Checksum(from, piece.size) != piece.checksum) {
              return absl::DataLossError(absl::StrFormat(
                  "backup image of device %d range [0x%x, +%u) is corrupted",
                  device_id, piece.addr, piece.size));
            }
            return absl::DataLossError(absl::StrFormat(
                "restore copy to device %d range [0x%x, +%u) was corrupted",
                device_id, piece.addr, piece.size));
          }
        }
        return absl::OkStatus();
      }));
  for (const Piece& piece : pieces_) {
    if (keep[piece.allocation]) total += piece.size;
  }
  LOG(INFO) << "snapshot restore: device " << device_id_ << ": " << live.size()
            << " allocation(s), restored "
            << Throughput(total, absl::Now() - start);
  return absl::OkStatus();
}

class MemoryParticipant final : public rt::SnapshotParticipant {
 public:
  MemoryParticipant(rt::Runtime& runtime, MemoryOptions options)
      : runtime_(runtime), options_(options) {}

  absl::string_view name() const override { return "memory"; }

  absl::StatusOr<std::unique_ptr<rt::SavedState>> Save(
      int32_t device_id) override {
    ASCEND_ASSIGN_OR_RETURN(std::shared_ptr<device::Device> device,
                            OpenDevice(runtime_, device_id));
    auto saved = std::make_unique<SavedMemory>(runtime_, device_id, options_);
    ASCEND_RETURN_IF_ERROR(saved->Capture(*device));
    return std::unique_ptr<rt::SavedState>(std::move(saved));
  }

  // Each allocation with the device's checksum of its contents.
  absl::StatusOr<std::string> Describe(int32_t device_id) const override {
    ASCEND_ASSIGN_OR_RETURN(std::shared_ptr<device::Device> device,
                            OpenDevice(runtime_, device_id));
    std::string text;
    for (const device::Allocation& a : device->Allocations()) {
      ASCEND_ASSIGN_OR_RETURN(const uint64_t sum,
                              device->Checksum(a.addr, a.size));
      absl::StrAppendFormat(&text, "[0x%x, +%u) checksum %016x\n", a.addr,
                            a.size, sum);
    }
    return text;
  }

 private:
  rt::Runtime& runtime_;
  const MemoryOptions options_;
};

std::unique_ptr<rt::SnapshotParticipant> MakeAllocationsParticipant(
    rt::Runtime& runtime) {
  return std::make_unique<AllocationsParticipant>(runtime);
}

std::unique_ptr<rt::SnapshotParticipant> MakeMemoryParticipant(
    rt::Runtime& runtime, const MemoryOptions& options) {
  return std::make_unique<MemoryParticipant>(runtime, options);
}

}  // namespace ascend::snapshot
