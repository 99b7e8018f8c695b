#include "massive/trace.hpp"

#include <cstdio>

namespace massive {
namespace {

void append_ms(std::string& out, const char* label, std::chrono::nanoseconds d) {
  char buf[64];
  std::snprintf(buf, sizeof buf, ", %s %.3f ms", label,
                std::chrono::duration<double, std::milli>(d).count());
  out += buf;
}

}  // namespace

std::string to_string(const trace_event& e) {
  std::string out;
  out.reserve(160 + e.target.size() + e.error.size());
  out.append(e.method).append(" ").append(e.host).append(e.target).append(" -> ");
  out += e.status != 0 ? std::to_string(e.status) : std::string("no response");
  out += " (attempt " + std::to_string(e.attempt);
  out += e.reused_connection ? ", reused" : ", new connection";
  out += ", " + std::to_string(e.body_bytes) + " bytes";
  if (e.wait_time.count() != 0) append_ms(out, "wait", e.wait_time);
  if (e.connect_time.count() != 0) append_ms(out, "connect", e.connect_time);
  if (e.time_to_headers.count() != 0) append_ms(out, "headers", e.time_to_headers);
  append_ms(out, "total", e.total_time);
  if (!e.request_id.empty()) out.append(", request_id ").append(e.request_id);
  out += ")";
  if (!e.error.empty()) out.append(": ").append(e.error);
  if (e.retry_in) out += "; retrying in " + std::to_string(e.retry_in->count()) + " ms";
  return out;
}

}  // namespace massive
