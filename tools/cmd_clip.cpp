// `scl clip import`: a BVH file, through a mapping file, as a motion clip of a character
// (docs/clips.md, BVH import and export).
#include <cstdio>
#include <cxxopts.hpp>
#include <string>

#include "runtime/output_files.h"
#include "scl/bvh.h"
#include "scl/clip_file.h"
#include "tools/cli.h"
#include "tools/commands.h"

namespace scl {

namespace {

int importMain(int argc, char** argv) {
  cxxopts::Options options("scl clip import",
                           "Import a BVH file as a motion clip: each character joint's angle is "
                           "the rotation of the BVH joints a mapping file names, projected on an "
                           "axis (docs/clips.md).");
  options.positional_help("FILE.bvh --map MAPPING.bvhmap --out OUT.clip");
  options.add_options()("h,help", "show this help")(
      "map", "the mapping file: BVH joints to the character's joints",
      cxxopts::value<std::string>(),
      "FILE.bvhmap")("out", "the clip to write", cxxopts::value<std::string>(), "FILE.clip")(
      "character",
      "the character (a built-in name or a .character file; default: the one the mapping names)",
      cxxopts::value<std::string>(), "NAME|FILE")(
      "name", "the clip's name (default: the BVH file's name)", cxxopts::value<std::string>(),
      "NAME")("bvh", "the BVH file", cxxopts::value<std::string>());
  options.parse_positional({"bvh"});
  CommandLineDef def;
  def.helpEpilogue =
      "exit codes: 0 ok, 1 the BVH or mapping file has errors, 2 usage error, 3 the clip could "
      "not be written";
  std::string bvhPath, mapPath, outPath;
  std::optional<std::string> characterOption, name;
  if (!parseCommandLine(options, argc, argv, def, [&](const cxxopts::ParseResult& parsed) {
        if (!parsed.unmatched().empty())
          throw UsageError("unexpected argument '" + parsed.unmatched()[0] +
                           "': give one BVH file");
        if (!parsed.count("bvh"))
          throw UsageError("no BVH file given: scl clip import FILE.bvh ...");
        if (!parsed.count("map")) throw UsageError("no mapping given: --map FILE.bvhmap");
        if (!parsed.count("out")) throw UsageError("no output given: --out FILE.clip");
        bvhPath = parsed["bvh"].as<std::string>();
        mapPath = parsed["map"].as<std::string>();
        outPath = parsed["out"].as<std::string>();
        if (parsed.count("character")) characterOption = parsed["character"].as<std::string>();
        if (parsed.count("name")) name = parsed["name"].as<std::string>();
      }))
    return kExitOk;
  const std::string bvhText = readInputFile(bvhPath, "BVH file");
  const std::string mapText = readInputFile(mapPath, "mapping file");
  checkOutputWritable("--out", outPath);
  std::vector<NamedPath> inputs = {{"BVH file", bvhPath}, {"mapping file", mapPath}};
  if (characterOption) inputs.push_back({"--character", *characterOption});
  checkOutputsAgainstInputs(inputs, {{"--out", outPath}});

  const BvhParse bvh = parseBvh(bvhText, bvhPath);
  const BvhMappingParse mapping = parseBvhMapping(mapText, mapPath);
  std::fputs(renderDiagnostics(bvh.diagnostics, bvhText).c_str(), stderr);
  std::fputs(renderDiagnostics(mapping.diagnostics, mapText).c_str(), stderr);
  if (!bvh.ok() || !mapping.ok()) {
    std::fprintf(stderr, "scl clip import: %s has errors (see above)\n",
                 !bvh.ok() ? ("'" + bvhPath + "'").c_str() : ("'" + mapPath + "'").c_str());
    return kExitInputError;
  }
  const std::shared_ptr<const Character> character =
      loadCharacterOption(characterOption.value_or(mapping.mapping.character),
                          characterOption ? "--character" : "the mapping's character");
  DiagnosticSink sink;
  const std::optional<Clip> clip =
      importBvh(bvh.bvh, mapping.mapping, *character, sink, name.value_or(clipNameOf(bvhPath)));
  std::fputs(renderDiagnostics(sink.take(), mapText).c_str(), stderr);
  if (!clip) {
    std::fprintf(stderr, "scl clip import: '%s' does not fit '%s' (see above)\n", mapPath.c_str(),
                 bvhPath.c_str());
    return kExitInputError;
  }
  try {
    writeFileAtomically(outPath, printClip(*clip));
  } catch (const OutputError& error) {
    std::fprintf(stderr, "scl clip import: %s (nothing written)\n", error.what());
    return kExitFailure;
  }
  std::printf("%s: clip '%s' of %s, %zu frames of %zu joints%s, %s s\n", outPath.c_str(),
              clip->name.c_str(), character->name.c_str(), clip->frames.size(), clip->joints.size(),
              clip->hasRoot() ? " and the root" : "", formatNumber(clip->duration()).c_str());
  return kExitOk;
}

}  // namespace

int sclClipMain(int argc, char** argv) {
  const std::string usage = "usage: scl clip import FILE.bvh --map MAPPING.bvhmap --out OUT.clip";
  if (argc < 2) throw UsageError("expected a subcommand; " + usage);
  const std::string_view sub = argv[1];
  if (sub == "--help" || sub == "-h") {
    std::printf(
        "%s\n\nsubcommands (each has --help):\n"
        "  import   a BVH file as a motion clip of a character, through a mapping file\n",
        usage.c_str());
    return kExitOk;
  }
  if (sub == "import") return importMain(argc - 1, argv + 1);
  throw UsageError("unknown subcommand '" + std::string(sub) + "'; " + usage);
}

}  // namespace scl
