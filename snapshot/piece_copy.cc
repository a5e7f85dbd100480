#include "snapshot/piece_copy.h"

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <optional>
#include <string>
#include <utility>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "device/base/mutex.h"
#include "device/base/status_macros.h"
#include "device/checksum.h"
#include "glog/logging.h"

namespace ascend::snapshot::internal {

namespace {

using Piece = SavedMemory::Piece;

// Copies one piece from the device to `to` and checks it: the device's
// checksum of what it sent, then ours of what arrived (the piece is still
// in this core's cache). The checksum on success.
absl::StatusOr<uint64_t> FetchPiece(device::Device& device, int32_t device_id,
                                    const Piece& piece, uint8_t* to) {
  ASCEND_ASSIGN_OR_RETURN(
      const uint64_t on_device,
      device.CopyFromDeviceWithChecksum(to, piece.addr, piece.size));
  if (device::Checksum(to, piece.size) != on_device) {
    return absl::DataLossError(absl::StrFormat(
        "copy of device %d range [0x%x, +%u) was corrupted in transfer",
        device_id, piece.addr, piece.size));
  }
  return on_device;
}

// A copy that lands damaged, or that the device reports failed, is tried
// this many times in all before the Restore gives up.
constexpr int kCopyAttempts = 3;
// Pieces moved by one transfer at most (4 MiB of 64 KiB pieces).
constexpr size_t kBatchPieces = 64;

// Copies one piece from host memory at `from` to the device. The source was
// verified before any device was touched (VerifyPieces); what landed on the
// device must hash to what Backup saw there. A transfer that went wrong (the
// device says it failed, or what landed differs while the source still
// matches) is copied again: the image is good, so a transient fault of the
// transfer fails nothing. A source that no longer matches changed after it
// was verified, and fails the Restore.
absl::Status PlacePiece(device::Device& device, int32_t device_id,
                        const Piece& piece, const uint8_t* from) {
  absl::Status last;
  for (int attempt = 1; attempt <= kCopyAttempts; ++attempt) {
    absl::StatusOr<uint64_t> on_device =
        device.CopyToDeviceWithChecksum(piece.addr, from, piece.size);
    if (on_device.ok() && *on_device == piece.checksum) {
      if (attempt > 1) {
        LOG(WARNING) << "snapshot restore: device " << device_id
                     << ": the copy of range [0x" << std::hex << piece.addr
                     << std::dec << ", +" << piece.size
                     << ") succeeded at attempt " << attempt << " ("
                     << last.message() << ")";
      }
      return absl::OkStatus();
    }
    if (!on_device.ok()) {
      // Only a failed transfer is tried again; a range the device refuses
      // stays refused.
      if (on_device.status().code() != absl::StatusCode::kDataLoss) {
        return on_device.status();
      }
      last = on_device.status();
      continue;
    }
    if (device::Checksum(from, piece.size) != piece.checksum) {
      return absl::DataLossError(absl::StrFormat(
          "backup image of device %d range [0x%x, +%u) changed after it was "
          "verified",
          device_id, piece.addr, piece.size));
    }
    last = absl::DataLossError(absl::StrFormat(
        "restore copy to device %d range [0x%x, +%u) was corrupted", device_id,
        piece.addr, piece.size));
  }
  return absl::DataLossError(
      absl::StrCat(last.message(), " (", kCopyAttempts, " attempts)"));
}

size_t ItemEnd(const PieceWork& work, size_t item) {
  return item + 1 < work.items->size() ? (*work.items)[item + 1]
                                       : work.copy->size();
}

}  // namespace

std::vector<size_t> GroupIntoItems(const std::vector<Piece>& pieces,
                                   const std::vector<size_t>& list,
                                   uint64_t item_bytes) {
  std::vector<size_t> items;
  uint64_t in_item = 0;
  for (size_t i = 0; i < list.size(); ++i) {
    if (items.empty() || in_item >= item_bytes) {
      items.push_back(i);
      in_item = 0;
    }
    in_item += pieces[list[i]].size;
  }
  return items;
}

absl::Status CopyPiecesFromDevice(const PieceWork& work, device::Device& device,
                                  Extent& to, StagingPool* pool,
                                  std::vector<bool>* kept) {
  std::vector<Piece>& pieces = *work.pieces;
  const std::vector<size_t>& copy = *work.copy;
  ascend::Mutex kept_mu;
  // A failed piece: fails the copy, or (a pre-copy) leaves its allocation
  // to the next Backup.
  auto failed = [&](const Piece& piece, absl::Status status) {
    if (kept == nullptr) return status;
    VLOG(1) << "snapshot pre-copy: " << status.message();
    ascend::MutexLock lock(&kept_mu);
    (*kept)[piece.allocation] = false;
    return absl::OkStatus();
  };
  uint8_t* const host = to.data();
  // Where a piece goes in host memory: `to`, or the buffer of the previous
  // capture it is rewritten in.
  auto host_of = [&](const Piece& piece) -> uint8_t* {
    if (piece.buffer == 0 || work.buffers == nullptr) return host;
    const std::shared_ptr<Extent>& buffer = (*work.buffers)[piece.buffer];
    return buffer != nullptr && buffer->file() == nullptr ? buffer->data()
                                                          : nullptr;
  };
  if (host != nullptr || to.file() == nullptr) {
    return ParallelFor(
        work.workers, work.items->size(), [&](size_t item) -> absl::Status {
          for (size_t k = (*work.items)[item]; k < ItemEnd(work, item); ++k) {
            Piece& piece = pieces[copy[k]];
            uint8_t* const into = host_of(piece);
            if (into == nullptr) {
              return absl::InternalError(
                  "a capture without a place to copy to");
            }
            absl::StatusOr<uint64_t> sum =
                FetchPiece(device, work.device_id, piece, into + piece.offset);
            if (sum.ok()) {
              piece.checksum = *sum;
            } else {
              ASCEND_RETURN_IF_ERROR(failed(piece, sum.status()));
            }
          }
          return absl::OkStatus();
        });
  }
  ImageFile* file = to.file();
  if (file == nullptr || pool == nullptr) {
    return absl::InternalError("a capture without a place to copy to");
  }
  // Pieces to copy lie back to back in the file in `copy` order: fill a
  // staging slot, write it at the first piece's offset, go on.
  return ParallelFor(
      work.workers, work.items->size(), [&](size_t item) -> absl::Status {
        ASCEND_ASSIGN_OR_RETURN(StagingPool::Slot slot, pool->Acquire());
        uint64_t run_offset = 0;
        uint64_t filled = 0;
        auto flush = [&]() -> absl::Status {
          if (filled == 0) return absl::OkStatus();
          absl::Status written = file->Write(run_offset, slot.data(), filled);
          filled = 0;
          return written;
        };
        for (size_t k = (*work.items)[item]; k < ItemEnd(work, item); ++k) {
          Piece& piece = pieces[copy[k]];
          if (piece.buffer != 0) {
            return absl::InternalError(
                "an image file is written only with new pieces");
          }
          if (piece.size > pool->slot_bytes()) {
            return absl::InternalError(absl::StrCat(
                "a piece of ", piece.size, " bytes exceeds a staging slot"));
          }
          if (filled + piece.size > pool->slot_bytes() ||
              (filled > 0 && run_offset + filled != piece.offset)) {
            ASCEND_RETURN_IF_ERROR(flush());
          }
          if (filled == 0) run_offset = piece.offset;
          absl::StatusOr<uint64_t> sum =
              FetchPiece(device, work.device_id, piece, slot.data() + filled);
          if (sum.ok()) {
            piece.checksum = *sum;
          } else {
            ASCEND_RETURN_IF_ERROR(failed(piece, sum.status()));
          }
          filled += piece.size;
        }
        return flush();
      });
}

std::vector<RestoreRun> RestoreRuns(
    const std::vector<Piece>& pieces, const std::vector<size_t>& copy,
    const std::vector<std::shared_ptr<Extent>>& from, uint64_t item_bytes,
    uint64_t read_bytes) {
  std::vector<RestoreRun> runs;
  for (size_t k = 0; k < copy.size(); ++k) {
    const Piece& piece = pieces[copy[k]];
    const Extent* extent =
        piece.buffer < from.size() ? from[piece.buffer].get() : nullptr;
    const bool in_file = extent != nullptr && extent->data() == nullptr;
    if (!runs.empty()) {
      RestoreRun& run = runs.back();
      const bool joins =
          run.buffer == piece.buffer &&
          (in_file ? run.end == piece.offset &&
                         piece.offset + piece.size - run.begin <= read_bytes
                   : run.end - run.begin < item_bytes);
      if (joins) {
        run.last = k + 1;
        run.end = in_file ? piece.offset + piece.size : run.end + piece.size;
        continue;
      }
    }
    RestoreRun run;
    run.first = k;
    run.last = k + 1;
    run.buffer = piece.buffer;
    run.in_file = in_file;
    run.begin = in_file ? piece.offset : 0;
    run.end = in_file ? piece.offset + piece.size : piece.size;
    runs.push_back(run);
  }
  return runs;
}

namespace {

// The extent and, for a file, the open reader of `run`'s buffer.
absl::Status RunSource(
    const RestoreRun& run, const std::vector<std::shared_ptr<Extent>>& from,
    const std::vector<std::unique_ptr<ImageFile::Reader>>& readers,
    StagingPool* pool, Extent** extent, const ImageFile::Reader** reader) {
  *extent = run.buffer < from.size() ? from[run.buffer].get() : nullptr;
  if (*extent == nullptr) {
    return absl::InternalError("a saved piece without its buffer");
  }
  if (!run.in_file) return absl::OkStatus();
  *reader = run.buffer < readers.size() ? readers[run.buffer].get() : nullptr;
  if (*reader == nullptr || pool == nullptr) {
    return absl::InternalError("an image file restored unopened");
  }
  if (run.end - run.begin > pool->slot_bytes()) {
    return absl::InternalError("a read exceeds a staging slot");
  }
  return absl::OkStatus();
}

}  // namespace

absl::Status VerifyPieces(
    const PieceWork& work, const std::vector<RestoreRun>& runs,
    const std::vector<std::shared_ptr<Extent>>& from,
    const std::vector<std::unique_ptr<ImageFile::Reader>>& readers,
    StagingPool* pool) {
  const std::vector<Piece>& pieces = *work.pieces;
  const std::vector<size_t>& copy = *work.copy;
  return ParallelFor(work.workers, runs.size(), [&](size_t r) -> absl::Status {
    const RestoreRun& run = runs[r];
    Extent* extent = nullptr;
    const ImageFile::Reader* reader = nullptr;
    ASCEND_RETURN_IF_ERROR(
        RunSource(run, from, readers, pool, &extent, &reader));
    std::optional<StagingPool::Slot> slot;
    if (run.in_file) {
      ASCEND_ASSIGN_OR_RETURN(StagingPool::Slot s, pool->Acquire());
      slot.emplace(std::move(s));
      ASCEND_RETURN_IF_ERROR(
          reader->Read(run.begin, slot->data(), run.end - run.begin));
    }
    for (size_t k = run.first; k < run.last; ++k) {
      const Piece& piece = pieces[copy[k]];
      const uint8_t* bytes = run.in_file
                                 ? slot->data() + (piece.offset - run.begin)
                                 : extent->data() + piece.offset;
      if (device::Checksum(bytes, piece.size) != piece.checksum) {
        return absl::DataLossError(absl::StrFormat(
            "backup image of device %d range [0x%x, +%u) is corrupted%s",
            work.device_id, piece.addr, piece.size,
            run.in_file
                ? absl::StrCat(" (image file ", extent->file()->path(), ")")
                : std::string()));
      }
    }
    return absl::OkStatus();
  });
}

namespace {

// Pieces of many small allocations lying close together: the device maps
// the span they cover for writing in one step, instead of each transfer
// faulting in its few pages (or asking whether they are mapped).
void PrepareRun(device::Device& device, const std::vector<Piece>& pieces,
                const std::vector<size_t>& copy, const RestoreRun& run) {
  if (run.last - run.first < 2) return;
  uint64_t lo = UINT64_MAX;
  uint64_t hi = 0;
  uint64_t bytes = 0;
  bool several = false;
  for (size_t k = run.first; k < run.last; ++k) {
    const Piece& piece = pieces[copy[k]];
    lo = std::min(lo, piece.addr);
    hi = std::max(hi, piece.addr + piece.size);
    bytes += piece.size;
    several |= piece.allocation != pieces[copy[run.first]].allocation;
  }
  // Only where the pieces fill most of the span: the gaps get pages too.
  if (several && hi > lo && bytes >= (hi - lo) / 4 * 3) {
    device.PrepareForWrite(lo, hi - lo);
  }
}

}  // namespace

absl::Status CopyPiecesToDevice(
    const PieceWork& work, const std::vector<RestoreRun>& runs,
    device::Device& device, const std::vector<std::shared_ptr<Extent>>& from,
    const std::vector<std::unique_ptr<ImageFile::Reader>>& readers,
    StagingPool* pool) {
  const std::vector<Piece>& pieces = *work.pieces;
  const std::vector<size_t>& copy = *work.copy;
  return ParallelFor(work.workers, runs.size(), [&](size_t r) -> absl::Status {
    const RestoreRun& run = runs[r];
    Extent* extent = nullptr;
    const ImageFile::Reader* reader = nullptr;
    ASCEND_RETURN_IF_ERROR(
        RunSource(run, from, readers, pool, &extent, &reader));
    std::optional<StagingPool::Slot> slot;
    if (run.in_file) {
      ASCEND_ASSIGN_OR_RETURN(StagingPool::Slot s, pool->Acquire());
      slot.emplace(std::move(s));
      ASCEND_RETURN_IF_ERROR(
          reader->Read(run.begin, slot->data(), run.end - run.begin));
    }
    auto source = [&](const Piece& piece) -> const uint8_t* {
      return run.in_file ? slot->data() + (piece.offset - run.begin)
                         : extent->data() + piece.offset;
    };
    PrepareRun(device, pieces, copy, run);
    for (size_t k = run.first; k < run.last;) {
      // Pieces of one allocation lying back to back on the device and in
      // the source, all but the last of the first one's size, move as one
      // transfer.
      const Piece& first = pieces[copy[k]];
      size_t end = k + 1;
      uint64_t bytes = first.size;
      while (end < run.last && end - k < kBatchPieces &&
             pieces[copy[end - 1]].size == first.size) {
        const Piece& next = pieces[copy[end]];
        const Piece& last = pieces[copy[end - 1]];
        // The device cuts the transfer into pieces of first.size: a larger
        // piece after a short first one would be cut into more pieces than
        // there are checksums for.
        if (next.allocation != first.allocation || next.size > first.size ||
            next.addr != last.addr + last.size || next.buffer != first.buffer ||
            next.offset != last.offset + last.size) {
          break;
        }
        bytes += next.size;
        ++end;
      }
      uint64_t sums[kBatchPieces];
      const absl::Status moved = device.CopyToDeviceWithChecksums(
          first.addr, source(first), bytes, first.size, sums);
      if (!moved.ok() && moved.code() != absl::StatusCode::kDataLoss) {
        return moved;
      }
      for (size_t n = k; n < end; ++n) {
        const Piece& piece = pieces[copy[n]];
        // What did not land as saved goes again, piece by piece.
        if (!moved.ok() || sums[n - k] != piece.checksum) {
          LOG(WARNING) << "snapshot restore: device " << work.device_id
                       << ": range [0x" << std::hex << piece.addr << std::dec
                       << ", +" << piece.size << ") "
                       << (moved.ok() ? "landed damaged"
                                      : std::string(moved.message()))
                       << "; copying it again";
          ASCEND_RETURN_IF_ERROR(
              PlacePiece(device, work.device_id, piece, source(piece)));
        }
      }
      k = end;
    }
    return absl::OkStatus();
  });
}

}  // namespace ascend::snapshot::internal
