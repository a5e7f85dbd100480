// Helpers for the lifecycle tests: callbacks that record what happened,
// config files in the test's temporary directory, and threads that must
// finish within a deadline (a deadlock aborts the test instead of hanging).
//
//   Recorder log;
//   Probe model("model", &log);
//   lifecycle.RegisterInitCallback(ACL_REG_TYPE_ACL_MODEL, InitFn<0>, &model);
//   ...
//   EXPECT_THAT(log.events(), ElementsAre("init:model"));
//
// Synchronisation here uses std primitives, which ThreadSanitizer sees (the
// system abseil is not instrumented).
#ifndef ASCENDCL_ACL_LIFECYCLE_TEST_UTIL_H_
#define ASCENDCL_ACL_LIFECYCLE_TEST_UTIL_H_

#include <chrono>
#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <mutex>
#include <string>
#include <vector>

#include "absl/strings/string_view.h"
#include "acl/acl_rt.h"

namespace ascend::acl::testing {

// A thread-safe list of event names.
class Recorder {
 public:
  void Add(std::string event);
  std::vector<std::string> events() const;
  void Clear();

 private:
  mutable std::mutex mu_;
  std::vector<std::string> events_;
};

// A one-shot event with a bounded wait.
class Event {
 public:
  void Notify();
  // True if notified within `timeout`.
  bool WaitFor(std::chrono::milliseconds timeout);

 private:
  std::mutex mu_;
  std::condition_variable cv_;
  bool notified_ = false;
};

// The userData of a test callback: records "init:<name>" or
// "finalize:<name>", runs `action` (if any), then returns `result`.
struct Probe {
  Probe(std::string name, Recorder* recorder)
      : name(std::move(name)), recorder(recorder) {}

  std::string name;
  Recorder* recorder;
  int32_t result = 0;
  std::function<void()> action;
  int calls = 0;
  // Filled by init callbacks.
  std::string last_config;
  const char* last_config_pointer = nullptr;
};

aclError RecordInit(const char* config, size_t len, void* user_data);
aclError RecordFinalize(void* user_data);

// Distinct function pointers with the same behaviour (unregistration matches
// on the function).
template <int N>
aclError InitFn(const char* config, size_t len, void* user_data) {
  return RecordInit(config, len, user_data);
}
template <int N>
aclError FinalizeFn(void* user_data) {
  return RecordFinalize(user_data);
}

// Writes `contents` to a new file under $TEST_TMPDIR; returns its path.
std::string WriteTempFile(absl::string_view name, absl::string_view contents);
// A new directory under $TEST_TMPDIR.
std::string MakeTempDir(absl::string_view name);

// Runs body(0) .. body(threads - 1) on their own threads, all released at
// once, and joins them. Aborts the process if they have not all finished
// within `timeout`.
void RunThreads(int threads, const std::function<void(int)>& body,
                std::chrono::seconds timeout = std::chrono::seconds(30));

}  // namespace ascend::acl::testing

#endif  // ASCENDCL_ACL_LIFECYCLE_TEST_UTIL_H_
