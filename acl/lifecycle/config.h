// Reading and validating aclInit's JSON config file (reference §1.4–§1.5).
//
//   ASCEND_ASSIGN_OR_RETURN(std::string bytes, ReadConfigFile(path));
//   ASCEND_ASSIGN_OR_RETURN(Config config, Config::Parse(bytes));
//   ConfigSettings settings;
//   ASCEND_RETURN_IF_ERROR(config.ReadErrMsgMode(&settings));
//
// Each Read* method validates one group of keys (aclInit calls them at
// different points of its algorithm), and on success fills its fields of
// ConfigSettings; on failure it changes nothing. An absent key is not an
// error and leaves its field as it was. Unknown keys are ignored. No method
// throws: every JSON error becomes the documented code.
#ifndef ASCENDCL_ACL_LIFECYCLE_CONFIG_H_
#define ASCENDCL_ACL_LIFECYCLE_CONFIG_H_

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "nlohmann/json_fwd.hpp"

namespace ascend::acl {

inline constexpr size_t kMaxConfigBytes = 10 * 1024 * 1024;
// Deepest nesting of `{` and, separately, of `[`.
inline constexpr int kMaxConfigDepth = 10;

// err_msg_mode: where aclGetRecentErrMsg looks for messages.
enum class ErrMsgMode { kThread = 0, kProcess = 1 };

// What the config says, as stored by aclInit.
struct ConfigSettings {
  ErrMsgMode err_msg_mode = ErrMsgMode::kThread;
  // StackSize.{aicore_stack_size, simt_stack_size, simt_divergence_stack_size}
  std::optional<uint32_t> aicore_stack_size;
  std::optional<uint32_t> simt_stack_size;
  std::optional<uint32_t> simt_divergence_stack_size;
  // defaultDevice.default_device
  std::optional<int32_t> default_device;
  std::optional<uint32_t> simd_printf_fifo_size_per_core;
  std::optional<uint32_t> simt_printf_fifo_size;
  // acl_graph.event_mode: 0 or 1.
  std::optional<int32_t> event_mode;
  // snapshot.image_dir and snapshot.host_buffer_mb (ours, DESIGN.md §4.15).
  std::optional<std::string> snapshot_image_dir;
  std::optional<uint64_t> snapshot_host_buffer_mb;
};

// The complete bytes of the file at `path`. The path must resolve
// (realpath) to a regular file of at most kMaxConfigBytes that can be read;
// otherwise ACL_ERROR_INVALID_FILE (100003). The size is checked before
// reading, so an oversized file is never loaded.
absl::StatusOr<std::string> ReadConfigFile(const char* path);

// A parsed config. Cheap to copy.
class Config {
 public:
  // Parses config bytes. Empty bytes are an empty config. Errors, all
  // ACL_ERROR_PARSE_FILE (100006): `{` or `[` nested deeper than
  // kMaxConfigDepth (a plain character count, braces inside strings
  // included, as in the reference), invalid JSON, or a top-level value that
  // is not an object.
  static absl::StatusOr<Config> Parse(absl::string_view bytes);

  // err_msg_mode: the JSON string "0" or "1"; anything else (the number 1
  // included) is ACL_ERROR_INVALID_PARAM (100000).
  absl::Status ReadErrMsgMode(ConfigSettings* settings) const;
  // StackSize: an object whose members above, when present, are unsigned
  // 32-bit JSON integers; anything else is ACL_ERROR_FAILURE (500001).
  absl::Status ReadStackSizes(ConfigSettings* settings) const;
  // defaultDevice.default_device: a string matching 0|[1-9][0-9]* that fits
  // an int32; defaultDevice not an object, or any other value, is 500001.
  absl::Status ReadDefaultDevice(ConfigSettings* settings) const;
  // simd_printf_fifo_size_per_core, simt_printf_fifo_size: positive JSON
  // integers (not strings, fractions or exponents) of at most 32 bits; else
  // 500001.
  absl::Status ReadPrintfFifoSizes(ConfigSettings* settings) const;
  // acl_graph.event_mode: the string "0" or "1"; any other value, or an
  // acl_graph that is not an object, is 100000.
  absl::Status ReadEventMode(ConfigSettings* settings) const;
  // snapshot: an object whose image_dir, when present, is a string and
  // whose host_buffer_mb is an unsigned JSON integer; anything else is
  // 100000. Whether the values are usable is checked with the environment
  // applied (snapshot/image_file.h).
  absl::Status ReadSnapshot(ConfigSettings* settings) const;

  // Keys this runtime accepts but does not act on.
  bool has_dump() const;
  bool has_profiler() const;

 private:
  explicit Config(std::shared_ptr<const nlohmann::json> json);

  std::shared_ptr<const nlohmann::json> json_;  // always an object
};

}  // namespace ascend::acl

#endif  // ASCENDCL_ACL_LIFECYCLE_CONFIG_H_
