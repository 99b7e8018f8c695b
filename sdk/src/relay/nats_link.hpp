// The thin driver over the NATS C client (nats.c): owning handles, one connection with its
// JetStream context, the stream and the key-value buckets the relay uses, and error texts from
// which every credential is scrubbed. Every function here that talks to the server blocks: the
// relay and the consumer call them on their private worker thread (offload.hpp), never on the
// user's executor. nats.c runs its own threads (reader, flusher, publish acknowledgements).
#pragma once

#include <nats/nats.h>

#include <chrono>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "massive/relay/nats_config.hpp"
#include "massive/stream/topic.hpp"

namespace massive::relay::detail {

struct nats_deleter {
  void operator()(natsConnection* c) const noexcept { natsConnection_Destroy(c); }
  void operator()(jsCtx* j) const noexcept { jsCtx_Destroy(j); }
  void operator()(kvStore* k) const noexcept { kvStore_Destroy(k); }
  void operator()(natsSubscription* s) const noexcept { natsSubscription_Destroy(s); }
  void operator()(natsMsg* m) const noexcept { natsMsg_Destroy(m); }
  void operator()(kvEntry* e) const noexcept { kvEntry_Destroy(e); }
  void operator()(kvWatcher* w) const noexcept { kvWatcher_Destroy(w); }
};
template <class T>
using nats_ptr = std::unique_ptr<T, nats_deleter>;

/// `text` with every credential of `config` (and any URL's user information) replaced by "***".
std::string scrubbed(std::string text, const nats_config& config);
/// Throws relay_error(nats_failed): "<what>: <nats status text> (<nats.c's last error>)", scrubbed.
[[noreturn]] void throw_nats(std::string_view what, natsStatus s, const nats_config& config);

/// What the JetStream stream of the relay keeps.
struct stream_settings {
  std::string name;                   ///< MASSIVE_STOCKS
  std::vector<std::string> subjects;  ///< massive.stocks.>
  std::chrono::seconds max_age{0};    ///< 0: no age limit
  std::int64_t max_bytes = -1;        ///< -1: no size limit
  bool memory = false;                ///< memory rather than file storage
  int replicas = 1;                   ///< 3 in a three-node cluster
};

/// The outcome of a compare-and-set write.
enum class write_outcome { written, refused, failed };

/// One NATS connection, its JetStream context and the buckets opened on it.
class nats_link {
 public:
  /// Connects (blocking, bounded by connect_timeout per server). `name` is the connection's
  /// name on the server (monitoring). `js_options` may set the asynchronous publishing's
  /// handlers. Throws relay_error(nats_failed).
  nats_link(const nats_config& config, const std::string& name, jsOptions* js_options = nullptr);

  natsConnection* connection() const noexcept { return connection_.get(); }
  jsCtx* jetstream() const noexcept { return js_.get(); }
  const nats_config& config() const noexcept { return config_; }

  /// Creates the stream, or leaves an existing one as it is. Throws relay_error(nats_failed).
  void ensure_stream(const stream_settings& s);
  /// Opens a key-value bucket, created when missing with entries living `ttl`. Throws.
  nats_ptr<kvStore> bucket(const std::string& name, std::chrono::milliseconds ttl, int replicas);

  /// kvStore_Create: written (with its revision), refused (the key exists) or failed.
  write_outcome create(kvStore* kv, const std::string& key, std::string_view value,
                       std::uint64_t& revision);
  /// kvStore_Update with the expected revision `last`.
  write_outcome update(kvStore* kv, const std::string& key, std::string_view value,
                       std::uint64_t last, std::uint64_t& revision);
  /// The values of every live key under `prefix` (keys "<prefix>.*"). Empty on failure.
  std::vector<std::string> values(kvStore* kv, const std::string& prefix);

 private:
  nats_config config_;
  nats_ptr<natsConnection> connection_;
  nats_ptr<jsCtx> js_;
};

}  // namespace massive::relay::detail
