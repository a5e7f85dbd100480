// A context: a device binding with its own default stream. Each open device
// has one primary context (aclrtSetDevice) and any number of created ones
// (aclrtCreateContext). The operations on contexts are the streams family's
// (runtime/streams/streams.h, runtime/streams/context.cc).
#ifndef ASCENDCL_RUNTIME_CONTEXT_H_
#define ASCENDCL_RUNTIME_CONTEXT_H_

#include <atomic>
#include <cstdint>
#include <memory>

#include "runtime/base/handle.h"
#include "runtime/object_kind.h"
#include "runtime/stream.h"

namespace ascend::rt {

class Context {
 public:
  static constexpr ObjectKind kKind = ObjectKind::kContext;

  Context(int32_t device_id, bool primary,
          std::shared_ptr<Stream> default_stream)
      : device_id_(device_id),
        primary_(primary),
        default_stream_(std::move(default_stream)) {}
  int32_t device_id() const { return device_id_; }
  bool primary() const { return primary_; }
  // False once the context was destroyed or its device closed; a thread's
  // current context is checked on every use.
  bool alive() const { return alive_.load(std::memory_order_acquire); }
  void MarkDestroyed() { alive_.store(false, std::memory_order_release); }
  void* handle() const { return handle_.value(); }  // the aclrtContext
  const std::shared_ptr<Stream>& default_stream() const {
    return default_stream_;
  }

 private:
  const int32_t device_id_;
  const bool primary_;
  const ObjectHandle handle_;
  std::atomic<bool> alive_{true};
  const std::shared_ptr<Stream> default_stream_;
};

}  // namespace ascend::rt

#endif  // ASCENDCL_RUNTIME_CONTEXT_H_
