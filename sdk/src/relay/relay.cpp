// The relay's driver: every decision is a machine's (lease_fsm, publish_fsm, demand_fsm); this
// file performs them. Three coroutines on the relay's strand: the lease loop (create, renew,
// release through the lease's own thread), the demand loop (reads the bucket through the worker
// thread, changes the upstream's subscriptions) and, while the lease is held, the upstream loop
// (reads batches, publishes them); a watchdog timer closes the upstream at the lease's deadline
// when a renewal is late.
#include "massive/relay/relay.hpp"

#include <unistd.h>

#include <array>
#include <atomic>
#include <boost/asio.hpp>
#include <random>

#include "massive/relay/error.hpp"
#include "massive/relay/subject.hpp"
#include "massive/stream/error.hpp"
#include "relay/comma_list.hpp"
#include "relay/demand_fsm.hpp"
#include "relay/lease_fsm.hpp"
#include "relay/nats_link.hpp"
#include "relay/offload.hpp"
#include "relay/publish_plan.hpp"
#include "relay/validation.hpp"

namespace massive::relay {

namespace asio = boost::asio;
using asio::use_awaitable;
using detail::lease_clock;

namespace {

/// Upstream topics from the comma-separated text a consumer put in the demand bucket.
std::vector<std::string> topics_of(std::string_view text) {
  std::vector<std::string> out;
  for (const std::string_view one : detail::comma_items(text)) {
    const auto dot = one.find('.');
    if (dot != std::string_view::npos && dot != 0 && dot + 1 < one.size()) out.emplace_back(one);
  }
  return out;
}

std::vector<stream::topic> as_topics(stream::market m, const std::vector<std::string>& texts) {
  std::vector<stream::topic> out;
  for (const std::string& t : texts) {
    const auto dot = t.find('.');
    out.emplace_back(m, std::string_view(t).substr(0, dot), std::string_view(t).substr(dot + 1));
  }
  return out;
}

std::string made_up_id() {
  char host[256] = {};
  if (gethostname(host, sizeof host - 1) != 0) host[0] = '\0';
  std::string id = std::string(host[0] != '\0' ? host : "relay") + "-" + std::to_string(getpid()) +
                   "-" + std::to_string(std::random_device{}() % 100'000);
  for (char& c : id) {
    if (!detail::key_byte(c)) c = '_';
  }
  return id;
}

}  // namespace

struct relay::impl : std::enable_shared_from_this<relay::impl> {
  impl(const asio::any_io_executor& strand_executor, relay_config c)
      : config(std::move(c)),
        strand(strand_executor),
        lease(config.lease_ttl),
        demand(config.topics, config.linger),
        lease_timer(strand),
        demand_timer(strand),
        watchdog(strand) {
    if (config.id.empty()) config.id = made_up_id();
    detail::require_key_token("relay_config.group", config.group);
    detail::require_key_token("relay_config.id", config.id);
    if (config.lease_ttl < std::chrono::milliseconds(100)) {
      throw relay_error(relay_errc::invalid_option, "relay_config.lease_ttl: at least 100 ms");
    }
    for (const std::string& t : config.topics) {
      (void)topic_filter(
          stream::topic(config.upstream.market, t.substr(0, t.find('.')),
                        t.find('.') == std::string::npos ? "" : t.substr(t.find('.') + 1)));
    }
    config.upstream.limits.keep_event_text = true;
    lease_key = config.group + "." + std::string(stream::market_path(config.upstream.market));
    for (std::size_t k = 0; k < stream::event_kind_count; ++k)
      ev_names[k] = stream::wire_ev(static_cast<stream::event_kind>(k));
  }

  ~impl() {
    // The threads first: no request may run on a link being destroyed.
    lease_worker.join();
    worker.join();
    lease_kv.reset();
    demand_kv.reset();
    link.reset();
  }

  void trace(std::string_view what, std::string_view detail) const {
    if (!config.trace) return;
    try {
      config.trace({what, detail});
    } catch (...) {  // a trace hook's failure is not the relay's
    }
  }

  static void on_ack_error(jsCtx*, jsPubAckErr* error, void* closure) {
    auto* self = static_cast<impl*>(closure);
    self->failed_acks.fetch_add(1, std::memory_order_relaxed);
    self->publish_failed.store(true, std::memory_order_release);
    (void)error;
  }

  asio::awaitable<void> run() {
    trace("nats", "connecting");
    jsOptions js;
    jsOptions_Init(&js);
    js.PublishAsync.MaxPending = static_cast<int64_t>(config.max_pending);
    js.PublishAsync.ErrHandler = &on_ack_error;
    js.PublishAsync.ErrHandlerClosure = this;
    js.PublishAsync.StallWait = config.nats.request_timeout.count();
    // Each publish's acknowledgement is awaited request_timeout at most: one lost with a NATS
    // node (the relay's server or the stream's leader killed) fails its message (the error
    // handler: publish_failed, a gap) instead of holding its place among max_pending for ever,
    // where enough of them (an election of seconds at thousands of publishes a second) would
    // stall every later publish (nats.c times an asynchronous publish out only with MaxWait).
    jsPubOptions_Init(&publish_options);
    publish_options.MaxWait = config.nats.request_timeout.count();
    const std::string name = "massive-relay " + config.id;
    link = co_await detail::offload(
        worker, [&] { return std::make_unique<detail::nats_link>(config.nats, name, &js); });
    co_await detail::offload(worker, [&] {
      const stream::market m = config.upstream.market;
      link->ensure_stream({.name = stream_name(m),
                           .subjects = {market_filter(m)},
                           .max_age = config.retention,
                           .max_bytes = config.max_bytes,
                           .memory = config.memory_storage,
                           .replicas = config.replicas});
      lease_kv =
          link->bucket(config.nats.bucket_prefix + "_lease", config.lease_ttl, config.replicas);
      demand_kv = link->bucket(config.nats.bucket_prefix + "_demand", std::chrono::seconds(30),
                               config.replicas);
    });
    trace("nats", "connected; stream " + stream_name(config.upstream.market));
    auto self = shared_from_this();
    asio::co_spawn(strand, demand_loop(self), asio::detached);
    asio::co_spawn(strand, watchdog_loop(self), asio::detached);
    co_await lease_loop();
    stopping = true;
    demand_timer.cancel();
    watchdog.cancel();
    close_upstream();
    co_await detail::offload(worker, [&] {
      jsPubOptions o;
      jsPubOptions_Init(&o);
      o.MaxWait = config.nats.request_timeout.count();
      js_PublishAsyncComplete(link->jetstream(), &o);
      natsConnection_Close(link->connection());
    });
    trace("nats", "closed");
    if (failure) std::rethrow_exception(failure);
  }

  void begin_stop() {
    if (stopping) return;
    stopping = true;
    lease_timer.cancel();
    demand_timer.cancel();
    watchdog.cancel();
  }

  // ---- the lease ----

  asio::awaitable<void> lease_loop() {
    using step = detail::lease_action::step;
    namespace lh = detail::lease_happened;
    detail::lease_action a = lease.resume(lh::start{lease_clock::now()});
    for (;;) {
      on_lease(a);
      if (stopping && (a.what == step::wait || a.what == step::create || a.what == step::update)) {
        a = lease.resume(lh::stop{});
        on_lease(a);
      }
      switch (a.what) {
        case step::create:
        case step::update: {
          const auto sent = lease_clock::now();
          std::uint64_t revision = 0;
          const bool create = a.what == step::create;
          const std::uint64_t last = a.revision;
          const detail::write_outcome o = co_await detail::offload(lease_worker, [&] {
            return create ? link->create(lease_kv.get(), lease_key, config.id, revision)
                          : link->update(lease_kv.get(), lease_key, config.id, last, revision);
          });
          const auto now = lease_clock::now();
          if (o == detail::write_outcome::written) {
            a = lease.resume(lh::written{revision, sent, now});
            watchdog.expires_at(lease.deadline());
          } else if (o == detail::write_outcome::refused) {
            a = lease.resume(lh::refused{now});
          } else {
            trace("lease", create ? "create failed" : "renewal failed");
            a = lease.resume(lh::failed{now});
          }
          break;
        }
        case step::release:
          co_await detail::offload(lease_worker,
                                   [&] { kvStore_Delete(lease_kv.get(), lease_key.c_str()); });
          trace("lease", "released");
          co_return;
        case step::idle:
          co_return;
        case step::wait:
          lease_timer.expires_at(a.until);
          co_await lease_timer.async_wait(asio::as_tuple(use_awaitable));
          a = lease.resume(lh::tick{lease_clock::now()});
          break;
      }
    }
  }

  void on_lease(const detail::lease_action& a) {
    if (a.acquired) {
      ++stats.acquisitions;
      stats.holding = true;
      trace("lease",
            "acquired " + lease_key + " at revision " + std::to_string(lease.acquired_revision()));
      apply(publishing.resume(detail::publish_happened::acquired{lease.acquired_revision()}));
    }
    if (a.lost) {
      if (!stopping) ++stats.losses;
      stats.holding = false;
      trace("lease", stopping ? "releasing" : "lost: stopped publishing");
      apply(publishing.resume(detail::publish_happened::lost{}));
    }
  }

  static asio::awaitable<void> watchdog_loop(std::shared_ptr<impl> self) {
    for (;;) {
      co_await self->watchdog.async_wait(asio::as_tuple(use_awaitable));
      if (self->stopping) co_return;
      if (self->publishing.active() && !self->lease.may_publish(lease_clock::now())) {
        self->trace("lease", "deadline passed before a renewal: stopped publishing");
        self->stats.holding = false;
        self->apply(self->publishing.resume(detail::publish_happened::lost{}));
      }
      if (self->watchdog.expiry() <= asio::steady_timer::clock_type::now()) {
        self->watchdog.expires_at(asio::steady_timer::time_point::max());
      }
    }
  }

  // ---- publishing ----

  void apply(const detail::publish_action& a) {
    if (a.control) publish_control(*a.control);
    if (a.close_upstream) close_upstream();
    if (a.open_upstream) open_upstream();
    if (a.release && !stopping) {
      failure = std::make_exception_ptr(
          relay_error(relay_errc::upstream_failed, a.control ? a.control->detail : ""));
      begin_stop();
    }
  }

  void publish_control(const detail::control_message& c) {
    trace("control", c.kind + ": " + c.detail);
    if (!lease.may_publish(lease_clock::now())) return;
    const std::string subject = control_subject(config.upstream.market, c.kind);
    const std::string body = detail::control_payload(config.id, publishing.epoch(), c.detail);
    publish(subject, body);
  }

  void publish(const std::string& subject, std::string_view body) {
    natsMsg* msg = nullptr;
    natsStatus s =
        natsMsg_Create(&msg, subject.c_str(), nullptr, body.data(), static_cast<int>(body.size()));
    if (s == NATS_OK) s = natsMsgHeader_Set(msg, "Massive-Epoch", publishing.epoch().c_str());
    if (s == NATS_OK) s = js_PublishMsgAsync(link->jetstream(), &msg, &publish_options);
    if (msg != nullptr) natsMsg_Destroy(msg);  // not taken by JetStream
    if (s != NATS_OK) {
      failed_acks.fetch_add(1, std::memory_order_relaxed);
      publish_failed.store(true, std::memory_order_release);
      return;
    }
    ++stats.messages;
  }

  void publish_batch(const stream::batch& b) {
    refs.clear();
    b.visit_with_text([&](const auto& event, std::string_view text) {
      using event_type = std::decay_t<decltype(event)>;
      if constexpr (!std::is_same_v<event_type, status_event>) {
        std::string_view ticker;
        if constexpr (requires { event.ticker; }) {
          ticker = event.ticker;
        } else if constexpr (requires { event.pair; }) {
          ticker = event.pair;
        }
        if (ticker.empty()) return;  // no subject can name it (never seen from the API)
        refs.push_back({ev_names[static_cast<std::size_t>(stream::event_traits<event_type>::kind)],
                        ticker, text});
      }
    });
    detail::plan_runs(refs, runs);
    for (const detail::message_run& r : runs) {
      const auto events = std::span<const detail::event_ref>(refs).subspan(r.first, r.count);
      event_subject(subject, config.upstream.market, events.front().ev, events.front().ticker);
      detail::write_payload(payload, events);
      publish(subject, payload);
      stats.events += r.count;
    }
  }

  // ---- the upstream ----

  void open_upstream() {
    upstream = std::make_shared<stream::client>(strand, config.upstream);
    const std::vector<std::string> held(demand.upstream().begin(), demand.upstream().end());
    if (!held.empty()) upstream->subscribe(as_topics(config.upstream.market, held));
    trace("upstream", "opening with " + std::to_string(held.size()) + " topics");
    asio::co_spawn(strand, upstream_loop(shared_from_this(), upstream), asio::detached);
  }

  void close_upstream() {
    if (!upstream) return;
    trace("upstream", "closing");
    std::exchange(upstream, nullptr)->close();
  }

  static asio::awaitable<void> upstream_loop(std::shared_ptr<impl> self,
                                             std::shared_ptr<stream::client> c) {
    for (;;) {
      try {
        const stream::batch b = co_await c->next();
        if (c != self->upstream) co_return;  // closed meanwhile: nothing read after it is published
        if (self->publish_failed.exchange(false, std::memory_order_acq_rel)) {
          self->apply(self->publishing.resume(detail::publish_happened::publish_failed{}));
        }
        const detail::publish_action a = self->publishing.resume(
            detail::publish_happened::batch{b.gap(), self->lease.may_publish(lease_clock::now())});
        self->apply(a);
        if (a.publish) self->publish_batch(b);
      } catch (const decode_error& e) {
        // One refused frame: the client reconnects on the next call and marks the gap.
        self->trace("upstream", std::string("a frame was refused: ") + e.what());
      } catch (const std::exception& e) {
        if (c != self->upstream) co_return;  // our own close
        self->trace("upstream", std::string("ended: ") + e.what());
        self->apply(self->publishing.resume(detail::publish_happened::upstream_failed{e.what()}));
        co_return;
      }
    }
  }

  // ---- demand ----

  static asio::awaitable<void> demand_loop(std::shared_ptr<impl> self) {
    const std::string prefix = self->lease_key;  // <group>.<market>
    while (!self->stopping) {
      const std::vector<std::string> values = co_await detail::offload(
          self->worker, [&] { return self->link->values(self->demand_kv.get(), prefix); });
      if (self->stopping) co_return;
      std::vector<std::vector<std::string>> consumers;
      for (const std::string& v : values) consumers.push_back(topics_of(v));
      self->on_demand(
          self->demand.resume(detail::demand_snapshot{consumers, detail::demand_clock::now()}));
      self->demand_timer.expires_after(self->config.demand_poll);
      co_await self->demand_timer.async_wait(asio::as_tuple(use_awaitable));
    }
  }

  void on_demand(const detail::demand_action& a) {
    if (a.subscribe.empty() && a.unsubscribe.empty()) return;
    std::string line;
    for (const std::string& t : a.subscribe) line += " +" + t;
    for (const std::string& t : a.unsubscribe) line += " -" + t;
    trace("demand", line.substr(1));
    if (!upstream) return;  // subscribed when the upstream opens
    // Subscribe first: X.* before X.<ticker> goes, so that no event falls between.
    if (!a.subscribe.empty()) upstream->subscribe(as_topics(config.upstream.market, a.subscribe));
    if (!a.unsubscribe.empty())
      upstream->unsubscribe(as_topics(config.upstream.market, a.unsubscribe));
  }

  relay_config config;
  asio::any_io_executor strand;
  std::unique_ptr<detail::nats_link> link;
  detail::nats_ptr<kvStore> lease_kv;
  detail::nats_ptr<kvStore> demand_kv;
  detail::lease_fsm lease;
  detail::publish_fsm publishing;
  detail::demand_fsm demand;
  asio::steady_timer lease_timer;
  asio::steady_timer demand_timer;
  asio::steady_timer watchdog;
  std::shared_ptr<stream::client> upstream;
  std::string lease_key;
  std::array<std::string_view, stream::event_kind_count> ev_names{};
  std::vector<detail::event_ref> refs;
  std::vector<detail::message_run> runs;
  std::string subject;
  std::string payload;
  relay_stats stats;
  jsPubOptions publish_options{};  // every publish's (run() sets it)
  std::atomic<std::uint64_t> failed_acks{0};
  std::atomic<bool> publish_failed{false};
  std::exception_ptr failure;
  bool stopping = false;
  // Last: destroyed first, so that no request runs while the link and buckets go. The lease has
  // a thread of its own: its writes never wait behind a demand read, which takes the whole
  // request_timeout while the demand bucket's stream has no leader. Sharing one thread, a
  // cluster node's death made every renewal late (1.8-2.0 s against a 1 s TTL): the relay lost
  // its lease, took it again and lost it for as long as the test waited.
  asio::thread_pool worker{1};
  asio::thread_pool lease_worker{1};
};

relay::relay(asio::any_io_executor executor, relay_config config)
    : async_object(executor), impl_(std::make_shared<impl>(this->executor(), std::move(config))) {}

relay::~relay() { stop(); }

void relay::stop() {
  asio::post(executor(), [self = impl_] { self->begin_stop(); });
}

relay_stats relay::stats() const noexcept {
  relay_stats s = impl_->stats;
  s.failed_acks = impl_->failed_acks.load(std::memory_order_relaxed);
  return s;
}

const std::string& relay::id() const noexcept { return impl_->config.id; }

asio::awaitable<void> relay::run_awaitable() {
  const std::shared_ptr<impl> keep = impl_;
  co_await keep->run();
}

}  // namespace massive::relay
