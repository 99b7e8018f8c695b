// Replays fuzz inputs through a fuzz target's entry point (LLVMFuzzerTestOneInput), without
// libFuzzer: a test of the ordinary sanitizer build. Each argument is a directory (every file in
// it, in name order) or a file. A finding aborts, as it does under libFuzzer (the targets call
// std::abort; the sanitizers stop at their first report). Exits 1 when an argument does not
// exist or a directory holds nothing, so that a corpus gone missing fails instead of passing.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <memory>
#include <vector>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size);

namespace {

void replay(const std::filesystem::path& input) {
  std::ifstream file(input, std::ios::binary);
  const std::vector<char> bytes{std::istreambuf_iterator<char>(file), std::istreambuf_iterator<char>()};
  // A copy of exactly the input's size, as libFuzzer hands it over: a read past the end is
  // ASan's to see.
  const auto data = std::make_unique<std::uint8_t[]>(bytes.size());
  std::copy(bytes.begin(), bytes.end(), data.get());
  LLVMFuzzerTestOneInput(data.get(), bytes.size());
}

}  // namespace

int main(int argc, char** argv) {
  for (int i = 1; i < argc; ++i) {
    const std::filesystem::path argument = argv[i];
    std::vector<std::filesystem::path> inputs;
    if (std::filesystem::is_directory(argument)) {
      for (const auto& entry : std::filesystem::directory_iterator(argument)) {
        if (entry.is_regular_file()) inputs.push_back(entry.path());
      }
      std::sort(inputs.begin(), inputs.end());
    } else if (std::filesystem::is_regular_file(argument)) {
      inputs.push_back(argument);
    }
    if (inputs.empty()) {
      std::fprintf(stderr, "fuzz replay: no input in %s\n", argv[i]);
      return 1;
    }
    for (const auto& input : inputs) replay(input);
    std::printf("fuzz replay: %zu inputs of %s\n", inputs.size(), argv[i]);
  }
  return 0;
}
