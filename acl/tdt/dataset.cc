#include "acl/tdt/dataset.h"

#include <utility>

#include "acl/tdt/tdt_util.h"

void acltdtDataset::DropReceived() {
  if (!received) return;
  for (acltdtDataItem* item : items) delete item;
  items.clear();
  message.reset();
  received = false;
}

namespace ascend::tdt {
namespace {

bool Sendable(acltdtTensorType type) {
  return type == ACL_TENSOR_DATA_TENSOR ||
         type == ACL_TENSOR_DATA_END_OF_SEQUENCE ||
         type == ACL_TENSOR_DATA_ABNORMAL;
}

}  // namespace

aclError BuildMessage(const char* api, const acltdtDataset& dataset,
                      std::shared_ptr<const Message>* out) {
  if (dataset.items.empty()) {
    return Reject(api, ACL_ERROR_INVALID_PARAM, "the dataset has no item");
  }
  auto message = std::make_shared<Message>();
  message->items.reserve(dataset.items.size());
  size_t total = 0;
  for (size_t i = 0; i < dataset.items.size(); ++i) {
    const acltdtDataItem& item = *dataset.items[i];
    if (!Sendable(item.tensor_type)) {
      return Reject(api, ACL_ERROR_INVALID_PARAM,
                    "item " + std::to_string(i) + " has tensor type " +
                        std::to_string(item.tensor_type) +
                        ", which only a device producer makes");
    }
    if (item.data == nullptr && item.size != 0) {
      return Reject(api, ACL_ERROR_INVALID_PARAM,
                    "item " + std::to_string(i) + " has no data but size " +
                        std::to_string(item.size));
    }
    if (total + item.size < total) {
      return Reject(api, ACL_ERROR_INVALID_PARAM,
                    "the items' sizes add up past the address space");
    }
    Message::Item record;
    record.tensor_type = item.tensor_type;
    record.data_type = item.data_type;
    record.dims = item.dims;
    record.offset = total;
    record.size = item.size;
    message->items.push_back(std::move(record));
    total += item.size;
  }
  if (total != 0) message->bytes.reset(new uint8_t[total]);
  message->total = total;
  const bool device = dataset.memory == acltdtDataset::Memory::kDevice;
  for (size_t i = 0; i < dataset.items.size(); ++i) {
    const acltdtDataItem& item = *dataset.items[i];
    const Message::Item& record = message->items[i];
    const aclError ret = CopyToHost(message->bytes.get() + record.offset,
                                    item.data, item.size, device);
    if (ret != ACL_SUCCESS) {
      return Reject(api, ret,
                    "the data of item " + std::to_string(i) +
                        " could not be read from the device");
    }
  }
  *out = std::move(message);
  return ACL_SUCCESS;
}

void FillFromMessage(std::shared_ptr<const Message> message,
                     acltdtDataset* dataset) {
  std::vector<std::unique_ptr<acltdtDataItem>> made;
  made.reserve(message->items.size());
  for (const Message::Item& record : message->items) {
    auto item = std::make_unique<acltdtDataItem>();
    item->tensor_type = record.tensor_type;
    item->data_type = record.data_type;
    item->dims = record.dims;
    item->data = record.size == 0 ? nullptr
                                  : const_cast<uint8_t*>(message->bytes.get()) +
                                        record.offset;
    item->size = record.size;
    item->received = true;
    made.push_back(std::move(item));
  }
  std::vector<acltdtDataItem*> items;
  items.reserve(made.size());
  // Nothing below allocates: the dataset changes all at once.
  dataset->DropReceived();
  for (auto& item : made) items.push_back(item.release());
  dataset->items = std::move(items);
  dataset->message = std::move(message);
  dataset->received = true;
  dataset->memory = acltdtDataset::Memory::kHost;
}

}  // namespace ascend::tdt
