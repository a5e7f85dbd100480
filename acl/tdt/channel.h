// The process's data channels (DESIGN.md §5.23): named FIFOs of messages
// with a capacity, blocking sends and receives with timeouts, stop, clean.
//
// A channel made with a capacity has a FIFO of its own (its name is unique
// among such channels). A device data channel (acltdtCreateChannel) sends to
// the FIFO of its (device, name) and, when its name is "TF_RECEIVE_<N>",
// receives from the FIFO of (device, N): the simulated device echoes what
// the host sends it. Handles are opaque numbers, never reused, validated on
// every call.
//
// Channel state is host memory: no call here waits for a snapshot, and a
// thread blocked in Send or Receive holds no runtime call in flight.
//
//   Channels& channels = Channels::Get();
//   acltdtChannelHandle* h = channels.Create(api, 0, "q", 4, false);
//   aclError ret = channels.Send(api, h, message, /*timeout=*/-1);
#ifndef ASCENDCL_ACL_TDT_CHANNEL_H_
#define ASCENDCL_ACL_TDT_CHANNEL_H_

#include <cstddef>
#include <cstdint>
#include <deque>
#include <map>
#include <memory>
#include <string>
#include <utility>

#include "absl/base/thread_annotations.h"
#include "acl/acl_tdt.h"
#include "acl/tdt/dataset.h"
#include "device/base/mutex.h"

namespace ascend::tdt {

class Channels {
 public:
  // Capacity range of acltdtCreateChannelWithCapacity (17-01).
  static constexpr size_t kMinCapacity = 2;
  static constexpr size_t kMaxCapacity = 8192;
  // How many datasets a device data channel holds.
  static constexpr size_t kDeviceChannelDepth = 8;
  // The name prefix of device data channels that receive.
  static constexpr char kReceivePrefix[] = "TF_RECEIVE_";

  // The process's channels.
  static Channels& Get();

  // A new channel (device: made by acltdtCreateChannel, capacity ignored).
  // NULL on failure, logged naming api.
  acltdtChannelHandle* Create(const char* api, uint32_t device,
                              const char* name, size_t capacity,
                              bool device_channel);

  // Errors as the public header documents for the entry point `api`.
  aclError Send(const char* api, const acltdtChannelHandle* handle,
                std::shared_ptr<const Message> message, int32_t timeout);
  aclError Receive(const char* api, const acltdtChannelHandle* handle,
                   int32_t timeout, std::shared_ptr<const Message>* out);
  // Returns a message Receive took to the front of its FIFO (the receive
  // failed after all); dropped if the channel is gone.
  void PutBack(const acltdtChannelHandle* handle,
               std::shared_ptr<const Message> message);
  aclError Stop(const char* api, const acltdtChannelHandle* handle);
  aclError Destroy(const char* api, const acltdtChannelHandle* handle);
  aclError Clean(const char* api, const acltdtChannelHandle* handle);
  aclError Size(const char* api, const acltdtChannelHandle* handle,
                size_t* size);
  // Validates a handle for the checks of Send and Receive that come before
  // the dataset is touched: 100000 for an unknown one; *device_channel says
  // whether acltdtCreateChannel made it.
  aclError Lookup(const char* api, const acltdtChannelHandle* handle,
                  bool* device_channel, std::string* name);

 private:
  struct Fifo {
    std::deque<std::shared_ptr<const Message>> messages;
    size_t depth = 0;
  };
  struct Channel {
    uint32_t device = 0;
    std::string name;
    bool device_channel = false;
    bool stopped = false;  // by Stop or Destroy
    std::shared_ptr<Fifo> send;
    std::shared_ptr<Fifo> receive;  // null: this channel cannot receive
  };
  using DeviceFifoKey = std::pair<uint32_t, std::string>;

  std::shared_ptr<Channel> FindLocked(const acltdtChannelHandle* handle) const
      ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_);
  std::shared_ptr<Fifo> DeviceFifoLocked(uint32_t device,
                                         const std::string& name)
      ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_);

  mutable ascend::Mutex mu_;
  uintptr_t next_id_ ABSL_GUARDED_BY(mu_) = 1;
  std::map<uintptr_t, std::shared_ptr<Channel>> channels_ ABSL_GUARDED_BY(mu_);
  // Names of the live channels made with a capacity.
  std::map<std::string, uintptr_t> named_ ABSL_GUARDED_BY(mu_);
  // The FIFOs of device data channels, alive while a channel uses them.
  std::map<DeviceFifoKey, std::weak_ptr<Fifo>> device_fifos_
      ABSL_GUARDED_BY(mu_);
};

}  // namespace ascend::tdt

#endif  // ASCENDCL_ACL_TDT_CHANNEL_H_
