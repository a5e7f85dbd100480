// The incremental bookkeeping of the "memory" participant (DESIGN.md §4.14):
// a capture's layout (its allocations, pieces and the buffers holding them),
// and per device the write-tracking period running, the capture it started
// from (the base the next capture carries unchanged pieces over from), and
// the host buffer prepared for the next capture. Internal to the memory
// participants.
#ifndef ASCENDCL_SNAPSHOT_MEMORY_TRACKING_H_
#define ASCENDCL_SNAPSHOT_MEMORY_TRACKING_H_

#include <atomic>
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <thread>
#include <utility>
#include <vector>

#include "absl/status/statusor.h"
#include "device/base/mutex.h"
#include "device/device.h"
#include "glog/logging.h"
#include "snapshot/host_copy.h"
#include "snapshot/memory_participant.h"

namespace ascend::snapshot::internal {

// A capture's pieces and the buffers holding them: what the next capture
// of the same device carries unchanged pieces over from.
struct Layout {
  std::vector<SavedMemory::Allocation> allocations;
  std::vector<SavedMemory::Piece> pieces;
  std::vector<std::shared_ptr<Extent>> buffers;
  // The bytes of all pieces (the image's size).
  uint64_t bytes = 0;
};

// Per device, the capture whose write-tracking period runs (DESIGN.md
// §4.14): shared by the participant and the states it saved.
struct Tracking {
  struct Entry {
    std::weak_ptr<device::Device> device;
    uint64_t period = 0;
    std::shared_ptr<const Layout> base;
    // Device::AllocationsVersion when the base was captured (0: unknown).
    uint64_t allocations_version = 0;
    // Host memory a pre-copy faulted in for the next Save to copy into, and
    // what the last incremental capture copied (to size it).
    std::unique_ptr<HostBuffer> reserve;
    uint64_t last_copied = 0;
  };

  ~Tracking() { JoinPreparers(); }

  // Waits for the threads preparing reserves: of `device_id`, or of every
  // device (a closed device's, aclFinalize's and the destructor's).
  void JoinPreparers(std::optional<int32_t> device_id = std::nullopt) {
    ascend::MutexLock lock(&preparing_mu);
    for (auto& [id, preparer] : preparing) {
      if (device_id.has_value() && id != *device_id) continue;
      if (preparer.thread.joinable()) preparer.thread.join();
    }
  }

  // The reserve of `device_id` (null when none). A reserve still being
  // prepared is not waited for: it serves a later capture.
  std::unique_ptr<HostBuffer> TakeReserve(int32_t device_id) {
    ascend::MutexLock lock(&mu);
    auto it = entries.find(device_id);
    if (it == entries.end()) return nullptr;
    return std::move(it->second.reserve);
  }
  // Maps and faults in `bytes` of host memory on a thread of its own, as
  // the reserve of `device_id` for its next capture (DESIGN.md §4.14): the
  // next Backup copies into memory already touched, outside its locked
  // window. Nothing happens when a reserve is there or still being made, or
  // no thread can be started.
  void PrepareReserve(int32_t device_id, uint64_t bytes) {
    {
      ascend::MutexLock lock(&mu);
      auto it = entries.find(device_id);
      if (it == entries.end() || it->second.reserve != nullptr) return;
    }
    ascend::MutexLock lock(&preparing_mu);
    Preparer& preparer = preparing[device_id];
    if (preparer.thread.joinable()) {
      if (!preparer.done->load()) return;  // still at work
      preparer.thread.join();
    }
    auto done = std::make_shared<std::atomic<bool>>(false);
    try {
      preparer.thread = std::thread([this, device_id, bytes, done] {
        absl::StatusOr<std::unique_ptr<HostBuffer>> made =
            HostBuffer::Map(bytes);
        if (made.ok()) {
          (*made)->Prefault();
          SetReserve(device_id, *std::move(made));
        }
        done->store(true);
      });
      preparer.done = std::move(done);
    } catch (...) {
      // No thread: the next Backup maps its own buffer.
    }
  }
  void SetReserve(int32_t device_id, std::unique_ptr<HostBuffer> reserve) {
    std::unique_ptr<HostBuffer> replaced;
    ascend::MutexLock lock(&mu);
    auto it = entries.find(device_id);
    if (it == entries.end()) return;
    replaced = std::exchange(it->second.reserve, std::move(reserve));
  }
  uint64_t LastCopied(int32_t device_id) {
    ascend::MutexLock lock(&mu);
    auto it = entries.find(device_id);
    return it == entries.end() ? 0 : it->second.last_copied;
  }
  void SetLastCopied(int32_t device_id, uint64_t bytes) {
    ascend::MutexLock lock(&mu);
    auto it = entries.find(device_id);
    if (it != entries.end()) it->second.last_copied = bytes;
  }

  // The period running on `device_id` if it is still `device`'s, else 0.
  uint64_t Current(int32_t device_id, const device::Device& device) {
    ascend::MutexLock lock(&mu);
    auto it = entries.find(device_id);
    if (it == entries.end()) return 0;
    std::shared_ptr<device::Device> tracked = it->second.device.lock();
    return tracked.get() == &device ? it->second.period : 0;
  }
  // Starts a period on `device` over `base`'s allocations; returns it, or 0
  // when the device cannot track writes (said once in the log).
  uint64_t Start(int32_t device_id,
                 const std::shared_ptr<device::Device>& device,
                 std::shared_ptr<const Layout> base,
                 uint64_t allocations_version) {
    std::vector<device::Allocation> ranges;
    ranges.reserve(base->allocations.size());
    for (const SavedMemory::Allocation& a : base->allocations) {
      ranges.push_back(device::Allocation{a.addr, a.size});
    }
    const absl::Status started = device->TrackWrites(ranges);
    ascend::MutexLock lock(&mu);
    if (!started.ok()) {
      entries.erase(device_id);
      if (!said_unavailable) {
        said_unavailable = true;
        LOG(INFO) << "snapshot: no write tracking on device " << device_id
                  << " (" << started.message()
                  << "): every Backup copies all device memory";
      }
      return 0;
    }
    Entry& entry = entries[device_id];
    entry.device = device;
    entry.period = next_period++;
    entry.base = std::move(base);
    entry.allocations_version = allocations_version;
    return entry.period;
  }
  // A pre-copy's period: starts one over `ranges` with no base yet (SetBase
  // gives it one once the copy is done). With a period running, `written`
  // gets what it saw, ended in the same step (Device::RestartWriteTracking),
  // and `restarted` says so; without, the new period starts afresh and the
  // copy must be full. Returns the new period.
  absl::StatusOr<uint64_t> Begin(int32_t device_id,
                                 const std::shared_ptr<device::Device>& device,
                                 const std::vector<device::Allocation>& ranges,
                                 std::vector<device::Allocation>* written,
                                 bool* restarted) {
    *restarted = false;
    if (Current(device_id, *device) != 0) {
      absl::StatusOr<std::vector<device::Allocation>> ended =
          device->RestartWriteTracking(ranges);
      if (ended.ok()) {
        *written = *std::move(ended);
        *restarted = true;
      }
    }
    if (!*restarted) {
      if (absl::Status started = device->TrackWrites(ranges); !started.ok()) {
        Forget(device_id);
        return started;
      }
    }
    ascend::MutexLock lock(&mu);
    Entry& entry = entries[device_id];
    entry.device = device;
    entry.period = next_period++;
    entry.base = std::make_shared<const Layout>();
    entry.allocations_version = 0;
    return entry.period;
  }
  // Gives `period` of `device_id` its base; false when that period is over.
  bool SetBase(int32_t device_id, uint64_t period,
               std::shared_ptr<const Layout> base,
               uint64_t allocations_version) {
    ascend::MutexLock lock(&mu);
    auto it = entries.find(device_id);
    if (it == entries.end() || it->second.period != period) return false;
    it->second.base = std::move(base);
    it->second.allocations_version = allocations_version;
    return true;
  }
  // Forgets `device_id`'s period and releases its base (device closed).
  void Forget(int32_t device_id) {
    JoinPreparers(device_id);
    std::shared_ptr<const Layout> released;
    std::unique_ptr<HostBuffer> reserve;
    {
      ascend::MutexLock lock(&mu);
      auto it = entries.find(device_id);
      if (it == entries.end()) return;
      released = std::move(it->second.base);
      reserve = std::move(it->second.reserve);
      entries.erase(it);
    }
  }
  // Forgets every device's period (aclFinalize).
  void ForgetAll() {
    JoinPreparers();
    std::map<int32_t, Entry> released;
    ascend::MutexLock lock(&mu);
    released.swap(entries);
  }
  // The base of `device_id` when its period is `period` (null otherwise),
  // and the allocations version it was captured at.
  std::shared_ptr<const Layout> Base(int32_t device_id, uint64_t period,
                                     uint64_t* allocations_version = nullptr) {
    ascend::MutexLock lock(&mu);
    auto it = entries.find(device_id);
    if (it == entries.end() || it->second.period != period) return nullptr;
    if (allocations_version != nullptr) {
      *allocations_version = it->second.allocations_version;
    }
    return it->second.base;
  }
  ascend::Mutex mu;
  std::map<int32_t, Entry> entries;
  // Per device, the thread preparing its reserve (joined before the next
  // one starts, and on destruction).
  struct Preparer {
    std::thread thread;
    std::shared_ptr<std::atomic<bool>> done =
        std::make_shared<std::atomic<bool>>(true);
  };
  ascend::Mutex preparing_mu;
  std::map<int32_t, Preparer> preparing;
  uint64_t next_period = 1;
  bool said_unavailable = false;
};

}  // namespace ascend::snapshot::internal

#endif  // ASCENDCL_SNAPSHOT_MEMORY_TRACKING_H_
