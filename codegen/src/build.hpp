// Reads the description with the map into the generator's model (ir.hpp), checking both:
// every problem is collected and reported at once, each naming the operation or field and the
// map row to add.
#pragma once

#include "ir.hpp"
#include "json.hpp"
#include "map.hpp"

#include <stdexcept>
#include <string>
#include <vector>

namespace massive::codegen {

/// Generation refused: every problem found, one per line.
class generation_error : public std::runtime_error {
 public:
  explicit generation_error(std::vector<std::string> problems);
  const std::vector<std::string>& problems() const noexcept { return problems_; }

 private:
  std::vector<std::string> problems_;
};

api build(const json& spec, const curated_map& map);

}  // namespace massive::codegen
