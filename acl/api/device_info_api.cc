// ACL entry points: device information, core limits (per device, stream and
// thread), utilisation, identity, topology, atomics, peer-access status,
// primary-context state, available ids and device limits (DESIGN.md §5.12).
// The stored settings live in runtime/device_settings.h.
#include <algorithm>
#include <cstdio>
#include <cstring>
#include <string>
#include <utility>
#include <vector>

#include "acl/acl.h"
#include "acl/api/api_util.h"
#include "runtime/device_info/device_info.h"
#include "runtime/snapshot_support/snapshot_support.h"
#include "runtime/streams/streams.h"

using ascend::acl::Fam;
using ascend::acl::InvalidEnum;
using ascend::acl::RawEnum;
using ascend::acl::Runtime;
using ascend::rt::CoreKind;
using ascend::rt::Error;
using ascend::rt::ReportError;
using ascend::rt::ReportErrorCode;

namespace {

// The process runtime's device information and settings family (DESIGN.md
// §1.7, §5.12).
ascend::rt::DeviceInfo& Info() {
  return ascend::acl::Fam<ascend::rt::DeviceInfo>();
}
ascend::rt::DeviceSettings& Settings() { return Info().settings(); }

constexpr int32_t kPciBusIdChars = 12;  // "dddd:bb:dd.f"

std::string PciBusIdOf(int32_t device_id) {
  char text[kPciBusIdChars + 1];
  std::snprintf(text, sizeof text, "%04x:%02x:%02x.%x", 0, 1 + device_id % 255,
                device_id / 255, 0);
  return text;
}

bool IsCoreKind(int32_t raw) { return raw == 0 || raw == 1; }

aclError InvalidCoreKind(const char* api, int32_t raw) {
  return InvalidEnum(api, "type", "aclrtDevResLimitType", raw,
                     ACL_ERROR_RT_PARAM_INVALID);
}

absl::Status ValidDevice(int64_t device_id) {
  if (device_id < 0 || device_id >= ascend::acl::DeviceCount()) {
    return Error(ACL_ERROR_RT_INVALID_DEVICEID,
                 "device id " + std::to_string(device_id) + " is out of range");
  }
  return absl::OkStatus();
}

bool DeviceOpen(int32_t device_id) {
  const std::vector<int32_t> open =
      Fam<ascend::rt::SnapshotSupport>().OpenDevices();
  return std::find(open.begin(), open.end(), device_id) != open.end();
}

// A device whose limits can be read or set: in range and open (the
// reference keeps them on the opened device object).
absl::Status OpenDevice(int32_t device_id) {
  absl::Status valid = ValidDevice(device_id);
  if (!valid.ok()) return valid;
  if (!DeviceOpen(device_id)) {
    return Error(ACL_ERROR_RT_DEV_SETUP_ERROR,
                 "device " + std::to_string(device_id) + " is not set");
  }
  return absl::OkStatus();
}

struct StreamRef {
  void* handle;
  int32_t device_id;
};

// A live stream; NULL is the current context's default stream.
absl::StatusOr<StreamRef> ResolveStream(void* stream) {
  void* handle = stream;
  if (handle == nullptr) {
    absl::StatusOr<void*> current =
        Fam<ascend::rt::Streams>().CurrentDefaultStream();
    if (!current.ok()) return current.status();
    handle = *current;
  }
  absl::StatusOr<ascend::rt::StreamInfo> info =
      Fam<ascend::rt::Streams>().GetStreamInfo(handle);
  if (!info.ok()) return info.status();
  return StreamRef{handle, info->device_id};
}

// The simulator's answer for an atomic operation (DESIGN.md §5.12): device
// memory is host memory, so integer and floating-point scalar atomics work
// between the host and a device and between devices; DMA and SIMD atomics
// need hardware engines the simulator does not have.
bool AtomicCapability(int32_t op, uint32_t* capability) {
  constexpr uint32_t kInteger =
      ACL_RT_ATOMIC_CAPABILITY_SIGNED | ACL_RT_ATOMIC_CAPABILITY_UNSIGNED |
      ACL_RT_ATOMIC_CAPABILITY_SCALAR32 | ACL_RT_ATOMIC_CAPABILITY_SCALAR64;
  constexpr uint32_t kFloat =
      ACL_RT_ATOMIC_CAPABILITY_SCALAR32 | ACL_RT_ATOMIC_CAPABILITY_SCALAR64;
  if (op >= ACL_RT_ATOMIC_OPERATION_INTEGER_ADD &&
      op <= ACL_RT_ATOMIC_OPERATION_CAS) {
    *capability = kInteger;
  } else if (op >= ACL_RT_ATOMIC_OPERATION_FLOAT_ADD &&
             op <= ACL_RT_ATOMIC_OPERATION_FLOAT_MAX) {
    *capability = kFloat;
  } else if ((op >= ACL_RT_ATOMIC_OPERATION_DMA_ADD &&
              op <= ACL_RT_ATOMIC_OPERATION_DMA_MAX) ||
             (op >= ACL_RT_ATOMIC_OPERATION_SIMD_SCALAR_ADD &&
              op <= ACL_RT_ATOMIC_OPERATION_SIMD_SCALAR_EXCH)) {
    *capability = 0;
  } else {
    return false;
  }
  return true;
}

aclError AtomicCapabilities(const char* api, uint32_t* capabilities,
                            const aclrtAtomicOperation* operations,
                            uint32_t count) {
  if (capabilities == nullptr || operations == nullptr || count == 0) {
    return ReportErrorCode(
        api, ACL_ERROR_RT_PARAM_INVALID,
        "capabilities and operations must not be NULL and count not 0");
  }
  std::vector<uint32_t> answers(count);
  for (uint32_t i = 0; i < count; ++i) {
    const int32_t raw = RawEnum(operations[i]);
    if (!AtomicCapability(raw, &answers[i])) {
      return InvalidEnum(api, "operations[i]", "aclrtAtomicOperation", raw,
                         ACL_ERROR_RT_PARAM_INVALID);
    }
  }
  std::copy(answers.begin(), answers.end(), capabilities);
  return ACL_SUCCESS;
}

}  // namespace

extern "C" {

aclError aclGetDeviceCapability(uint32_t deviceId, aclDeviceInfo deviceInfo,
                                int64_t* value) try {
  ACL_REQUIRE_NOT_NULL(value);
  if (deviceId >= static_cast<uint32_t>(ascend::acl::DeviceCount())) {
    return ReportErrorCode(__func__, ACL_ERROR_INVALID_PARAM,
                           "deviceId " + std::to_string(deviceId) +
                               " is not below the device count");
  }
  const ascend::rt::ChipProperties& chip = Settings().chip();
  switch (RawEnum(deviceInfo)) {
    case ACL_DEVICE_INFO_AI_CORE_NUM:
      *value = chip.aicore_cores;
      return ACL_SUCCESS;
    case ACL_DEVICE_INFO_VECTOR_CORE_NUM:
      *value = chip.vector_cores;
      return ACL_SUCCESS;
    case ACL_DEVICE_INFO_L2_SIZE:
      *value = static_cast<int64_t>(chip.l2_bytes);
      return ACL_SUCCESS;
    default:
      return InvalidEnum(__func__, "deviceInfo", "aclDeviceInfo",
                         RawEnum(deviceInfo));
  }
}
ACL_ENTRY_CATCH(aclError)

aclError aclrtGetDeviceInfo(uint32_t deviceId, aclrtDevAttr attr,
                            int64_t* value) try {
  ACL_REQUIRE_NOT_NULL(value);
  absl::Status valid = ValidDevice(deviceId);
  if (!valid.ok()) return ReportError(__func__, valid);
  const ascend::rt::ChipProperties& chip = Settings().chip();
  const int32_t raw = RawEnum(attr);
  switch (raw) {
    case ACL_DEV_ATTR_AICPU_CORE_NUM:
      *value = chip.aicpu_cores;
      return ACL_SUCCESS;
    case ACL_DEV_ATTR_AICORE_CORE_NUM:
      *value = chip.aicore_cores;
      return ACL_SUCCESS;
    case ACL_DEV_ATTR_CUBE_CORE_NUM:
      *value = chip.cube_cores;
      return ACL_SUCCESS;
    case ACL_DEV_ATTR_VECTOR_CORE_NUM:
      *value = chip.vector_cores;
      return ACL_SUCCESS;
    case ACL_DEV_ATTR_TOTAL_GLOBAL_MEM_SIZE: {
      std::optional<uint64_t> bytes =
          Runtime().backend() == nullptr
              ? std::nullopt
              : Runtime().backend()->DeviceMemoryBytes(deviceId);
      if (!bytes.has_value()) {
        return ReportErrorCode(__func__, ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
                               "the backend does not report memory sizes");
      }
      *value = static_cast<int64_t>(*bytes);
      return ACL_SUCCESS;
    }
    case ACL_DEV_ATTR_L2_CACHE_SIZE:
      *value = static_cast<int64_t>(chip.l2_bytes);
      return ACL_SUCCESS;
    case ACL_DEV_ATTR_SMP_ID:
    case ACL_DEV_ATTR_CUST_OP_PRIVILEGE:
    case ACL_DEV_ATTR_MAINBOARD_ID:
    case ACL_DEV_ATTR_IS_VIRTUAL:
      *value = 0;
      return ACL_SUCCESS;
    case ACL_DEV_ATTR_PHY_CHIP_ID:
      *value = deviceId;
      return ACL_SUCCESS;
    case ACL_DEV_ATTR_NPU_ARCH:
      *value = chip.npu_arch;
      return ACL_SUCCESS;
    // The SIMT attributes exist on Ascend 950 parts only; the others, the
    // simulated Ascend910B1 among them, answer 0 (25-02 aclrtDevAttr).
    case ACL_DEV_ATTR_WARP_SIZE:
    case ACL_DEV_ATTR_MAX_THREAD_PER_VECTOR_CORE:
    case ACL_DEV_ATTR_UBUF_PER_VECTOR_CORE:
    case ACL_DEV_ATTR_MAX_GRID_DIM_X:
    case ACL_DEV_ATTR_MAX_GRID_DIM_Y:
    case ACL_DEV_ATTR_MAX_GRID_DIM_Z:
    case ACL_DEV_ATTR_MAX_BLOCK_PER_GRID:
    case ACL_DEV_ATTR_MAX_THREADS_PER_BLOCK:
    case ACL_DEV_ATTR_MAX_BLOCK_DIM_X:
    case ACL_DEV_ATTR_MAX_BLOCK_DIM_Y:
    case ACL_DEV_ATTR_MAX_BLOCK_DIM_Z:
      *value = 0;
      return ACL_SUCCESS;
    // Ascend 950 parts only, an error elsewhere (25-02 aclrtDevAttr): the
    // host connection and the form factor. Super-pod placement: no such
    // hardware to describe.
    case ACL_DEV_ATTR_HD_CONNECT_TYPE:
    case ACL_DEV_ATTR_SUPER_POD_DEVICE_ID:
    case ACL_DEV_ATTR_SUPER_POD_SERVER_ID:
    case ACL_DEV_ATTR_SUPER_POD_ID:
    case ACL_DEV_ATTR_DEVICE_FORM_FACTOR:
      return ReportErrorCode(__func__, ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
                             "attribute " + std::to_string(raw) +
                                 " is not available on the simulated device");
    default:
      return InvalidEnum(__func__, "attr", "aclrtDevAttr", raw,
                         ACL_ERROR_RT_PARAM_INVALID);
  }
}
ACL_ENTRY_CATCH(aclError)

// --- Core limits -------------------------------------------------------------

aclError aclrtGetDeviceResLimit(int32_t deviceId, aclrtDevResLimitType type,
                                uint32_t* value) try {
  const int32_t raw = RawEnum(type);
  if (!IsCoreKind(raw)) return InvalidCoreKind(__func__, raw);
  ACL_REQUIRE_NOT_NULL(value);
  absl::Status open = OpenDevice(deviceId);
  if (!open.ok()) return ReportError(__func__, open);
  *value = Settings().DeviceCores(deviceId, CoreKind(raw));
  return ACL_SUCCESS;
}
ACL_ENTRY_CATCH(aclError)

aclError aclrtSetDeviceResLimit(int32_t deviceId, aclrtDevResLimitType type,
                                uint32_t value) try {
  const int32_t raw = RawEnum(type);
  if (!IsCoreKind(raw)) return InvalidCoreKind(__func__, raw);
  absl::Status open = OpenDevice(deviceId);
  if (!open.ok()) return ReportError(__func__, open);
  return ACL_RESULT(Settings().SetDeviceCores(deviceId, CoreKind(raw), value));
}
ACL_ENTRY_CATCH(aclError)

aclError aclrtResetDeviceResLimit(int32_t deviceId) try {
  absl::Status open = OpenDevice(deviceId);
  if (!open.ok()) return ReportError(__func__, open);
  Settings().ResetDeviceCores(deviceId);
  return ACL_SUCCESS;
}
ACL_ENTRY_CATCH(aclError)

aclError aclrtGetStreamResLimit(aclrtStream stream, aclrtDevResLimitType type,
                                uint32_t* value) try {
  const int32_t raw = RawEnum(type);
  if (!IsCoreKind(raw)) return InvalidCoreKind(__func__, raw);
  ACL_REQUIRE_NOT_NULL(value);
  absl::StatusOr<StreamRef> s = ResolveStream(stream);
  if (!s.ok()) return ReportError(__func__, s.status());
  *value = Settings().StreamCores(s->handle, s->device_id, CoreKind(raw));
  return ACL_SUCCESS;
}
ACL_ENTRY_CATCH(aclError)

aclError aclrtSetStreamResLimit(aclrtStream stream, aclrtDevResLimitType type,
                                uint32_t value) try {
  const int32_t raw = RawEnum(type);
  if (!IsCoreKind(raw)) return InvalidCoreKind(__func__, raw);
  absl::StatusOr<StreamRef> s = ResolveStream(stream);
  if (!s.ok()) return ReportError(__func__, s.status());
  return ACL_RESULT(
      Settings().SetStreamCores(s->handle, s->device_id, CoreKind(raw), value));
}
ACL_ENTRY_CATCH(aclError)

aclError aclrtResetStreamResLimit(aclrtStream stream) try {
  absl::StatusOr<StreamRef> s = ResolveStream(stream);
  if (!s.ok()) return ReportError(__func__, s.status());
  Settings().ResetStreamCores(s->handle);
  return ACL_SUCCESS;
}
ACL_ENTRY_CATCH(aclError)

aclError aclrtUseStreamResInCurrentThread(aclrtStream stream) try {
  absl::StatusOr<StreamRef> s = ResolveStream(stream);
  if (!s.ok()) return ReportError(__func__, s.status());
  Settings().UseStreamInThread(s->handle);
  return ACL_SUCCESS;
}
ACL_ENTRY_CATCH(aclError)

aclError aclrtUnuseStreamResInCurrentThread(aclrtStream stream) try {
  absl::StatusOr<StreamRef> s = ResolveStream(stream);
  if (!s.ok()) return ReportError(__func__, s.status());
  // Naming another stream than the thread's is not an error (as in the
  // reference): nothing changes.
  (void)Settings().UnuseStreamInThread(s->handle);
  return ACL_SUCCESS;
}
ACL_ENTRY_CATCH(aclError)

aclError aclrtGetResInCurrentThread(aclrtDevResLimitType type,
                                    uint32_t* value) try {
  const int32_t raw = RawEnum(type);
  if (!IsCoreKind(raw)) return InvalidCoreKind(__func__, raw);
  ACL_REQUIRE_NOT_NULL(value);
  absl::StatusOr<int32_t> device = ascend::acl::CurrentDeviceId();
  if (!device.ok()) return ReportError(__func__, device.status());
  *value = Settings().ThreadCores(*device, CoreKind(raw));
  return ACL_SUCCESS;
}
ACL_ENTRY_CATCH(aclError)

// --- Utilisation, identity, topology -----------------------------------------

aclError aclrtGetDeviceUtilizationRate(
    int32_t deviceId, aclrtUtilizationInfo* utilizationInfo) try {
  ACL_REQUIRE_NOT_NULL(utilizationInfo);
  if (utilizationInfo->utilizationExtend != nullptr) {
    return ReportErrorCode(__func__, ACL_ERROR_INVALID_PARAM,
                           "utilizationExtend is reserved and must be NULL");
  }
  absl::Status valid = ValidDevice(deviceId);
  if (!valid.ok()) return ReportError(__func__, valid);
  // No simulated work occupies a cube, vector or AI CPU core (copies are
  // DMA, host functions run on the host); memory utilisation is never
  // reported, as in the reference (-1).
  utilizationInfo->cubeUtilization = 0;
  utilizationInfo->vectorUtilization = 0;
  utilizationInfo->aicpuUtilization = 0;
  utilizationInfo->memoryUtilization = -1;
  return ACL_SUCCESS;
}
ACL_ENTRY_CATCH(aclError)

aclError aclrtDeviceGetUuid(int32_t deviceId, aclrtUuid* uuid) try {
  ACL_REQUIRE_NOT_NULL(uuid);
  absl::Status valid = ValidDevice(deviceId);
  if (!valid.ok()) return ReportError(__func__, valid);
  // "aclsim" + an RFC 9562 version-8 / variant-10 marker + the device id
  // (big-endian): stable, distinct per device.
  unsigned char bytes[16] = {'a',  'c', 'l', 's', 'i', 'm', 0x80, 0x00,
                             0x80, 0,   0,   0,   0,   0,   0,    0};
  const uint32_t id = static_cast<uint32_t>(deviceId);
  bytes[12] = static_cast<unsigned char>(id >> 24);
  bytes[13] = static_cast<unsigned char>(id >> 16);
  bytes[14] = static_cast<unsigned char>(id >> 8);
  bytes[15] = static_cast<unsigned char>(id);
  std::memcpy(uuid->bytes, bytes, sizeof bytes);
  return ACL_SUCCESS;
}
ACL_ENTRY_CATCH(aclError)

// Simulated devices are reported as PCIe cards of the host (an Ascend910B1
// part answers no ACL_DEV_ATTR_HD_CONNECT_TYPE, 25-02): device d sits at
// 0000:BB:DD.0 with bus BB = 1 + d % 255 and device DD = d / 255 (in hex),
// so device 0 is 0000:01:00.0. Stable, distinct per device, and the two
// functions below are each other's inverse.
aclError aclrtDeviceGetPCIBusId(int32_t deviceId, char* pciBusId,
                                int32_t len) try {
  ACL_REQUIRE_NOT_NULL(pciBusId);
  if (len < kPciBusIdChars + 1) {
    return ReportErrorCode(__func__, ACL_ERROR_INVALID_PARAM,
                           "len " + std::to_string(len) +
                               " is below the 13 bytes a PCI bus id needs");
  }
  absl::Status valid = ValidDevice(deviceId);
  if (!valid.ok()) return ReportError(__func__, valid);
  const std::string id = PciBusIdOf(deviceId);
  std::memcpy(pciBusId, id.c_str(), id.size() + 1);
  return ACL_SUCCESS;
}
ACL_ENTRY_CATCH(aclError)

aclError aclrtDeviceGetByPCIBusId(const char* pciBusId, int32_t* deviceId) try {
  ACL_REQUIRE_NOT_NULL(pciBusId);
  ACL_REQUIRE_NOT_NULL(deviceId);
  unsigned domain = 0, bus = 0, device = 0, function = 0;
  int consumed = 0;
  if (std::sscanf(pciBusId, "%4x:%2x:%2x.%1x%n", &domain, &bus, &device,
                  &function, &consumed) != 4 ||
      pciBusId[consumed] != '\0') {
    return ReportErrorCode(
        __func__, ACL_ERROR_INVALID_PARAM,
        std::string("\"") + pciBusId +
            "\" is not a PCI bus id (domain:bus:device.function)");
  }
  const int64_t id = static_cast<int64_t>(device) * 255 + bus - 1;
  if (domain != 0 || function != 0 || bus == 0 || bus > 255 ||
      id >= ascend::acl::DeviceCount()) {
    return ReportErrorCode(__func__, ACL_ERROR_RT_INVALID_DEVICEID,
                           std::string("no device at PCI bus id ") + pciBusId);
  }
  *deviceId = static_cast<int32_t>(id);
  return ACL_SUCCESS;
}
ACL_ENTRY_CATCH(aclError)

aclError aclrtGetDevicesTopo(uint32_t deviceId, uint32_t otherDeviceId,
                             uint64_t* value) try {
  ACL_REQUIRE_NOT_NULL(value);
  absl::Status valid = ValidDevice(deviceId);
  if (valid.ok()) valid = ValidDevice(otherDeviceId);
  if (!valid.ok()) return ReportError(__func__, valid);
  if (deviceId == otherDeviceId) {
    return ReportErrorCode(__func__, ACL_ERROR_RT_PARAM_INVALID,
                           "the two devices must differ");
  }
  // Every pair of simulated devices is linked directly (peer copies are
  // memcpy between their windows), as the devices of one server by HCCS.
  *value = ACL_RT_DEVS_TOPOLOGY_HCCS;
  return ACL_SUCCESS;
}
ACL_ENTRY_CATCH(aclError)

aclError aclrtDevicePeerAccessStatus(int32_t deviceId, int32_t peerDeviceId,
                                     int32_t* status) try {
  ACL_REQUIRE_NOT_NULL(status);
  absl::StatusOr<bool> enabled =
      Fam<ascend::rt::DeviceInfo>().PeerAccessStatus(deviceId, peerDeviceId);
  if (!enabled.ok()) return ReportError(__func__, enabled.status());
  *status = *enabled ? 1 : 0;
  return ACL_SUCCESS;
}
ACL_ENTRY_CATCH(aclError)

aclError aclrtDeviceGetHostAtomicCapabilities(
    uint32_t* capabilities, const aclrtAtomicOperation* operations,
    const uint32_t count, int32_t deviceId) try {
  absl::Status valid = ValidDevice(deviceId);
  if (!valid.ok()) return ReportError(__func__, valid);
  return AtomicCapabilities(__func__, capabilities, operations, count);
}
ACL_ENTRY_CATCH(aclError)

aclError aclrtDeviceGetP2PAtomicCapabilities(
    uint32_t* capabilities, const aclrtAtomicOperation* operations,
    const uint32_t count, int32_t srcDeviceId, int32_t dstDeviceId) try {
  absl::Status valid = ValidDevice(srcDeviceId);
  if (valid.ok()) valid = ValidDevice(dstDeviceId);
  if (!valid.ok()) return ReportError(__func__, valid);
  if (srcDeviceId == dstDeviceId) {
    return ReportErrorCode(__func__, ACL_ERROR_RT_PARAM_INVALID,
                           "the two devices must differ");
  }
  return AtomicCapabilities(__func__, capabilities, operations, count);
}
ACL_ENTRY_CATCH(aclError)

aclError aclrtGetPrimaryCtxState(int32_t deviceId, uint32_t* flags,
                                 int32_t* active) try {
  ACL_REQUIRE_NOT_NULL(active);
  if (flags != nullptr) {
    return ReportErrorCode(__func__, ACL_ERROR_INVALID_PARAM,
                           "flags is reserved and must be NULL");
  }
  absl::Status valid = ValidDevice(deviceId);
  if (!valid.ok()) return ReportError(__func__, valid);
  // The primary context exists exactly while the device is open.
  *active = DeviceOpen(deviceId) ? 1 : 0;
  return ACL_SUCCESS;
}
ACL_ENTRY_CATCH(aclError)

aclError aclrtGetStreamAvailableNum(uint32_t* streamCount) try {
  ACL_REQUIRE_NOT_NULL(streamCount);
  ACL_RETURN_VALUE(streamCount,
                   Info().AvailableIds(ascend::device::ResourceKind::kStream));
}
ACL_ENTRY_CATCH(aclError)

aclError aclrtGetEventAvailNum(uint32_t* eventCount) try {
  ACL_REQUIRE_NOT_NULL(eventCount);
  ACL_RETURN_VALUE(eventCount,
                   Info().AvailableIds(ascend::device::ResourceKind::kEvent));
}
ACL_ENTRY_CATCH(aclError)

// --- Device limits -----------------------------------------------------------

aclError aclrtDeviceSetLimit(aclrtDeviceLimit limit, size_t value) try {
  const int32_t raw = RawEnum(limit);
  if (raw < ACL_RT_DEV_LIMIT_SIMT_STACK_SIZE ||
      raw > ACL_RT_DEV_LIMIT_SIMT_PRINTF_FIFO_SIZE) {
    return InvalidEnum(__func__, "limit", "aclrtDeviceLimit", raw);
  }
  if (value > UINT32_MAX) {
    return ReportErrorCode(__func__, ACL_ERROR_INVALID_PARAM,
                           "value must not exceed UINT32_MAX");
  }
  ascend::rt::DeviceSettings& settings = Settings();
  switch (raw) {
    case ACL_RT_DEV_LIMIT_SIMD_STACK_SIZE:
      return ACL_RESULT(settings.SetStackSize(static_cast<uint32_t>(value)));
    case ACL_RT_DEV_LIMIT_SIMD_PRINTF_FIFO_SIZE_PER_CORE:
      return ACL_RESULT(
          settings.SetPrintfFifoSize(static_cast<uint32_t>(value)));
    default:  // the SIMT limits: no SIMT on this chip class
      return ReportErrorCode(__func__, ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
                             "SIMT limits are not available on this device");
  }
}
ACL_ENTRY_CATCH(aclError)

aclError aclrtDeviceGetLimit(aclrtDeviceLimit limit, size_t* value) try {
  ACL_REQUIRE_NOT_NULL(value);
  const int32_t raw = RawEnum(limit);
  if (raw < ACL_RT_DEV_LIMIT_SIMT_STACK_SIZE ||
      raw > ACL_RT_DEV_LIMIT_SIMT_PRINTF_FIFO_SIZE) {
    return InvalidEnum(__func__, "limit", "aclrtDeviceLimit", raw);
  }
  const ascend::rt::DeviceSettings& settings = Settings();
  switch (raw) {
    case ACL_RT_DEV_LIMIT_SIMD_STACK_SIZE:
      *value = settings.StackSize();
      return ACL_SUCCESS;
    case ACL_RT_DEV_LIMIT_SIMD_PRINTF_FIFO_SIZE_PER_CORE:
      *value = settings.PrintfFifoSize();
      return ACL_SUCCESS;
    default:
      return ReportErrorCode(__func__, ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
                             "SIMT limits are not available on this device");
  }
}
ACL_ENTRY_CATCH(aclError)

aclError aclrtDeviceL2CacheFlush(void* rsv) try {
  if (rsv != nullptr) {
    return ReportErrorCode(__func__, ACL_ERROR_INVALID_PARAM,
                           "rsv is reserved and must be NULL");
  }
  // Simulated device memory is host memory, coherent with every access:
  // there is no device L2 to write back. The call still needs a device.
  absl::StatusOr<int32_t> device = ascend::acl::CurrentDeviceId();
  if (!device.ok()) return ReportError(__func__, device.status());
  return ACL_SUCCESS;
}
ACL_ENTRY_CATCH(aclError)

}  // extern "C"
