// The opaque handle an ACL caller holds for a runtime object (aclrtStream,
// aclrtEvent, aclrtNotify, aclrtContext). Not the object's address: an
// address comes back for the next object allocated after a destroy, which
// would make a stale handle name a new object (a double destroy would then
// destroy someone else's). Handles are drawn from a process-wide counter and
// never repeat, so a stale one stays unknown to the runtime's tables (and
// gets the documented "invalid handle" code).
//
//   class Stream { ... ObjectHandle handle_; };
//   streams_[stream->handle()] = stream;   // and return stream->handle()
#ifndef ASCENDCL_RUNTIME_BASE_HANDLE_H_
#define ASCENDCL_RUNTIME_BASE_HANDLE_H_

#include <atomic>
#include <cstdint>

namespace ascend::rt {

class ObjectHandle {
 public:
  ObjectHandle() : value_(Next()) {}
  ObjectHandle(const ObjectHandle&) = delete;
  ObjectHandle& operator=(const ObjectHandle&) = delete;

  void* value() const { return value_; }

 private:
  // Pointer-shaped (16-byte steps from a fixed base), never null, never
  // repeated: 2^60 handles before the counter could wrap.
  static void* Next() {
    static std::atomic<uintptr_t> next{0};
    constexpr uintptr_t kBase = uintptr_t{0xAC1} << 40;
    return reinterpret_cast<void*>(
        kBase + (next.fetch_add(1, std::memory_order_relaxed) << 4));
  }

  void* const value_;
};

}  // namespace ascend::rt

#endif  // ASCENDCL_RUNTIME_BASE_HANDLE_H_
