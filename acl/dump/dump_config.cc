#include "acl/dump/dump_config.h"

#include <limits.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <set>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "acl/acl_base.h"
#include "nlohmann/json.hpp"
#include "runtime/base/error.h"

namespace ascend::acl::dump {
namespace {

using json = nlohmann::json;

constexpr size_t kMaxDumpPathLength = 512;
constexpr size_t kMaxDumpSteps = 100;
constexpr size_t kMaxBlacklist = 100;

const std::set<std::string> kModes = {"input", "output", "all"};
const std::set<std::string> kData = {"tensor", "stats"};
const std::set<std::string> kSwitch = {"on", "off"};
const std::set<std::string> kLevels = {"op", "kernel", "all"};
const std::set<std::string> kScenes = {"lite_exception", "aic_err_brief_dump",
                                       "aic_err_norm_dump",
                                       "aic_err_detail_dump", "watcher"};
const std::set<std::string> kKernelData = {"all", "printf", "tensor", "assert",
                                           "timestamp"};
const std::vector<std::string> kStatsItems = {
    "Max", "Min", "Avg", "Nan", "Negative Inf", "Positive Inf", "L2norm"};

absl::Status Invalid(absl::string_view what) {
  return rt::Error(ACL_ERROR_INVALID_DUMP_CONFIG,
                   absl::StrCat("the dump configuration is invalid: ", what));
}

std::string Item(absl::string_view base, absl::string_view key) {
  return base.empty() ? std::string(key) : absl::StrCat(base, ".", key);
}

std::string Indexed(absl::string_view base, size_t i) {
  return absl::StrCat(base, "[", i, "]");
}

// A member that, when present, must be a string.
absl::Status StringMember(const json& object, const char* key,
                          absl::string_view base) {
  if (object.contains(key) && !object.at(key).is_string()) {
    return Invalid(absl::StrCat(Item(base, key), " must be a string"));
  }
  return absl::OkStatus();
}

// An array whose members are all strings (or all objects).
absl::Status ArrayOf(const json& value, bool strings, absl::string_view path) {
  if (!value.is_array()) {
    return Invalid(absl::StrCat(path, " must be an array"));
  }
  for (size_t i = 0; i < value.size(); ++i) {
    if (strings ? !value[i].is_string() : !value[i].is_object()) {
      return Invalid(absl::StrCat(Indexed(path, i), " must be ",
                                  strings ? "a string" : "an object"));
    }
  }
  return absl::OkStatus();
}

absl::Status CheckListItem(const json& item, const std::string& path) {
  if (absl::Status s = StringMember(item, "model_name", path); !s.ok()) {
    return s;
  }
  for (const char* key : {"layer", "watcher_nodes"}) {
    if (item.contains(key)) {
      if (absl::Status s = ArrayOf(item.at(key), true, Item(path, key));
          !s.ok()) {
        return s;
      }
    }
  }
  for (const char* key : {"optype_blacklist", "opname_blacklist"}) {
    if (!item.contains(key)) continue;
    const std::string list = Item(path, key);
    if (absl::Status s = ArrayOf(item.at(key), false, list); !s.ok()) return s;
    for (size_t i = 0; i < item.at(key).size(); ++i) {
      const json& entry = item.at(key)[i];
      if (absl::Status s = StringMember(entry, "name", Indexed(list, i));
          !s.ok()) {
        return s;
      }
      if (entry.contains("pos")) {
        if (absl::Status s =
                ArrayOf(entry.at("pos"), true, Item(Indexed(list, i), "pos"));
            !s.ok()) {
          return s;
        }
      }
    }
  }
  if (item.contains("opname_range")) {
    const std::string list = Item(path, "opname_range");
    if (absl::Status s = ArrayOf(item.at("opname_range"), false, list);
        !s.ok()) {
      return s;
    }
    for (size_t i = 0; i < item.at("opname_range").size(); ++i) {
      for (const char* key : {"begin", "end"}) {
        if (absl::Status s =
                StringMember(item.at("opname_range")[i], key, Indexed(list, i));
            !s.ok()) {
          return s;
        }
      }
    }
  }
  return absl::OkStatus();
}

// The value types of every member CANN reads.
absl::Status CheckTypes(const json& dump) {
  for (const char* key :
       {"dump_path", "dump_mode", "dump_op_switch", "dump_level", "dump_scene",
        "dump_data", "dump_debug", "dump_kernel_data", "dump_step"}) {
    if (absl::Status s = StringMember(dump, key, ""); !s.ok()) return s;
  }
  if (dump.contains("dump_stats")) {
    if (absl::Status s = ArrayOf(dump.at("dump_stats"), true, "dump_stats");
        !s.ok()) {
      return s;
    }
  }
  if (dump.contains("dump_list")) {
    if (absl::Status s = ArrayOf(dump.at("dump_list"), false, "dump_list");
        !s.ok()) {
      return s;
    }
    for (size_t i = 0; i < dump.at("dump_list").size(); ++i) {
      if (absl::Status s =
              CheckListItem(dump.at("dump_list")[i], Indexed("dump_list", i));
          !s.ok()) {
        return s;
      }
    }
  }
  return absl::OkStatus();
}

std::string StringOr(const json& dump, const char* key,
                     const std::string& fallback) {
  return dump.contains(key) ? dump.at(key).get<std::string>() : fallback;
}

absl::Status OneOf(const std::string& value, const std::set<std::string>& valid,
                   absl::string_view path) {
  if (value.empty()) return Invalid(absl::StrCat(path, " is empty"));
  if (valid.count(value) == 0) {
    return Invalid(absl::StrCat("value ", value, " of ", path,
                                " is not one of ", absl::StrJoin(valid, "/")));
  }
  return absl::OkStatus();
}

// The allowed values of the enumerated members.
absl::Status CheckValues(const json& dump) {
  const std::pair<const char*, const std::set<std::string>*> members[] = {
      {"dump_mode", &kModes},       {"dump_data", &kData},
      {"dump_op_switch", &kSwitch}, {"dump_level", &kLevels},
      {"dump_debug", &kSwitch},     {"dump_scene", &kScenes}};
  for (const auto& [key, valid] : members) {
    if (!dump.contains(key)) continue;
    if (absl::Status s = OneOf(dump.at(key).get<std::string>(), *valid, key);
        !s.ok()) {
      return s;
    }
  }
  if (dump.contains("dump_kernel_data")) {
    const std::string text = dump.at("dump_kernel_data").get<std::string>();
    for (absl::string_view type : absl::StrSplit(text, ',')) {
      if (absl::Status s =
              OneOf(std::string(type), kKernelData, "dump_kernel_data");
          !s.ok()) {
        return s;
      }
    }
  }
  if (dump.contains("dump_stats")) {
    const std::set<std::string> valid(kStatsItems.begin(), kStatsItems.end());
    const json& stats = dump.at("dump_stats");
    for (size_t i = 0; i < stats.size(); ++i) {
      if (absl::Status s = OneOf(stats[i].get<std::string>(), valid,
                                 Indexed("dump_stats", i));
          !s.ok()) {
        return s;
      }
    }
  }
  return absl::OkStatus();
}

bool Is(const json& dump, const char* key, const char* value) {
  return dump.contains(key) && dump.at(key).get<std::string>() == value;
}

absl::Status Conflict(absl::string_view key, absl::string_view value,
                      absl::string_view other, absl::string_view other_value) {
  return Invalid(absl::StrCat(key, " cannot be ", value, " when ", other,
                              " is ", other_value));
}

// dump_path: present, not empty, at most 512 characters, a directory this
// process can read and write. Gives its absolute form.
absl::Status CheckDumpPath(const json& dump, std::string* absolute) {
  if (!dump.contains("dump_path")) return Invalid("dump_path is missing");
  const std::string path = dump.at("dump_path").get<std::string>();
  if (path.empty()) return Invalid("dump_path is empty");
  if (path.size() > kMaxDumpPathLength) {
    return Invalid(absl::StrCat("dump_path is longer than ", kMaxDumpPathLength,
                                " characters"));
  }
  char resolved[PATH_MAX];
  if (::realpath(path.c_str(), resolved) == nullptr) {
    return Invalid(absl::StrCat("dump_path ", path, " does not exist"));
  }
  struct stat st;
  if (::stat(resolved, &st) != 0 || !S_ISDIR(st.st_mode)) {
    return Invalid(absl::StrCat("dump_path ", path, " is not a directory"));
  }
  if (::access(resolved, R_OK | W_OK) != 0) {
    return Invalid(
        absl::StrCat("dump_path ", path, " is not readable and writable"));
  }
  *absolute = resolved;
  return absl::OkStatus();
}

bool Digits(absl::string_view s) {
  return !s.empty() && std::all_of(s.begin(), s.end(), [](char c) {
    return std::isdigit(static_cast<unsigned char>(c)) != 0;
  });
}

// dump_step: at most 100 '|'-separated steps or ranges "a-b" with a <= b.
absl::Status CheckSteps(const json& dump) {
  const std::string steps = StringOr(dump, "dump_step", "");
  if (steps.empty()) return absl::OkStatus();
  const std::vector<std::string> parts = absl::StrSplit(steps, '|');
  if (parts.size() > kMaxDumpSteps) {
    return Invalid(
        absl::StrCat("dump_step has more than ", kMaxDumpSteps, " steps"));
  }
  for (size_t i = 0; i < parts.size(); ++i) {
    const std::vector<std::string> range = absl::StrSplit(parts[i], '-');
    if (range.size() > 2 || !std::all_of(range.begin(), range.end(), Digits) ||
        std::strtoull(range.front().c_str(), nullptr, 10) >
            std::strtoull(range.back().c_str(), nullptr, 10)) {
      return Invalid(absl::StrCat(Indexed("dump_step", i), " ", parts[i],
                                  " is not a step or a range a-b, a <= b"));
    }
  }
  return absl::OkStatus();
}

absl::Status CheckList(const json& dump, const std::string& level,
                       const std::string& scene) {
  if (!dump.contains("dump_list")) return absl::OkStatus();
  const bool switch_off = StringOr(dump, "dump_op_switch", "off") == "off";
  const json& list = dump.at("dump_list");
  for (size_t i = 0; i < list.size(); ++i) {
    const json& item = list[i];
    const std::string path = Indexed("dump_list", i);
    const bool named = item.contains("model_name");
    if (switch_off) {
      if (named && item.at("model_name").get<std::string>().empty()) {
        return Invalid(absl::StrCat(path, ".model_name is empty"));
      }
      if (item.contains("layer") && item.at("layer").empty()) {
        return Invalid(absl::StrCat(path, ".layer is empty"));
      }
    }
    const bool watchers =
        item.contains("watcher_nodes") && !item.at("watcher_nodes").empty();
    if (scene == "watcher") {
      if (!watchers) {
        return Invalid(
            absl::StrCat(path, ".watcher_nodes is missing or empty"));
      }
      if (named) {
        return Invalid(absl::StrCat(path,
                                    ".model_name cannot be set when "
                                    "dump_scene is watcher"));
      }
    } else if (watchers) {
      return Invalid(absl::StrCat(
          path, ".watcher_nodes can be set only when dump_scene is watcher"));
    }
    for (const char* key : {"optype_blacklist", "opname_blacklist"}) {
      if (!item.contains(key)) continue;
      if (item.at(key).size() > kMaxBlacklist) {
        return Invalid(absl::StrCat(path, ".", key, " has more than ",
                                    kMaxBlacklist, " entries"));
      }
      if (!item.at(key).empty() && level != "op") {
        return Invalid(absl::StrCat(path, ".", key,
                                    " can be set only when dump_level is op"));
      }
    }
    if (item.contains("opname_range") && !item.at("opname_range").empty()) {
      if (level != "op") {
        return Invalid(absl::StrCat(
            path, ".opname_range can be set only when dump_level is op"));
      }
      if (!named || item.at("model_name").get<std::string>().empty()) {
        return Invalid(absl::StrCat(path, ".opname_range needs a model_name"));
      }
      for (const json& range : item.at("opname_range")) {
        if (StringOr(range, "begin", "").empty() ||
            StringOr(range, "end", "").empty()) {
          return Invalid(
              absl::StrCat(path, ".opname_range needs both begin and end"));
        }
      }
    }
  }
  return absl::OkStatus();
}

}  // namespace

rt::DumpSettings::Exception SceneOf(absl::string_view name) {
  if (name == "aic_err_brief_dump" || name == "lite_exception") {
    return rt::DumpSettings::Exception::kBrief;
  }
  if (name == "aic_err_norm_dump") return rt::DumpSettings::Exception::kNormal;
  if (name == "aic_err_detail_dump") {
    return rt::DumpSettings::Exception::kDetail;
  }
  return rt::DumpSettings::Exception::kOff;
}

absl::StatusOr<DumpConfig> ParseDumpConfig(absl::string_view bytes) {
  DumpConfig config;
  // No config file (or an empty one): nothing to dump.
  if (bytes.find_first_not_of(" \t\r\n") == absl::string_view::npos) {
    return config;
  }
  const json root = json::parse(bytes.begin(), bytes.end(), nullptr,
                                /*allow_exceptions=*/false);
  if (root.is_discarded()) return Invalid("the file is not JSON");
  if (!root.is_object() || !root.contains("dump")) return config;
  const json& dump = root.at("dump");
  if (!dump.is_object()) return Invalid("dump must be an object");
  if (dump.empty()) return config;
  if (absl::Status s = CheckTypes(dump); !s.ok()) return s;
  if (absl::Status s = CheckValues(dump); !s.ok()) return s;

  config.dump_path = StringOr(dump, "dump_path", "");
  const std::string scene = StringOr(dump, "dump_scene", "");
  const bool debug = Is(dump, "dump_debug", "on");
  const bool op_switch = Is(dump, "dump_op_switch", "on");
  config.level = StringOr(dump, "dump_level", "all");
  config.mode = StringOr(dump, "dump_mode", "output");
  // The constraints CANN's dump library checks, in its order.
  if (!scene.empty()) {
    if (debug) return Conflict("dump_debug", "on", "dump_scene", scene);
    if (op_switch) return Conflict("dump_op_switch", "on", "dump_scene", scene);
    if (scene == "watcher" && config.mode != "output") {
      return Conflict("dump_mode", config.mode, "dump_scene", scene);
    }
  }
  const bool exception = !scene.empty() && scene != "watcher";
  if (!exception) {
    if (absl::Status s = CheckDumpPath(dump, &config.absolute_path); !s.ok()) {
      return s;
    }
    if (debug && op_switch) {
      return Conflict("dump_op_switch", "on", "dump_debug", "on");
    }
    if (!debug) {
      if (absl::Status s = CheckSteps(dump); !s.ok()) return s;
      if (absl::Status s = CheckList(dump, config.level, scene); !s.ok()) {
        return s;
      }
      if (dump.contains("dump_stats")) {
        if (dump.at("dump_stats").empty())
          return Invalid("dump_stats is empty");
        if (StringOr(dump, "dump_data", "tensor") == "tensor") {
          return Invalid("dump_stats cannot be set when dump_data is tensor");
        }
      }
    }
  }
  if (dump.contains("dump_kernel_data")) {
    config.kernel_data =
        absl::StrSplit(dump.at("dump_kernel_data").get<std::string>(), ',');
  }

  // What it asks for: a dump_list, the switch, debug or a scene; else
  // nothing (CANN's "no dump config need to be set").
  const bool listed =
      dump.contains("dump_list") && !dump.at("dump_list").empty();
  if (!listed && !op_switch && !debug && scene.empty()) return config;
  config.op_switch = op_switch;
  config.stats = StringOr(dump, "dump_data", "tensor") == "stats";
  if (dump.contains("dump_stats")) {
    for (const json& item : dump.at("dump_stats")) {
      config.stats_items.push_back(item.get<std::string>());
    }
  } else {
    config.stats_items.assign(kStatsItems.begin(), kStatsItems.end() - 1);
  }
  if (dump.contains("dump_list")) {
    for (const json& item : dump.at("dump_list")) {
      config.model_entries |= item.contains("model_name");
      if (item.contains("layer")) {
        for (const json& name : item.at("layer")) {
          config.layers.push_back(name.get<std::string>());
        }
      }
    }
  }
  if (exception) {
    config.kind = DumpConfig::Kind::kException;
    config.exception = SceneOf(scene);
  } else if (scene == "watcher") {
    config.kind = DumpConfig::Kind::kWatcher;
  } else if (debug) {
    config.kind = DumpConfig::Kind::kOverflow;
  } else {
    config.kind = DumpConfig::Kind::kData;
  }
  return config;
}

}  // namespace ascend::acl::dump
