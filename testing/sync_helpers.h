// Synchronisation helpers for tests, on std::mutex and
// std::condition_variable, which ThreadSanitizer sees (it cannot see the
// system abseil's primitives).
//
//   ascend::testing::Event ready;
//   std::thread t([&] { ...; ready.Notify(); });
//   ASSERT_TRUE(ready.WaitFor(absl::Seconds(5)));
//
//   // A call that must not deadlock:
//   ascend::testing::RunWithDeadline("Lock from a callback", [&] { ... });
#ifndef ASCENDCL_TESTING_SYNC_HELPERS_H_
#define ASCENDCL_TESTING_SYNC_HELPERS_H_

#include <condition_variable>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <utility>

#include "absl/time/time.h"

namespace ascend::testing {

// A one-shot event.
class Event {
 public:
  void Notify() {
    std::lock_guard<std::mutex> lock(mu_);
    done_ = true;
    cv_.notify_all();
  }
  bool HasBeenNotified() const {
    std::lock_guard<std::mutex> lock(mu_);
    return done_;
  }
  void Wait() {
    std::unique_lock<std::mutex> lock(mu_);
    cv_.wait(lock, [this] { return done_; });
  }
  bool WaitFor(absl::Duration limit) {
    std::unique_lock<std::mutex> lock(mu_);
    return cv_.wait_for(lock, absl::ToChronoMilliseconds(limit),
                        [this] { return done_; });
  }

 private:
  mutable std::mutex mu_;
  std::condition_variable cv_;
  bool done_ = false;
};

// Runs `fn` on its own thread and waits for it at most `limit`. A call that
// does not return (a deadlock) ends the test binary with a failure instead of
// hanging it.
inline void RunWithDeadline(const std::string& what, std::function<void()> fn,
                            absl::Duration limit = absl::Seconds(20)) {
  auto done = std::make_shared<Event>();
  std::thread([fn = std::move(fn), done] {
    fn();
    done->Notify();
  }).detach();
  if (!done->WaitFor(limit)) {
    std::fprintf(stderr, "FATAL: %s did not return within %s (deadlock)\n",
                 what.c_str(), absl::FormatDuration(limit).c_str());
    std::fflush(stderr);
    std::_Exit(1);
  }
}

}  // namespace ascend::testing

#endif  // ASCENDCL_TESTING_SYNC_HELPERS_H_
