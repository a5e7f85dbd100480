// A kernel that traps, under both stream failure modes, seen by an exception
// callback: count, trap, count on one stream; then synchronize and read the
// counter. Continue-on-failure runs the second count, stop-on-failure does
// not; both report the trap's code (507016) to the synchronize call and to
// the callback, with the failing stream, device and kernel.
#include <atomic>
#include <cstdint>
#include <cstring>

#include "common/example_utils.h"
#include "trap_kernels.h"

namespace {

constexpr uint32_t kBlocks = 4;
constexpr uint32_t kTrapBlock = 2;

std::atomic<int> g_callbacks{0};
uint32_t g_code = 0;
uint32_t g_streamId = 0;
uint32_t g_deviceId = 0;
char g_kernelName[64] = "";

void OnException(aclrtExceptionInfo* info) {
  g_code = aclrtGetErrorCodeFromExceptionInfo(info);
  g_streamId = aclrtGetStreamIdFromExceptionInfo(info);
  g_deviceId = aclrtGetDeviceIdFromExceptionInfo(info);
  aclrtFuncHandle func = nullptr;
  g_kernelName[0] = '\0';
  if (aclrtGetFuncHandleFromExceptionInfo(info, &func) == ACL_SUCCESS &&
      func != nullptr) {
    aclrtGetFunctionName(func, sizeof g_kernelName, g_kernelName);
  }
  g_callbacks.fetch_add(1);
}

// Count, trap, count on a stream in the given failure mode.
int RunMode(const char* label, uint64_t mode, int32_t device) {
  aclrtStream stream = nullptr;
  EXAMPLE_CHECK(aclrtCreateStream(&stream));
  EXAMPLE_CHECK(aclrtSetStreamFailureMode(stream, mode));
  int32_t streamId = -1;
  EXAMPLE_CHECK(aclrtStreamGetId(stream, &streamId));
  uint32_t* counter = nullptr;
  uint32_t* marks = nullptr;
  EXAMPLE_CHECK(aclrtMalloc(reinterpret_cast<void**>(&counter),
                            sizeof(uint32_t), ACL_MEM_MALLOC_HUGE_FIRST));
  EXAMPLE_CHECK(aclrtMalloc(reinterpret_cast<void**>(&marks),
                            kBlocks * sizeof(uint32_t),
                            ACL_MEM_MALLOC_HUGE_FIRST));
  g_callbacks = 0;
  g_code = 0;

  EXAMPLE_CHECK(CountDo(stream, counter));
  EXAMPLE_CHECK(TrapDo(kBlocks, stream, marks, kTrapBlock));
  // In stop mode the stream may refuse tasks once it has failed.
  const aclError third = CountDo(stream, counter);
  const aclError sync = aclrtSynchronizeStream(stream);

  uint32_t count = 0;
  uint32_t hostMarks[kBlocks] = {};
  EXAMPLE_CHECK(aclrtMemcpy(&count, sizeof count, counter, sizeof count,
                            ACL_MEMCPY_DEVICE_TO_HOST));
  EXAMPLE_CHECK(aclrtMemcpy(hostMarks, sizeof hostMarks, marks,
                            sizeof hostMarks, ACL_MEMCPY_DEVICE_TO_HOST));
  const bool streamMatches = g_streamId == static_cast<uint32_t>(streamId);
  std::printf("%s: third launch %d, synchronize %d, counter %u\n", label,
              static_cast<int>(third), static_cast<int>(sync), count);
  std::printf("%s: marks %u %u %u %u\n", label, hostMarks[0], hostMarks[1],
              hostMarks[2], hostMarks[3]);
  std::printf("%s: callbacks %d, code %u, stream %s, device %u, kernel %s\n",
              label, g_callbacks.load(), g_code,
              streamMatches ? "matches" : "differs", g_deviceId, g_kernelName);

  EXAMPLE_CHECK(aclrtFree(counter));
  EXAMPLE_CHECK(aclrtFree(marks));
  EXAMPLE_CHECK(aclrtDestroyStreamForce(stream));
  (void)device;
  return 0;
}

}  // namespace

int main() {
  const int32_t device = 0;
  EXAMPLE_CHECK(aclInit(nullptr));
  EXAMPLE_CHECK(aclrtSetDevice(device));
  EXAMPLE_CHECK(aclrtExceptionInfoCallbackRegister(OnException));
  if (RunMode("continue", ACL_CONTINUE_ON_FAILURE, device) != 0) return 1;
  if (RunMode("stop", ACL_STOP_ON_FAILURE, device) != 0) return 1;
  EXAMPLE_CHECK(aclrtExceptionInfoCallbackUnregister(OnException));
  EXAMPLE_CHECK(aclrtResetDevice(device));
  EXAMPLE_CHECK(aclFinalize());
  return 0;
}
