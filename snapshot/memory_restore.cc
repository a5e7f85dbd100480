#include "snapshot/memory_restore.h"

#include <algorithm>
#include <iterator>
#include <utility>

#include "snapshot/device_ranges.h"
#include "snapshot/piece_copy.h"

namespace ascend::snapshot::internal {

RestorePlan PlanRestore(const std::vector<SavedMemory::Allocation>& allocations,
                        const std::vector<SavedMemory::Piece>& pieces,
                        const std::vector<device::Allocation>& live,
                        const std::vector<device::Allocation>* written) {
  RestorePlan plan;
  if (written != nullptr) plan.written = *written;
  // The saved allocations still alive, as they were (an allocation freed
  // since and one made in its place at the same address are different).
  plan.keep.assign(allocations.size(), false);
  for (size_t i = 0, j = 0; i < allocations.size() && j < live.size();) {
    if (allocations[i].addr < live[j].addr) {
      ++i;
    } else if (live[j].addr < allocations[i].addr) {
      ++j;
    } else {
      plan.keep[i] = allocations[i].size == live[j].size;
      ++i;
      ++j;
    }
  }
  // Everything alive that is not about to be written back must read as
  // zero: what was zero at the backup, and allocations made since.
  size_t saved = 0;
  size_t gap_cursor = 0;
  for (const device::Allocation& a : live) {
    while (saved < allocations.size() && allocations[saved].addr < a.addr) {
      ++saved;
    }
    uint64_t from = a.addr;
    const bool kept = saved < allocations.size() &&
                      allocations[saved].addr == a.addr && plan.keep[saved];
    std::vector<device::Allocation> own;
    if (kept) {
      const SavedMemory::Allocation& s = allocations[saved];
      for (size_t p = s.first_piece; p < s.first_piece + s.piece_count; ++p) {
        if (pieces[p].addr > from) {
          own.push_back(device::Allocation{from, pieces[p].addr - from});
        }
        from = pieces[p].addr + pieces[p].size;
      }
    }
    if (End(a) > from) own.push_back(device::Allocation{from, End(a) - from});
    if (kept && written != nullptr) {
      // Gaps of a kept allocation still read as zero unless written.
      for (const device::Allocation& gap : own) {
        ForEachOverlap(*written, &gap_cursor, gap.addr, End(gap),
                       [&](uint64_t b, uint64_t e) {
                         plan.gaps.push_back(device::Allocation{b, e - b});
                       });
      }
    } else {
      plan.gaps.insert(plan.gaps.end(), own.begin(), own.end());
    }
  }
  size_t written_cursor = 0;
  for (size_t k = 0; k < pieces.size(); ++k) {
    const SavedMemory::Piece& piece = pieces[k];
    if (!plan.keep[piece.allocation]) continue;
    if (written != nullptr &&
        !OverlapsAny(*written, &written_cursor, piece.addr,
                     piece.addr + piece.size)) {
      plan.unchanged_bytes += piece.size;
      continue;
    }
    plan.copy.push_back(k);
    plan.copied_bytes += piece.size;
  }
  return plan;
}

std::vector<size_t> Missing(const std::vector<size_t>& wider,
                            const std::vector<size_t>& narrower) {
  std::vector<size_t> missing;
  std::set_difference(wider.begin(), wider.end(), narrower.begin(),
                      narrower.end(), std::back_inserter(missing));
  return missing;
}

namespace {

// The work over `copy` and its runs: reads of up to a staging slot from a
// file, items of about options.chunk_bytes from host memory.
std::vector<RestoreRun> Runs(const RestoreSource& source,
                             const std::vector<size_t>& copy, PieceWork* work) {
  work->device_id = source.device_id;
  work->pieces = const_cast<std::vector<SavedMemory::Piece>*>(source.pieces);
  work->copy = &copy;
  work->workers = source.options.workers;
  return RestoreRuns(
      *source.pieces, copy, *source.buffers,
      std::max<uint64_t>(source.options.chunk_bytes, 1),
      source.pool != nullptr ? source.pool->slot_bytes() : uint64_t{0});
}

}  // namespace

absl::Status VerifySources(const RestoreSource& source,
                           const std::vector<size_t>& copy) {
  PieceWork work;
  const std::vector<RestoreRun> runs = Runs(source, copy, &work);
  return VerifyPieces(work, runs, *source.buffers, *source.readers,
                      source.pool);
}

absl::Status CopyToDevice(const RestoreSource& source,
                          const std::vector<size_t>& copy,
                          device::Device& device) {
  PieceWork work;
  const std::vector<RestoreRun> runs = Runs(source, copy, &work);
  return CopyPiecesToDevice(work, runs, device, *source.buffers,
                            *source.readers, source.pool);
}

absl::Status ClearGaps(device::Device& device,
                       const std::vector<device::Allocation>& gaps) {
  if (gaps.empty()) return absl::OkStatus();
  // Only the parts that hold data now need the device's attention.
  const std::vector<device::Allocation> data = DataOver(device, gaps);
  size_t cursor = 0;
  for (const device::Allocation& gap : gaps) {
    absl::Status status;
    ForEachOverlap(data, &cursor, gap.addr, End(gap),
                   [&](uint64_t b, uint64_t e) {
                     if (status.ok()) status = device.Discard(b, e - b);
                   });
    if (!status.ok()) return status;
  }
  return absl::OkStatus();
}

}  // namespace ascend::snapshot::internal
