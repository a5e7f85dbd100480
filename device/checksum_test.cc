#include "device/checksum.h"

#include <cstdint>
#include <vector>

#include "gtest/gtest.h"

namespace ascend::device {
namespace {

TEST(ChecksumTest, EqualContentEqualChecksum) {
  std::vector<uint8_t> a(1000), b(1000);
  for (size_t i = 0; i < a.size(); ++i) a[i] = b[i] = static_cast<uint8_t>(i);
  EXPECT_EQ(Checksum(a.data(), a.size()), Checksum(b.data(), b.size()));
}

TEST(ChecksumTest, EveryByteFlipChangesChecksum) {
  // Sizes covering the 32-byte blocks, the 8-byte words and the byte tail.
  for (size_t size : {1u, 7u, 8u, 31u, 32u, 33u, 100u, 4096u}) {
    std::vector<uint8_t> data(size, 0);
    const uint64_t base = Checksum(data.data(), size);
    for (size_t i = 0; i < size; ++i) {
      data[i] ^= 0x01;
      EXPECT_NE(Checksum(data.data(), size), base)
          << "size " << size << " byte " << i;
      data[i] ^= 0x01;
    }
  }
}

TEST(ChecksumTest, LengthMatters) {
  std::vector<uint8_t> zeros(64, 0);
  EXPECT_NE(Checksum(zeros.data(), 32), Checksum(zeros.data(), 64));
  EXPECT_NE(Checksum(zeros.data(), 0), Checksum(zeros.data(), 1));
}

TEST(ChecksumTest, SwappedWordsDiffer) {
  std::vector<uint64_t> words = {1, 2, 3, 4, 5, 6, 7, 8};
  const uint64_t before = Checksum(words.data(), words.size() * 8);
  std::swap(words[0], words[1]);
  EXPECT_NE(Checksum(words.data(), words.size() * 8), before);
}

}  // namespace
}  // namespace ascend::device
