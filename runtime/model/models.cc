// Models: the bookkeeping of models, labels and runner streams, and what a
// snapshot reads of them (DESIGN.md §5.21).
#include <pthread.h>

#include <algorithm>
#include <cstring>
#include <fstream>
#include <optional>
#include <utility>

#include "absl/strings/cord.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/synchronization/mutex.h"
#include "absl/time/clock.h"
#include "acl/error_codes/rt_error_codes.h"
#include "device/base/status_macros.h"
#include "runtime/base/error.h"
#include "runtime/base/handle.h"
#include "runtime/base/logging.h"
#include "runtime/exception_info.h"
#include "runtime/memory/memory.h"
#include "runtime/model/execution.h"
#include "runtime/model/model.h"
#include "runtime/model/model_objects.h"
#include "runtime/runtime.h"
#include "runtime/streams/streams.h"
#include "runtime/sync/event.h"
#include "runtime/sync/sync.h"

namespace ascend::rt {

// --- Models: bookkeeping
// ------------------------------------------------------

Models* Models::Of(const Runtime& runtime) { return runtime.family<Models>(); }

FamilyRegistration ModelFamily() {
  return {"models", &FamilyIndex<Models>,
          [](Runtime& runtime) -> std::unique_ptr<Family> {
            return std::make_unique<Models>(runtime);
          },
          [](Runtime& runtime) {
            FamilyRegistration::Participants participants;
            participants.push_back(MakeModelParticipant(runtime));
            return participants;
          },
          FamilyRegistration::RestoreStage::kAfterMemory};
}

Models::Models(Runtime& runtime)
    : runtime_(runtime),
      memory_(Memory::Of(runtime)),
      sync_(Sync::Of(runtime)) {
  // The first hook of the runtime's path: it cannot be full.
  runtime_.tasks().AddHook(&capture_hook_).IgnoreError();
  close_observer_ = runtime_.AddDeviceCloseObserver(
      [this](int32_t device_id) { OnDeviceClosed(device_id); });
}

Models::~Models() { runtime_.RemoveDeviceCloseObserver(close_observer_); }

std::shared_ptr<Model> Models::FindModel(const void* handle) const {
  ascend::MutexLock lock(&mu_);
  auto it = models_.find(handle);
  return it == models_.end() ? nullptr : it->second;
}

std::optional<int32_t> Models::DeviceOfModel(uint32_t model_id) const {
  ascend::MutexLock lock(&mu_);
  for (const auto& [h, m] : models_) {
    if (m->id_ == model_id) return m->device_id_;
  }
  return std::nullopt;
}

std::optional<uint32_t> Models::BoundModelId(const Stream& stream) const {
  std::vector<std::shared_ptr<Model>> built;
  {
    ascend::MutexLock lock(&mu_);
    for (const auto& [h, m] : models_) {
      if (m->kind_ == ModelKind::kBuilt) built.push_back(m);
    }
  }
  for (const std::shared_ptr<Model>& m : built) {
    ascend::MutexLock lock(&m->mu_);
    for (const ModelStream& ms : m->streams_) {
      if (ms.source.get() == &stream) return m->id_;
    }
  }
  return std::nullopt;
}

absl::StatusOr<std::shared_ptr<Model>> Models::ResolveModel(
    const void* handle) const {
  std::shared_ptr<Model> m = FindModel(handle);
  if (m == nullptr) {
    return Error(ACL_ERROR_RT_PARAM_INVALID, "not a live model run instance");
  }
  return m;
}

absl::StatusOr<std::shared_ptr<Label>> Models::ResolveLabel(
    const void* handle) const {
  ascend::MutexLock lock(&mu_);
  auto it = labels_.find(handle);
  if (it == labels_.end()) {
    return Error(ACL_ERROR_RT_PARAM_INVALID, "not a live label");
  }
  return it->second;
}

absl::StatusOr<std::shared_ptr<LabelList>> Models::ResolveList(
    const void* handle) const {
  ascend::MutexLock lock(&mu_);
  auto it = lists_.find(handle);
  if (it == lists_.end()) {
    return Error(ACL_ERROR_RT_PARAM_INVALID, "not a live label list");
  }
  return it->second;
}

absl::StatusOr<std::pair<std::shared_ptr<Model>, uint32_t>> Models::Recording(
    const Stream& stream, int32_t code, const char* what) const {
  std::shared_ptr<TaskRecorder> r = stream.recorder();
  auto* recorder = dynamic_cast<ModelRecorder*>(r.get());
  std::shared_ptr<Model> m = recorder != nullptr ? recorder->model() : nullptr;
  if (m == nullptr) {
    return Error(code, absl::StrCat(what,
                                    ": the stream records into no "
                                    "model"));
  }
  ascend::MutexLock lock(&m->mu_);
  ASCEND_ASSIGN_OR_RETURN(uint32_t index, m->StreamIndexLocked(stream));
  return std::make_pair(m, index);
}

absl::StatusOr<std::shared_ptr<Model>> Models::NewModel(int32_t device_id,
                                                        int kind) {
  uint32_t id;
  {
    ascend::MutexLock lock(&mu_);
    id = next_model_id_++;
  }
  std::shared_ptr<Model> m;
  try {
    m = std::make_shared<Model>(*this, device_id, id,
                                static_cast<ModelKind>(kind));
    m->recorder_ = std::make_shared<ModelRecorder>(m);
  } catch (const std::bad_alloc&) {
    return Error(ACL_ERROR_RT_MEMORY_ALLOCATION, "out of host memory");
  }
  ascend::MutexLock lock(&mu_);
  models_[m->handle()] = m;
  return m;
}

absl::StatusOr<std::shared_ptr<Stream>> Models::NewRunner(
    const Stream& source) {
  // In the source stream's context, whatever the calling thread's is: a
  // stream of device 1 captured while device 0 is current runs on device 1.
  ASCEND_ASSIGN_OR_RETURN(
      std::shared_ptr<Context> ctx,
      Streams::Of(runtime_)->StreamContext(source.handle()));
  ASCEND_ASSIGN_OR_RETURN(
      void* handle, Streams::Of(runtime_)->CreateStreamIn(ctx, StreamConfig{}));
  return runtime_.ResolveStream(handle);
}

void Models::ReleaseRunners(const Model& model) {
  std::vector<std::shared_ptr<Stream>> runners;
  {
    ascend::MutexLock lock(&model.mu_);
    for (const ModelStream& ms : model.streams_) {
      if (ms.runner != nullptr) runners.push_back(ms.runner);
    }
  }
  for (const auto& r : runners) {
    {
      ascend::MutexLock lock(&mu_);
      runner_models_.erase(r->handle());
    }
    (void)Streams::Of(runtime_)->DestroyStreamAndWait(r->handle());
  }
}

void Models::Erase(const std::shared_ptr<Model>& model) {
  std::vector<std::pair<aclrtCallback, void*>> callbacks;
  std::vector<std::shared_ptr<Model>> branches;
  std::vector<std::shared_ptr<CondHandle>> conds;
  std::vector<std::shared_ptr<Stream>> sources;
  std::shared_ptr<ThreadCaptures> abandoned;
  {
    ascend::MutexLock lock(&model->mu_);
    callbacks = model->destroy_callbacks_;
    conds = model->conds_;
    for (const auto& t : model->tasks_) {
      for (const auto& b : t->branches) branches.push_back(b);
    }
    for (ModelStream& ms : model->streams_) {
      if (ms.source != nullptr) sources.push_back(ms.source);
    }
    // A capture still in progress (CaptureEnd clears begin_counts_).
    abandoned = std::move(model->begin_counts_);
    model->begin_counts_ = nullptr;
  }
  {
    ascend::MutexLock lock(&mu_);
    models_.erase(model->handle());
    if (abandoned != nullptr) --mode_counts_[model->mode_];
  }
  // Streams still recording into it (an abandoned capture or bound streams)
  // record no more.
  for (const auto& s : sources) {
    std::shared_ptr<TaskRecorder> r = s->recorder();
    if (r == model->recorder_) {
      s->SetRecorder(nullptr);
    }
  }
  // An abandoned capture (its model destroyed, its device reset) is undone
  // once, like CaptureEnd does: this used to subtract one capture per
  // recording stream (joined ones too, driving the count below zero) and
  // to leave the mode counts raised, so synchronous calls stayed refused
  // with 107030 under any later capture.
  if (abandoned != nullptr) {
    if (abandoned->began[model->mode_].load() > 0) {
      abandoned->began[model->mode_].fetch_sub(1);
    }
    captures_.fetch_sub(1, std::memory_order_acq_rel);
  }
  ReleaseRunners(*model);
  for (const auto& c : conds) (void)memory_->Free(c->ptr);
  for (const auto& b : branches) Erase(b);
  for (const auto& [fn, data] : callbacks) fn(data);
}

void Models::OnDeviceClosed(int32_t device_id) {
  std::vector<std::shared_ptr<Model>> gone;
  {
    ascend::MutexLock lock(&mu_);
    for (const auto& [h, m] : models_) {
      if (m->device_id_ == device_id && m->kind_ != ModelKind::kSub) {
        gone.push_back(m);
      }
    }
    for (auto it = labels_.begin(); it != labels_.end();) {
      if (it->second->device_id == device_id) {
        labels_.erase(it++);
      } else {
        ++it;
      }
    }
    for (auto it = lists_.begin(); it != lists_.end();) {
      if (it->second->device_id == device_id) {
        lists_.erase(it++);
      } else {
        ++it;
      }
    }
  }
  for (const auto& m : gone) {
    // Its runners went with the device; its tasks hold device references.
    {
      ascend::MutexLock lock(&m->mu_);
      for (ModelStream& ms : m->streams_) ms.runner.reset();
      m->conds_.clear();
    }
    Erase(m);
    ascend::MutexLock lock(&m->mu_);
    m->tasks_.clear();
  }
}

std::vector<std::shared_ptr<Model>> Models::ModelsOf(int32_t device_id) const {
  std::vector<std::shared_ptr<Model>> out;
  ascend::MutexLock lock(&mu_);
  for (const auto& [h, m] : models_) {
    if (m->device_id_ == device_id) out.push_back(m);
  }
  std::sort(out.begin(), out.end(),
            [](const auto& a, const auto& b) { return a->id_ < b->id_; });
  return out;
}

// --- Snapshot support
// -------------------------------------------------------------

std::string Models::Describe(int32_t device_id) const {
  std::string text;
  for (const auto& m : ModelsOf(device_id)) {
    ascend::MutexLock lock(&m->mu_);
    absl::StrAppend(&text, "model ", m->id_, " kind ",
                    static_cast<int>(m->kind_), " state ",
                    static_cast<int>(m->state_), " streams [");
    for (const ModelStream& ms : m->streams_) {
      absl::StrAppend(&text, ms.runner ? ms.runner->id() : 0,
                      ms.head ? "h" : "", ":", ms.program.size(), " ");
    }
    absl::StrAppend(&text, "] tasks [");
    for (const auto& t : m->tasks_) {
      absl::StrAppend(&text,
                      t->control == Control::kNone
                          ? TaskTypeName(t->params.type)
                          : ControlName(t->control),
                      t->disabled ? "-" : "", " ");
    }
    absl::StrAppend(&text, "]\n");
  }
  ascend::MutexLock lock(&mu_);
  std::vector<std::pair<uint32_t, bool>> labels;
  for (const auto& [h, l] : labels_) {
    if (l->device_id == device_id) labels.emplace_back(l->id, l->set);
  }
  std::sort(labels.begin(), labels.end());
  for (const auto& [id, set] : labels) {
    absl::StrAppend(&text, "label ", id, set ? " set" : "", "\n");
  }
  return text;
}

absl::Status Models::CacheLastTaskInfo(const void* info, size_t size,
                                       bool extend) {
  std::shared_ptr<Model> m = tls_last_model.lock();
  if (m == nullptr) {
    return Error(ACL_ERROR_RT_INTERNAL_ERROR,
                 "this thread has recorded no task into a model");
  }
  ascend::MutexLock lock(&m->mu_);
  if (tls_last_task >= m->tasks_.size()) {
    return Error(ACL_ERROR_RT_INTERNAL_ERROR,
                 "the task this thread recorded last is gone");
  }
  ModelTask& t = *m->tasks_[tls_last_task];
  const auto* bytes = static_cast<const uint8_t*>(info);
  if (extend) {
    t.extend_info.assign(reinterpret_cast<const char*>(bytes), size);
  } else {
    t.op_info.assign(bytes, bytes + size);
  }
  return absl::OkStatus();
}

absl::StatusOr<std::vector<uint8_t>> Models::ReadValue(const void* ptr,
                                                       size_t bytes,
                                                       int32_t device_id) {
  return Memory::Of(runtime_)->ReadTaskMemory(ptr, bytes, device_id,
                                              "model control value");
}

absl::Status Models::WriteValue(void* ptr, const std::vector<uint8_t>& bytes,
                                int32_t device_id) {
  return Memory::Of(runtime_)->WriteTaskMemory(ptr, bytes, device_id,
                                               "condition value");
}

absl::Status Models::CheckBackup(int32_t device_id) const {
  for (const auto& m : ModelsOf(device_id)) {
    ascend::MutexLock lock(&m->mu_);
    if (m->kind_ == ModelKind::kBuilt && m->state_ == ModelState::kRecording) {
      return Error(ACL_ERROR_SNAPSHOT_BACKUP_FAILED,
                   absl::StrCat("model ", m->id_,
                                " is still being built (no aclmdlRIBuildEnd)"));
    }
  }
  return absl::OkStatus();
}

}  // namespace ascend::rt
