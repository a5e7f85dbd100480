#include "runtime/base/logging.h"

#include <errno.h>
#include <fcntl.h>
#include <pwd.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/types.h>
#include <time.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/ascii.h"
#include "absl/strings/numbers.h"
#include "glog/logging.h"

namespace ascend::rt {
namespace {

constexpr char kModule[] = "ASCENDCL";
constexpr int kMaxLogFileCount = 1000;

// ---------------------------------------------------------------------------
// Environment

const char* NonEmptyEnv(const char* name) {
  const char* value = std::getenv(name);
  return value != nullptr && value[0] != '\0' ? value : nullptr;
}

// `path` made absolute against the current directory, runs of '/' made one
// and a trailing '/' removed (except for "/" itself). Empty when the current
// directory is unknown.
std::string Absolute(const std::string& path) {
  if (path.empty()) return path;
  std::string full;
  if (path[0] != '/') {
    std::vector<char> cwd(4096);
    if (getcwd(cwd.data(), cwd.size()) == nullptr) return "";
    full = std::string(cwd.data()) + "/";
  }
  full += path;
  std::string clean;
  for (char c : full) {
    if (c != '/' || clean.empty() || clean.back() != '/') clean += c;
  }
  if (clean.size() > 1 && clean.back() == '/') clean.pop_back();
  return clean;
}

std::string HomeDirectory() {
  if (const char* home = NonEmptyEnv("HOME")) return home;
  std::vector<char> buffer(16384);
  struct passwd entry;
  struct passwd* found = nullptr;
  if (getpwuid_r(getuid(), &entry, buffer.data(), buffer.size(), &found) == 0 &&
      found != nullptr && found->pw_dir != nullptr) {
    return found->pw_dir;
  }
  return "";
}

// ASCEND_PROCESS_LOG_PATH > ASCEND_WORK_PATH/log > $HOME/ascend/log.
std::string LogDirectoryFromEnvironment() {
  if (const char* path = NonEmptyEnv("ASCEND_PROCESS_LOG_PATH")) {
    return Absolute(path);
  }
  if (const char* work = NonEmptyEnv("ASCEND_WORK_PATH")) {
    std::string base = Absolute(work);
    return base.empty() ? base : Absolute(base + "/log");
  }
  std::string home = HomeDirectory();
  return home.empty() ? home : Absolute(home + "/ascend/log");
}

// ---------------------------------------------------------------------------
// Files

// Creates `dir` and its missing parents (mode 0750). True when it is a
// directory afterwards.
bool MakeDirectories(const std::string& dir) {
  if (dir.empty() || dir[0] != '/') return false;
  struct stat st;
  for (size_t pos = dir.find('/', 1);; pos = dir.find('/', pos + 1)) {
    const std::string prefix = dir.substr(0, pos);
    if (mkdir(prefix.c_str(), 0750) != 0 &&
        (stat(prefix.c_str(), &st) != 0 || !S_ISDIR(st.st_mode))) {
      return false;
    }
    if (pos == std::string::npos) break;
  }
  return true;
}

bool WriteAll(int fd, const char* data, size_t size) {
  while (size > 0) {
    const ssize_t n = write(fd, data, size);
    if (n < 0) {
      if (errno == EINTR) continue;
      return false;
    }
    data += n;
    size -= static_cast<size_t>(n);
  }
  return true;
}

struct WallClock {
  struct tm local;
  int64_t usec;
};

WallClock Now() {
  struct timespec ts;
  clock_gettime(CLOCK_REALTIME, &ts);
  WallClock now;
  localtime_r(&ts.tv_sec, &now.local);
  now.usec = ts.tv_nsec / 1000;
  return now;
}

// One series of plog files of this process: debug/plog or run/plog.
class LogFileSeries {
 public:
  // Writes `line`, opening (or rotating to) a file first when needed.
  // Failures drop the line; after a failed open, the series stays closed
  // until it is configured again or the process forks.
  void Write(const std::string& line, const LogConfig& config) {
    const pid_t pid = getpid();
    if (pid != pid_) {
      // A new process (first use, or a forked child that inherited the
      // parent's descriptor): its own files, under its own pid.
      CloseFile();
      files_.clear();
      failed_ = false;
      pid_ = pid;
    }
    if (fd_ >= 0 && bytes_ > 0 &&
        bytes_ + static_cast<int64_t>(line.size()) > config.max_file_bytes) {
      CloseFile();
    }
    if (fd_ < 0 && !Open(config)) return;
    if (WriteAll(fd_, line.data(), line.size())) {
      bytes_ += static_cast<int64_t>(line.size());
    }
  }

  // Points the series at `dir`; a different directory starts new files.
  void SetDirectory(std::string dir) {
    if (dir == dir_) return;
    CloseFile();
    files_.clear();
    failed_ = false;
    dir_ = std::move(dir);
  }

  std::string current_path() const {
    return fd_ >= 0 && pid_ == getpid() ? path_ : std::string();
  }

 private:
  bool Open(const LogConfig& config) {
    if (failed_ || dir_.empty()) return false;
    if (!MakeDirectories(dir_)) {
      failed_ = true;
      return false;
    }
    const WallClock now = Now();
    char name[96];
    std::snprintf(
        name, sizeof name, "/plog-%ld_%04d%02d%02d%02d%02d%02d%03d.log",
        static_cast<long>(pid_), now.local.tm_year + 1900, now.local.tm_mon + 1,
        now.local.tm_mday, now.local.tm_hour, now.local.tm_min,
        now.local.tm_sec, static_cast<int>(now.usec / 1000));
    std::string path = dir_ + name;
    const int fd =
        open(path.c_str(), O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0640);
    if (fd < 0) {
      failed_ = true;
      return false;
    }
    struct stat st;
    fd_ = fd;
    bytes_ = fstat(fd, &st) == 0 ? static_cast<int64_t>(st.st_size) : 0;
    path_ = path;
    // A rotation within the same millisecond reopens the same name.
    if (files_.empty() || files_.back() != path) {
      files_.push_back(std::move(path));
    }
    while (static_cast<int>(files_.size()) > config.max_files) {
      unlink(files_.front().c_str());
      files_.pop_front();
    }
    return true;
  }

  void CloseFile() {
    if (fd_ >= 0) close(fd_);
    fd_ = -1;
    bytes_ = 0;
    path_.clear();
  }

  std::string dir_;
  pid_t pid_ = 0;  // the process the files belong to
  int fd_ = -1;
  int64_t bytes_ = 0;
  std::string path_;
  std::deque<std::string> files_;  // this process's files, oldest first
  bool failed_ = false;
};

// ---------------------------------------------------------------------------
// Formatting

// The least glog severity `level` shows; NUM_SEVERITIES for none.
int MinSeverity(LogLevel level) {
  switch (level) {
    case LogLevel::kDebug:
    case LogLevel::kInfo:
      return google::GLOG_INFO;
    case LogLevel::kWarning:
      return google::GLOG_WARNING;
    case LogLevel::kError:
      return google::GLOG_ERROR;
    case LogLevel::kOff:
      break;
  }
  return google::NUM_SEVERITIES;
}

const char* SeverityTag(google::LogSeverity severity) {
  switch (severity) {
    case google::GLOG_INFO:
      return "INFO";
    case google::GLOG_WARNING:
      return "WARNING";
    case google::GLOG_ERROR:
      return "ERROR";
    default:
      return "FATAL";
  }
}

const char* ProgramName() {
  const char* name = program_invocation_short_name;
  return name != nullptr && name[0] != '\0' ? name : "unknown";
}

const char* BaseName(const char* path) {
  if (path == nullptr) return "";
  const char* slash = std::strrchr(path, '/');
  return slash != nullptr ? slash + 1 : path;
}

// "[TAG] ASCENDCL(pid,program):YYYY-MM-DD-hh:mm:ss.mmm.uuu [file:line]
// [tid] message\n"
std::string FormatLine(const char* tag, const struct tm& local, int64_t usec,
                       const char* file, int line, const char* message,
                       size_t message_len) {
  char prefix[512];
  const int n = std::snprintf(
      prefix, sizeof prefix,
      "[%s] %s(%ld,%s):%04d-%02d-%02d-%02d:%02d:%02d.%03d.%03d [%s:%d] [%ld] ",
      tag, kModule, static_cast<long>(getpid()), ProgramName(),
      local.tm_year + 1900, local.tm_mon + 1, local.tm_mday, local.tm_hour,
      local.tm_min, local.tm_sec, static_cast<int>(usec / 1000),
      static_cast<int>(usec % 1000), BaseName(file), line,
      static_cast<long>(syscall(SYS_gettid)));
  std::string text(
      prefix, n < 0 ? 0 : std::min(static_cast<size_t>(n), sizeof prefix - 1));
  text.append(message, message_len);
  text += '\n';
  return text;
}

void WriteToStdout(const std::string& line) {
  std::fwrite(line.data(), 1, line.size(), stdout);
  std::fflush(stdout);
}

// ---------------------------------------------------------------------------
// The process's logger

class PlogSink : public google::LogSink {
 public:
  void send(google::LogSeverity severity, const char* full_filename,
            const char* base_filename, int line,
            const google::LogMessageTime& time, const char* message,
            size_t message_len) override;
};

// Lock order: glog's own mutexes, then mu (glog calls the sink with its
// mutexes held), so nothing calls into glog with mu held.
struct Logger {
  std::mutex mu;
  LogConfig config;     // guarded by mu
  LogFileSeries debug;  // guarded by mu
  LogFileSeries run;    // guarded by mu
  PlogSink sink;
  // InitGoogleLogging was ours; written once, inside SetUpGlog's once_flag.
  bool own_glog = false;
};

// Never destroyed: static destructors and exit handlers may still log.
Logger& TheLogger() {
  static Logger* const logger = new Logger;
  return *logger;
}

void PlogSink::send(google::LogSeverity severity, const char* full_filename,
                    const char* base_filename, int line,
                    const google::LogMessageTime& time, const char* message,
                    size_t message_len) {
  try {
    Logger& logger = TheLogger();
    std::lock_guard<std::mutex> lock(logger.mu);
    if (severity < MinSeverity(logger.config.level)) return;
    const std::string text =
        FormatLine(SeverityTag(severity), time.tm(), time.usec(),
                   base_filename != nullptr ? base_filename : full_filename,
                   line, message, message_len);
    if (logger.config.to_stdout) {
      WriteToStdout(text);
    } else {
      logger.debug.Write(text, logger.config);
    }
  } catch (...) {
    // Out of memory or the like: the line is lost, the caller goes on.
  }
}

// Only when glog is ours: the application's glog flags are its own business.
void ApplyGlogFlags(const Logger& logger, LogLevel level) {
  if (!logger.own_glog) return;
  const int min_severity = MinSeverity(level);
  FLAGS_logtostderr = false;
  FLAGS_alsologtostderr = false;
  FLAGS_logtostdout = false;
  // A FATAL message still reaches stderr before the abort.
  FLAGS_stderrthreshold = google::GLOG_FATAL;
  FLAGS_minloglevel = std::min<int>(min_severity, google::GLOG_FATAL);
  FLAGS_v = level == LogLevel::kDebug ? 1 : 0;
}

// Once per process, without logger.mu held. When the application has not
// initialised glog, glog's outputs are turned off before InitGoogleLogging,
// so that no message of another thread finds glog initialised but still
// writing its own files or stderr.
void SetUpGlog(Logger& logger, LogLevel level) {
  // glog converts every message's time (localtime_r, mktime): the time zone
  // is read here, once, rather than first by several logging threads.
  tzset();
  google::AddLogSink(&logger.sink);
  if (google::IsGoogleLoggingInitialized()) return;
  logger.own_glog = true;
  // An empty base name turns a severity's glog log file off.
  for (int severity = 0; severity < google::NUM_SEVERITIES; ++severity) {
    google::SetLogDestination(severity, "");
  }
  ApplyGlogFlags(logger, level);
  // glog keeps the pointer: program_invocation_name lives as long as the
  // process.
  const char* argv0 = program_invocation_name;
  google::InitGoogleLogging(argv0 != nullptr && argv0[0] != '\0' ? argv0
                                                                 : "ascendcl");
}

}  // namespace

LogLevel ParseLogLevel(const char* value) {
  int parsed = 0;
  if (value == nullptr || !absl::SimpleAtoi(value, &parsed) || parsed < 0 ||
      parsed > static_cast<int>(LogLevel::kOff)) {
    return kDefaultLogLevel;
  }
  return static_cast<LogLevel>(parsed);
}

bool ParseLogSwitch(const char* value, bool fallback) {
  if (value == nullptr) return fallback;
  const absl::string_view text = absl::StripAsciiWhitespace(value);
  if (text == "0") return false;
  if (text == "1") return true;
  return fallback;
}

int ParseLogFileCount(const char* value) {
  int parsed = 0;
  if (value == nullptr || !absl::SimpleAtoi(value, &parsed) || parsed < 1 ||
      parsed > kMaxLogFileCount) {
    return kDefaultLogFileCount;
  }
  return parsed;
}

LogConfig LogConfigFromEnvironment() {
  LogConfig config;
  config.level = ParseLogLevel(std::getenv("ASCEND_GLOBAL_LOG_LEVEL"));
  // CANN's newer name wins when it holds a valid value.
  const char* newer = std::getenv("ASCEND_LOG_PRINT_TO_STDOUT");
  config.to_stdout = ParseLogSwitch(
      newer, ParseLogSwitch(std::getenv("ASCEND_SLOG_PRINT_TO_STDOUT"), false));
  config.events =
      ParseLogSwitch(std::getenv("ASCEND_GLOBAL_EVENT_ENABLE"), true);
  config.max_files = ParseLogFileCount(std::getenv("ASCEND_HOST_LOG_FILE_NUM"));
  config.directory = LogDirectoryFromEnvironment();
  return config;
}

void ConfigureLogging(const LogConfig& config) {
  Logger& logger = TheLogger();
  {
    std::lock_guard<std::mutex> lock(logger.mu);
    logger.config = config;
    if (logger.config.max_files < 1) logger.config.max_files = 1;
    // Stdout mode writes no files: an empty directory closes them.
    const std::string dir =
        logger.config.to_stdout ? std::string() : logger.config.directory;
    logger.debug.SetDirectory(dir.empty() ? dir : dir + "/debug/plog");
    logger.run.SetDirectory(dir.empty() ? dir : dir + "/run/plog");
  }
  static std::once_flag glog_once;
  std::call_once(glog_once,
                 [&logger, &config] { SetUpGlog(logger, config.level); });
  ApplyGlogFlags(logger, config.level);
}

void InitLogging() {
  static std::once_flag once;
  std::call_once(once, [] {
    try {
      ConfigureLogging(LogConfigFromEnvironment());
    } catch (...) {
      // Out of memory this early: logging keeps glog's defaults; the entry
      // point that asked goes on.
    }
  });
}

void LogEvent(absl::string_view message, const char* file, int line) {
  InitLogging();
  try {
    Logger& logger = TheLogger();
    std::lock_guard<std::mutex> lock(logger.mu);
    if (!logger.config.events) return;
    const WallClock now = Now();
    const std::string text = FormatLine("EVENT", now.local, now.usec, file,
                                        line, message.data(), message.size());
    if (logger.config.to_stdout) {
      WriteToStdout(text);
    } else {
      logger.run.Write(text, logger.config);
    }
  } catch (...) {
    // As in PlogSink::send: the record is lost.
  }
}

std::string CurrentDebugLogFile() {
  Logger& logger = TheLogger();
  std::lock_guard<std::mutex> lock(logger.mu);
  return logger.debug.current_path();
}

std::string CurrentRunLogFile() {
  Logger& logger = TheLogger();
  std::lock_guard<std::mutex> lock(logger.mu);
  return logger.run.current_path();
}

}  // namespace ascend::rt
