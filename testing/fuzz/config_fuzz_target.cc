// Fuzz target: aclInit's config parser and key validation
// (acl/lifecycle/config.h) on arbitrary bytes.
//
// Checks, besides "no crash, no exception, no sanitizer report":
//  * Config::Parse returns OK or ACL_ERROR_PARSE_FILE (100006), and exactly
//    according to the rules of reference §1.5: empty bytes are an empty
//    config; `{` or `[` nested deeper than 10 (naive character count),
//    a NUL byte, invalid JSON or a non-object top level are 100006;
//  * each Read* method returns OK or its one documented code, changes
//    nothing on failure, and on success stores exactly the values an
//    independent reading of the JSON gives.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <limits>
#include <optional>
#include <string>
#include <utility>

#include "absl/status/status.h"
#include "absl/strings/string_view.h"
#include "acl/acl_base.h"
#include "acl/lifecycle/config.h"
#include "nlohmann/json.hpp"
#include "runtime/base/error.h"

namespace {

using ascend::acl::Config;
using ascend::acl::ConfigSettings;
using ascend::acl::ErrMsgMode;
using Json = nlohmann::json;

[[noreturn]] void Fail(const std::string& what, absl::string_view bytes) {
  std::fprintf(stderr, "config fuzz: %s\ninput (%zu bytes): %.*s\n",
               what.c_str(), bytes.size(),
               static_cast<int>(std::min<size_t>(bytes.size(), 400)),
               bytes.data());
  std::abort();
}

bool SameSettings(const ConfigSettings& a, const ConfigSettings& b) {
  return a.err_msg_mode == b.err_msg_mode &&
         a.aicore_stack_size == b.aicore_stack_size &&
         a.simt_stack_size == b.simt_stack_size &&
         a.simt_divergence_stack_size == b.simt_divergence_stack_size &&
         a.default_device == b.default_device &&
         a.simd_printf_fifo_size_per_core == b.simd_printf_fifo_size_per_core &&
         a.simt_printf_fifo_size == b.simt_printf_fifo_size &&
         a.event_mode == b.event_mode;
}

// Reference §1.5: the depth of `{` and of `[` counted on raw characters.
bool NestingWithinLimit(absl::string_view bytes) {
  int braces = 0;
  int brackets = 0;
  for (char c : bytes) {
    if (c == '{' && ++braces > ascend::acl::kMaxConfigDepth) return false;
    if (c == '}') --braces;
    if (c == '[' && ++brackets > ascend::acl::kMaxConfigDepth) return false;
    if (c == ']') --brackets;
  }
  return true;
}

// --- The independent reading of each key group
// ------------------------------------

std::optional<int32_t> ZeroOrOne(const Json& v) {
  if (!v.is_string()) return std::nullopt;
  const std::string& s = v.get_ref<const std::string&>();
  if (s == "0") return 0;
  if (s == "1") return 1;
  return std::nullopt;
}

std::optional<uint32_t> Unsigned32(const Json& v) {
  if (!v.is_number_unsigned()) return std::nullopt;
  const uint64_t x = v.get<uint64_t>();
  if (x > std::numeric_limits<uint32_t>::max()) return std::nullopt;
  return static_cast<uint32_t>(x);
}

std::optional<int32_t> DeviceIdText(const Json& v) {
  if (!v.is_string()) return std::nullopt;
  const std::string& s = v.get_ref<const std::string&>();
  if (s.empty() || s.size() > 10) return std::nullopt;
  if (s.size() > 1 && s[0] == '0') return std::nullopt;
  for (char c : s) {
    if (c < '0' || c > '9') return std::nullopt;
  }
  const long long id = std::stoll(s);
  if (id > std::numeric_limits<int32_t>::max()) return std::nullopt;
  return static_cast<int32_t>(id);
}

// What a Read* call should do: its code and, on success, the settings.
struct Prediction {
  int32_t code = ACL_SUCCESS;
  ConfigSettings after;
};

Prediction PredictErrMsgMode(const Json& j, ConfigSettings s) {
  auto it = j.find("err_msg_mode");
  if (it == j.end()) return {ACL_SUCCESS, s};
  std::optional<int32_t> mode = ZeroOrOne(*it);
  if (!mode) return {ACL_ERROR_INVALID_PARAM, s};
  s.err_msg_mode = *mode == 0 ? ErrMsgMode::kThread : ErrMsgMode::kProcess;
  return {ACL_SUCCESS, s};
}

Prediction PredictStackSizes(const Json& j, ConfigSettings s) {
  auto it = j.find("StackSize");
  if (it == j.end()) return {ACL_SUCCESS, s};
  if (!it->is_object()) return {ACL_ERROR_FAILURE, s};
  ConfigSettings out = s;
  const std::pair<const char*, std::optional<uint32_t> ConfigSettings::*>
      fields[] = {
          {"aicore_stack_size", &ConfigSettings::aicore_stack_size},
          {"simt_stack_size", &ConfigSettings::simt_stack_size},
          {"simt_divergence_stack_size",
           &ConfigSettings::simt_divergence_stack_size},
      };
  for (const auto& [key, member] : fields) {
    auto f = it->find(key);
    if (f == it->end()) continue;
    std::optional<uint32_t> v = Unsigned32(*f);
    if (!v) return {ACL_ERROR_FAILURE, s};
    out.*member = v;
  }
  return {ACL_SUCCESS, out};
}

Prediction PredictDefaultDevice(const Json& j, ConfigSettings s) {
  auto it = j.find("defaultDevice");
  if (it == j.end()) return {ACL_SUCCESS, s};
  if (!it->is_object()) return {ACL_ERROR_FAILURE, s};
  auto f = it->find("default_device");
  if (f == it->end()) return {ACL_SUCCESS, s};
  std::optional<int32_t> id = DeviceIdText(*f);
  if (!id) return {ACL_ERROR_FAILURE, s};
  s.default_device = id;
  return {ACL_SUCCESS, s};
}

Prediction PredictPrintfFifoSizes(const Json& j, ConfigSettings s) {
  ConfigSettings out = s;
  const std::pair<const char*, std::optional<uint32_t> ConfigSettings::*>
      fields[] = {
          {"simd_printf_fifo_size_per_core",
           &ConfigSettings::simd_printf_fifo_size_per_core},
          {"simt_printf_fifo_size", &ConfigSettings::simt_printf_fifo_size},
      };
  for (const auto& [key, member] : fields) {
    auto f = j.find(key);
    if (f == j.end()) continue;
    std::optional<uint32_t> v = Unsigned32(*f);
    if (!v || *v == 0) return {ACL_ERROR_FAILURE, s};
    out.*member = v;
  }
  return {ACL_SUCCESS, out};
}

Prediction PredictEventMode(const Json& j, ConfigSettings s) {
  auto it = j.find("acl_graph");
  if (it == j.end()) return {ACL_SUCCESS, s};
  if (!it->is_object()) return {ACL_ERROR_INVALID_PARAM, s};
  auto f = it->find("event_mode");
  if (f == it->end()) return {ACL_SUCCESS, s};
  std::optional<int32_t> mode = ZeroOrOne(*f);
  if (!mode) return {ACL_ERROR_INVALID_PARAM, s};
  s.event_mode = mode;
  return {ACL_SUCCESS, s};
}

// Runs one Read* method on `settings` and checks it against `predicted`.
template <typename Read>
void Check(const char* name, Read read, const Prediction& predicted,
           ConfigSettings* settings, absl::string_view bytes) {
  const ConfigSettings before = *settings;
  const absl::Status status = read(settings);
  const int32_t code = ascend::rt::ErrorCode(status);
  if (code != predicted.code) {
    Fail(std::string(name) + " returned " + std::to_string(code) +
             ", expected " + std::to_string(predicted.code),
         bytes);
  }
  if (!status.ok() && !SameSettings(before, *settings)) {
    Fail(std::string(name) + " failed but changed the settings", bytes);
  }
  if (!SameSettings(predicted.after, *settings)) {
    Fail(std::string(name) + " stored other values than the JSON says", bytes);
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const absl::string_view bytes(reinterpret_cast<const char*>(data), size);
  absl::StatusOr<Config> config = Config::Parse(bytes);

  // The parse rules.
  Json json = Json::object();
  bool expect_ok = true;
  if (!bytes.empty()) {
    if (!NestingWithinLimit(bytes) ||
        bytes.find('\0') != absl::string_view::npos) {
      expect_ok = false;
    } else {
      json = Json::parse(bytes.begin(), bytes.end(), nullptr,
                         /*allow_exceptions=*/false);
      expect_ok = !json.is_discarded() && json.is_object();
    }
  }
  if (!config.ok()) {
    const int32_t code = ascend::rt::ErrorCode(config.status());
    if (code != ACL_ERROR_PARSE_FILE) {
      Fail("Parse returned " + std::to_string(code), bytes);
    }
    if (expect_ok) Fail("Parse refused a valid config", bytes);
    return 0;
  }
  if (!expect_ok) Fail("Parse accepted an invalid config", bytes);

  // Each key group, starting from both default and fully set settings so a
  // failure that clears or overwrites a field is seen.
  ConfigSettings preset;
  preset.err_msg_mode = ErrMsgMode::kProcess;
  preset.aicore_stack_size = 1;
  preset.simt_stack_size = 2;
  preset.simt_divergence_stack_size = 3;
  preset.default_device = 4;
  preset.simd_printf_fifo_size_per_core = 5;
  preset.simt_printf_fifo_size = 6;
  preset.event_mode = 1;
  for (const ConfigSettings& start : {ConfigSettings{}, preset}) {
    ConfigSettings s = start;
    Check(
        "ReadErrMsgMode",
        [&](ConfigSettings* x) { return config->ReadErrMsgMode(x); },
        PredictErrMsgMode(json, s), &s, bytes);
    Check(
        "ReadStackSizes",
        [&](ConfigSettings* x) { return config->ReadStackSizes(x); },
        PredictStackSizes(json, s), &s, bytes);
    Check(
        "ReadDefaultDevice",
        [&](ConfigSettings* x) { return config->ReadDefaultDevice(x); },
        PredictDefaultDevice(json, s), &s, bytes);
    Check(
        "ReadPrintfFifoSizes",
        [&](ConfigSettings* x) { return config->ReadPrintfFifoSizes(x); },
        PredictPrintfFifoSizes(json, s), &s, bytes);
    Check(
        "ReadEventMode",
        [&](ConfigSettings* x) { return config->ReadEventMode(x); },
        PredictEventMode(json, s), &s, bytes);
  }
  if (config->has_dump() != json.contains("dump") ||
      config->has_profiler() != json.contains("profiler")) {
    Fail("has_dump/has_profiler disagree with the JSON", bytes);
  }
  return 0;
}
