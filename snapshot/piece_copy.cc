#include "snapshot/piece_copy.h"

#include <algorithm>
#include <string>

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

// Copies one piece from host memory at `from` to the device. One
// verification covers both the image and the transfer: what landed on the
// device must hash to what Backup saw there. (The device was re-opened, so
// copying a damaged piece before noticing loses nothing.) Only on a
// mismatch is the host copy hashed as well, to say which of the two was
// damaged.
absl::Status PlacePiece(device::Device& device, int32_t device_id,
                        const Piece& piece, const uint8_t* from) {
  ASCEND_ASSIGN_OR_RETURN(
      const uint64_t on_device,
      device.CopyToDeviceWithChecksum(piece.addr, from, piece.size));
  if (on_device == piece.checksum) return absl::OkStatus();
  if (device::Checksum(from, piece.size) != piece.checksum) {
    return absl::DataLossError(absl::StrFormat(
        "backup image of device %d range [0x%x, +%u) is corrupted", device_id,
        piece.addr, piece.size));
  }
  return absl::DataLossError(absl::StrFormat(
      "restore copy to device %d range [0x%x, +%u) was corrupted", device_id,
      piece.addr, piece.size));
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
  if (host != nullptr) {
    return ParallelFor(
        work.workers, work.items->size(), [&](size_t item) -> absl::Status {
          for (size_t k = (*work.items)[item]; k < ItemEnd(work, item); ++k) {
            Piece& piece = pieces[copy[k]];
            absl::StatusOr<uint64_t> sum =
                FetchPiece(device, work.device_id, piece, host + piece.offset);
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

absl::Status CopyPiecesToDevice(
    const PieceWork& work, device::Device& device,
    const std::vector<std::shared_ptr<Extent>>& from,
    const std::vector<std::unique_ptr<ImageFile::Reader>>& readers,
    StagingPool* pool) {
  const std::vector<Piece>& pieces = *work.pieces;
  const std::vector<size_t>& copy = *work.copy;
  // Files are read ahead of the copies: each item asks for the one
  // kReadAhead items further on, so the disk works while the copies do.
  constexpr size_t kReadAhead = 16;
  auto prefetch = [&](size_t item) {
    if (item >= work.items->size()) return;
    const Piece& first = pieces[copy[(*work.items)[item]]];
    const Piece& last = pieces[copy[ItemEnd(work, item) - 1]];
    if (first.buffer != last.buffer || first.buffer >= readers.size() ||
        readers[first.buffer] == nullptr || last.offset < first.offset) {
      return;
    }
    readers[first.buffer]->Prefetch(first.offset,
                                    last.offset + last.size - first.offset);
  };
  for (size_t item = 0; item < kReadAhead; ++item) prefetch(item);
  return ParallelFor(
      work.workers, work.items->size(), [&](size_t item) -> absl::Status {
        prefetch(item + kReadAhead);
        std::optional<StagingPool::Slot> slot;
        // The slot holds buffer `held` bytes [held_from, held_to).
        uint32_t held = 0;
        uint64_t held_from = 0;
        uint64_t held_to = 0;
        for (size_t k = (*work.items)[item]; k < ItemEnd(work, item); ++k) {
          const Piece& piece = pieces[copy[k]];
          const Extent* extent =
              piece.buffer < from.size() ? from[piece.buffer].get() : nullptr;
          if (extent == nullptr) {
            return absl::InternalError("a saved piece without its buffer");
          }
          if (extent->data() != nullptr) {
            ASCEND_RETURN_IF_ERROR(PlacePiece(device, work.device_id, piece,
                                              extent->data() + piece.offset));
            continue;
          }
          const ImageFile::Reader* reader = piece.buffer < readers.size()
                                                ? readers[piece.buffer].get()
                                                : nullptr;
          if (reader == nullptr || pool == nullptr) {
            return absl::InternalError("an image file restored unopened");
          }
          if (!slot.has_value()) {
            ASCEND_ASSIGN_OR_RETURN(StagingPool::Slot s, pool->Acquire());
            slot.emplace(std::move(s));
            held_to = held_from;  // empty
          }
          if (held != piece.buffer || piece.offset < held_from ||
              piece.offset + piece.size > held_to) {
            // Read this piece and the ones after it that lie next to it in
            // the same file, as far as the slot holds.
            uint64_t end = piece.offset + piece.size;
            for (size_t n = k + 1; n < ItemEnd(work, item); ++n) {
              const Piece& next = pieces[copy[n]];
              if (next.buffer != piece.buffer || next.offset != end ||
                  next.offset + next.size - piece.offset > pool->slot_bytes()) {
                break;
              }
              end = next.offset + next.size;
            }
            if (end - piece.offset > pool->slot_bytes()) {
              return absl::InternalError("a piece exceeds a staging slot");
            }
            ASCEND_RETURN_IF_ERROR(
                reader->Read(piece.offset, slot->data(), end - piece.offset));
            held = piece.buffer;
            held_from = piece.offset;
            held_to = end;
          }
          ASCEND_RETURN_IF_ERROR(
              PlacePiece(device, work.device_id, piece,
                         slot->data() + (piece.offset - held_from)));
        }
        return absl::OkStatus();
      });
}

}  // namespace ascend::snapshot::internal
