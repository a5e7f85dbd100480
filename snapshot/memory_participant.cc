#include "snapshot/memory_participant.h"

#include <algorithm>
#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <string>
#include <thread>
#include <utility>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/time/clock.h"
#include "device/base/mutex.h"
#include "device/base/status_macros.h"
#include "device/checksum.h"
#include "glog/logging.h"
#include "snapshot/device_ranges.h"
#include "snapshot/host_copy.h"
#include "snapshot/memory_restore.h"
#include "snapshot/piece_copy.h"

namespace ascend::snapshot {

namespace {

std::string Throughput(uint64_t bytes, absl::Duration elapsed) {
  const double seconds = std::max(absl::ToDoubleSeconds(elapsed), 1e-9);
  return absl::StrFormat("%u bytes in %.3f ms (%.2f GB/s)", bytes,
                         seconds * 1e3,
                         static_cast<double>(bytes) / seconds / 1e9);
}

absl::StatusOr<std::shared_ptr<device::Device>> OpenDevice(rt::Runtime& runtime,
                                                           int32_t device_id) {
  std::shared_ptr<device::Device> device = runtime.DeviceObject(device_id);
  if (!device) {
    return absl::FailedPreconditionError(
        absl::StrCat("device ", device_id, " is not open"));
  }
  return device;
}

using internal::AppendMerged;
using internal::DataOver;
using internal::End;
using internal::ForEachOverlap;
using internal::OverlapsAny;

// --- "allocations"
// ------------------------------------------------------------

class SavedAllocations final : public rt::SavedState {
 public:
  SavedAllocations(rt::Runtime& runtime, int32_t device_id)
      : runtime_(runtime), device_id_(device_id) {}

  // The allocations alive now are the ones to put back: those freed after
  // the backup stay freed, those made since stay allocated.
  absl::Status Prepare() override {
    if (live_.has_value()) return absl::OkStatus();
    ASCEND_ASSIGN_OR_RETURN(std::shared_ptr<device::Device> device,
                            OpenDevice(runtime_, device_id_));
    live_ = device->Allocations();
    return absl::OkStatus();
  }

  absl::Status Restore() const override {
    if (!live_.has_value()) {
      return absl::FailedPreconditionError("restore without Prepare");
    }
    ASCEND_ASSIGN_OR_RETURN(std::shared_ptr<device::Device> device,
                            OpenDevice(runtime_, device_id_));
    for (const device::Allocation& a : *live_) {
      // A driver-level restore (npu) may have re-created it already.
      std::optional<device::Allocation> found = device->FindAllocation(a.addr);
      if (!found.has_value() || found->addr != a.addr ||
          found->size != a.size) {
        ASCEND_RETURN_IF_ERROR(device->AllocateAt(a.addr, a.size));
      }
    }
    return absl::OkStatus();
  }

 private:
  rt::Runtime& runtime_;
  const int32_t device_id_;
  std::optional<std::vector<device::Allocation>> live_;
};

class AllocationsParticipant final : public rt::SnapshotParticipant {
 public:
  explicit AllocationsParticipant(rt::Runtime& runtime) : runtime_(runtime) {}

  absl::string_view name() const override { return "allocations"; }

  absl::StatusOr<std::unique_ptr<rt::SavedState>> Save(
      int32_t device_id) override {
    ASCEND_RETURN_IF_ERROR(OpenDevice(runtime_, device_id).status());
    return std::unique_ptr<rt::SavedState>(
        new SavedAllocations(runtime_, device_id));
  }

  absl::StatusOr<std::string> Describe(int32_t device_id) const override {
    ASCEND_ASSIGN_OR_RETURN(std::shared_ptr<device::Device> device,
                            OpenDevice(runtime_, device_id));
    std::string text;
    for (const device::Allocation& a : device->Allocations()) {
      absl::StrAppendFormat(&text, "[0x%x, +%u)\n", a.addr, a.size);
    }
    return text;
  }

 private:
  rt::Runtime& runtime_;
};

}  // namespace

// --- "memory"
// -------------------------------------------------------------------

namespace internal {

// A capture's pieces and the buffers holding them: what the next capture
// of the same device carries unchanged pieces over from.
struct Layout {
  std::vector<SavedMemory::Allocation> allocations;
  std::vector<SavedMemory::Piece> pieces;
  std::vector<std::shared_ptr<Extent>> buffers;
  // The bytes of all pieces (the image's size).
  uint64_t bytes = 0;
};

// Per device, the capture whose write-tracking period runs (DESIGN.md
// §4.14): shared by the participant and the states it saved.
struct Tracking {
  struct Entry {
    std::weak_ptr<device::Device> device;
    uint64_t period = 0;
    std::shared_ptr<const Layout> base;
    // Device::AllocationsVersion when the base was captured (0: unknown).
    uint64_t allocations_version = 0;
    // Host memory a pre-copy faulted in for the next Save to copy into, and
    // what the last incremental capture copied (to size it).
    std::unique_ptr<HostBuffer> reserve;
    uint64_t last_copied = 0;
  };

  ~Tracking() {
    ascend::MutexLock lock(&preparing_mu);
    for (auto& [device_id, preparer] : preparing) {
      if (preparer.thread.joinable()) preparer.thread.join();
    }
  }

  // The reserve of `device_id` (null when none). A reserve still being
  // prepared is not waited for: it serves a later capture.
  std::unique_ptr<HostBuffer> TakeReserve(int32_t device_id) {
    ascend::MutexLock lock(&mu);
    auto it = entries.find(device_id);
    if (it == entries.end()) return nullptr;
    return std::move(it->second.reserve);
  }
  // Maps and faults in `bytes` of host memory on a thread of its own, as
  // the reserve of `device_id` for its next capture (DESIGN.md §4.14): the
  // next Backup copies into memory already touched, outside its locked
  // window. Nothing happens when a reserve is there or still being made, or
  // no thread can be started.
  void PrepareReserve(int32_t device_id, uint64_t bytes) {
    {
      ascend::MutexLock lock(&mu);
      auto it = entries.find(device_id);
      if (it == entries.end() || it->second.reserve != nullptr) return;
    }
    ascend::MutexLock lock(&preparing_mu);
    Preparer& preparer = preparing[device_id];
    if (preparer.thread.joinable()) {
      if (!preparer.done->load()) return;  // still at work
      preparer.thread.join();
    }
    auto done = std::make_shared<std::atomic<bool>>(false);
    try {
      preparer.thread = std::thread([this, device_id, bytes, done] {
        absl::StatusOr<std::unique_ptr<HostBuffer>> made =
            HostBuffer::Map(bytes);
        if (made.ok()) {
          (*made)->Prefault();
          SetReserve(device_id, *std::move(made));
        }
        done->store(true);
      });
      preparer.done = std::move(done);
    } catch (...) {
      // No thread: the next Backup maps its own buffer.
    }
  }
  void SetReserve(int32_t device_id, std::unique_ptr<HostBuffer> reserve) {
    std::unique_ptr<HostBuffer> replaced;
    ascend::MutexLock lock(&mu);
    auto it = entries.find(device_id);
    if (it == entries.end()) return;
    replaced = std::exchange(it->second.reserve, std::move(reserve));
  }
  uint64_t LastCopied(int32_t device_id) {
    ascend::MutexLock lock(&mu);
    auto it = entries.find(device_id);
    return it == entries.end() ? 0 : it->second.last_copied;
  }
  void SetLastCopied(int32_t device_id, uint64_t bytes) {
    ascend::MutexLock lock(&mu);
    auto it = entries.find(device_id);
    if (it != entries.end()) it->second.last_copied = bytes;
  }

  // The period running on `device_id` if it is still `device`'s, else 0.
  uint64_t Current(int32_t device_id, const device::Device& device) {
    ascend::MutexLock lock(&mu);
    auto it = entries.find(device_id);
    if (it == entries.end()) return 0;
    std::shared_ptr<device::Device> tracked = it->second.device.lock();
    return tracked.get() == &device ? it->second.period : 0;
  }
  // Starts a period on `device` over `base`'s allocations; returns it, or 0
  // when the device cannot track writes (said once in the log).
  uint64_t Start(int32_t device_id,
                 const std::shared_ptr<device::Device>& device,
                 std::shared_ptr<const Layout> base,
                 uint64_t allocations_version) {
    std::vector<device::Allocation> ranges;
    ranges.reserve(base->allocations.size());
    for (const SavedMemory::Allocation& a : base->allocations) {
      ranges.push_back(device::Allocation{a.addr, a.size});
    }
    const absl::Status started = device->TrackWrites(ranges);
    ascend::MutexLock lock(&mu);
    if (!started.ok()) {
      entries.erase(device_id);
      if (!said_unavailable) {
        said_unavailable = true;
        LOG(INFO) << "snapshot: no write tracking on device " << device_id
                  << " (" << started.message()
                  << "): every Backup copies all device memory";
      }
      return 0;
    }
    Entry& entry = entries[device_id];
    entry.device = device;
    entry.period = next_period++;
    entry.base = std::move(base);
    entry.allocations_version = allocations_version;
    return entry.period;
  }
  // A pre-copy's period: starts one over `ranges` with no base yet (SetBase
  // gives it one once the copy is done). With a period running, `written`
  // gets what it saw, ended in the same step (Device::RestartWriteTracking),
  // and `restarted` says so; without, the new period starts afresh and the
  // copy must be full. Returns the new period.
  absl::StatusOr<uint64_t> Begin(int32_t device_id,
                                 const std::shared_ptr<device::Device>& device,
                                 const std::vector<device::Allocation>& ranges,
                                 std::vector<device::Allocation>* written,
                                 bool* restarted) {
    *restarted = false;
    if (Current(device_id, *device) != 0) {
      absl::StatusOr<std::vector<device::Allocation>> ended =
          device->RestartWriteTracking(ranges);
      if (ended.ok()) {
        *written = *std::move(ended);
        *restarted = true;
      }
    }
    if (!*restarted) {
      if (absl::Status started = device->TrackWrites(ranges); !started.ok()) {
        Forget(device_id);
        return started;
      }
    }
    ascend::MutexLock lock(&mu);
    Entry& entry = entries[device_id];
    entry.device = device;
    entry.period = next_period++;
    entry.base = std::make_shared<const Layout>();
    entry.allocations_version = 0;
    return entry.period;
  }
  // Gives `period` of `device_id` its base; false when that period is over.
  bool SetBase(int32_t device_id, uint64_t period,
               std::shared_ptr<const Layout> base,
               uint64_t allocations_version) {
    ascend::MutexLock lock(&mu);
    auto it = entries.find(device_id);
    if (it == entries.end() || it->second.period != period) return false;
    it->second.base = std::move(base);
    it->second.allocations_version = allocations_version;
    return true;
  }
  // Forgets `device_id`'s period and releases its base (device closed).
  void Forget(int32_t device_id) {
    std::shared_ptr<const Layout> released;
    std::unique_ptr<HostBuffer> reserve;
    {
      ascend::MutexLock lock(&mu);
      auto it = entries.find(device_id);
      if (it == entries.end()) return;
      released = std::move(it->second.base);
      reserve = std::move(it->second.reserve);
      entries.erase(it);
    }
  }
  // Forgets every device's period (aclFinalize).
  void ForgetAll() {
    std::map<int32_t, Entry> released;
    ascend::MutexLock lock(&mu);
    released.swap(entries);
  }
  // The base of `device_id` when its period is `period` (null otherwise),
  // and the allocations version it was captured at.
  std::shared_ptr<const Layout> Base(int32_t device_id, uint64_t period,
                                     uint64_t* allocations_version = nullptr) {
    ascend::MutexLock lock(&mu);
    auto it = entries.find(device_id);
    if (it == entries.end() || it->second.period != period) return nullptr;
    if (allocations_version != nullptr) {
      *allocations_version = it->second.allocations_version;
    }
    return it->second.base;
  }
  ascend::Mutex mu;
  std::map<int32_t, Entry> entries;
  // Per device, the thread preparing its reserve (joined before the next
  // one starts, and on destruction).
  struct Preparer {
    std::thread thread;
    std::shared_ptr<std::atomic<bool>> done =
        std::make_shared<std::atomic<bool>>(true);
  };
  ascend::Mutex preparing_mu;
  std::map<int32_t, Preparer> preparing;
  uint64_t next_period = 1;
  bool said_unavailable = false;
};

}  // namespace internal

namespace {

// Where `live` (sorted) may hold data, asking the device only where it
// must (DESIGN.md §4.14): an allocation `base` saved at the same address
// and size was tracked since, so outside the `written` ranges its data is
// where the base's pieces are; inside them, and in allocations the base
// does not have, the device tells. Without a base, the device tells all.
std::vector<device::Allocation> DataSince(
    const device::Device& device, const std::vector<device::Allocation>& live,
    const internal::Layout* base,
    const std::vector<device::Allocation>* written) {
  if (base == nullptr || written == nullptr) return DataOver(device, live);
  std::vector<device::Allocation> data;
  std::vector<device::Allocation> unknown;    // where the device must tell
  std::vector<device::Allocation> rewritten;  // written since the base
  size_t base_alloc = 0;
  size_t cursor = 0;
  for (const device::Allocation& a : live) {
    while (base_alloc < base->allocations.size() &&
           base->allocations[base_alloc].addr < a.addr) {
      ++base_alloc;
    }
    if (base_alloc >= base->allocations.size() ||
        base->allocations[base_alloc].addr != a.addr ||
        base->allocations[base_alloc].size != a.size) {
      AppendMerged(&unknown, a.addr, End(a));
      continue;
    }
    const SavedMemory::Allocation& prior = base->allocations[base_alloc];
    // The base's pieces where nothing was written since.
    size_t w = cursor;
    for (size_t p = prior.first_piece;
         p < prior.first_piece + prior.piece_count; ++p) {
      const SavedMemory::Piece& piece = base->pieces[p];
      const uint64_t piece_end = piece.addr + piece.size;
      uint64_t at = piece.addr;
      while (w < written->size() && End((*written)[w]) <= at) ++w;
      for (size_t k = w; k < written->size() && (*written)[k].addr < piece_end;
           ++k) {
        AppendMerged(&data, at, std::max(at, (*written)[k].addr));
        at = std::max(at, End((*written)[k]));
      }
      if (at < piece_end) AppendMerged(&data, at, piece_end);
    }
    // The written parts count as data: asking the device would cost more
    // than copying them (a range zeroed since copies as zeros).
    ForEachOverlap(
        *written, &cursor, a.addr, End(a),
        [&](uint64_t b, uint64_t e) { AppendMerged(&rewritten, b, e); });
  }
  // Allocations new since the base: the device tells, in one query over
  // their span (a query's cost grows with the data it walks, not with the
  // number of ranges asked about).
  if (!unknown.empty()) {
    const std::vector<device::Allocation> held = DataOver(device, unknown);
    size_t at = 0;
    for (const device::Allocation& u : unknown) {
      ForEachOverlap(held, &at, u.addr, End(u), [&](uint64_t b, uint64_t e) {
        data.push_back(device::Allocation{b, e - b});
      });
    }
  }
  data.insert(data.end(), rewritten.begin(), rewritten.end());
  std::sort(data.begin(), data.end(),
            [](const device::Allocation& x, const device::Allocation& y) {
              return x.addr < y.addr;
            });
  std::vector<device::Allocation> merged;
  merged.reserve(data.size());
  for (const device::Allocation& r : data) {
    AppendMerged(&merged, r.addr, End(r));
  }
  return merged;
}

// ASCENDCL_SNAPSHOT_INCREMENTAL=0 turns incremental snapshots off.
bool IncrementalEnabled() {
  const char* mode = std::getenv("ASCENDCL_SNAPSHOT_INCREMENTAL");
  return mode == nullptr || std::strcmp(mode, "0") != 0;
}

}  // namespace

SavedMemory::SavedMemory(rt::Runtime& runtime, int32_t device_id,
                         MemoryOptions options,
                         std::shared_ptr<internal::Tracking> tracking)
    : runtime_(runtime),
      device_id_(device_id),
      options_(options),
      tracking_(std::move(tracking)),
      layout_(std::make_shared<internal::Layout>()) {}

SavedMemory::~SavedMemory() = default;

uint64_t SavedMemory::bytes() const {
  uint64_t total = 0;
  for (const auto& buffer : layout_->buffers) {
    if (buffer != nullptr) total += buffer->host_bytes();
  }
  return total;
}

uint64_t SavedMemory::disk_bytes() const {
  uint64_t total = 0;
  for (const auto& buffer : layout_->buffers) {
    if (buffer != nullptr && buffer->file() != nullptr) total += buffer->size();
  }
  return total;
}

std::vector<internal::ImageFile*> SavedMemory::files() const {
  std::vector<internal::ImageFile*> files;
  for (const auto& buffer : layout_->buffers) {
    if (buffer != nullptr && buffer->file() != nullptr) {
      files.push_back(buffer->file());
    }
  }
  return files;
}

rt::SavedState::CopyStats SavedMemory::last_copy() const {
  return restored_ ? restored_stats_ : saved_stats_;
}

uint8_t* SavedMemory::SavedByte(size_t index, uint64_t offset) {
  if (index >= layout_->allocations.size()) return nullptr;
  const Allocation& a = layout_->allocations[index];
  const uint64_t addr = a.addr + offset;
  for (size_t p = a.first_piece; p < a.first_piece + a.piece_count; ++p) {
    const Piece& piece = layout_->pieces[p];
    if (addr >= piece.addr && addr < piece.addr + piece.size) {
      const auto& buffer = layout_->buffers[piece.buffer];
      if (buffer == nullptr || buffer->data() == nullptr) return nullptr;
      return buffer->data() + piece.offset + (addr - piece.addr);
    }
  }
  return nullptr;
}

uint64_t SavedMemory::Plan(const std::vector<device::Allocation>& live,
                           const std::vector<device::Allocation>& data,
                           const internal::Layout* base,
                           const std::vector<device::Allocation>* written,
                           std::vector<size_t>* copy) {
  layout_->allocations.clear();
  layout_->pieces.clear();
  copy->clear();
  // layout_->buffers[0] is this capture's own; base buffers follow as used.
  layout_->buffers.assign(1, nullptr);
  std::vector<int64_t> mapped(base != nullptr ? base->buffers.size() : 0, -1);
  const uint64_t piece_max = std::max<uint64_t>(
      std::min(options_.piece_bytes, options_.chunk_bytes), 1);
  uint64_t total = 0;
  size_t data_cursor = 0;
  size_t written_cursor = 0;
  size_t base_alloc = 0;
  layout_->allocations.reserve(live.size());
  for (const device::Allocation& a : live) {
    Allocation& saved = layout_->allocations.emplace_back();
    saved.addr = a.addr;
    saved.size = a.size;
    saved.first_piece = layout_->pieces.size();
    // The same allocation in the base (same address and size: it was
    // tracked since; freed and made again, it was noted as written).
    const Allocation* prior = nullptr;
    if (base != nullptr) {
      while (base_alloc < base->allocations.size() &&
             base->allocations[base_alloc].addr < a.addr) {
        ++base_alloc;
      }
      if (base_alloc < base->allocations.size() &&
          base->allocations[base_alloc].addr == a.addr &&
          base->allocations[base_alloc].size == a.size) {
        prior = &base->allocations[base_alloc];
      }
    }
    size_t prior_piece = prior != nullptr ? prior->first_piece : 0;
    const size_t prior_end =
        prior != nullptr ? prior->first_piece + prior->piece_count : 0;
    ForEachOverlap(
        data, &data_cursor, a.addr, End(a), [&](uint64_t b, uint64_t e) {
          for (uint64_t p = b; p < e;) {
            // Pieces sit on a grid from the allocation's start, so the same
            // bytes make the same pieces in every capture.
            const uint64_t boundary =
                a.addr + ((p - a.addr) / piece_max + 1) * piece_max;
            const uint64_t len = std::min(boundary, e) - p;
            Piece piece{layout_->allocations.size() - 1, p, len, 0, 0, 0};
            bool carried = false;
            if (prior != nullptr) {
              while (prior_piece < prior_end &&
                     base->pieces[prior_piece].addr < p) {
                ++prior_piece;
              }
              if (prior_piece < prior_end) {
                const Piece& old = base->pieces[prior_piece];
                if (old.addr == p && old.size == len &&
                    !OverlapsAny(*written, &written_cursor, p, p + len) &&
                    base->buffers[old.buffer] != nullptr) {
                  if (mapped[old.buffer] < 0) {
                    mapped[old.buffer] =
                        static_cast<int64_t>(layout_->buffers.size());
                    layout_->buffers.push_back(base->buffers[old.buffer]);
                  }
                  piece.buffer = static_cast<uint32_t>(mapped[old.buffer]);
                  piece.offset = old.offset;
                  piece.checksum = old.checksum;
                  carried = true;
                }
              }
            }
            if (!carried) {
              piece.offset = total;
              total += len;
              copy->push_back(layout_->pieces.size());
            }
            layout_->pieces.push_back(piece);
            p += len;
          }
        });
    saved.piece_count = layout_->pieces.size() - saved.first_piece;
  }
  return total;
}

absl::Status SavedMemory::Capture(
    device::Device& device, const std::vector<device::Allocation>& live,
    const internal::Layout* base,
    const std::vector<device::Allocation>* written, std::vector<bool>* kept,
    std::unique_ptr<internal::HostBuffer>* reserve) {
  const absl::Time start = absl::Now();
  if (kept != nullptr) kept->assign(live.size(), true);
  std::vector<device::Allocation> data = DataSince(device, live, base, written);
  std::vector<size_t> copy;
  uint64_t total = Plan(live, data, base, written, &copy);
  uint64_t image = 0;
  for (const Piece& piece : layout_->pieces) image += piece.size;
  if (base != nullptr) {
    // Carried-over pieces keep their old buffers alive: when those hold
    // more than the image itself, start afresh with a full capture.
    uint64_t held = total;
    for (size_t b = 1; b < layout_->buffers.size(); ++b)
      held += layout_->buffers[b]->size();
    if (held > 2 * image + options_.chunk_bytes) {
      base = nullptr;
      data = DataOver(device, live);
      total = Plan(live, data, nullptr, nullptr, &copy);
    }
  }
  store_ = internal::ImageStore::Current();
  if (store_ != nullptr && total > 0) {
    // An image on disk (DESIGN.md §4.15).
    ASCEND_ASSIGN_OR_RETURN(
        layout_->buffers[0],
        store_->Create(device_id_, store_->NextBackup(), total));
  } else if (reserve != nullptr && *reserve != nullptr &&
             (*reserve)->size() >= total && total > 0) {
    (*reserve)->Shrink(total);
    layout_->buffers[0] =
        std::move(*reserve);  // faulted in ahead by a pre-copy
  } else {
    ASCEND_ASSIGN_OR_RETURN(std::unique_ptr<internal::HostBuffer> fresh,
                            internal::HostBuffer::Map(total));
    // An incremental capture's buffer is mapped in one call before the copy
    // (measured on this VM: copies faulting in fresh memory page by page
    // cost more, and vary more, than the kernel populating it).
    if (base != nullptr) fresh->Prefault();
    layout_->buffers[0] = std::move(fresh);
  }
  const std::vector<size_t> items = internal::GroupIntoItems(
      layout_->pieces, copy, std::max<uint64_t>(options_.chunk_bytes, 1));
  internal::PieceWork work;
  work.device_id = device_id_;
  work.pieces = &layout_->pieces;
  work.copy = &copy;
  work.items = &items;
  work.workers = options_.workers;
  if (!copy.empty()) {
    ASCEND_RETURN_IF_ERROR(internal::CopyPiecesFromDevice(
        work, device, *layout_->buffers[0],
        store_ != nullptr ? &store_->pool() : nullptr, kept));
  }
  if (internal::ImageFile* file = layout_->buffers[0]->file()) {
    std::vector<internal::ImagePiece> table;
    table.reserve(copy.size());
    for (const size_t k : copy) {
      const Piece& piece = layout_->pieces[k];
      if (kept != nullptr && !(*kept)[piece.allocation]) continue;
      table.push_back(internal::ImagePiece{piece.addr, piece.size, piece.offset,
                                           piece.checksum});
    }
    ASCEND_RETURN_IF_ERROR(file->Commit(table));
  }
  // The pieces of the plan taken (a full one may have replaced the first).
  image = 0;
  for (const Piece& piece : layout_->pieces) image += piece.size;
  layout_->bytes = image;
  saved_stats_.copied = total;
  saved_stats_.unchanged = image - total;
  saved_stats_.incremental = base != nullptr;
  uint64_t allocated = 0;
  for (const device::Allocation& a : live) allocated += a.size;
  LOG(INFO) << (kept != nullptr ? "snapshot pre-copy: device "
                                : "snapshot backup: device ")
            << device_id_ << ": " << live.size() << " allocation(s) of "
            << allocated << " bytes, "
            << (base != nullptr ? "incremental, " : "") << "saved "
            << Throughput(total, absl::Now() - start)
            << (base != nullptr
                    ? absl::StrCat(", ", image - total, " bytes unchanged")
                    : std::string());
  return absl::OkStatus();
}

std::shared_ptr<const internal::Layout> SavedMemory::LayoutOf(
    const std::vector<bool>* keep) const {
  if (keep == nullptr) return layout_;
  auto layout = std::make_shared<internal::Layout>();
  layout->buffers = layout_->buffers;
  for (size_t i = 0; i < layout_->allocations.size(); ++i) {
    if (!(*keep)[i]) continue;
    Allocation a = layout_->allocations[i];
    const size_t first = a.first_piece;
    a.first_piece = layout->pieces.size();
    for (size_t p = first; p < first + a.piece_count; ++p) {
      Piece piece = layout_->pieces[p];
      piece.allocation = layout->allocations.size();
      layout->bytes += piece.size;
      layout->pieces.push_back(piece);
    }
    layout->allocations.push_back(a);
  }
  return layout;
}

void SavedMemory::AdoptUnchanged(std::shared_ptr<const internal::Layout> base) {
  // Shared, never changed again: this capture only reads it.
  layout_ = std::const_pointer_cast<internal::Layout>(std::move(base));
  store_ = internal::ImageStore::Current();
  saved_stats_.copied = 0;
  saved_stats_.unchanged = layout_->bytes;
  saved_stats_.incremental = true;
}

const std::vector<SavedMemory::Allocation>& SavedMemory::allocations() const {
  return layout_->allocations;
}

const std::vector<SavedMemory::Piece>& SavedMemory::pieces() const {
  return layout_->pieces;
}

std::optional<std::vector<device::Allocation>> SavedMemory::WrittenSince(
    device::Device& device) const {
  if (tracking_ == nullptr || period_ == 0 ||
      tracking_->Current(device_id_, device) != period_) {
    return std::nullopt;
  }
  absl::StatusOr<std::vector<device::Allocation>> written =
      device.WrittenRanges();
  if (!written.ok()) return std::nullopt;
  return *std::move(written);
}

internal::RestoreSource SavedMemory::RestoreSourceOf() const {
  internal::RestoreSource source;
  source.device_id = device_id_;
  source.pieces = &layout_->pieces;
  source.buffers = &layout_->buffers;
  source.readers = &readers_;
  source.pool = store_ != nullptr ? &store_->pool() : nullptr;
  source.options = options_;
  return source;
}

absl::Status SavedMemory::Prepare() {
  // Before any state restores, on any device: every image file is opened
  // and checked, the Restore is planned, and every piece it will copy is
  // read and verified, so that a missing, damaged or replaced file, or
  // damaged data, fails the Restore with nothing changed (DESIGN.md §4.9,
  // §4.15).
  plan_.reset();
  std::vector<std::unique_ptr<internal::ImageFile::Reader>> readers(
      layout_->buffers.size());
  absl::Status checked;
  for (size_t b = 0; b < layout_->buffers.size() && checked.ok(); ++b) {
    if (layout_->buffers[b] == nullptr ||
        layout_->buffers[b]->file() == nullptr)
      continue;
    absl::StatusOr<std::unique_ptr<internal::ImageFile::Reader>> reader =
        layout_->buffers[b]->file()->Open();
    if (reader.ok()) {
      readers[b] = *std::move(reader);
    } else {
      checked = reader.status();
    }
  }
  readers_ = std::move(readers);
  ASCEND_ASSIGN_OR_RETURN(std::shared_ptr<device::Device> device,
                          OpenDevice(runtime_, device_id_));
  if (!live_.has_value()) live_ = device->Allocations();
  std::unique_ptr<internal::RestorePlan> plan;
  const absl::Time start = absl::Now();
  if (checked.ok()) {
    const std::optional<std::vector<device::Allocation>> written =
        WrittenSince(*device);
    plan = std::make_unique<internal::RestorePlan>(
        internal::PlanRestore(layout_->allocations, layout_->pieces, *live_,
                              written.has_value() ? &*written : nullptr));
    checked = internal::VerifySources(RestoreSourceOf(), plan->copy);
  }
  if (!checked.ok()) {
    readers_.clear();
    // The next Backup must not carry pieces over from a damaged image.
    if (checked.code() == absl::StatusCode::kDataLoss && tracking_ != nullptr) {
      tracking_->Forget(device_id_);
    }
    return checked;
  }
  LOG(INFO) << "snapshot restore: device " << device_id_ << ": verified "
            << Throughput(plan->copied_bytes, absl::Now() - start);
  plan_ = std::move(plan);
  return absl::OkStatus();
}

absl::Status SavedMemory::Restore() const {
  const absl::Time start = absl::Now();
  if (!live_.has_value() || plan_ == nullptr) {
    return absl::FailedPreconditionError("restore without Prepare");
  }
  ASCEND_ASSIGN_OR_RETURN(std::shared_ptr<device::Device> device,
                          OpenDevice(runtime_, device_id_));
  const internal::RestorePlan* plan = plan_.get();
  // Only the Restore's participants ran since Prepare, and they write no
  // device memory; should the tracking report more written now, the pieces
  // that adds are verified before this device's memory changes.
  internal::RestorePlan wider;
  if (plan->written.has_value()) {
    const std::optional<std::vector<device::Allocation>> written =
        WrittenSince(*device);
    if (!written.has_value() ||
        !internal::SameRanges(*written, *plan->written)) {
      wider =
          internal::PlanRestore(layout_->allocations, layout_->pieces, *live_,
                                written.has_value() ? &*written : nullptr);
      ASCEND_RETURN_IF_ERROR(internal::VerifySources(
          RestoreSourceOf(), internal::Missing(wider.copy, plan->copy)));
      plan = &wider;
    }
  }
  ASCEND_RETURN_IF_ERROR(internal::ClearGaps(*device, plan->gaps));
  if (absl::Status copied =
          internal::CopyToDevice(RestoreSourceOf(), plan->copy, *device);
      !copied.ok()) {
    // A damaged image is not the base of the next Backup either.
    if (copied.code() == absl::StatusCode::kDataLoss && tracking_ != nullptr) {
      tracking_->Forget(device_id_);
    }
    return copied;
  }
  readers_.clear();
  restored_ = true;
  restored_stats_.copied = plan->copied_bytes;
  restored_stats_.unchanged = plan->unchanged_bytes;
  // Tracked but everything written (a memory loss) is a full restore.
  restored_stats_.incremental =
      plan->written.has_value() && plan->unchanged_bytes > 0;
  restored_stats_.write_tracking = saved_stats_.write_tracking;
  // The kept allocations now hold exactly this capture: a new period
  // starts from it, so the next Backup copies only what is written next.
  if (tracking_ != nullptr) {
    // The allocations alive now are live_ (the "allocations" participant
    // put back any that were missing); when the kept layout holds them all,
    // the next Backup may compare versions instead of listing them.
    const size_t kept = static_cast<size_t>(
        std::count(plan->keep.begin(), plan->keep.end(), true));
    const uint64_t version =
        kept == live_->size() ? device->AllocationsVersion() : 0;
    const bool all_kept = kept == plan->keep.size();
    period_ =
        tracking_->Start(device_id_, device,
                         LayoutOf(all_kept ? nullptr : &plan->keep), version);
  }
  LOG(INFO) << "snapshot restore: device " << device_id_ << ": "
            << live_->size() << " allocation(s), "
            << (restored_stats_.incremental ? "incremental, " : "")
            << "restored "
            << Throughput(plan->copied_bytes, absl::Now() - start);
  return absl::OkStatus();
}

class MemoryParticipant final : public rt::SnapshotParticipant {
 public:
  MemoryParticipant(rt::Runtime& runtime, MemoryOptions options)
      : runtime_(runtime),
        options_(options),
        tracking_(std::make_shared<internal::Tracking>()) {
    // A closed device's period ends, and its base is released.
    std::weak_ptr<internal::Tracking> tracking = tracking_;
    close_observer_ = runtime_.AddDeviceCloseObserver([tracking](int32_t id) {
      if (std::shared_ptr<internal::Tracking> t = tracking.lock()) {
        t->Forget(id);
      }
    });
  }
  ~MemoryParticipant() override {
    runtime_.RemoveDeviceCloseObserver(close_observer_);
  }

  absl::string_view name() const override { return "memory"; }

  absl::StatusOr<std::unique_ptr<rt::SavedState>> Save(
      int32_t device_id) override {
    ASCEND_ASSIGN_OR_RETURN(std::shared_ptr<device::Device> device,
                            OpenDevice(runtime_, device_id));
    auto saved =
        std::make_unique<SavedMemory>(runtime_, device_id, options_, tracking_);
    // Incremental when this device's write-tracking period runs: pieces of
    // the previous capture not written since carry over.
    // ASCENDCL_SNAPSHOT_INCREMENTAL=0 makes every Backup full and tracks
    // nothing (DESIGN.md §4.14).
    const bool incremental = IncrementalEnabled();
    if (!incremental) tracking_->Forget(device_id);
    std::shared_ptr<const internal::Layout> base;
    uint64_t base_version = 0;
    std::vector<device::Allocation> written;
    const uint64_t period = tracking_->Current(device_id, *device);
    if (period != 0) {
      absl::StatusOr<std::vector<device::Allocation>> w =
          device->WrittenRanges();
      if (w.ok()) {
        base = tracking_->Base(device_id, period, &base_version);
        written = *std::move(w);
      }
    }
    // Read before the allocations are listed: a change after it shows in
    // the next Backup's comparison.
    const uint64_t version = device->AllocationsVersion();
    if (base != nullptr && written.empty() && version != 0 &&
        version == base_version) {
      // Nothing written and no allocation made or freed since the base:
      // it is this capture, and its period goes on (no work per
      // allocation).
      saved->AdoptUnchanged(std::move(base));
      saved->period_ = period;
      saved->saved_stats_.write_tracking = device->WriteTracking();
      tracking_->SetLastCopied(device_id, 0);
      LOG(INFO) << "snapshot backup: device " << device_id << ": "
                << saved->allocations().size()
                << " allocation(s), incremental, nothing written since the "
                   "last capture";
      return std::unique_ptr<rt::SavedState>(std::move(saved));
    }
    std::unique_ptr<internal::HostBuffer> reserve =
        tracking_->TakeReserve(device_id);
    ASCEND_RETURN_IF_ERROR(
        saved->Capture(*device, device->Allocations(), base.get(), &written,
                       nullptr, base != nullptr ? &reserve : nullptr));
    base.reset();
    reserve.reset();  // not needed after all: released
    // A new period starts from this capture (a failed capture above kept
    // the old one, whose writes are still all counted).
    if (!incremental) return std::unique_ptr<rt::SavedState>(std::move(saved));
    saved->period_ =
        tracking_->Start(device_id, device, saved->LayoutOf(nullptr), version);
    if (saved->period_ != 0) {
      saved->saved_stats_.write_tracking = device->WriteTracking();
      if (saved->saved_stats_.incremental) {
        tracking_->SetLastCopied(device_id, saved->saved_stats_.copied);
      }
      // The next incremental Backup copies about what this one did into
      // memory faulted in meanwhile: twice that, at least 8 MiB; only for
      // images in host memory, and only while that stays within an eighth
      // of the image (a larger copy pays for its own buffer: the host
      // memory held stays about one image).
      const uint64_t want =
          std::max<uint64_t>(2 * tracking_->LastCopied(device_id), 8 << 20);
      if (saved->store_ == nullptr && want <= saved->layout_->bytes / 8) {
        tracking_->PrepareReserve(device_id, want);
      }
    }
    return std::unique_ptr<rt::SavedState>(std::move(saved));
  }

  // Captures the device's memory into the base of a new write-tracking
  // period while the process runs (DESIGN.md §4.14): the next Save carries
  // over every piece not written after this began.
  absl::StatusOr<Precopied> Precopy(int32_t device_id) override {
    ASCEND_ASSIGN_OR_RETURN(std::shared_ptr<device::Device> device,
                            OpenDevice(runtime_, device_id));
    if (!IncrementalEnabled()) {
      return absl::UnimplementedError(
          "incremental snapshots are off (ASCENDCL_SNAPSHOT_INCREMENTAL=0): "
          "the next Backup copies everything whatever is pre-copied");
    }
    if (device->WriteTracking().empty()) {
      return absl::UnimplementedError(absl::StrCat(
          "device ", device_id,
          " cannot track writes: the next Backup copies everything"));
    }
    // Read before the allocations are listed (they may change while the
    // pre-copy runs: then the next Backup lists them again).
    const uint64_t version = device->AllocationsVersion();
    const std::vector<device::Allocation> live = device->Allocations();
    // The base and period running now: pieces not written since carry over.
    std::shared_ptr<const internal::Layout> base;
    if (const uint64_t running = tracking_->Current(device_id, *device);
        running != 0) {
      base = tracking_->Base(device_id, running);
    }
    std::vector<device::Allocation> written;
    bool restarted = false;
    absl::StatusOr<uint64_t> period =
        tracking_->Begin(device_id, device, live, &written, &restarted);
    if (!period.ok()) {
      return absl::UnimplementedError(
          absl::StrCat("device ", device_id,
                       " cannot track writes: ", period.status().message()));
    }
    if (!restarted) base.reset();
    auto saved =
        std::make_unique<SavedMemory>(runtime_, device_id, options_, tracking_);
    std::vector<bool> kept;
    absl::Status captured =
        saved->Capture(*device, live, base.get(), &written, &kept);
    base.reset();
    if (!captured.ok()) {
      tracking_->Forget(device_id);  // the next Backup is full
      return captured;
    }
    const bool all_kept = std::count(kept.begin(), kept.end(), false) == 0;
    if (!tracking_->SetBase(device_id, *period,
                            saved->LayoutOf(all_kept ? nullptr : &kept),
                            all_kept ? version : 0)) {
      return absl::FailedPreconditionError(absl::StrCat(
          "device ", device_id, " was closed during the pre-copy"));
    }
    // The next Backup copies what is written from now on into memory
    // faulted in here, outside its locked window: twice what the last
    // incremental Backup copied, at least 8 MiB, at most the image.
    uint64_t image = 0;
    for (const SavedMemory::Piece& piece : saved->pieces()) image += piece.size;
    const uint64_t want = std::min(
        image,
        std::max<uint64_t>(2 * tracking_->LastCopied(device_id), 8 << 20));
    uint64_t reserved = 0;
    if (want > 0 && saved->store_ == nullptr) {
      absl::StatusOr<std::unique_ptr<internal::HostBuffer>> reserve =
          internal::HostBuffer::Map(want);
      if (reserve.ok()) {
        (*reserve)->Prefault();
        reserved = (*reserve)->size();
        tracking_->SetReserve(device_id, *std::move(reserve));
      }
    }
    Precopied result;
    result.copied = saved->saved_stats_;
    result.copied.write_tracking = device->WriteTracking();
    result.host_bytes = saved->bytes() + reserved;
    return result;
  }

  void ReleaseKept() override { tracking_->ForgetAll(); }
  // Each device's capture is its own; they share the tracking table, the
  // image store and its staging pool, all locked.
  bool SavesDevicesConcurrently() const override { return true; }

  // Each allocation with the device's checksum of its contents.
  absl::StatusOr<std::string> Describe(int32_t device_id) const override {
    ASCEND_ASSIGN_OR_RETURN(std::shared_ptr<device::Device> device,
                            OpenDevice(runtime_, device_id));
    std::string text;
    for (const device::Allocation& a : device->Allocations()) {
      ASCEND_ASSIGN_OR_RETURN(const uint64_t sum,
                              device->Checksum(a.addr, a.size));
      absl::StrAppendFormat(&text, "[0x%x, +%u) checksum %016x\n", a.addr,
                            a.size, sum);
    }
    return text;
  }

 private:
  rt::Runtime& runtime_;
  const MemoryOptions options_;
  const std::shared_ptr<internal::Tracking> tracking_;
  uint64_t close_observer_ = 0;
};

std::unique_ptr<rt::SnapshotParticipant> MakeAllocationsParticipant(
    rt::Runtime& runtime) {
  return std::make_unique<AllocationsParticipant>(runtime);
}

std::unique_ptr<rt::SnapshotParticipant> MakeMemoryParticipant(
    rt::Runtime& runtime, const MemoryOptions& options) {
  return std::make_unique<MemoryParticipant>(runtime, options);
}

}  // namespace ascend::snapshot
