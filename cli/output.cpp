#include "output.hpp"

#include <simdjson.h>

#include <algorithm>
#include <charconv>
#include <chrono>
#include <cstdio>
#include <optional>
#include <stdexcept>
#include <unordered_map>
#include <utility>

namespace massive::cli {

namespace ondemand = simdjson::ondemand;

std::string iso8601(long long count, int digits) {
  using namespace std::chrono;
  long long per_second = 1;
  for (int i = 0; i < digits; ++i) per_second *= 10;
  long long seconds = count / per_second, fraction = count % per_second;
  if (fraction < 0) seconds -= 1, fraction += per_second;  // before 1970: the fraction counts forward
  const sys_days day = floor<days>(sys_seconds{std::chrono::seconds{seconds}});
  const year_month_day date{day};
  const long long in_day = seconds - duration_cast<std::chrono::seconds>(day.time_since_epoch()).count();
  char text[64];
  std::snprintf(text, sizeof text, "%04d-%02u-%02uT%02lld:%02lld:%02lld.%0*lldZ", int{date.year()},
                unsigned{date.month()}, unsigned{date.day()}, in_day / 3600, in_day / 60 % 60, in_day % 60, digits,
                fraction);
  return text;
}

std::string terminal_safe(std::string_view text, std::size_t max_bytes) {
  static constexpr std::string_view replacement = "\xEF\xBF\xBD";  // U+FFFD
  std::string out;
  out.reserve(std::min(text.size(), max_bytes));
  std::size_t i = 0;
  while (i < text.size()) {
    const auto byte = [&](std::size_t k) { return static_cast<unsigned char>(text[k]); };
    const unsigned char c = byte(i);
    // The length of a well-formed UTF-8 sequence at i (RFC 3629), or 0.
    std::size_t length = 0;
    if (c < 0x80) {
      length = 1;
    } else if (c >= 0xC2 && c <= 0xDF) {
      length = 2;
    } else if (c >= 0xE0 && c <= 0xEF) {
      length = 3;
    } else if (c >= 0xF0 && c <= 0xF4) {
      length = 4;
    }
    bool valid = length != 0 && i + length <= text.size();
    for (std::size_t k = 1; valid && k < length; ++k) valid = (byte(i + k) & 0xC0) == 0x80;
    if (valid && length == 3) {
      const unsigned char next = byte(i + 1);
      valid = !(c == 0xE0 && next < 0xA0) && !(c == 0xED && next >= 0xA0);  // overlong, surrogate
    }
    if (valid && length == 4) {
      const unsigned char next = byte(i + 1);
      valid = !(c == 0xF0 && next < 0x90) && !(c == 0xF4 && next >= 0x90);  // overlong, beyond U+10FFFF
    }
    if (!valid) length = 1;
    const bool c0_or_del = length == 1 && (c < 0x20 || c == 0x7F);
    const bool c1 = length == 2 && c == 0xC2 && byte(i + 1) < 0xA0;
    std::string_view piece = text.substr(i, length);
    if (c == '\t' || c == '\n' || c == '\r') {
      piece = " ";
    } else if (!valid || c0_or_del || c1) {
      piece = replacement;
    }
    if (max_bytes != std::string_view::npos && out.size() + piece.size() > max_bytes) {
      out += "...";
      return out;
    }
    out += piece;
    i += length;
  }
  return out;
}

namespace {

std::string_view text_of(simdjson::simdjson_result<std::string_view> r, const char* what) {
  std::string_view v;
  if (std::move(r).get(v) != simdjson::SUCCESS) throw output_error(std::string("rows are not JSON: bad ") + what);
  return v;
}

/// The columns in print order, by name, growing when a row has a value none of them holds.
class column_set {
 public:
  explicit column_set(std::vector<column> columns) : columns_(std::move(columns)) {
    for (std::size_t i = 0; i < columns_.size(); ++i) index_.emplace(columns_[i].name, i);
  }
  std::size_t size() const { return columns_.size(); }
  const column& operator[](std::size_t i) const { return columns_[i]; }
  std::optional<std::size_t> find(const std::string& name) const {
    const auto it = index_.find(name);
    if (it == index_.end()) return std::nullopt;
    return it->second;
  }
  std::size_t add(const std::string& name) {
    if (const auto at = find(name)) return *at;
    index_.emplace(name, columns_.size());
    columns_.push_back({name, 0});
    return columns_.size() - 1;
  }

 private:
  std::vector<column> columns_;
  std::unordered_map<std::string, std::size_t> index_;
};

/// One row's cells by column; absent cells are nullopt.
using cells = std::vector<std::optional<std::string>>;

/// Turns a row object into cells: nested objects become dotted columns unless the object is a
/// column itself (a map or a free-form JSON field), arrays their elements joined by ", ".
class flattener {
 public:
  flattener(column_set& columns, bool raw_times) : columns_(columns), raw_times_(raw_times) {}

  void row(ondemand::object object, cells& out) {
    out.assign(columns_.size(), std::nullopt);
    fields(object, "", out);
  }

 private:
  void fields(ondemand::object object, const std::string& prefix, cells& out) {
    for (auto field : object) {
      std::string_view key;
      if (field.unescaped_key().get(key) != simdjson::SUCCESS) throw output_error("rows are not JSON: bad key");
      // A map's keys are data: a column named after one is the wire's text too.
      const std::string name = prefix + terminal_safe(key);
      ondemand::value value = field.value();
      ondemand::json_type type;
      if (value.type().get(type) != simdjson::SUCCESS) throw output_error("rows are not JSON: bad value");
      const auto known = columns_.find(name);
      if (type == ondemand::json_type::object && !known) {
        fields(value.get_object().value(), name + ".", out);
        continue;
      }
      const std::size_t at = known ? *known : columns_.add(name);
      if (out.size() < columns_.size()) out.resize(columns_.size());
      out[at] = text(value, type, columns_[at].timestamp_digits);
    }
  }

  std::string scalar(ondemand::value value, ondemand::json_type type, int digits) {
    switch (type) {
      case ondemand::json_type::string: return terminal_safe(text_of(value.get_string(), "string"));
      case ondemand::json_type::number: {
        const std::string_view number = value.raw_json_token();
        long long count = 0;
        if (digits == 0 || raw_times_ ||
            std::from_chars(number.data(), number.data() + number.size(), count).ptr != number.data() + number.size()) {
          return std::string(number);
        }
        return iso8601(count, digits);
      }
      case ondemand::json_type::boolean: return std::string(value.raw_json_token());
      case ondemand::json_type::null: return "";
      case ondemand::json_type::object: {
        ondemand::object object;
        if (value.get_object().get(object) != simdjson::SUCCESS) throw output_error("rows are not JSON: bad object");
        return terminal_safe(text_of(object.raw_json(), "object"));
      }
      case ondemand::json_type::array: {
        ondemand::array array;
        if (value.get_array().get(array) != simdjson::SUCCESS) throw output_error("rows are not JSON: bad array");
        return terminal_safe(text_of(array.raw_json(), "array"));
      }
    }
    return "";
  }

  std::string text(ondemand::value value, ondemand::json_type type, int digits) {
    if (type != ondemand::json_type::array) return scalar(value, type, digits);
    std::string out;
    bool first = true;
    for (auto element : value.get_array()) {
      ondemand::value item = element.value();
      out += first ? "" : ", ";
      first = false;
      out += scalar(item, item.type().value(), digits);
    }
    return out;
  }

  column_set& columns_;
  bool raw_times_;
};

/// Iterates a page's rows as objects.
template <class Each>
void for_each_row(ondemand::parser& parser, simdjson::padded_string& buffer, std::string_view rows_json, Each&& each) {
  buffer = simdjson::padded_string(rows_json);
  ondemand::document doc;
  ondemand::array rows;
  if (parser.iterate(buffer).get(doc) != simdjson::SUCCESS || doc.get_array().get(rows) != simdjson::SUCCESS) {
    throw output_error("rows are not a JSON array");
  }
  try {
    for (auto element : rows) {
      ondemand::object row;
      if (element.get_object().get(row) != simdjson::SUCCESS) throw output_error("a row is not a JSON object");
      each(row);
    }
  } catch (const simdjson::simdjson_error& e) {  // from the value() of a nested element
    throw output_error(std::string("rows are not JSON: ") + e.what());
  }
}

/// JSON (one array, as before) and JSON Lines: each row's text as the SDK wrote it.
class json_printer final : public row_printer {
 public:
  json_printer(std::ostream& out, bool lines) : out_(out), lines_(lines) {}

  void page(std::string_view rows_json) override {
    for_each_row(parser_, buffer_, rows_json, [&](ondemand::object row) {
      const std::string_view text = text_of(row.raw_json(), "row");
      if (lines_) {
        out_ << text << '\n';
      } else {
        out_ << (first_ ? "[" : ",\n") << text;
      }
      first_ = false;
    });
    out_.flush();
  }

  void finish() override {
    if (!lines_) out_ << (first_ ? "[]\n" : "]\n");
    out_.flush();
  }

 private:
  std::ostream& out_;
  bool lines_;
  bool first_ = true;
  ondemand::parser parser_;
  simdjson::padded_string buffer_;
};

std::string csv_quoted(const std::string& text) {
  if (text.find_first_of(",\"\r\n") == std::string::npos) return text;
  std::string out = "\"";
  for (char c : text) out += c == '"' ? std::string("\"\"") : std::string(1, c);
  return out + "\"";
}

/// CSV: a header of every column, then one line per row.
class csv_printer final : public row_printer {
 public:
  csv_printer(std::ostream& out, std::vector<column> columns, bool raw_times)
      : out_(out), columns_(std::move(columns)), flatten_(columns_, raw_times), header_fixed_(columns_.size() > 0) {}

  void page(std::string_view rows_json) override {
    std::vector<cells> rows;
    for_each_row(parser_, buffer_, rows_json, [&](ondemand::object row) { flatten_.row(row, rows.emplace_back()); });
    if (!rows.empty() || header_fixed_) header();
    for (cells& row : rows) {
      if (row.size() > printed_) {
        throw output_error("a row has the column '" + columns_[printed_].name +
                                 "', which the CSV header printed before lacks (use --format jsonl)");
      }
      row.resize(printed_);
      for (std::size_t i = 0; i < row.size(); ++i) out_ << (i ? "," : "") << csv_quoted(row[i].value_or(""));
      out_ << '\n';
    }
    out_.flush();
  }

  void finish() override {
    if (header_fixed_) header();
    out_.flush();
  }

 private:
  void header() {
    if (printed_ != 0 || columns_.size() == 0) return;
    printed_ = columns_.size();
    for (std::size_t i = 0; i < printed_; ++i) out_ << (i ? "," : "") << csv_quoted(columns_[i].name);
    out_ << '\n';
  }

  std::ostream& out_;
  column_set columns_;
  flattener flatten_;
  bool header_fixed_;
  std::size_t printed_ = 0;
  ondemand::parser parser_;
  simdjson::padded_string buffer_;
};

/// A cell that is a number (-12, 3.5, 2.4e+06): the table right-aligns it.
bool is_number(std::string_view text) {
  if (text.empty()) return false;
  double ignored = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), ignored);
  return ec == std::errc{} && end == text.data() + text.size();
}

/// The table: the columns the first page with rows fills, as wide as that page needs; a later
/// row that fills another column adds it and prints the header again. A cell wider than its
/// column is printed whole. A column whose cells on that page are all numbers is right-aligned,
/// its header too, so that digits line up.
class table_printer final : public row_printer {
 public:
  table_printer(std::ostream& out, std::vector<column> columns, bool raw_times)
      : out_(out), columns_(std::move(columns)), flatten_(columns_, raw_times) {}

  void page(std::string_view rows_json) override {
    std::vector<cells> rows;
    for_each_row(parser_, buffer_, rows_json, [&](ondemand::object row) { flatten_.row(row, rows.emplace_back()); });
    for (cells& row : rows) row.resize(columns_.size());
    width_.resize(columns_.size(), 0);
    numeric_.resize(columns_.size(), false);
    bool shown_more = false;
    for (std::size_t i = 0; i < columns_.size(); ++i) {
      if (width_[i] != 0) continue;
      bool numbers = true;
      for (const cells& row : rows) {
        if (!row[i] || row[i]->empty()) continue;
        width_[i] = std::max({width_[i], columns_[i].name.size(), row[i]->size()});
        numbers = numbers && is_number(*row[i]);
      }
      numeric_[i] = numbers;
      shown_more = shown_more || width_[i] != 0;
    }
    if (shown_more) header();
    for (const cells& row : rows) line([&](std::size_t i) { return row[i] ? std::string_view(*row[i]) : std::string_view(); });
    out_.flush();
  }

  void finish() override { out_.flush(); }

 private:
  /// One line of the shown columns, two spaces apart; `cell(i)` is column i's text.
  template <class Cell>
  void line(Cell&& cell) {
    std::string text;
    for (std::size_t i = 0; i < width_.size(); ++i) {
      if (width_[i] == 0) continue;
      if (!text.empty()) text += "  ";
      const std::string_view value = cell(i);
      const std::size_t pad = width_[i] > value.size() ? width_[i] - value.size() : 0;
      if (numeric_[i]) text.append(pad, ' ');
      text += value;
      if (!numeric_[i]) text.append(pad, ' ');
    }
    while (!text.empty() && text.back() == ' ') text.pop_back();
    out_ << text << '\n';
  }

  void header() {
    line([&](std::size_t i) -> std::string_view { return columns_[i].name; });
  }

  std::ostream& out_;
  column_set columns_;
  flattener flatten_;
  std::vector<std::size_t> width_;  // by column; 0 for a column not shown (yet)
  std::vector<bool> numeric_;       // by column: right-aligned
  ondemand::parser parser_;
  simdjson::padded_string buffer_;
};

}  // namespace

std::unique_ptr<row_printer> make_printer(output_format format, std::ostream& out, std::vector<column> columns,
                                          bool raw_times) {
  switch (format) {
    case output_format::json: return std::make_unique<json_printer>(out, false);
    case output_format::jsonl: return std::make_unique<json_printer>(out, true);
    case output_format::csv: return std::make_unique<csv_printer>(out, std::move(columns), raw_times);
    case output_format::table: return std::make_unique<table_printer>(out, std::move(columns), raw_times);
  }
  return nullptr;
}

}  // namespace massive::cli
