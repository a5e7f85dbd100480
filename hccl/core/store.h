// The rendezvous store: a small key-value server the root's process runs
// (for HcclGetRootInfo's communicators, or at a rank table's rank 0), and
// its client. Ranks meet through it: each publishes who it is, reads the
// others, and Gloo's full-mesh rendezvous runs through it (the client is a
// gloo::rendezvous::Store). Requests: SET, SET-if-absent, GET (answered
// once the key exists), and erasing a prefix.
//
//   StoreServer* s;  StoreServer::Ensure(api, address, base_port, 32, &s);
//   StoreClient c;   c.Connect(ip, port, deadline);
//   c.set("job/n", {'8'});  std::vector<char> v = c.get("job/rank/3");
#ifndef ASCENDCL_HCCL_CORE_STORE_H_
#define ASCENDCL_HCCL_CORE_STORE_H_

#include <chrono>
#include <cstdint>
#include <map>
#include <mutex>
#include <string>
#include <vector>

#include "gloo/rendezvous/store.h"
#include "hccl/core/netif.h"
#include "hccl/hccl_types.h"

namespace ascend::hccl {

class StoreServer {
 public:
  // The server of this process listening on `at`: the running one for the
  // same address and base port, else a new one (on the first free port of
  // [base, base + tries), or any port when base is 0). Never stopped: it
  // lives as long as the process. HCCL_E_NETWORK when nothing can listen;
  // HCCL_E_PARA / HCCL_E_OPEN_FILE_FAILURE for a bad white list.
  static HcclResult Ensure(const char* api, const NetAddress& at, uint16_t base,
                           int tries, StoreServer** out);

  uint16_t port() const { return port_; }
  const NetAddress& address() const { return at_; }
  // Forgets every key starting with `prefix` (a finished rank-table job).
  void ErasePrefix(const std::string& prefix);

 private:
  StoreServer(const NetAddress& at, int fd, uint16_t port,
              std::vector<std::string> white_list, bool white_list_on);
  void Loop();
  struct Connection;
  void Serve(Connection& c);
  void Answer(int fd, uint8_t status, const std::string& value);

  NetAddress at_;
  int listen_fd_;
  uint16_t port_;
  std::vector<std::string> white_list_;
  bool white_list_on_;
  std::mutex mu_;
  std::map<std::string, std::string> data_;
  std::multimap<std::string, int> waiting_;  // key -> fd of a pending GET
};

// One connection to a store; not shared between threads.
class StoreClient : public gloo::rendezvous::Store {
 public:
  StoreClient() = default;
  ~StoreClient() override;
  StoreClient(const StoreClient&) = delete;
  StoreClient& operator=(const StoreClient&) = delete;

  // False when nobody answered at ip:port before `deadline`.
  bool Connect(const std::string& ip, uint16_t port,
               Clock::time_point deadline);
  // GETs wait at most this long (the connect timeout).
  void set_timeout(std::chrono::milliseconds t) { timeout_ = t; }

  // Stores value under key unless the key exists; *existing gets the value
  // found (or `value` when stored). False on a broken connection.
  bool SetIfAbsent(const std::string& key, const std::string& value,
                   bool* stored, std::string* existing);
  // The value of key, waiting until `deadline`; false on timeout or error.
  bool Get(const std::string& key, Clock::time_point deadline,
           std::string* value);
  bool Set(const std::string& key, const std::string& value);
  bool ErasePrefix(const std::string& prefix);

  // gloo::rendezvous::Store: failures throw gloo::IoException.
  void set(const std::string& key, const std::vector<char>& data) override;
  std::vector<char> get(const std::string& key) override;
  void wait(const std::vector<std::string>& keys) override;
  void wait(const std::vector<std::string>& keys,
            const std::chrono::milliseconds& timeout) override;

 private:
  bool Request(uint8_t op, const std::string& key, const std::string& value,
               Clock::time_point deadline, uint8_t* status, std::string* reply);
  int fd_ = -1;
  std::chrono::milliseconds timeout_{std::chrono::seconds(120)};
};

}  // namespace ascend::hccl

#endif  // ASCENDCL_HCCL_CORE_STORE_H_
