// Helpers shared by the tests that drive streams through the ACL C API: host
// functions to queue (a gate that holds a stream, a flag setter) and running
// code on a fresh thread (one with no current context).
//
//   ascend::testing::HostGate gate;
//   aclrtLaunchHostFunc(stream, &ascend::testing::HostGate::Wait, &gate);
//   ...the stream is held...
//   gate.Open();
#ifndef ASCENDCL_TESTING_HOST_CALLBACKS_H_
#define ASCENDCL_TESTING_HOST_CALLBACKS_H_

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <mutex>
#include <thread>

namespace ascend::testing {

// Runs `fn` on a fresh thread and joins it.
template <typename Fn>
void OnNewThread(Fn fn) {
  std::thread thread(fn);
  thread.join();
}

// A host function that holds its stream until Open() (or 10 s, so a failing
// test never hangs).
class HostGate {
 public:
  static void Wait(void* self) {
    auto* gate = static_cast<HostGate*>(self);
    std::unique_lock<std::mutex> lock(gate->mu_);
    gate->cv_.wait_for(lock, std::chrono::seconds(10),
                       [gate] { return gate->open_; });
  }
  void Open() {
    std::lock_guard<std::mutex> lock(mu_);
    open_ = true;
    cv_.notify_all();
  }

 private:
  std::mutex mu_;
  std::condition_variable cv_;
  bool open_ = false;
};

// A host function that sets the std::atomic<bool> it is given.
inline void SetFlag(void* flag) {
  static_cast<std::atomic<bool>*>(flag)->store(true);
}

}  // namespace ascend::testing

#endif  // ASCENDCL_TESTING_HOST_CALLBACKS_H_
