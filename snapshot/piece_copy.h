// The memory participant's copies of saved pieces between a device and
// where an image keeps them (DESIGN.md §4.10, §4.14, §4.15): host memory,
// copied straight into; or image files, through a bounded pool of host
// staging slots. Work items run on worker threads; every piece is verified
// as it moves.
#ifndef ASCENDCL_SNAPSHOT_PIECE_COPY_H_
#define ASCENDCL_SNAPSHOT_PIECE_COPY_H_

#include <cstddef>
#include <cstdint>
#include <memory>
#include <vector>

#include "absl/status/status.h"
#include "device/device.h"
#include "snapshot/host_copy.h"
#include "snapshot/image_file.h"
#include "snapshot/memory_participant.h"

namespace ascend::snapshot::internal {

// Which pieces move: `copy` lists indices into `pieces`; work item i is
// copy[items[i], items[i + 1]).
struct PieceWork {
  int32_t device_id = 0;
  std::vector<SavedMemory::Piece>* pieces = nullptr;
  const std::vector<size_t>* copy = nullptr;
  const std::vector<size_t>* items = nullptr;
  int workers = 0;
  // Backup: the host buffers by Piece::buffer, for pieces rewritten in
  // place in a buffer of the previous capture (buffer != 0); null when
  // every piece goes to `to`.
  const std::vector<std::shared_ptr<Extent>>* buffers = nullptr;
};

// Groups the pieces `list` names into work items of about `item_bytes`:
// returns the first position in `list` of each item.
std::vector<size_t> GroupIntoItems(
    const std::vector<SavedMemory::Piece>& pieces,
    const std::vector<size_t>& list, uint64_t item_bytes);

// Backup: copies the planned pieces from `device` into `to` at their
// offsets (a piece of another buffer, into work.buffers) and records their
// checksums. `pool`: staging slots when `to` is
// a file (the file is not committed here). With `kept` (a pre-copy,
// running while the application does), a piece whose copy fails marks its
// allocation false there instead of failing the copy.
absl::Status CopyPiecesFromDevice(const PieceWork& work, device::Device& device,
                                  Extent& to, StagingPool* pool,
                                  std::vector<bool>* kept);

// Restore reads and copies the planned pieces in runs: pieces of one image
// file lying back to back, read into one staging slot with one read (at
// most `read_bytes`); or pieces in host memory, about `item_bytes` each.
// A run covers work.copy positions [first, last) and, for a file, bytes
// [begin, end) of its data area.
struct RestoreRun {
  size_t first = 0;
  size_t last = 0;
  uint32_t buffer = 0;
  bool in_file = false;
  uint64_t begin = 0;
  uint64_t end = 0;
};
std::vector<RestoreRun> RestoreRuns(
    const std::vector<SavedMemory::Piece>& pieces,
    const std::vector<size_t>& copy,
    const std::vector<std::shared_ptr<Extent>>& from, uint64_t item_bytes,
    uint64_t read_bytes);

// Restore, before any device is touched: reads every planned piece from
// where the image keeps it (`from`, indexed by each piece's buffer;
// `readers`: the open, checked image files, null for host buffers) and
// checks it against its checksum. kDataLoss naming the device range (and
// the file) of the first damaged piece found.
absl::Status VerifyPieces(
    const PieceWork& work, const std::vector<RestoreRun>& runs,
    const std::vector<std::shared_ptr<Extent>>& from,
    const std::vector<std::unique_ptr<ImageFile::Reader>>& readers,
    StagingPool* pool);

// Restore: copies the planned pieces back, verifying what landed on the
// device against the piece's checksum. A transfer that fails or lands
// damaged is copied again (a few times) from the verified source; a source
// that no longer matches its checksum fails with kDataLoss.
absl::Status CopyPiecesToDevice(
    const PieceWork& work, const std::vector<RestoreRun>& runs,
    device::Device& device, const std::vector<std::shared_ptr<Extent>>& from,
    const std::vector<std::unique_ptr<ImageFile::Reader>>& readers,
    StagingPool* pool);

}  // namespace ascend::snapshot::internal

#endif  // ASCENDCL_SNAPSHOT_PIECE_COPY_H_
