#include "files/credentials.hpp"

#include "massive/files/error.hpp"

namespace massive::files::detail {

s3_keys resolve_keys(const std::string& access_key, const std::string& secret_key,
                     const std::function<const char*(const char*)>& getenv) {
  if (!access_key.empty() || !secret_key.empty()) {
    if (access_key.empty())
      throw files_error(files_errc::no_credentials,
                        "files_config::secret_key is set, access_key is empty");
    if (secret_key.empty())
      throw files_error(files_errc::no_credentials,
                        "files_config::access_key is set, secret_key is empty");
    return {access_key, secret_key};
  }
  struct family {
    const char* access;
    const char* secret;
  };
  for (const family f : {family{"MASSIVE_S3_ACCESS_KEY", "MASSIVE_S3_SECRET_KEY"},
                         family{"AWS_ACCESS_KEY_ID", "AWS_SECRET_ACCESS_KEY"}}) {
    const char* a = getenv(f.access);
    const char* s = getenv(f.secret);
    const bool has_a = a != nullptr && *a != '\0';
    const bool has_s = s != nullptr && *s != '\0';
    if (has_a && has_s) return {a, s};
    if (has_a != has_s) {
      throw files_error(files_errc::no_credentials, std::string(has_a ? f.access : f.secret) +
                                                        " is set but " +
                                                        (has_a ? f.secret : f.access) + " is not");
    }
  }
  throw files_error(
      files_errc::no_credentials,
      "no S3 keys: set files_config::access_key and secret_key, or MASSIVE_S3_ACCESS_KEY and "
      "MASSIVE_S3_SECRET_KEY (or AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY); they are the "
      "flat-file "
      "keys of the dashboard, not the REST API key");
}

}  // namespace massive::files::detail
