#include "runtime/handle_table.h"

#include <algorithm>
#include <utility>

namespace ascend::rt {

std::optional<HandleTable::Entry> HandleTable::FindEntry(
    const void* handle) const {
  auto it = entries_.find(handle);
  if (it == entries_.end()) return std::nullopt;
  return Entry{handle, it->second.key, it->second.object,
               it->second.on_device_close};
}

std::optional<HandleTable::Entry> HandleTable::Erase(const void* handle) {
  auto it = entries_.find(handle);
  if (it == entries_.end()) return std::nullopt;
  Entry entry{handle, it->second.key, std::move(it->second.object),
              it->second.on_device_close};
  entries_.erase(it);
  return entry;
}

template <typename Pred>
std::vector<HandleTable::Entry> HandleTable::EraseIf(Pred&& pred) {
  std::vector<Entry> erased;
  for (auto it = entries_.begin(); it != entries_.end();) {
    if (pred(it->second.key)) {
      erased.push_back(Entry{it->first, it->second.key,
                             std::move(it->second.object),
                             it->second.on_device_close});
      entries_.erase(it++);
    } else {
      ++it;
    }
  }
  std::stable_sort(
      erased.begin(), erased.end(), [](const Entry& a, const Entry& b) {
        return static_cast<int>(a.key.kind) < static_cast<int>(b.key.kind);
      });
  return erased;
}

std::vector<HandleTable::Entry> HandleTable::EraseDevice(int32_t device_id) {
  return EraseIf(
      [device_id](const Key& key) { return key.device_id == device_id; });
}

std::vector<HandleTable::Entry> HandleTable::EraseChildren(const void* parent) {
  return EraseIf([parent](const Key& key) {
    return parent != nullptr && key.parent == parent;
  });
}

size_t HandleTable::Count(ObjectKind kind, int32_t device_id) const {
  return static_cast<size_t>(
      std::count_if(entries_.begin(), entries_.end(), [&](const auto& item) {
        return item.second.key.kind == kind &&
               (device_id < 0 || item.second.key.device_id == device_id);
      }));
}

}  // namespace ascend::rt
