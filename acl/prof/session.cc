#include "acl/prof/session.h"

#include <unistd.h>

#include <cstdio>
#include <fstream>
#include <utility>

#include "acl/acl_prof.h"
#include "ascendcl/timeline.h"
#include "nlohmann/json.hpp"

namespace ascend::prof {
namespace {

using nlohmann::json;

constexpr uint64_t kTaskTimeBits = ACL_PROF_TASK_TIME | ACL_PROF_TASK_TIME_L0 |
                                   ACL_PROF_TASK_TIME_L2 |
                                   ACL_PROF_TASK_TIME_L3;

struct Kind {
  uint64_t bits;
  const char* name;
  bool collected;
};

// Every switch of acl_prof.h: what it is called in info.json and whether
// the simulator collects it.
constexpr Kind kKinds[] = {
    {ACL_PROF_ACL_API, "acl_api", false},
    {kTaskTimeBits, "task_time", true},
    {ACL_PROF_AICORE_METRICS, "aicore_metrics", false},
    {ACL_PROF_AICPU, "aicpu", false},
    {ACL_PROF_L2CACHE, "l2cache", false},
    {ACL_PROF_HCCL_TRACE, "hccl_trace", false},
    {ACL_PROF_TRAINING_TRACE, "training_trace", true},
    {ACL_PROF_MSPROFTX, "msproftx", true},
    {ACL_PROF_RUNTIME_API, "runtime_api", false},
    {ACL_PROF_GE_API_L0, "ge_api_l0", false},
    {ACL_PROF_TASK_MEMORY, "task_memory", false},
    {ACL_PROF_GE_API_L1, "ge_api_l1", false},
    {ACL_PROF_OP_ATTR, "op_attr", false},
    {ACL_PROF_API_STATS, "api_stats", false},
    {ACL_PROF_AICORE_SHAPE, "aicore_shape", false},
};

const char* SettingName(int32_t type) {
  switch (type) {
    case ACL_PROF_STORAGE_LIMIT:
      return "ACL_PROF_STORAGE_LIMIT";
    case ACL_PROF_SYS_HARDWARE_MEM_FREQ:
      return "ACL_PROF_SYS_HARDWARE_MEM_FREQ";
    case ACL_PROF_LLC_MODE:
      return "ACL_PROF_LLC_MODE";
    case ACL_PROF_SYS_IO_FREQ:
      return "ACL_PROF_SYS_IO_FREQ";
    case ACL_PROF_SYS_INTERCONNECTION_FREQ:
      return "ACL_PROF_SYS_INTERCONNECTION_FREQ";
    case ACL_PROF_DVPP_FREQ:
      return "ACL_PROF_DVPP_FREQ";
    case ACL_PROF_HOST_SYS:
      return "ACL_PROF_HOST_SYS";
    case ACL_PROF_HOST_SYS_USAGE:
      return "ACL_PROF_HOST_SYS_USAGE";
    case ACL_PROF_HOST_SYS_USAGE_FREQ:
      return "ACL_PROF_HOST_SYS_USAGE_FREQ";
    case ACL_PROF_LOW_POWER_FREQ:
      return "ACL_PROF_LOW_POWER_FREQ";
    case ACL_PROF_SYS_MEM_SERVICEFLOW:
      return "ACL_PROF_SYS_MEM_SERVICEFLOW";
    case ACL_PROF_SYS_CPU_FREQ:
      return "ACL_PROF_SYS_CPU_FREQ";
    case ACL_PROF_OPTYPE:
      return "ACL_PROF_OPTYPE";
    case ACL_PROF_NTS_METRICS:
      return "ACL_PROF_NTS_METRICS";
    case ACL_PROF_PATH:
      return "ACL_PROF_PATH";
  }
  return "unknown";
}

std::string Hex(uint64_t v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "0x%llx", static_cast<unsigned long long>(v));
  return buf;
}

std::string HexBytes(const std::vector<uint8_t>& data) {
  static const char kDigits[] = "0123456789abcdef";
  std::string out;
  out.reserve(data.size() * 2);
  for (uint8_t b : data) {
    out.push_back(kDigits[b >> 4]);
    out.push_back(kDigits[b & 15]);
  }
  return out;
}

json TxJson(const TxRecord& r) {
  json j = {{"type", r.type},     {"message", r.message}, {"domain", r.domain},
            {"thread", r.thread}, {"start_ns", r.start},  {"end_ns", r.end},
            {"id", r.id}};
  if (!r.args_json.empty()) {
    json args = json::parse(r.args_json, nullptr, /*allow_exceptions=*/false);
    if (!args.is_discarded()) j["args"] = std::move(args);
  }
  return j;
}

json ReportJson(const ReportRecord& r) {
  return {{"what", r.what},     {"level", r.level},        {"type", r.type},
          {"thread", r.thread}, {"begin_ns", r.begin},     {"end_ns", r.end},
          {"item", r.item},     {"data", HexBytes(r.data)}};
}

// Writes one JSON value per line.
template <typename T, typename F>
bool WriteLines(const std::string& path, const std::vector<T>& items,
                F to_json) {
  std::ofstream out(path, std::ios::trunc);
  if (!out) return false;
  for (const T& item : items) out << to_json(item).dump() << '\n';
  out.flush();
  return static_cast<bool>(out);
}

bool WriteText(const std::string& path, const std::string& text) {
  std::ofstream out(path, std::ios::trunc);
  if (!out) return false;
  out << text;
  out.flush();
  return static_cast<bool>(out);
}

}  // namespace

const char* TaskKindName(uint32_t kind) {
  switch (kind) {
    case ASCENDCL_TASK_COPY:
      return "copy";
    case ASCENDCL_TASK_MEMSET:
      return "memset";
    case ASCENDCL_TASK_VALUE_WRITE:
      return "value_write";
    case ASCENDCL_TASK_VALUE_WAIT:
      return "value_wait";
    case ASCENDCL_TASK_EVENT_RECORD:
      return "event_record";
    case ASCENDCL_TASK_EVENT_WAIT:
      return "event_wait";
    case ASCENDCL_TASK_EVENT_RESET:
      return "event_reset";
    case ASCENDCL_TASK_NOTIFY:
      return "notify";
    case ASCENDCL_TASK_HOST_FUNC:
      return "host_func";
    case ASCENDCL_TASK_KERNEL:
      return "kernel";
    case ASCENDCL_TASK_BUILTIN:
      return "builtin";
    case ASCENDCL_TASK_MODEL_EXECUTE:
      return "model_execute";
    case ASCENDCL_TASK_MARKER:
      return "marker";
  }
  return "unknown";
}

std::vector<std::string> CollectedKinds(uint64_t switches) {
  std::vector<std::string> out;
  for (const Kind& k : kKinds) {
    if ((switches & k.bits) != 0 && k.collected) out.push_back(k.name);
  }
  return out;
}

std::vector<std::string> UncollectedKinds(uint64_t switches) {
  std::vector<std::string> out;
  for (const Kind& k : kKinds) {
    if ((switches & k.bits) != 0 && !k.collected) out.push_back(k.name);
  }
  return out;
}

Session::Session(const ascendclProfConfig& config, std::string dir,
                 uint32_t index, uint64_t start_ns,
                 std::map<int32_t, std::string> settings)
    : config_(config),
      dir_(std::move(dir)),
      index_(index),
      start_ns_(start_ns),
      settings_(std::move(settings)) {
  for (uint32_t i = 0; i < config.devNums; ++i) {
    devices_.insert(static_cast<int32_t>(config.devIds[i]));
  }
}

bool Session::CollectsTasks() const {
  return (config_.dataTypeConfig & kTaskTimeBits) != 0;
}

bool Session::CollectsTx() const {
  return (config_.dataTypeConfig & ACL_PROF_MSPROFTX) != 0;
}

bool Session::Overlaps(const ascendclProfConfig& c) const {
  if (c.devNums == 0) return config_.devNums == 0;
  for (uint32_t i = 0; i < c.devNums; ++i) {
    if (Covers(static_cast<int32_t>(c.devIds[i]))) return true;
  }
  return false;
}

bool Session::SameDevices(const ascendclProfConfig& c) const {
  std::set<int32_t> other;
  for (uint32_t i = 0; i < c.devNums; ++i) {
    other.insert(static_cast<int32_t>(c.devIds[i]));
  }
  return other == devices_;
}

std::string Session::InfoJson() const {
  json settings = json::object();
  for (const auto& [type, value] : settings_) {
    settings[SettingName(type)] = value;
  }
  json info = {
      {"format", "ascendcl-profile"},
      {"version", 1},
      {"index", index_},
      {"pid", static_cast<int64_t>(getpid())},
      {"devices", json(std::vector<int32_t>(devices_.begin(), devices_.end()))},
      {"data_type_config", Hex(config_.dataTypeConfig)},
      {"aicore_metrics", config_.aicoreMetrics},
      {"collected", CollectedKinds(config_.dataTypeConfig)},
      {"not_collected", UncollectedKinds(config_.dataTypeConfig)},
      {"settings", std::move(settings)},
      {"clock", "CLOCK_MONOTONIC"},
      {"start_ns", start_ns_},
      {"end_ns", end_ns_},
      {"counts",
       {{"tasks", tasks_.size()},
        {"marks", tx_.size()},
        {"reports", reports_.size()}}},
  };
  return info.dump(2) + "\n";
}

std::string Session::TraceJson(
    const std::map<std::pair<uint16_t, uint32_t>, std::string>& names) const {
  // Microseconds since the collection began.
  auto us = [this](uint64_t ns) {
    return ns >= start_ns_ ? static_cast<double>(ns - start_ns_) / 1000.0
                           : -static_cast<double>(start_ns_ - ns) / 1000.0;
  };
  json events = json::array();
  auto meta = [&events](const char* what, int pid, int64_t tid,
                        const std::string& name) {
    json e = {
        {"ph", "M"}, {"name", what}, {"pid", pid}, {"args", {{"name", name}}}};
    if (tid >= 0) e["tid"] = tid;
    events.push_back(std::move(e));
  };
  meta("process_name", 0, -1, "Host (pid " + std::to_string(getpid()) + ")");
  std::set<std::pair<int32_t, uint32_t>> streams;
  std::set<uint32_t> threads;
  for (const TaskRecord& t : tasks_) {
    streams.emplace(t.device, t.stream);
    json args = {{"api", t.api},
                 {"kind", TaskKindName(t.kind)},
                 {"thread", t.thread},
                 {"result", t.result}};
    if (t.model != ASCENDCL_TIMELINE_NO_MODEL) args["model"] = t.model;
    events.push_back({{"ph", "X"},
                      {"name", t.name.empty() ? t.api : t.name},
                      {"cat", TaskKindName(t.kind)},
                      {"pid", t.device + 1},
                      {"tid", t.stream},
                      {"ts", us(t.start)},
                      {"dur", us(t.end) - us(t.start)},
                      {"args", std::move(args)}});
  }
  std::set<int32_t> devices;
  for (const auto& [device, stream] : streams) {
    if (devices.insert(device).second) {
      meta("process_name", device + 1, -1,
           "Device " + std::to_string(device) + " (simulated)");
    }
    meta("thread_name", device + 1, stream, "Stream " + std::to_string(stream));
  }
  for (const TxRecord& r : tx_) {
    threads.insert(r.thread);
    json e = {{"name", r.message.empty() ? r.type : r.message},
              {"cat", r.domain.empty() ? "msproftx" : "mstx:" + r.domain},
              {"pid", 0},
              {"tid", r.thread},
              {"ts", us(r.start)},
              {"args", TxJson(r)}};
    if (r.end == r.start && r.type.find("range") == std::string::npos &&
        r.type != "push_pop") {
      e["ph"] = "i";
      e["s"] = "t";
    } else {
      e["ph"] = "X";
      e["dur"] = us(r.end) - us(r.start);
    }
    events.push_back(std::move(e));
  }
  for (const ReportRecord& r : reports_) {
    threads.insert(r.thread);
    auto it = names.find({r.level, r.type});
    std::string name = it != names.end()
                           ? it->second
                           : r.what + " " + std::to_string(r.level) + ":" +
                                 std::to_string(r.type);
    json e = {{"name", name},    {"cat", r.what},     {"pid", 0},
              {"tid", r.thread}, {"ts", us(r.begin)}, {"args", ReportJson(r)}};
    if (r.what == "api") {
      e["ph"] = "X";
      e["dur"] = us(r.end) - us(r.begin);
    } else {
      e["ph"] = "i";
      e["s"] = "t";
    }
    events.push_back(std::move(e));
  }
  for (uint32_t thread : threads) {
    meta("thread_name", 0, thread, "Thread " + std::to_string(thread));
  }
  json trace = {{"traceEvents", std::move(events)},
                {"displayTimeUnit", "ns"},
                {"otherData",
                 {{"producer", "ascendcl libmsprofiler"},
                  {"start_ns", start_ns_},
                  {"clock", "CLOCK_MONOTONIC"}}}};
  return trace.dump() + "\n";
}

int32_t Session::Write(const std::map<std::pair<uint16_t, uint32_t>,
                                      std::string>& type_names) const {
  const bool ok = WriteLines(dir_ + "/tasks.jsonl", tasks_,
                             [](const TaskRecord& t) {
                               json j = {{"device", t.device},
                                         {"stream", t.stream},
                                         {"kind", TaskKindName(t.kind)},
                                         {"api", t.api},
                                         {"name", t.name},
                                         {"thread", t.thread},
                                         {"result", t.result},
                                         {"start_ns", t.start},
                                         {"end_ns", t.end}};
                               j["model"] =
                                   t.model == ASCENDCL_TIMELINE_NO_MODEL
                                       ? json(nullptr)
                                       : json(t.model);
                               return j;
                             }) &&
                  WriteLines(dir_ + "/marks.jsonl", tx_, TxJson) &&
                  WriteLines(dir_ + "/reports.jsonl", reports_, ReportJson) &&
                  WriteText(dir_ + "/trace.json", TraceJson(type_names)) &&
                  WriteText(dir_ + "/info.json", InfoJson());
  return ok ? ACL_SUCCESS : ACL_ERROR_INVALID_FILE;
}

}  // namespace ascend::prof
