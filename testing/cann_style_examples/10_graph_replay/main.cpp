// Graph mode as frameworks use it: a stream is captured into a model runtime
// instance (copies and a host function are recorded, not run), the recorded
// graph is written out as JSON, and the model is replayed three times with new
// input bytes each time.
#include <atomic>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <string>

#include "common/example_utils.h"

namespace {

std::atomic<int> g_replays{0};

void CountReplay(void*) { g_replays.fetch_add(1); }

}  // namespace

int main() {
  constexpr size_t kBytes = 64 * 1024;
  const int32_t device = 0;
  EXAMPLE_CHECK(aclInit(nullptr));
  EXAMPLE_CHECK(aclrtSetDevice(device));
  aclrtStream stream = nullptr;
  EXAMPLE_CHECK(aclrtCreateStream(&stream));

  void* host_in = nullptr;
  void* host_out = nullptr;
  EXAMPLE_CHECK(aclrtMallocHost(&host_in, kBytes));
  EXAMPLE_CHECK(aclrtMallocHost(&host_out, kBytes));
  void* dev_a = nullptr;
  void* dev_b = nullptr;
  EXAMPLE_CHECK(aclrtMalloc(&dev_a, kBytes, ACL_MEM_MALLOC_HUGE_FIRST));
  EXAMPLE_CHECK(aclrtMalloc(&dev_b, kBytes, ACL_MEM_MALLOC_HUGE_FIRST));
  std::memset(host_in, 0x11, kBytes);
  std::memset(host_out, 0, kBytes);

  EXAMPLE_CHECK(aclmdlRICaptureBegin(stream, ACL_MODEL_RI_CAPTURE_MODE_GLOBAL));
  aclmdlRICaptureStatus status = ACL_MODEL_RI_CAPTURE_STATUS_NONE;
  aclmdlRI capturing = nullptr;
  EXAMPLE_CHECK(aclmdlRICaptureGetInfo(stream, &status, &capturing));
  EXAMPLE_CHECK(aclrtMemcpyAsync(dev_a, kBytes, host_in, kBytes,
                                 ACL_MEMCPY_HOST_TO_DEVICE, stream));
  EXAMPLE_CHECK(aclrtMemcpyAsync(dev_b, kBytes, dev_a, kBytes,
                                 ACL_MEMCPY_DEVICE_TO_DEVICE, stream));
  EXAMPLE_CHECK(aclrtLaunchHostFunc(stream, CountReplay, nullptr));
  EXAMPLE_CHECK(aclrtMemcpyAsync(host_out, kBytes, dev_b, kBytes,
                                 ACL_MEMCPY_DEVICE_TO_HOST, stream));
  // A synchronous copy is refused in GLOBAL mode; this thread switches to
  // RELAXED for it, as CANN's samples do.
  aclmdlRICaptureMode mode = ACL_MODEL_RI_CAPTURE_MODE_RELAXED;
  EXAMPLE_CHECK(aclmdlRICaptureThreadExchangeMode(&mode));
  EXAMPLE_CHECK(aclrtMemset(dev_b, kBytes, 0, kBytes));
  EXAMPLE_CHECK(aclmdlRICaptureThreadExchangeMode(&mode));
  aclmdlRI model = nullptr;
  EXAMPLE_CHECK(aclmdlRICaptureEnd(stream, &model));
  const bool recorded_only =
      status == ACL_MODEL_RI_CAPTURE_STATUS_ACTIVE && capturing == model &&
      g_replays.load() == 0 && static_cast<unsigned char*>(host_out)[0] == 0;
  std::printf("Capture recorded without running: %s\n",
              recorded_only ? "yes" : "no");

  const char* json = "graph.json";
  EXAMPLE_CHECK(
      aclmdlRIDebugJsonPrint(model, json, ACL_MDLRI_DEBUG_JSON_PRINT_SUMMARY));
  std::ifstream in(json);
  std::string text((std::istreambuf_iterator<char>(in)),
                   std::istreambuf_iterator<char>());
  const bool json_ok = text.find("traceEvents") != std::string::npos;
  std::printf("Graph JSON: %s\n", json_ok ? "written" : "missing");

  int correct = 0;
  for (int round = 1; round <= 3; ++round) {
    std::memset(host_in, 0x20 + round, kBytes);
    EXAMPLE_CHECK(aclmdlRIExecuteAsync(model, stream));
    EXAMPLE_CHECK(aclrtSynchronizeStream(stream));
    if (std::memcmp(host_in, host_out, kBytes) == 0 &&
        g_replays.load() == round) {
      ++correct;
    }
  }
  std::printf("Replays: %d of 3 correct\n", correct);

  EXAMPLE_CHECK(aclmdlRIDestroy(model));
  EXAMPLE_CHECK(aclrtFree(dev_a));
  EXAMPLE_CHECK(aclrtFree(dev_b));
  EXAMPLE_CHECK(aclrtFreeHost(host_in));
  EXAMPLE_CHECK(aclrtFreeHost(host_out));
  EXAMPLE_CHECK(aclrtDestroyStream(stream));
  EXAMPLE_CHECK(aclrtResetDevice(device));
  EXAMPLE_CHECK(aclFinalize());
  return correct == 3 && recorded_only && json_ok ? 0 : 1;
}
