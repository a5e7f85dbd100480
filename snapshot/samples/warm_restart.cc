// Sample: warm restart of device state with the process snapshot.
//
// An application fills device memory, creates streams, events and a notify,
// then locks the process and backs it up. The simulated device then loses
// the contents of its memory (as after a device reset). Restore brings every
// allocation back at its old address and every stream/event/notify back
// with its old id, so the application carries on with the handles it holds.
//
// Prints each step and ends with "VERDICT: PASS" or "VERDICT: FAIL".
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include <vector>

#include "acl/acl.h"
#include "aclsim/aclsim.h"
#include "runtime/rt_snapshot.h"

namespace {

int g_failures = 0;

#define CHECK_ACL(call)                                                \
  do {                                                                 \
    aclError check_acl_ret_ = (call);                                  \
    if (check_acl_ret_ != ACL_SUCCESS) {                               \
      const char* check_acl_msg_ = aclGetRecentErrMsg();               \
      printf("  FAILED: %s returned %d (%s)\n", #call, check_acl_ret_, \
             check_acl_msg_ ? check_acl_msg_ : "");                    \
      ++g_failures;                                                    \
      return false;                                                    \
    }                                                                  \
  } while (0)

#define EXPECT_TRUE_OR_FAIL(cond, ...)  \
  do {                                  \
    if (!(cond)) {                      \
      printf("  FAILED: " __VA_ARGS__); \
      printf("\n");                     \
      ++g_failures;                     \
    }                                   \
  } while (0)

constexpr int32_t kDevice = 0;
constexpr int kBuffers = 3;
constexpr size_t kSizes[kBuffers] = {4096, 1 << 20, (8 << 20) + 123};

const char* StateName(rtProcessState s) {
  switch (s) {
    case RT_PROCESS_STATE_RUNNING:
      return "RUNNING";
    case RT_PROCESS_STATE_LOCKED:
      return "LOCKED";
    case RT_PROCESS_STATE_BACKED_UP:
      return "BACKED_UP";
    default:
      return "UNKNOWN";
  }
}

void PrintState() {
  rtProcessState s = RT_PROCESS_STATE_MAX;
  if (rtSnapShotProcessGetState(&s) == 0) {
    printf("  process state: %s\n", StateName(s));
  }
}

// Byte i of buffer b.
uint8_t PatternByte(int b, size_t i) {
  return static_cast<uint8_t>((i * 131u + static_cast<size_t>(b) * 17u) ^
                              (i >> 8));
}

void CountHostFunc(void* args) { ++*static_cast<int*>(args); }

bool Run() {
  CHECK_ACL(aclrtSetDevice(kDevice));

  printf("[1] fill device memory and create streams, events and a notify\n");
  void* buffers[kBuffers] = {};
  std::vector<std::vector<uint8_t>> expected(kBuffers);
  for (int b = 0; b < kBuffers; ++b) {
    expected[b].resize(kSizes[b]);
    for (size_t i = 0; i < kSizes[b]; ++i) expected[b][i] = PatternByte(b, i);
    CHECK_ACL(aclrtMalloc(&buffers[b], kSizes[b], ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK_ACL(aclrtMemcpy(buffers[b], kSizes[b], expected[b].data(), kSizes[b],
                          ACL_MEMCPY_HOST_TO_DEVICE));
    printf("  buffer %d: %zu bytes at %p\n", b, kSizes[b], buffers[b]);
  }
  aclrtStream streams[2] = {};
  int32_t stream_ids[2] = {};
  for (int s = 0; s < 2; ++s) {
    CHECK_ACL(aclrtCreateStream(&streams[s]));
    CHECK_ACL(aclrtStreamGetId(streams[s], &stream_ids[s]));
    printf("  stream %d: id %d\n", s, stream_ids[s]);
  }
  aclrtEvent done_event = nullptr;
  aclrtEvent later_event = nullptr;
  CHECK_ACL(aclrtCreateEvent(&done_event));
  CHECK_ACL(aclrtCreateEvent(&later_event));
  aclrtNotify notify = nullptr;
  uint32_t notify_id = 0;
  CHECK_ACL(aclrtCreateNotify(&notify, 0));
  CHECK_ACL(aclrtGetNotifyId(notify, &notify_id));
  printf("  notify id %u\n", notify_id);
  CHECK_ACL(aclrtRecordEvent(done_event, streams[0]));
  CHECK_ACL(aclrtSynchronizeStream(streams[0]));
  PrintState();

  const int pid = static_cast<int>(getpid());
  printf("[2] lock the process\n");
  CHECK_ACL(aclrtSnapShotProcessLock(pid, nullptr));
  PrintState();
  printf("[3] back up device memory and resource tables\n");
  CHECK_ACL(aclrtSnapShotProcessBackup(pid, nullptr));
  PrintState();

  printf("[4] the device loses the contents of its memory\n");
  CHECK_ACL(aclsimInjectFault(kDevice, ACLSIM_FAULT_DEVICE_MEMORY_LOSS));
  // Simulated device memory is host-addressable: look without an API call
  // (copies block while the process is locked).
  const uint8_t* first = static_cast<const uint8_t*>(buffers[1]);
  bool zero = true;
  for (size_t i = 0; i < kSizes[1]; ++i) zero = zero && first[i] == 0;
  printf("  buffer 1 now reads as zeros: %s\n", zero ? "yes" : "no");
  EXPECT_TRUE_OR_FAIL(zero, "the injected memory loss had no effect");

  printf("[5] restore\n");
  CHECK_ACL(aclrtSnapShotProcessRestore(pid, nullptr));
  PrintState();
  printf("[6] unlock\n");
  CHECK_ACL(aclrtSnapShotProcessUnlock(pid, nullptr));
  PrintState();

  printf("[7] verify data at the old addresses\n");
  for (int b = 0; b < kBuffers; ++b) {
    std::vector<uint8_t> back(kSizes[b]);
    CHECK_ACL(aclrtMemcpy(back.data(), kSizes[b], buffers[b], kSizes[b],
                          ACL_MEMCPY_DEVICE_TO_HOST));
    const bool same = back == expected[b];
    printf("  buffer %d at %p: %s\n", b, buffers[b],
           same ? "identical" : "DIFFERENT");
    EXPECT_TRUE_OR_FAIL(same, "buffer %d differs after restore", b);
  }

  printf("[8] verify the old handles\n");
  for (int s = 0; s < 2; ++s) {
    int32_t id = -1;
    CHECK_ACL(aclrtStreamGetId(streams[s], &id));
    printf("  stream %d: id %d (was %d)\n", s, id, stream_ids[s]);
    EXPECT_TRUE_OR_FAIL(id == stream_ids[s], "stream %d changed id", s);
  }
  uint32_t id_now = 0;
  CHECK_ACL(aclrtGetNotifyId(notify, &id_now));
  printf("  notify: id %u (was %u)\n", id_now, notify_id);
  EXPECT_TRUE_OR_FAIL(id_now == notify_id, "the notify changed id");
  aclrtEventRecordedStatus status = ACL_EVENT_RECORDED_STATUS_NOT_READY;
  CHECK_ACL(aclrtQueryEventStatus(done_event, &status));
  printf(
      "  event recorded before the snapshot: %s\n",
      status == ACL_EVENT_RECORDED_STATUS_COMPLETE ? "COMPLETE" : "NOT_READY");
  EXPECT_TRUE_OR_FAIL(status == ACL_EVENT_RECORDED_STATUS_COMPLETE,
                      "the recorded event lost its state");

  // New work on the old handles: stream 1 doubles buffer 0 through a host
  // function, records an event that stream 0 waits for, and the notify
  // passes from stream 0 to stream 1.
  int host_calls = 0;
  std::vector<uint8_t> fresh(kSizes[0], 0x5A);
  CHECK_ACL(aclrtMemcpyAsync(buffers[0], kSizes[0], fresh.data(), kSizes[0],
                             ACL_MEMCPY_HOST_TO_DEVICE, streams[1]));
  CHECK_ACL(aclrtLaunchHostFunc(streams[1], &CountHostFunc, &host_calls));
  CHECK_ACL(aclrtRecordEvent(later_event, streams[1]));
  CHECK_ACL(aclrtStreamWaitEvent(streams[0], later_event));
  CHECK_ACL(aclrtRecordNotify(notify, streams[0]));
  CHECK_ACL(aclrtWaitAndResetNotify(notify, streams[1], 5));
  CHECK_ACL(aclrtSynchronizeStream(streams[0]));
  CHECK_ACL(aclrtSynchronizeStream(streams[1]));
  std::vector<uint8_t> back(kSizes[0]);
  CHECK_ACL(aclrtMemcpy(back.data(), kSizes[0], buffers[0], kSizes[0],
                        ACL_MEMCPY_DEVICE_TO_HOST));
  printf(
      "  new copy, host function, event wait and notify on old handles: "
      "%s\n",
      back == fresh && host_calls == 1 ? "work" : "BROKEN");
  EXPECT_TRUE_OR_FAIL(back == fresh && host_calls == 1,
                      "the old handles do not work after restore");

  printf("[9] clean up\n");
  CHECK_ACL(aclrtDestroyNotify(notify));
  CHECK_ACL(aclrtDestroyEvent(done_event));
  CHECK_ACL(aclrtDestroyEvent(later_event));
  for (aclrtStream s : streams) CHECK_ACL(aclrtDestroyStream(s));
  for (void* p : buffers) CHECK_ACL(aclrtFree(p));
  CHECK_ACL(aclrtResetDeviceForce(kDevice));
  return true;
}

}  // namespace

int main() {
  printf("warm restart sample: back up, lose device memory, restore\n");
  aclError ret = aclInit(nullptr);
  if (ret != ACL_SUCCESS) {
    printf("aclInit failed: %d\nVERDICT: FAIL\n", ret);
    return 1;
  }
  const bool completed = Run();
  ret = aclFinalize();
  if (ret != ACL_SUCCESS) {
    printf("aclFinalize failed: %d\n", ret);
    ++g_failures;
  }
  const bool pass = completed && g_failures == 0;
  printf("VERDICT: %s\n", pass ? "PASS" : "FAIL");
  return pass ? 0 : 1;
}
