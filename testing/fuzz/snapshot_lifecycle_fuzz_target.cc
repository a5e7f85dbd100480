// Fuzz target: random sequences of lifecycle and snapshot calls, checked
// against a small model of both state machines.
//
// The input is decoded into at most kMaxOps operations (one opcode byte,
// then argument bytes; missing bytes read as 0): aclInit(NULL), aclFinalize,
// aclFinalizeReference, init/finalize callback (un)registration,
// aclrtSetDevice / aclrtResetDevice on devices 0 and 1, one device buffer
// per device (malloc, write, read back, free), Lock / Backup / Restore /
// Unlock, bad snapshot parameters, fault injection, and stage-callback
// (un)registration with callbacks that succeed, fail, or call the snapshot
// API from inside. After every operation the model's prediction must match
// exactly: return code, process state (rtSnapShotProcessGetState), the
// ordered list of callback invocations (with device ids and the state seen
// inside), and the bytes read back. Any mismatch aborts with the trace.
//
// The runtime is a process singleton, so every input ends with a cleanup,
// itself checked against the model, that returns the process to the start
// state: RUNNING, no stage or lifecycle callback registered, no device open,
// no fault pending, not initialised (aclInit(NULL) only, so the
// config-identity rule never interferes).
//
// Gated calls (SetDevice, ResetDevice, Malloc, Memcpy, Free) would block
// while LOCKED or BACKED_UP, so the model skips them there.
//
// A copy fault while Restore copies is not damage of the image (which
// Restore verifies before touching any device): the piece is copied again,
// up to three attempts in all, each attempt spending the fault pending then
// (a failure first, then a corruption, as the simulator spends them). With
// at most one of each pending, the Restore succeeds and both are spent
// (DESIGN.md §4.10). The contents
// of a buffer are unspecified only where the model cannot know them, until
// the buffer is written, zeroed by a memory loss, or read back (the model
// then learns the bytes and checks them from there on, through later Backups
// and Restores too). A memory loss makes the device abnormal until a Restore
// succeeds or the device is opened again, and Backup refuses an abnormal
// device (§4.8, §5.9).
//
// Backup copies only device memory that may hold data (pages the simulator
// has had touched, §4.8), and which pages the kernel keeps present after a
// read, a memory loss or a restore is its own business. So that every Backup
// and Restore copies each buffer, and spends a pending copy fault as the
// model says, the target touches every page of a buffer directly (simulated
// device memory is host-addressable; each byte touched is written with the
// value it holds) after Malloc, a memory loss and every Restore.
//
// Backups after the first are incremental (DESIGN.md §4.14): a buffer not
// written since the last capture of its device (by a copy, a touch, a
// loss, a Malloc or Free) is carried over without a copy, and a Restore
// right after the Backup that captured it copies back only buffers written
// since. The model tracks that per device and spends copy faults only on
// the copies made; where the report says the process cannot track writes,
// every Backup and Restore copies everything.
#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "acl/acl.h"
#include "acl/error_codes/rt_error_codes.h"
#include "aclsim/aclsim.h"
#include "ascendcl/snapshot.h"
#include "runtime/rt_snapshot.h"

namespace {

constexpr int kMaxOps = 48;
constexpr int kDevices = 2;  // devices the sequences open
constexpr int kStages = 6;
constexpr aclError kInitFailCode = 300001;
constexpr aclError kFinalizeFailCode = 300002;

// --- Trace and failure
// -----------------------------------------------------------

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

// --- Callbacks and their invocation log
// -------------------------------------------

// One callback invocation, as observed by the callback or predicted.
struct Call {
  char kind;        // 'I' init, 'F' finalize, 'S' stage
  int fn;           // which function (0 or 1)
  int behaviour;    // index into the behaviour table
  int32_t device;   // stage callbacks: device id; else -1
  int32_t state;    // stage callbacks: process state seen; else -1
  bool reentry_ok;  // stage "reentrant" behaviour: inner calls as expected
  bool operator==(const Call& o) const {
    return kind == o.kind && fn == o.fn && behaviour == o.behaviour &&
           device == o.device && state == o.state && reentry_ok == o.reentry_ok;
  }
};

std::string Describe(const Call& c) {
  return std::string(1, c.kind) + "fn" + std::to_string(c.fn) + "/b" +
         std::to_string(c.behaviour) + "/dev" + std::to_string(c.device) +
         "/st" + std::to_string(c.state) + (c.reentry_ok ? "" : "/REENTRY-BAD");
}

std::vector<Call> g_calls;

// Lifecycle behaviours: 0, 1 succeed; 2 fails.
struct LifecycleBehaviour {
  int index;
  aclError result;
};
LifecycleBehaviour g_init_behaviours[3] = {
    {0, ACL_SUCCESS}, {1, ACL_SUCCESS}, {2, kInitFailCode}};
LifecycleBehaviour g_fin_behaviours[3] = {
    {0, ACL_SUCCESS}, {1, ACL_SUCCESS}, {2, kFinalizeFailCode}};

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
const aclInitCallbackFunc kInitFns[2] = {&InitCallback<0>, &InitCallback<1>};
const aclFinalizeCallbackFunc kFinFns[2] = {&FinalizeCallback<0>,
                                            &FinalizeCallback<1>};

// Stage behaviours: 0 succeeds, 1 fails, 2 calls every snapshot function
// from inside (each must refuse with its code and change nothing).
enum StageBehaviour { kStageOk = 0, kStageFail = 1, kStageReentrant = 2 };
int g_stage_behaviours[3] = {kStageOk, kStageFail, kStageReentrant};

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
const aclrtSnapShotCallBack kStageFns[2] = {&StageCallback<0>, &StageB};

// --- The model
// ------------------------------------------------------------------------

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

struct LifecycleEntry {
  aclRegisterCallbackType type;
  int fn;
  int behaviour;
};

struct StageEntry {
  int fn;
  int behaviour;
};

enum class CopyFault { kNone, kFail, kCorrupt };

struct DeviceModel {
  int64_t refcount = 0;
  aclrtContext context = nullptr;
  bool has_buffer = false;
  void* ptr = nullptr;
  std::vector<uint8_t> shadow;
  // False while the buffer's contents are unspecified (see the file
  // comment): `shadow` then says nothing and a read back is not compared.
  bool shadow_known = true;
  // A memory loss makes the device abnormal (see the file comment).
  bool abnormal = false;
  bool fail_pending = false;
  bool corrupt_pending = false;
  // Incremental snapshot (DESIGN.md §4.14): the device's openings, whether
  // a write-tracking period runs on this opening (started by the last
  // capture or Restore of its memory, `gen` counting them), and whether the
  // buffer was written since. A clean buffer is carried over by a Backup
  // and not copied back by a Restore of the image of the same period.
  int opening = 0;
  int tracked_opening = -1;
  bool dirty = true;
  uint64_t gen = 0;
  bool open() const { return refcount > 0; }
  bool Clean() const { return tracked_opening == opening && !dirty; }
  void StartPeriod() {
    tracked_opening = opening;
    dirty = false;
    ++gen;
  }
  CopyFault TakeFault() {
    if (fail_pending) {
      fail_pending = false;
      return CopyFault::kFail;
    }
    if (corrupt_pending) {
      corrupt_pending = false;
      return CopyFault::kCorrupt;
    }
    return CopyFault::kNone;
  }
};

struct Model {
  uint64_t refcount = 0;
  std::vector<LifecycleEntry> init_entries;
  std::vector<LifecycleEntry> fin_entries;
  int32_t state = RT_PROCESS_STATE_RUNNING;
  std::vector<StageEntry> stages[kStages];
  DeviceModel devices[kDevices];
  // The image of the last Backup that got past its copies, while it is held:
  // an Unlock or a reset of one of its devices releases it.
  bool image_held = false;
  bool image_device[kDevices] = {};  // the devices it covers
  std::vector<uint8_t> image[kDevices];
  bool image_has[kDevices] = {};
  // Whether the bytes Backup saved were known to the model.
  bool image_known[kDevices] = {};
  // The tracking period each device's part of the image started.
  uint64_t image_gen[kDevices] = {};
};

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

// --- Operations
// -------------------------------------------------------------------------

struct Input {
  const uint8_t* data;
  size_t size;
  size_t pos = 0;
  bool done() const { return pos >= size; }
  uint8_t Next() { return pos < size ? data[pos++] : 0; }
};

void OpInit() {
  g_trace.push_back("aclInit(NULL)");
  aclError want;
  if (g_model.refcount > 0) {
    ++g_model.refcount;
    want = ACL_ERROR_REPEAT_INITIALIZE;
  } else {
    want = ACL_SUCCESS;
    for (aclRegisterCallbackType type : kInitOrder) {
      want = PredictNotify('I', type);
      if (want != ACL_SUCCESS) break;
    }
    if (want == ACL_SUCCESS) g_model.refcount = 1;
  }
  Expect("aclInit", aclInit(nullptr), want);
  CheckCallsAndState("aclInit");
}

void OpFinalize() {
  g_trace.push_back("aclFinalize()");
  const aclError want = g_model.refcount == 0 ? ACL_ERROR_REPEAT_FINALIZE
                                              : PredictFinalizeInternal();
  Expect("aclFinalize", aclFinalize(), want);
  CheckCallsAndState("aclFinalize");
}

void OpFinalizeReference(bool with_count) {
  g_trace.push_back(std::string("aclFinalizeReference(") +
                    (with_count ? "&count" : "NULL") + ")");
  aclError want;
  uint64_t want_count;
  if (g_model.refcount == 0) {
    want = ACL_ERROR_REPEAT_FINALIZE;
    want_count = 0;
  } else if (g_model.refcount > 1) {
    --g_model.refcount;
    want = ACL_SUCCESS;
    want_count = g_model.refcount;
  } else {
    want = PredictFinalizeInternal();
    want_count = g_model.refcount;
  }
  uint64_t count = 12345;
  Expect("aclFinalizeReference",
         aclFinalizeReference(with_count ? &count : nullptr), want);
  if (with_count && count != want_count) {
    Mismatch("aclFinalizeReference: count " + std::to_string(count) +
             ", model says " + std::to_string(want_count));
  }
  CheckCallsAndState("aclFinalizeReference");
}

void OpLifecycleRegister(bool init, Input& in) {
  const aclRegisterCallbackType type = kTypes[in.Next() % 6];
  const int fn_sel = in.Next() % 3;  // 2: NULL
  const int behaviour = in.Next() % 3;
  g_trace.push_back(std::string(init ? "aclInitCallbackRegister("
                                     : "aclFinalizeCallbackRegister(") +
                    std::to_string(type) + ", fn" + std::to_string(fn_sel) +
                    ", b" + std::to_string(behaviour) + ")");
  auto& entries = init ? g_model.init_entries : g_model.fin_entries;
  aclError want = ACL_SUCCESS;
  if (fn_sel == 2) {
    want = ACL_ERROR_INVALID_PARAM;
  } else {
    bool occupied = false;
    for (const LifecycleEntry& e : entries) occupied |= e.type == type;
    if (type != ACL_REG_TYPE_OTHER && occupied) {
      want = ACL_ERROR_INTERNAL_ERROR;
    } else {
      entries.push_back(LifecycleEntry{type, fn_sel, behaviour});
      // Late registration: runs at once while initialised, result ignored.
      if (init && g_model.refcount > 0) {
        g_expected.push_back(Call{'I', fn_sel, behaviour, -1, -1, true});
      }
    }
  }
  aclError got;
  if (init) {
    got =
        aclInitCallbackRegister(type, fn_sel == 2 ? nullptr : kInitFns[fn_sel],
                                &g_init_behaviours[behaviour]);
  } else {
    got = aclFinalizeCallbackRegister(type,
                                      fn_sel == 2 ? nullptr : kFinFns[fn_sel],
                                      &g_fin_behaviours[behaviour]);
  }
  Expect(g_trace.back().c_str(), got, want);
  CheckCallsAndState("lifecycle register");
}

aclError ModelLifecycleUnregister(bool init, aclRegisterCallbackType type,
                                  int fn_sel) {
  if (fn_sel == 2) return ACL_ERROR_INVALID_PARAM;
  auto& entries = init ? g_model.init_entries : g_model.fin_entries;
  for (auto it = entries.begin(); it != entries.end(); ++it) {
    if (it->type == type && it->fn == fn_sel) {
      entries.erase(it);
      return ACL_SUCCESS;
    }
  }
  return ACL_ERROR_INTERNAL_ERROR;
}

void LifecycleUnregister(bool init, aclRegisterCallbackType type, int fn_sel) {
  g_trace.push_back(std::string(init ? "aclInitCallbackUnRegister("
                                     : "aclFinalizeCallbackUnRegister(") +
                    std::to_string(type) + ", fn" + std::to_string(fn_sel) +
                    ")");
  const aclError want = ModelLifecycleUnregister(init, type, fn_sel);
  const aclError got = init
                           ? aclInitCallbackUnRegister(
                                 type, fn_sel == 2 ? nullptr : kInitFns[fn_sel])
                           : aclFinalizeCallbackUnRegister(
                                 type, fn_sel == 2 ? nullptr : kFinFns[fn_sel]);
  Expect(g_trace.back().c_str(), got, want);
  CheckCallsAndState("lifecycle unregister");
}

void OpLifecycleUnregister(bool init, Input& in) {
  const aclRegisterCallbackType type = kTypes[in.Next() % 6];
  const int fn_sel = in.Next() % 3;
  LifecycleUnregister(init, type, fn_sel);
}

bool Running() { return g_model.state == RT_PROCESS_STATE_RUNNING; }

void SetDevice(int32_t d) {
  g_trace.push_back("aclrtSetDevice(" + std::to_string(d) + ")");
  Expect("aclrtSetDevice", aclrtSetDevice(d), ACL_SUCCESS);
  DeviceModel& dev = g_model.devices[d];
  if (!dev.open()) {  // a new opening
    dev.abnormal = false;
    ++dev.opening;
  }
  ++dev.refcount;
  Expect("aclrtGetCurrentContext", aclrtGetCurrentContext(&dev.context),
         ACL_SUCCESS);
  CheckCallsAndState("aclrtSetDevice");
}

void ResetDevice(int32_t d, bool force) {
  g_trace.push_back(
      std::string(force ? "aclrtResetDeviceForce(" : "aclrtResetDevice(") +
      std::to_string(d) + ")");
  DeviceModel& dev = g_model.devices[d];
  aclError want = ACL_SUCCESS;
  if (!dev.open()) {
    want = ACL_ERROR_RT_INVALID_DEVICEID;
  } else {
    dev.refcount = force ? 0 : dev.refcount - 1;
    if (!dev.open()) {
      // Closing the device releases its memory, and a backup of it.
      if (g_model.image_device[d]) g_model.image_held = false;
      dev.has_buffer = false;
      dev.shadow.clear();
      dev.shadow_known = true;
      dev.context = nullptr;
    }
  }
  Expect(g_trace.back().c_str(),
         force ? aclrtResetDeviceForce(d) : aclrtResetDevice(d), want);
  CheckCallsAndState("reset device");
}

// Makes every page of device d's buffer present without changing a byte
// (see the file comment). Touching one byte every page from the start, and
// the last byte, reaches every page the buffer spans.
void TouchBuffer(int32_t d) {
  DeviceModel& dev = g_model.devices[d];
  if (!dev.has_buffer || dev.shadow.empty()) return;
  auto* bytes = static_cast<volatile uint8_t*>(dev.ptr);
  const size_t size = dev.shadow.size();
  const size_t page = static_cast<size_t>(sysconf(_SC_PAGESIZE));
  for (size_t i = 0; i < size; i += page) bytes[i] = bytes[i];
  bytes[size - 1] = bytes[size - 1];
  dev.dirty = true;  // a write through the page tables, seen as one
}

void Malloc(int32_t d, size_t size) {
  g_trace.push_back("aclrtMalloc(dev " + std::to_string(d) + ", " +
                    std::to_string(size) + ")");
  DeviceModel& dev = g_model.devices[d];
  Expect("aclrtSetCurrentContext", aclrtSetCurrentContext(dev.context),
         ACL_SUCCESS);
  Expect("aclrtMalloc", aclrtMalloc(&dev.ptr, size, ACL_MEM_MALLOC_HUGE_FIRST),
         ACL_SUCCESS);
  dev.has_buffer = true;
  dev.dirty = true;
  dev.shadow.assign(size, 0);  // zero-filled
  dev.shadow_known = true;
  TouchBuffer(d);
  CheckCallsAndState("aclrtMalloc");
}

// Full-buffer H2D copy; spends a pending copy fault of the device.
void Write(int32_t d, uint8_t seed) {
  g_trace.push_back("aclrtMemcpy H2D (dev " + std::to_string(d) + ")");
  DeviceModel& dev = g_model.devices[d];
  std::vector<uint8_t> bytes(dev.shadow.size());
  for (size_t i = 0; i < bytes.size(); ++i) {
    bytes[i] = static_cast<uint8_t>(seed + i * 131 + (i >> 8));
  }
  aclError want = ACL_SUCCESS;
  const CopyFault fault = dev.TakeFault();
  if (fault != CopyFault::kFail) dev.dirty = true;
  switch (fault) {
    case CopyFault::kFail:
      want = ACL_ERROR_RT_SYS_DMA;
      break;
    case CopyFault::kCorrupt:
      dev.shadow = bytes;
      dev.shadow[dev.shadow.size() / 2] ^= 0xFF;
      dev.shadow_known = true;
      break;
    case CopyFault::kNone:
      dev.shadow = bytes;
      dev.shadow_known = true;
      break;
  }
  Expect(g_trace.back().c_str(),
         aclrtMemcpy(dev.ptr, bytes.size(), bytes.data(), bytes.size(),
                     ACL_MEMCPY_HOST_TO_DEVICE),
         want);
  CheckCallsAndState("write");
}

// Full-buffer D2H copy checked against the shadow (or, while the contents
// are unspecified, teaching the model what the device holds).
void ReadBack(int32_t d) {
  g_trace.push_back("aclrtMemcpy D2H (dev " + std::to_string(d) + ")");
  DeviceModel& dev = g_model.devices[d];
  std::vector<uint8_t> expected = dev.shadow;
  aclError want = ACL_SUCCESS;
  const CopyFault fault = dev.TakeFault();
  switch (fault) {
    case CopyFault::kFail:
      want = ACL_ERROR_RT_SYS_DMA;
      break;
    case CopyFault::kCorrupt:
      expected[expected.size() / 2] ^= 0xFF;
      break;
    case CopyFault::kNone:
      break;
  }
  std::vector<uint8_t> back(expected.size(), 0xEE);
  Expect(g_trace.back().c_str(),
         aclrtMemcpy(back.data(), back.size(), dev.ptr, back.size(),
                     ACL_MEMCPY_DEVICE_TO_HOST),
         want);
  if (want == ACL_SUCCESS && !dev.shadow_known) {
    // The device holds what was read, less the corruption of the transfer.
    dev.shadow = back;
    if (fault == CopyFault::kCorrupt) dev.shadow[back.size() / 2] ^= 0xFF;
    dev.shadow_known = true;
  } else if (want == ACL_SUCCESS && back != expected) {
    size_t i = 0;
    while (back[i] == expected[i]) ++i;
    Mismatch("device " + std::to_string(d) + " byte " + std::to_string(i) +
             " of " + std::to_string(back.size()) + " is " +
             std::to_string(back[i]) + ", model says " +
             std::to_string(expected[i]));
  }
  CheckCallsAndState("read back");
}

void Free(int32_t d) {
  g_trace.push_back("aclrtFree(dev " + std::to_string(d) + ")");
  DeviceModel& dev = g_model.devices[d];
  Expect("aclrtFree", aclrtFree(dev.ptr), ACL_SUCCESS);
  dev.has_buffer = false;
  dev.dirty = true;
  dev.shadow.clear();
  dev.shadow_known = true;
  CheckCallsAndState("aclrtFree");
}

void Lock() {
  g_trace.push_back("Lock");
  aclError want;
  if (!PredictStage(ACL_RT_SNAPSHOT_LOCK_PRE, g_model.state)) {
    want = ACL_ERROR_SNAPSHOT_CALLBACK_FAILED;
  } else if (g_model.state != RT_PROCESS_STATE_RUNNING) {
    want = ACL_ERROR_SNAPSHOT_LOCK_FAILED;
  } else {
    g_model.state = RT_PROCESS_STATE_LOCKED;
    want = ACL_SUCCESS;
  }
  Expect("Lock", aclrtSnapShotProcessLock(getpid(), nullptr), want);
  CheckCallsAndState("Lock");
}

void Backup() {
  g_trace.push_back("Backup");
  aclError want = ACL_SUCCESS;
  if (g_model.state != RT_PROCESS_STATE_LOCKED) {
    want = ACL_ERROR_SNAPSHOT_BACKUP_FAILED;
  } else if (!PredictStage(ACL_RT_SNAPSHOT_BACKUP_PRE,
                           RT_PROCESS_STATE_LOCKED)) {
    want = ACL_ERROR_SNAPSHOT_CALLBACK_FAILED;
  } else if (OpenDevices().empty()) {
    want = ACL_ERROR_RT_CONTEXT_NULL;
  } else if (AnyOpenDeviceAbnormal()) {
    // Checked for every device before any copy: no copy fault is spent.
    want = ACL_ERROR_SNAPSHOT_BACKUP_FAILED;
  } else {
    // The memory participant saves every device side by side (each on a
    // thread of its own), one copy per buffer written since the last
    // capture (each fits one piece): a fault fails that device's capture
    // and the Backup, which keeps the old image, but every device captured
    // without one starts a new tracking period from its capture.
    for (int32_t d : OpenDevices()) {
      DeviceModel& dev = g_model.devices[d];
      if (dev.has_buffer && !(g_tracking && dev.Clean()) &&
          dev.TakeFault() != CopyFault::kNone) {
        want = ACL_ERROR_SNAPSHOT_BACKUP_FAILED;
        continue;
      }
      dev.StartPeriod();
    }
    if (want == ACL_SUCCESS) {
      g_model.image_held = true;
      for (int32_t d : OpenDevices()) {
        g_model.image_gen[d] = g_model.devices[d].gen;
      }
      for (int32_t d = 0; d < kDevices; ++d) {
        g_model.image_device[d] = g_model.devices[d].open();
        g_model.image_has[d] = g_model.devices[d].has_buffer;
        g_model.image[d] = g_model.devices[d].shadow;
        g_model.image_known[d] = g_model.devices[d].shadow_known;
      }
      if (!PredictStage(ACL_RT_SNAPSHOT_BACKUP_POST, RT_PROCESS_STATE_LOCKED)) {
        want = ACL_ERROR_SNAPSHOT_CALLBACK_FAILED;
      } else {
        g_model.state = RT_PROCESS_STATE_BACKED_UP;
      }
    }
  }
  Expect("Backup", aclrtSnapShotProcessBackup(getpid(), nullptr), want);
  if (want == ACL_SUCCESS && !g_tracking) {
    char json[4096];
    size_t needed = 0;
    g_tracking =
        ascendclSnapshotGetReport(json, sizeof json, &needed) == ACL_SUCCESS &&
        std::strstr(json, "\"write_tracking\":\"none\"") == nullptr;
  }
  CheckCallsAndState("Backup");
}

void Restore() {
  g_trace.push_back("Restore");
  aclError want = ACL_SUCCESS;
  if (g_model.state != RT_PROCESS_STATE_BACKED_UP || !g_model.image_held) {
    // (A released backup is refused before RESTORE_PRE, as a wrong state.)
    want = ACL_ERROR_SNAPSHOT_RESTORE_FAILED;
  } else if (!PredictStage(ACL_RT_SNAPSHOT_RESTORE_PRE,
                           RT_PROCESS_STATE_BACKED_UP)) {
    want = ACL_ERROR_SNAPSHOT_CALLBACK_FAILED;
  } else {
    // Every device is re-opened and every allocation put back before the
    // copies; then devices in ascending order, one copy per buffer. A copy
    // fault is spent by an attempt and the copy made again.
    for (int32_t d : OpenDevices()) {
      DeviceModel& dev = g_model.devices[d];
      if (dev.has_buffer != g_model.image_has[d]) {
        Mismatch("model: the image does not match the open buffers");
      }
      // Copied back unless it is clean in the image's own period.
      const bool copies = dev.has_buffer && !(g_tracking && dev.Clean() &&
                                              dev.gen == g_model.image_gen[d]);
      // Each faulty attempt is made again (three attempts in all): every
      // fault pending is spent and the last attempt lands.
      if (copies) {
        while (dev.TakeFault() != CopyFault::kNone) {
        }
      }
      // Restored: a new period starts from the image.
      dev.StartPeriod();
      g_model.image_gen[d] = dev.gen;
      if (!dev.has_buffer) continue;
      dev.shadow = g_model.image[d];
      dev.shadow_known = g_model.image_known[d];
    }
    if (want == ACL_SUCCESS) {
      // The restored devices are healthy again.
      for (int32_t d = 0; d < kDevices; ++d) {
        if (g_model.image_device[d]) g_model.devices[d].abnormal = false;
      }
      if (!PredictStage(ACL_RT_SNAPSHOT_RESTORE_POST,
                        RT_PROCESS_STATE_BACKED_UP)) {
        want = ACL_ERROR_SNAPSHOT_CALLBACK_FAILED;
      } else {
        g_model.state = RT_PROCESS_STATE_LOCKED;
      }
    }
  }
  Expect("Restore", aclrtSnapShotProcessRestore(getpid(), nullptr), want);
  for (int32_t d = 0; d < kDevices; ++d) TouchBuffer(d);
  CheckCallsAndState("Restore");
}

void Unlock() {
  g_trace.push_back("Unlock");
  aclError want;
  if (g_model.state == RT_PROCESS_STATE_RUNNING) {
    want = ACL_ERROR_SNAPSHOT_UNLOCK_FAILED;
  } else {
    g_model.state = RT_PROCESS_STATE_RUNNING;
    g_model.image_held = false;  // no Restore can use it any more
    want = PredictStage(ACL_RT_SNAPSHOT_UNLOCK_POST, RT_PROCESS_STATE_RUNNING)
               ? ACL_SUCCESS
               : ACL_ERROR_SNAPSHOT_CALLBACK_FAILED;
  }
  Expect("Unlock", aclrtSnapShotProcessUnlock(getpid(), nullptr), want);
  CheckCallsAndState("Unlock");
}

void OpBadSnapshotParameters(uint8_t which) {
  static int dummy = 0;
  const int pid = getpid();
  aclrtSnapShotBackupArgs backup_args = {};
  aclrtSnapShotRestoreArgs restore_args = {};
  aclError got = ACL_SUCCESS;
  switch (which % 8) {
    case 0:
      got = aclrtSnapShotProcessLock(pid + 1, nullptr);
      break;
    case 1:
      got = aclrtSnapShotProcessLock(pid, &dummy);
      break;
    case 2:
      got = aclrtSnapShotProcessUnlock(pid + 1, nullptr);
      break;
    case 3:
      got = aclrtSnapShotProcessUnlock(pid, &dummy);
      break;
    case 4:
      got = aclrtSnapShotProcessBackup(pid + 1, nullptr);
      break;
    case 5:
      got = aclrtSnapShotProcessBackup(pid, &backup_args);
      break;
    case 6:
      got = aclrtSnapShotProcessRestore(-1, nullptr);
      break;
    default:
      got = aclrtSnapShotProcessRestore(pid, &restore_args);
      break;
  }
  g_trace.push_back("bad snapshot parameters #" + std::to_string(which % 8));
  Expect(g_trace.back().c_str(), got, ACL_ERROR_INVALID_PARAM);
  Expect("rtSnapShotProcessGetState(NULL)", rtSnapShotProcessGetState(nullptr),
         ACL_ERROR_RT_PARAM_INVALID);
  CheckCallsAndState("bad parameters");
}

void OpInjectFault(Input& in) {
  const uint8_t a = in.Next();
  const uint8_t b = in.Next();
  int32_t device = a % 4;  // 2, 3: devices that are never opened here...
  if (device == 3) device = 1000;  // ...or do not exist
  // 3: no such fault (still a value of the enum's range; a C caller may
  // pass any int, but converting one outside the range is undefined in C++).
  const int fault = b % 5 == 4 ? 3 : b % 3;
  g_trace.push_back("aclsimInjectFault(" + std::to_string(device) + ", " +
                    std::to_string(fault) + ")");
  aclError want = ACL_SUCCESS;
  if (device >= 1000 || fault > ACLSIM_FAULT_NEXT_COPY_CORRUPTS) {
    want = ACL_ERROR_INVALID_PARAM;
  } else if (device >= kDevices) {
    // Device 2 exists but is never opened: only a memory loss is harmless
    // there (a copy fault would stay pending across inputs).
    if (fault != ACLSIM_FAULT_DEVICE_MEMORY_LOSS) return;
  } else {
    DeviceModel& dev = g_model.devices[device];
    switch (fault) {
      case ACLSIM_FAULT_DEVICE_MEMORY_LOSS:
        dev.dirty = true;  // everything counts as written
        if (dev.has_buffer) dev.shadow.assign(dev.shadow.size(), 0);
        dev.shadow_known = true;
        dev.abnormal = true;
        break;
      case ACLSIM_FAULT_NEXT_COPY_FAILS:
        dev.fail_pending = true;
        break;
      default:
        dev.corrupt_pending = true;
        break;
    }
  }
  Expect(g_trace.back().c_str(),
         aclsimInjectFault(device, static_cast<aclsimFault>(fault)), want);
  if (fault == ACLSIM_FAULT_DEVICE_MEMORY_LOSS && device < kDevices) {
    TouchBuffer(device);
  }
  CheckCallsAndState("inject fault");
}

aclError ModelStageRegister(int stage, int fn_sel, int behaviour) {
  if (stage < 0 || stage >= kStages || fn_sel == 2) {
    return ACL_ERROR_RT_PARAM_INVALID;
  }
  for (const StageEntry& e : g_model.stages[stage]) {
    if (e.fn == fn_sel) return ACL_ERROR_SNAPSHOT_REGISTER_CALLBACK_FAILED;
  }
  g_model.stages[stage].push_back(StageEntry{fn_sel, behaviour});
  return ACL_SUCCESS;
}

aclError ModelStageUnregister(int stage, int fn_sel) {
  if (stage < 0 || stage >= kStages || fn_sel == 2) {
    return ACL_ERROR_RT_PARAM_INVALID;
  }
  auto& list = g_model.stages[stage];
  for (auto it = list.begin(); it != list.end(); ++it) {
    if (it->fn == fn_sel) {
      list.erase(it);
      return ACL_SUCCESS;
    }
  }
  return ACL_ERROR_RT_PARAM_INVALID;
}

// 0..5, or 6 and 7: no such stage (still values of the enum's range; a C
// caller may pass any int, but converting one outside the range is
// undefined in C++).
int DecodeStage(uint8_t byte) { return byte % 8; }

void OpStageRegister(Input& in) {
  const int stage = DecodeStage(in.Next());
  const int fn_sel = in.Next() % 3;
  const int behaviour = in.Next() % 3;
  g_trace.push_back("aclrtSnapShotCallbackRegister(" + std::to_string(stage) +
                    ", fn" + std::to_string(fn_sel) + ", b" +
                    std::to_string(behaviour) + ")");
  const aclError want = ModelStageRegister(stage, fn_sel, behaviour);
  Expect(
      g_trace.back().c_str(),
      aclrtSnapShotCallbackRegister(static_cast<aclrtSnapShotStage>(stage),
                                    fn_sel == 2 ? nullptr : kStageFns[fn_sel],
                                    &g_stage_behaviours[behaviour]),
      want);
  CheckCallsAndState("stage register");
}

void StageUnregister(int stage, int fn_sel) {
  g_trace.push_back("aclrtSnapShotCallbackUnregister(" + std::to_string(stage) +
                    ", fn" + std::to_string(fn_sel) + ")");
  const aclError want = ModelStageUnregister(stage, fn_sel);
  Expect(g_trace.back().c_str(),
         aclrtSnapShotCallbackUnregister(
             static_cast<aclrtSnapShotStage>(stage),
             fn_sel == 2 ? nullptr : kStageFns[fn_sel]),
         want);
  CheckCallsAndState("stage unregister");
}

void OpStageUnregister(Input& in) {
  const int stage = DecodeStage(in.Next());
  const int fn_sel = in.Next() % 3;
  StageUnregister(stage, fn_sel);
}

// One decoded operation.
void Step(Input& in) {
  const uint8_t op = in.Next() % 20;
  const int32_t d = in.Next() % kDevices;
  DeviceModel& dev = g_model.devices[d];
  switch (op) {
    case 0:
      OpInit();
      break;
    case 1:
      OpFinalize();
      break;
    case 2:
      OpFinalizeReference(d == 0);
      break;
    case 3:
      OpLifecycleRegister(/*init=*/true, in);
      break;
    case 4:
      OpLifecycleUnregister(/*init=*/true, in);
      break;
    case 5:
      OpLifecycleRegister(/*init=*/false, in);
      break;
    case 6:
      OpLifecycleUnregister(/*init=*/false, in);
      break;
    case 7:
      if (Running() && dev.refcount < 4) SetDevice(d);
      break;
    case 8:
      if (Running()) ResetDevice(d, in.Next() % 4 == 0);
      break;
    case 9: {
      const size_t size = 1 + (static_cast<size_t>(in.Next()) << 8 | in.Next());
      if (Running() && dev.open() && !dev.has_buffer) Malloc(d, size);
      break;
    }
    case 10: {
      const uint8_t seed = in.Next();
      if (Running() && dev.has_buffer) Write(d, seed);
      break;
    }
    case 11:
      if (Running() && dev.has_buffer) ReadBack(d);
      break;
    case 12:
      if (Running() && dev.has_buffer) Free(d);
      break;
    case 13:
      Lock();
      break;
    case 14:
      Backup();
      break;
    case 15:
      Restore();
      break;
    case 16:
      Unlock();
      break;
    case 17:
      OpInjectFault(in);
      break;
    case 18:
      if (in.Next() % 2 == 0) {
        OpStageRegister(in);
      } else {
        OpStageUnregister(in);
      }
      break;
    default:
      OpBadSnapshotParameters(in.Next());
      break;
  }
}

// Brings the process back to the start state, checking every call.
void Cleanup() {
  g_trace.push_back("-- cleanup --");
  for (int stage = 0; stage < kStages; ++stage) {
    while (!g_model.stages[stage].empty()) {
      StageUnregister(stage, g_model.stages[stage].front().fn);
    }
  }
  // From LOCKED or BACKED_UP (after a failed Restore too).
  if (!Running()) Unlock();
  for (int32_t d = 0; d < kDevices; ++d) {
    DeviceModel& dev = g_model.devices[d];
    if (dev.fail_pending || dev.corrupt_pending) {
      if (!dev.open()) SetDevice(d);
      if (!dev.has_buffer) Malloc(d, 64);
      while (dev.fail_pending || dev.corrupt_pending) Write(d, 1);
    }
    if (dev.has_buffer) Free(d);
    if (dev.open()) ResetDevice(d, /*force=*/true);
  }
  while (!g_model.init_entries.empty()) {
    const LifecycleEntry e = g_model.init_entries.front();
    LifecycleUnregister(/*init=*/true, e.type, e.fn);
  }
  while (!g_model.fin_entries.empty()) {
    const LifecycleEntry e = g_model.fin_entries.front();
    LifecycleUnregister(/*init=*/false, e.type, e.fn);
  }
  if (g_model.refcount > 0) OpFinalize();
  // The start state, observed through the API.
  OpFinalizeReference(/*with_count=*/true);
  if (g_model.refcount != 0 || !Running()) Mismatch("cleanup incomplete");
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static const bool quiet = [] {
    // Expected failures are logged at ERROR; keep the fuzzer's output clean
    // unless the caller chose a level.
    setenv("ASCEND_GLOBAL_LOG_LEVEL", "4", /*overwrite=*/0);
    return true;
  }();
  (void)quiet;
  g_trace.clear();
  g_calls.clear();
  g_expected.clear();
  CheckCallsAndState("start");
  Input in{data, size};
  for (int ops = 0; ops < kMaxOps && !in.done(); ++ops) Step(in);
  Cleanup();
  return 0;
}
