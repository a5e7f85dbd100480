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
#include "snapshot/memory_plan.h"
#include "snapshot/memory_restore.h"
#include "snapshot/memory_tracking.h"
#include "snapshot/piece_copy.h"

namespace ascend::snapshot {

namespace {

std::string Throughput(uint64_t bytes, absl::Duration elapsed) {
  const double seconds = std::max(absl::ToDoubleSeconds(elapsed), 1e-9);
  return absl::StrFormat("%u bytes in %.3f ms (%.2f GB/s)", bytes,
                         seconds * 1e3,
                         static_cast<double>(bytes) / seconds / 1e9);
}

using internal::DataOver;
using internal::OpenDevice;

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

absl::Status SavedMemory::Capture(
    device::Device& device, const std::vector<device::Allocation>& live,
    const internal::Layout* base,
    const std::vector<device::Allocation>* written, std::vector<bool>* kept,
    std::unique_ptr<internal::HostBuffer>* reserve, bool rewrite_base) {
  const absl::Time start = absl::Now();
  if (kept != nullptr) kept->assign(live.size(), true);
  store_ = internal::ImageStore::Current();
  // The base's host buffers nothing else holds (the image they were saved
  // in was released): a piece written since is copied again where it was,
  // into memory already faulted in, instead of into new memory.
  std::vector<bool> in_place;
  if (rewrite_base && base != nullptr && store_ == nullptr) {
    in_place.resize(base->buffers.size());
    for (size_t b = 0; b < base->buffers.size(); ++b) {
      const std::shared_ptr<internal::Extent>& buffer = base->buffers[b];
      in_place[b] = buffer != nullptr && buffer.use_count() == 1 &&
                    buffer->file() == nullptr && buffer->data() != nullptr;
    }
  }
  std::vector<device::Allocation> data =
      internal::DataSince(device, live, base, written);
  std::vector<size_t> copy;
  uint64_t rewritten = 0;
  uint64_t total =
      Plan(live, data, base, written, in_place.empty() ? nullptr : &in_place,
           &copy, &rewritten);
  uint64_t image = 0;
  for (const Piece& piece : layout_->pieces) image += piece.size;
  std::string plan;
  if (base != nullptr) {
    // Carried-over pieces keep their old buffers alive: when those hold
    // more than the image itself, start afresh with a full capture.
    uint64_t held = total;
    for (size_t b = 1; b < layout_->buffers.size(); ++b)
      held += layout_->buffers[b]->size();
    if (held > 2 * image + options_.chunk_bytes) {
      base = nullptr;
      data = DataOver(device, live);
      total = Plan(live, data, nullptr, nullptr, nullptr, &copy, &rewritten);
      plan =
          "full: the pieces an incremental capture would carry over would "
          "keep more than twice the image in host memory";
    } else {
      plan = absl::StrFormat(
          "incremental: copies the %u of the image's %u bytes written since "
          "the last capture, %u of them into the last capture's memory",
          total + rewritten, image, rewritten);
    }
  }
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
  work.buffers = &layout_->buffers;
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
  saved_stats_.copied = total + rewritten;
  saved_stats_.unchanged = image - saved_stats_.copied;
  saved_stats_.in_place = rewritten;
  saved_stats_.incremental = base != nullptr;
  saved_stats_.plan = std::move(plan);
  uint64_t allocated = 0;
  for (const device::Allocation& a : live) allocated += a.size;
  LOG(INFO) << (kept != nullptr ? "snapshot pre-copy: device "
                                : "snapshot backup: device ")
            << device_id_ << ": " << live.size() << " allocation(s) of "
            << allocated << " bytes, "
            << (base != nullptr ? "incremental, " : "") << "saved "
            << Throughput(total + rewritten, absl::Now() - start)
            << (rewritten > 0 ? absl::StrCat(" (", rewritten, " in place)")
                              : std::string())
            << (base != nullptr ? absl::StrCat(", ", saved_stats_.unchanged,
                                               " bytes unchanged")
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
  restored_stats_.plan =
      restored_stats_.incremental
          ? absl::StrFormat(
                "incremental: copies back the %u bytes written since the "
                "capture",
                plan->copied_bytes)
          : "full: copies back every saved piece (the device's memory was "
            "lost, or nothing tracked what was written)";
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
      saved->saved_stats_.plan =
          "incremental: nothing written and no allocation made or freed "
          "since the last capture";
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
    // Held by the period and here only: the image it was saved in is gone,
    // and its buffers may take this capture's rewritten pieces.
    const bool rewrite_base = base != nullptr && base.use_count() == 2;
    // Should the capture fail, the base stays this period's: only pieces
    // written since were rewritten, and the next Backup copies those again
    // whatever the base holds there.
    ASCEND_RETURN_IF_ERROR(saved->Capture(
        *device, device->Allocations(), base.get(), &written, nullptr,
        base != nullptr ? &reserve : nullptr, rewrite_base));
    base.reset();
    reserve.reset();  // not needed after all: released
    if (saved->saved_stats_.plan.empty()) {
      saved->saved_stats_.plan =
          incremental ? "full: no earlier capture of this device to compare "
                        "with (the first Backup since it opened, or its "
                        "write tracking stopped)"
                      : "full: incremental snapshots are off "
                        "(ASCENDCL_SNAPSHOT_INCREMENTAL=0)";
    }
    // A new period starts from this capture (a failed capture above kept
    // the old one, whose writes are still all counted).
    if (!incremental) return std::unique_ptr<rt::SavedState>(std::move(saved));
    saved->period_ =
        tracking_->Start(device_id, device, saved->LayoutOf(nullptr), version);
    if (saved->period_ != 0) {
      saved->saved_stats_.write_tracking = device->WriteTracking();
      if (saved->saved_stats_.incremental) {
        // What it needed of new memory (pieces rewritten in place took
        // none).
        tracking_->SetLastCopied(device_id, saved->saved_stats_.copied -
                                                saved->saved_stats_.in_place);
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

std::unique_ptr<rt::SnapshotParticipant> MakeMemoryParticipant(
    rt::Runtime& runtime, const MemoryOptions& options) {
  return std::make_unique<MemoryParticipant>(runtime, options);
}

}  // namespace ascend::snapshot
