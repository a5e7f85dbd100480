/*
 * The simulated kernel ABI: how a kernel is written for the simulator.
 *
 * On the simulator a kernel binary (what aclrtBinaryLoadFromFile and
 * aclrtBinaryLoadFromData load) is a shared object for the host: an ELF file
 * the host's dynamic loader can open. Each kernel is an exported C function
 * of type aclsimKernelEntry. A launch of N blocks calls the function N times,
 * once per block, in parallel on the device's simulated cores (host threads);
 * every call gets a context naming its block and a pointer to the launch's
 * argument bytes. The next task of the stream starts when every block has
 * returned.
 *
 *   #include "aclsim/aclsim_kernel.h"
 *   typedef struct { float *x, *y, *z; uint32_t n; } VaddArgs;
 *   ACLSIM_KERNEL void vadd(const aclsimKernelContext *ctx, void *args) {
 *     const VaddArgs *a = (const VaddArgs *)args;
 *     uint32_t per = a->n / ctx->blockNum;
 *     for (uint32_t i = ctx->blockIdx * per; i < (ctx->blockIdx + 1) * per;
 * ++i) a->z[i] = a->x[i] + a->y[i];
 *   }
 *
 * Arguments. The argument bytes are those given to the launch
 * (aclrtLaunchKernel's argsData, an aclrtArgsHandle's parameters, host
 * arguments with their place-holders filled in), copied when the launch is
 * enqueued: the kernel's parameters laid out as the fields of a C struct, in
 * order, each at its natural alignment. Device pointers among them are
 * directly usable: simulated device memory (plain, mapped, managed) is host
 * memory at the device address.
 *
 * Exceptions. A kernel raises a device exception with raiseException and
 * then returns: the launch's task fails with that code (the first raised in
 * the launch wins), the stream's failure mode applies, and the exception
 * callbacks are told. A kernel that executes a trap instruction (SIGILL,
 * SIGTRAP) on a simulated core is contained the same way with
 * ACL_ERROR_RT_AICORE_TRAP_EXCEPTION (507016); the block ends there.
 *
 * Device printf. print appends text to the block's print buffer (capacity
 * ACLSIM_KERNEL_PRINT_BUFFER bytes per block; what does not fit is dropped
 * and counted). When the launch has finished, its text is written to the
 * process's stdout, block by block, before the stream's next task runs.
 *
 * Names. aclrtBinaryGetFunction(binary, "NAME") finds the exported
 * function NAME__aclsim_entry when there is one, else NAME. (A kernel written
 * with typed parameters, as AscendC kernels are, keeps its own name and gets
 * an entry of that name that unpacks the argument bytes and calls it.)
 *
 * Optional descriptions a binary may export, found by name:
 * - `const aclsimKernelInfo NAME__aclsim_info`: the parameters of kernel
 *   NAME (aclrtFunctionGetParamCount / ParamInfo, aclrtKernelArgs* checks,
 *   aclrtLaunchKernelWithArgsArray);
 * - `const aclsimDeviceGlobal aclsim_device_globals[]`, ended by an entry
 *   with a NULL name: the binary's device globals. At load the runtime
 *   places each in device memory, copies its initial bytes there and stores
 *   the device address in *slot; kernels reach the global through the slot.
 *   aclrtBinaryGetGlobal answers the device address and size, and a snapshot
 *   keeps the bytes.
 */
#ifndef ASCENDCL_ACLSIM_ACLSIM_KERNEL_H_
#define ASCENDCL_ACLSIM_ACLSIM_KERNEL_H_

#include <stddef.h>
#include <stdint.h>

#include "acl/acl_base.h"
#include "acl/acl_rt.h"

#ifdef __cplusplus
extern "C" {
#endif

#define ACLSIM_KERNEL_ABI_VERSION 1U
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

/* Registers a kernel compiled into the program itself (what a compiler's
 * `name<<<blocks, l2ctrl, stream>>>(args)` launch does on the simulator):
 * symbol is the host function that stands for the kernel (the key of
 * aclrtGetFuncBySymbol), name its name, info its parameters (may be NULL).
 * The handle is process-wide and launchable on every device; registering the
 * same symbol again answers the same handle. Registration is not a
 * resource-modifying call and works in every process state.
 * ACL_ERROR_INVALID_PARAM (100000) for a NULL symbol, name, entry or
 * funcHandle, or an info of another ABI version. */
ACL_FUNC_VISIBILITY aclError aclsimRegisterKernel(const void *symbol,
                                                  const char *name,
                                                  aclsimKernelEntry entry,
                                                  const aclsimKernelInfo *info,
                                                  aclrtFuncHandle *funcHandle);

#ifdef __cplusplus
}
#endif

#endif /* ASCENDCL_ACLSIM_ACLSIM_KERNEL_H_ */
