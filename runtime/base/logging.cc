#include "runtime/base/logging.h"

#include <cstdlib>
#include <mutex>

#include "absl/strings/numbers.h"
#include "glog/logging.h"

namespace ascend::rt {

LogLevel ParseLogLevel(const char* value) {
  int parsed = 0;
  if (value == nullptr || !absl::SimpleAtoi(value, &parsed) || parsed < 0 ||
      parsed > static_cast<int>(LogLevel::kOff)) {
    return kDefaultLogLevel;
  }
  return static_cast<LogLevel>(parsed);
}

void ApplyLogLevel(LogLevel level) {
  int severity = google::GLOG_INFO;
  switch (level) {
    case LogLevel::kDebug:
    case LogLevel::kInfo:
      severity = google::GLOG_INFO;
      break;
    case LogLevel::kWarning:
      severity = google::GLOG_WARNING;
      break;
    case LogLevel::kError:
      severity = google::GLOG_ERROR;
      break;
    case LogLevel::kOff:
      // glog cannot filter out FATAL; everything below it is suppressed.
      severity = google::GLOG_FATAL;
      break;
  }
  FLAGS_logtostderr = true;
  FLAGS_minloglevel = severity;
  FLAGS_stderrthreshold = severity;
  FLAGS_v = level == LogLevel::kDebug ? 1 : 0;
}

void InitLogging() {
  static std::once_flag once;
  std::call_once(once, [] {
    ApplyLogLevel(ParseLogLevel(std::getenv("ASCEND_GLOBAL_LOG_LEVEL")));
  });
}

}  // namespace ascend::rt
