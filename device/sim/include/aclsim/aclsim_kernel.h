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
#include "aclsim/aclsim_kernel_abi.h"

#ifdef __cplusplus
extern "C" {
#endif

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
