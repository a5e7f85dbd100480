// Sample: a vector-add kernel over several blocks, in the way CANN's kernel
// launch examples do it with the runtime's kernel API.
//
// The kernel binary (vector_add_kernels.so, the first argument) is loaded
// with aclrtBinaryLoadFromFile, its function found by name, an argument list
// built with aclrtKernelArgsInit / Append / Finalize and launched with
// aclrtLaunchKernelWithConfig over kBlocks blocks (more than the device has
// cores, and an element count that does not divide by them). Every element
// of the result is checked; the list's n is then updated
// (aclrtKernelArgsParaUpdate) for a second, shorter launch that must leave
// the tail untouched.
// Prints "VERDICT: PASS" (exit status 0) or "VERDICT: FAIL".
#include <cstdint>
#include <cstdio>
#include <vector>

#include "acl/acl.h"
#include "acl/samples/common/sample_utils.h"

namespace {

constexpr uint32_t kBlocks = 8;
constexpr uint32_t kElements = 100'003;
const char* g_binary_path = "acl/samples/kernels/vector_add_kernels.so";

// z[i] == x[i] + y[i] for i < n, and z[i] == fill for the rest.
int Verify(const std::vector<float>& x, const std::vector<float>& y,
           const std::vector<float>& z, uint32_t n, float fill) {
  for (size_t i = 0; i < z.size(); ++i) {
    const float want = i < n ? x[i] + y[i] : fill;
    if (z[i] != want) {
      ERROR_LOG("z[%zu] is %f, expected %f", i, z[i], want);
      return -1;
    }
  }
  return 0;
}

int RunVectorAdd(aclrtStream stream) {
  aclrtBinHandle binary = nullptr;
  CHECK_ERROR(aclrtBinaryLoadFromFile(g_binary_path, nullptr, &binary));
  aclrtFuncHandle func = nullptr;
  CHECK_ERROR(aclrtBinaryGetFunction(binary, "vector_add", &func));
  size_t param_count = 0;
  CHECK_ERROR(aclrtFunctionGetParamCount(func, &param_count));
  INFO_LOG("loaded %s: vector_add takes %zu parameters", g_binary_path,
           param_count);

  const size_t bytes = kElements * sizeof(float);
  std::vector<float> x(kElements), y(kElements);
  for (uint32_t i = 0; i < kElements; ++i) {
    x[i] = static_cast<float>(i) * 0.5f;
    y[i] = static_cast<float>(kElements - i) * 0.25f + 1.0f;
  }
  void* dev[3] = {nullptr, nullptr, nullptr};
  for (void*& p : dev)
    CHECK_ERROR(aclrtMalloc(&p, bytes, ACL_MEM_MALLOC_HUGE_FIRST));
  CHECK_ERROR(
      aclrtMemcpy(dev[0], bytes, x.data(), bytes, ACL_MEMCPY_HOST_TO_DEVICE));
  CHECK_ERROR(
      aclrtMemcpy(dev[1], bytes, y.data(), bytes, ACL_MEMCPY_HOST_TO_DEVICE));
  CHECK_ERROR(aclrtMemset(dev[2], bytes, 0, bytes));

  // The argument list: x, y, z, n, in the kernel's parameter order.
  aclrtArgsHandle args = nullptr;
  CHECK_ERROR(aclrtKernelArgsInit(func, &args));
  aclrtParamHandle param = nullptr;
  aclrtParamHandle n_param = nullptr;
  for (void*& p : dev) {
    CHECK_ERROR(aclrtKernelArgsAppend(args, &p, sizeof p, &param));
  }
  uint32_t n = kElements;
  CHECK_ERROR(aclrtKernelArgsAppend(args, &n, sizeof n, &n_param));
  CHECK_ERROR(aclrtKernelArgsFinalize(args));

  CHECK_ERROR(aclrtLaunchKernelWithConfig(func, kBlocks, stream, nullptr, args,
                                          nullptr));
  CHECK_ERROR(aclrtSynchronizeStream(stream));
  std::vector<float> z(kElements);
  CHECK_ERROR(
      aclrtMemcpy(z.data(), bytes, dev[2], bytes, ACL_MEMCPY_DEVICE_TO_HOST));
  if (Verify(x, y, z, kElements, 0.0f) != 0) return -1;
  INFO_LOG("vector_add over %u blocks: all %u elements correct", kBlocks,
           kElements);

  // A shorter launch with the same list: n updated, z refilled with -1.
  std::vector<float> minus(kElements, -1.0f);
  CHECK_ERROR(aclrtMemcpy(dev[2], bytes, minus.data(), bytes,
                          ACL_MEMCPY_HOST_TO_DEVICE));
  n = kElements / 3;
  CHECK_ERROR(aclrtKernelArgsParaUpdate(args, n_param, &n, sizeof n));
  CHECK_ERROR(aclrtKernelArgsFinalize(args));
  CHECK_ERROR(aclrtLaunchKernelWithConfig(func, kBlocks, stream, nullptr, args,
                                          nullptr));
  CHECK_ERROR(aclrtSynchronizeStream(stream));
  CHECK_ERROR(
      aclrtMemcpy(z.data(), bytes, dev[2], bytes, ACL_MEMCPY_DEVICE_TO_HOST));
  if (Verify(x, y, z, n, -1.0f) != 0) return -1;
  INFO_LOG("updated n = %u: the first %u elements added, the rest untouched", n,
           n);

  for (void* p : dev) CHECK_ERROR(aclrtFree(p));
  CHECK_ERROR(aclrtBinaryUnLoad(binary));
  return 0;
}

int Run() {
  CHECK_ERROR(aclrtSetDevice(0));
  aclrtStream stream = nullptr;
  CHECK_ERROR(aclrtCreateStream(&stream));
  const int result = RunVectorAdd(stream);
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
