/*
 * Part of kernel_operator.h of the ascendcl simulator (include that header,
 * not this one): the simulated kernel ABI for typed kernels. Entry<&kernel>
 * unpacks a launch's argument bytes into the kernel's parameters and calls
 * it on the block's context; kKernelInfo<&kernel> describes the parameters;
 * Launcher<&kernel> registers the kernel once and launches it; and
 * ACLSIM_ASCENDC_EXPORT_KERNEL exports a kernel from a kernel binary.
 */
#ifndef ASCENDCL_ASCENDC_SIM_KERNEL_OPERATOR_SIM_ABI_H_
#define ASCENDCL_ASCENDC_SIM_KERNEL_OPERATOR_SIM_ABI_H_

#ifndef ASCENDCL_ASCENDC_SIM_KERNEL_OPERATOR_H_
#error "include kernel_operator.h, not kernel_operator_sim_abi.h"
#endif

namespace AscendC {

// --- The simulated kernel ABI for typed kernels -----------------------------
namespace Sim {

// The parameters of a kernel function type.
template <typename Fn>
struct KernelSignature;
template <typename... A>
struct KernelSignature<void (*)(A...)> {
  using Params = std::tuple<std::decay_t<A>...>;
};
template <typename... A>
struct KernelSignature<void (*)(A...) noexcept> {
  using Params = std::tuple<std::decay_t<A>...>;
};

// The C-struct layout of a parameter list: each at its natural alignment,
// in order; the size rounded up to the largest alignment, as sizeof would.
template <typename Tuple>
struct ArgLayout;
template <typename... A>
struct ArgLayout<std::tuple<A...>> {
  static constexpr size_t kCount = sizeof...(A);
  static constexpr std::array<size_t, kCount + 1> ComputeOffsets() {
    const size_t sizes[] = {sizeof(A)..., 0};
    const size_t aligns[] = {alignof(A)..., 1};
    std::array<size_t, kCount + 1> out{};  // out[kCount]: the struct's size
    size_t offset = 0;
    size_t largest = 1;
    for (size_t i = 0; i < kCount; ++i) {
      offset = (offset + aligns[i] - 1) / aligns[i] * aligns[i];
      out[i] = offset;
      offset += sizes[i];
      if (aligns[i] > largest) largest = aligns[i];
    }
    out[kCount] = (offset + largest - 1) / largest * largest;
    return out;
  }
  static constexpr std::array<size_t, kCount + 1> kOffsets = ComputeOffsets();
  static constexpr size_t kSize = kOffsets[kCount];
  static constexpr size_t kAlign = std::max({alignof(A)..., alignof(char)});

  static constexpr std::array<aclsimKernelParam, kCount> Params() {
    const size_t sizes[] = {sizeof(A)..., 0};
    std::array<aclsimKernelParam, kCount> out{};
    for (size_t i = 0; i < kCount; ++i) {
      out[i].offset = static_cast<uint32_t>(kOffsets[i]);
      out[i].size = static_cast<uint32_t>(sizes[i]);
    }
    return out;
  }
  static_assert((std::is_trivially_copyable<A>::value && ...),
                "kernel parameters must be trivially copyable");
};

template <auto F>
using KernelLayout = ArgLayout<typename KernelSignature<decltype(F)>::Params>;

template <auto F>
struct ACLSIM_ASCENDC_PRIVATE KernelParamTable {
  static constexpr std::array<aclsimKernelParam, KernelLayout<F>::kCount>
      kParams = KernelLayout<F>::Params();
};

// The description of kernel F's parameters (aclsimKernelInfo of the ABI).
template <auto F>
ACLSIM_ASCENDC_PRIVATE inline constexpr aclsimKernelInfo kKernelInfo = {
    ACLSIM_KERNEL_ABI_VERSION, static_cast<uint32_t>(KernelLayout<F>::kCount),
    KernelLayout<F>::kCount == 0 ? nullptr
                                 : KernelParamTable<F>::kParams.data()};

template <typename T>
inline T ReadArg(const unsigned char *bytes) {
  T value;
  std::memcpy(static_cast<void *>(&value), bytes, sizeof(T));
  return value;
}

template <auto F, typename... A, size_t... I>
inline void CallWithArgs(const unsigned char *bytes, std::tuple<A...> *,
                         std::index_sequence<I...>) {
  constexpr auto &offsets = ArgLayout<std::tuple<A...>>::kOffsets;
  (void)bytes;
  (void)offsets;
  F(ReadArg<A>(bytes + offsets[I])...);
}

// Makes ctx the thread's current block for a scope.
class ContextScope {
 public:
  explicit ContextScope(const aclsimKernelContext *ctx)
      : savedContext_(currentContext),
        savedGrant_(writeGrant),
        savedIdx_(::block_idx),
        savedNum_(::block_num) {
    currentContext = ctx;
    writeGrant = WriteGrant{};  // granted to this block only
    ::block_idx = ctx->blockIdx;
    ::block_num = ctx->blockNum;
  }
  ~ContextScope() {
    currentContext = savedContext_;
    writeGrant = savedGrant_;
    ::block_idx = savedIdx_;
    ::block_num = savedNum_;
  }
  ContextScope(const ContextScope &) = delete;
  ContextScope &operator=(const ContextScope &) = delete;

 private:
  const aclsimKernelContext *savedContext_;
  WriteGrant savedGrant_;
  int64_t savedIdx_;
  int64_t savedNum_;
};

// The ABI entry of typed kernel F: unpacks the argument bytes, runs F as the
// context's block; a trap or a failed check ends the block with its device
// exception, and any other exception leaving F is 507015.
template <auto F>
void Entry(const aclsimKernelContext *ctx, void *args) {
  using Params = typename KernelSignature<decltype(F)>::Params;
  ContextScope scope(ctx);
  try {
    CallWithArgs<F>(static_cast<const unsigned char *>(args),
                    static_cast<Params *>(nullptr),
                    std::make_index_sequence<std::tuple_size<Params>::value>());
  } catch (const BlockStop &stop) {
    if (stop.code != 0) ctx->raiseException(ctx, stop.code);
  } catch (abi::__forced_unwind &) {
    throw;
  } catch (const std::exception &e) {
    std::fprintf(stderr,
                 "[ascendc sim] block %u: exception from the kernel: %s\n",
                 static_cast<unsigned>(ctx->blockIdx), e.what());
    ctx->raiseException(ctx, kAicoreException);
  } catch (...) {
    std::fprintf(stderr, "[ascendc sim] block %u: exception from the kernel\n",
                 static_cast<unsigned>(ctx->blockIdx));
    ctx->raiseException(ctx, kAicoreException);
  }
}

// Writes args, converted to the parameter types, into the C-struct layout.
template <typename... A, typename... U, size_t... I>
inline void PackArgs(unsigned char *bytes, std::tuple<A...> *,
                     std::index_sequence<I...>, U &&...args) {
  constexpr auto &offsets = ArgLayout<std::tuple<A...>>::kOffsets;
  (void)bytes;
  (void)offsets;
  // Copy-initialisation: the conversions a call of the kernel would make.
  const std::tuple<A...> converted(std::forward<U>(args)...);
  (void)converted;
  (std::memcpy(bytes + offsets[I],
               static_cast<const void *>(&std::get<I>(converted)), sizeof(A)),
   ...);
}

// Kernel F registered under its symbol and name, once per kernel library:
// the handle, or the registration's error code.
struct Registration {
  aclrtFuncHandle func;
  aclError ret;
};
template <auto F>
ACLSIM_ASCENDC_PRIVATE inline const Registration &RegisteredKernel(
    const char *name) {
  static const Registration registration = [name]() {
    Registration r{nullptr, ACL_SUCCESS};
    r.ret = aclsimRegisterKernel(reinterpret_cast<const void *>(F), name,
                                 &Entry<F>, &kKernelInfo<F>, &r.func);
    if (r.ret != ACL_SUCCESS) {
      std::fprintf(stderr,
                   "[ascendc sim] registering kernel %s failed: error %d\n",
                   name, static_cast<int>(r.ret));
    }
    return r;
  }();
  return registration;
}

// What `kernel<<<blocks, l2ctrl, stream>>>(args...)` becomes: registers the
// kernel once and launches it on the stream with the argument bytes in host
// memory (aclrtLaunchKernelWithHostArgs: the runtime copies them at enqueue;
// aclrtLaunchKernel would take them in device memory). Answers the launch's
// code, or the registration's; a failure is also printed on stderr.
template <auto F>
class Launcher {
 public:
  Launcher(const char *name, uint32_t blockDim, void *l2ctrl, void *stream)
      : name_(name), blockDim_(blockDim), stream_(stream) {
    (void)l2ctrl;
  }

  template <typename... U>
  aclError operator()(U &&...args) const {
    using Params = typename KernelSignature<decltype(F)>::Params;
    using Layout = ArgLayout<Params>;
    static_assert(sizeof...(U) == Layout::kCount,
                  "the launch passes another number of arguments than the "
                  "kernel has parameters");
    const Registration &registration = RegisteredKernel<F>(name_);
    if (registration.ret != ACL_SUCCESS) return registration.ret;
    alignas(Layout::kAlign) unsigned char
        bytes[Layout::kSize > 0 ? Layout::kSize : 1] = {};
    PackArgs(bytes, static_cast<Params *>(nullptr),
             std::make_index_sequence<Layout::kCount>(),
             std::forward<U>(args)...);
    const aclError ret = aclrtLaunchKernelWithHostArgs(
        registration.func, blockDim_, static_cast<aclrtStream>(stream_),
        nullptr, Layout::kSize > 0 ? bytes : nullptr, Layout::kSize, nullptr,
        0);
    if (ret != ACL_SUCCESS) {
      std::fprintf(stderr,
                   "[ascendc sim] launch of kernel %s (%u blocks) failed: "
                   "error %d\n",
                   name_, static_cast<unsigned>(blockDim_),
                   static_cast<int>(ret));
    }
    return ret;
  }

 private:
  const char *name_;
  uint32_t blockDim_;
  void *stream_;
};

}  // namespace Sim
}  // namespace AscendC

// The exported ABI symbols of kernel NAME in a kernel binary
// (ascendc_fatbin_library): NAME__aclsim_entry and NAME__aclsim_info.
#define ACLSIM_ASCENDC_EXPORT_KERNEL(NAME)                                     \
  extern "C" __attribute__((visibility("default"))) void NAME##__aclsim_entry( \
      const aclsimKernelContext *ctx, void *args) {                            \
    ::AscendC::Sim::Entry<&NAME>(ctx, args);                                   \
  }                                                                            \
  extern "C" __attribute__((visibility("default")))                            \
  const aclsimKernelInfo NAME##__aclsim_info =                                 \
      ::AscendC::Sim::kKernelInfo<&NAME>;

#endif  // ASCENDCL_ASCENDC_SIM_KERNEL_OPERATOR_SIM_ABI_H_
