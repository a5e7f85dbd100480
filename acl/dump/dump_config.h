// The "dump" section of a config file (aclInit, aclmdlSetDump), validated as
// CANN's dump library validates it (DESIGN.md §5.25): value types, allowed
// values, conflicts between keys, and a dump_path that is a readable and
// writable directory when data is dumped. Every violation is
// ACL_ERROR_INVALID_DUMP_CONFIG (100009) with one message naming the key.
//
//   ASCEND_ASSIGN_OR_RETURN(DumpConfig config, ParseDumpConfig(bytes));
//   if (config.kind == DumpConfig::Kind::kData) ...
#ifndef ASCENDCL_ACL_DUMP_DUMP_CONFIG_H_
#define ASCENDCL_ACL_DUMP_DUMP_CONFIG_H_

#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "runtime/dump/dump.h"

namespace ascend::acl::dump {

struct DumpConfig {
  // What the section asks for; kNone when it asks for nothing (no "dump",
  // an empty one, or one with no dump_list, switch, debug or scene).
  enum class Kind { kNone, kData, kOverflow, kException, kWatcher };
  Kind kind = Kind::kNone;
  // dump_path as written ("" when absent) and, for the data kinds, the
  // directory it names, absolute.
  std::string dump_path;
  std::string absolute_path;
  bool op_switch = false;                // dump_op_switch "on"
  std::vector<std::string> layers;       // every dump_list "layer" name
  bool model_entries = false;            // a dump_list entry names a model
  std::string mode = "output";           // dump_mode
  std::string level = "all";             // dump_level
  bool stats = false;                    // dump_data "stats"
  std::vector<std::string> stats_items;  // dump_stats (default six)
  std::vector<std::string> kernel_data;  // dump_kernel_data types
  rt::DumpSettings::Exception exception = rt::DumpSettings::Exception::kOff;
};

// Parses the "dump" member of a config file's bytes (already checked as a
// config: size, nesting, JSON syntax; see acl/lifecycle/config.h).
absl::StatusOr<DumpConfig> ParseDumpConfig(absl::string_view bytes);

// The exception dump scene a name gives (dump_scene, ASCEND_DUMP_SCENE);
// kOff for other names.
rt::DumpSettings::Exception SceneOf(absl::string_view name);

}  // namespace ascend::acl::dump

#endif  // ASCENDCL_ACL_DUMP_DUMP_CONFIG_H_
