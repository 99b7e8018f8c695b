#include "massive/client.hpp"

namespace massive {

client::client(executor_type executor, massive::options opts)
    : pool_(make_page_pool()), http_(std::move(executor), std::move(opts)) {}

}  // namespace massive
