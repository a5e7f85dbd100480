// The model family's recorded objects, shared by its files (not installed,
// not used outside runtime/model): labels, condition handles, recorded
// tasks, task groups, the model itself and the recorders that capture and
// task updates use (DESIGN.md §5.21).
#ifndef ASCENDCL_RUNTIME_MODEL_MODEL_OBJECTS_H_
#define ASCENDCL_RUNTIME_MODEL_MODEL_OBJECTS_H_

#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "absl/base/thread_annotations.h"
#include "absl/container/flat_hash_map.h"
#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "acl/acl_rt.h"
#include "acl/error_codes/rt_error_codes.h"
#include "device/base/mutex.h"
#include "runtime/base/error.h"
#include "runtime/base/handle.h"
#include "runtime/model/model.h"
#include "runtime/stream.h"

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

namespace model_internal {

inline const char* TaskTypeName(int type) {
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

inline const char* ControlName(Control c) {
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
inline thread_local int32_t tls_exchange_mode =
    ACL_MODEL_RI_CAPTURE_MODE_GLOBAL;
// Held by shared_ptr so that a capture ended on another thread (RELAXED,
// or the refused end that still exits a GLOBAL / THREAD_LOCAL capture)
// decrements the beginning thread's counts, not the ending thread's: a
// thread_local array decremented on the wrong thread left the beginning
// thread refused 107030 for good.
struct ThreadCaptures {
  std::atomic<int> began[3] = {0, 0, 0};
};
inline thread_local std::shared_ptr<ThreadCaptures> tls_captures =
    std::make_shared<ThreadCaptures>();
// The model task this thread recorded last, and its model.
inline thread_local std::weak_ptr<Model> tls_last_model;
inline thread_local uint32_t tls_last_task = 0;

inline uint32_t ThreadId() { return static_cast<uint32_t>(pthread_self()); }

}  // namespace model_internal

using namespace model_internal;  // NOLINT: this family's private header

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
  // Events with an external record (true) or wait (false) in this graph:
  // each event has at most one (07 event management).
  absl::flat_hash_map<const void*, bool> external_uses_ ABSL_GUARDED_BY(mu_);
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

inline bool ValidMode(int32_t mode) {
  return mode >= ACL_MODEL_RI_CAPTURE_MODE_GLOBAL &&
         mode <= ACL_MODEL_RI_CAPTURE_MODE_RELAXED;
}

}  // namespace ascend::rt

#endif  // ASCENDCL_RUNTIME_MODEL_MODEL_OBJECTS_H_
