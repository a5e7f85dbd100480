// Sample: a host-function "kernel" that transforms device memory in stream
// order.
//
// Compiled device kernels are out of scope for the simulator, so the kernel
// is a host function launched with aclrtLaunchHostFunc: it runs on a runtime
// thread when the stream reaches it and may read and write the simulated
// device memory directly. The stream holds: copy x to the device, the kernel
// x[i] = 2 * x[i] + 1, the kernel again, copy back. The host checks
// 4 * x + 3 for every element, and that the kernel ran twice, in order, off
// the calling thread.
// Prints "VERDICT: PASS" (exit status 0) or "VERDICT: FAIL".
#include <cstdint>
#include <cstdio>
#include <thread>
#include <vector>

#include "acl/acl.h"
#include "acl/samples/common/sample_utils.h"

namespace {

constexpr size_t kCount = 1 << 20;
constexpr size_t kSize = kCount * sizeof(float);

// The kernel's arguments: what a device kernel would get as parameters.
struct AffineKernelArgs {
  float* x;  // device memory
  size_t n;
  int launches = 0;  // written only by the kernel
  bool on_caller_thread = false;
  std::thread::id caller;
};

// x[i] = 2 * x[i] + 1
void AffineKernel(void* raw) {
  auto* args = static_cast<AffineKernelArgs*>(raw);
  for (size_t i = 0; i < args->n; ++i) args->x[i] = 2.0f * args->x[i] + 1.0f;
  ++args->launches;
  if (std::this_thread::get_id() == args->caller) {
    args->on_caller_thread = true;
  }
}

int RunKernel(aclrtStream stream, void* device) {
  std::vector<float> x(kCount);
  for (size_t i = 0; i < kCount; ++i) x[i] = static_cast<float>(i % 1000);
  std::vector<float> y(kCount, 0.0f);
  AffineKernelArgs args{static_cast<float*>(device), kCount};
  args.caller = std::this_thread::get_id();

  aclError ret = aclrtMemcpyAsync(device, kSize, x.data(), kSize,
                                  ACL_MEMCPY_HOST_TO_DEVICE, stream);
  if (ret == ACL_SUCCESS)
    ret = aclrtLaunchHostFunc(stream, AffineKernel, &args);
  if (ret == ACL_SUCCESS)
    ret = aclrtLaunchHostFunc(stream, AffineKernel, &args);
  if (ret == ACL_SUCCESS) {
    ret = aclrtMemcpyAsync(y.data(), kSize, device, kSize,
                           ACL_MEMCPY_DEVICE_TO_HOST, stream);
  }
  // Synchronise even after a failed launch: queued work uses x, y and args.
  aclError sync = aclrtSynchronizeStream(stream);
  CHECK_ERROR(ret);
  CHECK_ERROR(sync);
  INFO_LOG("stream finished: copy in, kernel, kernel, copy out");

  if (args.launches != 2 || args.on_caller_thread) {
    ERROR_LOG("kernel ran %d time(s)%s", args.launches,
              args.on_caller_thread ? " on the calling thread" : "");
    return -1;
  }
  for (size_t i = 0; i < kCount; ++i) {
    const float want = 4.0f * x[i] + 3.0f;
    if (y[i] != want) {
      ERROR_LOG("y[%zu] = %f, expected %f", i, y[i], want);
      return -1;
    }
  }
  INFO_LOG("kernel ran twice on a runtime thread; all %zu results are 4x+3",
           kCount);
  return 0;
}

int Run() {
  CHECK_ERROR(aclrtSetDevice(0));
  aclrtStream stream = nullptr;
  void* device = nullptr;
  CHECK_ERROR(aclrtCreateStream(&stream));
  CHECK_ERROR(aclrtMalloc(&device, kSize, ACL_MEM_MALLOC_HUGE_FIRST));
  INFO_LOG("stream created, %zu bytes of device memory allocated", kSize);
  int result = RunKernel(stream, device);
  CHECK_ERROR(aclrtFree(device));
  CHECK_ERROR(aclrtDestroyStream(stream));
  CHECK_ERROR(aclrtResetDevice(0));
  INFO_LOG("resources released");
  return result;
}

}  // namespace

int main() { return RunSample(Run); }
