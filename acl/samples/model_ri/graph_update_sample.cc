// Sample: updating a captured graph between replays.
//
// The capture on stream `capture` holds a task group of two kernel launches
// (vadd of //testing/kernels:test_kernels.so: z = x + y), opened with
// aclmdlRICaptureTaskGrpBegin and closed with aclmdlRICaptureTaskGrpEnd,
// followed by a value write of kFirstValue to a device word. The model is
// replayed and checked, then changed twice:
//   1. aclmdlRICaptureTaskUpdateBegin on an ordinary stream `update`: the
//      two vadd launches issued there (other inputs, other lengths) replace
//      the group's launches one by one; aclmdlRICaptureTaskUpdateEnd.
//   2. aclmdlRITaskSetParams on the value-write task (found with
//      aclmdlRIGetStreams / aclmdlRIGetTasksByStream / aclmdlRITaskGetType)
//      staging kSecondValue; a replay before aclmdlRIUpdate still writes the
//      old value, one after it the new value.
// Every replay's outputs are read back and compared with what the current
// parameters must produce. The first argument is the kernel binary's path.
// Prints "VERDICT: PASS" (exit status 0) or "VERDICT: FAIL".
#include <cstdint>
#include <cstdio>
#include <vector>

#include "acl/acl.h"
#include "acl/samples/common/sample_utils.h"

namespace {

const char* g_binary_path = nullptr;

constexpr uint32_t kElements = 256;
constexpr uint32_t kBlocks = 4;
constexpr size_t kVecBytes = kElements * sizeof(float);
constexpr uint64_t kFirstValue = 0x1111;
constexpr uint64_t kSecondValue = 0x2222;

// The vadd kernel's arguments (test_kernels.c).
struct VaddArgs {
  const float* x;
  const float* y;
  float* z;
  uint32_t n;
};

struct Buffers {
  float* in[3] = {nullptr, nullptr, nullptr};  // inputs, filled once
  float* out[2] = {nullptr, nullptr};          // one per group task
  uint64_t* word = nullptr;                    // the value write's target
};

// The host copy of input i: element e is (i + 1) * 100 + e.
std::vector<float> Input(int i) {
  std::vector<float> v(kElements);
  for (uint32_t e = 0; e < kElements; ++e) {
    v[e] = static_cast<float>((i + 1) * 100 + e);
  }
  return v;
}

int LaunchVadd(aclrtFuncHandle vadd, aclrtStream stream, const VaddArgs& a) {
  VaddArgs copy = a;
  CHECK_ERROR(aclrtLaunchKernelWithHostArgs(vadd, kBlocks, stream, nullptr,
                                            &copy, sizeof copy, nullptr, 0));
  return 0;
}

// What one replay must have produced: out[k] = in[x] + in[y] on the first
// n elements (the rest cleared to 0 before the replay), *word == value.
struct Expected {
  int x[2];
  int y[2];
  uint32_t n[2];
  uint64_t value;
};

int Verify(const Buffers& b, const Expected& e, const char* when) {
  for (int k = 0; k < 2; ++k) {
    std::vector<float> z(kElements, -1.0f);
    CHECK_ERROR(aclrtMemcpy(z.data(), kVecBytes, b.out[k], kVecBytes,
                            ACL_MEMCPY_DEVICE_TO_HOST));
    const std::vector<float> x = Input(e.x[k]);
    const std::vector<float> y = Input(e.y[k]);
    for (uint32_t i = 0; i < kElements; ++i) {
      const float want = i < e.n[k] ? x[i] + y[i] : 0.0f;
      if (z[i] != want) {
        ERROR_LOG("%s: out%d[%u] is %f, expected %f", when, k, i, z[i], want);
        return -1;
      }
    }
  }
  uint64_t value = 0;
  CHECK_ERROR(aclrtMemcpy(&value, sizeof value, b.word, sizeof value,
                          ACL_MEMCPY_DEVICE_TO_HOST));
  if (value != e.value) {
    ERROR_LOG("%s: the word is 0x%llx, expected 0x%llx", when,
              static_cast<unsigned long long>(value),
              static_cast<unsigned long long>(e.value));
    return -1;
  }
  INFO_LOG("%s: out0 = in%d + in%d (%u), out1 = in%d + in%d (%u), word 0x%llx",
           when, e.x[0], e.y[0], e.n[0], e.x[1], e.y[1], e.n[1],
           static_cast<unsigned long long>(value));
  return 0;
}

int Replay(aclmdlRI model, aclrtStream exec, const Buffers& b,
           const Expected& e, const char* when) {
  for (float* out : b.out)
    CHECK_ERROR(aclrtMemset(out, kVecBytes, 0, kVecBytes));
  CHECK_ERROR(aclrtMemset(b.word, sizeof(uint64_t), 0, sizeof(uint64_t)));
  CHECK_ERROR(aclmdlRIExecuteAsync(model, exec));
  CHECK_ERROR(aclrtSynchronizeStream(exec));
  return Verify(b, e, when);
}

// The model's value-write task (the only one on its only stream).
int FindValueWrite(aclmdlRI model, aclmdlRITask* found) {
  uint32_t num_streams = 1;
  aclrtStream stream = nullptr;
  CHECK_ERROR(aclmdlRIGetStreams(model, &stream, &num_streams));
  uint32_t num_tasks = 0;
  CHECK_ERROR(aclmdlRIGetTasksByStream(stream, nullptr, &num_tasks));
  std::vector<aclmdlRITask> tasks(num_tasks);
  CHECK_ERROR(aclmdlRIGetTasksByStream(stream, tasks.data(), &num_tasks));
  INFO_LOG("the model stream holds %u tasks", num_tasks);
  *found = nullptr;
  for (aclmdlRITask task : tasks) {
    aclmdlRITaskType type = ACL_MODEL_RI_TASK_DEFAULT;
    CHECK_ERROR(aclmdlRITaskGetType(task, &type));
    if (type == ACL_MODEL_RI_TASK_VALUE_WRITE) *found = task;
  }
  if (*found == nullptr) {
    ERROR_LOG("no value-write task in the model");
    return -1;
  }
  return 0;
}

int RunUpdates(aclrtFuncHandle vadd, aclrtStream capture, aclrtStream update,
               aclrtStream exec, const Buffers& b) {
  // Capture: the group of two launches, then the value write.
  aclmdlRI model = nullptr;
  aclrtTaskGrp group = nullptr;
  CHECK_ERROR(aclmdlRICaptureBegin(capture, ACL_MODEL_RI_CAPTURE_MODE_GLOBAL));
  CHECK_ERROR(aclmdlRICaptureTaskGrpBegin(capture));
  if (LaunchVadd(vadd, capture, {b.in[0], b.in[1], b.out[0], kElements}) != 0 ||
      LaunchVadd(vadd, capture, {b.in[1], b.in[2], b.out[1], kElements}) != 0) {
    return -1;
  }
  CHECK_ERROR(aclmdlRICaptureTaskGrpEnd(capture, &group));
  CHECK_ERROR(aclrtValueWrite(b.word, kFirstValue, 0, capture));
  CHECK_ERROR(aclmdlRICaptureEnd(capture, &model));
  if (group == nullptr) {
    ERROR_LOG("aclmdlRICaptureTaskGrpEnd returned no group");
    return -1;
  }

  int result = 0;
  Expected e{{0, 1}, {1, 2}, {kElements, kElements}, kFirstValue};
  if (result == 0) result = Replay(model, exec, b, e, "replay 1 (as captured)");

  // 1. Replace the group's launches (other inputs, shorter lengths).
  if (result == 0) {
    CHECK_ERROR(aclmdlRICaptureTaskUpdateBegin(update, group));
    const int launched =
        LaunchVadd(vadd, update, {b.in[2], b.in[2], b.out[0], 100}) == 0 &&
                LaunchVadd(vadd, update, {b.in[0], b.in[0], b.out[1], 7}) == 0
            ? 0
            : -1;
    CHECK_ERROR(aclmdlRICaptureTaskUpdateEnd(update));
    CHECK_ERROR(aclrtSynchronizeStream(update));
    result = launched;
  }
  e = Expected{{2, 0}, {2, 0}, {100, 7}, kFirstValue};
  if (result == 0)
    result = Replay(model, exec, b, e, "replay 2 (group updated)");
  // A second replay of the same parameters gives the same outputs.
  if (result == 0) result = Replay(model, exec, b, e, "replay 3 (again)");

  // 2. Stage a new value for the value write.
  aclmdlRITask write = nullptr;
  if (result == 0) result = FindValueWrite(model, &write);
  if (result == 0) {
    aclmdlRITaskParams params{};
    CHECK_ERROR(aclmdlRITaskGetParams(write, &params));
    if (params.type != ACL_MODEL_RI_TASK_VALUE_WRITE ||
        params.valueWriteTaskParams.devAddr != b.word ||
        params.valueWriteTaskParams.value != kFirstValue ||
        params.taskGrp != nullptr) {
      ERROR_LOG("the value-write task's parameters are not as captured");
      result = -1;
    }
    params.valueWriteTaskParams.value = kSecondValue;
    if (result == 0) CHECK_ERROR(aclmdlRITaskSetParams(write, &params));
  }
  // Staged only: this replay still writes the captured value.
  if (result == 0) {
    result = Replay(model, exec, b, e, "replay 4 (set, not updated)");
  }
  if (result == 0) CHECK_ERROR(aclmdlRIUpdate(model));
  e.value = kSecondValue;
  if (result == 0) result = Replay(model, exec, b, e, "replay 5 (updated)");

  CHECK_ERROR(aclmdlRIDestroy(model));
  return result;
}

int Run() {
  CHECK_ERROR(aclrtSetDevice(0));
  aclrtBinHandle binary = nullptr;
  CHECK_ERROR(aclrtBinaryLoadFromFile(g_binary_path, nullptr, &binary));
  aclrtFuncHandle vadd = nullptr;
  CHECK_ERROR(aclrtBinaryGetFunction(binary, "vadd", &vadd));
  aclrtStream capture = nullptr, update = nullptr, exec = nullptr;
  CHECK_ERROR(aclrtCreateStream(&capture));
  CHECK_ERROR(aclrtCreateStream(&update));
  CHECK_ERROR(aclrtCreateStream(&exec));
  Buffers b;
  for (int i = 0; i < 3; ++i) {
    void* p = nullptr;
    CHECK_ERROR(aclrtMalloc(&p, kVecBytes, ACL_MEM_MALLOC_HUGE_FIRST));
    b.in[i] = static_cast<float*>(p);
    const std::vector<float> host = Input(i);
    CHECK_ERROR(aclrtMemcpy(p, kVecBytes, host.data(), kVecBytes,
                            ACL_MEMCPY_HOST_TO_DEVICE));
  }
  for (float*& out : b.out) {
    void* p = nullptr;
    CHECK_ERROR(aclrtMalloc(&p, kVecBytes, ACL_MEM_MALLOC_HUGE_FIRST));
    out = static_cast<float*>(p);
  }
  void* word = nullptr;
  CHECK_ERROR(aclrtMalloc(&word, sizeof(uint64_t), ACL_MEM_MALLOC_HUGE_FIRST));
  b.word = static_cast<uint64_t*>(word);

  const int result = RunUpdates(vadd, capture, update, exec, b);

  CHECK_ERROR(aclrtFree(word));
  for (float* out : b.out) CHECK_ERROR(aclrtFree(out));
  for (float* in : b.in) CHECK_ERROR(aclrtFree(in));
  CHECK_ERROR(aclrtDestroyStream(exec));
  CHECK_ERROR(aclrtDestroyStream(update));
  CHECK_ERROR(aclrtDestroyStream(capture));
  CHECK_ERROR(aclrtBinaryUnLoad(binary));
  CHECK_ERROR(aclrtResetDevice(0));
  INFO_LOG("resources released");
  return result;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) {
    ERROR_LOG("usage: %s <test_kernels.so>", argv[0]);
    return Verdict(false);
  }
  g_binary_path = argv[1];
  return RunSample(Run);
}
