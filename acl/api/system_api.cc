// ACL entry points: system parameters (process and context), the
// saturation mode, operator timeouts, the task scheduler, overflow status,
// CANN package versions and profiling trace points (DESIGN.md §5.12; the
// dump trio is acl/dump/dump_api.cc, §5.25).
#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "acl/acl.h"
#include "acl/api/api_util.h"
#include "acl/sysinfo/version_info.h"
#include "glog/logging.h"
#include "runtime/device_info/device_info.h"
#include "runtime/streams/streams.h"

using ascend::acl::Fam;
using ascend::acl::InvalidEnum;
using ascend::acl::RawEnum;
using ascend::rt::ReportError;
using ascend::rt::ReportErrorCode;

namespace {

// The process runtime's device information and settings family (DESIGN.md
// §1.7, §5.12).
ascend::rt::DeviceInfo& Info() {
  return ascend::acl::Fam<ascend::rt::DeviceInfo>();
}
ascend::rt::DeviceSettings& Settings() { return Info().settings(); }

constexpr int32_t kDeterministicLevels = 4;  // ACL_OPT_DETERMINISTIC: [0, 4)
constexpr int32_t kSwitchValues = 2;         // other options: 0 or 1

aclError CheckSysParamValue(const char* api, int32_t opt, int64_t value) {
  const int64_t limit =
      opt == ACL_OPT_DETERMINISTIC ? kDeterministicLevels : kSwitchValues;
  if (value < 0 || value >= limit) {
    return ReportErrorCode(api, ACL_ERROR_RT_PARAM_INVALID,
                           "value " + std::to_string(value) +
                               " is outside [0, " + std::to_string(limit) +
                               ")");
  }
  return ACL_SUCCESS;
}

bool IsProcessSysParam(int32_t opt) { return opt >= 0 && opt <= 3; }
// ACL_OPT_ENABLE_KERNEL_EARLY_START is process-wide only.
bool IsContextSysParam(int32_t opt) { return opt >= 0 && opt <= 2; }

// The bytes of the overflow status the query calls write: the device's
// flags (little-endian) in the first eight bytes, zeros after.
constexpr size_t kOverflowStatusBytes = 64;

aclError EnqueueOverflowRead(const char* api, void* output, uint64_t size,
                             aclrtStream stream) {
  if (output == nullptr) {
    return ReportErrorCode(api, ACL_ERROR_INVALID_PARAM,
                           "outputAddr must not be NULL");
  }
  if (size == 0) {
    return ReportErrorCode(api, ACL_ERROR_RT_PARAM_INVALID,
                           "outputSize must not be 0");
  }
  absl::StatusOr<ascend::rt::StreamInfo> info =
      Fam<ascend::rt::Streams>().GetStreamInfo(stream);
  if (!info.ok()) return ReportError(api, info.status());
  const int32_t device_id = info->device_id;
  const size_t bytes =
      static_cast<size_t>(std::min<uint64_t>(size, kOverflowStatusBytes));
  return ReportError(
      api, Info().EnqueueDeviceWrite(
               stream, output, bytes, [device_id](uint8_t* out, size_t n) {
                 uint64_t flags = Settings().OverflowFlags(device_id);
                 std::memset(out, 0, n);
                 for (size_t i = 0; i < n && i < sizeof flags; ++i) {
                   out[i] = static_cast<uint8_t>(flags >> (8 * i));
                 }
               }));
}

aclError EnqueueOverflowReset(const char* api, aclrtStream stream) {
  absl::StatusOr<ascend::rt::StreamInfo> info =
      Fam<ascend::rt::Streams>().GetStreamInfo(stream);
  if (!info.ok()) return ReportError(api, info.status());
  const int32_t device_id = info->device_id;
  return ReportError(api, Info().EnqueueStreamTask(stream, [device_id] {
    Settings().ClearOverflow(device_id);
    return absl::OkStatus();
  }));
}

// The package directory under share/info CANN reads for each package name.
const char* PackageDirectory(int32_t name) {
  switch (name) {
    case ACL_PKG_NAME_CANN:
    case ACL_PKG_NAME_RUNTIME:
      return "runtime";
    case ACL_PKG_NAME_COMPILER:
      return "bisheng-compiler";
    case ACL_PKG_NAME_HCCL:
      return "hccl";
    case ACL_PKG_NAME_TOOLKIT:
      return "oam-tools";
    case ACL_PKG_NAME_OPP:
    case ACL_PKG_NAME_OPP_KERNEL:
      return "ops-legacy";
    default:
      return nullptr;
  }
}

// Copies `text` (NUL included) into a field of `capacity` bytes; false when
// it does not fit or is empty.
bool CopyField(const std::string& text, char* field, size_t capacity) {
  if (text.empty() || text.size() >= capacity) return false;
  std::memcpy(field, text.c_str(), text.size() + 1);
  return true;
}

}  // namespace

extern "C" {

// --- System parameters
// ---------------------------------------------------------

aclError aclrtSetSysParamOpt(aclSysParamOpt opt, int64_t value) try {
  const int32_t raw = RawEnum(opt);
  if (!IsProcessSysParam(raw)) {
    return InvalidEnum(__func__, "opt", "aclSysParamOpt", raw);
  }
  if (aclError bad = CheckSysParamValue(__func__, raw, value)) return bad;
  Settings().SetSysParam(raw, value);
  return ACL_SUCCESS;
}
ACL_ENTRY_CATCH(aclError)

aclError aclrtGetSysParamOpt(aclSysParamOpt opt, int64_t* value) try {
  ACL_REQUIRE_NOT_NULL(value);
  const int32_t raw = RawEnum(opt);
  if (!IsProcessSysParam(raw)) {
    return InvalidEnum(__func__, "opt", "aclSysParamOpt", raw);
  }
  *value = Settings().SysParam(raw);
  return ACL_SUCCESS;
}
ACL_ENTRY_CATCH(aclError)

aclError aclrtCtxSetSysParamOpt(aclSysParamOpt opt, int64_t value) try {
  const int32_t raw = RawEnum(opt);
  if (!IsContextSysParam(raw)) {
    return InvalidEnum(__func__, "opt", "aclSysParamOpt", raw);
  }
  if (aclError bad = CheckSysParamValue(__func__, raw, value)) return bad;
  absl::StatusOr<void*> context =
      Fam<ascend::rt::Streams>().GetCurrentContext();
  if (!context.ok()) return ReportError(__func__, context.status());
  absl::StatusOr<int32_t> device = ascend::acl::CurrentDeviceId();
  if (!device.ok()) return ReportError(__func__, device.status());
  Settings().SetContextSysParam(*context, *device, raw, value);
  return ACL_SUCCESS;
}
ACL_ENTRY_CATCH(aclError)

aclError aclrtCtxGetSysParamOpt(aclSysParamOpt opt, int64_t* value) try {
  ACL_REQUIRE_NOT_NULL(value);
  const int32_t raw = RawEnum(opt);
  if (!IsContextSysParam(raw)) {
    return InvalidEnum(__func__, "opt", "aclSysParamOpt", raw);
  }
  absl::StatusOr<void*> context =
      Fam<ascend::rt::Streams>().GetCurrentContext();
  if (!context.ok()) return ReportError(__func__, context.status());
  std::optional<int64_t> stored = Settings().ContextSysParam(*context, raw);
  if (!stored.has_value()) {
    return ReportErrorCode(
        __func__, ACL_ERROR_RT_SYSPARAMOPT_NOT_SET,
        "the current context never set option " + std::to_string(raw));
  }
  *value = *stored;
  return ACL_SUCCESS;
}
ACL_ENTRY_CATCH(aclError)

// --- Saturation mode, timeouts, task scheduler
// ---------------------------------

aclError aclrtSetDeviceSatMode(aclrtFloatOverflowMode mode) try {
  const int32_t raw = RawEnum(mode);
  if (raw != ACL_RT_OVERFLOW_MODE_SATURATION &&
      raw != ACL_RT_OVERFLOW_MODE_INFNAN) {
    return InvalidEnum(__func__, "mode", "aclrtFloatOverflowMode", raw,
                       ACL_ERROR_RT_PARAM_INVALID);
  }
  Settings().SetSatMode(raw);
  return ACL_SUCCESS;
}
ACL_ENTRY_CATCH(aclError)

aclError aclrtGetDeviceSatMode(aclrtFloatOverflowMode* mode) try {
  ACL_REQUIRE_NOT_NULL(mode);
  *mode = static_cast<aclrtFloatOverflowMode>(Settings().SatMode());
  return ACL_SUCCESS;
}
ACL_ENTRY_CATCH(aclError)

aclError aclrtSetOpExecuteTimeOut(uint32_t timeout) try {
  Settings().SetOpExecuteTimeoutUs(uint64_t{timeout} * 1000000);
  return ACL_SUCCESS;
}
ACL_ENTRY_CATCH(aclError)

aclError aclrtSetOpExecuteTimeOutWithMs(uint32_t timeout) try {
  Settings().SetOpExecuteTimeoutUs(uint64_t{timeout} * 1000);
  return ACL_SUCCESS;
}
ACL_ENTRY_CATCH(aclError)

aclError aclrtSetOpExecuteTimeOutV2(uint64_t timeout,
                                    uint64_t* actualTimeout) try {
  ACL_REQUIRE_NOT_NULL(actualTimeout);
  // Like the reference, this form needs a device (the interval is the
  // device's).
  absl::StatusOr<int32_t> device = ascend::acl::CurrentDeviceId();
  if (!device.ok()) return ReportError(__func__, device.status());
  *actualTimeout = Settings().SetOpExecuteTimeoutUs(timeout);
  return ACL_SUCCESS;
}
ACL_ENTRY_CATCH(aclError)

aclError aclrtGetOpExecuteTimeout(uint32_t* const timeoutMs) try {
  ACL_REQUIRE_NOT_NULL(timeoutMs);
  *timeoutMs = static_cast<uint32_t>(Settings().OpExecuteTimeoutUs() / 1000);
  return ACL_SUCCESS;
}
ACL_ENTRY_CATCH(aclError)

aclError aclrtGetOpTimeOutInterval(uint64_t* interval) try {
  ACL_REQUIRE_NOT_NULL(interval);
  absl::StatusOr<int32_t> device = ascend::acl::CurrentDeviceId();
  if (!device.ok()) return ReportError(__func__, device.status());
  *interval = ascend::rt::DeviceSettings::kTimeoutIntervalUs;
  return ACL_SUCCESS;
}
ACL_ENTRY_CATCH(aclError)

aclError aclrtSetOpWaitTimeout(uint32_t timeout) try {
  Settings().SetOpWaitTimeoutS(timeout);
  return ACL_SUCCESS;
}
ACL_ENTRY_CATCH(aclError)

aclError aclrtSetTsDevice(aclrtTsId tsId) try {
  const int32_t raw = RawEnum(tsId);
  if (raw != ACL_TS_ID_AICORE && raw != ACL_TS_ID_AIVECTOR) {
    return InvalidEnum(__func__, "tsId", "aclrtTsId", raw);
  }
  Settings().SetTsId(raw);
  return ACL_SUCCESS;
}
ACL_ENTRY_CATCH(aclError)

// --- Overflow status
// -----------------------------------------------------------

aclError aclrtGetOverflowStatus(void* outputAddr, size_t outputSize,
                                aclrtStream stream) try {
  ACL_GATE();
  // 04, aclrtGetOverflowStatus `outputSize`: fixed at 64 bytes.
  if (outputAddr != nullptr && outputSize != kOverflowStatusBytes) {
    return ReportErrorCode(__func__, ACL_ERROR_RT_PARAM_INVALID,
                           absl::StrCat("outputSize is ", outputSize,
                                        "; the status takes exactly ",
                                        kOverflowStatusBytes, " bytes"));
  }
  return EnqueueOverflowRead(__func__, outputAddr, outputSize, stream);
}
ACL_ENTRY_CATCH(aclError)

aclError aclrtResetOverflowStatus(aclrtStream stream) try {
  ACL_GATE();
  return EnqueueOverflowReset(__func__, stream);
}
ACL_ENTRY_CATCH(aclError)

aclError aclrtGetFloatOverflowStatus(void* outputAddr, uint64_t outputSize,
                                     aclrtStream stream) try {
  ACL_GATE();
  return EnqueueOverflowRead(__func__, outputAddr, outputSize, stream);
}
ACL_ENTRY_CATCH(aclError)

aclError aclrtResetFloatOverflowStatus(aclrtStream stream) try {
  ACL_GATE();
  return EnqueueOverflowReset(__func__, stream);
}
ACL_ENTRY_CATCH(aclError)

// checkMode selects nothing on the simulator: a device has one set of flags.
aclError aclrtNpuGetFloatOverFlowStatus(void* outputAddr, uint64_t outputSize,
                                        uint32_t checkMode,
                                        aclrtStream stream) try {
  ACL_GATE();
  (void)checkMode;
  return EnqueueOverflowRead(__func__, outputAddr, outputSize, stream);
}
ACL_ENTRY_CATCH(aclError)

aclError aclrtNpuClearFloatOverFlowStatus(uint32_t checkMode,
                                          aclrtStream stream) try {
  ACL_GATE();
  (void)checkMode;
  return EnqueueOverflowReset(__func__, stream);
}
ACL_ENTRY_CATCH(aclError)

// The switch is the stream's ACL_STREAM_ATTR_FLOAT_OVERFLOW_CHECK attribute:
// one piece of stream state, kept by a snapshot with the stream.
aclError aclrtSetStreamOverflowSwitch(aclrtStream stream, uint32_t flag) try {
  if (flag != 0 && flag != 1) {
    return ReportErrorCode(__func__, ACL_ERROR_INVALID_PARAM,
                           "flag must be 0 or 1");
  }
  absl::StatusOr<void*> handle =
      stream != nullptr ? absl::StatusOr<void*>(stream)
                        : Fam<ascend::rt::Streams>().CurrentDefaultStream();
  if (!handle.ok()) return ReportError(__func__, handle.status());
  aclrtStreamAttrValue value;
  std::memset(&value, 0, sizeof value);
  value.overflowSwitch = flag;
  return ACL_RESULT(Fam<ascend::rt::Streams>().SetStreamAttribute(
      *handle, ACL_STREAM_ATTR_FLOAT_OVERFLOW_CHECK, value));
}
ACL_ENTRY_CATCH(aclError)

aclError aclrtGetStreamOverflowSwitch(aclrtStream stream, uint32_t* flag) try {
  ACL_REQUIRE_NOT_NULL(flag);
  absl::StatusOr<void*> handle =
      stream != nullptr ? absl::StatusOr<void*>(stream)
                        : Fam<ascend::rt::Streams>().CurrentDefaultStream();
  if (!handle.ok()) return ReportError(__func__, handle.status());
  absl::StatusOr<aclrtStreamAttrValue> value =
      Fam<ascend::rt::Streams>().GetStreamAttribute(
          *handle, ACL_STREAM_ATTR_FLOAT_OVERFLOW_CHECK);
  if (!value.ok()) return ReportError(__func__, value.status());
  *flag = value->overflowSwitch != 0 ? 1 : 0;
  return ACL_SUCCESS;
}
ACL_ENTRY_CATCH(aclError)

// --- Versions
// ------------------------------------------------------------------

aclError aclsysGetCANNVersion(aclCANNPackageName name,
                              aclCANNPackageVersion* version) try {
  ACL_REQUIRE_NOT_NULL(version);
  const int32_t raw = RawEnum(name);
  if (raw == ACL_PKG_NAME_DRIVER) {
    // The simulator installs no driver package.
    return ReportErrorCode(__func__, ACL_ERROR_INVALID_FILE,
                           "no driver package is installed");
  }
  const char* directory = PackageDirectory(raw);
  if (directory == nullptr) {
    return InvalidEnum(__func__, "name", "aclCANNPackageName", raw);
  }
  const char* home = std::getenv("ASCEND_HOME_PATH");
  absl::StatusOr<std::string> text = ascend::acl::sysinfo::ReadPackageVersion(
      home == nullptr ? "" : home, directory);
  if (!text.ok()) return ReportError(__func__, text.status());
  std::vector<std::string> parts = absl::StrSplit(*text, '.');
  if (parts.size() < 2) {
    return ReportErrorCode(__func__, ACL_ERROR_INVALID_FILE,
                           "version " + *text + " has fewer than two parts");
  }
  while (parts.size() < 4) parts.emplace_back("0");
  aclCANNPackageVersion filled;
  std::memset(&filled, 0, sizeof filled);
  if (!CopyField(*text, filled.version, sizeof filled.version) ||
      !CopyField(parts[0], filled.majorVersion, sizeof filled.majorVersion) ||
      !CopyField(parts[1], filled.minorVersion, sizeof filled.minorVersion) ||
      !CopyField(parts[2], filled.releaseVersion,
                 sizeof filled.releaseVersion) ||
      !CopyField(parts[3], filled.patchVersion, sizeof filled.patchVersion)) {
    return ReportErrorCode(__func__, ACL_ERROR_INVALID_FILE,
                           "version " + *text + " does not fit its fields");
  }
  *version = filled;
  return ACL_SUCCESS;
}
ACL_ENTRY_CATCH(aclError)

// --- Profiling
// -------------------------------------------------------------------

aclError aclrtProfTrace(void* userdata, int32_t length,
                        aclrtStream stream) try {
  ACL_GATE();
  ACL_REQUIRE_NOT_NULL(userdata);
  // The reference's trace record: id (8 bytes), model id (8), tag id (2).
  constexpr int32_t kTraceRecordBytes = 18;
  if (length <= 0 || length > kTraceRecordBytes) {
    return ReportErrorCode(__func__, ACL_ERROR_RT_PARAM_INVALID,
                           "length must lie in (0, 18]");
  }
  // No profiler collects the trace point: a task in stream order that does
  // nothing.
  return ACL_RESULT(
      Info().EnqueueStreamTask(stream, [] { return absl::OkStatus(); }));
}
ACL_ENTRY_CATCH(aclError)

}  // extern "C"
