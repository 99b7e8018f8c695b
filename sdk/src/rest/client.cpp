#include "massive/client.hpp"

#include "massive/cpu_support.hpp"

namespace massive {

client::client(executor_type executor, massive::client_config opts)
    // The CPU is checked before any code built for MASSIVE_SIMD_ARCH can run.
    : pool_((detail::require_cpu_support(), make_page_pool({.region_bytes = opts.max_page_bytes}))),
      decoders_(std::make_shared<detail::decoder_cache>(opts.decoding)),
      http_(std::make_shared<detail::http_client>(std::move(executor), std::move(opts))) {}

}  // namespace massive
