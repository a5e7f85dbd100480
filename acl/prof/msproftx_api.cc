// libmsprofiler.so: msproftx stamps, marks and ranges, tensor ranges and
// iteration marks of acl/acl_prof.h (DESIGN.md §5.24,
// docs/zh/api_ref/19-02_msproftx_extension_apis.md and
// 19-04_setting_Iteration_time_in_pytorch_scenarios.md). Records go to
// libprofapi.so's collections (ascendclProfReportTx).
#include <cstring>
#include <map>
#include <memory>
#include <mutex>
#include <new>
#include <set>
#include <string>
#include <vector>

#include "acl/acl_prof.h"
#include "acl/prof/internal_api.h"
#include "acl/prof/prof_log.h"
#include "acl/prof/thread_id.h"
#include "ascendcl/timeline.h"
#include "nlohmann/json.hpp"
#include "profiling/aprof_pub.h"

struct aclprofStepInfo {
  bool started = false;
  bool ended = false;
  uint64_t index = 0;
};

namespace {

using ascend::prof::CurrentThreadId;

constexpr uint32_t kMaxStampMessage = 128;  // msgLen below this
constexpr size_t kMaxMarkExMessage = 127;

struct Stamp {
  std::string message;
  uint64_t start = 0;
};

struct TensorRange {
  nlohmann::json args;
  uint64_t start;
};

// Live stamps, ranges by id, and the iteration counter.
class TxState {
 public:
  static TxState& Get() {
    static TxState* const s = new TxState();
    return *s;
  }
  void* Create() {
    auto stamp = std::make_unique<Stamp>();
    void* handle = stamp.get();
    std::lock_guard<std::mutex> lock(mu_);
    stamps_.emplace(handle, std::move(stamp));
    return handle;
  }
  bool Destroy(void* handle) {
    std::lock_guard<std::mutex> lock(mu_);
    return stamps_.erase(handle) != 0;
  }
  // A copy of the stamp, or false when `handle` is not a live stamp.
  bool Find(void* handle, Stamp* out) {
    std::lock_guard<std::mutex> lock(mu_);
    auto it = stamps_.find(handle);
    if (it == stamps_.end()) return false;
    *out = *it->second;
    return true;
  }
  bool SetMessage(void* handle, std::string message) {
    std::lock_guard<std::mutex> lock(mu_);
    auto it = stamps_.find(handle);
    if (it == stamps_.end()) return false;
    it->second->message = std::move(message);
    return true;
  }
  uint32_t OpenRange(Stamp stamp) {
    std::lock_guard<std::mutex> lock(mu_);
    const uint32_t id = next_range_++;
    ranges_.emplace(id, std::move(stamp));
    return id;
  }
  bool CloseRange(uint32_t id, Stamp* out) {
    std::lock_guard<std::mutex> lock(mu_);
    auto it = ranges_.find(id);
    if (it == ranges_.end()) return false;
    *out = std::move(it->second);
    ranges_.erase(it);
    return true;
  }
  uint64_t NextStep() {
    std::lock_guard<std::mutex> lock(mu_);
    return next_step_++;
  }

 private:
  std::mutex mu_;
  std::map<void*, std::unique_ptr<Stamp>> stamps_;
  std::map<uint32_t, Stamp> ranges_;
  uint32_t next_range_ = 1;
  uint64_t next_step_ = 1;
};

// The calling thread's aclprofPush and aclprofRangePushEx stacks.
thread_local std::vector<Stamp> tls_pushed;
thread_local std::vector<TensorRange> tls_tensor_ranges;

void ReportTx(const char* type, const std::string& message, uint64_t start,
              uint64_t end, uint64_t id, const std::string& args = {}) {
  ascendclProfTxRecord r;
  r.type = type;
  r.message = message.c_str();
  r.startNs = start;
  r.endNs = end;
  r.threadId = CurrentThreadId();
  r.id = id;
  r.argsJson = args.empty() ? nullptr : args.c_str();
  ascendclProfReportTx(&r);
}

aclError NotRunning(const char* api) {
  return ascend::prof::Fail(
      api, ACL_ERROR_PROF_NOT_RUN,
      "no collection with ACL_PROF_MSPROFTX is started (aclprofStart)");
}

aclError NotAStamp(const char* api) {
  return ascend::prof::Fail(api, ACL_ERROR_INVALID_PARAM,
                            "stamp is not a live stamp of aclprofCreateStamp");
}

}  // namespace

extern "C" {

MSVP_PROF_API void* aclprofCreateStamp() try {
  if (ascendclProfTxActive() == 0) {
    NotRunning(__func__);
    return nullptr;
  }
  return TxState::Get().Create();
}
PROF_ENTRY_CATCH(void*)

MSVP_PROF_API void aclprofDestroyStamp(void* stamp) try {
  if (stamp == nullptr || !TxState::Get().Destroy(stamp)) NotAStamp(__func__);
}
PROF_ENTRY_CATCH(void)

MSVP_PROF_API aclError aclprofSetStampTraceMessage(void* stamp, const char* msg,
                                                   uint32_t msgLen) try {
  if (msg == nullptr) {
    return PROF_FAIL(ACL_ERROR_INVALID_PARAM, "msg must not be NULL");
  }
  if (msgLen >= kMaxStampMessage) {
    return PROF_FAIL(ACL_ERROR_INVALID_PARAM,
                     "msgLen " + std::to_string(msgLen) + " is not below 128");
  }
  if (!TxState::Get().SetMessage(stamp,
                                 std::string(msg, strnlen(msg, msgLen)))) {
    return NotAStamp(__func__);
  }
  return ACL_SUCCESS;
}
PROF_ENTRY_CATCH(aclError)

MSVP_PROF_API aclError aclprofMark(void* stamp) try {
  Stamp s;
  if (!TxState::Get().Find(stamp, &s)) return NotAStamp(__func__);
  if (ascendclProfTxActive() == 0) return NotRunning(__func__);
  const uint64_t now = MsprofSysCycleTime();
  ReportTx("mark", s.message, now, now, 0);
  return ACL_SUCCESS;
}
PROF_ENTRY_CATCH(aclError)

MSVP_PROF_API aclError aclprofMarkEx(const char* msg, size_t msgLen,
                                     aclrtStream stream) try {
  if (msg == nullptr) {
    return PROF_FAIL(ACL_ERROR_INVALID_PARAM, "msg must not be NULL");
  }
  if (msgLen < 1 || msgLen > kMaxMarkExMessage ||
      strnlen(msg, msgLen + 1) != msgLen) {
    return PROF_FAIL(ACL_ERROR_INVALID_PARAM,
                     "msgLen must be strlen(msg), 1..127");
  }
  if (ascendclProfTxActive() == 0) return NotRunning(__func__);
  const std::string message(msg, msgLen);
  if (aclError code = ascendclTimelineMark(stream, message.c_str())) {
    return PROF_FAIL(code, "cannot mark the stream");
  }
  const uint64_t now = MsprofSysCycleTime();
  ReportTx("mark_ex", message, now, now, 0);
  return ACL_SUCCESS;
}
PROF_ENTRY_CATCH(aclError)

MSVP_PROF_API aclError aclprofPush(void* stamp) try {
  Stamp s;
  if (!TxState::Get().Find(stamp, &s)) return NotAStamp(__func__);
  if (ascendclProfTxActive() == 0) return NotRunning(__func__);
  s.start = MsprofSysCycleTime();
  tls_pushed.push_back(std::move(s));
  return ACL_SUCCESS;
}
PROF_ENTRY_CATCH(aclError)

MSVP_PROF_API aclError aclprofPop() try {
  if (tls_pushed.empty()) {
    return PROF_FAIL(ACL_ERROR_INVALID_PARAM,
                     "this thread has no range of aclprofPush to end");
  }
  Stamp s = std::move(tls_pushed.back());
  tls_pushed.pop_back();
  ReportTx("push_pop", s.message, s.start, MsprofSysCycleTime(), 0);
  return ACL_SUCCESS;
}
PROF_ENTRY_CATCH(aclError)

MSVP_PROF_API aclError aclprofRangeStart(void* stamp, uint32_t* rangeId) try {
  if (rangeId == nullptr) {
    return PROF_FAIL(ACL_ERROR_INVALID_PARAM, "rangeId must not be NULL");
  }
  Stamp s;
  if (!TxState::Get().Find(stamp, &s)) return NotAStamp(__func__);
  if (ascendclProfTxActive() == 0) return NotRunning(__func__);
  s.start = MsprofSysCycleTime();
  *rangeId = TxState::Get().OpenRange(std::move(s));
  return ACL_SUCCESS;
}
PROF_ENTRY_CATCH(aclError)

MSVP_PROF_API aclError aclprofRangeStop(uint32_t rangeId) try {
  Stamp s;
  if (!TxState::Get().CloseRange(rangeId, &s)) {
    return PROF_FAIL(ACL_ERROR_INVALID_PARAM,
                     "range " + std::to_string(rangeId) +
                         " was not started or is already stopped");
  }
  ReportTx("range", s.message, s.start, MsprofSysCycleTime(), rangeId);
  return ACL_SUCCESS;
}
PROF_ENTRY_CATCH(aclError)

MSVP_PROF_API uint64_t aclprofStr2Id(const char* message) try {
  if (message == nullptr) {
    ascend::prof::Log(ACL_ERROR, __func__, "message must not be NULL");
    return UINT64_MAX;
  }
  return MsprofStr2Id(message, strlen(message));
}
PROF_ENTRY_CATCH_RETURN(UINT64_MAX)

MSVP_PROF_API aclError aclprofRangePushEx(aclprofEventAttributes* attr) try {
  if (attr == nullptr) {
    return PROF_FAIL(ACL_ERROR_INVALID_PARAM, "attr must not be NULL");
  }
  if (attr->version < 1 ||
      attr->messageType != ACL_PROF_MESSAGE_TYPE_TENSOR_INFO) {
    return PROF_FAIL(ACL_ERROR_INVALID_PARAM,
                     "attr must be version 1 or later with messageType "
                     "ACL_PROF_MESSAGE_TYPE_TENSOR_INFO");
  }
  const aclprofTensorInfo* info = attr->message.tensorInfo;
  if (info == nullptr || (info->tensorNum > 0 && info->tensors == nullptr)) {
    return PROF_FAIL(ACL_ERROR_INVALID_PARAM,
                     "attr's tensor information is missing");
  }
  nlohmann::json tensors = nlohmann::json::array();
  for (uint32_t i = 0; i < info->tensorNum; ++i) {
    const aclprofTensor& t = info->tensors[i];
    if (t.shapeDim > ACL_PROF_TENSOR_DATA_SHAPE_LEN) {
      return PROF_FAIL(ACL_ERROR_INVALID_PARAM,
                       "tensor " + std::to_string(i) + " has shapeDim " +
                           std::to_string(t.shapeDim) + " above 8");
    }
    tensors.push_back(
        {{"type", t.type},
         {"format", t.format},
         {"data_type", t.dataType},
         {"shape", std::vector<uint32_t>(t.shape, t.shape + t.shapeDim)}});
  }
  if (ascendclProfTxActive() == 0) return NotRunning(__func__);
  auto name_of = [](uint64_t id) {
    const char* text = MsprofId2Str(id);
    return text != nullptr ? std::string(text) : std::to_string(id);
  };
  nlohmann::json args = {{"op_name", name_of(info->opNameId)},
                         {"op_type", name_of(info->opTypeId)},
                         {"kernel_type", info->kernelType},
                         {"block_nums", info->blockNums},
                         {"tensors", std::move(tensors)}};
  tls_tensor_ranges.push_back(
      TensorRange{std::move(args), MsprofSysCycleTime()});
  return ACL_SUCCESS;
}
PROF_ENTRY_CATCH(aclError)

MSVP_PROF_API aclError aclprofRangePop() try {
  if (tls_tensor_ranges.empty()) {
    return PROF_FAIL(ACL_ERROR_INVALID_PARAM,
                     "this thread has no range of aclprofRangePushEx to end");
  }
  TensorRange r = std::move(tls_tensor_ranges.back());
  tls_tensor_ranges.pop_back();
  const std::string name = r.args["op_name"].get<std::string>();
  ReportTx("tensor_range", name, r.start, MsprofSysCycleTime(), 0,
           r.args.dump());
  return ACL_SUCCESS;
}
PROF_ENTRY_CATCH(aclError)

// --- Iterations
// -------------------------------------------------------------------

MSVP_PROF_API aclprofStepInfo* aclprofCreateStepInfo() try {
  auto* step = new (std::nothrow) aclprofStepInfo();
  if (step != nullptr) step->index = TxState::Get().NextStep();
  return step;
}
PROF_ENTRY_CATCH(aclprofStepInfo*)

MSVP_PROF_API void aclprofDestroyStepInfo(aclprofStepInfo* stepinfo) try {
  if (stepinfo == nullptr) {
    ascend::prof::Log(ACL_ERROR, __func__, "stepinfo must not be NULL");
    return;
  }
  delete stepinfo;
}
PROF_ENTRY_CATCH(void)

MSVP_PROF_API aclError aclprofGetStepTimestamp(aclprofStepInfo* stepInfo,
                                               aclprofStepTag tag,
                                               aclrtStream stream) try {
  if (stepInfo == nullptr) {
    return PROF_FAIL(ACL_ERROR_INVALID_PARAM, "stepInfo must not be NULL");
  }
  int32_t raw;
  std::memcpy(&raw, &tag, sizeof raw);
  if (raw != ACL_STEP_START && raw != ACL_STEP_END) {
    return PROF_FAIL(ACL_ERROR_INVALID_PARAM, "tag " + std::to_string(raw) +
                                                  " is not an aclprofStepTag");
  }
  const bool start = raw == ACL_STEP_START;
  if (start ? stepInfo->started : stepInfo->ended) {
    return PROF_FAIL(ACL_ERROR_INVALID_PARAM, start
                                                  ? "this step already started"
                                                  : "this step already ended");
  }
  if (!start && !stepInfo->started) {
    return PROF_FAIL(ACL_ERROR_INVALID_PARAM, "this step has not started");
  }
  const std::string message =
      "step " + std::to_string(stepInfo->index) + (start ? " start" : " end");
  if (aclError code = ascendclTimelineMark(stream, message.c_str())) {
    return PROF_FAIL(code, "cannot mark the stream");
  }
  (start ? stepInfo->started : stepInfo->ended) = true;
  const uint64_t now = MsprofSysCycleTime();
  ReportTx(start ? "step_start" : "step_end", message, now, now,
           stepInfo->index);
  return ACL_SUCCESS;
}
PROF_ENTRY_CATCH(aclError)

}  // extern "C"
