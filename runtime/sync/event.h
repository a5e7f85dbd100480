// Events and notifies: the synchronisation objects streams record and wait
// on.
//
// An Event counts records: Record() (at enqueue time) hands out a sequence
// number, and the stream's task completes that sequence when it runs. Records
// on different streams may complete out of order, so completion is tracked
// per record (as the set of records not yet complete): a wait for record N is
// released only when record N itself has run, not when a later record of the
// same event (on another, idler stream) has. The event is complete when its
// latest record has run; a never-recorded event is complete (DESIGN.md §5.4).
//
// An IPC event (ACL_EVENT_IPC, DESIGN.md §5.17) keeps its record state in a
// page shared with other processes instead: records are counted there, a
// record's completion raises the newest completed record, and a wait for
// record N ends once any record at or after N completed, or once no live
// process has a record pending.
#ifndef ASCENDCL_RUNTIME_EVENT_H_
#define ASCENDCL_RUNTIME_EVENT_H_

#include <atomic>
#include <cstdint>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "absl/base/thread_annotations.h"
#include "absl/status/status.h"
#include "absl/synchronization/mutex.h"
#include "absl/time/time.h"
#include "device/base/mutex.h"
#include "runtime/base/handle.h"
#include "runtime/object_kind.h"

namespace ascend::rt {

class SharedSyncPage;

class Event {
 public:
  static constexpr ObjectKind kKind = ObjectKind::kEvent;

  // The call that created an event: some calls refuse events of
  // aclrtCreateEventExWithFlag, and events created with flags but without
  // ACL_EVENT_SYNC (DESIGN.md §5.13).
  enum class Origin { kCreateEvent, kWithFlag, kEx };

  // `shared`: the page of an IPC event (its own, or one opened from another
  // process); null for every other event.
  Event(int32_t device_id, uint32_t id, uint32_t flags,
        Origin origin = Origin::kCreateEvent,
        std::shared_ptr<SharedSyncPage> shared = nullptr)
      : device_id_(device_id),
        id_(id),
        flags_(flags),
        origin_(origin),
        shared_(std::move(shared)) {}

  int32_t device_id() const { return device_id_; }
  uint32_t id() const { return id_; }
  uint32_t flags() const { return flags_; }
  Origin origin() const { return origin_; }
  bool extended() const { return origin_ == Origin::kEx; }
  void* handle() const { return handle_.value(); }  // the aclrtEvent
  SharedSyncPage* shared() const { return shared_.get(); }

  // A new record; the returned sequence completes when Complete(seq) runs.
  uint64_t BeginRecord();
  // Marks `seq` complete. The completion time is stamped when `seq` is newer
  // than every record completed before it.
  void Complete(uint64_t seq);
  // The latest record at call time (what a stream wait waits for).
  uint64_t LatestRecord() const;
  // Waits until record `seq` itself is complete (0: at once) or `deadline`
  // passes. Completion of other records, later ones included, does not count.
  bool WaitFor(uint64_t seq, absl::Time deadline) const;
  // Waits until the event is set: its newest record completed and no reset
  // came after (what a model's wait for an outside record waits for).
  bool WaitSet(absl::Time deadline) const;
  // True when the latest record is complete.
  bool IsComplete() const;
  // Forgets the completion time (aclrtResetEvent, in stream order).
  void Reset();
  // Completion time of the latest record, if it completed and was not reset.
  std::optional<absl::Time> Timestamp() const;
  // The record (wait) flag of this event, fixed by the first
  // aclrtRecordEventWithFlag (aclrtStreamWaitEventWithFlag) whatever that
  // call returned (07 event management): true when `flag` is the flag fixed
  // now or before, false when another one was.
  bool FixRecordFlag(uint32_t flag) { return Fix(record_flag_, flag); }
  bool FixWaitFlag(uint32_t flag) { return Fix(wait_flag_, flag); }
  // The flag fixed so far, or kFlagUnset.
  static constexpr int64_t kFlagUnset = -1;
  int64_t record_flag() const { return record_flag_.load(); }
  int64_t wait_flag() const { return wait_flag_.load(); }

  // Stream wait tasks on this event queued and not finished yet
  // (aclrtQueryEventWaitStatus): BeginWait at enqueue, EndWait when the
  // task ends (run or cancelled).
  void BeginWait();
  void EndWait();
  bool WaitsDone() const;

  // Saved and restored with the snapshot's resource tables.
  struct State {
    uint64_t recorded = 0;
    // Records not complete yet (ascending); usually none, as Backup drains
    // the streams first.
    std::vector<uint64_t> pending;
    // The newest record that completed.
    uint64_t newest_completed = 0;
    std::optional<absl::Time> timestamp;
  };
  State SaveState() const;
  void RestoreState(const State& state);
  static std::string DescribeState(const State& state);

 private:
  bool IsDoneLocked(uint64_t seq) const ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_);
  static bool Fix(std::atomic<int64_t>& fixed, uint32_t flag) {
    int64_t expected = kFlagUnset;
    return fixed.compare_exchange_strong(expected, flag) || expected == flag;
  }

  const int32_t device_id_;
  const uint32_t id_;
  const uint32_t flags_;
  const Origin origin_;
  const std::shared_ptr<SharedSyncPage> shared_;
  const ObjectHandle handle_;
  std::atomic<int64_t> record_flag_{kFlagUnset};
  std::atomic<int64_t> wait_flag_{kFlagUnset};
  mutable ascend::Mutex mu_;
  uint64_t waits_pending_ ABSL_GUARDED_BY(mu_) = 0;
  uint64_t recorded_ ABSL_GUARDED_BY(mu_) = 0;
  // Records 1..recorded_ not complete yet. Each is a record task queued or
  // running on some stream (a discarded one completes through its cancel), so
  // the set is no larger than the streams' pending work.
  std::set<uint64_t> pending_ ABSL_GUARDED_BY(mu_);
  uint64_t newest_completed_ ABSL_GUARDED_BY(mu_) = 0;
  std::optional<absl::Time> timestamp_ ABSL_GUARDED_BY(mu_);
};

}  // namespace ascend::rt

#endif  // ASCENDCL_RUNTIME_EVENT_H_
