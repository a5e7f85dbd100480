// Devices: construction, open and close, device-wide synchronisation, peer
// access, health, stream resolution and retirement, and the runtime's side
// of the snapshot. Contexts and streams are the streams family's
// (runtime/streams); where a pointer lives is in locate.cc (see runtime.h).
#include "runtime/runtime.h"

#include <algorithm>
#include <utility>

#include "absl/strings/str_cat.h"
#include "absl/time/clock.h"
#include "acl/error_codes/rt_error_codes.h"
#include "device/base/status_macros.h"
#include "device/builtin_backends.h"
#include "glog/logging.h"
#include "runtime/base/error.h"
#include "runtime/base/logging.h"
#include "runtime/default_device.h"
#include "runtime/device_callbacks.h"
#include "runtime/global_state.h"
#include "runtime/health_monitor.h"

namespace ascend::rt {
namespace {

// The calling thread's current context, per runtime instance (validated
// against the live table on use, so a context destroyed by another thread is
// never used). Almost always one instance: a linear search.
struct ThreadContexts {
  std::vector<std::pair<uint64_t, std::shared_ptr<Context>>> slots;
};
thread_local ThreadContexts tls_contexts;

uint64_t NextSerial() {
  static std::atomic<uint64_t> next{1};
  return next.fetch_add(1, std::memory_order_relaxed);
}

}  // namespace

Runtime::Runtime(std::unique_ptr<device::Backend> backend, Options options)
    : backend_(std::move(backend)),
      state_(options.state != nullptr ? *options.state : GlobalState::Get()),
      default_device_(options.default_device ? std::move(options.default_device)
                                             : &DefaultDevice),
      serial_(NextSerial()),
      device_count_(backend_ ? backend_->DeviceCount() : 0),
      live_instances_(std::make_shared<LiveInstances>(device_count_)) {
  devices_.resize(device_count_);
  if (backend_) {
    health_monitor_ = std::make_unique<HealthMonitor>(
        state_, *backend_,
        [this](const device::HealthEvent& e) { OnHealthEvent(e); });
  }
  for (const FamilyRegistration& registration : options.families) {
    const size_t index = static_cast<size_t>(registration.index());
    if (families_.size() <= index) families_.resize(index + 1);
    families_[index] = registration.make(*this);
    family_order_.push_back(index);
    family_registrations_.push_back(registration);
  }
}

std::shared_ptr<Context>& Runtime::ThreadContext() {
  for (auto& [serial, context] : tls_contexts.slots) {
    if (serial == serial_) return context;
  }
  return tls_contexts.slots.emplace_back(serial_, nullptr).second;
}

absl::Status Runtime::NotLive(ObjectKind kind) {
  return Error(ACL_ERROR_RT_PARAM_INVALID,
               absl::StrCat("not a live ", Descriptor(kind).name));
}

absl::StatusOr<uint32_t> Runtime::AllocateIdLocked(int32_t device_id,
                                                   ObjectKind kind) {
  const KindDescriptor& descriptor = Descriptor(kind);
  const std::shared_ptr<device::Device>& device = devices_[device_id].device;
  if (!device) return Error(ACL_ERROR_RT_CONTEXT_NULL, "device is closed");
  absl::StatusOr<uint32_t> id = device->AllocateId(*descriptor.id_space);
  if (!id.ok() && id.status().code() == absl::StatusCode::kResourceExhausted) {
    return Error(descriptor.out_of_ids_code, id.status().message());
  }
  return id;
}

void Runtime::ReleaseIdLocked(const HandleTable::Entry& entry) {
  const std::optional<device::ResourceKind> space =
      Descriptor(entry.key.kind).id_space;
  if (!space.has_value() || !entry.key.id.has_value()) return;
  if (auto device = devices_[entry.key.device_id].device) {
    device->ReleaseId(*space, *entry.key.id);
  }
}

Runtime::~Runtime() {
  health_monitor_.reset();
  std::vector<Teardown> teardowns;
  {
    ascend::MutexLock lock(&mu_);
    for (int32_t id = 0; id < device_count_; ++id) {
      if (devices_[id].device) teardowns.push_back(CloseDeviceLocked(id));
    }
  }
  teardowns.clear();
  // Every stream of this runtime is shut down now. The families go in the
  // reverse of their construction order (a later one may use an earlier
  // one: kernels and models keep device memory of the memory family);
  // executors_ (a member) then stops and waits for its workers.
  for (auto it = family_order_.rbegin(); it != family_order_.rend(); ++it) {
    families_[*it].reset();
  }
}

int32_t Runtime::DeviceCount() const { return device_count_; }

absl::Status Runtime::ValidDeviceId(int32_t device_id) const {
  if (device_id < 0 || device_id >= device_count_) {
    return Error(ACL_ERROR_RT_INVALID_DEVICEID,
                 absl::StrCat("device id ", device_id, " is out of range [0, ",
                              device_count_, ")"));
  }
  return absl::OkStatus();
}

int Runtime::LiveInstances::Count(int32_t device_id) {
  ascend::MutexLock lock(&mu_);
  return count_[device_id];
}

void Runtime::LiveInstances::Add(int32_t device_id, int delta) {
  ascend::MutexLock lock(&mu_);
  count_[device_id] += delta;
}

void Runtime::LiveInstances::AwaitNone(int32_t device_id, absl::Time deadline) {
  ascend::MutexLock lock(&mu_);
  auto none = [this, device_id]() ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_) {
    return count_[device_id] == 0;
  };
  mu_.AwaitWithDeadline(absl::Condition(&none), deadline);
}

absl::Status Runtime::OpenDeviceLocked(int32_t device_id) {
  DeviceEntry& entry = devices_[device_id];
  if (entry.device) return absl::OkStatus();
  // The previous instance may not be gone yet: another thread's reset may
  // still be tearing it down outside the lock (joining its streams, closing
  // the device), or an API call in flight on another thread may still hold
  // it. The backend would refuse a second instance, and a new one would hand
  // out addresses that old tasks may still write to, so wait. Both are
  // bounded by work already running; after kCloseWait the open is tried
  // anyway and reports the backend's answer.
  constexpr absl::Duration kCloseWait = absl::Seconds(30);
  const absl::Time deadline = absl::Now() + kCloseWait;
  for (;;) {
    if (entry.closing > 0) {
      auto closed = [this, device_id]() ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_) {
        return devices_[device_id].closing == 0 ||
               devices_[device_id].device != nullptr;
      };
      mu_.AwaitWithDeadline(absl::Condition(&closed), deadline);
      if (entry.device) return absl::OkStatus();  // opened meanwhile
    }
    if (live_instances_->Count(device_id) == 0 || absl::Now() >= deadline) {
      break;
    }
    // Wait without mu_: the holder may need it to finish its call.
    mu_.Unlock();
    live_instances_->AwaitNone(device_id, deadline);
    mu_.Lock();
    if (entry.device) return absl::OkStatus();  // opened meanwhile
  }
  ASCEND_ASSIGN_OR_RETURN(std::unique_ptr<device::Device> opened,
                          backend_->Open(device_id));
  live_instances_->Add(device_id, +1);
  std::shared_ptr<device::Device> device(
      opened.release(),
      [live = live_instances_, device_id](device::Device* object) {
        delete object;
        live->Add(device_id, -1);
      });
  entry.device = std::move(device);
  absl::StatusOr<uint32_t> stream_id =
      AllocateIdLocked(device_id, ObjectKind::kStream);
  if (!stream_id.ok()) {
    entry.device.reset();
    return stream_id.status();
  }
  auto primary = std::make_shared<Context>(
      device_id, /*primary=*/true,
      std::make_shared<Stream>(executors_, exception_callbacks_, device_id,
                               *stream_id, 0, 0));
  entry.primary = primary;
  entry.abnormal = false;
  entry.generation = ++opens_;
  entry.opened_at = absl::Now();
  RegisterLocked(primary, device_id, std::nullopt);
  RegisterLocked(primary->default_stream(), device_id, *stream_id,
                 primary->handle());
  VLOG(1) << "device " << device_id << " opened";
  return absl::OkStatus();
}

void Runtime::StreamGoneLocked(const void* stream) {
  for (size_t index : family_order_) {
    families_[index]->OnStreamGone(stream);
  }
}

Runtime::Teardown Runtime::CloseDeviceLocked(int32_t device_id) {
  Teardown teardown;
  DeviceEntry& entry = devices_[device_id];
  CloseActions actions;
  for (const HandleTable::Entry& object : table_.EraseDevice(device_id)) {
    if (const auto hook = Descriptor(object.key.kind).on_close) {
      hook(object, actions);
    }
    if (object.on_device_close) object.on_device_close(object.object.get());
  }
  for (const void* stream : actions.gone_streams) StreamGoneLocked(stream);
  teardown.streams = std::move(actions.streams);
  // Force-destroyed streams still running go with the device; their ids
  // went with its id spaces.
  retiring_count_.fetch_sub(entry.retiring.size(), std::memory_order_relaxed);
  teardown.streams.insert(teardown.streams.end(), entry.retiring.begin(),
                          entry.retiring.end());
  entry.retiring.clear();
  // The device's own peer access goes with `entry`; access other devices
  // enabled toward it is theirs and stays (DESIGN.md §5.6).
  teardown.device = std::move(entry.device);
  for (const std::unique_ptr<Family>& family : families_) {
    if (family) family->OnDeviceClose(device_id);
  }
  const int closing = entry.closing;
  entry = DeviceEntry{};
  entry.closing = closing + 1;
  teardown.ticket = CloseTicket(this, device_id);
  VLOG(1) << "device " << device_id << " closed";
  return teardown;
}

void Runtime::CloseTicket::Release() {
  if (runtime_ == nullptr) return;
  ascend::MutexLock lock(&runtime_->mu_);  // unlocking wakes OpenDeviceLocked
  --runtime_->devices_[device_id_].closing;
  runtime_ = nullptr;
}

absl::Status Runtime::SetDevice(int32_t device_id) {
  ASCEND_RETURN_IF_ERROR(ValidDeviceId(device_id));
  // Device state callbacks hear of the opening of a device (DESIGN.md
  // §5.16), before and after.
  const DeviceCallbacks& callbacks = device_callbacks_;
  const bool notify =
      callbacks.HasStateCallbacks() && DeviceObject(device_id) == nullptr;
  if (notify) callbacks.NotifyState(device_id, ACL_RT_DEVICE_STATE_SET_PRE);
  std::shared_ptr<Context> primary;
  bool opened = false;
  {
    ascend::MutexLock lock(&mu_);
    opened = !devices_[device_id].device;
    ASCEND_RETURN_IF_ERROR(OpenDeviceLocked(device_id));
    DeviceEntry& entry = devices_[device_id];
    ++entry.refcount;
    primary = entry.primary;
  }
  ThreadContext() = std::move(primary);
  if (notify && opened) {
    callbacks.NotifyState(device_id, ACL_RT_DEVICE_STATE_SET_POST);
  }
  return absl::OkStatus();
}

std::atomic<Runtime*> Runtime::created_{nullptr};

void Runtime::LetHandedWorkFinish(const char* api) {
  if (Stream::Current() != nullptr) return;
  tasks_
      .Access({HostOp::kTeardown, api, nullptr, nullptr, DeviceRange{-1, 0, 0}})
      .IgnoreError();
}

absl::Status Runtime::ResetDevice(int32_t device_id, bool force) {
  ASCEND_RETURN_IF_ERROR(ValidDeviceId(device_id));
  // Device state callbacks hear of the close of a device (DESIGN.md §5.16).
  const DeviceCallbacks& callbacks = device_callbacks_;
  bool notify = false;
  if (callbacks.HasStateCallbacks() && Stream::Current() == nullptr) {
    ascend::MutexLock lock(&mu_);
    const DeviceEntry& entry = devices_[device_id];
    notify = entry.device && (force || entry.refcount <= 1);
  }
  if (notify) callbacks.NotifyState(device_id, ACL_RT_DEVICE_STATE_RESET_PRE);
  // Work already handed to the device finishes before it closes (the
  // families' hooks wait for it: DESIGN.md §5.20).
  if (Stream::Current() == nullptr) {
    bool closing = false;
    {
      ascend::MutexLock lock(&mu_);
      const DeviceEntry& entry = devices_[device_id];
      closing = entry.device && (force || entry.refcount <= 1);
    }
    if (closing) {
      tasks_
          .Access({HostOp::kTeardown,
                   force ? "aclrtResetDeviceForce" : "aclrtResetDevice",
                   nullptr, nullptr, DeviceRange{device_id, 0, 0}})
          .IgnoreError();
    }
  }
  Teardown teardown;
  bool closed = false;
  {
    ascend::MutexLock lock(&mu_);
    DeviceEntry& entry = devices_[device_id];
    if (!entry.device) {
      return Error(ACL_ERROR_RT_INVALID_DEVICEID,
                   absl::StrCat("device ", device_id, " is not set"));
    }
    const Stream* running = Stream::Current();
    if (running != nullptr && running->device_id() == device_id &&
        (force || entry.refcount <= 1)) {
      return Error(ACL_ERROR_RT_NO_PERMISSION,
                   absl::StrCat("a task running on a stream of device ",
                                device_id, " cannot close its own device"));
    }
    if (!force && --entry.refcount > 0) return absl::OkStatus();
    teardown = CloseDeviceLocked(device_id);
    closed = true;
  }
  NotifyDeviceClosed(device_id);
  std::shared_ptr<Context>& current = ThreadContext();
  if (current && current->device_id() == device_id) current.reset();
  if (notify && closed) {
    teardown = Teardown();  // the device is closed before POST
    callbacks.NotifyState(device_id, ACL_RT_DEVICE_STATE_RESET_POST);
  }
  // Streams are shut down (their workers gone) and the device closed here,
  // outside the lock.
  return absl::OkStatus();
}

absl::StatusOr<std::shared_ptr<Context>> Runtime::CurrentContext() {
  std::shared_ptr<Context>& current = ThreadContext();
  if (current && current->alive()) return current;
  current.reset();
  if (std::optional<int32_t> id = default_device_(); id.has_value()) {
    // Threads that never set a device use the default one (DESIGN.md §5.1).
    // Opening it modifies resources: reached from an ungated query, it waits
    // while the process is locked, like aclrtSetDevice (inside a gated call
    // the gate is already passed and this nests).
    ApiScope gate(state_);
    if (gate.refused()) return GateRefusal();  // a stream task (DESIGN.md §4.3)
    ASCEND_RETURN_IF_ERROR(SetDevice(*id));
    return ThreadContext();
  }
  return Error(ACL_ERROR_RT_CONTEXT_NULL,
               "no current context: call aclrtSetDevice or "
               "aclrtSetCurrentContext first");
}

absl::StatusOr<std::shared_ptr<device::Device>> Runtime::CurrentDevice() {
  ASCEND_ASSIGN_OR_RETURN(std::shared_ptr<Context> ctx, CurrentContext());
  ascend::MutexLock lock(&mu_);
  std::shared_ptr<device::Device> device = devices_[ctx->device_id()].device;
  if (!device) return Error(ACL_ERROR_RT_CONTEXT_NULL, "device is closed");
  return device;
}

absl::StatusOr<int32_t> Runtime::GetDevice() {
  ASCEND_ASSIGN_OR_RETURN(std::shared_ptr<Context> ctx, CurrentContext());
  return ctx->device_id();
}

// --- Streams the core keeps ---------------------------------------------
// Resolving a stream handle, and the streams a destroy retires: the device
// synchronize and close wait for them (their creation, destruction and
// synchronisation are the streams family's, runtime/streams).

void Runtime::RetireStream(const std::shared_ptr<Stream>& stream,
                           const std::weak_ptr<device::Device>& owner) {
  // Pending work finishes first; its failure is not the destroy's, but it is
  // not dropped either.
  (void)stream->Synchronize(absl::InfiniteFuture());
  absl::Status unreported =
      stream->Synchronize(absl::InfiniteFuture(), ErrorReader::kDevice);
  std::shared_ptr<device::Device> device = owner.lock();
  if (!unreported.ok() && device != nullptr) {
    ascend::MutexLock lock(&mu_);
    DeviceEntry& entry = devices_[stream->device_id()];
    if (entry.device == device) {
      entry.destroyed_stream_failures.push_back(std::move(unreported));
    }
  }
}

void Runtime::SweepRetiring(int32_t device_id) {
  if (retiring_count_.load(std::memory_order_relaxed) == 0) return;
  const int32_t first = device_id < 0 ? 0 : device_id;
  const int32_t last = device_id < 0 ? device_count_ - 1 : device_id;
  for (int32_t id = first; id <= last; ++id) {
    // Each stream's idleness is read outside mu_ (a stream's lock is never
    // taken under the runtime's).
    std::vector<std::shared_ptr<Stream>> idle = RetiringStreams(id);
    idle.erase(std::remove_if(idle.begin(), idle.end(),
                              [](const std::shared_ptr<Stream>& stream) {
                                return !stream->Idle();
                              }),
               idle.end());
    if (idle.empty()) continue;
    std::shared_ptr<device::Device> device;
    {
      ascend::MutexLock lock(&mu_);
      DeviceEntry& entry = devices_[id];
      std::vector<std::shared_ptr<Stream>>& streams = entry.retiring;
      for (auto it = idle.begin(); it != idle.end();) {
        auto found = std::find(streams.begin(), streams.end(), *it);
        if (found == streams.end()) {
          it = idle.erase(it);  // the device's close took it meanwhile
          continue;
        }
        streams.erase(found);
        retiring_count_.fetch_sub(1, std::memory_order_relaxed);
        ++it;
      }
      device = entry.device;
    }
    for (const std::shared_ptr<Stream>& stream : idle) {
      if (device)
        device->ReleaseId(device::ResourceKind::kStream, stream->id());
    }
  }
}

std::vector<std::shared_ptr<Stream>> Runtime::RetiringStreams(
    int32_t device_id) const {
  std::vector<std::shared_ptr<Stream>> out;
  if (retiring_count_.load(std::memory_order_relaxed) == 0) return out;
  ascend::MutexLock lock(&mu_);
  for (int32_t id = 0; id < device_count_; ++id) {
    if (device_id >= 0 && id != device_id) continue;
    const auto& streams = devices_[id].retiring;
    out.insert(out.end(), streams.begin(), streams.end());
  }
  return out;
}

absl::StatusOr<std::shared_ptr<Stream>> Runtime::ResolveStream(void* handle) {
  if (handle == nullptr) {
    ASCEND_ASSIGN_OR_RETURN(std::shared_ptr<Context> ctx, CurrentContext());
    return ctx->default_stream();
  }
  return Resolve<Stream>(handle);
}

// --- Snapshot support
// ----------------------------------------------------------

uint64_t Runtime::AddDeviceCloseObserver(
    std::function<void(int32_t)> observer) {
  ascend::MutexLock lock(&observers_mu_);
  close_observers_.emplace_back(
      ++next_observer_,
      std::make_shared<std::function<void(int32_t)>>(std::move(observer)));
  return next_observer_;
}

void Runtime::RemoveDeviceCloseObserver(uint64_t key) {
  ascend::MutexLock lock(&observers_mu_);
  close_observers_.erase(
      std::remove_if(close_observers_.begin(), close_observers_.end(),
                     [key](const auto& entry) { return entry.first == key; }),
      close_observers_.end());
}

void Runtime::NotifyDeviceClosed(int32_t device_id) {
  std::vector<std::shared_ptr<std::function<void(int32_t)>>> observers;
  {
    ascend::MutexLock lock(&observers_mu_);
    for (const auto& [key, observer] : close_observers_) {
      observers.push_back(observer);
    }
  }
  for (const auto& observer : observers) (*observer)(device_id);
}

uint64_t Runtime::DeviceGeneration(int32_t device_id) const {
  if (device_id < 0 || device_id >= device_count_) return 0;
  ascend::MutexLock lock(&mu_);
  return devices_[device_id].device ? devices_[device_id].generation : 0;
}

std::shared_ptr<device::Device> Runtime::DeviceObject(int32_t device_id) const {
  if (device_id < 0 || device_id >= device_count_) return nullptr;
  ascend::MutexLock lock(&mu_);
  return devices_[device_id].device;
}

void Runtime::OnHealthEvent(const device::HealthEvent& event) {
  LOG(WARNING) << "device " << event.device_id
               << " health event: " << event.description;
  ascend::MutexLock lock(&mu_);
  if (event.device_id >= 0 && event.device_id < device_count_ &&
      event.device_abnormal) {
    DeviceEntry& entry = devices_[event.device_id];
    // About an earlier opening (the device was reset and set again since
    // the condition arose): the current opening is not affected.
    if (entry.device && event.raised < entry.opened_at) return;
    entry.abnormal = true;
  }
}

}  // namespace ascend::rt
