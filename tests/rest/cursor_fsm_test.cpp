// The traversal's state machine without sockets: each case feeds it the caller's calls and what
// the driver's actions came to, and checks the transcript of the actions it chose.
#include <massive/detail/cursor_fsm.hpp>
#include <massive/error.hpp>

#include <doctest/doctest.h>

#include <exception>
#include <initializer_list>
#include <string>
#include <string_view>

using massive::detail::cursor_action;
using massive::detail::cursor_answer;
using massive::detail::cursor_event;
using massive::detail::cursor_fsm;
using massive::detail::cursor_step;
using massive::detail::traversal;
using kind = cursor_event::kind;

namespace {

constexpr bool prefetch = true;
constexpr bool no_prefetch = false;

cursor_fsm machine(bool prefetching, std::optional<std::size_t> max_pages = {},
                   std::optional<std::size_t> max_empty_pages = {}) {
  return cursor_fsm("/a", max_pages, max_empty_pages, prefetching);
}

cursor_event happened(kind what) {
  cursor_event e;
  e.what = what;
  return e;
}

const cursor_event next = happened(kind::next);
const cursor_event done = happened(kind::done);
const cursor_event cancel = happened(kind::cancel);
const cursor_event abandon = happened(kind::abandon);
const cursor_event drop = happened(kind::drop);

cursor_event fetched(bool failed = false) {
  cursor_event e = happened(kind::fetched);
  e.failed = failed;
  return e;
}

const cursor_event failed = fetched(true);

// The page taken carried `next_url` (blank: the last page) and `rows` rows.
cursor_event taken(std::string_view next_url, std::size_t rows = 1) {
  cursor_event e = happened(kind::page_taken);
  e.next_url = next_url;
  e.rows = rows;
  return e;
}

std::string describe(const cursor_action& a) {
  switch (a.step) {
    case cursor_step::wait: return "wait";
    case cursor_step::send: return "send";
    case cursor_step::park: return "park";
    case cursor_step::take_page: return "take_page";
    case cursor_step::discard_body: return "discard_body";
    case cursor_step::cancel_request: return "cancel_request";
    case cursor_step::release_decoder: return "release_decoder";
    case cursor_step::free_decoder: return "free_decoder";
    case cursor_step::deliver: break;
  }
  switch (a.answer) {
    case cursor_answer::page: return "deliver page";
    case cursor_answer::end: return "deliver end";
    case cursor_answer::failure: return "deliver failure";
    case cursor_answer::refused: break;
  }
  switch (a.refusal) {
    case traversal::step::repeated: return "deliver refused repeated";
    case traversal::step::cycle: return "deliver refused cycle";
    case traversal::step::empty_pages: return "deliver refused empty_pages";
    case traversal::step::fetch:
    case traversal::step::finished: break;
  }
  return "deliver refused ?";
}

// The actions chosen after each event, one per line.
std::string run(cursor_fsm& fsm, std::initializer_list<cursor_event> events) {
  std::string transcript;
  for (const cursor_event& e : events) transcript += describe(fsm.resume(e)) + "\n";
  return transcript;
}

boost::system::error_code code_of(std::exception_ptr e) {
  try {
    std::rethrow_exception(e);
  } catch (const massive::transport_error& error) {
    return error.code();
  }
  return {};
}

}  // namespace

TEST_CASE("without prefetch: each next() sends, each page is taken and handed over, then the end") {
  cursor_fsm fsm = machine(no_prefetch);
  // regression: the hand-over sending ahead without prefetch (`prefetch_ &&` dropped) -> fails with "send, wait,
  // take_page, send"
  CHECK(run(fsm, {next, done, fetched(), taken("/b")}) == "send\nwait\ntake_page\ndeliver page\n");
  // regression: page_taken not advancing the rules -> fails with "/a"
  CHECK(fsm.rules().target() == "/b");
  // regression: page_taken not advancing the rules -> fails with 0
  CHECK(fsm.rules().pages() == 1);
  // regression: the hand-over sending ahead without prefetch (`prefetch_ &&` dropped) -> fails with "wait, deliver
  // page, take_page, deliver page"
  CHECK(run(fsm, {next, done, fetched(), taken("")}) == "send\nwait\ntake_page\ndeliver page\n");
  // regression: page_taken not advancing the rules -> fails with false
  CHECK(fsm.rules().done());
  // A next() after the end, and again: the end, nothing sent.
  // regression: the `finished` step answered as `fetch` -> fails with "send, wait"
  CHECK(run(fsm, {next, next}) == "deliver end\ndeliver end\n");
  // regression: cancel() with nothing in flight answering cancel_request -> fails with "cancel_request,
  // release_decoder"
  CHECK(run(fsm, {cancel, drop}) == "wait\nrelease_decoder\n");
}

TEST_CASE("without prefetch: a failed request drops its partial body and the traversal stays put") {
  cursor_fsm fsm = machine(no_prefetch);
  // regression: every next() parks, prefetch or not -> fails with "send, park, discard_body, deliver failure"
  CHECK(run(fsm, {next, done, failed, done}) == "send\nwait\ndiscard_body\ndeliver failure\n");
  // regression: a delivered failure advancing the rules past the page (advance("")) -> fails with 1
  CHECK(fsm.rules().pages() == 0);
  // regression: a delivered failure advancing the rules past the page (advance("")) -> fails with ""
  CHECK(fsm.rules().target() == "/a");
  // regression: every next() parks, prefetch or not -> fails with "send, park, take_page, deliver page"
  CHECK(run(fsm, {next, done, fetched(), taken("")}) == "send\nwait\ntake_page\ndeliver page\n");
}

TEST_CASE("a refused next_url is answered without a request, every time it is asked") {
  cursor_fsm repeated = machine(prefetch);
  // regression: the hand-over sending ahead whatever the rules say (`would_fetch()` dropped) -> fails with "send, park,
  // take_page, send"
  CHECK(run(repeated, {next, done, fetched(), taken("/a")}) == "send\npark\ntake_page\ndeliver page\n");
  // regression: the hand-over sending ahead whatever the rules say (`would_fetch()` dropped) -> fails with "wait, wait"
  CHECK(run(repeated, {next, next}) == "deliver refused repeated\ndeliver refused repeated\n");
  // regression: refusal_error() giving errc::empty_pages for a repeat -> fails with massive:16
  CHECK(code_of(massive::detail::refusal_error(repeated.rules(), traversal::step::repeated)) ==
        massive::errc::repeated_cursor);

  // Two pages in a row without rows refuse; a page with rows between them starts the count again.
  cursor_fsm empty = machine(no_prefetch, {}, 2);
  // regression: the hand-over sending ahead without prefetch (`prefetch_ &&` dropped) -> fails with "send, wait,
  // take_page, send, wait, deliver page, take_page, send"
  CHECK(run(empty, {next, done, fetched(), taken("/b", 0), next, done, fetched(), taken("/c", 1)}) ==
        "send\nwait\ntake_page\ndeliver page\nsend\nwait\ntake_page\ndeliver page\n");
  // regression: page_taken advancing with 0 rows -> fails with "deliver refused empty_pages, wait, wait, wait, ..."
  // (refused after /c)
  CHECK(run(empty, {next, done, fetched(), taken("/d", 0), next, done, fetched(), taken("/e", 0), next}) ==
        "send\nwait\ntake_page\ndeliver page\nsend\nwait\ntake_page\ndeliver page\ndeliver refused empty_pages\n");
  // regression: refusal_error() giving errc::repeated_cursor for empty pages -> fails with massive:10
  CHECK(code_of(massive::detail::refusal_error(empty.rules(), traversal::step::empty_pages)) ==
        massive::errc::empty_pages);
  // regression: refusal_error() giving an error for `finished` -> fails with "{?}"
  CHECK(massive::detail::refusal_error(empty.rules(), traversal::step::finished) == nullptr);
}

TEST_CASE("prefetch: the hand-over of page N sends for page N+1 before delivering N") {
  cursor_fsm fsm = machine(prefetch);
  // regression: the page owed after sending ahead not delivered -> fails with "send, park, take_page, send, wait"
  CHECK(run(fsm, {next, done, fetched(), taken("/b"), done}) == "send\npark\ntake_page\nsend\ndeliver page\n");
  // regression: page_taken not advancing the rules -> fails with "/a"
  CHECK(fsm.rules().target() == "/b");
  // regression: prefetched() true whenever the machine is not idle -> fails with true
  CHECK_FALSE(fsm.prefetched());
  // Page 2 arrives with no next() asked: it stays in the decoder until one is.
  // regression: a page ahead taken as soon as it arrives -> fails with take_page
  CHECK(run(fsm, {fetched()}) == "wait\n");
  // regression: a page ahead taken as soon as it arrives -> fails with false
  CHECK(fsm.prefetched());
  // regression: a page ahead taken as soon as it arrives -> fails with "wait, send, deliver page"
  CHECK(run(fsm, {next, taken("/c"), done}) == "take_page\nsend\ndeliver page\n");
  // A next() while page 3 is on its way waits for it; page 3 is the last: nothing sent after it.
  // regression: the hand-over sending ahead whatever the rules say (`would_fetch()` dropped) -> fails with "park,
  // take_page, send"
  CHECK(run(fsm, {next, fetched(), taken("")}) == "park\ntake_page\ndeliver page\n");
  // regression: a next() during a request in flight sending again -> fails with false
  CHECK(fsm.rules().done());
  // regression: a next() during a request in flight sending again -> fails with 2
  CHECK(fsm.rules().pages() == 3);
  // The end, and a next() after it.
  // regression: the `finished` step answered as `fetch` -> fails with "send, wait"
  CHECK(run(fsm, {next, next}) == "deliver end\ndeliver end\n");
}

TEST_CASE("prefetch: the page cap stops the request ahead") {
  cursor_fsm fsm = machine(prefetch, 2);
  // regression: the page owed after sending ahead not delivered -> fails with "send, park, take_page, send, wait"
  CHECK(run(fsm, {next, done, fetched(), taken("/b"), done}) == "send\npark\ntake_page\nsend\ndeliver page\n");
  // regression: the hand-over sending ahead whatever the rules say (`would_fetch()` dropped) -> fails with "park,
  // take_page, send"
  CHECK(run(fsm, {next, fetched(), taken("/c")}) == "park\ntake_page\ndeliver page\n");
  // regression: the hand-over sending ahead on rules_.next() instead of would_fetch() -> fails with true
  CHECK_FALSE(fsm.rules().reached_page_cap());
  // regression: the `finished` step answered as `fetch` -> fails with send
  CHECK(run(fsm, {next}) == "deliver end\n");
  // regression: the hand-over sending ahead whatever the rules say (`would_fetch()` dropped) -> fails with false
  CHECK(fsm.rules().reached_page_cap());
}

TEST_CASE("prefetch: an error arriving while a next() is parked fails that next(); asking again resends") {
  cursor_fsm fsm = machine(prefetch);
  // regression: the page owed after sending ahead not delivered -> fails with "send, park, take_page, send, wait"
  CHECK(run(fsm, {next, done, fetched(), taken("/b"), done}) == "send\npark\ntake_page\nsend\ndeliver page\n");
  // regression: a failed request taken as a page (`event.failed` ignored) -> fails with "park, take_page, wait"
  CHECK(run(fsm, {next, failed, done}) == "park\ndiscard_body\ndeliver failure\n");
  // regression: a delivered failure advancing the rules past the page (advance("")) -> fails with ""
  CHECK(fsm.rules().target() == "/b");
  // regression: a delivered failure advancing the rules past the page (advance("")) -> fails with 2
  CHECK(fsm.rules().pages() == 1);
  // regression: a delivered failure advancing the rules past the page (advance("")) -> fails with "deliver end, wait"
  CHECK(run(fsm, {next, done}) == "send\npark\n");
}

TEST_CASE("prefetch: an error arriving before any next() waits for the next() that would get its page") {
  cursor_fsm fsm = machine(prefetch);
  // regression: the page owed after sending ahead not delivered -> fails with "send, park, take_page, send, wait"
  CHECK(run(fsm, {next, done, fetched(), taken("/b"), done}) == "send\npark\ntake_page\nsend\ndeliver page\n");
  // regression: a failure delivered with no next() parked -> fails with "discard_body, deliver failure"
  CHECK(run(fsm, {failed, done}) == "discard_body\nwait\n");
  // regression: a failure delivered with no next() parked -> fails with false
  CHECK(fsm.prefetched());
  // regression: a ready failure taken as a page (`failed_` ignored) -> fails with take_page
  CHECK(run(fsm, {next}) == "deliver failure\n");
  // regression: prefetched() remembering a failure delivered -> fails with true
  CHECK_FALSE(fsm.prefetched());
  // regression: a ready failure taken as a page (`failed_` ignored) -> fails with "wait, wait"
  CHECK(run(fsm, {next, done}) == "send\npark\n");
  // regression: page_taken not advancing the rules -> fails with "/a"
  CHECK(fsm.rules().target() == "/b");
}

TEST_CASE("prefetch: cancel() while the request ahead is in flight drops what it brings") {
  cursor_fsm fsm = machine(prefetch);
  // regression: the page owed after sending ahead not delivered -> fails with "send, park, take_page, send, wait"
  CHECK(run(fsm, {next, done, fetched(), taken("/b"), done}) == "send\npark\ntake_page\nsend\ndeliver page\n");
  // regression: in_flight() true only once the cursor is gone -> fails with false
  CHECK(fsm.in_flight());
  // Its body arrived whole before the cancellation landed: dropped all the same.
  // regression: cancel() not setting `discard_` -> fails with "cancel_request, wait, wait"
  CHECK(run(fsm, {cancel, fetched(), done}) == "cancel_request\ndiscard_body\nwait\n");
  // regression: cancel() not setting `discard_` -> fails with true
  CHECK_FALSE(fsm.prefetched());
  // regression: a dropped request leaving the machine in_flight -> fails with true
  CHECK_FALSE(fsm.in_flight());
  // regression: page_taken not advancing the rules -> fails with 0
  CHECK(fsm.rules().pages() == 1);
  // The next next() asks for the same page again.
  // regression: a dropped request leaving the machine in_flight -> fails with "park, wait"
  CHECK(run(fsm, {next, done}) == "send\npark\n");
  // regression: page_taken not advancing the rules -> fails with "/a"
  CHECK(fsm.rules().target() == "/b");
}

TEST_CASE("prefetch: a next() after cancel(), before the request dropped completes, sends it again") {
  cursor_fsm fsm = machine(prefetch);
  // regression: the page owed after sending ahead not delivered -> fails with "send, park, take_page, send, wait"
  CHECK(run(fsm, {next, done, fetched(), taken("/b"), done}) == "send\npark\ntake_page\nsend\ndeliver page\n");
  // regression: a next() parked after cancel() left waiting instead of sent for -> fails with "cancel_request, park,
  // discard_body, wait, wait"
  CHECK(run(fsm, {cancel, next, failed, done, done}) == "cancel_request\npark\ndiscard_body\nsend\nwait\n");
  // regression: cancel() not setting `discard_` -> fails with "wait, wait"
  CHECK(run(fsm, {fetched(), taken("")}) == "take_page\ndeliver page\n");
  // regression: cancel() not setting `discard_` -> fails with false
  CHECK(fsm.rules().done());
}

TEST_CASE("prefetch: cancel() of a page ready drops it; cancel() with nothing ahead does nothing") {
  cursor_fsm fsm = machine(prefetch);
  // regression: cancel() with nothing in flight answering cancel_request -> fails with cancel_request
  CHECK(run(fsm, {cancel}) == "wait\n");
  // regression: a page ahead taken as soon as it arrives -> fails with "send, park, take_page, send, deliver page,
  // take_page"
  CHECK(run(fsm, {next, done, fetched(), taken("/b"), done, fetched()}) ==
        "send\npark\ntake_page\nsend\ndeliver page\nwait\n");
  // regression: cancel() of a page ready doing nothing -> fails with "wait, wait"
  CHECK(run(fsm, {cancel, done}) == "discard_body\nwait\n");
  // regression: cancel() of a page ready doing nothing -> fails with true
  CHECK_FALSE(fsm.prefetched());
  // regression: cancel() of a page ready doing nothing -> fails with "take_page, wait"
  CHECK(run(fsm, {next, done}) == "send\npark\n");
  // regression: page_taken not advancing the rules -> fails with "/a"
  CHECK(fsm.rules().target() == "/b");
}

TEST_CASE("prefetch: cancelling the parked next() cancels the request it waits for, and gets its failure") {
  cursor_fsm fsm = machine(prefetch);
  // regression: a failed request taken as a page (`event.failed` ignored) -> fails with "wait, send, park,
  // cancel_request, take_page, wait"
  CHECK(run(fsm, {abandon, next, done, abandon, failed, done}) ==
        "wait\nsend\npark\ncancel_request\ndiscard_body\ndeliver failure\n");
  // Not parked: a late cancellation finds nothing to cancel.
  // regression: abandon cancelling with nothing parked -> fails with "send, park, take_page, send, deliver page,
  // cancel_request"
  CHECK(run(fsm, {next, done, fetched(), taken("/b"), done, abandon}) ==
        "send\npark\ntake_page\nsend\ndeliver page\nwait\n");
  // After cancel(), the parked next()'s own cancellation ends it: the page is not sent for again.
  // regression: abandon leaving `discard_` set -> fails with "cancel_request, park, cancel_request, discard_body, send"
  CHECK(run(fsm, {cancel, next, abandon, failed, done}) ==
        "cancel_request\npark\ncancel_request\ndiscard_body\ndeliver failure\n");
}

TEST_CASE("the cursor's destruction: the decoder back to its cache, or freed by the request in flight") {
  cursor_fsm idle = machine(prefetch);
  // regression: drop of an idle cursor cancelling instead of releasing -> fails with cancel_request
  CHECK(run(idle, {drop}) == "release_decoder\n");

  cursor_fsm ready = machine(prefetch);
  // regression: drop of a cursor with a page ready doing nothing -> fails with "send, park, take_page, send, deliver
  // page, wait, wait"
  CHECK(run(ready, {next, done, fetched(), taken("/b"), done, fetched(), drop}) ==
        "send\npark\ntake_page\nsend\ndeliver page\nwait\nrelease_decoder\n");

  cursor_fsm in_flight = machine(prefetch);
  // regression: drop with a request in flight releasing the decoder at once -> fails with "send, park, take_page, send,
  // deliver page, release_decoder"
  CHECK(run(in_flight, {next, done, fetched(), taken("/b"), done, drop}) ==
        "send\npark\ntake_page\nsend\ndeliver page\ncancel_request\n");
  // regression: in_flight() false once the cursor is gone -> fails with false
  CHECK(in_flight.in_flight());
  // regression: the completion after a drop releasing the decoder to its cache -> fails with "wait, release_decoder"
  CHECK(run(in_flight, {abandon, fetched()}) == "wait\nfree_decoder\n");
  // regression: the completion after a drop leaving the machine gone_in_flight -> fails with true
  CHECK_FALSE(in_flight.in_flight());

  // Without prefetch nothing is sent ahead: the decoder goes back at once.
  cursor_fsm plain = machine(no_prefetch);
  // regression: cancel() without prefetch cancelling -> fails with "send, wait, cancel_request, release_decoder"
  CHECK(run(plain, {next, done, cancel, drop}) == "send\nwait\nwait\nrelease_decoder\n");
}
