#include "snapshot/memory_participant.h"

#include <algorithm>
#include <atomic>
#include <functional>
#include <string>
#include <thread>
#include <utility>

#include "absl/container/flat_hash_map.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/time/clock.h"
#include "device/base/mutex.h"
#include "device/base/status_macros.h"
#include "device/checksum.h"
#include "glog/logging.h"

namespace ascend::snapshot {
namespace internal {

// Buffers of a device's replaced backup, by size, for that device's next
// backup: a repeated backup then does not fault in fresh host pages.
class BufferPool {
 public:
  std::unique_ptr<uint8_t[]> Take(int32_t device_id, uint64_t size) {
    {
      ascend::MutexLock lock(&mu_);
      auto& spares = spares_[device_id][size];
      if (!spares.empty()) {
        std::unique_ptr<uint8_t[]> buffer = std::move(spares.back());
        spares.pop_back();
        return buffer;
      }
    }
    return std::unique_ptr<uint8_t[]>(new uint8_t[size]);
  }
  // Releases the spares the device's backup just made did not reuse.
  void DropSpares(int32_t device_id) {
    ascend::MutexLock lock(&mu_);
    spares_.erase(device_id);
  }
  void Give(int32_t device_id, uint64_t size,
            std::unique_ptr<uint8_t[]> buffer) {
    ascend::MutexLock lock(&mu_);
    spares_[device_id][size].push_back(std::move(buffer));
  }

 private:
  using Spares =
      absl::flat_hash_map<uint64_t, std::vector<std::unique_ptr<uint8_t[]>>>;
  ascend::Mutex mu_;
  absl::flat_hash_map<int32_t, Spares> spares_ ABSL_GUARDED_BY(mu_);
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
  threads.reserve(threads_wanted - 1);
  for (size_t t = 1; t < threads_wanted; ++t) threads.emplace_back(work);
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

// --- "allocations"
// ------------------------------------------------------------

class SavedAllocations final : public rt::SavedState {
 public:
  SavedAllocations(rt::Runtime& runtime, int32_t device_id,
                   std::vector<device::Allocation> allocations)
      : runtime_(runtime),
        device_id_(device_id),
        allocations_(std::move(allocations)) {}

  absl::Status Restore() const override {
    ASCEND_ASSIGN_OR_RETURN(std::shared_ptr<device::Device> device,
                            OpenDevice(runtime_, device_id_));
    for (const device::Allocation& a : allocations_) {
      // A driver-level restore (npu) may have re-created it already.
      std::optional<device::Allocation> live = device->FindAllocation(a.addr);
      if (!live.has_value() || live->addr != a.addr || live->size != a.size) {
        ASCEND_RETURN_IF_ERROR(device->AllocateAt(a.addr, a.size));
      }
    }
    return absl::OkStatus();
  }

 private:
  rt::Runtime& runtime_;
  const int32_t device_id_;
  const std::vector<device::Allocation> allocations_;
};

class AllocationsParticipant final : public rt::SnapshotParticipant {
 public:
  explicit AllocationsParticipant(rt::Runtime& runtime) : runtime_(runtime) {}

  absl::string_view name() const override { return "allocations"; }

  absl::StatusOr<std::unique_ptr<rt::SavedState>> Save(
      int32_t device_id) override {
    ASCEND_ASSIGN_OR_RETURN(std::shared_ptr<device::Device> device,
                            OpenDevice(runtime_, device_id));
    return std::unique_ptr<rt::SavedState>(
        new SavedAllocations(runtime_, device_id, device->Allocations()));
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
                         MemoryOptions options,
                         std::shared_ptr<internal::BufferPool> pool)
    : runtime_(runtime),
      device_id_(device_id),
      options_(options),
      pool_(std::move(pool)) {}

SavedMemory::~SavedMemory() {
  for (Allocation& a : allocations_) {
    if (a.bytes) pool_->Give(device_id_, a.size, std::move(a.bytes));
  }
}

uint64_t SavedMemory::bytes() const {
  uint64_t total = 0;
  for (const Allocation& a : allocations_) total += a.size;
  return total;
}

absl::Status SavedMemory::Capture(device::Device& device) {
  const absl::Time start = absl::Now();
  struct Chunk {
    Allocation* allocation;
    size_t index;
  };
  std::vector<Chunk> chunks;
  uint64_t total = 0;
  for (const device::Allocation& a : device.Allocations()) {
    Allocation& saved = allocations_.emplace_back();
    saved.addr = a.addr;
    saved.size = a.size;
    saved.bytes = pool_->Take(device_id_, a.size);
    total += a.size;
  }
  pool_->DropSpares(device_id_);
  const uint64_t chunk_bytes = options_.chunk_bytes;
  for (Allocation& saved : allocations_) {
    const size_t n = (saved.size + chunk_bytes - 1) / chunk_bytes;
    saved.chunk_checksums.assign(n, 0);
    for (size_t i = 0; i < n; ++i) chunks.push_back(Chunk{&saved, i});
  }
  const int32_t device_id = device_id_;
  ASCEND_RETURN_IF_ERROR(ParallelFor(
      options_.workers, chunks.size(), [&](size_t k) -> absl::Status {
        Allocation& a = *chunks[k].allocation;
        const uint64_t offset = chunks[k].index * chunk_bytes;
        const uint64_t len = std::min(chunk_bytes, a.size - offset);
        uint8_t* host = a.bytes.get() + offset;
        // The device's checksum of what it sent, then ours of what arrived
        // (the chunk is still in this core's cache).
        ASCEND_ASSIGN_OR_RETURN(
            const uint64_t on_device,
            device.CopyFromDeviceWithChecksum(host, a.addr + offset, len));
        if (device::Checksum(host, len) != on_device) {
          return absl::DataLossError(absl::StrFormat(
              "copy of device %d range [0x%x, +%u) was corrupted in transfer",
              device_id, a.addr + offset, len));
        }
        a.chunk_checksums[chunks[k].index] = on_device;
        return absl::OkStatus();
      }));
  LOG(INFO) << "snapshot backup: device " << device_id_ << ": "
            << allocations_.size() << " allocation(s), "
            << Throughput(total, absl::Now() - start);
  return absl::OkStatus();
}

absl::Status SavedMemory::Restore() const {
  const absl::Time start = absl::Now();
  ASCEND_ASSIGN_OR_RETURN(std::shared_ptr<device::Device> device,
                          OpenDevice(runtime_, device_id_));
  struct Chunk {
    const Allocation* allocation;
    size_t index;
  };
  std::vector<Chunk> chunks;
  uint64_t total = 0;
  // "allocations" has put every allocation back already.
  for (const Allocation& a : allocations_) {
    for (size_t i = 0; i < a.chunk_checksums.size(); ++i) {
      chunks.push_back(Chunk{&a, i});
    }
    total += a.size;
  }
  const uint64_t chunk_bytes = options_.chunk_bytes;
  const int32_t device_id = device_id_;
  ASCEND_RETURN_IF_ERROR(ParallelFor(
      options_.workers, chunks.size(), [&](size_t k) -> absl::Status {
        const Allocation& a = *chunks[k].allocation;
        const uint64_t offset = chunks[k].index * chunk_bytes;
        const uint64_t len = std::min(chunk_bytes, a.size - offset);
        const uint8_t* host = a.bytes.get() + offset;
        const uint64_t expected = a.chunk_checksums[chunks[k].index];
        // One verification covers both the image and the transfer: what
        // landed on the device must hash to what Backup saw there. (The
        // device was re-opened, so copying a damaged chunk before noticing
        // loses nothing.) Only on a mismatch is the host copy hashed as
        // well, to say which of the two was damaged.
        ASCEND_ASSIGN_OR_RETURN(
            const uint64_t on_device,
            device->CopyToDeviceWithChecksum(a.addr + offset, host, len));
        if (on_device != expected) {
          if (device::Checksum(host, len) != expected) {
            return absl::DataLossError(absl::StrFormat(
                "backup image of device %d range [0x%x, +%u) is corrupted",
                device_id, a.addr + offset, len));
          }
          return absl::DataLossError(absl::StrFormat(
              "restore copy to device %d range [0x%x, +%u) was corrupted",
              device_id, a.addr + offset, len));
        }
        return absl::OkStatus();
      }));
  LOG(INFO) << "snapshot restore: device " << device_id_ << ": "
            << allocations_.size() << " allocation(s), "
            << Throughput(total, absl::Now() - start);
  return absl::OkStatus();
}

class MemoryParticipant final : public rt::SnapshotParticipant {
 public:
  MemoryParticipant(rt::Runtime& runtime, MemoryOptions options)
      : runtime_(runtime),
        options_(options),
        pool_(std::make_shared<internal::BufferPool>()) {}

  absl::string_view name() const override { return "memory"; }

  absl::StatusOr<std::unique_ptr<rt::SavedState>> Save(
      int32_t device_id) override {
    ASCEND_ASSIGN_OR_RETURN(std::shared_ptr<device::Device> device,
                            OpenDevice(runtime_, device_id));
    auto saved =
        std::make_unique<SavedMemory>(runtime_, device_id, options_, pool_);
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
  const std::shared_ptr<internal::BufferPool> pool_;
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
