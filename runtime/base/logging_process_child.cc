// Child process of logging_process_test: a small ACL program, linked with
// //acl:ascendcl, whose first ACL calls fail. It prints nothing itself, so
// whatever appears on its stdout or stderr came from the runtime (or, in
// mode glog_app, from the glog configuration the program chose).
//
//   logging_process_child calls      device count, then two failing calls
//   logging_process_child threads    8 threads fail at once as first use
//   logging_process_child lifecycle  aclInit, a failing call, aclFinalize
//   logging_process_child glog_app   InitGoogleLogging first, then calls
//
// Exit status 0 when every call returned what it should.
#include <cstring>
#include <thread>
#include <vector>

#include "acl/acl.h"
#include "glog/logging.h"

namespace {

// The failing calls: a bad device id (the runtime's own error path) and a
// null argument (the entry point's check). True when both failed.
bool FailingCalls() {
  const bool bad_device = aclrtSetDevice(100000) != ACL_SUCCESS;
  const bool null_arg =
      aclrtMalloc(nullptr, 64, ACL_MEM_MALLOC_HUGE_FIRST) != ACL_SUCCESS;
  return bad_device && null_arg;
}

bool Calls() {
  uint32_t count = 0;
  const bool counted = aclrtGetDeviceCount(&count) == ACL_SUCCESS;
  return FailingCalls() && counted && count > 0;
}

bool Threads() {
  constexpr int kThreads = 8;
  std::vector<std::thread> threads;
  std::vector<char> ok(kThreads, 0);
  for (int i = 0; i < kThreads; ++i) {
    threads.emplace_back([&ok, i] { ok[i] = FailingCalls() ? 1 : 0; });
  }
  for (std::thread& t : threads) t.join();
  for (char v : ok) {
    if (v == 0) return false;
  }
  return true;
}

bool Lifecycle() {
  if (aclInit(nullptr) != ACL_SUCCESS) return false;
  const bool failed = FailingCalls();
  return aclFinalize() == ACL_SUCCESS && failed;
}

bool GlogApp(const char* argv0) {
  // An application that uses glog itself and sends everything to stderr.
  google::InitGoogleLogging(argv0);
  FLAGS_logtostderr = true;
  LOG(INFO) << "application-info";
  return Calls();
}

}  // namespace

int main(int argc, char** argv) {
  const char* mode = argc > 1 ? argv[1] : "calls";
  bool ok = false;
  if (std::strcmp(mode, "calls") == 0) {
    ok = Calls();
  } else if (std::strcmp(mode, "threads") == 0) {
    ok = Threads();
  } else if (std::strcmp(mode, "lifecycle") == 0) {
    ok = Lifecycle();
  } else if (std::strcmp(mode, "glog_app") == 0) {
    ok = GlogApp(argv[0]);
  }
  return ok ? 0 : 1;
}
