#include "hccl/core/env.h"

#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <fstream>
#include <sstream>

#include "hccl/core/log.h"
#include "nlohmann/json.hpp"

namespace ascend::hccl {
namespace {

// Parses a whole decimal integer.
bool ParseInt(const std::string& s, long long* out) {
  if (s.empty()) return false;
  char* end = nullptr;
  errno = 0;
  const long long v = std::strtoll(s.c_str(), &end, 10);
  if (errno != 0 || end == s.c_str() || *end != '\0') return false;
  *out = v;
  return true;
}

}  // namespace

std::string EnvString(const char* name) {
  const char* v = std::getenv(name);
  return v == nullptr ? std::string() : std::string(v);
}

HcclResult ConnectTimeout(const char* api, Millis* out) {
  const std::string s = EnvString("HCCL_CONNECT_TIMEOUT");
  if (s.empty()) {
    *out = std::chrono::seconds(120);
    return HCCL_SUCCESS;
  }
  long long v = 0;
  if (!ParseInt(s, &v) || v < 1 || v > 7200) {
    return Refuse(api, HCCL_E_PARA,
                  "HCCL_CONNECT_TIMEOUT=" + s +
                      " is not an integer number of seconds in [1, 7200]");
  }
  if (v < 120) {
    LogInfo(api, "HCCL_CONNECT_TIMEOUT=" + s +
                     " is below CANN's minimum of 120 s; used as given");
  }
  *out = std::chrono::seconds(v);
  return HCCL_SUCCESS;
}

HcclResult ParseExecTimeout(const char* api, const std::string& text,
                            Millis* out) {
  char* end = nullptr;
  errno = 0;
  const double s = std::strtod(text.c_str(), &end);
  if (text.empty() || errno != 0 || *end != '\0' || !std::isfinite(s) ||
      s < 0 || s > 2147483647.0) {
    return Refuse(api, HCCL_E_PARA,
                  "exec timeout " + text +
                      " is not a number of seconds in [0, 2147483647]");
  }
  if (s == 0) {
    *out = kForever;
  } else {
    *out = Millis(std::max<long long>(1, std::llround(s * 1000.0)));
  }
  return HCCL_SUCCESS;
}

HcclResult ExecTimeout(const char* api, Millis* out) {
  const std::string s = EnvString("HCCL_EXEC_TIMEOUT");
  if (s.empty()) {
    *out = std::chrono::seconds(1836);
    return HCCL_SUCCESS;
  }
  HcclResult r = ParseExecTimeout(api, s, out);
  if (r != HCCL_SUCCESS) LogError(api, "in HCCL_EXEC_TIMEOUT");
  return r;
}

HcclResult BasePort(const char* api, uint16_t* port) {
  const std::string s = EnvString("HCCL_IF_BASE_PORT");
  *port = 0;
  if (s.empty()) return HCCL_SUCCESS;
  long long v = 0;
  if (!ParseInt(s, &v) || v < 1024 || v > 65520) {
    return Refuse(api, HCCL_E_PARA,
                  "HCCL_IF_BASE_PORT=" + s + " is not a port in [1024, 65520]");
  }
  *port = static_cast<uint16_t>(v);
  return HCCL_SUCCESS;
}

HcclResult BufferSizeMb(const char* api, uint32_t* mb) {
  const std::string s = EnvString("HCCL_BUFFSIZE");
  *mb = 200;
  if (s.empty()) return HCCL_SUCCESS;
  long long v = 0;
  if (!ParseInt(s, &v) || v < 1 || v > 0xffffffffLL) {
    return Refuse(api, HCCL_E_PARA,
                  "HCCL_BUFFSIZE=" + s + " is not a size in MB of at least 1");
  }
  *mb = static_cast<uint32_t>(v);
  return HCCL_SUCCESS;
}

std::string AlgoString() { return EnvString("HCCL_ALGO"); }

HcclResult WhiteList(const char* api, bool* enabled,
                     std::vector<std::string>* host_ips) {
  const std::string disable = EnvString("HCCL_WHITELIST_DISABLE");
  *enabled = false;
  host_ips->clear();
  if (disable.empty() || disable == "1") return HCCL_SUCCESS;
  if (disable != "0") {
    return Refuse(api, HCCL_E_PARA,
                  "HCCL_WHITELIST_DISABLE=" + disable + " is neither 0 nor 1");
  }
  const std::string path = EnvString("HCCL_WHITELIST_FILE");
  if (path.empty()) {
    return Refuse(api, HCCL_E_PARA,
                  "HCCL_WHITELIST_DISABLE=0 needs HCCL_WHITELIST_FILE");
  }
  std::ifstream in(path);
  if (!in) {
    return Refuse(api, HCCL_E_OPEN_FILE_FAILURE,
                  "cannot read the white list " + path);
  }
  std::stringstream text;
  text << in.rdbuf();
  const nlohmann::json j = nlohmann::json::parse(text.str(), nullptr, false);
  if (j.is_discarded() || !j.is_object() || !j.contains("host_ip") ||
      !j["host_ip"].is_array()) {
    return Refuse(
        api, HCCL_E_PARA,
        "the white list " + path + " is not JSON with a \"host_ip\" array");
  }
  for (const auto& ip : j["host_ip"]) {
    if (!ip.is_string()) {
      return Refuse(api, HCCL_E_PARA,
                    "the white list " + path + " holds a non-string host_ip");
    }
    host_ips->push_back(ip.get<std::string>());
  }
  *enabled = true;
  return HCCL_SUCCESS;
}

}  // namespace ascend::hccl
