// Sample: snapshot stage callbacks across two open devices.
//
// Registers one callback for each of the six stages, opens devices 0 and 1,
// runs Lock -> Backup -> Restore -> Unlock and prints every callback call
// with its logical device id and the process state it saw. Callbacks run
// once per open device, in ascending device id, for each stage in turn.
// Then shows a failing callback: a LOCK_PRE callback that refuses on device
// 1 makes Lock fail with ACL_ERROR_SNAPSHOT_CALLBACK_FAILED and leaves the
// process running.
//
// Prints each step and ends with "VERDICT: PASS" or "VERDICT: FAIL".
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include <string>
#include <vector>

#include "acl/acl.h"
#include "aclsim/aclsim.h"
#include "runtime/rt_snapshot.h"

namespace {

int g_failures = 0;

#define CHECK_ACL(call)                                            \
  do {                                                             \
    aclError check_acl_ret_ = (call);                              \
    if (check_acl_ret_ != ACL_SUCCESS) {                           \
      printf("  FAILED: %s returned %d\n", #call, check_acl_ret_); \
      ++g_failures;                                                \
      return false;                                                \
    }                                                              \
  } while (0)

const char* const kStageNames[] = {"LOCK_PRE",     "BACKUP_PRE",
                                   "BACKUP_POST",  "RESTORE_PRE",
                                   "RESTORE_POST", "UNLOCK_POST"};
const char* const kStateNames[] = {"RUNNING", "LOCKED", "BACKED_UP"};

struct StageLog {
  int stage;
  std::vector<std::string>* calls;
};

// One callback function serves all stages; `args` says which.
uint32_t OnStage(int32_t device_id, void* args) {
  auto* log = static_cast<StageLog*>(args);
  rtProcessState state = RT_PROCESS_STATE_MAX;
  rtSnapShotProcessGetState(&state);
  const char* state_name =
      state >= RT_PROCESS_STATE_RUNNING && state <= RT_PROCESS_STATE_BACKED_UP
          ? kStateNames[state]
          : "UNKNOWN";
  char line[96];
  snprintf(line, sizeof(line), "%s(device %d, state %s)",
           kStageNames[log->stage], device_id, state_name);
  printf("    callback %s\n", line);
  log->calls->push_back(line);
  return 0;
}

// A second LOCK_PRE callback that refuses on device 1.
uint32_t RefuseOnDevice1(int32_t device_id, void*) {
  printf("    callback RefuseOnDevice1(device %d) -> %s\n", device_id,
         device_id == 1 ? "refuse" : "ok");
  return device_id == 1 ? 1 : 0;
}

bool Run() {
  const int pid = static_cast<int>(getpid());
  std::vector<std::string> calls;
  StageLog logs[6];
  printf("[1] register a callback for every stage\n");
  for (int stage = 0; stage < 6; ++stage) {
    logs[stage] = StageLog{stage, &calls};
    CHECK_ACL(aclrtSnapShotCallbackRegister(
        static_cast<aclrtSnapShotStage>(stage), &OnStage, &logs[stage]));
  }
  // Registering the same function for the same stage again is refused.
  const aclError dup = aclrtSnapShotCallbackRegister(ACL_RT_SNAPSHOT_LOCK_PRE,
                                                     &OnStage, &logs[0]);
  printf("  registering it twice for LOCK_PRE: %d (expected %d)\n", dup,
         ACL_ERROR_SNAPSHOT_REGISTER_CALLBACK_FAILED);
  if (dup != ACL_ERROR_SNAPSHOT_REGISTER_CALLBACK_FAILED) ++g_failures;

  printf("[2] open devices 1 and 0 (in that order)\n");
  CHECK_ACL(aclrtSetDevice(1));
  CHECK_ACL(aclrtSetDevice(0));

  printf("[3] lock, back up, restore, unlock\n");
  printf("  lock\n");
  CHECK_ACL(aclrtSnapShotProcessLock(pid, nullptr));
  printf("  backup\n");
  CHECK_ACL(aclrtSnapShotProcessBackup(pid, nullptr));
  printf("  restore\n");
  CHECK_ACL(aclrtSnapShotProcessRestore(pid, nullptr));
  printf("  unlock\n");
  CHECK_ACL(aclrtSnapShotProcessUnlock(pid, nullptr));

  const std::vector<std::string> expected = {
      "LOCK_PRE(device 0, state RUNNING)",
      "LOCK_PRE(device 1, state RUNNING)",
      "BACKUP_PRE(device 0, state LOCKED)",
      "BACKUP_PRE(device 1, state LOCKED)",
      "BACKUP_POST(device 0, state LOCKED)",
      "BACKUP_POST(device 1, state LOCKED)",
      "RESTORE_PRE(device 0, state BACKED_UP)",
      "RESTORE_PRE(device 1, state BACKED_UP)",
      "RESTORE_POST(device 0, state BACKED_UP)",
      "RESTORE_POST(device 1, state BACKED_UP)",
      "UNLOCK_POST(device 0, state RUNNING)",
      "UNLOCK_POST(device 1, state RUNNING)"};
  const bool order_ok = calls == expected;
  printf("  %zu callback calls, order %s\n", calls.size(),
         order_ok ? "as expected (stages in turn, devices ascending)"
                  : "UNEXPECTED");
  if (!order_ok) ++g_failures;

  printf("[4] a LOCK_PRE callback that refuses on device 1\n");
  calls.clear();
  CHECK_ACL(aclrtSnapShotCallbackRegister(ACL_RT_SNAPSHOT_LOCK_PRE,
                                          &RefuseOnDevice1, nullptr));
  const aclError lock = aclrtSnapShotProcessLock(pid, nullptr);
  rtProcessState state = RT_PROCESS_STATE_MAX;
  rtSnapShotProcessGetState(&state);
  printf("  lock returned %d (expected %d), state %s\n", lock,
         ACL_ERROR_SNAPSHOT_CALLBACK_FAILED,
         state == RT_PROCESS_STATE_RUNNING ? "RUNNING" : "not RUNNING");
  if (lock != ACL_ERROR_SNAPSHOT_CALLBACK_FAILED ||
      state != RT_PROCESS_STATE_RUNNING) {
    ++g_failures;
  }
  // OnStage (registered first) ran on both devices before the refusal.
  if (calls.size() != 2) ++g_failures;

  printf("[5] unregister and clean up\n");
  CHECK_ACL(aclrtSnapShotCallbackUnregister(ACL_RT_SNAPSHOT_LOCK_PRE,
                                            &RefuseOnDevice1));
  for (int stage = 0; stage < 6; ++stage) {
    CHECK_ACL(aclrtSnapShotCallbackUnregister(
        static_cast<aclrtSnapShotStage>(stage), &OnStage));
  }
  CHECK_ACL(aclrtResetDeviceForce(0));
  CHECK_ACL(aclrtResetDeviceForce(1));
  return true;
}

}  // namespace

int main() {
  printf("stage callbacks sample: callback order across two devices\n");
  aclError ret = aclInit(nullptr);
  if (ret != ACL_SUCCESS) {
    printf("aclInit failed: %d\nVERDICT: FAIL\n", ret);
    return 1;
  }
  uint32_t count = 0;
  if (aclrtGetDeviceCount(&count) != ACL_SUCCESS || count < 2) {
    printf("need at least two devices, have %u\nVERDICT: FAIL\n", count);
    return 1;
  }
  const bool completed = Run();
  ret = aclFinalize();
  if (ret != ACL_SUCCESS) {
    printf("aclFinalize failed: %d\n", ret);
    ++g_failures;
  }
  const bool pass = completed && g_failures == 0;
  printf("VERDICT: %s\n", pass ? "PASS" : "FAIL");
  return pass ? 0 : 1;
}
