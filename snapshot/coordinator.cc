#include "snapshot/coordinator.h"

#include <algorithm>
#include <atomic>
#include <stdexcept>
#include <thread>
#include <utility>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "acl/error_codes/rt_error_codes.h"
#include "device/base/status_macros.h"
#include "glog/logging.h"
#include "runtime/base/error.h"
#include "runtime/snapshot_support/snapshot_support.h"
#include "snapshot/builtin_participants.h"
#include "snapshot/image_file.h"
#include "snapshot/image_manifest.h"

namespace ascend::snapshot {
namespace {

using rt::Error;
using rt::ProcessState;

// Depth of stage-callback invocations on this thread (DESIGN.md §4.7).
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

// An image with files on disk: the report names their directory.
void NameImageDirectory(SnapshotReport* report) {
  if (report->disk_bytes == 0) return;
  if (std::shared_ptr<internal::ImageStore> store =
          internal::ImageStore::Current()) {
    report->image_dir = store->Directory().value_or("");
  }
}

}  // namespace

namespace {

std::unique_ptr<ParticipantRegistry> BuiltinParticipants(
    rt::Runtime& runtime, const Coordinator::Options& options) {
  auto registry = std::make_unique<ParticipantRegistry>();
  MemoryOptions memory;
  memory.chunk_bytes = options.chunk_bytes;
  memory.workers = options.workers;
  absl::Status registered =
      RegisterBuiltinParticipants(*registry, runtime, memory);
  // Only a programming error (a duplicate or malformed name) fails here, so
  // no input reaches it; it is still no abort: thrown, it becomes
  // ACL_ERROR_RT_INTERNAL_ERROR at the entry point (DESIGN.md §2.7).
  if (!registered.ok()) throw std::logic_error(registered.ToString());
  return registry;
}

}  // namespace

Coordinator::Coordinator(rt::Runtime& runtime, rt::GlobalState& state,
                         CallbackRegistry& callbacks, Options options)
    : Coordinator(runtime, state, callbacks,
                  BuiltinParticipants(runtime, options), options) {}

Coordinator::Coordinator(rt::Runtime& runtime, rt::GlobalState& state,
                         CallbackRegistry& callbacks,
                         std::unique_ptr<ParticipantRegistry> participants,
                         Options options)
    : runtime_(runtime),
      state_(state),
      callbacks_(callbacks),
      options_(std::move(options)),
      participants_(std::move(participants)) {
  close_observer_ = runtime_.AddDeviceCloseObserver([this](int32_t device_id) {
    bool holds = false;
    {
      ascend::MutexLock lock(&image_mu_);
      if (backup_) {
        const std::vector<int32_t>& devices = backup_->devices();
        holds = std::find(devices.begin(), devices.end(), device_id) !=
                devices.end();
      }
    }
    if (holds) {
      ReleaseBackup(
          absl::StrCat("device ", device_id, " was closed after the backup"));
    }
  });
}

Coordinator::~Coordinator() {
  runtime_.RemoveDeviceCloseObserver(close_observer_);
}

void Coordinator::ReleaseBackup(std::string reason) {
  std::shared_ptr<BackupImage> released;
  {
    ascend::MutexLock lock(&image_mu_);
    released = std::move(backup_);
    if (released) released_because_ = reason;
  }
  if (released) VLOG(1) << "snapshot: backup released (" << reason << ")";
}

void Coordinator::ReleaseAtFinalize() {
  ascend::MutexLock op(&op_mu_);
  // A backup exists only while the process is locked or backed up, and
  // the snapshot state outlives aclFinalize: a Restore must still find it.
  // It goes at Unlock, as always.
  for (rt::SnapshotParticipant* participant : participants_->participants()) {
    participant->ReleaseKept();
  }
  internal::ImageStore::Configure(std::nullopt);
}

Coordinator& Coordinator::Get() {
  static Coordinator* const coordinator =
      new Coordinator(rt::Runtime::Get(), rt::GlobalState::Get(),
                      *new CallbackRegistry(), Options{});
  return *coordinator;
}

SnapshotReport Coordinator::LastReport() const {
  ascend::MutexLock lock(&image_mu_);
  return report_;
}

uint64_t Coordinator::backup_bytes() const {
  ascend::MutexLock lock(&image_mu_);
  return backup_ ? backup_->total_bytes() : 0;
}

absl::Status Coordinator::InvokeStage(int32_t stage) {
  // Gated calls from the callbacks do not block (see StageCallbackScope).
  rt::StageCallbackScope gated_calls_proceed;
  ++tls_callback_depth;
  absl::Status status = callbacks_.Invoke(
      stage, ascend::rt::SnapshotSupport::Of(runtime_)->OpenDevices());
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
    // The reference runs LOCK_PRE before looking at the state (DESIGN.md §4.7).
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
  // No Restore can use the backup any more (Restore needs BACKED_UP, and
  // only a new Backup gets there).
  ReleaseBackup("the process was unlocked");
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
  const std::vector<int32_t> devices =
      ascend::rt::SnapshotSupport::Of(runtime_)->OpenDevices();
  if (devices.empty()) {
    return Error(ACL_ERROR_RT_CONTEXT_NULL,
                 "backup needs at least one open device");
  }
  const absl::Time start = absl::Now();
  absl::StatusOr<std::unique_ptr<BackupImage>> image = TakeBackup(devices);
  if (!image.ok()) {
    return AsOperationFailure(image.status(), ACL_ERROR_SNAPSHOT_BACKUP_FAILED,
                              "backup");
  }
  SnapshotReport report = SnapshotReport::Of(
      "backup", **image, absl::ToInt64Microseconds(absl::Now() - start));
  NameImageDirectory(&report);
  if (!report.image_dir.empty()) {
    // The image's manifest, for ascendcl-snapshot (DESIGN.md §4.15).
    absl::Status written = WriteImageManifest(
        runtime_, **image, report.image_dir, report.duration_us);
    if (!written.ok()) {
      return AsOperationFailure(written, ACL_ERROR_SNAPSHOT_BACKUP_FAILED,
                                "backup");
    }
  }
  if (options_.after_backup) options_.after_backup(**image);
  // The new backup replaces the old one (freed outside the lock).
  std::shared_ptr<BackupImage> replaced;
  {
    ascend::MutexLock lock(&image_mu_);
    replaced =
        std::exchange(backup_, std::shared_ptr<BackupImage>(*std::move(image)));
    released_because_.clear();
    report_ = std::move(report);
  }
  replaced.reset();
  ASCEND_RETURN_IF_ERROR(InvokeStage(RT_SNAPSHOT_BACKUP_POST));
  if (!state_.CompareAndSetState(ProcessState::kLocked,
                                 ProcessState::kBackedUp)) {
    return Error(ACL_ERROR_SNAPSHOT_BACKUP_FAILED,
                 "process state changed during backup");
  }
  return absl::OkStatus();
}

absl::Status Coordinator::Precopy() {
  if (InsideCallback()) {
    return ReentrantCall(ACL_ERROR_SNAPSHOT_BACKUP_FAILED, "snapshot pre-copy");
  }
  // op_mu_ keeps Lock (its LOCK_PRE stage), Backup and Restore out until
  // the copy is done; resource calls run on.
  ascend::MutexLock op(&op_mu_);
  if (state_.state() != ProcessState::kRunning) {
    return Error(ACL_ERROR_SNAPSHOT_BACKUP_FAILED,
                 absl::StrCat("pre-copy needs state RUNNING, process is ",
                              rt::ProcessStateName(
                                  static_cast<int32_t>(state_.state()))));
  }
  const std::vector<int32_t> devices =
      ascend::rt::SnapshotSupport::Of(runtime_)->OpenDevices();
  if (devices.empty()) {
    return Error(ACL_ERROR_RT_CONTEXT_NULL,
                 "pre-copy needs at least one open device");
  }
  const absl::Time start = absl::Now();
  SnapshotReport report;
  report.operation = "precopy";
  for (rt::SnapshotParticipant* participant : participants_->participants()) {
    SnapshotReport::Participant& entry = report.participants.emplace_back();
    entry.name = std::string(participant->name());
    if (participant->scope() != rt::SnapshotParticipant::Scope::kDevice) {
      continue;
    }
    for (const int32_t device : devices) {
      const absl::Time began = absl::Now();
      absl::StatusOr<rt::SnapshotParticipant::Precopied> done =
          participant->Precopy(device);
      if (!done.ok()) {
        if (done.status().code() == absl::StatusCode::kUnimplemented) {
          return Error(ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
                       absl::StrCat("pre-copy: ", done.status().message()));
        }
        return AsOperationFailure(
            done.status(), ACL_ERROR_SNAPSHOT_BACKUP_FAILED,
            absl::StrCat("pre-copy of ", participant->name(), " on device ",
                         device)
                .c_str());
      }
      entry.duration_us +=
          static_cast<uint64_t>(absl::ToInt64Microseconds(absl::Now() - began));
      entry.bytes += done->copied.copied;
      report.bytes_copied += done->copied.copied;
      report.bytes_unchanged += done->copied.unchanged;
      report.host_bytes += done->host_bytes;
      report.incremental |= done->copied.incremental;
      if (!done->copied.write_tracking.empty()) {
        report.write_tracking = done->copied.write_tracking;
      }
    }
  }
  report.duration_us =
      static_cast<uint64_t>(absl::ToInt64Microseconds(absl::Now() - start));
  VLOG(1) << "snapshot: pre-copy of " << devices.size() << " device(s), "
          << report.bytes_copied << " bytes copied, in "
          << (absl::Now() - start);
  ascend::MutexLock lock(&image_mu_);
  report_ = std::move(report);
  return absl::OkStatus();
}

absl::StatusOr<std::unique_ptr<BackupImage>> Coordinator::TakeBackup(
    const std::vector<int32_t>& devices) {
  const absl::Time start = absl::Now();
  const absl::Time deadline = start + state_.timeout();
  absl::Status drained =
      ascend::rt::SnapshotSupport::Of(runtime_)->DrainStreamsForBackup(deadline,
                                                                       devices);
  if (!drained.ok()) {
    return Error(ACL_ERROR_SNAPSHOT_BACKUP_FAILED,
                 absl::StrCat("streams did not drain: ", drained.message()));
  }
  absl::StatusOr<std::unique_ptr<BackupImage>> image =
      BackupImage::Save(*participants_, devices);
  if (image.ok()) {
    VLOG(1) << "snapshot: backup of " << devices.size() << " device(s), "
            << (*image)->total_bytes() << " bytes, in "
            << (absl::Now() - start);
  }
  return image;
}

absl::Status Coordinator::Restore() {
  if (InsideCallback()) {
    return ReentrantCall(ACL_ERROR_SNAPSHOT_RESTORE_FAILED, "snapshot Restore");
  }
  ascend::MutexLock op(&op_mu_);
  if (state_.state() != ProcessState::kBackedUp) {
    return Error(ACL_ERROR_SNAPSHOT_RESTORE_FAILED,
                 absl::StrCat("restore needs state BACKED_UP, process is ",
                              rt::ProcessStateName(
                                  static_cast<int32_t>(state_.state()))));
  }
  std::shared_ptr<BackupImage> image;
  {
    ascend::MutexLock lock(&image_mu_);
    image = backup_;
    if (!image) {
      return Error(
          ACL_ERROR_SNAPSHOT_RESTORE_FAILED,
          absl::StrCat("the backup was released: ", released_because_));
    }
  }
  ASCEND_RETURN_IF_ERROR(InvokeStage(RT_SNAPSHOT_RESTORE_PRE));
  const absl::Time start = absl::Now();
  absl::Status restored = RestoreImage(*image);
  if (!restored.ok()) {
    return AsOperationFailure(restored, ACL_ERROR_SNAPSHOT_RESTORE_FAILED,
                              "restore");
  }
  {
    SnapshotReport report = SnapshotReport::Of(
        "restore", *image, absl::ToInt64Microseconds(absl::Now() - start));
    NameImageDirectory(&report);
    ascend::MutexLock lock(&image_mu_);
    report_ = std::move(report);
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
    ascend::rt::SnapshotSupport::Of(runtime_)->OnHealthEvent(*event);
  }
}

absl::Status Coordinator::RestoreImage(BackupImage& image) {
  ConsumeStaleHealthEvents();
  // Participant by participant, every device before the next participant
  // (see BackupImage): all devices re-opened, then ids, then every address
  // valid again, then contents.
  ASCEND_RETURN_IF_ERROR(image.Restore());
  for (int32_t device_id : image.devices()) {
    ascend::rt::SnapshotSupport::Of(runtime_)->MarkDeviceHealthy(device_id);
  }
  return absl::OkStatus();
}

}  // namespace ascend::snapshot
