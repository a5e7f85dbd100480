// Sample: a model of the build API with labels and stream control.
//
// Three ACL_STREAM_PERSISTENT streams are bound to a model built with
// aclmdlRIBuildBegin: `head` (ACL_MODEL_STREAM_FLAG_HEAD, starts with every
// execution) and `active` and `switched` (ACL_MODEL_STREAM_FLAG_DEFAULT, run
// only when started). The head stream's program:
//   host function (counts executions)
//   aclrtSwitchLabelByIndex(index, 3, {L0, L1, L2})
//   L0: value write 10 to `branch`, jump to END
//   L1: value write 11 to `branch`, jump to END
//   L2: value write 12 to `branch`,
//       aclrtSwitchStream(index == 2 ? -> `switched`, the head stops)
//   END: aclrtActiveStream(`active`), end of program
// (a jump is aclrtSwitchLabelByIndex on a device word holding 0 with a
// one-label list). `active` and `switched` each run a host function that
// counts their runs. The model is executed for the device index values
// 0, 1, 2 and 5 (past the list: the last label, L2, but no stream switch),
// and each execution's branch value and stream counts are checked.
// Prints "VERDICT: PASS" (exit status 0) or "VERDICT: FAIL".
#include <atomic>
#include <cstdint>
#include <cstdio>

#include "acl/acl.h"
#include "acl/samples/common/sample_utils.h"

namespace {

constexpr uint32_t kBranches = 3;
// aclmdlRIBindStream flags (the header documents their values, defines no
// names for them).
constexpr uint32_t kStreamFlagHead = 0;
constexpr uint32_t kStreamFlagDefault = 0x7FFFFFFF;

std::atomic<int> g_head_runs{0};
std::atomic<int> g_active_runs{0};
std::atomic<int> g_switched_runs{0};

void CountRun(void* counter) {
  static_cast<std::atomic<int>*>(counter)->fetch_add(1);
}

struct Device {
  uint32_t* index = nullptr;   // the branch selector
  uint32_t* zero = nullptr;    // 0: the jump's index
  int32_t* two = nullptr;      // 2: the stream switch's right value
  uint64_t* branch = nullptr;  // written by the branch taken
};

struct Labels {
  aclrtLabel branch[kBranches] = {nullptr, nullptr, nullptr};
  aclrtLabel end = nullptr;
  aclrtLabelList branches = nullptr;
  aclrtLabelList to_end = nullptr;
};

int Build(aclmdlRI model, aclrtStream head, aclrtStream active,
          aclrtStream switched, const Device& d, Labels* l) {
  CHECK_ERROR(aclmdlRIBindStream(model, head, kStreamFlagHead));
  CHECK_ERROR(aclmdlRIBindStream(model, active, kStreamFlagDefault));
  CHECK_ERROR(aclmdlRIBindStream(model, switched, kStreamFlagDefault));
  for (aclrtLabel& label : l->branch) CHECK_ERROR(aclrtCreateLabel(&label));
  CHECK_ERROR(aclrtCreateLabel(&l->end));
  CHECK_ERROR(aclrtCreateLabelList(l->branch, kBranches, &l->branches));
  CHECK_ERROR(aclrtCreateLabelList(&l->end, 1, &l->to_end));

  CHECK_ERROR(aclrtLaunchHostFunc(head, CountRun, &g_head_runs));
  CHECK_ERROR(aclrtSwitchLabelByIndex(d.index, kBranches, l->branches, head));
  for (uint32_t b = 0; b < kBranches; ++b) {
    CHECK_ERROR(aclrtSetLabel(l->branch[b], head));
    CHECK_ERROR(aclrtValueWrite(d.branch, 10 + b, 0, head));
    if (b + 1 < kBranches) {
      CHECK_ERROR(aclrtSwitchLabelByIndex(d.zero, 1, l->to_end, head));
    } else {
      CHECK_ERROR(aclrtSwitchStream(d.index, ACL_RT_EQUAL, d.two,
                                    ACL_RT_SWITCH_INT32, switched, nullptr,
                                    head));
    }
  }
  CHECK_ERROR(aclrtSetLabel(l->end, head));
  CHECK_ERROR(aclrtActiveStream(active, head));
  CHECK_ERROR(aclmdlRIEndTask(model, head));

  CHECK_ERROR(aclrtLaunchHostFunc(active, CountRun, &g_active_runs));
  CHECK_ERROR(aclmdlRIEndTask(model, active));
  CHECK_ERROR(aclrtLaunchHostFunc(switched, CountRun, &g_switched_runs));
  CHECK_ERROR(aclmdlRIEndTask(model, switched));
  CHECK_ERROR(aclmdlRIBuildEnd(model, nullptr));
  return 0;
}

struct Case {
  uint32_t index;
  uint64_t branch;  // the value the branch taken writes
  bool active;      // `active` started (no stream switch)
};

int Execute(aclmdlRI model, aclrtStream exec, const Device& d) {
  const Case cases[] = {{0, 10, true}, {1, 11, true}, {2, 12, false},
                        {5, 12, true}, {1, 11, true}, {2, 12, false},
                        {0, 10, true}};
  int run = 0;
  for (const Case& c : cases) {
    CHECK_ERROR(aclrtMemcpy(d.index, sizeof(uint32_t), &c.index,
                            sizeof(uint32_t), ACL_MEMCPY_HOST_TO_DEVICE));
    CHECK_ERROR(aclrtMemset(d.branch, sizeof(uint64_t), 0, sizeof(uint64_t)));
    const int head = g_head_runs.load();
    const int active = g_active_runs.load();
    const int switched = g_switched_runs.load();
    if (run % 2 == 0) {
      CHECK_ERROR(aclmdlRIExecuteAsync(model, exec));
      CHECK_ERROR(aclrtSynchronizeStream(exec));
    } else {
      CHECK_ERROR(aclmdlRIExecute(model, 10000));
    }
    ++run;
    uint64_t branch = 0;
    CHECK_ERROR(aclrtMemcpy(&branch, sizeof branch, d.branch, sizeof branch,
                            ACL_MEMCPY_DEVICE_TO_HOST));
    const int head_delta = g_head_runs.load() - head;
    const int active_delta = g_active_runs.load() - active;
    const int switched_delta = g_switched_runs.load() - switched;
    INFO_LOG(
        "index %u: branch value %llu, head %d, active %d, switched %d run(s)",
        c.index, static_cast<unsigned long long>(branch), head_delta,
        active_delta, switched_delta);
    if (branch != c.branch || head_delta != 1 ||
        active_delta != (c.active ? 1 : 0) ||
        switched_delta != (c.active ? 0 : 1)) {
      ERROR_LOG("index %u: expected branch value %llu, active %d, switched %d",
                c.index, static_cast<unsigned long long>(c.branch),
                c.active ? 1 : 0, c.active ? 0 : 1);
      return -1;
    }
  }
  return 0;
}

int RunModel(aclrtStream head, aclrtStream active, aclrtStream switched,
             aclrtStream exec, const Device& d) {
  aclmdlRI model = nullptr;
  CHECK_ERROR(aclmdlRIBuildBegin(&model, 0));
  Labels l;
  int result = Build(model, head, active, switched, d, &l);
  if (result == 0 &&
      g_head_runs.load() + g_active_runs.load() + g_switched_runs.load() != 0) {
    ERROR_LOG("building the model ran its tasks");
    result = -1;
  }
  if (result == 0) result = Execute(model, exec, d);

  CHECK_ERROR(aclmdlRIUnbindStream(model, switched));
  CHECK_ERROR(aclmdlRIUnbindStream(model, active));
  CHECK_ERROR(aclmdlRIUnbindStream(model, head));
  CHECK_ERROR(aclmdlRIDestroy(model));
  if (l.to_end != nullptr) CHECK_ERROR(aclrtDestroyLabelList(l.to_end));
  if (l.branches != nullptr) CHECK_ERROR(aclrtDestroyLabelList(l.branches));
  if (l.end != nullptr) CHECK_ERROR(aclrtDestroyLabel(l.end));
  for (aclrtLabel label : l.branch) {
    if (label != nullptr) CHECK_ERROR(aclrtDestroyLabel(label));
  }
  return result;
}

int Run() {
  CHECK_ERROR(aclrtSetDevice(0));
  aclrtStream head = nullptr, active = nullptr, switched = nullptr;
  aclrtStream exec = nullptr;
  CHECK_ERROR(aclrtCreateStreamWithConfig(&head, 0, ACL_STREAM_PERSISTENT));
  CHECK_ERROR(aclrtCreateStreamWithConfig(&active, 0, ACL_STREAM_PERSISTENT));
  CHECK_ERROR(aclrtCreateStreamWithConfig(&switched, 0, ACL_STREAM_PERSISTENT));
  CHECK_ERROR(aclrtCreateStream(&exec));
  void* words = nullptr;
  constexpr size_t kWordsBytes = 4 * sizeof(uint64_t);
  CHECK_ERROR(aclrtMalloc(&words, kWordsBytes, ACL_MEM_MALLOC_HUGE_FIRST));
  CHECK_ERROR(aclrtMemset(words, kWordsBytes, 0, kWordsBytes));
  auto* w = static_cast<uint64_t*>(words);
  Device d;
  d.index = reinterpret_cast<uint32_t*>(w + 0);
  d.zero = reinterpret_cast<uint32_t*>(w + 1);
  d.two = reinterpret_cast<int32_t*>(w + 2);
  d.branch = w + 3;
  const int32_t two = 2;
  CHECK_ERROR(aclrtMemcpy(d.two, sizeof two, &two, sizeof two,
                          ACL_MEMCPY_HOST_TO_DEVICE));

  const int result = RunModel(head, active, switched, exec, d);

  CHECK_ERROR(aclrtFree(words));
  CHECK_ERROR(aclrtDestroyStream(exec));
  CHECK_ERROR(aclrtDestroyStream(switched));
  CHECK_ERROR(aclrtDestroyStream(active));
  CHECK_ERROR(aclrtDestroyStream(head));
  CHECK_ERROR(aclrtResetDevice(0));
  INFO_LOG("resources released");
  return result;
}

}  // namespace

int main() { return RunSample(Run); }
