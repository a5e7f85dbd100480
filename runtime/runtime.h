// The runtime's core: the handle table, devices and their opening and
// closing, the task path, where a pointer lives and the family registry,
// over one device backend, and the interface the resource families in
// packages of their own (runtime/streams, runtime/memory, runtime/sync,
// runtime/kernel, runtime/model, runtime/dump, runtime/timeline,
// runtime/device_info, runtime/host_func, runtime/builtin_task,
// runtime/mbuf, runtime/snapshot_support; DESIGN.md §1.7) reach it through.
//
// The core's methods are defined in runtime.cc (devices, stream resolution
// and retirement, observers), locate.cc (where a pointer lives, records made
// while a device is open) and runtime/process/process.cc (Get); creating and
// destroying contexts and streams is the streams family's.
// Every object an application holds a handle to lives in one HandleTable
// (runtime/handle_table.h), the families' objects too (AddObject); each
// kind has a descriptor (runtime/resource_kinds.h) with its id space and
// its "out of ids" code, and a close hook, so closing a device is one loop.
//
// Handles are opaque values that never repeat; every call validates a handle
// against the table before use, so a stale or foreign handle returns
// ACL_ERROR_RT_PARAM_INVALID instead of crashing. Methods return
// absl::Status carrying the exact ACL/RT code (runtime/base/error.h);
// argument checks the ACL layer does (NULL outputs) are not repeated here.
//
// Locking: one mutex guards the tables and is never held while waiting on a
// stream or copying memory. Device objects are shared_ptrs so a copy in
// progress keeps its device alive across a concurrent reset.
//
// The process instance is Runtime::Get(), over GlobalState::Get(). Tests
// build private instances with a backend and a GlobalState of their own:
// nothing inside reaches for a process singleton, and each instance keeps
// its own current context per thread.
#ifndef ASCENDCL_RUNTIME_RUNTIME_H_
#define ASCENDCL_RUNTIME_RUNTIME_H_

#include <atomic>
#include <cstdint>
#include <deque>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "absl/base/thread_annotations.h"
#include "absl/container/flat_hash_map.h"
#include "absl/container/flat_hash_set.h"
#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/string_view.h"
#include "absl/synchronization/mutex.h"
#include "absl/time/time.h"
#include "acl/acl_rt.h"
#include "device/base/mutex.h"
#include "device/device.h"
#include "runtime/context.h"
#include "runtime/device_callbacks.h"
#include "runtime/exception_info.h"
#include "runtime/executor_pool.h"
#include "runtime/family.h"
#include "runtime/global_state.h"
#include "runtime/handle_table.h"
#include "runtime/object_kind.h"
#include "runtime/resource_kinds.h"
#include "runtime/snapshot_participant.h"
#include "runtime/stream.h"
#include "runtime/task_path.h"

namespace ascend::rt {

class HealthMonitor;

class Runtime {
 public:
  struct Options {
    // The process state whose gate this runtime's blocking paths pass (the
    // default-device open, report callbacks) and with which its background
    // thread registers. Null: GlobalState::Get().
    GlobalState* state = nullptr;
    // The device a thread without a current context uses (aclInit's
    // defaultDevice). Null: rt::DefaultDevice().
    std::function<std::optional<int32_t>()> default_device;
    // The families built with the runtime, in this order (see
    // runtime/family.h; the process runtime has every family of
    // runtime/process/families.cc).
    std::vector<FamilyRegistration> families;
  };

  Runtime(std::unique_ptr<device::Backend> backend, Options options);
  explicit Runtime(std::unique_ptr<device::Backend> backend)
      : Runtime(std::move(backend), Options{}) {}
  Runtime(const Runtime&) = delete;
  Runtime& operator=(const Runtime&) = delete;
  ~Runtime();

  // The process runtime (never destroyed), over the backend named by
  // ACL_DEVICE_BACKEND (default "sim"), with every family installed. If that
  // backend cannot be created the runtime reports zero devices and logs why.
  // Defined by //runtime/process (runtime/process/process.cc), which knows
  // the families; the core does not.
  static Runtime& Get();
  // The process runtime if Get() created it already, else null (creates
  // nothing: for calls that have nothing to do without one). Defined by the
  // core, set by Get().
  static Runtime* GetIfCreated() {
    return created_.load(std::memory_order_acquire);
  }

  // Lets work already handed to the devices finish (the kernel launches
  // queued or running; at most the teardown grace), as a device does when
  // the host lets go of it (DESIGN.md §5.20): aclFinalize. Not from a task.
  void LetHandedWorkFinish(const char* api);

  device::Backend* backend() { return backend_.get(); }
  GlobalState& state() { return state_; }
  // The one way tasks reach streams, and the access point of synchronous
  // calls (runtime/task_path.h, DESIGN.md §1.6).
  TaskPath& tasks() { return tasks_; }

  // --- Devices --------------------------------------------------------------
  int32_t DeviceCount() const;
  absl::Status SetDevice(int32_t device_id);
  absl::Status ResetDevice(int32_t device_id, bool force);
  // Device of the current context (or the default device).
  absl::StatusOr<int32_t> GetDevice();

  // --- Snapshot support (used by the snapshot participants; not gated) ----
  // The rest of what the snapshot asks of the runtime is the snapshot
  // support family's (runtime/snapshot_support).
  std::shared_ptr<device::Device> DeviceObject(int32_t device_id) const;
  // Which opening of the device is current: a number that changes with
  // every open (0 while closed), so a snapshot can tell the device it saved
  // from a reset-and-reopened one.
  uint64_t DeviceGeneration(int32_t device_id) const;
  // The live objects of kind T (Stream, Event, Notify, ...) on a device, in
  // ascending id.
  template <typename T>
  std::vector<std::shared_ptr<T>> Objects(int32_t device_id) const {
    ascend::MutexLock lock(&mu_);
    return table_.Objects<T>(device_id);
  }
  // After the device was re-opened: claims again the id of every live
  // object of kind T on the device, and hands each saved state (by handle)
  // back to its object (see id_participant.h). Objects created since the
  // states were saved keep their ids; states of objects destroyed since are
  // dropped.
  template <typename T>
  absl::Status RestoreIds(
      int32_t device_id,
      const absl::flat_hash_map<const void*, typename T::State>& saved);
  // Calls `observer(device_id)` after each close of a device (a reset, the
  // last context of a device destroyed), outside the runtime's locks, on
  // the closing thread; the snapshot drops a backup that can no longer be
  // restored. Returns a key for RemoveDeviceCloseObserver.
  uint64_t AddDeviceCloseObserver(std::function<void(int32_t)> observer);
  void RemoveDeviceCloseObserver(uint64_t key);

  // --- The core's interface to the families (DESIGN.md §1.7) --------------
  // The one way into the private state below, for the families under
  // //runtime/... that work on the core's own tables (streams, device
  // information, host functions, snapshot support):
  // defined in runtime/internal/core_access.h, whose Bazel target only
  // //runtime/... may use.
  class CoreAccess;
  // Families in packages of their own (runtime/model, ...) reach the core
  // through these, the task path (tasks()) and the device observers above.
  // The registrations the runtime was built with, in construction order.
  const std::vector<FamilyRegistration>& family_registrations() const {
    return family_registrations_;
  }
  // The family of type T installed in this runtime (Options::families), or
  // null.
  template <typename T>
  T* family() const {
    const size_t index = static_cast<size_t>(FamilyIndex<T>());
    return index < families_.size() ? static_cast<T*>(families_[index].get())
                                    : nullptr;
  }
  // Resolves a handle of kind T against the table: 107000 ("not a live
  // <kind>") when it names no live object of that kind.
  template <typename T>
  absl::StatusOr<std::shared_ptr<T>> Resolve(const void* handle) const {
    ascend::MutexLock lock(&mu_);
    return ResolveLocked<T>(handle);
  }
  // A null stream is the current context's default stream.
  absl::StatusOr<std::shared_ptr<Stream>> ResolveStream(void* stream);
  // A family's handle-bearing object (DESIGN.md §1.7): `make(id)` builds it
  // with a fresh id of its kind's space on `device_id`'s open instance, and
  // it goes into the handle table, under the core's lock, so a concurrent
  // close of the device comes either before (the id allocation fails) or
  // after (the close removes the object and runs its OnDeviceClose, if T
  // has one). The kind's "out of ids" code when the space is exhausted.
  template <typename T, typename Make>
  absl::StatusOr<std::shared_ptr<T>> AddObject(int32_t device_id, Make&& make) {
    ascend::MutexLock lock(&mu_);
    absl::StatusOr<uint32_t> id = AllocateIdLocked(device_id, T::kKind);
    if (!id.ok()) return id.status();
    std::shared_ptr<T> object = make(*id);
    RegisterLocked(object, device_id, *id);
    return object;
  }
  // Takes the object of kind T behind `handle` out of the table and returns
  // its id to its device: 107000 when it names no live object of kind T.
  // The object itself lives on while the caller (or a queued task) holds it.
  template <typename T>
  absl::StatusOr<std::shared_ptr<T>> RemoveObject(const void* handle) {
    ascend::MutexLock lock(&mu_);
    std::shared_ptr<T> object = table_.Find<T>(handle);
    if (object == nullptr) return NotLive(T::kKind);
    ReleaseIdLocked(*table_.Erase(handle));
    return object;
  }

  // Where a pointer lives.
  struct Location {
    // The open device whose live allocation holds the pointer; null when
    // none does.
    std::shared_ptr<device::Device> device;
    device::Allocation allocation;
    // With `device` null: the device whose address space holds the pointer
    // though no live allocation does (freed, or its device was reset), per
    // the backend. Such a pointer is neither device nor host memory. Null
    // too: host memory.
    std::optional<int32_t> stale_device;
  };
  Location Locate(const void* ptr) const;
  // The device objects open now, and Locate among them (a batch of copies
  // collects them once).
  std::vector<std::shared_ptr<device::Device>> OpenDeviceObjects() const;
  Location LocateIn(const std::vector<std::shared_ptr<device::Device>>& open,
                    const void* ptr) const;
  // (The memory family's RangeInAllocation and RejectStale read a
  // Location: runtime/memory/memory.h.)
  // Whether peer access is enabled between two distinct devices, in either
  // direction.
  bool PeerAccessEnabled(int32_t a, int32_t b) const;
  // 107001 (invalid device id) unless 0 <= device_id < DeviceCount().
  absl::Status ValidDeviceId(int32_t device_id) const;
  // The current context (or the default device's primary one) and its
  // device.
  absl::StatusOr<std::shared_ptr<Context>> CurrentContext();
  absl::StatusOr<std::shared_ptr<device::Device>> CurrentDevice();
  // Runs `fn` with the core's lock held when `device` is still the open
  // instance of its id, and says whether it ran: a family records state of
  // a device opening so that a concurrent close either precedes the record
  // (and the record is not made) or follows it (and Family::OnDeviceClose
  // drops it). `fn` must not call into the runtime.
  bool WhileOpen(const std::shared_ptr<device::Device>& device,
                 const std::function<void()>& fn) const;

 private:
  struct DeviceEntry {
    std::shared_ptr<device::Device> device;  // null while closed
    int64_t refcount = 0;
    std::shared_ptr<Context> primary;
    absl::flat_hash_set<int32_t> peers;
    bool abnormal = false;
    // Task failures of streams destroyed before an aclrtSynchronizeDevice
    // reported them, oldest first; the next device synchronizes report them
    // (one per call). They go with the device on reset.
    std::deque<absl::Status> destroyed_stream_failures;
    // Streams destroyed with aclrtDestroyStreamForce whose queued work still
    // runs (DESIGN.md §5.20): device synchronizes and Backup's drain wait
    // for them, the device's close shuts them down, and each gives its id
    // back once idle (SweepRetiring).
    std::vector<std::shared_ptr<Stream>> retiring;
    // Closes of this device still tearing down outside the lock (Teardown
    // objects alive); an open waits for them (OpenDeviceLocked).
    int closing = 0;
    // See DeviceGeneration.
    uint64_t generation = 0;
    // When this opening began: health events raised before it are about an
    // earlier opening and are ignored.
    absl::Time opened_at = absl::InfinitePast();
  };
  absl::Status OpenDeviceLocked(int32_t device_id)
      ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_);
  // Counts one close of a device in DeviceEntry::closing until destroyed.
  // Must not be destroyed with mu_ held.
  class CloseTicket {
   public:
    CloseTicket() = default;
    CloseTicket(Runtime* runtime, int32_t device_id)
        : runtime_(runtime), device_id_(device_id) {}
    CloseTicket(CloseTicket&& other) noexcept
        : runtime_(std::exchange(other.runtime_, nullptr)),
          device_id_(other.device_id_) {}
    CloseTicket& operator=(CloseTicket&& other) noexcept {
      if (this != &other) {
        Release();
        runtime_ = std::exchange(other.runtime_, nullptr);
        device_id_ = other.device_id_;
      }
      return *this;
    }
    ~CloseTicket() { Release(); }

   private:
    void Release();
    Runtime* runtime_ = nullptr;
    int32_t device_id_ = 0;
  };
  // What a device close tears down outside the lock, in this order: the
  // streams (shut down and joined even if a context elsewhere still refers
  // to one: a task still running may use device memory), then the device
  // object, then the close ticket.
  struct Teardown {
    Teardown() = default;
    Teardown(Teardown&&) = default;
    Teardown& operator=(Teardown&& other) noexcept {
      ShutdownStreams();
      ticket = std::move(other.ticket);
      device = std::move(other.device);
      streams = std::move(other.streams);
      return *this;
    }
    ~Teardown() { ShutdownStreams(); }
    void ShutdownStreams() {
      for (const std::shared_ptr<Stream>& stream : streams) stream->Shutdown();
    }

    CloseTicket ticket;
    std::shared_ptr<device::Device> device;
    std::vector<std::shared_ptr<Stream>> streams;
  };
  // Removes every object of a device from the table, running each kind's
  // close hook; returns what must be torn down outside the lock.
  Teardown CloseDeviceLocked(int32_t device_id)
      ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_);
  // The calling thread's current context slot of this instance.
  std::shared_ptr<Context>& ThreadContext();
  template <typename T>
  absl::StatusOr<std::shared_ptr<T>> ResolveLocked(const void* handle) const
      ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_) {
    std::shared_ptr<T> object = table_.Find<T>(handle);
    if (object == nullptr) return NotLive(T::kKind);
    return object;
  }
  static absl::Status NotLive(ObjectKind kind);
  // Tells every family that `stream` left the table (Family::OnStreamGone).
  void StreamGoneLocked(const void* stream) ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_);
  // Registers a new object of kind T holding id `id` of its kind's space.
  template <typename T>
  void RegisterLocked(const std::shared_ptr<T>& object, int32_t device_id,
                      std::optional<uint32_t> id, const void* parent = nullptr)
      ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_) {
    table_.Insert(object->handle(),
                  HandleTable::Key{T::kKind, device_id, id, parent}, object);
  }
  // Returns an erased entry's id to the device instance open now (its kind's
  // id space). Ids of a device closed since went with it.
  void ReleaseIdLocked(const HandleTable::Entry& entry)
      ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_);
  // After a stream left the tables (aclrtDestroyStream, aclrtDestroyContext):
  // waits for its pending work and leaves a failure no device synchronize
  // has reported to the next one on `owner`, if that instance is still open.
  void RetireStream(const std::shared_ptr<Stream>& stream,
                    const std::weak_ptr<device::Device>& owner);
  // Forgets the force-destroyed streams of `device_id` (all devices: -1)
  // that went idle, giving their ids back. One atomic load when none.
  void SweepRetiring(int32_t device_id);
  // The force-destroyed streams still retiring on `device_id` (-1: all).
  std::vector<std::shared_ptr<Stream>> RetiringStreams(int32_t device_id) const;
  std::atomic<size_t> retiring_count_{0};
  // The process runtime, once Get() made it (GetIfCreated).
  static std::atomic<Runtime*> created_;
  // An id from the device object open now. Callers register the object the
  // id is for before releasing mu_, so a concurrent reset closes the device
  // either before the allocation or after the registration, never between.
  // Exhaustion of the id space is the kind's out-of-ids code.
  absl::StatusOr<uint32_t> AllocateIdLocked(int32_t device_id, ObjectKind kind)
      ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_);

  // How many device objects of each device exist. A reset drops the
  // runtime's reference, but an API call in flight on another thread may
  // still hold one (a copy, say), and the backend refuses a second instance
  // of a device while the first exists: an open waits for it to go. Shared
  // with the objects' deleters, which may run after the runtime is gone.
  class LiveInstances {
   public:
    explicit LiveInstances(int32_t devices) : count_(devices, 0) {}
    int Count(int32_t device_id);
    void Add(int32_t device_id, int delta);
    // Returns when no object of the device exists or `deadline` passes.
    void AwaitNone(int32_t device_id, absl::Time deadline);

   private:
    ascend::Mutex mu_;
    std::vector<int> count_ ABSL_GUARDED_BY(mu_);
  };

  std::unique_ptr<device::Backend> backend_;
  GlobalState& state_;
  const std::function<std::optional<int32_t>()> default_device_;
  // Tells this instance's thread-current contexts from other instances'.
  const uint64_t serial_;
  const int32_t device_count_;
  const std::shared_ptr<LiveInstances> live_instances_;
  // Before the families: they add their hooks while constructed.
  TaskPath tasks_;

  mutable ascend::Mutex mu_;
  std::vector<DeviceEntry> devices_ ABSL_GUARDED_BY(mu_);
  uint64_t opens_ ABSL_GUARDED_BY(mu_) = 0;
  HandleTable table_ ABSL_GUARDED_BY(mu_);

  void NotifyDeviceClosed(int32_t device_id);
  // Records a device health event (the health monitor's sink; the snapshot
  // support family's OnHealthEvent).
  void OnHealthEvent(const device::HealthEvent& event);

  ascend::Mutex observers_mu_;
  uint64_t next_observer_ ABSL_GUARDED_BY(observers_mu_) = 0;
  std::vector<
      std::pair<uint64_t, std::shared_ptr<std::function<void(int32_t)>>>>
      close_observers_ ABSL_GUARDED_BY(observers_mu_);

  DeviceCallbacks device_callbacks_;
  // Outlive every stream (each refers to them): destroyed after ~Runtime has
  // shut down the streams of every open device and after the families.
  // exception_callbacks_ goes after executors_, whose workers it serves.
  ExceptionCallbacks exception_callbacks_;
  ExecutorPool executors_;
  std::unique_ptr<HealthMonitor> health_monitor_;
  // Last: the families go before the members they use (by FamilyIndex).
  std::vector<std::unique_ptr<Family>> families_;
  // Indexes into families_ in construction (registration) order.
  std::vector<size_t> family_order_;
  std::vector<FamilyRegistration> family_registrations_;
};

// The snapshot participant of streams: the ids they hold and their
// host-side state (registered by snapshot/builtin_participants.cc).
std::unique_ptr<SnapshotParticipant> MakeStreamParticipant(Runtime& runtime);

template <typename T>
absl::Status Runtime::RestoreIds(
    int32_t device_id,
    const absl::flat_hash_map<const void*, typename T::State>& saved) {
  const KindDescriptor& kind = Descriptor(T::kKind);
  ascend::MutexLock lock(&mu_);
  const std::shared_ptr<device::Device>& device = devices_[device_id].device;
  if (!device || !kind.id_space.has_value()) {
    return absl::FailedPreconditionError(
        absl::StrCat("cannot restore ", kind.name, " ids: device ", device_id,
                     " is not open"));
  }
  absl::Status status;
  table_.ForEach<T>(device_id,
                    [&](const void* handle, const std::shared_ptr<T>& object,
                        const HandleTable::Key& key) {
                      if (!status.ok() || !key.id.has_value()) return;
                      status = device->ClaimId(*kind.id_space, *key.id);
                      auto it = saved.find(handle);
                      if (status.ok() && it != saved.end())
                        object->RestoreState(it->second);
                    });
  return status;
}

}  // namespace ascend::rt

#endif  // ASCENDCL_RUNTIME_RUNTIME_H_
