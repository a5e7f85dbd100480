// The built-in task family's operations: element-wise reduction
// (aclrtReduceAsync), random numbers (aclrtRandomNumAsync) and aborting a
// device's tasks (aclrtDeviceTaskAbort). DESIGN.md §1.7, §5.16.
#include "runtime/builtin_task/builtin_task.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <memory>
#include <type_traits>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "acl/error_codes/rt_error_codes.h"
#include "device/base/status_macros.h"
#include "runtime/base/error.h"
#include "runtime/base/float16.h"
#include "runtime/builtin_task/builtin_tasks.h"
#include "runtime/device_callbacks.h"
#include "runtime/host_func/host_func.h"
#include "runtime/memory/memory.h"
#include "runtime/runtime.h"

namespace ascend::rt {
namespace {

uint64_t Addr(const void* p) { return reinterpret_cast<uint64_t>(p); }

}  // namespace

BuiltinTasks* BuiltinTasks::Of(const Runtime& runtime) {
  return runtime.family<BuiltinTasks>();
}

FamilyRegistration BuiltinTaskFamily() {
  return {"built-in tasks", &FamilyIndex<BuiltinTasks>,
          [](Runtime& runtime) -> std::unique_ptr<Family> {
            return std::make_unique<BuiltinTasks>(runtime);
          }};
}

namespace {

bool IsRandomCombination(aclrtRandomNumFuncType func, int32_t type) {
  const bool floating =
      type == ACL_BF16 || type == ACL_FLOAT16 || type == ACL_FLOAT;
  if (func == ACL_RT_RANDOM_NUM_FUNC_TYPE_UNIFORM_DIS) {
    return RandomElementSize(type) != 0;
  }
  return floating;
}

absl::Status CheckParam(const aclrtRandomParaInfo& param,
                        absl::string_view name, size_t value_size) {
  if (param.isAddr > 1) {
    return Error(ACL_ERROR_RT_PARAM_INVALID,
                 absl::StrCat(name, ".isAddr ", param.isAddr,
                              " is neither 0 (value) nor 1 (address)"));
  }
  const size_t limit = param.isAddr == 1 ? sizeof(uint64_t) : value_size;
  if (param.size == 0 || param.size > limit) {
    return Error(
        ACL_ERROR_RT_PARAM_INVALID,
        absl::StrCat(name, ".size ", param.size, " outside [1, ", limit, "]"));
  }
  return absl::OkStatus();
}

uint64_t ImmediateBits(const aclrtRandomParaInfo& param) {
  uint64_t bits = 0;
  std::memcpy(&bits, param.valueOrAddr,
              std::min<size_t>(param.size, sizeof bits));
  if (param.size < sizeof bits) bits &= (uint64_t{1} << (8 * param.size)) - 1;
  return bits;
}

}  // namespace

absl::Status BuiltinTasks::ReduceAsync(void* dst, const void* src,
                                       uint64_t count, aclrtReduceKind kind,
                                       aclDataType type, void* stream) {
  if (kind == ACL_RT_MEMCPY_SDMA_AUTOMATIC_EQUAL) {
    return Error(ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
                 "ACL_RT_MEMCPY_SDMA_AUTOMATIC_EQUAL is not supported on this "
                 "device");
  }
  const size_t size = ReduceElementSize(type);
  if (size == 0) {
    return Error(ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
                 absl::StrCat("reduction of data type ", static_cast<int>(type),
                              " is not supported (int8, int16, int32, fp16, "
                              "fp32 and bf16 are)"));
  }
  ASCEND_ASSIGN_OR_RETURN(std::shared_ptr<Stream> s,
                          runtime_.ResolveStream(stream));
  if (Addr(dst) % size != 0 || Addr(src) % size != 0 || count % size != 0) {
    return Error(ACL_ERROR_RT_PARAM_INVALID,
                 absl::StrCat("reduction addresses and byte count must be "
                              "multiples of the element size ",
                              size));
  }
  if (count == 0) return absl::OkStatus();
  const int32_t device_id = s->device_id();
  ASCEND_RETURN_IF_ERROR(Memory::Of(runtime_)->CheckTaskMemory(
      dst, count, device_id, "reduction destination"));
  ASCEND_RETURN_IF_ERROR(Memory::Of(runtime_)->CheckTaskMemory(
      src, count, device_id, "reduction source"));
  return runtime_.tasks().Submit(
      TaskKind::kBuiltin, "aclrtReduceAsync", std::move(s),
      Task{[&rt = runtime_, dst, src, count, kind, type,
            device_id]() -> absl::Status {
             ASCEND_ASSIGN_OR_RETURN(
                 std::vector<uint8_t> in,
                 Memory::Of(rt)->ReadTaskMemory(src, count, device_id,
                                                "reduction source"));
             ASCEND_ASSIGN_OR_RETURN(
                 std::vector<uint8_t> out,
                 Memory::Of(rt)->ReadTaskMemory(dst, count, device_id,
                                                "reduction destination"));
             ReduceElements(kind, type, out.data(), in.data(), count);
             return Memory::Of(rt)->WriteTaskMemory(dst, out, device_id,
                                                    "reduction destination");
           },
           nullptr},
      TaskWrites{{DeviceRange{device_id, Addr(dst), count}}, false});
}

absl::Status BuiltinTasks::RandomNumAsync(const aclrtRandomNumTaskInfo& info,
                                          void* stream) {
  const aclrtRandomNumFuncType func = info.randomNumFuncParaInfo.funcType;
  const int32_t type = info.dataType;
  if (!IsRandomCombination(func, type)) {
    return Error(ACL_ERROR_RT_PARAM_INVALID,
                 absl::StrCat("data type ", type,
                              " is not supported by random function ",
                              static_cast<int>(func)));
  }
  if (info.randomCounterAddr == nullptr || info.randomResultAddr == nullptr) {
    return Error(ACL_ERROR_RT_PARAM_INVALID,
                 "randomCounterAddr and randomResultAddr must not be NULL");
  }
  const size_t size = RandomElementSize(type);
  ASCEND_RETURN_IF_ERROR(
      CheckParam(info.randomSeed, "randomSeed", sizeof(uint64_t)));
  ASCEND_RETURN_IF_ERROR(
      CheckParam(info.randomNum, "randomNum", sizeof(uint64_t)));
  const auto& para = info.randomNumFuncParaInfo.paramInfo;
  aclrtRandomParaInfo a{}, b{};
  if (func == ACL_RT_RANDOM_NUM_FUNC_TYPE_DROPOUT_BITMASK) {
    a = para.dropoutBitmaskInfo.dropoutRation;
    ASCEND_RETURN_IF_ERROR(CheckParam(a, "dropoutRation", size));
  } else if (func == ACL_RT_RANDOM_NUM_FUNC_TYPE_UNIFORM_DIS) {
    a = para.uniformDisInfo.min;
    b = para.uniformDisInfo.max;
    ASCEND_RETURN_IF_ERROR(CheckParam(a, "min", size));
    ASCEND_RETURN_IF_ERROR(CheckParam(b, "max", size));
  } else {
    a = para.normalDisInfo.mean;
    b = para.normalDisInfo.stddev;
    ASCEND_RETURN_IF_ERROR(CheckParam(a, "mean", size));
    ASCEND_RETURN_IF_ERROR(CheckParam(b, "stddev", size));
  }
  ASCEND_ASSIGN_OR_RETURN(std::shared_ptr<Stream> s,
                          runtime_.ResolveStream(stream));
  const int32_t device_id = s->device_id();
  constexpr uint64_t kCounterBytes = 16;
  ASCEND_RETURN_IF_ERROR(Memory::Of(runtime_)->CheckTaskMemory(
      info.randomCounterAddr, kCounterBytes, device_id, "randomCounterAddr"));
  RandomRequest base;
  base.func = func;
  base.type = static_cast<aclDataType>(type);
  if (info.randomNum.isAddr == 0) {
    base.count = ImmediateBits(info.randomNum);
    ASCEND_RETURN_IF_ERROR(Memory::Of(runtime_)->CheckTaskMemory(
        info.randomResultAddr, std::max<uint64_t>(RandomOutputBytes(base), 1),
        device_id, "randomResultAddr"));
  }
  const aclrtRandomParaInfo seed = info.randomSeed, num = info.randomNum;
  void* const result = info.randomResultAddr;
  void* const counter = info.randomCounterAddr;
  return runtime_.tasks().Submit(
      TaskKind::kBuiltin, "aclrtRandomNumAsync", std::move(s),
      Task{[&rt = runtime_, base, seed, num, a, b, result, counter, device_id,
            size]() mutable -> absl::Status {
             // Parameters given by address are read when the task runs.
             auto resolve =
                 [&](const aclrtRandomParaInfo& p, size_t bytes,
                     absl::string_view what) -> absl::StatusOr<uint64_t> {
               if (p.isAddr == 0) return ImmediateBits(p);
               void* addr;
               std::memcpy(&addr, p.valueOrAddr, sizeof addr);
               ASCEND_ASSIGN_OR_RETURN(std::vector<uint8_t> data,
                                       Memory::Of(rt)->ReadTaskMemory(
                                           addr, bytes, device_id, what));
               uint64_t bits = 0;
               std::memcpy(&bits, data.data(), bytes);
               return bits;
             };
             ASCEND_ASSIGN_OR_RETURN(base.seed, resolve(seed, 8, "randomSeed"));
             ASCEND_ASSIGN_OR_RETURN(base.count, resolve(num, 8, "randomNum"));
             ASCEND_ASSIGN_OR_RETURN(uint64_t abits,
                                     resolve(a, size, "parameter"));
             uint64_t bbits = 0;
             if (base.func != ACL_RT_RANDOM_NUM_FUNC_TYPE_DROPOUT_BITMASK) {
               ASCEND_ASSIGN_OR_RETURN(bbits, resolve(b, size, "parameter"));
             }
             auto as_double = [&](uint64_t bits) -> double {
               switch (base.type) {
                 case ACL_FLOAT16:
                   return HalfToFloat(static_cast<uint16_t>(bits));
                 case ACL_BF16:
                   return Bf16ToFloat(static_cast<uint16_t>(bits));
                 default: {
                   float f;
                   const uint32_t w = static_cast<uint32_t>(bits);
                   std::memcpy(&f, &w, sizeof f);
                   return f;
                 }
               }
             };
             base.fa = as_double(abits);
             base.fb = as_double(bbits);
             base.ua = abits;
             base.ub = bbits;
             if (base.type == ACL_INT32) {
               base.ia = static_cast<int32_t>(static_cast<uint32_t>(abits));
               base.ib = static_cast<int32_t>(static_cast<uint32_t>(bbits));
             } else if (base.type == ACL_UINT32) {
               base.ua = static_cast<uint32_t>(abits);
               base.ub = static_cast<uint32_t>(bbits);
             } else {
               base.ia = static_cast<int64_t>(abits);
               base.ib = static_cast<int64_t>(bbits);
             }
             ASCEND_ASSIGN_OR_RETURN(
                 std::vector<uint8_t> ctr,
                 Memory::Of(rt)->ReadTaskMemory(counter, 16, device_id,
                                                "randomCounterAddr"));
             std::memcpy(base.counter.data(), ctr.data(), 16);
             const uint64_t bytes = RandomOutputBytes(base);
             if (bytes == 0) return absl::OkStatus();
             std::vector<uint8_t> out(bytes);
             ASCEND_RETURN_IF_ERROR(Memory::Of(rt)->CheckTaskMemory(
                 result, bytes, device_id, "randomResultAddr"));
             GenerateRandom(base, out.data());
             ASCEND_RETURN_IF_ERROR(Memory::Of(rt)->WriteTaskMemory(
                 result, out, device_id, "randomResultAddr"));
             // The offset advances past the blocks used, so the next task on
             // the same counter draws fresh numbers.
             const std::array<uint32_t, 4> next =
                 AddToCounter(base.counter, base.count);
             std::memcpy(ctr.data(), next.data(), 16);
             return Memory::Of(rt)->WriteTaskMemory(counter, ctr, device_id,
                                                    "randomCounterAddr");
           },
           nullptr},
      TaskWrites{{}, true});
}

absl::Status BuiltinTasks::DeviceTaskAbort(int32_t device_id,
                                           uint32_t timeout_ms) {
  constexpr uint32_t kMaxTimeoutMs = 36u * 60u * 1000u;
  if (timeout_ms > kMaxTimeoutMs) {
    return Error(ACL_ERROR_INVALID_PARAM,
                 absl::StrCat("timeout ", timeout_ms,
                              " ms exceeds the maximum of 36 minutes"));
  }
  ASCEND_RETURN_IF_ERROR(runtime_.ValidDeviceId(device_id));
  if (!runtime_.DeviceObject(device_id)) {
    return Error(ACL_ERROR_RT_INVALID_DEVICEID,
                 absl::StrCat("device ", device_id, " is not set"));
  }
  const absl::Time deadline =
      timeout_ms == 0 ? absl::InfiniteFuture()
                      : absl::Now() + absl::Milliseconds(timeout_ms);
  const Stream* running = Stream::Current();
  if (running != nullptr && running->device_id() == device_id) {
    return Error(ACL_ERROR_RT_NO_PERMISSION,
                 "a task cannot abort the device its stream runs on");
  }
  DeviceCallbacks& callbacks = HostFuncs::Of(runtime_)->device_callbacks();
  ASCEND_RETURN_IF_ERROR(callbacks.NotifyTaskAbort(
      device_id, ACL_RT_DEVICE_TASK_ABORT_PRE, timeout_ms));
  for (const std::shared_ptr<Stream>& stream :
       runtime_.Objects<Stream>(device_id)) {
    absl::Status status = stream->AbortTasks(deadline);
    if (status.code() == absl::StatusCode::kDeadlineExceeded) {
      return Error(ACL_ERROR_RT_TASK_TIMEOUT,
                   absl::StrCat("aborting device ", device_id,
                                "'s tasks timed out: ", status.message()));
    }
  }
  return callbacks.NotifyTaskAbort(device_id, ACL_RT_DEVICE_TASK_ABORT_POST,
                                   timeout_ms);
}

}  // namespace ascend::rt
