#include "acl/lifecycle/test_util.h"

#include <sys/stat.h>

#include <cstdlib>
#include <fstream>
#include <thread>
#include <utility>

#include "absl/strings/str_cat.h"
#include "glog/logging.h"

namespace ascend::acl::testing {
namespace {

std::string TempDir() {
  const char* dir = std::getenv("TEST_TMPDIR");
  return dir != nullptr ? dir : "/tmp";
}

}  // namespace

void Recorder::Add(std::string event) {
  std::lock_guard<std::mutex> lock(mu_);
  events_.push_back(std::move(event));
}

std::vector<std::string> Recorder::events() const {
  std::lock_guard<std::mutex> lock(mu_);
  return events_;
}

void Recorder::Clear() {
  std::lock_guard<std::mutex> lock(mu_);
  events_.clear();
}

void Event::Notify() {
  std::lock_guard<std::mutex> lock(mu_);
  notified_ = true;
  cv_.notify_all();
}

bool Event::WaitFor(std::chrono::milliseconds timeout) {
  std::unique_lock<std::mutex> lock(mu_);
  return cv_.wait_for(lock, timeout, [this] { return notified_; });
}

aclError RecordInit(const char* config, size_t len, void* user_data) {
  auto* probe = static_cast<Probe*>(user_data);
  ++probe->calls;
  probe->last_config.assign(config, len);
  probe->last_config_pointer = config;
  probe->recorder->Add(absl::StrCat("init:", probe->name));
  if (probe->action) probe->action();
  return probe->result;
}

aclError RecordFinalize(void* user_data) {
  auto* probe = static_cast<Probe*>(user_data);
  ++probe->calls;
  probe->recorder->Add(absl::StrCat("finalize:", probe->name));
  if (probe->action) probe->action();
  return probe->result;
}

std::string WriteTempFile(absl::string_view name, absl::string_view contents) {
  std::string path = absl::StrCat(TempDir(), "/", name);
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out.write(contents.data(), static_cast<std::streamsize>(contents.size()));
  CHECK(out.good()) << "cannot write " << path;
  return path;
}

std::string MakeTempDir(absl::string_view name) {
  std::string path = absl::StrCat(TempDir(), "/", name);
  mkdir(path.c_str(), 0755);
  return path;
}

void RunThreads(int threads, const std::function<void(int)>& body,
                std::chrono::seconds timeout) {
  std::mutex mu;
  std::condition_variable cv;
  bool go = false;
  int done = 0;
  std::vector<std::thread> pool;
  pool.reserve(threads);
  for (int i = 0; i < threads; ++i) {
    pool.emplace_back([&, i] {
      {
        std::unique_lock<std::mutex> lock(mu);
        cv.wait(lock, [&] { return go; });
      }
      body(i);
      std::lock_guard<std::mutex> lock(mu);
      ++done;
      cv.notify_all();
    });
  }
  std::unique_lock<std::mutex> lock(mu);
  go = true;
  cv.notify_all();
  if (!cv.wait_for(lock, timeout, [&] { return done == threads; })) {
    // Joining deadlocked threads would hang the test; fail loudly instead.
    LOG(FATAL) << "only " << done << " of " << threads
               << " threads finished within " << timeout.count() << " s";
  }
  lock.unlock();
  for (std::thread& t : pool) t.join();
}

}  // namespace ascend::acl::testing
