// Fuzzy patch on a realistic 100 KB skill document: a miss (all nine
// strategies run and fail), the "did you mean" hint for that miss, an exact
// hit and a block_anchor hit. The document is generated deterministically:
// headings, prose, nested lists and indented code blocks.
#include <benchmark/benchmark.h>

#include <cstdint>
#include <string>
#include <vector>

#include "core/patch/fuzzy_replace.hpp"

namespace {

class Words {
 public:
  std::string next() {
    static const std::vector<std::string> kWords = {
        "skill",   "agent",  "config", "install", "the",     "a",      "run",    "with",   "model",
        "dataset", "train",  "token",  "prompt",  "output",  "file",   "path",   "when",   "use",
        "command", "option", "value",  "script",  "return",  "error",  "check",  "update", "python",
        "cache",   "server", "client", "request", "respond", "format", "schema", "field",  "default"};
    state_ = state_ * 6364136223846793005ULL + 1442695040888963407ULL;
    return kWords[(state_ >> 33U) % kWords.size()];
  }
  std::size_t below(std::size_t n) {
    state_ = state_ * 6364136223846793005ULL + 1442695040888963407ULL;
    return static_cast<std::size_t>((state_ >> 33U) % n);
  }

 private:
  std::uint64_t state_ = 42;
};

std::string sentence(Words& words, std::size_t length) {
  std::string out;
  for (std::size_t k = 0; k < length; ++k) {
    if (k > 0) {
      out.push_back(' ');
    }
    out += words.next();
  }
  return out;
}

std::string document(std::size_t bytes) {
  Words words;
  std::string out = "---\nname: bench-skill\ndescription: A generated skill for benchmarks.\n---\n\n";
  // Appended piece by piece: `"literal" + std::string&&` trips g++ 12's -Wrestrict false positive.
  for (std::size_t section = 1; out.size() < bytes; ++section) {
    out += "## Section ";
    out += std::to_string(section);
    out += ": ";
    out += sentence(words, 3);
    out += "\n\n";
    for (std::size_t p = 0; p < 2; ++p) {
      out += sentence(words, 10 + words.below(6));
      out += ".\n";
      out += sentence(words, 8 + words.below(8));
      out += ".\n\n";
    }
    out += "- ";
    out += sentence(words, 5);
    out += "\n  - ";
    out += sentence(words, 4);
    out += "\n  - ";
    out += sentence(words, 6);
    out += "\n\n```python\ndef ";
    out += words.next();
    out += "_";
    out += std::to_string(section);
    out += "(x):\n    if x:\n        return ";
    out += words.next();
    out += "(x)\n    return None\n```\n\n";
  }
  return out;
}

const std::string& content() {
  static const std::string text = document(100 * 1024);
  return text;
}

// Five consecutive lines starting at the line that begins with `marker`.
std::string five_lines_from(const std::string& text, const std::string& marker) {
  const std::size_t begin = text.find(marker);
  std::size_t end = begin;
  for (int k = 0; k < 5; ++k) {
    end = text.find('\n', end + 1);
  }
  return text.substr(begin, end - begin);
}

const std::string kMissing =
    "## Section 9999: nowhere to be found\n\nThis paragraph describes a feature that the document lacks.\n"
    "- unrelated bullet\n  - deeper unrelated bullet";

void BM_NoMatch(benchmark::State& state) {
  for (auto _ : state) {
    auto result = skillrt::core::fuzzy_find_replace(content(), kMissing, "replacement", false);
    benchmark::DoNotOptimize(result);
  }
  state.SetLabel(std::to_string(content().size()) + " bytes");
}
BENCHMARK(BM_NoMatch)->Unit(benchmark::kMillisecond);

void BM_DidYouMean(benchmark::State& state) {
  for (auto _ : state) {
    auto hint = skillrt::core::did_you_mean(content(), kMissing);
    benchmark::DoNotOptimize(hint);
  }
}
BENCHMARK(BM_DidYouMean)->Unit(benchmark::kMillisecond);

void BM_ExactHit(benchmark::State& state) {
  const std::string old_string = five_lines_from(content(), "## Section 40:");
  for (auto _ : state) {
    auto result = skillrt::core::fuzzy_find_replace(content(), old_string, "replacement", false);
    if (!result || result->strategy != "exact") {
      state.SkipWithError("expected an exact hit");
      break;
    }
    benchmark::DoNotOptimize(result);
  }
}
BENCHMARK(BM_ExactHit)->Unit(benchmark::kMillisecond);

void BM_BlockAnchorHit(benchmark::State& state) {
  // The list of section 40 and the code fence after it: a unique first line,
  // a last line ("```python") shared by every section.
  const std::size_t list = content().find("\n- ", content().find("## Section 40:")) + 1;
  std::string old_string = five_lines_from(content().substr(list), "- ");
  // Reword the middle lines a little: first and last lines stay intact.
  const std::size_t first_newline = old_string.find('\n');
  const std::size_t last_newline = old_string.rfind('\n');
  for (std::size_t k = first_newline + 6; k < last_newline; k += 7) {
    old_string[k] = 'Z';
  }
  for (auto _ : state) {
    auto result = skillrt::core::fuzzy_find_replace(content(), old_string, "replacement", false);
    if (!result || result->strategy != "block_anchor") {
      state.SkipWithError(result ? ("got " + result->strategy).c_str() : result.error().error.c_str());
      break;
    }
    benchmark::DoNotOptimize(result);
  }
}
BENCHMARK(BM_BlockAnchorHit)->Unit(benchmark::kMillisecond);

}  // namespace

BENCHMARK_MAIN();
