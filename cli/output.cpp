#include "output.hpp"

#include <algorithm>
#include <charconv>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <massive/json_writer.hpp>
#include <massive/reflection/field_visitor.hpp>
#include <optional>
#include <unordered_map>
#include <utility>

namespace massive::cli {

namespace {

using reflection::field_value;

constexpr std::size_t flush_bytes = std::size_t{1} << 18;  // written out in between at 256 KiB

/// `value`'s last `width` digits at `at`, zero-padded.
void put_digits(char* at, unsigned long long value, int width) {
  for (int i = width - 1; i >= 0; --i, value /= 10) at[i] = static_cast<char>('0' + value % 10);
}

void append_digits(std::string& out, unsigned long long value, int width) {
  char text[20];
  put_digits(text, value, width);
  out.append(text, static_cast<std::size_t>(width));
}

/// The proleptic Gregorian date of a day (days since 1970-01-01), for every day a 64-bit count
/// of seconds reaches. std::chrono::year stops at +-32,767: past it, a server's time far in the
/// future was printed as another year (a count of milliseconds near 2^63 as year -6911).
struct civil_date {
  long long year;
  unsigned month, day;
};

civil_date civil_from_days(long long day_number) {
  // Days counted from 0000-03-01 in eras of 400 years (146,097 days), so that the leap day ends
  // a year and every era has the same calendar.
  const long long from_march = day_number + 719'468;
  const long long era = (from_march >= 0 ? from_march : from_march - 146'096) / 146'097;
  const long long day_of_era = from_march - era * 146'097;  // [0, 146096]
  const long long year_of_era =                             // [0, 399]
      (day_of_era - day_of_era / 1'460 + day_of_era / 36'524 - day_of_era / 146'096) / 365;
  const long long day_of_year =
      day_of_era - (365 * year_of_era + year_of_era / 4 - year_of_era / 100);
  const long long month_from_march = (5 * day_of_year + 2) / 153;  // [0, 11]
  const auto day = static_cast<unsigned>(day_of_year - (153 * month_from_march + 2) / 5 + 1);
  const auto month =
      static_cast<unsigned>(month_from_march < 10 ? month_from_march + 3 : month_from_march - 9);
  return {year_of_era + era * 400 + (month <= 2 ? 1 : 0), month, day};
}

void append_date(std::string& out, long long day_number) {
  const civil_date date = civil_from_days(day_number);
  if (date.year >= 0 && date.year <= 9'999) {
    append_digits(out, static_cast<unsigned long long>(date.year), 4);
  } else {
    // ISO 8601's expanded years, as JavaScript's toISOString writes them: a sign and six digits
    // or more. Four digits would have cut year 10000 to 0000.
    out += date.year < 0 ? '-' : '+';
    char digits[24];
    const auto year = static_cast<unsigned long long>(date.year);
    const unsigned long long magnitude = date.year < 0 ? 0ULL - year : year;
    const auto end = std::to_chars(digits, digits + sizeof digits, magnitude).ptr;
    const auto length = static_cast<std::size_t>(end - digits);
    if (length < 6) out.append(6 - length, '0');
    out.append(digits, length);
  }
  out += '-';
  append_digits(out, date.month, 2);
  out += '-';
  append_digits(out, date.day, 2);
}

/// The text of the last day iso8601 wrote: the times of a page mostly share their day.
struct day_cache {
  long long day_number = 0;
  std::string text;  // "YYYY-MM-DD", or empty before the first
};

/// iso8601(), appended to `out` without a temporary: one append of a text built in place.
void append_iso8601(std::string& out, long long count, int digits, day_cache& days_seen) {
  static constexpr long long per_second_of[] = {1, 10, 100, 1'000, 10'000, 100'000, 1'000'000, 10'000'000,
                                                100'000'000, 1'000'000'000};
  const long long per_second = per_second_of[digits];
  long long seconds = count / per_second, fraction = count % per_second;
  if (fraction < 0) seconds -= 1, fraction += per_second;  // before 1970: the fraction counts forward
  long long day_number = seconds / 86'400, in_day = seconds % 86'400;
  if (in_day < 0) day_number -= 1, in_day += 86'400;
  if (days_seen.text.empty() || days_seen.day_number != day_number) {
    days_seen.text.clear();
    append_date(days_seen.text, day_number);
    days_seen.day_number = day_number;
  }
  char time[24] = "Thh:mm:ss.";  // then the fraction's digits and Z
  put_digits(time + 1, static_cast<unsigned long long>(in_day / 3600), 2);
  put_digits(time + 4, static_cast<unsigned long long>(in_day / 60 % 60), 2);
  put_digits(time + 7, static_cast<unsigned long long>(in_day % 60), 2);
  std::size_t length = 9;
  if (digits != 0) {
    put_digits(time + 10, static_cast<unsigned long long>(fraction), digits);
    length = 10 + static_cast<std::size_t>(digits);
  }
  time[length++] = 'Z';
  out += days_seen.text;
  out.append(time, length);
}

/// terminal_safe(text), appended; text that is printable ASCII (most of it) is copied as it is.
void append_safe(std::string& out, std::string_view text, line_breaks breaks) {
  const bool plain =
      std::all_of(text.begin(), text.end(), [](char c) { return c >= 0x20 && c < 0x7F; });
  if (plain) {
    out += text;
  } else {
    out += terminal_safe(text, std::string_view::npos, breaks);
  }
}

template <class T>
void append_number(std::string& out, T value) {
  char text[32];
  const auto [end, ec] = std::to_chars(text, text + sizeof text, value);
  out.append(text, end);
}

}  // namespace

std::string iso8601(long long count, int digits) {
  std::string out;
  day_cache days_seen;
  append_iso8601(out, count, digits, days_seen);
  return out;
}

std::string terminal_safe(std::string_view text, std::size_t max_bytes, line_breaks breaks) {
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
      valid =
          !(c == 0xF0 && next < 0x90) && !(c == 0xF4 && next >= 0x90);  // overlong, beyond U+10FFFF
    }
    if (!valid) length = 1;
    const bool c0_or_del = length == 1 && (c < 0x20 || c == 0x7F);
    const bool c1 = length == 2 && c == 0xC2 && byte(i + 1) < 0xA0;
    std::string_view piece = text.substr(i, length);
    if (c == '\t' || c == '\n' || c == '\r') {
      if (breaks == line_breaks::spaced) piece = " ";
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

/// The printed text of one scalar: the table's and CSV's cell, or one element of it.
void append_value(std::string& out, const field_value& v, bool raw_times, line_breaks breaks,
                  day_cache& days_seen) {
  switch (v.type) {
    case field_value::kind::integer:
      append_number(out, v.integer);
      break;
    case field_value::kind::number:
      if (std::isfinite(v.number)) append_number(out, v.number);  // JSON's null: an empty cell
      break;
    case field_value::kind::boolean:
      out += v.integer != 0 ? "true" : "false";
      break;
    case field_value::kind::text:
    case field_value::kind::json:
      append_safe(out, v.text, breaks);
      break;
    case field_value::kind::time:
      if (raw_times || v.time_digits == 0) {
        append_number(out, v.integer);
      } else {
        append_iso8601(out, v.integer, v.time_digits, days_seen);
      }
      break;
    case field_value::kind::date:  // a valid date: the decoder keeps no other
      append_date(out, std::chrono::sys_days{v.date}.time_since_epoch().count());
      break;
    case field_value::kind::exact: {
      char text[decimal::max_chars];
      const auto [end, ec] = v.exact.to_chars(text, text + sizeof text);
      out.append(text, end);
      break;
    }
  }
}

/// The columns in print order, by name, growing when a row has a field none of them holds.
class column_set {
 public:
  explicit column_set(std::vector<std::string> names) : names_(std::move(names)) {
    for (std::size_t i = 0; i < names_.size(); ++i) index_.emplace(names_[i], i);
  }
  std::size_t size() const { return names_.size(); }
  const std::string& operator[](std::size_t i) const { return names_[i]; }
  std::size_t find_or_add(const std::string& name) {
    const auto it = index_.find(name);
    if (it != index_.end()) return it->second;
    index_.emplace(name, names_.size());
    names_.push_back(name);
    return names_.size() - 1;
  }

 private:
  std::vector<std::string> names_;
  std::unordered_map<std::string, std::size_t> index_;
};

/// One row's cells by column, from visiting it. A field is matched to its column by its dotted
/// name once; after that, by the position of its call in the row's visit and its key's address
/// (the generated visitors pass string literals), so that a run of rows of one model costs no
/// name lookups: the first step that differs from the row before resolves by name again.
class cell_collector final : public reflection::field_visitor {
 public:
  cell_collector(column_set& columns, bool raw_times, line_breaks breaks)
      : columns_(columns), raw_times_(raw_times), breaks_(breaks) {}

  /// Visits `r`; its cells are then cell(i) where filled(i).
  void collect(const printable_row& r) {
    cells_.resize(columns_.size());
    filled_.assign(columns_.size(), 0);
    quotable_.resize(columns_.size(), 0);
    position_ = 0;
    prefix_.clear();
    prefix_lengths_.clear();
    if (!r.ev.empty()) set(resolve("ev", step_kind::value), r.ev);
    // The prefix is a step of its own: rows of another event type take another trace.
    resolve(r.column_prefix, step_kind::begin);
    prefix_ = r.column_prefix;
    r.functions->visit(*this, r.rows, r.index);
  }
  std::size_t size() const { return filled_.size(); }
  bool filled(std::size_t i) const { return filled_[i] != 0; }
  /// Whether cell i may hold a comma or a quote (a text, JSON, a list), which CSV must quote.
  bool quotable(std::size_t i) const { return quotable_[i] != 0; }
  const std::string& cell(std::size_t i) const { return cells_[i]; }

 private:
  enum class step_kind : std::uint8_t { value, absent, begin, end, list };
  struct step {
    const char* key;
    std::size_t key_size;
    step_kind kind;
    std::size_t column;
  };

  void on_value(std::string_view key, const field_value& v) override {
    if (in_list_) {
      std::string& cell = cells_[list_column_];
      if (list_items_++ != 0) cell += ", ";
      append_value(cell, v, raw_times_, breaks_, days_seen_);
      return;
    }
    const std::size_t column = resolve(key, step_kind::value);
    std::string& cell = start(column);
    quotable_[column] = v.type == field_value::kind::text || v.type == field_value::kind::json;
    append_value(cell, v, raw_times_, breaks_, days_seen_);
  }
  void on_absent(std::string_view key) override { resolve(key, step_kind::absent); }
  void on_begin_object(std::string_view key) override {
    resolve(key, step_kind::begin);
    prefix_lengths_.push_back(prefix_.size());
    prefix_ += key;
    prefix_ += '.';
  }
  void on_end_object() override {
    resolve({}, step_kind::end);
    prefix_.resize(prefix_lengths_.back());
    prefix_lengths_.pop_back();
  }
  void on_begin_list(std::string_view key) override {
    list_column_ = resolve(key, step_kind::list);
    start(list_column_);
    quotable_[list_column_] = 1;
    in_list_ = true;
    list_items_ = 0;
  }
  void on_end_list() override { in_list_ = false; }

  /// Column `column`'s cell, emptied and marked filled.
  std::string& start(std::size_t column) {
    if (column >= cells_.size()) {
      cells_.resize(column + 1);
      filled_.resize(column + 1, 0);
      quotable_.resize(column + 1, 0);
    }
    filled_[column] = 1;
    cells_[column].clear();
    return cells_[column];
  }
  void set(std::size_t column, std::string_view text) {
    append_safe(start(column), text, breaks_);
    quotable_[column] = 1;
  }

  /// Column of the step `key`, `kind` (SIZE_MAX for an object's begin or end): the trace's when
  /// this step is the one the row before took here, else found by name.
  std::size_t resolve(std::string_view key, step_kind kind) {
    if (position_ < trace_.size()) {
      // A field present in one row and absent in the next keeps its column: only the steps
      // that change the path (objects) must match in kind.
      const step& known = trace_[position_];
      const bool structural = kind == step_kind::begin || kind == step_kind::end;
      const bool known_structural = known.kind == step_kind::begin || known.kind == step_kind::end;
      if (known.key == key.data() && known.key_size == key.size() && structural == known_structural &&
          (!structural || known.kind == kind)) {
        ++position_;
        return known.column;
      }
    }
    return resolve_by_name(key, kind);
  }

  /// The slow path, kept out of line so that resolve() inlines into every visitor call.
  [[gnu::noinline]] std::size_t resolve_by_name(std::string_view key, step_kind kind) {
    trace_.resize(position_);
    std::size_t column = SIZE_MAX;
    if (kind != step_kind::begin && kind != step_kind::end) {
      column = columns_.find_or_add(prefix_ + std::string(key));
    }
    trace_.push_back({key.data(), key.size(), kind, column});
    ++position_;
    return column;
  }

  column_set& columns_;
  bool raw_times_;
  line_breaks breaks_;
  day_cache days_seen_;
  std::vector<std::string> cells_;
  std::vector<char> filled_;
  std::vector<char> quotable_;
  std::vector<step> trace_;
  std::size_t position_ = 0;
  std::string prefix_;  // the dotted names of the objects the visit is in, each with its '.'
  std::vector<std::size_t> prefix_lengths_;
  bool in_list_ = false;
  std::size_t list_column_ = 0, list_items_ = 0;
};

/// Writes `text` out when it has grown past flush_bytes, or always with `now`.
void drain(std::ostream& out, std::string& text, bool now) {
  if (text.empty() || (!now && text.size() < flush_bytes)) return;
  out.write(text.data(), static_cast<std::streamsize>(text.size()));
  text.clear();
  if (now) out.flush();
}

/// Row `r` as a JSON object, with its `ev` first when it is a stream event.
void append_json(std::string& out, const printable_row& r) {
  const std::size_t start = out.size();
  json_writer w(out);
  r.functions->write_json(w, r.rows, r.index);
  if (r.ev.empty()) return;
  std::string ev = "\"ev\":";
  json_writer(ev).value(r.ev);
  if (out.size() - start > 2) ev += ',';
  out.insert(start + 1, ev);
}

/// JSON (one array) and JSON Lines.
class json_printer final : public row_printer {
 public:
  json_printer(std::ostream& out, bool lines) : out_(out), lines_(lines) {}

  void row(const printable_row& r) override {
    if (!lines_) text_ += first_ ? "[" : ",\n";
    first_ = false;
    append_json(text_, r);
    if (lines_) text_ += '\n';
    drain(out_, text_, false);
  }
  void end_page() override { drain(out_, text_, true); }
  void finish() override {
    if (!lines_) text_ += first_ ? "[]\n" : "]\n";
    drain(out_, text_, true);
  }

 private:
  std::ostream& out_;
  bool lines_;
  bool first_ = true;
  std::string text_;
};

void append_csv_cell(std::string& out, std::string_view text) {
  // Not find_first_of: libstdc++ calls memchr over the set for every byte of the text.
  const auto special = [](char c) { return c == ',' || c == '"' || c == '\n' || c == '\r'; };
  if (std::none_of(text.begin(), text.end(), special)) {
    out += text;
    return;
  }
  out += '"';
  for (char c : text) {
    if (c == '"') out += '"';
    out += c;
  }
  out += '"';
}

/// CSV (RFC 4180): a header of every column, then a record per row, one line unless a quoted
/// text holds a line break.
class csv_printer final : public row_printer {
 public:
  csv_printer(std::ostream& out, std::vector<std::string> columns, bool raw_times)
      : out_(out), columns_(std::move(columns)), cells_(columns_, raw_times, line_breaks::kept) {}

  void row(const printable_row& r) override {
    header();
    cells_.collect(r);
    for (std::size_t extra = printed_; extra < cells_.size(); ++extra) {
      if (!cells_.filled(extra)) continue;
      throw output_error("a row has the column '" + columns_[extra] +
                         "', which the CSV header printed before lacks (use --format jsonl)");
    }
    for (std::size_t i = 0; i < printed_; ++i) {
      if (i != 0) text_ += ',';
      if (i >= cells_.size() || !cells_.filled(i)) continue;
      if (cells_.quotable(i)) {
        append_csv_cell(text_, cells_.cell(i));
      } else {
        text_ += cells_.cell(i);
      }
    }
    text_ += '\n';
    drain(out_, text_, false);
  }
  void end_page() override { drain(out_, text_, true); }
  void finish() override {
    header();
    drain(out_, text_, true);
  }

 private:
  void header() {
    if (printed_ != 0 || columns_.size() == 0) return;
    printed_ = columns_.size();
    for (std::size_t i = 0; i < printed_; ++i) {
      if (i != 0) text_ += ',';
      append_csv_cell(text_, columns_[i]);
    }
    text_ += '\n';
  }

  std::ostream& out_;
  column_set columns_;
  cell_collector cells_;
  std::size_t printed_ = 0;
  std::string text_;
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
  table_printer(std::ostream& out, std::vector<std::string> columns, bool raw_times)
      : out_(out), columns_(std::move(columns)), cells_(columns_, raw_times, line_breaks::spaced) {}

  void row(const printable_row& r) override {
    cells_.collect(r);
    row_starts_.push_back(cell_ends_.size());
    for (std::size_t i = 0; i < cells_.size(); ++i) {
      if (cells_.filled(i)) cell_text_ += cells_.cell(i);
      cell_ends_.push_back(cell_text_.size());
    }
  }

  void end_page() override {
    print_page([&](auto&& each) {
      for (std::size_t r = 0; r < row_starts_.size(); ++r) each([&](std::size_t i) { return cell(r, i); });
    });
    row_starts_.clear();
    cell_ends_.clear();
    cell_text_.clear();
  }

  /// A whole page at hand (a call's, a flat file's) is read twice, for its widths and then for
  /// its lines, instead of held as text: twice the formatting, no memory per row.
  void page(const void* rows, std::size_t count, const reflection::row_functions& functions) override {
    print_page([&](auto&& each) {
      for (std::size_t r = 0; r < count; ++r) {
        cells_.collect({rows, r, &functions, {}, {}});
        each([&](std::size_t i) -> std::string_view {
          return i < cells_.size() && cells_.filled(i) ? std::string_view(cells_.cell(i)) : std::string_view();
        });
      }
    });
  }

  void finish() override {
    if (!row_starts_.empty()) end_page();
    drain(out_, text_, true);
  }

 private:
  /// One line of the shown columns, two spaces apart; `cell(i)` is column i's text.
  template <class Cell>
  void line(Cell&& cell) {
    const std::size_t start = text_.size();
    for (std::size_t i = 0; i < width_.size(); ++i) {
      if (width_[i] == 0) continue;
      if (text_.size() != start) text_ += "  ";
      const std::string_view value = cell(i);
      const std::size_t pad = width_[i] > value.size() ? width_[i] - value.size() : 0;
      if (numeric_[i]) text_.append(pad, ' ');
      text_ += value;
      if (!numeric_[i]) text_.append(pad, ' ');
    }
    while (text_.size() > start && text_.back() == ' ') text_.pop_back();
    text_ += '\n';
  }

  /// Prints a page: the widths of the columns no page has shown yet from every row, the header
  /// when one more is shown, then each row. `rows(each)` calls each(cell) for every row in
  /// order, cell(i) being its text in column i (empty when not sent).
  template <class Rows>
  void print_page(Rows&& rows) {
    width_.resize(columns_.size(), 0);
    numeric_.resize(columns_.size(), false);
    std::vector<char> open(columns_.size());      // columns this page may show first
    std::vector<char> numbers(columns_.size(), 1);  // and whether all their cells are numbers
    for (std::size_t i = 0; i < columns_.size(); ++i) open[i] = width_[i] == 0;
    rows([&](auto&& cell) {
      for (std::size_t i = 0; i < columns_.size(); ++i) {
        if (!open[i]) continue;
        const std::string_view value = cell(i);
        if (value.empty()) continue;
        width_[i] = std::max({width_[i], columns_[i].size(), value.size()});
        numbers[i] = numbers[i] && is_number(value);
      }
    });
    bool shown_more = false;
    for (std::size_t i = 0; i < columns_.size(); ++i) {
      if (!open[i]) continue;
      numeric_[i] = numbers[i] != 0;
      shown_more = shown_more || width_[i] != 0;
    }
    if (shown_more) line([&](std::size_t i) -> std::string_view { return columns_[i]; });
    rows([&](auto&& cell) {
      line(cell);
      drain(out_, text_, false);
    });
    drain(out_, text_, true);
  }

  /// Row r's text in column i; empty when not sent (or when the column came after the row).
  std::string_view cell(std::size_t r, std::size_t i) const {
    const std::size_t first = row_starts_[r];
    const std::size_t end = r + 1 < row_starts_.size() ? row_starts_[r + 1] : cell_ends_.size();
    if (first + i >= end) return {};
    const std::size_t begin = first + i == 0 ? 0 : cell_ends_[first + i - 1];
    return std::string_view(cell_text_).substr(begin, cell_ends_[first + i] - begin);
  }

  std::ostream& out_;
  column_set columns_;
  cell_collector cells_;
  // A stream's batch (row() by row()) until its widths are known, packed; a whole page does not
  // come here (page()).
  std::string cell_text_;                // every cell's text, row after row
  std::vector<std::size_t> cell_ends_;   // where each cell's text ends in cell_text_
  std::vector<std::size_t> row_starts_;  // each row's first entry in cell_ends_
  std::vector<std::size_t> width_;  // by column; 0 for a column not shown (yet)
  std::vector<bool> numeric_;       // by column: right-aligned
  std::string text_;
};

/// The dotted names of a row's fields, in the order visited.
class column_finder final : public reflection::field_visitor {
 public:
  std::vector<std::string> names;

 private:
  void add(std::string_view key) {
    const std::string name = prefix_ + std::string(key);
    if (std::find(names.begin(), names.end(), name) == names.end()) names.push_back(name);
  }
  void on_value(std::string_view key, const field_value&) override {
    if (!in_list_) add(key);
  }
  void on_absent(std::string_view key) override { add(key); }
  void on_begin_object(std::string_view key) override {
    lengths_.push_back(prefix_.size());
    prefix_ += std::string(key) + ".";
  }
  void on_end_object() override {
    prefix_.resize(lengths_.back());
    lengths_.pop_back();
  }
  void on_begin_list(std::string_view key) override {
    add(key);
    in_list_ = true;
  }
  void on_end_list() override { in_list_ = false; }

  std::string prefix_;
  std::vector<std::size_t> lengths_;
  bool in_list_ = false;
};

}  // namespace

std::unique_ptr<row_printer> make_printer(output_format format, std::ostream& out,
                                          std::vector<std::string> columns, bool raw_times) {
  switch (format) {
    case output_format::json:
      return std::make_unique<json_printer>(out, false);
    case output_format::jsonl:
      return std::make_unique<json_printer>(out, true);
    case output_format::csv:
      return std::make_unique<csv_printer>(out, std::move(columns), raw_times);
    case output_format::table:
      return std::make_unique<table_printer>(out, std::move(columns), raw_times);
  }
  return nullptr;
}

std::vector<std::string> columns_of(const reflection::row_functions& functions, const void* row) {
  column_finder finder;
  functions.visit(finder, row, 0);
  return std::move(finder.names);
}

reflection::underlying_leniency print_envelope(std::ostream& out, const reflection::row_page& page,
                                               payload_shape shape) {
  reflection::underlying_leniency underlying_leniency;
  std::string text;
  json_writer w(text);
  const auto rows = [&] {
    w.begin_array();
    for (std::size_t i = 0; i < page.rows; ++i) page.write_row(w, i);
    w.end_array();
  };
  if (shape == payload_shape::document) {
    if (page.rows == 0) {
      w.value(nullptr);
    } else {
      page.write_row(w, 0);
    }
  } else if (shape == payload_shape::top_level_array) {
    rows();
  } else {
    // The envelope's members in the order the API usually sends them (alphabetical).
    const page_envelope& e = page.envelope;
    w.begin_object();
    w.field("adjusted", e.adjusted);
    w.field("count", e.count);
    if (!e.next_url.empty()) w.field("next_url", e.next_url);
    w.field("queryCount", e.query_count);
    if (!e.request_id.empty()) w.field("request_id", e.request_id);
    if (shape == payload_shape::results_array) {
      w.key("results");
      rows();
    } else if (shape == payload_shape::results_object && page.rows != 0) {
      w.key("results");
      page.write_row(w, 0);
    } else if (shape == payload_shape::results_values) {
      w.key("results");
      w.begin_object();
      std::string underlying;
      json_writer u(underlying);
      if (page.write_underlying(u, underlying_leniency)) {
        w.key("underlying");
        w.value(json_value(underlying));
      }
      w.key("values");
      rows();
      w.end_object();
    }
    w.field("resultsCount", e.results_count);
    if (!e.status.empty()) w.field("status", e.status);
    if (!e.ticker.empty()) w.field("ticker", e.ticker);
    w.end_object();
  }
  text += '\n';
  out.write(text.data(), static_cast<std::streamsize>(text.size()));
  out.flush();
  return underlying_leniency;
}

}  // namespace massive::cli
