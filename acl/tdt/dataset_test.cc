// Data items and datasets through the C API (doc 25-03_Operation_APIs:
// acltdtDataItem, acltdtDataset; 17-01_tensor_data_transfer:
// acltdtGetSliceInfoFromItem).
#include <cstdint>
#include <cstring>
#include <vector>

#include "acl/acl.h"
#include "acl/acl_tdt.h"
#include "gtest/gtest.h"
#include "testing/status_matchers.h"

namespace ascend {
namespace {

class DatasetTest : public ::testing::Test {
 protected:
  void TearDown() override {
    for (acltdtDataItem* item : items_) {
      EXPECT_ACL_OK(acltdtDestroyDataItem(item));
    }
  }
  acltdtDataItem* Tensor(std::vector<float>& values) {
    const int64_t dims[] = {2, static_cast<int64_t>(values.size() / 2)};
    acltdtDataItem* item =
        acltdtCreateDataItem(ACL_TENSOR_DATA_TENSOR, dims, 2, ACL_FLOAT,
                             values.data(), values.size() * sizeof(float));
    if (item != nullptr) items_.push_back(item);
    return item;
  }
  std::vector<acltdtDataItem*> items_;
};

// 25-03 acltdtCreateDataItem and the item getters.
TEST_F(DatasetTest, TensorItemRecordsWhatItWasGiven) {
  std::vector<float> values = {1, 2, 3, 4, 5, 6};
  acltdtDataItem* item = Tensor(values);
  ASSERT_NE(item, nullptr);
  EXPECT_EQ(acltdtGetTensorTypeFromItem(item), ACL_TENSOR_DATA_TENSOR);
  EXPECT_EQ(acltdtGetDataTypeFromItem(item), ACL_FLOAT);
  EXPECT_EQ(acltdtGetDataAddrFromItem(item), values.data());  // not copied
  EXPECT_EQ(acltdtGetDataSizeFromItem(item), 6 * sizeof(float));
  ASSERT_EQ(acltdtGetDimNumFromItem(item), 2u);
  int64_t dims[3] = {-7, -7, -7};
  ASSERT_ACL_OK(acltdtGetDimsFromItem(item, dims, 3));  // more room is fine
  EXPECT_EQ(dims[0], 2);
  EXPECT_EQ(dims[1], 3);
  EXPECT_EQ(dims[2], -7);
  size_t slice_num = 9, slice_id = 9;
  ASSERT_ACL_OK(acltdtGetSliceInfoFromItem(item, &slice_num, &slice_id));
  EXPECT_EQ(slice_num, 0u);
  EXPECT_EQ(slice_id, 0u);
}

// 25-03 acltdtCreateDataItem: only tensors carry a shape, a type and data.
TEST_F(DatasetTest, ItemsThatAreNotTensorsHaveNoData) {
  int payload = 5;
  for (acltdtTensorType type :
       {ACL_TENSOR_DATA_END_OF_SEQUENCE, ACL_TENSOR_DATA_ABNORMAL,
        ACL_TENSOR_DATA_SLICE_TENSOR, ACL_TENSOR_DATA_END_TENSOR,
        ACL_TENSOR_DATA_UNDEFINED}) {
    acltdtDataItem* item = acltdtCreateDataItem(type, nullptr, 0, ACL_INT32,
                                                &payload, sizeof payload);
    ASSERT_NE(item, nullptr);
    items_.push_back(item);
    EXPECT_EQ(acltdtGetTensorTypeFromItem(item), type);
    EXPECT_EQ(acltdtGetDataTypeFromItem(item), ACL_DT_UNDEFINED);
    EXPECT_EQ(acltdtGetDataAddrFromItem(item), nullptr);
    EXPECT_EQ(acltdtGetDataSizeFromItem(item), 0u);
    EXPECT_EQ(acltdtGetDimNumFromItem(item), 0u);
    // No shape: a NULL dims with dimNum 0 asks for nothing.
    EXPECT_ACL_OK(acltdtGetDimsFromItem(item, nullptr, 0));
  }
  // A shape for an item that is not a tensor is refused.
  const int64_t dims[] = {1};
  EXPECT_EQ(acltdtCreateDataItem(ACL_TENSOR_DATA_END_OF_SEQUENCE, dims, 1,
                                 ACL_DT_UNDEFINED, nullptr, 0),
            nullptr);
}

// 25-03 acltdtCreateDataItem: rejected arguments return NULL.
TEST_F(DatasetTest, CreateItemRejectsBadArguments) {
  float value = 1;
  const int64_t dims[129] = {};
  EXPECT_EQ(acltdtCreateDataItem(ACL_TENSOR_DATA_TENSOR, nullptr, 1, ACL_FLOAT,
                                 &value, 4),
            nullptr);
  EXPECT_EQ(acltdtCreateDataItem(ACL_TENSOR_DATA_TENSOR, dims, 0, ACL_FLOAT,
                                 &value, 4),
            nullptr);
  EXPECT_EQ(acltdtCreateDataItem(ACL_TENSOR_DATA_TENSOR, dims, 129, ACL_FLOAT,
                                 &value, 4),
            nullptr);
  acltdtDataItem* widest = acltdtCreateDataItem(ACL_TENSOR_DATA_TENSOR, dims,
                                                128, ACL_FLOAT, &value, 4);
  ASSERT_NE(widest, nullptr);
  items_.push_back(widest);
  int32_t bad_type = 5;
  acltdtTensorType type;
  std::memcpy(&type, &bad_type, sizeof type);
  EXPECT_EQ(acltdtCreateDataItem(type, nullptr, 0, ACL_FLOAT, nullptr, 0),
            nullptr);
  int32_t bad_element = 42;
  aclDataType element;
  std::memcpy(&element, &bad_element, sizeof element);
  EXPECT_EQ(
      acltdtCreateDataItem(ACL_TENSOR_DATA_TENSOR, dims, 1, element, &value, 4),
      nullptr);
  // A scalar tensor: no dims at all.
  acltdtDataItem* scalar = acltdtCreateDataItem(
      ACL_TENSOR_DATA_TENSOR, nullptr, 0, ACL_FLOAT, &value, sizeof value);
  ASSERT_NE(scalar, nullptr);
  items_.push_back(scalar);
  EXPECT_EQ(acltdtGetDimNumFromItem(scalar), 0u);
}

// 25-03 the getters: NULL items.
TEST_F(DatasetTest, GettersOfNullAnswerTheirFailureValue) {
  EXPECT_EQ(acltdtGetTensorTypeFromItem(nullptr), ACL_TENSOR_DATA_UNDEFINED);
  EXPECT_EQ(acltdtGetDataTypeFromItem(nullptr), ACL_DT_UNDEFINED);
  EXPECT_EQ(acltdtGetDataAddrFromItem(nullptr), nullptr);
  EXPECT_EQ(acltdtGetDataSizeFromItem(nullptr), 0u);
  EXPECT_EQ(acltdtGetDimNumFromItem(nullptr), 0u);
  size_t a = 0, b = 0;
  int64_t dims[2];
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM,
                   acltdtGetSliceInfoFromItem(nullptr, &a, &b));
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM,
                   acltdtGetDimsFromItem(nullptr, dims, 2));
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM, acltdtDestroyDataItem(nullptr));
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM, acltdtDestroyDataset(nullptr));
  EXPECT_EQ(acltdtGetDataItem(nullptr, 0), nullptr);
  EXPECT_EQ(acltdtGetDatasetSize(nullptr), 0u);
  EXPECT_EQ(acltdtGetDatasetName(nullptr), nullptr);
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM,
                   acltdtAddDataItem(nullptr, nullptr));
}

// 25-03 acltdtGetDimsFromItem: dims and dimNum must agree and leave room.
TEST_F(DatasetTest, GetDimsChecksItsBuffer) {
  std::vector<float> values = {1, 2, 3, 4};
  acltdtDataItem* item = Tensor(values);
  ASSERT_NE(item, nullptr);
  int64_t dims[2];
  size_t a = 0;
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM,
                   acltdtGetDimsFromItem(item, nullptr, 2));
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM,
                   acltdtGetDimsFromItem(item, dims, 0));
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM,
                   acltdtGetDimsFromItem(item, dims, 1));
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM,
                   acltdtGetSliceInfoFromItem(item, &a, nullptr));
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM,
                   acltdtGetSliceInfoFromItem(item, nullptr, &a));
}

// 25-03 acltdtDataset: add, get, size, name; a dataset owns no item it was
// given.
TEST_F(DatasetTest, DatasetListsItsItemsInOrder) {
  std::vector<float> a = {1, 2}, b = {3, 4};
  acltdtDataItem* first = Tensor(a);
  acltdtDataItem* second = Tensor(b);
  acltdtDataset* dataset = acltdtCreateDataset();
  ASSERT_NE(dataset, nullptr);
  EXPECT_EQ(acltdtGetDatasetSize(dataset), 0u);
  EXPECT_STREQ(acltdtGetDatasetName(dataset), "");
  EXPECT_EQ(acltdtGetDataItem(dataset, 0), nullptr);
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM,
                   acltdtAddDataItem(dataset, nullptr));
  ASSERT_ACL_OK(acltdtAddDataItem(dataset, first));
  ASSERT_ACL_OK(acltdtAddDataItem(dataset, second));
  EXPECT_EQ(acltdtGetDatasetSize(dataset), 2u);
  EXPECT_EQ(acltdtGetDataItem(dataset, 0), first);
  EXPECT_EQ(acltdtGetDataItem(dataset, 1), second);
  EXPECT_EQ(acltdtGetDataItem(dataset, 2), nullptr);
  ASSERT_ACL_OK(acltdtDestroyDataset(dataset));
  // The items are still the test's (TearDown destroys them).
  EXPECT_EQ(acltdtGetDataAddrFromItem(first), a.data());
}

// 25-03 acltdtAddDataItem: one dataset holds host or device data, not both.
TEST_F(DatasetTest, HostAndDeviceDataDoNotMix) {
  ASSERT_ACL_OK(aclrtSetDevice(0));
  void* device = nullptr;
  ASSERT_ACL_OK(aclrtMalloc(&device, 64, ACL_MEM_MALLOC_HUGE_FIRST));
  std::vector<float> host = {1, 2};
  const int64_t dims[] = {2};
  acltdtDataItem* on_device = acltdtCreateDataItem(ACL_TENSOR_DATA_TENSOR, dims,
                                                   1, ACL_FLOAT, device, 8);
  ASSERT_NE(on_device, nullptr);
  items_.push_back(on_device);
  acltdtDataItem* on_host = Tensor(host);
  acltdtDataItem* end =
      acltdtCreateDataItem(ACL_TENSOR_DATA_END_OF_SEQUENCE, nullptr, 0,
                           ACL_DT_UNDEFINED, nullptr, 0);
  items_.push_back(end);

  acltdtDataset* dataset = acltdtCreateDataset();
  ASSERT_ACL_OK(acltdtAddDataItem(dataset, end));  // no data: either side
  ASSERT_ACL_OK(acltdtAddDataItem(dataset, on_device));
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM,
                   acltdtAddDataItem(dataset, on_host));
  EXPECT_EQ(acltdtGetDatasetSize(dataset), 2u);  // unchanged
  ASSERT_ACL_OK(acltdtDestroyDataset(dataset));

  dataset = acltdtCreateDataset();
  ASSERT_ACL_OK(acltdtAddDataItem(dataset, on_host));
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM,
                   acltdtAddDataItem(dataset, on_device));
  ASSERT_ACL_OK(acltdtDestroyDataset(dataset));
  ASSERT_ACL_OK(aclrtFree(device));
}

}  // namespace
}  // namespace ascend
