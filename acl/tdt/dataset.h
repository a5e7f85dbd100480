// Data items, datasets and the messages a channel carries (DESIGN.md §5.23).
//
// acltdtDataItem and acltdtDataset are the public header's opaque types,
// defined here. A message is what acltdtSendTensor puts in a channel: the
// items' descriptions and one host copy of all their bytes. A dataset filled
// by acltdtReceiveTensor keeps the message alive and its items point into it.
//
//   std::shared_ptr<const Message> message;
//   aclError ret = BuildMessage(api, *dataset, &message);  // the sender
//   ...
//   FillFromMessage(std::move(message), received);         // the receiver
#ifndef ASCENDCL_ACL_TDT_DATASET_H_
#define ASCENDCL_ACL_TDT_DATASET_H_

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "acl/acl_tdt.h"

namespace ascend::tdt {

// Most dimensions of an item's shape.
inline constexpr size_t kMaxDims = 128;

struct Message {
  struct Item {
    acltdtTensorType tensor_type = ACL_TENSOR_DATA_UNDEFINED;
    aclDataType data_type = ACL_DT_UNDEFINED;
    std::vector<int64_t> dims;
    size_t offset = 0;  // into bytes
    size_t size = 0;
  };
  std::vector<Item> items;
  std::unique_ptr<uint8_t[]> bytes;
  size_t total = 0;
};

}  // namespace ascend::tdt

struct acltdtDataItem {
  acltdtTensorType tensor_type = ACL_TENSOR_DATA_UNDEFINED;
  aclDataType data_type = ACL_DT_UNDEFINED;
  std::vector<int64_t> dims;
  void* data = nullptr;
  size_t size = 0;
  uint16_t slice_num = 0;
  uint16_t slice_id = 0;
  // Made by acltdtReceiveTensor: the dataset that received it frees it.
  bool received = false;
};

struct acltdtDataset {
  enum class Memory { kUnknown, kHost, kDevice };

  acltdtDataset() = default;
  acltdtDataset(const acltdtDataset&) = delete;
  acltdtDataset& operator=(const acltdtDataset&) = delete;
  ~acltdtDataset() { DropReceived(); }

  // Frees the items of the last receive and their bytes.
  void DropReceived();

  std::vector<acltdtDataItem*> items;
  std::string name;
  // Where the data of the caller's items lives (all on one side).
  Memory memory = Memory::kUnknown;
  // Filled by acltdtReceiveTensor: owns items and message.
  bool received = false;
  std::shared_ptr<const ascend::tdt::Message> message;
};

namespace ascend::tdt {

// A message holding a copy of the dataset's items. Errors (logged, naming
// api): 100000 for an empty dataset, an item type that cannot be sent
// (SLICE_TENSOR, END_TENSOR, UNDEFINED), a tensor with NULL data and a size;
// aclrtMemcpy's code when device data cannot be read.
aclError BuildMessage(const char* api, const acltdtDataset& dataset,
                      std::shared_ptr<const Message>* out);

// Replaces the received items of `dataset` (empty or received before) with
// the message's; the dataset keeps the message alive.
void FillFromMessage(std::shared_ptr<const Message> message,
                     acltdtDataset* dataset);

}  // namespace ascend::tdt

#endif  // ASCENDCL_ACL_TDT_DATASET_H_
