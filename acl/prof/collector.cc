#include "acl/prof/collector.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstring>

#include "acl/acl_prof.h"
#include "acl/prof/prof_log.h"
#include "acl/prof/settings.h"
#include "nlohmann/json.hpp"

namespace ascend::prof {
namespace {

// Creates `path` and its parents; its absolute, resolved form, or empty
// when it cannot be made or written.
std::string MakeDirectory(const std::string& path) {
  if (path.empty()) return {};
  std::string partial;
  size_t pos = 0;
  while (pos != std::string::npos) {
    pos = path.find('/', pos + 1);
    partial = path.substr(0, pos);
    if (partial.empty()) continue;
    if (mkdir(partial.c_str(), 0750) != 0 && errno != EEXIST) return {};
  }
  char resolved[PATH_MAX];
  if (realpath(path.c_str(), resolved) == nullptr) return {};
  struct stat st;
  if (stat(resolved, &st) != 0 || !S_ISDIR(st.st_mode)) return {};
  if (access(resolved, W_OK | X_OK) != 0) return {};
  return resolved;
}

std::string LocalTimeStamp() {
  timespec ts;
  clock_gettime(CLOCK_REALTIME, &ts);
  tm local;
  localtime_r(&ts.tv_sec, &local);
  char buf[96];
  std::snprintf(buf, sizeof buf, "%04d%02d%02d%02d%02d%02d%03ld",
                local.tm_year + 1900, local.tm_mon + 1, local.tm_mday,
                local.tm_hour, local.tm_min, local.tm_sec,
                ts.tv_nsec / 1000000);
  return buf;
}

void CopyString(char* dst, size_t size, const std::string& src) {
  const size_t n = std::min(size - 1, src.size());
  std::memcpy(dst, src.data(), n);
  dst[n] = '\0';
}

}  // namespace

Collector& Collector::Get() {
  static Collector* const collector = new Collector();
  return *collector;
}

// --- Collection ---------------------------------------------------------

int32_t Collector::Init(const std::string& path) {
  {
    std::lock_guard<std::mutex> lock(mu_);
    if (!subscriptions_.empty()) {
      return Fail("aclprofInit", ACL_ERROR_PROF_API_CONFLICT,
                  "a model subscription is in progress");
    }
    if (mode_ == Mode::kApi) {
      return Fail("aclprofInit", ACL_ERROR_REPEAT_INITIALIZE,
                  "profiling is already initialised");
    }
    if (mode_ == Mode::kOptions) {
      return Fail("aclprofInit", ACL_ERROR_PROF_ALREADY_RUN,
                  "a collection started by MsprofInit is running");
    }
    std::string dir = MakeDirectory(path);
    if (dir.empty()) {
      return Fail("aclprofInit", ACL_ERROR_INVALID_FILE,
                  "cannot create or write the directory " + path);
    }
    result_dir_ = std::move(dir);
    mode_ = Mode::kApi;
  }
  Notify(PROF_COMMANDHANDLE_TYPE_INIT, 0, {}, 0);
  return ACL_SUCCESS;
}

int32_t Collector::Finalize() {
  std::vector<std::unique_ptr<Session>> ended;
  std::map<std::pair<uint16_t, uint32_t>, std::string> names;
  {
    std::lock_guard<std::mutex> lock(mu_);
    if (!subscriptions_.empty()) {
      return Fail("aclprofFinalize", ACL_ERROR_PROF_API_CONFLICT,
                  "a model subscription is in progress");
    }
    if (mode_ == Mode::kOptions) {
      return Fail("aclprofFinalize", ACL_ERROR_PROF_ALREADY_RUN,
                  "a collection started by MsprofInit is running");
    }
    if (mode_ != Mode::kApi) {
      return Fail("aclprofFinalize", ACL_ERROR_PROF_NOT_RUN,
                  "aclprofInit was not called");
    }
    ended = std::move(sessions_);
    sessions_.clear();
    mode_ = Mode::kOff;
    names = type_names_;
  }
  UpdateObserver();
  for (const auto& s : ended) {
    Log(ACL_WARNING, "aclprofFinalize",
        "a collection was still started: stopped, written to " + s->dir());
    s->End(MsprofSysCycleTime());
    (void)s->Write(names);
    std::vector<uint32_t> devices(s->config().devIds,
                                  s->config().devIds + s->config().devNums);
    Notify(PROF_COMMANDHANDLE_TYPE_STOP, s->config().dataTypeConfig, devices,
           0);
  }
  Notify(PROF_COMMANDHANDLE_TYPE_FINALIZE, 0, {}, 0);
  return ACL_SUCCESS;
}

int32_t Collector::SetConfig(int32_t type, const std::string& value) {
  std::lock_guard<std::mutex> lock(mu_);
  if (!sessions_.empty()) {
    return Fail("aclprofSetConfig", ACL_ERROR_PROF_ALREADY_RUN,
                "a collection is started: set the config before aclprofStart");
  }
  if (!SettingValid(type, value)) {
    return Fail("aclprofSetConfig",
                type == ACL_PROF_NTS_METRICS
                    ? ACL_ERROR_INVALID_PARAM
                    : ACL_ERROR_INVALID_PROFILING_CONFIG,
                "value '" + value + "' is not valid for config type " +
                    std::to_string(type));
  }
  if (type == ACL_PROF_PATH && mode_ == Mode::kApi) {
    std::string dir = MakeDirectory(value);
    if (dir.empty()) {
      return Fail("aclprofSetConfig", ACL_ERROR_INVALID_PROFILING_CONFIG,
                  "cannot create or write the directory " + value);
    }
    result_dir_ = std::move(dir);
  }
  settings_[type] = value;
  return ACL_SUCCESS;
}

int32_t Collector::StartLocked(const ascendclProfConfig& config,
                               std::unique_ptr<Session>* out) {
  for (const auto& s : sessions_) {
    if (s->Overlaps(config)) {
      return Fail("aclprofStart", ACL_ERROR_PROF_ALREADY_RUN,
                  config.devNums == 0
                      ? "host data is already being collected"
                      : "a device of the config is already being collected");
    }
  }
  std::string base = result_dir_;
  auto path = settings_.find(ACL_PROF_PATH);
  if (path != settings_.end() && mode_ == Mode::kOptions) base = path->second;
  char name[160];
  std::snprintf(name, sizeof name, "/PROF_%06u_%s_%d", next_index_,
                LocalTimeStamp().c_str(), static_cast<int>(getpid()));
  std::string dir = MakeDirectory(base + name);
  if (dir.empty()) {
    return Fail("aclprofStart", ACL_ERROR_INVALID_FILE,
                "cannot create the directory " + base + name);
  }
  *out = std::make_unique<Session>(config, dir, next_index_++,
                                   MsprofSysCycleTime(), settings_);
  last_path_ = dir;
  return ACL_SUCCESS;
}

int32_t Collector::Start(const ascendclProfConfig& config) {
  {
    std::lock_guard<std::mutex> lock(mu_);
    if (!subscriptions_.empty()) {
      return Fail("aclprofStart", ACL_ERROR_PROF_API_CONFLICT,
                  "a model subscription is in progress");
    }
    if (mode_ == Mode::kOptions) {
      return Fail("aclprofStart", ACL_ERROR_PROF_ALREADY_RUN,
                  "a collection started by MsprofInit is running");
    }
    if (mode_ != Mode::kApi) {
      return Fail("aclprofStart", ACL_ERROR_PROF_NOT_RUN,
                  "aclprofInit was not called");
    }
    std::unique_ptr<Session> session;
    if (int32_t code = StartLocked(config, &session)) return code;
    for (const std::string& kind : UncollectedKinds(config.dataTypeConfig)) {
      Log(ACL_INFO, "aclprofStart",
          kind + " is not collected on the simulator (DESIGN.md §5.24)");
    }
    sessions_.push_back(std::move(session));
  }
  UpdateObserver();
  Notify(PROF_COMMANDHANDLE_TYPE_START, config.dataTypeConfig,
         std::vector<uint32_t>(config.devIds, config.devIds + config.devNums),
         0);
  return ACL_SUCCESS;
}

int32_t Collector::Stop(const ascendclProfConfig& config) {
  std::unique_ptr<Session> session;
  std::map<std::pair<uint16_t, uint32_t>, std::string> names;
  {
    std::lock_guard<std::mutex> lock(mu_);
    if (!subscriptions_.empty()) {
      return Fail("aclprofStop", ACL_ERROR_PROF_API_CONFLICT,
                  "a model subscription is in progress");
    }
    if (mode_ == Mode::kOptions) {
      return Fail("aclprofStop", ACL_ERROR_PROF_ALREADY_RUN,
                  "a collection started by MsprofInit is running");
    }
    if (mode_ != Mode::kApi) {
      return Fail("aclprofStop", ACL_ERROR_PROF_NOT_RUN,
                  "aclprofInit was not called");
    }
    auto it = std::find_if(
        sessions_.begin(), sessions_.end(),
        [&config](const auto& s) { return s->SameDevices(config); });
    if (it == sessions_.end()) {
      const bool overlaps =
          std::any_of(sessions_.begin(), sessions_.end(),
                      [&config](const auto& s) { return s->Overlaps(config); });
      return overlaps
                 ? Fail("aclprofStop", ACL_ERROR_INVALID_PROFILING_CONFIG,
                        "the config's devices differ from those of the "
                        "collection started on them")
                 : Fail("aclprofStop", ACL_ERROR_PROF_NOT_RUN,
                        "no collection is started on the config's devices");
    }
    if ((*it)->config().dataTypeConfig != config.dataTypeConfig) {
      return Fail("aclprofStop", ACL_ERROR_INVALID_PROFILING_CONFIG,
                  "dataTypeConfig differs from the one aclprofStart got");
    }
    session = std::move(*it);
    sessions_.erase(it);
    names = type_names_;
  }
  UpdateObserver();
  session->End(MsprofSysCycleTime());
  const int32_t code = session->Write(names);
  Notify(PROF_COMMANDHANDLE_TYPE_STOP, config.dataTypeConfig,
         std::vector<uint32_t>(config.devIds, config.devIds + config.devNums),
         0);
  if (code != ACL_SUCCESS) {
    return Fail("aclprofStop", code, "cannot write to " + session->dir());
  }
  return ACL_SUCCESS;
}

int32_t Collector::StartFromOptions(const std::string& text) {
  nlohmann::json options =
      nlohmann::json::parse(text, nullptr, /*allow_exceptions=*/false);
  if (options.is_discarded() || !options.is_object()) {
    Log(ACL_ERROR, "MsprofInit", "the options are not a JSON object");
    return MSPROF_ERROR_CONFIG_INVALID;
  }
  if (options.contains("profiler")) options = options["profiler"];
  auto text_of = [&options](const char* key, const char* fallback) {
    auto it = options.find(key);
    return it != options.end() && it->is_string() ? it->get<std::string>()
                                                  : std::string(fallback);
  };
  if (text_of("switch", "on") != "on") return MSPROF_ERROR_ACL_JSON_OFF;
  ascendclProfConfig config{};
  uint32_t count = 0;
  if (aclrtGetDeviceCount(&count) != ACL_SUCCESS) count = 0;
  config.devNums = std::min<uint32_t>(count, 64);
  for (uint32_t i = 0; i < config.devNums; ++i) config.devIds[i] = i;
  config.aicoreMetrics = ACL_AICORE_NONE;
  if (text_of("task_time", "on") != "off") {
    config.dataTypeConfig |= ACL_PROF_TASK_TIME;
  }
  if (text_of("msproftx", "off") == "on") {
    config.dataTypeConfig |= ACL_PROF_MSPROFTX;
  }
  if (text_of("training_trace", "off") == "on") {
    config.dataTypeConfig |= ACL_PROF_TRAINING_TRACE;
  }
  {
    std::lock_guard<std::mutex> lock(mu_);
    if (mode_ != Mode::kOff || !subscriptions_.empty()) {
      Log(ACL_ERROR, "MsprofInit", "profiling is already in use");
      return MSPROF_ERROR;
    }
    std::string dir = MakeDirectory(text_of("output", "./"));
    if (dir.empty()) {
      Log(ACL_ERROR, "MsprofInit", "cannot create the output directory");
      return MSPROF_ERROR_CONFIG_INVALID;
    }
    const std::string saved = result_dir_;
    result_dir_ = dir;
    std::unique_ptr<Session> session;
    if (StartLocked(config, &session) != ACL_SUCCESS) {
      result_dir_ = saved;
      return MSPROF_ERROR;
    }
    sessions_.push_back(std::move(session));
    mode_ = Mode::kOptions;
  }
  UpdateObserver();
  Notify(PROF_COMMANDHANDLE_TYPE_START, config.dataTypeConfig,
         std::vector<uint32_t>(config.devIds, config.devIds + config.devNums),
         0);
  return MSPROF_ERROR_NONE;
}

int32_t Collector::FinalizeOptions() {
  std::vector<std::unique_ptr<Session>> ended;
  std::map<std::pair<uint16_t, uint32_t>, std::string> names;
  {
    std::lock_guard<std::mutex> lock(mu_);
    if (mode_ == Mode::kOff) return MSPROF_ERROR_NONE;
    if (mode_ != Mode::kOptions) {
      Log(ACL_ERROR, "MsprofFinalize",
          "the collection was started by aclprofInit: aclprofFinalize ends it");
      return MSPROF_ERROR;
    }
    ended = std::move(sessions_);
    sessions_.clear();
    mode_ = Mode::kOff;
    names = type_names_;
  }
  UpdateObserver();
  int32_t result = MSPROF_ERROR_NONE;
  for (const auto& s : ended) {
    s->End(MsprofSysCycleTime());
    if (s->Write(names) != ACL_SUCCESS) result = MSPROF_ERROR;
    std::vector<uint32_t> devices(s->config().devIds,
                                  s->config().devIds + s->config().devNums);
    Notify(PROF_COMMANDHANDLE_TYPE_STOP, s->config().dataTypeConfig, devices,
           0);
  }
  Notify(PROF_COMMANDHANDLE_TYPE_FINALIZE, 0, {}, 0);
  return result;
}

// --- The timeline observer ------------------------------------------------

void Collector::Observe(const ascendclTaskRecord* record, void* self) {
  static_cast<Collector*>(self)->OnTask(*record);
}

void Collector::OnTask(const ascendclTaskRecord& r) {
  std::lock_guard<std::mutex> lock(mu_);
  for (const auto& s : sessions_) {
    if (s->CollectsTasks() && s->Covers(r.deviceId)) {
      s->AddTask(TaskRecord{r.kind, r.deviceId, r.streamId, r.modelId,
                            r.threadId, r.result, r.startNs, r.endNs,
                            r.api != nullptr ? r.api : "",
                            r.name != nullptr ? r.name : ""});
    }
  }
  if (r.kind == ASCENDCL_TASK_MODEL_EXECUTE ||
      r.modelId == ASCENDCL_TIMELINE_NO_MODEL) {
    return;
  }
  auto sub = subscriptions_.find(r.modelId);
  if (sub == subscriptions_.end()) return;
  OpDesc d{};
  d.magic = kOpDescMagic;
  d.version = kOpDescVersion;
  d.model_id = r.modelId;
  d.device_id = r.deviceId;
  d.stream_id = r.streamId;
  d.flag = ACL_SUBSCRIBE_OP;
  d.thread_id = r.threadId;
  d.result = r.result;
  if (sub->second.time_info == 1) {
    d.start_us = r.startNs / 1000;
    d.end_us = r.endNs / 1000;
  }
  CopyString(d.op_type, sizeof d.op_type, TaskKindName(r.kind));
  const std::string name = r.name != nullptr && r.name[0] != '\0'
                               ? r.name
                               : (r.api != nullptr ? r.api : "");
  CopyString(d.op_name, sizeof d.op_name, name);
  pending_.emplace_back(sub->second.fd, d);
  ++unwritten_[sub->second.fd];
  writer_cv_.notify_one();
}

bool Collector::NeedsObserverLocked() const {
  if (!subscriptions_.empty()) return true;
  return std::any_of(sessions_.begin(), sessions_.end(),
                     [](const auto& s) { return s->CollectsTasks(); });
}

int32_t Collector::UpdateObserver() {
  std::lock_guard<std::mutex> serial(observer_mu_);
  bool need;
  {
    std::lock_guard<std::mutex> lock(mu_);
    need = NeedsObserverLocked();
  }
  if (need == observing_) return ACL_SUCCESS;
  const aclError code =
      ascendclTimelineSetObserver(need ? &Collector::Observe : nullptr, this);
  if (code == ACL_SUCCESS) observing_ = need;
  return code;
}

void Collector::Notify(uint32_t type, uint64_t switches,
                       const std::vector<uint32_t>& devices,
                       uint32_t model_id) {
  std::vector<Callback> callbacks;
  {
    std::lock_guard<std::mutex> lock(mu_);
    callbacks = callbacks_;
  }
  if (callbacks.empty()) return;
  auto command = std::make_unique<MsprofCommandHandle>();
  std::memset(command.get(), 0, sizeof *command);
  command->profSwitch = switches;
  command->devNums = static_cast<uint32_t>(
      std::min<size_t>(devices.size(), MSPROF_MAX_DEV_NUM));
  for (uint32_t i = 0; i < command->devNums; ++i) {
    command->devIdList[i] = devices[i];
  }
  command->modelId = model_id;
  command->type = type;
  for (const Callback& c : callbacks) {
    (void)c.handle(PROF_CTRL_SWITCH, command.get(),
                   static_cast<uint32_t>(sizeof *command));
  }
}

// --- Host records -----------------------------------------------------------

bool Collector::TxActive() {
  std::lock_guard<std::mutex> lock(mu_);
  return std::any_of(sessions_.begin(), sessions_.end(),
                     [](const auto& s) { return s->CollectsTx(); });
}

void Collector::ReportTx(TxRecord record) {
  std::lock_guard<std::mutex> lock(mu_);
  // Iteration marks go to every collection; the rest to msproftx ones.
  const bool step = record.type.rfind("step", 0) == 0;
  for (const auto& s : sessions_) {
    if (step || s->CollectsTx()) s->AddTx(record);
  }
}

void Collector::Report(ReportRecord record) {
  std::lock_guard<std::mutex> lock(mu_);
  for (const auto& s : sessions_) s->AddReport(record);
}

void Collector::RegisterCallback(uint32_t module, ProfCommandHandle handle) {
  std::vector<ascendclProfConfig> running;
  {
    std::lock_guard<std::mutex> lock(mu_);
    callbacks_.push_back(Callback{module, handle});
    for (const auto& s : sessions_) running.push_back(s->config());
  }
  for (const ascendclProfConfig& c : running) {
    auto command = std::make_unique<MsprofCommandHandle>();
    std::memset(command.get(), 0, sizeof *command);
    command->profSwitch = c.dataTypeConfig;
    command->devNums = c.devNums;
    std::copy(c.devIds, c.devIds + c.devNums, command->devIdList);
    command->type = PROF_COMMANDHANDLE_TYPE_START;
    (void)handle(PROF_CTRL_SWITCH, command.get(),
                 static_cast<uint32_t>(sizeof *command));
  }
}

void Collector::RegisterTypeName(uint16_t level, uint32_t type,
                                 std::string name) {
  std::lock_guard<std::mutex> lock(mu_);
  type_names_[{level, type}] = std::move(name);
}

std::string Collector::CurrentPath() {
  std::lock_guard<std::mutex> lock(mu_);
  return sessions_.empty() ? std::string() : last_path_;
}

bool Collector::OpTypeEnabled(const std::string& op_type) {
  std::lock_guard<std::mutex> lock(mu_);
  auto it = settings_.find(ACL_PROF_OPTYPE);
  if (it == settings_.end()) return true;
  for (const std::string& t : SplitList(it->second)) {
    if (t == op_type) return true;
  }
  return false;
}

// --- Subscriptions
// ------------------------------------------------------------

void Collector::SetModelDevice(uint32_t model_id, uint32_t device_id) {
  std::lock_guard<std::mutex> lock(mu_);
  model_devices_[model_id] = device_id;
}

void Collector::UnsetModelDevice(uint32_t model_id, uint32_t device_id) {
  std::lock_guard<std::mutex> lock(mu_);
  auto it = model_devices_.find(model_id);
  if (it != model_devices_.end() && it->second == device_id) {
    model_devices_.erase(it);
  }
}

std::optional<int32_t> Collector::ModelDevice(uint32_t model_id) {
  {
    std::lock_guard<std::mutex> lock(mu_);
    auto it = model_devices_.find(model_id);
    if (it != model_devices_.end()) return static_cast<int32_t>(it->second);
  }
  int32_t device = -1;
  if (ascendclTimelineModelDevice(model_id, &device) == ACL_SUCCESS) {
    return device;
  }
  return std::nullopt;
}

int32_t Collector::Subscribe(uint32_t model_id, int8_t time_info,
                             uint32_t metrics, int fd) {
  {
    std::lock_guard<std::mutex> lock(mu_);
    if (mode_ != Mode::kOff) {
      return Fail("aclprofModelSubscribe", ACL_ERROR_PROF_API_CONFLICT,
                  "called between aclprofInit and aclprofFinalize");
    }
  }
  std::optional<int32_t> device = ModelDevice(model_id);
  if (!device.has_value()) {
    return Fail("aclprofModelSubscribe", ACL_ERROR_INVALID_MODEL_ID,
                "no model has id " + std::to_string(model_id));
  }
  const int flags = fcntl(fd, F_GETFL);
  if (flags < 0 || (flags & O_ACCMODE) == O_RDONLY) {
    return Fail("aclprofModelSubscribe", ACL_ERROR_INVALID_PARAM,
                "the subscription's fd " + std::to_string(fd) +
                    " is not open for writing");
  }
  {
    std::lock_guard<std::mutex> lock(mu_);
    if (mode_ != Mode::kOff) {
      return Fail("aclprofModelSubscribe", ACL_ERROR_PROF_API_CONFLICT,
                  "called between aclprofInit and aclprofFinalize");
    }
    if (subscriptions_.count(model_id) != 0) {
      return Fail(
          "aclprofModelSubscribe", ACL_ERROR_PROF_REPEAT_SUBSCRIBE,
          "model " + std::to_string(model_id) + " is already subscribed");
    }
    for (const auto& [id, sub] : subscriptions_) {
      if (sub.device == *device &&
          (sub.fd != fd || sub.time_info != time_info ||
           sub.metrics != metrics)) {
        return Fail("aclprofModelSubscribe", ACL_ERROR_INVALID_PROFILING_CONFIG,
                    "model " + std::to_string(id) +
                        " of the same device is subscribed with another "
                        "config");
      }
    }
    if (!writer_.joinable()) writer_ = std::thread([this] { WriterLoop(); });
    subscriptions_[model_id] = Subscription{fd, time_info, metrics, *device};
  }
  UpdateObserver();
  Notify(PROF_COMMANDHANDLE_TYPE_MODEL_SUBSCRIBE, ACL_PROF_TASK_TIME,
         {static_cast<uint32_t>(*device)}, model_id);
  return ACL_SUCCESS;
}

int32_t Collector::Unsubscribe(uint32_t model_id) {
  std::optional<int32_t> device = ModelDevice(model_id);
  if (!device.has_value()) {
    return Fail("aclprofModelUnSubscribe", ACL_ERROR_INVALID_MODEL_ID,
                "no model has id " + std::to_string(model_id));
  }
  {
    std::unique_lock<std::mutex> lock(mu_);
    auto it = subscriptions_.find(model_id);
    if (it == subscriptions_.end()) {
      return Fail("aclprofModelUnSubscribe", ACL_ERROR_PROF_NOT_RUN,
                  "model " + std::to_string(model_id) + " is not subscribed");
    }
    const int fd = it->second.fd;
    subscriptions_.erase(it);
    // What the model's operators queued reaches the pipe first.
    drained_cv_.wait(lock, [this, fd] { return unwritten_[fd] == 0; });
    const bool shared =
        std::any_of(subscriptions_.begin(), subscriptions_.end(),
                    [fd](const auto& s) { return s.second.fd == fd; });
    if (!shared) {
      unwritten_.erase(fd);
      close(fd);
    }
  }
  UpdateObserver();
  Notify(PROF_COMMANDHANDLE_TYPE_MODEL_UNSUBSCRIBE, ACL_PROF_TASK_TIME,
         {static_cast<uint32_t>(*device)}, model_id);
  return ACL_SUCCESS;
}

void Collector::WriterLoop() {
  // A reader that closed its end makes write fail with EPIPE instead of
  // killing the process.
  sigset_t pipe_signal;
  sigemptyset(&pipe_signal);
  sigaddset(&pipe_signal, SIGPIPE);
  pthread_sigmask(SIG_BLOCK, &pipe_signal, nullptr);
  std::unique_lock<std::mutex> lock(mu_);
  for (;;) {
    writer_cv_.wait(lock, [this] { return writer_stop_ || !pending_.empty(); });
    if (pending_.empty()) return;
    // Up to ten records of one pipe at a time (a write of at most
    // PIPE_BUF bytes reaches a pipe whole).
    const int fd = pending_.front().first;
    std::vector<OpDesc> batch;
    while (!pending_.empty() && pending_.front().first == fd &&
           batch.size() < 10) {
      batch.push_back(pending_.front().second);
      pending_.pop_front();
    }
    lock.unlock();
    const char* p = reinterpret_cast<const char*>(batch.data());
    size_t left = batch.size() * sizeof(OpDesc);
    while (left > 0) {
      const ssize_t n = write(fd, p, left);
      if (n < 0 && errno == EINTR) continue;
      if (n <= 0) break;  // the reader is gone: the records are dropped
      p += n;
      left -= static_cast<size_t>(n);
    }
    lock.lock();
    unwritten_[fd] -= static_cast<int>(batch.size());
    drained_cv_.notify_all();
  }
}

}  // namespace ascend::prof
