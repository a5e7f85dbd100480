// Task queries (aclmdlRITask*) and the readable dumps (aclmdlRIDebugPrint,
// aclmdlRIDebugJsonPrint; DESIGN.md §5.21).
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
#include "runtime/kernel/kernel.h"
#include "runtime/memory/memory.h"
#include "runtime/model/model.h"
#include "runtime/model/model_objects.h"
#include "runtime/runtime.h"
#include "runtime/sync/event.h"
#include "runtime/sync/sync.h"

namespace ascend::rt {

namespace {

absl::Status NoMemoryFamily() {
  return Error(ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
               "value tasks need the memory family, which this runtime was "
               "built without");
}

absl::Status NoSyncFamily() {
  return Error(ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
               "event tasks need the synchronisation family, which this "
               "runtime was built without");
}

// The task behind an aclmdlRITask, with its model locked by the caller.
struct FoundTask {
  std::shared_ptr<Model> model;
  ModelTask* task = nullptr;
};

}  // namespace

#define ASCEND_FIND_TASK(found, wanted)                                   \
  FoundTask found;                                                        \
  {                                                                       \
    std::vector<std::shared_ptr<Model>> all;                              \
    {                                                                     \
      ascend::MutexLock lock(&mu_);                                       \
      for (const auto& [h, m] : models_) all.push_back(m);                \
    }                                                                     \
    for (const auto& m : all) {                                           \
      ascend::MutexLock lock(&m->mu_);                                    \
      for (const auto& t : m->tasks_) {                                   \
        if (t->handle.value() == (wanted)) found = FoundTask{m, t.get()}; \
      }                                                                   \
    }                                                                     \
    if (found.task == nullptr) {                                          \
      return Error(ACL_ERROR_RT_PARAM_INVALID, "not a live model task");  \
    }                                                                     \
  }

absl::StatusOr<aclmdlRITaskType> Models::TaskType(void* task) {
  ASCEND_FIND_TASK(found, task);
  ascend::MutexLock lock(&found.model->mu_);
  return static_cast<aclmdlRITaskType>(found.task->params.type);
}

absl::StatusOr<uint32_t> Models::TaskSeqId(void* task) {
  ASCEND_FIND_TASK(found, task);
  return found.task->seq;
}

absl::Status Models::TaskGetParams(void* task, aclmdlRITaskParams* params) {
  ASCEND_FIND_TASK(found, task);
  ascend::MutexLock lock(&found.model->mu_);
  const ModelTask& t = *found.task;
  std::memset(params, 0, sizeof *params);
  params->type = static_cast<aclmdlRITaskType>(t.params.type);
  params->taskGrp = t.group;
  if (!t.op_info.empty()) {
    params->opInfoPtr = const_cast<uint8_t*>(t.op_info.data());
    params->opInfoSize = t.op_info.size();
  }
  switch (t.params.type) {
    case ACL_MODEL_RI_TASK_KERNEL: {
      const KernelTaskInfo* k = t.task ? t.task->kernel : nullptr;
      params->kernelTaskParams.funcHandle = t.params.object;
      params->kernelTaskParams.numBlocks =
          static_cast<uint32_t>(t.params.value);
      if (k != nullptr) {
        params->kernelTaskParams.args = k->args_ptr;
        params->kernelTaskParams.argsSize = k->args_len;
        params->kernelTaskParams.isHostArgs = 1;
      }
      break;
    }
    case ACL_MODEL_RI_TASK_EVENT_RECORD:
    case ACL_MODEL_RI_TASK_EVENT_WAIT:
    case ACL_MODEL_RI_TASK_EVENT_RESET: {
      // The three event parameter structs share one layout.
      aclmdlRIEventRecordTaskParams& e = params->eventRecordTaskParams;
      e.event = t.params.object;
      absl::StatusOr<std::shared_ptr<Event>> event =
          runtime_.Resolve<Event>(t.params.object);
      e.eventFlag = event.ok() ? (*event)->flags() : 0;
      e.recordFlag = t.params.flag;
      break;
    }
    case ACL_MODEL_RI_TASK_VALUE_WRITE:
      params->valueWriteTaskParams.devAddr = t.params.object;
      params->valueWriteTaskParams.value = t.params.value;
      break;
    case ACL_MODEL_RI_TASK_VALUE_WAIT:
      params->valueWaitTaskParams.devAddr = t.params.object;
      params->valueWaitTaskParams.value = t.params.value;
      params->valueWaitTaskParams.flag = t.params.flag;
      break;
    default:
      break;
  }
  return absl::OkStatus();
}

absl::Status Models::TaskSetParams(void* task,
                                   const aclmdlRITaskParams& params) {
  ASCEND_FIND_TASK(found, task);
  std::shared_ptr<Stream> runner;
  int32_t type;
  {
    ascend::MutexLock lock(&found.model->mu_);
    type = found.task->params.type;
    runner = found.model->streams_[found.task->stream].runner;
  }
  // Read as an integer: a C caller's out-of-range enum loaded as the enum
  // is undefined behaviour (-fsanitize=enum).
  int32_t given;
  std::memcpy(&given, &params.type, sizeof given);
  if (given != type) {
    return Error(ACL_ERROR_RT_PARAM_INVALID,
                 absl::StrCat("the task is a ", TaskTypeName(type),
                              " task; the parameters are for a ",
                              TaskTypeName(given), " task"));
  }
  if (type == ACL_MODEL_RI_TASK_DEFAULT) {
    return Error(ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
                 "the parameters of this task cannot be set");
  }
  // The runtime builds the new task as it would be issued, onto a recorder
  // that keeps it.
  auto recorder = std::make_shared<UpdateRecorder>();
  runner->SetRecorder(recorder);
  void* handle = runner->handle();
  absl::Status built;
  switch (type) {
    case ACL_MODEL_RI_TASK_KERNEL: {
      const aclmdlRIKernelTaskParams& k = params.kernelTaskParams;
      LaunchArgs args;
      if (k.argsSize != 0 && k.args == nullptr) {
        built = Error(ACL_ERROR_RT_PARAM_INVALID, "args is NULL");
        break;
      }
      if (k.isHostArgs != 0 || k.args == nullptr) {
        const auto* b = static_cast<const uint8_t*>(k.args);
        args.bytes.assign(b, b + k.argsSize);
      } else {
        args.device = k.args;
        args.device_size = k.argsSize;
      }
      if (Kernels* kernels = Kernels::Of(runtime_)) {
        built = kernels->Launch(k.funcHandle, k.numBlocks, handle,
                                LaunchConfig{}, std::move(args));
      } else {
        built = Error(ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
                      "this runtime has no kernel family");
      }
      break;
    }
    case ACL_MODEL_RI_TASK_EVENT_RECORD:
      built = sync_ == nullptr ? NoSyncFamily()
                               : sync_->RecordEventFlagged(
                                     params.eventRecordTaskParams.event, handle,
                                     params.eventRecordTaskParams.recordFlag);
      break;
    case ACL_MODEL_RI_TASK_EVENT_WAIT:
      built = sync_ == nullptr ? NoSyncFamily()
                               : sync_->StreamWaitEventFor(
                                     handle, params.eventWaitTaskParams.event,
                                     absl::ZeroDuration(),
                                     params.eventWaitTaskParams.waitFlag);
      break;
    case ACL_MODEL_RI_TASK_EVENT_RESET:
      built = sync_ == nullptr ? NoSyncFamily()
                               : sync_->ResetEvent(
                                     params.eventResetTaskParams.event, handle);
      break;
    case ACL_MODEL_RI_TASK_VALUE_WRITE:
      built = memory_ == nullptr
                  ? NoMemoryFamily()
                  : memory_->ValueWrite(params.valueWriteTaskParams.devAddr,
                                        params.valueWriteTaskParams.value, 0,
                                        handle);
      break;
    case ACL_MODEL_RI_TASK_VALUE_WAIT:
      built = memory_ == nullptr
                  ? NoMemoryFamily()
                  : memory_->ValueWait(params.valueWaitTaskParams.devAddr,
                                       params.valueWaitTaskParams.value,
                                       params.valueWaitTaskParams.flag, handle);
      break;
    default:
      break;
  }
  runner->SetRecorder(nullptr);
  std::vector<UpdateRecorder::Replacement> reps = recorder->Take();
  ASCEND_RETURN_IF_ERROR(built);
  if (reps.size() != 1) {
    return Error(ACL_ERROR_RT_MODEL_UPDATE_FAILED,
                 "the parameters did not make one task");
  }
  ascend::MutexLock lock(&found.model->mu_);
  ModelTask& t = *found.task;
  t.staged = true;
  t.staged_params = reps[0].params;
  t.staged_task = std::move(reps[0].task);
  t.staged_maker = std::move(reps[0].maker);
  return absl::OkStatus();
}

absl::Status Models::TaskDisable(void* task) {
  ASCEND_FIND_TASK(found, task);
  ascend::MutexLock lock(&found.model->mu_);
  found.task->staged_disable = true;
  return absl::OkStatus();
}

absl::Status Models::KernelTaskAttribute(void* task, int32_t attr,
                                         aclrtLaunchKernelAttrValue* value) {
  ASCEND_FIND_TASK(found, task);
  ascend::MutexLock lock(&found.model->mu_);
  const ModelTask& t = *found.task;
  const KernelTaskInfo* k = t.task ? t.task->kernel : nullptr;
  if (t.params.type != ACL_MODEL_RI_TASK_KERNEL || k == nullptr) {
    return Error(ACL_ERROR_RT_PARAM_INVALID, "the task is not a kernel task");
  }
  std::memset(value, 0, sizeof *value);
  switch (attr) {
    case ACL_RT_LAUNCH_KERNEL_ATTR_SCHEM_MODE:
      value->schemMode = k->sched_mode;
      return absl::OkStatus();
    case ACL_RT_LAUNCH_KERNEL_ATTR_TIMEOUT:
      value->timeout = static_cast<uint16_t>(k->timeout_us / 1000000);
      return absl::OkStatus();
    case ACL_RT_LAUNCH_KERNEL_ATTR_TIMEOUT_US:
      value->timeoutUs.timeoutLow = static_cast<uint32_t>(k->timeout_us);
      value->timeoutUs.timeoutHigh = static_cast<uint32_t>(k->timeout_us >> 32);
      return absl::OkStatus();
    case ACL_RT_LAUNCH_KERNEL_ATTR_DYN_UBUF_SIZE:
    case ACL_RT_LAUNCH_KERNEL_ATTR_DATA_DUMP:
    case ACL_RT_LAUNCH_KERNEL_ATTR_ENABLE_PROFILING:
      return absl::OkStatus();  // none of these are in use: 0
    default:
      return Error(
          ACL_ERROR_RT_PARAM_INVALID,
          absl::StrCat("kernel task attribute ", attr, " cannot be queried"));
  }
}

// --- Readable output
// -------------------------------------------------------------

absl::StatusOr<std::string> Models::DebugText(void* model) {
  ASCEND_ASSIGN_OR_RETURN(std::shared_ptr<Model> m, ResolveModel(model));
  ascend::MutexLock lock(&m->mu_);
  std::string out =
      absl::StrCat("digraph model_", m->id_, " {\n  label=\"model ", m->id_,
                   " device ", m->device_id_, " ", m->name_, "\";\n");
  for (uint32_t i = 0; i < m->streams_.size(); ++i) {
    const ModelStream& ms = m->streams_[i];
    absl::StrAppend(&out, "  subgraph cluster_stream_", i,
                    " {\n    label=\"stream ", ms.runner ? ms.runner->id() : 0,
                    ms.head ? " (head)" : "", "\";\n");
    const ModelTask* prev = nullptr;
    for (uint32_t ti : ms.program) {
      const ModelTask& t = *m->tasks_[ti];
      const char* what = t.control == Control::kNone
                             ? TaskTypeName(t.params.type)
                             : ControlName(t.control);
      absl::StrAppend(&out, "    task_", t.seq, " [label=\"task ", t.seq, " ",
                      what, t.disabled ? " (disabled)" : "", "\"];\n");
      if (prev != nullptr) {
        absl::StrAppend(&out, "    task_", prev->seq, " -> task_", t.seq,
                        ";\n");
      }
      prev = &t;
    }
    absl::StrAppend(&out, "  }\n");
  }
  absl::StrAppend(&out, "}\n");
  return out;
}

absl::Status Models::DebugJson(void* model, const char* path, uint32_t flags) {
  if (flags > ACL_MDLRI_DEBUG_JSON_PRINT_VERBOSE) {
    return Error(ACL_ERROR_RT_PARAM_INVALID,
                 absl::StrCat("flags ", flags,
                              " is neither SUMMARY (0) nor VERBOSE (1)"));
  }
  ASCEND_ASSIGN_OR_RETURN(std::shared_ptr<Model> m, ResolveModel(model));
  std::string json = "{\"traceEvents\":[";
  {
    ascend::MutexLock lock(&m->mu_);
    bool first = true;
    for (uint32_t i = 0; i < m->streams_.size(); ++i) {
      const ModelStream& ms = m->streams_[i];
      uint32_t step = 0;
      for (uint32_t ti : ms.program) {
        const ModelTask& t = *m->tasks_[ti];
        const char* what = t.control == Control::kNone
                               ? TaskTypeName(t.params.type)
                               : ControlName(t.control);
        absl::StrAppend(
            &json, first ? "" : ",", "{\"name\":\"", what,
            "\",\"ph\":\"X\",\"ts\":", step, ",\"dur\":1,\"pid\":", m->id_,
            ",\"tid\":", ms.runner ? ms.runner->id() : 0,
            ",\"args\":{\"model_id\":", m->id_,
            ",\"stream_id\":", ms.runner ? ms.runner->id() : 0,
            ",\"task_id\":", t.seq, ",\"task_type\":\"", what, "\"");
        if (flags == ACL_MDLRI_DEBUG_JSON_PRINT_VERBOSE && t.task &&
            t.task->kernel != nullptr) {
          absl::StrAppend(&json, ",\"args_size\":", t.task->kernel->args_len,
                          ",\"blocks\":", t.task->kernel->blocks);
        }
        absl::StrAppend(&json, "}}");
        first = false;
        ++step;
      }
    }
  }
  absl::StrAppend(&json, "]}\n");
  std::ofstream file(path, std::ios::trunc);
  if (!file) {
    return Error(ACL_ERROR_RT_PARAM_INVALID,
                 absl::StrCat("cannot write ", path));
  }
  file << json;
  file.close();
  if (!file) {
    return Error(ACL_ERROR_RT_PARAM_INVALID,
                 absl::StrCat("cannot write ", path));
  }
  return absl::OkStatus();
}

}  // namespace ascend::rt
