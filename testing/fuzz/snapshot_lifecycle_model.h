// The lifecycle and snapshot fuzzer's model: what it predicts, the callbacks
// it registers (which log their invocations), and the state both share. The
// operations that drive the runtime and the model together are in
// snapshot_lifecycle_ops.h; the input decoding and what the model promises
// are described in snapshot_lifecycle_fuzz_target.cc.
#ifndef TESTING_FUZZ_SNAPSHOT_LIFECYCLE_MODEL_H_
#define TESTING_FUZZ_SNAPSHOT_LIFECYCLE_MODEL_H_

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "acl/acl.h"
#include "runtime/rt_snapshot.h"

namespace snapshot_lifecycle_fuzz {

constexpr int kMaxOps = 48;
constexpr int kDevices = 2;  // devices the sequences open
constexpr int kStages = 6;
constexpr aclError kInitFailCode = 300001;
constexpr aclError kFinalizeFailCode = 300002;

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

// Lifecycle behaviours: 0, 1 succeed; 2 fails.
struct LifecycleBehaviour {
  int index;
  aclError result;
};

// Stage behaviours: 0 succeeds, 1 fails, 2 calls every snapshot function
// from inside (each must refuse with its code and change nothing).
enum StageBehaviour { kStageOk = 0, kStageFail = 1, kStageReentrant = 2 };

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
  // A memory loss makes the device abnormal (see
  // snapshot_lifecycle_fuzz_target.cc).
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

// The operations' input: bytes read one at a time, missing ones read as 0.
struct Input {
  const uint8_t* data;
  size_t size;
  size_t pos = 0;
  bool done() const { return pos >= size; }
  uint8_t Next() { return pos < size ? data[pos++] : 0; }
};

// --- Shared state ---

extern std::vector<std::string> g_trace;  // the operations so far
extern std::vector<Call> g_calls;         // callbacks observed
extern std::vector<Call> g_expected;      // callbacks predicted
extern Model g_model;
// Whether this process tracks device writes (the snapshot report says
// after the first Backup); without it every Backup and Restore is full.
extern bool g_tracking;

// The callbacks the operations register, with their behaviour tables
// (a callback's user data points into them).
extern LifecycleBehaviour g_init_behaviours[3];
extern LifecycleBehaviour g_fin_behaviours[3];
extern int g_stage_behaviours[3];
extern const aclInitCallbackFunc kInitFns[2];
extern const aclFinalizeCallbackFunc kFinFns[2];
extern const aclrtSnapShotCallBack kStageFns[2];
// Callback types the inputs pick from (the last is no such type), and the
// order aclInit(NULL) notifies them in.
extern const aclRegisterCallbackType kTypes[6];
extern const aclRegisterCallbackType kInitOrder[3];

// --- Checks and predictions ---

// Aborts with the trace.
[[noreturn]] void Mismatch(const std::string& what);
// The process state, through rtSnapShotProcessGetState.
int32_t State();
void Expect(const char* what, aclError got, aclError want);
// Compares the callbacks observed with those predicted and the process
// state with the model's; clears both logs.
void CheckCallsAndState(const char* what);
// Predicts aclFinalize's notifications and their effect; returns the
// first failure code.
aclError PredictFinalizeInternal();
// Predicts the notifications of one lifecycle type; returns the first
// failure code.
aclError PredictNotify(char kind, aclRegisterCallbackType type);
std::vector<int32_t> OpenDevices();
bool AnyOpenDeviceAbnormal();
// Predicts a stage's callbacks; true when they all succeed.
bool PredictStage(int stage, int32_t state_inside);
inline bool Running() { return g_model.state == RT_PROCESS_STATE_RUNNING; }

}  // namespace snapshot_lifecycle_fuzz

#endif  // TESTING_FUZZ_SNAPSHOT_LIFECYCLE_MODEL_H_
