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
#include <cstddef>
#include <cstdint>
#include <cstdlib>

#include "testing/fuzz/snapshot_lifecycle_model.h"
#include "testing/fuzz/snapshot_lifecycle_ops.h"

namespace snapshot_lifecycle_fuzz {
namespace {

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

// One input: its operations, then the cleanup.
void RunOne(const uint8_t* data, size_t size) {
  g_trace.clear();
  g_calls.clear();
  g_expected.clear();
  CheckCallsAndState("start");
  Input in{data, size};
  for (int ops = 0; ops < kMaxOps && !in.done(); ++ops) Step(in);
  Cleanup();
}

}  // namespace
}  // namespace snapshot_lifecycle_fuzz

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static const bool quiet = [] {
    // Expected failures are logged at ERROR; keep the fuzzer's output clean
    // unless the caller chose a level.
    setenv("ASCEND_GLOBAL_LOG_LEVEL", "4", /*overwrite=*/0);
    return true;
  }();
  (void)quiet;
  snapshot_lifecycle_fuzz::RunOne(data, size);
  return 0;
}
