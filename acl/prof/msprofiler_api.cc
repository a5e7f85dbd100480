// libmsprofiler.so: the collection and subscription functions of
// acl/acl_prof.h (DESIGN.md §5.24). Each validates its arguments (the rules
// of docs/zh/api_ref/19-01_data_profiling_apis.md and
// 19-03_subscription_to_operator_information.md) and hands the state
// change to libprofapi.so's collector (acl/prof/internal_api.h).
#include <cstring>
#include <new>
#include <set>
#include <string>

#include "acl/acl_prof.h"
#include "acl/prof/internal_api.h"
#include "acl/prof/prof_log.h"

// The objects behind acl_prof.h's opaque types.
struct aclprofConfig {
  ascendclProfConfig config;
};

struct aclprofSubscribeConfig {
  int8_t time_info;
  uint32_t metrics;
  int fd;
};

namespace {

constexpr size_t kMaxPathBytes = 4096;   // aclprofInit: length below this
constexpr size_t kMaxConfigBytes = 256;  // aclprofSetConfig
constexpr uint32_t kMaxDevices = 64;

// Every bit acl_prof.h defines.
constexpr uint64_t kKnownSwitches =
    ACL_PROF_ACL_API | ACL_PROF_TASK_TIME | ACL_PROF_AICORE_METRICS |
    ACL_PROF_AICPU | ACL_PROF_L2CACHE | ACL_PROF_HCCL_TRACE |
    ACL_PROF_TRAINING_TRACE | ACL_PROF_MSPROFTX | ACL_PROF_RUNTIME_API |
    ACL_PROF_GE_API_L0 | ACL_PROF_TASK_TIME_L0 | ACL_PROF_TASK_MEMORY |
    ACL_PROF_GE_API_L1 | ACL_PROF_TASK_TIME_L2 | ACL_PROF_OP_ATTR |
    ACL_PROF_TASK_TIME_L3 | ACL_PROF_API_STATS | ACL_PROF_AICORE_SHAPE;

// The integer a C caller passed for an enum parameter (see
// acl/api/api_util.h's RawEnum: loading an out-of-range enum is undefined).
template <typename E>
int32_t Raw(const E& value) {
  int32_t raw;
  std::memcpy(&raw, &value, sizeof raw);
  return raw;
}

bool ValidMetrics(int32_t raw) {
  return (raw >= ACL_AICORE_ARITHMETIC_UTILIZATION &&
          raw <= ACL_AICORE_MEMORY_ACCESS) ||
         raw == ACL_AICORE_NONE;
}

void LogNull(const char* api, const std::string& what) {
  ascend::prof::Log(ACL_ERROR, api, what);
}

}  // namespace

extern "C" {

// --- Collection -------------------------------------------------------------

MSVP_PROF_API aclError aclprofInit(const char* profilerResultPath,
                                   size_t length) try {
  if (profilerResultPath == nullptr) {
    return PROF_FAIL(ACL_ERROR_INVALID_PARAM,
                     "profilerResultPath must not be NULL");
  }
  if (length == 0 || length >= kMaxPathBytes) {
    return PROF_FAIL(
        ACL_ERROR_INVALID_PARAM,
        "length " + std::to_string(length) + " is outside [1, 4095]");
  }
  if (strnlen(profilerResultPath, length + 1) != length) {
    return PROF_FAIL(ACL_ERROR_INVALID_PARAM,
                     "length is not the length of profilerResultPath");
  }
  return ascendclProfInit(profilerResultPath, length);
}
PROF_ENTRY_CATCH(aclError)

MSVP_PROF_API aclError aclprofFinalize() try { return ascendclProfFinalize(); }
PROF_ENTRY_CATCH(aclError)

MSVP_PROF_API aclprofConfig* aclprofCreateConfig(
    uint32_t* deviceIdList, uint32_t deviceNums,
    aclprofAicoreMetrics aicoreMetrics, const aclprofAicoreEvents* aicoreEvents,
    uint64_t dataTypeConfig) try {
  const char* api = __func__;
  if (deviceNums > 0 && deviceIdList == nullptr) {
    LogNull(api, "deviceIdList must not be NULL when deviceNums > 0");
    return nullptr;
  }
  if (aicoreEvents != nullptr) {
    LogNull(api, "aicoreEvents must be NULL");
    return nullptr;
  }
  if (deviceNums > kMaxDevices) {
    LogNull(api, "deviceNums " + std::to_string(deviceNums) + " is above " +
                     std::to_string(kMaxDevices));
    return nullptr;
  }
  if (deviceNums == 0 && (dataTypeConfig & ACL_PROF_MSPROFTX) == 0) {
    LogNull(api, "deviceNums may be 0 only with ACL_PROF_MSPROFTX");
    return nullptr;
  }
  const int32_t metrics = Raw(aicoreMetrics);
  if (!ValidMetrics(metrics)) {
    LogNull(api, "aicoreMetrics " + std::to_string(metrics) +
                     " is not an aclprofAicoreMetrics");
    return nullptr;
  }
  uint32_t count = 0;
  if (deviceNums > 0 && aclrtGetDeviceCount(&count) != ACL_SUCCESS) {
    LogNull(api, "cannot count the devices");
    return nullptr;
  }
  std::set<uint32_t> seen;
  for (uint32_t i = 0; i < deviceNums; ++i) {
    if (deviceIdList[i] >= count) {
      LogNull(api, "device id " + std::to_string(deviceIdList[i]) +
                       " is not below the device count " +
                       std::to_string(count));
      return nullptr;
    }
    if (!seen.insert(deviceIdList[i]).second) {
      LogNull(api,
              "device id " + std::to_string(deviceIdList[i]) + " is repeated");
      return nullptr;
    }
  }
  auto* config = new (std::nothrow) aclprofConfig();
  if (config == nullptr) return nullptr;
  config->config.devNums = deviceNums;
  for (uint32_t i = 0; i < deviceNums; ++i) {
    config->config.devIds[i] = deviceIdList[i];
  }
  config->config.aicoreMetrics = static_cast<uint32_t>(metrics);
  config->config.dataTypeConfig = dataTypeConfig;
  return config;
}
PROF_ENTRY_CATCH(aclprofConfig*)

MSVP_PROF_API aclError
aclprofDestroyConfig(const aclprofConfig* profilerConfig) try {
  if (profilerConfig == nullptr) {
    return PROF_FAIL(ACL_ERROR_INVALID_PARAM,
                     "profilerConfig must not be NULL");
  }
  delete profilerConfig;
  return ACL_SUCCESS;
}
PROF_ENTRY_CATCH(aclError)

namespace {
aclError CheckConfig(const char* api, const aclprofConfig* config) {
  if (config == nullptr) {
    return ascend::prof::Fail(api, ACL_ERROR_INVALID_PARAM,
                              "profilerConfig must not be NULL");
  }
  const uint64_t switches = config->config.dataTypeConfig;
  if (switches == 0) {
    return ascend::prof::Fail(api, ACL_ERROR_INVALID_PARAM,
                              "the config's dataTypeConfig is 0");
  }
  if ((switches & ~kKnownSwitches) != 0) {
    return ascend::prof::Fail(api, ACL_ERROR_PROF_MODULES_UNSUPPORTED,
                              "dataTypeConfig has unknown bits");
  }
  return ACL_SUCCESS;
}
}  // namespace

MSVP_PROF_API aclError aclprofStart(const aclprofConfig* profilerConfig) try {
  if (aclError bad = CheckConfig(__func__, profilerConfig)) return bad;
  return ascendclProfStart(&profilerConfig->config);
}
PROF_ENTRY_CATCH(aclError)

MSVP_PROF_API aclError aclprofStop(const aclprofConfig* profilerConfig) try {
  if (aclError bad = CheckConfig(__func__, profilerConfig)) return bad;
  return ascendclProfStop(&profilerConfig->config);
}
PROF_ENTRY_CATCH(aclError)

MSVP_PROF_API aclError aclprofSetConfig(aclprofConfigType configType,
                                        const char* config,
                                        size_t configLength) try {
  const int32_t type = Raw(configType);
  if (type <= ACL_PROF_ARGS_MIN || type >= ACL_PROF_ARGS_MAX) {
    return PROF_FAIL(ACL_ERROR_INVALID_PARAM,
                     "configType " + std::to_string(type) +
                         " is outside (ACL_PROF_ARGS_MIN, ACL_PROF_ARGS_MAX)");
  }
  if (configLength > kMaxConfigBytes) {
    return PROF_FAIL(
        ACL_ERROR_INVALID_PARAM,
        "configLength " + std::to_string(configLength) + " is above 256");
  }
  if (config == nullptr) {
    return PROF_FAIL(ACL_ERROR_INVALID_PARAM, "config must not be NULL");
  }
  if (strnlen(config, configLength + 1) != configLength) {
    return PROF_FAIL(ACL_ERROR_INVALID_PARAM,
                     "configLength is not the length of config");
  }
  return ascendclProfSetConfig(type, config, configLength);
}
PROF_ENTRY_CATCH(aclError)

// --- Subscription
// ---------------------------------------------------------------

MSVP_PROF_API aclprofSubscribeConfig* aclprofCreateSubscribeConfig(
    int8_t timeInfoSwitch, aclprofAicoreMetrics aicoreMetrics, void* fd) try {
  const char* api = __func__;
  if (fd == nullptr) {
    LogNull(api, "fd must not be NULL");
    return nullptr;
  }
  if (timeInfoSwitch != 0 && timeInfoSwitch != 1) {
    LogNull(api, "timeInfoSwitch " + std::to_string(timeInfoSwitch) +
                     " is neither 0 nor 1");
    return nullptr;
  }
  const int32_t metrics = Raw(aicoreMetrics);
  if (!ValidMetrics(metrics)) {
    LogNull(api, "aicoreMetrics " + std::to_string(metrics) +
                     " is not an aclprofAicoreMetrics");
    return nullptr;
  }
  auto* config = new (std::nothrow) aclprofSubscribeConfig();
  if (config == nullptr) return nullptr;
  config->time_info = timeInfoSwitch;
  config->metrics = static_cast<uint32_t>(metrics);
  config->fd = *static_cast<const int*>(fd);
  return config;
}
PROF_ENTRY_CATCH(aclprofSubscribeConfig*)

MSVP_PROF_API aclError aclprofDestroySubscribeConfig(
    const aclprofSubscribeConfig* profSubscribeConfig) try {
  if (profSubscribeConfig == nullptr) {
    return PROF_FAIL(ACL_ERROR_INVALID_PARAM,
                     "profSubscribeConfig must not be NULL");
  }
  delete profSubscribeConfig;
  return ACL_SUCCESS;
}
PROF_ENTRY_CATCH(aclError)

MSVP_PROF_API aclError aclprofModelSubscribe(
    uint32_t modelId, const aclprofSubscribeConfig* profSubscribeConfig) try {
  if (profSubscribeConfig == nullptr) {
    return PROF_FAIL(ACL_ERROR_INVALID_PARAM,
                     "profSubscribeConfig must not be NULL");
  }
  return ascendclProfSubscribe(modelId, profSubscribeConfig->time_info,
                               profSubscribeConfig->metrics,
                               profSubscribeConfig->fd);
}
PROF_ENTRY_CATCH(aclError)

MSVP_PROF_API aclError aclprofModelUnSubscribe(uint32_t modelId) try {
  return ascendclProfUnsubscribe(modelId);
}
PROF_ENTRY_CATCH(aclError)

}  // extern "C"
