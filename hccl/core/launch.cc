#include "hccl/core/launch.h"

#include <array>
#include <cstdint>
#include <mutex>
#include <string>

#include "aclsim/aclsim_kernel.h"
#include "hccl/core/comm.h"
#include "hccl/core/log.h"

namespace ascend::hccl {
namespace {

// The stream code of a failure recorded earlier on the communicator.
int32_t AclCodeOf(int hccl) {
  switch (hccl) {
    case HCCL_E_TIMEOUT:
      return ACL_ERROR_RT_WAIT_TIMEOUT;
    case HCCL_E_REMOTE:
      return ACL_ERROR_RT_SUSPECT_REMOTE_ERROR;
    default:
      return ACL_ERROR_RT_INTERNAL_ERROR;
  }
}

void Raise(const aclsimKernelContext* ctx, const char* name, int32_t code,
           const std::string& why) {
  LogError(name, why);
  ctx->raiseException(ctx, static_cast<uint32_t>(code));
}

// What every operation's kernel does (one block).
void RunTask(const aclsimKernelContext* ctx, void* args) {
  const char* name = "Hccl";
  try {
    OpView op;
    if (!OpView::Parse(args, SIZE_MAX, &op)) {
      Raise(ctx, name, ACL_ERROR_RT_INTERNAL_ERROR, "malformed task arguments");
      return;
    }
    name = KindName(op.kind());
    std::shared_ptr<Comm> c = CommTable::Get().FindById(op.h->comm_id);
    if (c == nullptr) {
      Raise(ctx, name, ACL_ERROR_RT_INTERNAL_ERROR,
            "the communicator was destroyed before the task ran");
      return;
    }
    Outcome out;
    const int earlier = c->async_error.load();
    if (c->suspended) {
      out = Outcome::Suspended("the communicator is suspended");
    } else if (earlier != HCCL_SUCCESS) {
      out = {static_cast<HcclResult>(earlier), AclCodeOf(earlier),
             "the communicator failed earlier (HcclGetCommAsyncError " +
                 std::to_string(earlier) + ")"};
    } else {
      c->running.fetch_add(1);
      out = c->transport->Run(op, c->settings.exec_timeout);
      c->running.fetch_sub(1);
    }
    if (!out.ok()) {
      c->Fail(out.hccl);
      Raise(ctx, name, out.acl,
            "rank " + std::to_string(c->rank) + " of " + c->name + ": " +
                out.why);
    }
  } catch (...) {
    Raise(ctx, name, ACL_ERROR_RT_INTERNAL_ERROR,
          "out of host memory or an internal error");
  }
}

template <OpKind K>
void Entry(const aclsimKernelContext* ctx, void* args) {
  RunTask(ctx, args);
}

using Entries =
    std::array<aclsimKernelEntry, static_cast<size_t>(OpKind::kCount)>;

template <size_t... I>
constexpr Entries MakeEntries(std::index_sequence<I...>) {
  return {&Entry<static_cast<OpKind>(I)>...};
}

constexpr Entries kEntries = MakeEntries(
    std::make_index_sequence<static_cast<size_t>(OpKind::kCount)>());

// The runtime's handle of the kernel of `kind`, registered on first use.
aclrtFuncHandle Handle(OpKind kind, aclError* error) {
  static std::mutex mu;
  static std::array<aclrtFuncHandle, static_cast<size_t>(OpKind::kCount)>
      handles{};
  const size_t i = static_cast<size_t>(kind);
  std::lock_guard<std::mutex> lock(mu);
  if (handles[i] == nullptr) {
    *error =
        aclsimRegisterKernel(reinterpret_cast<const void*>(kEntries[i]),
                             KindName(kind), kEntries[i], nullptr, &handles[i]);
    if (*error != ACL_SUCCESS) handles[i] = nullptr;
  }
  return handles[i];
}

}  // namespace

HcclResult Submit(const char* api, const std::vector<uint8_t>& bytes,
                  aclrtStream stream) {
  OpView op;
  OpView::Parse(bytes.data(), bytes.size(), &op);
  aclError error = ACL_SUCCESS;
  aclrtFuncHandle f = Handle(op.kind(), &error);
  if (f == nullptr) {
    return Refuse(api, HCCL_E_RUNTIME,
                  "the runtime refused to register the operation's kernel "
                  "(error " +
                      std::to_string(error) + ")");
  }
  const aclError ret = aclrtLaunchKernelWithHostArgs(
      f, 1, stream, nullptr, const_cast<uint8_t*>(bytes.data()), bytes.size(),
      nullptr, 0);
  if (ret == ACL_SUCCESS) return HCCL_SUCCESS;
  const bool bad_stream =
      ret == ACL_ERROR_INVALID_PARAM || ret == ACL_ERROR_RT_PARAM_INVALID ||
      ret == ACL_ERROR_RT_STREAM_CONTEXT || ret == ACL_ERROR_RT_CONTEXT_NULL;
  return Refuse(api, bad_stream ? HCCL_E_PARA : HCCL_E_RUNTIME,
                "the runtime refused the task on the stream (error " +
                    std::to_string(ret) + ")");
}

}  // namespace ascend::hccl
