// base/: the one number formatter, XML escaper, file reader and atomic writer, CSV
// splitter, thread-count rule and SVG writer every library shares.
#include <sys/stat.h>
#include <sys/types.h>

#include <catch2/catch.hpp>
#include <charconv>
#include <chrono>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "base/csv.h"
#include "base/files.h"
#include "base/format.h"
#include "base/svg.h"
#include "base/threads.h"
#include "base/xml.h"
#include "tests/cli_support.h"

using namespace scl;
using scl::testing::readText;
using scl::testing::TempDir;
using scl::testing::writeText;
namespace fs = std::filesystem;

namespace {

constexpr double kNan = std::numeric_limits<double>::quiet_NaN();
constexpr double kInf = std::numeric_limits<double>::infinity();

double parse(const std::string& text) {
  double value = 0.0;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  REQUIRE(error == std::errc());
  REQUIRE(end == text.data() + text.size());
  return value;
}

}  // namespace

TEST_CASE("one formatter: -0, 1e-7, 123456.5, NaN and inf", "[base][format]") {
  CHECK(formatNumber(-0.0) == "0");
  CHECK(formatNumber(1e-7) == "0.0000001");
  CHECK(formatNumber(123456.5) == "123456.5");
  CHECK(formatNumber(kNan) == "nan");
  CHECK(formatNumber(-kNan) == "nan");
  CHECK(formatNumber(kInf) == "inf");
  CHECK(formatNumber(-kInf) == "-inf");
  // Huge and tiny: an exponent rather than hundreds of digits.
  CHECK(formatNumber(1e300) == "1e+300");
  CHECK(formatNumber(-1e-300) == "-1e-300");
  CHECK(formatNumber(1e20) == "100000000000000000000");

  CHECK(formatExact(-0.0) == "0");
  CHECK(formatExact(1e-7) == "1e-07");
  CHECK(formatExact(123456.5) == "123456.5");
  CHECK(formatExact(-kNan) == "nan");
  CHECK(formatExact(-kInf) == "-inf");

  CHECK(formatFixed(-0.0, 1) == "0.0");
  CHECK(formatFixed(-0.04, 1) == "0.0");  // rounds to zero: no sign
  CHECK(formatFixed(-0.05, 1) == "-0.1");
  CHECK(formatFixed(1e-7, 3) == "0.000");
  CHECK(formatFixed(123456.5, 0) == "123456");  // ties to even, as printf
  CHECK(formatFixed(2.5, 3) == "2.500");
  CHECK(formatFixed(kNan, 2) == "nan");
  CHECK(formatFixed(-kInf, 2) == "-inf");

  CHECK(formatTrimmed(0.350, 2) == "0.35");
  CHECK(formatTrimmed(90.0, 2) == "90");
  CHECK(formatTrimmed(-0.0001, 2) == "0");
  CHECK(formatTrimmed(-12.5, 3) == "-12.5");
  CHECK(formatTrimmed(1e-7, 3) == "0");
  CHECK(formatTrimmed(kNan, 3) == "nan");

  CHECK(formatSignificant(-0.0, 6) == "0");
  CHECK(formatSignificant(1e-7, 7) == "1e-07");
  CHECK(formatSignificant(123456.5, 7) == "123456.5");
  CHECK(formatSignificant(123456.5, 3) == "1.23e+05");
  CHECK(formatSignificant(0.25, 3) == "0.25");
  CHECK(formatSignificant(-1e-300, 3) == "-1e-300");
  CHECK(formatSignificant(kNan, 4) == "nan");
  CHECK(formatSignificant(kInf, 4) == "inf");
}

TEST_CASE("the round-trip formatters read back as the same double", "[base][format]") {
  std::mt19937_64 random(20261124);
  std::uniform_int_distribution<std::uint64_t> bits;
  int checked = 0;
  while (checked < 20000) {
    const std::uint64_t pattern = bits(random);
    double value = 0.0;
    std::memcpy(&value, &pattern, sizeof value);
    if (!std::isfinite(value)) continue;
    CHECK(parse(formatNumber(value)) == value);
    CHECK(formatNumber(value).size() <= kMaxFixedNumberLength);
    CHECK(parse(formatExact(value)) == value);
    CHECK(parse(formatSignificant(value, 17)) == value);
    ++checked;
  }
  std::uniform_real_distribution<double> ordinary(-1000.0, 1000.0);
  for (int i = 0; i < 2000; ++i) {
    const double value = ordinary(random);
    REQUIRE(formatNumber(value).find('e') == std::string::npos);
    CHECK(parse(formatNumber(value)) == value);
  }
}

TEST_CASE("one XML escaper", "[base][xml]") {
  CHECK(escapeXml("a < b & \"c\" > d") == "a &lt; b &amp; &quot;c&quot; &gt; d");
  CHECK(escapeXml("plain · text's") == "plain · text's");
  CHECK(escapeXml("") == "");
}

TEST_CASE("the file reader reads a file whole, byte for byte", "[base][files]") {
  TempDir dir;
  const std::string content("line\r\n\0binary\n", 14);  // a NUL in the middle
  const std::string bytes = std::string(kByteOrderMark) + content;
  writeText(dir.path() / "a.txt", bytes);
  const FileRead read = readWholeFile(dir.path() / "a.txt");
  REQUIRE(read);
  CHECK(read.text == bytes);
  CHECK(read.error.empty());

  writeText(dir.path() / "empty.txt", "");
  const FileRead empty = readWholeFile(dir.path() / "empty.txt");
  REQUIRE(empty);
  CHECK(empty.text.empty());

  std::string text = read.text;
  CHECK(stripByteOrderMark(text));
  CHECK(text == content);
  CHECK_FALSE(stripByteOrderMark(text));
}

TEST_CASE("the file reader refuses what is no input file", "[base][files]") {
  TempDir dir;
  SECTION("a missing file") {
    const FileRead read = readWholeFile(dir.path() / "none.scl");
    CHECK(read.failure == FileReadFailure::Missing);
    CHECK(read.error == "'" + (dir.path() / "none.scl").string() + "' does not exist");
  }
  SECTION("a directory") {
    const FileRead read = readWholeFile(dir.path());
    CHECK(read.failure == FileReadFailure::Directory);
    CHECK(read.reason == "is a directory, not a file");
  }
  SECTION("a device") {
    const FileRead read = readWholeFile("/dev/null");
    CHECK(read.failure == FileReadFailure::NotRegular);
    CHECK(read.error == "'/dev/null' is not a regular file");
  }
  SECTION("a FIFO nobody writes, without blocking") {
    const fs::path fifo = dir.path() / "pipe";
    REQUIRE(::mkfifo(fifo.c_str(), 0600) == 0);
    const auto start = std::chrono::steady_clock::now();
    const FileRead read = readWholeFile(fifo);
    CHECK(std::chrono::steady_clock::now() - start < std::chrono::seconds(5));
    CHECK(read.failure == FileReadFailure::NotRegular);
  }
  SECTION("a file above the limit") {
    writeText(dir.path() / "big.csv", std::string(1000, 'x'));
    const FileRead read = readWholeFile(dir.path() / "big.csv", 999);
    CHECK(read.failure == FileReadFailure::TooLarge);
    CHECK(read.text.empty());
    CHECK(read.reason == "is larger than 999 bytes (the most an input file may have)");
    CHECK(readWholeFile(dir.path() / "big.csv", 1000));
  }
  SECTION("the default limit is said in MiB") {
    CHECK(kMaxInputFileBytes == std::uintmax_t{64} * 1024 * 1024);
  }
}

TEST_CASE("an atomic write replaces a file whole, or leaves it as it was", "[base][files]") {
  TempDir dir;
  const fs::path file = dir.path() / "out.csv";
  writeText(file, "old\n");
  SECTION("committed: the new contents, no temporary left") {
    AtomicFile staged(file, "new\n");
    CHECK(readText(file) == "old\n");  // nothing visible before the commit
    staged.commit();
    CHECK(readText(file) == "new\n");
    CHECK(std::distance(fs::directory_iterator(dir.path()), fs::directory_iterator()) == 1);
  }
  SECTION("dropped before the commit: the old file, no temporary left") {
    { AtomicFile staged(file, "new\n"); }
    CHECK(readText(file) == "old\n");
    CHECK(std::distance(fs::directory_iterator(dir.path()), fs::directory_iterator()) == 1);
  }
  SECTION("a write that fails (its folder is a file): an error naming the path") {
    const fs::path impossible = file / "inner.csv";
    try {
      AtomicFile staged(impossible, "new\n");
      FAIL("no error");
    } catch (const FileError& error) {
      CHECK_THAT(error.what(), Catch::StartsWith("cannot write '" + impossible.string() + "': "));
    }
    CHECK(readText(file) == "old\n");
  }
  SECTION("a commit that fails (the target became a directory): the old target stays") {
    const fs::path target = dir.path() / "later";
    AtomicFile staged(target, "new\n");
    fs::create_directory(target);
    writeText(target / "keep", "kept\n");
    CHECK_THROWS_AS(staged.commit(), FileError);
    CHECK(readText(target / "keep") == "kept\n");
  }
}

TEST_CASE("one CSV splitter: RFC 4180 quotes", "[base][csv]") {
  using Fields = std::vector<std::string>;
  CHECK(splitCsvLine("a,b,c") == Fields{"a", "b", "c"});
  CHECK(splitCsvLine("") == Fields{""});
  CHECK(splitCsvLine(",,") == Fields{"", "", ""});
  CHECK(splitCsvLine("1,\"two, three\",4") == Fields{"1", "two, three", "4"});
  CHECK(splitCsvLine("\"say \"\"hi\"\"\",x") == Fields{"say \"hi\"", "x"});
  CHECK(splitCsvLine("\"\",\"\"") == Fields{"", ""});
  CHECK(splitCsvLine("a,b\r") == Fields{"a", "b"});
  CHECK(quoteCsvField("say \"hi\", then go") == "\"say \"\"hi\"\", then go\"");
  CHECK(splitCsvLine(quoteCsvField("a,\"b\"") + ",c") == Fields{"a,\"b\"", "c"});
  for (const char* line : {"a,b,c", "", ",,", "1,\"two, three\",4", "\"say \"\"hi\"\"\",x",
                           "\"\",\"\"", "a,b\r", "x\"y,z\"w,v"})
    CHECK(countCsvFields(line) == splitCsvLine(line).size());
}

TEST_CASE("user input in messages is quoted, cut at 80 bytes", "[base][format]") {
  CHECK(quoteForMessage("abc") == "'abc'");
  CHECK(quoteForMessage(std::string(80, 'x')) == "'" + std::string(80, 'x') + "'");
  const std::string huge(size_t{100'000'000}, '7');  // 100 MB, as a number in a checkpoint
  CHECK(quoteForMessage(huge) == "'" + std::string(80, '7') + "\u2026' (100000000 bytes)");
  // Never inside a UTF-8 character: "é" is two bytes, the 80th would be its first.
  CHECK(quoteForMessage(std::string(79, 'x') + "\u00e9" + std::string(10, 'y')) ==
        "'" + std::string(79, 'x') + "\u2026' (91 bytes)");
}

// A request, a default, a cap per core and the cores.
ThreadCount threadsFor(int requested, int defaultThreads, int maxPerCore, int cores) {
  ThreadCountDef def;
  def.requested = requested;
  def.maxPerCore = maxPerCore;
  def.defaultThreads = defaultThreads;
  def.cores = cores;
  return chooseThreadCount(def);
}

TEST_CASE("one thread-count rule", "[base][threads]") {
  CHECK(hardwareCores() >= 1);
  CHECK(chooseThreadCount({}).threads == hardwareCores());
  CHECK(threadsFor(0, 0, 0, 6).threads == 6);
  CHECK(threadsFor(-3, 2, 0, 6).threads == 2);
  CHECK(threadsFor(5, 0, 0, 2).threads == 5);  // no cap asked for
  const ThreadCount within = threadsFor(8, 0, 4, 2);
  CHECK(within.threads == 8);
  CHECK(within.warning.empty());
  const ThreadCount capped = threadsFor(9, 0, 4, 2);
  CHECK(capped.threads == 8);
  CHECK(capped.warning == "--threads 9 is more than 4 per core (2 cores): using 8");
}

TEST_CASE("the SVG writer", "[base][svg]") {
  SvgDef def;
  def.width = 100;
  def.height = 50.25;
  def.rootAttributes = "font-family=\"sans-serif\"";
  SvgWriter svg(def);
  svg.background("white");
  svg.rect(0, -0.01, 10, 5).attribute("fill", "#ffffff").close();
  svg.element("g").attribute("id", "a\"b").open();
  svg.line(1, 2, 3, 4).attribute("stroke", "black").close("");
  svg.circle(1.26, 2, 3).close();
  svg.closeGroup();
  const SvgPoint points[] = {{1, 2}, {3.04, -4}};
  svg.element("polyline").points(points).close();
  svg.element("polygon").points(points, true).close();
  svg.text(5, 6).attribute("font-size", 12.0).text("a < b");
  svg.text(5, 7).markup("<tspan>x &gt; 0</tspan>");
  svg.raw("<!-- fixed -->\n");
  CHECK(svg.number(-0.04) == "0.0");
  CHECK(svg.finish() ==
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"100.0\" height=\"50.2\" "
        "viewBox=\"0 0 100.0 50.2\" font-family=\"sans-serif\">\n"
        "<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n"
        "<rect x=\"0.0\" y=\"0.0\" width=\"10.0\" height=\"5.0\" fill=\"#ffffff\"/>\n"
        "<g id=\"a&quot;b\">\n"
        "<line x1=\"1.0\" y1=\"2.0\" x2=\"3.0\" y2=\"4.0\" stroke=\"black\"/>"
        "<circle cx=\"1.3\" cy=\"2.0\" r=\"3.0\"/>\n"
        "</g>\n"
        "<polyline points=\"1.0,2.0 3.0,-4.0\"/>\n"
        "<polygon points=\"1.0,2.0 3.0,-4.0 \"/>\n"
        "<text x=\"5.0\" y=\"6.0\" font-size=\"12.0\">a &lt; b</text>\n"
        "<text x=\"5.0\" y=\"7.0\"><tspan>x &gt; 0</tspan></text>\n"
        "<!-- fixed -->\n"
        "</svg>\n");

  SvgDef bareDef;
  bareDef.width = 8;
  bareDef.height = 4;
  bareDef.xmlDeclaration = false;
  bareDef.decimals = 0;
  SvgWriter bare(bareDef);
  CHECK(bare.finish() ==
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"8\" height=\"4\" viewBox=\"0 0 8 4\">\n"
        "</svg>\n");
}
