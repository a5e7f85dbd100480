// The task path: the one way work reaches a stream, and the one access point
// of synchronous calls that touch device memory or wait on a stream or an
// event from the host (DESIGN.md §1.6).
//
//   Submission s(TaskKind::kMemset, "aclrtMemsetAsync", stream);
//   s.task = Task{std::move(fill), nullptr};
//   s.writes.Add(device_id, addr, size);
//   ASCEND_RETURN_IF_ERROR(path.Submit(std::move(s)));
//
// Every family builds a Submission for each task it enqueues (copies,
// memsets, value writes and waits, event and notify tasks, host functions,
// callbacks, kernels, built-in tasks, model executions) and hands it to
// TaskPath::Submit. Before the task reaches its stream's queue, each
// registered TaskHook sees it in registration order and may refuse it (an
// error: nothing is queued, nothing changes) or take it (a recorder: the
// capture of a model runtime instance takes the tasks of a capturing stream
// instead of the queue). A synchronous call passes TaskPath::Access before it
// touches memory or waits; a hook may refuse it. Hooks are how rules and
// bookkeeping that cut across every family (capture, write tracking) are
// kept in one place instead of in every call.
//
// Thread safety: Submit and Access may be called from any thread, also from
// tasks running on streams. Hooks are added while the runtime is built,
// before the first submission, and live as long as the path.
#ifndef ASCENDCL_RUNTIME_TASK_PATH_H_
#define ASCENDCL_RUNTIME_TASK_PATH_H_

#include <array>
#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/string_view.h"
#include "runtime/stream.h"

namespace ascend::rt {

class Event;

// What a task is, for the hooks.
enum class TaskKind : uint8_t {
  kCopy,          // copies of every shape (1-D, 2-D, batch, peer)
  kMemset,        // memsets and fills
  kValueWrite,    // aclrtValueWrite
  kValueWait,     // aclrtValueWait
  kEventRecord,   // records (every flag)
  kEventWait,     // stream waits for an event
  kEventReset,    // aclrtResetEvent
  kNotify,        // notify and count-notify records, waits and resets
  kHostFunc,      // host functions and report callbacks
  kKernel,        // kernel launches
  kBuiltin,       // built-in device tasks (reduce, random numbers, ...)
  kModelExecute,  // an execution of a model runtime instance
  kMarker,        // no work of its own (barriers, ordering markers)
};

// A range of one device's memory.
struct DeviceRange {
  int32_t device_id = -1;
  uint64_t addr = 0;
  uint64_t size = 0;
};

// The device memory a task may write when it runs: the ranges listed, or,
// with `any`, whatever memory it can reach (kernels and host functions are
// code of the application's).
struct TaskWrites {
  std::vector<DeviceRange> ranges;
  bool any = false;
  void Add(int32_t device_id, uint64_t addr, uint64_t size) {
    ranges.push_back(DeviceRange{device_id, addr, size});
  }
};

// What a hook may decide about a task made at submission (see
// Submission::make): read by the maker each time it makes the task.
struct TaskOptions {
  // An event wait that waits until its event is set (completed and not reset
  // since) instead of for the latest record: what a wait recorded in a model
  // for an event recorded outside it does (DESIGN.md §5.21).
  bool wait_until_set = false;
};

struct Submission {
  Submission(TaskKind kind, const char* api, std::shared_ptr<Stream> stream)
      : kind(kind), api(api), stream(std::move(stream)) {}

  TaskKind kind;
  // The entry point submitting (for log lines and refusals).
  const char* api;
  std::shared_ptr<Stream> stream;
  // The task, or (when `make` is set) a maker of it: a task whose
  // enqueue-time part (an event record's sequence number, a wait's target
  // record) must run again each time a recorded model replays it. `params`
  // describes a made task before it is made (a plain task carries its own,
  // task.params); see Described().
  Task task;
  std::function<Task(const TaskOptions&)> make;
  TaskParams params;
  const TaskParams& Described() const { return make ? params : task.params; }
  TaskOptions options;
  // The event an event record, wait or reset is about (else null).
  Event* event = nullptr;
  TaskWrites writes;
  // False for work a model queues on its own runner streams while it
  // executes: it is part of an execution already submitted, and no hook
  // takes it.
  bool divertable = true;
  // For observers of the timeline (runtime/timeline, DESIGN.md §5.24): what
  // the task is called beyond its kind (a kernel's function name; valid
  // during Submit), and the model runtime instance whose execution it is
  // (kNoModel for everything but a model's execution and its programs).
  static constexpr uint32_t kNoModel = 0xFFFFFFFFU;
  absl::string_view name;
  uint32_t model_id = kNoModel;
};

// What a synchronous call is about to do from the host.
enum class HostOp : uint8_t {
  kMemoryWrite,        // writes device memory (aclrtMemcpy, aclrtMemset, ...)
  kStreamSynchronize,  // waits for a stream
  kStreamQuery,        // asks whether a stream is idle
  kStreamDestroy,      // destroys a stream
  kEventQuery,         // reads an event's state, timestamp or wait status
  kEventSynchronize,   // waits for an event
  kPageableCopy,       // queues an async copy with a pageable host side
  kTeardown,           // closes a device, or unmaps memory queued work may use
};

struct HostAccess {
  HostOp op;
  const char* api;
  const Stream* stream = nullptr;  // kStream*
  const Event* event = nullptr;    // kEvent*
  DeviceRange range;  // kMemoryWrite, kPageableCopy (device_id -1: host memory)
};

class TaskHook {
 public:
  virtual ~TaskHook() = default;
  // Before `s` is queued. Setting `taken` keeps the task from the queue (the
  // hook owns it now; later hooks do not see it). An error refuses the
  // submission: nothing is queued and the caller returns the error.
  virtual absl::Status OnSubmit(Submission& s, bool& taken) {
    return absl::OkStatus();
  }
  // Before a synchronous call does `access`; an error refuses the call.
  virtual absl::Status OnAccess(const HostAccess& access) {
    return absl::OkStatus();
  }
};

class TaskPath {
 public:
  static constexpr int kMaxHooks = 8;

  TaskPath() = default;
  TaskPath(const TaskPath&) = delete;
  TaskPath& operator=(const TaskPath&) = delete;

  // Adds a hook after those added before; kResourceExhausted past
  // kMaxHooks. Not while tasks are being submitted.
  absl::Status AddHook(TaskHook* hook);

  // Passes `s` to the hooks, then (unless one took it) makes its task if it
  // has a maker and queues it on its stream. Also records the task's id as
  // the calling thread's last task id (Stream::Enqueue).
  absl::Status Submit(Submission s);
  // The same for a plain task (no maker, no event).
  absl::Status Submit(TaskKind kind, const char* api,
                      std::shared_ptr<Stream> stream, Task task,
                      TaskWrites writes = {}) {
    Submission s(kind, api, std::move(stream));
    s.task = std::move(task);
    s.writes = std::move(writes);
    return Submit(std::move(s));
  }

  // Passes `access` to the hooks; the first refusal is returned.
  absl::Status Access(const HostAccess& access) const;

 private:
  std::array<std::atomic<TaskHook*>, kMaxHooks> hooks_{};
  std::atomic<int> hook_count_{0};
};

}  // namespace ascend::rt

#endif  // ASCENDCL_RUNTIME_TASK_PATH_H_
