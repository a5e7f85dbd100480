// C entry points of libacl_tdt_channel.so: data items and datasets
// (DESIGN.md §5.23; docs 25-03_Operation_APIs, 17-01_tensor_data_transfer).
#include <cstring>
#include <memory>
#include <string>

#include "acl/acl_tdt.h"
#include "acl/tdt/dataset.h"
#include "acl/tdt/tdt_util.h"

using ascend::tdt::Reject;

namespace {

constexpr int32_t kLastTensorType = ACL_TENSOR_DATA_END_TENSOR;
constexpr int32_t kLastDataType = ACL_FLOAT4_E1M2;

// C lets any int travel in an enum parameter (DESIGN.md §2.4).
template <typename E>
int32_t Raw(const E& value) {
  int32_t raw;
  static_assert(sizeof(E) == sizeof raw);
  std::memcpy(&raw, &value, sizeof raw);
  return raw;
}

aclError CheckDims(const char* api, const int64_t* dims, size_t dimNum) {
  if (dims == nullptr && dimNum != 0) {
    return Reject(api, ACL_ERROR_INVALID_PARAM,
                  "dims is NULL but dimNum is " + std::to_string(dimNum));
  }
  if (dims != nullptr && dimNum == 0) {
    return Reject(api, ACL_ERROR_INVALID_PARAM, "dims is set but dimNum is 0");
  }
  return ACL_SUCCESS;
}

}  // namespace

extern "C" {

acltdtTensorType acltdtGetTensorTypeFromItem(
    const acltdtDataItem* dataItem) try {
  if (dataItem == nullptr) {
    Reject(__func__, ACL_ERROR_INVALID_PARAM, "dataItem is NULL");
    return ACL_TENSOR_DATA_UNDEFINED;
  }
  return dataItem->tensor_type;
}
TDT_ENTRY_CATCH_RETURN(ACL_TENSOR_DATA_UNDEFINED)

aclDataType acltdtGetDataTypeFromItem(const acltdtDataItem* dataItem) try {
  if (dataItem == nullptr) {
    Reject(__func__, ACL_ERROR_INVALID_PARAM, "dataItem is NULL");
    return ACL_DT_UNDEFINED;
  }
  return dataItem->data_type;
}
TDT_ENTRY_CATCH_RETURN(ACL_DT_UNDEFINED)

void* acltdtGetDataAddrFromItem(const acltdtDataItem* dataItem) try {
  if (dataItem == nullptr) {
    Reject(__func__, ACL_ERROR_INVALID_PARAM, "dataItem is NULL");
    return nullptr;
  }
  return dataItem->data;
}
TDT_ENTRY_CATCH(void*)

size_t acltdtGetDataSizeFromItem(const acltdtDataItem* dataItem) try {
  if (dataItem == nullptr) {
    Reject(__func__, ACL_ERROR_INVALID_PARAM, "dataItem is NULL");
    return 0;
  }
  return dataItem->size;
}
TDT_ENTRY_CATCH(size_t)

size_t acltdtGetDimNumFromItem(const acltdtDataItem* dataItem) try {
  if (dataItem == nullptr) {
    Reject(__func__, ACL_ERROR_INVALID_PARAM, "dataItem is NULL");
    return 0;
  }
  return dataItem->dims.size();
}
TDT_ENTRY_CATCH(size_t)

aclError acltdtGetSliceInfoFromItem(const acltdtDataItem* dataItem,
                                    size_t* sliceNum, size_t* sliceId) try {
  if (dataItem == nullptr || sliceNum == nullptr || sliceId == nullptr) {
    return Reject(__func__, ACL_ERROR_INVALID_PARAM,
                  "dataItem, sliceNum and sliceId must not be NULL");
  }
  *sliceNum = dataItem->slice_num;
  *sliceId = dataItem->slice_id;
  return ACL_SUCCESS;
}
TDT_ENTRY_CATCH(aclError)

aclError acltdtGetDimsFromItem(const acltdtDataItem* dataItem, int64_t* dims,
                               size_t dimNum) try {
  if (dataItem == nullptr) {
    return Reject(__func__, ACL_ERROR_INVALID_PARAM, "dataItem is NULL");
  }
  const aclError ret = CheckDims(__func__, dims, dimNum);
  if (ret != ACL_SUCCESS) return ret;
  if (dimNum < dataItem->dims.size()) {
    return Reject(__func__, ACL_ERROR_INVALID_PARAM,
                  "dimNum " + std::to_string(dimNum) + " is below the item's " +
                      std::to_string(dataItem->dims.size()) + " dimensions");
  }
  for (size_t i = 0; i < dataItem->dims.size(); ++i)
    dims[i] = dataItem->dims[i];
  return ACL_SUCCESS;
}
TDT_ENTRY_CATCH(aclError)

acltdtDataItem* acltdtCreateDataItem(acltdtTensorType tdtType,
                                     const int64_t* dims, size_t dimNum,
                                     aclDataType dataType, void* data,
                                     size_t size) try {
  const int32_t type = Raw(tdtType);
  if (type < ACL_TENSOR_DATA_UNDEFINED || type > kLastTensorType) {
    Reject(__func__, ACL_ERROR_INVALID_PARAM,
           "tdtType " + std::to_string(type) + " is not an acltdtTensorType");
    return nullptr;
  }
  if (CheckDims(__func__, dims, dimNum) != ACL_SUCCESS) return nullptr;
  if (dimNum > ascend::tdt::kMaxDims) {
    Reject(__func__, ACL_ERROR_INVALID_PARAM,
           "dimNum " + std::to_string(dimNum) + " is above 128");
    return nullptr;
  }
  auto item = std::make_unique<acltdtDataItem>();
  item->tensor_type = static_cast<acltdtTensorType>(type);
  if (type != ACL_TENSOR_DATA_TENSOR) {
    if (dims != nullptr) {
      Reject(__func__, ACL_ERROR_INVALID_PARAM,
             "dims must be NULL for an item that is not a tensor");
      return nullptr;
    }
    return item.release();  // no data, no element type
  }
  const int32_t element = Raw(dataType);
  if (element < ACL_DT_UNDEFINED || element > kLastDataType) {
    Reject(__func__, ACL_ERROR_INVALID_PARAM,
           "dataType " + std::to_string(element) + " is not an aclDataType");
    return nullptr;
  }
  item->data_type = static_cast<aclDataType>(element);
  item->dims.assign(dims, dims + dimNum);
  item->data = data;
  item->size = size;
  return item.release();
}
TDT_ENTRY_CATCH(acltdtDataItem*)

aclError acltdtDestroyDataItem(acltdtDataItem* dataItem) try {
  if (dataItem == nullptr) {
    return Reject(__func__, ACL_ERROR_INVALID_PARAM, "dataItem is NULL");
  }
  if (dataItem->received) {
    return Reject(__func__, ACL_ERROR_INVALID_PARAM,
                  "the item belongs to a received dataset: destroy the "
                  "dataset instead");
  }
  delete dataItem;
  return ACL_SUCCESS;
}
TDT_ENTRY_CATCH(aclError)

acltdtDataset* acltdtCreateDataset(void) try { return new acltdtDataset; }
TDT_ENTRY_CATCH(acltdtDataset*)

aclError acltdtDestroyDataset(acltdtDataset* dataset) try {
  if (dataset == nullptr) {
    return Reject(__func__, ACL_ERROR_INVALID_PARAM, "dataset is NULL");
  }
  delete dataset;
  return ACL_SUCCESS;
}
TDT_ENTRY_CATCH(aclError)

acltdtDataItem* acltdtGetDataItem(const acltdtDataset* dataset,
                                  size_t index) try {
  if (dataset == nullptr) {
    Reject(__func__, ACL_ERROR_INVALID_PARAM, "dataset is NULL");
    return nullptr;
  }
  if (index >= dataset->items.size()) {
    Reject(__func__, ACL_ERROR_INVALID_PARAM,
           "index " + std::to_string(index) + " is not below the size " +
               std::to_string(dataset->items.size()));
    return nullptr;
  }
  return dataset->items[index];
}
TDT_ENTRY_CATCH(acltdtDataItem*)

aclError acltdtAddDataItem(acltdtDataset* dataset,
                           acltdtDataItem* dataItem) try {
  if (dataset == nullptr || dataItem == nullptr) {
    return Reject(__func__, ACL_ERROR_INVALID_PARAM,
                  "dataset and dataItem must not be NULL");
  }
  if (dataset->received) {
    return Reject(__func__, ACL_ERROR_FEATURE_UNSUPPORTED,
                  "the dataset holds received items; add to a new dataset");
  }
  using Memory = acltdtDataset::Memory;
  Memory memory = Memory::kUnknown;
  if (dataItem->data != nullptr) {
    bool device = false;
    const aclError ret = ascend::tdt::IsDeviceMemory(dataItem->data, &device);
    if (ret != ACL_SUCCESS) {
      return Reject(__func__, ret, "the item's data pointer is not valid");
    }
    memory = device ? Memory::kDevice : Memory::kHost;
  }
  if (memory != Memory::kUnknown && dataset->memory != Memory::kUnknown &&
      memory != dataset->memory) {
    return Reject(__func__, ACL_ERROR_INVALID_PARAM,
                  "the items of a dataset hold either host or device data");
  }
  dataset->items.push_back(dataItem);
  if (memory != Memory::kUnknown) dataset->memory = memory;
  return ACL_SUCCESS;
}
TDT_ENTRY_CATCH(aclError)

size_t acltdtGetDatasetSize(const acltdtDataset* dataset) try {
  if (dataset == nullptr) {
    Reject(__func__, ACL_ERROR_INVALID_PARAM, "dataset is NULL");
    return 0;
  }
  return dataset->items.size();
}
TDT_ENTRY_CATCH(size_t)

const char* acltdtGetDatasetName(const acltdtDataset* dataset) try {
  if (dataset == nullptr) {
    Reject(__func__, ACL_ERROR_INVALID_PARAM, "dataset is NULL");
    return nullptr;
  }
  return dataset->name.c_str();
}
TDT_ENTRY_CATCH(const char*)

}  // extern "C"
