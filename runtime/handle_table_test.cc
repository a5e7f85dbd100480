#include "runtime/handle_table.h"

#include <memory>
#include <vector>

#include "gtest/gtest.h"
#include "runtime/object_kind.h"

namespace ascend::rt {
namespace {

// Stand-ins for two object kinds.
struct FakeContext {
  static constexpr ObjectKind kKind = ObjectKind::kContext;
  int value = 0;
};
struct FakeStream {
  static constexpr ObjectKind kKind = ObjectKind::kStream;
  int value = 0;
};

// A kind whose objects say what a device close does to them.
struct FakeNotify {
  static constexpr ObjectKind kKind = ObjectKind::kNotify;
  void OnDeviceClose() { ++closes; }
  int closes = 0;
};

const void* H(uintptr_t n) { return reinterpret_cast<const void*>(n << 4); }

TEST(HandleTableTest, EntriesCarryTheObjectsCloseHook) {
  HandleTable table;
  auto notify = std::make_shared<FakeNotify>();
  auto stream = std::make_shared<FakeStream>();
  table.Insert(H(1), {ObjectKind::kCount, 0, 1u, nullptr}, notify);
  table.Insert(H(2), {ObjectKind::kCount, 0, 2u, nullptr}, stream);
  std::optional<HandleTable::Entry> found = table.FindEntry(H(1));
  ASSERT_TRUE(found.has_value());
  ASSERT_NE(found->on_device_close, nullptr);
  EXPECT_EQ(table.FindEntry(H(2))->on_device_close, nullptr);
  std::vector<HandleTable::Entry> erased = table.EraseDevice(0);
  ASSERT_EQ(erased.size(), 2u);
  for (const HandleTable::Entry& entry : erased) {
    if (entry.on_device_close) entry.on_device_close(entry.object.get());
  }
  EXPECT_EQ(notify->closes, 1);
}

TEST(HandleTableTest, FindResolvesByKindOnly) {
  HandleTable table;
  auto ctx = std::make_shared<FakeContext>();
  auto stream = std::make_shared<FakeStream>();
  table.Insert(H(1), {ObjectKind::kCount, 0, std::nullopt, nullptr}, ctx);
  table.Insert(H(2), {ObjectKind::kCount, 0, 7u, H(1)}, stream);
  EXPECT_EQ(table.Find<FakeContext>(H(1)), ctx);
  EXPECT_EQ(table.Find<FakeStream>(H(2)), stream);
  // A handle of another kind, or an unknown one, resolves to nothing.
  EXPECT_EQ(table.Find<FakeStream>(H(1)), nullptr);
  EXPECT_EQ(table.Find<FakeContext>(H(2)), nullptr);
  EXPECT_EQ(table.Find<FakeContext>(H(3)), nullptr);
  // Insert sets the kind from the type, whatever the key said.
  std::optional<HandleTable::Entry> entry = table.FindEntry(H(2));
  ASSERT_TRUE(entry.has_value());
  EXPECT_EQ(entry->key.kind, ObjectKind::kStream);
  EXPECT_EQ(entry->key.id, 7u);
  EXPECT_EQ(entry->key.parent, H(1));
  EXPECT_EQ(entry->As<FakeStream>(), stream);
  EXPECT_EQ(entry->As<FakeContext>(), nullptr);
}

TEST(HandleTableTest, EraseRemovesOnceAndReturnsTheEntry) {
  HandleTable table;
  auto stream = std::make_shared<FakeStream>();
  table.Insert(H(1), {ObjectKind::kStream, 2, 3u, nullptr}, stream);
  std::optional<HandleTable::Entry> erased = table.Erase(H(1));
  ASSERT_TRUE(erased.has_value());
  EXPECT_EQ(erased->handle, H(1));
  EXPECT_EQ(erased->key.device_id, 2);
  EXPECT_EQ(erased->As<FakeStream>(), stream);
  EXPECT_FALSE(table.Erase(H(1)).has_value());
  EXPECT_EQ(table.Find<FakeStream>(H(1)), nullptr);
  EXPECT_EQ(table.size(), 0u);
}

TEST(HandleTableTest, EraseDeviceTakesOnlyThatDeviceInKindOrder) {
  HandleTable table;
  // Inserted streams first, so the kind order of the result is not the
  // insertion order.
  for (uintptr_t i = 0; i < 4; ++i) {
    table.Insert(H(10 + i),
                 {ObjectKind::kStream, static_cast<int32_t>(i % 2),
                  static_cast<uint32_t>(i), nullptr},
                 std::make_shared<FakeStream>());
  }
  table.Insert(H(1), {ObjectKind::kContext, 0, std::nullopt, nullptr},
               std::make_shared<FakeContext>());
  table.Insert(H(2), {ObjectKind::kContext, 1, std::nullopt, nullptr},
               std::make_shared<FakeContext>());
  std::vector<HandleTable::Entry> erased = table.EraseDevice(0);
  ASSERT_EQ(erased.size(), 3u);
  EXPECT_EQ(erased[0].key.kind, ObjectKind::kContext);
  EXPECT_EQ(erased[1].key.kind, ObjectKind::kStream);
  EXPECT_EQ(erased[2].key.kind, ObjectKind::kStream);
  for (const auto& e : erased) EXPECT_EQ(e.key.device_id, 0);
  EXPECT_EQ(table.size(), 3u);
  EXPECT_EQ(table.Count(ObjectKind::kStream, 1), 2u);
  EXPECT_EQ(table.Count(ObjectKind::kStream, 0), 0u);
  EXPECT_EQ(table.Count(ObjectKind::kContext, -1), 1u);
}

TEST(HandleTableTest, EraseChildrenTakesTheObjectsOfAParent) {
  HandleTable table;
  table.Insert(H(1), {ObjectKind::kContext, 0, std::nullopt, nullptr},
               std::make_shared<FakeContext>());
  table.Insert(H(2), {ObjectKind::kStream, 0, 1u, H(1)},
               std::make_shared<FakeStream>());
  table.Insert(H(3), {ObjectKind::kStream, 0, 2u, H(9)},
               std::make_shared<FakeStream>());
  table.Insert(H(4), {ObjectKind::kStream, 0, 3u, nullptr},
               std::make_shared<FakeStream>());
  std::vector<HandleTable::Entry> children = table.EraseChildren(H(1));
  ASSERT_EQ(children.size(), 1u);
  EXPECT_EQ(children[0].handle, H(2));
  // A null parent names nobody.
  EXPECT_TRUE(table.EraseChildren(nullptr).empty());
  EXPECT_EQ(table.size(), 3u);
}

TEST(HandleTableTest, ObjectsAreOneKindOfOneDeviceInIdOrder) {
  HandleTable table;
  std::vector<std::shared_ptr<FakeStream>> streams;
  for (uint32_t id : {5u, 1u, 3u}) {
    auto s = std::make_shared<FakeStream>();
    s->value = static_cast<int>(id);
    streams.push_back(s);
    table.Insert(H(100 + id), {ObjectKind::kStream, 0, id, nullptr}, s);
  }
  table.Insert(H(200), {ObjectKind::kStream, 1, 0u, nullptr},
               std::make_shared<FakeStream>());
  table.Insert(H(300), {ObjectKind::kContext, 0, std::nullopt, nullptr},
               std::make_shared<FakeContext>());
  std::vector<std::shared_ptr<FakeStream>> found = table.Objects<FakeStream>(0);
  ASSERT_EQ(found.size(), 3u);
  EXPECT_EQ(found[0]->value, 1);
  EXPECT_EQ(found[1]->value, 3);
  EXPECT_EQ(found[2]->value, 5);
  EXPECT_EQ(table.Objects<FakeStream>(-1).size(), 4u);
  int visited = 0;
  table.ForEach<FakeContext>(
      0, [&](const void* handle, const std::shared_ptr<FakeContext>&,
             const HandleTable::Key& key) {
        EXPECT_EQ(handle, H(300));
        EXPECT_EQ(key.kind, ObjectKind::kContext);
        ++visited;
      });
  EXPECT_EQ(visited, 1);
}

}  // namespace
}  // namespace ascend::rt
