// ACL entry points of model runtime instances (runtime/model/model.h; DESIGN.md
// §5.21): graph capture, the build API, labels, stream switches, conditional
// tasks, executions and the task queries.
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "acl/acl_rt.h"
#include "acl/api/api_util.h"
#include "glog/logging.h"
#include "runtime/base/error.h"
#include "runtime/model/model.h"
#include "runtime/runtime.h"

namespace {

using ascend::acl::RawEnum;
using ascend::rt::ReportErrorCode;

// The process runtime always has the model family (runtime/process).
ascend::rt::Models& Models() { return ascend::acl::Fam<ascend::rt::Models>(); }

// The two-call pattern of aclmdlRIGetStreams / GetTasksByStream: a NULL
// array asks for the count; otherwise *count is its capacity.
aclError FillArray(const char* api, const std::vector<void*>& items, void** out,
                   uint32_t* count) {
  if (out == nullptr) {
    *count = static_cast<uint32_t>(items.size());
    return ACL_SUCCESS;
  }
  if (*count < items.size()) {
    return ReportErrorCode(
        api, ACL_ERROR_RT_INSUFFICIENT_INPUT_ARRAY,
        absl::StrCat("the array holds ", *count, "; there are ", items.size()));
  }
  for (size_t i = 0; i < items.size(); ++i) out[i] = items[i];
  *count = static_cast<uint32_t>(items.size());
  return ACL_SUCCESS;
}

}  // namespace

extern "C" {

// --- Capture -----------------------------------------------------------------

aclError aclmdlRICaptureBegin(aclrtStream stream,
                              aclmdlRICaptureMode mode) try {
  ACL_GATE();
  ACL_REQUIRE_NOT_NULL(stream);
  return ACL_RESULT(Models().CaptureBegin(stream, RawEnum(mode)));
}
ACL_ENTRY_CATCH(aclError)

aclError aclmdlRICaptureToModelRIBegin(aclrtStream stream, aclmdlRI modelRI,
                                       aclmdlRICaptureMode mode) try {
  ACL_GATE();
  ACL_REQUIRE_NOT_NULL(stream);
  ACL_REQUIRE_NOT_NULL(modelRI);
  return ACL_RESULT(
      Models().CaptureToModelBegin(stream, modelRI, RawEnum(mode)));
}
ACL_ENTRY_CATCH(aclError)

// A query: not gated, and as cheap as a load when nothing is captured (the
// caching allocators of frameworks ask on every allocation).
aclError aclmdlRICaptureGetInfo(aclrtStream stream,
                                aclmdlRICaptureStatus* status,
                                aclmdlRI* modelRI) try {
  ACL_REQUIRE_NOT_NULL(stream);
  if (status == nullptr && modelRI == nullptr) {
    return ReportErrorCode(__func__, ACL_ERROR_INVALID_PARAM,
                           "status and modelRI must not both be NULL");
  }
  // With no capture anywhere every stream answers NONE; the handle is not
  // looked up then (DESIGN.md §5.21).
  if (!Models().capturing()) {
    if (status != nullptr) *status = ACL_MODEL_RI_CAPTURE_STATUS_NONE;
    if (modelRI != nullptr) *modelRI = nullptr;
    return ACL_SUCCESS;
  }
  int32_t st = 0;
  void* model = nullptr;
  aclError ret = ACL_RESULT(Models().CaptureInfo(stream, &st, &model));
  if (ret != ACL_SUCCESS) return ret;
  if (status != nullptr) *status = static_cast<aclmdlRICaptureStatus>(st);
  if (modelRI != nullptr) *modelRI = model;
  return ACL_SUCCESS;
}
ACL_ENTRY_CATCH(aclError)

aclError aclmdlRICaptureEnd(aclrtStream stream, aclmdlRI* modelRI) try {
  ACL_GATE();
  ACL_REQUIRE_NOT_NULL(stream);
  ACL_REQUIRE_NOT_NULL(modelRI);
  ACL_RETURN_VALUE(modelRI, Models().CaptureEnd(stream));
}
ACL_ENTRY_CATCH(aclError)

aclError aclmdlRICaptureThreadExchangeMode(aclmdlRICaptureMode* mode) try {
  ACL_REQUIRE_NOT_NULL(mode);
  int32_t m = RawEnum(*mode);
  aclError ret = ACL_RESULT(Models().ExchangeMode(&m));
  if (ret == ACL_SUCCESS) *mode = static_cast<aclmdlRICaptureMode>(m);
  return ret;
}
ACL_ENTRY_CATCH(aclError)

aclError aclmdlRICaptureTaskGrpBegin(aclrtStream stream) try {
  ACL_GATE();
  ACL_REQUIRE_NOT_NULL(stream);
  return ACL_RESULT(Models().TaskGroupBegin(stream));
}
ACL_ENTRY_CATCH(aclError)

aclError aclmdlRICaptureTaskGrpEnd(aclrtStream stream,
                                   aclrtTaskGrp* handle) try {
  ACL_GATE();
  ACL_REQUIRE_NOT_NULL(stream);
  ACL_REQUIRE_NOT_NULL(handle);
  *handle = nullptr;
  ACL_RETURN_VALUE(handle, Models().TaskGroupEnd(stream));
}
ACL_ENTRY_CATCH(aclError)

aclError aclmdlRICaptureTaskUpdateBegin(aclrtStream stream,
                                        aclrtTaskGrp handle) try {
  ACL_GATE();
  ACL_REQUIRE_NOT_NULL(stream);
  ACL_REQUIRE_NOT_NULL(handle);
  return ACL_RESULT(Models().TaskUpdateBegin(stream, handle));
}
ACL_ENTRY_CATCH(aclError)

aclError aclmdlRICaptureTaskUpdateEnd(aclrtStream stream) try {
  ACL_GATE();
  ACL_REQUIRE_NOT_NULL(stream);
  return ACL_RESULT(Models().TaskUpdateEnd(stream));
}
ACL_ENTRY_CATCH(aclError)

aclError aclrtCacheLastTaskOpInfo(const void* const infoPtr,
                                  const size_t infoSize) try {
  ACL_REQUIRE_NOT_NULL(infoPtr);
  if (infoSize == 0) {
    return ReportErrorCode(__func__, ACL_ERROR_INVALID_PARAM,
                           "infoSize must be positive");
  }
  constexpr size_t kMaxOpInfo = 64 * 1024;
  if (infoSize > kMaxOpInfo) {
    return ReportErrorCode(
        __func__, ACL_ERROR_RT_PARAM_INVALID,
        absl::StrCat("infoSize ", infoSize, " exceeds ", kMaxOpInfo));
  }
  return ACL_RESULT(Models().CacheLastTaskInfo(infoPtr, infoSize, false));
}
ACL_ENTRY_CATCH(aclError)

aclError aclrtCacheLastTaskExtendInfo(const char* const extendInfoPtr,
                                      const size_t infoSize) try {
  if (extendInfoPtr == nullptr || infoSize == 0) {
    return ReportErrorCode(__func__, ACL_ERROR_RT_PARAM_INVALID,
                           "extendInfoPtr must not be NULL and infoSize "
                           "must be positive");
  }
  size_t size = infoSize;
  if (size > 4096) {
    LOG(WARNING) << "aclrtCacheLastTaskExtendInfo: " << infoSize
                 << " bytes truncated to 4096";
    size = 4096;
  }
  return ACL_RESULT(Models().CacheLastTaskInfo(extendInfoPtr, size, true));
}
ACL_ENTRY_CATCH(aclError)

// --- The build API -----------------------------------------------------------

aclError aclmdlRIBuildBegin(aclmdlRI* modelRI, uint32_t flag) try {
  ACL_GATE();
  ACL_REQUIRE_NOT_NULL(modelRI);
  ACL_RETURN_VALUE(modelRI, Models().BuildBegin(flag));
}
ACL_ENTRY_CATCH(aclError)

aclError aclmdlRIBindStream(aclmdlRI modelRI, aclrtStream stream,
                            uint32_t flag) try {
  ACL_GATE();
  ACL_REQUIRE_NOT_NULL(modelRI);
  return ACL_RESULT(Models().BindStream(modelRI, stream, flag));
}
ACL_ENTRY_CATCH(aclError)

aclError aclmdlRIUnbindStream(aclmdlRI modelRI, aclrtStream stream) try {
  ACL_GATE();
  ACL_REQUIRE_NOT_NULL(modelRI);
  return ACL_RESULT(Models().UnbindStream(modelRI, stream));
}
ACL_ENTRY_CATCH(aclError)

aclError aclmdlRIEndTask(aclmdlRI modelRI, aclrtStream stream) try {
  ACL_GATE();
  ACL_REQUIRE_NOT_NULL(modelRI);
  return ACL_RESULT(Models().EndTask(modelRI, stream));
}
ACL_ENTRY_CATCH(aclError)

aclError aclmdlRIBuildEnd(aclmdlRI modelRI, void* reserve) try {
  ACL_GATE();
  ACL_REQUIRE_NOT_NULL(modelRI);
  if (reserve != nullptr) {
    return ReportErrorCode(__func__, ACL_ERROR_INVALID_PARAM,
                           "reserve must be NULL");
  }
  return ACL_RESULT(Models().BuildEnd(modelRI));
}
ACL_ENTRY_CATCH(aclError)

aclError aclrtPersistentTaskClean(aclrtStream stream) try {
  ACL_GATE();
  ACL_REQUIRE_NOT_NULL(stream);
  return ACL_RESULT(Models().PersistentTaskClean(stream));
}
ACL_ENTRY_CATCH(aclError)

// --- Labels and stream control -----------------------------------------------

aclError aclrtCreateLabel(aclrtLabel* label) try {
  ACL_GATE();
  ACL_REQUIRE_NOT_NULL(label);
  ACL_RETURN_VALUE(label, Models().CreateLabel());
}
ACL_ENTRY_CATCH(aclError)

aclError aclrtSetLabel(aclrtLabel label, aclrtStream stream) try {
  ACL_GATE();
  ACL_REQUIRE_NOT_NULL(label);
  ACL_REQUIRE_NOT_NULL(stream);
  return ACL_RESULT(Models().SetLabel(label, stream));
}
ACL_ENTRY_CATCH(aclError)

aclError aclrtDestroyLabel(aclrtLabel label) try {
  ACL_GATE();
  ACL_REQUIRE_NOT_NULL(label);
  return ACL_RESULT(Models().DestroyLabel(label));
}
ACL_ENTRY_CATCH(aclError)

aclError aclrtCreateLabelList(aclrtLabel* labels, size_t num,
                              aclrtLabelList* labelList) try {
  ACL_GATE();
  ACL_REQUIRE_NOT_NULL(labels);
  ACL_REQUIRE_NOT_NULL(labelList);
  ACL_RETURN_VALUE(labelList, Models().CreateLabelList(labels, num));
}
ACL_ENTRY_CATCH(aclError)

aclError aclrtDestroyLabelList(aclrtLabelList labelList) try {
  ACL_GATE();
  ACL_REQUIRE_NOT_NULL(labelList);
  return ACL_RESULT(Models().DestroyLabelList(labelList));
}
ACL_ENTRY_CATCH(aclError)

aclError aclrtSwitchLabelByIndex(void* ptr, uint32_t maxValue,
                                 aclrtLabelList labelList,
                                 aclrtStream stream) try {
  ACL_GATE();
  ACL_REQUIRE_NOT_NULL(ptr);
  ACL_REQUIRE_NOT_NULL(labelList);
  ACL_REQUIRE_NOT_NULL(stream);
  return ACL_RESULT(
      Models().SwitchLabelByIndex(ptr, maxValue, labelList, stream));
}
ACL_ENTRY_CATCH(aclError)

aclError aclrtSwitchStream(void* leftValue, aclrtCondition cond,
                           void* rightValue, aclrtCompareDataType dataType,
                           aclrtStream trueStream, aclrtStream falseStream,
                           aclrtStream stream) try {
  ACL_GATE();
  ACL_REQUIRE_NOT_NULL(leftValue);
  ACL_REQUIRE_NOT_NULL(rightValue);
  ACL_REQUIRE_NOT_NULL(trueStream);
  ACL_REQUIRE_NOT_NULL(stream);
  if (falseStream != nullptr) {
    return ReportErrorCode(__func__, ACL_ERROR_INVALID_PARAM,
                           "falseStream is reserved and must be NULL");
  }
  return ACL_RESULT(Models().SwitchStream(leftValue, RawEnum(cond), rightValue,
                                          RawEnum(dataType), trueStream,
                                          stream));
}
ACL_ENTRY_CATCH(aclError)

aclError aclrtActiveStream(aclrtStream activeStream, aclrtStream stream) try {
  ACL_GATE();
  ACL_REQUIRE_NOT_NULL(activeStream);
  ACL_REQUIRE_NOT_NULL(stream);
  return ACL_RESULT(Models().ActiveStream(activeStream, stream));
}
ACL_ENTRY_CATCH(aclError)

// --- Conditional tasks -------------------------------------------------------

aclError aclmdlRICondHandleCreate(aclmdlRI modelRI, uint32_t defaultLaunchValue,
                                  aclmdlRICondHandleFlag flag,
                                  aclmdlRICondHandle* handle) try {
  ACL_GATE();
  ACL_REQUIRE_NOT_NULL(modelRI);
  ACL_REQUIRE_NOT_NULL(handle);
  ACL_RETURN_VALUE(
      handle, Models().CondHandleCreate(modelRI, defaultLaunchValue,
                                        static_cast<uint32_t>(RawEnum(flag))));
}
ACL_ENTRY_CATCH(aclError)

aclError aclmdlRICondHandleGetCondPtr(aclmdlRICondHandle handle,
                                      uint64_t** ptr) try {
  ACL_REQUIRE_NOT_NULL(handle);
  ACL_REQUIRE_NOT_NULL(ptr);
  ACL_RETURN_VALUE(ptr, Models().CondPtr(handle));
}
ACL_ENTRY_CATCH(aclError)

aclError aclmdlRIAddCondTask(aclmdlRICondTaskParams params, aclrtStream stream,
                             uint32_t flags) try {
  ACL_GATE();
  ACL_REQUIRE_NOT_NULL(stream);
  return ACL_RESULT(Models().AddCondTask(params, stream, flags));
}
ACL_ENTRY_CATCH(aclError)

// --- Execution and management ------------------------------------------------

aclError aclmdlRIExecuteAsync(aclmdlRI modelRI, aclrtStream stream) try {
  ACL_GATE();
  ACL_REQUIRE_NOT_NULL(modelRI);
  return ACL_RESULT(Models().ExecuteAsync(modelRI, stream));
}
ACL_ENTRY_CATCH(aclError)

aclError aclmdlRIExecute(aclmdlRI modelRI, int32_t timeout) try {
  ACL_GATE();
  ACL_REQUIRE_NOT_NULL(modelRI);
  return ACL_RESULT(Models().Execute(modelRI, timeout));
}
ACL_ENTRY_CATCH(aclError)

aclError aclmdlRIAbort(aclmdlRI modelRI) try {
  ACL_GATE();
  if (modelRI == nullptr) {
    return ReportErrorCode(__func__, ACL_ERROR_RT_PARAM_INVALID,
                           "modelRI must not be NULL");
  }
  return ACL_RESULT(Models().Abort(modelRI));
}
ACL_ENTRY_CATCH(aclError)

aclError aclmdlRIDestroy(aclmdlRI modelRI) try {
  ACL_GATE();
  ACL_REQUIRE_NOT_NULL(modelRI);
  return ACL_RESULT(Models().Destroy(modelRI));
}
ACL_ENTRY_CATCH(aclError)

aclError aclmdlRIDestroyRegisterCallback(aclmdlRI modelRI, aclrtCallback func,
                                         void* userData) try {
  ACL_GATE();
  if (modelRI == nullptr) {
    return ReportErrorCode(__func__, ACL_ERROR_RT_PARAM_INVALID,
                           "modelRI must not be NULL");
  }
  return ACL_RESULT(Models().AddDestroyCallback(modelRI, func, userData));
}
ACL_ENTRY_CATCH(aclError)

aclError aclmdlRIDestroyUnregisterCallback(aclmdlRI modelRI,
                                           aclrtCallback func) try {
  ACL_GATE();
  if (modelRI == nullptr) {
    return ReportErrorCode(__func__, ACL_ERROR_RT_PARAM_INVALID,
                           "modelRI must not be NULL");
  }
  return ACL_RESULT(Models().RemoveDestroyCallback(modelRI, func));
}
ACL_ENTRY_CATCH(aclError)

aclError aclmdlRIUpdate(aclmdlRI modelRI) try {
  ACL_GATE();
  if (modelRI == nullptr) {
    return ReportErrorCode(__func__, ACL_ERROR_RT_PARAM_INVALID,
                           "modelRI must not be NULL");
  }
  return ACL_RESULT(Models().Update(modelRI));
}
ACL_ENTRY_CATCH(aclError)

aclError aclmdlRIGetId(aclmdlRI modelRI, uint32_t* modelRIId) try {
  ACL_REQUIRE_NOT_NULL(modelRI);
  ACL_REQUIRE_NOT_NULL(modelRIId);
  ACL_RETURN_VALUE(modelRIId, Models().Id(modelRI));
}
ACL_ENTRY_CATCH(aclError)

aclError aclmdlRISetName(aclmdlRI modelRI, const char* name) try {
  ACL_REQUIRE_NOT_NULL(modelRI);
  ACL_REQUIRE_NOT_NULL(name);
  return ACL_RESULT(Models().SetName(modelRI, name));
}
ACL_ENTRY_CATCH(aclError)

aclError aclmdlRIGetName(aclmdlRI modelRI, uint32_t maxLen, char* name) try {
  ACL_REQUIRE_NOT_NULL(modelRI);
  ACL_REQUIRE_NOT_NULL(name);
  if (maxLen == 0) {
    return ReportErrorCode(__func__, ACL_ERROR_RT_PARAM_INVALID,
                           "maxLen must be positive");
  }
  absl::StatusOr<std::string> n = Models().Name(modelRI);
  if (!n.ok()) return ACL_RESULT(n.status());
  const size_t len = std::min<size_t>(n->size(), maxLen - 1);
  std::memcpy(name, n->data(), len);
  name[len] = '\0';
  return ACL_SUCCESS;
}
ACL_ENTRY_CATCH(aclError)

aclError aclmdlRIGetStreams(aclmdlRI modelRI, aclrtStream* streams,
                            uint32_t* numStreams) try {
  if (modelRI == nullptr || numStreams == nullptr) {
    return ReportErrorCode(__func__, ACL_ERROR_RT_PARAM_INVALID,
                           "modelRI and numStreams must not be NULL");
  }
  absl::StatusOr<std::vector<void*>> s = Models().Streams(modelRI);
  if (!s.ok()) return ACL_RESULT(s.status());
  return FillArray(__func__, *s, streams, numStreams);
}
ACL_ENTRY_CATCH(aclError)

aclError aclmdlRIGetTasksByStream(aclrtStream stream, aclmdlRITask* tasks,
                                  uint32_t* numTasks) try {
  if (stream == nullptr || numTasks == nullptr) {
    return ReportErrorCode(__func__, ACL_ERROR_RT_PARAM_INVALID,
                           "stream and numTasks must not be NULL");
  }
  absl::StatusOr<std::vector<void*>> t = Models().TasksByStream(stream);
  if (!t.ok()) return ACL_RESULT(t.status());
  return FillArray(__func__, *t, tasks, numTasks);
}
ACL_ENTRY_CATCH(aclError)

aclError aclmdlRITaskGetType(aclmdlRITask task, aclmdlRITaskType* type) try {
  if (task == nullptr || type == nullptr) {
    return ReportErrorCode(__func__, ACL_ERROR_RT_PARAM_INVALID,
                           "task and type must not be NULL");
  }
  ACL_RETURN_VALUE(type, Models().TaskType(task));
}
ACL_ENTRY_CATCH(aclError)

aclError aclmdlRITaskGetSeqId(aclmdlRITask task, uint32_t* id) try {
  if (task == nullptr || id == nullptr) {
    return ReportErrorCode(__func__, ACL_ERROR_RT_PARAM_INVALID,
                           "task and id must not be NULL");
  }
  ACL_RETURN_VALUE(id, Models().TaskSeqId(task));
}
ACL_ENTRY_CATCH(aclError)

aclError aclmdlRITaskGetParams(aclmdlRITask task,
                               aclmdlRITaskParams* params) try {
  if (task == nullptr || params == nullptr) {
    return ReportErrorCode(__func__, ACL_ERROR_RT_PARAM_INVALID,
                           "task and params must not be NULL");
  }
  return ACL_RESULT(Models().TaskGetParams(task, params));
}
ACL_ENTRY_CATCH(aclError)

aclError aclmdlRITaskSetParams(aclmdlRITask task,
                               aclmdlRITaskParams* params) try {
  ACL_GATE();
  if (task == nullptr || params == nullptr) {
    return ReportErrorCode(__func__, ACL_ERROR_RT_PARAM_INVALID,
                           "task and params must not be NULL");
  }
  return ACL_RESULT(Models().TaskSetParams(task, *params));
}
ACL_ENTRY_CATCH(aclError)

aclError aclmdlRITaskDisable(aclmdlRITask task) try {
  ACL_GATE();
  if (task == nullptr) {
    return ReportErrorCode(__func__, ACL_ERROR_RT_PARAM_INVALID,
                           "task must not be NULL");
  }
  return ACL_RESULT(Models().TaskDisable(task));
}
ACL_ENTRY_CATCH(aclError)

aclError aclmdlRIKernelTaskGetAttribute(
    aclmdlRITask task, aclrtLaunchKernelAttrId attrId,
    aclrtLaunchKernelAttrValue* attrValue) try {
  ACL_REQUIRE_NOT_NULL(task);
  ACL_REQUIRE_NOT_NULL(attrValue);
  return ACL_RESULT(
      Models().KernelTaskAttribute(task, RawEnum(attrId), attrValue));
}
ACL_ENTRY_CATCH(aclError)

aclError aclmdlRIDebugPrint(aclmdlRI modelRI) try {
  ACL_REQUIRE_NOT_NULL(modelRI);
  absl::StatusOr<std::string> text = Models().DebugText(modelRI);
  if (!text.ok()) return ACL_RESULT(text.status());
  LOG(INFO) << "aclmdlRIDebugPrint:\n" << *text;
  return ACL_SUCCESS;
}
ACL_ENTRY_CATCH(aclError)

aclError aclmdlRIDebugJsonPrint(aclmdlRI modelRI, const char* path,
                                uint32_t flags) try {
  ACL_REQUIRE_NOT_NULL(modelRI);
  ACL_REQUIRE_NOT_NULL(path);
  return ACL_RESULT(Models().DebugJson(modelRI, path, flags));
}
ACL_ENTRY_CATCH(aclError)

}  // extern "C"
