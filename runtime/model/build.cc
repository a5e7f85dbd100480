// The build API (aclmdlRIBuild*, bound streams), labels, stream control and
// conditional tasks (DESIGN.md §5.21).
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
#include "runtime/model/model.h"
#include "runtime/model/model_objects.h"
#include "runtime/runtime.h"
#include "runtime/sync/event.h"

namespace ascend::rt {

// --- The build API
// ------------------------------------------------------------

absl::StatusOr<void*> Models::BuildBegin(uint32_t flag) {
  if (flag != 0) {
    return Error(ACL_ERROR_RT_PARAM_INVALID,
                 absl::StrCat("aclmdlRIBuildBegin flag ", flag, " must be 0"));
  }
  ASCEND_ASSIGN_OR_RETURN(int32_t device_id, runtime_.GetDevice());
  ASCEND_ASSIGN_OR_RETURN(
      std::shared_ptr<Model> m,
      NewModel(device_id, static_cast<int>(ModelKind::kBuilt)));
  return m->handle();
}

absl::StatusOr<std::pair<std::shared_ptr<Model>, std::shared_ptr<Stream>>>
Models::BuiltModelStream(void* model, void* stream, const char* api) {
  ASCEND_ASSIGN_OR_RETURN(std::shared_ptr<Model> m, ResolveModel(model));
  if (stream == nullptr) {
    return Error(ACL_ERROR_RT_PARAM_INVALID, "stream must not be NULL");
  }
  ASCEND_ASSIGN_OR_RETURN(std::shared_ptr<Stream> s,
                          runtime_.ResolveStream(stream));
  if (m->kind_ != ModelKind::kBuilt) {
    return Error(ACL_ERROR_RT_PARAM_INVALID,
                 absl::StrCat(api, " is for models of aclmdlRIBuildBegin"));
  }
  ASCEND_RETURN_IF_ERROR(RefuseCapturing(*s, api));
  return std::make_pair(std::move(m), std::move(s));
}

absl::Status Models::BindStream(void* model, void* stream, uint32_t flag) {
  if (flag != kModelStreamHead && flag != kModelStreamDefault) {
    return Error(ACL_ERROR_RT_PARAM_INVALID,
                 absl::StrCat("stream flag ", flag,
                              " is neither ACL_MODEL_STREAM_FLAG_HEAD nor "
                              "ACL_MODEL_STREAM_FLAG_DEFAULT"));
  }
  ASCEND_ASSIGN_OR_RETURN(
      auto found, BuiltModelStream(model, stream, "aclmdlRIBindStream"));
  const std::shared_ptr<Model>& m = found.first;
  const std::shared_ptr<Stream>& s = found.second;
  if (s->recording()) {
    return Error(ACL_ERROR_RT_STREAM_MODEL,
                 "the stream is already bound to a model");
  }
  if ((s->flags() & ACL_STREAM_PERSISTENT) == 0) {
    return Error(ACL_ERROR_RT_PARAM_INVALID,
                 "only a stream created with ACL_STREAM_PERSISTENT can be "
                 "bound to a model");
  }
  if (s->device_id() != m->device_id_) {
    return Error(ACL_ERROR_RT_STREAM_CONTEXT,
                 "the stream and the model are on different devices");
  }
  {
    ascend::MutexLock lock(&m->mu_);
    if (m->state_ != ModelState::kRecording) {
      return Error(ACL_ERROR_RT_MODEL_EXECUTE,
                   absl::StrCat("model ", m->id_,
                                " was built already (aclmdlRIBuildEnd)"));
    }
  }
  ASCEND_RETURN_IF_ERROR(AddStream(m, s, flag == kModelStreamHead));
  s->SetRecorder(m->recorder_);
  return absl::OkStatus();
}

absl::Status Models::UnbindStream(void* model, void* stream) {
  ASCEND_ASSIGN_OR_RETURN(
      auto found, BuiltModelStream(model, stream, "aclmdlRIUnbindStream"));
  const std::shared_ptr<Model>& m = found.first;
  const std::shared_ptr<Stream>& s = found.second;
  {
    ascend::MutexLock lock(&m->mu_);
    ASCEND_ASSIGN_OR_RETURN(uint32_t index, m->StreamIndexLocked(*s));
    // The recorded program stays with the model's runner.
    m->streams_[index].source.reset();
  }
  if (s->recorder() == m->recorder_) s->SetRecorder(nullptr);
  return absl::OkStatus();
}

absl::Status Models::EndTask(void* model, void* stream) {
  ASCEND_ASSIGN_OR_RETURN(auto found,
                          BuiltModelStream(model, stream, "aclmdlRIEndTask"));
  const std::shared_ptr<Model>& m = found.first;
  const std::shared_ptr<Stream>& s = found.second;
  ascend::MutexLock lock(&m->mu_);
  ASCEND_ASSIGN_OR_RETURN(uint32_t index, m->StreamIndexLocked(*s));
  m->AppendLocked(index, Control::kEnd);
  return absl::OkStatus();
}

absl::Status Models::BuildEnd(void* model) {
  ASCEND_ASSIGN_OR_RETURN(std::shared_ptr<Model> m, ResolveModel(model));
  if (m->kind_ != ModelKind::kBuilt) {
    return Error(ACL_ERROR_RT_PARAM_INVALID,
                 "aclmdlRIBuildEnd is for models of aclmdlRIBuildBegin");
  }
  std::vector<std::shared_ptr<Stream>> sources;
  {
    ascend::MutexLock lock(&m->mu_);
    if (m->state_ != ModelState::kRecording) {
      return Error(ACL_ERROR_RT_PARAM_INVALID,
                   absl::StrCat("model ", m->id_, " was built already"));
    }
    m->state_ = ModelState::kReady;
    for (const ModelStream& ms : m->streams_) {
      if (ms.source != nullptr) sources.push_back(ms.source);
    }
  }
  // Tasks issued to a bound stream after the build are not the model's.
  for (const auto& s : sources) {
    if (s->recorder() == m->recorder_) s->SetRecorder(nullptr);
  }
  return absl::OkStatus();
}

absl::Status Models::PersistentTaskClean(void* stream) {
  ASCEND_ASSIGN_OR_RETURN(std::shared_ptr<Stream> s,
                          runtime_.ResolveStream(stream));
  if ((s->flags() & ACL_STREAM_PERSISTENT) == 0) {
    return Error(ACL_ERROR_RT_PARAM_INVALID,
                 "aclrtPersistentTaskClean takes an ACL_STREAM_PERSISTENT "
                 "stream");
  }
  std::vector<std::shared_ptr<Model>> all;
  {
    ascend::MutexLock lock(&mu_);
    for (const auto& [h, m] : models_) all.push_back(m);
  }
  for (const auto& m : all) {
    if (m->kind_ != ModelKind::kBuilt) continue;
    ascend::MutexLock lock(&m->mu_);
    absl::StatusOr<uint32_t> index = m->StreamIndexLocked(*s);
    if (!index.ok()) continue;
    if (m->state_ != ModelState::kRecording) {
      return Error(ACL_ERROR_RT_MODEL_RUNNING,
                   "the stream's model was built already");
    }
    // The stream's tasks become no-ops; ids and positions stay.
    for (uint32_t ti : m->streams_[*index].program) {
      ModelTask& t = *m->tasks_[ti];
      if (t.control == Control::kNone) t.disabled = true;
    }
    m->streams_[*index].program.clear();
  }
  return absl::OkStatus();
}

// --- Labels and stream control
// -------------------------------------------------

absl::StatusOr<void*> Models::CreateLabel() {
  ASCEND_ASSIGN_OR_RETURN(int32_t device_id, runtime_.GetDevice());
  auto label = std::make_shared<Label>();
  label->device_id = device_id;
  ascend::MutexLock lock(&mu_);
  label->id = next_label_id_++;
  labels_[label->handle.value()] = label;
  return label->handle.value();
}

absl::Status Models::SetLabel(void* label, void* stream) {
  ASCEND_ASSIGN_OR_RETURN(std::shared_ptr<Label> l, ResolveLabel(label));
  ASCEND_ASSIGN_OR_RETURN(std::shared_ptr<Stream> s,
                          runtime_.ResolveStream(stream));
  ASCEND_RETURN_IF_ERROR(RefuseCapturing(*s, "aclrtSetLabel"));
  ASCEND_ASSIGN_OR_RETURN(
      auto rec, Recording(*s, ACL_ERROR_RT_STREAM_MODEL, "aclrtSetLabel"));
  const std::shared_ptr<Model>& m = rec.first;
  ascend::MutexLock lock(&m->mu_);
  if (l->set) {
    return Error(ACL_ERROR_RT_PARAM_INVALID,
                 absl::StrCat("label ", l->id, " was set already"));
  }
  ModelTask& t = m->AppendLocked(rec.second, Control::kLabel);
  t.label = l;
  l->model = m;
  l->stream = rec.second;
  l->position =
      static_cast<uint32_t>(m->streams_[rec.second].program.size() - 1);
  l->set = true;
  return absl::OkStatus();
}

absl::Status Models::DestroyLabel(void* label) {
  ascend::MutexLock lock(&mu_);
  if (labels_.erase(label) == 0) {
    return Error(ACL_ERROR_RT_PARAM_INVALID, "not a live label");
  }
  return absl::OkStatus();
}

absl::StatusOr<void*> Models::CreateLabelList(void* const* labels,
                                              size_t count) {
  if (count == 0 || count > 65535) {
    return Error(ACL_ERROR_RT_PARAM_INVALID,
                 absl::StrCat("label count ", count, " outside [1, 65535]"));
  }
  auto list = std::make_shared<LabelList>();
  for (size_t i = 0; i < count; ++i) {
    absl::StatusOr<std::shared_ptr<Label>> l = ResolveLabel(labels[i]);
    if (!l.ok()) {
      return Error(ACL_ERROR_RT_PARAM_INVALID,
                   absl::StrCat("labels[", i, "] is not a live label"));
    }
    list->labels.push_back(*l);
  }
  list->device_id = list->labels[0]->device_id;
  ascend::MutexLock lock(&mu_);
  lists_[list->handle.value()] = list;
  return list->handle.value();
}

absl::Status Models::DestroyLabelList(void* list) {
  ascend::MutexLock lock(&mu_);
  if (lists_.erase(list) == 0) {
    return Error(ACL_ERROR_RT_PARAM_INVALID, "not a live label list");
  }
  return absl::OkStatus();
}

absl::Status Models::SwitchLabelByIndex(void* ptr, uint32_t max_value,
                                        void* list, void* stream) {
  ASCEND_ASSIGN_OR_RETURN(std::shared_ptr<LabelList> l, ResolveList(list));
  if (max_value == 0) {
    return Error(ACL_ERROR_RT_PARAM_INVALID, "maxValue must be at least 1");
  }
  ASCEND_ASSIGN_OR_RETURN(std::shared_ptr<Stream> s,
                          runtime_.ResolveStream(stream));
  ASCEND_RETURN_IF_ERROR(Memory::Of(runtime_)->CheckTaskMemory(
      ptr, sizeof(uint32_t), s->device_id(), "ptr"));
  ASCEND_RETURN_IF_ERROR(RefuseCapturing(*s, "aclrtSwitchLabelByIndex"));
  ASCEND_ASSIGN_OR_RETURN(auto rec, Recording(*s, ACL_ERROR_RT_STREAM_MODEL,
                                              "aclrtSwitchLabelByIndex"));
  ascend::MutexLock lock(&rec.first->mu_);
  ModelTask& t = rec.first->AppendLocked(rec.second, Control::kSwitchLabel);
  t.list = l;
  t.value_ptr = ptr;
  t.max_value = max_value;
  return absl::OkStatus();
}

absl::Status Models::SwitchStream(void* left, int32_t cond, void* right,
                                  int32_t data_type, void* true_stream,
                                  void* stream) {
  if (cond < ACL_RT_EQUAL || cond > ACL_RT_LESS_OR_EQUAL) {
    return Error(ACL_ERROR_RT_PARAM_INVALID,
                 absl::StrCat("condition ", cond, " is not an aclrtCondition"));
  }
  if (data_type != ACL_RT_SWITCH_INT32 && data_type != ACL_RT_SWITCH_INT64) {
    return Error(ACL_ERROR_RT_PARAM_INVALID,
                 absl::StrCat("data type ", data_type,
                              " is not an aclrtCompareDataType"));
  }
  ASCEND_ASSIGN_OR_RETURN(std::shared_ptr<Stream> s,
                          runtime_.ResolveStream(stream));
  ASCEND_ASSIGN_OR_RETURN(std::shared_ptr<Stream> target,
                          runtime_.ResolveStream(true_stream));
  const size_t bytes = data_type == ACL_RT_SWITCH_INT64 ? 8 : 4;
  ASCEND_RETURN_IF_ERROR(Memory::Of(runtime_)->CheckTaskMemory(
      left, bytes, s->device_id(), "leftValue"));
  ASCEND_RETURN_IF_ERROR(Memory::Of(runtime_)->CheckTaskMemory(
      right, bytes, s->device_id(), "rightValue"));
  ASCEND_RETURN_IF_ERROR(RefuseCapturing(*s, "aclrtSwitchStream"));
  ASCEND_ASSIGN_OR_RETURN(
      auto rec, Recording(*s, ACL_ERROR_RT_STREAM_MODEL, "aclrtSwitchStream"));
  ascend::MutexLock lock(&rec.first->mu_);
  ASCEND_ASSIGN_OR_RETURN(uint32_t to, rec.first->StreamIndexLocked(*target));
  ModelTask& t = rec.first->AppendLocked(rec.second, Control::kSwitchStream);
  t.value_ptr = left;
  t.right_ptr = right;
  t.cond = cond;
  t.data_type = data_type;
  t.target = to;
  return absl::OkStatus();
}

absl::Status Models::ActiveStream(void* active, void* stream) {
  ASCEND_ASSIGN_OR_RETURN(std::shared_ptr<Stream> s,
                          runtime_.ResolveStream(stream));
  ASCEND_ASSIGN_OR_RETURN(std::shared_ptr<Stream> target,
                          runtime_.ResolveStream(active));
  ASCEND_RETURN_IF_ERROR(RefuseCapturing(*s, "aclrtActiveStream"));
  ASCEND_ASSIGN_OR_RETURN(
      auto rec, Recording(*s, ACL_ERROR_RT_STREAM_MODEL, "aclrtActiveStream"));
  ascend::MutexLock lock(&rec.first->mu_);
  ASCEND_ASSIGN_OR_RETURN(uint32_t to, rec.first->StreamIndexLocked(*target));
  ModelTask& t = rec.first->AppendLocked(rec.second, Control::kActiveStream);
  t.target = to;
  return absl::OkStatus();
}

// --- Conditional tasks
// ----------------------------------------------------------

absl::StatusOr<void*> Models::CondHandleCreate(void* model,
                                               uint32_t default_value,
                                               uint32_t flag) {
  if (flag > ACL_MODEL_RI_COND_HANDLE_ASSIGN_DEFAULT) {
    return Error(ACL_ERROR_RT_PARAM_INVALID,
                 absl::StrCat("condition handle flag ", flag, " is unknown"));
  }
  ASCEND_ASSIGN_OR_RETURN(std::shared_ptr<Model> m, ResolveModel(model));
  if (m->kind_ == ModelKind::kBuilt) {
    return Error(ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
                 "condition handles belong to captured models");
  }
  if (memory_ == nullptr) {
    return Error(ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
                 "condition handles need the memory family, which this "
                 "runtime was built without");
  }
  ASCEND_ASSIGN_OR_RETURN(
      void* ptr, memory_->Malloc(sizeof(uint64_t), ACL_MEM_MALLOC_HUGE_FIRST));
  const uint64_t v = default_value;
  std::vector<uint8_t> bytes(sizeof v);
  std::memcpy(bytes.data(), &v, sizeof v);
  absl::Status wrote = Memory::Of(runtime_)->WriteTaskMemory(
      ptr, bytes, m->device_id_, "condition value");
  if (!wrote.ok()) {
    (void)memory_->Free(ptr);
    return wrote;
  }
  auto c = std::make_shared<CondHandle>();
  c->ptr = static_cast<uint64_t*>(ptr);
  c->default_value = default_value;
  c->assign_default = flag == ACL_MODEL_RI_COND_HANDLE_ASSIGN_DEFAULT;
  ascend::MutexLock lock(&m->mu_);
  m->conds_.push_back(c);
  return c->handle.value();
}

absl::StatusOr<uint64_t*> Models::CondPtr(void* handle) {
  std::vector<std::shared_ptr<Model>> all;
  {
    ascend::MutexLock lock(&mu_);
    for (const auto& [h, m] : models_) all.push_back(m);
  }
  for (const auto& m : all) {
    ascend::MutexLock lock(&m->mu_);
    for (const auto& c : m->conds_) {
      if (c->handle.value() == handle) return c->ptr;
    }
  }
  return Error(ACL_ERROR_RT_PARAM_INVALID, "not a live condition handle");
}

absl::Status Models::AddCondTask(const aclmdlRICondTaskParams& params,
                                 void* stream, uint32_t flags) {
  if (flags != 0) {
    return Error(ACL_ERROR_RT_PARAM_INVALID, "flags must be 0");
  }
  // Read as an integer (see TaskSetParams).
  int32_t type;
  std::memcpy(&type, &params.type, sizeof type);
  if (type < ACL_MODEL_RI_COND_TYPE_IF ||
      type > ACL_MODEL_RI_COND_TYPE_SWITCH) {
    return Error(ACL_ERROR_RT_PARAM_INVALID,
                 absl::StrCat("condition type ", type, " is unknown"));
  }
  if (params.handle == nullptr || params.modelRIArray == nullptr) {
    return Error(ACL_ERROR_RT_PARAM_INVALID,
                 "params.handle and params.modelRIArray must not be NULL");
  }
  const uint32_t size = params.size;
  if ((type == ACL_MODEL_RI_COND_TYPE_IF && (size < 1 || size > 2)) ||
      (type == ACL_MODEL_RI_COND_TYPE_WHILE && size != 1) || size == 0) {
    return Error(
        ACL_ERROR_RT_PARAM_INVALID,
        absl::StrCat("a condition of type ", type, " takes ",
                     type == ACL_MODEL_RI_COND_TYPE_IF      ? "1 or 2"
                     : type == ACL_MODEL_RI_COND_TYPE_WHILE ? "1"
                                                            : "at least 1",
                     " branches, not ", size));
  }
  ASCEND_ASSIGN_OR_RETURN(std::shared_ptr<Stream> s,
                          runtime_.ResolveStream(stream));
  ASCEND_ASSIGN_OR_RETURN(
      auto rec,
      Recording(*s, ACL_ERROR_RT_STREAM_NOT_CAPTURED, "aclmdlRIAddCondTask"));
  const std::shared_ptr<Model>& m = rec.first;
  if (m->kind_ == ModelKind::kBuilt) {
    return Error(ACL_ERROR_RT_STREAM_NOT_CAPTURED,
                 "aclmdlRIAddCondTask needs a stream being captured");
  }
  std::shared_ptr<CondHandle> cond;
  {
    ascend::MutexLock lock(&m->mu_);
    for (const auto& c : m->conds_) {
      if (c->handle.value() == params.handle) cond = c;
    }
  }
  if (cond == nullptr) {
    return Error(ACL_ERROR_RT_PARAM_INVALID,
                 "params.handle is not a condition handle of the model being "
                 "captured");
  }
  std::vector<std::shared_ptr<Model>> branches;
  for (uint32_t i = 0; i < size; ++i) {
    absl::StatusOr<std::shared_ptr<Model>> b =
        NewModel(m->device_id_, static_cast<int>(ModelKind::kSub));
    if (!b.ok()) {
      for (const auto& made : branches) Erase(made);
      return b.status();
    }
    {
      ascend::MutexLock lock(&(*b)->mu_);
      (*b)->state_ = ModelState::kEmpty;
    }
    branches.push_back(*b);
  }
  {
    ascend::MutexLock lock(&m->mu_);
    ModelTask& t = m->AppendLocked(rec.second, Control::kCond);
    t.cond_handle = cond;
    t.cond_type = type;
    t.branches = branches;
  }
  for (uint32_t i = 0; i < size; ++i) {
    params.modelRIArray[i] = branches[i]->handle();
  }
  return absl::OkStatus();
}

}  // namespace ascend::rt
