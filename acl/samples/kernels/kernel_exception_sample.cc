// Sample: a kernel raising a device exception, under both stream failure
// modes, with an exception-info callback (CANN's
// stream/1_stream_with_failure_mode and callback/2_callback_exception, with
// a real kernel).
//
// check_input (exception_kernels.so, the first argument) raises a device
// exception in the block that finds a negative input. A store kernel queued
// behind it shows whether the stream ran on:
//   * continue on failure (the default): the store runs, the synchronize
//     reports the exception;
//   * stop on failure (aclrtSetStreamFailureMode): the store is skipped, the
//     synchronize reports the exception, and the stream works again after.
// Each time the callback registered with aclrtExceptionInfoCallbackRegister
// must be told exactly once, with the error code, the device, the stream's
// id (aclrtStreamGetId), the task id aclrtGetThreadLastTaskId gave right
// after the launch, the failing function's handle and its argument bytes.
// Prints "VERDICT: PASS" (exit status 0) or "VERDICT: FAIL".
#include <atomic>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <mutex>
#include <vector>

#include "acl/acl.h"
#include "acl/samples/common/sample_utils.h"

namespace {

const char* g_binary_path = "acl/samples/kernels/exception_kernels.so";

struct CheckInputArgs {
  const int32_t* values;
  uint32_t n;
  uint32_t code;
};

struct StoreArgs {
  int32_t* p;
  int32_t value;
};

// What the callback was told (written on the stream's thread).
struct Reported {
  uint32_t error_code = 0;
  uint32_t device_id = 0;
  uint32_t stream_id = 0;
  uint32_t task_id = 0;
  aclrtFuncHandle func = nullptr;
  std::vector<uint8_t> args;
};
std::mutex g_mu;
std::vector<Reported> g_reported;

void OnException(aclrtExceptionInfo* info) {
  Reported r;
  r.error_code = aclrtGetErrorCodeFromExceptionInfo(info);
  r.device_id = aclrtGetDeviceIdFromExceptionInfo(info);
  r.stream_id = aclrtGetStreamIdFromExceptionInfo(info);
  r.task_id = aclrtGetTaskIdFromExceptionInfo(info);
  (void)aclrtGetFuncHandleFromExceptionInfo(info, &r.func);
  void* args = nullptr;
  uint32_t len = 0;
  if (aclrtGetArgsFromExceptionInfo(info, &args, &len) == ACL_SUCCESS &&
      args != nullptr) {
    // The simulator's argument bytes are host memory, valid in the callback.
    const auto* bytes = static_cast<const uint8_t*>(args);
    r.args.assign(bytes, bytes + len);
  }
  std::lock_guard<std::mutex> lock(g_mu);
  g_reported.push_back(std::move(r));
}

struct Kernels {
  aclrtFuncHandle check_input = nullptr;
  aclrtFuncHandle store = nullptr;
};

aclError LaunchWithArgs(aclrtFuncHandle func, uint32_t blocks,
                        aclrtStream stream, const void* data, size_t size) {
  // aclrtLaunchKernelWithHostArgs: the argument bytes as one struct.
  return aclrtLaunchKernelWithHostArgs(
      func, blocks, stream, nullptr, const_cast<void*>(data), size, nullptr, 0);
}

// One round: check_input fails in block `bad_block`, store(p, value)
// follows. Checks the synchronize's code, the store's effect and what the
// callback was told.
int FailOnce(const Kernels& k, aclrtStream stream, int32_t* values,
             uint32_t blocks, uint32_t bad_block, uint32_t code, int32_t* p,
             int32_t value, bool store_runs, const char* mode) {
  // values: all positive but one.
  std::vector<int32_t> host(blocks, 7);
  host[bad_block] = -1;
  CHECK_ERROR(aclrtMemcpy(values, blocks * sizeof(int32_t), host.data(),
                          blocks * sizeof(int32_t), ACL_MEMCPY_HOST_TO_DEVICE));
  int32_t before = 0;
  CHECK_ERROR(aclrtMemcpy(&before, sizeof before, p, sizeof before,
                          ACL_MEMCPY_DEVICE_TO_HOST));
  int32_t stream_id = -1;
  CHECK_ERROR(aclrtStreamGetId(stream, &stream_id));
  const size_t reports_before = g_reported.size();

  const CheckInputArgs check{values, blocks, code};
  CHECK_ERROR(
      LaunchWithArgs(k.check_input, blocks, stream, &check, sizeof check));
  uint32_t task_id = 0;
  CHECK_ERROR(aclrtGetThreadLastTaskId(&task_id));
  const StoreArgs store{p, value};
  CHECK_ERROR(LaunchWithArgs(k.store, 1, stream, &store, sizeof store));

  const aclError synced = aclrtSynchronizeStream(stream);
  const uint32_t want_code =
      code == 0 ? static_cast<uint32_t>(ACL_ERROR_RT_AICORE_EXCEPTION) : code;
  if (static_cast<uint32_t>(synced) != want_code) {
    ERROR_LOG("%s: aclrtSynchronizeStream returned %d, expected %u", mode,
              synced, want_code);
    return -1;
  }
  (void)aclrtGetLastError(ACL_RT_THREAD_LEVEL);
  int32_t after = 0;
  CHECK_ERROR(aclrtMemcpy(&after, sizeof after, p, sizeof after,
                          ACL_MEMCPY_DEVICE_TO_HOST));
  const int32_t want_after = store_runs ? value : before;
  if (after != want_after) {
    ERROR_LOG("%s: the store behind the failed kernel left %d, expected %d",
              mode, after, want_after);
    return -1;
  }

  std::lock_guard<std::mutex> lock(g_mu);
  if (g_reported.size() != reports_before + 1) {
    ERROR_LOG("%s: the exception callback was told %zu times, expected 1", mode,
              g_reported.size() - reports_before);
    return -1;
  }
  const Reported& r = g_reported.back();
  bool ok = true;
  auto expect = [&](bool cond, const char* what) {
    if (!cond) {
      ERROR_LOG("%s: the exception info has the wrong %s", mode, what);
      ok = false;
    }
  };
  expect(r.error_code == want_code, "error code");
  expect(r.device_id == 0, "device id");
  expect(r.stream_id == static_cast<uint32_t>(stream_id), "stream id");
  expect(r.task_id == task_id, "task id");
  expect(r.func == k.check_input, "function handle");
  expect(r.args.size() == sizeof check &&
             std::memcmp(r.args.data(), &check, sizeof check) == 0,
         "argument bytes");
  if (!ok) {
    ERROR_LOG(
        "%s: told code %u device %u stream %u task %u func %p, %zu "
        "argument bytes; expected stream %d task %u func %p",
        mode, r.error_code, r.device_id, r.stream_id, r.task_id, r.func,
        r.args.size(), stream_id, task_id, k.check_input);
    return -1;
  }
  INFO_LOG(
      "%s: exception %u in task %u of stream %d reported; the next "
      "task %s",
      mode, want_code, task_id, stream_id, store_runs ? "ran" : "was skipped");
  return 0;
}

int RunExceptions(aclrtStream stream) {
  aclrtBinHandle binary = nullptr;
  CHECK_ERROR(aclrtBinaryLoadFromFile(g_binary_path, nullptr, &binary));
  Kernels k;
  CHECK_ERROR(aclrtBinaryGetFunction(binary, "check_input", &k.check_input));
  CHECK_ERROR(aclrtBinaryGetFunction(binary, "store", &k.store));
  constexpr uint32_t kBlocks = 6;
  void* values = nullptr;
  void* p = nullptr;
  CHECK_ERROR(aclrtMalloc(&values, kBlocks * sizeof(int32_t),
                          ACL_MEM_MALLOC_HUGE_FIRST));
  CHECK_ERROR(aclrtMalloc(&p, sizeof(int32_t), ACL_MEM_MALLOC_HUGE_FIRST));
  CHECK_ERROR(aclrtMemset(p, sizeof(int32_t), 0, sizeof(int32_t)));
  auto* values_i = static_cast<int32_t*>(values);
  auto* p_i = static_cast<int32_t*>(p);
  CHECK_ERROR(aclrtExceptionInfoCallbackRegister(&OnException));
  // A task first, so that the failing one's id is not the stream's first
  // (0, what aclrtGetThreadLastTaskId answers before any task).
  const StoreArgs zero{p_i, 0};
  CHECK_ERROR(LaunchWithArgs(k.store, 1, stream, &zero, sizeof zero));
  CHECK_ERROR(aclrtSynchronizeStream(stream));

  // Continue on failure (the default), code 0: the AI Core exception.
  if (FailOnce(k, stream, values_i, kBlocks, 4, 0, p_i, 1, true,
               "continue on failure") != 0) {
    return -1;
  }
  // Stop on failure, a vector core exception.
  CHECK_ERROR(aclrtSetStreamFailureMode(stream, ACL_STOP_ON_FAILURE));
  if (FailOnce(k, stream, values_i, kBlocks, 1,
               ACL_ERROR_RT_VECTOR_CORE_EXCEPTION, p_i, 2, false,
               "stop on failure") != 0) {
    return -1;
  }
  // The failure was reported: the stream runs again.
  const StoreArgs store{p_i, 3};
  CHECK_ERROR(LaunchWithArgs(k.store, 1, stream, &store, sizeof store));
  CHECK_ERROR(aclrtSynchronizeStream(stream));
  int32_t now = 0;
  CHECK_ERROR(
      aclrtMemcpy(&now, sizeof now, p, sizeof now, ACL_MEMCPY_DEVICE_TO_HOST));
  if (now != 3) {
    ERROR_LOG("after the reported failure a store left %d, expected 3", now);
    return -1;
  }
  INFO_LOG("stop on failure: the stream runs again after the report");
  {
    std::lock_guard<std::mutex> lock(g_mu);
    if (g_reported.size() != 2) {
      ERROR_LOG("%zu exceptions reported in all, expected 2",
                g_reported.size());
      return -1;
    }
  }

  CHECK_ERROR(aclrtExceptionInfoCallbackUnregister(&OnException));
  CHECK_ERROR(aclrtFree(values));
  CHECK_ERROR(aclrtFree(p));
  CHECK_ERROR(aclrtBinaryUnLoad(binary));
  return 0;
}

int Run() {
  CHECK_ERROR(aclrtSetDevice(0));
  aclrtStream stream = nullptr;
  CHECK_ERROR(aclrtCreateStream(&stream));
  const int result = RunExceptions(stream);
  CHECK_ERROR(aclrtDestroyStream(stream));
  CHECK_ERROR(aclrtResetDevice(0));
  INFO_LOG("resources released");
  return result;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc > 1) g_binary_path = argv[1];
  return RunSample(Run);
}
