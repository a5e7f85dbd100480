// The runtime: devices, contexts, streams, events, notifies, device memory,
// host functions and report callbacks, over one device backend.
//
// Handles given to the application are the addresses of runtime objects;
// every call validates a handle against the live tables before use, so a
// stale or foreign handle returns ACL_ERROR_RT_PARAM_INVALID instead of
// crashing. Methods return absl::Status carrying the exact ACL/RT code
// (runtime/base/error.h); argument checks the ACL layer does (NULL outputs)
// are not repeated here.
//
// Locking: one mutex guards the tables and is never held while waiting on a
// stream or copying memory. Device objects are shared_ptrs so a copy in
// progress keeps its device alive across a concurrent reset.
//
// The process instance is Runtime::Get(); tests may build their own with a
// backend of their choice.
#ifndef ASCENDCL_RUNTIME_RUNTIME_H_
#define ASCENDCL_RUNTIME_RUNTIME_H_

#include <atomic>
#include <cstdint>
#include <deque>
#include <memory>
#include <optional>
#include <utility>
#include <vector>

#include "absl/base/thread_annotations.h"
#include "absl/container/flat_hash_map.h"
#include "absl/container/flat_hash_set.h"
#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "absl/synchronization/mutex.h"
#include "absl/time/time.h"
#include "acl/acl_rt.h"
#include "device/base/mutex.h"
#include "device/device.h"
#include "runtime/event.h"
#include "runtime/report.h"
#include "runtime/stream.h"

namespace ascend::rt {

class HealthMonitor;

class Context {
 public:
  Context(int32_t device_id, bool primary)
      : device_id_(device_id), primary_(primary) {}
  int32_t device_id() const { return device_id_; }
  bool primary() const { return primary_; }
  bool alive() const { return alive_.load(std::memory_order_acquire); }
  void* handle() const { return handle_.value(); }  // the aclrtContext

 private:
  friend class Runtime;
  const int32_t device_id_;
  const bool primary_;
  const ObjectHandle handle_;
  std::atomic<bool> alive_{true};
  std::shared_ptr<Stream> default_stream_;  // set once at creation
};

struct StreamInfo {
  int32_t device_id = 0;
  uint32_t id = 0;
  uint32_t flags = 0;
  uint32_t priority = 0;
};

// The ids a device handed out to this process's streams, events and
// notifies, plus the host-side state of events and notifies: what a snapshot
// saves and re-claims.
struct ResourceTables {
  std::vector<uint32_t> stream_ids;
  std::vector<std::pair<uint32_t, Event::State>> events;
  std::vector<std::pair<uint32_t, bool>> notifies;
};

class Runtime {
 public:
  explicit Runtime(std::unique_ptr<device::Backend> backend);
  Runtime(const Runtime&) = delete;
  Runtime& operator=(const Runtime&) = delete;
  ~Runtime();

  // The process runtime (never destroyed), over the backend named by
  // ACL_DEVICE_BACKEND (default "sim"). If that backend cannot be created the
  // runtime reports zero devices and logs why.
  static Runtime& Get();

  device::Backend* backend() { return backend_.get(); }

  // --- Devices --------------------------------------------------------------
  int32_t DeviceCount() const;
  absl::Status SetDevice(int32_t device_id);
  absl::Status ResetDevice(int32_t device_id, bool force);
  // Device of the current context (or the default device).
  absl::StatusOr<int32_t> GetDevice();
  absl::Status SynchronizeDevice(absl::Time deadline);
  absl::StatusOr<bool> DeviceAbnormal(int32_t device_id) const;
  absl::StatusOr<bool> CanAccessPeer(int32_t device_id, int32_t peer) const;
  absl::Status EnablePeerAccess(int32_t peer, uint32_t flags);
  absl::Status DisablePeerAccess(int32_t peer);

  // --- Contexts -------------------------------------------------------------
  absl::StatusOr<void*> CreateContext(int32_t device_id);
  absl::Status DestroyContext(void* context);
  absl::Status SetCurrentContext(void* context);
  absl::StatusOr<void*> GetCurrentContext();
  absl::StatusOr<void*> CurrentDefaultStream();

  // --- Streams (a null stream means the current default stream) -------------
  absl::StatusOr<void*> CreateStream(uint32_t priority, uint32_t flags);
  absl::Status DestroyStream(void* stream, bool force);
  absl::Status SynchronizeStream(void* stream, absl::Time deadline);
  absl::StatusOr<bool> StreamIdle(void* stream);
  absl::StatusOr<StreamInfo> GetStreamInfo(void* stream);
  absl::Status SetStreamFailureMode(void* stream, uint64_t mode);
  absl::Status StreamWaitEvent(void* stream, void* event);

  // --- Events and notifies --------------------------------------------------
  absl::StatusOr<void*> CreateEvent(uint32_t flags);
  absl::Status DestroyEvent(void* event);
  absl::Status RecordEvent(void* event, void* stream);
  absl::Status ResetEvent(void* event, void* stream);
  absl::StatusOr<bool> EventComplete(void* event);
  absl::Status SynchronizeEvent(void* event, absl::Time deadline);
  // Microseconds since the Unix epoch.
  absl::StatusOr<uint64_t> EventTimestamp(void* event);
  absl::StatusOr<float> EventElapsedMs(void* start, void* end);
  absl::StatusOr<void*> CreateNotify(uint64_t flags);
  absl::Status DestroyNotify(void* notify);
  absl::Status RecordNotify(void* notify, void* stream);
  absl::Status WaitAndResetNotify(void* notify, void* stream,
                                  uint32_t timeout_ms);
  absl::StatusOr<uint32_t> NotifyId(void* notify);

  // --- Memory ----------------------------------------------------------------
  // Enum arguments here and in LaunchCallback must hold values of their enum
  // (the ACL entry points validate the caller's raw integers first).
  absl::StatusOr<void*> Malloc(size_t size, aclrtMemMallocPolicy policy);
  absl::Status Free(void* dev_ptr);
  absl::StatusOr<void*> MallocHost(size_t size);
  absl::Status FreeHost(void* host_ptr);
  absl::StatusOr<device::MemoryInfo> GetMemInfo(aclrtMemAttr attr);
  absl::Status Memcpy(void* dst, size_t dest_max, const void* src, size_t count,
                      aclrtMemcpyKind kind);
  absl::Status MemcpyAsync(void* dst, size_t dest_max, const void* src,
                           size_t count, aclrtMemcpyKind kind, void* stream);
  absl::Status Memset(void* ptr, size_t max_count, int32_t value, size_t count);
  absl::Status MemsetAsync(void* ptr, size_t max_count, int32_t value,
                           size_t count, void* stream);
  absl::Status ValueWait(void* dev_addr, uint64_t value, uint32_t flag,
                         void* stream);
  absl::Status ValueWrite(void* dev_addr, uint64_t value, uint32_t flag,
                          void* stream);

  // --- Host functions and report callbacks
  // ------------------------------------
  absl::Status LaunchHostFunc(void* stream, aclrtHostFunc fn, void* args);
  absl::Status LaunchCallback(aclrtCallback fn, void* user_data,
                              aclrtCallbackBlockType block, void* stream);
  absl::Status SubscribeReport(uint64_t thread_id, void* stream);
  absl::Status UnsubscribeReport(uint64_t thread_id, void* stream);
  absl::Status ProcessReport(int32_t timeout_ms);

  // --- Faults (simulator)
  // -----------------------------------------------------
  absl::Status InjectFault(int32_t device_id, device::Fault fault);

  // --- Snapshot support (used by //snapshot; not gated)
  // ------------------------ Open devices in ascending id.
  std::vector<int32_t> OpenDevices() const;
  // Synchronises every stream of every context.
  absl::Status DrainAllStreams(absl::Time deadline);
  std::shared_ptr<device::Device> DeviceObject(int32_t device_id) const;
  absl::StatusOr<ResourceTables> SaveTables(int32_t device_id) const;
  // After Device::Reopen: claims the saved ids again and restores event and
  // notify state. Fails (kAlreadyExists) if an id cannot be re-claimed.
  absl::Status RestoreTables(int32_t device_id, const ResourceTables& tables);
  // Clears the abnormal mark a health event set (after a restore).
  void MarkDeviceHealthy(int32_t device_id);
  // Records a device health event (called by the health monitor).
  void OnHealthEvent(const device::HealthEvent& event);

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
    // Closes of this device still tearing down outside the lock (Teardown
    // objects alive); an open waits for them (OpenDeviceLocked).
    int closing = 0;
  };
  struct StreamEntry {
    std::shared_ptr<Stream> stream;
    Context* context = nullptr;
  };
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

  absl::Status ValidDeviceId(int32_t device_id) const;
  absl::Status OpenDeviceLocked(int32_t device_id)
      ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_);
  // Removes every object of a device from the tables; returns what must be
  // torn down outside the lock.
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
  Teardown CloseDeviceLocked(int32_t device_id)
      ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_);
  // After a stream left the tables (aclrtDestroyStream, aclrtDestroyContext):
  // waits for its pending work and leaves a failure no device synchronize
  // has reported to the next one on `owner`, if that instance is still open.
  void RetireStream(const std::shared_ptr<Stream>& stream,
                    const std::weak_ptr<device::Device>& owner);
  absl::StatusOr<std::shared_ptr<Context>> CurrentContext();
  absl::StatusOr<std::shared_ptr<Stream>> ResolveStream(void* stream);
  absl::StatusOr<std::shared_ptr<Event>> ResolveEvent(void* event) const;
  absl::StatusOr<std::shared_ptr<Notify>> ResolveNotify(void* notify) const;
  absl::StatusOr<std::shared_ptr<device::Device>> CurrentDevice();
  // An id from the device object open now. Callers register the object the
  // id is for before releasing mu_, so a concurrent reset closes the device
  // either before the allocation or after the registration, never between.
  absl::StatusOr<uint32_t> AllocateIdLocked(int32_t device_id,
                                            device::ResourceKind kind)
      ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_);
  void ReleaseId(int32_t device_id, device::ResourceKind kind, uint32_t id)
      ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_);
  Location Locate(const void* ptr) const;
  // ACL_ERROR_RT_PARAM_INVALID naming `what` when `where` is a stale device
  // pointer (see Location), else OK.
  static absl::Status RejectStale(const Location& where, const void* ptr,
                                  absl::string_view what);
  // Whether peer access is enabled between two distinct devices, in either
  // direction.
  bool PeerAccessEnabled(int32_t a, int32_t b) const;
  // Validates a copy and returns a function performing it.
  absl::StatusOr<std::function<absl::Status()>> PrepareCopy(
      void* dst, size_t dest_max, const void* src, size_t count,
      aclrtMemcpyKind kind);
  absl::StatusOr<std::function<absl::Status()>> PrepareMemset(void* ptr,
                                                              size_t max_count,
                                                              int32_t value,
                                                              size_t count);
  // Bumps the memory epoch so value waits re-check.
  void MemoryWritten();
  absl::Status WaitForValue(const Location& where, uint64_t addr,
                            uint64_t value, uint32_t flag,
                            const Stream& stream);

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
  const int32_t device_count_;
  const std::shared_ptr<LiveInstances> live_instances_;

  mutable ascend::Mutex mu_;
  std::vector<DeviceEntry> devices_ ABSL_GUARDED_BY(mu_);
  absl::flat_hash_map<const void*, std::shared_ptr<Context>> contexts_
      ABSL_GUARDED_BY(mu_);
  absl::flat_hash_map<const void*, StreamEntry> streams_ ABSL_GUARDED_BY(mu_);
  absl::flat_hash_map<const void*, std::shared_ptr<Event>> events_
      ABSL_GUARDED_BY(mu_);
  absl::flat_hash_map<const void*, std::shared_ptr<Notify>> notifies_
      ABSL_GUARDED_BY(mu_);
  absl::flat_hash_map<const void*, size_t> host_allocations_
      ABSL_GUARDED_BY(mu_);

  ascend::Mutex epoch_mu_;
  uint64_t memory_epoch_ ABSL_GUARDED_BY(epoch_mu_) = 0;

  ReportHub reports_;
  std::unique_ptr<HealthMonitor> health_monitor_;
};

}  // namespace ascend::rt

#endif  // ASCENDCL_RUNTIME_RUNTIME_H_
