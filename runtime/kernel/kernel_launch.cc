// Kernel launches: aclrtLaunchKernel's task and the count of launches in
// flight the launch grace waits on (runtime/kernel/kernel.h; DESIGN.md
// §5.20). Binaries, functions and the snapshot's reads are in kernel.cc.
#include <algorithm>
#include <atomic>
#include <cstdio>
#include <memory>
#include <string>
#include <utility>

#include "absl/strings/str_cat.h"
#include "absl/time/clock.h"
#include "acl/error_codes/rt_error_codes.h"
#include "device/base/status_macros.h"
#include "runtime/base/error.h"
#include "runtime/device_info/device_info.h"
#include "runtime/exception_info.h"
#include "runtime/kernel/kernel.h"
#include "runtime/kernel/kernel_objects.h"
#include "runtime/memory/memory.h"
#include "runtime/runtime.h"
#include "runtime/stream.h"

namespace ascend::rt {

// --- Launches ----------------------------------------------------------------

absl::Status Kernels::Launch(void* func, uint32_t blocks, void* stream,
                             const LaunchConfig& config, LaunchArgs args) {
  if (blocks == 0 || blocks > kMaxBlocks) {
    return Error(
        ACL_ERROR_RT_PARAM_INVALID,
        absl::StrCat("numBlocks ", blocks, " is not in [1, ", kMaxBlocks, "]"));
  }
  std::shared_ptr<KernelFunction> function;
  {
    ascend::MutexLock lock(&mu_);
    function = FindFunctionLocked(func);
  }
  if (function == nullptr) return NotFunction(func);
  ASCEND_ASSIGN_OR_RETURN(std::shared_ptr<Stream> s,
                          runtime_.ResolveStream(stream));
  const int32_t device_id = s->device_id();
  if (function->binary->device_id >= 0 &&
      function->binary->device_id != device_id) {
    return Error(
        ACL_ERROR_RT_PARAM_INVALID,
        absl::StrCat("kernel ", function->name, " was loaded on device ",
                     function->binary->device_id, "; the stream is on device ",
                     device_id));
  }
  if (args.device != nullptr) {
    ASCEND_RETURN_IF_ERROR(memory_->CheckTaskMemory(
        args.device, args.device_size, device_id, "argsData"));
  }
  std::shared_ptr<device::Device> device = runtime_.DeviceObject(device_id);
  if (device == nullptr) {
    return Error(ACL_ERROR_RT_INVALID_DEVICEID,
                 absl::StrCat("device ", device_id, " is not open"));
  }
  auto task_info = std::make_shared<KernelTask>();
  task_info->kernels = this;
  task_info->function = function;
  task_info->args = std::move(args);
  task_info->blocks = blocks;
  task_info->cores = std::max<uint32_t>(
      1, DeviceInfo::Of(runtime_)->settings().LaunchCores(
             device_id,
             config.vector_cores ? CoreKind::kVector : CoreKind::kCube));
  task_info->cores = std::min(
      task_info->cores,
      std::max<uint32_t>(
          1, DeviceInfo::Of(runtime_)->settings().StreamCores(
                 s->handle(), device_id,
                 config.vector_cores ? CoreKind::kVector : CoreKind::kCube)));
  task_info->config = config;
  task_info->device = device;
  LaunchArgs& launch_args = task_info->args;
  FillPlaceHolders(launch_args);
  task_info->func = function->handle.value();
  task_info->name = function->name.c_str();
  task_info->args_ptr = launch_args.device != nullptr
                            ? launch_args.device
                            : static_cast<void*>(launch_args.bytes.data());
  task_info->args_len = static_cast<uint32_t>(launch_args.device != nullptr
                                                  ? launch_args.device_size
                                                  : launch_args.bytes.size());
  task_info->notify = [](const KernelTaskInfo& info, rtExceptionInfo& e) {
    const auto& self = static_cast<const KernelTask&>(info);
    aclrtOpExceptionCallback callback = nullptr;
    void* data = nullptr;
    {
      ascend::MutexLock lock(&self.kernels->mu_);
      callback = self.function->binary->callback;
      data = self.function->binary->callback_data;
    }
    if (callback != nullptr) callback(&e, data);
  };
  const uint64_t timeout_us =
      config.timeout_us != 0
          ? config.timeout_us
          : DeviceInfo::Of(runtime_)->settings().OpExecuteTimeoutUs();
  Memory* memory = memory_;
  Task task;
  task.kernel = task_info.get();
  // Counted until it ran or was discarded (AwaitLaunches): the task's
  // closures hold the only references. A recorded launch is not counted (it
  // is not queued; a model's executions run it).
  if (!s->recording()) {
    in_flight_.fetch_add(1, std::memory_order_acq_rel);
    task_info->counted = true;
  }
  task_info->blocks = blocks;
  task_info->block_offset = config.block_offset;
  task_info->timeout_us = config.timeout_us;
  task_info->sched_mode = config.sched_mode;
  task_info->vector_cores = config.vector_cores;
  task.params = {ACL_MODEL_RI_TASK_KERNEL, task_info->func, blocks, 0};
  task.cancel = [task_info] {};
  task.run = [task_info, memory, timeout_us]() -> absl::Status {
    std::shared_ptr<device::Device> device = task_info->device.lock();
    if (device == nullptr) {
      return absl::CancelledError("the device was reset");
    }
    device::KernelLaunch launch;
    launch.entry = task_info->function->entry;
    launch.args = task_info->args_ptr;
    launch.blocks = task_info->blocks;
    launch.block_offset = task_info->config.block_offset;
    launch.cores = task_info->cores;
    const Stream* stream = Stream::Current();
    // The device's default timeout is the longest there is: no clock then.
    const bool timed = timeout_us != 0 && timeout_us < kNoTimeoutUs;
    const absl::Time start = timed ? absl::Now() : absl::InfinitePast();
    device::KernelLaunchResult result;
    absl::Status ran = device->RunKernel(
        launch, [stream] { return stream != nullptr && stream->stopping(); },
        &result);
    if (!result.output.empty()) {
      std::fwrite(result.output.data(), 1, result.output.size(), stdout);
      std::fflush(stdout);
    }
    // Kernels write device memory.
    memory->MemoryWritten();
    ASCEND_RETURN_IF_ERROR(ran);
    const int32_t code = FaultCode(result);
    const std::string& name = task_info->function->name;
    if (code != 0) {
      return Error(code,
                   absl::StrCat("kernel ", name, " raised a device exception ",
                                static_cast<uint32_t>(code), " in block ",
                                result.block, " of ", launch.blocks));
    }
    if (!timed) return absl::OkStatus();
    const absl::Duration took = absl::Now() - start;
    if (took > absl::Microseconds(static_cast<int64_t>(timeout_us))) {
      return Error(
          ACL_ERROR_RT_AICORE_TIMEOUT,
          absl::StrCat("kernel ", name, " ran ", absl::FormatDuration(took),
                       ", past its timeout of ", timeout_us, " us"));
    }
    return absl::OkStatus();
  };
  // A kernel is code of the application's: it may write any memory.
  Submission sub(TaskKind::kKernel, "aclrtLaunchKernel", std::move(s));
  sub.name = task_info->function->name;
  sub.task = std::move(task);
  sub.writes.any = true;
  return runtime_.tasks().Submit(std::move(sub));
}

void Kernels::LaunchDone() {
  if (in_flight_.fetch_sub(1, std::memory_order_acq_rel) == 1) {
    // Wakes AwaitLaunches (its Await re-checks on unlock).
    ascend::MutexLock lock(&quiet_mu_);
  }
}

void Kernels::AwaitLaunches(absl::Duration grace) {
  if (in_flight_.load(std::memory_order_acquire) == 0) return;
  if (Stream::Current() != nullptr) return;
  ascend::MutexLock lock(&quiet_mu_);
  (void)quiet_mu_.AwaitWithDeadline(
      absl::Condition(
          +[](std::atomic<int64_t>* n) {
            return n->load(std::memory_order_acquire) == 0;
          },
          &in_flight_),
      absl::Now() + grace);
}

}  // namespace ascend::rt
