// C entry points of libacl_tdt_channel.so: channels (DESIGN.md §5.23; doc
// 17-01_tensor_data_transfer).
#include <memory>
#include <string>

#include "acl/acl_tdt.h"
#include "acl/tdt/channel.h"
#include "acl/tdt/dataset.h"
#include "acl/tdt/tdt_util.h"

using ascend::tdt::Channels;
using ascend::tdt::Message;
using ascend::tdt::Reject;

namespace {

aclError RequireHandle(const char* api, const acltdtChannelHandle* handle) {
  if (handle == nullptr) {
    return Reject(api, ACL_ERROR_INVALID_PARAM, "handle is NULL");
  }
  return ACL_SUCCESS;
}

// The timeout rules of a send or receive (17-01): -1, 0 or a positive
// number of milliseconds; device data channels wait for good only.
aclError CheckTimeout(const char* api, int32_t timeout, bool device_channel) {
  if (!ascend::tdt::ValidTimeout(timeout)) {
    return Reject(api, ACL_ERROR_INVALID_PARAM,
                  "timeout " + std::to_string(timeout) + " is below -1");
  }
  if (device_channel && timeout != -1) {
    return Reject(api, ACL_ERROR_INVALID_PARAM,
                  "a channel of acltdtCreateChannel only takes timeout -1");
  }
  return ACL_SUCCESS;
}

}  // namespace

extern "C" {

acltdtChannelHandle* acltdtCreateChannel(uint32_t deviceId,
                                         const char* name) try {
  return Channels::Get().Create(__func__, deviceId, name, 0, true);
}
TDT_ENTRY_CATCH(acltdtChannelHandle*)

acltdtChannelHandle* acltdtCreateChannelWithCapacity(uint32_t deviceId,
                                                     const char* name,
                                                     size_t capacity) try {
  return Channels::Get().Create(__func__, deviceId, name, capacity, false);
}
TDT_ENTRY_CATCH(acltdtChannelHandle*)

aclError acltdtStopChannel(acltdtChannelHandle* handle) try {
  aclError ret = RequireHandle(__func__, handle);
  if (ret != ACL_SUCCESS) return ret;
  return Channels::Get().Stop(__func__, handle);
}
TDT_ENTRY_CATCH(aclError)

aclError acltdtDestroyChannel(acltdtChannelHandle* handle) try {
  aclError ret = RequireHandle(__func__, handle);
  if (ret != ACL_SUCCESS) return ret;
  return Channels::Get().Destroy(__func__, handle);
}
TDT_ENTRY_CATCH(aclError)

aclError acltdtCleanChannel(acltdtChannelHandle* handle) try {
  aclError ret = RequireHandle(__func__, handle);
  if (ret != ACL_SUCCESS) return ret;
  return Channels::Get().Clean(__func__, handle);
}
TDT_ENTRY_CATCH(aclError)

aclError acltdtSendTensor(const acltdtChannelHandle* handle,
                          const acltdtDataset* dataset, int32_t timeout) try {
  aclError ret = RequireHandle(__func__, handle);
  if (ret != ACL_SUCCESS) return ret;
  if (dataset == nullptr) {
    return Reject(__func__, ACL_ERROR_INVALID_PARAM, "dataset is NULL");
  }
  bool device_channel = false;
  std::string name;
  ret = Channels::Get().Lookup(__func__, handle, &device_channel, &name);
  if (ret != ACL_SUCCESS) return ret;
  ret = CheckTimeout(__func__, timeout, device_channel);
  if (ret != ACL_SUCCESS) return ret;
  // The copy is made before waiting for room, outside the channels' lock.
  std::shared_ptr<const Message> message;
  ret = ascend::tdt::BuildMessage(__func__, *dataset, &message);
  if (ret != ACL_SUCCESS) return ret;
  return Channels::Get().Send(__func__, handle, std::move(message), timeout);
}
TDT_ENTRY_CATCH(aclError)

aclError acltdtReceiveTensor(const acltdtChannelHandle* handle,
                             acltdtDataset* dataset, int32_t timeout) try {
  aclError ret = RequireHandle(__func__, handle);
  if (ret != ACL_SUCCESS) return ret;
  if (dataset == nullptr) {
    return Reject(__func__, ACL_ERROR_INVALID_PARAM, "dataset is NULL");
  }
  if (!dataset->received && !dataset->items.empty()) {
    return Reject(__func__, ACL_ERROR_INVALID_PARAM,
                  "the dataset holds items added by the caller; receive "
                  "into an empty dataset");
  }
  bool device_channel = false;
  std::string name;
  ret = Channels::Get().Lookup(__func__, handle, &device_channel, &name);
  if (ret != ACL_SUCCESS) return ret;
  ret = CheckTimeout(__func__, timeout, device_channel);
  if (ret != ACL_SUCCESS) return ret;
  std::shared_ptr<const Message> message;
  ret = Channels::Get().Receive(__func__, handle, timeout, &message);
  if (ret != ACL_SUCCESS) return ret;
  try {
    ascend::tdt::FillFromMessage(message, dataset);
  } catch (...) {
    Channels::Get().PutBack(handle, std::move(message));  // nothing lost
    throw;
  }
  return ACL_SUCCESS;
}
TDT_ENTRY_CATCH(aclError)

aclError acltdtQueryChannelSize(const acltdtChannelHandle* handle,
                                size_t* size) try {
  aclError ret = RequireHandle(__func__, handle);
  if (ret != ACL_SUCCESS) return ret;
  if (size == nullptr) {
    return Reject(__func__, ACL_ERROR_INVALID_PARAM, "size is NULL");
  }
  return Channels::Get().Size(__func__, handle, size);
}
TDT_ENTRY_CATCH(aclError)

}  // extern "C"
