#include "files/list_objects_xml.hpp"

#include <algorithm>
#include <array>
#include <cstdint>
#include <initializer_list>
#include <span>

#include "massive/files/error.hpp"

namespace massive::files::detail {
namespace {

[[noreturn]] void malformed(const std::string& what) {
  throw files_error(files_errc::malformed_listing, what);
}

void append_utf8(std::string& out, std::uint32_t cp) {
  if (cp < 0x80) {
    out += static_cast<char>(cp);
  } else if (cp < 0x800) {
    out += static_cast<char>(0xC0 | (cp >> 6));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  } else if (cp < 0x10000) {
    out += static_cast<char>(0xE0 | (cp >> 12));
    out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  } else {
    out += static_cast<char>(0xF0 | (cp >> 18));
    out += static_cast<char>(0x80 | ((cp >> 12) & 0x3F));
    out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  }
}

/// Appends `text` with its entity and character references decoded.
void append_decoded(std::string& out, std::string_view text) {
  std::size_t pos = 0;
  while (pos < text.size()) {
    const std::size_t amp = text.find('&', pos);
    out.append(
        text.substr(pos, amp == std::string_view::npos ? std::string_view::npos : amp - pos));
    if (amp == std::string_view::npos) return;
    const std::size_t semi = text.find(';', amp);
    if (semi == std::string_view::npos || semi - amp > 12)
      malformed("an '&' that starts no entity reference");
    const std::string_view name = text.substr(amp + 1, semi - amp - 1);
    if (name == "amp") {
      out += '&';
    } else if (name == "lt") {
      out += '<';
    } else if (name == "gt") {
      out += '>';
    } else if (name == "quot") {
      out += '"';
    } else if (name == "apos") {
      out += '\'';
    } else if (name.size() >= 2 && name[0] == '#') {
      const bool hex = name[1] == 'x';
      const std::string_view digits = name.substr(hex ? 2 : 1);
      if (digits.empty()) malformed("an empty character reference");
      std::uint32_t cp = 0;
      for (const char c : digits) {
        std::uint32_t d;
        if (c >= '0' && c <= '9') {
          d = static_cast<std::uint32_t>(c - '0');
        } else if (hex && c >= 'a' && c <= 'f') {
          d = static_cast<std::uint32_t>(c - 'a' + 10);
        } else if (hex && c >= 'A' && c <= 'F') {
          d = static_cast<std::uint32_t>(c - 'A' + 10);
        } else {
          malformed("a malformed character reference");
        }
        cp = cp * (hex ? 16 : 10) + d;
        if (cp > 0x10FFFF) malformed("a character reference beyond Unicode");
      }
      if (cp == 0 || (cp >= 0xD800 && cp <= 0xDFFF))
        malformed("a character reference to no character");
      append_utf8(out, cp);
    } else {
      malformed("an unknown entity '&" + std::string(name.substr(0, 16)) +
                ";' (documents define none)");
    }
    pos = semi + 1;
  }
}

/// Walks the elements of a document: on_close(path, text) for each element that closes, with the
/// names of the elements open around it (outermost first) and its own text, decoded.
class walker {
 public:
  using path = std::array<std::string_view, max_xml_depth>;

  explicit walker(std::string_view xml) : xml_(xml) {}

  template <class OnClose>
  void run(OnClose&& on_close) {
    std::size_t depth = 0;
    bool root_seen = false;
    while (pos_ < xml_.size()) {
      const std::size_t lt = xml_.find('<', pos_);
      const std::string_view between =
          xml_.substr(pos_, lt == std::string_view::npos ? std::string_view::npos : lt - pos_);
      if (depth > 0) {
        append_decoded(text_, between);
      } else if (between.find_first_not_of(" \t\r\n") != std::string_view::npos) {
        malformed("text outside the root element");
      }
      if (lt == std::string_view::npos) break;
      pos_ = lt;
      const std::string_view rest = xml_.substr(pos_);
      if (rest.starts_with("<?")) {
        skip_past("?>");
      } else if (rest.starts_with("<!--")) {
        skip_past("-->");
      } else if (rest.starts_with("<![CDATA[")) {
        if (depth == 0) malformed("CDATA outside the root element");
        const std::size_t end = xml_.find("]]>", pos_ + 9);
        if (end == std::string_view::npos) malformed("an unclosed CDATA section");
        text_.append(xml_.substr(pos_ + 9, end - pos_ - 9));
        pos_ = end + 3;
      } else if (rest.starts_with("<!")) {
        malformed("a DTD or declaration (refused: no entity is ever defined)");
      } else if (rest.starts_with("</")) {
        const std::size_t gt = xml_.find('>', pos_);
        if (gt == std::string_view::npos) malformed("an unclosed end tag");
        std::string_view name = xml_.substr(pos_ + 2, gt - pos_ - 2);
        while (!name.empty() && (name.back() == ' ' || name.back() == '\t' || name.back() == '\r' ||
                                 name.back() == '\n')) {
          name.remove_suffix(1);
        }
        if (depth == 0 || open_[depth - 1] != name)
          malformed("an end tag that closes no open element");
        on_close(std::span<const std::string_view>(open_.data(), depth), std::string_view(text_));
        text_.clear();
        --depth;
        pos_ = gt + 1;
      } else {
        const std::size_t gt = find_tag_end();
        std::string_view tag = xml_.substr(pos_ + 1, gt - pos_ - 1);
        const bool empty_element = !tag.empty() && tag.back() == '/';
        if (empty_element) tag.remove_suffix(1);
        const std::size_t name_end = tag.find_first_of(" \t\r\n");
        const std::string_view name = tag.substr(0, name_end);
        if (name.empty()) malformed("a tag without a name");
        if (depth == 0 && root_seen) malformed("a second root element");
        if (depth == max_xml_depth)
          malformed("elements nested deeper than " + std::to_string(max_xml_depth));
        root_seen = true;
        open_[depth++] = name;
        text_.clear();
        pos_ = gt + 1;
        if (empty_element) {
          on_close(std::span<const std::string_view>(open_.data(), depth), std::string_view());
          --depth;
        }
      }
    }
    if (depth != 0)
      malformed("the document ends inside <" + std::string(open_[depth - 1].substr(0, 64)) + ">");
    if (!root_seen) malformed("no element at all");
  }

 private:
  void skip_past(std::string_view end) {
    const std::size_t at = xml_.find(end, pos_);
    if (at == std::string_view::npos) malformed("an unclosed comment or processing instruction");
    pos_ = at + end.size();
  }

  /// The '>' ending the tag at pos_, past quoted attribute values.
  std::size_t find_tag_end() const {
    char quote = 0;
    for (std::size_t i = pos_ + 1; i < xml_.size(); ++i) {
      const char c = xml_[i];
      if (quote != 0) {
        if (c == quote) quote = 0;
      } else if (c == '"' || c == '\'') {
        quote = c;
      } else if (c == '>') {
        return i;
      } else if (c == '<') {
        break;
      }
    }
    malformed("an unclosed start tag");
  }

  std::string_view xml_;
  std::size_t pos_ = 0;
  path open_{};
  std::string text_;
};

bool is(std::span<const std::string_view> path, std::initializer_list<std::string_view> names) {
  return path.size() == names.size() && std::equal(path.begin(), path.end(), names.begin());
}

std::string bounded(std::string_view text) {
  std::string out(text.substr(0, 200));
  for (char& c : out) {
    if (static_cast<unsigned char>(c) < 0x20 || c == 0x7f) c = '?';
  }
  return out;
}

}  // namespace

listing_page parse_list_objects(std::string_view xml) {
  listing_page page;
  object_info current;
  bool root_checked = false;
  walker(xml).run([&](std::span<const std::string_view> path, std::string_view text) {
    if (!root_checked) {
      if (path.front() != "ListBucketResult") {
        malformed("the root element is <" + bounded(path.front().substr(0, 64)) +
                  ">, not <ListBucketResult>");
      }
      root_checked = true;
    }
    if (is(path, {"ListBucketResult", "Contents", "Key"})) {
      current.key = text;
    } else if (is(path, {"ListBucketResult", "Contents", "Size"})) {
      std::uint64_t size = 0;
      if (text.empty() || text.size() > 19) malformed("a Size that is not a byte count");
      for (const char c : text) {
        if (c < '0' || c > '9') malformed("a Size that is not a byte count");
        size = size * 10 + static_cast<std::uint64_t>(c - '0');
      }
      current.size = size;
    } else if (is(path, {"ListBucketResult", "Contents", "ETag"})) {
      current.etag = text;
    } else if (is(path, {"ListBucketResult", "Contents", "LastModified"})) {
      current.last_modified = text;
    } else if (is(path, {"ListBucketResult", "Contents"})) {
      if (current.key.empty()) malformed("a Contents element without a Key");
      page.objects.push_back(std::move(current));
      current = {};
    } else if (is(path, {"ListBucketResult", "CommonPrefixes", "Prefix"})) {
      page.common_prefixes.emplace_back(text);
    } else if (is(path, {"ListBucketResult", "IsTruncated"})) {
      if (text != "true" && text != "false")
        malformed("an IsTruncated that is neither true nor false");
      page.truncated = text == "true";
    } else if (is(path, {"ListBucketResult", "NextContinuationToken"})) {
      page.next_continuation_token = text;
    }
  });
  if (page.truncated && page.next_continuation_token.empty()) {
    malformed("a truncated listing without a NextContinuationToken");
  }
  return page;
}

s3_error_body parse_error_body(std::string_view text) noexcept {
  // Read leniently: the transport keeps only the first bytes of an error body that is not JSON,
  // so the document is usually cut short; its Code and Message come first.
  s3_error_body out;
  auto element = [&](std::string_view name) -> std::string {
    const std::string open = "<" + std::string(name) + ">";
    const std::size_t at = text.find(open);
    if (at == std::string_view::npos) return {};
    const std::size_t from = at + open.size();
    const std::size_t end = text.find('<', from);
    std::string value;
    try {
      append_decoded(value, text.substr(from, end == std::string_view::npos ? std::string_view::npos
                                                                            : end - from));
    } catch (const files_error&) {
      return {};
    }
    return bounded(value);
  };
  if (text.find("<Error>") == std::string_view::npos) return out;
  try {
    out.code = element("Code");
    out.message = element("Message");
  } catch (...) {
    return {};
  }
  return out;
}

}  // namespace massive::files::detail
