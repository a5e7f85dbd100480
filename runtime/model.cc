// Model runtime instances: recording (capture and the build API), labels,
// stream control, conditional tasks, executions and the task queries
// (runtime/model.h, DESIGN.md §5.21).
#include "runtime/model.h"

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
#include "runtime/event.h"
#include "runtime/exception_info.h"
#include "runtime/runtime.h"

namespace ascend::rt {

// --- The recorded objects ---------------------------------------------------

enum class ModelKind : int {
  kCapture = 0,  // aclmdlRICaptureBegin .. End
  kBuilt = 1,    // aclmdlRIBuildBegin .. BuildEnd
  kSub = 2,      // a branch of a conditional task (aclmdlRIAddCondTask)
};

enum class ModelState : int {
  kRecording = 0,  // capturing or being built
  kReady = 1,      // executable
  kEmpty = 2,      // a sub-model not captured yet
};

enum class Control : int {
  kNone = 0,     // an ordinary task
  kLabel,        // aclrtSetLabel: a jump target
  kSwitchLabel,  // aclrtSwitchLabelByIndex
  kSwitchStream,
  kActiveStream,
  kEnd,   // aclmdlRIEndTask
  kCond,  // aclmdlRIAddCondTask
};

struct Label {
  int32_t device_id = 0;
  uint32_t id = 0;
  ObjectHandle handle;
  // Where aclrtSetLabel put it: the model, its stream and the position in
  // that stream's program (set once).
  std::weak_ptr<Model> model;
  uint32_t stream = 0;
  uint32_t position = 0;
  bool set = false;
};

struct LabelList {
  int32_t device_id = 0;
  ObjectHandle handle;
  std::vector<std::shared_ptr<Label>> labels;
};

struct CondHandle {
  ObjectHandle handle;
  uint64_t* ptr = nullptr;  // 8 bytes of device memory, the model's
  uint32_t default_value = 0;
  bool assign_default = false;
};

struct ModelTask {
  ObjectHandle handle;  // the aclmdlRITask
  uint32_t seq = 0;     // position in recording order, model-wide
  uint32_t stream = 0;  // the model stream
  Control control = Control::kNone;
  TaskParams params;
  // The current task (swapped by updates; read under the model's lock).
  std::shared_ptr<const Task> task;
  // Set for tasks with enqueue-time work: makes each execution's task.
  std::function<Task()> maker;
  // Staged by aclmdlRITaskSetParams / aclmdlRITaskDisable until
  // aclmdlRIUpdate.
  std::shared_ptr<const Task> staged_task;
  std::function<Task()> staged_maker;
  TaskParams staged_params;
  bool staged = false;
  bool staged_disable = false;
  bool disabled = false;
  void* group = nullptr;
  // Control operands.
  std::shared_ptr<Label> label;     // kLabel
  std::shared_ptr<LabelList> list;  // kSwitchLabel
  const void* value_ptr = nullptr;  // kSwitchLabel index / switch left
  const void* right_ptr = nullptr;  // kSwitchStream
  uint32_t max_value = 0;           // kSwitchLabel
  int32_t cond = 0;                 // kSwitchStream condition
  int32_t data_type = 0;            // kSwitchStream operand type
  uint32_t target = 0;              // kSwitchStream / kActiveStream stream
  std::shared_ptr<CondHandle> cond_handle;       // kCond
  int32_t cond_type = 0;                         // kCond
  std::vector<std::shared_ptr<Model>> branches;  // kCond
  // aclrtCacheLastTaskOpInfo / ExtendInfo: what the caller attached.
  std::vector<uint8_t> op_info;
  std::string extend_info;
};

struct TaskGroup {
  ObjectHandle handle;
  std::weak_ptr<Model> model;
  std::vector<uint32_t> tasks;  // indices into the model's tasks
  bool updating = false;
};

namespace {

const char* TaskTypeName(int type) {
  switch (type) {
    case ACL_MODEL_RI_TASK_KERNEL:
      return "KERNEL";
    case ACL_MODEL_RI_TASK_EVENT_RECORD:
      return "EVENT_RECORD";
    case ACL_MODEL_RI_TASK_EVENT_WAIT:
      return "EVENT_WAIT";
    case ACL_MODEL_RI_TASK_EVENT_RESET:
      return "EVENT_RESET";
    case ACL_MODEL_RI_TASK_VALUE_WRITE:
      return "VALUE_WRITE";
    case ACL_MODEL_RI_TASK_VALUE_WAIT:
      return "VALUE_WAIT";
    default:
      return "DEFAULT";
  }
}

const char* ControlName(Control c) {
  switch (c) {
    case Control::kLabel:
      return "LABEL_SET";
    case Control::kSwitchLabel:
      return "LABEL_SWITCH";
    case Control::kSwitchStream:
      return "STREAM_SWITCH";
    case Control::kActiveStream:
      return "STREAM_ACTIVE";
    case Control::kEnd:
      return "END_GRAPH";
    case Control::kCond:
      return "COND";
    default:
      return "";
  }
}

// The calling thread's capture interaction mode
// (aclmdlRICaptureThreadExchangeMode) and the captures it began, by mode.
thread_local int32_t tls_exchange_mode = ACL_MODEL_RI_CAPTURE_MODE_GLOBAL;
// Held by shared_ptr so that a capture ended on another thread (RELAXED,
// or the refused end that still exits a GLOBAL / THREAD_LOCAL capture)
// decrements the beginning thread's counts, not the ending thread's: a
// thread_local array decremented on the wrong thread left the beginning
// thread refused 107030 for good.
struct ThreadCaptures {
  std::atomic<int> began[3] = {0, 0, 0};
};
thread_local std::shared_ptr<ThreadCaptures> tls_captures =
    std::make_shared<ThreadCaptures>();
// The model task this thread recorded last, and its model.
thread_local std::weak_ptr<Model> tls_last_model;
thread_local uint32_t tls_last_task = 0;

uint32_t ThreadId() { return static_cast<uint32_t>(pthread_self()); }

}  // namespace

// --- The model
// ----------------------------------------------------------------

struct ModelStream {
  // The stream recorded from (capture: the user's stream; built: the bound
  // stream); null once unbound or the capture ended.
  std::shared_ptr<Stream> source;
  void* source_handle = nullptr;
  std::shared_ptr<Stream> runner;
  bool head = true;
  std::vector<uint32_t> program;  // task indices in stream order
  // Capture: for each model stream, the newest of its tasks this stream
  // is known to run after (a vector clock; joins are checked with it).
  std::vector<int64_t> after;
  // Capture: the open task group (aclmdlRICaptureTaskGrpBegin).
  std::shared_ptr<TaskGroup> open_group;
};

class Model : public std::enable_shared_from_this<Model> {
 public:
  Model(Models& models, int32_t device_id, uint32_t id, ModelKind kind)
      : models_(models), device_id_(device_id), id_(id), kind_(kind) {}

  Models& models_;
  const int32_t device_id_;
  const uint32_t id_;
  const ModelKind kind_;
  const ObjectHandle handle_;

  mutable ascend::Mutex mu_;
  ModelState state_ ABSL_GUARDED_BY(mu_) = ModelState::kRecording;
  std::string name_ ABSL_GUARDED_BY(mu_);
  std::vector<ModelStream> streams_ ABSL_GUARDED_BY(mu_);
  std::vector<std::unique_ptr<ModelTask>> tasks_ ABSL_GUARDED_BY(mu_);
  std::vector<std::shared_ptr<TaskGroup>> groups_ ABSL_GUARDED_BY(mu_);
  std::vector<std::shared_ptr<CondHandle>> conds_ ABSL_GUARDED_BY(mu_);
  std::vector<std::pair<aclrtCallback, void*>> destroy_callbacks_
      ABSL_GUARDED_BY(mu_);
  // Capture bookkeeping.
  int32_t mode_ = ACL_MODEL_RI_CAPTURE_MODE_GLOBAL;
  uint32_t begin_thread_ = 0;
  // The beginning thread's capture counts (see ThreadCaptures).
  std::shared_ptr<ThreadCaptures> begin_counts_ ABSL_GUARDED_BY(mu_);
  bool invalidated_ ABSL_GUARDED_BY(mu_) = false;
  // Events recorded in this capture: event -> (model stream, task seq).
  absl::flat_hash_map<const void*, std::pair<uint32_t, uint32_t>> recorded_
      ABSL_GUARDED_BY(mu_);
  // The vector clock of each recorded event (what a waiter learns).
  absl::flat_hash_map<const void*, std::vector<int64_t>> record_clock_
      ABSL_GUARDED_BY(mu_);
  // Executions in flight: one runs at a time, the others wait their turn.
  bool running_ ABSL_GUARDED_BY(mu_) = false;
  // aclmdlRIAbort calls so far: an execution stops when this moves past the
  // count it was enqueued at. (A flag cleared when an execution started lost
  // an abort made before the start, e.g. aclmdlRIExecute's on timeout.)
  std::atomic<uint64_t> aborts_{0};
  std::shared_ptr<TaskRecorder> recorder_;

  void* handle() const { return handle_.value(); }

  absl::StatusOr<uint32_t> StreamIndexLocked(const Stream& s) const
      ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_) {
    for (uint32_t i = 0; i < streams_.size(); ++i) {
      if (streams_[i].source.get() == &s) return i;
    }
    return Error(ACL_ERROR_RT_STREAM_MODEL,
                 absl::StrCat("stream is not a stream of model ", id_));
  }

  // Appends a task recorded on model stream `index`.
  ModelTask& AppendLocked(uint32_t index, Control control)
      ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_) {
    auto t = std::make_unique<ModelTask>();
    t->seq = static_cast<uint32_t>(tasks_.size());
    t->stream = index;
    t->control = control;
    ModelStream& ms = streams_[index];
    ms.program.push_back(t->seq);
    if (kind_ != ModelKind::kBuilt) {
      if (ms.after.size() < streams_.size())
        ms.after.resize(streams_.size(), -1);
      ms.after[index] = t->seq;
    }
    if (ms.open_group != nullptr && control == Control::kNone) {
      ms.open_group->tasks.push_back(t->seq);
      t->group = ms.open_group->handle.value();
    }
    tasks_.push_back(std::move(t));
    return *tasks_.back();
  }

  void Record(Stream& s, Task task, const TaskParams& params,
              std::function<Task()> maker) {
    ascend::MutexLock lock(&mu_);
    absl::StatusOr<uint32_t> index = StreamIndexLocked(s);
    if (!index.ok() || state_ != ModelState::kRecording) {
      // The stream left the model between its check and the record.
      if (task.cancel) task.cancel();
      return;
    }
    ModelTask& t = AppendLocked(*index, Control::kNone);
    t.params = params;
    if (maker) {
      t.maker = std::move(maker);
    } else {
      t.params = task.params;
      t.task = std::make_shared<const Task>(std::move(task));
    }
    tls_last_model = shared_from_this();
    tls_last_task = t.seq;
    if (t.params.type == ACL_MODEL_RI_TASK_EVENT_RECORD &&
        kind_ != ModelKind::kBuilt) {
      recorded_[t.params.object] = {*index, t.seq};
      record_clock_[t.params.object] = streams_[*index].after;
    }
  }
};

namespace {

class ModelRecorder final : public TaskRecorder {
 public:
  explicit ModelRecorder(std::weak_ptr<Model> model)
      : model_(std::move(model)) {}
  void Record(Stream& stream, Task task) override {
    if (auto m = model_.lock()) {
      const TaskParams params = task.params;
      m->Record(stream, std::move(task), params, nullptr);
    } else if (task.cancel) {
      task.cancel();
    }
  }
  void RecordMaker(Stream& stream, const TaskParams& params,
                   std::function<Task()> make) override {
    if (auto m = model_.lock()) m->Record(stream, Task{}, params, make);
  }
  std::shared_ptr<Model> model() const { return model_.lock(); }

 private:
  std::weak_ptr<Model> model_;
};

// A stream between aclmdlRICaptureTaskUpdateBegin and End (or a task's
// aclmdlRITaskSetParams): each task replaces the next task of the group.
class UpdateRecorder final : public TaskRecorder {
 public:
  struct Replacement {
    TaskParams params;
    std::shared_ptr<const Task> task;
    std::function<Task()> maker;
  };
  void Record(Stream&, Task task) override {
    ascend::MutexLock lock(&mu_);
    Replacement r;
    r.params = task.params;
    r.task = std::make_shared<const Task>(std::move(task));
    replacements_.push_back(std::move(r));
  }
  void RecordMaker(Stream&, const TaskParams& params,
                   std::function<Task()> make) override {
    ascend::MutexLock lock(&mu_);
    replacements_.push_back(Replacement{params, nullptr, std::move(make)});
  }
  std::vector<Replacement> Take() {
    ascend::MutexLock lock(&mu_);
    return std::move(replacements_);
  }
  std::shared_ptr<TaskGroup> group;

 private:
  ascend::Mutex mu_;
  std::vector<Replacement> replacements_ ABSL_GUARDED_BY(mu_);
};

// One execution of a model: the tasks made for it and the programs running.
class Execution : public std::enable_shared_from_this<Execution> {
 public:
  Execution(Runtime& runtime, std::shared_ptr<Model> model)
      : runtime_(runtime),
        model_(std::move(model)),
        abort_gen_(model_->aborts_.load(std::memory_order_acquire)) {}

  // At enqueue: makes the tasks that have enqueue-time work, in recording
  // order (so a wait sees the record made before it).
  void Instantiate() {
    {
      ascend::MutexLock lock(&model_->mu_);
      made_.resize(model_->tasks_.size());
      for (size_t i = 0; i < model_->tasks_.size(); ++i) {
        const ModelTask& t = *model_->tasks_[i];
        if (t.maker && !t.disabled) made_[i] = t.maker();
      }
      for (const ModelStream& ms : model_->streams_) {
        runners_.push_back(ms.runner);
        heads_.push_back(ms.head);
        programs_.push_back(ms.program);
      }
    }
    // started_ is guarded by this execution's mutex (clang's thread-safety
    // analysis refused the unlocked write).
    ascend::MutexLock lock(&mu_);
    started_.assign(runners_.size(), false);
  }

  // Releases the made tasks that never ran (their waiters, their records).
  void CancelUnused() {
    for (std::optional<Task>& t : made_) {
      if (t.has_value() && t->cancel) t->cancel();
      t.reset();
    }
  }

  // The execution task, on the stream aclmdlRIExecuteAsync named.
  absl::Status Run() {
    ASCEND_RETURN_IF_ERROR(AwaitTurn());
    ResetConditions();
    for (uint32_t i = 0; i < runners_.size(); ++i) {
      if (heads_[i]) Start(i);
    }
    absl::Status status = AwaitPrograms();
    CancelUnused();
    {
      ascend::MutexLock lock(&model_->mu_);
      model_->running_ = false;
    }
    return status;
  }

  // Runs synchronously on the calling runner (a conditional branch).
  absl::Status RunNested() {
    ResetConditions();
    for (uint32_t i = 0; i < runners_.size(); ++i) {
      if (heads_[i]) Start(i);
    }
    absl::Status status = AwaitPrograms();
    CancelUnused();
    return status;
  }

 private:
  absl::Status AwaitTurn() {
    ascend::MutexLock lock(&model_->mu_);
    while (model_->running_) {
      model_->mu_.AwaitWithTimeout(
          absl::Condition(
              +[](Model* m)
                   ABSL_NO_THREAD_SAFETY_ANALYSIS { return !m->running_; },
              model_.get()),
          kTaskWaitSlice);
      if (Stream::CurrentAborting()) {
        return absl::CancelledError("stream destroyed");
      }
    }
    model_->running_ = true;
    return absl::OkStatus();
  }

  void ResetConditions() {
    std::vector<std::shared_ptr<CondHandle>> conds;
    {
      ascend::MutexLock lock(&model_->mu_);
      conds = model_->conds_;
    }
    for (const auto& c : conds) {
      if (!c->assign_default) continue;
      const uint64_t v = c->default_value;
      std::vector<uint8_t> bytes(sizeof v);
      std::memcpy(bytes.data(), &v, sizeof v);
      (void)runtime_.models().WriteValue(c->ptr, bytes, model_->device_id_);
    }
  }

  void Start(uint32_t index) {
    {
      ascend::MutexLock lock(&mu_);
      if (started_[index]) return;  // already running in this execution
      started_[index] = true;
      ++active_;
    }
    std::shared_ptr<Execution> self = shared_from_this();
    // Part of the execution already submitted: no hook takes it.
    Submission sub(TaskKind::kModelExecute, "aclmdlRIExecuteAsync",
                   runners_[index]);
    sub.divertable = false;
    sub.writes.any = true;
    sub.task =
        Task{[self, index] {
               self->RunProgram(index);
               return absl::OkStatus();
             },
             [self] {
               self->ProgramDone(absl::CancelledError("model stream reset"));
             }};
    absl::Status status = runtime_.tasks().Submit(std::move(sub));
    if (!status.ok()) ProgramDone(status);
  }

  void ProgramDone(absl::Status status) {
    ascend::MutexLock lock(&mu_);
    if (!status.ok() && error_.ok()) error_ = std::move(status);
    --active_;
  }

  absl::Status AwaitPrograms() {
    ascend::MutexLock lock(&mu_);
    for (;;) {
      if (mu_.AwaitWithTimeout(absl::Condition(
                                   +[](int* n) { return *n == 0; }, &active_),
                               kTaskWaitSlice)) {
        break;
      }
      if (Stream::CurrentAborting()) {
        stop_.store(true, std::memory_order_release);
        mu_.Unlock();
        for (const auto& r : runners_) (void)r->AbortTasks(absl::Now());
        mu_.Lock();
      }
    }
    // A copy of its own, not one sharing error_'s representation: the last
    // reference to this execution may go on a runner thread, and absl's
    // reference count (a system library, not instrumented) does not show
    // tsan the order between this thread's use and that thread's delete.
    if (error_.ok()) return absl::OkStatus();
    absl::Status copy(error_.code(), std::string(error_.message()));
    error_.ForEachPayload([&copy](absl::string_view url, const absl::Cord& p) {
      copy.SetPayload(url, absl::Cord(std::string(p)));
    });
    return copy;
  }

  bool Stopped() const {
    return stop_.load(std::memory_order_acquire) ||
           model_->aborts_.load(std::memory_order_acquire) != abort_gen_;
  }

  absl::StatusOr<uint64_t> ReadValue(const void* ptr, size_t bytes) {
    ASCEND_ASSIGN_OR_RETURN(
        std::vector<uint8_t> data,
        runtime_.models().ReadValue(ptr, bytes, model_->device_id_));
    if (bytes == sizeof(uint32_t)) {
      uint32_t v;
      std::memcpy(&v, data.data(), sizeof v);
      return v;
    }
    uint64_t v;
    std::memcpy(&v, data.data(), sizeof v);
    return v;
  }

  // A model stream's program, on its runner.
  void RunProgram(uint32_t index) {
    const std::vector<uint32_t>& program = programs_[index];
    absl::Status status;
    size_t pc = 0;
    // A task with enqueue-time work running a second time in this
    // execution (a loop through a label) gets a fresh one.
    std::vector<char> used(made_.size(), 0);
    while (pc < program.size() && status.ok()) {
      if (Stopped()) {
        status = Error(ACL_ERROR_RT_MODEL_ABORT_NORMAL,
                       absl::StrCat("model ", model_->id_, " aborted"));
        break;
      }
      const uint32_t ti = program[pc];
      const ModelTask* t;
      std::shared_ptr<const Task> current;
      {
        ascend::MutexLock lock(&model_->mu_);
        t = model_->tasks_[ti].get();
        current = t->task;
      }
      ++pc;
      switch (t->control) {
        case Control::kNone: {
          if (t->disabled) break;
          if (t->maker) {
            if (!made_[ti].has_value() || used[ti]) made_[ti] = t->maker();
            used[ti] = 1;
            std::optional<Task> own = std::move(made_[ti]);
            made_[ti].reset();
            status = own->run();
          } else if (current != nullptr) {
            status = current->run();
          }
          break;
        }
        case Control::kLabel:
          break;
        case Control::kEnd:
          pc = program.size();
          break;
        case Control::kSwitchLabel: {
          absl::StatusOr<uint64_t> v = ReadValue(t->value_ptr, 4);
          if (!v.ok()) {
            status = v.status();
            break;
          }
          const size_t n = t->list->labels.size();
          size_t at = static_cast<size_t>(*v);
          if (at >= t->max_value || at >= n)
            at = std::min<size_t>(t->max_value, n) - 1;
          const Label& label = *t->list->labels[at];
          if (!label.set || label.stream != index) {
            status = Error(ACL_ERROR_RT_LABEL_CONTEXT,
                           absl::StrCat("label ", label.id,
                                        " is not set on this model stream"));
            break;
          }
          pc = label.position;
          break;
        }
        case Control::kSwitchStream: {
          const size_t bytes = t->data_type == ACL_RT_SWITCH_INT64 ? 8 : 4;
          absl::StatusOr<uint64_t> l = ReadValue(t->value_ptr, bytes);
          absl::StatusOr<uint64_t> r = ReadValue(t->right_ptr, bytes);
          if (!l.ok() || !r.ok()) {
            status = !l.ok() ? l.status() : r.status();
            break;
          }
          int64_t a, b;
          if (bytes == 4) {
            a = static_cast<int32_t>(*l);
            b = static_cast<int32_t>(*r);
          } else {
            a = static_cast<int64_t>(*l);
            b = static_cast<int64_t>(*r);
          }
          bool taken = false;
          switch (t->cond) {
            case ACL_RT_EQUAL:
              taken = a == b;
              break;
            case ACL_RT_NOT_EQUAL:
              taken = a != b;
              break;
            case ACL_RT_GREATER:
              taken = a > b;
              break;
            case ACL_RT_GREATER_OR_EQUAL:
              taken = a >= b;
              break;
            case ACL_RT_LESS:
              taken = a < b;
              break;
            default:
              taken = a <= b;
              break;
          }
          if (taken) {
            // Execution moves to the true stream; this one stops.
            Start(t->target);
            pc = program.size();
          }
          break;
        }
        case Control::kActiveStream:
          Start(t->target);
          break;
        case Control::kCond:
          status = RunCondition(*t);
          break;
      }
    }
    // A task cut short by aclmdlRIAbort (a value or event wait, which sees
    // its runner aborting) failed because of the abort: report that, not
    // the wait's own cancellation (which read as 507000).
    if (!status.ok() && Stopped()) {
      status = Error(ACL_ERROR_RT_MODEL_ABORT_NORMAL,
                     absl::StrCat("model ", model_->id_, " aborted"));
    }
    ProgramDone(std::move(status));
  }

  absl::Status RunBranch(const std::shared_ptr<Model>& branch) {
    {
      ascend::MutexLock lock(&branch->mu_);
      if (branch->state_ != ModelState::kReady) {
        return Error(
            ACL_ERROR_RT_MODEL_EXECUTE,
            absl::StrCat("branch model ", branch->id_, " was not captured"));
      }
    }
    auto exec = std::make_shared<Execution>(runtime_, branch);
    exec->Instantiate();
    return exec->RunNested();
  }

  absl::Status RunCondition(const ModelTask& t) {
    for (int round = 0;; ++round) {
      ASCEND_ASSIGN_OR_RETURN(uint64_t v, ReadValue(t.cond_handle->ptr, 8));
      switch (t.cond_type) {
        case ACL_MODEL_RI_COND_TYPE_IF:
          if (v != 0) return RunBranch(t.branches[0]);
          if (t.branches.size() > 1) return RunBranch(t.branches[1]);
          return absl::OkStatus();
        case ACL_MODEL_RI_COND_TYPE_SWITCH:
          if (v < t.branches.size()) return RunBranch(t.branches[v]);
          return absl::OkStatus();
        default:  // WHILE
          if (v == 0) return absl::OkStatus();
          ASCEND_RETURN_IF_ERROR(RunBranch(t.branches[0]));
          if (Stopped()) return absl::OkStatus();
          break;
      }
    }
  }

  Runtime& runtime_;
  std::shared_ptr<Model> model_;
  std::vector<std::optional<Task>> made_;
  std::vector<std::shared_ptr<Stream>> runners_;
  std::vector<bool> heads_;
  std::vector<std::vector<uint32_t>> programs_;
  std::atomic<bool> stop_{false};
  const uint64_t abort_gen_;  // Model::aborts_ at enqueue
  ascend::Mutex mu_;
  std::vector<bool> started_ ABSL_GUARDED_BY(mu_);
  int active_ ABSL_GUARDED_BY(mu_) = 0;
  absl::Status error_ ABSL_GUARDED_BY(mu_);
};

bool ValidMode(int32_t mode) {
  return mode >= ACL_MODEL_RI_CAPTURE_MODE_GLOBAL &&
         mode <= ACL_MODEL_RI_CAPTURE_MODE_RELAXED;
}

}  // namespace

// --- Models: bookkeeping
// ------------------------------------------------------

Models::Models(Runtime& runtime) : runtime_(runtime) {
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
  ASCEND_ASSIGN_OR_RETURN(std::shared_ptr<Context> ctx,
                          runtime_.StreamContext(source.handle()));
  ASCEND_ASSIGN_OR_RETURN(void* handle,
                          runtime_.CreateStreamIn(ctx, StreamConfig{}));
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
    (void)runtime_.DestroyStream(r->handle(), /*force=*/true);
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
  for (const auto& c : conds) (void)runtime_.Free(c->ptr);
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

absl::StatusOr<bool> Models::WaitsUntilSet(const Stream& stream,
                                           const Event& event, uint32_t flag) {
  std::shared_ptr<TaskRecorder> r = stream.recorder();
  if (dynamic_cast<ModelRecorder*>(r.get()) == nullptr) return false;
  ASCEND_ASSIGN_OR_RETURN(auto rec, Recording(stream, ACL_ERROR_RT_STREAM_MODEL,
                                              "aclrtStreamWaitEvent"));
  const std::shared_ptr<Model>& m = rec.first;
  const uint32_t index = rec.second;
  if (m->kind_ == ModelKind::kBuilt) return false;
  if (flag == ACL_EVENT_WAIT_EXTERNAL ||
      (event.flags() & ACL_EVENT_EXTERNAL) != 0) {
    return true;
  }
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
  ASCEND_RETURN_IF_ERROR(
      runtime_.CheckTaskMemory(ptr, sizeof(uint32_t), s->device_id(), "ptr"));
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
  ASCEND_RETURN_IF_ERROR(
      runtime_.CheckTaskMemory(left, bytes, s->device_id(), "leftValue"));
  ASCEND_RETURN_IF_ERROR(
      runtime_.CheckTaskMemory(right, bytes, s->device_id(), "rightValue"));
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
  ASCEND_ASSIGN_OR_RETURN(
      void* ptr, runtime_.Malloc(sizeof(uint64_t), ACL_MEM_MALLOC_HUGE_FIRST));
  const uint64_t v = default_value;
  std::vector<uint8_t> bytes(sizeof v);
  std::memcpy(bytes.data(), &v, sizeof v);
  absl::Status wrote =
      runtime_.WriteTaskMemory(ptr, bytes, m->device_id_, "condition value");
  if (!wrote.ok()) {
    (void)runtime_.Free(ptr);
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
  return runtime_.tasks().Submit(
      TaskKind::kModelExecute, "aclmdlRIExecuteAsync", std::move(s),
      Task{[exec] { return exec->Run(); }, [exec] { exec->CancelUnused(); }},
      TaskWrites{{}, true});
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
                          runtime_.StreamContext(on->handle()));
  ASCEND_ASSIGN_OR_RETURN(void* handle,
                          runtime_.CreateStreamIn(ctx, StreamConfig{}));
  absl::Status status = ExecuteAsync(model, handle);
  if (status.ok()) {
    const absl::Time deadline =
        timeout_ms == -1 ? absl::InfiniteFuture()
                         : absl::Now() + absl::Milliseconds(timeout_ms);
    status = runtime_.SynchronizeStream(handle, deadline);
    if (absl::IsDeadlineExceeded(status)) {
      (void)Abort(model);
      status = Error(ACL_ERROR_RT_STREAM_SYNC_TIMEOUT,
                     absl::StrCat("model ", m->id_, " did not finish within ",
                                  timeout_ms, " ms"));
    }
  }
  (void)runtime_.DestroyStream(handle, /*force=*/true);
  return status;
}

absl::Status Models::Abort(void* model) {
  ASCEND_ASSIGN_OR_RETURN(std::shared_ptr<Model> m, ResolveModel(model));
  if (m->kind_ == ModelKind::kSub) {
    return Error(ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
                 "a branch model is aborted with the model it belongs to");
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

namespace {

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
      built = runtime_.kernels().Launch(k.funcHandle, k.numBlocks, handle,
                                        LaunchConfig{}, std::move(args));
      break;
    }
    case ACL_MODEL_RI_TASK_EVENT_RECORD:
      built = runtime_.RecordEventFlagged(
          params.eventRecordTaskParams.event, handle,
          params.eventRecordTaskParams.recordFlag);
      break;
    case ACL_MODEL_RI_TASK_EVENT_WAIT:
      built = runtime_.StreamWaitEventFor(
          handle, params.eventWaitTaskParams.event, absl::ZeroDuration(),
          params.eventWaitTaskParams.waitFlag);
      break;
    case ACL_MODEL_RI_TASK_EVENT_RESET:
      built = runtime_.ResetEvent(params.eventResetTaskParams.event, handle);
      break;
    case ACL_MODEL_RI_TASK_VALUE_WRITE:
      built = runtime_.ValueWrite(params.valueWriteTaskParams.devAddr,
                                  params.valueWriteTaskParams.value, 0, handle);
      break;
    case ACL_MODEL_RI_TASK_VALUE_WAIT:
      built = runtime_.ValueWait(params.valueWaitTaskParams.devAddr,
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
  return runtime_.ReadTaskMemory(ptr, bytes, device_id, "model control value");
}

absl::Status Models::WriteValue(void* ptr, const std::vector<uint8_t>& bytes,
                                int32_t device_id) {
  return runtime_.WriteTaskMemory(ptr, bytes, device_id, "condition value");
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
