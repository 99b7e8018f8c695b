// The boost::system category of one of the SDK's error enumerations (massive::errc,
// massive::proxy_errc): a name, and a message for each value from a function over the enum.
#pragma once

#include <boost/system/error_category.hpp>

#include <string>

namespace massive::detail {

/// The category whose name() is `name` and whose message(v) is `message_of(Errc(v))`; a value
/// no enumerator has is the function's to answer (its switch's fallback).
template <class Errc>
class errc_category final : public boost::system::error_category {
 public:
  /// The message of a value: a string literal, never null.
  using message_function = const char* (*)(Errc) noexcept;

  constexpr errc_category(const char* name, message_function message_of) noexcept
      : name_(name), message_of_(message_of) {}

  const char* name() const noexcept override { return name_; }
  std::string message(int value) const override { return message_of_(static_cast<Errc>(value)); }

 private:
  const char* name_;
  message_function message_of_;
};

}  // namespace massive::detail
