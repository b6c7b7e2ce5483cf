#include "scl/binder.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <map>
#include <set>
#include <span>
#include <string>

#include "scl/character.h"
#include "scl/clip_file.h"
#include "scl/names.h"
#include "scl/printer.h"
#include "scl/scene.h"
#include "scl/world.h"

namespace scl {

namespace {

namespace sx = syntax;

struct Mirror {
  const Character& character;
  int mirrorJoint(int joint) const { return joint < 0 ? joint : character.joints[joint].mirror; }
  int mirrorLink(int link) const { return link < 0 ? link : character.links[link].mirror; }

  Primitive operator()(PdPrimitive pd) const {
    if (pd.clip.active()) pd.clip.mirror = !pd.clip.mirror;
    for (auto& target : pd.targets) target.joint = mirrorJoint(target.joint);
    return pd;
  }
  Primitive operator()(VirtualForcePrimitive vf) const {
    vf.link = mirrorLink(vf.link);
    vf.byJoint = mirrorJoint(vf.byJoint);
    return vf;
  }
  Primitive operator()(GravityCompPrimitive gc) const {
    gc.byJoint = mirrorJoint(gc.byJoint);
    return gc;
  }
  Primitive operator()(IkPrimitive ik) const {
    for (int& effector : ik.effectors) effector = mirrorJoint(effector);
    ik.relJoint = mirrorJoint(ik.relJoint);
    return ik;
  }
  Primitive operator()(RelaxPrimitive relax) const {
    for (int& joint : relax.joints) joint = mirrorJoint(joint);
    return relax;
  }
  Primitive operator()(ComPrimitive com) const { return com; }
  Primitive operator()(AngularMomentumPrimitive angmom) const { return angmom; }
  Primitive operator()(TrackPrimitive track) const {
    using Target = TrackPrimitive::Target;
    if (track.target == Target::JointPosition)
      track.index = mirrorJoint(track.index);
    else if (track.target == Target::LinkPosition || track.target == Target::LinkAngle)
      track.index = mirrorLink(track.index);  // a scene body has no side
    return track;
  }
  Primitive operator()(PosturePrimitive posture) const {
    if (posture.clip.active()) posture.clip.mirror = !posture.clip.mirror;
    return posture;
  }
  Primitive operator()(SupportPrimitive support) const {
    for (int& link : support.links) link = mirrorLink(link);
    return support;
  }
  Primitive operator()(GraspPrimitive grasp) const {
    for (int& link : grasp.links) link = mirrorLink(link);
    return grasp;
  }
  Primitive operator()(ForcePrimitive force) const {
    force.link = mirrorLink(force.link);
    return force;
  }
  Primitive operator()(SwingPrimitive swing) const {
    swing.link = mirrorLink(swing.link);
    return swing;
  }
};

// Every link and joint index of a primitive, tagged by role and sorted: equal signatures
// of a primitive and its mirror mean the mirror copy acts on exactly the same body parts.
std::vector<int> signature(const Primitive& primitive) {
  std::vector<int> out;
  auto add = [&](int role, int index) { out.push_back(role * 100 + index); };
  std::visit(
      [&](const auto& p) {
        using T = std::decay_t<decltype(p)>;
        if constexpr (std::is_same_v<T, PdPrimitive>) {
          for (const auto& target : p.targets) add(static_cast<int>(target.frame), target.joint);
        } else if constexpr (std::is_same_v<T, VirtualForcePrimitive>) {
          add(3, p.link);
          add(4, p.byJoint);
        } else if constexpr (std::is_same_v<T, GravityCompPrimitive>) {
          add(4, p.byJoint);
        } else if constexpr (std::is_same_v<T, IkPrimitive>) {
          for (int effector : p.effectors) add(5, effector);
          add(6, p.relJoint);
        } else if constexpr (std::is_same_v<T, RelaxPrimitive>) {
          for (int joint : p.joints) add(7, joint);
        } else if constexpr (std::is_same_v<T, TrackPrimitive>) {
          using Target = TrackPrimitive::Target;
          if (p.target != Target::BodyPosition && p.target != Target::BodyAngle)
            add(8 + static_cast<int>(p.target), p.index);
        } else if constexpr (std::is_same_v<T, SupportPrimitive>) {
          for (int link : p.links) add(11, link);
        } else if constexpr (std::is_same_v<T, GraspPrimitive>) {
          for (int link : p.links) add(12, link);
        } else if constexpr (std::is_same_v<T, ForcePrimitive>) {
          add(13, p.link);
        } else if constexpr (std::is_same_v<T, SwingPrimitive>) {
          add(14, p.link);
        }
      },
      primitive);
  std::sort(out.begin(), out.end());
  return out;
}

// The two joints an IK effector moves: shoulder and elbow, or hip and knee.
std::array<int, 2> ikChain(const Character& character, int effector) {
  int middle = character.links[character.joints[effector].parentLink].parentJoint;
  int base = character.links[character.joints[middle].parentLink].parentJoint;
  return {base, middle};
}

std::string inQuotes(std::string_view text) { return "'" + quoteToken(text) + "'"; }

// A time from this many seconds up is more likely milliseconds (`after 500`).
constexpr double kLongestLikelyTime = 100.0;
// The largest angle, degrees, that could be radians: a little over pi.
constexpr double kLargestRadianAngle = 3.2;
// At most this many `when contact` transitions are kept to warn about at the end (the
// sink keeps at most 100 warnings anyway).
constexpr size_t kMaxContactWaits = 100;

// A joint that PD-type primitives of the phase drive, and where.
struct Drive {
  int joint;
  SourceLocation location;
};

struct BoundPrimitive {
  Primitive primitive;
  std::vector<Drive> drives;
  /// Whether its drives are checked against the phase's others (not for a `[symm]` copy
  /// of a primitive that is its own mirror image: that was warned about already).
  bool checkDrives = true;
  /// Spliced from a block (`[NAME]`): the block's name and where it is defined.
  std::string block;
  SourceLocation blockLocation;
};

// A bound `define NAME { ... }`.
struct Block {
  std::vector<BoundPrimitive> primitives;
  /// Location of its name in the definition.
  SourceLocation location;
};

class Binder {
 public:
  // `character`: the override (nullptr: the scene's, else the human); `world` likewise
  // (nullptr: the header's `world:`).
  Binder(std::shared_ptr<const Character> character, std::filesystem::path baseDirectory,
         std::shared_ptr<const WorldLoad> world, ClipFiles clipFiles, DiagnosticSink& sink)
      : sink_(sink),
        overridden_(character != nullptr),
        baseDirectory_(std::move(baseDirectory)),
        worldOverride_(std::move(world)),
        names_(character ? *character : *humanCharacter()),
        errorsBefore_(sink.errorCount()) {
    if (!character) character = humanCharacter();
    program_.character = std::move(character);
    clipFiles_ = std::move(clipFiles);
  }

  const Character& character() const { return *program_.character; }

  void scene(const sx::SceneHeader& header) {
    noteScriptFile(header.location);
    bindScene(header);
  }
  void world(const sx::WorldStatement& statement) {
    addWorldOverride();
    noteScriptFile(statement.location);
    if (isPushStatement(statement)) {  // bound at the end, when every body is known
      pushes_.push_back(statement);
      return;
    }
    const size_t before = program_.scene.bodies.size();
    std::vector<WorldParameter> parameters;
    bindWorld(std::span(&statement, 1), program_.scene.bodies, sink_, &parameters);
    if (program_.scene.bodies.size() == before && statement.name)
      unboundBodies_.insert(statement.name->text);  // reported there; not again at a `with`
    for (const WorldParameter& parameter : parameters)
      program_.sceneParameters.push_back(
          {number(parameter.literal, Number::Unit::Plain, parameter.name).slot, parameter.body,
           parameter.key, parameter.component});
  }
  void define(const sx::Define& block) {
    addWorldOverride();
    noteScriptFile(block.location);
    bindDefine(block);
  }

  // `clip NAME: "FILE"`: the file read (a relative path from the script's folder) and bound
  // to the character once; its errors, and a clip of another character, reported at the
  // file's string with a note at each line of the file they are about.
  //
  // A clip file given instead (CompileOptions::clipFiles) is read in its place, a path as
  // given, and named in the messages.
  void clip(const sx::ClipDecl& declaration) {
    addWorldOverride();
    noteScriptFile(declaration.location);
    sx::ClipDecl decl = declaration;
    std::filesystem::path base = baseDirectory_;
    if (auto given = clipFiles_.find(decl.name.text); given != clipFiles_.end()) {
      decl.file.text = given->second.string();
      base.clear();
      usedClipFiles_.insert(decl.name.text);
    }
    if (clips_.contains(decl.name.text) || unboundClips_.contains(decl.name.text)) {
      sink_.error(decl.name.location, "clip " + inQuotes(decl.name.text) + " is declared twice");
      return;
    }
    unboundClips_.insert(decl.name.text);  // until bound
    ClipLoad load = loadClipFile(decl.file.text, base);
    if (load.notFound) {
      for (const Diagnostic& diagnostic : load.diagnostics)
        sink_.error(decl.file.location, diagnostic.message);
      return;
    }
    reportFileDiagnostics("clip file", decl.file, load.diagnostics, sink_);
    if (!load.ok()) return;
    DiagnosticSink bindSink;
    std::optional<ClipBinding> binding = bindClip(load.clip, character(), bindSink);
    std::vector<Diagnostic> bindDiagnostics = bindSink.take();
    for (Diagnostic& diagnostic : bindDiagnostics)
      if (!diagnostic.fileText) diagnostic.fileText = load.text;
    reportFileDiagnostics("clip file", decl.file, bindDiagnostics, sink_);
    if (!binding) return;
    if (load.clip.joints.empty()) {
      sink_.error(decl.file.location, "clip " + inQuotes(load.clip.name) +
                                          " has no joint angles to follow (no 'joints' line)");
      return;
    }
    auto bound = std::make_shared<ScriptClip>();
    bound->name = decl.name.text;
    bound->clip = std::make_shared<const Clip>(std::move(load.clip));
    bound->columnOf = binding->columnOf;
    unboundClips_.erase(decl.name.text);
    clips_.emplace(decl.name.text, std::move(bound));
  }

  // Phases come in order; the exit of a phase that is not the last leads to the next.
  void phase(const sx::Phase& phase, bool last) {
    addWorldOverride();
    noteScriptFile(phase.location);
    const int index = static_cast<int>(program_.phases.size());
    bindPhase(phase, index);
    if (!last && phase.exit) {
      noteContactWait(*phase.exit);
      program_.phases[index].exit = bindTransition(*phase.exit, index + 1);
      if (phase.exit->backto && phase.exit->times)
        bindCycle(*phase.exit->backto, *phase.exit->times, *program_.phases[index].exit);
    }
  }

  // `backto NAME N times`: N a whole number ≥ 1, written as it is (no `@`).
  void bindCycle(const sx::Name& backto, const sx::NumberLit& times, Transition& out) {
    const int target = resolvePhase(backto, "backto");
    if (times.parameter || times.value < 1 || times.value != std::floor(times.value) ||
        times.value > 1e6) {
      sink_.error(times.location, "the count of a cycle is a whole number from 1 (found " +
                                      formatNumber(times.value) +
                                      (times.parameter ? ", an @ parameter" : "") + ")");
      return;
    }
    out.cycleStart = std::max(target, 0);
    out.cycles = static_cast<int>(times.value);
  }

  std::optional<Program> finish(const std::optional<sx::Finally>& finally) {
    addWorldOverride();
    for (const sx::WorldStatement& statement : pushes_) bindPush(statement);
    if (finally && !program_.phases.empty()) {
      noteContactWait(finally->transition);
      Transition& exit = program_.phases.back().exit.emplace();
      if (finally->times) {
        // Counted: back to the named phase, and after the last cycle nowhere: the last
        // phase stays.
        const int self = static_cast<int>(program_.phases.size()) - 1;
        exit = bindTransition(finally->transition, self);
        bindCycle(finally->backto, *finally->times, exit);
      } else {
        int target = resolvePhase(finally->backto, "backto");
        exit = bindTransition(finally->transition, std::max(target, 0));
      }
    }
    // An endless `finally` cycle runs 10 s by default, not until the 60 s limit.
    if (!finally || finally->times)
      for (const ContactWait& wait : contactWaits_)
        sink_.warning(wait.location, WarningKind::ContactWait, wait.message);
    reportUnresolvedPhases();
    reportUnresolvedBlocks();
    reportUnusedClipFiles();
    if (sink_.errorCount() > errorsBefore_ || sink_.full()) return std::nullopt;
    return std::move(program_);
  }

 private:
  // --- scene ----------------------------------------------------------------------------

  // The scene's character first: the poses and every name after it are its own. An
  // override wins (its `character:` is not even read); a character that cannot be loaded
  // is reported and the human stands in, so that the rest is still checked.
  void bindScene(const sx::SceneHeader& header) {
    sceneHeader_ = true;
    if (!overridden_) {
      if (auto character = loadSceneCharacter(header, baseDirectory_, sink_)) {
        program_.character = std::move(character);
        names_ = CharacterNames(*program_.character);
      }
    }
    program_.scene = scl::bindScene(header, Scene{}, character(), sink_);
    if (worldOverride_) {
      addWorldOverride();
      return;
    }
    const size_t before = program_.scene.bodies.size();
    addSceneWorldFile(header, baseDirectory_, program_.scene, sink_);
    // A world file reported at `world:` adds nothing; its bodies' names are unknown here.
    worldFileUnbound_ = header.world && program_.scene.bodies.size() == before;
  }

  // The world override's bodies, once, first of the world's: right after the scene
  // header, else (a script without one) before its first world statement, block or phase.
  // A clash with the scene is an error about the file (no line of it: a clash is no
  // statement's own).
  void addWorldOverride() {
    if (!worldOverride_ || worldOverrideAdded_) return;
    worldOverrideAdded_ = true;
    const SourceLocation file{FileName(worldOverride_->path)};
    worldFileUnbound_ =
        !addWorldBodies(worldOverride_->statements,
                        "world file '" + worldOverride_->path + "' does not fit the script's scene",
                        file, program_.scene, sink_);
  }

  // A `push` statement: its target among the character's links and the scene's bodies.
  void bindPush(const sx::WorldStatement& statement) {
    const std::string_view name = statement.name ? std::string_view(statement.name->text) : "";
    const bool unbound =
        worldFileUnbound_ || unboundBodies_.contains(name.substr(0, name.rfind('.')));
    if (auto push =
            bindPushStatement(statement, character(), program_.scene.bodies, sink_, unbound))
      program_.pushes.push_back(std::move(*push));
  }

  // --- phases ---------------------------------------------------------------------------

  void bindPhase(const sx::Phase& phase, int index) {
    Phase& out = program_.phases.emplace_back();
    out.location = phase.location;
    label_ = phase.name ? phase.name->text : "phase" + std::to_string(index + 1);
    if (phase.name) out.name = phase.name->text;
    drivers_.assign(character().joints.size(), std::nullopt);

    if (phase.mirrorOf) {
      int source = resolvePhase(*phase.mirrorOf, "mirror");
      if (source >= 0) {
        std::vector<Primitive> copies;
        for (const Primitive& primitive : program_.phases[source].primitives)
          copies.push_back(mirrored(primitive, character()));
        for (Primitive& copy : copies) {
          for (int joint : drivenJoints(copy)) drivers_[joint] = phase.mirrorOf->location;
          program_.phases[index].primitives.push_back(std::move(copy));
        }
      }
    }
    if (phase.name) {
      auto [it, inserted] = phaseIndex_.try_emplace(phase.name->text, index);
      if (!inserted) {
        sink_.error(phase.name->location, "duplicate phase name " + inQuotes(phase.name->text));
        sink_.note(program_.phases[it->second].location, "first defined here");
      }
    }

    std::vector<BoundPrimitive> bound = bindPrimitives(phase.primitives, phase.recovered, "phase");
    for (BoundPrimitive& primitive : bound) {
      if (primitive.checkDrives) checkDrives(primitive.drives, primitive);
      program_.phases[index].primitives.push_back(std::move(primitive.primitive));
    }
  }

  // --- primitive blocks -----------------------------------------------------------------

  // `define NAME { ... }`: bound once, where it is written (its names, `@` parameters,
  // `[symm]` and drives); each use splices the result.
  void bindDefine(const sx::Define& define) {
    const sx::Name& name = define.name;
    label_ = name.text;
    const std::span<const std::string_view> keywords = primitiveKeywords();
    if (std::find(keywords.begin(), keywords.end(), name.text) != keywords.end())
      sink_.error(name.location,
                  inQuotes(name.text) + " is a primitive keyword; give the block another name");
    else if (names_.joints(name.text, Groups::Allowed).ok())
      sink_.error(name.location, inQuotes(name.text) + " names a joint; '[" +
                                     quoteToken(name.text) +
                                     "]' would read as a PD target; give the block another name");
    if (auto it = blocks_.find(name.text); it != blocks_.end()) {
      sink_.error(name.location, "duplicate block name " + inQuotes(name.text));
      sink_.note(it->second.location, "first defined here");
      return;
    }
    if (define.primitives.empty() && !define.recovered)
      sink_.warning(name.location, WarningKind::EmptyBlock,
                    "block " + inQuotes(name.text) + " is empty");
    definingBlock_ = name.text;
    Block block{bindPrimitives(define.primitives, define.recovered, "block"), name.location};
    definingBlock_.clear();
    drivers_.assign(character().joints.size(), std::nullopt);
    for (const BoundPrimitive& primitive : block.primitives)
      if (primitive.checkDrives && primitive.block.empty())
        checkDrives(primitive.drives, primitive);
    drivers_.assign(character().joints.size(), std::nullopt);
    blocks_.emplace(name.text, std::move(block));
  }

  // The primitives of a phase or a block, in order: `[symm]` copies the one before it,
  // `[NAME]` splices a block's. `owner` names the phase or block in messages.
  std::vector<BoundPrimitive> bindPrimitives(const std::vector<sx::Primitive>& primitives,
                                             bool recovered, std::string_view owner) {
    std::vector<BoundPrimitive> out;
    bool hasPrevious = false;  // the primitive before is in `out`
    bool previousFailed = false;
    for (const sx::Primitive& primitive : primitives) {
      if (std::holds_alternative<sx::Symm>(primitive.node)) {
        if (!hasPrevious) {
          if (!previousFailed && !recovered)
            sink_.error(primitive.location,
                        "[symm] must follow a primitive of the same " + std::string(owner));
          continue;
        }
        out.push_back(symmCopy(out.back().primitive, primitive.location));
        continue;
      }
      if (const auto* use = std::get_if<sx::Use>(&primitive.node)) {
        const Block* block = resolveBlock(use->block);
        previousFailed = block == nullptr;
        hasPrevious = block && !block->primitives.empty();
        if (!block) continue;
        for (BoundPrimitive spliced : block->primitives) {
          for (Drive& drive : spliced.drives) drive.location = primitive.location;
          if (spliced.block.empty()) {
            spliced.block = use->block.text;
            spliced.blockLocation = block->location;
          }
          out.push_back(std::move(spliced));
        }
        continue;
      }
      std::optional<BoundPrimitive> bound = bindPrimitive(primitive);
      previousFailed = !bound;
      hasPrevious = bound.has_value();
      if (bound) out.push_back(std::move(*bound));
    }
    return out;
  }

  // `[symm]` at `at`: the mirror image of `previous`, warned about when it is its own.
  BoundPrimitive symmCopy(const Primitive& previous, const SourceLocation& at) {
    BoundPrimitive copy;
    copy.primitive = mirrored(previous, character());
    if (signature(copy.primitive) == signature(previous)) {
      sink_.warning(at, WarningKind::SymmSelf,
                    "[symm] copies a primitive that is its own mirror image (it acts on the "
                    "same links and joints); its effect is doubled or repeated");
      copy.checkDrives = false;
    }
    for (int joint : drivenJoints(copy.primitive)) copy.drives.push_back({joint, at});
    return copy;
  }

  // A block by name: only blocks defined before the use count (nullptr if none; the
  // error waits for the end, when it is known whether it is defined later).
  const Block* resolveBlock(const sx::Name& name) {
    if (auto it = blocks_.find(name.text); it != blocks_.end()) return &it->second;
    if (name.text == definingBlock_) {
      sink_.error(name.location, "block " + inQuotes(name.text) + " uses itself");
      return nullptr;
    }
    std::vector<std::string_view> candidates;
    for (const auto& entry : blocks_) candidates.push_back(entry.first);
    std::string suggestion = didYouMean(name.text, candidates);
    const std::string_view keyword = closestMatch(name.text, primitiveKeywords());
    if (!keyword.empty() && suggestion.empty())
      unresolvedBlocks_.push_back({name, "unknown primitive " + inQuotes(name.text) +
                                             "; did you mean '" + std::string(keyword) + "'?"});
    else
      unresolvedBlocks_.push_back(
          {name, "unknown primitive block " + inQuotes(name.text) +
                     (suggestion.empty() ? " (define it before the first phase: "
                                           "'define " +
                                               quoteToken(name.text) + " { ... }')"
                                         : suggestion)});
    return nullptr;
  }

  void noteScriptFile(const SourceLocation& location) {
    if (scriptFile_.empty()) scriptFile_ = location.file;
  }

  // A clip file given for a name no `clip NAME:` declares: an error at the script's first
  // line, with the declared names (the option's text is the caller's to add).
  void reportUnusedClipFiles() {
    std::vector<std::string_view> declared;
    for (const auto& entry : clips_) declared.push_back(entry.first);
    for (const std::string& name : unboundClips_) declared.push_back(name);
    for (const auto& [name, file] : clipFiles_) {
      if (usedClipFiles_.contains(name)) continue;
      std::string message = "a clip file is given for clip " + inQuotes(name) + " (" +
                            file.string() + "), which this script does not declare";
      const std::string suggestion = didYouMean(name, declared);
      if (!suggestion.empty()) {
        message += suggestion;
      } else if (declared.empty()) {
        message += " (it declares no clip)";
      } else {
        message += " (its clips: " + CharacterNames::joined(declared) + ")";
      }
      sink_.error(SourceLocation{scriptFile_, 1, 1}, message);
    }
  }

  void reportUnresolvedBlocks() {
    for (const UnresolvedBlock& use : unresolvedBlocks_) {
      if (auto it = blocks_.find(use.name.text); it != blocks_.end()) {
        sink_.error(use.name.location,
                    "block " + inQuotes(use.name.text) + " is used before its definition");
        sink_.note(it->second.location, "defined here");
      } else {
        sink_.error(use.name.location, use.message);
      }
    }
    unresolvedBlocks_.clear();
  }

  // A phase index by name: only phases defined before the reference count (-1 if none).
  // The error waits for the end of the script, when it is known whether the name is
  // defined later (then it is referenced too early) or nowhere.
  int resolvePhase(const sx::Name& name, std::string_view use) {
    auto it = phaseIndex_.find(name.text);
    if (it != phaseIndex_.end()) return it->second;
    // The suggestion is one of the phases a reference here could name: the earlier ones.
    std::vector<std::string_view> earlier;
    for (const auto& entry : phaseIndex_) earlier.push_back(entry.first);
    unresolved_.push_back({name, use == "mirror", didYouMean(name.text, earlier)});
    return -1;
  }

  void reportUnresolvedPhases() {
    for (const UnresolvedPhase& reference : unresolved_) {
      const sx::Name& name = reference.name;
      if (phaseIndex_.count(name.text))
        sink_.error(name.location,
                    "phase " + inQuotes(name.text) + " is referenced before its definition" +
                        (reference.mirror ? " (a phase can mirror only an earlier phase)" : ""));
      else
        sink_.error(name.location, "unknown phase " + inQuotes(name.text) + reference.suggestion);
    }
    unresolved_.clear();
  }

  // Warns when a joint is driven twice in one phase by PD-type primitives (the later wins);
  // a drive from a block is reported at its use, with a note at the block.
  void checkDrives(const std::vector<Drive>& drives, const BoundPrimitive& from) {
    const size_t diagnosticsBefore = sink_.diagnostics().size();
    checkDrives(drives);
    if (!from.block.empty() && sink_.diagnostics().size() > diagnosticsBefore)
      sink_.note(from.blockLocation, "the block " + inQuotes(from.block) + " is defined here");
  }
  void checkDrives(const std::vector<Drive>& drives) {
    for (size_t i = 0; i < drives.size();) {
      // Drives written at the same place (a group) make one warning.
      size_t end = i;
      std::string names;
      int earlierLine = 0;
      while (end < drives.size() && drives[end].location == drives[i].location) {
        const auto& earlier = drivers_[drives[end].joint];
        if (earlier) {
          names +=
              (names.empty() ? "" : ", ") + inQuotes(character().joints[drives[end].joint].name);
          earlierLine = earlier->line;
        }
        ++end;
      }
      if (!names.empty())
        sink_.warning(drives[i].location, WarningKind::DrivenTwice,
                      names + " already driven by a PD-type primitive at line " +
                          std::to_string(earlierLine) + " of this phase; the later one wins");
      for (size_t k = i; k < end; ++k) drivers_[drives[k].joint] = drives[k].location;
      i = end;
    }
  }

  std::vector<int> drivenJoints(const Primitive& primitive) const {
    const Character& character = this->character();
    std::vector<int> joints;
    if (auto* pd = std::get_if<PdPrimitive>(&primitive))
      for (const auto& target : pd->targets) joints.push_back(target.joint);
    if (auto* ik = std::get_if<IkPrimitive>(&primitive))
      for (int effector : ik->effectors)
        for (int joint : ikChain(character, effector)) joints.push_back(joint);
    if (auto* relax = std::get_if<RelaxPrimitive>(&primitive)) joints = relax->joints;
    return joints;
  }

  // --- primitives -----------------------------------------------------------------------

  std::optional<BoundPrimitive> bindPrimitive(const sx::Primitive& primitive) {
    const int errorsBefore = sink_.errorCount();
    BoundPrimitive bound;
    std::visit([&](const auto& node) { bound.primitive = bindNode(node, bound.drives); },
               primitive.node);
    if (sink_.errorCount() > errorsBefore) return std::nullopt;
    return bound;
  }

  Primitive bindNode(const sx::Pd& pd, std::vector<Drive>& drives) {
    PdPrimitive out;
    for (const sx::PdItem& item : pd.items) {
      std::vector<int> joints = resolveJoints(item.joint, true, "");
      Number angle = number(item.angle, Number::Unit::Degrees, label_ + ".pd." + item.joint.text);
      TargetFrame frame = item.frame == sx::Frame::Child    ? TargetFrame::Child
                          : item.frame == sx::Frame::Parent ? TargetFrame::Parent
                                                            : TargetFrame::Local;
      if (frame == TargetFrame::Local) checkRange(joints, item);
      for (int joint : joints) {
        out.targets.push_back({joint, angle, frame});
        drives.push_back({joint, item.joint.location});
      }
    }
    if (pd.time) out.duration = duration(*pd.time, label_ + ".pd.time");
    checkRadians(pd);
    return out;
  }

  Primitive bindNode(const sx::Vf& vf, std::vector<Drive>&) {
    VirtualForcePrimitive out;
    out.stanceBalance = vf.stanceBalance;
    if (vf.stanceBalance) {
      out.kp = number(vf.values.x, Number::Unit::Plain, label_ + ".vf.kp");
      out.kd = number(vf.values.y, Number::Unit::Plain, label_ + ".vf.kd");
    } else {
      out.fx = number(vf.values.x, Number::Unit::Plain, label_ + ".vf.fx");
      out.fy = number(vf.values.y, Number::Unit::Plain, label_ + ".vf.fy");
    }
    out.link = resolveSingleLink(vf.on, "on:");
    out.byJoint = resolveSingleJoint(vf.by, "by:");
    return out;
  }

  Primitive bindNode(const sx::Ik& ik, std::vector<Drive>& drives) {
    IkPrimitive out;
    for (size_t i = 0; i < ik.targets.size(); ++i) {
      std::string k = std::to_string(i + 1);
      out.targets.emplace_back(number(ik.targets[i].x, Number::Unit::Plain, label_ + ".ik.x" + k),
                               number(ik.targets[i].y, Number::Unit::Plain, label_ + ".ik.y" + k));
    }
    for (int joint : resolveJoints(ik.on, true, "")) {
      if (!character().isLimbEnd(joint)) {
        sink_.error(ik.on.location, "ik 'on:' needs a wrist or an ankle (or wrists, ankles), not " +
                                        inQuotes(ik.on.text));
        break;
      }
      out.effectors.push_back(joint);
      for (int driven : ikChain(character(), joint)) drives.push_back({driven, ik.on.location});
    }
    if (ik.rel) out.relJoint = resolveSingleJoint(*ik.rel, "rel:");
    if (ik.time) out.duration = duration(*ik.time, label_ + ".ik.time");
    return out;
  }

  Primitive bindNode(const sx::Relax& relax, std::vector<Drive>& drives) {
    RelaxPrimitive out;
    for (const sx::Name& name : relax.joints) {
      for (int joint : resolveJoints(name, true, "")) {
        out.joints.push_back(joint);
        drives.push_back({joint, name.location});
      }
    }
    out.strength = strength(relax.strength, label_ + ".relax.strength");
    return out;
  }

  Primitive bindNode(const sx::Gc& gc, std::vector<Drive>&) {
    GravityCompPrimitive out;
    if (gc.by) out.byJoint = resolveSingleJoint(*gc.by, "by:");
    if (gc.strength) out.strength = strength(*gc.strength, label_ + ".gc.strength");
    return out;
  }

  // Handled by bindPrimitives.
  Primitive bindNode(const sx::Symm&, std::vector<Drive>&) { return PdPrimitive{}; }
  Primitive bindNode(const sx::Use&, std::vector<Drive>&) { return PdPrimitive{}; }

  // --- features (docs/features.md) -----------------------------------------------------

  Primitive bindNode(const sx::Com& com, std::vector<Drive>&) {
    ComPrimitive out;
    const std::string kind = label_ + ".com.";
    out.axis = com.axis;
    // `standing`: over the middle of the feet at the standing pose's height, moved by the
    // offset (`com y standing`: that height alone, moved by the offset, x free).
    out.fromStanding = com.standing;
    if (!com.standing || com.hasOffset) {
      if (com.axis != 'y') out.x = number(com.target.x, Number::Unit::Plain, kind + "x");
      if (com.axis != 'x') out.y = number(com.target.y, Number::Unit::Plain, kind + "y");
    }
    if (com.inLegs) out.scale = meanLegLength();
    bindEndVelocity(com.args, kind, out);
    bindMotionOptions(com.args, kind, out);
    return out;
  }

  // `velocity: (vx, vy)`: a position target's end velocity, which needs `time:`.
  template <typename Feature>
  void bindEndVelocity(const sx::TaskArgs& args, const std::string& kind, Feature& out) {
    if (!args.velocity) return;
    out.hasEndVelocity = true;
    out.vx = number(args.velocity->x, Number::Unit::Plain, kind + "vx");
    out.vy = number(args.velocity->y, Number::Unit::Plain, kind + "vy");
    if (!args.time)
      sink_.error(args.velocity->location,
                  "'velocity:' needs 'time:': the curve's duration, at whose end the target "
                  "moves at that velocity");
  }

  Primitive bindNode(const sx::AngMom& angmom, std::vector<Drive>&) {
    AngularMomentumPrimitive out;
    const std::string kind = label_ + ".angmom.";
    out.target = number(angmom.target, Number::Unit::Plain, kind + "L");
    Number unused;
    bindGains(angmom.args, kind, unused, out.kd);
    out.task = taskOptions(angmom.args, kind, out.task);
    return out;
  }

  Primitive bindNode(const sx::Track& track, std::vector<Drive>&) {
    TrackPrimitive out;
    const std::string kind = label_ + ".track.";
    const Character& character = this->character();
    const int errorsBefore = sink_.errorCount();
    if (auto joint = character.findJoint(track.on.text)) {
      out.target = TrackPrimitive::Target::JointPosition;
      out.index = *joint;
      if (track.angle || track.standing)
        sink_.error(track.on.location, "an angle target needs a link; " + inQuotes(track.on.text) +
                                           " is a joint (a PD target sets a joint's angle)");
    } else if (auto link = character.findLink(track.on.text)) {
      out.target = track.angle || track.standing ? TrackPrimitive::Target::LinkAngle
                                                 : TrackPrimitive::Target::LinkPosition;
      out.index = *link;
    } else if (const NameLookup role = names_.joints(track.on.text, Groups::Rejected, "track");
               role.ok()) {  // the human's name of a role this character plays otherwise
      out.target = TrackPrimitive::Target::JointPosition;
      out.index = role.index();
      if (track.angle || track.standing)
        sink_.error(track.on.location, "an angle target needs a link; " + inQuotes(track.on.text) +
                                           " is a joint (a PD target sets a joint's angle)");
    } else if (const NameLookup linkRole = names_.links(track.on.text, Groups::Rejected, "track");
               linkRole.ok()) {
      out.target = track.angle || track.standing ? TrackPrimitive::Target::LinkAngle
                                                 : TrackPrimitive::Target::LinkPosition;
      out.index = linkRole.index();
    } else if (!character.findJointGroup(track.on.text).empty() ||
               !character.findLinkGroup(track.on.text).empty()) {
      sink_.error(track.on.location,
                  inQuotes(track.on.text) + " is a group; 'track' needs a single joint or link");
    } else if (isSceneBody(track.on.text)) {
      bindBodyTarget(track, out);
    } else {
      std::vector<std::string_view> candidates = names_.jointNames(false);
      for (std::string_view name : names_.linkNames(false)) candidates.push_back(name);
      const size_t characterNames = candidates.size();
      for (const SceneBodyDef& body : program_.scene.bodies)
        if (body.movable()) candidates.push_back(body.name);
      const char* kind =
          candidates.size() > characterNames ? "joint, link or movable body" : "joint or link";
      sink_.error(track.on.location, unknownNameMessage(kind, track.on.text, candidates));
    }
    if (!track.clip.clips.empty()) {
      bindClipPath(track, kind, sink_.errorCount() == errorsBefore, out);
      bindMotionOptions(track.args, kind, out);
      return out;
    }
    if (track.toBody && (out.target == TrackPrimitive::Target::BodyPosition ||
                         out.target == TrackPrimitive::Target::BodyAngle)) {
      sink_.error(track.toBody->location,
                  "a body follows its holder, not another body: track a joint or a link toward " +
                      inQuotes(track.toBody->text));
    } else if (track.toBody) {
      out.toBody = movableBody(*track.toBody, "track toward", "tracked");
      out.toBodyName = track.toBody->text;
    }
    bindEndVelocity(track.args, kind, out);
    if (track.position) {
      out.x = number(track.position->x, Number::Unit::Plain, kind + "x");
      out.y = number(track.position->y, Number::Unit::Plain, kind + "y");
      if (track.inLegs) out.scale = meanLegLength();
    } else if (track.angle) {
      out.x = number(*track.angle, Number::Unit::Degrees, kind + "angle");
    } else if (track.standing && out.target == TrackPrimitive::Target::BodyAngle) {
      sink_.error(track.on.location, inQuotes(track.on.text) +
                                         " is a body of the scene: it has no standing pose; give "
                                         "its angle in degrees");
    } else if (track.standing && out.target == TrackPrimitive::Target::LinkAngle) {
      // The link's world angle in the standing pose.
      out.x = Number{degToRad(character.standingAngleDeg(out.index)), -1, Number::Unit::Degrees};
    }
    bindMotionOptions(track.args, kind, out);
    return out;
  }

  Primitive bindNode(const sx::Posture& posture, std::vector<Drive>&) {
    PosturePrimitive out;
    const std::string kind = label_ + ".posture.";
    out.clip = bindPlayback(posture.clip, kind);
    bindGains(posture.args, kind, out.kp, out.kd);
    out.task = taskOptions(posture.args, kind, out.task);
    return out;
  }

  // `[clip NAME joints: ...]`: PD targets read from the clip, of the joints listed (every
  // joint the clip has when none is).
  Primitive bindNode(const sx::ClipItem& item, std::vector<Drive>& drives) {
    PdPrimitive out;
    out.clip = bindPlayback(item.args, label_ + ".clip.");
    if (!out.clip.active()) return out;
    const ScriptClip& clip = *out.clip.clips.front();
    auto add = [&](int joint, const SourceLocation& at) {
      out.targets.push_back({joint, Number{}, TargetFrame::Local});
      drives.push_back({joint, at});
    };
    if (item.joints.empty()) {
      for (size_t joint = 0; joint < clip.columnOf.size(); ++joint)
        if (clip.columnOf[joint] >= 0)
          add(static_cast<int>(joint), item.args.clips.front().location);
      return out;
    }
    for (const sx::Name& name : item.joints) {
      std::vector<std::string> lacking;
      for (int joint : resolveJoints(name, true, "joints:")) {
        if (clip.columnOf[static_cast<size_t>(joint)] >= 0)
          add(joint, name.location);
        else
          lacking.push_back(character().joints[static_cast<size_t>(joint)].name);
      }
      if (!lacking.empty()) {
        std::string names;
        for (const std::string& joint : lacking)
          names += (names.empty() ? "" : ", ") + inQuotes(joint);
        std::string has;
        for (const std::string& joint : clip.clip->joints) has += (has.empty() ? "" : ", ") + joint;
        std::string message = "clip " + inQuotes(clip.name) + " has no angles of joint";
        message += lacking.size() == 1 ? " " : "s ";
        message += names;
        message += " (its joints: " + has + ")";
        sink_.error(name.location, message);
      }
    }
    return out;
  }

  // clip-args: the clips by name and the playback's numbers, checked against the clips.
  ClipPlayback bindPlayback(const sx::ClipArgs& args, const std::string& kind) {
    ClipPlayback out;
    const bool written = args.speed || args.from || args.loop || args.nearest;
    if (args.clips.empty()) {
      if (written) {
        const SourceLocation at = args.speed  ? args.speed->location
                                  : args.from ? args.from->location
                                  : args.loop ? args.loop->location
                                              : args.nearest->location;
        sink_.error(at, "speed:, from:, loop and nearest play a clip: add 'clip: NAME'");
      }
      return out;
    }
    for (const sx::Name& name : args.clips) {
      if (auto found = clips_.find(name.text); found != clips_.end()) {
        out.clips.push_back(found->second);
        continue;
      }
      if (unboundClips_.contains(name.text)) continue;  // reported at its declaration
      std::vector<std::string_view> names;
      for (const auto& entry : clips_) names.push_back(entry.first);
      sink_.error(name.location,
                  unknownNameMessage("clip", name.text, names) +
                      (names.empty() ? "; declare it before the first phase: 'clip " +
                                           quoteToken(name.text) + ": \"FILE.clip\"'"
                                     : " (the clips: " + CharacterNames::joined(names) + ")"));
    }
    if (args.clips.size() > 1 && !args.nearest)
      sink_.error(args.clips[1].location,
                  "several clips are a library for nearest-posture selection: add 'nearest', "
                  "or follow one clip");
    out.nearest = args.nearest.has_value();
    out.loop = args.loop.has_value();
    if (args.nearest && args.loop)
      sink_.error(args.loop->location,
                  "'loop' does not apply with 'nearest' (it chooses a frame by the state, not by "
                  "the time)");
    if (args.speed) {
      out.speed = number(*args.speed, Number::Unit::Plain, kind + "speed");
      if (!(args.speed->value > 0.0 && args.speed->value <= 100.0))
        sink_.error(args.speed->location, "speed: must be above 0 and at most 100 (found " +
                                              formatNumber(args.speed->value) + ")");
    }
    if (args.from) {
      out.from = number(*args.from, Number::Unit::Plain, kind + "from");
      if (args.nearest) {
        sink_.error(args.from->location,
                    "'from:' does not apply with 'nearest' (it chooses a frame by the state, not "
                    "by the time)");
      } else if (args.from->value < 0.0) {
        sink_.error(args.from->location,
                    "from: must not be negative (found " + formatNumber(args.from->value) + " s)");
      } else if (out.clips.size() == 1 && !out.loop) {
        const std::string why = clipTimeError(*out.clips.front()->clip, args.from->value);
        if (!why.empty()) sink_.error(args.from->location, "from: " + why + "; or add 'loop'");
      }
    }
    if (out.clips.size() != args.clips.size()) out.clips.clear();  // an unknown clip
    return out;
  }

  Primitive bindNode(const sx::Grasp& grasp, std::vector<Drive>&) {
    GraspPrimitive out;
    for (const sx::Name& name : grasp.links)
      for (int link : resolveLinks(name)) out.links.push_back(link);
    out.body = movableBody(grasp.body, "grasp");
    out.bodyName = grasp.body.text;
    if (grasp.reach) {
      if (!(grasp.reach->value >= 0.0 && grasp.reach->value <= kMaxGraspReach))
        sink_.error(grasp.reach->location, "reach: must be from 0 to " +
                                               formatNumber(kMaxGraspReach) + " m (found " +
                                               formatNumber(grasp.reach->value) + " m)");
      out.reach = number(*grasp.reach, Number::Unit::Plain, label_ + ".reach");
    }
    if (grasp.grip) {
      if (!(grasp.grip->value > 0.0))
        sink_.error(grasp.grip->location,
                    "grip: must be positive (found " + formatNumber(grasp.grip->value) + " N)");
      out.hasGrip = true;
      out.grip = number(*grasp.grip, Number::Unit::Plain, label_ + ".grip");
    }
    return out;
  }

  Primitive bindNode(const sx::Force& force, std::vector<Drive>&) {
    ForcePrimitive out;
    const std::string kind = label_ + ".force.";
    out.link = resolveSingleLink(force.link, "force");
    out.fx = number(force.force.x, Number::Unit::Plain, kind + "fx");
    out.fy = number(force.force.y, Number::Unit::Plain, kind + "fy");
    if (force.max) {
      out.hasMax = true;
      out.max = nonNegative(*force.max, kind + "max", "a force bound");
    }
    out.task = taskOptions(force.args, kind, out.task);
    return out;
  }

  Primitive bindNode(const sx::Swing& swing, std::vector<Drive>&) {
    SwingPrimitive out;
    const std::string kind = label_ + ".swing.";
    out.link = resolveSingleLink(swing.foot, "swing");
    out.x = number(swing.target.x, Number::Unit::Plain, kind + "x");
    out.y = number(swing.target.y, Number::Unit::Plain, kind + "y");
    if (swing.inLegs) out.scale = meanLegLength();
    if (swing.lift) out.lift = nonNegative(*swing.lift, kind + "lift", "a lift");
    if (swing.feedback) {
      out.cd = number(swing.feedback->x, Number::Unit::Plain, kind + "cd");
      out.cv = number(swing.feedback->y, Number::Unit::Plain, kind + "cv");
    }
    bindMotionOptions(swing.args, kind, out);
    if (!(out.duration.value > 0.0) && swing.args.time)
      sink_.error(swing.args.time->location, "a swing needs a positive time: (found 0 s)");
    return out;
  }

  Primitive bindNode(const sx::Support& support, std::vector<Drive>&) {
    using End = SupportPrimitive::End;
    SupportPrimitive out;
    for (size_t i = 0; i < support.links.size(); ++i) {
      const char end = i < support.ends.size() ? support.ends[i] : '\0';
      for (int link : resolveLinks(support.links[i])) {
        out.links.push_back(link);
        out.ends.push_back(end == 'h' ? End::Heel : end == 't' ? End::Toe : End::Whole);
      }
    }
    return out;
  }

  // A `legs` target's metres per unit: the mean of the character's two leg lengths
  // (Character::legLength: hip to ankle plus the ankle's height over the sole).
  double meanLegLength() const {
    return 0.5 * (character().legLength(0) + character().legLength(1));
  }

  // The options of a feature that moves toward a target (com, track): gains, the time to
  // reach it, weight and priority.
  template <typename Feature>
  void bindMotionOptions(const sx::TaskArgs& args, const std::string& kind, Feature& out) {
    bindGains(args, kind, out.kp, out.kd);
    if (args.time) out.duration = duration(*args.time, kind + "time");
    out.task = taskOptions(args, kind, out.task);
  }

  void bindGains(const sx::TaskArgs& args, const std::string& kind, Number& kp, Number& kd) {
    if (args.kp) kp = nonNegative(*args.kp, kind + "kp", "a gain");
    if (args.kd) kd = nonNegative(*args.kd, kind + "kd", "a gain");
  }

  TaskOptions taskOptions(const sx::TaskArgs& args, const std::string& kind, TaskOptions out) {
    if (args.weight) out.weight = nonNegative(*args.weight, kind + "weight", "a weight");
    if (args.priority) out.priority = priority(*args.priority);
    return out;
  }

  // A priority chooses a level: a whole number from 1 (highest) to kMaxPriority.
  int priority(const sx::NumberLit& literal) {
    constexpr int kMaxPriority = 9;
    if (literal.parameter) {
      sink_.error(literal.location,
                  "a priority cannot be an '@' parameter: it chooses a level, it is not tuned");
      return 0;
    }
    const double value = literal.value;
    if (!(value >= 1 && value <= kMaxPriority && value == std::floor(value))) {
      sink_.error(literal.location, "priority must be a whole number from 1 to " +
                                        std::to_string(kMaxPriority) + " (found " +
                                        formatNumber(value) + ")");
      return 0;
    }
    return static_cast<int>(value);
  }

  Number nonNegative(const sx::NumberLit& literal, const std::string& name, std::string_view what) {
    if (literal.value < 0)
      sink_.error(literal.location, std::string(what) + " must not be negative (found " +
                                        formatNumber(literal.value) + ")");
    return number(literal, Number::Unit::Plain, name);
  }

  // Warns when a primitive's angles look like radians: every one small (|a| <= 3.2, about
  // pi) and one of them a fraction, as `[knees -1.57, hips 0.785]`. Whole numbers are
  // plausible degrees (`[waist 2]`), and an `@` number is no evidence: an optimizer may
  // leave any fraction of a degree there.
  void checkRadians(const sx::Pd& pd) {
    const sx::NumberLit* fraction = nullptr;
    for (const sx::PdItem& item : pd.items) {
      const double angle = item.angle.value;
      if (std::abs(angle) > kLargestRadianAngle) return;
      if (!fraction && !item.angle.parameter && angle != std::floor(angle)) fraction = &item.angle;
    }
    if (!fraction) return;
    const std::string written = formatNumber(fraction->value);
    const double degrees = std::round(fraction->value * 180.0 / 3.14159265358979323846);
    sink_.warning(fraction->location, WarningKind::Radians,
                  "angles are degrees: " + written + " is " + written + " deg; for " + written +
                      " rad write " + formatNumber(degrees));
  }

  // Warns when a local target lies outside the joint limits: one warning naming the item
  // as written when every member is outside the same range, else one per member.
  void checkRange(const std::vector<int>& jointIndices, const sx::PdItem& item) {
    const double angle = item.angle.value;
    std::vector<int> outside;
    const auto& joints = character().joints;
    for (int joint : jointIndices)
      if (angle < joints[joint].minDeg || angle > joints[joint].maxDeg) outside.push_back(joint);
    if (outside.empty()) return;
    auto sameRange = [&](int joint) {
      return joints[joint].minDeg == joints[outside[0]].minDeg &&
             joints[joint].maxDeg == joints[outside[0]].maxDeg;
    };
    const bool asWritten =
        outside.size() == joints.size() && std::all_of(outside.begin(), outside.end(), sameRange);
    for (int joint : outside) {
      const JointDef& def = joints[joint];
      std::string who = inQuotes(asWritten ? std::string_view(item.joint.text) : def.name);
      if (!asWritten && item.joint.text != def.name)
        who += " (in " + inQuotes(item.joint.text) + ")";
      sink_.warning(item.angle.location, WarningKind::TargetRange,
                    "target " + formatNumber(angle) + " deg for " + who +
                        " is outside the joint range [" + formatNumber(def.minDeg) + ", " +
                        formatNumber(def.maxDeg) + "] deg");
      if (asWritten) return;
    }
  }

  // --- transitions ----------------------------------------------------------------------

  Transition bindTransition(const sx::Transition& transition, int next) {
    Transition out;
    out.location = transition.location;
    out.next = next;
    if (transition.after) {
      out.hasTime = true;
      out.time = duration(*transition.after, label_ + ".after");
    }
    if (transition.timeout) {
      out.hasTimeout = true;
      out.timeout = duration(*transition.timeout, label_ + ".timeout");
    }
    if (transition.holding) {
      out.hasContact = true;
      out.holding = true;
      if (movableBody(*transition.holding, "hold") >= 0) bindContactBody(*transition.holding, out);
    }
    if (transition.released) {
      out.hasContact = true;
      out.released = true;
      if (movableBody(*transition.released, "release") >= 0)
        bindContactBody(*transition.released, out);
    }
    if (transition.com) {
      const sx::ComCondition& com = *transition.com;
      out.hasContact = true;
      out.com = true;
      out.comQuantity = com.quantity;
      out.comAbove = com.above;
      out.comValue = number(com.value, Number::Unit::Plain, label_ + ".when");
      out.comInLegs = com.legs;
      if (com.legs) out.comScale = meanLegLength();
    }
    if (transition.contact) {
      out.hasContact = true;
      out.event = transition.event == sx::ContactEvent::Lost      ? ContactEvent::Lost
                  : transition.event == sx::ContactEvent::Changed ? ContactEvent::Changed
                                                                  : ContactEvent::Established;
      out.quantifier = transition.quantifier == sx::ContactQuantifier::All ? ContactQuantifier::All
                                                                           : ContactQuantifier::Any;
      for (const sx::Name& target : transition.targets)
        for (int link : resolveLinks(target)) out.links.push_back(link);
      if (transition.body) bindContactBody(*transition.body, out);
    }
    return out;
  }

  bool isSceneBody(std::string_view name) const {
    return std::any_of(program_.scene.bodies.begin(), program_.scene.bodies.end(),
                       [&](const SceneBodyDef& body) { return body.name == name; });
  }

  // `[track BODY (x, y)]` or `[track BODY ANGLE]`: a held body's centre or angle.
  // `[track LINK clip: NAME ...]`: the clip's path of the link (`named`: the name was
  // resolved; an unknown one was reported already), its root's or one of its effectors'.
  void bindClipPath(const sx::Track& track, const std::string& kind, bool named,
                    TrackPrimitive& out) {
    out.clip = bindPlayback(track.clip, kind);
    if (track.clip.nearest) {
      sink_.error(track.clip.nearest->location,
                  "'nearest' chooses a posture by the state; a clip track follows the clip's "
                  "path by the time (use 'nearest' with 'posture')");
    } else if (named && out.target == TrackPrimitive::Target::JointPosition) {
      sink_.error(track.on.location, "a clip has paths of links (its root and effectors); " +
                                         inQuotes(track.on.text) + " is a joint");
    } else if (named && out.target != TrackPrimitive::Target::LinkPosition) {
      sink_.error(track.on.location, "a clip has paths of the character's links; " +
                                         inQuotes(track.on.text) + " is a body of the scene");
    } else if (named && out.clip.active()) {
      const ScriptClip& bound = *out.clip.clips.front();
      const Clip& clip = *bound.clip;
      const std::string& link = character().links[static_cast<size_t>(out.index)].name;
      if (clip.rootLink == link) return;
      for (size_t i = 0; i < clip.effectors.size(); ++i) {
        if (clip.effectors[i] != link) continue;
        out.clipEffector = static_cast<int>(i);
        return;
      }
      std::string has = clip.hasRoot() ? "its root: " + clip.rootLink : "no root";
      has += clip.effectors.empty() ? "; no effectors" : "; its effectors: ";
      for (size_t i = 0; i < clip.effectors.size(); ++i)
        has += (i > 0 ? ", " : "") + clip.effectors[i];
      sink_.error(track.on.location, "clip " + inQuotes(bound.name) + " has no path of link " +
                                         inQuotes(link) + " (" + has + ")");
    }
    out.clip.clips.clear();  // after an error: no clip to follow
  }

  void bindBodyTarget(const sx::Track& track, TrackPrimitive& out) {
    out.target =
        track.position ? TrackPrimitive::Target::BodyPosition : TrackPrimitive::Target::BodyAngle;
    out.index = std::max(movableBody(track.on, "track", "tracked"), 0);
    out.bodyName = track.on.text;
  }

  // A movable body of the scene that a grasp names (`what`: "grasp", "hold"; `done`: what
  // a movable body can be, "held"), its index into the scene's bodies; -1 after an error.
  int movableBody(const sx::Name& name, std::string_view what, std::string_view done = "held") {
    const std::vector<SceneBodyDef>& bodies = program_.scene.bodies;
    std::vector<std::string_view> movable;
    for (size_t i = 0; i < bodies.size() && i < kMaxSceneBodies; ++i) {
      if (bodies[i].name == name.text) {
        if (bodies[i].movable()) return static_cast<int>(i);
        sink_.error(name.location, "cannot " + std::string(what) + " " + inQuotes(name.text) +
                                       ": it is terrain; only a movable object (a box, a "
                                       "ball, a capsule or a chain) can be " +
                                       std::string(done));
        return -1;
      }
      if (bodies[i].movable()) movable.push_back(bodies[i].name);
    }
    if (worldFileUnbound_ || unboundBodies_.contains(name.text)) return -1;
    std::string message = unknownNameMessage("movable body", name.text, movable);
    if (movable.empty())
      message += "; the scene has none: write one after the scene header, e.g. 'box " +
                 quoteToken(name.text) + " at: (0.4, 1) size: (0.3, 0.3) mass: 5'";
    else
      message += " (the scene's movable bodies: " + CharacterNames::joined(movable) + ")";
    sink_.error(name.location, message);
    return -1;
  }

  // `with NAME`: a body of the scene. The world statements come before the phases, so
  // every body is known by now.
  void bindContactBody(const sx::Name& name, Transition& out) {
    const std::vector<SceneBodyDef>& bodies = program_.scene.bodies;
    std::vector<std::string_view> names;
    for (size_t i = 0; i < bodies.size() && i < kMaxSceneBodies; ++i) {
      if (bodies[i].name == name.text) {
        out.body = name.text;
        out.bodyMask = std::uint64_t{1} << i;
        return;
      }
      names.push_back(bodies[i].name);
    }
    if (worldFileUnbound_ || unboundBodies_.contains(name.text)) return;
    std::string message = unknownNameMessage("scene body", name.text, names) +
                          " (the scene's bodies: " + CharacterNames::joined(names) + ")";
    if (names_.links(name.text, Groups::Allowed).ok())
      message += "; " + inQuotes(name.text) +
                 " is a link: the links come before 'with', the scene body after it";
    else if (std::all_of(bodies.begin(), bodies.end(), [](const SceneBodyDef& body) {
               return body.kind == SceneBodyKind::Ground || body.kind == SceneBodyKind::Chair;
             }))
      message += "; a world statement after the scene header names a body: 'platform " +
                 quoteToken(name.text) + " at: 0.5 size: (1, 0.2)'";
    sink_.error(name.location, message);
  }

  // --- names ----------------------------------------------------------------------------

  // Joints named by a joint or (when allowed) a joint group; empty after an error.
  std::vector<int> resolveJoints(const sx::Name& name, bool allowGroup, std::string_view argument) {
    NameLookup lookup =
        names_.joints(name.text, allowGroup ? Groups::Allowed : Groups::Rejected, argument);
    if (!lookup.ok()) sink_.error(name.location, lookup.error);
    return lookup.indices;
  }

  int resolveSingleJoint(const sx::Name& name, std::string_view argument) {
    std::vector<int> joints = resolveJoints(name, false, argument);
    return joints.empty() ? 0 : joints.front();
  }

  std::vector<int> resolveLinks(const sx::Name& name) {
    NameLookup lookup = names_.links(name.text, Groups::Allowed);
    if (!lookup.ok()) sink_.error(name.location, lookup.error);
    return lookup.indices;
  }

  int resolveSingleLink(const sx::Name& name, std::string_view argument) {
    NameLookup lookup = names_.links(name.text, Groups::Rejected, argument);
    if (!lookup.ok()) sink_.error(name.location, lookup.error);
    return lookup.ok() ? lookup.index() : 0;
  }

  // --- numbers --------------------------------------------------------------------------

  // A number in internal units; a `@` number becomes the next parameter slot.
  Number number(const sx::NumberLit& literal, Number::Unit unit, const std::string& name) {
    Number out{0.0, -1, unit};
    out.value = literal.value * out.unitFactor();
    if (!literal.parameter) return out;
    out.slot = static_cast<int>(program_.parameters.size());
    program_.parameters.push_back(
        {uniqueName(name), literal.value, literal.value, literal.location});
    return out;
  }

  Number duration(const sx::NumberLit& literal, const std::string& name) {
    if (literal.value < 0)
      sink_.error(literal.location,
                  "time must not be negative (found " + formatNumber(literal.value) + ")");
    // No phase of a motion lasts minutes: `after 500` meant 500 ms.
    if (literal.value >= kLongestLikelyTime)
      sink_.warning(literal.location, WarningKind::LongTime,
                    formatNumber(literal.value) + " s: milliseconds? times are seconds: write " +
                        formatNumber(literal.value / 1000.0) + " for " +
                        formatNumber(literal.value) + " ms");
    return number(literal, Number::Unit::Plain, name);
  }

  Number strength(const sx::NumberLit& literal, const std::string& name) {
    if (literal.value < 0 || literal.value > 1)
      sink_.warning(literal.location, WarningKind::StrengthRange,
                    "strength " + formatNumber(literal.value) + " is outside [0, 1]");
    return number(literal, Number::Unit::Plain, name);
  }

  // A `when contact` or `when com` without `or after` in a script whose scene header gives
  // no duration: should the condition never come, the phase holds until the run's 60 s limit.
  // Reported at the end, when it is known that the script is not an endless cycle (which
  // runs 10 s). A script without a scene header is a listing whose scene and length the
  // command line gives (`scl run --pose supine --duration 5`, as the thesis's).
  void noteContactWait(const sx::Transition& transition) {
    if (!(transition.contact || transition.com) || transition.after || transition.timeout) return;
    if (!sceneHeader_ || program_.scene.duration || contactWaits_.size() >= kMaxContactWaits)
      return;
    contactWaits_.push_back(
        {transition.location, std::string(transition.com ? "if the centre of mass never gets there"
                                                         : "if this contact never comes") +
                                  ", the phase waits until the run's 60 s limit (the scene "
                                  "header gives no 'duration:'); add a fallback: '" +
                                  printTransitionCondition(transition) +
                                  " or after T', T the longest wait in seconds"});
  }

  std::string uniqueName(const std::string& name) {
    int& uses = parameterNameUses_[name];
    ++uses;
    return uses == 1 ? name : name + "#" + std::to_string(uses);
  }

  DiagnosticSink& sink_;
  bool overridden_;
  std::filesystem::path baseDirectory_;
  // The world file that replaces the header's `world:` (nullptr: none), and whether its
  // bodies are in the scene yet.
  std::shared_ptr<const WorldLoad> worldOverride_;
  bool worldOverrideAdded_ = false;
  Program program_;
  CharacterNames names_;
  int errorsBefore_;
  // Phase references not resolved when met, reported at the end.
  struct UnresolvedPhase {
    sx::Name name;
    bool mirror;             // `: (name)`, else `backto name`
    std::string suggestion;  // "; did you mean ...?" among the phases defined before it
  };
  std::vector<UnresolvedPhase> unresolved_;
  // Block uses not resolved when met, reported at the end.
  struct UnresolvedBlock {
    sx::Name name;
    std::string message;  // when it is defined nowhere
  };
  std::vector<UnresolvedBlock> unresolvedBlocks_;
  std::map<std::string, Block> blocks_;
  std::string definingBlock_;
  std::map<std::string, int> phaseIndex_;
  std::map<std::string, int> parameterNameUses_;
  // `when contact` transitions that may wait until the 60 s limit (noteContactWait()).
  struct ContactWait {
    SourceLocation location;
    std::string message;
  };
  std::vector<ContactWait> contactWaits_;
  // Bodies whose world statement (or world file) had errors: a `with` naming one is not
  // reported again.
  std::set<std::string, std::less<>> unboundBodies_;
  bool worldFileUnbound_ = false;
  // The `push` statements, bound at the end.
  std::vector<sx::WorldStatement> pushes_;
  // The clips declared (`clip NAME: "FILE"`), by name, and those whose file had errors.
  std::map<std::string, std::shared_ptr<const ScriptClip>, std::less<>> clips_;
  std::set<std::string, std::less<>> unboundClips_;
  // Clip files given instead of the script's (CompileOptions::clipFiles), and the names of
  // those a declaration read.
  ClipFiles clipFiles_;
  std::set<std::string, std::less<>> usedClipFiles_;
  // The script's file, from the first statement that names it: where an error about the
  // compile's options (a clip file for no declared clip) points, at its first line.
  FileName scriptFile_;
  bool sceneHeader_ = false;
  // Per phase: the display label and where each joint was last driven.
  std::string label_;
  std::vector<std::optional<SourceLocation>> drivers_;
};

}  // namespace

Primitive mirrored(const Primitive& primitive, const Character& character) {
  return std::visit(Mirror{character}, primitive);
}

struct ScriptBinder::Impl {
  Impl(std::shared_ptr<const Character> character, std::filesystem::path baseDirectory,
       std::shared_ptr<const WorldLoad> world, ClipFiles clipFiles, DiagnosticSink& sink)
      : binder(std::move(character), std::move(baseDirectory), std::move(world),
               std::move(clipFiles), sink) {}
  Binder binder;
  std::optional<Program> program;
};

ScriptBinder::ScriptBinder(DiagnosticSink& sink, std::shared_ptr<const Character> character,
                           std::filesystem::path baseDirectory,
                           std::shared_ptr<const WorldLoad> world, ClipFiles clipFiles)
    : impl_(std::make_unique<Impl>(std::move(character), std::move(baseDirectory), std::move(world),
                                   std::move(clipFiles), sink)) {}
ScriptBinder::~ScriptBinder() = default;
void ScriptBinder::scene(syntax::SceneHeader header) { impl_->binder.scene(header); }
void ScriptBinder::world(syntax::WorldStatement statement) { impl_->binder.world(statement); }
void ScriptBinder::clip(syntax::ClipDecl clip) { impl_->binder.clip(clip); }
void ScriptBinder::define(syntax::Define block) { impl_->binder.define(block); }
void ScriptBinder::phase(syntax::Phase phase, bool last) { impl_->binder.phase(phase, last); }
void ScriptBinder::end(std::optional<syntax::Finally> finally) {
  impl_->program = impl_->binder.finish(finally);
}
std::optional<Program> ScriptBinder::take() { return std::move(impl_->program); }

std::optional<Program> bind(const syntax::Script& script, DiagnosticSink& sink,
                            std::shared_ptr<const Character> character,
                            const std::filesystem::path& baseDirectory) {
  ScriptBinder binder(sink, std::move(character), baseDirectory);
  if (script.scene) binder.scene(*script.scene);
  for (const syntax::WorldStatement& statement : script.world) binder.world(statement);
  for (const syntax::ClipDecl& clip : script.clips) binder.clip(clip);
  for (const syntax::Define& block : script.defines) binder.define(block);
  for (size_t i = 0; i < script.phases.size(); ++i)
    binder.phase(script.phases[i], i + 1 == script.phases.size());
  binder.end(script.finally);
  return binder.take();
}

}  // namespace scl
