#include "store/bm25_top_k.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

namespace skillrt::store {
namespace {

constexpr double k_k1 = 1.2;
constexpr double k_b = 0.75;
constexpr double k_idf_floor = 1e-6; // what FTS5's bm25 gives a word held by half the documents or more

// Where one list of one word has got to in the merge.
struct Cursor {
  std::size_t word = 0;
  const Posting* at = nullptr;
  const Posting* end = nullptr;
};

// Ranks before: higher score, then lower rowid.
bool ranks_before(const RankedRow& a, const RankedRow& b) {
  return a.score > b.score || (a.score == b.score && a.rowid < b.rowid);
}

double idf_of(const CorpusSize& corpus, std::size_t document_frequency) {
  const auto df = static_cast<double>(document_frequency);
  const double idf = std::log((static_cast<double>(corpus.documents) - df + 0.5) / (df + 0.5));
  return idf > 0 ? idf : k_idf_floor;
}

} // namespace

std::vector<RankedRow> bm25_top_k(const CorpusSize& corpus, const std::vector<WordPostings>& words, std::size_t limit) {
  std::vector<double> idf;
  std::vector<Cursor> cursors; // in word order, so a row's terms are summed in query order
  for (std::size_t w = 0; w < words.size(); ++w) {
    std::size_t document_frequency = 0;
    for (const PostingList* list : words[w].lists) {
      document_frequency += list->size();
      if (!list->empty()) {
        cursors.push_back(Cursor{w, list->data(), list->data() + list->size()});
      }
    }
    idf.push_back(idf_of(corpus, document_frequency));
  }

  // Document at a time over the union of the lists (each ascending rowid),
  // keeping the best `limit` rows in a heap whose front is the worst kept.
  std::vector<RankedRow> best;
  if (limit == 0) {
    return best;
  }
  best.reserve(limit + 1);
  constexpr std::int64_t k_done = std::numeric_limits<std::int64_t>::max();
  while (true) {
    std::int64_t row = k_done;
    for (const Cursor& c : cursors) {
      if (c.at != c.end && c.at->rowid < row) {
        row = c.at->rowid;
      }
    }
    if (row == k_done) {
      break;
    }
    double score = 0;
    for (Cursor& c : cursors) {
      if (c.at == c.end || c.at->rowid != row) {
        continue;
      }
      const double f = c.at->weighted_frequency;
      const double length = c.at->length;
      ++c.at;
      if (f <= 0) {
        continue;
      }
      const double relative_length = corpus.average_length > 0 ? length / corpus.average_length : 1.0;
      score += idf[c.word] * (f * (k_k1 + 1.0)) / (f + k_k1 * (1.0 - k_b + k_b * relative_length));
    }
    const RankedRow ranked{row, score};
    if (best.size() < limit) {
      best.push_back(ranked);
      std::push_heap(best.begin(), best.end(), ranks_before);
    } else if (ranks_before(ranked, best.front())) {
      std::pop_heap(best.begin(), best.end(), ranks_before);
      best.back() = ranked;
      std::push_heap(best.begin(), best.end(), ranks_before);
    }
  }
  std::sort_heap(best.begin(), best.end(), ranks_before);
  return best;
}

} // namespace skillrt::store
