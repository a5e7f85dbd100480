// The profiling collector of libprofapi.so (DESIGN.md §5.24): the state
// behind aclprofInit .. aclprofFinalize, MsprofInit .. MsprofFinalize and
// the model subscriptions; the task timeline observer (ascendcl/timeline.h)
// that feeds them; the host records reported by msproftx, mstx and the
// Msprof* functions. One per process, never destroyed.
//
//   Collector& c = Collector::Get();
//   ASCEND_RETURN_IF_ERROR(c.Init("./out"));   (codes as aclError)
//   c.Start(config);  ... tasks run, c.OnTask sees them ...  c.Stop(config);
//
// Thread safety: every member function may be called from any thread. The
// observer runs on the runtime's stream threads; it takes the collector's
// lock briefly and never calls into the runtime.
#ifndef ASCENDCL_ACL_PROF_COLLECTOR_H_
#define ASCENDCL_ACL_PROF_COLLECTOR_H_

#include <condition_variable>
#include <cstdint>
#include <deque>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <set>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "acl/prof/internal_api.h"
#include "acl/prof/op_desc.h"
#include "acl/prof/session.h"
#include "ascendcl/timeline.h"
#include "profiling/aprof_pub.h"

namespace ascend::prof {

class Collector {
 public:
  static Collector& Get();

  // --- aclprof* collection (codes: acl_prof.h) ------------------------------
  int32_t Init(const std::string& path);
  int32_t Finalize();
  int32_t SetConfig(int32_t type, const std::string& value);
  int32_t Start(const ascendclProfConfig& config);
  int32_t Stop(const ascendclProfConfig& config);
  // MsprofInit / MsprofFinalize: a collection of every device from options.
  int32_t StartFromOptions(const std::string& json);
  int32_t FinalizeOptions();

  // --- Subscriptions --------------------------------------------------------
  int32_t Subscribe(uint32_t model_id, int8_t time_info, uint32_t metrics,
                    int fd);
  int32_t Unsubscribe(uint32_t model_id);
  void SetModelDevice(uint32_t model_id, uint32_t device_id);
  void UnsetModelDevice(uint32_t model_id, uint32_t device_id);

  // --- Host records ---------------------------------------------------------
  bool TxActive();
  void ReportTx(TxRecord record);
  void Report(ReportRecord record);
  void RegisterCallback(uint32_t module, ProfCommandHandle handle);
  void RegisterTypeName(uint16_t level, uint32_t type, std::string name);
  // The directory of the collection started last; empty when none runs.
  std::string CurrentPath();
  // ACL_PROF_OPTYPE: whether operators of this type are profiled.
  bool OpTypeEnabled(const std::string& op_type);

 private:
  enum class Mode { kOff, kApi, kOptions };
  struct Subscription {
    int fd;
    int8_t time_info;
    uint32_t metrics;
    int32_t device;
  };
  struct Callback {
    uint32_t module;
    ProfCommandHandle handle;
  };

  Collector() = default;
  static void Observe(const ascendclTaskRecord* record, void* self);
  void OnTask(const ascendclTaskRecord& record);
  // Sets or removes the timeline observer to match the state (outside mu_).
  int32_t UpdateObserver();
  bool NeedsObserverLocked() const;
  // Tells the registered callbacks (outside mu_).
  void Notify(uint32_t type, uint64_t switches,
              const std::vector<uint32_t>& devices, uint32_t model_id);
  int32_t StartLocked(const ascendclProfConfig& config,
                      std::unique_ptr<Session>* out);
  std::optional<int32_t> ModelDevice(uint32_t model_id);
  // The subscription writer: writes queued records to their pipes.
  // Started by the first subscription; lives as long as the process.
  void WriterLoop();

  std::mutex mu_;
  Mode mode_ = Mode::kOff;
  std::string result_dir_;
  std::map<int32_t, std::string> settings_;
  std::vector<std::unique_ptr<Session>> sessions_;
  uint32_t next_index_ = 1;
  std::string last_path_;
  std::vector<Callback> callbacks_;
  std::map<std::pair<uint16_t, uint32_t>, std::string> type_names_;
  std::map<uint32_t, uint32_t> model_devices_;  // MsprofSetDeviceIdByGeModelIdx
  std::map<uint32_t, Subscription> subscriptions_;
  // Records waiting for the writer, and how many a pipe has queued or in
  // writing (Unsubscribe waits for its pipe's to drain).
  std::deque<std::pair<int, OpDesc>> pending_;
  std::map<int, int> unwritten_;
  std::condition_variable writer_cv_;
  std::condition_variable drained_cv_;
  std::thread writer_;
  bool writer_stop_ = false;
  // Serialises observer changes (UpdateObserver).
  std::mutex observer_mu_;
  bool observing_ = false;
};

}  // namespace ascend::prof

#endif  // ASCENDCL_ACL_PROF_COLLECTOR_H_
