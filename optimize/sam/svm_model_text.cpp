#include "optimize/sam/svm_model_text.h"

#include <algorithm>
#include <charconv>
#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <utility>

#include "base/format.h"

namespace scl {

namespace {

constexpr int kCompatibleLabel = 1;
constexpr int kIncompatibleLabel = -1;

// The text's lines one at a time, numbered from 1, for errors that name them.
class ModelLines {
 public:
  explicit ModelLines(std::string_view text) : text_(text) {}

  // Moves to the next line; false at the end of the text.
  bool next() {
    if (position_ >= text_.size()) return false;
    const size_t end = text_.find('\n', position_);
    terminated_ = end != std::string_view::npos;
    const size_t stop = terminated_ ? end : text_.size();
    line_ = text_.substr(position_, stop - position_);
    position_ = stop + 1;
    ++number_;
    return true;
  }
  std::string_view line() const { return line_; }
  // Whether the current line ends with a newline (libsvm ends every line with one; a
  // file cut inside its last line does not).
  bool terminated() const { return terminated_; }

  [[noreturn]] void fail(const std::string& why) const {
    throw std::runtime_error("line " + std::to_string(number_) + ": " + why);
  }

 private:
  std::string_view text_;
  std::string_view line_;
  size_t position_ = 0;
  int number_ = 0;
  bool terminated_ = true;
};

// An integer written in full, else nullopt.
std::optional<int64_t> parseInteger(std::string_view text) {
  int64_t value = 0;
  const char* end = text.data() + text.size();
  const auto [stop, error] = std::from_chars(text.data(), end, value);
  if (error != std::errc() || stop != end) return std::nullopt;
  return value;
}

// The words of one line (separated by spaces or tabs), one at a time: a line of millions
// of words costs no memory.
class Words {
 public:
  explicit Words(const ModelLines& lines) : lines_(lines), rest_(lines.line()) {}

  std::optional<std::string_view> next() {
    const size_t begin = rest_.find_first_not_of(" \t");
    if (begin == std::string_view::npos) return std::nullopt;
    rest_.remove_prefix(begin);
    const size_t end = std::min(rest_.find_first_of(" \t"), rest_.size());
    const std::string_view word = rest_.substr(0, end);
    rest_.remove_prefix(end);
    return word;
  }
  // The next word, which must be there: `what` names it in the error.
  std::string_view expect(const std::string& what) {
    const std::optional<std::string_view> word = next();
    if (!word) lines_.fail("expected " + what + " at the end of the line");
    return *word;
  }
  double finite(const std::string& what) {
    const std::string_view word = expect(what);
    const std::optional<double> value = parseFiniteNumber(word);
    if (!value) lines_.fail(what + " must be a finite number, not " + quoteForMessage(word));
    return *value;
  }
  int64_t integer(const std::string& what, int64_t lowest, int64_t highest) {
    const std::string_view word = expect(what);
    const std::optional<int64_t> value = parseInteger(word);
    if (!value || *value < lowest || *value > highest)
      lines_.fail(what + " must be an integer from " + std::to_string(lowest) + " to " +
                  std::to_string(highest) + ", not " + quoteForMessage(word));
    return *value;
  }
  void expectEnd() {
    if (const std::optional<std::string_view> extra = next())
      lines_.fail("unexpected " + quoteForMessage(*extra) + " at the end of the line");
  }

 private:
  const ModelLines& lines_;
  std::string_view rest_;
};

// Moves to the next line, which must begin with `key`; the words after it.
Words headerLine(ModelLines& lines, const std::string& key) {
  if (!lines.next()) lines.fail("the file ends before its '" + key + "' line (truncated?)");
  Words words(lines);
  if (words.next() != key)
    lines.fail("expected the '" + key + "' line, found " + quoteForMessage(lines.line()));
  return words;
}

// Reads the header; the support vectors it announces (total_sv).
int64_t checkHeader(ModelLines& lines) {
  constexpr int64_t kIntMax = 2147483647;  // libsvm's counts are ints
  constexpr std::pair<const char*, const char*> kKind[] = {{"svm_type", "c_svc"},
                                                           {"kernel_type", "rbf"}};
  for (const auto& [key, value] : kKind) {
    Words words = headerLine(lines, key);
    if (words.next() != value)
      lines.fail(std::string("not a two-class RBF model (") + key + " must be " + value + ")");
    words.expectEnd();
  }
  Words gamma = headerLine(lines, "gamma");
  if (!(gamma.finite("gamma") > 0)) lines.fail("gamma must be positive");
  gamma.expectEnd();
  Words classes = headerLine(lines, "nr_class");
  classes.integer("nr_class (a two-class model)", 2, 2);
  classes.expectEnd();
  Words total = headerLine(lines, "total_sv");
  const int64_t totalSv = total.integer("total_sv", 1, kIntMax);
  total.expectEnd();
  Words rho = headerLine(lines, "rho");  // one per pair of classes
  rho.finite("rho");
  rho.expectEnd();
  Words labels = headerLine(lines, "label");
  const int64_t first = labels.integer("a label", kIncompatibleLabel, kCompatibleLabel);
  const int64_t second = labels.integer("a label", kIncompatibleLabel, kCompatibleLabel);
  labels.expectEnd();
  const bool bothClasses = first != second && first != 0 && second != 0;  // 1 and -1
  if (!bothClasses) lines.fail("the labels must be 1 and -1 (compatible and incompatible)");
  Words counts = headerLine(lines, "nr_sv");
  const int64_t sum = counts.integer("nr_sv", 0, kIntMax) + counts.integer("nr_sv", 0, kIntMax);
  counts.expectEnd();
  if (sum != totalSv)
    lines.fail("the nr_sv counts sum to " + std::to_string(sum) + ", not total_sv " +
               std::to_string(totalSv));
  headerLine(lines, "SV").expectEnd();
  return totalSv;
}

// One support vector: its coefficient, then index:value pairs.
void checkSupportVector(const ModelLines& lines, size_t dimensions) {
  Words words(lines);
  words.finite("the coefficient");
  int64_t previous = 0;
  while (const std::optional<std::string_view> pair = words.next()) {
    const size_t colon = pair->find(':');
    if (colon == std::string_view::npos)
      lines.fail("expected index:value, found " + quoteForMessage(*pair));
    const std::optional<int64_t> index = parseInteger(pair->substr(0, colon));
    if (!index || *index <= previous || *index > static_cast<int64_t>(dimensions))
      lines.fail("the index of " + quoteForMessage(*pair) + " must be above " +
                 std::to_string(previous) + " and at most the problem's " +
                 std::to_string(dimensions) + " dimensions");
    previous = *index;
    if (!parseFiniteNumber(pair->substr(colon + 1)))
      lines.fail("the value of " + quoteForMessage(*pair) + " must be a finite number");
  }
}

}  // namespace

void checkSvmModelText(std::string_view text, size_t dimensions) {
  ModelLines lines(text);
  const int64_t totalSv = checkHeader(lines);
  int64_t found = 0;
  while (lines.next()) {
    if (++found > totalSv)
      lines.fail("more support vectors than total_sv " + std::to_string(totalSv));
    checkSupportVector(lines, dimensions);
    if (!lines.terminated()) lines.fail("the file ends inside this line (truncated?)");
  }
  if (found < totalSv)
    throw std::runtime_error("the file ends after " + std::to_string(found) + " of total_sv " +
                             std::to_string(totalSv) + " support vectors (truncated?)");
}

}  // namespace scl
