// The consumer's driver: a JetStream pull consumer fetched on the worker thread, each message
// decoded as one frame by the stream's frame decoder on the consumer's strand.
//
// Resuming a durable consumer: JetStream redelivers a message left unacknowledged only after
// its AckWait, and after newer ones; with AckAll, acknowledging a newer one would then
// acknowledge the older unprocessed ones: a loss. So a durable consumer that exists is read
// for its acknowledgement floor, deleted and made again from the sequence after that floor:
// what the last run did not acknowledge comes first, in order.
#include "massive/relay/consumer.hpp"

#include <atomic>
#include <boost/asio.hpp>
#include <random>

#include "massive/relay/error.hpp"
#include "massive/relay/subject.hpp"
#include "relay/nats_link.hpp"
#include "relay/offload.hpp"
#include "relay/validation.hpp"

namespace massive::relay {

namespace asio = boost::asio;

namespace {

constexpr std::int64_t ns_per_ms = 1'000'000;

std::string random_name() {
  std::random_device random;
  return "massive-" + std::to_string(random()) + std::to_string(random() % 100'000);
}

}  // namespace

struct consumer::impl : std::enable_shared_from_this<consumer::impl> {
  impl(consumer_config c)
      : config(std::move(c)), decoder(config.market, config.channels, config.limits) {
    if (config.topics.empty())
      throw relay_error(relay_errc::invalid_option, "consumer_config.topics: none");
    std::string demand_text;
    for (const stream::topic& t : config.topics) {
      if (t.market != config.market) {
        throw relay_error(relay_errc::invalid_option,
                          "consumer_config.topics: " + t.text + " is not of the market");
      }
      filters.push_back(topic_filter(t));
      demand_text += (demand_text.empty() ? "" : ",") + t.text;
    }
    filter = filters.size() == 1 ? filters.front() : market_filter(config.market);
    ephemeral = config.durable.empty();
    name = ephemeral ? random_name() : config.durable;
    detail::require_key_token("consumer_config.durable", name);
    if (config.id.empty()) config.id = name;
    detail::require_key_token("consumer_config.id", config.id);
    detail::require_key_token("consumer_config.group", config.group);
    demand_key =
        config.group + "." + std::string(stream::market_path(config.market)) + "." + config.id;
    demand_value = std::move(demand_text);
    stream = stream_name(config.market);
  }

  ~impl() {
    worker.join();
    for (std::size_t i = next_index; i < fetched.size(); ++i) natsMsg_Destroy(fetched[i]);
    if (latest != nullptr) natsMsg_Destroy(latest);
    subscription.reset();
    demand_kv.reset();
    link.reset();
  }

  /// Connects, declares the demand, makes (or remakes) the consumer and subscribes; false while
  /// the relay's stream does not exist yet (no relay has run: the consumer waits for one).
  bool start_blocking() {
    if (!link) link = std::make_unique<detail::nats_link>(config.nats, "massive-consumer " + name);
    if (config.declare_demand && !demand_kv) {
      demand_kv = link->bucket(config.nats.bucket_prefix + "_demand", config.demand_ttl, 1);
      put_demand();
    }
    jsCtx* js = link->jetstream();
    jsErrCode code = static_cast<jsErrCode>(0);
    std::uint64_t resume_from = 0;
    jsConsumerInfo* info = nullptr;
    if (!ephemeral &&
        js_GetConsumerInfo(&info, js, stream.c_str(), name.c_str(), nullptr, &code) == NATS_OK) {
      resume_from = info->AckFloor.Stream + 1;
      jsConsumerInfo_Destroy(info);
      if (const natsStatus s = js_DeleteConsumer(js, stream.c_str(), name.c_str(), nullptr, &code);
          s != NATS_OK) {
        detail::throw_nats("remaking consumer " + name, s, config.nats);
      }
    }
    jsConsumerConfig c;
    jsConsumerConfig_Init(&c);
    c.Durable = name.c_str();
    c.AckPolicy = js_AckAll;
    // Acknowledgements come when the caller asks for the next batch, however long it works on one.
    c.AckWait = std::int64_t{3'600'000} * ns_per_ms;
    c.FilterSubject = filter.c_str();
    if (resume_from != 0) {
      c.DeliverPolicy = js_DeliverByStartSequence;
      c.OptStartSeq = resume_from;
    } else if (config.start == start_at::all) {
      c.DeliverPolicy = js_DeliverAll;
    } else if (config.start == start_at::time) {
      c.DeliverPolicy = js_DeliverByStartTime;
      c.OptStartTime =
          std::chrono::duration_cast<std::chrono::nanoseconds>(config.from.time_since_epoch())
              .count();
    } else {
      c.DeliverPolicy = js_DeliverNew;
    }
    // An ephemeral consumer whose process died goes away by itself.
    if (ephemeral) c.InactiveThreshold = std::int64_t{600'000} * ns_per_ms;
    if (const natsStatus s = js_AddConsumer(nullptr, js, stream.c_str(), &c, nullptr, &code);
        s != NATS_OK) {
      if (code == JSStreamNotFoundErr) return false;
      detail::throw_nats("creating consumer " + name + " on " + stream, s, config.nats);
    }
    jsSubOptions so;
    jsSubOptions_Init(&so);
    so.Stream = stream.c_str();
    so.Consumer = name.c_str();
    natsSubscription* sub = nullptr;
    if (const natsStatus s =
            js_PullSubscribe(&sub, js, filter.c_str(), name.c_str(), nullptr, &so, &code);
        s != NATS_OK) {
      detail::throw_nats("subscribing to consumer " + name, s, config.nats);
    }
    subscription.reset(sub);
    return true;
  }

  void put_demand() {
    // A failed refresh is retried at the next one; the entry lives demand_ttl meanwhile.
    kvStore_Put(nullptr, demand_kv.get(), demand_key.c_str(), demand_value.data(),
                static_cast<int>(demand_value.size()));
    refresh_at = std::chrono::steady_clock::now() + config.demand_ttl / 3;
  }

  /// Fetches the next messages (blocking, at most fetch_wait); refreshes the demand when due.
  std::vector<natsMsg*> fetch_blocking() {
    if (demand_kv && std::chrono::steady_clock::now() >= refresh_at) put_demand();
    natsMsgList list{};
    jsErrCode code = static_cast<jsErrCode>(0);
    const natsStatus s =
        natsSubscription_Fetch(&list, subscription.get(), static_cast<int>(config.fetch_batch),
                               config.fetch_wait.count(), &code);
    std::vector<natsMsg*> out;
    if (s == NATS_TIMEOUT) return out;
    if (s != NATS_OK) detail::throw_nats("fetching from consumer " + name, s, config.nats);
    for (int i = 0; i < list.Count; ++i) out.push_back(std::exchange(list.Msgs[i], nullptr));
    natsMsgList_Destroy(&list);
    return out;
  }

  bool wanted(std::string_view subject) const {
    if (filters.size() == 1) return true;  // the server filtered
    for (const std::string& f : filters) {
      if (subject_matches(f, subject)) return true;
    }
    return false;
  }

  /// The latest message taken; acknowledging it acknowledges every one before (AckAll).
  void take(natsMsg* m) {
    if (latest != nullptr) natsMsg_Destroy(latest);
    latest = m;
  }

  asio::awaitable<stream::batch> next() {
    if (closed) throw relay_error(relay_errc::closed, "the consumer was closed");
    while (!started) {
      started = co_await detail::offload(worker, [&] { return start_blocking(); });
      if (!started) {
        // The demand is declared: a relay that starts subscribes it and makes the stream.
        asio::steady_timer wait(co_await asio::this_coro::executor, config.fetch_wait);
        co_await wait.async_wait(asio::use_awaitable);
        if (closed) throw relay_error(relay_errc::closed, "the consumer was closed");
      }
    }
    // The caller is done with everything delivered before this call.
    if (latest != nullptr && !acknowledged) natsMsg_Ack(latest, nullptr);
    acknowledged = true;
    for (;;) {
      if (next_index == fetched.size()) {
        fetched = co_await detail::offload(worker, [&] { return fetch_blocking(); });
        next_index = 0;
        if (closed) throw relay_error(relay_errc::closed, "the consumer was closed");
        continue;
      }
      natsMsg* m = fetched[next_index++];
      take(m);
      acknowledged = false;
      const std::string_view subject = natsMsg_GetSubject(m);
      if (is_control_subject(subject) || !wanted(subject)) continue;
      const char* epoch_value = nullptr;
      if (natsMsgHeader_Get(m, "Massive-Epoch", &epoch_value) == NATS_OK &&
          epoch_value != nullptr) {
        if (!epoch.empty() && epoch != epoch_value) gap = true;
        epoch = epoch_value;
      }
      jsMsgMetaData* meta = nullptr;
      if (natsMsg_GetMetaData(&meta, m) == NATS_OK) {
        last_sequence = meta->Sequence.Stream;
        last_redelivered = meta->NumDelivered > 1;
        jsMsgMetaData_Destroy(meta);
      }
      stream::batch b;
      try {
        decoder.feed({natsMsg_GetData(m), static_cast<std::size_t>(natsMsg_GetDataLength(m))});
        b = decoder.finish();
      } catch (...) {
        decoder.reset();
        throw;
      }
      if (b.empty()) continue;
      if (std::exchange(gap, false)) b.mark_gap();
      co_return b;
    }
  }

  asio::awaitable<void> close() {
    if (closed) co_return;
    closed = true;
    if (!link) co_return;
    co_await detail::offload(worker, [&] {
      if (latest != nullptr && !acknowledged) natsMsg_AckSync(latest, nullptr, nullptr);
      acknowledged = true;
      if (demand_kv) kvStore_Delete(demand_kv.get(), demand_key.c_str());
      if (ephemeral) {
        jsErrCode code = static_cast<jsErrCode>(0);
        js_DeleteConsumer(link->jetstream(), stream.c_str(), name.c_str(), nullptr, &code);
      }
      natsConnection_FlushTimeout(link->connection(), config.nats.request_timeout.count());
      natsConnection_Close(link->connection());
    });
  }

  consumer_config config;
  stream::frame_decoder decoder;
  std::vector<std::string> filters;
  std::string filter;
  std::string name;
  std::string stream;
  std::string demand_key;
  std::string demand_value;
  bool ephemeral = false;
  std::unique_ptr<detail::nats_link> link;
  detail::nats_ptr<kvStore> demand_kv;
  detail::nats_ptr<natsSubscription> subscription;
  std::chrono::steady_clock::time_point refresh_at{};
  std::vector<natsMsg*> fetched;
  std::size_t next_index = 0;
  natsMsg* latest = nullptr;
  bool acknowledged = true;
  std::string epoch;
  bool gap = false;
  std::uint64_t last_sequence = 0;
  bool last_redelivered = false;
  bool started = false;
  // Set by close() and by the consumer's destructor, read by next() after each fetch.
  std::atomic<bool> closed{false};
  // Last: destroyed first, so that no fetch runs while the subscription and link go.
  asio::thread_pool worker{1};
};

consumer::consumer(asio::any_io_executor executor, consumer_config config)
    : async_object(executor), impl_(std::make_shared<impl>(std::move(config))) {}

// Acknowledges nothing more, as a crash would not: what was delivered and not acknowledged
// comes again to the durable consumer's next run. A next() in flight ends after its fetch
// (at most fetch_wait) with relay_error(closed), and the worker with it.
consumer::~consumer() { impl_->closed = true; }

std::uint64_t consumer::sequence() const noexcept { return impl_->last_sequence; }
bool consumer::redelivered() const noexcept { return impl_->last_redelivered; }

asio::awaitable<stream::batch> consumer::next_awaitable() {
  const std::shared_ptr<impl> keep = impl_;
  co_return co_await keep->next();
}

asio::awaitable<void> consumer::close_awaitable() {
  const std::shared_ptr<impl> keep = impl_;
  co_await keep->close();
}

}  // namespace massive::relay
