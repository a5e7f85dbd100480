// One execution of a model runtime instance: the tasks made for it and the
// programs running on its model streams' runners (DESIGN.md §5.21). Private
// to runtime/model.
#ifndef ASCENDCL_RUNTIME_MODEL_EXECUTION_H_
#define ASCENDCL_RUNTIME_MODEL_EXECUTION_H_

#include <atomic>
#include <memory>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "absl/time/clock.h"
#include "device/base/status_macros.h"
#include "runtime/model/model_objects.h"
#include "runtime/runtime.h"
#include "runtime/task_path.h"

namespace ascend::rt {

// One execution of a model: the tasks made for it and the programs running.
class Execution : public std::enable_shared_from_this<Execution> {
 public:
  Execution(Runtime& runtime, std::shared_ptr<Model> model)
      : runtime_(runtime),
        model_(std::move(model)),
        abort_gen_(model_->aborts_.load(std::memory_order_acquire)) {}

  // At enqueue: makes the tasks that have enqueue-time work, in recording
  // order (so a wait sees the record made before it).
  void Instantiate() {
    {
      ascend::MutexLock lock(&model_->mu_);
      made_.resize(model_->tasks_.size());
      for (size_t i = 0; i < model_->tasks_.size(); ++i) {
        const ModelTask& t = *model_->tasks_[i];
        if (t.maker && !t.disabled) made_[i] = t.maker();
      }
      for (const ModelStream& ms : model_->streams_) {
        runners_.push_back(ms.runner);
        heads_.push_back(ms.head);
        programs_.push_back(ms.program);
      }
    }
    // started_ is guarded by this execution's mutex (clang's thread-safety
    // analysis refused the unlocked write).
    ascend::MutexLock lock(&mu_);
    started_.assign(runners_.size(), false);
  }

  // Releases the made tasks that never ran (their waiters, their records).
  void CancelUnused() {
    for (std::optional<Task>& t : made_) {
      if (t.has_value() && t->cancel) t->cancel();
      t.reset();
    }
  }

  // The execution task, on the stream aclmdlRIExecuteAsync named.
  absl::Status Run() {
    ASCEND_RETURN_IF_ERROR(AwaitTurn());
    ResetConditions();
    for (uint32_t i = 0; i < runners_.size(); ++i) {
      if (heads_[i]) Start(i);
    }
    absl::Status status = AwaitPrograms();
    CancelUnused();
    {
      ascend::MutexLock lock(&model_->mu_);
      model_->running_ = false;
    }
    return status;
  }

  // Runs synchronously on the calling runner (a conditional branch).
  absl::Status RunNested() {
    ResetConditions();
    for (uint32_t i = 0; i < runners_.size(); ++i) {
      if (heads_[i]) Start(i);
    }
    absl::Status status = AwaitPrograms();
    CancelUnused();
    return status;
  }

 private:
  absl::Status AwaitTurn() {
    ascend::MutexLock lock(&model_->mu_);
    while (model_->running_) {
      model_->mu_.AwaitWithTimeout(
          absl::Condition(
              +[](Model* m)
                   ABSL_NO_THREAD_SAFETY_ANALYSIS { return !m->running_; },
              model_.get()),
          kTaskWaitSlice);
      if (Stream::CurrentAborting()) {
        return absl::CancelledError("stream destroyed");
      }
    }
    model_->running_ = true;
    return absl::OkStatus();
  }

  void ResetConditions() {
    std::vector<std::shared_ptr<CondHandle>> conds;
    {
      ascend::MutexLock lock(&model_->mu_);
      conds = model_->conds_;
    }
    for (const auto& c : conds) {
      if (!c->assign_default) continue;
      const uint64_t v = c->default_value;
      std::vector<uint8_t> bytes(sizeof v);
      std::memcpy(bytes.data(), &v, sizeof v);
      (void)model_->models_.WriteValue(c->ptr, bytes, model_->device_id_);
    }
  }

  void Start(uint32_t index) {
    {
      ascend::MutexLock lock(&mu_);
      if (started_[index]) return;  // already running in this execution
      started_[index] = true;
      ++active_;
    }
    std::shared_ptr<Execution> self = shared_from_this();
    // Part of the execution already submitted: no hook takes it.
    Submission sub(TaskKind::kModelExecute, "aclmdlRIExecuteAsync",
                   runners_[index]);
    sub.divertable = false;
    sub.writes.any = true;
    sub.model_id = model_->id_;
    // The program's result goes to the execution in `after`, once the
    // hooks' work around the task (the timeline's record of it) is done
    // too: the execution, and a synchronisation with it, ends after that.
    // The runner's task itself succeeds (a failure is the execution's).
    auto result = std::make_shared<absl::Status>();
    sub.task =
        Task{[self, index, result] {
               *result = self->RunProgram(index);
               return absl::OkStatus();
             },
             [self] {
               self->ProgramDone(absl::CancelledError("model stream reset"));
             }};
    sub.task.after = [self, result](const absl::Status&) {
      self->ProgramDone(std::move(*result));
    };
    absl::Status status = runtime_.tasks().Submit(std::move(sub));
    if (!status.ok()) ProgramDone(status);
  }

  void ProgramDone(absl::Status status) {
    ascend::MutexLock lock(&mu_);
    if (!status.ok() && error_.ok()) error_ = std::move(status);
    --active_;
  }

  absl::Status AwaitPrograms() {
    ascend::MutexLock lock(&mu_);
    for (;;) {
      if (mu_.AwaitWithTimeout(absl::Condition(
                                   +[](int* n) { return *n == 0; }, &active_),
                               kTaskWaitSlice)) {
        break;
      }
      if (Stream::CurrentAborting()) {
        stop_.store(true, std::memory_order_release);
        mu_.Unlock();
        for (const auto& r : runners_) (void)r->AbortTasks(absl::Now());
        mu_.Lock();
      }
    }
    // A copy of its own, not one sharing error_'s representation: the last
    // reference to this execution may go on a runner thread, and absl's
    // reference count (a system library, not instrumented) does not show
    // tsan the order between this thread's use and that thread's delete.
    if (error_.ok()) return absl::OkStatus();
    absl::Status copy(error_.code(), std::string(error_.message()));
    error_.ForEachPayload([&copy](absl::string_view url, const absl::Cord& p) {
      copy.SetPayload(url, absl::Cord(std::string(p)));
    });
    return copy;
  }

  bool Stopped() const {
    return stop_.load(std::memory_order_acquire) ||
           model_->aborts_.load(std::memory_order_acquire) != abort_gen_;
  }

  absl::StatusOr<uint64_t> ReadValue(const void* ptr, size_t bytes) {
    ASCEND_ASSIGN_OR_RETURN(
        std::vector<uint8_t> data,
        model_->models_.ReadValue(ptr, bytes, model_->device_id_));
    if (bytes == sizeof(uint32_t)) {
      uint32_t v;
      std::memcpy(&v, data.data(), sizeof v);
      return v;
    }
    uint64_t v;
    std::memcpy(&v, data.data(), sizeof v);
    return v;
  }

  // A model stream's program, on its runner; its result.
  absl::Status RunProgram(uint32_t index) {
    const std::vector<uint32_t>& program = programs_[index];
    absl::Status status;
    size_t pc = 0;
    // A task with enqueue-time work running a second time in this
    // execution (a loop through a label) gets a fresh one.
    std::vector<char> used(made_.size(), 0);
    while (pc < program.size() && status.ok()) {
      if (Stopped()) {
        status = Error(ACL_ERROR_RT_MODEL_ABORT_NORMAL,
                       absl::StrCat("model ", model_->id_, " aborted"));
        break;
      }
      const uint32_t ti = program[pc];
      const ModelTask* t;
      std::shared_ptr<const Task> current;
      {
        ascend::MutexLock lock(&model_->mu_);
        t = model_->tasks_[ti].get();
        current = t->task;
      }
      ++pc;
      switch (t->control) {
        case Control::kNone: {
          if (t->disabled) break;
          if (t->maker) {
            if (!made_[ti].has_value() || used[ti]) made_[ti] = t->maker();
            used[ti] = 1;
            std::optional<Task> own = std::move(made_[ti]);
            made_[ti].reset();
            status = own->run();
          } else if (current != nullptr) {
            status = current->run();
          }
          break;
        }
        case Control::kLabel:
          break;
        case Control::kEnd:
          pc = program.size();
          break;
        case Control::kSwitchLabel: {
          absl::StatusOr<uint64_t> v = ReadValue(t->value_ptr, 4);
          if (!v.ok()) {
            status = v.status();
            break;
          }
          const size_t n = t->list->labels.size();
          size_t at = static_cast<size_t>(*v);
          if (at >= t->max_value || at >= n)
            at = std::min<size_t>(t->max_value, n) - 1;
          const Label& label = *t->list->labels[at];
          if (!label.set || label.stream != index) {
            status = Error(ACL_ERROR_RT_LABEL_CONTEXT,
                           absl::StrCat("label ", label.id,
                                        " is not set on this model stream"));
            break;
          }
          pc = label.position;
          break;
        }
        case Control::kSwitchStream: {
          const size_t bytes = t->data_type == ACL_RT_SWITCH_INT64 ? 8 : 4;
          absl::StatusOr<uint64_t> l = ReadValue(t->value_ptr, bytes);
          absl::StatusOr<uint64_t> r = ReadValue(t->right_ptr, bytes);
          if (!l.ok() || !r.ok()) {
            status = !l.ok() ? l.status() : r.status();
            break;
          }
          int64_t a, b;
          if (bytes == 4) {
            a = static_cast<int32_t>(*l);
            b = static_cast<int32_t>(*r);
          } else {
            a = static_cast<int64_t>(*l);
            b = static_cast<int64_t>(*r);
          }
          bool taken = false;
          switch (t->cond) {
            case ACL_RT_EQUAL:
              taken = a == b;
              break;
            case ACL_RT_NOT_EQUAL:
              taken = a != b;
              break;
            case ACL_RT_GREATER:
              taken = a > b;
              break;
            case ACL_RT_GREATER_OR_EQUAL:
              taken = a >= b;
              break;
            case ACL_RT_LESS:
              taken = a < b;
              break;
            default:
              taken = a <= b;
              break;
          }
          if (taken) {
            // Execution moves to the true stream; this one stops.
            Start(t->target);
            pc = program.size();
          }
          break;
        }
        case Control::kActiveStream:
          Start(t->target);
          break;
        case Control::kCond:
          status = RunCondition(*t);
          break;
      }
    }
    // A task cut short by aclmdlRIAbort (a value or event wait, which sees
    // its runner aborting) failed because of the abort: report that, not
    // the wait's own cancellation (which read as 507000).
    if (!status.ok() && Stopped()) {
      status = Error(ACL_ERROR_RT_MODEL_ABORT_NORMAL,
                     absl::StrCat("model ", model_->id_, " aborted"));
    }
    return status;
  }

  absl::Status RunBranch(const std::shared_ptr<Model>& branch) {
    {
      ascend::MutexLock lock(&branch->mu_);
      if (branch->state_ != ModelState::kReady) {
        return Error(
            ACL_ERROR_RT_MODEL_EXECUTE,
            absl::StrCat("branch model ", branch->id_, " was not captured"));
      }
    }
    auto exec = std::make_shared<Execution>(runtime_, branch);
    exec->Instantiate();
    return exec->RunNested();
  }

  absl::Status RunCondition(const ModelTask& t) {
    for (int round = 0;; ++round) {
      ASCEND_ASSIGN_OR_RETURN(uint64_t v, ReadValue(t.cond_handle->ptr, 8));
      switch (t.cond_type) {
        case ACL_MODEL_RI_COND_TYPE_IF:
          if (v != 0) return RunBranch(t.branches[0]);
          if (t.branches.size() > 1) return RunBranch(t.branches[1]);
          return absl::OkStatus();
        case ACL_MODEL_RI_COND_TYPE_SWITCH:
          if (v < t.branches.size()) return RunBranch(t.branches[v]);
          return absl::OkStatus();
        default:  // WHILE
          if (v == 0) return absl::OkStatus();
          ASCEND_RETURN_IF_ERROR(RunBranch(t.branches[0]));
          if (Stopped()) return absl::OkStatus();
          break;
      }
    }
  }

  Runtime& runtime_;
  std::shared_ptr<Model> model_;
  std::vector<std::optional<Task>> made_;
  std::vector<std::shared_ptr<Stream>> runners_;
  std::vector<bool> heads_;
  std::vector<std::vector<uint32_t>> programs_;
  std::atomic<bool> stop_{false};
  const uint64_t abort_gen_;  // Model::aborts_ at enqueue
  ascend::Mutex mu_;
  std::vector<bool> started_ ABSL_GUARDED_BY(mu_);
  int active_ ABSL_GUARDED_BY(mu_) = 0;
  absl::Status error_ ABSL_GUARDED_BY(mu_);
};

}  // namespace ascend::rt

#endif  // ASCENDCL_RUNTIME_MODEL_EXECUTION_H_
