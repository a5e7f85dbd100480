// ipc_sync_api_test's second process: one command a line on stdin, one
// answer line on stdout; exits at "exit" or end of input.
//   pid                        -> PID
//   open_event HEX             -> CODE        (aclrtIpcOpenEventHandle)
//   wait_event                 -> CODE MS     (stream wait + synchronize)
//   record_event               -> CODE        (record + synchronize event)
//   record_blocked             -> CODE        (record behind a blocked stream)
//   unblock                    -> CODE        (lets that stream run)
//   query_event                -> CODE STATUS
//   destroy_event              -> CODE
//   export_pending             -> CODE HEX    (an IPC event of this process
//                                              with a record that never runs)
//   import_notify KEY FLAGS    -> CODE
//   record_notify              -> CODE        (record + synchronize)
//   wait_notify S              -> CODE        (wait-and-reset + synchronize)
//   destroy_notify             -> CODE
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <iostream>
#include <sstream>
#include <string>

#include "acl/acl.h"

namespace {

std::string Hex(const aclrtIpcEventHandle& h) {
  static const char digits[] = "0123456789abcdef";
  std::string s;
  for (char c : h.reserved) {
    const auto b = static_cast<unsigned char>(c);
    s += digits[b >> 4];
    s += digits[b & 15];
  }
  return s;
}

bool Unhex(const std::string& s, aclrtIpcEventHandle* h) {
  if (s.size() != 2 * sizeof(h->reserved)) return false;
  for (size_t i = 0; i < sizeof(h->reserved); ++i) {
    h->reserved[i] =
        static_cast<char>(std::stoi(s.substr(2 * i, 2), nullptr, 16));
  }
  return true;
}

}  // namespace

int main() {
  if (aclrtSetDevice(0) != ACL_SUCCESS) return 2;
  aclrtStream stream = nullptr, blocked = nullptr, side = nullptr;
  if (aclrtCreateStream(&stream) != ACL_SUCCESS ||
      aclrtCreateStream(&blocked) != ACL_SUCCESS ||
      aclrtCreateStream(&side) != ACL_SUCCESS) {
    return 2;
  }
  aclrtNotify gate = nullptr;  // blocks `blocked` until "unblock"
  if (aclrtCreateNotify(&gate, 0) != ACL_SUCCESS) return 2;
  aclrtEvent event = nullptr;
  aclrtNotify notify = nullptr;
  std::string line;
  while (std::getline(std::cin, line)) {
    std::istringstream in(line);
    std::string cmd;
    in >> cmd;
    std::ostringstream out;
    if (cmd == "pid") {
      out << getpid();
    } else if (cmd == "open_event") {
      std::string hex;
      in >> hex;
      aclrtIpcEventHandle h{};
      if (!Unhex(hex, &h)) {
        out << "bad";
      } else {
        out << aclrtIpcOpenEventHandle(h, &event);
      }
    } else if (cmd == "wait_event") {
      const auto start = std::chrono::steady_clock::now();
      aclError code = aclrtStreamWaitEvent(stream, event);
      if (code == ACL_SUCCESS) code = aclrtSynchronizeStream(stream);
      out << code << " "
          << std::chrono::duration_cast<std::chrono::milliseconds>(
                 std::chrono::steady_clock::now() - start)
                 .count();
    } else if (cmd == "record_event") {
      aclError code = aclrtRecordEvent(event, stream);
      if (code == ACL_SUCCESS) code = aclrtSynchronizeEvent(event);
      out << code;
    } else if (cmd == "record_blocked") {
      aclError code = aclrtWaitAndResetNotify(gate, blocked, 0);
      if (code == ACL_SUCCESS) code = aclrtRecordEvent(event, blocked);
      out << code;
    } else if (cmd == "unblock") {
      aclError code = aclrtRecordNotify(gate, side);
      if (code == ACL_SUCCESS) code = aclrtSynchronizeStream(blocked);
      out << code;
    } else if (cmd == "query_event") {
      aclrtEventRecordedStatus status = ACL_EVENT_RECORDED_STATUS_NOT_READY;
      out << aclrtQueryEventStatus(event, &status) << " "
          << static_cast<int>(status);
    } else if (cmd == "destroy_event") {
      out << aclrtDestroyEvent(event);
      event = nullptr;
    } else if (cmd == "export_pending") {
      aclError code = aclrtCreateEventExWithFlag(&event, ACL_EVENT_IPC);
      aclrtIpcEventHandle h{};
      if (code == ACL_SUCCESS) code = aclrtWaitAndResetNotify(gate, blocked, 0);
      if (code == ACL_SUCCESS) code = aclrtRecordEvent(event, blocked);
      if (code == ACL_SUCCESS) code = aclrtIpcGetEventHandle(event, &h);
      out << code << " " << Hex(h);
    } else if (cmd == "import_notify") {
      std::string key;
      uint64_t flags = 0;
      in >> key >> flags;
      out << aclrtNotifyImportByKey(&notify, key.c_str(), flags);
    } else if (cmd == "record_notify") {
      aclError code = aclrtRecordNotify(notify, stream);
      if (code == ACL_SUCCESS) code = aclrtSynchronizeStream(stream);
      out << code;
    } else if (cmd == "wait_notify") {
      uint32_t seconds = 0;
      in >> seconds;
      aclError code = aclrtWaitAndResetNotify(notify, stream, seconds);
      if (code == ACL_SUCCESS) code = aclrtSynchronizeStream(stream);
      out << code;
    } else if (cmd == "destroy_notify") {
      out << aclrtDestroyNotify(notify);
      notify = nullptr;
    } else if (cmd == "exit") {
      break;
    } else {
      out << "unknown";
    }
    std::cout << out.str() << std::endl;
  }
  (void)aclrtRecordNotify(gate, side);
  (void)aclrtResetDeviceForce(0);
  std::cout << "bye" << std::endl;
  return 0;
}
