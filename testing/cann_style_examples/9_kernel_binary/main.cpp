// Loads the kernel binary built by ascendc_fatbin_library, finds scale_add
// in it, builds its arguments with aclrtKernelArgs* and launches it over 4
// blocks with aclrtLaunchKernelWithConfig; checks every element.
#include <cstdint>
#include <vector>

#include "common/example_utils.h"

int main() {
  const int32_t device = 0;
  const uint32_t blocks = 4;
  const uint32_t count = blocks * 1024;
  const size_t bytes = count * sizeof(float);
  const float alpha = 1.5f;
  std::vector<float> x(count), y(count), result(count);
  for (uint32_t i = 0; i < count; ++i) {
    x[i] = static_cast<float>(i) * 0.25f;
    y[i] = 10.0f - static_cast<float>(i % 13);
  }

  EXAMPLE_CHECK(aclInit(nullptr));
  EXAMPLE_CHECK(aclrtSetDevice(device));
  aclrtStream stream = nullptr;
  EXAMPLE_CHECK(aclrtCreateStream(&stream));
  void* xDevice = nullptr;
  void* yDevice = nullptr;
  EXAMPLE_CHECK(aclrtMalloc(&xDevice, bytes, ACL_MEM_MALLOC_HUGE_FIRST));
  EXAMPLE_CHECK(aclrtMalloc(&yDevice, bytes, ACL_MEM_MALLOC_HUGE_FIRST));
  EXAMPLE_CHECK(
      aclrtMemcpy(xDevice, bytes, x.data(), bytes, ACL_MEMCPY_HOST_TO_DEVICE));
  EXAMPLE_CHECK(
      aclrtMemcpy(yDevice, bytes, y.data(), bytes, ACL_MEMCPY_HOST_TO_DEVICE));

  aclrtBinHandle binary = nullptr;
  EXAMPLE_CHECK(aclrtBinaryLoadFromFile(
      "./out/fatbin/scale_kernels/scale_kernels.o", nullptr, &binary));
  aclrtFuncHandle func = nullptr;
  EXAMPLE_CHECK(aclrtBinaryGetFunction(binary, "scale_add", &func));
  char name[32] = "";
  EXAMPLE_CHECK(aclrtGetFunctionName(func, sizeof name, name));
  std::printf("Kernel found: %s\n", name);

  aclrtArgsHandle args = nullptr;
  aclrtParamHandle param = nullptr;
  uint32_t total = count;
  EXAMPLE_CHECK(aclrtKernelArgsInit(func, &args));
  EXAMPLE_CHECK(aclrtKernelArgsAppend(args, &xDevice, sizeof xDevice, &param));
  EXAMPLE_CHECK(aclrtKernelArgsAppend(args, &yDevice, sizeof yDevice, &param));
  EXAMPLE_CHECK(aclrtKernelArgsAppend(args, const_cast<float*>(&alpha),
                                      sizeof alpha, &param));
  EXAMPLE_CHECK(aclrtKernelArgsAppend(args, &total, sizeof total, &param));
  EXAMPLE_CHECK(aclrtKernelArgsFinalize(args));
  EXAMPLE_CHECK(aclrtLaunchKernelWithConfig(func, blocks, stream, nullptr, args,
                                            nullptr));
  EXAMPLE_CHECK(aclrtSynchronizeStream(stream));
  EXAMPLE_CHECK(aclrtMemcpy(result.data(), bytes, yDevice, bytes,
                            ACL_MEMCPY_DEVICE_TO_HOST));

  uint32_t wrong = 0;
  for (uint32_t i = 0; i < count; ++i) {
    const float expected = alpha * x[i] + y[i];
    if (result[i] != expected) {
      if (wrong < 5) {
        EXAMPLE_ERROR("y[%u] = %f, expected %f", i, result[i], expected);
      }
      ++wrong;
    }
  }
  std::printf("Scale-add result: %s (%u of %u elements differ)\n",
              wrong == 0 ? "equal" : "different", wrong, count);

  EXAMPLE_CHECK(aclrtBinaryUnLoad(binary));
  EXAMPLE_CHECK(aclrtFree(xDevice));
  EXAMPLE_CHECK(aclrtFree(yDevice));
  EXAMPLE_CHECK(aclrtDestroyStream(stream));
  EXAMPLE_CHECK(aclrtResetDevice(device));
  EXAMPLE_CHECK(aclFinalize());
  return wrong == 0 ? 0 : 1;
}
