#include "acl/lifecycle/config.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <utility>

#include "absl/strings/str_cat.h"
#include "acl/acl_base.h"
#include "nlohmann/json.hpp"
#include "runtime/base/error.h"

namespace ascend::acl {
namespace {

using Json = nlohmann::json;

absl::Status InvalidFile(absl::string_view path, absl::string_view why) {
  return rt::Error(ACL_ERROR_INVALID_FILE,
                   absl::StrCat("config file \"", path, "\": ", why));
}

absl::Status ParseError(absl::string_view why) {
  return rt::Error(ACL_ERROR_PARSE_FILE, absl::StrCat("config: ", why));
}

absl::Status BadValue(int32_t code, absl::string_view key,
                      absl::string_view why) {
  return rt::Error(code, absl::StrCat("config key ", key, ": ", why));
}

// Closes a file descriptor on scope exit.
class Fd {
 public:
  explicit Fd(int fd) : fd_(fd) {}
  Fd(const Fd&) = delete;
  Fd& operator=(const Fd&) = delete;
  ~Fd() {
    if (fd_ >= 0) close(fd_);
  }
  int get() const { return fd_; }

 private:
  int fd_;
};

// Deepest nesting of `{` and of `[`, counted on raw characters.
bool NestingWithinLimit(absl::string_view bytes) {
  int braces = 0;
  int brackets = 0;
  for (char c : bytes) {
    switch (c) {
      case '{':
        if (++braces > kMaxConfigDepth) return false;
        break;
      case '}':
        --braces;
        break;
      case '[':
        if (++brackets > kMaxConfigDepth) return false;
        break;
      case ']':
        --brackets;
        break;
      default:
        break;
    }
  }
  return true;
}

// The member `key` of `object` (an object), or nullptr.
const Json* Member(const Json& object, const char* key) {
  auto it = object.find(key);
  return it == object.end() ? nullptr : &*it;
}

// "0" or "1" as a JSON string.
std::optional<int32_t> ZeroOrOneString(const Json& value) {
  if (!value.is_string()) return std::nullopt;
  const auto& text = value.get_ref<const std::string&>();
  if (text == "0") return 0;
  if (text == "1") return 1;
  return std::nullopt;
}

// A JSON unsigned integer that fits 32 bits.
std::optional<uint32_t> Uint32(const Json& value) {
  if (!value.is_number_unsigned()) return std::nullopt;
  uint64_t v = value.get<uint64_t>();
  if (v > std::numeric_limits<uint32_t>::max()) return std::nullopt;
  return static_cast<uint32_t>(v);
}

// A decimal device id matching 0|[1-9][0-9]* that fits an int32.
std::optional<int32_t> DeviceId(const std::string& text) {
  if (text.empty() || (text.size() > 1 && text[0] == '0')) return std::nullopt;
  int64_t id = 0;
  for (char c : text) {
    if (c < '0' || c > '9') return std::nullopt;
    id = id * 10 + (c - '0');
    if (id > std::numeric_limits<int32_t>::max()) return std::nullopt;
  }
  return static_cast<int32_t>(id);
}

}  // namespace

absl::StatusOr<std::string> ReadConfigFile(const char* path) {
  char* resolved_raw = realpath(path, nullptr);
  if (resolved_raw == nullptr) {
    return InvalidFile(path, absl::StrCat("cannot resolve: ", strerror(errno)));
  }
  std::string resolved(resolved_raw);
  std::free(resolved_raw);

  // stat before open: opening a FIFO or device could block.
  struct stat st;
  if (stat(resolved.c_str(), &st) != 0) {
    return InvalidFile(path, absl::StrCat("cannot stat: ", strerror(errno)));
  }
  if (!S_ISREG(st.st_mode)) return InvalidFile(path, "not a regular file");
  if (static_cast<uint64_t>(st.st_size) > kMaxConfigBytes) {
    return InvalidFile(path, absl::StrCat("larger than ", kMaxConfigBytes,
                                          " bytes (", st.st_size, ")"));
  }

  Fd fd(open(resolved.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK));
  if (fd.get() < 0) {
    return InvalidFile(path, absl::StrCat("cannot open: ", strerror(errno)));
  }
  // The file may have been replaced or grown since stat: read at most one
  // byte past the limit to notice.
  std::string bytes;
  char buffer[64 * 1024];
  while (true) {
    ssize_t n = read(fd.get(), buffer, sizeof(buffer));
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) {
      return InvalidFile(path, absl::StrCat("cannot read: ", strerror(errno)));
    }
    if (n == 0) break;
    bytes.append(buffer, static_cast<size_t>(n));
    if (bytes.size() > kMaxConfigBytes) {
      return InvalidFile(path, "grew beyond the size limit while read");
    }
  }
  return bytes;
}

Config::Config(std::shared_ptr<const Json> json) : json_(std::move(json)) {}

absl::StatusOr<Config> Config::Parse(absl::string_view bytes) {
  if (bytes.empty())
    return Config(std::make_shared<const Json>(Json::object()));
  if (!NestingWithinLimit(bytes)) {
    return ParseError(
        absl::StrCat("'{' or '[' nested deeper than ", kMaxConfigDepth));
  }
  // nlohmann's lexer takes a NUL byte for the end of input and would ignore
  // whatever follows it; JSON text has no NUL outside strings (where it
  // must be escaped), so any NUL byte makes the file invalid.
  if (bytes.find('\0') != absl::string_view::npos) {
    return ParseError("contains a NUL byte");
  }
  Json json;
  try {
    json = Json::parse(bytes.begin(), bytes.end(), /*cb=*/nullptr,
                       /*allow_exceptions=*/false);
  } catch (const Json::exception& e) {
    return ParseError(e.what());
  }
  if (json.is_discarded()) return ParseError("not valid JSON");
  if (!json.is_object()) return ParseError("the top level is not an object");
  return Config(std::make_shared<const Json>(std::move(json)));
}

absl::Status Config::ReadErrMsgMode(ConfigSettings* settings) const {
  const Json* value = Member(*json_, "err_msg_mode");
  if (value == nullptr) return absl::OkStatus();
  std::optional<int32_t> mode = ZeroOrOneString(*value);
  if (!mode) {
    return BadValue(ACL_ERROR_INVALID_PARAM, "err_msg_mode",
                    "must be the string \"0\" or \"1\"");
  }
  settings->err_msg_mode =
      *mode == 0 ? ErrMsgMode::kThread : ErrMsgMode::kProcess;
  return absl::OkStatus();
}

absl::Status Config::ReadStackSizes(ConfigSettings* settings) const {
  const Json* stack = Member(*json_, "StackSize");
  if (stack == nullptr) return absl::OkStatus();
  if (!stack->is_object()) {
    return BadValue(ACL_ERROR_FAILURE, "StackSize", "must be an object");
  }
  struct Field {
    const char* key;
    std::optional<uint32_t> ConfigSettings::*member;
  };
  static constexpr Field kFields[] = {
      {"aicore_stack_size", &ConfigSettings::aicore_stack_size},
      {"simt_stack_size", &ConfigSettings::simt_stack_size},
      {"simt_divergence_stack_size",
       &ConfigSettings::simt_divergence_stack_size},
  };
  ConfigSettings updated = *settings;
  for (const Field& field : kFields) {
    const Json* value = Member(*stack, field.key);
    if (value == nullptr) continue;
    std::optional<uint32_t> size = Uint32(*value);
    if (!size) {
      return BadValue(ACL_ERROR_FAILURE, absl::StrCat("StackSize.", field.key),
                      "must be an unsigned 32-bit integer");
    }
    updated.*field.member = size;
  }
  *settings = std::move(updated);
  return absl::OkStatus();
}

absl::Status Config::ReadDefaultDevice(ConfigSettings* settings) const {
  const Json* device = Member(*json_, "defaultDevice");
  if (device == nullptr) return absl::OkStatus();
  if (!device->is_object()) {
    return BadValue(ACL_ERROR_FAILURE, "defaultDevice", "must be an object");
  }
  const Json* value = Member(*device, "default_device");
  if (value == nullptr) return absl::OkStatus();
  std::optional<int32_t> id;
  if (value->is_string()) id = DeviceId(value->get_ref<const std::string&>());
  if (!id) {
    return BadValue(ACL_ERROR_FAILURE, "defaultDevice.default_device",
                    "must be a decimal device id string such as \"0\"");
  }
  settings->default_device = id;
  return absl::OkStatus();
}

absl::Status Config::ReadPrintfFifoSizes(ConfigSettings* settings) const {
  struct Field {
    const char* key;
    std::optional<uint32_t> ConfigSettings::*member;
  };
  static constexpr Field kFields[] = {
      {"simd_printf_fifo_size_per_core",
       &ConfigSettings::simd_printf_fifo_size_per_core},
      {"simt_printf_fifo_size", &ConfigSettings::simt_printf_fifo_size},
  };
  ConfigSettings updated = *settings;
  for (const Field& field : kFields) {
    const Json* value = Member(*json_, field.key);
    if (value == nullptr) continue;
    std::optional<uint32_t> size = Uint32(*value);
    if (!size || *size == 0) {
      return BadValue(ACL_ERROR_FAILURE, field.key,
                      "must be a positive 32-bit JSON integer");
    }
    updated.*field.member = size;
  }
  *settings = std::move(updated);
  return absl::OkStatus();
}

absl::Status Config::ReadEventMode(ConfigSettings* settings) const {
  const Json* graph = Member(*json_, "acl_graph");
  if (graph == nullptr) return absl::OkStatus();
  if (!graph->is_object()) {
    return BadValue(ACL_ERROR_INVALID_PARAM, "acl_graph", "must be an object");
  }
  const Json* value = Member(*graph, "event_mode");
  if (value == nullptr) return absl::OkStatus();
  std::optional<int32_t> mode = ZeroOrOneString(*value);
  if (!mode) {
    return BadValue(ACL_ERROR_INVALID_PARAM, "acl_graph.event_mode",
                    "must be the string \"0\" or \"1\"");
  }
  settings->event_mode = mode;
  return absl::OkStatus();
}

absl::Status Config::ReadSnapshot(ConfigSettings* settings) const {
  const Json* snapshot = Member(*json_, "snapshot");
  if (snapshot == nullptr) return absl::OkStatus();
  if (!snapshot->is_object()) {
    return BadValue(ACL_ERROR_INVALID_PARAM, "snapshot", "must be an object");
  }
  std::optional<std::string> dir;
  if (const Json* value = Member(*snapshot, "image_dir")) {
    if (!value->is_string()) {
      return BadValue(ACL_ERROR_INVALID_PARAM, "snapshot.image_dir",
                      "must be a string (an absolute path)");
    }
    dir = value->get<std::string>();
  }
  std::optional<uint64_t> mb;
  if (const Json* value = Member(*snapshot, "host_buffer_mb")) {
    if (!value->is_number_unsigned()) {
      return BadValue(ACL_ERROR_INVALID_PARAM, "snapshot.host_buffer_mb",
                      "must be a positive integer (MiB)");
    }
    mb = value->get<uint64_t>();
  }
  settings->snapshot_image_dir = std::move(dir);
  settings->snapshot_host_buffer_mb = mb;
  return absl::OkStatus();
}

bool Config::has_dump() const { return json_->contains("dump"); }

bool Config::has_profiler() const { return json_->contains("profiler"); }

}  // namespace ascend::acl
