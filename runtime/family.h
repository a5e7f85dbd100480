// Resource families: the per-runtime objects of the families that live in
// packages of their own above the core (DESIGN.md §1.7).
//
// A family is a class derived from Family, built by its registration's
// factory when the runtime is constructed, destroyed before the runtime's
// own members, and found with Runtime::family<T>():
//
//   // runtime/model/model.cc
//   FamilyRegistration ModelFamily() {
//     return {"models", &FamilyIndex<Models>,
//             [](Runtime& rt) -> std::unique_ptr<Family> {
//               return std::make_unique<Models>(rt);
//             }};
//   }
//   // runtime/process/families.cc: one line per family
//   ModelFamily(),
//
// A family reaches the core only through Runtime's public interface (the
// task path, stream, context and device resolution, device observers).
#ifndef ASCENDCL_RUNTIME_FAMILY_H_
#define ASCENDCL_RUNTIME_FAMILY_H_

#include <cstdint>
#include <memory>
#include <vector>

namespace ascend::rt {

class Runtime;
class SnapshotParticipant;

class Family {
 public:
  virtual ~Family() = default;
  // Called when a device closes (reset, last context destroyed, runtime
  // destroyed), with the core's lock held and before the device can open
  // again: the family drops what it keeps per opening of that device. It
  // must not call into the runtime. Runtime::WhileOpen is its counterpart
  // for records made while the device is open.
  virtual void OnDeviceClose(int32_t device_id) { (void)device_id; }
  // Called with the core's lock held when a stream leaves the handle table
  // (destroyed, its context destroyed, its device closed): the family drops
  // what it keeps for that stream handle. It must not call into the runtime.
  virtual void OnStreamGone(const void* stream) { (void)stream; }
};

namespace internal {
// The next unused family index (0, 1, ...).
int NextFamilyIndex();
}  // namespace internal

// A small dense index per family type, the same for every runtime of the
// process.
template <typename T>
int FamilyIndex() {
  static const int index = internal::NextFamilyIndex();
  return index;
}

// How a family is added to a runtime, in one record: its name (for log
// lines), its index, its factory, and its snapshot participants with their
// place in the restore order. The factory runs at the end of
// the runtime's constructor, in registration order. The snapshot registers
// the participants of the families a runtime has (Runtime::
// family_registrations()), and the participant conformance suite checks
// that it gives every one of them objects to carry
// (//testing/participant_conformance, DESIGN.md §1.7).
struct FamilyRegistration {
  // Where a family's participants restore (DESIGN.md §4.12).
  enum class RestoreStage {
    // With the streams' ids, right after the devices re-open: objects that
    // hold device ids (events, notifies).
    kWithStreams,
    // Before the allocations and their contents come back: address
    // reservations and mappings.
    kBeforeMemory,
    // After the contents: objects that refer to device memory (models,
    // kernel binaries).
    kAfterMemory,
  };
  using Participants = std::vector<std::unique_ptr<SnapshotParticipant>>;

  const char* name;
  int (*index)();
  std::unique_ptr<Family> (*make)(Runtime& runtime);
  // Null: the family keeps nothing across a snapshot. Called only for a
  // runtime that has the family; the participants restore in this order.
  Participants (*participants)(Runtime& runtime) = nullptr;
  RestoreStage stage = RestoreStage::kAfterMemory;
};

}  // namespace ascend::rt

#endif  // ASCENDCL_RUNTIME_FAMILY_H_
