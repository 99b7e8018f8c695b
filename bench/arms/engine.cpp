// The SDK itself: the chunks fed to one long-lived page_decoder over a warm pool, as the
// transport does (decoder.hpp: "Reuse one decoder for many bodies").
#include "arms.hpp"

namespace massive::bench {

template <class T>
page<T> engine_arm::decode(page_decoder<T>& decoder, const body& b) {
  for (auto c : b.chunks) decoder.feed(c);
  decoder.finish();
  return decoder.take();
}

page<agg> engine_arm::aggs(const body& b) { return decode(aggs_, b); }
page<trade> engine_arm::trades(const body& b) { return decode(trades_, b); }

}  // namespace massive::bench
