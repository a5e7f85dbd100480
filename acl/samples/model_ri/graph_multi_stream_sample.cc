// Sample: a graph captured across two streams and replayed.
//
// Capture begins on stream `main`. An event recorded there and waited on by
// stream `side` forks the capture onto `side`; a second event recorded on
// `side` and waited on by `main` joins it back before aclmdlRICaptureEnd.
// Captured work (nothing of it runs while capturing):
//   main: memset dst_a to 0xEE, D2D copy src -> dst_a, host function A
//   side: memset dst_b to 0x5A, host function B
//   main (after the join): host function C, which records how many times B
//         had run when C ran (the join must order B before C).
// The model is then replayed kReplays times with aclmdlRIExecuteAsync; before
// each replay the host changes src and clears both destinations, so every
// replay must copy the current src and fill dst_b again. After each replay
// the bytes and the host-function counts are checked.
// Prints "VERDICT: PASS" (exit status 0) or "VERDICT: FAIL".
#include <atomic>
#include <cstdint>
#include <cstdio>
#include <vector>

#include "acl/acl.h"
#include "acl/samples/common/sample_utils.h"

namespace {

constexpr size_t kBytes = 4096;
constexpr int kReplays = 5;

struct Counters {
  std::atomic<int> a{0};
  std::atomic<int> b{0};
  std::atomic<int> c{0};
  std::atomic<int> b_seen_by_c{-1};
};

void CountA(void* raw) { static_cast<Counters*>(raw)->a.fetch_add(1); }
void CountB(void* raw) { static_cast<Counters*>(raw)->b.fetch_add(1); }
void CountC(void* raw) {
  auto* c = static_cast<Counters*>(raw);
  c->b_seen_by_c.store(c->b.load());
  c->c.fetch_add(1);
}

// Every byte of the device buffer equals want.
int ExpectBytes(const void* device, uint8_t want, const char* what) {
  std::vector<uint8_t> host(kBytes, 0);
  CHECK_ERROR(aclrtMemcpy(host.data(), kBytes, device, kBytes,
                          ACL_MEMCPY_DEVICE_TO_HOST));
  for (size_t i = 0; i < kBytes; ++i) {
    if (host[i] != want) {
      ERROR_LOG("%s[%zu] is 0x%02x, expected 0x%02x", what, i, host[i], want);
      return -1;
    }
  }
  return 0;
}

int Capture(aclrtStream main, aclrtStream side, aclrtEvent fork,
            aclrtEvent join, void* src, void* dst_a, void* dst_b,
            Counters* counters, aclmdlRI* model) {
  CHECK_ERROR(aclmdlRICaptureBegin(main, ACL_MODEL_RI_CAPTURE_MODE_GLOBAL));
  CHECK_ERROR(aclrtMemsetAsync(dst_a, kBytes, 0xEE, kBytes, main));
  CHECK_ERROR(aclrtRecordEvent(fork, main));
  CHECK_ERROR(aclrtStreamWaitEvent(side, fork));  // side joins the capture
  CHECK_ERROR(aclrtMemcpyAsync(dst_a, kBytes, src, kBytes,
                               ACL_MEMCPY_DEVICE_TO_DEVICE, main));
  CHECK_ERROR(aclrtLaunchHostFunc(main, CountA, counters));
  CHECK_ERROR(aclrtMemsetAsync(dst_b, kBytes, 0x5A, kBytes, side));
  CHECK_ERROR(aclrtLaunchHostFunc(side, CountB, counters));
  CHECK_ERROR(aclrtRecordEvent(join, side));
  CHECK_ERROR(aclrtStreamWaitEvent(main, join));  // side joins back
  CHECK_ERROR(aclrtLaunchHostFunc(main, CountC, counters));

  aclmdlRICaptureStatus status = ACL_MODEL_RI_CAPTURE_STATUS_NONE;
  aclmdlRI capturing = nullptr;
  CHECK_ERROR(aclmdlRICaptureGetInfo(side, &status, &capturing));
  if (status != ACL_MODEL_RI_CAPTURE_STATUS_ACTIVE || capturing == nullptr) {
    ERROR_LOG("the side stream is not part of the capture (status %d)",
              static_cast<int>(status));
    return -1;
  }
  CHECK_ERROR(aclmdlRICaptureEnd(main, model));
  if (*model != capturing) {
    ERROR_LOG("aclmdlRICaptureEnd returned another model than GetInfo");
    return -1;
  }
  CHECK_ERROR(aclmdlRICaptureGetInfo(main, &status, &capturing));
  if (status != ACL_MODEL_RI_CAPTURE_STATUS_NONE) {
    ERROR_LOG("the main stream still captures after aclmdlRICaptureEnd");
    return -1;
  }
  uint32_t num_streams = 0;
  CHECK_ERROR(aclmdlRIGetStreams(*model, nullptr, &num_streams));
  INFO_LOG("captured a model of %u streams", num_streams);
  if (num_streams != 2) {
    ERROR_LOG("expected 2 model streams");
    return -1;
  }
  return 0;
}

int Replays(aclmdlRI model, aclrtStream exec, void* src, void* dst_a,
            void* dst_b, Counters* counters) {
  for (int i = 1; i <= kReplays; ++i) {
    const uint8_t pattern = static_cast<uint8_t>(0x10 + i);
    CHECK_ERROR(aclrtMemset(src, kBytes, pattern, kBytes));
    CHECK_ERROR(aclrtMemset(dst_a, kBytes, 0, kBytes));
    CHECK_ERROR(aclrtMemset(dst_b, kBytes, 0, kBytes));
    CHECK_ERROR(aclmdlRIExecuteAsync(model, exec));
    CHECK_ERROR(aclrtSynchronizeStream(exec));
    if (ExpectBytes(dst_a, pattern, "dst_a") != 0) return -1;
    if (ExpectBytes(dst_b, 0x5A, "dst_b") != 0) return -1;
    if (counters->a.load() != i || counters->b.load() != i ||
        counters->c.load() != i) {
      ERROR_LOG("after replay %d the host functions ran %d, %d, %d times", i,
                counters->a.load(), counters->b.load(), counters->c.load());
      return -1;
    }
    if (counters->b_seen_by_c.load() != i) {
      ERROR_LOG("replay %d: C ran before B (saw %d runs of B)", i,
                counters->b_seen_by_c.load());
      return -1;
    }
    INFO_LOG("replay %d: dst_a = 0x%02x, dst_b = 0x5a, host functions %d/%d/%d",
             i, pattern, counters->a.load(), counters->b.load(),
             counters->c.load());
  }
  return 0;
}

int RunGraph(aclrtStream main, aclrtStream side, aclrtStream exec,
             aclrtEvent fork, aclrtEvent join, void* src, void* dst_a,
             void* dst_b) {
  Counters counters;
  CHECK_ERROR(aclrtMemset(src, kBytes, 0x33, kBytes));
  aclmdlRI model = nullptr;
  if (Capture(main, side, fork, join, src, dst_a, dst_b, &counters, &model) !=
      0) {
    return -1;
  }
  // Capturing ran nothing.
  CHECK_ERROR(aclrtSynchronizeStream(main));
  CHECK_ERROR(aclrtSynchronizeStream(side));
  int result = 0;
  if (counters.a.load() + counters.b.load() + counters.c.load() != 0 ||
      ExpectBytes(dst_a, 0, "dst_a (captured, not run)") != 0 ||
      ExpectBytes(dst_b, 0, "dst_b (captured, not run)") != 0) {
    ERROR_LOG("captured work ran during the capture");
    result = -1;
  }
  if (result == 0) result = Replays(model, exec, src, dst_a, dst_b, &counters);
  CHECK_ERROR(aclmdlRIDestroy(model));
  return result;
}

int Run() {
  CHECK_ERROR(aclrtSetDevice(0));
  aclrtStream main = nullptr, side = nullptr, exec = nullptr;
  CHECK_ERROR(aclrtCreateStream(&main));
  CHECK_ERROR(aclrtCreateStream(&side));
  CHECK_ERROR(aclrtCreateStream(&exec));
  aclrtEvent fork = nullptr, join = nullptr;
  CHECK_ERROR(aclrtCreateEvent(&fork));
  CHECK_ERROR(aclrtCreateEvent(&join));
  void* src = nullptr;
  void* dst_a = nullptr;
  void* dst_b = nullptr;
  CHECK_ERROR(aclrtMalloc(&src, kBytes, ACL_MEM_MALLOC_HUGE_FIRST));
  CHECK_ERROR(aclrtMalloc(&dst_a, kBytes, ACL_MEM_MALLOC_HUGE_FIRST));
  CHECK_ERROR(aclrtMalloc(&dst_b, kBytes, ACL_MEM_MALLOC_HUGE_FIRST));

  const int result = RunGraph(main, side, exec, fork, join, src, dst_a, dst_b);

  CHECK_ERROR(aclrtFree(dst_b));
  CHECK_ERROR(aclrtFree(dst_a));
  CHECK_ERROR(aclrtFree(src));
  CHECK_ERROR(aclrtDestroyEvent(join));
  CHECK_ERROR(aclrtDestroyEvent(fork));
  CHECK_ERROR(aclrtDestroyStream(exec));
  CHECK_ERROR(aclrtDestroyStream(side));
  CHECK_ERROR(aclrtDestroyStream(main));
  CHECK_ERROR(aclrtResetDevice(0));
  INFO_LOG("resources released");
  return result;
}

}  // namespace

int main() { return RunSample(Run); }
