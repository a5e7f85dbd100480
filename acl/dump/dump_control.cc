#include "acl/dump/dump_control.h"

#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <climits>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <utility>

#include "absl/strings/str_cat.h"
#include "acl/acl_dump.h"
#include "glog/logging.h"
#include "nlohmann/json.hpp"
#include "runtime/base/error.h"
#include "runtime/dump/dump_file.h"
#include "runtime/runtime.h"

namespace ascend::acl::dump {
namespace {

using Exception = rt::DumpSettings::Exception;

bool DataKind(const DumpConfig& c) {
  return c.kind == DumpConfig::Kind::kData ||
         c.kind == DumpConfig::Kind::kOverflow ||
         c.kind == DumpConfig::Kind::kWatcher;
}

// The first of the environment variables `names` that is set and not empty.
std::string FirstSet(const std::function<const char*(const char*)>& env,
                     std::initializer_list<const char*> names) {
  for (const char* name : names) {
    const char* value = env(name);
    if (value != nullptr && value[0] != '\0') return value;
  }
  return "";
}

}  // namespace

DumpControl::DumpControl(std::function<rt::Dumps*()> dumps,
                         std::function<const char*(const char*)> environment)
    : dumps_(std::move(dumps)), environment_(std::move(environment)) {
  ascend::MutexLock lock(&mu_);
  // CANN's environment (docs/zh/api_ref/18): ASCEND_DUMP_SCENE enables an
  // exception dump under ASCEND_DUMP_PATH, else ASCEND_WORK_PATH, else the
  // working directory; NPU_COLLECT_PATH alone enables aic_err_norm_dump
  // there. Over a configured exception dump's dump_path the order is
  // NPU_COLLECT_PATH, ASCEND_DUMP_PATH, ASCEND_WORK_PATH.
  const std::string scene = FirstSet(environment_, {"ASCEND_DUMP_SCENE"});
  const std::string collect = FirstSet(environment_, {"NPU_COLLECT_PATH"});
  if (!scene.empty() && scene != "lite_exception" &&
      SceneOf(scene) != Exception::kOff) {
    env_scene_ = SceneOf(scene);
    const std::string root =
        FirstSet(environment_, {"ASCEND_DUMP_PATH", "ASCEND_WORK_PATH"});
    env_root_ = Absolute(root.empty() ? "." : root);
  } else if (!scene.empty()) {
    LOG(WARNING) << "ASCEND_DUMP_SCENE " << scene
                 << " is not aic_err_brief_dump, aic_err_norm_dump or "
                    "aic_err_detail_dump: ignored";
  } else if (!collect.empty()) {
    env_scene_ = Exception::kNormal;
    env_root_ = Absolute(collect);
  }
  env_override_ =
      Absolute(FirstSet(environment_, {"NPU_COLLECT_PATH", "ASCEND_DUMP_PATH",
                                       "ASCEND_WORK_PATH"}));
  if (env_scene_ != Exception::kOff) Publish();
}

std::string DumpControl::Absolute(const std::string& path) {
  if (path.empty() || path[0] == '/') return path;
  char cwd[PATH_MAX];
  if (::getcwd(cwd, sizeof cwd) == nullptr) return path;
  std::string out = cwd;
  if (path != ".") absl::StrAppend(&out, "/", path);
  while (out.size() > 1 && out.back() == '/') out.pop_back();
  // "./x" → "<cwd>/x".
  for (size_t at; (at = out.find("/./")) != std::string::npos;) {
    out.erase(at, 2);
  }
  if (out.size() > 2 && out.compare(out.size() - 2, 2, "/.") == 0) {
    out.resize(out.size() - 2);
  }
  return out;
}

const char* DumpControl::Keep(const std::string& text) {
  for (const std::string& kept : kept_) {
    if (kept == text) return kept.c_str();
  }
  kept_.push_back(text);
  return kept_.back().c_str();
}

const DumpControl::Source* DumpControl::DataSource() const {
  if (round_open_ && round_data_.has_value()) return &*round_data_;
  if (init_.has_value() && DataKind(init_->config)) return &*init_;
  return nullptr;
}

std::shared_ptr<const rt::DumpSettings> DumpControl::Merge() const {
  auto s = std::make_shared<rt::DumpSettings>();
  const Source* data = DataSource();
  bool any = false;
  if (data != nullptr) {
    const DumpConfig& c = data->config;
    s->data_root = data->data_root;
    if (c.kind == DumpConfig::Kind::kData) {
      s->data = true;
      s->all_operators = c.op_switch;
      s->layers = c.layers;
      s->inputs = c.mode != "output";
      s->outputs = c.mode != "input";
      s->workspaces = c.mode == "all";
      s->op_level = c.level != "kernel";
      s->kernel_level = c.level != "op";
      s->stats = c.stats;
      s->stats_items = c.stats_items;
      any = true;
    } else if (c.kind == DumpConfig::Kind::kOverflow) {
      s->overflow = true;
      any = true;
    }
  }
  const Source* exception = nullptr;
  if (init_.has_value() && init_->config.kind == DumpConfig::Kind::kException) {
    exception = &*init_;
  } else if (round_open_ && round_exception_.has_value()) {
    exception = &*round_exception_;
  }
  if (exception != nullptr) {
    s->exception = exception->config.exception;
    s->exception_root = !env_override_.empty()
                            ? env_override_
                            : Absolute(exception->config.dump_path.empty()
                                           ? "."
                                           : exception->config.dump_path);
    any = true;
  } else if (env_scene_ != Exception::kOff) {
    s->exception = env_scene_;
    s->exception_root = env_root_;
    any = true;
  }
  if (!any) return nullptr;
  return s;
}

void DumpControl::Publish() {
  std::shared_ptr<const rt::DumpSettings> next = Merge();
  current_ = next;
  if (next == nullptr && !published_) return;  // the runtime stays untouched
  rt::Dumps* dumps = dumps_();
  if (dumps == nullptr) return;
  dumps->Configure(std::move(next));
  published_ = true;
}

absl::Status DumpControl::OnInit(const std::string& bytes) {
  absl::StatusOr<DumpConfig> config = ParseDumpConfig(bytes);
  if (!config.ok()) return config.status();
  ascend::MutexLock lock(&mu_);
  init_.reset();
  if (config->kind != DumpConfig::Kind::kNone) {
    Source source{*std::move(config), ""};
    if (DataKind(source.config)) {
      source.data_root = absl::StrCat(source.config.absolute_path, "/",
                                      rt::dump::TimeSeconds());
    }
    if (source.config.kind == DumpConfig::Kind::kWatcher) {
      LOG(WARNING) << "aclInit: dump_scene watcher watches operators of "
                      "static graphs, which this runtime does not have: "
                      "nothing is dumped (DESIGN.md §5.25)";
    }
    init_ = std::move(source);
  }
  Publish();
  return absl::OkStatus();
}

void DumpControl::OnFinalize() {
  ascend::MutexLock lock(&mu_);
  init_.reset();
  round_open_ = false;
  round_data_.reset();
  round_exception_.reset();
  Publish();
}

absl::Status DumpControl::BeginRound() {
  ascend::MutexLock lock(&mu_);
  if (init_.has_value()) {
    return rt::Error(ACL_ERROR_DUMP_ALREADY_RUN,
                     "aclInit's config file enabled a dump already");
  }
  if (round_open_) {
    return rt::Error(ACL_ERROR_REPEAT_INITIALIZE,
                     "aclmdlInitDump was already called");
  }
  round_open_ = true;
  return absl::OkStatus();
}

absl::Status DumpControl::SetRound(const std::string& bytes) {
  {
    ascend::MutexLock lock(&mu_);
    if (!round_open_) {
      return rt::Error(ACL_ERROR_DUMP_NOT_RUN,
                       "aclmdlInitDump must be called first");
    }
  }
  absl::StatusOr<DumpConfig> config = ParseDumpConfig(bytes);
  if (!config.ok()) return config.status();
  ascend::MutexLock lock(&mu_);
  if (!round_open_) {
    return rt::Error(ACL_ERROR_DUMP_NOT_RUN,
                     "aclmdlInitDump must be called first");
  }
  if (config->kind == DumpConfig::Kind::kNone) return absl::OkStatus();
  if (config->kind == DumpConfig::Kind::kException &&
      round_exception_.has_value()) {
    // CANN enables an exception dump once; a second one changes nothing.
    LOG(WARNING) << "aclmdlSetDump: the exception dump is enabled already";
    return absl::OkStatus();
  }
  Source source{*std::move(config), ""};
  if (DataKind(source.config)) {
    source.data_root =
        absl::StrCat(source.config.absolute_path, "/", rt::dump::TimeSeconds());
  }
  if (source.config.kind == DumpConfig::Kind::kWatcher) {
    LOG(WARNING) << "aclmdlSetDump: dump_scene watcher watches operators of "
                    "static graphs, which this runtime does not have: "
                    "nothing is dumped (DESIGN.md §5.25)";
  }
  if (source.config.kind == DumpConfig::Kind::kException) {
    round_exception_ = std::move(source);
  } else {
    round_data_ = std::move(source);
  }
  Publish();
  return absl::OkStatus();
}

absl::Status DumpControl::EndRound() {
  ascend::MutexLock lock(&mu_);
  if (!round_open_) {
    return rt::Error(ACL_ERROR_DUMP_NOT_RUN,
                     "aclmdlInitDump must be called first");
  }
  round_open_ = false;
  round_data_.reset();
  round_exception_.reset();
  Publish();
  return absl::OkStatus();
}

bool DumpControl::RoundOpen() const {
  ascend::MutexLock lock(&mu_);
  return round_open_;
}

const char* DumpControl::PathOf(int32_t dump_type) {
  ascend::MutexLock lock(&mu_);
  std::string path;
  if (dump_type == DATA_DUMP || dump_type == OVERFLOW_DUMP) {
    const Source* data = DataSource();
    if (data == nullptr) return nullptr;
    path = data->data_root;
  } else if (dump_type == AIC_ERR_BRIEF_DUMP ||
             dump_type == AIC_ERR_NORM_DUMP ||
             dump_type == AIC_ERR_DETAIL_DUMP) {
    if (current_ == nullptr || current_->exception == Exception::kOff) {
      return nullptr;
    }
    path = absl::StrCat(current_->exception_root, "/extra-info/data-dump");
  } else {
    return nullptr;
  }
  if (absl::Status made = rt::dump::MakeDirectories(path); !made.ok()) {
    LOG(WARNING) << "acldumpGetPath: " << made.message();
    return nullptr;
  }
  return Keep(path);
}

uint32_t DumpControl::OperatorSwitch() const {
  ascend::MutexLock lock(&mu_);
  uint32_t bits = 0;
  if (current_ != nullptr && current_->data && current_->op_level) {
    bits |= kOperatorData;
  }
  if (!info_path_.empty()) bits |= kOperatorInfo;
  if (current_ != nullptr && current_->exception != Exception::kOff) {
    bits |= kOperatorException;
  }
  return bits;
}

bool DumpControl::ExceptionEnabled() const {
  ascend::MutexLock lock(&mu_);
  return current_ != nullptr && current_->exception != Exception::kOff;
}

std::string DumpControl::ExceptionRoot() const {
  ascend::MutexLock lock(&mu_);
  return current_ != nullptr && current_->exception != Exception::kOff
             ? current_->exception_root
             : "";
}

absl::Status DumpControl::StartOperatorInfo(const std::string& path) {
  ascend::MutexLock lock(&mu_);
  if (!info_path_.empty()) {
    return absl::FailedPreconditionError(
        "the operator information record is on already");
  }
  if (path.empty()) return absl::InvalidArgumentError("path is empty");
  const std::string absolute = Absolute(path);
  if (absl::Status made = rt::dump::MakeDirectories(absolute); !made.ok()) {
    return absl::InvalidArgumentError(made.message());
  }
  if (::access(absolute.c_str(), R_OK | W_OK) != 0) {
    return absl::InvalidArgumentError(
        absl::StrCat(path, " is not readable and writable"));
  }
  info_path_ = absolute;
  info_seen_.clear();
  return absl::OkStatus();
}

void DumpControl::StopOperatorInfo() {
  ascend::MutexLock lock(&mu_);
  info_path_.clear();
}

void DumpControl::RecordOperator(const rt::OperatorDump& op) {
  using json = nlohmann::json;
  json tensors[3] = {json::array(), json::array(), json::array()};
  std::string signature = op.op_type;
  for (const rt::DumpTensorSpec& t : op.tensors) {
    json entry = {{"data_type", t.data_type},
                  {"format", t.format},
                  {"shape", t.shape},
                  {"origin_shape", t.origin_shape}};
    tensors[static_cast<int>(t.role)].push_back(entry);
    absl::StrAppend(&signature, "|", static_cast<int>(t.role), ":",
                    entry.dump());
  }
  std::string directory;
  {
    ascend::MutexLock lock(&mu_);
    if (info_path_.empty() || !info_seen_.insert(signature).second) return;
    directory = info_path_;
  }
  const json record = {{"op_type", op.op_type},
                       {"op_name", op.op_name},
                       {"inputs", tensors[0]},
                       {"outputs", tensors[1]},
                       {"workspaces", tensors[2]}};
  char hash[17];
  std::snprintf(hash, sizeof hash, "%016zx",
                std::hash<std::string>()(signature));
  const std::string path = absl::StrCat(
      directory, "/", rt::dump::SafeName(op.op_type), ".", hash, ".json");
  absl::Status written =
      rt::dump::WriteDumpFile(path, record.dump(2) + "\n", 0640);
  if (!written.ok())
    LOG(WARNING) << "aclopStartDumpArgs: " << written.message();
}

DumpControl& ProcessDumpControl() {
  static auto* const control = new DumpControl(
      [] { return rt::Dumps::Of(rt::Runtime::Get()); },
      [](const char* name) -> const char* { return std::getenv(name); });
  return *control;
}

}  // namespace ascend::acl::dump
