// What libprofapi.so exports to libmsprofiler.so besides CANN's functions
// (DESIGN.md §5.24): the collector's state changes, behind the aclprof*
// entry points that validate their arguments first. Not installed; the
// names carry our ascendclProf prefix. Each returns an aclError.
#ifndef ASCENDCL_ACL_PROF_INTERNAL_API_H_
#define ASCENDCL_ACL_PROF_INTERNAL_API_H_

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

// A validated aclprofConfig.
typedef struct ascendclProfConfig {
  uint32_t devNums;  // 0: host data only
  uint32_t devIds[64];
  uint32_t aicoreMetrics;
  uint64_t dataTypeConfig;
} ascendclProfConfig;

// A host record of msproftx (libmsprofiler.so's stamps and step info).
typedef struct ascendclProfTxRecord {
  const char* type;     // "mark", "push_pop", "range", "mark_ex",
                        // "step_start", "step_end", "tensor_range"
  const char* message;  // may be ""
  uint64_t startNs;     // MsprofSysCycleTime()
  uint64_t endNs;       // == startNs for an instant
  uint32_t threadId;
  uint64_t id;           // range id, step index; 0 otherwise
  const char* argsJson;  // extra fields as a JSON object text, or NULL
} ascendclProfTxRecord;

int32_t ascendclProfInit(const char* path, size_t length);
int32_t ascendclProfFinalize(void);
int32_t ascendclProfSetConfig(int32_t type, const char* value, size_t length);
int32_t ascendclProfStart(const ascendclProfConfig* config);
int32_t ascendclProfStop(const ascendclProfConfig* config);
// fd: the pipe's write end; timeInfo 0 or 1.
int32_t ascendclProfSubscribe(uint32_t modelId, int8_t timeInfo,
                              uint32_t aicoreMetrics, int fd);
int32_t ascendclProfUnsubscribe(uint32_t modelId);
// 1 while a started collection records msproftx data, else 0.
int32_t ascendclProfTxActive(void);
// Adds `record` to every collection recording msproftx data.
void ascendclProfReportTx(const ascendclProfTxRecord* record);

#ifdef __cplusplus
}
#endif

#endif  // ASCENDCL_ACL_PROF_INTERNAL_API_H_
