// Leaves a required parameter (ticker) out of a designated initializer: this file must NOT
// compile, and the compiler's message must name the parameter (test codegen_required_named).
#include <massive/stocks.hpp>

#include <chrono>

int main() {
  using namespace std::chrono;
  const massive::stocks_aggregates_params params{.multiplier = 1,
                                                 .timespan = massive::timespan::day,
                                                 .from = 2024y / January / 2,
                                                 .to = 2024y / January / 12};
  return static_cast<int>(params.target().size());
}
