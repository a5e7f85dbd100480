#include "runtime/timeline/timeline.h"

#include <sched.h>
#include <time.h>

#include <utility>

#include "absl/base/optimization.h"
#include "acl/acl_base.h"
#include "runtime/base/error.h"
#include "runtime/exception_info.h"
#include "runtime/runtime.h"
#include "runtime/stream.h"

namespace ascend::rt {
namespace {

// The model whose stream program runs on this thread (set around a
// program's task, read by the recorded tasks it runs), and whether this
// thread is inside an observer.
thread_local uint32_t tls_model = Submission::kNoModel;
thread_local bool tls_in_observer = false;

uint64_t NowNs() {
  timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return static_cast<uint64_t>(ts.tv_sec) * 1000000000ULL +
         static_cast<uint64_t>(ts.tv_nsec);
}

ascendclTaskKind KindOf(TaskKind kind) {
  switch (kind) {
    case TaskKind::kCopy:
      return ASCENDCL_TASK_COPY;
    case TaskKind::kMemset:
      return ASCENDCL_TASK_MEMSET;
    case TaskKind::kValueWrite:
      return ASCENDCL_TASK_VALUE_WRITE;
    case TaskKind::kValueWait:
      return ASCENDCL_TASK_VALUE_WAIT;
    case TaskKind::kEventRecord:
      return ASCENDCL_TASK_EVENT_RECORD;
    case TaskKind::kEventWait:
      return ASCENDCL_TASK_EVENT_WAIT;
    case TaskKind::kEventReset:
      return ASCENDCL_TASK_EVENT_RESET;
    case TaskKind::kNotify:
      return ASCENDCL_TASK_NOTIFY;
    case TaskKind::kHostFunc:
      return ASCENDCL_TASK_HOST_FUNC;
    case TaskKind::kKernel:
      return ASCENDCL_TASK_KERNEL;
    case TaskKind::kBuiltin:
      return ASCENDCL_TASK_BUILTIN;
    case TaskKind::kModelExecute:
      return ASCENDCL_TASK_MODEL_EXECUTE;
    case TaskKind::kMarker:
      return ASCENDCL_TASK_MARKER;
  }
  return ASCENDCL_TASK_MARKER;
}

// Restores the thread's model when a program's task ends.
class ScopedModel {
 public:
  explicit ScopedModel(uint32_t model) : saved_(tls_model) {
    if (model != Submission::kNoModel) tls_model = model;
  }
  ~ScopedModel() { tls_model = saved_; }
  ScopedModel(const ScopedModel&) = delete;
  ScopedModel& operator=(const ScopedModel&) = delete;

 private:
  const uint32_t saved_;
};

std::function<absl::Status()> Wrap(
    std::shared_ptr<const Timeline::TaskMeta> meta,
    std::function<absl::Status()> run) {
  if (!run) return run;
  return [meta = std::move(meta), run = std::move(run)] {
    return meta->timeline->RunObserved(*meta, run);
  };
}

}  // namespace

Timeline::Timeline(Runtime& runtime) : runtime_(runtime) {
  runtime_.tasks().AddHook(&hook_).IgnoreError();
}

Timeline::~Timeline() { delete observer_.exchange(nullptr); }

Timeline* Timeline::Of(const Runtime& runtime) {
  return runtime.family<Timeline>();
}

absl::Status Timeline::SetObserver(ascendclTaskObserver observer,
                                   void* user_data) {
  if (tls_in_observer) {
    return Error(ACL_ERROR_RT_PARAM_INVALID,
                 "the timeline's observer cannot be replaced from inside an "
                 "observer");
  }
  ascend::MutexLock lock(&set_mu_);
  Observer* fresh =
      observer != nullptr ? new Observer{observer, user_data} : nullptr;
  Observer* old = observer_.exchange(fresh, std::memory_order_seq_cst);
  // Calls that began before the flip may still use `old`; later ones see
  // `fresh`.
  const uint32_t parity = epoch_.fetch_add(1, std::memory_order_seq_cst) & 1U;
  while (calls_[parity].load(std::memory_order_seq_cst) != 0) sched_yield();
  delete old;
  return absl::OkStatus();
}

void Timeline::Report(const ascendclTaskRecord& record) {
  uint32_t parity;
  for (;;) {
    parity = epoch_.load(std::memory_order_seq_cst) & 1U;
    calls_[parity].fetch_add(1, std::memory_order_seq_cst);
    if ((epoch_.load(std::memory_order_seq_cst) & 1U) == parity) break;
    calls_[parity].fetch_sub(1, std::memory_order_seq_cst);
  }
  if (Observer* o = observer_.load(std::memory_order_seq_cst)) {
    tls_in_observer = true;
    o->fn(&record, o->user_data);
    tls_in_observer = false;
  }
  calls_[parity].fetch_sub(1, std::memory_order_release);
}

absl::Status Timeline::RunObserved(const TaskMeta& meta,
                                   const std::function<absl::Status()>& run) {
  ScopedModel model(meta.model_id);
  if (ABSL_PREDICT_TRUE(!observing())) return run();
  const uint64_t start = NowNs();
  absl::Status status = run();
  const uint64_t end = NowNs();
  ascendclTaskRecord record;
  record.kind = meta.kind;
  const Stream* stream = Stream::Current();
  record.deviceId = stream != nullptr ? stream->device_id() : meta.device_id;
  record.streamId = stream != nullptr ? stream->id() : meta.stream_id;
  record.modelId = tls_model;
  record.threadId = meta.thread_id;
  record.result = status.ok() ? ACL_SUCCESS : ErrorCode(status);
  record.startNs = start;
  record.endNs = end;
  record.api = meta.api;
  record.name = meta.name.c_str();
  Report(record);
  return status;
}

absl::Status Timeline::Hook::OnSubmit(Submission& s, bool& taken) {
  // A task recorded into a model runs at every execution: it is wrapped
  // whether or not anybody observes now.
  const bool recorded = s.divertable && s.stream->recording();
  if (ABSL_PREDICT_TRUE(!timeline_.observing()) && !recorded) {
    return absl::OkStatus();
  }
  auto meta = std::make_shared<TaskMeta>(TaskMeta{
      &timeline_, KindOf(s.kind), s.api, std::string(s.name), s.model_id,
      CurrentThreadId(), s.stream->device_id(), s.stream->id()});
  if (s.make) {
    s.make = [make = std::move(s.make),
              meta = std::move(meta)](const TaskOptions& options) {
      Task task = make(options);
      task.run = Wrap(meta, std::move(task.run));
      return task;
    };
  } else {
    s.task.run = Wrap(std::move(meta), std::move(s.task.run));
  }
  return absl::OkStatus();
}

absl::Status Timeline::Mark(void* stream, std::string message) {
  absl::StatusOr<std::shared_ptr<Stream>> s = runtime_.ResolveStream(stream);
  if (!s.ok()) return s.status();
  Submission sub(TaskKind::kMarker, "ascendclTimelineMark", *std::move(s));
  sub.name = message;
  sub.task = Task{[] { return absl::OkStatus(); }, nullptr};
  return runtime_.tasks().Submit(std::move(sub));
}

FamilyRegistration TimelineFamily() {
  return {"timeline", &FamilyIndex<Timeline>,
          [](Runtime& rt) -> std::unique_ptr<Family> {
            return std::make_unique<Timeline>(rt);
          }};
}

}  // namespace ascend::rt
