#include "acl/lifecycle/lifecycle.h"

#include <cstdlib>
#include <functional>
#include <string_view>
#include <utility>

#include "absl/strings/str_cat.h"
#include "device/base/status_macros.h"
#include "glog/logging.h"
#include "runtime/base/error.h"
#include "runtime/default_device.h"
#include "snapshot/image_file.h"

namespace ascend::acl {
namespace {

size_t ContentHash(const std::string& bytes) {
  return std::hash<std::string_view>{}(bytes);
}

bool ProfilerRequested(const std::optional<Config>& config) {
  const char* env = std::getenv("PROFILER_SAMPLECONFIG");
  return (env != nullptr && env[0] != '\0') ||
         (config.has_value() && config->has_profiler());
}

}  // namespace

bool Lifecycle::InitProgress::WasNotified(
    const Registration<aclInitCallbackFunc>& cb) const {
  for (const Notified& n : notified) {
    if (n.type == cb.type) return cb.sequence < n.next_sequence;
  }
  return false;
}

Lifecycle::Lifecycle() : config_(std::make_shared<const std::string>()) {}

absl::Status Lifecycle::Init(const char* config_path) {
  internal::RecursiveLock lock(&mu_);
  if (ref_count_ > 0) {
    ++ref_count_;
    return rt::Error(
        ACL_ERROR_REPEAT_INITIALIZE,
        absl::StrCat("already initialised; reference count is ", ref_count_));
  }
  if (phase_ == Phase::kInitialising) {
    ++nested_inits_;
    return rt::Error(ACL_ERROR_REPEAT_INITIALIZE,
                     "called from an init callback; the running aclInit "
                     "holds this reference if it succeeds");
  }

  InitProgress progress;
  progress.start_sequence = registry_.init().NextSequence();
  phase_ = Phase::kInitialising;
  nested_inits_ = 0;
  absl::Status status = InitSteps(config_path, &progress);
  phase_ = Phase::kIdle;
  if (!status.ok()) return status;  // no rollback (reference §1.4)

  ref_count_ = 1 + nested_inits_;
  ++generation_;
  if (!first_config_hash_.has_value()) {
    first_config_hash_ = progress.config_hash;
  }
  InvokeRegisteredDuringInit(progress);
  return absl::OkStatus();
}

absl::Status Lifecycle::InitSteps(const char* config_path,
                                  InitProgress* progress) {
  const bool has_path = config_path != nullptr && config_path[0] != '\0';
  std::shared_ptr<const std::string> bytes = config_;
  if (has_path) {
    ASCEND_ASSIGN_OR_RETURN(std::string read, ReadConfigFile(config_path));
    bytes = std::make_shared<const std::string>(std::move(read));
  } else if (!bytes->empty()) {
    bytes = std::make_shared<const std::string>();
  }
  config_ = bytes;  // kept even if a later step fails, as the reference does

  progress->config_hash = ContentHash(*bytes);
  if (first_config_hash_.has_value() &&
      *first_config_hash_ != progress->config_hash) {
    return rt::Error(ACL_ERROR_INVALID_PARAM,
                     "config content differs from the first successful "
                     "aclInit of this process");
  }

  settings_ = ConfigSettings();
  std::optional<Config> config;
  if (has_path) {
    ASCEND_ASSIGN_OR_RETURN(config, Config::Parse(*bytes));
    ASCEND_RETURN_IF_ERROR(config->ReadErrMsgMode(&settings_));
  }

  ASCEND_RETURN_IF_ERROR(
      NotifyInitType(ACL_REG_TYPE_ACL_MODEL, bytes, progress));

  // The data dump reads the config's "dump" section (DESIGN.md §5.25).
  if (consumer_ != nullptr) ASCEND_RETURN_IF_ERROR(consumer_->OnInit(*bytes));

  if (has_path) {
    ASCEND_RETURN_IF_ERROR(
        NotifyInitType(ACL_REG_TYPE_ACL_OP_EXECUTOR, bytes, progress));
    ASCEND_RETURN_IF_ERROR(config->ReadStackSizes(&settings_));
    ASCEND_RETURN_IF_ERROR(config->ReadDefaultDevice(&settings_));
    if (settings_.default_device.has_value()) {
      rt::SetDefaultDevice(*settings_.default_device);
      default_device_set_ = true;
    }
    ASCEND_RETURN_IF_ERROR(config->ReadPrintfFifoSizes(&settings_));
    ASCEND_RETURN_IF_ERROR(config->ReadEventMode(&settings_));
    ASCEND_RETURN_IF_ERROR(config->ReadSnapshot(&settings_));
  }
  // Where snapshot images go: the config, with the environment over it
  // (ours, DESIGN.md §4.15); also without a config file.
  absl::StatusOr<snapshot::ImageSettings> images =
      snapshot::ResolveImageSettings(settings_.snapshot_image_dir,
                                     settings_.snapshot_host_buffer_mb);
  if (!images.ok()) {
    return rt::Error(ACL_ERROR_INVALID_PARAM,
                     absl::StrCat("aclInit: ", images.status().message()));
  }
  snapshot::internal::ImageStore::Configure(*std::move(images));

  if (ProfilerRequested(config)) {
    LOG(WARNING) << "aclInit: profiling (PROFILER_SAMPLECONFIG or the "
                    "config's \"profiler\" section) is not supported by "
                    "this runtime and is ignored";
  }

  ASCEND_RETURN_IF_ERROR(
      NotifyInitType(ACL_REG_TYPE_ACL_DVPP, bytes, progress));
  ASCEND_RETURN_IF_ERROR(NotifyInitType(ACL_REG_TYPE_OTHER, bytes, progress));
  return absl::OkStatus();
}

absl::Status Lifecycle::NotifyInitType(
    CallbackType type, const std::shared_ptr<const std::string>& config,
    InitProgress* progress) {
  InitCallbackList::Snapshot snapshot = registry_.init().SnapshotOf(type);
  progress->notified.push_back({type, snapshot.next_sequence});
  int32_t code = NotifyInit(snapshot.callbacks, *config);
  if (code != 0) {
    return rt::Error(code, absl::StrCat("init callback of type ", type,
                                        " failed with ", code));
  }
  return absl::OkStatus();
}

void Lifecycle::InvokeRegisteredDuringInit(const InitProgress& progress) {
  if (registry_.init().NextSequence() == progress.start_sequence) return;
  const uint64_t generation = generation_;
  for (const auto& cb :
       registry_.init().RegisteredSince(progress.start_sequence)) {
    if (progress.WasNotified(cb)) continue;
    // A callback invoked here may have finalized (or re-initialised): the
    // rest then no longer belong to this Init.
    if (ref_count_ == 0 || generation_ != generation) return;
    InvokeLate(cb);
  }
}

void Lifecycle::InvokeLate(const Registration<aclInitCallbackFunc>& cb) {
  // Holding a reference keeps the bytes valid even if the callback
  // finalizes and re-initialises.
  std::shared_ptr<const std::string> config = config_;
  int32_t code = NotifyInit({cb}, *config);
  if (code != 0) {
    LOG(WARNING) << "init callback of type " << cb.type
                 << " registered while initialised returned " << code
                 << "; ignored";
  }
}

absl::Status Lifecycle::Finalize() {
  internal::RecursiveLock lock(&mu_);
  if (phase_ == Phase::kFinalizing) {
    return rt::Error(ACL_ERROR_REPEAT_FINALIZE,
                     "called from a finalize callback");
  }
  if (ref_count_ == 0) {
    return rt::Error(ACL_ERROR_REPEAT_FINALIZE, "not initialised");
  }
  return FinalizeLocked();
}

absl::Status Lifecycle::FinalizeReference(uint64_t* ref_count) {
  internal::RecursiveLock lock(&mu_);
  if (ref_count != nullptr) *ref_count = ref_count_;
  if (phase_ == Phase::kFinalizing) {
    return rt::Error(ACL_ERROR_REPEAT_FINALIZE,
                     "called from a finalize callback");
  }
  if (ref_count_ == 0) {
    return rt::Error(ACL_ERROR_REPEAT_FINALIZE, "not initialised");
  }
  if (ref_count_ > 1) {
    --ref_count_;
    if (ref_count != nullptr) *ref_count = ref_count_;
    return absl::OkStatus();
  }
  absl::Status status = FinalizeLocked();
  if (ref_count != nullptr) *ref_count = ref_count_;
  return status;
}

absl::Status Lifecycle::FinalizeLocked() {
  phase_ = Phase::kFinalizing;
  absl::Status status = FinalizeSteps();
  phase_ = Phase::kIdle;
  if (status.ok()) ref_count_ = 0;
  return status;
}

absl::Status Lifecycle::FinalizeSteps() {
  ASCEND_RETURN_IF_ERROR(NotifyFinalizeType(ACL_REG_TYPE_ACL_OP_COMPILER));
  ASCEND_RETURN_IF_ERROR(NotifyFinalizeType(ACL_REG_TYPE_ACL_MODEL));
  if (consumer_ != nullptr) consumer_->OnFinalize();
  ASCEND_RETURN_IF_ERROR(NotifyFinalizeType(ACL_REG_TYPE_ACL_DVPP));
  if (default_device_set_) {
    rt::ClearDefaultDevice();
    default_device_set_ = false;
  }
  return NotifyFinalizeType(ACL_REG_TYPE_OTHER);
}

absl::Status Lifecycle::NotifyFinalizeType(CallbackType type) {
  int32_t code =
      NotifyFinalize(registry_.finalize().SnapshotOf(type).callbacks);
  if (code != 0) {
    return rt::Error(code, absl::StrCat("finalize callback of type ", type,
                                        " failed with ", code));
  }
  return absl::OkStatus();
}

absl::Status Lifecycle::RegisterInitCallback(CallbackType type,
                                             aclInitCallbackFunc fn,
                                             void* user_data) {
  internal::RecursiveLock lock(&mu_);
  ASCEND_RETURN_IF_ERROR(registry_.init().Add(type, fn, user_data));
  // During an Init (ref_count_ still 0) InvokeRegisteredDuringInit decides.
  if (ref_count_ > 0) InvokeLate({type, fn, user_data, 0});
  return absl::OkStatus();
}

absl::Status Lifecycle::UnregisterInitCallback(CallbackType type,
                                               aclInitCallbackFunc fn) {
  internal::RecursiveLock lock(&mu_);
  return registry_.init().Remove(type, fn);
}

absl::Status Lifecycle::RegisterFinalizeCallback(CallbackType type,
                                                 aclFinalizeCallbackFunc fn,
                                                 void* user_data) {
  internal::RecursiveLock lock(&mu_);
  return registry_.finalize().Add(type, fn, user_data);
}

absl::Status Lifecycle::UnregisterFinalizeCallback(CallbackType type,
                                                   aclFinalizeCallbackFunc fn) {
  internal::RecursiveLock lock(&mu_);
  return registry_.finalize().Remove(type, fn);
}

uint64_t Lifecycle::ref_count() const {
  internal::RecursiveLock lock(&mu_);
  return ref_count_;
}

ConfigSettings Lifecycle::settings() const {
  internal::RecursiveLock lock(&mu_);
  return settings_;
}

void Lifecycle::SetConfigConsumer(ConfigConsumer* consumer) {
  internal::RecursiveLock lock(&mu_);
  consumer_ = consumer;
}

Lifecycle& ProcessLifecycle() {
  static auto* const lifecycle = new Lifecycle;
  return *lifecycle;
}

}  // namespace ascend::acl
