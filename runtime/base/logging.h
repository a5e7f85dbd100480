// Process-wide logging for the runtime: glog, written to stderr, filtered by
// CANN's environment variable ASCEND_GLOBAL_LOG_LEVEL.
//
//   ascend::rt::InitLogging();  // idempotent; aclInit calls it
//   LOG(WARNING) << "...";      // plain glog from then on
//
// ASCEND_GLOBAL_LOG_LEVEL | shown
// ------------------------+---------------------------------------------
// 0 (debug)               | INFO and up, plus VLOG(1)
// 1 (info)                | INFO and up
// 2 (warning)             | WARNING and up
// 3 (error), the default  | ERROR and up (CANN's default level)
// 4 (off)                 | nothing (a FATAL message still prints and aborts)
//
// Any other value, or an unset variable, means the default. The runtime never
// calls google::InitGoogleLogging(), so an application that uses glog itself
// may still do so; glog then prints a one-line note before the first message
// of a process that did not.
#ifndef ASCENDCL_RUNTIME_BASE_LOGGING_H_
#define ASCENDCL_RUNTIME_BASE_LOGGING_H_

namespace ascend::rt {

enum class LogLevel {
  kDebug = 0,
  kInfo = 1,
  kWarning = 2,
  kError = 3,
  kOff = 4,
};

inline constexpr LogLevel kDefaultLogLevel = LogLevel::kError;

// The level named by a value of ASCEND_GLOBAL_LOG_LEVEL: a decimal 0..4,
// surrounding blanks allowed. nullptr or anything else gives the default.
LogLevel ParseLogLevel(const char* value);

// Sets glog's flags for `level` now: logs go to stderr only, minloglevel and
// stderrthreshold follow the level, verbose logging (FLAGS_v = 1) only at
// kDebug. Not synchronised with threads that are logging at that moment;
// call it at start-up.
void ApplyLogLevel(LogLevel level);

// Reads ASCEND_GLOBAL_LOG_LEVEL and applies it, the first time it is called
// in the process; later calls do nothing. Thread-safe.
void InitLogging();

}  // namespace ascend::rt

#endif  // ASCENDCL_RUNTIME_BASE_LOGGING_H_
