// The Chrome trace a collection writes (trace.json, DESIGN.md §5.24), read
// by a browser: a workload on two devices (streams, host functions, a
// model's executions, msproftx marks and ranges) is collected, and headless
// Chromium opens trace_view.html on the trace; the page parses it, checks
// the trace-event fields and reports its counts, which must be the ones in
// the file. Skips, saying why, where Chromium is not installed (Debian's
// chromium package; tools/setup.sh installs it). The trace and a screenshot
// of the page are left in the test's undeclared outputs.
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <set>
#include <sstream>
#include <string>
#include <thread>

#include "acl/acl.h"
#include "acl/acl_prof.h"
#include "gtest/gtest.h"
#include "nlohmann/json.hpp"
#include "testing/status_matchers.h"

namespace ascend {
namespace {

using nlohmann::json;

std::string Env(const char* name, const char* fallback) {
  const char* v = std::getenv(name);
  return v != nullptr ? v : fallback;
}

// The browser to use: $CHROMIUM, else the first of Debian's names on PATH.
std::string FindChromium() {
  const std::string chosen = Env("CHROMIUM", "");
  if (!chosen.empty()) return access(chosen.c_str(), X_OK) == 0 ? chosen : "";
  for (const char* name : {"chromium", "chromium-browser", "google-chrome"}) {
    const std::string path = Env("PATH", "/usr/bin:/bin");
    std::stringstream dirs(path);
    std::string dir;
    while (std::getline(dirs, dir, ':')) {
      const std::string candidate = dir + "/" + name;
      if (access(candidate.c_str(), X_OK) == 0) return candidate;
    }
  }
  return "";
}

std::string Shell(const std::string& command) {
  std::string out;
  FILE* p = popen(command.c_str(), "r");
  if (p == nullptr) return out;
  char buf[4096];
  size_t n;
  while ((n = fread(buf, 1, sizeof buf, p)) > 0) out.append(buf, n);
  pclose(p);
  return out;
}

void Sleep(void* ms) {
  std::this_thread::sleep_for(
      std::chrono::milliseconds(reinterpret_cast<intptr_t>(ms)));
}

class ChromiumTraceTest : public ::testing::Test {
 protected:
  void TearDown() override {
    (void)aclprofFinalize();
    (void)aclrtResetDeviceForce(1);
    (void)aclrtResetDeviceForce(0);
  }
};

// Collects a small workload and returns the path of its trace.json.
std::string CollectWorkload(const std::string& root) {
  aclrtStream s0 = nullptr, s1 = nullptr, s2 = nullptr;
  void* a = nullptr;
  void* b = nullptr;
  EXPECT_ACL_OK(aclrtSetDevice(1));
  EXPECT_ACL_OK(aclrtCreateStream(&s2));
  EXPECT_ACL_OK(aclrtMalloc(&b, 1 << 20, ACL_MEM_MALLOC_HUGE_FIRST));
  EXPECT_ACL_OK(aclrtSetDevice(0));
  EXPECT_ACL_OK(aclrtCreateStream(&s0));
  EXPECT_ACL_OK(aclrtCreateStream(&s1));
  EXPECT_ACL_OK(aclrtMalloc(&a, 1 << 20, ACL_MEM_MALLOC_HUGE_FIRST));
  // A model captured before the collection: its tasks appear at each run.
  EXPECT_ACL_OK(aclmdlRICaptureBegin(s1, ACL_MODEL_RI_CAPTURE_MODE_RELAXED));
  EXPECT_ACL_OK(aclrtMemsetAsync(a, 1 << 20, 3, 1 << 20, s1));
  EXPECT_ACL_OK(aclrtLaunchHostFunc(s1, &Sleep, reinterpret_cast<void*>(2)));
  aclmdlRI model = nullptr;
  EXPECT_ACL_OK(aclmdlRICaptureEnd(s1, &model));

  EXPECT_ACL_OK(aclprofInit(root.c_str(), root.size()));
  uint32_t devices[] = {0, 1};
  aclprofConfig* config =
      aclprofCreateConfig(devices, 2, ACL_AICORE_NONE, nullptr,
                          ACL_PROF_TASK_TIME | ACL_PROF_MSPROFTX);
  EXPECT_NE(config, nullptr);
  EXPECT_ACL_OK(aclprofStart(config));
  void* outer = aclprofCreateStamp();
  void* point = aclprofCreateStamp();
  EXPECT_ACL_OK(aclprofSetStampTraceMessage(outer, "training loop", 13));
  EXPECT_ACL_OK(aclprofSetStampTraceMessage(point, "batch ready", 11));
  EXPECT_ACL_OK(aclprofPush(outer));
  std::vector<uint8_t> host(1 << 20);
  for (int step = 0; step < 3; ++step) {
    EXPECT_ACL_OK(aclprofMark(point));
    EXPECT_ACL_OK(aclrtMemsetAsync(a, 1 << 20, step, 1 << 20, s0));
    EXPECT_ACL_OK(aclrtLaunchHostFunc(s0, &Sleep, reinterpret_cast<void*>(3)));
    EXPECT_ACL_OK(aclrtMemcpyAsync(host.data(), host.size(), a, 1 << 20,
                                   ACL_MEMCPY_DEVICE_TO_HOST, s0));
    EXPECT_ACL_OK(aclmdlRIExecuteAsync(model, s1));
    EXPECT_ACL_OK(aclrtSetDevice(1));
    EXPECT_ACL_OK(aclrtMemsetAsync(b, 1 << 20, step, 1 << 20, s2));
    EXPECT_ACL_OK(aclrtLaunchHostFunc(s2, &Sleep, reinterpret_cast<void*>(2)));
    EXPECT_ACL_OK(aclrtSynchronizeStream(s2));
    EXPECT_ACL_OK(aclrtSetDevice(0));
    EXPECT_ACL_OK(aclrtSynchronizeStream(s0));
    EXPECT_ACL_OK(aclrtSynchronizeStream(s1));
  }
  EXPECT_ACL_OK(aclprofPop());
  aclprofDestroyStamp(outer);
  aclprofDestroyStamp(point);
  EXPECT_ACL_OK(aclprofStop(config));
  EXPECT_ACL_OK(aclprofDestroyConfig(config));
  EXPECT_ACL_OK(aclmdlRIDestroy(model));
  return Shell("ls -d " + root + "/PROF_*/trace.json | tr -d '\\n'");
}

TEST_F(ChromiumTraceTest, ChromiumParsesTheTraceAndCountsItsEvents) {
  const std::string chromium = FindChromium();
  if (chromium.empty()) {
    GTEST_SKIP() << "Chromium is not installed (apt-get install chromium, "
                    "or bash tools/setup.sh; or set $CHROMIUM): the trace "
                    "is not checked in a browser";
  }
  const std::string tmp = Env("TEST_TMPDIR", "/tmp");
  const std::string trace_path = CollectWorkload(tmp + "/prof");
  ASSERT_FALSE(trace_path.empty());
  // The counts the page must find, read here with a JSON library.
  std::ifstream in(trace_path);
  const json trace = json::parse(in);
  size_t complete = 0, instant = 0, metadata = 0;
  std::set<std::string> tracks;
  std::set<int> device_pids;
  for (const json& e : trace["traceEvents"]) {
    const std::string ph = e["ph"];
    if (ph == "X") ++complete;
    if (ph == "i") ++instant;
    if (ph == "M") ++metadata;
    if (ph == "X" || ph == "i") {
      tracks.insert(std::to_string(e["pid"].get<int>()) + ":" +
                    std::to_string(e["tid"].get<int>()));
      if (e["pid"].get<int>() > 0) device_pids.insert(e["pid"].get<int>());
    }
  }
  // Host, device 0 (two streams and the model's runner), device 1.
  EXPECT_EQ(device_pids, (std::set<int>{1, 2}));
  EXPECT_GE(complete, 3u * 8u);
  EXPECT_EQ(instant, 3u);  // the marks
  const std::string expected =
      "parsed events=" + std::to_string(trace["traceEvents"].size()) +
      " complete=" + std::to_string(complete) +
      " instant=" + std::to_string(instant) +
      " metadata=" + std::to_string(metadata) +
      " tracks=" + std::to_string(tracks.size()) + " errors=0";

  const std::string page = Env("TEST_SRCDIR", ".") +
                           "/ascendcl/acl/prof/trace_viewer/trace_view.html";
  ASSERT_EQ(access(page.c_str(), R_OK), 0) << page;
  const std::string url = "file://" + page + "?trace=file://" + trace_path;
  const std::string flags =
      " --headless --no-sandbox --disable-gpu --disable-dev-shm-usage"
      " --allow-file-access-from-files --no-first-run"
      " --user-data-dir=" +
      tmp + "/chromium-profile";
  const std::string env = "HOME=" + tmp + " timeout 120 ";
  const std::string dom = Shell(env + chromium + flags + " --dump-dom '" + url +
                                "' 2>" + tmp + "/chromium.log");
  EXPECT_NE(dom.find(expected), std::string::npos)
      << "expected \"" << expected << "\" in the page; it shows:\n"
      << dom.substr(0, 2000) << "\n(browser log: " << tmp << "/chromium.log)";

  // For a person: the trace and a picture of it.
  const std::string outputs = Env("TEST_UNDECLARED_OUTPUTS_DIR", "");
  if (!outputs.empty()) {
    Shell("cp '" + trace_path + "' '" + outputs + "/trace.json'");
    Shell(env + chromium + flags + " --hide-scrollbars --window-size=1400,340" +
          " --screenshot=" + outputs + "/profiling_trace.png '" + url +
          "' 2>>" + tmp + "/chromium.log");
  }
}

}  // namespace
}  // namespace ascend
