// Process-wide logging for the runtime, following CANN's conventions: glog
// messages go to plog files (or to stdout when asked), filtered by
// ASCEND_GLOBAL_LOG_LEVEL; nothing reaches stderr but a FATAL message.
//
//   ascend::rt::InitLogging();  // idempotent; every first-use path calls it
//   LOG(WARNING) << "...";      // plain glog from then on
//   ascend::rt::LogEvent("aclInit succeeded");  // an [EVENT] record
//
// Environment (read once, by the first InitLogging of the process):
//
//   ASCEND_GLOBAL_LOG_LEVEL      0 debug (INFO and VLOG(1)), 1 info,
//                                2 warning, 3 error (the default), 4 none.
//   ASCEND_LOG_PRINT_TO_STDOUT   1: print to stdout instead of files; 0 or
//   ASCEND_SLOG_PRINT_TO_STDOUT  anything else: files. The first name wins
//                                when it holds 0 or 1 (CANN's newer name).
//   ASCEND_PROCESS_LOG_PATH      the log directory; else
//   ASCEND_WORK_PATH             $ASCEND_WORK_PATH/log; else $HOME/ascend/log.
//   ASCEND_GLOBAL_EVENT_ENABLE   0: no [EVENT] records; default 1.
//   ASCEND_HOST_LOG_FILE_NUM     files kept per process and kind, 1..1000,
//                                default 10.
//
// Files, created on the first line that needs them (a process that logs
// nothing creates nothing):
//
//   <dir>/debug/plog/plog-<pid>_<YYYYMMDDhhmmssmmm>.log   glog messages
//   <dir>/run/plog/plog-<pid>_<YYYYMMDDhhmmssmmm>.log     [EVENT] records
//
// A file is closed at 20 MiB and a new one started; the oldest of this
// process's files beyond ASCEND_HOST_LOG_FILE_NUM is deleted. A forked child
// starts files of its own. A directory or file that cannot be created or
// written loses the lines quietly: logging never prints, throws or aborts
// (a FATAL message aside, which glog prints to stderr before aborting).
//
// Line format (CANN's plog format), one line per message:
//
//   [ERROR] ASCENDCL(<pid>,<program>):2024-09-12-16:39:52.762.123
//       [runtime.cc:42] [<tid>] message
//
// glog: glog writes to stderr, with a "Logging before InitGoogleLogging()"
// banner, for as long as google::InitGoogleLogging has not been called, and
// it may be called only once. So the first InitLogging calls it (with the
// program's name) when the application has not, and then turns glog's own
// outputs off: no glog log files, nothing on stderr below FATAL; a LogSink
// writes the plog. An application that uses glog itself must therefore call
// google::InitGoogleLogging before its first ACL call; the runtime then
// leaves glog's flags and destinations as the application set them (its own
// messages and the runtime's go where it told glog to send them) and only
// adds the sink, which applies ASCEND_GLOBAL_LOG_LEVEL. Either way, the plog
// receives every glog message of the process that passes the level.
#ifndef ASCENDCL_RUNTIME_BASE_LOGGING_H_
#define ASCENDCL_RUNTIME_BASE_LOGGING_H_

#include <cstdint>
#include <string>

#include "absl/strings/string_view.h"

namespace ascend::rt {

enum class LogLevel {
  kDebug = 0,
  kInfo = 1,
  kWarning = 2,
  kError = 3,
  kOff = 4,
};

inline constexpr LogLevel kDefaultLogLevel = LogLevel::kError;
inline constexpr int kDefaultLogFileCount = 10;
inline constexpr int64_t kDefaultLogFileBytes = int64_t{20} << 20;

// The level named by a value of ASCEND_GLOBAL_LOG_LEVEL: a decimal 0..4,
// surrounding blanks allowed. nullptr or anything else gives the default.
LogLevel ParseLogLevel(const char* value);

// A 0/1 switch such as ASCEND_SLOG_PRINT_TO_STDOUT: "0" is false, "1" true
// (surrounding blanks allowed); nullptr or anything else gives `fallback`.
bool ParseLogSwitch(const char* value, bool fallback);

// ASCEND_HOST_LOG_FILE_NUM: a decimal 1..1000, else the default (10).
int ParseLogFileCount(const char* value);

struct LogConfig {
  LogLevel level = kDefaultLogLevel;
  bool to_stdout = false;  // print instead of writing files
  bool events = true;      // write [EVENT] records
  // The log directory (debug/ and run/ go below it), absolute. Empty: no
  // directory could be determined, so file lines are dropped.
  std::string directory;
  int max_files = kDefaultLogFileCount;           // per process and kind
  int64_t max_file_bytes = kDefaultLogFileBytes;  // then a new file
};

// The configuration the environment asks for (see the table above). A
// relative ASCEND_PROCESS_LOG_PATH or ASCEND_WORK_PATH is taken from the
// current directory; without HOME the password database gives the home.
LogConfig LogConfigFromEnvironment();

// Applies `config` now: glog set up as described above on the first call,
// the level, destination and limits replaced on every call (a new directory
// starts new files). Thread-safe; InitLogging calls it once with the
// environment's configuration, tests call it directly.
void ConfigureLogging(const LogConfig& config);

// Configures logging from the environment the first time it is called in
// the process; later calls do nothing. Thread-safe and cheap after the
// first call.
void InitLogging();

// Writes an [EVENT] record (to the run log, or stdout) unless
// ASCEND_GLOBAL_EVENT_ENABLE=0. Events do not depend on the log level.
// Calls InitLogging first.
void LogEvent(absl::string_view message, const char* file = __builtin_FILE(),
              int line = __builtin_LINE());

// The file this process is writing debug (glog) lines or run (event)
// records to, or "" when it has none open (nothing logged yet, stdout mode,
// or the file could not be created).
std::string CurrentDebugLogFile();
std::string CurrentRunLogFile();

}  // namespace ascend::rt

#endif  // ASCENDCL_RUNTIME_BASE_LOGGING_H_
