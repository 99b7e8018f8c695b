// The flat files' S3 client over the SDK's transport: a transport::client_state of its own whose
// signer (s3_signer) signs every attempt, listings read by list_objects_xml, ranges fetched into
// memory and resumed from their last byte, inflated by the transport's inflater: in the reader's
// next(), or ahead of it in a coroutine of their own (files_config::inflate_ahead).
#include "massive/files/client.hpp"

#include <algorithm>
#include <atomic>
#include <boost/asio/as_tuple.hpp>
#include <boost/asio/co_spawn.hpp>
#include <boost/asio/detached.hpp>
#include <boost/asio/experimental/concurrent_channel.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <cstdio>
#include <cstdlib>
#include <deque>
#include <filesystem>
#include <fstream>
#include <optional>
#include <set>
#include <utility>

#include "files/credentials.hpp"
#include "files/list_objects_xml.hpp"
#include "files/s3_signer.hpp"
#include "files/sigv4.hpp"
#include "massive/detail/http_client.hpp"
#include "massive/error.hpp"
#include "transport/call_state.hpp"
#include "transport/error_body.hpp"
#include "transport/inflater.hpp"

namespace massive::files {
namespace detail {

namespace asio = boost::asio;

/// A listing page larger than this is refused: 1,000 keys take about 300 KB.
constexpr std::size_t max_listing_bytes = std::size_t{16} << 20;
/// A listing longer than this is refused: S3 pages hold at most 1,000 keys, and the whole
/// bucket (every market's every dataset since 2003) is about a hundred pages.
constexpr std::size_t max_listing_pages = 1'000;
/// The inflater hands out pieces of this size.
constexpr std::size_t inflated_piece_bytes = 256 * 1024;

struct client_impl {
  client_impl(asio::any_io_executor ex, files_config c) : config(std::move(c)) {
    const s3_keys keys = resolve_keys(config.access_key, config.secret_key,
                                      [](const char* name) { return std::getenv(name); });
    client_config opts = config.transport;
    opts.base_url = config.endpoint;
    // The transport insists on a key for its bearer line; the signer replaces that line on every
    // attempt, so this placeholder is never sent.
    opts.api_key = "s3-sigv4";
    opts.auth = auth_scheme::bearer_header;
    // The files are gzip themselves: their bytes are inflated here, range by range.
    opts.gzip = false;
    state = std::make_shared<transport::client_state>(std::move(ex), std::move(opts));
    state->cfg.signer =
        std::make_shared<s3_signer>(keys.access_key, keys.secret_key, config.region);
  }
  ~client_impl() { state->pool.close_idle(); }

  files_config config;
  std::shared_ptr<transport::client_state> state;
};

namespace {

/// GET `target` into `sink`, with `call`'s headers; api_errors become the files' own.
asio::awaitable<response_info> get(client_impl& c, std::string_view target,
                                   massive::detail::body_sink& sink, const call_options& call,
                                   std::string_view what) {
  try {
    co_return co_await asio::async_initiate<const asio::use_awaitable_t<>,
                                            void(std::exception_ptr, response_info)>(
        [&](auto handler) {
          massive::detail::launch_get(c.state, target, sink, &call, std::move(handler));
        },
        asio::use_awaitable);
  } catch (const api_error& e) {
    const s3_error_body body = parse_error_body(e.server_message());
    const std::string said =
        body.code.empty()
            ? std::string()
            : "; the server said " + body.code + (body.message.empty() ? "" : ": " + body.message);
    switch (e.status()) {
      case 403:
        throw files_error(
            files_errc::access_denied,
            std::string(what) +
                ": 403 Forbidden. It may mean that the plan does not include this market, "
                "dataset or date (history), that the file is not published yet (a day's file "
                "appears at about 11:00 ET the next day), or that the S3 access key or secret is "
                "wrong" +
                said);
      case 404:
        throw files_error(files_errc::not_found, std::string(what) + ": 404 Not Found" + said);
      case 412:
        throw files_error(files_errc::changed_file,
                          std::string(what) +
                              ": the file changed while it was read (its ETag no longer matches)");
      default:
        throw;
    }
  }
}

/// Collects a listing's body, bounded.
class listing_sink final : public massive::detail::body_sink {
 public:
  void feed(std::span<const char> chunk) override {
    if (body.size() + chunk.size() > max_listing_bytes) {
      throw files_error(files_errc::listing_too_large,
                        "a listing page over " + std::to_string(max_listing_bytes >> 20) + " MiB");
    }
    body.append(chunk.data(), chunk.size());
  }
  void finish() override {}
  std::string body;
};

/// Counts a range's bytes on their way to the caller's sink, refusing more than was asked.
class range_sink final : public massive::detail::body_sink {
 public:
  range_sink(std::uint64_t wanted, const std::function<void(std::span<const char>)>& out)
      : wanted_(wanted), out_(out) {}
  void feed(std::span<const char> chunk) override {
    if (got_ + chunk.size() > wanted_) {
      throw files_error(files_errc::corrupt_file,
                        "the server sent more bytes than the range asked for");
    }
    got_ += chunk.size();
    out_(chunk);
  }
  void finish() override {}
  std::uint64_t got() const noexcept { return got_; }

 private:
  std::uint64_t wanted_;
  std::uint64_t got_ = 0;
  const std::function<void(std::span<const char>)>& out_;
};

bool resumable(const transport_error& e) {
  return e.code() == errc::connection_reset || e.code() == errc::truncated_body;
}

}  // namespace

asio::awaitable<std::uint64_t> fetch_range(std::shared_ptr<client_impl> c, object_info file,
                                           std::uint64_t from, std::uint64_t length,
                                           std::function<void(std::span<const char>)> sink) {
  length = std::min(length, file.size > from ? file.size - from : 0);
  const std::string target =
      "/" + uri_encode(c->config.bucket, true) + "/" + uri_encode(file.key, false);
  std::uint64_t done = 0;
  unsigned resumes = 0;
  while (done < length) {
    // At most range_bytes a request: request_timeout bounds one range, and the transport's
    // max_body_size one body (a whole file of several GB in one GET was refused at once).
    const std::uint64_t asked = std::min(length - done, std::max<std::uint64_t>(c->config.range_bytes, 1));
    call_options call;
    call.headers.push_back({"Range", "bytes=" + std::to_string(from + done) + "-" +
                                         std::to_string(from + done + asked - 1)});
    if (!file.etag.empty()) call.headers.push_back({"If-Match", file.etag});
    range_sink counted(asked, sink);
    try {
      const response_info answer = co_await get(*c, target, counted, call, file.key);
      // A server that ignores Range answers 200 with the file from its first byte: taken for
      // the bytes asked, they would put the file's start in its middle.
      if (answer.status != 206 && from + done != 0) {
        throw files_error(files_errc::corrupt_file,
                          file.key + ": the server answered " + std::to_string(answer.status) +
                              ", not 206, to a request for the bytes from " +
                              std::to_string(from + done) + " (it ignored the Range)");
      }
      done += counted.got();
      if (counted.got() == 0) {
        throw files_error(files_errc::corrupt_file, file.key + ": the server sent an empty range");
      }
      // A shorter answer is resumed from its last byte as a dropped one is, and counts as one:
      // a server answering a byte at a time would otherwise be asked for ever.
      if (counted.got() < asked && ++resumes > c->config.max_resumes) {
        throw files_error(files_errc::corrupt_file,
                          file.key + ": the server answered a range with fewer bytes than asked " +
                              std::to_string(resumes) + " times");
      }
    } catch (const transport_error& e) {
      done += counted.got();
      // A dropped transfer resumes from its last byte; one that made no progress counts too.
      if (!resumable(e) || ++resumes > c->config.max_resumes) throw;
    }
  }
  co_return done;
}

namespace {

[[noreturn]] void cache_failure(const std::filesystem::path& path, const char* what) {
  throw files_error(files_errc::cache_failed, std::string(what) + " " + path.string());
}

/// Segments separated by single slashes, none of them "." or "..", no NUL: a path that stays
/// below the directory it is joined to.
bool plain_relative_path(std::string_view key) {
  if (key.empty() || key.find('\0') != std::string_view::npos) return false;
  for (std::size_t at = 0;;) {
    const std::size_t slash = key.find('/', at);
    const std::string_view segment = key.substr(at, slash - at);
    if (segment.empty() || segment == "." || segment == "..") return false;
    if (slash == std::string_view::npos) return true;
    at = slash + 1;
  }
}

std::string read_text(const std::filesystem::path& path) {
  std::ifstream in(path);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

}  // namespace

/// Bytes, or the failure that ends them, between coroutines that may run on different threads
/// of the client's executor.
using bytes_channel = asio::experimental::concurrent_channel<void(
    boost::system::error_code, std::exception_ptr, std::string)>;

/// One range in flight: its bytes or its failure arrive on the channel.
struct range_slot {
  explicit range_slot(const asio::any_io_executor& ex) : arrived(ex, 1) {}
  bytes_channel arrived;
};

struct file_source::state {
  std::shared_ptr<client_impl> client;
  // files_config::cache_directory: the file read from there (size and ETag matching the
  // listing's), or written there as it downloads (to a .part file, renamed once whole).
  std::filesystem::path cache_path;
  std::optional<std::ifstream> cached;
  std::optional<std::ofstream> writing;
  transport::inflater inflate{inflated_piece_bytes};
  std::deque<std::shared_ptr<range_slot>> ahead;  // ranges in flight, in file order
  std::uint64_t next_range = 0;                   // where the next range to request starts
  std::string current;                            // the compressed range being inflated
  bool have_input = false;
  std::atomic<std::uint64_t> received{0};

  // inflate_ahead: the inflated pieces go to the reader through `inflated` (an empty one is the
  // file's end) and come back through `spare` to be filled again, so that a file allocates its
  // pieces once; the reader holds one, `held`, until its next next().
  std::optional<bytes_channel> inflated;
  std::optional<bytes_channel> spare;
  std::string held;
  bool holding = false;
  bool producing = false;
  std::atomic<bool> abandoned{false};  // the reader is gone: a piece still received is not filled

  asio::awaitable<std::span<const char>> inflate_next(const object_info& file);
  static asio::awaitable<void> produce(std::shared_ptr<state> s, object_info file);
  void start_producing(const object_info& file, const std::shared_ptr<state>& self);

  static asio::awaitable<std::string> fetch_one(std::shared_ptr<client_impl> c, object_info f,
                                                std::uint64_t at, std::uint64_t n) {
    std::string bytes;
    bytes.reserve(n);
    std::function<void(std::span<const char>)> append = [&bytes](std::span<const char> piece) {
      bytes.append(piece.data(), piece.size());
    };
    co_await fetch_range(std::move(c), std::move(f), at, n, std::move(append));
    co_return bytes;
  }

  /// Writes the range just arrived to the cache, and renames the file once it is whole.
  void keep(const object_info& file) {
    if (cache_path.empty()) return;
    std::filesystem::path part = cache_path;
    part += ".part";
    if (!writing) {
      std::error_code ec;
      std::filesystem::create_directories(cache_path.parent_path(), ec);
      writing.emplace(part, std::ios::binary | std::ios::trunc);
    }
    writing->write(current.data(), static_cast<std::streamsize>(current.size()));
    if (!*writing) cache_failure(part, "cannot write");
    if (received < file.size) return;
    writing->close();
    std::filesystem::path etag_path = cache_path;
    etag_path += ".etag";
    std::ofstream(etag_path) << file.etag;
    std::error_code ec;
    std::filesystem::rename(part, cache_path, ec);
    if (ec) cache_failure(cache_path, "cannot rename its .part file to");
  }

  void request_more(const object_info& file) {
    const std::uint64_t span = std::max<std::uint64_t>(client->config.range_bytes, 1);
    while (next_range < file.size && ahead.size() <= client->config.ranges_ahead) {
      const std::uint64_t from = next_range;
      next_range = std::min(file.size, from + span);
      auto slot = std::make_shared<range_slot>(client->state->executor);
      asio::co_spawn(client->state->executor, fetch_one(client, file, from, next_range - from),
                     [slot](std::exception_ptr e, std::string bytes) {
                       slot->arrived.try_send(boost::system::error_code{}, e, std::move(bytes));
                     });
      ahead.push_back(std::move(slot));
    }
  }
};

file_source::file_source(std::shared_ptr<client_impl> client, object_info file)
    : file_(std::move(file)), state_(std::make_shared<state>()) {
  state& s = *state_;
  s.client = std::move(client);
  const std::string& directory = s.client->config.cache_directory;
  if (directory.empty()) return;
  // A key is the server's text: one that is not a plain relative path ("/etc/...", "a/../..")
  // would name a file outside the cache directory.
  if (!plain_relative_path(file_.key)) {
    throw files_error(files_errc::cache_failed,
                      "the key '" + transport::sanitize(file_.key, 200) +
                          "' is not a plain relative path, so it names no file under the cache "
                          "directory");
  }
  s.cache_path = std::filesystem::path(directory) / file_.key;
  std::error_code ec;
  const auto size = std::filesystem::file_size(s.cache_path, ec);
  std::filesystem::path etag_path = s.cache_path;
  etag_path += ".etag";
  if (!ec && size == file_.size && read_text(etag_path) == file_.etag) {
    s.cached.emplace(s.cache_path, std::ios::binary);
    if (!*s.cached) cache_failure(s.cache_path, "cannot read");
    s.next_range = file_.size;  // nothing to fetch
  }
}

void file_source::start() {
  if (state_->client->config.inflate_ahead == 0) {
    state_->request_more(file_);
  } else {
    state_->start_producing(file_, state_);
  }
}

std::uint64_t file_source::bytes_received() const noexcept { return state_->received; }

/// The next inflated piece of `file` (valid until the next call), or an empty one at its end.
asio::awaitable<std::span<const char>> file_source::state::inflate_next(const object_info& file) {
  for (;;) {
    if (have_input) {
      std::span<const char> piece;
      const auto status = inflate.next(piece);
      if (status != transport::inflater::status::ok) {
        throw files_error(files_errc::corrupt_file,
                          file.key + (status == transport::inflater::status::corrupt
                                          ? ": the gzip stream is corrupt (a bad block or CRC)"
                                          : ": bytes that are not gzip after its last member"));
      }
      if (!piece.empty()) co_return piece;
      have_input = false;
    }
    if (cached) {
      current.resize(
          static_cast<std::size_t>(std::max<std::uint64_t>(client->config.range_bytes, 1)));
      cached->read(current.data(), static_cast<std::streamsize>(current.size()));
      current.resize(static_cast<std::size_t>(cached->gcount()));
      if (cached->bad()) cache_failure(cache_path, "cannot read");
      if (!current.empty()) {
        received += current.size();
        inflate.begin(current);
        have_input = true;
        continue;
      }
    }
    request_more(file);
    if (ahead.empty()) {
      if (!inflate.complete())
        throw files_error(files_errc::corrupt_file,
                          file.key + ": the file ends inside a gzip member");
      co_return std::span<const char>();
    }
    const std::shared_ptr<range_slot> front = std::move(ahead.front());
    ahead.pop_front();
    auto [ec, failure, bytes] =
        co_await front->arrived.async_receive(asio::as_tuple(asio::use_awaitable));
    if (failure) std::rethrow_exception(failure);
    current = std::move(bytes);
    received += current.size();
    keep(file);
    request_more(file);
    inflate.begin(current);
    have_input = true;
  }
}

/// inflate_ahead: inflates `file` into spare pieces and hands them over, until its end, a
/// failure (handed over in a piece's place) or the reader's going away (the channels closed).
asio::awaitable<void> file_source::state::produce(std::shared_ptr<state> s, object_info file) {
  for (;;) {
    auto [closed, unused, piece] =
        co_await s->spare->async_receive(asio::as_tuple(asio::use_awaitable));
    if (closed || s->abandoned) co_return;
    std::exception_ptr failure;
    try {
      const std::span<const char> bytes = co_await s->inflate_next(file);
      piece.assign(bytes.data(), bytes.size());
    } catch (...) {
      failure = std::current_exception();
    }
    const bool last = failure || piece.empty();
    auto [gone] = co_await s->inflated->async_send(boost::system::error_code{}, failure,
                                                   std::move(piece),
                                                   asio::as_tuple(asio::use_awaitable));
    if (gone || last) co_return;
  }
}

void file_source::state::start_producing(const object_info& file,
                                         const std::shared_ptr<state>& self) {
  if (producing) return;
  producing = true;
  const unsigned pieces = client->config.inflate_ahead;
  const asio::any_io_executor& ex = client->state->executor;
  inflated.emplace(ex, pieces);
  spare.emplace(ex, pieces);
  for (unsigned i = 0; i < pieces; ++i) {
    std::string piece;
    piece.reserve(inflated_piece_bytes);
    spare->try_send(boost::system::error_code{}, nullptr, std::move(piece));
  }
  asio::co_spawn(ex, produce(self, file), asio::detached);
}

file_source::~file_source() {
  if (state_ && state_->producing) {
    state_->abandoned = true;
    state_->inflated->close();
    state_->spare->close();
  }
}

asio::awaitable<std::span<const char>> file_source::next() {
  if (!put_back_.empty()) co_return std::exchange(put_back_, {});
  state& s = *state_;
  if (s.client->config.inflate_ahead == 0) co_return co_await s.inflate_next(file_);
  s.start_producing(file_, state_);
  // The piece handed out last is the decoder's no longer (it copies what it keeps).
  if (std::exchange(s.holding, false)) {
    s.spare->try_send(boost::system::error_code{}, nullptr, std::move(s.held));
  }
  auto [ec, failure, piece] =
      co_await s.inflated->async_receive(asio::as_tuple(asio::use_awaitable));
  if (failure) std::rethrow_exception(failure);
  if (ec) {
    throw transport_error(make_error_code(errc::cancelled),
                          file_.key + ": reading the file was cancelled");
  }
  s.held = std::move(piece);
  s.holding = true;
  co_return std::span<const char>(s.held);
}

}  // namespace detail

client::client(boost::asio::any_io_executor executor, files_config config)
    : impl_(std::make_shared<detail::client_impl>(std::move(executor), std::move(config))) {}

client::~client() = default;

boost::asio::awaitable<listing_page> client::list_page(std::string prefix, std::string delimiter,
                                                       std::string continuation) {
  using detail::uri_encode;
  std::string target = "/" + uri_encode(impl_->config.bucket, true) +
                       "?list-type=2&prefix=" + uri_encode(prefix, true);
  if (!delimiter.empty()) target += "&delimiter=" + uri_encode(delimiter, true);
  if (!continuation.empty()) target += "&continuation-token=" + uri_encode(continuation, true);
  detail::listing_sink sink;
  // Named, not temporaries: g++ 12 destroys some temporaries of a co_await expression twice.
  const call_options call;
  const std::string what = "listing " + prefix;
  co_await detail::get(*impl_, target, sink, call, what);
  co_return detail::parse_list_objects(sink.body);
}

boost::asio::awaitable<listing_page> client::list_all(std::string prefix, std::string delimiter) {
  listing_page all;
  std::string token;
  // A listing ends. A server that would not end one (a token given before; a truncated page
  // without one is refused by the parser) is refused rather than followed round, and so is one
  // longer than max_listing_pages, whose keys would grow `all` without bound.
  std::set<std::string> tokens_seen;
  for (std::size_t pages = 1;; ++pages) {
    listing_page page = co_await list_page(prefix, delimiter, token);
    // S3 lists what starts with the prefix asked; anything else is not of this listing.
    const auto outside = [&](const std::string& key) {
      if (key.starts_with(prefix)) return;
      throw files_error(files_errc::malformed_listing,
                        "a key outside the prefix asked (" + prefix + "): '" +
                            transport::sanitize(key, 200) + "'");
    };
    for (const object_info& o : page.objects) outside(o.key);
    for (const std::string& p : page.common_prefixes) outside(p);
    for (object_info& o : page.objects) all.objects.push_back(std::move(o));
    for (std::string& p : page.common_prefixes) all.common_prefixes.push_back(std::move(p));
    if (!page.truncated) break;
    if (!tokens_seen.insert(page.next_continuation_token).second) {
      throw files_error(files_errc::malformed_listing,
                        "a continuation token that repeats an earlier one");
    }
    if (pages == detail::max_listing_pages) {
      throw files_error(files_errc::malformed_listing, "a listing longer than " +
                                                           std::to_string(detail::max_listing_pages) +
                                                           " pages");
    }
    token = std::move(page.next_continuation_token);
  }
  co_return all;
}

boost::asio::awaitable<std::vector<object_info>> client::list(std::string prefix) {
  const std::string no_delimiter;  // named: see list_page
  listing_page all = co_await list_all(std::move(prefix), no_delimiter);
  co_return std::move(all.objects);
}

boost::asio::awaitable<std::vector<std::string>> client::list_folders(std::string prefix) {
  const std::string folders = "/";
  listing_page all = co_await list_all(std::move(prefix), folders);
  co_return std::move(all.common_prefixes);
}

boost::asio::awaitable<object_info> client::stat(std::string key) {
  const listing_page page = co_await list_page(key);
  for (const object_info& o : page.objects) {
    if (o.key == key) co_return o;
  }
  throw files_error(files_errc::not_found, key + ": no such file in the bucket's listing");
}

boost::asio::awaitable<std::uint64_t> client::fetch(
    const object_info& file, std::uint64_t from, std::uint64_t length,
    std::function<void(std::span<const char>)> sink) {
  co_return co_await detail::fetch_range(impl_, file, from, length, std::move(sink));
}

boost::asio::awaitable<std::vector<object_info>> client::days(market m, dataset d,
                                                              std::chrono::year_month_day first,
                                                              std::chrono::year_month_day last) {
  using namespace std::chrono;
  require_wire_date(first);
  require_wire_date(last);
  std::vector<object_info> out;
  for (year_month month = first.year() / first.month(); month <= last.year() / last.month();
       month += months{1}) {
    char folder[16];
    std::snprintf(folder, sizeof folder, "%04d/%02u/", int{month.year()}, unsigned{month.month()});
    const std::string prefix = dataset_prefix(m, d) + folder;
    for (object_info& o : co_await list(prefix)) {
      // A day's file is its canonical key; anything else in the folder is not one.
      const auto day = day_of(o.key);
      if (day && sys_days{*day} >= sys_days{first} && sys_days{*day} <= sys_days{last} &&
          o.key == file_key(m, d, *day)) {
        out.push_back(std::move(o));
      }
    }
  }
  std::sort(out.begin(), out.end(),
            [](const object_info& a, const object_info& b) { return a.key < b.key; });
  co_return out;
}

std::unique_ptr<detail::file_source> client::open(object_info file) {
  return std::make_unique<detail::file_source>(impl_, std::move(file));
}

}  // namespace massive::files
