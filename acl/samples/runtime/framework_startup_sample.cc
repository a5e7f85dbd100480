// Sample: the start-up a framework such as torch_npu performs before its
// first operator, then a process snapshot around a few of those settings.
//
// It initialises ACL, opens device 0, reads the SoC name and the device's
// core counts (aclGetDeviceCapability / aclrtGetDeviceInfo), sets saturation
// mode, the op-execute timeout and the deterministic system parameter, goes
// through the model dump trio with a dump configuration file, asks for the
// attributes of a fresh device allocation, and checks that the settings read
// back unchanged after Lock -> Backup -> device memory loss -> Restore ->
// Unlock. Prints "VERDICT: PASS" (exit status 0) or "VERDICT: FAIL".
#include <unistd.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "acl/acl.h"
#include "acl/samples/common/sample_utils.h"
#include "aclsim/aclsim.h"

namespace {

// The settings a framework makes once per process.
struct Settings {
  aclrtFloatOverflowMode sat_mode = ACL_RT_OVERFLOW_MODE_UNDEF;
  int64_t deterministic = -1;
};

int ReadSettings(Settings* out) {
  CHECK_ERROR(aclrtGetDeviceSatMode(&out->sat_mode));
  CHECK_ERROR(aclrtGetSysParamOpt(ACL_OPT_DETERMINISTIC, &out->deterministic));
  return 0;
}

// Writes a dump configuration (no dump requested) and returns its path.
std::string WriteDumpConfig() {
  const char* dir = std::getenv("TEST_TMPDIR");
  std::string path = std::string(dir != nullptr ? dir : "/tmp") +
                     "/framework_startup_dump_" + std::to_string(getpid()) +
                     ".json";
  FILE* file = std::fopen(path.c_str(), "w");
  if (file == nullptr) return "";
  std::fputs(
      "{\"dump\": {\"dump_list\": [], \"dump_path\": \"/tmp\", "
      "\"dump_mode\": \"output\"}}\n",
      file);
  std::fclose(file);
  return path;
}

int Run() {
  CHECK_ERROR(aclrtSetDevice(0));
  const char* soc = aclrtGetSocName();
  if (soc == nullptr) {
    ERROR_LOG("no SoC name");
    return -1;
  }
  int64_t ai_cores = 0;
  int64_t vector_cores = 0;
  CHECK_ERROR(
      aclGetDeviceCapability(0, ACL_DEVICE_INFO_AI_CORE_NUM, &ai_cores));
  CHECK_ERROR(
      aclrtGetDeviceInfo(0, ACL_DEV_ATTR_VECTOR_CORE_NUM, &vector_cores));
  INFO_LOG("%s: %lld AI cores, %lld vector cores", soc,
           static_cast<long long>(ai_cores),
           static_cast<long long>(vector_cores));
  if (ai_cores <= 0 || vector_cores <= 0) {
    ERROR_LOG("implausible core counts");
    return -1;
  }

  CHECK_ERROR(aclrtSetDeviceSatMode(ACL_RT_OVERFLOW_MODE_INFNAN));
  uint64_t actual_timeout = 0;
  CHECK_ERROR(aclrtSetOpExecuteTimeOutV2(1800, &actual_timeout));
  INFO_LOG("op-execute timeout asked 1800, in effect %llu",
           static_cast<unsigned long long>(actual_timeout));
  CHECK_ERROR(aclrtSetSysParamOpt(ACL_OPT_DETERMINISTIC, 1));

  const std::string dump_config = WriteDumpConfig();
  if (dump_config.empty()) {
    ERROR_LOG("cannot write the dump configuration");
    return -1;
  }
  CHECK_ERROR(aclmdlInitDump());
  CHECK_ERROR(aclmdlSetDump(dump_config.c_str()));
  CHECK_ERROR(aclmdlFinalizeDump());
  std::remove(dump_config.c_str());

  void* dev = nullptr;
  CHECK_ERROR(aclrtMalloc(&dev, 1 << 20, ACL_MEM_MALLOC_HUGE_FIRST));
  aclrtPtrAttributes attributes{};
  CHECK_ERROR(aclrtPointerGetAttributes(dev, &attributes));
  if (attributes.location.type != ACL_MEM_LOCATION_TYPE_DEVICE ||
      attributes.location.id != 0) {
    ERROR_LOG("a device allocation is not reported as device 0's memory");
    return -1;
  }

  Settings before;
  if (ReadSettings(&before) != 0) return -1;
  const int pid = static_cast<int>(getpid());
  CHECK_ERROR(aclrtSnapShotProcessLock(pid, nullptr));
  CHECK_ERROR(aclrtSnapShotProcessBackup(pid, nullptr));
  CHECK_ERROR(aclsimInjectFault(0, ACLSIM_FAULT_DEVICE_MEMORY_LOSS));
  CHECK_ERROR(aclrtSnapShotProcessRestore(pid, nullptr));
  CHECK_ERROR(aclrtSnapShotProcessUnlock(pid, nullptr));
  Settings after;
  if (ReadSettings(&after) != 0) return -1;
  INFO_LOG("saturation mode %d -> %d, deterministic %lld -> %lld",
           static_cast<int>(before.sat_mode), static_cast<int>(after.sat_mode),
           static_cast<long long>(before.deterministic),
           static_cast<long long>(after.deterministic));
  const bool kept = before.sat_mode == ACL_RT_OVERFLOW_MODE_INFNAN &&
                    after.sat_mode == before.sat_mode &&
                    before.deterministic == 1 &&
                    after.deterministic == before.deterministic;
  CHECK_ERROR(aclrtFree(dev));
  CHECK_ERROR(aclrtResetDevice(0));
  if (!kept) {
    ERROR_LOG("the settings changed across the snapshot");
    return -1;
  }
  return 0;
}

}  // namespace

int main() { return RunSample(Run); }
