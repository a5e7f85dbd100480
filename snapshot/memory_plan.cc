#include "snapshot/memory_plan.h"

#include <algorithm>
#include <cstdint>
#include <vector>

#include "absl/strings/str_cat.h"
#include "snapshot/device_ranges.h"

namespace ascend::snapshot {
namespace internal {

absl::StatusOr<std::shared_ptr<device::Device>> OpenDevice(rt::Runtime& runtime,
                                                           int32_t device_id) {
  std::shared_ptr<device::Device> device = runtime.DeviceObject(device_id);
  if (!device) {
    return absl::FailedPreconditionError(
        absl::StrCat("device ", device_id, " is not open"));
  }
  return device;
}

std::vector<device::Allocation> DataSince(
    const device::Device& device, const std::vector<device::Allocation>& live,
    const Layout* base, const std::vector<device::Allocation>* written) {
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

}  // namespace internal

using internal::End;
using internal::ForEachOverlap;
using internal::OverlapsAny;

uint64_t SavedMemory::Plan(const std::vector<device::Allocation>& live,
                           const std::vector<device::Allocation>& data,
                           const internal::Layout* base,
                           const std::vector<device::Allocation>* written,
                           const std::vector<bool>* in_place,
                           std::vector<size_t>* copy, uint64_t* rewritten) {
  layout_->allocations.clear();
  layout_->pieces.clear();
  copy->clear();
  *rewritten = 0;
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
            bool placed = false;
            if (prior != nullptr) {
              while (prior_piece < prior_end &&
                     base->pieces[prior_piece].addr < p) {
                ++prior_piece;
              }
              if (prior_piece < prior_end) {
                const Piece& old = base->pieces[prior_piece];
                if (old.addr == p && old.size == len) {
                  // Not written since: carried over. Written, in a buffer
                  // only the base holds: copied again where it was.
                  const bool unwritten =
                      !OverlapsAny(*written, &written_cursor, p, p + len);
                  const bool rewrite = !unwritten && in_place != nullptr &&
                                       (*in_place)[old.buffer];
                  if ((unwritten || rewrite) &&
                      base->buffers[old.buffer] != nullptr) {
                    if (mapped[old.buffer] < 0) {
                      mapped[old.buffer] =
                          static_cast<int64_t>(layout_->buffers.size());
                      layout_->buffers.push_back(base->buffers[old.buffer]);
                    }
                    piece.buffer = static_cast<uint32_t>(mapped[old.buffer]);
                    piece.offset = old.offset;
                    if (unwritten) {
                      piece.checksum = old.checksum;
                    } else {
                      copy->push_back(layout_->pieces.size());
                      *rewritten += len;
                    }
                    placed = true;
                  }
                }
              }
            }
            if (!placed) {
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

}  // namespace ascend::snapshot
