// Where the S3 keys come from (sans-I/O: the environment is read through a function).
#pragma once

#include <functional>
#include <string>

namespace massive::files::detail {

struct s3_keys {
  std::string access_key;
  std::string secret_key;
};

/// The keys given, else MASSIVE_S3_ACCESS_KEY and MASSIVE_S3_SECRET_KEY, else AWS_ACCESS_KEY_ID
/// and AWS_SECRET_ACCESS_KEY: a pair always from one place. Throws files_error(no_credentials)
/// naming what is missing (never a value).
s3_keys resolve_keys(const std::string& access_key, const std::string& secret_key,
                     const std::function<const char*(const char*)>& getenv);

}  // namespace massive::files::detail
