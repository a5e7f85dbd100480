// The data dump (DESIGN.md §5.25): what the simulator dumps of operators and
// kernels, and of a kernel that failed, in CANN's layout and format
// (runtime/dump/dump_file.h).
//
//   Dumps& dumps = *Dumps::Of(runtime);
//   dumps.Configure(std::make_shared<const DumpSettings>(settings));
//   ASCEND_RETURN_IF_ERROR(dumps.DumpOperator(std::move(op), stream));
//
// The family hangs one hook on the task path (DESIGN.md §1.6), ahead of the
// capture's: while a kernel-level data dump or an exception dump is
// configured it wraps each kernel launch's task, so that when the kernel
// has run its arguments are dumped (data dump) or, when it failed, its
// arguments and the tensors its operator registered are written to the
// exception dump directory before the failure is reported. With neither
// configured the hook costs one atomic load. Operators (aclnn) ask for their
// tensors to be dumped with DumpOperator, a task queued behind their kernel
// that reads the tensors when it runs.
//
// The settings are host state: a snapshot leaves them alone (no
// participant); dump tasks are stream work that Backup drains.
//
// Thread safety: every method may be called from any thread.
#ifndef ASCENDCL_RUNTIME_DUMP_DUMP_H_
#define ASCENDCL_RUNTIME_DUMP_DUMP_H_

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <deque>
#include <memory>
#include <string>
#include <vector>

#include "absl/base/thread_annotations.h"
#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/time/time.h"
#include "device/base/mutex.h"
#include "runtime/dump/dump_file.h"
#include "runtime/family.h"
#include "runtime/task_path.h"

namespace ascend::rt {

class Runtime;
struct KernelTaskInfo;

// What is dumped; the ACL layer builds it from the dump configuration
// (acl/dump/dump_config.h).
struct DumpSettings {
  // --- Data dump (dump_op_switch, dump_list) -------------------------------
  bool data = false;
  // Every operator and kernel (dump_op_switch "on"); otherwise only those
  // whose name a dump_list "layer" names.
  bool all_operators = false;
  std::vector<std::string> layers;
  // dump_mode: input, output, all (all adds workspaces).
  bool inputs = false;
  bool outputs = true;
  bool workspaces = false;
  // dump_level: operators' tensors (op), kernels' arguments (kernel).
  bool op_level = true;
  bool kernel_level = true;
  // dump_data "stats": statistics (CSV) instead of the tensors' bytes.
  bool stats = false;
  std::vector<std::string> stats_items;
  // <dump_path>/<YYYYmmddHHMMSS>, absolute; files go to <data_root>/<device>.
  std::string data_root;
  // --- Overflow dump (dump_debug "on") ------------------------------------
  bool overflow = false;
  // --- Exception dump (dump_scene, ASCEND_DUMP_SCENE) ---------------------
  enum class Exception { kOff, kBrief, kNormal, kDetail };
  Exception exception = Exception::kOff;
  // Absolute; files go to <exception_root>/extra-info/data-dump/<device>.
  std::string exception_root;

  // Whether the data dump takes operator or kernel `name`.
  bool Selects(const std::string& name) const;
};

// A tensor to dump, as an operator describes it (acldumpTensorInfo with a
// raw device address).
struct DumpTensorSpec {
  dump::TensorRole role = dump::TensorRole::kInput;
  int32_t data_type = -1;
  int32_t format = 2;
  const void* address = nullptr;
  uint64_t size = 0;
  uint32_t arg_index = 0;
  std::vector<uint64_t> shape;
  std::vector<uint64_t> origin_shape;
};

struct OperatorDump {
  std::string op_type;
  std::string op_name;
  std::vector<DumpTensorSpec> tensors;
};

class Dumps final : public Family {
 public:
  explicit Dumps(Runtime& runtime);
  Dumps(const Dumps&) = delete;
  Dumps& operator=(const Dumps&) = delete;

  // The dump family of `runtime`, or null when it has none.
  static Dumps* Of(const Runtime& runtime);

  // Replaces the settings; null (or nothing enabled) dumps nothing.
  void Configure(std::shared_ptr<const DumpSettings> settings);
  std::shared_ptr<const DumpSettings> settings() const;

  // acldumpRegCallback: data dump files go to `callback` instead of the
  // disk. False, changing nothing, when one is registered already.
  bool RegisterCallback(dump::ChunkCallback callback);
  void UnregisterCallback();

  // Queues, on `stream` (null: the current default stream), the dump of an
  // operator's tensors, read when the task runs: after the work queued
  // before it, the operator's kernel. Its files are named by the task the
  // calling thread enqueued last (the kernel). Nothing is queued when the
  // operator's data dump is not wanted.
  absl::Status DumpOperator(OperatorDump op, void* stream);
  // Keeps an operator's tensors for the exception dump of the task the
  // calling thread enqueued last on `stream` (the operator's kernel): if
  // that task fails, its exception dump includes them. The most recent
  // kMaxNotedOperators are kept.
  static constexpr size_t kMaxNotedOperators = 4096;
  // How long a failing kernel's exception dump waits for its operator's
  // report (NoteOperator comes right after the launch; a simulated kernel
  // can fail before it does).
  static constexpr absl::Duration kNoteGrace = absl::Milliseconds(50);
  absl::Status NoteOperator(OperatorDump op, void* stream);

  // <exception_root>/extra-info/data-dump/<device>, created.
  // kFailedPrecondition when exception dump is off.
  absl::StatusOr<std::string> ExceptionDirectory(int32_t device_id) const;
  // acldumpSaveExceptionInfo: a dump file of tensors of `device_id` at
  // <ExceptionDirectory>/<file_name>.custom.<time>; returns its path.
  // kFailedPrecondition when exception dump is off; 107000 for a tensor
  // outside the device's live memory.
  absl::StatusOr<std::string> SaveCustom(
      int32_t device_id, const std::string& file_name,
      const std::string& user_tag, const std::vector<DumpTensorSpec>& tensors);

 private:
  class Hook final : public TaskHook {
   public:
    explicit Hook(Dumps& dumps) : dumps_(dumps) {}
    absl::Status OnSubmit(Submission& s, bool& taken) override;

   private:
    Dumps& dumps_;
  };
  struct Noted {
    int32_t device_id;
    uint32_t stream_id;
    uint32_t task_id;
    std::shared_ptr<const OperatorDump> op;
  };

  // After a wrapped kernel task ran with `status` (on its stream's thread).
  void AfterKernel(const KernelTaskInfo& kernel, const absl::Status& status);
  void DumpKernelArguments(const DumpSettings& settings,
                           const KernelTaskInfo& kernel);
  void DumpException(const DumpSettings& settings, const KernelTaskInfo& kernel,
                     const absl::Status& status);
  // The kernel's argument bytes (device or host memory).
  std::vector<uint8_t> ReadArguments(const KernelTaskInfo& kernel,
                                     int32_t device_id);
  // Reads an operator's tensors from `device_id`'s memory into `record`
  // (the roles `settings` asks for; all with null settings). A tensor that
  // cannot be read is left out and named in the record's note.
  void ReadTensors(const DumpSettings* settings, const OperatorDump& op,
                   int32_t device_id, dump::DumpRecord* record);
  // Writes a data dump file to the disk or the callback.
  void Emit(const DumpSettings& settings, const std::string& path,
            const dump::DumpRecord& record, const std::string& op_type,
            uint32_t task_id, uint32_t stream_id);
  std::shared_ptr<const OperatorDump> FindNoted(int32_t device_id,
                                                uint32_t stream_id,
                                                uint32_t task_id) const;

  Runtime& runtime_;
  Hook hook_{*this};
  // Whether a kernel launch needs wrapping: kernel-level data dump or
  // exception dump configured (the hook's one load).
  std::atomic<bool> armed_{false};
  mutable ascend::Mutex mu_;
  std::shared_ptr<const DumpSettings> settings_ ABSL_GUARDED_BY(mu_);
  dump::ChunkCallback callback_ ABSL_GUARDED_BY(mu_) = nullptr;
  std::deque<Noted> noted_ ABSL_GUARDED_BY(mu_);
};

// The family's registration (runtime/process/families.cc): before the model
// family, so that its hook sees a kernel launch before a capture takes it.
FamilyRegistration DumpFamily();

}  // namespace ascend::rt

#endif  // ASCENDCL_RUNTIME_DUMP_DUMP_H_
