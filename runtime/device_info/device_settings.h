// What the runtime knows and keeps about devices beyond their objects: the
// simulated chip's fixed properties, and the process settings the
// configuration calls store (DESIGN.md §5.12): core limits per device, per
// stream and per thread, the saturation mode, system parameters (process and
// context), device limits, operator timeouts, overflow flags and stream
// overflow switches.
//
//   DeviceSettings& s = DeviceInfo::Of(runtime)->settings();
//   ASCEND_RETURN_IF_ERROR(s.SetDeviceCores(0, CoreKind::kCube, 8));
//   uint32_t cubes = s.DeviceCores(0, CoreKind::kCube);  // 8
//
// Kernel launches (DESIGN.md §5.20) read the cores a launch may use with
// LaunchCores and raise overflow flags with RaiseOverflow.
//
// Everything here is host state that outlives a snapshot's device re-open;
// OnDeviceClosed (a real close: reset, last context destroyed) drops what
// belonged to that opening of the device, as the reference's device object
// takes its settings with it. Thread-safe; methods never block on a device.
// Arguments are validated by the callers (the ACL layer) except where a
// method documents its own codes.
#ifndef ASCENDCL_RUNTIME_DEVICE_INFO_DEVICE_SETTINGS_H_
#define ASCENDCL_RUNTIME_DEVICE_INFO_DEVICE_SETTINGS_H_

#include <array>
#include <cstdint>
#include <optional>

#include "absl/base/thread_annotations.h"
#include "absl/container/flat_hash_map.h"
#include "absl/status/status.h"
#include "device/base/mutex.h"

namespace ascend::rt {

// The simulated chip (an Ascend910B-class part, DESIGN.md §5.12).
struct ChipProperties {
  uint32_t aicore_cores = 24;  // AI Cores, each with one cube unit
  uint32_t cube_cores = 24;
  uint32_t vector_cores = 48;  // two vector units per AI Core
  uint32_t aicpu_cores = 6;
  uint64_t l2_bytes = uint64_t{192} << 20;
  int64_t npu_arch = 2201;  // DAV_2201, the Ascend910B architecture
};

// Values of aclrtDevResLimitType.
enum class CoreKind : int { kCube = 0, kVector = 1 };
inline constexpr int kCoreKinds = 2;

class DeviceSettings {
 public:
  explicit DeviceSettings(ChipProperties chip = ChipProperties());
  DeviceSettings(const DeviceSettings&) = delete;
  DeviceSettings& operator=(const DeviceSettings&) = delete;

  const ChipProperties& chip() const { return chip_; }
  uint32_t HardwareCores(CoreKind kind) const;

  // --- Core limits ---------------------------------------------------------
  // More than the hardware has: ACL_ERROR_RT_PARAM_INVALID (107000).
  absl::Status SetDeviceCores(int32_t device_id, CoreKind kind, uint32_t value);
  void ResetDeviceCores(int32_t device_id);
  // The device's limit, else the hardware's count.
  uint32_t DeviceCores(int32_t device_id, CoreKind kind) const;
  // `stream` is a live stream handle of `device_id` (never null).
  absl::Status SetStreamCores(const void* stream, int32_t device_id,
                              CoreKind kind, uint32_t value);
  void ResetStreamCores(const void* stream);
  // The stream's limit, else its device's.
  uint32_t StreamCores(const void* stream, int32_t device_id,
                       CoreKind kind) const;
  // The calling thread uses `stream`'s limits
  // (aclrtUseStreamResInCurrentThread) until Unuse names the same stream; the
  // last Use wins.
  void UseStreamInThread(const void* stream);
  // Whether `stream` was the thread's stream (and is no longer).
  bool UnuseStreamInThread(const void* stream);
  // The cores the calling thread may use on `device_id`: its stream's limit
  // when that stream set one for `kind`, else the device's.
  uint32_t ThreadCores(int32_t device_id, CoreKind kind) const;
  // What a kernel launched on `stream` by the calling thread may use (the
  // reference's order: the thread's stream, the device, the hardware).
  uint32_t LaunchCores(int32_t device_id, CoreKind kind) const {
    return ThreadCores(device_id, kind);
  }

  // --- Saturation mode and system parameters -------------------------------
  // `mode` is ACL_RT_OVERFLOW_MODE_SATURATION or _INFNAN.
  void SetSatMode(int32_t mode);
  int32_t SatMode() const;
  // Process parameters (aclSysParamOpt 0..3); unset ones read 0.
  void SetSysParam(int32_t opt, int64_t value);
  int64_t SysParam(int32_t opt) const;
  // Context parameters (0..2) of a context of `device_id`; nullopt when the
  // context never set `opt`.
  void SetContextSysParam(const void* context, int32_t device_id, int32_t opt,
                          int64_t value);
  std::optional<int64_t> ContextSysParam(const void* context,
                                         int32_t opt) const;

  // --- Device limits (aclrtDeviceSetLimit) ---------------------------------
  // The kernel stack size: a value above the 32 KiB default is rounded up to
  // a multiple of 16 KiB; smaller values leave the size unchanged.
  absl::Status SetStackSize(uint32_t value);
  uint32_t StackSize() const;
  // The SIMD printf FIFO per core, in [1 KiB, 64 MiB] (else 107000), rounded
  // up to a multiple of 8.
  absl::Status SetPrintfFifoSize(uint32_t value);
  uint32_t PrintfFifoSize() const;

  // --- Operator timeouts ---------------------------------------------------
  // The simulated timeout granularity in microseconds (2^32 ns); a timeout
  // is a whole number of intervals in [1, 254].
  static constexpr uint64_t kTimeoutIntervalUs = 4294967;
  static constexpr uint64_t kMaxTimeoutIntervals = 254;
  // Sets the operator execute timeout (0: the longest) and returns the one
  // in effect, in microseconds.
  uint64_t SetOpExecuteTimeoutUs(uint64_t timeout_us);
  // The timeout in effect (the longest until one is set), in microseconds.
  uint64_t OpExecuteTimeoutUs() const;
  // The event-wait timeout in seconds (0: none).
  void SetOpWaitTimeoutS(uint32_t seconds);
  uint32_t OpWaitTimeoutS() const;
  // aclrtSetTsDevice's task scheduler (the simulator has one: stored only).
  void SetTsId(int32_t ts_id);
  int32_t TsId() const;

  // --- Overflow ------------------------------------------------------------
  // The device's overflow flags: raised by kernels, cleared by the reset
  // calls; nothing raises them before kernels exist.
  void RaiseOverflow(int32_t device_id, uint64_t flags);
  void ClearOverflow(int32_t device_id);
  uint64_t OverflowFlags(int32_t device_id) const;

  // A device closed: its core limits, its streams' and contexts' settings
  // and its overflow flags go with it.
  void OnDeviceClosed(int32_t device_id);

 private:
  using CoreLimits = std::array<std::optional<uint32_t>, kCoreKinds>;
  struct StreamSettings {
    int32_t device_id = 0;
    CoreLimits cores;
  };
  struct ContextSettings {
    int32_t device_id = 0;
    std::array<std::optional<int64_t>, 3> params;
  };

  uint32_t DeviceCoresLocked(int32_t device_id, CoreKind kind) const
      ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_);

  const ChipProperties chip_;
  // Tells this instance's per-thread stream from other instances'.
  const uint64_t serial_;

  mutable ascend::Mutex mu_;
  absl::flat_hash_map<int32_t, CoreLimits> device_cores_ ABSL_GUARDED_BY(mu_);
  absl::flat_hash_map<const void*, StreamSettings> streams_
      ABSL_GUARDED_BY(mu_);
  absl::flat_hash_map<const void*, ContextSettings> contexts_
      ABSL_GUARDED_BY(mu_);
  absl::flat_hash_map<int32_t, uint64_t> overflow_ ABSL_GUARDED_BY(mu_);
  // ACL_RT_OVERFLOW_MODE_INFNAN, the default of Ascend910B parts (25-02).
  int32_t sat_mode_ ABSL_GUARDED_BY(mu_) = 1;
  std::array<int64_t, 4> sys_params_ ABSL_GUARDED_BY(mu_) = {};
  uint32_t stack_size_ ABSL_GUARDED_BY(mu_) = 32 << 10;
  uint32_t printf_fifo_size_ ABSL_GUARDED_BY(mu_) = 32 << 10;
  std::optional<uint64_t> op_execute_timeout_us_ ABSL_GUARDED_BY(mu_);
  uint32_t op_wait_timeout_s_ ABSL_GUARDED_BY(mu_) = 0;
  int32_t ts_id_ ABSL_GUARDED_BY(mu_) = 0;
};

}  // namespace ascend::rt

#endif  // ASCENDCL_RUNTIME_DEVICE_INFO_DEVICE_SETTINGS_H_
