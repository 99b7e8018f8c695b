// The call: rate limit, pool, connect, exchange, retry, as call_fsm decides. One coroutine per
// call, on its own strand; the per-call deadline and the caller's terminal cancellation both
// go through call_control, which cancels whatever the coroutine is awaiting.
#include "call_driver.hpp"
#include "call_fsm.hpp"
#include "call_state.hpp"
#include "connection_setup.hpp"
#include "exchange.hpp"
#include "error_body.hpp"
#include "request_head.hpp"

#include <boost/asio/bind_cancellation_slot.hpp>
#include <boost/asio/co_spawn.hpp>
#include <boost/asio/dispatch.hpp>
#include <boost/asio/this_coro.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <boost/url/parse.hpp>

#include <optional>
#include <stdexcept>
#include <utility>

namespace massive::transport {

namespace {

// A decode_error names keys and values of the body; a server that echoes the API key as one
// would have it printed. The decoder does not know the key: it is taken out here.
std::exception_ptr without_key(const decode_error& e, std::string_view key) {
  const auto holds = [&](const std::string& text) { return !key.empty() && text.find(key) != std::string::npos; };
  if (!holds(e.field_path()) && !holds(e.detail())) return std::current_exception();
  return std::make_exception_ptr(decode_error(e.code(), redact(e.field_path(), key), e.row(),
                                              redact(e.detail(), key)));
}

struct attempt_record {
  clock_type::time_point start = clock_type::now();
  std::chrono::nanoseconds wait{};
  std::chrono::nanoseconds connect{};
  bool reused = false;
};

void emit_trace(const client_state& st, const std::string& redacted_target, unsigned attempt,
                const attempt_record& rec, const exchange_result* r, std::string_view error,
                std::optional<std::chrono::milliseconds> retry_in) {
  if (!st.cfg.opts.trace) return;
  trace_event e;
  e.method = "GET";
  e.target = redacted_target;
  e.host = st.cfg.host_header;
  e.attempt = attempt;
  e.reused_connection = rec.reused;
  if (r != nullptr) {
    e.status = r->status;
    e.request_id = r->request_id;
    e.body_bytes = r->body_bytes;
    e.time_to_headers = r->time_to_headers;
  }
  e.wait_time = rec.wait;
  e.connect_time = rec.connect;
  e.total_time = clock_type::now() - rec.start;
  e.error = error;
  e.retry_in = retry_in;
  try {
    st.cfg.opts.trace(e);
  } catch (...) {
    // A failing logger must not fail the request it logs.
  }
}

call_awaitable<void> sleep_until(clock_type::time_point at) {
  call_timer timer(co_await asio::this_coro::executor, at);
  co_await timer.async_wait(use_call_awaitable);
}

call_awaitable<void> take_rate_token(client_state& st, clock_type::time_point deadline,
                                      attempt_record& rec) {
  if (!st.limiter) co_return;
  const auto& policy = *st.cfg.opts.rate_limit;
  const auto now = clock_type::now();
  clock_type::duration wait{};
  {
    std::lock_guard lock(st.limiter_mutex);
    if (policy.mode == rate_limit_mode::fail_fast) {
      if (!st.limiter->try_acquire(now)) {
        fail(errc::rate_limited, "client-side rate limit (" + std::to_string(policy.requests_per_second) +
                                     " requests/s) reached");
      }
      co_return;
    }
    wait = st.limiter->reserve(now);
    if (now + wait > deadline) {
      st.limiter->cancel_reservation(now);
      fail(errc::rate_limited, "the rate limiter's wait (" +
                                   millis(std::chrono::ceil<std::chrono::milliseconds>(wait)) +
                                   ") exceeds the call's deadline");
    }
  }
  if (wait <= clock_type::duration::zero()) co_return;
  bool slept = false;
  try {
    co_await sleep_until(now + wait);
    slept = true;
  } catch (...) {
  }
  if (!slept) {
    std::lock_guard lock(st.limiter_mutex);
    st.limiter->cancel_reservation(clock_type::now());
    throw boost::system::system_error(asio::error::operation_aborted);
  }
  rec.wait += clock_type::now() - now;
}

// An origin-form target as two pieces sent back to back; views into the base URL's
// configuration and the caller's target, so nothing is copied.
struct origin_form {
  std::string_view prefix;
  std::string_view rest;
};

// The first byte of `target` that no request target may hold, in words: a control (CR and LF
// named: they would end the request line and start a header), a space, non-ASCII, a backslash
// (which some parsers read as '/', so that "/\\host" names another authority to them) or a '#'
// (a fragment is the client's own, never sent). Empty when there is none.
std::string_view byte_fault(std::string_view target) {
  for (unsigned char c : target) {
    if (c == '\r' || c == '\n') return "a CR or LF byte";
    if (c == ' ') return "a space";
    if (c < 0x20 || c == 0x7f) return "a control byte";
    if (c >= 0x80) return "a non-ASCII byte";
    if (c == '\\') return "a backslash";
    if (c == '#') return "a fragment ('#')";
  }
  return {};
}

// A target refused for what is wrong with it, never quoted (a next_url may carry the key). A
// next_url is the server's text: a transport_error, as one of another origin is; the caller's
// own target is the caller's mistake, std::invalid_argument like any invalid request value.
[[noreturn]] void refuse_target(detail::target_kind kind, std::string_view why) {
  if (kind == detail::target_kind::next_url) fail(errc::bad_response, "refusing a next_url that " + std::string(why));
  throw std::invalid_argument("request target " + std::string(why));
}

[[noreturn]] void refuse_foreign(const config& cfg, std::string_view written_as = {}) {
  fail(errc::foreign_next_url,
       "refusing a URL outside " + cfg.base.scheme + "://" + cfg.host_header + std::string(written_as));
}

origin_form resolve_target(const config& cfg, std::string_view target, detail::target_kind kind) {
  if (target.empty()) refuse_target(kind, "is empty");
  if (const std::string_view fault = byte_fault(target); !fault.empty()) {
    refuse_target(kind, "contains " + std::string(fault));
  }
  if (target.starts_with("//")) {
    // A network-path reference (RFC 3986, 4.2: "//host/path", the base's scheme implied), as a
    // next_url means it: another authority, not a path of this origin starting with an empty
    // segment. Checked as the absolute URL it stands for.
    const std::size_t path_at = std::min(target.find_first_of("/?", 2), target.size());
    if (!same_origin(cfg.base.scheme + ":" + std::string(target.substr(0, path_at)), cfg.base)) {
      refuse_foreign(cfg, " (a network-path reference, \"//host/...\")");
    }
    target.remove_prefix(path_at);
    if (target.empty()) return {std::string_view("/"), std::string_view()};
    if (target.front() != '/') refuse_target(kind, "has an authority not followed by '/'");
    return {std::string_view(), target};
  }
  if (target.front() != '/') {
    // Any absolute URL (whatever its scheme) is a next_url: it must have the base's origin.
    const auto parsed = boost::urls::parse_absolute_uri(target);
    if (!parsed) refuse_target(kind, "is not a URL (neither an absolute URL nor a path starting with '/')");
    if (!same_origin(target, cfg.base)) refuse_foreign(cfg);
    const std::string_view path = parsed->encoded_path();
    std::string_view rest = path;
    if (parsed->has_query()) {
      // In a URI the query follows the path, after its '?'.
      const std::string_view query = parsed->encoded_query();
      rest = std::string_view(path.data(), static_cast<std::size_t>(query.data() + query.size() - path.data()));
    }
    return {path.empty() ? std::string_view("/") : std::string_view(), rest};
  }
  // The base URL's path prefix is where the SDK's paths live; a path the server wrote replaces
  // the base's path, as RFC 3986 (5.2.2) resolves an absolute-path reference, and as an absolute
  // next_url's path does: the server names its own paths whole.
  if (kind == detail::target_kind::next_url) return {std::string_view(), target};
  return {cfg.path_prefix, target};
}

// Before the call starts: the head into the control's reused buffer, or why the target or
// the call's options are refused (delivered by the call, so that the handler never runs
// inside the initiation).
void prepare_request(const client_state& st, call_control& ctl, std::string_view raw_target,
                     detail::target_kind kind, const call_options* call) {
  const auto& opts = st.cfg.opts;
  try {
    ctl.timeout = opts.request_timeout;
    ctl.retry = opts.retry;
    ctl.call_headers.clear();
    if (call != nullptr) {
      check_call_options(*call);
      if (call->request_timeout) ctl.timeout = *call->request_timeout;
      if (call->retry) ctl.retry = *call->retry;
      render_call_headers(ctl.call_headers, *call);
    }
    const origin_form target = resolve_target(st.cfg, raw_target, kind);
    build_request_head(ctl.head, {.host = st.cfg.host_header, .target = target.rest,
                                             .target_prefix = target.prefix, .api_key = opts.api_key,
                                             .auth = opts.auth, .user_agent = opts.user_agent,
                                             .gzip = opts.gzip, .client_headers = st.cfg.header_lines,
                                             .call_headers = ctl.call_headers});
    // Only traces show the target; without a hook, no copy is made.
    ctl.redacted_target.clear();
    if (opts.trace) {
      ctl.redacted_target = redact_target(std::string(target.prefix).append(target.rest), opts.api_key);
    }
  } catch (...) {
    ctl.rejected = std::current_exception();
  }
}

// "8 s", or "8500 ms" when not whole seconds.
std::string seconds_or_millis(std::chrono::milliseconds d) {
  if (d.count() % 1000 != 0) return millis(d);
  return std::to_string(d.count() / 1000) + " s";
}

// The last answer is final, and its api_error says why when the status alone does not: a
// Retry-After the policy does not wait for would otherwise read as a retry that never came,
// and a 3xx as a refusal.
void explain_final(const call_action& action, const call_control& ctl, exchange_result& r) {
  if (action.step != call_step::done || action.result != call_result::api_error || !r.error) return;
  if (r.error->status() >= 300 && r.error->status() < 400) {
    add_reason(*r.error, "a redirect, which the client does not follow (the key stays with the base URL's origin)");
  }
  if (action.decision == retry_decision::outcome::retry_after_too_long && r.retry_after) {
    add_reason(*r.error, "Retry-After " + std::to_string(r.retry_after->count()) +
                             " s exceeds retry_policy.max_backoff (" + seconds_or_millis(ctl.retry.max_backoff) +
                             "): not retried");
  }
}

// The attempt that just ended, as the state machine says to trace it.
void trace_attempt(const client_state& st, const call_control& ctl, unsigned attempt,
                   const attempt_record& rec, const call_action& action,
                   const exchange_result& r, const std::exception_ptr& failure) {
  if (!st.cfg.opts.trace) return;
  switch (action.trace) {
    case attempt_trace::none: return;
    case attempt_trace::success:
      emit_trace(st, ctl.redacted_target, attempt, rec, &r, {}, action.retry_in);
      return;
    case attempt_trace::failure: {
      std::string what = "failed";
      try {
        std::rethrow_exception(failure);
      } catch (const std::exception& e) {
        what = e.what();
      } catch (...) {
      }
      emit_trace(st, ctl.redacted_target, attempt, rec, nullptr, what, action.retry_in);
      return;
    }
    case attempt_trace::stale:
      emit_trace(st, ctl.redacted_target, attempt, rec, &r, "pooled connection was closed by the server",
                 action.retry_in);
      return;
    case attempt_trace::api_failure:
      emit_trace(st, ctl.redacted_target, attempt, rec, &r, r.error->what(), action.retry_in);
      return;
  }
}

// The thin driver of the call's state machine (call_fsm.hpp): executes each action and resumes
// the machine with what came of it. The decisions (retry or not, how long to wait, what to
// trace) are the machine's; the I/O, the timings and the errors' text are the driver's.
call_awaitable<response_info> run_call(std::shared_ptr<client_state> state, control_ref control,
                                        detail::body_sink& sink) {
  client_state& st = *state;
  call_control& ctl = *control;
  const auto start = clock_type::now();
  const auto deadline = start + ctl.timeout;
  ctl.arm(deadline, abort_reason::deadline);
  struct finish_on_exit {
    call_control& c;
    ~finish_on_exit() { c.finish(); }
  } finish{ctl};

  if (ctl.rejected) std::rethrow_exception(ctl.rejected);
  response_info info;
  call_fsm fsm(ctl.retry, deadline);
  std::optional<connection_pool::lease> held;  // kept across a stale-connection retry only
  attempt_record rec;
  exchange_result r;
  std::exception_ptr failure;
  call_event event;
  call_action action;
  for (;;) {
    action = fsm.resume(event, clock_type::now());
    // Given back before the trace: not reusable unless the exchange said so.
    if (action.step == call_step::done || action.step == call_step::sleep_before_retry) held.reset();
    explain_final(action, ctl, r);
    trace_attempt(st, ctl, info.attempts, rec, action, r, failure);
    if (action.step == call_step::done) break;
    event = call_event{};
    try {
      switch (action.step) {
        case call_step::wait_rate_limit:
          rec = attempt_record{};
          co_await take_rate_token(st, deadline, rec);
          event.what = call_event::kind::rate_limit_granted;
          break;
        case call_step::take_connection: {
          const auto queued = clock_type::now();
          held.emplace(co_await st.pool.acquire());
          rec.wait += clock_type::now() - queued;
          held->conn = st.pool.take_idle();
          rec.reused = held->conn != nullptr;
          event.what = call_event::kind::connection_taken;
          event.reused = rec.reused;
          break;
        }
        case call_step::connect: {
          if (action.trace == attempt_trace::stale) rec = attempt_record{};  // its retry
          const auto connecting = clock_type::now();
          held->conn = co_await open_connection(st, ctl, deadline);
          rec.connect = clock_type::now() - connecting;
          event.what = call_event::kind::connected;
          break;
        }
        case call_step::exchange: {
          connection& conn = *held->conn;
          ctl.socket = &conn.socket();
          ++info.attempts;
          if (st.cfg.signer) st.cfg.signer->sign(ctl.head);
          r = co_await exchange(conn, st, ctl, ctl.head, sink, rec.reused);
          event.what = call_event::kind::exchanged;
          if (r.what == exchange_result::kind::stale) {
            held->conn.reset();
            event.outcome = call_event::response::stale;
            event.jitter = st.jitter();
            break;
          }
          held->reusable = r.keep_alive;
          info.reused_connection = rec.reused;
          info.connect_time = rec.connect;
          info.wait_time += rec.wait;
          info.time_to_headers = r.time_to_headers;
          if (r.what == exchange_result::kind::api_failure) {
            event.outcome = call_event::response::api_failure;
            event.status = r.status;
            event.retry_after = r.retry_after;
            event.jitter = st.jitter();
          }
          break;
        }
        case call_step::sleep_before_retry:
          co_await sleep_until(clock_type::now() + action.delay);
          event.what = call_event::kind::slept;
          break;
        case call_step::done: break;
      }
    } catch (const decode_error& e) {
      failure = without_key(e, st.cfg.opts.api_key);
    } catch (...) {
      failure = aborted_error(st, ctl);
      if (!failure) failure = std::current_exception();
    }
    ctl.socket = nullptr;
    if (failure) {
      event = call_event{};
      event.what = call_event::kind::failed;
    }
  }

  switch (action.result) {
    case call_result::ok: break;
    case call_result::failed:
      if (!failure) throw std::logic_error("call state machine: event out of order");
      std::rethrow_exception(failure);
    case call_result::api_error: throw *r.error;
    case call_result::stale_connection:
      fail(errc::connection_reset, "connection closed by the server before any response");
    case call_result::deadline_exceeded: std::rethrow_exception(deadline_error(ctl));
  }
  info.status = r.status;
  info.request_id = std::move(r.request_id);
  info.content_encoding = std::move(r.content_encoding);
  info.rate_limit = std::move(r.rate_limit);
  info.wire_bytes = r.wire_bytes;
  info.body_bytes = r.body_bytes;
  info.total_time = clock_type::now() - start;
  co_return info;
}

}  // namespace

void start_call(const std::shared_ptr<client_state>& state, std::string_view target, detail::target_kind kind,
                detail::body_sink& sink, const call_options* call, detail::get_handler handler,
                asio::any_io_executor work) {
  control_ref control = state->take_control(state);
  prepare_request(*state, *control, target, kind, call);
  const call_executor strand = control->strand;
  auto slot = asio::get_associated_cancellation_slot(handler);
  // co_spawn's own forwarding of the handler's slot dispatches a raw pointer to the signal
  // (asio 1.26), which dangles if the call completes first; this forwarder owns the state.
  if (slot.is_connected()) {
    slot.assign([control](asio::cancellation_type type) {
      if ((type & asio::cancellation_type::terminal) == asio::cancellation_type::none) return;
      asio::dispatch(control->strand, [control] { control->abort(abort_reason::cancelled); });
    });
  }
  auto cancel_slot = control->signal.slot();
  asio::co_spawn(
      strand, run_call(state, std::move(control), sink),
      asio::bind_cancellation_slot(
          cancel_slot,
          [handler = std::move(handler), work = std::move(work), slot, strand](
              std::exception_ptr e, response_info info) mutable {
            if (slot.is_connected()) slot.clear();
            auto complete = [handler = std::move(handler), e, info = std::move(info)]() mutable {
              std::move(handler)(e, std::move(info));
            };
            if (work) {
              asio::dispatch(work, std::move(complete));
            } else {
              asio::dispatch(strand, std::move(complete));
            }
          }));
}

}  // namespace massive::transport
