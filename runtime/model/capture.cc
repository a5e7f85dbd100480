// Capture (aclmdlRICapture*) and task groups and updates (DESIGN.md §5.21).
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
#include "runtime/model/model.h"
#include "runtime/model/model_objects.h"
#include "runtime/runtime.h"
#include "runtime/sync/event.h"

namespace ascend::rt {

// --- Capture
// --------------------------------------------------------------------

absl::Status Models::RefuseCapturing(const Stream& stream, const char* api) {
  if (!stream.recording()) return absl::OkStatus();
  std::shared_ptr<TaskRecorder> r = stream.recorder();
  auto* rec = dynamic_cast<ModelRecorder*>(r.get());
  std::shared_ptr<Model> m = rec != nullptr ? rec->model() : nullptr;
  if (m == nullptr || m->kind_ == ModelKind::kBuilt) return absl::OkStatus();
  return Error(ACL_ERROR_RT_STREAM_CAPTURED,
               absl::StrCat(api, ": the stream is being captured"));
}

absl::Status Models::AddStream(const std::shared_ptr<Model>& model,
                               const std::shared_ptr<Stream>& s, bool head) {
  ASCEND_ASSIGN_OR_RETURN(std::shared_ptr<Stream> runner, NewRunner(*s));
  {
    ascend::MutexLock lock(&model->mu_);
    ModelStream ms;
    ms.source = s;
    ms.source_handle = s->handle();
    ms.runner = runner;
    ms.head = head;
    model->streams_.push_back(std::move(ms));
  }
  ascend::MutexLock lock(&mu_);
  runner_models_[runner->handle()] = model;
  return absl::OkStatus();
}

absl::Status Models::BeginCapture(const std::shared_ptr<Stream>& s,
                                  const std::shared_ptr<Model>& model,
                                  int32_t mode) {
  {
    ascend::MutexLock lock(&model->mu_);
    model->mode_ = mode;
    model->begin_thread_ = ThreadId();
    model->begin_counts_ = tls_captures;
    model->state_ = ModelState::kRecording;
  }
  ASCEND_RETURN_IF_ERROR(AddStream(model, s, /*head=*/true));
  {
    ascend::MutexLock lock(&mu_);
    ++mode_counts_[mode];
  }
  tls_captures->began[mode].fetch_add(1);
  captures_.fetch_add(1, std::memory_order_acq_rel);
  s->SetRecorder(model->recorder_);
  return absl::OkStatus();
}

absl::Status Models::CaptureBegin(void* stream, int32_t mode) {
  if (!ValidMode(mode)) {
    return Error(ACL_ERROR_RT_PARAM_INVALID,
                 absl::StrCat("capture mode ", mode, " is not one of CANN's"));
  }
  ASCEND_ASSIGN_OR_RETURN(std::shared_ptr<Stream> s,
                          runtime_.ResolveStream(stream));
  if (stream == nullptr) {
    return Error(ACL_ERROR_RT_STREAM_CAPTURE_IMPLICIT,
                 "the default stream cannot be captured");
  }
  if (s->recording()) {
    return Error(ACL_ERROR_RT_STREAM_CAPTURED,
                 "the stream is already being captured or is bound to a "
                 "model");
  }
  ASCEND_ASSIGN_OR_RETURN(
      std::shared_ptr<Model> m,
      NewModel(s->device_id(), static_cast<int>(ModelKind::kCapture)));
  absl::Status began = BeginCapture(s, m, mode);
  if (!began.ok()) {
    ascend::MutexLock lock(&mu_);
    models_.erase(m->handle());
  }
  return began;
}

absl::Status Models::CaptureToModelBegin(void* stream, void* model,
                                         int32_t mode) {
  if (!ValidMode(mode)) {
    return Error(ACL_ERROR_RT_PARAM_INVALID,
                 absl::StrCat("capture mode ", mode, " is not one of CANN's"));
  }
  ASCEND_ASSIGN_OR_RETURN(std::shared_ptr<Model> m, ResolveModel(model));
  if (m->kind_ != ModelKind::kSub) {
    return Error(ACL_ERROR_RT_PARAM_INVALID,
                 "aclmdlRICaptureToModelRIBegin takes a branch model of "
                 "aclmdlRIAddCondTask");
  }
  {
    ascend::MutexLock lock(&m->mu_);
    if (m->state_ != ModelState::kEmpty) {
      return Error(ACL_ERROR_RT_MODEL_CAPTURED,
                   absl::StrCat("model ", m->id_, " was captured already"));
    }
  }
  ASCEND_ASSIGN_OR_RETURN(std::shared_ptr<Stream> s,
                          runtime_.ResolveStream(stream));
  if (s->recording()) {
    return Error(ACL_ERROR_RT_STREAM_CAPTURED,
                 "the stream is already being captured");
  }
  return BeginCapture(s, m, mode);
}

absl::Status Models::CaptureInfo(void* stream, int32_t* status, void** model) {
  ASCEND_ASSIGN_OR_RETURN(std::shared_ptr<Stream> s,
                          runtime_.ResolveStream(stream));
  int32_t st = ACL_MODEL_RI_CAPTURE_STATUS_NONE;
  void* handle = nullptr;
  if (s->recording()) {
    std::shared_ptr<TaskRecorder> r = s->recorder();
    auto* rec = dynamic_cast<ModelRecorder*>(r.get());
    std::shared_ptr<Model> m = rec != nullptr ? rec->model() : nullptr;
    if (m != nullptr && m->kind_ != ModelKind::kBuilt) {
      ascend::MutexLock lock(&m->mu_);
      st = m->invalidated_ ? ACL_MODEL_RI_CAPTURE_STATUS_INVALIDATED
                           : ACL_MODEL_RI_CAPTURE_STATUS_ACTIVE;
      handle = m->handle();
    }
  }
  if (status != nullptr) *status = st;
  if (model != nullptr) *model = handle;
  return absl::OkStatus();
}

absl::StatusOr<void*> Models::CaptureEnd(void* stream) {
  ASCEND_ASSIGN_OR_RETURN(std::shared_ptr<Stream> s,
                          runtime_.ResolveStream(stream));
  std::shared_ptr<TaskRecorder> r = s->recorder();
  auto* rec = dynamic_cast<ModelRecorder*>(r.get());
  std::shared_ptr<Model> m = rec != nullptr ? rec->model() : nullptr;
  if (m == nullptr || m->kind_ == ModelKind::kBuilt) {
    return Error(ACL_ERROR_RT_STREAM_NOT_CAPTURED,
                 "the stream is not being captured");
  }
  std::vector<std::shared_ptr<Stream>> sources;
  absl::Status verdict;
  bool destroy = false;
  {
    ascend::MutexLock lock(&m->mu_);
    if (m->streams_[0].source != s) {
      return Error(ACL_ERROR_RT_STREAM_CAPTURE_UNMATCHED,
                   "aclmdlRICaptureEnd must be called on the stream that "
                   "began the capture, not on a joined one");
    }
    for (ModelStream& ms : m->streams_) {
      if (ms.source != nullptr) sources.push_back(ms.source);
    }
    if (m->mode_ != ACL_MODEL_RI_CAPTURE_MODE_RELAXED &&
        m->begin_thread_ != ThreadId()) {
      verdict = Error(ACL_ERROR_RT_STREAM_CAPTURE_WRONG_THREAD,
                      "the capture was begun on another thread (only a "
                      "RELAXED capture may end elsewhere)");
    } else if (m->invalidated_) {
      verdict = Error(ACL_ERROR_RT_STREAM_CAPTURE_INVALIDATED,
                      "the capture was invalidated");
      destroy = true;
    } else {
      for (const ModelStream& ms : m->streams_) {
        if (ms.open_group != nullptr) {
          verdict = Error(ACL_ERROR_STREAM_TASK_GROUP_STATUS,
                          "a task group is still open");
          destroy = true;
          break;
        }
      }
      for (const auto& t : m->tasks_) {
        for (const auto& b : t->branches) {
          ascend::MutexLock blk(&b->mu_);
          if (verdict.ok() && b->state_ == ModelState::kRecording) {
            verdict = Error(ACL_ERROR_RT_SUB_ACLGRAPH_IS_CAPTURING,
                            "a branch model is still being captured");
            destroy = true;
          }
        }
      }
      // Every joined stream must be joined back: the origin runs after
      // each one's last task.
      const ModelStream& origin = m->streams_[0];
      for (uint32_t i = 1; verdict.ok() && i < m->streams_.size(); ++i) {
        const ModelStream& ms = m->streams_[i];
        const int64_t last =
            ms.program.empty() ? -1 : static_cast<int64_t>(ms.program.back());
        const int64_t known =
            i < origin.after.size() ? origin.after[i] : int64_t{-1};
        if (last >= 0 && known < last) {
          verdict = Error(ACL_ERROR_RT_STREAM_UNJOINED,
                          absl::StrCat("captured stream ", i,
                                       " was not joined back to the origin "
                                       "stream before aclmdlRICaptureEnd"));
          destroy = true;
        }
      }
    }
    if (verdict.ok()) {
      m->state_ = ModelState::kReady;
    }
    for (ModelStream& ms : m->streams_) ms.source.reset();
    m->recorded_.clear();
    m->record_clock_.clear();
  }
  for (const auto& src : sources) {
    if (src->recorder() == m->recorder_) src->SetRecorder(nullptr);
  }
  {
    ascend::MutexLock lock(&mu_);
    --mode_counts_[m->mode_];
  }
  {
    std::shared_ptr<ThreadCaptures> counts;
    {
      ascend::MutexLock lock(&m->mu_);
      counts = std::move(m->begin_counts_);
    }
    if (counts != nullptr && counts->began[m->mode_].load() > 0) {
      counts->began[m->mode_].fetch_sub(1);
    }
  }
  captures_.fetch_sub(1, std::memory_order_acq_rel);
  if (!verdict.ok()) {
    if (destroy) {
      if (m->kind_ == ModelKind::kSub) {
        ascend::MutexLock lock(&m->mu_);
        m->state_ = ModelState::kEmpty;
        m->tasks_.clear();
        m->streams_.clear();
      } else {
        Erase(m);
      }
    }
    return verdict;
  }
  return m->handle();
}

absl::Status Models::ExchangeMode(int32_t* mode) {
  if (!ValidMode(*mode)) {
    return Error(ACL_ERROR_RT_PARAM_INVALID,
                 absl::StrCat("capture mode ", *mode, " is not one of CANN's"));
  }
  std::swap(*mode, tls_exchange_mode);
  return absl::OkStatus();
}

absl::Status Models::CheckUnsafeCall(const char* api) {
  if (!capturing()) return absl::OkStatus();
  const int32_t ex = tls_exchange_mode;
  if (ex == ACL_MODEL_RI_CAPTURE_MODE_RELAXED) return absl::OkStatus();
  bool denied = false;
  if (ex == ACL_MODEL_RI_CAPTURE_MODE_GLOBAL) {
    ascend::MutexLock lock(&mu_);
    denied =
        mode_counts_[ACL_MODEL_RI_CAPTURE_MODE_GLOBAL] > 0 ||
        tls_captures->began[ACL_MODEL_RI_CAPTURE_MODE_THREAD_LOCAL].load() > 0;
  } else {
    denied =
        tls_captures->began[ACL_MODEL_RI_CAPTURE_MODE_GLOBAL].load() > 0 ||
        tls_captures->began[ACL_MODEL_RI_CAPTURE_MODE_THREAD_LOCAL].load() > 0;
  }
  if (!denied) return absl::OkStatus();
  return Error(ACL_ERROR_RT_CAPTURE_MODE_NOT_SUPPORT,
               absl::StrCat(api,
                            " is not allowed while a stream is captured in "
                            "this capture mode (see "
                            "aclmdlRICaptureThreadExchangeMode)"));
}

absl::Status Models::RefuseCapturedEvent(const Event& event, const char* api) {
  if (!capturing()) return absl::OkStatus();
  std::vector<std::shared_ptr<Model>> capturing;
  {
    ascend::MutexLock lock(&mu_);
    for (const auto& [h, m] : models_) {
      if (m->kind_ != ModelKind::kBuilt) capturing.push_back(m);
    }
  }
  for (const auto& m : capturing) {
    ascend::MutexLock lock(&m->mu_);
    if (m->state_ == ModelState::kRecording &&
        m->recorded_.count(event.handle()) != 0) {
      return Error(ACL_ERROR_RT_EVENT_CAPTURED,
                   absl::StrCat(api,
                                ": the event was recorded in a capture "
                                "still in progress"));
    }
  }
  return absl::OkStatus();
}

absl::Status Models::JoinCapture(const Event& event,
                                 const std::shared_ptr<Stream>& stream) {
  std::vector<std::shared_ptr<Model>> capturing;
  {
    ascend::MutexLock lock(&mu_);
    for (const auto& [h, m] : models_) {
      if (m->kind_ != ModelKind::kBuilt) capturing.push_back(m);
    }
  }
  for (const auto& m : capturing) {
    bool joins = false;
    {
      ascend::MutexLock lock(&m->mu_);
      joins = m->state_ == ModelState::kRecording &&
              m->recorded_.count(event.handle()) != 0;
    }
    if (!joins) continue;
    if (stream->recording()) return absl::OkStatus();
    // A joined stream starts with the execution too: its first task is the
    // wait that joined it.
    ASCEND_RETURN_IF_ERROR(AddStream(m, stream, /*head=*/true));
    {
      ascend::MutexLock lock(&m->mu_);
      for (ModelStream& other : m->streams_) {
        other.after.resize(m->streams_.size(), -1);
      }
    }
    stream->SetRecorder(m->recorder_);
    return absl::OkStatus();
  }
  return absl::OkStatus();
}

absl::Status Models::NoteExternalUse(const Stream& stream, const Event& event,
                                     bool record) {
  const char* const flag =
      record ? "ACL_EVENT_RECORD_EXTERNAL" : "ACL_EVENT_WAIT_EXTERNAL";
  ASCEND_ASSIGN_OR_RETURN(
      auto rec, Recording(stream, ACL_ERROR_RT_STREAM_NOT_CAPTURED, flag));
  const std::shared_ptr<Model>& m = rec.first;
  if (m->kind_ == ModelKind::kSub) {
    return Error(ACL_ERROR_RT_PARAM_INVALID,
                 absl::StrCat(flag,
                              " is not supported in the branch model of "
                              "a conditional task (a sub-graph)"));
  }
  ascend::MutexLock lock(&m->mu_);
  auto [it, inserted] = m->external_uses_.emplace(event.handle(), record);
  if (!inserted) {
    return Error(
        ACL_ERROR_RT_PARAM_INVALID,
        absl::StrCat("event ", event.id(), " already has an ",
                     it->second ? "ACL_EVENT_RECORD_EXTERNAL record"
                                : "ACL_EVENT_WAIT_EXTERNAL wait",
                     " in model ", m->id_,
                     ": one external record or wait per event per graph "
                     "(use another event)"));
  }
  return absl::OkStatus();
}

absl::StatusOr<bool> Models::WaitsUntilSet(const Stream& stream,
                                           const Event& event, uint32_t flag) {
  std::shared_ptr<TaskRecorder> r = stream.recorder();
  if (dynamic_cast<ModelRecorder*>(r.get()) == nullptr) return false;
  ASCEND_ASSIGN_OR_RETURN(auto rec, Recording(stream, ACL_ERROR_RT_STREAM_MODEL,
                                              "aclrtStreamWaitEvent"));
  const std::shared_ptr<Model>& m = rec.first;
  const uint32_t index = rec.second;
  if (m->kind_ == ModelKind::kBuilt) return false;
  // ACL_EVENT_WAIT_EXTERNAL: each execution waits for the record issued last
  // before it is enqueued (by a stream, or by another model's execution
  // enqueued before it), as a stream's wait does (DESIGN.md §5.21).
  if (flag == ACL_EVENT_WAIT_EXTERNAL) return false;
  // An ACL_EVENT_EXTERNAL event (the task-update pattern): until set.
  if ((event.flags() & ACL_EVENT_EXTERNAL) != 0) return true;
  ascend::MutexLock lock(&m->mu_);
  auto it = m->record_clock_.find(event.handle());
  if (it != m->record_clock_.end()) {
    // A join: this stream now runs after everything the record followed.
    std::vector<int64_t>& after = m->streams_[index].after;
    after.resize(m->streams_.size(), -1);
    for (size_t i = 0; i < it->second.size(); ++i) {
      after[i] = std::max(after[i], it->second[i]);
    }
    return false;
  }
  if (event.LatestRecord() != 0) {
    return Error(ACL_ERROR_RT_CAPTURE_DEPENDENCY,
                 absl::StrCat("event ", event.id(),
                              " was recorded outside the capture; wait for "
                              "it with ACL_EVENT_WAIT_EXTERNAL"));
  }
  return true;
}

// --- Task groups and updates
// --------------------------------------------------

absl::Status Models::TaskGroupBegin(void* stream) {
  ASCEND_ASSIGN_OR_RETURN(std::shared_ptr<Stream> s,
                          runtime_.ResolveStream(stream));
  ASCEND_ASSIGN_OR_RETURN(auto rec,
                          Recording(*s, ACL_ERROR_RT_STREAM_NOT_CAPTURED,
                                    "aclmdlRICaptureTaskGrpBegin"));
  const std::shared_ptr<Model>& m = rec.first;
  if (m->kind_ == ModelKind::kBuilt) {
    return Error(ACL_ERROR_RT_STREAM_NOT_CAPTURED,
                 "the stream is not being captured");
  }
  ascend::MutexLock lock(&m->mu_);
  ModelStream& ms = m->streams_[rec.second];
  if (ms.open_group != nullptr) {
    return Error(ACL_ERROR_STREAM_TASK_GROUP_STATUS,
                 "a task group is already open on the stream");
  }
  ms.open_group = std::make_shared<TaskGroup>();
  ms.open_group->model = m;
  return absl::OkStatus();
}

absl::StatusOr<void*> Models::TaskGroupEnd(void* stream) {
  ASCEND_ASSIGN_OR_RETURN(std::shared_ptr<Stream> s,
                          runtime_.ResolveStream(stream));
  ASCEND_ASSIGN_OR_RETURN(auto rec,
                          Recording(*s, ACL_ERROR_RT_STREAM_NOT_CAPTURED,
                                    "aclmdlRICaptureTaskGrpEnd"));
  const std::shared_ptr<Model>& m = rec.first;
  ascend::MutexLock lock(&m->mu_);
  ModelStream& ms = m->streams_[rec.second];
  if (ms.open_group == nullptr) {
    return Error(ACL_ERROR_STREAM_TASK_GROUP_STATUS,
                 "no task group is open on the stream");
  }
  if (m->invalidated_) {
    ms.open_group = nullptr;
    return Error(ACL_ERROR_RT_STREAM_CAPTURE_INVALIDATED,
                 "the capture was invalidated");
  }
  std::shared_ptr<TaskGroup> g = std::move(ms.open_group);
  ms.open_group = nullptr;
  m->groups_.push_back(g);
  return g->handle.value();
}

namespace {

// Finds a task group by handle among the live models.
std::shared_ptr<TaskGroup> FindGroup(
    const std::vector<std::shared_ptr<Model>>& models, const void* handle) {
  for (const auto& m : models) {
    ascend::MutexLock lock(&m->mu_);
    for (const auto& g : m->groups_) {
      if (g->handle.value() == handle) return g;
    }
  }
  return nullptr;
}

}  // namespace

absl::Status Models::TaskUpdateBegin(void* stream, void* group) {
  ASCEND_ASSIGN_OR_RETURN(std::shared_ptr<Stream> s,
                          runtime_.ResolveStream(stream));
  if (s->recording()) {
    std::shared_ptr<TaskRecorder> r = s->recorder();
    if (dynamic_cast<UpdateRecorder*>(r.get()) != nullptr) {
      return Error(ACL_ERROR_STREAM_TASK_GROUP_STATUS,
                   "the stream is already updating a task group");
    }
    ASCEND_RETURN_IF_ERROR(
        RefuseCapturing(*s, "aclmdlRICaptureTaskUpdateBegin"));
    return Error(ACL_ERROR_RT_STREAM_MODEL, "the stream is bound to a model");
  }
  std::vector<std::shared_ptr<Model>> all;
  {
    ascend::MutexLock lock(&mu_);
    for (const auto& [h, m] : models_) all.push_back(m);
  }
  std::shared_ptr<TaskGroup> g = FindGroup(all, group);
  if (g == nullptr) {
    return Error(ACL_ERROR_RT_PARAM_INVALID, "not a live task group");
  }
  std::shared_ptr<Model> m = g->model.lock();
  if (m == nullptr) {
    return Error(ACL_ERROR_RT_PARAM_INVALID, "the task group's model is gone");
  }
  {
    ascend::MutexLock lock(&m->mu_);
    if (g->updating) {
      return Error(ACL_ERROR_STREAM_TASK_GROUP_STATUS,
                   "the task group is being updated by another stream");
    }
    g->updating = true;
  }
  auto recorder = std::make_shared<UpdateRecorder>();
  recorder->group = g;
  s->SetRecorder(recorder);
  return absl::OkStatus();
}

absl::Status Models::TaskUpdateEnd(void* stream) {
  ASCEND_ASSIGN_OR_RETURN(std::shared_ptr<Stream> s,
                          runtime_.ResolveStream(stream));
  std::shared_ptr<TaskRecorder> r = s->recorder();
  auto update = std::dynamic_pointer_cast<UpdateRecorder>(r);
  if (update == nullptr) {
    ASCEND_RETURN_IF_ERROR(RefuseCapturing(*s, "aclmdlRICaptureTaskUpdateEnd"));
    if (s->recording()) {
      return Error(ACL_ERROR_RT_STREAM_MODEL, "the stream is bound to a model");
    }
    return Error(ACL_ERROR_STREAM_TASK_GROUP_STATUS,
                 "the stream is not updating a task group");
  }
  s->SetRecorder(nullptr);
  std::vector<UpdateRecorder::Replacement> reps = update->Take();
  std::shared_ptr<TaskGroup> g = update->group;
  std::shared_ptr<Model> m = g->model.lock();
  if (m == nullptr) {
    return Error(ACL_ERROR_RT_PARAM_INVALID, "the task group's model is gone");
  }
  absl::Status verdict;
  {
    ascend::MutexLock lock(&m->mu_);
    g->updating = false;
    if (reps.size() != g->tasks.size()) {
      verdict =
          Error(ACL_ERROR_RT_INTERNAL_ERROR,
                absl::StrCat("the update issued ", reps.size(),
                             " tasks; the task group holds ", g->tasks.size()));
    }
    for (size_t i = 0; verdict.ok() && i < reps.size(); ++i) {
      const ModelTask& t = *m->tasks_[g->tasks[i]];
      if (t.params.type != reps[i].params.type) {
        verdict = Error(ACL_ERROR_RT_MODEL_UPDATE_FAILED,
                        absl::StrCat("update task ", i, " is a ",
                                     TaskTypeName(reps[i].params.type),
                                     " task; the group's is ",
                                     TaskTypeName(t.params.type)));
      }
    }
  }
  if (!verdict.ok()) {
    for (auto& rep : reps) {
      if (rep.task && rep.task->cancel) rep.task->cancel();
    }
    return verdict;
  }
  // The update happens in the update stream's order.
  auto shared = std::make_shared<std::vector<UpdateRecorder::Replacement>>(
      std::move(reps));
  std::weak_ptr<Model> weak = m;
  return runtime_.tasks().Submit(
      TaskKind::kMarker, "aclmdlRICaptureTaskUpdateEnd", std::move(s),
      Task{[weak, g, shared] {
             std::shared_ptr<Model> model = weak.lock();
             if (model == nullptr) return absl::OkStatus();
             ascend::MutexLock lock(&model->mu_);
             for (size_t i = 0; i < shared->size(); ++i) {
               ModelTask& t = *model->tasks_[g->tasks[i]];
               t.params = (*shared)[i].params;
               t.task = (*shared)[i].task;
               t.maker = (*shared)[i].maker;
             }
             return absl::OkStatus();
           },
           nullptr});
}

}  // namespace ascend::rt
