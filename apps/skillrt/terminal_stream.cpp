#include "terminal_stream.hpp"

#include <array>
#include <iostream>
#include <mutex>
#include <streambuf>
#include <string>
#include <string_view>

#include "core/util/terminal_text.hpp"

namespace skillrt::app {

namespace {

// The SGR codes of catalog_text, text_table and validate/render_text, and nothing else.
constexpr std::array<std::string_view, 6> k_allowed_styles = {"\x1b[0m",    "\x1b[1m",    "\x1b[1;31m",
                                                              "\x1b[1;32m", "\x1b[1;35m", "\x1b[1;36m"};

} // namespace

// A stream buffer without a put area: every write reaches xsputn/overflow,
// is escaped and passed straight on to the original buffer (which does the
// buffering), so output order against the C stdio streams stays as it was.
class TerminalSafeOutput::Filter final : public std::streambuf {
public:
  explicit Filter(std::ostream& stream)
      : m_stream(stream), m_target(stream.rdbuf()), m_escaper(core::TerminalLayout::multi_line) {
    m_stream.rdbuf(this);
  }

  ~Filter() override {
    m_escaper.finish(m_escaped);
    drain();
    m_stream.rdbuf(m_target);
    m_target->pubsync();
  }

  Filter(const Filter&) = delete;
  Filter& operator=(const Filter&) = delete;

  void allow_styles(bool allow) {
    const std::lock_guard<std::mutex> lock(m_mutex);
    m_styles = allow;
  }

protected:
  std::streamsize xsputn(const char* data, std::streamsize count) override {
    // The watcher and MCP threads of `mcp`/`serve` write warnings to
    // std::cerr too: the escaper's state is shared, so one writer at a time.
    const std::lock_guard<std::mutex> lock(m_mutex);
    std::string_view piece(data, static_cast<std::size_t>(count));
    while (m_styles && !piece.empty()) {
      const std::size_t esc = piece.find('\x1b');
      if (esc == std::string_view::npos) {
        break;
      }
      const std::string_view rest = piece.substr(esc);
      std::string_view style;
      for (const std::string_view allowed : k_allowed_styles) {
        if (rest.substr(0, allowed.size()) == allowed) {
          style = allowed;
          break;
        }
      }
      m_escaper.feed(piece.substr(0, style.empty() ? esc + 1 : esc), m_escaped);
      if (!style.empty()) {
        m_escaper.finish(m_escaped); // nothing held back may straddle the style code
        m_escaped.append(style);
      }
      piece.remove_prefix(style.empty() ? esc + 1 : esc + style.size());
    }
    m_escaper.feed(piece, m_escaped);
    drain();
    return count;
  }

  int_type overflow(int_type ch) override {
    if (traits_type::eq_int_type(ch, traits_type::eof())) {
      return traits_type::not_eof(ch);
    }
    const char c = traits_type::to_char_type(ch);
    xsputn(&c, 1);
    return ch;
  }

  int sync() override {
    const std::lock_guard<std::mutex> lock(m_mutex);
    return m_target->pubsync();
  }

private:
  void drain() {
    if (!m_escaped.empty()) {
      m_target->sputn(m_escaped.data(), static_cast<std::streamsize>(m_escaped.size()));
      m_escaped.clear();
    }
  }

  std::ostream& m_stream;
  std::streambuf* m_target;
  core::TerminalEscaper m_escaper;
  std::string m_escaped;
  bool m_styles = false;
  std::mutex m_mutex;
};

TerminalSafeOutput::TerminalSafeOutput(bool json_stdout) : m_stderr(std::make_unique<Filter>(std::cerr)) {
  if (!json_stdout) {
    m_stdout = std::make_unique<Filter>(std::cout);
  }
}

TerminalSafeOutput::~TerminalSafeOutput() = default;

void TerminalSafeOutput::allow_styles(bool colour) {
  if (m_stdout) {
    m_stdout->allow_styles(colour);
  }
}

} // namespace skillrt::app
