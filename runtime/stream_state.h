// Stream state callbacks (aclrtRegStreamStateCallback): named callbacks told
// of each stream created (after the create) and destroyed (before the
// destroy). A name registers once; registering it with a null callback
// removes it.
#ifndef ASCENDCL_RUNTIME_STREAM_STATE_H_
#define ASCENDCL_RUNTIME_STREAM_STATE_H_

#include <map>
#include <string>

#include "absl/base/thread_annotations.h"
#include "absl/status/status.h"
#include "acl/acl_rt.h"
#include "device/base/mutex.h"

namespace ascend::rt {

class StreamStateCallbacks {
 public:
  // A non-null `callback` registers `name` (107000 when the name is taken);
  // a null one removes it (whether or not it was registered).
  absl::Status Register(const std::string& name,
                        aclrtStreamStateCallback callback, void* args);
  // Calls every registered callback, in name order, on the calling thread
  // with no lock held: a callback may call into the runtime (or register).
  void Notify(void* stream, aclrtStreamState state) const;

 private:
  struct Entry {
    aclrtStreamStateCallback callback;
    void* args;
  };
  mutable ascend::Mutex mu_;
  std::map<std::string, Entry> callbacks_ ABSL_GUARDED_BY(mu_);
};

}  // namespace ascend::rt

#endif  // ASCENDCL_RUNTIME_STREAM_STATE_H_
