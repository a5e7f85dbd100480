// Profiling with acl/acl_prof.h and mstx: a collection of device 0's task
// timeline and of host marks around some copies, then a look at the files
// it wrote (DESIGN.md §5.24 describes them).
#include <dirent.h>

#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "acl/acl_prof.h"
#include "common/example_utils.h"
#include "mstx/ms_tools_ext.h"

namespace {

// The PROF_* directory the collection wrote under `root`.
std::string FindCollection(const std::string& root) {
  DIR* dir = opendir(root.c_str());
  if (dir == nullptr) return "";
  std::string found;
  while (dirent* e = readdir(dir)) {
    if (std::string(e->d_name).rfind("PROF_", 0) == 0) found = e->d_name;
  }
  closedir(dir);
  return found.empty() ? "" : root + "/" + found;
}

int CountLines(const std::string& path) {
  std::ifstream in(path);
  std::string line;
  int n = 0;
  while (std::getline(in, line)) ++n;
  return n;
}

}  // namespace

int main() {
  constexpr size_t kBytes = 1 << 20;
  EXAMPLE_CHECK(aclInit(nullptr));
  EXAMPLE_CHECK(aclrtSetDevice(0));
  aclrtStream stream = nullptr;
  EXAMPLE_CHECK(aclrtCreateStream(&stream));
  void* dev = nullptr;
  EXAMPLE_CHECK(aclrtMalloc(&dev, kBytes, ACL_MEM_MALLOC_HUGE_FIRST));
  std::vector<unsigned char> host(kBytes, 7);

  const std::string root = "./prof_out";
  EXAMPLE_CHECK(aclprofInit(root.c_str(), root.size()));
  uint32_t devices[] = {0};
  aclprofConfig* config = aclprofCreateConfig(
      devices, 1, ACL_AICORE_NONE, nullptr,
      ACL_PROF_TASK_TIME | ACL_PROF_MSPROFTX);
  if (config == nullptr) {
    EXAMPLE_ERROR("aclprofCreateConfig failed");
    return 1;
  }
  EXAMPLE_CHECK(aclprofStart(config));

  mstxDomainHandle_t copies = mstxDomainCreateA("copies");
  void* stamp = aclprofCreateStamp();
  EXAMPLE_CHECK(aclprofSetStampTraceMessage(stamp, "round trip", 10));
  for (int round = 0; round < 2; ++round) {
    EXAMPLE_CHECK(aclprofPush(stamp));
    const mstxRangeId id = mstxDomainRangeStartA(copies, "h2d+d2h", stream);
    EXAMPLE_CHECK(aclrtMemcpyAsync(dev, kBytes, host.data(), kBytes,
                                   ACL_MEMCPY_HOST_TO_DEVICE, stream));
    EXAMPLE_CHECK(aclrtMemcpyAsync(host.data(), kBytes, dev, kBytes,
                                   ACL_MEMCPY_DEVICE_TO_HOST, stream));
    EXAMPLE_CHECK(aclrtSynchronizeStream(stream));
    mstxDomainRangeEnd(copies, id);
    EXAMPLE_CHECK(aclprofPop());
  }
  mstxMarkA("copies done", nullptr);
  // Tasks still queued at aclprofStop are not in its data.
  EXAMPLE_CHECK(aclrtSynchronizeStream(stream));
  aclprofDestroyStamp(stamp);
  mstxDomainDestroy(copies);

  EXAMPLE_CHECK(aclprofStop(config));
  EXAMPLE_CHECK(aclprofDestroyConfig(config));
  EXAMPLE_CHECK(aclprofFinalize());

  // 4 copies and, with a stream, 2 marks per mstx range (start and end) on
  // the stream; 2 push/pop ranges, 2 mstx ranges and 1 mstx mark.
  const std::string dir = FindCollection(root);
  std::ifstream trace(dir + "/trace.json");
  const std::string text((std::istreambuf_iterator<char>(trace)),
                         std::istreambuf_iterator<char>());
  const bool trace_ok = text.find("\"traceEvents\":[") != std::string::npos;
  std::printf("Collection: %s\n", dir.c_str());
  std::printf("Profiling result: %d tasks, %d marks, trace %s\n",
              CountLines(dir + "/tasks.jsonl"),
              CountLines(dir + "/marks.jsonl"), trace_ok ? "ok" : "missing");

  EXAMPLE_CHECK(aclrtFree(dev));
  EXAMPLE_CHECK(aclrtDestroyStream(stream));
  EXAMPLE_CHECK(aclrtResetDevice(0));
  EXAMPLE_CHECK(aclFinalize());
  return 0;
}
