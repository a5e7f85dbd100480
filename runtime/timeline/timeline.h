// The timeline family (DESIGN.md §5.24): an observer of every task the
// runtime runs, for profilers (libprofapi.so through the C interface of
// ascendcl/timeline.h).
//
//   Timeline& tl = *Timeline::Of(runtime);
//   ASCEND_RETURN_IF_ERROR(tl.SetObserver(&OnTask, user));
//   ... tasks run; OnTask sees each with its stream, kind, start and end ...
//   ASCEND_RETURN_IF_ERROR(tl.SetObserver(nullptr, nullptr));
//
// Its hook on the task path (§1.6) wraps the task of a submission so that,
// when it runs, it is timed and reported. It wraps only while an observer
// is set, plus every task a stream records into a model runtime instance (a
// capture or a build): those run again at each execution, whenever that is,
// and cost one load per run while nobody observes. Checking costs the hook
// one load of the observer and one of the stream's recording flag.
// Registered first among the families, so its hook sees a submission before
// the capture's hook takes it into a model.
#ifndef ASCENDCL_RUNTIME_TIMELINE_TIMELINE_H_
#define ASCENDCL_RUNTIME_TIMELINE_TIMELINE_H_

#include <atomic>
#include <cstdint>
#include <memory>
#include <string>

#include "absl/status/status.h"
#include "ascendcl/timeline.h"
#include "device/base/mutex.h"
#include "runtime/family.h"
#include "runtime/task_path.h"

namespace ascend::rt {

class Runtime;

class Timeline final : public Family {
 public:
  explicit Timeline(Runtime& runtime);
  Timeline(const Timeline&) = delete;
  Timeline& operator=(const Timeline&) = delete;
  ~Timeline() override;

  // The timeline family of `runtime`, or null when it has none.
  static Timeline* Of(const Runtime& runtime);

  // Replaces the observer (null: none) and returns once no call of the
  // previous one is in progress. 107000 from inside an observer.
  absl::Status SetObserver(ascendclTaskObserver observer, void* user_data);
  // One load.
  bool observing() const {
    return observer_.load(std::memory_order_acquire) != nullptr;
  }

  // Enqueues a marker task named `message` on `stream` (null: the default
  // stream of the current context).
  absl::Status Mark(void* stream, std::string message);

  // What a wrapped task reports (shared by its copies).
  struct TaskMeta {
    Timeline* timeline;
    ascendclTaskKind kind;
    const char* api;
    std::string name;
    uint32_t model_id;
    uint32_t thread_id;
    int32_t device_id;
    uint32_t stream_id;
  };
  // Runs `run` as the task of `meta`: timed and reported while an
  // observer is set (public for the wrapper; not for families).
  absl::Status RunObserved(const TaskMeta& meta,
                           const std::function<absl::Status()>& run);

 private:
  class Hook final : public TaskHook {
   public:
    explicit Hook(Timeline& timeline) : timeline_(timeline) {}
    absl::Status OnSubmit(Submission& s, bool& taken) override;

   private:
    Timeline& timeline_;
  };
  struct Observer {
    ascendclTaskObserver fn;
    void* user_data;
  };

  void Report(const ascendclTaskRecord& record);

  Runtime& runtime_;
  Hook hook_{*this};
  std::atomic<Observer*> observer_{nullptr};
  // Calls of an observer in progress, by the parity of epoch_ when they
  // began: SetObserver flips the epoch and waits for the old parity.
  std::atomic<uint32_t> epoch_{0};
  std::atomic<int> calls_[2] = {};
  ascend::Mutex set_mu_;  // one SetObserver at a time
};

// The family's registration (runtime/process/families.cc).
FamilyRegistration TimelineFamily();

}  // namespace ascend::rt

#endif  // ASCENDCL_RUNTIME_TIMELINE_TIMELINE_H_
