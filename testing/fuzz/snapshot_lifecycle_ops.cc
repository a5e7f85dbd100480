// The lifecycle and snapshot fuzzer's operations (snapshot_lifecycle_ops.h).
#include "testing/fuzz/snapshot_lifecycle_ops.h"

#include <unistd.h>

#include <cstring>
#include <string>
#include <vector>

#include "acl/acl.h"
#include "acl/error_codes/rt_error_codes.h"
#include "aclsim/aclsim.h"
#include "ascendcl/snapshot.h"
#include "runtime/rt_snapshot.h"

namespace snapshot_lifecycle_fuzz {
namespace {

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

// Makes every page of device d's buffer present without changing a byte
// (see snapshot_lifecycle_fuzz_target.cc). Touching one byte every page from
// the start, and the last byte, reaches every page the buffer spans.
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

}  // namespace

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

}  // namespace snapshot_lifecycle_fuzz
