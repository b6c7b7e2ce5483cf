// Where something was written: a file name shared by every location in the file, and a
// line and column. Copying a location allocates nothing, so a syntax tree or a program
// of many phases costs a few bytes per location however long the file's path is.
#pragma once

#include <memory>
#include <ostream>
#include <string>
#include <string_view>

namespace scl {

/// A file name held once and shared (a reference-counted immutable string).
class FileName {
 public:
  FileName() = default;
  FileName(std::string name) : name_(std::make_shared<const std::string>(std::move(name))) {}
  FileName(std::string_view name) : FileName(std::string(name)) {}
  FileName(const char* name) : FileName(std::string(name)) {}

  const std::string& str() const { return name_ ? *name_ : empty_(); }
  operator const std::string&() const { return str(); }
  bool empty() const { return str().empty(); }

  friend bool operator==(const FileName& a, const FileName& b) {
    return a.name_ == b.name_ || a.str() == b.str();
  }
  friend bool operator==(const FileName& a, const std::string& b) { return a.str() == b; }
  friend bool operator==(const FileName& a, std::string_view b) { return a.str() == b; }
  friend bool operator==(const FileName& a, const char* b) { return a.str() == b; }
  friend std::ostream& operator<<(std::ostream& out, const FileName& name) {
    return out << name.str();
  }

 private:
  static const std::string& empty_() {
    static const std::string kEmpty;
    return kEmpty;
  }
  std::shared_ptr<const std::string> name_;
};

/// Where something was written in a file (1-based line and column; line 0: the file as
/// a whole).
struct SourceLocation {
  FileName file;
  int line = 0;
  int column = 0;
  bool operator==(const SourceLocation&) const = default;
};

}  // namespace scl
