// Model runtime instances (aclmdlRI*, DESIGN.md §5.21): task lists recorded
// from streams and executed again and again.
//
// A model is recorded two ways. Graph capture: aclmdlRICaptureBegin makes a
// stream hand its tasks to the model instead of running them; a stream that
// waits for an event recorded in the capture joins it; aclmdlRICaptureEnd
// checks that every joined stream was joined back and makes the model
// executable. The build API: aclmdlRIBindStream binds a persistent stream,
// whose tasks (with labels, label switches, stream switches and stream
// activations among them) are recorded until aclmdlRIBuildEnd.
//
// Every model stream has a runner: a stream of the runtime that executes the
// model stream's task list as one program (jumps included) when the model
// runs. An execution is one task on the stream aclmdlRIExecuteAsync names: it
// starts the head streams' programs on their runners and ends when every
// program started in it (activated ones included) has ended. A recorded task
// is either re-run as it is, or (an event record or wait: work done at
// enqueue time) made afresh by its maker when the execution is enqueued, so
// an execution behaves as if its tasks had been issued at that moment.
#ifndef ASCENDCL_RUNTIME_MODEL_MODEL_H_
#define ASCENDCL_RUNTIME_MODEL_MODEL_H_

#include <atomic>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "absl/base/thread_annotations.h"
#include "absl/container/flat_hash_map.h"
#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "acl/acl_rt.h"
#include "device/base/mutex.h"
#include "runtime/family.h"
#include "runtime/snapshot_participant.h"
#include "runtime/stream.h"
#include "runtime/task_path.h"

namespace ascend::rt {

class Event;
class Memory;
class Runtime;
class Sync;
class Model;
struct ModelTask;
struct Label;
struct LabelList;
struct TaskGroup;
struct CondHandle;

// CANN's aclmdlRIBindStream flags.
inline constexpr uint32_t kModelStreamHead = 0x00000000U;
inline constexpr uint32_t kModelStreamDefault = 0x7FFFFFFFU;

class Models final : public Family {
 public:
  explicit Models(Runtime& runtime);
  Models(const Models&) = delete;
  Models& operator=(const Models&) = delete;
  ~Models() override;

  // The model family of `runtime`, or null when it has none.
  static Models* Of(const Runtime& runtime);

  // --- Capture ---------------------------------------------------------
  // True while some capture is in progress anywhere (one load).
  bool capturing() const {
    return captures_.load(std::memory_order_acquire) != 0;
  }
  absl::Status CaptureBegin(void* stream, int32_t mode);
  // Into a sub-model made by AddCondTask.
  absl::Status CaptureToModelBegin(void* stream, void* model, int32_t mode);
  // status: aclmdlRICaptureStatus; model null when not capturing.
  absl::Status CaptureInfo(void* stream, int32_t* status, void** model);
  absl::StatusOr<void*> CaptureEnd(void* stream);
  absl::Status ExchangeMode(int32_t* mode);
  absl::Status TaskGroupBegin(void* stream);
  absl::StatusOr<void*> TaskGroupEnd(void* stream);
  absl::Status TaskUpdateBegin(void* stream, void* group);
  absl::Status TaskUpdateEnd(void* stream);
  // --- The build API -----------------------------------------------------
  absl::StatusOr<void*> BuildBegin(uint32_t flag);
  absl::Status BindStream(void* model, void* stream, uint32_t flag);
  absl::Status UnbindStream(void* model, void* stream);
  absl::Status EndTask(void* model, void* stream);
  absl::Status BuildEnd(void* model);
  absl::Status PersistentTaskClean(void* stream);

  // --- Labels and stream control ------------------------------------------
  absl::StatusOr<void*> CreateLabel();
  absl::Status SetLabel(void* label, void* stream);
  absl::Status DestroyLabel(void* label);
  absl::StatusOr<void*> CreateLabelList(void* const* labels, size_t count);
  absl::Status DestroyLabelList(void* list);
  absl::Status SwitchLabelByIndex(void* ptr, uint32_t max_value, void* list,
                                  void* stream);
  absl::Status SwitchStream(void* left, int32_t cond, void* right,
                            int32_t data_type, void* true_stream, void* stream);
  absl::Status ActiveStream(void* active, void* stream);

  // --- Conditional tasks --------------------------------------------------
  absl::StatusOr<void*> CondHandleCreate(void* model, uint32_t default_value,
                                         uint32_t flag);
  absl::StatusOr<uint64_t*> CondPtr(void* handle);
  absl::Status AddCondTask(const aclmdlRICondTaskParams& params, void* stream,
                           uint32_t flags);

  // --- Execution and management -------------------------------------------
  absl::Status ExecuteAsync(void* model, void* stream);
  // Runs a built model on an internal stream and waits `timeout_ms`
  // (-1: forever).
  absl::Status Execute(void* model, int32_t timeout_ms);
  absl::Status Abort(void* model);
  absl::Status Destroy(void* model);
  absl::Status AddDestroyCallback(void* model, aclrtCallback fn, void* data);
  absl::Status RemoveDestroyCallback(void* model, aclrtCallback fn);
  absl::Status Update(void* model);
  absl::StatusOr<uint32_t> Id(void* model);
  absl::StatusOr<std::string> Name(void* model);
  absl::Status SetName(void* model, const char* name);
  absl::StatusOr<std::vector<void*>> Streams(void* model);
  absl::StatusOr<std::vector<void*>> TasksByStream(void* stream);
  absl::StatusOr<aclmdlRITaskType> TaskType(void* task);
  absl::StatusOr<uint32_t> TaskSeqId(void* task);
  absl::Status TaskGetParams(void* task, aclmdlRITaskParams* params);
  absl::Status TaskSetParams(void* task, const aclmdlRITaskParams& params);
  absl::Status TaskDisable(void* task);
  absl::Status KernelTaskAttribute(void* task, int32_t attr,
                                   aclrtLaunchKernelAttrValue* value);
  // aclrtCacheLastTaskOpInfo / ExtendInfo: attaches `size` bytes to the task
  // the calling thread recorded last (507000 when it recorded none).
  absl::Status CacheLastTaskInfo(const void* info, size_t size, bool extend);
  // The recorded graph, readable: DebugPrint logs it, DebugJson writes a
  // chrome://tracing JSON file.
  absl::StatusOr<std::string> DebugText(void* model);
  absl::Status DebugJson(void* model, const char* path, uint32_t flags);

  // --- Snapshot (model_participant.cc) ------------------------------------
  // The models, labels and label lists of a device, described.
  std::string Describe(int32_t device_id) const;
  // 507908 when a built model of the device is not complete (no
  // aclmdlRIBuildEnd yet): Backup refuses it.
  absl::Status CheckBackup(int32_t device_id) const;
  std::vector<std::shared_ptr<Model>> ModelsOf(int32_t device_id) const;

  std::shared_ptr<Model> FindModel(const void* handle) const;
  // The device of the live model whose id (aclmdlRIGetId) is `model_id`;
  // nullopt when none has it (the timeline's model lookup, DESIGN.md §5.24).
  std::optional<int32_t> DeviceOfModel(uint32_t model_id) const;
  // The id of the built model `stream` is bound to (aclmdlRIBindStream, not
  // unbound since); nullopt when it is bound to none. Streams bound to a
  // model are refused by aclrtStreamAbort and aclrtStreamStop (06).
  std::optional<uint32_t> BoundModelId(const Stream& stream) const;
  // Device values a model's control tasks read and write when they run.
  absl::StatusOr<std::vector<uint8_t>> ReadValue(const void* ptr, size_t bytes,
                                                 int32_t device_id);
  absl::Status WriteValue(void* ptr, const std::vector<uint8_t>& bytes,
                          int32_t device_id);

 private:
  // The capture's hook on the task path (capture_hook.cc, DESIGN.md §5.21):
  // a capturing stream's tasks go to its recorder instead of its queue, and
  // the capture rules of synchronous calls are checked once, here.
  class CaptureHook final : public TaskHook {
   public:
    explicit CaptureHook(Models& models) : models_(models) {}
    absl::Status OnSubmit(Submission& s, bool& taken) override;
    absl::Status OnAccess(const HostAccess& access) override;

   private:
    Models& models_;
  };

  // 107030 when the calling thread may not make a synchronous
  // ("unsafe") call now, by the capture modes in force.
  absl::Status CheckUnsafeCall(const char* api);
  // 107027 when `stream` is recording into a capture: what a synchronize,
  // query or destroy of it answers.
  static absl::Status RefuseCapturing(const Stream& stream, const char* api);
  // A stream not recording that waits for an event recorded in a capture
  // joins the capture.
  absl::Status JoinCapture(const Event& event,
                           const std::shared_ptr<Stream>& stream);
  // 107028 when `event` was recorded into a capture still in progress:
  // what synchronizing, querying or timing it answers (CANN's rule; a
  // load when nothing is captured).
  absl::Status RefuseCapturedEvent(const Event& event, const char* api);
  // An ACL_EVENT_RECORD_EXTERNAL record or ACL_EVENT_WAIT_EXTERNAL wait of
  // `event` being recorded on `stream`: 107000 when the model already holds
  // an external record or wait of the event (one per event per graph) or is
  // a branch of a conditional task (07, aclrtRecordEventWithFlag and
  // aclrtStreamWaitEventWithFlag constraints); else the model notes it.
  absl::Status NoteExternalUse(const Stream& stream, const Event& event,
                               bool record);
  // For a wait recorded on `stream`: whether it waits until the event is set
  // (an outside record) rather than for the latest record; 107024 for a
  // default wait on an event recorded outside the capture.
  absl::StatusOr<bool> WaitsUntilSet(const Stream& stream, const Event& event,
                                     uint32_t flag);

  absl::StatusOr<std::shared_ptr<Model>> ResolveModel(const void* handle) const;
  absl::StatusOr<std::shared_ptr<Label>> ResolveLabel(const void* handle) const;
  absl::StatusOr<std::shared_ptr<LabelList>> ResolveList(
      const void* handle) const;
  // The model recording `stream` and the model stream's index, or 107005 /
  // `code` when it records into none.
  absl::StatusOr<std::pair<std::shared_ptr<Model>, uint32_t>> Recording(
      const Stream& stream, int32_t code, const char* what) const;
  absl::StatusOr<std::shared_ptr<Model>> NewModel(int32_t device_id, int kind);
  // Creates the runner stream of a model stream (registered, so its id is
  // reclaimed by a restore and a device synchronize covers it).
  absl::StatusOr<std::shared_ptr<Stream>> NewRunner(const Stream& source);
  void ReleaseRunners(const Model& model);
  // Adds `s` to the model as a model stream with a runner of its own (the
  // caller then sets the stream's recorder).
  absl::Status AddStream(const std::shared_ptr<Model>& model,
                         const std::shared_ptr<Stream>& s, bool head);
  // The model and stream of a build-API call on a bound stream: 107000 for
  // a NULL stream or a captured model, 107027 for a capturing stream.
  absl::StatusOr<std::pair<std::shared_ptr<Model>, std::shared_ptr<Stream>>>
  BuiltModelStream(void* model, void* stream, const char* api);
  void Erase(const std::shared_ptr<Model>& model);
  void OnDeviceClosed(int32_t device_id);
  absl::Status BeginCapture(const std::shared_ptr<Stream>& s,
                            const std::shared_ptr<Model>& model, int32_t mode);

  Runtime& runtime_;
  // Condition handles live in device memory: the memory family, registered
  // before this one (runtime/process/families.cc).
  Memory* const memory_;
  // Event tasks of models built with aclmdlRIBuild*: the synchronisation
  // family, registered before this one too.
  Sync* const sync_;
  CaptureHook capture_hook_{*this};
  std::atomic<int> captures_{0};
  uint64_t close_observer_ = 0;
  mutable ascend::Mutex mu_;
  absl::flat_hash_map<const void*, std::shared_ptr<Model>> models_
      ABSL_GUARDED_BY(mu_);
  absl::flat_hash_map<const void*, std::shared_ptr<Label>> labels_
      ABSL_GUARDED_BY(mu_);
  absl::flat_hash_map<const void*, std::shared_ptr<LabelList>> lists_
      ABSL_GUARDED_BY(mu_);
  // Runner stream handle -> its model (aclmdlRIGetTasksByStream).
  absl::flat_hash_map<const void*, std::weak_ptr<Model>> runner_models_
      ABSL_GUARDED_BY(mu_);
  // Captures in progress by mode (GLOBAL, THREAD_LOCAL, RELAXED).
  int mode_counts_[3] ABSL_GUARDED_BY(mu_) = {0, 0, 0};
  uint32_t next_model_id_ ABSL_GUARDED_BY(mu_) = 0;
  uint32_t next_label_id_ ABSL_GUARDED_BY(mu_) = 0;
};

// The family's registration (runtime/process/families.cc).
FamilyRegistration ModelFamily();

// The "models" snapshot participant; it saves nothing for a runtime without
// the model family.
std::unique_ptr<SnapshotParticipant> MakeModelParticipant(Runtime& runtime);

}  // namespace ascend::rt

#endif  // ASCENDCL_RUNTIME_MODEL_MODEL_H_
