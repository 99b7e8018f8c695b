#include "massive/client.hpp"

namespace massive {

client::client(executor_type executor, massive::options opts)
    : pool_(make_page_pool()),
      decoders_(std::make_shared<detail::decoder_cache>(opts.decoding)),
      http_(std::make_shared<http_client>(std::move(executor), std::move(opts))) {}

}  // namespace massive
