// Child process of global_state_exit_test (DESIGN.md §4.6): locks the
// process, leaves application threads blocked in the gate and a background
// thread parked, then exits. Its exit path joins all of those threads, the
// way a runtime's teardown does, so it only finishes if exit forces the
// state back to RUNNING.
//
//   global_state_exit_child MODE STATE [INSTANCE]
//     MODE:     return | exit | exit_from_thread
//     STATE:    locked | backed_up
//     INSTANCE: singleton (default) | private (a GlobalState that no exit
//               hook knows about; its exit must hang: the test's control)
//
// Exit status 0 on a clean exit; 2..6 name the step that went wrong. Just
// before exiting it writes "exiting" to the file named by $GS_EXIT_MARKER.
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

#include "absl/status/status.h"
#include "absl/time/clock.h"
#include "absl/time/time.h"
#include "runtime/global_state.h"

namespace ascend::rt {
namespace {

constexpr int kGateThreads = 3;

// Records, in the file named by $GS_EXIT_MARKER, that the process is about
// to exit while locked, so the parent can tell a hang in exit from one before.
void MarkExiting() {
  const char* path = std::getenv("GS_EXIT_MARKER");
  if (path == nullptr) return;
  if (FILE* f = std::fopen(path, "w")) {
    std::fputs("exiting\n", f);
    std::fclose(f);
  }
}

bool WaitFor(bool (*pred)(void*), void* arg, absl::Duration limit) {
  const absl::Time deadline = absl::Now() + limit;
  while (!pred(arg)) {
    if (absl::Now() > deadline) return false;
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  return true;
}

// Stands for the runtime's teardown. Constructed during static
// initialisation, i.e. before the first GlobalState::Get(), so it is
// destroyed after the exit hook that Get() registers.
class Teardown {
 public:
  ~Teardown() {
    if (gs_ == nullptr) return;  // main failed before setting anything up
    {
      std::lock_guard<std::mutex> lock(mu_);
      stop_ = true;
    }
    cv_.notify_all();
    for (std::thread& t : threads_) {
      if (t.joinable()) t.join();
    }
    background_.reset();
    if (ran_.load() != kGateThreads) {
      std::fprintf(stderr, "only %d of %d blocked callers ran\n", ran_.load(),
                   kGateThreads);
      std::fflush(stderr);
      _exit(6);
    }
  }

  GlobalState* gs_ = nullptr;
  std::unique_ptr<GlobalState::BackgroundThread> background_;
  std::vector<std::thread> threads_;
  std::mutex mu_;
  std::condition_variable cv_;
  bool stop_ = false;
  bool woken_ = false;
  std::atomic<int> ran_{0};
  std::atomic<int> background_waiting_{0};
};

Teardown teardown;

void BackgroundLoop() {
  for (;;) {
    teardown.background_->ParkIfLocked();
    std::unique_lock<std::mutex> lock(teardown.mu_);
    teardown.background_waiting_.store(1);
    teardown.cv_.wait(lock, [] { return teardown.woken_ || teardown.stop_; });
    teardown.woken_ = false;
    if (teardown.stop_) return;
  }
}

int Run(int argc, char** argv) {
  if (argc < 3) return 2;
  const std::string mode = argv[1];
  const std::string state = argv[2];
  const bool singleton = argc < 4 || std::strcmp(argv[3], "private") != 0;
  GlobalState& gs =
      singleton ? GlobalState::Get()
                : *new GlobalState(GlobalState::Options{absl::Seconds(5)});
  teardown.gs_ = &gs;
  teardown.background_ = gs.RegisterBackgroundThread("monitor", [] {
    {
      std::lock_guard<std::mutex> lock(teardown.mu_);
      teardown.woken_ = true;
    }
    teardown.cv_.notify_all();
  });
  teardown.threads_.emplace_back(BackgroundLoop);
  if (!WaitFor(
          +[](void*) { return teardown.background_waiting_.load() != 0; },
          nullptr, absl::Seconds(5))) {
    return 3;
  }
  absl::Status lock = gs.Lock();
  if (!lock.ok()) {
    std::fprintf(stderr, "Lock: %s\n", lock.ToString().c_str());
    return 4;
  }
  if (state == "backed_up" &&
      !gs.CompareAndSetState(ProcessState::kLocked, ProcessState::kBackedUp)) {
    return 4;
  }
  for (int i = 0; i < kGateThreads; ++i) {
    teardown.threads_.emplace_back([g = &gs] {
      ApiScope scope(*g);
      teardown.ran_.fetch_add(1);
    });
  }
  if (!WaitFor(
          +[](void* g) {
            return static_cast<GlobalState*>(g)->blocked_callers() ==
                   kGateThreads;
          },
          &gs, absl::Seconds(5))) {
    return 5;
  }
  if (mode == "return") {
    MarkExiting();
    return 0;
  }
  if (mode == "exit") {
    MarkExiting();
    std::exit(0);
  }
  if (mode == "exit_from_thread") {
    // Another thread exits while this one is itself blocked in the gate.
    std::thread([g = &gs] {
      if (!WaitFor(
              +[](void* arg) {
                return static_cast<GlobalState*>(arg)->blocked_callers() ==
                       kGateThreads + 1;
              },
              g, absl::Seconds(5))) {
        _exit(5);
      }
      MarkExiting();
      std::exit(0);
    }).detach();
    ApiScope scope(gs);
    // Woken by the exit hook while the other thread runs exit(): stay out
    // of the way until the process is gone.
    for (;;) pause();
  }
  return 2;
}

}  // namespace
}  // namespace ascend::rt

int main(int argc, char** argv) { return ascend::rt::Run(argc, argv); }
