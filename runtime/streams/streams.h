// The streams and contexts family (DESIGN.md §1.7, §5.13): creating,
// destroying and switching contexts, and creating, configuring,
// synchronising and destroying streams, and synchronising a device's streams
// (contexts in context.cc, streams in stream_ops.cc). The objects themselves
// (Context, Stream) and what the core needs of them -- resolving a handle
// (Runtime::ResolveStream), the current context (Runtime::CurrentContext), the
// streams a device close shuts down and the force-destroyed streams still
// retiring -- stay in the core.
//
// Unlike most families, this one works on the core's own tables: a context
// or stream is created, registered and given its id under the core's lock,
// in the same critical section as a device open or close. It therefore
// reaches the core's private state through Runtime::CoreAccess
// (runtime/internal/core_access.h), not through a friend declaration: the
// core's lock, handle table, device entries and retirement helpers.
//
//   Streams& streams = *Streams::Of(runtime);
//   ASCEND_ASSIGN_OR_RETURN(void* stream, streams.CreateStream(0, 0));
#ifndef ASCENDCL_RUNTIME_STREAMS_STREAMS_H_
#define ASCENDCL_RUNTIME_STREAMS_STREAMS_H_

#include <cstdint>
#include <memory>
#include <string>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/time/time.h"
#include "acl/acl_rt.h"
#include "runtime/context.h"
#include "runtime/family.h"
#include "runtime/stream.h"
#include "runtime/stream_state.h"

namespace ascend::rt {

class Runtime;

struct StreamInfo {
  int32_t device_id = 0;
  uint32_t id = 0;
  uint32_t flags = 0;
  uint32_t priority = 0;
};

class Streams final : public Family {
 public:
  explicit Streams(Runtime& runtime) : runtime_(runtime) {}
  Streams(const Streams&) = delete;
  Streams& operator=(const Streams&) = delete;

  // The family of `runtime`, or null when it was built without it.
  static Streams* Of(const Runtime& runtime);

  // --- Contexts (context.cc) ------------------------------------------------
  absl::StatusOr<void*> CreateContext(int32_t device_id);
  absl::Status DestroyContext(void* context);
  absl::Status SetCurrentContext(void* context);
  absl::StatusOr<void*> GetCurrentContext();
  absl::StatusOr<void*> CurrentDefaultStream();

  // --- Streams (stream_ops.cc; a null stream means the current default
  // stream) -------------------------------------------------------------------
  absl::StatusOr<void*> CreateStream(uint32_t priority, uint32_t flags);
  absl::Status DestroyStream(void* stream, bool force);
  // DestroyStream with force that returns only once the stream's queue ran
  // (its waits gave up): for the runtime's own streams (a model's runners,
  // aclmdlRIExecute's waiting stream), whose callers rely on it.
  absl::Status DestroyStreamAndWait(void* stream);
  absl::Status SynchronizeStream(void* stream, absl::Time deadline);
  // Waits for every stream of the current device (aclrtSynchronizeDevice):
  // the first failure among them, each failure reported once.
  absl::Status SynchronizeDevice(absl::Time deadline);
  absl::StatusOr<bool> StreamIdle(void* stream);
  absl::StatusOr<StreamInfo> GetStreamInfo(void* stream);
  absl::Status SetStreamFailureMode(void* stream, uint64_t mode);

  // --- Stream configuration (DESIGN.md §5.13) -------------------------------
  absl::StatusOr<void*> CreateStreamWithConfig(const StreamConfig& config);
  // A stream of `ctx` (not necessarily the calling thread's context): what
  // a model's runner streams are made with, in their source stream's context.
  absl::StatusOr<void*> CreateStreamIn(const std::shared_ptr<Context>& ctx,
                                       const StreamConfig& config);
  // The context a stream belongs to.
  absl::StatusOr<std::shared_ptr<Context>> StreamContext(const void* stream);
  // `attr` must hold an aclrtStreamAttr value.
  absl::StatusOr<aclrtStreamAttrValue> GetStreamAttribute(void* stream,
                                                          aclrtStreamAttr attr);
  absl::Status SetStreamAttribute(void* stream, aclrtStreamAttr attr,
                                  const aclrtStreamAttrValue& value);
  absl::Status RegisterStreamStateCallback(const std::string& name,
                                           aclrtStreamStateCallback callback,
                                           void* args) {
    return stream_states_.Register(name, callback, args);
  }

 private:
  enum class DestroyMode { kWait, kForce, kForceAndWait };
  absl::Status DestroyStreamAs(void* handle, DestroyMode mode);

  Runtime& runtime_;
  StreamStateCallbacks stream_states_;
};

// The family's registration (runtime/process/families.cc).
FamilyRegistration StreamsFamily();

}  // namespace ascend::rt

#endif  // ASCENDCL_RUNTIME_STREAMS_STREAMS_H_
