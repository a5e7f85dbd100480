// One collection (DESIGN.md §5.24): what an aclprofStart (or MsprofInit)
// collects until its aclprofStop, and the files it writes then.
//
//   Session s(config, "/out/PROF_000001_...", MsprofSysCycleTime());
//   s.AddTask(record);   // for the devices of its config
//   s.AddTx(...);
//   int32_t code = s.Write(names);  // tasks.jsonl, marks.jsonl, reports.jsonl,
//                                   // info.json, trace.json
//
// Not thread-safe: the collector holds its lock around every call but
// Write, which it calls on a session it took out of its list.
#ifndef ASCENDCL_ACL_PROF_SESSION_H_
#define ASCENDCL_ACL_PROF_SESSION_H_

#include <cstdint>
#include <map>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "acl/prof/internal_api.h"

namespace ascend::prof {

struct TaskRecord {
  uint32_t kind;
  int32_t device;
  uint32_t stream;
  uint32_t model;
  uint32_t thread;
  int32_t result;
  uint64_t start;
  uint64_t end;
  std::string api;
  std::string name;
};

// A host mark or range (msproftx, mstx, steps).
struct TxRecord {
  std::string type;
  std::string message;
  std::string domain;  // mstx: the domain ("default" for none)
  uint32_t thread = 0;
  uint64_t start = 0;
  uint64_t end = 0;
  uint64_t id = 0;
  std::string args_json;  // extra fields, a JSON object, or empty
};

// Data reported through the Msprof* functions.
struct ReportRecord {
  std::string what;  // "api", "event", "compact", "additional"
  uint16_t level = 0;
  uint32_t type = 0;
  uint32_t thread = 0;
  uint64_t begin = 0;
  uint64_t end = 0;
  uint64_t item = 0;
  std::vector<uint8_t> data;
};

class Session {
 public:
  Session(const ascendclProfConfig& config, std::string dir, uint32_t index,
          uint64_t start_ns, std::map<int32_t, std::string> settings);

  const ascendclProfConfig& config() const { return config_; }
  const std::string& dir() const { return dir_; }
  bool CollectsTasks() const;
  bool CollectsTx() const;
  bool Covers(int32_t device) const { return devices_.count(device) != 0; }
  // Whether it shares a device (or the host, without devices) with `c`.
  bool Overlaps(const ascendclProfConfig& c) const;
  // Whether `c` names the same devices.
  bool SameDevices(const ascendclProfConfig& c) const;

  void AddTask(TaskRecord record) { tasks_.push_back(std::move(record)); }
  void AddTx(TxRecord record) { tx_.push_back(std::move(record)); }
  void AddReport(ReportRecord record) { reports_.push_back(std::move(record)); }
  void End(uint64_t end_ns) { end_ns_ = end_ns; }

  // Writes the files; ACL_ERROR_INVALID_FILE (100003) when one cannot be.
  int32_t Write(const std::map<std::pair<uint16_t, uint32_t>, std::string>&
                    type_names) const;

 private:
  std::string TraceJson(
      const std::map<std::pair<uint16_t, uint32_t>, std::string>& names) const;
  std::string InfoJson() const;

  const ascendclProfConfig config_;
  const std::string dir_;
  const uint32_t index_;
  const uint64_t start_ns_;
  uint64_t end_ns_ = 0;
  const std::map<int32_t, std::string> settings_;
  std::set<int32_t> devices_;
  std::vector<TaskRecord> tasks_;
  std::vector<TxRecord> tx_;
  std::vector<ReportRecord> reports_;
};

// The name of a task kind in the output ("copy", "kernel", ...).
const char* TaskKindName(uint32_t kind);

// The collection kinds of an ACL_PROF_* switch word, collected or not.
std::vector<std::string> CollectedKinds(uint64_t switches);
std::vector<std::string> UncollectedKinds(uint64_t switches);

}  // namespace ascend::prof

#endif  // ASCENDCL_ACL_PROF_SESSION_H_
