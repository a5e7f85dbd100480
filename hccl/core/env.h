// HCCL's environment variables, read where they are used (so a test or a
// launcher may set them before creating a communicator) and checked: a
// value out of its documented range fails the call that reads it with
// HCCL_E_PARA and a log line (CANN reports EI0001 there).
//
//   HCCL_CONNECT_TIMEOUT  s, how long creating a communicator waits for the
//                         root and every rank: default 120. CANN's range is
//                         [120, 7200]; values from 1 are accepted (logged),
//                         so tests of a missing rank finish in seconds.
//   HCCL_EXEC_TIMEOUT     s, how long an operation waits for its peers:
//                         default 1836, 0 waits for ever; fractions allowed
//                         (0.05 is 50 ms, as CANN's AIV mode takes).
//   HCCL_IF_IP            the address a process listens on and is reached at.
//   HCCL_SOCKET_IFNAME    which interface, when HCCL_IF_IP is not set:
//                         "eth,enp" (prefixes), "^eth" (not these prefixes),
//                         "=eth0" (exact names), "^=eth0" (not these names).
//   HCCL_SOCKET_FAMILY    AF_INET (default) or AF_INET6.
//   HCCL_IF_BASE_PORT     [1024, 65520]: the root listens on the first free
//                         port of the 32 from it (default: any free port; a
//                         rank table's rank 0 uses 60000 when neither this
//                         nor device_port is set).
//   HCCL_WHITELIST_DISABLE  0 enables the white list: the root accepts only
//                         addresses in HCCL_WHITELIST_FILE's "host_ip" list.
//   HCCL_BUFFSIZE         MB, >= 1 (kept; the simulator needs no buffer).
//   HCCL_ALGO             the algorithm string HcclConfigGetInfo reports.
#ifndef ASCENDCL_HCCL_CORE_ENV_H_
#define ASCENDCL_HCCL_CORE_ENV_H_

#include <chrono>
#include <cstdint>
#include <string>
#include <vector>

#include "hccl/hccl_types.h"

namespace ascend::hccl {

using Millis = std::chrono::milliseconds;
// Stands for "no limit".
constexpr Millis kForever = Millis(INT64_C(1) << 50);

HcclResult ConnectTimeout(const char* api, Millis* out);
HcclResult ExecTimeout(const char* api, Millis* out);
// Parses an exec timeout in seconds (config or environment): 0 is forever.
HcclResult ParseExecTimeout(const char* api, const std::string& text,
                            Millis* out);
// The first port to try (0: any free port), and how many from it.
HcclResult BasePort(const char* api, uint16_t* port);
HcclResult BufferSizeMb(const char* api, uint32_t* mb);
std::string AlgoString();

// The white list, when enabled (HCCL_WHITELIST_DISABLE=0): *enabled false
// otherwise. HCCL_E_PARA / HCCL_E_OPEN_FILE_FAILURE for a missing or bad
// file.
HcclResult WhiteList(const char* api, bool* enabled,
                     std::vector<std::string>* host_ips);

// The value of `name`, or "" when unset.
std::string EnvString(const char* name);

}  // namespace ascend::hccl

#endif  // ASCENDCL_HCCL_CORE_ENV_H_
