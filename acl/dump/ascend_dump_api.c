/*
 * libascend_dump.so: the functions of acl_dump.h, which CANN ships in this
 * library beside libascendcl.so. The dump lives in the runtime (DESIGN.md
 * §5.25), so each function hands its call to the runtime's ascendcl/dump.h
 * interface in libascendcl.so, which this library links dynamically: a
 * process has one runtime. Written in C: nothing here can throw.
 */
#include <string.h>

#include "acl/acl_dump.h"
#include "ascendcl/dump.h"

aclError acldumpRegCallback(
    int32_t (*const messageCallback)(const acldumpChunk *, int32_t),
    int32_t flag) {
  return ascendclDumpRegCallback(messageCallback, flag);
}

void acldumpUnregCallback(void) { ascendclDumpUnregCallback(); }

aclError aclopStartDumpArgs(uint32_t dumpType, const char *path) {
  return ascendclDumpStartArgs(dumpType, path);
}

aclError aclopStopDumpArgs(uint32_t dumpType) {
  return ascendclDumpStopArgs(dumpType);
}

const char *acldumpGetPath(acldumpType dumpType) {
  /* Any int may arrive in the enum: pass its bits on. */
  int32_t raw;
  memcpy(&raw, &dumpType, sizeof raw);
  return ascendclDumpGetPath(raw);
}

aclError acldumpSaveExceptionInfo(const char *fileName, const char *userTag,
                                  const acldumpTensorInfo *tensors,
                                  size_t tensorCount) {
  return ascendclDumpSaveExceptionInfo(fileName, userTag, tensors, tensorCount);
}

aclError acldumpGetExceptionInfoPath(char *path, size_t maxLen) {
  return ascendclDumpGetExceptionInfoPath(path, maxLen);
}
