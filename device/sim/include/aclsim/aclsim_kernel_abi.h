/*
 * The simulated kernel ABI's types and constants, without the ACL headers:
 * what the simulator backend (device/sim) implements and what a kernel
 * binary is compiled against. Kernels include "aclsim/aclsim_kernel.h",
 * which includes this header and documents the ABI.
 */
#ifndef ASCENDCL_ACLSIM_ACLSIM_KERNEL_ABI_H_
#define ASCENDCL_ACLSIM_ACLSIM_KERNEL_ABI_H_

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Version 2 added aclsimKernelContext::writeTarget; a kernel or kernel
 * description of version 1 still loads and runs. */
#define ACLSIM_KERNEL_ABI_VERSION 2U
/* Bytes of device printf text kept per block of one launch. */
#define ACLSIM_KERNEL_PRINT_BUFFER (64U * 1024U)
/* The suffix of a kernel's exported entry, when not the kernel's own name. */
#define ACLSIM_KERNEL_ENTRY_SUFFIX "__aclsim_entry"
/* The suffix of a kernel's exported aclsimKernelInfo. */
#define ACLSIM_KERNEL_INFO_SUFFIX "__aclsim_info"
/* The name of a binary's exported device-global table. */
#define ACLSIM_DEVICE_GLOBALS_SYMBOL "aclsim_device_globals"

#ifdef __cplusplus
#define ACLSIM_KERNEL extern "C" __attribute__((visibility("default")))
#else
#define ACLSIM_KERNEL __attribute__((visibility("default")))
#endif

typedef struct aclsimKernelContext aclsimKernelContext;

/* What a block of a launch knows; valid during its call only. */
struct aclsimKernelContext {
  uint32_t abiVersion; /* ACLSIM_KERNEL_ABI_VERSION */
  uint32_t blockIdx;   /* 0 .. blockNum - 1 (plus the launch's block offset) */
  uint32_t blockNum;   /* the launch's block count */
  int32_t deviceId;    /* the device the launch runs on */
  /* Raises a device exception in this block; 0 means
   * ACL_ERROR_RT_AICORE_EXCEPTION (507015). Returns to the kernel, which
   * should return. */
  void (*raiseException)(const aclsimKernelContext *ctx, uint32_t errorCode);
  /* Appends length bytes of text to the block's print buffer. */
  void (*print)(const aclsimKernelContext *ctx, const char *text,
                size_t length);
  void *runtime; /* the runtime's, opaque */
  /* Version 2 on (check abiVersion first). Where to write the size bytes at
   * device address dst: the returned pointer shows the same bytes, and
   * writes through it are recorded as writes to [dst, dst + size) without
   * the write-tracking fault a snapshot's incremental Backup arms on the
   * first store to each page (dst itself when nothing is armed). Valid for
   * this block's call only; the range must lie in one allocation. Kernels
   * that know what they write (operators, AscendC's stores to global
   * memory) ask once per range; plain stores through dst stay correct and
   * take the fault. */
  void *(*writeTarget)(const aclsimKernelContext *ctx, void *dst, size_t size);
};

/* A kernel: called once per block. */
typedef void (*aclsimKernelEntry)(const aclsimKernelContext *ctx, void *args);

/* One parameter of a kernel: its byte offset in the argument bytes and its
 * size. */
typedef struct aclsimKernelParam {
  uint32_t offset;
  uint32_t size;
} aclsimKernelParam;

/* A kernel's description. */
typedef struct aclsimKernelInfo {
  uint32_t abiVersion; /* ACLSIM_KERNEL_ABI_VERSION */
  uint32_t paramCount;
  const aclsimKernelParam *params;
} aclsimKernelInfo;

/* One device global of a binary. */
typedef struct aclsimDeviceGlobal {
  const char *name;    /* NULL ends the table */
  void **slot;         /* receives the global's device address */
  const void *initial; /* size bytes copied to the device at load */
  size_t size;
} aclsimDeviceGlobal;

#ifdef __cplusplus
}
#endif

#endif /* ASCENDCL_ACLSIM_ACLSIM_KERNEL_ABI_H_ */
