// Executions and the management of models: execute, abort, destroy,
// update, names and streams (DESIGN.md §5.21).
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
#include "runtime/model/execution.h"
#include "runtime/model/model.h"
#include "runtime/model/model_objects.h"
#include "runtime/runtime.h"
#include "runtime/streams/streams.h"
#include "runtime/sync/event.h"

namespace ascend::rt {

// --- Execution
// ------------------------------------------------------------------

absl::Status Models::ExecuteAsync(void* model, void* stream) {
  ASCEND_ASSIGN_OR_RETURN(std::shared_ptr<Model> m, ResolveModel(model));
  ASCEND_ASSIGN_OR_RETURN(std::shared_ptr<Stream> s,
                          runtime_.ResolveStream(stream));
  ASCEND_RETURN_IF_ERROR(RefuseCapturing(*s, "aclmdlRIExecuteAsync"));
  if (s->recording()) {
    return Error(ACL_ERROR_RT_STREAM_MODEL,
                 "a model is not executed on a stream bound to a model");
  }
  {
    ascend::MutexLock lock(&m->mu_);
    if (m->kind_ == ModelKind::kSub) {
      return Error(ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
                   "a branch model runs with the model it belongs to");
    }
    if (m->state_ != ModelState::kReady) {
      return Error(ACL_ERROR_RT_MODEL_EXECUTE,
                   absl::StrCat("model ", m->id_,
                                " is not complete (aclmdlRIBuildEnd or "
                                "aclmdlRICaptureEnd first)"));
    }
    if (m->streams_.empty()) {
      return Error(ACL_ERROR_RT_MODEL_EXECUTE,
                   absl::StrCat("model ", m->id_, " has no streams"));
    }
  }
  if (s->device_id() != m->device_id_) {
    return Error(ACL_ERROR_RT_STREAM_CONTEXT,
                 "the stream and the model are on different devices");
  }
  auto exec = std::make_shared<Execution>(runtime_, m);
  exec->Instantiate();
  Submission sub(TaskKind::kModelExecute, "aclmdlRIExecuteAsync", std::move(s));
  sub.task =
      Task{[exec] { return exec->Run(); }, [exec] { exec->CancelUnused(); }};
  sub.writes.any = true;
  sub.model_id = m->id_;
  return runtime_.tasks().Submit(std::move(sub));
}

absl::Status Models::Execute(void* model, int32_t timeout_ms) {
  if (timeout_ms == 0 || timeout_ms < -1) {
    return Error(
        ACL_ERROR_RT_PARAM_INVALID,
        absl::StrCat("timeout ", timeout_ms, " ms is neither -1 nor positive"));
  }
  ASCEND_ASSIGN_OR_RETURN(std::shared_ptr<Model> m, ResolveModel(model));
  if (m->kind_ != ModelKind::kBuilt) {
    return Error(ACL_ERROR_RT_PARAM_INVALID,
                 "aclmdlRIExecute runs models of aclmdlRIBuildBegin; a "
                 "captured model runs with aclmdlRIExecuteAsync");
  }
  // The model's first runner names its context.
  std::shared_ptr<Stream> on;
  {
    ascend::MutexLock lock(&m->mu_);
    if (!m->streams_.empty()) on = m->streams_[0].runner;
  }
  if (on == nullptr) {
    return Error(ACL_ERROR_RT_MODEL_EXECUTE,
                 absl::StrCat("model ", m->id_, " has no streams"));
  }
  // The waiting stream is the model's device's too, whatever the calling
  // thread's current context is.
  ASCEND_ASSIGN_OR_RETURN(std::shared_ptr<Context> ctx,
                          Streams::Of(runtime_)->StreamContext(on->handle()));
  ASCEND_ASSIGN_OR_RETURN(
      void* handle, Streams::Of(runtime_)->CreateStreamIn(ctx, StreamConfig{}));
  absl::Status status = ExecuteAsync(model, handle);
  if (status.ok()) {
    const absl::Time deadline =
        timeout_ms == -1 ? absl::InfiniteFuture()
                         : absl::Now() + absl::Milliseconds(timeout_ms);
    status = Streams::Of(runtime_)->SynchronizeStream(handle, deadline);
    if (absl::IsDeadlineExceeded(status)) {
      (void)Abort(model);
      status = Error(ACL_ERROR_RT_STREAM_SYNC_TIMEOUT,
                     absl::StrCat("model ", m->id_, " did not finish within ",
                                  timeout_ms, " ms"));
    }
  }
  (void)Streams::Of(runtime_)->DestroyStreamAndWait(handle);
  return status;
}

absl::Status Models::Abort(void* model) {
  ASCEND_ASSIGN_OR_RETURN(std::shared_ptr<Model> m, ResolveModel(model));
  if (m->kind_ == ModelKind::kSub) {
    return Error(ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
                 "a branch model is aborted with the model it belongs to");
  }
  // 15, aclmdlRIAbort constraints: not for captured models (ACL Graph).
  if (m->kind_ == ModelKind::kCapture) {
    return Error(ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
                 "aclmdlRIAbort does not take a captured model");
  }
  m->aborts_.fetch_add(1, std::memory_order_acq_rel);
  std::vector<std::shared_ptr<Stream>> runners;
  {
    ascend::MutexLock lock(&m->mu_);
    for (const ModelStream& ms : m->streams_) {
      if (ms.runner) runners.push_back(ms.runner);
    }
  }
  for (const auto& r : runners) {
    (void)r->AbortTasks(absl::Now() + absl::Seconds(5));
  }
  return absl::OkStatus();
}

absl::Status Models::Destroy(void* model) {
  ASCEND_ASSIGN_OR_RETURN(std::shared_ptr<Model> m, ResolveModel(model));
  if (m->kind_ == ModelKind::kSub) {
    return Error(ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
                 "a branch model is destroyed with the model it belongs to");
  }
  {
    // CANN's runtime refuses to destroy a model its capture is still
    // recording into; the capture goes on as it was (aclmdlRICaptureEnd
    // first).
    ascend::MutexLock lock(&m->mu_);
    bool capturing = false;
    if (m->kind_ == ModelKind::kCapture &&
        m->state_ == ModelState::kRecording) {
      // A capture that ended (even refused) let go of its streams.
      for (const ModelStream& ms : m->streams_) {
        capturing = capturing || ms.source != nullptr;
      }
    }
    if (capturing) {
      return Error(ACL_ERROR_RT_MODEL_CAPTURED,
                   absl::StrCat("model ", m->id_,
                                " is still being captured; end the capture "
                                "first"));
    }
  }
  Erase(m);
  return absl::OkStatus();
}

absl::Status Models::AddDestroyCallback(void* model, aclrtCallback fn,
                                        void* data) {
  ASCEND_ASSIGN_OR_RETURN(std::shared_ptr<Model> m, ResolveModel(model));
  if (fn == nullptr) {
    return Error(ACL_ERROR_RT_PARAM_INVALID, "func must not be NULL");
  }
  if (m->kind_ == ModelKind::kSub) {
    return Error(ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
                 "branch models take no destroy callbacks");
  }
  ascend::MutexLock lock(&m->mu_);
  m->destroy_callbacks_.emplace_back(fn, data);
  return absl::OkStatus();
}

absl::Status Models::RemoveDestroyCallback(void* model, aclrtCallback fn) {
  ASCEND_ASSIGN_OR_RETURN(std::shared_ptr<Model> m, ResolveModel(model));
  if (fn == nullptr) {
    return Error(ACL_ERROR_RT_PARAM_INVALID, "func must not be NULL");
  }
  ascend::MutexLock lock(&m->mu_);
  auto& cbs = m->destroy_callbacks_;
  cbs.erase(std::remove_if(cbs.begin(), cbs.end(),
                           [fn](const auto& c) { return c.first == fn; }),
            cbs.end());
  return absl::OkStatus();
}

absl::Status Models::Update(void* model) {
  ASCEND_ASSIGN_OR_RETURN(std::shared_ptr<Model> m, ResolveModel(model));
  if (m->kind_ != ModelKind::kCapture) {
    return Error(ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
                 "aclmdlRIUpdate applies to captured models");
  }
  ascend::MutexLock lock(&m->mu_);
  for (auto& t : m->tasks_) {
    if (t->staged) {
      t->params = t->staged_params;
      t->task = std::move(t->staged_task);
      t->maker = std::move(t->staged_maker);
      t->staged = false;
    }
    if (t->staged_disable) {
      t->disabled = true;
      t->staged_disable = false;
    }
  }
  return absl::OkStatus();
}

absl::StatusOr<uint32_t> Models::Id(void* model) {
  ASCEND_ASSIGN_OR_RETURN(std::shared_ptr<Model> m, ResolveModel(model));
  return m->id_;
}

absl::StatusOr<std::string> Models::Name(void* model) {
  ASCEND_ASSIGN_OR_RETURN(std::shared_ptr<Model> m, ResolveModel(model));
  ascend::MutexLock lock(&m->mu_);
  return m->name_;
}

absl::Status Models::SetName(void* model, const char* name) {
  ASCEND_ASSIGN_OR_RETURN(std::shared_ptr<Model> m, ResolveModel(model));
  std::string n(name);
  if (n.size() > 511) n.resize(511);
  ascend::MutexLock lock(&m->mu_);
  m->name_ = std::move(n);
  return absl::OkStatus();
}

absl::StatusOr<std::vector<void*>> Models::Streams(void* model) {
  ASCEND_ASSIGN_OR_RETURN(std::shared_ptr<Model> m, ResolveModel(model));
  if (m->kind_ == ModelKind::kSub) {
    return Error(ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
                 "the streams of a branch model are its parent's");
  }
  std::vector<void*> out;
  ascend::MutexLock lock(&m->mu_);
  for (const ModelStream& ms : m->streams_) {
    out.push_back(m->kind_ == ModelKind::kBuilt ? ms.source_handle
                                                : ms.runner->handle());
  }
  return out;
}

absl::StatusOr<std::vector<void*>> Models::TasksByStream(void* stream) {
  std::vector<std::shared_ptr<Model>> all;
  {
    ascend::MutexLock lock(&mu_);
    for (const auto& [h, m] : models_) all.push_back(m);
  }
  for (const auto& m : all) {
    ascend::MutexLock lock(&m->mu_);
    for (const ModelStream& ms : m->streams_) {
      if ((ms.runner != nullptr && ms.runner->handle() == stream) ||
          (m->kind_ == ModelKind::kBuilt && ms.source_handle == stream)) {
        std::vector<void*> out;
        for (uint32_t ti : ms.program) {
          out.push_back(m->tasks_[ti]->handle.value());
        }
        return out;
      }
    }
  }
  return Error(ACL_ERROR_RT_PARAM_INVALID, "the stream is no model's stream");
}

}  // namespace ascend::rt
