#include "hccl/core/config.h"

#include <cstddef>
#include <cstring>

#include "hccl/core/log.h"

namespace ascend::hccl {
namespace {

// The version words HcclCommConfigInit writes into `reserved`.
struct Preamble {
  size_t size;
  uint32_t magic;
  uint32_t version;
};

// Whether a configuration of `size` bytes holds the field ending at `end`.
bool Holds(size_t size, size_t end) { return size >= end; }

#define HCCL_FIELD_END(field) \
  (offsetof(HcclCommConfig, field) + sizeof(HcclCommConfig::field))

// A NUL-terminated string within the field; false when it runs past it.
bool ReadString(const char* field, size_t capacity, std::string* out) {
  const void* nul = std::memchr(field, '\0', capacity);
  if (nul == nullptr) return false;
  out->assign(field, static_cast<const char*>(nul) - field);
  return true;
}

}  // namespace

HcclResult ReadSettings(const char* api, const HcclCommConfig* config,
                        CommSettings* out) {
  CommSettings s;
  HCCL_RETURN_IF_ERROR(ExecTimeout(api, &s.exec_timeout));
  HCCL_RETURN_IF_ERROR(BufferSizeMb(api, &s.buffer_mb));
  s.algo = AlgoString();
  if (config == nullptr) {
    *out = s;
    return HCCL_SUCCESS;
  }
  Preamble p;
  std::memcpy(&p, config->reserved, sizeof(p));
  if (p.magic != HCCL_COMM_CONFIG_MAGIC_WORD || p.version == 0 ||
      p.size < HCCL_FIELD_END(hcclCommName) || p.size > (1u << 20)) {
    return Refuse(api, HCCL_E_PARA,
                  "the configuration was not initialised by "
                  "HcclCommConfigInit");
  }
  const size_t size = std::min(p.size, sizeof(HcclCommConfig));
  const HcclCommConfig& c = *config;
  if (c.hcclBufferSize != HCCL_COMM_BUFFSIZE_CONFIG_NOT_SET) {
    if (c.hcclBufferSize < 1) {
      return Refuse(api, HCCL_E_PARA, "hcclBufferSize must be at least 1 MB");
    }
    s.buffer_mb = c.hcclBufferSize;
  }
  if (c.hcclDeterministic != HCCL_COMM_DETERMINISTIC_CONFIG_NOT_SET) {
    if (c.hcclDeterministic > 2) {
      return Refuse(api, HCCL_E_PARA,
                    "hcclDeterministic " + std::to_string(c.hcclDeterministic) +
                        " is not 0, 1 or 2");
    }
    s.deterministic = c.hcclDeterministic;
  }
  if (!ReadString(c.hcclCommName, COMM_NAME_MAX_LENGTH, &s.name)) {
    return Refuse(api, HCCL_E_PARA,
                  "hcclCommName is not terminated within 128 bytes");
  }
  if (Holds(size, HCCL_FIELD_END(hcclUdi)) &&
      !ReadString(c.hcclUdi, UDI_MAX_LENGTH, &s.udi)) {
    return Refuse(api, HCCL_E_PARA,
                  "hcclUdi is not terminated within 128 bytes");
  }
  if (Holds(size, HCCL_FIELD_END(hcclOpExpansionMode))) {
    if (c.hcclOpExpansionMode > 6) {
      return Refuse(api, HCCL_E_PARA,
                    "hcclOpExpansionMode " +
                        std::to_string(c.hcclOpExpansionMode) +
                        " is not a mode (0 to 6)");
    }
    s.op_expansion_mode = c.hcclOpExpansionMode;
  }
  if (Holds(size, HCCL_FIELD_END(hcclRdmaTrafficClass)) &&
      c.hcclRdmaTrafficClass != HCCL_COMM_TRAFFIC_CLASS_CONFIG_NOT_SET &&
      (c.hcclRdmaTrafficClass > 255 || c.hcclRdmaTrafficClass % 4 != 0)) {
    return Refuse(api, HCCL_E_PARA,
                  "hcclRdmaTrafficClass must be a multiple of 4 in [0, 255]");
  }
  if (Holds(size, HCCL_FIELD_END(hcclRdmaServiceLevel)) &&
      c.hcclRdmaServiceLevel != HCCL_COMM_SERVICE_LEVEL_CONFIG_NOT_SET &&
      c.hcclRdmaServiceLevel > 7) {
    return Refuse(api, HCCL_E_PARA, "hcclRdmaServiceLevel must be in [0, 7]");
  }
  if (Holds(size, HCCL_FIELD_END(hcclExecTimeOut)) &&
      c.hcclExecTimeOut != HCCL_COMM_EXECTIMEOUT_CONFIG_NOT_SET) {
    if (c.hcclExecTimeOut < 0) {
      return Refuse(api, HCCL_E_PARA,
                    "hcclExecTimeOut " + std::to_string(c.hcclExecTimeOut) +
                        " is negative");
    }
    s.exec_timeout = c.hcclExecTimeOut == 0
                         ? kForever
                         : Millis(int64_t{c.hcclExecTimeOut} * 1000);
  }
  if (Holds(size, HCCL_FIELD_END(hcclAlgo))) {
    std::string algo;
    if (!ReadString(c.hcclAlgo, HCCL_COMM_ALGO_MAX_LENGTH, &algo)) {
      return Refuse(api, HCCL_E_PARA,
                    "hcclAlgo is not terminated within 1600 bytes");
    }
    if (!algo.empty()) s.algo = algo;
  }
  std::string ignored;
  if (Holds(size, HCCL_FIELD_END(hcclRetryEnable)) &&
      !ReadString(c.hcclRetryEnable, HCCL_COMM_RETRY_ENABLE_MAX_LENGTH,
                  &ignored)) {
    return Refuse(api, HCCL_E_PARA,
                  "hcclRetryEnable is not terminated within 50 bytes");
  }
  if (Holds(size, HCCL_FIELD_END(hcclRetryParams)) &&
      !ReadString(c.hcclRetryParams, HCCL_COMM_RETRY_PARAMS_MAX_LENGTH,
                  &ignored)) {
    return Refuse(api, HCCL_E_PARA,
                  "hcclRetryParams is not terminated within 128 bytes");
  }
  if (Holds(size, HCCL_FIELD_END(hcclBufferName)) &&
      !ReadString(c.hcclBufferName, BUFFER_NAME_MAX_LENGTH, &s.buffer_name)) {
    return Refuse(api, HCCL_E_PARA,
                  "hcclBufferName is not terminated within 128 bytes");
  }
  if (Holds(size, HCCL_FIELD_END(hcclQos)) &&
      c.hcclQos != HCCL_COMM_QOS_CONFIG_NOT_SET && c.hcclQos > 7) {
    return Refuse(api, HCCL_E_PARA, "hcclQos must be in [0, 7]");
  }
  if (Holds(size, HCCL_FIELD_END(hcclSymWinMaxMemSizePerRank)) &&
      c.hcclSymWinMaxMemSizePerRank < 1) {
    return Refuse(api, HCCL_E_PARA,
                  "hcclSymWinMaxMemSizePerRank must be at least 1 GB");
  }
  *out = s;
  return HCCL_SUCCESS;
}

}  // namespace ascend::hccl
