// The one table of the runtime objects an application holds handles to
// (contexts, streams, events, notifies, and every later kind), keyed by the
// opaque handle (runtime/base/handle.h). Each entry records the object's
// kind, its device, the id it holds in that device's id space (if its kind
// has one) and its parent (a stream's context), so the operations every kind
// needs are written once: insert, resolve by kind, erase, erase everything
// of a device or of a parent, and iterate a device's objects of one kind.
//
//   HandleTable table;
//   table.Insert(stream->handle(), {ObjectKind::kStream, dev, stream->id(),
//                                   ctx->handle()}, stream);
//   std::shared_ptr<Stream> s = table.Find<Stream>(handle);   // null: stale
//   for (HandleTable::Entry& e : table.EraseDevice(dev)) ...  // close hooks
//
// Object classes name their kind with `static constexpr ObjectKind kKind`.
// Not synchronised: the runtime guards its table with its own mutex.
#ifndef ASCENDCL_RUNTIME_HANDLE_TABLE_H_
#define ASCENDCL_RUNTIME_HANDLE_TABLE_H_

#include <algorithm>
#include <cstdint>
#include <memory>
#include <optional>
#include <type_traits>
#include <utility>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "runtime/object_kind.h"

namespace ascend::rt {

class HandleTable {
 public:
  // What the table knows of an object besides the object itself.
  struct Key {
    ObjectKind kind = ObjectKind::kCount;
    int32_t device_id = -1;
    // The id the object holds in its kind's device id space, if any.
    std::optional<uint32_t> id;
    // The handle of the object this one belongs to and goes with (a stream's
    // context), or null.
    const void* parent = nullptr;
  };
  // Calls the object's OnDeviceClose(); set for the kinds that have one.
  using CloseHook = void (*)(void* object);
  struct Entry {
    const void* handle = nullptr;
    Key key;
    std::shared_ptr<void> object;
    CloseHook on_device_close = nullptr;

    template <typename T>
    std::shared_ptr<T> As() const {
      return key.kind == T::kKind ? std::static_pointer_cast<T>(object)
                                  : nullptr;
    }
  };

  // Handles never repeat, so an insert never replaces a live entry. When T
  // has `void OnDeviceClose()`, the entry remembers to call it: the kinds of
  // the families (which the core does not name) say that way what a close
  // of their device does to their objects.
  template <typename T>
  void Insert(const void* handle, Key key, std::shared_ptr<T> object) {
    key.kind = T::kKind;
    CloseHook hook = nullptr;
    if constexpr (HasOnDeviceClose<T>::value) {
      hook = [](void* p) { static_cast<T*>(p)->OnDeviceClose(); };
    }
    entries_[handle] = Slot{key, std::move(object), hook};
  }

  // The live object of kind T behind `handle`; null when the handle is
  // unknown, stale or of another kind.
  template <typename T>
  std::shared_ptr<T> Find(const void* handle) const {
    auto it = entries_.find(handle);
    if (it == entries_.end() || it->second.key.kind != T::kKind) return nullptr;
    return std::static_pointer_cast<T>(it->second.object);
  }
  // The entry behind `handle`, whatever its kind.
  std::optional<Entry> FindEntry(const void* handle) const;

  // Removes `handle`; the removed entry, or nullopt when it was not there.
  std::optional<Entry> Erase(const void* handle);
  // Removes every object of `device_id`, returned in ascending kind order
  // (contexts before streams before events ...) so close hooks run in a
  // fixed order.
  std::vector<Entry> EraseDevice(int32_t device_id);
  // Removes every object whose parent is `parent`.
  std::vector<Entry> EraseChildren(const void* parent);

  // Calls fn(handle, const std::shared_ptr<T>&, const Key&) for each live
  // object of kind T on `device_id` (any device when -1). Order unspecified.
  template <typename T, typename Fn>
  void ForEach(int32_t device_id, Fn&& fn) const {
    for (const auto& [handle, slot] : entries_) {
      if (slot.key.kind != T::kKind) continue;
      if (device_id >= 0 && slot.key.device_id != device_id) continue;
      fn(handle, std::static_pointer_cast<T>(slot.object), slot.key);
    }
  }
  // The live objects of kind T on `device_id`, ordered by their id.
  template <typename T>
  std::vector<std::shared_ptr<T>> Objects(int32_t device_id) const {
    std::vector<std::pair<uint32_t, std::shared_ptr<T>>> found;
    ForEach<T>(device_id, [&](const void*, const std::shared_ptr<T>& object,
                              const Key& key) {
      found.emplace_back(key.id.value_or(0), object);
    });
    std::sort(found.begin(), found.end(),
              [](const auto& a, const auto& b) { return a.first < b.first; });
    std::vector<std::shared_ptr<T>> objects;
    objects.reserve(found.size());
    for (auto& [id, object] : found) objects.push_back(std::move(object));
    return objects;
  }
  // How many live objects of `kind` `device_id` has (any device when -1).
  size_t Count(ObjectKind kind, int32_t device_id) const;
  size_t size() const { return entries_.size(); }

 private:
  struct Slot {
    Key key;
    std::shared_ptr<void> object;
    CloseHook on_device_close = nullptr;
  };
  template <typename T, typename = void>
  struct HasOnDeviceClose : std::false_type {};
  template <typename T>
  struct HasOnDeviceClose<
      T, std::void_t<decltype(std::declval<T&>().OnDeviceClose())>>
      : std::true_type {};
  template <typename Pred>
  std::vector<Entry> EraseIf(Pred&& pred);

  absl::flat_hash_map<const void*, Slot> entries_;
};

}  // namespace ascend::rt

#endif  // ASCENDCL_RUNTIME_HANDLE_TABLE_H_
