// The change report: what a regeneration changed for a user, in C++ terms, and which of the
// changes break source compatibility. It compares the surface generated/ had (surface.txt)
// with the one the regeneration writes, and lists the names the map did not give and what was
// not generated, so that an unattended regeneration's review starts from one page.
#pragma once

#include "build.hpp"

#include <string>
#include <string_view>

namespace massive::codegen {

struct change_report {
  std::string markdown;  // generated/CHANGES.md
  std::size_t breaking = 0;
  std::size_t additions = 0;
  std::size_t others = 0;
  bool changed() const noexcept { return breaking + additions + others != 0; }
};

/// `before` is "" when generated/ had no surface yet.
change_report compare_surfaces(std::string_view before, std::string_view after, const notices& n);

}  // namespace massive::codegen
