// The transport's face to the rest of the SDK (massive/detail/http_client.hpp): the client
// owns a transport::client_state; each GET is one transport call.
#include "massive/detail/http_client.hpp"

#include "call_driver.hpp"
#include "call_state.hpp"

namespace massive::detail {

http_client::http_client(executor_type executor, client_config opts)
    : state_(std::make_shared<client_state>(std::move(executor), std::move(opts))) {}

http_client::~http_client() { state_->pool.close_idle(); }

http_client::executor_type http_client::get_executor() const noexcept { return state_->executor; }

void start_get(const std::shared_ptr<client_state>& state, std::string_view target, target_kind kind,
               body_sink& sink, const call_options* call, get_handler handler,
               boost::asio::any_io_executor work) {
  transport::start_call(state, target, kind, sink, call, std::move(handler), std::move(work));
}

}  // namespace massive::detail
