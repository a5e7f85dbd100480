// The planning of the "memory" participant's captures: where the
// allocations may hold data (DESIGN.md §4.14) and, in memory_plan.cc,
// SavedMemory::Plan, which lays their pieces out. Internal to the memory
// participants.
#ifndef ASCENDCL_SNAPSHOT_MEMORY_PLAN_H_
#define ASCENDCL_SNAPSHOT_MEMORY_PLAN_H_

#include <cstdint>
#include <memory>
#include <vector>

#include "absl/status/statusor.h"
#include "device/device.h"
#include "runtime/runtime.h"
#include "snapshot/memory_tracking.h"

namespace ascend::snapshot::internal {

// The open device `device_id` of `runtime`; kFailedPrecondition when it is
// not open.
absl::StatusOr<std::shared_ptr<device::Device>> OpenDevice(rt::Runtime& runtime,
                                                           int32_t device_id);

// Where `live` (sorted) may hold data, asking the device only where it
// must: an allocation `base` saved at the same address and size was tracked
// since, so outside the `written` ranges its data is where the base's
// pieces are; inside them, and in allocations the base does not have, the
// device tells. Without a base (or `written`), the device tells all.
std::vector<device::Allocation> DataSince(
    const device::Device& device, const std::vector<device::Allocation>& live,
    const Layout* base, const std::vector<device::Allocation>* written);

}  // namespace ascend::snapshot::internal

#endif  // ASCENDCL_SNAPSHOT_MEMORY_PLAN_H_
