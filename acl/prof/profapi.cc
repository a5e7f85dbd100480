// libprofapi.so's C functions (DESIGN.md §5.24): CANN's Msprof* interface
// of profiling/aprof_pub.h, and the ascendclProf* interface libmsprofiler.so
// is built on (acl/prof/internal_api.h). Each is a function-try-block: an
// exception becomes a code and a log line.
#include <time.h>

#include <algorithm>
#include <cstring>
#include <map>
#include <mutex>
#include <string>
#include <unordered_map>

#include "acl/prof/collector.h"
#include "acl/prof/internal_api.h"
#include "acl/prof/prof_log.h"
#include "profiling/aprof_pub.h"

using ascend::prof::Collector;
using ascend::prof::Log;
using ascend::prof::ReportRecord;
using ascend::prof::TxRecord;

namespace {

// The id dictionary of MsprofGetHashId / MsprofStr2Id / MsprofId2Str:
// FNV-1a of the text, the next free id on a collision. Texts live as long
// as the process (MsprofId2Str hands them out).
class Dictionary {
 public:
  static Dictionary& Get() {
    static Dictionary* const d = new Dictionary();
    return *d;
  }
  uint64_t Id(const std::string& text) {
    std::lock_guard<std::mutex> lock(mu_);
    auto known = ids_.find(text);
    if (known != ids_.end()) return known->second;
    uint64_t id = 14695981039346656037ULL;
    for (unsigned char c : text) id = (id ^ c) * 1099511628211ULL;
    // 0 and UINT64_MAX mean failure.
    while (id == 0 || id == UINT64_MAX || texts_.count(id) != 0) ++id;
    auto stored = ids_.emplace(text, id).first;
    texts_.emplace(id, &stored->first);
    return id;
  }
  char* Text(uint64_t id) {
    std::lock_guard<std::mutex> lock(mu_);
    auto it = texts_.find(id);
    return it == texts_.end() ? nullptr
                              : const_cast<char*>(it->second->c_str());
  }

 private:
  std::mutex mu_;
  std::map<std::string, uint64_t> ids_;  // node-based: texts stay put
  std::unordered_map<uint64_t, const std::string*> texts_;
};

bool ValidMagic(uint16_t magic) {
  return magic == MSPROF_REPORT_DATA_MAGIC_NUM;
}

}  // namespace

namespace {
// Compact and additional records share their header.
template <typename T>
int32_t ReportRecords(const char* what, const void* data, uint32_t length) {
  if (data == nullptr || length == 0 || length % sizeof(T) != 0) {
    return MSPROF_ERROR_CONFIG_INVALID;
  }
  const T* records = static_cast<const T*>(data);
  for (uint32_t i = 0; i < length / sizeof(T); ++i) {
    if (!ValidMagic(records[i].magicNumber)) return MSPROF_ERROR_CONFIG_INVALID;
  }
  for (uint32_t i = 0; i < length / sizeof(T); ++i) {
    const T& t = records[i];
    ReportRecord r;
    r.what = what;
    r.level = t.level;
    r.type = t.type;
    r.thread = t.threadId;
    r.begin = r.end = t.timeStamp;
    const uint8_t* bytes = reinterpret_cast<const uint8_t*>(&t.data);
    r.data.assign(bytes, bytes + std::min<size_t>(t.dataLen, sizeof t.data));
    Collector::Get().Report(std::move(r));
  }
  return MSPROF_ERROR_NONE;
}
}  // namespace

extern "C" {

// --- CANN's libprofapi interface ---------------------------------------------

MSVP_PROF_API int32_t MsprofInit(uint32_t dataType, void* data,
                                 uint32_t dataLen) try {
  std::string options;
  switch (dataType) {
    case MSPROF_CTRL_INIT_ACL_JSON:
      if (data == nullptr || dataLen == 0) return MSPROF_ERROR_CONFIG_INVALID;
      options.assign(static_cast<const char*>(data),
                     strnlen(static_cast<const char*>(data), dataLen));
      break;
    case MSPROF_CTRL_INIT_GE_OPTIONS: {
      if (data == nullptr || dataLen < sizeof(MsprofGeOptions)) {
        return MSPROF_ERROR_CONFIG_INVALID;
      }
      const auto* ge = static_cast<const MsprofGeOptions*>(data);
      options.assign(ge->options, strnlen(ge->options, sizeof ge->options));
      break;
    }
    case MSPROF_CTRL_INIT_ACL_ENV: {
      const char* env = getenv("PROFILING_OPTIONS");
      if (env == nullptr) return MSPROF_ERROR_GET_ENV;
      options = env;
      break;
    }
    default:
      Log(ACL_ERROR, __func__,
          "dataType " + std::to_string(dataType) +
              " is not supported: ACL_JSON, GE_OPTIONS and ACL_ENV are");
      return MSPROF_ERROR_CONFIG_INVALID;
  }
  return Collector::Get().StartFromOptions(options);
}
PROF_ENTRY_CATCH_RETURN(MSPROF_ERROR)

MSVP_PROF_API int32_t MsprofFinalize(void) try {
  return Collector::Get().FinalizeOptions();
}
PROF_ENTRY_CATCH_RETURN(MSPROF_ERROR)

MSVP_PROF_API int32_t MsprofRegisterCallback(uint32_t moduleId,
                                             ProfCommandHandle handle) try {
  if (handle == nullptr) return MSPROF_ERROR_CONFIG_INVALID;
  Collector::Get().RegisterCallback(moduleId, handle);
  return MSPROF_ERROR_NONE;
}
PROF_ENTRY_CATCH_RETURN(MSPROF_ERROR)

MSVP_PROF_API int32_t MsprofReportApi(uint32_t nonPersistantFlag,
                                      const struct MsprofApi* api) try {
  if (api == nullptr || !ValidMagic(api->magicNumber)) {
    return MSPROF_ERROR_CONFIG_INVALID;
  }
  ReportRecord r;
  r.what = "api";
  r.level = api->level;
  r.type = api->type;
  r.thread = api->threadId;
  r.begin = api->beginTime;
  r.end = api->endTime;
  r.item = api->itemId;
  Collector::Get().Report(std::move(r));
  return MSPROF_ERROR_NONE;
}
PROF_ENTRY_CATCH_RETURN(MSPROF_ERROR)

MSVP_PROF_API int32_t MsprofReportEvent(uint32_t nonPersistantFlag,
                                        const struct MsprofEvent* event) try {
  if (event == nullptr || !ValidMagic(event->magicNumber)) {
    return MSPROF_ERROR_CONFIG_INVALID;
  }
  ReportRecord r;
  r.what = "event";
  r.level = event->level;
  r.type = event->type;
  r.thread = event->threadId;
  r.begin = r.end = event->timeStamp;
  r.item = event->itemId;
  Collector::Get().Report(std::move(r));
  return MSPROF_ERROR_NONE;
}
PROF_ENTRY_CATCH_RETURN(MSPROF_ERROR)

MSVP_PROF_API int32_t MsprofReportCompactInfo(uint32_t nonPersistantFlag,
                                              const VOID_PTR data,
                                              uint32_t length) try {
  return ReportRecords<MsprofCompactInfo>("compact", data, length);
}
PROF_ENTRY_CATCH_RETURN(MSPROF_ERROR)

MSVP_PROF_API int32_t MsprofReportAdditionalInfo(uint32_t nonPersistantFlag,
                                                 const VOID_PTR data,
                                                 uint32_t length) try {
  return ReportRecords<MsprofAdditionalInfo>("additional", data, length);
}
PROF_ENTRY_CATCH_RETURN(MSPROF_ERROR)

MSVP_PROF_API int32_t MsprofReportBatchAdditionalInfo(
    uint32_t nonPersistantFlag, const VOID_PTR data, uint32_t length) try {
  return ReportRecords<MsprofAdditionalInfo>("additional", data, length);
}
PROF_ENTRY_CATCH_RETURN(MSPROF_ERROR)

MSVP_PROF_API size_t MsprofGetBatchReportMaxSize(uint32_t type) try {
  // A batch is written whole: as many records as fit in 64 KiB.
  if (type != MSPROF_BATCH_ADDITIONAL_INFO) return 0;
  return (65536 / sizeof(MsprofAdditionalInfo)) * sizeof(MsprofAdditionalInfo);
}
PROF_ENTRY_CATCH(size_t)

MSVP_PROF_API int32_t MsprofRegTypeInfo(uint16_t level, uint32_t typeId,
                                        const char* typeName) try {
  if (typeName == nullptr) return MSPROF_ERROR_CONFIG_INVALID;
  Collector::Get().RegisterTypeName(level, typeId, typeName);
  return MSPROF_ERROR_NONE;
}
PROF_ENTRY_CATCH_RETURN(MSPROF_ERROR)

MSVP_PROF_API int32_t MsprofRegDataFormat(uint16_t level, uint32_t typeId,
                                          const char* dataFormat) try {
  // The output keeps the bytes of reported data in hex; the format is only
  // checked.
  return dataFormat == nullptr ? MSPROF_ERROR_CONFIG_INVALID
                               : MSPROF_ERROR_NONE;
}
PROF_ENTRY_CATCH_RETURN(MSPROF_ERROR)

MSVP_PROF_API uint64_t MsprofGetHashId(const char* hashInfo,
                                       size_t length) try {
  if (hashInfo == nullptr) return 0;
  return Dictionary::Get().Id(std::string(hashInfo, length));
}
PROF_ENTRY_CATCH(uint64_t)

MSVP_PROF_API uint64_t MsprofStr2Id(const char* hashInfo, size_t length) try {
  if (hashInfo == nullptr) return UINT64_MAX;
  return Dictionary::Get().Id(std::string(hashInfo, length));
}
PROF_ENTRY_CATCH_RETURN(UINT64_MAX)

MSVP_PROF_API char* MsprofId2Str(const uint64_t Id) try {
  return Dictionary::Get().Text(Id);
}
PROF_ENTRY_CATCH(char*)

MSVP_PROF_API char* MsprofGetPath() try {
  // Kept until the next call.
  static thread_local std::string path;
  path = Collector::Get().CurrentPath();
  return path.empty() ? nullptr : path.data();
}
PROF_ENTRY_CATCH(char*)

MSVP_PROF_API int32_t MsprofSetDeviceIdByGeModelIdx(
    const uint32_t geModelIdx, const uint32_t deviceId) try {
  Collector::Get().SetModelDevice(geModelIdx, deviceId);
  return MSPROF_ERROR_NONE;
}
PROF_ENTRY_CATCH_RETURN(MSPROF_ERROR)

MSVP_PROF_API int32_t MsprofUnsetDeviceIdByGeModelIdx(
    const uint32_t geModelIdx, const uint32_t deviceId) try {
  Collector::Get().UnsetModelDevice(geModelIdx, deviceId);
  return MSPROF_ERROR_NONE;
}
PROF_ENTRY_CATCH_RETURN(MSPROF_ERROR)

MSVP_PROF_API uint64_t MsprofSysCycleTime(void) try {
  timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return static_cast<uint64_t>(ts.tv_sec) * 1000000000ULL +
         static_cast<uint64_t>(ts.tv_nsec);
}
PROF_ENTRY_CATCH(uint64_t)

MSVP_PROF_API bool MsprofCheckOpSwitch(uint32_t type, const char* op,
                                       size_t len) try {
  if (type != MSPROF_OPTYPE || op == nullptr) return false;
  return Collector::Get().OpTypeEnabled(std::string(op, len));
}
PROF_ENTRY_CATCH(bool)

// --- What libmsprofiler.so calls (acl/prof/internal_api.h)
// ---------------------

MSVP_PROF_API int32_t ascendclProfInit(const char* path, size_t length) try {
  return Collector::Get().Init(std::string(path, length));
}
PROF_ENTRY_CATCH(int32_t)

MSVP_PROF_API int32_t ascendclProfFinalize(void) try {
  return Collector::Get().Finalize();
}
PROF_ENTRY_CATCH(int32_t)

MSVP_PROF_API int32_t ascendclProfSetConfig(int32_t type, const char* value,
                                            size_t length) try {
  return Collector::Get().SetConfig(type, std::string(value, length));
}
PROF_ENTRY_CATCH(int32_t)

MSVP_PROF_API int32_t ascendclProfStart(const ascendclProfConfig* config) try {
  return Collector::Get().Start(*config);
}
PROF_ENTRY_CATCH(int32_t)

MSVP_PROF_API int32_t ascendclProfStop(const ascendclProfConfig* config) try {
  return Collector::Get().Stop(*config);
}
PROF_ENTRY_CATCH(int32_t)

MSVP_PROF_API int32_t ascendclProfSubscribe(uint32_t modelId, int8_t timeInfo,
                                            uint32_t aicoreMetrics,
                                            int fd) try {
  return Collector::Get().Subscribe(modelId, timeInfo, aicoreMetrics, fd);
}
PROF_ENTRY_CATCH(int32_t)

MSVP_PROF_API int32_t ascendclProfUnsubscribe(uint32_t modelId) try {
  return Collector::Get().Unsubscribe(modelId);
}
PROF_ENTRY_CATCH(int32_t)

MSVP_PROF_API int32_t ascendclProfTxActive(void) try {
  return Collector::Get().TxActive() ? 1 : 0;
}
PROF_ENTRY_CATCH(int32_t)

MSVP_PROF_API void ascendclProfReportTx(
    const ascendclProfTxRecord* record) try {
  if (record == nullptr) return;
  TxRecord r;
  r.type = record->type != nullptr ? record->type : "mark";
  r.message = record->message != nullptr ? record->message : "";
  r.thread = record->threadId;
  r.start = record->startNs;
  r.end = record->endNs;
  r.id = record->id;
  if (record->argsJson != nullptr) r.args_json = record->argsJson;
  Collector::Get().ReportTx(std::move(r));
}
PROF_ENTRY_CATCH(void)

}  // extern "C"
