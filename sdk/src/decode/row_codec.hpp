// The type-erased hook between the model-independent decoder and one model's row decoder:
// each model's .cpp defines row_codec_for(std::type_identity<Model>) returning one of these.
#pragma once

#include <cstddef>

namespace massive::detail {

class batch;

struct row_codec {
  std::size_t row_size;
  std::size_t row_align;
  /// Decodes every element of the batch's JSON array, appending one row per element to the
  /// page builder; throws decode_error naming the row and field.
  void (*decode_batch)(batch& b);
};

}  // namespace massive::detail
