// The process's dump configuration (DESIGN.md §5.25): what aclInit's config,
// an aclmdlInitDump ... aclmdlFinalizeDump round and the environment
// (ASCEND_DUMP_SCENE, NPU_COLLECT_PATH) ask for, merged into the settings
// the runtime's dump family applies (runtime/dump/dump.h), plus the
// operator-information record of aclopStartDumpArgs.
//
//   DumpControl& control = ProcessDumpControl();
//   ASCEND_RETURN_IF_ERROR(control.ApplyInitConfig(bytes));  // aclInit
//   const char* path = control.DataPath();                   // acldumpGetPath
//
// Which configuration wins: a data or overflow dump of an open round
// replaces aclInit's (CANN: the later setting overrides); the exception dump
// is aclInit's, else the round's, else the environment's. The runtime is not
// touched (nor created) until something is enabled.
//
// Thread safety: every method may be called from any thread.
#ifndef ASCENDCL_ACL_DUMP_DUMP_CONTROL_H_
#define ASCENDCL_ACL_DUMP_DUMP_CONTROL_H_

#include <cstdint>
#include <deque>
#include <functional>
#include <memory>
#include <optional>
#include <set>
#include <string>

#include "absl/base/thread_annotations.h"
#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "acl/dump/dump_config.h"
#include "acl/lifecycle/lifecycle.h"
#include "device/base/mutex.h"
#include "runtime/dump/dump.h"

namespace ascend::acl::dump {

// The bits of ascendclDumpOperatorSwitch (acl/dump/include/ascendcl/dump.h).
inline constexpr uint32_t kOperatorData = 0x1u;
inline constexpr uint32_t kOperatorInfo = 0x2u;
inline constexpr uint32_t kOperatorException = 0x4u;

class DumpControl final : public ConfigConsumer {
 public:
  // `dumps` gives the runtime's dump family (created on first need);
  // `environment` reads a variable (nullptr: unset).
  DumpControl(std::function<rt::Dumps*()> dumps,
              std::function<const char*(const char*)> environment);
  DumpControl(const DumpControl&) = delete;
  DumpControl& operator=(const DumpControl&) = delete;

  // --- aclInit and aclFinalize (ConfigConsumer) ----------------------------
  // The config file's dump section: 100009 when it is invalid (nothing
  // changes); the dump it asks for starts now.
  absl::Status OnInit(const std::string& bytes) override;
  // Ends aclInit's dump and an open round.
  void OnFinalize() override;

  // --- aclmdlInitDump / aclmdlSetDump / aclmdlFinalizeDump ------------------
  // ACL_ERROR_DUMP_ALREADY_RUN (100044) when aclInit's config enabled a
  // dump; ACL_ERROR_REPEAT_INITIALIZE (100002) when a round is open.
  absl::Status BeginRound();
  // ACL_ERROR_DUMP_NOT_RUN (100045) without an open round; 100009 for an
  // invalid section. A section that asks for nothing changes nothing.
  absl::Status SetRound(const std::string& bytes);
  // 100045 without an open round; ends it and what it enabled.
  absl::Status EndRound();
  bool RoundOpen() const;

  // --- Queries -----------------------------------------------------------
  // acldumpGetPath: the data dump directory <dump_path>/<time> (DATA_DUMP,
  // OVERFLOW_DUMP) or <root>/extra-info/data-dump (the exception types),
  // created; null when that dump is off. Valid for the process's life.
  const char* PathOf(int32_t dump_type);
  // What operators should report now (kOperator* bits).
  uint32_t OperatorSwitch() const;
  bool ExceptionEnabled() const;

  // --- aclopStartDumpArgs / aclopStopDumpArgs ----------------------------
  // kFailedPrecondition when recording already; kInvalidArgument for a path
  // that is empty, cannot be created, is not a directory or not readable
  // and writable.
  absl::Status StartOperatorInfo(const std::string& path);
  void StopOperatorInfo();
  // Records one operator's signature (first time seen) as a JSON file in
  // the recording directory. Nothing when not recording.
  void RecordOperator(const rt::OperatorDump& op);

  // The root under which exception dumps go (absolute), "" when off.
  std::string ExceptionRoot() const;

 private:
  struct Source {
    DumpConfig config;
    std::string data_root;  // <absolute dump_path>/<time of the setting>
  };

  // The settings the configuration sources give now; null when nothing is
  // enabled.
  std::shared_ptr<const rt::DumpSettings> Merge() const
      ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_);
  // The source of the data dump in force (the round's, else aclInit's).
  const Source* DataSource() const ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_);
  void Publish() ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_);
  // An absolute form of a directory name ("" stays "").
  static std::string Absolute(const std::string& path);
  const char* Keep(const std::string& text) ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_);

  const std::function<rt::Dumps*()> dumps_;
  const std::function<const char*(const char*)> environment_;
  mutable ascend::Mutex mu_;
  std::optional<Source> init_ ABSL_GUARDED_BY(mu_);
  bool round_open_ ABSL_GUARDED_BY(mu_) = false;
  // A round's latest data (or overflow, watcher) setting, and its exception
  // dump (enabled once per round).
  std::optional<Source> round_data_ ABSL_GUARDED_BY(mu_);
  std::optional<Source> round_exception_ ABSL_GUARDED_BY(mu_);
  // Exception dump asked for by the environment: scene and root.
  rt::DumpSettings::Exception env_scene_ ABSL_GUARDED_BY(mu_) =
      rt::DumpSettings::Exception::kOff;
  std::string env_root_ ABSL_GUARDED_BY(mu_);
  // The root the environment puts over a configured exception dump's
  // dump_path (NPU_COLLECT_PATH, ASCEND_DUMP_PATH, ASCEND_WORK_PATH).
  std::string env_override_ ABSL_GUARDED_BY(mu_);
  bool published_ ABSL_GUARDED_BY(mu_) = false;
  std::shared_ptr<const rt::DumpSettings> current_ ABSL_GUARDED_BY(mu_);
  std::string info_path_ ABSL_GUARDED_BY(mu_);  // "" when not recording
  std::set<std::string> info_seen_ ABSL_GUARDED_BY(mu_);
  std::deque<std::string> kept_ ABSL_GUARDED_BY(mu_);
};

// The process's instance, over Runtime::Get()'s dump family and getenv.
DumpControl& ProcessDumpControl();

}  // namespace ascend::acl::dump

#endif  // ASCENDCL_ACL_DUMP_DUMP_CONTROL_H_
