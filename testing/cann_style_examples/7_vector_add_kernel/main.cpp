// Launches the AscendC vector-add kernel of vector_add_kernel.cpp with
// <<<>>> over 8 blocks and checks every sum against the runtime's own half
// conversions (aclFloatToFloat16 / aclFloat16ToFloat).
#include <cstdint>
#include <vector>

#include "common/example_utils.h"
#include "vector_add.h"

int main() {
  const int32_t device = 0;
  const uint32_t count = kVectorAddBlocks * kVectorAddBlockLength;
  const size_t bytes = count * sizeof(aclFloat16);
  std::vector<aclFloat16> x(count), y(count), z(count, 0);
  for (uint32_t i = 0; i < count; ++i) {
    x[i] = aclFloatToFloat16(static_cast<float>(i % 1000) * 0.37f);
    y[i] = aclFloatToFloat16(100.0f - static_cast<float>(i % 777) * 0.11f);
  }

  EXAMPLE_CHECK(aclInit(nullptr));
  EXAMPLE_CHECK(aclrtSetDevice(device));
  aclrtStream stream = nullptr;
  EXAMPLE_CHECK(aclrtCreateStream(&stream));
  void* xDevice = nullptr;
  void* yDevice = nullptr;
  void* zDevice = nullptr;
  EXAMPLE_CHECK(aclrtMalloc(&xDevice, bytes, ACL_MEM_MALLOC_HUGE_FIRST));
  EXAMPLE_CHECK(aclrtMalloc(&yDevice, bytes, ACL_MEM_MALLOC_HUGE_FIRST));
  EXAMPLE_CHECK(aclrtMalloc(&zDevice, bytes, ACL_MEM_MALLOC_HUGE_FIRST));
  EXAMPLE_CHECK(
      aclrtMemcpy(xDevice, bytes, x.data(), bytes, ACL_MEMCPY_HOST_TO_DEVICE));
  EXAMPLE_CHECK(
      aclrtMemcpy(yDevice, bytes, y.data(), bytes, ACL_MEMCPY_HOST_TO_DEVICE));

  EXAMPLE_CHECK(VectorAddDo(
      kVectorAddBlocks, stream, static_cast<uint8_t*>(xDevice),
      static_cast<uint8_t*>(yDevice), static_cast<uint8_t*>(zDevice)));
  EXAMPLE_CHECK(aclrtSynchronizeStream(stream));
  EXAMPLE_CHECK(
      aclrtMemcpy(z.data(), bytes, zDevice, bytes, ACL_MEMCPY_DEVICE_TO_HOST));

  uint32_t wrong = 0;
  for (uint32_t i = 0; i < count; ++i) {
    const aclFloat16 expected =
        aclFloatToFloat16(aclFloat16ToFloat(x[i]) + aclFloat16ToFloat(y[i]));
    if (z[i] != expected) {
      if (wrong < 5) {
        EXAMPLE_ERROR("z[%u] = 0x%04x, expected 0x%04x", i, z[i], expected);
      }
      ++wrong;
    }
  }
  std::printf("Vector add result: %s (%u of %u elements differ)\n",
              wrong == 0 ? "equal" : "different", wrong, count);

  EXAMPLE_CHECK(aclrtFree(xDevice));
  EXAMPLE_CHECK(aclrtFree(yDevice));
  EXAMPLE_CHECK(aclrtFree(zDevice));
  EXAMPLE_CHECK(aclrtDestroyStream(stream));
  EXAMPLE_CHECK(aclrtResetDevice(device));
  EXAMPLE_CHECK(aclFinalize());
  return wrong == 0 ? 0 : 1;
}
