#include "relay/nats_link.hpp"

#include "massive/relay/error.hpp"
#include "relay/comma_list.hpp"

namespace massive::relay::detail {

namespace {

void replace_all(std::string& text, std::string_view secret) {
  if (secret.empty()) return;
  for (auto at = text.find(secret); at != std::string::npos; at = text.find(secret, at + 3)) {
    text.replace(at, secret.size(), "***");
  }
}

/// The last error nats.c recorded on this thread, or "".
std::string last_error() {
  natsStatus ignored = NATS_OK;
  const char* text = nats_GetLastError(&ignored);
  return text == nullptr ? std::string() : std::string(text);
}

struct options_deleter {
  void operator()(natsOptions* o) const noexcept { natsOptions_Destroy(o); }
};

}  // namespace

std::string scrubbed(std::string text, const nats_config& config) {
  replace_all(text, config.password);
  replace_all(text, config.token);
  replace_all(text, config.user);
  // A URL's user information: scheme://<userinfo>@host
  for (auto scheme = text.find("://"); scheme != std::string::npos;
       scheme = text.find("://", scheme + 3)) {
    const auto start = scheme + 3;
    const auto end = text.find_first_of("/ ,\"'", start);
    const auto at = text.rfind('@', end == std::string::npos ? text.size() : end);
    if (at != std::string::npos && at >= start) text.replace(start, at - start, "***");
  }
  return text;
}

void throw_nats(std::string_view what, natsStatus s, const nats_config& config) {
  std::string text = std::string(what) + ": " + natsStatus_GetText(s);
  if (const std::string detail = last_error(); !detail.empty()) text += " (" + detail + ")";
  throw relay_error(relay_errc::nats_failed, scrubbed(std::move(text), config));
}

nats_link::nats_link(const nats_config& config, const std::string& name, jsOptions* js_options)
    : config_(config) {
  natsOptions* raw = nullptr;
  if (const natsStatus s = natsOptions_Create(&raw); s != NATS_OK)
    throw_nats("NATS options", s, config_);
  const std::unique_ptr<natsOptions, options_deleter> options(raw);
  std::vector<std::string> servers;  // NUL-terminated, for nats.c
  for (const std::string_view one : comma_items(config_.servers)) servers.emplace_back(one);
  if (servers.empty())
    throw relay_error(relay_errc::invalid_option, "nats_config.servers: no server");
  std::vector<const char*> urls;
  for (const std::string& s : servers) urls.push_back(s.c_str());
  natsStatus s = natsOptions_SetServers(raw, urls.data(), static_cast<int>(urls.size()));
  if (s == NATS_OK && !config_.user.empty())
    s = natsOptions_SetUserInfo(raw, config_.user.c_str(), config_.password.c_str());
  if (s == NATS_OK && !config_.token.empty()) s = natsOptions_SetToken(raw, config_.token.c_str());
  if (s == NATS_OK) s = natsOptions_SetTimeout(raw, config_.connect_timeout.count());
  if (s == NATS_OK) s = natsOptions_SetName(raw, name.c_str());
  // Reconnect without limit (the relay's clients outlive a NATS node's restart), quickly.
  if (s == NATS_OK) s = natsOptions_SetMaxReconnect(raw, -1);
  if (s == NATS_OK) s = natsOptions_SetReconnectWait(raw, 100);
  if (s != NATS_OK) throw_nats("NATS options", s, config_);
  natsConnection* connection = nullptr;
  if (s = natsConnection_Connect(&connection, raw); s != NATS_OK)
    throw_nats("connecting to NATS at " + config_.servers, s, config_);
  connection_.reset(connection);
  jsOptions defaults;
  if (js_options == nullptr) {
    jsOptions_Init(&defaults);
    js_options = &defaults;
  }
  js_options->Wait = config_.request_timeout.count();
  jsCtx* js = nullptr;
  if (s = natsConnection_JetStream(&js, connection, js_options); s != NATS_OK)
    throw_nats("JetStream", s, config_);
  js_.reset(js);
}

void nats_link::ensure_stream(const stream_settings& settings) {
  jsStreamConfig c;
  jsStreamConfig_Init(&c);
  c.Name = settings.name.c_str();
  std::vector<const char*> subjects;
  for (const std::string& s : settings.subjects) subjects.push_back(s.c_str());
  c.Subjects = subjects.data();
  c.SubjectsLen = static_cast<int>(subjects.size());
  c.MaxAge = std::chrono::duration_cast<std::chrono::nanoseconds>(settings.max_age).count();
  c.MaxBytes = settings.max_bytes;
  c.Storage = settings.memory ? js_MemoryStorage : js_FileStorage;
  c.Replicas = settings.replicas;
  jsErrCode code = static_cast<jsErrCode>(0);
  const natsStatus s = js_AddStream(nullptr, js_.get(), &c, nullptr, &code);
  // An existing stream with another configuration is left as its operator made it.
  if (s != NATS_OK && code != JSStreamNameExistErr)
    throw_nats("creating stream " + settings.name, s, config_);
}

nats_ptr<kvStore> nats_link::bucket(const std::string& name, std::chrono::milliseconds ttl,
                                    int replicas) {
  kvStore* kv = nullptr;
  natsStatus s = js_KeyValue(&kv, js_.get(), name.c_str());
  if (s == NATS_NOT_FOUND) {
    kvConfig c;
    kvConfig_Init(&c);
    c.Bucket = name.c_str();
    c.History = 1;
    c.TTL = std::chrono::duration_cast<std::chrono::nanoseconds>(ttl)
                .count();  // nats.c 3.4: nanoseconds
    c.Replicas = replicas;
    s = js_CreateKeyValue(&kv, js_.get(), &c);
  }
  if (s != NATS_OK) throw_nats("opening key-value bucket " + name, s, config_);
  return nats_ptr<kvStore>(kv);
}

namespace {

write_outcome outcome_of(natsStatus s) {
  if (s == NATS_OK) return write_outcome::written;
  // The server's "wrong last sequence" (JSStreamWrongLastSequenceErr): the key exists, or has
  // another revision. nats.c reports it as NATS_ERR with that text.
  if (s == NATS_ERR && last_error().find("wrong last sequence") != std::string::npos)
    return write_outcome::refused;
  return write_outcome::failed;
}

}  // namespace

write_outcome nats_link::create(kvStore* kv, const std::string& key, std::string_view value,
                                std::uint64_t& revision) {
  return outcome_of(
      kvStore_Create(&revision, kv, key.c_str(), value.data(), static_cast<int>(value.size())));
}

write_outcome nats_link::update(kvStore* kv, const std::string& key, std::string_view value,
                                std::uint64_t last, std::uint64_t& revision) {
  return outcome_of(kvStore_Update(&revision, kv, key.c_str(), value.data(),
                                   static_cast<int>(value.size()), last));
}

std::vector<std::string> nats_link::values(kvStore* kv, const std::string& prefix) {
  std::vector<std::string> out;
  kvWatchOptions o;
  kvWatchOptions_Init(&o);
  o.IgnoreDeletes = true;
  kvWatcher* raw = nullptr;
  if (kvStore_Watch(&raw, kv, (prefix + ".*").c_str(), &o) != NATS_OK) return out;
  const nats_ptr<kvWatcher> watcher(raw);
  for (;;) {
    kvEntry* entry = nullptr;
    // A null entry ends the initial values.
    if (kvWatcher_Next(&entry, raw, config_.request_timeout.count()) != NATS_OK || entry == nullptr)
      break;
    const nats_ptr<kvEntry> owned(entry);
    out.emplace_back(static_cast<const char*>(kvEntry_Value(entry)),
                     static_cast<std::size_t>(kvEntry_ValueLen(entry)));
  }
  return out;
}

}  // namespace massive::relay::detail
