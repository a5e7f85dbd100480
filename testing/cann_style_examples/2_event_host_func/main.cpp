// Two streams ordered by an event: stream B waits for an event recorded on
// stream A after a slow host function, and a host function on each stream
// records the order in which they ran.
#include <atomic>
#include <chrono>
#include <thread>

#include "common/example_utils.h"

namespace {

std::atomic<int> g_order{0};
int g_first = -1;
int g_second = -1;

// Takes a while, so stream B would overtake it without the event.
void RecordFirst(void*) {
  std::this_thread::sleep_for(std::chrono::milliseconds(50));
  g_first = g_order.fetch_add(1);
}
void RecordSecond(void*) { g_second = g_order.fetch_add(1); }

}  // namespace

int main() {
  const int32_t device = 0;
  EXAMPLE_CHECK(aclInit(nullptr));
  EXAMPLE_CHECK(aclrtSetDevice(device));
  aclrtStream a = nullptr;
  aclrtStream b = nullptr;
  EXAMPLE_CHECK(aclrtCreateStream(&a));
  EXAMPLE_CHECK(aclrtCreateStream(&b));
  aclrtEvent start = nullptr;
  aclrtEvent done = nullptr;
  EXAMPLE_CHECK(aclrtCreateEvent(&start));
  EXAMPLE_CHECK(aclrtCreateEvent(&done));

  // A: start, the slow host function, done. B waits for that record of
  // done (the one latest when it asks) before its own host function runs.
  EXAMPLE_CHECK(aclrtRecordEvent(start, a));
  EXAMPLE_CHECK(aclrtLaunchHostFunc(a, RecordFirst, nullptr));
  EXAMPLE_CHECK(aclrtRecordEvent(done, a));
  EXAMPLE_CHECK(aclrtStreamWaitEvent(b, done));
  EXAMPLE_CHECK(aclrtLaunchHostFunc(b, RecordSecond, nullptr));
  EXAMPLE_CHECK(aclrtSynchronizeStream(b));
  EXAMPLE_CHECK(aclrtSynchronizeStream(a));

  aclrtEventRecordedStatus status = ACL_EVENT_RECORDED_STATUS_NOT_READY;
  EXAMPLE_CHECK(aclrtQueryEventStatus(done, &status));
  float elapsed_ms = -1.0f;
  EXAMPLE_CHECK(aclrtEventElapsedTime(&elapsed_ms, start, done));
  std::printf("Event status: %s\n", status == ACL_EVENT_RECORDED_STATUS_COMPLETE
                                        ? "complete"
                                        : "not ready");
  std::printf("Elapsed ms is non-negative: %s\n",
              elapsed_ms >= 0.0f ? "yes" : "no");
  std::printf("Host function order: first=%d second=%d\n", g_first, g_second);

  EXAMPLE_CHECK(aclrtDestroyEvent(start));
  EXAMPLE_CHECK(aclrtDestroyEvent(done));
  EXAMPLE_CHECK(aclrtDestroyStream(a));
  EXAMPLE_CHECK(aclrtDestroyStream(b));
  EXAMPLE_CHECK(aclrtResetDevice(device));
  EXAMPLE_CHECK(aclFinalize());
  return 0;
}
