// The process's default device, set from aclInit's config
// (defaultDevice.default_device). Threads that never called aclrtSetDevice
// and have no current context use it on their first device-bound call.
#ifndef ASCENDCL_RUNTIME_DEFAULT_DEVICE_H_
#define ASCENDCL_RUNTIME_DEFAULT_DEVICE_H_

#include <cstdint>
#include <optional>

namespace ascend::rt {

// Sets the default device id. The id is validated when it is first used (as
// the reference does), so any non-negative id is accepted here.
void SetDefaultDevice(int32_t device_id);
// Disables the default device.
void ClearDefaultDevice();
// The default device, if one is set.
std::optional<int32_t> DefaultDevice();

}  // namespace ascend::rt

#endif  // ASCENDCL_RUNTIME_DEFAULT_DEVICE_H_
