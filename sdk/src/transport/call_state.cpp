// The client's state and its recycled per-call controls; the errors of an aborted call.
#include "call_state.hpp"

#include "massive/proxy_error.hpp"

namespace massive::transport {

control_ref::control_ref(call_control* c) noexcept : c_(c) {
  if (c_ != nullptr) c_->refs.fetch_add(1, std::memory_order_relaxed);
}

control_ref::~control_ref() {
  if (c_ != nullptr && c_->refs.fetch_sub(1, std::memory_order_acq_rel) == 1) c_->owner.recycle(c_);
}

std::string millis(std::chrono::milliseconds d) { return std::to_string(d.count()) + " ms"; }

std::exception_ptr deadline_error(const call_control& ctl) {
  return std::make_exception_ptr(
      transport_error(errc::deadline_exceeded, "request did not complete within " + millis(ctl.timeout)));
}

std::exception_ptr aborted_error(const client_state& st, const call_control& ctl) {
  switch (ctl.why) {
    case abort_reason::deadline: return deadline_error(ctl);
    case abort_reason::connect_timeout:
      if (const auto& proxy = st.cfg.proxy) {
        return std::make_exception_ptr(proxy_error(
            proxy_errc::failed, 0, proxy->name,
            "no tunnel through proxy " + proxy->name + " to " + st.cfg.host_header + " within " +
                millis(st.cfg.opts.connect_timeout)));
      }
      return std::make_exception_ptr(transport_error(
          errc::connect_failed, "no connection to " + st.cfg.host_header + " within " +
                                    millis(st.cfg.opts.connect_timeout)));
    case abort_reason::cancelled:
      return std::make_exception_ptr(transport_error(errc::cancelled, "request cancelled"));
    case abort_reason::none: break;
  }
  return nullptr;
}

[[noreturn]] void fail(errc code, const std::string& what) { throw transport_error(code, what); }

}  // namespace massive::transport
