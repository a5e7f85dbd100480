#include "runtime/device_info/device_settings.h"

#include <algorithm>
#include <atomic>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "acl/acl_base.h"
#include "runtime/base/error.h"

namespace ascend::rt {
namespace {

uint64_t NextSerial() {
  static std::atomic<uint64_t> next{1};
  return next.fetch_add(1, std::memory_order_relaxed);
}

// The calling thread's stream for core limits, per DeviceSettings instance.
struct ThreadStreams {
  std::vector<std::pair<uint64_t, const void*>> slots;
};
thread_local ThreadStreams tls_streams;

const void*& ThreadSlot(uint64_t serial) {
  for (auto& [owner, stream] : tls_streams.slots) {
    if (owner == serial) return stream;
  }
  return tls_streams.slots.emplace_back(serial, nullptr).second;
}

int Index(CoreKind kind) { return static_cast<int>(kind); }

constexpr uint32_t kDefaultStackSize = 32 << 10;
constexpr uint32_t kStackGranule = 16 << 10;
constexpr uint32_t kMinPrintfFifo = 1 << 10;
constexpr uint32_t kMaxPrintfFifo = 64 << 20;
constexpr uint32_t kPrintfFifoGranule = 8;

}  // namespace

DeviceSettings::DeviceSettings(ChipProperties chip)
    : chip_(chip), serial_(NextSerial()) {}

uint32_t DeviceSettings::HardwareCores(CoreKind kind) const {
  return kind == CoreKind::kCube ? chip_.cube_cores : chip_.vector_cores;
}

absl::Status DeviceSettings::SetDeviceCores(int32_t device_id, CoreKind kind,
                                            uint32_t value) {
  if (value > HardwareCores(kind)) {
    return Error(ACL_ERROR_RT_PARAM_INVALID,
                 absl::StrCat("core limit ", value, " exceeds the device's ",
                              HardwareCores(kind), " cores"));
  }
  ascend::MutexLock lock(&mu_);
  device_cores_[device_id][Index(kind)] = value;
  return absl::OkStatus();
}

void DeviceSettings::ResetDeviceCores(int32_t device_id) {
  ascend::MutexLock lock(&mu_);
  device_cores_.erase(device_id);
}

uint32_t DeviceSettings::DeviceCoresLocked(int32_t device_id,
                                           CoreKind kind) const {
  auto it = device_cores_.find(device_id);
  if (it != device_cores_.end() && it->second[Index(kind)].has_value()) {
    return *it->second[Index(kind)];
  }
  return HardwareCores(kind);
}

uint32_t DeviceSettings::DeviceCores(int32_t device_id, CoreKind kind) const {
  ascend::MutexLock lock(&mu_);
  return DeviceCoresLocked(device_id, kind);
}

absl::Status DeviceSettings::SetStreamCores(const void* stream,
                                            int32_t device_id, CoreKind kind,
                                            uint32_t value) {
  // Unlike the device limit, a stream's may exceed its device's (as in the
  // reference), never the hardware's.
  if (value > HardwareCores(kind)) {
    return Error(ACL_ERROR_RT_PARAM_INVALID,
                 absl::StrCat("core limit ", value, " exceeds the device's ",
                              HardwareCores(kind), " cores"));
  }
  ascend::MutexLock lock(&mu_);
  StreamSettings& settings = streams_[stream];
  settings.device_id = device_id;
  settings.cores[Index(kind)] = value;
  return absl::OkStatus();
}

void DeviceSettings::ResetStreamCores(const void* stream) {
  ascend::MutexLock lock(&mu_);
  auto it = streams_.find(stream);
  if (it != streams_.end()) it->second.cores = CoreLimits();
}

uint32_t DeviceSettings::StreamCores(const void* stream, int32_t device_id,
                                     CoreKind kind) const {
  ascend::MutexLock lock(&mu_);
  auto it = streams_.find(stream);
  if (it != streams_.end() && it->second.cores[Index(kind)].has_value()) {
    return *it->second.cores[Index(kind)];
  }
  return DeviceCoresLocked(device_id, kind);
}

void DeviceSettings::UseStreamInThread(const void* stream) {
  ThreadSlot(serial_) = stream;
}

bool DeviceSettings::UnuseStreamInThread(const void* stream) {
  const void*& slot = ThreadSlot(serial_);
  if (slot != stream) return false;
  slot = nullptr;
  return true;
}

uint32_t DeviceSettings::ThreadCores(int32_t device_id, CoreKind kind) const {
  const void* stream = ThreadSlot(serial_);
  ascend::MutexLock lock(&mu_);
  if (stream != nullptr) {
    auto it = streams_.find(stream);
    if (it != streams_.end() && it->second.cores[Index(kind)].has_value()) {
      return *it->second.cores[Index(kind)];
    }
  }
  return DeviceCoresLocked(device_id, kind);
}

void DeviceSettings::SetSatMode(int32_t mode) {
  ascend::MutexLock lock(&mu_);
  sat_mode_ = mode;
}

int32_t DeviceSettings::SatMode() const {
  ascend::MutexLock lock(&mu_);
  return sat_mode_;
}

void DeviceSettings::SetSysParam(int32_t opt, int64_t value) {
  ascend::MutexLock lock(&mu_);
  sys_params_.at(static_cast<size_t>(opt)) = value;
}

int64_t DeviceSettings::SysParam(int32_t opt) const {
  ascend::MutexLock lock(&mu_);
  return sys_params_.at(static_cast<size_t>(opt));
}

void DeviceSettings::SetContextSysParam(const void* context, int32_t device_id,
                                        int32_t opt, int64_t value) {
  ascend::MutexLock lock(&mu_);
  ContextSettings& settings = contexts_[context];
  settings.device_id = device_id;
  settings.params.at(static_cast<size_t>(opt)) = value;
}

std::optional<int64_t> DeviceSettings::ContextSysParam(const void* context,
                                                       int32_t opt) const {
  ascend::MutexLock lock(&mu_);
  auto it = contexts_.find(context);
  if (it == contexts_.end()) return std::nullopt;
  return it->second.params.at(static_cast<size_t>(opt));
}

absl::Status DeviceSettings::SetStackSize(uint32_t value) {
  // 25-02 (aclrtDeviceLimit, SIMD stack on Atlas A2 parts): at most
  // 192 KiB; up to 32 KiB counts as 32 KiB; above, rounded up to 16 KiB.
  constexpr uint32_t kMaxStackSize = 192 << 10;
  if (value > kMaxStackSize) {
    return Error(ACL_ERROR_RT_PARAM_INVALID,
                 absl::StrCat("SIMD stack size ", value,
                              " exceeds the largest, ", kMaxStackSize));
  }
  const uint32_t rounded =
      value <= kDefaultStackSize
          ? kDefaultStackSize
          : (value + kStackGranule - 1) / kStackGranule * kStackGranule;
  ascend::MutexLock lock(&mu_);
  stack_size_ = rounded;
  return absl::OkStatus();
}

uint32_t DeviceSettings::StackSize() const {
  ascend::MutexLock lock(&mu_);
  return stack_size_;
}

absl::Status DeviceSettings::SetPrintfFifoSize(uint32_t value) {
  if (value < kMinPrintfFifo || value > kMaxPrintfFifo) {
    return Error(ACL_ERROR_RT_PARAM_INVALID,
                 absl::StrCat("printf FIFO size ", value, " is outside [",
                              kMinPrintfFifo, ", ", kMaxPrintfFifo, "]"));
  }
  ascend::MutexLock lock(&mu_);
  printf_fifo_size_ = (value + kPrintfFifoGranule - 1) / kPrintfFifoGranule *
                      kPrintfFifoGranule;
  return absl::OkStatus();
}

uint32_t DeviceSettings::PrintfFifoSize() const {
  ascend::MutexLock lock(&mu_);
  return printf_fifo_size_;
}

uint64_t DeviceSettings::SetOpExecuteTimeoutUs(uint64_t timeout_us) {
  uint64_t intervals = kMaxTimeoutIntervals;
  if (timeout_us != 0) {
    intervals = timeout_us / kTimeoutIntervalUs +
                (timeout_us % kTimeoutIntervalUs != 0 ? 1 : 0);
    intervals = std::clamp<uint64_t>(intervals, 1, kMaxTimeoutIntervals);
  }
  const uint64_t effective = intervals * kTimeoutIntervalUs;
  ascend::MutexLock lock(&mu_);
  op_execute_timeout_us_ = effective;
  return effective;
}

uint64_t DeviceSettings::OpExecuteTimeoutUs() const {
  ascend::MutexLock lock(&mu_);
  return op_execute_timeout_us_.value_or(kMaxTimeoutIntervals *
                                         kTimeoutIntervalUs);
}

void DeviceSettings::SetOpWaitTimeoutS(uint32_t seconds) {
  ascend::MutexLock lock(&mu_);
  op_wait_timeout_s_ = seconds;
}

uint32_t DeviceSettings::OpWaitTimeoutS() const {
  ascend::MutexLock lock(&mu_);
  return op_wait_timeout_s_;
}

void DeviceSettings::SetTsId(int32_t ts_id) {
  ascend::MutexLock lock(&mu_);
  ts_id_ = ts_id;
}

int32_t DeviceSettings::TsId() const {
  ascend::MutexLock lock(&mu_);
  return ts_id_;
}

void DeviceSettings::RaiseOverflow(int32_t device_id, uint64_t flags) {
  ascend::MutexLock lock(&mu_);
  overflow_[device_id] |= flags;
}

void DeviceSettings::ClearOverflow(int32_t device_id) {
  ascend::MutexLock lock(&mu_);
  overflow_.erase(device_id);
}

uint64_t DeviceSettings::OverflowFlags(int32_t device_id) const {
  ascend::MutexLock lock(&mu_);
  auto it = overflow_.find(device_id);
  return it == overflow_.end() ? 0 : it->second;
}

void DeviceSettings::OnDeviceClosed(int32_t device_id) {
  ascend::MutexLock lock(&mu_);
  device_cores_.erase(device_id);
  overflow_.erase(device_id);
  absl::erase_if(streams_, [device_id](const auto& entry) {
    return entry.second.device_id == device_id;
  });
  absl::erase_if(contexts_, [device_id](const auto& entry) {
    return entry.second.device_id == device_id;
  });
}

}  // namespace ascend::rt
