#include "runtime/dump/dump.h"

#include <algorithm>
#include <cstring>
#include <utility>

#include "absl/strings/str_cat.h"
#include "acl/acl_base.h"
#include "device/base/status_macros.h"
#include "glog/logging.h"
#include "runtime/base/error.h"
#include "runtime/exception_info.h"
#include "runtime/memory/memory.h"
#include "runtime/runtime.h"
#include "runtime/stream.h"

namespace ascend::rt {
namespace {

// Data dump files: readable by their owner's group; exception dump files:
// read-only for their owner, as CANN writes them.
constexpr unsigned kDataFileMode = 0640;
constexpr unsigned kExceptionFileMode = 0400;

const char* SceneName(DumpSettings::Exception e) {
  switch (e) {
    case DumpSettings::Exception::kBrief:
      return "aic_err_brief_dump";
    case DumpSettings::Exception::kNormal:
      return "aic_err_norm_dump";
    case DumpSettings::Exception::kDetail:
      return "aic_err_detail_dump";
    default:
      return "off";
  }
}

bool Armed(const DumpSettings* s) {
  return s != nullptr && ((s->data && s->kernel_level) ||
                          s->exception != DumpSettings::Exception::kOff);
}

bool Wanted(const DumpSettings* s, dump::TensorRole role) {
  if (s == nullptr) return true;
  switch (role) {
    case dump::TensorRole::kInput:
      return s->inputs;
    case dump::TensorRole::kOutput:
      return s->outputs;
    default:
      return s->workspaces;
  }
}

}  // namespace

bool DumpSettings::Selects(const std::string& name) const {
  if (!data) return false;
  return all_operators ||
         std::find(layers.begin(), layers.end(), name) != layers.end();
}

FamilyRegistration DumpFamily() {
  return {"dump", &FamilyIndex<Dumps>,
          [](Runtime& runtime) -> std::unique_ptr<Family> {
            return std::make_unique<Dumps>(runtime);
          }};
}

Dumps* Dumps::Of(const Runtime& runtime) { return runtime.family<Dumps>(); }

Dumps::Dumps(Runtime& runtime) : runtime_(runtime) {
  runtime_.tasks().AddHook(&hook_).IgnoreError();
}

void Dumps::Configure(std::shared_ptr<const DumpSettings> settings) {
  ascend::MutexLock lock(&mu_);
  armed_.store(Armed(settings.get()), std::memory_order_release);
  settings_ = std::move(settings);
  if (settings_ == nullptr ||
      settings_->exception == DumpSettings::Exception::kOff) {
    noted_.clear();
  }
}

std::shared_ptr<const DumpSettings> Dumps::settings() const {
  ascend::MutexLock lock(&mu_);
  return settings_;
}

bool Dumps::RegisterCallback(dump::ChunkCallback callback) {
  ascend::MutexLock lock(&mu_);
  if (callback_ != nullptr) return false;
  callback_ = callback;
  return true;
}

void Dumps::UnregisterCallback() {
  ascend::MutexLock lock(&mu_);
  callback_ = nullptr;
}

// --- The hook ---------------------------------------------------------------

absl::Status Dumps::Hook::OnSubmit(Submission& s, bool& taken) {
  if (!dumps_.armed_.load(std::memory_order_acquire)) return absl::OkStatus();
  if (s.kind != TaskKind::kKernel || s.make || s.task.kernel == nullptr) {
    return absl::OkStatus();
  }
  // The kernel's information lives as long as its run closure, which the
  // wrapper holds.
  const KernelTaskInfo* kernel = s.task.kernel;
  Dumps* dumps = &dumps_;
  s.task.run = [dumps, kernel, run = std::move(s.task.run)]() -> absl::Status {
    absl::Status status = run();
    dumps->AfterKernel(*kernel, status);
    return status;
  };
  return absl::OkStatus();
}

void Dumps::AfterKernel(const KernelTaskInfo& kernel,
                        const absl::Status& status) {
  if (Stream::Current() == nullptr) return;
  std::shared_ptr<const DumpSettings> settings = this->settings();
  if (settings == nullptr) return;
  if (status.ok()) {
    if (settings->kernel_level && settings->inputs && kernel.name != nullptr &&
        settings->Selects(kernel.name)) {
      DumpKernelArguments(*settings, kernel);
    }
  } else if (!absl::IsCancelled(status) &&
             settings->exception != DumpSettings::Exception::kOff) {
    DumpException(*settings, kernel, status);
  }
}

std::vector<uint8_t> Dumps::ReadArguments(const KernelTaskInfo& kernel,
                                          int32_t device_id) {
  if (kernel.args_ptr == nullptr || kernel.args_len == 0) return {};
  // Arguments in device memory (aclrtLaunchKernel's argsData) are read from
  // the device; host arguments were copied into the task at the launch.
  if (runtime_.Locate(kernel.args_ptr).device != nullptr) {
    absl::StatusOr<std::vector<uint8_t>> bytes =
        Memory::Of(runtime_)->ReadTaskMemory(kernel.args_ptr, kernel.args_len,
                                             device_id, "kernel arguments");
    if (bytes.ok()) return *std::move(bytes);
    LOG(WARNING) << "data dump: cannot read the arguments of kernel "
                 << (kernel.name ? kernel.name : "?") << ": "
                 << bytes.status().message();
    return {};
  }
  const auto* p = static_cast<const uint8_t*>(kernel.args_ptr);
  return std::vector<uint8_t>(p, p + kernel.args_len);
}

void Dumps::DumpKernelArguments(const DumpSettings& settings,
                                const KernelTaskInfo& kernel) {
  const Stream* stream = Stream::Current();
  const int32_t device_id = stream->device_id();
  dump::DumpRecord record;
  record.op_name = kernel.name;
  record.dump_time_us = dump::NowMicros();
  dump::DumpTensor args;
  args.input_type = dump::kArgsBuffer;
  args.data = ReadArguments(kernel, device_id);
  if (args.data.empty()) return;
  record.tensors.push_back(std::move(args));
  record.dfx_message =
      absl::StrCat("kernel ", kernel.name, ": ", kernel.args_len,
                   " bytes of arguments, ", kernel.blocks, " blocks\n");
  const std::string name = dump::SafeName(kernel.name);
  const uint32_t task_id = Stream::CurrentTaskId();
  const std::string path =
      absl::StrCat(settings.data_root, "/", device_id, "/", name, ".", name,
                   ".", task_id, ".", stream->id(), ".", record.dump_time_us);
  Emit(settings, path, record, kernel.name, task_id, stream->id());
}

void Dumps::DumpException(const DumpSettings& settings,
                          const KernelTaskInfo& kernel,
                          const absl::Status& status) {
  const Stream* stream = Stream::Current();
  const int32_t device_id = stream->device_id();
  const uint32_t task_id = Stream::CurrentTaskId();
  absl::StatusOr<std::string> directory = ExceptionDirectory(device_id);
  if (!directory.ok()) {
    LOG(ERROR) << "exception dump: " << directory.status().message();
    return;
  }
  std::shared_ptr<const OperatorDump> op =
      FindNoted(device_id, stream->id(), task_id);
  const char* kernel_name = kernel.name != nullptr ? kernel.name : "kernel";
  dump::DumpRecord record;
  record.dump_time_us = dump::NowMicros();
  record.op_name = op != nullptr ? op->op_name : kernel_name;
  dump::DumpTensor args;
  args.input_type = dump::kArgsBuffer;
  args.data = ReadArguments(kernel, device_id);
  record.tensors.push_back(std::move(args));
  if (op != nullptr) ReadTensors(nullptr, *op, device_id, &record);
  absl::StrAppend(&record.dfx_message, "[Dump][Exception] dump scene ",
                  SceneName(settings.exception), "; device ", device_id,
                  ", stream ", stream->id(), ", task ", task_id, ", kernel ",
                  kernel_name, ", ", kernel.blocks, " blocks; error ",
                  ErrorCode(status), ": ", status.message(), "\n");
  if (settings.exception == DumpSettings::Exception::kDetail) {
    record.dfx_message +=
        "[Dump][Exception] aic_err_detail_dump dumps AI Core registers and "
        "local memory, which simulated cores do not have: written as "
        "aic_err_brief_dump\n";
  }
  // aic_err_norm_dump names the file by the operator when one registered
  // its tensors; otherwise (and for the other scenes) by stream and task.
  const std::string time = dump::TimeMilliseconds();
  const std::string path =
      settings.exception == DumpSettings::Exception::kNormal && op != nullptr
          ? absl::StrCat(*directory, "/", dump::SafeName(op->op_type), ".",
                         dump::SafeName(op->op_name), ".", task_id, ".", time)
          : absl::StrCat(*directory, "/exception_info.", stream->id(), ".",
                         task_id, ".", time);
  absl::Status written =
      dump::WriteDumpFile(path, dump::Serialize(record), kExceptionFileMode);
  if (written.ok()) {
    LOG(ERROR) << "[Dump][Exception] dump exception to file, file: " << path;
  } else {
    LOG(ERROR) << "exception dump: " << written.message();
  }
}

void Dumps::ReadTensors(const DumpSettings* settings, const OperatorDump& op,
                        int32_t device_id, dump::DumpRecord* record) {
  for (const DumpTensorSpec& spec : op.tensors) {
    if (!Wanted(settings, spec.role)) continue;
    absl::StatusOr<std::vector<uint8_t>> bytes =
        Memory::Of(runtime_)->ReadTaskMemory(spec.address, spec.size, device_id,
                                             "dump tensor");
    if (!bytes.ok()) {
      absl::StrAppend(&record->dfx_message, "tensor at ",
                      absl::Hex(reinterpret_cast<uintptr_t>(spec.address)),
                      " (", spec.size,
                      " bytes) not dumped: ", bytes.status().message(), "\n");
      continue;
    }
    dump::DumpTensor t;
    t.role = spec.role;
    t.data_type = spec.data_type;
    t.format = spec.format;
    t.shape = spec.shape;
    t.origin_shape = spec.origin_shape;
    t.address = reinterpret_cast<uintptr_t>(spec.address);
    t.arg_index = spec.arg_index;
    t.input_type = dump::kInputTensor;
    t.data = *std::move(bytes);
    record->tensors.push_back(std::move(t));
  }
}

void Dumps::Emit(const DumpSettings& settings, const std::string& path,
                 const dump::DumpRecord& record, const std::string& op_type,
                 uint32_t task_id, uint32_t stream_id) {
  std::string target = path;
  std::string bytes;
  if (settings.stats) {
    target += ".csv";
    bytes = dump::StatsCsv(record, op_type, task_id, stream_id,
                           settings.stats_items);
  } else {
    bytes = dump::Serialize(record);
  }
  dump::ChunkCallback callback;
  {
    ascend::MutexLock lock(&mu_);
    callback = callback_;
  }
  absl::Status done = callback != nullptr
                          ? dump::DeliverChunks(callback, target, bytes)
                          : dump::WriteDumpFile(target, bytes, kDataFileMode);
  if (!done.ok()) LOG(WARNING) << "data dump: " << done.message();
}

// --- Operators
// ----------------------------------------------------------------

absl::Status Dumps::DumpOperator(OperatorDump op, void* stream) {
  std::shared_ptr<const DumpSettings> settings = this->settings();
  if (settings == nullptr || !settings->op_level ||
      !settings->Selects(op.op_name)) {
    return absl::OkStatus();
  }
  ASCEND_ASSIGN_OR_RETURN(std::shared_ptr<Stream> s,
                          runtime_.ResolveStream(stream));
  const int32_t device_id = s->device_id();
  const uint32_t stream_id = s->id();
  const uint32_t task_id = ThreadLastTaskId();
  auto shared = std::make_shared<const OperatorDump>(std::move(op));
  Task task;
  task.run = [this, settings, shared, device_id, stream_id,
              task_id]() -> absl::Status {
    dump::DumpRecord record;
    record.op_name = shared->op_name;
    record.dump_time_us = dump::NowMicros();
    ReadTensors(settings.get(), *shared, device_id, &record);
    if (record.tensors.empty()) return absl::OkStatus();
    const std::string path = absl::StrCat(
        settings->data_root, "/", device_id, "/",
        dump::SafeName(shared->op_type), ".", dump::SafeName(shared->op_name),
        ".", task_id, ".", stream_id, ".", record.dump_time_us);
    Emit(*settings, path, record, shared->op_type, task_id, stream_id);
    return absl::OkStatus();
  };
  // It reads device memory and writes none.
  return runtime_.tasks().Submit(TaskKind::kBuiltin, "aclDumpOpTensors",
                                 std::move(s), std::move(task));
}

absl::Status Dumps::NoteOperator(OperatorDump op, void* stream) {
  ASCEND_ASSIGN_OR_RETURN(std::shared_ptr<Stream> s,
                          runtime_.ResolveStream(stream));
  ascend::MutexLock lock(&mu_);
  if (settings_ == nullptr ||
      settings_->exception == DumpSettings::Exception::kOff) {
    return absl::OkStatus();
  }
  noted_.push_back(Noted{s->device_id(), s->id(), ThreadLastTaskId(),
                         std::make_shared<const OperatorDump>(std::move(op))});
  while (noted_.size() > kMaxNotedOperators) noted_.pop_front();
  return absl::OkStatus();
}

std::shared_ptr<const OperatorDump> Dumps::FindNoted(int32_t device_id,
                                                     uint32_t stream_id,
                                                     uint32_t task_id) const {
  struct Key {
    const Dumps* self;
    int32_t device_id;
    uint32_t stream_id;
    uint32_t task_id;
    std::shared_ptr<const OperatorDump> found;
  } key{this, device_id, stream_id, task_id, nullptr};
  auto find = +[](Key* k) ABSL_NO_THREAD_SAFETY_ANALYSIS {
    for (auto it = k->self->noted_.rbegin(); it != k->self->noted_.rend();
         ++it) {
      if (it->device_id == k->device_id && it->stream_id == k->stream_id &&
          it->task_id == k->task_id) {
        k->found = it->op;
        return true;
      }
    }
    return false;
  };
  ascend::MutexLock lock(&mu_);
  // An operator reports its tensors right after it launched its kernel,
  // which may fail first on a simulated core: give the report a moment.
  mu_.AwaitWithTimeout(absl::Condition(find, &key), kNoteGrace);
  return key.found;
}

// --- Exception dump directory and custom exception information -------------

absl::StatusOr<std::string> Dumps::ExceptionDirectory(int32_t device_id) const {
  std::shared_ptr<const DumpSettings> settings = this->settings();
  if (settings == nullptr ||
      settings->exception == DumpSettings::Exception::kOff) {
    return absl::FailedPreconditionError("exception dump is not enabled");
  }
  const std::string directory = absl::StrCat(
      settings->exception_root, "/extra-info/data-dump/", device_id);
  ASCEND_RETURN_IF_ERROR(dump::MakeDirectories(directory));
  return directory;
}

absl::StatusOr<std::string> Dumps::SaveCustom(
    int32_t device_id, const std::string& file_name,
    const std::string& user_tag, const std::vector<DumpTensorSpec>& tensors) {
  ASCEND_ASSIGN_OR_RETURN(std::string directory, ExceptionDirectory(device_id));
  const std::string path = absl::StrCat(directory, "/", file_name, ".custom.",
                                        dump::TimeMilliseconds());
  dump::DumpRecord record;
  record.dump_time_us = dump::NowMicros();
  const size_t slash = path.rfind('/');
  record.op_name = path.substr(slash + 1);
  if (!user_tag.empty()) record.attrs.emplace_back("user_tag", user_tag);
  for (const DumpTensorSpec& spec : tensors) {
    ASCEND_ASSIGN_OR_RETURN(
        std::vector<uint8_t> bytes,
        Memory::Of(runtime_)->ReadTaskMemory(spec.address, spec.size, device_id,
                                             "tensorAddr"));
    dump::DumpTensor t;
    t.role = spec.role;
    t.data_type = spec.data_type;
    t.format = spec.format;
    t.shape = spec.shape;
    t.origin_shape = spec.origin_shape;
    t.address = reinterpret_cast<uintptr_t>(spec.address);
    t.arg_index = spec.arg_index;
    t.data = std::move(bytes);
    absl::StrAppend(&record.dfx_message,
                    "[Dump][Exception] exception info dump tensor data, type=",
                    static_cast<int>(t.role), "; index=", spec.arg_index,
                    "; size=", t.data.size(), " bytes\n");
    record.tensors.push_back(std::move(t));
  }
  ASCEND_RETURN_IF_ERROR(
      dump::WriteDumpFile(path, dump::Serialize(record), kExceptionFileMode));
  return path;
}

}  // namespace ascend::rt
