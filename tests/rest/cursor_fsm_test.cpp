// The traversal's state machine without sockets: each case feeds it the caller's calls and what
// the driver's actions came to, and checks the transcript of the actions it chose.
#include "rest/cursor_fsm.hpp"

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
  CHECK(run(fsm, {next, done, fetched(), taken("/b")}) == "send\nwait\ntake_page\ndeliver page\n");
  CHECK(fsm.rules().target() == "/b");
  CHECK(fsm.rules().pages() == 1);
  CHECK_FALSE(fsm.prefetched());
  CHECK(run(fsm, {next, done, fetched(), taken("")}) == "send\nwait\ntake_page\ndeliver page\n");
  CHECK(fsm.rules().done());
  // A next() after the end, and again: the end, nothing sent.
  CHECK(run(fsm, {next, next}) == "deliver end\ndeliver end\n");
  CHECK(run(fsm, {cancel, drop}) == "wait\nrelease_decoder\n");
}

TEST_CASE("without prefetch: a failed request drops its partial body and the traversal stays put") {
  cursor_fsm fsm = machine(no_prefetch);
  CHECK(run(fsm, {next, done, failed, done}) == "send\nwait\ndiscard_body\ndeliver failure\n");
  CHECK(fsm.rules().pages() == 0);
  CHECK(fsm.rules().target() == "/a");
  CHECK(run(fsm, {next, done, fetched(), taken("")}) == "send\nwait\ntake_page\ndeliver page\n");
}

TEST_CASE("a refused next_url is answered without a request, every time it is asked") {
  cursor_fsm repeated = machine(prefetch);
  CHECK(run(repeated, {next, done, fetched(), taken("/a")}) == "send\npark\ntake_page\ndeliver page\n");
  CHECK(run(repeated, {next, next}) == "deliver refused repeated\ndeliver refused repeated\n");
  CHECK(code_of(massive::detail::refusal_error(repeated.rules(), traversal::step::repeated)) ==
        massive::errc::repeated_cursor);

  cursor_fsm empty = machine(no_prefetch, {}, 1);
  CHECK(run(empty, {next, done, fetched(), taken("/b", 0), next}) ==
        "send\nwait\ntake_page\ndeliver page\ndeliver refused empty_pages\n");
  CHECK(code_of(massive::detail::refusal_error(empty.rules(), traversal::step::empty_pages)) ==
        massive::errc::empty_pages);
  CHECK(massive::detail::refusal_error(empty.rules(), traversal::step::finished) == nullptr);
}

TEST_CASE("prefetch: the hand-over of page N sends for page N+1 before delivering N") {
  cursor_fsm fsm = machine(prefetch);
  CHECK(run(fsm, {next, done, fetched(), taken("/b"), done}) == "send\npark\ntake_page\nsend\ndeliver page\n");
  CHECK(fsm.rules().target() == "/b");
  CHECK_FALSE(fsm.prefetched());
  // Page 2 arrives with no next() asked: it stays in the decoder until one is.
  CHECK(run(fsm, {fetched()}) == "wait\n");
  CHECK(fsm.prefetched());
  CHECK(run(fsm, {next, taken("/c"), done}) == "take_page\nsend\ndeliver page\n");
  // A next() while page 3 is on its way waits for it; page 3 is the last: nothing sent after it.
  CHECK(run(fsm, {next, fetched(), taken("")}) == "park\ntake_page\ndeliver page\n");
  CHECK(fsm.rules().done());
  CHECK(fsm.rules().pages() == 3);
  // The end, and a next() after it.
  CHECK(run(fsm, {next, next}) == "deliver end\ndeliver end\n");
}

TEST_CASE("prefetch: the page cap stops the request ahead") {
  cursor_fsm fsm = machine(prefetch, 2);
  CHECK(run(fsm, {next, done, fetched(), taken("/b"), done}) == "send\npark\ntake_page\nsend\ndeliver page\n");
  CHECK(run(fsm, {next, fetched(), taken("/c")}) == "park\ntake_page\ndeliver page\n");
  CHECK_FALSE(fsm.rules().reached_page_cap());
  CHECK(run(fsm, {next}) == "deliver end\n");
  CHECK(fsm.rules().reached_page_cap());
}

TEST_CASE("prefetch: an error arriving while a next() is parked fails that next(); asking again resends") {
  cursor_fsm fsm = machine(prefetch);
  CHECK(run(fsm, {next, done, fetched(), taken("/b"), done}) == "send\npark\ntake_page\nsend\ndeliver page\n");
  CHECK(run(fsm, {next, failed, done}) == "park\ndiscard_body\ndeliver failure\n");
  CHECK(fsm.rules().target() == "/b");
  CHECK(fsm.rules().pages() == 1);
  CHECK(run(fsm, {next, done}) == "send\npark\n");
}

TEST_CASE("prefetch: an error arriving before any next() waits for the next() that would get its page") {
  cursor_fsm fsm = machine(prefetch);
  CHECK(run(fsm, {next, done, fetched(), taken("/b"), done}) == "send\npark\ntake_page\nsend\ndeliver page\n");
  CHECK(run(fsm, {failed, done}) == "discard_body\nwait\n");
  CHECK(fsm.prefetched());
  CHECK(run(fsm, {next}) == "deliver failure\n");
  CHECK_FALSE(fsm.prefetched());
  CHECK(run(fsm, {next, done}) == "send\npark\n");
  CHECK(fsm.rules().target() == "/b");
}

TEST_CASE("prefetch: cancel() while the request ahead is in flight drops what it brings") {
  cursor_fsm fsm = machine(prefetch);
  CHECK(run(fsm, {next, done, fetched(), taken("/b"), done}) == "send\npark\ntake_page\nsend\ndeliver page\n");
  CHECK(fsm.in_flight());
  // Its body arrived whole before the cancellation landed: dropped all the same.
  CHECK(run(fsm, {cancel, fetched(), done}) == "cancel_request\ndiscard_body\nwait\n");
  CHECK_FALSE(fsm.prefetched());
  CHECK_FALSE(fsm.in_flight());
  CHECK(fsm.rules().pages() == 1);
  // The next next() asks for the same page again.
  CHECK(run(fsm, {next, done}) == "send\npark\n");
  CHECK(fsm.rules().target() == "/b");
}

TEST_CASE("prefetch: a next() after cancel(), before the request dropped completes, sends it again") {
  cursor_fsm fsm = machine(prefetch);
  CHECK(run(fsm, {next, done, fetched(), taken("/b"), done}) == "send\npark\ntake_page\nsend\ndeliver page\n");
  CHECK(run(fsm, {cancel, next, failed, done, done}) == "cancel_request\npark\ndiscard_body\nsend\nwait\n");
  CHECK(run(fsm, {fetched(), taken("")}) == "take_page\ndeliver page\n");
  CHECK(fsm.rules().done());
}

TEST_CASE("prefetch: cancel() of a page ready drops it; cancel() with nothing ahead does nothing") {
  cursor_fsm fsm = machine(prefetch);
  CHECK(run(fsm, {cancel}) == "wait\n");
  CHECK(run(fsm, {next, done, fetched(), taken("/b"), done, fetched()}) ==
        "send\npark\ntake_page\nsend\ndeliver page\nwait\n");
  CHECK(run(fsm, {cancel, done}) == "discard_body\nwait\n");
  CHECK_FALSE(fsm.prefetched());
  CHECK(run(fsm, {next, done}) == "send\npark\n");
  CHECK(fsm.rules().target() == "/b");
}

TEST_CASE("prefetch: cancelling the parked next() cancels the request it waits for, and gets its failure") {
  cursor_fsm fsm = machine(prefetch);
  CHECK(run(fsm, {abandon, next, done, abandon, failed, done}) ==
        "wait\nsend\npark\ncancel_request\ndiscard_body\ndeliver failure\n");
  // Not parked: a late cancellation finds nothing to cancel.
  CHECK(run(fsm, {next, done, fetched(), taken("/b"), done, abandon}) ==
        "send\npark\ntake_page\nsend\ndeliver page\nwait\n");
  // After cancel(), the parked next()'s own cancellation ends it: the page is not sent for again.
  CHECK(run(fsm, {cancel, next, abandon, failed, done}) ==
        "cancel_request\npark\ncancel_request\ndiscard_body\ndeliver failure\n");
}

TEST_CASE("the cursor's destruction: the decoder back to its cache, or freed by the request in flight") {
  cursor_fsm idle = machine(prefetch);
  CHECK(run(idle, {drop}) == "release_decoder\n");

  cursor_fsm ready = machine(prefetch);
  CHECK(run(ready, {next, done, fetched(), taken("/b"), done, fetched(), drop}) ==
        "send\npark\ntake_page\nsend\ndeliver page\nwait\nrelease_decoder\n");

  cursor_fsm in_flight = machine(prefetch);
  CHECK(run(in_flight, {next, done, fetched(), taken("/b"), done, drop}) ==
        "send\npark\ntake_page\nsend\ndeliver page\ncancel_request\n");
  CHECK(in_flight.in_flight());
  CHECK(run(in_flight, {abandon, fetched()}) == "wait\nfree_decoder\n");
  CHECK_FALSE(in_flight.in_flight());

  // Without prefetch nothing is sent ahead: the decoder goes back at once.
  cursor_fsm plain = machine(no_prefetch);
  CHECK(run(plain, {next, done, drop}) == "send\nwait\nrelease_decoder\n");
}
