// The device backends built into this library, registered explicitly:
//
//   BackendRegistry registry;
//   ASCEND_RETURN_IF_ERROR(RegisterBuiltinBackends(registry));
//
// or, for a process that only wants the backend ACL_DEVICE_BACKEND selects:
//
//   ASCEND_ASSIGN_OR_RETURN(std::unique_ptr<Backend> backend,
//                           CreateBackendFromEnvironment());
//
// Kept out of //device:backend_registry so the registry itself depends on no
// backend.
#ifndef ASCENDCL_DEVICE_BUILTIN_BACKENDS_H_
#define ASCENDCL_DEVICE_BUILTIN_BACKENDS_H_

#include <memory>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "device/backend_registry.h"
#include "device/device.h"

namespace ascend::device {

// Registers "sim" and "npu" (DESIGN.md §1.3). Fails only if one of those
// names is already registered in `registry`.
absl::Status RegisterBuiltinBackends(BackendRegistry& registry);

// A new backend chosen by ACL_DEVICE_BACKEND among the built-in ones ("sim"
// when unset or empty), from a registry made for this call. Errors: an
// unknown name (kInvalidArgument, listing the known ones) or what the
// backend's factory returns (e.g. kInvalidArgument for a malformed
// ACLSIM_* variable).
absl::StatusOr<std::unique_ptr<Backend>> CreateBackendFromEnvironment();

}  // namespace ascend::device

#endif  // ASCENDCL_DEVICE_BUILTIN_BACKENDS_H_
