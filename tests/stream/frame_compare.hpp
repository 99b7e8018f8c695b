// The stream tests' yardstick: a batch written back by the generated writers, compared with a
// DOM parse of the frame the server sent.
#pragma once

#include <massive/stream/batch.hpp>

#include <string>
#include <vector>

namespace massive::test {

/// The batch's events in wire order as one JSON array, each written by its generated writer.
std::string written_events(const stream::batch& b);

/// The differences between the events of `frame` (as sent) and `written` (written_events of
/// its batch), one line each ("[1].p: numbers differ"), both ways: every key sent (but `ev`)
/// must have been written, every key written must have been sent, with the same value (null
/// sent counts as absent). Empty when they agree.
std::vector<std::string> frame_differences(const std::string& frame, const std::string& written);

}  // namespace massive::test
