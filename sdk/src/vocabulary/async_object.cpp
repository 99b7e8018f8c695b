#include "massive/detail/async_object.hpp"

#include <boost/asio/strand.hpp>

namespace massive::detail {

async_object::async_object(const boost::asio::any_io_executor& executor)
    : executor_(boost::asio::make_strand(executor)) {}

}  // namespace massive::detail
