// The lifecycle and snapshot fuzzer's model: its checks, the callbacks it
// registers and its predictions (snapshot_lifecycle_model.h).
#include "testing/fuzz/snapshot_lifecycle_model.h"

#include <unistd.h>

#include <cstdio>
#include <cstdlib>

#include "acl/error_codes/rt_error_codes.h"

namespace snapshot_lifecycle_fuzz {

// --- Trace and failure ---

std::vector<std::string> g_trace;

[[noreturn]] void Mismatch(const std::string& what) {
  std::fprintf(stderr, "snapshot/lifecycle model mismatch: %s\ntrace:\n",
               what.c_str());
  for (const std::string& line : g_trace) {
    std::fprintf(stderr, "  %s\n", line.c_str());
  }
  std::fflush(stderr);
  std::abort();
}

int32_t State() {
  rtProcessState state = RT_PROCESS_STATE_MAX;
  if (rtSnapShotProcessGetState(&state) != 0) Mismatch("GetState failed");
  return static_cast<int32_t>(state);
}

// --- Callbacks and their invocation log ---

std::vector<Call> g_calls;

LifecycleBehaviour g_init_behaviours[3] = {
    {0, ACL_SUCCESS}, {1, ACL_SUCCESS}, {2, kInitFailCode}};
LifecycleBehaviour g_fin_behaviours[3] = {
    {0, ACL_SUCCESS}, {1, ACL_SUCCESS}, {2, kFinalizeFailCode}};
int g_stage_behaviours[3] = {kStageOk, kStageFail, kStageReentrant};

namespace {

std::string Describe(const Call& c) {
  return std::string(1, c.kind) + "fn" + std::to_string(c.fn) + "/b" +
         std::to_string(c.behaviour) + "/dev" + std::to_string(c.device) +
         "/st" + std::to_string(c.state) + (c.reentry_ok ? "" : "/REENTRY-BAD");
}

template <int kFn>
aclError InitCallback(const char* config, size_t len, void* user_data) {
  auto* b = static_cast<LifecycleBehaviour*>(user_data);
  // aclInit(NULL): empty config bytes.
  if (config == nullptr || len != 0) Mismatch("init callback: config not \"\"");
  g_calls.push_back(Call{'I', kFn, b->index, -1, -1, true});
  return b->result;
}
template <int kFn>
aclError FinalizeCallback(void* user_data) {
  auto* b = static_cast<LifecycleBehaviour*>(user_data);
  g_calls.push_back(Call{'F', kFn, b->index, -1, -1, true});
  return b->result;
}

uint32_t StageB(int32_t device, void* args);

bool ReenterSnapshotApi() {
  const int pid = getpid();
  const int32_t before = State();
  bool ok =
      aclrtSnapShotProcessLock(pid, nullptr) ==
          ACL_ERROR_SNAPSHOT_LOCK_FAILED &&
      aclrtSnapShotProcessUnlock(pid, nullptr) ==
          ACL_ERROR_SNAPSHOT_UNLOCK_FAILED &&
      aclrtSnapShotProcessBackup(pid, nullptr) ==
          ACL_ERROR_SNAPSHOT_BACKUP_FAILED &&
      aclrtSnapShotProcessRestore(pid, nullptr) ==
          ACL_ERROR_SNAPSHOT_RESTORE_FAILED &&
      aclrtSnapShotCallbackRegister(ACL_RT_SNAPSHOT_LOCK_PRE, &StageB,
                                    nullptr) ==
          ACL_ERROR_SNAPSHOT_REGISTER_CALLBACK_FAILED &&
      aclrtSnapShotCallbackUnregister(ACL_RT_SNAPSHOT_LOCK_PRE, &StageB) ==
          ACL_ERROR_SNAPSHOT_REGISTER_CALLBACK_FAILED;
  return ok && State() == before;
}

template <int kFn>
uint32_t StageCallback(int32_t device, void* args) {
  const int behaviour = *static_cast<int*>(args);
  Call call{'S', kFn, behaviour, device, State(), true};
  if (behaviour == kStageReentrant) call.reentry_ok = ReenterSnapshotApi();
  g_calls.push_back(call);
  return behaviour == kStageFail ? 0xFA11u : 0u;
}
uint32_t StageB(int32_t device, void* args) {
  return StageCallback<1>(device, args);
}

}  // namespace

const aclInitCallbackFunc kInitFns[2] = {&InitCallback<0>, &InitCallback<1>};
const aclFinalizeCallbackFunc kFinFns[2] = {&FinalizeCallback<0>,
                                            &FinalizeCallback<1>};
const aclrtSnapShotCallBack kStageFns[2] = {&StageCallback<0>, &StageB};

// --- The model ---

const aclRegisterCallbackType kTypes[6] = {
    ACL_REG_TYPE_ACL_MODEL,       ACL_REG_TYPE_ACL_OP_EXECUTOR,
    ACL_REG_TYPE_ACL_OP_COMPILER, ACL_REG_TYPE_ACL_DVPP,
    ACL_REG_TYPE_OTHER,           static_cast<aclRegisterCallbackType>(42)};
// Notification order (aclInit with no config path skips OP_EXECUTOR).
const aclRegisterCallbackType kInitOrder[3] = {
    ACL_REG_TYPE_ACL_MODEL, ACL_REG_TYPE_ACL_DVPP, ACL_REG_TYPE_OTHER};
const aclRegisterCallbackType kFinOrder[4] = {
    ACL_REG_TYPE_ACL_OP_COMPILER, ACL_REG_TYPE_ACL_MODEL, ACL_REG_TYPE_ACL_DVPP,
    ACL_REG_TYPE_OTHER};

Model g_model;
std::vector<Call> g_expected;
// Whether this process tracks device writes (the snapshot report says
// after the first Backup); without it every Backup and Restore is full.
bool g_tracking = false;

void Expect(const char* what, aclError got, aclError want) {
  if (got != want) {
    Mismatch(std::string(what) + ": returned " + std::to_string(got) +
             ", model says " + std::to_string(want));
  }
}

void CheckCallsAndState(const char* what) {
  if (g_calls != g_expected) {
    std::string msg = std::string(what) + ": callbacks ran [";
    for (const Call& c : g_calls) msg += Describe(c) + " ";
    msg += "], model says [";
    for (const Call& c : g_expected) msg += Describe(c) + " ";
    Mismatch(msg + "]");
  }
  g_calls.clear();
  g_expected.clear();
  const int32_t state = State();
  if (state != g_model.state) {
    Mismatch(std::string(what) + ": state " + std::to_string(state) +
             ", model says " + std::to_string(g_model.state));
  }
}

// Predicts one lifecycle notification; returns the first failure code.
aclError PredictNotify(char kind, aclRegisterCallbackType type) {
  const auto& entries =
      kind == 'I' ? g_model.init_entries : g_model.fin_entries;
  for (const LifecycleEntry& e : entries) {
    if (e.type != type) continue;
    g_expected.push_back(Call{kind, e.fn, e.behaviour, -1, -1, true});
    const aclError r = kind == 'I' ? g_init_behaviours[e.behaviour].result
                                   : g_fin_behaviours[e.behaviour].result;
    if (r != ACL_SUCCESS) return r;
  }
  return ACL_SUCCESS;
}

aclError PredictFinalizeInternal() {
  for (aclRegisterCallbackType type : kFinOrder) {
    const aclError r = PredictNotify('F', type);
    if (r != ACL_SUCCESS) return r;
  }
  g_model.refcount = 0;
  // aclFinalize ends every write-tracking period and releases its base
  // (DESIGN.md §4.14): the next Backup or Restore copies every buffer.
  for (DeviceModel& dev : g_model.devices) dev.tracked_opening = -1;
  return ACL_SUCCESS;
}

std::vector<int32_t> OpenDevices() {
  std::vector<int32_t> open;
  for (int32_t d = 0; d < kDevices; ++d) {
    if (g_model.devices[d].open()) open.push_back(d);
  }
  return open;
}

bool AnyOpenDeviceAbnormal() {
  for (int32_t d : OpenDevices()) {
    if (g_model.devices[d].abnormal) return true;
  }
  return false;
}

// Predicts a stage's callbacks; true when they all succeed.
bool PredictStage(int stage, int32_t state_inside) {
  for (const StageEntry& e : g_model.stages[stage]) {
    for (int32_t d : OpenDevices()) {
      g_expected.push_back(Call{'S', e.fn, e.behaviour, d, state_inside, true});
      if (g_stage_behaviours[e.behaviour] == kStageFail) return false;
    }
  }
  return true;
}

}  // namespace snapshot_lifecycle_fuzz
