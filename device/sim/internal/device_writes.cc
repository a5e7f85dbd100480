#include "device/sim/internal/device_writes.h"

#include <unistd.h>

#include <algorithm>
#include <utility>

#include "absl/strings/str_cat.h"
#include "device/base/status_macros.h"

namespace ascend::device::sim::internal {
namespace {

uint64_t PageSize() {
  static const uint64_t page = static_cast<uint64_t>(sysconf(_SC_PAGESIZE));
  return page;
}

uint64_t PageDown(uint64_t x) { return x / PageSize() * PageSize(); }
uint64_t PageUp(uint64_t x) { return PageDown(x + PageSize() - 1); }

using Range = DeviceWrites::Range;

// Sorts and merges overlapping or touching ranges.
void Normalize(std::vector<Range>* ranges) {
  std::sort(ranges->begin(), ranges->end(),
            [](const Range& a, const Range& b) { return a.begin < b.begin; });
  std::vector<Range> merged;
  merged.reserve(ranges->size());
  for (const Range& r : *ranges) {
    if (r.begin >= r.end) continue;
    if (!merged.empty() && r.begin <= merged.back().end) {
      merged.back().end = std::max(merged.back().end, r.end);
    } else {
      merged.push_back(r);
    }
  }
  *ranges = std::move(merged);
}

// The parts of `a` (normalized) inside `b` (ascending, disjoint).
std::vector<Range> Intersect(const std::vector<Range>& a,
                             const std::vector<Range>& b) {
  std::vector<Range> out;
  size_t i = 0;
  size_t j = 0;
  while (i < a.size() && j < b.size()) {
    const uint64_t lo = std::max(a[i].begin, b[j].begin);
    const uint64_t hi = std::min(a[i].end, b[j].end);
    if (lo < hi) out.push_back(Range{lo, hi});
    if (a[i].end < b[j].end) {
      ++i;
    } else {
      ++j;
    }
  }
  return out;
}

}  // namespace

DeviceWrites::DeviceWrites(uint64_t base, uint64_t size)
    : base_(base), size_(size) {}

DeviceWrites::~DeviceWrites() = default;

absl::Status DeviceWrites::EnsureTracker() {
  if (unavailable_) {
    return absl::UnavailableError("write tracking is unavailable");
  }
  if (tracker_ == nullptr) {
    absl::StatusOr<std::unique_ptr<WriteTracker>> made = WriteTracker::Create();
    if (!made.ok()) {
      unavailable_ = true;
      return made.status();
    }
    tracker_ = *std::move(made);
  }
  if (!window_registered_) {
    // Registered, not armed: only the ranges of a period are armed, so a
    // large, mostly unused window costs no page tables.
    absl::Status registered = tracker_->Register(base_, size_, /*arm=*/false);
    if (!registered.ok()) {
      unavailable_ = true;
      return absl::UnavailableError(registered.message());
    }
    window_registered_ = true;
  }
  return absl::OkStatus();
}

absl::Status DeviceWrites::Start(const std::vector<Range>& ranges,
                                 const std::vector<VaMapping>& mappings) {
  MutexLock lock(&mu_);
  return StartLocked(ranges, mappings, nullptr);
}

absl::StatusOr<std::vector<DeviceWrites::Range>> DeviceWrites::Restart(
    const std::vector<Range>& ranges, const std::vector<VaMapping>& mappings) {
  MutexLock lock(&mu_);
  ASCEND_ASSIGN_OR_RETURN(std::vector<Range> written, WrittenLocked(mappings));
  const std::vector<Range> ending = tracked_;
  // Pages written between the scan above and their re-arming below are
  // reported by the re-arming scan itself.
  std::vector<Range> meanwhile;
  if (absl::Status started = StartLocked(ranges, mappings, &meanwhile);
      !started.ok()) {
    return started;
  }
  // Mappings are armed afresh, which forgets a write that fell between
  // their scan and their arming: what they show counts as written in the
  // new period too.
  for (const VaMapping& m : mappings) {
    noted_.push_back(Range{m.memory, m.memory + m.size});
  }
  written.insert(written.end(), meanwhile.begin(), meanwhile.end());
  Normalize(&written);
  return Intersect(written, ending);
}

absl::Status DeviceWrites::StartLocked(const std::vector<Range>& ranges,
                                       const std::vector<VaMapping>& mappings,
                                       std::vector<Range>* rearmed_written) {
  // Pages armed in the running period and not written since are still
  // armed: only the written ones need arming again (one scan that re-arms
  // what it reports), plus what the period did not cover and what changed
  // behind the page tables' back (noted: a punched page may lose its
  // protection). Without a running period everything is armed.
  const bool rearm_written = active_.load(std::memory_order_relaxed) &&
                             window_armed_.load(std::memory_order_relaxed) &&
                             !all_ && tracker_ != nullptr && window_registered_;
  std::vector<Range> wanted;
  wanted.reserve(ranges.size());
  for (const Range& r : ranges) {
    wanted.push_back(Range{PageDown(r.begin), PageUp(r.end)});
  }
  Normalize(&wanted);
  std::vector<Range> armed_before;
  std::vector<Range> noted;
  if (rearm_written) {
    for (const Range& r : tracked_) {
      armed_before.push_back(Range{PageDown(r.begin), PageUp(r.end)});
    }
    Normalize(&armed_before);
    for (const Range& r : noted_) {
      noted.push_back(Range{PageDown(r.begin), PageUp(r.end)});
    }
    Normalize(&noted);
  }
  active_.store(false, std::memory_order_relaxed);
  window_armed_.store(false, std::memory_order_relaxed);
  if (absl::Status ready = EnsureTracker(); !ready.ok()) return ready;
  // Still armed from the last period: re-arm what was written.
  const std::vector<Range> kept = Intersect(wanted, armed_before);
  for (const Range& r : kept) {
    absl::StatusOr<std::vector<std::pair<uint64_t, uint64_t>>> rearmed =
        tracker_->Collect(r.begin, r.end - r.begin, /*rearm=*/true);
    if (!rearmed.ok()) return rearmed.status();
    if (rearmed_written != nullptr) {
      for (const auto& [b, e] : *rearmed) {
        rearmed_written->push_back(Range{b, e});
      }
    }
  }
  // Everything else wanted, and the noted pages, armed in full.
  std::vector<Range> to_arm;
  size_t k = 0;
  for (const Range& r : wanted) {
    uint64_t from = r.begin;
    while (k < kept.size() && kept[k].end <= r.begin) ++k;
    for (size_t j = k; j < kept.size() && kept[j].begin < r.end; ++j) {
      if (kept[j].begin > from) to_arm.push_back(Range{from, kept[j].begin});
      from = std::max(from, kept[j].end);
    }
    if (from < r.end) to_arm.push_back(Range{from, r.end});
  }
  for (const Range& r : Intersect(noted, wanted)) to_arm.push_back(r);
  Normalize(&to_arm);
  for (const Range& r : to_arm) {
    if (absl::Status armed = tracker_->Arm(r.begin, r.end - r.begin);
        !armed.ok()) {
      return armed;
    }
  }
  for (const VaMapping& m : mappings) {
    if (absl::Status armed = tracker_->Register(m.va, m.size, /*arm=*/true);
        !armed.ok()) {
      return armed;
    }
  }
  tracked_ = ranges;
  noted_.clear();
  all_ = false;
  active_.store(true, std::memory_order_relaxed);
  window_armed_.store(true, std::memory_order_relaxed);
  return absl::OkStatus();
}

void DeviceWrites::CollectMapping(const VaMapping& m) {
  absl::StatusOr<std::vector<std::pair<uint64_t, uint64_t>>> written =
      tracker_->Collect(m.va, m.size, /*rearm=*/false);
  if (!written.ok()) {
    // Cannot tell: everything the mapping shows counts as written.
    noted_.push_back(Range{m.memory, m.memory + m.size});
    return;
  }
  for (const auto& [b, e] : *written) {
    noted_.push_back(Range{m.memory + (b - m.va), m.memory + (e - m.va)});
  }
}

absl::StatusOr<std::vector<Range>> DeviceWrites::Written(
    const std::vector<VaMapping>& mappings) {
  MutexLock lock(&mu_);
  return WrittenLocked(mappings);
}

absl::StatusOr<std::vector<Range>> DeviceWrites::WrittenLocked(
    const std::vector<VaMapping>& mappings) {
  if (!active_.load(std::memory_order_relaxed)) {
    return absl::FailedPreconditionError("no write-tracking period runs");
  }
  if (all_) return tracked_;
  std::vector<Range> written = noted_;
  written.insert(written.end(), exported_.begin(), exported_.end());
  // One scan per run of ranges close together, not one per range: a scan's
  // cost is its call plus the pages it walks, and many small allocations lie
  // next to each other (what the scan finds between them is dropped below).
  constexpr uint64_t kJoinGap = uint64_t{1} << 20;
  std::vector<Range> spans;
  for (const Range& r : tracked_) {
    const uint64_t b = PageDown(r.begin);
    const uint64_t e = PageUp(r.end);
    if (!spans.empty() && b <= spans.back().end + kJoinGap &&
        b >= spans.back().begin) {
      spans.back().end = std::max(spans.back().end, e);
    } else {
      spans.push_back(Range{b, e});
    }
  }
  for (const Range& span : spans) {
    const uint64_t b = span.begin;
    const uint64_t e = span.end;
    absl::StatusOr<std::vector<std::pair<uint64_t, uint64_t>>> pages =
        tracker_->Collect(b, e - b, /*rearm=*/false);
    if (!pages.ok()) return pages.status();
    for (const auto& [pb, pe] : *pages) written.push_back(Range{pb, pe});
  }
  for (const VaMapping& m : mappings) {
    absl::StatusOr<std::vector<std::pair<uint64_t, uint64_t>>> pages =
        tracker_->Collect(m.va, m.size, /*rearm=*/false);
    if (!pages.ok()) return pages.status();
    for (const auto& [pb, pe] : *pages) {
      written.push_back(Range{m.memory + (pb - m.va), m.memory + (pe - m.va)});
    }
  }
  Normalize(&written);
  return Intersect(written, tracked_);
}

void DeviceWrites::Note(uint64_t addr, uint64_t size) {
  if (!active_.load(std::memory_order_relaxed) || size == 0) return;
  MutexLock lock(&mu_);
  noted_.push_back(Range{addr, addr + size});
}

void DeviceWrites::NoteAll() {
  MutexLock lock(&mu_);
  all_ = true;
}

void DeviceWrites::LoseAll() {
  MutexLock lock(&mu_);
  all_ = true;
  if (tracker_ != nullptr && window_registered_) {
    // Unregistered pages keep no write protection: writes run at full
    // speed. Start registers the window again.
    (void)tracker_->Unregister(base_, size_);
    window_registered_ = false;
    window_armed_.store(false, std::memory_order_relaxed);
  }
}

void DeviceWrites::NoteExported(uint64_t addr, uint64_t size) {
  MutexLock lock(&mu_);
  exported_.push_back(Range{addr, addr + size});
  Normalize(&exported_);
}

void DeviceWrites::MappingAdded(const VaMapping& m) {
  if (!active_.load(std::memory_order_relaxed)) return;
  MutexLock lock(&mu_);
  if (tracker_ == nullptr ||
      !tracker_->Register(m.va, m.size, /*arm=*/true).ok()) {
    // Writes through it would go unseen.
    noted_.push_back(Range{m.memory, m.memory + m.size});
  }
}

void DeviceWrites::MappingRemoving(const VaMapping& m) {
  if (!active_.load(std::memory_order_relaxed)) return;
  MutexLock lock(&mu_);
  if (tracker_ != nullptr) CollectMapping(m);
}

}  // namespace ascend::device::sim::internal
