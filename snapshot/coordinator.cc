#include "snapshot/coordinator.h"

#include <algorithm>
#include <atomic>
#include <thread>
#include <utility>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "acl/error_codes/rt_error_codes.h"
#include "device/base/status_macros.h"
#include "device/checksum.h"
#include "glog/logging.h"
#include "runtime/base/error.h"

namespace ascend::snapshot {
namespace {

using rt::Error;
using rt::ProcessState;

// Depth of stage-callback invocations on this thread (CONTRACT item 21).
thread_local int tls_callback_depth = 0;

bool InsideCallback() { return tls_callback_depth > 0; }

absl::Status ReentrantCall(int32_t code, const char* what) {
  return Error(code, absl::StrCat(what,
                                  " cannot be called from inside a snapshot "
                                  "stage callback"));
}

// Keeps codes the reference passes through (feature not supported, no
// context) and turns every other failure into the operation's own code.
absl::Status AsOperationFailure(const absl::Status& status, int32_t code,
                                const char* what) {
  const int32_t original = rt::ErrorCode(status);
  if (original == ACL_ERROR_RT_FEATURE_NOT_SUPPORT ||
      original == ACL_ERROR_RT_CONTEXT_NULL || original == code) {
    return status;
  }
  return Error(code, absl::StrCat(what, " failed: ", status.message()));
}

std::string Throughput(uint64_t bytes, absl::Duration elapsed) {
  const double seconds = std::max(absl::ToDoubleSeconds(elapsed), 1e-9);
  return absl::StrFormat("%u bytes in %.3f ms (%.2f GB/s)", bytes,
                         seconds * 1e3,
                         static_cast<double>(bytes) / seconds / 1e9);
}

}  // namespace

uint64_t BackupImage::total_bytes() const {
  uint64_t total = 0;
  for (const DeviceImage& d : devices) {
    for (const SavedAllocation& a : d.allocations) total += a.size;
  }
  return total;
}

Coordinator::Coordinator(rt::Runtime& runtime, rt::GlobalState& state,
                         CallbackRegistry& callbacks, Options options)
    : runtime_(runtime),
      state_(state),
      callbacks_(callbacks),
      options_(std::move(options)) {}

Coordinator& Coordinator::Get() {
  static Coordinator* const coordinator =
      new Coordinator(rt::Runtime::Get(), rt::GlobalState::Get(),
                      *new CallbackRegistry(), Options{});
  return *coordinator;
}

uint64_t Coordinator::backup_bytes() const {
  ascend::MutexLock lock(&op_mu_);
  return backup_ ? backup_->total_bytes() : 0;
}

absl::Status Coordinator::InvokeStage(int32_t stage) {
  // Gated calls from the callbacks do not block (see StageCallbackScope).
  rt::StageCallbackScope gated_calls_proceed;
  ++tls_callback_depth;
  absl::Status status = callbacks_.Invoke(stage, runtime_.OpenDevices());
  --tls_callback_depth;
  return status;
}

absl::Status Coordinator::RegisterCallback(int32_t stage,
                                           rtSnapShotCallBack callback,
                                           void* args) {
  if (InsideCallback()) {
    return ReentrantCall(ACL_ERROR_SNAPSHOT_REGISTER_CALLBACK_FAILED,
                         "aclrtSnapShotCallbackRegister");
  }
  return callbacks_.Register(stage, callback, args);
}

absl::Status Coordinator::UnregisterCallback(int32_t stage,
                                             rtSnapShotCallBack callback) {
  if (InsideCallback()) {
    return ReentrantCall(ACL_ERROR_SNAPSHOT_REGISTER_CALLBACK_FAILED,
                         "aclrtSnapShotCallbackUnregister");
  }
  return callbacks_.Unregister(stage, callback);
}

absl::Status Coordinator::Lock() {
  if (InsideCallback()) {
    return ReentrantCall(ACL_ERROR_SNAPSHOT_LOCK_FAILED, "snapshot Lock");
  }
  {
    ascend::MutexLock op(&op_mu_);
    // The reference runs LOCK_PRE before looking at the state (CONTRACT 11).
    ASCEND_RETURN_IF_ERROR(InvokeStage(RT_SNAPSHOT_LOCK_PRE));
  }
  // The wait runs without op_mu_, so that an Unlock from another thread can
  // cancel it (the Lock then fails with 507906, as in the reference); Backup
  // refuses while it waits.
  const absl::Time start = absl::Now();
  ASCEND_RETURN_IF_ERROR(state_.Lock());
  VLOG(1) << "snapshot: locked in " << (absl::Now() - start);
  return absl::OkStatus();
}

absl::Status Coordinator::Unlock() {
  if (InsideCallback()) {
    return ReentrantCall(ACL_ERROR_SNAPSHOT_UNLOCK_FAILED, "snapshot Unlock");
  }
  ascend::MutexLock op(&op_mu_);
  ASCEND_RETURN_IF_ERROR(state_.Unlock());
  return InvokeStage(RT_SNAPSHOT_UNLOCK_POST);
}

absl::Status Coordinator::Backup() {
  if (InsideCallback()) {
    return ReentrantCall(ACL_ERROR_SNAPSHOT_BACKUP_FAILED, "snapshot Backup");
  }
  if (rt::Stream::Current() != nullptr) {
    // Backup drains every stream, this task's own included: it would wait
    // for itself until the timeout.
    return Error(ACL_ERROR_SNAPSHOT_BACKUP_FAILED,
                 "snapshot Backup called from a task running on a stream "
                 "(a host function or callback); call it from a thread");
  }
  ascend::MutexLock op(&op_mu_);
  if (state_.state() != ProcessState::kLocked) {
    return Error(ACL_ERROR_SNAPSHOT_BACKUP_FAILED,
                 absl::StrCat("backup needs state LOCKED, process is ",
                              rt::ProcessStateName(
                                  static_cast<int32_t>(state_.state()))));
  }
  if (state_.LockInProgress()) {
    return Error(ACL_ERROR_SNAPSHOT_BACKUP_FAILED,
                 "backup needs a completed Lock: a Lock is still waiting for "
                 "calls in progress");
  }
  ASCEND_RETURN_IF_ERROR(InvokeStage(RT_SNAPSHOT_BACKUP_PRE));
  const std::vector<int32_t> devices = runtime_.OpenDevices();
  if (devices.empty()) {
    return Error(ACL_ERROR_RT_CONTEXT_NULL,
                 "backup needs at least one open device");
  }
  absl::StatusOr<std::unique_ptr<BackupImage>> image = TakeBackup(devices);
  if (!image.ok()) {
    return AsOperationFailure(image.status(), ACL_ERROR_SNAPSHOT_BACKUP_FAILED,
                              "backup");
  }
  if (options_.after_backup) options_.after_backup(**image);
  // The new backup replaces the old one; the old buffers become spares.
  if (backup_) {
    for (DeviceImage& d : backup_->devices) {
      for (SavedAllocation& a : d.allocations) {
        spare_[a.size].push_back(std::move(a.bytes));
      }
    }
  }
  backup_ = *std::move(image);
  ASCEND_RETURN_IF_ERROR(InvokeStage(RT_SNAPSHOT_BACKUP_POST));
  if (!state_.CompareAndSetState(ProcessState::kLocked,
                                 ProcessState::kBackedUp)) {
    return Error(ACL_ERROR_SNAPSHOT_BACKUP_FAILED,
                 "process state changed during backup");
  }
  return absl::OkStatus();
}

std::unique_ptr<uint8_t[]> Coordinator::TakeBuffer(uint64_t size) {
  auto it = spare_.find(size);
  if (it != spare_.end() && !it->second.empty()) {
    std::unique_ptr<uint8_t[]> buffer = std::move(it->second.back());
    it->second.pop_back();
    return buffer;
  }
  return std::unique_ptr<uint8_t[]>(new uint8_t[size]);
}

absl::StatusOr<std::unique_ptr<BackupImage>> Coordinator::TakeBackup(
    const std::vector<int32_t>& devices) {
  const absl::Time deadline = absl::Now() + state_.timeout();
  absl::Status drained = runtime_.DrainAllStreams(deadline);
  if (!drained.ok()) {
    return Error(ACL_ERROR_SNAPSHOT_BACKUP_FAILED,
                 absl::StrCat("streams did not drain: ", drained.message()));
  }
  auto image = std::make_unique<BackupImage>();
  for (int32_t id : devices) {
    DeviceImage& device_image = image->devices.emplace_back();
    device_image.device_id = id;
    ASCEND_RETURN_IF_ERROR(BackupDevice(id, device_image));
  }
  // Driver-held resources (npu); the simulator keeps none.
  ASCEND_RETURN_IF_ERROR(runtime_.backend()->BackupProcessResources());
  // Buffers of sizes this backup did not reuse are released.
  spare_.clear();
  return image;
}

absl::Status Coordinator::BackupDevice(int32_t device_id, DeviceImage& image) {
  const absl::Time start = absl::Now();
  std::shared_ptr<device::Device> device = runtime_.DeviceObject(device_id);
  if (!device) {
    return Error(ACL_ERROR_SNAPSHOT_BACKUP_FAILED,
                 absl::StrCat("device ", device_id, " closed during backup"));
  }
  ASCEND_ASSIGN_OR_RETURN(image.tables, runtime_.SaveTables(device_id));
  struct Chunk {
    SavedAllocation* allocation;
    size_t index;
  };
  std::vector<Chunk> chunks;
  uint64_t bytes = 0;
  for (const device::Allocation& a : device->Allocations()) {
    SavedAllocation& saved = image.allocations.emplace_back();
    saved.addr = a.addr;
    saved.size = a.size;
    saved.bytes = TakeBuffer(a.size);
    bytes += a.size;
  }
  for (SavedAllocation& saved : image.allocations) {
    const size_t n =
        (saved.size + options_.chunk_bytes - 1) / options_.chunk_bytes;
    saved.chunk_checksums.assign(n, 0);
    for (size_t i = 0; i < n; ++i) chunks.push_back(Chunk{&saved, i});
  }
  const uint64_t chunk_bytes = options_.chunk_bytes;
  ASCEND_RETURN_IF_ERROR(
      ParallelFor(chunks.size(), [&](size_t k) -> absl::Status {
        SavedAllocation& a = *chunks[k].allocation;
        const uint64_t offset = chunks[k].index * chunk_bytes;
        const uint64_t len = std::min(chunk_bytes, a.size - offset);
        uint8_t* host = a.bytes.get() + offset;
        // The device's checksum of what it sent, then ours of what arrived
        // (the chunk is still in this core's cache).
        ASCEND_ASSIGN_OR_RETURN(
            const uint64_t on_device,
            device->CopyFromDeviceWithChecksum(host, a.addr + offset, len));
        if (device::Checksum(host, len) != on_device) {
          return absl::DataLossError(absl::StrFormat(
              "copy of device %d range [0x%x, +%u) was corrupted in transfer",
              device_id, a.addr + offset, len));
        }
        a.chunk_checksums[chunks[k].index] = on_device;
        return absl::OkStatus();
      }));
  LOG(INFO) << "snapshot backup: device " << device_id << ": "
            << image.allocations.size() << " allocation(s), "
            << Throughput(bytes, absl::Now() - start);
  return absl::OkStatus();
}

absl::Status Coordinator::Restore() {
  if (InsideCallback()) {
    return ReentrantCall(ACL_ERROR_SNAPSHOT_RESTORE_FAILED, "snapshot Restore");
  }
  ascend::MutexLock op(&op_mu_);
  if (state_.state() != ProcessState::kBackedUp || !backup_) {
    return Error(ACL_ERROR_SNAPSHOT_RESTORE_FAILED,
                 absl::StrCat("restore needs state BACKED_UP, process is ",
                              rt::ProcessStateName(
                                  static_cast<int32_t>(state_.state()))));
  }
  ASCEND_RETURN_IF_ERROR(InvokeStage(RT_SNAPSHOT_RESTORE_PRE));
  absl::Status restored = RestoreImage(*backup_);
  if (!restored.ok()) {
    return AsOperationFailure(restored, ACL_ERROR_SNAPSHOT_RESTORE_FAILED,
                              "restore");
  }
  ASCEND_RETURN_IF_ERROR(InvokeStage(RT_SNAPSHOT_RESTORE_POST));
  if (!state_.CompareAndSetState(ProcessState::kBackedUp,
                                 ProcessState::kLocked)) {
    return Error(ACL_ERROR_SNAPSHOT_RESTORE_FAILED,
                 "process state changed during restore");
  }
  return absl::OkStatus();
}

// Health events queued before the devices are re-opened describe the state
// this restore replaces (an injected memory loss, say). The health monitor is
// parked while the process is locked and would only see them after Unlock,
// marking a device abnormal that Restore has just brought back. They go to
// the runtime now (logged, device marked abnormal), and each device restored
// below is then marked healthy again; a device whose restore fails keeps the
// mark. The monitor is parked (Lock waited for it), so nothing else reads the
// queue meanwhile.
void Coordinator::ConsumeStaleHealthEvents() {
  device::Backend* backend = runtime_.backend();
  if (backend == nullptr) return;
  // An interrupt left pending by Lock's wake-up of the monitor can answer one
  // wait with nothing, so the queue is empty only after two empty answers.
  // Bounded in case another thread keeps injecting faults.
  constexpr int kMaxEvents = 4096;
  int empty_answers = 0;
  for (int i = 0; i < kMaxEvents && empty_answers < 2; ++i) {
    std::optional<device::HealthEvent> event =
        backend->WaitHealthEvent(absl::ZeroDuration());
    if (!event.has_value()) {
      ++empty_answers;
      continue;
    }
    empty_answers = 0;
    runtime_.OnHealthEvent(*event);
  }
}

absl::Status Coordinator::RestoreImage(const BackupImage& image) {
  ConsumeStaleHealthEvents();
  // Re-open every device first: contents and ids are dropped, addresses
  // stay reserved. Then claim the same ids back.
  for (const DeviceImage& d : image.devices) {
    std::shared_ptr<device::Device> device = runtime_.DeviceObject(d.device_id);
    if (!device) {
      return Error(ACL_ERROR_SNAPSHOT_RESTORE_FAILED,
                   absl::StrCat("device ", d.device_id,
                                " is no longer open; restore needs the devices "
                                "of the backup"));
    }
    ASCEND_RETURN_IF_ERROR(device->Reopen());
    ASCEND_RETURN_IF_ERROR(runtime_.RestoreTables(d.device_id, d.tables));
  }
  ASCEND_RETURN_IF_ERROR(runtime_.backend()->RestoreProcessResources());
  // Put every allocation of every device back before copying any data, so a
  // copy that fails on one device leaves all addresses valid on the others
  // (an Unlock after a failed Restore must not leave dangling pointers).
  for (const DeviceImage& d : image.devices) {
    std::shared_ptr<device::Device> device = runtime_.DeviceObject(d.device_id);
    for (const SavedAllocation& a : d.allocations) {
      // A driver-level restore (npu) may have re-created it already.
      std::optional<device::Allocation> live = device->FindAllocation(a.addr);
      if (!live.has_value() || live->addr != a.addr || live->size != a.size) {
        ASCEND_RETURN_IF_ERROR(device->AllocateAt(a.addr, a.size));
      }
    }
  }
  for (const DeviceImage& d : image.devices) {
    ASCEND_RETURN_IF_ERROR(RestoreDeviceMemory(d));
    runtime_.MarkDeviceHealthy(d.device_id);
  }
  return absl::OkStatus();
}

absl::Status Coordinator::RestoreDeviceMemory(const DeviceImage& image) {
  const absl::Time start = absl::Now();
  std::shared_ptr<device::Device> device =
      runtime_.DeviceObject(image.device_id);
  struct Chunk {
    const SavedAllocation* allocation;
    size_t index;
  };
  std::vector<Chunk> chunks;
  uint64_t bytes = 0;
  // RestoreImage has put every allocation back already.
  for (const SavedAllocation& a : image.allocations) {
    for (size_t i = 0; i < a.chunk_checksums.size(); ++i) {
      chunks.push_back(Chunk{&a, i});
    }
    bytes += a.size;
  }
  const uint64_t chunk_bytes = options_.chunk_bytes;
  const int32_t device_id = image.device_id;
  ASCEND_RETURN_IF_ERROR(
      ParallelFor(chunks.size(), [&](size_t k) -> absl::Status {
        const SavedAllocation& a = *chunks[k].allocation;
        const uint64_t offset = chunks[k].index * chunk_bytes;
        const uint64_t len = std::min(chunk_bytes, a.size - offset);
        const uint8_t* host = a.bytes.get() + offset;
        const uint64_t expected = a.chunk_checksums[chunks[k].index];
        // One verification covers both the image and the transfer: what landed
        // on the device must hash to what Backup saw there. (The device was
        // re-opened above, so copying a damaged chunk before noticing loses
        // nothing.) Only on a mismatch is the host copy hashed as well, to say
        // which of the two was damaged.
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
  LOG(INFO) << "snapshot restore: device " << device_id << ": "
            << image.allocations.size() << " allocation(s), "
            << Throughput(bytes, absl::Now() - start);
  return absl::OkStatus();
}

absl::Status Coordinator::ParallelFor(
    size_t n, const std::function<absl::Status(size_t)>& fn) {
  if (n == 0) return absl::OkStatus();
  size_t workers = options_.workers > 0
                       ? static_cast<size_t>(options_.workers)
                       : std::max(1u, std::thread::hardware_concurrency());
  workers = std::min(workers, n);
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
  threads.reserve(workers - 1);
  for (size_t t = 1; t < workers; ++t) threads.emplace_back(work);
  work();
  for (std::thread& t : threads) t.join();
  return first;
}

}  // namespace ascend::snapshot
